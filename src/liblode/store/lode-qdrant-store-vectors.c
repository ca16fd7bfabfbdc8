/* lode-qdrant-store-vectors.c — the Qdrant store's dense vectors
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include "lode-error.h"
#include "lode-json.h"
#include "lode-qdrant-store-private.h"

/* ---- vectors --------------------------------------------------------------------------- */

static GPtrArray *
qdrant_store_dup_unembedded (LodeIndexStore  *store,
                             const char      *model,
                             gint64           after_chunk,
                             guint            limit,
                             GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunks_but (TRUE, model);
  g_autofree char *start = g_strdup_printf ("%" G_GINT64_FORMAT, after_chunk + 1);
  const char *fields[] = { "text", "text_hash", NULL };
  g_autoptr(GPtrArray) points = NULL;
  GPtrArray *texts;

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

/* Gives every chunk whose text has one of @hashes its vector and marks it with @model. The
 * vector is written before the mark, so a failure in between only embeds a chunk again. */
static gboolean
qdrant_store_put_vectors (LodeIndexStore      *store,
                          const char          *model,
                          guint                dims,
                          const char * const  *hashes,
                          const float         *vectors,
                          guint                n_vectors,
                          guint               *n_chunks,
                          GError             **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(GHashTable) by_hash = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GPtrArray) updates = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autoptr(JsonObject) mark = json_object_new ();
  g_autoptr(GPtrArray) ids = g_ptr_array_new ();
  const char *fields[] = { "text_hash", NULL };

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

  filter = lode_qdrant_filter_and (_lode_qdrant_store_filter_type ("chunk"),
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
qdrant_store_count_embedded (LodeIndexStore  *store,
                             const char      *model,
                             guint           *n_embedded,
                             guint           *n_embeddable,
                             GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autoptr(JsonNode) embeddable = _lode_qdrant_store_chunks_but (TRUE, NULL);
  guint64 total = 0;
  guint64 embedded = 0;

  if (!lode_qdrant_client_count (self->client, self->collection, embeddable, &total, NULL, error))
    return FALSE;
  if (model != NULL)
    {
      g_autoptr(JsonNode) with_model = _lode_qdrant_store_chunk_match ("model", model);

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
qdrant_store_prune_vectors (LodeIndexStore  *store,
                            const char      *model,
                            GError         **error)
{
  LodeQdrantStore *self = (LodeQdrantStore *) store;
  g_autofree char *path = g_strdup_printf ("/collections/%s/points/vectors/delete?wait=true",
                                           self->collection);
  g_autoptr(JsonObject) object = NULL;
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;
  JsonArray *vectors;

  if (self->dims == 0)
    return TRUE;

  object = json_object_new ();
  json_object_set_member (object, "filter", _lode_qdrant_store_chunks_but (FALSE, model));
  vectors = json_array_new ();
  json_array_add_string_element (vectors, "dense");
  json_object_set_array_member (object, "vector", vectors);
  body = json_node_init_object (json_node_alloc (), object);

  result = lode_qdrant_client_call (self->client, "POST", path, body, NULL, error);
  return result != NULL;
}


/* Scrolls the chunks whose dense vector is of @model, from the chunk id @from (0: the first),
 * with the payload field @field (NULL: none): @func gets each point, its payload and its
 * vector (valid during the call only) until it returns FALSE. */
gboolean
_lode_qdrant_store_scroll_dense (LodeQdrantStore      *self,
                                 const char           *model,
                                 gint64                from,
                                 const char           *field,
                                 LodeQdrantDenseFunc   func,
                                 gpointer              user_data,
                                 GError              **error)
{
  g_autoptr(JsonNode) filter = _lode_qdrant_store_chunk_match ("model", model);
  g_autofree char *path = g_strdup_printf ("/collections/%s/points/scroll", self->collection);
  g_autoptr(JsonNode) offset = NULL;

  if (from > 0)
    {
      offset = json_node_new (JSON_NODE_VALUE);
      json_node_set_int (offset, from);
    }
  for (;;)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) body = NULL;
      g_autoptr(JsonNode) result = NULL;
      JsonArray *with_vector = json_array_new ();
      JsonArray *points;
      JsonNode *next;

      json_object_set_member (object, "filter", json_node_copy (filter));
      json_object_set_int_member (object, "limit", 256);
      if (field != NULL)
        {
          JsonArray *with_payload = json_array_new ();

          json_array_add_string_element (with_payload, field);
          json_object_set_array_member (object, "with_payload", with_payload);
        }
      else
        json_object_set_boolean_member (object, "with_payload", FALSE);
      json_array_add_string_element (with_vector, "dense");
      json_object_set_array_member (object, "with_vector", with_vector);
      if (offset != NULL)
        json_object_set_member (object, "offset", json_node_copy (offset));
      body = json_node_init_object (json_node_alloc (), object);

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
          guint dims = dense != NULL ? json_array_get_length (dense) : 0;
          g_autofree float *values = NULL;

          if (dense == NULL)
            continue;
          values = g_new (float, MAX (dims, 1));
          for (guint d = 0; d < dims; d++)
            values[d] = (float) json_array_get_double_element (dense, d);
          if (!func (json_object_get_int_member (point, "id"), payload, values, dims, user_data))
            return TRUE;
        }

      next = json_object_get_member (json_node_get_object (result), "next_page_offset");
      if (next == NULL || JSON_NODE_HOLDS_NULL (next))
        return TRUE;
      g_clear_pointer (&offset, json_node_unref);
      offset = json_node_copy (next);
    }
}

typedef struct
{
  GHashTable         *seen;
  LodeVectorHashFunc  func;
  gpointer            user_data;
} ForeachVector;

static gboolean
hash_vector_cb (gint64       id,
                JsonObject  *payload,
                const float *vector,
                guint        dims,
                gpointer     user_data)
{
  ForeachVector *foreach = user_data;
  const char *hash = payload != NULL ? lode_json_get_string (payload, "text_hash") : NULL;

  if (hash == NULL || !g_hash_table_add (foreach->seen, g_strdup (hash)))
    return TRUE;
  return foreach->func (hash, vector, dims, foreach->user_data);
}

/* Every dense vector of @model, with the text hash it belongs to (each hash once). */
static gboolean
qdrant_store_foreach_vector (LodeIndexStore      *store,
                             const char          *model,
                             LodeVectorHashFunc   func,
                             gpointer             user_data,
                             GError             **error)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  ForeachVector foreach = { seen, func, user_data };

  return _lode_qdrant_store_scroll_dense ((LodeQdrantStore *) store, model, 0, "text_hash",
                                          hash_vector_cb, &foreach, error);
}


void
_lode_qdrant_store_vectors_init (LodeIndexStoreInterface *iface)
{
  iface->dup_unembedded = qdrant_store_dup_unembedded;
  iface->put_vectors = qdrant_store_put_vectors;
  iface->count_embedded = qdrant_store_count_embedded;
  iface->prune_vectors = qdrant_store_prune_vectors;
  iface->foreach_vector = qdrant_store_foreach_vector;
}
