/* lode-search-provider.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode.h"
#include "lode-shell-search-provider.h"

G_BEGIN_DECLS

#define LODE_SEARCH_PROVIDER_OBJECT_PATH "/io/github/lode/Lode/SearchProvider"

#define LODE_TYPE_SEARCH_PROVIDER (lode_search_provider_get_type ())
G_DECLARE_FINAL_TYPE (LodeSearchProvider, lode_search_provider, LODE, SEARCH_PROVIDER,
                      LodeShellSearchProvider2Skeleton)

LodeSearchProvider *lode_search_provider_new (GApplication *app,
                                              LodeEngine   *engine);

G_END_DECLS
