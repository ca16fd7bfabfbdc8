/* lode-embedder.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/**
 * LodeEmbedPurpose:
 * @LODE_EMBED_QUERY: the texts are search queries (gets the model's query prefix)
 * @LODE_EMBED_DOCUMENT: the texts are chunks being indexed (gets the document prefix)
 */
typedef enum
{
  LODE_EMBED_QUERY,
  LODE_EMBED_DOCUMENT,
} LodeEmbedPurpose;

/**
 * LodeEmbeddings:
 * @n_vectors: number of vectors, one per input text, in input order
 * @dims: dimensions of each vector
 * @data: (array): @n_vectors × @dims floats, row-major, each row L2-normalised
 *
 * The result of one batch.
 */
typedef struct
{
  guint   n_vectors;
  guint   dims;
  float  *data;
} LodeEmbeddings;

LodeEmbeddings *lode_embeddings_new  (guint           n_vectors,
                                      guint           dims);
void            lode_embeddings_free (LodeEmbeddings *embeddings);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeEmbeddings, lode_embeddings_free)

#define LODE_TYPE_EMBEDDER (lode_embedder_get_type ())
G_DECLARE_INTERFACE (LodeEmbedder, lode_embedder, LODE, EMBEDDER, GObject)

/**
 * LodeEmbedderInterface:
 * @get_model: the model name stored next to every vector ("bge-small-en-v1.5",
 *   "ollama:nomic-embed-text", "openai:text-embedding-3-small"); vectors of different models
 *   are never mixed
 * @get_dims: dimensions of the vectors, 0 until known (remote providers learn it from their
 *   first answer)
 * @get_max_tokens: the model's input limit in its own tokens; longer inputs are split by the
 *   caller or the provider, never silently truncated
 * @embed_async: embeds a batch of texts; the provider adds the prefix for @purpose
 * @embed_finish: the vectors, or an error (%LODE_ERROR_EMBEDDER, %G_IO_ERROR_CANCELLED, …)
 *
 * Every provider (the built-in encoder, Ollama, OpenAI) implements this interface. The
 * callback runs on the thread-default main context of the caller of embed_async.
 */
struct _LodeEmbedderInterface
{
  GTypeInterface parent_iface;

  const char     *(*get_model)      (LodeEmbedder         *self);
  guint           (*get_dims)       (LodeEmbedder         *self);
  guint           (*get_max_tokens) (LodeEmbedder         *self);
  void            (*embed_async)    (LodeEmbedder         *self,
                                     const char * const   *texts,
                                     LodeEmbedPurpose      purpose,
                                     GCancellable         *cancellable,
                                     GAsyncReadyCallback   callback,
                                     gpointer              user_data);
  LodeEmbeddings *(*embed_finish)   (LodeEmbedder         *self,
                                     GAsyncResult         *result,
                                     GError              **error);
};

const char     *lode_embedder_get_model      (LodeEmbedder        *self);
guint           lode_embedder_get_dims       (LodeEmbedder        *self);
guint           lode_embedder_get_max_tokens (LodeEmbedder        *self);
void            lode_embedder_embed_async    (LodeEmbedder        *self,
                                              const char * const  *texts,
                                              LodeEmbedPurpose     purpose,
                                              GCancellable        *cancellable,
                                              GAsyncReadyCallback  callback,
                                              gpointer             user_data);
LodeEmbeddings *lode_embedder_embed_finish   (LodeEmbedder        *self,
                                              GAsyncResult        *result,
                                              GError             **error);
LodeEmbeddings *lode_embedder_embed_sync     (LodeEmbedder        *self,
                                              const char * const  *texts,
                                              LodeEmbedPurpose     purpose,
                                              GCancellable        *cancellable,
                                              GError             **error);

G_END_DECLS
