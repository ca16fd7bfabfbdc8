/* lode-symbol-bench.c — latency of the symbol tools on an indexed tree
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-bench"

#include "config.h"

#include <locale.h>
#include <stdlib.h>
#include <time.h>

#include <json-glib/json-glib.h>

#include "lode.h"

/*
 * Indexes TREE into --data-dir unless it is indexed there already, then calls each tool of
 * the --calls list --repeat times through the tool registry, as lode-mcp and the daemon do
 * (argument validation, a worker thread, the markdown rendering), and prints the median and
 * the slowest call of each, in wall time and in CPU time of the process (on a shared
 * machine the wall time includes the wait for a core). The first pass warms the caches and
 * is not counted. Never a pass/fail test; see bench/README.md.
 */

static gint64
cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static char *opt_data_dir;
static char *opt_calls;
static int opt_repeat = 11;

static const GOptionEntry entries[] = {
  { "data-dir", 'd', 0, G_OPTION_ARG_FILENAME, &opt_data_dir,
    "The data directory (an index of TREE there is reused)", "DIR" },
  { "calls", 'c', 0, G_OPTION_ARG_FILENAME, &opt_calls,
    "The calls: one per line, a tool name, a tab, its JSON arguments", "FILE" },
  { "repeat", 'r', 0, G_OPTION_ARG_INT, &opt_repeat,
    "Passes over the calls; the first warms the caches (default: 11)", "N" },
  { NULL }
};

static int
compare_gint64 (gconstpointer a,
                gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeToolRegistry) registry = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autofree char *tree = NULL;
  g_autoptr(GString) json = g_string_new ("{");
  double worst_median = 0.0;

  setlocale (LC_ALL, "");

  context = g_option_context_new ("TREE");
  g_option_context_set_summary (context, "Measure the symbol tools on an indexed TREE.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2 ||
      opt_data_dir == NULL || opt_calls == NULL || opt_repeat < 2)
    {
      g_printerr ("lode-symbol-bench: give --data-dir, --calls, --repeat ≥ 2 and one TREE%s%s\n",
                  error != NULL ? ": " : "", error != NULL ? error->message : "");
      return EXIT_FAILURE;
    }
  tree = g_canonicalize_filename (argv[1], NULL);
  if (!g_file_get_contents (opt_calls, &contents, NULL, &error))
    {
      g_printerr ("lode-symbol-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  lines = g_strsplit (contents, "\n", -1);

  config = lode_engine_load_config (&error);
  if (config == NULL)
    {
      g_printerr ("lode-symbol-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  g_free (config->data_dir);
  config->data_dir = g_strdup (opt_data_dir);
  engine = lode_engine_new (config);
  registry = lode_tools_new_registry (engine);

  project = lode_engine_open_project (engine, tree, FALSE, &error);
  if (project == NULL)
    {
      g_printerr ("lode-symbol-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if (!lode_project_is_indexed (project))
    {
      g_autoptr(LodeIndexReport) report = NULL;
      gint64 start = g_get_monotonic_time ();

      g_print ("Indexing %s…\n", tree);
      report = lode_project_index (project, NULL, NULL, NULL, &error);
      if (report == NULL)
        {
          g_printerr ("lode-symbol-bench: %s\n", error->message);
          return EXIT_FAILURE;
        }
      g_print ("indexed in %.1f s\n", (g_get_monotonic_time () - start) / 1e6);
    }

  g_print ("%-28s %-34s %9s %9s %9s\n", "tool", "arguments", "median", "max", "CPU med");
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;
      g_autofree char *escaped = NULL;
      g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(GArray) cpu_samples = g_array_new (FALSE, FALSE, sizeof (gint64));
      g_autoptr(JsonNode) node = NULL;
      double median;

      if (*g_strstrip (lines[i]) == '\0' || lines[i][0] == '#')
        continue;
      parts = g_strsplit (lines[i], "\t", 2);
      if (parts[1] == NULL || (node = json_from_string (parts[1], &error)) == NULL ||
          !JSON_NODE_HOLDS_OBJECT (node))
        {
          g_printerr ("lode-symbol-bench: line %u: %s\n", i + 1,
                      error != NULL ? error->message : "expected TOOL<tab>{arguments}");
          return EXIT_FAILURE;
        }
      json_object_set_string_member (json_node_get_object (node), "projectPath", tree);

      for (int pass = 0; pass < opt_repeat; pass++)
        {
          g_autoptr(LodeToolResult) result = NULL;
          gint64 start = g_get_monotonic_time ();
          gint64 cpu_start = cpu_usec ();
          gint64 elapsed, cpu;

          result = lode_tool_registry_call (registry, parts[0], json_node_get_object (node),
                                            NULL, NULL, &error);
          elapsed = g_get_monotonic_time () - start;
          cpu = cpu_usec () - cpu_start;
          if (result == NULL || result->is_error)
            {
              g_printerr ("lode-symbol-bench: %s %s: %s\n", parts[0], parts[1],
                          result != NULL ? result->text : error->message);
              return EXIT_FAILURE;
            }
          if (pass > 0)
            {
              g_array_append_val (samples, elapsed);
              g_array_append_val (cpu_samples, cpu);
            }
        }
      g_array_sort (samples, compare_gint64);
      g_array_sort (cpu_samples, compare_gint64);
      median = g_array_index (samples, gint64, samples->len / 2) / 1000.0;
      worst_median = MAX (worst_median, median);
      g_print ("%-28s %-34.34s %6.2f ms %6.2f ms %6.2f ms\n", parts[0], parts[1], median,
               g_array_index (samples, gint64, samples->len - 1) / 1000.0,
               g_array_index (cpu_samples, gint64, cpu_samples->len / 2) / 1000.0);
      escaped = g_strescape (parts[1], NULL);
      g_string_append_printf (json, "%s\"%s %s\": %.3f", json->len > 1 ? ", " : "", parts[0],
                              escaped, median);
    }
  g_string_append_printf (json, ", \"worst_median_ms\": %.3f}", worst_median);
  g_print ("JSON: %s\n", json->str);

  return EXIT_SUCCESS;
}
