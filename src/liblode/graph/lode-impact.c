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
#include "lode-git-command.h"
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
  g_autoptr(GBytes) check = NULL;
  g_auto(GStrv) lines = NULL;
  const char *base;
  const char *worktree_argv[] = {
    "diff", "--name-status", "-z", "-M", "--relative", NULL, "--", NULL
  };
  const char *range_argv[] = {
    "diff", "--name-status", "-z", "-M", "--relative", "--end-of-options", rev_range, "--",
    NULL
  };
  const char *untracked_argv[] = {
    "ls-files", "-z", "--others", "--exclude-standard", NULL
  };
  /* "true", the object format, and HEAD's commit unless the branch has none yet. */
  const char *check_argv[] = {
    "rev-parse", "--is-inside-work-tree", "--show-object-format", "--revs-only", "HEAD", NULL
  };

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

  check = lode_git_run (root, check_argv, cancellable, NULL);
  if (check != NULL)
    {
      gsize len = 0;
      const char *data = g_bytes_get_data (check, &len);
      g_autofree char *text = g_strndup (len > 0 ? data : "", len);

      lines = g_strsplit (text, "\n", 4);
    }
  if (lines == NULL || g_strv_length (lines) < 3 || strcmp (lines[0], "true") != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s is not inside a git work tree", root);
      return NULL;
    }

  /* Before the first commit, the work tree's changes are everything against the empty
   * tree, and no range exists yet. */
  if (*lines[2] != '\0')
    base = "HEAD";
  else if (rev_range != NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "The repository of %s has no commit yet, so there is no range %s; "
                   "without a range, the uncommitted changes are compared", root, rev_range);
      return NULL;
    }
  else if (strcmp (lines[1], "sha256") == 0)
    base = "6ef19b41225c5369f1c104d45d8d85efa9b057b53b14b4b9b939dd74decc5321";
  else
    base = "4b825dc642cb6eb9a060e54bf8d69288fbee4904";
  worktree_argv[5] = base;

  files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_changed_file_free);
  diff = lode_git_run (root, rev_range != NULL ? range_argv : worktree_argv, cancellable,
                       error);
  if (diff == NULL || !parse_name_status (diff, files, error))
    {
      g_prefix_error (error, "Cannot list the changes of %s: ",
                      rev_range != NULL ? rev_range : "the work tree");
      return NULL;
    }

  if (rev_range == NULL)
    {
      g_autoptr(GBytes) untracked = lode_git_run (root, untracked_argv, cancellable, error);
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
