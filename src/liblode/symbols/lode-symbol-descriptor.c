/* lode-symbol-descriptor.c — a stored symbol read back: its details, names, location and
 * SymbolDescriptor
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include "lode-json.h"
#include "lode-symbol-extract.h"
#include "lode-symbol-report-private.h"

void
_lode_symbol_report_symbol_clear (Symbol *symbol)
{
  g_clear_pointer (&symbol->detail, json_object_unref);
}

static JsonObject *
parse_detail (const char *detail)
{
  /* Written by the indexer, but read back from a file that may have been damaged. */
  g_autoptr(JsonNode) node = detail != NULL ? lode_json_parse (detail, -1, NULL) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return json_object_new ();
  return json_node_dup_object (node);
}

Symbol
_lode_symbol_report_symbol_from_row (LodeStoredSymbol *row)
{
  Symbol symbol = { row, parse_detail (row->detail) };

  return symbol;
}

/* The module, package or namespace; a C or C++ header is a package too. */
char *
_lode_symbol_report_symbol_package (const Symbol *symbol)
{
  if (symbol->row->package != NULL)
    return g_strdup (symbol->row->package);
  if (language_is (symbol->row->language, "c") || language_is (symbol->row->language, "cpp"))
    return g_strdup (symbol->row->path);
  return NULL;
}

/* The module, package or namespace, but a C header. */
char *
_lode_symbol_report_symbol_namespace (const Symbol *symbol)
{
  return g_strdup (symbol->row->package);
}

/* Whether the symbol is a member of a class, struct or type (or a Rust impl), rather than of
 * its module, package or namespace. */
gboolean
_lode_symbol_report_is_member (const Symbol *symbol)
{
  return symbol->row->scope != NULL && g_strcmp0 (symbol->row->scope, symbol->row->package) != 0;
}

/* The name the tools print and accept: its scope path and its name (`crate::sync::semaphore::
 * Semaphore`, `grpc.ClientConn.Close`, `App\Models\User::posts`). */
char *
_lode_symbol_report_full_name (const Symbol *symbol)
{
  const char *separator = lode_symbol_separator_for_language (symbol->row->language);

  if (symbol->row->scope == NULL)
    return g_strdup (symbol->row->name);
  /* PHP: App\Models\User::posts */
  if (_lode_symbol_report_is_member (symbol) && language_is (symbol->row->language, "php"))
    separator = "::";
  return g_strconcat (symbol->row->scope, separator, symbol->row->name, NULL);
}

JsonObject *
_lode_symbol_report_location (const char   *root,
                              const Symbol *symbol)
{
  JsonObject *object = json_object_new ();
  g_autofree char *absolute = g_build_filename (root,
                                                symbol->row->path, NULL);
  g_autofree char *uri = g_filename_to_uri (absolute, NULL, NULL);
  JsonArray *selection = detail_array (symbol->detail, "selection");

  json_object_set_string_member (object, "file_path", symbol->row->path);
  set_string (object, "uri", uri);
  json_object_set_int_member (object, "start_line", symbol->row->start_line);
  json_object_set_int_member (object, "end_line", symbol->row->end_line);
  if (selection != NULL && json_array_get_length (selection) == 4)
    {
      JsonObject *range = json_object_new ();

      json_object_set_int_member (range, "start_line", json_array_get_int_element (selection, 0));
      json_object_set_int_member (range, "start_column",
                                  json_array_get_int_element (selection, 1));
      json_object_set_int_member (range, "end_line", json_array_get_int_element (selection, 2));
      json_object_set_int_member (range, "end_column", json_array_get_int_element (selection, 3));
      json_object_set_object_member (object, "selection", range);
    }
  else
    json_object_set_null_member (object, "selection");
  return object;
}

JsonObject *
_lode_symbol_report_symbol_descriptor (const char   *root,
                                       const Symbol *symbol)
{
  JsonObject *object = json_object_new ();
  g_autofree char *namespace = _lode_symbol_report_symbol_namespace (symbol);
  g_autofree char *package = _lode_symbol_report_symbol_package (symbol);
  const char *detail_kind = detail_string (symbol->detail, "kind");

  json_object_set_string_member (object, "language", symbol->row->language);
  /* Class details name the type's kind (model, struct…); function details the function's. */
  json_object_set_string_member (object, "kind",
                                 detail_kind != NULL ? detail_kind
                                 : symbol->row->kind != NULL ? symbol->row->kind : "symbol");
  json_object_set_string_member (object, "name", symbol->row->name);
  set_string (object, "namespace", namespace);
  set_string (object, "package", package);
  set_string (object, "signature", symbol->row->signature);
  set_string (object, "description", detail_string (symbol->detail, "description"));
  json_object_set_object_member (object, "location", _lode_symbol_report_location (root, symbol));
  return object;
}

JsonObject *
_lode_symbol_report_report_new (const char  *root,
                                const char  *query)
{
  JsonObject *report = json_object_new ();

  json_object_set_string_member (report, "project", root);
  json_object_set_string_member (report, "query", query);
  return report;
}
