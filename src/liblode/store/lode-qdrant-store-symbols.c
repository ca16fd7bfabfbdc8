/* lode-qdrant-store-symbols.c — the Qdrant store's declarations and references
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-qdrant-store-private.h"

/* ---- symbols and references (what the symbol tools read) --------------------------------
 *
 * A chunk's `symbols` hold each declaration with its package, its details (JSON) and its
 * place in the file's list (`seq`); the chunk lists their packages and containers for
 * filters. A file's references are one "refs" point (UUID from the path): path, the names
 * (`ref_names`) and, in the same order, their sites (`ref_sites`, base64 of
 * lode_reference_sites_encode()). Both are replaced and deleted with the file's chunks.
 */

JsonObject *
_lode_qdrant_store_symbol_item (const LodeSymbol *symbol,
                                guint             seq)
{
  JsonObject *item = json_object_new ();

  json_object_set_string_member (item, "name", symbol->name);
  _lode_qdrant_store_set_string (item, "kind", symbol->kind);
  _lode_qdrant_store_set_string (item, "container", symbol->container);
  _lode_qdrant_store_set_string (item, "signature", symbol->signature);
  json_object_set_int_member (item, "start_line", symbol->start_line);
  json_object_set_int_member (item, "end_line", symbol->end_line);
  _lode_qdrant_store_set_string (item, "package", symbol->package);
  _lode_qdrant_store_set_string (item, "detail", symbol->detail);
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

void
_lode_qdrant_store_add_symbol_lists (JsonObject *payload,
                                     JsonArray  *symbols)
{
  json_object_set_array_member (payload, "packages", distinct_values (symbols, "package"));
  json_object_set_array_member (payload, "containers", distinct_values (symbols, "container"));
}

LodeSymbol *
_lode_qdrant_store_symbol_from_item (JsonObject *item)
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
  g_autofree char *id = _lode_qdrant_store_name_uuid ("refs", put->path);
  RefsPayload refs;
  JsonObject *point, *payload;
  JsonNode *node;

  /* The old point goes before a new one is written. */
  g_hash_table_add (self->replaced_refs, g_strdup (put->path));
  if (put->references == NULL || lode_references_get_n_names (put->references) == 0)
    return TRUE;

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
  return TRUE;
}

/* Replaces the references of @path, in the open batch or in one of its own. */
static gboolean
qdrant_store_put_references (LodeIndexStore  *store,
                             const char      *path,
                             LodeReferences  *references,
                             GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  PutRefs put = { path, references };

  g_return_val_if_fail (path != NULL, FALSE);

  if (!g_hash_table_contains (self->files, path))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND, "%s is not in the index", path);
      return FALSE;
    }
  return _lode_qdrant_store_in_batch (self, put_refs_point, &put, error);
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
qdrant_store_find_symbols (LodeIndexStore  *store,
                           const char      *name,
                           gboolean         ignore_case,
                           guint            limit,
                           GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autofree char *lower = g_utf8_strdown (name, -1);
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("names", lower);

  return scroll_symbols (self, filter, ignore_case ? name_is_nocase : name_is, name, limit,
                         error);
}

static GPtrArray *
qdrant_store_dup_file_symbols (LodeIndexStore  *store,
                               const char      *path,
                               GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("path", path);

  return scroll_symbols (self, filter, NULL, NULL, 0, error);
}

static GPtrArray *
qdrant_store_dup_package_symbols (LodeIndexStore  *store,
                                  const char      *package,
                                  const char      *path_glob,
                                  guint            limit,
                                  GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = NULL;

  if (package != NULL)
    {
      filter = _lode_qdrant_store_chunk_match ("packages", package);
      return scroll_symbols (self, filter, package_is, package, limit, error);
    }
  /* Qdrant has no glob match: the chunks that declare something, filtered here. */
  filter = _lode_qdrant_store_filter_type ("chunk");
  return scroll_symbols (self, filter, path_matches, path_glob, limit, error);
}

static GPtrArray *
qdrant_store_find_container_members (LodeIndexStore  *store,
                                     const char      *container,
                                     guint            limit,
                                     GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("containers", container);

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

/* The "refs" points whose payload @key holds @value, with their payload. */
static GPtrArray *
scroll_refs (LodeQdrantStore  *self,
             const char       *key,
             const char       *value,
             GError          **error)
{
  const char *fields[] = { "path", "ref_names", "ref_sites", NULL };
  g_autoptr(JsonNode) filter = lode_qdrant_filter_and (_lode_qdrant_store_filter_type ("refs"),
                                                       lode_qdrant_filter_match (key, value));
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
qdrant_store_find_references (LodeIndexStore  *store,
                              const char      *name,
                              GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GPtrArray) points = scroll_refs (self, "ref_names", name, error);
  GPtrArray *files;

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
qdrant_store_dup_references_for_file (LodeIndexStore  *store,
                                      const char      *path,
                                      GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GPtrArray) points = scroll_refs (self, "path", path, error);
  LodeReferences *references;

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

void
_lode_qdrant_store_symbols_init (LodeIndexStoreInterface *iface)
{
  iface->find_symbols = qdrant_store_find_symbols;
  iface->dup_file_symbols = qdrant_store_dup_file_symbols;
  iface->dup_package_symbols = qdrant_store_dup_package_symbols;
  iface->find_container_members = qdrant_store_find_container_members;
  iface->find_references = qdrant_store_find_references;
  iface->dup_references_for_file = qdrant_store_dup_references_for_file;
  iface->put_references = qdrant_store_put_references;
}

