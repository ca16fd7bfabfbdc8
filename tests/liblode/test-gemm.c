/* test-gemm.c — the encoder's packed dense products against a plain reference (issue #4)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>

#include <glib.h>

#include "lode-gemm.h"

static const struct
{
  const char     *name;
  LodeGemmKernel  kernel;
} kernels[] = {
  { "best", LODE_GEMM_KERNEL_BEST },
  { "generic", LODE_GEMM_KERNEL_GENERIC },
  { "avx2", LODE_GEMM_KERNEL_AVX2 },
  { "avx512", LODE_GEMM_KERNEL_AVX512 },
};

static float *
random_matrix (GRand *rand,
               gsize  n)
{
  float *data = g_new (float, n);

  for (gsize i = 0; i < n; i++)
    data[i] = (float) g_rand_double_range (rand, -1.0, 1.0);

  return data;
}

static gboolean
kernel_runs (LodeGemmKernel kernel)
{
  if (lode_gemm_kernel_supported (kernel))
    return TRUE;
  g_test_skip ("this processor does not run the kernel");
  return FALSE;
}

/* Checks Y0 + X · Wᵀ (or, with a bias, bias + X · Wᵀ) for columns c0…c1 of a row-major Y
 * with padding between rows (so that a kernel writing past its columns or rows is caught),
 * and Y0 untouched elsewhere. */
static void
check_product (LodeGemmKernel kernel,
               GRand         *rand,
               guint          m,
               guint          n,
               guint          k,
               guint          c0,
               guint          c1,
               gboolean       with_bias)
{
  gsize ldx = k + 3;
  gsize ldy = n + 5;
  g_autofree float *x = random_matrix (rand, m * ldx);
  g_autofree float *w = random_matrix (rand, (gsize) n * k);
  g_autofree float *y = random_matrix (rand, m * ldy);
  g_autofree float *y0 = g_memdup2 (y, m * ldy * sizeof (float));
  g_autofree float *bias = with_bias ? random_matrix (rand, n) : NULL;
  g_autoptr(LodePackedMatrix) packed = lode_packed_matrix_new (w, n, k);

  g_assert_cmpuint (lode_packed_matrix_get_n (packed), ==, n);
  g_assert_cmpuint (lode_packed_matrix_get_k (packed), ==, k);

  lode_gemm_acc (kernel, x, ldx, m, packed, c0, c1, bias, y, ldy);

  for (guint r = 0; r < m; r++)
    for (gsize c = 0; c < ldy; c++)
      {
        double expected = y0[r * ldy + c];

        if (c >= c0 && c < c1 && bias != NULL)
          expected = bias[c];
        if (c >= c0 && c < c1)
          for (guint i = 0; i < k; i++)
            expected += (double) x[r * ldx + i] * w[c * k + i];
        /* float sums of k products of magnitude ≤ 1 */
        if (fabs (y[r * ldy + c] - expected) > 1e-5 * (k + 1))
          g_error ("m=%u n=%u k=%u columns %u…%u: Y[%u, %zu] = %.7g, expected %.7g",
                   m, n, k, c0, c1, r, c, y[r * ldy + c], expected);
      }
}

static void
test_shapes (gconstpointer data)
{
  LodeGemmKernel kernel = GPOINTER_TO_INT (data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (42);
  const guint rows[] = { 1, 2, 5, 6, 7, 8, 9, 13, 17, 33 };
  const guint columns[] = { 1, 15, 16, 17, 32, 48, 50, 100 };
  const guint inner[] = { 1, 7, 64, 385, 900 };

  if (!kernel_runs (kernel))
    return;

  for (guint a = 0; a < G_N_ELEMENTS (rows); a++)
    for (guint b = 0; b < G_N_ELEMENTS (columns); b++)
      for (guint c = 0; c < G_N_ELEMENTS (inner); c++)
        {
          check_product (kernel, rand, rows[a], columns[b], inner[c], 0, columns[b], FALSE);
          check_product (kernel, rand, rows[a], columns[b], inner[c], 0, columns[b], TRUE);
        }
}

/* The encoder splits the columns of a product between threads at panel boundaries. */
static void
test_column_parts (gconstpointer data)
{
  LodeGemmKernel kernel = GPOINTER_TO_INT (data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (7);

  if (!kernel_runs (kernel))
    return;

  check_product (kernel, rand, 11, 100, 70, 0, 48, FALSE);
  check_product (kernel, rand, 11, 100, 70, 48, 96, TRUE);
  check_product (kernel, rand, 11, 100, 70, 96, 100, FALSE);
  check_product (kernel, rand, 11, 100, 70, 16, 16, FALSE);
  check_product (kernel, rand, 128, 384, 384, 192, 384, FALSE);
}

/* Y = X · B with B row-major [k, n], as attention multiplies by transposed keys and by
 * values: every shape of row, column and inner tails. */
static void
check_nn (LodeGemmKernel kernel,
          GRand         *rand,
          guint          m,
          guint          n,
          guint          k)
{
  gsize ldx = k + 1;
  gsize ldb = n + 7;
  gsize ldy = n + 2;
  g_autofree float *x = random_matrix (rand, m * ldx);
  g_autofree float *b = random_matrix (rand, k * ldb);
  g_autofree float *y = random_matrix (rand, m * ldy);
  g_autofree float *y0 = g_memdup2 (y, m * ldy * sizeof (float));

  lode_gemm_nn (kernel, m, n, k, x, ldx, b, ldb, y, ldy);

  for (guint r = 0; r < m; r++)
    for (gsize c = 0; c < ldy; c++)
      {
        double expected = y0[r * ldy + c];

        if (c < n)
          {
            expected = 0;
            for (guint i = 0; i < k; i++)
              expected += (double) x[r * ldx + i] * b[i * ldb + c];
          }
        if (fabs (y[r * ldy + c] - expected) > 1e-5 * (k + 1))
          g_error ("nn m=%u n=%u k=%u: Y[%u, %zu] = %.7g, expected %.7g",
                   m, n, k, r, c, y[r * ldy + c], expected);
      }
}

static void
test_nn (gconstpointer data)
{
  LodeGemmKernel kernel = GPOINTER_TO_INT (data);
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  const guint rows[] = { 1, 5, 8, 9, 31 };
  const guint columns[] = { 1, 13, 16, 32, 33, 130 };
  const guint inner[] = { 1, 32, 64, 385, 520 };

  if (!kernel_runs (kernel))
    return;

  for (guint a = 0; a < G_N_ELEMENTS (rows); a++)
    for (guint b = 0; b < G_N_ELEMENTS (columns); b++)
      for (guint c = 0; c < G_N_ELEMENTS (inner); c++)
        check_nn (kernel, rand, rows[a], columns[b], inner[c]);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, NULL);

  g_assert_true (lode_gemm_kernel_supported (LODE_GEMM_KERNEL_GENERIC));

  for (guint i = 0; i < G_N_ELEMENTS (kernels); i++)
    {
      g_autofree char *shapes = g_strdup_printf ("/lode/gemm/%s/shapes", kernels[i].name);
      g_autofree char *parts = g_strdup_printf ("/lode/gemm/%s/column-parts", kernels[i].name);
      g_autofree char *nn = g_strdup_printf ("/lode/gemm/%s/nn", kernels[i].name);

      g_test_add_data_func (shapes, GINT_TO_POINTER (kernels[i].kernel), test_shapes);
      g_test_add_data_func (parts, GINT_TO_POINTER (kernels[i].kernel), test_column_parts);
      g_test_add_data_func (nn, GINT_TO_POINTER (kernels[i].kernel), test_nn);
    }

  return g_test_run ();
}
