/* lode-impact.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The impact of a change: git names the files a diff touches, the graph's inbound walk
 * finds what imports them, near to far. */

#define G_LOG_DOMAIN "lode-impact"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-impact.h"

void
lode_changed_file_free (LodeChangedFile *file)
{
  if (file == NULL)
    return;

  g_free (file->path);
  g_free (file->old_path);
  g_free (file);
}

/* Runs `git ARGV…` in @root and returns its standard output. The tree's own configuration
 * may name commands for git to run (core.fsmonitor, a hook started by every command that
 * reads the index; the filter drivers of @filters, whose clean command runs when the work
 * tree is compared with the index): switched off, and the index is never rewritten
 * (optional locks), so that asking what changed neither runs code from the tree nor writes
 * into it. */
static GBytes *
run_git (const char          *root,
         const char *const   *args,
         const char *const   *filters,
         GCancellable        *cancellable,
         GError             **error)
{
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GSubprocess) process = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GBytes) err = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) argv = NULL;

  g_strv_builder_add_many (builder, "git", "-c", "core.fsmonitor=false", NULL);
  g_strv_builder_addv (builder, (const char **) args);
  argv = g_strv_builder_end (builder);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE |
                                        G_SUBPROCESS_FLAGS_STDERR_PIPE |
                                        G_SUBPROCESS_FLAGS_STDIN_INHERIT);
  g_subprocess_launcher_set_cwd (launcher, root);
  /* Output that does not depend on the user's locale, pager or colours. */
  g_subprocess_launcher_setenv (launcher, "LC_ALL", "C", TRUE);
  g_subprocess_launcher_setenv (launcher, "GIT_PAGER", "cat", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "GIT_DIR");
  g_subprocess_launcher_unsetenv (launcher, "GIT_WORK_TREE");
  g_subprocess_launcher_setenv (launcher, "GIT_OPTIONAL_LOCKS", "0", TRUE);
  /* Settings passed by environment (GIT_CONFIG_COUNT, git ≥ 2.31) keep a driver name as it
   * is, dots and `=` included; an empty command is no filter. */
  for (guint i = 0; filters != NULL && filters[i] != NULL; i++)
    {
      static const char *const keys[] = { "clean", "smudge", "process", "required" };

      for (guint k = 0; k < G_N_ELEMENTS (keys); k++)
        {
          guint n = i * G_N_ELEMENTS (keys) + k;
          g_autofree char *key_var = g_strdup_printf ("GIT_CONFIG_KEY_%u", n);
          g_autofree char *value_var = g_strdup_printf ("GIT_CONFIG_VALUE_%u", n);
          g_autofree char *key = g_strdup_printf ("filter.%s.%s", filters[i], keys[k]);

          g_subprocess_launcher_setenv (launcher, key_var, key, TRUE);
          g_subprocess_launcher_setenv (launcher, value_var,
                                        strcmp (keys[k], "required") == 0 ? "false" : "", TRUE);
        }
    }
  if (filters != NULL && filters[0] != NULL)
    {
      g_autofree char *count = g_strdup_printf ("%u", g_strv_length ((char **) filters) * 4);

      g_subprocess_launcher_setenv (launcher, "GIT_CONFIG_COUNT", count, TRUE);
    }

  process = g_subprocess_launcher_spawnv (launcher, (const char *const *) argv, error);
  if (process == NULL)
    {
      g_prefix_error (error, "Cannot run git: ");
      return NULL;
    }

  if (!g_subprocess_communicate (process, NULL, cancellable, &out, &err, error))
    return NULL;

  if (!g_subprocess_get_if_exited (process) || g_subprocess_get_exit_status (process) != 0)
    {
      /* (an empty output has no data at all) */
      g_autofree char *message = g_strndup (g_bytes_get_size (err) > 0
                                              ? g_bytes_get_data (err, NULL) : "",
                                            g_bytes_get_size (err));
      char *newline = strchr (message, '\n');

      /* git's first line says what is wrong; a usage text may follow. */
      if (newline != NULL)
        *newline = '\0';
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "git %s failed: %s",
                   args[0], g_strstrip (message));
      return NULL;
    }

  return g_steal_pointer (&out);
}

/**
 * lode_git_run:
 * @root: a directory inside a git work tree
 * @args: (array zero-terminated=1): git's arguments, its command first (`log`, `rev-parse`)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Runs git in @root as every part of Lode does: no command that the tree's own
 * configuration names (core.fsmonitor) runs, the index is never rewritten, and the output
 * does not depend on the user's locale or pager. Commands that could start a configured
 * program by themselves must switch it off in @args (`log --no-show-signature`).
 *
 * Returns: (transfer full) (nullable): git's standard output, or %NULL with @error set
 *   (%LODE_ERROR_INVALID_ARGUMENT with git's first line when git fails)
 */
GBytes *
lode_git_run (const char         *root,
              const char *const  *args,
              GCancellable       *cancellable,
              GError            **error)
{
  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (args != NULL && args[0] != NULL, NULL);

  return run_git (root, args, NULL, cancellable, error);
}

/* The filter drivers (`filter.NAME.clean` and the like) the tree's configuration names. */
static GStrv
dup_filter_drivers (const char   *root,
                    GCancellable *cancellable)
{
  const char *argv[] = {
    "config", "-z", "--name-only", "--get-regexp", "^filter\\.", NULL
  };
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  /* Exits 1 when there is none. */
  g_autoptr(GBytes) out = run_git (root, argv, NULL, cancellable, NULL);
  gsize len = 0;
  const char *data = out != NULL ? g_bytes_get_data (out, &len) : NULL;

  for (const char *p = data; p != NULL && p < data + len; p += strnlen (p, data + len - p) + 1)
    {
      g_autofree char *key = g_strndup (p, strnlen (p, data + len - p));
      char *last_dot = strrchr (key, '.');
      char *name = key + strlen ("filter.");

      if (last_dot == NULL || last_dot <= name)
        continue;
      *last_dot = '\0';
      if (g_hash_table_add (seen, g_strdup (name)))
        g_strv_builder_add (names, name);
    }
  return g_strv_builder_end (names);
}

/* Parses `git diff --name-status -z` output: "M\0path\0", "R100\0old\0new\0". */
static gboolean
parse_name_status (GBytes     *bytes,
                   GPtrArray  *files,
                   GError    **error)
{
  gsize len = 0;
  const char *data = g_bytes_get_data (bytes, &len);
  const char *end = data + len;
  const char *p = data;

  while (p < end)
    {
      g_autoptr(LodeChangedFile) file = g_new0 (LodeChangedFile, 1);
      const char *status = p;
      const char *first;

      p += strnlen (p, end - p) + 1;
      if (p >= end)
        break;
      first = p;
      p += strnlen (p, end - p) + 1;

      file->status = status[0];
      if (status[0] == 'R' || status[0] == 'C')
        {
          if (p >= end)
            break;
          file->old_path = g_strdup (first);
          file->path = g_strndup (p, strnlen (p, end - p));
          p += strlen (file->path) + 1;
        }
      else
        file->path = g_strdup (first);

      if (!g_utf8_validate (file->path, -1, NULL))
        continue;
      g_ptr_array_add (files, g_steal_pointer (&file));
    }

  if (p < end)
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_FAILED,
                           "Cannot read the output of git diff");
      return FALSE;
    }

  return TRUE;
}

static int
compare_changed (gconstpointer a,
                 gconstpointer b)
{
  const LodeChangedFile *fa = *(LodeChangedFile *const *) a;
  const LodeChangedFile *fb = *(LodeChangedFile *const *) b;

  return strcmp (fa->path, fb->path);
}

/**
 * lode_git_dup_changed_files:
 * @root: a directory inside a git work tree (the project root)
 * @rev_range: (nullable): a revision range (`main..HEAD`, `HEAD~3`, `v1.0...topic`), or
 *   %NULL for the uncommitted changes of the work tree (staged or not, and untracked files)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Lists the files a diff touches, with paths relative to @root (changes outside it are left
 * out). Renames are followed.
 *
 * Returns: (transfer full) (element-type LodeChangedFile): the changed files, by path; %NULL
 *   with %LODE_ERROR_INVALID_ARGUMENT when git refuses the range or @root is not in a
 *   work tree
 */
GPtrArray *
lode_git_dup_changed_files (const char    *root,
                            const char    *rev_range,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GBytes) diff = NULL;
  const char *worktree_argv[] = {
    "diff", "--name-status", "-z", "-M", "--relative", "--no-ext-diff", "HEAD",
    "--", NULL
  };
  const char *range_argv[] = {
    "diff", "--name-status", "-z", "-M", "--relative", "--no-ext-diff",
    "--end-of-options", rev_range, "--", NULL
  };
  const char *untracked_argv[] = {
    "ls-files", "-z", "--others", "--exclude-standard", NULL
  };
  const char *check_argv[] = { "rev-parse", "--is-inside-work-tree", NULL };
  g_autoptr(GBytes) check = NULL;
  g_auto(GStrv) filters = NULL;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (rev_range != NULL && (*rev_range == '\0' || *rev_range == '-' ||
                            strpbrk (rev_range, " \t\n") != NULL))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a revision range", rev_range);
      return NULL;
    }

  check = run_git (root, check_argv, NULL, cancellable, NULL);
  if (check == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s is not inside a git work tree", root);
      return NULL;
    }

  filters = dup_filter_drivers (root, cancellable);
  files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_changed_file_free);
  diff = run_git (root, rev_range != NULL ? range_argv : worktree_argv,
                  (const char *const *) filters, cancellable, error);
  if (diff == NULL || !parse_name_status (diff, files, error))
    {
      g_prefix_error (error, "Cannot list the changes of %s: ",
                      rev_range != NULL ? rev_range : "the work tree");
      return NULL;
    }

  if (rev_range == NULL)
    {
      g_autoptr(GBytes) untracked = run_git (root, untracked_argv,
                                                 (const char *const *) filters, cancellable,
                                                 error);
      gsize len = 0;
      const char *data;

      if (untracked == NULL)
        return NULL;
      data = g_bytes_get_data (untracked, &len);
      for (const char *p = data; p < data + len; p += strnlen (p, data + len - p) + 1)
        {
          LodeChangedFile *file;

          if (!g_utf8_validate_len (p, strnlen (p, data + len - p), NULL))
            continue;
          file = g_new0 (LodeChangedFile, 1);
          file->path = g_strndup (p, strnlen (p, data + len - p));
          file->status = '?';
          g_ptr_array_add (files, file);
        }
    }

  g_ptr_array_sort (files, compare_changed);

  return g_steal_pointer (&files);
}

static int
compare_impact (gconstpointer a,
                gconstpointer b)
{
  const LodeImpactFile *fa = a;
  const LodeImpactFile *fb = b;

  if (fa->distance != fb->distance)
    return fa->distance < fb->distance ? -1 : 1;
  if (fa->links != fb->links)
    return fa->links > fb->links ? -1 : 1;
  if (fa->n_dependents != fb->n_dependents)
    return fa->n_dependents > fb->n_dependents ? -1 : 1;
  return strcmp (fa->path, fb->path);
}

/**
 * lode_impact_rank:
 * @graph: a frozen graph
 * @changed: (element-type LodeChangedFile): what changed
 * @depth: hops to follow from the changed files, at most %LODE_GRAPH_MAX_DEPTH
 *
 * The files a change may affect, most likely first: by distance from the change, then by how
 * many of their imports lead to it, then by how many files depend on them. A renamed file
 * counts under both names, so that the dependents of the old name are found while the
 * index is older than the change.
 *
 * Returns: (transfer full) (element-type LodeImpactFile): the changed files that are in the
 *   graph (distance 0) and the files that depend on them; paths belong to @graph
 */
GArray *
lode_impact_rank (const LodeGraph *graph,
                  GPtrArray       *changed,
                  guint            depth)
{
  g_autoptr(GArray) start = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) hits = NULL;
  GArray *ranked;

  g_return_val_if_fail (graph != NULL, NULL);
  g_return_val_if_fail (changed != NULL, NULL);

  for (guint i = 0; i < changed->len; i++)
    {
      const LodeChangedFile *file = g_ptr_array_index (changed, i);
      guint id;

      if (lode_graph_lookup (graph, file->path, &id))
        g_array_append_val (start, id);
      if (file->old_path != NULL && lode_graph_lookup (graph, file->old_path, &id))
        g_array_append_val (start, id);
    }

  hits = lode_graph_impact (graph, (const guint *) start->data, start->len, LODE_GRAPH_INBOUND,
                            depth);
  ranked = g_array_sized_new (FALSE, FALSE, sizeof (LodeImpactFile), hits->len);
  for (guint i = 0; i < hits->len; i++)
    {
      const LodeGraphHit *hit = &g_array_index (hits, LodeGraphHit, i);
      LodeImpactFile file = { lode_graph_get_path (graph, hit->file), hit->distance, hit->links,
                              0 };

      lode_graph_get_dependents (graph, hit->file, &file.n_dependents);
      g_array_append_val (ranked, file);
    }
  g_array_sort (ranked, compare_impact);

  return ranked;
}
