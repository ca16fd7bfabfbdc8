/* bench-util.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <time.h>

#include "bench-util.h"

int
bench_compare_gint64 (gconstpointer a,
                      gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

/* Nearest-rank percentile of sorted samples (microseconds), in milliseconds. */
double
bench_percentile_ms (GArray *sorted_usec,
                     double  p)
{
  guint rank;

  if (sorted_usec->len == 0)
    return 0.0;

  rank = (guint) MAX (1.0, (p / 100.0) * sorted_usec->len + 0.999999);
  rank = MIN (rank, sorted_usec->len);
  return g_array_index (sorted_usec, gint64, rank - 1) / 1000.0;
}

/* CPU time of the whole process in microseconds: on a loaded machine the wall time of a
 * query mostly measures the scheduler, its CPU time what the search costs. */
gint64
bench_process_cpu_usec (void)
{
  struct timespec ts;

  clock_gettime (CLOCK_PROCESS_CPUTIME_ID, &ts);
  return ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}
