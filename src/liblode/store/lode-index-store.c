/* lode-index-store.c — the interface to a project's index, its rows, and what is built on it
 * for every store alike
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include "lode-index-store.h"
#include "lode-sha1.h"

G_DEFINE_INTERFACE (LodeIndexStore, lode_index_store, G_TYPE_OBJECT)

static void
lode_index_store_default_init (LodeIndexStoreInterface *iface)
{
}

/* Rows */

void
lode_stored_file_free (LodeStoredFile *file)
{
  if (file == NULL)
    return;

  g_free (file->path);
  g_free (file->language);
  g_free (file->hash);
  g_free (file);
}

void
lode_stored_import_free (LodeStoredImport *import)
{
  if (import == NULL)
    return;

  g_free (import->path);
  g_free (import->specifier);
  g_free (import->name);
  g_free (import->kind);
  g_free (import->key);
  g_strfreev (import->targets);
  g_free (import->package);
  g_free (import);
}

void
lode_store_embed_text_free (LodeStoreEmbedText *text)
{
  if (text == NULL)
    return;

  g_free (text->hash);
  g_free (text->text);
  g_free (text);
}

void
lode_stored_symbol_free (LodeStoredSymbol *symbol)
{
  if (symbol == NULL)
    return;

  g_free (symbol->path);
  g_free (symbol->language);
  g_free (symbol->name);
  g_free (symbol->kind);
  g_free (symbol->container);
  g_free (symbol->signature);
  g_free (symbol->package);
  g_free (symbol->scope);
  g_free (symbol->detail);
  g_free (symbol);
}

void
lode_stored_call_free (LodeStoredCall *call)
{
  if (call == NULL)
    return;

  g_free (call->path);
  g_free (call->caller);
  g_free (call->callee);
  g_free (call->qualifier);
  g_free (call->target_path);
  g_free (call->package);
  g_free (call);
}

void
lode_stored_references_free (LodeStoredReferences *references)
{
  if (references == NULL)
    return;

  g_free (references->path);
  g_free (references->language);
  g_clear_pointer (&references->sites, g_array_unref);
  g_free (references);
}

void
lode_stored_artifact_free (LodeStoredArtifact *artifact)
{
  if (artifact == NULL)
    return;

  g_free (artifact->name);
  g_free (artifact->path);
  g_free (artifact->description);
  g_free (artifact->hash);
  g_free (artifact);
}

void
lode_artifact_chunk_free (LodeArtifactChunk *chunk)
{
  if (chunk == NULL)
    return;

  g_free (chunk->path);
  g_free (chunk->kind);
  g_free (chunk->title);
  g_free (chunk->body);
  g_free (chunk);
}

void
lode_artifact_hit_free (LodeArtifactHit *hit)
{
  if (hit == NULL)
    return;

  g_free (hit->artifact);
  g_free (hit->path);
  g_free (hit->kind);
  g_free (hit->title);
  g_free (hit->body);
  g_free (hit);
}

/* The calls: each checks its arguments and asks the store (see LodeIndexStoreInterface in
 * the header for what each means). */

gboolean
lode_index_store_get_was_reset (LodeIndexStore *self)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->get_was_reset (self);
}

const char *
lode_index_store_get_reset_reason (LodeIndexStore *self)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->get_reset_reason (self);
}

gboolean
lode_index_store_check (LodeIndexStore  *self,
                        GError         **error)
{
  LodeIndexStoreInterface *iface;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = LODE_INDEX_STORE_GET_IFACE (self);
  return iface->check == NULL || iface->check (self, error);
}

gboolean
lode_index_store_is_damaged (LodeIndexStore *self)
{
  LodeIndexStoreInterface *iface;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  iface = LODE_INDEX_STORE_GET_IFACE (self);
  return iface->is_damaged != NULL && iface->is_damaged (self);
}

GHashTable *
lode_index_store_dup_file_hashes (LodeIndexStore  *self,
                                  GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_file_hashes (self, error);
}

/**
 * lode_index_store_dup_files:
 * @self: a #LodeIndexStore
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredFile): every file, by path
 */
GPtrArray *
lode_index_store_dup_files (LodeIndexStore  *self,
                            GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_files (self, error);
}

gboolean
lode_index_store_begin (LodeIndexStore  *self,
                        GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->begin (self, error);
}

gboolean
lode_index_store_commit (LodeIndexStore  *self,
                         GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->commit (self, error);
}

void
lode_index_store_rollback (LodeIndexStore *self)
{
  g_return_if_fail (LODE_IS_INDEX_STORE (self));

  LODE_INDEX_STORE_GET_IFACE (self)->rollback (self);
}

gboolean
lode_index_store_end_files (LodeIndexStore  *self,
                            GError         **error)
{
  LodeIndexStoreInterface *iface;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  iface = LODE_INDEX_STORE_GET_IFACE (self);
  if (iface->end_files == NULL)
    return TRUE;

  return iface->end_files (self, error);
}

GBytes *
lode_index_store_prepare_file (LodeIndexStore     *self,
                               const LodeFileInfo *file,
                               GPtrArray          *chunks)
{
  LodeIndexStoreInterface *iface;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (file != NULL && file->path != NULL, NULL);

  iface = LODE_INDEX_STORE_GET_IFACE (self);
  if (iface->prepare_file == NULL)
    return NULL;

  return iface->prepare_file (self, file, chunks);
}

gboolean
lode_index_store_put_file (LodeIndexStore      *self,
                           const LodeFileInfo  *file,
                           GPtrArray           *chunks,
                           GPtrArray           *symbols,
                           const guint         *symbol_chunks,
                           GError             **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (file != NULL && file->path != NULL, FALSE);
  g_return_val_if_fail (symbols == NULL || symbols->len == 0 || symbol_chunks != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->put_file (self, file, chunks, symbols, symbol_chunks,
                                                      error);
}

/**
 * lode_index_store_put_references:
 * @self: a #LodeIndexStore
 * @path: a file put in this batch
 * @references: (nullable): the file's references to symbols, from the chunker
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_index_store_put_references (LodeIndexStore  *self,
                                 const char      *path,
                                 LodeReferences  *references,
                                 GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->put_references (self, path, references, error);
}

/**
 * lode_index_store_set_file_stamp:
 * @self: a #LodeIndexStore
 * @path: a file the index holds
 * @size: its size in bytes
 * @mtime_usec: its modification time
 * @error: return location for a #GError
 *
 * Stores the size and modification time of a file whose content is as the index holds it
 * (touched, or copied with its times), so that they are those of the file again.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_index_store_set_file_stamp (LodeIndexStore  *self,
                                 const char      *path,
                                 guint64          size,
                                 gint64           mtime_usec,
                                 GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->set_file_stamp (self, path, size, mtime_usec,
                                                            error);
}

gboolean
lode_index_store_remove_file (LodeIndexStore  *self,
                              const char      *path,
                              GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->remove_file (self, path, error);
}

char *
lode_index_store_dup_meta (LodeIndexStore *self,
                           const char     *key)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_meta (self, key);
}

gboolean
lode_index_store_set_meta (LodeIndexStore  *self,
                           const char      *key,
                           const char      *value,
                           GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->set_meta (self, key, value, error);
}

gboolean
lode_index_store_get_stats (LodeIndexStore  *self,
                            LodeStoreStats  *stats,
                            GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->get_stats (self, stats, error);
}

GHashTable *
lode_index_store_dup_language_counts (LodeIndexStore  *self,
                                      GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_language_counts (self, error);
}

GPtrArray *
lode_index_store_dup_chunks_for_file (LodeIndexStore  *self,
                                      const char      *path,
                                      GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_chunks_for_file (self, path, error);
}

GPtrArray *
lode_index_store_dup_symbols_for_file (LodeIndexStore  *self,
                                       const char      *path,
                                       GArray         **symbol_chunks,
                                       GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_symbols_for_file (self, path, symbol_chunks,
                                                                  error);
}

gboolean
lode_index_store_put_imports (LodeIndexStore  *self,
                              const char      *path,
                              GPtrArray       *imports,
                              GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->put_imports (self, path, imports, error);
}

GPtrArray *
lode_index_store_dup_imports (LodeIndexStore  *self,
                              const char      *path,
                              GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_imports (self, path, error);
}

GPtrArray *
lode_index_store_dup_imports_for_key (LodeIndexStore  *self,
                                      const char      *key,
                                      GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_imports_for_key (self, key, error);
}

GPtrArray *
lode_index_store_dup_imports_to (LodeIndexStore  *self,
                                 const char      *target,
                                 GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_imports_to (self, target, error);
}

gboolean
lode_index_store_set_import_targets (LodeIndexStore      *self,
                                     gint64               import_id,
                                     const char * const  *targets,
                                     const char          *package,
                                     GError             **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->set_import_targets (self, import_id, targets, package,
                                                                error);
}

LodeGraph *
lode_index_store_load_graph (LodeIndexStore  *self,
                             GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->load_graph (self, error);
}

gboolean
lode_index_store_get_graph_counts (LodeIndexStore   *self,
                                   LodeGraphCounts  *counts,
                                   GError          **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->get_graph_counts (self, counts, error);
}

gboolean
lode_index_store_clear_graph (LodeIndexStore  *self,
                              gboolean         forget_hashes,
                              GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->clear_graph (self, forget_hashes, error);
}

gboolean
lode_index_store_put_call_sites (LodeIndexStore  *self,
                                 const char      *path,
                                 GBytes          *sites,
                                 GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL && sites != NULL, FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->put_call_sites (self, path, sites, error);
}

GHashTable *
lode_index_store_dup_call_sites (LodeIndexStore  *self,
                                 GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_call_sites (self, error);
}

/**
 * lode_index_store_dup_file_call_sites:
 * @self: a #LodeIndexStore
 * @path: a file of the index
 * @error: return location for a #GError
 *
 * The call sites of one file, as lode_index_store_dup_call_sites() gives every file's: a
 * reader that goes file by file holds one file's at a time.
 *
 * Returns: (transfer full) (nullable): the call sites, or %NULL when @path has none (@error
 *   unset) or with @error
 */
GBytes *
lode_index_store_dup_file_call_sites (LodeIndexStore  *self,
                                      const char      *path,
                                      GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_file_call_sites (self, path, error);
}

gboolean
lode_index_store_put_calls (LodeIndexStore  *self,
                            const char      *path,
                            GPtrArray       *calls,
                            GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->put_calls (self, path, calls, error);
}

GPtrArray *
lode_index_store_dup_calls (LodeIndexStore  *self,
                            const char      *path,
                            GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_calls (self, path, error);
}

GPtrArray *
lode_index_store_dup_unembedded (LodeIndexStore  *self,
                                 const char      *model,
                                 gint64           after_chunk,
                                 guint            limit,
                                 GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_unembedded (self, model, after_chunk, limit, error);
}

gboolean
lode_index_store_put_vectors (LodeIndexStore      *self,
                              const char          *model,
                              guint                dims,
                              const char * const  *hashes,
                              const float         *vectors,
                              guint                n_vectors,
                              guint               *n_chunks,
                              GError             **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->put_vectors (self, model, dims, hashes, vectors,
                                                         n_vectors, n_chunks, error);
}

gboolean
lode_index_store_count_embedded (LodeIndexStore  *self,
                                 const char      *model,
                                 guint           *n_embedded,
                                 guint           *n_embeddable,
                                 GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->count_embedded (self, model, n_embedded,
                                                            n_embeddable, error);
}

gboolean
lode_index_store_prune_vectors (LodeIndexStore  *self,
                                const char      *model,
                                GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->prune_vectors (self, model, error);
}

gboolean
lode_index_store_foreach_vector (LodeIndexStore      *self,
                                 const char          *model,
                                 LodeVectorHashFunc   func,
                                 gpointer             user_data,
                                 GError             **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->foreach_vector (self, model, func, user_data, error);
}

/**
 * lode_index_store_text_hash:
 * @text: (nullable): a chunk's text
 *
 * The key of a chunk's vector in every store, so that identical text is embedded once and
 * an index copied between stores keeps its vectors.
 *
 * Returns: (transfer full) (nullable): the SHA-1 of @text, or %NULL for blank text (which is
 *   not embedded)
 */
char *
lode_index_store_text_hash (const char *text)
{
  const char *p;

  for (p = text; p != NULL && *p != '\0' && g_ascii_isspace (*p); p++)
    ;
  if (p == NULL || *p == '\0')
    return NULL;

  return lode_sha1_string (text, strlen (text));
}

/**
 * lode_index_store_find_symbols:
 * @self: a #LodeIndexStore
 * @name: a declared name
 * @limit: declarations at most
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredSymbol): the declarations named @name, by
 *   path and line; when none has exactly that name, those whose name differs in ASCII case
 *   only
 */
GPtrArray *
lode_index_store_find_symbols (LodeIndexStore  *self,
                               const char      *name,
                               guint            limit,
                               GError         **error)
{
  LodeIndexStoreInterface *iface;
  g_autoptr(GPtrArray) symbols = NULL;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  iface = LODE_INDEX_STORE_GET_IFACE (self);
  symbols = iface->find_symbols (self, name, FALSE, limit, error);
  if (symbols == NULL || symbols->len > 0)
    return g_steal_pointer (&symbols);
  return iface->find_symbols (self, name, TRUE, limit, error);
}

GPtrArray *
lode_index_store_dup_file_symbols (LodeIndexStore  *self,
                                   const char      *path,
                                   GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_file_symbols (self, path, error);
}

/**
 * lode_index_store_dup_file_symbol_spans:
 * @self: a store
 * @path: a file's path
 * @first_line: the first line asked about
 * @last_line: the last line asked about, @first_line or after
 * @error: a store failure
 *
 * The symbols of @path that hold a line from @first_line to @last_line, in the order of
 * lode_index_store_dup_file_symbols(), with their name, start and end lines only (no path,
 * signature nor detail): what naming the declaration a line lies in needs, for a fraction of
 * the reading. A store without the lighter look-up gives the whole symbols that meet the lines.
 *
 * Returns: (transfer full) (element-type LodeStoredSymbol): by start line
 */
GPtrArray *
lode_index_store_dup_file_symbol_spans (LodeIndexStore  *self,
                                        const char      *path,
                                        guint            first_line,
                                        guint            last_line,
                                        GError         **error)
{
  LodeIndexStoreInterface *iface;
  GPtrArray *symbols;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (first_line <= last_line, NULL);

  iface = LODE_INDEX_STORE_GET_IFACE (self);
  if (iface->dup_file_symbol_spans != NULL)
    return iface->dup_file_symbol_spans (self, path, first_line, last_line, error);
  symbols = iface->dup_file_symbols (self, path, error);
  if (symbols == NULL)
    return NULL;
  for (guint i = symbols->len; i > 0; i--)
    {
      const LodeStoredSymbol *symbol = symbols->pdata[i - 1];

      if (symbol->start_line > last_line || symbol->end_line < first_line)
        g_ptr_array_remove_index (symbols, i - 1);
    }
  return symbols;
}

GPtrArray *
lode_index_store_dup_package_symbols (LodeIndexStore  *self,
                                      const char      *package,
                                      const char      *path_glob,
                                      guint            limit,
                                      GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail ((package != NULL) != (path_glob != NULL), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_package_symbols (self, package, path_glob,
                                                                 limit, error);
}

GPtrArray *
lode_index_store_find_container_members (LodeIndexStore  *self,
                                         const char      *container,
                                         guint            limit,
                                         GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (container != NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->find_container_members (self, container, limit,
                                                                    error);
}

GPtrArray *
lode_index_store_find_references (LodeIndexStore  *self,
                                  const char      *name,
                                  GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->find_references (self, name, error);
}

/**
 * lode_index_store_dup_references_for_file:
 * @self: a #LodeIndexStore
 * @path: a file's path
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the references stored for @path (none for a file without)
 */
LodeReferences *
lode_index_store_dup_references_for_file (LodeIndexStore  *self,
                                          const char      *path,
                                          GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_references_for_file (self, path, error);
}

/* Code lines, out of the chunks that hold them (dup_line_chunks). */

static gint
compare_uint (gconstpointer a,
              gconstpointer b)
{
  guint x = *(const guint *) a, y = *(const guint *) b;

  return x < y ? -1 : x > y;
}

/**
 * lode_index_store_dup_line_texts:
 * @self: a #LodeIndexStore
 * @path: a file's path
 * @lines: (array length=n_lines): 1-based line numbers, in any order, repeats allowed
 * @n_lines: how many
 * @error: return location for a #GError
 *
 * The text of each of @lines as indexed, with one read of the chunks they span.
 *
 * Returns: (transfer full) (element-type utf8): one string per line of @lines, in its
 *   order; empty for a line that is not indexed
 */
GPtrArray *
lode_index_store_dup_line_texts (LodeIndexStore  *self,
                                 const char      *path,
                                 const guint     *lines,
                                 guint            n_lines,
                                 GError         **error)
{
  g_autoptr(GArray) sorted = g_array_sized_new (FALSE, FALSE, sizeof (guint), n_lines);
  g_autoptr(GHashTable) texts = g_hash_table_new_full (NULL, NULL, NULL, g_free);
  g_autoptr(GPtrArray) chunks = NULL;
  GPtrArray *out;
  guint next = 0;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  if (n_lines == 0)
    return g_ptr_array_new_with_free_func (g_free);
  g_array_append_vals (sorted, lines, n_lines);
  g_array_sort (sorted, compare_uint);
  chunks = LODE_INDEX_STORE_GET_IFACE (self)->dup_line_chunks (
    self, path, g_array_index (sorted, guint, 0), g_array_index (sorted, guint, n_lines - 1),
    error);
  if (chunks == NULL)
    return NULL;

  for (guint c = 0; c < chunks->len && next < sorted->len; c++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, c);
      const char *p = chunk->content;

      /* Lines before this chunk were in no chunk (cannot happen) or in an earlier one. */
      while (next < sorted->len && g_array_index (sorted, guint, next) < chunk->start_line)
        next++;
      for (guint line = chunk->start_line; p != NULL && line <= chunk->end_line &&
           next < sorted->len; line++)
        {
          const char *eol = strchr (p, '\n');
          gsize n = eol != NULL ? (gsize) (eol - p) : strlen (p);

          while (next < sorted->len && g_array_index (sorted, guint, next) == line)
            {
              if (!g_hash_table_contains (texts, GUINT_TO_POINTER (line)))
                g_hash_table_insert (texts, GUINT_TO_POINTER (line), g_strndup (p, n));
              next++;
            }
          if (eol == NULL)
            break;
          p = eol + 1;
        }
    }

  out = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < n_lines; i++)
    {
      const char *text = g_hash_table_lookup (texts, GUINT_TO_POINTER (lines[i]));

      g_ptr_array_add (out, g_strdup (text != NULL ? text : ""));
    }
  return out;
}

/**
 * lode_index_store_dup_lines:
 * @self: a #LodeIndexStore
 * @path: a file's path
 * @first: first line, 1-based
 * @last: last line, inclusive
 * @error: return location for a #GError
 *
 * The text of lines @first to @last as indexed (from the chunks, which cover every line),
 * each with its newline but the last.
 *
 * Returns: (transfer full): the text; empty when the file or the lines are not indexed
 */
char *
lode_index_store_dup_lines (LodeIndexStore  *self,
                            const char      *path,
                            guint            first,
                            guint            last,
                            GError         **error)
{
  g_autoptr(GPtrArray) chunks = NULL;
  GString *out;
  guint next = first;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  chunks = LODE_INDEX_STORE_GET_IFACE (self)->dup_line_chunks (self, path, first, last, error);
  if (chunks == NULL)
    return NULL;
  out = g_string_new (NULL);

  for (guint c = 0; c < chunks->len && next <= last; c++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, c);
      guint line = chunk->start_line;

      /* Chunks of unstructured text overlap; a line already taken is skipped. */
      for (const char *p = chunk->content != NULL ? chunk->content : "";
           line <= chunk->end_line && next <= last; line++)
        {
          const char *eol = strchr (p, '\n');
          gsize n = eol != NULL ? (gsize) (eol - p) : strlen (p);

          if (line == next)
            {
              if (out->len > 0 || line > first)
                g_string_append_c (out, '\n');
              g_string_append_len (out, p, n);
              next++;
            }
          if (eol == NULL)
            break;
          p = eol + 1;
        }
    }
  return g_string_free (out, FALSE);
}

GPtrArray *
lode_index_store_dup_artifacts (LodeIndexStore  *self,
                                GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_artifacts (self, error);
}

GPtrArray *
lode_index_store_dup_artifact_chunks (LodeIndexStore  *self,
                                      const char      *name,
                                      GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->dup_artifact_chunks (self, name, error);
}

gboolean
lode_index_store_put_artifact (LodeIndexStore            *self,
                               const LodeStoredArtifact  *artifact,
                               GPtrArray                 *chunks,
                               GError                   **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (artifact != NULL && artifact->name != NULL, FALSE);
  g_return_val_if_fail (chunks != NULL, FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->put_artifact (self, artifact, chunks, error);
}

gboolean
lode_index_store_remove_artifact (LodeIndexStore  *self,
                                  const char      *name,
                                  GError         **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return LODE_INDEX_STORE_GET_IFACE (self)->remove_artifact (self, name, error);
}

GPtrArray *
lode_index_store_find_artifact_pieces (LodeIndexStore      *self,
                                       const char * const  *prefixes,
                                       const char          *artifact,
                                       guint                limit,
                                       LodeArtifactStats   *stats,
                                       GError             **error)
{
  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (prefixes != NULL && prefixes[0] != NULL, NULL);
  g_return_val_if_fail (stats != NULL && stats->n_holding != NULL, NULL);

  return LODE_INDEX_STORE_GET_IFACE (self)->find_artifact_pieces (self, prefixes, artifact, limit,
                                                                  stats, error);
}

/**
 * lode_index_store_find_text_files:
 * @self: a #LodeIndexStore
 * @query: what a file must hold (lode_grep_query_for_pattern())
 * @indexed: (out) (optional): whether the store narrowed the files by @query; %FALSE when
 *   it keeps no index of trigrams (or @query requires nothing) and every file is returned
 * @error: return location for a #GError
 *
 * The files that may hold a text @query describes: every file whose indexed text holds
 * each trigram of each literal @query requires (AND and OR as it says), never fewer. The
 * caller reads them to find the lines.
 *
 * Returns: (transfer full) (element-type LodeStoredFile): the candidates, by path, with their
 *   path and language (a store may leave the rest unset)
 */
GPtrArray *
lode_index_store_find_text_files (LodeIndexStore       *self,
                                  const LodeGrepQuery  *query,
                                  gboolean             *indexed,
                                  GError              **error)
{
  LodeIndexStoreInterface *iface;
  GPtrArray *files;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (self), NULL);
  g_return_val_if_fail (query != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  iface = LODE_INDEX_STORE_GET_IFACE (self);
  if (indexed != NULL)
    *indexed = FALSE;
  if (iface->find_text_files == NULL || query->kind == LODE_GREP_QUERY_ALL)
    return iface->dup_files (self, error);

  files = iface->find_text_files (self, query, error);
  if (files != NULL && indexed != NULL)
    *indexed = TRUE;
  return files;
}
