/* lode-job.h — what the engine tells of an indexing job
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "lode-indexer.h"

G_BEGIN_DECLS

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
 * LodeJobKind:
 * @LODE_JOB_CHANGES: re-reads the paths a watcher reported
 * @LODE_JOB_UPDATE: brings the index up to date with the whole tree
 * @LODE_JOB_REBUILD: deletes the index and builds it from scratch
 *
 * What a job does; each kind covers what the ones before it do.
 */
typedef enum
{
  LODE_JOB_CHANGES,
  LODE_JOB_UPDATE,
  LODE_JOB_REBUILD,
} LodeJobKind;

/**
 * LodeJobInfo:
 * @project_id: the project's id
 * @root: the indexed tree
 * @kind: what the job does
 * @state: where the job is
 * @progress: the last progress the indexer reported
 * @error: (nullable): why the job failed
 * @report: (nullable): the report of a job that succeeded
 * @started_at: wall-clock time (µs since the epoch) the job started
 * @finished_at: when it ended; 0 while it runs
 *
 * A snapshot of an indexing job of one project.
 */
typedef struct
{
  char              *project_id;
  char              *root;
  LodeJobKind        kind;
  LodeJobState       state;
  LodeIndexProgress  progress;
  char              *error;
  LodeIndexReport   *report;
  gint64             started_at;
  gint64             finished_at;
} LodeJobInfo;

void         lode_job_info_free       (LodeJobInfo       *info);
LodeJobInfo *lode_job_info_copy       (const LodeJobInfo *info);
const char  *lode_job_state_to_string (LodeJobState       state);
const char  *lode_job_kind_to_string  (LodeJobKind        kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeJobInfo, lode_job_info_free)

G_END_DECLS
