/* lode-graph-source.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-graph-model.h"

G_BEGIN_DECLS

#define LODE_TYPE_GRAPH_SOURCE (lode_graph_source_get_type ())
G_DECLARE_INTERFACE (LodeGraphSource, lode_graph_source, LODE, GRAPH_SOURCE, GObject)

/**
 * LodeGraphSourceInterface:
 * @load_async: finds the graph around a node of a project
 * @load_finish: its result
 * @reach_async: finds every node that reaches a node, through any number of edges (what a
 *   change to it can break: its importers, its callers), as far as the source follows them
 * @reach_finish: their keys
 *
 * Where a graph view's nodes and edges come from: a project's imports now, its call graph
 * (the symbol-graph tools) next. The view and the page know nodes only by their keys.
 */
struct _LodeGraphSourceInterface
{
  GTypeInterface parent_iface;

  void             (*load_async)   (LodeGraphSource      *self,
                                    const char           *root,
                                    const char           *key,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
  LodeGraphModel  *(*load_finish)  (LodeGraphSource      *self,
                                    GAsyncResult         *result,
                                    GError              **error);
  void             (*reach_async)  (LodeGraphSource      *self,
                                    const char           *root,
                                    const char           *key,
                                    GCancellable         *cancellable,
                                    GAsyncReadyCallback   callback,
                                    gpointer              user_data);
  GStrv            (*reach_finish) (LodeGraphSource      *self,
                                    GAsyncResult         *result,
                                    GError              **error);
};

void            lode_graph_source_load_async   (LodeGraphSource      *self,
                                                const char           *root,
                                                const char           *key,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
LodeGraphModel *lode_graph_source_load_finish  (LodeGraphSource      *self,
                                                GAsyncResult         *result,
                                                GError              **error);
void            lode_graph_source_reach_async  (LodeGraphSource      *self,
                                                const char           *root,
                                                const char           *key,
                                                GCancellable         *cancellable,
                                                GAsyncReadyCallback   callback,
                                                gpointer              user_data);
GStrv           lode_graph_source_reach_finish (LodeGraphSource      *self,
                                                GAsyncResult         *result,
                                                GError              **error);

G_END_DECLS
