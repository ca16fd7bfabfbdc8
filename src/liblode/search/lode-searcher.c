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
 * every store shares this ranking. This file holds the object, the candidates every leg
 * makes, the results and the entry point.
 *
 * Threads: a searcher is used by one thread at a time (its owner holds a lock around it). */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-searcher-private.h"

/* The highest tier of an identifier query (symbol_tier() in lode-searcher-lexical.c), for the
 * score scale. */
#define MAX_TIER 7

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

/* Candidates ---------------------------------------------------------------------------- */

static void
candidate_clear (Candidate *c)
{
  g_clear_pointer (&c->row, lode_chunk_row_free);
}

GArray *
_lode_searcher_candidates_new (void)
{
  GArray *candidates = g_array_new (FALSE, TRUE, sizeof (Candidate));

  g_array_set_clear_func (candidates, (GDestroyNotify) candidate_clear);
  return candidates;
}

static gboolean
check_cancelled (Search  *search,
                 GError **error)
{
  if (search->cancellable == NULL || !g_cancellable_is_cancelled (search->cancellable))
    return TRUE;

  g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Search cancelled");
  return FALSE;
}

int
_lode_searcher_compare_candidates (gconstpointer a,
                                   gconstpointer b)
{
  const Candidate *ca = a;
  const Candidate *cb = b;
  int by_path;

  if (ca->score != cb->score)
    return ca->score > cb->score ? -1 : 1;
  /* Ties by path, not by file id: ids follow the order in which the indexer's threads
   * finished, so the same question would list tied files differently after a re-index. */
  by_path = g_strcmp0 (ca->row->path, cb->row->path);
  if (by_path != 0)
    return by_path;
  return ca->row->start_line < cb->row->start_line ? -1 :
         ca->row->start_line > cb->row->start_line ? 1 : 0;
}

/* By score alone, best first. */
int
_lode_searcher_compare_scores (gconstpointer a,
                               gconstpointer b)
{
  const Candidate *ca = a;
  const Candidate *cb = b;

  return ca->score > cb->score ? -1 : ca->score < cb->score ? 1 : 0;
}

/* Fills in the rows of @candidates and drops those that are gone or do not pass the
 * filters, keeping the order. */
gboolean
_lode_searcher_load_candidates (Search   *search,
                                GArray   *candidates,
                                GError  **error)
{
  g_autofree gint64 *ids = g_new (gint64, candidates->len + 1);
  g_autoptr(GPtrArray) rows = NULL;
  guint n_kept = 0;

  if (!check_cancelled (search, error))
    return FALSE;

  for (guint i = 0; i < candidates->len; i++)
    ids[i] = g_array_index (candidates, Candidate, i).chunk_id;
  rows = lode_search_backend_fetch_chunks (search->backend, ids, candidates->len, error);
  if (rows == NULL)
    return FALSE;

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      LodeChunkRow *row = g_ptr_array_index (rows, i);

      if (row == NULL || !lode_search_filter_accepts (&search->filter, row->language, row->path))
        continue;

      g_clear_pointer (&c->row, lode_chunk_row_free);
      c->row = g_steal_pointer (&rows->pdata[i]);
      if (i != n_kept)
        {
          g_array_index (candidates, Candidate, n_kept) = *c;
          memset (c, 0, sizeof *c);
        }
      n_kept++;
    }
  g_array_set_size (candidates, n_kept);

  return TRUE;
}

/* The score users see, on one scale for every mode (docs/architecture.md, "Scores"): @x is
 * the candidate's strength in [0, 1); a definition of an identifier (tier > 0) lies in
 * [0.5, 1], above every other result, which lies in [0, 0.5). */
double
_lode_searcher_scale_tier (guint  tier,
                           double x)
{
  x = CLAMP (x, 0.0, 1.0);
  if (tier == 0)
    return 0.5 * x;

  return 0.5 + 0.5 * (MIN (tier, MAX_TIER) + x) / (MAX_TIER + 1);
}

/* Which of the declarations a chunk holds the match lies in: for an identifier query the
 * one of that name; otherwise the one whose lines hold the most query terms, the innermost
 * among equals (a method rather than its class). NULL when the chunk's own symbol stands. */
static const LodeSymbolRow *
attribute (const Search       *search,
           const LodeChunkRow *row,
           GPtrArray          *symbols,
           const char         *body)
{
  LodeTermLines tl = { 0 };
  const LodeSymbolRow *best = NULL;
  guint best_hits = 0;

  if (symbols->len == 0)
    return NULL;

  if (search->plan->kind == LODE_QUERY_IDENTIFIER)
    {
      for (guint i = symbols->len; i > 0; i--)
        {
          const LodeSymbolRow *symbol = g_ptr_array_index (symbols, i - 1);

          if (g_ascii_strcasecmp (symbol->name, search->plan->name) == 0)
            return symbol;
        }
    }
  if (search->plan->kind == LODE_QUERY_PATH || body == NULL)
    return symbols->len > 1 ? g_ptr_array_index (symbols, 0) : NULL;
  if (symbols->len == 1)
    return g_ptr_array_index (symbols, 0);

  _lode_term_lines_init (&tl, body, (const char *const *) search->plan->terms);
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeSymbolRow *symbol = g_ptr_array_index (symbols, i);
      guint first = symbol->start_line > row->start_line ? symbol->start_line - row->start_line
                                                          : 0;
      guint hits = _lode_term_lines_count (&tl, first, symbol->end_line - row->start_line);

      /* Symbols come by start line, outer before inner: ≥ lets a method win over its class. */
      if (best == NULL || hits > best_hits ||
          (hits == best_hits && hits > 0 && symbol->start_line >= best->start_line &&
           symbol->end_line <= best->end_line))
        {
          best = symbol;
          best_hits = hits;
        }
    }
  _lode_term_lines_clear (&tl);

  return best;
}

static LodeSearchResult *
make_result (Search     *search,
             Candidate  *c,
             GError    **error)
{
  const char *const *terms = search->plan->kind == LODE_QUERY_PATH
                             ? NULL : (const char *const *) search->plan->terms;
  g_autoptr(LodeSearchResult) result = g_new0 (LodeSearchResult, 1);
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *body = NULL;
  LodeChunkRow *row = c->row;
  const LodeSymbolRow *symbol;
  guint from_line = 0;
  guint snippet_line;

  body = lode_search_backend_dup_chunk_text (search->backend, c->chunk_id, &local_error);
  if (local_error == NULL)
    symbols = lode_search_backend_find_chunk_symbols (search->backend, c->chunk_id,
                                                      &local_error);
  if (local_error != NULL)
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return NULL;
    }

  result->path = g_steal_pointer (&row->path);
  result->start_line = row->start_line;
  result->end_line = row->end_line;
  result->language = g_steal_pointer (&row->language);
  result->score = c->score;
  result->symbol_start_line = row->start_line;
  result->symbol_end_line = row->end_line;

  symbol = attribute (search, row, symbols, body);
  if (symbol != NULL)
    {
      result->symbol = g_strdup (symbol->name);
      result->kind = g_strdup (symbol->kind);
      result->container = g_strdup (symbol->container);
      result->signature = g_strdup (symbol->signature);
      result->symbol_start_line = MAX (symbol->start_line, row->start_line);
      result->symbol_end_line = MIN (symbol->end_line, row->end_line);
      from_line = result->symbol_start_line - row->start_line;
    }
  else
    {
      /* A piece of a split declaration names the declaration it belongs to. */
      result->symbol = g_steal_pointer (&row->symbol);
      result->kind = g_steal_pointer (&row->kind);
      result->container = g_steal_pointer (&row->container);
      result->signature = g_steal_pointer (&row->signature);
    }

  if (symbols->len > 0)
    {
      result->symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_search_symbol_free);
      for (guint i = 0; i < symbols->len; i++)
        {
          const LodeSymbolRow *s = g_ptr_array_index (symbols, i);
          LodeSearchSymbol *item = g_new0 (LodeSearchSymbol, 1);

          item->name = g_strdup (s->name);
          item->kind = g_strdup (s->kind);
          item->start_line = s->start_line;
          item->end_line = s->end_line;
          g_ptr_array_add (result->symbols, item);
        }
    }

  result->snippet = _lode_search_snippet (body, terms, from_line, &snippet_line);
  result->snippet_start_line = row->start_line + snippet_line;
  if (search->options->include_content)
    result->content = g_steal_pointer (&body);
  if (result->content == NULL && search->options->include_content)
    result->content = g_strdup ("");

  return g_steal_pointer (&result);
}

/* The results, from candidates sorted by ranking score whose `score` is now on the 0–1
 * scale: minimum score, one per file, limit, snippets. */
GPtrArray *
_lode_searcher_make_results (Search   *search,
                             GArray   *candidates,
                             GError  **error)
{
  g_autoptr(GPtrArray) results = NULL;
  g_autoptr(GHashTable) files = g_hash_table_new (g_int64_hash, g_int64_equal);

  results = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_search_result_free);
  for (guint i = 0; i < candidates->len && results->len < search->limit; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      LodeSearchResult *result;

      if (c->score < search->options->min_score)
        break;
      if (search->options->one_per_file && !g_hash_table_add (files, &c->row->file_id))
        continue;

      result = make_result (search, c, error);
      if (result == NULL)
        return NULL;
      g_ptr_array_add (results, result);
    }

  return g_steal_pointer (&results);
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
