/* qdrant-bench.c — the Qdrant store's upsert throughput and query latency beside SQLite's
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-bench"

#include "config.h"

#include <locale.h>
#include <string.h>

#include "bench-util.h"
#include "lode.h"
#include "lode-index-store.h"

/*
 * Indexes one tree twice in the same run, into the SQLite store and into the Qdrant store
 * (the loopback server of tests/liblode, started here without its OpenAPI checks, or a real
 * server with --url), then times the same queries against both. Against the loopback server
 * the figures measure Lode's side (chunking, sparse vectors, JSON, HTTP) and a Python server,
 * never Qdrant: the process CPU time is printed beside the wall time for that reason. Never a
 * pass/fail test; see bench/README.md.
 */

static char *opt_url;
static char *opt_queries;
static int opt_repeat = 5;

static const GOptionEntry entries[] = {
  { "url", 'u', 0, G_OPTION_ARG_STRING, &opt_url,
    "A Qdrant server (default: start the loopback server)", "URL" },
  { "queries", 'q', 0, G_OPTION_ARG_FILENAME, &opt_queries,
    "Run the queries in FILE, one per line; # starts a comment", "FILE" },
  { "repeat", 'r', 0, G_OPTION_ARG_INT, &opt_repeat,
    "Passes over the query list; the first is a warm-up (default: 5)", "N" },
  { NULL }
};

/* Starts the loopback server; its URL, or NULL. */
static GSubprocess *
start_loopback (char **url)
{
  const char *root = g_getenv ("LODE_SOURCE_ROOT");
  g_autofree char *script = NULL;
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;
  GSubprocess *process;

  if (root == NULL)
    {
      g_printerr ("Set LODE_SOURCE_ROOT to the source tree "
                  "(for tests/liblode/qdrant-loopback.py)\n");
      return NULL;
    }
  script = g_build_filename (root, "tests", "liblode", "qdrant-loopback.py", NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  process = g_subprocess_launcher_spawn (launcher, &error, "python3", script, NULL);
  if (process == NULL)
    {
      g_printerr ("Cannot start the loopback server: %s\n", error->message);
      return NULL;
    }
  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  if (line == NULL || !g_str_has_prefix (line, "PORT "))
    {
      g_printerr ("The loopback server did not start\n");
      g_object_unref (process);
      return NULL;
    }
  *url = g_strdup_printf ("http://127.0.0.1:%s", line + strlen ("PORT "));
  return process;
}

static GPtrArray *
read_queries (void)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  GPtrArray *queries = g_ptr_array_new_with_free_func (g_free);

  if (opt_queries == NULL)
    return queries;
  if (!g_file_get_contents (opt_queries, &text, NULL, &error))
    {
      g_printerr ("%s\n", error->message);
      return queries;
    }
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (*line != '\0' && *line != '#')
        g_ptr_array_add (queries, g_strdup (line));
    }
  return queries;
}

static void
run_store (const char *store,
           const char *url,
           const char *tree,
           GPtrArray  *queries)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autoptr(LodeEngine) engine = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GArray) latencies = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = g_dir_make_tmp ("qdrant-bench-XXXXXX", NULL);
  LodeStoreKind kind = LODE_STORE_KIND_SQLITE;
  gint64 start;
  gint64 cpu_start;
  double cpu;
  double wall;

  g_free (config->data_dir);
  config->data_dir = g_strdup (data_dir);
  g_free (config->store);
  config->store = g_strdup (store);
  config->qdrant_url = g_strdup (url);
  g_free (config->embedding_provider);
  config->embedding_provider = g_strdup ("none");
  lode_store_kind_from_string (store, &kind);

  engine = lode_engine_new (config);
  project = lode_engine_open_project (engine, tree, FALSE, &error);
  if (project == NULL)
    {
      g_printerr ("%s\n", error->message);
      return;
    }

  cpu_start = bench_process_cpu_usec ();
  start = g_get_monotonic_time ();
  report = lode_project_index (project, NULL, NULL, NULL, &error);
  wall = (g_get_monotonic_time () - start) / 1e6;
  cpu = (bench_process_cpu_usec () - cpu_start) / 1e6;
  if (report == NULL)
    {
      g_printerr ("%s: %s\n", store, error->message);
      return;
    }

  g_print ("%-7s index   %u files, %u chunks in %.2f s wall (%.0f chunks/s), %.2f s CPU in "
           "this process\n", store, report->n_files, report->n_chunks, wall,
           report->n_chunks / MAX (wall, 1e-6), cpu);

  cpu_start = bench_process_cpu_usec ();
  for (int pass = 0; pass < opt_repeat; pass++)
    for (guint i = 0; i < queries->len; i++)
      {
        LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
        g_autoptr(GPtrArray) results = NULL;
        gint64 t0 = g_get_monotonic_time ();
        gint64 elapsed;

        options.query = g_ptr_array_index (queries, i);
        options.mode = LODE_SEARCH_MODE_LEXICAL;
        results = lode_project_search (project, &options, NULL, &error);
        elapsed = g_get_monotonic_time () - t0;
        if (results == NULL)
          {
            g_printerr ("%s: “%s”: %s\n", store, options.query, error->message);
            g_clear_error (&error);
            continue;
          }
        if (pass > 0)
          g_array_append_val (latencies, elapsed);
      }

  cpu = (bench_process_cpu_usec () - cpu_start) / 1e6;
  g_array_sort (latencies, bench_compare_gint64);
  if (latencies->len > 0)
    g_print ("%-7s search  %u queries: p50 %.2f ms, p95 %.2f ms, max %.2f ms; %.2f ms CPU per "
             "query in this process\n", store, latencies->len,
             bench_percentile_ms (latencies, 50), bench_percentile_ms (latencies, 95),
             bench_percentile_ms (latencies, 100),
             cpu * 1000.0 / (opt_repeat * MAX (queries->len, 1)));

  g_clear_object (&project);
  if (kind == LODE_STORE_KIND_QDRANT)
    lode_engine_remove_project (engine, tree, NULL);
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new ("TREE");
  g_autoptr(GSubprocess) server = NULL;
  g_autoptr(GPtrArray) queries = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  g_autofree char *tree = NULL;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "Usage: qdrant-bench [OPTION…] TREE");
      return 2;
    }
  tree = g_canonicalize_filename (argv[1], NULL);

  if (opt_url != NULL)
    url = g_strdup (opt_url);
  else if ((server = start_loopback (&url)) == NULL)
    return 1;

  queries = read_queries ();
  run_store ("sqlite", url, tree, queries);
  run_store ("qdrant", url, tree, queries);

  if (server != NULL)
    {
      g_output_stream_close (g_subprocess_get_stdin_pipe (server), NULL, NULL);
      g_subprocess_wait (server, NULL, NULL);
    }
  return 0;
}
