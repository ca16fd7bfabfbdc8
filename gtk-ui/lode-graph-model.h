/* lode-graph-model.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * LodeGraphNodeKind:
 * @LODE_GRAPH_NODE_ITEM: one thing of the graph: a file, a symbol
 * @LODE_GRAPH_NODE_GROUP: several drawn as one box: a folder's files
 * @LODE_GRAPH_NODE_MORE: what was left out, counted
 */
typedef enum
{
  LODE_GRAPH_NODE_ITEM,
  LODE_GRAPH_NODE_GROUP,
  LODE_GRAPH_NODE_MORE,
} LodeGraphNodeKind;

/**
 * LodeGraphNode:
 * @key: what the source calls it, unique in the model (a file's path, a symbol's id)
 * @label: its text
 * @detail: (nullable): a second, smaller line: a file's folder, a folder's count
 * @path: (nullable): the file to preview, relative to the project
 * @line: the line to preview it at, 0 for the top
 * @language: (nullable): the language its colour comes from
 * @kind: what it stands for
 * @count: the things it stands for (a folder's files), 1 for an item
 * @in_cycle: it is part of a cycle (of imports, of calls)
 */
typedef struct
{
  char              *key;
  char              *label;
  char              *detail;
  char              *path;
  guint              line;
  char              *language;
  LodeGraphNodeKind  kind;
  guint              count;
  gboolean           in_cycle;
} LodeGraphNode;

/**
 * LodeGraphEdge:
 * @from: the node it starts from (imports, calls)
 * @to: the node it points to
 * @count: the links it stands for
 * @in_cycle: it is part of a cycle
 */
typedef struct
{
  guint    from;
  guint    to;
  guint    count;
  gboolean in_cycle;
} LodeGraphEdge;

#define LODE_TYPE_GRAPH_MODEL (lode_graph_model_get_type ())
G_DECLARE_FINAL_TYPE (LodeGraphModel, lode_graph_model, LODE, GRAPH_MODEL, GObject)

LodeGraphModel      *lode_graph_model_new         (const char          *focus);
const char          *lode_graph_model_get_focus   (LodeGraphModel      *self);
guint                lode_graph_model_add_node    (LodeGraphModel      *self,
                                                   const LodeGraphNode *node);
void                 lode_graph_model_add_edge    (LodeGraphModel      *self,
                                                   guint                from,
                                                   guint                to,
                                                   guint                count,
                                                   gboolean             in_cycle);
guint                lode_graph_model_get_n_nodes (LodeGraphModel      *self);
const LodeGraphNode *lode_graph_model_get_node    (LodeGraphModel      *self,
                                                   guint                node);
guint                lode_graph_model_get_n_edges (LodeGraphModel      *self);
const LodeGraphEdge *lode_graph_model_get_edge    (LodeGraphModel      *self,
                                                   guint                edge);
gboolean             lode_graph_model_lookup      (LodeGraphModel      *self,
                                                   const char          *key,
                                                   guint               *node);
void                 lode_graph_model_merge       (LodeGraphModel      *self,
                                                   LodeGraphModel      *other);

G_END_DECLS
