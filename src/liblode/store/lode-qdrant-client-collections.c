/* lode-qdrant-client-collections.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include "lode-error.h"
#include "lode-json.h"
#include "lode-qdrant-client-private.h"

char *
_lode_qdrant_client_collection_path (const char *collection,
                                     const char *suffix)
{
  g_autofree char *escaped = g_uri_escape_string (collection, NULL, FALSE);

  return g_strconcat ("/collections/", escaped, suffix, NULL);
}

gboolean
lode_qdrant_client_collection_exists (LodeQdrantClient  *self,
                                      const char        *collection,
                                      gboolean          *exists,
                                      GCancellable      *cancellable,
                                      GError           **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "/exists");
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  result = lode_qdrant_client_call (self, "GET", path, NULL, cancellable, error);
  if (result == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (result))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: %s gave no object",
                   self->url, path);
      return FALSE;
    }
  *exists = json_object_get_boolean_member_with_default (json_node_get_object (result), "exists",
                                                         FALSE);
  return TRUE;
}

/**
 * lode_qdrant_client_create_collection:
 * @self: a #LodeQdrantClient
 * @collection: its name
 * @spec: vectors, shards and replicas
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Creates the collection unless it exists (a retried request whose first answer was lost
 * finds it made).
 *
 * Returns: whether the collection exists now
 */
/* The code's BM25 and the context artifacts' (lode-qdrant-store.c), each with its own IDF. */
static const char * const sparse_vectors[] = { "bm25", "artifact_bm25" };

gboolean
lode_qdrant_client_create_collection (LodeQdrantClient                *self,
                                      const char                      *collection,
                                      const LodeQdrantCollectionSpec  *spec,
                                      GCancellable                    *cancellable,
                                      GError                         **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "");
  g_autoptr(GError) local_error = NULL;
  gboolean exists = FALSE;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "vectors");
  json_builder_begin_object (builder);
  if (spec->dims > 0)
    {
      json_builder_set_member_name (builder, "dense");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, spec->dims);
      json_builder_set_member_name (builder, "distance");
      json_builder_add_string_value (builder, "Cosine");
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "sparse_vectors");
  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (sparse_vectors); i++)
    {
      json_builder_set_member_name (builder, sparse_vectors[i]);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "modifier");
      json_builder_add_string_value (builder, "idf");
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  if (spec->shard_number > 0)
    {
      json_builder_set_member_name (builder, "shard_number");
      json_builder_add_int_value (builder, spec->shard_number);
    }
  if (spec->replication_factor > 0)
    {
      json_builder_set_member_name (builder, "replication_factor");
      json_builder_add_int_value (builder, spec->replication_factor);
    }
  if (spec->write_consistency_factor > 0)
    {
      json_builder_set_member_name (builder, "write_consistency_factor");
      json_builder_add_int_value (builder, spec->write_consistency_factor);
    }
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  result = lode_qdrant_client_call (self, "PUT", path, body, cancellable, &local_error);
  if (result != NULL)
    return TRUE;

  /* Lost answer, or another machine made it meanwhile: both leave the collection there. */
  if (lode_qdrant_client_collection_exists (self, collection, &exists, cancellable, NULL) &&
      exists)
    return TRUE;

  g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                              "Cannot create the Qdrant collection %s: ", collection);
  return FALSE;
}

gboolean
lode_qdrant_client_delete_collection (LodeQdrantClient  *self,
                                      const char        *collection,
                                      GCancellable      *cancellable,
                                      GError           **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "");
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  result = lode_qdrant_client_call (self, "DELETE", path, NULL, cancellable, error);
  return result != NULL;
}

/**
 * lode_qdrant_client_list_collections:
 * @self: a #LodeQdrantClient
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the names of the server's collections, sorted
 */
GStrv
lode_qdrant_client_list_collections (LodeQdrantClient  *self,
                                     GCancellable      *cancellable,
                                     GError           **error)
{
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  JsonNode *list;
  GStrv strv;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  result = lode_qdrant_client_call (self, "GET", "/collections", NULL, cancellable, error);
  if (result == NULL)
    return NULL;

  list = JSON_NODE_HOLDS_OBJECT (result)
    ? json_object_get_member (json_node_get_object (result), "collections") : NULL;
  if (list != NULL && JSON_NODE_HOLDS_ARRAY (list))
    {
      JsonArray *array = json_node_get_array (list);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_OBJECT (item))
            {
              JsonObject *description = json_node_get_object (item);
              const char *name = json_object_get_string_member_with_default (description, "name",
                                                                              NULL);
              if (name != NULL)
                g_strv_builder_add (names, name);
            }
        }
    }

  strv = g_strv_builder_end (names);
  qsort (strv, g_strv_length (strv), sizeof (char *), (GCompareFunc) (void (*) (void)) g_strcmp0);
  return strv;
}

/**
 * lode_qdrant_client_list_aliases:
 * @self: a #LodeQdrantClient
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type utf8 utf8): every alias of the server, mapped to the
 *   collection it names
 */
GHashTable *
lode_qdrant_client_list_aliases (LodeQdrantClient  *self,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GHashTable) aliases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonNode *list;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  result = lode_qdrant_client_call (self, "GET", "/aliases", NULL, cancellable, error);
  if (result == NULL)
    return NULL;

  list = JSON_NODE_HOLDS_OBJECT (result)
    ? json_object_get_member (json_node_get_object (result), "aliases") : NULL;
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: /aliases gave no list",
                   self->url);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (list), i);
      const char *alias = NULL;
      const char *collection = NULL;

      if (JSON_NODE_HOLDS_OBJECT (item))
        {
          alias = json_object_get_string_member_with_default (json_node_get_object (item),
                                                              "alias_name", NULL);
          collection = json_object_get_string_member_with_default (json_node_get_object (item),
                                                                   "collection_name", NULL);
        }
      if (alias != NULL && collection != NULL)
        g_hash_table_replace (aliases, g_strdup (alias), g_strdup (collection));
    }

  return g_steal_pointer (&aliases);
}

/**
 * lode_qdrant_client_switch_alias:
 * @self: a #LodeQdrantClient
 * @alias: an alias, existing or not
 * @collection: the collection @alias is to name
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Points @alias at @collection in one request (`delete_alias` then `create_alias`), which
 * Qdrant applies under one lock: every other request sees the collection @alias named before
 * or @collection, never neither. Qdrant refuses it when a collection is named @alias.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_qdrant_client_switch_alias (LodeQdrantClient  *self,
                                 const char        *alias,
                                 const char        *collection,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (alias != NULL && collection != NULL, FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "actions");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "delete_alias");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "alias_name");
  json_builder_add_string_value (builder, alias);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "create_alias");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "collection_name");
  json_builder_add_string_value (builder, collection);
  json_builder_set_member_name (builder, "alias_name");
  json_builder_add_string_value (builder, alias);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  result = lode_qdrant_client_call (self, "POST", "/collections/aliases", body, cancellable,
                                    error);
  if (result == NULL)
    {
      g_prefix_error (error, "Cannot point the Qdrant alias %s at %s: ", alias, collection);
      return FALSE;
    }
  return TRUE;
}

gboolean
lode_qdrant_client_create_payload_index (LodeQdrantClient  *self,
                                         const char        *collection,
                                         const char        *field,
                                         const char        *type,
                                         GCancellable      *cancellable,
                                         GError           **error)
{
  g_autofree char *path = _lode_qdrant_client_collection_path (collection, "/index?wait=true");
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "field_name");
  json_builder_add_string_value (builder, field);
  json_builder_set_member_name (builder, "field_schema");
  json_builder_add_string_value (builder, type);
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  result = lode_qdrant_client_call (self, "PUT", path, body, cancellable, error);
  return result != NULL;
}
