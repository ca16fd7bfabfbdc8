/* lode-mcp-http.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-mcp"

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/random.h>

#include "lode-http-server.h"
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
 * from a foreign Origin, or naming a foreign Host (DNS rebinding), get 403; a bearer token
 * (lode-mcp makes one up when given none) guards it against other local users. Session ids
 * are 128 random bits from the kernel (getrandom), so that one client cannot guess another's.
 * A session that has seen no request for session-timeout ms ends, and past max-sessions the
 * one idle the longest ends to make room (a client whose session ended gets 404 and opens a
 * new one). LodeHttpServer bounds the connections, their timing and the size of a message.
 */

#define ENDPOINT   "/mcp"
#define ID_BYTES   16

#define DEFAULT_MAX_SESSIONS    256
#define DEFAULT_SESSION_TIMEOUT (8 * 60 * 60 * 1000)
#define MAX_SWEEP_INTERVAL      (60 * 1000)

typedef struct _HttpSession HttpSession;

/* One POST that reached a session, until its response is written. */
typedef struct
{
  LodeHttpRequest *request;
  HttpSession     *session;
  char            *new_session_id;
  guint            sse : 1;
} Exchange;

struct _HttpSession
{
  char           *id;
  LodeMcpSession *session;
  GList          *exchanges;
  gint64          last_used;    /* monotonic µs */
};

struct _LodeMcpHttp
{
  GObject           parent_instance;

  LodeClient       *client;
  const LodeToolProfile *profile;
  LodeHttpServer   *server;
  char             *token;
  GHashTable       *sessions;     /* id → HttpSession */
  GSource          *sweep;

  guint             max_sessions;
  guint             session_timeout;
};

G_DEFINE_FINAL_TYPE (LodeMcpHttp, lode_mcp_http, G_TYPE_OBJECT)

enum {
  PROP_0,
  PROP_MAX_SESSIONS,
  PROP_SESSION_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

/**
 * lode_mcp_random_hex:
 * @n_bytes: how many random bytes
 * @error: return location for a #GError
 *
 * Random bytes from the kernel's cryptographically secure generator, in hexadecimal.
 *
 * Returns: (transfer full): 2 × @n_bytes hexadecimal digits, or %NULL on error
 */
char *
lode_mcp_random_hex (gsize    n_bytes,
                     GError **error)
{
  g_autofree guint8 *bytes = g_malloc (n_bytes);
  GString *hex = g_string_sized_new (2 * n_bytes);
  gsize done = 0;

  while (done < n_bytes)
    {
      gssize n = getrandom (bytes + done, n_bytes - done, 0);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        {
          int saved_errno = errno;

          g_set_error (error, G_IO_ERROR, g_io_error_from_errno (saved_errno),
                       "Cannot read random bytes: %s", g_strerror (saved_errno));
          g_string_free (hex, TRUE);
          return NULL;
        }
      done += n;
    }

  for (gsize i = 0; i < n_bytes; i++)
    g_string_append_printf (hex, "%02x", bytes[i]);
  explicit_bzero (bytes, n_bytes);

  return g_string_free (hex, FALSE);
}

static void
exchange_free (Exchange *exchange)
{
  if (exchange->session != NULL)
    {
      exchange->session->exchanges = g_list_remove (exchange->session->exchanges, exchange);
      /* A session is idle from the end of its last exchange. */
      exchange->session->last_used = g_get_monotonic_time ();
    }
  lode_http_request_set_abort_func (exchange->request, NULL, NULL);
  lode_http_request_unref (exchange->request);
  g_free (exchange->new_session_id);
  g_free (exchange);
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
      if (exchange->sse)
        lode_http_request_end_stream (exchange->request);
      else
        lode_http_request_respond (exchange->request, SOUP_STATUS_NOT_FOUND, NULL, NULL);
      exchange_free (exchange);
    }
  g_clear_object (&session->session);
  g_free (session->id);
  g_free (session);
}

static void
stop_sweeping (LodeMcpHttp *self)
{
  if (self->sweep != NULL)
    g_source_destroy (self->sweep);
  g_clear_pointer (&self->sweep, g_source_unref);
}

static void
lode_mcp_http_dispose (GObject *object)
{
  LodeMcpHttp *self = (LodeMcpHttp *)object;

  stop_sweeping (self);
  g_clear_pointer (&self->sessions, g_hash_table_unref);
  if (self->server != NULL)
    lode_http_server_disconnect (self->server);
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
lode_mcp_http_get_property (GObject    *object,
                            guint       prop_id,
                            GValue     *value,
                            GParamSpec *pspec)
{
  LodeMcpHttp *self = LODE_MCP_HTTP (object);

  switch (prop_id)
    {
    case PROP_MAX_SESSIONS:
      g_value_set_uint (value, self->max_sessions);
      break;
    case PROP_SESSION_TIMEOUT:
      g_value_set_uint (value, self->session_timeout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_mcp_http_set_property (GObject      *object,
                            guint         prop_id,
                            const GValue *value,
                            GParamSpec   *pspec)
{
  LodeMcpHttp *self = LODE_MCP_HTTP (object);

  switch (prop_id)
    {
    case PROP_MAX_SESSIONS:
      if (self->max_sessions != g_value_get_uint (value))
        {
          self->max_sessions = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    case PROP_SESSION_TIMEOUT:
      if (self->session_timeout != g_value_get_uint (value))
        {
          self->session_timeout = g_value_get_uint (value);
          g_object_notify_by_pspec (object, pspec);
        }
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_mcp_http_class_init (LodeMcpHttpClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_mcp_http_dispose;
  object_class->finalize = lode_mcp_http_finalize;
  object_class->get_property = lode_mcp_http_get_property;
  object_class->set_property = lode_mcp_http_set_property;

  /* Sessions open at once. */
  properties [PROP_MAX_SESSIONS] =
    g_param_spec_uint ("max-sessions", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_MAX_SESSIONS,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));
  /* Milliseconds a session may go without a request before it ends (set before listening). */
  properties [PROP_SESSION_TIMEOUT] =
    g_param_spec_uint ("session-timeout", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_SESSION_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT | G_PARAM_EXPLICIT_NOTIFY |
                        G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_mcp_http_init (LodeMcpHttp *self)
{
  self->sessions = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                          (GDestroyNotify) http_session_free);
}

static gboolean
http_session_is_idle (HttpSession *session)
{
  return session->exchanges == NULL;
}

/* Ends the sessions without a request for session-timeout ms; returns how many remain. */
static guint
expire_sessions (LodeMcpHttp *self)
{
  gint64 horizon = g_get_monotonic_time () - (gint64) self->session_timeout * 1000;
  GHashTableIter iter;
  HttpSession *session;

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &session))
    if (http_session_is_idle (session) && session->last_used <= horizon)
      {
        g_debug ("Session %.8s… expired", session->id);
        g_hash_table_iter_remove (&iter);
      }

  return g_hash_table_size (self->sessions);
}

static gboolean
sweep_cb (gpointer user_data)
{
  expire_sessions (user_data);
  return G_SOURCE_CONTINUE;
}

static void
append_event (Exchange   *exchange,
              const char *message)
{
  char *event = g_strconcat ("event: message\ndata: ", message, "\n\n", NULL);

  lode_http_request_write (exchange->request, g_bytes_new_take (event, strlen (event)));
}

static void
send_cb (const char *message,
         gpointer    tag,
         gboolean    final,
         gpointer    user_data)
{
  Exchange *exchange = tag;
  SoupMessageHeaders *headers;

  /* Without a server-initiated stream, messages of the session itself have nowhere to go. */
  if (exchange == NULL)
    return;

  if (exchange->sse)
    {
      if (message != NULL)
        append_event (exchange, message);
      if (final)
        lode_http_request_end_stream (exchange->request);
    }
  else if (final)
    {
      headers = lode_http_request_get_response_headers (exchange->request);
      if (exchange->new_session_id != NULL)
        soup_message_headers_replace (headers, "MCP-Session-Id", exchange->new_session_id);
      if (message != NULL)
        lode_http_request_respond (exchange->request, SOUP_STATUS_OK, "application/json",
                                   g_bytes_new (message, strlen (message)));
      else
        lode_http_request_respond (exchange->request, SOUP_STATUS_ACCEPTED, NULL, NULL);
    }

  if (final)
    exchange_free (exchange);
}

/* The client went away before the response: its request is of no use any more. */
static void
abort_cb (LodeHttpRequest *request,
          gpointer         user_data)
{
  Exchange *exchange = user_data;

  if (exchange->session != NULL)
    lode_mcp_session_cancel_tag (exchange->session->session, exchange);
}

static void
respond_text (LodeHttpRequest *request,
              guint            status,
              const char      *text)
{
  lode_http_request_respond (request, status, "text/plain; charset=utf-8",
                             g_bytes_new_static (text, strlen (text)));
}

/* A JSON-RPC error for a message that never reaches a session (no id: it was unreadable). */
static void
respond_rpc_error (LodeHttpRequest *request,
                   int              code,
                   const char      *text)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  char *body;

  /* The message may quote the request (a number, a name): JSON's escapes, not C's, which
   * write non-ASCII bytes as octal and made the body unreadable. */
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "jsonrpc");
  json_builder_add_string_value (builder, "2.0");
  json_builder_set_member_name (builder, "error");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "code");
  json_builder_add_int_value (builder, code);
  json_builder_set_member_name (builder, "message");
  json_builder_add_string_value (builder, text);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  root = json_builder_get_root (builder);
  body = lode_json_to_string (root, FALSE);

  lode_http_request_respond (request, SOUP_STATUS_BAD_REQUEST, "application/json",
                             g_bytes_new_take (body, strlen (body)));
}

/* Host names are case-insensitive (RFC 3986, 3.2.2). */
static gboolean
is_loopback_host (const char *host)
{
  static const char * const loopback[] = { "127.0.0.1", "localhost", "::1", "[::1]" };

  for (guint i = 0; host != NULL && i < G_N_ELEMENTS (loopback); i++)
    if (g_ascii_strcasecmp (host, loopback[i]) == 0)
      return TRUE;

  return FALSE;
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

/* "Bearer" is compared case-insensitively (an auth scheme, RFC 9110, 11.1), the token in
 * constant time, so that it cannot be guessed one byte at a time. */
static gboolean
token_matches (const char *expected,
               const char *header)
{
  gsize expected_length = strlen (expected);
  gsize given_length;
  guint8 diff = 0;

  if (header == NULL || g_ascii_strncasecmp (header, "Bearer ", strlen ("Bearer ")) != 0)
    return FALSE;
  header += strlen ("Bearer ");
  while (*header == ' ')
    header++;
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

/* Makes room for one more session: the expired ones end, then, at the limit, the one idle
 * the longest. FALSE when every session is busy. */
static gboolean
make_room (LodeMcpHttp *self)
{
  GHashTableIter iter;
  HttpSession *session;
  HttpSession *oldest = NULL;

  if (expire_sessions (self) < self->max_sessions)
    return TRUE;

  g_hash_table_iter_init (&iter, self->sessions);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &session))
    if (http_session_is_idle (session) &&
        (oldest == NULL || session->last_used < oldest->last_used))
      oldest = session;
  if (oldest == NULL)
    return FALSE;

  g_debug ("Session %.8s… ended to make room for a new one", oldest->id);
  g_hash_table_remove (self->sessions, oldest->id);

  return TRUE;
}

static HttpSession *
session_new (LodeMcpHttp  *self,
             GError      **error)
{
  g_autofree char *id = lode_mcp_random_hex (ID_BYTES, error);
  HttpSession *session;

  if (id == NULL)
    return NULL;

  session = g_new0 (HttpSession, 1);
  session->id = g_steal_pointer (&id);
  session->session = lode_mcp_session_new (self->client, FALSE, send_cb,
                                           session);
  if (self->profile != NULL)
    lode_mcp_session_set_profile (session->session, self->profile);
  g_hash_table_insert (self->sessions, session->id, session);

  return session;
}

static void
handle_post (LodeMcpHttp     *self,
             LodeHttpRequest *request)
{
  SoupMessageHeaders *headers = lode_http_request_get_headers (request);
  const char *content_type = soup_message_headers_get_content_type (headers, NULL);
  const char *session_id = soup_message_headers_get_one (headers, "MCP-Session-Id");
  const char *version = soup_message_headers_get_one (headers, "MCP-Protocol-Version");
  GBytes *body = lode_http_request_get_body (request);
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
      respond_text (request, SOUP_STATUS_UNSUPPORTED_MEDIA_TYPE, "Send application/json\n");
      return;
    }
  if (!accepts (headers, "application/json") && !accepts (headers, "text/event-stream"))
    {
      respond_text (request, SOUP_STATUS_NOT_ACCEPTABLE,
                    "Accept application/json and text/event-stream\n");
      return;
    }

  /* What the transport needs to know before the session sees the message: whether it
   * opens a session, and whether it is a request (which gets a response). The server has
   * refused bodies over its limit already. */
  data = g_bytes_get_data (body, &length);
  if (!g_utf8_validate_len (data, length, NULL) ||
      (root = lode_json_parse (data, length, &error)) == NULL)
    {
      respond_rpc_error (request, LODE_MCP_PARSE_ERROR,
                         error != NULL ? error->message : "Parse error: invalid UTF-8");
      return;
    }
  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      respond_rpc_error (request, LODE_MCP_INVALID_REQUEST,
                         "Invalid Request: one JSON-RPC message (an object) per POST");
      return;
    }
  message = json_node_get_object (root);
  method = json_object_get_string_member_with_default (message, "method", NULL);
  is_request = method != NULL && json_object_has_member (message, "id");

  if (version != NULL && !lode_mcp_protocol_is_supported (version))
    {
      respond_text (request, SOUP_STATUS_BAD_REQUEST, "Unsupported MCP-Protocol-Version\n");
      return;
    }

  if (session_id != NULL)
    {
      session = g_hash_table_lookup (self->sessions, session_id);
      if (session == NULL)
        {
          respond_text (request, SOUP_STATUS_NOT_FOUND, "Unknown or ended session\n");
          return;
        }
    }
  else if (g_strcmp0 (method, "initialize") != 0 || !is_request)
    {
      respond_text (request, SOUP_STATUS_BAD_REQUEST, "Missing MCP-Session-Id header\n");
      return;
    }
  else if (!make_room (self))
    {
      soup_message_headers_replace (lode_http_request_get_response_headers (request),
                                    "Retry-After", "1");
      respond_text (request, SOUP_STATUS_SERVICE_UNAVAILABLE,
                    "Too many sessions are busy; try again later\n");
      return;
    }
  else if ((session = session_new (self, &error)) == NULL)
    {
      g_warning ("Cannot open a session: %s", error->message);
      respond_text (request, SOUP_STATUS_INTERNAL_SERVER_ERROR, "Cannot open a session\n");
      return;
    }

  exchange = g_new0 (Exchange, 1);
  exchange->request = lode_http_request_ref (request);
  if (session_id == NULL)
    exchange->new_session_id = g_strdup (session->id);
  exchange->session = session;
  session->exchanges = g_list_prepend (session->exchanges, exchange);
  session->last_used = g_get_monotonic_time ();
  lode_http_request_set_abort_func (request, abort_cb, exchange);

  if (is_request && wants_progress (message) && accepts (headers, "text/event-stream"))
    {
      exchange->sse = TRUE;
      soup_message_headers_replace (lode_http_request_get_response_headers (request),
                                    "Cache-Control", "no-cache");
      lode_http_request_begin_stream (request, SOUP_STATUS_OK, "text/event-stream");
    }

  /* The response comes now or from a worker's result, through send_cb(). */
  lode_mcp_session_receive (session->session, data, length, exchange);
}

static void
handle_delete (LodeMcpHttp     *self,
               LodeHttpRequest *request)
{
  SoupMessageHeaders *headers = lode_http_request_get_headers (request);
  const char *session_id = soup_message_headers_get_one (headers, "MCP-Session-Id");

  if (session_id == NULL)
    {
      respond_text (request, SOUP_STATUS_BAD_REQUEST, "Missing MCP-Session-Id header\n");
      return;
    }
  if (!g_hash_table_remove (self->sessions, session_id))
    {
      respond_text (request, SOUP_STATUS_NOT_FOUND, "Unknown or ended session\n");
      return;
    }

  lode_http_request_respond (request, SOUP_STATUS_OK, NULL, NULL);
}

static void
request_cb (LodeHttpServer  *server,
            LodeHttpRequest *request,
            gpointer         user_data)
{
  LodeMcpHttp *self = user_data;
  SoupMessageHeaders *headers = lode_http_request_get_headers (request);
  const char *method = lode_http_request_get_method (request);
  const char *path = lode_http_request_get_path (request);

  if (!g_str_equal (path, ENDPOINT))
    {
      respond_text (request, SOUP_STATUS_NOT_FOUND, "The MCP endpoint is " ENDPOINT "\n");
      return;
    }

  if (!origin_allowed (headers))
    {
      respond_text (request, SOUP_STATUS_FORBIDDEN, "Foreign origin\n");
      return;
    }

  if (self->token != NULL &&
      !token_matches (self->token, soup_message_headers_get_one (headers, "Authorization")))
    {
      soup_message_headers_replace (lode_http_request_get_response_headers (request),
                                    "WWW-Authenticate", "Bearer");
      respond_text (request, SOUP_STATUS_UNAUTHORIZED, "A bearer token is required\n");
      return;
    }

  if (g_str_equal (method, SOUP_METHOD_POST))
    handle_post (self, request);
  else if (g_str_equal (method, SOUP_METHOD_DELETE))
    handle_delete (self, request);
  else
    {
      soup_message_headers_replace (lode_http_request_get_response_headers (request), "Allow",
                                    "POST, DELETE");
      respond_text (request, SOUP_STATUS_METHOD_NOT_ALLOWED,
                    "This server offers no server-initiated stream; POST messages\n");
    }
}

/**
 * lode_mcp_http_new:
 * @client: runs the tools
 * @token: (nullable): a bearer token every request must carry; %NULL lets any local user in
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
  self->server = lode_http_server_new ();
  g_signal_connect (self->server, "request", G_CALLBACK (request_cb), self);

  return self;
}

/**
 * lode_mcp_http_set_profile:
 * @self: a #LodeMcpHttp
 * @profile: the tool names and arguments its clients see
 *
 * Call it before lode_mcp_http_listen().
 */
void
lode_mcp_http_set_profile (LodeMcpHttp           *self,
                           const LodeToolProfile *profile)
{
  g_return_if_fail (LODE_IS_MCP_HTTP (self));

  self->profile = profile;
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
  g_return_val_if_fail (LODE_IS_MCP_HTTP (self), FALSE);

  if (!lode_http_server_listen (self->server, port, error))
    {
      g_prefix_error (error, "Cannot listen on 127.0.0.1:%u: ", port);
      return FALSE;
    }

  stop_sweeping (self);
  self->sweep = g_timeout_source_new (MIN (self->session_timeout, MAX_SWEEP_INTERVAL));
  g_source_set_callback (self->sweep, sweep_cb, self, NULL);
  g_source_set_static_name (self->sweep, "[lode] http session expiry");
  g_source_attach (self->sweep, g_main_context_get_thread_default ());

  return TRUE;
}

guint
lode_mcp_http_get_port (LodeMcpHttp *self)
{
  g_return_val_if_fail (LODE_IS_MCP_HTTP (self), 0);
  return lode_http_server_get_port (self->server);
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

  stop_sweeping (self);
  g_hash_table_remove_all (self->sessions);
  lode_http_server_disconnect (self->server);
}
