/* lode-searcher-lexical.c — the lexical and symbol legs and their boosts
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-searcher-private.h"

/* Candidates fetched from the lexical leg beyond the limit, for the symbol boosts and the
 * filters. */
#define SEARCH_EXTRA_CANDIDATES 30
/* Symbol rows looked at for an identifier query. */
#define SEARCH_MAX_SYMBOLS      64

/* Natural-language queries weigh a file's other matching chunks too (see add_file_evidence()):
 * the pool they come from, and how fast the weight of each further chunk decays. */
#define NATURAL_MIN_CANDIDATES  600
#define FILE_EVIDENCE_DECAY     0.8
/* …and rank code above tests and prose (see _lode_searcher_secondary_factor()); a query of
 * this many terms or more (a pasted issue) counts prose SECONDARY_FACTOR once more. */
#define SECONDARY_FACTOR        0.1
#define LONG_QUERY_TERMS        24
/* An identifier's definition that its package keeps to itself (is_restricted()) counts this
 * much within its tier: after an exported one of the same name in the code, before one in
 * the tests. */
#define RESTRICTED_FACTOR       0.5
/* The tiers of the chunks that hold a query's literals: the highest (the score scale's,
 * MAX_TIER) holds them all. */
#define LITERAL_TIERS           9
/* Within a literal tier, how much a chunk's own score counts beside its file's best: enough
 * to order the chunks of one file, too little to matter between files. */
#define LITERAL_TIE_BREAK       1e-3

/* The lexical leg: the best @n_fetch chunks by BM25 for @query, appended to @candidates. */
static gboolean
lexical_leg (Search                  *search,
             const LodeLexicalQuery  *query,
             guint                    n_fetch,
             GArray                  *candidates,
             GHashTable              *index,
             GError                 **error)
{
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (LodeLexicalHit));

  if (!lode_search_backend_lexical (search->backend, query, &search->filter, n_fetch,
                                    search->cancellable, hits, &search->weight, error))
    return FALSE;

  for (guint i = 0; i < hits->len; i++)
    {
      const LodeLexicalHit *hit = &g_array_index (hits, LodeLexicalHit, i);
      Candidate c = { 0 };

      c.chunk_id = hit->chunk_id;
      c.relevance = MAX (0.0, hit->score);
      if (index != NULL)
        g_hash_table_insert (index, GSIZE_TO_POINTER ((gsize) c.chunk_id),
                             GUINT_TO_POINTER (candidates->len));
      g_array_append_val (candidates, c);
    }

  return TRUE;
}

static gboolean
has_parts (const LodeLexicalQuery *query)
{
  for (guint i = 0; i < query->groups->len; i++)
    if (((const LodeLexicalGroup *) g_ptr_array_index (query->groups, i))->parts != NULL)
      return TRUE;

  return FALSE;
}

/* An identifier query finds `cmd_commit` whole, or `cmd` and `commit` anywhere in a chunk.
 * The second is for names that occur too rarely to fill a page: on git's source it is a
 * thousand chunks or more for most names, and ranking them was three quarters of such a
 * search. So the chunks that hold the name whole (ranked by the name alone) come first, and
 * the parts are looked up only when those are fewer than asked for. */
static gboolean
identifier_lexical_leg (Search      *search,
                        guint        n_fetch,
                        GArray      *candidates,
                        GHashTable  *index,
                        GError     **error)
{
  LodeLexicalQuery whole = *search->plan->lexical;

  if (has_parts (&whole) && !search->options->one_per_file)
    {
      whole.whole_only = TRUE;
      if (!lexical_leg (search, &whole, n_fetch, candidates, index, error))
        return FALSE;
      if (candidates->len >= search->limit)
        return TRUE;
      g_array_set_size (candidates, 0);
      g_hash_table_remove_all (index);
    }

  return lexical_leg (search, search->plan->lexical, n_fetch, candidates, index, error);
}

/* Symbol kinds that announce a name rather than define it. */
static gboolean
is_declaration_kind (const char *kind,
                     const char *signature)
{
  static const char *const kinds[] = {
    "declaration", "prototype", "forward", "forward_declaration", "extern", "import",
  };
  gsize len;

  if (kind != NULL)
    for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
      if (strcmp (kind, kinds[i]) == 0)
        return TRUE;

  /* A C-family prototype: the signature is all there is. */
  if (signature == NULL)
    return FALSE;
  len = strlen (signature);
  while (len > 0 && g_ascii_isspace (signature[len - 1]))
    len--;

  return len > 0 && signature[len - 1] == ';';
}

/* Whether a definition adds to a type defined elsewhere rather than defining it: a Rust
 * `impl`, a Swift `extension`, a C# `partial` class. */
static gboolean
is_extension (const char *kind,
              const char *signature)
{
  if (g_strcmp0 (kind, "impl") == 0 || g_strcmp0 (kind, "extension") == 0)
    return TRUE;

  return signature != NULL && (g_str_has_prefix (signature, "partial ") ||
                               strstr (signature, " partial ") != NULL);
}

/* Whether a definition's modifiers keep it from the users of its package: Rust's `pub(…)`,
 * and `private`, `fileprivate`, `internal` and `protected` in the languages that write them
 * (unless `public` came first). A definition without modifiers says nothing, nor does C's
 * `static`: most of a C program's functions are, and a name looked up is usually one of
 * them. */
static gboolean
is_restricted (const char *signature)
{
  static const char *const modifiers[] = {
    "private", "fileprivate", "internal", "protected",
  };
  const char *p = signature;

  if (p == NULL)
    return FALSE;
  if (g_str_has_prefix (p, "pub("))
    return TRUE;
  while (*p != '\0')
    {
      const char *end = p;

      while (g_ascii_isalpha (*end))
        end++;
      if (end == p || *end != ' ' || (end - p == 6 && strncmp (p, "public", 6) == 0))
        return FALSE;
      for (guint i = 0; i < G_N_ELEMENTS (modifiers); i++)
        if (strlen (modifiers[i]) == (gsize) (end - p) &&
            strncmp (p, modifiers[i], end - p) == 0)
          return TRUE;
      p = end + 1;
    }

  return FALSE;
}

/* Tiers of an identifier query, each two apart so that a matching container adds one: a
 * definition under the exact name, then the blocks that add to it (`impl`, `extension`,
 * `partial`), then a definition under another case, then a prototype or declaration. */
static guint
symbol_tier (const LodeQueryPlan *plan,
             const LodeSymbolRow *symbol)
{
  guint tier;

  if (is_declaration_kind (symbol->kind, symbol->signature))
    tier = 2;
  else if (strcmp (symbol->name, plan->name) != 0)
    tier = 4;
  else if (is_extension (symbol->kind, symbol->signature))
    tier = 6;
  else
    tier = 8;

  if (plan->container != NULL && symbol->container != NULL &&
      g_ascii_strcasecmp (plan->container, symbol->container) == 0)
    tier++;

  return tier;
}

/* Identifier queries: the chunks the symbols table names get their tier; those the lexical
 * leg did not find join the candidates with their own relevance. */
static gboolean
symbol_leg (Search      *search,
            GArray      *candidates,
            GHashTable  *index,
            GError     **error)
{
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GArray) found = g_array_new (FALSE, FALSE, sizeof (Candidate));
  g_autofree gint64 *ids = NULL;
  g_autofree double *scores = NULL;

  symbols = lode_search_backend_find_symbols (search->backend, search->plan->name,
                                              SEARCH_MAX_SYMBOLS, error);
  if (symbols == NULL)
    return FALSE;

  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeSymbolRow *symbol = g_ptr_array_index (symbols, i);
      guint tier = symbol_tier (search->plan, symbol);
      gboolean restricted = tier >= 8 && is_restricted (symbol->signature);
      gpointer pos;

      if (g_hash_table_lookup_extended (index, GSIZE_TO_POINTER ((gsize) symbol->chunk_id),
                                        NULL, &pos))
        {
          Candidate *c = &g_array_index (candidates, Candidate, GPOINTER_TO_UINT (pos));

          if (tier > c->tier)
            c->restricted = restricted;
          c->tier = MAX (c->tier, tier);
          continue;
        }

      {
        Candidate c = { 0 };

        c.chunk_id = symbol->chunk_id;
        c.tier = tier;
        c.restricted = restricted;
        g_hash_table_insert (index, GSIZE_TO_POINTER ((gsize) c.chunk_id),
                             GUINT_TO_POINTER (candidates->len + found->len));
        g_array_append_val (found, c);
      }
    }

  if (found->len == 0)
    return TRUE;

  ids = g_new (gint64, found->len);
  scores = g_new0 (double, found->len);
  for (guint i = 0; i < found->len; i++)
    ids[i] = g_array_index (found, Candidate, i).chunk_id;
  if (search->plan->lexical != NULL &&
      !lode_search_backend_score_lexical (search->backend, search->plan->lexical, ids,
                                          found->len, scores, error))
    return FALSE;

  for (guint i = 0; i < found->len; i++)
    {
      Candidate *c = &g_array_index (found, Candidate, i);

      c->relevance = MAX (0.0, scores[i]);
      g_array_append_val (candidates, *c);
    }

  return TRUE;
}

/* Tests, documentation, plain text, generated and vendored code, and the code of
 * documentation and example folders answer a question in words less often than the code
 * they describe: each of these counts SECONDARY_FACTOR times, and prose once more for a long
 * query (a pasted issue shares many words with every README). At a tenth, such a file comes
 * before the code only when it matches far better: on the development set and its reserve,
 * any factor from 0.15 down ranks the code that was changed as well, 0.5 worse. A short
 * question about tests (see _lode_searcher_asks_about_tests()) does not hold tests back. For
 * an identifier it orders the chunks of one tier only: a definition in a test still comes
 * before a use in the code, but after a definition of the same name in the code. Path queries
 * are not affected (a test *is* the answer when it is named). */
double
_lode_searcher_secondary_factor (const Search       *search,
                                 const LodeChunkRow *row)
{
  const char *path = row->path != NULL ? row->path : "";
  const LodeLexicalQuery *lexical = search->plan->lexical;
  double factor = 1.0;

  if (g_strcmp0 (row->language, "markdown") == 0 || g_strcmp0 (row->language, "text") == 0)
    {
      factor *= SECONDARY_FACTOR;
      if (lexical != NULL && lexical->groups->len >= LONG_QUERY_TERMS)
        factor *= SECONDARY_FACTOR;
    }
  if (_lode_path_is_test (path) && !search->about_tests)
    factor *= SECONDARY_FACTOR;
  if (_lode_path_is_generated (path))
    factor *= SECONDARY_FACTOR;
  if (_lode_path_is_documentation (path))
    factor *= SECONDARY_FACTOR;

  return factor;
}

/* Whether a question in words is about tests: a short one (not a pasted issue, which
 * mentions tests in passing) that names them. */
gboolean
_lode_searcher_asks_about_tests (const LodeQueryPlan *plan)
{
  static const char *const words[] = {
    "test", "tests", "testing", "tested", "unittest", "spec", "specs", NULL,
  };

  if (plan->kind != LODE_QUERY_NATURAL || plan->lexical == NULL ||
      plan->lexical->groups->len >= LONG_QUERY_TERMS)
    return FALSE;
  for (guint i = 0; i < plan->lexical->groups->len; i++)
    {
      const LodeLexicalGroup *group = g_ptr_array_index (plan->lexical->groups, i);

      if (g_strv_contains (words, group->term))
        return TRUE;
    }

  return FALSE;
}

/* A question in words (an issue, a bug report) is usually answered by a file that matches it
 * in several places, not by the one chunk that repeats a single word most: each chunk gets
 * the relevance of its file's chunks in the pool after the best, the second weighing
 * FILE_EVIDENCE_DECAY, each next one FILE_EVIDENCE_DECAY times the one before, and its file's
 * name evidence (_lode_searcher_name_evidence(), as secondary as its chunks). The file's
 * best chunk so scores what the whole file does, and its other chunks stand below it by
 * their own relevance: the chunk shown for a file is the one that matches best. (Each used
 * to score the whole file's, and the tie went by line number: `where are gitignore rules
 * matched` showed lode-ignore.c's `lode_ignore_unref`, which holds none of its words.)
 * @candidates must be in relevance order. */
static void
add_file_evidence (const Search *search,
                   GArray       *candidates)
{
  g_autoptr(GHashTable) evidence = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                          NULL, g_free);

  /* acc[0]: the sum so far of the chunks after the best, acc[1]: the weight of the next
   * chunk, acc[2]: the name's evidence, acc[3]: the file's secondary factor; each computed
   * once per file. */
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double *acc = g_hash_table_lookup (evidence, &c->row->file_id);

      if (acc == NULL)
        {
          acc = g_new0 (double, 4);
          acc[1] = 1.0;
          acc[3] = _lode_searcher_secondary_factor (search, c->row);
          acc[2] = acc[3] * _lode_searcher_name_evidence (search, c->row->path);
          g_hash_table_insert (evidence, &c->row->file_id, acc);
        }
      c->relevance *= acc[3];
      c->score = c->relevance;
    }
  g_array_sort (candidates, _lode_searcher_compare_candidates);

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double *acc = g_hash_table_lookup (evidence, &c->row->file_id);

      if (acc[1] < 1.0)
        acc[0] += acc[1] * c->relevance;
      acc[1] *= FILE_EVIDENCE_DECAY;
    }

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double *acc = g_hash_table_lookup (evidence, &c->row->file_id);

      c->score = c->relevance + acc[0] + acc[2];
    }
}

/* Near-duplicate files (zstd_v01.c … zstd_v07.c, parser1.go … parser8.go) form a family:
 * the same path once digits are left out. */
static char *
family_key (const char *path)
{
  GString *key = g_string_new (NULL);

  for (const char *p = path; *p != '\0'; p++)
    if (!g_ascii_isdigit (*p))
      g_string_append_c (key, *p);

  return g_string_free (key, FALSE);
}

/* Once a file's evidence is in every one of its chunks, they would come in a block; the
 * second chunk of a file keeps half its score, the third a quarter, … so that the first
 * results show several files. Files of one family are spread the same way, so that the
 * best copy is shown and the others leave room. @candidates must be sorted by score. */
void
_lode_searcher_spread_files (GArray *candidates)
{
  g_autoptr(GHashTable) chunks_seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) family_rank = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autoptr(GHashTable) families = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                          NULL);

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (chunks_seen, &c->row->file_id));
      guint m;

      /* A file's rank in its family: how many of its files came before it. */
      if (n == 0)
        {
          g_autofree char *key = family_key (c->row->path);
          guint k = GPOINTER_TO_UINT (g_hash_table_lookup (families, key));

          g_hash_table_insert (family_rank, &c->row->file_id, GUINT_TO_POINTER (k));
          g_hash_table_insert (families, g_steal_pointer (&key), GUINT_TO_POINTER (k + 1));
        }
      m = GPOINTER_TO_UINT (g_hash_table_lookup (family_rank, &c->row->file_id));

      g_hash_table_insert (chunks_seen, &c->row->file_id, GUINT_TO_POINTER (n + 1));
      c->score = ldexp (c->score, -(int) MIN (n + m, 60));
    }
}

/* Each tier lies wholly above the one below: score = relevance + tier × (1 + the best
 * relevance). Without tiers the score is the plain relevance. */
void
_lode_searcher_apply_tiers (GArray *candidates)
{
  double max_relevance = 0.0;

  for (guint i = 0; i < candidates->len; i++)
    max_relevance = MAX (max_relevance, g_array_index (candidates, Candidate, i).relevance);

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);

      c->score = c->relevance + c->tier * (1.0 + max_relevance);
    }
}

/* A question in words that quotes a message: the chunks of code that hold the most of its
 * literals (_lode_searcher_literal_leg(), @total bytes in all) come first, each in a tier by
 * the share it holds, above every chunk that holds none. Within a tier the files keep their
 * order: a chunk stands where its file's best chunk stands, then by its own score. A message
 * that several files emit does not tell them apart, and the chunk that emits it is often
 * not its file's best (`invalid format specifier` in fmt's ranges.h, printf.h and base.h,
 * asked about ranges). Tests and prose that hold a literal keep their place: a test expects
 * the message, a manual quotes it, the code emits it. */
static void
lift_literals (const Search *search,
               GArray       *candidates,
               gsize         total)
{
  g_autoptr(GHashTable) file_best = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                           NULL, g_free);
  double max_score = 0.0;

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double *best = g_hash_table_lookup (file_best, &c->row->file_id);

      max_score = MAX (max_score, c->score);
      if (best == NULL)
        g_hash_table_insert (file_best, &c->row->file_id, g_memdup2 (&c->score, sizeof (double)));
      else
        *best = MAX (*best, c->score);
    }

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      const double *best = g_hash_table_lookup (file_best, &c->row->file_id);

      if (c->literal == 0 || _lode_searcher_secondary_factor (search, c->row) < 1.0)
        continue;
      c->tier = 1 + (guint) ((LITERAL_TIERS - 1) * MIN (1.0, (double) c->literal / total));
      c->relevance = c->score;
      c->score = *best + LITERAL_TIE_BREAK * c->score + c->tier * (1.0 + max_score);
    }
}

/* Lexical relevance on the 0–1 scale: r / (r + W), where W is the query's weight, the
 * relevance of a chunk that holds each of its terms once in its body. */
static double
scale_lexical (const Search *search,
               double        relevance)
{
  double weight = search->weight > 0.0 ? search->weight : 1.0;

  return relevance / (relevance + weight);
}

/* Identifier and natural-language queries: BM25 from the backend, plus, for identifiers,
 * the chunks the symbols table names. Returns the candidates loaded, filtered and sorted by
 * their ranking score. */
GArray *
_lode_searcher_rank_lexical (Search   *search,
                             GError  **error)
{
  g_autoptr(GArray) candidates = _lode_searcher_candidates_new ();
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  const LodeQueryPlan *plan = search->plan;
  gsize literals = 0;
  guint n_fetch;

  n_fetch = search->limit + SEARCH_EXTRA_CANDIDATES;
  if (search->options->one_per_file)
    n_fetch = search->limit * 5 + SEARCH_EXTRA_CANDIDATES;
  if (plan->kind == LODE_QUERY_NATURAL)
    n_fetch = MAX (n_fetch, NATURAL_MIN_CANDIDATES);
  n_fetch = MIN (n_fetch, SEARCH_MAX_CANDIDATES);

  if (plan->lexical != NULL &&
      !(plan->kind == LODE_QUERY_IDENTIFIER
          ? identifier_lexical_leg (search, n_fetch, candidates, index, error)
          : lexical_leg (search, plan->lexical, n_fetch, candidates, index, error)))
    return NULL;

  if (plan->kind == LODE_QUERY_IDENTIFIER && plan->name != NULL &&
      !symbol_leg (search, candidates, index, error))
    return NULL;

  if (!_lode_searcher_lexicon_legs (search, n_fetch, candidates, index, error))
    return NULL;

  if (plan->kind == LODE_QUERY_NATURAL &&
      !_lode_searcher_literal_leg (search, candidates, index, &literals, error))
    return NULL;

  if (!_lode_searcher_load_candidates (search, candidates, error))
    return NULL;

  if (plan->kind == LODE_QUERY_IDENTIFIER)
    for (guint i = 0; i < candidates->len; i++)
      {
        Candidate *c = &g_array_index (candidates, Candidate, i);

        c->relevance *= _lode_searcher_secondary_factor (search, c->row);
        if (c->restricted)
          c->relevance *= RESTRICTED_FACTOR;
      }
  _lode_searcher_apply_tiers (candidates);
  if (plan->kind == LODE_QUERY_NATURAL && plan->lexical != NULL)
    {
      if (!_lode_searcher_ensure_files (search, error))
        return NULL;
      add_file_evidence (search, candidates);
      g_array_sort (candidates, _lode_searcher_compare_candidates);
      _lode_searcher_spread_files (candidates);
    }
  if (literals > 0)
    lift_literals (search, candidates, literals);
  g_array_sort (candidates, _lode_searcher_compare_candidates);

  return g_steal_pointer (&candidates);
}

GPtrArray *
_lode_searcher_search_lexical (Search   *search,
                               GError  **error)
{
  g_autoptr(GArray) candidates = _lode_searcher_rank_lexical (search, error);

  if (candidates == NULL)
    return NULL;

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double strength = c->tier > 0 ? scale_lexical (search, c->relevance)
                                    : scale_lexical (search, c->score);

      c->score = _lode_searcher_scale_tier (c->tier, strength);
    }

  return _lode_searcher_make_results (search, candidates, error);
}
