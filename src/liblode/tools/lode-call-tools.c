/* lode-call-tools.c — the call graph's tools: a symbol with its callers and callees, the
 * symbols of a file or a name, flows, traces
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-call-report.h"
#include "lode-tools-private.h"

/*
 * codebase_symbol, codebase_symbols, codebase_flow and codebase_trace are named and shaped
 * like SocratiCode's (camelCase arguments); codebase_impact's symbol mode is in
 * lode-graph-tools.c. The answers and their markdown are lode-call-report.c's, over the call
 * graph the index keeps (lode_project_dup_call_graph()); this file maps arguments.
 */

#define STRING "{\"type\": \"string\"}"
#define NULLABLE_STRING "{\"type\": [\"string\", \"null\"]}"
#define COUNT "{\"type\": \"integer\", \"minimum\": 0}"
#define BOOLEAN "{\"type\": \"boolean\"}"
#define ARRAY "{\"type\": \"array\"}"
#define OBJECT "{\"type\": [\"object\", \"null\"]}"

#define NAME_PROPERTY(member, what) \
  "\"" member "\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"" what "\"}"

#define FILE_PROPERTY(member, what) \
  "\"" member "\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"" what "\"}"

#define CALL_DEPTH_PROPERTY(default) \
  "\"depth\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 10, \"default\": " default \
  ", \"description\": \"Calls to follow\"}"

#define MATCH_PROPERTIES \
  "\"project\": " STRING ", \"query\": " STRING ", \"candidates\": " ARRAY ", \"hint\": " \
  NULLABLE_STRING

static const char *
string_argument (LodeToolCall *call,
                 const char   *name)
{
  return json_object_get_string_member_with_default (lode_tool_call_get_arguments (call), name,
                                                     NULL);
}

static guint
uint_argument (LodeToolCall *call,
               const char   *name)
{
  /* The input schema bounded it already; 0 is the report's default. */
  return (guint) json_object_get_int_member_with_default (lode_tool_call_get_arguments (call),
                                                          name, 0);
}

/**
 * lode_call_tools_run:
 * @call: a tool call naming an indexed project
 * @func: the report to answer with
 * @query: its arguments (`root` is set here)
 * @error: return location for a #GError
 *
 * Answers @call with @func over the call graph of the project's index, kept in memory while
 * the index does not change (lode_project_dup_call_graph()).
 *
 * Returns: (transfer full) (nullable): the report
 */
JsonObject *
lode_call_tools_run (LodeToolCall         *call,
                     LodeCallReportFunc    func,
                     const LodeCallQuery  *query,
                     GError              **error)
{
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeCallGraph) graph = NULL;
  LodeCallQuery located = *query;

  if (path == NULL)
    return NULL;
  project = lode_tool_call_open_indexed (call, path, error);
  if (project == NULL)
    return NULL;
  graph = lode_project_dup_call_graph (project, error);
  if (graph == NULL)
    return NULL;
  located.root = lode_project_get_root (project);
  return func (graph, &located);
}

/* codebase_symbol ----------------------------------------------------------------------- */

static JsonObject *
symbol (LodeToolCall  *call,
        GError       **error)
{
  LodeCallQuery query = { .name = string_argument (call, "name"),
                          .file = string_argument (call, "file"),
                          .limit = uint_argument (call, "limit") };

  return lode_call_tools_run (call, lode_call_report_symbol, &query, error);
}

static const LodeTool symbol_tool = {
  .name = "codebase_symbol",
  .title = "A symbol, its callers and callees",
  .description =
    "A definition with its callers and callees (call line, status, rule, confidence); "
    "unresolved and external calls apart. Several matches: candidates.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    NAME_PROPERTY ("name", "Plain or qualified (T.m, a::f)") ", "
    FILE_PROPERTY ("file", "Its file") ", "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 500, \"default\": 50, "
    "\"description\": \"Calls to list\"}, " OUTPUT_FORMAT_PROPERTY "}, "
    "\"required\": [\"name\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" MATCH_PROPERTIES ", \"symbol\": " OBJECT ", "
    "\"callers\": " ARRAY ", \"callerCount\": " COUNT ", \"callees\": " ARRAY ", "
    "\"unresolvedCallees\": " ARRAY ", \"externalCallees\": " ARRAY "}, "
    "\"required\": [\"project\", \"query\", \"symbol\", \"callers\", \"callees\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = symbol,
  .format = lode_call_format_symbol,
};

/* codebase_symbols ---------------------------------------------------------------------- */

static JsonObject *
symbols (LodeToolCall  *call,
         GError       **error)
{
  LodeCallQuery query = { .file = string_argument (call, "file"),
                          .query = string_argument (call, "query"),
                          .kind = string_argument (call, "kind"),
                          .limit = uint_argument (call, "limit") };

  return lode_call_tools_run (call, lode_call_report_symbols, &query, error);
}

static const LodeTool symbols_tool = {
  .name = "codebase_symbols",
  .title = "Definitions of a file or name",
  .description =
    "The definitions of a file, or those whose name holds query, project-wide.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    FILE_PROPERTY ("file", "A file") ", " NAME_PROPERTY ("query", "Part of a name") ", "
    NAME_PROPERTY ("kind", "Only this kind") ", "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 1000, \"default\": 200, "
    "\"description\": \"How many\"}, " OUTPUT_FORMAT_PROPERTY "}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"project\": " STRING ", \"total\": " COUNT ", "
    "\"symbols\": " ARRAY "}, \"required\": [\"project\", \"total\", \"symbols\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = symbols,
  .format = lode_call_format_symbols,
};

/* codebase_flow ------------------------------------------------------------------------- */

static JsonObject *
flow (LodeToolCall  *call,
      GError       **error)
{
  LodeCallQuery query = { .name = string_argument (call, "entrypoint"),
                          .file = string_argument (call, "file"),
                          .depth = uint_argument (call, "depth") };

  return lode_call_tools_run (call, lode_call_report_flow, &query, error);
}

static const LodeTool flow_tool = {
  .name = "codebase_flow",
  .title = "Call flow from an entry point",
  .description =
    "Without entrypoint: the entry points, ranked, with why (main, a command table's or a "
    "router's registration with its command or route as label, uncalled, test). With one: its "
    "call tree to depth, cycles and cut branches marked.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    NAME_PROPERTY ("entrypoint", "Where the flow starts") ", "
    FILE_PROPERTY ("file", "Its file") ", " CALL_DEPTH_PROPERTY ("5") ", "
    OUTPUT_FORMAT_PROPERTY "}, \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" MATCH_PROPERTIES ", \"entryPoints\": " ARRAY
    ", \"root\": " OBJECT ", \"depth\": " COUNT "}, \"required\": [\"project\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = flow,
  .format = lode_call_format_flow,
};

/* codebase_trace ------------------------------------------------------------------------ */

static JsonObject *
trace (LodeToolCall  *call,
       GError       **error)
{
  LodeCallQuery query = { .name = string_argument (call, "from"),
                          .file = string_argument (call, "fromFile"),
                          .to = string_argument (call, "to"),
                          .to_file = string_argument (call, "toFile"),
                          .depth = uint_argument (call, "depth") };

  return lode_call_tools_run (call, lode_call_report_trace, &query, error);
}

static const LodeTool trace_tool = {
  .name = "codebase_trace",
  .title = "Call path between two symbols",
  .description =
    "A shortest chain of calls from one definition to another; when none, how far they go.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    NAME_PROPERTY ("from", "Start") ", " NAME_PROPERTY ("to", "End")
    ", " FILE_PROPERTY ("fromFile", "from's file") ", " FILE_PROPERTY ("toFile", "to's file")
    ", " CALL_DEPTH_PROPERTY ("10") ", " OUTPUT_FORMAT_PROPERTY "}, "
    "\"required\": [\"from\", \"to\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {" MATCH_PROPERTIES ", \"to\": " STRING ", "
    "\"reached\": " BOOLEAN ", \"path\": " ARRAY ", \"depth\": " COUNT "}, "
    "\"required\": [\"project\", \"query\", \"to\", \"reached\", \"path\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = trace,
  .format = lode_call_format_trace,
};

/**
 * lode_call_tools_register:
 * @registry: a #LodeToolRegistry
 *
 * Adds the call graph's tools: codebase_symbol, codebase_symbols, codebase_flow and
 * codebase_trace.
 */
void
lode_call_tools_register (LodeToolRegistry *registry)
{
  static const LodeTool *tools[] = { &symbol_tool, &symbols_tool, &flow_tool, &trace_tool };

  g_return_if_fail (LODE_IS_TOOL_REGISTRY (registry));

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    lode_tool_registry_add (registry, tools[i]);
}
