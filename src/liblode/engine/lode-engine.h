/* lode-engine.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-config.h"
#include "lode-embedder.h"
#include "lode-project.h"

G_BEGIN_DECLS

typedef struct
{
  char *id;
  char *root;
  char *db_path;
} LodeProjectInfo;

void lode_project_info_free (LodeProjectInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeProjectInfo, lode_project_info_free)

/**
 * LodeJobState:
 * @LODE_JOB_STATE_RUNNING: the index is being built
 * @LODE_JOB_STATE_SUCCEEDED: the last run completed
 * @LODE_JOB_STATE_FAILED: the last run failed; #LodeJobInfo.error says why
 * @LODE_JOB_STATE_CANCELLED: the last run was stopped; the next run resumes it
 */
typedef enum
{
  LODE_JOB_STATE_RUNNING,
  LODE_JOB_STATE_SUCCEEDED,
  LODE_JOB_STATE_FAILED,
  LODE_JOB_STATE_CANCELLED,
} LodeJobState;

/**
 * LodeJobInfo:
 * @project_id: the project's id
 * @root: the indexed tree
 * @state: where the job is
 * @progress: the last progress the indexer reported
 * @error: (nullable): why the job failed
 * @report: (nullable): the report of a job that succeeded
 * @started_at: wall-clock time (µs since the epoch) the job started
 * @finished_at: when it ended; 0 while it runs
 *
 * A snapshot of the background indexing job of one project.
 */
typedef struct
{
  char              *project_id;
  char              *root;
  LodeJobState       state;
  LodeIndexProgress  progress;
  char              *error;
  LodeIndexReport   *report;
  gint64             started_at;
  gint64             finished_at;
} LodeJobInfo;

void        lode_job_info_free       (LodeJobInfo  *info);
const char *lode_job_state_to_string (LodeJobState  state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeJobInfo, lode_job_info_free)

#define LODE_TYPE_ENGINE (lode_engine_get_type ())
G_DECLARE_FINAL_TYPE (LodeEngine, lode_engine, LODE, ENGINE, GObject)

LodeEngine        *lode_engine_new            (const LodeConfig  *config);
const LodeConfig  *lode_engine_get_config     (LodeEngine        *self);
LodeProject       *lode_engine_open_project   (LodeEngine        *self,
                                               const char        *path,
                                               gboolean           must_be_indexed,
                                               GError           **error);
GPtrArray         *lode_engine_list_projects  (LodeEngine        *self,
                                               GError           **error);
gboolean           lode_engine_remove_project (LodeEngine        *self,
                                               const char        *path,
                                               GError           **error);
void               lode_engine_set_embedder   (LodeEngine        *self,
                                               LodeEmbedder      *embedder);
LodeEmbedder      *lode_engine_dup_embedder   (LodeEngine        *self,
                                               char             **unavailable);

LodeJobInfo       *lode_engine_start_index    (LodeEngine            *self,
                                               const char            *path,
                                               gboolean              *joined,
                                               GError               **error);
LodeJobInfo       *lode_engine_wait_index     (LodeEngine            *self,
                                               const char            *project_id,
                                               GCancellable          *cancellable,
                                               LodeIndexProgressFunc  progress,
                                               gpointer               progress_data,
                                               GError               **error);
gboolean           lode_engine_stop_index     (LodeEngine            *self,
                                               const char            *project_id);
LodeJobInfo       *lode_engine_dup_job        (LodeEngine            *self,
                                               const char            *project_id);
void               lode_engine_cancel_jobs    (LodeEngine            *self);

G_END_DECLS
