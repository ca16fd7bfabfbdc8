/* lode-embedder-private.h — helpers shared by the HTTP embedding providers
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "lode-embedder.h"
#include "lode-http-private.h"

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

/* Remembers that a server failed, so that queries skip it for a while (see
 * _lode_embedder_request_async()). Zero-initialised; cleared with
 * _lode_embedder_breaker_clear(). */
typedef struct
{
  GMutex  lock;
  gint64  open_until;    /* monotonic µs */
  char   *reason;
} LodeEmbedderBreaker;

void         _lode_embedder_breaker_clear  (LodeEmbedderBreaker  *breaker);

/* How a provider's request is sent: the HTTP retries, and the breaker. */
typedef struct
{
  LodeHttpRetry        http;
  LodeEmbedderBreaker *breaker;          /* (nullable) */
  gboolean             fail_fast;        /* fail at once while the breaker is open */
} LodeEmbedderRetry;

void         _lode_embedder_retry_init     (LodeEmbedderRetry    *retry,
                                            LodeEmbedPurpose      purpose,
                                            guint                 timeout_seconds,
                                            guint                 max_retries,
                                            guint                 base_delay_msec,
                                            LodeEmbedderBreaker  *breaker);
void         _lode_embedder_request_async  (LodeHttpMessageFunc      build,
                                            gpointer                 build_data,
                                            const LodeEmbedderRetry *retry,
                                            const char              *what,
                                            GCancellable            *cancellable,
                                            GAsyncReadyCallback      callback,
                                            gpointer                 user_data);
GBytes      *_lode_embedder_request_finish (GAsyncResult         *result,
                                            SoupMessage         **message,
                                            GError              **error);

G_END_DECLS
