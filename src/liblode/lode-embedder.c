/* lode-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-embedder"

#include "config.h"

#include "lode-embedder.h"

G_DEFINE_INTERFACE (LodeEmbedder, lode_embedder, G_TYPE_OBJECT)

static void
lode_embedder_default_init (LodeEmbedderInterface *iface)
{
}

/**
 * lode_embeddings_new:
 * @n_vectors: number of vectors
 * @dims: dimensions of each vector
 *
 * Returns: (transfer full): a zero-filled result of @n_vectors × @dims floats
 */
LodeEmbeddings *
lode_embeddings_new (guint n_vectors,
                     guint dims)
{
  LodeEmbeddings *embeddings = g_new0 (LodeEmbeddings, 1);

  embeddings->n_vectors = n_vectors;
  embeddings->dims = dims;
  /* g_new0 checks the product for overflow. */
  embeddings->data = g_new0 (float, (gsize) n_vectors * dims);
  return embeddings;
}

void
lode_embeddings_free (LodeEmbeddings *embeddings)
{
  if (embeddings == NULL)
    return;

  g_free (embeddings->data);
  g_free (embeddings);
}

const char *
lode_embedder_get_model (LodeEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), NULL);

  return LODE_EMBEDDER_GET_IFACE (self)->get_model (self);
}

guint
lode_embedder_get_dims (LodeEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), 0);

  return LODE_EMBEDDER_GET_IFACE (self)->get_dims (self);
}

guint
lode_embedder_get_max_tokens (LodeEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), 0);

  return LODE_EMBEDDER_GET_IFACE (self)->get_max_tokens (self);
}

/**
 * lode_embedder_embed_async:
 * @self: a #LodeEmbedder
 * @texts: (array zero-terminated=1): the texts, without any model prefix
 * @purpose: whether the texts are queries or documents
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Embeds a batch of texts.
 */
void
lode_embedder_embed_async (LodeEmbedder        *self,
                           const char * const  *texts,
                           LodeEmbedPurpose     purpose,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (LODE_IS_EMBEDDER (self));
  g_return_if_fail (texts != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  LODE_EMBEDDER_GET_IFACE (self)->embed_async (self, texts, purpose, cancellable,
                                               callback, user_data);
}

/**
 * lode_embedder_embed_finish:
 * @self: a #LodeEmbedder
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): one L2-normalised vector per input text, or %NULL with @error set
 */
LodeEmbeddings *
lode_embedder_embed_finish (LodeEmbedder  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return LODE_EMBEDDER_GET_IFACE (self)->embed_finish (self, result, error);
}

static void
lode_embedder_embed_sync_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/**
 * lode_embedder_embed_sync:
 * @self: a #LodeEmbedder
 * @texts: (array zero-terminated=1): the texts
 * @purpose: whether the texts are queries or documents
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Blocks until the batch is embedded. It runs the provider on a private main context, so it
 * may be called from any thread, but never from the main thread of loded or the app.
 *
 * Returns: (transfer full): the vectors, or %NULL with @error set
 */
LodeEmbeddings *
lode_embedder_embed_sync (LodeEmbedder        *self,
                          const char * const  *texts,
                          LodeEmbedPurpose     purpose,
                          GCancellable        *cancellable,
                          GError             **error)
{
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  g_return_val_if_fail (LODE_IS_EMBEDDER (self), NULL);
  g_return_val_if_fail (texts != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  lode_embedder_embed_async (self, texts, purpose, cancellable,
                             lode_embedder_embed_sync_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  return lode_embedder_embed_finish (self, result, error);
}
