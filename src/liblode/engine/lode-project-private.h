/* lode-project-private.h — what a project's files share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <sys/types.h>

#include "lode-git.h"
#include "lode-project.h"
#include "lode-searcher.h"

G_BEGIN_DECLS

/* The project object, which its files share; each calls only the ones before it in this
 * order: lode-project.c (the object, its embedder, the paths it is given),
 * lode-project-lock.c (the writer lock), lode-project-branches.c (which index it uses, one
 * per git branch), lode-project-read.c (the shared reader, searches), lode-project-status.c
 * and lode-project-write.c (every writer: index runs, writes of other modules, the graph
 * switch, migration). */

struct _LodeProject
{
  GObject     parent_instance;

  char       *root;
  char       *id;
  char       *dir;
  const char *db_path;           /* (interned) index.db: the index when not branch-aware */
  LodeConfig *config;
  LodeStoreKind store_kind;      /* where the settings keep indexes (issue #14): the SQLite
                                  * file, or a Qdrant collection */
  LodeGitHeadCache *head;        /* the checked-out branch, when branch-aware */

  /* Searches share one read connection and one searcher (which keeps the dense leg's
   * vectors in memory); neither is used concurrently. The connection is opened again when
   * the database file was replaced (a rebuild, here or elsewhere). */
  GMutex        reader_lock;
  LodeIndexStore *reader;
  const char   *reader_path;       /* (interned) the index @reader reads */
  ino_t         reader_inode;
  LodeSearcher *searcher;
  char         *generation;    /* the index's, when the searcher last saw it */
  char         *checked;       /* the files of the index status last found whole */
  LodeCallGraph  *calls;         /* (nullable) the call graph @calls_reader gave … */
  LodeIndexStore *calls_reader;
  gint64          calls_version; /* … at this data version (lode_search_backend_get_version()) */

  LodeEmbedder *embedder;          /* (nullable) */
  char         *embedder_notice;   /* why there is no embedder */
};

/* A meta key set on every index a forced run builds: a new value means a new index. */
#define GENERATION_META_KEY "generation"

/* lode-project.c */
LodeEmbedder   *_lode_project_dup_embedder     (LodeProject            *self,
                                                char                  **unavailable);
guint           _lode_project_embedder_dims    (LodeProject            *self,
                                                GCancellable           *cancellable);

/* lode-project-lock.c: the writer lock of an index, held until the file descriptor is
 * closed (g_auto(LodeProjectLock)) */
typedef int LodeProjectLock;

int             _lode_project_lock_writer      (LodeProject            *self,
                                                const char             *db_path,
                                                GCancellable           *cancellable,
                                                LodeIndexProgressFunc   progress,
                                                gpointer                progress_data,
                                                GError                **error);
void            _lode_project_unlock_writer    (int                     fd);

G_DEFINE_AUTO_CLEANUP_FREE_FUNC (LodeProjectLock, _lode_project_unlock_writer, -1)

int             _lode_project_lock_dir         (const char             *dir);
int             _lode_project_find_writer      (const char             *dir);
gboolean        _lode_project_stop_writers     (const char             *dir,
                                                const char             *reason,
                                                GCancellable           *cancellable,
                                                int                    *pid,
                                                GError                **error);

typedef struct _LodeProjectStopWatch LodeProjectStopWatch;

LodeProjectStopWatch *_lode_project_stop_watch_new   (LodeProject           *self,
                                                      GCancellable          *parent,
                                                      LodeIndexProgressFunc  progress,
                                                      gpointer               progress_data);
void          _lode_project_stop_watch_progress (const LodeIndexProgress *progress,
                                                 gpointer                 user_data);
GCancellable *_lode_project_stop_watch_get_cancellable (LodeProjectStopWatch *watch);
void          _lode_project_stop_watch_explain (LodeProjectStopWatch  *watch,
                                                GError               **error);
void          _lode_project_stop_watch_free    (LodeProjectStopWatch  *watch);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeProjectStopWatch, _lode_project_stop_watch_free)

/* lode-project-branches.c */
LodeGitHead    *_lode_project_read_head        (LodeProject            *self);
const char     *_lode_project_branch_db_path   (LodeProject            *self,
                                                const char             *branch);
char           *_lode_project_dup_last_branch  (LodeProject            *self);
const char     *_lode_project_reading_db_path  (LodeProject            *self,
                                                char                  **branch,
                                                char                  **from);
guint64         _lode_project_index_size       (const char             *db_path);
gboolean        _lode_project_seed_branch      (LodeProject            *self,
                                                const char             *branch,
                                                const char             *db_path,
                                                GCancellable           *cancellable,
                                                char                  **from,
                                                GError                **error);

/* lode-project-read.c */
void            _lode_project_explain_damage   (LodeProject            *self,
                                                GError                **error);
LodeIndexStore *_lode_project_dup_reader       (LodeProject            *self,
                                                GError                **error);

G_END_DECLS
