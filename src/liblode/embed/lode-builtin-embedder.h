/* lode-builtin-embedder.h — the in-process BERT embedding provider
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-embedder.h"
#include "lode-models.h"

G_BEGIN_DECLS

#define LODE_TYPE_BUILTIN_EMBEDDER (lode_builtin_embedder_get_type ())
G_DECLARE_FINAL_TYPE (LodeBuiltinEmbedder, lode_builtin_embedder, LODE, BUILTIN_EMBEDDER, GObject)

LodeEmbedder   *lode_builtin_embedder_new         (const char           *model_or_dir,
                                                   GError              **error);
void            lode_builtin_embedder_new_async   (const char           *model_or_dir,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
LodeEmbedder   *lode_builtin_embedder_new_finish  (GAsyncResult         *result,
                                                   GError              **error);
const char     *lode_builtin_embedder_get_dir     (LodeBuiltinEmbedder  *self);
LodePooling     lode_builtin_embedder_get_pooling (LodeBuiltinEmbedder  *self);
void            lode_builtin_embedder_set_pooling (LodeBuiltinEmbedder  *self,
                                                   LodePooling           pooling);
GPtrArray      *lode_builtin_embedder_tokenize    (LodeBuiltinEmbedder  *self,
                                                   const char * const   *texts,
                                                   LodeEmbedPurpose      purpose,
                                                   GError              **error);
LodeEmbeddings *lode_builtin_embedder_embed_ids   (LodeBuiltinEmbedder  *self,
                                                   GPtrArray            *ids,
                                                   GCancellable         *cancellable,
                                                   GError              **error);

G_END_DECLS
