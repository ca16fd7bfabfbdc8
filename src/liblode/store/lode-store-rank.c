/* lode-store-rank.c — the store's lexical leg: MATCH expressions, BM25 ranking functions,
 * and what they keep between searches
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <math.h>
#include <stdlib.h>

#include "lode-error.h"
#include "lode-store-private.h"

/* Weights of the FTS columns: symbol, sig, path, body. A hit in a declaration's name says
 * far more than one in its body. See rank_func(). Called explicitly rather than configured
 * as the table's `rank`: FTS5 answers ORDER BY rank with a nested query, twice as slow. */
#define RANK_WEIGHTS "10.0, 4.0, 2.0, 1.0, ?9"

static const char sql_search[] =
  "SELECT rowid, lode_rank (chunks_fts, " RANK_WEIGHTS ") AS r FROM chunks_fts "
  "WHERE chunks_fts MATCH ?1 ORDER BY r LIMIT ?2";
static const char sql_search_filtered[] =
  "SELECT fts.rowid, lode_rank (fts.chunks_fts, " RANK_WEIGHTS ") AS r FROM chunks_fts fts "
  "JOIN chunks c ON c.id = fts.rowid JOIN files f ON f.id = c.file_id "
  "WHERE fts.chunks_fts MATCH ?1 "
  "AND (?3 IS NULL OR f.language = ?3 COLLATE NOCASE) "
  "AND (?4 IS NULL OR lode_glob (?4, f.path)) ORDER BY r LIMIT ?2";
static const char sql_search_any[] =
  "SELECT lode_rank_any (chunks_fts, " RANK_WEIGHTS ") FROM chunks_fts "
  "WHERE chunks_fts MATCH ?1 LIMIT 1";
static const char sql_rank_one[] =
  "SELECT lode_rank (chunks_fts, " RANK_WEIGHTS ") FROM chunks_fts "
  "WHERE chunks_fts MATCH ?1 AND rowid = ?2";

typedef struct _RankAny RankAny;

/* One connection's ranking state. */
struct _LodeStoreRank
{
  double      query_weight;   /* Σ IDF of the phrases of the last ranked query */
  RankAny    *rank_any;       /* (nullable): the term-at-a-time search under way */
  const gint64 *phrase_docs;  /* (nullable): the document frequency of each phrase of the
                               * query lode_rank() ranks, -1 where unknown */
  /* What searches learn about the index, kept until it changes (see caches_current()): */
  gint64      cache_version;
  gint64      cache_changes;
  GHashTable *doc_counts;     /* term → 1 + its document frequency, see doc_frequencies */
  guint       n_chunks;
  GHashTable *postings;       /* phrase → GArray of Posting, see rank_any_func() */
  guint       n_postings;     /* in all of them */
  gboolean    vocab_ready;    /* temp.lode_chunks_vocab exists on this connection */
  /* rank_any_func()'s scores by row (empty between searches) and the slots a search used:
   * kept, so that a search neither allocates nor grows tables of some megabytes (fresh
   * pages from the kernel each time) */
  struct _AccSlot *acc;
  guint      *acc_used;
  guint       acc_mask;
};

LodeStoreRank *
_lode_store_rank_new (void)
{
  return g_new0 (LodeStoreRank, 1);
}

void
_lode_store_rank_free (LodeStoreRank *rank)
{
  if (rank == NULL)
    return;

  g_clear_pointer (&rank->doc_counts, g_hash_table_unref);
  g_clear_pointer (&rank->postings, g_hash_table_unref);
  g_free (rank->acc);
  g_free (rank->acc_used);
  g_free (rank);
}

/* The ranking function of chunks_fts: BM25 (k1 = 1.2) with per-column weights given as arguments, and
 * without document-length normalisation (b = 0). FTS5's own bm25() reads the column sizes
 * of every matching row with one SQL look-up per row; that made a query for a common word
 * take 30 ms on git's source, against 5 ms without. Chunks are bounded in size by the
 * chunker, so their length says little anyway. */

#define BM25_K1 1.2

typedef struct
{
  int     n_phrases;
  double *idf;      /* each phrase's IDF times its weight */
} RankData;

static int
count_row_cb (const Fts5ExtensionApi *api,
              Fts5Context            *ctx,
              void                   *user_data)
{
  (*(sqlite3_int64 *) user_data)++;
  return SQLITE_OK;
}

static void
rank_data_free (void *data)
{
  RankData *rank = data;

  g_free (rank->idf);
  g_free (rank);
}

/* The next phrase's weight from the space-separated list at *@w (1 when missing or out of
 * range), moving *@w past it. */
static double
next_weight (const char **w)
{
  char *end = NULL;
  double weight;

  if (*w == NULL || **w == '\0')
    return 1.0;
  weight = g_ascii_strtod (*w, &end);
  *w = end;

  return weight > 0.0 && weight < 1000.0 ? weight : 1.0;
}

/* BM25's IDF of a phrase that @n_hits of @n_rows rows hold, as bm25() computes it. */
static double
phrase_idf (sqlite3_int64 n_rows,
            sqlite3_int64 n_hits)
{
  return MAX (1e-6, log ((n_rows - n_hits + 0.5) / (n_hits + 0.5)));
}

/* IDF of each phrase, computed once per query as bm25() does, times the phrase's weight:
 * @weights lists one number per phrase, space-separated (NULL: all 1). A phrase's document
 * frequency comes from @phrase_docs when known: counting it walks all of its rows, and the
 * parts of an identifier (`get`, `object`) are among the commonest words of a project. */
static RankData *
rank_data_new (const Fts5ExtensionApi *api,
               Fts5Context            *ctx,
               const char             *weights,
               const gint64           *phrase_docs)
{
  RankData *rank = g_new0 (RankData, 1);
  sqlite3_int64 n_rows = 0;
  const char *w = weights;

  rank->n_phrases = api->xPhraseCount (ctx);
  rank->idf = g_new0 (double, MAX (rank->n_phrases, 1));
  api->xRowCount (ctx, &n_rows);

  for (int i = 0; i < rank->n_phrases; i++)
    {
      sqlite3_int64 n_hits = 0;
      double weight = next_weight (&w);

      if (phrase_docs != NULL && phrase_docs[i] >= 0)
        n_hits = phrase_docs[i];
      else
        api->xQueryPhrase (ctx, i, &n_hits, count_row_cb);
      rank->idf[i] = weight * phrase_idf (n_rows, n_hits);
    }

  return rank;
}

static void
rank_func (const Fts5ExtensionApi  *api,
           Fts5Context             *ctx,
           sqlite3_context         *result,
           int                      n_args,
           sqlite3_value          **args)
{
  RankData *rank = api->xGetAuxdata (ctx, 0);
  int n_columns = api->xColumnCount (ctx);
  double weights[4];
  double score = 0.0;
  int rc;

  if (rank == NULL)
    {
      LodeStoreRank *store = ((LodeStore *) api->xUserData (ctx))->rank;

      rank = rank_data_new (api, ctx,
                            n_args > 4 ? (const char *) sqlite3_value_text (args[4]) : NULL,
                            store->phrase_docs);
      store->query_weight = 0.0;
      for (int i = 0; i < rank->n_phrases; i++)
        store->query_weight += rank->idf[i];
      rc = api->xSetAuxdata (ctx, rank, rank_data_free);
      if (rc != SQLITE_OK)
        {
          sqlite3_result_error_code (result, rc);
          return;
        }
    }

  if (n_columns > 4)
    n_columns = 4;
  for (int c = 0; c < n_columns; c++)
    weights[c] = c < n_args ? sqlite3_value_double (args[c]) : 1.0;

  /* Each phrase's own instances, not xInstCount()'s array of all of them: FTS5 builds that
   * array by finding, for every instance, the lowest position among all phrases, which costs
   * instances × phrases — seconds for a pasted issue of three hundred words. */
  for (int p = 0; p < rank->n_phrases; p++)
    {
      Fts5PhraseIter iter;
      double tf[4] = { 0.0 };
      int column, offset;

      rc = api->xPhraseFirst (ctx, p, &iter, &column, &offset);
      if (rc != SQLITE_OK)
        {
          sqlite3_result_error_code (result, rc);
          return;
        }
      for (; column >= 0; api->xPhraseNext (ctx, &iter, &column, &offset))
        if (column < n_columns)
          tf[column] += 1.0;

      for (int c = 0; c < n_columns; c++)
        if (tf[c] > 0.0)
          score += weights[c] * rank->idf[p] * tf[c] * (BM25_K1 + 1.0) / (tf[c] + BM25_K1);
    }

  /* Like bm25(): lower is better, so that ascending order puts the best first. */
  sqlite3_result_double (result, -score);
}

/* Drops what searches learnt about the index (document frequencies, postings) when it has
 * changed since: another connection committed (the data version), or this one wrote (its
 * change count). */
static void
caches_current (LodeStore *store)
{
  LodeStoreRank *self = store->rank;
  gint64 version = _lode_store_get_data_version (store);
  gint64 changes = sqlite3_total_changes64 (store->db);

  if (version == self->cache_version && changes == self->cache_changes)
    return;

  self->cache_version = version;
  self->cache_changes = changes;
  if (self->doc_counts != NULL)
    g_hash_table_remove_all (self->doc_counts);
  self->n_chunks = 0;
  if (self->postings != NULL)
    g_hash_table_remove_all (self->postings);
  self->n_postings = 0;
}

/* Term-at-a-time ranking of a query that matches any of its phrases (words, a pasted issue).
 * Row-at-a-time ranking (lode_rank() under ORDER BY) visits every row that holds any phrase
 * and looks up every phrase in it: rows × phrases, a second of processor time for an issue of
 * three hundred words on git's source. Here lode_rank_any() runs once, on the first row, and
 * reads each phrase's own rows through xQueryPhrase(): the cost is the sum of the phrases'
 * document frequencies, and each row's score adds up in a hash table. Same BM25 as
 * rank_func(), same scores. */

typedef struct _AccSlot
{
  gint64 id;      /* 0: empty slot */
  double score;
} AccSlot;

typedef struct
{
  gint64 id;
  double partial;  /* Σ over columns of weight × saturated tf; times the IDF later */
} Posting;

struct _RankAny
{
  LodeStoreRank *store;
  GPtrArray     *phrases;       /* the MATCH expression's phrases in order, as cache keys */
  GCancellable  *cancellable;
  const gint64  *allowed;       /* (nullable): sorted ids a hit must be among */
  guint          n_allowed;
  guint          limit;
  GArray        *hits;          /* out: LodeLexicalHit, best first */
  double         weight;        /* out: Σ IDF × weight of the phrases */
  int            rc;            /* out: an error the ranking met */
  gboolean       done;
  /* While reading one phrase: */
  double         col_weights[4];
  int            n_columns;
  GArray        *postings;
  guint          n_seen;
};

static inline guint
acc_hash (gint64 id)
{
  guint64 x = (guint64) id * G_GUINT64_CONSTANT (0x9E3779B97F4A7C15);

  return (guint) (x >> 32);
}

/* Adds @score to row @id's in @store's table, which has room (see rank_any_func()). */
static inline void
acc_add (LodeStoreRank *store,
         guint         *n_used,
         gint64         id,
         double         score)
{
  AccSlot *table = store->acc;
  guint i;

  for (i = acc_hash (id) & store->acc_mask; table[i].id != 0; i = (i + 1) & store->acc_mask)
    if (table[i].id == id)
      {
        table[i].score += score;
        return;
      }

  table[i].id = id;
  table[i].score = score;
  store->acc_used[(*n_used)++] = i;
}

static int
posting_cb (const Fts5ExtensionApi *api,
            Fts5Context            *ctx,
            void                   *user_data)
{
  RankAny *rank = user_data;
  Fts5PhraseIter iter;
  double tf[4] = { 0.0 };
  Posting posting = { api->xRowid (ctx), 0.0 };
  int column, offset;
  int rc;

  if ((++rank->n_seen & 0xFFF) == 0 && g_cancellable_is_cancelled (rank->cancellable))
    return SQLITE_INTERRUPT;

  rc = api->xPhraseFirst (ctx, 0, &iter, &column, &offset);
  if (rc != SQLITE_OK)
    return rc;
  for (; column >= 0; api->xPhraseNext (ctx, &iter, &column, &offset))
    if (column < rank->n_columns)
      tf[column] += 1.0;

  for (int c = 0; c < rank->n_columns; c++)
    if (tf[c] > 0.0)
      posting.partial += rank->col_weights[c] * tf[c] * (BM25_K1 + 1.0) / (tf[c] + BM25_K1);
  g_array_append_val (rank->postings, posting);

  return SQLITE_OK;
}

static int
compare_id (gconstpointer a,
            gconstpointer b)
{
  gint64 x = *(const gint64 *) a;
  gint64 y = *(const gint64 *) b;

  return (x > y) - (x < y);
}

static int
compare_hits_desc (gconstpointer a,
                   gconstpointer b)
{
  const LodeLexicalHit *x = a;
  const LodeLexicalHit *y = b;

  if (x->score != y->score)
    return x->score > y->score ? -1 : 1;
  return (x->chunk_id > y->chunk_id) - (x->chunk_id < y->chunk_id);
}

/* Whether hit @a ranks below hit @b (lower score; on a tie, the higher id). */
static inline gboolean
hit_below (const LodeLexicalHit *a,
           const LodeLexicalHit *b)
{
  return a->score < b->score || (a->score == b->score && a->chunk_id > b->chunk_id);
}

/* Moves heap[i] down the min-heap of @n hits (the worst on top). */
static void
sift_down (LodeLexicalHit *heap,
           guint           n,
           guint           i)
{
  for (;;)
    {
      guint worst = i;
      guint l = 2 * i + 1;
      guint r = l + 1;
      LodeLexicalHit t;

      if (l < n && hit_below (&heap[l], &heap[worst]))
        worst = l;
      if (r < n && hit_below (&heap[r], &heap[worst]))
        worst = r;
      if (worst == i)
        return;
      t = heap[i];
      heap[i] = heap[worst];
      heap[worst] = t;
      i = worst;
    }
}

/* The best rank->limit rows of the table's @n_used, best first (ties: lower id first, as
 * FTS5's ORDER BY over rowid order gives them), through a heap of the best so far; empties
 * the table for the next search. */
static void
select_best (RankAny *rank,
             guint    n_used)
{
  AccSlot *table = rank->store->acc;
  guint limit = MAX (rank->limit, 1);
  g_autofree LodeLexicalHit *heap = g_new (LodeLexicalHit, limit);
  guint n = 0;

  for (guint u = 0; u < n_used; u++)
    {
      AccSlot *slot = &table[rank->store->acc_used[u]];
      LodeLexicalHit hit = { slot->id, slot->score };

      slot->id = 0;
      if (rank->allowed != NULL &&
          bsearch (&hit.chunk_id, rank->allowed, rank->n_allowed, sizeof (gint64),
                   compare_id) == NULL)
        continue;
      if (n < limit)
        {
          heap[n++] = hit;
          if (n == limit)
            for (guint j = limit / 2; j-- > 0;)
              sift_down (heap, n, j);
        }
      else if (hit_below (&heap[0], &hit))
        {
          heap[0] = hit;
          sift_down (heap, n, 0);
        }
    }

  qsort (heap, n, sizeof (LodeLexicalHit), compare_hits_desc);
  g_array_append_vals (rank->hits, heap, n);
}

/* A warm server meets the same common words in question after question, and walking their
 * rows through FTS5 is most of a search (a few thousand instructions a row): the rows of a
 * phrase of at least POSTINGS_CACHE_MIN rows are kept, up to POSTINGS_CACHE_MAX rows in all
 * (16 bytes each), until the index changes. Rare phrases are cheap to read again. */
#define POSTINGS_CACHE_MIN 256
#define POSTINGS_CACHE_MAX (1 << 19)

static const GArray *
lookup_postings (RankAny *rank,
                 int      phrase)
{
  LodeStoreRank *store = rank->store;

  if (store->postings == NULL || rank->phrases == NULL || (guint) phrase >= rank->phrases->len)
    return NULL;

  return g_hash_table_lookup (store->postings, g_ptr_array_index (rank->phrases, phrase));
}

static void
keep_postings (RankAny *rank,
               int      phrase)
{
  LodeStoreRank *store = rank->store;
  guint n = rank->postings->len;

  /* A query of one phrase (an identifier) is not kept: its rows are read once either way,
   * and would push out the common words that questions share. */
  if (rank->phrases == NULL || rank->phrases->len < 2 || (guint) phrase >= rank->phrases->len ||
      n < POSTINGS_CACHE_MIN || n > POSTINGS_CACHE_MAX)
    return;

  if (store->postings == NULL)
    store->postings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                             (GDestroyNotify) g_array_unref);
  if (store->n_postings + n > POSTINGS_CACHE_MAX)
    {
      g_hash_table_remove_all (store->postings);
      store->n_postings = 0;
    }
  g_hash_table_insert (store->postings, g_strdup (g_ptr_array_index (rank->phrases, phrase)),
                       g_array_ref (rank->postings));
  store->n_postings += n;
}

static void
rank_any_func (const Fts5ExtensionApi  *api,
               Fts5Context             *ctx,
               sqlite3_context         *result,
               int                      n_args,
               sqlite3_value          **args)
{
  RankAny *rank = ((LodeStore *) api->xUserData (ctx))->rank->rank_any;
  LodeStoreRank *store;
  const char *w = n_args > 4 ? (const char *) sqlite3_value_text (args[4]) : NULL;
  int n_phrases = api->xPhraseCount (ctx);
  sqlite3_int64 n_rows = 0;
  g_autoptr(GPtrArray) held = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autofree const GArray **lists = g_new0 (const GArray *, MAX (n_phrases, 1));
  guint64 n_postings = 0;
  guint n_used = 0;
  guint size;
  int rc;

  sqlite3_result_null (result);
  if (rank == NULL || rank->done)
    return;
  rank->done = TRUE;
  store = rank->store;

  rank->n_columns = MIN (api->xColumnCount (ctx), 4);
  for (int c = 0; c < rank->n_columns; c++)
    rank->col_weights[c] = c < n_args ? sqlite3_value_double (args[c]) : 1.0;

  /* Every phrase's rows first, so that the table is sized once for all of them. */
  rc = api->xRowCount (ctx, &n_rows);
  for (int p = 0; rc == SQLITE_OK && p < n_phrases; p++)
    {
      /* Held: keeping a later phrase's rows may empty the cache. */
      lists[p] = lookup_postings (rank, p);
      if (lists[p] != NULL)
        g_ptr_array_add (held, g_array_ref ((GArray *) lists[p]));
      else
        {
          rank->postings = g_array_new (FALSE, FALSE, sizeof (Posting));
          g_ptr_array_add (held, rank->postings);
          rc = api->xQueryPhrase (ctx, p, rank, posting_cb);
          if (rc != SQLITE_OK)
            break;
          lists[p] = rank->postings;
          keep_postings (rank, p);
        }
      n_postings += lists[p]->len;
    }
  rank->postings = NULL;

  if (rc != SQLITE_OK)
    {
      rank->rc = rc;
      return;
    }

  /* At most half full: no more rows than the table holds, nor than the phrases have. */
  size = 1024;
  while (size < 2 * MIN (n_postings, (guint64) MAX (n_rows, 0)) && size < (1u << 31))
    size *= 2;
  if (store->acc == NULL || store->acc_mask + 1 < size)
    {
      g_free (store->acc);
      g_free (store->acc_used);
      store->acc = g_new0 (AccSlot, size);
      store->acc_used = g_new (guint, size / 2);
      store->acc_mask = size - 1;
    }

  for (int p = 0; p < n_phrases; p++)
    {
      double idf = next_weight (&w) * phrase_idf (n_rows, lists[p]->len);
      const Posting *postings = (const Posting *) (gpointer) lists[p]->data;

      rank->weight += idf;
      for (guint i = 0; i < lists[p]->len; i++)
        acc_add (store, &n_used, postings[i].id, idf * postings[i].partial);
    }

  select_best (rank, n_used);
}

/* Registers lode_rank() and lode_rank_any() on @self's connection. */
gboolean
_lode_store_register_rank (LodeStore  *self,
                           GError    **error)
{
  fts5_api *api = _lode_store_get_fts5 (self->db, error);
  int rc;

  if (api == NULL)
    return FALSE;
  rc = api->xCreateFunction (api, "lode_rank", self, rank_func, NULL);
  if (rc == SQLITE_OK)
    rc = api->xCreateFunction (api, "lode_rank_any", self, rank_any_func, NULL);

  if (rc != SQLITE_OK)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Cannot register lode_rank(): %s",
                   sqlite3_errstr (rc));
      return FALSE;
    }

  return TRUE;
}

static gboolean rank_doc_frequencies (LodeSearchBackend  *backend,
                                      const char *const  *terms,
                                      guint               n_terms,
                                      guint              *counts,
                                      guint              *n_chunks,
                                      GError            **error);

/* Search candidates: the lexical leg's hits and statistics (LodeSearchBackend). */

static void
append_phrase (GString    *match,
               const char *token)
{
  g_string_append_c (match, '"');
  for (const char *p = token; *p != '\0'; p++)
    {
      if (*p == '"')
        g_string_append_c (match, '"');
      g_string_append_c (match, *p);
    }
  g_string_append_c (match, '"');
}

static void
append_weight (GString *weights,
               double   weight)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (weights->len > 0)
    g_string_append_c (weights, ' ');
  g_string_append (weights, g_ascii_dtostr (buf, sizeof buf, weight));
}

/* One phrase of build_match(): in @match, and (if @phrases is given) as the key of its rows,
 * which depend on the column filter too. */
static void
add_phrase (GString                 *match,
            GPtrArray               *phrases,
            const LodeLexicalQuery  *query,
            const char              *token)
{
  append_phrase (match, token);
  if (phrases != NULL)
    g_ptr_array_add (phrases, g_strconcat (query->path_only ? "{path} " : "", token, NULL));
}

/* The FTS5 MATCH expression of @query and the weight of each of its phrases, in order, for
 * lode_rank(); @phrases, if given, gets each phrase's key (see lookup_postings()). Every term
 * is quoted, so no user text ever reaches the FTS5 query parser: a group is "term", or
 * ("term" OR ("part" AND "part" …)). */
static char *
build_match (const LodeLexicalQuery  *query,
             char                   **weights_out,
             GPtrArray               *phrases)
{
  GString *match = g_string_new (query->path_only ? "{path} : (" : NULL);
  GString *weights = g_string_new (NULL);

  for (guint i = 0; i < query->groups->len; i++)
    {
      const LodeLexicalGroup *group = g_ptr_array_index (query->groups, i);

      if (i > 0)
        g_string_append (match, query->require_all ? " AND " : " OR ");
      append_weight (weights, group->weight);
      if (group->parts == NULL || query->whole_only)
        {
          add_phrase (match, phrases, query, group->term);
          continue;
        }

      g_string_append_c (match, '(');
      add_phrase (match, phrases, query, group->term);
      g_string_append (match, " OR (");
      for (guint j = 0; group->parts[j] != NULL; j++)
        {
          if (j > 0)
            g_string_append (match, " AND ");
          add_phrase (match, phrases, query, group->parts[j]);
          append_weight (weights, group->weight);
        }
      g_string_append (match, "))");
    }
  if (query->path_only)
    g_string_append_c (match, ')');

  *weights_out = g_string_free (weights, FALSE);
  return g_string_free (match, FALSE);
}

/* A query that matches any of its phrases, ranked term at a time (see rank_any_func()). */
static gboolean
lexical_any (LodeStore               *self,
             const char              *match,
             const char              *weights,
             GPtrArray               *phrases,
             const LodeSearchFilter  *filter,
             guint                    limit,
             GCancellable            *cancellable,
             GArray                  *hits,
             double                  *weight,
             GError                 **error)
{
  g_autoptr(GArray) allowed = NULL;
  RankAny rank = { 0 };
  sqlite3_stmt *s;
  int rc;

  if (filter != NULL && (filter->language != NULL || filter->path_glob != NULL))
    {
      allowed = _lode_store_dup_chunk_ids (self, filter->language, filter->path_glob, error);
      if (allowed == NULL)
        return FALSE;
      rank.allowed = (const gint64 *) allowed->data;
      rank.n_allowed = allowed->len;
    }

  caches_current (self);
  rank.store = self->rank;
  rank.phrases = phrases;
  rank.cancellable = cancellable;
  rank.limit = limit;
  rank.hits = hits;
  rank.rc = SQLITE_OK;

  s = _lode_store_statement (self, sql_search_any, error);
  if (s == NULL)
    return FALSE;
  bind_text (s, 1, match);
  bind_text (s, 9, weights);
  rank.store->rank_any = &rank;
  _lode_store_set_cancellable (self, cancellable, FALSE);
  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    ;
  sqlite3_reset (s);
  rank.store->rank_any = NULL;

  if (rc == SQLITE_DONE && rank.rc != SQLITE_OK)
    rc = rank.rc;
  if (rc != SQLITE_DONE)
    _lode_store_set_error (self, rc, error, "Search failed");
  _lode_store_set_cancellable (self, NULL, FALSE);

  *weight = rank.weight;
  return rc == SQLITE_DONE;
}

/* The document frequency of each phrase of @phrases (see build_match()) that is a word of
 * any column, from the vocabulary and kept per connection (see doc_frequencies); -1 for a
 * phrase of the path column, which lode_rank() counts itself. */
static gint64 *
phrase_doc_counts (LodeStore  *self,
                   GPtrArray  *phrases,
                   GError    **error)
{
  g_autofree gint64 *docs = g_new (gint64, MAX (phrases->len, 1));
  g_autoptr(GPtrArray) words = g_ptr_array_new ();
  g_autofree guint *counts = NULL;
  guint n_chunks = 0;
  guint j = 0;

  for (guint i = 0; i < phrases->len; i++)
    {
      const char *key = g_ptr_array_index (phrases, i);

      docs[i] = key[0] == '{' ? -1 : 0;
      if (docs[i] == 0)
        g_ptr_array_add (words, (gpointer) key);
    }
  counts = g_new0 (guint, MAX (words->len, 1));
  if (words->len > 0 &&
      !rank_doc_frequencies ((LodeSearchBackend *) self, (const char *const *) words->pdata,
                             words->len, counts, &n_chunks, error))
    return NULL;
  for (guint i = 0; i < phrases->len; i++)
    if (docs[i] == 0)
      docs[i] = counts[j++];

  return g_steal_pointer (&docs);
}

static gboolean
rank_lexical (LodeSearchBackend       *backend,
              const LodeLexicalQuery  *query,
              const LodeSearchFilter  *filter,
              guint                    limit,
              GCancellable            *cancellable,
              GArray                  *hits,
              double                  *weight,
              GError                 **error)
{
  LodeStore *self = (LodeStore *) backend;
  LodeStoreRank *rank = self->rank;
  gboolean filtered = filter != NULL && (filter->language != NULL || filter->path_glob != NULL);
  g_autofree char *weights = NULL;
  g_autoptr(GPtrArray) phrases = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *match = build_match (query, &weights, phrases);
  g_autofree gint64 *phrase_docs = NULL;
  sqlite3_stmt *s;
  int rc;

  /* One phrase (an identifier's whole name) is a query of any of its phrases too: ranked
   * term at a time, its rows are read once, where lode_rank() reads them to count them and
   * again to rank them. */
  if (!query->require_all || phrases->len == 1)
    return lexical_any (self, match, weights, phrases, filter, limit, cancellable, hits, weight,
                        error);

  phrase_docs = phrase_doc_counts (self, phrases, error);
  if (phrase_docs == NULL)
    return FALSE;
  s = _lode_store_statement (self, filtered ? sql_search_filtered : sql_search, error);
  if (s == NULL)
    return FALSE;

  rank->query_weight = 0.0;
  rank->phrase_docs = phrase_docs;
  _lode_store_set_cancellable (self, cancellable, TRUE);

  bind_text (s, 1, match);
  sqlite3_bind_int (s, 2, limit);
  bind_text (s, 9, weights);
  if (filtered)
    {
      bind_text (s, 3, filter->language);
      bind_text (s, 4, filter->path_glob);
    }

  while ((rc = sqlite3_step (s)) == SQLITE_ROW)
    {
      LodeLexicalHit hit = { sqlite3_column_int64 (s, 0), -sqlite3_column_double (s, 1) };

      g_array_append_val (hits, hit);
    }
  sqlite3_reset (s);
  rank->phrase_docs = NULL;

  _lode_store_set_cancellable (self, NULL, TRUE);
  if (rc != SQLITE_DONE)
    _lode_store_set_error (self, rc, error, "Search failed");

  *weight = rank->query_weight;
  return rc == SQLITE_DONE;
}

static gboolean
rank_score_lexical (LodeSearchBackend       *backend,
                    const LodeLexicalQuery  *query,
                    const gint64            *chunk_ids,
                    guint                    n_chunks,
                    double                  *scores,
                    GError                 **error)
{
  LodeStore *self = (LodeStore *) backend;
  g_autofree char *weights = NULL;
  g_autofree char *match = build_match (query, &weights, NULL);

  for (guint i = 0; i < n_chunks; i++)
    {
      sqlite3_stmt *s = _lode_store_statement (self, sql_rank_one, error);
      int rc;

      if (s == NULL)
        return FALSE;
      bind_text (s, 1, match);
      bind_text (s, 9, weights);
      sqlite3_bind_int64 (s, 2, chunk_ids[i]);
      rc = sqlite3_step (s);
      scores[i] = rc == SQLITE_ROW ? MAX (0.0, -sqlite3_column_double (s, 0)) : 0.0;
      sqlite3_reset (s);

      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return _lode_store_set_error (self, rc, error, "Search failed");
    }

  return TRUE;
}

/* Document frequencies from FTS5's own index (an fts5vocab table of this connection). A
 * look-up walks the term's list of rows, so the counts are kept until the index changes
 * (another connection committed: the data version; this one wrote: its change count): the
 * common words, the dear ones, come back in every issue. */
#define DOC_COUNTS_MAX 65536

static const char sql_count_chunks[] = "SELECT count(*) FROM chunks";
static const char sql_vocab_create[] =
  "CREATE VIRTUAL TABLE IF NOT EXISTS temp.lode_chunks_vocab "
  "USING fts5vocab (main, chunks_fts, row)";
static const char sql_vocab_doc[] = "SELECT doc FROM temp.lode_chunks_vocab WHERE term = ?1";

static gboolean
rank_doc_frequencies (LodeSearchBackend  *backend,
                      const char *const  *terms,
                      guint               n_terms,
                      guint              *counts,
                      guint              *n_chunks,
                      GError            **error)
{
  LodeStore *store = (LodeStore *) backend;
  LodeStoreRank *self = store->rank;
  sqlite3_stmt *s;
  int rc;

  if (!self->vocab_ready)
    {
      rc = sqlite3_exec (store->db, sql_vocab_create, NULL, NULL, NULL);
      if (rc != SQLITE_OK)
        return _lode_store_set_error (store, rc, error, "Cannot read the index's vocabulary");
      self->vocab_ready = TRUE;
    }

  caches_current (store);
  if (self->doc_counts == NULL)
    self->doc_counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  if (g_hash_table_size (self->doc_counts) > DOC_COUNTS_MAX || self->n_chunks == 0)
    {
      g_hash_table_remove_all (self->doc_counts);
      s = _lode_store_statement (store, sql_count_chunks, error);
      if (s == NULL)
        return FALSE;
      rc = sqlite3_step (s);
      self->n_chunks = rc == SQLITE_ROW ? (guint) sqlite3_column_int64 (s, 0) : 0;
      sqlite3_reset (s);
      if (rc != SQLITE_ROW)
        return _lode_store_set_error (store, rc, error, "Cannot count chunks");
    }
  *n_chunks = self->n_chunks;

  for (guint i = 0; i < n_terms; i++)
    {
      guint cached = GPOINTER_TO_UINT (g_hash_table_lookup (self->doc_counts, terms[i]));

      if (cached > 0)
        {
          counts[i] = cached - 1;
          continue;
        }
      s = _lode_store_statement (store, sql_vocab_doc, error);
      if (s == NULL)
        return FALSE;
      bind_text (s, 1, terms[i]);
      rc = sqlite3_step (s);
      counts[i] = rc == SQLITE_ROW ? (guint) sqlite3_column_int64 (s, 0) : 0;
      sqlite3_reset (s);
      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        return _lode_store_set_error (store, rc, error, "Cannot read the index's vocabulary");
      g_hash_table_insert (self->doc_counts, g_strdup (terms[i]),
                           GUINT_TO_POINTER (counts[i] + 1));
    }

  return TRUE;
}

void
_lode_store_rank_init (LodeSearchBackendInterface *iface)
{
  iface->lexical = rank_lexical;
  iface->score_lexical = rank_score_lexical;
  iface->doc_frequencies = rank_doc_frequencies;
}
