/* lode-search-page.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-code-preview.h"
#include "lode-connection.h"

G_BEGIN_DECLS

#define LODE_TYPE_SEARCH_PAGE (lode_search_page_get_type ())
G_DECLARE_FINAL_TYPE (LodeSearchPage, lode_search_page, LODE, SEARCH_PAGE, GtkWidget)

void lode_search_page_set_connection (LodeSearchPage *self,
                                      LodeConnection *connection,
                                      GListModel     *projects);
void lode_search_page_set_query      (LodeSearchPage *self,
                                      const char     *query);
void lode_search_page_focus_entry    (LodeSearchPage *self);
LodeCodePreview *lode_search_page_get_preview (LodeSearchPage *self);

G_END_DECLS
