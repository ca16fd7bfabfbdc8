/* fuzz-wordpiece.c — the WordPiece tokenizer of the built-in encoder
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-wordpiece.h"

/* The tokenizer of the tests' tiny BERT: BERT's uncased vocabulary, with accent stripping
 * and Chinese character splitting. */
static LodeWordpiece *tokenizer;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autoptr(GError) error = NULL;

  tokenizer = lode_wordpiece_new_from_dir (LODE_SOURCE_ROOT
                                           "/tests/liblode/fixtures/tiny-bert-random", &error);
  g_assert_no_error (error);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *text = g_strndup ((const char *) data, size);
  guint vocab_size = lode_wordpiece_get_vocab_size (tokenizer);
  g_autoptr(GArray) ids = NULL;
  g_autoptr(GArray) cut = NULL;
  g_autoptr(GError) error = NULL;
  gboolean truncated = FALSE;

  ids = lode_wordpiece_encode (tokenizer, text, 0, &truncated, &error);
  if (ids == NULL)
    {
      /* Only text that is not UTF-8 is refused. */
      g_assert_false (g_utf8_validate (text, -1, NULL));
      return 0;
    }

  g_assert_cmpuint (ids->len, >=, 2);
  g_assert_cmpint (g_array_index (ids, gint32, 0), ==, lode_wordpiece_get_cls_id (tokenizer));
  for (guint i = 0; i < ids->len; i++)
    {
      gint32 id = g_array_index (ids, gint32, i);

      g_assert_cmpint (id, >=, 0);
      g_assert_cmpint (id, <, (gint32) vocab_size);
    }

  /* A limit cuts the same sequence. */
  cut = lode_wordpiece_encode (tokenizer, text, 8, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (cut->len, <=, 8);
  for (guint i = 0; i + 1 < cut->len; i++)
    g_assert_cmpint (g_array_index (cut, gint32, i), ==, g_array_index (ids, gint32, i));

  return 0;
}
