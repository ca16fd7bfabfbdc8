/* lode-vector-bench.c — latency of the exact dense kNN scan (issue #4)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * lode-vector-bench [--rows N] [--dims D] [--queries Q] [--k K] [--seed S]
 *
 * Fills a LodeVectorIndex with N random L2-normalised vectors, then times Q top-K searches
 * (after Q / 10 warm-up searches) with the float32 scan and with the int8 scan + float32
 * re-scoring, and prints p50 / p99 / max latency, the scan rate and how many of the exact
 * top-K the int8 path returned.
 */

#include "config.h"

#include <locale.h>
#include <math.h>
#include <stdlib.h>

#include <glib.h>

#include "lode-vector-index.h"

static int opt_rows = 100000;
static int opt_dims = 384;
static int opt_queries = 200;
static int opt_k = 10;
static int opt_seed = 1;

static void
fill_random (GRand *rand,
             float *v,
             guint  dims)
{
  double norm = 0.0;

  /* Gaussian components (Box–Muller), so that directions are uniform on the sphere. */
  for (guint j = 0; j < dims; j++)
    {
      double u = g_rand_double_range (rand, 1e-12, 1.0);
      double w = g_rand_double (rand);

      v[j] = (float) (sqrt (-2.0 * log (u)) * cos (2.0 * G_PI * w));
      norm += (double) v[j] * v[j];
    }
  for (guint j = 0; j < dims; j++)
    v[j] = (float) (v[j] / sqrt (norm));
}

static int
compare_doubles (const void *a,
                 const void *b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db ? 1 : 0;
}

static double
percentile (const double *sorted,
            guint         n,
            double        p)
{
  guint i = (guint) ceil (p / 100.0 * n);

  return sorted[CLAMP (i, 1, n) - 1];
}

typedef struct
{
  double p50;
  double p99;
  double max;
} Latency;

static Latency
run (LodeVectorIndex *index,
     const float     *queries,
     guint            n_queries,
     guint            dims,
     GArray         **answers)
{
  g_autofree double *ms = g_new (double, n_queries);
  guint warmup = MAX (n_queries / 10, 1);
  Latency latency;

  for (guint q = 0; q < warmup; q++)
    g_array_unref (lode_vector_index_search (index, queries + (gsize) q * dims, opt_k, NULL, 0));

  for (guint q = 0; q < n_queries; q++)
    {
      gint64 start = g_get_monotonic_time ();
      GArray *hits = lode_vector_index_search (index, queries + (gsize) q * dims, opt_k, NULL, 0);

      ms[q] = (g_get_monotonic_time () - start) / 1000.0;
      answers[q] = hits;
    }

  qsort (ms, n_queries, sizeof (double), compare_doubles);
  latency.p50 = percentile (ms, n_queries, 50);
  latency.p99 = percentile (ms, n_queries, 99);
  latency.max = ms[n_queries - 1];
  return latency;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GOptionContext) context = g_option_context_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(GRand) rand = NULL;
  g_autoptr(LodeVectorIndex) index = NULL;
  g_autofree float *row = NULL;
  g_autofree float *queries = NULL;
  g_autofree GArray **exact = NULL;
  g_autofree GArray **approx = NULL;
  GOptionEntry entries[] = {
    { "rows", 0, 0, G_OPTION_ARG_INT, &opt_rows, "Vectors in the index (100000)", "N" },
    { "dims", 0, 0, G_OPTION_ARG_INT, &opt_dims, "Dimensions (384)", "D" },
    { "queries", 0, 0, G_OPTION_ARG_INT, &opt_queries, "Timed searches per scan (200)", "Q" },
    { "k", 0, 0, G_OPTION_ARG_INT, &opt_k, "Neighbours per search (10)", "K" },
    { "seed", 0, 0, G_OPTION_ARG_INT, &opt_seed, "Random seed (1)", "S" },
    { NULL }
  };
  Latency f32, i8;
  guint found = 0;
  double mb;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error))
    {
      g_printerr ("%s\n", error->message);
      return 2;
    }
  if (opt_rows < 1 || opt_dims < 1 || opt_dims > 65536 || opt_queries < 1 || opt_k < 1)
    {
      g_printerr ("--rows, --dims, --queries and --k must be positive (--dims at most 65536)\n");
      return 2;
    }

  rand = g_rand_new_with_seed (opt_seed);
  index = lode_vector_index_new (opt_dims);
  row = g_new (float, opt_dims);
  for (int i = 0; i < opt_rows; i++)
    {
      fill_random (rand, row, opt_dims);
      lode_vector_index_add (index, i, row);
    }
  queries = g_new (float, (gsize) opt_queries * opt_dims);
  for (int q = 0; q < opt_queries; q++)
    fill_random (rand, queries + (gsize) q * opt_dims, opt_dims);

  exact = g_new0 (GArray *, opt_queries);
  approx = g_new0 (GArray *, opt_queries);
  f32 = run (index, queries, opt_queries, opt_dims, exact);
  lode_vector_index_set_quantized (index, TRUE);
  i8 = run (index, queries, opt_queries, opt_dims, approx);

  for (int q = 0; q < opt_queries; q++)
    {
      for (guint a = 0; a < approx[q]->len; a++)
        for (guint e = 0; e < exact[q]->len; e++)
          if (g_array_index (approx[q], LodeVectorHit, a).id ==
              g_array_index (exact[q], LodeVectorHit, e).id)
            found++;
      g_array_unref (exact[q]);
      g_array_unref (approx[q]);
    }

  mb = (double) opt_rows * opt_dims * sizeof (float) / 1e6;
  g_print ("%d × %d vectors (%.0f MB float32), top-%d, %d searches after %d warm-up\n",
           opt_rows, opt_dims, mb, opt_k, opt_queries, MAX (opt_queries / 10, 1));
  g_print ("float32 scan:          p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%.1f GB/s)\n",
           f32.p50, f32.p99, f32.max, mb / f32.p50);
  g_print ("int8 scan + rescoring: p50 %.2f ms  p99 %.2f ms  max %.2f ms  (%.1f GB/s of int8)\n",
           i8.p50, i8.p99, i8.max, mb / 4 / i8.p50);
  g_print ("int8 recall of the exact top-%d: %.4f\n", opt_k,
           (double) found / ((double) opt_queries * opt_k));
  g_print ("JSON: {\"rows\":%d,\"dims\":%d,\"k\":%d,\"queries\":%d,"
           "\"float32_ms\":{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f},"
           "\"int8_ms\":{\"p50\":%.3f,\"p99\":%.3f,\"max\":%.3f},\"int8_recall\":%.4f}\n",
           opt_rows, opt_dims, opt_k, opt_queries, f32.p50, f32.p99, f32.max,
           i8.p50, i8.p99, i8.max, (double) found / ((double) opt_queries * opt_k));

  return 0;
}
