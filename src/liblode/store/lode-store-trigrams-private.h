/* lode-store-trigrams-private.h — what the trigrams' writer and look-ups share: a text's
 * keys and the reading of a segment's entries
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-store-private.h"
#include "lode-varint.h"

G_BEGIN_DECLS

/* The key format and the segments are described in lode-store-trigrams.c; the look-ups are
 * in lode-store-trigrams-find.c. */

/* The three characters of a key, 21 bits each. */
#define LODE_TRIGRAM_KEY_MASK G_GUINT64_CONSTANT (0x7fffffffffffffff)

/* Calls @func for each trigram of @text as a key, in order (repeats included). Text that is
 * not valid UTF-8 gives none past the first bad byte (the indexer stores valid text). Always
 * inlined, and @func with it: it runs for every byte of the tree. */
G_ALWAYS_INLINE static inline void
_lode_trigram_foreach_key (const char *text,
                           gsize       len,
                           void      (*func) (guint64, gpointer),
                           gpointer    user_data)
{
  const char *end = text + len;
  guint64 window = 0;  /* the last characters, the newest in the low 21 bits */
  guint n = 0;

  for (const char *p = text; p < end;)
    {
      gunichar c;

      if ((guchar) *p < 0x80)
        {
          /* g_ascii_tolower(), inline. */
          c = (guchar) *p++;
          if (c - 'A' < 26)
            c += 'a' - 'A';
        }
      else
        {
          const char *next = g_utf8_find_next_char (p, end);

          if (next == NULL)
            next = end;
          c = g_utf8_get_char_validated (p, next - p);
          if (c >= 0x110000)
            break;
          c = g_unichar_tolower (c);
          p = next;
        }
      if (c == '\n')
        {
          n = 0;
          continue;
        }
      window = (window << 21 | c) & LODE_TRIGRAM_KEY_MASK;
      if (n < 2)
        n++;
      else
        func (window + 1, user_data);
    }
}

/* An entry of a block: its key, count of files and their ids' bytes. */
typedef struct
{
  const guint8 *p;
  const guint8 *end;
  guint64       key;
  guint64       n;
  const guint8 *ids;
  gsize         ids_size;
  gboolean      damaged;
} LodeTrigramEntryReader;

static inline void
_lode_trigram_entry_reader_init (LodeTrigramEntryReader *r,
                                 const guint8           *data,
                                 gsize                   size)
{
  r->p = data;
  r->end = data + size;
  r->key = 0;
  r->ids = NULL;
  r->ids_size = 0;
  r->damaged = FALSE;
}

/* FALSE at the block's end, or when the rest does not hold whole entries (r->damaged). */
static inline gboolean
_lode_trigram_entry_reader_next (LodeTrigramEntryReader *r)
{
  guint64 delta, size;

  if (r->p >= r->end)
    return FALSE;
  if (!lode_varint_read (&r->p, r->end, &delta) || !lode_varint_read (&r->p, r->end, &r->n) ||
      !lode_varint_read (&r->p, r->end, &size) || size > (guint64) (r->end - r->p))
    {
      r->p = r->end;
      r->damaged = TRUE;
      return FALSE;
    }
  r->key += delta;
  r->ids = r->p;
  r->ids_size = size;
  r->p += size;
  return TRUE;
}

void     _lode_trigram_entry_reader_append_ids (const LodeTrigramEntryReader *r,
                                                gint64                        segment,
                                                const GArray                 *segments,
                                                GArray                       *out);
gboolean _lode_store_trigrams_damaged_error    (LodeStore                    *self,
                                                GError                      **error);

G_END_DECLS
