/* fuzz-imports.c — the import extraction of every language (the imports.scm queries and the
 * scanners of CSS, HTML/Vue/Svelte and Dart) and the import resolver
 *
 * An input is a file name, a newline, and the file's text. The imports found are resolved in
 * a project made of the graph fixtures (tests/liblode/fixtures/graph: every language, with
 * their tsconfig, go.mod, Cargo.toml, composer.json, pubspec.yaml…) plus the input's path.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-import-resolver.h"
#include "lode-imports.h"

#define FIXTURES LODE_SOURCE_ROOT "/tests/liblode/fixtures/graph"

static LodeImportResolver *resolver;

static void
list_files (const char *dir,
            const char *rel,
            GPtrArray  *paths)
{
  g_autoptr(GDir) d = g_dir_open (dir, 0, NULL);
  const char *name;

  while (d != NULL && (name = g_dir_read_name (d)) != NULL)
    {
      g_autofree char *full = g_build_filename (dir, name, NULL);
      g_autofree char *child = *rel != '\0' ? g_strconcat (rel, "/", name, NULL)
                                            : g_strdup (name);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        list_files (full, child, paths);
      else
        g_ptr_array_add (paths, g_steal_pointer (&child));
    }
}

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new_with_free_func (g_free);

  list_files (FIXTURES, "", paths);
  g_assert_cmpuint (paths->len, >, 50);
  g_ptr_array_add (paths, NULL);
  resolver = lode_import_resolver_new (FIXTURES, (const char * const *) paths->pdata);
  return 0;
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = NULL;
  g_autofree char *text = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GError) error = NULL;
  const LodeLanguage *language;
  gsize len;

  fuzz_split_first_line (data, size, &path, &text, &len);
  if (!g_utf8_validate (path, -1, NULL) || !g_utf8_validate_len (text, len, NULL))
    return 0;

  language = lode_language_for_content (lode_language_for_path (path), path, text, len);
  if (!lode_imports_extract (language, text, len, NULL, &imports, &error))
    {
      g_assert_nonnull (error);
      return 0;
    }

  for (guint i = 0; i < imports->len; i++)
    {
      const LodeImport *import = g_ptr_array_index (imports, i);
      g_auto(GStrv) targets = NULL;
      g_autofree char *package = NULL;
      g_autofree char *key = NULL;

      g_assert_cmpuint (strlen (import->specifier), >, 0);
      g_assert_cmpuint (strlen (import->specifier), <=, 1024);
      g_assert_true (g_utf8_validate (import->specifier, -1, NULL));
      g_assert_cmpuint (import->line, >=, 1);

      targets = lode_import_resolver_resolve_all (resolver, path, import, &package);
      g_assert_nonnull (targets);
      /* Never to nothing: a project file, or else an external package. */
      for (guint t = 0; targets[t] != NULL; t++)
        g_assert_true (lode_import_resolver_has_file (resolver, targets[t]));
      key = lode_import_resolver_dup_key (resolver, path, import);
    }

  return 0;
}
