/* lode-symbol-report.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

#include "lode-project.h"

G_BEGIN_DECLS

#define LODE_SYMBOL_REPORT_MAX_MATCHES 50

JsonObject *lode_symbol_report_type          (LodeProject  *project,
                                              const char   *type_name,
                                              const char   *package,
                                              GError      **error);
JsonObject *lode_symbol_report_function      (LodeProject  *project,
                                              const char   *function_name,
                                              const char   *package,
                                              const char   *class_name,
                                              GError      **error);
JsonObject *lode_symbol_report_exports       (LodeProject  *project,
                                              const char   *package,
                                              const char   *symbol_type,
                                              guint         limit,
                                              GError      **error);
JsonObject *lode_symbol_report_references    (LodeProject  *project,
                                              const char   *symbol,
                                              guint         limit,
                                              GError      **error);

char       *lode_symbol_format_type          (JsonObject   *report);
char       *lode_symbol_format_function      (JsonObject   *report);
char       *lode_symbol_format_exports       (JsonObject   *report);
char       *lode_symbol_format_references    (JsonObject   *report);

G_END_DECLS
