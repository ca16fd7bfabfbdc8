/* lode-engine.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-engine"

#include "config.h"

#include <errno.h>
#include <glib/gstdio.h>
#include <stdlib.h>

#include "lode-embedder-config.h"
#include "lode-engine.h"
#include "lode-error.h"

/*
 * The entry point of every front end: turns user paths into projects and keeps the registry
 * of indexed trees (the `projects/` folder of the data directory).
 */

struct _LodeEngine
{
  GObject       parent_instance;
  LodeConfig   *config;

  /* The embedding provider of every project (issue #4), made from the settings on first
   * use unless lode_engine_set_embedder() chose one. */
  GMutex        embedder_lock;
  LodeEmbedder *embedder;
  char         *embedder_notice;
  guint         embedder_ready : 1;
};

G_DEFINE_FINAL_TYPE (LodeEngine, lode_engine, G_TYPE_OBJECT)

void
lode_project_info_free (LodeProjectInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->id);
  g_free (info->root);
  g_free (info->db_path);
  g_free (info);
}

static void
lode_engine_finalize (GObject *object)
{
  LodeEngine *self = (LodeEngine *)object;

  g_clear_pointer (&self->config, lode_config_free);
  g_clear_object (&self->embedder);
  g_free (self->embedder_notice);
  g_mutex_clear (&self->embedder_lock);

  G_OBJECT_CLASS (lode_engine_parent_class)->finalize (object);
}

static void
lode_engine_class_init (LodeEngineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_engine_finalize;
}

static void
lode_engine_init (LodeEngine *self)
{
  g_mutex_init (&self->embedder_lock);
}

/**
 * lode_engine_new:
 * @config: settings; copied
 *
 * Returns: (transfer full): a new engine
 */
LodeEngine *
lode_engine_new (const LodeConfig *config)
{
  LodeEngine *self;

  g_return_val_if_fail (config != NULL, NULL);

  self = g_object_new (LODE_TYPE_ENGINE, NULL);
  self->config = lode_config_copy (config);

  return self;
}

const LodeConfig *
lode_engine_get_config (LodeEngine *self)
{
  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  return self->config;
}

/**
 * lode_engine_set_embedder:
 * @self: a #LodeEngine
 * @embedder: (nullable): the embedding provider of the projects opened from now on; %NULL
 *   turns semantic search off
 *
 * Overrides the provider the settings name (see lode_embedder_new_for_config()), which is
 * otherwise made when the first project is opened.
 */
void
lode_engine_set_embedder (LodeEngine   *self,
                          LodeEmbedder *embedder)
{
  g_return_if_fail (LODE_IS_ENGINE (self));
  g_return_if_fail (embedder == NULL || LODE_IS_EMBEDDER (embedder));

  g_mutex_lock (&self->embedder_lock);
  g_set_object (&self->embedder, embedder);
  g_free (self->embedder_notice);
  self->embedder_notice = embedder == NULL ? g_strdup ("turned off") : NULL;
  self->embedder_ready = TRUE;
  g_mutex_unlock (&self->embedder_lock);
}

/**
 * lode_engine_dup_embedder:
 * @self: a #LodeEngine
 * @unavailable: (out) (optional) (transfer full): without a provider, why there is none
 *
 * The embedding provider of the settings, made on the first call (which may block: see
 * lode_embedder_new_for_config()).
 *
 * Returns: (transfer full) (nullable): the provider
 */
LodeEmbedder *
lode_engine_dup_embedder (LodeEngine  *self,
                          char       **unavailable)
{
  LodeEmbedder *embedder;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);

  g_mutex_lock (&self->embedder_lock);
  if (!self->embedder_ready)
    {
      g_autoptr(GError) error = NULL;

      self->embedder = lode_embedder_new_for_config (self->config, &error);
      if (self->embedder == NULL)
        {
          g_debug ("No embedder: %s", error->message);
          self->embedder_notice = g_strdup (error->message);
        }
      self->embedder_ready = TRUE;
    }
  embedder = self->embedder != NULL ? g_object_ref (self->embedder) : NULL;
  if (unavailable != NULL)
    *unavailable = g_strdup (self->embedder_notice);
  g_mutex_unlock (&self->embedder_lock);

  return embedder;
}

/* Absolute, with "." and ".." resolved, without following links: for trees that are gone. */
static char *
absolute_path (const char *path)
{
  g_autofree char *cwd = g_get_current_dir ();

  return g_canonicalize_filename (path, cwd);
}

static char *
canonical_dir (const char  *path,
               GError     **error)
{
  g_autofree char *absolute = absolute_path (path);
  g_autofree char *resolved = realpath (absolute, NULL);

  if (resolved == NULL)
    {
      int errsv = errno;

      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "Cannot open %s: %s",
                   path, g_strerror (errsv));
      return NULL;
    }

  if (!g_file_test (resolved, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "%s is not a directory", path);
      return NULL;
    }

  return g_steal_pointer (&resolved);
}

/**
 * lode_engine_open_project:
 * @self: a #LodeEngine
 * @path: a directory, relative to the working directory or absolute
 * @must_be_indexed: fail with %LODE_ERROR_NOT_INDEXED when the tree has no index yet
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the project of @path's canonical location
 */
LodeProject *
lode_engine_open_project (LodeEngine  *self,
                          const char  *path,
                          gboolean     must_be_indexed,
                          GError     **error)
{
  g_autofree char *root = NULL;
  g_autofree char *unavailable = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  root = canonical_dir (path, error);
  if (root == NULL)
    return NULL;

  project = lode_project_new (root, self->config);
  if (must_be_indexed && !lode_project_is_indexed (project))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", root, path);
      return NULL;
    }

  embedder = lode_engine_dup_embedder (self, &unavailable);
  lode_project_set_embedder (project, embedder, unavailable);

  return g_steal_pointer (&project);
}

static int
compare_info_by_root (gconstpointer a,
                      gconstpointer b)
{
  const LodeProjectInfo *ia = *(LodeProjectInfo * const *) a;
  const LodeProjectInfo *ib = *(LodeProjectInfo * const *) b;

  return g_strcmp0 (ia->root, ib->root);
}

/**
 * lode_engine_list_projects:
 * @self: a #LodeEngine
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeProjectInfo): indexed trees, sorted by path
 */
GPtrArray *
lode_engine_list_projects (LodeEngine  *self,
                           GError     **error)
{
  g_autoptr(GPtrArray) infos = NULL;
  g_autofree char *projects_dir = NULL;
  g_autoptr(GDir) dir = NULL;
  g_autoptr(GError) local_error = NULL;
  const char *name;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);

  infos = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_project_info_free);
  projects_dir = g_build_filename (self->config->data_dir, "projects", NULL);
  dir = g_dir_open (projects_dir, 0, &local_error);
  if (dir == NULL)
    {
      if (g_error_matches (local_error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
        return g_steal_pointer (&infos);
      g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                                  "Cannot list projects: ");
      return NULL;
    }

  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *root_file = g_build_filename (projects_dir, name, "root", NULL);
      g_autofree char *root = NULL;
      LodeProjectInfo *info;

      /* A folder without its root file is not one of ours (or was half removed). */
      if (!g_file_get_contents (root_file, &root, NULL, NULL))
        continue;

      info = g_new0 (LodeProjectInfo, 1);
      info->id = g_strdup (name);
      info->root = g_steal_pointer (&root);
      info->db_path = g_build_filename (projects_dir, name, "index.db", NULL);
      g_ptr_array_add (infos, info);
    }

  g_ptr_array_sort (infos, compare_info_by_root);

  return g_steal_pointer (&infos);
}

static gboolean
remove_tree (const char  *path,
             GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  const char *name;

  if (dir == NULL)
    return FALSE;

  /* Our project folders are flat: the database, its WAL and SHM files, the root file. */
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_unlink (child) != 0)
        {
          int errsv = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "Cannot remove %s: %s", child, g_strerror (errsv));
          return FALSE;
        }
    }

  if (g_rmdir (path) != 0)
    {
      int errsv = errno;
      g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                   "Cannot remove %s: %s", path, g_strerror (errsv));
      return FALSE;
    }

  return TRUE;
}

/**
 * lode_engine_remove_project:
 * @self: a #LodeEngine
 * @path: the indexed tree (it may no longer exist)
 * @error: return location for a #GError
 *
 * Deletes the index of @path. The tree itself is never touched.
 *
 * Returns: %TRUE on success; %FALSE with %LODE_ERROR_NOT_FOUND if @path has no index
 */
gboolean
lode_engine_remove_project (LodeEngine  *self,
                            const char  *path,
                            GError     **error)
{
  g_autofree char *root = NULL;
  g_autofree char *id = NULL;
  g_autofree char *project_dir = NULL;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  root = realpath (path, NULL);
  if (root == NULL)
    root = absolute_path (path);

  id = lode_project_id_for_path (root);
  project_dir = g_build_filename (self->config->data_dir, "projects", id, NULL);
  if (!g_file_test (project_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s has no index", root);
      return FALSE;
    }

  return remove_tree (project_dir, error);
}
