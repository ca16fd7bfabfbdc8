/* lode-query-terms.c — where a query's words appear in code, to mark them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <string.h>

#include "lode-query-terms.h"

/*
 * The terms of a query are its identifiers and their parts (parse_widget_config → parse,
 * widget, config; parseConfig → parse, config), lower-case, without the little words of
 * prose (a pasted issue's "the", "was", "an"). A term is found only where a word or a part
 * of an identifier starts — never in the middle of one ("an" is not in "Instant") — and a
 * short one only where a part also ends; a term of four letters or more may be the start of
 * a longer part ("config" in "configuration"). Terms are ASCII, so they only match at ASCII
 * bytes and leave other UTF-8 sequences whole.
 */

#define PREFIX_MIN 4

struct _LodeQueryTerms
{
  GPtrArray *terms;     /* longest first */
};

static const char *const stop_words[] = {
  "a", "about", "after", "all", "also", "an", "and", "any", "are", "as", "at", "be", "been",
  "but", "by", "can", "could", "did", "do", "does", "for", "from", "had", "has", "have", "how",
  "i", "if", "in", "into", "is", "it", "its", "me", "my", "no", "not", "of", "on", "or", "our",
  "should", "so", "some", "than", "that", "the", "their", "them", "then", "there", "these",
  "this", "those", "to", "was", "we", "were", "what", "when", "where", "which", "while", "who",
  "why", "will", "with", "would", "you", "your",
};

static gboolean
is_stop_word (const char *word)
{
  for (guint i = 0; i < G_N_ELEMENTS (stop_words); i++)
    if (strcmp (word, stop_words[i]) == 0)
      return TRUE;

  return FALSE;
}

static void
add_term (GPtrArray  *terms,
          const char *start,
          gsize       length)
{
  g_autofree char *term = NULL;

  if (length < 2)
    return;

  term = g_ascii_strdown (start, length);
  if (is_stop_word (term))
    return;
  for (guint i = 0; i < terms->len; i++)
    if (strcmp (terms->pdata[i], term) == 0)
      return;
  g_ptr_array_add (terms, g_steal_pointer (&term));
}

static int
compare_longest_first (gconstpointer a,
                       gconstpointer b)
{
  return (int) strlen (*(const char **) b) - (int) strlen (*(const char **) a);
}

/**
 * lode_query_terms_new:
 * @query: what was searched for
 *
 * Returns: (transfer full): the terms of @query
 */
LodeQueryTerms *
lode_query_terms_new (const char *query)
{
  LodeQueryTerms *self = g_new0 (LodeQueryTerms, 1);
  const char *p = query;

  g_return_val_if_fail (query != NULL, self);

  self->terms = g_ptr_array_new_with_free_func (g_free);
  while (*p != '\0')
    {
      const char *start;
      const char *part;

      if (!g_ascii_isalnum (*p) && *p != '_')
        {
          p++;
          continue;
        }

      start = part = p;
      while (g_ascii_isalnum (*p) || *p == '_')
        {
          gboolean boundary = *p == '_' ||
                              (p > part && g_ascii_isupper (*p) && g_ascii_islower (p[-1]));

          if (boundary)
            {
              add_term (self->terms, part, p - part);
              part = *p == '_' ? p + 1 : p;
            }
          p++;
        }
      if (part != start)
        add_term (self->terms, part, p - part);
      add_term (self->terms, start, p - start);
    }

  g_ptr_array_sort (self->terms, compare_longest_first);
  return self;
}

void
lode_query_terms_free (LodeQueryTerms *self)
{
  if (self == NULL)
    return;

  g_ptr_array_unref (self->terms);
  g_free (self);
}

gboolean
lode_query_terms_is_empty (LodeQueryTerms *self)
{
  g_return_val_if_fail (self != NULL, TRUE);

  return self->terms->len == 0;
}

/* Whether a part of a word starts at @i: a word's start, after '_' or a digit run, at a
 * capital after a small letter (parseConfig), or at the last capital of a run before a small
 * letter (HTTPServer). */
static gboolean
starts_part (const char *text,
             gsize       length,
             gsize       i)
{
  char c = text[i];
  char before = i > 0 ? text[i - 1] : ' ';

  if (!g_ascii_isalnum (c))
    return FALSE;
  if (!g_ascii_isalnum (before))
    return TRUE;
  if (g_ascii_isdigit (c) != g_ascii_isdigit (before))
    return TRUE;
  if (g_ascii_isupper (c) && g_ascii_islower (before))
    return TRUE;
  return g_ascii_isupper (c) && g_ascii_isupper (before) && i + 1 < length &&
         g_ascii_islower (text[i + 1]);
}

/* Whether a part of a word ends before @j. */
static gboolean
ends_part (const char *text,
           gsize       length,
           gsize       j)
{
  return j >= length || !g_ascii_isalnum (text[j]) || starts_part (text, length, j);
}

/**
 * lode_query_terms_find:
 * @self: the terms of a query
 * @text: where to look
 * @length: bytes of @text
 * @start: (out): where the first term found starts
 * @matched: (out): its length in @text
 *
 * Returns: %TRUE if a term was found: the first in @text, the longest there
 */
gboolean
lode_query_terms_find (LodeQueryTerms *self,
                       const char     *text,
                       gsize           length,
                       gsize          *start,
                       gsize          *matched)
{
  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (text != NULL || length == 0, FALSE);

  for (gsize i = 0; i < length; i++)
    {
      if (!starts_part (text, length, i))
        continue;

      for (guint t = 0; t < self->terms->len; t++)
        {
          const char *term = self->terms->pdata[t];
          gsize n = strlen (term);

          if (n > length - i || g_ascii_strncasecmp (text + i, term, n) != 0)
            continue;
          if (n < PREFIX_MIN && !ends_part (text, length, i + n))
            continue;
          *start = i;
          *matched = n;
          return TRUE;
        }
    }

  return FALSE;
}
