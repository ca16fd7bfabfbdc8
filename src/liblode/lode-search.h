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
 * LodeSearchOptions:
 * @query: the query text
 * @limit: number of results, 1 … %LODE_SEARCH_MAX_LIMIT
 * @language: (nullable): only this language id
 * @path_glob: (nullable): only paths matching this glob (see lode_glob_match_path())
 * @min_score: drop results scoring below this
 * @one_per_file: keep only the best result of each file
 */
typedef struct
{
  const char *query;
  guint       limit;
  const char *language;
  const char *path_glob;
  double      min_score;
  gboolean    one_per_file;
} LodeSearchOptions;

#define LODE_SEARCH_OPTIONS_INIT { NULL, LODE_SEARCH_DEFAULT_LIMIT, NULL, NULL, 0.0, FALSE }

typedef struct
{
  char   *path;
  guint   start_line;
  guint   end_line;
  char   *language;
  char   *kind;        /* (nullable) */
  char   *symbol;      /* (nullable) */
  char   *container;   /* (nullable) */
  double  score;       /* higher is better */
  char   *snippet;     /* bounded excerpt of the chunk */
} LodeSearchResult;

void          lode_search_result_free (LodeSearchResult *result);
LodeQueryKind lode_query_classify     (const char       *query);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSearchResult, lode_search_result_free)

G_END_DECLS
