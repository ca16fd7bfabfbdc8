/* test-imports.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode-chunker.h"
#include "lode-import-resolver.h"
#include "lode-imports.h"

/* Every fixture project under fixtures/graph/<name>/ lists the exact edges its files make in
 * `expected-edges`, one "from -> to" or "from -> external:package" per line. */
#define EXPECTED_EDGES "expected-edges"

static void
list_files (const char *root,
            const char *rel,
            GPtrArray  *paths)
{
  g_autofree char *dir_path = g_build_filename (root, rel, NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = rel[0] != '\0' ? g_strconcat (rel, "/", name, NULL)
                                              : g_strdup (name);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        list_files (root, child, paths);
      else if (strcmp (child, EXPECTED_EDGES) != 0)
        g_ptr_array_add (paths, g_steal_pointer (&child));
    }
}

typedef struct
{
  char      *root;
  GPtrArray *paths;               /* project paths, sorted */
  GPtrArray *froms;               /* the importing path of each import */
  GPtrArray *imports;             /* LodeImport */
} Project;

static void
project_free (Project *project)
{
  g_free (project->root);
  g_ptr_array_unref (project->paths);
  g_ptr_array_unref (project->froms);
  g_ptr_array_unref (project->imports);
  g_free (project);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Project, project_free)

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* Reads a fixture project and extracts its imports the way the indexer does: through the
 * chunker, from the parse it makes for chunking. */
static Project *
project_load (const char *name)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  Project *project = g_new0 (Project, 1);

  project->root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "graph", name, NULL);
  project->paths = g_ptr_array_new_with_free_func (g_free);
  project->froms = g_ptr_array_new ();
  project->imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_import_free);
  list_files (project->root, "", project->paths);
  g_ptr_array_sort (project->paths, compare_strings);

  for (guint i = 0; i < project->paths->len; i++)
    {
      const char *path = project->paths->pdata[i];
      g_autofree char *full = g_build_filename (project->root, path, NULL);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) chunks = NULL;
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(GPtrArray) imports = NULL;
      g_autoptr(GError) error = NULL;
      const LodeLanguage *language;
      gsize len;

      g_assert_true (g_file_get_contents (full, &text, &len, &error));
      language = lode_language_for_content (NULL, path, text, len);
      g_assert_true (lode_chunker_chunk (chunker, language, text, len, &chunks, &symbols,
                                         &imports, &error));
      g_assert_no_error (error);

      for (guint j = 0; j < imports->len; j++)
        {
          g_ptr_array_add (project->froms, project->paths->pdata[i]);
          g_ptr_array_add (project->imports, lode_import_copy (imports->pdata[j]));
        }
    }

  return project;
}

static LodeImportResolver *
project_resolver (Project    *project,
                  const char *without)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();

  for (guint i = 0; i < project->paths->len; i++)
    if (without == NULL || strcmp (project->paths->pdata[i], without) != 0)
      g_ptr_array_add (paths, project->paths->pdata[i]);
  g_ptr_array_add (paths, NULL);

  return lode_import_resolver_new (project->root, (const char * const *) paths->pdata);
}

/* "to" of every edge of one import: its files, or "external:<package>". */
static GStrv
resolve_edges (LodeImportResolver *resolver,
               const char         *from,
               const LodeImport   *import)
{
  g_autofree char *package = NULL;
  g_auto(GStrv) targets = lode_import_resolver_resolve_all (resolver, from, import, &package);

  if (targets[0] == NULL)
    {
      g_autofree char *edge = NULL;
      const char *edges[2] = { NULL, NULL };

      g_assert_nonnull (package);
      edge = g_strconcat ("external:", package, NULL);
      edges[0] = edge;
      return g_strdupv ((char **) edges);
    }

  g_assert_null (package);
  return g_steal_pointer (&targets);
}

static GPtrArray *
sorted_unique (GPtrArray *lines)
{
  GPtrArray *unique = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    if (unique->len == 0 || strcmp (unique->pdata[unique->len - 1], lines->pdata[i]) != 0)
      g_ptr_array_add (unique, g_strdup (lines->pdata[i]));

  return unique;
}

static void
test_fixture (gconstpointer data)
{
  const char *name = data;
  g_autoptr(Project) project = project_load (name);
  g_autoptr(LodeImportResolver) resolver = project_resolver (project, NULL);
  g_autoptr(GPtrArray) edges = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) actual = NULL;
  g_autoptr(GPtrArray) wanted = NULL;
  g_autofree char *expected_path = g_build_filename (project->root, EXPECTED_EDGES, NULL);
  g_autofree char *expected_text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) diff = g_string_new (NULL);
  guint a = 0;
  guint w = 0;

  for (guint i = 0; i < project->imports->len; i++)
    {
      const char *from = project->froms->pdata[i];
      g_auto(GStrv) targets = resolve_edges (resolver, from, project->imports->pdata[i]);

      for (guint j = 0; targets[j] != NULL; j++)
        g_ptr_array_add (edges, g_strdup_printf ("%s -> %s", from, targets[j]));
    }

  g_assert_true (g_file_get_contents (expected_path, &expected_text, NULL, &error));
  lines = g_strsplit (expected_text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (expected, g_strdup (lines[i]));

  actual = sorted_unique (edges);
  wanted = sorted_unique (expected);

  while (a < actual->len || w < wanted->len)
    {
      int cmp = a == actual->len ? 1 : w == wanted->len ? -1
                : strcmp (actual->pdata[a], wanted->pdata[w]);

      if (cmp == 0)
        a++, w++;
      else if (cmp < 0)
        g_string_append_printf (diff, "  unexpected: %s\n", (char *) actual->pdata[a++]);
      else
        g_string_append_printf (diff, "  missing:    %s\n", (char *) wanted->pdata[w++]);
    }

  if (diff->len > 0)
    g_test_message ("Edges of the %s fixture differ:\n%s", name, diff->str);
  g_assert_cmpstr (diff->str, ==, "");
}

/* The key contract behind incremental updates: without any one file, every import whose key
 * is not among that file's keys resolves exactly as with it. Configuration files are the
 * exception: a change to one re-resolves everything. */
static void
test_keys (gconstpointer data)
{
  const char *name = data;
  g_autoptr(Project) project = project_load (name);
  g_autoptr(LodeImportResolver) full = project_resolver (project, NULL);

  for (guint f = 0; f < project->paths->len; f++)
    {
      const char *removed = project->paths->pdata[f];
      g_autoptr(LodeImportResolver) partial = NULL;
      g_auto(GStrv) keys = NULL;

      if (lode_import_resolver_is_config_file (removed))
        continue;

      partial = project_resolver (project, removed);
      keys = lode_import_resolver_dup_keys_for_path (full, removed);

      for (guint i = 0; i < project->imports->len; i++)
        {
          const char *from = project->froms->pdata[i];
          const LodeImport *import = project->imports->pdata[i];
          g_autofree char *key = lode_import_resolver_dup_key (full, from, import);
          g_auto(GStrv) with_edges = NULL;
          g_auto(GStrv) without_edges = NULL;
          g_autofree char *with = NULL;
          g_autofree char *without = NULL;

          if (strcmp (from, removed) == 0 || g_strv_contains ((const char * const *) keys, key))
            continue;

          with_edges = resolve_edges (full, from, import);
          without_edges = resolve_edges (partial, from, import);
          with = g_strjoinv (" ", with_edges);
          without = g_strjoinv (" ", without_edges);
          if (g_strcmp0 (with, without) != 0)
            g_test_message ("%s: %s (key %s) depends on %s", from, import->specifier, key,
                            removed);
          g_assert_cmpstr (with, ==, without);
        }
    }
}

static const char * const fixtures[] = {
  "c", "javascript", "python", "typescript",
};

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *edges = g_strdup_printf ("/lode/imports/edges/%s", fixtures[i]);
      g_autofree char *keys = g_strdup_printf ("/lode/imports/keys/%s", fixtures[i]);

      g_test_add_data_func (edges, fixtures[i], test_fixture);
      g_test_add_data_func (keys, fixtures[i], test_keys);
    }

  return g_test_run ();
}
