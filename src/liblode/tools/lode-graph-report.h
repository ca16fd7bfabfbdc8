/* lode-graph-report.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "lode-graph.h"
#include "lode-project.h"

G_BEGIN_DECLS

/* Most files a stats, cycles or impact answer lists; the counts are always complete. */
#define LODE_GRAPH_REPORT_MAX_ITEMS 500

JsonObject *lode_graph_report_indexed    (LodeProject         *project,
                                          const LodeIndexReport *report,
                                          GError             **error);
JsonObject *lode_graph_report_query      (LodeProject         *project,
                                          const char          *file,
                                          LodeGraphDirection   direction,
                                          guint                depth,
                                          GError             **error);
JsonObject *lode_graph_report_stats      (LodeProject         *project,
                                          guint                top,
                                          GError             **error);
JsonObject *lode_graph_report_circular   (LodeProject         *project,
                                          const char          *scope,
                                          guint                limit,
                                          GError             **error);
JsonObject *lode_graph_report_visualize  (LodeProject         *project,
                                          const char          *file,
                                          guint                depth,
                                          guint                max_nodes,
                                          char               **svg,
                                          GError             **error);
JsonObject *lode_graph_report_visualize_symbol (LodeProject  *project,
                                                JsonObject   *symbol_report,
                                                char        **svg,
                                                GError      **error);
JsonObject *lode_graph_report_status     (LodeProject         *project,
                                          GError             **error);
JsonObject *lode_graph_report_remove     (LodeProject         *project,
                                          GError             **error);
JsonObject *lode_graph_report_impact     (LodeProject         *project,
                                          const char          *rev_range,
                                          guint                depth,
                                          guint                limit,
                                          GCancellable        *cancellable,
                                          GError             **error);

char       *lode_graph_format_build      (JsonObject          *report);
char       *lode_graph_format_query      (JsonObject          *report);
char       *lode_graph_format_stats      (JsonObject          *report);
char       *lode_graph_format_circular   (JsonObject          *report);
char       *lode_graph_format_visualize  (JsonObject          *report);
char       *lode_graph_format_status     (JsonObject          *report);
char       *lode_graph_format_remove     (JsonObject          *report);
char       *lode_graph_format_impact     (JsonObject          *report);

G_END_DECLS
