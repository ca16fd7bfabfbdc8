/* lode-graph-model.c — the nodes and edges a graph view draws
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include "lode-graph-model.h"

/*
 * What a LodeGraphSource found around a focus: nodes known by the source's keys (a file's
 * path for imports; a symbol for calls), edges between them. Expanding a node merges the
 * nodes and edges around it into the model; "changed" tells the view to draw again.
 */

struct _LodeGraphModel
{
  GObject     parent_instance;
  char       *focus;
  GArray     *nodes;     /* LodeGraphNode */
  GArray     *edges;     /* LodeGraphEdge */
  GHashTable *by_key;    /* key (the node's) → index + 1 */
  GHashTable *by_ends;   /* from << 32 | to → index + 1 */
};

G_DEFINE_FINAL_TYPE (LodeGraphModel, lode_graph_model, G_TYPE_OBJECT)

enum { CHANGED, N_SIGNALS };
static guint signals [N_SIGNALS];

static void
node_clear (LodeGraphNode *node)
{
  g_free (node->key);
  g_free (node->label);
  g_free (node->detail);
  g_free (node->path);
  g_free (node->language);
}

/**
 * lode_graph_model_new:
 * @focus: the key of the node the graph is drawn around
 *
 * Returns: (transfer full): an empty model
 */
LodeGraphModel *
lode_graph_model_new (const char *focus)
{
  LodeGraphModel *self;

  g_return_val_if_fail (focus != NULL, NULL);

  self = g_object_new (LODE_TYPE_GRAPH_MODEL, NULL);
  self->focus = g_strdup (focus);
  return self;
}

const char *
lode_graph_model_get_focus (LodeGraphModel *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_MODEL (self), NULL);

  return self->focus;
}

/**
 * lode_graph_model_add_node:
 * @self: a #LodeGraphModel
 * @node: the node, copied
 *
 * Returns: the node's index; a node with the same key keeps the one it has
 */
guint
lode_graph_model_add_node (LodeGraphModel      *self,
                           const LodeGraphNode *node)
{
  LodeGraphNode copy = *node;
  gpointer index;

  g_return_val_if_fail (LODE_IS_GRAPH_MODEL (self), 0);
  g_return_val_if_fail (node != NULL && node->key != NULL && node->label != NULL, 0);

  index = g_hash_table_lookup (self->by_key, node->key);
  if (index != NULL)
    return GPOINTER_TO_UINT (index) - 1;

  copy.key = g_strdup (node->key);
  copy.label = g_strdup (node->label);
  copy.detail = g_strdup (node->detail);
  copy.path = g_strdup (node->path);
  copy.language = g_strdup (node->language);
  g_array_append_val (self->nodes, copy);
  g_hash_table_insert (self->by_key, g_strdup (node->key), GUINT_TO_POINTER (self->nodes->len));

  return self->nodes->len - 1;
}

/**
 * lode_graph_model_add_edge:
 * @self: a #LodeGraphModel
 * @from: the index of the node the edge starts from
 * @to: the index of the node it points to
 * @count: the links it stands for
 * @in_cycle: whether it is part of a cycle
 *
 * An edge between the same nodes again only updates the first.
 */
void
lode_graph_model_add_edge (LodeGraphModel *self,
                           guint           from,
                           guint           to,
                           guint           count,
                           gboolean        in_cycle)
{
  gint64 key = ((gint64) from << 32) | to;
  gpointer index;
  LodeGraphEdge edge = { from, to, MAX (count, 1), in_cycle };

  g_return_if_fail (LODE_IS_GRAPH_MODEL (self));
  g_return_if_fail (from < self->nodes->len && to < self->nodes->len);

  index = g_hash_table_lookup (self->by_ends, &key);
  if (index != NULL)
    {
      LodeGraphEdge *known = &g_array_index (self->edges, LodeGraphEdge,
                                             GPOINTER_TO_UINT (index) - 1);

      known->count = MAX (known->count, edge.count);
      known->in_cycle |= in_cycle;
      return;
    }

  g_array_append_val (self->edges, edge);
  g_hash_table_insert (self->by_ends, g_memdup2 (&key, sizeof key),
                       GUINT_TO_POINTER (self->edges->len));
}

guint
lode_graph_model_get_n_nodes (LodeGraphModel *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_MODEL (self), 0);

  return self->nodes->len;
}

const LodeGraphNode *
lode_graph_model_get_node (LodeGraphModel *self,
                           guint           node)
{
  g_return_val_if_fail (LODE_IS_GRAPH_MODEL (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  return &g_array_index (self->nodes, LodeGraphNode, node);
}

guint
lode_graph_model_get_n_edges (LodeGraphModel *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_MODEL (self), 0);

  return self->edges->len;
}

const LodeGraphEdge *
lode_graph_model_get_edge (LodeGraphModel *self,
                           guint           edge)
{
  g_return_val_if_fail (LODE_IS_GRAPH_MODEL (self), NULL);
  g_return_val_if_fail (edge < self->edges->len, NULL);

  return &g_array_index (self->edges, LodeGraphEdge, edge);
}

/**
 * lode_graph_model_lookup:
 * @self: a #LodeGraphModel
 * @key: a node's key
 * @node: (out) (optional): its index
 *
 * Returns: whether @key is a node of @self
 */
gboolean
lode_graph_model_lookup (LodeGraphModel *self,
                         const char     *key,
                         guint          *node)
{
  gpointer index;

  g_return_val_if_fail (LODE_IS_GRAPH_MODEL (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  index = g_hash_table_lookup (self->by_key, key);
  if (index == NULL)
    return FALSE;
  if (node != NULL)
    *node = GPOINTER_TO_UINT (index) - 1;
  return TRUE;
}

/**
 * lode_graph_model_merge:
 * @self: a #LodeGraphModel
 * @other: the graph around one of its nodes
 *
 * Adds the items of @other and the edges between them (its groups would hide items @self
 * shows one by one, so they are left out) and emits #LodeGraphModel::changed.
 */
void
lode_graph_model_merge (LodeGraphModel *self,
                        LodeGraphModel *other)
{
  g_autofree guint *index_of = NULL;

  g_return_if_fail (LODE_IS_GRAPH_MODEL (self));
  g_return_if_fail (LODE_IS_GRAPH_MODEL (other));

  index_of = g_new (guint, MAX (other->nodes->len, 1));
  for (guint i = 0; i < other->nodes->len; i++)
    {
      const LodeGraphNode *node = &g_array_index (other->nodes, LodeGraphNode, i);

      index_of[i] = node->kind == LODE_GRAPH_NODE_ITEM ? lode_graph_model_add_node (self, node)
                                                       : G_MAXUINT;
    }
  for (guint i = 0; i < other->edges->len; i++)
    {
      const LodeGraphEdge *edge = &g_array_index (other->edges, LodeGraphEdge, i);

      if (index_of[edge->from] != G_MAXUINT && index_of[edge->to] != G_MAXUINT)
        lode_graph_model_add_edge (self, index_of[edge->from], index_of[edge->to], edge->count,
                                   edge->in_cycle);
    }

  g_signal_emit (self, signals [CHANGED], 0);
}

static void
lode_graph_model_finalize (GObject *object)
{
  LodeGraphModel *self = (LodeGraphModel *)object;

  g_free (self->focus);
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_hash_table_unref (self->by_key);
  g_hash_table_unref (self->by_ends);

  G_OBJECT_CLASS (lode_graph_model_parent_class)->finalize (object);
}

static void
lode_graph_model_class_init (LodeGraphModelClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_graph_model_finalize;

  /**
   * LodeGraphModel::changed:
   *
   * Nodes or edges were added after the model was first drawn.
   */
  signals [CHANGED] = g_signal_new ("changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                                    NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lode_graph_model_init (LodeGraphModel *self)
{
  self->nodes = g_array_new (FALSE, TRUE, sizeof (LodeGraphNode));
  g_array_set_clear_func (self->nodes, (GDestroyNotify) node_clear);
  self->edges = g_array_new (FALSE, TRUE, sizeof (LodeGraphEdge));
  self->by_key = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->by_ends = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free, NULL);
}
