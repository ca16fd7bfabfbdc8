/* lode-symbol-report-private.h — what the parts of the symbol reports share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <string.h>

#include "lode-symbol-report.h"

G_BEGIN_DECLS

/*
 * The reports are split by tool: lode-symbol-report.c looks symbols up and describes types
 * and functions, lode-symbol-exports.c lists a package's exports, lode-symbol-references.c
 * a name's references, lode-symbol-format.c writes them all as markdown. Below them all,
 * lode-symbol-descriptor.c reads a stored symbol back (its details, names, location and
 * SymbolDescriptor) and calls none of them; lode-symbol-report.c calls lode-symbol-exports.c
 * (a Rust module's re-exports), never the other way round.
 */

typedef struct
{
  LodeStoredSymbol *row;
  JsonObject       *detail;   /* (owned) never NULL */
} Symbol;

static inline const char *
detail_string (JsonObject *detail,
               const char *member)
{
  JsonNode *node = json_object_get_member (detail, member);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}

static inline gboolean
detail_bool (JsonObject *detail,
             const char *member)
{
  return json_object_get_boolean_member_with_default (detail, member, FALSE);
}

static inline JsonArray *
detail_array (JsonObject *detail,
              const char *member)
{
  JsonNode *node = json_object_get_member (detail, member);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static inline void
set_string (JsonObject *object,
            const char *member,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

static inline gboolean
language_is (const char *language,
             const char *id)
{
  return g_strcmp0 (language, id) == 0;
}

static inline gboolean
is_class_kind (const char *kind)
{
  static const char * const kinds[] = {
    "class", "struct", "interface", "trait", "enum", "union", "record", "protocol", "object",
    "extension", "type", NULL
  };

  return kind != NULL && g_strv_contains (kinds, kind);
}

static inline gboolean
is_function_kind (const char *kind)
{
  static const char * const kinds[] = { "function", "method", "prototype", NULL };

  return kind != NULL && g_strv_contains (kinds, kind);
}

/* lode-symbol-descriptor.c */
void        _lode_symbol_report_symbol_clear            (Symbol            *symbol);
Symbol      _lode_symbol_report_symbol_from_row         (LodeStoredSymbol  *row);
char       *_lode_symbol_report_symbol_package          (const Symbol      *symbol);
char       *_lode_symbol_report_symbol_namespace        (const Symbol      *symbol);
gboolean    _lode_symbol_report_is_member               (const Symbol      *symbol);
char       *_lode_symbol_report_full_name               (const Symbol      *symbol);
JsonObject *_lode_symbol_report_location                (const char        *root,
                                                         const Symbol      *symbol);
JsonObject *_lode_symbol_report_symbol_descriptor       (const char        *root,
                                                         const Symbol      *symbol);
JsonObject *_lode_symbol_report_report_new              (const char        *root,
                                                         const char        *query);

/* lode-symbol-exports.c */
GPtrArray  *_lode_symbol_report_rust_reexports          (LodeIndexStore    *store,
                                                         const char        *module,
                                                         const char        *name,
                                                         GError           **error);

G_END_DECLS
