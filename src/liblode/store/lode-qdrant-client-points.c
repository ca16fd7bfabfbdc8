/* lode-qdrant-client-points.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-qdrant-client-private.h"

/* Points per upsert request, whatever their size: Qdrant applies a request as one operation,
 * and smaller ones keep a retry cheap. */
#define MAX_BATCH_POINTS          256
#define SCROLL_PAGE               256

GPtrArray *
_lode_qdrant_client_hits_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) lode_qdrant_hit_free);
}

static gboolean
send_points (LodeQdrantClient  *self,
             const char        *path,
             GString           *batch,
             GCancellable      *cancellable,
             GError           **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) result = NULL;

  g_string_append (batch, "]}");
  bytes = g_bytes_new (batch->str, batch->len);
  result = _lode_qdrant_client_send (self, "PUT", path, bytes, cancellable, error);
  g_string_assign (batch, "{\"points\":[");
  return result != NULL;
}

/**
 * lode_qdrant_client_upsert:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @points: (element-type JsonNode): points (`{"id", "vector", "payload"}` objects)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes @points in requests of at most %MAX_BATCH_POINTS points and the client's request
 * size, each acknowledged only once applied (`wait=true`). A failure leaves the requests
 * before it written: upserts by id can be sent again.
 *
 * Returns: whether every point was written
 */
gboolean
lode_qdrant_client_upsert (LodeQdrantClient  *self,
                           const char        *collection,
                           GPtrArray         *points,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "/points?wait=true");
  g_autoptr(GString) batch = g_string_new ("{\"points\":[");
  const gsize overhead = strlen ("{\"points\":[]}");
  guint in_batch = 0;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (points != NULL, FALSE);

  for (guint i = 0; i < points->len; i++)
    {
      g_autofree char *text = lode_json_to_string (g_ptr_array_index (points, i), FALSE);
      gsize len = strlen (text);

      if (len + overhead > self->max_request_bytes)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "A point of %zu bytes does not fit in one request to Qdrant at %s "
                       "(at most %zu bytes)", len, self->url, self->max_request_bytes);
          return FALSE;
        }

      if (in_batch > 0 &&
          (in_batch >= MAX_BATCH_POINTS || batch->len + 1 + len + 2 > self->max_request_bytes))
        {
          if (!send_points (self, path, batch, cancellable, error))
            return FALSE;
          in_batch = 0;
        }

      if (in_batch > 0)
        g_string_append_c (batch, ',');
      g_string_append_len (batch, text, len);
      in_batch++;
    }

  if (in_batch > 0)
    return send_points (self, path, batch, cancellable, error);

  return TRUE;
}

/**
 * lode_qdrant_client_delete:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @filter: the points to delete, a Qdrant filter
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: whether the points are gone
 */
gboolean
lode_qdrant_client_delete (LodeQdrantClient  *self,
                           const char        *collection,
                           JsonNode          *filter,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_autofree char *path =
    _lode_qdrant_client_collection_path (collection, "/points/delete?wait=true");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);

  json_object_set_member (object, "filter", json_node_copy (filter));
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  return result != NULL;
}

/**
 * lode_qdrant_client_update_vectors:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @points: (element-type JsonNode): `{"id", "vector"}` objects
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Sets the named vectors given of existing points, leaving their payload and other vectors.
 *
 * Returns: whether every point was updated
 */
gboolean
lode_qdrant_client_update_vectors (LodeQdrantClient  *self,
                                   const char        *collection,
                                   GPtrArray         *points,
                                   GCancellable      *cancellable,
                                   GError           **error)
{
  g_autofree char *path =
    _lode_qdrant_client_collection_path (collection, "/points/vectors?wait=true");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;
  JsonArray *array = json_array_sized_new (points->len);

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  for (guint i = 0; i < points->len; i++)
    json_array_add_element (array, json_node_copy (g_ptr_array_index (points, i)));
  json_object_set_array_member (object, "points", array);
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "PUT", path, body, cancellable, error);
  return result != NULL;
}

/**
 * lode_qdrant_client_set_payload:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @filter: the points
 * @payload: the fields to set (others are kept)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: whether the payload is set
 */
gboolean
lode_qdrant_client_set_payload (LodeQdrantClient  *self,
                                const char        *collection,
                                JsonNode          *filter,
                                JsonObject        *payload,
                                GCancellable      *cancellable,
                                GError           **error)
{
  g_autofree char *path =
    _lode_qdrant_client_collection_path (collection, "/points/payload?wait=true");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  json_object_set_object_member (object, "payload", json_object_ref (payload));
  json_object_set_member (object, "filter", json_node_copy (filter));
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  return result != NULL;
}

gboolean
lode_qdrant_client_count (LodeQdrantClient  *self,
                          const char        *collection,
                          JsonNode          *filter,
                          guint64           *count,
                          GCancellable      *cancellable,
                          GError           **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "/points/count");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  if (filter != NULL)
    json_object_set_member (object, "filter", json_node_copy (filter));
  json_object_set_boolean_member (object, "exact", TRUE);
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  if (result == NULL)
    return FALSE;

  *count = JSON_NODE_HOLDS_OBJECT (result)
    ? (guint64) json_object_get_int_member_with_default (json_node_get_object (result), "count", 0)
    : 0;
  return TRUE;
}

JsonNode *
_lode_qdrant_client_payload_selector (const char * const *fields)
{
  JsonNode *node;

  if (fields == NULL)
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, TRUE);
      return node;
    }

  node = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (node, json_array_new ());
  for (guint i = 0; fields[i] != NULL; i++)
    json_array_add_string_element (json_node_get_array (node), fields[i]);
  return node;
}

static JsonNode *
id_node (const char *id)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  guint64 number;

  if (g_ascii_string_to_unsigned (id, 10, 0, G_MAXINT64, &number, NULL))
    json_node_set_int (node, (gint64) number);
  else
    json_node_set_string (node, id);
  return node;
}

static char *
dup_id (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
}

/* Reads Qdrant's points ({"id", "score"?, "payload"?}) into LodeQdrantHit. */
static gboolean
read_points (LodeQdrantClient  *self,
             JsonArray         *array,
             GPtrArray         *hits,
             GError           **error)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      JsonObject *object;
      JsonNode *payload;
      LodeQdrantHit *hit;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "Qdrant at %s answered with a point that is not an object", self->url);
          return FALSE;
        }
      object = json_node_get_object (item);
      hit = g_new0 (LodeQdrantHit, 1);
      hit->id = dup_id (json_object_get_member (object, "id"));
      hit->score = json_object_get_double_member_with_default (object, "score", 0.0);
      payload = json_object_get_member (object, "payload");
      if (payload != NULL && JSON_NODE_HOLDS_OBJECT (payload))
        hit->payload = json_object_ref (json_node_get_object (payload));
      g_ptr_array_add (hits, hit);
      if (hit->id == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "Qdrant at %s answered with a point without an id", self->url);
          return FALSE;
        }
    }

  return TRUE;
}

/* Reads the "points" of the answer @result to a query or a scroll of @path into @hits. */
gboolean
_lode_qdrant_client_read_answer (LodeQdrantClient  *self,
                                 JsonNode          *result,
                                 const char        *path,
                                 GPtrArray         *hits,
                                 GError           **error)
{
  JsonNode *points = JSON_NODE_HOLDS_OBJECT (result)
    ? json_object_get_member (json_node_get_object (result), "points") : NULL;

  if (points == NULL || !JSON_NODE_HOLDS_ARRAY (points))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: %s gave no points",
                   self->url, path);
      return FALSE;
    }
  return read_points (self, json_node_get_array (points), hits, error);
}

/**
 * lode_qdrant_client_scroll:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @filter: (nullable): which points
 * @fields: (nullable) (array zero-terminated=1): the payload fields to return, %NULL for all
 * @start_id: (nullable): the first point id to read (Qdrant orders integer ids before UUIDs)
 * @limit: at most this many points, 0 for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * The points @filter selects, in id order, page by page.
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the points
 */
GPtrArray *
lode_qdrant_client_scroll (LodeQdrantClient    *self,
                           const char          *collection,
                           JsonNode            *filter,
                           const char * const  *fields,
                           const char          *start_id,
                           guint                limit,
                           GCancellable        *cancellable,
                           GError             **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "/points/scroll");
  g_autoptr(GPtrArray) hits = _lode_qdrant_client_hits_new ();
  g_autoptr(JsonNode) offset = start_id != NULL ? id_node (start_id) : NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  while (limit == 0 || hits->len < limit)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonNode) result = NULL;
      JsonNode *next;

      if (filter != NULL)
        json_object_set_member (object, "filter", json_node_copy (filter));
      json_object_set_int_member (object, "limit", limit > 0 ? MIN (SCROLL_PAGE, limit - hits->len)
                                                              : SCROLL_PAGE);
      json_object_set_member (object, "with_payload",
                              _lode_qdrant_client_payload_selector (fields));
      json_object_set_boolean_member (object, "with_vector", FALSE);
      if (offset != NULL)
        json_object_set_member (object, "offset", json_node_copy (offset));
      json_node_set_object (body, object);

      result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
      if (result == NULL)
        return NULL;

      if (!_lode_qdrant_client_read_answer (self, result, path, hits, error))
        return NULL;

      next = json_object_get_member (json_node_get_object (result), "next_page_offset");
      g_clear_pointer (&offset, json_node_unref);
      if (next == NULL || JSON_NODE_HOLDS_NULL (next))
        break;
      offset = json_node_copy (next);
    }

  return g_steal_pointer (&hits);
}

/**
 * lode_qdrant_client_retrieve:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @ids: (array length=n_ids): point ids (decimal integers or UUIDs)
 * @n_ids: how many
 * @fields: (nullable) (array zero-terminated=1): payload fields, %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the points that exist
 */
GPtrArray *
lode_qdrant_client_retrieve (LodeQdrantClient    *self,
                             const char          *collection,
                             const char * const  *ids,
                             guint                n_ids,
                             const char * const  *fields,
                             GCancellable        *cancellable,
                             GError             **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "/points");
  g_autoptr(GPtrArray) hits = _lode_qdrant_client_hits_new ();
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;
  JsonArray *array = json_array_new ();

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  for (guint i = 0; i < n_ids; i++)
    json_array_add_element (array, id_node (ids[i]));
  json_object_set_array_member (object, "ids", array);
  json_object_set_member (object, "with_payload", _lode_qdrant_client_payload_selector (fields));
  json_object_set_boolean_member (object, "with_vector", FALSE);
  json_node_set_object (body, object);

  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  if (result == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (result))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: %s gave no list",
                   self->url, path);
      return NULL;
    }
  if (!read_points (self, json_node_get_array (result), hits, error))
    return NULL;

  return g_steal_pointer (&hits);
}
