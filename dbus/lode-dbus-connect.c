/* lode-dbus-connect.c — how clients (lode, lode-mcp) reach loded
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-dbus"

#include "config.h"

#include "lode-dbus-connect.h"

/**
 * lode_dbus_daemon_connect:
 * @no_daemon: the caller was told not to use the daemon (`--no-daemon`)
 *
 * The daemon, when a session bus is there and loded can be activated on it. %NULL with
 * @no_daemon, with `LODE_NO_DAEMON` set, without a session bus, or when loded is not
 * installed: the caller then runs the engine in its own process. Callers register the
 * `LODE_ERROR` domain first, so that daemon errors come back as `LODE_ERROR`.
 *
 * Returns: (transfer full) (nullable): a proxy without call timeout
 */
LodeDBusDaemon1 *
lode_dbus_daemon_connect (gboolean no_daemon)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;
  g_autoptr(GError) error = NULL;
  LodeDBusDaemon1 *proxy;

  if (no_daemon || g_getenv ("LODE_NO_DAEMON") != NULL)
    return NULL;

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  if (bus == NULL)
    return NULL;

  /* Activates loded if it is not running; fails when it is not installed. */
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "StartServiceByName",
                                       g_variant_new ("(su)", LODE_DAEMON_BUS_NAME, 0),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                       NULL, &error);
  if (reply == NULL)
    {
      g_debug ("No daemon: %s", error->message);
      return NULL;
    }

  proxy = lode_dbus_daemon1_proxy_new_sync (bus, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                            LODE_DAEMON_BUS_NAME, LODE_DAEMON_OBJECT_PATH,
                                            NULL, &error);
  if (proxy == NULL)
    {
      g_debug ("No daemon: %s", error->message);
      return NULL;
    }

  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), G_MAXINT);
  return proxy;
}
