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
#include "lode-watcher.h"

/*
 * The one owner of every project's life: every front end (loded's typed methods and its
 * CallTool, lode-mcp, the CLI, the app) reaches the same calls here.
 *
 * Each project has an Entry: its LodeProject (whose reader connection searches share), at
 * most one running Job, at most one queued Job, the last Job that ended, and its watcher.
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
 */

/* A change list longer than this (a branch switch, a tool rewriting the tree) is not worth
 * following path by path: the job scans the tree instead. */
#define MAX_CHANGES 2000

/* How often an engine without a built-in model looks for one again. */
#define EMBEDDER_RETRY_USEC (2 * G_USEC_PER_SEC)

typedef struct _Entry Entry;

typedef struct
{
  Entry             *entry;       /* valid while the job is queued or running */
  LodeProject       *project;
  LodeJobKind        kind;
  GPtrArray         *changes;     /* LodeChange, for LODE_JOB_CHANGES */
  GCancellable      *cancellable;
  LodeJobState       state;
  LodeIndexProgress  progress;
  guint              progress_serial;
  char              *error;
  LodeIndexReport   *report;
  gint64             started_at;
  gint64             finished_at;
  guint              n_waiters;   /* callers blocked in lode_engine_wait_index() */
  guint              n_owners;    /* the watcher, requests that run in the background */
  GPtrArray          *tasks;      /* GTask of lode_engine_index_async() */
  guint              progress_pending : 1;
} Job;

struct _Entry
{
  LodeProject *project;
  Job         *running;
  Job         *queued;
  Job         *last;
  LodeWatcher *watcher;
  guint        needs_scan : 1;   /* a change list was lost: the next job scans the tree */
};

struct _LodeEngine
{
  GObject       parent_instance;
  LodeConfig   *config;
  GMainContext *context;
  char         *watch_list;      /* (nullable): where watched roots are remembered */

  /* Guards entries and every Entry's and Job's fields; cond is broadcast on any change. */
  GMutex        lock;
  GCond         cond;
  GHashTable   *entries;         /* project id → Entry */

  /* The embedding provider of every project, made from the settings on first use unless
   * lode_engine_set_embedder() chose one. */
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
  PROJECTS_CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void job_start (LodeEngine *self,
                       Entry      *entry,
                       Job        *job);

/* Jobs --------------------------------------------------------------------------------- */

/* Jobs are reference-counted: the entry holds its running, queued and last job, and every
 * waiter the one it waits for. */
static Job *
job_new (Entry       *entry,
         LodeJobKind  kind)
{
  Job *job = g_atomic_rc_box_new0 (Job);

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
job_clear (Job *job)
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

static Job *
job_ref (Job *job)
{
  return g_atomic_rc_box_acquire (job);
}

static void
job_unref (Job *job)
{
  g_atomic_rc_box_release_full (job, (GDestroyNotify) job_clear);
}

/* A queued job that will never run. Called with the lock held. */
static void
job_drop (Job *job)
{
  job->state = LODE_JOB_STATE_CANCELLED;
  job->finished_at = g_get_real_time ();
  job_unref (job);
}

/* Called with the lock held. */
static LodeJobInfo *
job_dup_info (Job *job)
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

/* Adds @changes to a job of kind LODE_JOB_CHANGES, or makes it an update when the list grows
 * too long to be worth following. Called with the lock held. */
static void
job_add_changes (Job       *job,
                 GPtrArray *changes)
{
  if (job->kind != LODE_JOB_CHANGES)
    return;

  if (job->changes == NULL)
    job->changes = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_change_free);
  if (job->changes->len + changes->len > MAX_CHANGES)
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

/* Entries ------------------------------------------------------------------------------ */

static void
entry_free (Entry *entry)
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
  g_clear_pointer (&entry->last, job_unref);
  g_clear_object (&entry->project);
  g_free (entry);
}

/* Called with the lock held. */
static gboolean
entry_is_busy (Entry *entry)
{
  return entry->running != NULL || entry->queued != NULL;
}

/* Signals ------------------------------------------------------------------------------ */

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
  Entry *entry;

  if (self == NULL)
    return G_SOURCE_REMOVE;

  switch (emission->signal)
    {
    case INDEX_PROGRESS:
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
      g_signal_emit (self, signals [INDEX_PROGRESS], 0, emission->project_id, emission->root,
                     (guint) progress.phase, progress.done, progress.total);
      break;

    case INDEX_CHANGED:
      g_signal_emit (self, signals [INDEX_CHANGED], 0, emission->project_id, emission->root);
      break;

    case PROJECTS_CHANGED:
      g_signal_emit (self, signals [PROJECTS_CHANGED], 0);
      break;

    default:
      g_assert_not_reached ();
    }

  return G_SOURCE_REMOVE;
}

static void
emit_later (LodeEngine *self,
            guint       signal,
            const char *project_id,
            const char *root)
{
  Emission *emission = g_new0 (Emission, 1);

  g_weak_ref_init (&emission->engine, self);
  emission->signal = signal;
  emission->project_id = g_strdup (project_id);
  emission->root = g_strdup (root);
  g_main_context_invoke_full (self->context, G_PRIORITY_DEFAULT, emit_cb, emission,
                              (GDestroyNotify) emission_free);
}

/* The watch list ----------------------------------------------------------------------- */

/* Writes the roots the engine watches, when it remembers them. Called with the lock held. */
static void
save_watch_list (LodeEngine *self)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = NULL;
  GHashTableIter iter;
  Entry *entry;

  if (self->watch_list == NULL)
    return;

  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->watcher != NULL)
      g_string_append_printf (text, "%s\n", lode_project_get_root (entry->project));

  dir = g_path_get_dirname (self->watch_list);
  if (g_mkdir_with_parents (dir, 0700) != 0 ||
      !g_file_set_contents (self->watch_list, text->str, text->len, &error))
    g_warning ("Cannot remember the watched projects in %s: %s", self->watch_list,
               error != NULL ? error->message : g_strerror (errno));
}

/* GObject ------------------------------------------------------------------------------ */

static void
lode_engine_dispose (GObject *object)
{
  LodeEngine *self = (LodeEngine *)object;
  GHashTableIter iter;
  Entry *entry;

  /* Running jobs are stopped and waited for: nothing outlives the engine. */
  lode_engine_cancel_jobs (self);
  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    while (entry->running != NULL)
      g_cond_wait (&self->cond, &self->lock);
  g_hash_table_remove_all (self->entries);
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
  g_free (self->watch_list);
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
   * A job advanced; coalesced, so not every step is seen.
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
   * A job ended.
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

  /**
   * LodeEngine::projects-changed:
   *
   * A project was added or removed, or started or stopped being watched.
   */
  signals [PROJECTS_CHANGED] =
    g_signal_new ("projects-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lode_engine_init (LodeEngine *self)
{
  g_mutex_init (&self->lock);
  g_cond_init (&self->cond);
  self->context = g_main_context_ref_thread_default ();
  self->entries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                         (GDestroyNotify) entry_free);
  g_mutex_init (&self->embedder_lock);
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

/* Projects ----------------------------------------------------------------------------- */

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

/* Called with the lock held. */
static Entry *
ensure_entry (LodeEngine *self,
              const char *root)
{
  g_autofree char *id = lode_project_id_for_path (root);
  Entry *entry = g_hash_table_lookup (self->entries, id);

  if (entry == NULL)
    {
      entry = g_new0 (Entry, 1);
      entry->project = lode_project_new (root, self->config);
      g_hash_table_insert (self->entries, g_steal_pointer (&id), entry);
    }

  return entry;
}

/* The entry of @path's canonical root, with the project's embedder set. Called without the
 * lock; returns with it held. */
static Entry *
lock_entry (LodeEngine  *self,
            const char  *path,
            GError     **error)
{
  g_autofree char *root = NULL;
  g_autofree char *unavailable = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  Entry *entry;

  g_assert (path != NULL);

  root = canonical_dir (path, error);
  if (root == NULL)
    return NULL;

  /* Making the provider may block (a model load, a server probe): before the lock. */
  embedder = lode_engine_dup_embedder (self, &unavailable);

  g_mutex_lock (&self->lock);
  entry = ensure_entry (self, root);
  lode_project_set_embedder (entry->project, embedder, unavailable);

  return entry;
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
  g_autoptr(LodeProject) project = NULL;
  Entry *entry;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  entry = lock_entry (self, path, error);
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
      Entry *entry;

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
      info->indexing = entry != NULL && entry_is_busy (entry);
      info->watched = entry != NULL && entry->watcher != NULL;
      g_mutex_unlock (&self->lock);
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

  /* Our project folders are flat: the database, its WAL and SHM files, marks, lock, root. */
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

static void fail_tasks (Job        *job,
                        const char *message);

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
  Entry *entry = NULL;
  gboolean was_watched = FALSE;

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

  /* Out of the table first, so that no request starts a job on it again; then its jobs end:
   * the running one's database connection closes with it. */
  g_mutex_lock (&self->lock);
  if (g_hash_table_steal_extended (self->entries, id, (gpointer *) &key, (gpointer *) &entry))
    {
      if (entry->queued != NULL)
        {
          fail_tasks (entry->queued, "The project was removed");
          g_clear_pointer (&entry->queued, job_drop);
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
      save_watch_list (self);
    }
  g_mutex_unlock (&self->lock);

  if (entry != NULL)
    entry_free (entry);

  if (!remove_tree (project_dir, error))
    return FALSE;

  emit_later (self, INDEX_CHANGED, id, root);
  emit_later (self, PROJECTS_CHANGED, NULL, NULL);
  if (was_watched)
    g_debug ("Stopped watching %s: its index was removed", root);

  return TRUE;
}

/* Running jobs ------------------------------------------------------------------------- */

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
complete_tasks (Job *job)
{
  for (guint i = 0; i < job->tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (job->tasks, i);
      IndexResult *result = g_new0 (IndexResult, 1);
      TaskData *data = g_task_get_task_data (task);

      task_data_stop_watching (task);
      result->info = job_dup_info (job);
      result->joined = data->joined;
      g_task_return_pointer (task, result, (GDestroyNotify) index_result_free);
    }
  g_ptr_array_set_size (job->tasks, 0);
}

static void
fail_tasks (Job        *job,
            const char *message)
{
  for (guint i = 0; i < job->tasks->len; i++)
    {
      GTask *task = g_ptr_array_index (job->tasks, i);

      task_data_stop_watching (task);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_CANCELLED, "%s", message);
    }
  g_ptr_array_set_size (job->tasks, 0);
}

/* A job's end, announced on the engine's context. */
typedef struct
{
  GWeakRef      engine;
  char         *project_id;
  char         *root;
  LodeJobState  state;
  char         *error;
} Ended;

static void
ended_free (Ended *ended)
{
  g_weak_ref_clear (&ended->engine);
  g_free (ended->project_id);
  g_free (ended->root);
  g_free (ended->error);
  g_free (ended);
}

static gboolean
job_ended_cb (gpointer user_data)
{
  Ended *ended = user_data;
  g_autoptr(LodeEngine) self = g_weak_ref_get (&ended->engine);

  if (self == NULL)
    return G_SOURCE_REMOVE;

  g_signal_emit (self, signals [INDEX_FINISHED], 0, ended->project_id, ended->root,
                 (guint) ended->state, ended->error);
  if (ended->state == LODE_JOB_STATE_SUCCEEDED)
    g_signal_emit (self, signals [INDEX_CHANGED], 0, ended->project_id, ended->root);
  else if (ended->state == LODE_JOB_STATE_FAILED)
    g_warning ("Indexing %s failed: %s", ended->root, ended->error);

  return G_SOURCE_REMOVE;
}

/* Runs on the job's own thread, which nobody joins: the engine waits for entry->running to
 * be cleared instead, and after that the thread no longer touches the engine. */
static gpointer
job_thread_func (gpointer user_data)
{
  g_autofree JobRun *run = user_data;
  LodeEngine *self = run->engine;
  Job *job = run->job;
  Entry *entry = job->entry;
  g_autoptr(GError) error = NULL;
  g_autoptr(GMainContext) context = NULL;
  LodeIndexReport *report;
  Ended *ended;

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

  complete_tasks (job);
  g_clear_pointer (&entry->last, job_unref);
  entry->last = g_steal_pointer (&entry->running);

  ended = g_new0 (Ended, 1);
  g_weak_ref_init (&ended->engine, self);
  ended->project_id = g_strdup (lode_project_get_id (entry->project));
  ended->root = g_strdup (lode_project_get_root (entry->project));
  ended->state = job->state;
  ended->error = g_strdup (job->error);
  context = g_main_context_ref (self->context);

  if (entry->queued != NULL)
    job_start (self, entry, g_steal_pointer (&entry->queued));
  g_cond_broadcast (&self->cond);
  g_mutex_unlock (&self->lock);

  g_main_context_invoke_full (context, G_PRIORITY_DEFAULT, job_ended_cb, ended,
                              (GDestroyNotify) ended_free);

  return NULL;
}

/* Called with the lock held. */
static void
job_start (LodeEngine *self,
           Entry      *entry,
           Job        *job)
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
  run->engine = self;
  run->job = job;
  g_thread_unref (g_thread_new ("lode-index", job_thread_func, run));
  g_cond_broadcast (&self->cond);
}

/* The job a request of @kind joins or creates: the running one when it covers the request,
 * else the queued one, made to cover it. Called with the lock held. */
static Job *
request_job (LodeEngine  *self,
             Entry       *entry,
             LodeJobKind  kind,
             GPtrArray   *changes,
             gboolean    *joined)
{
  Job *job;

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
      job = job_new (entry, kind);
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
static Job *
lock_request (LodeEngine        *self,
              const char        *path,
              LodeIndexRequest   request,
              Entry            **entry_out,
              gboolean          *joined,
              GError           **error)
{
  Entry *entry = lock_entry (self, path, error);

  if (entry == NULL)
    return NULL;

  if (request == LODE_INDEX_REQUEST_MUST_EXIST && !entry_is_busy (entry) &&
      !lode_project_is_indexed (entry->project))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; index it first",
                   lode_project_get_root (entry->project));
      g_mutex_unlock (&self->lock);
      return NULL;
    }

  *entry_out = entry;
  return request_job (self, entry, kind_for_request (request), NULL, joined);
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
  Entry *entry = NULL;
  Job *job;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  job = lock_request (self, path, request, &entry, &was_joined, error);
  if (job == NULL)
    return NULL;
  if (background)
    job->n_owners++;
  info = job_dup_info (job);
  g_mutex_unlock (&self->lock);

  if (!was_joined)
    emit_later (self, PROJECTS_CHANGED, NULL, NULL);
  if (joined != NULL)
    *joined = was_joined;

  return info;
}

/* A waiter gives up: a job nobody wants any more stops. Called with the lock held. */
static void
leave_job (Job *job)
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
static Job *
newest_job (Entry *entry)
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
  Entry *entry;
  Job *job;

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
      job_ref (job);
      job->n_waiters++;
      for (;;)
        {
          if (job->state != LODE_JOB_STATE_RUNNING)
            {
              info = job_dup_info (job);
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
      job_unref (job);
    }
  g_mutex_unlock (&self->lock);

  g_cancellable_disconnect (cancellable, handler);

  return info;
}

typedef struct
{
  LodeEngine *engine;
  Job        *job;
  GTask      *task;
} TaskCancel;

static void
task_cancel_free (TaskCancel *cancel)
{
  job_unref (cancel->job);
  g_free (cancel);
}

/* A waiter of lode_engine_index_async() gave up (its cancellable fired). */
static gboolean
task_cancelled_cb (GCancellable *cancellable,
                   TaskCancel   *cancel)
{
  LodeEngine *self = cancel->engine;
  Job *job = cancel->job;

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
  Entry *entry = NULL;
  TaskData *data;
  Job *job;

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
      cancel->job = job_ref (job);
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
    emit_later (self, PROJECTS_CHANGED, NULL, NULL);
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
  Entry *entry;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (project_id != NULL, FALSE);

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, project_id);
  if (entry != NULL && entry->queued != NULL)
    {
      fail_tasks (entry->queued, "Indexing was stopped");
      /* Blocked waiters see the job gone from the queue as its end. */
      g_clear_pointer (&entry->queued, job_drop);
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
  Entry *entry;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (project_id != NULL, NULL);

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, project_id);
  if (entry != NULL && (entry->running != NULL || entry->last != NULL))
    info = job_dup_info (entry->running != NULL ? entry->running : entry->last);
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
  Entry *entry;

  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    {
      if (entry->queued != NULL)
        {
          fail_tasks (entry->queued, "Lode is shutting down");
          g_clear_pointer (&entry->queued, job_drop);
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
 * Returns: %TRUE while a job runs or a project is watched: a service should stay up
 */
gboolean
lode_engine_is_busy (LodeEngine *self)
{
  GHashTableIter iter;
  Entry *entry;
  gboolean busy = FALSE;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->entries);
  while (!busy && g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    busy = entry_is_busy (entry) || entry->watcher != NULL;
  g_mutex_unlock (&self->lock);

  return busy;
}

/* Watching ----------------------------------------------------------------------------- */

/* A watcher's batch: a job that re-reads just those paths, run by the watcher. */
static void
watcher_changed_cb (LodeWatcher *watcher,
                    GPtrArray   *changes,
                    Entry       *entry)
{
  LodeEngine *self = g_object_get_data (G_OBJECT (watcher), "lode-engine");
  gboolean joined;
  Job *job;

  g_debug ("%s: %u changes", lode_watcher_get_root (watcher), changes->len);
  g_mutex_lock (&self->lock);
  job = request_job (self, entry, LODE_JOB_CHANGES, changes, &joined);
  job->n_owners++;
  g_mutex_unlock (&self->lock);
}

/* The tree does not fit in the inotify budget: it is scanned every rescan-interval. */
static void
watcher_rescan_cb (LodeWatcher *watcher,
                   Entry       *entry)
{
  LodeEngine *self = g_object_get_data (G_OBJECT (watcher), "lode-engine");
  gboolean joined;
  Job *job;

  g_mutex_lock (&self->lock);
  job = request_job (self, entry, LODE_JOB_UPDATE, NULL, &joined);
  job->n_owners++;
  g_mutex_unlock (&self->lock);
}

static LodeWatcher *
new_watcher (LodeEngine  *self,
             const char  *root,
             GError     **error)
{
  g_autoptr(LodeWatcher) watcher = lode_watcher_new (root);
  const char *debounce = g_getenv ("LODE_WATCH_DEBOUNCE_MSEC");
  const char *max_watches = g_getenv ("LODE_WATCH_MAX_WATCHES");

  if (debounce != NULL)
    lode_watcher_set_debounce_msec (watcher, MIN (g_ascii_strtoull (debounce, NULL, 10),
                                                  10000));
  if (max_watches != NULL)
    lode_watcher_set_max_watches (watcher, MIN (g_ascii_strtoull (max_watches, NULL, 10),
                                                G_MAXUINT));
  if (!lode_watcher_start (watcher, error))
    return NULL;

  g_object_set_data (G_OBJECT (watcher), "lode-engine", self);
  return g_steal_pointer (&watcher);
}

static gboolean set_watching (LodeEngine  *self,
                              const char  *path,
                              gboolean     watch,
                              GError     **error);

/**
 * lode_engine_set_watching:
 * @self: a #LodeEngine
 * @path: a directory
 * @watch: start (%TRUE) or stop watching
 * @error: return location for a #GError
 *
 * Keeps the index of @path up to date as files change: each batch of changes the watcher
 * reports becomes a job that re-reads just those paths. Starting runs a catch-up update.
 * Call it on the thread that runs the engine's main context (or when no thread runs it).
 *
 * Returns: %TRUE on success
 */
gboolean
lode_engine_set_watching (LodeEngine  *self,
                          const char  *path,
                          gboolean     watch,
                          GError     **error)
{
  gboolean ok;

  g_return_val_if_fail (LODE_IS_ENGINE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  /* Monitors deliver their events to the engine's context: they are made on its thread. */
  if (!g_main_context_acquire (self->context))
    g_return_val_if_reached (FALSE);
  ok = set_watching (self, path, watch, error);
  g_main_context_release (self->context);

  return ok;
}

/* lode_engine_set_watching() with the engine's context acquired. */
static gboolean
set_watching (LodeEngine  *self,
              const char  *path,
              gboolean     watch,
              GError     **error)
{
  g_autoptr(LodeWatcher) started = NULL;
  g_autoptr(LodeWatcher) stopped = NULL;
  g_autofree char *root = NULL;
  gboolean changed = FALSE;
  gboolean joined;
  Entry *entry;

  root = canonical_dir (path, error);
  if (root == NULL)
    return FALSE;

  /* Monitors are made outside the lock: walking a large tree takes a while. */
  g_mutex_lock (&self->lock);
  entry = ensure_entry (self, root);
  changed = (entry->watcher == NULL) == watch;
  g_mutex_unlock (&self->lock);
  if (!changed)
    return TRUE;

  if (watch && (started = new_watcher (self, root, error)) == NULL)
    return FALSE;

  g_mutex_lock (&self->lock);
  entry = ensure_entry (self, root);
  if (watch && entry->watcher == NULL)
    {
      entry->watcher = g_steal_pointer (&started);
      g_signal_connect (entry->watcher, "changed", G_CALLBACK (watcher_changed_cb), entry);
      g_signal_connect (entry->watcher, "rescan", G_CALLBACK (watcher_rescan_cb), entry);

      /* Catch up with whatever changed before the monitors existed. */
      request_job (self, entry, LODE_JOB_UPDATE, NULL, &joined)->n_owners++;
    }
  else if (!watch && entry->watcher != NULL)
    {
      g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA, 0, 0, NULL,
                                            NULL, entry);
      stopped = g_steal_pointer (&entry->watcher);
    }
  save_watch_list (self);
  g_mutex_unlock (&self->lock);

  if (stopped != NULL)
    lode_watcher_stop (stopped);
  if (started != NULL)
    lode_watcher_stop (started);
  emit_later (self, PROJECTS_CHANGED, NULL, NULL);

  return TRUE;
}

/**
 * lode_engine_set_persist_watches:
 * @self: a #LodeEngine
 * @persist: remember the watched roots in the data directory (`watched`)
 *
 * A long-lived service remembers what it watches, so that lode_engine_resume_watching()
 * watches it again after a restart. Other processes watch only while they run.
 */
void
lode_engine_set_persist_watches (LodeEngine *self,
                                 gboolean    persist)
{
  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  g_clear_pointer (&self->watch_list, g_free);
  if (persist)
    self->watch_list = g_build_filename (self->config->data_dir, "watched", NULL);
  g_mutex_unlock (&self->lock);
}

/**
 * lode_engine_resume_watching:
 * @self: a #LodeEngine
 *
 * Watches again the roots that were watched when the engine's service last ran (see
 * lode_engine_set_persist_watches()), each with a catch-up update that finds what changed
 * meanwhile. A root that cannot be watched any more is dropped from the list.
 */
void
lode_engine_resume_watching (LodeEngine *self)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) roots = NULL;
  g_autofree char *list = NULL;

  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  list = g_strdup (self->watch_list);
  g_mutex_unlock (&self->lock);
  if (list == NULL || !g_file_get_contents (list, &text, NULL, NULL))
    return;

  roots = g_strsplit (text, "\n", -1);
  for (guint i = 0; roots[i] != NULL; i++)
    {
      g_autoptr(GError) error = NULL;

      if (*roots[i] == '\0')
        continue;
      if (!lode_engine_set_watching (self, roots[i], TRUE, &error))
        g_warning ("Not watching %s again: %s", roots[i], error->message);
      else
        g_message ("Watching %s again", roots[i]);
    }

  g_mutex_lock (&self->lock);
  save_watch_list (self);
  g_mutex_unlock (&self->lock);
}

/**
 * lode_engine_stop_watching_all:
 * @self: a #LodeEngine
 *
 * Stops every watcher without forgetting what was watched, for a service that exits.
 */
void
lode_engine_stop_watching_all (LodeEngine *self)
{
  g_autoptr(GPtrArray) watchers = g_ptr_array_new_with_free_func (g_object_unref);
  GHashTableIter iter;
  Entry *entry;

  g_return_if_fail (LODE_IS_ENGINE (self));

  g_mutex_lock (&self->lock);
  g_hash_table_iter_init (&iter, self->entries);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &entry))
    if (entry->watcher != NULL)
      {
        g_signal_handlers_disconnect_matched (entry->watcher, G_SIGNAL_MATCH_DATA, 0, 0,
                                              NULL, NULL, entry);
        g_ptr_array_add (watchers, g_steal_pointer (&entry->watcher));
      }
  g_mutex_unlock (&self->lock);

  for (guint i = 0; i < watchers->len; i++)
    lode_watcher_stop (g_ptr_array_index (watchers, i));
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
  Entry *entry;

  g_return_val_if_fail (LODE_IS_ENGINE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  project = lode_engine_open_project (self, path, FALSE, error);
  if (project == NULL)
    return NULL;

  status = lode_project_dup_status (project, error);
  if (status == NULL)
    return NULL;

  g_mutex_lock (&self->lock);
  entry = g_hash_table_lookup (self->entries, lode_project_get_id (project));
  if (entry != NULL && (entry->running != NULL || entry->queued != NULL || entry->last != NULL))
    status->job = job_dup_info (entry->running != NULL ? entry->running
                                : entry->queued != NULL ? entry->queued : entry->last);
  if (entry != NULL && entry->watcher != NULL)
    {
      status->watched = TRUE;
      status->polling = lode_watcher_get_polling (entry->watcher);
      status->n_watches = lode_watcher_get_n_watches (entry->watcher);
      status->watch_status = g_strdup (lode_watcher_get_status (entry->watcher));
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
