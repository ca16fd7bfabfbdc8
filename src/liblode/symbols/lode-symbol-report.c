/* lode-symbol-report.c — the symbol tools' answers: symbols looked up, types and functions
 * described
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-language.h"
#include "lode-index-store.h"
#include "lode-symbol-extract.h"
#include "lode-symbol-report-private.h"
#include "lode-symbol-scope.h"

/*
 * The descriptors of issue #15, with RagCode's snake_case names: ClassDescriptor,
 * FunctionDescriptor and SymbolDescriptor, each with a SymbolLocation. They are assembled
 * from the symbols table (name, kind, container, lines, signature, package, scope path) and
 * the details the chunker stored with each symbol (lode-symbol-extract.c); a function's code
 * is read from the indexed chunks. Nothing is parsed here, so every answer is a few index
 * look-ups (bench/symbols-git.sh measures them).
 *
 * Names are scope paths (lode-symbol-scope.c): a symbol's full name is its scope and its
 * name, a type's methods are the functions whose scope is the type's full name (its own
 * declarations and, for Go, Rust, Swift and C#, those in other files of its package or
 * crate), and a qualified name given to a tool is compared with scopes part by part, else
 * followed through the `pub use`s of the Rust module it names (`tokio::sync::Semaphore`), else
 * matched loosely. A C or C++ header is the package of what it declares.
 */

#define MAX_CODE_LINES       400
#define MAX_MEMBERS          400
#define QUALIFIED_SCAN_ROWS  5000

/* Functions, and C macros that take arguments. */
static gboolean
is_callable (const Symbol *symbol)
{
  return is_function_kind (symbol->row->kind) ||
         (g_strcmp0 (symbol->row->kind, "macro") == 0 &&
          detail_string (symbol->detail, "kind") != NULL);
}

static gboolean
is_type_symbol (const Symbol *symbol)
{
  return is_class_kind (symbol->row->kind);
}

/* A copy of stored items with every listed member present (null when the index has none). */
static JsonArray *
normalize_items (JsonArray          *items,
                 const char * const *strings,
                 const char * const *booleans)
{
  JsonArray *out = json_array_new ();

  for (guint i = 0; items != NULL && i < json_array_get_length (items); i++)
    {
      JsonNode *node = json_array_get_element (items, i);
      JsonObject *item;
      JsonObject *copy = json_object_new ();

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      item = json_node_get_object (node);
      for (guint k = 0; strings[k] != NULL; k++)
        {
          JsonNode *value = json_object_get_member (item, strings[k]);

          if (value != NULL && !JSON_NODE_HOLDS_NULL (value))
            json_object_set_member (copy, strings[k], json_node_copy (value));
          else
            json_object_set_null_member (copy, strings[k]);
        }
      for (guint k = 0; booleans != NULL && booleans[k] != NULL; k++)
        json_object_set_boolean_member (copy, booleans[k], detail_bool (item, booleans[k]));
      json_array_add_object_element (out, copy);
    }
  return out;
}

static JsonArray *
string_list (JsonArray *items)
{
  JsonArray *out = json_array_new ();

  for (guint i = 0; items != NULL && i < json_array_get_length (items); i++)
    {
      JsonNode *node = json_array_get_element (items, i);

      if (JSON_NODE_HOLDS_VALUE (node) && json_node_get_value_type (node) == G_TYPE_STRING)
        json_array_add_string_element (out, json_node_get_string (node));
    }
  return out;
}

static void
add_parameters_and_returns (JsonObject *object,
                            JsonObject *detail)
{
  static const char * const param_members[] = { "name", "type", "default", NULL };
  static const char * const return_members[] = { "type", NULL };

  json_object_set_array_member (object, "parameters",
                                normalize_items (detail_array (detail, "parameters"),
                                                 param_members, NULL));
  json_object_set_array_member (object, "returns",
                                normalize_items (detail_array (detail, "returns"),
                                                 return_members, NULL));
}

static JsonObject *
function_descriptor (const char      *root,
                     LodeIndexStore  *store,
                     const Symbol    *symbol,
                     gboolean         with_code,
                     GError         **error)
{
  JsonObject *object = json_object_new ();
  g_autofree char *namespace = _lode_symbol_report_symbol_namespace (symbol);
  g_autofree char *full = _lode_symbol_report_full_name (symbol);
  const char *kind = detail_string (symbol->detail, "kind");

  json_object_set_string_member (object, "language", symbol->row->language);
  json_object_set_string_member (object, "kind", kind != NULL ? kind : "function");
  json_object_set_string_member (object, "name", symbol->row->name);
  json_object_set_string_member (object, "full_name", full);
  set_string (object, "namespace", namespace);
  set_string (object, "class_name",
              _lode_symbol_report_is_member (symbol) ? symbol->row->container : NULL);
  set_string (object, "receiver", detail_string (symbol->detail, "receiver"));
  set_string (object, "signature", symbol->row->signature);
  set_string (object, "description", detail_string (symbol->detail, "description"));
  json_object_set_object_member (object, "location", _lode_symbol_report_location (root, symbol));
  add_parameters_and_returns (object, symbol->detail);
  set_string (object, "visibility", detail_string (symbol->detail, "visibility"));
  json_object_set_boolean_member (object, "is_static", detail_bool (symbol->detail, "is_static"));
  json_object_set_boolean_member (object, "is_abstract",
                                  detail_bool (symbol->detail, "is_abstract"));
  json_object_set_boolean_member (object, "is_final", detail_bool (symbol->detail, "is_final"));
  json_object_set_array_member (object, "tags",
                                string_list (detail_array (symbol->detail, "tags")));

  if (with_code)
    {
      guint last = MIN (symbol->row->end_line, symbol->row->start_line + MAX_CODE_LINES - 1);
      g_autofree char *code = lode_index_store_dup_lines (store, symbol->row->path,
                                                          symbol->row->start_line, last, error);

      if (code == NULL)
        {
          json_object_unref (object);
          return NULL;
        }
      json_object_set_string_member (object, "code", code);
      json_object_set_boolean_member (object, "code_truncated", last < symbol->row->end_line);
    }
  return object;
}

static gint
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const LodeStoredSymbol *x = *(LodeStoredSymbol * const *) a;
  const LodeStoredSymbol *y = *(LodeStoredSymbol * const *) b;
  int c = strcmp (x->path, y->path);

  return c != 0 ? c : (x->start_line > y->start_line) - (x->start_line < y->start_line);
}

/* Whether @row may hold declarations of @type: a file of the same language and, for Go, of
 * the same package (its folder), for Rust, of the same crate. */
static gboolean
same_unit (const LodeStoredSymbol *row,
           const Symbol           *type)
{
  if (g_strcmp0 (row->language, type->row->language) != 0)
    return FALSE;
  if (language_is (type->row->language, "go"))
    {
      g_autofree char *dir = g_path_get_dirname (type->row->path);
      g_autofree char *row_dir = g_path_get_dirname (row->path);

      return strcmp (dir, row_dir) == 0;
    }
  if (language_is (type->row->language, "rust"))
    {
      g_autofree char *crate = lode_symbol_rust_crate_dir (type->row->path);
      g_autofree char *row_crate = lode_symbol_rust_crate_dir (row->path);

      return strcmp (crate, row_crate) == 0;
    }
  return TRUE;
}

/* The methods of a type: the functions whose scope is the type. Go receivers, Rust impls,
 * Swift extensions and C# partial classes may declare them in other files of the type's
 * package or crate; in other languages they are in the type's file. */
static GPtrArray *
dup_members (LodeIndexStore  *store,
             const Symbol    *type,
             GError         **error)
{
  static const char * const elsewhere[] = { "go", "rust", "swift", "csharp", NULL };
  g_autoptr(GPtrArray) members =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  g_autoptr(GPtrArray) named = NULL;
  g_autofree char *qualified = _lode_symbol_report_full_name (type);
  gboolean anywhere = g_strv_contains (elsewhere, type->row->language);

  /* The file's symbols are indexed; members by container are a scan of the table. */
  named = anywhere ? lode_index_store_find_container_members (store, type->row->name,
                                                              MAX_MEMBERS, error)
                   : lode_index_store_dup_file_symbols (store, type->row->path, error);
  if (named == NULL)
    return NULL;
  for (guint i = 0; i < named->len; i++)
    {
      LodeStoredSymbol *row = g_ptr_array_index (named, i);

      if (is_function_kind (row->kind) && g_strcmp0 (row->scope, qualified) == 0 &&
          (anywhere ? same_unit (row, type) : strcmp (row->path, type->row->path) == 0))
        g_ptr_array_add (members, g_steal_pointer (&named->pdata[i]));
    }

  g_ptr_array_sort (members, compare_rows);
  return g_steal_pointer (&members);
}

/* Rust: `impl Trait for Type` anywhere in the crate makes Type implement Trait. */
static gboolean
add_impl_relations (LodeIndexStore  *store,
                    const Symbol    *type,
                    JsonArray       *relations,
                    GError         **error)
{
  g_autoptr(GPtrArray) impls = lode_index_store_find_symbols (store, type->row->name,
                                                              MAX_MEMBERS, error);
  g_autofree char *qualified = _lode_symbol_report_full_name (type);

  if (impls == NULL)
    return FALSE;
  for (guint i = 0; i < impls->len; i++)
    {
      Symbol impl = _lode_symbol_report_symbol_from_row (g_ptr_array_index (impls, i));
      g_autofree char *impl_name = _lode_symbol_report_full_name (&impl);
      const char *trait = detail_string (impl.detail, "trait");

      if (g_strcmp0 (impl.row->kind, "impl") == 0 && strcmp (impl_name, qualified) == 0 &&
          same_unit (impl.row, type) && trait != NULL)
        {
          JsonObject *relation = json_object_new ();

          json_object_set_string_member (relation, "kind", "implements");
          json_object_set_string_member (relation, "name", trait);
          json_object_set_null_member (relation, "target");
          json_array_add_object_element (relations, relation);
        }
      _lode_symbol_report_symbol_clear (&impl);
    }
  return TRUE;
}

static JsonObject *
class_descriptor (const char      *root,
                  LodeIndexStore  *store,
                  const Symbol    *symbol,
                  GError         **error)
{
  static const char * const field_members[] = {
    "name", "type", "default", "visibility", "description", NULL
  };
  static const char * const field_flags[] = { "is_static", NULL };
  static const char * const relation_members[] = { "kind", "name", "target", NULL };
  static const char * const orm_lists[] = { "fillable", "hidden", "visible", "appends",
                                            "guarded", "scopes", NULL };
  JsonObject *object = json_object_new ();
  g_autofree char *namespace = _lode_symbol_report_symbol_namespace (symbol);
  g_autofree char *package = _lode_symbol_report_symbol_package (symbol);
  g_autofree char *full = _lode_symbol_report_full_name (symbol);
  g_autoptr(GPtrArray) members = NULL;
  const char *kind = detail_string (symbol->detail, "kind");
  JsonArray *methods = json_array_new ();
  JsonArray *relations;
  JsonArray *relationships = detail_array (symbol->detail, "relationships");
  JsonArray *signature_methods = detail_array (symbol->detail, "methods");
  JsonNode *orm = json_object_get_member (symbol->detail, "orm");
  const char *separator = lode_symbol_separator_for_language (symbol->row->language);

  json_object_set_string_member (object, "language", symbol->row->language);
  json_object_set_string_member (object, "kind", kind != NULL ? kind : symbol->row->kind);
  json_object_set_string_member (object, "name", symbol->row->name);
  set_string (object, "namespace", namespace);
  set_string (object, "package", package);
  json_object_set_string_member (object, "full_name", full);
  set_string (object, "signature", symbol->row->signature);
  set_string (object, "description", detail_string (symbol->detail, "description"));
  json_object_set_object_member (object, "location", _lode_symbol_report_location (root, symbol));
  set_string (object, "visibility", detail_string (symbol->detail, "visibility"));
  json_object_set_boolean_member (object, "is_abstract",
                                  detail_bool (symbol->detail, "is_abstract"));
  json_object_set_boolean_member (object, "is_final", detail_bool (symbol->detail, "is_final"));
  json_object_set_array_member (object, "fields",
                                normalize_items (detail_array (symbol->detail, "fields"),
                                                 field_members, field_flags));

  members = dup_members (store, symbol, error);
  if (members == NULL)
    {
      json_array_unref (methods);
      json_object_unref (object);
      return NULL;
    }
  for (guint i = 0; i < members->len; i++)
    {
      Symbol member = _lode_symbol_report_symbol_from_row (g_ptr_array_index (members, i));
      JsonObject *method = function_descriptor (root, store, &member, FALSE, NULL);

      json_array_add_object_element (methods, method);
      _lode_symbol_report_symbol_clear (&member);
    }
  /* Interface members that are no declarations of their own (Go, TypeScript). */
  for (guint i = 0; signature_methods != NULL && i < json_array_get_length (signature_methods);
       i++)
    {
      JsonObject *stored = json_array_get_object_element (signature_methods, i);
      JsonObject *method = json_object_new ();
      g_autofree char *method_name = g_strconcat (full, separator,
                                                  detail_string (stored, "name"), NULL);

      json_object_set_string_member (method, "language", symbol->row->language);
      json_object_set_string_member (method, "kind", "method");
      set_string (method, "name", detail_string (stored, "name"));
      json_object_set_string_member (method, "full_name", method_name);
      set_string (method, "namespace", namespace);
      json_object_set_string_member (method, "class_name", symbol->row->name);
      json_object_set_null_member (method, "receiver");
      set_string (method, "signature", detail_string (stored, "signature"));
      set_string (method, "description", detail_string (stored, "description"));
      json_object_set_object_member (method, "location",
                                     _lode_symbol_report_location (root, symbol));
      add_parameters_and_returns (method, stored);
      json_object_set_string_member (method, "visibility", "public");
      json_object_set_boolean_member (method, "is_static", FALSE);
      json_object_set_boolean_member (method, "is_abstract", TRUE);
      json_object_set_boolean_member (method, "is_final", FALSE);
      json_object_set_array_member (method, "tags", json_array_new ());
      json_array_add_object_element (methods, method);
    }
  json_object_set_array_member (object, "methods", methods);

  relations = normalize_items (detail_array (symbol->detail, "relations"), relation_members,
                               NULL);
  if (relationships != NULL)
    {
      g_autoptr(JsonArray) extra = normalize_items (relationships, relation_members, NULL);

      for (guint i = 0; i < json_array_get_length (extra); i++)
        json_array_add_element (relations, json_node_copy (json_array_get_element (extra, i)));
    }
  if (language_is (symbol->row->language, "rust") &&
      !add_impl_relations (store, symbol, relations, error))
    {
      json_array_unref (relations);
      json_object_unref (object);
      return NULL;
    }
  json_object_set_array_member (object, "relations", relations);
  json_object_set_array_member (object, "tags",
                                string_list (detail_array (symbol->detail, "tags")));

  if (orm != NULL && JSON_NODE_HOLDS_OBJECT (orm))
    {
      JsonObject *model = json_node_get_object (orm);
      JsonNode *casts = json_object_get_member (model, "casts");
      static const char * const attribute_members[] = { "name", "method", NULL };
      static const char * const attribute_flags[] = { "get", "set", NULL };

      set_string (object, "table", detail_string (model, "table"));
      for (guint i = 0; orm_lists[i] != NULL; i++)
        json_object_set_array_member (object, orm_lists[i],
                                      string_list (detail_array (model, orm_lists[i])));
      if (casts != NULL && JSON_NODE_HOLDS_OBJECT (casts))
        json_object_set_member (object, "casts", json_node_copy (casts));
      else
        json_object_set_object_member (object, "casts", json_object_new ());
      json_object_set_array_member (object, "attributes",
                                    normalize_items (detail_array (model, "attributes"),
                                                     attribute_members, attribute_flags));
    }
  return object;
}

/* The parts of @row's scope path; a Rust path may start with its crate's name instead of
 * `crate` (`tokio::sync::Notify`), as code outside the crate writes it. */
static GStrv
scope_parts (const LodeStoredSymbol *row,
             const char             *first)
{
  GStrv parts = lode_symbol_name_parts (row->scope != NULL ? row->scope : "");

  if (first != NULL && language_is (row->language, "rust") && parts[0] != NULL &&
      strcmp (parts[0], "crate") == 0 && strcmp (first, "crate") != 0)
    {
      g_autofree char *crate = lode_symbol_rust_crate_dir (row->path);
      g_autofree char *dir = g_path_get_dirname (crate);
      g_autofree char *name = g_path_get_basename (dir);

      if (strcmp (g_strdelimit (name, "-", '_'), first) == 0)
        {
          g_free (parts[0]);
          parts[0] = g_strdup (first);
        }
    }
  return parts;
}

/* Whether @qualifier (the parts before a name) names @row's scope: its last parts (`Notify`
 * for `crate::sync::notify::Notify`, not for `…::NotifyGuard`), or when @loose, some of its
 * parts in order (`crate::sync` for `crate::sync::semaphore`, as a module re-exports it); or,
 * for a symbol without a scope (C), its file (`strbuf.h`, `src/util`). */
static gboolean
qualifies (const LodeStoredSymbol *row,
           const char * const     *qualifier,
           gboolean                loose)
{
  g_auto(GStrv) scope = NULL;
  g_auto(GStrv) path = NULL;
  g_autofree char *stem = NULL;
  char *dot;

  if (qualifier[0] == NULL)
    return TRUE;
  scope = scope_parts (row, qualifier[0]);
  if (lode_symbol_parts_end_with ((const char * const *) scope, qualifier) ||
      (loose && lode_symbol_parts_contain ((const char * const *) scope, qualifier)))
    return TRUE;
  if (row->scope != NULL)
    return FALSE;
  path = lode_symbol_name_parts (row->path);
  if (lode_symbol_parts_end_with ((const char * const *) path, qualifier))
    return TRUE;
  stem = g_strdup (row->path);
  dot = strrchr (stem, '.');
  if (dot != NULL && strchr (dot, '/') == NULL)
    *dot = '\0';
  g_strfreev (path);
  path = lode_symbol_name_parts (stem);
  return lode_symbol_parts_end_with ((const char * const *) path, qualifier);
}

/* Whether @row is in @package: its module, package, namespace or scope, or a file or folder
 * (`tokio/src/sync`, `src/strbuf.h`, `strbuf.h`). */
static gboolean
in_package (const LodeStoredSymbol *row,
            const char             *package)
{
  g_auto(GStrv) parts = NULL;
  gsize n, m;

  if (package == NULL)
    return TRUE;
  parts = lode_symbol_name_parts (package);
  n = strlen (package);
  m = strlen (row->path);
  return qualifies (row, (const char * const *) parts, FALSE) ||
         g_strcmp0 (row->package, package) == 0 ||
         (g_str_has_prefix (row->path, package) &&
          (row->path[n] == '\0' || row->path[n] == '/' || package[n - 1] == '/')) ||
         (m > n && g_str_has_suffix (row->path, package) && row->path[m - n - 1] == '/');
}

/* Appends to @rows the items named @base that the Rust module @qualifier (`crate::task`,
 * `tokio::task`) re-exports with `pub use`; FALSE on error or when there are none. */
static gboolean
add_rust_reexports (LodeIndexStore  *store,
                    GStrv            qualifier,
                    const char      *base,
                    GPtrArray       *rows,
                    GError         **error)
{
  g_autofree char *rest = g_strjoinv ("::", qualifier + 1);
  g_autofree char *module = g_strconcat ("crate", *rest != '\0' ? "::" : "", rest, NULL);
  g_autoptr(GPtrArray) items = NULL;
  guint before = rows->len;

  /* `tokio::task`: the crate's own name stands for `crate`. */
  items = _lode_symbol_report_rust_reexports (store, module, base, error);
  if (items == NULL)
    return FALSE;
  for (guint i = 0; i < items->len; i++)
    if (strcmp (((LodeStoredSymbol *) items->pdata[i])->name, base) == 0)
      g_ptr_array_add (rows, g_steal_pointer (&items->pdata[i]));
  return rows->len > before;
}

/* The symbols named @name (qualified or not) of the wanted kinds; when a qualified name
 * names no scope exactly, what a Rust module of that name re-exports, else those whose scope
 * holds its parts in order. */
static GArray *
find (LodeIndexStore  *store,
      const char      *name,
      const char      *package,
      const char      *container,
      gboolean       (*wanted) (const Symbol *symbol),
      GPtrArray      **rows_out,
      GError         **error)
{
  g_auto(GStrv) parts = lode_symbol_name_parts (name);
  guint n = g_strv_length (parts);
  g_autofree char *base = g_strdup (n > 0 ? parts[n - 1] : name);
  g_autoptr(GPtrArray) rows = NULL;
  GArray *found;
  guint n_named;

  /* A qualified name is narrowed here, not by the store: `new` has thousands. */
  rows = lode_index_store_find_symbols (store, base,
                                        n > 1 ? QUALIFIED_SCAN_ROWS
                                              : LODE_SYMBOL_REPORT_MAX_MATCHES * 4,
                                        error);
  if (rows == NULL)
    return NULL;
  n_named = rows->len;
  if (n > 0)
    {
      g_free (parts[n - 1]);
      parts[n - 1] = NULL;
    }
  found = g_array_new (FALSE, FALSE, sizeof (Symbol));
  g_array_set_clear_func (found, (GDestroyNotify) _lode_symbol_report_symbol_clear);
  for (guint pass = 0; pass < 3 && found->len == 0; pass++)
    {
      guint first = 0, last = n_named;

      /* Then as a Rust module re-exports it; then loosely. */
      if (pass == 1)
        {
          if (n <= 1 || !add_rust_reexports (store, parts, base, rows, error))
            {
              if (error != NULL && *error != NULL)
                {
                  g_array_unref (found);
                  return NULL;
                }
              continue;
            }
          first = n_named;
          last = rows->len;
        }
      for (guint i = first; i < last; i++)
        {
          LodeStoredSymbol *row = g_ptr_array_index (rows, i);
          Symbol symbol;

          if ((pass != 1 && !qualifies (row, (const char * const *) parts, pass == 2)) ||
              !in_package (row, package) ||
              (container != NULL && g_strcmp0 (row->container, container) != 0))
            continue;
          symbol = _lode_symbol_report_symbol_from_row (row);
          if (wanted (&symbol))
            g_array_append_val (found, symbol);
          else
            _lode_symbol_report_symbol_clear (&symbol);
        }
    }
  *rows_out = g_steal_pointer (&rows);
  return found;
}

static JsonArray *
candidates (const char  *root,
            GArray      *found)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < found->len && i < LODE_SYMBOL_REPORT_MAX_MATCHES; i++)
    {
      const Symbol *symbol = &g_array_index (found, Symbol, i);
      JsonObject *candidate = _lode_symbol_report_symbol_descriptor (root, symbol);
      g_autofree char *full = _lode_symbol_report_full_name (symbol);

      json_object_set_string_member (candidate, "full_name", full);
      json_array_add_object_element (array, candidate);
    }
  return array;
}

/**
 * lode_symbol_report_type:
 * @store: the index
 * @query: `name`, a type's name, plain or qualified (`User`, `App\Models\User`,
 *   `geo::Circle`), and `package`, its package or namespace
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{project, query, count, type: ClassDescriptor|null,
 *   candidates: [SymbolDescriptor + full_name], hint|null}`; `type` when exactly one type
 *   matches, `candidates` when several do
 */
JsonObject *
lode_symbol_report_type (LodeIndexStore         *store,
                         const LodeSymbolQuery  *query,
                         GError                **error)
{
  const char *root = query->root;
  const char *type_name = query->name;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(JsonObject) report = NULL;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (store), NULL);
  g_return_val_if_fail (query->root != NULL && query->name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if ((found = find (store, type_name, query->package, NULL, is_type_symbol, &rows,
                     error)) == NULL)
    return NULL;

  report = _lode_symbol_report_report_new (root, type_name);
  json_object_set_int_member (report, "count", found->len);
  if (found->len == 1)
    {
      JsonObject *type = class_descriptor (root, store, &g_array_index (found, Symbol, 0),
                                           error);

      if (type == NULL)
        return NULL;
      json_object_set_object_member (report, "type", type);
      json_object_set_array_member (report, "candidates", json_array_new ());
      json_object_set_null_member (report, "hint");
    }
  else
    {
      json_object_set_null_member (report, "type");
      json_object_set_array_member (report, "candidates", candidates (root, found));
      set_string (report, "hint",
                  found->len == 0
                  ? "No type of that name is indexed; codebase_search finds it by other words, "
                    "codebase_update indexes recent changes"
                  : "Several types have that name: call again with package (or a qualified "
                    "name such as App\\Models\\User or geo::Circle)");
    }
  return g_steal_pointer (&report);
}

/* Definitions before prototypes, then by path. */
static gint
compare_definitions_first (gconstpointer a,
                           gconstpointer b)
{
  const Symbol *x = a;
  const Symbol *y = b;
  gboolean px = g_strcmp0 (x->row->kind, "prototype") == 0;
  gboolean py = g_strcmp0 (y->row->kind, "prototype") == 0;

  if (px != py)
    return px - py;
  return compare_rows (&x->row, &y->row);
}

/**
 * lode_symbol_report_function:
 * @store: the index
 * @query: `name`, a function's or method's name, plain or qualified (`Store.Get`);
 *   `package`, its package or namespace; `class_name`, the class, struct or type it
 *   belongs to
 * @error: return location for a #GError
 *
 * A C or C++ function declared in a header and defined in a source file is one function:
 * its definition, with the declaration's location as `declaration`.
 *
 * Returns: (transfer full) (nullable): `{project, query, count, function:
 *   FunctionDescriptor|null, candidates, hint|null}`
 */
JsonObject *
lode_symbol_report_function (LodeIndexStore         *store,
                             const LodeSymbolQuery  *query,
                             GError                **error)
{
  const char *root = query->root;
  const char *function_name = query->name;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(JsonObject) report = NULL;
  guint definitions = 0;

  if ((found = find (store, function_name, query->package, query->class_name,
                     is_callable, &rows, error)) == NULL)
    return NULL;

  g_array_sort (found, compare_definitions_first);
  for (guint i = 0; i < found->len; i++)
    definitions += g_strcmp0 (g_array_index (found, Symbol, i).row->kind, "prototype") != 0;

  report = _lode_symbol_report_report_new (root, function_name);
  json_object_set_int_member (report, "count", found->len);
  /* One definition, perhaps with its prototypes; or only one prototype. */
  if (definitions == 1 || (definitions == 0 && found->len == 1))
    {
      const Symbol *chosen = &g_array_index (found, Symbol, 0);
      JsonObject *function = function_descriptor (root, store, chosen, TRUE, error);

      if (function == NULL)
        return NULL;
      if (found->len > 1)
        json_object_set_object_member (function, "declaration",
                                       _lode_symbol_report_location (root,
                                                                     &g_array_index (found,
                                                                                     Symbol, 1)));
      json_object_set_object_member (report, "function", function);
      json_object_set_array_member (report, "candidates", json_array_new ());
      json_object_set_null_member (report, "hint");
    }
  else
    {
      json_object_set_null_member (report, "function");
      json_object_set_array_member (report, "candidates", candidates (root, found));
      set_string (report, "hint",
                  found->len == 0
                  ? "No function or method of that name is indexed; codebase_search finds "
                    "code by other words"
                  : "Several functions have that name: call again with class_name or package "
                    "(or a qualified name such as Store.Get)");
    }
  return g_steal_pointer (&report);
}
