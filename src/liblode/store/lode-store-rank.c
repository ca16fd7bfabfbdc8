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
#include <string.h>

#include "lode-code-tokenizer.h"
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
  GHashTable *postings;       /* phrase → KeptRows, see keep_postings() */
  guint       n_postings;     /* rows in all of them */
  guint64     n_searches;     /* by rank_any_func(), for KeptRows.used */
  gboolean    vocab_ready;    /* temp.lode_chunks_vocab exists on this connection */
  /* rank_any_func()'s buffers, kept so that a search neither allocates nor grows arrays of
   * some megabytes (fresh pages from the kernel each time): the rows of the phrases it read
   * (see rank_any_func()) and its window of scores (see score_phrases()) */
  GArray     *scratch;
  double     *window;
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
  g_clear_pointer (&rank->scratch, g_array_unref);
  g_free (rank->window);
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

/* Ranking of a query that matches any of its phrases (words, a pasted issue), term at a time.
 * Row-at-a-time ranking (lode_rank() under ORDER BY) visits every row that holds any phrase
 * and looks up every phrase in it: rows × phrases, a second of processor time for an issue of
 * three hundred words on git's source. Here lode_rank_any() runs once, on the first row, and
 * reads each phrase's own rows through xQueryPhrase() (by rising rowid), then walks them all
 * together, a window of rows at a time (see score_phrases()): the cost is at most the sum of
 * the phrases' document frequencies. Same BM25 as rank_func(), same scores. */

typedef struct
{
  gint64 id;
  double partial;  /* Σ over columns of weight × saturated tf; times the IDF later */
} Posting;

/* One phrase's rows while a search ranks them. */
typedef struct
{
  const Posting *rows;    /* by rising id */
  guint          len;
  double         idf;     /* the phrase's IDF × its weight */
  double         bound;   /* the most it adds to a row's score: idf × its highest partial */
  gboolean       walked;  /* added window by window; else only looked up (see score_phrases()) */
  guint          next;    /* the first row not added yet */
  guint          seek;    /* the first row not below the last one looked up */
} PhraseRows;

/* Rows of ids scored together: their scores fit a processor's second-level cache. */
#define WINDOW_ROWS 4096

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
  guint          n_seen;
  /* The best rows so far, a min-heap (the worst on top) of up to limit: */
  LodeLexicalHit *heap;
  guint          n_heap;
};

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
  g_array_append_val (rank->store->scratch, posting);

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

/* Offers @hit to the best rank->limit rows; returns whether they are that many. */
static gboolean
offer_hit (RankAny              *rank,
           const LodeLexicalHit *hit)
{
  guint limit = MAX (rank->limit, 1);

  if (rank->allowed != NULL &&
      bsearch (&hit->chunk_id, rank->allowed, rank->n_allowed, sizeof (gint64),
               compare_id) == NULL)
    return rank->n_heap == limit;
  if (rank->n_heap < limit)
    {
      rank->heap[rank->n_heap++] = *hit;
      if (rank->n_heap == limit)
        for (guint j = limit / 2; j-- > 0;)
          sift_down (rank->heap, limit, j);
    }
  else if (hit_below (&rank->heap[0], hit))
    {
      rank->heap[0] = *hit;
      sift_down (rank->heap, limit, 0);
    }

  return rank->n_heap == limit;
}

/* The first of @phrase's rows from its seek on whose id is at least @id (a galloping
 * search: the ids looked up rise). */
static guint
seek_row (PhraseRows *phrase,
          gint64      id)
{
  guint lo = phrase->seek;
  guint hi;
  guint step = 1;

  if (lo >= phrase->len || phrase->rows[lo].id >= id)
    return lo;
  /* rows[lo] is below @id: find a row at or past it, then the first one between. */
  hi = lo + 1;
  while (hi < phrase->len && phrase->rows[hi].id < id)
    {
      lo = hi;
      step *= 2;
      hi = lo + step;
    }
  hi = MIN (hi, phrase->len);
  while (lo + 1 < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (phrase->rows[mid].id < id)
        lo = mid;
      else
        hi = mid;
    }
  phrase->seek = hi;

  return hi;
}

/* Row @id's score: its phrases' parts added in the phrases' order, as every row's. */
static double
row_score (PhraseRows *phrases,
           guint       n_phrases,
           gint64      id)
{
  double score = 0.0;
  gboolean found = FALSE;

  for (guint p = 0; p < n_phrases; p++)
    {
      guint i = seek_row (&phrases[p], id);

      if (i < phrases[p].len && phrases[p].rows[i].id == id)
        {
          double part = phrases[p].idf * phrases[p].rows[i].partial;

          score = found ? score + part : part;
          found = TRUE;
        }
    }

  return score;
}

/* Slack on the bounds' sums, which add up in another order than the scores do. */
#define BOUND_SLACK (1.0 + 1e-9)

/* The row of @hit, whose score is the window's (the phrases walked), in the phrases only
 * looked up (order[0 .. n_lookup - 1], by rising bound; lookup_bound[i], the sum of the
 * bounds of the first i): %FALSE as soon as its score, with the bounds of those not looked
 * at yet, cannot pass @threshold. Else its score, added up again phrase by phrase if it is in
 * any of them (the window's is the same sum when it is in none). */
static gboolean
look_up_row (PhraseRows     *phrases,
             guint           n_phrases,
             const guint    *order,
             const double   *lookup_bound,
             guint           n_lookup,
             double          threshold,
             LodeLexicalHit *hit)
{
  double found = 0.0;
  gboolean in_any = FALSE;

  for (guint i = n_lookup; i-- > 0;)
    {
      PhraseRows *phrase = &phrases[order[i]];
      guint at;

      if ((hit->score + found + lookup_bound[i + 1]) * BOUND_SLACK < threshold)
        return FALSE;
      at = seek_row (phrase, hit->chunk_id);
      if (at < phrase->len && phrase->rows[at].id == hit->chunk_id)
        {
          found += phrase->idf * phrase->rows[at].partial;
          in_any = TRUE;
        }
    }
  if ((hit->score + found) * BOUND_SLACK < threshold)
    return FALSE;
  if (in_any)
    hit->score = row_score (phrases, n_phrases, hit->chunk_id);

  return TRUE;
}

/* The best rank->limit rows of all the phrases' rows, into the heap. The rows of each window
 * of WINDOW_ROWS ids have their scores added up in a table of that size, the phrases in
 * order. Once the heap is full, its worst score is a threshold that a row must pass
 * (MaxScore): the phrases whose bounds add up to less than it — the commonest words — can no
 * longer bring in a row alone, so they are no longer walked; a row that the others found is
 * looked up in them only when its score with their bounds could pass. The windows go by
 * rising ids, so a row that ties with the worst kept one ranks below it (see hit_below()). */
static void
score_phrases (RankAny    *rank,
               PhraseRows *phrases,
               guint       n_phrases)
{
  LodeStoreRank *store = rank->store;
  g_autofree guint *order = g_new (guint, MAX (n_phrases, 1));
  g_autofree double *lookup_bound = g_new (double, n_phrases + 1);
  guint n_lookup = 0;   /* phrases order[0 .. n_lookup - 1] are looked up only */
  double threshold = 0.0;

  /* By rising bound, and the sum of the bounds of the first i in lookup_bound[i]. */
  for (guint p = 0; p < n_phrases; p++)
    {
      guint j = p;

      for (; j > 0 && phrases[order[j - 1]].bound > phrases[p].bound; j--)
        order[j] = order[j - 1];
      order[j] = p;
      phrases[p].walked = TRUE;
    }
  lookup_bound[0] = 0.0;
  for (guint i = 0; i < n_phrases; i++)
    lookup_bound[i + 1] = lookup_bound[i] + phrases[order[i]].bound;

  if (store->window == NULL)
    store->window = g_new (double, WINDOW_ROWS);

  for (;;)
    {
      guint64 scored[WINDOW_ROWS / 64] = { 0 };   /* the window's rows with a score */
      gint64 base = G_MAXINT64;

      for (guint p = 0; p < n_phrases; p++)
        if (phrases[p].walked && phrases[p].next < phrases[p].len)
          base = MIN (base, phrases[p].rows[phrases[p].next].id);
      if (base == G_MAXINT64)
        break;

      for (guint p = 0; p < n_phrases; p++)
        {
          PhraseRows *phrase = &phrases[p];

          if (!phrase->walked)
            continue;
          for (; phrase->next < phrase->len && phrase->rows[phrase->next].id - base < WINDOW_ROWS;
               phrase->next++)
            {
              guint slot = phrase->rows[phrase->next].id - base;
              double part = phrase->idf * phrase->rows[phrase->next].partial;

              if (scored[slot / 64] & (G_GUINT64_CONSTANT (1) << (slot % 64)))
                store->window[slot] += part;
              else
                {
                  scored[slot / 64] |= G_GUINT64_CONSTANT (1) << (slot % 64);
                  store->window[slot] = part;
                }
            }
        }

      for (guint word = 0; word < WINDOW_ROWS / 64; word++)
        for (guint64 bits = scored[word]; bits != 0; bits &= bits - 1)
          {
            guint slot = word * 64 + (guint) __builtin_ctzll (bits);
            LodeLexicalHit hit = { base + slot, store->window[slot] };

            if (n_lookup > 0 && !look_up_row (phrases, n_phrases, order, lookup_bound, n_lookup,
                                              threshold, &hit))
              continue;
            if (!offer_hit (rank, &hit))
              continue;
            threshold = rank->heap[0].score;
            while (n_lookup < n_phrases && lookup_bound[n_lookup + 1] * BOUND_SLACK < threshold)
              phrases[order[n_lookup++]].walked = FALSE;
          }
    }
}

/* A warm server meets the same common words in question after question, and walking their
 * rows through FTS5 is most of a search (a few thousand instructions a row): the rows of a
 * phrase of at least POSTINGS_CACHE_MIN rows are kept until the index changes, up to
 * POSTINGS_CACHE_ROWS times the index's rows in all (16 bytes each; at least
 * POSTINGS_CACHE_FLOOR), the phrases read longest ago leaving first. Rare phrases are cheap to
 * read again. */
#define POSTINGS_CACHE_MIN   256
#define POSTINGS_CACHE_ROWS  8
#define POSTINGS_CACHE_FLOOR (1 << 19)

typedef struct
{
  const char *key;       /* the table's */
  GArray     *rows;      /* Posting, by rising id */
  double      highest;   /* their highest partial */
  guint64     used;      /* the search that last read them */
} KeptRows;

static void
kept_rows_free (gpointer data)
{
  KeptRows *kept = data;

  g_array_unref (kept->rows);
  g_free (kept);
}

static KeptRows *
lookup_postings (RankAny *rank,
                 int      phrase)
{
  LodeStoreRank *store = rank->store;
  KeptRows *kept;

  if (store->postings == NULL || rank->phrases == NULL || (guint) phrase >= rank->phrases->len)
    return NULL;
  kept = g_hash_table_lookup (store->postings, g_ptr_array_index (rank->phrases, phrase));
  if (kept != NULL)
    kept->used = store->n_searches;

  return kept;
}

static int
compare_kept_used (gconstpointer a,
                   gconstpointer b)
{
  const KeptRows *x = *(KeptRows *const *) a;
  const KeptRows *y = *(KeptRows *const *) b;

  return (x->used > y->used) - (x->used < y->used);
}

/* Makes room for @n more rows in @store's kept rows, up to @cap in all: the phrases read
 * longest ago leave first. */
static void
make_room (LodeStoreRank *store,
           guint          n,
           guint64        cap)
{
  g_autoptr(GPtrArray) by_use = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer value;

  g_hash_table_iter_init (&iter, store->postings);
  while (g_hash_table_iter_next (&iter, NULL, &value))
    g_ptr_array_add (by_use, value);
  g_ptr_array_sort (by_use, compare_kept_used);

  for (guint i = 0; i < by_use->len && store->n_postings + (guint64) n > cap; i++)
    {
      KeptRows *kept = g_ptr_array_index (by_use, i);

      store->n_postings -= kept->rows->len;
      g_hash_table_remove (store->postings, kept->key);
    }
}

static void
keep_postings (RankAny       *rank,
               int            phrase,
               const Posting *rows,
               guint          n,
               double         highest,
               sqlite3_int64  n_rows)
{
  LodeStoreRank *store = rank->store;
  guint64 cap = MAX ((guint64) POSTINGS_CACHE_FLOOR, POSTINGS_CACHE_ROWS * (guint64) MAX (n_rows, 0));
  const char *key;
  KeptRows *kept;

  /* A query of one phrase (an identifier) is not kept: its rows are read once either way,
   * and would push out the common words that questions share. */
  if (rank->phrases == NULL || rank->phrases->len < 2 || (guint) phrase >= rank->phrases->len ||
      n < POSTINGS_CACHE_MIN || n > cap)
    return;
  key = g_ptr_array_index (rank->phrases, phrase);

  if (store->postings == NULL)
    store->postings = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, kept_rows_free);
  if (g_hash_table_contains (store->postings, key))
    return;
  if (store->n_postings + (guint64) n > cap)
    make_room (store, n, cap);
  kept = g_new (KeptRows, 1);
  kept->key = g_strdup (key);
  kept->rows = g_array_sized_new (FALSE, FALSE, sizeof (Posting), n);
  g_array_append_vals (kept->rows, rows, n);
  kept->highest = highest;
  kept->used = store->n_searches;
  g_hash_table_insert (store->postings, (char *) kept->key, kept);
  store->n_postings += n;
}

static int
compare_posting_id (gconstpointer a,
                    gconstpointer b)
{
  return compare_id (&((const Posting *) a)->id, &((const Posting *) b)->id);
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
  g_autofree PhraseRows *phrases = g_new0 (PhraseRows, MAX (n_phrases, 1));
  g_autofree guint *read_from = g_new (guint, MAX (n_phrases, 1));
  g_autofree double *highest = g_new (double, MAX (n_phrases, 1));
  g_autofree LodeLexicalHit *heap = g_new (LodeLexicalHit, MAX (rank ? rank->limit : 1, 1));
  int rc;

  sqlite3_result_null (result);
  if (rank == NULL || rank->done)
    return;
  rank->done = TRUE;
  store = rank->store;
  store->n_searches++;

  rank->n_columns = MIN (api->xColumnCount (ctx), 4);
  for (int c = 0; c < rank->n_columns; c++)
    rank->col_weights[c] = c < n_args ? sqlite3_value_double (args[c]) : 1.0;

  /* The rows of the phrases not kept, one after the other in the connection's buffer. */
  if (store->scratch == NULL)
    store->scratch = g_array_new (FALSE, FALSE, sizeof (Posting));
  g_array_set_size (store->scratch, 0);
  rc = api->xRowCount (ctx, &n_rows);
  for (int p = 0; rc == SQLITE_OK && p < n_phrases; p++)
    {
      KeptRows *kept = lookup_postings (rank, p);

      read_from[p] = G_MAXUINT;
      if (kept != NULL)
        {
          /* Held: keeping a later phrase's rows may empty the cache. */
          g_ptr_array_add (held, g_array_ref (kept->rows));
          phrases[p].rows = (const Posting *) (gpointer) kept->rows->data;
          phrases[p].len = kept->rows->len;
          highest[p] = kept->highest;
          continue;
        }
      read_from[p] = store->scratch->len;
      rc = api->xQueryPhrase (ctx, p, rank, posting_cb);
      phrases[p].len = store->scratch->len - read_from[p];
    }

  if (rc != SQLITE_OK)
    {
      rank->rc = rc;
      return;
    }

  for (int p = 0; p < n_phrases; p++)
    {
      PhraseRows *phrase = &phrases[p];

      if (read_from[p] != G_MAXUINT)
        {
          Posting *rows = &g_array_index (store->scratch, Posting, read_from[p]);
          gboolean sorted = TRUE;

          highest[p] = 0.0;
          for (guint i = 0; i < phrase->len; i++)
            {
              highest[p] = MAX (highest[p], rows[i].partial);
              sorted = sorted && (i == 0 || rows[i].id > rows[i - 1].id);
            }
          if (!sorted)
            qsort (rows, phrase->len, sizeof (Posting), compare_posting_id);
          phrase->rows = rows;
          keep_postings (rank, p, rows, phrase->len, highest[p], n_rows);
        }
      phrase->idf = next_weight (&w) * phrase_idf (n_rows, phrase->len);
      phrase->bound = phrase->idf * highest[p];
      rank->weight += phrase->idf;
    }

  rank->heap = heap;
  score_phrases (rank, phrases, n_phrases);
  qsort (heap, rank->n_heap, sizeof (LodeLexicalHit), compare_hits_desc);
  g_array_append_vals (rank->hits, heap, rank->n_heap);
  rank->heap = NULL;

  /* A buffer grown by a pasted issue's rare words is not kept. */
  if (store->scratch->len > POSTINGS_CACHE_FLOOR)
    g_clear_pointer (&store->scratch, g_array_unref);
}

typedef struct
{
  GHashTable *postings;
  GPtrArray  *kept;   /* KeptRows of the words found */
} HoldingWords;

static gboolean
holding_word_cb (const char *token,
                 gsize       len,
                 gsize       start,
                 gsize       end,
                 gboolean    colocated,
                 gpointer    user_data)
{
  HoldingWords *words = user_data;
  g_autofree char *word = g_strndup (token, len);
  KeptRows *kept = g_hash_table_lookup (words->postings, word);

  if (kept != NULL && !g_ptr_array_find (words->kept, kept, NULL))
    g_ptr_array_add (words->kept, kept);

  return TRUE;
}

static int
compare_kept_len (gconstpointer a,
                  gconstpointer b)
{
  const KeptRows *x = *(KeptRows *const *) a;
  const KeptRows *y = *(KeptRows *const *) b;

  return (x->rows->len > y->rows->len) - (x->rows->len < y->rows->len);
}

/**
 * _lode_store_rank_may_hold:
 * @self: a #LodeStore
 * @text: a phrase, as a query of the index's text gives it
 *
 * Whether a row may hold every word of @text, as far as the rows of common words kept
 * between searches tell (see keep_postings()): a row that holds the phrase holds each of its
 * words (the query's whole words, each a word or a part of one in the row), so none does
 * when no row holds all the kept ones. Looking a phrase of common words up in FTS5 walks
 * their rows position by position: milliseconds on a large index, for a question that
 * no code says word for word.
 *
 * Returns: %FALSE when no row holds @text
 */
gboolean
_lode_store_rank_may_hold (LodeStore  *self,
                           const char *text)
{
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  g_autofree PhraseRows *lists = NULL;
  HoldingWords words;

  caches_current (self);
  if (self->rank->postings == NULL)
    return TRUE;
  words.postings = self->rank->postings;
  words.kept = kept;
  lode_code_tokenize (text, strlen (text), LODE_TOKENIZE_WHOLE, holding_word_cb, &words);
  if (kept->len < 2)
    return TRUE;

  /* The rows of the rarest kept word, looked up in the others. */
  g_ptr_array_sort (kept, compare_kept_len);
  lists = g_new0 (PhraseRows, kept->len);
  for (guint i = 0; i < kept->len; i++)
    {
      GArray *rows = ((KeptRows *) g_ptr_array_index (kept, i))->rows;

      lists[i].rows = (const Posting *) (gpointer) rows->data;
      lists[i].len = rows->len;
    }
  for (guint r = 0; r < lists[0].len; r++)
    {
      gint64 id = lists[0].rows[r].id;
      guint i = 1;

      for (; i < kept->len; i++)
        {
          guint at = seek_row (&lists[i], id);

          if (at >= lists[i].len)
            return FALSE;
          if (lists[i].rows[at].id != id)
            break;
        }
      if (i == kept->len)
        return TRUE;
    }

  return FALSE;
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
  _lode_store_append_fts5_string (match, token);
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

/* Each chunk is ranked by a statement of its own, in which lode_rank() works out the query's
 * IDFs anew: without the document frequencies at hand (rank_lexical() gives them too), that
 * walks every row of every phrase, for every chunk. A pasted issue's common words ("size",
 * "return", "null") have tens of thousands of rows on five copies of git: the ten chunks its
 * literals found took 90 ms. */
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
  g_autoptr(GPtrArray) phrases = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *match = build_match (query, &weights, phrases);
  g_autofree gint64 *phrase_docs = NULL;
  gboolean ok = TRUE;

  if (n_chunks == 0)
    return TRUE;
  phrase_docs = phrase_doc_counts (self, phrases, error);
  if (phrase_docs == NULL)
    return FALSE;

  self->rank->phrase_docs = phrase_docs;
  for (guint i = 0; i < n_chunks; i++)
    {
      sqlite3_stmt *s = _lode_store_statement (self, sql_rank_one, error);
      int rc;

      if (s == NULL)
        {
          ok = FALSE;
          break;
        }
      bind_text (s, 1, match);
      bind_text (s, 9, weights);
      sqlite3_bind_int64 (s, 2, chunk_ids[i]);
      rc = sqlite3_step (s);
      scores[i] = rc == SQLITE_ROW ? MAX (0.0, -sqlite3_column_double (s, 0)) : 0.0;
      sqlite3_reset (s);

      if (rc != SQLITE_ROW && rc != SQLITE_DONE)
        {
          ok = _lode_store_set_error (self, rc, error, "Search failed");
          break;
        }
    }
  self->rank->phrase_docs = NULL;

  return ok;
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
