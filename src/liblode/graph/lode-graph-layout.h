/* lode-graph-layout.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Space between two columns of boxes, where the arrows run, and between two boxes of a
 * column. */
#define LODE_GRAPH_LAYOUT_COLUMN_GAP 72.0
#define LODE_GRAPH_LAYOUT_BOX_GAP    14.0

typedef struct _LodeGraphLayout LodeGraphLayout;

LodeGraphLayout *lode_graph_layout_new             (void);
void             lode_graph_layout_free            (LodeGraphLayout *self);
guint            lode_graph_layout_add_node        (LodeGraphLayout *self,
                                                    double           width,
                                                    double           height);
guint            lode_graph_layout_add_edge        (LodeGraphLayout *self,
                                                    guint            from,
                                                    guint            to);
void             lode_graph_layout_run             (LodeGraphLayout *self);

guint            lode_graph_layout_get_n_nodes     (const LodeGraphLayout *self);
guint            lode_graph_layout_get_n_edges     (const LodeGraphLayout *self);
void             lode_graph_layout_get_node        (const LodeGraphLayout *self,
                                                    guint            node,
                                                    double          *x,
                                                    double          *y,
                                                    double          *width,
                                                    double          *height);
guint            lode_graph_layout_get_column      (const LodeGraphLayout *self,
                                                    guint            node);
void             lode_graph_layout_get_edge_ends   (const LodeGraphLayout *self,
                                                    guint            edge,
                                                    guint           *from,
                                                    guint           *to);
const double    *lode_graph_layout_get_edge_points (const LodeGraphLayout *self,
                                                    guint            edge,
                                                    guint           *n_points);
gboolean         lode_graph_layout_is_reversed     (const LodeGraphLayout *self,
                                                    guint            edge);
void             lode_graph_layout_get_size        (const LodeGraphLayout *self,
                                                    double          *width,
                                                    double          *height);
guint            lode_graph_layout_count_crossings (const LodeGraphLayout *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGraphLayout, lode_graph_layout_free)

G_END_DECLS
