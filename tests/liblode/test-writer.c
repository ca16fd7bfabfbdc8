/* test-writer.c — another process's index run: `lode stop` and `lode remove` without the
 * daemon (issue 31, items 10 and 4)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The writer lock is a flock() on a file beside the index, so two LodeProject objects of one
 * process contend for it as two processes do: the run on a thread stands for `lode index`
 * in another process, the project or engine of the test for the `lode stop` or `lode remove`
 * run beside it.
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <unistd.h>

#include "lode.h"
#include "lode-json-forms.h"
#include "test-helpers.h"

typedef struct
{
  char       *tmp;
  char       *root;
  LodeConfig *config;
} Fixture;

/* An index run made slow: 100 ms per file, long enough to be stopped in the middle. */
typedef struct
{
  LodeProject     *project;
  GPtrArray       *changes;
  gint             started;
  LodeIndexReport *report;
  GError          *error;
} Run;

static void
slow_progress (const LodeIndexProgress *progress,
               gpointer                 user_data)
{
  Run *run = user_data;

  if (progress->phase != LODE_INDEX_PHASE_INDEXING)
    return;
  g_atomic_int_set (&run->started, 1);
  g_usleep (100 * 1000);
}

static gpointer
run_thread (gpointer user_data)
{
  Run *run = user_data;

  run->report = lode_project_index_with (run->project, LODE_INDEX_FLAGS_NONE, run->changes,
                                         NULL, slow_progress, run, &run->error);
  return NULL;
}

static GThread *
start_run (Run *run)
{
  GThread *thread = g_thread_new ("other-writer", run_thread, run);
  gint64 deadline = g_get_monotonic_time () + (gint64) test_timeout_seconds (30) * G_USEC_PER_SEC;

  while (!g_atomic_int_get (&run->started) && g_get_monotonic_time () < deadline)
    g_usleep (10 * 1000);
  g_assert_true (g_atomic_int_get (&run->started));
  return thread;
}

static void
fixture_set_up (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-writer-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->tmp, "tree", NULL);
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *name = g_strdup_printf ("src/unit_%03u.c", i);
      g_autofree char *text = g_strdup_printf ("int\nunit_%03u (int x)\n{\n  return x + %u;\n}\n",
                                               i, i);

      test_write_file (fixture->root, name, text);
    }

  fixture->config = lode_config_new_default ();
  g_free (fixture->config->data_dir);
  fixture->config->data_dir = g_build_filename (fixture->tmp, "data", NULL);
  fixture->config->index_threads = 1;
}

static void
fixture_tear_down (Fixture       *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->config, lode_config_free);
  test_remove_tree (fixture->tmp);
  g_free (fixture->root);
  g_free (fixture->tmp);
}

static guint64
count_files (LodeProject *project)
{
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  status = lode_project_dup_status (project, &error);
  g_assert_no_error (error);
  return status->stats.n_files;
}

/* `lode stop` of a run in another process (#31 item 10: it said "No indexing operation is
 * currently running"): the run ends, says who stopped it, and keeps what it indexed; a stop
 * with nothing running says so. */
static void
test_stop_other (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(LodeProject) writer = lode_project_new (fixture->root, fixture->config);
  g_autoptr(LodeProject) stopper = lode_project_new (fixture->root, fixture->config);
  g_autoptr(LodeIndexReport) again = NULL;
  g_autoptr(GError) error = NULL;
  Run run = { writer, NULL };
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(JsonNode) json = NULL;
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *expected = g_strdup_printf ("Being indexed now by another process (pid %d)",
                                               (int) getpid ());
  GThread *thread;
  int pid = -1;

  thread = start_run (&run);

  /* Its status says it is being indexed, and by whom (#31: it did not). */
  status = lode_project_dup_status (stopper, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->writer_pid, ==, getpid ());
  json = lode_project_status_to_json (status);
  g_assert_true (json_object_get_boolean_member (json_node_get_object (json), "indexing"));
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (json), "indexingProcess"),
                   ==, getpid ());
  lode_status_json_append_markdown (text, json_node_get_object (json));
  g_assert_nonnull (strstr (text->str, expected));

  g_assert_true (lode_project_stop_writer (stopper, NULL, &pid, &error));
  g_assert_no_error (error);
  g_assert_cmpint (pid, ==, getpid ());
  g_thread_join (thread);

  g_assert_null (run.report);
  g_assert_error (run.error, LODE_ERROR, LODE_ERROR_CANCELLED);
  g_assert_nonnull (strstr (run.error->message, "stopped by another process (lode stop, pid"));
  g_assert_nonnull (strstr (run.error->message, fixture->root));
  g_clear_error (&run.error);

  /* Nothing runs now; the request is gone and the next run goes to its end. */
  g_assert_true (lode_project_stop_writer (stopper, NULL, &pid, &error));
  g_assert_cmpint (pid, ==, 0);
  again = lode_project_index (writer, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (count_files (stopper), ==, 200);
  g_clear_pointer (&status, lode_project_status_free);
  status = lode_project_dup_status (stopper, &error);
  g_assert_cmpint (status->writer_pid, ==, 0);
}

/* `lode remove` while another process indexes (#31 item 4: the run reported success into an
 * unlinked file): the writer is asked to stop and says its index was removed; the index is
 * gone; a watcher's change list afterwards does not make a one-file index. */
static void
test_remove_under_writer (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(LodeProject) writer = lode_project_new (fixture->root, fixture->config);
  g_autoptr(LodeEngine) engine = lode_engine_new (fixture->config);
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GPtrArray) changes = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_change_free);
  LodeChange *change = g_new0 (LodeChange, 1);
  g_autofree char *id = lode_project_id_for_path (fixture->root);
  g_autofree char *dir = g_build_filename (fixture->config->data_dir, "projects", id, NULL);
  g_autoptr(GError) error = NULL;
  Run run = { writer, NULL };
  GThread *thread;

  thread = start_run (&run);
  g_assert_true (lode_engine_remove_project (engine, fixture->root, &error));
  g_assert_no_error (error);
  g_thread_join (thread);

  g_assert_null (run.report);
  g_assert_error (run.error, LODE_ERROR, LODE_ERROR_NOT_INDEXED);
  g_assert_nonnull (strstr (run.error->message, "its index was removed by another process"));
  g_clear_error (&run.error);
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));

  /* The next edit a watcher in that process sees. */
  test_write_file (fixture->root, "src/unit_000.c", "int unit_000;\n");
  change->kind = LODE_CHANGE_CHANGED;
  change->path = g_strdup ("src/unit_000.c");
  g_ptr_array_add (changes, change);
  report = lode_project_index_with (writer, LODE_INDEX_FLAGS_NONE, changes, NULL, NULL, NULL,
                                    &error);
  g_assert_null (report);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED);
  g_assert_nonnull (strstr (error->message, "its index was removed"));
  g_assert_false (g_file_test (dir, G_FILE_TEST_EXISTS));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/writer/stop-other", Fixture, NULL, fixture_set_up, test_stop_other,
              fixture_tear_down);
  g_test_add ("/lode/writer/remove-under-writer", Fixture, NULL, fixture_set_up,
              test_remove_under_writer, fixture_tear_down);

  return g_test_run ();
}
