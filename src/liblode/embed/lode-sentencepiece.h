/* lode-sentencepiece.h — a SentencePiece unigram tokenizer (the Universal Sentence Encoder's)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The first ids of the Universal Sentence Encoder's vocabulary are reserved (unknown, <s>,
 * </s>, three extra tokens): text never becomes one of them but the unknown piece, 0. */
#define LODE_SENTENCEPIECE_RESERVED 6

/**
 * LodeSentencepiece:
 *
 * A unigram vocabulary (pieces with their log probabilities) and the segmentation of text
 * into the pieces of highest total score, as TensorFlow.js' Universal Sentence Encoder cuts
 * text: NFKC, a `▁` before the text and for every space, a Viterbi pass over the pieces that
 * start at each character. Immutable after loading: any number of threads may encode at once.
 */
typedef struct _LodeSentencepiece LodeSentencepiece;

LodeSentencepiece *lode_sentencepiece_new_from_file  (const char         *path,
                                                      GError            **error);
LodeSentencepiece *lode_sentencepiece_new_from_data  (const char         *json,
                                                      gssize              length,
                                                      GError            **error);
void               lode_sentencepiece_free           (LodeSentencepiece  *self);

guint              lode_sentencepiece_get_vocab_size (LodeSentencepiece  *self);
const char        *lode_sentencepiece_get_piece      (LodeSentencepiece  *self,
                                                      guint               id);
float              lode_sentencepiece_get_score      (LodeSentencepiece  *self,
                                                      guint               id);
void               lode_sentencepiece_encode         (LodeSentencepiece  *self,
                                                      const char         *text,
                                                      gssize              length,
                                                      GArray             *ids);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSentencepiece, lode_sentencepiece_free)

G_END_DECLS
