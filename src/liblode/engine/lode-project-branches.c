/* lode-project-branches.c — which index a project reads and writes, one per git branch
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-project"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-git.h"
#include "lode-project-private.h"

/* The checked-out branch (or commit) when indexes are branch-aware and the tree is a git work
 * tree, else NULL: the one index.db. Asked at every run and search, so that a switch is seen
 * at once; the files are read again only when they changed (LodeGitHeadCache). */
LodeGitHead *
_lode_project_read_head (LodeProject *self)
{
  g_autoptr(GError) error = NULL;
  LodeGitHead *head;

  if (!self->config->branch_aware)
    return NULL;

  head = lode_git_head_cache_read (self->head, &error);
  if (error != NULL)
    g_warning ("Cannot tell the git branch of %s, using its one index: %s", self->root,
               error->message);
  return head;
}

/* Returns: (transfer none): the index file of @branch (interned: paths handed out stay valid
 * when the branch changes); index.db for NULL */
const char *
_lode_project_branch_db_path (LodeProject *self,
                              const char  *branch)
{
  g_autofree char *escaped = NULL;
  g_autofree char *name = NULL;
  g_autofree char *path = NULL;

  if (branch == NULL)
    return self->db_path;

  escaped = lode_git_escape_branch (branch);
  name = g_strconcat ("branch-", escaped, ".db", NULL);
  path = g_build_filename (self->dir, name, NULL);
  return g_intern_string (path);
}

static guint64
file_size (const char *path)
{
  GStatBuf st;

  return g_stat (path, &st) == 0 ? (guint64) st.st_size : 0;
}

/* The bytes a SQLite index takes on disk, its WAL included. */
guint64
_lode_project_index_size (const char *db_path)
{
  g_autofree char *wal = g_strconcat (db_path, "-wal", NULL);

  return file_size (db_path) + file_size (wal);
}

/* Returns: (transfer full) (nullable): the branch of the last index run */
char *
_lode_project_dup_last_branch (LodeProject *self)
{
  g_autofree char *path = g_build_filename (self->dir, "branch", NULL);
  char *branch = NULL;

  if (!g_file_get_contents (path, &branch, NULL, NULL))
    return NULL;
  return g_strchomp (branch);
}

/* Returns: (transfer none) (nullable): the index a first run of @branch starts from, and that
 * answers for it until then: the index of the last run's branch, else index.db (the index of
 * before branch-aware indexes were on); NULL when there is none. */
static const char *
origin_db_path (LodeProject *self,
                const char  *branch)
{
  g_autofree char *last = _lode_project_dup_last_branch (self);
  const char *path;

  if (last != NULL && g_strcmp0 (last, branch) != 0)
    {
      path = _lode_project_branch_db_path (self, last);
      if (lode_index_store_exists (self->store_kind, path))
        return path;
    }
  if (lode_index_store_exists (self->store_kind, self->db_path))
    return self->db_path;
  return NULL;
}

/**
 * lode_project_get_db_path:
 * @self: a #LodeProject
 *
 * Returns: (transfer none): the index file of the checked-out branch when indexes are
 *   branch-aware, else `index.db` (also the name the Qdrant collection is made from); the
 *   string stays valid as long as the process
 */
const char *
lode_project_get_db_path (LodeProject *self)
{
  g_autoptr(LodeGitHead) head = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  head = _lode_project_read_head (self);
  return _lode_project_branch_db_path (self, head != NULL ? head->name : NULL);
}

/**
 * lode_project_dup_branch:
 * @self: a #LodeProject
 *
 * Returns: (transfer full) (nullable): the branch (or detached commit) whose index the
 *   project uses; %NULL when indexes are not branch-aware or the tree is not a git work tree
 */
char *
lode_project_dup_branch (LodeProject *self)
{
  g_autoptr(LodeGitHead) head = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  head = _lode_project_read_head (self);
  return head != NULL ? g_steal_pointer (&head->name) : NULL;
}

/* Returns: (transfer none): the index reads use: the checked-out branch's, or until its
 * first run the one it will start from (@from names its branch; NULL for index.db); index.db
 * when not branch-aware. @branch gets the branch. */
const char *
_lode_project_reading_db_path (LodeProject  *self,
                               char        **branch,
                               char        **from)
{
  g_autoptr(LodeGitHead) head = _lode_project_read_head (self);
  const char *path = _lode_project_branch_db_path (self, head != NULL ? head->name : NULL);
  const char *origin;

  if (head != NULL && !lode_index_store_exists (self->store_kind, path) &&
      (origin = origin_db_path (self, head->name)) != NULL)
    {
      if (from != NULL && origin != self->db_path)
        *from = _lode_project_dup_last_branch (self);
      path = origin;
    }
  if (branch != NULL)
    *branch = head != NULL ? g_steal_pointer (&head->name) : NULL;

  return path;
}

/* A branch indexed for the first time starts as a copy of the index of the branch it came
 * from (origin_db_path()), so that the run after it re-reads only the files that differ.
 * Called with @db_path's writer lock held; the origin is copied as a consistent snapshot,
 * even while a writer works on it. A copy that fails is said and the run indexes the branch
 * from scratch: nothing is lost. @from gets the origin's branch (or "" for index.db). */
gboolean
_lode_project_seed_branch (LodeProject   *self,
                           const char    *branch,
                           const char    *db_path,
                           GCancellable  *cancellable,
                           char         **from,
                           GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  const char *origin;

  if (lode_index_store_exists (self->store_kind, db_path))
    return TRUE;
  origin = origin_db_path (self, branch);
  if (origin == NULL)
    return TRUE;

  embedder = _lode_project_dup_embedder (self, NULL);

  if (lode_index_store_seed (self->config, self->store_kind, origin, db_path,
                             _lode_project_embedder_dims (self, cancellable),
                             embedder != NULL ? lode_embedder_get_model (embedder) : NULL,
                             cancellable, &local_error))
    {
      *from = origin == self->db_path ? g_strdup ("") : _lode_project_dup_last_branch (self);
      return TRUE;
    }
  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_propagate_error (error, g_steal_pointer (&local_error));
      return FALSE;
    }

  g_warning ("Cannot start the index of branch %s of %s from a copy, indexing it from "
             "scratch: %s", branch, self->root, local_error->message);
  return lode_index_store_remove (self->config, self->store_kind, db_path, error);
}

/* Listing and pruning ------------------------------------------------------------------ */

void
lode_branch_index_free (LodeBranchIndex *index)
{
  if (index == NULL)
    return;

  g_free (index->branch);
  g_free (index->indexed_at);
  g_free (index);
}

static int
compare_branch_indexes (gconstpointer a,
                        gconstpointer b)
{
  const LodeBranchIndex *ia = *(LodeBranchIndex * const *) a;
  const LodeBranchIndex *ib = *(LodeBranchIndex * const *) b;

  return g_strcmp0 (ia->branch, ib->branch);
}

/**
 * lode_project_list_branches:
 * @self: a #LodeProject
 * @error: return location for a #GError
 *
 * Lists the branch indexes of the project in the store of the settings (`branch-NAME.db`,
 * or the `branch-NAME.qdrant` markers of Qdrant collections), whether or not indexes are
 * branch-aware now.
 *
 * Returns: (transfer full) (element-type LodeBranchIndex): the indexes, by branch name
 */
GPtrArray *
lode_project_list_branches (LodeProject  *self,
                            GError      **error)
{
  g_autoptr(GPtrArray) indexes = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local_error = NULL;
  g_autoptr(LodeGitHead) head = NULL;
  const char *suffix = self->store_kind == LODE_STORE_KIND_QDRANT ? ".qdrant" : ".db";
  const char *name;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  indexes = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_branch_index_free);
  dir = g_dir_open (self->dir, 0, &local_error);
  if (dir == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&indexes);
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                  "Cannot list the branch indexes of %s: ", self->root);
      return NULL;
    }

  head = lode_git_head_cache_read (self->head, NULL);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *escaped = NULL;
      g_autofree char *branch = NULL;
      g_autoptr(LodeIndexStore) store = NULL;
      LodeBranchIndex *index;
      const char *db_path;

      if (!g_str_has_prefix (name, "branch-") || !g_str_has_suffix (name, suffix))
        continue;
      escaped = g_strndup (name + strlen ("branch-"),
                           strlen (name) - strlen ("branch-") - strlen (suffix));
      branch = lode_git_unescape_branch (escaped);
      if (branch == NULL)
        continue;

      index = g_new0 (LodeBranchIndex, 1);
      db_path = _lode_project_branch_db_path (self, branch);
      index->current = head != NULL && g_str_equal (head->name, branch);
      index->exists = index->current ||
                      (head != NULL && lode_git_branch_exists (head->common_dir, branch));
      if (self->store_kind == LODE_STORE_KIND_SQLITE)
        index->db_size = _lode_project_index_size (db_path);
      store = lode_index_store_open (self->config, self->store_kind, db_path, 0, FALSE, NULL,
                                     NULL);
      if (store != NULL)
        index->indexed_at = lode_index_store_dup_meta (store, "indexed_at");
      index->branch = g_steal_pointer (&branch);
      g_ptr_array_add (indexes, index);
    }

  g_ptr_array_sort (indexes, compare_branch_indexes);
  return g_steal_pointer (&indexes);
}

/**
 * lode_project_remove_branch:
 * @self: a #LodeProject
 * @branch: a branch with an index
 * @cancellable: (nullable): a #GCancellable, while waiting for a writer of that index
 * @error: return location for a #GError
 *
 * Deletes the index of @branch (the SQLite files, or the Qdrant collection), once a run
 * writing it has ended. The index of the branch checked out is never deleted.
 *
 * Returns: %TRUE on success; %LODE_ERROR_NOT_FOUND when @branch has no index,
 *   %LODE_ERROR_INVALID_ARGUMENT when it is checked out
 */
gboolean
lode_project_remove_branch (LodeProject   *self,
                            const char    *branch,
                            GCancellable  *cancellable,
                            GError       **error)
{
  g_autoptr(LodeGitHead) head = NULL;
  g_auto(LodeProjectLock) lock = -1;
  const char *db_path;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (branch != NULL, FALSE);

  db_path = _lode_project_branch_db_path (self, branch);
  if (!lode_index_store_exists (self->store_kind, db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "Branch %s of %s has no index",
                   branch, self->root);
      return FALSE;
    }
  head = lode_git_head_cache_read (self->head, NULL);
  if (head != NULL && g_str_equal (head->name, branch))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Branch %s is checked out in %s: its index is in use and is kept", branch,
                   self->root);
      return FALSE;
    }

  lock = _lode_project_lock_writer (self, db_path, cancellable, NULL, NULL, error);
  if (lock < 0 || !lode_index_store_remove (self->config, self->store_kind, db_path, error))
    {
      g_prefix_error (error, "Cannot delete the index of branch %s of %s: ", branch,
                      self->root);
      return FALSE;
    }

  /* The lock file stays (empty): a writer waiting on it must find the same file. */
  return TRUE;
}
