/* test-grep-index.c — codebase_grep over an indexed tree: candidates from the index, lines,
 * enclosing symbols, limits, errors, and an edited file's new text found, its old one not
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>

#include "lode.h"
#include "lode-json-schema.h"
#include "test-helpers.h"

typedef struct
{
  LodeEngine       *engine;
  LodeToolRegistry *registry;
  char             *root;
} GrepFixture;

/* The shape of tokio's runtime driver: the panic message an agent pastes lives in a
 * constant inside a function, in a file among others that mention timers. */
static const char driver_rs[] =
  "use crate::runtime::time;\n"
  "\n"
  "cfg_rt! {\n"
  "    pub(crate) struct Handle {\n"
  "        pub(crate) time: Option<time::Handle>,\n"
  "    }\n"
  "}\n"
  "\n"
  "impl Handle {\n"
  "    #[track_caller]\n"
  "    pub(crate) fn time(&self) -> &crate::runtime::time::Handle {\n"
  "        self.time\n"
  "            .as_ref()\n"
  "            .expect(\"A Tokio 1.x context was found, but timers are disabled. Call "
  "`enable_time` on the runtime builder to enable timers.\")\n"
  "    }\n"
  "}\n";

static const char sleep_rs[] =
  "/// Waits until `duration` has elapsed; timers must be enabled on the runtime.\n"
  "pub fn sleep(duration: Duration) -> Sleep {\n"
  "    let location = trace::caller_location();\n"
  "    Sleep::new_timeout(Instant::now() + duration, location)\n"
  "}\n";

static const char main_c[] =
  "#include <string.h>\n"
  "\n"
  "static int verbose;\n"
  "\n"
  "int\n"
  "main (int argc, char **argv)\n"
  "{\n"
  "  for (int i = 1; i < argc; i++)\n"
  "    {\n"
  "      if (strcmp (argv[i], \"--arg\") == 0)\n"
  "        verbose++;\n"
  "      else if (strcmp (argv[i], \"--argjson\") == 0)\n"
  "        verbose += 2;\n"
  "    }\n"
  "  return verbose;\n"
  "}\n";

static void
grep_setup (GrepFixture   *fixture,
            gconstpointer  data)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();

  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data", NULL);
  g_free (config->embedding_provider);
  config->embedding_provider = g_strdup ("none");
  fixture->engine = lode_engine_new (config);
  fixture->registry = lode_tools_new_registry (fixture->engine);
  fixture->root = g_build_filename (g_get_user_cache_dir (), "tree", NULL);

  test_write_file (fixture->root, "tokio/src/runtime/driver.rs", driver_rs);
  test_write_file (fixture->root, "tokio/src/time/sleep.rs", sleep_rs);
  test_write_file (fixture->root, "src/main.c", main_c);
  /* Ignored: neither indexed nor grepped, as rg would skip it. */
  test_write_file (fixture->root, ".gitignore", "build/\n");
  test_write_file (fixture->root, "build/generated.c", "/* timers are disabled */\n");
}

static void
grep_teardown (GrepFixture   *fixture,
               gconstpointer  data)
{
  g_clear_object (&fixture->registry);
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->root, g_free);
}

static LodeToolResult *
call (GrepFixture *fixture,
      const char  *tool,
      const char  *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(JsonObject) arguments = NULL;
  g_autoptr(GError) error = NULL;
  LodeToolResult *result;

  g_assert_nonnull (node);
  arguments = json_node_dup_object (node);
  result = lode_tool_registry_call (fixture->registry, tool, arguments, fixture->root, NULL,
                                    &error);
  g_assert_no_error (error);
  g_assert_nonnull (result);
  return result;
}

static LodeToolResult *
grep_ok (GrepFixture *fixture,
         const char  *json)
{
  LodeToolResult *result = call (fixture, "codebase_grep", json);
  g_autoptr(JsonNode) instance = NULL;
  g_autoptr(GError) error = NULL;

  if (result->is_error)
    g_error ("codebase_grep %s failed: %s", json, result->text);
  instance = json_node_init_object (json_node_alloc (), lode_tool_result_get_structured (result));
  lode_json_schema_validate (lode_tool_registry_get_output_schema (fixture->registry,
                                                                   "codebase_grep"),
                             instance, "result", &error);
  g_assert_no_error (error);
  return result;
}

static void
index_tree (GrepFixture *fixture)
{
  g_autoptr(LodeToolResult) r = call (fixture, "codebase_update", "{}");

  g_assert_false (r->is_error);
}

/* "path:line:text" of every matching line, in order, joined by newlines. */
static char *
matched_lines (JsonObject *result)
{
  JsonArray *files = json_object_get_array_member (result, "files");
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject *file = json_array_get_object_element (files, i);
      JsonArray *lines = json_object_get_array_member (file, "lines");

      for (guint j = 0; j < json_array_get_length (lines); j++)
        {
          JsonObject *line = json_array_get_object_element (lines, j);

          if (json_object_get_boolean_member (line, "match"))
            g_string_append_printf (out, "%s:%" G_GINT64_FORMAT ":%s\n",
                                    json_object_get_string_member (file, "path"),
                                    json_object_get_int_member (line, "line"),
                                    json_object_get_string_member (line, "text"));
        }
    }
  return g_string_free (out, FALSE);
}

static void
test_literal (GrepFixture   *fixture,
              gconstpointer  data)
{
  g_autoptr(LodeToolResult) r = NULL;
  g_autofree char *lines = NULL;
  g_autoptr(GString) written = g_string_new (NULL);
  g_autoptr(GString) from_tree = g_string_new (NULL);
  g_autoptr(JsonNode) expected = NULL;
  g_autoptr(JsonNode) parsed = NULL;
  g_autoptr(JsonNode) parsed_tree = NULL;
  g_autoptr(GError) error = NULL;
  LodeToolResult tree;
  JsonObject *line;

  index_tree (fixture);
  r = grep_ok (fixture, "{\"pattern\": \"timers are disabled. Call `enable_time`\"}");
  lines = matched_lines (r->structured);
  g_assert_cmpstr (lines, ==,
                   "tokio/src/runtime/driver.rs:14:            .expect(\"A Tokio 1.x context was "
                   "found, but timers are disabled. Call `enable_time` on the runtime builder "
                   "to enable timers.\")\n");
  g_assert_cmpint (json_object_get_int_member (r->structured, "totalMatches"), ==, 1);
  g_assert_true (json_object_get_boolean_member (r->structured, "complete"));
  /* The match lies in fn time of impl Handle. */
  line = json_array_get_object_element (
    json_object_get_array_member (json_array_get_object_element (
      json_object_get_array_member (r->structured, "files"), 0), "lines"), 0);
  g_assert_cmpstr (json_object_get_string_member (line, "symbol"), ==, "time");
  g_assert_nonnull (strstr (r->text, "@@ time\n14:"));

  /* The reply lode-mcp writes, without a tree, is the CallToolResult, whether the tool wrote
   * its structured result as text (codebase_grep) or returned a tree. */
  expected = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (expected, lode_tool_result_to_json (r));
  lode_tool_result_write_json (r, written);
  parsed = lode_json_parse (written->str, -1, &error);
  g_assert_no_error (error);
  g_assert_true (json_node_equal (parsed, expected));
  tree = (LodeToolResult) { lode_tool_result_get_structured (r), r->text, FALSE, NULL };
  lode_tool_result_write_json (&tree, from_tree);
  parsed_tree = lode_json_parse (from_tree->str, -1, &error);
  g_assert_no_error (error);
  g_assert_true (json_node_equal (parsed_tree, expected));
}

static void
test_regex_options (GrepFixture   *fixture,
                    gconstpointer  data)
{
  g_autoptr(LodeToolResult) word = NULL;
  g_autoptr(LodeToolResult) caseless = NULL;
  g_autoptr(LodeToolResult) regex = NULL;
  g_autoptr(LodeToolResult) filtered = NULL;
  g_autoptr(LodeToolResult) context = NULL;
  g_autofree char *word_lines = NULL;
  g_autofree char *regex_lines = NULL;

  index_tree (fixture);

  /* -w: "--arg" is not "--argjson". */
  word = grep_ok (fixture, "{\"pattern\": \"--arg\", \"wholeWord\": true}");
  word_lines = matched_lines (word->structured);
  g_assert_cmpstr (word_lines, ==,
                   "src/main.c:10:      if (strcmp (argv[i], \"--arg\") == 0)\n");

  caseless = grep_ok (fixture, "{\"pattern\": \"TIMERS\", \"caseSensitive\": false}");
  g_assert_cmpint (json_object_get_int_member (caseless->structured, "totalMatches"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (caseless->structured, "totalFiles"), ==, 2);

  regex = grep_ok (fixture, "{\"pattern\": \"strcmp \\\\(argv\\\\[i\\\\], \\\"--\\\\w+\\\"\\\\)\", "
                   "\"regex\": true}");
  regex_lines = matched_lines (regex->structured);
  g_assert_cmpstr (regex_lines, ==,
                   "src/main.c:10:      if (strcmp (argv[i], \"--arg\") == 0)\n"
                   "src/main.c:12:      else if (strcmp (argv[i], \"--argjson\") == 0)\n");

  filtered = grep_ok (fixture, "{\"pattern\": \"time\", \"languageFilter\": \"c\"}");
  g_assert_cmpint (json_object_get_int_member (filtered->structured, "totalMatches"), ==, 0);
  g_assert_nonnull (strstr (filtered->text, "0 matching lines"));

  context = grep_ok (fixture, "{\"pattern\": \"verbose\\\\+\\\\+\", \"regex\": true, "
                     "\"contextLines\": 1}");
  g_assert_nonnull (strstr (context->text, "10-      if (strcmp (argv[i], \"--arg\") == 0)\n"
                                           "@@ main\n"
                                           "11:        verbose++;\n"
                                           "12-      else if"));
}

static void
test_limit_and_errors (GrepFixture   *fixture,
                       gconstpointer  data)
{
  g_autoptr(LodeToolResult) cut = NULL;
  g_autoptr(LodeToolResult) bad = NULL;
  g_autoptr(LodeToolResult) lang = NULL;

  index_tree (fixture);
  cut = grep_ok (fixture, "{\"pattern\": \"verbose\", \"limit\": 2}");
  /* A short list is counted whole, past the limit. */
  g_assert_cmpint (json_object_get_int_member (cut->structured, "totalMatches"), ==, 4);
  g_assert_true (json_object_get_boolean_member (cut->structured, "totalsExact"));
  g_assert_cmpint (json_object_get_int_member (cut->structured, "unreadFiles"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (cut->structured, "shown"), ==, 2);
  g_assert_nonnull (strstr (cut->text, "## 4 matching lines in 1 file"));
  g_assert_nonnull (strstr (cut->text, "The first 2 are shown: raise limit"));

  bad = call (fixture, "codebase_grep", "{\"pattern\": \"strcmp (\", \"regex\": true}");
  g_assert_true (bad->is_error);
  g_assert_nonnull (strstr (bad->text, "Invalid regular expression"));

  lang = call (fixture, "codebase_grep", "{\"pattern\": \"x\", \"languageFilter\": \"klingon\"}");
  g_assert_true (lang->is_error);
  g_assert_nonnull (strstr (lang->text, "Unknown language"));
}

/* A damaged row of the declarations a match is named from (a bad page, a blob cut short)
 * fails the call with what is damaged and how to mend it, and indexing again mends it. */
static void
test_damaged_declarations (GrepFixture   *fixture,
                           gconstpointer  data)
{
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeToolResult) damaged = NULL;
  g_autoptr(LodeToolResult) forced = NULL;
  g_autoptr(LodeToolResult) mended = NULL;
  g_autoptr(GError) error = NULL;
  sqlite3 *db = NULL;

  index_tree (fixture);
  project = lode_engine_open_project (fixture->engine, fixture->root, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_open (lode_project_get_db_path (project), &db), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_exec (db, "UPDATE symbol_spans SET spans = substr (spans, 1, length (spans) - 1) "
                                     "WHERE file_id = (SELECT id FROM files "
                                     "                 WHERE path = 'src/main.c')",
                                 NULL, NULL, NULL), ==, SQLITE_OK);
  g_assert_cmpint (sqlite3_changes (db), ==, 1);
  sqlite3_close (db);

  damaged = call (fixture, "codebase_grep", "{\"pattern\": \"verbose\"}");
  g_assert_true (damaged->is_error);
  g_assert_nonnull (strstr (damaged->text, "src/main.c are damaged"));
  g_assert_nonnull (strstr (damaged->text, "Index the project again"));

  forced = call (fixture, "codebase_index", "{\"force\": true, \"wait\": true}");
  g_assert_false (forced->is_error);
  mended = grep_ok (fixture, "{\"pattern\": \"verbose\"}");
  g_assert_nonnull (strstr (mended->text, "@@ main\n11:"));
}

/* git's po/ catalogs: a message every one of them translates. Past the limit the count
 * goes on over a megabyte more, not over every catalog: the totals are a lower bound, said
 * as such with the files left unread, and the same for the same call; a limit above the
 * total reads every catalog and counts exactly. */
static void
test_count_bound (GrepFixture   *fixture,
                  gconstpointer  data)
{
  static const char *const languages[] = {
    "bg", "ca", "de", "el", "es", "fr", "id", "it", "ko", "pl", "pt_PT", "ru", "sv", "tr",
    "uk", "vi", "zh_CN", "zh_TW",
  };
  /* About 110 KB each, 2 MB in all, four matching lines in each. */
  g_autofree char *catalog = test_po_catalog (1000, 250);
  g_autoptr(LodeToolResult) cut = NULL;
  g_autoptr(LodeToolResult) again = NULL;
  g_autoptr(LodeToolResult) all = NULL;
  JsonObject *r;

  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    {
      g_autofree char *name = g_strdup_printf ("po/%s.po", languages[i]);

      test_write_file (fixture->root, name, catalog);
    }
  index_tree (fixture);

  cut = grep_ok (fixture, "{\"pattern\": \"not a git repository\", \"limit\": 6}");
  r = cut->structured;
  g_assert_cmpint (json_object_get_int_member (r, "shown"), ==, 6);
  g_assert_false (json_object_get_boolean_member (r, "totalsExact"));
  g_assert_true (json_object_get_boolean_member (r, "complete"));
  g_assert_cmpint (json_object_get_int_member (r, "totalMatches"), >=, 6);
  g_assert_cmpint (json_object_get_int_member (r, "totalMatches"), <, 4 * G_N_ELEMENTS (languages));
  g_assert_cmpint (json_object_get_int_member (r, "unreadFiles"), >, 0);
  g_assert_cmpint (json_object_get_int_member (r, "totalFiles")
                   + json_object_get_int_member (r, "unreadFiles"), ==, G_N_ELEMENTS (languages));
  g_assert_nonnull (strstr (cut->text, "## At least "));
  g_assert_nonnull (strstr (cut->text, "more files that may match were not read"));
  again = grep_ok (fixture, "{\"pattern\": \"not a git repository\", \"limit\": 6}");
  g_assert_cmpstr (again->text, ==, cut->text);

  all = grep_ok (fixture, "{\"pattern\": \"not a git repository\", \"limit\": 1000}");
  r = all->structured;
  g_assert_true (json_object_get_boolean_member (r, "totalsExact"));
  g_assert_cmpint (json_object_get_int_member (r, "unreadFiles"), ==, 0);
  g_assert_cmpint (json_object_get_int_member (r, "totalMatches"), ==, 4 * G_N_ELEMENTS (languages));
  g_assert_cmpint (json_object_get_int_member (r, "totalFiles"), ==, G_N_ELEMENTS (languages));
  g_assert_null (strstr (all->text, "At least"));
}

/* An edited file's new text is found after the update, its old text is not; a removed
 * file's text is gone; a new file's is found. */
static void
test_incremental (GrepFixture   *fixture,
                  gconstpointer  data)
{
  g_autoptr(LodeToolResult) before = NULL;
  g_autoptr(LodeToolResult) stale = NULL;
  g_autoptr(LodeToolResult) old_text = NULL;
  g_autoptr(LodeToolResult) new_text = NULL;
  g_autoptr(LodeToolResult) removed = NULL;
  g_autoptr(LodeToolResult) added = NULL;
  g_autofree char *edited = NULL;
  g_autofree char *path = g_build_filename (fixture->root, "tokio/src/time/sleep.rs", NULL);

  index_tree (fixture);
  before = grep_ok (fixture, "{\"pattern\": \"new_timeout\"}");
  g_assert_cmpint (json_object_get_int_member (before->structured, "totalMatches"), ==, 1);

  edited = g_strdup (sleep_rs);
  memcpy (strstr (edited, "new_timeout"), "new_elapsed", strlen ("new_elapsed"));
  test_write_file (fixture->root, "tokio/src/time/sleep.rs", edited);
  /* Before the update the index still holds the old text: its trigrams name no file for
   * the new one, so nothing is read. */
  stale = grep_ok (fixture, "{\"pattern\": \"new_elapsed\"}");
  g_assert_true (json_object_get_boolean_member (stale->structured, "indexed"));
  g_assert_cmpint (json_object_get_int_member (stale->structured, "totalMatches"), ==, 0);
  index_tree (fixture);

  old_text = grep_ok (fixture, "{\"pattern\": \"new_timeout\"}");
  g_assert_cmpint (json_object_get_int_member (old_text->structured, "totalMatches"), ==, 0);
  new_text = grep_ok (fixture, "{\"pattern\": \"new_elapsed\"}");
  g_assert_cmpint (json_object_get_int_member (new_text->structured, "totalMatches"), ==, 1);

  g_assert_cmpint (g_unlink (path), ==, 0);
  index_tree (fixture);
  removed = grep_ok (fixture, "{\"pattern\": \"new_elapsed\"}");
  g_assert_cmpint (json_object_get_int_member (removed->structured, "totalMatches"), ==, 0);

  /* A file added since the last search (the store's files by path are read again). */
  test_write_file (fixture->root, "tokio/src/time/interval.rs", edited);
  index_tree (fixture);
  added = grep_ok (fixture, "{\"pattern\": \"new_elapsed\"}");
  g_assert_cmpint (json_object_get_int_member (added->structured, "totalMatches"), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (
                     json_array_get_object_element (
                       json_object_get_array_member (added->structured, "files"), 0), "path"),
                   ==, "tokio/src/time/interval.rs");
}

/* The trigrams of a file are written in key order, those of ASCII characters and the others
 * merged: each literal below, with characters past ASCII among ASCII ones, finds its file
 * through the index, and only it (as in git's po/de.po). */
static void
test_unicode_keys (GrepFixture   *fixture,
                   gconstpointer  data)
{
  static const char *const literals[] = {
    "Überprüfung fehlgeschlagen", "Größe: %s", "zu groß", "→ weiter", "暂存区", "a→b",
  };

  test_write_file (fixture->root, "po/de.po",
                   "msgid \"verification failed\"\nmsgstr \"Überprüfung fehlgeschlagen\"\n"
                   "msgid \"size: %s\"\nmsgstr \"Größe: %s\"\n"
                   "msgid \"too big\"\nmsgstr \"zu groß\"\n"
                   "msgid \"next\"\nmsgstr \"→ weiter\"\n"
                   "msgid \"index\"\nmsgstr \"暂存区\"\n"
                   "# a→b\n");
  test_write_file (fixture->root, "po/plain.po",
                   "msgid \"verification failed\"\nmsgstr \"Uberprufung fehlgeschlagen\"\n"
                   "msgid \"size: %s\"\nmsgstr \"Grosse: %s\"\n");
  index_tree (fixture);

  for (guint i = 0; i < G_N_ELEMENTS (literals); i++)
    {
      g_autofree char *json = g_strdup_printf ("{\"pattern\": \"%s\"}", literals[i]);
      g_autoptr(LodeToolResult) r = grep_ok (fixture, json);
      JsonArray *files = json_object_get_array_member (r->structured, "files");

      g_test_message ("%s", literals[i]);
      g_assert_true (json_object_get_boolean_member (r->structured, "indexed"));
      g_assert_cmpint (json_object_get_int_member (r->structured, "totalMatches"), ==, 1);
      g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (files, 0),
                                                      "path"), ==, "po/de.po");
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/grep-index/literal", GrepFixture, NULL, grep_setup, test_literal,
              grep_teardown);
  g_test_add ("/lode/grep-index/regex-options", GrepFixture, NULL, grep_setup,
              test_regex_options, grep_teardown);
  g_test_add ("/lode/grep-index/limit-and-errors", GrepFixture, NULL, grep_setup,
              test_limit_and_errors, grep_teardown);
  g_test_add ("/lode/grep-index/damaged-declarations", GrepFixture, NULL, grep_setup,
              test_damaged_declarations, grep_teardown);
  g_test_add ("/lode/grep-index/count-bound", GrepFixture, NULL, grep_setup, test_count_bound,
              grep_teardown);
  g_test_add ("/lode/grep-index/incremental", GrepFixture, NULL, grep_setup, test_incremental,
              grep_teardown);
  g_test_add ("/lode/grep-index/unicode-keys", GrepFixture, NULL, grep_setup, test_unicode_keys,
              grep_teardown);

  return g_test_run ();
}
