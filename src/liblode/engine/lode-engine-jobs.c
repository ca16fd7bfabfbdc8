/* lode-engine-jobs.c — the jobs of LodeEngine: one writer per project, whoever asks
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-engine"

#include "config.h"

#include "lode-engine-private.h"
#include "lode-error.h"
#include "lode-memory-limit.h"

static void job_start (LodeEngine      *self,
                       LodeEngineEntry *entry,
                       LodeEngineJob   *job);

/* Jobs --------------------------------------------------------------------------------- */

/* Adds @changes to a job of kind LODE_JOB_CHANGES, or makes it an update when the list grows
 * too long to be worth following. Called with the lock held. */
static void
job_add_changes (LodeEngineJob *job,
                 GPtrArray     *changes)
{
  if (job->kind != LODE_JOB_CHANGES)
    return;

  if (job->changes == NULL)
    job->changes = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_change_free);
  if (job->changes->len + changes->len > LODE_ENGINE_MAX_CHANGES)
    {
      g_debug ("%s: %u changes and more; scanning the tree instead",
               lode_project_get_root (job->project), job->changes->len + changes->len);
      job->kind = LODE_JOB_UPDATE;
      g_clear_pointer (&job->changes, g_ptr_array_unref);
      return;
    }

  for (guint i = 0; i < changes->len; i++)
    {
      const LodeChange *change = g_ptr_array_index (changes, i);
      LodeChange *copy = g_new0 (LodeChange, 1);

      copy->kind = change->kind;
      copy->path = g_strdup (change->path);
      copy->old_path = g_strdup (change->old_path);
      g_ptr_array_add (job->changes, copy);
    }
}

/* Running jobs ------------------------------------------------------------------------- */

typedef struct
{
  LodeEngine    *engine;
  LodeEngineJob *job;
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
    _lode_engine_emit_later (self, LODE_ENGINE_INDEX_PROGRESS,
                             lode_project_get_id (run->job->project),
                             lode_project_get_root (run->job->project));
}

/* What a task of lode_engine_index_async() keeps: whether it joined, and the source that
 * watches its cancellable, destroyed when the task completes. */
typedef struct
{
  gboolean  joined;
  GSource  *cancel_source;
} TaskData;

static void
task_data_free (TaskData *data)
{
  if (data->cancel_source != NULL)
    {
      g_source_destroy (data->cancel_source);
      g_source_unref (data->cancel_source);
    }
  g_free (data);
}

static void
task_data_stop_watching (GTask *task)
{
  TaskData *data = g_task_get_task_data (task);

  if (data->cancel_source != NULL)
    g_source_destroy (data->cancel_source);
}

typedef struct
{
  LodeJobInfo *info;
  gboolean     joined;
} IndexResult;

static void
index_result_free (IndexResult *result)
{
  lode_job_info_free (result->info);
  g_free (result);
}

/* Completes the tasks of lode_engine_index_async() waiting for @job. Called with the lock
 * held; the tasks return in an idle of their own context. */
static void
complete_tasks (LodeEngineJob *job)
{
  for (guint i = 0; i < job->tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (job->tasks, i);
      IndexResult *result = g_new0 (IndexResult, 1);
      TaskData *data = g_task_get_task_data (task);

      task_data_stop_watching (task);
      result->info = _lode_engine_job_dup_info (job);
      result->joined = data->joined;
      g_task_return_pointer (task, result, (GDestroyNotify) index_result_free);
    }
  g_ptr_array_set_size (job->tasks, 0);
}

void
_lode_engine_job_fail_tasks (LodeEngineJob *job,
                             const char    *message)
{
  for (guint i = 0; i < job->tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (job->tasks, i);

      task_data_stop_watching (task);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", message);
    }
  g_ptr_array_set_size (job->tasks, 0);
}

/* Trying again after a failure -------------------------------------------------------- */

/* A watcher's job that failed (a full disk, a quota, a file-size limit) is tried again after
 * RETRY_FIRST_MSEC, then twice as long after each failure, up to RETRY_MAX_MSEC. */
#define RETRY_FIRST_MSEC 1000
#define RETRY_MAX_MSEC   (5 * 60 * 1000)

typedef struct
{
  GWeakRef  engine;
  char     *project_id;
} Retry;

static void
retry_free (Retry *retry)
{
  g_weak_ref_clear (&retry->engine);
  g_free (retry->project_id);
  g_free (retry);
}

/* Looks the entry up again: it may be gone, or no longer watched, by now. */
static gboolean
retry_cb (gpointer user_data)
{
  Retry *retry = user_data;
  g_autoptr(LodeEngine) self = g_weak_ref_get (&retry->engine);
  gboolean joined;
  LodeEngineEntry *entry;

  if (self == NULL)
    return G_SOURCE_REMOVE;

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, retry->project_id);
  if (entry != NULL && entry->retry == g_main_current_source ())
    {
      g_clear_pointer (&entry->retry, g_source_unref);
      if (entry->watcher != NULL)
        {
          g_debug ("%s: trying again", lode_project_get_root (entry->project));
          _lode_engine_request_job (self, entry, LODE_JOB_UPDATE, NULL, &joined)->n_owners++;
        }
    }
  g_mutex_unlock (&self->lock);

  return G_SOURCE_REMOVE;
}

/* Schedules the next try of a watched tree whose job failed, unless one is scheduled.
 * Called with the lock held, from any thread. */
static void
retry_later (LodeEngine      *self,
             LodeEngineEntry *entry)
{
  Retry *retry;

  if (entry->retry != NULL)
    return;

  entry->retry_msec = entry->retry_msec == 0 ? RETRY_FIRST_MSEC
                                             : MIN (entry->retry_msec * 2, RETRY_MAX_MSEC);
  retry = g_new0 (Retry, 1);
  g_weak_ref_init (&retry->engine, self);
  retry->project_id = g_strdup (lode_project_get_id (entry->project));
  entry->retry = g_timeout_source_new (entry->retry_msec);
  g_source_set_static_name (entry->retry, "[lode] retry a watched tree");
  g_source_set_callback (entry->retry, retry_cb, retry, (GDestroyNotify) retry_free);
  g_source_attach (entry->retry, self->context);
  g_debug ("%s: trying again in %u ms", lode_project_get_root (entry->project),
           entry->retry_msec);
}

/* Runs on the job's own thread, which nobody joins: the engine waits for entry->running to
 * be cleared instead, and after that the thread no longer touches the engine. */
static gpointer
job_thread_func (gpointer user_data)
{
  g_autofree JobRun *run = user_data;
  LodeEngine *self = run->engine;
  LodeEngineJob *job = run->job;
  LodeEngineEntry *entry = job->entry;
  g_autoptr(GError) error = NULL;
  LodeIndexReport *report;
  LodeEngineEnded *ended;

  lode_memory_limit_thread_init ();
  report = lode_project_index_with (entry->project,
                                    job->kind == LODE_JOB_REBUILD ? LODE_INDEX_FORCE
                                                                  : LODE_INDEX_FLAGS_NONE,
                                    job->kind == LODE_JOB_CHANGES ? job->changes : NULL,
                                    job->cancellable, job_progress_cb, run, &error);

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
  /* What a change list held is lost with a job that did not complete. */
  if (job->state != LODE_JOB_STATE_SUCCEEDED && job->kind == LODE_JOB_CHANGES)
    entry->needs_scan = TRUE;
  else if (job->state == LODE_JOB_STATE_SUCCEEDED && job->kind != LODE_JOB_CHANGES)
    entry->needs_scan = FALSE;
  /* A watched tree is kept up to date without anyone asking again: a job that failed (a
   * full disk, a quota) is tried again later, its error shown meanwhile. */
  if (job->state == LODE_JOB_STATE_FAILED && entry->watcher != NULL)
    retry_later (self, entry);
  else if (job->state == LODE_JOB_STATE_SUCCEEDED)
    _lode_engine_entry_clear_retry (entry, TRUE);

  complete_tasks (job);
  g_clear_pointer (&entry->last, _lode_engine_job_unref);
  entry->last = g_steal_pointer (&entry->running);

  ended = g_new0 (LodeEngineEnded, 1);
  g_weak_ref_init (&ended->engine, self);
  ended->project_id = g_strdup (lode_project_get_id (entry->project));
  ended->root = g_strdup (lode_project_get_root (entry->project));
  ended->state = job->state;
  ended->error = g_strdup (job->error);
  /* Queued before the lock goes: whoever then finds the job ended (codebase_status, on a
   * worker whose answer is queued on the same context) is answered after its end is told. */
  _lode_engine_invoke_later (self->context, _lode_engine_job_ended_cb, ended,
                             (GDestroyNotify) _lode_engine_ended_free);

  if (entry->queued != NULL)
    job_start (self, entry, g_steal_pointer (&entry->queued));
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  return NULL;
}

/* Called with the lock held. */
static void
job_start (LodeEngine      *self,
           LodeEngineEntry *entry,
           LodeEngineJob   *job)
{
  JobRun *run = g_new0 (JobRun, 1);

  g_assert (entry->running == NULL);

  if (job->kind == LODE_JOB_CHANGES && entry->needs_scan)
    {
      job->kind = LODE_JOB_UPDATE;
      g_clear_pointer (&job->changes, g_ptr_array_unref);
    }

  job->started_at = g_get_real_time ();
  job->progress.phase = LODE_INDEX_PHASE_SCANNING;
  entry->running = job;
  entry->n_started++;
  run->engine = self;
  run->job = job;
  g_thread_unref (g_thread_new ("lode-index", job_thread_func, run));
  g_cond_broadcast (&self->cond);
}

/* The job a request of @kind joins or creates: the running one when it covers the request,
 * else the queued one, made to cover it. Called with the lock held. */
LodeEngineJob *
_lode_engine_request_job (LodeEngine      *self,
                          LodeEngineEntry *entry,
                          LodeJobKind      kind,
                          GPtrArray       *changes,
                          gboolean        *joined)
{
  LodeEngineJob *job;

  *joined = TRUE;
  if (entry->running != NULL && entry->running->kind >= kind &&
      !g_cancellable_is_cancelled (entry->running->cancellable))
    {
      /* A change list that arrives during a run may describe what the run already missed. */
      if (kind != LODE_JOB_CHANGES)
        return entry->running;
    }

  job = entry->queued;
  if (job == NULL)
    {
      *joined = entry->running != NULL;
      job = _lode_engine_job_new (entry, kind);
      entry->queued = job;
    }
  else if (job->kind < kind)
    {
      job->kind = kind;
      g_clear_pointer (&job->changes, g_ptr_array_unref);
    }
  if (changes != NULL)
    job_add_changes (job, changes);

  if (entry->running == NULL)
    job_start (self, entry, g_steal_pointer (&entry->queued));

  return job;
}

static LodeJobKind
kind_for_request (LodeIndexRequest request)
{
  return request == LODE_INDEX_REQUEST_REBUILD ? LODE_JOB_REBUILD : LODE_JOB_UPDATE;
}

/* Starts or joins the job for @path; returns with the lock held and *@entry set. */
static LodeEngineJob *
lock_request (LodeEngine        *self,
              const char        *path,
              LodeIndexRequest   request,
              LodeEngineEntry  **entry_out,
              gboolean          *joined,
              GError           **error)
{
  LodeEngineEntry *entry = _lode_engine_lock_entry (self, path, error);

  if (entry == NULL)
    return NULL;

  if (request == LODE_INDEX_REQUEST_MUST_EXIST && !_lode_engine_entry_is_busy (entry) &&
      !lode_project_is_indexed (entry->project))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; index it first",
                   lode_project_get_root (entry->project));
      g_mutex_unlock (&self->lock);
      return NULL;
    }

  *entry_out = entry;
  return _lode_engine_request_job (self, entry, kind_for_request (request), NULL, joined);
}

/**
 * lode_engine_start_index:
 * @self: a #LodeEngine
 * @path: a directory, relative to the working directory or absolute
 * @request: what to do
 * @background: the job runs whoever waits for it: only lode_engine_stop_index() (or removing
 *   the project) cancels it. Otherwise the caller should wait for it with
 *   lode_engine_wait_index(): it is cancelled when its last waiter gives up.
 * @joined: (out) (optional): set to %TRUE when the request joined a job that was already
 *   running or queued
 * @error: return location for a #GError
 *
 * Starts indexing @path, joins the job that covers the request, or queues one after the
 * running job. Progress and the end of the job are announced by #LodeEngine::index-progress
 * and #LodeEngine::index-finished.
 *
 * Returns: (transfer full) (nullable): the job as it is now
 */
LodeJobInfo *
lode_engine_start_index (LodeEngine        *self,
                         const char        *path,
                         LodeIndexRequest   request,
                         gboolean           background,
                         gboolean          *joined,
                         GError           **error)
{
  gboolean was_joined = FALSE;
  LodeJobInfo *info;
  LodeEngineEntry *entry = NULL;
  LodeEngineJob *job;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  job = lock_request (self, path, request, &entry, &was_joined, error);
  if (job == NULL)
    return NULL;
  if (background)
    job->n_owners++;
  info = _lode_engine_job_dup_info (job);
  g_mutex_unlock (&self->lock);

  if (!was_joined)
    _lode_engine_emit_later (self, LODE_ENGINE_PROJECTS_CHANGED, NULL, NULL);
  if (joined != NULL)
    *joined = was_joined;

  return info;
}

/* A waiter gives up: a job nobody wants any more stops. Called with the lock held. */
static void
leave_job (LodeEngineJob *job)
{
  g_assert (job->n_waiters > 0);

  job->n_waiters--;
  if (job->n_waiters == 0 && job->n_owners == 0 && job->tasks->len == 0)
    {
      g_debug ("Cancelling the job of %s: nobody waits for it",
               lode_project_get_root (job->project));
      g_cancellable_cancel (job->cancellable);
    }
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

/* The job a waiter that comes now waits for: the queued one, which covers every request made
 * so far, else the running one, else the last. Called with the lock held. */
static LodeEngineJob *
newest_job (LodeEngineEntry *entry)
{
  return entry->queued != NULL ? entry->queued
         : entry->running != NULL ? entry->running : entry->last;
}

/**
 * lode_engine_wait_index:
 * @self: a #LodeEngine
 * @project_id: the project
 * @cancellable: (nullable): gives up waiting; the job is then cancelled unless somebody else
 *   waits for it or it runs in the background
 * @progress: (nullable) (scope call): called on this thread when the job advances; several
 *   steps may be seen as one
 * @progress_data: data for @progress
 * @error: return location for a #GError
 *
 * Blocks until the newest job of @project_id (the one the last request joined or queued)
 * ends. Never call it on a thread that runs the main context of the engine.
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
  LodeEngineEntry *entry;
  LodeEngineJob *job;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (project_id != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  if (cancellable != NULL)
    handler = g_cancellable_connect (cancellable, G_CALLBACK (wake_cb), self, NULL);

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, project_id);
  job = entry != NULL ? newest_job (entry) : NULL;
  if (job == NULL)
    g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                 "Project %s has no indexing job", project_id);
  else
    {
      _lode_engine_job_ref (job);
      job->n_waiters++;
      for (;;)
        {
          if (job->state != LODE_JOB_STATE_RUNNING)
            {
              info = _lode_engine_job_dup_info (job);
              job->n_waiters--;
              break;
            }

          if (g_cancellable_set_error_if_cancelled (cancellable, error))
            {
              leave_job (job);
              break;
            }

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
      _lode_engine_job_unref (job);
    }
  g_mutex_unlock (&self->lock);

  g_cancellable_disconnect (cancellable, handler);

  return info;
}

typedef struct
{
  LodeEngine    *engine;
  LodeEngineJob *job;
  GTask         *task;
} TaskCancel;

static void
task_cancel_free (TaskCancel *cancel)
{
  _lode_engine_job_unref (cancel->job);
  g_free (cancel);
}

/* A waiter of lode_engine_index_async() gave up (its cancellable fired). */
static gboolean
task_cancelled_cb (GCancellable *cancellable,
                   TaskCancel   *cancel)
{
  LodeEngine *self = cancel->engine;
  LodeEngineJob *job = cancel->job;

  g_mutex_lock (&self->lock);
  if (g_ptr_array_find (job->tasks, cancel->task, NULL))
    {
      g_autoptr(GTask) task = g_object_ref (cancel->task);

      /* The task is still waiting: it gives up, and the job goes when nobody else wants it. */
      g_ptr_array_remove (job->tasks, task);
      job->n_waiters++;
      leave_job (job);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED,
                               "Stopped waiting for the indexing job");
    }
  g_mutex_unlock (&self->lock);

  return G_SOURCE_REMOVE;
}

/**
 * lode_engine_index_async:
 * @self: a #LodeEngine
 * @path: a directory, relative to the working directory or absolute
 * @request: what to do
 * @cancellable: (nullable): gives up waiting; the job is then cancelled unless somebody else
 *   waits for it or it runs in the background
 * @callback: called on the caller's thread-default main context when the job ends
 * @user_data: data for @callback
 *
 * lode_engine_start_index() and a wait for the job's end that does not block: for callers
 * on a main loop (loded's methods).
 */
void
lode_engine_index_async (LodeEngine          *self,
                         const char          *path,
                         LodeIndexRequest     request,
                         GCancellable        *cancellable,
                         GAsyncReadyCallback  callback,
                         gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  gboolean joined = FALSE;
  LodeEngineEntry *entry = NULL;
  TaskData *data;
  LodeEngineJob *job;

  g_return_if_fail (LODE_IS_ENGINE (self));
  g_return_if_fail (path != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  /* The task has no cancellable of its own: a cancelled wait ends through the job's tasks
   * (task_cancelled_cb()), so that it is counted out of the job first. */
  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, lode_engine_index_async);

  job = lock_request (self, path, request, &entry, &joined, &error);
  if (job == NULL)
    {
      g_task_return_error (task, g_steal_pointer (&error));
      return;
    }
  data = g_new0 (TaskData, 1);
  data->joined = joined;
  if (cancellable != NULL)
    {
      TaskCancel *cancel = g_new0 (TaskCancel, 1);

      /* Destroyed when the task completes (see complete_tasks()), so it never fires late. */
      cancel->engine = self;
      cancel->job = _lode_engine_job_ref (job);
      cancel->task = task;
      data->cancel_source = g_cancellable_source_new (cancellable);
      g_source_set_callback (data->cancel_source, G_SOURCE_FUNC (task_cancelled_cb), cancel,
                             (GDestroyNotify) task_cancel_free);
      g_source_attach (data->cancel_source, g_task_get_context (task));
    }
  g_task_set_task_data (task, data, (GDestroyNotify) task_data_free);
  g_ptr_array_add (job->tasks, g_object_ref (task));
  g_mutex_unlock (&self->lock);

  if (!joined)
    _lode_engine_emit_later (self, LODE_ENGINE_PROJECTS_CHANGED, NULL, NULL);
}

/**
 * lode_engine_index_finish:
 * @self: a #LodeEngine
 * @result: the #GAsyncResult
 * @joined: (out) (optional): whether the request joined a job that was already there
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the job as it ended, or %NULL on error
 */
LodeJobInfo *
lode_engine_index_finish (LodeEngine    *self,
                          GAsyncResult  *result,
                          gboolean      *joined,
                          GError       **error)
{
  IndexResult *index_result;
  LodeJobInfo *info;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  index_result = g_task_propagate_pointer (G_TASK (result), error);
  if (index_result == NULL)
    return NULL;

  if (joined != NULL)
    *joined = index_result->joined;
  info = g_steal_pointer (&index_result->info);
  index_result_free (index_result);

  return info;
}

/**
 * lode_engine_stop_index:
 * @self: a #LodeEngine
 * @project_id: the project
 *
 * Cancels the running job of @project_id and drops the queued one, whoever asked for them.
 * What was indexed so far is kept; the next job resumes from there.
 *
 * Returns: %TRUE if a job was running or queued
 */
gboolean
lode_engine_stop_index (LodeEngine *self,
                        const char *project_id)
{
  gboolean stopped = FALSE;
  LodeEngineEntry *entry;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (project_id != NULL, FALSE);

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, project_id);
  if (entry != NULL && entry->queued != NULL)
    {
      _lode_engine_job_fail_tasks (entry->queued, "Indexing was stopped");
      /* Blocked waiters see the job gone from the queue as its end. */
      g_clear_pointer (&entry->queued, _lode_engine_job_drop);
      entry->needs_scan = TRUE;
      stopped = TRUE;
    }
  if (entry != NULL && entry->running != NULL &&
      !g_cancellable_is_cancelled (entry->running->cancellable))
    {
      g_cancellable_cancel (entry->running->cancellable);
      stopped = TRUE;
    }
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  return stopped;
}

/**
 * lode_engine_dup_job:
 * @self: a #LodeEngine
 * @project_id: the project
 *
 * Returns: (transfer full) (nullable): the running job of @project_id, else the last one
 *   since the engine started, or %NULL
 */
LodeJobInfo *
lode_engine_dup_job (LodeEngine *self,
                     const char *project_id)
{
  LodeJobInfo *info = NULL;
  LodeEngineEntry *entry;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (project_id != NULL, NULL);

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, project_id);
  if (entry != NULL && (entry->running != NULL || entry->last != NULL))
    info = _lode_engine_job_dup_info (entry->running != NULL ? entry->running : entry->last);
  g_mutex_unlock (&self->lock);

  return info;
}

/**
 * lode_engine_cancel_jobs:
 * @self: a #LodeEngine
 *
 * Cancels every running job and drops the queued ones, for a prompt exit.
 */
void
lode_engine_cancel_jobs (LodeEngine *self)
{
  GHashTableIter iter;
  LodeEngineEntry *entry;

  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    {
      if (entry->queued != NULL)
        {
          _lode_engine_job_fail_tasks (entry->queued, "Lode is shutting down");
          g_clear_pointer (&entry->queued, _lode_engine_job_drop);
        }
      if (entry->running != NULL)
        g_cancellable_cancel (entry->running->cancellable);
    }
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);
}

/**
 * lode_engine_is_busy:
 * @self: a #LodeEngine
 *
 * Returns: %TRUE while a job runs, a project is watched or another process's run is
 *   followed (lode_engine_dup_status()): a service should stay up
 */
gboolean
lode_engine_is_busy (LodeEngine *self)
{
  GHashTableIter iter;
  LodeEngineEntry *entry;
  gboolean busy;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);

  g_mutex_lock (&self->lock);
  busy = g_hash_table_size (self->writers) > 0;
  g_hash_table_iter_init (&iter, self->entries);
  while (!busy && g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    busy = _lode_engine_entry_is_busy (entry) || entry->watcher != NULL;
  g_mutex_unlock (&self->lock);

  return busy;
}

