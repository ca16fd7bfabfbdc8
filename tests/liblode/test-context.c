/* test-context.c — context artifacts: configuration, structure, index state, search
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <sqlite3.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lode.h"
#include "lode-artifact-chunker.h"
#include "lode-artifact-search.h"
#include "lode-project-config.h"
#include "lode-store-private.h"
#include "test-helpers.h"

static char *
titles_of (GPtrArray *chunks)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < chunks->len; i++)
    {
      const LodeArtifactChunk *chunk = g_ptr_array_index (chunks, i);

      g_string_append_printf (out, "%s%u-%u %s", i > 0 ? "|" : "", chunk->start_line,
                              chunk->end_line, chunk->title != NULL ? chunk->title : "-");
    }
  return g_string_free (out, FALSE);
}

static char *
chunk_titles (const char *path,
              const char *text)
{
  g_autoptr(GPtrArray) chunks = lode_artifact_chunk_text (path, text, strlen (text));

  return titles_of (chunks);
}

/* Each format is cut where its structure says a piece ends. */
static void
test_structure (void)
{
  g_autofree char *sql = chunk_titles ("schema.sql",
                                       "-- people\n"
                                       "CREATE TABLE users (\n"
                                       "  note TEXT DEFAULT 'a; b'\n"
                                       ");\n"
                                       "\n"
                                       "CREATE FUNCTION f() RETURNS int AS $$\n"
                                       "  SELECT 1; SELECT 2;\n"
                                       "$$ LANGUAGE sql;\n"
                                       "/* x; y */ INSERT INTO users VALUES ('x');\n");
  g_autofree char *markdown = chunk_titles ("notes.md",
                                            "Intro\n"
                                            "# Top\n"
                                            "text\n"
                                            "```\n"
                                            "# not a heading\n"
                                            "```\n"
                                            "## Sub\n"
                                            "more\n"
                                            "# Next\n");
  g_autofree char *openapi = chunk_titles ("api.yml",
                                           "openapi: 3.1.0\n"
                                           "info:\n"
                                           "  title: T\n"
                                           "paths:\n"
                                           "  /a:\n"
                                           "    get: {}\n"
                                           "    post: {}\n"
                                           "  \"/b/{id}\":\n"
                                           "    delete: {}\n"
                                           "components:\n"
                                           "  schemas:\n"
                                           "    A:\n"
                                           "      type: object\n");
  g_autofree char *json = chunk_titles ("api.json",
                                        "{\"openapi\": \"3.0.0\",\n"
                                        " \"paths\": {\n"
                                        "  \"/a\": {\"get\": {}},\n"
                                        "  \"/b\": {\"put\": {}}},\n"
                                        " \"components\": {\"schemas\": {\"B\": {}}}}\n");
  g_autofree char *proto = chunk_titles ("x.proto",
                                         "syntax = \"proto3\";\n"
                                         "// An order.\n"
                                         "message Order {\n"
                                         "  string note = 1; // { not a brace\n"
                                         "}\n"
                                         "enum State { NEW = 0; }\n");
  g_autofree char *plain = chunk_titles ("notes.txt", "one\ntwo\n");

  g_assert_cmpstr (sql, ==, "1-4 CREATE TABLE users|6-8 CREATE FUNCTION f|"
                            "9-9 INSERT INTO users VALUES");
  g_assert_cmpstr (markdown, ==, "1-1 notes.md|2-6 Top|7-8 Top > Sub|9-9 Next");
  g_assert_cmpstr (openapi, ==, "1-1 openapi|2-3 info|5-7 GET, POST /a|8-9 DELETE /b/{id}|"
                                "12-13 schema A");
  g_assert_cmpstr (json, ==, "3-3 GET /a|4-4 PUT /b|5-5 schema B");
  g_assert_cmpstr (proto, ==, "1-1 -|2-5 message Order|6-6 enum State");
  g_assert_cmpstr (plain, ==, "1-2 -");
}

static void
write_text (const char *root,
            const char *path,
            const char *text)
{
  g_autofree char *full = g_build_filename (root, path, NULL);
  g_autofree char *dir = g_path_get_dirname (full);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_file_set_contents (full, text, -1, &error);
  g_assert_no_error (error);
}

/* Both configuration files, in that order; a broken one is an error that names it. */
static void
test_config (void)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "config-project", NULL);
  g_autoptr(LodeProjectConfig) config = NULL;
  g_autoptr(LodeProjectConfig) empty = NULL;
  g_autoptr(GError) error = NULL;
  const LodeArtifactSpec *spec;

  empty = lode_project_config_load (root, &error);
  g_assert_no_error (error);
  g_assert_false (empty->include_vendored);
  g_assert_cmpuint (empty->artifacts->len, ==, 0);

  write_text (root, ".lode.json", "{\"contextArtifacts\": [{\"name\": \"db\", \"path\": "
              "\"schema.sql\", \"description\": \"The schema\"}], \"includeVendored\": true}");
  write_text (root, ".socraticodecontextartifacts.json",
              "{\"artifacts\": [{\"name\": \"db\", \"path\": \"other.sql\"}, "
              "{\"name\": \"spec\", \"path\": \"../shared/api.yaml\"}]}");
  config = lode_project_config_load (root, &error);
  g_assert_no_error (error);
  g_assert_true (config->include_vendored);
  g_assert_cmpuint (config->artifacts->len, ==, 2);
  spec = g_ptr_array_index (config->artifacts, 0);
  g_assert_cmpstr (spec->path, ==, "schema.sql");
  g_assert_cmpstr (spec->description, ==, "The schema");
  g_assert_cmpstr (spec->source, ==, ".lode.json");
  spec = g_ptr_array_index (config->artifacts, 1);
  g_assert_cmpstr (spec->name, ==, "spec");
  g_assert_null (spec->description);
  g_assert_cmpstr (spec->source, ==, ".socraticodecontextartifacts.json");

  write_text (root, ".lode.json", "{\"contextArtifacts\": [{\"name\": \"db\"}]}");
  g_assert_null (lode_project_config_load (root, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, ".lode.json: artifact 1 needs"));
  g_clear_error (&error);

  write_text (root, ".lode.json", "{\"contextArtifacts\": {}}");
  g_assert_null (lode_project_config_load (root, &error));
  g_assert_nonnull (strstr (error->message, "must be an array"));
  g_clear_error (&error);

  write_text (root, ".lode.json", "[1, 2");
  g_assert_null (lode_project_config_load (root, &error));
  g_assert_nonnull (strstr (error->message, "not valid JSON"));
}

static void
config_refused (const char *root,
                const char *why)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeProjectConfig) config = lode_project_config_load (root, &error);

  g_assert_null (config);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, ".lode.json"));
  if (strstr (error->message, why) == NULL)
    g_error ("“%s” does not say “%s”", error->message, why);
}

static void
config_hostile_child (void)
{
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "hostile-config", NULL);
  g_autofree char *path = g_build_filename (root, ".lode.json", NULL);
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *large = NULL;

  g_assert_cmpint (g_mkdir_with_parents (root, 0700), ==, 0);

  g_assert_cmpint (mkfifo (path, 0600), ==, 0);
  config_refused (root, "not a regular file");
  g_assert_cmpint (g_unlink (path), ==, 0);

  g_assert_cmpint (symlink ("/dev/zero", path), ==, 0);
  config_refused (root, "not a regular file");
  g_assert_cmpint (g_unlink (path), ==, 0);

  /* A regular file whose size says 0 and that never ends (read whole, it grew by 1.5 GB in
   * 20 s): refused, whether for its size or for a read that is not a multiple of 8 bytes. */
  if (g_file_test ("/proc/self/pagemap", G_FILE_TEST_EXISTS))
    {
      g_assert_cmpint (symlink ("/proc/self/pagemap", path), ==, 0);
      config_refused (root, "Cannot read");
      g_assert_cmpint (g_unlink (path), ==, 0);
    }

  large = g_strnfill (1024 * 1024 + 1, ' ');
  g_file_set_contents (path, large, -1, &error);
  g_assert_no_error (error);
  config_refused (root, "larger than");

  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  g_file_set_contents (path, deep->str, deep->len, &error);
  g_assert_no_error (error);
  config_refused (root, "nested deeper");
}

/* The configuration files come with the project, and are read as input from outside: a FIFO
 * in their place hung `lode index` (and SIGTERM with it), a link to /dev/zero grew without
 * end, and 100,000 nested `[` overflowed json-glib's stack. Each is refused, naming the file. */
static void
test_config_hostile (void)
{
  if (g_test_subprocess ())
    {
      config_hostile_child ();
      return;
    }

  /* A read that blocks never returns: the timeout turns that into a failure. */
  g_test_trap_subprocess (NULL, test_timeout_seconds (20) * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

typedef struct
{
  LodeEngine       *engine;
  LodeToolRegistry *registry;
  char             *root;
} ContextFixture;

static void
context_setup (ContextFixture *fixture,
               gconstpointer   data)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();
  g_autofree char *source = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures",
                                                   "context", NULL);
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "shop", NULL);

  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data", NULL);
  fixture->engine = lode_engine_new (config);
  fixture->registry = lode_tools_new_registry (fixture->engine);
  test_copy_tree (source, root);
  fixture->root = g_canonicalize_filename (root, NULL);
}

static void
context_teardown (ContextFixture *fixture,
                  gconstpointer   data)
{
  g_clear_object (&fixture->registry);
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->root, g_free);
}

static LodeToolResult *
call (ContextFixture *fixture,
      const char     *tool,
      const char     *json)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GError) error = NULL;
  JsonObject *arguments = json_node_get_object (node);
  LodeToolResult *result;

  json_object_set_string_member (arguments, "projectPath", fixture->root);
  result = lode_tool_registry_call (fixture->registry, tool, arguments, NULL, NULL, &error);
  g_assert_no_error (error);
  if (result->is_error)
    g_error ("%s %s: %s", tool, json, result->text);
  {
    g_autoptr(JsonNode) instance = json_node_init_object (json_node_alloc (),
                                                          result->structured);

    lode_json_schema_validate (lode_tool_registry_get_output_schema (fixture->registry, tool),
                               instance, "result", &error);
    g_assert_no_error (error);
  }
  return result;
}

static char *
json_strings_of_removed (LodeToolResult *result)
{
  JsonArray *removed = json_object_get_array_member (result->structured, "removed");
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (removed); i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            json_array_get_string_element (removed, i));
  return g_string_free (out, FALSE);
}

/* "name:state" of each declared artifact. */
static char *
states (ContextFixture *fixture)
{
  g_autoptr(LodeToolResult) list = call (fixture, "codebase_context", "{}");

  return test_artifact_states (list->structured);
}

static const char *
first_title (LodeToolResult *search)
{
  JsonArray *results = json_object_get_array_member (search->structured, "results");

  g_assert_cmpuint (json_array_get_length (results), >, 0);
  return json_object_get_string_member (json_array_get_object_element (results, 0), "title");
}

/* Declared artifacts are indexed and searched; the index follows changes, drops and
 * removals; a natural-language question finds a table of the schema. */
static void
test_lifecycle (ContextFixture *fixture,
                gconstpointer   data)
{
  g_autoptr(LodeToolResult) update = call (fixture, "codebase_update", "{}");
  g_autoptr(LodeToolResult) index = NULL;
  g_autoptr(LodeToolResult) search = NULL;
  g_autoptr(LodeToolResult) again = NULL;
  g_autoptr(LodeToolResult) removed = NULL;
  g_autoptr(LodeToolResult) code = NULL;
  g_autofree char *before = states (fixture);
  g_autofree char *after = NULL;
  g_autofree char *changed = NULL;
  g_autofree char *dropped = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *gone = NULL;
  JsonArray *results;

  g_assert_cmpstr (before, ==, "database:not_indexed api:not_indexed docs:not_indexed "
                               "protos:not_indexed");

  index = call (fixture, "codebase_context_index", "{}");
  after = states (fixture);
  g_assert_cmpstr (after, ==, "database:indexed api:indexed docs:indexed protos:indexed");
  g_assert_nonnull (strstr (index->text, "database: indexed, 5 chunks"));

  search = call (fixture, "codebase_context_search",
                 "{\"query\": \"Which table stores user email addresses?\"}");
  g_assert_cmpstr (first_title (search), ==, "CREATE TABLE users");
  results = json_object_get_array_member (search->structured, "results");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (results, 0),
                                                  "artifact"), ==, "database");
  g_assert_cmpfloat (json_object_get_double_member (json_array_get_object_element (results, 0),
                                                    "score"), ==, 1.0);

  /* An issue pasted whole, 16 kB, is a question like any other. */
  {
    g_autoptr(GString) issue = g_string_new ("{\"query\": \"Signup fails: which table stores "
                                             "user email addresses?\\n\\n");
    g_autoptr(LodeToolResult) pasted = NULL;

    while (issue->len < 16 * 1024)
      g_string_append (issue, "Steps to reproduce: open the page, fill it in and press the "
                              "button; nothing happens and the log stays quiet. ");
    g_string_append (issue, "\"}");
    pasted = call (fixture, "codebase_context_search", issue->str);
    g_assert_cmpstr (first_title (pasted), ==, "CREATE TABLE users");
  }

  /* An artifact is searched as context, never as code: indexing it leaves the code index as
   * it was. (Artifacts lie inside the project: /lode/context/confinement.) */
  {
    g_autoptr(LodeToolResult) glossary = NULL;

    write_text (fixture->root, "shared/glossary.md",
                "# Glossary\n\nA quiddity is a returned parcel.\n");
    write_text (fixture->root, ".lode.json",
                "{\"contextArtifacts\": [{\"name\": \"database\", \"path\": \"db/schema.sql\"}, "
                "{\"name\": \"api\", \"path\": \"api/openapi.yaml\"}, "
                "{\"name\": \"docs\", \"path\": \"docs\"}, "
                "{\"name\": \"glossary\", \"path\": \"shared/glossary.md\"}]}");
    glossary = call (fixture, "codebase_context_search", "{\"query\": \"quiddity\"}");
    g_assert_cmpstr (first_title (glossary), ==, "Glossary");
    code = call (fixture, "codebase_search", "{\"query\": \"quiddity\", \"mode\": \"lexical\"}");
    g_assert_cmpint (json_object_get_int_member (code->structured, "total"), ==, 0);
  }

  /* A change makes the artifact stale; a search indexes it again first. */
  write_text (fixture->root, "db/schema.sql",
              "CREATE TABLE customers (\n  phone_number TEXT\n);\n");
  changed = states (fixture);
  g_assert_cmpstr (changed, ==, "database:stale api:indexed docs:indexed glossary:indexed "
                                "protos:indexed");
  again = call (fixture, "codebase_context_search",
                "{\"query\": \"phone numbers\", \"artifactName\": \"database\"}");
  g_assert_cmpstr (first_title (again), ==, "CREATE TABLE customers");
  g_clear_pointer (&again, lode_tool_result_free);
  again = call (fixture, "codebase_context_search",
                "{\"query\": \"email\", \"artifactName\": \"database\"}");
  g_assert_cmpint (json_object_get_int_member (again->structured, "total"), ==, 0);
  g_free (changed);
  changed = states (fixture);
  g_assert_cmpstr (changed, ==, "database:indexed api:indexed docs:indexed glossary:indexed "
                                "protos:indexed");

  /* Dropped from the configuration: removed at the next index. */
  write_text (fixture->root, ".lode.json",
              "{\"contextArtifacts\": [{\"name\": \"database\", \"path\": \"db/schema.sql\"}, "
              "{\"name\": \"gone\", \"path\": \"nowhere.sql\"}]}");
  write_text (fixture->root, ".socraticodecontextartifacts.json",
              "{\"artifacts\": [{\"name\": \"protos\", \"path\": \"proto\"}]}");
  g_clear_pointer (&index, lode_tool_result_free);
  index = call (fixture, "codebase_context_index", "{}");
  dropped = json_strings_of_removed (index);
  g_assert_cmpstr (dropped, ==, "api docs glossary");
  missing = states (fixture);
  g_assert_cmpstr (missing, ==, "database:indexed gone:missing protos:indexed");

  removed = call (fixture, "codebase_context_remove", "{\"name\": \"protos\"}");
  g_assert_nonnull (strstr (removed->text, "protos"));
  gone = states (fixture);
  g_assert_cmpstr (gone, ==, "database:indexed gone:missing protos:not_indexed");
}

/* An artifact's path comes from the project's configuration: a FIFO there hung
 * codebase_context_index for good (SIGTERM with it), /dev/zero grew until memory ran out,
 * and a JSON file of 100,000 nested `[` crashed it. The FIFO and the device (outside the
 * project, so refused before it is opened) are unreadable artifacts, the JSON file is
 * indexed as text, and the others are indexed as usual. */
static void
test_hostile_artifacts (ContextFixture *fixture,
                        gconstpointer   data)
{
  g_autofree char *fifo = g_build_filename (fixture->root, "notes.md", NULL);
  g_autoptr(GString) deep = g_string_new (NULL);
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) index = NULL;
  g_autoptr(LodeToolResult) list = NULL;
  g_autofree char *after = NULL;
  JsonArray *artifacts;

  if (!g_test_subprocess ())
    {
      /* A read that blocks never returns: the timeout turns that into a failure. */
      g_test_trap_subprocess (NULL, test_timeout_seconds (20) * G_USEC_PER_SEC,
                              G_TEST_SUBPROCESS_DEFAULT);
      g_test_trap_assert_passed ();
      return;
    }

  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  for (guint i = 0; i < 100000; i++)
    g_string_append_c (deep, '[');
  write_text (fixture->root, "deep.json", deep->str);
  write_text (fixture->root, ".lode.json",
              "{\"contextArtifacts\": [{\"name\": \"database\", \"path\": \"db/schema.sql\"}, "
              "{\"name\": \"fifo\", \"path\": \"notes.md\"}, "
              "{\"name\": \"zero\", \"path\": \"/dev/zero\"}, "
              "{\"name\": \"deep\", \"path\": \"deep.json\"}]}");

  update = call (fixture, "codebase_update", "{}");
  index = call (fixture, "codebase_context_index", "{}");
  after = states (fixture);
  g_assert_cmpstr (after, ==, "database:indexed fifo:unreadable zero:unreadable deep:indexed "
                              "protos:indexed api:missing");

  list = call (fixture, "codebase_context", "{}");
  artifacts = json_object_get_array_member (list->structured, "artifacts");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (artifacts, 1),
                                                  "problem"), ==,
                   "notes.md: not a regular file (FIFO)");
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (artifacts, 2),
                                                  "problem"), ==,
                   "Artifact “zero” is refused: /dev/zero lies outside the project, and "
                   "context artifacts must lie inside it");
}

static JsonObject *
artifact_named (JsonObject *list,
                const char *name)
{
  JsonArray *artifacts = json_object_get_array_member (list, "artifacts");

  for (guint i = 0; i < json_array_get_length (artifacts); i++)
    {
      JsonObject *a = json_array_get_object_element (artifacts, i);

      if (g_strcmp0 (json_object_get_string_member (a, "name"), name) == 0)
        return a;
    }
  g_error ("No artifact %s", name);
}

/* Neither @result's text nor its structured content holds @needle. */
static void
assert_no_leak (LodeToolResult *result,
                const char     *needle)
{
  g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (), result->structured);
  g_autofree char *structured = json_to_string (node, FALSE);

  if (strstr (result->text, needle) != NULL || strstr (structured, needle) != NULL)
    g_error ("“%s” leaked: %s", needle, structured);
}

/* A hostile repository's .lode.json (or .socraticodecontextartifacts.json) names files
 * outside the project: absolute, through `..`, through a link inside the project to a file
 * or a folder outside. Each is refused with a problem that names it and says why, nothing
 * of what lies outside is indexed or returned, and the artifacts inside are indexed as
 * ever. An artifact indexed before that becomes a link to the outside leaves the index. */
static void
test_confinement (ContextFixture *fixture,
                  gconstpointer   data)
{
  g_autofree char *outside = g_build_filename (g_get_user_cache_dir (), "outside", NULL);
  g_autofree char *secret = g_build_filename (outside, "id_rsa.md", NULL);
  g_autofree char *config = NULL;
  g_autofree char *link = NULL;
  g_autofree char *after = NULL;
  g_autofree char *linked = NULL;
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) index = NULL;
  g_autoptr(LodeToolResult) list = NULL;
  g_autoptr(LodeToolResult) search = NULL;
  g_autoptr(LodeToolResult) inside = NULL;
  g_autoptr(LodeToolResult) reindex = NULL;
  g_autoptr(LodeToolResult) relist = NULL;
  g_autoptr(LodeToolResult) gone = NULL;
  struct
  {
    const char *name;
    const char *why;
  } refused[] = {
    { "absolute", "lies outside the project" },
    { "dotdot", "lies outside the project" },
    { "climbing", "lies outside the project" },
    { "linked", "leads outside the project through a symbolic link" },
    { "linked-dir", "leads outside the project through a symbolic link" },
    { "socraticode", "lies outside the project" },
  };

  /* Searched for by the word, looked for in the answers by the rest. */
  write_text (outside, "id_rsa.md",
              "# Private key\n\nzanzibarquokka -----BEGIN OPENSSH PRIVATE KEY-----\n");
  write_text (outside, "keys/more.md", "# More\n\nzanzibarquokka OPENSSH PRIVATE KEY\n");
  write_text (fixture->root, "notes/readme.md", "# Notes\n\nA parcel note.\n");
  link = g_build_filename (fixture->root, "secret.md", NULL);
  g_assert_cmpint (symlink (secret, link), ==, 0);
  g_clear_pointer (&link, g_free);
  link = g_build_filename (fixture->root, "keys", NULL);
  g_assert_cmpint (symlink ("../outside/keys", link), ==, 0);
  g_clear_pointer (&link, g_free);
  /* A folder inside: a link in it to the outside is left out, the rest indexed. */
  link = g_build_filename (fixture->root, "notes", "leak.md", NULL);
  g_assert_cmpint (symlink (secret, link), ==, 0);

  config = g_strdup_printf ("{\"contextArtifacts\": ["
                            "{\"name\": \"database\", \"path\": \"db/schema.sql\"}, "
                            "{\"name\": \"absolute\", \"path\": \"%s\"}, "
                            "{\"name\": \"dotdot\", \"path\": \"../outside/id_rsa.md\"}, "
                            "{\"name\": \"climbing\", "
                            "\"path\": \"db/../../outside/id_rsa.md\"}, "
                            "{\"name\": \"linked\", \"path\": \"secret.md\"}, "
                            "{\"name\": \"linked-dir\", \"path\": \"keys\"}, "
                            "{\"name\": \"notes\", \"path\": \"notes\"}]}", secret);
  write_text (fixture->root, ".lode.json", config);
  write_text (fixture->root, ".socraticodecontextartifacts.json",
              "{\"artifacts\": [{\"name\": \"socraticode\", "
              "\"path\": \"../../outside/id_rsa.md\"}]}");

  update = call (fixture, "codebase_update", "{}");
  index = call (fixture, "codebase_context_index", "{}");
  assert_no_leak (index, "OPENSSH PRIVATE");
  after = states (fixture);
  g_assert_cmpstr (after, ==, "database:indexed absolute:unreadable dotdot:unreadable "
                              "climbing:unreadable linked:unreadable linked-dir:unreadable "
                              "notes:indexed socraticode:unreadable");

  list = call (fixture, "codebase_context", "{}");
  for (guint i = 0; i < G_N_ELEMENTS (refused); i++)
    {
      JsonObject *a = artifact_named (list->structured, refused[i].name);
      const char *problem = json_object_get_string_member (a, "problem");
      g_autofree char *named = g_strdup_printf ("Artifact “%s” is refused: ", refused[i].name);

      g_assert_true (g_str_has_prefix (problem, named));
      g_assert_nonnull (strstr (problem, refused[i].why));
      g_assert_nonnull (strstr (problem, "context artifacts must lie inside it"));
      g_assert_cmpint (json_object_get_int_member (a, "files"), ==, 0);
      g_assert_nonnull (strstr (list->text, named));
    }
  g_assert_cmpint (json_object_get_int_member (artifact_named (list->structured, "notes"),
                                               "files"), ==, 1);

  search = call (fixture, "codebase_context_search", "{\"query\": \"zanzibarquokka\"}");
  g_assert_cmpint (json_object_get_int_member (search->structured, "total"), ==, 0);
  assert_no_leak (search, "OPENSSH PRIVATE");
  inside = call (fixture, "codebase_context_search", "{\"query\": \"parcel note users\"}");
  g_assert_cmpint (json_object_get_int_member (inside->structured, "total"), >, 0);
  assert_no_leak (inside, "OPENSSH PRIVATE");

  /* The schema, indexed, becomes a link to the outside: refused, and gone from the index. */
  g_clear_pointer (&link, g_free);
  link = g_build_filename (fixture->root, "db", "schema.sql", NULL);
  g_assert_cmpint (g_unlink (link), ==, 0);
  g_assert_cmpint (symlink (secret, link), ==, 0);
  reindex = call (fixture, "codebase_context_index", "{}");
  assert_no_leak (reindex, "OPENSSH PRIVATE");
  relist = call (fixture, "codebase_context", "{}");
  linked = test_artifact_states (relist->structured);
  g_assert_true (g_str_has_prefix (linked, "database:unreadable "));
  g_assert_cmpint (json_object_get_int_member (artifact_named (relist->structured, "database"),
                                               "chunks"), ==, 0);
  gone = call (fixture, "codebase_context_search",
               "{\"query\": \"users email zanzibarquokka\", \"artifactName\": \"database\"}");
  g_assert_cmpint (json_object_get_int_member (gone->structured, "total"), ==, 0);
}

typedef struct
{
  char   *title;
  guint   start_line;
  double  relevance;
} Ranked;

/* What FTS5's own bm25() makes of @match over the SQLite index at @db_path, best first. */
static GArray *
fts5_ranking (const char *db_path,
              const char *match)
{
  g_autoptr(GError) error = NULL;
  GArray *ranked = g_array_new (FALSE, FALSE, sizeof (Ranked));
  sqlite3 *db = NULL;
  sqlite3_stmt *s = NULL;

  g_assert_cmpint (sqlite3_open_v2 (db_path, &db, SQLITE_OPEN_READONLY, NULL), ==, SQLITE_OK);
  g_assert_true (_lode_store_register_tokenizer (db, &error));
  g_assert_no_error (error);
  g_assert_cmpint (sqlite3_prepare_v2 (db, "SELECT c.title, c.start_line, "
                                           "-bm25 (artifact_fts, 4.0, 1.0) AS r "
                                           "FROM artifact_fts f JOIN artifact_chunks c "
                                           "ON c.id = f.rowid WHERE artifact_fts MATCH ?1 "
                                           "ORDER BY r DESC", -1, &s, NULL), ==, SQLITE_OK);
  sqlite3_bind_text (s, 1, match, -1, SQLITE_STATIC);
  while (sqlite3_step (s) == SQLITE_ROW)
    {
      Ranked row = { g_strdup ((const char *) sqlite3_column_text (s, 0)),
                     sqlite3_column_int (s, 1), sqlite3_column_double (s, 2) };

      g_array_append_val (ranked, row);
    }
  sqlite3_finalize (s);
  sqlite3_close (db);
  return ranked;
}

/* Artifacts are ranked above the stores (lode-artifact-search.c), by the formula FTS5's
 * bm25() computed when the SQLite store ranked them itself: same pieces, same scores, over
 * the shop's schema, API and protos and this project's own documentation (Markdown
 * sections of every size). */
static void
test_ranked_as_fts5 (ContextFixture *fixture,
                     gconstpointer   data)
{
  static const char * const queries[][4] = {
    { "user", NULL }, { "email", "address", NULL }, { "order", "status", NULL },
    { "index", "store", "search", NULL }, { "qdrant", "collection", "alias", NULL },
    { "rank", NULL }, { "thread", "writer", "lock", NULL }, { "get", "id", NULL },
  };
  g_autofree char *docs = g_test_build_filename (G_TEST_DIST, "..", "docs", NULL);
  g_autofree char *notes = g_build_filename (fixture->root, "notes", NULL);
  g_autoptr(LodeToolResult) update = NULL;
  g_autoptr(LodeToolResult) index = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(GError) error = NULL;

  test_copy_tree (docs, notes);
  update = call (fixture, "codebase_update", "{}");
  write_text (fixture->root, ".lode.json",
              "{\"contextArtifacts\": [{\"name\": \"database\", \"path\": \"db/schema.sql\"}, "
              "{\"name\": \"api\", \"path\": \"api/openapi.yaml\"}, "
              "{\"name\": \"protos\", \"path\": \"proto\"}, "
              "{\"name\": \"notes\", \"path\": \"notes\"}]}");
  index = call (fixture, "codebase_context_index", "{}");
  project = lode_engine_open_project (fixture->engine, fixture->root, FALSE, &error);
  g_assert_no_error (error);
  store = LODE_INDEX_STORE (lode_store_open_reader (lode_project_get_db_path (project), &error));
  g_assert_no_error (error);

  for (guint q = 0; q < G_N_ELEMENTS (queries); q++)
    {
      g_autoptr(GPtrArray) hits = lode_artifact_search (store, queries[q], NULL, 1000, &error);
      g_autoptr(GString) match = g_string_new (NULL);
      g_autoptr(GArray) expected = NULL;

      g_assert_no_error (error);
      for (guint i = 0; queries[q][i] != NULL; i++)
        g_string_append_printf (match, "%s\"%s\"*", i > 0 ? " OR " : "", queries[q][i]);
      expected = fts5_ranking (lode_project_get_db_path (project), match->str);
      g_assert_cmpuint (expected->len, >, 0);
      g_assert_cmpuint (hits->len, ==, expected->len);
      for (guint i = 0; i < hits->len; i++)
        {
          const LodeArtifactHit *hit = g_ptr_array_index (hits, i);
          const Ranked *row = &g_array_index (expected, Ranked, i);

          g_assert_cmpfloat_with_epsilon (hit->relevance, row->relevance,
                                          1e-9 * row->relevance);
          /* Pieces of equal relevance may come in either order. */
          if (i + 1 < hits->len &&
              g_array_index (expected, Ranked, i + 1).relevance != row->relevance &&
              (i == 0 || g_array_index (expected, Ranked, i - 1).relevance != row->relevance))
            {
              g_assert_cmpstr (hit->title, ==, row->title);
              g_assert_cmpuint (hit->start_line, ==, row->start_line);
            }
          g_free (row->title);
        }
    }
}

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/context/structure", test_structure);
  g_test_add_func ("/lode/context/config", test_config);
  g_test_add_func ("/lode/context/config-hostile", test_config_hostile);
  g_test_add ("/lode/context/lifecycle", ContextFixture, NULL, context_setup, test_lifecycle,
              context_teardown);
  g_test_add ("/lode/context/hostile-artifacts", ContextFixture, NULL, context_setup,
              test_hostile_artifacts, context_teardown);
  g_test_add ("/lode/context/confinement", ContextFixture, NULL, context_setup,
              test_confinement, context_teardown);
  g_test_add ("/lode/context/ranked-as-fts5", ContextFixture, NULL, context_setup,
              test_ranked_as_fts5, context_teardown);

  return g_test_run ();
}
