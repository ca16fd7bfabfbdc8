/* lode-engine-private.h — what the engine's files share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-embedder-source.h"
#include "lode-engine.h"
#include "lode-watcher.h"

G_BEGIN_DECLS

/* The engine object, which its files share; each calls only the ones before it in this
 * order: lode-engine-entry.c (the signals and their emission, the canonical roots, a job's
 * references, an entry's making and freeing), lode-engine-jobs.c (one running and one queued
 * job per project, whoever asks; a watched tree's failed job tried again),
 * lode-engine-watch.c (the watchers and the list of watched trees) and lode-engine.c (the
 * object, its projects and what reads them). Entry and job fields are guarded by
 * LodeEngine.lock. */

/* A change list longer than this (a branch switch, a tool rewriting the tree) is not worth
 * following path by path: the job scans the tree instead. */
#define LODE_ENGINE_MAX_CHANGES 2000

typedef struct _LodeEngineEntry LodeEngineEntry;

typedef struct
{
  LodeEngineEntry   *entry;       /* valid while the job is queued or running */
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
  GPtrArray         *tasks;       /* GTask of lode_engine_index_async() */
  guint              progress_pending : 1;
} LodeEngineJob;

struct _LodeEngineEntry
{
  LodeEngine    *engine;           /* (unowned): owns the entry, and outlives it */
  LodeProject   *project;
  LodeEngineJob *running;
  LodeEngineJob *queued;
  LodeEngineJob *last;
  LodeWatcher   *watcher;
  GSource       *retry;            /* (nullable): the next try after a watcher's job failed */
  guint          retry_msec;       /* how long that try waits; doubles with each failure */
  guint          n_started;        /* jobs started: a status reads the lock between two looks */
  guint          needs_scan : 1;   /* a change list was lost: the next job scans the tree */
  guint          watch_confirmed : 1;  /* a whole system the user confirmed watching */
};

struct _LodeEngine
{
  GObject       parent_instance;
  LodeConfig   *config;
  GMainContext *context;
  char         *watch_list;      /* (nullable): where watched roots are remembered */

  /* Guards entries and every entry's and job's fields; cond is broadcast on any change. */
  GMutex        lock;
  GCond         cond;
  GHashTable   *entries;         /* project id → LodeEngineEntry */

  /* Trees another process writes (`lode index`, another daemon), as a status found them:
   * followed until their writer lock is free, so that that run's end is told as a job's. */
  GHashTable   *writers;         /* project id → the project's LodeProject */
  GSource      *writers_source;  /* (nullable): tests them, while any is followed */

  /* The embedding provider of every project, made from the settings on first use unless
   * lode_engine_set_embedder() chose one. */
  LodeEmbedderSource *embedders;
};

enum {
  LODE_ENGINE_INDEX_PROGRESS,
  LODE_ENGINE_INDEX_FINISHED,
  LODE_ENGINE_INDEX_CHANGED,
  LODE_ENGINE_PROJECTS_CHANGED,
  LODE_ENGINE_N_SIGNALS
};

/* A job's end, announced on the engine's context (_lode_engine_job_ended_cb()). */
typedef struct
{
  GWeakRef      engine;
  char         *project_id;
  char         *root;
  LodeJobState  state;
  char         *error;
} LodeEngineEnded;

/* lode-engine-entry.c */
void             _lode_engine_class_install_signals (LodeEngineClass  *klass);
void             _lode_engine_invoke_later          (GMainContext     *context,
                                                     GSourceFunc       func,
                                                     gpointer          data,
                                                     GDestroyNotify    notify);
void             _lode_engine_emit_later            (LodeEngine       *self,
                                                     guint             signal,
                                                     const char       *project_id,
                                                     const char       *root);
gboolean         _lode_engine_job_ended_cb          (gpointer          user_data);
void             _lode_engine_ended_free            (LodeEngineEnded  *ended);
char            *_lode_engine_canonical_dir         (const char       *path,
                                                     GError          **error);
LodeEngineJob   *_lode_engine_job_new               (LodeEngineEntry  *entry,
                                                     LodeJobKind       kind);
LodeEngineJob   *_lode_engine_job_ref               (LodeEngineJob    *job);
void             _lode_engine_job_unref             (LodeEngineJob    *job);
void             _lode_engine_job_drop              (LodeEngineJob    *job);
LodeJobInfo     *_lode_engine_job_dup_info          (LodeEngineJob    *job);
LodeEngineEntry *_lode_engine_ensure_entry          (LodeEngine       *self,
                                                     const char       *root);
LodeEngineEntry *_lode_engine_lock_entry            (LodeEngine       *self,
                                                     const char       *path,
                                                     GError          **error);
void             _lode_engine_entry_free            (LodeEngineEntry  *entry);
gboolean         _lode_engine_entry_is_busy         (LodeEngineEntry  *entry);
void             _lode_engine_entry_clear_retry     (LodeEngineEntry  *entry,
                                                     gboolean          succeeded);

/* lode-engine-jobs.c */
void             _lode_engine_job_fail_tasks        (LodeEngineJob    *job,
                                                     const char       *message);
LodeEngineJob   *_lode_engine_request_job           (LodeEngine       *self,
                                                     LodeEngineEntry  *entry,
                                                     LodeJobKind       kind,
                                                     GPtrArray        *changes,
                                                     gboolean         *joined);

/* lode-engine-watch.c */
void             _lode_engine_save_watch_list       (LodeEngine       *self);

/* lode-engine.c */
guint            _lode_engine_count_followed_writers (LodeEngine *self);

G_END_DECLS
