/* lode-import-configs.c — the configuration files that decide where imports resolve:
 * tsconfig/jsconfig, package.json, compile_commands.json, Makefiles, go.mod, Cargo.toml,
 * composer.json, pubspec.yaml, Package.swift
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-import-resolver"

#include "config.h"

#include <string.h>

#include "lode-import-makefile-private.h"
#include "lode-import-resolver-private.h"
#include "lode-json.h"

void
_lode_import_ts_config_free (TsConfig *config)
{
  g_free (config->dir);
  g_free (config->base_url);
  g_ptr_array_unref (config->patterns);
  g_free (config);
}

static void
path_pattern_free (PathPattern *pattern)
{
  g_free (pattern->pattern);
  g_strfreev (pattern->targets);
  g_free (pattern);
}

void
_lode_import_mapping_free (Mapping *mapping)
{
  g_free (mapping->prefix);
  g_free (mapping->dir);
  g_free (mapping->entry);
  g_free (mapping);
}

static void
add_mapping (GPtrArray  *mappings,
             const char *prefix,
             const char *dir)
{
  Mapping *mapping = g_new0 (Mapping, 1);

  mapping->prefix = g_strdup (prefix);
  mapping->dir = g_strdup (dir);
  g_ptr_array_add (mappings, mapping);
}

/* Configuration files. */

/* JSON with comments and trailing commas (tsconfig, jsconfig) made plain JSON. */
static char *
strip_jsonc (const char *text,
             gsize       len)
{
  GString *out = g_string_sized_new (len);
  const char *end = text + len;
  const char *p = text;

  while (p < end)
    {
      if (*p == '"')
        {
          const char *start = p++;

          while (p < end && *p != '"')
            p += (*p == '\\' && p + 1 < end) ? 2 : 1;
          p = MIN (p + 1, end);
          g_string_append_len (out, start, p - start);
        }
      else if (p + 1 < end && p[0] == '/' && p[1] == '/')
        {
          const char *eol = memchr (p, '\n', end - p);

          p = eol != NULL ? eol : end;
        }
      else if (p + 1 < end && p[0] == '/' && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, end - p - 2, "*/");

          p = close != NULL ? close + 2 : end;
        }
      else if (*p == ',')
        {
          const char *q = p + 1;

          while (q < end && g_ascii_isspace (*q))
            q++;
          if (q < end && (*q == '}' || *q == ']'))
            p++;
          else
            g_string_append_c (out, *p++);
        }
      else
        g_string_append_c (out, *p++);
    }

  return g_string_free (out, FALSE);
}

static JsonNode *
read_json (LodeImportResolver *self,
           const char         *path)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *plain = NULL;
  JsonNode *root;
  gsize len = 0;

  if (!has_file (self, path))
    return NULL;

  text = _lode_import_read_project_file (self, path, CONFIG_MAX_BYTES, &len);
  if (text == NULL)
    return NULL;

  plain = strip_jsonc (text, len);
  root = lode_json_parse (plain, -1, &error);
  if (root == NULL)
    g_debug ("Ignoring %s: %s", path, error->message);

  return root;
}

/* Fills @config's baseUrl and paths from the tsconfig at @path and, for what it leaves out,
 * the chain of files it `extends` (project files only; a package name is not followed). */
static void
read_ts_config (LodeImportResolver *self,
                const char         *path,
                TsConfig           *config,
                guint               depth)
{
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *dir = path_dirname (path);
  JsonObject *options;
  JsonObject *paths;
  const char *extends;
  const char *base_url;

  if (depth > MAX_EXTENDS_DEPTH)
    return;

  root = read_json (self, path);
  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;

  options = lode_json_get_object (json_node_get_object (root), "compilerOptions");
  base_url = lode_json_get_string (options, "baseUrl");
  paths = lode_json_get_object (options, "paths");

  if (config->base_url == NULL && base_url != NULL)
    config->base_url = _lode_import_path_join (dir, base_url);

  if (config->patterns->len == 0 && paths != NULL)
    {
      /* Targets of `paths` are relative to baseUrl if set, else to this tsconfig. */
      const char *target_base = base_url != NULL ? config->base_url : dir;
      g_autoptr(GList) members = json_object_get_members (paths);

      for (GList *l = members; l != NULL && target_base != NULL; l = l->next)
        {
          JsonNode *node = json_object_get_member (paths, l->data);
          g_autoptr(GStrvBuilder) targets = g_strv_builder_new ();
          PathPattern *pattern;

          if (!JSON_NODE_HOLDS_ARRAY (node))
            continue;
          for (guint i = 0; i < json_array_get_length (json_node_get_array (node)); i++)
            {
              JsonNode *element = json_array_get_element (json_node_get_array (node), i);
              g_autofree char *target = NULL;

              if (!JSON_NODE_HOLDS_VALUE (element) ||
                  json_node_get_value_type (element) != G_TYPE_STRING)
                continue;
              target = _lode_import_path_join (target_base, json_node_get_string (element));
              if (target != NULL)
                g_strv_builder_add (targets, target);
            }

          pattern = g_new0 (PathPattern, 1);
          pattern->pattern = g_strdup (l->data);
          pattern->targets = g_strv_builder_end (targets);
          g_ptr_array_add (config->patterns, pattern);
        }
    }

  extends = lode_json_get_string (json_node_get_object (root), "extends");
  if (extends != NULL && (extends[0] == '.' || extends[0] == '/'))
    {
      g_autofree char *next = _lode_import_path_join (dir, extends);

      if (next != NULL && !has_file (self, next))
        {
          g_autofree char *with_json = g_strconcat (next, ".json", NULL);

          g_free (next);
          next = g_steal_pointer (&with_json);
        }
      if (next != NULL)
        read_ts_config (self, next, config, depth + 1);
    }
}

static int
ts_config_cmp_depth (gconstpointer a,
                     gconstpointer b)
{
  const TsConfig *ca = *(const TsConfig **) a;
  const TsConfig *cb = *(const TsConfig **) b;

  return (int) strlen (cb->dir) - (int) strlen (ca->dir);
}

static void
read_package_json (LodeImportResolver *self,
                   const char         *path)
{
  g_autoptr(JsonNode) root = read_json (self, path);
  g_autofree char *dir = path_dirname (path);
  JsonObject *object;
  const char *name;
  const char *entry;
  Mapping *mapping;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;

  object = json_node_get_object (root);
  name = lode_json_get_string (object, "name");
  if (name == NULL || name[0] == '\0')
    return;

  entry = lode_json_get_string (object, "module");
  if (entry == NULL)
    entry = lode_json_get_string (object, "main");

  mapping = g_new0 (Mapping, 1);
  mapping->prefix = g_strdup (name);
  mapping->dir = g_strdup (dir);
  mapping->entry = g_strdup (entry);
  g_ptr_array_add (self->js_packages, mapping);
}

/* The project path of the include directory @dir given in @directory (absolute), or NULL
 * when it is outside the project. */
static char *
project_include_dir (LodeImportResolver *self,
                     const char         *directory,
                     const char         *dir)
{
  g_autofree char *absolute = NULL;
  gsize root_len = strlen (self->root);

  absolute = g_path_is_absolute (dir) ? g_canonicalize_filename (dir, NULL)
                                      : g_canonicalize_filename (dir, directory);

  if (strcmp (absolute, self->root) == 0)
    return g_strdup ("");
  if (g_str_has_prefix (absolute, self->root) && absolute[root_len] == '/')
    return g_strdup (absolute + root_len + 1);
  return NULL;
}

static void
add_include_dir (LodeImportResolver *self,
                 const char         *directory,
                 const char         *dir)
{
  g_autofree char *relative = project_include_dir (self, directory, dir);

  if (relative == NULL)
    return;

  for (guint i = 0; i < self->include_dirs->len; i++)
    if (strcmp (self->include_dirs->pdata[i], relative) == 0)
      return;
  g_ptr_array_add (self->include_dirs, g_steal_pointer (&relative));
}

/* -I, -iquote and -isystem directories of every compile command. */
static void
read_compile_commands (LodeImportResolver *self,
                       const char         *path)
{
  g_autoptr(JsonNode) root = read_json (self, path);
  g_autofree char *config_dir = path_dirname (path);
  g_autofree char *default_directory = g_build_filename (self->root, config_dir, NULL);
  g_autofree char *relative_directory = NULL;
  JsonArray *commands;

  if (root == NULL || !JSON_NODE_HOLDS_ARRAY (root))
    return;

  commands = json_node_get_array (root);
  for (guint i = 0; i < json_array_get_length (commands); i++)
    {
      JsonNode *node = json_array_get_element (commands, i);
      JsonObject *command;
      const char *directory;
      const char *line;
      g_auto(GStrv) argv = NULL;
      JsonNode *arguments;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      command = json_node_get_object (node);
      directory = lode_json_get_string (command, "directory");
      g_clear_pointer (&relative_directory, g_free);
      if (directory == NULL)
        directory = default_directory;
      else if (!g_path_is_absolute (directory))
        {
          /* Relative to the file, as a tree checked in elsewhere would have it. */
          relative_directory = g_canonicalize_filename (directory, default_directory);
          directory = relative_directory;
        }

      arguments = json_object_get_member (command, "arguments");
      line = lode_json_get_string (command, "command");
      if (arguments != NULL && JSON_NODE_HOLDS_ARRAY (arguments))
        {
          JsonArray *array = json_node_get_array (arguments);
          g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

          for (guint j = 0; j < json_array_get_length (array); j++)
            {
              JsonNode *arg = json_array_get_element (array, j);

              if (JSON_NODE_HOLDS_VALUE (arg) && json_node_get_value_type (arg) == G_TYPE_STRING)
                g_strv_builder_add (builder, json_node_get_string (arg));
            }
          argv = g_strv_builder_end (builder);
        }
      else if (line == NULL || !g_shell_parse_argv (line, NULL, &argv, NULL))
        continue;

      for (guint j = 0; argv[j] != NULL; j++)
        {
          static const char * const flags[] = { "-I", "-iquote", "-isystem" };

          for (guint f = 0; f < G_N_ELEMENTS (flags); f++)
            if (g_str_has_prefix (argv[j], flags[f]))
              {
                const char *dir = argv[j] + strlen (flags[f]);

                if (dir[0] == '\0')
                  dir = argv[j + 1];
                if (dir != NULL && dir[0] != '\0')
                  add_include_dir (self, directory, dir);
                break;
              }
        }
    }
}

/* -I, -iquote and -isystem directories of a Makefile, for the files of its directory and
 * below (resolve_c()). compile_commands.json lists the flags of every file it compiles, so
 * its directories are global; a Makefile's flags are those of the sources it builds, and a
 * tree of several programs (zstd's contrib/) has one per program, each with its own. */
static void
read_makefile (LodeImportResolver *self,
               const char         *path)
{
  g_autofree char *text = NULL;
  g_autofree char *dir = path_dirname (path);
  g_autofree char *directory = g_build_filename (self->root, dir, NULL);
  g_auto(GStrv) dirs = NULL;
  GPtrArray *known;
  gsize len = 0;

  text = _lode_import_read_project_file (self, path, CONFIG_MAX_BYTES, &len);
  if (text == NULL)
    return;

  dirs = _lode_import_parse_makefile_include_dirs (text, len);
  known = g_hash_table_lookup (self->make_include_dirs, dir);
  for (guint i = 0; dirs[i] != NULL; i++)
    {
      g_autofree char *relative = project_include_dir (self, directory, dirs[i]);

      if (relative == NULL)
        continue;
      if (known == NULL)
        {
          known = g_ptr_array_new_with_free_func (g_free);
          g_hash_table_insert (self->make_include_dirs, g_strdup (dir), known);
        }
      /* Another Makefile of the same directory (a config.mk beside it) may repeat one. */
      if (!g_ptr_array_find_with_equal_func (known, relative, g_str_equal, NULL))
        g_ptr_array_add (known, g_steal_pointer (&relative));
    }
}

/* The value of a `key = "value"` or `key: value` line of a TOML section or YAML top level. */
static char *
read_config_value (const char *text,
                   const char *section,
                   const char *key,
                   gboolean    top_level_only)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  gboolean in_section = section == NULL;
  gsize key_len = strlen (key);

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = lines[i];
      char *value;

      if (line[0] == '[')
        {
          in_section = section != NULL && g_str_has_prefix (line, section);
          continue;
        }
      if (top_level_only && g_ascii_isspace (line[0]))
        continue;
      line = g_strstrip (line);
      if (!in_section || !g_str_has_prefix (line, key))
        continue;

      value = line + key_len;
      while (*value == ' ' || *value == '\t')
        value++;
      if (*value != '=' && *value != ':')
        continue;
      value = g_strstrip (value + 1);
      if (*value == '"' || *value == '\'')
        {
          char *close = strchr (value + 1, *value);

          if (close == NULL)
            continue;
          return g_strndup (value + 1, close - value - 1);
        }
      value[strcspn (value, " \t#")] = '\0';
      if (*value != '\0')
        return g_strdup (value);
    }

  return NULL;
}

static void
read_go_mod (LodeImportResolver *self,
             const char         *path)
{
  g_autofree char *text = _lode_import_read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
  g_autofree char *dir = path_dirname (path);
  g_auto(GStrv) lines = NULL;

  if (text == NULL)
    return;

  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);

      if (g_str_has_prefix (line, "module ") || g_str_has_prefix (line, "module\t"))
        {
          char *module = g_strstrip (line + strlen ("module"));

          if (*module == '"')
            {
              module++;
              module[strcspn (module, "\"")] = '\0';
            }
          module[strcspn (module, " \t")] = '\0';
          if (*module != '\0')
            add_mapping (self->go_modules, module, dir);
          return;
        }
    }
}

static void
read_cargo_toml (LodeImportResolver *self,
                 const char         *path)
{
  g_autofree char *text = _lode_import_read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
  g_autofree char *dir = path_dirname (path);
  g_autofree char *name = NULL;
  g_autofree char *src = NULL;

  if (text == NULL)
    return;

  name = read_config_value (text, "[package]", "name", FALSE);
  if (name == NULL)
    return;

  /* Crates are named with '_' in paths, '-' is allowed in the manifest. */
  g_strdelimit (name, "-", '_');
  src = _lode_import_path_join (dir, "src");
  add_mapping (self->crates, name, src);
}

static void
read_psr4 (LodeImportResolver *self,
           const char         *dir,
           JsonObject         *autoload)
{
  JsonObject *psr4 = lode_json_get_object (autoload, "psr-4");
  g_autoptr(GList) members = NULL;

  if (psr4 == NULL)
    return;

  members = json_object_get_members (psr4);
  for (GList *l = members; l != NULL; l = l->next)
    {
      JsonNode *node = json_object_get_member (psr4, l->data);
      g_autofree char *prefix = g_strdelimit (g_strdup (l->data), "\\", '.');
      guint n = JSON_NODE_HOLDS_ARRAY (node) ? json_array_get_length (json_node_get_array (node))
                                             : 1;

      g_strchomp (prefix);
      while (g_str_has_suffix (prefix, "."))
        prefix[strlen (prefix) - 1] = '\0';

      for (guint i = 0; i < n; i++)
        {
          JsonNode *element = JSON_NODE_HOLDS_ARRAY (node)
                                ? json_array_get_element (json_node_get_array (node), i)
                                : node;
          g_autofree char *target = NULL;

          if (!JSON_NODE_HOLDS_VALUE (element) ||
              json_node_get_value_type (element) != G_TYPE_STRING)
            continue;
          target = _lode_import_path_join (dir, json_node_get_string (element));
          if (target != NULL)
            add_mapping (self->psr4, prefix, target);
        }
    }
}

static void
read_composer_json (LodeImportResolver *self,
                    const char         *path)
{
  g_autoptr(JsonNode) root = read_json (self, path);
  g_autofree char *dir = path_dirname (path);
  JsonObject *object;

  if (root == NULL || !JSON_NODE_HOLDS_OBJECT (root))
    return;

  object = json_node_get_object (root);
  read_psr4 (self, dir, lode_json_get_object (object, "autoload"));
  read_psr4 (self, dir, lode_json_get_object (object, "autoload-dev"));
}

static void
read_pubspec (LodeImportResolver *self,
              const char         *path)
{
  g_autofree char *text = _lode_import_read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
  g_autofree char *dir = path_dirname (path);
  g_autofree char *name = NULL;
  g_autofree char *lib = NULL;

  if (text == NULL)
    return;

  name = read_config_value (text, NULL, "name", TRUE);
  if (name == NULL)
    return;

  lib = _lode_import_path_join (dir, "lib");
  add_mapping (self->dart_packages, name, lib);
}

/* Targets of a Package.swift: `.target(name: "X", path: "p")`, also executable, test and
 * macro targets. Without a path a target lives in Sources/X (tests in Tests/X). */
static void
read_package_swift (LodeImportResolver *self,
                    const char         *path)
{
  g_autofree char *text = _lode_import_read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
  g_autofree char *dir = path_dirname (path);
  g_autoptr(GRegex) target_regex = NULL;
  g_autoptr(GRegex) path_regex = NULL;
  g_autoptr(GMatchInfo) match = NULL;

  if (text == NULL)
    return;

  target_regex = g_regex_new ("\\.(target|executableTarget|testTarget|macro)\\s*\\(\\s*"
                              "name\\s*:\\s*\"([^\"]+)\"([^)]*)", 0, 0, NULL);
  path_regex = g_regex_new ("\\bpath\\s*:\\s*\"([^\"]+)\"", 0, 0, NULL);

  g_regex_match (target_regex, text, 0, &match);
  while (g_match_info_matches (match))
    {
      g_autofree char *kind = g_match_info_fetch (match, 1);
      g_autofree char *name = g_match_info_fetch (match, 2);
      g_autofree char *rest = g_match_info_fetch (match, 3);
      g_autoptr(GMatchInfo) path_match = NULL;
      g_autofree char *target_dir = NULL;

      if (g_regex_match (path_regex, rest, 0, &path_match))
        {
          g_autofree char *custom = g_match_info_fetch (path_match, 1);

          target_dir = _lode_import_path_join (dir, custom);
        }
      else
        {
          g_autofree char *rel = g_strconcat (strcmp (kind, "testTarget") == 0 ? "Tests/"
                                                                                : "Sources/",
                                              name, NULL);

          target_dir = _lode_import_path_join (dir, rel);
        }

      if (target_dir != NULL)
        add_mapping (self->swift_targets, name, target_dir);
      g_match_info_next (match, NULL);
    }
}

void
_lode_import_load_configs (LodeImportResolver *self)
{
  g_autoptr(GPtrArray) makefiles = g_ptr_array_new ();
  GHashTableIter iter;
  gpointer key;

  g_ptr_array_set_size (self->tsconfigs, 0);
  g_ptr_array_set_size (self->js_packages, 0);
  g_ptr_array_set_size (self->include_dirs, 0);
  g_hash_table_remove_all (self->make_include_dirs);
  g_ptr_array_set_size (self->go_modules, 0);
  g_ptr_array_set_size (self->crates, 0);
  g_ptr_array_set_size (self->psr4, 0);
  g_ptr_array_set_size (self->dart_packages, 0);
  g_ptr_array_set_size (self->swift_targets, 0);

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *path = key;
      const char *base = path_basename (path);

      if (strcmp (base, "tsconfig.json") == 0 || strcmp (base, "jsconfig.json") == 0)
        {
          TsConfig *config = g_new0 (TsConfig, 1);

          config->dir = path_dirname (path);
          config->patterns = g_ptr_array_new_with_free_func ((GDestroyNotify) path_pattern_free);
          read_ts_config (self, path, config, 0);
          g_ptr_array_add (self->tsconfigs, config);
        }
      else if (strcmp (base, "package.json") == 0)
        read_package_json (self, path);
      else if (strcmp (base, "compile_commands.json") == 0)
        read_compile_commands (self, path);
      else if (strcmp (base, "go.mod") == 0)
        read_go_mod (self, path);
      else if (strcmp (base, "Cargo.toml") == 0)
        read_cargo_toml (self, path);
      else if (strcmp (base, "composer.json") == 0)
        read_composer_json (self, path);
      else if (strcmp (base, "pubspec.yaml") == 0)
        read_pubspec (self, path);
      else if (strcmp (base, "Package.swift") == 0)
        read_package_swift (self, path);
      else if (_lode_import_is_makefile (path))
        g_ptr_array_add (makefiles, (gpointer) path);
    }

  /* The nearest tsconfig governs a file: deepest directories first. */
  g_ptr_array_sort (self->tsconfigs, ts_config_cmp_depth);

  /* By path, so that the Makefiles of one directory add their flags in an order that does
   * not depend on the hash table's. */
  g_ptr_array_sort (makefiles, compare_strings);
  for (guint i = 0; i < makefiles->len; i++)
    read_makefile (self, makefiles->pdata[i]);
}

/* A configuration file _lode_import_load_configs() reads. */
gboolean
_lode_import_is_read_config (const char *path)
{
  static const char * const names[] = {
    "jsconfig.json", "package.json", "compile_commands.json", "go.mod", "Cargo.toml",
    "composer.json", "pubspec.yaml", "Package.swift",
  };
  const char *base = path_basename (path);

  if ((g_str_has_prefix (base, "tsconfig") && g_str_has_suffix (base, ".json")) ||
      _lode_import_is_makefile (path))
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (base, names[i]) == 0)
      return TRUE;

  return FALSE;
}
