/* lode-store.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-chunk.h"
#include "lode-artifact-chunker.h"
#include "lode-graph.h"
#include "lode-references.h"
#include "lode-search-backend.h"
#include "lode-search.h"
#include "lode-vector-index.h"

G_BEGIN_DECLS

/* Meta key: "off" when the import graph was removed and indexing leaves it alone. */
#define LODE_GRAPH_META_KEY "graph"

/* Bumped on every schema change; an index with another version is rebuilt. */
#define LODE_STORE_SCHEMA_VERSION 8

typedef struct
{
  const char *path;
  const char *language;
  const char *hash;          /* git blob id (SHA-1 hex) of the content */
  guint64     size;
  gint64      mtime_usec;
  guint       n_lines;
} LodeFileInfo;

/**
 * LodeStoredFile:
 * @path: relative to the project root
 * @language: its language id
 * @hash: (nullable): its content hash
 * @size: bytes
 * @mtime_usec: modification time
 * @n_lines: lines
 *
 * A file as the index holds it.
 */
typedef struct
{
  char    *path;
  char    *language;
  char    *hash;
  guint64  size;
  gint64   mtime_usec;
  guint    n_lines;
} LodeStoredFile;

void lode_stored_file_free (LodeStoredFile *file);

typedef struct
{
  guint   n_files;
  guint   n_chunks;
  guint   n_symbols;
  guint64 n_bytes;           /* source bytes indexed */
  guint64 n_lines;
} LodeStoreStats;

/**
 * LodeStoredImport:
 * @id: row id (ignored by lode_store_put_imports())
 * @path: the importing file
 * @specifier: the import as written (`./util`, `os.path`, `foo.h`)
 * @name: (nullable): the name imported from @specifier where it may be a module (#LodeImport)
 * @kind: (nullable): how it is written, lode_import_kind_to_string()
 * @line: 1-based line of the import
 * @key: (nullable): the resolver's candidate key, see lode_store_dup_imports_for_key()
 * @targets: (nullable) (array zero-terminated=1): the project files it resolves to, best
 *   first (several for a Go package, a C# namespace, a wildcard); empty or %NULL for none
 * @package: (nullable): the external package it resolves to when no project file matches
 *
 * An import of the graph (issue #6) with its resolution. Neither a target nor @package: not
 * resolved.
 */
typedef struct
{
  gint64  id;
  char   *path;
  char   *specifier;
  char   *name;
  char   *kind;
  guint   line;
  char   *key;
  GStrv   targets;
  char   *package;
} LodeStoredImport;

void lode_stored_import_free (LodeStoredImport *import);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredImport, lode_stored_import_free)

typedef struct
{
  guint n_imports;
  guint n_internal;          /* imports resolved to a project file */
  guint n_external;          /* imports resolved to a package */
} LodeGraphCounts;

#define LODE_TYPE_STORE (lode_store_get_type ())
G_DECLARE_FINAL_TYPE (LodeStore, lode_store, LODE, STORE, GObject)

LodeStore  *lode_store_open               (const char            *filename,
                                           GError               **error);
LodeStore  *lode_store_open_reader        (const char            *filename,
                                           GError               **error);
gboolean    lode_store_get_was_reset      (LodeStore             *self);
const char *lode_store_get_reset_reason   (LodeStore             *self);
gboolean    lode_store_is_damaged         (LodeStore             *self);
gboolean    lode_store_check              (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_install            (const char            *from,
                                           const char            *to,
                                           GError               **error);
gboolean    lode_store_remove_files       (const char            *filename,
                                           GError               **error);
gboolean    lode_store_copy_into          (LodeStore             *self,
                                           const char            *filename,
                                           GError               **error);

GHashTable *lode_store_dup_file_hashes    (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_begin              (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_commit             (LodeStore             *self,
                                           GError               **error);
void        lode_store_rollback           (LodeStore             *self);
gboolean    lode_store_put_file           (LodeStore             *self,
                                           const LodeFileInfo    *file,
                                           GPtrArray             *chunks,
                                           GPtrArray             *symbols,
                                           GError               **error);
gboolean    lode_store_remove_file        (LodeStore             *self,
                                           const char            *path,
                                           GError               **error);

char       *lode_store_dup_meta           (LodeStore             *self,
                                           const char            *key);
gboolean    lode_store_set_meta           (LodeStore             *self,
                                           const char            *key,
                                           const char            *value,
                                           GError               **error);
gboolean    lode_store_get_stats          (LodeStore             *self,
                                           LodeStoreStats        *stats,
                                           GError               **error);
GHashTable *lode_store_dup_language_counts (LodeStore            *self,
                                           GError               **error);
GPtrArray  *lode_store_dup_chunks_for_file (LodeStore            *self,
                                           const char            *path,
                                           GError               **error);

/* Import graph (issue #6) */
gboolean    lode_store_put_imports        (LodeStore             *self,
                                           const char            *path,
                                           GPtrArray             *imports,
                                           GError               **error);
GPtrArray  *lode_store_dup_imports        (LodeStore             *self,
                                           const char            *path,
                                           GError               **error);
GPtrArray  *lode_store_dup_imports_for_key (LodeStore            *self,
                                           const char            *key,
                                           GError               **error);
GPtrArray  *lode_store_dup_imports_to     (LodeStore             *self,
                                           const char            *target,
                                           GError               **error);
gboolean    lode_store_set_import_targets (LodeStore             *self,
                                           gint64                 import_id,
                                           const char * const    *targets,
                                           const char            *package,
                                           GError               **error);
LodeGraph  *lode_store_load_graph         (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_get_graph_counts   (LodeStore             *self,
                                           LodeGraphCounts       *counts,
                                           GError               **error);
gboolean    lode_store_clear_graph        (LodeStore             *self,
                                           gboolean               forget_hashes,
                                           GError               **error);

/* Vectors and hybrid search (issue #4) */

/**
 * LodeStoreEmbedText:
 * @chunk_id: the chunk
 * @hash: the hash of its text, which keys its vector
 * @text: the text to embed
 */
typedef struct
{
  gint64  chunk_id;
  char   *hash;
  char   *text;
} LodeStoreEmbedText;

void        lode_store_embed_text_free    (LodeStoreEmbedText    *text);
GPtrArray  *lode_store_dup_unembedded     (LodeStore             *self,
                                           const char            *model,
                                           gint64                 after_chunk,
                                           guint                  limit,
                                           GError               **error);
gboolean    lode_store_put_vectors        (LodeStore             *self,
                                           const char            *model,
                                           guint                  dims,
                                           const char * const    *hashes,
                                           const float           *vectors,
                                           guint                  n_vectors,
                                           guint                 *n_chunks,
                                           GError               **error);
gboolean    lode_store_get_vector_dims    (LodeStore             *self,
                                           const char            *model,
                                           guint                 *dims,
                                           GError               **error);
gboolean    lode_store_count_embedded     (LodeStore             *self,
                                           const char            *model,
                                           guint                 *n_embedded,
                                           guint                 *n_embeddable,
                                           GError               **error);
gboolean    lode_store_prune_vectors      (LodeStore             *self,
                                           const char            *model,
                                           GError               **error);
gint64      lode_store_get_data_version   (LodeStore             *self);
GArray     *lode_store_dup_chunk_ids      (LodeStore             *self,
                                           const char            *language,
                                           const char            *path_glob,
                                           GError               **error);
gboolean    lode_store_load_vectors       (LodeStore             *self,
                                           const char            *model,
                                           guint                  dims,
                                           LodeVectorCursor      *cursor,
                                           LodeVectorFunc    func,
                                           gpointer               user_data,
                                           GError               **error);

/* Copying an index (lode migrate) */
typedef gboolean (*LodeVectorHashFunc) (const char  *hash,
                                        const float *vector,
                                        guint        dims,
                                        gpointer     user_data);

GPtrArray  *lode_store_dup_files          (LodeStore             *self,
                                           GError               **error);
GPtrArray  *lode_store_dup_symbols_for_file (LodeStore           *self,
                                             const char          *path,
                                             GError             **error);
gboolean    lode_store_foreach_vector     (LodeStore             *self,
                                           const char            *model,
                                           LodeVectorHashFunc     func,
                                           gpointer               user_data,
                                           GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoreEmbedText, lode_store_embed_text_free)

/* Symbol tools (issue #15) */

/**
 * LodeStoredSymbol:
 * @path: the file
 * @language: its language id
 * @name: the symbol's name
 * @kind: (nullable): its kind ("function", "class", …)
 * @container: (nullable): the enclosing class, impl, namespace or module
 * @signature: (nullable): the declaration's head
 * @start_line: first line, 1-based
 * @end_line: last line
 * @package: (nullable): the package the file declares, or the enclosing namespaces
 * @detail: (nullable): the details the chunker extracted, as JSON
 *
 * A row of the symbols table with its file.
 */
typedef struct
{
  char  *path;
  char  *language;
  char  *name;
  char  *kind;
  char  *container;
  char  *signature;
  guint  start_line;
  guint  end_line;
  char  *package;
  char  *detail;
} LodeStoredSymbol;

/**
 * LodeStoredReferences:
 * @path: the file
 * @language: its language id
 * @sites: (element-type guint32): where the name appears, see lode_reference_site_line()
 *
 * The sites of one name in one file.
 */
typedef struct
{
  char   *path;
  char   *language;
  GArray *sites;
} LodeStoredReferences;

void        lode_stored_symbol_free       (LodeStoredSymbol      *symbol);
void        lode_stored_references_free   (LodeStoredReferences  *references);
gboolean    lode_store_put_references     (LodeStore             *self,
                                           const char            *path,
                                           LodeReferences        *references,
                                           GError               **error);
GPtrArray  *lode_store_find_symbols       (LodeStore             *self,
                                           const char            *name,
                                           guint                  limit,
                                           GError               **error);
GPtrArray  *lode_store_dup_file_symbols   (LodeStore             *self,
                                           const char            *path,
                                           GError               **error);
GPtrArray  *lode_store_dup_package_symbols (LodeStore            *self,
                                           const char            *package,
                                           const char            *path_glob,
                                           guint                  limit,
                                           GError               **error);
GPtrArray  *lode_store_find_container_members (LodeStore         *self,
                                           const char            *container,
                                           guint                  limit,
                                           GError               **error);
GPtrArray  *lode_store_find_references    (LodeStore             *self,
                                           const char            *name,
                                           GError               **error);
LodeReferences *lode_store_dup_references_for_file (LodeStore     *self,
                                           const char            *path,
                                           GError               **error);
GPtrArray  *lode_store_dup_line_chunks    (LodeStore             *self,
                                           const char            *path,
                                           guint                  first,
                                           guint                  last,
                                           GError               **error);

/* Context artifacts (issue #15) */

/**
 * LodeStoredArtifact:
 * @name: the artifact's name
 * @path: its path as declared
 * @description: (nullable): what it is
 * @hash: the content hash it was indexed at
 * @indexed_at: when (µs since the epoch)
 * @n_files: files indexed
 * @n_chunks: pieces indexed
 */
typedef struct
{
  char   *name;
  char   *path;
  char   *description;
  char   *hash;
  gint64  indexed_at;
  guint   n_files;
  guint   n_chunks;
} LodeStoredArtifact;

/**
 * LodeArtifactHit:
 * @artifact: the artifact's name
 * @path: the file of the piece
 * @start_line: first line
 * @end_line: last line
 * @kind: (nullable): the piece's kind (lode_artifact_chunk_text())
 * @title: (nullable): its title
 * @body: its text
 * @relevance: BM25, higher is better
 */
typedef struct
{
  char   *artifact;
  char   *path;
  guint   start_line;
  guint   end_line;
  char   *kind;
  char   *title;
  char   *body;
  double  relevance;
} LodeArtifactHit;

void        lode_stored_artifact_free     (LodeStoredArtifact    *artifact);
void        lode_artifact_hit_free        (LodeArtifactHit       *hit);
GPtrArray  *lode_store_dup_artifacts      (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_put_artifact       (LodeStore             *self,
                                           const LodeStoredArtifact *artifact,
                                           GPtrArray             *chunks,
                                           GError               **error);
gboolean    lode_store_remove_artifact    (LodeStore             *self,
                                           const char            *name,
                                           GError               **error);
GPtrArray  *lode_store_dup_artifact_chunks (LodeStore            *self,
                                           const char            *name,
                                           GError               **error);
GPtrArray  *lode_store_search_artifacts   (LodeStore             *self,
                                           const char * const    *prefixes,
                                           const char            *artifact,
                                           guint                  limit,
                                           GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredSymbol, lode_stored_symbol_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredArtifact, lode_stored_artifact_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeArtifactHit, lode_artifact_hit_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStoredReferences, lode_stored_references_free)

G_END_DECLS
