/* test-tool-profiles.c — tools/list as clients see it, and other servers' tool names
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-tool-profile.h"
#include "lode.h"

/* An agent reads the whole default tools/list into its context. */
#define MAX_TOOLS_LIST_BYTES 40000

typedef struct
{
  LodeEngine       *engine;
  LodeToolRegistry *registry;
} ProfileFixture;

static void
profile_setup (ProfileFixture *fixture,
               gconstpointer   data)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();

  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data", NULL);
  fixture->engine = lode_engine_new (config);
  fixture->registry = lode_tools_new_registry (fixture->engine);
}

static void
profile_teardown (ProfileFixture *fixture,
                  gconstpointer   data)
{
  g_clear_object (&fixture->registry);
  g_clear_object (&fixture->engine);
}

static gsize
list_size (JsonArray *tools)
{
  g_autoptr(JsonNode) node = json_node_init_array (json_node_alloc (), tools);
  g_autofree char *text = lode_json_to_string (node, FALSE);

  return strlen (text);
}

/* The default list stays small enough for an agent's context, with every tool and every
 * parameter described; the published output schemas accept what the whole ones do. */
static void
test_default_list (ProfileFixture *fixture,
                   gconstpointer   data)
{
  const LodeToolProfile *profile = lode_tool_profile_lookup (LODE_TOOL_PROFILE_DEFAULT);
  g_autoptr(JsonArray) tools = lode_tool_profile_list_tools (profile, fixture->registry);
  g_autoptr(GPtrArray) registered = lode_tool_registry_list (fixture->registry);
  gsize size = list_size (tools);

  g_test_message ("tools/list: %u tools, %" G_GSIZE_FORMAT " bytes",
                  json_array_get_length (tools), size);
  g_assert_cmpuint (size, <, MAX_TOOLS_LIST_BYTES);
  g_assert_cmpuint (json_array_get_length (tools), ==, registered->len);

  for (guint i = 0; i < json_array_get_length (tools); i++)
    {
      JsonObject *tool = json_array_get_object_element (tools, i);
      JsonObject *input = json_object_get_object_member (tool, "inputSchema");
      JsonObject *output = json_object_get_object_member (tool, "outputSchema");
      JsonObject *properties = json_object_get_object_member (input, "properties");
      g_autoptr(GList) names = json_object_get_members (properties);
      JsonObject *annotations = json_object_get_object_member (tool, "annotations");

      g_assert_cmpuint (strlen (json_object_get_string_member (tool, "description")), >, 40);
      for (GList *l = names; l != NULL; l = l->next)
        if (!json_object_has_member (json_object_get_object_member (properties, l->data),
                                     "description"))
          g_error ("%s: parameter %s has no description",
                   json_object_get_string_member (tool, "name"), (const char *) l->data);
      g_assert_cmpstr (json_object_get_string_member (output, "type"), ==, "object");
      g_assert_true (json_object_has_member (output, "properties"));
      /* The defaults of these two are true: they are always said. */
      g_assert_true (json_object_has_member (annotations, "destructiveHint"));
      g_assert_true (json_object_has_member (annotations, "openWorldHint"));
    }
}

/* Each profile lists only its own names, each standing for a registry tool; unknown names
 * are refused. */
static void
test_profiles (ProfileFixture *fixture,
               gconstpointer   data)
{
  static const struct
  {
    const char        *profile;
    const char *const  tools[12];
  } expected[] = {
    { "codebase-context", { "search_codebase", "get_codebase_metadata", "get_indexing_status",
                            "refresh_index", "get_style_guide", "get_team_patterns",
                            "get_symbol_references", "detect_circular_dependencies",
                            "remember", "get_memory", NULL } },
    { "semantic-watcher", { "semantic_search", "refresh_index", NULL } },
    { "ragcode", { "search_code", "hybrid_search", "search_docs", "get_function_details",
                   "find_type_definition", "list_package_exports", "find_implementations",
                   "index_workspace", NULL } },
  };
  g_autofree char *names = lode_tool_profile_dup_names ();

  g_assert_cmpstr (names, ==, "lode, codebase-context, semantic-watcher, ragcode");
  g_assert_null (lode_tool_profile_lookup ("socraticode"));

  for (guint p = 0; p < G_N_ELEMENTS (expected); p++)
    {
      const LodeToolProfile *profile = lode_tool_profile_lookup (expected[p].profile);
      g_autoptr(JsonArray) tools = lode_tool_profile_list_tools (profile, fixture->registry);

      g_assert_cmpuint (json_array_get_length (tools), ==,
                        g_strv_length ((char **) expected[p].tools));
      for (guint i = 0; expected[p].tools[i] != NULL; i++)
        {
          JsonObject *tool = json_array_get_object_element (tools, i);
          JsonObject *properties =
            json_object_get_object_member (json_object_get_object_member (tool, "inputSchema"),
                                           "properties");
          g_autoptr(GList) members = json_object_get_members (properties);

          g_assert_cmpstr (json_object_get_string_member (tool, "name"), ==,
                           expected[p].tools[i]);
          g_assert_true (lode_tool_profile_has_tool (profile, fixture->registry,
                                                     expected[p].tools[i]));
          for (GList *l = members; l != NULL; l = l->next)
            g_assert_true (json_object_has_member (json_object_get_object_member (properties,
                                                                                  l->data),
                                                   "description"));
        }
      g_assert_false (lode_tool_profile_has_tool (profile, fixture->registry,
                                                  "codebase_search"));
    }
}

static JsonObject *
object_from (const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);

  g_assert_nonnull (node);
  return json_node_dup_object (node);
}

/* A profile's call becomes the registry tool's, its arguments renamed; arguments that do not
 * fit the schema the client was shown are refused in the names it knows. */
static void
test_map_calls (ProfileFixture *fixture,
                gconstpointer   data)
{
  const LodeToolProfile *cc = lode_tool_profile_lookup ("codebase-context");
  const LodeToolProfile *watcher = lode_tool_profile_lookup ("semantic-watcher");
  const LodeToolProfile *ragcode = lode_tool_profile_lookup ("ragcode");
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(JsonObject) mapped = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *tool = NULL;
  g_autofree char *workspace = g_build_filename (g_get_user_data_dir (), "ws", NULL);
  g_autofree char *git = g_build_filename (workspace, ".git", NULL);
  g_autofree char *file = g_build_filename (workspace, "src", "a.go", NULL);
  g_autofree char *args = NULL;
  gboolean json_text;

  arguments = object_from ("{\"query\": \"parse config\", \"intent\": \"edit\", \"limit\": 5, "
                           "\"includeSnippets\": true, \"filters\": {\"language\": \"python\", "
                           "\"layer\": \"core\"}}");
  g_assert_true (lode_tool_profile_map_call (cc, fixture->registry, "search_codebase", arguments,
                                             &tool, &mapped, &json_text, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (tool, ==, "codebase_search");
  g_assert_cmpstr (json_object_get_string_member (mapped, "languageFilter"), ==, "python");
  g_assert_cmpstr (json_object_get_string_member (mapped, "intent"), ==, "edit");
  g_assert_cmpint (json_object_get_int_member (mapped, "limit"), ==, 5);
  g_assert_cmpuint (json_object_get_size (mapped), ==, 4);
  g_assert_true (lode_tool_registry_check_arguments (fixture->registry, tool, mapped, &error));
  g_clear_pointer (&tool, g_free);
  g_clear_pointer (&mapped, json_object_unref);
  g_clear_pointer (&arguments, json_object_unref);

  /* The same tool name, another server's meaning: codebase-context's refresh_index starts a
   * run, the semantic watcher's waits for it. */
  arguments = object_from ("{}");
  g_assert_true (lode_tool_profile_map_call (cc, fixture->registry, "refresh_index", arguments,
                                             &tool, &mapped, &json_text, &error));
  g_assert_cmpstr (tool, ==, "codebase_index");
  g_clear_pointer (&tool, g_free);
  g_clear_pointer (&mapped, json_object_unref);
  g_assert_true (lode_tool_profile_map_call (watcher, fixture->registry, "refresh_index",
                                             arguments, &tool, &mapped, &json_text, &error));
  g_assert_cmpstr (tool, ==, "codebase_update");
  g_clear_pointer (&tool, g_free);
  g_clear_pointer (&mapped, json_object_unref);
  g_clear_pointer (&arguments, json_object_unref);

  arguments = object_from ("{\"query\": \"x\", \"limit\": 50}");
  g_assert_false (lode_tool_profile_map_call (watcher, fixture->registry, "semantic_search",
                                              arguments, &tool, &mapped, &json_text, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "limit"));
  g_clear_error (&error);
  g_clear_pointer (&arguments, json_object_unref);

  /* A client with several roots names the project, as lode-mcp asks it to. */
  arguments = object_from ("{\"query\": \"x\", \"projectPath\": \"/srv/shop\"}");
  g_assert_true (lode_tool_profile_map_call (watcher, fixture->registry, "semantic_search",
                                             arguments, &tool, &mapped, &json_text, &error));
  g_assert_cmpstr (json_object_get_string_member (mapped, "projectPath"), ==, "/srv/shop");
  g_clear_pointer (&tool, g_free);
  g_clear_pointer (&mapped, json_object_unref);
  g_clear_pointer (&arguments, json_object_unref);

  g_assert_false (lode_tool_profile_map_call (watcher, fixture->registry, "codebase_search",
                                              json_object_new (), &tool, &mapped, &json_text,
                                              &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* RagCode: file_path picks the project; a relative one names none; output_format json
   * asks for the result as JSON text. */
  g_assert_cmpint (g_mkdir_with_parents (git, 0700), ==, 0);
  g_assert_cmpint (g_mkdir_with_parents (g_path_get_dirname (file), 0700), ==, 0);
  g_assert_true (g_file_set_contents (file, "package a\n", -1, NULL));
  args = g_strdup_printf ("{\"query\": \"x\", \"file_path\": \"%s\", \"output_format\": "
                          "\"json\"}", file);
  arguments = object_from (args);
  g_assert_true (lode_tool_profile_map_call (ragcode, fixture->registry, "hybrid_search",
                                             arguments, &tool, &mapped, &json_text, &error));
  g_assert_cmpstr (json_object_get_string_member (mapped, "projectPath"), ==, file);
  g_assert_true (json_text);
  g_clear_pointer (&tool, g_free);
  g_clear_pointer (&mapped, json_object_unref);
  g_clear_pointer (&arguments, json_object_unref);

  arguments = object_from ("{\"function_name\": \"Open\", \"file_path\": \"src/a.go\", "
                           "\"class_name\": \"Store\"}");
  g_assert_true (lode_tool_profile_map_call (ragcode, fixture->registry, "get_function_details",
                                             arguments, &tool, &mapped, &json_text, &error));
  g_assert_false (json_object_has_member (mapped, "projectPath"));
  g_assert_false (json_object_has_member (mapped, "file_path"));
  g_assert_cmpstr (json_object_get_string_member (mapped, "class_name"), ==, "Store");
  g_assert_true (lode_tool_registry_check_arguments (fixture->registry, tool, mapped, &error));
  g_clear_pointer (&tool, g_free);
  g_clear_pointer (&mapped, json_object_unref);
  g_clear_pointer (&arguments, json_object_unref);

  g_free (args);
  args = g_strdup_printf ("{\"file_path\": \"%s\", \"language\": \"go\"}", file);
  arguments = object_from (args);
  g_assert_true (lode_tool_profile_map_call (ragcode, fixture->registry, "index_workspace",
                                             arguments, &tool, &mapped, &json_text, &error));
  g_assert_cmpstr (tool, ==, "codebase_index");
  g_assert_cmpstr (json_object_get_string_member (mapped, "projectPath"), ==, workspace);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, ProfileFixture, NULL, profile_setup, func, profile_teardown)
  ADD ("/lode/tool-profiles/default-list", test_default_list);
  ADD ("/lode/tool-profiles/profiles", test_profiles);
  ADD ("/lode/tool-profiles/map-calls", test_map_calls);
#undef ADD

  return g_test_run ();
}
