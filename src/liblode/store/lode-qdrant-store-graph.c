/* lode-qdrant-store-graph.c — the Qdrant store's imports and import graph
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-qdrant-store-private.h"

/* ---- import graph ---------------------------------------------------------------------- */

typedef struct
{
  const char *path;
  GPtrArray  *imports;
} PutImports;

static gboolean
put_import_rows (LodeQdrantStore  *self,
                 gconstpointer     data,
                 GError          **error)
{
  const PutImports *put = data;
  FileRecord *record = g_hash_table_lookup (self->files, put->path);

  if (record == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                   "Cannot store the imports of %s: the file is not in the index", put->path);
      return FALSE;
    }

  g_ptr_array_set_size (record->imports, 0);
  for (guint i = 0; put->imports != NULL && i < put->imports->len; i++)
    {
      LodeStoredImport *import =
        _lode_qdrant_store_stored_import_copy (g_ptr_array_index (put->imports, i));

      g_free (import->path);
      import->path = g_strdup (record->path);
      import->id = record->id << 16 | i;
      g_ptr_array_add (record->imports, import);
    }
  g_hash_table_add (self->dirty, g_strdup (put->path));
  return TRUE;
}

static gboolean
qdrant_store_put_imports (LodeIndexStore  *store,
                          const char      *path,
                          GPtrArray       *imports,
                          GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  PutImports put = { path, imports };

  g_return_val_if_fail (path != NULL, FALSE);

  return _lode_qdrant_store_in_batch (self, put_import_rows, &put, error);
}

static int
compare_imports (gconstpointer a,
                 gconstpointer b)
{
  const LodeStoredImport *x = *(LodeStoredImport **) a;
  const LodeStoredImport *y = *(LodeStoredImport **) b;

  return (x->id > y->id) - (x->id < y->id);
}

/* A file's imports by line, then as they were put. */
static int
compare_import_lines (gconstpointer a,
                      gconstpointer b)
{
  const LodeStoredImport *x = *(LodeStoredImport **) a;
  const LodeStoredImport *y = *(LodeStoredImport **) b;

  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  return (x->id > y->id) - (x->id < y->id);
}

typedef gboolean (*ImportFilter) (const LodeStoredImport *import,
                                  const char             *value);

static GPtrArray *
collect_imports (LodeQdrantStore *self,
                 ImportFilter     keep,
                 const char      *value)
{
  GPtrArray *imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    for (guint i = 0; i < record->imports->len; i++)
      {
        const LodeStoredImport *import = g_ptr_array_index (record->imports, i);

        if (keep == NULL || keep (import, value))
          g_ptr_array_add (imports, _lode_qdrant_store_stored_import_copy (import));
      }

  g_ptr_array_sort (imports, compare_imports);
  return imports;
}

static gboolean
import_has_key (const LodeStoredImport *import,
                const char             *key)
{
  return g_strcmp0 (import->key, key) == 0;
}

static gboolean
import_has_target (const LodeStoredImport *import,
                   const char             *target)
{
  return import->targets != NULL &&
         g_strv_contains ((const char * const *) import->targets, target);
}

static GPtrArray *
qdrant_store_dup_imports (LodeIndexStore  *store,
                          const char      *path,
                          GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  FileRecord *record;
  GPtrArray *imports;

  if (path == NULL)
    return collect_imports (self, NULL, NULL);

  imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
  record = g_hash_table_lookup (self->files, path);
  for (guint i = 0; record != NULL && i < record->imports->len; i++)
    g_ptr_array_add (imports,
                     _lode_qdrant_store_stored_import_copy (g_ptr_array_index (record->imports,
                                                                               i)));
  g_ptr_array_sort (imports, compare_import_lines);
  return imports;
}

static GPtrArray *
qdrant_store_dup_imports_for_key (LodeIndexStore  *store,
                                  const char      *key,
                                  GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  return collect_imports (self, import_has_key, key);
}

static GPtrArray *
qdrant_store_dup_imports_to (LodeIndexStore  *store,
                             const char      *target,
                             GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  return collect_imports (self, import_has_target, target);
}

typedef struct
{
  gint64              import_id;
  const char * const *targets;
  const char         *package;
} SetTargets;

static gboolean
set_target_rows (LodeQdrantStore  *self,
                 gconstpointer     data,
                 GError          **error)
{
  const SetTargets *set = data;
  GHashTableIter iter;
  FileRecord *record;
  gint64 file_id = set->import_id >> 16;
  guint index = set->import_id & 0xffff;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      LodeStoredImport *import;

      if (record->id != file_id)
        continue;
      if (index >= record->imports->len)
        break;
      import = g_ptr_array_index (record->imports, index);
      g_strfreev (import->targets);
      import->targets = g_strdupv ((char **) set->targets);
      g_free (import->package);
      import->package = g_strdup (set->package);
      g_hash_table_add (self->dirty, g_strdup (record->path));
      return TRUE;
    }

  /* The import went with its file since it was read (a run removed both ends): nothing to
   * resolve, as in the SQLite store. */
  return TRUE;
}

static gboolean
qdrant_store_set_import_targets (LodeIndexStore      *store,
                                 gint64               import_id,
                                 const char * const  *targets,
                                 const char          *package,
                                 GError             **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  SetTargets set = { import_id, targets, package };

  return _lode_qdrant_store_in_batch (self, set_target_rows, &set, error);
}

static LodeGraph *
qdrant_store_load_graph (LodeIndexStore  *store,
                         GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GPtrArray) records = NULL;
  LodeGraph *graph;

  graph = lode_graph_new ();
  records = _lode_qdrant_store_sorted_records (self);
  for (guint i = 0; i < records->len; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);

      lode_graph_add_file (graph, record->path, record->language);
    }

  for (guint i = 0; i < records->len; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);

      for (guint k = 0; k < record->imports->len; k++)
        {
          const LodeStoredImport *import = g_ptr_array_index (record->imports, k);
          gboolean linked = FALSE;

          for (guint t = 0; import->targets != NULL && import->targets[t] != NULL; t++)
            {
              guint to;

              linked = TRUE;
              if (lode_graph_lookup (graph, import->targets[t], &to))
                lode_graph_add_edge (graph, i, to);
            }
          if (!linked && import->package != NULL)
            lode_graph_add_external (graph, i, import->package);
        }
    }

  lode_graph_freeze (graph);
  return graph;
}

static gboolean
qdrant_store_get_graph_counts (LodeIndexStore   *store,
                               LodeGraphCounts  *counts,
                               GError          **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  GHashTableIter iter;
  FileRecord *record;

  memset (counts, 0, sizeof *counts);
  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    for (guint i = 0; i < record->imports->len; i++)
      {
        const LodeStoredImport *import = g_ptr_array_index (record->imports, i);

        counts->n_imports++;
        if (import->targets != NULL && import->targets[0] != NULL)
          counts->n_internal++;
        else if (import->package != NULL)
          counts->n_external++;
      }
  return TRUE;
}

static gboolean
clear_graph_rows (LodeQdrantStore  *self,
                  gconstpointer     data,
                  GError          **error)
{
  gboolean forget_hashes = GPOINTER_TO_INT (data);
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      g_ptr_array_set_size (record->imports, 0);
      if (forget_hashes)
        g_clear_pointer (&record->hash, g_free);
      g_hash_table_add (self->dirty, g_strdup (record->path));
    }
  return TRUE;
}

static gboolean
qdrant_store_clear_graph (LodeIndexStore  *store,
                          gboolean         forget_hashes,
                          GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  return _lode_qdrant_store_in_batch (self, clear_graph_rows, GINT_TO_POINTER (forget_hashes),
                                      error);
}


void
_lode_qdrant_store_graph_init (LodeIndexStoreInterface *iface)
{
  iface->put_imports = qdrant_store_put_imports;
  iface->dup_imports = qdrant_store_dup_imports;
  iface->dup_imports_for_key = qdrant_store_dup_imports_for_key;
  iface->dup_imports_to = qdrant_store_dup_imports_to;
  iface->set_import_targets = qdrant_store_set_import_targets;
  iface->load_graph = qdrant_store_load_graph;
  iface->get_graph_counts = qdrant_store_get_graph_counts;
  iface->clear_graph = qdrant_store_clear_graph;
}
