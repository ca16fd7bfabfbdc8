/* lode-qdrant-client-private.h — what the parts of the Qdrant client share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-qdrant-client.h"

G_BEGIN_DECLS

/*
 * The Qdrant client in parts, each calling only those below it:
 *
 *   lode-qdrant-client-query.c        queries (one leg, or two fused by RRF) and filters
 *   lode-qdrant-client-points.c       upserts, deletes, vectors, payloads, counts, scrolls,
 *                                     retrieval, and the points an answer holds
 *   lode-qdrant-client-collections.c  collections, aliases, payload indexes
 *   lode-qdrant-client.c              the object, its settings, one request (retried through
 *                                     common/lode-http) and the server's version
 */

struct _LodeQdrantClient
{
  GObject  parent_instance;

  char    *url;               /* without a trailing slash */
  char    *api_key;
  GList   *ca_certificates;   /* GTlsCertificate, trusted besides the system's */
  char    *server_version;
  guint    timeout_seconds;
  guint    max_retries;
  guint    retry_delay_msec;
  gsize    max_request_bytes;
};

JsonNode  *_lode_qdrant_client_send             (LodeQdrantClient  *self,
                                                 const char        *method,
                                                 const char        *path,
                                                 GBytes            *body,
                                                 GCancellable      *cancellable,
                                                 GError           **error);
char      *_lode_qdrant_client_collection_path  (const char        *collection,
                                                 const char        *suffix);
GPtrArray *_lode_qdrant_client_hits_new         (void);
JsonNode  *_lode_qdrant_client_payload_selector (const char * const *fields);
gboolean   _lode_qdrant_client_read_answer      (LodeQdrantClient  *self,
                                                 JsonNode          *result,
                                                 const char        *path,
                                                 GPtrArray         *hits,
                                                 GError           **error);

G_END_DECLS
