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
 * The entry point of every front end: turns user paths into projects, keeps the registry of
 * indexed trees (the `projects/` folder of the data directory) and runs background indexing
 * jobs, one per project at most: a second request for a project that is being indexed joins
 * the running job. Every public function may be called from any thread; signals are emitted
 * on the main context the engine was created in.
 */

typedef struct
{
  LodeProject       *project;
  GCancellable      *cancellable;
  GThread           *thread;
  LodeJobState       state;
  LodeIndexProgress  progress;
  guint              progress_serial;
  char              *error;
  LodeIndexReport   *report;
  gint64             started_at;
  gint64             finished_at;
  guint              progress_pending : 1;
} Job;

/* How often an engine without a built-in model looks for one again. */
#define EMBEDDER_RETRY_USEC (2 * G_USEC_PER_SEC)

struct _LodeEngine
{
  GObject       parent_instance;
  LodeConfig   *config;
  GMainContext *context;

  /* Guards projects and jobs, and every Job's fields; cond is broadcast on any change. */
  GMutex        lock;
  GCond         cond;
  GHashTable   *projects;   /* id → LodeProject, so that readers are opened once */
  GHashTable   *jobs;       /* id → Job: the running or last job of each project */

  /* The embedding provider of every project (issue #4), made from the settings on first
   * use unless lode_engine_set_embedder() chose one. */
  GMutex        embedder_lock;
  LodeEmbedder *embedder;
  char         *embedder_notice;
  gint64        embedder_retry_at;   /* when to look for a built-in model again; 0: never */
  guint         embedder_ready : 1;
};

G_DEFINE_FINAL_TYPE (LodeEngine, lode_engine, G_TYPE_OBJECT)

enum {
  INDEX_PROGRESS,
  INDEX_FINISHED,
  INDEX_CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void emit_later (LodeEngine *self,
                        guint       signal,
                        const char *project_id,
                        const char *root);

static void
job_free (Job *job)
{
  /* A job leaves the table only once its thread has ended (see job_join). */
  g_assert (job->thread == NULL);

  g_clear_object (&job->project);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->report, lode_index_report_free);
  g_free (job->error);
  g_free (job);
}

/* Called without the lock held. */
static void
job_join (Job *job)
{
  if (job->thread != NULL)
    g_thread_join (g_steal_pointer (&job->thread));
}

void
lode_job_info_free (LodeJobInfo *info)
{
  if (info == NULL)
    return;

  g_free (info->project_id);
  g_free (info->root);
  g_free (info->error);
  g_clear_pointer (&info->report, lode_index_report_free);
  g_free (info);
}

const char *
lode_job_state_to_string (LodeJobState state)
{
  switch (state)
    {
    case LODE_JOB_STATE_RUNNING:
      return "running";
    case LODE_JOB_STATE_SUCCEEDED:
      return "succeeded";
    case LODE_JOB_STATE_FAILED:
      return "failed";
    case LODE_JOB_STATE_CANCELLED:
      return "cancelled";
    default:
      g_return_val_if_reached ("unknown");
    }
}

/* Called with the lock held. */
static LodeJobInfo *
job_dup_info (Job *job)
{
  LodeJobInfo *info = g_new0 (LodeJobInfo, 1);

  info->project_id = g_strdup (lode_project_get_id (job->project));
  info->root = g_strdup (lode_project_get_root (job->project));
  info->state = job->state;
  info->progress = job->progress;
  info->error = g_strdup (job->error);
  info->started_at = job->started_at;
  info->finished_at = job->finished_at;
  if (job->report != NULL)
    info->report = lode_index_report_copy (job->report);

  return info;
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

static void
collect_value_cb (gpointer key,
                  gpointer value,
                  gpointer user_data)
{
  g_ptr_array_add (user_data, value);
}

static void
lode_engine_dispose (GObject *object)
{
  LodeEngine *self = (LodeEngine *)object;
  g_autoptr(GPtrArray) jobs = NULL;

  /* Running jobs are stopped and their threads joined: nothing outlives the engine. */
  lode_engine_cancel_jobs (self);
  g_mutex_lock (&self->lock);
  jobs = g_ptr_array_new ();
  g_hash_table_foreach (self->jobs, collect_value_cb, jobs);
  g_hash_table_steal_all (self->jobs);
  g_hash_table_remove_all (self->projects);
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < jobs->len; i++)
    {
      Job *job = g_ptr_array_index (jobs, i);

      job_join (job);
      job_free (job);
    }

  G_OBJECT_CLASS (lode_engine_parent_class)->dispose (object);
}

static void
lode_engine_finalize (GObject *object)
{
  LodeEngine *self = (LodeEngine *)object;

  g_clear_pointer (&self->config, lode_config_free);
  g_clear_pointer (&self->context, g_main_context_unref);
  g_clear_pointer (&self->projects, g_hash_table_unref);
  g_clear_pointer (&self->jobs, g_hash_table_unref);
  g_mutex_clear (&self->lock);
  g_cond_clear (&self->cond);
  g_clear_object (&self->embedder);
  g_free (self->embedder_notice);
  g_mutex_clear (&self->embedder_lock);

  G_OBJECT_CLASS (lode_engine_parent_class)->finalize (object);
}

static void
lode_engine_class_init (LodeEngineClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_engine_dispose;
  object_class->finalize = lode_engine_finalize;

  /**
   * LodeEngine::index-progress:
   * @project_id: the project
   * @root: its tree
   * @phase: a #LodeIndexPhase
   * @done: units done in this phase
   * @total: units in this phase, 0 when not known yet
   *
   * A background job advanced; coalesced, so not every step is seen.
   */
  signals [INDEX_PROGRESS] =
    g_signal_new ("index-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 5,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_UINT, G_TYPE_UINT);

  /**
   * LodeEngine::index-finished:
   * @project_id: the project
   * @root: its tree
   * @state: the #LodeJobState it ended in
   * @error: (nullable): why it failed
   *
   * A background job ended.
   */
  signals [INDEX_FINISHED] =
    g_signal_new ("index-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * LodeEngine::index-changed:
   * @project_id: the project
   * @root: its tree
   *
   * The index of a project was rebuilt, updated or removed.
   */
  signals [INDEX_CHANGED] =
    g_signal_new ("index-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);
}

static void
lode_engine_init (LodeEngine *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->context = g_main_context_ref_thread_default ();
  self->projects = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  self->jobs = g_hash_table_new (g_str_hash, g_str_equal);
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
  self->embedder_retry_at = 0;
  self->embedder_ready = TRUE;
  g_mutex_unlock (&self->embedder_lock);
}

/**
 * lode_engine_dup_embedder:
 * @self: a #LodeEngine
 * @unavailable: (out) (optional) (transfer full): without a provider, why there is none
 *
 * The embedding provider of the settings, made on the first call (which may block: see
 * lode_embedder_new_for_config()). When the built-in provider has no model, later calls look
 * again (at most every EMBEDDER_RETRY_USEC), so that a long-lived process such as the daemon
 * picks up a model that `lode model pull` installed meanwhile. Remote providers are not
 * probed again: that could block for their whole timeout.
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
  if (!self->embedder_ready ||
      (self->embedder_retry_at != 0 && g_get_monotonic_time () >= self->embedder_retry_at))
    {
      g_autoptr(GError) error = NULL;

      g_clear_pointer (&self->embedder_notice, g_free);
      self->embedder_retry_at = 0;
      self->embedder = lode_embedder_new_for_config (self->config, &error);
      if (self->embedder == NULL)
        {
          g_debug ("No embedder: %s", error->message);
          self->embedder_notice = g_strdup (error->message);
          if (self->config->embedding_provider == NULL ||
              g_str_equal (self->config->embedding_provider, "builtin"))
            self->embedder_retry_at = g_get_monotonic_time () + EMBEDDER_RETRY_USEC;
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

static LodeProject *
dup_project (LodeEngine *self,
             const char *root)
{
  g_autofree char *id = lode_project_id_for_path (root);
  LodeProject *project;

  g_mutex_lock (&self->lock);
  project = g_hash_table_lookup (self->projects, id);
  if (project == NULL)
    {
      project = lode_project_new (root, self->config);
      g_hash_table_insert (self->projects, g_steal_pointer (&id), project);
    }
  g_object_ref (project);
  g_mutex_unlock (&self->lock);

  return project;
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

  project = dup_project (self, root);
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
  Job *job;

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

  /* A job that is writing the index ends first; its database connection closes with it. */
  lode_engine_stop_index (self, id);
  lode_job_info_free (lode_engine_wait_index (self, id, NULL, NULL, NULL, NULL));

  g_mutex_lock (&self->lock);
  job = g_hash_table_lookup (self->jobs, id);
  if (job != NULL)
    g_hash_table_steal (self->jobs, id);
  g_hash_table_remove (self->projects, id);
  g_mutex_unlock (&self->lock);

  if (job != NULL)
    {
      job_join (job);
      job_free (job);
    }

  if (!remove_tree (project_dir, error))
    return FALSE;

  emit_later (self, INDEX_CHANGED, id, root);
  return TRUE;
}

/* Signals are emitted on the engine's main context, whatever thread caused them. */
typedef struct
{
  GWeakRef           engine;
  guint              signal;
  char              *project_id;
  char              *root;
  LodeJobState       state;
  char              *error;
} Emission;

static void
emission_free (Emission *emission)
{
  g_weak_ref_clear (&emission->engine);
  g_free (emission->project_id);
  g_free (emission->root);
  g_free (emission->error);
  g_free (emission);
}

static gboolean
emit_cb (gpointer user_data)
{
  Emission *emission = user_data;
  g_autoptr(LodeEngine) self = g_weak_ref_get (&emission->engine);
  Job *job;
  LodeIndexProgress progress;

  if (self == NULL)
    return G_SOURCE_REMOVE;

  switch (emission->signal)
    {
    case INDEX_PROGRESS:
      g_mutex_lock (&self->lock);
      job = g_hash_table_lookup (self->jobs, emission->project_id);
      if (job == NULL || job->state != LODE_JOB_STATE_RUNNING)
        {
          g_mutex_unlock (&self->lock);
          break;
        }
      job->progress_pending = FALSE;
      progress = job->progress;
      g_mutex_unlock (&self->lock);
      g_signal_emit (self, signals [INDEX_PROGRESS], 0, emission->project_id, emission->root,
                     (guint) progress.phase, progress.done, progress.total);
      break;

    case INDEX_FINISHED:
      g_signal_emit (self, signals [INDEX_FINISHED], 0, emission->project_id, emission->root,
                     (guint) emission->state, emission->error);
      if (emission->state == LODE_JOB_STATE_SUCCEEDED)
        g_signal_emit (self, signals [INDEX_CHANGED], 0, emission->project_id,
                       emission->root);
      break;

    case INDEX_CHANGED:
      g_signal_emit (self, signals [INDEX_CHANGED], 0, emission->project_id, emission->root);
      break;

    default:
      g_assert_not_reached ();
    }

  return G_SOURCE_REMOVE;
}

static Emission *
emission_new (LodeEngine *self,
              guint       signal,
              const char *project_id,
              const char *root)
{
  Emission *emission = g_new0 (Emission, 1);

  g_weak_ref_init (&emission->engine, self);
  emission->signal = signal;
  emission->project_id = g_strdup (project_id);
  emission->root = g_strdup (root);

  return emission;
}

static void
emission_post (LodeEngine *self,
               Emission   *emission)
{
  g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, emit_cb, emission,
                              (GDestroyNotify) emission_free);
}

static void
emit_later (LodeEngine *self,
            guint       signal,
            const char *project_id,
            const char *root)
{
  emission_post (self, emission_new (self, signal, project_id, root));
}

typedef struct
{
  LodeEngine *engine;
  Job        *job;
} JobRun;

/* Runs on the job's thread. */
static void
job_progress_cb (const LodeIndexProgress *progress,
                 gpointer                 user_data)
{
  JobRun *run = user_data;
  LodeEngine *self = run->engine;
  gboolean schedule;

  g_mutex_lock (&self->lock);
  run->job->progress = *progress;
  run->job->progress_serial++;
  schedule = !run->job->progress_pending;
  run->job->progress_pending = TRUE;
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  if (schedule)
    emit_later (self, INDEX_PROGRESS, lode_project_get_id (run->job->project),
                lode_project_get_root (run->job->project));
}

/* The engine joins this thread before it is disposed, so run->engine stays valid. */
static gpointer
job_thread_func (gpointer user_data)
{
  g_autofree JobRun *run = user_data;
  LodeEngine *self = run->engine;
  Job *job = run->job;
  g_autoptr(GError) error = NULL;
  LodeIndexReport *report;
  Emission *emission;

  report = lode_project_index (job->project, job->cancellable, job_progress_cb, run, &error);

  g_mutex_lock (&self->lock);
  job->finished_at = g_get_real_time ();
  if (report != NULL)
    {
      job->state = LODE_JOB_STATE_SUCCEEDED;
      job->report = report;
    }
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    job->state = LODE_JOB_STATE_CANCELLED;
  else
    {
      job->state = LODE_JOB_STATE_FAILED;
      job->error = g_strdup (error->message);
    }
  emission = emission_new (self, INDEX_FINISHED, lode_project_get_id (job->project),
                           lode_project_get_root (job->project));
  emission->state = job->state;
  emission->error = g_strdup (job->error);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  emission_post (self, emission);

  return NULL;
}

/**
 * lode_engine_start_index:
 * @self: a #LodeEngine
 * @path: a directory, relative to the working directory or absolute
 * @joined: (out) (optional): set to %TRUE when a job was already running for the project
 * @error: return location for a #GError
 *
 * Starts indexing @path in the background, or joins the job that is already indexing it.
 * Progress and the end of the job are announced by #LodeEngine::index-progress and
 * #LodeEngine::index-finished; lode_engine_wait_index() waits for it.
 *
 * Returns: (transfer full) (nullable): the job as it is now
 */
LodeJobInfo *
lode_engine_start_index (LodeEngine  *self,
                         const char  *path,
                         gboolean    *joined,
                         GError     **error)
{
  g_autoptr(LodeProject) project = NULL;
  Job *job;
  Job *previous;
  JobRun *run;
  LodeJobInfo *info;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  project = lode_engine_open_project (self, path, FALSE, error);
  if (project == NULL)
    return NULL;

  g_mutex_lock (&self->lock);
  previous = g_hash_table_lookup (self->jobs, lode_project_get_id (project));
  if (previous != NULL && previous->state == LODE_JOB_STATE_RUNNING)
    {
      if (joined != NULL)
        *joined = TRUE;
      info = job_dup_info (previous);
      g_mutex_unlock (&self->lock);
      return info;
    }
  if (previous != NULL)
    g_hash_table_steal (self->jobs, lode_project_get_id (project));

  job = g_new0 (Job, 1);
  job->project = g_object_ref (project);
  job->cancellable = g_cancellable_new ();
  job->state = LODE_JOB_STATE_RUNNING;
  job->progress.phase = LODE_INDEX_PHASE_SCANNING;
  job->started_at = g_get_real_time ();
  g_hash_table_insert (self->jobs, (gpointer) lode_project_get_id (job->project), job);

  run = g_new0 (JobRun, 1);
  run->engine = self;
  run->job = job;
  job->thread = g_thread_new ("lode-index", job_thread_func, run);
  info = job_dup_info (job);
  g_mutex_unlock (&self->lock);

  /* The previous job has ended; its thread is gone or about to be. */
  if (previous != NULL)
    {
      job_join (previous);
      job_free (previous);
    }

  if (joined != NULL)
    *joined = FALSE;

  return info;
}

static void
wake_cb (GCancellable *cancellable,
         gpointer      user_data)
{
  LodeEngine *self = user_data;

  g_mutex_lock (&self->lock);
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/**
 * lode_engine_wait_index:
 * @self: a #LodeEngine
 * @project_id: the project
 * @cancellable: (nullable): stops the waiting (not the job: see lode_engine_stop_index())
 * @progress: (nullable) (scope call): called on this thread when the job advances; several
 *   steps may be seen as one
 * @progress_data: data for @progress
 * @error: return location for a #GError
 *
 * Blocks until the job of @project_id ends. Never call it on a thread that runs the main
 * context of the engine.
 *
 * Returns: (transfer full) (nullable): the job as it ended; %NULL with
 *   %LODE_ERROR_NOT_FOUND when the project has no job, or %G_IO_ERROR_CANCELLED
 */
LodeJobInfo *
lode_engine_wait_index (LodeEngine             *self,
                        const char             *project_id,
                        GCancellable           *cancellable,
                        LodeIndexProgressFunc   progress,
                        gpointer                progress_data,
                        GError                **error)
{
  LodeJobInfo *info = NULL;
  gulong handler = 0;
  guint seen = 0;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (project_id != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake_cb), self, NULL);

  g_mutex_lock (&self->lock);
  for (;;)
    {
      Job *job = g_hash_table_lookup (self->jobs, project_id);

      if (job == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                       "Project %s has no indexing job", project_id);
          break;
        }

      if (job->state != LODE_JOB_STATE_RUNNING)
        {
          info = job_dup_info (job);
          break;
        }

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;

      if (progress != NULL && job->progress_serial != seen)
        {
          LodeIndexProgress p = job->progress;

          seen = job->progress_serial;
          g_mutex_unlock (&self->lock);
          progress (&p, progress_data);
          g_mutex_lock (&self->lock);
          continue;
        }

      g_cond_wait (&self->cond, &self->lock);
    }
  g_mutex_unlock (&self->lock);

  g_cancellable_disconnect (cancellable, handler);

  return info;
}

/**
 * lode_engine_stop_index:
 * @self: a #LodeEngine
 * @project_id: the project
 *
 * Cancels the running job of @project_id. What it indexed so far is kept; the next job
 * resumes from there.
 *
 * Returns: %TRUE if a job was running
 */
gboolean
lode_engine_stop_index (LodeEngine *self,
                        const char *project_id)
{
  Job *job;
  gboolean running;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (project_id != NULL, FALSE);

  g_mutex_lock (&self->lock);
  job = g_hash_table_lookup (self->jobs, project_id);
  running = job != NULL && job->state == LODE_JOB_STATE_RUNNING;
  if (running)
    g_cancellable_cancel (job->cancellable);
  g_mutex_unlock (&self->lock);

  return running;
}

/**
 * lode_engine_dup_job:
 * @self: a #LodeEngine
 * @project_id: the project
 *
 * Returns: (transfer full) (nullable): the running or last job of @project_id since the
 *   engine started, or %NULL
 */
LodeJobInfo *
lode_engine_dup_job (LodeEngine *self,
                     const char *project_id)
{
  LodeJobInfo *info = NULL;
  Job *job;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (project_id != NULL, NULL);

  g_mutex_lock (&self->lock);
  job = g_hash_table_lookup (self->jobs, project_id);
  if (job != NULL)
    info = job_dup_info (job);
  g_mutex_unlock (&self->lock);

  return info;
}

/**
 * lode_engine_cancel_jobs:
 * @self: a #LodeEngine
 *
 * Cancels every running job, for a prompt exit.
 */
void
lode_engine_cancel_jobs (LodeEngine *self)
{
  GHashTableIter iter;
  Job *job;

  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->jobs);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &job))
    if (job->state == LODE_JOB_STATE_RUNNING)
      g_cancellable_cancel (job->cancellable);
  g_mutex_unlock (&self->lock);
}
