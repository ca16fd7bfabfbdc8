/* daemon-helpers.c — what the daemon's test suites share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "daemon-helpers.h"

/* The process id of the loded that owns the daemon's name on @proxy's bus. */
guint
test_daemon_pid (LodeDBusDaemon1 *proxy)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) reply = NULL;
  GDBusConnection *connection = g_dbus_proxy_get_connection (G_DBUS_PROXY (proxy));
  guint pid = 0;

  reply = g_dbus_connection_call_sync (connection, "org.freedesktop.DBus",
                                       "/org/freedesktop/DBus", "org.freedesktop.DBus",
                                       "GetConnectionUnixProcessID",
                                       g_variant_new ("(s)", LODE_DAEMON_BUS_NAME),
                                       G_VARIANT_TYPE ("(u)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                       NULL, &error);
  g_assert_no_error (error);
  g_variant_get (reply, "(u)", &pid);
  return pid;
}
