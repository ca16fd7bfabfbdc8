/* lode-qdrant-store-search.c — the searcher's rows: the Qdrant store as a LodeSearchBackend
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-code-tokenizer.h"
#include "lode-error.h"
#include "lode-json.h"
#include "lode-qdrant-store-private.h"
#include "lode-sparse-vector.h"
#include "lode-vector-index.h"

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
  JsonNode *node = _lode_qdrant_store_filter_type ("chunk");

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

      json_array_add_element (should,
                              match_int ("terms", _lode_qdrant_store_token_id (group->term)));
      if (!query->whole_only && group->parts != NULL && group->parts[0] != NULL)
        {
          JsonObject *all = json_object_new ();
          JsonArray *must = json_array_new ();

          for (guint p = 0; group->parts[p] != NULL; p++)
            {
              guint32 id = _lode_qdrant_store_token_id (group->parts[p]);

              json_array_add_element (must, match_int ("terms", id));
            }
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
  g_autoptr(JsonNode) chunks = _lode_qdrant_store_filter_type ("chunk");
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
  g_autoptr(GPtrArray) records = _lode_qdrant_store_sorted_records (self);

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
  LodeQdrantStore *self = (LodeQdrantStore *) backend;
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
  LodeQdrantStore *self = (LodeQdrantStore *) backend;
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
  LodeQdrantStore *self = (LodeQdrantStore *) backend;
  g_autofree char *lower = g_utf8_strdown (name, -1);
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("names", lower);
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
  g_autoptr(GPtrArray) points = retrieve_chunks ((LodeQdrantStore *) backend, &chunk_id, 1,
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
  g_autoptr(GPtrArray) points = retrieve_chunks ((LodeQdrantStore *) backend, chunk_ids, n_chunks,
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
  g_autoptr(GPtrArray) points = retrieve_chunks ((LodeQdrantStore *) backend, &chunk_id, 1,
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
  g_autoptr(GPtrArray) records = _lode_qdrant_store_sorted_records ((LodeQdrantStore *) backend);
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
  LodeQdrantStore *self = (LodeQdrantStore *) backend;
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
  LodeQdrantStore *self = (LodeQdrantStore *) backend;
  g_autoptr(JsonNode) condition = NULL;
  g_autoptr(GPtrArray) points = NULL;
  const char *fields[] = { "path", "language", NULL };
  GArray *ids;

  condition = filter != NULL ? search_filter (filter, NULL)
                             : _lode_qdrant_store_chunks_but (TRUE, NULL);
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
  LodeQdrantStore *self = (LodeQdrantStore *) backend;
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("model", model);
  guint64 n = 0;

  if (!lode_qdrant_client_count (self->client, self->collection, filter, &n, NULL, error))
    return FALSE;
  *dims = n > 0 ? self->dims : 0;
  return TRUE;
}

typedef struct
{
  LodeVectorCursor *cursor;
  guint             dims;
  LodeVectorFunc    func;
  gpointer          user_data;
} LoadVectors;

static gboolean
load_vector_cb (gint64       id,
                JsonObject  *payload,
                const float *vector,
                guint        dims,
                gpointer     user_data)
{
  LoadVectors *load = user_data;

  if (dims != load->dims)
    return TRUE;
  load->func (id, vector, load->user_data);
  load->cursor->last_chunk = MAX (load->cursor->last_chunk, id);
  return TRUE;
}

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
  LoadVectors load = { cursor, dims, func, user_data };

  return _lode_qdrant_store_scroll_dense ((LodeQdrantStore *) backend, model,
                                          cursor->last_chunk + 1, NULL, load_vector_cb, &load,
                                          error);
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
  LodeQdrantStore *self = (LodeQdrantStore *) backend;
  g_autoptr(JsonNode) condition = NULL;
  g_autoptr(GPtrArray) points = NULL;

  if (!lode_index_store_count_embedded (LODE_INDEX_STORE (self), model, n_embedded, n_embeddable,
                                        error))
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

void
_lode_qdrant_store_search_init (LodeSearchBackendInterface *iface)
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
