/* lode-http-server.h — a small HTTP/1.1 server on 127.0.0.1 with bounded resources
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>
#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct _LodeHttpRequest LodeHttpRequest;

/**
 * LodeHttpAbortFunc:
 * @request: a request whose connection ended before its response did
 * @user_data: user data
 */
typedef void (*LodeHttpAbortFunc) (LodeHttpRequest *request,
                                   gpointer         user_data);

#define LODE_TYPE_HTTP_SERVER (lode_http_server_get_type ())
G_DECLARE_FINAL_TYPE (LodeHttpServer, lode_http_server, LODE, HTTP_SERVER, GObject)

LodeHttpServer     *lode_http_server_new                (void);
gboolean            lode_http_server_listen             (LodeHttpServer    *self,
                                                         guint              port,
                                                         GError           **error);
guint               lode_http_server_get_port           (LodeHttpServer    *self);
guint               lode_http_server_get_n_connections  (LodeHttpServer    *self);
void                lode_http_server_disconnect         (LodeHttpServer    *self);

#define LODE_TYPE_HTTP_REQUEST (lode_http_request_get_type ())
GType               lode_http_request_get_type          (void) G_GNUC_CONST;
LodeHttpRequest    *lode_http_request_ref               (LodeHttpRequest   *request);
void                lode_http_request_unref             (LodeHttpRequest   *request);
const char         *lode_http_request_get_method        (LodeHttpRequest   *request);
const char         *lode_http_request_get_path          (LodeHttpRequest   *request);
SoupMessageHeaders *lode_http_request_get_headers       (LodeHttpRequest   *request);
GBytes             *lode_http_request_get_body          (LodeHttpRequest   *request);
SoupMessageHeaders *lode_http_request_get_response_headers
                                                        (LodeHttpRequest   *request);
void                lode_http_request_set_abort_func    (LodeHttpRequest   *request,
                                                         LodeHttpAbortFunc  func,
                                                         gpointer           user_data);
void                lode_http_request_respond           (LodeHttpRequest   *request,
                                                         guint              status,
                                                         const char        *content_type,
                                                         GBytes            *body);
void                lode_http_request_begin_stream      (LodeHttpRequest   *request,
                                                         guint              status,
                                                         const char        *content_type);
void                lode_http_request_write             (LodeHttpRequest   *request,
                                                         GBytes            *data);
void                lode_http_request_end_stream        (LodeHttpRequest   *request);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeHttpRequest, lode_http_request_unref)

G_END_DECLS
