/* lode-embed-pass.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-embed-pass"

#include "config.h"

#include <math.h>
#include <string.h>

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
 * their size, and the average is normalised.
 */

/* Chunks looked at per batch (one embed call, one transaction). */
#define BATCH_CHUNKS 32

/* Token limit assumed when a provider does not know its own. */
#define DEFAULT_MAX_TOKENS 512

static gboolean
is_cjk (gunichar c)
{
  return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) ||
         (c >= 0x20000 && c <= 0x2A6DF) || (c >= 0xF900 && c <= 0xFAFF) ||
         (c >= 0x2F800 && c <= 0x2FA1F);
}

static guint
word_tokens (guint n_letters,
             guint n_other)
{
  /* WordPiece keeps common words whole and cuts rare ones (identifiers) into pieces of a
   * few letters; a digit or a non-ASCII letter may be a piece of its own. */
  return n_other + (n_letters > 0 ? 1 + (n_letters - 1) / 3 : 0);
}

/**
 * lode_embed_estimate_tokens:
 * @text: UTF-8 text
 * @length: its length in bytes, or -1 if nul-terminated
 *
 * An estimate, meant to err high, of the number of tokens a BERT-style WordPiece tokenizer
 * makes of @text (without [CLS] and [SEP]): every punctuation or symbol character and every
 * CJK ideograph is a token; in a word, every digit and non-ASCII letter may be one, and
 * ASCII letters count one token per three after the first.
 *
 * Returns: the estimate
 */
guint
lode_embed_estimate_tokens (const char *text,
                            gssize      length)
{
  const char *end;
  guint tokens = 0;
  guint n_letters = 0;
  guint n_other = 0;

  g_return_val_if_fail (text != NULL, 0);

  end = text + (length < 0 ? strlen (text) : (gsize) length);
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char_validated (p, end - p);

      if (c == (gunichar) -1 || c == (gunichar) -2)
        c = 0xFFFD;

      if (g_unichar_isspace (c) || g_unichar_ispunct (c) || is_cjk (c) ||
          (c < 0x80 && g_ascii_ispunct (c)) ||
          g_unichar_type (c) == G_UNICODE_MATH_SYMBOL ||
          g_unichar_type (c) == G_UNICODE_CURRENCY_SYMBOL ||
          g_unichar_type (c) == G_UNICODE_MODIFIER_SYMBOL ||
          g_unichar_type (c) == G_UNICODE_OTHER_SYMBOL)
        {
          tokens += word_tokens (n_letters, n_other);
          n_letters = n_other = 0;
          if (!g_unichar_isspace (c))
            tokens++;
        }
      else if (c < 0x80 && g_ascii_isalpha (c))
        n_letters++;
      else
        n_other++;
    }

  return tokens + word_tokens (n_letters, n_other);
}

typedef struct
{
  const char *start;
  gsize       len;
  guint       cost;
} Unit;

/* Cuts [start, end) into units of at most @budget estimated tokens: lines, else words with
 * their trailing blanks, else runs of characters. */
static void
add_units (GArray     *units,
           const char *start,
           const char *end,
           guint       budget,
           int         level)
{
  const char *p = start;

  while (p < end)
    {
      const char *next;
      Unit unit;

      if (level == 0)
        {
          next = memchr (p, '\n', end - p);
          next = next != NULL ? next + 1 : end;
        }
      else if (level == 1)
        {
          next = p;
          while (next < end && !g_ascii_isspace (*next))
            next++;
          while (next < end && g_ascii_isspace (*next))
            next++;
        }
      else
        {
          /* Every character costs at most one token, the run one more. */
          next = p;
          for (guint n = 0; next < end && n + 1 < budget; n++)
            {
              next = g_utf8_find_next_char (next, end);
              if (next == NULL)
                next = end;
            }
        }

      unit.start = p;
      unit.len = next - p;
      unit.cost = lode_embed_estimate_tokens (p, next - p);
      if (unit.cost > budget && level < 2)
        add_units (units, p, next, budget, level + 1);
      else
        g_array_append_val (units, unit);
      p = next;
    }
}

static gboolean
is_blank (const char *text,
          gsize       len)
{
  for (gsize i = 0; i < len; i++)
    if (!g_ascii_isspace (text[i]))
      return FALSE;

  return TRUE;
}

/**
 * lode_embed_split:
 * @text: UTF-8 text
 * @max_tokens: the model's input limit, [CLS] and [SEP] included
 *
 * Splits @text into consecutive parts that each fit the model by lode_embed_estimate_tokens()
 * with a margin (an eighth of the limit, for the estimate and a document prefix): at line
 * breaks when lines fit, else between words, else between characters. Blank parts are
 * dropped. Nothing is cut off: the parts, concatenated with what was dropped, are @text.
 *
 * Returns: (transfer full) (element-type utf8): the parts; one (all of @text) when it fits
 */
GPtrArray *
lode_embed_split (const char *text,
                  guint       max_tokens)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) units = g_array_new (FALSE, FALSE, sizeof (Unit));
  guint budget;
  const char *part_start = NULL;
  gsize part_len = 0;
  guint part_cost = 0;

  g_return_val_if_fail (text != NULL, NULL);

  budget = MAX (max_tokens, 16);
  budget = budget - budget / 8 - 2;

  /* The estimate never exceeds the length in bytes: a short text fits without it. */
  if (strlen (text) <= budget || lode_embed_estimate_tokens (text, -1) <= budget)
    {
      g_ptr_array_add (parts, g_strdup (text));
      return g_steal_pointer (&parts);
    }

  add_units (units, text, text + strlen (text), budget, 0);
  for (guint i = 0; i <= units->len; i++)
    {
      const Unit *unit = i < units->len ? &g_array_index (units, Unit, i) : NULL;

      if (part_start != NULL && (unit == NULL || part_cost + unit->cost > budget))
        {
          if (!is_blank (part_start, part_len))
            g_ptr_array_add (parts, g_strndup (part_start, part_len));
          part_start = NULL;
        }
      if (unit == NULL)
        break;
      if (part_start == NULL)
        {
          part_start = unit->start;
          part_len = 0;
          part_cost = 0;
        }
      part_len += unit->len;
      part_cost += unit->cost;
    }

  return g_steal_pointer (&parts);
}

/* One distinct text of a batch and where its parts are in the embed call. */
typedef struct
{
  const char *hash;
  guint       first_part;
  guint       n_parts;
} Text;

/* Embeds one batch; fills @vectors (n_texts × dims, allocated here) and @dims. */
static gboolean
embed_texts (LodeEmbedder   *embedder,
             GPtrArray      *todo,
             GArray         *texts,
             float         **vectors,
             guint          *dims,
             GCancellable   *cancellable,
             GError        **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GPtrArray) parts = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (double));
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  guint max_tokens = lode_embedder_get_max_tokens (embedder);

  if (max_tokens == 0)
    max_tokens = DEFAULT_MAX_TOKENS;

  for (guint i = 0; i < todo->len; i++)
    {
      LodeStoreEmbedText *chunk = g_ptr_array_index (todo, i);
      g_autoptr(GPtrArray) split = NULL;
      Text text;

      if (!g_hash_table_add (seen, chunk->hash))
        continue;

      split = lode_embed_split (chunk->text, max_tokens);
      text.hash = chunk->hash;
      text.first_part = parts->len;
      text.n_parts = split->len;
      /* The parts of a split text weigh by their size; a whole text needs no weight. */
      for (guint j = 0; j < split->len; j++)
        {
          double weight = split->len == 1 ? 1.0
                          : MAX (1, lode_embed_estimate_tokens (g_ptr_array_index (split, j),
                                                                -1));

          g_array_append_val (weights, weight);
        }
      g_ptr_array_extend_and_steal (parts, g_steal_pointer (&split));
      g_array_append_val (texts, text);
    }
  g_ptr_array_add (parts, NULL);

  embeddings = lode_embedder_embed_sync (embedder, (const char * const *) parts->pdata,
                                         LODE_EMBED_DOCUMENT, cancellable, error);
  if (embeddings == NULL)
    return FALSE;
  if (embeddings->n_vectors != parts->len - 1 || embeddings->dims == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s returned %u vectors of %u dimensions for %u texts",
                   lode_embedder_get_model (embedder), embeddings->n_vectors, embeddings->dims,
                   parts->len - 1);
      return FALSE;
    }

  *dims = embeddings->dims;
  *vectors = g_new0 (float, (gsize) texts->len * embeddings->dims);
  for (guint t = 0; t < texts->len; t++)
    {
      const Text *text = &g_array_index (texts, Text, t);
      float *out = *vectors + (gsize) t * embeddings->dims;
      double norm = 0.0;

      for (guint p = text->first_part; p < text->first_part + text->n_parts; p++)
        {
          const float *in = embeddings->data + (gsize) p * embeddings->dims;
          double weight = g_array_index (weights, double, p);

          for (guint d = 0; d < embeddings->dims; d++)
            out[d] += (float) (weight * in[d]);
        }
      for (guint d = 0; d < embeddings->dims; d++)
        norm += (double) out[d] * out[d];
      if (!isfinite (norm) || norm <= 0.0)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s returned a zero or non-finite vector",
                       lode_embedder_get_model (embedder));
          g_clear_pointer (vectors, g_free);
          return FALSE;
        }
      for (guint d = 0; d < embeddings->dims; d++)
        out[d] = (float) (out[d] / sqrt (norm));
    }

  return TRUE;
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
 * vectors of other models (see lode_store_prune_vectors()). Blocks; call it from a worker
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
      g_autoptr(GArray) texts = g_array_new (FALSE, FALSE, sizeof (Text));
      g_autoptr(GPtrArray) hashes = g_ptr_array_new ();
      g_autofree float *vectors = NULL;
      guint dims = 0;
      guint covered = 0;
      gboolean ok;

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

      if (!embed_texts (embedder, todo, texts, &vectors, &dims, cancellable, error))
        {
          g_prefix_error (error, "Cannot embed: ");
          break;
        }

      for (guint i = 0; i < texts->len; i++)
        g_ptr_array_add (hashes, (gpointer) g_array_index (texts, Text, i).hash);
      ok = lode_index_store_put_vectors (store, model, dims, (const char * const *) hashes->pdata,
                                   vectors, texts->len, &covered, error);
      if (!ok)
        break;

      embedded += covered;
      done = MIN (done + covered, total);
      report_progress (progress, progress_data, done, total);
    }

  if (n_embedded != NULL)
    *n_embedded = embedded;
  return FALSE;
}
