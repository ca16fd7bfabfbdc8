/* lode-symbol-report.c — the symbol tools' answers: symbols looked up, types and functions
 * described
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-json.h"
#include "lode-language.h"
#include "lode-store.h"
#include "lode-symbol-extract.h"
#include "lode-symbol-report-private.h"

/*
 * The descriptors of issue #15, with RagCode's snake_case names: ClassDescriptor,
 * FunctionDescriptor and SymbolDescriptor, each with a SymbolLocation. They are assembled
 * from the symbols table (name, kind, container, lines, signature, package) and the details
 * the chunker stored with each symbol (lode-symbol-extract.c); a class's methods are the
 * symbols it contains (for Go and Rust, the methods declared on the type anywhere); a
 * function's code is read from the indexed chunks. Nothing is parsed here, so every answer
 * is a few index look-ups (bench/symbols-git.sh measures them).
 *
 * Packages that a file does not declare come from its path: a Python module
 * (pkg/sub/models.py → pkg.sub.models), a JavaScript or TypeScript module (its path without
 * the extension), a Rust module (src/net/client.rs → net::client), a Swift module (the
 * folder under Sources/), a C or C++ header (its path).
 */

#define MAX_CODE_LINES     400
#define MAX_MEMBERS        400

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

/* The package a path stands for in a language whose files do not declare one. */
static char *
path_package (const char *language,
              const char *path)
{
  g_autofree char *stem = NULL;
  char *dot;

  if (language_is (language, "c") || language_is (language, "cpp"))
    return g_strdup (path);

  stem = g_strdup (path);
  dot = strrchr (stem, '.');
  if (dot != NULL && strchr (dot, '/') == NULL)
    *dot = '\0';

  if (language_is (language, "python"))
    {
      char *p = g_str_has_prefix (stem, "src/") ? stem + 4 : stem;

      if (g_str_has_suffix (p, "/__init__"))
        p[strlen (p) - strlen ("/__init__")] = '\0';
      return g_strdelimit (g_strdup (p), "/", '.');
    }
  if (language_is (language, "javascript") || language_is (language, "typescript") ||
      language_is (language, "tsx"))
    return g_steal_pointer (&stem);
  if (language_is (language, "rust"))
    {
      const char *src = strstr (stem, "src/");
      g_autoptr(GString) out = g_string_new ("crate");
      g_auto(GStrv) parts = g_strsplit (src != NULL ? src + 4 : stem, "/", -1);

      for (guint i = 0; parts[i] != NULL; i++)
        {
          if (parts[i + 1] == NULL && (strcmp (parts[i], "mod") == 0 ||
                                      strcmp (parts[i], "lib") == 0 ||
                                      strcmp (parts[i], "main") == 0))
            break;
          g_string_append_printf (out, "::%s", parts[i]);
        }
      return g_string_free (g_steal_pointer (&out), FALSE);
    }
  if (language_is (language, "swift"))
    {
      const char *sources = strstr (path, "Sources/");

      if (sources != NULL)
        {
          const char *start = sources + strlen ("Sources/");
          const char *slash = strchr (start, '/');

          if (slash != NULL)
            return g_strndup (start, slash - start);
        }
      {
        g_autofree char *dir = g_path_get_dirname (path);

        return strcmp (dir, ".") != 0 ? g_path_get_basename (dir) : NULL;
      }
    }
  return NULL;
}

char *
_lode_symbol_report_symbol_package (const Symbol *symbol)
{
  if (symbol->row->package != NULL)
    return g_strdup (symbol->row->package);
  return path_package (symbol->row->language, symbol->row->path);
}

/* A module that is a file is a namespace in Python, JavaScript, Rust and Swift; a C header is
 * a package but no namespace. */
char *
_lode_symbol_report_symbol_namespace (const Symbol *symbol)
{
  const char *declared = detail_string (symbol->detail, "namespace");

  if (declared != NULL)
    return g_strdup (declared);
  if (language_is (symbol->row->language, "c") || language_is (symbol->row->language, "cpp"))
    return NULL;
  return path_package (symbol->row->language, symbol->row->path);
}

/* Whether @container is one of the namespaces or modules in @namespace, rather than a
 * class: a member of a namespace is a top-level declaration. */
gboolean
_lode_symbol_report_container_is_namespace (const char *container,
                                            const char *namespace,
                                            const char *separator)
{
  gsize n;

  if (container == NULL)
    return TRUE;
  if (namespace == NULL)
    return FALSE;
  if (strcmp (namespace, container) == 0)
    return TRUE;
  n = strlen (container);
  return strlen (namespace) > n + strlen (separator) &&
         g_str_has_suffix (namespace, container) &&
         strncmp (namespace + strlen (namespace) - n - strlen (separator), separator,
                  strlen (separator)) == 0;
}

static char *
full_name (const Symbol *symbol)
{
  const char *separator = lode_symbol_separator_for_language (symbol->row->language);
  g_autofree char *namespace = _lode_symbol_report_symbol_namespace (symbol);
  GString *out = g_string_new (namespace);

  gboolean member = !_lode_symbol_report_container_is_namespace (symbol->row->container,
                                                                 namespace, separator);

  if (member)
    {
      if (out->len > 0)
        g_string_append (out, separator);
      g_string_append (out, symbol->row->container);
    }
  if (out->len > 0)
    /* PHP: App\Models\User::posts */
    g_string_append (out, member && language_is (symbol->row->language, "php") ? "::"
                                                                             : separator);
  g_string_append (out, symbol->row->name);
  return g_string_free (out, FALSE);
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
  const char *kind = detail_string (symbol->detail, "kind");
  gboolean member;

  json_object_set_string_member (object, "language", symbol->row->language);
  json_object_set_string_member (object, "kind", kind != NULL ? kind : "function");
  json_object_set_string_member (object, "name", symbol->row->name);
  set_string (object, "namespace", namespace);
  member = !_lode_symbol_report_container_is_namespace (symbol->row->container, namespace,
                                                        lode_symbol_separator_for_language (
                                                          symbol->row->language));
  set_string (object, "class_name", member ? symbol->row->container : NULL);
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

/* The methods of a type: the functions it contains and, for Go and Rust, those declared on
 * it elsewhere (a receiver, an impl block). */
static GPtrArray *
dup_members (LodeIndexStore  *store,
             const Symbol    *type,
             GError         **error)
{
  g_autoptr(GPtrArray) members =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  g_autoptr(GPtrArray) same_file =
    lode_index_store_dup_file_symbols (store, type->row->path, error);
  gboolean anywhere = language_is (type->row->language, "go") ||
                      language_is (type->row->language, "rust");

  if (same_file == NULL)
    return NULL;
  for (guint i = 0; i < same_file->len; i++)
    {
      LodeStoredSymbol *row = g_ptr_array_index (same_file, i);

      if (g_strcmp0 (row->container, type->row->name) == 0 && is_function_kind (row->kind) &&
          (anywhere || (row->start_line >= type->row->start_line &&
                        row->end_line <= type->row->end_line)))
        g_ptr_array_add (members, g_steal_pointer (&same_file->pdata[i]));
    }

  if (anywhere)
    {
      /* Go: the package's other files; Rust: impl blocks in other modules. */
      g_autoptr(GPtrArray) named =
        lode_index_store_find_container_members (store, type->row->name, MAX_MEMBERS, error);
      g_autofree char *dir = g_path_get_dirname (type->row->path);

      if (named == NULL)
        return NULL;
      for (guint i = 0; i < named->len; i++)
        {
          LodeStoredSymbol *row = g_ptr_array_index (named, i);
          g_autofree char *row_dir = g_path_get_dirname (row->path);

          if (strcmp (row->path, type->row->path) == 0 || !is_function_kind (row->kind) ||
              (language_is (type->row->language, "go") && strcmp (row_dir, dir) != 0) ||
              g_strcmp0 (row->language, type->row->language) != 0)
            continue;
          g_ptr_array_add (members, g_steal_pointer (&named->pdata[i]));
        }
    }

  g_ptr_array_sort (members, compare_rows);
  return g_steal_pointer (&members);
}

/* Rust: `impl Trait for Type` anywhere makes Type implement Trait. */
static gboolean
add_impl_relations (LodeIndexStore  *store,
                    const Symbol    *type,
                    JsonArray       *relations,
                    GError         **error)
{
  g_autoptr(GPtrArray) impls = lode_index_store_find_symbols (store, type->row->name,
                                                              MAX_MEMBERS, error);

  if (impls == NULL)
    return FALSE;
  for (guint i = 0; i < impls->len; i++)
    {
      LodeStoredSymbol *row = g_ptr_array_index (impls, i);
      g_autoptr(JsonObject) detail = NULL;
      const char *trait;

      if (g_strcmp0 (row->kind, "impl") != 0 || !language_is (row->language, "rust"))
        continue;
      detail = parse_detail (row->detail);
      trait = detail_string (detail, "trait");
      if (trait != NULL)
        {
          JsonObject *relation = json_object_new ();

          json_object_set_string_member (relation, "kind", "implements");
          json_object_set_string_member (relation, "name", trait);
          json_object_set_null_member (relation, "target");
          json_array_add_object_element (relations, relation);
        }
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
  g_autofree char *full = full_name (symbol);
  g_autoptr(GPtrArray) members = NULL;
  const char *kind = detail_string (symbol->detail, "kind");
  JsonArray *methods = json_array_new ();
  JsonArray *relations;
  JsonArray *relationships = detail_array (symbol->detail, "relationships");
  JsonArray *signature_methods = detail_array (symbol->detail, "methods");
  JsonNode *orm = json_object_get_member (symbol->detail, "orm");

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

      json_object_set_string_member (method, "language", symbol->row->language);
      json_object_set_string_member (method, "kind", "method");
      set_string (method, "name", detail_string (stored, "name"));
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
      json_object_set_member (object, "casts", casts != NULL && JSON_NODE_HOLDS_OBJECT (casts)
                                               ? json_node_copy (casts)
                                               : json_node_init_object (json_node_alloc (),
                                                                        json_object_new ()));
      json_object_set_array_member (object, "attributes",
                                    normalize_items (detail_array (model, "attributes"),
                                                     attribute_members, attribute_flags));
    }
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

/* `geo::Circle`, `App\Models\User`, `com.acme.Account`, `Store.Get` → the last name and
 * what qualifies it. */
char *
_lode_symbol_report_split_qualified (const char  *name,
                                     char       **qualifier)
{
  static const char * const separators[] = { "::", "\\", ".", "#", "->", NULL };
  const char *best = NULL;
  gsize best_len = 0;

  for (guint i = 0; separators[i] != NULL; i++)
    {
      const char *found = g_strrstr (name, separators[i]);

      if (found != NULL && found > name && (best == NULL || found > best))
        {
          best = found;
          best_len = strlen (separators[i]);
        }
    }
  if (best == NULL || best[best_len] == '\0')
    {
      *qualifier = NULL;
      return g_strdup (name);
    }
  *qualifier = g_strndup (name, best - name);
  return g_strdup (best + best_len);
}

/* Whether @qualifier names @symbol's namespace, package, container or file: `geo`,
 * `App\Models`, `com.acme`, `store`, `Store` (the container), `src/util` (a module). */
static gboolean
qualifier_matches (const Symbol *symbol,
                   const char   *qualifier)
{
  g_autofree char *namespace = _lode_symbol_report_symbol_namespace (symbol);
  g_autofree char *package = _lode_symbol_report_symbol_package (symbol);
  const char *candidates[] = { namespace, package, symbol->row->container, symbol->row->path };

  if (qualifier == NULL || *qualifier == '\0')
    return TRUE;
  for (guint i = 0; i < G_N_ELEMENTS (candidates); i++)
    {
      const char *c = candidates[i];
      gsize n = c != NULL ? strlen (c) : 0;
      gsize q = strlen (qualifier);

      if (c == NULL)
        continue;
      /* Equal, or a suffix on a part boundary (`Models` of `App\Models`). */
      if (strcmp (c, qualifier) == 0 ||
          (n > q && strcmp (c + n - q, qualifier) == 0 &&
           strchr (".:\\/", c[n - q - 1]) != NULL) ||
          g_str_has_prefix (c, qualifier))
        return TRUE;
    }
  return FALSE;
}

/* The symbols named @name (qualified or not) of the wanted kinds. */
static GArray *
find (LodeIndexStore  *store,
      const char      *name,
      const char      *package,
      const char      *container,
      gboolean       (*wanted) (const Symbol *symbol),
      GPtrArray      **rows_out,
      GError         **error)
{
  g_autofree char *qualifier = NULL;
  g_autofree char *base = _lode_symbol_report_split_qualified (name, &qualifier);
  g_autoptr(GPtrArray) rows = lode_index_store_find_symbols (store, base,
                                                             LODE_SYMBOL_REPORT_MAX_MATCHES * 4,
                                                             error);
  GArray *found;

  if (rows == NULL)
    return NULL;
  found = g_array_new (FALSE, FALSE, sizeof (Symbol));
  g_array_set_clear_func (found, (GDestroyNotify) _lode_symbol_report_symbol_clear);
  for (guint i = 0; i < rows->len; i++)
    {
      Symbol symbol = _lode_symbol_report_symbol_from_row (g_ptr_array_index (rows, i));

      if (wanted (&symbol) && qualifier_matches (&symbol, qualifier) &&
          qualifier_matches (&symbol, package) &&
          (container == NULL || g_strcmp0 (symbol.row->container, container) == 0))
        g_array_append_val (found, symbol);
      else
        _lode_symbol_report_symbol_clear (&symbol);
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
      g_autofree char *full = full_name (symbol);

      json_object_set_string_member (candidate, "full_name", full);
      json_array_add_object_element (array, candidate);
    }
  return array;
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
