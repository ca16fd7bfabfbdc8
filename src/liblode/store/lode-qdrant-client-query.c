/* lode-qdrant-client-query.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include "lode-qdrant-client-private.h"

/* Lode's RRF constant (docs/architecture.md, "Fusion"): Qdrant's formula
 * 1 / (position + k) with 0-based positions equals 1 / (60 + rank) for 1-based ranks at
 * k = 60. */
#define RRF_K                     60

static JsonNode *
dense_node (const float *dense,
            guint        dims)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);
  JsonArray *array = json_array_sized_new (dims);

  for (guint i = 0; i < dims; i++)
    json_array_add_double_element (array, dense[i]);
  json_node_take_array (node, array);
  return node;
}

/**
 * lode_qdrant_sparse_node:
 * @sparse: a sparse vector
 *
 * Returns: (transfer full): @sparse as Qdrant writes one, `{"indices", "values"}`
 */
JsonNode *
lode_qdrant_sparse_node (const LodeSparseVector *sparse)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();
  JsonArray *indices = json_array_sized_new (sparse->len);
  JsonArray *values = json_array_sized_new (sparse->len);

  for (guint i = 0; i < sparse->len; i++)
    {
      json_array_add_int_element (indices, sparse->indices[i]);
      json_array_add_double_element (values, sparse->values[i]);
    }
  json_object_set_array_member (object, "indices", indices);
  json_object_set_array_member (object, "values", values);
  json_node_take_object (node, object);
  return node;
}

/* One leg: {"query", "using", "limit", "filter"?}. */
static JsonObject *
leg_object (const char  *using,
            JsonNode    *query,
            JsonNode    *filter,
            guint        limit)
{
  JsonObject *object = json_object_new ();

  json_object_set_member (object, "query", query);
  json_object_set_string_member (object, "using", using);
  json_object_set_int_member (object, "limit", limit);
  if (filter != NULL)
    json_object_set_member (object, "filter", json_node_copy (filter));
  return object;
}

static GPtrArray *
run_query (LodeQdrantClient    *self,
           const char          *collection,
           JsonObject          *object,
           const char * const  *fields,
           GCancellable        *cancellable,
           GError             **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "/points/query");
  g_autoptr(GPtrArray) hits = _lode_qdrant_client_hits_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;

  json_object_set_member (object, "with_payload", _lode_qdrant_client_payload_selector (fields));
  json_node_take_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  if (result == NULL)
    return NULL;

  if (!_lode_qdrant_client_read_answer (self, result, path, hits, error))
    return NULL;

  return g_steal_pointer (&hits);
}

/**
 * lode_qdrant_client_query:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @using: the vector to search: "dense", "bm25" or "artifact_bm25"
 * @dense: (nullable) (array length=dims): the dense query vector
 * @dims: its size
 * @sparse: (nullable): the sparse query vector, when @using names a sparse vector
 * @filter: (nullable): which points may be found
 * @limit: how many
 * @fields: (nullable) (array zero-terminated=1): payload fields, %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * One leg alone: nearest neighbours of @dense, or the best matches of @sparse (with the
 * server's IDF).
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the points, best first
 */
GPtrArray *
lode_qdrant_client_query (LodeQdrantClient        *self,
                          const char              *collection,
                          const char              *using,
                          const float             *dense,
                          guint                    dims,
                          const LodeSparseVector  *sparse,
                          JsonNode                *filter,
                          guint                    limit,
                          const char * const      *fields,
                          GCancellable            *cancellable,
                          GError                 **error)
{
  JsonObject *object;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);
  g_return_val_if_fail ((dense != NULL) != (sparse != NULL), NULL);

  object = leg_object (using,
                       dense != NULL ? dense_node (dense, dims) : lode_qdrant_sparse_node (sparse),
                       filter, MAX (limit, 1));
  return run_query (self, collection, object, fields, cancellable, error);
}

/**
 * lode_qdrant_client_query_hybrid:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @dense: (array length=dims): the dense query vector
 * @dims: its size
 * @sparse: the sparse query vector
 * @filter: (nullable): which points may be found, applied to both legs
 * @dense_filter: (nullable): what the dense leg also requires (the model of its vectors)
 * @candidates: how many points each leg brings to the fusion
 * @limit: how many fused points to return
 * @fields: (nullable) (array zero-terminated=1): payload fields, %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * One `query` call: a `bm25` prefetch and a `dense` prefetch, fused on the server with
 * reciprocal rank fusion at Lode's k (60).
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the fused points, best first
 */
GPtrArray *
lode_qdrant_client_query_hybrid (LodeQdrantClient        *self,
                                 const char              *collection,
                                 const float             *dense,
                                 guint                    dims,
                                 const LodeSparseVector  *sparse,
                                 JsonNode                *filter,
                                 JsonNode                *dense_filter,
                                 guint                    candidates,
                                 guint                    limit,
                                 const char * const      *fields,
                                 GCancellable            *cancellable,
                                 GError                 **error)
{
  JsonObject *object = json_object_new ();
  JsonArray *prefetch = json_array_new ();
  JsonObject *fusion = json_object_new ();
  JsonObject *rrf = json_object_new ();

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);
  g_return_val_if_fail (dense != NULL && sparse != NULL, NULL);

  candidates = MAX (candidates, MAX (limit, 1));
  json_array_add_object_element (prefetch, leg_object ("bm25", lode_qdrant_sparse_node (sparse),
                                                       filter, candidates));
  if (dense_filter != NULL)
    {
      g_autoptr(JsonNode) both = NULL;

      both = lode_qdrant_filter_and (filter != NULL ? json_node_copy (filter) : NULL,
                                     json_node_copy (dense_filter));

      json_array_add_object_element (prefetch, leg_object ("dense", dense_node (dense, dims), both,
                                                           candidates));
    }
  else
    json_array_add_object_element (prefetch, leg_object ("dense", dense_node (dense, dims), filter,
                                                         candidates));
  json_object_set_array_member (object, "prefetch", prefetch);
  json_object_set_int_member (rrf, "k", RRF_K);
  json_object_set_object_member (fusion, "rrf", rrf);
  json_object_set_object_member (object, "query", fusion);
  json_object_set_int_member (object, "limit", MAX (limit, 1));

  return run_query (self, collection, object, fields, cancellable, error);
}

/* ---- filters --------------------------------------------------------------------------- */

/**
 * lode_qdrant_filter_match:
 * @key: a payload key
 * @value: the keyword it must hold
 *
 * Returns: (transfer full): `{"must": [{"key": key, "match": {"value": value}}]}`
 */
JsonNode *
lode_qdrant_filter_match (const char *key,
                          const char *value)
{
  return lode_qdrant_filter_match_any (key, &value, 1);
}

/**
 * lode_qdrant_filter_match_any:
 * @key: a payload key
 * @values: (array length=n_values): keywords
 * @n_values: how many
 *
 * Returns: (transfer full): a filter for points whose @key holds one of @values
 */
JsonNode *
lode_qdrant_filter_match_any (const char         *key,
                              const char * const *values,
                              guint               n_values)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *filter = json_object_new ();
  JsonArray *must = json_array_new ();
  JsonObject *condition = json_object_new ();
  JsonObject *match = json_object_new ();

  if (n_values == 1)
    json_object_set_string_member (match, "value", values[0]);
  else
    {
      JsonArray *any = json_array_sized_new (n_values);

      for (guint i = 0; i < n_values; i++)
        json_array_add_string_element (any, values[i]);
      json_object_set_array_member (match, "any", any);
    }
  json_object_set_string_member (condition, "key", key);
  json_object_set_object_member (condition, "match", match);
  json_array_add_object_element (must, condition);
  json_object_set_array_member (filter, "must", must);
  json_node_take_object (node, filter);
  return node;
}

/**
 * lode_qdrant_filter_and:
 * @first: (transfer full) (nullable): a filter
 * @second: (transfer full) (nullable): a filter
 *
 * Returns: (transfer full) (nullable): a filter both must pass
 */
JsonNode *
lode_qdrant_filter_and (JsonNode *first,
                        JsonNode *second)
{
  JsonNode *node;
  JsonObject *filter;
  JsonArray *must;

  if (first == NULL)
    return second;
  if (second == NULL)
    return first;

  node = json_node_new (JSON_NODE_OBJECT);
  filter = json_object_new ();
  must = json_array_new ();
  json_array_add_element (must, first);
  json_array_add_element (must, second);
  json_object_set_array_member (filter, "must", must);
  json_node_take_object (node, filter);
  return node;
}
