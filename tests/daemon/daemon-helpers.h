/* daemon-helpers.h — what the daemon's test suites share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-dbus-daemon.h"

G_BEGIN_DECLS

guint test_daemon_pid (LodeDBusDaemon1 *proxy);

G_END_DECLS
