/* bench-util.h — latency statistics and CPU time shared by the benchmarks
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

int    bench_compare_gint64 (gconstpointer  a,
                             gconstpointer  b);
double bench_percentile_ms  (GArray        *sorted_usec,
                             double         p);
gint64 bench_process_cpu_usec (void);

G_END_DECLS
