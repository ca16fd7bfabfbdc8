/* lode-qdrant-store.c — a project's index in a Qdrant collection
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One collection per project holds everything the SQLite store keeps (its name is an alias of
 * the real collection of the index's current generation, see "names" below), as kinds of
 * points told apart by the payload field `type` (the context artifacts' two kinds are
 * described in lode-qdrant-store-artifacts.c):
 *
 * - "chunk" (integer id = the chunk id, never reused): path, file_id, language, lines, kind,
 *   symbol, container, signature, text, text_hash (SHA-1 of the text, absent for a blank
 *   chunk), the declarations it holds (`symbols`, with their lower-case names in `names`,
 *   their packages in `packages` and containers in `containers`), the model of its dense
 *   vector (`model`); vectors `bm25` (sparse, client-side BM25 of Lode's tokenizer, see
 *   lode-sparse-vector.c) and `dense` once embedded.
 * - "file" (UUID from the path): file_id, language, content hash, size, mtime, lines, counts,
 *   and its imports with their resolution (`imports`, flattened into `import_keys` and
 *   `import_targets` for filters).
 * - "refs" (UUID from the path): the identifiers a file uses and where, for the symbol tools
 *   (see lode-qdrant-store-symbols.c).
 * - "meta" (UUID from the key): key and value: schema version, state, root, the id counters,
 *   the dense vector's size and a data version bumped by every commit.
 *
 * A writer keeps the file points in memory (the import graph and the hashes are read from
 * there) and writes a batch at commit in an order that makes a crash between two requests
 * harmless: the id counters first, then the old chunks and references of every file of the
 * batch are deleted by filter, the new ones upserted, and only then the file points with
 * their new hashes (lode-qdrant-store-points.c). A crash before the last step leaves the old hash (or none), so the next
 * run chunks the file again and its delete-by-path removes whatever half-written chunks and
 * references it left; a removed file loses them before its file point, so it is removed
 * again when the point is still there. Readers skip chunks and references whose file point
 * is missing.
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-qdrant-store-private.h"

static void lode_qdrant_store_index_store_init    (LodeIndexStoreInterface    *iface);
static void lode_qdrant_store_search_backend_init (LodeSearchBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeQdrantStore, lode_qdrant_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_INDEX_STORE,
                                                      lode_qdrant_store_index_store_init)
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_SEARCH_BACKEND,
                                                      lode_qdrant_store_search_backend_init))

static void
lode_qdrant_store_finalize (GObject *object)
{
  LodeQdrantStore *self = (LodeQdrantStore *) object;

  g_clear_object (&self->client);
  g_clear_pointer (&self->collection, g_free);
  g_clear_pointer (&self->alias, g_free);
  g_clear_pointer (&self->reset_reason, g_free);
  g_clear_pointer (&self->files, g_hash_table_unref);
  g_clear_pointer (&self->meta, g_hash_table_unref);
  g_clear_pointer (&self->pending_chunks, g_ptr_array_unref);
  g_clear_pointer (&self->pending_refs, g_ptr_array_unref);
  g_clear_pointer (&self->replaced, g_hash_table_unref);
  g_clear_pointer (&self->replaced_refs, g_hash_table_unref);
  g_clear_pointer (&self->dirty, g_hash_table_unref);
  g_clear_pointer (&self->removed, g_hash_table_unref);
  g_clear_pointer (&self->dirty_meta, g_hash_table_unref);

  G_OBJECT_CLASS (lode_qdrant_store_parent_class)->finalize (object);
}

static void
lode_qdrant_store_class_init (LodeQdrantStoreClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_qdrant_store_finalize;
}

static void
lode_qdrant_store_init (LodeQdrantStore *self)
{
  self->files = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                       (GDestroyNotify) _lode_qdrant_store_file_record_free);
  self->meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->pending_chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->pending_refs = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->replaced = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->replaced_refs = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->dirty = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->removed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->dirty_meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

static const struct
{
  const char *field;
  const char *type;
} payload_indexes[] = {
  { "type", "keyword" },
  { "path", "keyword" },
  { "language", "keyword" },
  { "kind", "keyword" },
  { "names", "keyword" },
  { "packages", "keyword" },
  { "containers", "keyword" },
  { "ref_names", "keyword" },
  { "text_hash", "keyword" },
  { "hash", "keyword" },
  { "model", "keyword" },
  { "key", "keyword" },
  { "import_keys", "keyword" },
  { "import_targets", "keyword" },
  { "artifact", "keyword" },
  { "file_id", "integer" },
  { "terms", "integer" },
};

/* Makes @collection with its payload indexes and the meta a store needs; @version > 0 starts
 * its data version there (a generation that replaces another carries on from its version,
 * so that readers see a new one). */
static gboolean
create_collection (LodeQdrantClient                *client,
                   const char                      *collection,
                   const LodeQdrantCollectionSpec  *spec,
                   gint64                           version,
                   GCancellable                    *cancellable,
                   GError                         **error)
{
  g_autofree char *schema = g_strdup_printf ("%d", LODE_QDRANT_SCHEMA_VERSION);
  g_autofree char *dims = g_strdup_printf ("%u", spec->dims);
  g_autofree char *start = g_strdup_printf ("%" G_GINT64_FORMAT, version);
  g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);

  if (!lode_qdrant_client_create_collection (client, collection, spec, cancellable, error))
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (payload_indexes); i++)
    if (!lode_qdrant_client_create_payload_index (client, collection, payload_indexes[i].field,
                                                  payload_indexes[i].type, cancellable, error))
      return FALSE;

  /* The schema version last: a collection without it is unfinished and made again. */
  g_ptr_array_add (points, _lode_qdrant_store_meta_point ("dims", dims));
  if (version > 0)
    g_ptr_array_add (points, _lode_qdrant_store_meta_point ("version", start));
  g_ptr_array_add (points, _lode_qdrant_store_meta_point ("schema", schema));
  return lode_qdrant_client_upsert (client, collection, points, cancellable, error);
}

/* ---- names: aliases and generations ------------------------------------------------------ */

/* The name Lode reads and writes (`lode-ID`, `lode-ID-branch-NAME`) is an alias of a real
 * collection, `NAME_gN` for generation N: a forced run builds generation N + 1 beside it and
 * points the alias at it in one request. `_g` never occurs in a name (lode_git_escape_branch()
 * writes `_` before two hex digits only), so the generations of a name are known by it. An
 * index made before aliases is a real collection under the name itself ("legacy"): it is read
 * as it is, and the first forced run replaces it with an alias. */
#define GENERATION_INFIX "_g"

static char *
generation_name (const char *name,
                 guint       generation)
{
  return g_strdup_printf ("%s" GENERATION_INFIX "%u", name, generation);
}

static gboolean
parse_generation (const char *name,
                  const char *collection,
                  guint      *generation)
{
  gsize len = strlen (name);
  guint64 value = 0;

  if (strncmp (collection, name, len) != 0 ||
      !g_str_has_prefix (collection + len, GENERATION_INFIX) ||
      !g_ascii_string_to_unsigned (collection + len + strlen (GENERATION_INFIX), 10, 1,
                                   G_MAXUINT, &value, NULL))
    return FALSE;
  *generation = (guint) value;
  return TRUE;
}

typedef struct
{
  char      *target;     /* the collection the alias names, or NULL */
  gboolean   legacy;     /* a real collection has the name itself */
  GPtrArray *leftovers;  /* generations the alias does not name: what a killed run left */
  guint      last;       /* the highest generation there is */
} NameState;

static void
name_state_clear (NameState *state)
{
  g_clear_pointer (&state->target, g_free);
  g_clear_pointer (&state->leftovers, g_ptr_array_unref);
}

G_DEFINE_AUTO_CLEANUP_CLEAR_FUNC (NameState, name_state_clear)

static gboolean
read_name (LodeQdrantClient  *client,
           const char        *name,
           NameState         *state,
           GCancellable      *cancellable,
           GError           **error)
{
  g_autoptr(GHashTable) aliases = NULL;
  g_auto(GStrv) collections = NULL;
  const char *target;

  aliases = lode_qdrant_client_list_aliases (client, cancellable, error);
  collections = aliases != NULL ? lode_qdrant_client_list_collections (client, cancellable, error)
                                : NULL;
  if (collections == NULL)
    {
      g_prefix_error (error, "Cannot read which Qdrant collection %s names: ", name);
      return FALSE;
    }

  target = g_hash_table_lookup (aliases, name);
  state->target = target != NULL && g_strv_contains ((const char * const *) collections, target)
                  ? g_strdup (target) : NULL;
  state->legacy = g_strv_contains ((const char * const *) collections, name);
  state->leftovers = g_ptr_array_new_with_free_func (g_free);
  state->last = 0;
  for (guint i = 0; collections[i] != NULL; i++)
    {
      guint generation;

      if (!parse_generation (name, collections[i], &generation))
        continue;
      state->last = MAX (state->last, generation);
      if (g_strcmp0 (collections[i], state->target) != 0)
        g_ptr_array_add (state->leftovers, g_strdup (collections[i]));
    }
  return TRUE;
}

/* Deletes the generations a killed forced run (or a failed install) left. */
static gboolean
drop_leftovers (LodeQdrantClient  *client,
                NameState         *state,
                GCancellable      *cancellable,
                GError           **error)
{
  for (guint i = 0; i < state->leftovers->len; i++)
    {
      const char *leftover = g_ptr_array_index (state->leftovers, i);

      g_debug ("Deleting the Qdrant collection %s an unfinished run left", leftover);
      if (!lode_qdrant_client_delete_collection (client, leftover, cancellable, error))
        {
          g_prefix_error (error, "Cannot delete the Qdrant collection %s an unfinished run "
                          "left: ", leftover);
          return FALSE;
        }
    }
  g_ptr_array_set_size (state->leftovers, 0);
  return TRUE;
}

/* Makes the next generation of @name and points the alias at it. */
static gboolean
make_generation (LodeQdrantClient                *client,
                 const char                      *name,
                 NameState                       *state,
                 const LodeQdrantCollectionSpec  *spec,
                 GCancellable                    *cancellable,
                 GError                         **error)
{
  g_autofree char *real = generation_name (name, state->last + 1);

  if (!create_collection (client, real, spec, 0, cancellable, error) ||
      !lode_qdrant_client_switch_alias (client, name, real, cancellable, error))
    return FALSE;
  state->last++;
  g_free (state->target);
  state->target = g_steal_pointer (&real);
  return TRUE;
}

/**
 * lode_qdrant_store_delete:
 * @client: a client of the server
 * @name: a project's collection name (an alias, or a collection made before aliases)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Deletes every collection of @name: the one its alias names (Qdrant drops the alias with
 * it), generations unfinished runs left, and a collection of that name made before aliases.
 *
 * Returns: %TRUE when nothing of @name is left
 */
gboolean
lode_qdrant_store_delete (LodeQdrantClient  *client,
                          const char        *name,
                          GCancellable      *cancellable,
                          GError           **error)
{
  g_auto(NameState) state = { 0 };

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (client), FALSE);
  g_return_val_if_fail (name != NULL, FALSE);

  return read_name (client, name, &state, cancellable, error) &&
         drop_leftovers (client, &state, cancellable, error) &&
         (state.target == NULL ||
          lode_qdrant_client_delete_collection (client, state.target, cancellable, error)) &&
         (!state.legacy ||
          lode_qdrant_client_delete_collection (client, name, cancellable, error));
}

/**
 * lode_qdrant_store_open:
 * @client: a client of the server (connected or not)
 * @collection: the project's collection name: an alias (made when missing), or a collection
 *   made before aliases
 * @spec: how to make the collection when a writer finds none (dense vector size, shards,
 *   replicas)
 * @writer: whether this store writes: a writer makes a missing collection and replaces one of
 *   another schema version (recording why, lode_qdrant_store_get_reset_reason()), and deletes
 *   the generations unfinished forced runs left; a reader fails with
 *   %LODE_ERROR_NOT_INDEXED instead
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Checks the server's version, then reads the collection's meta and file points. Every call
 * of the store blocks its thread on the network; call it from worker threads.
 *
 * Returns: (transfer full): the store, or %NULL
 */
LodeQdrantStore *
lode_qdrant_store_open (LodeQdrantClient                *client,
                        const char                      *collection,
                        const LodeQdrantCollectionSpec  *spec,
                        gboolean                         writer,
                        GCancellable                    *cancellable,
                        GError                         **error)
{
  g_autoptr(LodeQdrantStore) self = NULL;
  g_autofree char *schema = g_strdup_printf ("%d", LODE_QDRANT_SCHEMA_VERSION);
  g_auto(NameState) state = { 0 };
  gboolean exists = FALSE;
  const char *found;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (client), NULL);
  g_return_val_if_fail (collection != NULL && spec != NULL, NULL);

  if (lode_qdrant_client_get_server_version (client) == NULL &&
      !lode_qdrant_client_connect (client, cancellable, error))
    return NULL;

  self = g_object_new (LODE_TYPE_QDRANT_STORE, NULL);
  self->client = g_object_ref (client);
  self->collection = g_strdup (collection);
  self->writer = writer;

  /* A reader asks Qdrant, which resolves aliases; a writer needs to know more. */
  if (!writer)
    {
      if (!lode_qdrant_client_collection_exists (client, collection, &exists, cancellable,
                                                 error))
        return NULL;
      if (!exists)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                       "The Qdrant collection %s at %s does not exist yet", collection,
                       lode_qdrant_client_get_url (client));
          return NULL;
        }
    }
  else if (!read_name (client, collection, &state, cancellable, error) ||
           !drop_leftovers (client, &state, cancellable, error) ||
           (state.target == NULL && !state.legacy &&
            !make_generation (client, collection, &state, spec, cancellable, error)))
    return NULL;

  if (!_lode_qdrant_store_load_meta (self, error))
    return NULL;

  found = g_hash_table_lookup (self->meta, "schema");
  if (g_strcmp0 (found, schema) != 0)
    {
      if (!writer)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_INDEXED,
                       "The Qdrant collection %s has schema version %s, not %s: index the "
                       "project again", collection, found != NULL ? found : "(none)", schema);
          return NULL;
        }
      self->was_reset = TRUE;
      self->reset_reason = found != NULL
        ? g_strdup_printf ("the Qdrant collection had schema version %s, this Lode writes %s",
                           found, schema)
        : g_strdup ("the Qdrant collection was not finished");
      if (!lode_qdrant_store_delete (client, collection, cancellable, error) ||
          !make_generation (client, collection, &state, spec, cancellable, error) ||
          !_lode_qdrant_store_load_meta (self, error))
        return NULL;
    }

  self->dims = (guint) _lode_qdrant_store_meta_int (self, "dims");
  if (!_lode_qdrant_store_load_files (self, error))
    return NULL;

  return g_steal_pointer (&self);
}

/**
 * lode_qdrant_store_open_aside:
 * @client: a client of the server (connected or not)
 * @name: the project's collection name
 * @spec: how to make the new collection
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Makes the next generation of @name, empty, beside the collection @name names (which
 * readers keep using), and opens it for writing: a forced run or a migration fills it, then
 * lode_qdrant_store_install() puts it in place, or lode_qdrant_store_discard() deletes it.
 * Deletes the generations unfinished runs left first. The caller holds the writer lock.
 *
 * Returns: (transfer full): the store of the new generation, or %NULL
 */
LodeQdrantStore *
lode_qdrant_store_open_aside (LodeQdrantClient                *client,
                              const char                      *name,
                              const LodeQdrantCollectionSpec  *spec,
                              GCancellable                    *cancellable,
                              GError                         **error)
{
  g_autoptr(LodeQdrantStore) self = NULL;
  g_auto(NameState) state = { 0 };
  gint64 version = 0;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (client), NULL);
  g_return_val_if_fail (name != NULL && spec != NULL, NULL);

  if ((lode_qdrant_client_get_server_version (client) == NULL &&
       !lode_qdrant_client_connect (client, cancellable, error)) ||
      !read_name (client, name, &state, cancellable, error) ||
      !drop_leftovers (client, &state, cancellable, error))
    return NULL;

  /* Readers compare data versions: the new generation carries on from the old one's. */
  if (state.target != NULL || state.legacy)
    {
      version = _lode_qdrant_store_read_version (client, name, cancellable, error);
      if (version < 0)
        return NULL;
    }

  self = g_object_new (LODE_TYPE_QDRANT_STORE, NULL);
  self->client = g_object_ref (client);
  self->collection = generation_name (name, state.last + 1);
  self->alias = g_strdup (name);
  self->writer = TRUE;
  if (!create_collection (client, self->collection, spec, version + 1, cancellable, error) ||
      !lode_qdrant_store_refresh (self, error))
    {
      lode_qdrant_client_delete_collection (client, self->collection, NULL, NULL);
      return NULL;
    }

  return g_steal_pointer (&self);
}

/**
 * lode_qdrant_store_install:
 * @self: a store from lode_qdrant_store_open_aside(), its batches committed
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Points the name at the new generation in one aliases request (readers go from the old
 * collection to the new one between two requests), then deletes the old collection. A name
 * that is still a collection made before aliases is deleted first: Qdrant refuses an alias
 * with the name of a collection, so for this one-time conversion the name is missing between
 * the two requests.
 *
 * Returns: %TRUE when the name names the new generation
 */
gboolean
lode_qdrant_store_install (LodeQdrantStore  *self,
                           GCancellable     *cancellable,
                           GError          **error)
{
  g_auto(NameState) state = { 0 };
  g_autoptr(GError) local_error = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (self->alias != NULL && !self->in_batch, FALSE);

  if (!read_name (self->client, self->alias, &state, cancellable, error))
    return FALSE;
  if (state.legacy)
    {
      g_debug ("Replacing the Qdrant collection %s with an alias of %s", self->alias,
               self->collection);
      if (!lode_qdrant_client_delete_collection (self->client, self->alias, cancellable, error))
        {
          g_prefix_error (error, "Cannot replace the Qdrant collection %s with an alias: ",
                          self->alias);
          return FALSE;
        }
    }
  if (!lode_qdrant_client_switch_alias (self->client, self->alias, self->collection, cancellable,
                                        error))
    return FALSE;

  /* The old generation is of no use now; when it cannot go, the next writer deletes it. */
  if (state.target != NULL && g_strcmp0 (state.target, self->collection) != 0 &&
      !lode_qdrant_client_delete_collection (self->client, state.target, NULL, &local_error))
    g_warning ("Cannot delete the former Qdrant collection %s: %s", state.target,
               local_error->message);
  return TRUE;
}

/**
 * lode_qdrant_store_discard:
 * @self: a store from lode_qdrant_store_open_aside(), not installed
 * @error: return location for a #GError
 *
 * Deletes the new generation: the name keeps naming the collection it named.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_qdrant_store_discard (LodeQdrantStore  *self,
                           GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (self->alias != NULL, FALSE);

  return lode_qdrant_client_delete_collection (self->client, self->collection, NULL, error);
}

const char *
lode_qdrant_store_get_collection (LodeQdrantStore *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  return self->collection;
}

LodeQdrantClient *
lode_qdrant_store_get_client (LodeQdrantStore *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  return self->client;
}

static gboolean
qdrant_store_get_was_reset (LodeIndexStore *store)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  return self->was_reset;
}

static const char *
qdrant_store_get_reset_reason (LodeIndexStore *store)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;

  return self->reset_reason;
}

/**
 * lode_qdrant_store_get_dims:
 * @self: a #LodeQdrantStore
 *
 * Returns: the size of the collection's dense vectors, 0 when it has none
 */
guint
lode_qdrant_store_get_dims (LodeQdrantStore *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), 0);

  return self->dims;
}


static void
lode_qdrant_store_index_store_init (LodeIndexStoreInterface *iface)
{
  iface->get_was_reset = qdrant_store_get_was_reset;
  iface->get_reset_reason = qdrant_store_get_reset_reason;
  _lode_qdrant_store_points_init (iface);
  _lode_qdrant_store_files_init (iface);
  _lode_qdrant_store_graph_init (iface);
  _lode_qdrant_store_vectors_init (iface);
  _lode_qdrant_store_symbols_init (iface);
  _lode_qdrant_store_artifacts_init (iface);
}

static void
lode_qdrant_store_search_backend_init (LodeSearchBackendInterface *iface)
{
  _lode_qdrant_store_search_init (iface);
}
