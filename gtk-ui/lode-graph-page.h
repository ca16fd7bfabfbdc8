/* lode-graph-page.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-code-preview.h"
#include "lode-connection.h"
#include "lode-graph-view.h"

G_BEGIN_DECLS

#define LODE_TYPE_GRAPH_PAGE (lode_graph_page_get_type ())
G_DECLARE_FINAL_TYPE (LodeGraphPage, lode_graph_page, LODE, GRAPH_PAGE, GtkWidget)

void             lode_graph_page_set_connection (LodeGraphPage  *self,
                                                 LodeConnection *connection,
                                                 GListModel     *projects);
void             lode_graph_page_show_file   (LodeGraphPage  *self,
                                              const char     *file);
void             lode_graph_page_show        (LodeGraphPage  *self,
                                              const char     *root,
                                              const char     *file);
const char      *lode_graph_page_get_file    (LodeGraphPage  *self);
LodeGraphView   *lode_graph_page_get_view    (LodeGraphPage  *self);
LodeCodePreview *lode_graph_page_get_preview (LodeGraphPage  *self);
gboolean         lode_graph_page_export      (LodeGraphPage  *self,
                                              GFile          *file,
                                              gboolean        svg,
                                              GError        **error);

G_END_DECLS
