/* lode-embedder-source.h — the provider the settings name, looked for again while it fails
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-config.h"
#include "lode-embedder.h"

G_BEGIN_DECLS

#define LODE_TYPE_EMBEDDER_SOURCE (lode_embedder_source_get_type ())
G_DECLARE_FINAL_TYPE (LodeEmbedderSource, lode_embedder_source, LODE, EMBEDDER_SOURCE, GObject)

LodeEmbedderSource *lode_embedder_source_new                (const LodeConfig    *config);
LodeEmbedder       *lode_embedder_source_dup                (LodeEmbedderSource  *self,
                                                             char               **unavailable);
void                lode_embedder_source_set_embedder       (LodeEmbedderSource  *self,
                                                             LodeEmbedder        *embedder);
void                lode_embedder_source_set_retry_interval (LodeEmbedderSource  *self,
                                                             guint                min_msec,
                                                             guint                max_msec);

G_END_DECLS
