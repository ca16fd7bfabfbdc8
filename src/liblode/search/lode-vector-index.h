/* lode-vector-index.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * LodeVectorHit:
 * @id: the id the vector was added under (a chunk id)
 * @score: the dot product with the query (the cosine, vectors being normalised)
 */
typedef struct
{
  gint64 id;
  float  score;
} LodeVectorHit;

#define LODE_TYPE_VECTOR_INDEX (lode_vector_index_get_type ())
G_DECLARE_FINAL_TYPE (LodeVectorIndex, lode_vector_index, LODE, VECTOR_INDEX, GObject)

LodeVectorIndex *lode_vector_index_new            (guint              dims);
guint            lode_vector_index_get_dims       (LodeVectorIndex   *self);
guint            lode_vector_index_get_size       (LodeVectorIndex   *self);
void             lode_vector_index_set_quantized  (LodeVectorIndex   *self,
                                                   gboolean           quantized);
gboolean         lode_vector_index_get_quantized  (LodeVectorIndex   *self);
void             lode_vector_index_add            (LodeVectorIndex   *self,
                                                   gint64             id,
                                                   const float       *vector);
gboolean         lode_vector_index_remove         (LodeVectorIndex   *self,
                                                   gint64             id);
guint            lode_vector_index_retain         (LodeVectorIndex   *self,
                                                   const gint64      *sorted_ids,
                                                   gsize              n_ids);
GArray          *lode_vector_index_search         (LodeVectorIndex   *self,
                                                   const float       *query,
                                                   guint              k,
                                                   const gint64      *allowed_ids,
                                                   gsize              n_allowed);

G_END_DECLS
