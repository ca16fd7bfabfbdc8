/* http-client.h — a blocking HTTP/1.1 client over raw sockets, for the transport tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef struct
{
  guint       status;
  GHashTable *headers;   /* lower-case name → value */
  GString    *body;
} Response;

void      response_free    (Response   *response);
int       try_connect      (guint       port,
                            guint       timeout_s);
int       connect_to       (guint       port,
                            guint       timeout_s);
gboolean  send_text        (int         fd,
                            const char *text);
Response *read_response    (int         fd);
gboolean  closed_by_server (int         fd,
                            guint       timeout_s);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Response, response_free)

G_END_DECLS
