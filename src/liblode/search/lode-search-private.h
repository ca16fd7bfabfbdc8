/* lode-search-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-search-backend.h"
#include "lode-search.h"

G_BEGIN_DECLS

/* Bounds of LodeSearchResult.snippet. */
#define LODE_SNIPPET_MAX_LINES 10
#define LODE_SNIPPET_MAX_BYTES 600

/* What a query turns into. Every term of @lexical comes out of the tokenizer. */
typedef struct
{
  LodeQueryKind     kind;
  LodeLexicalQuery *lexical;   /* (nullable): NULL if no term is left */
  char          **terms;       /* lower-cased terms, for snippets */
  char           *name;        /* IDENTIFIER: the name to look up in the symbols table */
  char           *container;   /* IDENTIFIER: (nullable) `Foo` of `Foo::bar`, `foo.bar` */
  char           *path;        /* PATH: the query as typed, trimmed */
} LodeQueryPlan;

LodeLexicalQuery *_lode_lexical_query_new (void);
LodeQueryPlan *_lode_query_plan_new   (const char         *query,
                                       LodeSearchBackend  *backend,
                                       GError            **error);
void           _lode_query_plan_free  (LodeQueryPlan *plan);
char          *_lode_search_snippet   (const char    *body,
                                       const char    *const *terms,
                                       guint          from_line,
                                       guint         *first_line);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeQueryPlan, _lode_query_plan_free)

G_END_DECLS
