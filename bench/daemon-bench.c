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
#include <string.h>

#include "daemon-clients.h"
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
 *
 * daemon-bench --load LODE_MCP LARGE_TREE WATCHED_REPO [SEARCHES] (bench/daemon-bench.sh
 * --load): indexes both trees and watches WATCHED_REPO (a git repository with branches `main`
 * and `feature`); then re-indexes LARGE_TREE from scratch and checks out `feature` while 8
 * lode-mcp clients (over stdio) and 2 D-Bus clients make SEARCHES searches each (default
 * 1,000), over both trees in turn. Prints errors, p50/p99/max per kind of client, loded's RSS
 * before and after; then the same searches again, alone, and the RSS after them. A watchdog
 * aborts the run if it does not end.
 */

#define N_EDITS   100
#define N_CLIENTS 8
#define LOAD_MCP_CLIENTS  8
#define LOAD_DBUS_CLIENTS 2
#define LOAD_WATCHDOG_SECONDS 1800

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
  proxy = daemon_client_new_proxy ();
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
  qsort (latencies, N_EDITS, sizeof (double), daemon_compare_doubles);
  g_print ("save → searchable in %s over %d edits: p50 %.0f ms, p95 %.0f ms, p99 %.0f ms, "
           "max %.0f ms\n", root, N_EDITS, latencies[N_EDITS / 2], latencies[N_EDITS * 95 / 100],
           latencies[N_EDITS * 99 / 100], latencies[N_EDITS - 1]);

  g_unlink (file);
  g_clear_pointer (&reply, g_variant_unref);
  lode_dbus_daemon1_call_watch_sync (proxy, root, FALSE, &reply, NULL, NULL);
}

static void
index_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  gint64 *ended = user_data;

  if (!lode_dbus_daemon1_call_index_finish (LODE_DBUS_DAEMON1 (object), &reply, result, &error))
    g_error ("The re-index failed: %s", error->message);
  *ended = g_get_monotonic_time ();
}

/* Whether loded is done with @root: no job running, the index ready. */
static gboolean
idle (LodeDBusDaemon1 *proxy,
      const char      *root)
{
  g_autoptr(GVariant) status = NULL;
  g_autoptr(GError) error = NULL;
  const char *state = NULL;
  gboolean indexing = TRUE;

  if (!lode_dbus_daemon1_call_status_sync (proxy, root, &status, NULL, &error))
    g_error ("Status failed: %s", error->message);
  g_variant_lookup (status, "state", "&s", &state);
  g_variant_lookup (status, "indexing", "b", &indexing);
  return !indexing && g_strcmp0 (state, "ready") == 0;
}

static void
print_stats (const char            *label,
             const DaemonLoadStats *stats)
{
  g_print ("  %-6s %6u answered, %u errors; p50 %.1f ms, p99 %.1f ms, max %.1f ms\n", label,
           stats->answered, stats->errors, daemon_load_percentile (stats, 50),
           daemon_load_percentile (stats, 99), daemon_load_percentile (stats, 100));
  if (stats->first_error != NULL)
    g_print ("         first error: %s\n", stats->first_error);
}

static int
run_load (const char *lode_mcp,
          const char *large,
          const char *watched,
          guint       n_searches)
{
  g_autoptr(LodeDBusDaemon1) proxy = daemon_client_new_proxy ();
  g_autoptr(DaemonLoad) load = NULL;
  g_autoptr(DaemonLoad) again = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  const char *roots[] = { large, watched, NULL };
  const char *checkout[] = { "git", "-C", watched, "checkout", "-q", "feature", NULL };
  DaemonLoadSpec spec = {
    .lode_mcp = lode_mcp,
    .roots = roots,
    .n_mcp = LOAD_MCP_CLIENTS,
    .n_dbus = LOAD_DBUS_CLIENTS,
    .n_searches = n_searches,
  };
  const DaemonLoadStats *mcp, *dbus;
  gint64 started, searched, reindexed = 0, switched;
  guint pid;
  guint64 rss_before, rss_searched;
  guint errors;
  int status;

  for (guint i = 0; i < 2; i++)
    {
      g_clear_pointer (&reply, g_variant_unref);
      if (!lode_dbus_daemon1_call_index_sync (proxy, roots[i], FALSE, &reply, NULL, &error))
        g_error ("%s", error->message);
    }
  g_clear_pointer (&reply, g_variant_unref);
  if (!lode_dbus_daemon1_call_watch_sync (proxy, watched, TRUE, &reply, NULL, &error))
    g_error ("%s", error->message);
  while (!idle (proxy, watched))
    g_usleep (100 * 1000);
  pid = daemon_pid (proxy);
  rss_before = daemon_rss_kib (pid);

  started = g_get_monotonic_time ();
  lode_dbus_daemon1_call_index (proxy, large, TRUE, NULL, index_done_cb, &reindexed);
  if (!g_spawn_sync (NULL, (char **) checkout, NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, NULL,
                     NULL, &status, &error) || !g_spawn_check_wait_status (status, &error))
    g_error ("git checkout failed: %s", error->message);
  switched = g_get_monotonic_time ();
  load = daemon_load_start (&spec);
  daemon_watchdog_start (LOAD_WATCHDOG_SECONDS, load);
  daemon_load_wait (load);
  searched = g_get_monotonic_time ();
  rss_searched = daemon_rss_kib (pid);
  while (reindexed == 0)
    g_main_context_iteration (NULL, TRUE);
  while (!idle (proxy, watched))
    g_usleep (100 * 1000);
  daemon_watchdog_stop ();

  mcp = daemon_load_stats (load, TRUE);
  dbus = daemon_load_stats (load, FALSE);
  errors = mcp->errors + dbus->errors;
  g_print ("%u MCP + %u D-Bus clients × %u searches over %s and %s, while %s was re-indexed "
           "(%.1f s) and %s switched branch (%.1f s after the switch, the searches ended):\n",
           spec.n_mcp, spec.n_dbus, n_searches, large, watched, large,
           (reindexed - started) / (double) G_USEC_PER_SEC, watched,
           (searched - switched) / (double) G_USEC_PER_SEC);
  print_stats ("MCP", mcp);
  print_stats ("D-Bus", dbus);
  g_print ("  %.0f searches/s; the re-index %s before the searches ended\n",
           (mcp->answered + dbus->answered) / ((searched - switched) / (double) G_USEC_PER_SEC),
           reindexed <= searched ? "ended" : "had not ended");
  g_print ("  loded (pid %u) RSS: %.1f MiB before, %.1f MiB when the searches ended, "
           "%.1f MiB when idle again\n", pid, rss_before / 1024.0, rss_searched / 1024.0,
           daemon_rss_kib (pid) / 1024.0);

  /* The same searches again with nothing else going on: memory that grows with the
   * searches grows again here; the re-index's does not. */
  again = daemon_load_start (&spec);
  daemon_watchdog_start (LOAD_WATCHDOG_SECONDS, again);
  daemon_load_wait (again);
  daemon_watchdog_stop ();
  print_stats ("MCP", daemon_load_stats (again, TRUE));
  print_stats ("D-Bus", daemon_load_stats (again, FALSE));
  g_print ("  the same searches again, alone: loded's RSS %.1f MiB after them\n",
           daemon_rss_kib (pid) / 1024.0);
  errors += daemon_load_stats (again, TRUE)->errors + daemon_load_stats (again, FALSE)->errors;

  if (daemon_pid (proxy) != pid)
    {
      g_print ("  loded was restarted during the run\n");
      return 1;
    }
  return errors == 0 &&
         mcp->answered + dbus->answered == (spec.n_mcp + spec.n_dbus) * n_searches ? 0 : 1;
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

  if (argc >= 5 && strcmp (argv[1], "--load") == 0)
    return run_load (argv[2], argv[3], argv[4], argc > 5 ? atoi (argv[5]) : 1000);
  if (argc != 3)
    {
      g_printerr ("Usage: daemon-bench SMALL_TREE LARGE_TREE\n"
                  "       daemon-bench --load LODE_MCP LARGE_TREE WATCHED_REPO [SEARCHES]\n");
      return 2;
    }

  proxy = daemon_client_new_proxy ();
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
