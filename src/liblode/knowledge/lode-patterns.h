/* lode-patterns.h — the alternatives a team uses for each concern, and where it is heading
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-git-history.h"
#include "lode-graph.h"
#include "lode-project.h"

G_BEGIN_DECLS

/* An alternative's share of a concern's files, from which it and another are in conflict. */
#define LODE_PATTERN_CONFLICT_SHARE 0.2
/* The difference between an alternative's share of the newer and of the older files that
 * makes it rising (or, negative, declining). */
#define LODE_PATTERN_TREND_DELTA 0.2

typedef enum
{
  LODE_PATTERN_MATCH_PACKAGE,  /* an external package the file imports (or a prefix of it) */
  LODE_PATTERN_MATCH_SHAPE,    /* text the file contains */
} LodePatternMatch;

/**
 * LodePatternRule:
 * @category: the concern: http-client, state-management, testing, mocking, logging,
 *   dependency-injection, error-handling, date-time, orm, validation, cli, async-runtime
 * @alternative: how the project may meet it: `axios`, `fetch`, `GLib logging`
 * @family: the languages it applies to: js, python, go, rust, jvm, csharp, php, ruby, c
 * @match: what shows it
 * @text: the package or the text
 */
typedef struct
{
  const char       *category;
  const char       *alternative;
  const char       *family;
  LodePatternMatch  match;
  const char       *text;
} LodePatternRule;

const LodePatternRule *lode_pattern_rules        (guint          *n_rules);
const char            *lode_pattern_family       (const char     *language);
const char *const     *lode_pattern_categories   (void);
const char            *lode_pattern_category_for (const char     *name);

/**
 * LodePatternUse:
 * @alternative: its name
 * @files: (element-type utf8): the files using it, the most recently changed first
 * @newest: when the most recent of them changed (seconds since the epoch)
 * @share: its part of the concern's files, 0–1
 * @trend: rising, declining or stable
 */
typedef struct
{
  char       *alternative;
  GPtrArray  *files;
  gint64      newest;
  double      share;
  const char *trend;
} LodePatternUse;

/**
 * LodePattern:
 * @category: the concern
 * @family: the languages (lode_pattern_family()) whose files these are: alternatives of
 *   different languages never compete
 * @n_files: files using any alternative
 * @uses: (element-type LodePatternUse): the alternatives used, most files first
 * @preferred: (nullable): the alternative to follow: a rising one, else the most used that
 *   is not declining
 * @conflict: two alternatives each hold at least %LODE_PATTERN_CONFLICT_SHARE of the files
 */
typedef struct
{
  const char *category;
  const char *family;
  guint       n_files;
  GPtrArray  *uses;
  const char *preferred;
  gboolean    conflict;
} LodePattern;

/**
 * LodePatterns:
 * @patterns: (element-type LodePattern): the concerns found, by category order
 * @golden: (element-type utf8): the files that show the preferred alternatives best
 */
typedef struct
{
  GPtrArray *patterns;
  GPtrArray *golden;
} LodePatterns;

void          lode_patterns_free      (LodePatterns   *patterns);
LodePatterns *lode_patterns_analyse   (const char     *root,
                                       const LodeGraph *graph,
                                       LodeGitHistory *history,
                                       GCancellable   *cancellable);
LodePatterns *lode_patterns_for_project (LodeProject  *project,
                                       GCancellable   *cancellable,
                                       GError        **error);
JsonObject   *lode_patterns_report    (LodePatterns   *patterns,
                                       const char     *root,
                                       const char     *category);
char         *lode_patterns_format    (JsonObject     *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodePatterns, lode_patterns_free)

G_END_DECLS
