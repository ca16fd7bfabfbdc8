/* daemon-bench.c — save → searchable latency and concurrent searches through loded
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <locale.h>
#include <stdlib.h>

#include "lode-dbus-daemon.h"

/*
 * daemon-bench SMALL_TREE LARGE_TREE (run inside bench/daemon-bench.sh, which gives it a
 * private bus where the build-tree loded is activatable):
 *
 * 1. indexes LARGE_TREE from scratch while 8 clients, each on its own connection, search
 *    SMALL_TREE as fast as they can: searches/s and failed requests;
 * 2. watches each tree and edits one file in it 100 times, each time measuring how long until
 *    a search finds the new content (polling every 5 ms): p50/p95/p99/max, debounce included,
 *    with the daemon's default settings.
 */

#define N_EDITS   100
#define N_CLIENTS 8

static LodeDBusDaemon1 *
new_client (void)
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

static gboolean
finds (LodeDBusDaemon1 *proxy,
       const char      *root,
       const char      *query)
{
  g_autoptr(GVariant) results = NULL;
  g_autoptr(GError) error = NULL;

  if (!lode_dbus_daemon1_call_search_sync (proxy, root, query, g_variant_new ("a{sv}", NULL),
                                           &results, NULL, NULL, &error))
    g_error ("Search failed: %s", error->message);
  return g_variant_n_children (results) > 0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db;
}

typedef struct
{
  const char *root;
  gint        stop;
  guint       done;
  guint       failed;
} Clients;

static gpointer
client_thread_func (gpointer data)
{
  Clients *clients = data;
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autoptr(LodeDBusDaemon1) proxy = NULL;
  static const char *const queries[] = { "bench_token", "main", "edit", "int value" };
  guint i = 0;

  g_main_context_push_thread_default (context);
  proxy = new_client ();
  while (!g_atomic_int_get (&clients->stop))
    {
      g_autoptr(GVariant) results = NULL;
      g_autoptr(GError) error = NULL;

      if (lode_dbus_daemon1_call_search_sync (proxy, clients->root, queries[i++ % 4],
                                              g_variant_new ("a{sv}", NULL), &results, NULL, NULL,
                                              &error))
        g_atomic_int_inc (&clients->done);
      else
        {
          g_printerr ("search failed: %s\n", error->message);
          g_atomic_int_inc (&clients->failed);
        }
    }
  g_main_context_pop_thread_default (context);

  return NULL;
}

/* Watches @root and saves one file in it N_EDITS times, each time waiting until a search
 * finds what was saved. */
static void
measure_saves (LodeDBusDaemon1 *proxy,
               const char      *root)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *file = g_build_filename (root, "bench_edit.c", NULL);
  double latencies[N_EDITS];

  if (!lode_dbus_daemon1_call_watch_sync (proxy, root, TRUE, &reply, NULL, &error))
    g_error ("%s", error->message);
  /* The catch-up run that watching starts. */
  g_usleep (2 * G_USEC_PER_SEC);

  for (guint i = 0; i < N_EDITS; i++)
    {
      g_autofree char *token = g_strdup_printf ("bench_token_%u_%d", i, g_random_int ());
      g_autofree char *text = g_strdup_printf ("int %s = %u;\n", token, i);
      gint64 saved;

      if (!g_file_set_contents (file, text, -1, &error))
        g_error ("%s", error->message);
      saved = g_get_monotonic_time ();
      while (!finds (proxy, root, token))
        g_usleep (5000);
      latencies[i] = (g_get_monotonic_time () - saved) / 1000.0;
    }
  qsort (latencies, N_EDITS, sizeof (double), compare_doubles);
  g_print ("save → searchable in %s over %d edits: p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, "
           "max %.0f ms\n", root, N_EDITS, latencies[N_EDITS / 2], latencies[N_EDITS * 95 / 100],
           latencies[N_EDITS * 99 / 100], latencies[N_EDITS - 1]);

  g_unlink (file);
  g_clear_pointer (&reply, g_variant_unref);
  lode_dbus_daemon1_call_watch_sync (proxy, root, FALSE, &reply, NULL, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(LodeDBusDaemon1) proxy = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  GThread *threads[N_CLIENTS];
  Clients clients = { 0 };
  gint64 started;
  double seconds;

  setlocale (LC_ALL, "");

  if (argc != 3)
    {
      g_printerr ("Usage: daemon-bench SMALL_TREE LARGE_TREE\n");
      return 2;
    }

  proxy = new_client ();
  if (!lode_dbus_daemon1_call_index_sync (proxy, argv[1], FALSE, &reply, NULL, &error))
    g_error ("%s", error->message);

  clients.root = argv[1];
  for (guint i = 0; i < N_CLIENTS; i++)
    threads[i] = g_thread_new ("client", client_thread_func, &clients);

  started = g_get_monotonic_time ();
  g_clear_pointer (&reply, g_variant_unref);
  if (!lode_dbus_daemon1_call_index_sync (proxy, argv[2], TRUE, &reply, NULL, &error))
    g_error ("%s", error->message);
  seconds = (g_get_monotonic_time () - started) / (double) G_USEC_PER_SEC;

  g_atomic_int_set (&clients.stop, 1);
  for (guint i = 0; i < N_CLIENTS; i++)
    g_thread_join (threads[i]);

  g_print ("%d clients while %s indexed (%.1f s): %u searches, %.0f searches/s, "
           "%u failed\n", N_CLIENTS, argv[2], seconds, clients.done, clients.done / seconds,
           clients.failed);

  for (int tree = 1; tree <= 2; tree++)
    measure_saves (proxy, argv[tree]);

  return clients.failed == 0 ? 0 : 1;
}
