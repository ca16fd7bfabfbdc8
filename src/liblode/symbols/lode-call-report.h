/* lode-call-report.h — the answers of the call graph's tools, as JSON and markdown
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-call-graph.h"

G_BEGIN_DECLS

#define LODE_CALL_REPORT_DEFAULT_FLOW_DEPTH   5
#define LODE_CALL_REPORT_DEFAULT_IMPACT_DEPTH 3
#define LODE_CALL_REPORT_MAX_DEPTH            10

/**
 * LodeCallQuery:
 * @root: the project's root, for the answers' `project`
 * @name: (nullable): the definition asked about (symbol, flow's entry point, trace's start,
 *   impact's symbol), plain or qualified as the tools print it
 * @file: (nullable): the file (or its last components) @name is in
 * @to: (nullable): trace: where the calls should lead
 * @to_file: (nullable): trace: the file @to is in
 * @query: (nullable): symbols: a substring of the names to list
 * @kind: (nullable): symbols: only this kind
 * @depth: how many calls away (0: the tool's default)
 * @limit: how many items to list at most (0: the tool's default)
 */
typedef struct
{
  const char *root;
  const char *name;
  const char *file;
  const char *to;
  const char *to_file;
  const char *query;
  const char *kind;
  guint       depth;
  guint       limit;
} LodeCallQuery;

typedef JsonObject *(*LodeCallReportFunc) (LodeCallGraph       *graph,
                                           const LodeCallQuery *query);

JsonObject *lode_call_report_symbol   (LodeCallGraph       *graph,
                                       const LodeCallQuery *query);
JsonObject *lode_call_report_symbols  (LodeCallGraph       *graph,
                                       const LodeCallQuery *query);
JsonObject *lode_call_report_flow     (LodeCallGraph       *graph,
                                       const LodeCallQuery *query);
JsonObject *lode_call_report_trace    (LodeCallGraph       *graph,
                                       const LodeCallQuery *query);
JsonObject *lode_call_report_impact   (LodeCallGraph       *graph,
                                       const LodeCallQuery *query);

char       *lode_call_format_symbol   (JsonObject          *report);
char       *lode_call_format_symbols  (JsonObject          *report);
char       *lode_call_format_flow     (JsonObject          *report);
char       *lode_call_format_trace    (JsonObject          *report);
char       *lode_call_format_impact   (JsonObject          *report);

G_END_DECLS
