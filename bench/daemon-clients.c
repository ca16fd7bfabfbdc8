/* daemon-clients.c — clients of loded: a proxy, its process, and a load of searching clients
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "daemon-clients.h"

/* A proxy for loded on a connection of its own to the session bus (activating loded if
 * needed), with no call timeout: a stuck daemon is the watchdog's to report. */
LodeDBusDaemon1 *
daemon_client_new_proxy (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *address = g_dbus_address_get_for_bus_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_autoptr(GDBusConnection) connection = NULL;
  LodeDBusDaemon1 *proxy;

  if (address == NULL)
    g_error ("No session bus: %s", error->message);
  connection = g_dbus_connection_new_for_address_sync (address,
                                                       G_DBUS_CONNECTION_FLAGS_AUTHENTICATION_CLIENT |
                                                       G_DBUS_CONNECTION_FLAGS_MESSAGE_BUS_CONNECTION,
                                                       NULL, NULL, &error);
  if (connection == NULL)
    g_error ("Cannot connect: %s", error->message);
  proxy = lode_dbus_daemon1_proxy_new_sync (connection, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                            LODE_DAEMON_BUS_NAME, LODE_DAEMON_OBJECT_PATH,
                                            NULL, &error);
  if (proxy == NULL)
    g_error ("No daemon: %s", error->message);
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), G_MAXINT);
  return proxy;
}

/* The process id of the loded that owns the daemon's name on @proxy's bus. */
guint
daemon_pid (LodeDBusDaemon1 *proxy)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  GDBusConnection *connection = g_dbus_proxy_get_connection (G_DBUS_PROXY (proxy));
  guint pid = 0;

  reply = g_dbus_connection_call_sync (connection, "org.freedesktop.DBus",
                                       "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "GetConnectionUnixProcessID",
                                       g_variant_new ("(s)", LODE_DAEMON_BUS_NAME),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                       NULL, &error);
  if (reply == NULL)
    g_error ("No process for %s: %s", LODE_DAEMON_BUS_NAME, error->message);
  g_variant_get (reply, "(u)", &pid);
  return pid;
}

/* The resident set of process @pid in KiB (VmRSS in /proc), 0 if unknown. */
guint64
daemon_rss_kib (guint pid)
{
  g_autofree char *path = g_strdup_printf ("/proc/%u/status", pid);
  g_autofree char *status = NULL;
  const char *line;

  if (!g_file_get_contents (path, &status, NULL, NULL) ||
      (line = strstr (status, "\nVmRSS:")) == NULL)
    return 0;
  return g_ascii_strtoull (line + strlen ("\nVmRSS:"), NULL, 10);
}

/* The load ------------------------------------------------------------------------------- */

static const char *const queries[] = {
  "main", "int value", "handle request", "compute total", "parse", "Service fetchItems",
};

typedef struct
{
  const DaemonLoadSpec *spec;
  guint                 index;
  gboolean              mcp;
  DaemonLoadStats       stats;
  gint                  n_done; /* searches answered or failed so far, for the watchdog */
} Client;

struct _DaemonLoad
{
  DaemonLoadSpec  spec;
  char          **roots;
  Client         *clients;
  GThread       **threads;
  guint           n_clients;
  DaemonLoadStats totals[2]; /* D-Bus, MCP */
};

static void
record (Client     *client,
        gint64      started,
        const char *error)
{
  if (error == NULL)
    {
      double msec = (g_get_monotonic_time () - started) / 1000.0;

      client->stats.answered++;
      g_array_append_val (client->stats.msec, msec);
    }
  else
    {
      client->stats.errors++;
      if (client->stats.first_error == NULL)
        client->stats.first_error = g_strdup (error);
    }
  g_atomic_int_inc (&client->n_done);
}

static const char *
query_root (Client *client,
            guint   i)
{
  const char * const *roots = client->spec->roots;
  guint n_roots = g_strv_length ((char **) roots);

  return roots[(client->index + i) % n_roots];
}

static gpointer
dbus_client_func (gpointer data)
{
  Client *client = data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(LodeDBusDaemon1) proxy = NULL;

  g_main_context_push_thread_default (context);
  proxy = daemon_client_new_proxy ();
  for (guint i = 0; i < client->spec->n_searches; i++)
    {
      g_autoptr(GVariant) results = NULL;
      g_autoptr(GError) error = NULL;
      gint64 started = g_get_monotonic_time ();

      lode_dbus_daemon1_call_search_sync (proxy, query_root (client, i),
                                          queries[(client->index + i) % G_N_ELEMENTS (queries)],
                                          g_variant_new ("a{sv}", NULL), &results, NULL, NULL,
                                          &error);
      record (client, started, error != NULL ? error->message : NULL);
    }
  g_main_context_pop_thread_default (context);

  return NULL;
}

/* Reads lode-mcp's messages until the reply to request @id: NULL when it is a result, else
 * the error (a JSON-RPC error, a tool error, or the end of the stream). */
static char *
mcp_read_reply (GDataInputStream *out,
                gint64            id)
{
  for (;;)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
      g_autoptr(JsonNode) message = NULL;
      JsonObject *object, *result;

      if (line == NULL)
        return g_strdup_printf ("lode-mcp ended: %s", error != NULL ? error->message : "EOF");
      message = json_from_string (line, &error);
      if (message == NULL || !JSON_NODE_HOLDS_OBJECT (message))
        return g_strdup_printf ("not a JSON-RPC message: %.200s", line);
      object = json_node_get_object (message);
      if (!json_object_has_member (object, "id") ||
          json_object_get_int_member_with_default (object, "id", -1) != id)
        continue;
      result = json_object_get_object_member (object, "result");
      if (result == NULL || json_object_get_boolean_member_with_default (result, "isError",
                                                                         FALSE))
        return g_strdup_printf ("%.300s", line);
      return NULL;
    }
}

static char *
mcp_request (GOutputStream    *in,
             GDataInputStream *out,
             gint64            id,
             const char       *method,
             JsonNode         *params)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) request = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *line = NULL;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, id);
  json_builder_set_member_name (builder, "method");
  json_builder_add_string_value (builder, method);
  json_builder_set_member_name (builder, "params");
  json_builder_add_value (builder, params);
  json_builder_end_object (builder);
  request = json_builder_get_root (builder);
  text = json_to_string (request, FALSE);
  line = g_strconcat (text, "\n", NULL);
  if (!g_output_stream_write_all (in, line, strlen (line), NULL, NULL, &error))
    return g_strdup_printf ("cannot write to lode-mcp: %s", error->message);

  return mcp_read_reply (out, id);
}

static gpointer
mcp_client_func (gpointer data)
{
  Client *client = data;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *failed = NULL;
  GOutputStream *in = NULL;
  const char *initialized = "{\"jsonrpc\": \"2.0\", \"method\": \"notifications/initialized\"}\n";
  guint i = 0;

  process = g_subprocess_new (G_SUBPROCESS_FLAGS_STDIN_PIPE | G_SUBPROCESS_FLAGS_STDOUT_PIPE,
                              &error, client->spec->lode_mcp, NULL);
  if (process == NULL)
    failed = g_strdup_printf ("cannot start lode-mcp: %s", error->message);
  else
    {
      in = g_subprocess_get_stdin_pipe (process);
      out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
      failed = mcp_request (in, out, 0, "initialize",
                            json_from_string ("{\"protocolVersion\": \"2025-11-25\", "
                                              "\"capabilities\": {}, \"clientInfo\": "
                                              "{\"name\": \"daemon-load\", \"version\": \"1\"}}",
                                              NULL));
      if (failed == NULL &&
          !g_output_stream_write_all (in, initialized, strlen (initialized), NULL, NULL, &error))
        failed = g_strdup_printf ("cannot write to lode-mcp: %s", error->message);
    }

  for (; failed == NULL && i < client->spec->n_searches; i++)
    {
      g_autoptr(JsonBuilder) builder = json_builder_new ();
      g_autofree char *reply_error = NULL;
      gint64 started = g_get_monotonic_time ();

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, "codebase_search");
      json_builder_set_member_name (builder, "arguments");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "projectPath");
      json_builder_add_string_value (builder, query_root (client, i));
      json_builder_set_member_name (builder, "query");
      json_builder_add_string_value (builder,
                                     queries[(client->index + i) % G_N_ELEMENTS (queries)]);
      json_builder_set_member_name (builder, "limit");
      json_builder_add_int_value (builder, 10);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
      reply_error = mcp_request (in, out, i + 1, "tools/call", json_builder_get_root (builder));
      record (client, started, reply_error);
      /* Without lode-mcp, the searches that remain can get no reply. */
      if (g_str_has_prefix (reply_error != NULL ? reply_error : "", "lode-mcp ended") ||
          g_str_has_prefix (reply_error != NULL ? reply_error : "", "cannot write"))
        failed = g_steal_pointer (&reply_error);
    }
  /* Searches never sent count as errors: every search must be answered. */
  for (; i < client->spec->n_searches; i++)
    record (client, 0, failed);

  if (process != NULL)
    {
      g_output_stream_close (in, NULL, NULL);
      g_subprocess_wait (process, NULL, NULL);
    }

  return NULL;
}

/* Starts @spec's clients, each in a thread of its own; they search at once, as fast as
 * they are answered. */
DaemonLoad *
daemon_load_start (const DaemonLoadSpec *spec)
{
  DaemonLoad *load = g_new0 (DaemonLoad, 1);

  load->spec = *spec;
  load->roots = g_strdupv ((char **) spec->roots);
  load->spec.roots = (const char * const *) load->roots;
  load->spec.lode_mcp = g_strdup (spec->lode_mcp);
  load->n_clients = spec->n_mcp + spec->n_dbus;
  load->clients = g_new0 (Client, load->n_clients);
  load->threads = g_new0 (GThread *, load->n_clients);
  for (guint c = 0; c < load->n_clients; c++)
    {
      Client *client = &load->clients[c];

      client->spec = &load->spec;
      client->index = c;
      client->mcp = c < spec->n_mcp;
      client->stats.msec = g_array_new (FALSE, FALSE, sizeof (double));
    }
  for (guint c = 0; c < load->n_clients; c++)
    load->threads[c] = g_thread_new (load->clients[c].mcp ? "mcp-client" : "dbus-client",
                                     load->clients[c].mcp ? mcp_client_func : dbus_client_func,
                                     &load->clients[c]);

  return load;
}

/* Orders doubles, for qsort() and g_array_sort(). */
int
daemon_compare_doubles (gconstpointer a,
                        gconstpointer b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db;
}

/* Waits until every client has made all its searches; sums their figures by kind. */
void
daemon_load_wait (DaemonLoad *load)
{
  for (guint k = 0; k < 2; k++)
    load->totals[k].msec = g_array_new (FALSE, FALSE, sizeof (double));
  for (guint c = 0; c < load->n_clients; c++)
    {
      Client *client = &load->clients[c];
      DaemonLoadStats *total = &load->totals[client->mcp];

      g_thread_join (g_steal_pointer (&load->threads[c]));
      total->answered += client->stats.answered;
      total->errors += client->stats.errors;
      g_array_append_vals (total->msec, client->stats.msec->data, client->stats.msec->len);
      if (total->first_error == NULL)
        total->first_error = g_strdup (client->stats.first_error);
    }
  for (guint k = 0; k < 2; k++)
    g_array_sort (load->totals[k].msec, daemon_compare_doubles);
}

/* The figures of the MCP clients (@mcp) or of the D-Bus ones, after daemon_load_wait(). */
const DaemonLoadStats *
daemon_load_stats (DaemonLoad *load,
                   gboolean    mcp)
{
  return &load->totals[mcp ? 1 : 0];
}

/* The @p-th percentile of @stats's latencies in ms (0 when none). */
double
daemon_load_percentile (const DaemonLoadStats *stats,
                        double                 p)
{
  guint n = stats->msec->len;

  if (n == 0)
    return 0;
  return g_array_index (stats->msec, double, MIN (n - 1, (guint) (p / 100 * n)));
}

static void
stats_clear (DaemonLoadStats *stats)
{
  g_clear_pointer (&stats->msec, g_array_unref);
  g_clear_pointer (&stats->first_error, g_free);
}

void
daemon_load_free (DaemonLoad *load)
{
  for (guint c = 0; c < load->n_clients; c++)
    {
      if (load->threads[c] != NULL)
        g_thread_join (load->threads[c]);
      stats_clear (&load->clients[c].stats);
    }
  for (guint k = 0; k < 2; k++)
    stats_clear (&load->totals[k]);
  g_free (load->clients);
  g_free (load->threads);
  g_strfreev (load->roots);
  g_free ((char *) load->spec.lode_mcp);
  g_free (load);
}

/* The watchdog ---------------------------------------------------------------------------- */

static struct
{
  GMutex      lock;
  GCond       stopped_cond;
  gboolean    stopped;
  gint64      deadline;
  DaemonLoad *load;
  GThread    *thread;
} watchdog;

static gpointer
watchdog_func (gpointer data)
{
  gboolean stopped;

  g_mutex_lock (&watchdog.lock);
  while (!watchdog.stopped &&
         g_cond_wait_until (&watchdog.stopped_cond, &watchdog.lock, watchdog.deadline))
    ;
  stopped = watchdog.stopped;
  g_mutex_unlock (&watchdog.lock);

  if (!stopped)
    {
      g_autoptr(GString) progress = g_string_new (NULL);

      for (guint c = 0; watchdog.load != NULL && c < watchdog.load->n_clients; c++)
        g_string_append_printf (progress, " %s client %u: %d of %u searches done;",
                                watchdog.load->clients[c].mcp ? "MCP" : "D-Bus", c,
                                g_atomic_int_get (&watchdog.load->clients[c].n_done),
                                watchdog.load->spec.n_searches);
      g_error ("Deadlock: the run did not end in time.%s", progress->str);
    }

  return NULL;
}

/* Aborts the process unless daemon_watchdog_stop() is called within @seconds, saying how far
 * @load's clients (if any) got. One watchdog at a time. */
void
daemon_watchdog_start (guint       seconds,
                       DaemonLoad *load)
{
  g_assert (watchdog.thread == NULL);
  watchdog.stopped = FALSE;
  watchdog.deadline = g_get_monotonic_time () + seconds * G_TIME_SPAN_SECOND;
  watchdog.load = load;
  watchdog.thread = g_thread_new ("watchdog", watchdog_func, NULL);
}

void
daemon_watchdog_stop (void)
{
  g_mutex_lock (&watchdog.lock);
  watchdog.stopped = TRUE;
  g_cond_signal (&watchdog.stopped_cond);
  g_mutex_unlock (&watchdog.lock);
  g_thread_join (g_steal_pointer (&watchdog.thread));
  watchdog.load = NULL;
}
