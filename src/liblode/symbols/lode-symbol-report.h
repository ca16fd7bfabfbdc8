/* lode-symbol-report.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-index-store.h"

G_BEGIN_DECLS

#define LODE_SYMBOL_REPORT_MAX_MATCHES 50

/**
 * LodeSymbolQuery:
 * @root: the project's root, for the answers' `project` and the locations' URIs
 * @name: the type, function, package or identifier asked for
 * @package: (nullable): a package, namespace, module or file to narrow it to
 * @class_name: (nullable): the class, struct or type a function belongs to
 * @symbol_type: (nullable): the kind of symbols to list (exports)
 * @limit: how many to list at most (exports, references)
 *
 * What a symbol tool asks. The reports read the index through the #LodeIndexStore they are
 * given, on the caller's thread (a project's read connection, lode_project_read()).
 */
typedef struct
{
  const char *root;
  const char *name;
  const char *package;
  const char *class_name;
  const char *symbol_type;
  guint       limit;
} LodeSymbolQuery;

JsonObject *lode_symbol_report_type          (LodeIndexStore         *store,
                                              const LodeSymbolQuery  *query,
                                              GError                **error);
JsonObject *lode_symbol_report_function      (LodeIndexStore         *store,
                                              const LodeSymbolQuery  *query,
                                              GError                **error);
JsonObject *lode_symbol_report_exports       (LodeIndexStore         *store,
                                              const LodeSymbolQuery  *query,
                                              GError                **error);
JsonObject *lode_symbol_report_references    (LodeIndexStore         *store,
                                              const LodeSymbolQuery  *query,
                                              GError                **error);

char       *lode_symbol_format_type          (JsonObject             *report);
char       *lode_symbol_format_function      (JsonObject             *report);
char       *lode_symbol_format_exports       (JsonObject             *report);
char       *lode_symbol_format_references    (JsonObject             *report);

G_END_DECLS
