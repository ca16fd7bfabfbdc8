/* lode-qdrant-store-calls.c — the Qdrant store's call graph
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-qdrant-store-private.h"

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

static GBytes *
qdrant_store_dup_file_call_sites (LodeIndexStore  *store,
                                  const char      *path,
                                  GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  FileRecord *record = g_hash_table_lookup (self->files, path);

  return record != NULL && record->call_sites != NULL ? g_bytes_ref (record->call_sites) : NULL;
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
  iface->dup_file_call_sites = qdrant_store_dup_file_call_sites;
  iface->put_calls = qdrant_store_put_calls;
  iface->dup_calls = qdrant_store_dup_calls;
}
