/* lode-qdrant-store-files.c — the Qdrant store's file and chunk points, meta, counts
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-json.h"
#include "lode-qdrant-store-private.h"
#include "lode-sparse-vector.h"

/* ---- files ----------------------------------------------------------------------------- */

static GHashTable *
qdrant_store_dup_file_hashes (LodeIndexStore  *store,
                              GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  GHashTable *hashes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    g_hash_table_insert (hashes, g_strdup (record->path), g_strdup (record->hash));
  return hashes;
}

/* Every file, by path. */
static GPtrArray *
qdrant_store_dup_files (LodeIndexStore  *store,
                        GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GPtrArray) records = _lode_qdrant_store_sorted_records (self);
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_file_free);

  for (guint i = 0; i < records->len; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);
      LodeStoredFile *file = g_new0 (LodeStoredFile, 1);

      file->path = g_strdup (record->path);
      file->language = g_strdup (record->language);
      file->hash = g_strdup (record->hash);
      file->size = record->size;
      file->mtime_usec = record->mtime_usec;
      file->n_lines = record->n_lines;
      g_ptr_array_add (files, file);
    }
  return files;
}

typedef struct
{
  const LodeFileInfo *file;
  GPtrArray          *chunks;
  GPtrArray          *symbols;
  const guint        *symbol_chunks;
} PutFile;

static gboolean
put_file_points (LodeQdrantStore  *self,
                 gconstpointer     data,
                 GError          **error)
{
  const PutFile *put = data;
  const LodeFileInfo *file = put->file;
  FileRecord *record = g_hash_table_lookup (self->files, file->path);
  g_autoptr(GPtrArray) chunk_symbols = NULL;
  guint n_symbols = 0;
  guint first_line = 0;

  chunk_symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) json_array_unref);
  if (record == NULL)
    {
      record = g_new0 (FileRecord, 1);
      record->path = g_strdup (file->path);
      record->id = self->next_file++;
      record->imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
      g_hash_table_replace (self->files, record->path, record);
    }

  _lode_qdrant_store_clear_record_calls (record);
  g_free (record->language);
  record->language = g_strdup (file->language != NULL ? file->language : "text");
  g_free (record->hash);
  record->hash = g_strdup (file->hash);
  record->size = file->size;
  record->mtime_usec = file->mtime_usec;
  record->n_lines = file->n_lines;

  for (guint i = 0; put->chunks != NULL && i < put->chunks->len; i++)
    g_ptr_array_add (chunk_symbols, json_array_new ());

  for (guint i = 0; put->symbols != NULL && i < put->symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (put->symbols, i);
      guint chunk = put->symbol_chunks[i];

      if (symbol->name == NULL || chunk >= chunk_symbols->len)
        continue;
      n_symbols++;
      json_array_add_object_element (g_ptr_array_index (chunk_symbols, chunk),
                                     _lode_qdrant_store_symbol_item (symbol, i));
    }

  for (guint i = 0; put->chunks != NULL && i < put->chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (put->chunks, i);
      g_autoptr(GString) sig_text = g_string_new (NULL);
      g_autofree char *hash = lode_index_store_text_hash (chunk->content);
      const char *fields[LODE_SPARSE_N_FIELDS] = { chunk->symbol, NULL, file->path,
                                                   chunk->content };
      g_autoptr(LodeSparseVector) sparse = NULL;
      JsonArray *symbols = g_ptr_array_index (chunk_symbols, i);
      JsonArray *names = json_array_new ();
      JsonObject *point = json_object_new ();
      JsonObject *vector = json_object_new ();
      JsonObject *payload = json_object_new ();
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      lode_chunk_append_search_text (chunk, sig_text);
      fields[LODE_SPARSE_SIGNATURE] = sig_text->str;
      sparse = lode_sparse_vector_for_fields (fields);
      for (guint s = 0; s < json_array_get_length (symbols); s++)
        {
          JsonObject *symbol = json_array_get_object_element (symbols, s);
          g_autofree char *lower = g_utf8_strdown (lode_json_get_string (symbol, "name"), -1);

          json_array_add_string_element (names, lower);
        }

      if (i == 0 || chunk->start_line < first_line)
        {
          record->first_chunk = self->next_chunk;
          first_line = chunk->start_line;
        }
      json_object_set_int_member (point, "id", self->next_chunk++);
      json_object_set_member (vector, "bm25", lode_qdrant_sparse_node (sparse));
      json_object_set_object_member (point, "vector", vector);
      json_object_set_string_member (payload, "type", "chunk");
      json_object_set_string_member (payload, "path", file->path);
      json_object_set_int_member (payload, "file_id", record->id);
      json_object_set_string_member (payload, "language", record->language);
      json_object_set_int_member (payload, "start_line", chunk->start_line);
      json_object_set_int_member (payload, "end_line", chunk->end_line);
      _lode_qdrant_store_set_string (payload, "kind", chunk->kind);
      _lode_qdrant_store_set_string (payload, "symbol", chunk->symbol);
      _lode_qdrant_store_set_string (payload, "container", chunk->container);
      _lode_qdrant_store_set_string (payload, "signature", chunk->signature);
      if (sig_text->len > 0)
        json_object_set_string_member (payload, "sig_text", sig_text->str);
      json_object_set_string_member (payload, "text", chunk->content != NULL ? chunk->content : "");
      _lode_qdrant_store_set_string (payload, "text_hash", hash);
      json_object_set_array_member (payload, "symbols", json_array_ref (symbols));
      json_object_set_array_member (payload, "names", names);
      _lode_qdrant_store_add_symbol_lists (payload, symbols);
      /* The terms again as a payload list: the IDF the scale needs, and identifier queries
       * that require every term, are payload filters. */
      json_object_set_array_member (payload, "terms", _lode_qdrant_store_terms_array (sparse));
      json_object_set_object_member (point, "payload", payload);
      json_node_take_object (node, point);
      g_ptr_array_add (self->pending_chunks, node);
    }

  if (put->chunks == NULL || put->chunks->len == 0)
    record->first_chunk = 0;
  record->n_chunks = put->chunks != NULL ? put->chunks->len : 0;
  record->n_symbols = n_symbols;
  record->n_bytes = file->size;
  g_hash_table_add (self->replaced, g_strdup (file->path));
  g_hash_table_add (self->dirty, g_strdup (file->path));
  g_hash_table_remove (self->removed, file->path);
  return TRUE;
}

/* Replaces what the index holds of @file, inside the open batch or in one of its own. */
static gboolean
qdrant_store_put_file (LodeIndexStore      *store,
                       const LodeFileInfo  *file,
                       GPtrArray           *chunks,
                       GPtrArray           *symbols,
                       const guint         *symbol_chunks,
                       GError             **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  PutFile put = { file, chunks, symbols, symbol_chunks };

  return _lode_qdrant_store_in_batch (self, put_file_points, &put, error);
}

typedef struct
{
  const char *path;
  guint64     size;
  gint64      mtime_usec;
} FileStamp;

static gboolean
set_file_stamp_point (LodeQdrantStore  *self,
                      gconstpointer     data,
                      GError          **error)
{
  const FileStamp *stamp = data;
  FileRecord *record = g_hash_table_lookup (self->files, stamp->path);

  if (record == NULL)
    return TRUE;
  record->size = stamp->size;
  record->n_bytes = stamp->size;
  record->mtime_usec = stamp->mtime_usec;
  g_hash_table_add (self->dirty, g_strdup (stamp->path));
  return TRUE;
}

static gboolean
qdrant_store_set_file_stamp (LodeIndexStore  *store,
                             const char      *path,
                             guint64          size,
                             gint64           mtime_usec,
                             GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  FileStamp stamp = { path, size, mtime_usec };

  return _lode_qdrant_store_in_batch (self, set_file_stamp_point, &stamp, error);
}

/* Files that import @path no longer reach it. */
static void
unlink_target (LodeQdrantStore *self,
               const char      *path)
{
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    for (guint i = 0; i < record->imports->len; i++)
      {
        LodeStoredImport *import = g_ptr_array_index (record->imports, i);
        g_autoptr(GStrvBuilder) kept = NULL;

        if (import->targets == NULL ||
            !g_strv_contains ((const char * const *) import->targets, path))
          continue;
        kept = g_strv_builder_new ();
        for (guint t = 0; import->targets[t] != NULL; t++)
          if (strcmp (import->targets[t], path) != 0)
            g_strv_builder_add (kept, import->targets[t]);
        g_strfreev (import->targets);
        import->targets = g_strv_builder_end (kept);
        g_hash_table_add (self->dirty, g_strdup (record->path));
      }
}

static gboolean
remove_file_points (LodeQdrantStore  *self,
                    gconstpointer     data,
                    GError          **error)
{
  const char *path = data;

  if (!g_hash_table_contains (self->files, path))
    return TRUE;

  g_hash_table_add (self->replaced, g_strdup (path));
  g_hash_table_add (self->removed, g_strdup (path));
  g_hash_table_remove (self->dirty, path);
  g_hash_table_remove (self->files, path);
  unlink_target (self, path);
  return TRUE;
}

static gboolean
qdrant_store_remove_file (LodeIndexStore  *store,
                          const char      *path,
                          GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  g_return_val_if_fail (path != NULL, FALSE);

  return _lode_qdrant_store_in_batch (self, remove_file_points, path, error);
}

/* ---- meta ------------------------------------------------------------------------------ */

static char *
qdrant_store_dup_meta (LodeIndexStore *store,
                       const char     *key)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  return g_strdup (g_hash_table_lookup (self->meta, key));
}

typedef struct
{
  const char *key;
  const char *value;
} SetMeta;

static gboolean
set_meta_point (LodeQdrantStore  *self,
                gconstpointer     data,
                GError          **error)
{
  const SetMeta *set = data;

  g_hash_table_replace (self->meta, g_strdup (set->key), g_strdup (set->value));
  g_hash_table_add (self->dirty_meta, g_strdup (set->key));
  return TRUE;
}

static gboolean
qdrant_store_set_meta (LodeIndexStore  *store,
                       const char      *key,
                       const char      *value,
                       GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  SetMeta set = { key, value };

  g_return_val_if_fail (key != NULL, FALSE);

  return _lode_qdrant_store_in_batch (self, set_meta_point, &set, error);
}

static gboolean
qdrant_store_get_stats (LodeIndexStore  *store,
                        LodeStoreStats  *stats,
                        GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  GHashTableIter iter;
  FileRecord *record;

  memset (stats, 0, sizeof *stats);
  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      stats->n_files++;
      stats->n_chunks += record->n_chunks;
      stats->n_symbols += record->n_symbols;
      stats->n_bytes += record->n_bytes;
      stats->n_lines += record->n_lines;
    }
  return TRUE;
}

static GHashTable *
qdrant_store_dup_language_counts (LodeIndexStore  *store,
                                  GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, record->language));

      g_hash_table_replace (counts, g_strdup (record->language), GUINT_TO_POINTER (n + 1));
    }
  return counts;
}

static gint64
payload_int (LodeQdrantHit *hit,
             const char    *key)
{
  return hit->payload != NULL ? json_object_get_int_member_with_default (hit->payload, key, 0)
                              : 0;
}

/* A file's chunk points by line, then in the order they were put (by id). */
static int
compare_chunk_points (gconstpointer a,
                      gconstpointer b)
{
  LodeQdrantHit *x = *(LodeQdrantHit **) a;
  LodeQdrantHit *y = *(LodeQdrantHit **) b;
  gint64 keys[2][3] = {
    { payload_int (x, "start_line"), payload_int (x, "end_line"),
      g_ascii_strtoll (x->id, NULL, 10) },
    { payload_int (y, "start_line"), payload_int (y, "end_line"),
      g_ascii_strtoll (y->id, NULL, 10) },
  };

  for (guint k = 0; k < 3; k++)
    if (keys[0][k] != keys[1][k])
      return keys[0][k] < keys[1][k] ? -1 : 1;
  return 0;
}

static GPtrArray *
qdrant_store_dup_chunks_for_file (LodeIndexStore  *store,
                                  const char      *path,
                                  GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("path", path);
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *chunks;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, NULL, NULL, 0, NULL,
                                      error);
  if (points == NULL)
    return NULL;

  g_ptr_array_sort (points, compare_chunk_points);
  chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      LodeChunk *chunk = lode_chunk_new ();
      const char *kind = lode_json_get_string (payload, "kind");

      chunk->start_line = json_object_get_int_member_with_default (payload, "start_line", 0);
      chunk->end_line = json_object_get_int_member_with_default (payload, "end_line", 0);
      chunk->kind = kind != NULL ? g_intern_string (kind) : NULL;
      chunk->symbol = g_strdup (lode_json_get_string (payload, "symbol"));
      chunk->container = g_strdup (lode_json_get_string (payload, "container"));
      chunk->signature = g_strdup (lode_json_get_string (payload, "signature"));
      chunk->content = g_strdup (lode_json_get_string (payload, "text"));
      lode_chunk_set_search_text (chunk, lode_json_get_string (payload, "sig_text"));
      g_ptr_array_add (chunks, chunk);
    }
  return chunks;
}

typedef struct
{
  LodeSymbol *symbol;
  gint64      seq;      /* its place in the list the file put */
  guint       chunk;    /* the index of its chunk, as dup_chunks_for_file orders them */
} FileSymbol;

static int
compare_file_symbols (gconstpointer a,
                      gconstpointer b)
{
  const FileSymbol *x = a;
  const FileSymbol *y = b;

  if (x->symbol->start_line != y->symbol->start_line)
    return x->symbol->start_line < y->symbol->start_line ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The declarations of a file, from its chunks' payload, by line then as they were put. */
static GPtrArray *
qdrant_store_dup_symbols_for_file (LodeIndexStore  *store,
                                   const char      *path,
                                   GArray         **symbol_chunks,
                                   GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("path", path);
  const char *fields[] = { "symbols", "start_line", "end_line", NULL };
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (FileSymbol));
  GPtrArray *symbols;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, fields, NULL, 0,
                                      NULL, error);
  if (points == NULL)
    return NULL;

  g_ptr_array_sort (points, compare_chunk_points);
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      JsonNode *list = payload != NULL ? json_object_get_member (payload, "symbols") : NULL;
      JsonArray *array;

      if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
        continue;
      array = json_node_get_array (list);
      for (guint k = 0; k < json_array_get_length (array); k++)
        {
          JsonObject *item = json_array_get_object_element (array, k);
          FileSymbol symbol = { _lode_qdrant_store_symbol_from_item (item),
                                json_object_get_int_member_with_default (item, "seq", 0), i };

          g_array_append_val (found, symbol);
        }
    }
  g_array_sort (found, compare_file_symbols);

  symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  if (symbol_chunks != NULL)
    *symbol_chunks = g_array_sized_new (FALSE, FALSE, sizeof (guint), found->len);
  for (guint i = 0; i < found->len; i++)
    {
      const FileSymbol *symbol = &g_array_index (found, FileSymbol, i);

      g_ptr_array_add (symbols, symbol->symbol);
      if (symbol_chunks != NULL)
        g_array_append_val (*symbol_chunks, symbol->chunk);
    }
  return symbols;
}

static int
compare_chunk_lines (gconstpointer a,
                     gconstpointer b)
{
  const LodeChunk *x = *(LodeChunk **) a;
  const LodeChunk *y = *(LodeChunk **) b;

  if (x->start_line != y->start_line)
    return x->start_line < y->start_line ? -1 : 1;
  return (x->end_line > y->end_line) - (x->end_line < y->end_line);
}

/* The chunks of @path that span @first to @last, by start then end line. */
static GPtrArray *
qdrant_store_dup_line_chunks (LodeIndexStore  *store,
                              const char      *path,
                              guint            first,
                              guint            last,
                              GError         **error)
{
  GPtrArray *chunks = qdrant_store_dup_chunks_for_file (store, path, error);

  if (chunks == NULL)
    return NULL;
  for (guint i = chunks->len; i-- > 0;)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      if (chunk->end_line < first || chunk->start_line > last)
        g_ptr_array_remove_index (chunks, i);
    }
  g_ptr_array_sort (chunks, compare_chunk_lines);
  return chunks;
}

void
_lode_qdrant_store_files_init (LodeIndexStoreInterface *iface)
{
  iface->dup_file_hashes = qdrant_store_dup_file_hashes;
  iface->dup_files = qdrant_store_dup_files;
  iface->put_file = qdrant_store_put_file;
  iface->set_file_stamp = qdrant_store_set_file_stamp;
  iface->remove_file = qdrant_store_remove_file;
  iface->dup_meta = qdrant_store_dup_meta;
  iface->set_meta = qdrant_store_set_meta;
  iface->get_stats = qdrant_store_get_stats;
  iface->dup_language_counts = qdrant_store_dup_language_counts;
  iface->dup_chunks_for_file = qdrant_store_dup_chunks_for_file;
  iface->dup_symbols_for_file = qdrant_store_dup_symbols_for_file;
  iface->dup_line_chunks = qdrant_store_dup_line_chunks;
}
