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
#include <string.h>

#include "lode-embedder-source.h"
#include "lode-engine-private.h"
#include "lode-engine.h"
#include "lode-error.h"
#include "lode-index-store.h"
#include "lode-language.h"
#include "lode-project-private.h"

/*
 * The one owner of every project's life: every front end (loded's typed methods and its
 * CallTool, lode-mcp, the CLI, the app) reaches the same calls here.
 *
 * Each project has an entry (LodeEngineEntry): its LodeProject (whose reader connection
 * searches share), at most one running job (LodeEngineJob), at most one queued job, the last
 * job that ended, and its watcher.
 * Whoever asks for indexing — a client, a tool, the watcher — gets the running job when it
 * covers the request (a change list is covered by an update, an update by a rebuild) or the
 * queued one, which collects every request that arrives meanwhile. So one job writes a
 * project at a time, and Stop stops it whoever started it.
 *
 * A job belongs to those who wait for it and to its owners (a watcher, a request that runs
 * in the background): when its last waiter gives up and it has no owner, it is cancelled.
 *
 * Jobs run on a thread of their own. Public functions may be called from any thread, but
 * watching, which creates file monitors, only on the thread that runs the engine's main
 * context; signals are emitted there too.
 *
 * This file holds the object, its projects and what reads them, and drives the files below
 * it (see lode-engine-private.h): lode-engine-watch.c the watchers, lode-engine-jobs.c the
 * jobs, lode-engine-entry.c what they all share.
 */

G_DEFINE_FINAL_TYPE (LodeEngine, lode_engine, G_TYPE_OBJECT)

/* GObject ------------------------------------------------------------------------------ */

static void
lode_engine_dispose (GObject *object)
{
  LodeEngine *self = (LodeEngine *)object;
  GHashTableIter iter;
  LodeEngineEntry *entry;

  /* Running jobs are stopped and waited for: nothing outlives the engine. */
  lode_engine_cancel_jobs (self);
  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    while (entry->running != NULL)
      g_cond_wait (&self->cond, &self->lock);
  g_hash_table_remove_all (self->entries);
  g_hash_table_remove_all (self->writers);
  if (self->writers_source != NULL)
    {
      g_source_destroy (self->writers_source);
      g_clear_pointer (&self->writers_source, g_source_unref);
    }
  g_mutex_unlock (&self->lock);

  G_OBJECT_CLASS (lode_engine_parent_class)->dispose (object);
}

static void
lode_engine_finalize (GObject *object)
{
  LodeEngine *self = (LodeEngine *)object;

  g_clear_pointer (&self->config, lode_config_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_pointer (&self->writers, g_hash_table_unref);
  g_free (self->watch_list);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_clear_object (&self->embedders);

  G_OBJECT_CLASS (lode_engine_parent_class)->finalize (object);
}

static void
lode_engine_class_init (LodeEngineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_engine_dispose;
  object_class->finalize = lode_engine_finalize;

  _lode_engine_class_install_signals (klass);
}

static void
lode_engine_init (LodeEngine *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->context = g_main_context_ref_thread_default ();
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) _lode_engine_entry_free);
  self->writers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
}

/**
 * lode_engine_load_config:
 * @error: return location for a #GError
 *
 * The configuration of this process, which every front end and loded start with: the
 * settings and the environment (lode_config_load()), the extra extensions registered with the
 * language table, which holds them for the whole process (lode_language_add_extensions()).
 *
 * Returns: (transfer full) (nullable): the configuration, or %NULL if a value is malformed
 */
LodeConfig *
lode_engine_load_config (GError **error)
{
  g_autoptr(LodeConfig) config = lode_config_load (error);

  if (config == NULL ||
      !lode_language_add_extensions ((const char * const *) config->extra_extensions, error))
    return NULL;

  return g_steal_pointer (&config);
}

/**
 * lode_engine_new:
 * @config: settings; copied
 *
 * The engine's main context is the thread-default one of the caller: its signals are
 * emitted there, and watching happens there.
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
  self->embedders = lode_embedder_source_new (config);

  return self;
}

const LodeConfig *
lode_engine_get_config (LodeEngine *self)
{
  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  return self->config;
}

/* Embedding provider ------------------------------------------------------------------- */

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

  lode_embedder_source_set_embedder (self->embedders, embedder);
}

/**
 * lode_engine_dup_embedder:
 * @self: a #LodeEngine
 * @unavailable: (out) (optional) (transfer full): without a provider, why there is none
 *
 * The embedding provider of the settings, made on the first call (which may block: see
 * lode_embedder_source_dup()). While there is none, it is looked for again in the background
 * now and then, so that a long-lived process such as the daemon picks up a model that
 * `lode model pull` installed, or a server that came back.
 *
 * Returns: (transfer full) (nullable): the provider
 */
LodeEmbedder *
lode_engine_dup_embedder (LodeEngine  *self,
                          char       **unavailable)
{
  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);

  return lode_embedder_source_dup (self->embedders, unavailable);
}

/* Projects ----------------------------------------------------------------------------- */

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
  g_autoptr(LodeProject) project = NULL;
  LodeEngineEntry *entry;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  entry = _lode_engine_lock_entry (self, path, error);
  if (entry == NULL)
    return NULL;
  project = g_object_ref (entry->project);
  g_mutex_unlock (&self->lock);

  if (must_be_indexed && !lode_project_is_indexed (project))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first",
                   lode_project_get_root (project), path);
      return NULL;
    }

  return g_steal_pointer (&project);
}

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
 * Returns: (transfer full) (element-type LodeProjectInfo): indexed trees, sorted by path,
 *   with whether they still exist, are being indexed and are watched
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
      LodeEngineEntry *entry;

      /* A folder without its root file is not one of ours (or was half removed). */
      if (!g_file_get_contents (root_file, &root, NULL, NULL))
        continue;

      info = g_new0 (LodeProjectInfo, 1);
      info->id = g_strdup (name);
      info->root = g_steal_pointer (&root);
      info->db_path = g_build_filename (projects_dir, name, "index.db", NULL);
      info->exists = g_file_test (info->root, G_FILE_TEST_IS_DIR);
      g_mutex_lock (&self->lock);
      entry = g_hash_table_lookup (self->entries, info->id);
      info->indexing = entry != NULL && _lode_engine_entry_is_busy (entry);
      info->watched = entry != NULL && entry->watcher != NULL;
      g_mutex_unlock (&self->lock);
      g_ptr_array_add (infos, info);
    }

  g_ptr_array_sort (infos, compare_info_by_root);

  return g_steal_pointer (&infos);
}

static gboolean
unlink_children (const char  *path,
                 GError     **error)
{
  g_autoptr(GDir) dir = g_dir_open (path, 0, error);
  const char *name;

  if (dir == NULL)
    return FALSE;

  /* Our project folders are flat: the database, its WAL and SHM files, marks, lock, root. */
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = g_build_filename (path, name, NULL);

      if (g_unlink (child) != 0 && errno != ENOENT)
        {
          int errsv = errno;
          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
                       "Cannot remove %s: %s", child, g_strerror (errsv));
          return FALSE;
        }
    }

  return TRUE;
}

/* A search or a status that opened the database just before it went (they take no lock)
 * can leave its WAL and SHM files behind it once more: the folder is emptied again, a few
 * times at most. */
#define REMOVE_TREE_ATTEMPTS 5

static gboolean
remove_tree (const char  *path,
             GError     **error)
{
  int errsv = 0;

  for (guint attempt = 0; attempt < REMOVE_TREE_ATTEMPTS; attempt++)
    {
      if (attempt > 0)
        g_usleep (20 * G_TIME_SPAN_MILLISECOND);
      if (!unlink_children (path, error))
        return FALSE;
      if (g_rmdir (path) == 0)
        return TRUE;
      errsv = errno;
      if (errsv != ENOTEMPTY && errsv != EEXIST)
        break;
    }

  g_set_error (error, G_IO_ERROR, g_io_error_from_errno (errsv),
               "Cannot remove %s: %s", path, g_strerror (errsv));
  return FALSE;
}

static void
remove_qdrant_collections (LodeEngine *self,
                           const char *project_dir)
{
  g_autoptr(GDir) dir = g_dir_open (project_dir, 0, NULL);
  const char *name;

  while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *stem = NULL;
      g_autofree char *db_name = NULL;
      g_autofree char *db_path = NULL;
      g_autoptr(GError) error = NULL;

      if (g_str_equal (name, "qdrant"))
        db_name = g_strdup ("index.db");
      else if (g_str_has_prefix (name, "branch-") && g_str_has_suffix (name, ".qdrant"))
        {
          stem = g_strndup (name, strlen (name) - strlen (".qdrant"));
          db_name = g_strconcat (stem, ".db", NULL);
        }
      else
        continue;

      db_path = g_build_filename (project_dir, db_name, NULL);
      if (!lode_index_store_remove (self->config, LODE_STORE_KIND_QDRANT, db_path, &error))
        g_warning ("%s", error->message);
    }
}

/* Stops @entry's watcher on the engine's main context, where it lives; the entry is already
 * out of the table, so a batch still on its way finds nothing to update. */
static gboolean
stop_watcher_cb (gpointer user_data)
{
  LodeWatcher *watcher = user_data;

  lode_watcher_stop (watcher);
  return G_SOURCE_REMOVE;
}

/**
 * lode_engine_remove_project:
 * @self: a #LodeEngine
 * @path: the indexed tree (it may no longer exist)
 * @error: return location for a #GError
 *
 * Stops watching @path and indexing it, and deletes its index. The tree itself is never
 * touched. Blocks until a running job has ended (cancelled, it ends within about a second).
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
  g_autofree char *key = NULL;
  g_auto(LodeProjectLock) lock = -1;
  LodeEngineEntry *entry = NULL;
  gboolean was_watched = FALSE;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* A tree that is gone is named without following links: absolute, "." and ".." resolved. */
  root = realpath (path, NULL);
  if (root == NULL)
    root = g_canonicalize_filename (path, NULL);

  id = lode_project_id_for_path (root);
  project_dir = g_build_filename (self->config->data_dir, "projects", id, NULL);
  if (!g_file_test (project_dir, G_FILE_TEST_IS_DIR))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s has no index", root);
      return FALSE;
    }

  /* Out of the table first, so that no request starts a job on it again; then its jobs end:
   * the running one's database connection closes with it. */
  g_mutex_lock (&self->lock);
  if (g_hash_table_steal_extended (self->entries, id, (gpointer *) &key, (gpointer *) &entry))
    {
      if (entry->queued != NULL)
        {
          _lode_engine_job_fail_tasks (entry->queued, "The project was removed");
          g_clear_pointer (&entry->queued, _lode_engine_job_drop);
        }
      if (entry->running != NULL)
        g_cancellable_cancel (entry->running->cancellable);
      while (entry->running != NULL)
        g_cond_wait (&self->cond, &self->lock);
      g_cond_broadcast (&self->cond);
      if (entry->watcher != NULL)
        {
          was_watched = TRUE;
          g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA, 0, 0,
                                                NULL, NULL, entry);
          g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, stop_watcher_cb,
                                      g_steal_pointer (&entry->watcher), g_object_unref);
        }
      _lode_engine_save_watch_list (self);
    }
  g_mutex_unlock (&self->lock);

  if (entry != NULL)
    _lode_engine_entry_free (entry);

  /* Another process writing the index (lode index, lode watch, another daemon) is asked to
   * stop first, and the index goes under its lock: never under a writer. */
  if (!_lode_project_stop_writers (project_dir, "remove", NULL, NULL, error))
    {
      g_prefix_error (error, "Cannot remove the index of %s: ", root);
      return FALSE;
    }
  lock = _lode_project_lock_dir (project_dir);

  /* A Qdrant collection lives on its server and goes with the project, as do those of its
   * branches (`branch-NAME.qdrant` markers); a server that cannot be reached keeps them,
   * which is said, and the local files go all the same. */
  remove_qdrant_collections (self, project_dir);

  if (!remove_tree (project_dir, error))
    return FALSE;

  _lode_engine_emit_later (self, LODE_ENGINE_INDEX_CHANGED, id, root);
  _lode_engine_emit_later (self, LODE_ENGINE_PROJECTS_CHANGED, NULL, NULL);
  if (was_watched)
    g_debug ("Stopped watching %s: its index was removed", root);

  return TRUE;
}

/* Other processes' runs ---------------------------------------------------------------- */

/* How often the trees another process writes are tested. The end of such a run comes with
 * no event to wait for: inotify reports nothing when a flock() is released. Its last close
 * of the lock file gives IN_CLOSE_WRITE, but a writer that unlocks with LOCK_UN, or whose
 * descriptor a child inherited, releases the lock without one, and an index on NFS gives
 * none at all. Testing costs a listing of the project's folder and a flock() of each lock in
 * it, about 35 µs: a tick a second on the engine's context, only while another process
 * writes, misses no end and tells it within a second. */
#define WRITERS_TEST_SECONDS 1

static void
weak_ref_free (GWeakRef *weak)
{
  g_weak_ref_clear (weak);
  g_free (weak);
}

/* Runs on the engine's main context. The trees are tested without the lock, which jobs'
 * threads take for every step they report. */
static gboolean
writers_test_cb (gpointer user_data)
{
  g_autoptr(LodeEngine) self = g_weak_ref_get (user_data);
  g_autoptr(GPtrArray) followed = g_ptr_array_new_with_free_func (g_object_unref);
  g_autoptr(GPtrArray) ended = g_ptr_array_new_with_free_func (g_object_unref);
  gboolean more;
  GHashTableIter iter;
  LodeProject *project;

  if (self == NULL)
    return G_SOURCE_REMOVE;

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->writers);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &project))
    g_ptr_array_add (followed, g_object_ref (project));
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < followed->len; i++)
    {
      project = g_ptr_array_index (followed, i);
      if (_lode_project_find_writer (project->dir) == 0)
        g_ptr_array_add (ended, g_object_ref (project));
    }

  g_mutex_lock (&self->lock);
  for (guint i = 0; i < followed->len; i++)
    {
      LodeEngineEntry *entry;

      project = g_ptr_array_index (followed, i);
      entry = g_hash_table_lookup (self->entries, project->id);
      /* A job of this engine's own waits for the lock, or holds it now: its end is told. */
      if (entry != NULL && _lode_engine_entry_is_busy (entry))
        g_hash_table_remove (self->writers, project->id);
    }
  for (guint i = 0; i < ended->len; i++)
    {
      project = g_ptr_array_index (ended, i);
      if (!g_hash_table_remove (self->writers, project->id))
        continue;
      g_debug ("The other process's run on %s has ended", project->root);
      _lode_engine_emit_later (self, LODE_ENGINE_INDEX_CHANGED, project->id, project->root);
    }
  more = g_hash_table_size (self->writers) > 0;
  if (!more)
    g_clear_pointer (&self->writers_source, g_source_unref);
  g_mutex_unlock (&self->lock);

  return more ? G_SOURCE_CONTINUE : G_SOURCE_REMOVE;
}

/* Follows the run of another process on @project until it ends, when index-changed tells of
 * it as of this engine's jobs. Called with the lock held, from any thread. */
static void
follow_writer (LodeEngine  *self,
               LodeProject *project)
{
  GWeakRef *weak;

  if (g_hash_table_contains (self->writers, project->id))
    return;

  g_debug ("%s is being indexed by another process; following that run", project->root);
  g_hash_table_insert (self->writers, g_strdup (project->id), g_object_ref (project));
  if (self->writers_source != NULL)
    return;

  weak = g_new0 (GWeakRef, 1);
  g_weak_ref_init (weak, self);
  self->writers_source = g_timeout_source_new_seconds (WRITERS_TEST_SECONDS);
  g_source_set_static_name (self->writers_source, "[lode] other processes' runs");
  g_source_set_callback (self->writers_source, writers_test_cb, weak,
                         (GDestroyNotify) weak_ref_free);
  g_source_attach (self->writers_source, self->context);
}

/* The trees whose other writer the engine follows; for tests. */
guint
_lode_engine_count_followed_writers (LodeEngine *self)
{
  guint n;

  g_mutex_lock (&self->lock);
  n = g_hash_table_size (self->writers);
  g_assert ((n > 0) == (self->writers_source != NULL));
  g_mutex_unlock (&self->lock);

  return n;
}

/* Reading ------------------------------------------------------------------------------ */

/**
 * lode_engine_dup_status:
 * @self: a #LodeEngine
 * @path: a directory
 * @error: return location for a #GError
 *
 * The index of @path (see lode_project_dup_status()) with the engine's job and watcher.
 * Reads the database: call it from a worker thread, or use lode_engine_dup_status_async().
 * When it names another process writing the index, the engine follows that run, and emits
 * #LodeEngine::index-changed when it ends.
 *
 * Returns: (transfer full) (nullable): the status
 */
LodeProjectStatus *
lode_engine_dup_status (LodeEngine  *self,
                        const char  *path,
                        GError     **error)
{
  g_autoptr(LodeProject) project = NULL;
  LodeProjectStatus *status;
  LodeEngineEntry *entry;
  gboolean was_busy;
  guint n_started;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  project = lode_engine_open_project (self, path, FALSE, error);
  if (project == NULL)
    return NULL;

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, lode_project_get_id (project));
  was_busy = entry != NULL && _lode_engine_entry_is_busy (entry);
  n_started = entry != NULL ? entry->n_started : 0;
  g_mutex_unlock (&self->lock);

  status = lode_project_dup_status (project, error);
  if (status == NULL)
    return NULL;

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, lode_project_get_id (project));
  if (entry != NULL && (entry->running != NULL || entry->queued != NULL || entry->last != NULL))
    status->job = _lode_engine_job_dup_info (entry->running != NULL ? entry->running
                                             : entry->queued != NULL ? entry->queued
                                             : entry->last);
  if (entry != NULL && entry->watcher != NULL)
    {
      status->watched = TRUE;
      status->polling = lode_watcher_get_polling (entry->watcher);
      status->n_watches = lode_watcher_get_n_watches (entry->watcher);
      status->watch_status = g_strdup (lode_watcher_get_status (entry->watcher));
    }
  /* A status that shows another process's run would show it for good: that run's end is
   * news to no one here unless the engine follows it. The lock was read without the
   * engine's: held by a job of this engine that has ended since, it was no other process's
   * run, and following it told its end a second time, a second later. */
  if (status->writer_pid != 0 && (entry == NULL || !_lode_engine_entry_is_busy (entry)))
    {
      if (was_busy || (entry != NULL && entry->n_started != n_started))
        status->writer_pid = 0;
      else
        follow_writer (self, project);
    }
  g_mutex_unlock (&self->lock);

  return status;
}

static void
status_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;
  LodeProjectStatus *status = lode_engine_dup_status (source_object, task_data, &error);

  if (status == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, status, (GDestroyNotify) lode_project_status_free);
}

/**
 * lode_engine_dup_status_async:
 * @self: a #LodeEngine
 * @path: a directory
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the status is read
 * @user_data: data for @callback
 *
 * lode_engine_dup_status() on a worker thread.
 */
void
lode_engine_dup_status_async (LodeEngine          *self,
                              const char          *path,
                              GCancellable        *cancellable,
                              GAsyncReadyCallback  callback,
                              gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (LODE_IS_ENGINE (self));
  g_return_if_fail (path != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_engine_dup_status_async);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, status_worker);
}

/**
 * lode_engine_dup_status_finish:
 * @self: a #LodeEngine
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the status
 */
LodeProjectStatus *
lode_engine_dup_status_finish (LodeEngine    *self,
                               GAsyncResult  *result,
                               GError       **error)
{
  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * lode_engine_search:
 * @self: a #LodeEngine
 * @path: an indexed directory
 * @options: the query, its filters and mode
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Searches the index of @path (see lode_project_search_full()). Blocks: call it from a
 * worker thread, or use lode_engine_search_async().
 *
 * Returns: (transfer full) (nullable): the results and the mode that ran
 */
LodeSearchResponse *
lode_engine_search (LodeEngine               *self,
                    const char               *path,
                    const LodeSearchOptions  *options,
                    GCancellable             *cancellable,
                    GError                  **error)
{
  g_autoptr(LodeProject) project = NULL;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (options != NULL, NULL);

  project = lode_engine_open_project (self, path, TRUE, error);
  if (project == NULL)
    return NULL;

  return lode_project_search_full (project, options, cancellable, error);
}

typedef struct
{
  char              *path;
  char              *query;
  char              *language;
  char              *path_glob;
  LodeSearchOptions  options;
} SearchData;

static void
search_data_free (SearchData *data)
{
  g_free (data->path);
  g_free (data->query);
  g_free (data->language);
  g_free (data->path_glob);
  g_free (data);
}

static void
search_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  SearchData *data = task_data;
  GError *error = NULL;
  LodeSearchResponse *response;

  response = lode_engine_search (source_object, data->path, &data->options, cancellable,
                                 &error);
  if (response == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, response, (GDestroyNotify) lode_search_response_free);
}

/**
 * lode_engine_search_async:
 * @self: a #LodeEngine
 * @path: an indexed directory
 * @options: the query, its filters and mode; copied
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the results
 * @user_data: data for @callback
 *
 * lode_engine_search() on a worker thread.
 */
void
lode_engine_search_async (LodeEngine              *self,
                          const char              *path,
                          const LodeSearchOptions *options,
                          GCancellable            *cancellable,
                          GAsyncReadyCallback      callback,
                          gpointer                 user_data)
{
  g_autoptr(GTask) task = NULL;
  SearchData *data;

  g_return_if_fail (LODE_IS_ENGINE (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (options != NULL);

  data = g_new0 (SearchData, 1);
  data->path = g_strdup (path);
  data->options = *options;
  data->options.query = data->query = g_strdup (options->query);
  data->options.language = data->language = g_strdup (options->language);
  data->options.path_glob = data->path_glob = g_strdup (options->path_glob);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_engine_search_async);
  g_task_set_task_data (task, data, (GDestroyNotify) search_data_free);
  g_task_run_in_thread (task, search_worker);
}

/**
 * lode_engine_search_finish:
 * @self: a #LodeEngine
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the results and the mode that ran
 */
LodeSearchResponse *
lode_engine_search_finish (LodeEngine    *self,
                           GAsyncResult  *result,
                           GError       **error)
{
  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}
