/* lode-call-graph-source.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-connection.h"
#include "lode-graph-source.h"

G_BEGIN_DECLS

/* How many calls down a symbol's callees are drawn, unless set; codebase_flow's bounds. */
#define LODE_CALL_GRAPH_DEPTH     2
#define LODE_CALL_GRAPH_MAX_DEPTH 10

#define LODE_TYPE_CALL_GRAPH_SOURCE (lode_call_graph_source_get_type ())
G_DECLARE_FINAL_TYPE (LodeCallGraphSource, lode_call_graph_source, LODE, CALL_GRAPH_SOURCE,
                      GObject)

LodeGraphSource *lode_call_graph_source_new      (LodeConnection *connection);
char            *lode_call_graph_source_make_key (const char     *file,
                                                  const char     *name);
gboolean         lode_call_graph_source_split_key (const char    *key,
                                                   char         **file,
                                                   char         **name);
const char      *lode_call_graph_source_name_of   (JsonObject    *definition);
void             lode_call_graph_source_set_depth (LodeCallGraphSource *self,
                                                   guint          depth);

G_END_DECLS
