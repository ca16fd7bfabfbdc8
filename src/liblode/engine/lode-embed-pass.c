/* lode-embed-pass.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-embed-pass"

#include "config.h"

#include "lode-embed-parts.h"
#include "lode-embed-pass.h"
#include "lode-error.h"
#include "lode-index-store.h"

/*
 * The embedding pass runs after the lexical pass, on the same worker thread, with a store
 * connection of its own: lexical search works from the first committed batch, and dense
 * search covers whatever is embedded so far.
 *
 * It walks the chunks whose text has no vector of the embedder's model in id order, a batch
 * at a time; each batch is one embed call and one transaction, so a cancelled, killed or
 * failed pass loses at most the batch in flight and the next one resumes where it stopped.
 * Text is embedded once per model whatever the number of chunks that hold it.
 *
 * A text longer than the model's input limit is split (at line breaks, else between words,
 * else between characters), never truncated; its parts are embedded, averaged weighted by
 * their size, and the average is normalised (lode-embed-parts.c).
 */

/* Chunks looked at per batch (one embed call, one transaction). */
#define BATCH_CHUNKS 32

/* Token limit assumed when a provider does not know its own. */
#define DEFAULT_MAX_TOKENS 512

/* Embeds the distinct texts of one batch: @hashes gets the hash of each, in the order of the
 * vectors. */
static LodeEmbeddings *
embed_texts (LodeEmbedder   *embedder,
             GPtrArray      *todo,
             GPtrArray      *hashes,
             GCancellable   *cancellable,
             GError        **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(LodeEmbedParts) parts = lode_embed_parts_new ();
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  guint max_tokens = lode_embedder_get_max_tokens (embedder);
  LodeEmbeddings *combined;

  if (max_tokens == 0)
    max_tokens = DEFAULT_MAX_TOKENS;

  for (guint i = 0; i < todo->len; i++)
    {
      LodeStoreEmbedText *chunk = g_ptr_array_index (todo, i);

      if (!g_hash_table_add (seen, chunk->hash))
        continue;
      lode_embed_parts_add_text (parts, chunk->text, max_tokens, lode_embed_estimate_tokens);
      g_ptr_array_add (hashes, chunk->hash);
    }

  embeddings = lode_embedder_embed_sync (embedder, lode_embed_parts_get_texts (parts),
                                         LODE_EMBED_DOCUMENT, cancellable, error);
  if (embeddings == NULL)
    return NULL;
  if (embeddings->n_vectors != lode_embed_parts_get_n_parts (parts) || embeddings->dims == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s returned %u vectors of %u dimensions for %u texts",
                   lode_embedder_get_model (embedder), embeddings->n_vectors, embeddings->dims,
                   lode_embed_parts_get_n_parts (parts));
      return NULL;
    }

  combined = lode_embed_parts_combine (parts, embeddings->data, embeddings->dims, error);
  if (combined == NULL)
    g_prefix_error (error, "%s: ", lode_embedder_get_model (embedder));
  return combined;
}

static void
report_progress (LodeIndexProgressFunc progress,
                 gpointer              progress_data,
                 guint                 done,
                 guint                 total)
{
  LodeIndexProgress p = { LODE_INDEX_PHASE_EMBEDDING, done, total };

  if (progress != NULL)
    progress (&p, progress_data);
}

/**
 * lode_embed_pass_run:
 * @store: the project's index, open for writing
 * @embedder: the provider
 * @cancellable: (nullable): a #GCancellable
 * @progress: (nullable) (scope call): called on this thread with
 *   %LODE_INDEX_PHASE_EMBEDDING, embedded and embeddable chunks
 * @progress_data: data for @progress
 * @n_embedded: (out) (optional): chunks that got a vector in this pass, also when it fails
 * @error: return location for a #GError
 *
 * Embeds every chunk whose text has no vector of @embedder's model yet, then drops the
 * vectors of other models (see lode_index_store_prune_vectors()). Blocks; call it from a worker
 * thread.
 *
 * Returns: %TRUE when every chunk has a vector; %FALSE with %G_IO_ERROR_CANCELLED, or the
 *   provider's or the store's error, what was embedded until then being kept
 */
gboolean
lode_embed_pass_run (LodeIndexStore         *store,
                     LodeEmbedder           *embedder,
                     GCancellable           *cancellable,
                     LodeIndexProgressFunc   progress,
                     gpointer                progress_data,
                     guint                  *n_embedded,
                     GError                **error)
{
  const char *model;
  guint done = 0;
  guint total = 0;
  guint embedded = 0;
  gint64 cursor = 0;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (store), FALSE);
  g_return_val_if_fail (LODE_IS_EMBEDDER (embedder), FALSE);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), FALSE);

  if (n_embedded != NULL)
    *n_embedded = 0;

  model = lode_embedder_get_model (embedder);
  if (!lode_index_store_count_embedded (store, model, &done, &total, error))
    return FALSE;

  report_progress (progress, progress_data, done, total);

  for (;;)
    {
      g_autoptr(GPtrArray) todo = NULL;
      g_autoptr(GPtrArray) hashes = g_ptr_array_new ();
      g_autoptr(LodeEmbeddings) vectors = NULL;
      guint covered = 0;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        break;

      todo = lode_index_store_dup_unembedded (store, model, cursor, BATCH_CHUNKS, error);
      if (todo == NULL)
        break;
      if (todo->len == 0)
        {
          if (n_embedded != NULL)
            *n_embedded = embedded;
          report_progress (progress, progress_data, total, total);
          return lode_index_store_prune_vectors (store, model, error);
        }
      cursor = ((LodeStoreEmbedText *) g_ptr_array_index (todo, todo->len - 1))->chunk_id;

      vectors = embed_texts (embedder, todo, hashes, cancellable, error);
      if (vectors == NULL)
        {
          g_prefix_error (error, "Cannot embed: ");
          break;
        }

      if (!lode_index_store_put_vectors (store, model, vectors->dims,
                                         (const char * const *) hashes->pdata, vectors->data,
                                         hashes->len, &covered, error))
        break;

      embedded += covered;
      done = MIN (done + covered, total);
      report_progress (progress, progress_data, done, total);
    }

  if (n_embedded != NULL)
    *n_embedded = embedded;
  return FALSE;
}
