/* lode-project.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-project"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lode-error.h"
#include "lode-project-private.h"

/*
 * A project is one source tree and its index: `<data-dir>/projects/<id>/index.db`, where the
 * id is the first 12 hex digits of the SHA-256 of the tree's canonical path. A plain `root`
 * file next to the database names the tree, so that listing projects never has to open (and
 * possibly migrate) a database.
 *
 * With branch-aware indexes (issue #14) a project in a git work tree has one index per
 * branch, `branch-NAME.db` beside `index.db` (NAME escaped by lode_git_escape_branch(), a
 * detached HEAD named by its commit), each with its own writer lock `branch-NAME.lock`. HEAD
 * is read at every run and search, so a switch is seen at once. The `branch` file names the
 * branch of the last index run: the branch a new one came from. A new branch's index starts
 * as a copy of that one's, and until its first run, reads answer from that one.
 */

G_DEFINE_FINAL_TYPE (LodeProject, lode_project, G_TYPE_OBJECT)

static void
lode_project_finalize (GObject *object)
{
  LodeProject *self = (LodeProject *)object;

  g_clear_object (&self->reader);
  g_clear_object (&self->calls);
  g_clear_object (&self->calls_reader);
  g_mutex_clear (&self->reader_lock);
  g_clear_object (&self->searcher);
  g_free (self->generation);
  g_free (self->checked);
  g_clear_object (&self->embedder);
  g_free (self->embedder_notice);
  g_clear_pointer (&self->config, lode_config_free);
  g_clear_pointer (&self->head, lode_git_head_cache_free);
  g_free (self->root);
  g_free (self->id);
  g_free (self->dir);

  G_OBJECT_CLASS (lode_project_parent_class)->finalize (object);
}

static void
lode_project_class_init (LodeProjectClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_project_finalize;
}

static void
lode_project_init (LodeProject *self)
{
  g_mutex_init (&self->reader_lock);
  self->embedder_notice = g_strdup ("no embedding provider");
}

/**
 * lode_project_id_for_path:
 * @canonical_path: an absolute path with symbolic links resolved
 *
 * Returns: (transfer full): the first 12 hex digits of the SHA-256 of @canonical_path
 */
char *
lode_project_id_for_path (const char *canonical_path)
{
  g_autofree char *sha = NULL;

  g_return_val_if_fail (canonical_path != NULL, NULL);

  sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, canonical_path, -1);
  return g_strndup (sha, 12);
}

/**
 * lode_project_new:
 * @root: the canonical absolute path of the tree
 * @config: settings; copied
 *
 * Returns: (transfer full): a project; nothing is created on disk until it is indexed
 */
LodeProject *
lode_project_new (const char       *root,
                  const LodeConfig *config)
{
  g_autofree char *index_path = NULL;
  LodeProject *self;

  g_return_val_if_fail (root != NULL && g_path_is_absolute (root), NULL);
  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (LODE_TYPE_PROJECT, NULL);
  self->root = g_strdup (root);
  self->id = lode_project_id_for_path (root);
  self->config = lode_config_copy (config);
  self->dir = g_build_filename (config->data_dir, "projects", self->id, NULL);
  index_path = g_build_filename (self->dir, "index.db", NULL);
  self->db_path = g_intern_string (index_path);
  self->store_kind = LODE_STORE_KIND_SQLITE;
  lode_store_kind_from_string (config->store, &self->store_kind);
  self->head = lode_git_head_cache_new (root);

  return self;
}

const char *
lode_project_get_id (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  return self->id;
}

const char *
lode_project_get_root (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  return self->root;
}

/* Semantic search (issue #4) */

/**
 * lode_project_set_embedder:
 * @self: a #LodeProject
 * @embedder: (nullable): the provider that embeds this project's chunks and queries
 * @unavailable: (nullable): without @embedder, why there is none (it completes
 *   "semantic search unavailable: …")
 *
 * Sets the embedding provider. Vectors of another model are never mixed with those of
 * @embedder: the next index run embeds the chunks for @embedder's model, and searches use
 * only that model's vectors.
 */
void
lode_project_set_embedder (LodeProject  *self,
                           LodeEmbedder *embedder,
                           const char   *unavailable)
{
  g_return_if_fail (LODE_IS_PROJECT (self));
  g_return_if_fail (embedder == NULL || LODE_IS_EMBEDDER (embedder));

  g_mutex_lock (&self->reader_lock);
  g_set_object (&self->embedder, embedder);
  g_free (self->embedder_notice);
  self->embedder_notice = g_strdup (unavailable != NULL ? unavailable
                                                        : "no embedding provider");
  g_mutex_unlock (&self->reader_lock);
}

/* Returns: (transfer full) (nullable): the embedding provider; without one, @unavailable
 * (optional) gets why there is none. */
LodeEmbedder *
_lode_project_dup_embedder (LodeProject  *self,
                            char        **unavailable)
{
  LodeEmbedder *embedder = NULL;

  g_mutex_lock (&self->reader_lock);
  if (self->embedder != NULL)
    embedder = g_object_ref (self->embedder);
  else if (unavailable != NULL)
    *unavailable = g_strdup (self->embedder_notice);
  g_mutex_unlock (&self->reader_lock);

  return embedder;
}

/* A Qdrant collection is made with the size of its dense vectors, which a remote provider
 * only tells with its first answer: it is asked once here. 0 without an embedder (the
 * collection then holds no dense vectors) or for the SQLite store, which needs no size. */
guint
_lode_project_embedder_dims (LodeProject  *self,
                             GCancellable *cancellable)
{
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) probe = NULL;
  g_autoptr(GError) error = NULL;
  const char *texts[] = { "dimensions", NULL };
  guint dims;

  if (self->store_kind != LODE_STORE_KIND_QDRANT)
    return 0;

  embedder = _lode_project_dup_embedder (self, NULL);
  if (embedder == NULL)
    return 0;

  dims = lode_embedder_get_dims (embedder);
  if (dims > 0)
    return dims;

  probe = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_DOCUMENT, cancellable, &error);
  if (probe == NULL)
    {
      g_warning ("Cannot learn the size of %s's vectors: %s", lode_embedder_get_model (embedder),
                 error->message);
      return 0;
    }
  return probe->dims;
}

/**
 * lode_project_get_embedder:
 * @self: a #LodeProject
 *
 * Returns: (transfer none) (nullable): the embedding provider
 */
LodeEmbedder *
lode_project_get_embedder (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  return self->embedder;
}

/* Paths the project is given ---------------------------------------------------------- */

/**
 * lode_project_dup_relative_path:
 * @self: a #LodeProject
 * @path: a path as a user gives it: relative to the root (`src/a.c`, `./src/a.c`) or
 *   absolute inside it
 *
 * Returns: (transfer full) (nullable): @path relative to the root, `/`-separated, or %NULL
 *   when it leads outside the root
 */
char *
lode_project_dup_relative_path (LodeProject *self,
                                const char  *path)
{
  g_autofree char *absolute = NULL;
  g_autofree char *canonical = NULL;
  gsize root_len;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  absolute = g_path_is_absolute (path) ? g_strdup (path)
                                       : g_build_filename (self->root, path, NULL);
  canonical = g_canonicalize_filename (absolute, NULL);
  root_len = strlen (self->root);

  if (strncmp (canonical, self->root, root_len) != 0 || canonical[root_len] != '/')
    return NULL;

  return g_strdup (canonical + root_len + 1);
}

/* Whether the canonical @path is @root or lies under it. */
static gboolean
is_inside (const char *root,
           const char *path)
{
  gsize root_len = strlen (root);

  if (strcmp (root, "/") == 0)
    return path[0] == '/';
  return strncmp (path, root, root_len) == 0 &&
         (path[root_len] == '\0' || path[root_len] == '/');
}

/**
 * lode_project_dup_real_path:
 * @self: a #LodeProject
 * @path: a path the project's own files name (a context artifact of `.lode.json`): relative
 *   to the root or absolute
 * @error: return location for a #GError
 *
 * What the project's files name comes with the project, and a hostile one may name anything
 * (`../../.ssh/id_rsa`, `/etc/shadow`, a link to either). @path must lie inside the root (or
 * be the root) both as written, with `.` and `..` resolved, and once its symbolic links are
 * followed; the result is the path to open.
 *
 * Returns: (transfer full) (nullable): the canonical absolute path @path leads to, links
 *   resolved; %NULL with %LODE_ERROR_INVALID_ARGUMENT when it lies outside the root, with
 *   %LODE_ERROR_NOT_FOUND when it does not exist, %LODE_ERROR_FAILED when it cannot be
 *   resolved
 */
char *
lode_project_dup_real_path (LodeProject  *self,
                            const char   *path,
                            GError      **error)
{
  g_autofree char *absolute = NULL;
  g_autofree char *canonical = NULL;
  g_autofree char *root = NULL;
  g_autofree char *real = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  root = realpath (self->root, NULL);
  if (root == NULL)
    root = g_strdup (self->root);

  /* As written first: a path outside is refused without looking at what is there. */
  absolute = g_path_is_absolute (path) ? g_strdup (path)
                                       : g_build_filename (self->root, path, NULL);
  canonical = g_canonicalize_filename (absolute, NULL);
  if (!is_inside (self->root, canonical) && !is_inside (root, canonical))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s lies outside the project", path);
      return NULL;
    }

  real = realpath (canonical, NULL);
  if (real == NULL)
    {
      int saved_errno = errno;

      if (saved_errno == ENOENT)
        g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s does not exist", path);
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED, "Cannot resolve %s: %s", path,
                     g_strerror (saved_errno));
      return NULL;
    }
  if (!is_inside (root, real))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s leads outside the project through a symbolic link", path);
      return NULL;
    }

  return g_steal_pointer (&real);
}
