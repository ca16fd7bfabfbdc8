/* lode-tools-private.h — what the tool families of liblode share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-tool-registry.h"

G_BEGIN_DECLS

#define PROJECT_PATH_PROPERTY \
  "\"projectPath\": {\"type\": \"string\", \"minLength\": 1, \"description\": " \
  "\"The project's absolute path (default: the client's root)\"}"

#define PROJECT_ONLY_INPUT \
  "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY "}, " \
  "\"additionalProperties\": false}"

/* `output_format`: the text content as markdown (default) or as the structured result's
 * JSON; the registry honours it (lode_tool_registry_call_async()). */
#define OUTPUT_FORMAT_PROPERTY \
  "\"output_format\": {\"type\": \"string\", \"enum\": [\"markdown\", \"json\"], " \
  "\"default\": \"markdown\", \"description\": \"Text as markdown, or the result as " \
  "JSON\"}"

/* A memory's JSON form (lode_memory_to_json()). */
#define LODE_MEMORY_SCHEMA \
  "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\"}, " \
  "\"type\": {\"type\": \"string\"}, \"category\": {\"type\": \"string\"}, " \
  "\"memory\": {\"type\": \"string\"}, \"reason\": {\"type\": \"string\"}, " \
  "\"date\": {\"type\": \"string\"}, \"source\": {\"enum\": [\"user\", " \
  "\"codebase-context\", \"git\"]}, \"commit\": {\"type\": \"string\"}, " \
  "\"files\": {\"type\": \"array\"}, \"confidence\": {\"type\": \"number\"}, " \
  "\"stale\": {\"type\": \"boolean\"}, \"codeChanged\": {\"type\": \"array\"}, " \
  "\"codeGone\": {\"type\": \"array\"}}, \"required\": [\"id\", \"type\", \"category\", " \
  "\"memory\", \"reason\", \"date\", \"source\", \"confidence\", \"stale\"]}"

/* codebase_search's preflight card (lode-preflight.c). */
#define LODE_PREFLIGHT_SCHEMA \
  "{\"type\": \"object\", \"properties\": {\"intent\": {\"type\": \"string\"}, " \
  "\"ready\": {\"type\": \"boolean\"}, \"nextAction\": {\"type\": \"string\"}, " \
  "\"evidence\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": " \
  "{\"check\": {\"type\": \"string\"}, \"status\": {\"enum\": [\"pass\", \"warn\", " \
  "\"fail\"]}, \"detail\": {\"type\": \"string\"}}}}, \"follow\": {\"type\": \"array\"}, " \
  "\"avoid\": {\"type\": \"array\"}, \"bestExample\": {\"type\": \"string\"}, " \
  "\"impact\": {\"type\": \"object\", \"properties\": {\"files\": {\"type\": \"array\"}, " \
  "\"dependents\": {\"type\": \"integer\"}}}, \"memories\": {\"type\": \"array\"}, " \
  "\"whatWouldHelp\": {\"type\": \"array\"}}, \"required\": [\"intent\", \"ready\", " \
  "\"nextAction\", \"evidence\", \"follow\", \"avoid\", \"impact\", \"memories\"]}"

char *lode_tool_call_dup_project_dir (LodeToolCall  *call,
                                      GError       **error);
void  lode_memory_append_markdown    (GString       *text,
                                      JsonObject    *memory);

/* Each family adds its tools; lode_tools_new_registry() calls them all. */
void lode_codebase_tools_register (LodeToolRegistry *registry);
void lode_graph_tools_register    (LodeToolRegistry *registry);
void lode_symbol_tools_register   (LodeToolRegistry *registry);
void lode_context_tools_register  (LodeToolRegistry *registry);
void lode_store_tools_register    (LodeToolRegistry *registry);
void lode_memory_tools_register   (LodeToolRegistry *registry);
void lode_knowledge_tools_register (LodeToolRegistry *registry);

G_END_DECLS
