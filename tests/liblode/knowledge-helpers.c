/* knowledge-helpers.c — git repositories with a known history, for the knowledge tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>

#include "knowledge-helpers.h"

/**
 * test_git:
 * @root: the work tree
 * @date: (nullable): the author and committer date of a commit it makes (ISO 8601)
 * @args: git's arguments, as a shell would split them
 *
 * Runs git in @root, with a fixed identity, and fails the test when git fails.
 */
void
test_git (const char *root,
          const char *date,
          const char *args)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *command = g_strdup_printf ("git -c user.name=Lode -c user.email=lode@example.org "
                                              "-c init.defaultBranch=main -c commit.gpgsign=false "
                                              "%s", args);
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) env = g_get_environ ();
  int status = 0;

  if (date != NULL)
    {
      env = g_environ_setenv (env, "GIT_AUTHOR_DATE", date, TRUE);
      env = g_environ_setenv (env, "GIT_COMMITTER_DATE", date, TRUE);
    }
  g_assert_true (g_shell_parse_argv (command, NULL, &argv, &error));
  g_assert_true (g_spawn_sync (root, argv, env,
                               G_SPAWN_SEARCH_PATH | G_SPAWN_STDOUT_TO_DEV_NULL |
                               G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status,
                               &error));
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, NULL))
    g_error ("git %s failed in %s", args, root);
}

/**
 * test_git_commit:
 * @root: the work tree
 * @date: the commit's date (ISO 8601)
 * @message: its subject
 *
 * Commits everything in @root, at @date.
 */
void
test_git_commit (const char *root,
                 const char *date,
                 const char *message)
{
  g_autofree char *quoted = g_shell_quote (message);
  g_autofree char *args = g_strdup_printf ("commit -q --allow-empty -m %s", quoted);

  test_git (root, NULL, "add -A");
  test_git (root, date, args);
}

/**
 * test_read_file:
 * @root: a directory
 * @relative: a file in it
 *
 * Returns: (transfer full): the file's contents; the test fails when it cannot be read
 */
char *
test_read_file (const char *root,
                const char *relative)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autoptr(GError) error = NULL;
  char *contents = NULL;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);

  return contents;
}
