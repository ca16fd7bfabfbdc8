/* lode-symbol-exports.c — what a package, namespace or module exports
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include "lode-language.h"
#include "lode-symbol-extract.h"
#include "lode-symbol-report-private.h"

#define PACKAGE_SCAN_ROWS  5000

/* Globs of the files a package written as a path or a module name stands for. */
static GPtrArray *
package_globs (const char *package)
{
  GPtrArray *globs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *path = NULL;

  if (strchr (package, '/') != NULL || strchr (package, '.') == NULL ||
      strcmp (lode_language_for_path (package)->id, "text") != 0)
    {
      /* A file, or a folder (a Go package, a Python package). */
      g_ptr_array_add (globs, g_strdup (package));
      g_ptr_array_add (globs, g_strdup_printf ("*/%s", package));
      g_ptr_array_add (globs, g_strdup_printf ("%s.*", package));
      g_ptr_array_add (globs, g_strdup_printf ("*/%s.*", package));
      g_ptr_array_add (globs, g_strdup_printf ("%s/*", package));
      g_ptr_array_add (globs, g_strdup_printf ("*/%s/*", package));
    }
  if (strstr (package, "::") != NULL)
    {
      /* A Rust module path. */
      const char *p = g_str_has_prefix (package, "crate::") ? package + 7 : package;
      g_auto(GStrv) parts = g_strsplit (p, "::", -1);

      path = g_strjoinv ("/", parts);
      g_ptr_array_add (globs, g_strdup_printf ("*%s.rs", path));
      g_ptr_array_add (globs, g_strdup_printf ("*%s/mod.rs", path));
    }
  else if (strchr (package, '.') != NULL && strchr (package, '/') == NULL &&
           strcmp (lode_language_for_path (package)->id, "text") == 0)
    {
      /* A Python module. */
      path = g_strdelimit (g_strdup (package), ".", '/');
      g_ptr_array_add (globs, g_strdup_printf ("%s.py", path));
      g_ptr_array_add (globs, g_strdup_printf ("*/%s.py", path));
      g_ptr_array_add (globs, g_strdup_printf ("%s/__init__.py", path));
      g_ptr_array_add (globs, g_strdup_printf ("*/%s/__init__.py", path));
    }
  return globs;
}

static gboolean
kind_matches (const Symbol *symbol,
              const char   *symbol_type)
{
  const char *detail_kind = detail_string (symbol->detail, "kind");

  if (symbol_type == NULL)
    return TRUE;
  return g_strcmp0 (symbol->row->kind, symbol_type) == 0 ||
         g_strcmp0 (detail_kind, symbol_type) == 0 ||
         (strcmp (symbol_type, "type") == 0 && is_class_kind (symbol->row->kind)) ||
         (strcmp (symbol_type, "function") == 0 && is_function_kind (symbol->row->kind)) ||
         (strcmp (symbol_type, "variable") == 0 &&
          (g_strcmp0 (symbol->row->kind, "constant") == 0 ||
           g_strcmp0 (symbol->row->kind, "property") == 0));
}

/* A package's export: declared at its top level (no class around it) and visible outside. */
static gboolean
is_export (const Symbol *symbol)
{
  if (!detail_bool (symbol->detail, "exported"))
    return FALSE;
  if (g_strcmp0 (symbol->row->kind, "namespace") == 0 ||
      g_strcmp0 (symbol->row->kind, "impl") == 0)
    return FALSE;
  return !_lode_symbol_report_is_member (symbol);
}

/**
 * lode_symbol_report_exports:
 * @store: the index
 * @query: `name`, a package as the language names it: a Go package (name or folder), a PHP or C#
 *   namespace, a Java or Kotlin package, a Python module (`pkg.sub.models`), a JavaScript or
 *   TypeScript module (`src/api/client`), a Rust module (`crate::net`), a C header
 *   (`strbuf.h`)
 *   `symbol_type`, only symbols of this kind (function, class, struct, interface,
 *   type, constant, variable, method, …)
 *   `limit`, symbols at most
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{project, query, package, count, total, exports:
 *   [SymbolDescriptor], hint|null}`
 */
JsonObject *
lode_symbol_report_exports (LodeIndexStore         *store,
                            const LodeSymbolQuery  *query,
                            GError                **error)
{
  const char *root = query->root;
  const char *package = query->name;
  const char *symbol_type = query->symbol_type;
  guint limit = query->limit;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonArray *exports;
  guint total = 0;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (store), NULL);
  g_return_val_if_fail (query->root != NULL && query->name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  rows = lode_index_store_dup_package_symbols (store, package, NULL, PACKAGE_SCAN_ROWS, error);
  if (rows == NULL)
    return NULL;
  if (rows->len == 0)
    {
      g_autoptr(GPtrArray) globs = package_globs (package);

      for (guint i = 0; i < globs->len && rows->len == 0; i++)
        {
          g_clear_pointer (&rows, g_ptr_array_unref);
          rows = lode_index_store_dup_package_symbols (store, NULL,
                                                       g_ptr_array_index (globs, i),
                                                       PACKAGE_SCAN_ROWS, error);
          if (rows == NULL)
            return NULL;
        }
    }

  report = _lode_symbol_report_report_new (root, package);
  exports = json_array_new ();
  for (guint i = 0; i < rows->len; i++)
    {
      Symbol symbol = _lode_symbol_report_symbol_from_row (g_ptr_array_index (rows, i));

      if (is_export (&symbol) && kind_matches (&symbol, symbol_type))
        {
          if (total < limit)
            json_array_add_object_element (exports,
                                           _lode_symbol_report_symbol_descriptor (root, &symbol));
          total++;
        }
      _lode_symbol_report_symbol_clear (&symbol);
    }
  json_object_set_int_member (report, "count", json_array_get_length (exports));
  json_object_set_int_member (report, "total", total);
  json_object_set_array_member (report, "exports", exports);
  set_string (report, "hint",
              rows->len == 0
              ? "No package, namespace, module or file of that name is indexed; "
                "codebase_search finds where code lives"
              : total == 0 ? "The package declares nothing visible outside it"
              : total > limit ? "More exports than limit: raise limit or pass symbol_type"
              : NULL);
  return g_steal_pointer (&report);
}
