/* test-search-results.c — what codebase_search gives an agent: fields, filters, attribution
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "lode.h"
#include "indexed-tree.h"
#include "test-helpers.h"

typedef struct
{
  TestIndexedTree   tree;
  LodeToolRegistry *registry;
} Fixture;

/* A class whose methods share one chunk; small functions merged into one chunk; a long
 * function whose match lies far below its first line. */
static void
write_tree (const char *root)
{
  g_autoptr(GString) long_text = g_string_new ("def long_function(values):\n");

  test_write_file (root, "billing/ledger.py",
              "class Ledger:\n"
              "    \"\"\"Book keeping.\"\"\"\n"
              "\n"
              "    def open_account(self, owner):\n"
              "        return owner\n"
              "\n"
              "    def post_refund(self, receipt, amount):\n"
              "        \"\"\"Give money back for a receipt.\"\"\"\n"
              "        self.balance -= amount\n"
              "        return receipt\n"
              "\n"
              "    def close_account(self, owner):\n"
              "        return None\n");
  test_write_file (root, "util/small.c",
              "int add_one (int x) { return x + 1; }\n"
              "int add_two (int x) { return x + 2; }\n"
              "int twice_value (int x) { return x * 2; }\n");
  for (guint i = 0; i < 30; i++)
    g_string_append_printf (long_text, "    total_%u = sum(values) + %u\n", i, i);
  g_string_append (long_text, "    return frobnicate_quarterly(total_0)\n");
  test_write_file (root, "report/long.py", long_text->str);
  test_write_file (root, "audit/trail.py",
              "class Trail:\n"
              "    def alpha(self):\n"
              "        return \"journal\"\n"
              "    def beta(self):\n"
              "        checked = 1\n"
              "        return \"tamper journal\"\n"
              "    def gamma(self):\n"
              "        return \"tamper\"\n");
  test_write_file (root, "Tests/test_ledger.py",
              "def test_refund():\n    assert post_refund_check()\n");
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  test_indexed_tree_setup (&fixture->tree, write_tree);
  fixture->registry = lode_tools_new_registry (fixture->tree.engine);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->registry);
  test_indexed_tree_teardown (&fixture->tree, data);
}

/* codebase_search with @json arguments; checks success and the output schema. */
static LodeToolResult *
search (Fixture    *fixture,
        const char *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(JsonObject) arguments = json_node_dup_object (node);
  g_autoptr(JsonNode) instance = NULL;
  g_autoptr(GError) error = NULL;
  LodeToolResult *result;

  result = lode_tool_registry_call (fixture->registry, "codebase_search", arguments,
                                    fixture->tree.root, NULL, &error);
  g_assert_no_error (error);
  if (result->is_error)
    g_error ("codebase_search failed: %s", result->text);
  instance = json_node_init_object (json_node_alloc (), result->structured);
  lode_json_schema_validate (lode_tool_registry_get_output_schema (fixture->registry,
                                                                   "codebase_search"),
                             instance, "result", &error);
  g_assert_no_error (error);

  return result;
}

static JsonArray *
results_of (LodeToolResult *result)
{
  return json_object_get_array_member (result->structured, "results");
}

static JsonObject *
nth (LodeToolResult *result,
     guint           i)
{
  g_assert_cmpuint (i, <, json_array_get_length (results_of (result)));
  return json_array_get_object_element (results_of (result), i);
}

static JsonObject *
find_path (LodeToolResult *result,
           const char     *path)
{
  for (guint i = 0; i < json_array_get_length (results_of (result)); i++)
    if (g_str_equal (json_object_get_string_member (nth (result, i), "path"), path))
      return nth (result, i);

  g_error ("%s is not among the results", path);
  return NULL;
}

/* A question about one method of a class chunk names that method and its lines, with its
 * signature; the chunk's lines and its list of declarations stay. */
static void
test_method_attribution (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(LodeToolResult) result = search (fixture, "{\"query\": \"refund money for a receipt\"}");
  JsonObject *r = find_path (result, "billing/ledger.py");
  JsonArray *symbols = json_object_get_array_member (r, "symbols");

  g_assert_cmpstr (json_object_get_string_member (r, "symbol"), ==, "post_refund");
  g_assert_cmpstr (json_object_get_string_member (r, "kind"), ==, "method");
  g_assert_cmpstr (json_object_get_string_member (r, "container"), ==, "Ledger");
  g_assert_cmpint (json_object_get_int_member (r, "symbolStartLine"), ==, 7);
  g_assert_cmpint (json_object_get_int_member (r, "symbolEndLine"), ==, 10);
  g_assert_nonnull (strstr (json_object_get_string_member (r, "signature"), "post_refund"));
  g_assert_cmpint (json_object_get_int_member (r, "startLine"), ==, 1);
  g_assert_cmpuint (json_array_get_length (symbols), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (symbols, 0),
                                                  "name"), ==, "Ledger");
  /* The snippet starts inside the method. */
  g_assert_cmpint (json_object_get_int_member (r, "snippetStartLine"), >=, 7);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (r, "snippet"),
                                   "    def post_refund"));
}

/* Of the methods a chunk holds, the match lies in the one whose lines hold the most query
 * terms (here on its last line), the innermost among equals: not its class, which holds as
 * many, nor the methods that hold one term each. The snippet starts at that line. */
static void
test_most_terms_attribution (Fixture       *fixture,
                             gconstpointer  data)
{
  g_autoptr(LodeToolResult) result = search (fixture, "{\"query\": \"tamper journal\"}");
  JsonObject *r = find_path (result, "audit/trail.py");

  g_assert_cmpint (json_object_get_int_member (r, "startLine"), ==, 1);
  g_assert_cmpint (json_object_get_int_member (r, "endLine"), ==, 8);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (r, "symbols")), ==, 4);
  g_assert_cmpstr (json_object_get_string_member (r, "symbol"), ==, "beta");
  g_assert_cmpstr (json_object_get_string_member (r, "container"), ==, "Trail");
  g_assert_cmpint (json_object_get_int_member (r, "symbolStartLine"), ==, 4);
  g_assert_cmpint (json_object_get_int_member (r, "symbolEndLine"), ==, 6);
  g_assert_cmpint (json_object_get_int_member (r, "snippetStartLine"), ==, 6);
  g_assert_cmpstr (json_object_get_string_member (r, "snippet"), ==,
                   "        return \"tamper journal\"\n"
                   "    def gamma(self):\n"
                   "        return \"tamper\"");
}

/* A path query ignores ASCII case, and its `_` is a character, not a wildcard. */
static void
test_path_case (Fixture       *fixture,
                gconstpointer  data)
{
  g_autoptr(LodeToolResult) result = search (fixture, "{\"query\": \"tests/TEST_LEDGER.py\"}");
  JsonObject *r = nth (result, 0);

  g_assert_cmpstr (json_object_get_string_member (r, "path"), ==, "Tests/test_ledger.py");
  g_assert_cmpfloat (json_object_get_double_member (r, "score"), >, 0.9);
  g_assert_cmpint (json_object_get_int_member (r, "startLine"), ==, 1);
}

/* Path queries read every path of the index at once: the last one is found, and a query
 * that runs from the end of one path into the next (whatever the index's order) finds
 * neither. */
static void
test_path_bounds (Fixture       *fixture,
                  gconstpointer  data)
{
  static const char *const paths[] = {
    "billing/ledger.py", "util/small.c", "report/long.py", "audit/trail.py",
    "Tests/test_ledger.py",
  };

  for (guint i = 0; i < G_N_ELEMENTS (paths); i++)
    {
      g_autofree char *arguments = g_strdup_printf ("{\"query\": \"%s\"}", paths[i]);
      g_autoptr(LodeToolResult) result = search (fixture, arguments);

      g_assert_cmpstr (json_object_get_string_member (nth (result, 0), "path"), ==, paths[i]);
      for (guint j = 0; j < G_N_ELEMENTS (paths); j++)
        {
          g_autofree char *across = NULL;
          g_autoptr(LodeToolResult) none = NULL;

          if (i == j)
            continue;
          across = g_strdup_printf ("{\"query\": \"%s%s\"}",
                                    paths[i] + strlen (paths[i]) - 4, paths[j]);
          none = search (fixture, across);
          g_assert_cmpuint (json_array_get_length (results_of (none)), ==, 0);
        }
    }
}

/* A chunk that merges small definitions lists them, and names the one the query is about. */
static void
test_merged_symbols (Fixture       *fixture,
                     gconstpointer  data)
{
  g_autoptr(LodeToolResult) result = search (fixture, "{\"query\": \"twice_value\"}");
  JsonObject *r = nth (result, 0);
  JsonArray *symbols = json_object_get_array_member (r, "symbols");

  g_assert_cmpstr (json_object_get_string_member (r, "path"), ==, "util/small.c");
  g_assert_cmpstr (json_object_get_string_member (r, "symbol"), ==, "twice_value");
  g_assert_cmpint (json_object_get_int_member (r, "symbolStartLine"), ==, 3);
  g_assert_cmpuint (json_array_get_length (symbols), ==, 3);
  for (guint i = 0; i < 3; i++)
    {
      const char *name = json_object_get_string_member (json_array_get_object_element (symbols,
                                                                                       i),
                                                        "name");

      g_assert_null (strchr (name, ' '));
      g_assert_cmpint (json_object_get_int_member (json_array_get_object_element (symbols, i),
                                                   "startLine"), ==, i + 1);
    }
}

/* The snippet says where it starts, so that it can be placed; includeContent returns the
 * whole chunk. */
static void
test_snippet_and_content (Fixture       *fixture,
                          gconstpointer  data)
{
  g_autoptr(LodeToolResult) plain = search (fixture, "{\"query\": \"frobnicate_quarterly\"}");
  g_autoptr(LodeToolResult) whole = search (fixture, "{\"query\": \"frobnicate_quarterly\", "
                                                     "\"includeContent\": true}");
  JsonObject *r = nth (plain, 0);
  g_autofree char *file = g_build_filename (fixture->tree.root, "report", "long.py", NULL);
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  gint64 line = json_object_get_int_member (r, "snippetStartLine");

  g_assert_true (g_file_get_contents (file, &text, NULL, NULL));
  lines = g_strsplit (text, "\n", -1);
  g_assert_cmpstr (json_object_get_string_member (r, "path"), ==, "report/long.py");
  g_assert_false (json_object_has_member (r, "content"));
  g_assert_cmpint (line, ==, 32);
  g_assert_true (g_str_has_prefix (json_object_get_string_member (r, "snippet"),
                                   lines[line - 1]));

  /* The chunk's lines, the final line break aside. */
  r = nth (whole, 0);
  g_strchomp (text);
  g_assert_cmpstr (json_object_get_string_member (r, "content"), ==, text);
  g_assert_nonnull (strstr (whole->text, "def long_function"));
}

/* onePerFile is reachable from MCP; languageFilter ignores case; fileFilter takes a glob or a
 * plain part of a path. */
static void
test_filters (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(LodeToolResult) all = search (fixture, "{\"query\": \"account owner\", \"limit\": 10}");
  g_autoptr(LodeToolResult) per_file = NULL;
  g_autoptr(LodeToolResult) upper = NULL;
  g_autoptr(LodeToolResult) plain = NULL;
  g_autoptr(LodeToolResult) glob = NULL;
  g_autoptr(LodeToolResult) case_sensitive = NULL;

  per_file = search (fixture, "{\"query\": \"refund receipt\", \"onePerFile\": true}");
  for (guint i = 0; i < json_array_get_length (results_of (per_file)); i++)
    for (guint j = 0; j < i; j++)
      g_assert_cmpstr (json_object_get_string_member (nth (per_file, i), "path"), !=,
                       json_object_get_string_member (nth (per_file, j), "path"));
  g_assert_cmpuint (json_array_get_length (results_of (all)), >, 0);

  upper = search (fixture, "{\"query\": \"refund\", \"languageFilter\": \"Python\"}");
  g_assert_cmpuint (json_array_get_length (results_of (upper)), ==, 2);
  for (guint i = 0; i < 2; i++)
    g_assert_cmpstr (json_object_get_string_member (nth (upper, i), "language"), ==, "python");

  plain = search (fixture, "{\"query\": \"refund\", \"fileFilter\": \"billing/led\"}");
  g_assert_cmpuint (json_array_get_length (results_of (plain)), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (nth (plain, 0), "path"), ==,
                   "billing/ledger.py");

  glob = search (fixture, "{\"query\": \"refund\", \"fileFilter\": \"Tests/*.py\"}");
  g_assert_cmpuint (json_array_get_length (results_of (glob)), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (nth (glob, 0), "path"), ==,
                   "Tests/test_ledger.py");

  /* A glob is still a glob: no substring fallback when it has wildcards. */
  case_sensitive = search (fixture, "{\"query\": \"refund\", \"fileFilter\": \"led*.c\"}");
  g_assert_cmpuint (json_array_get_length (results_of (case_sensitive)), ==, 0);
}

/* An agent pastes a whole issue: 16 kB and more are accepted (at most 2000 characters
 * were), and the code it names is found. */
static void
test_long_query (Fixture       *fixture,
                 gconstpointer  data)
{
  g_autoptr(GString) issue = g_string_new ("Refunds are booked twice\n\nWhen I call "
                                           "`post_refund` the balance drops twice. ");
  g_autoptr(GString) json = g_string_new ("{\"query\": \"");
  g_autoptr(LodeToolResult) result = NULL;

  while (issue->len < 20 * 1024)
    g_string_append (issue, "Steps to reproduce: open the app, go to the page, click the "
                     "button, wait and look at the numbers on the screen again. ");
  g_string_append (json, issue->str);
  g_string_append (json, "\"}");

  result = search (fixture, json->str);
  find_path (result, "billing/ledger.py");

  /* The markdown names the issue by its first line, not by its 20 kB. */
  {
    g_auto(GStrv) lines = g_strsplit (result->text, "\n", 2);

    g_assert_true (g_str_has_prefix (lines[0], "## "));
    g_assert_nonnull (strstr (lines[0], " for “Refunds are booked twice…” ("));
  }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/lode/search-results/" path, Fixture, NULL, fixture_setup, func, \
              fixture_teardown)
  ADD ("method-attribution", test_method_attribution);
  ADD ("most-terms-attribution", test_most_terms_attribution);
  ADD ("path-case", test_path_case);
  ADD ("path-bounds", test_path_bounds);
  ADD ("merged-symbols", test_merged_symbols);
  ADD ("snippet-and-content", test_snippet_and_content);
  ADD ("filters", test_filters);
  ADD ("long-query", test_long_query);
#undef ADD

  return g_test_run ();
}
