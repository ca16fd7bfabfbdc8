/* lode-gemm.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gemm"

#include "config.h"

#include <string.h>

#include "lode-gemm.h"

#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#include <immintrin.h>
#define HAVE_X86_KERNELS 1
#endif

/* The weights of a linear layer (24 panels × 384 × 16 floats for a 384-wide BERT layer)
 * are read once per block of rows; a block of KC inner-dimension steps keeps the rows of X
 * a micro-kernel reads (8 × KC floats) in the L1 cache and the panels it reads
 * (3 × KC × 16 floats) in L2. */
#define KC 384

struct _LodePackedMatrix
{
  float *panels;   /* n_panels × k × LODE_GEMM_PANEL, zero beyond column n */
  guint  n;
  guint  k;
};

/**
 * lode_packed_matrix_new:
 * @w: the weights, @n rows of @k floats
 * @n: output columns
 * @k: inner dimension
 *
 * Returns: (transfer full): @w packed for lode_gemm_acc()
 */
LodePackedMatrix *
lode_packed_matrix_new (const float *w,
                        guint        n,
                        guint        k)
{
  LodePackedMatrix *self;
  guint n_panels = (n + LODE_GEMM_PANEL - 1) / LODE_GEMM_PANEL;

  g_return_val_if_fail (w != NULL && n > 0 && k > 0, NULL);

  self = g_new0 (LodePackedMatrix, 1);
  self->n = n;
  self->k = k;
  self->panels = g_aligned_alloc0 ((gsize) n_panels * k, LODE_GEMM_PANEL * sizeof (float), 64);
  for (guint c = 0; c < n; c++)
    {
      float *panel = self->panels + (gsize) (c / LODE_GEMM_PANEL) * k * LODE_GEMM_PANEL;
      const float *row = w + (gsize) c * k;

      for (guint i = 0; i < k; i++)
        panel[(gsize) i * LODE_GEMM_PANEL + c % LODE_GEMM_PANEL] = row[i];
    }

  return self;
}

void
lode_packed_matrix_free (LodePackedMatrix *self)
{
  if (self == NULL)
    return;

  g_aligned_free (self->panels);
  g_free (self);
}

guint
lode_packed_matrix_get_n (const LodePackedMatrix *self)
{
  return self->n;
}

guint
lode_packed_matrix_get_k (const LodePackedMatrix *self)
{
  return self->k;
}

/* ---- micro-kernels ------------------------------------------------------------------------ */

/* A micro-kernel computes Y[mr, np × 16] (+)= X[mr, kc] · B[kc, np × 16]: @x is row-major
 * with stride @ldx; B is @np panels of 16 columns, @bstride floats apart, each kc rows
 * @ldb floats apart; @y is row-major with stride @ldy. The tile starts from Y itself when
 * @init is INIT_LOAD, from the @bias row (@bias + p × 16 for panel p) when INIT_BIAS, from
 * zero when INIT_ZERO, and stays in registers for the whole of kc. */
typedef enum
{
  INIT_LOAD,
  INIT_BIAS,
  INIT_ZERO,
} Init;

typedef struct
{
  const float *x;
  gsize        ldx;
  const float *b;
  gsize        ldb;
  gsize        bstride;
  Init         init;
  const float *bias;
  float       *y;
  gsize        ldy;
} Tile;

typedef void (*TileFunc) (guint       mr,
                          guint       np,
                          guint       kc,
                          const Tile *t);

#define GENERIC_MR 4

static void
tile_generic (guint       mr,
              guint       np,
              guint       kc,
              const Tile *t)
{
  for (guint p = 0; p < np; p++)
    {
      float acc[GENERIC_MR][LODE_GEMM_PANEL];
      const float *panel = t->b + p * t->bstride;

      for (guint r = 0; r < mr; r++)
        {
          if (t->init == INIT_LOAD)
            memcpy (acc[r], t->y + r * t->ldy + p * LODE_GEMM_PANEL, sizeof acc[r]);
          else if (t->init == INIT_BIAS)
            memcpy (acc[r], t->bias + p * LODE_GEMM_PANEL, sizeof acc[r]);
          else
            memset (acc[r], 0, sizeof acc[r]);
        }
      for (guint i = 0; i < kc; i++)
        for (guint r = 0; r < mr; r++)
          {
            float a = t->x[r * t->ldx + i];

            for (guint j = 0; j < LODE_GEMM_PANEL; j++)
              acc[r][j] += a * panel[i * t->ldb + j];
          }
      for (guint r = 0; r < mr; r++)
        memcpy (t->y + r * t->ldy + p * LODE_GEMM_PANEL, acc[r], sizeof acc[r]);
    }
}

#ifdef HAVE_X86_KERNELS

/* AVX-512: up to 8 rows × 3 panels, 24 accumulators of the 32 registers. Instantiated for
 * each (rows, panels) pair with constant bounds, so that the loops unroll and the tile
 * lives in registers. */
#define AVX512_MR 8
#define AVX512_NP 3

static inline __attribute__ ((always_inline, target ("avx512f"))) void
tile_avx512_fixed (const guint  MR,
                   const guint  NP,
                   guint        kc,
                   const Tile  *t)
{
  const float *x = t->x;
  const float *b = t->b;
  gsize ldx = t->ldx;
  gsize ldb = t->ldb;
  gsize bstride = t->bstride;
  __m512 acc[AVX512_MR][AVX512_NP];

#pragma GCC unroll 8
  for (guint r = 0; r < MR; r++)
#pragma GCC unroll 3
    for (guint p = 0; p < NP; p++)
      acc[r][p] = t->init == INIT_LOAD ? _mm512_loadu_ps (t->y + r * t->ldy + p * LODE_GEMM_PANEL) :
                  t->init == INIT_BIAS ? _mm512_loadu_ps (t->bias + p * LODE_GEMM_PANEL) :
                  _mm512_setzero_ps ();

  for (guint i = 0; i < kc; i++)
    {
      __m512 bv[AVX512_NP];

#pragma GCC unroll 3
      for (guint p = 0; p < NP; p++)
        bv[p] = _mm512_loadu_ps (b + p * bstride + i * ldb);
#pragma GCC unroll 8
      for (guint r = 0; r < MR; r++)
        {
          __m512 a = _mm512_set1_ps (x[r * ldx + i]);

#pragma GCC unroll 3
          for (guint p = 0; p < NP; p++)
            acc[r][p] = _mm512_fmadd_ps (a, bv[p], acc[r][p]);
        }
    }

#pragma GCC unroll 8
  for (guint r = 0; r < MR; r++)
#pragma GCC unroll 3
    for (guint p = 0; p < NP; p++)
      _mm512_storeu_ps (t->y + r * t->ldy + p * LODE_GEMM_PANEL, acc[r][p]);
}

#define TILE_AVX512_CASE(MR, NP) \
  case (MR) * 4 + (NP): \
    tile_avx512_fixed ((MR), (NP), kc, t); \
    break

static __attribute__ ((target ("avx512f"))) void
tile_avx512 (guint       mr,
             guint       np,
             guint       kc,
             const Tile *t)
{
  switch (mr * 4 + np)
    {
      TILE_AVX512_CASE (1, 1); TILE_AVX512_CASE (1, 2); TILE_AVX512_CASE (1, 3);
      TILE_AVX512_CASE (2, 1); TILE_AVX512_CASE (2, 2); TILE_AVX512_CASE (2, 3);
      TILE_AVX512_CASE (3, 1); TILE_AVX512_CASE (3, 2); TILE_AVX512_CASE (3, 3);
      TILE_AVX512_CASE (4, 1); TILE_AVX512_CASE (4, 2); TILE_AVX512_CASE (4, 3);
      TILE_AVX512_CASE (5, 1); TILE_AVX512_CASE (5, 2); TILE_AVX512_CASE (5, 3);
      TILE_AVX512_CASE (6, 1); TILE_AVX512_CASE (6, 2); TILE_AVX512_CASE (6, 3);
      TILE_AVX512_CASE (7, 1); TILE_AVX512_CASE (7, 2); TILE_AVX512_CASE (7, 3);
      TILE_AVX512_CASE (8, 1); TILE_AVX512_CASE (8, 2); TILE_AVX512_CASE (8, 3);
    default:
      g_assert_not_reached ();
    }
}

/* AVX2 + FMA: up to 6 rows × 1 panel (two 8-float halves), 12 accumulators of the 16
 * registers. */
#define AVX2_MR 6

static inline __attribute__ ((always_inline, target ("avx2,fma"))) void
tile_avx2_fixed (const guint  MR,
                 guint        kc,
                 const Tile  *t,
                 guint        p)
{
  const float *x = t->x;
  const float *b = t->b + p * t->bstride;
  gsize ldx = t->ldx;
  gsize ldb = t->ldb;
  float *y = t->y + p * LODE_GEMM_PANEL;
  __m256 lo[AVX2_MR];
  __m256 hi[AVX2_MR];

#pragma GCC unroll 6
  for (guint r = 0; r < MR; r++)
    {
      const float *init = t->init == INIT_LOAD ? y + r * t->ldy : t->bias + p * LODE_GEMM_PANEL;

      lo[r] = t->init == INIT_ZERO ? _mm256_setzero_ps () : _mm256_loadu_ps (init);
      hi[r] = t->init == INIT_ZERO ? _mm256_setzero_ps () : _mm256_loadu_ps (init + 8);
    }

  for (guint i = 0; i < kc; i++)
    {
      __m256 b_lo = _mm256_loadu_ps (b + i * ldb);
      __m256 b_hi = _mm256_loadu_ps (b + i * ldb + 8);

#pragma GCC unroll 6
      for (guint r = 0; r < MR; r++)
        {
          __m256 a = _mm256_broadcast_ss (x + r * ldx + i);

          lo[r] = _mm256_fmadd_ps (a, b_lo, lo[r]);
          hi[r] = _mm256_fmadd_ps (a, b_hi, hi[r]);
        }
    }

#pragma GCC unroll 6
  for (guint r = 0; r < MR; r++)
    {
      _mm256_storeu_ps (y + r * t->ldy, lo[r]);
      _mm256_storeu_ps (y + r * t->ldy + 8, hi[r]);
    }
}

#define TILE_AVX2_CASE(MR) \
  case (MR): \
    tile_avx2_fixed ((MR), kc, t, p); \
    break

static __attribute__ ((target ("avx2,fma"))) void
tile_avx2 (guint       mr,
           guint       np,
           guint       kc,
           const Tile *t)
{
  for (guint p = 0; p < np; p++)
    switch (mr)
      {
        TILE_AVX2_CASE (1); TILE_AVX2_CASE (2); TILE_AVX2_CASE (3);
        TILE_AVX2_CASE (4); TILE_AVX2_CASE (5); TILE_AVX2_CASE (6);
      default:
        g_assert_not_reached ();
      }
}

#endif /* HAVE_X86_KERNELS */

/* The most rows any micro-kernel takes at once. */
#define MAX_TILE_ROWS 8
G_STATIC_ASSERT (GENERIC_MR <= MAX_TILE_ROWS);
#ifdef HAVE_X86_KERNELS
G_STATIC_ASSERT (AVX512_MR <= MAX_TILE_ROWS && AVX2_MR <= MAX_TILE_ROWS);
#endif

/**
 * lode_gemm_kernel_supported:
 * @kernel: a kernel
 *
 * Returns: whether this build and processor can run @kernel
 */
gboolean
lode_gemm_kernel_supported (LodeGemmKernel kernel)
{
  switch (kernel)
    {
    case LODE_GEMM_KERNEL_BEST:
    case LODE_GEMM_KERNEL_GENERIC:
      return TRUE;
#ifdef HAVE_X86_KERNELS
    case LODE_GEMM_KERNEL_AVX2:
      return __builtin_cpu_supports ("avx2") && __builtin_cpu_supports ("fma");
    case LODE_GEMM_KERNEL_AVX512:
      return __builtin_cpu_supports ("avx512f");
#else
    case LODE_GEMM_KERNEL_AVX2:
    case LODE_GEMM_KERNEL_AVX512:
      return FALSE;
#endif
    default:
      return FALSE;
    }
}

#ifdef HAVE_X86_KERNELS
static LodeGemmKernel
best_kernel (void)
{
  static gsize best;

  if (g_once_init_enter (&best))
    {
      LodeGemmKernel kernel = LODE_GEMM_KERNEL_GENERIC;

      if (lode_gemm_kernel_supported (LODE_GEMM_KERNEL_AVX512))
        kernel = LODE_GEMM_KERNEL_AVX512;
      else if (lode_gemm_kernel_supported (LODE_GEMM_KERNEL_AVX2))
        kernel = LODE_GEMM_KERNEL_AVX2;
      g_once_init_leave (&best, kernel);
    }

  return (LodeGemmKernel) best;
}
#endif

static TileFunc
tile_func (LodeGemmKernel  kernel,
           guint          *max_rows,
           guint          *max_panels)
{
#ifdef HAVE_X86_KERNELS
  if (kernel == LODE_GEMM_KERNEL_BEST)
    kernel = best_kernel ();
  if (kernel == LODE_GEMM_KERNEL_AVX512)
    {
      *max_rows = AVX512_MR;
      *max_panels = AVX512_NP;
      return tile_avx512;
    }
  if (kernel == LODE_GEMM_KERNEL_AVX2)
    {
      *max_rows = AVX2_MR;
      *max_panels = 1;
      return tile_avx2;
    }
#endif

  *max_rows = GENERIC_MR;
  *max_panels = 1;
  return tile_generic;
}

/* Runs @tile over rows 0…@m of panels @p0…@p1 for one block of kc, @t describing panel 0
 * and row 0. */
static void
tile_rows (TileFunc    tile,
           guint       max_rows,
           guint       max_panels,
           guint       m,
           guint       p0,
           guint       p1,
           guint       kc,
           const Tile *t)
{
  for (guint p = p0; p < p1; p += max_panels)
    for (guint r = 0; r < m; r += max_rows)
      {
        Tile at = *t;

        at.x += r * t->ldx;
        at.b += p * t->bstride;
        at.bias = t->bias != NULL ? t->bias + p * LODE_GEMM_PANEL : NULL;
        at.y += r * t->ldy + (gsize) p * LODE_GEMM_PANEL;
        tile (MIN (max_rows, m - r), MIN (max_panels, p1 - p), kc, &at);
      }
}

/**
 * lode_gemm_acc:
 * @kernel: the micro-kernel, %LODE_GEMM_KERNEL_BEST in the encoder (the others are for
 *   tests); it must be supported
 * @x: X, @m rows of k floats (k from @w), @ldx apart
 * @ldx: the row stride of @x
 * @m: rows
 * @w: the packed weights W[n, k]
 * @c0: first output column, a multiple of %LODE_GEMM_PANEL
 * @c1: end of the output columns, a multiple of %LODE_GEMM_PANEL or n
 * @bias: (nullable): n floats
 * @y: Y, @m rows, @ldy apart, of which columns @c0 to @c1 are written
 * @ldy: the row stride of @y
 *
 * Y[:, c0…c1] = bias[c0…c1] + X · W[c0…c1, :]ᵀ, a linear layer; without @bias,
 * Y[:, c0…c1] += X · W[c0…c1, :]ᵀ (Y holds a residual already). Parts of the columns may
 * run on different threads at once.
 */
void
lode_gemm_acc (LodeGemmKernel          kernel,
               const float            *x,
               gsize                   ldx,
               guint                   m,
               const LodePackedMatrix *w,
               guint                   c0,
               guint                   c1,
               const float            *bias,
               float                  *y,
               gsize                   ldy)
{
  TileFunc tile;
  guint max_rows;
  guint max_panels;
  gsize bstride = (gsize) w->k * LODE_GEMM_PANEL;
  guint p_full = c1 / LODE_GEMM_PANEL;
  guint tail = c1 % LODE_GEMM_PANEL;

  g_return_if_fail (c0 % LODE_GEMM_PANEL == 0 && c0 <= c1 && c1 <= w->n);
  g_return_if_fail (tail == 0 || c1 == w->n);
  g_return_if_fail (lode_gemm_kernel_supported (kernel));

  tile = tile_func (kernel, &max_rows, &max_panels);

  for (guint k0 = 0; k0 < w->k; k0 += KC)
    {
      Tile t = {
        .x = x + k0, .ldx = ldx,
        .b = w->panels + (gsize) k0 * LODE_GEMM_PANEL, .ldb = LODE_GEMM_PANEL,
        .bstride = bstride,
        .init = k0 == 0 && bias != NULL ? INIT_BIAS : INIT_LOAD, .bias = bias,
        .y = y, .ldy = ldy,
      };
      guint kc = MIN (KC, w->k - k0);

      tile_rows (tile, max_rows, max_panels, m, c0 / LODE_GEMM_PANEL, p_full, kc, &t);

      /* A last panel narrower than 16 columns runs on a copy of its part of Y (and of the
       * bias). */
      if (tail != 0)
        {
          float padded_bias[LODE_GEMM_PANEL] = { 0 };

          if (t.init == INIT_BIAS)
            {
              memcpy (padded_bias, bias + p_full * LODE_GEMM_PANEL, tail * sizeof (float));
              t.bias = padded_bias;
            }
          t.b += p_full * bstride;
          for (guint r = 0; r < m; r += max_rows)
            {
              guint mr = MIN (max_rows, m - r);
              float part[MAX_TILE_ROWS][LODE_GEMM_PANEL] = { { 0 } };
              Tile at = t;

              for (guint i = 0; i < mr; i++)
                memcpy (part[i], y + (r + i) * ldy + p_full * LODE_GEMM_PANEL,
                        tail * sizeof (float));
              at.x += r * ldx;
              at.y = part[0];
              at.ldy = LODE_GEMM_PANEL;
              tile (mr, 1, kc, &at);
              for (guint i = 0; i < mr; i++)
                memcpy (y + (r + i) * ldy + p_full * LODE_GEMM_PANEL, part[i],
                        tail * sizeof (float));
            }
        }
    }
}

/**
 * lode_gemm_nn:
 * @kernel: as for lode_gemm_acc()
 * @m: rows of X and Y
 * @n: columns of B and Y
 * @k: columns of X, rows of B
 * @x: X[m, k], rows @ldx apart
 * @ldx: the row stride of @x
 * @b: B[k, n], rows @ldb apart
 * @ldb: the row stride of @b
 * @y: Y[m, n], rows @ldy apart
 * @ldy: the row stride of @y
 *
 * Y = X · B, for operands that change with every call (attention), so not packed.
 */
void
lode_gemm_nn (LodeGemmKernel  kernel,
              guint           m,
              guint           n,
              guint           k,
              const float    *x,
              gsize           ldx,
              const float    *b,
              gsize           ldb,
              float          *y,
              gsize           ldy)
{
  TileFunc tile;
  guint max_rows;
  guint max_panels;
  guint p_full = n / LODE_GEMM_PANEL;

  g_return_if_fail (lode_gemm_kernel_supported (kernel));

  tile = tile_func (kernel, &max_rows, &max_panels);

  for (guint k0 = 0; k0 < k; k0 += KC)
    {
      Tile t = {
        .x = x + k0, .ldx = ldx,
        .b = b + k0 * ldb, .ldb = ldb, .bstride = LODE_GEMM_PANEL,
        .init = k0 == 0 ? INIT_ZERO : INIT_LOAD,
        .y = y, .ldy = ldy,
      };

      tile_rows (tile, max_rows, max_panels, m, 0, p_full, MIN (KC, k - k0), &t);
    }

  /* The columns after the last whole panel. */
  for (guint r = 0; r < m; r++)
    for (guint c = p_full * LODE_GEMM_PANEL; c < n; c++)
      {
        float sum = 0.0f;

        for (guint i = 0; i < k; i++)
          sum += x[r * ldx + i] * b[i * ldb + c];
        y[r * ldy + c] = sum;
      }
}
