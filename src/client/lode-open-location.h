/* lode-open-location.h — open a file at a line in the user's editor
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

gboolean lode_open_location (const char         *path,
                             guint               line,
                             GAppLaunchContext  *context,
                             GError            **error);

G_END_DECLS
