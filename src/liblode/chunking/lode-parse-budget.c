/* lode-parse-budget.c — tree-sitter parses and queries that keep to a file's budget
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunker"

#include "config.h"

#include "lode-parse-budget.h"

typedef struct
{
  const char            *text;
  gsize                  len;
  const LodeParseBudget *budget;
  gint64                 deadline;
  guint                  callbacks;
} Parse;

/* Tree-sitter's progress callbacks come every hundred or so operations, and reading the
 * thread's CPU clock is a system call (the vDSO has no per-thread clocks): on every callback
 * it took 0.25 s of the 8.5 s the chunking threads spend on git. The clock is read on every
 * CLOCK_EVERY-th callback only, a few thousand operations (tens of microseconds) apart;
 * cancellation is still read on each. */
#define CLOCK_EVERY 16

static gboolean
past_deadline (guint  *callbacks,
               gint64  deadline)
{
  return ++*callbacks % CLOCK_EVERY == 0 && lode_parse_budget_now () >= deadline;
}

static const char *
parse_read (void     *payload,
            uint32_t  byte_index,
            TSPoint   position,
            uint32_t *bytes_read)
{
  Parse *parse = payload;

  if (byte_index >= parse->len)
    {
      *bytes_read = 0;
      return "";
    }
  *bytes_read = (uint32_t) (parse->len - byte_index);
  return parse->text + byte_index;
}

/* Called by tree-sitter every hundred or so parse operations: TRUE stops the parse. */
static bool
parse_progress_cb (TSParseState *state)
{
  Parse *parse = state->payload;

  return lode_parse_budget_cancelled (parse->budget) ||
         past_deadline (&parse->callbacks, parse->deadline);
}

/**
 * lode_parse_budget_parse:
 * @budget: (nullable): the file's budget
 * @parser: a parser with its language set
 * @text: the text
 * @len: its length in bytes
 * @fallback_usec: the CPU time the parse may take without a deadline in @budget; 0 for no
 *   limit
 *
 * Parses @text within what is left of @budget (and stops when the run is cancelled).
 *
 * Returns: (transfer full) (nullable): the tree, or %NULL when the parse failed, ran out of
 *   time or was given 4 GiB or more; @parser is then reset, so that its next parse starts afresh
 */
TSTree *
lode_parse_budget_parse (const LodeParseBudget *budget,
                         TSParser              *parser,
                         const char            *text,
                         gsize                  len,
                         guint64                fallback_usec)
{
  Parse parse = { text, len, budget, G_MAXINT64, 0 };
  TSInput input = { &parse, parse_read, TSInputEncodingUTF8, NULL };
  TSParseOptions options = { &parse, parse_progress_cb };
  TSTree *tree;

  /* tree-sitter counts bytes in 32 bits. */
  if (len > G_MAXUINT32)
    return NULL;

  if (budget != NULL && budget->deadline != 0)
    parse.deadline = budget->deadline;
  else if (fallback_usec != 0)
    parse.deadline = lode_parse_budget_now () + (gint64) fallback_usec;

  tree = ts_parser_parse_with_options (parser, NULL, input, options);
  if (tree == NULL)
    ts_parser_reset (parser);
  return tree;
}

/* Called by tree-sitter every hundred or so nodes a query visits: TRUE ends the walk. */
static bool
query_progress_cb (TSQueryCursorState *state)
{
  LodeQueryBudget *run = state->payload;

  return lode_parse_budget_cancelled (run->budget) ||
         (run->budget->deadline != 0 && past_deadline (&run->callbacks, run->budget->deadline));
}

/**
 * lode_parse_budget_exec:
 * @budget: (nullable): the file's budget; without one the query runs to its end
 * @run: where the cursor finds the budget while it walks; the caller keeps it until it has
 *   read the last match
 * @cursor: a query cursor
 * @query: the query
 * @node: where to run it
 *
 * Starts @query on @node like ts_query_cursor_exec(), except that matching stops (the next
 * ts_query_cursor_next_match() returns %FALSE) once @budget is spent. A query visits every
 * node, and on a deep tree each visit costs the node's depth: 64 KB of nested parentheses
 * took minutes, and matches, where the callers used to check the budget, may never come.
 * Callers tell a walk that ended early by lode_parse_budget_spent().
 */
void
lode_parse_budget_exec (const LodeParseBudget *budget,
                        LodeQueryBudget       *run,
                        TSQueryCursor         *cursor,
                        const TSQuery         *query,
                        TSNode                 node)
{
  run->options.payload = run;
  run->options.progress_callback = query_progress_cb;
  run->budget = budget;
  run->callbacks = 0;
  ts_query_cursor_exec_with_options (cursor, query, node, budget != NULL ? &run->options : NULL);
}
