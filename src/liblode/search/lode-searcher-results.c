/* lode-searcher-results.c — the candidates every leg makes, and the results made of them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-searcher-private.h"

/* The highest tier of an identifier query (symbol_tier() in lode-searcher-lexical.c), for the
 * score scale. */
#define MAX_TIER 9

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

  if (search->expansion != NULL)
    {
      g_autofree char *text = g_strconcat (result->path, "\n", body != NULL ? body : "", NULL);

      _lode_expansion_explain (search->expansion, text, &result->expanded_terms,
                               &result->expanded_from);
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
