/* lode-searcher.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The search policy, in one place: query analysis (lode-search.c), the lexical leg (BM25
 * candidates from the backend, exact symbol look-ups: lode-searcher-lexical.c), path queries
 * over the index's files kept in memory (lode-searcher-paths.c), the dense leg (an exact scan
 * of the backend's vectors, kept in memory, or the backend's own search when it is a server)
 * and the fusion (lode-searcher-dense.c), boosts, per-file spreading and the 0–1 score scale.
 * The backend only returns candidate rows and statistics (lode-search-backend.h), so that
 * every store shares this ranking. This file holds the object and the entry point; each file
 * calls only the ones after it in this order: lode-searcher.c, -dense, -lexical, -paths,
 * -results (the candidates every leg makes, the results).
 *
 * Threads: a searcher is used by one thread at a time (its owner holds a lock around it). */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include "lode-error.h"
#include "lode-searcher-private.h"

G_DEFINE_FINAL_TYPE (LodeSearcher, lode_searcher, G_TYPE_OBJECT)

static void
lode_searcher_finalize (GObject *object)
{
  LodeSearcher *self = (LodeSearcher *)object;

  g_clear_object (&self->vectors);
  g_free (self->vectors_model);
  _lode_searcher_clear_files (self);

  G_OBJECT_CLASS (lode_searcher_parent_class)->finalize (object);
}

static void
lode_searcher_class_init (LodeSearcherClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_searcher_finalize;
}

static void
lode_searcher_init (LodeSearcher *self)
{
  self->quantized = TRUE;
}

/**
 * lode_searcher_new:
 *
 * Returns: (transfer full): a searcher; keep one per index, so that the dense leg's vectors
 *   stay in memory between searches
 */
LodeSearcher *
lode_searcher_new (void)
{
  return g_object_new (LODE_TYPE_SEARCHER, NULL);
}

/**
 * lode_searcher_set_quantized:
 * @self: a #LodeSearcher
 * @quantized: scan int8 copies of the vectors and re-score the best in float32
 *
 * Takes effect when the vectors are next loaded.
 */
void
lode_searcher_set_quantized (LodeSearcher *self,
                             gboolean      quantized)
{
  g_return_if_fail (LODE_IS_SEARCHER (self));

  self->quantized = !!quantized;
}

static LodeSearchResponse *search_snapshot (LodeSearcher             *self,
                                            LodeSearchBackend        *backend,
                                            const LodeSearchOptions  *options,
                                            const LodeQueryVector    *query,
                                            const char               *unavailable,
                                            GCancellable             *cancellable,
                                            GError                  **error);

/**
 * lode_searcher_search:
 * @self: a #LodeSearcher
 * @backend: the index to search
 * @options: the query, its filters, the limit (clamped to 1 … %LODE_SEARCH_MAX_LIMIT) and
 *   the mode
 * @query: (nullable): the query's embedding, for the dense leg
 * @unavailable: (nullable): without @query, why there is none ("no embedding model (run
 *   `lode model pull`)")
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Searches @backend. See lode_query_classify() for how the query is read and
 * docs/architecture.md ("Search") for the ranking.
 *
 * Hybrid mode fuses the lexical leg and the vector neighbours of @query; without @query, or
 * when the dense leg fails, hybrid runs the lexical leg alone and the response says so (mode
 * lexical, a notice); semantic mode fails with %LODE_ERROR_EMBEDDER instead. Path queries
 * run lexically in hybrid mode.
 *
 * Every mode scores results from 0 to 1, higher is better:
 * - identifier queries: a definition of the name 0.5 … 1 (more for the exact case, a
 *   matching container; less for a prototype), every other chunk below 0.5;
 * - lexical relevance r counts as r / (r + W), W being the relevance of a chunk that holds
 *   each query term once in its body: 0.5 is "every word once", more words, repeats and
 *   hits in names and signatures bring it nearer to 1;
 * - semantic: the cosine similarity, clamped to 0 … 1;
 * - hybrid: the fused relevance as a fraction of the best possible, first in both legs;
 * - path queries: 1 for a whole trailing path component, about 2/3 for a trailing part, 1/3
 *   for a part elsewhere, less for files that only hold the query's words.
 *
 * Returns: (transfer full): the results, best first, and the mode that ran; %NULL on error
 *   (%G_IO_ERROR_CANCELLED when cancelled)
 */
LodeSearchResponse *
lode_searcher_search (LodeSearcher             *self,
                      LodeSearchBackend        *backend,
                      const LodeSearchOptions  *options,
                      const LodeQueryVector    *query,
                      const char               *unavailable,
                      GCancellable             *cancellable,
                      GError                  **error)
{
  LodeSearchResponse *response;

  g_return_val_if_fail (LODE_IS_SEARCHER (self), NULL);
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (backend), NULL);
  g_return_val_if_fail (options != NULL && options->query != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (!lode_search_backend_begin_read (backend, error))
    return NULL;
  response = search_snapshot (self, backend, options, query, unavailable, cancellable, error);
  lode_search_backend_end_read (backend);

  return response;
}

/* lode_searcher_search() on one snapshot of @backend. */
static LodeSearchResponse *
search_snapshot (LodeSearcher             *self,
                 LodeSearchBackend        *backend,
                 const LodeSearchOptions  *options,
                 const LodeQueryVector    *query,
                 const char               *unavailable,
                 GCancellable             *cancellable,
                 GError                  **error)
{
  g_autoptr(LodeSearchResponse) response = NULL;
  g_autoptr(LodeQueryPlan) plan = NULL;
  g_autoptr(GArray) dense = NULL;
  g_autoptr(GError) dense_error = NULL;
  g_autofree char *notice = NULL;
  LodeSearchMode mode = options->mode;
  Search search = { 0 };

  plan = _lode_query_plan_new (options->query, backend, error);
  if (plan == NULL)
    return NULL;
  search.searcher = self;
  search.backend = backend;
  search.options = options;
  search.filter.language = options->language;
  search.filter.path_glob = options->path_glob;
  search.plan = plan;
  search.cancellable = cancellable;
  search.limit = CLAMP (options->limit, 1, LODE_SEARCH_MAX_LIMIT);
  search.about_tests = _lode_searcher_asks_about_tests (plan);

  response = g_new0 (LodeSearchResponse, 1);
  response->requested_mode = options->mode;

  if (mode != LODE_SEARCH_MODE_LEXICAL)
    {
      if (query != NULL)
        dense = _lode_searcher_dense_leg (self, &search, query, response, &dense_error);
      if (dense == NULL)
        {
          notice = g_strdup_printf ("semantic search unavailable: %s",
                                    dense_error != NULL ? dense_error->message
                                    : unavailable != NULL ? unavailable
                                    : "no embedding provider");
          if (mode == LODE_SEARCH_MODE_SEMANTIC)
            {
              g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER, notice);
              return NULL;
            }
          mode = LODE_SEARCH_MODE_LEXICAL;
        }
    }

  if (mode == LODE_SEARCH_MODE_SEMANTIC)
    response->results = _lode_searcher_search_semantic (&search, dense, error);
  else if (plan->kind == LODE_QUERY_PATH)
    response->results = _lode_searcher_search_paths (&search, error);
  else if (mode == LODE_SEARCH_MODE_HYBRID)
    response->results = _lode_searcher_search_fused (&search, dense, error);
  else
    response->results = _lode_searcher_search_lexical (&search, error);

  if (response->results == NULL)
    return NULL;

  response->mode = mode;
  if (notice != NULL)
    {
      g_free (response->notice);
      response->notice = g_steal_pointer (&notice);
    }

  return g_steal_pointer (&response);
}
