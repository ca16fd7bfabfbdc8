/* lode-watcher.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * LodeChangeKind:
 * @LODE_CHANGE_CREATED: the path appeared
 * @LODE_CHANGE_CHANGED: its content changed
 * @LODE_CHANGE_DELETED: the path is gone
 * @LODE_CHANGE_RENAMED: the path is the new name of @old_path (a move, not delete + add)
 */
typedef enum
{
  LODE_CHANGE_CREATED,
  LODE_CHANGE_CHANGED,
  LODE_CHANGE_DELETED,
  LODE_CHANGE_RENAMED,
} LodeChangeKind;

/**
 * LodeChange:
 * @kind: what happened, after coalescing every event of the batch
 * @path: relative to the watched root, '/'-separated
 * @old_path: (nullable): for %LODE_CHANGE_RENAMED, where it was before
 */
typedef struct
{
  LodeChangeKind  kind;
  char           *path;
  char           *old_path;
} LodeChange;

void        lode_change_free           (LodeChange     *change);
const char *lode_change_kind_to_string (LodeChangeKind  kind);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeChange, lode_change_free)

#define LODE_TYPE_WATCHER (lode_watcher_get_type ())
G_DECLARE_FINAL_TYPE (LodeWatcher, lode_watcher, LODE, WATCHER, GObject)

LodeWatcher *lode_watcher_new                 (const char   *root);
const char  *lode_watcher_get_root            (LodeWatcher  *self);
gboolean     lode_watcher_start               (LodeWatcher  *self,
                                               GError      **error);
void         lode_watcher_stop                (LodeWatcher  *self);
guint        lode_watcher_get_debounce_msec   (LodeWatcher  *self);
void         lode_watcher_set_debounce_msec   (LodeWatcher  *self,
                                               guint         debounce_msec);
guint        lode_watcher_get_max_watches     (LodeWatcher  *self);
void         lode_watcher_set_max_watches     (LodeWatcher  *self,
                                               guint         max_watches);
guint        lode_watcher_get_rescan_interval (LodeWatcher  *self);
void         lode_watcher_set_rescan_interval (LodeWatcher  *self,
                                               guint         seconds);
guint        lode_watcher_get_n_watches       (LodeWatcher  *self);
gboolean     lode_watcher_get_polling         (LodeWatcher  *self);
const char  *lode_watcher_get_status          (LodeWatcher  *self);
guint        lode_watcher_get_inotify_budget  (void);

G_END_DECLS
