/* lode-bench.c — indexing throughput and warm search latency on a real tree
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-bench"

#include "config.h"

#include <errno.h>
#include <locale.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>

#include <glib/gstdio.h>
#include <json-glib/json-glib.h>

#include "bench-util.h"
#include "lode.h"

/*
 * Indexes a tree from scratch (with --search-only, opens its existing index instead), then
 * runs a fixed list of queries several times inside this one process, as the daemon would:
 * the first pass warms the page cache and SQLite's, and only the later passes are measured. Never a pass/fail test; see bench/README.md.
 */

static char *opt_data_dir;
static char *opt_queries;
static int opt_repeat = 5;
static int opt_limit = LODE_SEARCH_DEFAULT_LIMIT;
static gboolean opt_show_hits;
static gboolean opt_search_only;
static char *opt_issues;

static const GOptionEntry entries[] = {
  { "data-dir", 'd', 0, G_OPTION_ARG_FILENAME, &opt_data_dir,
    "Index into DIR (default: a temporary directory, removed afterwards)", "DIR" },
  { "queries", 'q', 0, G_OPTION_ARG_FILENAME, &opt_queries,
    "Run the queries in FILE, one per line; # starts a comment", "FILE" },
  { "repeat", 'r', 0, G_OPTION_ARG_INT, &opt_repeat,
    "Passes over the query list; the first is a warm-up (default: 5)", "N" },
  { "limit", 'n', 0, G_OPTION_ARG_INT, &opt_limit,
    "Results per query (default: 10)", "N" },
  { "show-hits", 's', 0, G_OPTION_ARG_NONE, &opt_show_hits,
    "Print each query's median latency and first result", NULL },
  { "search-only", 0, 0, G_OPTION_ARG_NONE, &opt_search_only,
    "Search the index already in --data-dir instead of indexing TREE first", NULL },
  { "issues", 'i', 0, G_OPTION_ARG_FILENAME, &opt_issues,
    "Also run the `query` of each line of this JSONL file that is 2–3 kB long", "FILE" },
  { NULL }
};

static double
peak_rss_mb (void)
{
  struct rusage usage;

  if (getrusage (RUSAGE_SELF, &usage) != 0)
    return 0.0;

  /* ru_maxrss is in kilobytes on Linux. */
  return usage.ru_maxrss / 1024.0;
}

static gboolean
remove_recursively (const char  *path,
                    GError     **error)
{
  if (g_file_test (path, G_FILE_TEST_IS_DIR) && !g_file_test (path, G_FILE_TEST_IS_SYMLINK))
    {
      g_autoptr(GDir) dir = g_dir_open (path, 0, error);
      const char *name;

      if (dir == NULL)
        return FALSE;

      while ((name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          if (!remove_recursively (child, error))
            return FALSE;
        }
    }

  if (g_remove (path) != 0)
    {
      int errsv = errno;

      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot remove %s: %s", path, g_strerror (errsv));
      return FALSE;
    }

  return TRUE;
}

static GPtrArray *
load_queries (const char  *path,
              GError     **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GPtrArray) queries = g_ptr_array_new_with_free_func (g_free);

  if (!g_file_get_contents (path, &contents, NULL, error))
    return NULL;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (line[0] != '\0' && line[0] != '#')
        g_ptr_array_add (queries, g_strdup (line));
    }

  if (queries->len == 0)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA, "%s holds no queries", path);
      return NULL;
    }

  return g_steal_pointer (&queries);
}

/* The `query` members of 2–3 kB (a pasted issue) of each line of a JSONL file. */
static gboolean
load_issues (const char  *path,
             GPtrArray   *queries,
             GError     **error)
{
  g_autofree char *contents = NULL;
  g_auto(GStrv) lines = NULL;

  if (!g_file_get_contents (path, &contents, NULL, error))
    return FALSE;

  lines = g_strsplit (contents, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonNode *node;
      const char *query;

      if (*g_strstrip (lines[i]) == '\0')
        continue;
      if (!json_parser_load_from_data (parser, lines[i], -1, error))
        {
          g_prefix_error (error, "%s, line %u: ", path, i + 1);
          return FALSE;
        }
      node = json_parser_get_root (parser);
      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      query = json_object_get_string_member_with_default (json_node_get_object (node), "query",
                                                          "");
      if (strlen (query) >= 2048 && strlen (query) <= 3072)
        g_ptr_array_add (queries, g_strdup (query));
    }

  return TRUE;
}

/* Runs every query opt_repeat times. @latencies_usec and @cpu_usec receive the measured
 * passes in order (pass 1: query 0 … n-1, pass 2: …); @first_hits the first result of each
 * query. */
static gboolean
run_queries (LodeProject  *project,
             GPtrArray    *queries,
             GArray       *latencies_usec,
             GArray       *cpu_usec,
             GPtrArray    *first_hits,
             GError      **error)
{
  for (int pass = 0; pass < opt_repeat; pass++)
    {
      for (guint i = 0; i < queries->len; i++)
        {
          LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
          g_autoptr(GPtrArray) results = NULL;
          LodeSearchResult *top;
          gint64 start;
          gint64 cpu_start;
          gint64 elapsed;
          gint64 cpu;

          options.query = g_ptr_array_index (queries, i);
          options.limit = opt_limit;

          start = g_get_monotonic_time ();
          cpu_start = bench_process_cpu_usec ();
          results = lode_project_search (project, &options, NULL, error);
          cpu = bench_process_cpu_usec () - cpu_start;
          elapsed = g_get_monotonic_time () - start;
          if (results == NULL)
            {
              g_prefix_error (error, "Query “%s”: ", options.query);
              return FALSE;
            }

          if (pass > 0)
            {
              g_array_append_val (latencies_usec, elapsed);
              g_array_append_val (cpu_usec, cpu);
              continue;
            }

          top = results->len > 0 ? g_ptr_array_index (results, 0) : NULL;
          if (top != NULL)
            g_ptr_array_add (first_hits,
                             g_strdup_printf ("%s:%u-%u %s (%u results)", top->path,
                                              top->start_line, top->end_line,
                                              top->symbol ? top->symbol : "", results->len));
          else
            g_ptr_array_add (first_hits, g_strdup ("no results"));
        }
    }

  return TRUE;
}

/* Median of the samples of query @i among the passes of @usec, in milliseconds. */
static double
query_median_ms (GArray *usec,
                 guint   i,
                 guint   n_queries)
{
  g_autoptr(GArray) samples = g_array_new (FALSE, FALSE, sizeof (gint64));

  for (guint j = i; j < usec->len; j += n_queries)
    g_array_append_val (samples, g_array_index (usec, gint64, j));
  g_array_sort (samples, bench_compare_gint64);

  return bench_percentile_ms (samples, 50);
}

static void
print_hits (GPtrArray *queries,
            GArray    *latencies_usec,
            GArray    *cpu_usec,
            GPtrArray *first_hits)
{
  g_print ("per query                                        median    CPU   first result\n");
  for (guint i = 0; i < queries->len; i++)
    {
      g_autofree char *shown = g_strndup (g_ptr_array_index (queries, i), 45);

      g_strdelimit (shown, "\n\t", ' ');
      g_print ("  %-45s %7.2f ms %7.2f ms  %s\n", shown,
               query_median_ms (latencies_usec, i, queries->len),
               query_median_ms (cpu_usec, i, queries->len),
               (const char *) g_ptr_array_index (first_hits, i));
    }
}

/* Indexes @tree from scratch into the engine's data directory and prints what it took. */
static LodeProject *
index_tree (LodeEngine   *engine,
            LodeConfig   *config,
            const char   *tree,
            JsonBuilder  *builder,
            GError      **error)
{
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) local_error = NULL;
  gint64 start;
  double seconds;
  double megabytes;
  double index_rss_mb;
  double size_ratio;

  /* From scratch: an index left in --data-dir by an earlier run would make this an update. */
  if (!lode_engine_remove_project (engine, tree, &local_error) &&
      !g_error_matches (local_error, LODE_ERROR, LODE_ERROR_NOT_FOUND))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  start = g_get_monotonic_time ();
  project = lode_engine_open_project (engine, tree, FALSE, error);
  if (project != NULL)
    report = lode_project_index (project, NULL, NULL, NULL, error);
  seconds = (g_get_monotonic_time () - start) / (double) G_USEC_PER_SEC;
  index_rss_mb = peak_rss_mb ();
  if (report == NULL)
    return NULL;

  status = lode_project_dup_status (project, error);
  if (status == NULL)
    return NULL;

  megabytes = report->n_bytes / (1024.0 * 1024.0);
  size_ratio = report->n_bytes > 0 ? (double) status->db_size / report->n_bytes : 0.0;

  g_print ("tree            %s\n", lode_project_get_root (project));
  g_print ("files           %u (%u skipped)\n", report->n_files,
           report->skipped != NULL ? report->skipped->len : 0);
  g_print ("lines           %" G_GUINT64_FORMAT "\n", report->n_lines);
  g_print ("source          %.1f MB\n", megabytes);
  g_print ("chunks          %u, symbols %u\n", status->stats.n_chunks, status->stats.n_symbols);
  g_print ("threads         %u\n", lode_config_get_threads (config));
  g_print ("wall            %.2f s\n", seconds);
  g_print ("files/s         %.0f\n", report->n_files / seconds);
  g_print ("lines/s         %.0f\n", report->n_lines / seconds);
  g_print ("MB/s            %.2f\n", megabytes / seconds);
  g_print ("peak RSS        %.1f MB\n", index_rss_mb);
  g_print ("index size      %.1f MB (%.2f × source)\n",
           status->db_size / (1024.0 * 1024.0), size_ratio);

  json_builder_set_member_name (builder, "files");
  json_builder_add_int_value (builder, report->n_files);
  json_builder_set_member_name (builder, "lines");
  json_builder_add_int_value (builder, report->n_lines);
  json_builder_set_member_name (builder, "source_mb");
  json_builder_add_double_value (builder, megabytes);
  json_builder_set_member_name (builder, "chunks");
  json_builder_add_int_value (builder, status->stats.n_chunks);
  json_builder_set_member_name (builder, "threads");
  json_builder_add_int_value (builder, lode_config_get_threads (config));
  json_builder_set_member_name (builder, "wall_seconds");
  json_builder_add_double_value (builder, seconds);
  json_builder_set_member_name (builder, "files_per_second");
  json_builder_add_double_value (builder, report->n_files / seconds);
  json_builder_set_member_name (builder, "lines_per_second");
  json_builder_add_double_value (builder, report->n_lines / seconds);
  json_builder_set_member_name (builder, "mb_per_second");
  json_builder_add_double_value (builder, megabytes / seconds);
  json_builder_set_member_name (builder, "peak_rss_mb");
  json_builder_add_double_value (builder, index_rss_mb);
  json_builder_set_member_name (builder, "index_bytes");
  json_builder_add_int_value (builder, status->db_size);
  json_builder_set_member_name (builder, "index_to_source_ratio");
  json_builder_add_double_value (builder, size_ratio);

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
  g_autoptr(GPtrArray) queries = NULL;
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) cpu = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GPtrArray) first_hits = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *json = NULL;
  g_autofree char *temp_dir = NULL;
  const char *tree;

  setlocale (LC_ALL, "");

  context = g_option_context_new ("TREE");
  g_option_context_set_summary (context,
                                "Index TREE from scratch, then measure warm search latency.");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("lode-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if (argc != 2 || opt_repeat < 2 || opt_limit < 1 || opt_limit > LODE_SEARCH_MAX_LIMIT)
    {
      g_printerr ("lode-bench: give one TREE, --repeat ≥ 2 and --limit 1…%d\n",
                  LODE_SEARCH_MAX_LIMIT);
      return EXIT_FAILURE;
    }
  tree = argv[1];

  if (opt_queries != NULL && (queries = load_queries (opt_queries, &error)) == NULL)
    {
      g_printerr ("lode-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if (opt_issues != NULL)
    {
      if (queries == NULL)
        queries = g_ptr_array_new_with_free_func (g_free);
      if (!load_issues (opt_issues, queries, &error))
        {
          g_printerr ("lode-bench: %s\n", error->message);
          return EXIT_FAILURE;
        }
    }
  if (opt_search_only && (opt_data_dir == NULL || queries == NULL))
    {
      g_printerr ("lode-bench: --search-only needs --data-dir and queries\n");
      return EXIT_FAILURE;
    }

  /* Environment overrides (LODE_INDEX_THREADS, …) apply, as they do for `lode`. */
  config = lode_engine_load_config (&error);
  if (config == NULL)
    {
      g_printerr ("lode-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  if (opt_data_dir == NULL && (temp_dir = g_dir_make_tmp ("lode-bench-XXXXXX", &error)) == NULL)
    {
      g_printerr ("lode-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }
  g_free (config->data_dir);
  config->data_dir = g_strdup (opt_data_dir != NULL ? opt_data_dir : temp_dir);

  engine = lode_engine_new (config);

  json_builder_begin_object (builder);
  if (opt_search_only)
    project = lode_engine_open_project (engine, tree, FALSE, &error);
  else
    project = index_tree (engine, config, tree, builder, &error);
  if (project == NULL)
    {
      g_printerr ("lode-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }

  if (queries != NULL)
    {
      if (!run_queries (project, queries, latencies, cpu, first_hits, &error))
        {
          g_printerr ("lode-bench: %s\n", error->message);
          return EXIT_FAILURE;
        }
      if (opt_show_hits)
        print_hits (queries, latencies, cpu, first_hits);
      g_array_sort (latencies, bench_compare_gint64);
      g_array_sort (cpu, bench_compare_gint64);

      g_print ("queries         %u × %d passes (first not counted), limit %d\n",
               queries->len, opt_repeat - 1, opt_limit);
      g_print ("search p50      %.2f ms\n", bench_percentile_ms (latencies, 50));
      g_print ("search p95      %.2f ms\n", bench_percentile_ms (latencies, 95));
      g_print ("search p99      %.2f ms\n", bench_percentile_ms (latencies, 99));
      g_print ("search max      %.2f ms\n", bench_percentile_ms (latencies, 100));
      g_print ("search CPU p50  %.2f ms (p95 %.2f ms)\n", bench_percentile_ms (cpu, 50),
               bench_percentile_ms (cpu, 95));
      g_print ("peak RSS        %.1f MB (after searching)\n", peak_rss_mb ());

      json_builder_set_member_name (builder, "queries");
      json_builder_add_int_value (builder, queries->len);
      json_builder_set_member_name (builder, "search_samples");
      json_builder_add_int_value (builder, latencies->len);
      json_builder_set_member_name (builder, "search_p50_ms");
      json_builder_add_double_value (builder, bench_percentile_ms (latencies, 50));
      json_builder_set_member_name (builder, "search_p95_ms");
      json_builder_add_double_value (builder, bench_percentile_ms (latencies, 95));
      json_builder_set_member_name (builder, "search_p99_ms");
      json_builder_add_double_value (builder, bench_percentile_ms (latencies, 99));
      json_builder_set_member_name (builder, "search_max_ms");
      json_builder_add_double_value (builder, bench_percentile_ms (latencies, 100));
      json_builder_set_member_name (builder, "search_cpu_p50_ms");
      json_builder_add_double_value (builder, bench_percentile_ms (cpu, 50));
      json_builder_set_member_name (builder, "search_cpu_p95_ms");
      json_builder_add_double_value (builder, bench_percentile_ms (cpu, 95));
      json_builder_set_member_name (builder, "peak_rss_after_search_mb");
      json_builder_add_double_value (builder, peak_rss_mb ());
    }

  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  json_generator_set_root (generator, root);
  json = json_generator_to_data (generator, NULL);
  g_print ("JSON: %s\n", json);

  /* The project holds the database open; close it before deleting its files. */
  g_clear_object (&project);
  g_clear_object (&engine);
  if (temp_dir != NULL && !remove_recursively (temp_dir, &error))
    {
      g_printerr ("lode-bench: %s\n", error->message);
      return EXIT_FAILURE;
    }

  return EXIT_SUCCESS;
}
