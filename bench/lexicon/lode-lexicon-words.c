/* lode-lexicon-words.c — cuts text into words the way Lode's index does, for the lexicon's
 * corpus builder
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-lexicon"

#include "config.h"

#include <stdio.h>
#include <string.h>

#include "lode-code-tokenizer.h"

/*
 * Reads lines on standard input and writes, for each, the words of each tab-separated field,
 * space-separated, the fields still separated by tabs: the tokens of lode_code_tokenize() in
 * split mode, where an identifier that has parts is replaced by its parts (`purgeStaleSessions`
 * → purge stale sessions), since the lexicon relates words, not whole identifiers. The corpus
 * builder (bench/lexicon/build-corpus.py) pipes everything it gathers through this, so that
 * the lexicon's vocabulary is the index's.
 */

typedef struct
{
  GString *out;
  GString *pending;   /* the last whole token, written unless its parts follow */
} Words;

static void
flush_pending (Words *w)
{
  if (w->pending->len == 0)
    return;
  if (w->out->len > 0 && w->out->str[w->out->len - 1] != '\t')
    g_string_append_c (w->out, ' ');
  g_string_append_len (w->out, w->pending->str, w->pending->len);
  g_string_truncate (w->pending, 0);
}

static gboolean
token_cb (const char *token,
          gsize       len,
          gsize       start,
          gsize       end,
          gboolean    colocated,
          gpointer    user_data)
{
  Words *w = user_data;

  if (!colocated)
    {
      flush_pending (w);
      g_string_append_len (w->pending, token, len);
      return TRUE;
    }

  /* A part: the whole identifier before it is not written. */
  g_string_truncate (w->pending, 0);
  if (w->out->len > 0 && w->out->str[w->out->len - 1] != '\t')
    g_string_append_c (w->out, ' ');
  g_string_append_len (w->out, token, len);
  return TRUE;
}

int
main (int   argc,
      char *argv[])
{
  Words w = { g_string_new (NULL), g_string_new (NULL) };
  char *line = NULL;
  size_t cap = 0;
  ssize_t n;

  if (argc > 1)
    {
      fprintf (stderr, "usage: %s < lines > words\n", argv[0]);
      return 2;
    }

  while ((n = getline (&line, &cap, stdin)) >= 0)
    {
      const char *field = line;

      if (n > 0 && line[n - 1] == '\n')
        line[--n] = '\0';
      g_string_truncate (w.out, 0);
      for (;;)
        {
          const char *tab = strchr (field, '\t');
          gsize len = tab != NULL ? (gsize) (tab - field) : strlen (field);

          lode_code_tokenize (field, len, LODE_TOKENIZE_SPLIT, token_cb, &w);
          flush_pending (&w);
          if (tab == NULL)
            break;
          g_string_append_c (w.out, '\t');
          field = tab + 1;
        }
      g_string_append_c (w.out, '\n');
      fwrite (w.out->str, 1, w.out->len, stdout);
    }

  free (line);
  g_string_free (w.out, TRUE);
  g_string_free (w.pending, TRUE);
  return ferror (stdout) ? 1 : 0;
}
