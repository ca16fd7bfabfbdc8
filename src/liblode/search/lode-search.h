/* lode-search.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

#define LODE_SEARCH_DEFAULT_LIMIT 10
#define LODE_SEARCH_MAX_LIMIT     100

/**
 * LodeQueryKind:
 * @LODE_QUERY_IDENTIFIER: one identifier (`lode_store_open`, `parseHttpRequest`, `Foo::bar`)
 * @LODE_QUERY_PATH: a path or file name (`src/cli/main.c`, `lode-store.c`)
 * @LODE_QUERY_NATURAL: words (`where are ignore rules parsed`)
 */
typedef enum
{
  LODE_QUERY_IDENTIFIER,
  LODE_QUERY_PATH,
  LODE_QUERY_NATURAL,
} LodeQueryKind;

/**
 * LodeSearchMode:
 * @LODE_SEARCH_MODE_HYBRID: BM25 and vector neighbours, fused by Reciprocal Rank Fusion (the
 *   default; BM25 alone when no embedding model is available)
 * @LODE_SEARCH_MODE_LEXICAL: BM25 only
 * @LODE_SEARCH_MODE_SEMANTIC: vector neighbours only
 */
typedef enum
{
  LODE_SEARCH_MODE_HYBRID,
  LODE_SEARCH_MODE_LEXICAL,
  LODE_SEARCH_MODE_SEMANTIC,
} LodeSearchMode;

/**
 * LodeSearchOptions:
 * @query: the query text
 * @limit: number of results, 1 … %LODE_SEARCH_MAX_LIMIT
 * @language: (nullable): only this language id
 * @path_glob: (nullable): only paths matching this glob, or containing this plain string
 *   (see lode_search_path_filter_matches())
 * @min_score: drop results scoring below this (scores lie in 0 … 1)
 * @one_per_file: keep only the best result of each file
 * @mode: which legs run (issue #4)
 * @include_content: give each result the chunk's whole text as well as its snippet
 */
typedef struct
{
  const char     *query;
  guint           limit;
  const char     *language;
  const char     *path_glob;
  double          min_score;
  gboolean        one_per_file;
  LodeSearchMode  mode;
  gboolean        include_content;
} LodeSearchOptions;

#define LODE_SEARCH_OPTIONS_INIT \
  { .query = NULL, .limit = LODE_SEARCH_DEFAULT_LIMIT, .mode = LODE_SEARCH_MODE_HYBRID }

/**
 * LodeSearchSymbol:
 * @name: a declaration's name
 * @kind: (nullable): function, method, class, …
 * @start_line: its first line
 * @end_line: its last line
 */
typedef struct
{
  char  *name;
  char  *kind;
  guint  start_line;
  guint  end_line;
} LodeSearchSymbol;

/**
 * LodeSearchResult:
 * @path: the file, relative to the project root
 * @start_line: the chunk's first line, 1-based
 * @end_line: the chunk's last line, inclusive
 * @language: the file's language id
 * @kind: (nullable): the kind of @symbol
 * @symbol: (nullable): the declaration the match lies in: a method of a class chunk, one
 *   declaration of a chunk that holds several
 * @container: (nullable): the class, module or namespace around @symbol
 * @signature: (nullable): the head of @symbol
 * @symbol_start_line: the first line of @symbol (@start_line without one)
 * @symbol_end_line: its last line (@end_line without one)
 * @symbols: (nullable) (element-type LodeSearchSymbol): every declaration the chunk holds,
 *   by line
 * @score: 0 … 1, higher is better (lode_searcher_search())
 * @snippet: a bounded excerpt of the chunk, from the first line that holds a query term
 * @snippet_start_line: the line @snippet starts at
 * @content: (nullable): the chunk's whole text, when asked for
 * @expanded_terms: (nullable) (array zero-terminated=1): words of the chunk that the question
 *   did not say but the code lexicon added to it
 * @expanded_from: (nullable) (array zero-terminated=1): for each, the question's word it
 *   stands for
 */
typedef struct
{
  char       *path;
  guint       start_line;
  guint       end_line;
  char       *language;
  char       *kind;
  char       *symbol;
  char       *container;
  char       *signature;
  guint       symbol_start_line;
  guint       symbol_end_line;
  GPtrArray  *symbols;
  double      score;
  char       *snippet;
  guint       snippet_start_line;
  char       *content;
  char      **expanded_terms;
  char      **expanded_from;
} LodeSearchResult;

/**
 * LodeSearchResponse:
 * @results: (element-type LodeSearchResult): results, best first
 * @requested_mode: the mode asked for
 * @mode: the mode that ran: %LODE_SEARCH_MODE_LEXICAL when hybrid was asked for and no
 *   embedding model is available
 * @notice: (nullable): why semantic search did not run or covers only part of the index, for
 *   people ("semantic search unavailable: no embedding model (run `lode model pull`)")
 * @model: (nullable): the embedding model of the dense leg
 * @n_embedded: chunks that have a vector of @model
 * @n_chunks: chunks that can have one (all but blank ones)
 */
typedef struct
{
  GPtrArray      *results;
  LodeSearchMode  requested_mode;
  LodeSearchMode  mode;
  char           *notice;
  char           *model;
  guint           n_embedded;
  guint           n_chunks;
} LodeSearchResponse;

/**
 * LODE_SEARCH_TITLE_WEIGHT:
 *
 * How much more a word of a pasted issue's title counts than a word of its body
 * (lode_search_dup_title()).
 */
#define LODE_SEARCH_TITLE_WEIGHT 3.0

void          lode_search_symbol_free   (LodeSearchSymbol   *symbol);
void          lode_search_result_free   (LodeSearchResult   *result);
void          lode_search_response_free (LodeSearchResponse *response);
LodeQueryKind lode_query_classify       (const char         *query);
const char   *lode_search_mode_to_string   (LodeSearchMode   mode);
gboolean      lode_search_mode_from_string (const char      *name,
                                            LodeSearchMode  *mode);
char         *lode_search_dup_coverage_notice (guint n_embedded,
                                               guint n_embeddable);
char         *lode_search_dup_title     (const char         *query);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSearchResult, lode_search_result_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSearchResponse, lode_search_response_free)

G_END_DECLS
