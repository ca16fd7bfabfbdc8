/* test-knowledge.c — style rules, manifests and metadata, team patterns and the preflight
 * card, through the tools agents call
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "knowledge-helpers.h"
#include "lode-json-schema.h"
#include "lode-manifest.h"
#include "lode-memory.h"
#include "lode.h"
#include "test-helpers.h"

typedef struct
{
  LodeEngine       *engine;
  LodeToolRegistry *registry;
  char             *root;
} KnowledgeFixture;

static void
knowledge_setup (KnowledgeFixture *fixture,
                 gconstpointer     data)
{
  g_autoptr(LodeConfig) config = lode_config_new_default ();

  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-test-data", NULL);
  g_free (config->embedding_provider);
  config->embedding_provider = g_strdup ("none");
  fixture->engine = lode_engine_new (config);
  fixture->registry = lode_tools_new_registry (fixture->engine);
  fixture->root = g_build_filename (g_get_user_data_dir (), "project", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->root, 0700), ==, 0);
}

static void
knowledge_teardown (KnowledgeFixture *fixture,
                    gconstpointer     data)
{
  g_clear_object (&fixture->registry);
  g_clear_object (&fixture->engine);
  test_remove_tree (fixture->root);
  g_free (fixture->root);
}

static char *
fixture_dir (const char *name)
{
  g_autofree char *dir = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "knowledge",
                                                name, NULL);

  return g_canonicalize_filename (dir, NULL);
}

/* Calls @tool with @json (printf-style), checks the result against the tool's whole output
 * schema, and returns it. */
G_GNUC_PRINTF (3, 4)
static JsonObject *
call (KnowledgeFixture *fixture,
      const char       *tool,
      const char       *json,
      ...)
{
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(JsonNode) arguments = NULL;
  g_autoptr(JsonNode) instance = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  va_list args;

  va_start (args, json);
  text = g_strdup_vprintf (json, args);
  va_end (args);
  arguments = json_from_string (text, &error);
  g_assert_no_error (error);
  result = lode_tool_registry_call (fixture->registry, tool, json_node_get_object (arguments),
                                    NULL, NULL, &error);
  g_assert_no_error (error);
  if (result->is_error)
    g_error ("%s failed: %s", tool, result->text);
  g_assert_nonnull (result->text);
  instance = json_node_init_object (json_node_alloc (), result->structured);
  lode_json_schema_validate (lode_tool_registry_get_output_schema (fixture->registry, tool),
                             instance, "result", &error);
  g_assert_no_error (error);

  return json_object_ref (result->structured);
}

static void
index_tree (KnowledgeFixture *fixture,
            const char       *root)
{
  g_autoptr(JsonObject) result = call (fixture, "codebase_index",
                                       "{\"projectPath\": \"%s\", \"wait\": true}", root);

  g_assert_cmpstr (json_object_get_string_member (json_object_get_object_member (result, "job"),
                                                  "state"), ==, "succeeded");
}

static JsonObject *
find_rule (JsonArray  *rules,
           const char *source,
           guint       line)
{
  for (guint i = 0; i < json_array_get_length (rules); i++)
    {
      JsonObject *rule = json_array_get_object_element (rules, i);

      if (g_str_equal (json_object_get_string_member (rule, "source"), source) &&
          json_object_get_int_member (rule, "line") == line)
        return rule;
    }
  g_error ("No rule at %s:%u", source, line);
}

/* Real-shaped configurations of seven tools and a CONTRIBUTING: each rule with its file,
 * line, category and scope; a query and a category narrow them. */
static void
test_style_guide (KnowledgeFixture *fixture,
                  gconstpointer     data)
{
  static const struct
  {
    const char *source;
    guint       line;
    const char *category;
    const char *rule;
    const char *scope;
  } expected[] = {
    { ".editorconfig", 12, "formatting", "indent_size = 2", "[*.{js,ts,json}]" },
    { ".editorconfig", 15, "formatting", "indent_style = tab", "[Makefile]" },
    { ".eslintrc.json", 9, "linting", "eqeqeq = error, always", NULL },
    { ".eslintrc.json", 11, "naming", "camelcase = error", NULL },
    { ".prettierrc", 4, "formatting", "semi = false", NULL },
    { ".prettierrc", 10, "formatting", "overrides[].options.proseWrap = always", NULL },
    { ".clang-format", 6, "formatting", "BreakBeforeBraces = Linux", NULL },
    { "rustfmt.toml", 2, "formatting", "max_width = 100", NULL },
    { "ruff.toml", 2, "formatting", "line-length = 88", NULL },
    { "ruff.toml", 7, "linting", "lint.select = E, F, I, N", NULL },
    { "ruff.toml", 16, "formatting", "format.quote-style = double", NULL },
    { ".golangci.yml", 8, "linting", "linters.enable includes govet", NULL },
    { ".golangci.yml", 15, "linting", "linters-settings.revive.rules[].name = exported", NULL },
    { "CONTRIBUTING.md", 5, "naming",
      "Use `snake_case` for functions and `PascalCase` for types.", "Code style" },
    { "CONTRIBUTING.md", 11, "testing",
      "Every bug fix must come with a test that fails without it.", "Tests" },
  };
  g_autofree char *style = fixture_dir ("style");
  g_autoptr(JsonObject) all = call (fixture, "get_style_guide",
                                    "{\"projectPath\": \"%s\", \"limit\": 500}", style);
  g_autoptr(JsonObject) narrowed = NULL;
  g_autoptr(JsonObject) naming = NULL;
  JsonArray *rules = json_object_get_array_member (all, "rules");

  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (all, "sources")), ==, 8);
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      JsonObject *rule = find_rule (rules, expected[i].source, expected[i].line);

      g_assert_cmpstr (json_object_get_string_member (rule, "category"), ==,
                       expected[i].category);
      g_assert_cmpstr (json_object_get_string_member (rule, "rule"), ==, expected[i].rule);
      g_assert_cmpstr (json_object_get_string_member_with_default (rule, "scope", NULL), ==,
                       expected[i].scope);
    }
  /* What a code block of a document says is no rule. */
  for (guint i = 0; i < json_array_get_length (rules); i++)
    g_assert_null (strstr (json_object_get_string_member (json_array_get_object_element (rules, i),
                                                          "rule"), "must be ignored"));

  narrowed = call (fixture, "get_style_guide", "{\"projectPath\": \"%s\", \"query\": "
                   "\"indent\"}", style);
  for (guint i = 0; i < json_array_get_length (json_object_get_array_member (narrowed, "rules"));
       i++)
    {
      JsonObject *rule = json_array_get_object_element (json_object_get_array_member (narrowed,
                                                                                      "rules"),
                                                        i);
      g_autofree char *lower = g_ascii_strdown (json_object_get_string_member (rule, "rule"), -1);

      g_assert_nonnull (strstr (lower, "indent"));
    }
  g_assert_cmpint (json_object_get_int_member (narrowed, "total"), ==, 5);

  naming = call (fixture, "get_style_guide", "{\"projectPath\": \"%s\", \"category\": "
                 "\"naming\"}", style);
  g_assert_cmpint (json_object_get_int_member (naming, "total"), ==, 2);
}

static const LodeDependency *
find_dependency (const LodeManifest *manifest,
                 const char         *name)
{
  for (guint i = 0; i < manifest->dependencies->len; i++)
    if (g_str_equal (((LodeDependency *) g_ptr_array_index (manifest->dependencies, i))->name,
                     name))
      return g_ptr_array_index (manifest->dependencies, i);

  g_error ("%s does not depend on %s", manifest->path, name);
}

static void
assert_dependency (const LodeManifest *manifest,
                   const char         *name,
                   const char         *version,
                   const char         *scope)
{
  const LodeDependency *dependency = find_dependency (manifest, name);

  g_assert_cmpstr (dependency->version, ==, version);
  g_assert_cmpstr (dependency->scope, ==, scope);
}

/* Twelve kinds of manifest, written as real projects write them. */
static void
test_manifests (KnowledgeFixture *fixture,
                gconstpointer     data)
{
  static const struct
  {
    const char *path;
    const char *kind;
    const char *name;
    const char *version;
    guint       n_dependencies;
  } manifests[] = {
    { "npm/package.json", "npm", "@acme/orders-api", "3.4.1", 6 },
    { "go/go.mod", "go", "github.com/acme/inventory", NULL, 5 },
    { "cargo/Cargo.toml", "cargo", "ledger", "0.8.2", 6 },
    { "python/pyproject.toml", "python", "billing-service", "2.0.0", 5 },
    { "pip/requirements.txt", "pip", NULL, NULL, 3 },
    { "pip/requirements-dev.txt", "pip", NULL, NULL, 2 },
    { "composer/composer.json", "composer", "acme/storefront", NULL, 3 },
    { "maven/pom.xml", "maven", "payments", "1.5.0-SNAPSHOT", 3 },
    { "gradle/build.gradle.kts", "gradle", NULL, NULL, 4 },
    { "bundler/Gemfile", "bundler", NULL, NULL, 5 },
    { "meson/meson.build", "meson", "viewer", "1.2.0", 2 },
    { "cmake/CMakeLists.txt", "cmake", "Plotter", "2.1.0", 4 },
    { "nuget/Demo.Api/Demo.Api.csproj", "nuget", "Demo.Api", "net8.0", 2 },
  };
  g_autofree char *root = fixture_dir ("manifests");
  g_autoptr(GHashTable) kinds = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(LodeManifest) npm = NULL;
  g_autoptr(LodeManifest) go = NULL;
  g_autoptr(LodeManifest) cargo = NULL;
  g_autoptr(LodeManifest) python = NULL;
  g_autoptr(LodeManifest) pip = NULL;
  g_autoptr(LodeManifest) maven = NULL;
  g_autoptr(LodeManifest) gradle = NULL;
  g_autoptr(LodeManifest) bundler = NULL;
  g_autoptr(LodeManifest) cmake = NULL;
  g_autoptr(LodeManifest) nuget = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (manifests); i++)
    {
      g_autoptr(LodeManifest) manifest = lode_manifest_read (root, manifests[i].path, &error);

      g_assert_no_error (error);
      g_assert_cmpstr (manifest->kind, ==, manifests[i].kind);
      g_assert_cmpstr (manifest->name, ==, manifests[i].name);
      g_assert_cmpstr (manifest->version, ==, manifests[i].version);
      if (manifest->dependencies->len != manifests[i].n_dependencies)
        g_error ("%s: %u dependencies, not %u", manifests[i].path,
                 manifest->dependencies->len, manifests[i].n_dependencies);
      g_hash_table_add (kinds, (gpointer) manifest->kind);
    }
  g_assert_cmpuint (g_hash_table_size (kinds), ==, 12);

  npm = lode_manifest_read (root, "npm/package.json", &error);
  assert_dependency (npm, "express", "^4.19.2", "runtime");
  assert_dependency (npm, "jest", "^29.7.0", "dev");
  assert_dependency (npm, "react", ">=18", "peer");
  g_assert_cmpuint (npm->entry_points->len, ==, 2);

  go = lode_manifest_read (root, "go/go.mod", &error);
  assert_dependency (go, "github.com/gin-gonic/gin", "v1.10.0", "runtime");
  assert_dependency (go, "golang.org/x/net", "v0.25.0", "indirect");

  cargo = lode_manifest_read (root, "cargo/Cargo.toml", &error);
  assert_dependency (cargo, "serde", "1.0.203", "runtime");
  assert_dependency (cargo, "clap", "4.5", "runtime");
  assert_dependency (cargo, "proptest", "1.4", "dev");
  assert_dependency (cargo, "nix", "0.29", "runtime");
  g_assert_cmpstr (g_ptr_array_index (cargo->entry_points, 0), ==, "cargo/src/main.rs");

  python = lode_manifest_read (root, "python/pyproject.toml", &error);
  assert_dependency (python, "sqlalchemy", ">=2.0", "runtime");
  assert_dependency (python, "pytest", ">=8", "optional");
  g_assert_cmpstr (g_ptr_array_index (python->entry_points, 0), ==, "billing.cli:main");

  pip = lode_manifest_read (root, "pip/requirements.txt", &error);
  assert_dependency (pip, "Django", "==5.0.6", "runtime");
  assert_dependency (pip, "celery", ">=5.4", "runtime");

  maven = lode_manifest_read (root, "maven/pom.xml", &error);
  assert_dependency (maven, "org.postgresql:postgresql", "42.7.3", "runtime");
  assert_dependency (maven, "org.junit.jupiter:junit-jupiter", NULL, "test");

  gradle = lode_manifest_read (root, "gradle/build.gradle.kts", &error);
  assert_dependency (gradle, "com.squareup.okhttp3:okhttp", "4.12.0", "runtime");
  assert_dependency (gradle, "org.projectlombok:lombok", "1.18.32", "build");
  assert_dependency (gradle, "org.junit.jupiter:junit-jupiter", "5.10.2", "test");

  bundler = lode_manifest_read (root, "bundler/Gemfile", &error);
  assert_dependency (bundler, "rails", "~> 7.1.3", "runtime");
  assert_dependency (bundler, "rspec-rails", "~> 6.1", "dev");

  cmake = lode_manifest_read (root, "cmake/CMakeLists.txt", &error);
  assert_dependency (cmake, "Qt6", "6.5", "runtime");
  assert_dependency (cmake, "glib-2.0", ">=2.70", "runtime");
  assert_dependency (cmake, "googletest", NULL, "build");

  nuget = lode_manifest_read (root, "nuget/Demo.Api/Demo.Api.csproj", &error);
  assert_dependency (nuget, "Serilog.AspNetCore", "8.0.1", "runtime");
}

static gboolean
has_named (JsonArray  *array,
           const char *name)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    if (g_str_equal (json_object_get_string_member (json_array_get_object_element (array, i),
                                                    "name"), name))
      return TRUE;

  return FALSE;
}

/* get_codebase_metadata over the manifests: every kind, the frameworks they make, entry
 * points, languages and their shares. */
static void
test_metadata (KnowledgeFixture *fixture,
               gconstpointer     data)
{
  static const char *const frameworks[] = {
    "Express", "Gin", "Tokio", "FastAPI", "Django", "Laravel", "Spring Boot", "Ruby on Rails",
    "GLib", "GTK", "Qt", "ASP.NET Core", NULL
  };
  g_autofree char *source = fixture_dir ("manifests");
  g_autoptr(JsonObject) metadata = NULL;
  JsonArray *manifests;
  JsonArray *languages;
  g_autoptr(GHashTable) kinds = g_hash_table_new (g_str_hash, g_str_equal);
  double shares = 0;

  test_copy_tree (source, fixture->root);
  test_write_file (fixture->root, "npm/test/orders.test.js", "test('orders', () => {});\n");
  index_tree (fixture, fixture->root);
  metadata = call (fixture, "get_codebase_metadata", "{\"projectPath\": \"%s\"}", fixture->root);

  manifests = json_object_get_array_member (metadata, "manifests");
  g_assert_cmpuint (json_array_get_length (manifests), ==, 13);
  for (guint i = 0; i < json_array_get_length (manifests); i++)
    g_hash_table_add (kinds, (gpointer) json_object_get_string_member (json_array_get_object_element (manifests,
                                                                                                      i),
                                                                       "kind"));
  g_assert_cmpuint (g_hash_table_size (kinds), ==, 12);
  for (guint i = 0; frameworks[i] != NULL; i++)
    if (!has_named (json_object_get_array_member (metadata, "frameworks"), frameworks[i]))
      g_error ("Framework %s not found", frameworks[i]);
  g_assert_cmpint (json_object_get_int_member (metadata, "dependencyCount"), ==, 50);

  languages = json_object_get_array_member (metadata, "languages");
  for (guint i = 0; i < json_array_get_length (languages); i++)
    shares += json_object_get_double_member (json_array_get_object_element (languages, i),
                                             "share");
  g_assert_cmpfloat_with_epsilon (shares, 1.0, 0.01);
  {
    JsonArray *entries = json_object_get_array_member (metadata, "entryPoints");
    gboolean main_rs = FALSE;

    for (guint i = 0; i < json_array_get_length (entries); i++)
      main_rs |= strstr (json_array_get_string_element (entries, i), "cargo/src/main.rs:1") != NULL;
    g_assert_true (main_rs);
  }
  g_assert_cmpint (json_object_get_int_member (json_object_get_object_member (metadata, "tests"),
                                               "files"), ==, 1);
}

/* Three languages with a known mix of alternatives and dates: JavaScript moved from axios to
 * fetch (fetch rising, axios declining), Python is split between logging and loguru through
 * its history (a conflict), Go moved from github.com/pkg/errors to errors. */
static void
make_mixed_repository (const char *root)
{
  static const char *const axios[] = { "users", "orders", "invoices" };
  static const char *const fetch[] = { "products", "carts", "reviews" };
  static const char *const handlers[] = { "users", "orders", "health" };

  test_git (root, NULL, "init -q");
  test_write_file (root, "web/package.json",
                   "{\"name\": \"web\", \"dependencies\": {\"axios\": \"^1.7.2\"}}\n");
  for (guint i = 0; i < G_N_ELEMENTS (axios); i++)
    {
      g_autofree char *path = g_strdup_printf ("web/src/%s.js", axios[i]);
      g_autofree char *text = g_strdup_printf ("import axios from \"axios\";\n\n"
                                               "export async function load_%s () {\n"
                                               "  const response = await axios.get(`/api/%s`);\n"
                                               "  return response.data;\n}\n", axios[i], axios[i]);

      test_write_file (root, path, text);
    }
  test_write_file (root, "api/go.mod", "module example.com/api\n\ngo 1.22\n");
  test_write_file (root, "api/store/store.go",
                   "package store\n\nimport \"github.com/pkg/errors\"\n\n"
                   "func Open (path string) error {\n\treturn errors.Wrap (nil, path)\n}\n");
  test_write_file (root, "api/store/cache.go",
                   "package store\n\nimport \"github.com/pkg/errors\"\n\n"
                   "func Warm () error {\n\treturn errors.New (\"cold\")\n}\n");
  test_write_file (root, "svc/a.py", "import logging\n\nlog = logging.getLogger (__name__)\n\n"
                   "def load_settings (path):\n    log.info (\"loading %s\", path)\n"
                   "    return open (path).read ()\n");
  test_write_file (root, "svc/b.py", "from loguru import logger\n\n"
                   "def save_report (report):\n    logger.info (\"saving\")\n");
  test_git_commit (root, "2025-01-10T09:00:00Z", "Start the web client, the store and the service");

  test_write_file (root, "svc/c.py", "import logging\n\ndef rotate ():\n    logging.info (\"r\")\n");
  test_write_file (root, "svc/d.py", "from loguru import logger\n\ndef purge ():\n"
                   "    logger.info (\"p\")\n");
  test_git_commit (root, "2026-03-01T09:00:00Z", "Add rotation and purging");

  test_write_file (root, "svc/e.py", "import logging\n\ndef export ():\n    logging.info (\"e\")\n");
  test_write_file (root, "svc/f.py", "from loguru import logger\n\ndef notify ():\n"
                   "    logger.info (\"n\")\n");
  for (guint i = 0; i < G_N_ELEMENTS (fetch); i++)
    {
      g_autofree char *path = g_strdup_printf ("web/src/%s.js", fetch[i]);
      g_autofree char *text = g_strdup_printf ("export async function fetch_%s () {\n"
                                               "  const response = await fetch(`/api/%s`);\n"
                                               "  return response.json();\n}\n", fetch[i],
                                               fetch[i]);

      test_write_file (root, path, text);
    }
  test_git_commit (root, "2026-04-01T09:00:00Z", "Use fetch in new modules, export and notify");

  for (guint i = 0; i < G_N_ELEMENTS (handlers); i++)
    {
      g_autofree char *path = g_strdup_printf ("api/handlers/%s.go", handlers[i]);
      g_autofree char *text = g_strdup_printf ("package handlers\n\nimport \"errors\"\n\n"
                                               "func Handle_%s () error {\n"
                                               "\treturn errors.New (\"%s\")\n}\n",
                                               handlers[i], handlers[i]);

      test_write_file (root, path, text);
    }
  test_git_commit (root, "2026-06-01T09:00:00Z", "Add the handlers");
}

static JsonObject *
find_pattern (JsonObject *report,
              const char *category,
              const char *languages)
{
  JsonArray *patterns = json_object_get_array_member (report, "patterns");

  for (guint i = 0; i < json_array_get_length (patterns); i++)
    {
      JsonObject *pattern = json_array_get_object_element (patterns, i);

      if (g_str_equal (json_object_get_string_member (pattern, "category"), category) &&
          g_str_equal (json_object_get_string_member (pattern, "languages"), languages))
        return pattern;
    }
  g_error ("No %s pattern for %s", category, languages);
}

static void
assert_alternative (JsonObject *pattern,
                    const char *name,
                    gint64      files,
                    const char *trend)
{
  JsonArray *alternatives = json_object_get_array_member (pattern, "alternatives");

  for (guint i = 0; i < json_array_get_length (alternatives); i++)
    {
      JsonObject *alternative = json_array_get_object_element (alternatives, i);

      if (!g_str_equal (json_object_get_string_member (alternative, "name"), name))
        continue;
      g_assert_cmpint (json_object_get_int_member (alternative, "files"), ==, files);
      g_assert_cmpstr (json_object_get_string_member (alternative, "trend"), ==, trend);
      return;
    }
  g_error ("No alternative %s", name);
}

static void
test_team_patterns (KnowledgeFixture *fixture,
                    gconstpointer     data)
{
  g_autoptr(JsonObject) report = NULL;
  g_autoptr(JsonObject) only = NULL;
  JsonObject *http;
  JsonObject *logging;
  JsonObject *errors;
  JsonArray *golden;
  JsonArray *conflicts;

  make_mixed_repository (fixture->root);
  index_tree (fixture, fixture->root);
  report = call (fixture, "get_team_patterns", "{\"projectPath\": \"%s\"}", fixture->root);

  http = find_pattern (report, "http-client", "js");
  assert_alternative (http, "fetch", 3, "rising");
  assert_alternative (http, "axios", 3, "declining");
  g_assert_cmpstr (json_object_get_string_member (http, "preferred"), ==, "fetch");
  g_assert_false (json_object_get_boolean_member (http, "conflict"));

  logging = find_pattern (report, "logging", "python");
  assert_alternative (logging, "logging", 3, "stable");
  assert_alternative (logging, "loguru", 3, "stable");
  g_assert_true (json_object_get_boolean_member (logging, "conflict"));
  g_assert_false (json_object_has_member (logging, "preferred"));

  errors = find_pattern (report, "error-handling", "go");
  assert_alternative (errors, "errors", 3, "rising");
  assert_alternative (errors, "pkg/errors", 2, "declining");
  g_assert_cmpstr (json_object_get_string_member (errors, "preferred"), ==, "errors");

  conflicts = json_object_get_array_member (report, "conflicts");
  g_assert_cmpuint (json_array_get_length (conflicts), ==, 1);
  g_assert_cmpstr (json_object_get_string_member (json_array_get_object_element (conflicts, 0),
                                                  "category"), ==, "logging");

  /* Golden files use what is preferred, never what declines. */
  golden = json_object_get_array_member (report, "goldenFiles");
  g_assert_cmpuint (json_array_get_length (golden), >, 0);
  for (guint i = 0; i < json_array_get_length (golden); i++)
    {
      const char *path = json_array_get_string_element (golden, i);

      g_assert_true (g_str_has_prefix (path, "web/src/") || g_str_has_prefix (path,
                                                                             "api/handlers/"));
      g_assert_false (g_str_equal (path, "web/src/users.js"));
    }

  only = call (fixture, "get_team_patterns", "{\"projectPath\": \"%s\", \"category\": "
               "\"http-client\"}", fixture->root);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (only, "patterns")), ==, 1);
}

static const char *
check_status (JsonObject *card,
              const char *check)
{
  JsonArray *evidence = json_object_get_array_member (card, "evidence");

  for (guint i = 0; i < json_array_get_length (evidence); i++)
    {
      JsonObject *e = json_array_get_object_element (evidence, i);

      if (g_str_equal (json_object_get_string_member (e, "check"), check))
        return json_object_get_string_member (e, "status");
    }
  g_error ("No %s check", check);
}

/* One edit judged ready (the code found for certain, the concern it uses agreed on, no
 * failure recorded), one not (the team is split on the concern the code uses), and one not
 * once a failure is recorded about the code; each with the evidence that decided it. */
static void
test_preflight (KnowledgeFixture *fixture,
                gconstpointer     data)
{
  g_autoptr(JsonObject) ready = NULL;
  g_autoptr(JsonObject) split = NULL;
  g_autoptr(JsonObject) failed = NULL;
  g_autoptr(JsonObject) remembered = NULL;
  g_autoptr(JsonObject) explore = NULL;
  JsonObject *card;

  make_mixed_repository (fixture->root);
  index_tree (fixture, fixture->root);

  ready = call (fixture, "codebase_search", "{\"projectPath\": \"%s\", \"query\": "
                "\"fetch_products\", \"intent\": \"edit\"}", fixture->root);
  card = json_object_get_object_member (ready, "preflight");
  g_assert_true (json_object_get_boolean_member (card, "ready"));
  g_assert_cmpstr (check_status (card, "code"), ==, "pass");
  g_assert_cmpstr (check_status (card, "patterns"), ==, "pass");
  g_assert_cmpstr (check_status (card, "memories"), ==, "pass");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (card, "nextAction"),
                                   "Edit web/src/products.js"));
  g_assert_true (g_str_has_prefix (json_array_get_string_element (json_object_get_array_member (card,
                                                                                                "follow"),
                                                                  0),
                                   "fetch for http-client (rising"));
  g_assert_true (g_str_has_prefix (json_array_get_string_element (json_object_get_array_member (card,
                                                                                                "avoid"),
                                                                  0),
                                   "axios for http-client (declining"));
  g_assert_false (json_object_has_member (card, "whatWouldHelp"));

  split = call (fixture, "codebase_search", "{\"projectPath\": \"%s\", \"query\": "
                "\"load_settings\", \"intent\": \"refactor\"}", fixture->root);
  card = json_object_get_object_member (split, "preflight");
  g_assert_false (json_object_get_boolean_member (card, "ready"));
  g_assert_cmpstr (check_status (card, "code"), ==, "pass");
  g_assert_cmpstr (check_status (card, "patterns"), ==, "fail");
  g_assert_true (g_str_has_prefix (json_object_get_string_member (card, "nextAction"),
                                   "Ask which alternative"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (card, "whatWouldHelp")),
                    >, 0);

  remembered = call (fixture, "remember", "{\"projectPath\": \"%s\", \"type\": \"failure\", "
                     "\"category\": \"architecture\", \"memory\": \"Caching fetch_products "
                     "responses in memory served stale prices\", \"reason\": \"Prices change "
                     "hourly\", \"files\": [\"web/src/products.js\"]}", fixture->root);
  failed = call (fixture, "codebase_search", "{\"projectPath\": \"%s\", \"query\": "
                 "\"fetch_products\", \"intent\": \"edit\"}", fixture->root);
  card = json_object_get_object_member (failed, "preflight");
  g_assert_false (json_object_get_boolean_member (card, "ready"));
  g_assert_cmpstr (check_status (card, "memories"), ==, "fail");
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (failed, "memories")), ==,
                    1);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (card, "memories")), ==,
                    1);

  /* Without an edit intent: the memory is attached, no card. */
  explore = call (fixture, "codebase_search", "{\"projectPath\": \"%s\", \"query\": "
                  "\"fetch_products\"}", fixture->root);
  g_assert_false (json_object_has_member (explore, "preflight"));
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (explore, "memories")), ==,
                    1);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add (path, KnowledgeFixture, NULL, knowledge_setup, func, knowledge_teardown)
  ADD ("/lode/knowledge/style-guide", test_style_guide);
  ADD ("/lode/knowledge/manifests", test_manifests);
  ADD ("/lode/knowledge/metadata", test_metadata);
  ADD ("/lode/knowledge/team-patterns", test_team_patterns);
  ADD ("/lode/knowledge/preflight", test_preflight);
#undef ADD

  return g_test_run ();
}
