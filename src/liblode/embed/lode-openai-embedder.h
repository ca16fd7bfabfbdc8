/* lode-openai-embedder.h — embeddings from an OpenAI-compatible /v1/embeddings endpoint
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-embedder.h"

G_BEGIN_DECLS

#define LODE_OPENAI_DEFAULT_URL   "https://api.openai.com"
#define LODE_OPENAI_DEFAULT_MODEL "text-embedding-3-small"

#define LODE_TYPE_OPENAI_EMBEDDER (lode_openai_embedder_get_type ())
G_DECLARE_FINAL_TYPE (LodeOpenaiEmbedder, lode_openai_embedder, LODE, OPENAI_EMBEDDER, GObject)

LodeOpenaiEmbedder *lode_openai_embedder_new                  (const char         *base_url,
                                                               const char         *model,
                                                               const char         *api_key);
void                lode_openai_embedder_set_timeout          (LodeOpenaiEmbedder *self,
                                                               guint               seconds);
void                lode_openai_embedder_set_max_tokens       (LodeOpenaiEmbedder *self,
                                                               guint               max_tokens);
void                lode_openai_embedder_set_batch_limits     (LodeOpenaiEmbedder *self,
                                                               guint               max_inputs,
                                                               guint               max_tokens);
void                lode_openai_embedder_set_retry            (LodeOpenaiEmbedder *self,
                                                               guint               max_retries,
                                                               guint               base_delay_msec);
guint               lode_openai_estimate_tokens               (const char         *text,
                                                               gssize              length);

G_END_DECLS
