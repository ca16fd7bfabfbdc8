/* lode-qdrant-store-points.c — the Qdrant store's ids, filters, file records, loading and batches
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-qdrant-store-private.h"
#include "lode-sparse-vector.h"

void
_lode_qdrant_store_file_record_free (FileRecord *record)
{
  g_free (record->path);
  g_free (record->language);
  g_free (record->hash);
  g_clear_pointer (&record->imports, g_ptr_array_unref);
  _lode_qdrant_store_clear_record_calls (record);
  g_free (record);
}

/* ---- ids and filters ------------------------------------------------------------------- */

/* A name-based UUID (version 5 layout over SHA-1), so that a file's or a meta key's point
 * has the same id on every machine. */
char *
_lode_qdrant_store_name_uuid (const char *kind,
                              const char *name)
{
  g_autofree char *input = g_strconcat ("lode:", kind, ":", name, NULL);
  g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA1, input, -1);
  char hex[33];

  memcpy (hex, sha, 32);
  hex[32] = '\0';
  hex[12] = '5';
  hex[16] = "89ab"[g_ascii_xdigit_value (hex[16]) & 3];
  return g_strdup_printf ("%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16,
                          hex + 20);
}

JsonNode *
_lode_qdrant_store_filter_type (const char *type)
{
  return lode_qdrant_filter_match ("type", type);
}

JsonArray *
_lode_qdrant_store_terms_array (const LodeSparseVector *sparse)
{
  JsonArray *terms = json_array_sized_new (sparse->len);

  for (guint i = 0; i < sparse->len; i++)
    json_array_add_int_element (terms, sparse->indices[i]);
  return terms;
}

/* Chunks whose payload @key holds @value. */
JsonNode *
_lode_qdrant_store_chunk_match (const char *key,
                                const char *value)
{
  return lode_qdrant_filter_and (_lode_qdrant_store_filter_type ("chunk"),
                                 lode_qdrant_filter_match (key, value));
}

JsonArray *
_lode_qdrant_store_strv_to_array (const char * const *strv)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  return array;
}

GStrv
_lode_qdrant_store_array_to_strv (JsonArray *array)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (item));
    }
  return g_strv_builder_end (builder);
}

void
_lode_qdrant_store_set_string (JsonObject *object,
                               const char *member,
                               const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
}

/* ---- file records ---------------------------------------------------------------------- */

LodeStoredImport *
_lode_qdrant_store_stored_import_copy (const LodeStoredImport *import)
{
  LodeStoredImport *copy = g_new0 (LodeStoredImport, 1);

  copy->id = import->id;
  copy->path = g_strdup (import->path);
  copy->specifier = g_strdup (import->specifier);
  copy->name = g_strdup (import->name);
  copy->kind = g_strdup (import->kind);
  copy->line = import->line;
  copy->key = g_strdup (import->key);
  copy->targets = g_strdupv (import->targets);
  copy->package = g_strdup (import->package);
  return copy;
}

/* A file's call sites (lode_calls_to_bytes()) and calls live on its file point, beside its
 * imports: `call_sites` as base64, `calls` as one array per call, [caller, caller_line,
 * callee, qualifier, line, status, rule, confidence, target_path, target_line, package]. */

static void
add_nullable (JsonArray  *array,
              const char *value)
{
  if (value != NULL)
    json_array_add_string_element (array, value);
  else
    json_array_add_null_element (array);
}

static void
calls_to_payload (FileRecord *record,
                  JsonObject *payload)
{
  JsonArray *calls = json_array_new ();

  if (record->call_sites != NULL)
    {
      gsize size;
      gconstpointer data = g_bytes_get_data (record->call_sites, &size);
      g_autofree char *encoded = g_base64_encode (data, size);

      json_object_set_string_member (payload, "call_sites", encoded);
    }
  for (guint i = 0; record->calls != NULL && i < record->calls->len; i++)
    {
      const LodeStoredCall *call = g_ptr_array_index (record->calls, i);
      JsonArray *row = json_array_new ();

      add_nullable (row, call->caller);
      json_array_add_int_element (row, call->caller_line);
      add_nullable (row, call->callee);
      add_nullable (row, call->qualifier);
      json_array_add_int_element (row, call->line);
      json_array_add_int_element (row, call->status);
      json_array_add_int_element (row, call->rule);
      json_array_add_double_element (row, call->confidence);
      add_nullable (row, call->target_path);
      json_array_add_int_element (row, call->target_line);
      add_nullable (row, call->package);
      json_array_add_array_element (calls, row);
    }
  json_object_set_array_member (payload, "calls", calls);
}

static const char *
row_string (JsonArray *row,
            guint      i)
{
  JsonNode *node = json_array_get_element (row, i);

  return JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING
         ? json_node_get_string (node) : NULL;
}

static gint64
row_int (JsonArray *row,
         guint      i)
{
  JsonNode *node = json_array_get_element (row, i);

  return JSON_NODE_HOLDS_VALUE (node) ? json_node_get_int (node) : 0;
}

/* What a file point holds of the call graph; rows that are not such calls are left out. */
static void
calls_from_payload (FileRecord *record,
                    JsonObject *payload)
{
  const char *sites = lode_json_get_string (payload, "call_sites");
  JsonArray *calls = lode_json_get_array (payload, "calls");

  if (sites != NULL)
    {
      gsize size;
      guchar *data = g_base64_decode (sites, &size);

      record->call_sites = g_bytes_new_take (data, size);
    }
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    {
      JsonNode *node = json_array_get_element (calls, i);
      JsonArray *row = JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
      LodeStoredCall *call;

      if (row == NULL || json_array_get_length (row) != 11 || row_string (row, 2) == NULL)
        continue;
      call = g_new0 (LodeStoredCall, 1);
      call->path = g_strdup (record->path);
      call->caller = g_strdup (row_string (row, 0));
      call->caller_line = row_int (row, 1);
      call->callee = g_strdup (row_string (row, 2));
      call->qualifier = g_strdup (row_string (row, 3));
      call->line = row_int (row, 4);
      call->status = CLAMP (row_int (row, 5), LODE_CALL_RESOLVED, LODE_CALL_REGISTERED);
      call->rule = CLAMP (row_int (row, 6), LODE_CALL_RULE_NONE, LODE_CALL_RULE_UNIQUE);
      call->confidence = JSON_NODE_HOLDS_VALUE (json_array_get_element (row, 7))
                         ? json_array_get_double_element (row, 7) : 0;
      call->target_path = g_strdup (row_string (row, 8));
      call->target_line = row_int (row, 9);
      call->package = g_strdup (row_string (row, 10));
      if (record->calls == NULL)
        record->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_call_free);
      g_ptr_array_add (record->calls, call);
    }
}

/* Forgets the call graph of @record (it is put again, or the graph is cleared). */
void
_lode_qdrant_store_clear_record_calls (FileRecord *record)
{
  g_clear_pointer (&record->call_sites, g_bytes_unref);
  g_clear_pointer (&record->calls, g_ptr_array_unref);
}

JsonNode *
_lode_qdrant_store_file_point (FileRecord *record)
{
  g_autofree char *id = _lode_qdrant_store_name_uuid ("file", record->path);
  JsonObject *point = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonArray *imports = json_array_new ();
  JsonArray *keys = json_array_new ();
  JsonArray *targets = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (point, "id", id);
  json_object_set_object_member (point, "vector", json_object_new ());
  json_object_set_string_member (payload, "type", "file");
  json_object_set_string_member (payload, "path", record->path);
  json_object_set_int_member (payload, "file_id", record->id);
  _lode_qdrant_store_set_string (payload, "language", record->language);
  _lode_qdrant_store_set_string (payload, "hash", record->hash);
  json_object_set_int_member (payload, "size", (gint64) record->size);
  json_object_set_int_member (payload, "mtime", record->mtime_usec);
  json_object_set_int_member (payload, "lines", record->n_lines);
  json_object_set_int_member (payload, "n_chunks", record->n_chunks);
  json_object_set_int_member (payload, "n_symbols", record->n_symbols);
  json_object_set_int_member (payload, "n_bytes", (gint64) record->n_bytes);
  json_object_set_int_member (payload, "first_chunk", record->first_chunk);

  for (guint i = 0; record->imports != NULL && i < record->imports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (record->imports, i);
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "specifier", import->specifier);
      _lode_qdrant_store_set_string (item, "name", import->name);
      _lode_qdrant_store_set_string (item, "kind", import->kind);
      json_object_set_int_member (item, "line", import->line);
      _lode_qdrant_store_set_string (item, "key", import->key);
      json_object_set_array_member (item, "targets",
                                    _lode_qdrant_store_strv_to_array (
                                      (const char * const *) import->targets));
      _lode_qdrant_store_set_string (item, "package", import->package);
      json_array_add_object_element (imports, item);
      if (import->key != NULL)
        json_array_add_string_element (keys, import->key);
      for (guint t = 0; import->targets != NULL && import->targets[t] != NULL; t++)
        json_array_add_string_element (targets, import->targets[t]);
    }
  json_object_set_array_member (payload, "imports", imports);
  json_object_set_array_member (payload, "import_keys", keys);
  json_object_set_array_member (payload, "import_targets", targets);
  calls_to_payload (record, payload);

  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

FileRecord *
_lode_qdrant_store_file_record_from_payload (JsonObject *payload)
{
  FileRecord *record = g_new0 (FileRecord, 1);
  JsonNode *imports = json_object_get_member (payload, "imports");

  record->path = g_strdup (lode_json_get_string (payload, "path"));
  record->id = json_object_get_int_member_with_default (payload, "file_id", 0);
  record->language = g_strdup (lode_json_get_string (payload, "language"));
  record->hash = g_strdup (lode_json_get_string (payload, "hash"));
  record->size = json_object_get_int_member_with_default (payload, "size", 0);
  record->mtime_usec = json_object_get_int_member_with_default (payload, "mtime", 0);
  record->n_lines = json_object_get_int_member_with_default (payload, "lines", 0);
  record->n_chunks = json_object_get_int_member_with_default (payload, "n_chunks", 0);
  record->n_symbols = json_object_get_int_member_with_default (payload, "n_symbols", 0);
  record->n_bytes = json_object_get_int_member_with_default (payload, "n_bytes", 0);
  record->first_chunk = json_object_get_int_member_with_default (payload, "first_chunk", 0);
  record->imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);

  if (imports != NULL && JSON_NODE_HOLDS_ARRAY (imports))
    {
      JsonArray *array = json_node_get_array (imports);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonObject *item = json_array_get_object_element (array, i);
          LodeStoredImport *import = g_new0 (LodeStoredImport, 1);
          JsonNode *targets = json_object_get_member (item, "targets");

          import->id = record->id << 16 | i;
          import->path = g_strdup (record->path);
          import->specifier = g_strdup (lode_json_get_string (item, "specifier"));
          import->name = g_strdup (lode_json_get_string (item, "name"));
          import->kind = g_strdup (lode_json_get_string (item, "kind"));
          import->line = json_object_get_int_member_with_default (item, "line", 0);
          import->key = g_strdup (lode_json_get_string (item, "key"));
          import->targets = _lode_qdrant_store_array_to_strv (
            targets != NULL && JSON_NODE_HOLDS_ARRAY (targets) ? json_node_get_array (targets)
                                                               : NULL);
          import->package = g_strdup (lode_json_get_string (item, "package"));
          g_ptr_array_add (record->imports, import);
        }
    }
  calls_from_payload (record, payload);

  return record;
}

JsonNode *
_lode_qdrant_store_meta_point (const char *key,
                               const char *value)
{
  g_autofree char *id = _lode_qdrant_store_name_uuid ("meta", key);
  JsonObject *point = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (point, "id", id);
  json_object_set_object_member (point, "vector", json_object_new ());
  json_object_set_string_member (payload, "type", "meta");
  json_object_set_string_member (payload, "key", key);
  if (value != NULL)
    json_object_set_string_member (payload, "value", value);
  else
    json_object_set_null_member (payload, "value");
  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

/* ---- loading --------------------------------------------------------------------------- */

gboolean
_lode_qdrant_store_load_meta (LodeQdrantStore  *self,
                              GError          **error)
{
  g_autoptr(JsonNode) filter = _lode_qdrant_store_filter_type ("meta");
  g_autoptr(GPtrArray) points = NULL;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, NULL, NULL, 0, NULL,
                                      error);
  if (points == NULL)
    return FALSE;

  g_hash_table_remove_all (self->meta);
  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      const char *key = hit->payload != NULL ? lode_json_get_string (hit->payload, "key") : NULL;

      if (key != NULL)
        g_hash_table_insert (self->meta, g_strdup (key),
                             g_strdup (lode_json_get_string (hit->payload, "value")));
    }

  return TRUE;
}

gint64
_lode_qdrant_store_meta_int (LodeQdrantStore *self,
                             const char      *key)
{
  const char *value = g_hash_table_lookup (self->meta, key);

  return value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;
}

/* The data version of @collection, which every commit bumps; -1 on error. */
gint64
_lode_qdrant_store_read_version (LodeQdrantClient  *client,
                                 const char        *collection,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  g_autofree char *id = _lode_qdrant_store_name_uuid ("meta", "version");
  const char *ids[] = { id };
  const char *fields[] = { "value", NULL };
  g_autoptr(GPtrArray) points = NULL;
  const char *value;

  points = lode_qdrant_client_retrieve (client, collection, ids, 1, fields, cancellable, error);
  if (points == NULL)
    return -1;
  if (points->len == 0)
    return 0;
  value = lode_json_get_string (((LodeQdrantHit *) g_ptr_array_index (points, 0))->payload,
                                "value");
  return value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;
}

gboolean
_lode_qdrant_store_load_files (LodeQdrantStore  *self,
                               GError          **error)
{
  g_autoptr(JsonNode) filter = _lode_qdrant_store_filter_type ("file");
  g_autoptr(GPtrArray) points = NULL;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, NULL, NULL, 0, NULL,
                                      error);
  if (points == NULL)
    return FALSE;

  g_hash_table_remove_all (self->files);
  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      FileRecord *record;

      if (hit->payload == NULL || lode_json_get_string (hit->payload, "path") == NULL)
        continue;
      record = _lode_qdrant_store_file_record_from_payload (hit->payload);
      g_hash_table_replace (self->files, record->path, record);
    }

  self->next_chunk = MAX (_lode_qdrant_store_meta_int (self, "next_chunk"), 1);
  self->next_file = MAX (_lode_qdrant_store_meta_int (self, "next_file"), 1);
  return TRUE;
}

/**
 * lode_qdrant_store_refresh:
 * @self: a #LodeQdrantStore
 * @error: return location for a #GError
 *
 * Reads the file and meta points again: what another process or machine wrote since.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_qdrant_store_refresh (LodeQdrantStore  *self,
                           GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (!self->in_batch, FALSE);

  if (!_lode_qdrant_store_load_meta (self, error) || !_lode_qdrant_store_load_files (self, error))
    return FALSE;
  self->dims = (guint) _lode_qdrant_store_meta_int (self, "dims");
  return TRUE;
}

/**
 * lode_qdrant_store_get_data_version:
 * @self: a #LodeQdrantStore
 *
 * Asks the server for the collection's data version, which every commit bumps (from any
 * process or machine).
 *
 * Returns: the version, or -1 when the server cannot be asked
 */
gint64
lode_qdrant_store_get_data_version (LodeQdrantStore *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), -1);

  return _lode_qdrant_store_read_version (self->client, self->collection, NULL, NULL);
}

static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  return strcmp ((*(FileRecord **) a)->path, (*(FileRecord **) b)->path);
}

GPtrArray *
_lode_qdrant_store_sorted_records (LodeQdrantStore *self)
{
  GPtrArray *records = g_ptr_array_sized_new (g_hash_table_size (self->files));
  GHashTableIter iter;
  gpointer record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, &record))
    g_ptr_array_add (records, record);
  g_ptr_array_sort (records, compare_records);
  return records;
}

/* Chunks, none of those that have no text (with @text) or whose dense vector is of @model. */
JsonNode *
_lode_qdrant_store_chunks_but (gboolean    text,
                               const char *model)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *filter = json_object_new ();
  JsonArray *must = json_array_new ();
  JsonArray *must_not = json_array_new ();

  json_array_add_element (must, _lode_qdrant_store_filter_type ("chunk"));
  if (text)
    {
      JsonObject *empty = json_object_new ();
      JsonObject *condition = json_object_new ();

      json_object_set_string_member (empty, "key", "text_hash");
      json_object_set_object_member (condition, "is_empty", empty);
      json_array_add_object_element (must_not, condition);
    }
  if (model != NULL)
    json_array_add_element (must_not, lode_qdrant_filter_match ("model", model));
  json_object_set_array_member (filter, "must", must);
  json_object_set_array_member (filter, "must_not", must_not);
  json_node_take_object (node, filter);
  return node;
}

guint32
_lode_qdrant_store_token_id (const char *token)
{
  return lode_sparse_token_id (token, strlen (token));
}

/* ---- batches --------------------------------------------------------------------------- */

static gboolean
qdrant_store_begin (LodeIndexStore  *store,
                    GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  g_return_val_if_fail (self->writer, FALSE);

  if (self->in_batch)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "A batch is already open");
      return FALSE;
    }
  self->in_batch = TRUE;
  return TRUE;
}

static void
clear_batch (LodeQdrantStore *self)
{
  self->in_batch = FALSE;
  g_ptr_array_set_size (self->pending_chunks, 0);
  g_ptr_array_set_size (self->pending_refs, 0);
  g_hash_table_remove_all (self->replaced);
  g_hash_table_remove_all (self->replaced_refs);
  g_hash_table_remove_all (self->dirty);
  g_hash_table_remove_all (self->removed);
  g_hash_table_remove_all (self->dirty_meta);
}

static gboolean
delete_paths (LodeQdrantStore  *self,
              const char       *type,
              GHashTable       *paths,
              GError          **error)
{
  g_autofree const char **list = NULL;
  guint n = 0;

  list = (const char **) g_hash_table_get_keys_as_array (paths, &n);
  for (guint start = 0; start < n; start += DELETE_PATHS_PER_REQUEST)
    {
      guint count = MIN (DELETE_PATHS_PER_REQUEST, n - start);
      g_autoptr(JsonNode) filter = NULL;

      filter = lode_qdrant_filter_and (_lode_qdrant_store_filter_type (type),
                                       lode_qdrant_filter_match_any ("path", list + start, count));

      if (!lode_qdrant_client_delete (self->client, self->collection, filter, NULL, error))
        return FALSE;
    }

  return TRUE;
}

/* Writes the batch (see the order at the top of this file). A failure leaves the requests
 * before it written, which the next run repairs; the batch is dropped either way. */
static gboolean
qdrant_store_commit (LodeIndexStore  *store,
                     GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autofree char *next_chunk = NULL;
  g_autofree char *next_file = NULL;
  g_autofree char *version = NULL;
  GHashTableIter iter;
  const char *key;
  gboolean ok = FALSE;

  g_return_val_if_fail (self->in_batch, FALSE);

  next_chunk = g_strdup_printf ("%" G_GINT64_FORMAT, self->next_chunk);
  next_file = g_strdup_printf ("%" G_GINT64_FORMAT, self->next_file);
  if (g_strcmp0 (g_hash_table_lookup (self->meta, "next_chunk"), next_chunk) != 0)
    {
      g_hash_table_replace (self->meta, g_strdup ("next_chunk"), g_strdup (next_chunk));
      g_hash_table_add (self->dirty_meta, g_strdup ("next_chunk"));
    }
  if (g_strcmp0 (g_hash_table_lookup (self->meta, "next_file"), next_file) != 0)
    {
      g_hash_table_replace (self->meta, g_strdup ("next_file"), g_strdup (next_file));
      g_hash_table_add (self->dirty_meta, g_strdup ("next_file"));
    }

  /* 1. The id counters, so that no id is ever handed out twice. */
  if (g_hash_table_contains (self->dirty_meta, "next_chunk") ||
      g_hash_table_contains (self->dirty_meta, "next_file"))
    {
      g_ptr_array_add (points, _lode_qdrant_store_meta_point ("next_chunk", next_chunk));
      g_ptr_array_add (points, _lode_qdrant_store_meta_point ("next_file", next_file));
      if (!lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error))
        goto out;
      g_ptr_array_set_size (points, 0);
    }

  /* 2. Old chunks and references of every file the batch replaces or removes, 3. the new
   * ones. */
  if (!delete_paths (self, "chunk", self->replaced, error) ||
      !delete_paths (self, "refs", self->replaced, error) ||
      !delete_paths (self, "refs", self->replaced_refs, error) ||
      !lode_qdrant_client_upsert (self->client, self->collection, self->pending_chunks, NULL,
                                  error) ||
      !lode_qdrant_client_upsert (self->client, self->collection, self->pending_refs, NULL,
                                  error))
    goto out;

  /* 4. File points with their new hashes and imports, then the removed ones. */
  g_hash_table_iter_init (&iter, self->dirty);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    {
      FileRecord *record = g_hash_table_lookup (self->files, key);

      if (record != NULL)
        g_ptr_array_add (points, _lode_qdrant_store_file_point (record));
    }
  if (!lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error) ||
      !delete_paths (self, "file", self->removed, error))
    goto out;
  g_ptr_array_set_size (points, 0);

  /* 5. Meta, and a new data version for readers. */
  version = g_strdup_printf ("%" G_GINT64_FORMAT,
                             _lode_qdrant_store_meta_int (self, "version") + 1);
  g_hash_table_replace (self->meta, g_strdup ("version"), g_strdup (version));
  g_hash_table_add (self->dirty_meta, g_strdup ("version"));
  g_hash_table_iter_init (&iter, self->dirty_meta);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    g_ptr_array_add (points,
                     _lode_qdrant_store_meta_point (key, g_hash_table_lookup (self->meta, key)));
  ok = lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error);

out:
  if (!ok)
    {
      g_prefix_error (error, "Cannot write to the Qdrant collection %s: ", self->collection);
      clear_batch (self);
      /* What the server has is the truth again. */
      lode_qdrant_store_refresh (self, NULL);
      return FALSE;
    }

  clear_batch (self);
  return TRUE;
}

static void
qdrant_store_rollback (LodeIndexStore *store)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GError) error = NULL;

  if (!self->in_batch)
    return;
  clear_batch (self);
  if (!lode_qdrant_store_refresh (self, &error))
    g_warning ("Cannot read the Qdrant collection %s again: %s", self->collection,
               error->message);
}

gboolean
_lode_qdrant_store_in_batch (LodeQdrantStore  *self,
                             gboolean        (*func) (LodeQdrantStore *, gconstpointer,
                                                      GError **),
                             gconstpointer     data,
                             GError          **error)
{
  if (self->in_batch)
    return func (self, data, error);

  if (!qdrant_store_begin ((LodeIndexStore *) self, error))
    return FALSE;
  if (!func (self, data, error))
    {
      qdrant_store_rollback ((LodeIndexStore *) self);
      return FALSE;
    }
  return qdrant_store_commit ((LodeIndexStore *) self, error);
}


void
_lode_qdrant_store_points_init (LodeIndexStoreInterface *iface)
{
  iface->begin = qdrant_store_begin;
  iface->commit = qdrant_store_commit;
  iface->rollback = qdrant_store_rollback;
}
