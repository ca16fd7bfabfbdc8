/* lode-context-tools.c — the context artifact tools
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-context.h"
#include "lode-tools-private.h"

/*
 * codebase_context, codebase_context_search, codebase_context_index and
 * codebase_context_remove, named and shaped like SocratiCode's tools; the answers and their
 * markdown are lode-context.c's.
 */

#define NULLABLE_STRING "{\"type\": [\"string\", \"null\"]}"
#define STRING "{\"type\": \"string\"}"
#define STRING_ARRAY "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}"
#define COUNT "{\"type\": \"integer\", \"minimum\": 0}"

#define NAME_PROPERTY(what) \
  "\"name\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 256, \"description\": \"" \
  what "\"}"

static const char *
string_argument (LodeToolCall *call,
                 const char   *name)
{
  return json_object_get_string_member_with_default (lode_tool_call_get_arguments (call), name,
                                                     NULL);
}

static LodeProject *
open_indexed (LodeToolCall  *call,
              GError       **error)
{
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);

  return path != NULL ? lode_tool_call_open_indexed (call, path, error) : NULL;
}

/* codebase_context ------------------------------------------------------------------ */

static JsonObject *
context_list (LodeToolCall  *call,
              GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  return project != NULL ? lode_context_report_list (project, error) : NULL;
}

static const LodeTool context_list_tool = {
  .name = "codebase_context",
  .title = "Context artifacts",
  .description =
    "The context artifacts the project declares (schemas, API specs, protobuf, GraphQL, "
    "infrastructure, architecture documents; .lode.json contextArtifacts), each with its "
    "description and state: indexed, stale, not_indexed, missing or unreadable.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", " OUTPUT_FORMAT_PROPERTY
    "}, \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"project\": " STRING ", \"artifacts\": "
    "{\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {\"name\": " STRING
    ", \"path\": " STRING ", \"description\": " NULLABLE_STRING ", \"source\": " STRING ", "
    "\"state\": {\"type\": \"string\", \"enum\": [\"indexed\", \"stale\", \"not_indexed\", "
    "\"missing\", \"unreadable\"]}, \"problem\": " NULLABLE_STRING ", \"indexedAt\": "
    NULLABLE_STRING ", \"files\": " COUNT ", \"chunks\": " COUNT "}, \"required\": [\"name\", "
    "\"path\", \"description\", \"source\", \"state\", \"problem\", \"indexedAt\", \"files\", "
    "\"chunks\"]}}, \"undeclared\": " STRING_ARRAY "}, "
    "\"required\": [\"project\", \"artifacts\", \"undeclared\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = context_list,
  .format = lode_context_format_list,
};

/* codebase_context_search ------------------------------------------------------------ */

static JsonObject *
context_search (LodeToolCall  *call,
                GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);
  JsonObject *arguments = lode_tool_call_get_arguments (call);

  if (project == NULL)
    return NULL;

  return lode_context_report_search (project, string_argument (call, "query"),
                                     string_argument (call, "artifactName"),
                                     json_object_get_int_member_with_default (arguments, "limit",
                                                                              10),
                                     json_object_get_double_member_with_default (arguments,
                                                                                 "minScore",
                                                                                 0.0),
                                     lode_tool_call_get_cancellable (call), error);
}

static const LodeTool context_search_tool = {
  .name = "codebase_context_search",
  .title = "Search context artifacts",
  .description =
    "Search the project's context artifacts with words or a question: the matching pieces (a SQL "
    "statement, an OpenAPI path, a Markdown section, a protobuf message), best first; changed "
    "artifacts are indexed first.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    "\"query\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 65536, "
    "\"description\": \"What to look for: names, terms or a question\"}, "
    "\"artifactName\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"Only this "
    "artifact\"}, "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 50, \"default\": 10, "
    "\"description\": \"Pieces to return\"}, "
    "\"minScore\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": 1, \"default\": 0, "
    "\"description\": \"Leave out results scoring below this; scores are relative to the "
    "best result (1)\"}, " OUTPUT_FORMAT_PROPERTY "}, "
    "\"required\": [\"query\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"project\": " STRING ", \"query\": " STRING ", "
    "\"total\": " COUNT ", \"results\": {\"type\": \"array\", \"items\": {\"type\": \"object\", "
    "\"properties\": {\"artifact\": " STRING ", \"path\": " STRING ", \"startLine\": " COUNT
    ", \"endLine\": " COUNT ", \"kind\": " NULLABLE_STRING ", \"title\": " NULLABLE_STRING
    ", \"score\": {\"type\": \"number\", \"minimum\": 0, \"maximum\": 1}, \"snippet\": " STRING
    "}, \"required\": [\"artifact\", \"path\", \"startLine\", \"endLine\", \"kind\", "
    "\"title\", \"score\", \"snippet\"]}}}, "
    "\"required\": [\"project\", \"query\", \"total\", \"results\"]}",
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = context_search,
  .format = lode_context_format_search,
};

/* codebase_context_index ------------------------------------------------------------- */

static JsonObject *
context_index (LodeToolCall  *call,
               GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  if (project == NULL)
    return NULL;

  return lode_context_report_index (project, string_argument (call, "name"),
                                    lode_tool_call_get_cancellable (call), error);
}

static const LodeTool context_index_tool = {
  .name = "codebase_context_index",
  .title = "Index context artifacts",
  .description =
    "Index the declared context artifacts that are new or changed, and drop those no longer "
    "declared. Searching does this by itself.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    NAME_PROPERTY ("Only this artifact") ", " OUTPUT_FORMAT_PROPERTY "}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"project\": " STRING ", \"artifacts\": "
    "{\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {\"name\": " STRING
    ", \"action\": {\"type\": \"string\", \"enum\": [\"indexed\", \"reindexed\", \"unchanged\", "
    "\"failed\"]}, \"state\": " STRING ", \"problem\": " NULLABLE_STRING ", \"files\": " COUNT
    ", \"chunks\": " COUNT "}, \"required\": [\"name\", \"action\", \"state\", \"problem\", "
    "\"files\", \"chunks\"]}}, \"removed\": " STRING_ARRAY "}, "
    "\"required\": [\"project\", \"artifacts\", \"removed\"]}",
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = context_index,
  .format = lode_context_format_index,
};

/* codebase_context_remove ------------------------------------------------------------ */

static JsonObject *
context_remove (LodeToolCall  *call,
                GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  if (project == NULL)
    return NULL;

  return lode_context_report_remove (project, string_argument (call, "name"), error);
}

static const LodeTool context_remove_tool = {
  .name = "codebase_context_remove",
  .title = "Remove context artifacts from the index",
  .description =
    "Remove one context artifact (name) or all from the index; the files stay, and declared "
    "artifacts are indexed again by the next search.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    NAME_PROPERTY ("The artifact to remove; omit for all") ", " OUTPUT_FORMAT_PROPERTY "}, "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"project\": " STRING ", \"removed\": "
    STRING_ARRAY "}, \"required\": [\"project\", \"removed\"]}",
  .flags = LODE_TOOL_DESTRUCTIVE | LODE_TOOL_IDEMPOTENT,
  .func = context_remove,
  .format = lode_context_format_remove,
};

/**
 * lode_context_tools_register:
 * @registry: a #LodeToolRegistry
 *
 * Adds the context artifact tools: codebase_context, codebase_context_search,
 * codebase_context_index and codebase_context_remove.
 */
void
lode_context_tools_register (LodeToolRegistry *registry)
{
  static const LodeTool *tools[] = {
    &context_list_tool,
    &context_search_tool,
    &context_index_tool,
    &context_remove_tool,
  };

  g_return_if_fail (LODE_IS_TOOL_REGISTRY (registry));

  for (guint i = 0; i < G_N_ELEMENTS (tools); i++)
    lode_tool_registry_add (registry, tools[i]);
}
