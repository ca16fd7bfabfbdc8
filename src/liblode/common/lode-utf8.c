/* lode-utf8.c — UTF-8 validation at the speed of source text
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "lode-utf8.h"

/* Whether none of the eight bytes of @w has its high bit set and none is zero. */
static inline gboolean
plain_ascii (guint64 w)
{
  return ((w | ((w - G_GUINT64_CONSTANT (0x0101010101010101)) & ~w))
          & G_GUINT64_CONSTANT (0x8080808080808080)) == 0;
}

static inline gboolean
continuation (guchar c)
{
  return (c & 0xc0) == 0x80;
}

/**
 * lode_utf8_validate_len:
 * @text: bytes
 * @length: their number
 * @end: (out) (optional): where the valid text ends
 *
 * g_utf8_validate_len() with the same answer and the same @end (a NUL byte, an overlong
 * form, a surrogate or a code point past U+10FFFF is not valid), but sixteen bytes at a step
 * through ASCII: GLib's checks a byte at a time, and took 38 % of a regex search over git
 * v2.47.0 that ran through every file.
 *
 * Returns: whether all of @text is valid UTF-8
 */
gboolean
lode_utf8_validate_len (const char  *text,
                        gsize        length,
                        const char **end)
{
  const guchar *p = (const guchar *) text;
  const guchar *stop = p + length;

  while (p < stop)
    {
      guchar c;
      guchar low = 0x80, high = 0xbf;
      gsize n;

      while (stop - p >= 16)
        {
          guint64 a, b;

          memcpy (&a, p, 8);
          memcpy (&b, p + 8, 8);
          if (!plain_ascii (a) || !plain_ascii (b))
            break;
          p += 16;
        }
      if (p == stop)
        break;

      c = *p;
      if (c < 0x80)
        {
          if (c == 0)
            break;
          p++;
          continue;
        }
      /* The second byte's range rules out overlong forms, surrogates and code points past
       * U+10FFFF (the Unicode Standard's table 3-7). */
      if (c >= 0xc2 && c <= 0xdf)
        n = 2;
      else if (c >= 0xe0 && c <= 0xef)
        {
          n = 3;
          low = c == 0xe0 ? 0xa0 : 0x80;
          high = c == 0xed ? 0x9f : 0xbf;
        }
      else if (c >= 0xf0 && c <= 0xf4)
        {
          n = 4;
          low = c == 0xf0 ? 0x90 : 0x80;
          high = c == 0xf4 ? 0x8f : 0xbf;
        }
      else
        break;
      if ((gsize) (stop - p) < n || p[1] < low || p[1] > high
          || (n > 2 && !continuation (p[2])) || (n > 3 && !continuation (p[3])))
        break;
      p += n;
    }

  if (end != NULL)
    *end = (const char *) p;
  return p == stop;
}
