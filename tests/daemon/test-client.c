/* test-client.c — LodeClient against the build-tree loded on a private bus
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>

#include "lode-client.h"
#include "lode-json.h"
#include "lode-mcp-session.h"
#include "lode-variant.h"
#include "test-helpers.h"

/*
 * Each fixture gets a private bus; the service directory that activates loded is added only
 * when the fixture data says so, so that a client can also meet a bus without a daemon.
 */

#define WAIT_SECONDS 60

typedef struct
{
  GTestDBus *bus;
  char      *tmp;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  gboolean with_daemon = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-client-XXXXXX", &error);
  g_assert_no_error (error);
  data_dir = g_build_filename (fixture->tmp, "data", NULL);
  /* The activated daemon inherits this environment through the bus. */
  g_setenv ("LODE_DATA_DIR", data_dir, TRUE);
  g_setenv ("LODE_EMBEDDING_PROVIDER", "none", TRUE);
  g_unsetenv ("LODE_EXTRA_EXTENSIONS");
  g_unsetenv ("LODE_NO_DAEMON");

  /* Without the daemon, the bus still has a service directory (an empty one), as a session
   * bus has: dbus-daemon answers StartServiceByName differently when it has none. */
  fixture->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (fixture->bus, with_daemon ? LODE_TEST_SERVICES_DIR : fixture->tmp);
  g_test_dbus_up (fixture->bus);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_test_dbus_down (fixture->bus);
  g_clear_object (&fixture->bus);
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
}

static gboolean
timeout_cb (gpointer user_data)
{
  g_error ("Timed out waiting for the client");
  return G_SOURCE_REMOVE;
}

static void
ready_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

static GAsyncResult *
wait_for (GAsyncResult **result)
{
  guint timeout = g_timeout_add_seconds (WAIT_SECONDS, timeout_cb, NULL);

  while (*result == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  return *result;
}

static void
name_appeared_cb (GDBusConnection *connection,
                  const char      *name,
                  const char      *owner,
                  gpointer         user_data)
{
  *(gboolean *) user_data = TRUE;
}

static void
wait_until_true (gboolean *flag)
{
  guint timeout = g_timeout_add_seconds (WAIT_SECONDS, timeout_cb, NULL);

  while (!*flag)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
}

static LodeConfig *
load_config (void)
{
  g_autoptr(GError) error = NULL;
  LodeConfig *config = lode_config_load (&error);

  g_assert_no_error (error);
  return config;
}

static gboolean
count_tick_cb (gpointer user_data)
{
  (*(guint *) user_data)++;
  return G_SOURCE_CONTINUE;
}

/* The asynchronous constructor activates loded without holding up the main context, and the
 * client it gives calls the daemon's tools. */
static void
test_new_async (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(LodeConfig) config = load_config ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(LodeToolResult) listed = NULL;
  g_autoptr(GError) error = NULL;
  guint ticks = 0;
  guint tick;

  tick = g_timeout_add (1, count_tick_cb, &ticks);
  lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, NULL, ready_cb, &result);
  client = lode_client_new_finish (wait_for (&result), &error);
  g_source_remove (tick);
  g_assert_no_error (error);
  g_assert_true (lode_client_is_remote (client));
  g_assert_null (lode_client_get_notice (client));
  /* Starting loded takes many milliseconds, during which the main context kept running. */
  g_assert_cmpuint (ticks, >, 1);

  listed = lode_client_call_tool (client, "codebase_list_projects", NULL, NULL, NULL, NULL,
                                  &error);
  g_assert_no_error (error);
  g_assert_false (listed->is_error);
  g_assert_cmpint (json_object_get_int_member (listed->structured, "total"), ==, 0);
}

/* Without a daemon to activate, a daemon-only client is an error that names loded, and an
 * automatic one runs the engine itself and says why. */
static void
test_new_async_no_daemon (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(LodeConfig) config = load_config ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) auto_result = NULL;
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(LodeClient) local = NULL;
  g_autoptr(GError) error = NULL;

  lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, NULL, ready_cb, &result);
  client = lode_client_new_finish (wait_for (&result), &error);
  g_assert_null (client);
  g_assert_error (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN);
  g_assert_true (g_str_has_prefix (error->message, "Cannot reach Lode's daemon (loded): "));
  g_clear_error (&error);

  lode_client_new_async (config, LODE_CLIENT_AUTO, NULL, ready_cb, &auto_result);
  local = lode_client_new_finish (wait_for (&auto_result), &error);
  g_assert_no_error (error);
  g_assert_false (lode_client_is_remote (local));
  g_assert_nonnull (lode_client_get_notice (local));
}

/* A call's GAsyncResult ends with the call: in this process, through the daemon, and with a
 * daemon for arguments the client refuses itself. Each call in this process used to keep its
 * task for the life of the process. */
typedef struct
{
  gboolean      ended;
  GAsyncResult *result;   /* weak */
} CallEnd;

static void
call_ended_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  CallEnd *end = user_data;
  g_autoptr(LodeToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  tool_result = lode_client_call_tool_finish (LODE_CLIENT (object), result, &error);
  g_assert_no_error (error);
  g_assert_nonnull (tool_result);
  end->ended = TRUE;
  end->result = result;
  g_object_add_weak_pointer (G_OBJECT (result), (gpointer *) &end->result);
}

static void
assert_calls_end (LodeClient *client,
                  const char *arguments)
{
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(JsonNode) node = json_from_string (arguments, NULL);
      CallEnd end = { FALSE, NULL };
      guint timeout = g_timeout_add_seconds (WAIT_SECONDS, timeout_cb, NULL);

      lode_client_call_tool_async (client, "codebase_list_projects", json_node_get_object (node),
                                   NULL, NULL, NULL, NULL, NULL, call_ended_cb, &end);
      while (!end.ended)
        g_main_context_iteration (NULL, TRUE);
      while (end.result != NULL && g_main_context_iteration (NULL, FALSE))
        ;
      g_source_remove (timeout);
      if (end.result != NULL)
        g_object_remove_weak_pointer (G_OBJECT (end.result), (gpointer *) &end.result);
      g_assert_null (end.result);
    }
}

static void
test_calls_end (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(LodeConfig) config = load_config ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GAsyncResult) daemon_result = NULL;
  g_autoptr(LodeClient) local = NULL;
  g_autoptr(LodeClient) remote = NULL;
  g_autoptr(GError) error = NULL;

  lode_client_new_async (config, LODE_CLIENT_IN_PROCESS, NULL, ready_cb, &result);
  local = lode_client_new_finish (wait_for (&result), &error);
  g_assert_no_error (error);
  assert_calls_end (local, "{}");

  lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, NULL, ready_cb, &daemon_result);
  remote = lode_client_new_finish (wait_for (&daemon_result), &error);
  g_assert_no_error (error);
  g_assert_true (lode_client_is_remote (remote));
  assert_calls_end (remote, "{}");
  /* Refused here, by the registry the daemon would run: an error result, no D-Bus call. */
  assert_calls_end (remote, "{\"unknown\": 1}");
}

static void
test_new_async_cancelled (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(LodeConfig) config = load_config ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(GError) error = NULL;

  lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, cancellable, ready_cb, &result);
  g_cancellable_cancel (cancellable);
  client = lode_client_new_finish (wait_for (&result), &error);
  g_assert_null (client);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* A configuration the daemon cannot take on (extra extensions hold for its whole process)
 * fails the call of a daemon-only client, which never runs the engine itself; an automatic
 * client runs that call in this process instead. */
static void
test_daemon_only_never_in_process (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(LodeClient) automatic = NULL;
  g_autoptr(LodeToolResult) refused = NULL;
  g_autoptr(LodeToolResult) local = NULL;
  g_autoptr(GError) error = NULL;

  /* Set after the bus started: loded, activated by it, does not see it. */
  g_setenv ("LODE_EXTRA_EXTENSIONS", ".tpl=html", TRUE);
  config = load_config ();

  lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, NULL, ready_cb, &result);
  client = lode_client_new_finish (wait_for (&result), &error);
  g_assert_no_error (error);

  refused = lode_client_call_tool (client, "codebase_list_projects", NULL, NULL, NULL, NULL,
                                   &error);
  g_assert_null (refused);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_UNSUPPORTED);
  g_assert_true (lode_client_is_remote (client));
  g_assert_null (lode_client_get_notice (client));
  g_clear_error (&error);

  automatic = lode_client_new (config, LODE_CLIENT_AUTO, &error);
  g_assert_no_error (error);
  local = lode_client_call_tool (automatic, "codebase_list_projects", NULL, NULL, NULL, NULL,
                                 &error);
  g_assert_no_error (error);
  g_assert_false (local->is_error);
  g_assert_false (lode_client_is_remote (automatic));
  g_unsetenv ("LODE_EXTRA_EXTENSIONS");
}

/* A loded that was started some other way than by activation (its systemd unit, a developer's
 * shell) serves clients on a bus that has no service file for it. */
static void
test_running_daemon_without_service_file (Fixture       *fixture,
                                          gconstpointer  data)
{
  g_autoptr(LodeConfig) config = load_config ();
  g_autoptr(GSubprocess) loded = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(LodeToolResult) listed = NULL;
  g_autoptr(GError) error = NULL;
  gboolean owned = FALSE;
  guint watch;

  loded = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, LODE_TEST_LODED, NULL);
  g_assert_no_error (error);
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  watch = g_bus_watch_name_on_connection (bus, LODE_DAEMON_BUS_NAME,
                                          G_BUS_NAME_WATCHER_FLAGS_NONE, name_appeared_cb, NULL,
                                          &owned, NULL);
  wait_until_true (&owned);
  g_bus_unwatch_name (watch);

  client = lode_client_new (config, LODE_CLIENT_DAEMON_ONLY, &error);
  g_assert_no_error (error);
  g_assert_true (lode_client_is_remote (client));
  listed = lode_client_call_tool (client, "codebase_list_projects", NULL, NULL, NULL, NULL,
                                  &error);
  g_assert_no_error (error);
  g_assert_false (listed->is_error);

  g_subprocess_send_signal (loded, SIGTERM);
  g_subprocess_wait (loded, NULL, &error);
  g_assert_no_error (error);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

/* Calls cancelled at every moment of their life — before the daemon has them, while it
 * indexes — each end (cancelled or done), and the daemon is told: no run is left going. The
 * cancel handler once made a D-Bus call from inside g_cancellable_cancel(), which could
 * deadlock against GDBus's worker thread disconnecting from the same cancellable. */
static void
test_cancel_calls (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(LodeConfig) config = load_config ();
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tree = g_build_filename (fixture->tmp, "tree", NULL);
  g_autoptr(JsonObject) arguments = json_object_new ();
  guint n_cancelled = 0;

  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/dir%u/file%u.c", tree, i % 10, i);
      g_autofree char *dir = g_path_get_dirname (path);
      g_autofree char *text = g_strdup_printf ("int function_%u (int x) { return x * %u; }\n",
                                               i, i);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      g_assert_true (g_file_set_contents (path, text, -1, NULL));
    }

  lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, NULL, ready_cb, &result);
  client = lode_client_new_finish (wait_for (&result), &error);
  g_assert_no_error (error);

  json_object_set_string_member (arguments, "projectPath", tree);
  json_object_set_boolean_member (arguments, "force", TRUE);
  for (guint i = 0; i < 40; i++)
    {
      g_autoptr(GCancellable) cancellable = g_cancellable_new ();
      g_autoptr(GAsyncResult) call_result = NULL;
      g_autoptr(LodeToolResult) tool_result = NULL;
      g_autoptr(GError) call_error = NULL;

      lode_client_call_tool_async (client, "codebase_index", arguments, NULL, NULL, NULL, NULL,
                                   cancellable, ready_cb, &call_result);
      if (i % 4 == 0)
        g_cancellable_cancel (cancellable);
      else
        g_timeout_add_full (G_PRIORITY_DEFAULT, i % 13, cancel_cb, g_object_ref (cancellable),
                            g_object_unref);
      tool_result = lode_client_call_tool_finish (client, wait_for (&call_result), &call_error);
      if (g_error_matches (call_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        n_cancelled++;
      else
        g_assert_no_error (call_error);
    }
  g_assert_cmpuint (n_cancelled, >=, 10);

  /* The daemon heard every CancelTool: nothing runs for the tree a while later. */
  for (guint tries = 0;; tries++)
    {
      g_autoptr(JsonObject) status_arguments = json_object_new ();
      g_autoptr(LodeToolResult) status = NULL;

      json_object_set_string_member (status_arguments, "projectPath", tree);
      status = lode_client_call_tool (client, "codebase_status", status_arguments, NULL, NULL,
                                      NULL, &error);
      g_assert_no_error (error);
      if (!json_object_get_boolean_member_with_default (status->structured, "indexing", FALSE))
        break;
      g_assert_cmpuint (tries, <, WAIT_SECONDS * 10);
      g_usleep (100 * 1000);
    }
}

/* What a D-Bus client gets from Status carries what codebase_status says: the branch. */
static void
test_status_variant_branch (void)
{
  g_autoptr(LodeProjectStatus) status = g_new0 (LodeProjectStatus, 1);
  g_autoptr(GVariant) variant = NULL;
  const char *branch = NULL, *fallback = NULL;

  status->root = g_strdup ("/src/tree");
  status->id = g_strdup ("0123abcd");
  status->languages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  status->branch = g_strdup ("feature/x");
  status->branch_fallback = g_strdup ("main");
  variant = g_variant_ref_sink (lode_project_status_to_variant (status));
  g_assert_true (g_variant_lookup (variant, "branch", "&s", &branch));
  g_assert_cmpstr (branch, ==, "feature/x");
  g_assert_true (g_variant_lookup (variant, "branch_fallback", "&s", &fallback));
  g_assert_cmpstr (fallback, ==, "main");

  g_clear_pointer (&status->branch, g_free);
  g_clear_pointer (&status->branch_fallback, g_free);
  g_clear_pointer (&variant, g_variant_unref);
  variant = g_variant_ref_sink (lode_project_status_to_variant (status));
  g_assert_false (g_variant_lookup (variant, "branch", "&s", &branch));
}

static void
mcp_send_cb (const char *message,
             gpointer    tag,
             gboolean    final,
             gpointer    user_data)
{
  GPtrArray *sent = user_data;

  if (message != NULL)
    g_ptr_array_add (sent, lode_json_parse (message, -1, NULL));
}

/* The log message of the session that says @root was indexed, or NULL. */
static const char *
find_indexed_log (GPtrArray  *sent,
                  const char *root)
{
  g_autofree char *expected = g_strdup_printf ("Indexed %s", root);

  for (guint i = 0; i < sent->len; i++)
    {
      JsonObject *message = json_node_get_object (g_ptr_array_index (sent, i));
      JsonObject *params;

      if (g_strcmp0 (json_object_get_string_member_with_default (message, "method", NULL),
                     "notifications/message") != 0)
        continue;
      params = json_object_get_object_member (message, "params");
      if (g_strcmp0 (json_object_get_string_member (params, "data"), expected) == 0)
        return json_object_get_string_member (params, "level");
    }

  return NULL;
}

/* A job of a one-file tree ends within a second or two. */
#define LOG_WAIT_SECONDS 20

static gboolean
no_log_cb (gpointer user_data)
{
  g_error ("The MCP session did not announce the end of the job");
  return G_SOURCE_REMOVE;
}

/* An MCP session announces the end of a job in its log, whether loded or this process runs
 * the tools: the end comes through the client. Through loded it used to be awaited from the
 * engine of this process, which runs nothing then, so the message never came. */
static void
test_mcp_index_finished (Fixture       *fixture,
                         gconstpointer  data)
{
  gboolean with_daemon = GPOINTER_TO_INT (data);
  g_autoptr(LodeConfig) config = load_config ();
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(LodeMcpSession) session = NULL;
  g_autoptr(GPtrArray) sent = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autoptr(GError) error = NULL;
  g_autofree char *tree = g_build_filename (fixture->tmp, "tree", NULL);
  g_autofree char *root = NULL;
  g_autofree char *call = NULL;
  const char *messages[] = {
    "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": \"initialize\", \"params\": "
    "{\"protocolVersion\": \"2025-11-25\", \"capabilities\": {}, "
    "\"clientInfo\": {\"name\": \"test\", \"version\": \"1\"}}}",
    "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}",
    "{\"jsonrpc\": \"2.0\", \"id\": 2, \"method\": \"logging/setLevel\", "
    "\"params\": {\"level\": \"info\"}}",
  };
  guint timeout;

  test_write_file (tree, "src/ledger.c", "int\nledger_balance (void)\n{\n  return 0;\n}\n");
  root = realpath (tree, NULL);
  client = lode_client_new (config, LODE_CLIENT_AUTO, &error);
  g_assert_no_error (error);
  g_assert_true (lode_client_is_remote (client) == with_daemon);

  session = lode_mcp_session_new (client, FALSE, mcp_send_cb, sent);
  for (guint i = 0; i < G_N_ELEMENTS (messages); i++)
    lode_mcp_session_receive (session, messages[i], strlen (messages[i]), NULL);
  call = g_strdup_printf ("{\"jsonrpc\": \"2.0\", \"id\": 3, \"method\": \"tools/call\", "
                          "\"params\": {\"name\": \"codebase_update\", "
                          "\"arguments\": {\"projectPath\": \"%s\"}}}", root);
  lode_mcp_session_receive (session, call, strlen (call), NULL);

  timeout = g_timeout_add_seconds (LOG_WAIT_SECONDS, no_log_cb, NULL);
  while (find_indexed_log (sent, root) == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (timeout);
  g_assert_cmpstr (find_indexed_log (sent, root), ==, "info");
  lode_mcp_session_close (session);
}

int
main (int   argc,
      char *argv[])
{
  test_kill_descendants_at_exit ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, with_daemon, func) \
  g_test_add ("/lode/client/" name, Fixture, GINT_TO_POINTER (with_daemon), fixture_setup, \
              func, fixture_teardown)
  ADD ("new-async", TRUE, test_new_async);
  ADD ("new-async-no-daemon", FALSE, test_new_async_no_daemon);
  ADD ("new-async-cancelled", TRUE, test_new_async_cancelled);
  ADD ("daemon-only-never-in-process", TRUE, test_daemon_only_never_in_process);
  ADD ("running-daemon-without-service-file", FALSE, test_running_daemon_without_service_file);
  ADD ("cancel-calls", TRUE, test_cancel_calls);
  ADD ("calls-end", TRUE, test_calls_end);
  ADD ("mcp-index-finished", TRUE, test_mcp_index_finished);
  ADD ("mcp-index-finished-in-process", FALSE, test_mcp_index_finished);
#undef ADD
  g_test_add_func ("/lode/client/status-variant-branch", test_status_variant_branch);

  return g_test_run ();
}
