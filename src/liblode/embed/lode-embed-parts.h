/* lode-embed-parts.h — texts longer than a model takes, embedded in parts made one vector
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "lode-embedder.h"

G_BEGIN_DECLS

/**
 * LodeTokenEstimateFunc:
 * @text: UTF-8 text
 * @length: its length in bytes, or -1 if nul-terminated
 *
 * An estimate, meant to err high but never above one per character, of the tokens a model's
 * tokenizer makes of @text.
 *
 * Returns: the estimate
 */
typedef guint (*LodeTokenEstimateFunc) (const char *text,
                                        gssize      length);

guint      lode_embed_estimate_tokens (const char            *text,
                                       gssize                 length);
GPtrArray *lode_embed_split           (const char            *text,
                                       guint                  max_tokens,
                                       LodeTokenEstimateFunc  estimate);

typedef struct _LodeEmbedParts LodeEmbedParts;

LodeEmbedParts     *lode_embed_parts_new          (void);
void                lode_embed_parts_free         (LodeEmbedParts        *parts);
void                lode_embed_parts_add_text     (LodeEmbedParts        *parts,
                                                   const char            *text,
                                                   guint                  max_tokens,
                                                   LodeTokenEstimateFunc  estimate);
void                lode_embed_parts_begin_text   (LodeEmbedParts        *parts);
void                lode_embed_parts_add          (LodeEmbedParts        *parts,
                                                   char                  *text,
                                                   double                 weight);
guint               lode_embed_parts_get_n_texts  (LodeEmbedParts        *parts);
guint               lode_embed_parts_get_n_parts  (LodeEmbedParts        *parts);
const char * const *lode_embed_parts_get_texts    (LodeEmbedParts        *parts);
LodeEmbeddings     *lode_embed_parts_combine      (LodeEmbedParts        *parts,
                                                   const float           *vectors,
                                                   guint                  dims,
                                                   GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeEmbedParts, lode_embed_parts_free)

G_END_DECLS
