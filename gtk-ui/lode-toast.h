/* lode-toast.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

void lode_toast_show_error (GtkWidget    *widget,
                            const char   *what,
                            const GError *error);

G_END_DECLS
