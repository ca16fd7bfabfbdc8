/* lode-doc-comment.c — the text of doc comments and their summaries
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-doc-comment.h"

/* Cuts @out to @max bytes at most, at a character boundary. */
static void
truncate_utf8 (GString *out,
               gsize    max)
{
  const char *end;

  if (out->len <= max)
    return;
  /* What is valid of the first @max bytes: up to the character they cut. */
  g_utf8_validate (out->str, max, &end);
  g_string_truncate (out, end - out->str);
}

/**
 * lode_doc_comment_append:
 * @out: where the text goes
 * @comment: a comment as written: `/// …` lines, a `/ ** … * /` block, `#` or `--` lines, a
 *   Python docstring
 * @len: its length in bytes
 * @max: how long @out may grow, in bytes
 *
 * Appends the text of @comment without its markers (leading `//`, `/ *`, `*`, `#`, `--`,
 * `"""`, the closing `* /`), a line of text per line, to what @out holds: a doc made of
 * several comments (Rust's `///` lines are one each) is appended one comment at a time.
 * Paragraphs stay apart: a comment line without text makes an empty line before the next
 * text, which lode_doc_comment_summary() stops at; @out ends with a newline while that next
 * text is still to come (g_strchomp() it once every comment is in).
 */
void
lode_doc_comment_append (GString    *out,
                         const char *comment,
                         gsize       len,
                         gsize       max)
{
  const char *end = comment + len;
  const char *p = comment;

  while (p < end && out->len < max)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *q;

      if (eol == NULL)
        eol = end;
      q = eol;

      while (p < q && g_ascii_isspace (*p))
        p++;
      while (p < q && strchr ("/*#!-\"'", *p) != NULL)
        p++;
      while (q > p && (g_ascii_isspace (q[-1]) || q[-1] == '/' || q[-1] == '*' ||
                       q[-1] == '"' || q[-1] == '\''))
        {
          if (q[-1] == '/' && q - 1 > p && q[-2] != '*')
            break;
          q--;
        }
      while (p < q && g_ascii_isspace (*p))
        p++;

      /* A newline at the end of @out: the line before was empty. */
      if (q > p)
        {
          if (out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append_len (out, p, q - p);
        }
      else if (out->len > 0 && out->str[out->len - 1] != '\n')
        g_string_append_c (out, '\n');
      p = eol + 1;
    }

  truncate_utf8 (out, max);
}

/**
 * lode_doc_comment_summary:
 * @doc: (nullable): a doc comment's text, as lode_doc_comment_append() leaves it
 * @max: its length at most, in bytes
 *
 * What a doc says first: its first paragraph (up to an empty line, or a line of tags such
 * as `@param`), on one line. Leading empty lines (C#'s `<summary>` once its tags are gone)
 * are skipped.
 *
 * Returns: (transfer full) (nullable): the summary, %NULL when @doc has no text
 */
char *
lode_doc_comment_summary (const char *doc,
                          gsize       max)
{
  g_autoptr(GString) out = NULL;
  const char *p = doc;

  if (doc == NULL)
    return NULL;
  while (g_ascii_isspace (*p))
    p++;
  out = g_string_new (NULL);
  while (*p != '\0' && out->len < max)
    {
      const char *eol = strchr (p, '\n');
      const char *q = eol != NULL ? eol : p + strlen (p);
      const char *s = p;

      while (s < q && g_ascii_isspace (*s))
        s++;
      if (s == q || (*s == '@' && out->len > 0))
        break;
      while (q > s && g_ascii_isspace (q[-1]))
        q--;
      if (out->len > 0)
        g_string_append_c (out, ' ');
      g_string_append_len (out, s, q - s);
      if (eol == NULL)
        break;
      p = eol + 1;
    }
  truncate_utf8 (out, max);
  if (out->len == 0)
    return NULL;
  return g_string_free (g_steal_pointer (&out), FALSE);
}
