/* test-symbols.c — symbol descriptors, references and the symbol tools
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode.h"
#include "lode-references.h"
#include "test-helpers.h"

/*
 * fixtures/symbols/ holds one file per language (and a Laravel application) and
 * fixtures/symbols/expected/<file>.json the calls of the symbol tools on them with the
 * structured results expected: descriptors with their fields, methods, parameters,
 * returns, modifiers and relations. The tree is indexed once for all tests.
 *
 * LODE_UPDATE_GOLDEN=1 rewrites the expected results from what the tools return; review
 * the diff before committing it.
 */

static LodeEngine *engine;
static LodeToolRegistry *registry;
static char *fixture_root;

static const char * const golden_files[] = {
  "shapes.c", "shapes.hpp", "Inventory.cs", "store.go", "Account.java", "cart.js",
  "queue.ts", "billing.py", "ledger.rs", "Mailer.php", "cache.rb", "Repo.kt", "Counter.swift",
  "laravel",
};

static LodeToolResult *
call_tool (const char *tool,
           JsonObject *arguments)
{
  g_autoptr(GError) error = NULL;
  LodeToolResult *result;

  json_object_set_string_member (arguments, "projectPath", fixture_root);
  result = lode_tool_registry_call (registry, tool, arguments, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  if (result->is_error)
    g_error ("%s failed: %s", tool, result->text);
  return result;
}

static JsonObject *
parse_object (const char *json)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = json_from_string (json, &error);

  g_assert_no_error (error);
  return json_node_dup_object (node);
}

/* The result without what depends on the machine: absolute paths. */
static JsonNode *
normalize (JsonNode   *node,
           const char *root_uri)
{
  if (JSON_NODE_HOLDS_OBJECT (node))
    {
      JsonObject *object = json_node_get_object (node);
      g_autoptr(GList) members = json_object_get_members (object);

      for (GList *l = members; l != NULL; l = l->next)
        {
          JsonNode *value = json_object_get_member (object, l->data);

          if (strcmp (l->data, "project") == 0)
            json_object_set_string_member (object, l->data, "$ROOT");
          else if (strcmp (l->data, "uri") == 0 && JSON_NODE_HOLDS_VALUE (value) &&
                   g_str_has_prefix (json_node_get_string (value), root_uri))
            {
              g_autofree char *relative = g_strconcat ("$ROOT", json_node_get_string (value) +
                                                       strlen (root_uri), NULL);

              json_object_set_string_member (object, l->data, relative);
            }
          else
            normalize (value, root_uri);
        }
    }
  else if (JSON_NODE_HOLDS_ARRAY (node))
    {
      JsonArray *array = json_node_get_array (node);

      for (guint i = 0; i < json_array_get_length (array); i++)
        normalize (json_array_get_element (array, i), root_uri);
    }
  return node;
}

static void
test_golden (gconstpointer data)
{
  const char *name = data;
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "symbols",
                                                 "expected", name, NULL);
  g_autofree char *file = g_strconcat (path, ".json", NULL);
  g_autofree char *root_uri = g_filename_to_uri (fixture_root, NULL, NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  gboolean update = g_strcmp0 (g_getenv ("LODE_UPDATE_GOLDEN"), "1") == 0;
  JsonArray *calls;

  g_assert_true (json_parser_load_from_file (parser, file, &error));
  g_assert_no_error (error);
  calls = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "calls");
  g_assert_cmpuint (json_array_get_length (calls), >, 0);

  for (guint i = 0; i < json_array_get_length (calls); i++)
    {
      JsonObject *entry = json_array_get_object_element (calls, i);
      const char *tool = json_object_get_string_member (entry, "tool");
      g_autofree char *arguments = json_to_string (json_object_get_member (entry, "arguments"),
                                                   FALSE);
      g_autoptr(JsonObject) copy = parse_object (arguments);
      g_autoptr(LodeToolResult) result = call_tool (tool, copy);
      g_autoptr(JsonNode) actual = json_node_init_object (json_node_alloc (),
                                                          result->structured);
      JsonNode *expected = json_object_get_member (entry, "result");

      normalize (actual, root_uri);
      if (update)
        {
          json_object_set_member (entry, "result", json_node_copy (actual));
          continue;
        }
      g_assert_nonnull (expected);
      if (!json_node_equal (actual, expected))
        {
          g_autofree char *want = json_to_string (expected, TRUE);
          g_autofree char *got = json_to_string (actual, TRUE);

          g_test_message ("%s %s: expected\n%s\ngot\n%s", name, tool, want, got);
          g_test_fail ();
        }
    }

  if (update)
    {
      g_autoptr(JsonGenerator) generator = json_generator_new ();

      json_generator_set_pretty (generator, TRUE);
      json_generator_set_indent (generator, 2);
      json_generator_set_root (generator, json_parser_get_root (parser));
      g_assert_true (json_generator_to_file (generator, file, &error));
      g_assert_no_error (error);
      g_test_message ("Rewrote %s", file);
    }
}

/* Sites survive encoding, and stored garbage decodes to something bounded. */
static void
test_sites (void)
{
  static const guint32 sites[] = {
    (1 << 3) | LODE_REFERENCE_DEFINITION, (1 << 3) | LODE_REFERENCE_CALL,
    (7 << 3) | LODE_REFERENCE_TYPE, (200000 << 3) | LODE_REFERENCE_IMPORT,
  };
  static const guint8 garbage[] = { 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01, 0x80 };
  g_autoptr(GBytes) blob = lode_reference_sites_encode (sites, G_N_ELEMENTS (sites));
  g_autoptr(GArray) decoded = lode_reference_sites_decode (g_bytes_get_data (blob, NULL),
                                                           g_bytes_get_size (blob));
  g_autoptr(GArray) bad = lode_reference_sites_decode (garbage, sizeof garbage);

  g_assert_cmpuint (decoded->len, ==, G_N_ELEMENTS (sites));
  for (guint i = 0; i < decoded->len; i++)
    g_assert_cmpuint (g_array_index (decoded, guint32, i), ==, sites[i]);
  g_assert_cmpuint (lode_reference_site_line (sites[3]), ==, 200000);
  g_assert_cmpuint (bad->len, ==, 0);
}

static JsonObject *
type_of (const char *name)
{
  g_autoptr(JsonObject) arguments = json_object_new ();
  g_autoptr(LodeToolResult) result = NULL;

  json_object_set_string_member (arguments, "type_name", name);
  result = call_tool ("find_type_definition", arguments);
  g_assert_cmpint (json_object_get_int_member (result->structured, "count"), ==, 1);
  return json_object_ref (json_object_get_object_member (result->structured, "type"));
}

static char *
strings_of (JsonArray *array)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (array); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            json_array_get_string_element (array, i));
  return g_string_free (g_steal_pointer (&out), FALSE);
}

static JsonObject *
find_member (JsonArray  *array,
             const char *key,
             const char *value)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonObject *item = json_array_get_object_element (array, i);

      if (g_strcmp0 (json_object_get_string_member_with_default (item, key, NULL), value) == 0)
        return item;
    }
  return NULL;
}

/* Eloquent models, field by field: table, mass assignment, casts, scopes, relationships
 * with the related class resolved, accessors and mutators. */
static void
test_laravel (void)
{
  g_autoptr(JsonObject) user = type_of ("App\\Models\\User");
  g_autoptr(JsonObject) post = type_of ("Post");
  g_autoptr(JsonObject) category = type_of ("Category");
  JsonArray *relations = json_object_get_array_member (user, "relations");
  JsonArray *attributes = json_object_get_array_member (user, "attributes");
  JsonArray *methods = json_object_get_array_member (user, "methods");
  JsonObject *casts = json_object_get_object_member (user, "casts");
  JsonObject *relation, *attribute, *method;
  g_autofree char *fillable = strings_of (json_object_get_array_member (user, "fillable"));
  g_autofree char *hidden = strings_of (json_object_get_array_member (user, "hidden"));
  g_autofree char *appends = strings_of (json_object_get_array_member (user, "appends"));
  g_autofree char *scopes = strings_of (json_object_get_array_member (user, "scopes"));
  g_autofree char *visible = strings_of (json_object_get_array_member (post, "visible"));
  g_autofree char *post_scopes = strings_of (json_object_get_array_member (post, "scopes"));

  g_assert_cmpstr (json_object_get_string_member (user, "kind"), ==, "model");
  g_assert_cmpstr (json_object_get_string_member (user, "full_name"), ==, "App\\Models\\User");
  g_assert_cmpstr (json_object_get_string_member (user, "namespace"), ==, "App\\Models");
  g_assert_cmpstr (json_object_get_string_member (user, "description"), ==,
                   "A person who can sign in.");
  /* The conventional table: the plural, snake case. */
  g_assert_cmpstr (json_object_get_string_member (user, "table"), ==, "users");
  g_assert_cmpstr (json_object_get_string_member (category, "table"), ==, "categories");
  g_assert_cmpstr (json_object_get_string_member (post, "table"), ==, "blog_posts");
  g_assert_cmpstr (fillable, ==, "name email password");
  g_assert_cmpstr (hidden, ==, "password remember_token");
  g_assert_cmpstr (appends, ==, "display_name");
  g_assert_cmpstr (visible, ==, "title body published_at");
  g_assert_cmpstr (json_object_get_string_member (casts, "email_verified_at"), ==, "datetime");
  g_assert_cmpstr (json_object_get_string_member (casts, "is_admin"), ==, "boolean");
  /* Laravel 11 casts() method. */
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (post, "casts"),
                                                  "meta"), ==, "array");
  g_assert_cmpstr (scopes, ==, "verified");
  g_assert_cmpstr (post_scopes, ==, "published");

  relation = find_member (relations, "kind", "extends");
  g_assert_cmpstr (json_object_get_string_member (relation, "target"), ==,
                   "Illuminate\\Foundation\\Auth\\User");
  relation = find_member (relations, "name", "posts");
  g_assert_cmpstr (json_object_get_string_member (relation, "kind"), ==, "hasMany");
  g_assert_cmpstr (json_object_get_string_member (relation, "target"), ==, "App\\Models\\Post");
  relation = find_member (relations, "name", "team");
  g_assert_cmpstr (json_object_get_string_member (relation, "kind"), ==, "belongsTo");
  g_assert_cmpstr (json_object_get_string_member (relation, "target"), ==, "App\\Models\\Team");
  relation = find_member (relations, "name", "roles");
  g_assert_cmpstr (json_object_get_string_member (relation, "kind"), ==, "belongsToMany");
  g_assert_cmpstr (json_object_get_string_member (relation, "target"), ==, "App\\Models\\Role");
  relation = find_member (json_object_get_array_member (post, "relations"), "name", "author");
  g_assert_cmpstr (json_object_get_string_member (relation, "target"), ==, "App\\Models\\User");

  attribute = find_member (attributes, "name", "display_name");
  g_assert_true (json_object_get_boolean_member (attribute, "get"));
  g_assert_false (json_object_get_boolean_member (attribute, "set"));
  attribute = find_member (attributes, "name", "password");
  g_assert_false (json_object_get_boolean_member (attribute, "get"));
  g_assert_true (json_object_get_boolean_member (attribute, "set"));
  attribute = find_member (attributes, "name", "email");
  g_assert_cmpstr (json_object_get_string_member (attribute, "method"), ==, "email");
  g_assert_true (json_object_get_boolean_member (attribute, "get"));
  g_assert_true (json_object_get_boolean_member (attribute, "set"));

  method = find_member (methods, "name", "scopeVerified");
  g_assert_cmpstr (json_object_get_string_member (method, "kind"), ==, "scope");
  method = find_member (methods, "name", "getDisplayNameAttribute");
  g_assert_cmpstr (json_object_get_string_member (method, "kind"), ==, "accessor");
  method = find_member (methods, "name", "setPasswordAttribute");
  g_assert_cmpstr (json_object_get_string_member (method, "kind"), ==, "mutator");
  method = find_member (methods, "name", "email");
  g_assert_cmpstr (json_object_get_string_member (method, "kind"), ==, "accessor");
  method = find_member (methods, "name", "posts");
  g_assert_cmpstr (json_object_get_string_member (method, "kind"), ==, "method");
}

/* A model with casts twice, from a casts() method and then a $casts property that repeats a
 * key: the property's, each key once with its last value, as PHP reads the array. */
static void
test_laravel_casts_twice (void)
{
  g_autoptr(JsonObject) subscription = type_of ("Subscription");
  JsonObject *casts = json_object_get_object_member (subscription, "casts");

  g_assert_cmpstr (json_object_get_string_member (subscription, "kind"), ==, "model");
  g_assert_cmpuint (json_object_get_size (casts), ==, 2);
  g_assert_cmpstr (json_object_get_string_member (casts, "price"), ==, "decimal:2");
  g_assert_cmpstr (json_object_get_string_member (casts, "renews_at"), ==, "date");
}

/* Every name the tools print finds what it names again (issue 28): the types and functions
 * of the golden results by their full names, and some shorter forms people write. */
static void
test_printed_names (void)
{
  static const char * const short_names[][2] = {
    { "Mailer::send", "App\\Services\\Mailer::send" },
    { "store.Store.Get", "store.Store.Get" },
    { "Store.Get", "store.Store.Get" },
    { "billing.send", "billing.send" },
    { "Circle::area", "geo::Circle::area" },
    { "bank.Account.deposit", "com.acme.bank.Account.deposit" },
  };
  guint checked = 0;

  for (guint g = 0; g < G_N_ELEMENTS (golden_files); g++)
    {
      g_autofree char *path = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures",
                                                     "symbols", "expected", golden_files[g],
                                                     NULL);
      g_autofree char *file = g_strconcat (path, ".json", NULL);
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonArray *calls;

      g_assert_true (json_parser_load_from_file (parser, file, NULL));
      calls = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                            "calls");
      for (guint c = 0; c < json_array_get_length (calls); c++)
        {
          JsonObject *result = json_object_get_object_member (json_array_get_object_element (calls,
                                                                                           c),
                                                              "result");
          JsonNode *type = json_object_get_member (result, "type");
          JsonArray *methods;

          if (type == NULL || !JSON_NODE_HOLDS_OBJECT (type))
            continue;
          methods = json_object_get_array_member (json_node_get_object (type), "methods");
          for (guint m = 0; m < json_array_get_length (methods); m++)
            {
              JsonObject *method = json_array_get_object_element (methods, m);
              const char *name = json_object_get_string_member (method, "full_name");
              g_autoptr(JsonObject) arguments = json_object_new ();
              g_autoptr(LodeToolResult) found = NULL;

              json_object_set_string_member (arguments, "function_name", name);
              found = call_tool ("get_function_details", arguments);
              /* Interface members without a declaration of their own are no functions. */
              if (json_object_get_boolean_member (method, "is_abstract") &&
                  json_object_get_int_member (found->structured, "count") == 0)
                continue;
              if (json_object_get_int_member (found->structured, "count") != 1)
                g_error ("%s: %s", name, found->text);
              g_assert_cmpstr (json_object_get_string_member (
                                 json_object_get_object_member (found->structured, "function"),
                                 "full_name"), ==, name);
              checked++;
            }
          {
            const char *name = json_object_get_string_member (json_node_get_object (type),
                                                              "full_name");
            g_autoptr(JsonObject) again = type_of (name);

            g_assert_cmpstr (json_object_get_string_member (again, "full_name"), ==, name);
            checked++;
          }
        }
    }
  g_assert_cmpuint (checked, >, 50);

  for (guint i = 0; i < G_N_ELEMENTS (short_names); i++)
    {
      g_autoptr(JsonObject) arguments = json_object_new ();
      g_autoptr(LodeToolResult) found = NULL;

      json_object_set_string_member (arguments, "function_name", short_names[i][0]);
      found = call_tool ("get_function_details", arguments);
      g_assert_cmpint (json_object_get_int_member (found->structured, "count"), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (
                         json_object_get_object_member (found->structured, "function"),
                         "full_name"), ==, short_names[i][1]);
    }
}

/* Several types of one name: the list, and a hint; a package narrows it. */
static void
test_ambiguous (void)
{
  g_autoptr(JsonObject) arguments = parse_object ("{\"type_name\": \"User\"}");
  g_autoptr(JsonObject) narrowed = parse_object ("{\"type_name\": \"User\", "
                                                 "\"package\": \"com.acme.data\"}");
  g_autoptr(JsonObject) missing = parse_object ("{\"function_name\": \"no_such_function\"}");
  g_autoptr(LodeToolResult) both = call_tool ("find_type_definition", arguments);
  g_autoptr(LodeToolResult) one = call_tool ("find_type_definition", narrowed);
  g_autoptr(LodeToolResult) none = call_tool ("get_function_details", missing);

  g_assert_cmpint (json_object_get_int_member (both->structured, "count"), ==, 2);
  g_assert_true (json_object_get_null_member (both->structured, "type"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (both->structured,
                                                                         "candidates")), ==, 2);
  g_assert_nonnull (strstr (both->text, "package"));
  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (one->structured,
                                                                                 "type"),
                                                  "full_name"), ==, "com.acme.data.User");
  g_assert_cmpint (json_object_get_int_member (none->structured, "count"), ==, 0);
  g_assert_nonnull (strstr (none->text, "codebase_search"));
}

/* output_format json: the text is the structured result. */
static void
test_output_format (void)
{
  g_autoptr(JsonObject) markdown = parse_object ("{\"function_name\": \"shape_area\"}");
  g_autoptr(JsonObject) json = parse_object ("{\"function_name\": \"shape_area\", "
                                             "\"output_format\": \"json\"}");
  g_autoptr(LodeToolResult) as_markdown = call_tool ("get_function_details", markdown);
  g_autoptr(LodeToolResult) as_json = call_tool ("get_function_details", json);
  g_autoptr(JsonNode) parsed = json_from_string (as_json->text, NULL);
  g_autoptr(JsonNode) structured = json_node_init_object (json_node_alloc (),
                                                          as_json->structured);

  g_assert_true (g_str_has_prefix (as_markdown->text, "## function `shape_area`"));
  g_assert_nonnull (strstr (as_markdown->text, "return scale (shape->width, factor)"));
  g_assert_nonnull (parsed);
  g_assert_true (json_node_equal (parsed, structured));
}

/* Bytes of @text inside comments, strings and character literals of C. */
static guint8 *
c_literal_mask (const char *text,
                gsize       len)
{
  guint8 *mask = g_new0 (guint8, len + 1);
  gsize i = 0;

  while (i < len)
    {
      if (text[i] == '/' && i + 1 < len && text[i + 1] == '/')
        {
          while (i < len && text[i] != '\n')
            mask[i++] = 1;
        }
      else if (text[i] == '/' && i + 1 < len && text[i + 1] == '*')
        {
          mask[i++] = 1;
          mask[i++] = 1;
          while (i < len && !(text[i] == '*' && i + 1 < len && text[i + 1] == '/'))
            mask[i++] = 1;
          if (i < len)
            {
              mask[i++] = 1;
              mask[i++] = 1;
            }
        }
      else if (text[i] == '"' || text[i] == '\'')
        {
          char quote = text[i];

          mask[i++] = 1;
          while (i < len && text[i] != quote && text[i] != '\n')
            {
              if (text[i] == '\\' && i + 1 < len)
                mask[i++] = 1;
              mask[i++] = 1;
            }
          if (i < len)
            mask[i++] = 1;
        }
      else
        i++;
    }
  return mask;
}

static gboolean
is_word_byte (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* The lines of @path where @symbol appears as a whole word outside comments and strings,
 * among the lines git grep reported. */
static void
add_code_lines (const char *root,
                const char *path,
                const char *symbol,
                GHashTable *lines)
{
  g_autofree char *full = g_build_filename (root, path, NULL);
  g_autofree char *text = NULL;
  g_autofree guint8 *mask = NULL;
  gsize len = 0, n = strlen (symbol);
  guint line = 1;

  g_assert_true (g_file_get_contents (full, &text, &len, NULL));
  mask = c_literal_mask (text, len);
  for (gsize i = 0; i < len; i++)
    {
      if (text[i] == '\n')
        line++;
      else if (!mask[i] && i + n <= len && memcmp (text + i, symbol, n) == 0 &&
               (i == 0 || !is_word_byte (text[i - 1])) &&
               (i + n == len || !is_word_byte (text[i + n])))
        g_hash_table_add (lines, g_strdup_printf ("%s:%u", path, line));
    }
}

/* The identifiers Lode lists are exactly the words git grep finds in C code, outside
 * comments and strings: three functions of liblode, on this repository's sources. */
static void
test_references_git_grep (void)
{
  static const char * const symbols[] = {
    "lode_store_open", "lode_project_get_root", "lode_glob_match_path",
  };
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "..", "src", NULL);
  g_autofree char *root = g_canonicalize_filename (source, NULL);
  g_autoptr(JsonObject) index = json_object_new ();
  g_autoptr(LodeToolResult) indexed = NULL;
  int status = 0;

  if (!g_spawn_sync (root, (char *[]) { "git", "rev-parse", "--git-dir", NULL }, NULL,
                     G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                     G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, NULL) ||
      status != 0)
    {
      g_test_skip ("The sources are not a git checkout");
      return;
    }

  json_object_set_string_member (index, "projectPath", root);
  indexed = lode_tool_registry_call (registry, "codebase_update", index, NULL, NULL, NULL);
  g_assert_false (indexed->is_error);

  for (guint k = 0; k < G_N_ELEMENTS (symbols); k++)
    {
      g_autoptr(GHashTable) expected = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                              NULL);
      g_autoptr(GHashTable) actual = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            NULL);
      g_autoptr(GHashTable) files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                           NULL);
      g_autoptr(JsonObject) arguments = json_object_new ();
      g_autoptr(LodeToolResult) result = NULL;
      g_autoptr(GError) error = NULL;
      g_autofree char *out = NULL;
      g_auto(GStrv) hits = NULL;
      JsonArray *references;
      GHashTableIter iter;
      gpointer key;

      g_assert_true (g_spawn_sync (root, (char *[]) { "git", "grep", "-n", "-w", "--untracked",
                                                      "--", (char *) symbols[k], "*.c", "*.h",
                                                      NULL },
                                   NULL, G_SPAWN_SEARCH_PATH, NULL, NULL, &out, NULL, &status,
                                   &error));
      g_assert_no_error (error);
      hits = g_strsplit (out, "\n", -1);
      for (guint i = 0; hits[i] != NULL; i++)
        {
          g_auto(GStrv) parts = g_strsplit (hits[i], ":", 2);

          if (parts[0] != NULL && parts[1] != NULL && !g_hash_table_contains (files, parts[0]))
            {
              add_code_lines (root, parts[0], symbols[k], expected);
              g_hash_table_add (files, g_strdup (parts[0]));
            }
        }
      g_assert_cmpuint (g_hash_table_size (expected), >, 2);

      json_object_set_string_member (arguments, "projectPath", root);
      json_object_set_string_member (arguments, "symbol", symbols[k]);
      json_object_set_int_member (arguments, "limit", 1000);
      result = lode_tool_registry_call (registry, "codebase_symbol_references", arguments, NULL,
                                        NULL, &error);
      g_assert_no_error (error);
      g_assert_false (result->is_error);
      references = json_object_get_array_member (result->structured, "references");
      for (guint i = 0; i < json_array_get_length (references); i++)
        {
          JsonObject *reference = json_array_get_object_element (references, i);

          g_hash_table_add (actual, g_strdup_printf ("%s:%" G_GINT64_FORMAT,
                            json_object_get_string_member (reference, "path"),
                            json_object_get_int_member (reference, "line")));
        }

      g_test_message ("%s: %u lines of code in %u files; git grep -w: %u lines", symbols[k],
                      g_hash_table_size (expected), g_hash_table_size (files),
                      g_strv_length (hits) - 1);
      g_hash_table_iter_init (&iter, expected);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_hash_table_contains (actual, key))
          g_error ("%s: git grep finds it in code at %s, Lode does not", symbols[k],
                   (const char *) key);
      g_hash_table_iter_init (&iter, actual);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_hash_table_contains (expected, key))
          g_error ("%s: Lode lists %s, git grep finds it there in no code", symbols[k],
                   (const char *) key);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *root = NULL;
  g_autofree char *data_dir = NULL;
  int status;

  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  /* One index for every test: the isolated directories exist only while a test runs. */
  data_dir = g_dir_make_tmp ("lode-test-symbols-XXXXXX", &error);
  g_assert_no_error (error);
  config = lode_config_new_default ();
  g_free (config->data_dir);
  config->data_dir = g_strdup (data_dir);
  root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "symbols", NULL);
  fixture_root = g_canonicalize_filename (root, NULL);
  engine = lode_engine_new (config);
  registry = lode_tools_new_registry (engine);

  g_test_add_func ("/lode/symbols/sites", test_sites);
  for (guint i = 0; i < G_N_ELEMENTS (golden_files); i++)
    {
      g_autofree char *test_path = g_strdup_printf ("/lode/symbols/golden/%s", golden_files[i]);

      g_test_add_data_func (test_path, golden_files[i], test_golden);
    }
  g_test_add_func ("/lode/symbols/laravel", test_laravel);
  g_test_add_func ("/lode/symbols/laravel-casts-twice", test_laravel_casts_twice);
  g_test_add_func ("/lode/symbols/ambiguous", test_ambiguous);
  g_test_add_func ("/lode/symbols/printed-names", test_printed_names);
  g_test_add_func ("/lode/symbols/output-format", test_output_format);
  g_test_add_func ("/lode/symbols/references-git-grep", test_references_git_grep);

  arguments = json_object_new ();
  json_object_set_string_member (arguments, "projectPath", fixture_root);
  {
    g_autoptr(LodeToolResult) update = lode_tool_registry_call (registry, "codebase_update",
                                                                arguments, NULL, NULL, &error);

    g_assert_no_error (error);
    if (update->is_error)
      g_error ("Cannot index %s: %s", fixture_root, update->text);
  }

  status = g_test_run ();

  g_clear_object (&registry);
  g_clear_object (&engine);
  g_free (fixture_root);
  test_remove_tree (data_dir);
  return status;
}
