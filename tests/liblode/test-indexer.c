/* test-indexer.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <sqlite3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lode.h"
#include "test-helpers.h"
#include "lode-scanner.h"
#include "lode-store.h"

/* This very program, re-executed as the child of the kill test. */
static const char *self_path;

typedef struct
{
  char        *tmp;
  char        *root;
  char        *data_dir;
  LodeConfig  *config;
  LodeEngine  *engine;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-indexer-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->tmp, "tree", NULL);
  fixture->data_dir = g_build_filename (fixture->tmp, "data", NULL);
  g_assert_cmpint (g_mkdir (fixture->root, 0755), ==, 0);
  fixture->config = lode_config_new_default ();
  g_free (fixture->config->data_dir);
  fixture->config->data_dir = g_strdup (fixture->data_dir);
  fixture->engine = lode_engine_new (fixture->config);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->config, lode_config_free);
  g_free (fixture->root);
  g_free (fixture->data_dir);
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
}

static LodeIndexReport *
index_tree (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  LodeIndexReport *report;

  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);

  return report;
}

static GPtrArray *
search (Fixture    *fixture,
        const char *query)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  GPtrArray *results;

  project = lode_engine_open_project (fixture->engine, fixture->root, TRUE, &error);
  g_assert_no_error (error);
  options.query = query;
  options.limit = 50;
  results = lode_project_search (project, &options, NULL, &error);
  g_assert_no_error (error);

  return results;
}

static gboolean
results_have_path (GPtrArray  *results,
                   const char *path)
{
  for (guint i = 0; i < results->len; i++)
    if (g_strcmp0 (((LodeSearchResult *) g_ptr_array_index (results, i))->path, path) == 0)
      return TRUE;

  return FALSE;
}

static LodeIndexStore *
open_store (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  LodeIndexStore *store;

  project = lode_engine_open_project (fixture->engine, fixture->root, TRUE, &error);
  g_assert_no_error (error);
  store = LODE_INDEX_STORE (lode_store_open (lode_project_get_db_path (project), &error));
  g_assert_no_error (error);

  return store;
}

static void
test_incremental (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *old_path = NULL;
  g_autofree char *new_path = NULL;
  g_autofree char *new_dir = NULL;

  test_write_bytes (fixture->root, "src/alpha.c",
                    "int\nalpha_compute (int x)\n{\n  return x * 2; /* zebracorn */\n}\n", -1);
  test_write_bytes (fixture->root, "src/beta.py",
                    "def beta_helper(value):\n    return value + 1  # quokkafish\n", -1);
  test_write_bytes (fixture->root, "README.md", "# Notes\n\nSome narwhalberry notes.\n", -1);

  report = index_tree (fixture);
  g_assert_cmpuint (report->n_files, ==, 3);
  g_assert_cmpuint (report->n_added, ==, 3);
  g_assert_cmpuint (report->n_updated, ==, 0);
  g_assert_cmpuint (report->n_removed, ==, 0);
  g_assert_cmpuint (report->n_chunks, >=, 3);
  g_clear_pointer (&report, lode_index_report_free);

  /* Nothing changed: nothing is re-chunked. */
  report = index_tree (fixture);
  g_assert_cmpuint (report->n_unchanged, ==, 3);
  g_assert_cmpuint (report->n_added + report->n_updated + report->n_removed, ==, 0);
  g_assert_cmpuint (report->n_chunks, ==, 0);
  g_clear_pointer (&report, lode_index_report_free);

  /* Modify: the new text is found, the old one is gone. */
  test_write_bytes (fixture->root, "src/alpha.c",
                    "int\nalpha_compute (int x)\n{\n  return x * 3; /* lemurtide */\n}\n", -1);
  report = index_tree (fixture);
  g_assert_cmpuint (report->n_updated, ==, 1);
  g_assert_cmpuint (report->n_unchanged, ==, 2);
  g_clear_pointer (&report, lode_index_report_free);
  results = search (fixture, "lemurtide");
  g_assert_true (results_have_path (results, "src/alpha.c"));
  g_clear_pointer (&results, g_ptr_array_unref);
  results = search (fixture, "zebracorn");
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);

  /* Delete. */
  new_path = g_build_filename (fixture->root, "README.md", NULL);
  g_assert_cmpint (g_unlink (new_path), ==, 0);
  report = index_tree (fixture);
  g_assert_cmpuint (report->n_removed, ==, 1);
  g_assert_cmpuint (report->n_files, ==, 2);
  g_clear_pointer (&report, lode_index_report_free);
  results = search (fixture, "narwhalberry");
  g_assert_cmpuint (results->len, ==, 0);
  g_clear_pointer (&results, g_ptr_array_unref);
  g_clear_pointer (&new_path, g_free);

  /* Rename: found under the new path only. */
  old_path = g_build_filename (fixture->root, "src", "beta.py", NULL);
  new_path = g_build_filename (fixture->root, "lib", "gamma.py", NULL);
  new_dir = g_path_get_dirname (new_path);
  g_assert_cmpint (g_mkdir_with_parents (new_dir, 0755), ==, 0);
  g_assert_cmpint (g_rename (old_path, new_path), ==, 0);
  report = index_tree (fixture);
  g_assert_cmpuint (report->n_removed, ==, 1);
  g_assert_cmpuint (report->n_added, ==, 1);
  g_assert_cmpuint (report->n_files, ==, 2);
  g_clear_pointer (&report, lode_index_report_free);
  results = search (fixture, "quokkafish");
  g_assert_true (results_have_path (results, "lib/gamma.py"));
  g_assert_false (results_have_path (results, "src/beta.py"));
}

/* Every line of every indexed file is inside a chunk, and chunks hold the file's exact text. */
static void
assert_full_coverage (Fixture *fixture)
{
  g_autoptr(LodeIndexStore) store = open_store (fixture);
  g_autoptr(GHashTable) hashes = NULL;
  g_autoptr(GError) error = NULL;
  GHashTableIter iter;
  const char *path;
  guint n_checked = 0;

  hashes = lode_index_store_dup_file_hashes (store, &error);
  g_assert_no_error (error);

  g_hash_table_iter_init (&iter, hashes);
  while (g_hash_table_iter_next (&iter, (gpointer *) &path, NULL))
    {
      g_autofree char *filename = g_build_filename (fixture->root, path, NULL);
      g_autofree char *contents = NULL;
      g_autofree char *repaired = NULL;
      g_autoptr(GPtrArray) chunks = NULL;
      g_auto(GStrv) lines = NULL;
      g_autofree gboolean *covered = NULL;
      guint n_lines;

      g_file_get_contents (filename, &contents, NULL, &error);
      g_assert_no_error (error);
      if (lode_content_check (contents, strlen (contents), &repaired) == LODE_CONTENT_REPAIRED)
        {
          g_free (contents);
          contents = g_steal_pointer (&repaired);
        }
      lines = g_strsplit (contents, "\n", -1);
      n_lines = g_strv_length (lines);
      if (n_lines > 0 && *lines[n_lines - 1] == '\0')
        n_lines--;
      covered = g_new0 (gboolean, n_lines + 1);

      chunks = lode_index_store_dup_chunks_for_file (store, path, &error);
      g_assert_no_error (error);
      if (n_lines > 0)
        g_assert_cmpuint (chunks->len, >, 0);

      for (guint i = 0; i < chunks->len; i++)
        {
          const LodeChunk *chunk = g_ptr_array_index (chunks, i);

          g_assert_cmpuint (chunk->start_line, >=, 1);
          g_assert_cmpuint (chunk->start_line, <=, chunk->end_line);
          g_assert_cmpuint (chunk->end_line, <=, n_lines);
          for (guint l = chunk->start_line; l <= chunk->end_line; l++)
            {
              covered[l] = TRUE;
              /* A chunk of a minified line holds a piece of it; otherwise whole lines. */
              if (chunk->start_line != chunk->end_line)
                g_assert_nonnull (strstr (chunk->content, lines[l - 1]));
            }
        }

      for (guint l = 1; l <= n_lines; l++)
        if (!covered[l])
          g_error ("%s: line %u is in no chunk", path, l);
      n_checked++;
    }

  g_assert_cmpuint (n_checked, >, 0);
}

static void
copy_tree (const char *from,
           const char *to,
           const char *subdir)
{
  g_autofree char *src = g_build_filename (from, subdir, NULL);
  g_autoptr(GDir) dir = g_dir_open (src, 0, NULL);
  const char *name;

  if (dir == NULL)
    return;

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *rel = g_build_filename (subdir, name, NULL);
      g_autofree char *path = g_build_filename (from, rel, NULL);
      g_autofree char *contents = NULL;
      gsize len;

      if (g_file_test (path, G_FILE_TEST_IS_DIR))
        copy_tree (from, to, rel);
      else if (g_file_get_contents (path, &contents, &len, NULL))
        test_write_bytes (to, rel, contents, len);
    }
}

static void
test_coverage (Fixture       *fixture,
               gconstpointer  data)
{
  const char *source_root = g_getenv ("LODE_SOURCE_ROOT");
  g_autoptr(LodeIndexReport) report = NULL;
  GString *minified = g_string_new (NULL);

  /* Our own sources and test fixtures: many languages, real code. */
  g_assert_nonnull (source_root);
  copy_tree (source_root, fixture->root, "src");
  copy_tree (source_root, fixture->root, "tests");
  copy_tree (source_root, fixture->root, "data");

  for (guint i = 0; i < 20000; i++)
    g_string_append_printf (minified, "function f%u(a){return a+%u};", i, i);
  test_write_bytes (fixture->root, "dist-like/app.js", minified->str, minified->len);
  g_string_free (minified, TRUE);

  report = index_tree (fixture);
  g_assert_cmpuint (report->n_files, >, 20);
  assert_full_coverage (fixture);
}

/* Files and their chunks get their ids in the order the run deals the files out (each
 * language's files in path order, the languages spread by bytes), whichever chunking thread
 * finishes first: two indexes of one tree are the same, and so is the order of search
 * results that tie. Here the one C file comes first, then the Python files by path, and the
 * first file takes the longest to chunk. */
static void
test_same_ids (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *previous = NULL;
  GString *large = g_string_new (NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;
  guint n = 0;

  for (guint i = 0; i < 4000; i++)
    g_string_append_printf (large, "static int\nstep_%u (int x)\n{\n  return x + %u;\n}\n\n", i, i);
  test_write_bytes (fixture->root, "a-large.c", large->str, large->len);
  g_string_free (large, TRUE);
  for (guint i = 0; i < 150; i++)
    {
      g_autofree char *name = g_strdup_printf ("m%03u.py", i);
      g_autofree char *text = g_strdup_printf ("def handler_%u(event):\n    return %u\n", i, i);

      test_write_file (fixture->root, name, text);
    }
  fixture->config->index_threads = 2;
  g_clear_object (&fixture->engine);
  fixture->engine = lode_engine_new (fixture->config);

  report = index_tree (fixture);
  g_assert_cmpuint (report->n_files, ==, 151);

  project = lode_engine_open_project (fixture->engine, fixture->root, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open (lode_project_get_db_path (project), &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT f.path FROM files f "
                                           "WHERE EXISTS (SELECT 1 FROM chunks c "
                                           "              WHERE c.file_id = f.id) "
                                           "ORDER BY (SELECT min (c.id) FROM chunks c "
                                           "          WHERE c.file_id = f.id)",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      const char *path = (const char *) sqlite3_column_text (stmt, 0);

      if (previous != NULL)
        g_assert_cmpstr (previous, <, path);
      g_free (previous);
      previous = g_strdup (path);
      n++;
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  g_assert_cmpuint (n, ==, 151);
}

static void
test_bad_input (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) missing = NULL;
  g_autofree char *huge = g_malloc (10 * 1024 * 1024);
  g_autofree char *fifo = g_build_filename (fixture->root, "pipe", NULL);
  g_autofree char *loop = g_build_filename (fixture->root, "sub", "loop", NULL);
  g_autofree char *secret = g_build_filename (fixture->root, "secret.txt", NULL);
  g_autofree char *nowhere = g_build_filename (fixture->root, "no", "such", "dir", NULL);
  static const char png[] = "\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10";
  static const char latin1[] = "caf\xe9 ocelotmint\nna\xefve\n";
  gboolean saw_binary = FALSE, saw_large = FALSE, saw_fifo = FALSE;

  test_write_bytes (fixture->root, "ok.c", "int\nmain (void)\n{\n  return 0;\n}\n", -1);
  test_write_bytes (fixture->root, "image.png", png, sizeof png);
  test_write_bytes (fixture->root, "latin1.txt", latin1, sizeof latin1 - 1);
  memset (huge, 'x', 10 * 1024 * 1024);
  test_write_bytes (fixture->root, "huge.min.txt", huge, 10 * 1024 * 1024);
  test_write_bytes (fixture->root, "sub/file.py", "print('hi')\n", -1);
  test_write_bytes (fixture->root, "secret.txt", "hidden\n", -1);
  g_assert_cmpint (symlink ("..", loop), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpint (g_chmod (secret, 0), ==, 0);

  report = index_tree (fixture);

  for (guint i = 0; i < report->skipped->len; i++)
    {
      const LodeSkippedFile *skipped = g_ptr_array_index (report->skipped, i);

      g_assert_nonnull (lode_skip_reason_to_string (skipped->reason));
      if (g_str_equal (skipped->path, "image.png"))
        saw_binary = skipped->reason == LODE_SKIP_BINARY;
      else if (g_str_equal (skipped->path, "huge.min.txt"))
        saw_large = skipped->reason == LODE_SKIP_TOO_LARGE;
      else if (g_str_equal (skipped->path, "pipe"))
        saw_fifo = skipped->reason == LODE_SKIP_NOT_REGULAR;
      else if (g_str_equal (skipped->path, "secret.txt"))
        g_assert_cmpint (skipped->reason, ==, LODE_SKIP_UNREADABLE);
    }
  g_assert_true (saw_binary);
  g_assert_true (saw_large);
  g_assert_true (saw_fifo);

  /* ok.c, latin1.txt, sub/file.py — and secret.txt when running as root, which reads it.
   * The symlink loop is walked once. */
  g_assert_cmpuint (report->n_files, ==, geteuid () == 0 ? 4 : 3);

  /* Invalid UTF-8 is repaired, not dropped. */
  results = search (fixture, "ocelotmint");
  g_assert_true (results_have_path (results, "latin1.txt"));

  /* A path that does not exist, or is a file, is a clear error. */
  missing = lode_engine_open_project (fixture->engine, nowhere, FALSE, &error);
  g_assert_null (missing);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);
  missing = lode_engine_open_project (fixture->engine, secret, FALSE, &error);
  g_assert_null (missing);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_chmod (secret, 0644);
}

static void
test_empty (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *git_dir = g_build_filename (fixture->root, ".git", "objects", NULL);

  /* An empty repository: only VCS internals, which are ignored. */
  g_assert_cmpint (g_mkdir_with_parents (git_dir, 0755), ==, 0);
  test_write_bytes (fixture->root, ".git/HEAD", "ref: refs/heads/main\n", -1);

  report = index_tree (fixture);
  g_assert_cmpuint (report->n_files, ==, 0);
  g_assert_cmpuint (report->n_chunks, ==, 0);
  results = search (fixture, "main");
  g_assert_cmpuint (results->len, ==, 0);
}

static void
test_schema_reset (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) results = NULL;
  sqlite3 *db = NULL;

  test_write_bytes (fixture->root, "a.py", "def wombat_total():\n    return 1\n", -1);
  report = index_tree (fixture);
  g_clear_pointer (&report, lode_index_report_free);

  /* An index written by another version of Lode. */
  project = lode_engine_open_project (fixture->engine, fixture->root, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open (lode_project_get_db_path (project), &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "PRAGMA user_version = 9999", NULL, NULL, NULL), ==,
                   SQLITE_OK);
  sqlite3_close (db);

  /* Searching it says what to do; indexing rebuilds it. */
  {
    LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
    g_autoptr(GPtrArray) stale = NULL;

    options.query = "wombat_total";
    stale = lode_project_search (project, &options, NULL, &error);
    g_assert_null (stale);
    g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
    g_assert_nonnull (strstr (error->message, "index the project again"));
    g_clear_error (&error);
  }

  report = index_tree (fixture);
  g_assert_true (report->reset);
  g_assert_cmpuint (report->n_added, ==, 1);
  results = search (fixture, "wombat_total");
  g_assert_true (results_have_path (results, "a.py"));
}

#define KILL_TREE_FILES 3000

static void
make_files (const char *root,
            guint       n_files)
{
  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *rel = g_strdup_printf ("pkg%02u/module_%04u.py", i % 40, i);
      GString *text = g_string_new (NULL);

      for (guint f = 0; f < 6; f++)
        g_string_append_printf (text,
                                "def handler_%u_%u(request, retries=3):\n"
                                "    \"\"\"Handle request %u of module %u.\"\"\"\n"
                                "    total = 0\n"
                                "    for attempt in range(retries):\n"
                                "        total += attempt * %u\n"
                                "    return total\n\n", i, f, f, i, f);
      test_write_bytes (root, rel, text->str, text->len);
      g_string_free (text, TRUE);
    }
}

#define KILL_AT 1200

static void
child_progress_cb (const LodeIndexProgress *progress,
                   gpointer                 user_data)
{
  /* A real SIGKILL in the middle of a batch (batches are 512 files): no handler runs, no
   * transaction is closed. Killing from inside makes the moment deterministic. */
  guint kill_at = GPOINTER_TO_UINT (user_data);

  if (progress->phase == LODE_INDEX_PHASE_INDEXING && progress->done == kill_at)
    kill (getpid (), SIGKILL);
}

/* The child of the kill tests: index the tree named by the environment (forced when
 * LODE_TEST_CHILD_FORCE is set) until it kills itself after LODE_TEST_CHILD_KILL_AT files. */
static int
run_child (const char *root,
           const char *data_dir)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;
  const char *kill_at_text = g_getenv ("LODE_TEST_CHILD_KILL_AT");
  guint kill_at = kill_at_text != NULL ? (guint) atoi (kill_at_text) : KILL_AT;

  g_free (config->data_dir);
  config->data_dir = g_strdup (data_dir);
  config->index_threads = 1;
  engine = lode_engine_new (config);
  project = lode_engine_open_project (engine, root, FALSE, &error);
  if (project != NULL)
    report = lode_project_index_with (project,
                                      g_getenv ("LODE_TEST_CHILD_FORCE") != NULL
                                        ? LODE_INDEX_FORCE : LODE_INDEX_FLAGS_NONE,
                                      NULL, NULL, child_progress_cb,
                                      GUINT_TO_POINTER (kill_at), &error);
  if (report == NULL)
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }

  return 0;
}

static guint
count_chunks (LodeIndexStore *store)
{
  LodeStoreStats stats;
  g_autoptr(GError) error = NULL;

  lode_index_store_get_stats (store, &stats, &error);
  g_assert_no_error (error);
  return stats.n_chunks;
}

static void
test_kill_resume (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(LodeConfig) fresh_config = NULL;
  g_autoptr(LodeEngine) fresh_engine = NULL;
  g_autoptr(LodeProject) fresh_project = NULL;
  g_autoptr(LodeIndexReport) fresh_report = NULL;
  g_autoptr(LodeIndexStore) fresh_store = NULL;
  g_autofree char *fresh_dir = g_build_filename (fixture->data_dir, "..", "fresh", NULL);

  make_files (fixture->root, KILL_TREE_FILES);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_ROOT", fixture->root, TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_DATA", fixture->data_dir, TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, self_path, NULL);
  g_assert_no_error (error);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));
  g_assert_cmpint (g_subprocess_get_term_sig (child), ==, SIGKILL);

  project = lode_engine_open_project (fixture->engine, fixture->root, TRUE, &error);
  g_assert_no_error (error);
  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->state, ==, LODE_INDEX_STATE_INCOMPLETE);
  g_assert_cmpuint (status->stats.n_files, >, 0);
  g_assert_cmpuint (status->stats.n_files, <, KILL_TREE_FILES);

  /* The next run resumes: committed files are not redone, the rest is added. */
  report = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (report->resumed);
  g_assert_cmpuint (report->n_unchanged, ==, status->stats.n_files);
  g_assert_cmpuint (report->n_added, ==, KILL_TREE_FILES - status->stats.n_files);
  g_assert_cmpuint (report->n_files, ==, KILL_TREE_FILES);

  /* Same chunks as an index built in one go: nothing duplicated, nothing missing. */
  fresh_config = lode_config_copy (fixture->config);
  g_free (fresh_config->data_dir);
  fresh_config->data_dir = g_steal_pointer (&fresh_dir);
  fresh_engine = lode_engine_new (fresh_config);
  fresh_project = lode_engine_open_project (fresh_engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  fresh_report = lode_project_index (fresh_project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);

  store = open_store (fixture);
  fresh_store = LODE_INDEX_STORE (lode_store_open (lode_project_get_db_path (fresh_project),
                                                   &error));
  g_assert_no_error (error);
  g_assert_cmpuint (count_chunks (store), ==, count_chunks (fresh_store));
  g_assert_cmpuint (count_chunks (store), ==, fresh_report->n_chunks);
  assert_full_coverage (fixture);
}

typedef struct
{
  GCancellable *cancellable;
  guint         cancel_at;
} CancelData;

static void
cancel_progress_cb (const LodeIndexProgress *progress,
                    gpointer                 user_data)
{
  CancelData *data = user_data;

  if (progress->phase == LODE_INDEX_PHASE_INDEXING && progress->done >= data->cancel_at)
    g_cancellable_cancel (data->cancellable);
}

static void
test_cancel (Fixture       *fixture,
             gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  CancelData cancel = { cancellable, 700 };

  make_files (fixture->root, KILL_TREE_FILES);
  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index (project, cancellable, cancel_progress_cb, &cancel, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  report = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (report->resumed);
  g_assert_cmpuint (report->n_files, ==, KILL_TREE_FILES);
  g_assert_cmpuint (report->n_unchanged, >=, 700);
}

/* A smaller tree than the kill test's: each forced-run test indexes it twice. */
#define FORCE_TREE_FILES 600

typedef struct
{
  LodeProject *project;
  guint        search_at;
  guint        n_searches;
  gboolean     found;
  GError      *error;
} SearchDuring;

/* Searches for the last file's handler while the run has done @search_at files. */
static void
search_progress_cb (const LodeIndexProgress *progress,
                    gpointer                 user_data)
{
  SearchDuring *during = user_data;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  g_autoptr(GPtrArray) results = NULL;

  if (progress->phase != LODE_INDEX_PHASE_INDEXING || progress->done < during->search_at ||
      during->n_searches > 0)
    return;

  during->n_searches++;
  options.query = "handler_599_5";
  options.limit = 50;
  results = lode_project_search (during->project, &options, NULL, &during->error);
  during->found = results != NULL && results_have_path (results, "pkg39/module_0599.py");
}

static gboolean
aside_exists (LodeProject *project)
{
  g_autofree char *aside = g_strconcat (lode_project_get_db_path (project), ".new", NULL);

  return g_file_test (aside, G_FILE_TEST_EXISTS);
}

/* A forced re-index builds the new index aside: searches meanwhile answer from the old one,
 * and the new one takes its place when it is complete. */
static void
test_force_search_meanwhile (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GPtrArray) results = NULL;
  SearchDuring during = { NULL, FORCE_TREE_FILES / 2, 0, FALSE, NULL };

  make_files (fixture->root, FORCE_TREE_FILES);
  first = index_tree (fixture);
  test_write_bytes (fixture->root, "added.py", "def added_after_first_run():\n    return 1\n", -1);

  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  during.project = project;
  report = lode_project_index_with (project, LODE_INDEX_FORCE, NULL, NULL, search_progress_cb,
                                    &during, &error);
  g_assert_no_error (error);
  g_assert_true (report->reset);
  g_assert_cmpuint (report->n_files, ==, FORCE_TREE_FILES + 1);

  g_assert_cmpuint (during.n_searches, ==, 1);
  g_assert_no_error (during.error);
  g_assert_true (during.found);

  /* The new index is in place, with what the old one lacked, and nothing is left aside. */
  results = search (fixture, "added_after_first_run");
  g_assert_true (results_have_path (results, "added.py"));
  g_clear_pointer (&results, g_ptr_array_unref);
  results = search (fixture, "handler_599_5");
  g_assert_true (results_have_path (results, "pkg39/module_0599.py"));
  g_assert_false (aside_exists (project));
  assert_full_coverage (fixture);
}

/* A cancelled forced re-index leaves the old index as it was, searchable. */
static void
test_force_cancelled (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GPtrArray) results = NULL;
  CancelData cancel = { cancellable, FORCE_TREE_FILES / 2 };

  make_files (fixture->root, FORCE_TREE_FILES);
  first = index_tree (fixture);

  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index_with (project, LODE_INDEX_FORCE, NULL, cancellable,
                                    cancel_progress_cb, &cancel, &error);
  g_assert_null (report);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&error);

  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->state, ==, LODE_INDEX_STATE_READY);
  g_assert_cmpuint (status->stats.n_files, ==, FORCE_TREE_FILES);
  results = search (fixture, "handler_599_5");
  g_assert_true (results_have_path (results, "pkg39/module_0599.py"));
  g_assert_false (aside_exists (project));
}

/* C files that call each other through a header's prototypes: every file's calls resolve
 * into other files, so the call pass has work for each. */
static void
make_calling_files (const char *root,
                    guint       n_files)
{
  GString *header = g_string_new ("#pragma once\n");

  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *rel = g_strdup_printf ("lib/unit_%03u.c", i);
      g_autofree char *text = g_strdup_printf (
        "#include \"all.h\"\n\n"
        "int\nunit_%u_step (int x)\n{\n  return unit_%u_step (x - 1) + unit_%u_total (x);\n}\n\n"
        "int\nunit_%u_total (int x)\n{\n  return x > 0 ? unit_%u_step (x / 2) : 0;\n}\n",
        i, (i + 1) % n_files, (i + 7) % n_files, i, (i + 3) % n_files);

      test_write_bytes (root, rel, text, -1);
      g_string_append_printf (header, "int unit_%u_step (int x);\nint unit_%u_total (int x);\n",
                              i, i);
    }
  test_write_bytes (root, "lib/all.h", header->str, header->len);
  g_string_free (header, TRUE);
}

/* Every call the index of @project holds, one line each, in file and line order. */
static char *
describe_calls (LodeProject *project,
                guint       *n_calls)
{
  GString *out = g_string_new (NULL);
  sqlite3 *db = NULL;
  sqlite3_stmt *stmt = NULL;

  *n_calls = 0;
  g_assert_cmpint (sqlite3_open_v2 (lode_project_get_db_path (project), &db,
                                    SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_prepare_v2 (db,
                                       "SELECT f.path, c.caller, c.callee, c.line, c.status, "
                                       "c.target_path, c.target_line FROM calls c "
                                       "JOIN files f ON f.id = c.file_id "
                                       "ORDER BY f.path, c.line, c.callee, c.target_path",
                                       -1, &stmt, NULL), ==, SQLITE_OK);
  while (sqlite3_step (stmt) == SQLITE_ROW)
    {
      g_string_append_printf (out, "%s %s %s:%d %d %s:%d\n", sqlite3_column_text (stmt, 0),
                              sqlite3_column_text (stmt, 1), sqlite3_column_text (stmt, 2),
                              sqlite3_column_int (stmt, 3), sqlite3_column_int (stmt, 4),
                              sqlite3_column_text (stmt, 5), sqlite3_column_int (stmt, 6));
      (*n_calls)++;
    }
  sqlite3_finalize (stmt);
  sqlite3_close (db);
  return g_string_free (out, FALSE);
}

typedef struct
{
  GCancellable *cancellable;
  gulong        delay_usec;
  GThread      *thread;
} CancelLater;

static gpointer
cancel_later_thread (gpointer user_data)
{
  CancelLater *later = user_data;

  g_usleep (later->delay_usec);
  g_cancellable_cancel (later->cancellable);
  return NULL;
}

/* Cancels the run @delay_usec after it starts to finish, while it resolves its calls. */
static void
cancel_later_cb (const LodeIndexProgress *progress,
                 gpointer                 user_data)
{
  CancelLater *later = user_data;

  if (progress->phase == LODE_INDEX_PHASE_FINISHING && later->thread == NULL)
    later->thread = g_thread_new ("cancel-later", cancel_later_thread, later);
}

/* A forced run cancelled at any point of its call pass, whose resolving thread may hold
 * files read ahead, ends cancelled with nothing kept: the index is the one it was to
 * replace, calls and all. */
static void
test_calls_cancelled (Fixture       *fixture,
                      gconstpointer  data)
{
  static const gulong delays_usec[] = {
    0, 1000, 2000, 3000, 4000, 5000, 6000, 7000, 8000, 10000, 12000, 16000, 24000, 32000,
  };
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) first = NULL;
  g_autofree char *want = NULL;
  guint n_calls = 0;
  guint n_cancelled = 0;

  make_calling_files (fixture->root, 240);
  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  first = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  want = describe_calls (project, &n_calls);
  g_assert_cmpuint (n_calls, ==, 240 * 3);
  g_assert_null (strstr (want, "(null):0"));

  for (guint i = 0; i < G_N_ELEMENTS (delays_usec); i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(LodeIndexReport) report = NULL;
      g_autofree char *got = NULL;
      CancelLater later = { cancellable, delays_usec[i], NULL };

      report = lode_project_index_with (project, LODE_INDEX_FORCE, NULL, cancellable,
                                        cancel_later_cb, &later, &error);
      g_assert_nonnull (later.thread);
      g_thread_join (later.thread);
      if (report == NULL)
        {
          g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
          g_clear_error (&error);
          n_cancelled++;
        }
      g_assert_no_error (error);
      g_assert_false (aside_exists (project));
      got = describe_calls (project, &n_calls);
      g_assert_cmpstr (got, ==, want);
    }
  g_assert_cmpuint (n_cancelled, >, 0);
}

/* A forced re-index killed mid-way leaves the old index whole; the next run removes what
 * the killed one left aside. */
static void
test_force_killed (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) child = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GPtrArray) results = NULL;

  make_files (fixture->root, FORCE_TREE_FILES);
  first = index_tree (fixture);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_NONE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_ROOT", fixture->root, TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_DATA", fixture->data_dir, TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_FORCE", "1", TRUE);
  g_subprocess_launcher_setenv (launcher, "LODE_TEST_CHILD_KILL_AT", "300", TRUE);
  child = g_subprocess_launcher_spawn (launcher, &error, self_path, NULL);
  g_assert_no_error (error);
  g_subprocess_wait (child, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_signaled (child));

  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  g_assert_true (aside_exists (project));
  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->state, ==, LODE_INDEX_STATE_READY);
  g_assert_cmpuint (status->stats.n_files, ==, FORCE_TREE_FILES);
  results = search (fixture, "handler_599_5");
  g_assert_true (results_have_path (results, "pkg39/module_0599.py"));

  report = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (report->n_unchanged, ==, FORCE_TREE_FILES);
  g_assert_false (aside_exists (project));
}

/* An index run from a change list, as a watcher reports it. */
static LodeIndexReport *
index_changes (Fixture     *fixture,
               const char  *first_kind,
               ...)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_change_free);
  LodeIndexReport *report;
  va_list args;

  va_start (args, first_kind);
  for (const char *kind = first_kind; kind != NULL; kind = va_arg (args, const char *))
    {
      LodeChange *change = g_new0 (LodeChange, 1);

      change->kind = g_str_equal (kind, "created") ? LODE_CHANGE_CREATED
                     : g_str_equal (kind, "changed") ? LODE_CHANGE_CHANGED
                     : g_str_equal (kind, "deleted") ? LODE_CHANGE_DELETED
                     : LODE_CHANGE_RENAMED;
      change->path = g_strdup (va_arg (args, const char *));
      if (change->kind == LODE_CHANGE_RENAMED)
        change->old_path = g_strdup (va_arg (args, const char *));
      g_ptr_array_add (changes, change);
    }
  va_end (args);

  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index_with (project, LODE_INDEX_FLAGS_NONE, changes, NULL, NULL, NULL,
                                    &error);
  g_assert_no_error (error);
  return report;
}

/* The stored file of @path, which must be in the index. */
static LodeStoredFile *
stored_file (Fixture    *fixture,
             const char *path)
{
  g_autoptr(LodeIndexStore) store = open_store (fixture);
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GError) error = NULL;

  files = lode_index_store_dup_files (store, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredFile *file = g_ptr_array_index (files, i);

      if (strcmp (file->path, path) == 0)
        return g_ptr_array_steal_index (files, i);
    }
  g_error ("%s is not in the index", path);
}

/* Sets the modification time of @path (in @fixture's tree) to @seconds, content unchanged. */
static void
set_mtime (Fixture    *fixture,
           const char *path,
           gint64      seconds)
{
  g_autofree char *filename = g_build_filename (fixture->root, path, NULL);
  struct timespec times[2] = { { seconds, 0 }, { seconds, 0 } };

  g_assert_cmpint (utimensat (AT_FDCWD, filename, times, 0), ==, 0);
}

/* A file touched without a change of content (`touch`, `cp -a`, a checkout that wrote the
 * same bytes) is not chunked again, but the index takes its new modification time: the
 * stored stat is always the one of the bytes indexed, as in an index built afresh. Before,
 * only a changed file's stat was stored, so the index kept the time of the first read for
 * good and never equalled a fresh one again. */
static void
test_touched (Fixture       *fixture,
              gconstpointer  data)
{
  const char *text = "int\nalpha_compute (int x)\n{\n  return x * 2;\n}\n";
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) touched = NULL;
  g_autoptr(LodeIndexReport) listed = NULL;
  g_autoptr(LodeIndexReport) again = NULL;
  g_autoptr(LodeStoredFile) file = NULL;
  g_autofree char *hash = NULL;

  test_write_bytes (fixture->root, "src/alpha.c", text, -1);
  test_write_bytes (fixture->root, "src/beta.c", "int beta_value;\n", -1);
  set_mtime (fixture, "src/alpha.c", 1000000000);
  first = index_tree (fixture);
  g_assert_cmpuint (first->n_added, ==, 2);
  file = stored_file (fixture, "src/alpha.c");
  g_assert_cmpint (file->mtime_usec, ==, G_GINT64_CONSTANT (1000000000) * G_USEC_PER_SEC);
  g_assert_cmpuint (file->size, ==, strlen (text));
  hash = g_steal_pointer (&file->hash);
  g_clear_pointer (&file, lode_stored_file_free);

  /* A full run. */
  set_mtime (fixture, "src/alpha.c", 1100000000);
  touched = index_tree (fixture);
  g_assert_cmpuint (touched->n_parsed, ==, 0);
  g_assert_cmpuint (touched->n_updated, ==, 0);
  g_assert_cmpuint (touched->n_unchanged, ==, 2);
  file = stored_file (fixture, "src/alpha.c");
  g_assert_cmpint (file->mtime_usec, ==, G_GINT64_CONSTANT (1100000000) * G_USEC_PER_SEC);
  g_assert_cmpuint (file->size, ==, strlen (text));
  g_assert_cmpstr (file->hash, ==, hash);
  g_clear_pointer (&file, lode_stored_file_free);

  /* A watcher's run, which reads only the path it names. */
  set_mtime (fixture, "src/alpha.c", 1200000000);
  listed = index_changes (fixture, "changed", "src/alpha.c", NULL);
  g_assert_true (listed->incremental);
  g_assert_cmpuint (listed->n_parsed, ==, 0);
  g_assert_cmpuint (listed->n_unchanged, ==, 2);
  file = stored_file (fixture, "src/alpha.c");
  g_assert_cmpint (file->mtime_usec, ==, G_GINT64_CONSTANT (1200000000) * G_USEC_PER_SEC);
  g_clear_pointer (&file, lode_stored_file_free);

  /* Nothing touched: nothing written, the stamp stays. */
  again = index_tree (fixture);
  g_assert_cmpuint (again->n_unchanged, ==, 2);
  file = stored_file (fixture, "src/alpha.c");
  g_assert_cmpint (file->mtime_usec, ==, G_GINT64_CONSTANT (1200000000) * G_USEC_PER_SEC);
}

/* A watcher's change list is all a run reads: the changed files, nothing else of the tree.
 * What it cannot tell on its own (a directory, an ignore file) makes the run scan. */
static void
test_change_list (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) changed = NULL;
  g_autoptr(LodeIndexReport) moved = NULL;
  g_autoptr(LodeIndexReport) deleted = NULL;
  g_autoptr(LodeIndexReport) directory = NULL;
  g_autoptr(LodeIndexReport) ignore = NULL;
  g_autoptr(GPtrArray) results = NULL;
  g_autofree char *from = g_build_filename (fixture->root, "src/b.c", NULL);
  g_autofree char *to = g_build_filename (fixture->root, "src/moved.c", NULL);
  g_autofree char *dir = g_build_filename (fixture->root, "lib", NULL);

  for (guint i = 0; i < 40; i++)
    {
      g_autofree char *rel = g_strdup_printf ("src/f%u.c", i);
      g_autofree char *text = g_strdup_printf ("int function_number_%u (void);\n", i);

      test_write_bytes (fixture->root, rel, text, -1);
    }
  test_write_bytes (fixture->root, "src/a.c", "int alpha_value;\n", -1);
  test_write_bytes (fixture->root, "src/b.c", "int beta_value;\n", -1);
  first = index_tree (fixture);
  g_assert_cmpuint (first->n_files, ==, 42);

  test_write_bytes (fixture->root, "src/a.c", "int alpha_renamed_value;\n", -1);
  test_write_bytes (fixture->root, "src/new.c", "int gamma_value;\n", -1);
  changed = index_changes (fixture, "changed", "src/a.c", "created", "src/new.c", NULL);
  g_assert_true (changed->incremental);
  g_assert_cmpuint (changed->n_parsed, ==, 2);
  g_assert_cmpuint (changed->n_updated, ==, 1);
  g_assert_cmpuint (changed->n_added, ==, 1);
  g_assert_cmpuint (changed->n_unchanged, ==, 41);
  g_assert_cmpuint (changed->n_files, ==, 43);
  results = search (fixture, "alpha_renamed_value");
  g_assert_true (results_have_path (results, "src/a.c"));
  g_clear_pointer (&results, g_ptr_array_unref);

  g_assert_cmpint (g_rename (from, to), ==, 0);
  moved = index_changes (fixture, "renamed", "src/moved.c", "src/b.c", NULL);
  g_assert_true (moved->incremental);
  g_assert_cmpuint (moved->n_removed, ==, 1);
  g_assert_cmpuint (moved->n_added, ==, 1);
  g_assert_cmpuint (moved->n_files, ==, 43);
  results = search (fixture, "beta_value");
  g_assert_true (results_have_path (results, "src/moved.c"));
  g_assert_false (results_have_path (results, "src/b.c"));
  g_clear_pointer (&results, g_ptr_array_unref);

  g_assert_cmpint (g_unlink (to), ==, 0);
  deleted = index_changes (fixture, "deleted", "src/moved.c", NULL);
  g_assert_true (deleted->incremental);
  g_assert_cmpuint (deleted->n_parsed, ==, 0);
  g_assert_cmpuint (deleted->n_files, ==, 42);

  /* A new directory: only a walk finds what is in it. */
  test_write_bytes (fixture->root, "lib/inner.c", "int delta_value;\n", -1);
  directory = index_changes (fixture, "created", "lib", NULL);
  g_assert_false (directory->incremental);
  g_assert_cmpuint (directory->n_added, ==, 1);
  results = search (fixture, "delta_value");
  g_assert_true (results_have_path (results, "lib/inner.c"));
  g_clear_pointer (&results, g_ptr_array_unref);

  /* A new ignore rule changes what belongs to the index. */
  test_write_bytes (fixture->root, ".gitignore", "lib/\n", -1);
  ignore = index_changes (fixture, "created", ".gitignore", NULL);
  g_assert_false (ignore->incremental);
  g_assert_cmpuint (ignore->n_removed, ==, 1);
  g_assert_true (g_file_test (dir, G_FILE_TEST_IS_DIR));
}

typedef struct
{
  GMainLoop   *loop;
  LodeJobInfo *job;
  guint        n_progress;
  gboolean     progress_on_main;
} AsyncData;

static void
async_progress_cb (LodeEngine *engine,
                   const char *project_id,
                   const char *root,
                   guint       phase,
                   guint       done,
                   guint       total,
                   AsyncData  *data)
{
  data->n_progress++;
  data->progress_on_main &= g_main_context_is_owner (g_main_context_default ());
}

static void
async_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  AsyncData *data = user_data;
  g_autoptr(GError) error = NULL;

  data->job = lode_engine_index_finish (LODE_ENGINE (object), result, NULL, &error);
  g_assert_no_error (error);
  g_main_loop_quit (data->loop);
}

static gboolean
watchdog_cb (gpointer user_data)
{
  g_error ("Indexing did not finish in time");
  return G_SOURCE_REMOVE;
}

/* The engine's job runs on its own thread; its progress and its end reach the main context. */
static void
test_async (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GMainLoop) loop = g_main_loop_new (NULL, FALSE);
  AsyncData async = { loop, NULL, 0, TRUE };
  guint watchdog;
  gulong handler;

  make_files (fixture->root, KILL_TREE_FILES);

  watchdog = g_timeout_add_seconds (test_timeout_seconds (60), watchdog_cb, NULL);
  handler = g_signal_connect (fixture->engine, "index-progress",
                              G_CALLBACK (async_progress_cb), &async);
  lode_engine_index_async (fixture->engine, fixture->root, LODE_INDEX_REQUEST_UPDATE, NULL,
                           async_done_cb, &async);
  g_main_loop_run (loop);
  g_source_remove (watchdog);
  g_signal_handler_disconnect (fixture->engine, handler);

  g_assert_nonnull (async.job);
  g_assert_cmpint (async.job->state, ==, LODE_JOB_STATE_SUCCEEDED);
  g_assert_cmpuint (async.job->report->n_files, ==, KILL_TREE_FILES);
  /* Progress reached the main context, coalesced rather than once per file. */
  g_assert_cmpuint (async.n_progress, >, 0);
  g_assert_true (async.progress_on_main);
  lode_job_info_free (async.job);
}

/* A file over the parse budget is indexed by lines and reported; the run goes on. */
static void
test_time_budget (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(GString) code = g_string_new (NULL);
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GPtrArray) results = NULL;
  const LodeSkippedFile *partly = NULL;

  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (code, "int\nbudget_fn_%u (void)\n{\n  return %u;\n}\n", i, i);
  test_write_bytes (fixture->root, "big.c", code->str, code->len);
  test_write_bytes (fixture->root, "small.py", "def small_fn():\n    return 1\n", -1);

  /* 170 KB of C take far more than a millisecond to parse. */
  fixture->config->parse_time_budget = 1;
  g_clear_object (&fixture->engine);
  fixture->engine = lode_engine_new (fixture->config);
  report = index_tree (fixture);

  g_assert_cmpuint (report->n_files, ==, 2);
  for (guint i = 0; i < report->skipped->len; i++)
    {
      const LodeSkippedFile *skipped = g_ptr_array_index (report->skipped, i);

      if (g_str_equal (skipped->path, "big.c"))
        partly = skipped;
    }
  g_assert_nonnull (partly);
  g_assert_cmpint (partly->reason, ==, LODE_SKIP_OVER_TIME_BUDGET);
  g_assert_cmpstr (partly->detail, ==, "took longer than 1 ms to parse: indexed by lines");

  /* Its text is searchable all the same. */
  results = search (fixture, "budget_fn_4999");
  g_assert_true (results_have_path (results, "big.c"));
}

/* Files each larger than what the chunking threads may hold in flight for the writer
 * (lode-indexer.c, MAX_IN_FLIGHT_BYTES): at the end of the list both threads waited for a
 * place, the writer stored the last file and woke one, which found the list done and left,
 * and the other waited for ever. The tree is indexed whole. */
static void
test_large_files (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GPtrArray) results = NULL;

  for (guint f = 0; f < 4; f++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      g_autofree char *name = g_strdup_printf ("log-%u.txt", f);

      while (text->len < 1700 * 1024)
        g_string_append_printf (text, "line %zu of the large file number %u, word%u_%zu\n",
                                text->len, f, f, text->len / 4096);
      test_write_bytes (fixture->root, name, text->str, text->len);
    }
  test_write_bytes (fixture->root, "small.py", "def small_fn():\n    return 1\n", -1);

  report = index_tree (fixture);

  g_assert_cmpuint (report->n_files, ==, 5);
  g_assert_cmpuint (report->skipped->len, ==, 0);
  results = search (fixture, "word3_400");
  g_assert_true (results_have_path (results, "log-3.txt"));
}

/* A whole system is not a project: /, /usr, /proc and the home directory need confirming. */
static void
test_whole_system_roots (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autofree char *home = NULL;
  g_autoptr(GError) error = NULL;
  static const char *const refused[] = { "/", "/usr", "/etc", "/proc", "/home", "/var" };

  g_assert_cmpint (g_mkdir_with_parents (g_get_home_dir (), 0755), ==, 0);
  home = realpath (g_get_home_dir (), NULL);

  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      g_assert_false (lode_engine_check_index_root (refused[i], FALSE, "pass --yes", &error));
      g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
      g_assert_nonnull (strstr (error->message, "pass --yes"));
      g_clear_error (&error);
      g_assert_true (lode_engine_check_index_root (refused[i], TRUE, "pass --yes", &error));
      g_assert_no_error (error);
    }

  g_assert_nonnull (home);
  g_assert_false (lode_engine_check_index_root (home, FALSE, "pass --yes", &error));
  g_assert_nonnull (strstr (error->message, "home directory"));
  g_clear_error (&error);

  g_assert_true (lode_engine_check_index_root (fixture->root, FALSE, "pass --yes", &error));
  g_assert_true (lode_engine_check_index_root ("/usr/src/linux", FALSE, "pass --yes", &error));
  g_assert_true (lode_engine_check_index_root ("/home/someone/project", FALSE, "pass --yes",
                                               &error));
  g_assert_no_error (error);
}

static LodeChunk *
span_new (guint       start_line,
          guint       end_line,
          const char *symbol)
{
  LodeChunk *chunk = lode_chunk_new ();

  chunk->start_line = start_line;
  chunk->end_line = end_line;
  chunk->symbol = g_strdup (symbol);
  return chunk;
}

static LodeSymbol *
declaration_new (const char *name,
                 guint       start_line)
{
  LodeSymbol *symbol = lode_symbol_new ();

  symbol->name = g_strdup (name);
  symbol->start_line = start_line;
  symbol->end_line = start_line;
  return symbol;
}

/* Which chunk a declaration belongs to is decided here, once, for both stores. */
static void
test_attribute_symbols (void)
{
  g_autoptr(GPtrArray) chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  g_autoptr(GPtrArray) symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  g_autofree guint *owners = NULL;
  g_autofree guint *none = NULL;

  /* A 390-line parse_config () cut into overlapping pieces, given out of line order, after
   * a class whose method has a chunk of its own; then a minified line cut in three. */
  g_ptr_array_add (chunks, span_new (141, 300, "parse_config"));          /* 0 */
  g_ptr_array_add (chunks, span_new (10, 150, "parse_config"));           /* 1 */
  g_ptr_array_add (chunks, span_new (291, 400, "parse_config"));          /* 2 */
  g_ptr_array_add (chunks, span_new (402, 440, "Widget"));                /* 3 */
  g_ptr_array_add (chunks, span_new (410, 420, "draw"));                  /* 4 */
  g_ptr_array_add (chunks, span_new (450, 450, NULL));                    /* 5 */
  g_ptr_array_add (chunks, span_new (450, 450, NULL));                    /* 6 */
  g_ptr_array_add (chunks, span_new (450, 450, NULL));                    /* 7 */

  g_ptr_array_add (symbols, declaration_new ("parse_config", 10));
  /* In two pieces, named in neither: the one it starts nearest the top of (the longer). */
  g_ptr_array_add (symbols, declaration_new ("config_entry", 145));
  /* Named after a chunk that holds its line: that one, however large. */
  g_ptr_array_add (symbols, declaration_new ("Widget", 402));
  g_ptr_array_add (symbols, declaration_new ("draw", 410));
  g_ptr_array_add (symbols, declaration_new ("widget_helper", 412));
  /* On a minified line: its first piece. */
  g_ptr_array_add (symbols, declaration_new ("render", 450));
  /* A line no chunk holds: the chunk before it, or the first one. */
  g_ptr_array_add (symbols, declaration_new ("gap", 401));
  g_ptr_array_add (symbols, declaration_new ("before", 2));

  owners = lode_indexer_attribute_symbols (chunks, symbols);
  g_assert_cmpuint (owners[0], ==, 1);
  g_assert_cmpuint (owners[1], ==, 0);
  g_assert_cmpuint (owners[2], ==, 3);
  g_assert_cmpuint (owners[3], ==, 4);
  g_assert_cmpuint (owners[4], ==, 4);
  g_assert_cmpuint (owners[5], ==, 5);
  g_assert_cmpuint (owners[6], ==, 2);
  g_assert_cmpuint (owners[7], ==, 1);

  g_ptr_array_set_size (chunks, 0);
  none = lode_indexer_attribute_symbols (chunks, symbols);
  for (guint i = 0; i < symbols->len; i++)
    g_assert_cmpuint (none[i], ==, LODE_INDEX_STORE_NO_CHUNK);
  g_ptr_array_set_size (symbols, 0);
  g_assert_null (lode_indexer_attribute_symbols (chunks, symbols));
}

int
main (int   argc,
      char *argv[])
{
  const char *child_root = g_getenv ("LODE_TEST_CHILD_ROOT");

  self_path = argv[0];
  if (child_root != NULL)
    return run_child (child_root, g_getenv ("LODE_TEST_CHILD_DATA"));

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/lode/indexer/" path, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("incremental", test_incremental);
  ADD ("time-budget", test_time_budget);
  ADD ("large-files", test_large_files);
  ADD ("whole-system-roots", test_whole_system_roots);
  ADD ("coverage", test_coverage);
  ADD ("bad-input", test_bad_input);
  ADD ("same-ids", test_same_ids);
  ADD ("empty", test_empty);
  ADD ("schema-reset", test_schema_reset);
  ADD ("kill-resume", test_kill_resume);
  ADD ("cancel", test_cancel);
  ADD ("force-search-meanwhile", test_force_search_meanwhile);
  ADD ("force-cancelled", test_force_cancelled);
  ADD ("calls-cancelled", test_calls_cancelled);
  ADD ("force-killed", test_force_killed);
  ADD ("async", test_async);
  ADD ("change-list", test_change_list);
  ADD ("touched", test_touched);
#undef ADD
  g_test_add_func ("/lode/indexer/attribute-symbols", test_attribute_symbols);

  return g_test_run ();
}
