/* lode-git-history.c — what a project's recent git history says: commits and file dates
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "lode-git-history.h"
#include "lode-impact.h"

/*
 * One `git log` of the last LODE_GIT_HISTORY_MAX_COMMITS commits that touch the project's
 * tree gives what the knowledge tools need of history: when each file last changed (team
 * patterns rise or decline with it; a memory whose code changed since it was recorded loses
 * confidence) and the commit subjects that memories are mined from. It runs through
 * lode_git_run(), which never starts a command from the tree's configuration; `log` is
 * told not to verify signatures (log.showSignature would start gpg.program). The history is
 * kept per tree until HEAD moves: a new commit, a checkout, a pull.
 */

struct _LodeGitHistory
{
  gatomicrefcount  ref_count;
  char            *root;
  char            *head;       /* NULL outside a git work tree (or before its first commit) */
  GPtrArray       *commits;    /* LodeCommit, newest first */
  GHashTable      *file_times; /* path → gint64 *, the newest commit touching it */
  gint64           oldest;     /* the oldest commit read, when the history was cut there */
};

static GMutex cache_lock;
static GHashTable *cache;      /* root → LodeGitHistory */

static void
lode_commit_free (LodeCommit *commit)
{
  g_free (commit->id);
  g_free (commit->subject);
  g_strfreev (commit->files);
  g_free (commit);
}

LodeGitHistory *
lode_git_history_ref (LodeGitHistory *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  g_atomic_ref_count_inc (&self->ref_count);
  return self;
}

void
lode_git_history_unref (LodeGitHistory *self)
{
  if (self == NULL || !g_atomic_ref_count_dec (&self->ref_count))
    return;

  g_free (self->root);
  g_free (self->head);
  g_ptr_array_unref (self->commits);
  g_hash_table_unref (self->file_times);
  g_free (self);
}

static char *
dup_head (const char   *root,
          GCancellable *cancellable)
{
  const char *argv[] = { "rev-parse", "--verify", "-q", "HEAD", NULL };
  g_autoptr(GBytes) out = lode_git_run (root, argv, cancellable, NULL);
  g_autofree char *text = NULL;

  if (out == NULL)
    return NULL;
  text = g_strndup (g_bytes_get_data (out, NULL), g_bytes_get_size (out));
  g_strstrip (text);

  return text[0] != '\0' ? g_steal_pointer (&text) : NULL;
}

/* `--format=%x01%H%x02%ct%x02%s -z --name-only`: records end with NUL; a commit's record
 * starts with \001 (after the newline that ends the previous commit's files), the records
 * after it name its files. */
static void
parse_log (LodeGitHistory *self,
           GBytes         *bytes)
{
  gsize len;
  const char *data = g_bytes_get_data (bytes, &len);
  const char *end = data + len;
  LodeCommit *commit = NULL;
  g_autoptr(GStrvBuilder) files = NULL;

  for (const char *p = data; p != NULL && p < end; )
    {
      const char *nul = memchr (p, '\0', end - p);
      const char *record_end = nul != NULL ? nul : end;
      const char *record = p;

      while (record < record_end && *record == '\n')
        record++;
      if (record < record_end && *record == '\001')
        {
          g_auto(GStrv) fields = NULL;
          g_autofree char *text = g_strndup (record + 1, record_end - record - 1);

          if (commit != NULL)
            commit->files = g_strv_builder_end (files);
          g_clear_pointer (&files, g_strv_builder_unref);
          fields = g_strsplit (text, "\002", 3);
          commit = g_new0 (LodeCommit, 1);
          commit->id = g_strdup (fields[0]);
          commit->time = fields[1] != NULL ? g_ascii_strtoll (fields[1], NULL, 10) : 0;
          commit->subject = g_strdup (fields[1] != NULL && fields[2] != NULL ? fields[2] : "");
          files = g_strv_builder_new ();
          g_ptr_array_add (self->commits, commit);
        }
      else if (record < record_end && commit != NULL)
        {
          g_autofree char *path = g_strndup (record, record_end - record);

          g_strv_builder_add (files, path);
          if (!g_hash_table_contains (self->file_times, path))
            {
              gint64 *time = g_new (gint64, 1);

              *time = commit->time;
              g_hash_table_insert (self->file_times, g_steal_pointer (&path), time);
            }
        }
      p = nul != NULL ? nul + 1 : NULL;
    }
  if (commit != NULL)
    commit->files = g_strv_builder_end (files);
}

static LodeGitHistory *
history_new (const char   *root,
             char         *head,
             GCancellable *cancellable,
             GError      **error)
{
  g_autofree char *max = g_strdup_printf ("-n%d", LODE_GIT_HISTORY_MAX_COMMITS);
  const char *argv[] = {
    "log", "--no-show-signature", "--no-renames", "--relative", "-z", "--name-only",
    "--format=%x01%H%x02%ct%x02%s", max, "HEAD", "--", ".", NULL
  };
  g_autoptr(LodeGitHistory) self = g_new0 (LodeGitHistory, 1);

  g_atomic_ref_count_init (&self->ref_count);
  self->root = g_strdup (root);
  self->head = head;
  self->commits = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_commit_free);
  self->file_times = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->oldest = -1;

  if (self->head != NULL)
    {
      g_autoptr(GBytes) out = lode_git_run (root, argv, cancellable, error);

      if (out == NULL)
        return NULL;
      parse_log (self, out);
      if (self->commits->len >= LODE_GIT_HISTORY_MAX_COMMITS)
        self->oldest = ((LodeCommit *) g_ptr_array_index (self->commits,
                                                          self->commits->len - 1))->time;
    }

  return g_steal_pointer (&self);
}

/**
 * lode_git_history_get:
 * @root: a project's root
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * The history of @root: read once per HEAD (a tree outside git has an empty one, see
 * lode_git_history_is_git()).
 *
 * Returns: (transfer full) (nullable): the history, or %NULL when git failed
 */
LodeGitHistory *
lode_git_history_get (const char    *root,
                      GCancellable  *cancellable,
                      GError       **error)
{
  g_autofree char *head = NULL;
  LodeGitHistory *history;

  g_return_val_if_fail (root != NULL, NULL);

  head = dup_head (root, cancellable);

  g_mutex_lock (&cache_lock);
  if (cache == NULL)
    cache = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                   (GDestroyNotify) lode_git_history_unref);
  history = g_hash_table_lookup (cache, root);
  if (history != NULL && g_strcmp0 (history->head, head) == 0)
    {
      lode_git_history_ref (history);
      g_mutex_unlock (&cache_lock);
      return history;
    }
  g_mutex_unlock (&cache_lock);

  /* Read outside the lock: other trees' callers need not wait for this one. */
  history = history_new (root, g_steal_pointer (&head), cancellable, error);
  if (history == NULL)
    return NULL;

  g_mutex_lock (&cache_lock);
  g_hash_table_replace (cache, history->root, lode_git_history_ref (history));
  g_mutex_unlock (&cache_lock);

  return history;
}

gboolean
lode_git_history_is_git (LodeGitHistory *self)
{
  g_return_val_if_fail (self != NULL, FALSE);
  return self->head != NULL;
}

/**
 * lode_git_history_get_head:
 * @self: a #LodeGitHistory
 *
 * Returns: (nullable): the commit HEAD names, %NULL outside git
 */
const char *
lode_git_history_get_head (LodeGitHistory *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->head;
}

/**
 * lode_git_history_get_commits:
 * @self: a #LodeGitHistory
 *
 * Returns: (transfer none) (element-type LodeCommit): the commits that touch the tree,
 *   newest first, at most %LODE_GIT_HISTORY_MAX_COMMITS
 */
GPtrArray *
lode_git_history_get_commits (LodeGitHistory *self)
{
  g_return_val_if_fail (self != NULL, NULL);
  return self->commits;
}

/**
 * lode_git_history_get_file_time:
 * @self: a #LodeGitHistory
 * @path: a file, relative to the root
 *
 * When @path last changed: the time of the newest commit touching it; for a file older
 * than the commits read, the oldest of them; for a file git does not know (untracked, or
 * outside git), its modification time.
 *
 * Returns: seconds since the epoch, or -1 when @path does not exist
 */
gint64
lode_git_history_get_file_time (LodeGitHistory *self,
                                const char     *path)
{
  gint64 *time;
  g_autofree char *full = NULL;
  GStatBuf st;

  g_return_val_if_fail (self != NULL, -1);
  g_return_val_if_fail (path != NULL, -1);

  /* A file deleted in a commit is still in the history: gone all the same. */
  full = g_build_filename (self->root, path, NULL);
  if (g_stat (full, &st) != 0)
    return -1;
  time = g_hash_table_lookup (self->file_times, path);
  if (time != NULL)
    return *time;
  if (self->oldest >= 0)
    return self->oldest;

  return st.st_mtime;
}
