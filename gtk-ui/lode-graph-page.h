/* lode-graph-page.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-connection.h"

G_BEGIN_DECLS

#define LODE_TYPE_GRAPH_PAGE (lode_graph_page_get_type ())
G_DECLARE_FINAL_TYPE (LodeGraphPage, lode_graph_page, LODE, GRAPH_PAGE, GtkWidget)

void lode_graph_page_set_connection (LodeGraphPage  *self,
                                     LodeConnection *connection,
                                     GListModel     *projects);
void lode_graph_page_show_file      (LodeGraphPage  *self,
                                     const char     *file);

G_END_DECLS
