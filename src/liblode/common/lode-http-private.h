/* lode-http-private.h — the process's HTTP session and requests retried, for every HTTP client
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

SoupSession *_lode_http_get_session          (void);
void         _lode_http_send_and_read_async  (SoupMessage          *message,
                                              guint                 timeout_seconds,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GBytes      *_lode_http_send_and_read_finish (GAsyncResult         *result,
                                              SoupMessage         **message,
                                              GError              **error);
gint64       _lode_http_retry_after_msec     (SoupMessage          *message);

/**
 * LodeHttpRetryFlags:
 * @LODE_HTTP_RETRY_FLAGS_NONE: send again after 429, 502, 503 and 504, and after a refused,
 *   closed or unreachable connection
 * @LODE_HTTP_RETRY_SERVER_ERRORS: also after any other 5xx but 501 and 505
 * @LODE_HTTP_RETRY_ANY_FAILURE: also after a timeout or any other failure to get an answer
 *   but a cancellation and an untrusted certificate (for requests that are safe to repeat)
 *
 * What failures may pass, so that a request is worth sending again.
 */
typedef enum
{
  LODE_HTTP_RETRY_FLAGS_NONE    = 0,
  LODE_HTTP_RETRY_SERVER_ERRORS = 1 << 0,
  LODE_HTTP_RETRY_ANY_FAILURE   = 1 << 1,
} LodeHttpRetryFlags;

/* How a request is sent: per attempt, and again after a failure that may pass. */
typedef struct
{
  guint               timeout_seconds;   /* per attempt, 0 for none */
  guint               max_retries;
  guint               base_delay_msec;   /* the first pause without Retry-After; doubles */
  guint               max_wait_msec;     /* a longer pause asked for ends the request */
  LodeHttpRetryFlags  flags;
} LodeHttpRetry;

/* Builds the request of each attempt; NULL with @error set when it cannot. */
typedef SoupMessage *(*LodeHttpMessageFunc) (gpointer   user_data,
                                             GError   **error);

/* How a request ended, for the caller's messages. */
typedef struct
{
  SoupMessage *message;      /* (nullable): the last attempt's request; NULL when it could not
                              * be built */
  guint        n_retries;    /* how often it was sent again */
  gboolean     gave_up;      /* the last failure may have passed, but no retry was left or
                              * the pause it asked for was too long (refused_wait_msec) */
  gint64       refused_wait_msec;  /* the pause that was too long, else -1 */
} LodeHttpEnd;

void         _lode_http_request_async        (LodeHttpMessageFunc   build,
                                              gpointer              build_data,
                                              const LodeHttpRetry  *retry,
                                              GCancellable         *cancellable,
                                              GAsyncReadyCallback   callback,
                                              gpointer              user_data);
GBytes      *_lode_http_request_finish       (GAsyncResult         *result,
                                              LodeHttpEnd          *end,
                                              GError              **error);

G_END_DECLS
