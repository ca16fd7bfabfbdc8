/* lode-artifact-search.c — context artifacts found and ranked, the same for every store
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-context"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-artifact-search.h"
#include "lode-code-tokenizer.h"

/*
 * A store returns the pieces that hold a query word (each word a prefix: `config` finds
 * `configuration`) and the statistics of all pieces; they are ranked here, by the formula of
 * SQLite FTS5's bm25(): k1 = 1.2, b = 0.75, a word's IDF ln ((N − n + 0.5) / (n + 0.5)) (at
 * least 1e-6) from the N pieces and the n that hold it, each position of a piece that holds a
 * token starting with the word counting once (LODE_ARTIFACT_TITLE_WEIGHT in the title, 1 in
 * the text), a piece's length its tokens with an identifier's parts counting once. So both
 * stores rank alike, and as FTS5 ranked the SQLite store's pieces when it did so itself.
 */

/* Pieces a store hands over for ranking, which it picks by its own BM25 when more match. */
#define MAX_CANDIDATES 1000
#define BM25_K1 1.2
#define BM25_B  0.75

typedef struct
{
  const char * const *prefixes;
  guint               n_prefixes;
  double             *freq;       /* per prefix: weighted positions that hold it */
  guint              *last;       /* per prefix: the last position counted, + 1 */
  double              weight;
  guint               position;
  guint               length;
} PieceScore;

static gboolean
score_token_cb (const char *token,
                gsize       len,
                gsize       start,
                gsize       end,
                gboolean    colocated,
                gpointer    user_data)
{
  PieceScore *score = user_data;

  if (!colocated)
    {
      score->position++;
      score->length++;
    }
  for (guint p = 0; p < score->n_prefixes; p++)
    {
      gsize n = strlen (score->prefixes[p]);

      /* A position counts once for a word, however many of its tokens match. */
      if (len >= n && memcmp (token, score->prefixes[p], n) == 0 &&
          score->last[p] != score->position)
        {
          score->freq[p] += score->weight;
          score->last[p] = score->position;
        }
    }
  return TRUE;
}

static double
piece_bm25 (const LodeArtifactHit   *piece,
            const char * const      *prefixes,
            const double            *idf,
            const LodeArtifactStats *stats)
{
  const char *texts[] = { piece->title, piece->body };
  const double weights[] = { LODE_ARTIFACT_TITLE_WEIGHT, 1.0 };
  guint n_prefixes = g_strv_length ((char **) prefixes);
  g_autofree double *freq = g_new0 (double, n_prefixes);
  g_autofree guint *last = g_new0 (guint, n_prefixes);
  PieceScore score = { prefixes, n_prefixes, freq, last, 0.0, 0, 0 };
  double avgdl = stats->n_pieces > 0 ? (double) stats->n_tokens / stats->n_pieces : 0.0;
  double total = 0.0;

  for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
    if (texts[t] != NULL)
      {
        score.weight = weights[t];
        lode_code_tokenize (texts[t], strlen (texts[t]), LODE_TOKENIZE_SPLIT, score_token_cb,
                            &score);
      }
  if (avgdl <= 0.0)
    avgdl = 1.0;
  for (guint p = 0; p < n_prefixes; p++)
    total += idf[p] * freq[p] * (BM25_K1 + 1.0) /
             (freq[p] + BM25_K1 * (1.0 - BM25_B + BM25_B * score.length / avgdl));
  return total;
}

static gint
compare_relevance (gconstpointer a,
                   gconstpointer b)
{
  const LodeArtifactHit *x = *(LodeArtifactHit * const *) a;
  const LodeArtifactHit *y = *(LodeArtifactHit * const *) b;

  return (x->relevance < y->relevance) - (x->relevance > y->relevance);
}

/**
 * lode_artifact_search:
 * @store: an index
 * @prefixes: (array zero-terminated=1): lower-case words of letters, digits and _; a piece
 *   matches when one of its tokens starts with one of them
 * @artifact: (nullable): only pieces of this artifact
 * @limit: pieces at most
 * @error: return location for a #GError
 *
 * Searches the context artifacts of @store with BM25, the same for every store (see above).
 * Blocks.
 *
 * Returns: (transfer full) (element-type LodeArtifactHit): the best pieces first, each with
 *   its relevance (higher is better)
 */
GPtrArray *
lode_artifact_search (LodeIndexStore      *store,
                      const char * const  *prefixes,
                      const char          *artifact,
                      guint                limit,
                      GError             **error)
{
  guint n_prefixes;
  g_autofree guint64 *n_holding = NULL;
  g_autofree double *idf = NULL;
  LodeArtifactStats stats = { 0 };
  g_autoptr(GPtrArray) pieces = NULL;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (store), NULL);
  g_return_val_if_fail (prefixes != NULL && prefixes[0] != NULL, NULL);

  n_prefixes = g_strv_length ((char **) prefixes);
  n_holding = g_new0 (guint64, n_prefixes);
  stats.n_holding = n_holding;
  pieces = lode_index_store_find_artifact_pieces (store, prefixes, artifact,
                                                  MAX (limit, MAX_CANDIDATES), &stats, error);
  if (pieces == NULL)
    return NULL;

  idf = g_new (double, n_prefixes);
  for (guint p = 0; p < n_prefixes; p++)
    {
      double n = (double) n_holding[p];

      idf[p] = log (((double) stats.n_pieces - n + 0.5) / (n + 0.5));
      if (idf[p] <= 0.0)
        idf[p] = 1e-6;
    }
  for (guint i = 0; i < pieces->len; i++)
    {
      LodeArtifactHit *piece = g_ptr_array_index (pieces, i);

      piece->relevance = piece_bm25 (piece, prefixes, idf, &stats);
    }
  /* Stable: ties keep the store's order. */
  g_ptr_array_sort (pieces, compare_relevance);
  if (pieces->len > limit)
    g_ptr_array_set_size (pieces, limit);
  return g_steal_pointer (&pieces);
}
