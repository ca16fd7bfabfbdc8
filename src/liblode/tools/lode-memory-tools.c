/* lode-memory-tools.c — remember, get_memory and forget: the team's memories
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-error.h"
#include "lode-i18n.h"
#include "lode-memory.h"
#include "lode-tools-private.h"

/*
 * Named and shaped as codebase-context's tools (type, category, memory, reason; category,
 * type, query), over lode-memory: the memories live in the project's .lode/memory.json.
 */

#define STRING "{\"type\": \"string\"}"
#define STRING_ARRAY "{\"type\": \"array\", \"items\": {\"type\": \"string\"}}"

#define TYPE_ENUM "[\"decision\", \"gotcha\", \"convention\", \"failure\"]"
#define CATEGORY_ENUM \
  "[\"tooling\", \"architecture\", \"testing\", \"dependencies\", \"conventions\"]"

/**
 * lode_tool_call_dup_project_dir:
 * @call: a call of a tool that reads a project's files, indexed or not
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the project's root (an indexed tree enclosing the
 *   path given stands for it), which must be a directory
 */
char *
lode_tool_call_dup_project_dir (LodeToolCall  *call,
                                GError       **error)
{
  g_autofree char *path = lode_tool_call_dup_project_path (call, error);

  if (path == NULL)
    return NULL;
  if (!g_file_test (path, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                   "%s is not a directory: pass the project's root as projectPath", path);
      return NULL;
    }

  return g_steal_pointer (&path);
}

/**
 * lode_memory_append_markdown:
 * @text: where to append
 * @memory: a memory's JSON form
 *
 * Appends a memory as a list item.
 */
void
lode_memory_append_markdown (GString    *text,
                             JsonObject *memory)
{
  const char *source = json_object_get_string_member (memory, "source");

  g_string_append_printf (text, "- **%s** (%s, confidence %.2f%s): %s\n",
                          json_object_get_string_member (memory, "type"),
                          json_object_get_string_member (memory, "category"),
                          json_object_get_double_member (memory, "confidence"),
                          json_object_get_boolean_member (memory, "stale") ? ", stale" : "",
                          json_object_get_string_member (memory, "memory"));
  if (json_object_get_string_member (memory, "reason")[0] != '\0')
    g_string_append_printf (text, "  Why: %s\n", json_object_get_string_member (memory,
                                                                                 "reason"));
  if (json_object_has_member (memory, "codeChanged"))
    g_string_append_printf (text, "  Changed since: %u of the files it names\n",
                            json_array_get_length (json_object_get_array_member (memory,
                                                                                 "codeChanged")));
  g_string_append_printf (text, "  id `%s`, %s, %.10s\n",
                          json_object_get_string_member (memory, "id"),
                          g_str_equal (source, "git") ? "mined from git" :
                          g_str_equal (source, "user") ? "recorded" : "from codebase-context",
                          json_object_get_string_member (memory, "date"));
}

/* remember -------------------------------------------------------------------------- */

static JsonObject *
remember (LodeToolCall  *call,
          GError       **error)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);
  g_autofree char *root = lode_tool_call_dup_project_dir (call, error);
  g_autoptr(LodeMemory) added = NULL;
  g_autoptr(LodeMemory) existing = NULL;
  g_auto(GStrv) files = NULL;
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  JsonObject *result;
  LodeMemory *memory;

  if (root == NULL)
    return NULL;

  if (json_object_has_member (arguments, "files"))
    {
      JsonArray *array = json_object_get_array_member (arguments, "files");
      g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

      for (guint i = 0; i < json_array_get_length (array); i++)
        g_strv_builder_add (builder, json_array_get_string_element (array, i));
      files = g_strv_builder_end (builder);
    }

  if (!lode_memory_file_add (root, json_object_get_string_member (arguments, "type"),
                             json_object_get_string_member (arguments, "category"),
                             json_object_get_string_member (arguments, "memory"),
                             json_object_get_string_member (arguments, "reason"),
                             (const char *const *) files, &added, &existing, error))
    return NULL;

  memory = added != NULL ? added : existing;
  g_ptr_array_add (one, memory);
  lode_memories_assess (one, root, NULL, g_get_real_time () / G_USEC_PER_SEC);

  result = json_object_new ();
  json_object_set_string_member (result, "projectPath", root);
  json_object_set_string_member (result, "status", added != NULL ? "added" : "duplicate");
  json_object_set_string_member (result, "file", LODE_MEMORY_FILE);
  json_object_set_member (result, "memory", lode_memory_to_json (memory));

  return result;
}

static char *
format_remember (JsonObject *result)
{
  GString *text = g_string_new (NULL);

  if (g_str_equal (json_object_get_string_member (result, "status"), "added"))
    g_string_append_printf (text, "Recorded in %s:\n\n",
                            json_object_get_string_member (result, "file"));
  else
    g_string_append (text, "Not recorded: the same rule is already there.\n\n");
  lode_memory_append_markdown (text, json_object_get_object_member (result, "memory"));

  return g_string_free (text, FALSE);
}

static const LodeTool remember_tool = {
  .name = "remember",
  .title = "Remember a team rule",
  .description =
    "Record a team rule in the project's .lode/memory.json so later sessions follow it. Call it "
    "when the user asks you to remember something or corrects a repeatable mistake; one rule per "
    "call. The same rule twice is refused.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"type\": {\"enum\": " TYPE_ENUM ", \"description\": \"decision (a choice made), gotcha "
    "(what breaks and why), convention (how code is written here) or failure (tried, did "
    "not work)\"}, "
    "\"category\": {\"enum\": " CATEGORY_ENUM ", \"description\": \"What it is about\"}, "
    "\"memory\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 1000, "
    "\"description\": \"The rule, e.g. Use the http wrapper in src/net/http.ts, not fetch\"}, "
    "\"reason\": {\"type\": \"string\", \"maxLength\": 2000, \"description\": \"Why, or what "
    "breaks otherwise\"}, "
    "\"files\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}, "
    "\"description\": \"Files it is about, relative to the root (paths in memory are found "
    "too)\"}, " PROJECT_PATH_PROPERTY "}, "
    "\"required\": [\"type\", \"category\", \"memory\", \"reason\"], "
    "\"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"projectPath\": " STRING ", \"status\": "
    "{\"enum\": [\"added\", \"duplicate\"]}, \"file\": " STRING ", \"memory\": "
    LODE_MEMORY_SCHEMA "}, \"required\": [\"projectPath\", \"status\", \"file\", \"memory\"]}",
  .flags = LODE_TOOL_IDEMPOTENT,
  .func = remember,
  .format = format_remember,
};

/* get_memory ------------------------------------------------------------------------ */

#define GET_MEMORY_DEFAULT_LIMIT 20

static JsonObject *
get_memory (LodeToolCall  *call,
            GError       **error)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);
  g_autofree char *root = lode_tool_call_dup_project_dir (call, error);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) memories = NULL;
  g_autoptr(GPtrArray) found = NULL;
  g_autoptr(GArray) scores = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  const char *query = json_object_get_string_member_with_default (arguments, "query", NULL);
  guint limit = json_object_get_int_member_with_default (arguments, "limit",
                                                         GET_MEMORY_DEFAULT_LIMIT);

  if (root == NULL)
    return NULL;

  memories = lode_memories_load (root, TRUE, lode_tool_call_get_cancellable (call), notes,
                                 error);
  if (memories == NULL)
    return NULL;
  found = lode_memories_query (memories,
                               json_object_get_string_member_with_default (arguments, "type",
                                                                           NULL),
                               json_object_get_string_member_with_default (arguments,
                                                                           "category", NULL),
                               query, &scores);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "projectPath");
  json_builder_add_string_value (builder, root);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, found->len);
  json_builder_set_member_name (builder, "memories");
  json_builder_begin_array (builder);
  for (guint i = 0; i < found->len && i < limit; i++)
    {
      g_autoptr(JsonNode) memory = lode_memory_to_json (g_ptr_array_index (found, i));

      if (query != NULL)
        json_object_set_double_member (json_node_get_object (memory), "score",
                                       g_array_index (scores, double, i));
      json_builder_add_value (builder, g_steal_pointer (&memory));
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (notes, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  node = json_builder_get_root (builder);
  return json_node_dup_object (node);
}

static char *
format_get_memory (JsonObject *result)
{
  JsonArray *memories = json_object_get_array_member (result, "memories");
  JsonArray *notes = json_object_get_array_member (result, "notes");
  guint n = json_array_get_length (memories);
  guint total = json_object_get_int_member (result, "total");
  GString *text = g_string_new ("## ");

  lode_append_count (text, total, "%u memory", "%u memories");
  if (n < total)
    g_string_append_printf (text, " (the first %u)", n);
  g_string_append (text, "\n\n");
  if (total == 0)
    g_string_append (text, "None recorded yet. Call remember when the user states a rule "
                     "or corrects a repeatable mistake.\n");
  for (guint i = 0; i < n; i++)
    lode_memory_append_markdown (text, json_array_get_object_element (memories, i));
  for (guint i = 0; i < json_array_get_length (notes); i++)
    g_string_append_printf (text, "\n> %s\n", json_array_get_string_element (notes, i));

  return g_string_free (text, FALSE);
}

static const LodeTool get_memory_tool = {
  .name = "get_memory",
  .title = "Team memories",
  .description =
    "The team's decisions, gotchas, conventions and failures: recorded (remember), from "
    ".codebase-context/memory.json, and mined from git (reverts, migrations, deprecations, "
    "never/always). Confidence falls with age and when the code a memory names changes. Call it "
    "before choosing a library, pattern or design.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"category\": {\"enum\": " CATEGORY_ENUM ", \"description\": \"Only this category\"}, "
    "\"type\": {\"enum\": " TYPE_ENUM ", \"description\": \"Only this type\"}, "
    "\"query\": {\"type\": \"string\", \"maxLength\": 1000, \"description\": \"Words to "
    "search for; best matches first (else newest first)\"}, "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 200, \"default\": 20, "
    "\"description\": \"Memories to return\"}, " PROJECT_PATH_PROPERTY ", "
    OUTPUT_FORMAT_PROPERTY "}, \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"projectPath\": " STRING ", \"total\": "
    "{\"type\": \"integer\"}, \"memories\": {\"type\": \"array\", \"items\": "
    LODE_MEMORY_SCHEMA "}, \"notes\": " STRING_ARRAY "}, "
    "\"required\": [\"projectPath\", \"total\", \"memories\", \"notes\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .func = get_memory,
  .format = format_get_memory,
};

/* forget ---------------------------------------------------------------------------- */

static JsonObject *
forget (LodeToolCall  *call,
        GError       **error)
{
  g_autofree char *root = lode_tool_call_dup_project_dir (call, error);
  g_autoptr(LodeMemory) removed = NULL;
  g_autoptr(GPtrArray) one = g_ptr_array_new ();
  JsonObject *result;

  if (root == NULL)
    return NULL;

  removed = lode_memory_file_remove (root,
                                     json_object_get_string_member (lode_tool_call_get_arguments (call),
                                                                    "id"),
                                     error);
  if (removed == NULL)
    return NULL;
  g_ptr_array_add (one, removed);
  lode_memories_assess (one, root, NULL, g_get_real_time () / G_USEC_PER_SEC);

  result = json_object_new ();
  json_object_set_string_member (result, "projectPath", root);
  json_object_set_member (result, "removed", lode_memory_to_json (removed));

  return result;
}

static char *
format_forget (JsonObject *result)
{
  GString *text = g_string_new ("Removed from " LODE_MEMORY_FILE ":\n\n");

  lode_memory_append_markdown (text, json_object_get_object_member (result, "removed"));
  return g_string_free (text, FALSE);
}

static const LodeTool forget_tool = {
  .name = "forget",
  .title = "Forget a team memory",
  .description =
    "Remove a memory that no longer holds from the project's .lode/memory.json, by the id "
    "get_memory shows. Memories mined from git or read from codebase-context's file cannot "
    "be removed here.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {\"id\": {\"type\": \"string\", \"minLength\": 1, "
    "\"maxLength\": 64, \"description\": \"The memory's id\"}, " PROJECT_PATH_PROPERTY "}, "
    "\"required\": [\"id\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {\"projectPath\": " STRING ", \"removed\": "
    LODE_MEMORY_SCHEMA "}, \"required\": [\"projectPath\", \"removed\"]}",
  .flags = LODE_TOOL_DESTRUCTIVE | LODE_TOOL_IDEMPOTENT,
  .func = forget,
  .format = format_forget,
};

/**
 * lode_memory_tools_register:
 * @registry: a #LodeToolRegistry
 *
 * Adds remember, get_memory and forget.
 */
void
lode_memory_tools_register (LodeToolRegistry *registry)
{
  g_return_if_fail (LODE_IS_TOOL_REGISTRY (registry));

  lode_tool_registry_add (registry, &remember_tool);
  lode_tool_registry_add (registry, &get_memory_tool);
  lode_tool_registry_add (registry, &forget_tool);
}
