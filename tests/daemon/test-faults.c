/* test-faults.c — nothing is lost under kills and full disks
 *
 * `lode index` killed at random moments, during the lexical and during the embedding pass;
 * loded killed while its watcher applies a branch switch; a full disk under the data
 * directory. After each, the next run (or the restarted daemon) must leave an index equal to
 * one built from scratch: the same files, chunks, symbols, FTS rows, imports, edges and
 * vectors, and an index that passes SQLite's and FTS5's integrity checks.
 *
 * The tree is generated (a few hundred files in five languages that import each other, on
 * two git branches); LODE_FAULTS_TREE names a real tree instead (bench/kill-index.sh).
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* unshare() and CLONE_NEW*: a mount namespace for the full-disk test. */
#define _GNU_SOURCE

#include "config.h"

#include <errno.h>
#include <math.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/resource.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <sqlite3.h>

#include "lode.h"
#include "lode-code-tokenizer.h"
#include "lode-store-private.h"
#include "daemon-clients.h"
#include "generated-repo.h"
#include "lode-dbus-daemon.h"
#include "test-helpers.h"

#define KILLS_DURING_INDEX     20
#define KILLS_DURING_EMBEDDING 20
#define DAEMON_KILL_ROUNDS     20
/* How long an update after a restart may take before the test calls it stuck. */
#define CATCH_UP_SECONDS      120

typedef struct
{
  char *tmp;
  char *root;        /* the tree */
  char *data_dir;    /* the index under test */
  char *fresh_dir;   /* indexes built from scratch, to compare with */
  const char *model; /* an embedding model folder, or NULL */
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  const char *tree = g_getenv ("LODE_FAULTS_TREE");

  fixture->tmp = g_dir_make_tmp ("lode-faults-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->data_dir = g_build_filename (fixture->tmp, "data", NULL);
  fixture->fresh_dir = g_build_filename (fixture->tmp, "fresh", NULL);
  fixture->model = data;
  if (tree != NULL)
    {
      fixture->root = realpath (tree, NULL);
      g_assert_nonnull (fixture->root);
    }
  else
    {
      g_autofree char *root = g_build_filename (fixture->tmp, "tree", NULL);

      test_make_repository (root);
      fixture->root = realpath (root, NULL);
    }
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
  free (fixture->root);
  g_free (fixture->data_dir);
  g_free (fixture->fresh_dir);
}

/* Comparing indexes ----------------------------------------------------------------------- */

static char *
db_path (const char *data_dir,
         const char *root)
{
  g_autofree char *id = lode_project_id_for_path (root);

  return g_build_filename (data_dir, "projects", id, "index.db", NULL);
}

static void
append_rows (sqlite3    *db,
             GPtrArray  *lines,
             const char *section,
             const char *sql)
{
  sqlite3_stmt *stmt = NULL;
  int rc;

  if (sqlite3_prepare_v2 (db, sql, -1, &stmt, NULL) != SQLITE_OK)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  while ((rc = sqlite3_step (stmt)) == SQLITE_ROW)
    {
      GString *line = g_string_new (section);

      for (int c = 0; c < sqlite3_column_count (stmt); c++)
        {
          const char *text = (const char *) sqlite3_column_text (stmt, c);

          g_string_append_printf (line, " | %s", text != NULL ? text : "∅");
        }
      g_ptr_array_add (lines, g_string_free (line, FALSE));
    }
  if (rc != SQLITE_DONE)
    g_error ("%s: %s", sql, sqlite3_errmsg (db));
  sqlite3_finalize (stmt);
}

/* Every vector a chunk of the index uses, by (model, text hash). */
static GHashTable *
load_vectors (sqlite3 *db)
{
  GHashTable *vectors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                               (GDestroyNotify) g_bytes_unref);
  sqlite3_stmt *stmt = NULL;

  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT model || ' ' || hash, vector FROM vectors "
                                       "WHERE hash IN (SELECT hash FROM chunks)", -1, &stmt,
                                       NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    g_hash_table_insert (vectors, g_strdup ((const char *) sqlite3_column_text (stmt, 0)),
                         g_bytes_new (sqlite3_column_blob (stmt, 1),
                                      sqlite3_column_bytes (stmt, 1)));
  sqlite3_finalize (stmt);
  return vectors;
}

/* The index of @path as sorted lines (ids left out: they depend on the order of the runs
 * that wrote it), after SQLite's and FTS5's integrity checks; its vectors in @vectors. */
static GPtrArray *
dump_index (const char  *path,
            GHashTable **vectors)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  g_assert_cmpint (sqlite3_open_v2 (path, &db, SQLITE_OPEN_READWRITE, NULL), ==, SQLITE_OK);
  /* FTS5's integrity check is a write: a watcher's job that began after the index looked
   * idle holds the writer lock for a while. */
  sqlite3_busy_timeout (db, 60 * 1000);
  g_assert_true (_lode_store_register_tokenizer (db, &error));
  g_assert_no_error (error);

  append_rows (db, lines, "integrity", "PRAGMA integrity_check");
  /* FTS5 compares its index with its content; an error is a failed step. */
  if (sqlite3_exec (db, "INSERT INTO chunks_fts (chunks_fts) VALUES ('integrity-check')",
                    NULL, NULL, NULL) != SQLITE_OK)
    g_error ("FTS integrity check of %s: %s", path, sqlite3_errmsg (db));

  append_rows (db, lines, "meta", "SELECT key, value FROM meta WHERE key IN ('state', 'root', "
               "'graph') ORDER BY key");
  append_rows (db, lines, "file", "SELECT path, language, hash, size, mtime, n_lines "
               "FROM files ORDER BY path");
  append_rows (db, lines, "chunk", "SELECT f.path, c.start_line, c.end_line, c.kind, c.symbol, "
               "c.container, c.signature, c.hash FROM chunks c "
               "LEFT JOIN files f ON f.id = c.file_id ORDER BY 1, 2, 3, 4, 5");
  append_rows (db, lines, "symbol", "SELECT f.path, s.name, s.kind, s.container, s.start_line, "
               "s.end_line, s.signature, c.start_line, c.end_line FROM symbols s "
               "LEFT JOIN files f ON f.id = s.file_id LEFT JOIN chunks c ON c.id = s.chunk_id "
               "ORDER BY 1, 5, 2, 3, 6, 4, 7");
  append_rows (db, lines, "fts", "SELECT f.path, c.start_line, t.symbol, t.sig, t.path, "
               "t.body FROM chunks_fts t LEFT JOIN chunks c ON c.id = t.rowid "
               "LEFT JOIN files f ON f.id = c.file_id ORDER BY 1, 2, 3, 4, 6");
  append_rows (db, lines, "unsearchable chunks", "SELECT count(*) FROM chunks "
               "WHERE id NOT IN (SELECT rowid FROM chunks_fts)");
  append_rows (db, lines, "import", "SELECT f.path, i.specifier, i.name, i.kind, i.line, i.key "
               "FROM imports i LEFT JOIN files f ON f.id = i.file_id ORDER BY 1, 5, 2, 3, 4");
  append_rows (db, lines, "edge", "SELECT f.path, i.specifier, i.line, e.to_path, e.package "
               "FROM edges e LEFT JOIN imports i ON i.id = e.import_id "
               "LEFT JOIN files f ON f.id = e.from_id ORDER BY 1, 3, 2, 4, 5");
  append_rows (db, lines, "chunks without a vector", "SELECT count(*) FROM chunks c "
               "WHERE c.hash IS NOT NULL AND EXISTS (SELECT 1 FROM vectors) AND NOT EXISTS "
               "(SELECT 1 FROM vectors v WHERE v.hash = c.hash)");
  *vectors = load_vectors (db);
  sqlite3_close (db);

  return lines;
}

/* The encoder's sums may run in another order in another batch: vectors agree to rounding. */
static void
assert_same_vectors (GHashTable *vectors,
                     GHashTable *fresh)
{
  GHashTableIter iter;
  gpointer key, value;

  g_assert_cmpuint (g_hash_table_size (vectors), ==, g_hash_table_size (fresh));
  g_hash_table_iter_init (&iter, fresh);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GBytes *other = g_hash_table_lookup (vectors, key);
      gsize n, n_other;
      const float *a = g_bytes_get_data (value, &n);
      const float *b;

      if (other == NULL)
        g_error ("The vector of %s is missing", (const char *) key);
      b = g_bytes_get_data (other, &n_other);
      g_assert_cmpuint (n, ==, n_other);
      for (gsize d = 0; d < n / sizeof (float); d++)
        if (fabsf (a[d] - b[d]) > 1e-4f)
          g_error ("The vector of %s differs in dimension %zu: %g, afresh %g",
                   (const char *) key, d, b[d], a[d]);
    }
}

/* The index in @data_dir equals the one in @fresh_dir, or the first difference is named. */
static gboolean
same_index (const char  *data_dir,
            const char  *fresh_dir,
            const char  *root,
            char       **difference)
{
  g_autofree char *path = db_path (data_dir, root);
  g_autofree char *fresh_path = db_path (fresh_dir, root);
  g_autoptr(GPtrArray) lines = NULL;
  g_autoptr(GPtrArray) fresh_lines = NULL;
  g_autoptr(GHashTable) vectors = NULL;
  g_autoptr(GHashTable) fresh_vectors = NULL;

  lines = dump_index (path, &vectors);
  fresh_lines = dump_index (fresh_path, &fresh_vectors);
  for (guint i = 0; i < MAX (lines->len, fresh_lines->len); i++)
    {
      const char *line = i < lines->len ? g_ptr_array_index (lines, i) : "(end)";
      const char *fresh = i < fresh_lines->len ? g_ptr_array_index (fresh_lines, i) : "(end)";

      if (strcmp (line, fresh) != 0)
        {
          *difference = g_strdup_printf ("line %u of %u:\n  index:  %.400s\n  afresh: %.400s",
                                         i + 1, fresh_lines->len, line, fresh);
          return FALSE;
        }
    }

  assert_same_vectors (vectors, fresh_vectors);
  return TRUE;
}

static void
assert_same_index (const char *data_dir,
                   const char *fresh_dir,
                   const char *root)
{
  g_autofree char *difference = NULL;

  if (!same_index (data_dir, fresh_dir, root, &difference))
    g_error ("The index differs from one built from scratch at %s", difference);
}

/* Running lode ------------------------------------------------------------------------------ */

static GSubprocessLauncher *
lode_launcher (Fixture    *fixture,
               const char *data_dir)
{
  GSubprocessLauncher *launcher;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_setenv (launcher, "LODE_DATA_DIR", data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_EMBEDDING_PROVIDER",
                                fixture->model != NULL ? "builtin" : "none", TRUE);
  if (fixture->model != NULL)
    g_subprocess_launcher_setenv (launcher, "LODE_EMBEDDING_MODEL", fixture->model, TRUE);
  return launcher;
}

static GSubprocess *
spawn_lode (Fixture             *fixture,
            GSubprocessLauncher *launcher,
            const char          *command)
{
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("LODE_CLI"), "--no-daemon",
                                         command, "--json", fixture->root, NULL);
  g_assert_no_error (error);
  return process;
}

/* Runs `lode --no-daemon COMMAND --json ROOT` to its end: its exit status, output and errors. */
static int
run_lode (Fixture    *fixture,
          const char *data_dir,
          const char *command,
          char      **out,
          char      **err)
{
  g_autoptr(GSubprocessLauncher) launcher = lode_launcher (fixture, data_dir);
  g_autoptr(GSubprocess) process = spawn_lode (fixture, launcher, command);
  g_autoptr(GError) error = NULL;

  g_subprocess_communicate_utf8 (process, NULL, NULL, out, err, &error);
  g_assert_no_error (error);
  return g_subprocess_get_if_exited (process) ? g_subprocess_get_exit_status (process) : -1;
}

static JsonObject *
parse_object (const char *text,
              JsonNode  **root)
{
  g_autoptr(GError) error = NULL;

  *root = json_from_string (text, &error);
  g_assert_no_error (error);
  g_assert_true (JSON_NODE_HOLDS_OBJECT (*root));
  return json_node_get_object (*root);
}

/* Indexes the tree into @data_dir, which must succeed; the wall time in seconds. */
static double
index_fully (Fixture    *fixture,
             const char *data_dir,
             gboolean   *resumed)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonNode) root = NULL;
  gint64 start = g_get_monotonic_time ();
  JsonObject *job;
  int status;

  status = run_lode (fixture, data_dir, "index", &out, &err);
  if (status != 0)
    g_error ("lode index exited with %d: %s", status, err);
  job = json_object_get_object_member (parse_object (out, &root), "job");
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "succeeded");
  if (resumed != NULL)
    *resumed = json_object_get_boolean_member (json_object_get_object_member (job, "report"),
                                               "resumed");
  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
}

/* The index's state as `lode status` reports it after a kill ("none" before it exists): a
 * killed run must leave an index that can be read. */
static char *
index_state (Fixture    *fixture,
             const char *data_dir)
{
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(JsonNode) root = NULL;
  int status;

  status = run_lode (fixture, data_dir, "status", &out, &err);
  if (status != 0)
    {
      if (strstr (err, "not indexed") == NULL)
        g_error ("lode status failed after a kill (%d): %s", status, err);
      return g_strdup ("none");
    }
  return g_strdup (json_object_get_string_member (parse_object (out, &root), "state"));
}

/* Whether the index's meta table says a run was writing it (meta.state "indexing"). */
static gboolean
stored_state_is_indexing (Fixture *fixture)
{
  g_autofree char *path = db_path (fixture->data_dir, fixture->root);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean indexing = FALSE;

  if (g_file_test (path, G_FILE_TEST_IS_REGULAR) &&
      sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) == SQLITE_OK &&
      sqlite3_prepare_v2 (db, "SELECT value FROM meta WHERE key = 'state'", -1, &stmt,
                          NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    indexing = g_strcmp0 ((const char *) sqlite3_column_text (stmt, 0), "indexing") == 0;
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return indexing;
}

static gboolean
timeout_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates the main context for @msec. */
static void
wait_msec (guint msec)
{
  gboolean done = FALSE;

  g_timeout_add (msec, timeout_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

static void
wait_done_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_wait_finish (G_SUBPROCESS (object), result, &error);
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

/* Starts `lode index`, waits until @ready says the moment has come, then @msec more, and
 * kills it with SIGKILL. FALSE when it ended first. */
static gboolean
kill_index_after (Fixture    *fixture,
                  guint       msec,
                  gboolean  (*ready) (Fixture *fixture))
{
  g_autoptr(GSubprocessLauncher) launcher = lode_launcher (fixture, fixture->data_dir);
  g_autoptr(GSubprocess) process = NULL;
  gboolean ended = FALSE;
  gboolean timed_out = FALSE;
  guint timer;

  g_subprocess_launcher_set_flags (launcher, G_SUBPROCESS_FLAGS_STDOUT_SILENCE |
                                   G_SUBPROCESS_FLAGS_STDERR_SILENCE);
  process = spawn_lode (fixture, launcher, "index");
  g_subprocess_wait_async (process, NULL, wait_done_cb, &ended);
  while (!ended && ready != NULL && !ready (fixture))
    wait_msec (5);

  timer = g_timeout_add (msec, timeout_cb, &timed_out);
  while (!ended && !timed_out)
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timer);

  g_subprocess_send_signal (process, SIGKILL);
  while (!ended)
    g_main_context_iteration (NULL, TRUE);

  if (g_subprocess_get_if_exited (process))
    {
      g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 0);
      return FALSE;
    }
  g_assert_cmpint (g_subprocess_get_term_sig (process), ==, SIGKILL);
  return TRUE;
}

/* Killing `lode index` ----------------------------------------------------------------------- */

/* Kills `lode index` @n_kills times, each after a moment drawn from @from…@to seconds (after
 * @ready, when given; @to shrinks below a run that ended before its kill), then checks the
 * resumed index; how many kills interrupted a run. */
static guint
kill_and_resume (Fixture    *fixture,
                 guint       n_kills,
                 double      from,
                 double      to,
                 gboolean  (*ready) (Fixture *fixture))
{
  g_autoptr(GHashTable) states = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  gpointer key, value;
  guint interrupted = 0;

  for (guint k = 0; k < n_kills; k++)
    {
      guint msec = (guint) g_test_rand_double_range (from * 1000, to * 1000);
      g_autofree char *state = NULL;
      gboolean resumed = FALSE;
      gboolean marked;

      test_remove_tree (fixture->data_dir);
      if (kill_index_after (fixture, msec, ready))
        {
          /* "incomplete" when killed in the lexical pass; "ready" in the embedding pass,
           * whose vectors the next run completes. */
          state = index_state (fixture, fixture->data_dir);
          interrupted++;
        }
      else
        {
          /* This run was shorter than the one the moments are drawn from (the load of the
           * machine varies): the next kills come sooner. */
          state = g_strdup ("finished before the kill");
          to = MAX (from, 0.95 * msec / 1000);
        }
      g_test_message ("kill %u after %u ms: %s", k + 1, msec, state);

      /* A kill before the first run marked the index as being written leaves nothing to
       * resume; after it, the next run must say that it resumed. */
      marked = stored_state_is_indexing (fixture);
      index_fully (fixture, fixture->data_dir, &resumed);
      g_assert_cmpint (resumed, ==, marked);
      assert_same_index (fixture->data_dir, fixture->fresh_dir, fixture->root);

      g_hash_table_insert (states, g_steal_pointer (&state),
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (states,
                                                                                    state)) + 1));
    }

  g_hash_table_iter_init (&iter, states);
  while (g_hash_table_iter_next (&iter, &key, &value))
    g_test_message ("%u kills left the index %s", GPOINTER_TO_UINT (value), (char *) key);
  return interrupted;
}

/* SIGKILL at random moments of `lode index`, each followed by a run that resumes. */
static void
test_kill_index (Fixture       *fixture,
                 gconstpointer  data)
{
  double seconds = index_fully (fixture, fixture->fresh_dir, NULL);

  g_test_message ("a whole run takes %.2f s", seconds);
  /* The kill times are drawn from the length of a whole run: most land inside one. */
  g_assert_cmpuint (kill_and_resume (fixture, KILLS_DURING_INDEX, 0.05 * seconds, 0.95 * seconds,
                                     NULL), >=, KILLS_DURING_INDEX / 2);
}

static gboolean
embedding_started (Fixture *fixture)
{
  g_autofree char *path = db_path (fixture->data_dir, fixture->root);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  gboolean started = FALSE;

  if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
      sqlite3_open_v2 (path, &db, SQLITE_OPEN_READONLY, NULL) != SQLITE_OK)
    {
      sqlite3_close (db);
      return FALSE;
    }
  sqlite3_busy_timeout (db, 1000);
  if (sqlite3_prepare_v2 (db, "SELECT EXISTS (SELECT 1 FROM vectors)", -1, &stmt,
                          NULL) == SQLITE_OK &&
      sqlite3_step (stmt) == SQLITE_ROW)
    started = sqlite3_column_int (stmt, 0) != 0;
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return started;
}

/* The same during the embedding pass (with the tiny random BERT): killed once its first batch
 * is stored, at a random moment of the first half of what the pass takes (noticing the first
 * batch takes part of it). */
static void
test_kill_embedding (Fixture       *fixture,
                     gconstpointer  data)
{
  const char *model = test_tiny_bert_dir ();
  double seconds;
  double lexical;
  guint interrupted;

  fixture->model = model;
  seconds = index_fully (fixture, fixture->fresh_dir, NULL);
  fixture->model = NULL;
  test_remove_tree (fixture->data_dir);
  lexical = index_fully (fixture, fixture->data_dir, NULL);
  fixture->model = model;
  g_test_message ("a whole run takes %.2f s, %.2f s without embedding", seconds, lexical);
  interrupted = kill_and_resume (fixture, KILLS_DURING_EMBEDDING, 0,
                                 MAX ((seconds - lexical) / 2, 0.1), embedding_started);
  /* Every resumed index was checked; but a pass too short on this machine (a loaded one, or
   * under a sanitizer, where its length drowns in the noise) may end before most kills. */
  if (interrupted < KILLS_DURING_EMBEDDING / 2)
    g_test_skip ("the embedding pass mostly ended before the kill: too short to test here");
}

/* A full disk -------------------------------------------------------------------------------- */

#define SMALL_DISK "size=2m"
#define SMALL_FILE_LIMIT (2 * 1024 * 1024)

/* The data directory on a tmpfs of 2 MiB, in a mount namespace of our own: root's, or a user
 * namespace's where the kernel lets an unprivileged user make one. FALSE when neither is
 * possible. The disk holds a new index (754 KB with its pages of 16 KiB) and fills midway
 * through the fixture's run. */
static gboolean
mount_small_disk (const char *dir)
{
  g_autofree char *uid_map = g_strdup_printf ("0 %u 1", (guint) getuid ());
  g_autofree char *gid_map = g_strdup_printf ("0 %u 1", (guint) getgid ());

  if (geteuid () == 0)
    {
      if (unshare (CLONE_NEWNS) != 0)
        return FALSE;
    }
  else
    {
      if (unshare (CLONE_NEWUSER | CLONE_NEWNS) != 0)
        return FALSE;
      g_assert_true (g_file_set_contents ("/proc/self/setgroups", "deny", -1, NULL));
      g_assert_true (g_file_set_contents ("/proc/self/uid_map", uid_map, -1, NULL));
      g_assert_true (g_file_set_contents ("/proc/self/gid_map", gid_map, -1, NULL));
    }
  g_assert_cmpint (mount (NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  if (mount ("tmpfs", dir, "tmpfs", 0, SMALL_DISK) != 0)
    g_error ("Cannot mount a tmpfs on %s: %s", dir, g_strerror (errno));
  return TRUE;
}

/* Whether this process may make a mount namespace, as util-linux's unshare tells. */
static gboolean
can_mount_small_disk (void)
{
  const char *root_argv[] = { "unshare", "-m", "true", NULL };
  const char *user_argv[] = { "unshare", "-Urm", "true", NULL };
  int status = -1;

  return g_spawn_sync (NULL, (char **) (geteuid () == 0 ? root_argv : user_argv), NULL,
                       G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                       G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL) &&
         g_spawn_check_wait_status (status, NULL);
}

/* An index run that the disk stops: it fails with a clear error naming the tree and the
 * cause (@cause), and leaves an index that is consistent and can be read and searched. */
static void
assert_stopped_by_disk (Fixture    *fixture,
                        const char *cause)
{
  g_autoptr(GSubprocessLauncher) launcher = lode_launcher (fixture, fixture->data_dir);
  g_autoptr(GSubprocessLauncher) search_launcher = lode_launcher (fixture, fixture->data_dir);
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GSubprocess) search = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autofree char *search_out = NULL;
  g_autofree char *search_err = NULL;
  g_autofree char *state = NULL;
  g_autoptr(JsonNode) root = NULL;

  process = spawn_lode (fixture, launcher, "index");
  g_subprocess_communicate_utf8 (process, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_test_message ("lode index stopped by the disk: %s", err);

  /* A clear error, in words, and a failure status. */
  g_assert_true (g_subprocess_get_if_exited (process));
  g_assert_cmpint (g_subprocess_get_exit_status (process), ==, 1);
  g_assert_nonnull (strstr (err, cause));
  g_assert_nonnull (strstr (err, fixture->root));

  /* What was stored is consistent and can be read and searched. */
  state = index_state (fixture, fixture->data_dir);
  g_assert_cmpstr (state, ==, "incomplete");
  search = g_subprocess_launcher_spawn (search_launcher, &error, g_getenv ("LODE_CLI"),
                                        "--no-daemon", "search", "--json", "-p",
                                        fixture->root, "unit0_part1", NULL);
  g_assert_no_error (error);
  g_subprocess_communicate_utf8 (search, NULL, NULL, &search_out, &search_err, &error);
  g_assert_no_error (error);
  g_assert_cmpint (g_subprocess_get_exit_status (search), ==, 0);
  parse_object (search_out, &root);
}

static void
test_full_disk_in_subprocess (Fixture *fixture)
{
  gboolean resumed = FALSE;

  if (!mount_small_disk (fixture->data_dir))
    g_error ("No mount namespace after all: %s", g_strerror (errno));
  index_fully (fixture, fixture->fresh_dir, NULL);

  assert_stopped_by_disk (fixture, "the disk is full where the index is kept");

  /* With room again, the next run completes it. */
  g_assert_cmpint (mount ("tmpfs", fixture->data_dir, "tmpfs", MS_REMOUNT, "size=512m"), ==, 0);
  index_fully (fixture, fixture->data_dir, &resumed);
  g_assert_true (resumed);
  assert_same_index (fixture->data_dir, fixture->fresh_dir, fixture->root);
  /* So that the teardown can remove the folder it was mounted on. */
  g_assert_cmpint (umount (fixture->data_dir), ==, 0);
}

/* A full disk under the data directory: a clear error, an index that stays consistent and
 * usable, and a next run that completes once there is room. In a subprocess: the mount
 * namespace (or the file size limit) is its own. */
static void
test_full_disk (Fixture       *fixture,
                gconstpointer  data)
{
  if (g_test_subprocess ())
    {
      test_full_disk_in_subprocess (fixture);
      return;
    }
  if (!can_mount_small_disk ())
    {
      g_test_skip ("no mount namespace for a small tmpfs");
      return;
    }

  g_test_trap_subprocess (NULL, 600 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

/* A file size limit (RLIMIT_FSIZE, as a quota would) under the data directory: SQLite calls
 * EFBIG a disk I/O error; Lode says what was reached, the index stays consistent and usable,
 * and the next run with the limit raised completes it. In a subprocess: the limit and the
 * ignored SIGXFSZ (which would otherwise kill lode) are inherited by the lode it runs. */
static void
test_file_size_limit (Fixture       *fixture,
                      gconstpointer  data)
{
  struct rlimit limit;
  gboolean resumed = FALSE;

  if (!g_test_subprocess ())
    {
      g_test_trap_subprocess (NULL, 600 * G_USEC_PER_SEC,
                              G_TEST_SUBPROCESS_INHERIT_STDOUT |
                              G_TEST_SUBPROCESS_INHERIT_STDERR);
      g_test_trap_assert_passed ();
      return;
    }

  index_fully (fixture, fixture->fresh_dir, NULL);

  g_assert_cmpint (getrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  limit.rlim_cur = SMALL_FILE_LIMIT;
  signal (SIGXFSZ, SIG_IGN);
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);

  assert_stopped_by_disk (fixture, "the file-size limit is reached where the index is kept");

  limit.rlim_cur = limit.rlim_max;
  g_assert_cmpint (setrlimit (RLIMIT_FSIZE, &limit), ==, 0);
  index_fully (fixture, fixture->data_dir, &resumed);
  g_assert_true (resumed);
  assert_same_index (fixture->data_dir, fixture->fresh_dir, fixture->root);
}

/* Killing loded during a watcher's update -------------------------------------------------- */

typedef struct
{
  GTestDBus       *bus;
  LodeDBusDaemon1 *proxy;
} Daemon;

static void
daemon_up (Daemon  *daemon,
           Fixture *fixture)
{
  g_autoptr(GError) error = NULL;

  /* The activated daemon inherits the bus's environment. */
  g_setenv ("LODE_DATA_DIR", fixture->data_dir, TRUE);
  g_setenv ("LODE_EMBEDDING_PROVIDER", "none", TRUE);
  g_setenv ("LODE_WATCH_DEBOUNCE_MSEC", "200", TRUE);
  daemon->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (daemon->bus, LODE_TEST_SERVICES_DIR);
  g_test_dbus_up (daemon->bus);

  daemon->proxy = lode_dbus_daemon1_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION,
                                                            G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                                                            G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION,
                                                            LODE_DAEMON_BUS_NAME,
                                                            LODE_DAEMON_OBJECT_PATH, NULL,
                                                            &error);
  g_assert_no_error (error);
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (daemon->proxy), 300000);
}

static void
daemon_down (Daemon *daemon)
{
  g_clear_object (&daemon->proxy);
  g_test_dbus_down (daemon->bus);
  g_clear_object (&daemon->bus);
}

/* Whether the daemon is idle for the tree: no job running, the index ready. */
static gboolean
daemon_idle (Daemon     *daemon,
             const char *root)
{
  g_autoptr(GVariant) status = NULL;
  g_autoptr(GError) error = NULL;
  const char *state = NULL;
  gboolean indexing = TRUE, watched = FALSE;

  if (!lode_dbus_daemon1_call_status_sync (daemon->proxy, root, &status, NULL, &error))
    g_error ("Status failed: %s", error->message);
  g_variant_lookup (status, "state", "&s", &state);
  g_variant_lookup (status, "indexing", "b", &indexing);
  g_variant_lookup (status, "watched", "b", &watched);
  g_assert_true (watched);
  return !indexing && g_strcmp0 (state, "ready") == 0;
}

/* Whether an engine of this process is idle for the tree, as daemon_idle(). */
static gboolean
engine_idle (LodeEngine *engine,
             const char *root)
{
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  status = lode_engine_dup_status (engine, root, &error);
  g_assert_no_error (error);
  g_assert_true (status->watched);
  return (status->job == NULL || status->job->state != LODE_JOB_STATE_RUNNING) &&
         status->state == LODE_INDEX_STATE_READY;
}

/* Waits until the index of the tree that @daemon (or else @engine) keeps equals
 * @fresh_dir's; how long that took. */
static double
wait_until_same_in (Daemon     *daemon,
                    LodeEngine *engine,
                    Fixture    *fixture,
                    const char *fresh_dir)
{
  gint64 start = g_get_monotonic_time ();
  gint64 deadline = start + CATCH_UP_SECONDS * G_USEC_PER_SEC;
  g_autofree char *difference = NULL;

  for (;;)
    {
      if (daemon != NULL ? daemon_idle (daemon, fixture->root)
                         : engine_idle (engine, fixture->root))
        {
          g_clear_pointer (&difference, g_free);
          if (same_index (fixture->data_dir, fresh_dir, fixture->root, &difference))
            break;
        }
      if (g_get_monotonic_time () > deadline)
        g_error ("The daemon's index did not catch up in %d s: %s", CATCH_UP_SECONDS,
                 difference != NULL ? difference : "still indexing");
      wait_msec (50);
    }

  return (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
}

static double
wait_until_same (Daemon     *daemon,
                 Fixture    *fixture,
                 const char *fresh_dir)
{
  return wait_until_same_in (daemon, NULL, fixture, fresh_dir);
}

/* loded watches the tree; a branch switch (git checkout) rewrites a few hundred files; loded
 * is killed at a random moment of the update that follows and activated again: its catch-up
 * must leave the index equal to one built from scratch. Branches alternate, round by round. */
static void
test_kill_daemon_during_update (Fixture       *fixture,
                                gconstpointer  data)
{
  Daemon daemon = { 0 };
  g_autoptr(GVariant) watch = NULL;
  g_autoptr(GError) error = NULL;
  const char *branches[] = { "feature", "main" };
  double update_seconds;

  if (g_getenv ("LODE_FAULTS_TREE") != NULL)
    {
      g_test_skip ("needs the generated repository");
      return;
    }

  daemon_up (&daemon, fixture);
  lode_dbus_daemon1_call_watch_sync (daemon.proxy, fixture->root, TRUE, &watch, NULL, &error);
  g_assert_no_error (error);
  index_fully (fixture, fixture->fresh_dir, NULL);
  wait_until_same (&daemon, fixture, fixture->fresh_dir);

  /* One switch without a kill: how long the watcher's update takes. */
  test_git (fixture->root, "checkout", "-q", "feature", NULL);
  test_remove_tree (fixture->fresh_dir);
  index_fully (fixture, fixture->fresh_dir, NULL);
  update_seconds = wait_until_same (&daemon, fixture, fixture->fresh_dir);
  g_test_message ("the update after a branch switch took %.2f s", update_seconds);

  for (guint round = 0; round < DAEMON_KILL_ROUNDS; round++)
    {
      guint msec = (guint) g_test_rand_double_range (0, update_seconds * 1000);
      guint pid = daemon_pid (daemon.proxy);

      test_git (fixture->root, "checkout", "-q", branches[(round + 1) % 2], NULL);
      wait_msec (msec);
      g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
      while (kill (pid, 0) == 0)
        wait_msec (10);

      test_remove_tree (fixture->fresh_dir);
      index_fully (fixture, fixture->fresh_dir, NULL);
      /* The next call activates loded again, which watches the tree and catches up. */
      g_test_message ("round %u: killed %u ms after the switch; caught up in %.2f s", round + 1,
                      msec, wait_until_same (&daemon, fixture, fixture->fresh_dir));
      g_assert_cmpuint (daemon_pid (daemon.proxy), !=, pid);
    }

  daemon_down (&daemon);
}

/* Moving, replacing and deleting a watched root --------------------------------------------- */

static void
rename_or_fail (const char *from,
                const char *to)
{
  if (g_rename (from, to) != 0)
    g_error ("Cannot rename %s to %s: %s", from, to, g_strerror (errno));
}

/* Copies @from to @to (into it, when @from ends with `/.`) with the files' times: an index keeps the time of a file whose
 * content it has already (a file copied unchanged is not read again). */
static void
copy_tree (const char *from,
           const char *to)
{
  const char *argv[] = { "cp", "-a", from, to, NULL };
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL, NULL,
                &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

/* The index the watcher keeps equals one built from scratch of what is now at the root. */
static void
assert_caught_up (Daemon     *daemon,
                  LodeEngine *engine,
                  Fixture    *fixture,
                  const char *step)
{
  test_remove_tree (fixture->fresh_dir);
  index_fully (fixture, fixture->fresh_dir, NULL);
  g_test_message ("%s: caught up in %.2f s", step,
                  wait_until_same_in (daemon, engine, fixture, fixture->fresh_dir));
}

/* The watched folder moved away and another put in its place (an editor's or a script's
 * `mv P P.old; mv P.new P`), then deleted and made again (`rm -rf P; mkdir P`), then moved
 * away and back: the monitors follow the old folder's inode, so the watcher must notice
 * that the root is another folder, or none, and read it again. After each step the index
 * equals one built from scratch, whether loded or this process watches. */
static void
watched_root (Fixture  *fixture,
              gboolean  in_process)
{
  Daemon daemon = { 0 };
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) watch = NULL;
  g_autofree char *old = g_strconcat (fixture->root, ".old", NULL);
  g_autofree char *new = g_strconcat (fixture->root, ".new", NULL);
  g_autofree char *away = g_strconcat (fixture->root, ".away", NULL);
  g_autofree char *old_file = g_build_filename (old, "py", "pkg00", "module_1.py", NULL);
  g_autofree char *new_file = g_build_filename (new, "go", "pkg00", "file3.go", NULL);
  g_autofree char *contents = NULL;

  if (g_getenv ("LODE_FAULTS_TREE") != NULL)
    {
      g_test_skip ("needs the generated repository");
      return;
    }
  g_setenv ("LODE_WATCH_DEBOUNCE_MSEC", "200", TRUE);
  if (in_process)
    {
      config = lode_config_new_default ();
      g_free (config->data_dir);
      config->data_dir = g_strdup (fixture->data_dir);
      g_free (config->embedding_provider);
      config->embedding_provider = g_strdup ("none");
      engine = lode_engine_new (config);
      g_assert_true (lode_engine_set_watching (engine, fixture->root, TRUE, FALSE, &error));
      g_assert_no_error (error);
    }
  else
    {
      daemon_up (&daemon, fixture);
      lode_dbus_daemon1_call_watch_sync (daemon.proxy, fixture->root, TRUE, &watch, NULL,
                                         &error);
      g_assert_no_error (error);
    }
  assert_caught_up (in_process ? NULL : &daemon, engine, fixture, "watching");

  /* Replaced: a copy with a file changed, one added, one removed. */
  copy_tree (fixture->root, new);
  test_write_file (new, "ts/feature00/service2.ts", "export const replaced = 2;\n");
  test_write_file (new, "py/pkg00/added_after_replace.py", "def added_after_replace():\n"
                   "    pass\n");
  g_assert_cmpint (g_unlink (new_file), ==, 0);
  rename_or_fail (fixture->root, old);
  rename_or_fail (new, fixture->root);
  /* A file deleted in the old folder still exists in the new one. */
  g_assert_cmpint (g_unlink (old_file), ==, 0);
  assert_caught_up (in_process ? NULL : &daemon, engine, fixture, "replaced");

  /* Deleted and made again, empty, then filled. */
  test_remove_tree (fixture->root);
  g_assert_cmpint (g_mkdir (fixture->root, 0755), ==, 0);
  assert_caught_up (in_process ? NULL : &daemon, engine, fixture, "deleted, made again");
  contents = g_build_filename (old, ".", NULL);
  copy_tree (contents, fixture->root);
  assert_caught_up (in_process ? NULL : &daemon, engine, fixture, "filled again");

  /* Moved away, changed there, moved back. */
  rename_or_fail (fixture->root, away);
  test_write_file (away, "rs/src/m4.rs", "pub fn changed_while_away() -> u32 {\n    4\n}\n");
  wait_msec (500);
  rename_or_fail (away, fixture->root);
  assert_caught_up (in_process ? NULL : &daemon, engine, fixture, "moved away and back");

  if (!in_process)
    daemon_down (&daemon);
}

static void
test_watched_root_in_process (Fixture       *fixture,
                              gconstpointer  data)
{
  watched_root (fixture, TRUE);
}

static void
test_watched_root_daemon (Fixture       *fixture,
                          gconstpointer  data)
{
  watched_root (fixture, FALSE);
}

/* A full disk under a watched tree's index ------------------------------------------------ */

/* What the watcher sees written while the disk is full: a few MB of index. */
#define FULL_DISK_FILES     40
#define FULL_DISK_FUNCTIONS 300

/* The job of the engine's watcher that ended last, once it failed; NULL while none did. */
static LodeJobInfo *
failed_watch_job (LodeEngine *engine,
                  const char *root)
{
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  status = lode_engine_dup_status (engine, root, &error);
  g_assert_no_error (error);
  if (status->job == NULL || status->job->state != LODE_JOB_STATE_FAILED)
    return NULL;
  return lode_job_info_copy (status->job);
}

/* Makes the tmpfs at @dir as large as what it holds: the next block written fails. */
static void
fill_disk (const char *dir)
{
  g_autofree char *options = NULL;
  struct statvfs disk;

  g_assert_cmpint (statvfs (dir, &disk), ==, 0);
  options = g_strdup_printf ("size=%" G_GUINT64_FORMAT,
                             (guint64) (disk.f_blocks - disk.f_bfree) * disk.f_frsize);
  g_assert_cmpint (mount ("tmpfs", dir, "tmpfs", MS_REMOUNT, options), ==, 0);
}

/* The engine warns of each job that failed: expected here, where the disk is full. */
static gboolean
failed_job_not_fatal (const char     *log_domain,
                      GLogLevelFlags  log_level,
                      const char     *message,
                      gpointer        user_data)
{
  return !(g_str_equal (log_domain, "lode-engine") && g_str_has_prefix (message, "Indexing ") &&
           strstr (message, "the disk is full where the index is kept") != NULL);
}

static void
test_full_disk_watch_in_subprocess (Fixture *fixture)
{
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeJobInfo) failed = NULL;
  g_autoptr(GError) error = NULL;
  gint64 deadline;

  g_test_log_set_fatal_handler (failed_job_not_fatal, NULL);
  if (!mount_small_disk (fixture->data_dir))
    g_error ("No mount namespace after all: %s", g_strerror (errno));
  g_assert_cmpint (mount ("tmpfs", fixture->data_dir, "tmpfs", MS_REMOUNT, "size=512m"), ==, 0);

  g_setenv ("LODE_WATCH_DEBOUNCE_MSEC", "200", TRUE);
  config = lode_config_new_default ();
  g_free (config->data_dir);
  config->data_dir = g_strdup (fixture->data_dir);
  g_free (config->embedding_provider);
  config->embedding_provider = g_strdup ("none");
  engine = lode_engine_new (config);
  g_assert_true (lode_engine_set_watching (engine, fixture->root, TRUE, FALSE, &error));
  g_assert_no_error (error);
  assert_caught_up (NULL, engine, fixture, "watching");

  /* The disk fills up; the watcher's batch of new files, more than SQLite's journal holds
   * already, fails and says why. */
  fill_disk (fixture->data_dir);
  for (guint i = 0; i < FULL_DISK_FILES; i++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *name = g_strdup_printf ("py/pkg00/written_on_a_full_disk_%u.py", i);

      for (guint f = 0; f < FULL_DISK_FUNCTIONS; f++)
        g_string_append_printf (text, "def full_disk_%u_%u(unit, part_%u):\n"
                                "    return unit.measure_%u(part_%u) + %u\n\n",
                                i, f, f, f, f, i * f);
      test_write_file (fixture->root, name, text->str);
    }
  deadline = g_get_monotonic_time () + CATCH_UP_SECONDS * G_USEC_PER_SEC;
  while ((failed = failed_watch_job (engine, fixture->root)) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("The watcher's batch did not fail on a full disk in %d s", CATCH_UP_SECONDS);
      wait_msec (50);
    }
  g_test_message ("the batch failed: %s", failed->error);
  g_assert_nonnull (strstr (failed->error, "the disk is full where the index is kept"));

  /* Still full a while later: the tries fail, and between them (a try may be running when
   * the status is read) the error is in the status. */
  wait_msec (3000);
  g_clear_pointer (&failed, lode_job_info_free);
  deadline = g_get_monotonic_time () + CATCH_UP_SECONDS * G_USEC_PER_SEC;
  while ((failed = failed_watch_job (engine, fixture->root)) == NULL)
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("No failed try on a full disk in %d s", CATCH_UP_SECONDS);
      wait_msec (50);
    }
  g_assert_nonnull (strstr (failed->error, "the disk is full where the index is kept"));

  /* Room again, and nothing else changes in the tree: the next try indexes the file. */
  g_assert_cmpint (mount ("tmpfs", fixture->data_dir, "tmpfs", MS_REMOUNT, "size=512m"), ==, 0);
  assert_caught_up (NULL, engine, fixture, "room again");

  /* So that the teardown can remove the folder it was mounted on. */
  g_clear_object (&engine);
  g_assert_cmpint (umount (fixture->data_dir), ==, 0);
}

/* A watched tree whose index's disk is full: the watcher's batch fails with a clear error
 * that the status shows, and is tried again, with a growing delay, until there is room. */
static void
test_full_disk_watch (Fixture       *fixture,
                      gconstpointer  data)
{
  if (g_test_subprocess ())
    {
      test_full_disk_watch_in_subprocess (fixture);
      return;
    }
  if (!can_mount_small_disk ())
    {
      g_test_skip ("no mount namespace for a small tmpfs");
      return;
    }

  g_test_trap_subprocess (NULL, 600 * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_INHERIT_STDOUT | G_TEST_SUBPROCESS_INHERIT_STDERR);
  g_test_trap_assert_passed ();
}

int
main (int   argc,
      char *argv[])
{
  test_kill_descendants_at_exit ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  if (g_getenv ("LODE_CLI") == NULL)
    {
      g_printerr ("LODE_CLI must name the lode binary\n");
      return 1;
    }

#define ADD(name, data, func) \
  g_test_add ("/lode/faults/" name, Fixture, data, fixture_setup, func, fixture_teardown)
  ADD ("kill-index", NULL, test_kill_index);
  ADD ("kill-embedding", NULL, test_kill_embedding);
  ADD ("kill-daemon-during-update", NULL, test_kill_daemon_during_update);
  ADD ("full-disk", NULL, test_full_disk);
  ADD ("file-size-limit", NULL, test_file_size_limit);
  ADD ("watched-root-in-process", NULL, test_watched_root_in_process);
  ADD ("watched-root-daemon", NULL, test_watched_root_daemon);
  ADD ("full-disk-watch", NULL, test_full_disk_watch);
#undef ADD

  return g_test_run ();
}
