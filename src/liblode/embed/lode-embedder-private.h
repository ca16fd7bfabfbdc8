/* lode-embedder-private.h — helpers shared by the HTTP embedding providers
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "lode-embedder.h"

G_BEGIN_DECLS

gboolean  _lode_embedder_normalize       (float         *vector,
                                          guint          dims);
gboolean  _lode_embedder_read_vector     (JsonNode      *node,
                                          float         *out,
                                          guint          dims,
                                          GError       **error);
guint     _lode_embedder_vector_length   (JsonNode      *node);
JsonNode *_lode_embedder_parse_json      (GBytes        *body,
                                          const char    *what,
                                          GError       **error);
void      _lode_embedder_set_http_error  (GError       **error,
                                          const char    *what,
                                          SoupMessage   *message,
                                          GBytes        *body);

SoupSession *_lode_http_get_session        (void);
void         _lode_http_send_and_read_async (SoupMessage          *message,
                                             guint                 timeout_seconds,
                                             GCancellable         *cancellable,
                                             GAsyncReadyCallback   callback,
                                             gpointer              user_data);
GBytes      *_lode_http_send_and_read_finish (GAsyncResult        *result,
                                              SoupMessage        **message,
                                              GError             **error);

G_END_DECLS
