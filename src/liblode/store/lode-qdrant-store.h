/* lode-qdrant-store.h — a project's index in a Qdrant collection
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-qdrant-client.h"
#include "lode-store.h"

G_BEGIN_DECLS

/* Bumped when the layout of the points changes; a collection of another version is made
 * anew by a writer, never read. */
#define LODE_QDRANT_SCHEMA_VERSION 1

#define LODE_TYPE_QDRANT_STORE (lode_qdrant_store_get_type ())
G_DECLARE_FINAL_TYPE (LodeQdrantStore, lode_qdrant_store, LODE, QDRANT_STORE, GObject)

LodeQdrantStore *lode_qdrant_store_open          (LodeQdrantClient        *client,
                                                  const char              *collection,
                                                  const LodeQdrantCollectionSpec *spec,
                                                  gboolean                 writer,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
const char      *lode_qdrant_store_get_collection (LodeQdrantStore        *self);
LodeQdrantClient *lode_qdrant_store_get_client    (LodeQdrantStore        *self);
gboolean         lode_qdrant_store_get_was_reset (LodeQdrantStore         *self);
const char      *lode_qdrant_store_get_reset_reason (LodeQdrantStore      *self);
guint            lode_qdrant_store_get_dims      (LodeQdrantStore         *self);
gboolean         lode_qdrant_store_refresh       (LodeQdrantStore         *self,
                                                  GError                 **error);

GHashTable *lode_qdrant_store_dup_file_hashes    (LodeQdrantStore         *self);
gboolean    lode_qdrant_store_begin              (LodeQdrantStore         *self,
                                                  GError                 **error);
gboolean    lode_qdrant_store_commit             (LodeQdrantStore         *self,
                                                  GError                 **error);
void        lode_qdrant_store_rollback           (LodeQdrantStore         *self);
gboolean    lode_qdrant_store_put_file           (LodeQdrantStore         *self,
                                                  const LodeFileInfo      *file,
                                                  GPtrArray               *chunks,
                                                  GPtrArray               *symbols,
                                                  GError                 **error);
gboolean    lode_qdrant_store_remove_file        (LodeQdrantStore         *self,
                                                  const char              *path,
                                                  GError                 **error);
char       *lode_qdrant_store_dup_meta           (LodeQdrantStore         *self,
                                                  const char              *key);
gboolean    lode_qdrant_store_set_meta           (LodeQdrantStore         *self,
                                                  const char              *key,
                                                  const char              *value,
                                                  GError                 **error);
void        lode_qdrant_store_get_stats          (LodeQdrantStore         *self,
                                                  LodeStoreStats          *stats);
GHashTable *lode_qdrant_store_dup_language_counts (LodeQdrantStore        *self);
GPtrArray  *lode_qdrant_store_dup_chunks_for_file (LodeQdrantStore        *self,
                                                  const char              *path,
                                                  GError                 **error);
gint64      lode_qdrant_store_get_data_version   (LodeQdrantStore         *self);

gboolean    lode_qdrant_store_put_imports        (LodeQdrantStore         *self,
                                                  const char              *path,
                                                  GPtrArray               *imports,
                                                  GError                 **error);
GPtrArray  *lode_qdrant_store_dup_imports        (LodeQdrantStore         *self,
                                                  const char              *path);
GPtrArray  *lode_qdrant_store_dup_imports_for_key (LodeQdrantStore        *self,
                                                  const char              *key);
GPtrArray  *lode_qdrant_store_dup_imports_to     (LodeQdrantStore         *self,
                                                  const char              *target);
gboolean    lode_qdrant_store_set_import_targets (LodeQdrantStore         *self,
                                                  gint64                   import_id,
                                                  const char * const      *targets,
                                                  const char              *package,
                                                  GError                 **error);
LodeGraph  *lode_qdrant_store_load_graph         (LodeQdrantStore         *self);
void        lode_qdrant_store_get_graph_counts   (LodeQdrantStore         *self,
                                                  LodeGraphCounts         *counts);
gboolean    lode_qdrant_store_clear_graph        (LodeQdrantStore         *self,
                                                  gboolean                 forget_hashes,
                                                  GError                 **error);

GPtrArray  *lode_qdrant_store_dup_unembedded     (LodeQdrantStore         *self,
                                                  const char              *model,
                                                  gint64                   after_chunk,
                                                  guint                    limit,
                                                  GError                 **error);
gboolean    lode_qdrant_store_put_vectors        (LodeQdrantStore         *self,
                                                  const char              *model,
                                                  guint                    dims,
                                                  const char * const      *hashes,
                                                  const float             *vectors,
                                                  guint                    n_vectors,
                                                  guint                   *n_chunks,
                                                  GError                 **error);
gboolean    lode_qdrant_store_count_embedded     (LodeQdrantStore         *self,
                                                  const char              *model,
                                                  guint                   *n_embedded,
                                                  guint                   *n_embeddable,
                                                  GError                 **error);

GPtrArray  *lode_qdrant_store_search_lexical     (LodeQdrantStore         *self,
                                                  const char * const      *terms,
                                                  const double            *weights,
                                                  guint                    n_terms,
                                                  const char              *language,
                                                  guint                    limit,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
GPtrArray  *lode_qdrant_store_search_hybrid      (LodeQdrantStore         *self,
                                                  const char * const      *terms,
                                                  const double            *weights,
                                                  guint                    n_terms,
                                                  const char              *model,
                                                  const float             *query,
                                                  guint                    dims,
                                                  const char              *language,
                                                  guint                    candidates,
                                                  guint                    limit,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);

G_END_DECLS
