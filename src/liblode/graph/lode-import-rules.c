/* lode-import-rules.c — where an import is looked for, language by language
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-import-resolver"

#include "config.h"

#include <string.h>

#include "lode-import-resolver-private.h"

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
    r->key = _lode_import_key_for_last_component (path);
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

      if (path_in_dir (from, config->dir))
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

          target = _lode_import_path_join ("", joined);
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
          g_autofree char *direct = _lode_import_path_join (package->dir, subpath);
          g_autofree char *src = g_build_path ("/", package->dir, "src", subpath, NULL);

          return js_try (r, direct) || js_try (r, src);
        }
      else
        {
          g_autofree char *entry = package->entry != NULL ? _lode_import_path_join (package->dir,
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
      g_autofree char *base = _lode_import_path_join (r->from_dir, spec);

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
      g_autofree char *base = _lode_import_path_join (config->base_url, spec);

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
  g_autofree char *base = _lode_import_path_join (root, module);
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
        g_autofree char *path = _lode_import_path_join (base, module);

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

  _lode_import_ensure_derived (r->self);
  for (guint i = 0; i < r->self->python_roots->len; i++)
    if (py_try_module (r, r->self->python_roots->pdata[i], module))
      return;

  set_first_components (r, spec, '.', 1);
}

/* C and C++. */

/* The project header nearest the importing file whose path ends with @suffix
 * (_lode_import_find_by_suffix()). */
static gboolean
try_path_suffix (Resolve    *r,
                 const char *suffix)
{
  const char *path = _lode_import_find_by_suffix (r->self, r->from, suffix);

  return path != NULL && add_target (r, path);
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

/* The include directories of the Makefiles in the directories that hold @r's source, the
 * nearest first. The directories are looked up one by one, not every Makefile's checked
 * for whether it is above the source, which cost in proportion to the Makefiles of the
 * tree for each include. */
static gboolean
try_makefile_dirs (Resolve *r)
{
  g_autofree char *dir = g_strdup (r->from_dir);

  for (;;)
    {
      GPtrArray *dirs = g_hash_table_lookup (r->self->make_include_dirs, dir);
      char *slash;

      for (guint i = 0; dirs != NULL && i < dirs->len; i++)
        {
          g_autofree char *path = _lode_import_path_join (dirs->pdata[i], r->spec);

          if (try_file (r, path))
            return TRUE;
        }
      if (dir[0] == '\0')
        return FALSE;
      slash = strrchr (dir, '/');
      *(slash != NULL ? slash : dir) = '\0';
    }
}

static void
resolve_c (Resolve *r)
{
  static const char * const guessed_dirs[] = { "include", "src", "" };
  gboolean local = r->import->kind != LODE_IMPORT_INCLUDE_SYSTEM;

  set_key (r, r->spec);

  if (local)
    {
      g_autofree char *path = _lode_import_path_join (r->from_dir, r->spec);

      if (try_file (r, path))
        return;
    }

  for (guint i = 0; i < r->self->include_dirs->len; i++)
    {
      g_autofree char *path = _lode_import_path_join (r->self->include_dirs->pdata[i], r->spec);

      if (try_file (r, path))
        return;
    }

  /* A Makefile's flags are for the sources it builds, those of its directory and below; the
   * nearest Makefile's first. compile_commands.json, the build's own record, comes before. */
  if (try_makefile_dirs (r))
    return;

  for (guint i = 0; i < G_N_ELEMENTS (guessed_dirs); i++)
    {
      g_autofree char *path = _lode_import_path_join (guessed_dirs[i], r->spec);

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
      g_autofree char *dir = _lode_import_path_join (best->dir, sub[0] == '/' ? sub + 1 : sub);
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

gboolean
_lode_import_rust_is_root_file (const char *base)
{
  return strcmp (base, "lib.rs") == 0 || strcmp (base, "main.rs") == 0;
}

/* The directory of the crate @from belongs to: the nearest ancestor holding lib.rs or
 * main.rs, one named src preferred. Without one, @from is a crate root of its own (a test,
 * an example, a bench) and its directory is returned, with @own_root set. */
static char *
rust_crate_dir (LodeImportResolver *self,
                const char         *from,
                gboolean           *own_root)
{
  g_autofree char *fallback = NULL;
  g_autofree char *dir = path_dirname (from);

  for (;;)
    {
      g_autofree char *lib = _lode_import_path_join (dir, "lib.rs");
      g_autofree char *main = _lode_import_path_join (dir, "main.rs");

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

  *own_root = fallback == NULL;
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
  if (_lode_import_rust_is_root_file (rel))
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
          g_autofree char *root = _lode_import_path_join (crate_dir, root_files[i]);

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

/* The inline modules an import is written in (lode-imports.c puts them in its name), as a
 * path: "a::b" → "a/b"; NULL outside any. */
static char *
rust_scope_path (Resolve *r)
{
  g_auto(GStrv) parts = NULL;

  if (r->import->name == NULL || r->import->name[0] == '\0')
    return NULL;

  parts = g_strsplit (r->import->name, "::", -1);
  return g_strjoinv ("/", parts);
}

static void
resolve_rust_mod (Resolve *r)
{
  const char *base = path_basename (r->from);
  g_autofree char *dir = NULL;
  g_autofree char *file = NULL;
  g_autofree char *mod = NULL;
  g_autofree char *scope = rust_scope_path (r);
  g_autofree char *spec = scope != NULL ? g_strconcat (scope, "/", r->spec, NULL)
                                        : g_strdup (r->spec);

  /* `#[path = "…"]`: relative to the declaring file's directory. */
  if (g_str_has_suffix (r->spec, ".rs"))
    {
      g_autofree char *path = _lode_import_path_join (r->from_dir, r->spec);

      set_key (r, r->spec);
      if (!try_file (r, path))
        set_package (r, r->spec, strlen (r->spec));
      return;
    }

  if (_lode_import_rust_is_root_file (base) || strcmp (base, "mod.rs") == 0)
    dir = g_strdup (r->from_dir);
  else
    dir = g_str_has_suffix (r->from, ".rs") ? g_strndup (r->from, strlen (r->from) - 3)
                                             : g_strdup (r->from);

  file = g_strconcat (dir, dir[0] != '\0' ? "/" : "", spec, ".rs", NULL);
  mod = g_strconcat (dir, dir[0] != '\0' ? "/" : "", spec, "/mod.rs", NULL);
  set_key (r, r->spec);
  if (try_file (r, file) || try_file (r, mod))
    return;

  /* Examples, benches, tests and src/bin/ files are crate roots of their own: their modules
   * sit beside them. */
  g_free (file);
  g_free (mod);
  file = g_strconcat (r->from_dir, r->from_dir[0] != '\0' ? "/" : "", spec, ".rs", NULL);
  mod = g_strconcat (r->from_dir, r->from_dir[0] != '\0' ? "/" : "", spec, "/mod.rs", NULL);
  if (!try_file (r, file) && !try_file (r, mod))
    set_package (r, r->spec, strlen (r->spec));
}

/* The file of @module, where a crate root of its own is its own module "" — when it is a file
 * of the project: a path the project does not hold resolves to no file. */
static const char *
rust_file_of (Resolve    *r,
              const char *crate_dir,
              const char *module,
              gboolean    own_root)
{
  if (own_root && module[0] == '\0')
    return g_hash_table_lookup (r->self->files, r->from);

  return rust_module_file (r->self, crate_dir, module);
}

static void
resolve_rust (Resolve *r)
{
  g_autofree char *crate_dir = NULL;
  g_autofree char *module = NULL;
  g_autofree char *full = NULL;
  g_autofree char *scope = NULL;
  g_autoptr(GPtrArray) segments = g_ptr_array_new ();
  g_auto(GStrv) parts = NULL;
  gboolean own_root = FALSE;
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

  crate_dir = rust_crate_dir (r->self, r->from, &own_root);
  module = own_root ? g_strdup ("") : rust_module_of (crate_dir, r->from);
  /* Inside `mod a { … }`, `self` is a and `super` the file's module. */
  scope = rust_scope_path (r);
  if (scope != NULL)
    {
      char *inner = rust_join (module, scope);

      g_free (module);
      module = inner;
    }

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
      r->key = _lode_import_key_for_component (segments->pdata[0], strlen (segments->pdata[0]));

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
                      own_root = FALSE;
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
        r->key = _lode_import_key_for_component (full, slash != NULL ? (gsize) (slash - full)
                                                                     : strlen (full));
    }

  /* The longest prefix of the path that is a module file: the rest names items in it. */
  for (;;)
    {
      const char *file = rust_file_of (r, crate_dir, full, own_root);
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

  r->key = _lode_import_key_for_component (segments[n >= 2 ? n - 2 : 0],
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
      g_autofree char *beside = _lode_import_path_join (r->from_dir, r->spec[0] == '/' ? r->spec + 1
                                                                                         : r->spec);
      g_autofree char *from_root = _lode_import_path_join ("", r->spec);

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
          g_autofree char *path = _lode_import_path_join (mapping->dir, file);

          if (has_file (r->self, path))
            best = mapping;
        }
    }

  if (best != NULL)
    {
      gsize n = strlen (best->prefix);
      g_autofree char *rest = g_strdelimit (g_strdup (n > 0 ? name + n + 1 : name), ".", '/');
      g_autofree char *file = g_strconcat (rest, ".php", NULL);
      g_autofree char *path = _lode_import_path_join (best->dir, file);

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
      g_autofree char *base = _lode_import_path_join (r->from_dir, r->spec);

      if (!rb_try (r, base))
        set_package (r, r->spec, strlen (r->spec));
      return;
    }

  _lode_import_ensure_derived (r->self);
  for (guint i = 0; i < r->self->lib_dirs->len; i++)
    {
      g_autofree char *base = _lode_import_path_join (r->self->lib_dirs->pdata[i], r->spec);

      if (rb_try (r, base))
        return;
    }
  {
    g_autofree char *base = _lode_import_path_join ("", r->spec);

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

  _lode_import_ensure_derived (r->self);
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
      g_autofree char *beside = _lode_import_path_join (r->from_dir,
                                                        rest[0] == '/' && rest != r->spec
                                                        ? rest + 1 : rest);
      g_autofree char *from_root = _lode_import_path_join ("", rest);

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
      g_autofree char *base = _lode_import_path_join (roots[i], module);

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
              g_autofree char *path = _lode_import_path_join (mapping->dir, slash + 1);

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
    g_autofree char *path = _lode_import_path_join (r->from_dir, r->spec);

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
      g_autofree char *beside = _lode_import_path_join (r->from_dir, spec);
      g_autofree char *from_root = _lode_import_path_join ("", spec);

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
          g_autofree char *path = _lode_import_path_join (dir, spec + 1);
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
      g_autofree char *path = _lode_import_path_join (r->from_dir, spec);

      if (try_file (r, path))
        return;
    }

  set_package (r, r->spec, strlen (r->spec));
}

/* The language an import is written in decides where it is looked for. Scripts without a
 * telling name are recognised by their #! line. */
ResolveFunc
_lode_import_resolve_func_for (LodeImportResolver *self,
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

      head = _lode_import_read_project_file (self, from, 256, &len);
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
