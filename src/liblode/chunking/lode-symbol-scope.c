/* lode-symbol-scope.c — scope paths: the module a file is, qualified names, Rust paths
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-symbol-scope.h"

/*
 * A definition's scope path is the module, package or namespace it is in, followed by the
 * classes around it: `crate::sync::semaphore::Semaphore` for the methods of tokio's
 * Semaphore, `grpc.ClientConn` for a Go method, `App\Models\User` for a PHP method. Files
 * declare their package in Go, Java, Kotlin, C# and PHP; in Rust, Python, JavaScript,
 * TypeScript and Swift the file is the module, named after its path, which is what this
 * file works out; C has no scopes, C++ and Ruby only the namespaces and modules the file
 * writes. The symbol tools accept the names they print, so a qualified name is compared
 * part by part, whatever joins the parts (`::`, `.`, `\`, `#`, `->`, `/`).
 */

static gboolean
is_rust_root_file (const char *name)
{
  return strcmp (name, "lib.rs") == 0 || strcmp (name, "main.rs") == 0;
}

/* Where the crate of @parts[0 … n) starts: the index after the last `src`, `tests`, `benches`
 * or `examples` folder (0 when there is none); *@per_file when each file directly in that
 * folder is a crate root of its own (tests, benches, examples, src/bin). */
static guint
rust_anchor (char     **parts,
             guint      n,
             gboolean  *per_file)
{
  static const char * const roots[] = { "src", "tests", "benches", "examples", NULL };

  *per_file = FALSE;
  for (guint i = n - 1; i-- > 0;)
    if (g_strv_contains (roots, parts[i]))
      {
        *per_file = strcmp (parts[i], "src") != 0;
        if (!*per_file && i + 2 < n && strcmp (parts[i + 1], "bin") == 0)
          {
            *per_file = TRUE;
            return i + 2;
          }
        return i + 1;
      }
  return 0;
}

/* tokio/src/sync/mod.rs → crate::sync; tokio/tests/sync_mpsc.rs → crate (a test crate);
 * tokio/tests/support/mod.rs → crate::support. */
static char *
rust_module (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  guint n = g_strv_length (parts);
  GString *out = g_string_new ("crate");
  gboolean per_file;
  guint start;

  if (n == 0)
    return g_string_free (out, FALSE);
  start = rust_anchor (parts, n, &per_file);
  if (per_file && (n - start == 1 ||
                   (n - start == 2 && strcmp (parts[n - 1], "main.rs") == 0)))
    return g_string_free (out, FALSE);

  for (guint i = start; i < n; i++)
    {
      char *part = parts[i];

      if (i == n - 1)
        {
          if (is_rust_root_file (part) || strcmp (part, "mod.rs") == 0 ||
              strcmp (part, "build.rs") == 0)
            break;
          if (g_str_has_suffix (part, ".rs"))
            part[strlen (part) - 3] = '\0';
        }
      g_string_append_printf (out, "::%s", part);
    }
  return g_string_free (out, FALSE);
}

/**
 * lode_symbol_rust_crate_dir:
 * @path: a Rust file's path in its project
 *
 * Returns: (transfer full): the folder of the crate @path belongs to, as a key that tells
 *   crates of one workspace apart (`tokio/src`, `tokio-util/src`); "" when the path shows none
 */
char *
lode_symbol_rust_crate_dir (const char *path)
{
  g_auto(GStrv) parts = g_strsplit (path, "/", -1);
  guint n = g_strv_length (parts);
  gboolean per_file;
  guint start = n > 0 ? rust_anchor (parts, n, &per_file) : 0;
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < start; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? "/" : "", parts[i]);
  return g_string_free (out, FALSE);
}

/* Without the extension, when it is one (a dot in the last part). */
static char *
path_stem (const char *path)
{
  char *stem = g_strdup (path);
  char *dot = strrchr (stem, '.');

  if (dot != NULL && strchr (dot, '/') == NULL)
    *dot = '\0';
  return stem;
}

/**
 * lode_symbol_file_module:
 * @language_id: the file's language
 * @path: its path in its project
 *
 * The module a file is in languages whose files are modules: a Rust module from the crate's
 * layout (`tokio/src/sync/semaphore.rs` → `crate::sync::semaphore`), a Python module
 * (`src/pkg/sub/models.py` → `pkg.sub.models`), a JavaScript or TypeScript module (the path
 * without its extension), a Swift module (the folder under `Sources/`, else the file's
 * folder).
 *
 * Returns: (transfer full) (nullable): the module, %NULL in other languages
 */
char *
lode_symbol_file_module (const char *language_id,
                         const char *path)
{
  g_return_val_if_fail (language_id != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (strcmp (language_id, "rust") == 0)
    return rust_module (path);
  if (strcmp (language_id, "python") == 0)
    {
      g_autofree char *stem = path_stem (path);
      char *p = g_str_has_prefix (stem, "src/") ? stem + 4 : stem;

      if (g_str_has_suffix (p, "/__init__"))
        p[strlen (p) - strlen ("/__init__")] = '\0';
      return g_strdelimit (g_strdup (p), "/", '.');
    }
  if (strcmp (language_id, "javascript") == 0 || strcmp (language_id, "typescript") == 0 ||
      strcmp (language_id, "tsx") == 0)
    return path_stem (path);
  if (strcmp (language_id, "swift") == 0)
    {
      const char *sources = strstr (path, "Sources/");
      g_autofree char *dir = NULL;

      if (sources != NULL && (sources == path || sources[-1] == '/'))
        {
          const char *start = sources + strlen ("Sources/");
          const char *slash = strchr (start, '/');

          if (slash != NULL)
            return g_strndup (start, slash - start);
        }
      dir = g_path_get_dirname (path);
      return strcmp (dir, ".") != 0 ? g_path_get_basename (dir) : NULL;
    }
  return NULL;
}

/**
 * lode_symbol_name_parts:
 * @name: a qualified name or scope path, as any language writes it
 *
 * Returns: (transfer full): its parts: `crate::sync::Semaphore`, `grpc.ClientConn.Close`,
 *   `App\Models\User::posts`, `Foo#bar`, `s->f` and `src/api/client.get` all split where
 *   their separators are
 */
GStrv
lode_symbol_name_parts (const char *name)
{
  static const char * const separators[] = { "::", "->", "\\", ".", "#", "/", NULL };
  GPtrArray *parts = g_ptr_array_new ();
  const char *start = name;
  const char *p = name;

  g_return_val_if_fail (name != NULL, NULL);

  while (*p != '\0')
    {
      gsize skip = 0;

      for (guint i = 0; separators[i] != NULL && skip == 0; i++)
        if (g_str_has_prefix (p, separators[i]))
          skip = strlen (separators[i]);
      if (skip == 0)
        {
          p++;
          continue;
        }
      if (p > start)
        g_ptr_array_add (parts, g_strndup (start, p - start));
      p += skip;
      start = p;
    }
  if (p > start)
    g_ptr_array_add (parts, g_strndup (start, p - start));
  g_ptr_array_add (parts, NULL);
  return (GStrv) g_ptr_array_free (parts, FALSE);
}

/**
 * lode_symbol_parts_end_with:
 * @parts: the parts of a scope path
 * @tail: the parts of a qualifier
 *
 * Returns: whether @tail is not empty and @parts end with it: `Notify` qualifies
 *   `crate::sync::notify::Notify` but not `crate::sync::notify::NotifyGuard`
 */
gboolean
lode_symbol_parts_end_with (const char * const *parts,
                            const char * const *tail)
{
  guint n = g_strv_length ((GStrv) parts);
  guint m = g_strv_length ((GStrv) tail);

  if (m == 0 || m > n)
    return FALSE;
  for (guint i = 0; i < m; i++)
    if (strcmp (parts[n - m + i], tail[i]) != 0)
      return FALSE;
  return TRUE;
}

/**
 * lode_symbol_parts_contain:
 * @parts: the parts of a scope path
 * @wanted: the parts of a qualifier
 *
 * Returns: whether @wanted is not empty and its parts come in @parts in that order:
 *   `crate::sync` in `crate::sync::semaphore` (a module that re-exports what its
 *   sub-module declares)
 */
gboolean
lode_symbol_parts_contain (const char * const *parts,
                           const char * const *wanted)
{
  guint n = g_strv_length ((GStrv) parts);
  guint m = g_strv_length ((GStrv) wanted);
  guint i = 0;

  if (m == 0 || m > n)
    return FALSE;
  for (guint j = 0; j < m && i < n; i++)
    if (strcmp (parts[i], wanted[j]) == 0)
      {
        if (++j == m)
          return TRUE;
      }
  return FALSE;
}

/* The module @module is in: crate::sync::mpsc → crate::sync; crate stays crate. */
static char *
rust_parent (const char *module)
{
  const char *last = g_strrstr (module, "::");

  return last != NULL ? g_strndup (module, last - module) : g_strdup (module);
}

/**
 * lode_symbol_rust_resolve:
 * @module: the module the path is written in (`crate::sync::mpsc::chan`)
 * @path: a Rust path as written there, without generic arguments (`bounded::Semaphore`)
 * @uses: (nullable): the file's `use` declarations: the name each brings into scope → the
 *   path as written (`bounded` → `crate::sync::mpsc::bounded`)
 * @children: (nullable): the names of the modules the file declares (`mod x;`), as a set
 *
 * Returns: (transfer full): the path from the crate root (`crate::sync::mpsc::bounded::
 *   Semaphore`), or as written when it starts in another crate (`std::fmt::Debug`)
 */
char *
lode_symbol_rust_resolve (const char *module,
                          const char *path,
                          GHashTable *uses,
                          GHashTable *children)
{
  g_auto(GStrv) segments = g_strsplit (path, "::", -1);
  g_autofree char *base = NULL;
  g_autofree char *rest = NULL;
  guint first = 1;

  g_return_val_if_fail (module != NULL, NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (segments[0] == NULL || strcmp (segments[0], "crate") == 0)
    return g_strdup (path);

  if (strcmp (segments[0], "self") == 0)
    base = g_strdup (module);
  else if (strcmp (segments[0], "super") == 0)
    {
      base = rust_parent (module);
      for (; segments[first] != NULL && strcmp (segments[first], "super") == 0; first++)
        {
          char *up = rust_parent (base);

          g_free (base);
          base = up;
        }
    }
  else if (uses != NULL && g_hash_table_contains (uses, segments[0]))
    base = lode_symbol_rust_resolve (module, g_hash_table_lookup (uses, segments[0]), NULL,
                                     children);
  else if (segments[1] == NULL ||
           (children != NULL && g_hash_table_contains (children, segments[0])))
    {
      /* An item or a child module of this module. */
      first = 0;
      base = g_strdup (module);
    }
  else
    return g_strdup (path);

  rest = g_strjoinv ("::", segments + first);
  if (*rest == '\0')
    return g_steal_pointer (&base);
  return g_strconcat (base, "::", rest, NULL);
}
