/* fuzz-sentencepiece.c — the SentencePiece tokenizer of the Universal Sentence Encoder Lite
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "fuzz-common.h"
#include "lode-sentencepiece.h"

/* A vocabulary in the real one's shape: six reserved pieces, every printable ASCII
 * character, pieces that start words (▁…), pieces that overlap (so that the Viterbi pass has
 * choices), multi-byte characters, and a null score as the real vocabulary has. */
static LodeSentencepiece *tokenizer;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  static const char *const words[] = {
    "the", "to", "a", "in", "of", "int", "char", "return", "if", "for", "parse", "http",
    "re", "quest", "request", "session", "s", "ing", "ed", "\xc3\xa9", "\xe5\xad\x97",
  };
  g_autoptr(GString) json = g_string_new ("[[\"<unk>\", 0], [\"<s>\", 0], [\"</s>\", 0], "
                                          "[\"e1\", 0], [\"e2\", 0], [\"e3\", 0], "
                                          "[\"\xe2\x96\x81\", -2.5], [\":\", null]");
  g_autoptr(GError) error = NULL;

  for (char c = '!'; c <= '~'; c++)
    if (c != '"' && c != '\\' && c != ':')
      g_string_append_printf (json, ", [\"%c\", -%u.5]", c, 3 + (guint) c % 5);
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    g_string_append_printf (json, ", [\"%s\", -%u.25], [\"\xe2\x96\x81%s\", -%u.75]", words[i],
                            2 + i % 4, words[i], 1 + i % 3);
  g_string_append (json, "]");

  tokenizer = lode_sentencepiece_new_from_data (json->str, json->len, &error);
  g_assert_no_error (error);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(GArray) again = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autofree char *valid = g_utf8_make_valid ((const char *) data, size);
  g_autofree char *normal = g_utf8_normalize (valid, -1, G_NORMALIZE_NFKC);
  guint vocab = lode_sentencepiece_get_vocab_size (tokenizer);
  gsize pieces_len = 0;
  gsize spaces = 0;

  lode_sentencepiece_encode (tokenizer, (const char *) data, size, ids);

  for (guint i = 0; i < ids->len; i++)
    {
      gint32 id = g_array_index (ids, gint32, i);

      g_assert_cmpint (id, >=, 0);
      g_assert_cmpint (id, <, (gint32) vocab);
      /* Unknown characters in a row are one unknown piece; the reserved pieces but the
       * unknown one are never produced. */
      g_assert_true (id == 0 || id >= LODE_SENTENCEPIECE_RESERVED);
      if (i > 0)
        g_assert_false (id == 0 && g_array_index (ids, gint32, i - 1) == 0);
      if (id != 0)
        pieces_len += strlen (lode_sentencepiece_get_piece (tokenizer, id));
    }

  /* The pieces are cut from the text: with "▁" (3 bytes) for the start and every space,
   * they are never longer than it. */
  for (const char *p = normal != NULL ? normal : ""; *p != '\0'; p++)
    spaces += *p == ' ';
  g_assert_cmpuint (pieces_len, <=, (normal != NULL ? strlen (normal) : 0) + 2 * spaces + 3);
  if (normal == NULL || normal[0] == '\0')
    g_assert_cmpuint (ids->len, ==, 0);

  /* The same text, the same pieces. */
  lode_sentencepiece_encode (tokenizer, (const char *) data, size, again);
  g_assert_cmpmem (ids->data, ids->len * sizeof (gint32), again->data, again->len * sizeof (gint32));

  return 0;
}
