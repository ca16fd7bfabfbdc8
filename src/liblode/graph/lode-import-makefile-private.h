/* lode-import-makefile-private.h — the include directories a Makefile gives the compiler
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean _lode_import_is_makefile                 (const char *path);
GStrv    _lode_import_parse_makefile_include_dirs (const char *text,
                                                   gsize       len);

G_END_DECLS
