/* lode-git-command.c — the one way Lode runs git
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* git runs commands that its configuration names: hooks, an fsmonitor, filter drivers, diff
 * drivers, the ssh command, upload-pack and credential helpers of a remote it fetches from (a
 * partial clone fetches a missing object from its promisor remote in the middle of a diff),
 * a pager, gpg. A repository's configuration comes with the tree Lode is asked about, which
 * may be anyone's, and so do the files it includes; the environment Lode runs in may be a
 * hook's (GIT_DIR, GIT_INDEX_FILE) or name commands of its own (GIT_SSH_COMMAND). Every git
 * Lode runs goes through lode_git_run(), which starts it with an environment of its own and
 * settings that switch each of those commands off. Settings given to git in its environment
 * (GIT_CONFIG_COUNT) come after every configuration file and win; they also reach the git
 * processes git starts itself (the lazy fetch, submodules), which command-line options do
 * not. */

#define G_LOG_DOMAIN "lode-git"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-git-command.h"

/* Settings with one value, which the last one given decides, and the empty
 * `credential.helper`, which clears the list of helpers before it. */
static const char *const fixed_settings[][2] = {
  { "core.fsmonitor", "false" },
  { "core.hooksPath", "/dev/null" },
  { "core.sshCommand", "false" },
  { "core.askPass", "false" },
  { "core.pager", "cat" },
  { "credential.helper", "" },
  /* Transports are refused before they connect: no fetch, so no ssh command, proxy,
   * upload-pack, remote helper or credential prompt (GIT_NO_LAZY_FETCH, below, does the
   * same for git ≥ 2.44; this holds on older ones). A `protocol.NAME.allow` of the
   * configuration would override this default: those are turned off by name. */
  { "protocol.allow", "never" },
  /* A directory of the tree laid out as a bare repository is not taken for one. */
  { "safe.bareRepository", "explicit" },
  /* A diff does not ask submodules (a `git status` in each, under their own configuration,
   * which the settings here do not reach). */
  { "diff.ignoreSubmodules", "all" },
  { "log.showSignature", "false" },
  { "gpg.program", "false" },
  { "gpg.openpgp.program", "false" },
  { "gpg.x509.program", "false" },
  { "gpg.ssh.program", "false" },
  { "gc.auto", "0" },
  { "maintenance.auto", "false" },
};

/* Commands that may run a diff driver's external command or text conversion: those are
 * options of the command, not settings, so they are given with it. */
static const struct
{
  const char *command;
  const char *options[3];
} command_options[] = {
  { "diff", { "--no-ext-diff", "--no-textconv", NULL } },
  { "log", { "--no-ext-diff", "--no-textconv", NULL } },
  { "show", { "--no-ext-diff", "--no-textconv", NULL } },
  { "whatchanged", { "--no-ext-diff", "--no-textconv", NULL } },
  { "blame", { "--no-textconv", NULL } },
  { "annotate", { "--no-textconv", NULL } },
  { "grep", { "--no-textconv", NULL } },
};

typedef struct
{
  GStrvBuilder *keys;
  GStrvBuilder *values;
} Settings;

static void
add_setting (Settings   *settings,
             const char *key,
             const char *value)
{
  g_strv_builder_add (settings->keys, key);
  g_strv_builder_add (settings->values, value);
}

/* The environment of every git: the caller's without any GIT_ variable (nor SSH_ASKPASS),
 * output in the C locale, never a pager, a prompt, an optional lock (status would rewrite
 * the index) or a lazy fetch, and @keys = @values as settings. */
static GStrv
dup_environment (const char * const *keys,
                 const char * const *values)
{
  g_auto(GStrv) inherited = g_get_environ ();
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autofree char *count = NULL;
  guint n = 0;

  for (guint i = 0; inherited[i] != NULL; i++)
    if (!g_str_has_prefix (inherited[i], "GIT_") &&
        !g_str_has_prefix (inherited[i], "SSH_ASKPASS=") &&
        !g_str_has_prefix (inherited[i], "LC_ALL="))
      g_strv_builder_add (builder, inherited[i]);

  g_strv_builder_add_many (builder, "LC_ALL=C", "GIT_PAGER=cat", "GIT_TERMINAL_PROMPT=0",
                           "GIT_OPTIONAL_LOCKS=0", "GIT_NO_LAZY_FETCH=1", NULL);
  for (; keys[n] != NULL; n++)
    {
      g_autofree char *key = g_strdup_printf ("GIT_CONFIG_KEY_%u=%s", n, keys[n]);
      g_autofree char *value = g_strdup_printf ("GIT_CONFIG_VALUE_%u=%s", n, values[n]);

      g_strv_builder_add_many (builder, key, value, NULL);
    }
  count = g_strdup_printf ("GIT_CONFIG_COUNT=%u", n);
  g_strv_builder_add (builder, count);

  return g_strv_builder_end (builder);
}

/* What git's standard error says is wrong: its last fatal line (the first may be a
 * consequence, a usage text may follow), else its first error or line. */
static char *
failure_message (GBytes *err)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (err, &len);
  g_autofree char *text = g_strndup (len > 0 ? data : "", len);
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  const char *fatal = NULL;
  const char *first_error = NULL;

  for (guint i = 0; lines[i] != NULL; i++)
    if (g_str_has_prefix (lines[i], "fatal: "))
      fatal = lines[i] + strlen ("fatal: ");
    else if (first_error == NULL && g_str_has_prefix (lines[i], "error: "))
      first_error = lines[i] + strlen ("error: ");

  if (fatal == NULL)
    fatal = first_error != NULL ? first_error : lines[0];
  if (strstr (text, "lazy fetching disabled") != NULL ||
      strstr (text, "' not allowed") != NULL)
    return g_strdup_printf ("%s (an object is missing from this partial clone, and Lode "
                            "never lets git fetch: fetch it in the repository first)", fatal);

  return g_strdup (fatal);
}

static void
kill_cb (GCancellable *cancellable,
         GSubprocess  *process)
{
  g_subprocess_force_exit (process);
}

static GBytes *
run (const char         *directory,
     const char * const *args,
     Settings           *settings,
     GCancellable       *cancellable,
     GError            **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autoptr(GStrvBuilder) argv_builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;
  g_auto(GStrv) keys = g_strv_builder_end (settings->keys);
  g_auto(GStrv) values = g_strv_builder_end (settings->values);
  g_auto(GStrv) environment = dup_environment ((const char * const *) keys,
                                               (const char * const *) values);
  gulong cancelled_id = 0;
  gboolean communicated;

  g_strv_builder_add_many (argv_builder, "git", "--no-pager", args[0], NULL);
  for (guint i = 0; i < G_N_ELEMENTS (command_options); i++)
    if (strcmp (args[0], command_options[i].command) == 0)
      g_strv_builder_addv (argv_builder, (const char **) command_options[i].options);
  g_strv_builder_addv (argv_builder, (const char **) args + 1);
  argv = g_strv_builder_end (argv_builder);

  /* stdin is /dev/null: lode-mcp's is the protocol. */
  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_subprocess_launcher_set_cwd (launcher, directory);
  g_subprocess_launcher_set_environ (launcher, environment);
  process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv, error);
  if (process == NULL)
    {
      g_prefix_error (error, "Cannot run git: ");
      return NULL;
    }

  /* The caller's cancellable stops git itself, not g_subprocess_communicate(): given one,
   * GLib 2.74's attaches a GCancellableSource to a main context of its own, and now and then
   * its last unref came after that context was freed (it locked the freed context's mutex:
   * a thread waiting for good, or a heap corrupted). Killed, git's pipes close and the
   * communication ends. */
  if (cancellable != NULL)
    cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (kill_cb), process, NULL);
  communicated = g_subprocess_communicate (process, NULL, NULL, &out, &err, error);
  g_cancellable_disconnect (cancellable, cancelled_id);
  if (!communicated)
    {
      g_subprocess_force_exit (process);
      return NULL;
    }
  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;

  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    {
      g_autofree char *message = failure_message (err);

      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "git %s failed: %s",
                   args[0], message);
      return NULL;
    }

  return g_steal_pointer (&out);
}

static void
settings_init (Settings *settings)
{
  settings->keys = g_strv_builder_new ();
  settings->values = g_strv_builder_new ();
  for (guint i = 0; i < G_N_ELEMENTS (fixed_settings); i++)
    add_setting (settings, fixed_settings[i][0], fixed_settings[i][1]);
}

static void
settings_clear (Settings *settings)
{
  g_clear_pointer (&settings->keys, g_strv_builder_unref);
  g_clear_pointer (&settings->values, g_strv_builder_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (Settings, settings_clear)

/* The settings that name commands under names the configuration chooses: each filter
 * driver (`filter.NAME.clean` and the like, run when the work tree is compared with the
 * index) gets empty commands, each protocol the configuration allows by name is refused. */
static void
add_named_settings (const char   *directory,
                    Settings     *settings,
                    GCancellable *cancellable)
{
  static const char *const list_argv[] = {
    "config", "-z", "--name-only", "--get-regexp", "^(filter|protocol)\\.", NULL
  };
  g_auto(Settings) fixed = { NULL, NULL };
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GBytes) out = NULL;
  const char *data;
  gsize len = 0;

  settings_init (&fixed);
  /* Exits 1 when there is none. */
  out = run (directory, list_argv, &fixed, cancellable, NULL);
  data = out != NULL ? g_bytes_get_data (out, &len) : NULL;
  for (const char *p = data; p != NULL && p < data + len; p += strnlen (p, data + len - p) + 1)
    {
      g_autofree char *key = g_strndup (p, strnlen (p, data + len - p));
      char *last_dot = strrchr (key, '.');
      gboolean filter = g_str_has_prefix (key, "filter.");
      char *name = strchr (key, '.') + 1;

      if (last_dot == NULL || last_dot <= name)
        continue;
      *last_dot = '\0';
      if (!g_hash_table_add (seen, g_strdup (key)))
        continue;

      if (filter)
        {
          static const char *const commands[] = { "clean", "smudge", "process" };
          g_autofree char *required = g_strdup_printf ("filter.%s.required", name);

          for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
            {
              g_autofree char *setting = g_strdup_printf ("filter.%s.%s", name, commands[i]);

              add_setting (settings, setting, "");
            }
          add_setting (settings, required, "false");
        }
      else
        {
          g_autofree char *allow = g_strdup_printf ("protocol.%s.allow", name);

          add_setting (settings, allow, "never");
        }
    }
}

/**
 * lode_git_run:
 * @directory: where git runs (a work tree, or a directory in one)
 * @args: (array zero-terminated=1): the command and its arguments, without `git`
 *   (`{ "log", "--format=%H", "--end-of-options", rev, NULL }`)
 * @cancellable: (nullable): a #GCancellable; cancelling ends git
 * @error: return location for a #GError
 *
 * Runs git in @directory so that neither the repository's configuration (nor a file it
 * includes, a hook or a driver it names) nor the caller's `GIT_*` environment can make git
 * run a command: no hook, fsmonitor, filter or diff driver, transport (so no fetch of a
 * partial clone's missing object, which fails instead), pager, credential helper, askpass or
 * gpg runs, submodules are not asked, and the index is never rewritten. Output is in the C
 * locale. `diff`, `log`, `show`, `blame` and `grep` get `--no-ext-diff`/`--no-textconv`.
 * Every git invocation of Lode goes through here.
 *
 * Returns: (transfer full): git's standard output; %NULL with %LODE_ERROR_INVALID_ARGUMENT
 *   and git's first line of complaint when git fails (a bad revision, not a repository)
 */
GBytes *
lode_git_run (const char         *directory,
              const char * const *args,
              GCancellable       *cancellable,
              GError            **error)
{
  g_auto(Settings) settings = { NULL, NULL };

  g_return_val_if_fail (directory != NULL, NULL);
  g_return_val_if_fail (args != NULL && args[0] != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  settings_init (&settings);
  add_named_settings (directory, &settings, cancellable);

  return run (directory, args, &settings, cancellable, error);
}
