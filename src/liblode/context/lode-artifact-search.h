/* lode-artifact-search.h — context artifacts found and ranked, the same for every store
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-index-store.h"

G_BEGIN_DECLS

GPtrArray *lode_artifact_search (LodeIndexStore      *store,
                                 const char * const  *prefixes,
                                 const char          *artifact,
                                 guint                limit,
                                 GError             **error);

G_END_DECLS
