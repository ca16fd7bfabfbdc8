/* lode-embed-pass.h — embeds the chunks of an index that have no vector yet (issue #4)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-embedder.h"
#include "lode-indexer.h"

G_BEGIN_DECLS

gboolean   lode_embed_pass_run        (LodeIndexStore         *store,
                                       LodeEmbedder           *embedder,
                                       GCancellable           *cancellable,
                                       LodeIndexProgressFunc   progress,
                                       gpointer                progress_data,
                                       guint                  *n_embedded,
                                       GError                **error);

G_END_DECLS
