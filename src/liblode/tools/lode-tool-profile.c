/* lode-tool-profile.c — the tool lists an MCP client is shown: Lode's, or another server's
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-json-schema.h"
#include "lode-tool-profile.h"

/*
 * An agent set up for another code-search server has instructions that name that server's
 * tools and arguments. A profile shows it those names over Lode's engine: each of its tools
 * is an alias of a tool of the registry, with the other server's input schema and a function
 * that maps its arguments onto the registry tool's. The registry tool runs as it always does
 * (in loded or in this process), and its result — valid against the output schema listed
 * with the alias, the registry tool's — goes back as it is. The default profile, Lode's own,
 * lists every tool of the registry.
 *
 * tools/list is read into an agent's context, so what it lists is kept small: an output
 * schema is published as the result's members, their types and which are always there —
 * what nested objects hold is said by the tool's description and seen in every result —;
 * the registry keeps the whole schemas, which results are checked against (tests/liblode).
 * Every result valid against the whole schema is valid against the published one.
 */

typedef JsonObject *(*AliasMapFunc) (JsonObject *arguments);

typedef struct
{
  const char   *name;
  const char   *title;          /* NULL: the registry tool's own definition, under its name */
  const char   *description;
  const char   *input_schema;
  const char   *target;
  AliasMapFunc  map;
  gboolean      json_text;      /* output_format "json" asks for the result as JSON text */
} Alias;

struct _LodeToolProfile
{
  const char         *name;
  const Alias *const *aliases;  /* NULL: every tool of the registry */
};

/* Argument helpers ------------------------------------------------------------------- */

static void
copy_member (JsonObject *from,
             const char *name,
             JsonObject *to,
             const char *to_name)
{
  JsonNode *node = json_object_get_member (from, name);

  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    json_object_set_member (to, to_name, json_node_copy (node));
}

/* Other servers declare counts as numbers; the registry's tools take integers. */
static void
copy_count (JsonObject *from,
            const char *name,
            JsonObject *to,
            const char *to_name,
            gint64      max)
{
  JsonNode *node = json_object_get_member (from, name);

  if (node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
      (json_node_get_value_type (node) == G_TYPE_INT64 ||
       json_node_get_value_type (node) == G_TYPE_DOUBLE))
    json_object_set_int_member (to, to_name,
                                CLAMP ((gint64) json_node_get_double (node), 1, max));
}

/* RagCode's file_path names the workspace by a file in it: an absolute path stands for the
 * indexed tree that holds it; a relative one names nothing Lode can resolve, so the
 * client's root is used. */
static void
copy_file_path (JsonObject *from,
                JsonObject *to)
{
  const char *path = json_object_get_string_member_with_default (from, "file_path", NULL);

  if (path != NULL && g_path_is_absolute (path))
    json_object_set_string_member (to, "projectPath", path);
}

static JsonObject *
map_same (JsonObject *arguments)
{
  return json_object_ref (arguments);
}

static JsonObject *
map_nothing (JsonObject *arguments)
{
  return json_object_new ();
}

/* codebase-context --------------------------------------------------------------------- */

static JsonObject *
map_search_codebase (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();
  JsonObject *filters = json_object_get_object_member (arguments, "filters");

  copy_member (arguments, "query", to, "query");
  copy_member (arguments, "intent", to, "intent");
  copy_count (arguments, "limit", to, "limit", 100);
  if (filters != NULL)
    copy_member (filters, "language", to, "languageFilter");

  return to;
}

static JsonObject *
map_symbol_references (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();

  copy_member (arguments, "symbol", to, "symbol");
  copy_count (arguments, "limit", to, "limit", 1000);

  return to;
}

static JsonObject *
map_circular (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();

  copy_member (arguments, "scope", to, "scope");
  return to;
}

static const Alias search_codebase = {
  "search_codebase", "Search the codebase",
  "Search the indexed project with words, an identifier or a question: ranked code chunks "
  "with path, lines, symbol and snippet. Pass intent \"edit\", \"refactor\" or \"migrate\" "
  "before changing code to get a preflight card (ready or not, patterns to follow and "
  "avoid, impact, related memories).",
  "{\"type\": \"object\", \"properties\": {"
  "\"query\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"What to look "
  "for\"}, "
  "\"intent\": {\"enum\": [\"explore\", \"edit\", \"refactor\", \"migrate\"], "
  "\"description\": \"edit, refactor or migrate add the preflight card\"}, "
  "\"limit\": {\"type\": \"number\", \"description\": \"Results (default 10)\"}, "
  "\"includeSnippets\": {\"type\": \"boolean\", \"description\": \"Snippets are always "
  "included\"}, "
  "\"filters\": {\"type\": \"object\", \"description\": \"language: only this language; "
  "other filters are ignored\"}}, \"required\": [\"query\"]}",
  "codebase_search", map_search_codebase, FALSE
};

static const Alias get_symbol_references = {
  "get_symbol_references", "Symbol references",
  "Where a symbol is defined and used (calls, type uses, imports), from the index of "
  "identifiers: never comments or strings.",
  "{\"type\": \"object\", \"properties\": {"
  "\"symbol\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The symbol's "
  "name\"}, "
  "\"limit\": {\"type\": \"number\", \"description\": \"References to list (default "
  "100)\"}}, \"required\": [\"symbol\"]}",
  "codebase_symbol_references", map_symbol_references, FALSE
};

static const Alias get_indexing_status = {
  "get_indexing_status", "Indexing status",
  "The index's state, counts and the running or last indexing job; refresh_index brings "
  "it up to date.",
  "{\"type\": \"object\", \"properties\": {}}",
  "codebase_status", map_nothing, FALSE
};

static const Alias refresh_index_background = {
  "refresh_index", "Refresh the index",
  "Bring the index up to date in the background (every changed file is found by its "
  "content, so a full re-index is never needed); follow it with get_indexing_status.",
  "{\"type\": \"object\", \"properties\": {"
  "\"reason\": {\"type\": \"string\", \"description\": \"Why, for the log\"}, "
  "\"incrementalOnly\": {\"type\": \"boolean\", \"description\": \"Lode's updates are "
  "always incremental\"}}}",
  "codebase_index", map_nothing, FALSE
};

static const Alias detect_circular_dependencies = {
  "detect_circular_dependencies", "Circular dependencies",
  "Import cycles between files, largest first: a shortest cycle and all members of each.",
  "{\"type\": \"object\", \"properties\": {"
  "\"scope\": {\"type\": \"string\", \"description\": \"Only cycles with a file under this "
  "path prefix (src/features)\"}}}",
  "codebase_graph_circular", map_circular, FALSE
};

/* A registry tool listed under its own name and definition. */
#define SAME(tool) { tool, NULL, NULL, NULL, tool, map_same, FALSE }

static const Alias remember = SAME ("remember");
static const Alias get_memory = SAME ("get_memory");
static const Alias get_team_patterns = SAME ("get_team_patterns");
static const Alias get_style_guide = SAME ("get_style_guide");
static const Alias get_codebase_metadata = SAME ("get_codebase_metadata");

static const Alias *const codebase_context[] = {
  &search_codebase, &get_codebase_metadata, &get_indexing_status, &refresh_index_background,
  &get_style_guide, &get_team_patterns, &get_symbol_references, &detect_circular_dependencies,
  &remember, &get_memory, NULL
};

/* semantic-watcher --------------------------------------------------------------------- */

static JsonObject *
map_semantic_search (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();

  copy_member (arguments, "query", to, "query");
  copy_count (arguments, "limit", to, "limit", 20);

  return to;
}

static const Alias semantic_search = {
  "semantic_search", "Semantic search",
  "Search the codebase with words or a question: the best matching code chunks with path, "
  "lines and snippet.",
  "{\"type\": \"object\", \"properties\": {"
  "\"query\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The search "
  "query\"}, "
  "\"limit\": {\"type\": \"number\", \"minimum\": 1, \"maximum\": 20, \"description\": "
  "\"Results to return\"}}, \"required\": [\"query\"]}",
  "codebase_search", map_semantic_search, FALSE
};

static const Alias refresh_index_wait = {
  "refresh_index", "Refresh the index",
  "Re-scan the repository and wait until the index is up to date (only changed files are "
  "read again).",
  "{\"type\": \"object\", \"properties\": {}}",
  "codebase_update", map_nothing, FALSE
};

static const Alias *const semantic_watcher[] = { &semantic_search, &refresh_index_wait, NULL };

/* RagCode ---------------------------------------------------------------------------- */

#define RAGCODE_FILE_PATH \
  "\"file_path\": {\"type\": \"string\", \"description\": \"A file in the workspace "   \
  "(absolute), to pick the project\"}"
#define RAGCODE_OUTPUT_FORMAT \
  "\"output_format\": {\"enum\": [\"markdown\", \"json\"], \"description\": \"Text as " \
  "markdown (default) or JSON\"}"

static JsonObject *
map_ragcode_search (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();

  copy_member (arguments, "query", to, "query");
  copy_count (arguments, "limit", to, "limit", 100);
  copy_file_path (arguments, to);

  return to;
}

static JsonObject *
map_search_docs (JsonObject *arguments)
{
  JsonObject *to = map_ragcode_search (arguments);

  json_object_set_string_member (to, "languageFilter", "markdown");
  return to;
}

/* The symbol tools take RagCode's arguments already, and projectPath for file_path. */
static JsonObject *
map_ragcode_symbols (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();
  g_autoptr(GList) names = json_object_get_members (arguments);

  for (GList *l = names; l != NULL; l = l->next)
    if (!g_str_equal (l->data, "file_path"))
      copy_member (arguments, l->data, to, l->data);
  copy_file_path (arguments, to);

  return to;
}

static JsonObject *
map_find_implementations (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();

  copy_member (arguments, "symbol_name", to, "symbol");
  copy_file_path (arguments, to);

  return to;
}

/* The workspace of a file: the nearest folder above it that holds .git, else its folder. */
static JsonObject *
map_index_workspace (JsonObject *arguments)
{
  JsonObject *to = json_object_new ();
  const char *path = json_object_get_string_member (arguments, "file_path");
  g_autofree char *dir = NULL;

  if (!g_path_is_absolute (path))
    return to;
  dir = g_file_test (path, G_FILE_TEST_IS_DIR) ? g_canonicalize_filename (path, NULL)
                                                : g_path_get_dirname (path);
  for (char *p = g_strdup (dir); ; )
    {
      g_autofree char *git = g_build_filename (p, ".git", NULL);
      g_autofree char *parent = g_path_get_dirname (p);

      if (g_file_test (git, G_FILE_TEST_EXISTS))
        {
          g_free (dir);
          dir = p;
          break;
        }
      if (g_str_equal (parent, p))
        {
          g_free (p);
          break;
        }
      g_free (p);
      p = g_steal_pointer (&parent);
    }
  json_object_set_string_member (to, "projectPath", dir);

  return to;
}

static const Alias search_code = {
  "search_code", "Search code",
  "Search the codebase with words, an identifier or a question: ranked code chunks with "
  "path, lines, symbol, signature and snippet.",
  "{\"type\": \"object\", \"properties\": {"
  "\"query\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"What to look "
  "for\"}, " RAGCODE_FILE_PATH ", "
  "\"limit\": {\"type\": \"number\", \"description\": \"Results (default 10)\"}}, "
  "\"required\": [\"query\"]}",
  "codebase_search", map_ragcode_search, FALSE
};

static const Alias hybrid_search = {
  "hybrid_search", "Hybrid search",
  "Search with BM25 and vector neighbours fused: ranked code chunks with path, lines, "
  "symbol and snippet.",
  "{\"type\": \"object\", \"properties\": {"
  "\"query\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"What to look "
  "for\"}, " RAGCODE_FILE_PATH ", "
  "\"limit\": {\"type\": \"number\", \"description\": \"Results (default 10)\"}, "
  RAGCODE_OUTPUT_FORMAT "}, \"required\": [\"query\"]}",
  "codebase_search", map_ragcode_search, TRUE
};

static const Alias search_docs = {
  "search_docs", "Search documentation",
  "Search the project's Markdown documentation: ranked sections with path and lines.",
  "{\"type\": \"object\", \"properties\": {"
  "\"query\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"What to look "
  "for\"}, " RAGCODE_FILE_PATH ", "
  "\"limit\": {\"type\": \"number\", \"description\": \"Results (default 10)\"}}, "
  "\"required\": [\"query\"]}",
  "codebase_search", map_search_docs, FALSE
};

static const Alias get_function_details = {
  "get_function_details", "Function details",
  "A function or method (or Class.method): signature, parameters, returns, doc comment "
  "and code.",
  "{\"type\": \"object\", \"properties\": {"
  "\"function_name\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The "
  "function or method\"}, " RAGCODE_FILE_PATH ", "
  "\"package\": {\"type\": \"string\", \"description\": \"Only in this package\"}, "
  "\"class_name\": {\"type\": \"string\", \"description\": \"Only methods of this "
  "class\"}, " RAGCODE_OUTPUT_FORMAT "}, \"required\": [\"function_name\"]}",
  "get_function_details", map_ragcode_symbols, FALSE
};

static const Alias find_type_definition = {
  "find_type_definition", "Type definition",
  "A class, struct, interface or type: fields, methods, relations and doc comment.",
  "{\"type\": \"object\", \"properties\": {"
  "\"type_name\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The type\"}, "
  RAGCODE_FILE_PATH ", "
  "\"package\": {\"type\": \"string\", \"description\": \"Only in this package\"}, "
  RAGCODE_OUTPUT_FORMAT "}, \"required\": [\"type_name\"]}",
  "find_type_definition", map_ragcode_symbols, FALSE
};

static const Alias list_package_exports = {
  "list_package_exports", "Package exports",
  "The public symbols of a package, module, namespace or header.",
  "{\"type\": \"object\", \"properties\": {"
  "\"package\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The "
  "package\"}, " RAGCODE_FILE_PATH ", "
  "\"symbol_type\": {\"type\": \"string\", \"description\": \"Only this kind (function, "
  "type…)\"}, " RAGCODE_OUTPUT_FORMAT "}, \"required\": [\"package\"]}",
  "list_package_exports", map_ragcode_symbols, FALSE
};

static const Alias find_implementations = {
  "find_implementations", "Find usages",
  "Where a function, method or interface is defined and used: calls, type uses, imports.",
  "{\"type\": \"object\", \"properties\": {"
  "\"symbol_name\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"The "
  "symbol\"}, " RAGCODE_FILE_PATH ", "
  "\"package\": {\"type\": \"string\", \"description\": \"Ignored: every use is listed\"}}, "
  "\"required\": [\"symbol_name\"]}",
  "codebase_symbol_references", map_find_implementations, FALSE
};

static const Alias index_workspace = {
  "index_workspace", "Index a workspace",
  "Index the workspace that holds file_path (the nearest folder with .git) in the "
  "background; only changed files are read on later runs.",
  "{\"type\": \"object\", \"properties\": {"
  "\"file_path\": {\"type\": \"string\", \"minLength\": 1, \"description\": \"A file or "
  "folder in the workspace (absolute)\"}, "
  "\"language\": {\"type\": \"string\", \"description\": \"Ignored: every language is "
  "indexed\"}}, \"required\": [\"file_path\"]}",
  "codebase_index", map_index_workspace, FALSE
};

static const Alias *const ragcode[] = {
  &search_code, &hybrid_search, &search_docs, &get_function_details, &find_type_definition,
  &list_package_exports, &find_implementations, &index_workspace, NULL
};

static const LodeToolProfile profiles[] = {
  { LODE_TOOL_PROFILE_DEFAULT, NULL },
  { "codebase-context", codebase_context },
  { "semantic-watcher", semantic_watcher },
  { "ragcode", ragcode },
};

/**
 * lode_tool_profile_lookup:
 * @name: `lode`, `codebase-context`, `semantic-watcher` or `ragcode`
 *
 * Returns: (nullable): the profile, or %NULL for an unknown name
 */
const LodeToolProfile *
lode_tool_profile_lookup (const char *name)
{
  g_return_val_if_fail (name != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    if (g_str_equal (profiles[i].name, name))
      return &profiles[i];

  return NULL;
}

const char *
lode_tool_profile_get_name (const LodeToolProfile *profile)
{
  g_return_val_if_fail (profile != NULL, NULL);
  return profile->name;
}

/**
 * lode_tool_profile_dup_names:
 *
 * Returns: (transfer full): the profiles' names, for messages: "lode, codebase-context, …"
 */
char *
lode_tool_profile_dup_names (void)
{
  GString *names = g_string_new (NULL);

  for (guint i = 0; i < G_N_ELEMENTS (profiles); i++)
    g_string_append_printf (names, "%s%s", i > 0 ? ", " : "", profiles[i].name);

  return g_string_free (names, FALSE);
}

static const Alias *
find_alias (const LodeToolProfile *profile,
            const char            *name)
{
  for (guint i = 0; profile->aliases[i] != NULL; i++)
    if (g_str_equal (profile->aliases[i]->name, name))
      return profile->aliases[i];

  return NULL;
}

/* A member's schema as tools/list shows it below the top level: its type (and an array's
 * items' type, an enumeration's values), not its members. */
static JsonNode *
publish_member (JsonNode *schema)
{
  static const char *const kept[] = { "type", "enum", NULL };
  JsonObject *from;
  JsonObject *to;

  if (!JSON_NODE_HOLDS_OBJECT (schema))
    return json_node_copy (schema);

  from = json_node_get_object (schema);
  to = json_object_new ();
  for (guint i = 0; kept[i] != NULL; i++)
    if (json_object_has_member (from, kept[i]))
      json_object_set_member (to, kept[i], json_node_copy (json_object_get_member (from,
                                                                                  kept[i])));
  if (json_object_has_member (from, "items"))
    json_object_set_member (to, "items", publish_member (json_object_get_member (from,
                                                                                "items")));

  return json_node_init_object (json_node_alloc (), to);
}

/* The output schema as tools/list shows it (see above): the result's members with their
 * types, and which are always there. */
static JsonNode *
publish_schema (JsonNode *schema)
{
  JsonObject *from = json_node_get_object (schema);
  JsonObject *to = json_object_new ();
  JsonObject *properties = json_object_new ();
  JsonNode *given = json_object_get_member (from, "properties");
  g_autoptr(GList) names = NULL;

  json_object_set_string_member (to, "type", "object");
  if (given != NULL && JSON_NODE_HOLDS_OBJECT (given))
    names = json_object_get_members (json_node_get_object (given));
  for (GList *n = names; n != NULL; n = n->next)
    json_object_set_member (properties, n->data,
                            publish_member (json_object_get_member (json_node_get_object (given),
                                                                    n->data)));
  json_object_set_object_member (to, "properties", properties);
  if (json_object_has_member (from, "required"))
    json_object_set_member (to, "required",
                            json_node_copy (json_object_get_member (from, "required")));

  return json_node_init_object (json_node_alloc (), to);
}

static JsonObject *
definition_json (LodeToolRegistry *registry,
                 const LodeTool   *tool,
                 const char       *name,
                 const char       *title,
                 const char       *description,
                 JsonNode         *input_schema)
{
  JsonObject *object = json_object_new ();
  JsonObject *annotations = json_object_new ();

  json_object_set_string_member (object, "name", name);
  json_object_set_string_member (object, "title", title);
  json_object_set_string_member (object, "description", description);
  json_object_set_member (object, "inputSchema", json_node_copy (input_schema));
  json_object_set_member (object, "outputSchema",
                          publish_schema (lode_tool_registry_get_output_schema (registry,
                                                                                tool->name)));
  /* Hints whose default (false) is right are left out; destructiveHint and openWorldHint
   * default to true, so they are always said. */
  if (tool->flags & LODE_TOOL_READ_ONLY)
    json_object_set_boolean_member (annotations, "readOnlyHint", TRUE);
  json_object_set_boolean_member (annotations, "destructiveHint",
                                  (tool->flags & LODE_TOOL_DESTRUCTIVE) != 0);
  if (tool->flags & LODE_TOOL_IDEMPOTENT)
    json_object_set_boolean_member (annotations, "idempotentHint", TRUE);
  json_object_set_boolean_member (annotations, "openWorldHint",
                                  (tool->flags & LODE_TOOL_OPEN_WORLD) != 0);
  json_object_set_object_member (object, "annotations", annotations);

  return object;
}

/**
 * lode_tool_to_mcp_json:
 * @registry: a #LodeToolRegistry
 * @tool: one of its tools
 *
 * Returns: (transfer full): @tool as MCP `tools/list` describes a tool
 */
JsonObject *
lode_tool_to_mcp_json (LodeToolRegistry *registry,
                       const LodeTool   *tool)
{
  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (registry), NULL);
  g_return_val_if_fail (tool != NULL, NULL);

  return definition_json (registry, tool, tool->name, tool->title, tool->description,
                          lode_tool_registry_get_input_schema (registry, tool->name));
}

/**
 * lode_tool_profile_list_tools:
 * @profile: a profile
 * @registry: the registry its tools stand for
 *
 * Returns: (transfer full): the tools of @profile as MCP `tools/list` gives them
 */
JsonArray *
lode_tool_profile_list_tools (const LodeToolProfile *profile,
                              LodeToolRegistry      *registry)
{
  JsonArray *array = json_array_new ();

  g_return_val_if_fail (profile != NULL, array);
  g_return_val_if_fail (LODE_IS_TOOL_REGISTRY (registry), array);

  if (profile->aliases == NULL)
    {
      g_autoptr(GPtrArray) tools = lode_tool_registry_list (registry);

      for (guint i = 0; i < tools->len; i++)
        json_array_add_object_element (array,
                                       lode_tool_to_mcp_json (registry,
                                                              g_ptr_array_index (tools, i)));
      return array;
    }

  for (guint i = 0; profile->aliases[i] != NULL; i++)
    {
      const Alias *alias = profile->aliases[i];
      const LodeTool *tool = lode_tool_registry_lookup (registry, alias->target);
      g_autoptr(JsonNode) input = NULL;

      g_assert (tool != NULL);
      if (alias->title == NULL)
        {
          json_array_add_object_element (array, lode_tool_to_mcp_json (registry, tool));
          continue;
        }
      input = json_from_string (alias->input_schema, NULL);
      g_assert (input != NULL);
      json_array_add_object_element (array, definition_json (registry, tool, alias->name,
                                                             alias->title, alias->description,
                                                             input));
    }

  return array;
}

/**
 * lode_tool_profile_has_tool:
 * @profile: a profile
 * @registry: the registry its tools stand for
 * @name: a tool name
 *
 * Returns: whether @profile lists a tool called @name
 */
gboolean
lode_tool_profile_has_tool (const LodeToolProfile *profile,
                            LodeToolRegistry      *registry,
                            const char            *name)
{
  g_return_val_if_fail (profile != NULL, FALSE);

  if (profile->aliases == NULL)
    return lode_tool_registry_lookup (registry, name) != NULL;

  return find_alias (profile, name) != NULL;
}

/**
 * lode_tool_profile_map_call:
 * @profile: a profile
 * @registry: the registry its tools stand for
 * @name: the tool called, as @profile names it
 * @arguments: its arguments
 * @tool: (out) (transfer full): the registry tool to run
 * @tool_arguments: (out) (transfer full): its arguments
 * @json_text: (out): whether the result's text must be its structured result as JSON
 * @error: return location for a #GError
 *
 * Maps a call of @profile's tool @name onto the registry. The arguments are checked against
 * the tool's schema as @profile shows it, so a message names the arguments the agent wrote.
 *
 * Returns: %FALSE with %LODE_ERROR_NOT_FOUND when @profile has no tool @name, with
 *   %LODE_ERROR_INVALID_ARGUMENT when the arguments do not fit its schema
 */
gboolean
lode_tool_profile_map_call (const LodeToolProfile  *profile,
                            LodeToolRegistry       *registry,
                            const char             *name,
                            JsonObject             *arguments,
                            char                  **tool,
                            JsonObject            **tool_arguments,
                            gboolean               *json_text,
                            GError                **error)
{
  const Alias *alias;
  g_autoptr(JsonNode) schema = NULL;
  g_autoptr(JsonNode) instance = NULL;

  g_return_val_if_fail (profile != NULL, FALSE);
  g_return_val_if_fail (name != NULL && arguments != NULL, FALSE);

  *json_text = FALSE;
  if (profile->aliases == NULL || ((alias = find_alias (profile, name)) != NULL &&
                                   alias->title == NULL))
    {
      if (lode_tool_registry_lookup (registry, name) == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "Unknown tool: %s", name);
          return FALSE;
        }
      *tool = g_strdup (name);
      *tool_arguments = json_object_ref (arguments);
      return TRUE;
    }
  if (alias == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "Unknown tool: %s", name);
      return FALSE;
    }

  schema = json_from_string (alias->input_schema, NULL);
  instance = json_node_init_object (json_node_alloc (), arguments);
  if (!lode_json_schema_validate (schema, instance, NULL, error))
    return FALSE;

  *tool = g_strdup (alias->target);
  *tool_arguments = alias->map (arguments);
  /* The other servers have no projectPath; a client with several roots is asked for one
   * all the same (lode-mcp-session), and it goes through. */
  if (json_object_has_member (arguments, "projectPath") &&
      !json_object_has_member (*tool_arguments, "projectPath"))
    copy_member (arguments, "projectPath", *tool_arguments, "projectPath");
  *json_text = alias->json_text &&
               g_strcmp0 (json_object_get_string_member_with_default (arguments,
                                                                      "output_format", NULL),
                          "json") == 0;

  return TRUE;
}
