/* lode-remote-embedder.h — builds an Ollama or OpenAI provider from a model spec
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-embedder.h"

G_BEGIN_DECLS

gboolean      lode_remote_embedder_spec_is_remote (const char           *spec);
void          lode_remote_embedder_new_async      (const char           *spec,
                                                   const char           *url,
                                                   const char           *api_key,
                                                   GCancellable         *cancellable,
                                                   GAsyncReadyCallback   callback,
                                                   gpointer              user_data);
LodeEmbedder *lode_remote_embedder_new_finish     (GAsyncResult         *result,
                                                   GError              **error);

G_END_DECLS
