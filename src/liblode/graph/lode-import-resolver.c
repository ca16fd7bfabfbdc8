/* lode-import-resolver.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-import-resolver"

#include "config.h"

#include <string.h>

#include "lode-import-declarations-private.h"
#include "lode-import-resolver-private.h"

/* Resolves the imports found by lode-imports.c to files of a project, from the set of project
 * paths (relative, '/'-separated) and the project's configuration files, read from disk under
 * the root: tsconfig/jsconfig `paths` and `baseUrl` (following `extends`), package.json
 * workspace names, compile_commands.json include directories and those Makefiles give,
 * go.mod module paths, Cargo crate names, composer.json PSR-4 prefixes, pubspec.yaml package
 * names and Package.swift targets. Java, Kotlin, Scala, C# and PHP files are looked at too:
 * the package or namespace they declare (in their first 64 KiB) maps names to files, which
 * also finds the source roots of multi-module builds. An import that names no project file
 * resolves to an external package, never to nothing.
 *
 * Incremental maintenance rests on keys. Every project file has a few keys (its lower-cased
 * path components cut at the first dot, its declared package's last component, "/" at the
 * root), and every import one key that each file it could ever resolve to has; so when a file
 * appears or disappears, only the imports whose key is among the file's keys can resolve
 * differently.
 *
 * Not thread-safe: a resolver is changed and asked from one thread at a time. */

G_DEFINE_FINAL_TYPE (LodeImportResolver, lode_import_resolver, G_TYPE_OBJECT)

/**
 * lode_import_resolver_is_config_file:
 * @path: a project path
 *
 * Whether @path changes how imports of other files resolve, beyond being a target itself:
 * a configuration file the resolver reads (tsconfig.json, jsconfig.json and the files they
 * extend, package.json, compile_commands.json, Makefile, makefile, GNUmakefile, *.mk,
 * go.mod, Cargo.toml, composer.json, pubspec.yaml, Package.swift), a Python `__init__.py`
 * (it decides where top-level packages start) or a Rust crate root (lib.rs, main.rs). When
 * one is added, removed or changed, any import may resolve differently: resolve all of them
 * again. Such files are rare and rarely change.
 *
 * Returns: %TRUE for such a file
 */
gboolean
lode_import_resolver_is_config_file (const char *path)
{
  static const char * const structural[] = { "__init__.py", "lib.rs", "main.rs" };
  const char *base;

  g_return_val_if_fail (path != NULL, FALSE);

  base = path_basename (path);
  for (guint i = 0; i < G_N_ELEMENTS (structural); i++)
    if (strcmp (base, structural[i]) == 0)
      return TRUE;

  return _lode_import_is_read_config (path);
}

/**
 * lode_import_resolver_reads_declarations:
 * @path: a project path
 *
 * Whether the resolver reads the package or namespace @path declares (Java, Kotlin, Scala,
 * C#, PHP). When such a file changes, imports of other files that resolved to it, or could
 * now, may resolve differently: resolve again those pointing at it and those under its keys.
 *
 * Returns: %TRUE for such a file
 */
gboolean
lode_import_resolver_reads_declarations (const char *path)
{
  g_return_val_if_fail (path != NULL, FALSE);

  return _lode_import_declares_packages (path);
}

static void
resolve_run (LodeImportResolver *self,
             const char         *from,
             const LodeImport   *import,
             Resolve            *r)
{
  ResolveFunc func = _lode_import_resolve_func_for (self, from, import);

  r->self = self;
  r->from = from;
  r->from_dir = path_dirname (from);
  r->import = import;
  r->spec = import->specifier;
  r->targets = g_ptr_array_new_with_free_func (g_free);

  if (func != NULL)
    func (r);

  if (r->targets->len > 0)
    g_clear_pointer (&r->package, g_free);
  else if (r->package == NULL)
    r->package = g_strdup (import->specifier);

  if (r->key == NULL)
    r->key = _lode_import_key_for_last_component (import->specifier);
}

static void
resolve_clear (Resolve *r)
{
  g_free (r->from_dir);
  g_clear_pointer (&r->targets, g_ptr_array_unref);
  g_free (r->package);
  g_free (r->key);
}

/**
 * lode_import_resolver_resolve_all:
 * @self: a #LodeImportResolver
 * @from_path: the project path of the importing file
 * @import: one of its imports
 * @package: (out) (optional) (transfer full): the external package when no project file
 *   matches ("react", "github.com/x/y", "java.util", "os"), else %NULL
 *
 * Resolves an import to every project file it reaches: one file for most imports, all files
 * of the package for a Go package, a C# namespace, a Java/Kotlin/Scala wildcard or a Swift
 * module. An import written in a relative form that names no file resolves to itself as
 * the package.
 *
 * Returns: (transfer full): the project paths, best first; empty when external
 */
GStrv
lode_import_resolver_resolve_all (LodeImportResolver  *self,
                                  const char          *from_path,
                                  const LodeImport    *import,
                                  char               **package)
{
  Resolve r = { 0 };
  GStrv targets;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);
  g_return_val_if_fail (from_path != NULL, NULL);
  g_return_val_if_fail (import != NULL && import->specifier != NULL, NULL);

  resolve_run (self, from_path, import, &r);
  g_ptr_array_add (r.targets, NULL);
  targets = (GStrv) g_ptr_array_steal (r.targets, NULL);
  if (package != NULL)
    *package = g_steal_pointer (&r.package);
  resolve_clear (&r);

  return targets;
}

/**
 * lode_import_resolver_resolve:
 * @self: a #LodeImportResolver
 * @from_path: the project path of the importing file
 * @import: one of its imports
 * @package: (out) (optional) (transfer full): the external package when no project file
 *   matches, else %NULL
 *
 * Like lode_import_resolver_resolve_all(), keeping only the best file.
 *
 * Returns: (transfer full) (nullable): the project path, or %NULL for an external import
 */
char *
lode_import_resolver_resolve (LodeImportResolver  *self,
                              const char          *from_path,
                              const LodeImport    *import,
                              char               **package)
{
  g_auto(GStrv) targets = NULL;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);

  targets = lode_import_resolver_resolve_all (self, from_path, import, package);
  return targets[0] != NULL ? g_strdup (targets[0]) : NULL;
}

/**
 * lode_import_resolver_dup_key:
 * @self: a #LodeImportResolver
 * @from_path: the project path of the importing file
 * @import: one of its imports
 *
 * The import's candidate key: every project file the import could resolve to, whichever
 * files exist, has this key among lode_import_resolver_dup_keys_for_path(). Store imports
 * by key; when a file is added or removed, resolve again only the imports under its keys.
 * A change to a configuration file (lode_import_resolver_is_config_file()) is the exception.
 *
 * Returns: (transfer full): the key
 */
char *
lode_import_resolver_dup_key (LodeImportResolver *self,
                              const char         *from_path,
                              const LodeImport   *import)
{
  Resolve r = { 0 };
  char *key;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);
  g_return_val_if_fail (from_path != NULL, NULL);
  g_return_val_if_fail (import != NULL && import->specifier != NULL, NULL);

  resolve_run (self, from_path, import, &r);
  key = g_steal_pointer (&r.key);
  resolve_clear (&r);

  return key;
}

static void
add_key (GPtrArray  *keys,
         char       *key)
{
  for (guint i = 0; i < keys->len; i++)
    if (strcmp (keys->pdata[i], key) == 0)
      {
        g_free (key);
        return;
      }

  g_ptr_array_add (keys, key);
}

/**
 * lode_import_resolver_dup_keys_for_path:
 * @self: a #LodeImportResolver
 * @path: a project path; its declarations are known only while it is in the resolver
 *
 * The keys of a file: those of the imports that could resolve to it
 * (see lode_import_resolver_dup_key()).
 *
 * Returns: (transfer full): the keys
 */
GStrv
lode_import_resolver_dup_keys_for_path (LodeImportResolver *self,
                                        const char         *path)
{
  g_autoptr(GPtrArray) keys = g_ptr_array_new_with_free_func (g_free);
  GStrv declared;
  const char *start = path;

  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  for (const char *p = path;; p++)
    if (*p == '/' || *p == '\0')
      {
        if (p > start)
          add_key (keys, _lode_import_key_for_component (start, p - start));
        if (*p == '\0')
          break;
        start = p + 1;
      }

  if (strchr (path, '/') == NULL)
    add_key (keys, g_strdup ("/"));
  if (_lode_import_rust_is_root_file (path_basename (path)))
    add_key (keys, g_strdup ("crate"));

  declared = g_hash_table_lookup (self->declared, path);
  for (guint i = 0; declared != NULL && declared[i] != NULL; i++)
    {
      const char *dot = strrchr (declared[i], '.');
      const char *last = dot != NULL ? dot + 1 : declared[i];

      add_key (keys, _lode_import_key_for_component (last, strlen (last)));
    }

  g_ptr_array_add (keys, NULL);
  return (GStrv) g_ptr_array_steal (keys, NULL);
}

/**
 * lode_import_resolver_add_file:
 * @self: a #LodeImportResolver
 * @path: a project path (relative, '/'-separated)
 *
 * Adds a file to the project, or reads a known file's declarations and, for a
 * configuration file, the configuration again.
 */
void
lode_import_resolver_add_file (LodeImportResolver *self,
                               const char         *path)
{
  g_return_if_fail (LODE_IS_IMPORT_RESOLVER (self));
  g_return_if_fail (path != NULL);

  _lode_import_unindex_file (self, path);
  _lode_import_index_file (self, path);
  self->derived_valid = FALSE;
  if (_lode_import_is_read_config (path))
    _lode_import_load_configs (self);
}

/**
 * lode_import_resolver_remove_file:
 * @self: a #LodeImportResolver
 * @path: a project path
 *
 * Removes a file from the project.
 */
void
lode_import_resolver_remove_file (LodeImportResolver *self,
                                  const char         *path)
{
  g_return_if_fail (LODE_IS_IMPORT_RESOLVER (self));
  g_return_if_fail (path != NULL);

  if (!_lode_import_unindex_file (self, path))
    return;
  self->derived_valid = FALSE;
  if (_lode_import_is_read_config (path))
    _lode_import_load_configs (self);
}

/**
 * lode_import_resolver_has_file:
 * @self: a #LodeImportResolver
 * @path: a project path
 *
 * Returns: %TRUE if @path is a file of the project
 */
gboolean
lode_import_resolver_has_file (LodeImportResolver *self,
                               const char         *path)
{
  g_return_val_if_fail (LODE_IS_IMPORT_RESOLVER (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return has_file (self, path);
}

/**
 * lode_import_resolver_new:
 * @root: the project's root directory
 * @paths: (array zero-terminated=1): the project's files, relative to @root, '/'-separated
 *
 * Creates a resolver for a project, reading its configuration files and the package
 * declarations of its Java, Kotlin, Scala, C# and PHP files under @root. Unreadable or
 * malformed files are skipped.
 *
 * Returns: (transfer full): a new resolver
 */
LodeImportResolver *
lode_import_resolver_new (const char         *root,
                          const char * const *paths)
{
  LodeImportResolver *self;

  g_return_val_if_fail (root != NULL, NULL);
  g_return_val_if_fail (paths != NULL, NULL);

  self = g_object_new (LODE_TYPE_IMPORT_RESOLVER, NULL);
  self->root = g_canonicalize_filename (root, NULL);

  for (guint i = 0; paths[i] != NULL; i++)
    _lode_import_index_file (self, paths[i]);
  _lode_import_load_configs (self);

  return self;
}

static void
lode_import_resolver_finalize (GObject *object)
{
  LodeImportResolver *self = (LodeImportResolver *)object;

  g_clear_pointer (&self->swift_modules, g_hash_table_unref);
  g_clear_pointer (&self->packages, g_hash_table_unref);
  g_clear_pointer (&self->declared, g_hash_table_unref);
  g_clear_pointer (&self->basenames, g_hash_table_unref);
  g_clear_pointer (&self->dirs, g_hash_table_unref);
  g_clear_pointer (&self->trees, g_hash_table_unref);
  g_clear_pointer (&self->files, g_hash_table_unref);
  g_clear_pointer (&self->tsconfigs, g_ptr_array_unref);
  g_clear_pointer (&self->js_packages, g_ptr_array_unref);
  g_clear_pointer (&self->include_dirs, g_ptr_array_unref);
  g_clear_pointer (&self->make_include_dirs, g_hash_table_unref);
  g_clear_pointer (&self->go_modules, g_ptr_array_unref);
  g_clear_pointer (&self->crates, g_ptr_array_unref);
  g_clear_pointer (&self->psr4, g_ptr_array_unref);
  g_clear_pointer (&self->dart_packages, g_ptr_array_unref);
  g_clear_pointer (&self->swift_targets, g_ptr_array_unref);
  g_clear_pointer (&self->python_roots, g_ptr_array_unref);
  g_clear_pointer (&self->lib_dirs, g_ptr_array_unref);
  g_free (self->root);

  G_OBJECT_CLASS (lode_import_resolver_parent_class)->finalize (object);
}

static void
lode_import_resolver_class_init (LodeImportResolverClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_import_resolver_finalize;
}

static void
lode_import_resolver_init (LodeImportResolver *self)
{
  GDestroyNotify unref = (GDestroyNotify) g_ptr_array_unref;
  GDestroyNotify free_mapping = (GDestroyNotify) _lode_import_mapping_free;

  self->files = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->trees = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->basenames = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->declared = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                          (GDestroyNotify) g_strfreev);
  self->packages = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->swift_modules = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->tsconfigs = g_ptr_array_new_with_free_func ((GDestroyNotify) _lode_import_ts_config_free);
  self->js_packages = g_ptr_array_new_with_free_func (free_mapping);
  self->include_dirs = g_ptr_array_new_with_free_func (g_free);
  self->make_include_dirs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, unref);
  self->go_modules = g_ptr_array_new_with_free_func (free_mapping);
  self->crates = g_ptr_array_new_with_free_func (free_mapping);
  self->psr4 = g_ptr_array_new_with_free_func (free_mapping);
  self->dart_packages = g_ptr_array_new_with_free_func (free_mapping);
  self->swift_targets = g_ptr_array_new_with_free_func (free_mapping);
  self->python_roots = g_ptr_array_new_with_free_func (g_free);
  self->lib_dirs = g_ptr_array_new_with_free_func (g_free);
}
