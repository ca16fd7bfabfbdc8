/* lode-engine-entry.c — what the engine's files share: entries, their jobs, the signals
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-engine"

#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lode-engine-private.h"
#include "lode-error.h"

/*
 * The bottom of the engine's files: the jobs, the watchers and the object above call down
 * here, and nothing here calls up. It holds the engine's signals and their emission on its
 * main context, the canonical roots entries are made for, a job's references and snapshot,
 * and an entry's making, locking and freeing.
 */

/* Signals ------------------------------------------------------------------------------ */

static guint signals [LODE_ENGINE_N_SIGNALS];

void
_lode_engine_class_install_signals (LodeEngineClass *klass)
{
  /**
   * LodeEngine::index-progress:
   * @project_id: the project
   * @root: its tree
   * @phase: a #LodeIndexPhase
   * @done: units done in this phase
   * @total: units in this phase, 0 when not known yet
   *
   * A job advanced; coalesced, so not every step is seen.
   */
  signals [LODE_ENGINE_INDEX_PROGRESS] =
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
   * A job ended.
   */
  signals [LODE_ENGINE_INDEX_FINISHED] =
    g_signal_new ("index-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_STRING);

  /**
   * LodeEngine::index-changed:
   * @project_id: the project
   * @root: its tree
   *
   * The index of a project was rebuilt, updated or removed, or a job on it ended in any
   * state (a stopped or failed job keeps what it wrote), or the run of another process that
   * a status showed (lode_engine_dup_status()) ended.
   */
  signals [LODE_ENGINE_INDEX_CHANGED] =
    g_signal_new ("index-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 2, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * LodeEngine::projects-changed:
   *
   * A project was added or removed, or started or stopped being watched.
   */
  signals [LODE_ENGINE_PROJECTS_CHANGED] =
    g_signal_new ("projects-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

/* Runs @func from @context's loop, on whichever thread iterates it, never from the calling
 * thread's stack. g_main_context_invoke() runs it at once, on the calling thread, when
 * @context is the default one and nobody iterates it that instant: a job's thread then
 * emitted the engine's signals while the thread that follows them ran on, and a test saw
 * index-finished without the index-changed that comes after it. */
void
_lode_engine_invoke_later (GMainContext   *context,
                           GSourceFunc     func,
                           gpointer        data,
                           GDestroyNotify  notify)
{
  GSource *source = g_idle_source_new ();

  g_source_set_priority (source, G_PRIORITY_DEFAULT);
  g_source_set_static_name (source, "[lode] engine signal");
  g_source_set_callback (source, func, data, notify);
  g_source_attach (source, context);
  g_source_unref (source);
}

/* Signals are emitted on the engine's main context, whatever thread caused them. */
typedef struct
{
  GWeakRef engine;
  guint    signal;
  char    *project_id;
  char    *root;
} Emission;

static void
emission_free (Emission *emission)
{
  g_weak_ref_clear (&emission->engine);
  g_free (emission->project_id);
  g_free (emission->root);
  g_free (emission);
}

static gboolean
emit_cb (gpointer user_data)
{
  Emission *emission = user_data;
  g_autoptr(LodeEngine) self = g_weak_ref_get (&emission->engine);
  LodeIndexProgress progress;
  LodeEngineEntry *entry;

  if (self == NULL)
    return G_SOURCE_REMOVE;

  switch (emission->signal)
    {
    case LODE_ENGINE_INDEX_PROGRESS:
      g_mutex_lock (&self->lock);
      entry = g_hash_table_lookup (self->entries, emission->project_id);
      if (entry == NULL || entry->running == NULL)
        {
          g_mutex_unlock (&self->lock);
          break;
        }
      entry->running->progress_pending = FALSE;
      progress = entry->running->progress;
      g_mutex_unlock (&self->lock);
      g_signal_emit (self, signals [LODE_ENGINE_INDEX_PROGRESS], 0, emission->project_id,
                     emission->root, (guint) progress.phase, progress.done, progress.total);
      break;

    case LODE_ENGINE_INDEX_CHANGED:
      g_signal_emit (self, signals [LODE_ENGINE_INDEX_CHANGED], 0, emission->project_id,
                     emission->root);
      break;

    case LODE_ENGINE_PROJECTS_CHANGED:
      g_signal_emit (self, signals [LODE_ENGINE_PROJECTS_CHANGED], 0);
      break;

    default:
      g_assert_not_reached ();
    }

  return G_SOURCE_REMOVE;
}

void
_lode_engine_emit_later (LodeEngine *self,
                         guint       signal,
                         const char *project_id,
                         const char *root)
{
  Emission *emission = g_new0 (Emission, 1);

  g_weak_ref_init (&emission->engine, self);
  emission->signal = signal;
  emission->project_id = g_strdup (project_id);
  emission->root = g_strdup (root);
  _lode_engine_invoke_later (self->context, emit_cb, emission, (GDestroyNotify) emission_free);
}

void
_lode_engine_ended_free (LodeEngineEnded *ended)
{
  g_weak_ref_clear (&ended->engine);
  g_free (ended->project_id);
  g_free (ended->root);
  g_free (ended->error);
  g_free (ended);
}

gboolean
_lode_engine_job_ended_cb (gpointer user_data)
{
  LodeEngineEnded *ended = user_data;
  g_autoptr(LodeEngine) self = g_weak_ref_get (&ended->engine);

  if (self == NULL)
    return G_SOURCE_REMOVE;

  g_signal_emit (self, signals [LODE_ENGINE_INDEX_FINISHED], 0, ended->project_id, ended->root,
                 (guint) ended->state, ended->error);
  if (ended->state == LODE_JOB_STATE_FAILED)
    g_warning ("Indexing %s failed: %s", ended->root, ended->error);
  /* A job that is stopped or fails keeps the files it wrote, and its end is news to whoever
   * shows the project's status. */
  g_signal_emit (self, signals [LODE_ENGINE_INDEX_CHANGED], 0, ended->project_id, ended->root);

  return G_SOURCE_REMOVE;
}

/* Roots -------------------------------------------------------------------------------- */

char *
_lode_engine_canonical_dir (const char  *path,
                            GError     **error)
{
  g_autofree char *absolute = g_canonicalize_filename (path, NULL);
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

/* Directories directly under / that hold the system rather than a project. */
static const char * const system_dirs[] = {
  "bin", "boot", "dev", "etc", "home", "lib", "lib32", "lib64", "libx32", "media", "mnt",
  "opt", "proc", "root", "run", "sbin", "snap", "srv", "sys", "usr", "var", NULL
};

/**
 * lode_engine_check_index_root:
 * @root: the canonical path of a tree about to be indexed for the first time
 * @confirmed: the user confirmed that this tree is meant, whatever it is
 * @how_to_confirm: how the caller's user confirms, for the message ("pass --yes")
 * @error: return location for a #GError
 *
 * The file system's root, the system's top-level directories (`/usr`, `/etc`, `/proc`, …)
 * and the home directory are whole systems, not projects: indexing one reads everything on
 * it, special files included, and is almost always a mistake (the working directory of an
 * agent that named no project). They are refused unless @confirmed. Every front end checks
 * before it starts a first index of a tree.
 *
 * Returns: %TRUE if @root may be indexed; %FALSE with %LODE_ERROR_INVALID_ARGUMENT otherwise
 */
gboolean
lode_engine_check_index_root (const char  *root,
                              gboolean     confirmed,
                              const char  *how_to_confirm,
                              GError     **error)
{
  g_autofree char *home = NULL;
  const char *what = NULL;

  g_return_val_if_fail (root != NULL, FALSE);
  g_return_val_if_fail (how_to_confirm != NULL, FALSE);

  if (confirmed)
    return TRUE;

  home = realpath (g_get_home_dir (), NULL);
  if (strcmp (root, "/") == 0)
    what = "the root of the file system";
  else if (root[0] == '/' && strchr (root + 1, '/') == NULL &&
           g_strv_contains (system_dirs, root + 1))
    what = "a directory of the system";
  else if (home != NULL && strcmp (root, home) == 0)
    what = "your home directory";

  if (what == NULL)
    return TRUE;

  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
               "%s is %s, not a project: indexing it would read everything on it. If you "
               "mean it, %s", root, what, how_to_confirm);
  return FALSE;
}

/* Jobs --------------------------------------------------------------------------------- */

/* Jobs are reference-counted: the entry holds its running, queued and last job, and every
 * waiter the one it waits for. */
LodeEngineJob *
_lode_engine_job_new (LodeEngineEntry *entry,
                      LodeJobKind      kind)
{
  LodeEngineJob *job = g_atomic_rc_box_new0 (LodeEngineJob);

  job->entry = entry;
  job->project = g_object_ref (entry->project);
  job->kind = kind;
  job->cancellable = g_cancellable_new ();
  job->state = LODE_JOB_STATE_RUNNING;
  job->progress.phase = LODE_INDEX_PHASE_WAITING;
  job->tasks = g_ptr_array_new_with_free_func (g_object_unref);

  return job;
}

static void
job_clear (LodeEngineJob *job)
{
  /* Nobody waits for a job that is gone. */
  g_assert (job->tasks->len == 0);

  g_clear_pointer (&job->changes, g_ptr_array_unref);
  g_clear_object (&job->project);
  g_clear_object (&job->cancellable);
  g_clear_pointer (&job->report, lode_index_report_free);
  g_clear_pointer (&job->tasks, g_ptr_array_unref);
  g_free (job->error);
}

LodeEngineJob *
_lode_engine_job_ref (LodeEngineJob *job)
{
  return g_atomic_rc_box_acquire (job);
}

void
_lode_engine_job_unref (LodeEngineJob *job)
{
  g_atomic_rc_box_release_full (job, (GDestroyNotify) job_clear);
}

/* A queued job that will never run. Called with the lock held. */
void
_lode_engine_job_drop (LodeEngineJob *job)
{
  job->state = LODE_JOB_STATE_CANCELLED;
  job->finished_at = g_get_real_time ();
  _lode_engine_job_unref (job);
}

/* Called with the lock held. */
LodeJobInfo *
_lode_engine_job_dup_info (LodeEngineJob *job)
{
  LodeJobInfo *info = g_new0 (LodeJobInfo, 1);

  info->project_id = g_strdup (lode_project_get_id (job->project));
  info->root = g_strdup (lode_project_get_root (job->project));
  info->kind = job->kind;
  info->state = job->state;
  info->progress = job->progress;
  info->error = g_strdup (job->error);
  info->started_at = job->started_at;
  info->finished_at = job->finished_at;
  if (job->report != NULL)
    info->report = lode_index_report_copy (job->report);

  return info;
}

/* Entries ------------------------------------------------------------------------------ */

/* Called with the lock held. */
LodeEngineEntry *
_lode_engine_ensure_entry (LodeEngine *self,
                           const char *root)
{
  g_autofree char *id = lode_project_id_for_path (root);
  LodeEngineEntry *entry = g_hash_table_lookup (self->entries, id);

  if (entry == NULL)
    {
      entry = g_new0 (LodeEngineEntry, 1);
      entry->engine = self;
      entry->project = lode_project_new (root, self->config);
      g_hash_table_insert (self->entries, g_steal_pointer (&id), entry);
    }

  return entry;
}

/* The entry of @path's canonical root, with the project's embedder set. Called without the
 * lock; returns with it held. */
LodeEngineEntry *
_lode_engine_lock_entry (LodeEngine  *self,
                         const char  *path,
                         GError     **error)
{
  g_autofree char *root = NULL;
  g_autofree char *unavailable = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  LodeEngineEntry *entry;

  g_assert (path != NULL);

  root = _lode_engine_canonical_dir (path, error);
  if (root == NULL)
    return NULL;

  /* Making the provider may block (a model load, a server probe): before the lock. */
  embedder = lode_embedder_source_dup (self->embedders, &unavailable);

  g_mutex_lock (&self->lock);
  entry = _lode_engine_ensure_entry (self, root);
  lode_project_set_embedder (entry->project, embedder, unavailable);

  return entry;
}

void
_lode_engine_entry_free (LodeEngineEntry *entry)
{
  /* Jobs have ended (see dispose and lode_engine_remove_project()). */
  g_assert (entry->running == NULL && entry->queued == NULL);

  if (entry->watcher != NULL)
    {
      g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                                            NULL, entry);
      lode_watcher_stop (entry->watcher);
      g_clear_object (&entry->watcher);
    }
  _lode_engine_entry_clear_retry (entry, FALSE);
  g_clear_pointer (&entry->last, _lode_engine_job_unref);
  g_clear_object (&entry->project);
  g_free (entry);
}

/* Called with the lock held. */
gboolean
_lode_engine_entry_is_busy (LodeEngineEntry *entry)
{
  return entry->running != NULL || entry->queued != NULL;
}

/* Drops the scheduled try of a watched tree whose job failed; after a job that @succeeded,
 * the next failure waits the least again. Called with the lock held, or on an entry nobody
 * else sees. */
void
_lode_engine_entry_clear_retry (LodeEngineEntry *entry,
                                gboolean         succeeded)
{
  if (entry->retry != NULL)
    {
      g_source_destroy (entry->retry);
      g_clear_pointer (&entry->retry, g_source_unref);
    }
  if (succeeded)
    entry->retry_msec = 0;
}
