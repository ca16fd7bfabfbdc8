/* lode-chunker.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "lode-chunk.h"
#include "lode-imports.h"
#include "lode-language.h"

G_BEGIN_DECLS

#define LODE_CHUNKER_DEFAULT_MAX_TOKENS 512

#define LODE_TYPE_CHUNKER (lode_chunker_get_type ())
G_DECLARE_FINAL_TYPE (LodeChunker, lode_chunker, LODE, CHUNKER, GObject)

LodeChunker *lode_chunker_new             (guint                max_tokens);
guint        lode_chunker_get_max_tokens  (LodeChunker         *self);
gboolean     lode_chunker_chunk           (LodeChunker         *self,
                                           const LodeLanguage  *language,
                                           const char          *text,
                                           gsize                len,
                                           GPtrArray          **chunks,
                                           GPtrArray          **symbols,
                                           GPtrArray          **imports,
                                           GError             **error);
guint        lode_estimate_tokens         (const char          *text,
                                           gsize                len);

G_END_DECLS
