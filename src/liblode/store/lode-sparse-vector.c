/* lode-sparse-vector.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The Qdrant store's lexical leg. A chunk's sparse vector holds, for every token Lode's code
 * tokenizer writes (identifiers whole and split, as the SQLite store's FTS5 index holds
 * them), the BM25 term-frequency part of the SQLite store's lode_rank(): per field
 * w · f (k1 + 1) / (f + k1), k1 = 1.2, b = 0, with the field weights 10, 4, 2, 1. Qdrant
 * multiplies the query's values by the term's IDF over the collection (the `idf` modifier)
 * and sums the products, which is BM25. Term ids are FNV-1a hashes of the tokens: a
 * collision merges two rare tokens, which costs little and keeps the vectors free of any
 * vocabulary the server would have to share.
 */

#define G_LOG_DOMAIN "lode-sparse"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lode-code-tokenizer.h"
#include "lode-sparse-vector.h"

#define BM25_K1 1.2

static const double field_weights[LODE_SPARSE_N_FIELDS] = { 10.0, 4.0, 2.0, 1.0 };

/**
 * lode_sparse_token_id:
 * @token: a token as the code tokenizer writes it
 * @len: its length in bytes
 *
 * Returns: the token's id in sparse vectors (32-bit FNV-1a)
 */
guint32
lode_sparse_token_id (const char *token,
                      gsize       len)
{
  guint32 hash = 2166136261u;

  for (gsize i = 0; i < len; i++)
    {
      hash ^= (guchar) token[i];
      hash *= 16777619u;
    }
  return hash;
}

void
lode_sparse_vector_free (LodeSparseVector *vector)
{
  if (vector == NULL)
    return;
  g_free (vector->indices);
  g_free (vector->values);
  g_free (vector);
}

typedef struct
{
  GHashTable *counts;   /* id → double[LODE_SPARSE_N_FIELDS] */
  guint       field;
} CountData;

static gboolean
count_token_cb (const char *token,
                gsize       len,
                gsize       start,
                gsize       end,
                gboolean    colocated,
                gpointer    user_data)
{
  CountData *data = user_data;
  guint32 id = lode_sparse_token_id (token, len);
  double *tf = g_hash_table_lookup (data->counts, GUINT_TO_POINTER (id));

  if (tf == NULL)
    {
      tf = g_new0 (double, LODE_SPARSE_N_FIELDS);
      g_hash_table_insert (data->counts, GUINT_TO_POINTER (id), tf);
    }
  tf[data->field] += 1.0;
  return TRUE;
}

static int
compare_ids (gconstpointer a,
             gconstpointer b)
{
  guint32 x = GPOINTER_TO_UINT (*(gpointer *) a);
  guint32 y = GPOINTER_TO_UINT (*(gpointer *) b);

  return x < y ? -1 : x > y;
}

static LodeSparseVector *
vector_from_table (GHashTable *table,
                   double    (*value) (gpointer data))
{
  g_autofree gpointer *keys = NULL;
  LodeSparseVector *vector = g_new0 (LodeSparseVector, 1);
  guint n = 0;

  keys = g_hash_table_get_keys_as_array (table, &n);
  qsort (keys, n, sizeof (gpointer), compare_ids);
  vector->indices = g_new (guint32, MAX (n, 1));
  vector->values = g_new (float, MAX (n, 1));
  for (guint i = 0; i < n; i++)
    {
      vector->indices[vector->len] = GPOINTER_TO_UINT (keys[i]);
      vector->values[vector->len] = (float) value (g_hash_table_lookup (table, keys[i]));
      if (vector->values[vector->len] > 0.0f)
        vector->len++;
    }
  return vector;
}

static double
field_value (gpointer data)
{
  const double *tf = data;
  double value = 0.0;

  for (guint f = 0; f < LODE_SPARSE_N_FIELDS; f++)
    if (tf[f] > 0.0)
      value += field_weights[f] * tf[f] * (BM25_K1 + 1.0) / (tf[f] + BM25_K1);
  return value;
}

/**
 * lode_sparse_vector_for_fields:
 * @fields: a chunk's symbol, signature text, path and body, each nullable
 *
 * Returns: (transfer full): the chunk's sparse vector (possibly empty)
 */
LodeSparseVector *
lode_sparse_vector_for_fields (const char * const fields[LODE_SPARSE_N_FIELDS])
{
  g_autoptr(GHashTable) counts = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  CountData data = { counts, 0 };

  for (data.field = 0; data.field < LODE_SPARSE_N_FIELDS; data.field++)
    if (fields[data.field] != NULL)
      lode_code_tokenize (fields[data.field], strlen (fields[data.field]), LODE_TOKENIZE_SPLIT,
                          count_token_cb, &data);

  return vector_from_table (counts, field_value);
}

static double
double_value (gpointer data)
{
  return *(double *) data;
}

/**
 * lode_sparse_vector_for_terms:
 * @terms: (array length=n_terms): tokens, as the tokenizer writes them
 * @weights: (array length=n_terms) (nullable): how much each counts (1 when %NULL)
 * @n_terms: how many
 *
 * A query: each term's weight (summed when a term comes twice); Qdrant multiplies it by the
 * term's IDF.
 *
 * Returns: (transfer full): the query vector
 */
LodeSparseVector *
lode_sparse_vector_for_terms (const char * const *terms,
                              const double       *weights,
                              guint               n_terms)
{
  g_autoptr(GHashTable) table = g_hash_table_new_full (NULL, NULL, NULL, g_free);

  for (guint i = 0; i < n_terms; i++)
    {
      guint32 id = lode_sparse_token_id (terms[i], strlen (terms[i]));
      double *value = g_hash_table_lookup (table, GUINT_TO_POINTER (id));

      if (value == NULL)
        {
          value = g_new0 (double, 1);
          g_hash_table_insert (table, GUINT_TO_POINTER (id), value);
        }
      *value += weights != NULL ? weights[i] : 1.0;
    }

  return vector_from_table (table, double_value);
}

/**
 * lode_sparse_vector_has:
 * @vector: a sparse vector (indices ascending)
 * @index: a term id
 *
 * Returns: whether @vector holds @index
 */
gboolean
lode_sparse_vector_has (const LodeSparseVector *vector,
                        guint32                 index)
{
  guint lo = 0, hi = vector->len;

  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (vector->indices[mid] == index)
        return TRUE;
      if (vector->indices[mid] < index)
        lo = mid + 1;
      else
        hi = mid;
    }
  return FALSE;
}
