/* lode-index-store-factory.c — which store holds a project's index: opening, building aside,
 * installing, removing and copying indexes
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-store"

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lode-error.h"
#include "lode-index-store-factory.h"
#include "lode-qdrant-store.h"
#include "lode-secret.h"
#include "lode-store.h"

static const char * const kind_names[] = {
  [LODE_STORE_KIND_SQLITE] = "sqlite",
  [LODE_STORE_KIND_QDRANT] = "qdrant",
};

/**
 * lode_store_kind_from_string:
 * @name: "sqlite" or "qdrant"
 * @kind: (out): the kind
 *
 * Returns: whether @name names a store
 */
gboolean
lode_store_kind_from_string (const char    *name,
                             LodeStoreKind *kind)
{
  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (g_strcmp0 (name, kind_names[i]) == 0)
      {
        *kind = i;
        return TRUE;
      }
  return FALSE;
}

const char *
lode_store_kind_to_string (LodeStoreKind kind)
{
  g_return_val_if_fail (kind < G_N_ELEMENTS (kind_names), NULL);

  return kind_names[kind];
}

/* A project's index file is `index.db`, or `branch-NAME.db` for a branch when indexes are
 * branch-aware (issue #14): its name without `.db`, or NULL for `index.db`. */
static char *
dup_branch_stem (const char *db_path)
{
  g_autofree char *base = g_path_get_basename (db_path);

  if (g_str_equal (base, "index.db") || !g_str_has_suffix (base, ".db"))
    return NULL;
  base[strlen (base) - strlen (".db")] = '\0';
  return g_steal_pointer (&base);
}

/**
 * lode_index_store_dup_collection:
 * @db_path: a project's index file (`…/projects/ID/index.db`, or `…/branch-NAME.db` for a
 *   branch)
 *
 * Returns: (transfer full): the name of the project's Qdrant collection, `lode-ID` (or
 *   `lode-ID-branch-NAME`): the same on every machine that indexes the same path
 */
char *
lode_index_store_dup_collection (const char *db_path)
{
  g_autofree char *dir = g_path_get_dirname (db_path);
  g_autofree char *id = g_path_get_basename (dir);
  g_autofree char *stem = dup_branch_stem (db_path);

  return stem != NULL ? g_strconcat ("lode-", id, "-", stem, NULL)
                      : g_strconcat ("lode-", id, NULL);
}

typedef struct
{
  char     *key;
  GError   *error;
  gboolean  done;
} KeyLookup;

static void
key_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  KeyLookup *lookup = user_data;

  lookup->key = lode_secret_dup_api_key_finish (result, &lookup->error);
  lookup->done = TRUE;
}

/* The Qdrant key: the environment's (in @config), else the keyring's; none is fine (a
 * server without keys). Runs the keyring call on a private main context: worker threads. */
static char *
dup_qdrant_key (const LodeConfig *config)
{
  g_autoptr(GMainContext) context = NULL;
  KeyLookup lookup = { 0 };

  if (config->qdrant_api_key != NULL)
    return g_strdup (config->qdrant_api_key);

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  lode_secret_dup_api_key_async ("qdrant", NULL, key_cb, &lookup);
  while (!lookup.done)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  if (lookup.error != NULL)
    {
      g_debug ("No Qdrant key from the keyring: %s", lookup.error->message);
      g_clear_error (&lookup.error);
    }
  return lookup.key;
}

/* A project indexed into Qdrant has a marker beside where its SQLite file would be: the
 * server and the collection, so that the engine knows the index exists and what to delete
 * with the project. */
static char *
marker_path (const char *db_path)
{
  g_autofree char *dir = g_path_get_dirname (db_path);
  g_autofree char *stem = dup_branch_stem (db_path);
  g_autofree char *name = stem != NULL ? g_strconcat (stem, ".qdrant", NULL) : NULL;

  return g_build_filename (dir, name != NULL ? name : "qdrant", NULL);
}

/**
 * lode_index_store_exists:
 * @kind: the store
 * @db_path: the project's index file
 *
 * Returns: whether the project has an index in @kind (for Qdrant: whether a writer of this
 *   machine made or used its collection)
 */
gboolean
lode_index_store_exists (LodeStoreKind  kind,
                         const char    *db_path)
{
  g_autofree char *marker = NULL;

  if (kind == LODE_STORE_KIND_SQLITE)
    return g_file_test (db_path, G_FILE_TEST_IS_REGULAR);

  marker = marker_path (db_path);
  return g_file_test (marker, G_FILE_TEST_IS_REGULAR);
}

/* A client of the Qdrant server at @url, with the key and CA of @config. */
static LodeQdrantClient *
new_client (const LodeConfig  *config,
            const char        *url,
            GError           **error)
{
  g_autofree char *key = dup_qdrant_key (config);
  g_autoptr(LodeQdrantClient) client = lode_qdrant_client_new (url, key, error);

  if (client == NULL ||
      (config->qdrant_ca_file != NULL &&
       !lode_qdrant_client_set_ca_file (client, config->qdrant_ca_file, error)))
    return NULL;
  return g_steal_pointer (&client);
}

/* Notes that @db_path's index is the collection @name of the configured server. */
static void
write_marker (const LodeConfig *config,
              const char       *db_path,
              const char       *name)
{
  g_autofree char *marker = marker_path (db_path);
  g_autofree char *text = g_strdup_printf ("%s\n%s\n", config->qdrant_url, name);
  g_autoptr(GError) error = NULL;

  /* Without the marker the engine would not see the index; say so, but the index itself is
   * fine. */
  if (!g_file_set_contents (marker, text, -1, &error))
    g_warning ("Cannot note the Qdrant collection %s: %s", name, error->message);
}

/**
 * lode_index_store_remove:
 * @config: the settings (the Qdrant key, CA)
 * @kind: the store
 * @db_path: the project's index file
 * @error: return location for a #GError
 *
 * Deletes the project's index in @kind: the SQLite files, or the Qdrant collection its
 * marker names (on the server it was made on: the alias and the collection behind it, see
 * lode_qdrant_store_delete()) and the marker.
 *
 * Returns: %TRUE when nothing of it is left
 */
gboolean
lode_index_store_remove (const LodeConfig  *config,
                         LodeStoreKind      kind,
                         const char        *db_path,
                         GError           **error)
{
  g_autofree char *marker = NULL;
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(LodeQdrantClient) client = NULL;

  if (kind == LODE_STORE_KIND_SQLITE)
    return lode_store_remove_files (db_path, error);

  marker = marker_path (db_path);
  if (!g_file_get_contents (marker, &text, NULL, NULL))
    return TRUE;
  lines = g_strsplit (text, "\n", 3);
  if (lines[0] == NULL || lines[1] == NULL)
    {
      g_unlink (marker);
      return TRUE;
    }

  client = new_client (config, lines[0], error);
  if (client == NULL || !lode_qdrant_store_delete (client, lines[1], NULL, error))
    {
      g_prefix_error (error, "Cannot delete the Qdrant collection %s: ", lines[1]);
      return FALSE;
    }

  g_unlink (marker);
  return TRUE;
}

/* A client of the configured server, and how to make collections there. */
static LodeQdrantClient *
configured_client (const LodeConfig          *config,
                   guint                      dims,
                   LodeQdrantCollectionSpec  *spec,
                   GError                   **error)
{
  if (config->qdrant_url == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "The Qdrant store needs a server: set LODE_QDRANT_URL or the qdrant-url "
                   "setting");
      return NULL;
    }

  spec->dims = dims;
  spec->shard_number = config->qdrant_shards;
  spec->replication_factor = config->qdrant_replicas;
  return new_client (config, config->qdrant_url, error);
}

/**
 * lode_index_store_open:
 * @config: the settings: which server, its key, shards and replicas
 * @kind: the store
 * @db_path: the project's index file (SQLite), whose folder names the Qdrant collection
 * @dims: the size of the embedder's vectors when known, else 0 (a Qdrant collection made
 *   without it holds no dense vectors)
 * @writer: open for writing (makes or resets the index as needed) or only for reading
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Blocks; call it from a worker thread.
 *
 * Returns: (transfer full): the project's index
 */
LodeIndexStore *
lode_index_store_open (const LodeConfig  *config,
                       LodeStoreKind      kind,
                       const char        *db_path,
                       guint              dims,
                       gboolean           writer,
                       GCancellable      *cancellable,
                       GError           **error)
{
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autofree char *collection = NULL;
  LodeQdrantCollectionSpec spec = { 0 };
  LodeQdrantStore *store;

  g_return_val_if_fail (config != NULL && db_path != NULL, NULL);

  if (kind == LODE_STORE_KIND_SQLITE)
    return LODE_INDEX_STORE (writer ? lode_store_open (db_path, error)
                                    : lode_store_open_reader (db_path, error));

  client = configured_client (config, dims, &spec, error);
  if (client == NULL)
    return NULL;

  collection = lode_index_store_dup_collection (db_path);
  store = lode_qdrant_store_open (client, collection, &spec, writer, cancellable, error);
  if (store != NULL && writer)
    write_marker (config, db_path, collection);
  return LODE_INDEX_STORE (store);
}

/* The path of the SQLite index a run builds aside. */
static char *
aside_path (const char *db_path)
{
  return g_strconcat (db_path, ".new", NULL);
}

/**
 * lode_index_store_remove_leftovers:
 * @kind: the store
 * @db_path: the project's index file
 * @error: return location for a #GError
 *
 * Removes what a run building aside left when it was killed: `index.db.new` (a Qdrant writer
 * deletes unfinished generations when it opens the collection). The caller holds the writer
 * lock.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_index_store_remove_leftovers (LodeStoreKind   kind,
                                   const char     *db_path,
                                   GError        **error)
{
  g_autofree char *aside = aside_path (db_path);

  return kind != LODE_STORE_KIND_SQLITE || lode_store_remove_files (aside, error);
}

/**
 * lode_index_store_open_aside:
 * @config: the settings
 * @kind: the store
 * @db_path: the project's index file
 * @dims: the size of the embedder's vectors when known, else 0
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Opens a new, empty index for a run that replaces the project's whole (a forced run, a
 * migration), beside the one readers keep using: SQLite `index.db.new`, a new generation of
 * the Qdrant collection (lode_qdrant_store_open_aside()). Then lode_index_store_install()
 * puts it in place, or lode_index_store_discard() drops it. The caller holds the writer lock.
 *
 * Returns: (transfer full): the new index, or %NULL
 */
LodeIndexStore *
lode_index_store_open_aside (const LodeConfig  *config,
                             LodeStoreKind      kind,
                             const char        *db_path,
                             guint              dims,
                             GCancellable      *cancellable,
                             GError           **error)
{
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autofree char *collection = NULL;
  g_autofree char *aside = aside_path (db_path);
  LodeQdrantCollectionSpec spec = { 0 };

  g_return_val_if_fail (config != NULL && db_path != NULL, NULL);

  if (kind == LODE_STORE_KIND_SQLITE)
    return LODE_INDEX_STORE (lode_store_open_aside (aside, error));

  client = configured_client (config, dims, &spec, error);
  if (client == NULL)
    return NULL;
  collection = lode_index_store_dup_collection (db_path);
  return LODE_INDEX_STORE (lode_qdrant_store_open_aside (client, collection, &spec, cancellable,
                                                         error));
}

/**
 * lode_index_store_install:
 * @config: the settings
 * @kind: the store
 * @aside: (transfer full): what lode_index_store_open_aside() gave, its batches committed
 * @db_path: the project's index file
 * @error: return location for a #GError
 *
 * Closes @aside and puts it in place of the project's index: lode_store_install() for
 * SQLite, an alias switch for Qdrant (lode_qdrant_store_install()). Readers go from the old
 * index to the new one between two queries.
 *
 * Returns: %TRUE when the new index is the project's
 */
gboolean
lode_index_store_install (const LodeConfig  *config,
                          LodeStoreKind      kind,
                          LodeIndexStore    *aside,
                          const char        *db_path,
                          GError           **error)
{
  g_autoptr(LodeIndexStore) store = aside;
  g_autofree char *path = aside_path (db_path);
  g_autofree char *collection = NULL;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (aside), FALSE);

  if (kind == LODE_STORE_KIND_SQLITE)
    {
      if (!lode_store_end_aside (LODE_STORE (store), error))
        return FALSE;
      g_clear_object (&store);
      return lode_store_install (path, db_path, error);
    }

  if (!lode_qdrant_store_install (LODE_QDRANT_STORE (store), NULL, error))
    return FALSE;
  collection = lode_index_store_dup_collection (db_path);
  write_marker (config, db_path, collection);
  return TRUE;
}

/**
 * lode_index_store_discard:
 * @kind: the store
 * @aside: (transfer full): what lode_index_store_open_aside() gave
 * @db_path: the project's index file
 *
 * Closes and deletes @aside: the project's index stays as it was. What cannot be deleted
 * now is deleted by the next run.
 */
void
lode_index_store_discard (LodeStoreKind   kind,
                          LodeIndexStore *aside,
                          const char     *db_path)
{
  g_autoptr(LodeIndexStore) store = aside;
  g_autofree char *path = aside_path (db_path);
  g_autoptr(GError) error = NULL;

  g_return_if_fail (LODE_IS_INDEX_STORE (aside));

  if (kind == LODE_STORE_KIND_SQLITE)
    {
      g_clear_object (&store);
      if (!lode_store_remove_files (path, &error))
        g_warning ("Cannot remove %s: %s", path, error->message);
      return;
    }
  if (!lode_qdrant_store_discard (LODE_QDRANT_STORE (store), &error))
    g_warning ("Cannot delete the unfinished Qdrant collection %s: %s",
               lode_qdrant_store_get_collection (LODE_QDRANT_STORE (store)), error->message);
}

/* Files per batch when copying: a crash loses at most one, as in an index run. */
#define COPY_BATCH_FILES 256
#define COPY_BATCH_VECTORS 64

static const char * const copied_meta[] = { "root", "state", "indexed_at", LODE_GRAPH_META_KEY };

typedef struct
{
  LodeIndexStore  *to;
  const char      *model;
  GPtrArray       *hashes;
  GArray          *values;
  guint            dims;
  guint            n_vectors;
  GError         **error;
  gboolean         failed;
} VectorCopy;

static gboolean
flush_vectors (VectorCopy *copy)
{
  if (copy->hashes->len == 0)
    return TRUE;
  if (!lode_index_store_put_vectors (copy->to, copy->model, copy->dims,
                                     (const char * const *) copy->hashes->pdata,
                                     (const float *) (gpointer) copy->values->data,
                                     copy->hashes->len, NULL, copy->error))
    {
      copy->failed = TRUE;
      return FALSE;
    }
  copy->n_vectors += copy->hashes->len;
  g_ptr_array_set_size (copy->hashes, 0);
  g_array_set_size (copy->values, 0);
  return TRUE;
}

static gboolean
copy_vector_cb (const char  *hash,
                const float *vector,
                guint        dims,
                gpointer     user_data)
{
  VectorCopy *copy = user_data;

  if (copy->dims == 0)
    copy->dims = dims;
  if (dims != copy->dims)
    return TRUE;
  g_ptr_array_add (copy->hashes, g_strdup (hash));
  g_array_append_vals (copy->values, vector, dims);
  return copy->hashes->len < COPY_BATCH_VECTORS || flush_vectors (copy);
}

/* Each artifact with its pieces, as it was indexed (same hash and time): the copy is no
 * more stale than the original. */
static gboolean
copy_artifacts (LodeIndexStore       *from,
                LodeIndexStore       *to,
                GCancellable         *cancellable,
                LodeStoreCopyCounts  *counts,
                GError              **error)
{
  g_autoptr(GPtrArray) artifacts = lode_index_store_dup_artifacts (from, error);

  if (artifacts == NULL)
    return FALSE;
  for (guint i = 0; i < artifacts->len; i++)
    {
      const LodeStoredArtifact *artifact = g_ptr_array_index (artifacts, i);
      g_autoptr(GPtrArray) chunks = NULL;

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        return FALSE;
      chunks = lode_index_store_dup_artifact_chunks (from, artifact->name, error);
      if (chunks == NULL || !lode_index_store_put_artifact (to, artifact, chunks, error))
        return FALSE;
      counts->n_artifacts++;
    }
  return TRUE;
}

/**
 * lode_index_store_copy:
 * @from: the index to read
 * @to: an empty index to write
 * @model: (nullable): the embedding model whose vectors are copied; %NULL for none
 * @cancellable: (nullable): a #GCancellable
 * @counts: (out caller-allocates): what was copied
 * @error: return location for a #GError
 *
 * Copies a project's index between stores without chunking or embedding anything again:
 * files with their hashes, chunks, declarations, symbol references, imports, call sites and
 * calls, the meta
 * that says where the index came from, the context artifacts with their pieces, and the
 * vectors of @model by text. In batches, so that an interrupted copy can simply be run
 * again.
 *
 * Returns: %TRUE when everything was copied
 */
gboolean
lode_index_store_copy (LodeIndexStore       *from,
                       LodeIndexStore       *to,
                       const char           *model,
                       GCancellable         *cancellable,
                       LodeStoreCopyCounts  *counts,
                       GError              **error)
{
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) hashes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) values = g_array_new (FALSE, FALSE, sizeof (float));
  VectorCopy copy = { to, model, hashes, values, 0, 0, error, FALSE };
  guint in_batch = 0;

  g_return_val_if_fail (LODE_IS_INDEX_STORE (from) && LODE_IS_INDEX_STORE (to), FALSE);

  memset (counts, 0, sizeof *counts);
  files = lode_index_store_dup_files (from, error);
  if (files == NULL)
    return FALSE;

  for (guint i = 0; i < files->len; i++)
    {
      const LodeStoredFile *file = g_ptr_array_index (files, i);
      g_autoptr(GPtrArray) chunks = NULL;
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(GArray) symbol_chunks = NULL;
      g_autoptr(GPtrArray) imports = NULL;
      g_autoptr(LodeReferences) references = NULL;
      g_autoptr(GPtrArray) calls = NULL;
      g_autoptr(GBytes) file_sites = NULL;
      GError *sites_error = NULL;
      LodeFileInfo info = { file->path, file->language, file->hash, file->size,
                            file->mtime_usec, file->n_lines };

      if (g_cancellable_set_error_if_cancelled (cancellable, error))
        goto failed;
      if (in_batch == 0 && !lode_index_store_begin (to, error))
        return FALSE;

      chunks = lode_index_store_dup_chunks_for_file (from, file->path, error);
      symbols = chunks != NULL ? lode_index_store_dup_symbols_for_file (from, file->path,
                                                                        &symbol_chunks, error)
                               : NULL;
      imports = symbols != NULL ? lode_index_store_dup_imports (from, file->path, error) : NULL;
      references = imports != NULL ?
                   lode_index_store_dup_references_for_file (from, file->path, error) : NULL;
      calls = references != NULL ? lode_index_store_dup_calls (from, file->path, error) : NULL;
      if (calls != NULL)
        {
          file_sites = lode_index_store_dup_file_call_sites (from, file->path, &sites_error);
          if (sites_error != NULL)
            {
              g_propagate_error (error, sites_error);
              goto failed;
            }
        }
      if (calls == NULL ||
          !lode_index_store_put_file (to, &info, chunks, symbols,
                                      &g_array_index (symbol_chunks, guint, 0), error) ||
          !lode_index_store_put_imports (to, file->path, imports, error) ||
          !lode_index_store_put_references (to, file->path, references, error) ||
          (file_sites != NULL &&
           !lode_index_store_put_call_sites (to, file->path, file_sites, error)) ||
          !lode_index_store_put_calls (to, file->path, calls, error))
        goto failed;

      counts->n_files++;
      counts->n_chunks += chunks->len;
      counts->n_imports += imports->len;
      counts->n_references += lode_references_get_n_names (references) > 0;
      if (++in_batch == COPY_BATCH_FILES)
        {
          in_batch = 0;
          if (!lode_index_store_commit (to, error))
            return FALSE;
        }
    }

  if (in_batch == 0 && !lode_index_store_begin (to, error))
    return FALSE;
  for (guint i = 0; i < G_N_ELEMENTS (copied_meta); i++)
    {
      g_autofree char *value = lode_index_store_dup_meta (from, copied_meta[i]);

      if (value != NULL && !lode_index_store_set_meta (to, copied_meta[i], value, error))
        goto failed;
    }
  if (!lode_index_store_commit (to, error) ||
      !copy_artifacts (from, to, cancellable, counts, error))
    return FALSE;

  if (model != NULL &&
      (!lode_index_store_foreach_vector (from, model, copy_vector_cb, &copy, error) ||
       copy.failed || !flush_vectors (&copy)))
    return FALSE;

  counts->n_vectors = copy.n_vectors;
  return TRUE;

failed:
  lode_index_store_rollback (to);
  return FALSE;
}

/**
 * lode_index_store_seed:
 * @config: the settings
 * @kind: the store
 * @from_db_path: the index file to copy (another branch's)
 * @to_db_path: the index file to make; whatever it held is replaced
 * @dims: the size of the embedder's vectors when known, else 0
 * @model: (nullable): the embedding model whose vectors are copied (Qdrant; the SQLite copy
 *   keeps every model's)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Starts an index as a copy of another (a branch seen for the first time starts from the
 * branch it came from), so that the next index run re-reads only the files that differ.
 * SQLite copies the file with `VACUUM INTO` (a consistent snapshot, even while another
 * process writes @from_db_path); Qdrant copies the points with lode_index_store_copy() into a
 * new generation (lode_index_store_open_aside()), installed when complete. The
 * caller holds the writer lock of @to_db_path. Blocks.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_index_store_seed (const LodeConfig  *config,
                       LodeStoreKind      kind,
                       const char        *from_db_path,
                       const char        *to_db_path,
                       guint              dims,
                       const char        *model,
                       GCancellable      *cancellable,
                       GError           **error)
{
  g_autoptr(LodeIndexStore) from = NULL;
  g_autoptr(LodeIndexStore) to = NULL;
  LodeStoreCopyCounts counts;

  g_return_val_if_fail (config != NULL && from_db_path != NULL && to_db_path != NULL, FALSE);

  from = lode_index_store_open (config, kind, from_db_path, 0, FALSE, cancellable, error);
  if (from == NULL)
    return FALSE;
  if (kind == LODE_STORE_KIND_SQLITE)
    return lode_store_copy_into (LODE_STORE (from), to_db_path, error);

  to = lode_index_store_open_aside (config, kind, to_db_path, dims, cancellable, error);
  if (to == NULL)
    return FALSE;
  if (!lode_index_store_copy (from, to, dims > 0 ? model : NULL, cancellable, &counts, error))
    {
      lode_index_store_discard (kind, g_steal_pointer (&to), to_db_path);
      return FALSE;
    }
  return lode_index_store_install (config, kind, g_steal_pointer (&to), to_db_path, error);
}
