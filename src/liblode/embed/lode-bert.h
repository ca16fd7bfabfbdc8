/* lode-bert.h — a BERT-family encoder running in process
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-models.h"

G_BEGIN_DECLS

/**
 * LodeBert:
 *
 * The weights of a BERT encoder (Hugging Face `BertModel` layout: `config.json` and
 * `model.safetensors`, memory-mapped) and its forward pass. Immutable after loading: any
 * number of threads may run lode_bert_embed() at once, each call with its own buffers.
 */
typedef struct _LodeBert LodeBert;

LodeBert *lode_bert_new                (const char          *dir,
                                        GError             **error);
void      lode_bert_free               (LodeBert            *self);

guint     lode_bert_get_dims           (LodeBert            *self);
guint     lode_bert_get_max_positions  (LodeBert            *self);
guint     lode_bert_get_vocab_size     (LodeBert            *self);

gboolean  lode_bert_embed              (LodeBert            *self,
                                        guint                n_sequences,
                                        const gint32 * const *ids,
                                        const guint         *lengths,
                                        LodePooling          pooling,
                                        float               *out,
                                        GCancellable        *cancellable,
                                        GError             **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeBert, lode_bert_free)

G_END_DECLS
