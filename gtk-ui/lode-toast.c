/* lode-toast.c — errors shown as a toast of the window a widget is in
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-toast.h"

/**
 * lode_toast_show_error:
 * @widget: a widget of a window
 * @what: what failed, for people ("Cannot add the folder")
 * @error: why, in the daemon's words
 *
 * Logs the error and shows it as a toast in @widget's window, through the window's
 * "win.show-toast" action (a widget outside a #LodeWindow only logs it).
 */
void
lode_toast_show_error (GtkWidget    *widget,
                       const char   *what,
                       const GError *error)
{
  g_autoptr(GError) copy = NULL;
  g_autofree char *title = NULL;

  g_return_if_fail (GTK_IS_WIDGET (widget));
  g_return_if_fail (what != NULL && error != NULL);

  copy = g_error_copy (error);
  g_dbus_error_strip_remote_error (copy);
  /* Translators: the first %s says what failed, the second why. */
  title = g_markup_printf_escaped (_("%s: %s"), what, copy->message);
  g_message ("%s", title);

  gtk_widget_activate_action (widget, "win.show-toast", "s", title);
}
