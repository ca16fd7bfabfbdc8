/* test-daemon.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "lode.h"
#include "daemon-clients.h"
#include "lode-dbus-daemon.h"
#include "qdrant-server.h"
#include "test-helpers.h"

/* Each fixture gets a private bus whose service directory activates the build-tree loded. */
typedef struct
{
  GTestDBus       *bus;
  LodeDBusDaemon1 *proxy;
  char            *tmp;
  char            *root;
  guint            n_index_changed;
  guint            n_progress;
  guint            n_projects_changed;
} Fixture;

static void
signal_cb (GDBusProxy *proxy,
           const char *sender,
           const char *signal_name,
           GVariant   *parameters,
           gpointer    user_data)
{
  Fixture *fixture = user_data;

  if (strcmp (signal_name, "IndexChanged") == 0)
    fixture->n_index_changed++;
  else if (strcmp (signal_name, "Progress") == 0)
    fixture->n_progress++;
  else if (strcmp (signal_name, "ProjectsChanged") == 0)
    fixture->n_projects_changed++;
}

static LodeDBusDaemon1 *
new_proxy (void)
{
  g_autoptr(GError) error = NULL;
  LodeDBusDaemon1 *proxy;

  proxy = lode_dbus_daemon1_proxy_new_for_bus_sync (G_BUS_TYPE_SESSION,
                                                    G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                                                    G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION,
                                                    LODE_DAEMON_BUS_NAME,
                                                    LODE_DAEMON_OBJECT_PATH, NULL, &error);
  g_assert_no_error (error);
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), 60000);
  return proxy;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-daemon-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->tmp, "tree", NULL);
  test_write_file (fixture->root, "src/parse.c",
                   "int\nparse_request_header (const char *text)\n{\n  return text[0];\n}\n");
  test_write_file (fixture->root, "src/util.py", "def compute_checksum(data):\n    return 0\n");
  test_write_file (fixture->root, "README.md", "# Fixture\n\nA small tree for the daemon tests.\n");

  /* The activated daemon inherits the bus's environment: its indexes and state go into this
   * fixture's directory, never the user's. */
  data_dir = g_build_filename (fixture->tmp, "data", NULL);
  g_setenv ("LODE_DATA_DIR", data_dir, TRUE);
  g_setenv ("LODE_WATCH_DEBOUNCE_MSEC", "200", TRUE);
  /* @data: an embedding model for the daemon, else none. */
  if (data != NULL)
    g_setenv ("LODE_EMBEDDING_MODEL", data, TRUE);
  else
    g_unsetenv ("LODE_EMBEDDING_MODEL");

  fixture->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (fixture->bus, LODE_TEST_SERVICES_DIR);
  g_test_dbus_up (fixture->bus);

  fixture->proxy = new_proxy ();
  g_signal_connect (fixture->proxy, "g-signal", G_CALLBACK (signal_cb), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->proxy);
  g_test_dbus_down (fixture->bus);
  g_clear_object (&fixture->bus);
  g_free (fixture->root);
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
}

static GVariant *
search (Fixture    *fixture,
        const char *query,
        GVariant   *options,
        GError    **error)
{
  GVariant *results = NULL;

  if (options == NULL)
    options = g_variant_new ("a{sv}", NULL);
  if (!lode_dbus_daemon1_call_search_sync (fixture->proxy, fixture->root, query, options,
                                           &results, NULL, NULL, error))
    return NULL;

  return results;
}

static gboolean
results_have_path (GVariant   *results,
                   const char *path)
{
  for (gsize i = 0; i < g_variant_n_children (results); i++)
    {
      g_autoptr(GVariant) result = g_variant_get_child_value (results, i);
      const char *p = NULL;

      if (g_variant_lookup (result, "path", "&s", &p) && strcmp (p, path) == 0)
        return TRUE;
    }

  return FALSE;
}

static void
index_tree_files (Fixture *fixture,
                  guint    expected_files)
{
  g_autoptr(GVariant) report = NULL;
  g_autoptr(GError) error = NULL;
  guint files = 0;

  lode_dbus_daemon1_call_index_sync (fixture->proxy, fixture->root, FALSE, &report, NULL,
                                     &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_lookup (report, "files", "u", &files));
  g_assert_cmpuint (files, ==, expected_files);
}

static void
index_tree (Fixture *fixture)
{
  index_tree_files (fixture, 3);
}

static void
test_activation_and_methods (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) results = NULL;
  g_autoptr(GVariant) status = NULL;
  g_autoptr(GVariant) projects = NULL;
  g_autoptr(GVariant) watch = NULL;
  g_autofree char *owner = NULL;
  g_autofree char *root = NULL;
  g_autofree char *id = NULL;
  const char *state = NULL;
  gboolean stopped = TRUE;
  guint files = 0;

  /* Nobody owns the name until the first call activates the daemon. */
  owner = g_dbus_proxy_get_name_owner (G_DBUS_PROXY (fixture->proxy));
  g_assert_null (owner);

  index_tree (fixture);
  /* Signals come after the reply. */
  while (fixture->n_index_changed == 0)
    g_main_context_iteration (NULL, TRUE);
  g_assert_cmpuint (fixture->n_progress, >, 0);

  results = search (fixture, "parse_request_header", NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_variant_n_children (results), >=, 1);
  g_assert_true (results_have_path (results, "src/parse.c"));

  lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &status, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_lookup (status, "state", "&s", &state));
  g_assert_cmpstr (state, ==, "ready");
  g_assert_true (g_variant_lookup (status, "files", "u", &files));
  g_assert_cmpuint (files, ==, 3);

  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_variant_n_children (projects), ==, 1);

  lode_dbus_daemon1_call_stop_sync (fixture->proxy, fixture->root, &stopped, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (stopped);

  lode_dbus_daemon1_call_update_sync (fixture->proxy, fixture->root, &status, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&status, g_variant_unref);

  lode_dbus_daemon1_call_watch_sync (fixture->proxy, fixture->root, TRUE, &watch, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&watch, g_variant_unref);
  lode_dbus_daemon1_call_watch_sync (fixture->proxy, fixture->root, FALSE, &watch, NULL, &error);
  g_assert_no_error (error);

  lode_dbus_daemon1_call_add_project_sync (fixture->proxy, fixture->root, &root, &id, NULL,
                                           &error);
  g_assert_no_error (error);
  g_assert_cmpuint (strlen (id), ==, 12);

  lode_dbus_daemon1_call_remove_project_sync (fixture->proxy, fixture->root, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&results, g_variant_unref);
  results = search (fixture, "parse_request_header", NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED);
  while (fixture->n_projects_changed < 2)
    g_main_context_iteration (NULL, TRUE);
}

static GVariant *
no_options (void)
{
  return g_variant_new ("a{sv}", NULL);
}

static JsonObject *
call_tool (Fixture    *fixture,
           const char *name,
           const char *arguments,
           JsonNode  **root,
           GError    **error)
{
  g_autofree char *result = NULL;

  if (!lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, name, arguments, no_options (),
                                              &result, NULL, error))
    return NULL;

  *root = json_from_string (result, error);
  g_assert_nonnull (*root);
  return json_node_get_object (*root);
}

/* Sets variables in the environment of the daemon the next call activates. */
static void
set_daemon_environment (Fixture    *fixture,
                        GVariant   *environment)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_call_sync (g_dbus_proxy_get_connection (G_DBUS_PROXY (fixture->proxy)),
                                       "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "UpdateActivationEnvironment",
                                       g_variant_new_tuple (&environment, 1), NULL,
                                       G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
}

/* The typed methods refuse a first index of a whole system as codebase_index does. */
static void
test_whole_system (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) report = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *tool_root = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": true}",
                                                g_get_home_dir ());
  JsonObject *result;

  /* The daemon, activated by the first call below, gets this test's (isolated, nearly empty)
   * home directory: GLib's test isolation sets HOME to /dev/null in the environment. */
  g_assert_cmpint (g_mkdir_with_parents (g_get_home_dir (), 0700), ==, 0);
  set_daemon_environment (fixture, g_variant_new_parsed ("{'HOME': %s}", g_get_home_dir ()));
  lode_dbus_daemon1_call_index_sync (fixture->proxy, g_get_home_dir (), FALSE, &report, NULL,
                                     &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "home directory"));
  g_assert_nonnull (strstr (error->message, "confirm: true"));
  g_clear_error (&error);

  lode_dbus_daemon1_call_add_project_sync (fixture->proxy, g_get_home_dir (), NULL, NULL, NULL,
                                           &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* CallTool refuses it the same way, and indexes it when confirmed. */
  result = call_tool (fixture, "codebase_index", tool_root, &root, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (result, "isError"));
  g_clear_pointer (&root, json_node_unref);
  g_free (tool_root);
  tool_root = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": true, "
                               "\"confirm\": true}", g_get_home_dir ());
  result = call_tool (fixture, "codebase_index", tool_root, &root, &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (result, "isError"));

  /* Once indexed, updating it through Index needs no confirmation. */
  lode_dbus_daemon1_call_index_sync (fixture->proxy, g_get_home_dir (), FALSE, &report, NULL,
                                     &error);
  g_assert_no_error (error);
}

static gboolean
is_watched (Fixture    *fixture,
            const char *path)
{
  g_autoptr(GVariant) status = NULL;
  g_autoptr(GError) error = NULL;
  gboolean watched = FALSE;

  lode_dbus_daemon1_call_status_sync (fixture->proxy, path, &status, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_lookup (status, "watched", "b", &watched));
  return watched;
}

/* Watching a whole system needs the confirmation indexing it does, whether it is indexed
 * or not: Watch cannot give it, CallTool's codebase_watch can. */
static void
test_watch_whole_system (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) status = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *home = NULL;
  g_autofree char *start = NULL;
  JsonObject *result;

  g_assert_cmpint (g_mkdir_with_parents (g_get_home_dir (), 0700), ==, 0);
  home = realpath (g_get_home_dir (), NULL);
  set_daemon_environment (fixture, g_variant_new_parsed ("{'HOME': %s}", home));

  lode_dbus_daemon1_call_watch_sync (fixture->proxy, home, TRUE, &status, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "home directory"));
  g_assert_nonnull (strstr (error->message, "confirm: true"));
  g_clear_error (&error);
  g_assert_false (is_watched (fixture, home));

  start = g_strdup_printf ("{\"projectPath\": \"%s\", \"action\": \"start\"}", home);
  result = call_tool (fixture, "codebase_watch", start, &root, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (result, "isError"));
  g_assert_false (is_watched (fixture, home));
  g_clear_pointer (&root, json_node_unref);

  g_free (start);
  start = g_strdup_printf ("{\"projectPath\": \"%s\", \"action\": \"start\", "
                           "\"confirm\": true}", home);
  result = call_tool (fixture, "codebase_watch", start, &root, &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (result, "isError"));
  g_assert_true (is_watched (fixture, home));
}

/* A list of watched trees that names the home directory without its confirmation (written
 * before watching asked for one): the daemon does not watch it again at start-up. */
static void
test_watch_list_whole_system (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *home = NULL;
  g_autofree char *list = g_build_filename (fixture->tmp, "data", "watched", NULL);
  g_autofree char *text = NULL;
  g_autofree char *kept = NULL;

  g_assert_cmpint (g_mkdir_with_parents (g_get_home_dir (), 0700), ==, 0);
  home = realpath (g_get_home_dir (), NULL);
  text = g_strdup_printf ("%s\n%s\n", home, fixture->root);
  test_write_file (fixture->tmp, "data/watched", text);
  set_daemon_environment (fixture, g_variant_new_parsed ("{'HOME': %s}", home));

  /* The first call starts the daemon, which resumes its watches. */
  g_assert_true (is_watched (fixture, fixture->root));
  g_assert_false (is_watched (fixture, home));
  g_assert_true (g_file_get_contents (list, &kept, NULL, &error));
  g_assert_no_error (error);
  g_assert_null (strstr (kept, home));
}

/* CallTool's replies are valid JSON whatever text the index holds: json-glib writes U+001F
 * raw, which no JSON parser accepts. */
static void
test_raw_text (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reply = NULL;
  g_autofree char *arguments = g_strdup_printf ("{\"query\": \"unit_separator_marker\", "
                                                "\"projectPath\": \"%s\", "
                                                "\"mode\": \"lexical\"}", fixture->root);
  g_autofree char *lone = g_strdup_printf ("{\"query\": \"unit_separator_marker \\ud800\", "
                                           "\"projectPath\": \"%s\", "
                                           "\"mode\": \"lexical\"}", fixture->root);
  g_autofree char *nul = g_strdup_printf ("{\"query\": \"unit_separator\\u0000marker\", "
                                          "\"projectPath\": \"%s\"}", fixture->root);

  test_write_file (fixture->root, "src/controls.txt", "unit_separator_marker \x1f between\n");
  index_tree_files (fixture, 4);
  g_assert_true (lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_search",
                                                        arguments, no_options (), &reply,
                                                        NULL, &error));
  g_assert_no_error (error);
  g_assert_null (strchr (reply, 0x1f));
  g_assert_nonnull (strstr (reply, "\\u001f"));
  g_clear_pointer (&reply, g_free);

  /* An escaped lone surrogate is read as U+FFFD: the reply, which quotes the query, is
   * UTF-8 (it was a GLib-CRITICAL and "[Invalid UTF-8]"). */
  g_assert_true (lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_search",
                                                        lone, no_options (), &reply, NULL,
                                                        &error));
  g_assert_no_error (error);
  g_assert_true (g_utf8_validate (reply, -1, NULL));
  g_assert_nonnull (strstr (reply, "unit_separator_marker"));
  g_assert_null (strstr (reply, "[Invalid UTF-8]"));

  /* An escaped NUL would cut the query short: refused. */
  g_assert_false (lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_search",
                                                         nul, no_options (), NULL, NULL,
                                                         &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "U+0000"));
}

/* CallTool runs the registry in the daemon: the same structured results as the tools in
 * this process, tool failures as results, bad calls as D-Bus errors. */
static void
test_call_tool (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(JsonNode) failed_root = NULL;
  g_autoptr(JsonNode) status_root = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeToolRegistry) registry = NULL;
  g_autoptr(LodeToolResult) local = NULL;
  g_autoptr(JsonNode) local_node = NULL;
  g_autoptr(JsonNode) remote_node = NULL;
  g_autoptr(JsonNode) arguments_node = NULL;
  g_autofree char *arguments = g_strdup_printf ("{\"query\": \"parse_request_header\", "
                                                "\"projectPath\": \"%s\", "
                                                "\"mode\": \"lexical\"}", fixture->root);
  g_autofree char *status_arguments = g_strdup_printf ("{\"projectPath\": \"%s\"}",
                                                       fixture->root);
  g_autofree char *huge = NULL;
  JsonObject *result, *failed, *status;
  JsonArray *results;

  index_tree (fixture);

  result = call_tool (fixture, "codebase_search", arguments, &root, &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (result, "isError"));
  results = json_object_get_array_member (json_object_get_object_member (result,
                                                                         "structuredContent"),
                                          "results");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (results, 0),
                                                  "path"), ==, "src/parse.c");

  /* The same call in this process, over the same index, gives the same structure. */
  config = lode_config_load (&error);
  g_assert_no_error (error);
  engine = lode_engine_new (config);
  registry = lode_tools_new_registry (engine);
  arguments_node = json_from_string (arguments, &error);
  g_assert_no_error (error);
  local = lode_tool_registry_call (registry, "codebase_search",
                                   json_node_get_object (arguments_node), NULL, NULL, &error);
  g_assert_no_error (error);
  local_node = json_node_init_object (json_node_alloc (), local->structured);
  remote_node = json_node_init_object (json_node_alloc (),
                                       json_object_get_object_member (result,
                                                                      "structuredContent"));
  g_assert_true (json_node_equal (local_node, remote_node));

  status = call_tool (fixture, "codebase_status", status_arguments, &status_root, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (
                   json_object_get_object_member (status, "structuredContent"), "indexed"));

  /* Arguments that fail validation: a result an agent can act on, not a D-Bus error. */
  failed = call_tool (fixture, "codebase_search", "{\"query\": 42}", &failed_root, &error);
  g_assert_no_error (error);
  g_assert_true (json_object_get_boolean_member (failed, "isError"));
  g_assert_false (json_object_has_member (failed, "structuredContent"));

  lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_nope", "{}", no_options (),
                                         NULL, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_search", "{not json",
                                         no_options (), NULL, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_search", "[1, 2]",
                                         no_options (), NULL, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  huge = g_strnfill (2 * 1024 * 1024, ' ');
  lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_search", huge,
                                         no_options (), NULL, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* In the daemon codebase_watch watches. */
  {
    g_autofree char *start = g_strdup_printf ("{\"projectPath\": \"%s\", \"action\": \"start\"}",
                                              fixture->root);
    g_autofree char *stop = g_strdup_printf ("{\"projectPath\": \"%s\", \"action\": \"stop\"}",
                                             fixture->root);
    g_autoptr(JsonNode) start_root = NULL;
    g_autoptr(JsonNode) stop_root = NULL;
    g_autoptr(GVariant) daemon_status = NULL;
    JsonObject *watch;
    gboolean watched = FALSE;

    watch = call_tool (fixture, "codebase_watch", start, &start_root, &error);
    g_assert_no_error (error);
    g_assert_false (json_object_get_boolean_member (watch, "isError"));
    g_assert_true (json_object_get_boolean_member (
                     json_object_get_object_member (watch, "structuredContent"), "watching"));
    lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &daemon_status, NULL,
                                        &error);
    g_assert_no_error (error);
    g_assert_true (g_variant_lookup (daemon_status, "watched", "b", &watched));
    g_assert_true (watched);

    watch = call_tool (fixture, "codebase_watch", stop, &stop_root, &error);
    g_assert_no_error (error);
    g_assert_false (json_object_get_boolean_member (
                      json_object_get_object_member (watch, "structuredContent"), "watching"));
  }

  /* Still serving. */
  g_clear_pointer (&status_root, json_node_unref);
  status = call_tool (fixture, "codebase_status", status_arguments, &status_root, &error);
  g_assert_no_error (error);
}

static void
test_bad_input (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) results = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GVariant) report = NULL;
  g_autoptr(GVariant) projects = NULL;
  g_autofree char *file = g_build_filename (fixture->root, "README.md", NULL);
  g_autofree char *missing = g_build_filename (fixture->tmp, "missing", NULL);
  g_autofree char *huge = g_strnfill (100000, 'x');
  GVariantBuilder options;

  lode_dbus_daemon1_call_index_sync (fixture->proxy, "relative/path", FALSE, &report, NULL,
                                     &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  lode_dbus_daemon1_call_index_sync (fixture->proxy, missing, FALSE, &report, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  lode_dbus_daemon1_call_index_sync (fixture->proxy, file, FALSE, &report, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  lode_dbus_daemon1_call_watch_sync (fixture->proxy, huge, TRUE, &report, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* The error name on the bus is ours. */
  lode_dbus_daemon1_call_update_sync (fixture->proxy, fixture->root, &report, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED);
  g_clear_error (&error);

  index_tree (fixture);

  g_variant_builder_init (&options, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&options, "{sv}", "limit", g_variant_new_uint32 (G_MAXUINT32));
  results = search (fixture, "parse", g_variant_builder_end (&options), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_variant_n_children (results), <=, 100);

  g_variant_builder_init (&options, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&options, "{sv}", "limit", g_variant_new_string ("ten"));
  g_assert_null (search (fixture, "parse", g_variant_builder_end (&options), &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  /* A known option of the wrong type is named as such, not as an unknown one. */
  g_assert_nonnull (strstr (error->message, "“limit” must be"));
  g_clear_error (&error);

  g_variant_builder_init (&options, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&options, "{sv}", "min_score", g_variant_new_double (NAN));
  g_assert_null (search (fixture, "parse", g_variant_builder_end (&options), &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "min_score"));
  g_clear_error (&error);

  /* Scores lie in 0-1, as codebase_search's minScore says (a fuzz-dbus-options finding). */
  g_variant_builder_init (&options, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&options, "{sv}", "min_score", g_variant_new_double (1.5));
  g_assert_null (search (fixture, "parse", g_variant_builder_end (&options), &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_variant_builder_init (&options, G_VARIANT_TYPE ("a{sv}"));
  g_variant_builder_add (&options, "{sv}", "no-such-option", g_variant_new_boolean (TRUE));
  g_assert_null (search (fixture, "parse", g_variant_builder_end (&options), &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_assert_null (search (fixture, huge, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY);
  g_clear_error (&error);

  g_assert_null (search (fixture, "   ", NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY);
  g_clear_error (&error);

  /* Wrong argument types never reach the daemon's handlers. */
  reply = g_dbus_proxy_call_sync (G_DBUS_PROXY (fixture->proxy), "Index",
                                  g_variant_new ("(uu)", 1, 2), G_DBUS_CALL_FLAGS_NONE, -1,
                                  NULL, &error);
  g_assert_null (reply);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_INVALID_ARGS);
  g_clear_error (&error);

  /* CallTool arguments nested 100,000 levels deep (100 KB) crashed the daemon: json-glib
   * parses recursively. They are refused before parsing. */
  {
    g_autofree char *nested = g_strnfill (100000, '[');
    g_autofree char *result = NULL;

    lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_about", nested,
                                           no_options (), &result, NULL, &error);
    g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
    g_assert_nonnull (strstr (error->message, "nested deeper"));
    g_clear_error (&error);
  }

  /* …and the daemon keeps running. */
  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);
}

/* A watched change must be searchable (or gone) within 2 s, debounce included (issue #5).
 * Indexing a whole tree when watching starts, and activating a daemon, are not bounded by
 * that: they get more room on a loaded machine. */
#define CHANGE_SECONDS   2
#define CATCH_UP_SECONDS 30

/* Polls until @query finds (or, with !@present, no longer finds) @path, for at most
 * @seconds. */
static gboolean
wait_for (Fixture    *fixture,
          const char *query,
          const char *path,
          gboolean    present,
          guint       seconds)
{
  gint64 deadline = g_get_monotonic_time () + seconds * G_USEC_PER_SEC;

  do
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GVariant) results = search (fixture, query, NULL, &error);

      /* Before the first run has stored anything the tree is not indexed: not yet. */
      if (g_error_matches (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED))
        results = g_variant_ref_sink (g_variant_new ("aa{sv}", NULL));
      else
        g_assert_no_error (error);
      if (results_have_path (results, path) == present)
        return TRUE;
      g_usleep (20 * 1000);
    }
  while (g_get_monotonic_time () < deadline);

  return FALSE;
}

static void
git (const char *root,
     const char *args)
{
  g_autofree char *command = g_strdup_printf ("git -C '%s' -c user.name=t -c user.email=t@t "
                                              "-c init.defaultBranch=main %s", root, args);
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_spawn_command_line_sync (command, NULL, NULL, &status, &error);
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
test_watch (Fixture       *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) watch = NULL;
  g_autofree char *util = g_build_filename (fixture->root, "src/util.py", NULL);
  g_autofree char *moved_from = g_build_filename (fixture->root, "src/parse.c", NULL);
  g_autofree char *moved_to = g_build_filename (fixture->root, "src/request.c", NULL);
  gboolean watched = FALSE;

  if (!g_find_program_in_path ("git"))
    {
      g_test_skip ("git is not installed");
      return;
    }

  git (fixture->root, "init -q");
  git (fixture->root, "add -A");
  git (fixture->root, "commit -q -m initial");

  lode_dbus_daemon1_call_watch_sync (fixture->proxy, fixture->root, TRUE, &watch, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_lookup (watch, "watched", "b", &watched));
  g_assert_true (watched);

  /* The catch-up update indexes the tree. */
  g_assert_true (wait_for (fixture, "parse_request_header", "src/parse.c", TRUE,
                           CATCH_UP_SECONDS));

  test_write_file (fixture->root, "src/created.c", "int zebra_counter_total;\n");
  g_assert_true (wait_for (fixture, "zebra_counter_total", "src/created.c", TRUE, CHANGE_SECONDS));

  test_write_file (fixture->root, "src/util.py",
                   "def compute_digest_quickly(data):\n    return 1\n");
  g_assert_true (wait_for (fixture, "compute_digest_quickly", "src/util.py", TRUE,
                           CHANGE_SECONDS));

  g_assert_cmpint (g_unlink (util), ==, 0);
  g_assert_true (wait_for (fixture, "compute_digest_quickly", "src/util.py", FALSE,
                           CHANGE_SECONDS));

  g_assert_cmpint (g_rename (moved_from, moved_to), ==, 0);
  g_assert_true (wait_for (fixture, "parse_request_header", "src/request.c", TRUE,
                           CHANGE_SECONDS));
  g_assert_true (wait_for (fixture, "parse_request_header", "src/parse.c", FALSE, CHANGE_SECONDS));

  /* A branch switch: many files at once, one update. */
  git (fixture->root, "add -A");
  git (fixture->root, "commit -q -m work");
  git (fixture->root, "checkout -q -b feature");
  for (guint i = 0; i < 50; i++)
    {
      g_autofree char *rel = g_strdup_printf ("feature/f%u.c", i);
      g_autofree char *text = g_strdup_printf ("int feature_flag_%u;\n", i);

      test_write_file (fixture->root, rel, text);
    }
  git (fixture->root, "add -A");
  git (fixture->root, "commit -q -m feature");
  g_assert_true (wait_for (fixture, "feature_flag_42", "feature/f42.c", TRUE, CHANGE_SECONDS));
  git (fixture->root, "checkout -q main");
  g_assert_true (wait_for (fixture, "feature_flag_42", "feature/f42.c", FALSE, CHANGE_SECONDS));
  g_assert_true (wait_for (fixture, "zebra_counter_total", "src/created.c", TRUE, CHANGE_SECONDS));
}

static void
test_restart_catches_up (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) watch = NULL;
  g_autoptr(GVariant) results = NULL;
  guint pid;

  lode_dbus_daemon1_call_watch_sync (fixture->proxy, fixture->root, TRUE, &watch, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (wait_for (fixture, "parse_request_header", "src/parse.c", TRUE,
                           CATCH_UP_SECONDS));

  pid = daemon_pid (fixture->proxy);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  while (kill (pid, 0) == 0)
    g_usleep (10 * 1000);

  /* Changed while nobody watched. */
  test_write_file (fixture->root, "src/offline.c", "int written_while_down;\n");

  /* The next call activates a new daemon, which watches the tree again and catches up. */
  g_assert_true (wait_for (fixture, "written_while_down", "src/offline.c", TRUE,
                           CATCH_UP_SECONDS));
  g_assert_cmpuint (daemon_pid (fixture->proxy), !=, pid);
}

static void
index_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  GVariant **report = user_data;
  g_autoptr(GError) error = NULL;

  lode_dbus_daemon1_call_index_finish (LODE_DBUS_DAEMON1 (object), report, result, &error);
  g_assert_no_error (error);
}

/* A client on a connection of its own. Like new_proxy(), making it starts no daemon: a
 * proxy keeps the unique name its daemon had when it was made, and sends its calls there
 * until the main loop tells it otherwise. A daemon started here would leave on its idle
 * timeout while a slow machine writes the test's tree, and the client's calls would go to a
 * name gone from the bus (ServiceUnknown for :1.2) instead of starting a new daemon. */
static LodeDBusDaemon1 *
new_private_client (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_autoptr(GDBusConnection) connection = NULL;
  LodeDBusDaemon1 *proxy;

  g_assert_no_error (error);
  connection = g_dbus_connection_new_for_address_sync (address,
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  g_assert_no_error (error);
  proxy = lode_dbus_daemon1_proxy_new_sync (connection,
                                            G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES |
                                            G_DBUS_PROXY_FLAGS_DO_NOT_AUTO_START_AT_CONSTRUCTION,
                                            LODE_DAEMON_BUS_NAME, LODE_DAEMON_OBJECT_PATH,
                                            NULL, &error);
  g_assert_no_error (error);
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), 120000);
  return proxy;
}

static void
write_many (Fixture *fixture,
            guint    n)
{
  for (guint i = 0; i < n; i++)
    {
      g_autofree char *rel = g_strdup_printf ("gen/d%u/file%u.c", i % 16, i);
      g_autofree char *text = g_strdup_printf ("int\ngenerated_function_%u (int x)\n{\n"
                                               "  return x * %u + generated_function_%u (x);\n"
                                               "}\n", i, i, i / 2);

      test_write_file (fixture->root, rel, text);
    }
}

static void
test_two_clients_join (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(LodeDBusDaemon1) second = new_private_client ();
  g_autoptr(GVariant) first_report = NULL;
  g_autoptr(GVariant) second_report = NULL;
  g_autoptr(GVariant) projects = NULL;
  g_autoptr(GError) error = NULL;
  gboolean first_joined = FALSE;
  gboolean second_joined = FALSE;
  guint first_files = 0;
  guint second_files = 0;

  write_many (fixture, 3000);

  /* Wake the daemon first, so that both calls arrive while it runs. */
  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);

  fixture->n_progress = 0;
  lode_dbus_daemon1_call_index (fixture->proxy, fixture->root, FALSE, NULL, index_done_cb,
                                &first_report);
  lode_dbus_daemon1_call_index (second, fixture->root, FALSE, NULL, index_done_cb,
                                &second_report);
  while (first_report == NULL || second_report == NULL)
    g_main_context_iteration (NULL, TRUE);

  g_assert_true (g_variant_lookup (first_report, "joined", "b", &first_joined));
  g_assert_true (g_variant_lookup (second_report, "joined", "b", &second_joined));
  /* Whichever call the daemon saw second joined the first one's run. */
  g_assert_cmpint (first_joined, !=, second_joined);
  g_assert_true (g_variant_lookup (first_report, "files", "u", &first_files));
  g_assert_true (g_variant_lookup (second_report, "files", "u", &second_files));
  g_assert_cmpuint (first_files, ==, second_files);
  g_assert_cmpuint (fixture->n_progress, >, 0);
}

static void
test_client_vanishes (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(LodeDBusDaemon1) leaver = new_private_client ();
  g_autoptr(GVariant) projects = NULL;
  g_autoptr(GError) error = NULL;
  gboolean indexing = TRUE;
  const char *state = NULL;

  write_many (fixture, 3000);
  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);
  g_clear_pointer (&projects, g_variant_unref);

  lode_dbus_daemon1_call_index (leaver, fixture->root, FALSE, NULL, NULL, NULL);
  g_dbus_connection_flush_sync (g_dbus_proxy_get_connection (G_DBUS_PROXY (leaver)), NULL,
                                &error);
  g_assert_no_error (error);
  g_dbus_connection_close_sync (g_dbus_proxy_get_connection (G_DBUS_PROXY (leaver)), NULL,
                                &error);
  g_assert_no_error (error);

  /* The run nobody waits for any more ends; the daemon keeps answering. */
  do
    {
      g_autoptr(GVariant) status = NULL;

      lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &status, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_variant_lookup (status, "indexing", "b", &indexing));
      if (indexing)
        g_usleep (20 * 1000);
    }
  while (indexing);

  /* Cancelled, not completed: the index is incomplete (or was never created). */
  {
    g_autoptr(GVariant) status = NULL;

    lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &status, NULL, &error);
    g_assert_no_error (error);
    g_assert_true (g_variant_lookup (status, "state", "&s", &state));
    g_assert_cmpstr (state, !=, "ready");
  }

  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);
}

/* ToolProgress signals of one CallTool call, as its caller and another client see them. */
typedef struct
{
  GArray   *progress;      /* double, for call_id "u1" */
  guint     n_other;       /* signals for any other call id */
  gboolean  cancel_on_first;
  GVariant *reply;
  GError   *error;
  gboolean  done;
} ToolCallWatch;

static void
tool_progress_cb (LodeDBusDaemon1 *proxy,
                  const char      *call_id,
                  double           progress,
                  double           total,
                  const char      *message,
                  ToolCallWatch   *watch)
{
  if (strcmp (call_id, "u1") != 0)
    {
      watch->n_other++;
      return;
    }
  g_array_append_val (watch->progress, progress);
  if (watch->cancel_on_first && watch->progress->len == 1)
    lode_dbus_daemon1_call_cancel_tool (proxy, call_id, NULL, NULL, NULL);
}

static void
count_tool_progress_cb (LodeDBusDaemon1 *proxy,
                        const char      *call_id,
                        double           progress,
                        double           total,
                        const char      *message,
                        guint           *count)
{
  (*count)++;
}

static void
tool_call_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  ToolCallWatch *watch = user_data;
  char *json = NULL;

  if (lode_dbus_daemon1_call_call_tool_finish (LODE_DBUS_DAEMON1 (object), &json, result,
                                               &watch->error))
    watch->reply = g_variant_ref_sink (g_variant_new_take_string (json));
  watch->done = TRUE;
}

/* Runs codebase_update on 3,000 files as call "u1", optionally cancelling it at its first
 * progress signal, while a second client listens. */
static void
run_update_call (Fixture       *fixture,
                 ToolCallWatch *watch)
{
  g_autoptr(LodeDBusDaemon1) other = new_private_client ();
  g_autofree char *arguments = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->root);
  GVariantDict options;
  guint other_signals = 0;

  write_many (fixture, 3000);
  watch->progress = g_array_new (FALSE, FALSE, sizeof (double));
  g_signal_connect (fixture->proxy, "tool-progress", G_CALLBACK (tool_progress_cb), watch);
  g_signal_connect (other, "tool-progress", G_CALLBACK (count_tool_progress_cb),
                    &other_signals);

  g_variant_dict_init (&options, NULL);
  g_variant_dict_insert (&options, "call_id", "s", "u1");
  lode_dbus_daemon1_call_call_tool (fixture->proxy, "codebase_update", arguments,
                                    g_variant_dict_end (&options), NULL, tool_call_done_cb,
                                    watch);
  while (!watch->done)
    g_main_context_iteration (NULL, TRUE);

  g_signal_handlers_disconnect_by_data (fixture->proxy, watch);
  /* Progress goes to the caller alone. */
  g_assert_cmpuint (other_signals, ==, 0);
  g_assert_cmpuint (watch->n_other, ==, 0);
}

static void
test_call_tool_progress (Fixture       *fixture,
                         gconstpointer  data)
{
  ToolCallWatch watch = { 0 };
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  GVariantDict options;

  run_update_call (fixture, &watch);
  g_assert_no_error (watch.error);
  root = json_from_string (g_variant_get_string (watch.reply, NULL), &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (json_node_get_object (root), "isError"));

  /* Several reports, never going back. */
  g_assert_cmpuint (watch.progress->len, >=, 2);
  for (guint i = 1; i < watch.progress->len; i++)
    g_assert_cmpfloat (g_array_index (watch.progress, double, i), >=,
                       g_array_index (watch.progress, double, i - 1));
  g_array_unref (watch.progress);
  g_variant_unref (watch.reply);

  g_variant_dict_init (&options, NULL);
  g_variant_dict_insert (&options, "call_id", "s", "");
  lode_dbus_daemon1_call_call_tool_sync (fixture->proxy, "codebase_status", "{}",
                                         g_variant_dict_end (&options), NULL, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* An id that names no running call: nothing to do, no error. */
  lode_dbus_daemon1_call_cancel_tool_sync (fixture->proxy, "gone", NULL, &error);
  g_assert_no_error (error);
}

/* CancelTool stops the call and the indexing run it waits for. */
static void
test_cancel_tool (Fixture       *fixture,
                  gconstpointer  data)
{
  ToolCallWatch watch = { .cancel_on_first = TRUE };
  g_autoptr(GVariant) status = NULL;
  g_autoptr(GError) error = NULL;
  gboolean indexing = TRUE;
  const char *state = NULL;

  run_update_call (fixture, &watch);
  g_assert_error (watch.error, LODE_ERROR, LODE_ERROR_CANCELLED);
  g_assert_null (watch.reply);
  g_clear_error (&watch.error);
  g_array_unref (watch.progress);

  do
    {
      g_clear_pointer (&status, g_variant_unref);
      lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &status, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_variant_lookup (status, "indexing", "b", &indexing));
      if (indexing)
        g_usleep (20 * 1000);
    }
  while (indexing);
  g_assert_true (g_variant_lookup (status, "state", "&s", &state));
  g_assert_cmpstr (state, !=, "ready");
}

static char *
run_cli (const char *const *args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  g_ptr_array_add (argv, (char *) g_getenv ("LODE_CLI"));
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (NULL, (char **) argv->pdata, NULL, G_SPAWN_DEFAULT, NULL, NULL, &out, &err,
                &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("lode failed: %s", err);

  return g_steal_pointer (&out);
}

/* @json without the members that legitimately differ between two runs (timings, the size of
 * the write-ahead log). */
/* Removes what differs between two runs of the same command: timings, times, history. */
static void
strip_times (JsonNode *node)
{
  static const char *const members[] = { "elapsedSeconds", "startedAt", "finishedAt",
                                         "databaseBytes" };

  if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        strip_times (json_array_get_element (array, i));
    }
  else if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      GList *names = json_object_get_members (object);

      for (guint i = 0; i < G_N_ELEMENTS (members); i++)
        json_object_remove_member (object, members[i]);
      /* A status tells the last job of the process that answers: only the daemon ran one. */
      if (json_object_has_member (object, "watch"))
        json_object_remove_member (object, "job");
      for (GList *l = names; l != NULL; l = l->next)
        if (json_object_has_member (object, l->data))
          strip_times (json_object_get_member (object, l->data));
      g_list_free (names);
    }
}

static char *
normalize_json (const char *json)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GError) error = NULL;

  json_parser_load_from_data (parser, json, -1, &error);
  g_assert_no_error (error);
  strip_times (json_parser_get_root (parser));
  json_generator_set_root (generator, json_parser_get_root (parser));
  return json_generator_to_data (generator, NULL);
}

static void
compare_cli (const char *const *args)
{
  g_autoptr(GPtrArray) without = g_ptr_array_new ();
  g_autofree char *through_daemon = NULL;
  g_autofree char *in_process = NULL;
  g_autofree char *a = NULL;
  g_autofree char *b = NULL;

  g_ptr_array_add (without, (char *) "--no-daemon");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (without, (char *) args[i]);
  g_ptr_array_add (without, NULL);

  through_daemon = run_cli (args);
  in_process = run_cli ((const char *const *) without->pdata);
  a = normalize_json (through_daemon);
  b = normalize_json (in_process);
  g_assert_cmpstr (a, ==, b);
}

/* One tools/call through lode-mcp over stdio, with @env (names and values) set for it, and
 * a progress token when @n_progress is given (the notifications/progress that come for it
 * are counted there): its result. */
static JsonNode *
mcp_call (Fixture            *fixture,
          gboolean            no_daemon,
          const char * const *env,
          const char         *tool,
          JsonObject *arguments,
          guint      *n_progress)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) call = NULL;
  g_autofree char *call_text = NULL;
  g_autofree char *requests = NULL;
  JsonObject *params;
  GOutputStream *in;
  char *line;

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  for (guint i = 0; env != NULL && env[i] != NULL; i += 2)
    g_subprocess_launcher_setenv (launcher, env[i], env[i + 1], TRUE);
  process = g_subprocess_launcher_spawn (launcher, &error, g_getenv ("LODE_MCP"),
                                         no_daemon ? "--no-daemon" : NULL, NULL);
  g_assert_no_error (error);

  call = json_from_string ("{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"tools/call\", "
                           "\"params\": {}}", &error);
  g_assert_no_error (error);
  params = json_object_get_object_member (json_node_get_object (call), "params");
  json_object_set_string_member (params, "name", tool);
  json_object_set_object_member (params, "arguments", json_object_ref (arguments));
  if (n_progress != NULL)
    {
      JsonObject *meta = json_object_new ();

      json_object_set_string_member (meta, "progressToken", "p1");
      json_object_set_object_member (params, "_meta", meta);
      *n_progress = 0;
    }
  call_text = json_to_string (call, FALSE);
  requests = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", "
                              "\"params\": {\"protocolVersion\": \"2025-11-25\", "
                              "\"capabilities\": {}, \"clientInfo\": {\"name\": \"test\", "
                              "\"version\": \"1\"}}}\n"
                              "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n"
                              "%s\n", call_text);

  in = g_subprocess_get_stdin_pipe (process);
  g_output_stream_write_all (in, requests, strlen (requests), NULL, NULL, &error);
  g_assert_no_error (error);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  while ((line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error)) != NULL)
    {
      g_autoptr(JsonNode) message = json_from_string (line, &error);
      JsonObject *object;
      const char *method;

      g_free (line);
      g_assert_no_error (error);
      object = json_node_get_object (message);
      method = json_object_get_string_member_with_default (object, "method", "");
      if (n_progress != NULL && strcmp (method, "notifications/progress") == 0)
        {
          JsonObject *progress = json_object_get_object_member (object, "params");

          g_assert_cmpstr (json_object_get_string_member (progress, "progressToken"), ==, "p1");
          (*n_progress)++;
        }
      if (json_object_has_member (object, "id") &&
          json_object_get_int_member (object, "id") == 2)
        {
          JsonObject *result = json_object_get_object_member (object, "result");

          g_assert_nonnull (result);
          g_output_stream_close (in, NULL, NULL);
          g_subprocess_wait (process, NULL, NULL);
          return json_node_init_object (json_node_alloc (), result);
        }
    }

  g_error ("lode-mcp ended without answering: %s", error != NULL ? error->message : "EOF");
}

/* One codebase_search through lode-mcp: the structured result, as JSON text. */
static char *
mcp_search (Fixture    *fixture,
            gboolean    no_daemon,
            const char *query)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(JsonNode) structured = NULL;
  JsonObject *object;

  json_object_set_string_member (arguments, "query", query);
  json_object_set_string_member (arguments, "projectPath", fixture->root);
  json_object_set_string_member (arguments, "mode", "lexical");
  result = mcp_call (fixture, no_daemon, NULL, "codebase_search", arguments, NULL);
  object = json_node_get_object (result);
  g_assert_false (json_object_get_boolean_member (object, "isError"));
  structured = json_node_init_object (json_node_alloc (),
                                      json_object_get_object_member (object,
                                                                     "structuredContent"));
  return json_to_string (structured, FALSE);
}

/* Progress of a tool the daemon runs reaches the MCP client that asked for it. */
static void
test_mcp_progress (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonNode) result = NULL;
  guint n_progress = 0;

  write_many (fixture, 3000);
  json_object_set_string_member (arguments, "projectPath", fixture->root);
  result = mcp_call (fixture, FALSE, NULL, "codebase_update", arguments, &n_progress);
  g_assert_false (json_object_get_boolean_member (json_node_get_object (result), "isError"));
  g_assert_cmpuint (n_progress, >=, 2);
  /* The daemon ran it, and announces the new index. */
  while (fixture->n_index_changed == 0)
    g_main_context_iteration (NULL, TRUE);
}

/* lode-mcp runs its tools in the daemon when there is one, and gives what --no-daemon gives. */
static void
test_mcp_same_results (Fixture       *fixture,
                       gconstpointer  data)
{
  static const char *const queries[] = { "parse_request_header", "checksum",
                                         "a small tree for tests", NULL };
  guint changed_before;

  index_tree (fixture);

  for (guint i = 0; queries[i] != NULL; i++)
    {
      g_autofree char *daemon = NULL;
      g_autofree char *local = NULL;

      changed_before = fixture->n_index_changed;
      daemon = mcp_search (fixture, FALSE, queries[i]);
      local = mcp_search (fixture, TRUE, queries[i]);
      g_assert_cmpstr (daemon, ==, local);
      g_assert_cmpuint (fixture->n_index_changed, ==, changed_before);
    }
}

/* Bad tool arguments get the same tool error from lode-mcp whether the daemon or lode-mcp
 * itself would have run the tool: the registry's validation decides, in lode-mcp, before a
 * call is handed on (arguments over 1 MiB were a JSON-RPC error through the daemon). */
static void
test_mcp_same_errors (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autofree char *long_path = g_strnfill (1100 * 1024, 'p');
  struct { const char *tool; const char *member; const char *value; const char *says; } cases[] = {
    { "codebase_status", "projectPath", NULL, "limit is 1048576" },
    { "codebase_search", "query", "", "query" },
    { "codebase_search", "mode", "loud", "mode" },
  };

  cases[0].value = long_path;
  index_tree (fixture);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(JsonObject) arguments = json_object_new ();
      g_autoptr(JsonNode) daemon = NULL;
      g_autoptr(JsonNode) local = NULL;
      g_autofree char *daemon_text = NULL;
      g_autofree char *local_text = NULL;
      JsonObject *result;

      if (g_strcmp0 (cases[i].member, "projectPath") != 0)
        {
          json_object_set_string_member (arguments, "projectPath", fixture->root);
          if (g_strcmp0 (cases[i].member, "query") != 0)
            json_object_set_string_member (arguments, "query", "parse");
        }
      json_object_set_string_member (arguments, cases[i].member, cases[i].value);

      daemon = mcp_call (fixture, FALSE, NULL, cases[i].tool, arguments, NULL);
      local = mcp_call (fixture, TRUE, NULL, cases[i].tool, arguments, NULL);
      daemon_text = json_to_string (daemon, FALSE);
      local_text = json_to_string (local, FALSE);
      g_assert_cmpstr (daemon_text, ==, local_text);

      result = json_node_get_object (daemon);
      g_assert_true (json_object_get_boolean_member (result, "isError"));
      g_assert_nonnull (strstr (daemon_text, cases[i].says));
    }
}

static void
test_cli_same_results (Fixture       *fixture,
                       gconstpointer  data)
{
  static const char *const queries[] = { "parse_request_header", "checksum", "src/util.py",
                                         "a small tree for tests", NULL };
  g_autofree char *watch = NULL;
  g_autofree char *watch_status = NULL;

  if (g_getenv ("LODE_CLI") == NULL)
    {
      g_test_skip ("LODE_CLI is not set");
      return;
    }

  {
    const char *index_args[] = { "index", "--json", fixture->root, NULL };
    const char *update_args[] = { "update", "--json", fixture->root, NULL };
    const char *status_args[] = { "status", "--json", fixture->root, NULL };
    g_autofree char *first = run_cli (index_args);

    g_assert_nonnull (strstr (first, "\"added\" : 3"));
    /* The daemon did that run: it announced it to every client. */
    while (fixture->n_index_changed == 0)
      g_main_context_iteration (NULL, TRUE);
    compare_cli (update_args);
    compare_cli (status_args);
  }

  for (guint i = 0; queries[i] != NULL; i++)
    {
      const char *args[] = { "search", "--json", "-p", fixture->root, queries[i], NULL };

      compare_cli (args);
    }

  /* `lode watch` talks to the daemon of this bus. */
  {
    const char *args[] = { "watch", fixture->root, NULL };
    const char *status_args[] = { "watch", "--status", fixture->root, NULL };

    watch = run_cli (args);
    watch_status = run_cli (status_args);
  }
  g_assert_true (g_str_has_prefix (watch, "Watching "));
  g_assert_true (g_str_has_prefix (watch_status, "Watching "));
}

/* One owner per project (issue #12): each of these once went wrong through the daemon. ---- */

/* Waits until the daemon runs no job for the fixture's tree; returns its status. */
static GVariant *
wait_idle (Fixture *fixture)
{
  gint64 deadline = g_get_monotonic_time () + CATCH_UP_SECONDS * G_USEC_PER_SEC;
  gboolean indexing = TRUE;
  GVariant *status = NULL;

  do
    {
      g_autoptr(GError) error = NULL;

      g_clear_pointer (&status, g_variant_unref);
      lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &status, NULL, &error);
      g_assert_no_error (error);
      g_assert_true (g_variant_lookup (status, "indexing", "b", &indexing));
      if (indexing)
        g_usleep (20 * 1000);
    }
  while (indexing && g_get_monotonic_time () < deadline);

  g_assert_false (indexing);
  return status;
}

static const char *
lookup_string (GVariant   *dict,
               const char *key)
{
  const char *value = NULL;

  g_variant_lookup (dict, key, "&s", &value);
  return value;
}

/* The MCP host's environment is the configuration the daemon serves lode-mcp with: its data
 * directory and its embedding provider, not the daemon's. */
static void
test_host_environment (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autofree char *other = g_build_filename (fixture->tmp, "host-data", NULL);
  const char *const env[] = { "LODE_DATA_DIR", other, "LODE_EMBEDDING_PROVIDER", "none", NULL };
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(JsonObject) no_arguments = json_object_new ();
  g_autoptr(JsonNode) indexed = NULL;
  g_autoptr(JsonNode) health = NULL;
  g_autoptr(GVariant) projects = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *id = NULL;
  g_autofree char *db = NULL;
  JsonObject *embeddings;

  json_object_set_string_member (arguments, "projectPath", fixture->root);
  json_object_set_boolean_member (arguments, "wait", TRUE);
  indexed = mcp_call (fixture, FALSE, env, "codebase_index", arguments, NULL);
  g_assert_false (json_object_get_boolean_member (json_node_get_object (indexed), "isError"));

  /* The daemon ran it (it announces it on the bus), into the host's data directory. */
  while (fixture->n_index_changed == 0)
    g_main_context_iteration (NULL, TRUE);
  id = lode_project_id_for_path (fixture->root);
  db = g_build_filename (other, "projects", id, "index.db", NULL);
  g_assert_true (g_file_test (db, G_FILE_TEST_IS_REGULAR));
  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_variant_n_children (projects), ==, 0);

  health = mcp_call (fixture, FALSE, env, "codebase_health", no_arguments, NULL);
  embeddings = json_object_get_object_member (
                 json_object_get_object_member (json_node_get_object (health),
                                                "structuredContent"), "embeddings");
  g_assert_cmpstr (json_object_get_string_member (embeddings, "provider"), ==, "none");
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (
                       json_object_get_object_member (json_node_get_object (health),
                                                      "structuredContent"), "store"),
                     "dataDir"), ==, other);
}

/* Removing a watched project's index through a tool stops watching it, now and after the
 * daemon restarts: nothing brings the index back. */
static void
test_remove_stops_watching (Fixture       *fixture,
                            gconstpointer  data)
{
  g_autofree char *arguments = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->root);
  g_autoptr(GVariant) watch = NULL;
  g_autoptr(GVariant) status = NULL;
  g_autoptr(GVariant) projects = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *removed;
  guint pid;

  lode_dbus_daemon1_call_watch_sync (fixture->proxy, fixture->root, TRUE, &watch, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (wait_for (fixture, "parse_request_header", "src/parse.c", TRUE,
                           CATCH_UP_SECONDS));

  removed = call_tool (fixture, "codebase_remove", arguments, &root, &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (removed, "isError"));

  /* An edit after the removal is not indexed: no watcher is left. */
  test_write_file (fixture->root, "src/after.c", "int written_after_removal;\n");
  g_usleep (3 * CHANGE_SECONDS * G_USEC_PER_SEC / 2);
  lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &status, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lookup_string (status, "state"), ==, "not indexed");
  g_assert_false (g_variant_get_boolean (g_variant_lookup_value (status, "watched",
                                                                 G_VARIANT_TYPE_BOOLEAN)));

  /* Nor after a restart. */
  pid = daemon_pid (fixture->proxy);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);
  while (kill (pid, 0) == 0)
    g_usleep (10 * 1000);
  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);
  g_usleep (CHANGE_SECONDS * G_USEC_PER_SEC);
  g_clear_pointer (&projects, g_variant_unref);
  lode_dbus_daemon1_call_list_projects_sync (fixture->proxy, &projects, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (g_variant_n_children (projects), ==, 0);
}

/* Index(force) rebuilds through the engine's job, with the engine's embedder. */
static void
test_force_keeps_embedder (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GVariant) report = NULL;
  g_autoptr(GVariant) status = NULL;
  g_autoptr(GError) error = NULL;
  guint chunks = 0;
  guint embedded = 0;
  gboolean rebuilt = FALSE;

  index_tree (fixture);
  lode_dbus_daemon1_call_index_sync (fixture->proxy, fixture->root, TRUE, &report, NULL,
                                     &error);
  g_assert_no_error (error);
  g_assert_nonnull (lookup_string (report, "embedding_model"));
  g_assert_true (g_variant_lookup (report, "rebuilt", "b", &rebuilt));
  g_assert_true (rebuilt);
  g_assert_true (g_variant_lookup (report, "chunks", "u", &chunks));
  g_assert_true (g_variant_lookup (report, "embedded", "u", &embedded));
  g_assert_cmpuint (chunks, >, 0);
  g_assert_cmpuint (embedded, ==, chunks);

  lode_dbus_daemon1_call_status_sync (fixture->proxy, fixture->root, &status, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_lookup (status, "embedded_chunks", "u", &embedded));
  g_assert_cmpuint (embedded, ==, chunks);
}

/* Stop stops a run a tool started; codebase_stop stops a run the watcher started. */
static void
test_stop_any_run (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autofree char *arguments = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->root);
  g_autofree char *background = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": false}",
                                                 fixture->root);
  g_autoptr(GVariant) watch = NULL;
  g_autoptr(GVariant) status = NULL;
  g_autoptr(JsonNode) started_root = NULL;
  g_autoptr(JsonNode) stop_root = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *stop;
  GVariant *job_state;
  gboolean stopped = FALSE;

  write_many (fixture, 3000);
  call_tool (fixture, "codebase_index", background, &started_root, &error);
  g_assert_no_error (error);
  lode_dbus_daemon1_call_stop_sync (fixture->proxy, fixture->root, &stopped, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (stopped);
  status = wait_idle (fixture);
  g_assert_cmpstr (lookup_string (status, "state"), !=, "ready");
  g_clear_pointer (&status, g_variant_unref);

  /* Watching starts a catch-up run of the whole tree: the watcher's. */
  lode_dbus_daemon1_call_watch_sync (fixture->proxy, fixture->root, TRUE, &watch, NULL, &error);
  g_assert_no_error (error);
  stop = call_tool (fixture, "codebase_stop", arguments, &stop_root, &error);
  g_assert_no_error (error);
  stop = json_object_get_object_member (stop, "structuredContent");
  g_assert_true (json_object_get_boolean_member (stop, "stopped"));
  job_state = g_variant_new_string (json_object_get_string_member (
                                      json_object_get_object_member (stop, "job"), "state"));
  g_assert_cmpstr (g_variant_get_string (job_state, NULL), ==, "cancelled");
  g_variant_unref (g_variant_ref_sink (job_state));
}

/* A tool's run and a client's Index on one project are one job: the second joins. */
static void
test_one_job (Fixture       *fixture,
              gconstpointer  data)
{
  g_autofree char *background = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": false}",
                                                 fixture->root);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GVariant) report = NULL;
  g_autoptr(GError) error = NULL;
  JsonObject *started;
  gboolean joined = FALSE;

  write_many (fixture, 3000);
  started = call_tool (fixture, "codebase_index", background, &root, &error);
  g_assert_no_error (error);
  started = json_object_get_object_member (started, "structuredContent");
  g_assert_false (json_object_get_boolean_member (started, "joined"));

  lode_dbus_daemon1_call_index_sync (fixture->proxy, fixture->root, FALSE, &report, NULL,
                                     &error);
  g_assert_no_error (error);
  g_assert_true (g_variant_lookup (report, "joined", "b", &joined));
  g_assert_true (joined);
}

/* When loded dies in the middle of a call, the client asks once more and gets the answer. */
static void
test_daemon_dies_during_call (Fixture       *fixture,
                              gconstpointer  data)
{
  g_autoptr(GSubprocess) cli = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  guint pid;

  if (g_getenv ("LODE_CLI") == NULL)
    {
      g_test_skip ("LODE_CLI is not set");
      return;
    }

  write_many (fixture, 3000);
  fixture->n_progress = 0;
  cli = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE | G_SUBPROCESS_FLAGS_STDERR_PIPE,
                          &error, g_getenv ("LODE_CLI"), "index", "--json", fixture->root, NULL);
  g_assert_no_error (error);
  while (fixture->n_progress == 0)
    g_main_context_iteration (NULL, TRUE);

  pid = daemon_pid (fixture->proxy);
  g_assert_cmpint (kill (pid, SIGKILL), ==, 0);

  g_subprocess_communicate_utf8 (cli, NULL, NULL, &out, &err, &error);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_get_if_exited (cli));
  g_assert_cmpint (g_subprocess_get_exit_status (cli), ==, 0);
  g_assert_nonnull (strstr (out, "\"state\" : \"succeeded\""));
  g_assert_nonnull (strstr (err, "asking it again"));
  g_assert_cmpuint (daemon_pid (fixture->proxy), !=, pid);
}

/* "projectPath" with @more members, as a JSON object. */
static char *
project_arguments (Fixture    *fixture,
                   const char *more)
{
  return g_strdup_printf ("{\"projectPath\": \"%s\"%s%s}", fixture->root,
                          more != NULL ? ", " : "", more != NULL ? more : "");
}

/* The structured result of a tool call that must succeed. */
static JsonObject *
call_tool_ok (Fixture    *fixture,
              const char *name,
              const char *arguments,
              JsonNode  **root)
{
  g_autoptr(GError) error = NULL;
  JsonObject *result;

  g_clear_pointer (root, json_node_unref);
  result = call_tool (fixture, name, arguments, root, &error);
  g_assert_no_error (error);
  if (json_object_get_boolean_member (result, "isError"))
    g_error ("%s %s: %s", name, arguments,
             json_object_get_string_member (json_array_get_object_element (
               json_object_get_array_member (result, "content"), 0), "text"));
  return json_object_get_object_member (result, "structuredContent");
}

/* The daemon keeps reading the SQLite index it serves (its reader stays open) while
 * codebase_migrate copies it, artifacts included, to Qdrant and back: code and context
 * searches answer after each copy. */
static void
test_migrate_round_trip (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(QdrantServer) server = qdrant_server_new (NULL);
  g_autofree char *index = project_arguments (fixture, "\"wait\": true");
  g_autofree char *context = project_arguments (fixture, NULL);
  g_autofree char *context_query = project_arguments (fixture, "\"query\": \"daemon tests\"");
  g_autofree char *code_query = project_arguments (fixture, "\"query\": \"parse_request_header\"");
  const char *stores[] = { "qdrant", "sqlite" };
  g_autoptr(JsonNode) root = NULL;
  JsonObject *result;

  set_daemon_environment (fixture, g_variant_new_parsed ("{'LODE_QDRANT_URL': %s, "
                                                         "'GIO_USE_PROXY_RESOLVER': 'dummy'}",
                                                         server->url));
  test_write_file (fixture->root, ".lode.json",
                   "{\"contextArtifacts\": [{\"name\": \"readme\", \"path\": \"README.md\"}]}");
  call_tool_ok (fixture, "codebase_index", index, &root);
  call_tool_ok (fixture, "codebase_context_index", context, &root);
  result = call_tool_ok (fixture, "codebase_context_search", context_query, &root);
  g_assert_cmpint (json_object_get_int_member (result, "total"), ==, 1);

  for (guint i = 0; i < G_N_ELEMENTS (stores); i++)
    {
      g_autofree char *to = g_strdup_printf ("\"to\": \"%s\"", stores[i]);
      g_autofree char *migrate = project_arguments (fixture, to);

      result = call_tool_ok (fixture, "codebase_migrate", migrate, &root);
      g_assert_cmpint (json_object_get_int_member (result, "artifacts"), ==, 1);
      result = call_tool_ok (fixture, "codebase_search", code_query, &root);
      g_assert_cmpint (json_object_get_int_member (result, "total"), >=, 1);
      result = call_tool_ok (fixture, "codebase_context_search", context_query, &root);
      g_assert_cmpint (json_object_get_int_member (result, "total"), ==, 1);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_autofree char *tiny_bert = NULL;

  test_kill_descendants_at_exit ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);
  tiny_bert = g_build_filename (g_getenv ("G_TEST_BUILDDIR"), "liblode", "fixtures",
                                "tiny-bert-random", NULL);
  /* Registers the D-Bus error names, so that replies map back to LODE_ERROR. */
  g_assert_cmpuint (LODE_ERROR, !=, 0);

#define ADD(name, func) \
  g_test_add ("/lode/daemon/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("activation-and-methods", test_activation_and_methods);
  ADD ("bad-input", test_bad_input);
  ADD ("call-tool", test_call_tool);
  ADD ("whole-system", test_whole_system);
  ADD ("watch-whole-system", test_watch_whole_system);
  ADD ("watch-list-whole-system", test_watch_list_whole_system);
  ADD ("raw-text", test_raw_text);
  ADD ("watch", test_watch);
  ADD ("restart-catches-up", test_restart_catches_up);
  ADD ("two-clients-join", test_two_clients_join);
  ADD ("client-vanishes", test_client_vanishes);
  ADD ("call-tool-progress", test_call_tool_progress);
  ADD ("cancel-tool", test_cancel_tool);
  ADD ("cli-same-results", test_cli_same_results);
  ADD ("mcp-same-results", test_mcp_same_results);
  ADD ("mcp-progress", test_mcp_progress);
  ADD ("host-environment", test_host_environment);
  ADD ("remove-stops-watching", test_remove_stops_watching);
  ADD ("stop-any-run", test_stop_any_run);
  ADD ("one-job", test_one_job);
  ADD ("daemon-dies-during-call", test_daemon_dies_during_call);
  g_test_add ("/lode/daemon/force-keeps-embedder", Fixture, tiny_bert,
              fixture_setup, test_force_keeps_embedder, fixture_teardown);
  ADD ("mcp-same-errors", test_mcp_same_errors);
  ADD ("migrate-round-trip", test_migrate_round_trip);

  return g_test_run ();
}
