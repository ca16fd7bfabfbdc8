/* lode-git-history.h — what a project's recent git history says: commits and file dates
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* The commits read at most, newest first: older files count as unchanged since the oldest. */
#define LODE_GIT_HISTORY_MAX_COMMITS 2000

/**
 * LodeCommit:
 * @id: the commit's full id
 * @time: its committer time, in seconds since the epoch
 * @subject: the first line of its message
 * @files: (array zero-terminated=1): the files it touched, relative to the project root
 */
typedef struct
{
  char   *id;
  gint64  time;
  char   *subject;
  GStrv   files;
} LodeCommit;

typedef struct _LodeGitHistory LodeGitHistory;

LodeGitHistory *lode_git_history_get           (const char     *root,
                                                GCancellable   *cancellable,
                                                GError        **error);
LodeGitHistory *lode_git_history_ref           (LodeGitHistory *self);
void            lode_git_history_unref         (LodeGitHistory *self);
gboolean        lode_git_history_is_git        (LodeGitHistory *self);
const char     *lode_git_history_get_head      (LodeGitHistory *self);
GPtrArray      *lode_git_history_get_commits   (LodeGitHistory *self);
gint64          lode_git_history_get_file_time (LodeGitHistory *self,
                                                const char     *path);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGitHistory, lode_git_history_unref)

G_END_DECLS
