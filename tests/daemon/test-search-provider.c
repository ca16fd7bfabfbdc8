/* test-search-provider.c — loded's GNOME Shell search provider on a private bus
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <string.h>

#include "lode-dbus-daemon.h"
#include "lode-shell-search-provider.h"
#include "test-helpers.h"

#define SEARCH_PROVIDER_PATH "/io/github/lode/Lode/SearchProvider"

/*
 * Each fixture: a tree with a known definition, indexed by a build-tree loded activated on a
 * private bus, and a stand-in for the user's editor — a desktop file named after GNOME Text
 * Editor, the default for C files, whose program only writes down its arguments — so that
 * activating a result is captured instead of opening a real editor.
 */
typedef struct
{
  GTestDBus                *bus;
  LodeShellSearchProvider2 *provider;
  char                     *tmp;
  char                     *root;
  char                     *launch_log;
} Fixture;

/* test_write_file() at @path, then @mode (an editor that runs, a file it may read). */
static void
write_file_with_mode (const char *path,
                      const char *contents,
                      int         mode)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (path);

  test_write_file (dir, name, contents);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

static void
install_fake_editor (Fixture *fixture)
{
  g_autofree char *editor = g_build_filename (fixture->tmp, "bin", "gnome-text-editor", NULL);
  g_autofree char *desktop = g_build_filename (g_get_user_data_dir (), "applications",
                                               "fake-editor.desktop", NULL);
  g_autofree char *mimeapps = g_build_filename (g_get_user_config_dir (), "mimeapps.list",
                                                NULL);
  g_autofree char *entry = NULL;

  write_file_with_mode (editor,
                        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$LODE_TEST_LAUNCH_LOG.part\"\n"
                        "mv \"$LODE_TEST_LAUNCH_LOG.part\" \"$LODE_TEST_LAUNCH_LOG\"\n", 0755);
  entry = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Fake Editor\n"
                           "Exec=%s %%U\nMimeType=text/x-csrc;text/plain;\n", editor);
  write_file_with_mode (desktop, entry, 0644);
  write_file_with_mode (mimeapps,
                        "[Default Applications]\ntext/x-csrc=fake-editor.desktop\n"
                        "text/plain=fake-editor.desktop\n", 0644);
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeDBusDaemon1) daemon = NULL;
  g_autoptr(GVariant) report = NULL;
  g_autofree char *source = NULL;
  g_autofree char *data_dir = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-search-provider-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->tmp, "tree", NULL);
  source = g_build_filename (fixture->root, "src", "widget.c", NULL);
  write_file_with_mode (source, "#include <stdio.h>\n\nint\nparse_widget_config (const char *text)\n"
                                "{\n  return text[0];\n}\n", 0644);
  /* tokio's shapes: a type, its impl block, a type named alike, the crate's free spawn and
   * a method of the same name. */
  g_free (source);
  source = g_build_filename (fixture->root, "tokio", "src", "sync", "semaphore.rs", NULL);
  write_file_with_mode (source, "pub struct Semaphore {\n    permits: usize,\n}\n\n"
                                "pub struct SemaphorePermit<'a> {\n    sem: &'a Semaphore,\n}\n\n"
                                "impl Semaphore {\n    pub const fn const_new(permits: usize) -> Self {\n"
                                "        Self { permits }\n    }\n}\n", 0644);
  g_free (source);
  source = g_build_filename (fixture->root, "tokio", "src", "runtime", "handle.rs", NULL);
  write_file_with_mode (source, "pub struct Handle;\n\nimpl Handle {\n"
                                "    pub fn spawn<F>(&self, future: F) {\n        drop(future);\n    }\n}\n",
              0644);
  g_free (source);
  source = g_build_filename (fixture->root, "tokio", "src", "task", "spawn.rs", NULL);
  write_file_with_mode (source, "pub fn spawn<F>(future: F) {\n    drop(future);\n}\n", 0644);
  fixture->launch_log = g_build_filename (fixture->tmp, "launched", NULL);
  install_fake_editor (fixture);

  /* The activated daemon inherits this environment through the bus. */
  data_dir = g_build_filename (fixture->tmp, "data", NULL);
  g_setenv ("LODE_DATA_DIR", data_dir, TRUE);
  g_setenv ("LODE_TEST_LAUNCH_LOG", fixture->launch_log, TRUE);
  g_setenv ("LODE_EMBEDDING_PROVIDER", "none", TRUE);
  /* The daemon sees this test's (isolated) desktop files and default applications, and the
   * system's MIME database, which tells a C file from others. */
  g_setenv ("XDG_CONFIG_HOME", g_get_user_config_dir (), TRUE);
  g_setenv ("XDG_DATA_HOME", g_get_user_data_dir (), TRUE);
  g_setenv ("XDG_DATA_DIRS", "/usr/local/share:/usr/share", TRUE);

  fixture->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (fixture->bus, LODE_TEST_SERVICES_DIR);
  g_test_dbus_up (fixture->bus);

  daemon = lode_dbus_daemon1_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION,
                                                     G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                                     LODE_DAEMON_BUS_NAME,
                                                     LODE_DAEMON_OBJECT_PATH, NULL, &error);
  g_assert_no_error (error);
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (daemon), 60000);
  lode_dbus_daemon1_call_index_sync (daemon, fixture->root, FALSE, &report, NULL, &error);
  g_assert_no_error (error);

  fixture->provider =
    lode_shell_search_provider2_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION,
                                                        G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                                        LODE_DAEMON_BUS_NAME,
                                                        SEARCH_PROVIDER_PATH, NULL, &error);
  g_assert_no_error (error);
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (fixture->provider), 60000);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->provider);
  g_test_dbus_down (fixture->bus);
  g_clear_object (&fixture->bus);
  g_free (fixture->launch_log);
  g_free (fixture->root);
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
}

static char **
initial_results (Fixture    *fixture,
                 const char *term)
{
  const char *terms[] = { term, NULL };
  g_autoptr(GError) error = NULL;
  char **results = NULL;

  lode_shell_search_provider2_call_get_initial_result_set_sync (fixture->provider, terms,
                                                                &results, NULL, &error);
  g_assert_no_error (error);
  return results;
}

static void
test_initial_and_metas (Fixture       *fixture,
                        gconstpointer  data)
{
  g_auto(GStrv) results = initial_results (fixture, "parse_widget");
  g_auto(GStrv) none = initial_results (fixture, "nothing_is_called_like_this");
  g_autoptr(GVariant) metas = NULL;
  g_autoptr(GError) error = NULL;
  const char *name = NULL;
  const char *description = NULL;
  const char *id = NULL;

  g_assert_cmpuint (g_strv_length (results), ==, 1);
  g_assert_cmpuint (g_strv_length (none), ==, 0);

  lode_shell_search_provider2_call_get_result_metas_sync (fixture->provider,
                                                          (const char * const *) results,
                                                          &metas, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_variant_n_children (metas), ==, 1);
  {
    g_autoptr(GVariant) meta = g_variant_get_child_value (metas, 0);
    g_autoptr(GVariant) icon = NULL;
    g_autoptr(GIcon) deserialized = NULL;

    g_assert_true (g_variant_lookup (meta, "id", "&s", &id));
    g_assert_true (g_variant_lookup (meta, "name", "&s", &name));
    g_assert_true (g_variant_lookup (meta, "description", "&s", &description));
    g_assert_cmpstr (id, ==, results[0]);
    g_assert_cmpstr (name, ==, "parse_widget_config");
    g_assert_nonnull (strstr (description, "function"));
    g_assert_nonnull (strstr (description, "widget.c:3"));
    icon = g_variant_lookup_value (meta, "icon", NULL);
    g_assert_nonnull (icon);
    deserialized = g_icon_deserialize (icon);
    g_assert_true (G_IS_ICON (deserialized));
  }
}

static void
test_subsearch (Fixture       *fixture,
                gconstpointer  data)
{
  const char *terms[] = { "parse_widget", "config", NULL };
  g_auto(GStrv) previous = initial_results (fixture, "parse");
  g_auto(GStrv) results = NULL;
  g_autoptr(GError) error = NULL;

  lode_shell_search_provider2_call_get_subsearch_result_set_sync (fixture->provider,
                                                                  (const char * const *) previous,
                                                                  terms, &results, NULL,
                                                                  &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_strv_length (results), ==, 1);
}

/* The symbol, kind and path of each result, "name kind path-suffix" (the id's fourth, third
 * and first fields; the last is the project). */
static char *
describe_results (char       **results,
                  const char  *root)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; results[i] != NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (results[i], "\n", 5);

      g_assert_cmpuint (g_strv_length (fields), ==, 5);
      g_assert_true (g_str_has_prefix (fields[0], root));
      g_assert_cmpstr (fields[4], ==, root);
      g_string_append_printf (out, "%s%s %s %s", i > 0 ? "; " : "", fields[3], fields[2],
                              fields[0] + strlen (root) + 1);
    }

  return g_string_free (out, FALSE);
}

/* What people type into GNOME Shell's search: the start of a name, ranked by kind. */
static void
test_prefix (Fixture       *fixture,
             gconstpointer  data)
{
  g_auto(GStrv) results = initial_results (fixture, "Semaph");
  g_auto(GStrv) lower = initial_results (fixture, "semaphore");
  g_auto(GStrv) part = initial_results (fixture, "config");
  g_autofree char *found = describe_results (results, fixture->root);
  g_autofree char *found_lower = describe_results (lower, fixture->root);
  g_autofree char *found_part = describe_results (part, fixture->root);

  /* Types first, the shorter name first, the impl block last. */
  g_assert_cmpstr (found, ==,
                   "Semaphore struct tokio/src/sync/semaphore.rs; "
                   "SemaphorePermit struct tokio/src/sync/semaphore.rs; "
                   "Semaphore impl tokio/src/sync/semaphore.rs");
  /* The whole name, in any case, before names it only starts. */
  g_assert_cmpstr (found_lower, ==,
                   "Semaphore struct tokio/src/sync/semaphore.rs; "
                   "Semaphore impl tokio/src/sync/semaphore.rs; "
                   "SemaphorePermit struct tokio/src/sync/semaphore.rs");
  /* A part of a name: config in parse_widget_config. */
  g_assert_cmpstr (found_part, ==, "parse_widget_config function src/widget.c");
}

/* A qualified name: its last part, where the qualifier names the place. */
static void
test_qualified (Fixture       *fixture,
                gconstpointer  data)
{
  g_auto(GStrv) spawn = initial_results (fixture, "tokio::spawn");
  g_auto(GStrv) method = initial_results (fixture, "Handle::spawn");
  g_auto(GStrv) elsewhere = initial_results (fixture, "serde::spawn");
  g_auto(GStrv) dotted = initial_results (fixture, "sync.Semaphore");
  g_autofree char *found_spawn = describe_results (spawn, fixture->root);
  g_autofree char *found_method = describe_results (method, fixture->root);
  g_autofree char *found_dotted = describe_results (dotted, fixture->root);

  /* The crate's free function before a method of another type. */
  g_assert_cmpstr (found_spawn, ==,
                   "spawn function tokio/src/task/spawn.rs; "
                   "spawn method tokio/src/runtime/handle.rs");
  g_assert_cmpstr (found_method, ==, "spawn method tokio/src/runtime/handle.rs");
  g_assert_cmpuint (g_strv_length (elsewhere), ==, 0);
  g_assert_true (g_str_has_prefix (found_dotted, "Semaphore struct tokio/src/sync/semaphore.rs"));
}

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

/* With no app to show the result on its Symbol page (none can start on this bus; the GTK
 * test has one), activating it opens the file at its line in the user's editor. */
static void
test_activate (Fixture       *fixture,
               gconstpointer  data)
{
  const char *terms[] = { "parse_widget", NULL };
  g_auto(GStrv) results = initial_results (fixture, "parse_widget");
  g_autoptr(GError) error = NULL;
  g_autofree char *launched = NULL;
  g_autofree char *expected = NULL;
  gboolean timed_out = FALSE;
  guint timeout, tick;

  g_assert_cmpuint (g_strv_length (results), ==, 1);
  lode_shell_search_provider2_call_activate_result_sync (fixture->provider, results[0], terms,
                                                         0, NULL, &error);
  g_assert_no_error (error);

  /* The editor runs detached from the daemon: wait until it has written its arguments. */
  timeout = g_timeout_add_seconds (20, timeout_cb, &timed_out);
  tick = g_timeout_add (50, tick_cb, NULL);
  while (!timed_out && !g_file_test (fixture->launch_log, G_FILE_TEST_EXISTS))
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);
  if (!timed_out)
    g_source_remove (timeout);
  g_assert_false (timed_out);

  g_file_get_contents (fixture->launch_log, &launched, NULL, &error);
  g_assert_no_error (error);
  expected = g_strdup_printf ("+3\n%s/src/widget.c\n", fixture->root);
  g_assert_cmpstr (launched, ==, expected);

  /* An identifier this provider did not make is refused, not opened: a bare path, or a
   * file outside the project it names. */
  lode_shell_search_provider2_call_activate_result_sync (fixture->provider, "/etc/passwd",
                                                         terms, 0, NULL, &error);
  g_assert_nonnull (error);
  g_clear_error (&error);
  g_free (expected);
  expected = g_strdup_printf ("/etc/passwd\n1\nfunction\nroot\n%s", fixture->root);
  lode_shell_search_provider2_call_activate_result_sync (fixture->provider, expected, terms, 0,
                                                         NULL, &error);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "Not a result of this provider"));
}

/* A flood of identifiers (12,000 of 2 kB — a file in a long folder, and that folder as the
 * project —, 24 MB, within a bus message) gets a bounded answer: metas for all of them
 * (over 35 MB) would pass the bus's message limit (32 MiB for the test bus), and the bus
 * would drop the daemon with its jobs. */
static void
test_metas_bounded (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *long_dir = g_strnfill (1000, 'd');
  g_autoptr(GVariant) metas = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) results = NULL;

  for (guint i = 0; i < 12000; i++)
    g_ptr_array_add (ids, g_strdup_printf ("/%s/file%u.c\n%u\nfunction\nfunction_%u\n/%s",
                                           long_dir, i, i + 1, i, long_dir));
  g_ptr_array_add (ids, NULL);

  lode_shell_search_provider2_call_get_result_metas_sync (fixture->provider,
                                                          (const char * const *) ids->pdata,
                                                          &metas, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_variant_n_children (metas), >, 0);
  g_assert_cmpuint (g_variant_get_size (metas), <, 1024 * 1024);

  /* The daemon is still there. */
  results = initial_results (fixture, "parse_widget");
  g_assert_cmpuint (g_strv_length (results), ==, 1);
}

/* The app stands in for itself: this process owns its name and counts "search" actions. */
static void
search_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  char **query = user_data;

  g_free (*query);
  *query = g_variant_dup_string (parameter, NULL);
}

static void
launch_search_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  GAsyncResult **reply = user_data;

  *reply = g_object_ref (result);
}

static void
test_launch_search (Fixture       *fixture,
                    gconstpointer  data)
{
  const char *terms[] = { "parse", "widget", NULL };
  g_autoptr(GApplication) app = g_application_new (LODE_APP_ID, G_APPLICATION_IS_SERVICE);
  g_autoptr(GSimpleAction) action = g_simple_action_new ("search", G_VARIANT_TYPE_STRING);
  g_autoptr(GError) error = NULL;
  g_autoptr(GAsyncResult) reply = NULL;
  g_autofree char *query = NULL;
  gboolean timed_out = FALSE;
  guint timeout;

  g_signal_connect (action, "activate", G_CALLBACK (search_activated), &query);
  g_action_map_add_action (G_ACTION_MAP (app), G_ACTION (action));
  g_application_register (app, NULL, &error);
  g_assert_no_error (error);

  /* Asynchronously: the daemon calls back into this process before it answers. */
  lode_shell_search_provider2_call_launch_search (fixture->provider, terms, 0, NULL,
                                                  launch_search_cb, &reply);

  timeout = g_timeout_add_seconds (20, timeout_cb, &timed_out);
  while (!timed_out && (query == NULL || reply == NULL))
    g_main_context_iteration (NULL, TRUE);
  if (!timed_out)
    g_source_remove (timeout);
  g_assert_false (timed_out);

  lode_shell_search_provider2_call_launch_search_finish (fixture->provider, reply, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (query, ==, "parse widget");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, func) \
  g_test_add ("/lode/search-provider/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("initial-and-metas", test_initial_and_metas);
  ADD ("prefix", test_prefix);
  ADD ("qualified", test_qualified);
  ADD ("subsearch", test_subsearch);
  ADD ("activate", test_activate);
  ADD ("launch-search", test_launch_search);
  ADD ("metas-bounded", test_metas_bounded);
#undef ADD

  return g_test_run ();
}
