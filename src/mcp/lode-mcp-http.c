/* lode-mcp-http.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-mcp"

#include "config.h"

#include <libsoup/soup.h>
#include <string.h>

#include "lode-json.h"
#include "lode-mcp-errors.h"
#include "lode-mcp-http.h"
#include "lode-mcp-session.h"

/*
 * Streamable HTTP (MCP 2025-03-26 and later): one endpoint, /mcp. A POST carries one message;
 * a request is answered with application/json, or with a text/event-stream when it asked
 * for progress (the notifications go out before the response). initialize opens a session,
 * named by the MCP-Session-Id header on every later request; DELETE ends it. There is no
 * server-initiated stream (GET is 405), so the server never asks the client for its roots
 * over HTTP and log messages only reach stdio clients.
 *
 * The server listens on 127.0.0.1 only. A browser page could still reach it, so requests
 * from a foreign Origin, or naming a foreign Host (DNS rebinding), get 403; an optional
 * bearer token guards it against other local users.
 */

#define ENDPOINT    "/mcp"
#define MAX_MESSAGE (16 * 1024 * 1024)

typedef struct _HttpSession HttpSession;

/* One POST that carries a request, until its response is written. */
typedef struct
{
  SoupServerMessage *msg;
  HttpSession       *session;
  char              *new_session_id;
  int                refs;
  guint              sse : 1;
  guint              handled : 1;
  guint              done : 1;
  guint              finished : 1;
} Exchange;

struct _HttpSession
{
  char           *id;
  LodeMcpSession *session;
  GList          *exchanges;
};

struct _LodeMcpHttp
{
  GObject           parent_instance;

  LodeClient       *client;
  SoupServer       *server;
  char             *token;
  guint             port;
  GHashTable       *sessions;   /* id → HttpSession */
};

G_DEFINE_FINAL_TYPE (LodeMcpHttp, lode_mcp_http, G_TYPE_OBJECT)

static void
exchange_unref (Exchange *exchange)
{
  if (--exchange->refs > 0)
    return;

  if (exchange->session != NULL)
    exchange->session->exchanges = g_list_remove (exchange->session->exchanges, exchange);
  g_clear_object (&exchange->msg);
  g_free (exchange->new_session_id);
  g_free (exchange);
}

/* Once the handler has returned, libsoup pauses the message whenever it has written all it
 * has; every new part of the response needs an unpause. */
static void
resume (Exchange *exchange)
{
  if (exchange->handled && !exchange->finished)
    soup_server_message_unpause (exchange->msg);
}

/* Ends the exchanges of a session that goes away; their requests were cancelled. */
static void
http_session_free (HttpSession *session)
{
  lode_mcp_session_close (session->session);
  while (session->exchanges != NULL)
    {
      Exchange *exchange = session->exchanges->data;

      session->exchanges = g_list_delete_link (session->exchanges, session->exchanges);
      exchange->session = NULL;
      if (!exchange->done)
        {
          exchange->done = TRUE;
          if (exchange->sse)
            soup_message_body_complete (soup_server_message_get_response_body (exchange->msg));
          else
            soup_server_message_set_status (exchange->msg, SOUP_STATUS_NOT_FOUND, NULL);
          resume (exchange);
          exchange_unref (exchange);
        }
    }
  g_clear_object (&session->session);
  g_free (session->id);
  g_free (session);
}

static void
lode_mcp_http_dispose (GObject *object)
{
  LodeMcpHttp *self = (LodeMcpHttp *)object;

  g_clear_pointer (&self->sessions, g_hash_table_unref);
  if (self->server != NULL)
    soup_server_disconnect (self->server);
  g_clear_object (&self->server);
  g_clear_object (&self->client);

  G_OBJECT_CLASS (lode_mcp_http_parent_class)->dispose (object);
}

static void
lode_mcp_http_finalize (GObject *object)
{
  LodeMcpHttp *self = (LodeMcpHttp *)object;

  g_free (self->token);

  G_OBJECT_CLASS (lode_mcp_http_parent_class)->finalize (object);
}

static void
lode_mcp_http_class_init (LodeMcpHttpClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_mcp_http_dispose;
  object_class->finalize = lode_mcp_http_finalize;
}

static void
lode_mcp_http_init (LodeMcpHttp *self)
{
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) http_session_free);
}

static void
append_event (Exchange *exchange,
              JsonNode *message)
{
  g_autofree char *json = lode_json_to_string (message, FALSE);
  char *event = g_strdup_printf ("event: message\ndata: %s\n\n", json);
  SoupMessageBody *body = soup_server_message_get_response_body (exchange->msg);

  soup_message_body_append (body, SOUP_MEMORY_TAKE, event, strlen (event));
}

static void
send_cb (JsonNode *message,
         gpointer  tag,
         gboolean  final,
         gpointer  user_data)
{
  Exchange *exchange = tag;
  SoupMessageHeaders *headers;

  /* Without a server-initiated stream, messages of the session itself have nowhere to go. */
  if (exchange == NULL || exchange->done)
    return;

  if (exchange->finished)
    {
      if (final)
        {
          exchange->done = TRUE;
          exchange_unref (exchange);
        }
      return;
    }

  if (exchange->sse)
    {
      if (message != NULL)
        append_event (exchange, message);
      if (final)
        soup_message_body_complete (soup_server_message_get_response_body (exchange->msg));
    }
  else if (final)
    {
      headers = soup_server_message_get_response_headers (exchange->msg);
      if (exchange->new_session_id != NULL)
        soup_message_headers_replace (headers, "MCP-Session-Id", exchange->new_session_id);
      if (message != NULL)
        {
          g_autofree char *json = lode_json_to_string (message, FALSE);
          gsize length = strlen (json);

          soup_server_message_set_status (exchange->msg, SOUP_STATUS_OK, NULL);
          soup_server_message_set_response (exchange->msg, "application/json",
                                            SOUP_MEMORY_TAKE, g_steal_pointer (&json), length);
        }
      else
        {
          soup_server_message_set_status (exchange->msg, SOUP_STATUS_ACCEPTED, NULL);
          soup_message_headers_set_content_length (headers, 0);
        }
    }
  else
    return;

  resume (exchange);
  if (final)
    {
      exchange->done = TRUE;
      exchange_unref (exchange);
    }
}

static void
message_finished_cb (SoupServerMessage *msg,
                     Exchange          *exchange)
{
  exchange->finished = TRUE;
  /* The client went away before the response: its request is of no use any more. */
  if (!exchange->done && exchange->session != NULL)
    lode_mcp_session_cancel_tag (exchange->session->session, exchange);
  exchange_unref (exchange);
}

static void
respond_text (SoupServerMessage *msg,
              guint              status,
              const char        *text)
{
  soup_server_message_set_status (msg, status, NULL);
  soup_server_message_set_response (msg, "text/plain; charset=utf-8", SOUP_MEMORY_COPY,
                                    text, strlen (text));
}

/* A JSON-RPC error for a message that never reaches a session (no id: it was unreadable). */
static void
respond_rpc_error (SoupServerMessage *msg,
                   int                code,
                   const char        *text)
{
  g_autofree char *escaped = g_strescape (text, NULL);
  g_autofree char *body = g_strdup_printf ("{\"jsonrpc\":\"2.0\",\"error\":{\"code\":%d,"
                                           "\"message\":\"%s\"}}", code, escaped);

  soup_server_message_set_status (msg, SOUP_STATUS_BAD_REQUEST, NULL);
  soup_server_message_set_response (msg, "application/json", SOUP_MEMORY_COPY, body,
                                    strlen (body));
}

static gboolean
is_loopback_host (const char *host)
{
  return g_strcmp0 (host, "127.0.0.1") == 0 || g_strcmp0 (host, "localhost") == 0 ||
         g_strcmp0 (host, "::1") == 0 || g_strcmp0 (host, "[::1]") == 0;
}

static gboolean
origin_allowed (SoupMessageHeaders *headers)
{
  const char *origin = soup_message_headers_get_one (headers, "Origin");
  const char *host = soup_message_headers_get_one (headers, "Host");
  g_autoptr(GUri) uri = NULL;

  if (origin != NULL)
    {
      uri = g_uri_parse (origin, G_URI_FLAGS_NONE, NULL);
      if (uri == NULL || !is_loopback_host (g_uri_get_host (uri)))
        return FALSE;
    }

  if (host != NULL)
    {
      g_autofree char *name = NULL;
      const char *colon = strrchr (host, ':');

      /* "[::1]:8080", "localhost:8080" or a bare name. */
      if (colon != NULL && strchr (colon, ']') == NULL && (host[0] != '[' || colon[-1] == ']'))
        name = g_strndup (host, colon - host);
      else
        name = g_strdup (host);
      if (!is_loopback_host (name))
        return FALSE;
    }

  return TRUE;
}

/* Compares in constant time, so that the token cannot be guessed one byte at a time. */
static gboolean
token_matches (const char *expected,
               const char *header)
{
  gsize expected_length = strlen (expected);
  gsize given_length;
  guint8 diff = 0;

  if (header == NULL || !g_str_has_prefix (header, "Bearer "))
    return FALSE;
  header += strlen ("Bearer ");
  given_length = strlen (header);
  for (gsize i = 0; i < expected_length; i++)
    diff |= expected[i] ^ (i < given_length ? header[i] : 0);

  return diff == 0 && given_length == expected_length;
}

static gboolean
accepts (SoupMessageHeaders *headers,
         const char         *type)
{
  const char *accept = soup_message_headers_get_list (headers, "Accept");

  return accept == NULL || strstr (accept, type) != NULL || strstr (accept, "*/*") != NULL;
}

static gboolean
wants_progress (JsonObject *message)
{
  JsonNode *params = json_object_get_member (message, "params");
  JsonNode *meta;

  if (params == NULL || !JSON_NODE_HOLDS_OBJECT (params))
    return FALSE;
  meta = json_object_get_member (json_node_get_object (params), "_meta");

  return meta != NULL && JSON_NODE_HOLDS_OBJECT (meta) &&
         json_object_has_member (json_node_get_object (meta), "progressToken");
}

static HttpSession *
session_new (LodeMcpHttp *self)
{
  HttpSession *session = g_new0 (HttpSession, 1);

  session->id = g_uuid_string_random ();
  session->session = lode_mcp_session_new (self->client, FALSE, send_cb,
                                           session);
  g_hash_table_insert (self->sessions, session->id, session);

  return session;
}

static void
handle_post (LodeMcpHttp       *self,
             SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *content_type = soup_message_headers_get_content_type (headers, NULL);
  const char *session_id = soup_message_headers_get_one (headers, "MCP-Session-Id");
  const char *version = soup_message_headers_get_one (headers, "MCP-Protocol-Version");
  g_autoptr(GBytes) body = NULL;
  g_autoptr(GError) error = NULL;
  HttpSession *session = NULL;
  g_autoptr(JsonNode) root = NULL;
  JsonObject *message;
  const char *method;
  gboolean is_request;
  Exchange *exchange;
  gsize length;
  const char *data;

  if (g_strcmp0 (content_type, "application/json") != 0)
    {
      respond_text (msg, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE, "Send application/json\n");
      return;
    }
  if (!accepts (headers, "application/json") && !accepts (headers, "text/event-stream"))
    {
      respond_text (msg, SOUP_STATUS_NOT_ACCEPTABLE,
                    "Accept application/json and text/event-stream\n");
      return;
    }

  body = soup_message_body_flatten (soup_server_message_get_request_body (msg));
  data = g_bytes_get_data (body, &length);
  if (length > MAX_MESSAGE)
    {
      respond_text (msg, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "A message is limited to 16 MiB\n");
      return;
    }

  /* What the transport needs to know before the session sees the message: whether it
   * opens a session, and whether it is a request (which gets a response). */
  if (!g_utf8_validate_len (data, length, NULL) ||
      (root = lode_json_parse (data, length, &error)) == NULL)
    {
      respond_rpc_error (msg, LODE_MCP_PARSE_ERROR,
                         error != NULL ? error->message : "Parse error: invalid UTF-8");
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      respond_rpc_error (msg, LODE_MCP_INVALID_REQUEST,
                         "Invalid Request: one JSON-RPC message (an object) per POST");
      return;
    }
  message = json_node_get_object (root);
  method = json_object_get_string_member_with_default (message, "method", NULL);
  is_request = method != NULL && json_object_has_member (message, "id");

  if (version != NULL && !lode_mcp_protocol_is_supported (version))
    {
      respond_text (msg, SOUP_STATUS_BAD_REQUEST, "Unsupported MCP-Protocol-Version\n");
      return;
    }

  if (session_id != NULL)
    {
      session = g_hash_table_lookup (self->sessions, session_id);
      if (session == NULL)
        {
          respond_text (msg, SOUP_STATUS_NOT_FOUND, "Unknown or ended session\n");
          return;
        }
    }
  else if (g_strcmp0 (method, "initialize") != 0 || !is_request)
    {
      respond_text (msg, SOUP_STATUS_BAD_REQUEST, "Missing MCP-Session-Id header\n");
      return;
    }

  exchange = g_new0 (Exchange, 1);
  exchange->msg = g_object_ref (msg);
  /* One reference for the response, one for the message's life in libsoup. */
  exchange->refs = 2;
  if (session == NULL)
    {
      session = session_new (self);
      exchange->new_session_id = g_strdup (session->id);
    }
  exchange->session = session;
  session->exchanges = g_list_prepend (session->exchanges, exchange);
  g_signal_connect (msg, "finished", G_CALLBACK (message_finished_cb), exchange);

  if (is_request && wants_progress (message) && accepts (headers, "text/event-stream"))
    {
      SoupMessageHeaders *response = soup_server_message_get_response_headers (msg);

      exchange->sse = TRUE;
      soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
      soup_message_headers_set_content_type (response, "text/event-stream", NULL);
      soup_message_headers_replace (response, "Cache-Control", "no-cache");
      soup_message_headers_set_encoding (response, SOUP_ENCODING_CHUNKED);
    }

  lode_mcp_session_receive (session->session, data, length, exchange);

  /* Not answered yet: the response comes from a worker's result. */
  exchange->handled = TRUE;
  if (!exchange->done || exchange->sse)
    soup_server_message_pause (msg);
}

static void
handle_delete (LodeMcpHttp       *self,
               SoupServerMessage *msg)
{
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *session_id = soup_message_headers_get_one (headers, "MCP-Session-Id");

  if (session_id == NULL)
    {
      respond_text (msg, SOUP_STATUS_BAD_REQUEST, "Missing MCP-Session-Id header\n");
      return;
    }
  if (!g_hash_table_remove (self->sessions, session_id))
    {
      respond_text (msg, SOUP_STATUS_NOT_FOUND, "Unknown or ended session\n");
      return;
    }

  soup_server_message_set_status (msg, SOUP_STATUS_OK, NULL);
}

static void
server_cb (SoupServer        *server,
           SoupServerMessage *msg,
           const char        *path,
           GHashTable        *query,
           gpointer           user_data)
{
  LodeMcpHttp *self = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_request_headers (msg);
  const char *method = soup_server_message_get_method (msg);

  if (!g_str_equal (path, ENDPOINT))
    {
      respond_text (msg, SOUP_STATUS_NOT_FOUND, "The MCP endpoint is " ENDPOINT "\n");
      return;
    }

  if (!origin_allowed (headers))
    {
      respond_text (msg, SOUP_STATUS_FORBIDDEN, "Foreign origin\n");
      return;
    }

  if (self->token != NULL &&
      !token_matches (self->token, soup_message_headers_get_one (headers, "Authorization")))
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg),
                                    "WWW-Authenticate", "Bearer");
      respond_text (msg, SOUP_STATUS_UNAUTHORIZED, "A bearer token is required\n");
      return;
    }

  if (g_str_equal (method, SOUP_METHOD_POST))
    handle_post (self, msg);
  else if (g_str_equal (method, SOUP_METHOD_DELETE))
    handle_delete (self, msg);
  else
    {
      soup_message_headers_replace (soup_server_message_get_response_headers (msg), "Allow",
                                    "POST, DELETE");
      respond_text (msg, SOUP_STATUS_METHOD_NOT_ALLOWED,
                    "This server offers no server-initiated stream; POST messages\n");
    }
}

/**
 * lode_mcp_http_new:
 * @client: runs the tools
 * @token: (nullable): a bearer token every request must carry
 *
 * Returns: (transfer full): a server, not listening yet
 */
LodeMcpHttp *
lode_mcp_http_new (LodeClient       *client,
                   const char       *token)
{
  LodeMcpHttp *self;

  g_return_val_if_fail (LODE_IS_CLIENT (client), NULL);

  self = g_object_new (LODE_TYPE_MCP_HTTP, NULL);
  self->client = g_object_ref (client);
  self->token = token != NULL && token[0] != '\0' ? g_strdup (token) : NULL;
  self->server = soup_server_new ("server-header", "lode-mcp/" PACKAGE_VERSION, NULL);
  soup_server_add_handler (self->server, NULL, server_cb, self, NULL);

  return self;
}

/**
 * lode_mcp_http_listen:
 * @self: a #LodeMcpHttp
 * @port: a TCP port, 0 for any free one
 * @error: return location for a #GError
 *
 * Listens on 127.0.0.1:@port.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_mcp_http_listen (LodeMcpHttp  *self,
                      guint         port,
                      GError      **error)
{
  GSList *uris;

  g_return_val_if_fail (LODE_IS_MCP_HTTP (self), FALSE);

  if (!soup_server_listen_local (self->server, port, SOUP_SERVER_LISTEN_IPV4_ONLY, error))
    {
      g_prefix_error (error, "Cannot listen on 127.0.0.1:%u: ", port);
      return FALSE;
    }

  uris = soup_server_get_uris (self->server);
  self->port = uris != NULL ? (guint) g_uri_get_port (uris->data) : port;
  g_slist_free_full (uris, (GDestroyNotify) g_uri_unref);

  return TRUE;
}

guint
lode_mcp_http_get_port (LodeMcpHttp *self)
{
  g_return_val_if_fail (LODE_IS_MCP_HTTP (self), 0);
  return self->port;
}

/**
 * lode_mcp_http_stop:
 * @self: a #LodeMcpHttp
 *
 * Ends every session (cancelling their requests) and stops listening.
 */
void
lode_mcp_http_stop (LodeMcpHttp *self)
{
  g_return_if_fail (LODE_IS_MCP_HTTP (self));

  g_hash_table_remove_all (self->sessions);
  soup_server_disconnect (self->server);
}
