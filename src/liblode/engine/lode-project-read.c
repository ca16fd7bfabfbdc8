/* lode-project-read.c — the shared reader of a project's index, and its searches
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-project"

#include "config.h"

#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-project-private.h"

/* A damaged index (found on opening it, or by a query that read a broken page) gets the
 * project's name and the remedy, for every front end, once: _lode_project_dup_reader()
 * explains what it finds, and status and search explain what their queries find after it. */
void
_lode_project_explain_damage (LodeProject  *self,
                              GError      **error)
{
  g_autoptr(GError) damage = NULL;
  g_autofree char *prefix = NULL;

  if (error == NULL || !g_error_matches (*error, LODE_ERROR, LODE_ERROR_DAMAGED))
    return;
  prefix = g_strdup_printf ("The index of %s cannot be used: ", self->root);
  if (g_str_has_prefix ((*error)->message, prefix))
    return;

  damage = g_steal_pointer (error);
  g_set_error (error, LODE_ERROR, LODE_ERROR_DAMAGED,
               "%s%s. Index the project again (codebase_index, or `lode index %s`): the "
               "damaged file is kept aside and the index is rebuilt from scratch.", prefix,
               damage->message, self->root);
}

/* The SQLite half of _lode_project_dup_reader(). */
static gboolean
dup_sqlite_reader (LodeProject  *self,
                   const char   *db_path,
                   GError      **error)
{
  GStatBuf st;

  if (self->reader != NULL && (lode_index_store_is_damaged (self->reader) ||
                               g_stat (db_path, &st) != 0 ||
                               st.st_ino != self->reader_inode))
    g_clear_object (&self->reader);

  if (self->reader == NULL)
    {
      self->reader = lode_index_store_open (self->config, LODE_STORE_KIND_SQLITE, db_path, 0,
                                            FALSE, NULL, error);
      if (self->reader == NULL)
        {
          _lode_project_explain_damage (self, error);
          return FALSE;
        }
      self->reader_inode = g_stat (db_path, &st) == 0 ? st.st_ino : 0;
    }
  return TRUE;
}

/* Called with reader_lock held. A SQLite reader is opened again when the file was
 * replaced or found damaged; a Qdrant reader reads the file points again when the data
 * version moved (lode_search_backend_get_version()). Either way, a new generation (a forced
 * run or a migration replaced the index) drops the searcher's vectors. */
LodeIndexStore *
_lode_project_dup_reader (LodeProject  *self,
                          GError      **error)
{
  const char *db_path = _lode_project_reading_db_path (self, NULL, NULL);
  g_autofree char *generation = NULL;

  /* The first read, or another branch's index: the searcher's vectors in memory are of the
   * other one. */
  if (db_path != self->reader_path)
    {
      g_clear_object (&self->reader);
      g_clear_object (&self->searcher);
      self->searcher = lode_searcher_new ();
      lode_searcher_set_quantized (self->searcher, self->config->vector_int8);
      self->reader_path = db_path;
    }

  if (!lode_index_store_exists (self->store_kind, db_path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                   "%s is not indexed yet; run “lode index %s” first", self->root, self->root);
      return NULL;
    }

  if (self->store_kind == LODE_STORE_KIND_QDRANT)
    {
      if (self->reader == NULL)
        self->reader = lode_index_store_open (self->config, LODE_STORE_KIND_QDRANT,
                                              db_path, 0, FALSE, NULL, error);
      else
        lode_search_backend_get_version (LODE_SEARCH_BACKEND (self->reader));
      if (self->reader == NULL)
        return NULL;
    }
  else if (!dup_sqlite_reader (self, db_path, error))
    return NULL;

  /* A forced run elsewhere replaced the index under the same name: chunk and vector ids
   * start over, so the searcher's vectors in memory are of no use. */
  generation = lode_index_store_dup_meta (self->reader, GENERATION_META_KEY);
  if (g_strcmp0 (generation, self->generation) != 0)
    {
      g_clear_object (&self->searcher);
      self->searcher = lode_searcher_new ();
      lode_searcher_set_quantized (self->searcher, self->config->vector_int8);
      g_free (self->generation);
      self->generation = g_steal_pointer (&generation);
    }

  return g_object_ref (self->reader);
}

gboolean
lode_project_is_indexed (LodeProject *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  return lode_index_store_exists (self->store_kind,
                                  _lode_project_reading_db_path (self, NULL, NULL));
}

/**
 * lode_project_read:
 * @self: a #LodeProject
 * @func: what to run
 * @data: data for @func
 * @error: return location for a #GError
 *
 * Runs @func with the project's read connection (opened once, shared with searches), which
 * no other caller uses meanwhile, on one snapshot of the index. For readers of the index
 * outside this file, such as the symbol tools.
 *
 * Returns: (nullable): what @func returned; %NULL with @error set when the project is not
 *   indexed or its index cannot be opened
 */
gpointer
lode_project_read (LodeProject          *self,
                   LodeProjectReadFunc   func,
                   gpointer              data,
                   GError              **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  gpointer result = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (func != NULL, NULL);

  g_mutex_lock (&self->reader_lock);
  store = _lode_project_dup_reader (self, error);
  /* One snapshot for all of @func's statements, as for a search: SQLite then takes its
   * shared lock once, not at each of them (codebase_grep's declarations: one per file). */
  if (store != NULL && lode_search_backend_begin_read (LODE_SEARCH_BACKEND (store), error))
    {
      result = func (self, store, data, error);
      lode_search_backend_end_read (LODE_SEARCH_BACKEND (store));
    }
  g_mutex_unlock (&self->reader_lock);
  if (result == NULL)
    _lode_project_explain_damage (self, error);

  return result;
}

/**
 * lode_project_dup_call_graph:
 * @self: a #LodeProject
 * @error: return location for a #GError
 *
 * The call graph of the project's index (lode_call_graph_load()), kept in memory between
 * calls: it is read again when the index changed since, that is when its data version moved
 * (a commit by any writer, in this process or another) or the read connection was opened on
 * another index (a rebuild, a branch switch). The graph is shared: read it, never add to it.
 *
 * Returns: (transfer full) (nullable): the graph; %NULL with @error set when the project is
 *   not indexed or its index cannot be read
 */
LodeCallGraph *
lode_project_dup_call_graph (LodeProject  *self,
                             GError      **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  LodeCallGraph *graph = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  g_mutex_lock (&self->reader_lock);
  store = _lode_project_dup_reader (self, error);
  if (store != NULL)
    {
      /* Read before the graph: a commit while it loads moves the version again. */
      gint64 version = lode_search_backend_get_version (LODE_SEARCH_BACKEND (store));

      if (self->calls == NULL || self->calls_reader != store || version < 0 ||
          version != self->calls_version)
        {
          g_clear_object (&self->calls);
          g_clear_object (&self->calls_reader);
          self->calls = lode_call_graph_load (store, error);
          if (self->calls != NULL)
            {
              self->calls_reader = g_object_ref (store);
              self->calls_version = version;
            }
        }
      if (self->calls != NULL)
        graph = g_object_ref (self->calls);
    }
  g_mutex_unlock (&self->reader_lock);

  return graph;
}

static gboolean
is_blank (const char *text)
{
  for (; *text != '\0'; text++)
    if (!g_ascii_isspace (*text))
      return FALSE;

  return TRUE;
}

/**
 * lode_project_search:
 * @self: a #LodeProject
 * @options: the query, its filters and mode
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * lode_project_search_full() without what the response says about the mode.
 *
 * Returns: (transfer full) (element-type LodeSearchResult): results, best first
 */
GPtrArray *
lode_project_search (LodeProject              *self,
                     const LodeSearchOptions  *options,
                     GCancellable             *cancellable,
                     GError                  **error)
{
  g_autoptr(LodeSearchResponse) response = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  response = lode_project_search_full (self, options, cancellable, error);
  if (response == NULL)
    return NULL;

  return g_steal_pointer (&response->results);
}

/**
 * lode_project_search_full:
 * @self: a #LodeProject
 * @options: the query, its filters and mode
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Searches the index; safe to call while the project is being indexed or embedded (WAL
 * readers see the last committed batch, and the dense leg covers the chunks embedded so far).
 *
 * Hybrid mode fuses BM25 and the vector neighbours of the query (see
 * lode_searcher_search()). Without an embedder, or when the query cannot be embedded,
 * hybrid runs BM25 alone and the response says so (mode lexical, a notice); semantic mode
 * fails with %LODE_ERROR_EMBEDDER instead. Embedding the query blocks (a model run or an
 * HTTP request): call this from a worker thread or a command-line tool.
 *
 * Returns: (transfer full): the results and the mode that ran
 */
LodeSearchResponse *
lode_project_search_full (LodeProject              *self,
                          const LodeSearchOptions  *options,
                          GCancellable             *cancellable,
                          GError                  **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) embedding = NULL;
  g_autoptr(GError) embed_error = NULL;
  g_autofree char *unavailable = NULL;
  LodeQueryVector query = { 0 };
  LodeSearchResponse *response = NULL;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (options != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  if (options->query == NULL || is_blank (options->query))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY, "The query is empty");
      return NULL;
    }

  embedder = _lode_project_dup_embedder (self, &unavailable);

  /* The query is embedded outside the lock: it may take a while. */
  if (options->mode != LODE_SEARCH_MODE_LEXICAL && embedder != NULL)
    {
      const char *texts[] = { options->query, NULL };

      embedding = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_QUERY, cancellable,
                                            &embed_error);
      if (embedding != NULL && embedding->n_vectors != 1)
        {
          g_set_error (&embed_error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s returned %u vectors for one query", lode_embedder_get_model (embedder),
                       embedding->n_vectors);
          g_clear_pointer (&embedding, lode_embeddings_free);
        }
      if (g_error_matches (embed_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        {
          g_propagate_error (error, g_steal_pointer (&embed_error));
          return NULL;
        }
      if (embedding == NULL)
        unavailable = g_strdup (embed_error->message);
      else
        {
          query.model = lode_embedder_get_model (embedder);
          query.dims = embedding->dims;
          query.vector = embedding->data;
        }
    }

  g_mutex_lock (&self->reader_lock);
  store = _lode_project_dup_reader (self, error);
  if (store != NULL)
    response = lode_searcher_search (self->searcher, LODE_SEARCH_BACKEND (store), options,
                                     embedding != NULL ? &query : NULL, unavailable,
                                     cancellable, error);
  g_mutex_unlock (&self->reader_lock);

  if (response == NULL)
    _lode_project_explain_damage (self, error);

  return response;
}

/* Import graph (issue #6) */

/**
 * lode_project_load_graph:
 * @self: a #LodeProject
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the import graph of the index, frozen
 */
LodeGraph *
lode_project_load_graph (LodeProject  *self,
                         GError      **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  LodeGraph *graph;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);

  g_mutex_lock (&self->reader_lock);
  store = _lode_project_dup_reader (self, error);
  graph = store != NULL ? lode_index_store_load_graph (store, error) : NULL;
  g_mutex_unlock (&self->reader_lock);

  return graph;
}

/**
 * lode_project_dup_imports:
 * @self: a #LodeProject
 * @path: a file, relative to the root
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoredImport): the imports of @path, by line
 */
GPtrArray *
lode_project_dup_imports (LodeProject  *self,
                          const char   *path,
                          GError      **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  GPtrArray *imports;

  g_return_val_if_fail (LODE_IS_PROJECT (self), NULL);
  g_return_val_if_fail (path != NULL, NULL);

  g_mutex_lock (&self->reader_lock);
  store = _lode_project_dup_reader (self, error);
  imports = store != NULL ? lode_index_store_dup_imports (store, path, error) : NULL;
  g_mutex_unlock (&self->reader_lock);

  return imports;
}

/**
 * lode_project_get_graph_counts:
 * @self: a #LodeProject
 * @counts: (out caller-allocates): imports and how they resolve
 * @enabled: (out) (optional): whether indexing maintains the graph
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
lode_project_get_graph_counts (LodeProject      *self,
                               LodeGraphCounts  *counts,
                               gboolean         *enabled,
                               GError          **error)
{
  g_autoptr(LodeIndexStore) store = NULL;
  g_autofree char *state = NULL;
  gboolean ok;

  g_return_val_if_fail (LODE_IS_PROJECT (self), FALSE);
  g_return_val_if_fail (counts != NULL, FALSE);

  g_mutex_lock (&self->reader_lock);
  store = _lode_project_dup_reader (self, error);
  ok = store != NULL && lode_index_store_get_graph_counts (store, counts, error);
  if (ok)
    state = lode_index_store_dup_meta (store, LODE_GRAPH_META_KEY);
  g_mutex_unlock (&self->reader_lock);

  if (ok && enabled != NULL)
    *enabled = g_strcmp0 (state, "off") != 0;

  return ok;
}
