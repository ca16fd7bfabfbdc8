/* lode-knowledge-tools.c — get_team_patterns, get_style_guide, get_codebase_metadata
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-error.h"
#include "lode-metadata.h"
#include "lode-patterns.h"
#include "lode-style-guide.h"
#include "lode-tools-private.h"

/*
 * codebase-context's names and arguments (category; query, category; none) over
 * lode-patterns, lode-style-guide and lode-metadata.
 */

#define STRING "{\"type\": \"string\"}"
#define INTEGER "{\"type\": \"integer\"}"
#define BOOLEAN "{\"type\": \"boolean\"}"
#define STRING_ARRAY "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}"

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

/* get_team_patterns ------------------------------------------------------------------ */

static JsonObject *
get_team_patterns (LodeToolCall  *call,
                   GError       **error)
{
  const char *asked = string_argument (call, "category");
  const char *category = asked != NULL ? lode_pattern_category_for (asked) : "all";
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodePatterns) patterns = NULL;

  if (category == NULL)
    {
      g_autofree char *names = g_strjoinv (", ", (char **) lode_pattern_categories ());

      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Unknown category “%s”; use all or one of: %s", asked, names);
      return NULL;
    }
  project = open_indexed (call, error);
  if (project == NULL)
    return NULL;
  patterns = lode_patterns_for_project (project, lode_tool_call_get_cancellable (call), error);
  if (patterns == NULL)
    return NULL;

  return lode_patterns_report (patterns, lode_project_get_root (project), category);
}

static const LodeTool get_team_patterns_tool = {
  .name = "get_team_patterns",
  .title = "Team patterns",
  .description =
    "For each concern (HTTP client, state, testing, mocking, logging, DI, errors, dates, ORM, "
    "validation, CLI, async runtime): the alternatives used, in how many files, rising or "
    "declining, the one to follow, golden files, and conflicts. Call it before adding such code.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"category\": {\"type\": \"string\", \"description\": \"all (default), http-client, "
    "state-management, testing, mocking, logging, dependency-injection, error-handling, "
    "date-time, orm, validation, cli or async-runtime\"}, "
    PROJECT_PATH_PROPERTY ", " OUTPUT_FORMAT_PROPERTY "}, \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"projectPath\": " STRING ", "
    "\"patterns\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"category\": " STRING ", \"languages\": " STRING ", \"files\": " INTEGER ", "
    "\"preferred\": " STRING ", "
    "\"conflict\": " BOOLEAN ", \"alternatives\": {\"type\": \"array\", \"items\": "
    "{\"type\": \"object\", \"properties\": {\"name\": " STRING ", \"files\": " INTEGER ", "
    "\"share\": {\"type\": \"number\"}, \"trend\": {\"enum\": [\"rising\", \"declining\", "
    "\"stable\"]}, \"lastChanged\": " STRING ", \"examples\": " STRING_ARRAY "}, "
    "\"required\": [\"name\", \"files\", \"share\", \"trend\", \"lastChanged\", \"examples\"]}}}, "
    "\"required\": [\"category\", \"languages\", \"files\", \"conflict\", "
    "\"alternatives\"]}}, "
    "\"goldenFiles\": " STRING_ARRAY ", \"conflicts\": {\"type\": \"array\", \"items\": "
    "{\"type\": \"object\", \"properties\": {\"category\": " STRING ", \"languages\": "
    STRING ", \"alternatives\": " STRING_ARRAY ", \"note\": " STRING "}, \"required\": "
    "[\"category\", \"languages\", \"alternatives\", \"note\"]}}}, \"required\": [\"projectPath\", \"patterns\", \"goldenFiles\", "
    "\"conflicts\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = get_team_patterns,
  .format = lode_patterns_format,
};

/* get_style_guide -------------------------------------------------------------------- */

static JsonObject *
get_style_guide (LodeToolCall  *call,
                 GError       **error)
{
  g_autofree char *root = lode_tool_call_dup_project_dir (call, error);

  if (root == NULL)
    return NULL;

  return lode_style_guide_report (root, string_argument (call, "query"),
                                  string_argument (call, "category"),
                                  json_object_get_int_member_with_default (lode_tool_call_get_arguments (call),
                                                                           "limit", 50));
}

static const LodeTool get_style_guide_tool = {
  .name = "get_style_guide",
  .title = "Style guide",
  .description =
    "The rules the project states, each with file and line: .editorconfig, ESLint, Prettier, "
    "clang-format, rustfmt, Ruff, golangci-lint settings, and CONTRIBUTING and style guide rules. "
    "Call it before writing code.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"query\": {\"type\": \"string\", \"maxLength\": 1000, \"description\": \"Words: only "
    "rules holding one (indent, naming, tests…)\"}, "
    "\"category\": {\"enum\": [\"formatting\", \"linting\", \"naming\", \"testing\", "
    "\"errors\", \"documentation\", \"commits\", \"architecture\", \"general\"], "
    "\"description\": \"Only this category\"}, "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 500, \"default\": 50, "
    "\"description\": \"Rules at most\"}, " PROJECT_PATH_PROPERTY ", " OUTPUT_FORMAT_PROPERTY
    "}, \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"projectPath\": " STRING ", \"total\": " INTEGER
    ", \"sources\": " STRING_ARRAY ", \"categories\": {\"type\": \"object\"}, \"rules\": "
    "{\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {\"category\": "
    STRING ", \"rule\": " STRING ", \"source\": " STRING ", \"line\": " INTEGER ", \"tool\": "
    STRING ", \"scope\": " STRING "}, \"required\": [\"category\", \"rule\", \"source\", "
    "\"line\", \"tool\"]}}, \"notes\": " STRING_ARRAY "}, \"required\": [\"projectPath\", "
    "\"total\", \"sources\", \"categories\", \"rules\", \"notes\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = get_style_guide,
  .format = lode_style_guide_format,
};

/* get_codebase_metadata --------------------------------------------------------------- */

static JsonObject *
get_codebase_metadata (LodeToolCall  *call,
                       GError       **error)
{
  g_autoptr(LodeProject) project = open_indexed (call, error);

  if (project == NULL)
    return NULL;

  return lode_metadata_report (project, lode_tool_call_get_cancellable (call), error);
}

static const LodeTool get_codebase_metadata_tool = {
  .name = "get_codebase_metadata",
  .title = "Project metadata",
  .description =
    "What the project is made of: languages and shares, size, manifests (package.json, go.mod, "
    "Cargo.toml, pyproject, requirements, composer, Maven, Gradle, Gemfile, meson, CMake, .csproj) "
    "with dependencies, frameworks, entry points, test layout.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {" PROJECT_PATH_PROPERTY ", "
    OUTPUT_FORMAT_PROPERTY "}, \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"projectPath\": " STRING ", \"name\": " STRING
    ", \"size\": {\"type\": \"object\", \"properties\": {\"files\": " INTEGER ", \"lines\": "
    INTEGER ", \"bytes\": " INTEGER "}}, \"languages\": {\"type\": \"array\", \"items\": "
    "{\"type\": \"object\", \"properties\": {\"language\": " STRING ", \"files\": " INTEGER
    ", \"lines\": " INTEGER ", \"share\": {\"type\": \"number\"}, \"code\": " BOOLEAN "}}}, "
    "\"manifests\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": "
    "{\"path\": " STRING ", \"kind\": " STRING ", \"name\": " STRING ", \"version\": " STRING
    ", \"dependencies\": " INTEGER "}}}, \"dependencies\": {\"type\": \"array\", \"items\": "
    "{\"type\": \"object\", \"properties\": {\"name\": " STRING ", \"version\": " STRING
    ", \"scope\": " STRING ", \"manifest\": " STRING "}}}, \"dependencyCount\": " INTEGER
    ", \"frameworks\": {\"type\": \"array\", \"items\": {\"type\": \"object\", "
    "\"properties\": {\"name\": " STRING ", \"evidence\": " STRING "}}}, \"entryPoints\": "
    STRING_ARRAY ", \"tests\": {\"type\": \"object\", \"properties\": {\"files\": " INTEGER
    ", \"directories\": " STRING_ARRAY ", \"naming\": " STRING_ARRAY ", \"frameworks\": "
    STRING_ARRAY "}}, \"notes\": " STRING_ARRAY "}, \"required\": [\"projectPath\", \"name\", "
    "\"size\", \"languages\", \"manifests\", \"dependencies\", \"dependencyCount\", "
    "\"frameworks\", \"entryPoints\", \"tests\", \"notes\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = get_codebase_metadata,
  .format = lode_metadata_format,
};

/**
 * lode_knowledge_tools_register:
 * @registry: a #LodeToolRegistry
 *
 * Adds get_team_patterns, get_style_guide and get_codebase_metadata.
 */
void
lode_knowledge_tools_register (LodeToolRegistry *registry)
{
  g_return_if_fail (LODE_IS_TOOL_REGISTRY (registry));

  lode_tool_registry_add (registry, &get_team_patterns_tool);
  lode_tool_registry_add (registry, &get_style_guide_tool);
  lode_tool_registry_add (registry, &get_codebase_metadata_tool);
}
