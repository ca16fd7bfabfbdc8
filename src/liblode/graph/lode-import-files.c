/* lode-import-files.c — the import resolver's indexes of a project's files, and path helpers
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-import-resolver"

#include "config.h"

#include <string.h>

#include "lode-import-declarations-private.h"
#include "lode-import-resolver-private.h"

/**
 * lode_import_common_dirs:
 * @path: a project path
 * @other: another project path
 *
 * How many leading directories @path and @other have in common, whole ones only:
 * `lib/zstd.h` and `lib/compress/zstd_compress.c` share one, `src/foo/a.c` and
 * `src/foobar/b.h` one too. Where the build is not known, the nearer of two files of one
 * name is the likelier meant (a header, a definition of a declaration).
 *
 * Returns: the number of directories
 */
guint
lode_import_common_dirs (const char *path,
                         const char *other)
{
  guint dirs = 0;

  for (gsize i = 0; path[i] != '\0' && path[i] == other[i]; i++)
    if (path[i] == '/')
      dirs++;
  return dirs;
}

/* Whether the directories @path begins with, its first @dirs_len bytes (each ending with
 * '/'), hold an `include` one with another below it (`include/linux/` of
 * `include/linux/zstd.h`): such a header is included by its path from `include`
 * (`<linux/zstd.h>`), so a shorter name more likely means another. */
static gboolean
below_include_dir (const char *path,
                   gsize       dirs_len)
{
  const char *end = path + dirs_len;

  for (const char *c = path; c < end;)
    {
      const char *slash = memchr (c, '/', end - c);

      if (slash - c == 7 && memcmp (c, "include", 7) == 0 && slash + 1 < end)
        return TRUE;
      c = slash + 1;
    }
  return FALSE;
}

/* Among the project files named like @suffix's last component, those whose path ends with
 * @suffix, as if the project's include directories held them all (C and C++ headers, a
 * shell script's sourced file); which one a compiler would take depends on the `-I`
 * directories the build gives it, which are not known here. The guess, in order: not one
 * below an `include` directory's subdirectory (below_include_dir()); the one sharing the
 * most leading directories with @from (its own subproject); the one nearest to those
 * shared directories (`tree.h`, not `reftable/tree.h`, from `builtin/clone.c`); then the
 * first by name. NULL when none ends with @suffix. */
const char *
_lode_import_find_by_suffix (LodeImportResolver *self,
                             const char         *from,
                             const char         *suffix)
{
  GPtrArray *named = g_hash_table_lookup (self->basenames, path_basename (suffix));
  const char *best = NULL;
  gboolean best_below = FALSE;
  guint best_common = 0;
  guint best_depth = 0;
  gsize suffix_len = strlen (suffix);

  for (guint i = 0; named != NULL && i < named->len; i++)
    {
      const char *path = named->pdata[i];
      gsize len = strlen (path);
      gboolean below;
      guint common;
      guint depth = 0;

      if (len < suffix_len || strcmp (path + len - suffix_len, suffix) != 0 ||
          (len > suffix_len && path[len - suffix_len - 1] != '/'))
        continue;

      below = below_include_dir (path, len - suffix_len);
      common = lode_import_common_dirs (path, from);
      for (const char *c = strchr (path, '/'); c != NULL; c = strchr (c + 1, '/'))
        depth++;
      depth -= common;
      if (best == NULL || below < best_below ||
          (below == best_below && (common > best_common ||
           (common == best_common && (depth < best_depth ||
            (depth == best_depth && strcmp (path, best) < 0))))))
        {
          best = path;
          best_below = below;
          best_common = common;
          best_depth = depth;
        }
    }

  return best;
}

/* @rel joined to @dir, with "." and ".." folded; NULL if it leaves the project. A leading
 * '/' in @rel starts from the root. */
char *
_lode_import_path_join (const char *dir,
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

/* Keys: lower-cased, leading underscores dropped (SCSS partials), cut at the first dot. */
char *
_lode_import_key_for_component (const char *component,
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

char *
_lode_import_key_for_last_component (const char *path)
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

  return _lode_import_key_for_component (start, end - start);
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

/* Reads the first @max bytes of a project file (all of it when it is shorter), NUL-terminated,
 * so a longer file is cut there, not refused; NULL when it is missing or unreadable. The
 * buffer is as large as the file when it is shorter: one of @max for each Makefile (1 MiB,
 * freed soon after; 23 for git) raised glibc's threshold for blocks mapped on their own
 * (bench/README.md, "glibc's moving mmap threshold"). */
char *
_lode_import_read_project_file (LodeImportResolver *self,
                                const char         *path,
                                gsize               max,
                                gsize              *len)
{
  g_autofree char *full = g_build_filename (self->root, path, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (full);
  g_autoptr(GFileInputStream) stream = NULL;
  g_autoptr(GFileInfo) info = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *buf = NULL;
  gsize n = 0;

  stream = g_file_read (file, NULL, &error);
  if (stream != NULL)
    {
      info = g_file_input_stream_query_info (stream, G_FILE_ATTRIBUTE_STANDARD_SIZE, NULL, NULL);
      if (info != NULL && g_file_info_has_attribute (info, G_FILE_ATTRIBUTE_STANDARD_SIZE))
        max = MIN (max, (guint64) g_file_info_get_size (info));
      buf = g_malloc (max + 1);
    }
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

/* @path must be the string owned by `files`: the multimaps borrow it. */
static void
index_declarations (LodeImportResolver *self,
                    const char         *path)
{
  g_autofree char *head = NULL;
  GStrv declared;
  gsize len = 0;

  head = _lode_import_read_project_file (self, path, DECLARATION_HEAD_BYTES, &len);
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

gboolean
_lode_import_index_file (LodeImportResolver *self,
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

  if (_lode_import_declares_packages (stored))
    index_declarations (self, stored);

  return TRUE;
}

gboolean
_lode_import_unindex_file (LodeImportResolver *self,
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

/* Derived indexes. */

void
_lode_import_ensure_derived (LodeImportResolver *self)
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
      g_autofree char *parent_init = _lode_import_path_join (parent, "__init__.py");
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
