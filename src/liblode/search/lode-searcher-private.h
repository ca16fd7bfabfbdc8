/* lode-searcher-private.h — what the searcher's files share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-search-private.h"
#include "lode-searcher.h"
#include "lode-vector-index.h"

G_BEGIN_DECLS

/* The searcher and one search, which lode-searcher.c (the object, the entry point),
 * lode-searcher-dense.c (the dense leg and the fusion), lode-searcher-lexical.c (the lexical
 * and symbol legs and their boosts), lode-searcher-lexicon.c (the code lexicon's legs, for
 * questions in other words), lode-searcher-literals.c (the chunks that hold a message the
 * query quotes), lode-searcher-paths.c (the index's files in memory: path
 * queries, file-name evidence) and lode-searcher-results.c (the candidates every leg makes,
 * the results) share; each calls only the ones after it. */

/* Candidates fetched at most from a leg, for the boosts and the filters. */
#define SEARCH_MAX_CANDIDATES 600

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

  /* Every file of the index, read once per version of it (see _lode_searcher_ensure_files()):
   * path queries match them in memory, questions in words count the tokens of their names. */
  GPtrArray        *files;            /* (nullable) (element-type LodePathRow) */
  char             *lower_paths;      /* the files' paths in ASCII lower case, each ended by a
                                       * NUL, one after the other: a path query scans them at
                                       * once (a strstr() per path was most of its time) */
  guint            *lower_offsets;    /* where each one starts; one more: the end */
  char           ***path_tokens;      /* (nullable): the tokens of each path, when needed;
                                       * NULL-terminated */
  GHashTable       *name_counts;      /* token → how many files' names hold it */
  gint64            files_version;

  /* The code lexicon's vector of every chunk of a small index (LEXICON_MAX_CHUNKS), made
   * on the first question it widens, then again whenever the backend's version changed
   * (lode-searcher-lexicon.c). */
  LodeVectorIndex  *lexicon_vectors;  /* (nullable): NULL for a larger index */
  gint64            lexicon_version;
  gboolean          lexicon_synced;   /* lexicon_vectors are those of lexicon_version */
};

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
  double                   lexicon_strength; /* how much the lexicon counts, 0 … 1 */
} Search;

typedef struct
{
  gint64        chunk_id;
  double        relevance;   /* the leg's (or the fusion's) relevance, ≥ 0 */
  double        score;       /* the ranking score */
  guint         tier;        /* identifier queries: how surely the chunk defines the name;
                              * words: how much of the query's literals the chunk holds */
  gsize         literal;     /* words: bytes of the query's literals the chunk holds */
  gboolean      restricted;  /* identifier queries: the definition is not exported */
  LodeChunkRow *row;         /* (nullable) until loaded */
} Candidate;

/* lode-searcher-results.c */
GArray    *_lode_searcher_candidates_new      (void);
gboolean   _lode_searcher_load_candidates     (Search        *search,
                                               GArray        *candidates,
                                               GError       **error);
int        _lode_searcher_compare_candidates  (gconstpointer  a,
                                               gconstpointer  b);
int        _lode_searcher_compare_scores      (gconstpointer  a,
                                               gconstpointer  b);
double     _lode_searcher_scale_tier          (guint          tier,
                                               double         x);
GPtrArray *_lode_searcher_make_results        (Search        *search,
                                               GArray        *candidates,
                                               GError       **error);

/* lode-searcher-lexical.c */
gboolean   _lode_searcher_asks_about_tests    (const LodeQueryPlan *plan);
double     _lode_searcher_secondary_factor    (const Search       *search,
                                               const LodeChunkRow *row);
void       _lode_searcher_apply_tiers         (GArray        *candidates);
void       _lode_searcher_spread_files        (GArray        *candidates);
GArray    *_lode_searcher_rank_lexical        (Search        *search,
                                               GError       **error);
GPtrArray *_lode_searcher_search_lexical      (Search        *search,
                                               GError       **error);

/* lode-searcher-literals.c */
gboolean   _lode_searcher_literal_leg         (Search        *search,
                                               GArray        *candidates,
                                               GHashTable    *index,
                                               gsize         *total,
                                               GError       **error);

/* lode-searcher-lexicon.c */
void       _lode_searcher_clear_lexicon       (LodeSearcher  *self);
gboolean   _lode_searcher_lexicon_legs        (Search        *search,
                                               guint          n_fetch,
                                               GArray        *candidates,
                                               GHashTable    *index,
                                               GError       **error);

/* lode-searcher-paths.c */
void       _lode_searcher_clear_files         (LodeSearcher  *self);
gboolean   _lode_searcher_ensure_files        (const Search  *search,
                                               GError       **error);
double     _lode_searcher_name_evidence       (const Search  *search,
                                               const char    *path);
GPtrArray *_lode_searcher_search_paths        (Search        *search,
                                               GError       **error);

/* lode-searcher-dense.c */
GArray    *_lode_searcher_dense_leg           (LodeSearcher          *self,
                                               Search                *search,
                                               const LodeQueryVector *query,
                                               LodeSearchResponse    *response,
                                               GError               **error);
GPtrArray *_lode_searcher_search_semantic     (Search        *search,
                                               GArray        *dense,
                                               GError       **error);
GPtrArray *_lode_searcher_search_fused        (Search        *search,
                                               GArray        *dense,
                                               GError       **error);

G_END_DECLS
