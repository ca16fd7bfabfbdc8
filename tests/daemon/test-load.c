/* test-load.c — MCP and D-Bus clients searching through loded while it re-indexes and
 * follows a branch switch
 *
 * A small version of bench/daemon-bench.sh --load: every search must be answered, none with
 * an error, and the whole run must end (a watchdog fails it otherwise). No timing is asserted.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>

#include <gio/gio.h>

#include "daemon-clients.h"
#include "generated-repo.h"
#include "lode-dbus-daemon.h"
#include "test-helpers.h"

#define N_MCP_CLIENTS  2
#define N_DBUS_CLIENTS 1
#define N_SEARCHES     50
/* Per phase, twice, within meson's 300 s: the run takes seconds; only a deadlock (or a
 * machine far too slow) reaches it. */
#define WATCHDOG_SECONDS 120

typedef struct
{
  GTestDBus       *bus;
  LodeDBusDaemon1 *proxy;
  char            *tmp;
  char            *reindexed; /* a project changed and indexed again during the load */
  char            *watched;   /* a watched git repository whose branch is switched */
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *reindexed = NULL;
  g_autofree char *watched = NULL;
  g_autofree char *data_dir = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-load-XXXXXX", &error);
  g_assert_no_error (error);
  reindexed = g_build_filename (fixture->tmp, "reindexed", NULL);
  watched = g_build_filename (fixture->tmp, "watched", NULL);
  test_write_generated_tree (reindexed, 0);
  test_make_repository (watched);
  fixture->reindexed = realpath (reindexed, NULL);
  fixture->watched = realpath (watched, NULL);

  /* The activated daemon inherits the bus's environment. */
  data_dir = g_build_filename (fixture->tmp, "data", NULL);
  g_setenv ("LODE_DATA_DIR", data_dir, TRUE);
  g_setenv ("LODE_EMBEDDING_PROVIDER", "none", TRUE);
  g_setenv ("LODE_WATCH_DEBOUNCE_MSEC", "200", TRUE);
  fixture->bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (fixture->bus, LODE_TEST_SERVICES_DIR);
  g_test_dbus_up (fixture->bus);
  fixture->proxy = daemon_client_new_proxy ();
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->proxy);
  g_test_dbus_down (fixture->bus);
  g_clear_object (&fixture->bus);
  free (fixture->reindexed);
  free (fixture->watched);
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
}

/* Waits until a search of @root for @query finds the file @path (relative, as results give
 * it); the watchdog bounds the wait. */
static void
wait_until_found (Fixture    *fixture,
                  const char *root,
                  const char *query,
                  const char *path)
{
  for (;;)
    {
      g_autoptr(GVariant) results = NULL;
      g_autoptr(GError) error = NULL;

      lode_dbus_daemon1_call_search_sync (fixture->proxy, root, query,
                                          g_variant_new ("a{sv}", NULL), &results, NULL, NULL,
                                          &error);
      g_assert_no_error (error);
      for (gsize i = 0; i < g_variant_n_children (results); i++)
        {
          g_autoptr(GVariant) result = g_variant_get_child_value (results, i);
          const char *p = NULL;

          if (g_variant_lookup (result, "path", "&s", &p) && g_str_equal (p, path))
            return;
        }
      g_usleep (50 * 1000);
    }
}

static void
test_load_during_reindex_and_branch_switch (Fixture       *fixture,
                                            gconstpointer  data)
{
  const char *roots[] = { fixture->reindexed, fixture->watched, NULL };
  DaemonLoadSpec spec = {
    .lode_mcp = g_getenv ("LODE_MCP"),
    .roots = roots,
    .n_mcp = N_MCP_CLIENTS,
    .n_dbus = N_DBUS_CLIENTS,
    .n_searches = N_SEARCHES,
  };
  g_autoptr(DaemonLoad) load = NULL;
  g_autoptr(GAsyncResult) reindexed = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  guint pid;
  guint64 rss_before;

  g_assert_nonnull (spec.lode_mcp);
  daemon_watchdog_start (WATCHDOG_SECONDS, NULL);
  lode_dbus_daemon1_call_index_sync (fixture->proxy, fixture->reindexed, FALSE, &reply, NULL,
                                     &error);
  g_assert_no_error (error);
  g_clear_pointer (&reply, g_variant_unref);
  lode_dbus_daemon1_call_index_sync (fixture->proxy, fixture->watched, FALSE, &reply, NULL,
                                     &error);
  g_assert_no_error (error);
  g_clear_pointer (&reply, g_variant_unref);
  lode_dbus_daemon1_call_watch_sync (fixture->proxy, fixture->watched, TRUE, &reply, NULL,
                                     &error);
  g_assert_no_error (error);
  daemon_watchdog_stop ();

  pid = daemon_pid (fixture->proxy);
  rss_before = daemon_rss_kib (pid);

  /* A forced re-index of a changed tree and the branch switch begin, then the clients
   * search both projects: the forced one builds its index aside, so searches meanwhile
   * answer from the old one. */
  test_write_generated_tree (fixture->reindexed, 1);
  lode_dbus_daemon1_call_index (fixture->proxy, fixture->reindexed, TRUE, NULL,
                                test_result_cb, &reindexed);
  test_git (fixture->watched, "checkout", "-q", "feature", NULL);
  load = daemon_load_start (&spec);
  daemon_watchdog_start (WATCHDOG_SECONDS, load);
  daemon_load_wait (load);
  g_test_message ("the re-index %s before the clients were done",
                  reindexed != NULL ? "ended" : "had not ended");

  /* The re-index ends, and the watcher catches up with the branch: unit610 is only in
   * version 1 of the tree, which both projects now hold. */
  while (reindexed == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_clear_pointer (&reply, g_variant_unref);
  lode_dbus_daemon1_call_index_finish (fixture->proxy, &reply, reindexed, &error);
  g_assert_no_error (error);
  wait_until_found (fixture, fixture->reindexed, "unit610_part0", "c/mod002/unit610.c");
  wait_until_found (fixture, fixture->watched, "unit610_part0", "c/mod002/unit610.c");
  daemon_watchdog_stop ();

  for (int mcp = 0; mcp <= 1; mcp++)
    {
      const DaemonLoadStats *stats = daemon_load_stats (load, mcp);
      guint n_clients = mcp ? N_MCP_CLIENTS : N_DBUS_CLIENTS;

      g_test_message ("%s: %u answered, %u errors; p50 %.1f ms, p99 %.1f ms",
                      mcp ? "MCP" : "D-Bus", stats->answered, stats->errors,
                      daemon_load_percentile (stats, 50), daemon_load_percentile (stats, 99));
      g_assert_cmpstr (stats->first_error, ==, NULL);
      g_assert_cmpuint (stats->errors, ==, 0);
      g_assert_cmpuint (stats->answered, ==, n_clients * N_SEARCHES);
    }
  /* The same daemon answered throughout. */
  g_assert_cmpuint (daemon_pid (fixture->proxy), ==, pid);
  g_test_message ("loded's RSS: %" G_GUINT64_FORMAT " KiB before, %" G_GUINT64_FORMAT
                  " KiB after", rss_before, daemon_rss_kib (pid));
}

int
main (int   argc,
      char *argv[])
{
  test_kill_descendants_at_exit ();
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/daemon/load/during-reindex-and-branch-switch", Fixture, NULL,
              fixture_setup, test_load_during_reindex_and_branch_switch, fixture_teardown);

  return g_test_run ();
}
