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
#include "lode-git-history.h"
#include "lode-impact.h"
#include "mock-http-server.h"
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

/* Hostile configurations --------------------------------------------------------------- */

/* A repository's configuration, its hooks and the environment Lode runs in may each name a
 * command for git to run. Every case below writes a marker when that command runs; asking
 * what changed, in the work tree or in a range, must never make one. */

typedef struct
{
  RepoFixture *fixture;
  char        *script;    /* a shell script that creates the marker */
  char        *marker;
  char        *url;       /* of the HTTP server that asks for credentials */
} Hostile;

typedef void (*HostileSetup) (Hostile *hostile);

static void
git_config (RepoFixture *fixture,
            const char  *key,
            const char  *value)
{
  g_autofree char *quoted = g_shell_quote (value);
  g_autofree char *args = g_strdup_printf ("config %s %s", key, quoted);

  git (fixture, args);
}

static char *
read_git (RepoFixture *fixture,
          const char  *args)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *command = g_strdup_printf ("git %s", args);
  g_auto(GStrv) argv = NULL;
  g_autofree char *out = NULL;
  int status = 0;

  g_assert_true (g_shell_parse_argv (command, NULL, &argv, &error));
  g_assert_true (g_spawn_sync (fixture->root, argv, NULL, G_SPAWN_SEARCH_PATH |
                               G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, &out, NULL, &status,
                               &error));
  g_assert_no_error (error);
  g_assert_true (g_spawn_check_wait_status (status, NULL));
  return g_strdup (g_strstrip (out));
}

/* A blob git must read for rename detection, gone from the object store. */
static void
drop_object (RepoFixture *fixture,
             const char  *revision)
{
  g_autofree char *args = g_strdup_printf ("rev-parse %s", revision);
  g_autofree char *oid = read_git (fixture, args);
  g_autofree char *dir = g_strndup (oid, 2);
  g_autofree char *path = g_build_filename (fixture->root, ".git", "objects", dir, oid + 2,
                                            NULL);

  g_assert_cmpint (g_unlink (path), ==, 0);
}

/* A partial clone whose promisor remote is asked for a missing object: the last commit
 * renamed big.c to moved.c, the work tree renames moved.c to again.c, and the blobs of
 * big.c and moved.c are missing, so rename detection in either diff fetches one. */
static void
make_lazy_clone (Hostile    *hostile,
                 const char *url)
{
  RepoFixture *fixture = hostile->fixture;
  g_autoptr(GString) text = g_string_new (NULL);

  for (guint i = 0; i < 40; i++)
    g_string_append_printf (text, "int line_%u = %u;\n", i, i);
  test_write_file (fixture->root, "big.c", text->str);
  git (fixture, "add big.c");
  git (fixture, "commit -q -m big");
  git (fixture, "mv big.c moved.c");
  g_string_append (text, "int moved;\n");
  test_write_file (fixture->root, "moved.c", text->str);
  git (fixture, "add moved.c");
  git (fixture, "commit -q -m move");
  git (fixture, "mv moved.c again.c");
  g_string_append (text, "int again;\n");
  test_write_file (fixture->root, "again.c", text->str);
  git (fixture, "add again.c");

  drop_object (fixture, "HEAD~1:big.c");
  drop_object (fixture, "HEAD:moved.c");
  git_config (fixture, "core.repositoryformatversion", "1");
  git_config (fixture, "extensions.partialClone", "origin");
  git_config (fixture, "remote.origin.promisor", "true");
  git_config (fixture, "remote.origin.url", url);
}

/* The report: the lazy fetch connects with the configuration's ssh command. */
static void
hostile_ssh_command (Hostile *hostile)
{
  make_lazy_clone (hostile, "ssh://example.invalid/repo.git");
  git_config (hostile->fixture, "core.sshCommand", hostile->script);
}

/* A protocol the configuration allows outright overrides a default policy of `never`. */
static void
hostile_ssh_allowed (Hostile *hostile)
{
  hostile_ssh_command (hostile);
  git_config (hostile->fixture, "protocol.ssh.allow", "always");
}

static void
hostile_ext_transport (Hostile *hostile)
{
  g_autofree char *url = g_strdup_printf ("ext::%s", hostile->script);

  make_lazy_clone (hostile, url);
  git_config (hostile->fixture, "protocol.ext.allow", "always");
}

/* A local remote runs the configuration's upload-pack command. */
static void
hostile_upload_pack (Hostile *hostile)
{
  g_autofree char *remote = g_build_filename (g_get_user_cache_dir (), "remote.git", NULL);
  g_autofree char *init = g_strdup_printf ("init -q --bare %s", remote);

  git (hostile->fixture, init);
  make_lazy_clone (hostile, remote);
  git_config (hostile->fixture, "remote.origin.uploadpack", hostile->script);
  git_config (hostile->fixture, "protocol.file.allow", "always");
}

static void
hostile_git_proxy (Hostile *hostile)
{
  make_lazy_clone (hostile, "git://example.invalid/repo.git");
  git_config (hostile->fixture, "core.gitProxy", hostile->script);
}

/* A server that asks for credentials: git runs the credential helper, then askpass. */
static void
hostile_credential_helper (Hostile *hostile)
{
  g_autofree char *url = g_strdup_printf ("%s/repo.git", hostile->url);
  g_autofree char *helper = g_strdup_printf ("!%s", hostile->script);

  make_lazy_clone (hostile, url);
  git_config (hostile->fixture, "credential.helper", helper);
}

static void
hostile_askpass (Hostile *hostile)
{
  g_autofree char *url = g_strdup_printf ("%s/repo.git", hostile->url);

  make_lazy_clone (hostile, url);
  git_config (hostile->fixture, "core.askPass", hostile->script);
}

/* Every hook git knows, in the hooks directory and in one the configuration names. */
static void
hostile_hooks (Hostile *hostile)
{
  static const char *const hooks[] = {
    "applypatch-msg", "pre-applypatch", "post-applypatch", "pre-commit", "pre-merge-commit",
    "prepare-commit-msg", "commit-msg", "post-commit", "pre-rebase", "post-checkout",
    "post-merge", "pre-push", "pre-receive", "update", "proc-receive", "post-receive",
    "post-update", "reference-transaction", "push-to-checkout", "pre-auto-gc",
    "post-rewrite", "sendemail-validate", "fsmonitor-watchman", "post-index-change", NULL
  };
  g_autofree char *script = NULL;
  g_autofree char *hooks_dir = g_build_filename (g_get_user_cache_dir (), "hooks", NULL);

  /* Staged before the hooks exist: the test's own git would run them. */
  test_write_file (hostile->fixture->root, "src/a.c", "int a = 3;\n");
  git (hostile->fixture, "add src/a.c");
  g_assert_true (g_file_get_contents (hostile->script, &script, NULL, NULL));
  g_assert_cmpint (g_mkdir_with_parents (hooks_dir, 0700), ==, 0);
  for (guint i = 0; hooks[i] != NULL; i++)
    {
      g_autofree char *in_git = g_build_filename (hostile->fixture->root, ".git", "hooks",
                                                  hooks[i], NULL);
      g_autofree char *elsewhere = g_build_filename (hooks_dir, hooks[i], NULL);

      g_assert_true (g_file_set_contents (in_git, script, -1, NULL));
      g_assert_cmpint (g_chmod (in_git, 0755), ==, 0);
      g_assert_true (g_file_set_contents (elsewhere, script, -1, NULL));
      g_assert_cmpint (g_chmod (elsewhere, 0755), ==, 0);
    }
  git_config (hostile->fixture, "core.hooksPath", hooks_dir);
}

/* Settings from an included file, plain or conditional, count as the configuration's own. */
static void
hostile_include (Hostile *hostile)
{
  g_autofree char *included = g_build_filename (g_get_user_cache_dir (), "included", NULL);
  g_autofree char *text = g_strdup_printf ("[core]\n\tfsmonitor = %s\n\tsshCommand = %s\n",
                                           hostile->script, hostile->script);

  g_assert_true (g_file_set_contents (included, text, -1, NULL));
  make_lazy_clone (hostile, "ssh://example.invalid/repo.git");
  git_config (hostile->fixture, "include.path", included);
  git_config (hostile->fixture, "includeIf.gitdir:/.path", included);
}

/* A diff driver's external command and text conversion, picked by an attribute. */
static void
hostile_diff_driver (Hostile *hostile)
{
  test_write_file (hostile->fixture->root, ".git/info/attributes", "*.c diff=evil\n");
  git_config (hostile->fixture, "diff.evil.command", hostile->script);
  git_config (hostile->fixture, "diff.evil.textconv", hostile->script);
  git_config (hostile->fixture, "diff.external", hostile->script);
  test_write_file (hostile->fixture->root, "src/a.c", "int a = 3;\n");
}

static void
hostile_pager (Hostile *hostile)
{
  git_config (hostile->fixture, "core.pager", hostile->script);
  git_config (hostile->fixture, "pager.diff", hostile->script);
  test_write_file (hostile->fixture->root, "src/a.c", "int a = 3;\n");
}

/* A directory of the tree laid out as a bare repository, with a hostile configuration:
 * asked from inside it, git would take it for the repository. */
static void
hostile_bare_repository (Hostile *hostile)
{
  RepoFixture *fixture = hostile->fixture;
  g_autofree char *git_dir = g_build_filename (fixture->root, ".git", NULL);
  g_autofree char *inner = g_build_filename (fixture->root, "nested.git", NULL);

  make_lazy_clone (hostile, "ssh://example.invalid/repo.git");
  git_config (fixture, "core.sshCommand", hostile->script);
  git_config (fixture, "core.bare", "true");
  g_assert_cmpint (g_rename (git_dir, inner), ==, 0);
  g_free (fixture->root);
  fixture->root = g_steal_pointer (&inner);
}

/* What the environment of the calling process says about git (a hook's GIT_DIR and
 * GIT_INDEX_FILE, another tool's commands and settings) must not steer Lode's git. */
static const char *const hostile_environment[] = {
  "GIT_SSH_COMMAND", "GIT_SSH", "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "GIT_PAGER",
  "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_CONFIG_KEY_0", "GIT_CONFIG_VALUE_0",
  "GIT_ALLOW_PROTOCOL", "GIT_DIR", "GIT_WORK_TREE", "GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY",
  NULL
};

static void
set_hostile_environment (Hostile *hostile)
{
  g_autofree char *parameters = g_strdup_printf ("'core.sshcommand'='%s'", hostile->script);

  g_setenv ("GIT_SSH_COMMAND", hostile->script, TRUE);
  g_setenv ("GIT_SSH", hostile->script, TRUE);
  g_setenv ("GIT_EXTERNAL_DIFF", hostile->script, TRUE);
  g_setenv ("GIT_ASKPASS", hostile->script, TRUE);
  g_setenv ("GIT_PAGER", hostile->script, TRUE);
  g_setenv ("GIT_CONFIG_PARAMETERS", parameters, TRUE);
  g_setenv ("GIT_CONFIG_COUNT", "1", TRUE);
  g_setenv ("GIT_CONFIG_KEY_0", "core.fsmonitor", TRUE);
  g_setenv ("GIT_CONFIG_VALUE_0", hostile->script, TRUE);
  g_setenv ("GIT_ALLOW_PROTOCOL", "ssh:ext:file:git:http", TRUE);
}

static void
hostile_environment_commands (Hostile *hostile)
{
  make_lazy_clone (hostile, "ssh://example.invalid/repo.git");
  set_hostile_environment (hostile);
}

/* Another repository named by GIT_DIR, an index file that is not the tree's. */
static void
hostile_environment_repository (Hostile *hostile)
{
  g_autofree char *other = g_build_filename (g_get_user_cache_dir (), "other", NULL);
  g_autofree char *init = g_strdup_printf ("init -q %s", other);
  g_autofree char *other_git = g_build_filename (other, ".git", NULL);
  g_autofree char *index = g_build_filename (g_get_user_cache_dir (), "no-index", NULL);
  g_autofree char *objects = g_build_filename (other_git, "objects", NULL);

  git (hostile->fixture, init);
  test_write_file (hostile->fixture->root, "src/a.c", "int a = 3;\n");
  set_hostile_environment (hostile);
  g_setenv ("GIT_DIR", other_git, TRUE);
  g_setenv ("GIT_WORK_TREE", other, TRUE);
  g_setenv ("GIT_INDEX_FILE", index, TRUE);
  g_setenv ("GIT_OBJECT_DIRECTORY", objects, TRUE);
}

typedef struct
{
  const char   *name;
  HostileSetup  setup;
  const char   *work_tree;  /* what the work tree's changes are, or NULL */
  const char   *range;      /* the same for the last commit */
  const char   *error;      /* else what the error says */
} HostileCase;

/* The object git would fetch stays missing. */
#define LAZY NULL, NULL, "partial clone"

static const HostileCase hostile_cases[] = {
  { "ssh-command", hostile_ssh_command, LAZY },
  { "ssh-allowed", hostile_ssh_allowed, LAZY },
  { "ext-transport", hostile_ext_transport, LAZY },
  { "upload-pack", hostile_upload_pack, LAZY },
  { "git-proxy", hostile_git_proxy, LAZY },
  { "credential-helper", hostile_credential_helper, LAZY },
  { "askpass", hostile_askpass, LAZY },
  { "include", hostile_include, LAZY },
  { "environment-commands", hostile_environment_commands, LAZY },
  { "hooks", hostile_hooks, "M:src/a.c", "M:src/b.c", NULL },
  { "diff-driver", hostile_diff_driver, "M:src/a.c", "M:src/b.c", NULL },
  { "pager", hostile_pager, "M:src/a.c", "M:src/b.c", NULL },
  { "environment-repository", hostile_environment_repository, "M:src/a.c", "M:src/b.c", NULL },
  { "bare-repository", hostile_bare_repository, NULL, NULL, "not inside a git work tree" },
};

static void
ask_for_credentials_cb (MockServer        *server,
                        SoupServerMessage *message,
                        const char        *path,
                        const char        *body,
                        guint              index,
                        gpointer           user_data)
{
  soup_message_headers_replace (soup_server_message_get_response_headers (message),
                                "WWW-Authenticate", "Basic realm=\"lode\"");
  mock_reply (message, SOUP_STATUS_UNAUTHORIZED, "text/plain", "", 0);
}

typedef struct
{
  const char *root;
  const char *range;
  GPtrArray  *files;
  GError     *error;
  gboolean    done;
} ChangesCall;

static gpointer
changes_thread_func (gpointer data)
{
  ChangesCall *call = data;
  g_autoptr(LodeGitHistory) history = NULL;

  /* The knowledge tools' git runs too: `rev-parse HEAD` and the history's `log`. */
  if (call->range == NULL)
    history = lode_git_history_get (call->root, NULL, NULL);
  call->files = lode_git_dup_changed_files (call->root, call->range, NULL, &call->error);
  g_atomic_int_set (&call->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

/* Asks on another thread while this one serves the HTTP server: what changed, and (in the
 * work tree) the history the knowledge tools read. */
static GPtrArray *
changed_files (const char  *root,
               const char  *range,
               GError     **error)
{
  ChangesCall call = { root, range, NULL, NULL, FALSE };
  GThread *thread = g_thread_new ("changes", changes_thread_func, &call);

  while (!g_atomic_int_get (&call.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  if (call.error != NULL)
    g_propagate_error (error, call.error);
  return call.files;
}

/* A git older than 2.39.4 knows no GIT_NO_LAZY_FETCH: the settings must hold alone. */
static char *
make_git_without_lazy_fetch_switch (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "old-git", NULL);
  g_autofree char *wrapper = g_build_filename (dir, "git", NULL);
  g_autofree char *real = g_find_program_in_path ("git");
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\nunset GIT_NO_LAZY_FETCH\n"
                                           "exec '%s' \"$@\"\n", real);

  g_assert_nonnull (real);
  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  g_assert_true (g_file_set_contents (wrapper, text, -1, NULL));
  g_assert_cmpint (g_chmod (wrapper, 0755), ==, 0);
  return g_steal_pointer (&dir);
}

static void
test_hostile (RepoFixture   *fixture,
              gconstpointer  data)
{
  const HostileCase *hostile_case = data;
  g_autoptr(MockServer) server = mock_server_new (ask_for_credentials_cb, NULL);
  g_autofree char *marker = g_build_filename (g_get_user_cache_dir (), "ran", NULL);
  g_autofree char *script = g_build_filename (g_get_user_cache_dir (), "run.sh", NULL);
  g_autofree char *text = g_strdup_printf ("#!/bin/sh\necho \"$0 $*\" >> '%s'\nexit 1\n",
                                           marker);
  g_autofree char *path = g_strdup (g_getenv ("PATH"));
  g_autofree char *old_git = NULL;
  Hostile hostile = { fixture, script, marker, server->url };

  g_assert_cmpint (g_mkdir_with_parents (g_get_user_cache_dir (), 0700), ==, 0);
  g_assert_true (g_file_set_contents (script, text, -1, NULL));
  g_assert_cmpint (g_chmod (script, 0755), ==, 0);
  old_git = make_git_without_lazy_fetch_switch ();
  test_write_file (fixture->root, "src/b.c", "#include \"a.h\"\nint b;\n");
  git (fixture, "commit -q -a -m two");
  hostile_case->setup (&hostile);

  /* With this git, then with one that ignores GIT_NO_LAZY_FETCH. */
  for (guint pass = 0; pass < 2; pass++)
    {
      g_autofree char *old_path = g_strdup_printf ("%s:%s", old_git, path);

      if (pass == 1)
        g_setenv ("PATH", old_path, TRUE);
      for (guint i = 0; i < 2; i++)
        {
          const char *range = i == 0 ? NULL : "HEAD~1..HEAD";
          const char *expected = i == 0 ? hostile_case->work_tree : hostile_case->range;
          g_autoptr(GError) error = NULL;
          g_autoptr(GPtrArray) files = changed_files (fixture->root, range, &error);
          g_autofree char *ran = NULL;

          g_test_message ("%s, %s%s: %s", hostile_case->name, range ? range : "work tree",
                          pass == 1 ? ", older git" : "",
                          error != NULL ? error->message : "listed");
          if (g_file_get_contents (marker, &ran, NULL, NULL))
            {
              g_test_fail_printf ("%s ran a command of the tree's configuration (%s%s): %s",
                                  range != NULL ? range : "the work tree's changes",
                                  hostile_case->name, pass == 1 ? ", older git" : "", ran);
              g_unlink (marker);
            }
          else if (expected != NULL)
            {
              g_autofree char *listed = NULL;

              g_assert_no_error (error);
              listed = changes_to_string (files);
              g_assert_cmpstr (listed, ==, expected);
            }
          else
            {
              g_assert_nonnull (error);
              g_assert_nonnull (strstr (error->message, hostile_case->error));
            }
        }
    }

  g_setenv ("PATH", path, TRUE);
  for (guint i = 0; hostile_environment[i] != NULL; i++)
    g_unsetenv (hostile_environment[i]);
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

/* Before the first commit: everything is new, and no range exists yet. */
static void
test_no_commit (void)
{
  RepoFixture fixture = { g_build_filename (g_get_user_data_dir (), "unborn", NULL) };
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autofree char *text = NULL;

  g_assert_cmpint (g_mkdir_with_parents (fixture.root, 0700), ==, 0);
  git (&fixture, "init -q");
  test_write_file (fixture.root, "src/a.c", "int a;\n");
  test_write_file (fixture.root, "src/b.c", "int b;\n");
  git (&fixture, "add src/a.c");

  files = lode_git_dup_changed_files (fixture.root, NULL, NULL, &error);
  g_assert_no_error (error);
  text = changes_to_string (files);
  g_assert_cmpstr (text, ==, "A:src/a.c ?:src/b.c");

  g_clear_pointer (&files, g_ptr_array_unref);
  files = lode_git_dup_changed_files (fixture.root, "HEAD~1..HEAD", NULL, &error);
  g_assert_null (files);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "no commit yet"));
  g_free (fixture.root);
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
  for (guint i = 0; i < G_N_ELEMENTS (hostile_cases); i++)
    {
      g_autofree char *path = g_strdup_printf ("/lode/impact/hostile/%s",
                                               hostile_cases[i].name);

      g_test_add (path, RepoFixture, &hostile_cases[i], repo_setup, test_hostile,
                  repo_teardown);
    }
  g_test_add ("/lode/impact/bad-input", RepoFixture, NULL, repo_setup, test_bad_input,
              repo_teardown);
  g_test_add_func ("/lode/impact/no-commit", test_no_commit);
  g_test_add_func ("/lode/impact/rank", test_rank);

  return g_test_run ();
}
