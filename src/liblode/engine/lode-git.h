/* lode-git.h — the checked-out branch of a git work tree, read from its files
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeGitHead:
 * @name: the branch checked out (`main`, `feature/x`), or the commit id of a detached HEAD
 * @detached: @name is a commit id
 * @common_dir: the repository's shared git directory (where `refs/` and `packed-refs` are;
 *   a linked worktree's `.git` file leads to it through `commondir`)
 */
typedef struct
{
  char     *name;
  gboolean  detached;
  char     *common_dir;
} LodeGitHead;

void         lode_git_head_free          (LodeGitHead *head);
LodeGitHead *lode_git_read_head          (const char  *root,
                                          GError     **error);

typedef struct _LodeGitHeadCache LodeGitHeadCache;

LodeGitHeadCache *lode_git_head_cache_new  (const char        *root);
void              lode_git_head_cache_free (LodeGitHeadCache  *cache);
LodeGitHead      *lode_git_head_cache_read (LodeGitHeadCache  *cache,
                                            GError           **error);
gboolean     lode_git_branch_exists      (const char  *common_dir,
                                          const char  *branch);
char        *lode_git_escape_branch      (const char  *name);
char        *lode_git_unescape_branch    (const char  *escaped);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGitHead, lode_git_head_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGitHeadCache, lode_git_head_cache_free)

G_END_DECLS
