/* lode-app-action.c — an action of the desktop app, activated on the session bus
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "lode-app-action.h"

/**
 * lode_app_action_message_new:
 * @action: the app's action ("search", "show-graph", "show-symbol")
 * @parameter: (transfer floating): its parameter
 *
 * The one call that opens the desktop app on something (loded's Shell search provider,
 * codebase_graph_visualize's interactive mode): org.freedesktop.Application's
 * ActivateAction on the app's object path, the app id with dots as slashes. D-Bus
 * activation starts the app when it is not running.
 *
 * Returns: (transfer full): the method call, for the caller to send as it waits or not
 */
GDBusMessage *
lode_app_action_message_new (const char *action,
                             GVariant   *parameter)
{
  g_autofree char *app_path = g_strconcat ("/", LODE_APP_ID, NULL);
  GDBusMessage *message;
  GVariantBuilder platform_data;

  g_return_val_if_fail (action != NULL, NULL);
  g_return_val_if_fail (parameter != NULL, NULL);

  g_strdelimit (app_path, ".", '/');
  g_variant_builder_init (&platform_data, G_VARIANT_TYPE_VARDICT);
  message = g_dbus_message_new_method_call (LODE_APP_ID, app_path,
                                            "org.freedesktop.Application", "ActivateAction");
  g_dbus_message_set_body (message,
                           g_variant_new ("(s@ava{sv})", action,
                                          g_variant_new_parsed ("[%v]", parameter),
                                          &platform_data));
  return message;
}
