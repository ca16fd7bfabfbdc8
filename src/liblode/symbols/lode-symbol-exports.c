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
#include "lode-symbol-scope.h"

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
  if (strchr (package, '.') != NULL && strchr (package, '/') == NULL &&
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

/* Rust --------------------------------------------------------------------------------- */

/*
 * A Rust module exports its `pub` items (not `pub(crate)` or `pub(super)` ones), the items of
 * its `pub mod`s, and what it re-exports with `pub use` (found through the import graph: the
 * file the path leads to, then the item there, following further re-exports). Items of an
 * inline module (`pub mod futures { … }`) are that module's, and so are the `pub use`s
 * written inside it.
 */

#define MAX_MODULE_DEPTH   8

typedef struct
{
  LodeIndexStore *store;
  char           *crate;     /* the modules' crate, lode_symbol_rust_crate_dir () */
  GPtrArray      *exports;   /* LodeStoredSymbol */
  GHashTable     *listed;    /* "path:line" of the exports */
  GHashTable     *modules;   /* module → GPtrArray of its symbols */
  GHashTable     *walked;    /* modules whose exports are listed */
  guint           found : 1; /* one of the modules asked for has symbols */
} RustExports;

static void
rust_exports_clear (RustExports *run)
{
  g_clear_pointer (&run->crate, g_free);
  g_clear_pointer (&run->exports, g_ptr_array_unref);
  g_clear_pointer (&run->listed, g_hash_table_unref);
  g_clear_pointer (&run->modules, g_hash_table_unref);
  g_clear_pointer (&run->walked, g_hash_table_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (RustExports, rust_exports_clear)

/* The symbols of @module in the crate, read once. */
static GPtrArray *
module_symbols (RustExports  *run,
                const char   *module,
                GError      **error)
{
  GPtrArray *symbols = g_hash_table_lookup (run->modules, module);
  g_autoptr(GPtrArray) rows = NULL;

  if (symbols != NULL)
    return symbols;
  rows = lode_index_store_dup_package_symbols (run->store, module, NULL, PACKAGE_SCAN_ROWS,
                                               error);
  if (rows == NULL)
    return NULL;
  symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  for (guint i = 0; i < rows->len; i++)
    {
      LodeStoredSymbol *row = g_ptr_array_index (rows, i);
      g_autofree char *crate = lode_symbol_rust_crate_dir (row->path);

      if (language_is (row->language, "rust") &&
          (run->crate == NULL || strcmp (crate, run->crate) == 0))
        g_ptr_array_add (symbols, g_steal_pointer (&rows->pdata[i]));
    }
  g_hash_table_insert (run->modules, g_strdup (module), symbols);
  return symbols;
}

static gboolean
is_public (const LodeStoredSymbol *row)
{
  Symbol symbol = _lode_symbol_report_symbol_from_row ((LodeStoredSymbol *) row);
  gboolean public = is_export (&symbol);

  _lode_symbol_report_symbol_clear (&symbol);
  return public;
}

static void
add_export (RustExports            *run,
            const LodeStoredSymbol *row)
{
  LodeStoredSymbol *copy;
  char *key = g_strdup_printf ("%s:%u", row->path, row->start_line);

  if (!g_hash_table_add (run->listed, key))
    return;
  copy = g_new0 (LodeStoredSymbol, 1);
  copy->path = g_strdup (row->path);
  copy->language = g_strdup (row->language);
  copy->name = g_strdup (row->name);
  copy->kind = g_strdup (row->kind);
  copy->container = g_strdup (row->container);
  copy->signature = g_strdup (row->signature);
  copy->start_line = row->start_line;
  copy->end_line = row->end_line;
  copy->package = g_strdup (row->package);
  copy->scope = g_strdup (row->scope);
  copy->detail = g_strdup (row->detail);
  g_ptr_array_add (run->exports, copy);
}

/* Whether @line of @path is inside an inline module of @symbols (a module's own symbols). */
static gboolean
in_inline_module (GPtrArray  *symbols,
                  const char *path,
                  guint       line)
{
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeStoredSymbol *row = g_ptr_array_index (symbols, i);

      if (g_strcmp0 (row->kind, "module") == 0 && row->end_line > row->start_line &&
          strcmp (row->path, path) == 0 && row->start_line <= line && line <= row->end_line)
        return TRUE;
    }
  return FALSE;
}

/* The `pub use` imports written in @module itself: in the files that are the module, or in
 * the lines of @inline_module, its declaration when it is an inline module. */
static GPtrArray *
module_reexports (RustExports             *run,
                  const char              *module,
                  GPtrArray               *symbols,
                  const LodeStoredSymbol  *inline_module,
                  GError                 **error)
{
  g_autoptr(GHashTable) files = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *reexports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
  GHashTableIter iter;
  gpointer path;

  for (guint i = 0; i < symbols->len && inline_module == NULL; i++)
    {
      const LodeStoredSymbol *row = g_ptr_array_index (symbols, i);
      g_autofree char *file_module = lode_symbol_file_module ("rust", row->path);

      if (strcmp (file_module, module) == 0)
        g_hash_table_add (files, row->path);
    }
  if (inline_module != NULL)
    g_hash_table_add (files, inline_module->path);

  g_hash_table_iter_init (&iter, files);
  while (g_hash_table_iter_next (&iter, &path, NULL))
    {
      g_autoptr(GPtrArray) imports = lode_index_store_dup_imports (run->store, path, error);

      if (imports == NULL)
        {
          g_ptr_array_unref (reexports);
          return NULL;
        }
      for (guint i = 0; i < imports->len; i++)
        {
          LodeStoredImport *import = g_ptr_array_index (imports, i);

          if (g_strcmp0 (import->kind, "re-export") == 0 &&
              !in_inline_module (symbols, path, import->line) &&
              (inline_module == NULL || (inline_module->start_line <= import->line &&
                                         import->line <= inline_module->end_line)))
            g_ptr_array_add (reexports, g_steal_pointer (&imports->pdata[i]));
        }
    }
  return reexports;
}

static gboolean walk_module (RustExports             *run,
                             const char              *module,
                             const LodeStoredSymbol  *inline_module,
                             guint                    depth,
                             GError                 **error);

/* The modules @symbols (a module's) declare, as a set for lode_symbol_rust_resolve (). */
static GHashTable *
child_modules (GPtrArray *symbols)
{
  GHashTable *children = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeStoredSymbol *row = g_ptr_array_index (symbols, i);

      if (g_strcmp0 (row->kind, "module") == 0)
        g_hash_table_add (children, row->name);
    }
  return children;
}

/* Lists what `pub use @import` in @module names: the public item of the module the path leads
 * to (the path is resolved from @module, which may be an inline module the import graph
 * does not know), or what that module re-exports under that name; with `*`, all its
 * exports. */
static gboolean
add_reexported (RustExports             *run,
                const char              *module,
                GPtrArray               *declared,
                const LodeStoredImport  *import,
                guint                    depth,
                GError                 **error)
{
  g_autoptr(GHashTable) children = child_modules (declared);
  g_autofree char *path = lode_symbol_rust_resolve (module, import->specifier, NULL, children);
  const char *last = g_strrstr (path, "::");
  g_autofree char *target = NULL;
  const char *name;
  GPtrArray *symbols;
  g_autoptr(GPtrArray) reexports = NULL;
  gboolean found = FALSE;

  /* Another crate's (`pub use std::…`), or the crate itself. */
  if (!g_str_has_prefix (path, "crate::") || last == NULL)
    return TRUE;
  target = g_strndup (path, last - path);
  name = last + 2;
  if (strcmp (name, "*") == 0)
    return walk_module (run, target, NULL, depth + 1, error);

  if ((symbols = module_symbols (run, target, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeStoredSymbol *row = g_ptr_array_index (symbols, i);

      if (strcmp (row->name, name) == 0 && is_public (row))
        {
          add_export (run, row);
          found = TRUE;
        }
    }
  if (found || depth >= MAX_MODULE_DEPTH)
    return TRUE;

  if ((reexports = module_reexports (run, target, symbols, NULL, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < reexports->len; i++)
    {
      const LodeStoredImport *further = g_ptr_array_index (reexports, i);
      const char *further_last = g_strrstr (further->specifier, "::");

      if (strcmp (further_last != NULL ? further_last + 2 : further->specifier, name) == 0 &&
          !add_reexported (run, target, symbols, further, depth + 1, error))
        return FALSE;
    }
  return TRUE;
}

/* Lists @module's exports: its public items, its public modules' exports, its re-exports.
 * @inline_module is its declaration when it is an inline module. */
static gboolean
walk_module (RustExports             *run,
             const char              *module,
             const LodeStoredSymbol  *inline_module,
             guint                    depth,
             GError                 **error)
{
  GPtrArray *symbols;
  g_autoptr(GPtrArray) reexports = NULL;

  if (depth > MAX_MODULE_DEPTH || !g_hash_table_add (run->walked, g_strdup (module)))
    return TRUE;
  if ((symbols = module_symbols (run, module, error)) == NULL)
    return FALSE;
  if (depth == 0 && symbols->len > 0)
    run->found = TRUE;

  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeStoredSymbol *row = g_ptr_array_index (symbols, i);

      if (!is_public (row))
        continue;
      add_export (run, row);
      if (g_strcmp0 (row->kind, "module") == 0)
        {
          g_autofree char *child = g_strconcat (module, "::", row->name, NULL);

          if (!walk_module (run, child, row->end_line > row->start_line ? row : NULL, depth + 1,
                            error))
            return FALSE;
        }
    }

  if ((reexports = module_reexports (run, module, symbols, inline_module, error)) == NULL)
    return FALSE;
  for (guint i = 0; i < reexports->len; i++)
    if (!add_reexported (run, module, symbols, g_ptr_array_index (reexports, i), depth, error))
      return FALSE;
  return TRUE;
}

/**
 * _lode_symbol_report_rust_reexports:
 * @store: the index
 * @module: a Rust module path (`crate::task`)
 * @name: a name it may re-export (`spawn_blocking`)
 * @error: return location for a #GError
 *
 * What `pub use` in @module makes of @name: `tokio::task::spawn_blocking` is
 * `crate::task::blocking::spawn_blocking`, which crate::task re-exports.
 *
 * Returns: (transfer full) (element-type LodeStoredSymbol) (nullable): the items, perhaps none
 */
GPtrArray *
_lode_symbol_report_rust_reexports (LodeIndexStore  *store,
                                    const char      *module,
                                    const char      *name,
                                    GError         **error)
{
  g_auto(RustExports) run = { store, NULL, NULL, NULL, NULL, NULL, FALSE };
  g_autoptr(GPtrArray) reexports = NULL;
  GPtrArray *symbols;

  run.exports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  run.listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run.modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
  run.walked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  if ((symbols = module_symbols (&run, module, error)) == NULL ||
      (reexports = module_reexports (&run, module, symbols, NULL, error)) == NULL)
    return NULL;
  for (guint i = 0; i < reexports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (reexports, i);
      const char *last = g_strrstr (import->specifier, "::");

      if (strcmp (last != NULL ? last + 2 : import->specifier, name) == 0 &&
          !add_reexported (&run, module, symbols, import, 0, error))
        return NULL;
    }
  return g_steal_pointer (&run.exports);
}

/* The exports of the Rust module @package (`crate::sync`), or of the modules whose file or
 * folder it names (`sync`, `tokio/src/sync`), each in its crate; %NULL with no error when
 * @package is neither. */
static GPtrArray *
rust_exports (LodeIndexStore  *store,
              const char      *package,
              gboolean        *found,
              GError         **error)
{
  g_auto(RustExports) run = { store, NULL, NULL, NULL, NULL, NULL, FALSE };
  g_autoptr(GPtrArray) files = NULL;
  gboolean rust_path = strcmp (package, "crate") == 0 || g_str_has_prefix (package, "crate::");

  run.exports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  run.listed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  run.modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                       (GDestroyNotify) g_ptr_array_unref);
  run.walked = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);

  files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  if (rust_path)
    {
      g_autoptr(GPtrArray) rows = lode_index_store_dup_package_symbols (store, package, NULL,
                                                                        PACKAGE_SCAN_ROWS,
                                                                        error);

      if (rows == NULL)
        return NULL;
      g_ptr_array_extend_and_steal (files, g_steal_pointer (&rows));
    }
  /* A module named by its folder or file: its mod.rs or NAME.rs, in each crate. */
  for (guint i = 0; i < 4 && files->len == 0; i++)
    {
      static const char * const patterns[] = { "%s/mod.rs", "%s.rs", "*/%s/mod.rs", "*/%s.rs" };
      g_autofree char *glob = g_strdup_printf (patterns[i], package);
      g_autoptr(GPtrArray) rows = lode_index_store_dup_package_symbols (store, NULL, glob,
                                                                        PACKAGE_SCAN_ROWS,
                                                                        error);

      if (rows == NULL)
        return NULL;
      g_ptr_array_extend_and_steal (files, g_steal_pointer (&rows));
    }
  if (files->len == 0)
    return NULL;

  for (guint i = 0; i < files->len; i++)
    {
      const LodeStoredSymbol *row = g_ptr_array_index (files, i);
      g_autofree char *module = rust_path ? g_strdup (package)
                                          : lode_symbol_file_module ("rust", row->path);
      g_autofree char *crate = lode_symbol_rust_crate_dir (row->path);

      /* Each crate's module on its own: `crate::sync` is one in tokio, another in
       * tokio-util. */
      if (!language_is (row->language, "rust") || g_strcmp0 (crate, run.crate) == 0)
        continue;
      g_hash_table_remove_all (run.modules);
      g_hash_table_remove_all (run.walked);
      g_free (run.crate);
      run.crate = g_steal_pointer (&crate);
      if (!walk_module (&run, module, NULL, 0, error))
        return NULL;
    }
  *found = run.found;
  return g_steal_pointer (&run.exports);
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
  gboolean known = FALSE;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (store), NULL);
  g_return_val_if_fail (query->root != NULL && query->name != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  rows = lode_index_store_dup_package_symbols (store, package, NULL, PACKAGE_SCAN_ROWS, error);
  if (rows == NULL)
    return NULL;
  /* A Rust module's name or folder has no dot (`crate::sync`, `sync`, `tokio/src/sync`). */
  if ((rows->len == 0 && strchr (package, '.') == NULL && strchr (package, '\\') == NULL) ||
      (rows->len > 0 && language_is (((LodeStoredSymbol *) rows->pdata[0])->language, "rust")))
    {
      g_autoptr(GError) local_error = NULL;
      gboolean found = FALSE;
      GPtrArray *rust = rust_exports (store, package, &found, &local_error);

      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return NULL;
        }
      if (rust != NULL)
        {
          g_ptr_array_unref (rows);
          rows = rust;
          known = found || rows->len > 0;
        }
    }
  if (rows->len == 0 && !known)
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
              rows->len == 0 && !known
              ? "No package, namespace, module or file of that name is indexed; "
                "codebase_search finds where code lives"
              : total == 0 ? "The package declares nothing visible outside it"
              : total > limit ? "More exports than limit: raise limit or pass symbol_type"
              : NULL);
  return g_steal_pointer (&report);
}
