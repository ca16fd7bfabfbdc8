/* test-graph-index.c — the import graph as indexing maintains it
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <glib/gstdio.h>

#include "lode.h"
#include "lode-graph-report.h"
#include "lode-store.h"
#include "test-helpers.h"

/* 50 directories of 50 C files and their 50 headers. */
#define N_DIRS        50
#define FILES_PER_DIR 50

typedef struct
{
  char        *root;
  LodeConfig  *config;
  LodeEngine  *engine;
  LodeProject *project;
} Fixture;

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = g_build_filename (g_get_user_data_dir (), "lode", NULL);

  fixture->root = g_build_filename (g_get_user_cache_dir (), "tree", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->root, 0755), ==, 0);
  fixture->config = lode_config_new_default ();
  g_free (fixture->config->data_dir);
  fixture->config->data_dir = g_steal_pointer (&data_dir);
  fixture->engine = lode_engine_new (fixture->config);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->project);
  g_clear_object (&fixture->engine);
  g_clear_pointer (&fixture->config, lode_config_free);
  g_free (fixture->root);
}

static LodeIndexReport *
index_tree (Fixture *fixture)
{
  g_autoptr(GError) error = NULL;
  LodeIndexReport *report;

  if (fixture->project == NULL)
    {
      fixture->project = lode_engine_open_project (fixture->engine, fixture->root, FALSE,
                                                   &error);
      g_assert_no_error (error);
    }

  report = lode_project_index (fixture->project, NULL, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (report);

  return report;
}

/* Where every import of @path leads, by line: project paths (joined by ","), "pkg:NAME" or
 * "?" */
static char *
imports_of (Fixture    *fixture,
            const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) imports = lode_project_dup_imports (fixture->project, path, &error);
  GString *out = g_string_new (NULL);

  g_assert_no_error (error);
  for (guint i = 0; i < imports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (imports, i);

      if (i > 0)
        g_string_append_c (out, ' ');
      if (import->targets != NULL && import->targets[0] != NULL)
        {
          g_autofree char *targets = g_strjoinv (",", import->targets);

          g_string_append (out, targets);
        }
      else if (import->package != NULL)
        g_string_append_printf (out, "pkg:%s", import->package);
      else
        g_string_append_c (out, '?');
    }

  return g_string_free (out, FALSE);
}

static char *
dependents_of (Fixture    *fixture,
               const char *path)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeGraph) graph = lode_project_load_graph (fixture->project, &error);
  GString *out = g_string_new (NULL);
  const guint *dependents;
  guint n = 0;
  guint id;

  g_assert_no_error (error);
  g_assert_true (lode_graph_lookup (graph, path, &id));
  dependents = lode_graph_get_dependents (graph, id, &n);
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "",
                            lode_graph_get_path (graph, dependents[i]));

  return g_string_free (out, FALSE);
}

/* File j of directory d includes its own header and the next file's (in the next directory
 * for the last file of a directory, through a relative path), and <stdio.h>. */
static void
write_fixture (Fixture *fixture)
{
  for (guint d = 0; d < N_DIRS; d++)
    for (guint j = 0; j < FILES_PER_DIR; j++)
      {
        g_autofree char *c_path = g_strdup_printf ("d%02u/f%02u.c", d, j);
        g_autofree char *h_path = g_strdup_printf ("d%02u/f%02u.h", d, j);
        g_autofree char *next = NULL;
        g_autofree char *c_text = NULL;
        g_autofree char *h_text = g_strdup_printf ("int f%02u_%02u (void);\n", d, j);

        if (j + 1 < FILES_PER_DIR)
          next = g_strdup_printf ("f%02u.h", j + 1);
        else
          next = g_strdup_printf ("../d%02u/f00.h", (d + 1) % N_DIRS);
        c_text = g_strdup_printf ("#include <stdio.h>\n#include \"f%02u.h\"\n#include \"%s\"\n"
                                  "int f%02u_%02u (void) { return 0; }\n", j, next, d, j);
        test_write_file (fixture->root, c_path, c_text);
        test_write_file (fixture->root, h_path, h_text);
      }
}

static void
test_change_one_file (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) second = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *old_dependents = NULL;
  g_autofree char *new_dependents = NULL;
  g_autofree char *other = NULL;

  write_fixture (fixture);
  first = index_tree (fixture);
  g_assert_cmpuint (first->n_files, ==, 2 * N_DIRS * FILES_PER_DIR);
  g_assert_cmpuint (first->n_parsed, ==, 2 * N_DIRS * FILES_PER_DIR);

  before = imports_of (fixture, "d07/f49.c");
  g_assert_cmpstr (before, ==, "pkg:stdio.h d07/f49.h d08/f00.h");
  old_dependents = dependents_of (fixture, "d03/f11.h");
  g_assert_cmpstr (old_dependents, ==, "d03/f10.c d03/f11.c");

  /* d03/f10.c now includes f12.h instead of f11.h. */
  test_write_file (fixture->root, "d03/f10.c",
                   "#include <stdio.h>\n#include \"f10.h\"\n#include \"f12.h\"\nint x;\n");
  second = index_tree (fixture);

  /* Only the changed file was parsed; every other one kept its imports. */
  g_assert_cmpuint (second->n_parsed, ==, 1);
  g_assert_cmpuint (second->n_updated, ==, 1);
  g_assert_cmpuint (second->n_unchanged, ==, 2 * N_DIRS * FILES_PER_DIR - 1);

  after = imports_of (fixture, "d03/f10.c");
  g_assert_cmpstr (after, ==, "pkg:stdio.h d03/f10.h d03/f12.h");
  new_dependents = dependents_of (fixture, "d03/f11.h");
  g_assert_cmpstr (new_dependents, ==, "d03/f11.c");
  other = imports_of (fixture, "d07/f49.c");
  g_assert_cmpstr (other, ==, before);
}

static void
test_add_remove_file (Fixture       *fixture,
                      gconstpointer  data)
{
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) added = NULL;
  g_autoptr(LodeIndexReport) removed = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *found = NULL;
  g_autofree char *lost = NULL;
  g_autofree char *header = g_build_filename (fixture->root, "lib", "config.h", NULL);

  test_write_file (fixture->root, "main.c",
                   "#include \"lib/config.h\"\nint main (void) { return 0; }\n");
  test_write_file (fixture->root, "util.c", "#include \"util.h\"\n");
  test_write_file (fixture->root, "util.h", "int util (void);\n");
  first = index_tree (fixture);
  missing = imports_of (fixture, "main.c");
  g_assert_cmpstr (missing, ==, "pkg:lib");

  /* The new header is parsed, main.c is not, and its include now resolves to the header. */
  test_write_file (fixture->root, "lib/config.h", "#define DEBUG 1\n");
  added = index_tree (fixture);
  g_assert_cmpuint (added->n_parsed, ==, 1);
  g_assert_cmpuint (added->n_added, ==, 1);
  found = imports_of (fixture, "main.c");
  g_assert_cmpstr (found, ==, "lib/config.h");

  /* Removed again: nothing is parsed, and the include no longer points at it. */
  g_assert_cmpint (g_unlink (header), ==, 0);
  removed = index_tree (fixture);
  g_assert_cmpuint (removed->n_parsed, ==, 0);
  g_assert_cmpuint (removed->n_removed, ==, 1);
  lost = imports_of (fixture, "main.c");
  g_assert_cmpstr (lost, ==, missing);
}

/* A Java file found through the package it declares, not its path: a change of that
 * declaration moves the edges of unchanged importers. */
static void
test_declared_package (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) moved = NULL;
  g_autoptr(LodeIndexReport) back = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *again = NULL;

  test_write_file (fixture->root, "app/Main.java",
                   "package com.example.app;\n\nimport com.example.util.Strings;\n\n"
                   "class Main {}\n");
  test_write_file (fixture->root, "lib/Strings.java",
                   "package com.example.util;\n\nclass Strings {}\n");
  first = index_tree (fixture);
  before = imports_of (fixture, "app/Main.java");
  g_assert_cmpstr (before, ==, "lib/Strings.java");

  test_write_file (fixture->root, "lib/Strings.java",
                   "package com.example.text;\n\nclass Strings {}\n");
  moved = index_tree (fixture);
  g_assert_cmpuint (moved->n_parsed, ==, 1);
  after = imports_of (fixture, "app/Main.java");
  g_assert_cmpstr (after, ==, "pkg:com.example.util");

  test_write_file (fixture->root, "lib/Strings.java",
                   "package com.example.util;\n\nclass Strings {}\n");
  back = index_tree (fixture);
  g_assert_cmpuint (back->n_parsed, ==, 1);
  again = imports_of (fixture, "app/Main.java");
  g_assert_cmpstr (again, ==, before);
}

/* A configuration file changes how any import resolves: all stored imports are resolved
 * again, none is parsed. */
static void
test_config_file (Fixture       *fixture,
                  gconstpointer  data)
{
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) configured = NULL;
  g_autoptr(LodeIndexReport) unconfigured = NULL;
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  g_autofree char *again = NULL;
  g_autofree char *tsconfig = g_build_filename (fixture->root, "tsconfig.json", NULL);

  test_write_file (fixture->root, "src/app.ts", "import { util } from \"@lib/util\";\nutil ();\n");
  test_write_file (fixture->root, "lib/util.ts", "export function util () {}\n");
  first = index_tree (fixture);
  before = imports_of (fixture, "src/app.ts");
  g_assert_cmpstr (before, ==, "pkg:@lib/util");

  test_write_file (fixture->root, "tsconfig.json",
                   "{\"compilerOptions\": {\"baseUrl\": \".\",\n"
                   "                     \"paths\": {\"@lib/*\": [\"lib/*\"]}}}\n");
  configured = index_tree (fixture);
  g_assert_cmpuint (configured->n_parsed, ==, 1);
  after = imports_of (fixture, "src/app.ts");
  g_assert_cmpstr (after, ==, "lib/util.ts");

  g_assert_cmpint (g_unlink (tsconfig), ==, 0);
  unconfigured = index_tree (fixture);
  g_assert_cmpuint (unconfigured->n_parsed, ==, 0);
  again = imports_of (fixture, "src/app.ts");
  g_assert_cmpstr (again, ==, before);
}

/* A run stopped after storing a new file but before resolving other files' imports again:
 * the next run resumes it and resolves every stored import again. */
static void
test_resumed_run (Fixture       *fixture,
                  gconstpointer  data)
{
  const char header[] = "#define DEBUG 1\n";
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) resumed = NULL;
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA1);
  g_autoptr(GPtrArray) chunks = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *blob = g_strdup_printf ("blob %zu", strlen (header));
  g_autofree char *before = NULL;
  g_autofree char *after = NULL;
  LodeFileInfo info = { 0 };

  test_write_file (fixture->root, "main.c", "#include \"lib/config.h\"\n");
  first = index_tree (fixture);
  before = imports_of (fixture, "main.c");
  g_assert_cmpstr (before, ==, "pkg:lib");

  /* What the stopped run left: the header stored with its content hash (a git blob id), the
   * index still marked as being written. */
  test_write_file (fixture->root, "lib/config.h", header);
  g_checksum_update (checksum, (const guchar *) blob, strlen (blob) + 1);
  g_checksum_update (checksum, (const guchar *) header, strlen (header));
  info.path = "lib/config.h";
  info.language = "c";
  info.hash = g_checksum_get_string (checksum);
  info.size = strlen (header);
  info.n_lines = 1;
  store = LODE_INDEX_STORE (lode_store_open (lode_project_get_db_path (fixture->project), &error));
  g_assert_no_error (error);
  g_assert_true (lode_index_store_put_file (store, &info, chunks, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (lode_index_store_set_meta (store, "state", "indexing", &error));
  g_assert_no_error (error);
  g_clear_object (&store);

  resumed = index_tree (fixture);
  g_assert_true (resumed->resumed);
  g_assert_cmpuint (resumed->n_parsed, ==, 0);
  after = imports_of (fixture, "main.c");
  g_assert_cmpstr (after, ==, "lib/config.h");
}

static void
test_remove_and_build (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeIndexReport) first = NULL;
  g_autoptr(LodeIndexReport) off = NULL;
  g_autoptr(LodeIndexReport) rebuilt = NULL;
  g_autoptr(JsonObject) removed = NULL;
  g_autoptr(JsonObject) status = NULL;
  g_autoptr(JsonObject) built = NULL;
  g_autofree char *restored = NULL;

  test_write_file (fixture->root, "a.c", "#include \"b.h\"\n");
  test_write_file (fixture->root, "b.h", "int b;\n");
  first = index_tree (fixture);

  removed = lode_graph_report_remove (fixture->project, &error);
  g_assert_no_error (error);
  status = lode_graph_report_status (fixture->project, &error);
  g_assert_no_error (error);
  g_assert_false (json_object_get_boolean_member (status, "enabled"));
  g_assert_cmpint (json_object_get_int_member (status, "imports"), ==, 0);

  /* A change while the graph is off records no imports. */
  test_write_file (fixture->root, "a.c", "#include \"b.h\"\nint a;\n");
  off = index_tree (fixture);
  g_assert_cmpuint (off->n_parsed, ==, 1);
  g_clear_pointer (&status, json_object_unref);
  status = lode_graph_report_status (fixture->project, &error);
  g_assert_cmpint (json_object_get_int_member (status, "imports"), ==, 0);

  /* Building again parses everything once and restores the edges. */
  g_assert_true (lode_project_set_graph_enabled (fixture->project, TRUE, &error));
  g_assert_no_error (error);
  rebuilt = index_tree (fixture);
  built = lode_graph_report_indexed (fixture->project, rebuilt, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (built, "parsed"), ==, 2);
  g_assert_cmpint (json_object_get_int_member (built, "internal"), ==, 1);
  restored = imports_of (fixture, "a.c");
  g_assert_cmpstr (restored, ==, "b.h");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/graph-index/change-one-file", Fixture, NULL, fixture_setup,
              test_change_one_file, fixture_teardown);
  g_test_add ("/lode/graph-index/add-remove-file", Fixture, NULL, fixture_setup,
              test_add_remove_file, fixture_teardown);
  g_test_add ("/lode/graph-index/declared-package", Fixture, NULL, fixture_setup,
              test_declared_package, fixture_teardown);
  g_test_add ("/lode/graph-index/config-file", Fixture, NULL, fixture_setup, test_config_file,
              fixture_teardown);
  g_test_add ("/lode/graph-index/resumed-run", Fixture, NULL, fixture_setup, test_resumed_run,
              fixture_teardown);
  g_test_add ("/lode/graph-index/remove-and-build", Fixture, NULL, fixture_setup,
              test_remove_and_build, fixture_teardown);

  return g_test_run ();
}
