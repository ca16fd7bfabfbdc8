/* lode-search-backend.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-glob.h"
#include "lode-search-private.h"

G_DEFINE_INTERFACE (LodeSearchBackend, lode_search_backend, G_TYPE_OBJECT)

static void
lode_search_backend_default_init (LodeSearchBackendInterface *iface)
{
}

static void
lexical_group_free (LodeLexicalGroup *group)
{
  g_free (group->term);
  g_strfreev (group->parts);
  g_free (group);
}

LodeLexicalQuery *
_lode_lexical_query_new (void)
{
  LodeLexicalQuery *query = g_new0 (LodeLexicalQuery, 1);

  query->groups = g_ptr_array_new_with_free_func ((GDestroyNotify) lexical_group_free);
  return query;
}

void
lode_lexical_query_free (LodeLexicalQuery *query)
{
  if (query == NULL)
    return;

  g_ptr_array_unref (query->groups);
  g_free (query);
}

void
lode_chunk_row_free (LodeChunkRow *row)
{
  if (row == NULL)
    return;

  g_free (row->path);
  g_free (row->language);
  g_free (row->kind);
  g_free (row->symbol);
  g_free (row->container);
  g_free (row->signature);
  g_free (row);
}

void
lode_symbol_row_free (LodeSymbolRow *row)
{
  if (row == NULL)
    return;

  g_free (row->name);
  g_free (row->kind);
  g_free (row->container);
  g_free (row->signature);
  g_free (row);
}

void
lode_path_row_free (LodePathRow *row)
{
  if (row == NULL)
    return;

  g_free (row->path);
  g_free (row->language);
  g_free (row);
}

/**
 * lode_search_path_filter_matches:
 * @filter: a path filter as users write it
 * @path: a path relative to the project root
 *
 * A filter with a glob character (`*`, `?`, `[`) is a glob (lode_glob_match_path(): without
 * a `/` it matches any path component); a plain string also matches the
 * paths that contain it (`store/lode-` finds `src/liblode/store/lode-store.c`).
 *
 * Returns: whether @path passes @filter
 */
gboolean
lode_search_path_filter_matches (const char *filter,
                                 const char *path)
{
  const char *plain = filter;

  g_return_val_if_fail (filter != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (lode_glob_match_path (filter, path))
    return TRUE;
  if (strpbrk (filter, "*?[") != NULL)
    return FALSE;

  while (g_str_has_prefix (plain, "./"))
    plain += 2;

  return *plain != '\0' && strstr (path, plain) != NULL;
}

/**
 * lode_search_filter_accepts:
 * @filter: (nullable): a filter
 * @language: (nullable): a file's language id
 * @path: (nullable): its path
 *
 * Returns: whether a file of @language at @path passes @filter; the language is compared
 *   ignoring ASCII case
 */
gboolean
lode_search_filter_accepts (const LodeSearchFilter *filter,
                            const char             *language,
                            const char             *path)
{
  if (filter == NULL)
    return TRUE;

  if (filter->language != NULL &&
      (language == NULL || g_ascii_strcasecmp (language, filter->language) != 0))
    return FALSE;

  return filter->path_glob == NULL ||
         (path != NULL && lode_search_path_filter_matches (filter->path_glob, path));
}

gboolean
lode_search_backend_lexical (LodeSearchBackend       *self,
                             const LodeLexicalQuery  *query,
                             const LodeSearchFilter  *filter,
                             guint                    limit,
                             GCancellable            *cancellable,
                             GArray                  *hits,
                             double                  *weight,
                             GError                 **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), FALSE);
  g_return_val_if_fail (query != NULL && hits != NULL && weight != NULL, FALSE);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->lexical (self, query, filter, limit,
                                                         cancellable, hits, weight, error);
}

gboolean
lode_search_backend_score_lexical (LodeSearchBackend       *self,
                                   const LodeLexicalQuery  *query,
                                   const gint64            *chunk_ids,
                                   guint                    n_chunks,
                                   double                  *scores,
                                   GError                 **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), FALSE);
  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (n_chunks == 0 || (chunk_ids != NULL && scores != NULL), FALSE);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->score_lexical (self, query, chunk_ids, n_chunks,
                                                               scores, error);
}

/**
 * lode_search_backend_find_symbols:
 * @self: a #LodeSearchBackend
 * @name: a declared name
 * @limit: the most rows wanted
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeSymbolRow): declarations named @name, ignoring
 *   case
 */
GPtrArray *
lode_search_backend_find_symbols (LodeSearchBackend  *self,
                                  const char         *name,
                                  guint               limit,
                                  GError            **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), NULL);
  g_return_val_if_fail (name != NULL, NULL);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->find_symbols (self, name, limit, error);
}

/**
 * lode_search_backend_find_chunk_symbols:
 * @self: a #LodeSearchBackend
 * @chunk_id: a chunk
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeSymbolRow): the declarations whose first line
 *   @chunk_id holds, by line: a class and its methods, or the declarations of a chunk that
 *   merges several
 */
GPtrArray *
lode_search_backend_find_chunk_symbols (LodeSearchBackend  *self,
                                        gint64              chunk_id,
                                        GError            **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), NULL);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->find_chunk_symbols (self, chunk_id, error);
}

/**
 * lode_search_backend_fetch_chunks:
 * @self: a #LodeSearchBackend
 * @chunk_ids: (array length=n_chunks): chunks
 * @n_chunks: how many
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeChunkRow): one row per id, in order; %NULL
 *   elements for chunks that are gone
 */
GPtrArray *
lode_search_backend_fetch_chunks (LodeSearchBackend  *self,
                                  const gint64       *chunk_ids,
                                  guint               n_chunks,
                                  GError            **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), NULL);
  g_return_val_if_fail (n_chunks == 0 || chunk_ids != NULL, NULL);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->fetch_chunks (self, chunk_ids, n_chunks, error);
}

/**
 * lode_search_backend_dup_chunk_text:
 * @self: a #LodeSearchBackend
 * @chunk_id: a chunk
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): its text; %NULL without an error for a chunk that is
 *   gone
 */
char *
lode_search_backend_dup_chunk_text (LodeSearchBackend  *self,
                                    gint64              chunk_id,
                                    GError            **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), NULL);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->dup_chunk_text (self, chunk_id, error);
}

/**
 * lode_search_backend_find_paths:
 * @self: a #LodeSearchBackend
 * @needle: part of a path
 * @filter: (nullable): which files
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodePathRow): the files whose path contains
 *   @needle, ignoring ASCII case
 */
GPtrArray *
lode_search_backend_find_paths (LodeSearchBackend       *self,
                                const char              *needle,
                                const LodeSearchFilter  *filter,
                                GError                 **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), NULL);
  g_return_val_if_fail (needle != NULL, NULL);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->find_paths (self, needle, filter, error);
}

gint64
lode_search_backend_get_version (LodeSearchBackend *self)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), -1);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->get_version (self);
}

/**
 * lode_search_backend_dup_chunk_ids:
 * @self: a #LodeSearchBackend
 * @filter: (nullable): which files
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type gint64): without a filter, the chunks that can have
 *   a vector; with one, every chunk of the files that pass it; ascending
 */
GArray *
lode_search_backend_dup_chunk_ids (LodeSearchBackend       *self,
                                   const LodeSearchFilter  *filter,
                                   GError                 **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), NULL);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->dup_chunk_ids (self, filter, error);
}

gboolean
lode_search_backend_get_vector_dims (LodeSearchBackend  *self,
                                     const char         *model,
                                     guint              *dims,
                                     GError            **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), FALSE);
  g_return_val_if_fail (model != NULL && dims != NULL, FALSE);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->get_vector_dims (self, model, dims, error);
}

/**
 * lode_search_backend_load_vectors:
 * @self: a #LodeSearchBackend
 * @model: the embedding model
 * @dims: dimensions of its vectors
 * @cursor: (inout): where the previous load ended; zero-filled for a first load
 * @func: (scope call): called with each chunk id and its vector
 * @user_data: data for @func
 * @error: return location for a #GError
 *
 * Calls @func for every chunk that got a vector of @model since @cursor, from one snapshot
 * of the index, and moves @cursor to its end. Chunk ids are never reused and a chunk never
 * gets another vector, so a caller that also drops the chunks that are gone
 * (lode_search_backend_dup_chunk_ids()) stays exactly in sync.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_search_backend_load_vectors (LodeSearchBackend  *self,
                                  const char         *model,
                                  guint               dims,
                                  LodeVectorCursor   *cursor,
                                  LodeVectorFunc      func,
                                  gpointer            user_data,
                                  GError            **error)
{
  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), FALSE);
  g_return_val_if_fail (model != NULL && cursor != NULL && func != NULL, FALSE);

  return LODE_SEARCH_BACKEND_GET_IFACE (self)->load_vectors (self, model, dims, cursor, func,
                                                              user_data, error);
}

/**
 * lode_search_backend_doc_frequencies:
 * @self: a #LodeSearchBackend
 * @terms: (array length=n_terms): tokens as the code tokenizer writes them
 * @n_terms: how many
 * @counts: (out caller-allocates) (array length=n_terms): how many chunks hold each term
 * @n_chunks: (out): how many chunks the index has; 0 when the backend cannot tell, and
 *   then every count is 0 too
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_search_backend_doc_frequencies (LodeSearchBackend  *self,
                                     const char *const  *terms,
                                     guint               n_terms,
                                     guint              *counts,
                                     guint              *n_chunks,
                                     GError            **error)
{
  LodeSearchBackendInterface *iface;

  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), FALSE);
  g_return_val_if_fail (n_terms == 0 || (terms != NULL && counts != NULL), FALSE);
  g_return_val_if_fail (n_chunks != NULL, FALSE);

  iface = LODE_SEARCH_BACKEND_GET_IFACE (self);
  if (iface->doc_frequencies == NULL)
    {
      memset (counts, 0, n_terms * sizeof (guint));
      *n_chunks = 0;
      return TRUE;
    }

  return iface->doc_frequencies (self, terms, n_terms, counts, n_chunks, error);
}

/**
 * lode_search_backend_find_text:
 * @self: a #LodeSearchBackend
 * @text: what a chunk's text must hold, as typed (ASCII case is ignored)
 * @max_chunks: how many chunks may hold @text before it counts as common
 * @chunk_ids: (element-type gint64): the chunks that hold @text are appended, in no order
 * @common: (out): %TRUE when more than @max_chunks chunks hold @text (then none is
 *   appended); %FALSE otherwise, and when the backend cannot look text up
 * @error: return location for a #GError
 *
 * Finds the chunks that hold a literal, such as an error message pasted into a query. A
 * backend without an index of its text (a server) finds none.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_search_backend_find_text (LodeSearchBackend  *self,
                               const char         *text,
                               guint               max_chunks,
                               GArray             *chunk_ids,
                               gboolean           *common,
                               GError            **error)
{
  LodeSearchBackendInterface *iface;

  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), FALSE);
  g_return_val_if_fail (text != NULL, FALSE);
  g_return_val_if_fail (chunk_ids != NULL, FALSE);
  g_return_val_if_fail (common != NULL, FALSE);

  *common = FALSE;
  iface = LODE_SEARCH_BACKEND_GET_IFACE (self);
  if (iface->find_text == NULL)
    return TRUE;

  return iface->find_text (self, text, max_chunks, chunk_ids, common, error);
}

/**
 * lode_search_backend_begin_read:
 * @self: a #LodeSearchBackend
 * @error: return location for a #GError
 *
 * Starts reading one snapshot of the index: every call until
 * lode_search_backend_end_read() sees the same version, and a database pays its locks once
 * rather than at every statement. Optional; a backend without snapshots does nothing.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_search_backend_begin_read (LodeSearchBackend  *self,
                                GError            **error)
{
  LodeSearchBackendInterface *iface;

  g_return_val_if_fail (LODE_IS_SEARCH_BACKEND (self), FALSE);

  iface = LODE_SEARCH_BACKEND_GET_IFACE (self);
  return iface->begin_read == NULL || iface->begin_read (self, error);
}

/**
 * lode_search_backend_end_read:
 * @self: a #LodeSearchBackend
 *
 * Ends what lode_search_backend_begin_read() started.
 */
void
lode_search_backend_end_read (LodeSearchBackend *self)
{
  LodeSearchBackendInterface *iface;

  g_return_if_fail (LODE_IS_SEARCH_BACKEND (self));

  iface = LODE_SEARCH_BACKEND_GET_IFACE (self);
  if (iface->end_read != NULL)
    iface->end_read (self);
}
