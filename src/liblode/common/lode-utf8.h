/* lode-utf8.h — UTF-8 validation at the speed of source text
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

gboolean lode_utf8_validate_len (const char  *text,
                                 gsize        length,
                                 const char **end);

G_END_DECLS
