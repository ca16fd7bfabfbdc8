/* mock-http-server.h — an in-process HTTP server on 127.0.0.1 for provider tests
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <libsoup/soup.h>

G_BEGIN_DECLS

typedef struct
{
  char   *method;
  char   *path;
  char   *body;
  char   *authorization;
  char   *range;
  gint64  time_usec;
} MockRequest;

typedef struct _MockServer MockServer;

/* Answers one request. @index counts requests from 0. */
typedef void (*MockHandler) (MockServer        *server,
                             SoupServerMessage *message,
                             const char        *path,
                             const char        *body,
                             guint              index,
                             gpointer           user_data);

struct _MockServer
{
  SoupServer  *server;
  char        *url;
  GPtrArray   *requests;  /* MockRequest */
  GPtrArray   *paused;    /* SoupServerMessage the handler never answers */
  MockHandler  handler;
  gpointer     user_data;
  guint64      endless_bytes;     /* what mock_reply_endless() wrote so far */
  gboolean     endless_finished;  /* its connection was closed */
};

MockServer *mock_server_new        (MockHandler        handler,
                                    gpointer           user_data);
void        mock_server_free       (MockServer        *server);
void        mock_server_hang       (MockServer        *server,
                                    SoupServerMessage *message);
void        mock_reply             (SoupServerMessage *message,
                                    guint              status,
                                    const char        *content_type,
                                    const char        *body,
                                    gsize              length);
void        mock_reply_json        (SoupServerMessage *message,
                                    guint              status,
                                    const char        *json);
void        mock_reply_endless     (MockServer        *server,
                                    SoupServerMessage *message,
                                    const char        *content_type,
                                    const char        *start,
                                    const char        *chunk);
const MockRequest *mock_server_get_request (MockServer *server,
                                            guint       index);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (MockServer, mock_server_free)

G_END_DECLS
