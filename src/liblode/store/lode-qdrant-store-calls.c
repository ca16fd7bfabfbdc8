/* lode-qdrant-store-calls.c — the Qdrant store's call graph
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

/* A file's call sites (lode_calls_to_bytes()) and calls live on its file point, beside its
 * imports: `call_sites` as base64, `calls` as one array per call, [caller, caller_line,
 * callee, qualifier, line, status, rule, confidence, target_path, target_line, package]. */

static LodeStoredCall *
stored_call_copy (const LodeStoredCall *call,
                  const char           *path)
{
  LodeStoredCall *copy = g_new0 (LodeStoredCall, 1);

  copy->path = g_strdup (path);
  copy->caller = g_strdup (call->caller);
  copy->caller_line = call->caller_line;
  copy->callee = g_strdup (call->callee);
  copy->qualifier = g_strdup (call->qualifier);
  copy->line = call->line;
  copy->status = call->status;
  copy->rule = call->rule;
  copy->confidence = call->confidence;
  copy->target_path = g_strdup (call->target_path);
  copy->target_line = call->target_line;
  copy->package = g_strdup (call->package);
  return copy;
}

static void
add_nullable (JsonArray  *array,
              const char *value)
{
  if (value != NULL)
    json_array_add_string_element (array, value);
  else
    json_array_add_null_element (array);
}

void
_lode_qdrant_store_calls_to_payload (FileRecord *record,
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
void
_lode_qdrant_store_calls_from_payload (FileRecord *record,
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

typedef struct
{
  const char *path;
  GBytes     *sites;
  GPtrArray  *calls;
} PutCalls;

static FileRecord *
record_for (LodeQdrantStore  *self,
            const char       *path,
            GError          **error)
{
  FileRecord *record = g_hash_table_lookup (self->files, path);

  if (record == NULL)
    g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                 "Cannot store the calls of %s: the file is not in the index", path);
  return record;
}

static gboolean
put_site_rows (LodeQdrantStore  *self,
               gconstpointer     data,
               GError          **error)
{
  const PutCalls *put = data;
  FileRecord *record = record_for (self, put->path, error);

  if (record == NULL)
    return FALSE;
  g_clear_pointer (&record->call_sites, g_bytes_unref);
  record->call_sites = g_bytes_ref (put->sites);
  g_hash_table_add (self->dirty, g_strdup (put->path));
  return TRUE;
}

static gboolean
qdrant_store_put_call_sites (LodeIndexStore  *store,
                             const char      *path,
                             GBytes          *sites,
                             GError         **error)
{
  PutCalls put = { path, sites, NULL };

  return _lode_qdrant_store_in_batch ((LodeQdrantStore *) store, put_site_rows, &put, error);
}

static GHashTable *
qdrant_store_dup_call_sites (LodeIndexStore  *store,
                             GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  GHashTable *sites = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_bytes_unref);
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    if (record->call_sites != NULL)
      g_hash_table_insert (sites, g_strdup (record->path), g_bytes_ref (record->call_sites));
  return sites;
}

static gboolean
put_call_rows (LodeQdrantStore  *self,
               gconstpointer     data,
               GError          **error)
{
  const PutCalls *put = data;
  FileRecord *record = record_for (self, put->path, error);

  if (record == NULL)
    return FALSE;
  g_clear_pointer (&record->calls, g_ptr_array_unref);
  record->calls = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_call_free);
  for (guint i = 0; put->calls != NULL && i < put->calls->len; i++)
    g_ptr_array_add (record->calls, stored_call_copy (g_ptr_array_index (put->calls, i),
                                                      record->path));
  g_hash_table_add (self->dirty, g_strdup (put->path));
  return TRUE;
}

static gboolean
qdrant_store_put_calls (LodeIndexStore  *store,
                        const char      *path,
                        GPtrArray       *calls,
                        GError         **error)
{
  PutCalls put = { path, NULL, calls };

  return _lode_qdrant_store_in_batch ((LodeQdrantStore *) store, put_call_rows, &put, error);
}

static void
add_calls (GPtrArray  *calls,
           FileRecord *record)
{
  for (guint i = 0; record != NULL && record->calls != NULL && i < record->calls->len; i++)
    g_ptr_array_add (calls, stored_call_copy (g_ptr_array_index (record->calls, i),
                                              record->path));
}

static int
compare_paths (const void *a,
               const void *b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static GPtrArray *
qdrant_store_dup_calls (LodeIndexStore  *store,
                        const char      *path,
                        GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  GPtrArray *calls = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_call_free);
  g_autofree const char **paths = NULL;
  guint n;

  if (path != NULL)
    {
      add_calls (calls, g_hash_table_lookup (self->files, path));
      return calls;
    }
  paths = (const char **) g_hash_table_get_keys_as_array (self->files, &n);
  qsort (paths, n, sizeof (char *), compare_paths);
  for (guint i = 0; i < n; i++)
    add_calls (calls, g_hash_table_lookup (self->files, paths[i]));
  return calls;
}

void
_lode_qdrant_store_calls_init (LodeIndexStoreInterface *iface)
{
  iface->put_call_sites = qdrant_store_put_call_sites;
  iface->dup_call_sites = qdrant_store_dup_call_sites;
  iface->put_calls = qdrant_store_put_calls;
  iface->dup_calls = qdrant_store_dup_calls;
}
