/* lode-dbus-connect.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-dbus-daemon.h"

G_BEGIN_DECLS

LodeDBusDaemon1 *lode_dbus_daemon_connect (gboolean no_daemon);

G_END_DECLS
