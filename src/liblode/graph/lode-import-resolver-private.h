/* lode-import-resolver-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

GStrv _lode_import_parse_declarations (const char *path,
                                       const char *text,
                                       gsize       len);

G_END_DECLS
