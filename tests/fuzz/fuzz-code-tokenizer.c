/* fuzz-code-tokenizer.c — the code-aware FTS tokenizer (lode_code_tokenize)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-code-tokenizer.h"

typedef struct
{
  gsize len;
  gsize last_start;
  guint n_tokens;
} Check;

static gboolean
token_cb (const char *token,
          gsize       len,
          gsize       start,
          gsize       end,
          gboolean    colocated,
          gpointer    user_data)
{
  Check *check = user_data;

  /* What lode-code-tokenizer.c promises: tokens of 2 to 64 bytes plus one character's cut,
   * lower-cased valid UTF-8, offsets inside the text and in order. */
  g_assert_cmpuint (len, >=, 2);
  g_assert_cmpuint (len, <=, 64 + 6);
  g_assert_true (g_utf8_validate_len (token, len, NULL));
  g_assert_cmpuint (start, <, end);
  g_assert_cmpuint (end, <=, check->len);
  g_assert_cmpuint (start, >=, check->last_start);
  check->last_start = start;
  check->n_tokens++;

  return TRUE;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  g_auto(GStrv) tokens = NULL;
  Check split = { size, 0, 0 };
  Check whole = { size, 0, 0 };

  lode_code_tokenize ((const char *) data, size, LODE_TOKENIZE_SPLIT, token_cb, &split);
  lode_code_tokenize ((const char *) data, size, LODE_TOKENIZE_WHOLE, token_cb, &whole);
  /* Split mode emits every whole token and maybe its parts. */
  g_assert_cmpuint (split.n_tokens, >=, whole.n_tokens);

  tokens = lode_code_tokenize_to_strv (text, LODE_TOKENIZE_SPLIT);
  g_assert_nonnull (tokens);

  return 0;
}
