/* lode-graph-source.c — where a graph view's nodes and edges come from
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include "lode-graph-source.h"

G_DEFINE_INTERFACE (LodeGraphSource, lode_graph_source, G_TYPE_OBJECT)

static void
lode_graph_source_default_init (LodeGraphSourceInterface *iface)
{
}

/**
 * lode_graph_source_load_async:
 * @self: a #LodeGraphSource
 * @root: the project
 * @key: the node to draw the graph around
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Finds the nodes around @key, one step each way, within the bound the source draws.
 */
void
lode_graph_source_load_async (LodeGraphSource     *self,
                              const char          *root,
                              const char          *key,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_return_if_fail (LODE_IS_GRAPH_SOURCE (self));
  g_return_if_fail (root != NULL && key != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  LODE_GRAPH_SOURCE_GET_IFACE (self)->load_async (self, root, key, cancellable, callback,
                                                  user_data);
}

/**
 * lode_graph_source_load_finish:
 * @self: a #LodeGraphSource
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the graph, its focus the node asked for
 */
LodeGraphModel *
lode_graph_source_load_finish (LodeGraphSource  *self,
                               GAsyncResult     *result,
                               GError          **error)
{
  g_return_val_if_fail (LODE_IS_GRAPH_SOURCE (self), NULL);

  return LODE_GRAPH_SOURCE_GET_IFACE (self)->load_finish (self, result, error);
}

/**
 * lode_graph_source_reach_async:
 * @self: a #LodeGraphSource
 * @root: the project
 * @key: a node
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Finds everything that reaches @key (its blast radius).
 */
void
lode_graph_source_reach_async (LodeGraphSource     *self,
                               const char          *root,
                               const char          *key,
                               GCancellable        *cancellable,
                               GAsyncReadyCallback  callback,
                               gpointer             user_data)
{
  g_return_if_fail (LODE_IS_GRAPH_SOURCE (self));
  g_return_if_fail (root != NULL && key != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  LODE_GRAPH_SOURCE_GET_IFACE (self)->reach_async (self, root, key, cancellable, callback,
                                                   user_data);
}

/**
 * lode_graph_source_reach_finish:
 * @self: a #LodeGraphSource
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the keys of the nodes that reach the node, nearest
 *   first, the node itself not included
 */
GStrv
lode_graph_source_reach_finish (LodeGraphSource  *self,
                                GAsyncResult     *result,
                                GError          **error)
{
  g_return_val_if_fail (LODE_IS_GRAPH_SOURCE (self), NULL);

  return LODE_GRAPH_SOURCE_GET_IFACE (self)->reach_finish (self, result, error);
}
