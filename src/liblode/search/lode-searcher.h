/* lode-searcher.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-search-backend.h"
#include "lode-search.h"

G_BEGIN_DECLS

/**
 * LodeQueryVector:
 * @model: the embedding model that made @vector
 * @dims: its dimensions
 * @vector: (array length=dims): the query's embedding, L2-normalised
 *
 * The query as the dense leg sees it.
 */
typedef struct
{
  const char  *model;
  guint        dims;
  const float *vector;
} LodeQueryVector;

#define LODE_TYPE_SEARCHER (lode_searcher_get_type ())
G_DECLARE_FINAL_TYPE (LodeSearcher, lode_searcher, LODE, SEARCHER, GObject)

LodeSearcher       *lode_searcher_new           (void);
void                lode_searcher_set_quantized (LodeSearcher            *self,
                                                 gboolean                 quantized);
LodeSearchResponse *lode_searcher_search        (LodeSearcher            *self,
                                                 LodeSearchBackend       *backend,
                                                 const LodeSearchOptions *options,
                                                 const LodeQueryVector   *query,
                                                 const char              *unavailable,
                                                 GCancellable            *cancellable,
                                                 GError                 **error);

G_END_DECLS
