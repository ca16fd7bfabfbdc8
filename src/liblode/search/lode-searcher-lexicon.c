/* lode-searcher-lexicon.c — the code lexicon's legs, for questions asked in other words
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A question (LodeQueryPlan.question) none of whose LEXICON_GATE_CHUNKS most relevant chunks
 * holds LEXICON_GATE of its words is widened with the lexicon's neighbours of its words
 * (lode-search-expansion.c, expansion_leg), and the LEXICON_CANDIDATES chunks nearest to it
 * in the lexicon gain LEXICON_WEIGHT × the query's weight × their cosine (lexicon_leg). See
 * docs/lexicon.md. */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include "lode-searcher-private.h"

#define LEXICON_GATE        0.75
#define LEXICON_GATE_CHUNKS 5
#define LEXICON_WEIGHT      4.0
#define LEXICON_CANDIDATES  50

void
_lode_searcher_clear_lexicon (LodeSearcher *self)
{
  g_clear_object (&self->lexicon_vectors);
  self->lexicon_version = 0;
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
 * (its terms weigh less than the question's) adds to the chunks'. */
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
                                    &search->filter, n_fetch, search->cancellable, hits,
                                    &weight, error))
    return FALSE;

  for (guint i = 0; i < hits->len; i++)
    {
      const LodeLexicalHit *hit = &g_array_index (hits, LodeLexicalHit, i);

      add_relevance (candidates, index, hit->chunk_id, MAX (0.0, hit->score));
    }

  return TRUE;
}

/* The third leg: the LEXICON_CANDIDATES chunks whose lexicon vectors (path and text) lie
 * nearest to the question's, each adding strength × LEXICON_WEIGHT × the query's weight ×
 * its cosine to its relevance. */
static gboolean
lexicon_leg (Search      *search,
             GArray      *candidates,
             GHashTable  *index,
             GError     **error)
{
  LodeSearcher *self = search->searcher;
  g_autoptr(GArray) allowed = NULL;
  g_autoptr(GArray) hits = NULL;

  if (!_lode_expansion_sync_chunks (lode_lexicon_get_default (), search->backend,
                                    &self->lexicon_vectors, &self->lexicon_version, error))
    return FALSE;
  if (search->filter.language != NULL || search->filter.path_glob != NULL)
    {
      allowed = lode_search_backend_dup_chunk_ids (search->backend, &search->filter, error);
      if (allowed == NULL)
        return FALSE;
    }

  hits = _lode_expansion_search (search->expansion, self->lexicon_vectors, LEXICON_CANDIDATES,
                                 allowed != NULL ? (const gint64 *) allowed->data : NULL,
                                 allowed != NULL ? allowed->len : 0);
  for (guint i = 0; i < hits->len; i++)
    {
      const LodeVectorHit *hit = &g_array_index (hits, LodeVectorHit, i);

      add_relevance (candidates, index, hit->id,
                     search->lexicon_strength * LEXICON_WEIGHT * search->weight *
                     MAX (0.0, hit->score));
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
  LodeLexicon *lexicon = lode_lexicon_get_default ();
  g_autoptr(GError) local_error = NULL;

  if (!search->plan->question || lexicon == NULL)
    return TRUE;
  if (!lexicon_gate (search, candidates, &search->lexicon_strength, error))
    return FALSE;
  if (search->lexicon_strength <= 0.0)
    return TRUE;

  search->expansion = _lode_expansion_new (lexicon, search->plan, search->backend,
                                           &local_error);
  if (search->expansion == NULL)
    {
      if (local_error == NULL)
        return TRUE;
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  return expansion_leg (search, n_fetch, candidates, index, error) &&
         lexicon_leg (search, candidates, index, error);
}
