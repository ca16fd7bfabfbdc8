/* lode-parse-budget.h — the time one file may take to parse, and the run's cancellation
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <time.h>
#include <tree_sitter/api.h>

G_BEGIN_DECLS

/* Nodes a walk of our own visits between two looks at the budget (lode_parse_budget_spent()
 * reads the thread's CPU clock). */
#define LODE_PARSE_BUDGET_WALK_STEPS 4096

/**
 * LodeParseBudget:
 * @deadline: the lode_parse_budget_now() past which parsing and querying stop; 0 for none
 * @cancelled: (nullable): non-zero once the run is cancelled; tree-sitter reads it during a
 *   parse, so that cancellation stops even a long one
 *
 * What the chunker passes down to everything that parses or scans one file (its own parse
 * and query, the import queries, the parses of `<script>` blocks), so that the file as a
 * whole keeps to one budget. The budget counts the parsing thread's CPU time, not wall
 * time: on a loaded machine a file is not chunked by lines only because other work ran
 * meanwhile. Cancellation does not wait for the clock: tree-sitter reads @cancelled every
 * hundred or so operations.
 */
typedef struct
{
  gint64        deadline;
  const size_t *cancelled;
} LodeParseBudget;

/* The calling thread's CPU time in microseconds, the clock of a budget's deadline. */
static inline gint64
lode_parse_budget_now (void)
{
  struct timespec ts;

  if (clock_gettime (CLOCK_THREAD_CPUTIME_ID, &ts) != 0)
    return g_get_monotonic_time ();
  return (gint64) ts.tv_sec * G_USEC_PER_SEC + ts.tv_nsec / 1000;
}

static inline gboolean
lode_parse_budget_cancelled (const LodeParseBudget *budget)
{
  return budget != NULL && budget->cancelled != NULL &&
         __atomic_load_n (budget->cancelled, __ATOMIC_RELAXED) != 0;
}

static inline gboolean
lode_parse_budget_spent (const LodeParseBudget *budget)
{
  return budget != NULL &&
         (lode_parse_budget_cancelled (budget) ||
          (budget->deadline != 0 && lode_parse_budget_now () >= budget->deadline));
}

/**
 * LodeQueryBudget:
 *
 * What a query cursor run under a budget reads while it walks: the caller keeps it (on its
 * stack) until it has read the last match.
 */
typedef struct
{
  TSQueryCursorOptions   options;
  const LodeParseBudget *budget;
  guint                  callbacks;
} LodeQueryBudget;

TSTree *lode_parse_budget_parse (const LodeParseBudget *budget,
                                 TSParser              *parser,
                                 const char            *text,
                                 gsize                  len,
                                 guint64                fallback_usec);
void    lode_parse_budget_exec  (const LodeParseBudget *budget,
                                 LodeQueryBudget       *run,
                                 TSQueryCursor         *cursor,
                                 const TSQuery         *query,
                                 TSNode                 node);

G_END_DECLS
