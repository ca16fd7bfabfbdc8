/* lode-code-tokenizer.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeTokenFunc:
 * @token: the lower-cased token (not nul-terminated)
 * @len: its length in bytes
 * @start: byte offset of the source text it came from
 * @end: byte offset just past that text
 * @colocated: %TRUE when it is a part of the identifier emitted just before it
 * @user_data: closure
 *
 * Returns: %FALSE to stop tokenizing
 */
typedef gboolean (*LodeTokenFunc) (const char *token,
                                   gsize       len,
                                   gsize       start,
                                   gsize       end,
                                   gboolean    colocated,
                                   gpointer    user_data);

/**
 * LodeTokenizeFlags:
 * @LODE_TOKENIZE_WHOLE: emit only whole identifiers (used for queries)
 * @LODE_TOKENIZE_SPLIT: also emit the parts of camelCase, PascalCase, snake_case,
 *   kebab-case identifiers and digit runs, colocated with the whole identifier
 */
typedef enum
{
  LODE_TOKENIZE_WHOLE = 0,
  LODE_TOKENIZE_SPLIT = 1 << 0,
} LodeTokenizeFlags;

void     lode_code_tokenize                (const char         *text,
                                            gsize               len,
                                            LodeTokenizeFlags   flags,
                                            LodeTokenFunc       func,
                                            gpointer            user_data);
char   **lode_code_tokenize_to_strv        (const char         *text,
                                            LodeTokenizeFlags   flags);

G_END_DECLS
