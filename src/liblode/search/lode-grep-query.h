/* lode-grep-query.h — what a regular expression requires of a text, as a trigram query
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeGrepQueryKind:
 * @LODE_GREP_QUERY_ALL: every text may match (no usable trigram)
 * @LODE_GREP_QUERY_LITERAL: the text holds the literal (of at least three characters)
 * @LODE_GREP_QUERY_AND: every child holds
 * @LODE_GREP_QUERY_OR: one child holds at least
 */
typedef enum
{
  LODE_GREP_QUERY_ALL,
  LODE_GREP_QUERY_LITERAL,
  LODE_GREP_QUERY_AND,
  LODE_GREP_QUERY_OR,
} LodeGrepQueryKind;

/**
 * LodeGrepQuery:
 * @kind: what the node requires
 * @literal: (nullable): for %LODE_GREP_QUERY_LITERAL, the literal as the pattern writes it
 *   (an index of trigrams folds case on both sides; the regex checks case afterwards)
 * @children: (nullable) (element-type LodeGrepQuery): for AND and OR, two or more
 *
 * What a text must hold for a pattern to match one of its lines: a necessary condition that
 * an index of trigrams can answer (every trigram of each literal it requires), never a
 * sufficient one. As Russ Cox's codesearch and Zoekt derive them: literals of a
 * concatenation are joined while their sets stay small, alternatives become OR, anything
 * that may match any text (`.`, a wide class, `*`) requires nothing.
 */
typedef struct _LodeGrepQuery LodeGrepQuery;

struct _LodeGrepQuery
{
  LodeGrepQueryKind  kind;
  char              *literal;
  GPtrArray         *children;
};

void           lode_grep_query_free         (LodeGrepQuery *query);
LodeGrepQuery *lode_grep_query_for_pattern  (const char    *pattern,
                                             gboolean       regex);
LodeGrepQuery *lode_grep_query_bytes_for_pattern (const char *pattern,
                                                  gboolean    regex);
char          *lode_grep_query_to_string    (const LodeGrepQuery *query);
gboolean       lode_grep_query_matches_text (const LodeGrepQuery *query,
                                             const char          *folded_text);
GPtrArray     *lode_grep_literal_trigrams   (const char    *literal);
char          *lode_grep_fold               (const char    *text,
                                             gssize         length);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGrepQuery, lode_grep_query_free)

G_END_DECLS
