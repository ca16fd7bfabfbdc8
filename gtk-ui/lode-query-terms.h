/* lode-query-terms.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct _LodeQueryTerms LodeQueryTerms;

LodeQueryTerms *lode_query_terms_new   (const char      *query);
void            lode_query_terms_free  (LodeQueryTerms  *self);
gboolean        lode_query_terms_find  (LodeQueryTerms  *self,
                                        const char      *text,
                                        gsize            length,
                                        gsize           *start,
                                        gsize           *matched);
gboolean        lode_query_terms_is_empty (LodeQueryTerms *self);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeQueryTerms, lode_query_terms_free)

G_END_DECLS
