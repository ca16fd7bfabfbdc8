/* lode-search-row.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

#define LODE_TYPE_SEARCH_ROW (lode_search_row_get_type ())
G_DECLARE_FINAL_TYPE (LodeSearchRow, lode_search_row, LODE, SEARCH_ROW, GtkListBoxRow)

GtkWidget  *lode_search_row_new       (const char    *project,
                                       JsonObject    *result,
                                       const char    *query);
const char *lode_search_row_get_path  (LodeSearchRow *self);
const char *lode_search_row_get_relative_path (LodeSearchRow *self);
guint       lode_search_row_get_line  (LodeSearchRow *self);
guint       lode_search_row_get_end_line (LodeSearchRow *self);
char       *lode_search_snippet_markup (const char   *snippet,
                                        const char   *query);

G_END_DECLS
