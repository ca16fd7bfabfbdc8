/* lode-store.c — a project's index in a SQLite database on this machine
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The index database: one SQLite connection per LodeStore, in parts (see
 * lode-store-private.h); here its opening, its file's life and the interfaces.
 *
 * Threads: a LodeStore may be used from any thread, but by one thread at a time; the
 * connection is opened with SQLITE_OPEN_NOMUTEX and its prepared statements are shared state.
 * The indexer opens its own store to write; searches open another one. WAL lets readers see
 * the last committed batch while the writer goes on.
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <errno.h>
#include <string.h>

#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-search-private.h"
#include "lode-store-private.h"

static void lode_store_index_store_init    (LodeIndexStoreInterface    *iface);
static void lode_store_search_backend_init (LodeSearchBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeStore, lode_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_INDEX_STORE,
                                                      lode_store_index_store_init)
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_SEARCH_BACKEND,
                                                      lode_store_search_backend_init))

static void
lode_store_close (LodeStore *self)
{
  g_hash_table_remove_all (self->statements);
  g_hash_table_remove_all (self->ref_names);
  g_clear_pointer (&self->db, sqlite3_close_v2);
  self->in_transaction = FALSE;
  g_clear_pointer (&self->rank, _lode_store_rank_free);
  g_clear_pointer (&self->trigram_cache, _lode_store_trigram_cache_free);
  g_clear_pointer (&self->trigram_batch, _lode_store_trigram_batch_free);
}

static void
lode_store_finalize (GObject *object)
{
  LodeStore *self = (LodeStore *)object;

  lode_store_close (self);
  g_free (self->reset_reason);
  g_clear_pointer (&self->filename, g_free);
  g_string_free (self->sig, TRUE);
  g_hash_table_unref (self->statements);
  g_hash_table_unref (self->ref_names);

  G_OBJECT_CLASS (lode_store_parent_class)->finalize (object);
}

static void
lode_store_class_init (LodeStoreClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_store_finalize;
}

static void
finalize_statement (gpointer statement)
{
  sqlite3_finalize (statement);
}

static void
lode_store_init (LodeStore *self)
{
  self->sig = g_string_sized_new (256);
  self->statements = g_hash_table_new_full (NULL, NULL, NULL, finalize_statement);
  self->ref_names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static void
glob_func (sqlite3_context  *ctx,
           int               argc,
           sqlite3_value   **argv)
{
  const char *pattern = (const char *) sqlite3_value_text (argv[0]);
  const char *path = (const char *) sqlite3_value_text (argv[1]);

  sqlite3_result_int (ctx, pattern != NULL && path != NULL &&
                           lode_search_path_filter_matches (pattern, path));
}

static void
delete_database_files (const char *filename)
{
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal" };

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *path = g_strconcat (filename, suffixes[i], NULL);

      if (g_unlink (path) != 0 && errno != ENOENT)
        g_warning ("Cannot remove %s: %s", path, g_strerror (errno));
    }
}

/* Runs @sql, which yields one integer, on a connection that has no prepared statements yet. */
static int
query_int (sqlite3    *db,
           const char *sql,
           int        *value)
{
  sqlite3_stmt *s = NULL;
  int rc = sqlite3_prepare_v2 (db, sql, -1, &s, NULL);

  if (rc == SQLITE_OK)
    {
      rc = sqlite3_step (s);
      if (rc == SQLITE_ROW)
        {
          *value = sqlite3_column_int (s, 0);
          rc = SQLITE_OK;
        }
    }
  sqlite3_finalize (s);

  return rc;
}

/* Creates the schema in an empty database. Another connection may be doing the same right
 * now (a search opening the index the indexer is creating), hence the IMMEDIATE transaction
 * and the second look at user_version inside it. */
static int
create_schema (sqlite3  *db,
               gboolean *foreign)
{
  int version = 0;
  int n_tables = 0;
  int rc;
  g_autofree char *set_version = g_strdup_printf ("PRAGMA user_version = %d",
                                                  LODE_STORE_SCHEMA_VERSION);

  rc = sqlite3_exec (db, "BEGIN IMMEDIATE", NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return rc;

  if ((rc = query_int (db, "PRAGMA user_version", &version)) == SQLITE_OK &&
      (rc = query_int (db, "SELECT count(*) FROM sqlite_master", &n_tables)) == SQLITE_OK)
    {
      if (version == 0 && n_tables > 0)
        *foreign = TRUE;
      else if (version == 0 &&
               (rc = sqlite3_exec (db, _lode_store_files_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_graph_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_calls_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_vectors_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_symbols_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_artifacts_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK &&
               (rc = sqlite3_exec (db, _lode_store_trigrams_schema_sql, NULL, NULL,
                                   NULL)) == SQLITE_OK)
        rc = sqlite3_exec (db, set_version, NULL, NULL, NULL);
    }

  if (rc == SQLITE_OK && !*foreign)
    return sqlite3_exec (db, "COMMIT", NULL, NULL, NULL);

  sqlite3_exec (db, "ROLLBACK", NULL, NULL, NULL);
  return rc;
}

/* 1 once the index's first run has ended: it has the look-up indexes that run's end creates
 * (_lode_store_create_lookup_indexes()). */
static const char sql_has_lookup_indexes[] =
  "SELECT count (*) > 0 FROM sqlite_master WHERE type = 'index' AND name = 'symbols_name'";

/* Creates the indexes that only look-ups need (`symbols_name`, `refs_name`, `chunks_hash`, …),
 * where they are missing: create_schema() leaves them out of a new index, whose first run
 * then loads every row without keeping them up to date (sorting each column once at the end
 * costs less); the store creates them when a run ends, state "ready" (store_set_meta()),
 * has the text index merge as FTS5 does by default (_lode_store_files_end_first_run()) and
 * folds the trigrams' segments (_lode_store_trigrams_merge()).
 * Until then, a search of the index being built looks symbols and references up by scanning
 * their tables. */
gboolean
_lode_store_create_lookup_indexes (LodeStore  *self,
                                   GError    **error)
{
  const char *const indexes[] = {
    _lode_store_files_lookup_sql, _lode_store_graph_lookup_sql,
    _lode_store_symbols_lookup_sql, _lode_store_vectors_lookup_sql,
  };
  int complete = 0;
  int rc;

  /* A new index's first run (they are missing) folds the trigrams' segments into one, and
   * other runs when they are many; before the sorts, which then reuse the pages the old
   * segments leave free. */
  rc = query_int (self->db, sql_has_lookup_indexes, &complete);
  if (rc != SQLITE_OK)
    return _lode_store_set_error (self, rc, error, "Cannot read the index's look-up indexes");
  if ((!complete && !_lode_store_files_end_first_run (self, error)) ||
      !_lode_store_trigrams_merge (self, !complete, error))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (indexes) && rc == SQLITE_OK; i++)
    rc = sqlite3_exec (self->db, indexes[i], NULL, NULL, NULL);
  if (rc != SQLITE_OK)
    return _lode_store_set_error (self, rc, error, "Cannot create the index's look-up indexes");

  return TRUE;
}

/* Has @self write with WAL from now on, a new index's files being written (see
 * lode_store_try_open()); nothing changes for an index in WAL already. The switch needs the
 * file to itself for a moment: while readers hold it past the busy timeout, the index keeps
 * its rollback journal, as safe, until the writer's next open or run's end tries again. Not
 * inside a transaction. */
static gboolean
journal_with_wal (LodeStore  *self,
                  GError    **error)
{
  int rc = sqlite3_exec (self->db, "PRAGMA journal_mode = WAL", NULL, NULL, NULL);

  if (rc != SQLITE_OK && rc != SQLITE_BUSY)
    return _lode_store_set_error (self, rc, error, "Cannot write the index with WAL");
  return TRUE;
}

/* Opens and checks the database. Sets *@bad (and returns FALSE) when the file is not a Lode
 * index of this schema version, so that the caller may recreate it. */
static gboolean
lode_store_try_open (LodeStore  *self,
                     gboolean   *bad,
                     GError    **error)
{
  int flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX;
  /* Only the writer sets the journal mode (it stays in the file): a reader that opens an
   * index the writer is still creating would otherwise try to switch it to WAL too, and
   * wait on the writer's lock while the writer waits on its own. The writer's sorts (the
   * look-up indexes a first run creates at its end) go to a temporary file past the size of
   * its page cache, so that its memory stays as flat as while it writes; a reader's stay in
   * memory. Its page cache holds 4 MiB: it appends far more than it reads back. A cache of
   * 16 MiB filled during the run and stayed full through the call pass, the peak of a run
   * over a large tree, for no CPU that the writer's thread showed (bench/README.md, "The
   * writer's page cache"); the sorts kept as much in memory before writing to their file.
   * A new index gets pages of 16 KiB, SQLite's default being 4 KiB: rows of chunks' text
   * (a kilobyte or two) left a sixth of each page empty, and a run writes a quarter of the
   * pages. The cost is the floor: every table and index takes a page, so a one-file tree's
   * index is 754 KB against 205 KB; from a tree of a few megabytes on, the index is smaller
   * (bench/README.md, "Pages of 16 KiB"). An index keeps the size it was made with. */
  static const char writer_pragmas[] =
    "PRAGMA page_size = 16384;"
    "PRAGMA synchronous = NORMAL;"
    "PRAGMA temp_store = FILE;"
    "PRAGMA cache_size = -4096;";
  /* Readers map the file: a search reads pages without copying them. The writer does not:
   * every page it had read through the map would stay in its resident memory, which then
   * grew with the index (an index of five copies of git: 160 of its 253 MB); its reads go
   * through its page cache, bounded. The map covers an index of five copies of git
   * whole (628 MB): past the map, a reader reads a page a call into its page cache, and
   * with pages of 16 KiB that is four times the bytes. It takes address space, not memory,
   * and where the address space is limited (`ulimit -v`) SQLite's mmap() fails and it reads
   * the file instead. */
  static const char reader_pragmas[] =
    "PRAGMA mmap_size = 1073741824;"
    "PRAGMA temp_store = MEMORY;"
    "PRAGMA cache_size = -32768;";
  int version = 0;
  int complete = 0;
  gboolean foreign = FALSE;
  int rc;

  *bad = FALSE;

  /* A reader never creates an index: a missing one is not indexed, not empty. */
  if (!self->read_only)
    flags |= SQLITE_OPEN_CREATE;
  rc = sqlite3_open_v2 (self->filename, &self->db, flags, NULL);
  if (rc != SQLITE_OK)
    {
      *bad = _lode_store_is_damage (rc);
      return _lode_store_set_error (self, rc, error, "Cannot open the index");
    }

  sqlite3_extended_result_codes (self->db, FALSE);
  sqlite3_busy_timeout (self->db, 10000);

  g_clear_pointer (&self->rank, _lode_store_rank_free);
  self->rank = _lode_store_rank_new ();
  if (!_lode_store_register_tokenizer (self->db, error) ||
      !_lode_store_register_rank (self, error) ||
      !_lode_store_register_artifacts (self, error))
    return FALSE;

  rc = sqlite3_create_function (self->db, "lode_glob", 2,
                                SQLITE_UTF8 | SQLITE_DETERMINISTIC | SQLITE_DIRECTONLY,
                                NULL, glob_func, NULL, NULL);
  if (rc != SQLITE_OK)
    return _lode_store_set_error (self, rc, error, "Cannot register lode_glob()");

  rc = sqlite3_exec (self->db, self->read_only ? reader_pragmas : writer_pragmas, NULL, NULL,
                     NULL);
  /* A reader reads the version, the schema and what preparing its statements reads (FTS5
   * loads its tables' configuration and structure then) in one snapshot: in autocommit
   * each read would be a transaction of its own, and the writer may commit between them. */
  if (rc == SQLITE_OK && self->read_only)
    rc = sqlite3_exec (self->db, "BEGIN", NULL, NULL, NULL);
  if (rc == SQLITE_OK)
    rc = query_int (self->db, "PRAGMA user_version", &version);
  if (rc == SQLITE_OK && version == 0 && !self->read_only)
    rc = create_schema (self->db, &foreign);
  if (rc == SQLITE_OK && version == 0 && !foreign && !self->read_only)
    rc = query_int (self->db, "PRAGMA user_version", &version);

  if (rc != SQLITE_OK)
    {
      *bad = _lode_store_is_bad_database (rc);
      return _lode_store_set_error (self, rc, error, "Cannot read the index");
    }

  /* A writer has created the file but not its tables yet. */
  if (self->read_only && version == 0 && !foreign)
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                           "the index is being created");
      return FALSE;
    }

  if (foreign || version != LODE_STORE_SCHEMA_VERSION)
    {
      *bad = TRUE;
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "%s is not a Lode index of schema version %d", self->filename,
                   LODE_STORE_SCHEMA_VERSION);
      return FALSE;
    }

  /* A new index keeps SQLite's rollback journal while its first run writes its files
   * (until store_end_files(), or its end: state "ready", store_set_meta()), and WAL after.
   * Those batches add pages, which a rollback journal does not copy, while WAL writes each
   * page twice: into the WAL, then into the file when a checkpoint copies it back
   * (bench/README.md, "A new index's first run"). Either journal keeps each committed batch
   * through a crash, so a killed first run resumes. The cost: once a batch's pages spill
   * from the writer's cache, the writer holds the file until the batch commits, so a search
   * of an index being built for the first time may wait up to a batch where with WAL it
   * would not. */
  if (!self->read_only)
    {
      rc = query_int (self->db, sql_has_lookup_indexes, &complete);
      if (rc != SQLITE_OK)
        {
          *bad = _lode_store_is_bad_database (rc);
          return _lode_store_set_error (self, rc, error, "Cannot read the index");
        }
      if (complete && !journal_with_wal (self, error))
        return FALSE;
    }

  if (!_lode_store_prepare (self, _lode_store_db_sql, bad, error) ||
      !_lode_store_prepare (self, _lode_store_files_sql, bad, error) ||
      !_lode_store_prepare (self, _lode_store_graph_sql, bad, error) ||
      !_lode_store_prepare (self, _lode_store_calls_sql, bad, error) ||
      !_lode_store_prepare (self, _lode_store_vectors_sql, bad, error) ||
      !_lode_store_prepare (self, _lode_store_backend_sql, bad, error))
    return FALSE;

  if (self->read_only && (rc = sqlite3_exec (self->db, "COMMIT", NULL, NULL, NULL)) != SQLITE_OK)
    return _lode_store_set_error (self, rc, error, "Cannot read the index");

  return TRUE;
}

/* Moves a damaged index and its WAL aside (`index.db.damaged-20261125T041800`), so that what
 * it holds can still be looked at, and clears its mark. Returns the new name. */
static char *
keep_aside (const char  *filename,
            GError     **error)
{
  static const char *const suffixes[] = { "", "-wal", "-journal" };
  g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
  g_autofree char *stamp = g_date_time_format (now, "%Y%m%dT%H%M%S");
  g_autofree char *aside = g_strdup_printf ("%s.damaged-%s", filename, stamp);
  g_autofree char *mark = _lode_store_damage_mark_path (filename);

  /* Another one kept in the same second is not replaced. */
  for (guint n = 2; g_file_test (aside, G_FILE_TEST_EXISTS); n++)
    {
      g_free (aside);
      aside = g_strdup_printf ("%s.damaged-%s-%u", filename, stamp, n);
    }

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *from = g_strconcat (filename, suffixes[i], NULL);
      g_autofree char *to = g_strconcat (aside, suffixes[i], NULL);

      if (g_rename (from, to) != 0 && errno != ENOENT)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot keep the damaged index %s aside: %s", from,
                       g_strerror (saved_errno));
          return NULL;
        }
    }
  delete_database_files (filename);
  g_unlink (mark);

  return g_steal_pointer (&aside);
}

/**
 * lode_store_open:
 * @filename: the database file; its directory is created if needed
 * @error: return location for a #GError
 *
 * Opens the index at @filename for writing, creating it if needed. An index of another
 * schema version (or another program's database) is deleted and created anew; a damaged one
 * (corrupt, truncated, or marked damaged by an earlier failure) is kept aside as
 * `FILENAME.damaged-TIME` and created anew. lode_index_store_get_was_reset() then returns %TRUE
 * and lode_index_store_get_reset_reason() says why.
 *
 * The store may be used from any thread, one thread at a time.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL on error
 */
LodeStore *
lode_store_open (const char  *filename,
                 GError     **error)
{
  g_autoptr(LodeStore) self = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *damage = NULL;
  gboolean bad = FALSE;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dir = g_path_get_dirname (filename);
  if (g_mkdir_with_parents (dir, 0700) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot create %s: %s", dir, g_strerror (saved_errno));
      return NULL;
    }

  self = g_object_new (LODE_TYPE_STORE, NULL);
  self->filename = g_strdup (filename);

  damage = _lode_store_dup_damage (filename);
  if (damage == NULL && lode_store_try_open (self, &bad, &local_error))
    return g_steal_pointer (&self);

  lode_store_close (self);
  if (damage == NULL && !bad)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  if (damage != NULL ||
      g_error_matches (local_error, LODE_ERROR, LODE_ERROR_DAMAGED))
    {
      g_autofree char *aside = keep_aside (filename, error);

      if (aside == NULL)
        return NULL;
      self->reset_reason = g_strdup_printf ("the index was damaged (%s); it was kept as %s "
                                            "and rebuilt from scratch",
                                            damage != NULL ? damage : local_error->message,
                                            aside);
    }
  else
    {
      delete_database_files (filename);
      self->reset_reason = g_strdup_printf ("the index was rebuilt from scratch: %s",
                                            local_error->message);
    }
  g_message ("%s: %s", filename, self->reset_reason);
  g_clear_error (&local_error);
  self->was_reset = TRUE;

  if (!lode_store_try_open (self, &bad, error))
    {
      g_prefix_error (error, "Cannot recreate the index: ");
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * lode_store_open_aside:
 * @filename: the database file to create; whatever it held is deleted
 * @error: return location for a #GError
 *
 * Opens a new, empty index for a run that builds it whole, aside from the one readers use
 * (a forced run, `index.db.new`): the caller discards the file if the run fails, so it is
 * written without a journal (no WAL: each page is written once, not once to the WAL and once
 * more by a checkpoint) and without syncing. lode_store_end_aside() turns both back on
 * before the index is used; the end of the run that fills it does so too (state "ready",
 * store_set_meta()). A rollback meanwhile leaves the file unusable: discard it.
 *
 * Returns: (transfer full): the new index, or %NULL
 */
LodeStore *
lode_store_open_aside (const char  *filename,
                       GError     **error)
{
  g_autoptr(LodeStore) self = NULL;
  int rc;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (!lode_store_remove_files (filename, error))
    return NULL;
  self = lode_store_open (filename, error);
  if (self == NULL)
    return NULL;

  rc = sqlite3_exec (self->db, "PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF", NULL,
                     NULL, NULL);
  if (rc != SQLITE_OK)
    {
      _lode_store_set_error (self, rc, error, "Cannot open the index built aside");
      return NULL;
    }
  self->unjournaled = TRUE;

  return g_steal_pointer (&self);
}

/**
 * lode_store_end_aside:
 * @self: a #LodeStore from lode_store_open_aside()
 * @error: return location for a #GError
 *
 * Writes @self with a journal again (WAL, synced as lode_store_open() does): what it holds
 * from now on survives a crash, and the file can take the place of the project's index
 * (lode_store_install()). Does nothing for an index that has its journal.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_end_aside (LodeStore  *self,
                      GError    **error)
{
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (!self->in_transaction, FALSE);

  if (!self->unjournaled)
    return TRUE;
  /* The switch is written in the old mode, synced now: everything before it is on disk. */
  rc = sqlite3_exec (self->db, "PRAGMA synchronous = NORMAL; PRAGMA journal_mode = WAL", NULL,
                     NULL, NULL);
  if (rc != SQLITE_OK)
    return _lode_store_set_error (self, rc, error, "Cannot journal the index built aside");
  self->unjournaled = FALSE;

  return TRUE;
}

/**
 * lode_store_open_reader:
 * @filename: the database file
 * @error: return location for a #GError
 *
 * Opens an existing index for searches and status. Unlike lode_store_open(), it never
 * creates, deletes or rebuilds anything: a missing index is %LODE_ERROR_NOT_INDEXED, one of
 * another schema version %LODE_ERROR_STORE, a damaged one %LODE_ERROR_DAMAGED.
 *
 * Returns: (transfer full) (nullable): the store, or %NULL on error
 */
LodeStore *
lode_store_open_reader (const char  *filename,
                        GError     **error)
{
  g_autoptr(LodeStore) self = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *damage = NULL;
  gboolean bad = FALSE;

  g_return_val_if_fail (filename != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  damage = _lode_store_dup_damage (filename);
  if (damage != NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED, "the index is damaged (%s)", damage);
      return NULL;
    }

  if (!g_file_test (filename, G_FILE_TEST_IS_REGULAR))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED, "there is no index yet");
      return NULL;
    }

  self = g_object_new (LODE_TYPE_STORE, NULL);
  self->filename = g_strdup (filename);
  self->read_only = TRUE;

  if (!lode_store_try_open (self, &bad, &local_error))
    {
      /* Another version's index, another program's file, or one whose tables SQLite
       * cannot read: a writer would rebuild it. */
      if (bad && !g_error_matches (local_error, LODE_ERROR, LODE_ERROR_DAMAGED))
        g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                     "this version of Lode cannot read the index (%s); index the project "
                     "again to rebuild it",
                     local_error->message);
      else
        g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  return g_steal_pointer (&self);
}

/* Copies the database @from over @to in one write transaction of @to (SQLite's online
 * backup), so that @to's readers, here or in another process, see the old index until the
 * commit and the new one after it, and a crash before the commit leaves the old one. The
 * file keeps its name, inode, WAL and shared memory: nothing has to be renamed under a
 * connection that pairs them by name. */
static int
copy_database (const char  *from,
               const char  *to,
               char       **message)
{
  sqlite3 *source = NULL;
  sqlite3 *target = NULL;
  sqlite3_backup *backup;
  int rc;

  rc = sqlite3_open_v2 (from, &source, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    rc = sqlite3_open_v2 (to, &target, SQLITE_OPEN_READWRITE | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_busy_timeout (target, 10000);
      backup = sqlite3_backup_init (target, "main", source, "main");
      if (backup == NULL)
        rc = sqlite3_errcode (target);
      else
        {
          /* Another writer is kept out by the project's lock; wait ten seconds at most. */
          for (guint tries = 0; tries < 100; tries++)
            {
              rc = sqlite3_backup_step (backup, -1);
              if (rc != SQLITE_BUSY && rc != SQLITE_LOCKED)
                break;
              sqlite3_sleep (100);
            }
          if (rc == SQLITE_DONE)
            rc = sqlite3_backup_finish (backup);
          else
            sqlite3_backup_finish (backup);
        }
    }
  if (rc == SQLITE_OK)
    sqlite3_wal_checkpoint_v2 (target, NULL, SQLITE_CHECKPOINT_TRUNCATE, NULL, NULL);
  else
    *message = g_strdup (target != NULL ? sqlite3_errmsg (target) : sqlite3_errstr (rc));

  sqlite3_close_v2 (target);
  sqlite3_close_v2 (source);
  return rc;
}

/* What `PRAGMA quick_check` finds wrong with the database @filename, or NULL when it finds
 * nothing, or cannot tell (a file it cannot open is left to the caller). */
static char *
dup_file_damage (const char *filename)
{
  sqlite3 *db = NULL;
  char *problems = NULL;
  int rc;

  rc = sqlite3_open_v2 (filename, &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_NOMUTEX, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_busy_timeout (db, 10000);
      problems = _lode_store_dup_quick_check (db, &rc);
    }
  if (problems == NULL && _lode_store_is_damage (rc))
    problems = g_strdup (sqlite3_errstr (rc));
  sqlite3_close_v2 (db);

  return problems;
}

/**
 * lode_store_install:
 * @from: a complete index, built aside and closed
 * @to: the index to replace, which may be in use by readers
 * @error: return location for a #GError
 *
 * Replaces the index at @to with the one at @from atomically: readers that have @to open
 * answer from the old index until the new one is whole, then from the new one; a crash
 * meanwhile leaves the old one. When @to is missing or damaged (no reader can use it), @from
 * is renamed over it instead of copied; a damaged one (marked so, or found so by `PRAGMA
 * quick_check`) is kept aside as `TO.damaged-TIME` first. @from is deleted afterwards.
 *
 * Returns: %TRUE on success; on failure @to is untouched
 */
gboolean
lode_store_install (const char  *from,
                    const char  *to,
                    GError     **error)
{
  g_autofree char *damage = NULL;
  g_autofree char *message = NULL;
  int rc;

  g_return_val_if_fail (from != NULL && to != NULL, FALSE);

  /* A forced run is how a damaged index is repaired: it is kept aside, as lode_store_open()
   * keeps it, even when no query has come across the damage yet. */
  damage = _lode_store_dup_damage (to);
  if (damage == NULL && g_file_test (to, G_FILE_TEST_IS_REGULAR))
    damage = dup_file_damage (to);
  if (damage == NULL && g_file_test (to, G_FILE_TEST_IS_REGULAR))
    {
      rc = copy_database (from, to, &message);
      if (rc == SQLITE_OK)
        return lode_store_remove_files (from, error);
      if (!_lode_store_is_damage (rc))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "Cannot replace the index %s with the one built aside: %s", to, message);
          return FALSE;
        }
      damage = g_steal_pointer (&message);
    }

  if (damage != NULL)
    {
      g_autofree char *aside = keep_aside (to, error);

      if (aside == NULL)
        return FALSE;
      g_message ("%s: the index was damaged (%s); it was kept as %s and replaced by the one "
                 "built aside", to, damage, aside);
    }
  else if (!lode_store_remove_files (to, error))
    return FALSE;
  if (g_rename (from, to) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot move the index built aside to %s: %s", to, g_strerror (saved_errno));
      return FALSE;
    }
  return lode_store_remove_files (from, error);
}

/**
 * lode_store_remove_files:
 * @filename: the database file
 * @error: return location for a #GError
 *
 * Deletes an index (its database, WAL, shared memory and damage mark), to build it anew.
 * Connections still open keep reading the deleted file until they close.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_remove_files (const char  *filename,
                         GError     **error)
{
  static const char *const suffixes[] = { "", "-wal", "-shm", "-journal", "-damaged" };

  g_return_val_if_fail (filename != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    {
      g_autofree char *path = g_strconcat (filename, suffixes[i], NULL);

      if (g_unlink (path) != 0 && errno != ENOENT)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot remove %s: %s", path, g_strerror (saved_errno));
          return FALSE;
        }
    }

  return TRUE;
}

/**
 * lode_store_copy_into:
 * @self: a #LodeStore
 * @filename: where the copy goes; replaced if it exists
 * @error: return location for a #GError
 *
 * Copies the index into @filename with `VACUUM INTO`: a consistent snapshot of the last
 * committed state, taken in a read transaction, so a writer of @self may go on meanwhile.
 * The copy is made beside @filename and renamed into place, so that a crash never leaves a
 * half copy that looks like an index. Nothing is chunked or embedded again.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_store_copy_into (LodeStore   *self,
                      const char  *filename,
                      GError     **error)
{
  g_autofree char *partial = NULL;
  sqlite3_stmt *stmt = NULL;
  int rc;

  g_return_val_if_fail (LODE_IS_STORE (self), FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);

  partial = g_strconcat (filename, ".partial", NULL);
  if (!lode_store_remove_files (partial, error) || !lode_store_remove_files (filename, error))
    return FALSE;

  rc = sqlite3_prepare_v2 (self->db, "VACUUM INTO ?", -1, &stmt, NULL);
  if (rc == SQLITE_OK)
    {
      sqlite3_bind_text (stmt, 1, partial, -1, SQLITE_TRANSIENT);
      rc = sqlite3_step (stmt);
    }
  sqlite3_finalize (stmt);
  if (rc != SQLITE_OK && rc != SQLITE_DONE)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Cannot copy %s into %s: %s",
                   self->filename, filename, sqlite3_errmsg (self->db));
      g_unlink (partial);
      return FALSE;
    }

  if (g_rename (partial, filename) != 0)
    {
      int saved_errno = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                   "Cannot rename %s to %s: %s", partial, filename, g_strerror (saved_errno));
      g_unlink (partial);
      return FALSE;
    }

  return TRUE;
}

/* Checks the structure of every page of the index (SQLite's `PRAGMA quick_check`), which
 * finds what a query would only find when it reads a broken page: garbled pages of the
 * full-text index, a truncated file. It reads the whole file, and cannot be stopped midway:
 * 0.13 s of CPU for the 110 MB index of git's tree (`PRAGMA integrity_check` takes 0.3 s, and
 * FTS5's 'integrity-check' 1.2 s, which tokenizes every chunk again). A damaged index is
 * marked as when a query finds it (lode_store_is_damaged()): the next lode_store_open() keeps
 * it aside and starts anew. */
static gboolean
store_check (LodeIndexStore  *store,
             GError         **error)
{
  LodeStore *self = (LodeStore *) store;
  g_autofree char *problems = NULL;
  int rc;

  /* SQLite 3.40 looks at an interrupt only once the whole file is checked: no cancellable. */
  problems = _lode_store_dup_quick_check (self->db, &rc);
  if (problems == NULL)
    return rc == SQLITE_OK || _lode_store_set_error (self, rc, error, "Cannot check the index");

  self->damaged = TRUE;
  _lode_store_mark_damaged (self->filename, problems);
  g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED, "the index is damaged (%s)", problems);
  return FALSE;
}

static gboolean
store_is_damaged (LodeIndexStore *store)
{
  LodeStore *self = (LodeStore *) store;

  return self->damaged;
}

static const char *
store_get_reset_reason (LodeIndexStore *store)
{
  LodeStore *self = (LodeStore *) store;

  return self->reset_reason;
}

static gboolean
store_get_was_reset (LodeIndexStore *store)
{
  LodeStore *self = (LodeStore *) store;

  return self->was_reset;
}

static gboolean
store_begin (LodeIndexStore  *store,
             GError         **error)
{
  return _lode_store_begin ((LodeStore *) store, error);
}

static void
store_rollback (LodeIndexStore *store)
{
  _lode_store_rollback ((LodeStore *) store);
  _lode_store_trigrams_discard ((LodeStore *) store);
}

static gboolean
store_commit (LodeIndexStore  *store,
              GError         **error)
{
  LodeStore *self = (LodeStore *) store;

  /* The batch's trigrams are written as it ends, in it. */
  if (!_lode_store_trigrams_flush (self, error))
    {
      store_rollback (store);
      return FALSE;
    }
  return _lode_store_commit (self, error);
}

static gboolean
store_set_meta (LodeIndexStore  *store,
                const char      *key,
                const char      *value,
                GError         **error)
{
  LodeStore *self = (LodeStore *) store;

  g_return_val_if_fail (key != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  /* A run that ends gives a new index what only look-ups need, and WAL: one built aside
   * gets its journal back, one built in place leaves the rollback journal of its first
   * run. */
  if (strcmp (key, "state") == 0 && g_strcmp0 (value, "ready") == 0 &&
      (!_lode_store_create_lookup_indexes (self, error) ||
       (!self->in_transaction && !(self->unjournaled ? lode_store_end_aside (self, error)
                                                     : journal_with_wal (self, error)))))
    return FALSE;

  return _lode_store_files_set_meta (self, key, value, error);
}

/* A first run's files are written; what follows keeps long batches over pages already
 * written (the call pass holds one for all of them), which would hold readers off for as long
 * under the rollback journal (lode_store_try_open()). An index built aside keeps no journal
 * until lode_store_end_aside(). */
static gboolean
store_end_files (LodeIndexStore  *store,
                 GError         **error)
{
  LodeStore *self = (LodeStore *) store;

  g_return_val_if_fail (!self->in_transaction, FALSE);

  return self->unjournaled || journal_with_wal (self, error);
}

static void
lode_store_index_store_init (LodeIndexStoreInterface *iface)
{
  iface->get_was_reset = store_get_was_reset;
  iface->get_reset_reason = store_get_reset_reason;
  iface->check = store_check;
  iface->is_damaged = store_is_damaged;
  iface->begin = store_begin;
  iface->commit = store_commit;
  iface->rollback = store_rollback;
  iface->end_files = store_end_files;
  _lode_store_files_init (iface);
  iface->set_meta = store_set_meta;
  _lode_store_graph_init (iface);
  _lode_store_calls_init (iface);
  _lode_store_vectors_init (iface);
  _lode_store_symbols_init (iface);
  _lode_store_artifacts_init (iface);
  _lode_store_trigrams_init (iface);
}

static void
lode_store_search_backend_init (LodeSearchBackendInterface *iface)
{
  _lode_store_backend_init (iface);
  _lode_store_rank_init (iface);
}
