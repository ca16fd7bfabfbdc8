/* lode-store-calls.c — the call graph: each file's call sites and its resolved calls
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include "lode-error.h"
#include "lode-store-private.h"

/* The call graph (issue #28). `call_sites` holds what a file's own parse found (its call
 * sites, bindings and symbols, lode_calls_to_bytes()), so it changes only when the file does;
 * `calls` holds where each call resolves, one row per call and per candidate of an ambiguous
 * one, rewritten when a resolution changes (lode-call-pass.c). Targets are a path and a line,
 * not ids: a call may reach a file stored later in the same run. */
const char _lode_store_calls_schema_sql[] =
  "CREATE TABLE IF NOT EXISTS call_sites ("
  "  file_id INTEGER PRIMARY KEY,"
  "  data BLOB NOT NULL"
  ");"
  "CREATE TABLE IF NOT EXISTS calls ("
  "  id INTEGER PRIMARY KEY,"
  "  file_id INTEGER NOT NULL,"
  "  caller TEXT,"
  "  caller_line INTEGER NOT NULL,"
  "  callee TEXT NOT NULL,"
  "  qualifier TEXT,"
  "  line INTEGER NOT NULL,"
  "  status INTEGER NOT NULL,"
  "  rule INTEGER NOT NULL,"
  "  confidence REAL NOT NULL,"
  "  target_path TEXT,"
  "  target_line INTEGER NOT NULL,"
  "  package TEXT"
  ");"
  "CREATE INDEX IF NOT EXISTS calls_file ON calls (file_id);";

#define CALL_COLUMNS \
  "f.path, c.caller, c.caller_line, c.callee, c.qualifier, c.line, c.status, c.rule, " \
  "c.confidence, c.target_path, c.target_line, c.package FROM calls c " \
  "JOIN files f ON f.id = c.file_id "

static const char sql_sites_delete_file[] = "DELETE FROM call_sites WHERE file_id = ?1";
static const char sql_calls_delete_file[] = "DELETE FROM calls WHERE file_id = ?1";
static const char sql_sites_insert[] =
  "INSERT OR REPLACE INTO call_sites (file_id, data) VALUES (?1, ?2)";
static const char sql_call_insert[] =
  "INSERT INTO calls (file_id, caller, caller_line, callee, qualifier, line, status, rule, "
  "confidence, target_path, target_line, package) "
  "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12)";
static const char sql_sites_all[] =
  "SELECT f.path, s.data FROM call_sites s JOIN files f ON f.id = s.file_id ORDER BY f.path";
static const char sql_sites_of_file[] =
  "SELECT s.data FROM call_sites s JOIN files f ON f.id = s.file_id WHERE f.path = ?1";
static const char sql_calls_of_file[] = "SELECT " CALL_COLUMNS "WHERE f.path = ?1 ORDER BY c.id";
static const char sql_calls_all[] = "SELECT " CALL_COLUMNS "ORDER BY c.id";
static const char sql_clear_sites[] = "DELETE FROM call_sites";
static const char sql_clear_calls[] = "DELETE FROM calls";

const char * const _lode_store_calls_sql[] = {
  sql_sites_delete_file, sql_calls_delete_file, sql_sites_insert, sql_call_insert,
  sql_sites_all, sql_sites_of_file, sql_calls_of_file, sql_calls_all, sql_clear_sites, sql_clear_calls, NULL
};

/* Forgets the call sites and calls of file @id. */
gboolean
_lode_store_delete_file_calls (LodeStore  *self,
                               gint64      id,
                               GError    **error)
{
  sqlite3_stmt *s;

  s = _lode_store_stmt (self, sql_sites_delete_file);
  sqlite3_bind_int64 (s, 1, id);
  if (!_lode_store_run (self, s, error, "Cannot delete the call sites of a file"))
    return FALSE;
  s = _lode_store_stmt (self, sql_calls_delete_file);
  sqlite3_bind_int64 (s, 1, id);
  return _lode_store_run (self, s, error, "Cannot delete the calls of a file");
}

/* Every call site and call, when the graph is cleared. */
gboolean
_lode_store_clear_calls (LodeStore  *self,
                         GError    **error)
{
  return _lode_store_run (self, _lode_store_stmt (self, sql_clear_sites), error,
                          "Cannot delete the call sites") &&
         _lode_store_run (self, _lode_store_stmt (self, sql_clear_calls), error,
                          "Cannot delete the calls");
}

static gboolean
file_id_of (LodeStore   *self,
            const char  *path,
            gint64      *file_id,
            GError     **error)
{
  if (!_lode_store_lookup_file_id (self, path, file_id, error))
    return FALSE;
  if (*file_id == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s is not indexed", path);
      return FALSE;
    }
  return TRUE;
}

typedef struct
{
  const char *path;
  GBytes     *sites;
  GPtrArray  *calls;
} PutCalls;

static gboolean
put_site_rows (LodeStore      *self,
               gconstpointer   data,
               GError        **error)
{
  const PutCalls *put = data;
  sqlite3_stmt *s;
  gint64 file_id = 0;
  gsize size;
  gconstpointer bytes = g_bytes_get_data (put->sites, &size);

  if (!file_id_of (self, put->path, &file_id, error))
    return FALSE;
  s = _lode_store_stmt (self, sql_sites_insert);
  sqlite3_bind_int64 (s, 1, file_id);
  sqlite3_bind_blob64 (s, 2, bytes != NULL ? bytes : "", size, SQLITE_STATIC);
  return _lode_store_run (self, s, error, "Cannot store the call sites of a file");
}

static gboolean
store_put_call_sites (LodeIndexStore  *store,
                      const char      *path,
                      GBytes          *sites,
                      GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  PutCalls put = { path, sites, NULL };

  g_return_val_if_fail (path != NULL && sites != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->in_transaction)
    return _lode_store_write_alone (self, put_site_rows, &put, error);
  return put_site_rows (self, &put, error);
}

static GHashTable *
store_dup_call_sites (LodeIndexStore  *store,
                      GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GHashTable) sites = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                       (GDestroyNotify) g_bytes_unref);
  sqlite3_stmt *s = _lode_store_stmt (self, sql_sites_all);
  int rc;

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    g_hash_table_insert (sites, dup_column_text (s, 0),
                         g_bytes_new (sqlite3_column_blob (s, 1), sqlite3_column_bytes (s, 1)));
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read call sites");
      return NULL;
    }
  return g_steal_pointer (&sites);
}

static GBytes *
store_dup_file_call_sites (LodeIndexStore  *store,
                           const char      *path,
                           GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  sqlite3_stmt *s = _lode_store_stmt (self, sql_sites_of_file);
  GBytes *sites = NULL;
  int rc;

  bind_text (s, 1, path);
  rc = sqlite3_step (s);
  if (rc == SQLITE_ROW)
    sites = g_bytes_new (sqlite3_column_blob (s, 0), sqlite3_column_bytes (s, 0));
  sqlite3_reset (s);
  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    _lode_store_set_error (self, rc, error, "Cannot read the call sites of a file");
  return sites;
}

static gboolean
put_call_rows (LodeStore      *self,
               gconstpointer   data,
               GError        **error)
{
  const PutCalls *put = data;
  sqlite3_stmt *s;
  gint64 file_id = 0;

  if (!file_id_of (self, put->path, &file_id, error))
    return FALSE;
  s = _lode_store_stmt (self, sql_calls_delete_file);
  sqlite3_bind_int64 (s, 1, file_id);
  if (!_lode_store_run (self, s, error, "Cannot delete the calls of a file"))
    return FALSE;

  for (guint i = 0; put->calls != NULL && i < put->calls->len; i++)
    {
      const LodeStoredCall *call = g_ptr_array_index (put->calls, i);

      s = _lode_store_stmt (self, sql_call_insert);
      sqlite3_bind_int64 (s, 1, file_id);
      bind_text (s, 2, call->caller);
      sqlite3_bind_int (s, 3, call->caller_line);
      bind_text (s, 4, call->callee != NULL ? call->callee : "");
      bind_text (s, 5, call->qualifier);
      sqlite3_bind_int (s, 6, call->line);
      sqlite3_bind_int (s, 7, call->status);
      sqlite3_bind_int (s, 8, call->rule);
      sqlite3_bind_double (s, 9, call->confidence);
      bind_text (s, 10, call->target_path);
      sqlite3_bind_int (s, 11, call->target_line);
      bind_text (s, 12, call->package);
      if (!_lode_store_run (self, s, error, "Cannot store a call"))
        return FALSE;
    }
  return TRUE;
}

static gboolean
store_put_calls (LodeIndexStore  *store,
                 const char      *path,
                 GPtrArray       *calls,
                 GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  PutCalls put = { path, NULL, calls };

  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (!self->in_transaction)
    return _lode_store_write_alone (self, put_call_rows, &put, error);
  return put_call_rows (self, &put, error);
}

static GPtrArray *
store_dup_calls (LodeIndexStore  *store,
                 const char      *path,
                 GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autoptr(GPtrArray) calls = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                               lode_stored_call_free);
  sqlite3_stmt *s;
  int rc;

  if (path != NULL)
    {
      s = _lode_store_stmt (self, sql_calls_of_file);
      bind_text (s, 1, path);
    }
  else
    s = _lode_store_stmt (self, sql_calls_all);

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeStoredCall *call = g_new0 (LodeStoredCall, 1);

      call->path = dup_column_text (s, 0);
      call->caller = dup_column_text (s, 1);
      call->caller_line = sqlite3_column_int (s, 2);
      call->callee = dup_column_text (s, 3);
      call->qualifier = dup_column_text (s, 4);
      call->line = sqlite3_column_int (s, 5);
      call->status = CLAMP (sqlite3_column_int (s, 6), LODE_CALL_RESOLVED, LODE_CALL_REGISTERED);
      call->rule = CLAMP (sqlite3_column_int (s, 7), LODE_CALL_RULE_NONE, LODE_CALL_RULE_UNIQUE);
      call->confidence = sqlite3_column_double (s, 8);
      call->target_path = dup_column_text (s, 9);
      call->target_line = sqlite3_column_int (s, 10);
      call->package = dup_column_text (s, 11);
      g_ptr_array_add (calls, call);
    }
  sqlite3_reset (s);
  if (rc != SQLITE_DONE)
    {
      _lode_store_set_error (self, rc, error, "Cannot read calls");
      return NULL;
    }
  return g_steal_pointer (&calls);
}

void
_lode_store_calls_init (LodeIndexStoreInterface *iface)
{
  iface->put_call_sites = store_put_call_sites;
  iface->dup_call_sites = store_dup_call_sites;
  iface->dup_file_call_sites = store_dup_file_call_sites;
  iface->put_calls = store_put_calls;
  iface->dup_calls = store_dup_calls;
}
