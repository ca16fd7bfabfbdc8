/* lode-ollama-embedder.h — embeddings from an Ollama server
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-embedder.h"

G_BEGIN_DECLS

#define LODE_OLLAMA_DEFAULT_URL   "http://localhost:11434"
#define LODE_OLLAMA_DEFAULT_MODEL "nomic-embed-text"

/**
 * LodeOllamaPullProgress:
 * @status: Ollama's status line ("pulling manifest", "downloading sha256:…", "success")
 * @completed: bytes done of the current layer, 0 when not downloading
 * @total: bytes of the current layer, 0 when not downloading
 * @user_data: the data given with the callback
 */
typedef void (*LodeOllamaPullProgress) (const char *status,
                                        guint64     completed,
                                        guint64     total,
                                        gpointer    user_data);

#define LODE_TYPE_OLLAMA_EMBEDDER (lode_ollama_embedder_get_type ())
G_DECLARE_FINAL_TYPE (LodeOllamaEmbedder, lode_ollama_embedder, LODE, OLLAMA_EMBEDDER, GObject)

LodeOllamaEmbedder *lode_ollama_embedder_new               (const char              *url,
                                                            const char              *model);
void                lode_ollama_embedder_set_timeout       (LodeOllamaEmbedder      *self,
                                                            guint                    seconds);
void                lode_ollama_embedder_set_retry         (LodeOllamaEmbedder      *self,
                                                            guint                    max_retries,
                                                            guint                    base_delay_msec);
void                lode_ollama_embedder_set_auto_pull     (LodeOllamaEmbedder      *self,
                                                            gboolean                 auto_pull);
void                lode_ollama_embedder_set_pull_progress (LodeOllamaEmbedder      *self,
                                                            LodeOllamaPullProgress   progress,
                                                            gpointer                 user_data,
                                                            GDestroyNotify           destroy);
void                lode_ollama_embedder_check_async       (LodeOllamaEmbedder      *self,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
char               *lode_ollama_embedder_check_finish      (LodeOllamaEmbedder      *self,
                                                            GAsyncResult            *result,
                                                            GError                 **error);
void                lode_ollama_embedder_pull_async        (LodeOllamaEmbedder      *self,
                                                            GCancellable            *cancellable,
                                                            GAsyncReadyCallback      callback,
                                                            gpointer                 user_data);
gboolean            lode_ollama_embedder_pull_finish       (LodeOllamaEmbedder      *self,
                                                            GAsyncResult            *result,
                                                            GError                 **error);

G_END_DECLS
