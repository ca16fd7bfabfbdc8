/* lode-vector-index.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-vector-index"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-vector-index.h"

/*
 * Exact nearest-neighbour search over L2-normalised vectors held in one contiguous row-major
 * float32 matrix (the dense leg of hybrid search; issue #4).
 *
 * Every row is zero-padded to a multiple of BLOCK values, so that the kernels below run over
 * whole blocks of a compile-time length: GCC vectorises such loops at -O2 (with partial sums
 * kept in an array, a float reduction needs no reassociation, so no -ffast-math). On x86-64
 * AVX-512 (x86-64-v4) and AVX2 clones of each kernel are built, and the loader picks the best
 * one the processor runs.
 *
 * A scan reads the whole matrix: for 100k × 384 floats that is 150 MB per query, bound by
 * memory bandwidth. With quantisation on, the scan reads an int8 copy (a quarter of the bytes,
 * one scale per row) and the best candidates are re-scored against the float32 rows.
 *
 * Not thread-safe: callers serialise access (LodeProject holds its reader lock).
 */

#define BLOCK 32

/* Candidates re-scored in float32 after an int8 scan: RERANK_FACTOR × k, at least RERANK_MIN. */
#define RERANK_FACTOR 4
#define RERANK_MIN    64

#if defined(__x86_64__) && defined(__has_attribute)
# if __has_attribute(target_clones) && defined(__GNUC__) && !defined(__clang__) && __GNUC__ >= 12
#  define LODE_SIMD_CLONES \
  __attribute__((target_clones ("arch=x86-64-v4", "avx2", "default")))
# elif __has_attribute(target_clones)
#  define LODE_SIMD_CLONES __attribute__((target_clones ("avx2", "default")))
# endif
#endif
#ifndef LODE_SIMD_CLONES
# define LODE_SIMD_CLONES
#endif

struct _LodeVectorIndex
{
  GObject   parent_instance;

  guint     dims;
  gsize     stride;      /* dims rounded up to BLOCK */
  gsize     n_rows;
  gsize     capacity;
  gint64   *ids;
  float    *data;        /* n_rows × stride */
  gint8    *qdata;       /* n_rows × stride, when quantized */
  float    *qscale;      /* n_rows, when quantized */

  guint     quantized : 1;
};

G_DEFINE_FINAL_TYPE (LodeVectorIndex, lode_vector_index, G_TYPE_OBJECT)

LODE_SIMD_CLONES
static float
dot_f32 (const float *restrict a,
         const float *restrict b,
         gsize                 stride)
{
  float acc[BLOCK] = { 0 };
  float sum = 0.0f;

  for (gsize i = 0; i < stride; i += BLOCK)
    for (guint j = 0; j < BLOCK; j++)
      acc[j] += a[i + j] * b[i + j];

  for (guint j = 0; j < BLOCK; j++)
    sum += acc[j];

  return sum;
}

LODE_SIMD_CLONES
static gint32
dot_i8 (const gint8 *restrict a,
        const gint8 *restrict b,
        gsize                 stride)
{
  gint32 acc[BLOCK] = { 0 };
  gint32 sum = 0;

  for (gsize i = 0; i < stride; i += BLOCK)
    for (guint j = 0; j < BLOCK; j++)
      acc[j] += (gint16) a[i + j] * (gint16) b[i + j];

  for (guint j = 0; j < BLOCK; j++)
    sum += acc[j];

  return sum;
}

/* Symmetric per-vector quantisation: x ≈ scale × q with q in −127 … 127. */
static float
quantize (const float *vector,
          gsize        stride,
          gint8       *out)
{
  float max = 0.0f;
  float scale;

  for (gsize i = 0; i < stride; i++)
    max = MAX (max, fabsf (vector[i]));

  scale = max > 0.0f ? max / 127.0f : 1.0f;
  for (gsize i = 0; i < stride; i++)
    out[i] = (gint8) CLAMP (lrintf (vector[i] / scale), -127, 127);

  return scale;
}

static void
lode_vector_index_finalize (GObject *object)
{
  LodeVectorIndex *self = (LodeVectorIndex *)object;

  g_free (self->ids);
  g_free (self->data);
  g_free (self->qdata);
  g_free (self->qscale);

  G_OBJECT_CLASS (lode_vector_index_parent_class)->finalize (object);
}

static void
lode_vector_index_class_init (LodeVectorIndexClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_vector_index_finalize;
}

static void
lode_vector_index_init (LodeVectorIndex *self)
{
}

/**
 * lode_vector_index_new:
 * @dims: dimensions of the vectors, at least 1
 *
 * Returns: (transfer full): an empty index, not quantized
 */
LodeVectorIndex *
lode_vector_index_new (guint dims)
{
  LodeVectorIndex *self;

  g_return_val_if_fail (dims > 0 && dims <= 65536, NULL);

  self = g_object_new (LODE_TYPE_VECTOR_INDEX, NULL);
  self->dims = dims;
  self->stride = (dims + BLOCK - 1) / BLOCK * BLOCK;

  return self;
}

guint
lode_vector_index_get_dims (LodeVectorIndex *self)
{
  g_return_val_if_fail (LODE_IS_VECTOR_INDEX (self), 0);

  return self->dims;
}

guint
lode_vector_index_get_size (LodeVectorIndex *self)
{
  g_return_val_if_fail (LODE_IS_VECTOR_INDEX (self), 0);

  return self->n_rows;
}

/**
 * lode_vector_index_set_quantized:
 * @self: a #LodeVectorIndex
 * @quantized: whether searches scan an int8 copy of the rows and re-score the best
 *   candidates in float32
 *
 * Quantisation costs a quarter more memory and makes a scan about four times lighter on
 * memory bandwidth; results may differ from the exact ones only when a true neighbour is
 * not among the 4 × k best by the int8 scores.
 */
void
lode_vector_index_set_quantized (LodeVectorIndex *self,
                                 gboolean         quantized)
{
  g_return_if_fail (LODE_IS_VECTOR_INDEX (self));

  quantized = !!quantized;
  if (self->quantized == (guint) quantized)
    return;

  self->quantized = quantized;
  if (!quantized)
    {
      g_clear_pointer (&self->qdata, g_free);
      g_clear_pointer (&self->qscale, g_free);
      return;
    }

  self->qdata = g_new (gint8, MAX (self->capacity, 1) * self->stride);
  self->qscale = g_new (float, MAX (self->capacity, 1));
  for (gsize r = 0; r < self->n_rows; r++)
    self->qscale[r] = quantize (self->data + r * self->stride, self->stride,
                                self->qdata + r * self->stride);
}

gboolean
lode_vector_index_get_quantized (LodeVectorIndex *self)
{
  g_return_val_if_fail (LODE_IS_VECTOR_INDEX (self), FALSE);

  return self->quantized;
}

static void
grow (LodeVectorIndex *self)
{
  gsize capacity = MAX (self->capacity + self->capacity / 2, 1024);

  self->ids = g_renew (gint64, self->ids, capacity);
  self->data = g_renew (float, self->data, capacity * self->stride);
  if (self->quantized)
    {
      self->qdata = g_renew (gint8, self->qdata, capacity * self->stride);
      self->qscale = g_renew (float, self->qscale, capacity);
    }
  self->capacity = capacity;
}

/**
 * lode_vector_index_add:
 * @self: a #LodeVectorIndex
 * @id: what a search returns for this vector
 * @vector: (array): lode_vector_index_get_dims() floats, L2-normalised; copied
 *
 * Appends a row. Ids are not checked for uniqueness: the caller adds each id once.
 */
void
lode_vector_index_add (LodeVectorIndex *self,
                       gint64           id,
                       const float     *vector)
{
  float *row;

  g_return_if_fail (LODE_IS_VECTOR_INDEX (self));
  g_return_if_fail (vector != NULL);

  if (self->n_rows == self->capacity)
    grow (self);

  row = self->data + self->n_rows * self->stride;
  memcpy (row, vector, self->dims * sizeof (float));
  memset (row + self->dims, 0, (self->stride - self->dims) * sizeof (float));
  self->ids[self->n_rows] = id;
  if (self->quantized)
    self->qscale[self->n_rows] = quantize (row, self->stride,
                                           self->qdata + self->n_rows * self->stride);
  self->n_rows++;
}

/* Moves the last row into @row. */
static void
remove_row (LodeVectorIndex *self,
            gsize            row)
{
  gsize last = self->n_rows - 1;

  if (row != last)
    {
      self->ids[row] = self->ids[last];
      memcpy (self->data + row * self->stride, self->data + last * self->stride,
              self->stride * sizeof (float));
      if (self->quantized)
        {
          memcpy (self->qdata + row * self->stride, self->qdata + last * self->stride,
                  self->stride);
          self->qscale[row] = self->qscale[last];
        }
    }
  self->n_rows--;
}

/**
 * lode_vector_index_remove:
 * @self: a #LodeVectorIndex
 * @id: an id given to lode_vector_index_add()
 *
 * Removes the row of @id (the last row takes its place). Linear in the number of rows.
 *
 * Returns: whether @id was there
 */
gboolean
lode_vector_index_remove (LodeVectorIndex *self,
                          gint64           id)
{
  g_return_val_if_fail (LODE_IS_VECTOR_INDEX (self), FALSE);

  for (gsize r = 0; r < self->n_rows; r++)
    if (self->ids[r] == id)
      {
        remove_row (self, r);
        return TRUE;
      }

  return FALSE;
}

static gboolean
sorted_contains (const gint64 *ids,
                 gsize         n_ids,
                 gint64        id)
{
  gsize lo = 0;
  gsize hi = n_ids;

  while (lo < hi)
    {
      gsize mid = lo + (hi - lo) / 2;

      if (ids[mid] < id)
        lo = mid + 1;
      else if (ids[mid] > id)
        hi = mid;
      else
        return TRUE;
    }

  return FALSE;
}

/**
 * lode_vector_index_retain:
 * @self: a #LodeVectorIndex
 * @sorted_ids: (array length=n_ids): ids in ascending order
 * @n_ids: number of ids
 *
 * Removes every row whose id is not in @sorted_ids.
 *
 * Returns: the number of rows removed
 */
guint
lode_vector_index_retain (LodeVectorIndex *self,
                          const gint64    *sorted_ids,
                          gsize            n_ids)
{
  guint n_removed = 0;

  g_return_val_if_fail (LODE_IS_VECTOR_INDEX (self), 0);
  g_return_val_if_fail (sorted_ids != NULL || n_ids == 0, 0);

  for (gsize r = self->n_rows; r > 0; r--)
    if (!sorted_contains (sorted_ids, n_ids, self->ids[r - 1]))
      {
        remove_row (self, r - 1);
        n_removed++;
      }

  return n_removed;
}

/* A bounded min-heap of (score, row): the k best seen so far, the worst at the top. */
typedef struct
{
  float score;
  gsize row;
} Entry;

typedef struct
{
  Entry *entries;
  guint  len;
  guint  size;
} Heap;

static void
heap_sift_down (Heap  *heap,
                guint  i)
{
  for (;;)
    {
      guint l = 2 * i + 1;
      guint r = l + 1;
      guint m = i;
      Entry tmp;

      if (l < heap->len && heap->entries[l].score < heap->entries[m].score)
        m = l;
      if (r < heap->len && heap->entries[r].score < heap->entries[m].score)
        m = r;
      if (m == i)
        return;
      tmp = heap->entries[i];
      heap->entries[i] = heap->entries[m];
      heap->entries[m] = tmp;
      i = m;
    }
}

static inline void
heap_offer (Heap  *heap,
            float  score,
            gsize  row)
{
  if (heap->len < heap->size)
    {
      guint i = heap->len++;

      heap->entries[i].score = score;
      heap->entries[i].row = row;
      while (i > 0 && heap->entries[(i - 1) / 2].score > heap->entries[i].score)
        {
          Entry tmp = heap->entries[i];

          heap->entries[i] = heap->entries[(i - 1) / 2];
          heap->entries[(i - 1) / 2] = tmp;
          i = (i - 1) / 2;
        }
      return;
    }

  if (score <= heap->entries[0].score)
    return;

  heap->entries[0].score = score;
  heap->entries[0].row = row;
  heap_sift_down (heap, 0);
}

static int
compare_hits (gconstpointer a,
              gconstpointer b)
{
  const LodeVectorHit *ha = a;
  const LodeVectorHit *hb = b;

  if (ha->score != hb->score)
    return ha->score > hb->score ? -1 : 1;
  return ha->id < hb->id ? -1 : ha->id > hb->id ? 1 : 0;
}

/**
 * lode_vector_index_search:
 * @self: a #LodeVectorIndex
 * @query: (array): lode_vector_index_get_dims() floats, L2-normalised
 * @k: number of neighbours wanted
 * @allowed_ids: (array length=n_allowed) (nullable): when not %NULL, only rows whose id is
 *   in this ascending array are considered
 * @n_allowed: length of @allowed_ids
 *
 * Exact top-@k by dot product (cosine similarity for normalised vectors); with quantisation
 * on, an int8 scan picks 4 × @k candidates (at least 64) and float32 re-scores them.
 *
 * Returns: (transfer full) (element-type LodeVectorHit): up to @k hits, best first (equal
 *   scores by ascending id)
 */
GArray *
lode_vector_index_search (LodeVectorIndex *self,
                          const float     *query,
                          guint            k,
                          const gint64    *allowed_ids,
                          gsize            n_allowed)
{
  g_autofree float *q = NULL;
  g_autofree gint8 *qq = NULL;
  g_autofree Entry *entries = NULL;
  GArray *hits;
  Heap heap = { 0 };

  g_return_val_if_fail (LODE_IS_VECTOR_INDEX (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);

  hits = g_array_new (FALSE, FALSE, sizeof (LodeVectorHit));
  if (k == 0 || self->n_rows == 0)
    return hits;

  q = g_new0 (float, self->stride);
  memcpy (q, query, self->dims * sizeof (float));

  if (self->quantized)
    {
      Heap coarse = { 0 };
      g_autofree Entry *coarse_entries = NULL;
      float qscale;

      qq = g_new (gint8, self->stride);
      qscale = quantize (q, self->stride, qq);
      coarse.size = (guint) MIN (MAX ((gsize) k * RERANK_FACTOR, RERANK_MIN), self->n_rows);
      coarse.entries = coarse_entries = g_new (Entry, coarse.size);

      for (gsize r = 0; r < self->n_rows; r++)
        {
          if (allowed_ids != NULL && !sorted_contains (allowed_ids, n_allowed, self->ids[r]))
            continue;
          heap_offer (&coarse,
                      (float) dot_i8 (qq, self->qdata + r * self->stride, self->stride) *
                      self->qscale[r] * qscale, r);
        }

      heap.size = MIN (k, coarse.len);
      heap.entries = entries = g_new (Entry, MAX (heap.size, 1));
      for (guint i = 0; i < coarse.len; i++)
        {
          gsize r = coarse.entries[i].row;

          heap_offer (&heap, dot_f32 (q, self->data + r * self->stride, self->stride), r);
        }
    }
  else
    {
      heap.size = (guint) MIN ((gsize) k, self->n_rows);
      heap.entries = entries = g_new (Entry, heap.size);
      for (gsize r = 0; r < self->n_rows; r++)
        {
          if (allowed_ids != NULL && !sorted_contains (allowed_ids, n_allowed, self->ids[r]))
            continue;
          heap_offer (&heap, dot_f32 (q, self->data + r * self->stride, self->stride), r);
        }
    }

  for (guint i = 0; i < heap.len; i++)
    {
      LodeVectorHit hit = { self->ids[heap.entries[i].row], heap.entries[i].score };

      g_array_append_val (hits, hit);
    }
  g_array_sort (hits, compare_hits);

  return hits;
}
