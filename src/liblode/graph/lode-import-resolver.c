/* lode-import-resolver.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-import-resolver"

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "lode-import-resolver.h"
#include "lode-import-resolver-private.h"
#include "lode-json.h"
#include "lode-language.h"

/* Resolves the imports found by lode-imports.c to files of a project, from the set of project
 * paths (relative, '/'-separated) and the project's configuration files, read from disk under
 * the root: tsconfig/jsconfig `paths` and `baseUrl` (following `extends`), package.json
 * workspace names, compile_commands.json include directories, go.mod module paths, Cargo
 * crate names, composer.json PSR-4 prefixes, pubspec.yaml package names and Package.swift
 * targets. Java, Kotlin, Scala, C# and PHP files are looked at too: the package or namespace
 * they declare (in their first 64 KiB) maps names to files, which also finds the source roots
 * of multi-module builds. An import that names no project file resolves to an external
 * package, never to nothing.
 *
 * Incremental maintenance rests on keys. Every project file has a few keys (its lower-cased
 * path components cut at the first dot, its declared package's last component, "/" at the
 * root), and every import one key that each file it could ever resolve to has; so when a file
 * appears or disappears, only the imports whose key is among the file's keys can resolve
 * differently.
 *
 * Not thread-safe: a resolver is changed and asked from one thread at a time. */

#define CONFIG_MAX_BYTES       (1024 * 1024)
#define DECLARATION_HEAD_BYTES (64 * 1024)
#define MAX_EXTENDS_DEPTH      8

typedef struct
{
  char  *dir;                     /* directory of the tsconfig, "" for the root */
  char  *base_url;                /* project path, or NULL */
  GPtrArray *patterns;            /* PathPattern */
} TsConfig;

typedef struct
{
  char  *pattern;                 /* "@app/<star>" or "utils", with at most one '*' */
  GStrv  targets;                 /* project paths, with at most one '*' */
} PathPattern;

typedef struct
{
  char *prefix;                   /* module path, crate name, namespace prefix, package name */
  char *dir;                      /* project directory it maps to */
  char *entry;                    /* package.json `main`, relative to @dir, or NULL */
} Mapping;

struct _LodeImportResolver
{
  GObject     parent_instance;

  char       *root;
  GHashTable *files;              /* path → the same string (a set whose strings the others
                                   * borrow) */
  GHashTable *dirs;               /* directory → GPtrArray of paths directly in it, borrowed */
  GHashTable *trees;              /* directory → number of files below it, any depth */
  GHashTable *basenames;          /* base name → GPtrArray of paths, borrowed */
  GHashTable *declared;           /* path → GStrv of packages/namespaces it declares */
  GHashTable *packages;           /* package/namespace → GPtrArray of paths, borrowed */

  GPtrArray  *tsconfigs;          /* TsConfig, deepest directory first */
  GPtrArray  *js_packages;        /* Mapping: package.json name → directory */
  GPtrArray  *include_dirs;       /* project directories from compile_commands.json */
  GPtrArray  *go_modules;         /* Mapping: module path → directory */
  GPtrArray  *crates;             /* Mapping: crate name → src directory */
  GPtrArray  *psr4;               /* Mapping: namespace prefix (with '\') → directory */
  GPtrArray  *dart_packages;      /* Mapping: pubspec name → lib directory */
  GPtrArray  *swift_targets;      /* Mapping: target name → directory */

  /* Derived from the files, rebuilt when asked for after a file came or went. */
  GPtrArray  *python_roots;       /* directories holding top-level Python packages */
  GPtrArray  *lib_dirs;           /* directories named lib (Ruby load path) */
  GHashTable *swift_modules;      /* module → GPtrArray of its .swift files, borrowed */
  guint       derived_valid : 1;
};

G_DEFINE_FINAL_TYPE (LodeImportResolver, lode_import_resolver, G_TYPE_OBJECT)

static void
ts_config_free (TsConfig *config)
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

static void
mapping_free (Mapping *mapping)
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

/* Path helpers. Project paths are relative, '/'-separated, without "." or ".." parts; the
 * root directory is "". */

static char *
path_dirname (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? g_strndup (path, slash - path) : g_strdup ("");
}

static const char *
path_basename (const char *path)
{
  const char *slash = strrchr (path, '/');

  return slash != NULL ? slash + 1 : path;
}

/* @rel joined to @dir, with "." and ".." folded; NULL if it leaves the project. A leading
 * '/' in @rel starts from the root. */
static char *
path_join (const char *dir,
           const char *rel)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_auto(GStrv) dir_parts = NULL;
  g_auto(GStrv) rel_parts = NULL;
  GString *out;

  if (rel[0] != '/' && dir != NULL && dir[0] != '\0')
    {
      dir_parts = g_strsplit (dir, "/", -1);
      for (guint i = 0; dir_parts[i] != NULL; i++)
        if (dir_parts[i][0] != '\0')
          g_ptr_array_add (parts, g_strdup (dir_parts[i]));
    }

  rel_parts = g_strsplit (rel, "/", -1);
  for (guint i = 0; rel_parts[i] != NULL; i++)
    {
      if (rel_parts[i][0] == '\0' || strcmp (rel_parts[i], ".") == 0)
        continue;
      if (strcmp (rel_parts[i], "..") == 0)
        {
          if (parts->len == 0)
            return NULL;
          g_ptr_array_remove_index (parts, parts->len - 1);
          continue;
        }
      g_ptr_array_add (parts, g_strdup (rel_parts[i]));
    }

  out = g_string_new (NULL);
  for (guint i = 0; i < parts->len; i++)
    {
      if (i > 0)
        g_string_append_c (out, '/');
      g_string_append (out, parts->pdata[i]);
    }

  return g_string_free (out, FALSE);
}

static gboolean
has_file (LodeImportResolver *self,
          const char         *path)
{
  return path != NULL && g_hash_table_contains (self->files, path);
}

static GPtrArray *
dir_files (LodeImportResolver *self,
           const char         *dir)
{
  return dir != NULL ? g_hash_table_lookup (self->dirs, dir) : NULL;
}

/* Keys: lower-cased, leading underscores dropped (SCSS partials), cut at the first dot. */
static char *
key_for_component (const char *component,
                   gsize       len)
{
  const char *start = component;
  const char *end = component + len;
  const char *dot;

  while (start < end && *start == '_')
    start++;
  if (start == end)
    start = component;

  dot = memchr (start, '.', end - start);
  if (dot != NULL && dot > start)
    end = dot;

  return g_ascii_strdown (start, end - start);
}

static char *
key_for_last_component (const char *path)
{
  const char *end = path + strlen (path);
  const char *start;

  while (end > path && end[-1] == '/')
    end--;
  start = end;
  while (start > path && start[-1] != '/')
    start--;

  if (start == end)
    return g_strdup ("/");

  return key_for_component (start, end - start);
}

static void
multimap_add (GHashTable *map,
              const char *key,
              const char *path)
{
  GPtrArray *paths = g_hash_table_lookup (map, key);

  if (paths == NULL)
    {
      paths = g_ptr_array_new ();
      g_hash_table_insert (map, g_strdup (key), paths);
    }
  g_ptr_array_add (paths, (gpointer) path);
}

static void
multimap_remove (GHashTable *map,
                 const char *key,
                 const char *path)
{
  GPtrArray *paths = g_hash_table_lookup (map, key);

  if (paths == NULL)
    return;
  g_ptr_array_remove (paths, (gpointer) path);
  if (paths->len == 0)
    g_hash_table_remove (map, key);
}

/* Reads a project file; NULL when it is missing, unreadable or larger than @max. */
static char *
read_project_file (LodeImportResolver *self,
                   const char         *path,
                   gsize               max,
                   gsize              *len)
{
  g_autofree char *full = g_build_filename (self->root, path, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (full);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *buf = g_malloc (max + 1);
  gsize n = 0;

  stream = g_file_read (file, NULL, &error);
  if (stream == NULL ||
      !g_input_stream_read_all (G_INPUT_STREAM (stream), buf, max, &n, NULL, &error))
    {
      g_debug ("Cannot read %s: %s", path, error->message);
      return NULL;
    }

  buf[n] = '\0';
  if (len != NULL)
    *len = n;
  return g_steal_pointer (&buf);
}

/* Declarations: the package or namespace a JVM, C# or PHP file declares. */

static gboolean
is_jvm_path (const char *path)
{
  return g_str_has_suffix (path, ".java") || g_str_has_suffix (path, ".kt") ||
         g_str_has_suffix (path, ".kts") || g_str_has_suffix (path, ".scala");
}

static gboolean
declares_packages (const char *path)
{
  return is_jvm_path (path) || g_str_has_suffix (path, ".cs") || g_str_has_suffix (path, ".php");
}

/* Past blanks and comments (C-style, which all these languages share). */
static const char *
skip_blanks (const char *p,
             const char *end)
{
  for (;;)
    {
      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p + 1 < end && p[0] == '/' && p[1] == '/')
        {
          const char *eol = memchr (p, '\n', end - p);

          p = eol != NULL ? eol : end;
        }
      else if (p + 1 < end && p[0] == '/' && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, end - p - 2, "*/");

          p = close != NULL ? close + 2 : end;
        }
      else if (p < end && *p == '#' && p + 1 < end && p[1] != '[')
        {
          /* PHP `#` comments and `#!` lines; `#[…]` is a PHP attribute. */
          const char *eol = memchr (p, '\n', end - p);

          p = eol != NULL ? eol : end;
        }
      else
        return p;
    }
}

static gboolean
word_at (const char *p,
         const char *end,
         const char *word)
{
  gsize n = strlen (word);

  return (gsize) (end - p) > n && memcmp (p, word, n) == 0 &&
         !g_ascii_isalnum (p[n]) && p[n] != '_';
}

/* A dotted (or, for PHP, backslashed) name at @p. */
static char *
read_qualified_name (const char **pp,
                     const char  *end)
{
  const char *p = skip_blanks (*pp, end);
  GString *name = g_string_new (NULL);

  while (p < end && (g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '\\' || *p == '`'))
    {
      if (*p != '`')
        g_string_append_c (name, *p == '\\' ? '.' : *p);
      p++;
    }

  *pp = p;
  if (name->len == 0 || name->str[0] == '.')
    {
      g_string_free (name, TRUE);
      return NULL;
    }
  return g_string_free (name, FALSE);
}

/* Past a string literal opening at @p: C#'s verbatim `@"…"` (where `""` is a quote and a
 * backslash is only a backslash) and raw `"""…"""`, or a quoted string that ends at its
 * quote or at the end of the line. Never returns @p itself. */
static const char *
skip_string (const char *p,
             const char *end,
             gboolean    verbatim)
{
  char quote = *p;

  g_assert (p < end);
  if (quote == '"' && end - p >= 3 && p[1] == '"' && p[2] == '"')
    {
      const char *close = g_strstr_len (p + 3, end - p - 3, "\"\"\"");

      return close != NULL ? close + 3 : end;
    }

  for (p++; p < end; p++)
    {
      if (*p == quote)
        {
          if (verbatim && p + 1 < end && p[1] == quote)
            {
              p++;
              continue;
            }
          return p + 1;
        }
      if (!verbatim && *p == '\n')
        return p + 1;
      if (!verbatim && *p == '\\' && p + 1 < end)
        p++;
    }
  return end;
}

/* Scans the head of a file for `package a.b` (Java, Kotlin; Scala's chained clauses are
 * joined) or `namespace A.B` (C#, with nesting; PHP, with '\' turned into '.').
 *
 * Every pass of the loop consumes at least one byte (`p = MAX (p, start + 1)`), whatever the
 * text holds: regular expressions, attributes, operators and broken literals are stepped over,
 * never stopped at. */
GStrv
_lode_import_parse_declarations (const char *path,
                                 const char *text,
                                 gsize       len)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) depths = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *jvm_package = NULL;
  gboolean jvm = is_jvm_path (path);
  const char *end = text + len;
  const char *p = text;
  guint depth = 0;

  while ((p = skip_blanks (p, end)) < end)
    {
      const char *start = p;

      if (*p == '"' || *p == '\'')
        {
          p = skip_string (p, end, FALSE);
        }
      else if (*p == '@' && p + 1 < end && p[1] == '"')
        {
          p = skip_string (p + 1, end, TRUE);
        }
      else if (*p == '{')
        {
          depth++;
          p++;
        }
      else if (*p == '}')
        {
          if (depth > 0)
            depth--;
          while (depths->len > 0 && g_array_index (depths, guint, depths->len - 1) >= depth + 1)
            {
              g_array_set_size (depths, depths->len - 1);
              g_ptr_array_remove_index (stack, stack->len - 1);
            }
          p++;
        }
      else if (jvm && word_at (p, end, "package"))
        {
          g_autofree char *name = NULL;

          p += strlen ("package");
          if (word_at (skip_blanks (p, end), end, "object"))
            p = skip_blanks (p, end) + strlen ("object");
          name = read_qualified_name (&p, end);
          if (name != NULL)
            {
              char *joined = jvm_package != NULL ? g_strconcat (jvm_package, ".", name, NULL)
                                                 : g_strdup (name);

              g_free (jvm_package);
              jvm_package = joined;
            }
        }
      else if (!jvm && word_at (p, end, "namespace"))
        {
          g_autofree char *name = NULL;
          g_autofree char *full = NULL;

          p += strlen ("namespace");
          name = read_qualified_name (&p, end);
          if (name != NULL)
            {
              full = stack->len > 0
                       ? g_strconcat (stack->pdata[stack->len - 1], ".", name, NULL)
                       : g_strdup (name);
              g_strv_builder_add (builder, full);

              p = skip_blanks (p, end);
              if (p < end && *p == '{')
                {
                  guint inner = depth + 1;

                  g_ptr_array_add (stack, g_steal_pointer (&full));
                  g_array_append_val (depths, inner);
                }
            }
        }
      else if (jvm && jvm_package != NULL && (g_ascii_isalpha (*p) || *p == '@') &&
               !word_at (p, end, "import"))
        {
          /* The first declaration after the package clauses: no more packages. */
          break;
        }
      else
        {
          while (p < end && (g_ascii_isalnum (*p) || *p == '_' || *p == '@' || *p == '.'))
            p++;
        }

      p = MAX (p, start + 1);
    }

  if (jvm_package != NULL)
    g_strv_builder_add (builder, jvm_package);

  return g_strv_builder_end (builder);
}

/* @path must be the string owned by `files`: the multimaps borrow it. */
static void
index_declarations (LodeImportResolver *self,
                    const char         *path)
{
  g_autofree char *head = NULL;
  GStrv declared;
  gsize len = 0;

  head = read_project_file (self, path, DECLARATION_HEAD_BYTES, &len);
  if (head == NULL)
    return;

  declared = _lode_import_parse_declarations (path, head, len);
  if (declared[0] == NULL)
    {
      g_strfreev (declared);
      return;
    }

  for (guint i = 0; declared[i] != NULL; i++)
    multimap_add (self->packages, declared[i], path);
  g_hash_table_insert (self->declared, g_strdup (path), declared);
}

static void
count_tree (LodeImportResolver *self,
            const char         *path,
            gint                delta)
{
  g_autofree char *dir = path_dirname (path);

  for (;;)
    {
      gpointer count = g_hash_table_lookup (self->trees, dir);
      gint n = GPOINTER_TO_INT (count) + delta;
      char *slash;

      if (n > 0)
        g_hash_table_insert (self->trees, g_strdup (dir), GINT_TO_POINTER (n));
      else
        g_hash_table_remove (self->trees, dir);

      if (dir[0] == '\0')
        break;
      slash = strrchr (dir, '/');
      if (slash != NULL)
        *slash = '\0';
      else
        dir[0] = '\0';
    }
}

static gboolean
index_file (LodeImportResolver *self,
            const char         *path)
{
  g_autofree char *dir = NULL;
  char *stored;

  if (g_hash_table_contains (self->files, path))
    return FALSE;

  stored = g_strdup (path);
  g_hash_table_add (self->files, stored);
  dir = path_dirname (stored);
  multimap_add (self->dirs, dir, stored);
  multimap_add (self->basenames, path_basename (stored), stored);
  count_tree (self, stored, 1);

  if (declares_packages (stored))
    index_declarations (self, stored);

  return TRUE;
}

static gboolean
unindex_file (LodeImportResolver *self,
              const char         *path)
{
  g_autofree char *dir = NULL;
  const char *stored = g_hash_table_lookup (self->files, path);
  GStrv declared;

  if (stored == NULL)
    return FALSE;

  declared = g_hash_table_lookup (self->declared, stored);
  for (guint i = 0; declared != NULL && declared[i] != NULL; i++)
    multimap_remove (self->packages, declared[i], stored);
  g_hash_table_remove (self->declared, stored);

  dir = path_dirname (stored);
  multimap_remove (self->dirs, dir, stored);
  multimap_remove (self->basenames, path_basename (stored), stored);
  count_tree (self, stored, -1);
  g_hash_table_remove (self->files, stored);

  return TRUE;
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

  text = read_project_file (self, path, CONFIG_MAX_BYTES, &len);
  if (text == NULL)
    return NULL;

  plain = strip_jsonc (text, len);
  root = lode_json_parse (plain, -1, &error);
  if (root == NULL)
    g_debug ("Ignoring %s: %s", path, error->message);

  return root;
}

static const char *
object_get_string (JsonObject *object,
                   const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;

  return json_node_get_string (node);
}

static JsonObject *
object_get_object (JsonObject *object,
                   const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
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

  options = object_get_object (json_node_get_object (root), "compilerOptions");
  base_url = object_get_string (options, "baseUrl");
  paths = object_get_object (options, "paths");

  if (config->base_url == NULL && base_url != NULL)
    config->base_url = path_join (dir, base_url);

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
              target = path_join (target_base, json_node_get_string (element));
              if (target != NULL)
                g_strv_builder_add (targets, target);
            }

          pattern = g_new0 (PathPattern, 1);
          pattern->pattern = g_strdup (l->data);
          pattern->targets = g_strv_builder_end (targets);
          g_ptr_array_add (config->patterns, pattern);
        }
    }

  extends = object_get_string (json_node_get_object (root), "extends");
  if (extends != NULL && (extends[0] == '.' || extends[0] == '/'))
    {
      g_autofree char *next = path_join (dir, extends);

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
  name = object_get_string (object, "name");
  if (name == NULL || name[0] == '\0')
    return;

  entry = object_get_string (object, "module");
  if (entry == NULL)
    entry = object_get_string (object, "main");

  mapping = g_new0 (Mapping, 1);
  mapping->prefix = g_strdup (name);
  mapping->dir = g_strdup (dir);
  mapping->entry = g_strdup (entry);
  g_ptr_array_add (self->js_packages, mapping);
}

static void
add_include_dir (LodeImportResolver *self,
                 const char         *directory,
                 const char         *dir)
{
  g_autofree char *absolute = NULL;
  g_autofree char *relative = NULL;
  gsize root_len = strlen (self->root);

  absolute = g_path_is_absolute (dir) ? g_canonicalize_filename (dir, NULL)
                                      : g_canonicalize_filename (dir, directory);

  if (strcmp (absolute, self->root) == 0)
    relative = g_strdup ("");
  else if (g_str_has_prefix (absolute, self->root) && absolute[root_len] == '/')
    relative = g_strdup (absolute + root_len + 1);
  else
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
      directory = object_get_string (command, "directory");
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
      line = object_get_string (command, "command");
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
  g_autofree char *text = read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
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
  g_autofree char *text = read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
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
  src = path_join (dir, "src");
  add_mapping (self->crates, name, src);
}

static void
read_psr4 (LodeImportResolver *self,
           const char         *dir,
           JsonObject         *autoload)
{
  JsonObject *psr4 = object_get_object (autoload, "psr-4");
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
          target = path_join (dir, json_node_get_string (element));
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
  read_psr4 (self, dir, object_get_object (object, "autoload"));
  read_psr4 (self, dir, object_get_object (object, "autoload-dev"));
}

static void
read_pubspec (LodeImportResolver *self,
              const char         *path)
{
  g_autofree char *text = read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
  g_autofree char *dir = path_dirname (path);
  g_autofree char *name = NULL;
  g_autofree char *lib = NULL;

  if (text == NULL)
    return;

  name = read_config_value (text, NULL, "name", TRUE);
  if (name == NULL)
    return;

  lib = path_join (dir, "lib");
  add_mapping (self->dart_packages, name, lib);
}

/* Targets of a Package.swift: `.target(name: "X", path: "p")`, also executable, test and
 * macro targets. Without a path a target lives in Sources/X (tests in Tests/X). */
static void
read_package_swift (LodeImportResolver *self,
                    const char         *path)
{
  g_autofree char *text = read_project_file (self, path, CONFIG_MAX_BYTES, NULL);
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

          target_dir = path_join (dir, custom);
        }
      else
        {
          g_autofree char *rel = g_strconcat (strcmp (kind, "testTarget") == 0 ? "Tests/"
                                                                                : "Sources/",
                                              name, NULL);

          target_dir = path_join (dir, rel);
        }

      if (target_dir != NULL)
        add_mapping (self->swift_targets, name, target_dir);
      g_match_info_next (match, NULL);
    }
}

static void
load_configs (LodeImportResolver *self)
{
  GHashTableIter iter;
  gpointer key;

  g_ptr_array_set_size (self->tsconfigs, 0);
  g_ptr_array_set_size (self->js_packages, 0);
  g_ptr_array_set_size (self->include_dirs, 0);
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
    }

  /* The nearest tsconfig governs a file: deepest directories first. */
  g_ptr_array_sort (self->tsconfigs, ts_config_cmp_depth);
}

/* A configuration file load_configs() reads. */
static gboolean
is_read_config (const char *path)
{
  static const char * const names[] = {
    "jsconfig.json", "package.json", "compile_commands.json", "go.mod", "Cargo.toml",
    "composer.json", "pubspec.yaml", "Package.swift",
  };
  const char *base = path_basename (path);

  if (g_str_has_prefix (base, "tsconfig") && g_str_has_suffix (base, ".json"))
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    if (strcmp (base, names[i]) == 0)
      return TRUE;

  return FALSE;
}

/**
 * lode_import_resolver_is_config_file:
 * @path: a project path
 *
 * Whether @path changes how imports of other files resolve, beyond being a target itself:
 * a configuration file the resolver reads (tsconfig.json, jsconfig.json and the files they
 * extend, package.json, compile_commands.json, go.mod, Cargo.toml, composer.json,
 * pubspec.yaml, Package.swift), a Python `__init__.py` (it decides where top-level packages
 * start) or a Rust crate root (lib.rs, main.rs). When one is added, removed or changed, any
 * import may resolve differently: resolve all of them again. Such files are rare and rarely
 * change.
 *
 * Returns: %TRUE for such a file
 */
gboolean
lode_import_resolver_is_config_file (const char *path)
{
  static const char * const structural[] = { "__init__.py", "lib.rs", "main.rs" };
  const char *base;

  g_return_val_if_fail (path != NULL, FALSE);

  base = path_basename (path);
  for (guint i = 0; i < G_N_ELEMENTS (structural); i++)
    if (strcmp (base, structural[i]) == 0)
      return TRUE;

  return is_read_config (path);
}

/**
 * lode_import_resolver_reads_declarations:
 * @path: a project path
 *
 * Whether the resolver reads the package or namespace @path declares (Java, Kotlin, Scala,
 * C#, PHP). When such a file changes, imports of other files that resolved to it, or could
 * now, may resolve differently: resolve again those pointing at it and those under its keys.
 *
 * Returns: %TRUE for such a file
 */
gboolean
lode_import_resolver_reads_declarations (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);

  return declares_packages (path);
}

/* Derived indexes. */

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static void
ensure_derived (LodeImportResolver *self)
{
  GPtrArray *inits;
  GHashTableIter iter;
  gpointer key;

  if (self->derived_valid)
    return;

  /* Python: the parent of every top-level package (a directory with __init__.py whose own
   * parent has none) is a place absolute imports start from, as are the root and src/. */
  g_ptr_array_set_size (self->python_roots, 0);
  g_ptr_array_add (self->python_roots, g_strdup (""));
  g_ptr_array_add (self->python_roots, g_strdup ("src"));
  inits = g_hash_table_lookup (self->basenames, "__init__.py");
  for (guint i = 0; inits != NULL && i < inits->len; i++)
    {
      g_autofree char *package = path_dirname (inits->pdata[i]);
      g_autofree char *parent = path_dirname (package);
      g_autofree char *parent_init = path_join (parent, "__init__.py");
      gboolean known = FALSE;

      if (package[0] == '\0' || has_file (self, parent_init))
        continue;
      for (guint j = 0; j < self->python_roots->len && !known; j++)
        known = strcmp (self->python_roots->pdata[j], parent) == 0;
      if (!known)
        g_ptr_array_add (self->python_roots, g_steal_pointer (&parent));
    }

  g_ptr_array_set_size (self->lib_dirs, 0);
  g_hash_table_iter_init (&iter, self->trees);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    if (strcmp (path_basename (key), "lib") == 0)
      g_ptr_array_add (self->lib_dirs, g_strdup (key));
  g_ptr_array_sort (self->lib_dirs, compare_strings);

  /* Swift: the files of each module, for `import Module`. */
  g_hash_table_remove_all (self->swift_modules);
  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, &key, NULL))
    {
      const char *path = key;

      if (!g_str_has_suffix (path, ".swift"))
        continue;

      for (guint i = 0; i < self->swift_targets->len; i++)
        {
          Mapping *target = self->swift_targets->pdata[i];
          gsize n = strlen (target->dir);

          if (strncmp (path, target->dir, n) == 0 && (n == 0 || path[n] == '/'))
            {
              multimap_add (self->swift_modules, target->prefix, path);
              goto next;
            }
        }

      /* Without a Package.swift entry: Sources/<Module>/… */
      {
        const char *sources = strstr (path, "Sources/");

        if (sources != NULL && (sources == path || sources[-1] == '/'))
          {
            const char *name = sources + strlen ("Sources/");
            const char *slash = strchr (name, '/');

            if (slash != NULL)
              {
                g_autofree char *module = g_strndup (name, slash - name);

                multimap_add (self->swift_modules, module, path);
              }
          }
      }
    next:
      ;
    }

  self->derived_valid = TRUE;
}

/* One resolution: the targets found and, when there are none, the package; the key. */
typedef struct
{
  LodeImportResolver *self;
  const char         *from;
  char               *from_dir;
  const LodeImport   *import;
  const char         *spec;
  GPtrArray          *targets;
  char               *package;
  char               *key;
} Resolve;

static gboolean
add_target (Resolve    *r,
            const char *path)
{
  for (guint i = 0; i < r->targets->len; i++)
    if (strcmp (r->targets->pdata[i], path) == 0)
      return TRUE;

  g_ptr_array_add (r->targets, g_strdup (path));
  return TRUE;
}

static gboolean
try_file (Resolve    *r,
          const char *path)
{
  return has_file (r->self, path) && add_target (r, path);
}

static gboolean
try_suffixes (Resolve            *r,
              const char         *base,
              const char * const *suffixes)
{
  for (guint i = 0; suffixes[i] != NULL; i++)
    {
      g_autofree char *path = g_strconcat (base, suffixes[i], NULL);

      if (try_file (r, path))
        return TRUE;
    }

  return FALSE;
}

static void
set_key (Resolve    *r,
         const char *path)
{
  if (r->key == NULL && path != NULL)
    r->key = key_for_last_component (path);
}

static void
set_package (Resolve    *r,
             const char *package,
             gsize       len)
{
  if (r->package == NULL)
    r->package = g_strndup (package, len);
}

/* "https://cdn.example.com/x.js", "//cdn…" → "cdn.example.com"; data: and mailto: URLs give
 * their scheme. FALSE if @spec is no URL. */
static gboolean
url_package (Resolve    *r,
             const char *spec)
{
  const char *host = NULL;
  const char *colon = strchr (spec, ':');

  if (g_str_has_prefix (spec, "//"))
    host = spec + 2;
  else if (colon != NULL && g_str_has_prefix (colon, "://"))
    host = colon + 3;
  else if (g_str_has_prefix (spec, "data:") || g_str_has_prefix (spec, "mailto:") ||
           g_str_has_prefix (spec, "javascript:"))
    {
      set_package (r, spec, colon - spec + 1);
      set_key (r, spec);
      return TRUE;
    }
  else
    return FALSE;

  set_package (r, host, strcspn (host, "/?#"));
  set_key (r, spec);
  return TRUE;
}

/* The first '/'-separated part; the first two for "@scope/name". */
static void
set_first_components (Resolve    *r,
                      const char *spec,
                      char        separator,
                      guint       n)
{
  const char *p = spec;

  for (guint i = 0; i < n; i++)
    {
      const char *next = strchr (p, separator);

      if (next == NULL)
        {
          set_package (r, spec, strlen (spec));
          return;
        }
      p = next + 1;
    }

  set_package (r, spec, p - 1 - spec);
}

/* JavaScript, TypeScript, and the scripts of HTML, Vue and Svelte files. */

static gboolean
js_try (Resolve    *r,
        const char *base)
{
  static const char * const extensions[] = {
    ".ts", ".tsx", ".d.ts", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts", ".vue", ".svelte",
    ".json", NULL
  };
  static const char * const index_files[] = {
    "/index.ts", "/index.tsx", "/index.d.ts", "/index.js", "/index.jsx", "/index.mjs",
    "/index.cjs", "/index.vue", "/index.svelte", NULL
  };
  /* TypeScript's ECMAScript modules name the emitted file: "./x.js" for x.ts. */
  static const struct { const char *written, *source; } emitted[] = {
    { ".js", ".ts" }, { ".js", ".tsx" }, { ".jsx", ".tsx" }, { ".mjs", ".mts" },
    { ".cjs", ".cts" },
  };

  if (base == NULL)
    return FALSE;
  if (try_file (r, base))
    return TRUE;

  for (guint i = 0; i < G_N_ELEMENTS (emitted); i++)
    if (g_str_has_suffix (base, emitted[i].written))
      {
        g_autofree char *stem = g_strndup (base, strlen (base) - strlen (emitted[i].written));
        g_autofree char *path = g_strconcat (stem, emitted[i].source, NULL);

        if (try_file (r, path))
          return TRUE;
      }

  return try_suffixes (r, base, extensions) || try_suffixes (r, base, index_files);
}

static const TsConfig *
governing_ts_config (LodeImportResolver *self,
                     const char         *from)
{
  for (guint i = 0; i < self->tsconfigs->len; i++)
    {
      const TsConfig *config = self->tsconfigs->pdata[i];
      gsize n = strlen (config->dir);

      if (n == 0 || (strncmp (from, config->dir, n) == 0 && from[n] == '/'))
        return config;
    }

  return NULL;
}

/* tsconfig `paths`: an exact pattern wins, else the wildcard pattern with the longest
 * prefix; its targets are tried in order. */
static gboolean
js_try_paths (Resolve        *r,
              const TsConfig *config)
{
  const PathPattern *best = NULL;
  gsize best_prefix = 0;
  g_autofree char *star = NULL;

  for (guint i = 0; i < config->patterns->len; i++)
    {
      const PathPattern *pattern = config->patterns->pdata[i];
      const char *wildcard = strchr (pattern->pattern, '*');
      gsize prefix;

      if (wildcard == NULL)
        {
          if (strcmp (pattern->pattern, r->spec) == 0)
            {
              best = pattern;
              break;
            }
          continue;
        }

      prefix = wildcard - pattern->pattern;
      if (strncmp (r->spec, pattern->pattern, prefix) == 0 &&
          g_str_has_suffix (r->spec + prefix, wildcard + 1) &&
          strlen (r->spec) >= prefix + strlen (wildcard + 1) &&
          (best == NULL || prefix > best_prefix))
        {
          best = pattern;
          best_prefix = prefix;
        }
    }

  if (best == NULL)
    return FALSE;

  if (strchr (best->pattern, '*') != NULL)
    star = g_strndup (r->spec + best_prefix,
                      strlen (r->spec) - best_prefix - strlen (strchr (best->pattern, '*') + 1));

  for (guint i = 0; best->targets[i] != NULL; i++)
    {
      g_autofree char *target = NULL;

      if (star != NULL && strchr (best->targets[i], '*') != NULL)
        {
          g_auto(GStrv) halves = g_strsplit (best->targets[i], "*", 2);
          g_autofree char *joined = g_strconcat (halves[0], star, halves[1], NULL);

          target = path_join ("", joined);
        }
      else
        target = g_strdup (best->targets[i]);

      set_key (r, target);
      if (js_try (r, target))
        return TRUE;
    }

  return TRUE;
}

/* Workspace packages: "@acme/ui/button" in a monorepo whose packages/ui/package.json is
 * named "@acme/ui". */
static gboolean
js_try_workspace (Resolve    *r,
                  const char *name,
                  const char *subpath)
{
  for (guint i = 0; i < r->self->js_packages->len; i++)
    {
      const Mapping *package = r->self->js_packages->pdata[i];

      if (strcmp (package->prefix, name) != 0)
        continue;

      if (subpath != NULL)
        {
          g_autofree char *direct = path_join (package->dir, subpath);
          g_autofree char *src = g_build_path ("/", package->dir, "src", subpath, NULL);

          return js_try (r, direct) || js_try (r, src);
        }
      else
        {
          g_autofree char *entry = package->entry != NULL ? path_join (package->dir,
                                                                       package->entry)
                                                          : NULL;
          g_autofree char *src = g_build_path ("/", package->dir, "src", "index", NULL);
          g_autofree char *index = g_build_path ("/", package->dir, "index", NULL);

          return js_try (r, entry) || js_try (r, src) || js_try (r, index);
        }
    }

  return FALSE;
}

static void
resolve_js (Resolve *r)
{
  g_autofree char *spec = NULL;
  g_autofree char *name = NULL;
  const TsConfig *config;
  const char *bang;
  const char *subpath = NULL;

  if (url_package (r, r->spec))
    return;

  /* Loader prefixes ("style-loader!./x.css") and queries ("./x.svg?raw") are not paths. */
  bang = strrchr (r->spec, '!');
  spec = g_strdup (bang != NULL ? bang + 1 : r->spec);
  spec[strcspn (spec, "?#")] = '\0';
  if (spec[0] == '\0')
    {
      set_package (r, r->spec, strlen (r->spec));
      set_key (r, r->spec);
      return;
    }
  r->spec = spec;

  if (strcmp (spec, ".") == 0 || strcmp (spec, "..") == 0 || g_str_has_prefix (spec, "./") ||
      g_str_has_prefix (spec, "../") || spec[0] == '/')
    {
      g_autofree char *base = path_join (r->from_dir, spec);

      set_key (r, base != NULL ? base : spec);
      if (!js_try (r, base))
        set_package (r, spec, strlen (spec));
      return;
    }

  config = governing_ts_config (r->self, r->from);
  if (config != NULL && js_try_paths (r, config) && r->targets->len > 0)
    return;
  if (config != NULL && config->base_url != NULL)
    {
      g_autofree char *base = path_join (config->base_url, spec);

      if (js_try (r, base))
        {
          set_key (r, base);
          return;
        }
    }

  if (g_str_has_prefix (r->spec, "node:"))
    r->spec += strlen ("node:");

  if (r->spec[0] == '@')
    {
      const char *slash = strchr (r->spec, '/');

      subpath = slash != NULL ? strchr (slash + 1, '/') : NULL;
    }
  else
    subpath = strchr (r->spec, '/');
  name = subpath != NULL ? g_strndup (r->spec, subpath - r->spec) : g_strdup (r->spec);
  if (subpath != NULL)
    subpath++;

  set_key (r, r->spec);
  if (js_try_workspace (r, name, subpath))
    return;

  set_package (r, name, strlen (name));
}

/* Python. */

static gboolean
py_try (Resolve    *r,
        const char *base)
{
  static const char * const suffixes[] = { ".py", ".pyi", "/__init__.py", "/__init__.pyi", NULL };

  if (base == NULL)
    return FALSE;
  if (base[0] == '\0')
    return try_file (r, "__init__.py");
  return try_suffixes (r, base, suffixes);
}

static gboolean
py_try_module (Resolve    *r,
               const char *root,
               const char *module)
{
  g_autofree char *base = path_join (root, module);
  const char *name = r->import->name;

  if (base == NULL)
    return FALSE;

  /* `from a import b, c`: each name may be a submodule; a name that is not makes the
   * statement import `a` itself. */
  if (name != NULL)
    {
      g_auto(GStrv) names = g_strsplit (name, ",", -1);
      gboolean any = FALSE, all = TRUE;

      for (guint i = 0; names[i] != NULL; i++)
        {
          g_autofree char *sub = base[0] != '\0' ? g_strconcat (base, "/", names[i], NULL)
                                                 : g_strdup (names[i]);

          if (py_try (r, sub))
            any = TRUE;
          else
            all = FALSE;
        }
      if (all)
        return TRUE;
      return py_try (r, base) || any;
    }

  return py_try (r, base);
}

static void
resolve_python (Resolve *r)
{
  g_autofree char *module = NULL;
  const char *spec = r->spec;

  if (spec[0] == '.')
    {
      g_autofree char *base = g_strdup (r->from_dir);
      guint dots = strspn (spec, ".");

      for (guint i = 1; i < dots && base != NULL; i++)
        {
          char *parent = base[0] != '\0' ? path_dirname (base) : NULL;

          g_free (base);
          base = parent;
        }

      if (base == NULL)
        {
          set_package (r, spec, strlen (spec));
          set_key (r, spec + dots);
          return;
        }

      module = g_strdelimit (g_strdup (spec + dots), ".", '/');
      {
        g_autofree char *path = path_join (base, module);

        set_key (r, path);
        if (!py_try_module (r, "", path))
          set_package (r, spec, strlen (spec));
      }
      return;
    }

  module = g_strdelimit (g_strdup (spec), ".", '/');
  set_key (r, module);

  if (py_try_module (r, r->from_dir, module))
    return;

  ensure_derived (r->self);
  for (guint i = 0; i < r->self->python_roots->len; i++)
    if (py_try_module (r, r->self->python_roots->pdata[i], module))
      return;

  set_first_components (r, spec, '.', 1);
}

/* C and C++. */

/* Among the project files named like @suffix's last component, those whose path ends with
 * @suffix; the one sharing the longest directory prefix with the importing file wins. */
static gboolean
try_path_suffix (Resolve    *r,
                 const char *suffix)
{
  GPtrArray *named = g_hash_table_lookup (r->self->basenames, path_basename (suffix));
  const char *best = NULL;
  gsize best_common = 0;
  gsize suffix_len = strlen (suffix);

  for (guint i = 0; named != NULL && i < named->len; i++)
    {
      const char *path = named->pdata[i];
      gsize len = strlen (path);
      gsize common = 0;

      if (len < suffix_len || strcmp (path + len - suffix_len, suffix) != 0 ||
          (len > suffix_len && path[len - suffix_len - 1] != '/'))
        continue;

      while (path[common] != '\0' && path[common] == r->from[common])
        common++;
      if (best == NULL || common > best_common ||
          (common == best_common && strcmp (path, best) < 0))
        {
          best = path;
          best_common = common;
        }
    }

  return best != NULL && add_target (r, best);
}

/* Headers of the C library and POSIX: `#include <string.h>` means the system's even when the
 * project has a string.h of its own. */
static gboolean
is_system_header (const char *spec)
{
  static const char * const headers[] = {
    "assert.h", "complex.h", "ctype.h", "errno.h", "fenv.h", "float.h", "inttypes.h",
    "iso646.h", "limits.h", "locale.h", "math.h", "setjmp.h", "signal.h", "stdalign.h",
    "stdarg.h", "stdatomic.h", "stdbool.h", "stddef.h", "stdint.h", "stdio.h", "stdlib.h",
    "stdnoreturn.h", "string.h", "tgmath.h", "threads.h", "time.h", "uchar.h", "wchar.h",
    "wctype.h", "unistd.h", "fcntl.h", "pthread.h", "dirent.h", "dlfcn.h", "poll.h",
    "sched.h", "semaphore.h", "strings.h", "syslog.h", "termios.h", "netdb.h", "glob.h",
    "regex.h", "pwd.h", "grp.h", "libgen.h", "fnmatch.h", "spawn.h", "utime.h", "windows.h",
    "io.h", "malloc.h", "alloca.h", "memory.h", "process.h", "direct.h", "intrin.h",
  };

  for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
    if (strcmp (spec, headers[i]) == 0)
      return TRUE;

  return strchr (spec, '.') == NULL || g_str_has_prefix (spec, "sys/") ||
         g_str_has_prefix (spec, "linux/") || g_str_has_prefix (spec, "netinet/") ||
         g_str_has_prefix (spec, "arpa/");
}

static void
resolve_c (Resolve *r)
{
  static const char * const guessed_dirs[] = { "include", "src", "" };
  gboolean local = r->import->kind != LODE_IMPORT_INCLUDE_SYSTEM;

  set_key (r, r->spec);

  if (local)
    {
      g_autofree char *path = path_join (r->from_dir, r->spec);

      if (try_file (r, path))
        return;
    }

  for (guint i = 0; i < r->self->include_dirs->len; i++)
    {
      g_autofree char *path = path_join (r->self->include_dirs->pdata[i], r->spec);

      if (try_file (r, path))
        return;
    }

  for (guint i = 0; i < G_N_ELEMENTS (guessed_dirs); i++)
    {
      g_autofree char *path = path_join (guessed_dirs[i], r->spec);

      if ((local || guessed_dirs[i][0] != '\0') && try_file (r, path))
        return;
    }

  /* Any project header whose path ends with the name: the project's include directories
   * are not always known. Not for the C library's and POSIX headers (nor C++'s, which have
   * no extension) in angle brackets. */
  if ((local || !is_system_header (r->spec)) && try_path_suffix (r, r->spec))
    return;

  if (g_str_has_prefix (r->spec, "./") || g_str_has_prefix (r->spec, "../"))
    set_package (r, r->spec, strlen (r->spec));
  else
    set_first_components (r, r->spec, '/', 1);
}

/* Go: the non-test files of the package directory. */

static void
resolve_go (Resolve *r)
{
  const Mapping *best = NULL;
  const char *spec = r->spec;

  set_key (r, spec);

  for (guint i = 0; i < r->self->go_modules->len; i++)
    {
      const Mapping *module = r->self->go_modules->pdata[i];
      gsize n = strlen (module->prefix);

      if (strncmp (spec, module->prefix, n) == 0 && (spec[n] == '\0' || spec[n] == '/') &&
          (best == NULL || n > strlen (best->prefix)))
        best = module;
    }

  if (best != NULL)
    {
      const char *sub = spec + strlen (best->prefix);
      g_autofree char *dir = path_join (best->dir, sub[0] == '/' ? sub + 1 : sub);
      GPtrArray *files = dir_files (r->self, dir);
      g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

      for (guint i = 0; files != NULL && i < files->len; i++)
        {
          const char *path = files->pdata[i];

          if (g_str_has_suffix (path, ".go") && !g_str_has_suffix (path, "_test.go"))
            g_ptr_array_add (sorted, (gpointer) path);
        }
      g_ptr_array_sort (sorted, compare_strings);
      for (guint i = 0; i < sorted->len; i++)
        add_target (r, sorted->pdata[i]);
      if (r->targets->len > 0)
        return;
      set_package (r, spec, strlen (spec));
      return;
    }

  /* The standard library has no dot in its first element; modules on code hosts are named
   * by three elements (github.com/owner/repo), others by two (gopkg.in/yaml.v3). */
  if (strchr (spec, '.') == NULL || strchr (spec, '/') == NULL ||
      strchr (spec, '.') > strchr (spec, '/'))
    set_package (r, spec, strlen (spec));
  else if (g_str_has_prefix (spec, "github.com/") || g_str_has_prefix (spec, "gitlab.com/") ||
           g_str_has_prefix (spec, "bitbucket.org/") || g_str_has_prefix (spec, "golang.org/x/"))
    set_first_components (r, spec, '/', 3);
  else
    set_first_components (r, spec, '/', 2);
}

/* Rust: module paths are lists of names below a crate's src/ directory. */

static gboolean
rust_is_root_file (const char *base)
{
  return strcmp (base, "lib.rs") == 0 || strcmp (base, "main.rs") == 0;
}

/* The directory of the crate @from belongs to: the nearest ancestor holding lib.rs or
 * main.rs, one named src preferred. */
static char *
rust_crate_dir (LodeImportResolver *self,
                const char         *from)
{
  g_autofree char *fallback = NULL;
  g_autofree char *dir = path_dirname (from);

  for (;;)
    {
      g_autofree char *lib = path_join (dir, "lib.rs");
      g_autofree char *main = path_join (dir, "main.rs");

      if (has_file (self, lib) || has_file (self, main))
        {
          if (strcmp (path_basename (dir), "src") == 0)
            return g_steal_pointer (&dir);
          if (fallback == NULL)
            fallback = g_strdup (dir);
        }
      if (dir[0] == '\0')
        break;

      {
        char *parent = path_dirname (dir);

        g_free (dir);
        dir = parent;
      }
    }

  return fallback != NULL ? g_steal_pointer (&fallback) : path_dirname (from);
}

/* Module path of @from inside @crate_dir, as a '/'-joined string ("" for the crate root). */
static char *
rust_module_of (const char *crate_dir,
                const char *from)
{
  gsize n = strlen (crate_dir);
  const char *rel = n == 0 ? from : from + n + 1;
  g_autofree char *stem = NULL;

  if (n > 0 && (strncmp (from, crate_dir, n) != 0 || from[n] != '/'))
    return g_strdup ("");
  if (rust_is_root_file (rel))
    return g_strdup ("");

  stem = g_str_has_suffix (rel, ".rs") ? g_strndup (rel, strlen (rel) - 3) : g_strdup (rel);
  if (strcmp (path_basename (stem), "mod") == 0)
    return path_dirname (stem);

  return g_steal_pointer (&stem);
}

/* The file of module @module ("a/b") in @crate_dir; the crate root for "". */
static const char *
rust_module_file (LodeImportResolver *self,
                  const char         *crate_dir,
                  const char         *module)
{
  static const char * const root_files[] = { "lib.rs", "main.rs" };
  g_autofree char *file = NULL;
  g_autofree char *mod = NULL;
  const char *stored;

  if (module[0] == '\0')
    {
      for (guint i = 0; i < G_N_ELEMENTS (root_files); i++)
        {
          g_autofree char *root = path_join (crate_dir, root_files[i]);

          if ((stored = g_hash_table_lookup (self->files, root)) != NULL)
            return stored;
        }
      return NULL;
    }

  file = g_strconcat (crate_dir, crate_dir[0] != '\0' ? "/" : "", module, ".rs", NULL);
  if ((stored = g_hash_table_lookup (self->files, file)) != NULL)
    return stored;
  mod = g_strconcat (crate_dir, crate_dir[0] != '\0' ? "/" : "", module, "/mod.rs", NULL);
  return g_hash_table_lookup (self->files, mod);
}

static char *
rust_join (const char *module,
           const char *name)
{
  return module[0] != '\0' ? g_strconcat (module, "/", name, NULL) : g_strdup (name);
}

static void
resolve_rust_mod (Resolve *r)
{
  const char *base = path_basename (r->from);
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  g_autofree char *mod = NULL;

  /* `#[path = "…"]`: relative to the declaring file's directory. */
  if (g_str_has_suffix (r->spec, ".rs"))
    {
      g_autofree char *path = path_join (r->from_dir, r->spec);

      set_key (r, r->spec);
      if (!try_file (r, path))
        set_package (r, r->spec, strlen (r->spec));
      return;
    }

  if (rust_is_root_file (base) || strcmp (base, "mod.rs") == 0)
    dir = g_strdup (r->from_dir);
  else
    dir = g_str_has_suffix (r->from, ".rs") ? g_strndup (r->from, strlen (r->from) - 3)
                                             : g_strdup (r->from);

  file = g_strconcat (dir, dir[0] != '\0' ? "/" : "", r->spec, ".rs", NULL);
  mod = g_strconcat (dir, dir[0] != '\0' ? "/" : "", r->spec, "/mod.rs", NULL);
  set_key (r, r->spec);
  if (try_file (r, file) || try_file (r, mod))
    return;

  /* Examples, benches, tests and src/bin/ files are crate roots of their own: their modules
   * sit beside them. */
  g_free (file);
  g_free (mod);
  file = g_strconcat (r->from_dir, r->from_dir[0] != '\0' ? "/" : "", r->spec, ".rs", NULL);
  mod = g_strconcat (r->from_dir, r->from_dir[0] != '\0' ? "/" : "", r->spec, "/mod.rs", NULL);
  if (!try_file (r, file) && !try_file (r, mod))
    set_package (r, r->spec, strlen (r->spec));
}

static void
resolve_rust (Resolve *r)
{
  g_autofree char *crate_dir = NULL;
  g_autofree char *module = NULL;
  g_autofree char *full = NULL;
  g_autoptr(GPtrArray) segments = g_ptr_array_new ();
  g_auto(GStrv) parts = NULL;
  guint i = 0;

  if (r->import->kind == LODE_IMPORT_SOURCE)
    {
      resolve_rust_mod (r);
      return;
    }

  parts = g_strsplit (g_str_has_prefix (r->spec, "::") ? r->spec + 2 : r->spec, "::", -1);
  for (guint j = 0; parts[j] != NULL; j++)
    if (parts[j][0] != '\0' && strcmp (parts[j], "*") != 0 &&
        !(j > 0 && strcmp (parts[j], "self") == 0))
      g_ptr_array_add (segments, parts[j]);
  if (segments->len == 0)
    {
      set_package (r, r->spec, strlen (r->spec));
      set_key (r, r->spec);
      return;
    }

  crate_dir = rust_crate_dir (r->self, r->from);
  module = rust_module_of (crate_dir, r->from);

  if (g_str_has_prefix (r->spec, "::"))
    ;
  else if (strcmp (segments->pdata[0], "crate") == 0)
    {
      g_free (module);
      module = g_strdup ("");
      i = 1;
    }
  else if (strcmp (segments->pdata[0], "self") == 0)
    i = 1;
  else if (strcmp (segments->pdata[0], "super") == 0)
    {
      for (; i < segments->len && strcmp (segments->pdata[i], "super") == 0; i++)
        {
          char *parent = path_dirname (module);

          g_free (module);
          module = parent;
        }
    }
  else
    {
      g_autofree char *child = rust_join (module, segments->pdata[0]);
      g_autofree char *parent = path_dirname (module);
      g_autofree char *sibling = rust_join (parent, segments->pdata[0]);

      /* Every file this can name has the first name in its path, wherever it starts. */
      r->key = key_for_component (segments->pdata[0], strlen (segments->pdata[0]));

      /* 2018 paths start from the current module's children (or, when a `use super::x`
       * brought it into scope, a sibling), 2015 paths from the crate root; another crate of
       * the workspace is the next guess. */
      if (rust_module_file (r->self, crate_dir, child) != NULL)
        ;
      else if (module[0] != '\0' && rust_module_file (r->self, crate_dir, sibling) != NULL)
        {
          g_free (module);
          module = g_steal_pointer (&parent);
        }
      else
        {
          g_free (module);
          module = g_strdup ("");
          if (rust_module_file (r->self, crate_dir, segments->pdata[0]) == NULL)
            {
              for (guint c = 0; c < r->self->crates->len; c++)
                {
                  const Mapping *crate = r->self->crates->pdata[c];

                  if (strcmp (crate->prefix, segments->pdata[0]) == 0)
                    {
                      g_free (crate_dir);
                      crate_dir = g_strdup (crate->dir);
                      g_clear_pointer (&r->key, g_free);
                      i = 1;
                      break;
                    }
                }
              if (i == 0)
                {
                  set_package (r, segments->pdata[0], strlen (segments->pdata[0]));
                  set_key (r, segments->pdata[0]);
                  return;
                }
            }
        }
    }

  full = g_strdup (module);
  for (; i < segments->len; i++)
    {
      char *longer = rust_join (full, segments->pdata[i]);

      g_free (full);
      full = longer;
    }

  if (r->key == NULL)
    {
      const char *slash = strchr (full, '/');

      if (full[0] == '\0')
        r->key = g_strdup ("crate");
      else
        r->key = key_for_component (full, slash != NULL ? (gsize) (slash - full) : strlen (full));
    }

  /* The longest prefix of the path that is a module file: the rest names items in it. */
  for (;;)
    {
      const char *file = rust_module_file (r->self, crate_dir, full);
      char *shorter;

      if (file != NULL)
        {
          add_target (r, file);
          return;
        }
      if (full[0] == '\0')
        break;
      shorter = path_dirname (full);
      g_free (full);
      full = shorter;
    }

  set_package (r, r->spec, strlen (r->spec));
}

/* Java, Kotlin, Scala: names → the files declaring their package. */

static gboolean
stem_is (const char *path,
         const char *name)
{
  const char *base = path_basename (path);
  gsize n = strlen (name);

  return strncmp (base, name, n) == 0 && base[n] == '.';
}

static gboolean
add_package_files (Resolve    *r,
                   const char *package,
                   const char *stem)
{
  GPtrArray *files = g_hash_table_lookup (r->self->packages, package);
  g_autoptr(GPtrArray) sorted = g_ptr_array_new ();

  for (guint i = 0; files != NULL && i < files->len; i++)
    if (stem == NULL || stem_is (files->pdata[i], stem))
      g_ptr_array_add (sorted, files->pdata[i]);

  g_ptr_array_sort (sorted, compare_strings);
  for (guint i = 0; i < sorted->len; i++)
    add_target (r, sorted->pdata[i]);

  return sorted->len > 0;
}

/* The leading lower-case names: "java.util" of java.util.List, "org.junit" of
 * org.junit.Assert.assertEquals. */
static void
set_jvm_package (Resolve *r,
                 GStrv    segments)
{
  g_autoptr(GString) package = g_string_new (NULL);

  for (guint i = 0; segments[i] != NULL; i++)
    {
      if (i > 0 && (g_ascii_isupper (segments[i][0]) || strcmp (segments[i], "*") == 0 ||
                    strcmp (segments[i], "_") == 0))
        break;
      if (i > 0)
        g_string_append_c (package, '.');
      g_string_append (package, segments[i]);
    }

  set_package (r, package->str, package->len);
}

static char *
join_segments (GStrv segments,
               guint n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, '.');
      g_string_append (out, segments[i]);
    }

  return g_string_free (out, FALSE);
}

static void
resolve_jvm (Resolve *r)
{
  g_auto(GStrv) segments = g_strsplit (r->spec, ".", -1);
  guint n = g_strv_length (segments);
  gboolean wildcard = FALSE;

  if (n == 0)
    return;

  r->key = key_for_component (segments[n >= 2 ? n - 2 : 0],
                              strlen (segments[n >= 2 ? n - 2 : 0]));

  if (strcmp (segments[n - 1], "*") == 0 || strcmp (segments[n - 1], "_") == 0)
    {
      g_autofree char *package = join_segments (segments, n - 1);

      if (add_package_files (r, package, NULL))
        return;
      /* `import static a.B.*`: the members of class B. */
      n--;
      wildcard = TRUE;
      /* `import _` alone names nothing. */
      if (n == 0)
        return;
    }

  for (guint k = n - 1; k >= 1; k--)
    {
      g_autofree char *package = join_segments (segments, k);

      if (add_package_files (r, package, segments[k]))
        return;
      /* Kotlin and Scala import functions and values from a package, in any file of it. */
      if (k == n - 1 && !wildcard && g_ascii_islower (segments[k][0]) &&
          add_package_files (r, package, NULL))
        return;
    }

  set_jvm_package (r, segments);
}

/* C#: a namespace → the files declaring it; `using static A.B.C` and aliases → class C. */

static void
resolve_csharp (Resolve *r)
{
  const char *dot = strrchr (r->spec, '.');

  set_key (r, dot != NULL ? dot + 1 : r->spec);

  if (add_package_files (r, r->spec, NULL))
    return;

  if (dot != NULL)
    {
      g_autofree char *namespace = g_strndup (r->spec, dot - r->spec);

      if (add_package_files (r, namespace, dot + 1))
        return;
    }

  set_package (r, r->spec, strlen (r->spec));
}

/* PHP: `use A\B\C` through composer.json PSR-4 prefixes, else the files declaring namespace
 * A\B named C.php; include and require by path. */

static void
resolve_php (Resolve *r)
{
  g_autofree char *name = NULL;
  const Mapping *best = NULL;
  const char *last;

  if (r->import->kind == LODE_IMPORT_RELATIVE)
    {
      g_autofree char *beside = path_join (r->from_dir, r->spec[0] == '/' ? r->spec + 1
                                                                            : r->spec);
      g_autofree char *from_root = path_join ("", r->spec);

      set_key (r, r->spec);
      if (!try_file (r, beside) && !try_file (r, from_root))
        set_package (r, r->spec, strlen (r->spec));
      return;
    }

  name = g_strdelimit (g_strdup (r->spec[0] == '\\' ? r->spec + 1 : r->spec), "\\", '.');
  last = strrchr (name, '.');
  set_key (r, last != NULL ? last + 1 : name);

  for (guint i = 0; i < r->self->psr4->len; i++)
    {
      const Mapping *mapping = r->self->psr4->pdata[i];
      gsize n = strlen (mapping->prefix);

      if ((n == 0 || (strncmp (name, mapping->prefix, n) == 0 && name[n] == '.')) &&
          (best == NULL || n > strlen (best->prefix)))
        {
          g_autofree char *rest = g_strdelimit (g_strdup (n > 0 ? name + n + 1 : name), ".", '/');
          g_autofree char *file = g_strconcat (rest, ".php", NULL);
          g_autofree char *path = path_join (mapping->dir, file);

          if (has_file (r->self, path))
            best = mapping;
        }
    }

  if (best != NULL)
    {
      gsize n = strlen (best->prefix);
      g_autofree char *rest = g_strdelimit (g_strdup (n > 0 ? name + n + 1 : name), ".", '/');
      g_autofree char *file = g_strconcat (rest, ".php", NULL);
      g_autofree char *path = path_join (best->dir, file);

      try_file (r, path);
      return;
    }

  if (last != NULL)
    {
      g_autofree char *namespace = g_strndup (name, last - name);

      if (add_package_files (r, namespace, last + 1))
        return;
    }

  {
    g_autofree char *package = g_strdelimit (g_strdup (r->spec[0] == '\\' ? r->spec + 1
                                                                           : r->spec), "\\", '/');

    set_first_components (r, package, '/', 2);
    g_strdelimit (r->package, "/", '\\');
  }
}

/* Ruby: require_relative beside the file; require along lib/ directories and the root. */

static gboolean
rb_try (Resolve    *r,
        const char *base)
{
  static const char * const suffixes[] = { ".rb", "", NULL };

  return base != NULL && try_suffixes (r, base, suffixes);
}

static void
resolve_ruby (Resolve *r)
{
  set_key (r, r->spec);

  if (r->import->kind == LODE_IMPORT_RELATIVE || g_str_has_prefix (r->spec, "./") ||
      g_str_has_prefix (r->spec, "../"))
    {
      g_autofree char *base = path_join (r->from_dir, r->spec);

      if (!rb_try (r, base))
        set_package (r, r->spec, strlen (r->spec));
      return;
    }

  ensure_derived (r->self);
  for (guint i = 0; i < r->self->lib_dirs->len; i++)
    {
      g_autofree char *base = path_join (r->self->lib_dirs->pdata[i], r->spec);

      if (rb_try (r, base))
        return;
    }
  {
    g_autofree char *base = path_join ("", r->spec);

    if (rb_try (r, base))
      return;
  }

  set_first_components (r, r->spec, '/', 1);
}

/* Swift: `import Module` → every file of the module's target. */

static void
resolve_swift (Resolve *r)
{
  g_autofree char *module = g_strndup (r->spec, strcspn (r->spec, "."));
  GPtrArray *files;

  for (guint i = 0; i < r->self->swift_targets->len; i++)
    {
      const Mapping *target = r->self->swift_targets->pdata[i];

      if (strcmp (target->prefix, module) == 0)
        set_key (r, target->dir);
    }
  set_key (r, module);

  ensure_derived (r->self);
  files = g_hash_table_lookup (r->self->swift_modules, module);
  if (files != NULL)
    {
      g_autoptr(GPtrArray) sorted = g_ptr_array_copy (files, NULL, NULL);

      g_ptr_array_sort (sorted, compare_strings);
      for (guint i = 0; i < sorted->len; i++)
        add_target (r, sorted->pdata[i]);
      return;
    }

  set_package (r, module, strlen (module));
}

/* Bash: `source "$DIR/lib/x.sh"` and `. ./x.sh`: variables before the path are taken to name
 * the script's own directory, the usual idiom. */

static void
resolve_bash (Resolve *r)
{
  const char *rest = r->spec;
  const char *dollar;

  while ((dollar = strchr (rest, '$')) != NULL)
    {
      const char *p = dollar + 1;

      if (*p == '{' || *p == '(')
        {
          char open = *p;
          char close = open == '{' ? '}' : ')';
          guint depth = 0;

          for (; *p != '\0'; p++)
            {
              if (*p == open)
                depth++;
              else if (*p == close && --depth == 0)
                {
                  p++;
                  break;
                }
            }
        }
      else
        while (g_ascii_isalnum (*p) || *p == '_')
          p++;
      rest = p;
    }
  while (*rest == '"' || *rest == '\'')
    rest++;

  set_key (r, rest);
  if (rest[0] != '\0')
    {
      g_autofree char *beside = path_join (r->from_dir, rest[0] == '/' && rest != r->spec
                                                          ? rest + 1 : rest);
      g_autofree char *from_root = path_join ("", rest);

      if (try_file (r, beside) || try_file (r, from_root))
        return;
      /* "$COMMON/platform.sh": a variable that names some other directory of the project. */
      if (rest != r->spec && try_path_suffix (r, rest[0] == '/' ? rest + 1 : rest))
        return;
    }

  set_package (r, r->spec, strlen (r->spec));
}

/* Lua: require "a.b" → a/b.lua or a/b/init.lua from the root, lua/, src/, lib/ or beside. */

static void
resolve_lua (Resolve *r)
{
  static const char * const suffixes[] = { ".lua", "/init.lua", NULL };
  const char *roots[] = { "", "lua", "src", "lib", r->from_dir };
  g_autofree char *module = g_strdelimit (g_strdup (r->spec), ".", '/');

  set_key (r, module);

  for (guint i = 0; i < G_N_ELEMENTS (roots); i++)
    {
      g_autofree char *base = path_join (roots[i], module);

      if (base != NULL && try_suffixes (r, base, suffixes))
        return;
    }

  set_first_components (r, r->spec, '.', 1);
}

/* Dart: package:<name>/… in lib/ of the pubspec named <name>; dart: libraries; relative. */

static void
resolve_dart (Resolve *r)
{
  if (g_str_has_prefix (r->spec, "dart:"))
    {
      set_key (r, r->spec);
      set_package (r, r->spec, strlen (r->spec));
      return;
    }

  if (g_str_has_prefix (r->spec, "package:"))
    {
      const char *name = r->spec + strlen ("package:");
      const char *slash = strchr (name, '/');
      g_autofree char *package = slash != NULL ? g_strndup (name, slash - name) : g_strdup (name);

      set_key (r, r->spec);
      for (guint i = 0; slash != NULL && i < r->self->dart_packages->len; i++)
        {
          const Mapping *mapping = r->self->dart_packages->pdata[i];

          if (strcmp (mapping->prefix, package) == 0)
            {
              g_autofree char *path = path_join (mapping->dir, slash + 1);

              if (try_file (r, path))
                return;
            }
        }
      set_package (r, package, strlen (package));
      return;
    }

  if (url_package (r, r->spec))
    return;

  {
    g_autofree char *path = path_join (r->from_dir, r->spec);

    set_key (r, path != NULL ? path : r->spec);
    if (!try_file (r, path))
      set_package (r, r->spec, strlen (r->spec));
  }
}

/* CSS, SCSS, Less: relative to the file, then to the root; Sass partials (_x.scss) and
 * index files. */

static gboolean
css_try (Resolve    *r,
         const char *base)
{
  static const char * const suffixes[] = {
    "", ".scss", ".sass", ".css", ".less", "/_index.scss", "/index.scss", "/_index.sass",
    "/index.sass", "/index.css", NULL
  };
  g_autofree char *dir = NULL;
  g_autofree char *partial = NULL;

  if (base == NULL)
    return FALSE;
  if (try_suffixes (r, base, suffixes))
    return TRUE;

  dir = path_dirname (base);
  partial = g_strconcat (dir, dir[0] != '\0' ? "/_" : "_", path_basename (base), NULL);
  return try_suffixes (r, partial, suffixes);
}

static void
resolve_css (Resolve *r)
{
  g_autofree char *spec = NULL;

  if (url_package (r, r->spec))
    return;
  if (g_str_has_prefix (r->spec, "sass:"))
    {
      set_key (r, r->spec);
      set_package (r, r->spec, strlen (r->spec));
      return;
    }

  spec = g_strdup (r->spec[0] == '~' ? r->spec + 1 : r->spec);
  spec[strcspn (spec, "?#")] = '\0';
  set_key (r, spec);

  if (r->spec[0] != '~')
    {
      g_autofree char *beside = path_join (r->from_dir, spec);
      g_autofree char *from_root = path_join ("", spec);

      if (css_try (r, beside) || css_try (r, from_root))
        return;
    }

  set_first_components (r, spec, '/', spec[0] == '@' ? 2 : 1);
}

/* HTML `src` and `href`: relative to the page, or from the root or any ancestor of the page
 * for "/x" (the site's root is not known). */

static void
resolve_web (Resolve *r)
{
  g_autofree char *spec = NULL;

  if (url_package (r, r->spec))
    return;

  spec = g_strdup (r->spec);
  spec[strcspn (spec, "?#")] = '\0';
  set_key (r, spec);

  if (spec[0] == '/')
    {
      g_autofree char *dir = g_strdup (r->from_dir);

      for (;;)
        {
          g_autofree char *path = path_join (dir, spec + 1);
          char *parent;

          if (try_file (r, path))
            return;
          if (dir[0] == '\0')
            break;
          parent = path_dirname (dir);
          g_free (dir);
          dir = parent;
        }
    }
  else
    {
      g_autofree char *path = path_join (r->from_dir, spec);

      if (try_file (r, path))
        return;
    }

  set_package (r, r->spec, strlen (r->spec));
}

typedef void (*ResolveFunc) (Resolve *r);

/* The language an import is written in decides where it is looked for. Scripts without a
 * telling name are recognised by their #! line. */
static ResolveFunc
resolve_func_for (LodeImportResolver *self,
                  const char         *from,
                  const LodeImport   *import)
{
  static const struct {
    const char  *id;
    ResolveFunc  func;
  } funcs[] = {
    { "javascript", resolve_js }, { "typescript", resolve_js }, { "tsx", resolve_js },
    { "python", resolve_python }, { "c", resolve_c }, { "cpp", resolve_c },
    { "go", resolve_go }, { "rust", resolve_rust }, { "java", resolve_jvm },
    { "kotlin", resolve_jvm }, { "scala", resolve_jvm }, { "csharp", resolve_csharp },
    { "php", resolve_php }, { "ruby", resolve_ruby }, { "swift", resolve_swift },
    { "bash", resolve_bash }, { "lua", resolve_lua }, { "dart", resolve_dart },
    { "css", resolve_css },
  };
  const LodeLanguage *language = lode_language_for_path (from);

  if (strcmp (language->id, "text") == 0)
    {
      g_autofree char *head = NULL;
      gsize len = 0;

      head = read_project_file (self, from, 256, &len);
      if (head != NULL)
        language = lode_language_for_content (language, from, head, len);
    }

  /* HTML pages and Vue and Svelte components: attributes name files, scripts import, and
   * `<style>` blocks (SCSS, Less) import as stylesheets do. */
  if (strcmp (language->id, "html") == 0)
    return import->kind == LODE_IMPORT_RELATIVE     ? resolve_web
           : import->kind == LODE_IMPORT_STYLESHEET ? resolve_css
                                                    : resolve_js;

  if (import->kind == LODE_IMPORT_INCLUDE_LOCAL || import->kind == LODE_IMPORT_INCLUDE_SYSTEM)
    return resolve_c;

  for (guint i = 0; i < G_N_ELEMENTS (funcs); i++)
    if (strcmp (language->id, funcs[i].id) == 0)
      return funcs[i].func;

  return NULL;
}

static void
resolve_run (LodeImportResolver *self,
             const char         *from,
             const LodeImport   *import,
             Resolve            *r)
{
  ResolveFunc func = resolve_func_for (self, from, import);

  r->self = self;
  r->from = from;
  r->from_dir = path_dirname (from);
  r->import = import;
  r->spec = import->specifier;
  r->targets = g_ptr_array_new_with_free_func (g_free);

  if (func != NULL)
    func (r);

  if (r->targets->len > 0)
    g_clear_pointer (&r->package, g_free);
  else if (r->package == NULL)
    r->package = g_strdup (import->specifier);

  if (r->key == NULL)
    r->key = key_for_last_component (import->specifier);
}

static void
resolve_clear (Resolve *r)
{
  g_free (r->from_dir);
  g_clear_pointer (&r->targets, g_ptr_array_unref);
  g_free (r->package);
  g_free (r->key);
}

/**
 * lode_import_resolver_resolve_all:
 * @self: a #LodeImportResolver
 * @from_path: the project path of the importing file
 * @import: one of its imports
 * @package: (out) (optional) (transfer full): the external package when no project file
 *   matches ("react", "github.com/x/y", "java.util", "os"), else %NULL
 *
 * Resolves an import to every project file it reaches: one file for most imports, all files
 * of the package for a Go package, a C# namespace, a Java/Kotlin/Scala wildcard or a Swift
 * module. An import written in a relative form that names no file resolves to itself as
 * the package.
 *
 * Returns: (transfer full): the project paths, best first; empty when external
 */
GStrv
lode_import_resolver_resolve_all (LodeImportResolver  *self,
                                  const char          *from_path,
                                  const LodeImport    *import,
                                  char               **package)
{
  Resolve r = { 0 };
  GStrv targets;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);
  g_return_val_if_fail (from_path != NULL, NULL);
  g_return_val_if_fail (import != NULL && import->specifier != NULL, NULL);

  resolve_run (self, from_path, import, &r);
  g_ptr_array_add (r.targets, NULL);
  targets = (GStrv) g_ptr_array_steal (r.targets, NULL);
  if (package != NULL)
    *package = g_steal_pointer (&r.package);
  resolve_clear (&r);

  return targets;
}

/**
 * lode_import_resolver_resolve:
 * @self: a #LodeImportResolver
 * @from_path: the project path of the importing file
 * @import: one of its imports
 * @package: (out) (optional) (transfer full): the external package when no project file
 *   matches, else %NULL
 *
 * Like lode_import_resolver_resolve_all(), keeping only the best file.
 *
 * Returns: (transfer full) (nullable): the project path, or %NULL for an external import
 */
char *
lode_import_resolver_resolve (LodeImportResolver  *self,
                              const char          *from_path,
                              const LodeImport    *import,
                              char               **package)
{
  g_auto(GStrv) targets = NULL;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);

  targets = lode_import_resolver_resolve_all (self, from_path, import, package);
  return targets[0] != NULL ? g_strdup (targets[0]) : NULL;
}

/**
 * lode_import_resolver_dup_key:
 * @self: a #LodeImportResolver
 * @from_path: the project path of the importing file
 * @import: one of its imports
 *
 * The import's candidate key: every project file the import could resolve to, whichever
 * files exist, has this key among lode_import_resolver_dup_keys_for_path(). Store imports
 * by key; when a file is added or removed, resolve again only the imports under its keys.
 * A change to a configuration file (lode_import_resolver_is_config_file()) is the exception.
 *
 * Returns: (transfer full): the key
 */
char *
lode_import_resolver_dup_key (LodeImportResolver *self,
                              const char         *from_path,
                              const LodeImport   *import)
{
  Resolve r = { 0 };
  char *key;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);
  g_return_val_if_fail (from_path != NULL, NULL);
  g_return_val_if_fail (import != NULL && import->specifier != NULL, NULL);

  resolve_run (self, from_path, import, &r);
  key = g_steal_pointer (&r.key);
  resolve_clear (&r);

  return key;
}

static void
add_key (GPtrArray  *keys,
         char       *key)
{
  for (guint i = 0; i < keys->len; i++)
    if (strcmp (keys->pdata[i], key) == 0)
      {
        g_free (key);
        return;
      }

  g_ptr_array_add (keys, key);
}

/**
 * lode_import_resolver_dup_keys_for_path:
 * @self: a #LodeImportResolver
 * @path: a project path; its declarations are known only while it is in the resolver
 *
 * The keys of a file: those of the imports that could resolve to it
 * (see lode_import_resolver_dup_key()).
 *
 * Returns: (transfer full): the keys
 */
GStrv
lode_import_resolver_dup_keys_for_path (LodeImportResolver *self,
                                        const char         *path)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  GStrv declared;
  const char *start = path;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  for (const char *p = path;; p++)
    if (*p == '/' || *p == '\0')
      {
        if (p > start)
          add_key (keys, key_for_component (start, p - start));
        if (*p == '\0')
          break;
        start = p + 1;
      }

  if (strchr (path, '/') == NULL)
    add_key (keys, g_strdup ("/"));
  if (rust_is_root_file (path_basename (path)))
    add_key (keys, g_strdup ("crate"));

  declared = g_hash_table_lookup (self->declared, path);
  for (guint i = 0; declared != NULL && declared[i] != NULL; i++)
    {
      const char *dot = strrchr (declared[i], '.');
      const char *last = dot != NULL ? dot + 1 : declared[i];

      add_key (keys, key_for_component (last, strlen (last)));
    }

  g_ptr_array_add (keys, NULL);
  return (GStrv) g_ptr_array_steal (keys, NULL);
}

/**
 * lode_import_resolver_add_file:
 * @self: a #LodeImportResolver
 * @path: a project path (relative, '/'-separated)
 *
 * Adds a file to the project, or reads a known file's declarations and, for a
 * configuration file, the configuration again.
 */
void
lode_import_resolver_add_file (LodeImportResolver *self,
                               const char         *path)
{
  g_return_if_fail (LODE_IS_IMPORT_RESOLVER (self));
  g_return_if_fail (path != NULL);

  unindex_file (self, path);
  index_file (self, path);
  self->derived_valid = FALSE;
  if (is_read_config (path))
    load_configs (self);
}

/**
 * lode_import_resolver_remove_file:
 * @self: a #LodeImportResolver
 * @path: a project path
 *
 * Removes a file from the project.
 */
void
lode_import_resolver_remove_file (LodeImportResolver *self,
                                  const char         *path)
{
  g_return_if_fail (LODE_IS_IMPORT_RESOLVER (self));
  g_return_if_fail (path != NULL);

  if (!unindex_file (self, path))
    return;
  self->derived_valid = FALSE;
  if (is_read_config (path))
    load_configs (self);
}

/**
 * lode_import_resolver_has_file:
 * @self: a #LodeImportResolver
 * @path: a project path
 *
 * Returns: %TRUE if @path is a file of the project
 */
gboolean
lode_import_resolver_has_file (LodeImportResolver *self,
                               const char         *path)
{
  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return has_file (self, path);
}

/**
 * lode_import_resolver_new:
 * @root: the project's root directory
 * @paths: (array zero-terminated=1): the project's files, relative to @root, '/'-separated
 *
 * Creates a resolver for a project, reading its configuration files and the package
 * declarations of its Java, Kotlin, Scala, C# and PHP files under @root. Unreadable or
 * malformed files are skipped.
 *
 * Returns: (transfer full): a new resolver
 */
LodeImportResolver *
lode_import_resolver_new (const char         *root,
                          const char * const *paths)
{
  LodeImportResolver *self;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (paths != NULL, NULL);

  self = g_object_new (LODE_TYPE_IMPORT_RESOLVER, NULL);
  self->root = g_canonicalize_filename (root, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    index_file (self, paths[i]);
  load_configs (self);

  return self;
}

static void
lode_import_resolver_finalize (GObject *object)
{
  LodeImportResolver *self = (LodeImportResolver *)object;

  g_clear_pointer (&self->swift_modules, g_hash_table_unref);
  g_clear_pointer (&self->packages, g_hash_table_unref);
  g_clear_pointer (&self->declared, g_hash_table_unref);
  g_clear_pointer (&self->basenames, g_hash_table_unref);
  g_clear_pointer (&self->dirs, g_hash_table_unref);
  g_clear_pointer (&self->trees, g_hash_table_unref);
  g_clear_pointer (&self->files, g_hash_table_unref);
  g_clear_pointer (&self->tsconfigs, g_ptr_array_unref);
  g_clear_pointer (&self->js_packages, g_ptr_array_unref);
  g_clear_pointer (&self->include_dirs, g_ptr_array_unref);
  g_clear_pointer (&self->go_modules, g_ptr_array_unref);
  g_clear_pointer (&self->crates, g_ptr_array_unref);
  g_clear_pointer (&self->psr4, g_ptr_array_unref);
  g_clear_pointer (&self->dart_packages, g_ptr_array_unref);
  g_clear_pointer (&self->swift_targets, g_ptr_array_unref);
  g_clear_pointer (&self->python_roots, g_ptr_array_unref);
  g_clear_pointer (&self->lib_dirs, g_ptr_array_unref);
  g_free (self->root);

  G_OBJECT_CLASS (lode_import_resolver_parent_class)->finalize (object);
}

static void
lode_import_resolver_class_init (LodeImportResolverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_import_resolver_finalize;
}

static void
lode_import_resolver_init (LodeImportResolver *self)
{
  GDestroyNotify unref = (GDestroyNotify) g_ptr_array_unref;
  GDestroyNotify free_mapping = (GDestroyNotify) mapping_free;

  self->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->trees = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->basenames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->declared = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) g_strfreev);
  self->packages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->swift_modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->tsconfigs = g_ptr_array_new_with_free_func ((GDestroyNotify) ts_config_free);
  self->js_packages = g_ptr_array_new_with_free_func (free_mapping);
  self->include_dirs = g_ptr_array_new_with_free_func (g_free);
  self->go_modules = g_ptr_array_new_with_free_func (free_mapping);
  self->crates = g_ptr_array_new_with_free_func (free_mapping);
  self->psr4 = g_ptr_array_new_with_free_func (free_mapping);
  self->dart_packages = g_ptr_array_new_with_free_func (free_mapping);
  self->swift_targets = g_ptr_array_new_with_free_func (free_mapping);
  self->python_roots = g_ptr_array_new_with_free_func (g_free);
  self->lib_dirs = g_ptr_array_new_with_free_func (g_free);
}
