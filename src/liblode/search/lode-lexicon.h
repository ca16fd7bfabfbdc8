/* lode-lexicon.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * LodeLexiconTerm:
 * @term: a word of the lexicon
 * @similarity: the cosine of its vector and the word's it was found for, -1 … 1
 */
typedef struct
{
  char   *term;
  double  similarity;
} LodeLexiconTerm;

#define LODE_TYPE_LEXICON (lode_lexicon_get_type ())
G_DECLARE_FINAL_TYPE (LodeLexicon, lode_lexicon, LODE, LEXICON, GObject)

LodeLexicon *lode_lexicon_new_from_bytes (GBytes       *bytes,
                                          GError      **error);
LodeLexicon *lode_lexicon_get_default    (void);
guint        lode_lexicon_get_n_words    (LodeLexicon  *self);
guint        lode_lexicon_get_dims       (LodeLexicon  *self);
gboolean     lode_lexicon_contains       (LodeLexicon  *self,
                                          const char   *word);
GArray      *lode_lexicon_neighbours     (LodeLexicon  *self,
                                          const char   *word,
                                          guint         max,
                                          double        min_similarity);
GArray      *lode_lexicon_nearest        (LodeLexicon  *self,
                                          const float  *vector,
                                          guint         max,
                                          double        min_similarity);
double       lode_lexicon_get_rarity     (LodeLexicon  *self,
                                          const char   *word);
double       lode_lexicon_similarity     (LodeLexicon  *self,
                                          const char   *a,
                                          const char   *b);
gboolean     lode_lexicon_embed          (LodeLexicon  *self,
                                          const char   *text,
                                          gsize         len,
                                          float        *vector);

void lode_lexicon_term_clear (LodeLexiconTerm *term);

G_END_DECLS
