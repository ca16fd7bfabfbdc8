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

#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lode.h"
#include "lode-engine-private.h"
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

typedef struct
{
  const char *root;
  guint       n_changed;
} Changed;

static void
index_changed_cb (LodeEngine *engine,
                  const char *project_id,
                  const char *root,
                  Changed    *changed)
{
  g_assert_cmpstr (root, ==, changed->root);
  changed->n_changed++;
}

static gboolean
watchdog_cb (gpointer user_data)
{
  g_error ("Timed out waiting for %s", (const char *) user_data);
  return G_SOURCE_REMOVE;
}

static gboolean
set_true_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Iterates @context for @msec, whatever happens meanwhile. */
static void
run_for (GMainContext *context,
         guint         msec)
{
  g_autoptr(GSource) source = g_timeout_source_new (msec);
  gboolean done = FALSE;

  g_source_set_callback (source, set_true_cb, &done, NULL);
  g_source_attach (source, context);
  while (!done)
    g_main_context_iteration (context, TRUE);
}

/* Whether a source of @context is still to dispatch: a timeout, an idle, a descriptor
 * besides the context's own wake-up. */
static gboolean
has_sources (GMainContext *context)
{
  GPollFD fds[8];
  int priority;
  int timeout;
  int n;

  g_assert_true (g_main_context_acquire (context));
  g_main_context_prepare (context, &priority);
  n = g_main_context_query (context, G_MAXINT, &timeout, fds, G_N_ELEMENTS (fds));
  g_main_context_check (context, G_MAXINT, fds, MIN (n, (int) G_N_ELEMENTS (fds)));
  g_main_context_release (context);

  return timeout >= 0 || n > 1;
}

/* Takes @path's writer lock as another process's run would: its own open file description,
 * the pid in the file. */
static int
lock_as_other (const char *path)
{
  g_autofree char *pid = g_strdup_printf ("%d\n", (int) getpid ());
  int fd = g_open (path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), ==, 0);
  g_assert_cmpint (write (fd, pid, strlen (pid)), ==, (gssize) strlen (pid));
  return fd;
}

/* The run of another process on a tree an engine serves (`lode index` in a terminal while
 * loded serves the app) ends without a word to the engine: once a status has shown that run,
 * the engine follows its lock and tells of its end with index-changed, as of its own jobs'
 * ends, and then follows nothing. An engine that goes while it follows leaves no source
 * behind. */
static void
test_follow_other (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *lock_path = NULL;
  Changed changed = { NULL, 0 };
  GSource *watchdog;
  int fd;

  /* The engine's signals and its following run on a context of the test's own, which then
   * shows whether anything of the engine is left on it. */
  g_main_context_push_thread_default (context);
  engine = lode_engine_new (fixture->config);
  project = lode_engine_open_project (engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  report = lode_project_index (project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  lock_path = g_build_filename (fixture->config->data_dir, "projects",
                                lode_project_get_id (project), "lock", NULL);
  changed.root = lode_project_get_root (project);
  g_signal_connect (engine, "index-changed", G_CALLBACK (index_changed_cb), &changed);

  fd = lock_as_other (lock_path);
  status = lode_engine_dup_status (engine, fixture->root, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->writer_pid, ==, getpid ());

  /* While the lock is held, nothing is told. */
  run_for (context, 1500);
  g_assert_cmpuint (changed.n_changed, ==, 0);

  /* The run ends, and nothing tells the engine. */
  close (fd);
  watchdog = g_timeout_source_new_seconds (test_timeout_seconds (10));
  g_source_set_callback (watchdog, watchdog_cb, "index-changed after the other run", NULL);
  g_source_attach (watchdog, context);
  while (changed.n_changed == 0)
    g_main_context_iteration (context, TRUE);
  g_source_destroy (watchdog);
  g_source_unref (watchdog);
  g_assert_cmpuint (changed.n_changed, ==, 1);
  g_assert_cmpuint (_lode_engine_count_followed_writers (engine), ==, 0);
  g_assert_false (has_sources (context));

  /* A status without another run follows nothing. */
  g_clear_pointer (&status, lode_project_status_free);
  status = lode_engine_dup_status (engine, fixture->root, &error);
  g_assert_no_error (error);
  g_assert_cmpint (status->writer_pid, ==, 0);
  g_assert_cmpuint (_lode_engine_count_followed_writers (engine), ==, 0);

  /* Gone while it follows a run: nothing of it stays, and nothing is told. */
  fd = lock_as_other (lock_path);
  g_clear_pointer (&status, lode_project_status_free);
  status = lode_engine_dup_status (engine, fixture->root, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (_lode_engine_count_followed_writers (engine), ==, 1);
  g_clear_object (&project);
  g_object_add_weak_pointer (G_OBJECT (engine), (gpointer *) &engine);
  g_object_unref (engine);
  g_assert_null (engine);
  g_assert_false (has_sources (context));
  close (fd);
  g_assert_cmpuint (changed.n_changed, ==, 1);

  g_main_context_pop_thread_default (context);
}

/* A status asked beside the engine's own job. */
typedef struct
{
  LodeEngine *engine;
  const char *root;
  gint        stop;
  guint       n_statuses;
  guint       n_wrong;     /* statuses naming a writer of a tree whose job had ended */
} Asker;

static gpointer
ask_status_thread (gpointer user_data)
{
  Asker *asker = user_data;

  while (!g_atomic_int_get (&asker->stop))
    {
      g_autoptr(LodeProjectStatus) status = NULL;
      g_autoptr(GError) error = NULL;

      status = lode_engine_dup_status (asker->engine, asker->root, &error);
      g_assert_no_error (error);
      asker->n_statuses++;
      if (status->writer_pid != 0 &&
          (status->job == NULL || status->job->state != LODE_JOB_STATE_RUNNING))
        asker->n_wrong++;
    }
  return NULL;
}

/* The engine's own job holds the writer lock too, and a status reads the lock without the
 * engine's: one asked as a job ends saw the lock held and the job ended, and showed the
 * engine's own run as another process's ("indexing", with a pid), which the engine then
 * followed and told of a second time a second later (the app asked for its lists twice). */
static void
test_own_job_ends (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GError) error = NULL;
  Asker asker = { NULL, fixture->root, 0, 0, 0 };
  GThread *thread;

  g_main_context_push_thread_default (context);
  engine = lode_engine_new (fixture->config);
  project = lode_engine_open_project (engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  asker.engine = engine;
  thread = g_thread_new ("asker", ask_status_thread, &asker);

  /* Unchanged trees: each job ends a few milliseconds after it takes the lock. */
  for (guint i = 0; i < 40; i++)
    {
      g_autoptr(LodeJobInfo) started = NULL;
      g_autoptr(LodeJobInfo) ended = NULL;

      started = lode_engine_start_index (engine, fixture->root, LODE_INDEX_REQUEST_UPDATE,
                                         FALSE, NULL, &error);
      g_assert_no_error (error);
      ended = lode_engine_wait_index (engine, started->project_id, NULL, NULL, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpint (ended->state, ==, LODE_JOB_STATE_SUCCEEDED);
    }

  g_atomic_int_set (&asker.stop, TRUE);
  g_thread_join (thread);
  g_test_message ("%u statuses beside 40 jobs", asker.n_statuses);
  g_assert_cmpuint (asker.n_statuses, >, 40);
  g_assert_cmpuint (asker.n_wrong, ==, 0);
  g_assert_cmpuint (_lode_engine_count_followed_writers (engine), ==, 0);

  g_clear_object (&project);
  g_clear_object (&engine);
  while (g_main_context_iteration (context, FALSE))
    ;
  g_main_context_pop_thread_default (context);
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
  g_test_add ("/lode/writer/follow-other", Fixture, NULL, fixture_set_up, test_follow_other,
              fixture_tear_down);
  g_test_add ("/lode/writer/own-job-ends", Fixture, NULL, fixture_set_up, test_own_job_ends,
              fixture_tear_down);

  return g_test_run ();
}
