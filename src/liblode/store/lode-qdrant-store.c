/* lode-qdrant-store.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * One collection per project holds everything the SQLite store keeps (its name is an alias of
 * the real collection of the index's current generation, see "names" below), as kinds of
 * points told apart by the payload field `type` (the context artifacts' two kinds are
 * described with their functions, at the end):
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
 *   (see "symbols and references" below).
 * - "meta" (UUID from the key): key and value: schema version, state, root, the id counters,
 *   the dense vector's size and a data version bumped by every commit.
 *
 * A writer keeps the file points in memory (the import graph and the hashes are read from
 * there) and writes a batch at commit in an order that makes a crash between two requests
 * harmless: the id counters first, then the old chunks and references of every file of the
 * batch are deleted by filter, the new ones upserted, and only then the file points with
 * their new hashes. A crash before the last step leaves the old hash (or none), so the next
 * run chunks the file again and its delete-by-path removes whatever half-written chunks and
 * references it left; a removed file loses them before its file point, so it is removed
 * again when the point is still there. Readers skip chunks and references whose file point
 * is missing.
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-chunk.h"
#include "lode-code-tokenizer.h"
#include "lode-json.h"
#include "lode-error.h"
#include "lode-graph.h"
#include "lode-index-store.h"
#include "lode-qdrant-store.h"
#include "lode-search-backend.h"
#include "lode-sparse-vector.h"

/* Paths in one delete-by-filter request: the filter's size stays far under the limits. */
#define DELETE_PATHS_PER_REQUEST 256

typedef struct
{
  char      *path;
  gint64     id;
  char      *language;
  char      *hash;
  guint64    size;
  gint64     mtime_usec;
  guint      n_lines;
  guint      n_chunks;
  guint      n_symbols;
  guint64    n_bytes;
  gint64     first_chunk; /* the chunk with the first lines, 0 for none */
  GPtrArray *imports;    /* LodeStoredImport, ids: file id << 16 | index */
} FileRecord;

struct _LodeQdrantStore
{
  GObject           parent_instance;

  LodeQdrantClient *client;
  char             *collection;   /* what requests name: the alias, or a new generation */
  char             *alias;        /* for a generation built aside: the alias it replaces */
  guint             dims;
  gboolean          writer;
  gboolean          was_reset;
  char             *reset_reason;

  GHashTable       *files;        /* path → FileRecord */
  GHashTable       *meta;         /* key → value */
  gint64            next_chunk;
  gint64            next_file;
  gint64            seen_version;     /* the data version the file points were read at */

  /* The batch in flight (between begin and commit). */
  gboolean          in_batch;
  GPtrArray        *pending_chunks;   /* JsonNode points */
  GPtrArray        *pending_refs;     /* JsonNode points */
  GHashTable       *replaced;         /* paths whose old chunks go */
  GHashTable       *dirty;            /* paths whose file point is written */
  GHashTable       *removed;          /* paths whose file point goes */
  GHashTable       *dirty_meta;       /* keys */
};

static void lode_qdrant_store_index_store_init    (LodeIndexStoreInterface    *iface);
static void lode_qdrant_store_search_backend_init (LodeSearchBackendInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeQdrantStore, lode_qdrant_store, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_INDEX_STORE,
                                                      lode_qdrant_store_index_store_init)
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_SEARCH_BACKEND,
                                                      lode_qdrant_store_search_backend_init))

static void
file_record_free (FileRecord *record)
{
  g_free (record->path);
  g_free (record->language);
  g_free (record->hash);
  g_clear_pointer (&record->imports, g_ptr_array_unref);
  g_free (record);
}

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
                                       (GDestroyNotify) file_record_free);
  self->meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  self->pending_chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->pending_refs = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  self->replaced = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->dirty = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->removed = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->dirty_meta = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* ---- ids and filters ------------------------------------------------------------------- */

/* A name-based UUID (version 5 layout over SHA-1), so that a file's or a meta key's point
 * has the same id on every machine. */
static char *
name_uuid (const char *kind,
           const char *name)
{
  g_autofree char *input = g_strconcat ("lode:", kind, ":", name, NULL);
  g_autofree char *sha = g_compute_checksum_for_string (G_CHECKSUM_SHA1, input, -1);
  char hex[33];

  memcpy (hex, sha, 32);
  hex[32] = '\0';
  hex[12] = '5';
  hex[16] = "89ab"[g_ascii_xdigit_value (hex[16]) & 3];
  return g_strdup_printf ("%.8s-%.4s-%.4s-%.4s-%.12s", hex, hex + 8, hex + 12, hex + 16,
                          hex + 20);
}

static JsonNode *
filter_type (const char *type)
{
  return lode_qdrant_filter_match ("type", type);
}

static JsonArray *
terms_array (const LodeSparseVector *sparse)
{
  JsonArray *terms = json_array_sized_new (sparse->len);

  for (guint i = 0; i < sparse->len; i++)
    json_array_add_int_element (terms, sparse->indices[i]);
  return terms;
}

/* Chunks whose payload @key holds @value. */
static JsonNode *
chunk_match (const char *key,
             const char *value)
{
  return lode_qdrant_filter_and (filter_type ("chunk"), lode_qdrant_filter_match (key, value));
}

static JsonArray *
strv_to_array (const char * const *strv)
{
  JsonArray *array = json_array_new ();

  for (guint i = 0; strv != NULL && strv[i] != NULL; i++)
    json_array_add_string_element (array, strv[i]);
  return array;
}

static GStrv
array_to_strv (JsonArray *array)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();

  for (guint i = 0; array != NULL && i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);

      if (JSON_NODE_HOLDS_VALUE (item) && json_node_get_value_type (item) == G_TYPE_STRING)
        g_strv_builder_add (builder, json_node_get_string (item));
    }
  return g_strv_builder_end (builder);
}

static void
set_string (JsonObject *object,
            const char *member,
            const char *value)
{
  if (value != NULL)
    json_object_set_string_member (object, member, value);
}

/* ---- file records ---------------------------------------------------------------------- */

static LodeStoredImport *
stored_import_copy (const LodeStoredImport *import)
{
  LodeStoredImport *copy = g_new0 (LodeStoredImport, 1);

  copy->id = import->id;
  copy->path = g_strdup (import->path);
  copy->specifier = g_strdup (import->specifier);
  copy->name = g_strdup (import->name);
  copy->kind = g_strdup (import->kind);
  copy->line = import->line;
  copy->key = g_strdup (import->key);
  copy->targets = g_strdupv (import->targets);
  copy->package = g_strdup (import->package);
  return copy;
}

static JsonNode *
file_point (FileRecord *record)
{
  g_autofree char *id = name_uuid ("file", record->path);
  JsonObject *point = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonArray *imports = json_array_new ();
  JsonArray *keys = json_array_new ();
  JsonArray *targets = json_array_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (point, "id", id);
  json_object_set_object_member (point, "vector", json_object_new ());
  json_object_set_string_member (payload, "type", "file");
  json_object_set_string_member (payload, "path", record->path);
  json_object_set_int_member (payload, "file_id", record->id);
  set_string (payload, "language", record->language);
  set_string (payload, "hash", record->hash);
  json_object_set_int_member (payload, "size", (gint64) record->size);
  json_object_set_int_member (payload, "mtime", record->mtime_usec);
  json_object_set_int_member (payload, "lines", record->n_lines);
  json_object_set_int_member (payload, "n_chunks", record->n_chunks);
  json_object_set_int_member (payload, "n_symbols", record->n_symbols);
  json_object_set_int_member (payload, "n_bytes", (gint64) record->n_bytes);
  json_object_set_int_member (payload, "first_chunk", record->first_chunk);

  for (guint i = 0; record->imports != NULL && i < record->imports->len; i++)
    {
      const LodeStoredImport *import = g_ptr_array_index (record->imports, i);
      JsonObject *item = json_object_new ();

      json_object_set_string_member (item, "specifier", import->specifier);
      set_string (item, "name", import->name);
      set_string (item, "kind", import->kind);
      json_object_set_int_member (item, "line", import->line);
      set_string (item, "key", import->key);
      json_object_set_array_member (item, "targets",
                                    strv_to_array ((const char * const *) import->targets));
      set_string (item, "package", import->package);
      json_array_add_object_element (imports, item);
      if (import->key != NULL)
        json_array_add_string_element (keys, import->key);
      for (guint t = 0; import->targets != NULL && import->targets[t] != NULL; t++)
        json_array_add_string_element (targets, import->targets[t]);
    }
  json_object_set_array_member (payload, "imports", imports);
  json_object_set_array_member (payload, "import_keys", keys);
  json_object_set_array_member (payload, "import_targets", targets);

  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

static FileRecord *
file_record_from_payload (JsonObject *payload)
{
  FileRecord *record = g_new0 (FileRecord, 1);
  JsonNode *imports = json_object_get_member (payload, "imports");

  record->path = g_strdup (lode_json_get_string (payload, "path"));
  record->id = json_object_get_int_member_with_default (payload, "file_id", 0);
  record->language = g_strdup (lode_json_get_string (payload, "language"));
  record->hash = g_strdup (lode_json_get_string (payload, "hash"));
  record->size = json_object_get_int_member_with_default (payload, "size", 0);
  record->mtime_usec = json_object_get_int_member_with_default (payload, "mtime", 0);
  record->n_lines = json_object_get_int_member_with_default (payload, "lines", 0);
  record->n_chunks = json_object_get_int_member_with_default (payload, "n_chunks", 0);
  record->n_symbols = json_object_get_int_member_with_default (payload, "n_symbols", 0);
  record->n_bytes = json_object_get_int_member_with_default (payload, "n_bytes", 0);
  record->first_chunk = json_object_get_int_member_with_default (payload, "first_chunk", 0);
  record->imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);

  if (imports != NULL && JSON_NODE_HOLDS_ARRAY (imports))
    {
      JsonArray *array = json_node_get_array (imports);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonObject *item = json_array_get_object_element (array, i);
          LodeStoredImport *import = g_new0 (LodeStoredImport, 1);
          JsonNode *targets = json_object_get_member (item, "targets");

          import->id = record->id << 16 | i;
          import->path = g_strdup (record->path);
          import->specifier = g_strdup (lode_json_get_string (item, "specifier"));
          import->name = g_strdup (lode_json_get_string (item, "name"));
          import->kind = g_strdup (lode_json_get_string (item, "kind"));
          import->line = json_object_get_int_member_with_default (item, "line", 0);
          import->key = g_strdup (lode_json_get_string (item, "key"));
          import->targets = array_to_strv (targets != NULL && JSON_NODE_HOLDS_ARRAY (targets)
                                           ? json_node_get_array (targets) : NULL);
          import->package = g_strdup (lode_json_get_string (item, "package"));
          g_ptr_array_add (record->imports, import);
        }
    }

  return record;
}

static JsonNode *
meta_point (const char *key,
            const char *value)
{
  g_autofree char *id = name_uuid ("meta", key);
  JsonObject *point = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  json_object_set_string_member (point, "id", id);
  json_object_set_object_member (point, "vector", json_object_new ());
  json_object_set_string_member (payload, "type", "meta");
  json_object_set_string_member (payload, "key", key);
  if (value != NULL)
    json_object_set_string_member (payload, "value", value);
  else
    json_object_set_null_member (payload, "value");
  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

/* ---- loading --------------------------------------------------------------------------- */

static gboolean
load_meta (LodeQdrantStore  *self,
           GError          **error)
{
  g_autoptr(JsonNode) filter = filter_type ("meta");
  g_autoptr(GPtrArray) points = NULL;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, NULL, NULL, 0, NULL,
                                      error);
  if (points == NULL)
    return FALSE;

  g_hash_table_remove_all (self->meta);
  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      const char *key = hit->payload != NULL ? lode_json_get_string (hit->payload, "key") : NULL;

      if (key != NULL)
        g_hash_table_insert (self->meta, g_strdup (key),
                             g_strdup (lode_json_get_string (hit->payload, "value")));
    }

  return TRUE;
}

static gint64
meta_int (LodeQdrantStore *self,
          const char      *key)
{
  const char *value = g_hash_table_lookup (self->meta, key);

  return value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;
}

/* The data version of @collection, which every commit bumps; -1 on error. */
static gint64
read_version (LodeQdrantClient  *client,
              const char        *collection,
              GCancellable      *cancellable,
              GError           **error)
{
  g_autofree char *id = name_uuid ("meta", "version");
  const char *ids[] = { id };
  const char *fields[] = { "value", NULL };
  g_autoptr(GPtrArray) points = NULL;
  const char *value;

  points = lode_qdrant_client_retrieve (client, collection, ids, 1, fields, cancellable, error);
  if (points == NULL)
    return -1;
  if (points->len == 0)
    return 0;
  value = lode_json_get_string (((LodeQdrantHit *) g_ptr_array_index (points, 0))->payload,
                                "value");
  return value != NULL ? g_ascii_strtoll (value, NULL, 10) : 0;
}

static gboolean
load_files (LodeQdrantStore  *self,
            GError          **error)
{
  g_autoptr(JsonNode) filter = filter_type ("file");
  g_autoptr(GPtrArray) points = NULL;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, NULL, NULL, 0, NULL,
                                      error);
  if (points == NULL)
    return FALSE;

  g_hash_table_remove_all (self->files);
  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      FileRecord *record;

      if (hit->payload == NULL || lode_json_get_string (hit->payload, "path") == NULL)
        continue;
      record = file_record_from_payload (hit->payload);
      g_hash_table_replace (self->files, record->path, record);
    }

  self->next_chunk = MAX (meta_int (self, "next_chunk"), 1);
  self->next_file = MAX (meta_int (self, "next_file"), 1);
  return TRUE;
}

/**
 * lode_qdrant_store_refresh:
 * @self: a #LodeQdrantStore
 * @error: return location for a #GError
 *
 * Reads the file and meta points again: what another process or machine wrote since.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_qdrant_store_refresh (LodeQdrantStore  *self,
                           GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (!self->in_batch, FALSE);

  if (!load_meta (self, error) || !load_files (self, error))
    return FALSE;
  self->dims = (guint) meta_int (self, "dims");
  return TRUE;
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
  g_ptr_array_add (points, meta_point ("dims", dims));
  if (version > 0)
    g_ptr_array_add (points, meta_point ("version", start));
  g_ptr_array_add (points, meta_point ("schema", schema));
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

  if (!load_meta (self, error))
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
          !load_meta (self, error))
        return NULL;
    }

  self->dims = (guint) meta_int (self, "dims");
  if (!load_files (self, error))
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
      version = read_version (client, name, cancellable, error);
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
qdrant_store_get_was_reset (LodeQdrantStore *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);

  return self->was_reset;
}

static const char *
qdrant_store_get_reset_reason (LodeQdrantStore *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

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

/* ---- batches --------------------------------------------------------------------------- */

static gboolean
qdrant_store_begin (LodeQdrantStore  *self,
                    GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (self->writer, FALSE);

  if (self->in_batch)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "A batch is already open");
      return FALSE;
    }
  self->in_batch = TRUE;
  return TRUE;
}

static void
clear_batch (LodeQdrantStore *self)
{
  self->in_batch = FALSE;
  g_ptr_array_set_size (self->pending_chunks, 0);
  g_ptr_array_set_size (self->pending_refs, 0);
  g_hash_table_remove_all (self->replaced);
  g_hash_table_remove_all (self->dirty);
  g_hash_table_remove_all (self->removed);
  g_hash_table_remove_all (self->dirty_meta);
}

static gboolean
delete_paths (LodeQdrantStore  *self,
              const char       *type,
              GHashTable       *paths,
              GError          **error)
{
  g_autofree const char **list = NULL;
  guint n = 0;

  list = (const char **) g_hash_table_get_keys_as_array (paths, &n);
  for (guint start = 0; start < n; start += DELETE_PATHS_PER_REQUEST)
    {
      guint count = MIN (DELETE_PATHS_PER_REQUEST, n - start);
      g_autoptr(JsonNode) filter = NULL;

      filter = lode_qdrant_filter_and (filter_type (type),
                                       lode_qdrant_filter_match_any ("path", list + start, count));

      if (!lode_qdrant_client_delete (self->client, self->collection, filter, NULL, error))
        return FALSE;
    }

  return TRUE;
}

/* qdrant_store_commit:
 * @self: a #LodeQdrantStore
 * @error: return location for a #GError
 *
 * Writes the batch (see the order at the top of this file). A failure leaves the requests
 * before it written, which the next run repairs; the batch is dropped either way.
 *
 * Returns: %TRUE on success
 */
static gboolean
qdrant_store_commit (LodeQdrantStore  *self,
                     GError          **error)
{
  g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autofree char *next_chunk = NULL;
  g_autofree char *next_file = NULL;
  g_autofree char *version = NULL;
  GHashTableIter iter;
  const char *key;
  gboolean ok = FALSE;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (self->in_batch, FALSE);

  next_chunk = g_strdup_printf ("%" G_GINT64_FORMAT, self->next_chunk);
  next_file = g_strdup_printf ("%" G_GINT64_FORMAT, self->next_file);
  if (g_strcmp0 (g_hash_table_lookup (self->meta, "next_chunk"), next_chunk) != 0)
    {
      g_hash_table_replace (self->meta, g_strdup ("next_chunk"), g_strdup (next_chunk));
      g_hash_table_add (self->dirty_meta, g_strdup ("next_chunk"));
    }
  if (g_strcmp0 (g_hash_table_lookup (self->meta, "next_file"), next_file) != 0)
    {
      g_hash_table_replace (self->meta, g_strdup ("next_file"), g_strdup (next_file));
      g_hash_table_add (self->dirty_meta, g_strdup ("next_file"));
    }

  /* 1. The id counters, so that no id is ever handed out twice. */
  if (g_hash_table_contains (self->dirty_meta, "next_chunk") ||
      g_hash_table_contains (self->dirty_meta, "next_file"))
    {
      g_ptr_array_add (points, meta_point ("next_chunk", next_chunk));
      g_ptr_array_add (points, meta_point ("next_file", next_file));
      if (!lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error))
        goto out;
      g_ptr_array_set_size (points, 0);
    }

  /* 2. Old chunks and references of every file the batch replaces or removes, 3. the new
   * ones. */
  if (!delete_paths (self, "chunk", self->replaced, error) ||
      !delete_paths (self, "refs", self->replaced, error) ||
      !lode_qdrant_client_upsert (self->client, self->collection, self->pending_chunks, NULL,
                                  error) ||
      !lode_qdrant_client_upsert (self->client, self->collection, self->pending_refs, NULL,
                                  error))
    goto out;

  /* 4. File points with their new hashes and imports, then the removed ones. */
  g_hash_table_iter_init (&iter, self->dirty);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    {
      FileRecord *record = g_hash_table_lookup (self->files, key);

      if (record != NULL)
        g_ptr_array_add (points, file_point (record));
    }
  if (!lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error) ||
      !delete_paths (self, "file", self->removed, error))
    goto out;
  g_ptr_array_set_size (points, 0);

  /* 5. Meta, and a new data version for readers. */
  version = g_strdup_printf ("%" G_GINT64_FORMAT, meta_int (self, "version") + 1);
  g_hash_table_replace (self->meta, g_strdup ("version"), g_strdup (version));
  g_hash_table_add (self->dirty_meta, g_strdup ("version"));
  g_hash_table_iter_init (&iter, self->dirty_meta);
  while (g_hash_table_iter_next (&iter, (gpointer *) &key, NULL))
    g_ptr_array_add (points, meta_point (key, g_hash_table_lookup (self->meta, key)));
  ok = lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error);

out:
  if (!ok)
    {
      g_prefix_error (error, "Cannot write to the Qdrant collection %s: ", self->collection);
      clear_batch (self);
      /* What the server has is the truth again. */
      lode_qdrant_store_refresh (self, NULL);
      return FALSE;
    }

  clear_batch (self);
  return TRUE;
}

static void
qdrant_store_rollback (LodeQdrantStore *self)
{
  g_autoptr(GError) error = NULL;

  g_return_if_fail (LODE_IS_QDRANT_STORE (self));

  if (!self->in_batch)
    return;
  clear_batch (self);
  if (!lode_qdrant_store_refresh (self, &error))
    g_warning ("Cannot read the Qdrant collection %s again: %s", self->collection,
               error->message);
}

/* Runs @func inside the open batch, or in a batch of its own. */
static gboolean
in_batch (LodeQdrantStore  *self,
          gboolean        (*func) (LodeQdrantStore *, gconstpointer, GError **),
          gconstpointer     data,
          GError          **error)
{
  if (self->in_batch)
    return func (self, data, error);

  if (!qdrant_store_begin (self, error))
    return FALSE;
  if (!func (self, data, error))
    {
      qdrant_store_rollback (self);
      return FALSE;
    }
  return qdrant_store_commit (self, error);
}

/* ---- files ----------------------------------------------------------------------------- */

/* qdrant_store_dup_file_hashes:
 * @self: a #LodeQdrantStore
 *
 * Returns: (transfer full) (element-type utf8 utf8): path → content hash of every file
 */
static GHashTable *
qdrant_store_dup_file_hashes (LodeQdrantStore  *self,
                              GError          **error)
{
  GHashTable *hashes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  GHashTableIter iter;
  FileRecord *record;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    g_hash_table_insert (hashes, g_strdup (record->path), g_strdup (record->hash));
  return hashes;
}

static GPtrArray *sorted_records (LodeQdrantStore *self);

/* Every file, by path. */
static GPtrArray *
qdrant_store_dup_files (LodeQdrantStore  *self,
                        GError          **error)
{
  g_autoptr(GPtrArray) records = sorted_records (self);
  GPtrArray *files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_file_free);

  for (guint i = 0; i < records->len; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);
      LodeStoredFile *file = g_new0 (LodeStoredFile, 1);

      file->path = g_strdup (record->path);
      file->language = g_strdup (record->language);
      file->hash = g_strdup (record->hash);
      file->size = record->size;
      file->mtime_usec = record->mtime_usec;
      file->n_lines = record->n_lines;
      g_ptr_array_add (files, file);
    }
  return files;
}

/* The chunk that holds a symbol's first line: the innermost one named like it, else the
 * innermost one (as the SQLite store assigns them). */
static guint
symbol_chunk (GPtrArray  *chunks,
              guint       line,
              const char *name)
{
  guint best = G_MAXUINT;
  guint best_span = G_MAXUINT;

  for (guint i = 0; chunks != NULL && i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);
      guint span;

      if (chunk->start_line > line || chunk->end_line < line)
        continue;
      if (name != NULL && g_strcmp0 (chunk->symbol, name) == 0)
        return i;
      span = chunk->end_line - chunk->start_line;
      if (span < best_span)
        {
          best = i;
          best_span = span;
        }
    }
  return best;
}

static JsonObject *symbol_item      (const LodeSymbol *symbol,
                                     guint             seq);
static void        add_symbol_lists (JsonObject       *payload,
                                     JsonArray        *symbols);
static LodeSymbol *symbol_from_item (JsonObject       *item);

typedef struct
{
  const LodeFileInfo *file;
  GPtrArray          *chunks;
  GPtrArray          *symbols;
} PutFile;

static gboolean
put_file_points (LodeQdrantStore  *self,
                 gconstpointer     data,
                 GError          **error)
{
  const PutFile *put = data;
  const LodeFileInfo *file = put->file;
  FileRecord *record = g_hash_table_lookup (self->files, file->path);
  g_autoptr(GPtrArray) chunk_symbols = NULL;
  guint n_symbols = 0;
  guint first_line = 0;

  chunk_symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) json_array_unref);
  if (record == NULL)
    {
      record = g_new0 (FileRecord, 1);
      record->path = g_strdup (file->path);
      record->id = self->next_file++;
      record->imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
      g_hash_table_replace (self->files, record->path, record);
    }

  g_free (record->language);
  record->language = g_strdup (file->language != NULL ? file->language : "text");
  g_free (record->hash);
  record->hash = g_strdup (file->hash);
  record->size = file->size;
  record->mtime_usec = file->mtime_usec;
  record->n_lines = file->n_lines;

  for (guint i = 0; put->chunks != NULL && i < put->chunks->len; i++)
    g_ptr_array_add (chunk_symbols, json_array_new ());

  for (guint i = 0; put->symbols != NULL && i < put->symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (put->symbols, i);
      guint index;

      if (symbol->name == NULL)
        continue;
      n_symbols++;
      index = symbol_chunk (put->chunks, symbol->start_line, symbol->name);
      if (index == G_MAXUINT)
        continue;
      json_array_add_object_element (g_ptr_array_index (chunk_symbols, index),
                                     symbol_item (symbol, i));
    }

  for (guint i = 0; put->chunks != NULL && i < put->chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (put->chunks, i);
      g_autoptr(GString) sig_text = g_string_new (NULL);
      g_autofree char *hash = lode_index_store_text_hash (chunk->content);
      const char *fields[LODE_SPARSE_N_FIELDS] = { chunk->symbol, NULL, file->path,
                                                   chunk->content };
      g_autoptr(LodeSparseVector) sparse = NULL;
      JsonArray *symbols = g_ptr_array_index (chunk_symbols, i);
      JsonArray *names = json_array_new ();
      JsonObject *point = json_object_new ();
      JsonObject *vector = json_object_new ();
      JsonObject *payload = json_object_new ();
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);

      lode_chunk_append_search_text (chunk, sig_text);
      fields[LODE_SPARSE_SIGNATURE] = sig_text->str;
      sparse = lode_sparse_vector_for_fields (fields);
      for (guint s = 0; s < json_array_get_length (symbols); s++)
        {
          JsonObject *symbol = json_array_get_object_element (symbols, s);
          g_autofree char *lower = g_utf8_strdown (lode_json_get_string (symbol, "name"), -1);

          json_array_add_string_element (names, lower);
        }

      if (i == 0 || chunk->start_line < first_line)
        {
          record->first_chunk = self->next_chunk;
          first_line = chunk->start_line;
        }
      json_object_set_int_member (point, "id", self->next_chunk++);
      json_object_set_member (vector, "bm25", lode_qdrant_sparse_node (sparse));
      json_object_set_object_member (point, "vector", vector);
      json_object_set_string_member (payload, "type", "chunk");
      json_object_set_string_member (payload, "path", file->path);
      json_object_set_int_member (payload, "file_id", record->id);
      json_object_set_string_member (payload, "language", record->language);
      json_object_set_int_member (payload, "start_line", chunk->start_line);
      json_object_set_int_member (payload, "end_line", chunk->end_line);
      set_string (payload, "kind", chunk->kind);
      set_string (payload, "symbol", chunk->symbol);
      set_string (payload, "container", chunk->container);
      set_string (payload, "signature", chunk->signature);
      if (sig_text->len > 0)
        json_object_set_string_member (payload, "sig_text", sig_text->str);
      json_object_set_string_member (payload, "text", chunk->content != NULL ? chunk->content : "");
      set_string (payload, "text_hash", hash);
      json_object_set_array_member (payload, "symbols", json_array_ref (symbols));
      json_object_set_array_member (payload, "names", names);
      add_symbol_lists (payload, symbols);
      /* The terms again as a payload list: the IDF the scale needs, and identifier queries
       * that require every term, are payload filters. */
      json_object_set_array_member (payload, "terms", terms_array (sparse));
      json_object_set_object_member (point, "payload", payload);
      json_node_take_object (node, point);
      g_ptr_array_add (self->pending_chunks, node);
    }

  if (put->chunks == NULL || put->chunks->len == 0)
    record->first_chunk = 0;
  record->n_chunks = put->chunks != NULL ? put->chunks->len : 0;
  record->n_symbols = n_symbols;
  record->n_bytes = file->size;
  g_hash_table_add (self->replaced, g_strdup (file->path));
  g_hash_table_add (self->dirty, g_strdup (file->path));
  g_hash_table_remove (self->removed, file->path);
  return TRUE;
}

/* qdrant_store_put_file:
 * @self: a #LodeQdrantStore
 * @file: the file
 * @chunks: (element-type LodeChunk) (nullable): its chunks
 * @symbols: (element-type LodeSymbol) (nullable): its declarations
 * @error: return location for a #GError
 *
 * Replaces what the index holds of @file, inside the open batch or in one of its own.
 *
 * Returns: %TRUE on success
 */
static gboolean
qdrant_store_put_file (LodeQdrantStore     *self,
                       const LodeFileInfo  *file,
                       GPtrArray           *chunks,
                       GPtrArray           *symbols,
                       GError             **error)
{
  PutFile put = { file, chunks, symbols };

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (file != NULL && file->path != NULL, FALSE);

  return in_batch (self, put_file_points, &put, error);
}

/* Files that import @path no longer reach it. */
static void
unlink_target (LodeQdrantStore *self,
               const char      *path)
{
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    for (guint i = 0; i < record->imports->len; i++)
      {
        LodeStoredImport *import = g_ptr_array_index (record->imports, i);
        g_autoptr(GStrvBuilder) kept = NULL;

        if (import->targets == NULL ||
            !g_strv_contains ((const char * const *) import->targets, path))
          continue;
        kept = g_strv_builder_new ();
        for (guint t = 0; import->targets[t] != NULL; t++)
          if (strcmp (import->targets[t], path) != 0)
            g_strv_builder_add (kept, import->targets[t]);
        g_strfreev (import->targets);
        import->targets = g_strv_builder_end (kept);
        g_hash_table_add (self->dirty, g_strdup (record->path));
      }
}

static gboolean
remove_file_points (LodeQdrantStore  *self,
                    gconstpointer     data,
                    GError          **error)
{
  const char *path = data;

  if (!g_hash_table_contains (self->files, path))
    return TRUE;

  g_hash_table_add (self->replaced, g_strdup (path));
  g_hash_table_add (self->removed, g_strdup (path));
  g_hash_table_remove (self->dirty, path);
  g_hash_table_remove (self->files, path);
  unlink_target (self, path);
  return TRUE;
}

static gboolean qdrant_store_put_references (LodeQdrantStore  *self,
                                             const char       *path,
                                             LodeReferences   *references,
                                             GError          **error);
static void     qdrant_store_symbols_init   (LodeIndexStoreInterface *iface);
static void     qdrant_store_artifacts_init (LodeIndexStoreInterface *iface);

static gboolean
qdrant_store_remove_file (LodeQdrantStore  *self,
                          const char       *path,
                          GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return in_batch (self, remove_file_points, path, error);
}

/* ---- meta ------------------------------------------------------------------------------ */

static char *
qdrant_store_dup_meta (LodeQdrantStore *self,
                       const char      *key)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  return g_strdup (g_hash_table_lookup (self->meta, key));
}

typedef struct
{
  const char *key;
  const char *value;
} SetMeta;

static gboolean
set_meta_point (LodeQdrantStore  *self,
                gconstpointer     data,
                GError          **error)
{
  const SetMeta *set = data;

  g_hash_table_replace (self->meta, g_strdup (set->key), g_strdup (set->value));
  g_hash_table_add (self->dirty_meta, g_strdup (set->key));
  return TRUE;
}

static gboolean
qdrant_store_set_meta (LodeQdrantStore  *self,
                       const char       *key,
                       const char       *value,
                       GError          **error)
{
  SetMeta set = { key, value };

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (key != NULL, FALSE);

  return in_batch (self, set_meta_point, &set, error);
}

static gboolean
qdrant_store_get_stats (LodeQdrantStore  *self,
                        LodeStoreStats   *stats,
                        GError          **error)
{
  GHashTableIter iter;
  FileRecord *record;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);

  memset (stats, 0, sizeof *stats);
  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      stats->n_files++;
      stats->n_chunks += record->n_chunks;
      stats->n_symbols += record->n_symbols;
      stats->n_bytes += record->n_bytes;
      stats->n_lines += record->n_lines;
    }
  return TRUE;
}

/* qdrant_store_dup_language_counts:
 * @self: a #LodeQdrantStore
 *
 * Returns: (transfer full) (element-type utf8 guint): language id → number of files
 */
static GHashTable *
qdrant_store_dup_language_counts (LodeQdrantStore  *self,
                                  GError          **error)
{
  GHashTable *counts = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  GHashTableIter iter;
  FileRecord *record;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      guint n = GPOINTER_TO_UINT (g_hash_table_lookup (counts, record->language));

      g_hash_table_replace (counts, g_strdup (record->language), GUINT_TO_POINTER (n + 1));
    }
  return counts;
}

static int
compare_symbols (gconstpointer a,
                 gconstpointer b)
{
  const LodeSymbol *x = *(LodeSymbol **) a;
  const LodeSymbol *y = *(LodeSymbol **) b;

  return (x->start_line > y->start_line) - (x->start_line < y->start_line);
}

static int
compare_chunks (gconstpointer a,
                gconstpointer b)
{
  const LodeChunk *x = *(LodeChunk **) a;
  const LodeChunk *y = *(LodeChunk **) b;

  return (x->start_line > y->start_line) - (x->start_line < y->start_line);
}

/* qdrant_store_dup_chunks_for_file:
 * @self: a #LodeQdrantStore
 * @path: the file
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeChunk): its chunks by start line, with content
 */
static GPtrArray *
qdrant_store_dup_chunks_for_file (LodeQdrantStore  *self,
                                  const char       *path,
                                  GError          **error)
{
  g_autoptr(JsonNode) filter = chunk_match ("path", path);
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *chunks;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, NULL, NULL, 0, NULL,
                                      error);
  if (points == NULL)
    return NULL;

  chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      LodeChunk *chunk = lode_chunk_new ();
      const char *kind = lode_json_get_string (payload, "kind");

      chunk->start_line = json_object_get_int_member_with_default (payload, "start_line", 0);
      chunk->end_line = json_object_get_int_member_with_default (payload, "end_line", 0);
      chunk->kind = kind != NULL ? g_intern_string (kind) : NULL;
      chunk->symbol = g_strdup (lode_json_get_string (payload, "symbol"));
      chunk->container = g_strdup (lode_json_get_string (payload, "container"));
      chunk->signature = g_strdup (lode_json_get_string (payload, "signature"));
      chunk->content = g_strdup (lode_json_get_string (payload, "text"));
      lode_chunk_set_search_text (chunk, lode_json_get_string (payload, "sig_text"));
      g_ptr_array_add (chunks, chunk);
    }
  g_ptr_array_sort (chunks, compare_chunks);
  return chunks;
}

/**
 * lode_qdrant_store_get_data_version:
 * @self: a #LodeQdrantStore
 *
 * Asks the server for the collection's data version, which every commit bumps (from any
 * process or machine).
 *
 * Returns: the version, or -1 when the server cannot be asked
 */
gint64
lode_qdrant_store_get_data_version (LodeQdrantStore *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), -1);

  return read_version (self->client, self->collection, NULL, NULL);
}

/* ---- import graph ---------------------------------------------------------------------- */

typedef struct
{
  const char *path;
  GPtrArray  *imports;
} PutImports;

static gboolean
put_import_rows (LodeQdrantStore  *self,
                 gconstpointer     data,
                 GError          **error)
{
  const PutImports *put = data;
  FileRecord *record = g_hash_table_lookup (self->files, put->path);

  if (record == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND,
                   "Cannot store the imports of %s: the file is not in the index", put->path);
      return FALSE;
    }

  g_ptr_array_set_size (record->imports, 0);
  for (guint i = 0; put->imports != NULL && i < put->imports->len; i++)
    {
      LodeStoredImport *import = stored_import_copy (g_ptr_array_index (put->imports, i));

      g_free (import->path);
      import->path = g_strdup (record->path);
      import->id = record->id << 16 | i;
      g_ptr_array_add (record->imports, import);
    }
  g_hash_table_add (self->dirty, g_strdup (put->path));
  return TRUE;
}

static gboolean
qdrant_store_put_imports (LodeQdrantStore  *self,
                          const char       *path,
                          GPtrArray        *imports,
                          GError          **error)
{
  PutImports put = { path, imports };

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  return in_batch (self, put_import_rows, &put, error);
}

static int
compare_imports (gconstpointer a,
                 gconstpointer b)
{
  const LodeStoredImport *x = *(LodeStoredImport **) a;
  const LodeStoredImport *y = *(LodeStoredImport **) b;

  return (x->id > y->id) - (x->id < y->id);
}

typedef gboolean (*ImportFilter) (const LodeStoredImport *import,
                                  const char             *value);

static GPtrArray *
collect_imports (LodeQdrantStore *self,
                 ImportFilter     keep,
                 const char      *value)
{
  GPtrArray *imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    for (guint i = 0; i < record->imports->len; i++)
      {
        const LodeStoredImport *import = g_ptr_array_index (record->imports, i);

        if (keep == NULL || keep (import, value))
          g_ptr_array_add (imports, stored_import_copy (import));
      }

  g_ptr_array_sort (imports, compare_imports);
  return imports;
}

static gboolean
import_has_key (const LodeStoredImport *import,
                const char             *key)
{
  return g_strcmp0 (import->key, key) == 0;
}

static gboolean
import_has_target (const LodeStoredImport *import,
                   const char             *target)
{
  return import->targets != NULL &&
         g_strv_contains ((const char * const *) import->targets, target);
}

/* qdrant_store_dup_imports:
 * @self: a #LodeQdrantStore
 * @path: (nullable): a file, or %NULL for every import
 *
 * Returns: (transfer full) (element-type LodeStoredImport): the imports, a file's by line
 */
static GPtrArray *
qdrant_store_dup_imports (LodeQdrantStore  *self,
                          const char       *path,
                          GError          **error)
{
  FileRecord *record;
  GPtrArray *imports;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  if (path == NULL)
    return collect_imports (self, NULL, NULL);

  imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_import_free);
  record = g_hash_table_lookup (self->files, path);
  for (guint i = 0; record != NULL && i < record->imports->len; i++)
    g_ptr_array_add (imports, stored_import_copy (g_ptr_array_index (record->imports, i)));
  return imports;
}

static GPtrArray *
qdrant_store_dup_imports_for_key (LodeQdrantStore  *self,
                                  const char       *key,
                                  GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  return collect_imports (self, import_has_key, key);
}

static GPtrArray *
qdrant_store_dup_imports_to (LodeQdrantStore  *self,
                             const char       *target,
                             GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  return collect_imports (self, import_has_target, target);
}

typedef struct
{
  gint64              import_id;
  const char * const *targets;
  const char         *package;
} SetTargets;

static gboolean
set_target_rows (LodeQdrantStore  *self,
                 gconstpointer     data,
                 GError          **error)
{
  const SetTargets *set = data;
  GHashTableIter iter;
  FileRecord *record;
  gint64 file_id = set->import_id >> 16;
  guint index = set->import_id & 0xffff;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      LodeStoredImport *import;

      if (record->id != file_id)
        continue;
      if (index >= record->imports->len)
        break;
      import = g_ptr_array_index (record->imports, index);
      g_strfreev (import->targets);
      import->targets = g_strdupv ((char **) set->targets);
      g_free (import->package);
      import->package = g_strdup (set->package);
      g_hash_table_add (self->dirty, g_strdup (record->path));
      return TRUE;
    }

  g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "No import %" G_GINT64_FORMAT,
               set->import_id);
  return FALSE;
}

static gboolean
qdrant_store_set_import_targets (LodeQdrantStore     *self,
                                 gint64               import_id,
                                 const char * const  *targets,
                                 const char          *package,
                                 GError             **error)
{
  SetTargets set = { import_id, targets, package };

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);

  return in_batch (self, set_target_rows, &set, error);
}

static int
compare_records (gconstpointer a,
                 gconstpointer b)
{
  return strcmp ((*(FileRecord **) a)->path, (*(FileRecord **) b)->path);
}

static GPtrArray *
sorted_records (LodeQdrantStore *self)
{
  GPtrArray *records = g_ptr_array_sized_new (g_hash_table_size (self->files));
  GHashTableIter iter;
  gpointer record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, &record))
    g_ptr_array_add (records, record);
  g_ptr_array_sort (records, compare_records);
  return records;
}

/* qdrant_store_load_graph:
 * @self: a #LodeQdrantStore
 *
 * Returns: (transfer full): the import graph, built as lode_store_load_graph() builds it
 */
static LodeGraph *
qdrant_store_load_graph (LodeQdrantStore  *self,
                         GError          **error)
{
  g_autoptr(GPtrArray) records = NULL;
  LodeGraph *graph;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  graph = lode_graph_new ();
  records = sorted_records (self);
  for (guint i = 0; i < records->len; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);

      lode_graph_add_file (graph, record->path, record->language);
    }

  for (guint i = 0; i < records->len; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);

      for (guint k = 0; k < record->imports->len; k++)
        {
          const LodeStoredImport *import = g_ptr_array_index (record->imports, k);
          gboolean linked = FALSE;

          for (guint t = 0; import->targets != NULL && import->targets[t] != NULL; t++)
            {
              guint to;

              linked = TRUE;
              if (lode_graph_lookup (graph, import->targets[t], &to))
                lode_graph_add_edge (graph, i, to);
            }
          if (!linked && import->package != NULL)
            lode_graph_add_external (graph, i, import->package);
        }
    }

  lode_graph_freeze (graph);
  return graph;
}

static gboolean
qdrant_store_get_graph_counts (LodeQdrantStore  *self,
                               LodeGraphCounts  *counts,
                               GError          **error)
{
  GHashTableIter iter;
  FileRecord *record;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);

  memset (counts, 0, sizeof *counts);
  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    for (guint i = 0; i < record->imports->len; i++)
      {
        const LodeStoredImport *import = g_ptr_array_index (record->imports, i);

        counts->n_imports++;
        if (import->targets != NULL && import->targets[0] != NULL)
          counts->n_internal++;
        else if (import->package != NULL)
          counts->n_external++;
      }
  return TRUE;
}

static gboolean
clear_graph_rows (LodeQdrantStore  *self,
                  gconstpointer     data,
                  GError          **error)
{
  gboolean forget_hashes = GPOINTER_TO_INT (data);
  GHashTableIter iter;
  FileRecord *record;

  g_hash_table_iter_init (&iter, self->files);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &record))
    {
      g_ptr_array_set_size (record->imports, 0);
      if (forget_hashes)
        g_clear_pointer (&record->hash, g_free);
      g_hash_table_add (self->dirty, g_strdup (record->path));
    }
  return TRUE;
}

static gboolean
qdrant_store_clear_graph (LodeQdrantStore  *self,
                          gboolean          forget_hashes,
                          GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);

  return in_batch (self, clear_graph_rows, GINT_TO_POINTER (forget_hashes), error);
}

/* ---- vectors --------------------------------------------------------------------------- */

static JsonNode *
chunks_without (const char *model)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "must");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "key");
  json_builder_add_string_value (builder, "type");
  json_builder_set_member_name (builder, "match");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, "chunk");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "must_not");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "is_empty");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "key");
  json_builder_add_string_value (builder, "text_hash");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  if (model != NULL)
    {
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "key");
      json_builder_add_string_value (builder, "model");
      json_builder_set_member_name (builder, "match");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "value");
      json_builder_add_string_value (builder, model);
      json_builder_end_object (builder);
      json_builder_end_object (builder);
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

/* qdrant_store_dup_unembedded:
 * @self: a #LodeQdrantStore
 * @model: the embedding model
 * @after_chunk: only chunks with a larger id (0 for all)
 * @limit: at most this many
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type LodeStoreEmbedText): the next chunks, by id, that
 *   have text and no vector of @model
 */
static GPtrArray *
qdrant_store_dup_unembedded (LodeQdrantStore  *self,
                             const char       *model,
                             gint64            after_chunk,
                             guint             limit,
                             GError          **error)
{
  g_autoptr(JsonNode) filter = chunks_without (model);
  g_autofree char *start = g_strdup_printf ("%" G_GINT64_FORMAT, after_chunk + 1);
  const char *fields[] = { "text", "text_hash", NULL };
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *texts;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);
  g_return_val_if_fail (model != NULL && limit > 0, NULL);

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, fields, start, limit,
                                      NULL, error);
  if (points == NULL)
    return NULL;

  texts = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_store_embed_text_free);
  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      LodeStoreEmbedText *text = g_new0 (LodeStoreEmbedText, 1);

      text->chunk_id = g_ascii_strtoll (hit->id, NULL, 10);
      text->hash = g_strdup (lode_json_get_string (hit->payload, "text_hash"));
      text->text = g_strdup (lode_json_get_string (hit->payload, "text"));
      g_ptr_array_add (texts, text);
    }
  return texts;
}

/* qdrant_store_put_vectors:
 * @self: a #LodeQdrantStore
 * @model: the embedding model
 * @dims: the size of each vector: the collection's
 * @hashes: (array length=n_vectors): the text hash of each vector
 * @vectors: (array): @n_vectors × @dims floats
 * @n_vectors: how many
 * @n_chunks: (out) (optional): chunks that got a vector
 * @error: return location for a #GError
 *
 * Gives every chunk whose text has one of @hashes its vector and marks it with @model. The
 * vector is written before the mark, so a failure in between only embeds a chunk again.
 *
 * Returns: %TRUE on success
 */
static gboolean
qdrant_store_put_vectors (LodeQdrantStore     *self,
                          const char          *model,
                          guint                dims,
                          const char * const  *hashes,
                          const float         *vectors,
                          guint                n_vectors,
                          guint               *n_chunks,
                          GError             **error)
{
  g_autoptr(GHashTable) by_hash = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GPtrArray) updates = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autoptr(JsonObject) mark = json_object_new ();
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  const char *fields[] = { "text_hash", NULL };

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (model != NULL, FALSE);

  if (n_chunks != NULL)
    *n_chunks = 0;
  if (n_vectors == 0)
    return TRUE;

  if (dims != self->dims)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "The Qdrant collection %s holds %u-dimensional vectors, and %s gives %u: "
                   "remove the index (lode remove) to embed with another model",
                   self->collection, self->dims, model, dims);
      return FALSE;
    }

  for (guint i = 0; i < n_vectors; i++)
    g_hash_table_insert (by_hash, (gpointer) hashes[i], (gpointer) (vectors + (gsize) i * dims));

  filter = lode_qdrant_filter_and (filter_type ("chunk"),
                                   lode_qdrant_filter_match_any ("text_hash", hashes, n_vectors));
  points = lode_qdrant_client_scroll (self->client, self->collection, filter, fields, NULL, 0,
                                      NULL, error);
  if (points == NULL)
    return FALSE;

  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      const float *vector = g_hash_table_lookup (by_hash,
                                                 lode_json_get_string (hit->payload, "text_hash"));
      JsonObject *point = json_object_new ();
      JsonObject *named = json_object_new ();
      JsonArray *values = json_array_sized_new (dims);
      JsonNode *node = json_node_new (JSON_NODE_OBJECT);
      guint64 id = g_ascii_strtoull (hit->id, NULL, 10);

      if (vector == NULL)
        {
          json_object_unref (point);
          json_object_unref (named);
          json_array_unref (values);
          json_node_unref (node);
          continue;
        }
      for (guint d = 0; d < dims; d++)
        json_array_add_double_element (values, vector[d]);
      json_object_set_int_member (point, "id", (gint64) id);
      json_object_set_array_member (named, "dense", values);
      json_object_set_object_member (point, "vector", named);
      json_node_take_object (node, point);
      g_ptr_array_add (updates, node);
      g_ptr_array_add (ids, hit->id);
    }

  if (updates->len == 0)
    return TRUE;
  if (!lode_qdrant_client_update_vectors (self->client, self->collection, updates, NULL, error))
    return FALSE;

  json_object_set_string_member (mark, "model", model);
  {
    g_autoptr(JsonNode) marked = json_node_new (JSON_NODE_OBJECT);
    JsonObject *object = json_object_new ();
    JsonArray *has_id = json_array_new ();
    JsonArray *must = json_array_new ();
    JsonObject *condition = json_object_new ();

    for (guint i = 0; i < ids->len; i++)
      json_array_add_int_element (has_id, g_ascii_strtoll (ids->pdata[i], NULL, 10));
    json_object_set_array_member (condition, "has_id", has_id);
    json_array_add_object_element (must, condition);
    json_object_set_array_member (object, "must", must);
    json_node_take_object (marked, object);
    if (!lode_qdrant_client_set_payload (self->client, self->collection, marked, mark, NULL,
                                         error))
      return FALSE;
  }

  if (n_chunks != NULL)
    *n_chunks = updates->len;
  return TRUE;
}

static gboolean
qdrant_store_count_embedded (LodeQdrantStore  *self,
                             const char       *model,
                             guint            *n_embedded,
                             guint            *n_embeddable,
                             GError          **error)
{
  g_autoptr(JsonNode) embeddable = chunks_without (NULL);
  guint64 total = 0;
  guint64 embedded = 0;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);

  if (!lode_qdrant_client_count (self->client, self->collection, embeddable, &total, NULL, error))
    return FALSE;
  if (model != NULL)
    {
      g_autoptr(JsonNode) with_model = chunk_match ("model", model);

      if (!lode_qdrant_client_count (self->client, self->collection, with_model, &embedded, NULL,
                                     error))
        return FALSE;
    }

  *n_embedded = (guint) embedded;
  *n_embeddable = (guint) total;
  return TRUE;
}

/* Drops the dense vectors of other models: a model change embeds everything again. */
static gboolean
qdrant_store_prune_vectors (LodeQdrantStore  *self,
                            const char       *model,
                            GError          **error)
{
  g_autofree char *path = g_strdup_printf ("/collections/%s/points/vectors/delete?wait=true",
                                           self->collection);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;

  if (self->dims == 0)
    return TRUE;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "filter");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "must");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "key");
  json_builder_add_string_value (builder, "type");
  json_builder_set_member_name (builder, "match");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, "chunk");
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "must_not");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "key");
  json_builder_add_string_value (builder, "model");
  json_builder_set_member_name (builder, "match");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "value");
  json_builder_add_string_value (builder, model);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "vector");
  json_builder_begin_array (builder);
  json_builder_add_string_value (builder, "dense");
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  result = lode_qdrant_client_call (self->client, "POST", path, body, NULL, error);
  return result != NULL;
}

/* The declarations of a file, from its chunks' payload, by line. */
static GPtrArray *
qdrant_store_dup_symbols_for_file (LodeQdrantStore  *self,
                                   const char       *path,
                                   GError          **error)
{
  g_autoptr(JsonNode) filter = chunk_match ("path", path);
  const char *fields[] = { "symbols", NULL };
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *symbols;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, fields, NULL, 0,
                                      NULL, error);
  if (points == NULL)
    return NULL;

  symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      JsonNode *list = payload != NULL ? json_object_get_member (payload, "symbols") : NULL;
      JsonArray *array;

      if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
        continue;
      array = json_node_get_array (list);
      for (guint k = 0; k < json_array_get_length (array); k++)
        g_ptr_array_add (symbols, symbol_from_item (json_array_get_object_element (array, k)));
    }
  g_ptr_array_sort (symbols, compare_symbols);
  return symbols;
}

/* Every dense vector of @model, with the text hash it belongs to (each hash once). */
static gboolean
qdrant_store_foreach_vector (LodeQdrantStore     *self,
                             const char          *model,
                             LodeVectorHashFunc   func,
                             gpointer             user_data,
                             GError             **error)
{
  g_autoptr(JsonNode) filter = chunk_match ("model", model);
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autofree char *path = g_strdup_printf ("/collections/%s/points/scroll", self->collection);
  g_autoptr(JsonNode) offset = NULL;

  for (;;)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonNode) result = NULL;
      JsonArray *with_vector = json_array_new ();
      JsonArray *with_payload = json_array_new ();
      JsonArray *points;
      JsonNode *next;

      json_object_set_member (object, "filter", json_node_copy (filter));
      json_object_set_int_member (object, "limit", 256);
      json_array_add_string_element (with_payload, "text_hash");
      json_object_set_array_member (object, "with_payload", with_payload);
      json_array_add_string_element (with_vector, "dense");
      json_object_set_array_member (object, "with_vector", with_vector);
      if (offset != NULL)
        json_object_set_member (object, "offset", json_node_copy (offset));
      json_node_set_object (body, object);

      result = lode_qdrant_client_call (self->client, "POST", path, body, NULL, error);
      if (result == NULL)
        return FALSE;

      points = json_object_get_array_member (json_node_get_object (result), "points");
      for (guint i = 0; points != NULL && i < json_array_get_length (points); i++)
        {
          JsonObject *point = json_array_get_object_element (points, i);
          JsonObject *payload = json_object_get_object_member (point, "payload");
          JsonObject *vector = json_object_get_object_member (point, "vector");
          JsonArray *dense = vector != NULL ? json_object_get_array_member (vector, "dense") : NULL;
          const char *hash = payload != NULL ? lode_json_get_string (payload, "text_hash") : NULL;
          g_autofree float *values = NULL;
          guint dims;

          if (hash == NULL || dense == NULL || !g_hash_table_add (seen, g_strdup (hash)))
            continue;
          dims = json_array_get_length (dense);
          values = g_new (float, MAX (dims, 1));
          for (guint d = 0; d < dims; d++)
            values[d] = (float) json_array_get_double_element (dense, d);
          if (!func (hash, values, dims, user_data))
            return TRUE;
        }

      next = json_object_get_member (json_node_get_object (result), "next_page_offset");
      g_clear_pointer (&offset, json_node_unref);
      if (next == NULL || JSON_NODE_HOLDS_NULL (next))
        return TRUE;
      offset = json_node_copy (next);
    }
}

/* ---- search ---------------------------------------------------------------------------- */

static const char * const hit_fields[] = {
  "path", "file_id", "language", "start_line", "end_line", "kind", "symbol", "container",
  "signature", NULL
};

/* ---- LodeSearchBackend ------------------------------------------------------------------ */

/* Condition: the payload list @key holds the integer @value. */
static JsonNode *
match_int (const char *key,
           gint64      value)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *condition = json_object_new ();
  JsonObject *match = json_object_new ();

  json_object_set_int_member (match, "value", value);
  json_object_set_string_member (condition, "key", key);
  json_object_set_object_member (condition, "match", match);
  json_node_take_object (node, condition);
  return node;
}

static guint32
token_id (const char *token)
{
  return lode_sparse_token_id (token, strlen (token));
}

/* The query as a sparse vector: each group's term with its weight, and its parts sharing
 * the weight (a chunk that writes the identifier another way holds only the parts). */
static LodeSparseVector *
query_vector (const LodeLexicalQuery *query)
{
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  g_autoptr(GArray) weights = g_array_new (FALSE, FALSE, sizeof (double));

  for (guint i = 0; i < query->groups->len; i++)
    {
      const LodeLexicalGroup *group = g_ptr_array_index (query->groups, i);
      guint n_parts = group->parts != NULL ? g_strv_length (group->parts) : 0;

      g_ptr_array_add (terms, group->term);
      g_array_append_val (weights, group->weight);
      for (guint p = 0; p < n_parts; p++)
        {
          double share = group->weight / n_parts;

          g_ptr_array_add (terms, group->parts[p]);
          g_array_append_val (weights, share);
        }
    }

  return lode_sparse_vector_for_terms ((const char * const *) terms->pdata,
                                       (const double *) (gpointer) weights->data, terms->len);
}

/* Chunks that pass @filter's language (the path glob is checked on the rows), and, for a
 * query that requires every group, hold each group's term or all of its parts. */
static JsonNode *
search_filter (const LodeSearchFilter *filter,
               const LodeLexicalQuery *query)
{
  JsonNode *node = filter_type ("chunk");

  if (filter != NULL && filter->language != NULL)
    {
      g_autofree char *language = g_ascii_strdown (filter->language, -1);

      node = lode_qdrant_filter_and (node, lode_qdrant_filter_match ("language", language));
    }

  for (guint i = 0; query != NULL && query->require_all && i < query->groups->len; i++)
    {
      const LodeLexicalGroup *group = g_ptr_array_index (query->groups, i);
      JsonNode *either = json_node_new (JSON_NODE_OBJECT);
      JsonObject *object = json_object_new ();
      JsonArray *should = json_array_new ();

      json_array_add_element (should, match_int ("terms", token_id (group->term)));
      if (!query->whole_only && group->parts != NULL && group->parts[0] != NULL)
        {
          JsonObject *all = json_object_new ();
          JsonArray *must = json_array_new ();

          for (guint p = 0; group->parts[p] != NULL; p++)
            json_array_add_element (must, match_int ("terms", token_id (group->parts[p])));
          json_object_set_array_member (all, "must", must);
          json_array_add_object_element (should, all);
        }
      json_object_set_array_member (object, "should", should);
      json_node_take_object (either, object);
      node = lode_qdrant_filter_and (node, either);
    }

  return node;
}

/* The payload a leg needs: the path and language only to check a path glob here. */
static const char * const *
leg_fields (const LodeSearchFilter *filter)
{
  static const char * const none[] = { NULL };
  static const char * const path[] = { "path", "language", NULL };

  return filter != NULL && filter->path_glob != NULL ? path : none;
}

/* How many more candidates to ask for when rows are filtered here (a path glob). */
static guint
fetch_limit (const LodeSearchFilter *filter,
             guint                   limit)
{
  return filter != NULL && filter->path_glob != NULL ? MIN (limit * 4 + 100, 4000) : limit;
}

static gboolean
hit_accepted (const LodeSearchFilter *filter,
              LodeQdrantHit          *hit)
{
  if (filter == NULL || filter->path_glob == NULL)
    return TRUE;
  return hit->payload != NULL &&
         lode_search_filter_accepts (filter, lode_json_get_string (hit->payload, "language"),
                                     lode_json_get_string (hit->payload, "path"));
}

/* Qdrant's IDF of a term, ln (1 + (N − n + 0.5) / (n + 0.5)), from counts of the chunks. */
static gboolean
term_idf (LodeQdrantStore  *self,
          guint32           id,
          guint64           n_chunks,
          double           *idf,
          GError          **error)
{
  g_autoptr(JsonNode) with_term = NULL;
  guint64 n = 0;

  with_term = json_node_new (JSON_NODE_OBJECT);
  {
    JsonObject *object = json_object_new ();
    JsonArray *must = json_array_new ();

    json_array_add_element (must, lode_qdrant_filter_match ("type", "chunk"));
    json_array_add_element (must, match_int ("terms", id));
    json_object_set_array_member (object, "must", must);
    json_node_take_object (with_term, object);
  }
  if (!lode_qdrant_client_count (self->client, self->collection, with_term, &n, NULL, error))
    return FALSE;

  *idf = log (1.0 + ((double) n_chunks - n + 0.5) / (n + 0.5));
  return TRUE;
}

/* The relevance of a chunk holding each term of @query once in its body: the query vector's
 * values times their IDF (the searcher's 0–1 scale divides by it). */
static gboolean
query_weight (LodeQdrantStore         *self,
              const LodeSparseVector  *sparse,
              double                  *weight,
              GError                 **error)
{
  g_autoptr(JsonNode) chunks = filter_type ("chunk");
  guint64 n_chunks = 0;

  *weight = 0.0;
  if (!lode_qdrant_client_count (self->client, self->collection, chunks, &n_chunks, NULL, error))
    return FALSE;
  for (guint i = 0; i < sparse->len; i++)
    {
      double idf = 0.0;

      if (!term_idf (self, sparse->indices[i], n_chunks, &idf, error))
        return FALSE;
      *weight += sparse->values[i] * idf;
    }
  return TRUE;
}

static gint64
hit_chunk_id (LodeQdrantHit *hit)
{
  return g_ascii_strtoll (hit->id, NULL, 10);
}

/* Path-only queries: files whose path holds the terms, scored by the weight of those it
 * holds, each as its first chunk. */
static void
lexical_paths (LodeQdrantStore         *self,
               const LodeLexicalQuery  *query,
               const LodeSearchFilter  *filter,
               guint                    limit,
               GArray                  *hits)
{
  g_autoptr(GPtrArray) records = sorted_records (self);

  for (guint i = 0; i < records->len && hits->len < limit; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);
      g_auto(GStrv) tokens = NULL;
      LodeLexicalHit hit = { record->first_chunk, 0.0 };
      guint matched = 0;

      if (record->first_chunk == 0 ||
          !lode_search_filter_accepts (filter, record->language, record->path))
        continue;
      tokens = lode_code_tokenize_to_strv (record->path, LODE_TOKENIZE_SPLIT);
      for (guint g = 0; g < query->groups->len; g++)
        {
          const LodeLexicalGroup *group = g_ptr_array_index (query->groups, g);

          if (g_strv_contains ((const char * const *) tokens, group->term))
            {
              hit.score += group->weight;
              matched++;
            }
        }
      if (matched > 0 && (!query->require_all || matched == query->groups->len))
        g_array_append_val (hits, hit);
    }
}

static gboolean
backend_lexical (LodeSearchBackend       *backend,
                 const LodeLexicalQuery  *query,
                 const LodeSearchFilter  *filter,
                 guint                    limit,
                 GCancellable            *cancellable,
                 GArray                  *hits,
                 double                  *weight,
                 GError                 **error)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  g_autoptr(LodeSparseVector) sparse = query_vector (query);
  g_autoptr(JsonNode) condition = NULL;
  g_autoptr(GPtrArray) points = NULL;

  if (query->path_only)
    {
      lexical_paths (self, query, filter, limit, hits);
      *weight = 0.0;
      for (guint g = 0; g < query->groups->len; g++)
        *weight += ((LodeLexicalGroup *) g_ptr_array_index (query->groups, g))->weight;
      return TRUE;
    }

  if (!query_weight (self, sparse, weight, error))
    return FALSE;
  condition = search_filter (filter, query);
  points = lode_qdrant_client_query (self->client, self->collection, "bm25", NULL, 0, sparse,
                                     condition, fetch_limit (filter, limit), leg_fields (filter),
                                     cancellable, error);
  if (points == NULL)
    return FALSE;

  for (guint i = 0; i < points->len && hits->len < limit; i++)
    {
      LodeQdrantHit *point = g_ptr_array_index (points, i);
      LodeLexicalHit hit = { hit_chunk_id (point), point->score };

      if (hit_accepted (filter, point))
        g_array_append_val (hits, hit);
    }
  return TRUE;
}

static JsonNode *
has_ids (const gint64 *ids,
         guint         n_ids)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();
  JsonArray *must = json_array_new ();
  JsonObject *condition = json_object_new ();
  JsonArray *list = json_array_sized_new (n_ids);

  for (guint i = 0; i < n_ids; i++)
    json_array_add_int_element (list, ids[i]);
  json_object_set_array_member (condition, "has_id", list);
  json_array_add_object_element (must, condition);
  json_object_set_array_member (object, "must", must);
  json_node_take_object (node, object);
  return node;
}

static gboolean
backend_score_lexical (LodeSearchBackend       *backend,
                       const LodeLexicalQuery  *query,
                       const gint64            *chunk_ids,
                       guint                    n_chunks,
                       double                  *scores,
                       GError                 **error)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  g_autoptr(LodeSparseVector) sparse = query_vector (query);
  g_autoptr(JsonNode) filter = has_ids (chunk_ids, n_chunks);
  g_autoptr(GPtrArray) points = NULL;
  const char *fields[] = { NULL };

  memset (scores, 0, n_chunks * sizeof (double));
  if (n_chunks == 0)
    return TRUE;
  points = lode_qdrant_client_query (self->client, self->collection, "bm25", NULL, 0, sparse,
                                     filter, n_chunks, fields, NULL, error);
  if (points == NULL)
    return FALSE;

  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *point = g_ptr_array_index (points, i);
      gint64 id = hit_chunk_id (point);

      for (guint k = 0; k < n_chunks; k++)
        if (chunk_ids[k] == id)
          scores[k] = point->score;
    }
  return TRUE;
}

static LodeSymbolRow *
symbol_row (gint64      chunk_id,
            JsonObject *item)
{
  LodeSymbolRow *row = g_new0 (LodeSymbolRow, 1);

  row->chunk_id = chunk_id;
  row->name = g_strdup (lode_json_get_string (item, "name"));
  row->kind = g_strdup (lode_json_get_string (item, "kind"));
  row->container = g_strdup (lode_json_get_string (item, "container"));
  row->signature = g_strdup (lode_json_get_string (item, "signature"));
  row->start_line = json_object_get_int_member_with_default (item, "start_line", 0);
  row->end_line = json_object_get_int_member_with_default (item, "end_line", 0);
  return row;
}

static JsonArray *
payload_symbols (LodeQdrantHit *hit)
{
  JsonNode *list = hit->payload != NULL ? json_object_get_member (hit->payload, "symbols") : NULL;

  return list != NULL && JSON_NODE_HOLDS_ARRAY (list) ? json_node_get_array (list) : NULL;
}

static GPtrArray *
backend_find_symbols (LodeSearchBackend  *backend,
                      const char         *name,
                      guint               limit,
                      GError            **error)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  g_autofree char *lower = g_utf8_strdown (name, -1);
  g_autoptr(JsonNode) filter = chunk_match ("names", lower);
  const char *fields[] = { "symbols", NULL };
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *rows;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, fields, NULL,
                                      limit, NULL, error);
  if (points == NULL)
    return NULL;

  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_row_free);
  for (guint i = 0; i < points->len && rows->len < limit; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      JsonArray *symbols = payload_symbols (hit);

      for (guint k = 0; symbols != NULL && k < json_array_get_length (symbols); k++)
        {
          JsonObject *item = json_array_get_object_element (symbols, k);
          g_autofree char *item_lower = g_utf8_strdown (lode_json_get_string (item, "name"), -1);

          if (g_str_equal (item_lower, lower))
            g_ptr_array_add (rows, symbol_row (hit_chunk_id (hit), item));
        }
    }
  return rows;
}

static int
compare_symbol_rows (gconstpointer a,
                     gconstpointer b)
{
  const LodeSymbolRow *x = *(LodeSymbolRow **) a;
  const LodeSymbolRow *y = *(LodeSymbolRow **) b;

  if (x->start_line != y->start_line)
    return x->start_line < y->start_line ? -1 : 1;
  return (x->end_line < y->end_line) - (x->end_line > y->end_line);
}

static GPtrArray *
retrieve_chunks (LodeQdrantStore     *self,
                 const gint64        *chunk_ids,
                 guint                n_chunks,
                 const char * const  *fields,
                 GError             **error)
{
  g_autoptr(GPtrArray) ids = g_ptr_array_new_with_free_func (g_free);

  for (guint i = 0; i < n_chunks; i++)
    g_ptr_array_add (ids, g_strdup_printf ("%" G_GINT64_FORMAT, chunk_ids[i]));
  return lode_qdrant_client_retrieve (self->client, self->collection,
                                      (const char * const *) ids->pdata, ids->len, fields, NULL,
                                      error);
}

static GPtrArray *
backend_find_chunk_symbols (LodeSearchBackend  *backend,
                            gint64              chunk_id,
                            GError            **error)
{
  const char *fields[] = { "symbols", NULL };
  g_autoptr(GPtrArray) points = retrieve_chunks (LODE_QDRANT_STORE (backend), &chunk_id, 1,
                                                 fields, error);
  GPtrArray *rows;
  JsonArray *symbols;

  if (points == NULL)
    return NULL;
  rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_row_free);
  symbols = points->len > 0 ? payload_symbols (g_ptr_array_index (points, 0)) : NULL;
  for (guint k = 0; symbols != NULL && k < json_array_get_length (symbols); k++)
    g_ptr_array_add (rows, symbol_row (chunk_id, json_array_get_object_element (symbols, k)));
  g_ptr_array_sort (rows, compare_symbol_rows);
  return rows;
}

static GPtrArray *
backend_fetch_chunks (LodeSearchBackend  *backend,
                      const gint64       *chunk_ids,
                      guint               n_chunks,
                      GError            **error)
{
  g_autoptr(GPtrArray) points = retrieve_chunks (LODE_QDRANT_STORE (backend), chunk_ids, n_chunks,
                                                 hit_fields, error);
  g_autoptr(GHashTable) by_id = g_hash_table_new (g_int64_hash, g_int64_equal);
  g_autofree gint64 *keys = NULL;
  GPtrArray *rows;

  if (points == NULL)
    return NULL;

  keys = g_new (gint64, points->len + 1);
  for (guint i = 0; i < points->len; i++)
    {
      keys[i] = hit_chunk_id (g_ptr_array_index (points, i));
      g_hash_table_insert (by_id, &keys[i], g_ptr_array_index (points, i));
    }

  rows = g_ptr_array_new_full (n_chunks, (GDestroyNotify) lode_chunk_row_free);
  for (guint i = 0; i < n_chunks; i++)
    {
      LodeQdrantHit *hit = g_hash_table_lookup (by_id, &chunk_ids[i]);
      LodeChunkRow *row = NULL;

      if (hit != NULL && hit->payload != NULL)
        {
          row = g_new0 (LodeChunkRow, 1);
          row->chunk_id = chunk_ids[i];
          row->file_id = json_object_get_int_member_with_default (hit->payload, "file_id", 0);
          row->path = g_strdup (lode_json_get_string (hit->payload, "path"));
          row->language = g_strdup (lode_json_get_string (hit->payload, "language"));
          row->start_line = json_object_get_int_member_with_default (hit->payload, "start_line", 0);
          row->end_line = json_object_get_int_member_with_default (hit->payload, "end_line", 0);
          row->kind = g_strdup (lode_json_get_string (hit->payload, "kind"));
          row->symbol = g_strdup (lode_json_get_string (hit->payload, "symbol"));
          row->container = g_strdup (lode_json_get_string (hit->payload, "container"));
          row->signature = g_strdup (lode_json_get_string (hit->payload, "signature"));
        }
      g_ptr_array_add (rows, row);
    }
  return rows;
}

static char *
backend_dup_chunk_text (LodeSearchBackend  *backend,
                        gint64              chunk_id,
                        GError            **error)
{
  const char *fields[] = { "text", NULL };
  g_autoptr(GPtrArray) points = retrieve_chunks (LODE_QDRANT_STORE (backend), &chunk_id, 1,
                                                 fields, error);

  if (points == NULL)
    return NULL;
  if (points->len == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "Chunk %" G_GINT64_FORMAT " is gone",
                   chunk_id);
      return NULL;
    }
  return g_strdup (lode_json_get_string (((LodeQdrantHit *) g_ptr_array_index (points, 0))->payload,
                               "text"));
}

static GPtrArray *
backend_find_paths (LodeSearchBackend       *backend,
                    const char              *needle,
                    const LodeSearchFilter  *filter,
                    GError                 **error)
{
  g_autoptr(GPtrArray) records = sorted_records (LODE_QDRANT_STORE (backend));
  g_autofree char *lower = g_ascii_strdown (needle, -1);
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_path_row_free);

  for (guint i = 0; i < records->len; i++)
    {
      FileRecord *record = g_ptr_array_index (records, i);
      g_autofree char *path = g_ascii_strdown (record->path, -1);
      LodePathRow *row;

      if (strstr (path, lower) == NULL ||
          !lode_search_filter_accepts (filter, record->language, record->path))
        continue;
      row = g_new0 (LodePathRow, 1);
      row->file_id = record->id;
      row->path = g_strdup (record->path);
      row->language = g_strdup (record->language);
      row->first_chunk = record->first_chunk;
      g_ptr_array_add (rows, row);
    }
  return rows;
}

/* Asks the server for the data version; a new one reads the file points again, so that a
 * reader sees what any writer committed. */
static gint64
backend_get_version (LodeSearchBackend *backend)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  gint64 version = lode_qdrant_store_get_data_version (self);

  if (version >= 0 && version != self->seen_version && !self->in_batch)
    {
      g_autoptr(GError) error = NULL;

      if (lode_qdrant_store_refresh (self, &error))
        self->seen_version = version;
      else
        g_warning ("Cannot read the Qdrant collection %s again: %s", self->collection,
                   error->message);
    }
  return version;
}

static GArray *
backend_dup_chunk_ids (LodeSearchBackend       *backend,
                       const LodeSearchFilter  *filter,
                       GError                 **error)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  g_autoptr(JsonNode) condition = NULL;
  g_autoptr(GPtrArray) points = NULL;
  const char *fields[] = { "path", "language", NULL };
  GArray *ids;

  condition = filter != NULL ? search_filter (filter, NULL) : chunks_without (NULL);
  points = lode_qdrant_client_scroll (self->client, self->collection, condition, fields, NULL,
                                      0, NULL, error);
  if (points == NULL)
    return NULL;

  ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *hit = g_ptr_array_index (points, i);
      gint64 id = hit_chunk_id (hit);

      if (hit_accepted (filter, hit))
        g_array_append_val (ids, id);
    }
  return ids;
}

static gboolean
backend_get_vector_dims (LodeSearchBackend  *backend,
                         const char         *model,
                         guint              *dims,
                         GError            **error)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  g_autoptr(JsonNode) filter = chunk_match ("model", model);
  guint64 n = 0;

  if (!lode_qdrant_client_count (self->client, self->collection, filter, &n, NULL, error))
    return FALSE;
  *dims = n > 0 ? self->dims : 0;
  return TRUE;
}

typedef struct
{
  LodeVectorCursor *cursor;
  LodeVectorFunc    func;
  gpointer          user_data;
} LoadVectors;

/* Runs @func over the dense vectors of @model's chunks after @cursor, in chunk order. The
 * searcher asks for them only of backends without their own dense search; this one has it,
 * so this serves the interface's other users. */
static gboolean
backend_load_vectors (LodeSearchBackend  *backend,
                      const char         *model,
                      guint               dims,
                      LodeVectorCursor   *cursor,
                      LodeVectorFunc      func,
                      gpointer            user_data,
                      GError            **error)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  g_autoptr(JsonNode) filter = chunk_match ("model", model);
  g_autofree char *path = g_strdup_printf ("/collections/%s/points/scroll", self->collection);
  g_autoptr(JsonNode) offset = json_node_new (JSON_NODE_VALUE);

  json_node_set_int (offset, cursor->last_chunk + 1);
  for (;;)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonNode) result = NULL;
      JsonArray *with_vector = json_array_new ();
      JsonArray *points;
      JsonNode *next;

      json_object_set_member (object, "filter", json_node_copy (filter));
      json_object_set_int_member (object, "limit", 256);
      json_object_set_boolean_member (object, "with_payload", FALSE);
      json_array_add_string_element (with_vector, "dense");
      json_object_set_array_member (object, "with_vector", with_vector);
      json_object_set_member (object, "offset", json_node_copy (offset));
      json_node_set_object (body, object);

      result = lode_qdrant_client_call (self->client, "POST", path, body, NULL, error);
      if (result == NULL)
        return FALSE;

      points = json_object_get_array_member (json_node_get_object (result), "points");
      for (guint i = 0; points != NULL && i < json_array_get_length (points); i++)
        {
          JsonObject *point = json_array_get_object_element (points, i);
          JsonObject *vector = json_object_get_object_member (point, "vector");
          JsonArray *dense = vector != NULL ? json_object_get_array_member (vector, "dense") : NULL;
          g_autofree float *values = NULL;
          gint64 id = json_object_get_int_member (point, "id");

          if (dense == NULL || json_array_get_length (dense) != dims)
            continue;
          values = g_new (float, dims);
          for (guint d = 0; d < dims; d++)
            values[d] = (float) json_array_get_double_element (dense, d);
          func (id, values, user_data);
          cursor->last_chunk = MAX (cursor->last_chunk, id);
        }

      next = json_object_get_member (json_node_get_object (result), "next_page_offset");
      if (next == NULL || JSON_NODE_HOLDS_NULL (next))
        return TRUE;
      g_clear_pointer (&offset, json_node_unref);
      offset = json_node_copy (next);
    }
}

static gboolean
count_embedded (LodeQdrantStore  *self,
                const char       *model,
                guint            *n_embedded,
                guint            *n_embeddable,
                GError          **error)
{
  return qdrant_store_count_embedded (self, model, n_embedded, n_embeddable, error);
}

static gboolean
backend_dense (LodeSearchBackend       *backend,
               const char              *model,
               const float             *vector,
               guint                    dims,
               const LodeSearchFilter  *filter,
               guint                    limit,
               GArray                  *hits,
               guint                   *n_embedded,
               guint                   *n_embeddable,
               GError                 **error)
{
  LodeQdrantStore *self = LODE_QDRANT_STORE (backend);
  g_autoptr(JsonNode) condition = NULL;
  g_autoptr(GPtrArray) points = NULL;

  if (!count_embedded (self, model, n_embedded, n_embeddable, error))
    return FALSE;
  if (*n_embedded == 0)
    return TRUE;
  if (dims != self->dims)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s gave the query %u dimensions, the Qdrant collection's vectors have %u",
                   model, dims, self->dims);
      return FALSE;
    }

  condition = lode_qdrant_filter_and (search_filter (filter, NULL),
                                      lode_qdrant_filter_match ("model", model));
  points = lode_qdrant_client_query (self->client, self->collection, "dense", vector, dims, NULL,
                                     condition, fetch_limit (filter, limit), leg_fields (filter),
                                     NULL, error);
  if (points == NULL)
    return FALSE;

  for (guint i = 0; i < points->len && hits->len < limit; i++)
    {
      LodeQdrantHit *point = g_ptr_array_index (points, i);
      LodeVectorHit hit = { hit_chunk_id (point), (float) point->score };

      if (hit_accepted (filter, point))
        g_array_append_val (hits, hit);
    }
  return TRUE;
}

static void
lode_qdrant_store_search_backend_init (LodeSearchBackendInterface *iface)
{
  iface->lexical = backend_lexical;
  iface->score_lexical = backend_score_lexical;
  iface->find_symbols = backend_find_symbols;
  iface->find_chunk_symbols = backend_find_chunk_symbols;
  iface->fetch_chunks = backend_fetch_chunks;
  iface->dup_chunk_text = backend_dup_chunk_text;
  iface->find_paths = backend_find_paths;
  iface->get_version = backend_get_version;
  iface->dup_chunk_ids = backend_dup_chunk_ids;
  iface->get_vector_dims = backend_get_vector_dims;
  iface->load_vectors = backend_load_vectors;
  iface->dense = backend_dense;
}

static void
lode_qdrant_store_index_store_init (LodeIndexStoreInterface *iface)
{
  iface->get_was_reset = (gpointer) qdrant_store_get_was_reset;
  iface->get_reset_reason = (gpointer) qdrant_store_get_reset_reason;
  iface->dup_file_hashes = (gpointer) qdrant_store_dup_file_hashes;
  iface->dup_files = (gpointer) qdrant_store_dup_files;
  iface->begin = (gpointer) qdrant_store_begin;
  iface->commit = (gpointer) qdrant_store_commit;
  iface->rollback = (gpointer) qdrant_store_rollback;
  iface->put_file = (gpointer) qdrant_store_put_file;
  iface->put_references = (gpointer) qdrant_store_put_references;
  iface->remove_file = (gpointer) qdrant_store_remove_file;
  iface->dup_meta = (gpointer) qdrant_store_dup_meta;
  iface->set_meta = (gpointer) qdrant_store_set_meta;
  iface->get_stats = (gpointer) qdrant_store_get_stats;
  iface->dup_language_counts = (gpointer) qdrant_store_dup_language_counts;
  iface->dup_chunks_for_file = (gpointer) qdrant_store_dup_chunks_for_file;
  iface->dup_symbols_for_file = (gpointer) qdrant_store_dup_symbols_for_file;
  iface->put_imports = (gpointer) qdrant_store_put_imports;
  iface->dup_imports = (gpointer) qdrant_store_dup_imports;
  iface->dup_imports_for_key = (gpointer) qdrant_store_dup_imports_for_key;
  iface->dup_imports_to = (gpointer) qdrant_store_dup_imports_to;
  iface->set_import_targets = (gpointer) qdrant_store_set_import_targets;
  iface->load_graph = (gpointer) qdrant_store_load_graph;
  iface->get_graph_counts = (gpointer) qdrant_store_get_graph_counts;
  iface->clear_graph = (gpointer) qdrant_store_clear_graph;
  iface->dup_unembedded = (gpointer) qdrant_store_dup_unembedded;
  iface->put_vectors = (gpointer) qdrant_store_put_vectors;
  iface->count_embedded = (gpointer) qdrant_store_count_embedded;
  iface->prune_vectors = (gpointer) qdrant_store_prune_vectors;
  iface->foreach_vector = (gpointer) qdrant_store_foreach_vector;
  qdrant_store_symbols_init (iface);
  qdrant_store_artifacts_init (iface);
}

/* ---- symbols and references (what the symbol tools read) --------------------------------
 *
 * A chunk's `symbols` hold each declaration with its package, its details (JSON) and its
 * place in the file's list (`seq`); the chunk lists their packages and containers for
 * filters. A file's references are one "refs" point (UUID from the path): path, the names
 * (`ref_names`) and, in the same order, their sites (`ref_sites`, base64 of
 * lode_reference_sites_encode()). Both are replaced and deleted with the file's chunks.
 */

static JsonObject *
symbol_item (const LodeSymbol *symbol,
             guint             seq)
{
  JsonObject *item = json_object_new ();

  json_object_set_string_member (item, "name", symbol->name);
  set_string (item, "kind", symbol->kind);
  set_string (item, "container", symbol->container);
  set_string (item, "signature", symbol->signature);
  json_object_set_int_member (item, "start_line", symbol->start_line);
  json_object_set_int_member (item, "end_line", symbol->end_line);
  set_string (item, "package", symbol->package);
  set_string (item, "scope", symbol->scope);
  set_string (item, "detail", symbol->detail);
  json_object_set_int_member (item, "seq", seq);
  return item;
}

/* The distinct values of @member of @symbols as a list, for a filter. */
static JsonArray *
distinct_values (JsonArray  *symbols,
                 const char *member)
{
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  JsonArray *values = json_array_new ();

  for (guint i = 0; i < json_array_get_length (symbols); i++)
    {
      const char *value = lode_json_get_string (json_array_get_object_element (symbols, i), member);

      if (value != NULL && g_hash_table_add (seen, (gpointer) value))
        json_array_add_string_element (values, value);
    }
  return values;
}

static void
add_symbol_lists (JsonObject *payload,
                  JsonArray  *symbols)
{
  json_object_set_array_member (payload, "packages", distinct_values (symbols, "package"));
  json_object_set_array_member (payload, "containers", distinct_values (symbols, "container"));
}

static LodeSymbol *
symbol_from_item (JsonObject *item)
{
  LodeSymbol *symbol = lode_symbol_new ();
  const char *kind = lode_json_get_string (item, "kind");

  symbol->name = g_strdup (lode_json_get_string (item, "name"));
  symbol->kind = kind != NULL ? g_intern_string (kind) : NULL;
  symbol->container = g_strdup (lode_json_get_string (item, "container"));
  symbol->signature = g_strdup (lode_json_get_string (item, "signature"));
  symbol->start_line = json_object_get_int_member_with_default (item, "start_line", 0);
  symbol->end_line = json_object_get_int_member_with_default (item, "end_line", 0);
  symbol->package = g_strdup (lode_json_get_string (item, "package"));
  symbol->scope = g_strdup (lode_json_get_string (item, "scope"));
  symbol->detail = g_strdup (lode_json_get_string (item, "detail"));
  return symbol;
}

typedef struct
{
  JsonArray *names;
  JsonArray *sites;
} RefsPayload;

static void
add_ref_name (const char    *name,
              const guint32 *sites,
              guint          n_sites,
              gpointer       user_data)
{
  RefsPayload *refs = user_data;
  g_autoptr(GBytes) blob = lode_reference_sites_encode (sites, n_sites);
  gsize size;
  const guint8 *data = g_bytes_get_data (blob, &size);
  g_autofree char *encoded = g_base64_encode (data, size);

  json_array_add_string_element (refs->names, name);
  json_array_add_string_element (refs->sites, encoded);
}

typedef struct
{
  const char     *path;
  LodeReferences *references;
} PutRefs;

static gboolean
put_refs_point (LodeQdrantStore  *self,
                gconstpointer     data,
                GError          **error)
{
  const PutRefs *put = data;
  g_autofree char *id = name_uuid ("refs", put->path);
  RefsPayload refs;
  JsonObject *point, *payload;
  JsonNode *node;

  if (!g_hash_table_contains (self->files, put->path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s is not in the index", put->path);
      return FALSE;
    }

  refs.names = json_array_new ();
  refs.sites = json_array_new ();
  point = json_object_new ();
  payload = json_object_new ();
  node = json_node_new (JSON_NODE_OBJECT);
  lode_references_foreach (put->references, add_ref_name, &refs);
  json_object_set_string_member (point, "id", id);
  json_object_set_object_member (point, "vector", json_object_new ());
  json_object_set_string_member (payload, "type", "refs");
  json_object_set_string_member (payload, "path", put->path);
  json_object_set_array_member (payload, "ref_names", refs.names);
  json_object_set_array_member (payload, "ref_sites", refs.sites);
  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  g_ptr_array_add (self->pending_refs, node);
  /* The old point goes with the file's chunks, before this one is written. */
  g_hash_table_add (self->replaced, g_strdup (put->path));
  return TRUE;
}

/* qdrant_store_put_references:
 * @self: a #LodeQdrantStore
 * @path: a file stored with put_file
 * @references: (nullable): its identifiers; %NULL stores none
 * @error: return location for a #GError
 *
 * Replaces the references of @path, in the open batch or in one of its own.
 *
 * Returns: %TRUE on success
 */
static gboolean
qdrant_store_put_references (LodeQdrantStore  *self,
                             const char       *path,
                             LodeReferences   *references,
                             GError          **error)
{
  PutRefs put = { path, references };

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  if (references == NULL || lode_references_get_n_names (references) == 0)
    return TRUE;
  return in_batch (self, put_refs_point, &put, error);
}

static LodeStoredSymbol *
stored_symbol (const char *path,
               const char *language,
               JsonObject *item)
{
  LodeStoredSymbol *symbol = g_new0 (LodeStoredSymbol, 1);

  symbol->path = g_strdup (path);
  symbol->language = g_strdup (language);
  symbol->name = g_strdup (lode_json_get_string (item, "name"));
  symbol->kind = g_strdup (lode_json_get_string (item, "kind"));
  symbol->container = g_strdup (lode_json_get_string (item, "container"));
  symbol->signature = g_strdup (lode_json_get_string (item, "signature"));
  symbol->start_line = json_object_get_int_member_with_default (item, "start_line", 0);
  symbol->end_line = json_object_get_int_member_with_default (item, "end_line", 0);
  symbol->package = g_strdup (lode_json_get_string (item, "package"));
  symbol->scope = g_strdup (lode_json_get_string (item, "scope"));
  symbol->detail = g_strdup (lode_json_get_string (item, "detail"));
  return symbol;
}

typedef gboolean (*SymbolTest) (JsonObject *item,
                                const char *path,
                                const char *value);

typedef struct
{
  LodeStoredSymbol *symbol;
  gint64            seq;
} Row;

static int
compare_rows (gconstpointer a,
              gconstpointer b)
{
  const Row *x = a, *y = b;
  int by_path = strcmp (x->symbol->path, y->symbol->path);

  if (by_path != 0)
    return by_path;
  if (x->symbol->start_line != y->symbol->start_line)
    return x->symbol->start_line < y->symbol->start_line ? -1 : 1;
  return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The symbols of the chunks @filter selects that pass @test, by path, line and order of
 * declaration; @limit at most (0 for all). */
static GPtrArray *
scroll_symbols (LodeQdrantStore  *self,
                JsonNode         *filter,
                SymbolTest        test,
                const char       *value,
                guint             limit,
                GError          **error)
{
  const char *fields[] = { "path", "symbols", NULL };
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GArray) rows = g_array_new (FALSE, FALSE, sizeof (Row));
  GPtrArray *symbols;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, fields, NULL, 0,
                                      NULL, error);
  if (points == NULL)
    {
      g_prefix_error (error, "Cannot read symbols from the Qdrant collection %s: ",
                      self->collection);
      return NULL;
    }

  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      const char *path = payload != NULL ? lode_json_get_string (payload, "path") : NULL;
      JsonNode *list = payload != NULL ? json_object_get_member (payload, "symbols") : NULL;
      FileRecord *record = path != NULL ? g_hash_table_lookup (self->files, path) : NULL;
      JsonArray *array;

      /* A chunk whose file point is not written yet (a crash mid-batch) is not indexed. */
      if (record == NULL || list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
        continue;
      array = json_node_get_array (list);
      for (guint k = 0; k < json_array_get_length (array); k++)
        {
          JsonObject *item = json_array_get_object_element (array, k);
          Row row;

          if (test != NULL && !test (item, path, value))
            continue;
          row.symbol = stored_symbol (path, record->language, item);
          row.seq = json_object_get_int_member_with_default (item, "seq", 0);
          g_array_append_val (rows, row);
        }
    }

  g_array_sort (rows, compare_rows);
  symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_symbol_free);
  for (guint i = 0; i < rows->len; i++)
    {
      LodeStoredSymbol *symbol = g_array_index (rows, Row, i).symbol;

      if (limit == 0 || symbols->len < limit)
        g_ptr_array_add (symbols, symbol);
      else
        lode_stored_symbol_free (symbol);
    }
  return symbols;
}

static gboolean
name_is (JsonObject *item,
         const char *path,
         const char *name)
{
  return g_strcmp0 (lode_json_get_string (item, "name"), name) == 0;
}

/* As SQLite's NOCASE, which folds ASCII letters only. */
static gboolean
name_is_nocase (JsonObject *item,
                const char *path,
                const char *name)
{
  const char *value = lode_json_get_string (item, "name");

  return value != NULL && g_ascii_strcasecmp (value, name) == 0;
}

static gboolean
package_is (JsonObject *item,
            const char *path,
            const char *package)
{
  return g_strcmp0 (lode_json_get_string (item, "package"), package) == 0;
}

static gboolean
path_matches (JsonObject *item,
              const char *path,
              const char *glob)
{
  return g_pattern_match_simple (glob, path);
}

static gboolean
container_is (JsonObject *item,
              const char *path,
              const char *container)
{
  return g_strcmp0 (lode_json_get_string (item, "container"), container) == 0;
}

static GPtrArray *
qdrant_store_find_symbols (LodeQdrantStore  *self,
                           const char       *name,
                           guint             limit,
                           GError          **error)
{
  g_autofree char *lower = g_utf8_strdown (name, -1);
  g_autoptr(JsonNode) filter = chunk_match ("names", lower);
  g_autoptr(GPtrArray) symbols = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  symbols = scroll_symbols (self, filter, name_is, name, limit, error);
  if (symbols == NULL || symbols->len > 0)
    return g_steal_pointer (&symbols);
  return scroll_symbols (self, filter, name_is_nocase, name, limit, error);
}

static GPtrArray *
qdrant_store_dup_file_symbols (LodeQdrantStore  *self,
                               const char       *path,
                               GError          **error)
{
  g_autoptr(JsonNode) filter = chunk_match ("path", path);

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  return scroll_symbols (self, filter, NULL, NULL, 0, error);
}

static GPtrArray *
qdrant_store_dup_package_symbols (LodeQdrantStore  *self,
                                  const char       *package,
                                  const char       *path_glob,
                                  guint             limit,
                                  GError          **error)
{
  g_autoptr(JsonNode) filter = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  if (package != NULL)
    {
      filter = chunk_match ("packages", package);
      return scroll_symbols (self, filter, package_is, package, limit, error);
    }
  /* Qdrant has no glob match: the chunks that declare something, filtered here. */
  filter = filter_type ("chunk");
  return scroll_symbols (self, filter, path_matches, path_glob, limit, error);
}

static GPtrArray *
qdrant_store_find_container_members (LodeQdrantStore  *self,
                                     const char       *container,
                                     guint             limit,
                                     GError          **error)
{
  g_autoptr(JsonNode) filter = chunk_match ("containers", container);

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  return scroll_symbols (self, filter, container_is, container, limit, error);
}

static int
compare_stored_references (gconstpointer a,
                           gconstpointer b)
{
  const LodeStoredReferences *x = *(LodeStoredReferences **) a;
  const LodeStoredReferences *y = *(LodeStoredReferences **) b;

  return strcmp (x->path, y->path);
}

/* The "refs" points @filter selects whose file is indexed, with their payload. */
static GPtrArray *
scroll_refs (LodeQdrantStore  *self,
             JsonNode         *filter,
             GError          **error)
{
  const char *fields[] = { "path", "ref_names", "ref_sites", NULL };
  GPtrArray *points;

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, fields, NULL, 0,
                                      NULL, error);
  if (points == NULL)
    g_prefix_error (error, "Cannot read references from the Qdrant collection %s: ",
                    self->collection);
  return points;
}

/* Calls @func with each name of a "refs" @payload and its decoded sites. */
static void
foreach_ref (JsonObject *payload,
             const char *only,
             void      (*func) (const char *, GArray *, gpointer),
             gpointer    user_data)
{
  JsonArray *names = json_object_get_array_member (payload, "ref_names");
  JsonArray *sites = json_object_get_array_member (payload, "ref_sites");

  for (guint i = 0; names != NULL && sites != NULL && i < json_array_get_length (names) &&
       i < json_array_get_length (sites); i++)
    {
      const char *name = json_array_get_string_element (names, i);
      g_autofree guchar *blob = NULL;
      gsize size = 0;

      if (name == NULL || (only != NULL && strcmp (name, only) != 0))
        continue;
      blob = g_base64_decode (json_array_get_string_element (sites, i), &size);
      func (name, lode_reference_sites_decode (blob, size), user_data);
    }
}

static void
take_sites (const char *name,
            GArray     *sites,
            gpointer    user_data)
{
  LodeStoredReferences *file = user_data;

  g_clear_pointer (&file->sites, g_array_unref);
  file->sites = sites;
}

static GPtrArray *
qdrant_store_find_references (LodeQdrantStore  *self,
                              const char       *name,
                              GError          **error)
{
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *files;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  filter = lode_qdrant_filter_and (filter_type ("refs"), lode_qdrant_filter_match ("ref_names",
                                                                                   name));
  points = scroll_refs (self, filter, error);
  if (points == NULL)
    return NULL;

  files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_references_free);
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      const char *path = payload != NULL ? lode_json_get_string (payload, "path") : NULL;
      FileRecord *record = path != NULL ? g_hash_table_lookup (self->files, path) : NULL;
      LodeStoredReferences *file;

      if (record == NULL)
        continue;
      file = g_new0 (LodeStoredReferences, 1);
      file->path = g_strdup (path);
      file->language = g_strdup (record->language);
      foreach_ref (payload, name, take_sites, file);
      if (file->sites == NULL)
        file->sites = g_array_new (FALSE, FALSE, sizeof (guint32));
      g_ptr_array_add (files, file);
    }
  g_ptr_array_sort (files, compare_stored_references);
  return files;
}

static void
add_sites (const char *name,
           GArray     *sites,
           gpointer    user_data)
{
  for (guint i = 0; i < sites->len; i++)
    {
      guint32 site = g_array_index (sites, guint32, i);

      lode_references_add (user_data, name, strlen (name), lode_reference_site_line (site),
                           lode_reference_site_kind (site));
    }
  g_array_unref (sites);
}

static LodeReferences *
qdrant_store_dup_references_for_file (LodeQdrantStore  *self,
                                      const char       *path,
                                      GError          **error)
{
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GPtrArray) points = NULL;
  LodeReferences *references;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  filter = lode_qdrant_filter_and (filter_type ("refs"), lode_qdrant_filter_match ("path", path));
  points = scroll_refs (self, filter, error);
  if (points == NULL)
    return NULL;

  references = lode_references_new ();
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;

      if (payload != NULL)
        foreach_ref (payload, NULL, add_sites, references);
    }
  return references;
}

static int
compare_chunk_lines (gconstpointer a,
                     gconstpointer b)
{
  const LodeChunk *x = *(LodeChunk **) a;
  const LodeChunk *y = *(LodeChunk **) b;

  if (x->start_line != y->start_line)
    return x->start_line < y->start_line ? -1 : 1;
  return (x->end_line > y->end_line) - (x->end_line < y->end_line);
}

/* The chunks of @path that span @first to @last, by start then end line. */
static GPtrArray *
qdrant_store_dup_line_chunks (LodeQdrantStore  *self,
                              const char       *path,
                              guint             first,
                              guint             last,
                              GError          **error)
{
  GPtrArray *chunks = qdrant_store_dup_chunks_for_file (self, path, error);

  if (chunks == NULL)
    return NULL;
  for (guint i = chunks->len; i-- > 0;)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      if (chunk->end_line < first || chunk->start_line > last)
        g_ptr_array_remove_index (chunks, i);
    }
  g_ptr_array_sort (chunks, compare_chunk_lines);
  return chunks;
}

static void
qdrant_store_symbols_init (LodeIndexStoreInterface *iface)
{
  iface->find_symbols = (gpointer) qdrant_store_find_symbols;
  iface->dup_file_symbols = (gpointer) qdrant_store_dup_file_symbols;
  iface->dup_package_symbols = (gpointer) qdrant_store_dup_package_symbols;
  iface->find_container_members = (gpointer) qdrant_store_find_container_members;
  iface->find_references = (gpointer) qdrant_store_find_references;
  iface->dup_references_for_file = (gpointer) qdrant_store_dup_references_for_file;
  iface->dup_line_chunks = (gpointer) qdrant_store_dup_line_chunks;
}

/* ---- context artifacts ------------------------------------------------------------------
 *
 * Two more kinds of points, apart from the code (no query of code, files, symbols, stats or
 * the graph selects their types):
 *
 * - "artifact_piece" (UUID from the artifact's name and the piece's order): artifact, seq,
 *   path, lines, kind, title, text, its token ids (`terms`) and its length in tokens; the
 *   sparse vector `artifact_bm25`, the client-side BM25 of Lode's tokenizer as chunks get,
 *   the title weighed 4 and the text 1 as the SQLite store weighs them. It is a vector of its
 *   own so that the server's IDF of either space is over that space alone: artifacts do not
 *   move code scores, nor code artifact scores.
 * - "artifact" (UUID from the name): what #LodeStoredArtifact holds, its tokens in all
 *   (`n_tokens`) and its vocabulary (every token of its pieces).
 *
 * Search ranks as the SQLite store's FTS5 bm25() does, each query word a prefix: the
 * vocabularies give each word the tokens that start with it, the server finds the pieces
 * holding any of them (its BM25 picks the candidates), and the candidates are scored here
 * with FTS5's formula (k1 1.2, b 0.75, a word's IDF from the number of pieces holding one of
 * its tokens, counted by the server; lengths from the payload).
 *
 * An artifact is put in the order that makes a crash harmless: its record goes first, then
 * its old pieces; the new pieces are upserted, and the record with its hash comes last. A
 * crash in between leaves no record, so the artifact is indexed again; search reads only
 * pieces of artifacts that have a record.
 */

#define ARTIFACT_VECTOR "artifact_bm25"
/* Tokens a query word stands for at most (its longer forms in the vocabularies). */
#define MAX_PREFIX_TERMS 256
/* Pieces the server hands over for scoring. */
#define MAX_CANDIDATES 1000
#define FTS5_BM25_K1 1.2
#define FTS5_BM25_B  0.75

static const double artifact_weights[] = { 4.0, 1.0 };   /* title, text */

static const char * const artifact_fields[] = {
  "artifact", "path", "description", "hash", "indexed_at", "n_files", "n_chunks", NULL
};

static const char * const piece_fields[] = {
  "artifact", "seq", "path", "start_line", "end_line", "kind", "title", "text", NULL
};

static JsonNode *
artifact_filter (const char *type,
                 const char *name)
{
  return lode_qdrant_filter_and (filter_type (type),
                                 name != NULL ? lode_qdrant_filter_match ("artifact", name)
                                              : NULL);
}

/* Pieces of the artifacts @names. */
static JsonNode *
pieces_of (GPtrArray *names)
{
  return lode_qdrant_filter_and (filter_type ("artifact_piece"),
                                 lode_qdrant_filter_match_any ("artifact",
                                                               (const char * const *)
                                                                 names->pdata, names->len));
}

/* What a piece's tokens give: the artifact's vocabulary, the piece's token ids and its length
 * (tokens that are not parts of the one before, as FTS5 counts a row's size). */
typedef struct
{
  GHashTable *vocabulary;
  GHashTable *ids;
  guint       length;
} PieceTokens;

static gboolean
piece_token_cb (const char *token,
                gsize       len,
                gsize       start,
                gsize       end,
                gboolean    colocated,
                gpointer    user_data)
{
  PieceTokens *tokens = user_data;
  g_autofree char *copy = g_strndup (token, len);

  g_hash_table_add (tokens->ids, GUINT_TO_POINTER (lode_sparse_token_id (token, len)));
  if (!g_hash_table_contains (tokens->vocabulary, copy))
    g_hash_table_add (tokens->vocabulary, g_steal_pointer (&copy));
  if (!colocated)
    tokens->length++;
  return TRUE;
}

static JsonNode *
piece_point (const char              *name,
             guint                    seq,
             const LodeArtifactChunk *chunk,
             GHashTable              *vocabulary,
             guint                   *length)
{
  g_autofree char *key = g_strdup_printf ("%s\n%u", name, seq);
  g_autofree char *id = name_uuid ("artifact_piece", key);
  const char *fields[LODE_SPARSE_N_FIELDS] = { NULL, chunk->title, NULL, chunk->body };
  const char *texts[] = { chunk->title, chunk->body };
  g_autoptr(LodeSparseVector) sparse = lode_sparse_vector_for_fields (fields);
  g_autoptr(GHashTable) ids = g_hash_table_new (NULL, NULL);
  PieceTokens tokens = { vocabulary, ids, 0 };
  JsonObject *point = json_object_new ();
  JsonObject *vector = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);

  for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
    if (texts[t] != NULL)
      lode_code_tokenize (texts[t], strlen (texts[t]), LODE_TOKENIZE_SPLIT, piece_token_cb,
                          &tokens);
  *length = tokens.length;

  json_object_set_string_member (point, "id", id);
  json_object_set_member (vector, ARTIFACT_VECTOR, lode_qdrant_sparse_node (sparse));
  json_object_set_object_member (point, "vector", vector);
  json_object_set_string_member (payload, "type", "artifact_piece");
  json_object_set_string_member (payload, "artifact", name);
  json_object_set_int_member (payload, "seq", seq);
  set_string (payload, "path", chunk->path);
  json_object_set_int_member (payload, "start_line", chunk->start_line);
  json_object_set_int_member (payload, "end_line", chunk->end_line);
  set_string (payload, "kind", chunk->kind);
  set_string (payload, "title", chunk->title);
  json_object_set_string_member (payload, "text", chunk->body != NULL ? chunk->body : "");
  json_object_set_array_member (payload, "terms", terms_array (sparse));
  json_object_set_int_member (payload, "length", tokens.length);
  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

static gint
compare_tokens (gconstpointer a,
                gconstpointer b,
                gpointer      data)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

static JsonNode *
artifact_point (const LodeStoredArtifact *artifact,
                guint                     n_chunks,
                guint64                   n_tokens,
                GHashTable               *vocabulary)
{
  g_autofree char *id = name_uuid ("artifact", artifact->name);
  g_autofree const char **tokens = NULL;
  JsonObject *point = json_object_new ();
  JsonObject *payload = json_object_new ();
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  guint n = 0;

  tokens = (const char **) g_hash_table_get_keys_as_array (vocabulary, &n);
  g_qsort_with_data (tokens, n, sizeof (char *), compare_tokens, NULL);

  json_object_set_string_member (point, "id", id);
  json_object_set_object_member (point, "vector", json_object_new ());
  json_object_set_string_member (payload, "type", "artifact");
  json_object_set_string_member (payload, "artifact", artifact->name);
  set_string (payload, "path", artifact->path);
  set_string (payload, "description", artifact->description);
  set_string (payload, "hash", artifact->hash);
  json_object_set_int_member (payload, "indexed_at", artifact->indexed_at);
  json_object_set_int_member (payload, "n_files", artifact->n_files);
  json_object_set_int_member (payload, "n_chunks", n_chunks);
  json_object_set_int_member (payload, "n_tokens", (gint64) n_tokens);
  json_object_set_array_member (payload, "vocabulary", strv_to_array (tokens));
  json_object_set_object_member (point, "payload", payload);
  json_node_take_object (node, point);
  return node;
}

static gboolean
delete_artifact_points (LodeQdrantStore  *self,
                        const char       *name,
                        GError          **error)
{
  g_autoptr(JsonNode) record = artifact_filter ("artifact", name);
  g_autoptr(JsonNode) pieces = artifact_filter ("artifact_piece", name);

  return lode_qdrant_client_delete (self->client, self->collection, record, NULL, error) &&
         lode_qdrant_client_delete (self->client, self->collection, pieces, NULL, error);
}

/* qdrant_store_put_artifact:
 * @self: a #LodeQdrantStore
 * @artifact: the artifact (its @n_chunks is ignored)
 * @chunks: (element-type LodeArtifactChunk): its pieces
 * @error: return location for a #GError
 *
 * Replaces what is stored for @artifact's name (see the order above), outside any batch.
 *
 * Returns: %TRUE on success
 */
static gboolean
qdrant_store_put_artifact (LodeQdrantStore           *self,
                           const LodeStoredArtifact  *artifact,
                           GPtrArray                 *chunks,
                           GError                   **error)
{
  g_autoptr(GHashTable) vocabulary = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            NULL);
  g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  guint64 n_tokens = 0;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (self->writer && !self->in_batch, FALSE);

  for (guint i = 0; i < chunks->len; i++)
    {
      guint length = 0;

      g_ptr_array_add (points, piece_point (artifact->name, i, g_ptr_array_index (chunks, i),
                                            vocabulary, &length));
      n_tokens += length;
    }

  if (!delete_artifact_points (self, artifact->name, error) ||
      !lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error))
    goto failed;
  g_ptr_array_set_size (points, 0);
  g_ptr_array_add (points, artifact_point (artifact, chunks->len, n_tokens, vocabulary));
  if (!lode_qdrant_client_upsert (self->client, self->collection, points, NULL, error))
    goto failed;
  return TRUE;

failed:
  g_prefix_error (error, "Cannot write the context artifact %s to the Qdrant collection %s: ",
                  artifact->name, self->collection);
  return FALSE;
}

static gboolean
qdrant_store_remove_artifact (LodeQdrantStore  *self,
                              const char       *name,
                              GError          **error)
{
  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), FALSE);
  g_return_val_if_fail (self->writer && !self->in_batch, FALSE);

  if (delete_artifact_points (self, name, error))
    return TRUE;
  g_prefix_error (error, "Cannot remove the context artifact %s from the Qdrant collection %s: ",
                  name, self->collection);
  return FALSE;
}

static int
compare_artifacts (gconstpointer a,
                   gconstpointer b)
{
  return strcmp ((*(LodeStoredArtifact **) a)->name, (*(LodeStoredArtifact **) b)->name);
}

/* The indexed artifacts, by name. */
static GPtrArray *
qdrant_store_dup_artifacts (LodeQdrantStore  *self,
                            GError          **error)
{
  g_autoptr(JsonNode) filter = filter_type ("artifact");
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *artifacts;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, artifact_fields,
                                      NULL, 0, NULL, error);
  if (points == NULL)
    return NULL;

  artifacts = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_artifact_free);
  for (guint i = 0; i < points->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (points, i))->payload;
      LodeStoredArtifact *artifact;

      if (payload == NULL || lode_json_get_string (payload, "artifact") == NULL)
        continue;
      artifact = g_new0 (LodeStoredArtifact, 1);
      artifact->name = g_strdup (lode_json_get_string (payload, "artifact"));
      artifact->path = g_strdup (lode_json_get_string (payload, "path"));
      artifact->description = g_strdup (lode_json_get_string (payload, "description"));
      artifact->hash = g_strdup (lode_json_get_string (payload, "hash"));
      artifact->indexed_at = json_object_get_int_member_with_default (payload, "indexed_at", 0);
      artifact->n_files = json_object_get_int_member_with_default (payload, "n_files", 0);
      artifact->n_chunks = json_object_get_int_member_with_default (payload, "n_chunks", 0);
      g_ptr_array_add (artifacts, artifact);
    }
  g_ptr_array_sort (artifacts, compare_artifacts);
  return artifacts;
}

static gint64
piece_seq (LodeQdrantHit *hit)
{
  return json_object_get_int_member_with_default (hit->payload, "seq", 0);
}

static int
compare_pieces (gconstpointer a,
                gconstpointer b)
{
  gint64 x = piece_seq (*(LodeQdrantHit **) a);
  gint64 y = piece_seq (*(LodeQdrantHit **) b);

  return (x > y) - (x < y);
}

static LodeArtifactChunk *
piece_from_payload (JsonObject *payload)
{
  LodeArtifactChunk *chunk = g_new0 (LodeArtifactChunk, 1);

  chunk->path = g_strdup (lode_json_get_string (payload, "path"));
  chunk->start_line = json_object_get_int_member_with_default (payload, "start_line", 0);
  chunk->end_line = json_object_get_int_member_with_default (payload, "end_line", 0);
  chunk->kind = g_strdup (lode_json_get_string (payload, "kind"));
  chunk->title = g_strdup (lode_json_get_string (payload, "title"));
  chunk->body = g_strdup (lode_json_get_string (payload, "text"));
  return chunk;
}

/* An artifact's pieces, in the order they were put. */
static GPtrArray *
qdrant_store_dup_artifact_chunks (LodeQdrantStore  *self,
                                  const char       *name,
                                  GError          **error)
{
  g_autoptr(JsonNode) filter = artifact_filter ("artifact_piece", name);
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *chunks;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  points = lode_qdrant_client_scroll (self->client, self->collection, filter, piece_fields, NULL,
                                      0, NULL, error);
  if (points == NULL)
    return NULL;

  for (guint i = points->len; i-- > 0;)
    if (((LodeQdrantHit *) g_ptr_array_index (points, i))->payload == NULL)
      g_ptr_array_remove_index (points, i);
  g_ptr_array_sort (points, compare_pieces);
  chunks = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_chunk_free);
  for (guint i = 0; i < points->len; i++)
    g_ptr_array_add (chunks,
                     piece_from_payload (((LodeQdrantHit *) g_ptr_array_index (points, i))->payload));
  return chunks;
}

/* One query word: the tokens it stands for and its IDF. */
typedef struct
{
  const char *prefix;
  GPtrArray  *tokens;     /* (element-type utf8) (owned) */
  double      idf;
} Phrase;

static void
phrase_clear (Phrase *phrase)
{
  g_clear_pointer (&phrase->tokens, g_ptr_array_unref);
}

/* Adds the tokens of @vocabulary that start with each phrase's prefix. */
static void
expand_phrases (JsonArray *vocabulary,
                GArray    *phrases)
{
  for (guint i = 0; i < json_array_get_length (vocabulary); i++)
    {
      JsonNode *item = json_array_get_element (vocabulary, i);
      const char *token;

      if (!JSON_NODE_HOLDS_VALUE (item) || json_node_get_value_type (item) != G_TYPE_STRING)
        continue;
      token = json_node_get_string (item);
      for (guint p = 0; p < phrases->len; p++)
        {
          Phrase *phrase = &g_array_index (phrases, Phrase, p);

          if (phrase->tokens->len < MAX_PREFIX_TERMS && g_str_has_prefix (token, phrase->prefix) &&
              !g_ptr_array_find_with_equal_func (phrase->tokens, token, g_str_equal, NULL))
            g_ptr_array_add (phrase->tokens, g_strdup (token));
        }
    }
}

/* Condition: the payload list @key holds one of the ids of @tokens. */
static JsonNode *
holds_any_token (const char *key,
                 GPtrArray  *tokens)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *condition = json_object_new ();
  JsonObject *match = json_object_new ();
  JsonArray *any = json_array_sized_new (tokens->len);

  for (guint i = 0; i < tokens->len; i++)
    json_array_add_int_element (any, token_id (g_ptr_array_index (tokens, i)));
  json_object_set_array_member (match, "any", any);
  json_object_set_string_member (condition, "key", key);
  json_object_set_object_member (condition, "match", match);
  json_node_take_object (node, condition);
  return node;
}

/* FTS5's IDF of each phrase: ln ((N − n + 0.5) / (n + 0.5)), at least 1e-6, n the pieces that
 * hold one of its tokens. */
static gboolean
phrase_idfs (LodeQdrantStore  *self,
             GArray           *phrases,
             GPtrArray        *names,
             guint64           n_pieces,
             GError          **error)
{
  for (guint p = 0; p < phrases->len; p++)
    {
      Phrase *phrase = &g_array_index (phrases, Phrase, p);
      g_autoptr(JsonNode) filter = NULL;
      guint64 n = 0;

      if (phrase->tokens->len == 0)
        continue;
      filter = lode_qdrant_filter_and (pieces_of (names),
                                       holds_any_token ("terms", phrase->tokens));
      if (!lode_qdrant_client_count (self->client, self->collection, filter, &n, NULL, error))
        return FALSE;
      phrase->idf = log (((double) n_pieces - n + 0.5) / (n + 0.5));
      if (phrase->idf <= 0.0)
        phrase->idf = 1e-6;
    }
  return TRUE;
}

typedef struct
{
  GArray *phrases;
  double *freq;        /* per phrase: weighted positions that hold one of its tokens */
  guint  *last;        /* per phrase: the last position counted, + 1 */
  double  weight;
  guint   position;
  guint   length;
} PieceScore;

static gboolean
score_token_cb (const char *token,
                gsize       len,
                gsize       start,
                gsize       end,
                gboolean    colocated,
                gpointer    user_data)
{
  PieceScore *score = user_data;

  if (!colocated)
    {
      score->position++;
      score->length++;
    }
  for (guint p = 0; p < score->phrases->len; p++)
    {
      const char *prefix = g_array_index (score->phrases, Phrase, p).prefix;
      gsize n = strlen (prefix);

      /* A position counts once for a phrase, however many of its tokens match. */
      if (len >= n && memcmp (token, prefix, n) == 0 && score->last[p] != score->position)
        {
          score->freq[p] += score->weight;
          score->last[p] = score->position;
        }
    }
  return TRUE;
}

/* FTS5's bm25() of a piece (bm25 (artifact_fts, 4.0, 1.0) in the SQLite store). */
static double
piece_bm25 (JsonObject *payload,
            GArray     *phrases,
            double      avgdl)
{
  const char *texts[] = {
    lode_json_get_string (payload, "title"), lode_json_get_string (payload, "text")
  };
  g_autofree double *freq = g_new0 (double, phrases->len);
  g_autofree guint *last = g_new0 (guint, phrases->len);
  PieceScore score = { phrases, freq, last, 0.0, 0, 0 };
  double total = 0.0;

  for (guint t = 0; t < G_N_ELEMENTS (texts); t++)
    if (texts[t] != NULL)
      {
        score.weight = artifact_weights[t];
        lode_code_tokenize (texts[t], strlen (texts[t]), LODE_TOKENIZE_SPLIT, score_token_cb,
                            &score);
      }
  for (guint p = 0; p < phrases->len; p++)
    total += g_array_index (phrases, Phrase, p).idf * freq[p] * (FTS5_BM25_K1 + 1.0) /
             (freq[p] + FTS5_BM25_K1 * (1.0 - FTS5_BM25_B + FTS5_BM25_B * score.length / avgdl));
  return total;
}

typedef struct
{
  LodeQdrantHit *point;
  double         score;
  guint          order;    /* the server's: ties keep it */
} Candidate;

static int
compare_candidates (gconstpointer a,
                    gconstpointer b)
{
  const Candidate *x = a, *y = b;

  if (x->score != y->score)
    return x->score < y->score ? 1 : -1;
  return (x->order > y->order) - (x->order < y->order);
}

static LodeArtifactHit *
hit_from_candidate (const Candidate *candidate)
{
  g_autoptr(LodeArtifactChunk) piece = piece_from_payload (candidate->point->payload);
  LodeArtifactHit *hit = g_new0 (LodeArtifactHit, 1);

  hit->artifact = g_strdup (lode_json_get_string (candidate->point->payload, "artifact"));
  hit->path = g_steal_pointer (&piece->path);
  hit->start_line = piece->start_line;
  hit->end_line = piece->end_line;
  hit->kind = g_steal_pointer (&piece->kind);
  hit->title = g_steal_pointer (&piece->title);
  hit->body = g_steal_pointer (&piece->body);
  hit->relevance = candidate->score;
  return hit;
}

/* qdrant_store_search_artifacts:
 *
 * BM25 over the pieces as FTS5 ranks them (see above): the statistics are over every
 * artifact, the candidates of @artifact only when it is set.
 */
static GPtrArray *
qdrant_store_search_artifacts (LodeQdrantStore     *self,
                               const char * const  *prefixes,
                               const char          *artifact,
                               guint                limit,
                               GError             **error)
{
  const char *record_fields[] = { "artifact", "n_chunks", "n_tokens", "vocabulary", NULL };
  g_autoptr(JsonNode) records_filter = filter_type ("artifact");
  g_autoptr(GPtrArray) records = NULL;
  g_autoptr(GPtrArray) names = g_ptr_array_new ();
  g_autoptr(GPtrArray) scope = g_ptr_array_new ();
  g_autoptr(GArray) phrases = g_array_new (FALSE, TRUE, sizeof (Phrase));
  g_autoptr(GPtrArray) terms = g_ptr_array_new ();
  g_autoptr(GArray) candidates = g_array_new (FALSE, FALSE, sizeof (Candidate));
  g_autoptr(LodeSparseVector) sparse = NULL;
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GPtrArray) hits =
    g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_hit_free);
  guint64 n_pieces = 0, n_tokens = 0;

  g_return_val_if_fail (LODE_IS_QDRANT_STORE (self), NULL);

  g_array_set_clear_func (phrases, (GDestroyNotify) phrase_clear);
  for (guint i = 0; prefixes[i] != NULL; i++)
    {
      Phrase phrase = { prefixes[i], g_ptr_array_new_with_free_func (g_free), 0.0 };

      g_array_append_val (phrases, phrase);
    }

  records = lode_qdrant_client_scroll (self->client, self->collection, records_filter,
                                       record_fields, NULL, 0, NULL, error);
  if (records == NULL)
    return NULL;
  for (guint i = 0; i < records->len; i++)
    {
      JsonObject *payload = ((LodeQdrantHit *) g_ptr_array_index (records, i))->payload;
      const char *name = payload != NULL ? lode_json_get_string (payload, "artifact") : NULL;
      JsonNode *vocabulary = name != NULL ? json_object_get_member (payload, "vocabulary") : NULL;

      if (name == NULL)
        continue;
      g_ptr_array_add (names, (gpointer) name);
      if (artifact == NULL || strcmp (name, artifact) == 0)
        g_ptr_array_add (scope, (gpointer) name);
      n_pieces += json_object_get_int_member_with_default (payload, "n_chunks", 0);
      n_tokens += json_object_get_int_member_with_default (payload, "n_tokens", 0);
      if (vocabulary != NULL && JSON_NODE_HOLDS_ARRAY (vocabulary))
        expand_phrases (json_node_get_array (vocabulary), phrases);
    }
  for (guint p = 0; p < phrases->len; p++)
    g_ptr_array_extend (terms, g_array_index (phrases, Phrase, p).tokens, NULL, NULL);
  if (scope->len == 0 || terms->len == 0 || n_pieces == 0 || limit == 0)
    return g_steal_pointer (&hits);

  if (!phrase_idfs (self, phrases, names, n_pieces, error))
    return NULL;
  sparse = lode_sparse_vector_for_terms ((const char * const *) terms->pdata, NULL, terms->len);
  /* Only pieces of artifacts with a record: not those a crash left behind. */
  filter = pieces_of (scope);
  points = lode_qdrant_client_query (self->client, self->collection, ARTIFACT_VECTOR, NULL, 0,
                                     sparse, filter, MAX_CANDIDATES, piece_fields, NULL, error);
  if (points == NULL)
    return NULL;

  for (guint i = 0; i < points->len; i++)
    {
      LodeQdrantHit *point = g_ptr_array_index (points, i);
      Candidate candidate = { point, 0.0, i };

      if (point->payload == NULL)
        continue;
      candidate.score = piece_bm25 (point->payload, phrases, (double) MAX (n_tokens, 1) / n_pieces);
      g_array_append_val (candidates, candidate);
    }
  g_array_sort (candidates, compare_candidates);
  for (guint i = 0; i < candidates->len && i < limit; i++)
    g_ptr_array_add (hits, hit_from_candidate (&g_array_index (candidates, Candidate, i)));
  return g_steal_pointer (&hits);
}

static void
qdrant_store_artifacts_init (LodeIndexStoreInterface *iface)
{
  iface->dup_artifacts = (gpointer) qdrant_store_dup_artifacts;
  iface->dup_artifact_chunks = (gpointer) qdrant_store_dup_artifact_chunks;
  iface->put_artifact = (gpointer) qdrant_store_put_artifact;
  iface->remove_artifact = (gpointer) qdrant_store_remove_artifact;
  iface->search_artifacts = (gpointer) qdrant_store_search_artifacts;
}
