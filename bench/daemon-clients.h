/* daemon-clients.h — clients of loded: a proxy, its process, and a load of searching clients
 *
 * Shared by bench/daemon-bench (the full load) and the daemon tests (tests/daemon/).
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "lode-dbus-daemon.h"

G_BEGIN_DECLS

typedef struct
{
  const char         *lode_mcp;   /* lode-mcp, which reaches loded on the session bus */
  const char * const *roots;      /* projects searched in turn, NULL-terminated */
  guint               n_mcp;      /* clients, each a lode-mcp spoken to over stdio */
  guint               n_dbus;     /* clients, each on its own D-Bus connection */
  guint               n_searches; /* searches per client */
} DaemonLoadSpec;

typedef struct
{
  guint   answered;    /* searches that got a result */
  guint   errors;      /* searches that got an error, or no reply at all */
  GArray *msec;        /* double: each answered search's latency */
  char   *first_error; /* the first error's text, or NULL */
} DaemonLoadStats;

typedef struct _DaemonLoad DaemonLoad;

LodeDBusDaemon1 *daemon_client_new_proxy (void);
guint            daemon_pid              (LodeDBusDaemon1 *proxy);
guint64          daemon_rss_kib          (guint            pid);
int              daemon_compare_doubles  (gconstpointer    a,
                                          gconstpointer    b);

DaemonLoad      *daemon_load_start     (const DaemonLoadSpec *spec);
void             daemon_load_wait      (DaemonLoad           *load);
const DaemonLoadStats *
                 daemon_load_stats     (DaemonLoad           *load,
                                        gboolean              mcp);
double           daemon_load_percentile (const DaemonLoadStats *stats,
                                         double                 p);
void             daemon_load_free      (DaemonLoad           *load);

void             daemon_watchdog_start (guint       seconds,
                                        DaemonLoad *load);
void             daemon_watchdog_stop  (void);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (DaemonLoad, daemon_load_free)

G_END_DECLS
