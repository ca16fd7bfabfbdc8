/* lode-engine.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-config.h"
#include "lode-embedder.h"
#include "lode-job.h"
#include "lode-project.h"
#include "lode-search.h"

G_BEGIN_DECLS

/**
 * LodeProjectInfo:
 * @id: the project's id
 * @root: the indexed tree
 * @db_path: its index
 * @exists: the tree is still there
 * @indexing: a job is running for it
 * @watched: the engine watches it
 *
 * One indexed tree, as lode_engine_list_projects() lists it.
 */
typedef struct
{
  char     *id;
  char     *root;
  char     *db_path;
  gboolean  exists;
  gboolean  indexing;
  gboolean  watched;
} LodeProjectInfo;

void lode_project_info_free (LodeProjectInfo *info);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeProjectInfo, lode_project_info_free)

/**
 * LodeIndexRequest:
 * @LODE_INDEX_REQUEST_UPDATE: index new and changed files (the first run indexes everything)
 * @LODE_INDEX_REQUEST_MUST_EXIST: like %LODE_INDEX_REQUEST_UPDATE, but fail with
 *   %LODE_ERROR_NOT_INDEXED when the tree has no index yet
 * @LODE_INDEX_REQUEST_REBUILD: delete the index and build it from scratch
 */
typedef enum
{
  LODE_INDEX_REQUEST_UPDATE,
  LODE_INDEX_REQUEST_MUST_EXIST,
  LODE_INDEX_REQUEST_REBUILD,
} LodeIndexRequest;

#define LODE_TYPE_ENGINE (lode_engine_get_type ())
G_DECLARE_FINAL_TYPE (LodeEngine, lode_engine, LODE, ENGINE, GObject)

LodeConfig        *lode_engine_load_config      (GError            **error);
LodeEngine        *lode_engine_new              (const LodeConfig   *config);
const LodeConfig  *lode_engine_get_config       (LodeEngine         *self);
LodeProject       *lode_engine_open_project     (LodeEngine         *self,
                                                 const char         *path,
                                                 gboolean            must_be_indexed,
                                                 GError            **error);
GPtrArray         *lode_engine_list_projects    (LodeEngine         *self,
                                                 GError            **error);
gboolean           lode_engine_remove_project   (LodeEngine         *self,
                                                 const char         *path,
                                                 GError            **error);
void               lode_engine_set_embedder     (LodeEngine         *self,
                                                 LodeEmbedder       *embedder);
LodeEmbedder      *lode_engine_dup_embedder     (LodeEngine         *self,
                                                 char              **unavailable);

gboolean           lode_engine_check_index_root (const char         *root,
                                                 gboolean            confirmed,
                                                 const char         *how_to_confirm,
                                                 GError            **error);

/* Jobs: one per project at a time, whoever asks */
LodeJobInfo       *lode_engine_start_index      (LodeEngine             *self,
                                                 const char             *path,
                                                 LodeIndexRequest        request,
                                                 gboolean                background,
                                                 gboolean               *joined,
                                                 GError                **error);
LodeJobInfo       *lode_engine_wait_index       (LodeEngine             *self,
                                                 const char             *project_id,
                                                 GCancellable           *cancellable,
                                                 LodeIndexProgressFunc   progress,
                                                 gpointer                progress_data,
                                                 GError                **error);
void               lode_engine_index_async      (LodeEngine             *self,
                                                 const char             *path,
                                                 LodeIndexRequest        request,
                                                 GCancellable           *cancellable,
                                                 GAsyncReadyCallback     callback,
                                                 gpointer                user_data);
LodeJobInfo       *lode_engine_index_finish     (LodeEngine             *self,
                                                 GAsyncResult           *result,
                                                 gboolean               *joined,
                                                 GError                **error);
gboolean           lode_engine_stop_index       (LodeEngine             *self,
                                                 const char             *project_id);
LodeJobInfo       *lode_engine_dup_job          (LodeEngine             *self,
                                                 const char             *project_id);
void               lode_engine_cancel_jobs      (LodeEngine             *self);
gboolean           lode_engine_is_busy          (LodeEngine             *self);

/* Watching: only on the thread that runs the engine's main context */
gboolean           lode_engine_set_watching     (LodeEngine             *self,
                                                 const char             *path,
                                                 gboolean                watch,
                                                 GError                **error);
void               lode_engine_set_persist_watches (LodeEngine          *self,
                                                 gboolean                persist);
void               lode_engine_resume_watching  (LodeEngine             *self);
void               lode_engine_stop_watching_all (LodeEngine            *self);

/* Reading, from any thread (they block on the database) */
LodeProjectStatus *lode_engine_dup_status       (LodeEngine             *self,
                                                 const char             *path,
                                                 GError                **error);
void               lode_engine_dup_status_async (LodeEngine             *self,
                                                 const char             *path,
                                                 GCancellable           *cancellable,
                                                 GAsyncReadyCallback     callback,
                                                 gpointer                user_data);
LodeProjectStatus *lode_engine_dup_status_finish (LodeEngine            *self,
                                                 GAsyncResult           *result,
                                                 GError                **error);
LodeSearchResponse *lode_engine_search          (LodeEngine             *self,
                                                 const char             *path,
                                                 const LodeSearchOptions *options,
                                                 GCancellable           *cancellable,
                                                 GError                **error);
void               lode_engine_search_async     (LodeEngine             *self,
                                                 const char             *path,
                                                 const LodeSearchOptions *options,
                                                 GCancellable           *cancellable,
                                                 GAsyncReadyCallback     callback,
                                                 gpointer                user_data);
LodeSearchResponse *lode_engine_search_finish   (LodeEngine             *self,
                                                 GAsyncResult           *result,
                                                 GError                **error);

G_END_DECLS
