/* lode-context.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-project.h"

G_BEGIN_DECLS

#define LODE_CONTEXT_SEARCH_MAX_LIMIT 50

JsonObject *lode_context_report_list   (LodeProject   *project,
                                        GError       **error);
JsonObject *lode_context_report_index  (LodeProject   *project,
                                        const char    *name,
                                        GCancellable  *cancellable,
                                        GError       **error);
JsonObject *lode_context_report_remove (LodeProject   *project,
                                        const char    *name,
                                        GError       **error);
JsonObject *lode_context_report_search (LodeProject   *project,
                                        const char    *query,
                                        const char    *artifact,
                                        guint          limit,
                                        double         min_score,
                                        GCancellable  *cancellable,
                                        GError       **error);

char       *lode_context_format_list   (JsonObject    *report);
char       *lode_context_format_index  (JsonObject    *report);
char       *lode_context_format_remove (JsonObject    *report);
char       *lode_context_format_search (JsonObject    *report);

G_END_DECLS
