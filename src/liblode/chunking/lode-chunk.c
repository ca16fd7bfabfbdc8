/* lode-chunk.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunk"

#include "config.h"

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
  g_free (symbol->detail);
  g_free (symbol);
}
