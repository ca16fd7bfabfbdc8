/* lode-symbol-references.c — where a name is defined and used
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include "lode-symbol-report-private.h"
#include "lode-symbol-scope.h"

/**
 * lode_symbol_report_references:
 * @store: the index
 * @query: `name`, an identifier (a qualified name is looked up by its last part), and
 *   `limit`, references to list at most (counts cover all)
 * @error: return location for a #GError
 *
 * Where @symbol appears in code: identifiers only, never in comments or strings (the
 * parse's identifier nodes), each with its role.
 *
 * Returns: (transfer full) (nullable): `{project, query, symbol, total, fileCount, files: [{path,
 *   language, count, definitions, calls, types, imports}], references: [{path, line, kind,
 *   text, isDefinition, isCall, isType, isImport}]}`, definitions first
 */
JsonObject *
lode_symbol_report_references (LodeIndexStore         *store,
                               const LodeSymbolQuery  *query,
                               GError                **error)
{
  const char *root = query->root;
  const char *symbol = query->name;
  guint limit = query->limit;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_auto(GStrv) parts = lode_symbol_name_parts (symbol);
  guint n = g_strv_length (parts);
  const char *name = n > 0 ? parts[n - 1] : symbol;
  JsonArray *file_array;
  JsonArray *references;
  guint total = 0, listed = 0;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (store), NULL);
  g_return_val_if_fail (query->root != NULL && query->name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  files = lode_index_store_find_references (store, name, error);
  if (files == NULL)
    return NULL;

  report = _lode_symbol_report_report_new (root, symbol);
  json_object_set_string_member (report, "symbol", name);
  file_array = json_array_new ();
  references = json_array_new ();

  /* Definitions first, then the rest in file order. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint f = 0; f < files->len; f++)
      {
        LodeStoredReferences *file = g_ptr_array_index (files, f);
        g_autoptr(GArray) lines = g_array_new (FALSE, FALSE, sizeof (guint));
        g_autoptr(GPtrArray) texts = NULL;
        GArray *sites = file->sites;
        guint counts[LODE_REFERENCE_N_KINDS] = { 0 };
        guint first = json_array_get_length (references);

        for (guint i = 0; i < sites->len; i++)
          {
            guint32 site = g_array_index (sites, guint32, i);
            LodeReferenceKind kind = lode_reference_site_kind (site);
            guint line = lode_reference_site_line (site);
            JsonObject *reference;

            counts[MIN (kind, LODE_REFERENCE_N_KINDS - 1)]++;
            if ((pass == 0) != (kind == LODE_REFERENCE_DEFINITION) || listed >= limit)
              continue;
            reference = json_object_new ();
            json_object_set_string_member (reference, "path", file->path);
            json_object_set_int_member (reference, "line", line);
            json_object_set_string_member (reference, "kind",
                                           lode_reference_kind_to_string (kind));
            json_object_set_boolean_member (reference, "isDefinition",
                                            kind == LODE_REFERENCE_DEFINITION);
            json_object_set_boolean_member (reference, "isCall", kind == LODE_REFERENCE_CALL);
            json_object_set_boolean_member (reference, "isType", kind == LODE_REFERENCE_TYPE);
            json_object_set_boolean_member (reference, "isImport",
                                            kind == LODE_REFERENCE_IMPORT);
            json_array_add_object_element (references, reference);
            g_array_append_val (lines, line);
            listed++;
          }

        if (lines->len > 0)
          {
            texts = lode_index_store_dup_line_texts (store, file->path,
                                                     (const guint *) (gpointer) lines->data,
                                                     lines->len, error);
            if (texts == NULL)
              {
                json_array_unref (file_array);
                json_array_unref (references);
                return NULL;
              }
            for (guint i = 0; i < lines->len; i++)
              json_object_set_string_member (json_array_get_object_element (references,
                                                                           first + i),
                                             "text", g_ptr_array_index (texts, i));
          }

        if (pass == 1)
          {
            JsonObject *summary = json_object_new ();

            json_object_set_string_member (summary, "path", file->path);
            json_object_set_string_member (summary, "language", file->language);
            json_object_set_int_member (summary, "count", sites->len);
            json_object_set_int_member (summary, "definitions",
                                        counts[LODE_REFERENCE_DEFINITION]);
            json_object_set_int_member (summary, "calls", counts[LODE_REFERENCE_CALL]);
            json_object_set_int_member (summary, "types", counts[LODE_REFERENCE_TYPE]);
            json_object_set_int_member (summary, "imports", counts[LODE_REFERENCE_IMPORT]);
            json_array_add_object_element (file_array, summary);
            total += sites->len;
          }
      }

  json_object_set_int_member (report, "total", total);
  json_object_set_int_member (report, "fileCount", files->len);
  json_object_set_array_member (report, "files", file_array);
  json_object_set_array_member (report, "references", references);
  return g_steal_pointer (&report);
}
