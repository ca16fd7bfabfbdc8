/* fuzz-safetensors.c — the loader of model.safetensors (header and tensors) of the built-in
 * encoder, against the config of a tiny BERT
 *
 * An input is a whole safetensors file: an 8-byte little-endian header length, the JSON
 * header, the tensor bytes. Anything that does not match the config must be refused with an
 * error, never read out of bounds.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-bert-private.h"
#include "lode-error.h"

/* The shapes make-seeds.py writes its seed for: hidden 4, 2 heads, 1 layer, intermediate 8,
 * vocabulary 8, 8 positions, 2 token types. */
static const char config[] =
  "{\"model_type\": \"bert\", \"hidden_size\": 4, \"num_attention_heads\": 2, "
  "\"intermediate_size\": 8, \"num_hidden_layers\": 1, \"vocab_size\": 8, "
  "\"max_position_embeddings\": 8, \"type_vocab_size\": 2, \"hidden_act\": \"gelu\"}";

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  /* A copy of exactly the input's size, so that ASan sees every read past its end. */
  g_autofree guint8 *weights = g_memdup2 (data, size);
  g_autoptr(GError) error = NULL;
  LodeBert *bert;

  bert = _lode_bert_new_for_data (config, weights, size, &error);
  if (bert == NULL)
    {
      g_assert_nonnull (error);
      return 0;
    }

  /* A model that loads runs: every tensor it reads is inside the input. */
  {
    static const gint32 ids[] = { 0, 7, 3 };
    const gint32 *sequences[] = { ids };
    guint lengths[] = { G_N_ELEMENTS (ids) };
    float vector[4];

    g_assert_cmpuint (lode_bert_get_dims (bert), ==, 4);
    g_assert_true (lode_bert_embed (bert, 1, sequences, lengths, LODE_POOLING_MEAN, vector,
                                    NULL, &error));
    g_assert_no_error (error);
  }
  lode_bert_free (bert);
  return 0;
}
