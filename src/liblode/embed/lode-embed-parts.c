/* lode-embed-parts.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-embedder"

#include "config.h"

#include <string.h>

#include "lode-embed-parts.h"
#include "lode-embedder-private.h"
#include "lode-error.h"

/*
 * A text longer than a model takes is never cut off: it is split into parts that fit (each
 * provider by its own measure: an estimate of its tokenizer's tokens, or the tokens
 * themselves), the parts are embedded, and the text's vector is their mean weighted by the
 * parts' lengths, normalised again. The embedding pass splits chunks before they reach a
 * provider; the providers split what still does not fit them (a query, a part their own
 * tokenizer finds longer).
 */

static gboolean
is_cjk (gunichar c)
{
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x2F800 && c <= 0x2FA1F);
}

static guint
word_tokens (guint n_letters,
             guint n_other)
{
  /* WordPiece keeps common words whole and cuts rare ones (identifiers) into pieces of a
   * few letters; a digit or a non-ASCII letter may be a piece of its own. */
  return n_other + (n_letters > 0 ? 1 + (n_letters - 1) / 3 : 0);
}

/**
 * lode_embed_estimate_tokens:
 * @text: UTF-8 text
 * @length: its length in bytes, or -1 if nul-terminated
 *
 * An estimate, meant to err high, of the number of tokens a BERT-style WordPiece tokenizer
 * makes of @text (without [CLS] and [SEP]): every punctuation or symbol character and every
 * CJK ideograph is a token; in a word, every digit and non-ASCII letter may be one, and
 * ASCII letters count one token per three after the first.
 *
 * Returns: the estimate
 */
guint
lode_embed_estimate_tokens (const char *text,
                            gssize      length)
{
  const char *end;
  guint tokens = 0;
  guint n_letters = 0;
  guint n_other = 0;

  g_return_val_if_fail (text != NULL, 0);

  end = text + (length < 0 ? strlen (text) : (gsize) length);
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        c = 0xFFFD;

      if (g_unichar_isspace (c) || g_unichar_ispunct (c) || is_cjk (c) ||
          (c < 0x80 && g_ascii_ispunct (c)) ||
          g_unichar_type (c) == G_UNICODE_MATH_SYMBOL ||
          g_unichar_type (c) == G_UNICODE_CURRENCY_SYMBOL ||
          g_unichar_type (c) == G_UNICODE_MODIFIER_SYMBOL ||
          g_unichar_type (c) == G_UNICODE_OTHER_SYMBOL)
        {
          tokens += word_tokens (n_letters, n_other);
          n_letters = n_other = 0;
          if (!g_unichar_isspace (c))
            tokens++;
        }
      else if (c < 0x80 && g_ascii_isalpha (c))
        n_letters++;
      else
        n_other++;
    }

  return tokens + word_tokens (n_letters, n_other);
}

typedef struct
{
  const char *start;
  gsize       len;
  guint       cost;
} Unit;

/* Cuts [start, end) into units of at most @budget estimated tokens: lines, else words with
 * their trailing blanks, else runs of characters. */
static void
add_units (GArray                *units,
           const char            *start,
           const char            *end,
           guint                  budget,
           LodeTokenEstimateFunc  estimate,
           int                    level)
{
  const char *p = start;

  while (p < end)
    {
      const char *next;
      Unit unit;

      if (level == 0)
        {
          next = memchr (p, '\n', end - p);
          next = next != NULL ? next + 1 : end;
        }
      else if (level == 1)
        {
          next = p;
          while (next < end && !g_ascii_isspace (*next))
            next++;
          while (next < end && g_ascii_isspace (*next))
            next++;
        }
      else
        {
          /* Every character costs at most one token, the run one more. */
          next = p;
          for (guint n = 0; next < end && n + 1 < budget; n++)
            {
              next = g_utf8_find_next_char (next, end);
              if (next == NULL)
                next = end;
            }
        }

      unit.start = p;
      unit.len = next - p;
      unit.cost = estimate (p, next - p);
      if (unit.cost > budget && level < 2)
        add_units (units, p, next, budget, estimate, level + 1);
      else
        g_array_append_val (units, unit);
      p = next;
    }
}

static gboolean
is_blank (const char *text,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;

  return TRUE;
}

/**
 * lode_embed_split:
 * @text: UTF-8 text
 * @max_tokens: the model's input limit, [CLS] and [SEP] included
 * @estimate: the model's token estimate, such as lode_embed_estimate_tokens()
 *
 * Splits @text into consecutive parts that each fit the model by @estimate with a margin (an
 * eighth of the limit, for the estimate and a document prefix): at line breaks when lines
 * fit, else between words, else between characters. Blank parts are dropped. Nothing is cut
 * off: the parts, concatenated with what was dropped, are @text. An empty or blank text that
 * does not fit is one part, a space, which says the same nothing (and an empty input is
 * refused by some servers).
 *
 * Returns: (transfer full) (element-type utf8): the parts; one (all of @text) when it fits
 */
GPtrArray *
lode_embed_split (const char            *text,
                  guint                  max_tokens,
                  LodeTokenEstimateFunc  estimate)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) units = g_array_new (FALSE, FALSE, sizeof (Unit));
  guint budget;
  const char *part_start = NULL;
  gsize part_len = 0;
  guint part_cost = 0;

  g_return_val_if_fail (text != NULL, NULL);
  g_return_val_if_fail (estimate != NULL, NULL);

  budget = MAX (max_tokens, 16);
  budget = budget - budget / 8 - 2;

  if (*text == '\0')
    {
      g_ptr_array_add (parts, g_strdup (" "));
      return g_steal_pointer (&parts);
    }

  /* An estimate never exceeds the length in bytes: a short text fits without it. */
  if (strlen (text) <= budget || estimate (text, -1) <= budget)
    {
      g_ptr_array_add (parts, g_strdup (text));
      return g_steal_pointer (&parts);
    }

  add_units (units, text, text + strlen (text), budget, estimate, 0);
  for (guint i = 0; i <= units->len; i++)
    {
      const Unit *unit = i < units->len ? &g_array_index (units, Unit, i) : NULL;

      if (part_start != NULL && (unit == NULL || part_cost + unit->cost > budget))
        {
          if (!is_blank (part_start, part_len))
            g_ptr_array_add (parts, g_strndup (part_start, part_len));
          part_start = NULL;
        }
      if (unit == NULL)
        break;
      if (part_start == NULL)
        {
          part_start = unit->start;
          part_len = 0;
          part_cost = 0;
        }
      part_len += unit->len;
      part_cost += unit->cost;
    }
  if (parts->len == 0)
    g_ptr_array_add (parts, g_strdup (" "));

  return g_steal_pointer (&parts);
}

struct _LodeEmbedParts
{
  GPtrArray *texts;     /* (element-type utf8) (nullable): every part, NULL-terminated */
  GArray    *weights;   /* double: each part's weight in its text's mean */
  GArray    *firsts;    /* guint: each text's first part */
};

/**
 * lode_embed_parts_new:
 *
 * Returns: (transfer full): no text yet: each is added with lode_embed_parts_add_text(), or
 *   with lode_embed_parts_begin_text() and its parts
 */
LodeEmbedParts *
lode_embed_parts_new (void)
{
  LodeEmbedParts *parts = g_new0 (LodeEmbedParts, 1);

  parts->texts = g_ptr_array_new_with_free_func (g_free);
  g_ptr_array_add (parts->texts, NULL);
  parts->weights = g_array_new (FALSE, FALSE, sizeof (double));
  parts->firsts = g_array_new (FALSE, FALSE, sizeof (guint));
  return parts;
}

void
lode_embed_parts_free (LodeEmbedParts *parts)
{
  if (parts == NULL)
    return;

  g_ptr_array_unref (parts->texts);
  g_array_unref (parts->weights);
  g_array_unref (parts->firsts);
  g_free (parts);
}

/**
 * lode_embed_parts_begin_text:
 * @parts: a #LodeEmbedParts
 *
 * Starts the next text: the parts added from now on are its own.
 */
void
lode_embed_parts_begin_text (LodeEmbedParts *parts)
{
  guint first = parts->weights->len;

  g_return_if_fail (parts != NULL);

  g_array_append_val (parts->firsts, first);
}

/**
 * lode_embed_parts_add:
 * @parts: a #LodeEmbedParts with a text begun
 * @text: (transfer full) (nullable): the part, or %NULL when the caller embeds parts that are
 *   no text (the built-in encoder's windows of tokens)
 * @weight: its weight in the text's mean, its length
 */
void
lode_embed_parts_add (LodeEmbedParts *parts,
                      char           *text,
                      double          weight)
{
  g_return_if_fail (parts != NULL && parts->firsts->len > 0);

  parts->texts->pdata[parts->texts->len - 1] = text;
  g_ptr_array_add (parts->texts, NULL);
  g_array_append_val (parts->weights, weight);
}

/**
 * lode_embed_parts_add_text:
 * @parts: a #LodeEmbedParts
 * @text: UTF-8 text
 * @max_tokens: the model's input limit
 * @estimate: the model's token estimate
 *
 * Adds @text, split by lode_embed_split(), each part weighing its estimate.
 */
void
lode_embed_parts_add_text (LodeEmbedParts        *parts,
                           const char            *text,
                           guint                  max_tokens,
                           LodeTokenEstimateFunc  estimate)
{
  g_autoptr(GPtrArray) split = NULL;

  g_return_if_fail (parts != NULL && text != NULL && estimate != NULL);

  split = lode_embed_split (text, max_tokens, estimate);
  lode_embed_parts_begin_text (parts);
  for (guint i = 0; i < split->len; i++)
    {
      char *part = g_steal_pointer (&split->pdata[i]);

      lode_embed_parts_add (parts, part, MAX (1, estimate (part, -1)));
    }
}

guint
lode_embed_parts_get_n_texts (LodeEmbedParts *parts)
{
  g_return_val_if_fail (parts != NULL, 0);

  return parts->firsts->len;
}

guint
lode_embed_parts_get_n_parts (LodeEmbedParts *parts)
{
  g_return_val_if_fail (parts != NULL, 0);

  return parts->weights->len;
}

/**
 * lode_embed_parts_get_texts:
 * @parts: a #LodeEmbedParts
 *
 * Returns: (transfer none) (array zero-terminated=1): the parts of every text, in order, to
 *   embed
 */
const char * const *
lode_embed_parts_get_texts (LodeEmbedParts *parts)
{
  g_return_val_if_fail (parts != NULL, NULL);

  return (const char * const *) parts->texts->pdata;
}

/**
 * lode_embed_parts_combine:
 * @parts: a #LodeEmbedParts
 * @vectors: (array): the vectors of every part, in order, each of @dims floats and
 *   L2-normalised
 * @dims: their dimensions
 * @error: return location for a #GError
 *
 * A text of one part keeps its part's vector; the vector of a text of several is their mean
 * weighted by their lengths, normalised again.
 *
 * Returns: (transfer full) (nullable): one vector per text; %NULL with
 *   %LODE_ERROR_EMBEDDER when the parts of a text add up to nothing
 */
LodeEmbeddings *
lode_embed_parts_combine (LodeEmbedParts  *parts,
                          const float     *vectors,
                          guint            dims,
                          GError         **error)
{
  g_autoptr(LodeEmbeddings) embeddings = NULL;

  g_return_val_if_fail (parts != NULL, NULL);

  embeddings = lode_embeddings_new (parts->firsts->len, dims);
  for (guint t = 0; t < parts->firsts->len; t++)
    {
      guint first = g_array_index (parts->firsts, guint, t);
      guint end = t + 1 < parts->firsts->len ? g_array_index (parts->firsts, guint, t + 1)
                                              : parts->weights->len;
      float *out = embeddings->data + (gsize) t * dims;

      if (end - first == 1)
        {
          memcpy (out, vectors + (gsize) first * dims, dims * sizeof (float));
          continue;
        }

      for (guint p = first; p < end; p++)
        {
          const float *in = vectors + (gsize) p * dims;
          double weight = g_array_index (parts->weights, double, p);

          for (guint d = 0; d < dims; d++)
            out[d] += (float) (weight * in[d]);
        }
      if (!_lode_embedder_normalize (out, dims))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "The parts of text %u add up to a zero or non-finite vector", t + 1);
          return NULL;
        }
    }

  return g_steal_pointer (&embeddings);
}
