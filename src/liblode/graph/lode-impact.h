/* lode-impact.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-graph.h"

G_BEGIN_DECLS

/**
 * LodeChangedFile:
 * @path: the file, relative to the project root
 * @old_path: (nullable): for a rename, the path it had
 * @status: git's status letter: `A`dded, `M`odified, `D`eleted, `R`enamed, `?` untracked, …
 */
typedef struct
{
  char *path;
  char *old_path;
  char  status;
} LodeChangedFile;

void lode_changed_file_free (LodeChangedFile *file);
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeChangedFile, lode_changed_file_free)

/**
 * LodeImpactFile:
 * @path: an affected file
 * @distance: hops from the nearest changed file (0: changed itself)
 * @links: imports it has of files one hop nearer to the change
 * @n_dependents: files importing it (its fan-in in the whole project)
 */
typedef struct
{
  const char *path;
  guint       distance;
  guint       links;
  guint       n_dependents;
} LodeImpactFile;

GBytes    *lode_git_run               (const char        *root,
                                       const char *const *args,
                                       GCancellable      *cancellable,
                                       GError           **error);
GPtrArray *lode_git_dup_changed_files (const char       *root,
                                       const char       *rev_range,
                                       GCancellable     *cancellable,
                                       GError          **error);
GArray    *lode_impact_rank           (const LodeGraph  *graph,
                                       GPtrArray        *changed,
                                       guint             depth);

G_END_DECLS
