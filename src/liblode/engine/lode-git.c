/* lode-git.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-git"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-git.h"

/*
 * Branch-aware indexes (issue #14) need the checked-out branch at every index run and
 * search: a few small files, read here rather than by starting git. A work tree has a `.git`
 * folder, or (a linked worktree, a submodule) a `.git` file whose `gitdir:` line names its
 * git directory; that directory's `commondir` file, when there is one, names the shared one
 * that holds the refs. Refs in the reftable format are not read: there every branch counts
 * as existing, so that pruning never deletes the index of a branch that is still there.
 *
 * A project asks at every search, so LodeGitHeadCache keeps what it read with the state of
 * every file it depended on (each `.git` looked for, HEAD, `commondir`) and reads them again
 * only when one of them changed: a few stat() calls instead. git replaces HEAD (writes a new
 * file and renames it over the old one) when it switches, so a switch is seen at once.
 */

/* A file a reading of HEAD depended on, and its state then. */
typedef struct
{
  char     *path;
  gboolean  exists;
  dev_t     dev;
  ino_t     ino;
  off_t     size;
  gint64    mtime_nsec;
  gint64    ctime_nsec;
} Stamp;

static void
stamp_clear (Stamp *stamp)
{
  g_free (stamp->path);
}

static void
stamp_read (Stamp      *stamp,
            const char *path)
{
  GStatBuf st;

  memset (stamp, 0, sizeof *stamp);
  stamp->exists = g_stat (path, &st) == 0;
  if (!stamp->exists)
    return;
  stamp->dev = st.st_dev;
  stamp->ino = st.st_ino;
  stamp->size = st.st_size;
  stamp->mtime_nsec = (gint64) st.st_mtim.tv_sec * G_GINT64_CONSTANT (1000000000) +
                      st.st_mtim.tv_nsec;
  stamp->ctime_nsec = (gint64) st.st_ctim.tv_sec * G_GINT64_CONSTANT (1000000000) +
                      st.st_ctim.tv_nsec;
}

/* Whether every file in @stamps is as it was. */
static gboolean
stamps_hold (GArray *stamps)
{
  for (guint i = 0; i < stamps->len; i++)
    {
      const Stamp *then = &g_array_index (stamps, Stamp, i);
      Stamp now;
      gboolean same;

      stamp_read (&now, then->path);
      same = now.exists == then->exists && now.dev == then->dev && now.ino == then->ino &&
             now.size == then->size && now.mtime_nsec == then->mtime_nsec &&
             now.ctime_nsec == then->ctime_nsec;
      if (!same)
        return FALSE;
    }

  return TRUE;
}

/* Notes the state of @path in @stamps (when given). */
static void
note (GArray     *stamps,
      const char *path)
{
  Stamp stamp;

  if (stamps == NULL)
    return;

  stamp_read (&stamp, path);
  stamp.path = g_strdup (path);
  g_array_append_val (stamps, stamp);
}

void
lode_git_head_free (LodeGitHead *head)
{
  if (head == NULL)
    return;

  g_free (head->name);
  g_free (head->common_dir);
  g_free (head);
}

static char *
read_line (const char  *path,
           GError     **error)
{
  g_autofree char *contents = NULL;
  char *newline;

  if (!g_file_get_contents (path, &contents, NULL, error))
    return NULL;
  newline = strchr (contents, '\n');
  if (newline != NULL)
    *newline = '\0';

  return g_strdup (g_strstrip (contents));
}

/* @path relative to @dir unless absolute, with `..` resolved. */
static char *
resolve (const char *dir,
         const char *path)
{
  return g_canonicalize_filename (path, dir);
}

/* The git directory of the work tree holding @root, or NULL when there is none. Every `.git`
 * looked for is noted in @stamps (when given). */
static char *
find_git_dir (const char  *root,
              GArray      *stamps,
              GError     **error)
{
  g_autofree char *dir = g_strdup (root);

  for (;;)
    {
      g_autofree char *dot_git = g_build_filename (dir, ".git", NULL);
      char *parent;

      note (stamps, dot_git);
      if (g_file_test (dot_git, G_FILE_TEST_IS_DIR))
        return g_steal_pointer (&dot_git);
      if (g_file_test (dot_git, G_FILE_TEST_IS_REGULAR))
        {
          g_autofree char *line = read_line (dot_git, error);

          if (line == NULL)
            return NULL;
          if (!g_str_has_prefix (line, "gitdir:"))
            {
              g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                           "%s has no “gitdir:” line", dot_git);
              return NULL;
            }
          return resolve (dir, g_strstrip (line + strlen ("gitdir:")));
        }

      parent = g_path_get_dirname (dir);
      if (g_str_equal (parent, dir))
        {
          g_free (parent);
          return NULL;
        }
      g_free (dir);
      dir = parent;
    }
}

static gboolean
is_commit_id (const char *text)
{
  gsize len = strlen (text);

  if (len != 40 && len != 64)
    return FALSE;
  for (; *text != '\0'; text++)
    if (!g_ascii_isxdigit (*text))
      return FALSE;

  return TRUE;
}

/* lode_git_read_head(), noting in @stamps (when given) every file it depended on. */
static LodeGitHead *
read_head (const char  *root,
           GArray      *stamps,
           GError     **error)
{
  g_autoptr(LodeGitHead) head = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autofree char *git_dir = NULL;
  g_autofree char *head_path = NULL;
  g_autofree char *commondir_path = NULL;
  g_autofree char *commondir = NULL;
  g_autofree char *line = NULL;

  git_dir = find_git_dir (root, stamps, error);
  if (git_dir == NULL)
    return NULL;

  head_path = g_build_filename (git_dir, "HEAD", NULL);
  note (stamps, head_path);
  line = read_line (head_path, error);
  if (line == NULL)
    return NULL;

  head = g_new0 (LodeGitHead, 1);
  if (g_str_has_prefix (line, "ref:"))
    {
      const char *ref = g_strstrip (line + strlen ("ref:"));

      head->name = g_strdup (g_str_has_prefix (ref, "refs/heads/")
                             ? ref + strlen ("refs/heads/") : ref);
    }
  else if (is_commit_id (line))
    {
      head->name = g_strdup (line);
      head->detached = TRUE;
    }
  if (head->name == NULL || *head->name == '\0')
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s names neither a branch nor a commit", head_path);
      return NULL;
    }

  commondir_path = g_build_filename (git_dir, "commondir", NULL);
  note (stamps, commondir_path);
  commondir = read_line (commondir_path, &local_error);
  head->common_dir = commondir != NULL ? resolve (git_dir, commondir)
                                       : g_steal_pointer (&git_dir);

  return g_steal_pointer (&head);
}

static LodeGitHead *
head_copy (const LodeGitHead *head)
{
  LodeGitHead *copy = g_new0 (LodeGitHead, 1);

  copy->name = g_strdup (head->name);
  copy->detached = head->detached;
  copy->common_dir = g_strdup (head->common_dir);
  return copy;
}

/**
 * lode_git_read_head:
 * @root: a folder, in a git work tree or not
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): what is checked out in the work tree holding @root;
 *   %NULL without @error set when @root is in no git work tree, %NULL with @error set when
 *   its git files cannot be read or make no sense
 */
LodeGitHead *
lode_git_read_head (const char  *root,
                    GError     **error)
{
  g_return_val_if_fail (root != NULL, NULL);

  return read_head (root, NULL, error);
}

struct _LodeGitHeadCache
{
  GMutex       lock;
  char        *root;
  GArray      *stamps;    /* (nullable) Stamp: what the last reading depended on; NULL
                           * before the first and after one that failed */
  LodeGitHead *head;      /* (nullable): what it found; NULL for no work tree */
};

/**
 * lode_git_head_cache_new:
 * @root: a folder, in a git work tree or not
 *
 * Returns: (transfer full): a cache of what is checked out in the work tree holding @root,
 *   read at the first lode_git_head_cache_read()
 */
LodeGitHeadCache *
lode_git_head_cache_new (const char *root)
{
  LodeGitHeadCache *cache;

  g_return_val_if_fail (root != NULL, NULL);

  cache = g_new0 (LodeGitHeadCache, 1);
  g_mutex_init (&cache->lock);
  cache->root = g_strdup (root);
  return cache;
}

void
lode_git_head_cache_free (LodeGitHeadCache *cache)
{
  if (cache == NULL)
    return;

  g_mutex_clear (&cache->lock);
  g_free (cache->root);
  g_clear_pointer (&cache->stamps, g_array_unref);
  g_clear_pointer (&cache->head, lode_git_head_free);
  g_free (cache);
}

/**
 * lode_git_head_cache_read:
 * @cache: a #LodeGitHeadCache
 * @error: return location for a #GError
 *
 * lode_git_read_head() of the cache's folder, read again only when a file it depends on
 * changed (its size, times or inode). Safe to call from any thread.
 *
 * Returns: (transfer full) (nullable): as lode_git_read_head()
 */
LodeGitHead *
lode_git_head_cache_read (LodeGitHeadCache  *cache,
                          GError           **error)
{
  g_autoptr(GArray) stamps = NULL;
  g_autoptr(GError) local_error = NULL;
  LodeGitHead *head;

  g_return_val_if_fail (cache != NULL, NULL);

  g_mutex_lock (&cache->lock);
  if (cache->stamps != NULL && stamps_hold (cache->stamps))
    {
      head = cache->head != NULL ? head_copy (cache->head) : NULL;
      g_mutex_unlock (&cache->lock);
      return head;
    }

  stamps = g_array_new (FALSE, FALSE, sizeof (Stamp));
  g_array_set_clear_func (stamps, (GDestroyNotify) stamp_clear);
  head = read_head (cache->root, stamps, &local_error);
  g_clear_pointer (&cache->stamps, g_array_unref);
  g_clear_pointer (&cache->head, lode_git_head_free);
  /* What failed is read again next time: the files may be half written. */
  if (local_error == NULL)
    {
      cache->stamps = g_steal_pointer (&stamps);
      cache->head = head != NULL ? head_copy (head) : NULL;
    }
  g_mutex_unlock (&cache->lock);

  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));
  return head;
}

/**
 * lode_git_branch_exists:
 * @common_dir: a repository's shared git directory
 * @branch: a branch name
 *
 * Returns: whether @branch is in the repository's refs (a loose ref or `packed-refs`);
 *   always %TRUE for refs in the reftable format, which are not read
 */
gboolean
lode_git_branch_exists (const char *common_dir,
                        const char *branch)
{
  g_autofree char *reftable = NULL;
  g_autofree char *loose = NULL;
  g_autofree char *packed_path = NULL;
  g_autofree char *packed = NULL;
  g_autofree char *ref = NULL;
  g_auto(GStrv) lines = NULL;

  g_return_val_if_fail (common_dir != NULL && branch != NULL, FALSE);

  reftable = g_build_filename (common_dir, "reftable", NULL);
  if (g_file_test (reftable, G_FILE_TEST_IS_DIR))
    return TRUE;

  loose = g_build_filename (common_dir, "refs", "heads", branch, NULL);
  if (g_file_test (loose, G_FILE_TEST_IS_REGULAR))
    return TRUE;

  packed_path = g_build_filename (common_dir, "packed-refs", NULL);
  if (!g_file_get_contents (packed_path, &packed, NULL, NULL))
    return FALSE;

  /* Lines are `<id> refs/heads/<name>`; `#` and `^` lines are comments and peeled tags. */
  ref = g_strconcat ("refs/heads/", branch, NULL);
  lines = g_strsplit (packed, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      const char *space = strchr (g_strchomp (lines[i]), ' ');

      if (lines[i][0] != '#' && lines[i][0] != '^' && space != NULL &&
          g_str_equal (space + 1, ref))
        return TRUE;
    }

  return FALSE;
}

/**
 * lode_git_escape_branch:
 * @name: a branch name or commit id
 *
 * Returns: (transfer full): @name as a file name and Qdrant collection name: ASCII letters,
 *   digits, `-` and `.` (not first) stay, every other byte becomes `_XX` (its hex value)
 */
char *
lode_git_escape_branch (const char *name)
{
  GString *escaped;

  g_return_val_if_fail (name != NULL, NULL);

  escaped = g_string_new (NULL);
  for (const char *p = name; *p != '\0'; p++)
    {
      guchar c = (guchar) *p;

      if (g_ascii_isalnum (c) || c == '-' || (c == '.' && p != name))
        g_string_append_c (escaped, c);
      else
        g_string_append_printf (escaped, "_%02X", c);
    }

  return g_string_free (escaped, FALSE);
}

/**
 * lode_git_unescape_branch:
 * @escaped: what lode_git_escape_branch() made
 *
 * Returns: (transfer full) (nullable): the branch name, or %NULL when @escaped is not an
 *   escaped name
 */
char *
lode_git_unescape_branch (const char *escaped)
{
  g_autoptr(GString) name = NULL;

  g_return_val_if_fail (escaped != NULL, NULL);

  name = g_string_new (NULL);
  for (const char *p = escaped; *p != '\0'; p++)
    {
      if (*p != '_')
        {
          g_string_append_c (name, *p);
          continue;
        }
      if (!g_ascii_isxdigit (p[1]) || !g_ascii_isxdigit (p[2]))
        return NULL;
      g_string_append_c (name, (char) (g_ascii_xdigit_value (p[1]) * 16 +
                                       g_ascii_xdigit_value (p[2])));
      p += 2;
    }

  return g_string_free (g_steal_pointer (&name), FALSE);
}
