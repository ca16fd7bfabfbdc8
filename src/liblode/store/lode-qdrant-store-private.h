/* lode-qdrant-store-private.h — what the parts of the Qdrant store share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-qdrant-store.h"
#include "lode-search-backend.h"
#include "lode-sparse-vector.h"

G_BEGIN_DECLS

/*
 * The Qdrant store in parts, each calling only those below it:
 *
 *   lode-qdrant-store.c            the object: names and generations (open, build aside,
 *                                  install, delete), the interfaces wired to the parts
 *   lode-qdrant-store-files.c      file and chunk points, meta, counts
 *   lode-qdrant-store-graph.c      imports (in the file points) and the import graph
 *   lode-qdrant-store-calls.c      call sites and calls (in the file points)
 *   lode-qdrant-store-search.c     the searcher's rows (LodeSearchBackend), over -vectors
 *   lode-qdrant-store-vectors.c    dense vectors
 *   lode-qdrant-store-symbols.c    declarations in chunk points, references points
 *   lode-qdrant-store-artifacts.c  context artifacts' points
 *   lode-qdrant-store-points.c     ids, filters, file records (their imports and calls
 *                                  included), loading, batches
 */

/* Paths in one delete-by-filter request: the filter's size stays far under the limits. */
#define DELETE_PATHS_PER_REQUEST 256

typedef struct
{
  char      *path;
  gint64     id;
  char      *language;
  char      *hash;
  guint64    size;
  gint64     mtime_usec;
  guint      n_lines;
  guint      n_chunks;
  guint      n_symbols;
  guint64    n_bytes;
  gint64     first_chunk; /* the chunk with the first lines, 0 for none */
  GPtrArray *imports;    /* LodeStoredImport, ids: file id << 16 | index */
  GBytes    *call_sites; /* (nullable): lode_calls_to_bytes () */
  GPtrArray *calls;      /* (nullable): LodeStoredCall */
} FileRecord;

struct _LodeQdrantStore
{
  GObject           parent_instance;

  LodeQdrantClient *client;
  char             *collection;   /* what requests name: the alias, or a new generation */
  char             *alias;        /* for a generation built aside: the alias it replaces */
  guint             dims;
  gboolean          writer;
  gboolean          was_reset;
  char             *reset_reason;

  GHashTable       *files;        /* path → FileRecord */
  GHashTable       *meta;         /* key → value */
  gint64            next_chunk;
  gint64            next_file;
  gint64            seen_version;     /* the data version the file points were read at */

  /* The batch in flight (between begin and commit). */
  gboolean          in_batch;
  GPtrArray        *pending_chunks;   /* JsonNode points */
  GPtrArray        *pending_refs;     /* JsonNode points */
  GHashTable       *replaced;         /* paths whose old chunks and references go */
  GHashTable       *replaced_refs;    /* paths whose old references go */
  GHashTable       *dirty;            /* paths whose file point is written */
  GHashTable       *removed;          /* paths whose file point goes */
  GHashTable       *dirty_meta;       /* keys */
};

/* Each part wires its functions into the interfaces. */
void        _lode_qdrant_store_points_init    (LodeIndexStoreInterface    *iface);
void        _lode_qdrant_store_files_init     (LodeIndexStoreInterface    *iface);
void        _lode_qdrant_store_graph_init     (LodeIndexStoreInterface    *iface);
void        _lode_qdrant_store_calls_init     (LodeIndexStoreInterface    *iface);
void        _lode_qdrant_store_vectors_init   (LodeIndexStoreInterface    *iface);
void        _lode_qdrant_store_symbols_init   (LodeIndexStoreInterface    *iface);
void        _lode_qdrant_store_artifacts_init (LodeIndexStoreInterface    *iface);
void        _lode_qdrant_store_search_init    (LodeSearchBackendInterface *iface);

/* Ids, filters and records (lode-qdrant-store-points.c). */
char       *_lode_qdrant_store_name_uuid      (const char             *kind,
                                               const char             *name);
JsonNode   *_lode_qdrant_store_filter_type    (const char             *type);
JsonNode   *_lode_qdrant_store_chunk_match    (const char             *key,
                                               const char             *value);
JsonNode   *_lode_qdrant_store_chunks_but   (gboolean                text,
                                               const char             *model);
JsonArray  *_lode_qdrant_store_terms_array    (const LodeSparseVector *sparse);
guint32     _lode_qdrant_store_token_id       (const char             *token);
JsonArray  *_lode_qdrant_store_strv_to_array  (const char * const     *strv);
GStrv       _lode_qdrant_store_array_to_strv  (JsonArray              *array);
void        _lode_qdrant_store_set_string     (JsonObject             *object,
                                               const char             *member,
                                               const char             *value);
LodeStoredImport *_lode_qdrant_store_stored_import_copy (const LodeStoredImport *import);
JsonNode   *_lode_qdrant_store_file_point     (FileRecord             *record);
void        _lode_qdrant_store_clear_record_calls (FileRecord         *record);
FileRecord *_lode_qdrant_store_file_record_from_payload (JsonObject      *payload);
void        _lode_qdrant_store_file_record_free (FileRecord           *record);
JsonNode   *_lode_qdrant_store_meta_point     (const char             *key,
                                               const char             *value);
gboolean    _lode_qdrant_store_load_meta      (LodeQdrantStore        *self,
                                               GError                **error);
gint64      _lode_qdrant_store_meta_int       (LodeQdrantStore        *self,
                                               const char             *key);
gint64      _lode_qdrant_store_read_version   (LodeQdrantClient       *client,
                                               const char             *collection,
                                               GCancellable           *cancellable,
                                               GError                **error);
gboolean    _lode_qdrant_store_load_files     (LodeQdrantStore        *self,
                                               GError                **error);
GPtrArray  *_lode_qdrant_store_sorted_records (LodeQdrantStore        *self);

/* Runs @func inside the open batch, or in a batch of its own. */
gboolean    _lode_qdrant_store_in_batch       (LodeQdrantStore        *self,
                                               gboolean              (*func) (LodeQdrantStore *,
                                                                              gconstpointer,
                                                                              GError **),
                                               gconstpointer           data,
                                               GError                **error);

/* Dense vectors (lode-qdrant-store-vectors.c). */
typedef gboolean (*LodeQdrantDenseFunc) (gint64       id,
                                         JsonObject  *payload,
                                         const float *vector,
                                         guint        dims,
                                         gpointer     user_data);

gboolean    _lode_qdrant_store_scroll_dense   (LodeQdrantStore        *self,
                                               const char             *model,
                                               gint64                  from,
                                               const char             *field,
                                               LodeQdrantDenseFunc     func,
                                               gpointer                user_data,
                                               GError                **error);

/* Declarations in chunk points (lode-qdrant-store-symbols.c). */
JsonObject *_lode_qdrant_store_symbol_item    (const LodeSymbol       *symbol,
                                               guint                   seq);
void        _lode_qdrant_store_add_symbol_lists (JsonObject           *payload,
                                                 JsonArray            *symbols);
LodeSymbol *_lode_qdrant_store_symbol_from_item (JsonObject           *item);

G_END_DECLS
