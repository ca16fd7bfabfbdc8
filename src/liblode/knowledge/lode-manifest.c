/* lode-manifest.c — what a project's manifests say it depends on
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>

#include "lode-config-reader.h"
#include "lode-error.h"
#include "lode-manifest.h"

/*
 * Twelve kinds of manifest, each read for the package it declares, its dependencies (with
 * their scope) and its entry points. Structured files go through lode-config-reader; the
 * manifests that are programs (meson.build, CMakeLists.txt, Gemfile, build.gradle) are read
 * for the calls that declare dependencies, line by line, without running anything.
 */

/* Manifests larger than this are not read. */
#define MAX_MANIFEST_BYTES (4 * 1024 * 1024)

static void
dependency_free (LodeDependency *dependency)
{
  g_free (dependency->name);
  g_free (dependency->version);
  g_free (dependency->scope);
  g_free (dependency);
}

void
lode_manifest_free (LodeManifest *manifest)
{
  if (manifest == NULL)
    return;

  g_free (manifest->path);
  g_free (manifest->name);
  g_free (manifest->version);
  g_ptr_array_unref (manifest->dependencies);
  g_ptr_array_unref (manifest->entry_points);
  g_ptr_array_unref (manifest->frameworks);
  g_free (manifest);
}

/* (g_set_str() is GLib 2.76.) */
static void
set_string (char       **slot,
            const char  *value)
{
  g_free (*slot);
  *slot = g_strdup (value);
}

static void
add_dependency (LodeManifest *manifest,
                const char   *name,
                const char   *version,
                const char   *scope)
{
  LodeDependency *dependency;

  if (name == NULL || name[0] == '\0')
    return;
  dependency = g_new0 (LodeDependency, 1);
  dependency->name = g_strdup (name);
  dependency->version = version != NULL && version[0] != '\0' ? g_strdup (version) : NULL;
  dependency->scope = g_strdup (scope);
  g_ptr_array_add (manifest->dependencies, dependency);
}

static const struct
{
  const char *name;      /* a file name, or a suffix when it starts with '.' */
  const char *kind;
} kinds[] = {
  { "package.json", "npm" },
  { "go.mod", "go" },
  { "Cargo.toml", "cargo" },
  { "pyproject.toml", "python" },
  { "requirements.txt", "pip" },
  { "composer.json", "composer" },
  { "pom.xml", "maven" },
  { "build.gradle", "gradle" },
  { "build.gradle.kts", "gradle" },
  { "Gemfile", "bundler" },
  { "meson.build", "meson" },
  { "CMakeLists.txt", "cmake" },
  { ".csproj", "nuget" },
};

/**
 * lode_manifest_kind_for_path:
 * @path: a file's path
 *
 * Returns: (nullable): the kind of manifest @path names (requirements-dev.txt and the like
 *   are pip's too), or %NULL
 */
const char *
lode_manifest_kind_for_path (const char *path)
{
  const char *base = strrchr (path, '/') != NULL ? strrchr (path, '/') + 1 : path;

  for (guint i = 0; i < G_N_ELEMENTS (kinds); i++)
    if (kinds[i].name[0] == '.' ? g_str_has_suffix (base, kinds[i].name)
                                : g_str_equal (base, kinds[i].name))
      return kinds[i].kind;
  if (g_str_has_prefix (base, "requirements") && g_str_has_suffix (base, ".txt"))
    return "pip";

  return NULL;
}

static const char *
last_part (const char *key)
{
  const char *dot = strrchr (key, '.');

  return dot != NULL ? dot + 1 : key;
}

/* npm and composer ------------------------------------------------------------------- */

static void
read_npm (LodeManifest *manifest,
          GPtrArray    *entries,
          gboolean      composer)
{
  static const struct { const char *prefix; const char *scope; } sections[] = {
    { "dependencies.", "runtime" }, { "devDependencies.", "dev" },
    { "peerDependencies.", "peer" }, { "optionalDependencies.", "optional" },
    { "require.", "runtime" }, { "require-dev.", "dev" },
  };

  for (guint i = 0; i < entries->len; i++)
    {
      LodeConfigEntry *entry = g_ptr_array_index (entries, i);

      if (g_str_equal (entry->key, "name"))
        set_string (&manifest->name, entry->value);
      else if (g_str_equal (entry->key, "version"))
        set_string (&manifest->version, entry->value);
      else if (!composer && (g_str_equal (entry->key, "main") ||
                             g_str_has_prefix (entry->key, "bin")))
        g_ptr_array_add (manifest->entry_points, g_strdup (entry->value));
      for (guint s = 0; s < G_N_ELEMENTS (sections); s++)
        if (g_str_has_prefix (entry->key, sections[s].prefix))
          {
            const char *name = entry->key + strlen (sections[s].prefix);

            /* composer's platform requirements are no packages. */
            if (composer && (g_str_equal (name, "php") || g_str_has_prefix (name, "ext-")))
              continue;
            add_dependency (manifest, name, entry->value, sections[s].scope);
          }
    }
}

/* go.mod -------------------------------------------------------------------------------- */

static void
read_go_mod (LodeManifest *manifest,
             const char   *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean in_require = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      g_auto(GStrv) words = NULL;
      const char *spec = NULL;
      gboolean indirect = strstr (line, "// indirect") != NULL;

      if (g_str_has_prefix (line, "module "))
        {
          set_string (&manifest->name, g_strstrip (line + strlen ("module ")));
          continue;
        }
      if (g_str_has_prefix (line, "go "))
        {
          set_string (&manifest->version, g_strstrip (line + strlen ("go ")));
          continue;
        }
      if (g_str_equal (line, "require ("))
        {
          in_require = TRUE;
          continue;
        }
      if (in_require && g_str_has_prefix (line, ")"))
        {
          in_require = FALSE;
          continue;
        }
      if (in_require)
        spec = line;
      else if (g_str_has_prefix (line, "require "))
        spec = line + strlen ("require ");
      if (spec == NULL || spec[0] == '/' || spec[0] == '\0')
        continue;
      words = g_strsplit_set (spec, " \t", -1);
      if (words[0] != NULL && words[1] != NULL)
        add_dependency (manifest, words[0], words[1], indirect ? "indirect" : "runtime");
    }
  /* go.mod's `go` line is the language's version, not the module's. */
  g_clear_pointer (&manifest->version, g_free);
}

/* Cargo.toml and pyproject.toml --------------------------------------------------------- */

/* `{ version = "1", features = [...] }` → "1"; a string → itself. */
static char *
cargo_version (const char *value)
{
  const char *v;
  g_autofree char *rest = NULL;

  if (value[0] != '{')
    return g_strdup (value);
  v = strstr (value, "version");
  if (v == NULL || (v = strchr (v, '=')) == NULL)
    return NULL;
  rest = g_strstrip (g_strdup (v + 1));
  for (char *p = rest + 1; *p != '\0'; p++)
    if (*p == rest[0])
      {
        *p = '\0';
        return g_strdup (rest + 1);
      }

  return NULL;
}

static void
read_cargo (LodeManifest *manifest,
            GPtrArray    *entries,
            const char   *root)
{
  static const struct { const char *section; const char *scope; } sections[] = {
    { "dependencies", "runtime" }, { "dev-dependencies", "dev" },
    { "build-dependencies", "build" },
  };
  g_autofree char *main_rs = g_build_filename (root, manifest->path, NULL);
  g_autofree char *dir = g_path_get_dirname (main_rs);
  g_autofree char *candidate = g_build_filename (dir, "src", "main.rs", NULL);

  for (guint i = 0; i < entries->len; i++)
    {
      LodeConfigEntry *entry = g_ptr_array_index (entries, i);
      g_auto(GStrv) parts = g_strsplit (entry->key, ".", -1);
      guint n = g_strv_length (parts);

      if (g_str_equal (entry->key, "package.name"))
        set_string (&manifest->name, entry->value);
      else if (g_str_equal (entry->key, "package.version"))
        set_string (&manifest->version, entry->value);
      else if (g_str_equal (entry->key, "bin[].path") || g_str_equal (entry->key, "bin[].name"))
        g_ptr_array_add (manifest->entry_points, g_strdup (entry->value));
      for (guint s = 0; s < G_N_ELEMENTS (sections); s++)
        {
          /* [dependencies] x = …, [target.'cfg'.dependencies] x = …, and
           * [dependencies.x] version = … */
          if (n >= 2 && g_str_equal (parts[n - 2], sections[s].section))
            {
              g_autofree char *version = cargo_version (entry->value);

              add_dependency (manifest, parts[n - 1], version, sections[s].scope);
            }
          else if (n >= 3 && g_str_equal (parts[n - 3], sections[s].section) &&
                   g_str_equal (parts[n - 1], "version"))
            add_dependency (manifest, parts[n - 2], entry->value, sections[s].scope);
        }
    }
  if (g_file_test (candidate, G_FILE_TEST_IS_REGULAR))
    {
      g_autofree char *manifest_dir = g_path_get_dirname (manifest->path);

      g_ptr_array_add (manifest->entry_points,
                       g_str_equal (manifest_dir, ".") ? g_strdup ("src/main.rs")
                                                       : g_build_filename (manifest_dir, "src",
                                                                           "main.rs", NULL));
    }
}

/* A PEP 508 requirement: `requests[socks]>=2.31; python_version > "3.8"`. */
static void
add_requirement (LodeManifest *manifest,
                 const char   *requirement,
                 const char   *scope)
{
  g_autofree char *text = g_strstrip (g_strdup (requirement));
  char *marker = strchr (text, ';');
  gsize name_length;
  g_autofree char *name = NULL;
  char *spec;

  if (marker != NULL)
    *marker = '\0';
  name_length = strcspn (text, "<>=!~[ @(");
  name = g_strndup (text, name_length);
  spec = text + name_length;
  if (*spec == '[')
    spec = strchr (spec, ']') != NULL ? strchr (spec, ']') + 1 : spec + strlen (spec);
  add_dependency (manifest, name, g_strstrip (spec), scope);
}

static void
read_pyproject (LodeManifest *manifest,
                GPtrArray    *entries)
{
  for (guint i = 0; i < entries->len; i++)
    {
      LodeConfigEntry *entry = g_ptr_array_index (entries, i);
      const char *key = entry->key;
      const char *scope = NULL;
      gboolean list = TRUE;

      if (g_str_equal (key, "project.name") || g_str_equal (key, "tool.poetry.name"))
        set_string (&manifest->name, entry->value);
      else if (g_str_equal (key, "project.version") || g_str_equal (key, "tool.poetry.version"))
        set_string (&manifest->version, entry->value);
      else if (g_str_has_prefix (key, "project.scripts.") ||
               g_str_has_prefix (key, "tool.poetry.scripts."))
        g_ptr_array_add (manifest->entry_points, g_strdup (entry->value));
      if (g_str_equal (key, "project.dependencies"))
        scope = "runtime";
      else if (g_str_has_prefix (key, "project.optional-dependencies."))
        scope = "optional";
      else if (g_str_has_prefix (key, "dependency-groups."))
        scope = "dev";
      else if (g_str_has_prefix (key, "tool.poetry.dependencies."))
        scope = "runtime", list = FALSE;
      else if (g_str_has_prefix (key, "tool.poetry.dev-dependencies.") ||
               (g_str_has_prefix (key, "tool.poetry.group.") && strstr (key, ".dependencies.")))
        scope = "dev", list = FALSE;
      if (scope == NULL)
        continue;
      if (list)
        {
          g_auto(GStrv) requirements = lode_config_split_list (entry->value);

          for (guint r = 0; requirements[r] != NULL; r++)
            add_requirement (manifest, requirements[r], scope);
        }
      else if (!g_str_equal (last_part (key), "python"))
        {
          g_autofree char *version = cargo_version (entry->value);

          add_dependency (manifest, last_part (key), version, scope);
        }
    }
}

static void
read_requirements (LodeManifest *manifest,
                   const char   *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  const char *scope = strstr (manifest->path, "dev") != NULL ||
                      strstr (manifest->path, "test") != NULL ? "dev" : "runtime";

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *hash = strstr (lines[i], " #");
      char *line;

      if (hash != NULL)
        *hash = '\0';
      line = g_strstrip (lines[i]);
      /* Options (-r other.txt, -e ., --index-url) and comments name no package. */
      if (line[0] == '\0' || line[0] == '#' || line[0] == '-' || strstr (line, "://") != NULL)
        continue;
      add_requirement (manifest, line, scope);
    }
}

/* pom.xml and *.csproj ----------------------------------------------------------------- */

typedef struct
{
  char *group;
  char *artifact;
  char *version;
  char *scope;
} MavenDependency;

static void
maven_flush (LodeManifest    *manifest,
             MavenDependency *dep)
{
  if (dep->artifact != NULL)
    {
      g_autofree char *name = dep->group != NULL ? g_strconcat (dep->group, ":",
                                                                dep->artifact, NULL)
                                                 : g_strdup (dep->artifact);

      add_dependency (manifest, name, dep->version,
                      dep->scope != NULL && g_str_equal (dep->scope, "test") ? "test"
                      : dep->scope != NULL && g_str_equal (dep->scope, "provided") ? "build"
                      : "runtime");
    }
  g_clear_pointer (&dep->group, g_free);
  g_clear_pointer (&dep->artifact, g_free);
  g_clear_pointer (&dep->version, g_free);
  g_clear_pointer (&dep->scope, g_free);
}

static void
read_maven (LodeManifest *manifest,
            GPtrArray    *entries)
{
  static const char *const prefix = "project/dependencies/dependency/";
  MavenDependency dep = { NULL };

  for (guint i = 0; i < entries->len; i++)
    {
      LodeConfigEntry *entry = g_ptr_array_index (entries, i);
      const char *field;
      char **slot = NULL;

      if (g_str_equal (entry->key, "project/artifactId"))
        set_string (&manifest->name, entry->value);
      else if (g_str_equal (entry->key, "project/version"))
        set_string (&manifest->version, entry->value);
      else if (g_str_equal (entry->key, "project/parent/artifactId") &&
               g_str_has_prefix (entry->value, "spring-boot"))
        g_ptr_array_add (manifest->frameworks, g_strdup ("Spring Boot"));
      if (!g_str_has_prefix (entry->key, prefix))
        continue;
      field = entry->key + strlen (prefix);
      if (g_str_equal (field, "groupId"))
        slot = &dep.group;
      else if (g_str_equal (field, "artifactId"))
        slot = &dep.artifact;
      else if (g_str_equal (field, "version"))
        slot = &dep.version;
      else if (g_str_equal (field, "scope"))
        slot = &dep.scope;
      if (slot == NULL)
        continue;
      /* A field seen twice starts the next dependency. */
      if (*slot != NULL)
        maven_flush (manifest, &dep);
      *slot = g_strdup (entry->value);
    }
  maven_flush (manifest, &dep);
}

static void
read_csproj (LodeManifest *manifest,
             GPtrArray    *entries)
{
  for (guint i = 0; i < entries->len; i++)
    {
      LodeConfigEntry *entry = g_ptr_array_index (entries, i);

      if (g_str_equal (entry->key, "Project/@Sdk"))
        g_ptr_array_add (manifest->frameworks, g_strdup (entry->value));
      else if (g_str_has_suffix (entry->key, "PropertyGroup/TargetFramework") ||
               g_str_has_suffix (entry->key, "PropertyGroup/TargetFrameworks"))
        set_string (&manifest->version, entry->value);
      else if (g_str_has_suffix (entry->key, "PropertyGroup/AssemblyName"))
        set_string (&manifest->name, entry->value);
      else if (g_str_has_suffix (entry->key, "PackageReference/@Include"))
        {
          const char *version = NULL;

          /* The Version attribute of the same element, on its line. */
          for (guint j = i + 1; j < entries->len; j++)
            {
              LodeConfigEntry *next = g_ptr_array_index (entries, j);

              if (next->line != entry->line)
                break;
              if (g_str_has_suffix (next->key, "PackageReference/@Version"))
                version = next->value;
            }
          add_dependency (manifest, entry->value, version, "runtime");
        }
    }
  if (manifest->name == NULL)
    {
      g_autofree char *base = g_path_get_basename (manifest->path);

      manifest->name = g_strndup (base, strlen (base) - strlen (".csproj"));
    }
}

/* Manifests that are programs ------------------------------------------------------------ */

static void
each_match (const char *text,
            const char *pattern,
            void      (*func) (LodeManifest *manifest, GMatchInfo *match),
            LodeManifest *manifest)
{
  g_autoptr(GRegex) regex = g_regex_new (pattern, G_REGEX_MULTILINE | G_REGEX_OPTIMIZE, 0,
                                         NULL);
  g_autoptr(GMatchInfo) match = NULL;

  g_assert (regex != NULL);
  for (g_regex_match (regex, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    func (manifest, match);
}

static void
meson_project (LodeManifest *manifest,
               GMatchInfo   *match)
{
  g_autofree char *name = g_match_info_fetch (match, 1);
  g_autofree char *rest = g_match_info_fetch (match, 2);
  g_autoptr(GRegex) version = g_regex_new ("version\\s*:\\s*'([^']*)'", 0, 0, NULL);
  g_autoptr(GMatchInfo) found = NULL;

  set_string (&manifest->name, name);
  if (g_regex_match (version, rest, 0, &found))
    {
      g_autofree char *value = g_match_info_fetch (found, 1);

      set_string (&manifest->version, value);
    }
}

static void
meson_dependency (LodeManifest *manifest,
                  GMatchInfo   *match)
{
  g_autofree char *name = g_match_info_fetch (match, 1);
  g_autofree char *version = g_match_info_fetch (match, 3);

  add_dependency (manifest, name, version, "runtime");
}

static void
meson_executable (LodeManifest *manifest,
                  GMatchInfo   *match)
{
  g_autofree char *name = g_match_info_fetch (match, 1);

  g_ptr_array_add (manifest->entry_points, g_steal_pointer (&name));
}

static void
read_meson (LodeManifest *manifest,
            const char   *text)
{
  each_match (text, "^\\s*project\\s*\\(\\s*'([^']+)'([^)]*)", meson_project, manifest);
  each_match (text,
              "dependency\\s*\\(\\s*'([^']+)'(\\s*,[^)]*?version\\s*:\\s*'([^']*)')?",
              meson_dependency, manifest);
  each_match (text, "^\\s*\\w+\\s*=\\s*executable\\s*\\(\\s*'([^']+)'\\s*,", meson_executable,
              manifest);
}

static void
cmake_project (LodeManifest *manifest,
               GMatchInfo   *match)
{
  g_autofree char *name = g_match_info_fetch (match, 1);
  g_autofree char *version = g_match_info_fetch (match, 2);

  set_string (&manifest->name, name);
  if (version != NULL && version[0] != '\0')
    set_string (&manifest->version, version);
}

static void
cmake_find_package (LodeManifest *manifest,
                    GMatchInfo   *match)
{
  g_autofree char *name = g_match_info_fetch (match, 1);
  g_autofree char *version = g_match_info_fetch (match, 2);

  add_dependency (manifest, name, version, "runtime");
}

static void
cmake_pkg_config (LodeManifest *manifest,
                  GMatchInfo   *match)
{
  g_autofree char *list = g_match_info_fetch (match, 1);
  g_auto(GStrv) words = g_strsplit_set (list, " \t\n", -1);

  /* pkg_check_modules(PREFIX [REQUIRED] [IMPORTED_TARGET] module…) */
  for (guint i = 1; words[i] != NULL; i++)
    {
      char *op;

      if (words[i][0] == '\0' || g_ascii_isupper (words[i][0]))
        continue;
      op = strpbrk (words[i], "<>=");
      if (op != NULL)
        {
          g_autofree char *name = g_strndup (words[i], op - words[i]);

          add_dependency (manifest, name, op, "runtime");
        }
      else
        add_dependency (manifest, words[i], NULL, "runtime");
    }
}

static void
cmake_fetch (LodeManifest *manifest,
             GMatchInfo   *match)
{
  g_autofree char *name = g_match_info_fetch (match, 1);

  add_dependency (manifest, name, NULL, "build");
}

static void
read_cmake (LodeManifest *manifest,
            const char   *text)
{
  each_match (text, "^\\s*project\\s*\\(\\s*([A-Za-z0-9_.+-]+)(?:[^)]*?VERSION\\s+([0-9][^\\s)]*))?",
              cmake_project, manifest);
  each_match (text, "^\\s*find_package\\s*\\(\\s*([A-Za-z0-9_.+-]+)(?:\\s+([0-9][^\\s)]*))?",
              cmake_find_package, manifest);
  each_match (text, "pkg_check_modules\\s*\\(([^)]*)\\)", cmake_pkg_config, manifest);
  each_match (text, "FetchContent_Declare\\s*\\(\\s*([A-Za-z0-9_.+-]+)", cmake_fetch, manifest);
  each_match (text, "^\\s*add_executable\\s*\\(\\s*([A-Za-z0-9_.+-]+)", meson_executable,
              manifest);
}

static void
read_gemfile (LodeManifest *manifest,
              const char   *text)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autoptr(GRegex) gem = g_regex_new ("^\\s*gem\\s+['\"]([^'\"]+)['\"](?:\\s*,\\s*['\"]([^'\"]+)['\"])?",
                                       0, 0, NULL);
  gboolean in_group = FALSE;

  /* group :development, :test do … end */
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_autoptr(GMatchInfo) match = NULL;
      const char *line = lines[i];

      while (g_ascii_isspace (*line))
        line++;
      if (g_str_has_prefix (line, "group ") && strstr (line, " do") != NULL)
        in_group = TRUE;
      else if (g_str_has_prefix (line, "end"))
        in_group = FALSE;
      else if (g_regex_match (gem, lines[i], 0, &match))
        {
          g_autofree char *name = g_match_info_fetch (match, 1);
          g_autofree char *version = g_match_info_fetch (match, 2);

          add_dependency (manifest, name, version,
                          in_group || strstr (line, "group:") != NULL ? "dev" : "runtime");
        }
    }
}

static void
gradle_dependency (LodeManifest *manifest,
                   GMatchInfo   *match)
{
  g_autofree char *configuration = g_match_info_fetch (match, 1);
  g_autofree char *coordinate = g_match_info_fetch (match, 2);
  g_auto(GStrv) parts = g_strsplit (coordinate, ":", 3);
  g_autofree char *name = parts[1] != NULL ? g_strconcat (parts[0], ":", parts[1], NULL)
                                           : g_strdup (parts[0]);

  add_dependency (manifest, name, parts[1] != NULL ? parts[2] : NULL,
                  g_str_has_prefix (configuration, "test") ||
                  g_str_has_prefix (configuration, "androidTest") ? "test"
                  : g_str_equal (configuration, "compileOnly") ||
                    g_str_equal (configuration, "annotationProcessor") ||
                    g_str_equal (configuration, "kapt") ? "build" : "runtime");
}

static void
gradle_plugin (LodeManifest *manifest,
               GMatchInfo   *match)
{
  g_autofree char *id = g_match_info_fetch (match, 1);

  if (g_str_equal (id, "org.springframework.boot"))
    g_ptr_array_add (manifest->frameworks, g_strdup ("Spring Boot"));
  else if (g_str_has_prefix (id, "com.android."))
    g_ptr_array_add (manifest->frameworks, g_strdup ("Android"));
}

static void
read_gradle (LodeManifest *manifest,
             const char   *text)
{
  each_match (text,
              "^\\s*(implementation|api|compileOnly|runtimeOnly|testImplementation|"
              "testRuntimeOnly|testCompileOnly|androidTestImplementation|annotationProcessor|"
              "kapt|ksp)\\s*\\(?\\s*['\"]([^'\"]+)['\"]",
              gradle_dependency, manifest);
  each_match (text, "id\\s*\\(?\\s*['\"]([A-Za-z0-9_.-]+)['\"]", gradle_plugin, manifest);
}

/**
 * lode_manifest_read:
 * @root: the project's root
 * @path: a manifest, relative to @root (lode_manifest_kind_for_path() names its kind)
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): what @path declares, or %NULL when it cannot be read
 *   or parsed (the error names the file and the line)
 */
LodeManifest *
lode_manifest_read (const char  *root,
                    const char  *path,
                    GError     **error)
{
  const char *kind = lode_manifest_kind_for_path (path);
  g_autofree char *full = g_build_filename (root, path, NULL);
  g_autofree char *text = NULL;
  g_autoptr(LodeManifest) manifest = NULL;
  g_autoptr(GPtrArray) entries = NULL;
  LodeConfigFormat format;
  gsize length;

  g_return_val_if_fail (kind != NULL, NULL);

  if (!g_file_get_contents (full, &text, &length, error))
    return NULL;
  if (length > MAX_MANIFEST_BYTES)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s is larger than %d bytes", path, MAX_MANIFEST_BYTES);
      return NULL;
    }

  manifest = g_new0 (LodeManifest, 1);
  manifest->path = g_strdup (path);
  manifest->kind = kind;
  manifest->dependencies = g_ptr_array_new_with_free_func ((GDestroyNotify) dependency_free);
  manifest->entry_points = g_ptr_array_new_with_free_func (g_free);
  manifest->frameworks = g_ptr_array_new_with_free_func (g_free);

  if (g_str_equal (kind, "npm") || g_str_equal (kind, "composer"))
    format = LODE_CONFIG_JSON;
  else if (g_str_equal (kind, "cargo") || g_str_equal (kind, "python"))
    format = LODE_CONFIG_TOML;
  else if (g_str_equal (kind, "maven") || g_str_equal (kind, "nuget"))
    format = LODE_CONFIG_XML;
  else
    {
      if (g_str_equal (kind, "go"))
        read_go_mod (manifest, text);
      else if (g_str_equal (kind, "pip"))
        read_requirements (manifest, text);
      else if (g_str_equal (kind, "meson"))
        read_meson (manifest, text);
      else if (g_str_equal (kind, "cmake"))
        read_cmake (manifest, text);
      else if (g_str_equal (kind, "bundler"))
        read_gemfile (manifest, text);
      else if (g_str_equal (kind, "gradle"))
        read_gradle (manifest, text);
      return g_steal_pointer (&manifest);
    }

  entries = lode_config_read (text, length, format, error);
  if (entries == NULL)
    {
      g_prefix_error (error, "%s: ", path);
      return NULL;
    }
  if (format == LODE_CONFIG_JSON)
    read_npm (manifest, entries, g_str_equal (kind, "composer"));
  else if (g_str_equal (kind, "cargo"))
    read_cargo (manifest, entries, root);
  else if (g_str_equal (kind, "python"))
    read_pyproject (manifest, entries);
  else if (g_str_equal (kind, "maven"))
    read_maven (manifest, entries);
  else
    read_csproj (manifest, entries);

  return g_steal_pointer (&manifest);
}
