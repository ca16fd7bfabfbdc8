/* lode-markdown.h — text from outside inside the markdown Lode writes
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

void lode_markdown_append_code (GString    *out,
                                const char *text);

G_END_DECLS
