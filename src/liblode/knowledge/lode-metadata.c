/* lode-metadata.c — what a project is made of: languages, manifests, frameworks, tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>

#include "lode-i18n.h"
#include "lode-index-store.h"
#include "lode-manifest.h"
#include "lode-metadata.h"
#include "lode-search-private.h"

/*
 * get_codebase_metadata's answer, from the index (its files, languages and line counts, the
 * definitions of `main`) and the manifests among its files (lode-manifest). Frameworks are
 * named by the dependencies that make them, and by what a manifest says outright (a .NET SDK,
 * a Gradle plugin).
 */

/* Dependencies listed at most; the report says how many there are. */
#define MAX_DEPENDENCIES 200

/* Languages of data and prose, listed but not shared out with code. */
static const char *const data_languages[] = {
  "json", "markdown", "toml", "yaml", "text", NULL
};

static const struct
{
  const char *dependency;    /* a name, or a prefix when it ends with '*' */
  const char *framework;
} framework_table[] = {
  { "react", "React" }, { "next", "Next.js" }, { "vue", "Vue" }, { "nuxt", "Nuxt" },
  { "@angular/core", "Angular" }, { "svelte", "Svelte" }, { "@sveltejs/kit", "SvelteKit" },
  { "express", "Express" }, { "fastify", "Fastify" }, { "@nestjs/core", "NestJS" },
  { "koa", "Koa" }, { "electron", "Electron" }, { "react-native", "React Native" },
  { "django", "Django" }, { "flask", "Flask" }, { "fastapi", "FastAPI" },
  { "starlette", "Starlette" }, { "tornado", "Tornado" }, { "rails", "Ruby on Rails" },
  { "sinatra", "Sinatra" }, { "laravel/framework", "Laravel" },
  { "symfony/framework-bundle", "Symfony" },
  { "org.springframework.boot:*", "Spring Boot" }, { "io.quarkus:*", "Quarkus" },
  { "io.micronaut:*", "Micronaut" }, { "github.com/gin-gonic/gin", "Gin" },
  { "github.com/labstack/echo*", "Echo" }, { "github.com/gofiber/fiber*", "Fiber" },
  { "github.com/go-chi/chi*", "chi" }, { "actix-web", "Actix Web" }, { "axum", "Axum" },
  { "rocket", "Rocket" }, { "tokio", "Tokio" }, { "gtk4", "GTK" }, { "gtk+-3.0", "GTK" },
  { "libadwaita-1", "libadwaita" }, { "glib-2.0", "GLib" }, { "Qt5", "Qt" }, { "Qt6", "Qt" },
  { "Microsoft.AspNetCore.*", "ASP.NET Core" }, { "Microsoft.NET.Sdk.Web", "ASP.NET Core" },
};

static const struct
{
  const char *dependency;
  const char *framework;
} test_framework_table[] = {
  { "jest", "Jest" }, { "vitest", "Vitest" }, { "mocha", "Mocha" }, { "jasmine", "Jasmine" },
  { "@playwright/test", "Playwright" }, { "cypress", "Cypress" }, { "pytest", "pytest" },
  { "junit:junit", "JUnit 4" }, { "org.junit.jupiter:*", "JUnit 5" },
  { "org.testng:testng", "TestNG" }, { "github.com/stretchr/testify", "testify" },
  { "rspec", "RSpec" }, { "minitest", "Minitest" }, { "phpunit/phpunit", "PHPUnit" },
  { "xunit", "xUnit" }, { "NUnit", "NUnit" }, { "GTest", "GoogleTest" },
  { "gtest", "GoogleTest" }, { "Catch2", "Catch2" }, { "check", "Check" },
  { "cmocka", "cmocka" }, { "criterion", "Criterion" },
};

static gboolean
matches (const char *name,
         const char *pattern)
{
  gsize n = strlen (pattern);

  /* Package names differ in case between ecosystems' spellings (Django, django). */
  if (n > 0 && pattern[n - 1] == '*')
    return g_ascii_strncasecmp (name, pattern, n - 1) == 0;

  return g_ascii_strcasecmp (name, pattern) == 0;
}

/**
 * lode_framework_for_dependency:
 * @name: a dependency as a manifest names it
 *
 * Returns: (nullable): the framework it makes a project use (`Django`, `GTK`), or %NULL
 */
const char *
lode_framework_for_dependency (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (framework_table); i++)
    if (matches (name, framework_table[i].dependency))
      return framework_table[i].framework;

  return NULL;
}

static const char *
test_framework_for (const char *name)
{
  for (guint i = 0; i < G_N_ELEMENTS (test_framework_table); i++)
    if (matches (name, test_framework_table[i].dependency))
      return test_framework_table[i].framework;

  return NULL;
}

/* What the index holds: its files and the definitions of main. */
typedef struct
{
  GPtrArray *files;     /* LodeStoredFile */
  GPtrArray *mains;     /* LodeStoredSymbol */
} IndexFacts;

static void
index_facts_free (IndexFacts *facts)
{
  g_clear_pointer (&facts->files, g_ptr_array_unref);
  g_clear_pointer (&facts->mains, g_ptr_array_unref);
  g_free (facts);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (IndexFacts, index_facts_free)

static gpointer
read_facts (LodeProject     *project,
            LodeIndexStore  *store,
            gpointer         data,
            GError         **error)
{
  g_autoptr(IndexFacts) facts = g_new0 (IndexFacts, 1);

  facts->files = lode_index_store_dup_files (store, error);
  if (facts->files == NULL)
    return NULL;
  facts->mains = lode_index_store_find_symbols (store, "main", 100, error);
  if (facts->mains == NULL)
    return NULL;

  return g_steal_pointer (&facts);
}

typedef struct
{
  guint   files;
  guint64 lines;
} Tally;

static void
tally (GHashTable *table,
       const char *key,
       guint64     lines)
{
  Tally *t = g_hash_table_lookup (table, key);

  if (t == NULL)
    {
      t = g_new0 (Tally, 1);
      g_hash_table_insert (table, g_strdup (key), t);
    }
  t->files++;
  t->lines += lines;
}

static int
compare_tallies (gconstpointer a,
                 gconstpointer b,
                 gpointer      user_data)
{
  GHashTable *table = user_data;
  const Tally *x = g_hash_table_lookup (table, *(const char **) a);
  const Tally *y = g_hash_table_lookup (table, *(const char **) b);

  if (x->lines != y->lines)
    return (x->lines < y->lines) - (x->lines > y->lines);
  return strcmp (*(const char **) a, *(const char **) b);
}

static GPtrArray *
sorted_keys (GHashTable *table)
{
  GPtrArray *keys = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_hash_table_iter_init (&iter, table);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    g_ptr_array_add (keys, key);
  g_ptr_array_sort_with_data (keys, compare_tallies, table);

  return keys;
}

static void
add_languages (JsonBuilder *builder,
               GPtrArray   *files)
{
  g_autoptr(GHashTable) languages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                           g_free);
  g_autoptr(GPtrArray) keys = NULL;
  guint64 code_lines = 0;

  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredFile *file = g_ptr_array_index (files, i);

      tally (languages, file->language, file->n_lines);
      if (!g_strv_contains (data_languages, file->language))
        code_lines += file->n_lines;
    }
  keys = sorted_keys (languages);

  json_builder_set_member_name (builder, "languages");
  json_builder_begin_array (builder);
  for (guint i = 0; i < keys->len; i++)
    {
      const char *language = g_ptr_array_index (keys, i);
      const Tally *t = g_hash_table_lookup (languages, language);
      gboolean code = !g_strv_contains (data_languages, language);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "language");
      json_builder_add_string_value (builder, language);
      json_builder_set_member_name (builder, "files");
      json_builder_add_int_value (builder, t->files);
      json_builder_set_member_name (builder, "lines");
      json_builder_add_int_value (builder, t->lines);
      json_builder_set_member_name (builder, "share");
      json_builder_add_double_value (builder, code && code_lines > 0
                                     ? (double) (guint64) (1000.0 * t->lines / code_lines) / 1000
                                     : 0);
      json_builder_set_member_name (builder, "code");
      json_builder_add_boolean_value (builder, code);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
}

/* Test files: how many, where, named how. */
static void
add_tests (JsonBuilder *builder,
           GPtrArray   *files,
           GHashTable  *test_frameworks_found)
{
  static const struct { const char *pattern; const char *glob; } namings[] = {
    { "test_*.py", "test_*.py" }, { "*_test.py", "*_test.py" }, { "*_test.go", "*_test.go" },
    { "*.test.*", "*.test.*" }, { "*.spec.*", "*.spec.*" }, { "*Test.java", "*Test.java" },
    { "*Tests.cs", "*Tests.cs" }, { "*_spec.rb", "*_spec.rb" }, { "*_test.rb", "*_test.rb" },
    { "test-*.c", "test-*.c" }, { "test_*.c", "test_*.c" }, { "*_test.cc", "*_test.cc" },
    { "*Test.php", "*Test.php" }, { "*_test.rs", "*_test.rs" },
  };
  g_autoptr(GHashTable) dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GHashTable) names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) dir_keys = NULL;
  g_autoptr(GPtrArray) name_keys = NULL;
  guint n = 0;

  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredFile *file = g_ptr_array_index (files, i);
      const char *base = strrchr (file->path, '/') != NULL ? strrchr (file->path, '/') + 1
                                                           : file->path;
      const char *slash = strchr (file->path, '/');
      g_autofree char *top = slash != NULL ? g_strndup (file->path, slash - file->path + 1)
                                           : g_strdup ("./");

      if (g_strv_contains (data_languages, file->language) || !_lode_path_is_test (file->path))
        continue;
      n++;
      tally (dirs, top, file->n_lines);
      for (guint p = 0; p < G_N_ELEMENTS (namings); p++)
        if (g_pattern_match_simple (namings[p].glob, base))
          {
            tally (names, namings[p].pattern, 0);
            break;
          }
    }
  dir_keys = sorted_keys (dirs);
  name_keys = sorted_keys (names);

  json_builder_set_member_name (builder, "tests");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "files");
  json_builder_add_int_value (builder, n);
  json_builder_set_member_name (builder, "directories");
  json_builder_begin_array (builder);
  for (guint i = 0; i < dir_keys->len && i < 10; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (dir_keys, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "naming");
  json_builder_begin_array (builder);
  for (guint i = 0; i < name_keys->len; i++)
    if (((Tally *) g_hash_table_lookup (names, g_ptr_array_index (name_keys, i)))->files > 0)
      json_builder_add_string_value (builder, g_ptr_array_index (name_keys, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "frameworks");
  json_builder_begin_array (builder);
  {
    g_autoptr(GList) found = g_hash_table_get_keys (test_frameworks_found);

    found = g_list_sort (found, (GCompareFunc) strcmp);
    for (GList *l = found; l != NULL; l = l->next)
      json_builder_add_string_value (builder, l->data);
  }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
}

static void
add_string_array (JsonBuilder *builder,
                  const char  *member,
                  GPtrArray   *strings)
{
  json_builder_set_member_name (builder, member);
  json_builder_begin_array (builder);
  for (guint i = 0; i < strings->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (strings, i));
  json_builder_end_array (builder);
}

static void
add_framework (GHashTable *found,
               GPtrArray  *order,
               const char *framework,
               const char *evidence)
{
  if (framework == NULL || g_hash_table_contains (found, framework))
    return;
  g_hash_table_insert (found, g_strdup (framework), g_strdup (evidence));
  g_ptr_array_add (order, g_strdup (framework));
}

/**
 * lode_metadata_report:
 * @project: an indexed project
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{projectPath, name, size, languages, manifests,
 *   dependencies, dependencyCount, frameworks, entryPoints, tests, notes}`
 */
JsonObject *
lode_metadata_report (LodeProject   *project,
                      GCancellable  *cancellable,
                      GError       **error)
{
  const char *root = lode_project_get_root (project);
  g_autoptr(IndexFacts) facts = lode_project_read (project, read_facts, NULL, error);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(GPtrArray) manifests = g_ptr_array_new_with_free_func ((GDestroyNotify)
                                                                   lode_manifest_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  g_autoptr(GPtrArray) order = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) tests_found = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                             NULL);
  g_autoptr(GPtrArray) entry_points = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *name = NULL;
  guint64 lines = 0;
  guint64 bytes = 0;
  guint n_dependencies = 0;

  if (facts == NULL)
    return NULL;

  for (guint i = 0; i < facts->files->len; i++)
    {
      LodeStoredFile *file = g_ptr_array_index (facts->files, i);
      g_autoptr(GError) manifest_error = NULL;
      LodeManifest *manifest;

      lines += file->n_lines;
      bytes += file->size;
      /* A test's fixtures are not the project's manifests. */
      if (lode_manifest_kind_for_path (file->path) == NULL || _lode_path_is_test (file->path) ||
          g_cancellable_is_cancelled (cancellable))
        continue;
      manifest = lode_manifest_read (root, file->path, &manifest_error);
      if (manifest == NULL)
        g_ptr_array_add (notes, g_strdup_printf ("Not read: %s", manifest_error->message));
      /* A build file of a subfolder that declares nothing is no manifest of its own. */
      else if (manifest->name == NULL && manifest->dependencies->len == 0 &&
               manifest->entry_points->len == 0 && manifest->frameworks->len == 0)
        lode_manifest_free (manifest);
      else
        g_ptr_array_add (manifests, manifest);
    }

  for (guint i = 0; i < manifests->len; i++)
    {
      LodeManifest *manifest = g_ptr_array_index (manifests, i);

      if (name == NULL && manifest->name != NULL && strchr (manifest->path, '/') == NULL)
        name = g_strdup (manifest->name);
      for (guint f = 0; f < manifest->frameworks->len; f++)
        {
          const char *stated = g_ptr_array_index (manifest->frameworks, f);
          const char *known = lode_framework_for_dependency (stated);

          add_framework (found, order, known != NULL ? known : stated, manifest->path);
        }
      for (guint d = 0; d < manifest->dependencies->len; d++)
        {
          LodeDependency *dependency = g_ptr_array_index (manifest->dependencies, d);
          g_autofree char *evidence = g_strdup_printf ("%s in %s", dependency->name,
                                                       manifest->path);

          add_framework (found, order, lode_framework_for_dependency (dependency->name),
                         evidence);
          if (test_framework_for (dependency->name) != NULL)
            g_hash_table_add (tests_found, g_strdup (test_framework_for (dependency->name)));
        }
      for (guint e = 0; e < manifest->entry_points->len; e++)
        g_ptr_array_add (entry_points, g_strdup_printf ("%s (%s)",
                                                        (char *) g_ptr_array_index (manifest->entry_points,
                                                                                    e),
                                                        manifest->path));
    }
  for (guint i = 0; i < facts->mains->len; i++)
    {
      LodeStoredSymbol *symbol = g_ptr_array_index (facts->mains, i);

      if (g_str_equal (symbol->name, "main") && !_lode_path_is_test (symbol->path) &&
          (symbol->kind == NULL || strstr (symbol->kind, "function") != NULL ||
           strstr (symbol->kind, "method") != NULL))
        g_ptr_array_add (entry_points, g_strdup_printf ("%s:%u (main)", symbol->path,
                                                        symbol->start_line));
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "projectPath");
  json_builder_add_string_value (builder, root);
  json_builder_set_member_name (builder, "name");
  if (name == NULL)
    name = g_path_get_basename (root);
  json_builder_add_string_value (builder, name);
  json_builder_set_member_name (builder, "size");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "files");
  json_builder_add_int_value (builder, facts->files->len);
  json_builder_set_member_name (builder, "lines");
  json_builder_add_int_value (builder, lines);
  json_builder_set_member_name (builder, "bytes");
  json_builder_add_int_value (builder, bytes);
  json_builder_end_object (builder);
  add_languages (builder, facts->files);

  json_builder_set_member_name (builder, "manifests");
  json_builder_begin_array (builder);
  for (guint i = 0; i < manifests->len; i++)
    {
      LodeManifest *manifest = g_ptr_array_index (manifests, i);

      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "path");
      json_builder_add_string_value (builder, manifest->path);
      json_builder_set_member_name (builder, "kind");
      json_builder_add_string_value (builder, manifest->kind);
      if (manifest->name != NULL)
        {
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, manifest->name);
        }
      if (manifest->version != NULL)
        {
          json_builder_set_member_name (builder, "version");
          json_builder_add_string_value (builder, manifest->version);
        }
      json_builder_set_member_name (builder, "dependencies");
      json_builder_add_int_value (builder, manifest->dependencies->len);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);

  json_builder_set_member_name (builder, "dependencies");
  json_builder_begin_array (builder);
  for (guint i = 0; i < manifests->len; i++)
    {
      LodeManifest *manifest = g_ptr_array_index (manifests, i);

      for (guint d = 0; d < manifest->dependencies->len; d++, n_dependencies++)
        {
          LodeDependency *dependency = g_ptr_array_index (manifest->dependencies, d);

          if (n_dependencies >= MAX_DEPENDENCIES)
            continue;
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "name");
          json_builder_add_string_value (builder, dependency->name);
          if (dependency->version != NULL)
            {
              json_builder_set_member_name (builder, "version");
              json_builder_add_string_value (builder, dependency->version);
            }
          json_builder_set_member_name (builder, "scope");
          json_builder_add_string_value (builder, dependency->scope);
          json_builder_set_member_name (builder, "manifest");
          json_builder_add_string_value (builder, manifest->path);
          json_builder_end_object (builder);
        }
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "dependencyCount");
  json_builder_add_int_value (builder, n_dependencies);

  json_builder_set_member_name (builder, "frameworks");
  json_builder_begin_array (builder);
  for (guint i = 0; i < order->len; i++)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "name");
      json_builder_add_string_value (builder, g_ptr_array_index (order, i));
      json_builder_set_member_name (builder, "evidence");
      json_builder_add_string_value (builder, g_hash_table_lookup (found,
                                                                   g_ptr_array_index (order, i)));
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  add_string_array (builder, "entryPoints", entry_points);
  add_tests (builder, facts->files, tests_found);
  add_string_array (builder, "notes", notes);
  json_builder_end_object (builder);

  node = json_builder_get_root (builder);
  return json_node_dup_object (node);
}

static void
append_list (GString    *text,
             const char *title,
             JsonArray  *array)
{
  guint n = json_array_get_length (array);

  if (n == 0)
    return;
  g_string_append_printf (text, "%s: ", title);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "%s%s", i > 0 ? ", " : "",
                            json_array_get_string_element (array, i));
  g_string_append (text, "\n");
}

/**
 * lode_metadata_format:
 * @report: what lode_metadata_report() returned
 *
 * Returns: (transfer full): @report as markdown
 */
char *
lode_metadata_format (JsonObject *report)
{
  JsonObject *size = json_object_get_object_member (report, "size");
  JsonArray *languages = json_object_get_array_member (report, "languages");
  JsonArray *manifests = json_object_get_array_member (report, "manifests");
  JsonArray *frameworks = json_object_get_array_member (report, "frameworks");
  JsonArray *dependencies = json_object_get_array_member (report, "dependencies");
  JsonObject *tests = json_object_get_object_member (report, "tests");
  GString *text = g_string_new (NULL);

  g_string_append_printf (text, "## %s\n\n", json_object_get_string_member (report, "name"));
  lode_append_count (text, json_object_get_int_member (size, "files"), "%u file", "%u files");
  g_string_append (text, ", ");
  lode_append_count (text, json_object_get_int_member (size, "lines"), "%u line", "%u lines");
  g_string_append (text, "\n\nLanguages: ");
  for (guint i = 0, shown = 0; i < json_array_get_length (languages); i++)
    {
      JsonObject *language = json_array_get_object_element (languages, i);

      /* The languages that make up at least a percent of the code. */
      if (!json_object_get_boolean_member (language, "code") ||
          json_object_get_double_member (language, "share") < 0.01)
        continue;
      g_string_append_printf (text, "%s%s %.0f%%", shown++ > 0 ? ", " : "",
                              json_object_get_string_member (language, "language"),
                              100 * json_object_get_double_member (language, "share"));
    }
  g_string_append (text, "\n");
  if (json_array_get_length (frameworks) > 0)
    {
      g_string_append (text, "Frameworks: ");
      for (guint i = 0; i < json_array_get_length (frameworks); i++)
        g_string_append_printf (text, "%s%s", i > 0 ? ", " : "",
                                json_object_get_string_member (json_array_get_object_element (frameworks,
                                                                                              i),
                                                               "name"));
      g_string_append (text, "\n");
    }
  append_list (text, "Entry points", json_object_get_array_member (report, "entryPoints"));
  g_string_append_printf (text, "Tests: %" G_GINT64_FORMAT " files",
                          json_object_get_int_member (tests, "files"));
  append_list (text, " in", json_object_get_array_member (tests, "directories"));
  if (json_array_get_length (json_object_get_array_member (tests, "directories")) == 0)
    g_string_append (text, "\n");
  append_list (text, "Test naming", json_object_get_array_member (tests, "naming"));
  append_list (text, "Test frameworks", json_object_get_array_member (tests, "frameworks"));

  g_string_append (text, "\n### Manifests\n\n");
  for (guint i = 0; i < json_array_get_length (manifests); i++)
    {
      JsonObject *manifest = json_array_get_object_element (manifests, i);

      g_string_append_printf (text, "- `%s` (%s%s%s): %" G_GINT64_FORMAT " dependencies\n",
                              json_object_get_string_member (manifest, "path"),
                              json_object_get_string_member (manifest, "kind"),
                              json_object_has_member (manifest, "name") ? ", " : "",
                              json_object_get_string_member_with_default (manifest, "name", ""),
                              json_object_get_int_member (manifest, "dependencies"));
    }
  if (json_array_get_length (dependencies) > 0)
    g_string_append (text, "\n### Dependencies\n\n");
  for (guint i = 0; i < json_array_get_length (dependencies); i++)
    {
      JsonObject *dependency = json_array_get_object_element (dependencies, i);

      g_string_append_printf (text, "- %s %s (%s)\n",
                              json_object_get_string_member (dependency, "name"),
                              json_object_get_string_member_with_default (dependency, "version",
                                                                          ""),
                              json_object_get_string_member (dependency, "scope"));
    }
  append_list (text, "\nNotes", json_object_get_array_member (report, "notes"));

  return g_string_free (text, FALSE);
}
