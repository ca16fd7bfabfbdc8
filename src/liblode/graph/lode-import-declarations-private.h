/* lode-import-declarations-private.h — the package or namespace a JVM, C# or PHP file declares
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _lode_import_declares_packages   (const char *path);
GStrv    _lode_import_parse_declarations  (const char *path,
                                           const char *text,
                                           gsize       len);

G_END_DECLS
