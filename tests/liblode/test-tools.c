/* test-tools.c — the tool registry, its schema validation, background jobs and every tool
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <unistd.h>

#include "lode.h"
#include "test-damage.h"
#include "test-helpers.h"

typedef struct
{
  LodeEngine       *engine;
  LodeToolRegistry *registry;
  char             *corpus;
} ToolsFixture;

static void
tools_setup (ToolsFixture  *fixture,
             gconstpointer  data)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autofree char *corpus = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "corpus",
                                                  NULL);

  /* G_TEST_OPTION_ISOLATE_DIRS gives each test a private, self-cleaning cache dir. */
  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data", NULL);

  fixture->engine = lode_engine_new (config);
  fixture->registry = lode_tools_new_registry (fixture->engine);
  fixture->corpus = g_canonicalize_filename (corpus, NULL);
}

static void
tools_teardown (ToolsFixture  *fixture,
                gconstpointer  data)
{
  g_clear_object (&fixture->registry);
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->corpus, g_free);
}

/* A tree big enough that indexing it takes a while: cancellation and joining happen while the
 * job runs, not after it. */
static char *
make_big_tree (void)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "big-tree", NULL);

  for (guint d = 0; d < 40; d++)
    {
      g_autofree char *dir = g_strdup_printf ("%s/module%u", root, d);

      g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
      for (guint f = 0; f < 50; f++)
        {
          g_autofree char *path = g_strdup_printf ("%s/unit%u.c", dir, f);
          g_autoptr(GString) text = g_string_new (NULL);
          g_autoptr(GError) error = NULL;

          for (guint fn = 0; fn < 20; fn++)
            g_string_append_printf (text, "int\nmodule%u_unit%u_function%u (int value)\n"
                                    "{\n  return value * %u + %u;\n}\n\n", d, f, fn, fn, f);
          g_file_set_contents (path, text->str, text->len, &error);
          g_assert_no_error (error);
        }
    }

  return g_steal_pointer (&root);
}

static JsonObject *
arguments_from (const char *json)
{
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;

  node = json_from_string (json, &error);
  g_assert_no_error (error);
  return json_node_dup_object (node);
}

static void
assert_valid_output (ToolsFixture *fixture,
                     const char   *tool,
                     JsonObject   *structured)
{
  g_autoptr(JsonNode) instance = json_node_init_object (json_node_alloc (), structured);
  g_autoptr(GError) error = NULL;

  lode_json_schema_validate (lode_tool_registry_get_output_schema (fixture->registry, tool),
                             instance, "result", &error);
  g_assert_no_error (error);
}

/* Calls @tool with @json arguments; checks success and the output schema. */
static LodeToolResult *
call_ok (ToolsFixture *fixture,
         const char   *tool,
         const char   *json,
         const char   *project)
{
  g_autoptr(JsonObject) arguments = arguments_from (json);
  g_autoptr(GError) error = NULL;
  LodeToolResult *result;

  result = lode_tool_registry_call (fixture->registry, tool, arguments, project, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  if (result->is_error)
    g_error ("%s failed: %s", tool, result->text);
  g_assert_nonnull (result->structured);
  g_assert_nonnull (result->text);
  g_assert_cmpstr (result->text, !=, "");
  assert_valid_output (fixture, tool, result->structured);

  return result;
}

/* Calls @tool and expects an is_error result whose message contains @needle. */
static void
call_fails (ToolsFixture *fixture,
            const char   *tool,
            const char   *json,
            const char   *project,
            const char   *needle)
{
  g_autoptr(JsonObject) arguments = arguments_from (json);
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = lode_tool_registry_call (fixture->registry, tool, arguments, project, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  g_assert_true (result->is_error);
  g_assert_null (result->structured);
  if (strstr (result->text, needle) == NULL)
    g_error ("%s: expected “%s” in “%s”", tool, needle, result->text);
}

static gboolean
schema_error (const char *schema,
              const char *instance,
              const char *needle)
{
  g_autoptr(JsonNode) s = json_from_string (schema, NULL);
  g_autoptr(JsonNode) i = json_from_string (instance, NULL);
  g_autoptr(GError) error = NULL;

  if (lode_json_schema_validate (s, i, NULL, &error))
    return needle == NULL;

  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  if (needle == NULL || strstr (error->message, needle) == NULL)
    g_error ("expected “%s” in “%s”", needle, error->message);
  return TRUE;
}

static void
test_schema (void)
{
  const char *schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"query\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 5}, "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 50}, "
    "\"score\": {\"type\": \"number\", \"minimum\": 0}, "
    "\"mode\": {\"type\": \"string\", \"enum\": [\"a\", \"b\"]}, "
    "\"paths\": {\"type\": \"array\", \"items\": {\"type\": \"string\"}}, "
    "\"inner\": {\"type\": \"object\", \"properties\": {\"flag\": {\"type\": \"boolean\"}}, "
    "\"required\": [\"flag\"]}}, "
    "\"required\": [\"query\"], \"additionalProperties\": false}";

  g_assert_true (schema_error (schema, "{\"query\": \"x\"}", NULL));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"limit\": 3.0, \"score\": 2}", NULL));
  g_assert_true (schema_error (schema, "{\"query\": \"ééééé\"}", NULL));
  g_assert_true (schema_error (schema, "[]", "must be an object, not an array"));
  g_assert_true (schema_error (schema, "{}", "Missing required argument “query” (a string)"));
  g_assert_true (schema_error (schema, "{\"query\": 3}", "“query” must be a string, not an "
                               "integer"));
  g_assert_true (schema_error (schema, "{\"query\": \"\"}", "“query” must not be empty"));
  g_assert_true (schema_error (schema, "{\"query\": \"toolong\"}", "at most 5 characters"));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"limit\": 80}",
                               "“limit” must be at most 50 (got 80)"));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"limit\": 0}", "at least 1"));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"limit\": 2.5}",
                               "“limit” must be an integer, not a number"));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"mode\": \"c\"}",
                               "“mode” must be one of: a, b (got “c”)"));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"paths\": [\"a\", 1]}",
                               "“paths[1]” must be a string"));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"inner\": {}}",
                               "Missing required argument “inner.flag” (a boolean)"));
  g_assert_true (schema_error (schema, "{\"query\": \"x\", \"lmit\": 3}",
                               "Unknown argument “lmit”; expected one of: query, limit"));
}

/* Appends to @names every property name declared anywhere in @schema. */
static void
collect_property_names (JsonNode  *schema,
                        GPtrArray *names)
{
  if (JSON_NODE_HOLDS_ARRAY (schema))
    {
      JsonArray *array = json_node_get_array (schema);

      for (guint i = 0; i < json_array_get_length (array); i++)
        collect_property_names (json_array_get_element (array, i), names);
    }
  else if (JSON_NODE_HOLDS_OBJECT (schema))
    {
      JsonObject *object = json_node_get_object (schema);
      g_autoptr(GList) members = json_object_get_members (object);
      JsonNode *properties = json_object_get_member (object, "properties");

      if (properties != NULL && JSON_NODE_HOLDS_OBJECT (properties))
        {
          g_autoptr(GList) property_names =
            json_object_get_members (json_node_get_object (properties));

          for (GList *l = property_names; l != NULL; l = l->next)
            g_ptr_array_add (names, l->data);
        }
      for (GList *l = members; l != NULL; l = l->next)
        collect_property_names (json_object_get_member (object, l->data), names);
    }
}

/* One naming convention for the codebase_* tools' results (camelCase, as their arguments);
 * the RagCode-shaped symbol tools answer with RagCode's snake_case descriptors. */
static void
test_result_names (ToolsFixture  *fixture,
                   gconstpointer  data)
{
  g_autoptr(GPtrArray) tools = lode_tool_registry_list (fixture->registry);

  for (guint i = 0; i < tools->len; i++)
    {
      const LodeTool *tool = g_ptr_array_index (tools, i);
      g_autoptr(GPtrArray) names = g_ptr_array_new ();

      if (!g_str_has_prefix (tool->name, "codebase_"))
        continue;
      collect_property_names (lode_tool_registry_get_output_schema (fixture->registry,
                                                                    tool->name), names);
      g_assert_cmpuint (names->len, >, 0);
      for (guint n = 0; n < names->len; n++)
        if (strchr (g_ptr_array_index (names, n), '_') != NULL)
          g_error ("%s's result has the member “%s”: codebase_* results are camelCase",
                   tool->name, (const char *) g_ptr_array_index (names, n));
    }
}

static void
test_registry (ToolsFixture  *fixture,
               gconstpointer  data)
{
  const char *expected[] = {
    "codebase_search", "codebase_grep", "codebase_index", "codebase_update", "codebase_status",
    "codebase_stop", "codebase_remove", "codebase_watch", "codebase_list_projects",
    "codebase_health", "codebase_about", "codebase_graph_build", "codebase_graph_query",
    "codebase_graph_stats", "codebase_graph_circular", "codebase_graph_visualize",
    "codebase_graph_status", "codebase_graph_remove", "codebase_impact", "codebase_migrate",
    "codebase_branches",
    "find_type_definition", "get_function_details", "list_package_exports",
    "codebase_symbol_references", "codebase_symbol", "codebase_symbols", "codebase_flow",
    "codebase_trace", "codebase_context", "codebase_context_search",
    "codebase_context_index", "codebase_context_remove", "remember", "get_memory", "forget",
    "get_team_patterns", "get_style_guide", "get_codebase_metadata",
  };
  g_autoptr(GPtrArray) tools = lode_tool_registry_list (fixture->registry);

  g_assert_cmpuint (tools->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      const LodeTool *tool = lode_tool_registry_lookup (fixture->registry, expected[i]);
      JsonNode *input;
      JsonNode *output;

      g_assert_nonnull (tool);
      g_assert_true (g_ptr_array_find (tools, tool, NULL));
      g_assert_nonnull (tool->title);
      g_assert_nonnull (tool->description);
      input = lode_tool_registry_get_input_schema (fixture->registry, expected[i]);
      output = lode_tool_registry_get_output_schema (fixture->registry, expected[i]);
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (input), "type"), ==,
                       "object");
      g_assert_cmpstr (json_object_get_string_member (json_node_get_object (output), "type"), ==,
                       "object");
      /* Read-only tools are idempotent and never destructive. */
      if (tool->flags & LODE_TOOL_READ_ONLY)
        g_assert_true ((tool->flags & (LODE_TOOL_IDEMPOTENT | LODE_TOOL_DESTRUCTIVE)) ==
                       LODE_TOOL_IDEMPOTENT);
    }

  g_assert_true (lode_tool_registry_lookup (fixture->registry, "codebase_remove")->flags &
                 LODE_TOOL_DESTRUCTIVE);
  g_assert_true (lode_tool_registry_lookup (fixture->registry, "codebase_graph_remove")->flags &
                 LODE_TOOL_DESTRUCTIVE);
  g_assert_true (lode_tool_registry_lookup (fixture->registry, "codebase_context_remove")->flags &
                 LODE_TOOL_DESTRUCTIVE);
  g_assert_null (lode_tool_registry_lookup (fixture->registry, "nope"));
}

static void
test_unknown_tool (ToolsFixture  *fixture,
                   gconstpointer  data)
{
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(GError) error = NULL;

  result = lode_tool_registry_call (fixture->registry, "codebase_nope", NULL, NULL, NULL,
                                    &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_assert_null (result);
  g_assert_nonnull (strstr (error->message, "codebase_nope"));
}

static void
test_invalid_arguments (ToolsFixture  *fixture,
                        gconstpointer  data)
{
  call_fails (fixture, "codebase_search", "{}", fixture->corpus,
              "Missing required argument “query”");
  call_fails (fixture, "codebase_search", "{\"query\": \"x\", \"limit\": 101}", fixture->corpus,
              "“limit” must be at most 100");
  call_fails (fixture, "codebase_search", "{\"query\": \"x\", \"mode\": \"fuzzy\"}",
              fixture->corpus, "hybrid, lexical, semantic");
  call_fails (fixture, "codebase_status", "{\"projectPath\": \"relative/dir\"}", NULL,
              "must be an absolute path");
  call_fails (fixture, "codebase_status", "{\"projectPath\": \"/nonexistent/lode/tree\"}", NULL,
              "/nonexistent/lode/tree");
  call_fails (fixture, "codebase_about", "{\"extra\": 1}", NULL, "Unknown argument “extra”");
  call_fails (fixture, "codebase_search", "{\"query\": \"x\"}", fixture->corpus,
              "call codebase_index first");

  /* The home directory (like /) is refused as a project unless confirmed. */
  {
    g_autofree char *home = NULL;
    g_autofree char *json = NULL;
    g_autoptr(LodeToolResult) result = NULL;

    g_assert_cmpint (g_mkdir_with_parents (g_get_home_dir (), 0755), ==, 0);
    home = realpath (g_get_home_dir (), NULL);
    json = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": true}", home);
    call_fails (fixture, "codebase_index", json, NULL, "confirm: true");
    g_free (json);
    json = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": true, \"confirm\": true}",
                            home);
    result = call_ok (fixture, "codebase_index", json, NULL);
    g_assert_nonnull (result);
  }

  /* Watching it too, also when it is the working directory of a server asked for no
   * project in particular (an agent started from the home directory). */
  {
    g_autofree char *home = realpath (g_get_home_dir (), NULL);
    g_autofree char *cwd = g_get_current_dir ();
    g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\", "
                                             "\"action\": \"start\"}", home);
    g_autoptr(LodeToolResult) status = NULL;
    g_autoptr(LodeToolResult) result = NULL;

    call_fails (fixture, "codebase_watch", json, NULL, "confirm: true");
    g_assert_cmpint (g_chdir (home), ==, 0);
    call_fails (fixture, "codebase_watch", "{\"action\": \"start\"}", NULL, "home directory");
    status = call_ok (fixture, "codebase_watch", "{\"action\": \"status\"}", NULL);
    g_assert_false (json_object_get_boolean_member (status->structured, "watching"));
    result = call_ok (fixture, "codebase_watch", "{\"action\": \"start\", \"confirm\": true}",
                      NULL);
    g_assert_true (json_object_get_boolean_member (result->structured, "watching"));
    g_clear_pointer (&result, lode_tool_result_free);
    result = call_ok (fixture, "codebase_watch", "{\"action\": \"stop\"}", NULL);
    g_assert_cmpint (g_chdir (cwd), ==, 0);
  }

  /* Arguments over 1 MiB that no schema keyword bounds (a path has no maxLength): refused
   * like the daemon refuses them, so that both paths answer the same. */
  {
    g_autofree char *path = g_strnfill (LODE_TOOL_ARGUMENTS_MAX_BYTES, 'p');
    g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"/%s\"}", path);
    g_autoptr(GError) error = NULL;
    g_autoptr(JsonObject) arguments = arguments_from (json);

    call_fails (fixture, "codebase_status", json, NULL, "the limit is 1048576");
    g_assert_false (lode_tool_registry_check_arguments (fixture->registry, "codebase_status",
                                                        arguments, &error));
    g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
    g_clear_error (&error);
    g_assert_false (lode_tool_registry_check_arguments (fixture->registry, "codebase_nope",
                                                        NULL, &error));
    g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
    g_clear_error (&error);
    g_assert_true (lode_tool_registry_check_arguments (fixture->registry, "codebase_about",
                                                       NULL, &error));
    g_assert_no_error (error);
  }
}

static void
test_lifecycle (ToolsFixture  *fixture,
                gconstpointer  data)
{
  g_autoptr(LodeToolResult) status = NULL;
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) search = NULL;
  g_autoptr(LodeToolResult) semantic = NULL;
  g_autoptr(LodeToolResult) list = NULL;
  g_autoptr(LodeToolResult) stop = NULL;
  g_autoptr(LodeToolResult) removed = NULL;
  g_autoptr(LodeToolResult) watch = NULL;
  g_autoptr(LodeToolResult) watched = NULL;
  g_autoptr(LodeToolResult) after = NULL;
  g_autofree char *path_args = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->corpus);
  JsonObject *job;
  JsonArray *results;
  JsonObject *mode;
  JsonObject *semantic_status;

  /* The default project stands in for a missing projectPath. */
  status = call_ok (fixture, "codebase_status", "{}", fixture->corpus);
  g_assert_false (json_object_get_boolean_member (status->structured, "indexed"));
  g_assert_nonnull (strstr (status->text, "codebase_index"));

  update = call_ok (fixture, "codebase_update", path_args, NULL);
  job = json_object_get_object_member (update->structured, "job");
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "succeeded");
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (job, "report"),
                                               "files"), >, 10);

  g_clear_pointer (&status, lode_tool_result_free);
  status = call_ok (fixture, "codebase_status", path_args, NULL);
  g_assert_true (json_object_get_boolean_member (status->structured, "indexed"));
  g_assert_cmpstr (json_object_get_string_member (status->structured, "state"), ==, "ready");
  g_assert_false (json_object_get_boolean_member (status->structured, "indexing"));
  g_assert_cmpint (json_object_get_int_member (status->structured, "chunks"), >, 10);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (status->structured,
                                                                         "languages")), >, 3);
  semantic_status = json_object_get_object_member (status->structured, "semantic");
  g_assert_false (json_object_get_boolean_member (semantic_status, "available"));
  g_assert_cmpint (json_object_get_int_member (semantic_status, "embeddedChunks"), ==, 0);
  g_assert_nonnull (strstr (json_object_get_string_member (semantic_status, "notice"),
                            "lode model pull"));

  search = call_ok (fixture, "codebase_search",
                    "{\"query\": \"parse configuration\", \"limit\": 3, \"mode\": \"lexical\"}",
                    fixture->corpus);
  results = json_object_get_array_member (search->structured, "results");
  g_assert_cmpuint (json_array_get_length (results), >, 0);
  g_assert_cmpuint (json_array_get_length (results), <=, 3);
  mode = json_object_get_object_member (search->structured, "mode");
  g_assert_cmpstr (json_object_get_string_member (mode, "used"), ==, "lexical");
  g_assert_false (json_object_has_member (mode, "reason"));
  g_assert_nonnull (strstr (search->text,
                            json_object_get_string_member (json_array_get_object_element (results,
                                                                                          0),
                                                           "path")));

  /* No embedding model here: hybrid (the default) runs BM25 alone and says why; semantic
   * search cannot run at all, and the error says how to get a model. */
  semantic = call_ok (fixture, "codebase_search",
                      "{\"query\": \"parse configuration\", "
                      "\"languageFilter\": \"python\", \"fileFilter\": \"*.py\"}",
                      fixture->corpus);
  mode = json_object_get_object_member (semantic->structured, "mode");
  g_assert_cmpstr (json_object_get_string_member (mode, "requested"), ==, "hybrid");
  g_assert_cmpstr (json_object_get_string_member (mode, "used"), ==, "lexical");
  g_assert_nonnull (strstr (json_object_get_string_member (mode, "reason"),
                            "semantic search unavailable"));
  g_assert_nonnull (strstr (semantic->text, "lode model pull"));
  call_fails (fixture, "codebase_search",
              "{\"query\": \"parse configuration\", \"mode\": \"semantic\"}",
              fixture->corpus, "lode model pull");
  results = json_object_get_array_member (semantic->structured, "results");
  for (guint i = 0; i < json_array_get_length (results); i++)
    g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (results, i),
                                                    "language"), ==, "python");

  call_fails (fixture, "codebase_search", "{\"query\": \"x\", \"languageFilter\": \"klingon\"}",
              fixture->corpus, "Unknown language “klingon”");

  list = call_ok (fixture, "codebase_list_projects", "{}", NULL);
  g_assert_cmpint (json_object_get_int_member (list->structured, "total"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (
                       json_object_get_array_member (list->structured, "projects"), 0),
                     "projectPath"), ==, fixture->corpus);

  stop = call_ok (fixture, "codebase_stop", path_args, NULL);
  g_assert_false (json_object_get_boolean_member (stop->structured, "stopped"));
  g_assert_nonnull (strstr (stop->text, "No indexing operation is currently running"));

  /* Watching works wherever the engine lives long enough, this process included. */
  watch = call_ok (fixture, "codebase_watch", "{\"action\": \"start\"}", fixture->corpus);
  g_assert_true (json_object_get_boolean_member (watch->structured, "watching"));
  watched = call_ok (fixture, "codebase_list_projects", "{}", NULL);
  g_assert_true (json_object_get_boolean_member (
                   json_array_get_object_element (
                     json_object_get_array_member (watched->structured, "projects"), 0),
                   "watching"));

  /* Removing the index stops watching it: nothing would bring the index back. */
  removed = call_ok (fixture, "codebase_remove", path_args, NULL);
  g_assert_true (json_object_get_boolean_member (removed->structured, "removed"));
  after = call_ok (fixture, "codebase_status", path_args, NULL);
  g_assert_false (json_object_get_boolean_member (after->structured, "indexed"));
  g_assert_false (json_object_has_member (after->structured, "job"));
  g_assert_false (json_object_get_boolean_member (
                    json_object_get_object_member (after->structured, "watch"), "watching"));
  call_fails (fixture, "codebase_remove", path_args, NULL, "Nothing to remove");
}

/* The index of the project at @root, in the fixture's data dir. */
static char *
dup_db_path (const char *root)
{
  g_autofree char *id = lode_project_id_for_path (root);

  return g_build_filename (g_get_user_cache_dir (), "lode-test-data", "projects", id,
                           "index.db", NULL);
}

/* How many damaged indexes were kept aside beside @db_path. */
static guint
count_kept (const char *db_path)
{
  g_autofree char *dir_path = g_path_get_dirname (db_path);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;
  guint kept = 0;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    kept += g_str_has_prefix (name, "index.db.damaged-") && !g_str_has_suffix (name, "-wal");
  return kept;
}

/* A new engine and registry, as a new lode-mcp process has: none of the old one's
 * connections (and pages they keep) to the index that was just damaged behind its back. */
static void
restart (ToolsFixture *fixture)
{
  tools_teardown (fixture, NULL);
  tools_setup (fixture, NULL);
}

/* codebase_search finds the corpus again and codebase_status says ready. */
static void
assert_repaired (ToolsFixture *fixture,
                 const char   *path_args)
{
  g_autoptr(LodeToolResult) search = NULL;
  g_autoptr(LodeToolResult) status = NULL;

  search = call_ok (fixture, "codebase_search",
                    "{\"query\": \"parse configuration\", \"mode\": \"lexical\"}",
                    fixture->corpus);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (search->structured,
                                                                         "results")), >, 0);
  status = call_ok (fixture, "codebase_status", path_args, NULL);
  g_assert_cmpstr (json_object_get_string_member (status->structured, "state"), ==, "ready");
}

/* codebase_index with force: true, the documented repair of a damaged index, through the
 * tool: on an index whose damage nothing has come across yet (every page of its full-text
 * index garbled), and on one that status and search have found damaged. Either way the
 * damaged file is kept aside and the index is rebuilt. */
static void
test_damaged_rebuild (ToolsFixture  *fixture,
                      gconstpointer  data)
{
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) forced = NULL;
  g_autoptr(LodeToolResult) status = NULL;
  g_autoptr(LodeToolResult) again = NULL;
  g_autofree char *path_args = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->corpus);
  g_autofree char *force_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"force\": true, "
                                                 "\"wait\": true}", fixture->corpus);
  g_autofree char *db = dup_db_path (fixture->corpus);
  JsonObject *job;

  update = call_ok (fixture, "codebase_update", path_args, NULL);
  job = json_object_get_object_member (update->structured, "job");
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "succeeded");

  /* Damage no query has read: the forced run finds it before it replaces the index. */
  restart (fixture);
  if (!test_garble_fts (db, TRUE))
    return;
  forced = call_ok (fixture, "codebase_index", force_args, NULL);
  job = json_object_get_object_member (forced->structured, "job");
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "succeeded");
  g_assert_cmpuint (count_kept (db), ==, 1);
  assert_repaired (fixture, path_args);

  /* Damage status and search report, with the repair to make. */
  restart (fixture);
  test_garble_fts (db, TRUE);
  status = call_ok (fixture, "codebase_status", path_args, NULL);
  g_assert_cmpstr (json_object_get_string_member (status->structured, "state"), ==, "damaged");
  g_assert_nonnull (strstr (json_object_get_string_member (status->structured, "damage"),
                            "codebase_index"));
  call_fails (fixture, "codebase_search", "{\"query\": \"parse configuration\"}",
              fixture->corpus, "Index the project again");
  again = call_ok (fixture, "codebase_index", force_args, NULL);
  job = json_object_get_object_member (again->structured, "job");
  g_assert_cmpstr (json_object_get_string_member (job, "state"), ==, "succeeded");
  g_assert_cmpuint (count_kept (db), ==, 2);
  assert_repaired (fixture, path_args);
}

static void
test_health_about (ToolsFixture  *fixture,
                   gconstpointer  data)
{
  g_autoptr(LodeToolResult) health = call_ok (fixture, "codebase_health", "{}", NULL);
  g_autoptr(LodeToolResult) about = call_ok (fixture, "codebase_about", "{}", NULL);
  JsonObject *store = json_object_get_object_member (health->structured, "store");
  JsonObject *embeddings = json_object_get_object_member (health->structured, "embeddings");
  JsonArray *tools = json_object_get_array_member (about->structured, "tools");

  g_assert_true (json_object_get_boolean_member (health->structured, "healthy"));
  g_assert_true (json_object_get_boolean_member (store, "fts5"));
  g_assert_true (json_object_get_boolean_member (store, "writable"));
  g_assert_false (json_object_get_boolean_member (embeddings, "available"));
  g_assert_cmpstr (json_object_get_string_member (embeddings, "provider"), ==, "builtin");
  g_assert_nonnull (strstr (json_object_get_string_member (embeddings, "message"),
                            "lode model pull"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (health->structured,
                                                                         "backends")), ==, 0);
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (health->structured,
                                                                              "grammars"),
                                               "count"), >=, 15);
  g_assert_cmpuint (json_array_get_length (tools), ==, 39);
  g_assert_cmpstr (json_object_get_string_member (about->structured, "version"), ==,
                   PACKAGE_VERSION);
}

/* With an embedding model (the tiny random BERT) every surface of semantic search works: the
 * index run embeds, status counts vectors, semantic and hybrid searches run as asked, and
 * health names the model. */
static void
test_semantic_tools (ToolsFixture  *fixture,
                     gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeEmbedder) bert = lode_builtin_embedder_new (test_tiny_bert_dir (), &error);
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) status = NULL;
  g_autoptr(LodeToolResult) semantic = NULL;
  g_autoptr(LodeToolResult) hybrid = NULL;
  g_autoptr(LodeToolResult) health = NULL;
  g_autofree char *path_args = g_strdup_printf ("{\"projectPath\": \"%s\"}", fixture->corpus);
  JsonObject *report, *semantic_status, *mode, *embeddings;

  g_assert_no_error (error);
  lode_engine_set_embedder (fixture->engine, bert);

  update = call_ok (fixture, "codebase_update", path_args, NULL);
  report = json_object_get_object_member (json_object_get_object_member (update->structured,
                                                                         "job"), "report");
  g_assert_cmpint (json_object_get_int_member (report, "embedded"), >, 10);
  g_assert_cmpstr (json_object_get_string_member (report, "embeddingModel"), ==,
                   "tiny-bert-random");
  g_assert_nonnull (strstr (update->text, "tiny-bert-random"));

  status = call_ok (fixture, "codebase_status", path_args, NULL);
  semantic_status = json_object_get_object_member (status->structured, "semantic");
  g_assert_true (json_object_get_boolean_member (semantic_status, "available"));
  g_assert_cmpstr (json_object_get_string_member (semantic_status, "model"), ==,
                   "tiny-bert-random");
  g_assert_cmpint (json_object_get_int_member (semantic_status, "embeddedChunks"), ==,
                   json_object_get_int_member (semantic_status, "embeddableChunks"));
  g_assert_false (json_object_has_member (semantic_status, "notice"));

  semantic = call_ok (fixture, "codebase_search",
                      "{\"query\": \"parse configuration\", \"mode\": \"semantic\"}",
                      fixture->corpus);
  mode = json_object_get_object_member (semantic->structured, "mode");
  g_assert_cmpstr (json_object_get_string_member (mode, "used"), ==, "semantic");
  g_assert_cmpstr (json_object_get_string_member (mode, "model"), ==, "tiny-bert-random");
  g_assert_cmpint (json_object_get_int_member (semantic->structured, "total"), >, 0);

  hybrid = call_ok (fixture, "codebase_search", "{\"query\": \"parse configuration\"}",
                    fixture->corpus);
  mode = json_object_get_object_member (hybrid->structured, "mode");
  g_assert_cmpstr (json_object_get_string_member (mode, "used"), ==, "hybrid");
  g_assert_false (json_object_has_member (mode, "reason"));
  g_assert_cmpint (json_object_get_int_member (mode, "embeddedChunks"), ==,
                   json_object_get_int_member (mode, "chunks"));

  health = call_ok (fixture, "codebase_health", "{}", NULL);
  embeddings = json_object_get_object_member (health->structured, "embeddings");
  g_assert_true (json_object_get_boolean_member (embeddings, "available"));
  g_assert_cmpstr (json_object_get_string_member (embeddings, "model"), ==, "tiny-bert-random");
  g_assert_cmpint (json_object_get_int_member (embeddings, "dims"), ==, 32);
}

static void
write_tree_file (const char *root,
                 const char *relative,
                 const char *text)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static char *
json_strings (JsonArray *array)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (array); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            json_array_get_string_element (array, i));

  return g_string_free (out, FALSE);
}

static void
svg_start_element (GMarkupParseContext  *context,
                   const char           *element,
                   const char          **names,
                   const char          **values,
                   gpointer              user_data,
                   GError              **error)
{
  guint *rects = user_data;

  *rects += g_str_equal (element, "rect");
}

/* Without a session bus (a server, a container) there is no app to open: the answer is the
 * Mermaid text and an SVG picture of the same nodes, the cycle's arrows marked. */
static void
check_interactive (ToolsFixture *fixture,
                   const char   *root)
{
  g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\", \"filePath\": "
                                           "\"src/x.h\", \"mode\": \"interactive\"}", root);
  g_autoptr(LodeToolResult) result = NULL;
  g_autofree char *svg = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMarkupParseContext) parser = NULL;
  static const GMarkupParser counter = { svg_start_element, NULL, NULL, NULL, NULL };
  g_autofree char *saved = g_strdup (g_getenv ("DBUS_SESSION_BUS_ADDRESS"));
  JsonArray *nodes;
  JsonArray *edges;
  const char *svg_path;
  guint rects = 0;

  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/lode-test-bus", TRUE);
  result = call_ok (fixture, "codebase_graph_visualize", args, NULL);
  if (saved != NULL)
    g_setenv ("DBUS_SESSION_BUS_ADDRESS", saved, TRUE);
  else
    g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");

  g_assert_false (json_object_get_boolean_member (result->structured, "opened"));
  nodes = json_object_get_array_member (result->structured, "nodes");
  edges = json_object_get_array_member (result->structured, "edges");
  g_assert_cmpuint (json_array_get_length (nodes), ==, 2);
  g_assert_true (json_object_get_boolean_member (json_array_get_object_element (nodes, 0),
                                                 "focus"));
  g_assert_cmpuint (json_array_get_length (edges), ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_true (json_object_get_boolean_member (json_array_get_object_element (edges, i),
                                                   "inCycle"));

  svg_path = json_object_get_string_member (result->structured, "svgPath");
  g_assert_true (g_str_has_prefix (svg_path, g_get_user_cache_dir ()));
  g_assert_nonnull (strstr (result->text, svg_path));
  g_assert_nonnull (strstr (result->text, "```mermaid\nflowchart LR\n"));
  g_file_get_contents (svg_path, &svg, NULL, &error);
  g_assert_no_error (error);
  parser = g_markup_parse_context_new (&counter, 0, &rects, NULL);
  g_assert_true (g_markup_parse_context_parse (parser, svg, -1, &error));
  g_assert_true (g_markup_parse_context_end_parse (parser, &error));
  g_assert_no_error (error);
  /* The background and the two files. */
  g_assert_cmpuint (rects, ==, 3);
  g_assert_nonnull (strstr (svg, ">src/y.h</text>"));
}

/* A node of a visualize answer, by its label. */
static JsonObject *
diagram_node (JsonObject *report,
              const char *label)
{
  JsonArray *nodes = json_object_get_array_member (report, "nodes");

  for (guint i = 0; i < json_array_get_length (nodes); i++)
    {
      JsonObject *node = json_array_get_object_element (nodes, i);

      if (g_strcmp0 (json_object_get_string_member (node, "label"), label) == 0)
        return node;
    }
  return NULL;
}

/* Whether the answer has an arrow from the box labelled @from to @to. */
static gboolean
diagram_arrow (JsonObject *report,
               const char *from,
               const char *to)
{
  JsonArray *edges = json_object_get_array_member (report, "edges");
  JsonObject *a = diagram_node (report, from);
  JsonObject *b = diagram_node (report, to);

  for (guint i = 0; a != NULL && b != NULL && i < json_array_get_length (edges); i++)
    {
      JsonObject *edge = json_array_get_object_element (edges, i);

      if (json_object_get_int_member (edge, "from") == json_object_get_int_member (a, "id") &&
          json_object_get_int_member (edge, "to") == json_object_get_int_member (b, "id"))
        return TRUE;
    }
  return FALSE;
}

/* codebase_graph_visualize with a symbol: a parser function with its caller and the function
 * it calls (not the C library's); with no app to open (no session bus), the SVG beside the
 * Mermaid text. */
static void
test_graph_visualize_symbol (ToolsFixture  *fixture,
                             gconstpointer  data)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "symbol-tree", NULL);
  g_autofree char *index_args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\", "
                                           "\"symbol\": \"parse_header_line\"}", root);
  g_autofree char *interactive = g_strdup_printf ("{\"projectPath\": \"%s\", "
                                                  "\"symbol\": \"parse_header_line\", "
                                                  "\"filePath\": \"src/parser.c\", "
                                                  "\"mode\": \"interactive\"}", root);
  g_autofree char *unknown = g_strdup_printf ("{\"projectPath\": \"%s\", "
                                              "\"symbol\": \"parse_footer\"}", root);
  g_autofree char *saved = g_strdup (g_getenv ("DBUS_SESSION_BUS_ADDRESS"));
  g_autoptr(LodeToolResult) indexed = NULL;
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(LodeToolResult) offline = NULL;
  g_autoptr(GMarkupParseContext) parser = NULL;
  static const GMarkupParser counter = { svg_start_element, NULL, NULL, NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *svg = NULL;
  JsonObject *focus;
  const char *svg_path;
  guint rects = 0;

  write_tree_file (root, "src/parser.c",
                   "#include <string.h>\n\n"
                   "static unsigned int\nskip_blanks (const char *text)\n{\n"
                   "  return strspn (text, \" \");\n}\n\n"
                   "int\nparse_header_line (const char *text)\n{\n"
                   "  return (int) strlen (text + skip_blanks (text));\n}\n\n"
                   "int\nparse_message (const char *text)\n{\n"
                   "  return parse_header_line (text);\n}\n");
  indexed = call_ok (fixture, "codebase_graph_build", index_args, NULL);

  result = call_ok (fixture, "codebase_graph_visualize", args, NULL);
  g_assert_cmpstr (json_object_get_string_member (result->structured, "symbol"), ==,
                   "parse_header_line");
  g_assert_cmpstr (json_object_get_string_member (result->structured, "file"), ==,
                   "src/parser.c");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (result->structured,
                                                                         "nodes")), ==, 3);
  focus = diagram_node (result->structured, "parse_header_line");
  g_assert_nonnull (focus);
  g_assert_true (json_object_get_boolean_member (focus, "focus"));
  g_assert_cmpstr (json_object_get_string_member (focus, "kind"), ==, "definition");
  g_assert_cmpstr (json_object_get_string_member (focus, "language"), ==, "c");
  g_assert_true (diagram_arrow (result->structured, "parse_message", "parse_header_line"));
  g_assert_true (diagram_arrow (result->structured, "parse_header_line", "skip_blanks"));
  g_assert_false (diagram_arrow (result->structured, "skip_blanks", "parse_header_line"));
  g_assert_nonnull (strstr (result->text, "```mermaid\nflowchart LR\n"));
  g_assert_nonnull (strstr (result->text, "[\"skip_blanks\"]"));

  g_setenv ("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/lode-test-bus", TRUE);
  offline = call_ok (fixture, "codebase_graph_visualize", interactive, NULL);
  if (saved != NULL)
    g_setenv ("DBUS_SESSION_BUS_ADDRESS", saved, TRUE);
  else
    g_unsetenv ("DBUS_SESSION_BUS_ADDRESS");
  g_assert_false (json_object_get_boolean_member (offline->structured, "opened"));
  svg_path = json_object_get_string_member (offline->structured, "svgPath");
  g_assert_nonnull (strstr (offline->text, svg_path));
  g_file_get_contents (svg_path, &svg, NULL, &error);
  g_assert_no_error (error);
  parser = g_markup_parse_context_new (&counter, 0, &rects, NULL);
  g_assert_true (g_markup_parse_context_parse (parser, svg, -1, &error));
  g_assert_true (g_markup_parse_context_end_parse (parser, &error));
  g_assert_no_error (error);
  /* The background and the three definitions. */
  g_assert_cmpuint (rects, ==, 4);
  g_assert_nonnull (strstr (svg, ">parse_message</text>"));

  call_fails (fixture, "codebase_graph_visualize", unknown, NULL, "parse_footer: No definition");
}

/* Every graph tool on a small C tree, each result checked against its output schema. */
static void
test_graph_tools (ToolsFixture  *fixture,
                  gconstpointer  data)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "graph-tree", NULL);
  g_autofree char *args = NULL;
  g_autofree char *query_args = NULL;
  g_autofree char *outbound_args = NULL;
  g_autofree char *dependents = NULL;
  g_autofree char *reach = NULL;
  g_autofree char *members = NULL;
  g_autoptr(LodeToolResult) before = NULL;
  g_autoptr(LodeToolResult) build = NULL;
  g_autoptr(LodeToolResult) query = NULL;
  g_autoptr(LodeToolResult) outbound = NULL;
  g_autoptr(LodeToolResult) stats = NULL;
  g_autoptr(LodeToolResult) circular = NULL;
  g_autoptr(LodeToolResult) visualize = NULL;
  g_autoptr(LodeToolResult) removed = NULL;
  g_autoptr(LodeToolResult) status = NULL;
  g_autoptr(LodeToolResult) rebuilt = NULL;
  JsonArray *cycles;
  JsonArray *reach_array;

  write_tree_file (root, "src/main.c", "#include <stdio.h>\n#include \"util.h\"\n"
                   "int main (void) { return util (); }\n");
  write_tree_file (root, "src/util.h", "int util (void);\n");
  write_tree_file (root, "src/util.c", "#include \"util.h\"\nint util (void) { return 0; }\n");
  write_tree_file (root, "src/x.h", "#include \"y.h\"\n");
  write_tree_file (root, "src/y.h", "#include \"x.h\"\n");
  args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  query_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"filePath\": \"src/util.h\"}",
                                root);
  outbound_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"filePath\": \"src/main.c\", "
                                   "\"direction\": \"outbound\", \"depth\": 2}", root);

  before = call_ok (fixture, "codebase_graph_status", args, NULL);
  g_assert_false (json_object_get_boolean_member (before->structured, "indexed"));
  call_fails (fixture, "codebase_graph_query", query_args, NULL, "call codebase_index first");

  build = call_ok (fixture, "codebase_graph_build", args, NULL);
  g_assert_cmpint (json_object_get_int_member (build->structured, "parsed"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (build->structured, "imports"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (build->structured, "internal"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (build->structured, "external"), ==, 1);

  query = call_ok (fixture, "codebase_graph_query", query_args, NULL);
  dependents = json_strings (json_object_get_array_member (query->structured, "dependents"));
  g_assert_cmpstr (dependents, ==, "src/main.c src/util.c");
  g_assert_nonnull (strstr (query->text, "src/main.c"));

  outbound = call_ok (fixture, "codebase_graph_query", outbound_args, NULL);
  reach_array = json_object_get_array_member (outbound->structured, "reach");
  g_assert_cmpuint (json_array_get_length (reach_array), ==, 1);
  reach = g_strdup (json_object_get_string_member (json_array_get_object_element (reach_array, 0),
                                                   "path"));
  g_assert_cmpstr (reach, ==, "src/util.h");

  stats = call_ok (fixture, "codebase_graph_stats", args, NULL);
  g_assert_cmpint (json_object_get_int_member (stats->structured, "files"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (stats->structured, "edges"), ==, 4);

  circular = call_ok (fixture, "codebase_graph_circular", args, NULL);
  g_assert_cmpint (json_object_get_int_member (circular->structured, "count"), ==, 1);
  cycles = json_object_get_array_member (circular->structured, "cycles");
  members = json_strings (json_object_get_array_member (json_array_get_object_element (cycles, 0),
                                                        "members"));
  g_assert_cmpstr (members, ==, "src/x.h src/y.h");

  visualize = call_ok (fixture, "codebase_graph_visualize", args, NULL);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (visualize->structured,
                                                                  "mermaid"),
                                   "flowchart LR\n"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (visualize->structured,
                                                                         "nodes")), ==, 5);
  check_interactive (fixture, root);

  call_fails (fixture, "codebase_impact", args, NULL, "not inside a git work tree");

  removed = call_ok (fixture, "codebase_graph_remove", args, NULL);
  g_assert_true (json_object_get_boolean_member (removed->structured, "removed"));
  status = call_ok (fixture, "codebase_graph_status", args, NULL);
  g_assert_false (json_object_get_boolean_member (status->structured, "enabled"));
  g_assert_cmpint (json_object_get_int_member (status->structured, "imports"), ==, 0);

  rebuilt = call_ok (fixture, "codebase_graph_build", args, NULL);
  g_assert_cmpint (json_object_get_int_member (rebuilt->structured, "parsed"), ==, 5);
  g_assert_cmpint (json_object_get_int_member (rebuilt->structured, "internal"), ==, 4);
}

/* The markdown line of @text that holds @needle, or fails. */
static char *
line_with (const char *text,
           const char *needle)
{
  const char *hit = strstr (text, needle);
  const char *start;

  if (hit == NULL)
    g_error ("“%s” not in:\n%s", needle, text);
  for (start = hit; start > text && start[-1] != '\n'; start--)
    ;
  return g_strndup (start, strcspn (start, "\n"));
}

/* A file may be called anything: a newline or a backtick in its name broke the list of the
 * markdown reply (the rest of the name began a line of its own, a backtick ended the code
 * span). The name stays in one code span on its line. */
static void
test_markdown_file_names (ToolsFixture  *fixture,
                          gconstpointer  data)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "names", NULL);
  g_autofree char *args = NULL;
  g_autofree char *search_args = NULL;
  g_autoptr(LodeToolResult) indexed = NULL;
  g_autoptr(LodeToolResult) found = NULL;
  g_autoptr(LodeToolResult) impact = NULL;
  g_autofree char *result_line = NULL;
  g_autofree char *changed_line = NULL;
  const char *git_init[] = { "git", "init", "-q", NULL };
  const char *git_add[] = { "git", "add", "-A", NULL };
  const char *git_commit[] = { "git", "-c", "user.name=Lode", "-c", "user.email=l@example.org",
                               "commit", "-q", "-m", "one", NULL };

  test_write_file (root, "we`ird\nname.c", "int\nweird_marker_function (void)\n{\n"
                   "  return 1;\n}\n");
  for (guint i = 0; i < 3; i++)
    {
      const char *const *argv = i == 0 ? git_init : i == 1 ? git_add : git_commit;
      int status = 0;

      g_assert_true (g_spawn_sync (root, (char **) argv, NULL, G_SPAWN_SEARCH_PATH |
                                   G_SPAWN_STDOUT_TO_DEV_NULL | G_SPAWN_STDERR_TO_DEV_NULL,
                                   NULL, NULL, NULL, NULL, &status, NULL));
      g_assert_true (g_spawn_check_wait_status (status, NULL));
    }
  args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  indexed = call_ok (fixture, "codebase_graph_build", args, NULL);

  search_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"query\": "
                                 "\"weird_marker_function\"}", root);
  found = call_ok (fixture, "codebase_search", search_args, NULL);
  result_line = line_with (found->text, "name.c");
  g_test_message ("%s", result_line);
  g_assert_true (g_str_has_prefix (result_line, "1. ``we`ird\\nname.c:1-5``"));

  test_write_file (root, "we`ird\nname.c", "int\nweird_marker_function (void)\n{\n"
                   "  return 2;\n}\n");
  impact = call_ok (fixture, "codebase_impact", args, NULL);
  changed_line = line_with (impact->text, "name.c");
  g_test_message ("%s", changed_line);
  g_assert_cmpstr (changed_line, ==, "- M ``we`ird\\nname.c``");
}

static void
make_symlink (const char *target,
              const char *root,
              const char *name)
{
  g_autofree char *path = g_build_filename (root, name, NULL);

  g_assert_cmpint (symlink (target, path), ==, 0);
}

/* Search results for @query in @project, as "path path …". */
static char *
search_paths (ToolsFixture *fixture,
              const char   *project,
              const char   *query)
{
  g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\", \"query\": \"%s\", "
                                           "\"mode\": \"lexical\"}", project, query);
  g_autoptr(LodeToolResult) result = call_ok (fixture, "codebase_search", args, NULL);
  JsonArray *results = json_object_get_array_member (result->structured, "results");
  GString *paths = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (results); i++)
    g_string_append_printf (paths, "%s%s", i > 0 ? " " : "",
                            json_object_get_string_member (json_array_get_object_element
                                                           (results, i), "path"));

  return g_string_free (paths, FALSE);
}

/* No tool reads or indexes anything outside the project it is given: not through symbolic
 * links (to files, directories, or configuration the import resolver reads), not through
 * `..` or absolute paths in a filePath, not through a git revision range. */
static void
test_confinement (ToolsFixture  *fixture,
                  gconstpointer  data)
{
  g_autofree char *base = g_build_filename (g_get_user_cache_dir (), "confinement", NULL);
  g_autofree char *root = g_build_filename (base, "project", NULL);
  g_autofree char *outside = g_build_filename (base, "outside", NULL);
  g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  g_autofree char *dotted = g_strdup_printf ("{\"projectPath\": \"%s/src/..\"}", root);
  g_autofree char *query_main = NULL;
  g_autofree char *found = NULL;
  g_autofree char *inside_link = NULL;
  g_autoptr(LodeToolResult) build = NULL;
  g_autoptr(LodeToolResult) status = NULL;
  g_autoptr(LodeToolResult) query = NULL;
  g_autoptr(LodeToolResult) update = NULL;
  const char *outside_paths[] = {
    "../outside/secret.c", "src/../../outside/secret.c", "outside_dir/secret.c",
    "secret_link.c", NULL, NULL
  };
  g_autofree char *absolute = g_build_filename (outside, "secret.c", NULL);
  JsonArray *imports;

  outside_paths[4] = absolute;
  write_tree_file (outside, "secret.c", "int outside_secret_token (void) { return 42; }\n");
  write_tree_file (outside, "tsconfig.json",
                   "{\"compilerOptions\": {\"baseUrl\": \".\", "
                   "\"paths\": {\"@lib/*\": [\"lib/*\"]}}}\n");
  write_tree_file (root, "tsconfig.json", "{\"extends\": \"./base\"}\n");
  write_tree_file (root, "lib/util.ts", "export const util = 1;\n");
  write_tree_file (root, "src/main.ts", "import { util } from \"@lib/util\";\n");
  write_tree_file (root, "src/inside.c", "#include \"../../outside/secret.c\"\n"
                   "int inside_function (void) { return 1; }\n");
  make_symlink ("../outside/tsconfig.json", root, "base.json");
  make_symlink ("../outside/secret.c", root, "secret_link.c");
  make_symlink ("../outside", root, "outside_dir");

  build = call_ok (fixture, "codebase_graph_build", dotted, NULL);
  g_assert_cmpint (json_object_get_int_member (build->structured, "parsed"), ==, 4);
  status = call_ok (fixture, "codebase_status", args, NULL);
  g_assert_cmpint (json_object_get_int_member (status->structured, "files"), ==, 4);
  found = search_paths (fixture, root, "outside_secret_token");
  g_assert_cmpstr (found, ==, "");
  g_clear_pointer (&found, g_free);
  found = search_paths (fixture, root, "inside_function");
  g_assert_cmpstr (found, ==, "src/inside.c");

  /* The tsconfig the project's extends through a link to the outside is not read: "@lib/util"
   * would resolve to lib/util.ts with its paths. */
  query_main = g_strdup_printf ("{\"projectPath\": \"%s\", \"filePath\": \"src/main.ts\"}",
                                root);
  query = call_ok (fixture, "codebase_graph_query", query_main, NULL);
  imports = json_object_get_array_member (query->structured, "imports");
  g_assert_cmpuint (json_array_get_length (imports), ==, 1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_array_get_object_element (imports, 0), "targets")), ==, 0);

  for (guint i = 0; outside_paths[i] != NULL; i++)
    {
      g_autofree char *file_args = g_strdup_printf ("{\"projectPath\": \"%s\", "
                                                    "\"filePath\": \"%s\"}",
                                                    root, outside_paths[i]);

      call_fails (fixture, "codebase_graph_query", file_args, NULL, outside_paths[i]);
      call_fails (fixture, "codebase_graph_visualize", file_args, NULL, outside_paths[i]);
    }

  /* A range is never taken for an option of git's (--output writes a file). */
  for (guint i = 0; i < 2; i++)
    {
      const char *range = i == 0 ? "--output=/tmp/lode-impact" : "HEAD -- ../outside";
      g_autofree char *impact_args = g_strdup_printf ("{\"projectPath\": \"%s\", "
                                                      "\"range\": \"%s\"}", root, range);

      call_fails (fixture, "codebase_impact", impact_args, NULL, "is not a revision range");
    }

  /* A file that becomes a link to the outside leaves the index at the next update. */
  inside_link = g_build_filename (root, "src", "inside.c", NULL);
  g_assert_cmpint (g_unlink (inside_link), ==, 0);
  make_symlink ("../../outside/secret.c", root, "src/inside.c");
  update = call_ok (fixture, "codebase_update", args, NULL);
  g_clear_pointer (&found, g_free);
  found = search_paths (fixture, root, "outside_secret_token");
  g_assert_cmpstr (found, ==, "");
}

/* Calls @tool; whether it answers or fails, neither its text nor its structured result holds
 * @needle. */
static void
call_no_leak (ToolsFixture *fixture,
              const char   *tool,
              const char   *json,
              const char   *needle)
{
  g_autoptr(JsonObject) arguments = arguments_from (json);
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *structured = NULL;

  result = lode_tool_registry_call (fixture->registry, tool, arguments, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  if (result->structured != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), result->structured);

      structured = json_to_string (node, FALSE);
    }
  if (strstr (result->text, needle) != NULL ||
      (structured != NULL && strstr (structured, needle) != NULL))
    g_error ("%s %s: “%s” leaked: %s", tool, json, needle, result->text);
}

/* A project beside a folder outside it, reached by links from inside: to a file, to the
 * folder, and a relative #include that climbs out. */
static void
write_confined_tree (const char *root,
                     const char *outside)
{
  write_tree_file (outside, "secret.c",
                   "struct outside_secret_type { int leaked_field_marker; };\n"
                   "int outside_secret_token (void) { return 424242; }\n");
  write_tree_file (outside, "secret.h", "int outside_secret_header (int leaked_param_marker);\n");
  write_tree_file (root, "src/inside.c", "#include \"../../outside/secret.h\"\n"
                   "struct inside_type { int inside_field; };\n"
                   "int inside_function (void) { return 1; }\n");
  write_tree_file (root, "src/victim.c", "int victim_function (void) { return 3; }\n");
  make_symlink ("../outside/secret.c", root, "secret_link.c");
  make_symlink ("../outside", root, "outside_dir");
}

/* The symbol tools answer from the index, which holds nothing of the outside: not by name,
 * nor when the package (a file or a folder for C, Go, Python…) is a path that leads out
 * through `..`, an absolute path or a link. codebase_symbol_references takes no path; it is
 * asked by name. */
static void
test_confinement_symbols (ToolsFixture  *fixture,
                          gconstpointer  data)
{
  g_autofree char *base = g_build_filename (g_get_user_cache_dir (), "confinement", NULL);
  g_autofree char *root = g_build_filename (base, "project", NULL);
  g_autofree char *outside = g_build_filename (base, "outside", NULL);
  g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  g_autofree char *absolute_file = g_build_filename (outside, "secret.c", NULL);
  g_autofree char *inside_args = NULL;
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) inside = NULL;
  g_autoptr(LodeToolResult) inside_type = NULL;
  g_autoptr(LodeToolResult) inside_exports = NULL;
  const char *packages[] = {
    "../outside/secret.c", "src/../../outside/secret.c", "outside_dir/secret.c",
    "outside_dir", "secret_link.c", "../outside", "..", NULL, NULL, NULL
  };
  /* Each asked for by name, and looked for in the answer by what only its definition holds. */
  const char *names[][3] = {
    { "find_type_definition", "type_name\": \"outside_secret_type", "leaked_field_marker" },
    { "get_function_details", "function_name\": \"outside_secret_token", "424242" },
    { "get_function_details", "function_name\": \"outside_secret_header", "leaked_param_marker" },
  };

  packages[7] = absolute_file;
  packages[8] = outside;
  write_confined_tree (root, outside);
  update = call_ok (fixture, "codebase_update", args, NULL);

  /* The tools work: what is inside is found. */
  inside_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"function_name\": "
                                 "\"inside_function\", \"output_format\": \"json\"}", root);
  inside = call_ok (fixture, "get_function_details", inside_args, NULL);
  g_clear_pointer (&inside_args, g_free);
  inside_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"type_name\": \"inside_type\"}",
                                 root);
  inside_type = call_ok (fixture, "find_type_definition", inside_args, NULL);
  g_assert_nonnull (strstr (inside_type->text, "inside_field"));
  g_clear_pointer (&inside_args, g_free);
  inside_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"package\": \"src/inside.c\"}",
                                 root);
  inside_exports = call_ok (fixture, "list_package_exports", inside_args, NULL);
  g_assert_nonnull (strstr (inside_exports->text, "inside_function"));

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      g_autofree char *by_name = g_strdup_printf ("{\"projectPath\": \"%s\", \"%s\"}", root,
                                                  names[i][1]);

      call_no_leak (fixture, names[i][0], by_name, names[i][2]);
      for (guint p = 0; packages[p] != NULL; p++)
        {
          g_autofree char *in_package = g_strdup_printf ("{\"projectPath\": \"%s\", \"%s\", "
                                                         "\"package\": \"%s\"}", root,
                                                         names[i][1], packages[p]);

          call_no_leak (fixture, names[i][0], in_package, names[i][2]);
        }
    }
  for (guint p = 0; packages[p] != NULL; p++)
    {
      g_autofree char *exports = g_strdup_printf ("{\"projectPath\": \"%s\", \"package\": "
                                                  "\"%s\", \"output_format\": \"json\"}",
                                                  root, packages[p]);

      call_no_leak (fixture, "list_package_exports", exports, "outside_secret");
    }
  for (guint i = 0; i < 3; i++)
    {
      const char *symbol = i == 0 ? "outside_secret_token" : i == 1 ? "outside_secret_type"
                                                                    : "outside_secret_header";
      g_autofree char *references = g_strdup_printf ("{\"projectPath\": \"%s\", \"symbol\": "
                                                     "\"%s\"}", root, symbol);
      g_autoptr(LodeToolResult) result = call_ok (fixture, "codebase_symbol_references",
                                                  references, NULL);

      g_assert_cmpint (json_object_get_int_member (result->structured, "total"), ==, 0);
    }
}

typedef struct
{
  GCancellable   *cancellable;
  LodeToolResult *result;
  GError         *error;
  guint           n_progress;
  double          last_done;
  GString        *messages;
  gboolean        done;
} AsyncCall;

/* A folder or a file of an indexed tree, and file:// URIs, name that tree; destructive tools
 * act on exactly the tree named. */
static void
test_routing (ToolsFixture  *fixture,
              gconstpointer  data)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "routed-tree", NULL);
  g_autofree char *args = NULL;
  g_autofree char *uri = NULL;
  g_autoptr(LodeToolResult) update = NULL;
  const char *paths[] = { "src", "src/deep", "src/deep/leaf.c", NULL };

  write_tree_file (root, "src/deep/leaf.c", "int leaf_function (void) { return 2; }\n");
  write_tree_file (root, "README.md", "# Routed\n");
  args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  update = call_ok (fixture, "codebase_update", args, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *inside = g_build_filename (root, paths[i], NULL);
      g_autofree char *inside_args = NULL;
      g_autoptr(LodeToolResult) status = NULL;
      g_autoptr(LodeToolResult) search = NULL;

      if (paths[i] == NULL)
        {
          /* The same through a file:// URI. */
          g_clear_pointer (&inside, g_free);
          inside = g_filename_to_uri (root, NULL, NULL);
          g_assert_nonnull (inside);
          g_assert_true (g_str_has_prefix (inside, "file:///"));
        }
      inside_args = g_strdup_printf ("{\"projectPath\": \"%s\"}", inside);
      status = call_ok (fixture, "codebase_status", inside_args, NULL);
      g_assert_cmpstr (json_object_get_string_member (status->structured, "projectPath"), ==,
                       root);
      g_assert_true (json_object_get_boolean_member (status->structured, "indexed"));
      if (paths[i] == NULL)
        continue;
      /* The default project is routed too. */
      search = call_ok (fixture, "codebase_search", "{\"query\": \"leaf_function\"}", inside);
      g_assert_cmpstr (json_object_get_string_member (search->structured, "projectPath"), ==,
                       root);
    }

  call_fails (fixture, "codebase_status", "{\"projectPath\": \"file:relative/x\"}", NULL,
              "not a local file URI");
  call_fails (fixture, "codebase_status", "{\"projectPath\": \"src/deep\"}", NULL,
              "absolute path or a file:// URI");

  /* codebase_remove of a folder inside the tree removes nothing. */
  uri = g_strdup_printf ("{\"projectPath\": \"%s/src\"}", root);
  call_fails (fixture, "codebase_remove", uri, NULL, "Nothing to remove");
  {
    g_autoptr(LodeToolResult) still = call_ok (fixture, "codebase_status", args, NULL);

    g_assert_true (json_object_get_boolean_member (still->structured, "indexed"));
  }

  /* codebase_index of a folder inside the tree makes an index of that folder, beside the
   * enclosing one; from then on that folder routes to its own index. */
  {
    g_autofree char *sub_root = g_build_filename (root, "src", NULL);
    g_autofree char *leaf = g_strdup_printf ("{\"projectPath\": \"%s/src/deep/leaf.c\"}",
                                             root);
    g_autofree char *sub = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": true}",
                                            sub_root);
    g_autoptr(LodeToolResult) nested = NULL;
    g_autoptr(LodeToolResult) leaf_status = NULL;
    g_autoptr(LodeToolResult) outer = NULL;

    nested = call_ok (fixture, "codebase_index", sub, NULL);
    g_assert_cmpstr (json_object_get_string_member (nested->structured, "projectPath"), ==,
                     sub_root);
    leaf_status = call_ok (fixture, "codebase_status", leaf, NULL);
    g_assert_cmpstr (json_object_get_string_member (leaf_status->structured, "projectPath"), ==,
                     sub_root);
    g_assert_true (json_object_get_boolean_member (leaf_status->structured, "indexed"));
    outer = call_ok (fixture, "codebase_status", args, NULL);
    g_assert_cmpstr (json_object_get_string_member (outer->structured, "projectPath"), ==, root);
    g_assert_true (json_object_get_boolean_member (outer->structured, "indexed"));
  }
}

/* codebase_graph_stats lists at most `limit` orphans, and only files that could import. */
static void
test_graph_stats_orphans (ToolsFixture  *fixture,
                          gconstpointer  data)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "orphan-tree", NULL);
  g_autofree char *args = NULL;
  g_autofree char *orphans = NULL;
  g_autoptr(LodeToolResult) build = NULL;
  g_autoptr(LodeToolResult) stats = NULL;

  write_tree_file (root, "a.c", "int a;\n");
  write_tree_file (root, "b.c", "int b;\n");
  write_tree_file (root, "c.py", "import os\n");
  write_tree_file (root, "README.md", "# Orphans\n");
  write_tree_file (root, "config.json", "{}\n");
  write_tree_file (root, "ci.yml", "on: push\n");
  args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  build = call_ok (fixture, "codebase_graph_build", args, NULL);
  g_free (args);

  args = g_strdup_printf ("{\"projectPath\": \"%s\", \"limit\": 2}", root);
  stats = call_ok (fixture, "codebase_graph_stats", args, NULL);
  g_assert_cmpint (json_object_get_int_member (stats->structured, "orphanCount"), ==, 3);
  orphans = json_strings (json_object_get_array_member (stats->structured, "orphans"));
  g_assert_cmpstr (orphans, ==, "a.c b.c");
  g_assert_null (strstr (stats->text, "README.md"));
}

static void
progress_cb (double      done,
             double      total,
             const char *message,
             gpointer    user_data)
{
  AsyncCall *call = user_data;

  g_assert_false (call->done);
  g_assert_nonnull (message);
  g_assert_cmpfloat (done, >=, call->last_done);
  if (total > 0)
    g_assert_cmpfloat (done, <=, total);
  call->last_done = done;
  call->n_progress++;
  if (call->messages != NULL)
    g_string_append_printf (call->messages, "%s\n", message);
  if (call->cancellable != NULL)
    g_cancellable_cancel (call->cancellable);
}

static void
call_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  AsyncCall *call = user_data;

  call->result = lode_tool_registry_call_finish (LODE_TOOL_REGISTRY (object), result,
                                                 &call->error);
  call->done = TRUE;
}

static gboolean
watchdog_cb (gpointer user_data)
{
  g_error ("Timed out");
  return G_SOURCE_REMOVE;
}

static void
run_async (ToolsFixture *fixture,
           const char   *tool,
           const char   *json,
           AsyncCall    *call)
{
  g_autoptr(JsonObject) arguments = arguments_from (json);
  guint watchdog = g_timeout_add_seconds (test_timeout_seconds (60), watchdog_cb, NULL);

  lode_tool_registry_call_async (fixture->registry, tool, arguments, NULL, progress_cb, call,
                                 NULL, call->cancellable, call_cb, call);
  while (!call->done)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);
}

static gboolean
tick_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

/* Runs the default main context for @msec. */
static void
run_for (guint msec)
{
  gboolean done = FALSE;

  g_timeout_add (msec, tick_cb, &done);
  while (!done)
    g_main_context_iteration (NULL, TRUE);
}

/* While a project is watched, changes that lead outside it are not indexed: a file that
 * becomes a link to the outside, a new link to an outside file, and a file changed in an
 * outside folder a link inside points to. A new file inside is, and tells when the watcher
 * has caught up. codebase_watch takes no path but the project's. */
static void
test_confinement_watch (ToolsFixture  *fixture,
                        gconstpointer  data)
{
  g_autofree char *base = g_build_filename (g_get_user_cache_dir (), "confinement", NULL);
  g_autofree char *root = g_build_filename (base, "project", NULL);
  g_autofree char *outside = g_build_filename (base, "outside", NULL);
  g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  g_autofree char *start = g_strdup_printf ("{\"projectPath\": \"%s\", \"action\": \"start\"}",
                                            root);
  g_autofree char *stop = g_strdup_printf ("{\"projectPath\": \"%s\", \"action\": \"stop\"}",
                                           root);
  g_autofree char *victim = NULL;
  g_autofree char *found = NULL;
  g_autoptr(LodeToolResult) update = NULL;
  AsyncCall watch = { 0 };
  g_autoptr(LodeToolResult) stopped = NULL;
  gint64 deadline;

  write_confined_tree (root, outside);
  update = call_ok (fixture, "codebase_update", args, NULL);
  found = search_paths (fixture, root, "victim_function");
  g_assert_cmpstr (found, ==, "src/victim.c");

  /* Called from this thread's main context, as a server calls it: the monitors report there
   * (a synchronous call runs on a private context of its own, which is gone when it returns). */
  run_async (fixture, "codebase_watch", start, &watch);
  g_assert_no_error (watch.error);
  g_assert_false (watch.result->is_error);
  g_assert_true (json_object_get_boolean_member (watch.result->structured, "watching"));
  run_for (500);

  victim = g_build_filename (root, "src", "victim.c", NULL);
  g_assert_cmpint (g_unlink (victim), ==, 0);
  make_symlink ("../../outside/secret.c", root, "src/victim.c");
  make_symlink ("../outside/secret.c", root, "new_link.c");
  write_tree_file (outside, "changed.c", "int outside_changed_token (void) { return 7; }\n");
  write_tree_file (outside, "secret.c", "int outside_secret_token (void) { return 43; }\n"
                   "int outside_changed_token (void) { return 8; }\n");
  write_tree_file (root, "src/marker.c", "int watched_marker_function (void) { return 5; }\n");

  deadline = g_get_monotonic_time () + (gint64) test_timeout_seconds (60) * G_USEC_PER_SEC;
  do
    {
      g_assert_cmpint (g_get_monotonic_time (), <, deadline);
      run_for (200);
      g_clear_pointer (&found, g_free);
      found = search_paths (fixture, root, "watched_marker_function");
    }
  while (g_strcmp0 (found, "src/marker.c") != 0);
  /* Whatever else the watcher reports comes in the same batch or just after. */
  run_for (1500);

  for (guint i = 0; i < 3; i++)
    {
      const char *query = i == 0 ? "outside_secret_token" : i == 1 ? "outside_changed_token"
                                                                   : "victim_function";

      g_clear_pointer (&found, g_free);
      found = search_paths (fixture, root, query);
      if (g_strcmp0 (found, "") != 0)
        g_error ("%s found in %s", query, found);
    }

  stopped = call_ok (fixture, "codebase_watch", stop, NULL);
  g_assert_false (json_object_get_boolean_member (stopped->structured, "watching"));
  lode_tool_result_free (watch.result);
}

/* Replies name tools, not commands, and count in the user's language: one file, two files. */
static void
test_wording (ToolsFixture  *fixture,
              gconstpointer  data)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "wording-tree", NULL);
  g_autofree char *args = NULL;
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) status = NULL;
  g_autoptr(LodeToolResult) search = NULL;
  g_autoptr(LodeToolResult) list = NULL;
  g_autoptr(LodeToolResult) graph = NULL;
  g_autoptr(JsonNode) forms = NULL;
  g_autoptr(GString) form_text = g_string_new (NULL);
  AsyncCall indexing = { .messages = g_string_new (NULL) };

  write_tree_file (root, "one.c", "int\nsolitary_function (void)\n{\n  return 1;\n}\n");
  args = g_strdup_printf ("{\"projectPath\": \"%s\"}", root);
  call_fails (fixture, "codebase_search", "{\"query\": \"solitary\"}", root,
              "is not indexed yet: call codebase_index first");

  run_async (fixture, "codebase_update", args, &indexing);
  g_assert_no_error (indexing.error);
  update = g_steal_pointer (&indexing.result);
  g_assert_false (update->is_error);
  /* Progress is a snapshot that the finishing phase may overtake on a busy machine: what is
   * said must be singular when said. */
  g_assert_cmpuint (indexing.messages->len, >, 0);
  g_assert_null (strstr (indexing.messages->str, "of 1 files"));
  g_assert_nonnull (strstr (update->text, "1 chunk written"));
  status = call_ok (fixture, "codebase_status", args, NULL);
  g_assert_nonnull (strstr (status->text, "- 1 file, 1 chunk, 1 symbol, 5 lines\n"));
  search = call_ok (fixture, "codebase_search", "{\"query\": \"solitary_function\"}", root);
  g_assert_true (g_str_has_prefix (search->text, "## 1 result for"));
  list = call_ok (fixture, "codebase_list_projects", "{}", NULL);
  g_assert_true (g_str_has_prefix (list->text, "## 1 indexed project\n"));
  g_assert_nonnull (strstr (list->text, "1 file, 1 chunk"));
  graph = call_ok (fixture, "codebase_graph_stats", args, NULL);
  g_assert_nonnull (strstr (graph->text, "1 file, 0 file → file edges"));
  /* A watched project whose watcher has not said how it watches yet, and a job that skipped
   * and embedded some files, count them too. */
  forms = json_from_string ("{\"projectPath\": \"/p\", \"indexed\": true, "
                            "\"state\": \"ready\", \"files\": 1, \"chunks\": 1, "
                            "\"symbols\": 0, \"lines\": 1, \"languages\": [], "
                            "\"semantic\": {\"model\": \"m\", \"embeddedChunks\": 0, "
                            "\"embeddableChunks\": 1}, "
                            "\"watch\": {\"watching\": true, \"directories\": 1}, "
                            "\"job\": {\"state\": \"completed\", \"report\": "
                            "{\"chunks\": 1, \"skipped\": 1, \"embedded\": 1, "
                            "\"skippedFiles\": [{\"path\": \"logo.png\", "
                            "\"reason\": \"binary\", \"detail\": null}], "
                            "\"embeddingModel\": \"m\"}}}", NULL);
  lode_status_json_append_markdown (form_text, json_node_get_object (forms));
  g_assert_nonnull (strstr (form_text->str, "- Watched: 1 directory, changes"));
  g_assert_nonnull (strstr (form_text->str, "0 of 1 chunk embedded\n"));
  /* The text names what was skipped and why, as the status does not. */
  g_assert_nonnull (strstr (form_text->str, "- Skipped: 1 file\n  - `logo.png`: binary\n"));
  g_assert_nonnull (strstr (form_text->str, "- Embedded 1 chunk with m\n"));

  for (guint i = 0; i < 5; i++)
    {
      const LodeToolResult *result = (const LodeToolResult *[]) { update, status, search, list,
                                                                  graph }[i];

      g_assert_null (strstr (result->text, "lode index"));
      g_assert_null (strstr (result->text, " files, 1 "));
    }
  g_string_free (indexing.messages, TRUE);
}

static void
test_progress (ToolsFixture  *fixture,
               gconstpointer  data)
{
  g_autofree char *tree = make_big_tree ();
  g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\"}", tree);
  AsyncCall call = { 0 };

  run_async (fixture, "codebase_update", json, &call);
  g_assert_no_error (call.error);
  g_assert_false (call.result->is_error);
  g_assert_cmpuint (call.n_progress, >, 0);
  g_assert_cmpint (json_object_get_int_member (
                     json_object_get_object_member (
                       json_object_get_object_member (call.result->structured, "job"),
                       "report"), "files"), ==, 2000);
  lode_tool_result_free (call.result);
}

typedef struct
{
  guint  n_progress;
  guint  n_finished;
  guint  n_changed;
  guint  state;
  char  *project_id;
} Signals;

static void
index_progress_cb (LodeEngine *engine,
                   const char *project_id,
                   const char *root,
                   guint       phase,
                   guint       done,
                   guint       total,
                   Signals    *signals)
{
  g_assert_cmpstr (project_id, ==, signals->project_id);
  g_assert_true (total == 0 || done <= total);
  signals->n_progress++;
}

static void
index_finished_cb (LodeEngine *engine,
                   const char *project_id,
                   const char *root,
                   guint       state,
                   const char *error,
                   Signals    *signals)
{
  g_assert_cmpstr (project_id, ==, signals->project_id);
  signals->state = state;
  signals->n_finished++;
}

static void
index_changed_cb (LodeEngine *engine,
                  const char *project_id,
                  const char *root,
                  Signals    *signals)
{
  g_assert_cmpstr (project_id, ==, signals->project_id);
  signals->n_changed++;
}

static void
test_cancel (ToolsFixture  *fixture,
             gconstpointer  data)
{
  g_autofree char *tree = make_big_tree ();
  g_autofree char *json = g_strdup_printf ("{\"projectPath\": \"%s\"}", tree);
  g_autofree char *id = lode_project_id_for_path (tree);
  g_autoptr(LodeJobInfo) job = NULL;
  g_autoptr(LodeToolResult) status = NULL;
  AsyncCall call = { 0 };
  Signals signals = { .project_id = id };
  guint watchdog;

  g_signal_connect (fixture->engine, "index-finished", G_CALLBACK (index_finished_cb), &signals);
  g_signal_connect (fixture->engine, "index-changed", G_CALLBACK (index_changed_cb), &signals);

  /* Cancelling the request that waits for the run stops the run. */
  call.cancellable = g_cancellable_new ();
  run_async (fixture, "codebase_update", json, &call);
  g_assert_error (call.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (call.result);
  g_clear_error (&call.error);
  g_clear_object (&call.cancellable);

  job = lode_engine_wait_index (fixture->engine, id, NULL, NULL, NULL, NULL);
  g_assert_nonnull (job);
  g_assert_cmpint (job->state, ==, LODE_JOB_STATE_CANCELLED);

  /* Whoever shows the project hears of the end: the page of the desktop app refreshes the
   * project's status on index-changed, and would show it indexing for ever without it. */
  watchdog = g_timeout_add_seconds (test_timeout_seconds (60), watchdog_cb, NULL);
  while (signals.n_finished == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);
  g_assert_cmpuint (signals.state, ==, LODE_JOB_STATE_CANCELLED);
  g_assert_cmpuint (signals.n_changed, ==, 1);
  g_signal_handlers_disconnect_by_data (fixture->engine, &signals);

  status = call_ok (fixture, "codebase_status", json, NULL);
  g_assert_cmpstr (json_object_get_string_member (
                     json_object_get_object_member (status->structured, "job"), "state"), ==,
                   "cancelled");
  g_assert_false (json_object_get_boolean_member (status->structured, "indexing"));
}

static void
test_jobs (ToolsFixture  *fixture,
           gconstpointer  data)
{
  g_autofree char *tree = make_big_tree ();
  g_autoptr(LodeJobInfo) first = NULL;
  g_autoptr(LodeJobInfo) second = NULL;
  g_autoptr(LodeJobInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  Signals signals = { 0 };
  gboolean joined = TRUE;
  guint watchdog;

  signals.project_id = lode_project_id_for_path (tree);
  g_signal_connect (fixture->engine, "index-progress", G_CALLBACK (index_progress_cb), &signals);
  g_signal_connect (fixture->engine, "index-finished", G_CALLBACK (index_finished_cb), &signals);
  g_signal_connect (fixture->engine, "index-changed", G_CALLBACK (index_changed_cb), &signals);

  g_assert_null (lode_engine_dup_job (fixture->engine, signals.project_id));

  first = lode_engine_start_index (fixture->engine, tree, LODE_INDEX_REQUEST_UPDATE, TRUE,
                                   &joined, &error);
  g_assert_no_error (error);
  g_assert_false (joined);
  g_assert_cmpint (first->state, ==, LODE_JOB_STATE_RUNNING);
  g_assert_cmpstr (first->project_id, ==, signals.project_id);

  /* A second request joins the running job instead of starting another. */
  second = lode_engine_start_index (fixture->engine, tree, LODE_INDEX_REQUEST_UPDATE, TRUE,
                                    &joined, &error);
  g_assert_no_error (error);
  g_assert_true (joined);
  g_assert_cmpint (second->started_at, ==, first->started_at);

  watchdog = g_timeout_add_seconds (test_timeout_seconds (60), watchdog_cb, NULL);
  while (signals.n_finished == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);

  g_assert_cmpuint (signals.n_progress, >, 0);
  g_assert_cmpuint (signals.state, ==, LODE_JOB_STATE_SUCCEEDED);
  g_assert_cmpuint (signals.n_changed, ==, 1);

  info = lode_engine_dup_job (fixture->engine, signals.project_id);
  g_assert_cmpint (info->state, ==, LODE_JOB_STATE_SUCCEEDED);
  g_assert_cmpuint (info->report->n_files, ==, 2000);
  g_assert_cmpint (info->finished_at, >=, info->started_at);

  /* Nothing runs: stopping is a no-op and the finished job is kept for status. */
  g_assert_false (lode_engine_stop_index (fixture->engine, signals.project_id));

  g_signal_handlers_disconnect_by_data (fixture->engine, &signals);
  g_free (signals.project_id);
}

/* The projects of @result's results, as "name name …" (the last part of each path). */
static char *
result_projects (LodeToolResult *result)
{
  JsonArray *results = json_object_get_array_member (result->structured, "results");
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (results); i++)
    {
      JsonObject *r = json_array_get_object_element (results, i);
      const char *project = json_object_get_string_member_with_default (r, "project", "-");

      g_string_append_printf (names, "%s%s", i > 0 ? " " : "", strrchr (project, '/') != NULL
                                                               ? strrchr (project, '/') + 1
                                                               : project);
    }

  return g_string_free (names, FALSE);
}

/* Writes the project @base/@name with one function, @name_frobnicate_widget; returns its root. */
static char *
write_widget_project (const char *base,
                      const char *name)
{
  char *root = g_build_filename (base, name, NULL);
  g_autofree char *file = g_strdup_printf ("%s.c", name);
  g_autofree char *text = g_strdup_printf ("int\n%s_frobnicate_widget (int widget)\n"
                                           "{\n  return widget + 1;\n}\n", name);

  write_tree_file (root, file, text);
  return root;
}

/* The arguments of a lexical search of @root and the projects it links to. */
static char *
linked_search_args (const char *root)
{
  return g_strdup_printf ("{\"projectPath\": \"%s\", \"query\": \"frobnicate widget\", "
                          "\"mode\": \"lexical\", \"includeLinked\": true}", root);
}

/* includeLinked searches the projects .lode.json and .socraticode.json link to, transitively,
 * labels each result with its project, and notes (does not fail on) a missing root, a link
 * back, an unindexed project and a link file that is not JSON. */
static void
test_linked (ToolsFixture  *fixture,
             gconstpointer  data)
{
  g_autofree char *base = g_build_filename (g_get_user_cache_dir (), "linked", NULL);
  const char *names[] = { "app", "lib", "tools", "unlinked", NULL };
  g_autofree char *app = g_build_filename (base, "app", NULL);
  g_autofree char *plain_args = NULL;
  g_autofree char *linked_args = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *notes = NULL;
  g_autofree char *projects = NULL;
  g_autofree char *expected = NULL;
  g_autoptr(LodeToolResult) plain = NULL;
  g_autoptr(LodeToolResult) linked = NULL;

  for (guint i = 0; names[i] != NULL; i++)
    g_free (write_widget_project (base, names[i]));
  /* app → lib (SocratiCode's file) → app again and tools (not indexed); app → a missing
   * root; tools' link file is broken. */
  write_tree_file (app, ".lode.json", "{\"linkedProjects\": [\"../lib\", \"../missing\"]}");
  write_tree_file (base, "lib/.socraticode.json",
                   "{\"linkedProjects\": [\"../app\", \"../tools\"]}");
  write_tree_file (base, "tools/.lode.json", "{\"linkedProjects\": [");
  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *root = g_build_filename (base, names[i], NULL);
      g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": true}",
                                               root);

      if (g_str_equal (names[i], "tools"))
        continue;
      g_clear_pointer (&plain, lode_tool_result_free);
      plain = call_ok (fixture, "codebase_index", args, NULL);
    }
  g_clear_pointer (&plain, lode_tool_result_free);

  plain_args = g_strdup_printf ("{\"projectPath\": \"%s\", \"query\": \"frobnicate widget\", "
                                "\"mode\": \"lexical\"}", app);
  plain = call_ok (fixture, "codebase_search", plain_args, NULL);
  labels = result_projects (plain);
  g_assert_cmpstr (labels, ==, "-");
  g_assert_false (json_object_has_member (plain->structured, "notes"));
  g_clear_pointer (&labels, g_free);

  linked_args = linked_search_args (app);
  linked = call_ok (fixture, "codebase_search", linked_args, NULL);
  labels = result_projects (linked);
  g_assert_cmpstr (labels, ==, "app lib");
  projects = json_strings (json_object_get_array_member (linked->structured, "projects"));
  expected = g_strdup_printf ("%s %s/lib", app, base);
  g_assert_cmpstr (projects, ==, expected);
  notes = json_strings (json_object_get_array_member (linked->structured, "notes"));
  g_test_message ("notes: %s", notes);
  g_assert_nonnull (strstr (notes, "missing, which is not a directory"));
  g_assert_nonnull (strstr (notes, "app, which is already searched"));
  g_assert_nonnull (strstr (notes, "tools is not searched"));
  g_assert_nonnull (strstr (notes, "tools/.lode.json is not valid JSON"));
  g_assert_nonnull (strstr (linked->text, "lib] `lib.c:"));
}

/* SOCRATICODE_LINKED_PROJECTS (LodeConfig.linked_projects) adds roots, relative to the
 * searched project, after those of its link files; the projects it links to do not inherit
 * them. */
static void
test_linked_env (ToolsFixture  *fixture,
                 gconstpointer  data)
{
  g_autofree char *base = g_build_filename (g_get_user_cache_dir (), "linked-env", NULL);
  const char *names[] = { "app", "lib", "extra", NULL };
  const char *extra[] = { "../extra", "../lib", "../gone", NULL };
  g_autofree char *app = g_build_filename (base, "app", NULL);
  g_autofree char *lib = g_build_filename (base, "lib", NULL);
  g_autofree char *app_args = NULL;
  g_autofree char *lib_args = NULL;
  g_autofree char *labels = NULL;
  g_autofree char *notes = NULL;
  g_autofree char *projects = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *lib_links = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeToolResult) result = NULL;

  for (guint i = 0; names[i] != NULL; i++)
    {
      g_autofree char *root = write_widget_project (base, names[i]);
      g_autofree char *args = g_strdup_printf ("{\"projectPath\": \"%s\", \"wait\": true}",
                                               root);

      g_clear_pointer (&result, lode_tool_result_free);
      result = call_ok (fixture, "codebase_index", args, NULL);
    }
  write_tree_file (app, ".socraticode.json", "{\"linkedProjects\": [\"../lib\"]}");

  /* The fixture's engine, with the variable's roots in its configuration. */
  config = lode_config_copy (lode_engine_get_config (fixture->engine));
  config->linked_projects = g_strdupv ((char **) extra);
  g_clear_object (&fixture->registry);
  g_clear_object (&fixture->engine);
  fixture->engine = lode_engine_new (config);
  fixture->registry = lode_tools_new_registry (fixture->engine);

  app_args = linked_search_args (app);
  g_clear_pointer (&result, lode_tool_result_free);
  result = call_ok (fixture, "codebase_search", app_args, NULL);
  projects = json_strings (json_object_get_array_member (result->structured, "projects"));
  expected = g_strdup_printf ("%s %s %s/extra", app, lib, base);
  g_assert_cmpstr (projects, ==, expected);
  labels = result_projects (result);
  g_assert_nonnull (strstr (labels, "extra"));
  notes = json_strings (json_object_get_array_member (result->structured, "notes"));
  g_test_message ("notes: %s", notes);
  g_assert_nonnull (strstr (notes, "gone, which is not a directory"));
  g_assert_nonnull (strstr (notes, "lib, which is already searched"));
  lib_links = g_strdup_printf ("%s links to", lib);
  g_assert_null (strstr (notes, lib_links));
  g_clear_pointer (&projects, g_free);
  g_clear_pointer (&expected, g_free);

  lib_args = linked_search_args (lib);
  g_clear_pointer (&result, lode_tool_result_free);
  result = call_ok (fixture, "codebase_search", lib_args, NULL);
  projects = json_strings (json_object_get_array_member (result->structured, "projects"));
  expected = g_strdup_printf ("%s %s/extra", lib, base);
  g_assert_cmpstr (projects, ==, expected);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/json-schema/validate", test_schema);
  g_test_add ("/lode/tools/registry", ToolsFixture, NULL, tools_setup, test_registry,
              tools_teardown);
  g_test_add ("/lode/tools/result-names", ToolsFixture, NULL, tools_setup, test_result_names,
              tools_teardown);
  g_test_add ("/lode/tools/unknown-tool", ToolsFixture, NULL, tools_setup, test_unknown_tool,
              tools_teardown);
  g_test_add ("/lode/tools/invalid-arguments", ToolsFixture, NULL, tools_setup,
              test_invalid_arguments, tools_teardown);
  g_test_add ("/lode/tools/lifecycle", ToolsFixture, NULL, tools_setup, test_lifecycle,
              tools_teardown);
  g_test_add ("/lode/tools/damaged-rebuild", ToolsFixture, NULL, tools_setup,
              test_damaged_rebuild, tools_teardown);
  g_test_add ("/lode/tools/health-about", ToolsFixture, NULL, tools_setup, test_health_about,
              tools_teardown);
  g_test_add ("/lode/tools/semantic", ToolsFixture, NULL, tools_setup, test_semantic_tools,
              tools_teardown);
  g_test_add ("/lode/tools/graph", ToolsFixture, NULL, tools_setup, test_graph_tools,
              tools_teardown);
  g_test_add ("/lode/tools/graph-visualize-symbol", ToolsFixture, NULL, tools_setup,
              test_graph_visualize_symbol, tools_teardown);
  g_test_add ("/lode/tools/markdown-file-names", ToolsFixture, NULL, tools_setup,
              test_markdown_file_names, tools_teardown);
  g_test_add ("/lode/tools/confinement", ToolsFixture, NULL, tools_setup, test_confinement,
              tools_teardown);
  g_test_add ("/lode/tools/confinement-symbols", ToolsFixture, NULL, tools_setup,
              test_confinement_symbols, tools_teardown);
  g_test_add ("/lode/tools/confinement-watch", ToolsFixture, NULL, tools_setup,
              test_confinement_watch, tools_teardown);
  g_test_add ("/lode/tools/graph-stats-orphans", ToolsFixture, NULL, tools_setup,
              test_graph_stats_orphans, tools_teardown);
  g_test_add ("/lode/tools/routing", ToolsFixture, NULL, tools_setup, test_routing,
              tools_teardown);
  g_test_add ("/lode/tools/wording", ToolsFixture, NULL, tools_setup, test_wording,
              tools_teardown);
  g_test_add ("/lode/tools/progress", ToolsFixture, NULL, tools_setup, test_progress,
              tools_teardown);
  g_test_add ("/lode/tools/cancel", ToolsFixture, NULL, tools_setup, test_cancel,
              tools_teardown);
  g_test_add ("/lode/tools/linked", ToolsFixture, NULL, tools_setup, test_linked,
              tools_teardown);
  g_test_add ("/lode/tools/linked-env", ToolsFixture, NULL, tools_setup, test_linked_env,
              tools_teardown);
  g_test_add ("/lode/engine/jobs", ToolsFixture, NULL, tools_setup, test_jobs, tools_teardown);

  return g_test_run ();
}
