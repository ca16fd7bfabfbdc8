/* lode-gemm.h — the encoder's dense products, on weights packed once at load
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* Columns per panel of a packed matrix: the unit of every split of the output columns. */
#define LODE_GEMM_PANEL 16

/**
 * LodeGemmKernel:
 * @LODE_GEMM_KERNEL_BEST: the fastest kernel this processor runs
 * @LODE_GEMM_KERNEL_GENERIC: portable C
 * @LODE_GEMM_KERNEL_AVX2: AVX2 and FMA (x86-64-v3)
 * @LODE_GEMM_KERNEL_AVX512: AVX-512F (x86-64-v4)
 *
 * The micro-kernels of lode_gemm_acc(). Every kernel gives the same products up to the
 * rounding of a different summation order.
 */
typedef enum
{
  LODE_GEMM_KERNEL_BEST,
  LODE_GEMM_KERNEL_GENERIC,
  LODE_GEMM_KERNEL_AVX2,
  LODE_GEMM_KERNEL_AVX512,
} LodeGemmKernel;

/**
 * LodePackedMatrix:
 *
 * The weights W[n, k] of a linear layer (Hugging Face `[out, in]` order), rearranged once
 * into panels of %LODE_GEMM_PANEL output columns, each panel k × 16 floats: the order in
 * which the micro-kernels read them, so no product packs its weights again.
 */
typedef struct _LodePackedMatrix LodePackedMatrix;

LodePackedMatrix *lode_packed_matrix_new  (const float            *w,
                                           guint                   n,
                                           guint                   k);
void              lode_packed_matrix_free (LodePackedMatrix       *self);
guint             lode_packed_matrix_get_n (const LodePackedMatrix *self);
guint             lode_packed_matrix_get_k (const LodePackedMatrix *self);

gboolean          lode_gemm_kernel_supported (LodeGemmKernel       kernel);

void              lode_gemm_acc           (LodeGemmKernel          kernel,
                                           const float            *x,
                                           gsize                   ldx,
                                           guint                   m,
                                           const LodePackedMatrix *w,
                                           guint                   c0,
                                           guint                   c1,
                                           const float            *bias,
                                           float                  *y,
                                           gsize                   ldy);
void              lode_gemm_nn            (LodeGemmKernel          kernel,
                                           guint                   m,
                                           guint                   n,
                                           guint                   k,
                                           const float            *x,
                                           gsize                   ldx,
                                           const float            *b,
                                           gsize                   ldb,
                                           float                  *y,
                                           gsize                   ldy);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodePackedMatrix, lode_packed_matrix_free)

G_END_DECLS
