/* lode-chunker.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-chunk.h"
#include "lode-config.h"
#include "lode-imports.h"
#include "lode-language.h"
#include "lode-references.h"

G_BEGIN_DECLS

#define LODE_TYPE_CHUNKER (lode_chunker_get_type ())
G_DECLARE_FINAL_TYPE (LodeChunker, lode_chunker, LODE, CHUNKER, GObject)

LodeChunker *lode_chunker_new             (guint                max_tokens);
guint        lode_chunker_get_max_tokens  (LodeChunker         *self);
void         lode_chunker_set_time_budget (LodeChunker         *self,
                                           guint                msec);
void         lode_chunker_set_cancellable (LodeChunker         *self,
                                           GCancellable        *cancellable);
gboolean     lode_chunker_chunk           (LodeChunker         *self,
                                           const LodeLanguage  *language,
                                           const char          *text,
                                           gsize                len,
                                           GPtrArray          **chunks,
                                           GPtrArray          **symbols,
                                           GPtrArray          **imports,
                                           LodeReferences     **references,
                                           char               **degraded,
                                           GError             **error);
guint        lode_estimate_tokens         (const char          *text,
                                           gsize                len);

G_END_DECLS
