/* test-damage.c — damaging an index the way a disk or a crash does
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <sqlite3.h>
#include <string.h>
#include <unistd.h>

#include <glib/gstdio.h>

#include "test-damage.h"

/* Overwrites pages of the full-text index (the chunks_fts_* tables) in the closed index
 * @db_path, found with SQLite's dbstat table. @whole: every page of them, which breaks the
 * table's constructor, so that opening the index finds the damage; otherwise only the leaves
 * of chunks_fts_data past the first (which holds the FTS5 structure record), so that the
 * index opens, its counts read well and only a search that reads a term's pages finds it.
 * Returns %FALSE, the test skipped, when this SQLite has no dbstat table. */
gboolean
test_garble_fts (const char *db_path,
                 gboolean    whole)
{
  static const char whole_sql[] =
    "SELECT pageno FROM dbstat WHERE name LIKE 'chunks_fts%'";
  static const char leaves_sql[] =
    "SELECT pageno FROM dbstat WHERE name = 'chunks_fts_data' AND pagetype = 'leaf' "
    "ORDER BY path LIMIT -1 OFFSET 1";
  g_autoptr(GArray) pages = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autofree char *garbage = NULL;
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;
  int page_size = 0;
  int fd;
  int rc;

  rc = sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL);
  g_assert_cmpint (rc, ==, SQLITE_OK);
  rc = sqlite3_prepare_v2 (db, "PRAGMA page_size", -1, &s, NULL);
  g_assert_cmpint (rc, ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_step (s), ==, SQLITE_ROW);
  page_size = sqlite3_column_int (s, 0);
  sqlite3_finalize (s);

  if (sqlite3_prepare_v2 (db, whole ? whole_sql : leaves_sql, -1, &s, NULL) != SQLITE_OK)
    {
      g_test_skip ("SQLite has no dbstat table (SQLITE_ENABLE_DBSTAT_VTAB)");
      sqlite3_close (db);
      return FALSE;
    }
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      gint64 page = sqlite3_column_int64 (s, 0);

      g_array_append_val (pages, page);
    }
  sqlite3_finalize (s);
  sqlite3_close (db);
  g_assert_cmpuint (pages->len, >, 0);

  garbage = g_malloc (page_size);
  memset (garbage, 0x5a, page_size);
  fd = g_open (db_path, O_WRONLY, 0);
  g_assert_cmpint (fd, >=, 0);
  for (guint i = 0; i < pages->len; i++)
    g_assert_cmpint (pwrite (fd, garbage, page_size,
                             (g_array_index (pages, gint64, i) - 1) * page_size), ==, page_size);
  g_assert_cmpint (close (fd), ==, 0);
  g_test_message ("garbled %u pages of the full-text index of %s", pages->len, db_path);

  return TRUE;
}

/* Cuts @path at @length bytes, as a crash or a full disk might leave it. */
void
test_truncate_file (const char *path,
                    goffset     length)
{
  g_assert_cmpint (truncate (path, length), ==, 0);
}
