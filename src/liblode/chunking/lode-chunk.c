/* lode-chunk.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunk"

#include "config.h"

#include <string.h>

#include "lode-chunk.h"

LodeChunk *
lode_chunk_new (void)
{
  return g_new0 (LodeChunk, 1);
}

void
lode_chunk_free (LodeChunk *chunk)
{
  if (chunk == NULL)
    return;

  g_free (chunk->symbol);
  g_free (chunk->container);
  g_free (chunk->signature);
  g_free (chunk->doc);
  g_free (chunk->context);
  g_free (chunk->content);
  g_free (chunk);
}

LodeSymbol *
lode_symbol_new (void)
{
  return g_new0 (LodeSymbol, 1);
}

void
lode_symbol_free (LodeSymbol *symbol)
{
  if (symbol == NULL)
    return;

  g_free (symbol->name);
  g_free (symbol->container);
  g_free (symbol->signature);
  g_free (symbol->package);
  g_free (symbol->scope);
  g_free (symbol->detail);
  g_free (symbol);
}

static void
append_part (GString    *text,
             const char *part)
{
  if (part == NULL || *part == '\0')
    return;
  if (text->len > 0)
    g_string_append_c (text, '\n');
  g_string_append (text, part);
}

/**
 * lode_chunk_append_search_text:
 * @chunk: a chunk
 * @text: where to append
 *
 * Appends what the lexical index searches besides the symbol, the path and the body: the
 * signature, doc comment, container and context, one per line.
 */
void
lode_chunk_append_search_text (const LodeChunk *chunk,
                               GString         *text)
{
  append_part (text, chunk->signature);
  append_part (text, chunk->doc);
  append_part (text, chunk->container);
  append_part (text, chunk->context);
}

/* Removes the line @part (its first occurrence) from the lines of @text. */
static void
remove_line (GString    *text,
             const char *part)
{
  gsize len = part != NULL ? strlen (part) : 0;

  if (len == 0)
    return;
  for (gsize at = 0; at + len <= text->len; )
    {
      const char *end = text->str + at + len;

      if ((at == 0 || text->str[at - 1] == '\n') && strncmp (text->str + at, part, len) == 0 &&
          (*end == '\n' || *end == '\0'))
        {
          gsize cut = len + (*end == '\n' ? 1 : 0);

          if (*end == '\0' && at > 0)
            g_string_erase (text, at - 1, len + 1);
          else
            g_string_erase (text, at, cut);
          return;
        }
      end = strchr (text->str + at, '\n');
      if (end == NULL)
        return;
      at = end - text->str + 1;
    }
}

/**
 * lode_chunk_set_search_text:
 * @chunk: a chunk read back from an index, with its signature and container
 * @text: (nullable): the text lode_chunk_append_search_text() wrote for it
 *
 * Keeps in @chunk->context what @text holds besides the signature and the container (the
 * doc comment and context lines), so that appending the search text again gives the same
 * words: copying an index between stores keeps its lexical ranking.
 */
void
lode_chunk_set_search_text (LodeChunk  *chunk,
                            const char *text)
{
  g_autoptr(GString) rest = g_string_new (text);

  remove_line (rest, chunk->signature);
  remove_line (rest, chunk->container);
  g_free (chunk->context);
  chunk->context = rest->len > 0 ? g_strdup (rest->str) : NULL;
}
