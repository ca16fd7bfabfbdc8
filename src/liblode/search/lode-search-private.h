/* lode-search-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-lexicon.h"
#include "lode-search-backend.h"
#include "lode-search.h"
#include "lode-vector-index.h"

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
  char          **words;       /* NATURAL: its distinct words, stop words left out */
  guint          *repeats;     /* NATURAL: how often the query says each of them */
  gboolean        question;    /* NATURAL: a few words of prose, no code word among them */
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

/* Where the query terms are in a chunk's text, for attributing the match to one of its
 * declarations: for each term that occurs, how many of the lines before line l hold it
 * (a prefix count), so that whether lines first … last hold it is a subtraction. The text is
 * lower-cased and searched once per term, not once per declaration and line: a header
 * chunk can hold hundreds of declarations. */
typedef struct
{
  guint  n_lines;
  guint  n_terms;    /* terms that occur in the text */
  guint *counts;     /* n_terms rows of n_lines + 1 counts */
} LodeTermLines;

void  _lode_term_lines_init  (LodeTermLines       *tl,
                              const char          *body,
                              const char *const   *terms);
guint _lode_term_lines_count (const LodeTermLines *tl,
                              guint                first,
                              guint                last);
void  _lode_term_lines_clear (LodeTermLines       *tl);

/* What kind of file a path (relative to the project) names: lode-path-kinds.c. */
gboolean _lode_path_is_test          (const char *path);
gboolean _lode_path_is_generated     (const char *path);
gboolean _lode_path_is_documentation (const char *path);

/* A question widened by the code lexicon: lode-search-expansion.c. */
typedef struct _LodeExpansion LodeExpansion;

LodeExpansion          *_lode_expansion_new        (LodeLexicon           *lexicon,
                                                    const char            *query,
                                                    const LodeQueryPlan   *plan);
const LodeLexicalQuery *_lode_expansion_get_query  (const LodeExpansion   *expansion);
double                  _lode_expansion_similarity (const LodeExpansion   *expansion,
                                                    const char            *path,
                                                    const char            *body);
gboolean                _lode_expansion_embed_chunks (LodeLexicon         *lexicon,
                                                     LodeSearchBackend   *backend,
                                                     guint                max_chunks,
                                                     LodeVectorIndex    **vectors,
                                                     GError             **error);
GArray                 *_lode_expansion_search     (const LodeExpansion   *expansion,
                                                    LodeVectorIndex       *vectors,
                                                    guint                  k,
                                                    const gint64          *allowed_ids,
                                                    gsize                  n_allowed);
void                    _lode_expansion_explain    (const LodeExpansion   *expansion,
                                                    const char            *text,
                                                    char                ***terms,
                                                    char                ***from);
void                    _lode_expansion_free       (LodeExpansion         *expansion);
double                  _lode_question_coverage    (const LodeQueryPlan   *plan,
                                                    const char            *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeQueryPlan, _lode_query_plan_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeExpansion, _lode_expansion_free)

G_END_DECLS
