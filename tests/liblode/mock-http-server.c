/* mock-http-server.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include "mock-http-server.h"

static void
mock_request_free (MockRequest *request)
{
  g_free (request->method);
  g_free (request->path);
  g_free (request->body);
  g_free (request->authorization);
  g_free (request->range);
  g_free (request);
}

static void
handler_cb (SoupServer        *soup_server,
            SoupServerMessage *message,
            const char        *path,
            GHashTable        *query,
            gpointer           user_data)
{
  MockServer *server = user_data;
  SoupMessageBody *body = soup_server_message_get_request_body (message);
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (message);
  g_autoptr(GBytes) bytes = soup_message_body_flatten (body);
  MockRequest *request = g_new0 (MockRequest, 1);

  request->method = g_strdup (soup_server_message_get_method (message));
  request->path = g_strdup (path);
  request->body = g_strndup (g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  request->authorization = g_strdup (soup_message_headers_get_one (headers, "Authorization"));
  request->range = g_strdup (soup_message_headers_get_one (headers, "Range"));
  request->time_usec = g_get_monotonic_time ();
  g_ptr_array_add (server->requests, request);

  server->handler (server, message, path, request->body, server->requests->len - 1,
                   server->user_data);
}

MockServer *
mock_server_new (MockHandler handler,
                 gpointer    user_data)
{
  MockServer *server = g_new0 (MockServer, 1);
  g_autoptr(GError) error = NULL;
  GSList *uris;
  g_autofree char *text = NULL;

  server->handler = handler;
  server->user_data = user_data;
  server->requests = g_ptr_array_new_with_free_func ((GDestroyNotify) mock_request_free);
  server->paused = g_ptr_array_new_with_free_func (g_object_unref);
  server->server = soup_server_new (NULL, NULL);
  soup_server_add_handler (server->server, NULL, handler_cb, server, NULL);
  soup_server_listen_local (server->server, 0, SOUP_SERVER_LISTEN_IPV4_ONLY, &error);
  g_assert_no_error (error);

  uris = soup_server_get_uris (server->server);
  g_assert_nonnull (uris);
  text = g_uri_to_string (uris->data);
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);
  /* "http://127.0.0.1:PORT/" → without the slash, as users write base URLs. */
  if (g_str_has_suffix (text, "/"))
    text[strlen (text) - 1] = '\0';
  server->url = g_steal_pointer (&text);
  return server;
}

void
mock_server_free (MockServer *server)
{
  for (guint i = 0; i < server->paused->len; i++)
    {
      SoupServerMessage *message = g_ptr_array_index (server->paused, i);

      soup_server_message_set_status (message, SOUP_STATUS_SERVICE_UNAVAILABLE, NULL);
      soup_server_message_unpause (message);
    }
  g_ptr_array_unref (server->paused);
  soup_server_disconnect (server->server);
  g_object_unref (server->server);
  g_ptr_array_unref (server->requests);
  g_free (server->url);
  g_free (server);
}

/* Never answers @message (until the server is freed). */
void
mock_server_hang (MockServer        *server,
                  SoupServerMessage *message)
{
  soup_server_message_pause (message);
  g_ptr_array_add (server->paused, g_object_ref (message));
}

void
mock_reply (SoupServerMessage *message,
            guint              status,
            const char        *content_type,
            const char        *body,
            gsize              length)
{
  soup_server_message_set_status (message, status, NULL);
  soup_server_message_set_response (message, content_type, SOUP_MEMORY_COPY, body, length);
}

void
mock_reply_json (SoupServerMessage *message,
                 guint              status,
                 const char        *json)
{
  mock_reply (message, status, "application/json", json, strlen (json));
}

typedef struct
{
  MockServer *server;
  GBytes     *chunk;
} Endless;

static void
endless_free (Endless *endless)
{
  g_bytes_unref (endless->chunk);
  g_free (endless);
}

static void
endless_wrote_chunk_cb (SoupServerMessage *message,
                        gpointer           user_data)
{
  Endless *endless = user_data;

  endless->server->endless_bytes += g_bytes_get_size (endless->chunk);
  soup_message_body_append_bytes (soup_server_message_get_response_body (message),
                                  endless->chunk);
}

static void
endless_finished_cb (SoupServerMessage *message,
                     gpointer           user_data)
{
  Endless *endless = user_data;

  endless->server->endless_finished = TRUE;
}

/* Answers 200 with a chunked body that never ends: @start, then @chunk repeated about 256 KiB
 * at a time for as long as the client reads. */
void
mock_reply_endless (MockServer        *server,
                    SoupServerMessage *message,
                    const char        *content_type,
                    const char        *start,
                    const char        *chunk)
{
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);
  SoupMessageBody *body = soup_server_message_get_response_body (message);
  Endless *endless = g_new0 (Endless, 1);
  g_autoptr(GString) text = g_string_new (NULL);

  while (text->len < 256 * 1024)
    g_string_append (text, chunk);
  endless->server = server;
  endless->chunk = g_string_free_to_bytes (g_steal_pointer (&text));

  soup_server_message_set_status (message, SOUP_STATUS_OK, NULL);
  soup_message_headers_set_encoding (headers, SOUP_ENCODING_CHUNKED);
  soup_message_headers_set_content_type (headers, content_type, NULL);
  soup_message_body_set_accumulate (body, FALSE);
  soup_message_body_append (body, SOUP_MEMORY_COPY, start, strlen (start));
  g_signal_connect (message, "wrote-chunk", G_CALLBACK (endless_wrote_chunk_cb), endless);
  g_signal_connect_data (message, "finished", G_CALLBACK (endless_finished_cb), endless,
                         (GClosureNotify) G_CALLBACK (endless_free), 0);
}

const MockRequest *
mock_server_get_request (MockServer *server,
                         guint       index)
{
  g_assert_cmpuint (index, <, server->requests->len);
  return g_ptr_array_index (server->requests, index);
}
