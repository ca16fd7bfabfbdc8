/* lode-code-tokenizer.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The tokenizer behind the FTS5 index and the query analyser.
 *
 * A token is an identifier: a run of ASCII letters, digits and '_', and of non-ASCII letters,
 * digits and combining marks. Everything else separates tokens; invalid UTF-8 bytes too.
 *
 * '-' joins two words when it follows an ASCII letter or digit and precedes an ASCII letter:
 * `lode-store`, `font-size`, `--no-verify` (as `no-verify`) stay one token, as their authors
 * mean them. In code `a-b` is usually a subtraction, but well-formatted code writes `a - b`,
 * and `n-1`, `p->x`, `x--` are not joined (a digit or '>' follows, or nothing does). The cost
 * of a wrong join is small, because the parts are indexed as well.
 *
 * In split mode (documents) the parts of an identifier follow it as colocated tokens, so that
 * `parseHTTPRequest2` indexes parsehttprequest2, parse, http, request — the `2` goes, see below.
 * Queries use whole mode: the search layer builds its MATCH expression from whole tokens and
 * parts itself, so a quoted query term is always looked up as exactly one token.
 *
 * Size rules, applied in both modes so that a query token always exists in the index if the
 * text had it: tokens of one byte (`i`, `x`, the `2` above) are dropped, they match almost
 * everything and would fill a quarter of the postings; tokens are cut to TOKEN_MAX_BYTES;
 * runs longer than SPLIT_MAX_BYTES (base64, hashes, minified names) are not split into parts.
 * Numbers of two or more digits are kept: people search for `404`, `8080` or `0x7f`.
 */

#define G_LOG_DOMAIN "lode-code-tokenizer"

#include "config.h"

#include <string.h>

#include "lode-code-tokenizer.h"

#define TOKEN_MAX_BYTES 64
#define SPLIT_MAX_BYTES 256

typedef enum
{
  CLASS_SEP = 0,
  CLASS_LOWER,
  CLASS_UPPER,
  CLASS_DIGIT,
  CLASS_OTHER,      /* a letter without case, or a mark */
  CLASS_UNDERSCORE,
  CLASS_DASH,
} CharClass;

/* ASCII classes; bytes ≥ 0x80 are looked at as UTF-8. */
static const guint8 ascii_class[128] = {
  ['0' ... '9'] = CLASS_DIGIT,
  ['a' ... 'z'] = CLASS_LOWER,
  ['A' ... 'Z'] = CLASS_UPPER,
  ['_'] = CLASS_UNDERSCORE,
  ['-'] = CLASS_DASH,
};

#define IS_ASCII_ALNUM(cl) ((cl) == CLASS_LOWER || (cl) == CLASS_UPPER || (cl) == CLASS_DIGIT)
#define IS_ASCII_ALPHA(cl) ((cl) == CLASS_LOWER || (cl) == CLASS_UPPER)

/* g_ascii_tolower() without the call, for the bytes of every token. */
static inline char
ascii_tolower (char c)
{
  return (char) (c + (((guint) ((guchar) c - 'A') < 26u) << 5));
}

/* Class of the character at @p (< @end), and its length in bytes. Invalid UTF-8 is one
 * separator byte. */
static inline CharClass
char_class (const guchar *p,
            const guchar *end,
            guint        *n_bytes)
{
  gunichar c;

  if (*p < 0x80)
    {
      *n_bytes = 1;
      return ascii_class[*p];
    }

  c = g_utf8_get_char_validated ((const char *) p, end - p);
  if (c == (gunichar) -1 || c == (gunichar) -2)
    {
      *n_bytes = 1;
      return CLASS_SEP;
    }

  *n_bytes = g_utf8_skip[*p];

  switch (g_unichar_type (c))
    {
    case G_UNICODE_LOWERCASE_LETTER:
      return CLASS_LOWER;
    case G_UNICODE_UPPERCASE_LETTER:
    case G_UNICODE_TITLECASE_LETTER:
      return CLASS_UPPER;
    case G_UNICODE_DECIMAL_NUMBER:
    case G_UNICODE_LETTER_NUMBER:
    case G_UNICODE_OTHER_NUMBER:
      return CLASS_DIGIT;
    case G_UNICODE_MODIFIER_LETTER:
    case G_UNICODE_OTHER_LETTER:
    case G_UNICODE_SPACING_MARK:
    case G_UNICODE_ENCLOSING_MARK:
    case G_UNICODE_NON_SPACING_MARK:
      return CLASS_OTHER;
    case G_UNICODE_CONTROL:
    case G_UNICODE_FORMAT:
    case G_UNICODE_UNASSIGNED:
    case G_UNICODE_PRIVATE_USE:
    case G_UNICODE_SURROGATE:
    case G_UNICODE_CONNECT_PUNCTUATION:
    case G_UNICODE_DASH_PUNCTUATION:
    case G_UNICODE_CLOSE_PUNCTUATION:
    case G_UNICODE_FINAL_PUNCTUATION:
    case G_UNICODE_INITIAL_PUNCTUATION:
    case G_UNICODE_OTHER_PUNCTUATION:
    case G_UNICODE_OPEN_PUNCTUATION:
    case G_UNICODE_CURRENCY_SYMBOL:
    case G_UNICODE_MODIFIER_SYMBOL:
    case G_UNICODE_MATH_SYMBOL:
    case G_UNICODE_OTHER_SYMBOL:
    case G_UNICODE_LINE_SEPARATOR:
    case G_UNICODE_PARAGRAPH_SEPARATOR:
    case G_UNICODE_SPACE_SEPARATOR:
    default:
      return CLASS_SEP;
    }
}

/* Lower-cases [@start, @end) of @text into @buf (TOKEN_MAX_BYTES + 6 bytes), cut at a
 * character boundary, and reports the token unless the size rules drop it (then *@emitted
 * is FALSE). Returns FALSE when @func asks to stop. */
static gboolean
emit (const char    *text,
      gsize          start,
      gsize          end,
      gboolean       ascii,
      gboolean       colocated,
      char          *buf,
      gboolean      *emitted,
      LodeTokenFunc  func,
      gpointer       user_data)
{
  gsize n = 0;

  *emitted = FALSE;
  if (end - start < 2)
    return TRUE;

  if (ascii)
    {
      gsize len = MIN (end - start, TOKEN_MAX_BYTES);

      for (gsize i = 0; i < len; i++)
        buf[i] = ascii_tolower (text[start + i]);
      n = len;
    }
  else
    {
      const char *p = text + start;
      const char *stop = text + end;

      while (p < stop && n < TOKEN_MAX_BYTES)
        {
          gunichar c;

          if ((guchar) *p < 0x80)
            {
              buf[n++] = ascii_tolower (*p);
              p++;
              continue;
            }

          /* The run was validated when it was scanned. */
          c = g_utf8_get_char (p);
          n += g_unichar_to_utf8 (g_unichar_tolower (c), buf + n);
          p = g_utf8_next_char (p);
        }

      if (n < 2)
        return TRUE;
    }

  *emitted = TRUE;
  return func (buf, n, start, end, colocated, user_data);
}

/* Emits the parts of the identifier [@start, @end): boundaries at '_' and '-', at a lower →
 * upper change (parseHttp), before the last capital of a capital run followed by a lower-case
 * letter (HTTPServer), and between letters and digits (sha256). Nothing is emitted when the
 * identifier is a single part. */
static gboolean
emit_parts (const char    *text,
            gsize          start,
            gsize          end,
            gboolean       ascii,
            gboolean       colocated,
            char          *buf,
            LodeTokenFunc  func,
            gpointer       user_data)
{
  const guchar *base = (const guchar *) text;
  const guchar *stop = base + end;
  gsize part_start = start;
  gsize pos = start;
  guint n_bytes = 0;
  gboolean open = FALSE;
  CharClass prev = CLASS_SEP;
  CharClass cur;
  gsize bounds[2 * (SPLIT_MAX_BYTES + 1)];
  guint n_bounds = 0;
  gboolean emitted;

  /* An ASCII run's classes come from the table, a byte each. */
  n_bytes = 1;
  cur = ascii ? ascii_class[base[pos]] : char_class (base + pos, stop, &n_bytes);
  while (pos < end)
    {
      guint next_bytes = 1;
      gsize next_pos = pos + n_bytes;
      CharClass next = next_pos >= end ? CLASS_SEP
                       : ascii ? ascii_class[base[next_pos]]
                       : char_class (base + next_pos, stop, &next_bytes);
      gboolean boundary;

      if (cur == CLASS_UNDERSCORE || cur == CLASS_DASH)
        {
          if (open)
            {
              bounds[n_bounds++] = part_start;
              bounds[n_bounds++] = pos;
              open = FALSE;
            }
        }
      else
        {
          boundary = open &&
                     (((prev == CLASS_LOWER || prev == CLASS_OTHER) && cur == CLASS_UPPER) ||
                      (prev == CLASS_UPPER && cur == CLASS_UPPER && next == CLASS_LOWER) ||
                      ((prev == CLASS_DIGIT) != (cur == CLASS_DIGIT)));
          if (boundary)
            {
              bounds[n_bounds++] = part_start;
              bounds[n_bounds++] = pos;
              open = FALSE;
            }
          if (!open)
            {
              part_start = pos;
              open = TRUE;
            }
        }

      prev = cur;
      cur = next;
      pos = next_pos;
      n_bytes = next_bytes;
    }

  if (open)
    {
      bounds[n_bounds++] = part_start;
      bounds[n_bounds++] = end;
    }

  if (n_bounds == 2 && bounds[0] == start && bounds[1] == end)
    return TRUE;

  for (guint i = 0; i < n_bounds; i += 2)
    {
      if (!emit (text, bounds[i], bounds[i + 1], ascii, colocated, buf, &emitted,
                 func, user_data))
        return FALSE;
      /* Parts of an identifier that was dropped stand on their own; the first one starts. */
      colocated |= emitted;
    }

  return TRUE;
}

/**
 * lode_code_tokenize:
 * @text: UTF-8 text; invalid sequences separate tokens
 * @len: length of @text in bytes
 * @flags: whether to emit the parts of identifiers
 * @func: (scope call): called for each token, in order
 * @user_data: data for @func
 *
 * Splits @text into lower-cased identifier tokens, as the `lode_code` FTS5 tokenizer does.
 * Offsets passed to @func never exceed @len.
 */
void
lode_code_tokenize (const char        *text,
                    gsize              len,
                    LodeTokenizeFlags  flags,
                    LodeTokenFunc      func,
                    gpointer           user_data)
{
  const guchar *base = (const guchar *) text;
  const guchar *stop = base + len;
  char buf[TOKEN_MAX_BYTES + 8];
  gsize i = 0;

  g_return_if_fail (text != NULL || len == 0);
  g_return_if_fail (func != NULL);

  while (i < len)
    {
      gsize start;
      gboolean ascii = TRUE;
      gboolean emitted_whole;
      guint n_bytes;
      guint seen;
      CharClass cl;

      /* Fast skip over ASCII separators. */
      if (base[i] < 0x80)
        {
          cl = ascii_class[base[i]];
          if (cl == CLASS_SEP || cl == CLASS_DASH)
            {
              i++;
              continue;
            }
          n_bytes = 1;
        }
      else
        {
          cl = char_class (base + i, stop, &n_bytes);
          if (cl == CLASS_SEP)
            {
              i += n_bytes;
              continue;
            }
          ascii = FALSE;
        }

      start = i;
      i += n_bytes;
      seen = 1u << cl;
      while (i < len)
        {
          if (base[i] < 0x80)
            {
              CharClass c = ascii_class[base[i]];

              if (c == CLASS_SEP)
                break;
              if (c == CLASS_DASH &&
                  !(IS_ASCII_ALNUM (cl) && i + 1 < len && base[i + 1] < 0x80 &&
                    IS_ASCII_ALPHA (ascii_class[base[i + 1]])))
                break;
              cl = c;
              seen |= 1u << c;
              i++;
            }
          else
            {
              CharClass c = char_class (base + i, stop, &n_bytes);

              if (c == CLASS_SEP)
                break;
              ascii = FALSE;
              cl = c;
              i += n_bytes;
            }
        }

      if (!emit (text, start, i, ascii, FALSE, buf, &emitted_whole, func, user_data))
        return;

      /* An ASCII run of one class (`return`, `NULL`, `404`) is one part: no parts to look
       * for, and most tokens of code are such runs. */
      if ((flags & LODE_TOKENIZE_SPLIT) != 0 && i - start <= SPLIT_MAX_BYTES &&
          !(ascii && (seen & (seen - 1)) == 0) &&
          !emit_parts (text, start, i, ascii, emitted_whole, buf, func, user_data))
        return;
    }
}

static gboolean
collect_cb (const char *token,
            gsize       len,
            gsize       start,
            gsize       end,
            gboolean    colocated,
            gpointer    user_data)
{
  g_ptr_array_add (user_data, g_strndup (token, len));
  return TRUE;
}

/**
 * lode_code_tokenize_to_strv:
 * @text: nul-terminated UTF-8 text
 * @flags: whether to emit the parts of identifiers
 *
 * Returns: (transfer full): the tokens lode_code_tokenize() finds, in order
 */
char **
lode_code_tokenize_to_strv (const char        *text,
                            LodeTokenizeFlags  flags)
{
  GPtrArray *tokens;

  g_return_val_if_fail (text != NULL, NULL);

  tokens = g_ptr_array_new ();
  lode_code_tokenize (text, strlen (text), flags, collect_cb, tokens);
  g_ptr_array_add (tokens, NULL);

  return (char **) g_ptr_array_free (tokens, FALSE);
}
