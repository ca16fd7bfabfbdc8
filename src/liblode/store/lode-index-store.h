/* lode-index-store.h — what the indexer, the embedding pass and a project need of a store
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-config.h"
#include "lode-grep-query.h"
#include "lode-store.h"

G_BEGIN_DECLS

#define LODE_TYPE_INDEX_STORE (lode_index_store_get_type ())
G_DECLARE_INTERFACE (LodeIndexStore, lode_index_store, LODE, INDEX_STORE, GObject)

/**
 * LodeIndexStoreInterface:
 *
 * A project's index, wherever it is kept: #LodeStore (SQLite, on this machine) or
 * #LodeQdrantStore (a Qdrant server). The functions mean what the #LodeStore functions of
 * the same names document; each implementation writes a batch (begin … commit) so that a
 * crash loses at most the batch and the next run resumes. Searching goes through
 * #LodeSearchBackend.
 */
struct _LodeIndexStoreInterface
{
  GTypeInterface parent_iface;

  gboolean    (*get_was_reset)       (LodeIndexStore      *self);
  const char *(*get_reset_reason)    (LodeIndexStore      *self);
  GHashTable *(*dup_file_hashes)     (LodeIndexStore      *self,
                                      GError             **error);
  GPtrArray  *(*dup_files)           (LodeIndexStore      *self,
                                      GError             **error);
  gboolean    (*begin)               (LodeIndexStore      *self,
                                      GError             **error);
  gboolean    (*commit)              (LodeIndexStore      *self,
                                      GError             **error);
  void        (*rollback)            (LodeIndexStore      *self);
  gboolean    (*put_file)            (LodeIndexStore      *self,
                                      const LodeFileInfo  *file,
                                      GPtrArray           *chunks,
                                      GPtrArray           *symbols,
                                      GError             **error);
  gboolean    (*put_references)      (LodeIndexStore      *self,
                                      const char          *path,
                                      LodeReferences      *references,
                                      GError             **error);
  gboolean    (*remove_file)         (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  char       *(*dup_meta)            (LodeIndexStore      *self,
                                      const char          *key);
  gboolean    (*set_meta)            (LodeIndexStore      *self,
                                      const char          *key,
                                      const char          *value,
                                      GError             **error);
  gboolean    (*get_stats)           (LodeIndexStore      *self,
                                      LodeStoreStats      *stats,
                                      GError             **error);
  GHashTable *(*dup_language_counts) (LodeIndexStore      *self,
                                      GError             **error);
  GPtrArray  *(*dup_chunks_for_file) (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_symbols_for_file) (LodeIndexStore     *self,
                                      const char          *path,
                                      GError             **error);
  gboolean    (*put_imports)         (LodeIndexStore      *self,
                                      const char          *path,
                                      GPtrArray           *imports,
                                      GError             **error);
  GPtrArray  *(*dup_imports)         (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_imports_for_key) (LodeIndexStore      *self,
                                      const char          *key,
                                      GError             **error);
  GPtrArray  *(*dup_imports_to)      (LodeIndexStore      *self,
                                      const char          *target,
                                      GError             **error);
  gboolean    (*set_import_targets)  (LodeIndexStore      *self,
                                      gint64               import_id,
                                      const char * const  *targets,
                                      const char          *package,
                                      GError             **error);
  LodeGraph  *(*load_graph)          (LodeIndexStore      *self,
                                      GError             **error);
  gboolean    (*get_graph_counts)    (LodeIndexStore      *self,
                                      LodeGraphCounts     *counts,
                                      GError             **error);
  gboolean    (*clear_graph)         (LodeIndexStore      *self,
                                      gboolean             forget_hashes,
                                      GError             **error);
  GPtrArray  *(*dup_unembedded)      (LodeIndexStore      *self,
                                      const char          *model,
                                      gint64               after_chunk,
                                      guint                limit,
                                      GError             **error);
  gboolean    (*put_vectors)         (LodeIndexStore      *self,
                                      const char          *model,
                                      guint                dims,
                                      const char * const  *hashes,
                                      const float         *vectors,
                                      guint                n_vectors,
                                      guint               *n_chunks,
                                      GError             **error);
  gboolean    (*count_embedded)      (LodeIndexStore      *self,
                                      const char          *model,
                                      guint               *n_embedded,
                                      guint               *n_embeddable,
                                      GError             **error);
  gboolean    (*prune_vectors)       (LodeIndexStore      *self,
                                      const char          *model,
                                      GError             **error);
  gboolean    (*foreach_vector)      (LodeIndexStore      *self,
                                      const char          *model,
                                      LodeVectorHashFunc   func,
                                      gpointer             user_data,
                                      GError             **error);

  /* What the symbol tools read (issue 15). */
  GPtrArray  *(*find_symbols)        (LodeIndexStore      *self,
                                      const char          *name,
                                      guint                limit,
                                      GError             **error);
  GPtrArray  *(*dup_file_symbols)    (LodeIndexStore      *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_package_symbols) (LodeIndexStore      *self,
                                      const char          *package,
                                      const char          *path_glob,
                                      guint                limit,
                                      GError             **error);
  GPtrArray  *(*find_container_members) (LodeIndexStore   *self,
                                      const char          *container,
                                      guint                limit,
                                      GError             **error);
  GPtrArray  *(*find_references)     (LodeIndexStore      *self,
                                      const char          *name,
                                      GError             **error);
  LodeReferences *(*dup_references_for_file) (LodeIndexStore *self,
                                      const char          *path,
                                      GError             **error);
  GPtrArray  *(*dup_line_chunks)     (LodeIndexStore      *self,
                                      const char          *path,
                                      guint                first,
                                      guint                last,
                                      GError             **error);

  /* Context artifacts (issue 15), kept apart from the code: no code query sees them. */
  GPtrArray  *(*dup_artifacts)       (LodeIndexStore      *self,
                                      GError             **error);
  GPtrArray  *(*dup_artifact_chunks) (LodeIndexStore      *self,
                                      const char          *name,
                                      GError             **error);
  gboolean    (*put_artifact)        (LodeIndexStore      *self,
                                      const LodeStoredArtifact *artifact,
                                      GPtrArray           *chunks,
                                      GError             **error);
  gboolean    (*remove_artifact)     (LodeIndexStore      *self,
                                      const char          *name,
                                      GError             **error);
  GPtrArray  *(*search_artifacts)    (LodeIndexStore      *self,
                                      const char * const  *prefixes,
                                      const char          *artifact,
                                      guint                limit,
                                      GError             **error);

  /* Exact and regex search (issue 29) */
  GPtrArray  *(*find_text_files)     (LodeIndexStore      *self,
                                      const LodeGrepQuery *query,
                                      GError             **error);
};

/**
 * LodeStoreKind:
 * @LODE_STORE_KIND_SQLITE: the embedded SQLite index (the default)
 * @LODE_STORE_KIND_QDRANT: a Qdrant server
 */
typedef enum
{
  LODE_STORE_KIND_SQLITE,
  LODE_STORE_KIND_QDRANT,
} LodeStoreKind;

gboolean        lode_store_kind_from_string       (const char          *name,
                                                   LodeStoreKind       *kind);
const char     *lode_store_kind_to_string         (LodeStoreKind        kind);

LodeIndexStore *lode_index_store_open             (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   guint                dims,
                                                   gboolean             writer,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
char           *lode_index_store_dup_collection   (const char          *db_path);
gboolean        lode_index_store_exists           (LodeStoreKind        kind,
                                                   const char          *db_path);
gboolean        lode_index_store_remove           (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   GError             **error);
gboolean        lode_index_store_remove_leftovers (LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   GError             **error);
LodeIndexStore *lode_index_store_open_aside       (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   guint                dims,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
gboolean        lode_index_store_install          (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   LodeIndexStore      *aside,
                                                   const char          *db_path,
                                                   GError             **error);
void            lode_index_store_discard          (LodeStoreKind        kind,
                                                   LodeIndexStore      *aside,
                                                   const char          *db_path);

/**
 * LodeStoreCopyCounts:
 * @n_files: files copied
 * @n_chunks: chunks copied
 * @n_imports: imports copied
 * @n_vectors: vectors copied (distinct texts)
 * @n_references: files whose symbol references were copied
 * @n_artifacts: context artifacts copied
 */
typedef struct
{
  guint n_files;
  guint n_chunks;
  guint n_imports;
  guint n_vectors;
  guint n_references;
  guint n_artifacts;
} LodeStoreCopyCounts;

gboolean        lode_index_store_copy             (LodeIndexStore      *from,
                                                   LodeIndexStore      *to,
                                                   const char          *model,
                                                   GCancellable        *cancellable,
                                                   LodeStoreCopyCounts *counts,
                                                   GError             **error);
gboolean        lode_index_store_seed             (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *from_db_path,
                                                   const char          *to_db_path,
                                                   guint                dims,
                                                   const char          *model,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

char       *lode_index_store_text_hash           (const char          *text);

gboolean    lode_index_store_get_was_reset       (LodeIndexStore      *self);
const char *lode_index_store_get_reset_reason    (LodeIndexStore      *self);
GHashTable *lode_index_store_dup_file_hashes     (LodeIndexStore      *self,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_files           (LodeIndexStore      *self,
                                                  GError             **error);
gboolean    lode_index_store_begin               (LodeIndexStore      *self,
                                                  GError             **error);
gboolean    lode_index_store_commit              (LodeIndexStore      *self,
                                                  GError             **error);
void        lode_index_store_rollback            (LodeIndexStore      *self);
gboolean    lode_index_store_put_file            (LodeIndexStore      *self,
                                                  const LodeFileInfo  *file,
                                                  GPtrArray           *chunks,
                                                  GPtrArray           *symbols,
                                                  GError             **error);
gboolean    lode_index_store_put_references      (LodeIndexStore      *self,
                                                  const char          *path,
                                                  LodeReferences      *references,
                                                  GError             **error);
gboolean    lode_index_store_remove_file         (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
char       *lode_index_store_dup_meta            (LodeIndexStore      *self,
                                                  const char          *key);
gboolean    lode_index_store_set_meta            (LodeIndexStore      *self,
                                                  const char          *key,
                                                  const char          *value,
                                                  GError             **error);
gboolean    lode_index_store_get_stats           (LodeIndexStore      *self,
                                                  LodeStoreStats      *stats,
                                                  GError             **error);
GHashTable *lode_index_store_dup_language_counts (LodeIndexStore      *self,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_chunks_for_file (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_symbols_for_file (LodeIndexStore     *self,
                                                  const char          *path,
                                                  GError             **error);
gboolean    lode_index_store_put_imports         (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GPtrArray           *imports,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_imports         (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_imports_for_key (LodeIndexStore      *self,
                                                  const char          *key,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_imports_to      (LodeIndexStore      *self,
                                                  const char          *target,
                                                  GError             **error);
gboolean    lode_index_store_set_import_targets  (LodeIndexStore      *self,
                                                  gint64               import_id,
                                                  const char * const  *targets,
                                                  const char          *package,
                                                  GError             **error);
LodeGraph  *lode_index_store_load_graph          (LodeIndexStore      *self,
                                                  GError             **error);
gboolean    lode_index_store_get_graph_counts    (LodeIndexStore      *self,
                                                  LodeGraphCounts     *counts,
                                                  GError             **error);
gboolean    lode_index_store_clear_graph         (LodeIndexStore      *self,
                                                  gboolean             forget_hashes,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_unembedded      (LodeIndexStore      *self,
                                                  const char          *model,
                                                  gint64               after_chunk,
                                                  guint                limit,
                                                  GError             **error);
gboolean    lode_index_store_put_vectors         (LodeIndexStore      *self,
                                                  const char          *model,
                                                  guint                dims,
                                                  const char * const  *hashes,
                                                  const float         *vectors,
                                                  guint                n_vectors,
                                                  guint               *n_chunks,
                                                  GError             **error);
gboolean    lode_index_store_count_embedded      (LodeIndexStore      *self,
                                                  const char          *model,
                                                  guint               *n_embedded,
                                                  guint               *n_embeddable,
                                                  GError             **error);
gboolean    lode_index_store_prune_vectors       (LodeIndexStore      *self,
                                                  const char          *model,
                                                  GError             **error);
gboolean    lode_index_store_foreach_vector      (LodeIndexStore      *self,
                                                  const char          *model,
                                                  LodeVectorHashFunc   func,
                                                  gpointer             user_data,
                                                  GError             **error);

GPtrArray  *lode_index_store_find_symbols        (LodeIndexStore      *self,
                                                  const char          *name,
                                                  guint                limit,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_file_symbols    (LodeIndexStore      *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_package_symbols (LodeIndexStore      *self,
                                                  const char          *package,
                                                  const char          *path_glob,
                                                  guint                limit,
                                                  GError             **error);
GPtrArray  *lode_index_store_find_container_members (LodeIndexStore   *self,
                                                  const char          *container,
                                                  guint                limit,
                                                  GError             **error);
GPtrArray  *lode_index_store_find_references     (LodeIndexStore      *self,
                                                  const char          *name,
                                                  GError             **error);
LodeReferences *lode_index_store_dup_references_for_file (LodeIndexStore *self,
                                                  const char          *path,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_line_texts      (LodeIndexStore      *self,
                                                  const char          *path,
                                                  const guint         *lines,
                                                  guint                n_lines,
                                                  GError             **error);
char       *lode_index_store_dup_lines           (LodeIndexStore      *self,
                                                  const char          *path,
                                                  guint                first,
                                                  guint                last,
                                                  GError             **error);

GPtrArray  *lode_index_store_dup_artifacts       (LodeIndexStore      *self,
                                                  GError             **error);
GPtrArray  *lode_index_store_dup_artifact_chunks (LodeIndexStore      *self,
                                                  const char          *name,
                                                  GError             **error);
gboolean    lode_index_store_put_artifact        (LodeIndexStore      *self,
                                                  const LodeStoredArtifact *artifact,
                                                  GPtrArray           *chunks,
                                                  GError             **error);
gboolean    lode_index_store_remove_artifact     (LodeIndexStore      *self,
                                                  const char          *name,
                                                  GError             **error);
GPtrArray  *lode_index_store_search_artifacts    (LodeIndexStore      *self,
                                                  const char * const  *prefixes,
                                                  const char          *artifact,
                                                  guint                limit,
                                                  GError             **error);
GPtrArray  *lode_index_store_find_text_files     (LodeIndexStore      *self,
                                                  const LodeGrepQuery *query,
                                                  gboolean            *indexed,
                                                  GError             **error);

G_END_DECLS
