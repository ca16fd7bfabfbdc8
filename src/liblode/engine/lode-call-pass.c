/* lode-call-pass.c — resolves the calls of an index again after files changed (issue #28)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * A file's calls depend on other files: what they define, import, re-export, and the types
 * they give their fields. When any file comes, changes or goes, the calls into it and those a
 * new definition could now resolve are not found from its path alone (a new `take` can turn an
 * unresolved call elsewhere into a resolved one, or a unique one into an ambiguous one), so the
 * pass resolves every file's stored call sites (lode_index_store_put_call_sites()) again and
 * writes the calls of the files whose edges changed: the graph is then the one a fresh index
 * would hold.
 */

#define G_LOG_DOMAIN "lode-call-pass"

#include "config.h"

#include <malloc.h>

#include "lode-call-graph.h"
#include "lode-call-pass.h"
#include "lode-calls-resolver.h"
#include "lode-imports.h"

/* path → GPtrArray of LodeImport, from the imports the index holds. */
static GHashTable *
dup_imports_by_path (LodeIndexStore  *store,
                     GError         **error)
{
  g_autoptr(GPtrArray) stored = lode_index_store_dup_imports (store, NULL, error);
  GHashTable *by_path;

  if (stored == NULL)
    return NULL;
  by_path = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                   (GDestroyNotify) g_ptr_array_unref);
  for (guint i = 0; i < stored->len; i++)
    {
      LodeStoredImport *row = g_ptr_array_index (stored, i);
      GPtrArray *imports = g_hash_table_lookup (by_path, row->path);
      LodeImportKind kind;

      if (!lode_import_kind_from_string (row->kind, &kind))
        kind = LODE_IMPORT_MODULE;
      if (imports == NULL)
        {
          imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_import_free);
          g_hash_table_insert (by_path, g_strdup (row->path), imports);
        }
      g_ptr_array_add (imports, lode_import_new (row->specifier, row->name, kind, row->line));
    }
  return by_path;
}

/* The stored call sites of @path, decoded into @calls and @symbols; @calls %NULL when it
 * has none. */
static gboolean
read_calls (LodeIndexStore  *store,
            const char      *path,
            LodeCalls      **calls,
            GPtrArray      **symbols,
            GError         **error)
{
  g_autoptr(GBytes) bytes = NULL;
  GError *local_error = NULL;

  *calls = NULL;
  bytes = lode_index_store_dup_file_call_sites (store, path, &local_error);
  if (local_error != NULL)
    {
      g_propagate_prefixed_error (error, local_error, "%s: ", path);
      return FALSE;
    }
  if (bytes == NULL)
    return TRUE;
  *calls = lode_calls_new_from_bytes (bytes, symbols, error);
  if (*calls == NULL)
    {
      g_prefix_error (error, "Cannot resolve the calls of %s: ", path);
      return FALSE;
    }
  return TRUE;
}

/* The resolver never reads a signature or a scope (lode_call_graph_load() does): on git
 * v2.47.0 the signatures are 1.7 MB the pass would otherwise hold to its end. */
static void
forget_texts (GPtrArray *symbols)
{
  for (guint i = 0; i < symbols->len; i++)
    {
      LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      g_clear_pointer (&symbol->signature, g_free);
      g_clear_pointer (&symbol->scope, g_free);
    }
}

static gboolean
same_call (const LodeStoredCall *a,
           const LodeStoredCall *b)
{
  return g_strcmp0 (a->caller, b->caller) == 0 && a->caller_line == b->caller_line &&
         g_strcmp0 (a->callee, b->callee) == 0 && g_strcmp0 (a->qualifier, b->qualifier) == 0 &&
         a->line == b->line && a->status == b->status && a->rule == b->rule &&
         a->confidence == b->confidence && g_strcmp0 (a->target_path, b->target_path) == 0 &&
         a->target_line == b->target_line && g_strcmp0 (a->package, b->package) == 0;
}

static gboolean
same_calls (GPtrArray *a,
            GPtrArray *b)
{
  if (a->len != b->len)
    return FALSE;
  for (guint i = 0; i < a->len; i++)
    if (!same_call (g_ptr_array_index (a, i), g_ptr_array_index (b, i)))
      return FALSE;
  return TRUE;
}

/**
 * lode_call_pass_run:
 * @store: the index, outside a batch
 * @imports: resolves imports to the project's files (the indexer's, knowing every file)
 * @cancellable: (nullable): stops the pass; nothing of it is kept, and the index still says
 *   the calls are stale (%LODE_CALLS_META_KEY), so the next run resolves them
 * @n_changed: (out): files whose calls changed
 * @error: return location for a #GError
 *
 * Resolves the stored call sites of every file and stores the calls of those whose edges
 * changed, in one batch with the end of the stale mark.
 *
 * Returns: %TRUE, or %FALSE with @error (a store error, cancellation, or damaged call sites,
 *   %G_IO_ERROR_INVALID_DATA, naming the file)
 */
gboolean
lode_call_pass_run (LodeIndexStore      *store,
                    LodeImportResolver  *imports,
                    GCancellable        *cancellable,
                    guint               *n_changed,
                    GError             **error)
{
  g_autoptr(LodeCallResolver) resolver = lode_call_resolver_new (imports);
  g_autoptr(GHashTable) imports_by_path = NULL;
  g_autoptr(GPtrArray) files = NULL;

  *n_changed = 0;
  /* The indexing threads freed their trees and chunks, but glibc keeps those pages in the
   * threads' arenas, where this thread's tables cannot go: give them back first, so that
   * the pass adds less to the indexing's peak. */
  malloc_trim (0);
  files = lode_index_store_dup_files (store, error);
  if (files == NULL)
    return FALSE;
  imports_by_path = dup_imports_by_path (store, error);
  if (imports_by_path == NULL)
    return FALSE;

  /* A call may resolve into any file: the resolver holds every file's definitions, bindings
   * and imports, but the call sites (most of the stored bytes) are read file by file, once
   * here for what resolving needs of them, then again when the file's calls are resolved,
   * so that the pass does not grow with the project's calls. */
  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredFile *file = g_ptr_array_index (files, i);
      g_autoptr(GPtrArray) symbols = NULL;
      LodeCalls *calls;
      guint f;

      if (!read_calls (store, file->path, &calls, &symbols, error))
        return FALSE;
      if (calls == NULL)
        continue;
      forget_texts (symbols);
      f = lode_call_resolver_add_file (resolver, file->path, file->language, symbols, calls,
                                       g_hash_table_lookup (imports_by_path, file->path));
      lode_call_resolver_drop_sites (resolver, f);
    }
  g_clear_pointer (&files, g_ptr_array_unref);
  g_clear_pointer (&imports_by_path, g_hash_table_unref);

  if (!lode_index_store_begin (store, error))
    return FALSE;
  for (guint f = 0; f < lode_call_resolver_get_n_files (resolver); f++)
    {
      const char *path = lode_call_resolver_get_path (resolver, f);
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(LodeCalls) calls = NULL;
      g_autoptr(GPtrArray) edges = NULL;
      g_autoptr(GPtrArray) rows = NULL;
      g_autoptr(GPtrArray) old = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto failed;
      if (!read_calls (store, path, &calls, &symbols, error))
        goto failed;
      if (calls == NULL)
        continue;
      edges = lode_call_resolver_resolve_sites (resolver, f, calls->sites);
      rows = lode_stored_calls_from_edges (resolver, f, edges);
      old = lode_index_store_dup_calls (store, path, error);
      if (old == NULL)
        goto failed;
      if (same_calls (rows, old))
        continue;
      if (!lode_index_store_put_calls (store, path, rows, error))
        goto failed;
      (*n_changed)++;
    }
  g_debug ("Calls: %u files resolved again, %u changed",
           lode_call_resolver_get_n_files (resolver), *n_changed);
  /* Its pages back too, before the run sorts its look-up indexes. */
  g_clear_object (&resolver);
  malloc_trim (0);
  if (!lode_index_store_set_meta (store, LODE_CALLS_META_KEY, "resolved", error))
    goto failed;
  return lode_index_store_commit (store, error);

failed:
  lode_index_store_rollback (store);
  return FALSE;
}
