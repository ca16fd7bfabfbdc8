/* qdrant-server.h — the Qdrant server a test talks to: the loopback stand-in, or a real one
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <json-glib/json-glib.h>

G_BEGIN_DECLS

typedef struct
{
  GSubprocess *process;    /* NULL against a real server */
  char        *url;
  char        *prefix;     /* collections of this test start with it */
} QdrantServer;

QdrantServer *qdrant_server_new          (const char * const *args);
QdrantServer *qdrant_server_new_loopback (const char * const *args);
void          qdrant_server_free         (QdrantServer       *server);
gboolean      qdrant_server_is_loopback  (QdrantServer       *server);
char         *qdrant_server_collection   (QdrantServer       *server,
                                          const char         *name);
void          qdrant_server_add_fault    (QdrantServer       *server,
                                          const char         *json);
JsonNode     *qdrant_server_dup_state    (QdrantServer       *server);
guint         qdrant_server_count_requests (QdrantServer     *server,
                                          const char         *method,
                                          const char         *path_part,
                                          gsize              *max_bytes);
void          qdrant_server_assert_valid (QdrantServer       *server);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (QdrantServer, qdrant_server_free)

G_END_DECLS
