/* lode-sparse-vector.h — BM25 as sparse vectors, with Lode's code-aware tokenizer
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeSparseVector:
 * @indices: term ids, each once, ascending
 * @values: their weights
 * @len: entries in both
 */
typedef struct
{
  guint32 *indices;
  float   *values;
  guint    len;
} LodeSparseVector;

/**
 * LodeSparseField:
 * @LODE_SPARSE_SYMBOL: the declaration's name
 * @LODE_SPARSE_SIGNATURE: its signature, doc comment, container and context
 * @LODE_SPARSE_PATH: the file's path
 * @LODE_SPARSE_BODY: the chunk's text
 *
 * The fields of a chunk, weighed as the SQLite store's columns are (10, 4, 2, 1).
 */
typedef enum
{
  LODE_SPARSE_SYMBOL,
  LODE_SPARSE_SIGNATURE,
  LODE_SPARSE_PATH,
  LODE_SPARSE_BODY,
  LODE_SPARSE_N_FIELDS,
} LodeSparseField;

guint32           lode_sparse_token_id        (const char       *token,
                                               gsize             len);
LodeSparseVector *lode_sparse_vector_for_fields (const char * const fields[LODE_SPARSE_N_FIELDS]);
LodeSparseVector *lode_sparse_vector_for_terms (const char * const *terms,
                                               const double       *weights,
                                               guint               n_terms);
gboolean          lode_sparse_vector_has      (const LodeSparseVector *vector,
                                               guint32                 index);
void              lode_sparse_vector_free     (LodeSparseVector *vector);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSparseVector, lode_sparse_vector_free)

G_END_DECLS
