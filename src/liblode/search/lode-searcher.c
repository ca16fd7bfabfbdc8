/* lode-searcher.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The search policy, in one place: query analysis (lode-search.c), the lexical leg (BM25
 * candidates from the backend, exact symbol look-ups), the dense leg (an exact scan of the
 * backend's vectors, kept in memory, or the backend's own search when it is a server),
 * fusion, boosts, per-file spreading and the 0–1 score scale. The backend only returns
 * candidate rows and statistics (lode-search-backend.h), so that every store shares this
 * ranking.
 *
 * Threads: a searcher is used by one thread at a time (its owner holds a lock around it). */

#define G_LOG_DOMAIN "lode-search"

#define _GNU_SOURCE  /* memmem() */

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-code-tokenizer.h"
#include "lode-error.h"
#include "lode-search-private.h"
#include "lode-searcher.h"
#include "lode-vector-index.h"

/* Candidates fetched from the lexical leg beyond the limit, for the symbol boosts and the
 * filters. */
#define SEARCH_EXTRA_CANDIDATES 30
#define SEARCH_MAX_CANDIDATES   600
/* Symbol rows looked at for an identifier query. */
#define SEARCH_MAX_SYMBOLS      64

/* Natural-language queries weigh a file's other matching chunks too (see add_file_evidence):
 * the pool they come from, and how fast the weight of each further chunk decays. */
#define NATURAL_MIN_CANDIDATES  600
#define FILE_EVIDENCE_DECAY     0.8
/* …and rank code above tests and prose (see secondary_factor); a query of this many terms
 * or more (a pasted issue) counts prose SECONDARY_FACTOR once more. */
#define SECONDARY_FACTOR        0.1
#define LONG_QUERY_TERMS        24
/* A query term that a file's name holds adds this many times its weight times its rarity
 * among file names (see name_evidence). */
#define NAME_EVIDENCE_WEIGHT    6.0

/* Ranks of the two legs fused by Reciprocal Rank Fusion: the lexical leg adds
 * 1 / (RRF_K + rank), the dense leg its weight times that (see dense_weight). */
#define RRF_K 60

/* The code lexicon's legs (lexicon_gate): a question none of whose LEXICON_GATE_CHUNKS most
 * relevant chunks holds LEXICON_GATE of its words is widened with the lexicon's neighbours of
 * its words (expansion_leg), and the LEXICON_CANDIDATES chunks nearest to it in the lexicon
 * gain LEXICON_WEIGHT × the query's weight × their cosine (lexicon_leg). */
#define LEXICON_GATE        0.75
#define LEXICON_GATE_CHUNKS 5
#define LEXICON_WEIGHT     4.0
#define LEXICON_CANDIDATES 50
/* The spread of cosines over the dense leg's neighbours at which it counts fully. */
#define DENSE_FULL_SPREAD 0.1

/* The highest tier of an identifier query (see symbol_tier), for the score scale. */
#define MAX_TIER 7

struct _LodeSearcher
{
  GObject           parent_instance;

  /* The dense leg's matrix: loaded on the first search that needs it, then brought up to
   * date whenever the backend's version changed. */
  LodeVectorIndex  *vectors;          /* (nullable): vectors of vectors_model */
  char             *vectors_model;
  LodeVectorCursor  vectors_cursor;
  gint64            vectors_version;  /* the backend's version when last synced */
  guint             n_embeddable;     /* chunks that can have a vector, when last synced */
  gboolean          quantized;

  /* Every file of the index, read once per version of it (see ensure_files): path queries
   * match them in memory, questions in words count the tokens of their names. */
  GPtrArray        *files;            /* (nullable) (element-type LodePathRow) */
  char             *lower_paths;      /* the files' paths in ASCII lower case, each ended by a
                                       * NUL, one after the other: a path query scans them at
                                       * once (a strstr() per path was most of its time) */
  guint            *lower_offsets;    /* where each one starts; one more: the end */
  char           ***path_tokens;      /* (nullable): the tokens of each path, when needed;
                                       * NULL-terminated */
  GHashTable       *name_counts;      /* token → how many files' names hold it */
  gint64            files_version;

  /* The code lexicon's vector of every chunk, made on the first question it widens, then
   * again whenever the backend's version changed (see lexicon_leg). */
  LodeVectorIndex  *lexicon_vectors;  /* (nullable) */
  gint64            lexicon_version;
};

G_DEFINE_FINAL_TYPE (LodeSearcher, lode_searcher, G_TYPE_OBJECT)

static void
clear_path_tokens (LodeSearcher *self)
{
  for (guint i = 0; self->path_tokens != NULL && self->path_tokens[i] != NULL; i++)
    g_strfreev (self->path_tokens[i]);
  g_clear_pointer (&self->path_tokens, g_free);
}

static void
lode_searcher_finalize (GObject *object)
{
  LodeSearcher *self = (LodeSearcher *)object;

  g_clear_object (&self->vectors);
  g_clear_object (&self->lexicon_vectors);
  g_free (self->vectors_model);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_free (self->lower_paths);
  g_free (self->lower_offsets);
  clear_path_tokens (self);
  g_clear_pointer (&self->name_counts, g_hash_table_unref);

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

/* One search ----------------------------------------------------------------------------- */

typedef struct
{
  LodeSearcher            *searcher;
  LodeSearchBackend       *backend;
  const LodeSearchOptions *options;
  LodeSearchFilter         filter;
  LodeQueryPlan           *plan;
  GCancellable            *cancellable;
  guint                    limit;
  double                   weight;      /* the lexical leg's query weight */
  gboolean                 about_tests; /* a short question that names tests */
  LodeExpansion           *expansion;   /* (nullable): the question widened by the lexicon */
  double                   lexicon_strength; /* how much the lexicon counts (lexicon_gate) */
} Search;

typedef struct
{
  gint64        chunk_id;
  double        relevance;   /* the leg's (or the fusion's) relevance, ≥ 0 */
  double        score;       /* the ranking score */
  guint         tier;        /* identifier queries: how surely the chunk defines the name */
  LodeChunkRow *row;         /* (nullable) until loaded */
} Candidate;

static void
candidate_clear (Candidate *c)
{
  g_clear_pointer (&c->row, lode_chunk_row_free);
}

static GArray *
candidates_new (void)
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

static int
compare_candidates (gconstpointer a,
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
static int
compare_scores (gconstpointer a,
                gconstpointer b)
{
  const Candidate *ca = a;
  const Candidate *cb = b;

  return ca->score > cb->score ? -1 : ca->score < cb->score ? 1 : 0;
}

/* Fills in the rows of @candidates and drops those that are gone or do not pass the
 * filters, keeping the order. */
static gboolean
load_candidates (Search   *search,
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

/* Tiers of an identifier query: a definition under the exact name beats one under another
 * case, which beats a prototype or declaration; a matching container adds one. */
static guint
symbol_tier (const LodeQueryPlan *plan,
             const LodeSymbolRow *symbol)
{
  guint tier;

  if (is_declaration_kind (symbol->kind, symbol->signature))
    tier = 2;
  else if (strcmp (symbol->name, plan->name) == 0)
    tier = 6;
  else
    tier = 4;

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
      gpointer pos;

      if (g_hash_table_lookup_extended (index, GSIZE_TO_POINTER ((gsize) symbol->chunk_id),
                                        NULL, &pos))
        {
          Candidate *c = &g_array_index (candidates, Candidate, GPOINTER_TO_UINT (pos));

          c->tier = MAX (c->tier, tier);
          continue;
        }

      {
        Candidate c = { 0 };

        c.chunk_id = symbol->chunk_id;
        c.tier = tier;
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
 * question about tests (see asks_about_tests) does not hold tests back. For an identifier
 * it orders the chunks of one tier only: a definition in a test still comes before a use in
 * the code, but after a definition of the same name in the code. Path queries are not
 * affected (a test *is* the answer when it is named). */
static double
secondary_factor (const Search       *search,
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
static gboolean
asks_about_tests (const LodeQueryPlan *plan)
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

/* The tokens of a file's name without its extension, split as the tokenizer splits code
 * (`zstd_compress.c` → zstd_compress, zstd, compress), each once. */
static char **
name_tokens (const char *path)
{
  const char *base = strrchr (path, '/');
  g_autofree char *stem = g_strdup (base != NULL ? base + 1 : path);
  char *dot = stem[0] != '\0' ? strchr (stem + 1, '.') : NULL;
  g_auto(GStrv) tokens = NULL;
  GPtrArray *unique = g_ptr_array_new ();

  if (dot != NULL)
    *dot = '\0';
  tokens = lode_code_tokenize_to_strv (stem, LODE_TOKENIZE_SPLIT);
  for (guint i = 0; tokens[i] != NULL; i++)
    if (!g_ptr_array_find_with_equal_func (unique, tokens[i], g_str_equal, NULL))
      g_ptr_array_add (unique, g_strdup (tokens[i]));
  g_ptr_array_add (unique, NULL);

  return (char **) g_ptr_array_free (unique, FALSE);
}

/* Reads every file of the index once per version of it: their paths (also in lower case,
 * for path queries) and how many files' names hold each token (a token few names hold says
 * which file a question means). */
static gboolean
ensure_files (const Search  *search,
              GError       **error)
{
  LodeSearcher *self = search->searcher;
  gint64 version = lode_search_backend_get_version (search->backend);
  g_autoptr(GPtrArray) rows = NULL;
  GString *lower;

  if (self->files != NULL && self->files_version == version)
    return TRUE;

  rows = lode_search_backend_find_paths (search->backend, "", NULL, error);
  if (rows == NULL)
    return FALSE;

  clear_path_tokens (self);
  g_clear_pointer (&self->files, g_ptr_array_unref);
  g_clear_pointer (&self->lower_paths, g_free);
  g_clear_pointer (&self->lower_offsets, g_free);
  g_clear_pointer (&self->name_counts, g_hash_table_unref);
  lower = g_string_new (NULL);
  self->lower_offsets = g_new (guint, rows->len + 1);
  self->name_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  for (guint i = 0; i < rows->len; i++)
    {
      const LodePathRow *row = g_ptr_array_index (rows, i);
      g_auto(GStrv) tokens = name_tokens (row->path);
      g_autofree char *lower_path = g_ascii_strdown (row->path, -1);

      self->lower_offsets[i] = lower->len;
      g_string_append_len (lower, lower_path, strlen (lower_path) + 1);
      for (guint j = 0; tokens[j] != NULL; j++)
        {
          guint n = GPOINTER_TO_UINT (g_hash_table_lookup (self->name_counts, tokens[j]));

          g_hash_table_insert (self->name_counts, g_strdup (tokens[j]), GUINT_TO_POINTER (n + 1));
        }
    }
  self->lower_offsets[rows->len] = lower->len;
  self->lower_paths = g_string_free (lower, FALSE);
  self->files = g_steal_pointer (&rows);
  self->files_version = version;

  return TRUE;
}

/* The first file from @from on whose lower-case path holds @needle (not empty), or the
 * number of files. One memmem() over all the paths: a match cannot span two of them, since
 * @needle holds no NUL. */
static guint
next_path_holding (LodeSearcher *self,
                   guint         from,
                   const char   *needle,
                   gsize         needle_len)
{
  const char *start;
  const char *end = self->lower_paths + self->lower_offsets[self->files->len];
  const char *hit;
  guint lo, hi;

  if (from >= self->files->len)
    return self->files->len;
  start = self->lower_paths + self->lower_offsets[from];
  hit = memmem (start, end - start, needle, needle_len);
  if (hit == NULL)
    return self->files->len;

  /* The path that holds the hit: offsets[lo] <= hit < offsets[hi]. */
  lo = from;
  hi = self->files->len;
  while (hi - lo > 1)
    {
      guint mid = lo + (hi - lo) / 2;

      if (self->lower_paths + self->lower_offsets[mid] <= hit)
        lo = mid;
      else
        hi = mid;
    }

  return lo;
}

/* The tokens of every path, as the index's tokenizer cuts them, for path queries that match
 * words; once per version of the index, after ensure_files(). */
static void
ensure_path_tokens (LodeSearcher *self)
{
  if (self->path_tokens != NULL)
    return;

  self->path_tokens = g_new0 (char **, self->files->len + 1);
  for (guint i = 0; i < self->files->len; i++)
    self->path_tokens[i] = lode_code_tokenize_to_strv (
      ((const LodePathRow *) g_ptr_array_index (self->files, i))->path, LODE_TOKENIZE_SPLIT);
}

/* A file whose name holds a word of the question is more likely the one meant, the more so
 * the fewer names hold that word: each such term adds its weight times log (N / n), N files
 * in the index, n of them with the word in their name. */
static double
name_evidence (const Search *search,
               const char   *path)
{
  LodeSearcher *self = search->searcher;
  g_auto(GStrv) tokens = name_tokens (path);
  double evidence = 0.0;

  for (guint i = 0; i < search->plan->lexical->groups->len; i++)
    {
      const LodeLexicalGroup *group = g_ptr_array_index (search->plan->lexical->groups, i);
      guint n;

      if (!g_strv_contains ((const char *const *) tokens, group->term))
        continue;
      n = GPOINTER_TO_UINT (g_hash_table_lookup (self->name_counts, group->term));
      evidence += group->weight * log ((self->files->len + 1.0) / MAX (n, 1));
    }

  return NAME_EVIDENCE_WEIGHT * evidence;
}

/* A question in words (an issue, a bug report) is usually answered by a file that matches it
 * in several places, not by the one chunk that repeats a single word most: each chunk gets
 * the relevance of the other chunks of its file in the pool, the best first, each next one
 * weighing FILE_EVIDENCE_DECAY times the one before, and its file's name evidence
 * (name_evidence, as secondary as its chunks). @candidates must be in relevance order. */
static void
add_file_evidence (const Search *search,
                   GArray       *candidates)
{
  g_autoptr(GHashTable) evidence = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                          NULL, g_free);

  /* acc[0]: the sum so far, acc[1]: the weight of the next chunk, acc[2]: the name's
   * evidence, acc[3]: the file's secondary factor; each computed once per file. */
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double *acc = g_hash_table_lookup (evidence, &c->row->file_id);

      if (acc == NULL)
        {
          acc = g_new0 (double, 4);
          acc[1] = 1.0;
          acc[3] = secondary_factor (search, c->row);
          acc[2] = acc[3] * name_evidence (search, c->row->path);
          g_hash_table_insert (evidence, &c->row->file_id, acc);
        }
      c->relevance *= acc[3];
      c->score = c->relevance;
    }
  g_array_sort (candidates, compare_candidates);

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double *acc = g_hash_table_lookup (evidence, &c->row->file_id);

      acc[0] += acc[1] * c->relevance;
      acc[1] *= FILE_EVIDENCE_DECAY;
    }

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double *acc = g_hash_table_lookup (evidence, &c->row->file_id);

      c->score += MAX (0.0, acc[0] - c->relevance) + acc[2];
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
static void
spread_files (GArray *candidates)
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
static void
apply_tiers (GArray *candidates)
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

/* The score users see, on one scale for every mode (docs/architecture.md, "Scores"): @x is
 * the candidate's strength in [0, 1); a definition of an identifier (tier > 0) lies in
 * [0.5, 1], above every other result, which lies in [0, 0.5). */
static double
scale_tier (guint  tier,
            double x)
{
  x = CLAMP (x, 0.0, 1.0);
  if (tier == 0)
    return 0.5 * x;

  return 0.5 + 0.5 * (MIN (tier, MAX_TIER) + x) / (MAX_TIER + 1);
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
 * fewer. Identifiers, pasted issues and error messages are not questions (LodeQueryPlan). */
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

/* The question's words widened by the lexicon (lode-search-expansion.c), as a second lexical
 * query: its BM25 relevance (its terms weigh less than the question's) adds to the chunks'. */
static gboolean
expansion_leg (Search      *search,
               guint        n_fetch,
               GArray      *candidates,
               GHashTable  *index,
               GError     **error)
{
  LodeLexicon *lexicon = lode_lexicon_get_default ();
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (LodeLexicalHit));
  g_autoptr(GError) local_error = NULL;
  double weight;

  if (lexicon == NULL)
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

  if (!lode_search_backend_lexical (search->backend, _lode_expansion_get_query (search->expansion),
                                    &search->filter, n_fetch, search->cancellable, hits, &weight,
                                    error))
    return FALSE;

  for (guint i = 0; i < hits->len; i++)
    {
      const LodeLexicalHit *hit = &g_array_index (hits, LodeLexicalHit, i);
      gpointer pos;
      Candidate c = { 0 };

      if (g_hash_table_lookup_extended (index, GSIZE_TO_POINTER ((gsize) hit->chunk_id), NULL,
                                        &pos))
        {
          g_array_index (candidates, Candidate, GPOINTER_TO_UINT (pos)).relevance +=
            MAX (0.0, hit->score);
          continue;
        }
      c.chunk_id = hit->chunk_id;
      c.relevance = MAX (0.0, hit->score);
      g_hash_table_insert (index, GSIZE_TO_POINTER ((gsize) c.chunk_id),
                           GUINT_TO_POINTER (candidates->len));
      g_array_append_val (candidates, c);
    }

  return TRUE;
}

/* The third leg, for a widened question: the LEXICON_CANDIDATES chunks whose lexicon vectors
 * (path and text) lie nearest to the question's, each adding LEXICON_WEIGHT × the query's
 * weight × its cosine to its relevance (a chunk no other leg found joins the pool). */
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
      double gain = search->lexicon_strength * LEXICON_WEIGHT * search->weight *
                    MAX (0.0, hit->score);
      gpointer pos;
      Candidate c = { 0 };

      if (g_hash_table_lookup_extended (index, GSIZE_TO_POINTER ((gsize) hit->id), NULL, &pos))
        {
          g_array_index (candidates, Candidate, GPOINTER_TO_UINT (pos)).relevance += gain;
          continue;
        }
      c.chunk_id = hit->id;
      c.relevance = gain;
      g_hash_table_insert (index, GSIZE_TO_POINTER ((gsize) c.chunk_id),
                           GUINT_TO_POINTER (candidates->len));
      g_array_append_val (candidates, c);
    }

  return TRUE;
}

/* Identifier and natural-language queries: BM25 from the backend, plus, for identifiers,
 * the chunks the symbols table names. Returns the candidates loaded, filtered and sorted by
 * their ranking score. */
static GArray *
rank_lexical (Search   *search,
              GError  **error)
{
  g_autoptr(GArray) candidates = candidates_new ();
  g_autoptr(GHashTable) index = g_hash_table_new (NULL, NULL);
  const LodeQueryPlan *plan = search->plan;
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

  if (plan->question && !expansion_leg (search, n_fetch, candidates, index, error))
    return NULL;

  if (search->expansion != NULL && !lexicon_leg (search, candidates, index, error))
    return NULL;

  if (!load_candidates (search, candidates, error))
    return NULL;

  if (plan->kind == LODE_QUERY_IDENTIFIER)
    for (guint i = 0; i < candidates->len; i++)
      {
        Candidate *c = &g_array_index (candidates, Candidate, i);

        c->relevance *= secondary_factor (search, c->row);
      }
  apply_tiers (candidates);
  if (plan->kind == LODE_QUERY_NATURAL && plan->lexical != NULL)
    {
      if (!ensure_files (search, error))
        return NULL;
      add_file_evidence (search, candidates);
      g_array_sort (candidates, compare_candidates);
      spread_files (candidates);
    }
  g_array_sort (candidates, compare_candidates);

  return g_steal_pointer (&candidates);
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
static GPtrArray *
make_results (Search   *search,
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

static GPtrArray *
search_lexical (Search   *search,
                GError  **error)
{
  g_autoptr(GArray) candidates = rank_lexical (search, error);

  if (candidates == NULL)
    return NULL;

  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);
      double strength = c->tier > 0 ? scale_lexical (search, c->relevance)
                                    : scale_lexical (search, c->score);

      c->score = scale_tier (c->tier, strength);
    }

  return make_results (search, candidates, error);
}

/* Path queries: paths that end with the query (best when it is a whole trailing component:
 * `lode-store.c` → src/liblode/lode-store.c) or contain it; then, if that is not enough,
 * files whose paths hold all of its words (`cli/main` → src/cli/lode-main.c would not,
 * src/cli/main.c would). Each file is represented by its first chunk. Scores: 1 for a whole
 * trailing component, 2/3 for a trailing part, 1/3 for a part elsewhere, each less up to a
 * sixth for long paths; below 1/3 for files that only hold the query's words. */
static GPtrArray *
search_paths (Search   *search,
              GError  **error)
{
  LodeSearcher *self = search->searcher;
  g_autoptr(GArray) candidates = candidates_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree char *query = NULL;
  const char *typed = search->plan->path;
  gsize query_len;
  guint n_files = 0;

  /* A leading "./" or "/" says nothing about the relative paths in the index. */
  while (typed[0] == '.' && typed[1] == '/')
    typed += 2;
  while (typed[0] == '/')
    typed++;
  query = g_ascii_strdown (typed, -1);
  query_len = strlen (query);

  /* The index's paths are in memory: a path query reads no row but its results'. */
  if (query_len > 0)
    {
      if (!ensure_files (search, error))
        return NULL;
      n_files = self->files->len;
    }

  for (guint i = n_files > 0 ? next_path_holding (self, 0, query, query_len) : 0;
       i < n_files;
       i = next_path_holding (self, i + 1, query, query_len))
    {
      const LodePathRow *p = g_ptr_array_index (self->files, i);
      const char *lower = self->lower_paths + self->lower_offsets[i];
      gsize path_len = self->lower_offsets[i + 1] - self->lower_offsets[i] - 1;
      double score;
      Candidate c = { 0 };

      if (p->first_chunk == 0 ||
          !lode_search_filter_accepts (&search->filter, p->language, p->path))
        continue;
      if (path_len >= query_len && strcmp (lower + path_len - query_len, query) == 0)
        score = (path_len == query_len || lower[path_len - query_len - 1] == '/') ? 3.0 : 2.0;
      else
        score = 1.0;

      c.chunk_id = p->first_chunk;
      /* Shorter paths first among equals: `main.c` over `t/helper/main.c`. */
      c.score = (score - MIN (path_len, 999) / 1000.0 * 0.5) / 3.0;
      g_array_append_val (candidates, c);
    }

  if (!load_candidates (search, candidates, error))
    return NULL;
  for (guint i = 0; i < candidates->len; i++)
    g_hash_table_add (seen, &g_array_index (candidates, Candidate, i).row->file_id);

  /* Files whose paths hold every word of the query (as the index's tokenizer cuts paths),
   * scored below 1/3, shorter paths first; a file's first chunk stands for it. */
  if (candidates->len < search->limit && search->plan->terms != NULL &&
      search->plan->terms[0] != NULL && query_len > 0)
    {
      g_autoptr(GArray) words = candidates_new ();
      const char *ascii = NULL;
      gsize ascii_len = 0;

      /* An ASCII token of a path is a part of its lower-case form: the paths that hold the
       * first ASCII word are the only ones whose tokens need comparing. */
      for (guint t = 0; ascii == NULL && search->plan->terms[t] != NULL; t++)
        if (search->plan->terms[t][0] != '\0' && g_str_is_ascii (search->plan->terms[t]))
          ascii = search->plan->terms[t];
      if (ascii != NULL)
        ascii_len = strlen (ascii);

      ensure_path_tokens (self);
      for (guint i = ascii != NULL ? next_path_holding (self, 0, ascii, ascii_len) : 0;
           i < n_files;
           i = ascii != NULL ? next_path_holding (self, i + 1, ascii, ascii_len) : i + 1)
        {
          const LodePathRow *p = g_ptr_array_index (self->files, i);
          gboolean all = TRUE;
          Candidate c = { 0 };

          if (p->first_chunk == 0 || g_hash_table_contains (seen, &p->file_id) ||
              !lode_search_filter_accepts (&search->filter, p->language, p->path))
            continue;
          for (guint t = 0; all && search->plan->terms[t] != NULL; t++)
            all = g_strv_contains ((const char *const *) self->path_tokens[i],
                                   search->plan->terms[t]);
          if (!all)
            continue;
          c.chunk_id = p->first_chunk;
          c.score = (1.0 - MIN (strlen (p->path), 999) / 1000.0 * 0.5) / 4.0;
          g_array_append_val (words, c);
        }
      g_array_sort (words, compare_scores);
      if (words->len > SEARCH_MAX_CANDIDATES)
        g_array_set_size (words, SEARCH_MAX_CANDIDATES);
      if (!load_candidates (search, words, error))
        return NULL;
      g_array_append_vals (candidates, words->data, words->len);
      /* The rows moved to candidates. */
      g_array_set_clear_func (words, NULL);
    }

  g_array_sort (candidates, compare_candidates);

  return make_results (search, candidates, error);
}

/* The dense leg ------------------------------------------------------------------------- */

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
static GArray *
dense_leg (LodeSearcher          *self,
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
static GPtrArray *
search_semantic (Search   *search,
                 GArray   *dense,
                 GError  **error)
{
  g_autoptr(GArray) candidates = candidates_new ();

  for (guint i = 0; i < dense->len; i++)
    {
      const LodeVectorHit *hit = &g_array_index (dense, LodeVectorHit, i);
      Candidate c = { 0 };

      c.chunk_id = hit->id;
      c.relevance = hit->score;
      c.score = hit->score;
      g_array_append_val (candidates, c);
    }
  if (!load_candidates (search, candidates, error))
    return NULL;
  g_array_sort (candidates, compare_candidates);
  for (guint i = 0; i < candidates->len; i++)
    {
      Candidate *c = &g_array_index (candidates, Candidate, i);

      c->score = CLAMP (c->score, 0.0, 1.0);
    }

  return make_results (search, candidates, error);
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
 * of an identifier first (its tiers), tests and prose at SECONDARY_FACTOR for questions in
 * words, and several files in the first results. On the score scale the fused relevance counts as a fraction of the best
 * possible, first in both legs. */
static GPtrArray *
search_fused (Search   *search,
              GArray   *dense,
              GError  **error)
{
  g_autoptr(GArray) lexical = NULL;
  g_autoptr(GArray) fused = candidates_new ();
  g_autoptr(GArray) dense_only = candidates_new ();
  g_autoptr(GHashTable) index = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = NULL;
  guint n_leg = dense_candidates (search);
  guint n_lexical;
  guint rank = 0;
  const double weight = dense_weight (dense, n_leg);
  const double best = (1.0 + weight) / (RRF_K + 1);

  lexical = rank_lexical (search, error);
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
  if (!load_candidates (search, dense_only, error))
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
        c->relevance *= secondary_factor (search, c->row);
    }
  apply_tiers (fused);
  g_array_sort (fused, compare_candidates);
  if (search->plan->kind == LODE_QUERY_NATURAL)
    {
      spread_files (fused);
      g_array_sort (fused, compare_candidates);
    }

  for (guint i = 0; i < fused->len; i++)
    {
      Candidate *c = &g_array_index (fused, Candidate, i);

      c->score = scale_tier (c->tier, (c->tier > 0 ? c->relevance : c->score) / best);
    }

  return make_results (search, fused, error);
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
  search.about_tests = asks_about_tests (plan);

  response = g_new0 (LodeSearchResponse, 1);
  response->requested_mode = options->mode;

  if (mode != LODE_SEARCH_MODE_LEXICAL)
    {
      if (query != NULL)
        dense = dense_leg (self, &search, query, response, &dense_error);
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
    response->results = search_semantic (&search, dense, error);
  else if (plan->kind == LODE_QUERY_PATH)
    response->results = search_paths (&search, error);
  else if (mode == LODE_SEARCH_MODE_HYBRID)
    response->results = search_fused (&search, dense, error);
  else
    response->results = search_lexical (&search, error);

  g_clear_pointer (&search.expansion, _lode_expansion_free);
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
