/* lode-app-action.h — an action of the desktop app, activated on the session bus
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GDBusMessage *lode_app_action_message_new (const char *action,
                                           GVariant   *parameter);

G_END_DECLS
