/* test-git-command.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>
#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-git-command.h"
#include "test-helpers.h"

typedef struct
{
  char *root;
  char *script;   /* creates the marker when run */
  char *marker;
} GitFixture;

static void
git (GitFixture *fixture,
     const char *args)
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

static char *
run_text (GitFixture         *fixture,
          const char * const *args,
          GError            **error)
{
  g_autoptr(GBytes) out = lode_git_run (fixture->root, args, NULL, error);
  gsize len = 0;
  const char *data;

  if (out == NULL)
    return NULL;
  data = g_bytes_get_data (out, &len);
  return g_strndup (len > 0 ? data : "", len);
}

static void
git_fixture_setup (GitFixture    *fixture,
                   gconstpointer  data)
{
  g_autofree char *text = NULL;

  fixture->root = g_build_filename (g_get_user_data_dir (), "repo", NULL);
  fixture->marker = g_build_filename (g_get_user_cache_dir (), "ran", NULL);
  fixture->script = g_build_filename (g_get_user_cache_dir (), "run.sh", NULL);
  text = g_strdup_printf ("#!/bin/sh\necho \"$0 $*\" >> '%s'\ncat\n", fixture->marker);
  g_assert_cmpint (g_mkdir_with_parents (g_get_user_cache_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (fixture->script, text, -1, NULL));
  g_assert_cmpint (g_chmod (fixture->script, 0755), ==, 0);

  g_assert_cmpint (g_mkdir_with_parents (fixture->root, 0700), ==, 0);
  git (fixture, "init -q");
  test_write_file (fixture->root, "a.c", "int a;\n");
  git (fixture, "add a.c");
  git (fixture, "commit -q -m one");
  test_write_file (fixture->root, "a.c", "int a = 1;\n");
  git (fixture, "commit -q -a -m two");
}

static void
git_fixture_teardown (GitFixture    *fixture,
                      gconstpointer  data)
{
  g_free (fixture->root);
  g_free (fixture->script);
  g_free (fixture->marker);
}

static void
assert_no_marker (GitFixture *fixture,
                  const char *what)
{
  g_autofree char *ran = NULL;

  if (g_file_get_contents (fixture->marker, &ran, NULL, NULL))
    g_test_fail_printf ("%s ran a command of the repository's configuration: %s", what, ran);
}

/* The commands a history miner runs show diffs and blame: a diff driver's external command
 * or text conversion, a pager, hooks and gpg (log.showSignature) never run, and the text is
 * the files' own. */
static void
test_history_commands (GitFixture    *fixture,
                       gconstpointer  data)
{
  static const char *const log_argv[] = { "log", "-p", "--format=%s", NULL };
  static const char *const show_argv[] = { "show", "--format=", "HEAD", NULL };
  static const char *const blame_argv[] = { "blame", "--porcelain", "a.c", NULL };
  static const char *const grep_argv[] = { "grep", "-n", "int", "HEAD", NULL };
  static const char *const diff_argv[] = { "diff", "HEAD~1", NULL };
  const char *const *commands[] = { log_argv, show_argv, blame_argv, grep_argv, diff_argv };
  g_autofree char *hooks = g_build_filename (fixture->root, ".git", "hooks", NULL);
  const char *settings[][2] = {
    { "diff.evil.command", fixture->script },
    { "diff.evil.textconv", fixture->script },
    { "log.showSignature", "true" },
    { "gpg.program", fixture->script },
    { "core.pager", fixture->script },
    { "core.hooksPath", hooks },
  };

  test_write_file (fixture->root, ".git/info/attributes", "*.c diff=evil\n");
  for (guint i = 0; i < G_N_ELEMENTS (settings); i++)
    {
      g_autofree char *value = g_shell_quote (settings[i][1]);
      g_autofree char *command = g_strdup_printf ("config %s %s", settings[i][0], value);

      git (fixture, command);
    }
  test_write_file (fixture->root, "a.c", "int a = 2;\n");

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autofree char *text = run_text (fixture, commands[i], &error);

      g_assert_no_error (error);
      g_test_message ("git %s: %s", commands[i][0], text);
      g_assert_nonnull (strstr (text, "int a"));
      assert_no_marker (fixture, commands[i][0]);
    }
}

/* git reads /dev/null, never the caller's standard input (lode-mcp's is the protocol). */
static void
test_stdin (GitFixture    *fixture,
            gconstpointer  data)
{
  static const char *const argv[] = { "hash-object", "--stdin", NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = run_text (fixture, argv, &error);

  g_assert_no_error (error);
  g_assert_cmpstr (text, ==, "e69de29bb2d1d6434b8b29ae775ad8c2e48c5391\n");
}

/* A failure is git's own reason, in words a user reads. */
static void
test_failure (GitFixture    *fixture,
              gconstpointer  data)
{
  static const char *const argv[] = { "log", "--end-of-options", "no-such-branch", NULL };
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = lode_git_run (fixture->root, argv, NULL, &error);

  g_assert_null (out);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_true (g_str_has_prefix (error->message,
                                   "git log failed: ambiguous argument 'no-such-branch'"));
}

/* A cancelled call ends with G_IO_ERROR_CANCELLED, however far git got: the cancellable
 * kills git rather than being handed to g_subprocess_communicate(). */
static void
test_cancelled (GitFixture    *fixture,
                gconstpointer  data)
{
  static const char *const argv[] = { "log", "--format=%s", NULL };
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GBytes) out = NULL;

  g_cancellable_cancel (cancellable);
  out = lode_git_run (fixture->root, argv, cancellable, &error);
  g_assert_null (out);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/git-command/history-commands", GitFixture, NULL, git_fixture_setup,
              test_history_commands, git_fixture_teardown);
  g_test_add ("/lode/git-command/stdin", GitFixture, NULL, git_fixture_setup, test_stdin,
              git_fixture_teardown);
  g_test_add ("/lode/git-command/failure", GitFixture, NULL, git_fixture_setup, test_failure,
              git_fixture_teardown);
  g_test_add ("/lode/git-command/cancelled", GitFixture, NULL, git_fixture_setup,
              test_cancelled, git_fixture_teardown);

  return g_test_run ();
}
