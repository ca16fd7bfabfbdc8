/* lode-store-graph.c — imports, their resolution, the import graph
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-store-private.h"

/* Import graph (issue #6). `imports` holds what a file's own parse found, so it changes only
 * when the file does; `edges` holds where each import resolves: one row per project file it
 * reaches (a Go package or a wildcard reaches several), or one row with the external package,
 * or one row with neither while unresolved; edges change when files come and go.
 * Targets are paths, not file ids: an import may point at a file stored later in the same
 * run, and a deleted file's id may be reused. `key` is the resolver's candidate key: adding
 * or removing a file re-resolves only the imports whose key that file could satisfy; `name`
 * is what resolution needs besides the specifier (Python's `from a import b`). */
const char _lode_store_graph_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS imports ("
  "  id INTEGER PRIMARY KEY,"
  "  file_id INTEGER NOT NULL,"
  "  specifier TEXT NOT NULL,"
  "  name TEXT,"
  "  kind TEXT,"
  "  line INTEGER NOT NULL,"
  "  key TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS imports_file ON imports (file_id);"
  "CREATE TABLE IF NOT EXISTS edges ("
  "  id INTEGER PRIMARY KEY,"
  "  import_id INTEGER NOT NULL,"
  "  from_id INTEGER NOT NULL,"
  "  to_path TEXT,"
  "  package TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS edges_import ON edges (import_id);"
  "CREATE INDEX IF NOT EXISTS edges_from ON edges (from_id);";
const char _lode_store_graph_lookup_sql[] =
  "CREATE INDEX IF NOT EXISTS imports_key ON imports (key);"
  "CREATE INDEX IF NOT EXISTS edges_to ON edges (to_path);";

/* One row per edge: the rows of an import are adjacent in every ORDER BY below. */
#define IMPORT_COLUMNS \
  "i.id, f.path, i.specifier, i.name, i.kind, i.line, i.key, e.to_path, e.package " \
  "FROM imports i JOIN files f ON f.id = i.file_id LEFT JOIN edges e ON e.import_id = i.id "

static const char sql_imports_delete_file[] = "DELETE FROM imports WHERE file_id = ?1";
static const char sql_edges_delete_file[] = "DELETE FROM edges WHERE from_id = ?1";
static const char sql_edges_unlink_path[] = "UPDATE edges SET to_path = NULL WHERE to_path = ?1";
static const char sql_import_insert[] =
  "INSERT INTO imports (file_id, specifier, name, kind, line, key) "
  "VALUES (?1, ?2, ?3, ?4, ?5, ?6)";
/* VALUES, not INSERT … SELECT: a statement that may write several rows opens a statement
 * savepoint, and FTS5 flushes its pending terms to a new segment at every savepoint. */
static const char sql_edge_insert[] =
  "INSERT INTO edges (import_id, from_id, to_path, package) VALUES (?1, ?2, ?3, ?4)";
static const char sql_import_file[] = "SELECT file_id FROM imports WHERE id = ?1";
static const char sql_edges_delete_import[] = "DELETE FROM edges WHERE import_id = ?1";
static const char sql_imports_by_key[] =
  "SELECT " IMPORT_COLUMNS "WHERE i.key = ?1 ORDER BY i.id, e.id";
static const char sql_imports_by_target[] =
  "SELECT " IMPORT_COLUMNS
  "WHERE i.id IN (SELECT import_id FROM edges WHERE to_path = ?1) ORDER BY i.id, e.id";
static const char sql_imports_of_file[] =
  "SELECT " IMPORT_COLUMNS "WHERE f.path = ?1 ORDER BY i.line, i.id, e.id";
static const char sql_imports_all[] = "SELECT " IMPORT_COLUMNS "ORDER BY i.id, e.id";
static const char sql_graph_files[] = "SELECT id, path, language FROM files ORDER BY path";
static const char sql_graph_edges[] = "SELECT from_id, to_path, package FROM edges "
                      "WHERE to_path IS NOT NULL OR package IS NOT NULL";
static const char sql_graph_counts[] =
  "SELECT (SELECT count(*) FROM imports), "
  "count(DISTINCT CASE WHEN to_path IS NOT NULL THEN import_id END), "
  "count(DISTINCT CASE WHEN to_path IS NULL AND package IS NOT NULL THEN import_id END) "
  "FROM edges";
static const char sql_clear_imports[] = "DELETE FROM imports";
static const char sql_clear_edges[] = "DELETE FROM edges";
static const char sql_clear_hashes[] = "UPDATE files SET hash = NULL";
static const char sql_file_path[] = "SELECT path FROM files WHERE id = ?1";

const char * const _lode_store_graph_sql[] = {
  sql_imports_delete_file, sql_edges_delete_file, sql_edges_unlink_path, sql_import_insert,
  sql_edge_insert, sql_import_file, sql_edges_delete_import, sql_imports_by_key,
  sql_imports_by_target, sql_imports_of_file, sql_imports_all, sql_graph_files, sql_graph_edges,
  sql_graph_counts, sql_clear_imports, sql_clear_edges, sql_clear_hashes, sql_file_path, NULL
};

typedef struct
{
  const char *path;
  GPtrArray  *imports;
} PutImports;

/* Forgets the imports of file @id and points the edges that led to it nowhere, until they
 * are resolved again. */
gboolean
_lode_store_delete_file_graph (LodeStore  *self,
                               gint64      id,
                               GError    **error)
{
  g_autofree char *path = NULL;
  sqlite3_stmt *s;

  s = _lode_store_stmt (self, sql_file_path);
  sqlite3_bind_int64 (s, 1, id);
  if (sqlite3_step (s) == SQLITE_ROW)
    path = dup_column_text (s, 0);
  sqlite3_reset (s);

  s = _lode_store_stmt (self, sql_imports_delete_file);
  sqlite3_bind_int64 (s, 1, id);
  if (!_lode_store_run (self, s, error, "Cannot delete the imports of a file"))
    return FALSE;

  s = _lode_store_stmt (self, sql_edges_delete_file);
  sqlite3_bind_int64 (s, 1, id);
  if (!_lode_store_run (self, s, error, "Cannot delete the edges of a file"))
    return FALSE;

  if (path == NULL)
    return TRUE;

  s = _lode_store_stmt (self, sql_edges_unlink_path);
  bind_text (s, 1, path);

  return _lode_store_run (self, s, error, "Cannot unlink the edges to a file");
}

/* One edge per target, else one with the package (or with neither: unresolved). */
static gboolean
insert_edges (LodeStore           *self,
              gint64               import_id,
              gint64               file_id,
              const char * const  *targets,
              const char          *package,
              GError             **error)
{
  guint n_targets = targets != NULL ? g_strv_length ((GStrv) targets) : 0;
  sqlite3_stmt *s;

  for (guint i = 0; i < MAX (n_targets, 1); i++)
    {
      s = _lode_store_stmt (self, sql_edge_insert);
      sqlite3_bind_int64 (s, 1, import_id);
      sqlite3_bind_int64 (s, 2, file_id);
      bind_text (s, 3, n_targets > 0 ? targets[i] : NULL);
      bind_text (s, 4, n_targets > 0 ? NULL : package);
      if (!_lode_store_run (self, s, error, "Cannot store an edge"))
        return FALSE;
    }

  return TRUE;
}

static gboolean
put_import_rows (LodeStore      *self,
                 gconstpointer   data,
                 GError        **error)
{
  const PutImports *put = data;
  const char *path = put->path;
  GPtrArray *imports = put->imports;
  sqlite3_stmt *s;
  gint64 file_id = 0;

  if (!_lode_store_lookup_file_id (self, path, &file_id, error))
    return FALSE;
  if (file_id == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s is not indexed", path);
      return FALSE;
    }

  s = _lode_store_stmt (self, sql_imports_delete_file);
  sqlite3_bind_int64 (s, 1, file_id);
  if (!_lode_store_run (self, s, error, "Cannot delete the imports of a file"))
    return FALSE;
  s = _lode_store_stmt (self, sql_edges_delete_file);
  sqlite3_bind_int64 (s, 1, file_id);
  if (!_lode_store_run (self, s, error, "Cannot delete the edges of a file"))
    return FALSE;

  for (guint i = 0; imports != NULL && i < imports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (imports, i);
      gint64 import_id;

      s = _lode_store_stmt (self, sql_import_insert);
      sqlite3_bind_int64 (s, 1, file_id);
      bind_text (s, 2, import->specifier != NULL ? import->specifier : "");
      bind_text (s, 3, import->name);
      bind_text (s, 4, import->kind);
      sqlite3_bind_int (s, 5, import->line);
      bind_text (s, 6, import->key);
      if (!_lode_store_run (self, s, error, "Cannot store an import"))
        return FALSE;
      import_id = sqlite3_last_insert_rowid (self->db);

      if (!insert_edges (self, import_id, file_id, (const char * const *) import->targets,
                         import->package, error))
        return FALSE;
    }

  return TRUE;
}

static gboolean
store_put_imports (LodeIndexStore  *store,
                   const char      *path,
                   GPtrArray       *imports,
                   GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  PutImports put = { path, imports };

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->in_transaction)
    return _lode_store_write_alone (self, put_import_rows, &put, error);

  return put_import_rows (self, &put, error);
}

/* Folds the rows of one import (one per edge, adjacent) into one LodeStoredImport. */
static GPtrArray *
read_imports (LodeStore     *self,
              sqlite3_stmt  *s,
              GError       **error)
{
  g_autoptr(GPtrArray) imports = g_ptr_array_new_with_free_func (
    (GDestroyNotify) lode_stored_import_free);
  g_autoptr(GStrvBuilder) targets = NULL;
  LodeStoredImport *import = NULL;
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 id = sqlite3_column_int64 (s, 0);
      const char *target = (const char *) sqlite3_column_text (s, 7);

      if (import == NULL || import->id != id)
        {
          if (import != NULL)
            import->targets = g_strv_builder_end (targets);
          g_clear_pointer (&targets, g_strv_builder_unref);
          targets = g_strv_builder_new ();

          import = g_new0 (LodeStoredImport, 1);
          import->id = id;
          import->path = dup_column_text (s, 1);
          import->specifier = dup_column_text (s, 2);
          import->name = dup_column_text (s, 3);
          import->kind = dup_column_text (s, 4);
          import->line = sqlite3_column_int (s, 5);
          import->key = dup_column_text (s, 6);
          g_ptr_array_add (imports, import);
        }

      if (target != NULL)
        g_strv_builder_add (targets, target);
      else if (import->package == NULL)
        import->package = dup_column_text (s, 8);
    }
  sqlite3_reset (s);
  if (import != NULL)
    import->targets = g_strv_builder_end (targets);

  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read imports");
      return NULL;
    }

  return g_steal_pointer (&imports);
}

static GPtrArray *
store_dup_imports (LodeIndexStore  *store,
                   const char      *path,
                   GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;

  if (path == NULL)
    return read_imports (self, _lode_store_stmt (self, sql_imports_all), error);

  s = _lode_store_stmt (self, sql_imports_of_file);
  bind_text (s, 1, path);

  return read_imports (self, s, error);
}

static GPtrArray *
store_dup_imports_for_key (LodeIndexStore  *store,
                           const char      *key,
                           GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;

  g_return_val_if_fail (key != NULL, NULL);

  s = _lode_store_stmt (self, sql_imports_by_key);
  bind_text (s, 1, key);

  return read_imports (self, s, error);
}

static GPtrArray *
store_dup_imports_to (LodeIndexStore  *store,
                      const char      *target,
                      GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;

  g_return_val_if_fail (target != NULL, NULL);

  s = _lode_store_stmt (self, sql_imports_by_target);
  bind_text (s, 1, target);

  return read_imports (self, s, error);
}

static gboolean
set_import_targets_rows (LodeStore           *self,
                         gint64               import_id,
                         const char * const  *targets,
                         const char          *package,
                         GError             **error)
{
  sqlite3_stmt *s = _lode_store_stmt (self, sql_import_file);
  gint64 file_id;
  int rc;

  sqlite3_bind_int64 (s, 1, import_id);
  rc = sqlite3_step (s);
  file_id = rc == SQLITE_ROW ? sqlite3_column_int64 (s, 0) : 0;
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot read an import");

  s = _lode_store_stmt (self, sql_edges_delete_import);
  sqlite3_bind_int64 (s, 1, import_id);
  if (!_lode_store_run (self, s, error, "Cannot delete the edges of an import"))
    return FALSE;

  /* An import deleted meanwhile (its file was parsed again) has no edges to set. */
  if (file_id == 0)
    return TRUE;

  return insert_edges (self, import_id, file_id, targets, package, error);
}

/* Records a new resolution of one import, replacing its edges; inside the current batch, or
 * in a transaction of its own outside one. */
static gboolean
store_set_import_targets (LodeIndexStore      *store,
                          gint64               import_id,
                          const char * const  *targets,
                          const char          *package,
                          GError             **error)
{
  LodeStore *self = (LodeStore *) store;

  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (self->in_transaction)
    return set_import_targets_rows (self, import_id, targets, package, error);

  if (!_lode_store_begin (self, error))
    return FALSE;
  if (!set_import_targets_rows (self, import_id, targets, package, error))
    {
      _lode_store_rollback (self);
      return FALSE;
    }

  return _lode_store_commit (self, error);
}

/* Reads the graph: every indexed file, every resolved edge. Edges to paths that are not
 * indexed (a file that became binary, say) are left out. */
static LodeGraph *
store_load_graph (LodeIndexStore  *store,
                  GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(GHashTable) by_row = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GArray) row_ids = NULL;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  row_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  s = _lode_store_stmt (self, sql_graph_files);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 row = sqlite3_column_int64 (s, 0);

      lode_graph_add_file (graph, (const char *) sqlite3_column_text (s, 1),
                           (const char *) sqlite3_column_text (s, 2));
      g_array_append_val (row_ids, row);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read the files of the graph");
      return NULL;
    }
  /* The array no longer grows: pointers into it stay valid as keys. */
  for (guint i = 0; i < row_ids->len; i++)
    g_hash_table_insert (by_row, &g_array_index (row_ids, gint64, i), GUINT_TO_POINTER (i + 1));

  s = _lode_store_stmt (self, sql_graph_edges);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      gint64 from_row = sqlite3_column_int64 (s, 0);
      guint from = GPOINTER_TO_UINT (g_hash_table_lookup (by_row, &from_row));
      const char *to_path = (const char *) sqlite3_column_text (s, 1);
      const char *package = (const char *) sqlite3_column_text (s, 2);
      guint to;

      if (from == 0)
        continue;
      if (to_path != NULL && lode_graph_lookup (graph, to_path, &to))
        lode_graph_add_edge (graph, from - 1, to);
      else if (to_path == NULL && package != NULL)
        lode_graph_add_external (graph, from - 1, package);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read the edges of the graph");
      return NULL;
    }

  lode_graph_freeze (graph);

  return g_steal_pointer (&graph);
}

static gboolean
store_get_graph_counts (LodeIndexStore   *store,
                        LodeGraphCounts  *counts,
                        GError          **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s;
  int rc;

  g_return_val_if_fail (counts != NULL, FALSE);

  s = _lode_store_stmt (self, sql_graph_counts);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    {
      counts->n_imports = sqlite3_column_int64 (s, 0);
      counts->n_internal = sqlite3_column_int64 (s, 1);
      counts->n_external = sqlite3_column_int64 (s, 2);
    }
  sqlite3_reset (s);

  if (rc != SQLITE_ROW)
    return _lode_store_set_error (self, rc, error, "Cannot count imports");

  return TRUE;
}

static gboolean
clear_graph_rows (LodeStore      *self,
                  gconstpointer   data,
                  GError        **error)
{
  const gboolean *forget_hashes = data;

  if (!_lode_store_run (self, _lode_store_stmt (self, sql_clear_imports), error,
                        "Cannot delete imports") ||
      !_lode_store_run (self, _lode_store_stmt (self, sql_clear_edges), error,
                        "Cannot delete edges") ||
      !_lode_store_clear_calls (self, error))
    return FALSE;

  return !*forget_hashes ||
         _lode_store_run (self, _lode_store_stmt (self, sql_clear_hashes), error,
                          "Cannot reset file hashes");
}

/* Deletes every import and edge, in a transaction of its own. */
static gboolean
store_clear_graph (LodeIndexStore  *store,
                   gboolean         forget_hashes,
                   GError         **error)
{
  LodeStore *self = (LodeStore *) store;

  g_return_val_if_fail (!self->in_transaction, FALSE);

  return _lode_store_write_alone (self, clear_graph_rows, &forget_hashes, error);
}

void
_lode_store_graph_init (LodeIndexStoreInterface *iface)
{
  iface->put_imports = store_put_imports;
  iface->dup_imports = store_dup_imports;
  iface->dup_imports_for_key = store_dup_imports_for_key;
  iface->dup_imports_to = store_dup_imports_to;
  iface->set_import_targets = store_set_import_targets;
  iface->load_graph = store_load_graph;
  iface->get_graph_counts = store_get_graph_counts;
  iface->clear_graph = store_clear_graph;
}
