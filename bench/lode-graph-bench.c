/* lode-graph-bench.c — cost of the import graph while indexing, and latency of graph queries
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-bench"

#include "config.h"

#include <locale.h>
#include <stdlib.h>

#include <glib/gstdio.h>

#include "lode.h"
#include "lode-graph-report.h"
#include "lode-impact.h"
#include "lode-store.h"

/*
 * Indexes a tree from scratch with the import graph turned off and with it on, alternating,
 * several rounds; the difference is what import extraction and resolution cost. Then, on the
 * index with the graph, measures graph queries: loading the graph from the store, an impact
 * walk from every file in memory, and `codebase_graph_query` end to end (load + query +
 * JSON) for a sample of files. Never a pass/fail test; see bench/README.md.
 */

static int opt_rounds = 3;
static int opt_depth = 3;
static int opt_samples = 200;

static const GOptionEntry entries[] = {
  { "rounds", 'r', 0, G_OPTION_ARG_INT, &opt_rounds,
    "Index the tree this many times with and without the graph (default: 3)", "N" },
  { "depth", 'd', 0, G_OPTION_ARG_INT, &opt_depth, "Impact depth (default: 3)", "N" },
  { "samples", 's', 0, G_OPTION_ARG_INT, &opt_samples,
    "Files to run the end-to-end query for (default: 200)", "N" },
  { NULL }
};

static int
compare_double (gconstpointer a,
                gconstpointer b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db ? 1 : 0;
}

/* Nearest-rank percentile of @samples (sorted here). */
static double
percentile (GArray *samples,
            double  p)
{
  guint rank;

  if (samples->len == 0)
    return 0.0;
  g_array_sort (samples, compare_double);
  rank = (guint) (p / 100.0 * samples->len + 0.999999);
  rank = CLAMP (rank, 1, samples->len);

  return g_array_index (samples, double, rank - 1);
}

static double
elapsed_ms (gint64 start)
{
  return (g_get_monotonic_time () - start) / 1000.0;
}

/* Indexes @tree from scratch (its earlier index in the engine's data directory deleted). */
static LodeProject *
index_once (LodeEngine       *engine,
            const char       *tree,
            gboolean          graph,
            double           *seconds,
            LodeIndexReport **report_out,
            GError          **error)
{
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GError) local_error = NULL;
  gint64 start;

  if (!lode_engine_remove_project (engine, tree, &local_error) &&
      !g_error_matches (local_error, LODE_ERROR, LODE_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  project = lode_engine_open_project (engine, tree, FALSE, error);
  if (project == NULL)
    return NULL;

  if (!graph)
    {
      const char *db_path = lode_project_get_db_path (project);
      g_autoptr(LodeIndexStore) store = LODE_INDEX_STORE (lode_store_open (db_path, error));

      if (store == NULL || !lode_index_store_set_meta (store, LODE_GRAPH_META_KEY, "off", error))
        return NULL;
    }

  start = g_get_monotonic_time ();
  *report_out = lode_project_index (project, NULL, NULL, NULL, error);
  *seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  if (*report_out == NULL)
    return NULL;

  return g_steal_pointer (&project);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autofree char *data_dir = NULL;
  g_autofree char *projects_dir = NULL;
  g_autoptr(LodeGraph) graph = NULL;
  g_autoptr(LodeGraphStats) stats = NULL;
  g_autoptr(GPtrArray) cycles = NULL;
  g_autoptr(GArray) without = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) with = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) loads = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) walks = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(GArray) queries = g_array_new (FALSE, FALSE, sizeof (double));
  LodeGraphCounts counts = { 0 };
  const char *tree;
  double cycles_ms;
  double median_without;
  double median_with;
  guint n_files;
  guint step;

  setlocale (LC_ALL, "");

  context = g_option_context_new ("TREE");
  g_option_context_set_summary (context, "Import graph cost while indexing TREE, and graph "
                                         "query latency.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("lode-graph-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if (argc != 2 || opt_rounds < 1 || opt_depth < 1 || opt_depth > LODE_GRAPH_MAX_DEPTH ||
      opt_samples < 1)
    {
      g_printerr ("lode-graph-bench: give one TREE, --rounds ≥ 1, --depth 1…5, --samples ≥ 1\n");
      return EXIT_FAILURE;
    }
  tree = argv[1];

  config = lode_engine_load_config (&error);
  if (config == NULL)
    {
      g_printerr ("lode-graph-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  data_dir = g_dir_make_tmp ("lode-graph-bench-XXXXXX", &error);
  if (data_dir == NULL)
    {
      g_printerr ("lode-graph-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  g_free (config->data_dir);
  config->data_dir = g_strdup (data_dir);
  engine = lode_engine_new (config);

  for (int round = 0; round < opt_rounds; round++)
    for (int graph_on = 0; graph_on < 2; graph_on++)
      {
        g_autoptr(LodeIndexReport) report = NULL;
        g_autoptr(LodeProject) indexed = NULL;
        double seconds = 0;

        indexed = index_once (engine, tree, graph_on, &seconds, &report, &error);
        if (indexed == NULL)
          {
            g_printerr ("lode-graph-bench: %s\n", error->message);
            return EXIT_FAILURE;
          }
        g_array_append_val (graph_on ? with : without, seconds);
        g_print ("round %d, graph %-3s  %.2f s  (%u files parsed)\n", round + 1,
                 graph_on ? "on" : "off", seconds, report->n_parsed);
        if (graph_on)
          g_set_object (&project, indexed);
      }

  median_without = percentile (without, 50);
  median_with = percentile (with, 50);

  /* Queries, on the last index built with the graph. */
  for (int i = 0; i < 10; i++)
    {
      gint64 start = g_get_monotonic_time ();

      g_clear_pointer (&graph, lode_graph_free);
      graph = lode_project_load_graph (project, &error);
      if (graph == NULL)
        {
          g_printerr ("lode-graph-bench: %s\n", error->message);
          return EXIT_FAILURE;
        }
      g_array_append_val (loads, (double) { elapsed_ms (start) });
    }
  if (!lode_project_get_graph_counts (project, &counts, NULL, &error))
    {
      g_printerr ("lode-graph-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }

  n_files = lode_graph_get_n_files (graph);
  for (guint i = 0; i < n_files; i++)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(GArray) hits = lode_graph_impact (graph, &i, 1, LODE_GRAPH_INBOUND, opt_depth);

      g_array_append_val (walks, (double) { elapsed_ms (start) });
    }

  step = MAX (n_files / (guint) opt_samples, 1);
  for (guint i = 0; i < n_files; i += step)
    {
      gint64 start = g_get_monotonic_time ();
      g_autoptr(JsonObject) report = lode_graph_report_query (project,
                                                              lode_graph_get_path (graph, i),
                                                              LODE_GRAPH_INBOUND, opt_depth,
                                                              &error);

      if (report == NULL)
        {
          g_printerr ("lode-graph-bench: %s\n", error->message);
          return EXIT_FAILURE;
        }
      g_array_append_val (queries, (double) { elapsed_ms (start) });
    }

  {
    gint64 start = g_get_monotonic_time ();

    cycles = lode_graph_find_cycles (graph);
    cycles_ms = elapsed_ms (start);
  }
  stats = lode_graph_dup_stats (graph, 10);

  g_print ("\ntree              %s\n", lode_project_get_root (project));
  g_print ("files             %u\n", n_files);
  g_print ("imports           %u (%u to project files, %u external, %u unresolved)\n",
           counts.n_imports, counts.n_internal, counts.n_external,
           counts.n_imports - counts.n_internal - counts.n_external);
  g_print ("edges             %u file → file, %u file → package\n", stats->n_edges,
           stats->n_external_edges);
  g_print ("cycles            %u (found in %.2f ms)\n", cycles->len, cycles_ms);
  g_print ("index, no graph   %.2f s (median of %d)\n", median_without, opt_rounds);
  g_print ("index, graph      %.2f s (median of %d)\n", median_with, opt_rounds);
  g_print ("graph share       %.2f s (%.1f %% of indexing with the graph)\n",
           median_with - median_without,
           median_with > 0 ? 100.0 * (median_with - median_without) / median_with : 0.0);
  g_print ("load graph        p50 %.2f ms\n", percentile (loads, 50));
  g_print ("impact walk       p50 %.3f ms, p99 %.3f ms (depth %d, in memory, %u files)\n",
           percentile (walks, 50), percentile (walks, 99), opt_depth, walks->len);
  g_print ("graph query       p50 %.2f ms, p99 %.2f ms (load + walk + JSON, %u files)\n",
           percentile (queries, 50), percentile (queries, 99), queries->len);

  g_clear_object (&project);
  projects_dir = g_build_filename (data_dir, "projects", NULL);
  if (!lode_engine_remove_project (engine, tree, &error) || g_rmdir (projects_dir) != 0 ||
      g_rmdir (data_dir) != 0)
    g_printerr ("lode-graph-bench: %s not fully removed%s%s\n", data_dir,
                error != NULL ? ": " : "", error != NULL ? error->message : "");

  return EXIT_SUCCESS;
}
