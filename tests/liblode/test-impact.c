/* test-impact.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-impact.h"
#include "test-helpers.h"

typedef struct
{
  char *root;
} RepoFixture;

static void
git (RepoFixture *fixture,
     const char  *args)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *command = g_strdup_printf ("git -c user.name=Lode -c user.email=lode@example.org "
                                              "-c init.defaultBranch=main %s", args);
  g_auto(GStrv) argv = NULL;
  int status = 0;

  g_assert_true (g_shell_parse_argv (command, NULL, &argv, &error));
  g_assert_true (g_spawn_sync (fixture->root, argv, NULL,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                               G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
}

static void
repo_setup (RepoFixture   *fixture,
            gconstpointer  data)
{
  fixture->root = g_build_filename (g_get_user_data_dir (), "repo", NULL);
  g_assert_cmpint (g_mkdir_with_parents (fixture->root, 0700), ==, 0);
  git (fixture, "init -q");
  test_write_file (fixture->root, "src/a.c", "int a;\n");
  test_write_file (fixture->root, "src/b.c", "#include \"a.h\"\n");
  test_write_file (fixture->root, "src/old.c", "int old;\n");
  test_write_file (fixture->root, "README", "hello\n");
  git (fixture, "add -A");
  git (fixture, "commit -q -m one");
}

static void
repo_teardown (RepoFixture   *fixture,
               gconstpointer  data)
{
  g_free (fixture->root);
}

static char *
changes_to_string (GPtrArray *files)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < files->len; i++)
    {
      const LodeChangedFile *file = g_ptr_array_index (files, i);

      g_string_append_printf (out, "%s%c:%s", i > 0 ? " " : "", file->status, file->path);
      if (file->old_path != NULL)
        g_string_append_printf (out, "<%s", file->old_path);
    }

  return g_string_free (out, FALSE);
}

static void
test_work_tree (RepoFixture   *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) clean = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *text = NULL;

  clean = lode_git_dup_changed_files (fixture->root, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (clean->len, ==, 0);

  test_write_file (fixture->root, "src/a.c", "int a = 1;\n");
  test_write_file (fixture->root, "src/new.c", "int n;\n");
  git (fixture, "mv src/old.c src/renamed.c");
  git (fixture, "rm -q README");

  files = lode_git_dup_changed_files (fixture->root, NULL, NULL, &error);
  g_assert_no_error (error);
  text = changes_to_string (files);
  g_assert_cmpstr (text, ==, "D:README M:src/a.c ?:src/new.c R:src/renamed.c<src/old.c");
}

/* A tree's configuration may name a command for git to run (core.fsmonitor): asking what
 * changed must not run it. */
static void
test_no_commands_from_tree (RepoFixture   *fixture,
                            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *hook = g_build_filename (fixture->root, "hook.sh", NULL);
  g_autofree char *marker = g_build_filename (fixture->root, "hook-ran", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\ntouch '%s'\nexit 1\n", marker);
  g_autofree char *config = g_strdup_printf ("config core.fsmonitor %s", hook);
  g_autofree char *text = NULL;

  g_assert_true (g_file_set_contents (hook, script, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (hook, 0755), ==, 0);
  git (fixture, config);
  test_write_file (fixture->root, "src/a.c", "int a = 2;\n");

  files = lode_git_dup_changed_files (fixture->root, NULL, NULL, &error);
  g_assert_no_error (error);
  text = changes_to_string (files);
  g_assert_cmpstr (text, ==, "?:hook.sh M:src/a.c");
  g_clear_pointer (&files, g_ptr_array_unref);
  files = lode_git_dup_changed_files (fixture->root, "HEAD", NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));

  /* The hook does run when git is asked directly: the test would see it. */
  git (fixture, "ls-files --others");
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
}

/* A filter driver of the tree's configuration: git would run its clean command on every
 * stat-dirty file while it compares the work tree with the index. */
static void
test_no_filters_from_tree (RepoFixture   *fixture,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *filter = g_build_filename (fixture->root, ".git", "filter.sh", NULL);
  g_autofree char *marker = g_build_filename (fixture->root, ".git", "filter-ran", NULL);
  g_autofree char *script = g_strdup_printf ("#!/bin/sh\ntouch '%s'\nexec cat\n", marker);
  g_autofree char *clean = g_strdup_printf ("config filter.a.b=c.clean %s", filter);
  g_autofree char *text = NULL;

  g_assert_true (g_file_set_contents (filter, script, -1, &error));
  g_assert_no_error (error);
  g_assert_cmpint (g_chmod (filter, 0755), ==, 0);
  test_write_file (fixture->root, ".git/info/attributes", "*.c filter=a.b=c\n");
  git (fixture, clean);
  git (fixture, "config filter.a.b=c.required true");
  test_write_file (fixture->root, "src/a.c", "int a = 2;\n");

  files = lode_git_dup_changed_files (fixture->root, NULL, NULL, &error);
  g_assert_no_error (error);
  text = changes_to_string (files);
  g_assert_cmpstr (text, ==, "M:src/a.c");
  g_assert_false (g_file_test (marker, G_FILE_TEST_EXISTS));

  /* The filter does run when git is asked directly: the test would see it. */
  git (fixture, "diff --name-status HEAD");
  g_assert_true (g_file_test (marker, G_FILE_TEST_EXISTS));
}

static void
test_range (RepoFixture   *fixture,
            gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) sub = NULL;
  g_autofree char *text = NULL;
  g_autofree char *subdir = NULL;
  g_autofree char *sub_text = NULL;

  test_write_file (fixture->root, "src/b.c", "#include \"a.h\"\nint b;\n");
  test_write_file (fixture->root, "lib/c.c", "int c;\n");
  git (fixture, "add -A");
  git (fixture, "commit -q -m two");

  files = lode_git_dup_changed_files (fixture->root, "HEAD~1..HEAD", NULL, &error);
  g_assert_no_error (error);
  text = changes_to_string (files);
  g_assert_cmpstr (text, ==, "A:lib/c.c M:src/b.c");

  /* From a subdirectory: paths relative to it, changes elsewhere left out. */
  subdir = g_build_filename (fixture->root, "src", NULL);
  sub = lode_git_dup_changed_files (subdir, "HEAD~1", NULL, &error);
  g_assert_no_error (error);
  sub_text = changes_to_string (sub);
  g_assert_cmpstr (sub_text, ==, "M:b.c");
}

static void
test_bad_input (RepoFixture   *fixture,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *outside = NULL;

  files = lode_git_dup_changed_files (fixture->root, "no-such-branch..HEAD", NULL, &error);
  g_assert_null (files);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "no-such-branch"));
  g_clear_error (&error);

  /* An option is not a revision. */
  files = lode_git_dup_changed_files (fixture->root, "--output=/tmp/x", NULL, &error);
  g_assert_null (files);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  outside = g_build_filename (g_get_user_cache_dir (), "not-a-repo", NULL);
  g_assert_cmpint (g_mkdir_with_parents (outside, 0700), ==, 0);
  files = lode_git_dup_changed_files (outside, NULL, NULL, &error);
  g_assert_null (files);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
}

static void
test_rank (void)
{
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(GPtrArray) changed = g_ptr_array_new_with_free_func (
    (GDestroyNotify) lode_changed_file_free);
  g_autoptr(GArray) ranked = NULL;
  LodeChangedFile *file;
  GString *text = g_string_new (NULL);
  g_autofree char *result = NULL;
  guint util, log, api, cli, web, test, main_id;

  util = lode_graph_add_file (graph, "util.c", "c");
  log = lode_graph_add_file (graph, "log.c", "c");
  api = lode_graph_add_file (graph, "api.c", "c");
  cli = lode_graph_add_file (graph, "cli.c", "c");
  web = lode_graph_add_file (graph, "web.c", "c");
  test = lode_graph_add_file (graph, "test.c", "c");
  main_id = lode_graph_add_file (graph, "main.c", "c");
  lode_graph_add_edge (graph, api, util);
  lode_graph_add_edge (graph, api, log);
  lode_graph_add_edge (graph, cli, util);
  lode_graph_add_edge (graph, web, api);
  lode_graph_add_edge (graph, test, api);
  lode_graph_add_edge (graph, main_id, cli);
  lode_graph_freeze (graph);

  /* util.c changed; log.c was renamed from old-log.c. */
  file = g_new0 (LodeChangedFile, 1);
  file->path = g_strdup ("util.c");
  file->status = 'M';
  g_ptr_array_add (changed, file);
  file = g_new0 (LodeChangedFile, 1);
  file->path = g_strdup ("new-log.c");
  file->old_path = g_strdup ("log.c");
  file->status = 'R';
  g_ptr_array_add (changed, file);

  ranked = lode_impact_rank (graph, changed, 3);
  for (guint i = 0; i < ranked->len; i++)
    {
      const LodeImpactFile *hit = &g_array_index (ranked, LodeImpactFile, i);

      g_string_append_printf (text, "%s:%u:%u:%u ", hit->path, hit->distance, hit->links,
                              hit->n_dependents);
    }
  result = g_string_free (text, FALSE);

  /* The changed files first, util.c with more dependents before log.c. api.c imports both
   * changed files: first at distance 1. At distance 2, ties go by path. */
  g_assert_cmpstr (result, ==,
                   "util.c:0:0:2 log.c:0:0:1 api.c:1:2:2 cli.c:1:1:1 main.c:2:1:0 "
                   "test.c:2:1:0 web.c:2:1:0 ");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/impact/work-tree", RepoFixture, NULL, repo_setup, test_work_tree,
              repo_teardown);
  g_test_add ("/lode/impact/range", RepoFixture, NULL, repo_setup, test_range, repo_teardown);
  g_test_add ("/lode/impact/no-commands-from-tree", RepoFixture, NULL, repo_setup,
              test_no_commands_from_tree, repo_teardown);
  g_test_add ("/lode/impact/no-filters-from-tree", RepoFixture, NULL, repo_setup,
              test_no_filters_from_tree, repo_teardown);
  g_test_add ("/lode/impact/bad-input", RepoFixture, NULL, repo_setup, test_bad_input,
              repo_teardown);
  g_test_add_func ("/lode/impact/rank", test_rank);

  return g_test_run ();
}
