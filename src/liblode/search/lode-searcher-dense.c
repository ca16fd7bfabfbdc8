/* lode-searcher-dense.c — the dense leg and the fusion of both legs
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-searcher-private.h"

/* Ranks of the two legs fused by Reciprocal Rank Fusion: the lexical leg adds
 * 1 / (RRF_K + rank), the dense leg its weight times that (see dense_weight()). */
#define RRF_K 60
/* The spread of cosines over the dense leg's neighbours at which it counts fully. */
#define DENSE_FULL_SPREAD 0.1

static void
add_vector_cb (gint64       chunk_id,
               const float *vector,
               gpointer     user_data)
{
  lode_vector_index_add (user_data, chunk_id, vector);
}

/* Brings the matrix of @model's vectors up to date with the backend: drops the chunks that
 * are gone, adds the vectors stored since the last sync. */
static gboolean
sync_vectors (LodeSearcher       *self,
              LodeSearchBackend  *backend,
              const char         *model,
              GError            **error)
{
  g_autoptr(GArray) ids = NULL;
  gint64 version = lode_search_backend_get_version (backend);

  if (self->vectors_model != NULL && g_str_equal (self->vectors_model, model) &&
      self->vectors_version == version)
    return TRUE;

  ids = lode_search_backend_dup_chunk_ids (backend, NULL, error);
  if (ids == NULL)
    return FALSE;
  self->n_embeddable = ids->len;

  if (self->vectors_model == NULL || !g_str_equal (self->vectors_model, model) ||
      self->vectors == NULL)
    {
      guint dims = 0;

      g_clear_object (&self->vectors);
      g_free (self->vectors_model);
      self->vectors_model = g_strdup (model);
      memset (&self->vectors_cursor, 0, sizeof self->vectors_cursor);
      if (!lode_search_backend_get_vector_dims (backend, model, &dims, error))
        return FALSE;
      if (dims == 0)
        {
          self->vectors_version = version;
          return TRUE;
        }
      self->vectors = lode_vector_index_new (dims);
      lode_vector_index_set_quantized (self->vectors, self->quantized);
    }
  else
    lode_vector_index_retain (self->vectors, (const gint64 *) ids->data, ids->len);

  if (!lode_search_backend_load_vectors (backend, model,
                                         lode_vector_index_get_dims (self->vectors),
                                         &self->vectors_cursor, add_vector_cb, self->vectors,
                                         error))
    {
      g_clear_object (&self->vectors);
      g_clear_pointer (&self->vectors_model, g_free);
      return FALSE;
    }

  self->vectors_version = version;
  return TRUE;
}

/* How many vector neighbours a search needs from the dense leg: max(3 × limit, 30), more for
 * one result per file. */
static guint
dense_candidates (const Search *search)
{
  if (search->options->one_per_file)
    return search->limit * 5 + 30;

  return MAX (3 * search->limit, 30);
}

/* The query's vector neighbours that pass the filters, or NULL with an error saying why
 * there are none. Fills in what the response says about the dense leg. */
GArray *
_lode_searcher_dense_leg (LodeSearcher          *self,
                          Search                *search,
                          const LodeQueryVector *query,
                          LodeSearchResponse    *response,
                          GError               **error)
{
  g_autoptr(GArray) allowed = NULL;
  LodeSearchBackendInterface *iface = LODE_SEARCH_BACKEND_GET_IFACE (search->backend);

  /* A server searches its own vectors (the Qdrant store). */
  if (iface->dense != NULL)
    {
      g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (LodeVectorHit));

      response->model = g_strdup (query->model);
      if (!iface->dense (search->backend, query->model, query->vector, query->dims,
                         &search->filter, dense_candidates (search), hits,
                         &response->n_embedded, &response->n_chunks, error))
        return NULL;
      if (response->n_embedded < response->n_chunks)
        response->notice = g_strdup_printf ("semantic search covers %u of %u chunks; `lode "
                                            "index` embeds the rest", response->n_embedded,
                                            response->n_chunks);
      return g_steal_pointer (&hits);
    }

  if (!sync_vectors (self, search->backend, query->model, error))
    return NULL;

  response->model = g_strdup (query->model);
  response->n_embedded = self->vectors != NULL ? lode_vector_index_get_size (self->vectors) : 0;
  response->n_chunks = self->n_embeddable;
  response->notice = lode_search_dup_coverage_notice (response->n_embedded, response->n_chunks);

  if (self->vectors == NULL || response->n_embedded == 0)
    return g_array_new (FALSE, FALSE, sizeof (LodeVectorHit));

  if (query->dims != lode_vector_index_get_dims (self->vectors))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s gave the query %u dimensions, its stored vectors have %u", query->model,
                   query->dims, lode_vector_index_get_dims (self->vectors));
      return NULL;
    }

  if (search->filter.language != NULL || search->filter.path_glob != NULL)
    {
      allowed = lode_search_backend_dup_chunk_ids (search->backend, &search->filter, error);
      if (allowed == NULL)
        return NULL;
    }

  return lode_vector_index_search (self->vectors, query->vector, dense_candidates (search),
                                   allowed != NULL ? (const gint64 *) allowed->data : NULL,
                                   allowed != NULL ? allowed->len : 0);
}

/* The dense leg alone: chunks in cosine order, scored by the cosine (clamped to 0–1). */
GPtrArray *
_lode_searcher_search_semantic (Search   *search,
                                GArray   *dense,
                                GError  **error)
{
  g_autoptr(GArray) candidates = _lode_searcher_candidates_new ();

  for (guint i = 0; i < dense->len; i++)
    {
      const LodeVectorHit *hit = &g_array_index (dense, LodeVectorHit, i);
      Candidate c = { 0 };

      c.chunk_id = hit->id;
      c.relevance = hit->score;
      c.score = hit->score;
      g_array_append_val (candidates, c);
    }
  if (!_lode_searcher_load_candidates (search, candidates, error))
    return NULL;
  g_array_sort (candidates, _lode_searcher_compare_candidates);
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);

      c->score = CLAMP (c->score, 0.0, 1.0);
    }

  return _lode_searcher_make_results (search, candidates, error);
}

/* How much the dense leg counts in the fusion, 0 … 1: the spread between the cosines of its
 * first and last neighbours, relative to DENSE_FULL_SPREAD. A model that tells chunks apart
 * (bge-small's neighbours span a few tenths) counts as much as BM25; one whose neighbours all
 * look alike (a weak or wrong model, a query it cannot read) hardly counts, so that it
 * cannot drag a strong lexical ranking down. */
static double
dense_weight (GArray *dense,
              guint   n_leg)
{
  guint last = MIN (dense->len, n_leg);
  double spread;

  if (last < 2)
    return 1.0;

  spread = g_array_index (dense, LodeVectorHit, 0).score -
           g_array_index (dense, LodeVectorHit, last - 1).score;
  return CLAMP (spread / DENSE_FULL_SPREAD, 0.0, 1.0);
}

/* Hybrid: the first max(3 × limit, 30) chunks of the lexical ranking and of the dense leg,
 * fused by RRF (the dense leg weighted by dense_weight), then the lexical boosts: definitions
 * of an identifier first (its tiers), tests and prose at a tenth for questions in words, and
 * several files in the first results. On the score scale the fused relevance counts as a
 * fraction of the best possible, first in both legs. */
GPtrArray *
_lode_searcher_search_fused (Search   *search,
                             GArray   *dense,
                             GError  **error)
{
  g_autoptr(GArray) lexical = NULL;
  g_autoptr(GArray) fused = _lode_searcher_candidates_new ();
  g_autoptr(GArray) dense_only = _lode_searcher_candidates_new ();
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = NULL;
  guint n_leg = dense_candidates (search);
  guint n_lexical;
  guint rank = 0;
  const double weight = dense_weight (dense, n_leg);
  const double best = (1.0 + weight) / (RRF_K + 1);

  lexical = _lode_searcher_rank_lexical (search, error);
  if (lexical == NULL)
    return NULL;

  /* Keys point into this array: the fused one grows and moves. */
  n_lexical = MIN (lexical->len, n_leg);
  keys = g_new (gint64, n_lexical + dense->len + 1);

  for (guint i = 0; i < n_lexical; i++)
    {
      Candidate *l = &g_array_index (lexical, Candidate, i);
      Candidate c = *l;

      memset (l, 0, sizeof *l);
      c.relevance = 1.0 / (RRF_K + i + 1);
      keys[fused->len] = c.chunk_id;
      g_hash_table_insert (index, &keys[fused->len], GUINT_TO_POINTER (fused->len));
      g_array_append_val (fused, c);
    }

  /* The dense hits the lexical leg did not find, loaded and filtered, in cosine order. */
  for (guint i = 0; i < dense->len; i++)
    {
      const LodeVectorHit *hit = &g_array_index (dense, LodeVectorHit, i);
      Candidate c = { 0 };

      c.chunk_id = hit->id;
      if (!g_hash_table_contains (index, &hit->id))
        g_array_append_val (dense_only, c);
    }
  if (!_lode_searcher_load_candidates (search, dense_only, error))
    return NULL;

  for (guint i = 0, j = 0; i < dense->len && rank < n_leg; i++)
    {
      const LodeVectorHit *hit = &g_array_index (dense, LodeVectorHit, i);
      gpointer pos;

      if (g_hash_table_lookup_extended (index, &hit->id, NULL, &pos))
        {
          rank++;
          g_array_index (fused, Candidate, GPOINTER_TO_UINT (pos)).relevance +=
            weight / (RRF_K + rank);
          continue;
        }

      /* A dense-only hit that was filtered out is not in dense_only. */
      if (j < dense_only->len && g_array_index (dense_only, Candidate, j).chunk_id == hit->id)
        {
          Candidate c = g_array_index (dense_only, Candidate, j);

          memset (&g_array_index (dense_only, Candidate, j), 0, sizeof c);
          j++;
          rank++;
          c.relevance = weight / (RRF_K + rank);
          keys[fused->len] = c.chunk_id;
          g_hash_table_insert (index, &keys[fused->len], GUINT_TO_POINTER (fused->len));
          g_array_append_val (fused, c);
        }
    }

  for (guint i = 0; i < fused->len; i++)
    {
      Candidate *c = &g_array_index (fused, Candidate, i);

      if (search->plan->kind == LODE_QUERY_NATURAL)
        c->relevance *= _lode_searcher_secondary_factor (search, c->row);
    }
  _lode_searcher_apply_tiers (fused);
  g_array_sort (fused, _lode_searcher_compare_candidates);
  if (search->plan->kind == LODE_QUERY_NATURAL)
    {
      _lode_searcher_spread_files (fused);
      g_array_sort (fused, _lode_searcher_compare_candidates);
    }

  for (guint i = 0; i < fused->len; i++)
    {
      Candidate *c = &g_array_index (fused, Candidate, i);

      c->score = _lode_searcher_scale_tier (c->tier,
                                            (c->tier > 0 ? c->relevance : c->score) / best);
    }

  return _lode_searcher_make_results (search, fused, error);
}
