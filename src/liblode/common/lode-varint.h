/* lode-varint.h — unsigned LEB128 varints, as Lode's binary columns and records hold numbers
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The most bytes a varint of 64 bits takes. */
#define LODE_VARINT_MAX 10

/* Writes @value at @p, seven bits a byte from the lowest, the high bit set on all but the
 * last; returns the byte after it (LODE_VARINT_MAX bytes at most, 5 for 32 bits). */
static inline guint8 *
lode_varint_put (guint8  *p,
                 guint64  value)
{
  do
    {
      *p++ = (guint8) ((value & 0x7f) | (value >= 0x80 ? 0x80 : 0));
      value >>= 7;
    }
  while (value != 0);
  return p;
}

static inline void
lode_varint_append (GByteArray *out,
                    guint64     value)
{
  guint8 bytes[LODE_VARINT_MAX];

  g_byte_array_append (out, bytes, (guint) (lode_varint_put (bytes, value) - bytes));
}

/* Reads the varint at *@p into @value and moves *@p past it. FALSE when @end comes first or
 * the varint is longer than 64 bits (damaged data): *@p has moved past what was read. */
static inline gboolean
lode_varint_read (const guint8 **p,
                  const guint8  *end,
                  guint64       *value)
{
  *value = 0;
  for (guint shift = 0; *p < end && shift < 64; shift += 7)
    {
      guint8 b = *(*p)++;

      *value |= (guint64) (b & 0x7f) << shift;
      if ((b & 0x80) == 0)
        return TRUE;
    }
  return FALSE;
}

G_END_DECLS
