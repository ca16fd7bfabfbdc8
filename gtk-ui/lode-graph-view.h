/* lode-graph-view.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-graph-model.h"

G_BEGIN_DECLS

#define LODE_TYPE_GRAPH_VIEW (lode_graph_view_get_type ())
G_DECLARE_FINAL_TYPE (LodeGraphView, lode_graph_view, LODE, GRAPH_VIEW, GtkWidget)

GtkWidget      *lode_graph_view_new             (void);
void            lode_graph_view_set_model       (LodeGraphView    *self,
                                                 LodeGraphModel   *model);
LodeGraphModel *lode_graph_view_get_model       (LodeGraphView    *self);
const char     *lode_graph_view_get_selected    (LodeGraphView    *self);
void            lode_graph_view_select          (LodeGraphView    *self,
                                                 const char       *key);
void            lode_graph_view_set_reach       (LodeGraphView    *self,
                                                 const char       *target,
                                                 const char * const *keys);
gboolean        lode_graph_view_is_reached      (LodeGraphView    *self,
                                                 const char       *key);
void            lode_graph_view_zoom            (LodeGraphView    *self,
                                                 double            factor);
void            lode_graph_view_fit             (LodeGraphView    *self);
void            lode_graph_view_set_adaptive    (LodeGraphView    *self,
                                                 gboolean          adaptive);
gboolean        lode_graph_view_is_vertical     (LodeGraphView    *self);
double          lode_graph_view_get_scale       (LodeGraphView    *self);
gboolean        lode_graph_view_get_node_bounds (LodeGraphView    *self,
                                                 const char       *key,
                                                 graphene_rect_t  *bounds);
gboolean        lode_graph_view_export          (LodeGraphView    *self,
                                                 GFile            *file,
                                                 gboolean          svg,
                                                 GError          **error);
void            lode_graph_view_save_as         (LodeGraphView    *self,
                                                 gboolean          svg,
                                                 const char       *name);

G_END_DECLS
