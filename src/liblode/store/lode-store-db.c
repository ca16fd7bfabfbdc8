/* lode-store-db.c — the SQLite store's connection: errors, statements, transactions
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <errno.h>
#include <string.h>

#include "lode-error.h"
#include "lode-store-private.h"

static const char sql_begin[] = "BEGIN IMMEDIATE";
static const char sql_commit[] = "COMMIT";
static const char sql_rollback[] = "ROLLBACK";
static const char sql_file_id[] = "SELECT id FROM files WHERE path = ?1";
static const char sql_read_begin[] = "BEGIN";

const char * const _lode_store_db_sql[] = {
  sql_begin, sql_commit, sql_rollback, sql_file_id, sql_read_begin, NULL
};

static gboolean
is_cancelled (LodeStore *self)
{
  return self->cancellable != NULL && g_cancellable_is_cancelled (self->cancellable);
}

/* SQLite codes that mean the file itself is broken, rather than busy, full or unreadable. */
gboolean
_lode_store_is_damage (int rc)
{
  return (rc & 0xff) == SQLITE_CORRUPT || (rc & 0xff) == SQLITE_NOTADB;
}

char *
_lode_store_damage_mark_path (const char *filename)
{
  return g_strconcat (filename, "-damaged", NULL);
}

/* Leaves a mark beside the database saying why it is damaged; best effort. */
void
_lode_store_mark_damaged (const char *filename,
                          const char *message)
{
  g_autofree char *mark = _lode_store_damage_mark_path (filename);
  g_autoptr(GError) error = NULL;

  if (!g_file_test (mark, G_FILE_TEST_EXISTS) &&
      !g_file_set_contents (mark, message, -1, &error))
    g_warning ("Cannot mark %s as damaged: %s", filename, error->message);
}

/* Why the index at @filename was marked damaged, or NULL. */
char *
_lode_store_dup_damage (const char *filename)
{
  g_autofree char *mark = _lode_store_damage_mark_path (filename);
  char *message = NULL;

  if (!g_file_get_contents (mark, &message, NULL, NULL))
    return NULL;

  return g_strstrip (message);
}

/* Runs `PRAGMA quick_check` on @db: the first few problems it lists, or NULL. *@rc is
 * SQLITE_OK, or the error that stopped the check (SQLITE_CORRUPT on a page it cannot read). */
char *
_lode_store_dup_quick_check (sqlite3 *db,
                             int     *rc)
{
  g_autoptr(GString) problems = NULL;
  sqlite3_stmt *s = NULL;

  *rc = sqlite3_prepare_v2 (db, "PRAGMA quick_check(4)", -1, &s, NULL);
  while (*rc == SQLITE_OK && (*rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      const char *row = (const char *) sqlite3_column_text (s, 0);
      const char *line;

      *rc = SQLITE_OK;
      if (row == NULL || g_str_equal (row, "ok"))
        continue;
      /* The first problem comes after "*** in database main ***\n". */
      if (g_str_has_prefix (row, "***") && (line = strchr (row, '\n')) != NULL)
        row = line + 1;
      if (problems == NULL)
        problems = g_string_new ("quick_check: ");
      else
        g_string_append (problems, "; ");
      /* One problem a line, and one message on one line. */
      for (; *row != '\0'; row++)
        if (*row == '\n')
          g_string_append (problems, "; ");
        else
          g_string_append_c (problems, *row);
    }
  sqlite3_finalize (s);
  if (*rc == SQLITE_DONE)
    *rc = SQLITE_OK;

  return problems != NULL ? g_string_free (g_steal_pointer (&problems), FALSE) : NULL;
}

/* The errno of the read or write that failed. SQLite turns most into a mere I/O error and
 * keeps the errno in the file it was working on, the index or its journal (the WAL): not in
 * the error, and errno itself is gone by the time the statement returns. */
static int
failed_errno (sqlite3 *db)
{
  sqlite3_file *journal = NULL;
  int found = 0;

  if (sqlite3_file_control (db, "main", SQLITE_FCNTL_LAST_ERRNO, &found) == SQLITE_OK &&
      found != 0)
    return found;
  if (sqlite3_file_control (db, "main", SQLITE_FCNTL_JOURNAL_POINTER, &journal) == SQLITE_OK &&
      journal != NULL && journal->pMethods != NULL &&
      journal->pMethods->xFileControl (journal, SQLITE_FCNTL_LAST_ERRNO, &found) == SQLITE_OK)
    return found;
  return 0;
}

/* Sets @error from the SQLite code @rc of the last call of the connection, with @what
 * before its message: a full disk, quota or file-size limit said as such, damage marked
 * (_lode_store_is_damage()), a cancelled search as cancelled. Returns FALSE. */
gboolean
_lode_store_set_error (LodeStore   *self,
                       int          rc,
                       GError     **error,
                       const char  *what)
{
  const char *message = self->db != NULL ? sqlite3_errmsg (self->db) : sqlite3_errstr (rc);
  int sys_errno = (rc & 0xff) == SQLITE_IOERR && self->db != NULL ? failed_errno (self->db) : 0;

  if (rc == SQLITE_INTERRUPT && is_cancelled (self))
    g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Search cancelled");
  else if ((rc & 0xff) == SQLITE_FULL || sys_errno == ENOSPC)
    {
      g_autofree char *dir = g_path_get_dirname (self->filename);

      /* What was committed before stays whole and searchable; the next run resumes. */
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: the disk is full where the index "
                   "is kept (%s): free some space and index again to complete it", what, dir);
    }
  else if (sys_errno == EDQUOT)
    {
      g_autofree char *dir = g_path_get_dirname (self->filename);

      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: the disk quota is used up where "
                   "the index is kept (%s): free some space or raise the quota, and index "
                   "again to complete it", what, dir);
    }
  else if (sys_errno == EFBIG)
    {
      g_autofree char *dir = g_path_get_dirname (self->filename);

      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: the file-size limit is reached "
                   "where the index is kept (%s): raise it (ulimit -f) and index again to "
                   "complete it", what, dir);
    }
  else if (sys_errno != 0)
    g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: %s (%s)", what, message,
                 g_strerror (sys_errno));
  else if (_lode_store_is_damage (rc))
    {
      /* Whoever opens the index next, reader or writer, learns it from the mark. */
      self->damaged = TRUE;
      _lode_store_mark_damaged (self->filename, message);
      g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED, "%s: the index is damaged (%s)",
                   what, message);
    }
  else
    g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "%s: %s", what, message);
  return FALSE;
}

/* SQLite codes that mean the file is not a usable Lode index (rather than, say, unreadable). */
gboolean
_lode_store_is_bad_database (int rc)
{
  switch (rc & 0xff)
    {
    case SQLITE_NOTADB:
    case SQLITE_CORRUPT:
    case SQLITE_ERROR:
    case SQLITE_SCHEMA:
    case SQLITE_FORMAT:
      return TRUE;
    default:
      return FALSE;
    }
}

/* A statement the store prepared when it opened (one of the lists given to
 * _lode_store_prepare()), reset, its bindings cleared. */
sqlite3_stmt *
_lode_store_stmt (LodeStore  *self,
                  const char *sql)
{
  sqlite3_stmt *s = g_hash_table_lookup (self->statements, sql);

  g_assert (s != NULL);
  sqlite3_reset (s);
  sqlite3_clear_bindings (s);
  return s;
}

/* Prepares each statement of the NULL-terminated @sql, once per connection, for
 * _lode_store_stmt(). Sets *@bad when SQLite says the file is not a usable index. */
gboolean
_lode_store_prepare (LodeStore          *self,
                     const char * const *sql,
                     gboolean           *bad,
                     GError            **error)
{
  for (guint i = 0; sql[i] != NULL; i++)
    {
      sqlite3_stmt *s = NULL;
      int rc = sqlite3_prepare_v3 (self->db, sql[i], -1, SQLITE_PREPARE_PERSISTENT, &s, NULL);

      if (rc != SQLITE_OK)
        {
          *bad = _lode_store_is_bad_database (rc);
          return _lode_store_set_error (self, rc, error, "Cannot prepare a statement");
        }
      g_hash_table_insert (self->statements, (char *) sql[i], s);
    }
  return TRUE;
}

/* A statement of a part that prepares on first use: @sql must be a constant (its address
 * is the key). Returned reset, bindings cleared. */
sqlite3_stmt *
_lode_store_statement (LodeStore   *self,
                       const char  *sql,
                       GError     **error)
{
  sqlite3_stmt *s = g_hash_table_lookup (self->statements, sql);
  int rc;

  if (s != NULL)
    {
      sqlite3_reset (s);
      sqlite3_clear_bindings (s);
      return s;
    }

  rc = sqlite3_prepare_v3 (self->db, sql, -1, SQLITE_PREPARE_PERSISTENT, &s, NULL);
  if (rc != SQLITE_OK)
    {
      _lode_store_set_error (self, rc, error, "Cannot prepare a statement");
      return NULL;
    }
  g_hash_table_insert (self->statements, (char *) sql, s);
  return s;
}

/* Runs a statement that returns no rows. */
gboolean
_lode_store_run (LodeStore     *self,
                 sqlite3_stmt  *s,
                 GError       **error,
                 const char    *what)
{
  int rc = sqlite3_step (s);

  sqlite3_reset (s);
  if (rc != SQLITE_DONE && rc != SQLITE_ROW)
    return _lode_store_set_error (self, rc, error, what);

  return TRUE;
}

/* Appends @text to an FTS5 query as one string: in double quotes, each of its own doubled.
 * FTS5 then reads it as a phrase of whatever the table's tokenizer makes of it. */
void
_lode_store_append_fts5_string (GString    *query,
                                const char *text)
{
  g_string_append_c (query, '"');
  for (const char *p = text; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (query, '"');
      g_string_append_c (query, *p);
    }
  g_string_append_c (query, '"');
}

/* Steps @s, which yields one count. */
gboolean
_lode_store_step_count (LodeStore     *self,
                        sqlite3_stmt  *s,
                        guint         *count,
                        GError       **error)
{
  int rc = sqlite3_step (s);

  if (rc == SQLITE_ROW)
    *count = sqlite3_column_int64 (s, 0);
  sqlite3_reset (s);

  if (rc != SQLITE_ROW)
    return _lode_store_set_error (self, rc, error, "Cannot count rows");

  return TRUE;
}

static int
progress_cb (void *user_data)
{
  return is_cancelled (user_data);
}

/* While a search runs, _lode_store_set_error() reports SQLITE_INTERRUPT as cancelled once
 * @cancellable is; with @interrupt, the statements under way are interrupted then too.
 * NULL when the search is done. */
void
_lode_store_set_cancellable (LodeStore    *self,
                             GCancellable *cancellable,
                             gboolean      interrupt)
{
  self->cancellable = cancellable;
  if (interrupt)
    sqlite3_progress_handler (self->db, cancellable != NULL ? 1000 : 0,
                              cancellable != NULL ? progress_cb : NULL, self);
}

/* Starts a write transaction: what is written until _lode_store_commit() lands at once or,
 * after a crash or _lode_store_rollback(), not at all. */
gboolean
_lode_store_begin (LodeStore  *self,
                   GError    **error)
{
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!_lode_store_run (self, _lode_store_stmt (self, sql_begin), error,
                        "Cannot start a transaction"))
    return FALSE;

  self->in_transaction = TRUE;
  return TRUE;
}

/* Commits the transaction _lode_store_begin() started; on failure it is rolled back. */
gboolean
_lode_store_commit (LodeStore  *self,
                    GError    **error)
{
  g_return_val_if_fail (self->in_transaction, FALSE);

  if (!_lode_store_run (self, _lode_store_stmt (self, sql_commit), error, "Cannot commit"))
    {
      _lode_store_rollback (self);
      return FALSE;
    }

  self->in_transaction = FALSE;
  return TRUE;
}

void
_lode_store_rollback (LodeStore *self)
{
  if (!self->in_transaction)
    return;

  /* Fails only when SQLite already rolled back by itself (after an I/O error). */
  if (sqlite3_get_autocommit (self->db) == 0)
    _lode_store_run (self, _lode_store_stmt (self, sql_rollback), NULL, NULL);
  self->in_transaction = FALSE;
  /* Names interned in the batch are gone with it. */
  g_hash_table_remove_all (self->ref_names);
}

/* Runs @func in a transaction of its own. */
gboolean
_lode_store_write_alone (LodeStore       *self,
                         LodeStoreWrite   func,
                         gconstpointer    data,
                         GError         **error)
{
  if (!_lode_store_begin (self, error))
    return FALSE;

  if (!func (self, data, error))
    {
      _lode_store_rollback (self);
      return FALSE;
    }

  return _lode_store_commit (self, error);
}

/* A read transaction (a snapshot of the index), when none is open; *@own says whether this
 * call opened it, for _lode_store_read_end(). */
gboolean
_lode_store_read_begin (LodeStore  *self,
                        gboolean   *own,
                        GError    **error)
{
  *own = sqlite3_get_autocommit (self->db);
  return !*own || _lode_store_run (self, _lode_store_stmt (self, sql_read_begin), error,
                                   "Cannot read the index");
}

gboolean
_lode_store_read_end (LodeStore  *self,
                      gboolean    own,
                      GError    **error)
{
  return !own || _lode_store_run (self, _lode_store_stmt (self, sql_commit), error,
                                  "Cannot read the index");
}

/* The row id of the file @path, 0 when it is not indexed. */
gboolean
_lode_store_lookup_file_id (LodeStore   *self,
                            const char  *path,
                            gint64      *id,
                            GError     **error)
{
  sqlite3_stmt *s = _lode_store_stmt (self, sql_file_id);
  int rc;

  bind_text (s, 1, path);
  rc = sqlite3_step (s);
  *id = rc == SQLITE_ROW ? sqlite3_column_int64 (s, 0) : 0;
  sqlite3_reset (s);

  if (rc != SQLITE_ROW && rc != SQLITE_DONE)
    return _lode_store_set_error (self, rc, error, "Cannot look up a file");

  return TRUE;
}
