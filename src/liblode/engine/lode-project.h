/* lode-project.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-call-graph.h"
#include "lode-config.h"
#include "lode-embedder.h"
#include "lode-index-store-factory.h"
#include "lode-indexer.h"
#include "lode-job.h"
#include "lode-search.h"

G_BEGIN_DECLS

/**
 * LodeIndexState:
 * @LODE_INDEX_STATE_NONE: never indexed
 * @LODE_INDEX_STATE_INCOMPLETE: an indexing run was interrupted; the next run resumes it
 * @LODE_INDEX_STATE_READY: the last run completed
 * @LODE_INDEX_STATE_DAMAGED: the index cannot be read (#LodeProjectStatus.damage says why);
 *   the next run keeps the damaged file aside and rebuilds it
 */
typedef enum
{
  LODE_INDEX_STATE_NONE,
  LODE_INDEX_STATE_INCOMPLETE,
  LODE_INDEX_STATE_READY,
  LODE_INDEX_STATE_DAMAGED,
} LodeIndexState;

/**
 * LodeIndexFlags:
 * @LODE_INDEX_FLAGS_NONE: index new and changed files
 * @LODE_INDEX_FORCE: build the index from scratch, aside: it replaces the old one when it
 *   is complete
 */
typedef enum
{
  LODE_INDEX_FLAGS_NONE = 0,
  LODE_INDEX_FORCE      = 1 << 0,
} LodeIndexFlags;

/**
 * LodeProjectStatus:
 *
 * A project's index as it is now. The first fields come from the index
 * (lode_project_dup_status()); @job down to @watch_status from the engine, which adds its
 * job and watcher (lode_engine_dup_status()).
 */
typedef struct
{
  LodeIndexState  state;
  LodeStoreStats  stats;
  GHashTable     *languages;     /* language id → GUINT_TO_POINTER (files) */
  char           *indexed_at;    /* (nullable) ISO 8601 time of the last completed run */
  guint64         db_size;       /* bytes on disk, WAL included */
  /* Semantic search (issue #4) */
  char           *embedding_model;   /* (nullable): NULL when no embedder is available */
  guint           n_embedded;        /* chunks with a vector of embedding_model */
  guint           n_embeddable;      /* chunks that can have one (all but blank ones) */
  char           *semantic_notice;   /* (nullable): why semantic search is off or partial */
  char           *damage;            /* (nullable): why the index cannot be read */
  char           *root;
  char           *id;
  /* Branch-aware indexes (issue #14) */
  char           *branch;            /* (nullable): the branch whose index this is */
  char           *branch_fallback;   /* (nullable): the branch whose index answers until
                                      * @branch's first run */
  /* The engine's part */
  LodeJobInfo    *job;               /* (nullable): the running job, else the last one */
  gboolean        watched;
  gboolean        polling;           /* watched by periodic rescans, not live */
  guint           n_watches;         /* directories watched live */
  char           *watch_status;      /* (nullable): why the watcher is not live, for people */
  int             writer_pid;        /* the process holding the writer lock (an index run:
                                      * another `lode`, a daemon, this one), else 0; -1 when
                                      * its pid is not known */
} LodeProjectStatus;

void        lode_project_status_free       (LodeProjectStatus *status);
const char *lode_index_state_to_string     (LodeIndexState     state);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeProjectStatus, lode_project_status_free)

#define LODE_TYPE_PROJECT (lode_project_get_type ())
G_DECLARE_FINAL_TYPE (LodeProject, lode_project, LODE, PROJECT, GObject)

char              *lode_project_id_for_path  (const char            *canonical_path);
LodeProject       *lode_project_new          (const char            *root,
                                              const LodeConfig      *config);
const char        *lode_project_get_id       (LodeProject           *self);
const char        *lode_project_get_root     (LodeProject           *self);
const char        *lode_project_get_db_path  (LodeProject           *self);
char              *lode_project_dup_branch   (LodeProject           *self);
gboolean           lode_project_is_indexed   (LodeProject           *self);

LodeIndexReport   *lode_project_index        (LodeProject           *self,
                                              GCancellable          *cancellable,
                                              LodeIndexProgressFunc  progress,
                                              gpointer               progress_data,
                                              GError               **error);
LodeIndexReport   *lode_project_index_with   (LodeProject           *self,
                                              LodeIndexFlags         flags,
                                              GPtrArray             *changes,
                                              GCancellable          *cancellable,
                                              LodeIndexProgressFunc  progress,
                                              gpointer               progress_data,
                                              GError               **error);

GPtrArray         *lode_project_search       (LodeProject           *self,
                                              const LodeSearchOptions *options,
                                              GCancellable          *cancellable,
                                              GError               **error);
LodeProjectStatus *lode_project_dup_status   (LodeProject           *self,
                                              GError               **error);

/* Import graph (issue #6) */
LodeGraph         *lode_project_load_graph   (LodeProject           *self,
                                              GError               **error);
GPtrArray         *lode_project_dup_imports  (LodeProject           *self,
                                              const char            *path,
                                              GError               **error);
gboolean           lode_project_get_graph_counts (LodeProject       *self,
                                              LodeGraphCounts       *counts,
                                              gboolean              *enabled,
                                              GError               **error);
gboolean           lode_project_set_graph_enabled (LodeProject      *self,
                                              gboolean               enabled,
                                              GError               **error);
char              *lode_project_dup_relative_path (LodeProject      *self,
                                              const char            *path);
char              *lode_project_dup_real_path (LodeProject          *self,
                                              const char            *path,
                                              GError               **error);
void               lode_project_set_embedder (LodeProject           *self,
                                              LodeEmbedder          *embedder,
                                              const char            *unavailable);
LodeEmbedder      *lode_project_get_embedder (LodeProject           *self);
LodeSearchResponse *lode_project_search_full (LodeProject           *self,
                                              const LodeSearchOptions *options,
                                              GCancellable          *cancellable,
                                              GError               **error);
gboolean           lode_project_migrate      (LodeProject           *self,
                                              LodeStoreKind          to,
                                              GCancellable          *cancellable,
                                              LodeStoreCopyCounts   *counts,
                                              char                 **model,
                                              GError               **error);

/* Branch-aware indexes (issue #14) */

/**
 * LodeBranchIndex:
 * @branch: the branch (or detached commit) the index is of
 * @current: it is checked out now
 * @exists: the branch is still in the repository's refs (a detached commit: only while
 *   checked out)
 * @db_size: bytes on disk, WAL included (0 for a Qdrant collection)
 * @indexed_at: (nullable): ISO 8601 time of the last completed run
 */
typedef struct
{
  char     *branch;
  gboolean  current;
  gboolean  exists;
  guint64   db_size;
  char     *indexed_at;
} LodeBranchIndex;

void               lode_branch_index_free    (LodeBranchIndex       *index);
GPtrArray         *lode_project_list_branches (LodeProject          *self,
                                              GError               **error);
gboolean           lode_project_remove_branch (LodeProject          *self,
                                              const char            *branch,
                                              GCancellable          *cancellable,
                                              GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeBranchIndex, lode_branch_index_free)

/* Symbol tools (issue #15) */
typedef gpointer (*LodeProjectReadFunc) (LodeProject     *project,
                                         LodeIndexStore  *store,
                                         gpointer      data,
                                         GError      **error);

gpointer           lode_project_read         (LodeProject           *self,
                                              LodeProjectReadFunc    func,
                                              gpointer               data,
                                              GError               **error);

/* Call graph (issue #28) */
LodeCallGraph     *lode_project_dup_call_graph (LodeProject         *self,
                                              GError               **error);

/* Context artifacts (issue #15) */
typedef gboolean (*LodeProjectWriteFunc) (LodeProject     *project,
                                          LodeIndexStore  *store,
                                          gpointer         data,
                                          GError         **error);

gboolean           lode_project_write        (LodeProject           *self,
                                              LodeProjectWriteFunc   func,
                                              gpointer               data,
                                              GCancellable          *cancellable,
                                              GError               **error);
gboolean           lode_project_stop_writer  (LodeProject           *self,
                                              GCancellable          *cancellable,
                                              int                   *pid,
                                              GError               **error);

G_END_DECLS
