/* lode-window.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

#include "lode-connection.h"

G_BEGIN_DECLS

#define LODE_TYPE_WINDOW (lode_window_get_type ())
G_DECLARE_FINAL_TYPE (LodeWindow, lode_window, LODE, WINDOW, AdwApplicationWindow)

LodeWindow *lode_window_new         (GtkApplication *application,
                                     LodeConnection *connection);
void        lode_window_search      (LodeWindow     *self,
                                     const char     *query);
void        lode_window_show_graph  (LodeWindow     *self,
                                     const char     *root,
                                     const char     *file);
void        lode_window_show_symbol (LodeWindow     *self,
                                     const char     *root,
                                     const char     *name,
                                     const char     *file);

G_END_DECLS
