/* lode-symbol-report.c — the symbol tools' answers: descriptors and references
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-i18n.h"
#include "lode-json.h"
#include "lode-language.h"
#include "lode-index-store.h"
#include "lode-symbol-extract.h"
#include "lode-symbol-report.h"

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
#define PACKAGE_SCAN_ROWS  5000

typedef struct
{
  LodeStoredSymbol *row;
  JsonObject       *detail;   /* (owned) never NULL */
} Symbol;

static void
symbol_clear (Symbol *symbol)
{
  g_clear_pointer (&symbol->detail, json_object_unref);
}

static gpointer report_type       (LodeProject *project, LodeIndexStore *store, gpointer data,
                                   GError **error);
static gpointer report_function   (LodeProject *project, LodeIndexStore *store, gpointer data,
                                   GError **error);
static gpointer report_exports    (LodeProject *project, LodeIndexStore *store, gpointer data,
                                   GError **error);
static gpointer report_references (LodeProject *project, LodeIndexStore *store, gpointer data,
                                   GError **error);

/* What a report asks; the look-ups run on the project's read connection
 * (lode_project_read()). */
typedef struct
{
  const char *name;
  const char *package;
  const char *class_name;
  const char *symbol_type;
  guint       limit;
} Query;

static JsonObject *
parse_detail (const char *detail)
{
  /* Written by the indexer, but read back from a file that may have been damaged. */
  g_autoptr(JsonNode) node = detail != NULL ? lode_json_parse (detail, -1, NULL) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    return json_object_new ();
  return json_node_dup_object (node);
}

static Symbol
symbol_from_row (LodeStoredSymbol *row)
{
  Symbol symbol = { row, parse_detail (row->detail) };

  return symbol;
}

static const char *
detail_string (JsonObject *detail,
               const char *member)
{
  JsonNode *node = json_object_get_member (detail, member);

  return node != NULL && JSON_NODE_HOLDS_VALUE (node) &&
         json_node_get_value_type (node) == G_TYPE_STRING ? json_node_get_string (node) : NULL;
}

static gboolean
detail_bool (JsonObject *detail,
             const char *member)
{
  return json_object_get_boolean_member_with_default (detail, member, FALSE);
}

static JsonArray *
detail_array (JsonObject *detail,
              const char *member)
{
  JsonNode *node = json_object_get_member (detail, member);

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

static void
set_string (JsonObject *object,
            const char *member,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
  else
    json_object_set_null_member (object, member);
}

static gboolean
is_class_kind (const char *kind)
{
  static const char * const kinds[] = {
    "class", "struct", "interface", "trait", "enum", "union", "record", "protocol", "object",
    "extension", "type", NULL
  };

  return kind != NULL && g_strv_contains (kinds, kind);
}

static gboolean
is_function_kind (const char *kind)
{
  static const char * const kinds[] = { "function", "method", "prototype", NULL };

  return kind != NULL && g_strv_contains (kinds, kind);
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

/* Packages ----------------------------------------------------------------------------- */

static gboolean
language_is (const char *language,
             const char *id)
{
  return g_strcmp0 (language, id) == 0;
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

static char *
symbol_package (const Symbol *symbol)
{
  if (symbol->row->package != NULL)
    return g_strdup (symbol->row->package);
  return path_package (symbol->row->language, symbol->row->path);
}

/* A module that is a file is a namespace in Python, JavaScript, Rust and Swift; a C header is
 * a package but no namespace. */
static char *
symbol_namespace (const Symbol *symbol)
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
static gboolean
container_is_namespace (const char *container,
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
  g_autofree char *namespace = symbol_namespace (symbol);
  GString *out = g_string_new (namespace);

  gboolean member = !container_is_namespace (symbol->row->container, namespace, separator);

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

/* Descriptors -------------------------------------------------------------------------- */

static JsonObject *
location (LodeProject  *project,
          const Symbol *symbol)
{
  JsonObject *object = json_object_new ();
  g_autofree char *absolute = g_build_filename (lode_project_get_root (project),
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
function_descriptor (LodeProject     *project,
                     LodeIndexStore  *store,
                     const Symbol    *symbol,
                     gboolean         with_code,
                     GError         **error)
{
  JsonObject *object = json_object_new ();
  g_autofree char *namespace = symbol_namespace (symbol);
  const char *kind = detail_string (symbol->detail, "kind");

  json_object_set_string_member (object, "language", symbol->row->language);
  json_object_set_string_member (object, "kind", kind != NULL ? kind : "function");
  json_object_set_string_member (object, "name", symbol->row->name);
  set_string (object, "namespace", namespace);
  set_string (object, "class_name", container_is_namespace (symbol->row->container, namespace,
                                                            lode_symbol_separator_for_language (
                                                              symbol->row->language))
                                    ? NULL : symbol->row->container);
  set_string (object, "receiver", detail_string (symbol->detail, "receiver"));
  set_string (object, "signature", symbol->row->signature);
  set_string (object, "description", detail_string (symbol->detail, "description"));
  json_object_set_object_member (object, "location", location (project, symbol));
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
class_descriptor (LodeProject     *project,
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
  g_autofree char *namespace = symbol_namespace (symbol);
  g_autofree char *package = symbol_package (symbol);
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
  json_object_set_object_member (object, "location", location (project, symbol));
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
      Symbol member = symbol_from_row (g_ptr_array_index (members, i));
      JsonObject *method = function_descriptor (project, store, &member, FALSE, NULL);

      json_array_add_object_element (methods, method);
      symbol_clear (&member);
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
      json_object_set_object_member (method, "location", location (project, symbol));
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

static JsonObject *
symbol_descriptor (LodeProject  *project,
                   const Symbol *symbol)
{
  JsonObject *object = json_object_new ();
  g_autofree char *namespace = symbol_namespace (symbol);
  g_autofree char *package = symbol_package (symbol);
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
  json_object_set_object_member (object, "location", location (project, symbol));
  return object;
}

/* Look-ups ----------------------------------------------------------------------------- */

/* `geo::Circle`, `App\Models\User`, `com.acme.Account`, `Store.Get` → the last name and
 * what qualifies it. */
static char *
split_qualified (const char  *name,
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
  g_autofree char *namespace = symbol_namespace (symbol);
  g_autofree char *package = symbol_package (symbol);
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
  g_autofree char *base = split_qualified (name, &qualifier);
  g_autoptr(GPtrArray) rows = lode_index_store_find_symbols (store, base,
                                                             LODE_SYMBOL_REPORT_MAX_MATCHES * 4,
                                                             error);
  GArray *found;

  if (rows == NULL)
    return NULL;
  found = g_array_new (FALSE, FALSE, sizeof (Symbol));
  g_array_set_clear_func (found, (GDestroyNotify) symbol_clear);
  for (guint i = 0; i < rows->len; i++)
    {
      Symbol symbol = symbol_from_row (g_ptr_array_index (rows, i));

      if (wanted (&symbol) && qualifier_matches (&symbol, qualifier) &&
          qualifier_matches (&symbol, package) &&
          (container == NULL || g_strcmp0 (symbol.row->container, container) == 0))
        g_array_append_val (found, symbol);
      else
        symbol_clear (&symbol);
    }
  *rows_out = g_steal_pointer (&rows);
  return found;
}

static JsonArray *
candidates (LodeProject *project,
            GArray      *found)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; i < found->len && i < LODE_SYMBOL_REPORT_MAX_MATCHES; i++)
    {
      const Symbol *symbol = &g_array_index (found, Symbol, i);
      JsonObject *candidate = symbol_descriptor (project, symbol);
      g_autofree char *full = full_name (symbol);

      json_object_set_string_member (candidate, "full_name", full);
      json_array_add_object_element (array, candidate);
    }
  return array;
}

static JsonObject *
report_new (LodeProject *project,
            const char  *query)
{
  JsonObject *report = json_object_new ();

  json_object_set_string_member (report, "project", lode_project_get_root (project));
  json_object_set_string_member (report, "query", query);
  return report;
}

/**
 * lode_symbol_report_type:
 * @project: an indexed project
 * @type_name: a type's name, plain or qualified (`User`, `App\Models\User`, `geo::Circle`)
 * @package: (nullable): its package or namespace
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{project, query, count, type: ClassDescriptor|null,
 *   candidates: [SymbolDescriptor + full_name], hint|null}`; `type` when exactly one type
 *   matches, `candidates` when several do
 */
JsonObject *
lode_symbol_report_type (LodeProject  *project,
                         const char   *type_name,
                         const char   *package,
                         GError      **error)
{
  Query query = { type_name, package, NULL, NULL, 0 };

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);
  g_return_val_if_fail (type_name != NULL, NULL);

  return lode_project_read (project, report_type, &query, error);
}

static gpointer
report_type (LodeProject     *project,
             LodeIndexStore  *store,
             gpointer         data,
             GError         **error)
{
  const Query *query = data;
  const char *type_name = query->name;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(GArray) found = NULL;
  g_autoptr(JsonObject) report = NULL;

  if ((found = find (store, type_name, query->package, NULL, is_type_symbol, &rows,
                     error)) == NULL)
    return NULL;

  report = report_new (project, type_name);
  json_object_set_int_member (report, "count", found->len);
  if (found->len == 1)
    {
      JsonObject *type = class_descriptor (project, store, &g_array_index (found, Symbol, 0),
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
      json_object_set_array_member (report, "candidates", candidates (project, found));
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
 * @project: an indexed project
 * @function_name: a function's or method's name, plain or qualified (`Store.Get`)
 * @package: (nullable): its package or namespace
 * @class_name: (nullable): the class, struct or type it belongs to
 * @error: return location for a #GError
 *
 * A C or C++ function declared in a header and defined in a source file is one function:
 * its definition, with the declaration's location as `declaration`.
 *
 * Returns: (transfer full) (nullable): `{project, query, count, function:
 *   FunctionDescriptor|null, candidates, hint|null}`
 */
JsonObject *
lode_symbol_report_function (LodeProject  *project,
                             const char   *function_name,
                             const char   *package,
                             const char   *class_name,
                             GError      **error)
{
  Query query = { function_name, package, class_name, NULL, 0 };

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);
  g_return_val_if_fail (function_name != NULL, NULL);

  return lode_project_read (project, report_function, &query, error);
}

static gpointer
report_function (LodeProject     *project,
                 LodeIndexStore  *store,
                 gpointer         data,
                 GError         **error)
{
  const Query *query = data;
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

  report = report_new (project, function_name);
  json_object_set_int_member (report, "count", found->len);
  /* One definition, perhaps with its prototypes; or only one prototype. */
  if (definitions == 1 || (definitions == 0 && found->len == 1))
    {
      const Symbol *chosen = &g_array_index (found, Symbol, 0);
      JsonObject *function = function_descriptor (project, store, chosen, TRUE, error);

      if (function == NULL)
        return NULL;
      if (found->len > 1)
        json_object_set_object_member (function, "declaration",
                                       location (project, &g_array_index (found, Symbol, 1)));
      json_object_set_object_member (report, "function", function);
      json_object_set_array_member (report, "candidates", json_array_new ());
      json_object_set_null_member (report, "hint");
    }
  else
    {
      json_object_set_null_member (report, "function");
      json_object_set_array_member (report, "candidates", candidates (project, found));
      set_string (report, "hint",
                  found->len == 0
                  ? "No function or method of that name is indexed; codebase_search finds "
                    "code by other words"
                  : "Several functions have that name: call again with class_name or package "
                    "(or a qualified name such as Store.Get)");
    }
  return g_steal_pointer (&report);
}

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
  g_autofree char *namespace = symbol_namespace (symbol);
  const char *separator = lode_symbol_separator_for_language (symbol->row->language);

  if (!detail_bool (symbol->detail, "exported"))
    return FALSE;
  if (g_strcmp0 (symbol->row->kind, "namespace") == 0 ||
      g_strcmp0 (symbol->row->kind, "impl") == 0)
    return FALSE;
  return container_is_namespace (symbol->row->container, namespace, separator);
}

/**
 * lode_symbol_report_exports:
 * @project: an indexed project
 * @package: a package as the language names it: a Go package (name or folder), a PHP or C#
 *   namespace, a Java or Kotlin package, a Python module (`pkg.sub.models`), a JavaScript or
 *   TypeScript module (`src/api/client`), a Rust module (`crate::net`), a C header
 *   (`strbuf.h`)
 * @symbol_type: (nullable): only symbols of this kind (function, class, struct, interface,
 *   type, constant, variable, method, …)
 * @limit: symbols at most
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): `{project, query, package, count, total, exports:
 *   [SymbolDescriptor], hint|null}`
 */
JsonObject *
lode_symbol_report_exports (LodeProject  *project,
                            const char   *package,
                            const char   *symbol_type,
                            guint         limit,
                            GError      **error)
{
  Query query = { package, NULL, NULL, symbol_type, limit };

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);
  g_return_val_if_fail (package != NULL, NULL);

  return lode_project_read (project, report_exports, &query, error);
}

static gpointer
report_exports (LodeProject     *project,
                LodeIndexStore  *store,
                gpointer         data,
                GError         **error)
{
  const Query *query = data;
  const char *package = query->name;
  const char *symbol_type = query->symbol_type;
  guint limit = query->limit;
  g_autoptr(GPtrArray) rows = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonArray *exports;
  guint total = 0;

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

  report = report_new (project, package);
  exports = json_array_new ();
  for (guint i = 0; i < rows->len; i++)
    {
      Symbol symbol = symbol_from_row (g_ptr_array_index (rows, i));

      if (is_export (&symbol) && kind_matches (&symbol, symbol_type))
        {
          if (total < limit)
            json_array_add_object_element (exports, symbol_descriptor (project, &symbol));
          total++;
        }
      symbol_clear (&symbol);
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

/**
 * lode_symbol_report_references:
 * @project: an indexed project
 * @symbol: an identifier (a qualified name is looked up by its last part)
 * @limit: references to list at most (counts cover all)
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
lode_symbol_report_references (LodeProject  *project,
                               const char   *symbol,
                               guint         limit,
                               GError      **error)
{
  Query query = { symbol, NULL, NULL, NULL, limit };

  g_return_val_if_fail (LODE_IS_PROJECT (project), NULL);
  g_return_val_if_fail (symbol != NULL, NULL);

  return lode_project_read (project, report_references, &query, error);
}

static gpointer
report_references (LodeProject     *project,
                   LodeIndexStore  *store,
                   gpointer         data,
                   GError         **error)
{
  const Query *query = data;
  const char *symbol = query->name;
  guint limit = query->limit;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *qualifier = NULL;
  g_autofree char *name = NULL;
  JsonArray *file_array;
  JsonArray *references;
  guint total = 0, listed = 0;

  name = split_qualified (symbol, &qualifier);
  files = lode_index_store_find_references (store, name, error);
  if (files == NULL)
    return NULL;

  report = report_new (project, symbol);
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

/* Markdown ------------------------------------------------------------------------------ */

static const char *
get_string (JsonObject *object,
            const char *member)
{
  return object != NULL ? detail_string (object, member) : NULL;
}

static void
append_location (GString    *out,
                 JsonObject *location)
{
  g_string_append_printf (out, "`%s:%" G_GINT64_FORMAT "-%" G_GINT64_FORMAT "`",
                          get_string (location, "file_path"),
                          json_object_get_int_member (location, "start_line"),
                          json_object_get_int_member (location, "end_line"));
}

static void
append_parameters (GString    *out,
                   JsonObject *function)
{
  JsonArray *parameters = detail_array (function, "parameters");
  JsonArray *returns = detail_array (function, "returns");

  for (guint i = 0; parameters != NULL && i < json_array_get_length (parameters); i++)
    {
      JsonObject *p = json_array_get_object_element (parameters, i);

      g_string_append_printf (out, "  - `%s`", get_string (p, "name"));
      if (get_string (p, "type") != NULL)
        g_string_append_printf (out, ": `%s`", get_string (p, "type"));
      if (get_string (p, "default") != NULL)
        g_string_append_printf (out, " = `%s`", get_string (p, "default"));
      g_string_append_c (out, '\n');
    }
  for (guint i = 0; returns != NULL && i < json_array_get_length (returns); i++)
    g_string_append_printf (out, "  - returns `%s`\n",
                            get_string (json_array_get_object_element (returns, i), "type"));
}

static void
append_candidates (GString    *out,
                   JsonObject *report,
                   const char *what)
{
  JsonArray *list = detail_array (report, "candidates");
  guint n = list != NULL ? json_array_get_length (list) : 0;

  if (n == 0)
    {
      g_string_append_printf (out, "No %s named “%s”. %s.\n", what, get_string (report, "query"),
                              get_string (report, "hint"));
      return;
    }
  g_string_append_printf (out, "## ");
  lode_append_count (out, json_object_get_int_member (report, "count"), "%u match",
                     "%u matches");
  g_string_append_printf (out, " for “%s”\n\n", get_string (report, "query"));
  for (guint i = 0; i < n; i++)
    {
      JsonObject *c = json_array_get_object_element (list, i);

      g_string_append_printf (out, "- %s `%s` at ", get_string (c, "kind"),
                              get_string (c, "full_name"));
      append_location (out, json_object_get_object_member (c, "location"));
      g_string_append_c (out, '\n');
    }
  g_string_append_printf (out, "\n%s.\n", get_string (report, "hint"));
}

char *
lode_symbol_format_type (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonNode *node = json_object_get_member (report, "type");
  JsonObject *type;
  JsonArray *fields, *methods, *relations;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      append_candidates (out, report, "type");
      return g_string_free (out, FALSE);
    }

  type = json_node_get_object (node);
  g_string_append_printf (out, "## %s `%s` (%s)\n\n", get_string (type, "kind"),
                          get_string (type, "full_name"), get_string (type, "language"));
  append_location (out, json_object_get_object_member (type, "location"));
  g_string_append_c (out, '\n');
  if (get_string (type, "signature") != NULL)
    g_string_append_printf (out, "\n```\n%s\n```\n", get_string (type, "signature"));
  if (get_string (type, "description") != NULL)
    g_string_append_printf (out, "\n%s\n", get_string (type, "description"));

  relations = detail_array (type, "relations");
  if (relations != NULL && json_array_get_length (relations) > 0)
    {
      g_string_append (out, "\n### Relations\n\n");
      for (guint i = 0; i < json_array_get_length (relations); i++)
        {
          JsonObject *r = json_array_get_object_element (relations, i);

          g_string_append_printf (out, "- %s `%s`", get_string (r, "kind"),
                                  get_string (r, "target") != NULL ? get_string (r, "target")
                                                                   : get_string (r, "name"));
          if (get_string (r, "target") != NULL && get_string (r, "name") != NULL &&
              g_strcmp0 (get_string (r, "kind"), "extends") != 0 &&
              g_strcmp0 (get_string (r, "kind"), "implements") != 0 &&
              g_strcmp0 (get_string (r, "kind"), "uses") != 0)
            g_string_append_printf (out, " (%s())", get_string (r, "name"));
          g_string_append_c (out, '\n');
        }
    }

  fields = detail_array (type, "fields");
  if (fields != NULL && json_array_get_length (fields) > 0)
    {
      g_string_append (out, "\n### Fields\n\n");
      for (guint i = 0; i < json_array_get_length (fields); i++)
        {
          JsonObject *f = json_array_get_object_element (fields, i);

          g_string_append_printf (out, "- %s%s`%s`", get_string (f, "visibility") != NULL
                                                    ? get_string (f, "visibility") : "",
                                  json_object_get_boolean_member (f, "is_static")
                                  ? " static " : " ", get_string (f, "name"));
          if (get_string (f, "type") != NULL)
            g_string_append_printf (out, ": `%s`", get_string (f, "type"));
          if (get_string (f, "default") != NULL)
            g_string_append_printf (out, " = `%s`", get_string (f, "default"));
          if (get_string (f, "description") != NULL)
            g_string_append_printf (out, " — %s", get_string (f, "description"));
          g_string_append_c (out, '\n');
        }
    }

  methods = detail_array (type, "methods");
  if (methods != NULL && json_array_get_length (methods) > 0)
    {
      g_string_append (out, "\n### Methods\n\n");
      for (guint i = 0; i < json_array_get_length (methods); i++)
        {
          JsonObject *m = json_array_get_object_element (methods, i);

          g_string_append_printf (out, "- %s `%s`", get_string (m, "kind"),
                                  get_string (m, "signature") != NULL
                                  ? get_string (m, "signature") : get_string (m, "name"));
          if (get_string (m, "description") != NULL)
            g_string_append_printf (out, " — %s", get_string (m, "description"));
          g_string_append_c (out, '\n');
        }
    }

  if (json_object_has_member (type, "table"))
    {
      g_autoptr(JsonNode) casts = json_node_copy (json_object_get_member (type, "casts"));
      g_autofree char *casts_text = json_to_string (casts, FALSE);
      static const char * const lists[] = { "fillable", "hidden", "visible", "appends",
                                            "scopes", NULL };

      g_string_append_printf (out, "\n### Model\n\n- table `%s`\n", get_string (type, "table"));
      for (guint i = 0; lists[i] != NULL; i++)
        {
          JsonArray *list = detail_array (type, lists[i]);

          if (list == NULL || json_array_get_length (list) == 0)
            continue;
          g_string_append_printf (out, "- %s:", lists[i]);
          for (guint k = 0; k < json_array_get_length (list); k++)
            g_string_append_printf (out, "%s `%s`", k > 0 ? "," : "",
                                    json_array_get_string_element (list, k));
          g_string_append_c (out, '\n');
        }
      g_string_append_printf (out, "- casts: `%s`\n", casts_text);
    }

  return g_string_free (out, FALSE);
}

char *
lode_symbol_format_function (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonNode *node = json_object_get_member (report, "function");
  JsonObject *function;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      append_candidates (out, report, "function");
      return g_string_free (out, FALSE);
    }

  function = json_node_get_object (node);
  g_string_append_printf (out, "## %s `%s%s%s` (%s)\n\n", get_string (function, "kind"),
                          get_string (function, "class_name") != NULL
                          ? get_string (function, "class_name") : "",
                          get_string (function, "class_name") != NULL ? "." : "",
                          get_string (function, "name"), get_string (function, "language"));
  append_location (out, json_object_get_object_member (function, "location"));
  g_string_append_c (out, '\n');
  if (get_string (function, "description") != NULL)
    g_string_append_printf (out, "\n%s\n", get_string (function, "description"));
  g_string_append (out, "\n");
  append_parameters (out, function);
  if (get_string (function, "code") != NULL)
    g_string_append_printf (out, "\n```%s\n%s\n```\n", get_string (function, "language"),
                            get_string (function, "code"));
  return g_string_free (out, FALSE);
}

char *
lode_symbol_format_exports (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *exports = detail_array (report, "exports");

  g_string_append_printf (out, "## Exports of `%s`: ", get_string (report, "query"));
  lode_append_count (out, json_object_get_int_member (report, "total"), "%u symbol",
                     "%u symbols");
  g_string_append (out, "\n\n");
  for (guint i = 0; exports != NULL && i < json_array_get_length (exports); i++)
    {
      JsonObject *e = json_array_get_object_element (exports, i);

      g_string_append_printf (out, "- %s `%s` at ", get_string (e, "kind"),
                              get_string (e, "signature") != NULL ? get_string (e, "signature")
                                                                  : get_string (e, "name"));
      append_location (out, json_object_get_object_member (e, "location"));
      if (get_string (e, "description") != NULL)
        {
          g_autofree char *first = g_strdup (get_string (e, "description"));

          first[strcspn (first, "\n")] = '\0';
          g_string_append_printf (out, " — %s", first);
        }
      g_string_append_c (out, '\n');
    }
  if (get_string (report, "hint") != NULL)
    g_string_append_printf (out, "\n%s.\n", get_string (report, "hint"));
  return g_string_free (out, FALSE);
}

char *
lode_symbol_format_references (JsonObject *report)
{
  GString *out = g_string_new (NULL);
  JsonArray *references = detail_array (report, "references");
  JsonArray *files = detail_array (report, "files");
  guint listed = references != NULL ? json_array_get_length (references) : 0;

  g_string_append_printf (out, "## `%s`: ", get_string (report, "symbol"));
  lode_append_count (out, json_object_get_int_member (report, "total"), "%u reference",
                     "%u references");
  g_string_append (out, " in ");
  lode_append_count (out, json_object_get_int_member (report, "fileCount"), "%u file",
                     "%u files");
  g_string_append (out, "\n\n");
  for (guint i = 0; i < listed; i++)
    {
      JsonObject *r = json_array_get_object_element (references, i);
      g_autofree char *text = g_strdup (get_string (r, "text") != NULL ? get_string (r, "text")
                                                                       : "");

      g_string_append_printf (out, "- `%s:%" G_GINT64_FORMAT "` %s: `%s`\n",
                              get_string (r, "path"), json_object_get_int_member (r, "line"),
                              get_string (r, "kind"), g_strstrip (text));
    }
  if (listed < json_object_get_int_member (report, "total"))
    {
      g_string_append (out, "\nPer file:\n\n");
      for (guint i = 0; files != NULL && i < json_array_get_length (files); i++)
        {
          JsonObject *f = json_array_get_object_element (files, i);

          g_string_append_printf (out, "- `%s`: %" G_GINT64_FORMAT "\n", get_string (f, "path"),
                                  json_object_get_int_member (f, "count"));
        }
    }
  return g_string_free (out, FALSE);
}
