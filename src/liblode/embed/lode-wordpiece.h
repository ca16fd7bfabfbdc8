/* lode-wordpiece.h — the WordPiece tokenizer of BERT-family models
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeWordpiece:
 *
 * A WordPiece vocabulary with BERT's text normalisation (Hugging Face `BertNormalizer` +
 * `BertPreTokenizer` + `WordPiece`). It never changes after loading, so any number of threads
 * may tokenize with it at once.
 */
typedef struct _LodeWordpiece LodeWordpiece;

LodeWordpiece *lode_wordpiece_new_from_dir            (const char     *dir,
                                                       GError        **error);
LodeWordpiece *lode_wordpiece_new_from_tokenizer_json (const char     *path,
                                                       GError        **error);
LodeWordpiece *lode_wordpiece_new_from_vocab_txt      (const char     *path,
                                                       gboolean        lowercase,
                                                       GError        **error);
void           lode_wordpiece_free                    (LodeWordpiece  *self);

guint          lode_wordpiece_get_vocab_size          (LodeWordpiece  *self);
guint          lode_wordpiece_get_max_tokens          (LodeWordpiece  *self);
gint32         lode_wordpiece_lookup                  (LodeWordpiece  *self,
                                                       const char     *token);
gint32         lode_wordpiece_get_cls_id              (LodeWordpiece  *self);
gint32         lode_wordpiece_get_sep_id              (LodeWordpiece  *self);

gboolean       lode_wordpiece_tokenize                (LodeWordpiece  *self,
                                                       const char     *text,
                                                       guint           limit,
                                                       GArray         *ids,
                                                       gboolean       *truncated,
                                                       GError        **error);
GArray        *lode_wordpiece_encode                  (LodeWordpiece  *self,
                                                       const char     *text,
                                                       guint           max_tokens,
                                                       gboolean       *truncated,
                                                       GError        **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeWordpiece, lode_wordpiece_free)

G_END_DECLS
