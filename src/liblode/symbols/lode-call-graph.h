/* lode-call-graph.h — who calls what: the call edges of a project and the walks over them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "lode-calls-resolver.h"
#include "lode-index-store.h"

G_BEGIN_DECLS


GPtrArray  *lode_stored_calls_from_edges   (LodeCallResolver *resolver,
                                            guint             file,
                                            GPtrArray        *edges);

/**
 * LodeCallNode:
 * @path: its file
 * @name: its name
 * @kind: (nullable): "function", "method", "class", … (interned)
 * @container: (nullable): the enclosing class, impl or namespace
 * @scope: (nullable): its scope path (module, package, namespace, class)
 * @signature: (nullable): the declaration's head
 * @start_line: first line
 * @end_line: last line
 *
 * A definition of the graph.
 */
typedef struct
{
  const char *path;
  const char *name;
  const char *kind;
  const char *container;
  const char *scope;
  const char *signature;
  guint       start_line;
  guint       end_line;
} LodeCallNode;

/* In a #LodeCallLink: no definition at that end (an unresolved or external call). */
#define LODE_CALL_GRAPH_NONE G_MAXUINT

/**
 * LodeCallLink:
 * @node: the definition at the other end, or %LODE_CALL_GRAPH_NONE
 * @call: (transfer none): the call, owned by the graph
 */
typedef struct
{
  guint                 node;
  const LodeStoredCall *call;
} LodeCallLink;

/**
 * LodeCallReach:
 * @node: a definition
 * @distance: calls between it and where the walk started
 * @via: the definition one step nearer the start, or %LODE_CALL_GRAPH_NONE for the start
 */
typedef struct
{
  guint node;
  guint distance;
  guint via;
} LodeCallReach;

/**
 * LodeCallEntry:
 * @node: a definition
 * @reason: (transfer none): why it is an entry point ("main", "command", "route",
 *   "uncalled", "test")
 * @label: (transfer none) (nullable): the command or route it is registered under
 * @n_callees: the calls it makes that reach a definition
 */
typedef struct
{
  guint       node;
  const char *reason;
  const char *label;
  guint       n_callees;
} LodeCallEntry;

#define LODE_TYPE_CALL_GRAPH (lode_call_graph_get_type ())
G_DECLARE_FINAL_TYPE (LodeCallGraph, lode_call_graph, LODE, CALL_GRAPH, GObject)

LodeCallGraph      *lode_call_graph_new          (void);
LodeCallGraph      *lode_call_graph_load         (LodeIndexStore       *store,
                                                  GError              **error);
guint               lode_call_graph_add_node     (LodeCallGraph        *self,
                                                  const char           *path,
                                                  const char           *name,
                                                  const char           *kind,
                                                  const char           *container,
                                                  const char           *scope,
                                                  const char           *signature,
                                                  guint                 start_line,
                                                  guint                 end_line);
void                lode_call_graph_add_call     (LodeCallGraph        *self,
                                                  LodeStoredCall       *call);
void                lode_call_graph_add_entry    (LodeCallGraph        *self,
                                                  guint                 node,
                                                  const char           *reason,
                                                  const char           *label);
guint               lode_call_graph_get_n_nodes  (LodeCallGraph        *self);
const LodeCallNode *lode_call_graph_get_node     (LodeCallGraph        *self,
                                                  guint                 node);
gboolean            lode_call_graph_lookup       (LodeCallGraph        *self,
                                                  const char           *path,
                                                  guint                 line,
                                                  guint                *node);
GArray             *lode_call_graph_find         (LodeCallGraph        *self,
                                                  const char           *name,
                                                  const char           *file);
GArray             *lode_call_graph_dup_callers  (LodeCallGraph        *self,
                                                  guint                 node);
GArray             *lode_call_graph_dup_callees  (LodeCallGraph        *self,
                                                  guint                 node);
GArray             *lode_call_graph_reach        (LodeCallGraph        *self,
                                                  guint                 start,
                                                  gboolean              callers,
                                                  guint                 depth);
GArray             *lode_call_graph_trace        (LodeCallGraph        *self,
                                                  guint                 from,
                                                  guint                 to,
                                                  guint                 depth,
                                                  gboolean             *reached);
GArray             *lode_call_graph_entry_points (LodeCallGraph        *self,
                                                  guint                 limit);

G_END_DECLS
