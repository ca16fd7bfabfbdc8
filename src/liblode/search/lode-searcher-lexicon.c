/* lode-searcher-lexicon.c — the code lexicon's legs, for questions asked in other words
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A question (LodeQueryPlan.question) none of whose LEXICON_GATE_CHUNKS most relevant chunks
 * holds LEXICON_GATE of its words is widened by the code lexicon with a strength that grows
 * as they hold fewer: its words' neighbours and the words nearest to it as a whole, as a
 * second lexical query (lode-search-expansion.c, expansion_leg), and the LEXICON_CANDIDATES
 * chunks nearest to it in the lexicon (lexicon_leg). See docs/lexicon.md. */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include "lode-searcher-private.h"

#define LEXICON_GATE        0.5
#define LEXICON_GATE_CHUNKS 5
/* The gain of the chunk nearest to the question, in query weights. */
#define LEXICON_WEIGHT      8.0
#define LEXICON_CANDIDATES  10
/* An index of at most this many chunks has every chunk's lexicon vector in memory (about
 * 0.1 ms a chunk to make); the LEXICON_POOL most relevant chunks of a larger one are compared
 * with the question. */
#define LEXICON_MAX_CHUNKS  2000
#define LEXICON_POOL        50
/* The expansion's best chunks, which gain its relevance (more would only be rows to load). */
#define EXPANSION_CANDIDATES 100

void
_lode_searcher_clear_lexicon (LodeSearcher *self)
{
  g_clear_object (&self->lexicon_vectors);
  self->lexicon_synced = FALSE;
}

static int
compare_relevance (gconstpointer a,
                   gconstpointer b)
{
  const Candidate *ca = a;
  const Candidate *cb = b;

  return ca->relevance > cb->relevance ? -1 : ca->relevance < cb->relevance ? 1 : 0;
}

/* How much the code lexicon counts for a question, 0 … 1: 0 when one of its
 * LEXICON_GATE_CHUNKS most relevant chunks holds LEXICON_GATE of its words or more (the code
 * answers it in its own words: it keeps its ranking), rising to 1 as the best of them holds
 * fewer. */
static gboolean
lexicon_gate (const Search  *search,
              GArray        *candidates,
              double        *strength,
              GError       **error)
{
  g_autoptr(GArray) best = g_array_copy (candidates);
  double coverage = 0.0;

  g_array_sort (best, compare_relevance);
  for (guint i = 0; i < MIN (best->len, LEXICON_GATE_CHUNKS); i++)
    {
      g_autoptr(GError) local_error = NULL;
      g_autofree char *body = lode_search_backend_dup_chunk_text (
        search->backend, g_array_index (best, Candidate, i).chunk_id, &local_error);

      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (body != NULL)
        coverage = MAX (coverage, _lode_question_coverage (search->plan, body));
      if (coverage >= LEXICON_GATE)
        break;
    }

  *strength = MAX (0.0, 1.0 - coverage / LEXICON_GATE);
  return TRUE;
}

/* Adds @gain to the relevance of chunk @chunk_id, which joins @candidates if no leg found it. */
static void
add_relevance (GArray     *candidates,
               GHashTable *index,
               gint64      chunk_id,
               double      gain)
{
  gpointer pos;
  Candidate c = { 0 };

  if (g_hash_table_lookup_extended (index, GSIZE_TO_POINTER ((gsize) chunk_id), NULL, &pos))
    {
      g_array_index (candidates, Candidate, GPOINTER_TO_UINT (pos)).relevance += gain;
      return;
    }
  c.chunk_id = chunk_id;
  c.relevance = gain;
  g_hash_table_insert (index, GSIZE_TO_POINTER ((gsize) chunk_id),
                       GUINT_TO_POINTER (candidates->len));
  g_array_append_val (candidates, c);
}

/* The question's words widened by the lexicon, as a second lexical query: its BM25 relevance
 * (its terms weigh less than the question's), × the lexicon's strength, adds to the
 * chunks'. */
static gboolean
expansion_leg (Search      *search,
               guint        n_fetch,
               GArray      *candidates,
               GHashTable  *index,
               GError     **error)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (LodeLexicalHit));
  double weight;

  if (!lode_search_backend_lexical (search->backend,
                                    _lode_expansion_get_query (search->expansion),
                                    &search->filter, MIN (n_fetch, EXPANSION_CANDIDATES),
                                    search->cancellable, hits,
                                    &weight, error))
    return FALSE;

  for (guint i = 0; i < hits->len; i++)
    {
      const LodeLexicalHit *hit = &g_array_index (hits, LodeLexicalHit, i);

      add_relevance (candidates, index, hit->chunk_id,
                     search->lexicon_strength * MAX (0.0, hit->score));
    }

  return TRUE;
}

/* The LEXICON_POOL most relevant chunks so far (the expansion's among them), with the cosine
 * of their lexicon vectors (path and text) and the question's. */
static GArray *
rerank_candidates (Search   *search,
                   GArray   *candidates,
                   GError  **error)
{
  g_autoptr(GArray) best = g_array_copy (candidates);
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (LodeVectorHit));
  g_autoptr(GPtrArray) rows = NULL;
  g_autofree gint64 *ids = NULL;
  guint n;

  g_array_sort (best, compare_relevance);
  n = MIN (best->len, LEXICON_POOL);
  ids = g_new (gint64, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    ids[i] = g_array_index (best, Candidate, i).chunk_id;
  rows = lode_search_backend_fetch_chunks (search->backend, ids, n, error);
  if (rows == NULL)
    return NULL;

  for (guint i = 0; i < n; i++)
    {
      const LodeChunkRow *row = g_ptr_array_index (rows, i);
      g_autoptr(GError) local_error = NULL;
      g_autofree char *body = NULL;
      LodeVectorHit hit = { ids[i], 0.0 };

      if (row == NULL)
        continue;
      body = lode_search_backend_dup_chunk_text (search->backend, ids[i], &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      hit.score = _lode_expansion_similarity (search->expansion, row->path, body);
      g_array_append_val (hits, hit);
    }

  return g_steal_pointer (&hits);
}

static int
compare_hits (gconstpointer a,
              gconstpointer b)
{
  const LodeVectorHit *ha = a;
  const LodeVectorHit *hb = b;

  return ha->score > hb->score ? -1 : ha->score < hb->score ? 1 : 0;
}

/* The third leg: the LEXICON_CANDIDATES chunks nearest to the question in the lexicon, of
 * the whole index when it is small (LEXICON_MAX_CHUNKS), else of the most relevant chunks
 * so far. The nearest gains strength × LEXICON_WEIGHT × the query's weight, the others less
 * as their cosine nears the last one's (which gains nothing): how near a chunk is counts
 * beside the others, as every chunk lies somewhat near any question. */
static gboolean
lexicon_leg (Search      *search,
             GArray      *candidates,
             GHashTable  *index,
             GError     **error)
{
  LodeSearcher *self = search->searcher;
  gint64 version = lode_search_backend_get_version (search->backend);
  g_autoptr(GArray) allowed = NULL;
  g_autoptr(GArray) hits = NULL;
  double top;
  double last;

  if (!self->lexicon_synced || self->lexicon_version != version)
    {
      _lode_searcher_clear_lexicon (self);
      if (!_lode_expansion_embed_chunks (lode_lexicon_get_default (), search->backend,
                                         LEXICON_MAX_CHUNKS, &self->lexicon_vectors, error))
        return FALSE;
      self->lexicon_version = version;
      self->lexicon_synced = TRUE;
    }
  if (self->lexicon_vectors == NULL)
    {
      hits = rerank_candidates (search, candidates, error);
      if (hits == NULL)
        return FALSE;
      g_array_sort (hits, compare_hits);
      g_array_set_size (hits, MIN (hits->len, LEXICON_CANDIDATES));
    }
  else
    {
      if (search->filter.language != NULL || search->filter.path_glob != NULL)
        {
          allowed = lode_search_backend_dup_chunk_ids (search->backend, &search->filter,
                                                       error);
          if (allowed == NULL)
            return FALSE;
        }
      hits = _lode_expansion_search (search->expansion, self->lexicon_vectors,
                                     LEXICON_CANDIDATES,
                                     allowed != NULL ? (const gint64 *) allowed->data : NULL,
                                     allowed != NULL ? allowed->len : 0);
    }
  if (hits->len < 2)
    return TRUE;

  top = g_array_index (hits, LodeVectorHit, 0).score;
  last = g_array_index (hits, LodeVectorHit, hits->len - 1).score;
  if (top <= last)
    return TRUE;
  for (guint i = 0; i < hits->len; i++)
    {
      const LodeVectorHit *hit = &g_array_index (hits, LodeVectorHit, i);

      add_relevance (candidates, index, hit->id,
                     search->lexicon_strength * LEXICON_WEIGHT * search->weight *
                     (hit->score - last) / (top - last));
    }

  return TRUE;
}

/* A question that the code does not answer in its own words (lexicon_gate()) is widened by
 * the code lexicon: the expansion's BM25 relevance and the lexicon leg add to @candidates,
 * the lexical leg's, and search->expansion explains the results. Anything else is left
 * as it is. */
gboolean
_lode_searcher_lexicon_legs (Search      *search,
                             guint        n_fetch,
                             GArray      *candidates,
                             GHashTable  *index,
                             GError     **error)
{
  LodeLexicon *lexicon;

  if (!search->plan->question || search->plan->lexical == NULL)
    return TRUE;
  lexicon = lode_lexicon_get_default ();
  if (lexicon == NULL)
    return TRUE;
  if (!lexicon_gate (search, candidates, &search->lexicon_strength, error))
    return FALSE;
  if (search->lexicon_strength <= 0.0)
    return TRUE;

  search->expansion = _lode_expansion_new (lexicon, search->options->query, search->plan);
  if (search->expansion == NULL)
    return TRUE;

  return expansion_leg (search, n_fetch, candidates, index, error) &&
         lexicon_leg (search, candidates, index, error);
}
