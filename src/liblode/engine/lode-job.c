/* lode-job.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-engine"

#include "config.h"

#include "lode-job.h"

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

/**
 * lode_job_info_copy:
 * @info: a #LodeJobInfo
 *
 * Returns: (transfer full): a copy of @info
 */
LodeJobInfo *
lode_job_info_copy (const LodeJobInfo *info)
{
  LodeJobInfo *copy;

  g_return_val_if_fail (info != NULL, NULL);

  copy = g_memdup2 (info, sizeof *info);
  copy->project_id = g_strdup (info->project_id);
  copy->root = g_strdup (info->root);
  copy->error = g_strdup (info->error);
  if (info->report != NULL)
    copy->report = lode_index_report_copy (info->report);

  return copy;
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

const char *
lode_job_kind_to_string (LodeJobKind kind)
{
  switch (kind)
    {
    case LODE_JOB_CHANGES:
      return "changes";
    case LODE_JOB_UPDATE:
      return "update";
    case LODE_JOB_REBUILD:
      return "rebuild";
    default:
      g_return_val_if_reached ("unknown");
    }
}
