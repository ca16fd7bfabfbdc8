/* lode-http-private.h — the process's HTTP session, shared by every HTTP client of liblode
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

G_END_DECLS
