/* lode-qdrant-client.h — Qdrant's REST API over libsoup-3
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "lode-sparse-vector.h"

G_BEGIN_DECLS

/* The oldest server Lode works with: `{"rrf": {"k": …}}` fusion came with 1.16 (named dense
 * and sparse vectors, the IDF modifier and the query API with 1.10). */
#define LODE_QDRANT_MIN_VERSION "1.16.0"

/* Qdrant refuses bodies over `service.max_request_size_mb` (32 MiB by default); upserts stay
 * at half of that, so a server with the default never sees one too large. */
#define LODE_QDRANT_DEFAULT_MAX_REQUEST_BYTES (16 * 1024 * 1024)

/**
 * LodeQdrantCollectionSpec:
 * @dims: size of the named dense vector `dense` (cosine distance); 0 for no dense vector
 * @shard_number: shards of the collection (0: the server's default, one per node)
 * @replication_factor: copies of each shard (0: the server's default, 1)
 * @write_consistency_factor: replicas that must apply a write before it succeeds (0: 1)
 *
 * A collection as Lode makes it: the dense vector `dense` and the sparse vectors `bm25` (code)
 * and `artifact_bm25` (context artifacts) with the IDF modifier.
 */
typedef struct
{
  guint dims;
  guint shard_number;
  guint replication_factor;
  guint write_consistency_factor;
} LodeQdrantCollectionSpec;

/**
 * LodeQdrantHit:
 * @id: the point's id (Lode's points have unsigned integer ids or UUIDs, as text)
 * @score: its score: the fused RRF value for a hybrid query
 * @payload: (nullable): the payload asked for
 */
typedef struct
{
  char       *id;
  double      score;
  JsonObject *payload;
} LodeQdrantHit;

void lode_qdrant_hit_free    (LodeQdrantHit    *hit);

#define LODE_TYPE_QDRANT_CLIENT (lode_qdrant_client_get_type ())
G_DECLARE_FINAL_TYPE (LodeQdrantClient, lode_qdrant_client, LODE, QDRANT_CLIENT, GObject)

LodeQdrantClient *lode_qdrant_client_new              (const char              *url,
                                                       const char              *api_key,
                                                       GError                 **error);
gboolean          lode_qdrant_client_set_ca_file      (LodeQdrantClient        *self,
                                                       const char              *filename,
                                                       GError                 **error);
void              lode_qdrant_client_set_timeout      (LodeQdrantClient        *self,
                                                       guint                    seconds);
void              lode_qdrant_client_set_retry        (LodeQdrantClient        *self,
                                                       guint                    max_retries,
                                                       guint                    base_delay_msec);
void              lode_qdrant_client_set_max_request_bytes (LodeQdrantClient   *self,
                                                       gsize                    max_bytes);
const char       *lode_qdrant_client_get_url          (LodeQdrantClient        *self);
const char       *lode_qdrant_client_get_server_version (LodeQdrantClient      *self);

gboolean          lode_qdrant_client_connect          (LodeQdrantClient        *self,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
JsonNode         *lode_qdrant_client_call             (LodeQdrantClient        *self,
                                                       const char              *method,
                                                       const char              *path,
                                                       JsonNode                *body,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);

gboolean          lode_qdrant_client_collection_exists (LodeQdrantClient       *self,
                                                       const char              *collection,
                                                       gboolean                *exists,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_create_collection (LodeQdrantClient       *self,
                                                       const char              *collection,
                                                       const LodeQdrantCollectionSpec *spec,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_delete_collection (LodeQdrantClient       *self,
                                                       const char              *collection,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
GStrv             lode_qdrant_client_list_collections (LodeQdrantClient        *self,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
GHashTable       *lode_qdrant_client_list_aliases     (LodeQdrantClient        *self,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_switch_alias     (LodeQdrantClient        *self,
                                                       const char              *alias,
                                                       const char              *collection,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_create_payload_index (LodeQdrantClient    *self,
                                                       const char              *collection,
                                                       const char              *field,
                                                       const char              *type,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_upsert           (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       GPtrArray               *points,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_delete           (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       JsonNode                *filter,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_count            (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       JsonNode                *filter,
                                                       guint64                 *count,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
GPtrArray        *lode_qdrant_client_scroll           (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       JsonNode                *filter,
                                                       const char * const      *fields,
                                                       const char              *start_id,
                                                       guint                    limit,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_update_vectors   (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       GPtrArray               *points,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
gboolean          lode_qdrant_client_set_payload      (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       JsonNode                *filter,
                                                       JsonObject              *payload,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
GPtrArray        *lode_qdrant_client_retrieve         (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       const char * const      *ids,
                                                       guint                    n_ids,
                                                       const char * const      *fields,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
GPtrArray        *lode_qdrant_client_query            (LodeQdrantClient        *self,
                                                       const char              *collection,
                                                       const char              *using,
                                                       const float             *dense,
                                                       guint                    dims,
                                                       const LodeSparseVector  *sparse,
                                                       JsonNode                *filter,
                                                       guint                    limit,
                                                       const char * const      *fields,
                                                       GCancellable            *cancellable,
                                                       GError                 **error);
GPtrArray        *lode_qdrant_client_query_hybrid     (LodeQdrantClient        *self,
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
                                                       GError                 **error);

JsonNode *lode_qdrant_filter_match     (const char  *key,
                                        const char  *value);
JsonNode *lode_qdrant_filter_match_any (const char  *key,
                                        const char * const *values,
                                        guint        n_values);
JsonNode *lode_qdrant_filter_and       (JsonNode    *first,
                                        JsonNode    *second);
JsonNode *lode_qdrant_sparse_node      (const LodeSparseVector *sparse);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeQdrantHit, lode_qdrant_hit_free)

G_END_DECLS
