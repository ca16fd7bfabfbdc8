/* lode-symbol-page.h
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

#define LODE_TYPE_SYMBOL_PAGE (lode_symbol_page_get_type ())
G_DECLARE_FINAL_TYPE (LodeSymbolPage, lode_symbol_page, LODE, SYMBOL_PAGE, GtkWidget)

void             lode_symbol_page_set_connection (LodeSymbolPage *self,
                                                  LodeConnection *connection);
void             lode_symbol_page_show           (LodeSymbolPage *self,
                                                  const char     *root,
                                                  const char     *name,
                                                  const char     *file);
const char      *lode_symbol_page_get_name       (LodeSymbolPage *self);
GtkListBox      *lode_symbol_page_get_callers    (LodeSymbolPage *self);
GtkListBox      *lode_symbol_page_get_callees    (LodeSymbolPage *self);
LodeCodePreview *lode_symbol_page_get_preview    (LodeSymbolPage *self);
void             lode_symbol_page_show_graph     (LodeSymbolPage *self);
LodeGraphView   *lode_symbol_page_get_graph_view (LodeSymbolPage *self);
GtkToggleButton *lode_symbol_page_get_blast_radius (LodeSymbolPage *self);

G_END_DECLS
