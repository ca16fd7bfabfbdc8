/* lode-static-embedder.h — static piece vectors distilled from the Universal Sentence Encoder
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-embedder.h"

G_BEGIN_DECLS

/* Dimensions of the distilled vectors: the principal components of the encoder's 512. */
#define LODE_STATIC_EMBEDDER_DIMS 128

#define LODE_TYPE_STATIC_EMBEDDER (lode_static_embedder_get_type ())
G_DECLARE_FINAL_TYPE (LodeStaticEmbedder, lode_static_embedder, LODE, STATIC_EMBEDDER, GObject)

LodeEmbedder *lode_static_embedder_new   (const char          *model,
                                          const char          *dir,
                                          GError             **error);
void          lode_static_embedder_embed (LodeStaticEmbedder  *self,
                                          const char          *text,
                                          float               *out);

G_END_DECLS
