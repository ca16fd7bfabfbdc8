/* lode-toast.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gtk/gtk.h>

G_BEGIN_DECLS

/* Seconds a toast stays: long enough to read an error, not so long it outlives its page. */
#define LODE_TOAST_SECONDS       5
#define LODE_TOAST_ERROR_SECONDS 10

void  lode_toast_show              (GtkWidget    *widget,
                                    const char   *text);
void  lode_toast_show_error        (GtkWidget    *widget,
                                    const char   *what,
                                    const GError *error);
char *lode_toast_shorten_urls      (const char   *text);

G_END_DECLS
