/* lode-http-server.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-mcp"

#include "config.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <string.h>
#include <sys/socket.h>

#include "lode-http-server.h"

/*
 * An HTTP/1.1 server for one local endpoint, on the main context. SoupServer (3.2 and its
 * later releases alike) stops accepting for good after one failed accept() (EMFILE), has no
 * limit on connections nor a timeout on a request that trickles in, and reads a request's
 * whole body before a handler may refuse it; a server that must stay up on a shared machine
 * needs all four. libsoup still parses the request head (soup_headers_parse_request()).
 *
 * Each connection reads one request at a time: its head (at most MAX_HEAD bytes), then a body
 * of Content-Length bytes or in chunks, never more than max-body-size in all (refused with 413
 * as soon as the length or the chunks say so). The whole request must arrive within
 * request-timeout of its first byte (of the accept for a new connection); a kept-alive
 * connection may wait idle-timeout for its next request. While a response is pending the
 * connection is only watched for the client going away (the request's abort function runs);
 * a write that does not complete within request-timeout ends the connection. A response
 * that refuses the client (401, 403) ends its connection, so that a client without the
 * right credentials cannot keep a place by asking again and again. At max-connections a new
 * connection takes the place of one whose response is written and that only lingers, else
 * of the one that has been idle the longest (between requests, nothing of the next one
 * read, for EVICT_GRACE_MS at least: a client may always open a new connection for its next
 * request); when none is idle it is told 503 and closed at once. When accept() fails (out
 * of descriptors) the server pauses for ACCEPT_RETRY_MS, then accepts again.
 */

#define MAX_HEAD        (64 * 1024)
#define MAX_CHUNK_LINE  1024
#define READ_SIZE       (16 * 1024)
#define ACCEPT_BATCH    32
#define ACCEPT_RETRY_MS 250
/* After an error response the client may still be sending: reading what it sends for a
 * little while keeps the kernel from resetting the connection before the client has read
 * the response. */
#define LINGER_MS       1000
/* A connection idle for less than this is not evicted: a client that just connected (or
 * just read its response) is about to send its request. */
#define EVICT_GRACE_MS  100
#define LINGER_BYTES    (1024 * 1024)
#define LISTEN_BACKLOG  SOMAXCONN
/* RFC 6585; libsoup 3.2 has no name for it. */
#define STATUS_HEAD_TOO_LARGE 431

#define DEFAULT_MAX_CONNECTIONS 64
#define DEFAULT_MAX_BODY_SIZE   (16 * 1024 * 1024)
#define DEFAULT_REQUEST_TIMEOUT 10000
#define DEFAULT_IDLE_TIMEOUT    60000

typedef enum
{
  CONN_IDLE,          /* between requests, nothing of the next one read */
  CONN_HEAD,
  CONN_BODY,          /* Content-Length bytes */
  CONN_CHUNK_SIZE,
  CONN_CHUNK_DATA,
  CONN_CHUNK_END,     /* the line end after a chunk's data */
  CONN_TRAILER,
  CONN_HANDLING,      /* the request is out, its response not written yet */
  CONN_LINGER,        /* the response is written and our side shut: draining until close */
} ConnState;

typedef struct
{
  int                refs;
  LodeHttpServer    *server;      /* NULL once closed */
  GSocketConnection *stream;
  GCancellable      *cancellable;
  ConnState          state;
  GSource           *timer;
  gint64             idle_since;  /* when it last became CONN_IDLE or CONN_LINGER */

  GByteArray        *input;       /* read, not consumed yet */
  guint8             buffer[READ_SIZE];
  gsize              lingered;

  /* The request being read. */
  SoupMessageHeaders *headers;
  char               *method;
  char               *path;
  SoupHTTPVersion     version;
  GByteArray         *body;
  guint64             remaining;

  LodeHttpRequest   *request;     /* the request being answered */
  GQueue             output;      /* GBytes */

  guint              reading : 1;
  guint              writing : 1;
  guint              response_done : 1;
  guint              close_after : 1;
} Conn;

struct _LodeHttpRequest
{
  gatomicrefcount     refs;
  Conn               *conn;       /* NULL once the connection is gone */
  char               *method;
  char               *path;
  SoupHTTPVersion     version;
  SoupMessageHeaders *headers;
  GBytes             *body;
  SoupMessageHeaders *response_headers;
  LodeHttpAbortFunc   abort_func;
  gpointer            abort_data;
  guint               responded : 1;
  guint               streaming : 1;
  guint               chunked : 1;
};

struct _LodeHttpServer
{
  GObject  parent_instance;

  GSocket *listener;
  GSource *accept_source;
  GSource *accept_retry;
  GList   *conns;
  guint    n_conns;
  guint    port;
  gboolean accept_failing;

  guint    max_connections;
  guint64  max_body_size;
  guint    request_timeout;
  guint    idle_timeout;
};

G_DEFINE_FINAL_TYPE (LodeHttpServer, lode_http_server, G_TYPE_OBJECT)
G_DEFINE_BOXED_TYPE (LodeHttpRequest, lode_http_request, lode_http_request_ref,
                     lode_http_request_unref)

enum {
  PROP_0,
  PROP_MAX_CONNECTIONS,
  PROP_MAX_BODY_SIZE,
  PROP_REQUEST_TIMEOUT,
  PROP_IDLE_TIMEOUT,
  N_PROPS
};

static GParamSpec *properties [N_PROPS];

enum {
  REQUEST,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void conn_process        (Conn *conn);
static void conn_want_read      (Conn *conn);
static void conn_close          (Conn *conn);
static void conn_flush          (Conn *conn);
static void start_accepting     (LodeHttpServer *self);

/* Connections ---------------------------------------------------------------------------- */

static Conn *
conn_ref (Conn *conn)
{
  conn->refs++;
  return conn;
}

static void
conn_clear_request (Conn *conn)
{
  g_clear_pointer (&conn->headers, soup_message_headers_unref);
  g_clear_pointer (&conn->method, g_free);
  g_clear_pointer (&conn->path, g_free);
  g_clear_pointer (&conn->body, g_byte_array_unref);
  conn->remaining = 0;
}

static void
conn_unref (Conn *conn)
{
  if (--conn->refs > 0)
    return;

  g_assert (conn->server == NULL && conn->request == NULL && conn->timer == NULL);
  conn_clear_request (conn);
  g_queue_clear_full (&conn->output, (GDestroyNotify) g_bytes_unref);
  g_byte_array_unref (conn->input);
  g_io_stream_close (G_IO_STREAM (conn->stream), NULL, NULL);
  g_object_unref (conn->stream);
  g_object_unref (conn->cancellable);
  g_free (conn);
}

static GSocket *
conn_get_socket (Conn *conn)
{
  return g_socket_connection_get_socket (conn->stream);
}

static gboolean
timer_cb (gpointer user_data)
{
  Conn *conn = user_data;

  g_clear_pointer (&conn->timer, g_source_unref);
  g_debug ("Closing a connection that %s in time",
           conn->state == CONN_IDLE ? "sent no request" :
           conn->state == CONN_HANDLING ? "did not read its response" :
           conn->state == CONN_LINGER ? "did not close" : "did not send its request");
  conn_close (conn);

  return G_SOURCE_REMOVE;
}

static void
conn_disarm (Conn *conn)
{
  if (conn->timer != NULL)
    {
      g_source_destroy (conn->timer);
      g_clear_pointer (&conn->timer, g_source_unref);
    }
}

/* (Re)starts the connection's one timer: when it fires the connection is closed. */
static void
conn_arm (Conn  *conn,
          guint  msec)
{
  conn_disarm (conn);
  conn->timer = g_timeout_source_new (msec);
  g_source_set_callback (conn->timer, timer_cb, conn, NULL);
  g_source_set_static_name (conn->timer, "[lode] http connection timer");
  g_source_attach (conn->timer, g_main_context_get_thread_default ());
}

/* Ends the connection now; the request being answered, if any, is aborted. */
static void
conn_close (Conn *conn)
{
  LodeHttpServer *server = conn->server;
  g_autoptr(LodeHttpRequest) request = g_steal_pointer (&conn->request);

  if (server == NULL)
    return;

  conn->server = NULL;
  server->conns = g_list_remove (server->conns, conn);
  server->n_conns--;
  conn_disarm (conn);
  g_cancellable_cancel (conn->cancellable);
  g_socket_shutdown (conn_get_socket (conn), TRUE, TRUE, NULL);

  if (request != NULL)
    {
      request->conn = NULL;
      if (!conn->response_done && request->abort_func != NULL)
        request->abort_func (request, request->abort_data);
    }

  conn_unref (conn);
}

static void
write_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  Conn *conn = user_data;
  g_autoptr(GError) error = NULL;

  /* This write holds a reference, and the server another until conn_close(). */
  g_assert (conn->refs >= (conn->server != NULL ? 2 : 1));
  conn->writing = FALSE;
  if (!g_output_stream_write_all_finish (G_OUTPUT_STREAM (object), result, NULL, &error))
    {
      if (conn->server != NULL)
        g_debug ("Cannot write to a client: %s", error->message);
      conn_close (conn);
      conn_unref (conn);
      return;
    }

  g_bytes_unref (g_queue_pop_head (&conn->output));
  conn_flush (conn);
  conn_unref (conn);
}

/* Ends the exchange once its response is written: the connection waits for the next
 * request, or closes. */
static void
conn_response_written (Conn *conn)
{
  g_autoptr(LodeHttpRequest) request = g_steal_pointer (&conn->request);

  if (request != NULL)
    request->conn = NULL;
  conn->response_done = FALSE;

  if (conn->close_after)
    {
      /* Our side is done: the client sees the end, and what it still sends is drained. */
      g_socket_shutdown (conn_get_socket (conn), FALSE, TRUE, NULL);
      conn->state = CONN_LINGER;
      conn->idle_since = g_get_monotonic_time ();
      conn->lingered = 0;
      g_byte_array_set_size (conn->input, 0);
      conn_arm (conn, LINGER_MS);
      conn_want_read (conn);
      return;
    }

  conn->state = CONN_IDLE;
  conn->idle_since = g_get_monotonic_time ();
  conn_arm (conn, conn->server->idle_timeout);
  conn_process (conn);
}

static void
conn_flush (Conn *conn)
{
  GBytes *bytes;

  if (conn->server == NULL || conn->writing)
    return;

  bytes = g_queue_peek_head (&conn->output);
  if (bytes == NULL)
    {
      if (conn->state == CONN_HANDLING && conn->response_done)
        conn_response_written (conn);
      else if (conn->state == CONN_HANDLING)
        conn_disarm (conn);
      return;
    }

  /* A client that stops reading its response holds the connection no longer than this. */
  conn_arm (conn, conn->server->request_timeout);
  conn->writing = TRUE;
  g_output_stream_write_all_async (g_io_stream_get_output_stream (G_IO_STREAM (conn->stream)),
                                   g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes),
                                   G_PRIORITY_DEFAULT, conn->cancellable, write_cb,
                                   conn_ref (conn));
}

static void
conn_queue (Conn   *conn,
            GBytes *bytes)
{
  g_queue_push_tail (&conn->output, bytes);
  conn_flush (conn);
}

static GString *
response_head (guint               status,
               const char         *content_type,
               SoupMessageHeaders *headers,
               gboolean            close)
{
  GString *head = g_string_new (NULL);
  SoupMessageHeadersIter iter;
  const char *name;
  const char *value;

  g_string_append_printf (head, "HTTP/1.1 %u %s\r\n", status,
                          status == STATUS_HEAD_TOO_LARGE ? "Request Header Fields Too Large"
                                                          : soup_status_get_phrase (status));
  if (content_type != NULL)
    g_string_append_printf (head, "Content-Type: %s\r\n", content_type);
  if (headers != NULL)
    {
      soup_message_headers_iter_init (&iter, headers);
      while (soup_message_headers_iter_next (&iter, &name, &value))
        g_string_append_printf (head, "%s: %s\r\n", name, value);
    }
  if (close)
    g_string_append (head, "Connection: close\r\n");

  return head;
}

/* Answers a request that could not be read, and closes the connection. */
static void
conn_fail (Conn       *conn,
           guint       status,
           const char *text)
{
  GString *response = response_head (status, "text/plain; charset=utf-8", NULL, TRUE);

  g_string_append_printf (response, "Content-Length: %zu\r\n\r\n%s", strlen (text), text);
  conn_clear_request (conn);
  conn->state = CONN_HANDLING;
  conn->response_done = TRUE;
  conn->close_after = TRUE;
  conn_queue (conn, g_string_free_to_bytes (response));
}

/* Reading -------------------------------------------------------------------------------- */

static void
read_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  Conn *conn = user_data;
  g_autoptr(GError) error = NULL;
  gssize n;

  /* This read holds a reference, and the server another until conn_close(). */
  g_assert (conn->refs >= (conn->server != NULL ? 2 : 1));
  conn->reading = FALSE;
  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  if (conn->server == NULL)
    {
      conn_unref (conn);
      return;
    }

  if (n <= 0)
    {
      if (n < 0)
        g_debug ("Cannot read from a client: %s", error->message);
      /* The client went away (or half-closed, which HTTP gives no meaning). */
      conn_close (conn);
    }
  else if (conn->state == CONN_LINGER)
    {
      conn->lingered += n;
      if (conn->lingered > LINGER_BYTES)
        conn_close (conn);
      else
        conn_want_read (conn);
    }
  else
    {
      g_byte_array_append (conn->input, conn->buffer, n);
      conn_process (conn);
    }

  conn_unref (conn);
}

static void
conn_want_read (Conn *conn)
{
  if (conn->server == NULL || conn->reading)
    return;

  /* While a response is pending, reading only watches for the client going away; what a
   * client sends ahead (the next request) waits, within bounds. */
  if (conn->state == CONN_HANDLING && conn->input->len >= MAX_HEAD)
    return;

  conn->reading = TRUE;
  g_input_stream_read_async (g_io_stream_get_input_stream (G_IO_STREAM (conn->stream)),
                             conn->buffer, sizeof conn->buffer, G_PRIORITY_DEFAULT,
                             conn->cancellable, read_cb, conn_ref (conn));
}

static void
conn_consume (Conn  *conn,
              gsize  length)
{
  g_byte_array_remove_range (conn->input, 0, length);
}

/* Moves up to conn->remaining bytes of input into the body. */
static void
conn_take_body (Conn *conn)
{
  gsize take = MIN (conn->remaining, conn->input->len);

  g_byte_array_append (conn->body, conn->input->data, take);
  conn_consume (conn, take);
  conn->remaining -= take;
}

/* The length of the line at the start of the input, with its end; 0 when incomplete. */
static gsize
input_line (Conn *conn)
{
  const guint8 *eol = memchr (conn->input->data, '\n', conn->input->len);

  return eol != NULL ? (gsize) (eol - conn->input->data) + 1 : 0;
}

static gboolean
wants_close (SoupHTTPVersion     version,
             SoupMessageHeaders *headers)
{
  if (soup_message_headers_header_contains (headers, "Connection", "close"))
    return TRUE;

  return version == SOUP_HTTP_1_0 &&
         !soup_message_headers_header_contains (headers, "Connection", "Keep-Alive");
}

static void
conn_dispatch (Conn *conn)
{
  LodeHttpServer *server = conn->server;
  LodeHttpRequest *request = g_atomic_rc_box_new0 (LodeHttpRequest);

  g_atomic_ref_count_init (&request->refs);
  request->conn = conn;
  request->method = g_steal_pointer (&conn->method);
  request->path = g_steal_pointer (&conn->path);
  request->version = conn->version;
  request->headers = g_steal_pointer (&conn->headers);
  request->body = conn->body != NULL ? g_byte_array_free_to_bytes (g_steal_pointer (&conn->body))
                                     : g_bytes_new (NULL, 0);
  request->response_headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_RESPONSE);
  conn_clear_request (conn);

  conn_disarm (conn);
  conn->state = CONN_HANDLING;
  conn->response_done = FALSE;
  conn->close_after = wants_close (request->version, request->headers);
  conn->request = request;

  g_signal_emit (server, signals[REQUEST], 0, request);
}

/* Takes the request head off the input; FALSE when it is not all there yet. */
static gboolean
conn_read_head (Conn *conn)
{
  const guint8 *data = conn->input->data;
  gsize length = conn->input->len;
  gsize end = 0;
  guint status;

  /* The head ends with an empty line; a bare LF ends lines too (RFC 9112, 2.2). */
  for (gsize i = 1; i < length && end == 0; i++)
    if (data[i] == '\n' && (data[i - 1] == '\n' || (i >= 2 && data[i - 1] == '\r' &&
                                                    data[i - 2] == '\n')))
      end = i + 1;

  if (end == 0)
    {
      if (length > MAX_HEAD)
        conn_fail (conn, STATUS_HEAD_TOO_LARGE,
                   "The request head is limited to 64 KiB\n");
      return FALSE;
    }
  if (end > MAX_HEAD)
    {
      conn_fail (conn, STATUS_HEAD_TOO_LARGE,
                 "The request head is limited to 64 KiB\n");
      return FALSE;
    }

  conn->headers = soup_message_headers_new (SOUP_MESSAGE_HEADERS_REQUEST);
  status = soup_headers_parse_request ((const char *) data, end, conn->headers, &conn->method,
                                       &conn->path, &conn->version);
  conn_consume (conn, end);
  if (status != SOUP_STATUS_OK)
    {
      conn_fail (conn, status, "Malformed request\n");
      return FALSE;
    }

  /* The path alone, from "/path?query" or the absolute form "http://host/path". */
  if (conn->path[0] != '/' && g_str_has_prefix (conn->path, "http://"))
    {
      g_autoptr(GUri) uri = g_uri_parse (conn->path, G_URI_FLAGS_NONE, NULL);

      g_free (conn->path);
      conn->path = g_strdup (uri != NULL ? g_uri_get_path (uri) : "");
    }
  conn->path[strcspn (conn->path, "?#")] = '\0';

  return TRUE;
}

/* After the head: how the body comes, and whether it may come at all. */
static void
conn_start_body (Conn *conn)
{
  LodeHttpServer *server = conn->server;
  SoupExpectation expect = soup_message_headers_get_expectations (conn->headers);

  if (expect & SOUP_EXPECTATION_UNRECOGNIZED)
    {
      conn_fail (conn, SOUP_STATUS_EXPECTATION_FAILED, "Unknown expectation\n");
      return;
    }

  switch (soup_message_headers_get_encoding (conn->headers))
    {
    case SOUP_ENCODING_CONTENT_LENGTH:
      conn->remaining = soup_message_headers_get_content_length (conn->headers);
      if (conn->remaining > server->max_body_size)
        {
          conn_fail (conn, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
                     "The request body is too large\n");
          return;
        }
      conn->state = conn->remaining > 0 ? CONN_BODY : CONN_HANDLING;
      break;

    case SOUP_ENCODING_CHUNKED:
      conn->state = CONN_CHUNK_SIZE;
      break;

    case SOUP_ENCODING_NONE:
    case SOUP_ENCODING_EOF:
      conn->state = CONN_HANDLING;
      break;

    case SOUP_ENCODING_UNRECOGNIZED:
    case SOUP_ENCODING_BYTERANGES:
    default:
      conn_fail (conn, SOUP_STATUS_NOT_IMPLEMENTED, "Unknown Transfer-Encoding\n");
      return;
    }

  if (conn->state == CONN_HANDLING)
    {
      conn_dispatch (conn);
      return;
    }

  conn->body = g_byte_array_sized_new (MIN (conn->remaining, READ_SIZE));
  if (expect & SOUP_EXPECTATION_CONTINUE)
    conn_queue (conn, g_bytes_new_static ("HTTP/1.1 100 Continue\r\n\r\n",
                                          strlen ("HTTP/1.1 100 Continue\r\n\r\n")));
}

/* A chunk-size line: hexadecimal digits, maybe extensions, a line end. */
static gboolean
conn_read_chunk_size (Conn *conn)
{
  gsize line = input_line (conn);
  guint64 size = 0;
  gsize i = 0;

  if (line == 0)
    {
      if (conn->input->len > MAX_CHUNK_LINE)
        conn_fail (conn, SOUP_STATUS_BAD_REQUEST, "Malformed chunk\n");
      return FALSE;
    }

  for (; i < line && g_ascii_isxdigit (conn->input->data[i]); i++)
    {
      size = size * 16 + g_ascii_xdigit_value (conn->input->data[i]);
      /* Checked at each digit, so that the size cannot overflow. */
      if (size > conn->server->max_body_size)
        {
          conn_fail (conn, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE,
                     "The request body is too large\n");
          return FALSE;
        }
    }
  if (i == 0 || line > MAX_CHUNK_LINE)
    {
      conn_fail (conn, SOUP_STATUS_BAD_REQUEST, "Malformed chunk\n");
      return FALSE;
    }
  conn_consume (conn, line);

  if (size == 0)
    conn->state = CONN_TRAILER;
  else if (conn->body->len + size > conn->server->max_body_size)
    {
      conn_fail (conn, SOUP_STATUS_REQUEST_ENTITY_TOO_LARGE, "The request body is too large\n");
      return FALSE;
    }
  else
    {
      conn->remaining = size;
      conn->state = CONN_CHUNK_DATA;
    }

  return TRUE;
}

/* Parses what the input holds; each step consumes input, changes state, or returns. */
static void
conn_process (Conn *conn)
{
  gboolean empty;
  gsize line;

  for (;;)
    {
      if (conn->server == NULL)
        return;

      switch (conn->state)
        {
        case CONN_IDLE:
          if (conn->input->len == 0)
            goto read_more;
          conn->state = CONN_HEAD;
          conn_arm (conn, conn->server->request_timeout);
          break;

        case CONN_HEAD:
          if (!conn_read_head (conn))
            goto read_more;
          conn_start_body (conn);
          break;

        case CONN_BODY:
          conn_take_body (conn);
          if (conn->remaining > 0)
            goto read_more;
          conn_dispatch (conn);
          break;

        case CONN_CHUNK_SIZE:
          if (!conn_read_chunk_size (conn))
            goto read_more;
          break;

        case CONN_CHUNK_DATA:
          conn_take_body (conn);
          if (conn->remaining > 0)
            goto read_more;
          conn->state = CONN_CHUNK_END;
          break;

        case CONN_CHUNK_END:
        case CONN_TRAILER:
          line = input_line (conn);
          if (line == 0)
            {
              if (conn->input->len > MAX_CHUNK_LINE)
                conn_fail (conn, SOUP_STATUS_BAD_REQUEST, "Malformed chunk\n");
              goto read_more;
            }
          empty = line == 1 || (line == 2 && conn->input->data[0] == '\r');
          conn_consume (conn, line);
          if (conn->state == CONN_CHUNK_END)
            {
              /* After a chunk's data the line must be empty. */
              if (!empty)
                conn_fail (conn, SOUP_STATUS_BAD_REQUEST, "Malformed chunk\n");
              else
                conn->state = CONN_CHUNK_SIZE;
            }
          else if (empty)
            conn_dispatch (conn);
          /* Trailer fields are skipped, within the bounds of a head. */
          else if ((conn->remaining += line) > MAX_HEAD)
            conn_fail (conn, STATUS_HEAD_TOO_LARGE,
                       "The request trailer is limited to 64 KiB\n");
          break;

        case CONN_HANDLING:
        case CONN_LINGER:
        default:
          goto read_more;
        }
    }

read_more:
  conn_want_read (conn);
}

/* Accepting ------------------------------------------------------------------------------ */

static void
refuse (GSocket *socket)
{
  static const char busy[] = "HTTP/1.1 503 Service Unavailable\r\n"
                             "Content-Type: text/plain; charset=utf-8\r\n"
                             "Retry-After: 1\r\nConnection: close\r\nContent-Length: 23\r\n\r\n"
                             "Too many connections.\r\n";

  g_socket_set_blocking (socket, FALSE);
  g_socket_send (socket, busy, strlen (busy), NULL, NULL);
  g_socket_shutdown (socket, FALSE, TRUE, NULL);
  g_socket_close (socket, NULL);
}

static void
add_connection (LodeHttpServer *self,
                GSocket        *socket)
{
  Conn *conn = g_new0 (Conn, 1);

  g_socket_set_option (socket, IPPROTO_TCP, TCP_NODELAY, TRUE, NULL);
  conn->refs = 1;
  conn->server = self;
  conn->stream = g_socket_connection_factory_create_connection (socket);
  conn->cancellable = g_cancellable_new ();
  conn->input = g_byte_array_new ();
  conn->state = CONN_IDLE;
  conn->idle_since = g_get_monotonic_time ();
  self->conns = g_list_prepend (self->conns, conn);
  self->n_conns++;

  /* A new connection gets the request timeout for its first request, not the idle one. */
  conn_arm (conn, self->request_timeout);
  conn_want_read (conn);
}

/* Whether @conn may be closed to make room: its response is written and it only drains
 * what the client still sends, or it has been idle for EVICT_GRACE_MS at least (bytes
 * waiting in the socket, as for a connection accepted in this batch whose request came
 * with it, are a request on its way). */
static gboolean
conn_is_evictable (Conn   *conn,
                   gint64  now)
{
  if (conn->state == CONN_LINGER)
    return TRUE;

  return conn->state == CONN_IDLE && conn->input->len == 0 &&
         g_socket_get_available_bytes (conn_get_socket (conn)) == 0 &&
         now - conn->idle_since >= EVICT_GRACE_MS * 1000;
}

/* Closes the connection idle the longest (a lingering one first), to make room; FALSE when
 * none is idle. */
static gboolean
evict_idle (LodeHttpServer *self)
{
  gint64 now = g_get_monotonic_time ();
  Conn *oldest = NULL;

  /* The list runs from the newest connection: ties go to the older one. */
  for (GList *l = self->conns; l != NULL; l = l->next)
    {
      Conn *conn = l->data;

      if (conn_is_evictable (conn, now) &&
          (oldest == NULL || (conn->state == CONN_LINGER) > (oldest->state == CONN_LINGER) ||
           ((conn->state == CONN_LINGER) == (oldest->state == CONN_LINGER) &&
            conn->idle_since <= oldest->idle_since)))
        oldest = conn;
    }
  if (oldest == NULL)
    return FALSE;

  g_debug ("Closing a connection idle for %" G_GINT64_FORMAT " ms to make room",
           (now - oldest->idle_since) / 1000);
  conn_close (oldest);
  return TRUE;
}

static gboolean
accept_retry_cb (gpointer user_data)
{
  LodeHttpServer *self = user_data;

  g_clear_pointer (&self->accept_retry, g_source_unref);
  start_accepting (self);

  return G_SOURCE_REMOVE;
}

static gboolean
accept_cb (GSocket      *listener,
           GIOCondition  condition,
           gpointer      user_data)
{
  LodeHttpServer *self = user_data;

  for (guint i = 0; i < ACCEPT_BATCH; i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GSocket) socket = g_socket_accept (listener, NULL, &error);

      if (socket == NULL)
        {
          if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_WOULD_BLOCK))
            return G_SOURCE_CONTINUE;

          /* Out of descriptors (EMFILE, ENFILE) or memory: the connection waits in the
           * backlog. Polling again at once would spin, so accepting pauses for a while. */
          if (!self->accept_failing)
            g_warning ("Cannot accept a connection (trying again every %u ms): %s",
                       ACCEPT_RETRY_MS, error->message);
          self->accept_failing = TRUE;
          g_clear_pointer (&self->accept_source, g_source_unref);
          self->accept_retry = g_timeout_source_new (ACCEPT_RETRY_MS);
          g_source_set_callback (self->accept_retry, accept_retry_cb, self, NULL);
          g_source_attach (self->accept_retry, g_main_context_get_thread_default ());
          return G_SOURCE_REMOVE;
        }

      if (self->accept_failing)
        g_message ("Accepting connections again");
      self->accept_failing = FALSE;

      if (self->n_conns >= self->max_connections && !evict_idle (self))
        {
          g_debug ("Refusing a connection: %u are open, none idle", self->n_conns);
          refuse (socket);
        }
      else
        add_connection (self, socket);
    }

  return G_SOURCE_CONTINUE;
}

static void
start_accepting (LodeHttpServer *self)
{
  self->accept_source = g_socket_create_source (self->listener, G_IO_IN, NULL);
  g_source_set_callback (self->accept_source, (GSourceFunc) G_CALLBACK (accept_cb), self, NULL);
  g_source_set_static_name (self->accept_source, "[lode] http accept");
  g_source_attach (self->accept_source, g_main_context_get_thread_default ());
}

static void
stop_accepting (LodeHttpServer *self)
{
  if (self->accept_source != NULL)
    g_source_destroy (self->accept_source);
  g_clear_pointer (&self->accept_source, g_source_unref);
  if (self->accept_retry != NULL)
    g_source_destroy (self->accept_retry);
  g_clear_pointer (&self->accept_retry, g_source_unref);
}

/* The object ----------------------------------------------------------------------------- */

static void
lode_http_server_dispose (GObject *object)
{
  LodeHttpServer *self = (LodeHttpServer *)object;

  lode_http_server_disconnect (self);

  G_OBJECT_CLASS (lode_http_server_parent_class)->dispose (object);
}

static void
lode_http_server_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  LodeHttpServer *self = LODE_HTTP_SERVER (object);

  switch (prop_id)
    {
    case PROP_MAX_CONNECTIONS:
      g_value_set_uint (value, self->max_connections);
      break;
    case PROP_MAX_BODY_SIZE:
      g_value_set_uint64 (value, self->max_body_size);
      break;
    case PROP_REQUEST_TIMEOUT:
      g_value_set_uint (value, self->request_timeout);
      break;
    case PROP_IDLE_TIMEOUT:
      g_value_set_uint (value, self->idle_timeout);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_http_server_set_property (GObject      *object,
                               guint         prop_id,
                               const GValue *value,
                               GParamSpec   *pspec)
{
  LodeHttpServer *self = LODE_HTTP_SERVER (object);

  switch (prop_id)
    {
    case PROP_MAX_CONNECTIONS:
      self->max_connections = g_value_get_uint (value);
      break;
    case PROP_MAX_BODY_SIZE:
      self->max_body_size = g_value_get_uint64 (value);
      break;
    case PROP_REQUEST_TIMEOUT:
      self->request_timeout = g_value_get_uint (value);
      break;
    case PROP_IDLE_TIMEOUT:
      self->idle_timeout = g_value_get_uint (value);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_http_server_class_init (LodeHttpServerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_http_server_dispose;
  object_class->get_property = lode_http_server_get_property;
  object_class->set_property = lode_http_server_set_property;

  /* Connections open at once; one more is answered 503 and closed. */
  properties [PROP_MAX_CONNECTIONS] =
    g_param_spec_uint ("max-connections", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_MAX_CONNECTIONS,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /* The largest request body, in bytes; a larger one is refused with 413. */
  properties [PROP_MAX_BODY_SIZE] =
    g_param_spec_uint64 ("max-body-size", NULL, NULL,
                         0, G_MAXUINT32, DEFAULT_MAX_BODY_SIZE,
                         (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /* Milliseconds a request may take to arrive, and a response write to complete. */
  properties [PROP_REQUEST_TIMEOUT] =
    g_param_spec_uint ("request-timeout", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_REQUEST_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  /* Milliseconds a kept-alive connection may wait for its next request. */
  properties [PROP_IDLE_TIMEOUT] =
    g_param_spec_uint ("idle-timeout", NULL, NULL,
                       1, G_MAXUINT, DEFAULT_IDLE_TIMEOUT,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  /**
   * LodeHttpServer::request:
   * @self: the server
   * @request: a request, read whole
   *
   * Every request must be answered, now or later, with lode_http_request_respond() or a
   * stream; take a reference to answer later.
   */
  signals [REQUEST] =
    g_signal_new ("request",
                  G_TYPE_FROM_CLASS (klass),
                  G_SIGNAL_RUN_LAST,
                  0, NULL, NULL, NULL,
                  G_TYPE_NONE, 1, LODE_TYPE_HTTP_REQUEST | G_SIGNAL_TYPE_STATIC_SCOPE);
}

static void
lode_http_server_init (LodeHttpServer *self)
{
}

/**
 * lode_http_server_new:
 *
 * Returns: (transfer full): a server with the default limits, not listening yet
 */
LodeHttpServer *
lode_http_server_new (void)
{
  return g_object_new (LODE_TYPE_HTTP_SERVER, NULL);
}

/**
 * lode_http_server_listen:
 * @self: a #LodeHttpServer
 * @port: a TCP port, 0 for any free one
 * @error: return location for a #GError
 *
 * Listens on 127.0.0.1:@port.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_http_server_listen (LodeHttpServer  *self,
                         guint            port,
                         GError         **error)
{
  g_autoptr(GSocket) listener = NULL;
  g_autoptr(GInetAddress) loopback = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GSocketAddress) bound = NULL;

  g_return_val_if_fail (LODE_IS_HTTP_SERVER (self), FALSE);
  g_return_val_if_fail (self->listener == NULL, FALSE);

  listener = g_socket_new (G_SOCKET_FAMILY_IPV4, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_TCP,
                           error);
  if (listener == NULL)
    return FALSE;

  loopback = g_inet_address_new_loopback (G_SOCKET_FAMILY_IPV4);
  address = g_inet_socket_address_new (loopback, port);
  g_socket_set_blocking (listener, FALSE);
  g_socket_set_listen_backlog (listener, LISTEN_BACKLOG);
  if (!g_socket_bind (listener, address, TRUE, error) || !g_socket_listen (listener, error))
    return FALSE;

  bound = g_socket_get_local_address (listener, error);
  if (bound == NULL)
    return FALSE;

  self->port = g_inet_socket_address_get_port (G_INET_SOCKET_ADDRESS (bound));
  self->listener = g_steal_pointer (&listener);
  start_accepting (self);

  return TRUE;
}

guint
lode_http_server_get_port (LodeHttpServer *self)
{
  g_return_val_if_fail (LODE_IS_HTTP_SERVER (self), 0);
  return self->port;
}

guint
lode_http_server_get_n_connections (LodeHttpServer *self)
{
  g_return_val_if_fail (LODE_IS_HTTP_SERVER (self), 0);
  return self->n_conns;
}

/**
 * lode_http_server_disconnect:
 * @self: a #LodeHttpServer
 *
 * Stops listening and closes every connection, aborting the requests not answered yet.
 */
void
lode_http_server_disconnect (LodeHttpServer *self)
{
  g_return_if_fail (LODE_IS_HTTP_SERVER (self));

  stop_accepting (self);
  if (self->listener != NULL)
    g_socket_close (self->listener, NULL);
  g_clear_object (&self->listener);
  while (self->conns != NULL)
    conn_close (self->conns->data);
}

/* Requests ------------------------------------------------------------------------------- */

LodeHttpRequest *
lode_http_request_ref (LodeHttpRequest *request)
{
  g_return_val_if_fail (request != NULL, NULL);

  g_atomic_ref_count_inc (&request->refs);
  return request;
}

void
lode_http_request_unref (LodeHttpRequest *request)
{
  g_return_if_fail (request != NULL);

  if (!g_atomic_ref_count_dec (&request->refs))
    return;

  g_free (request->method);
  g_free (request->path);
  soup_message_headers_unref (request->headers);
  g_bytes_unref (request->body);
  soup_message_headers_unref (request->response_headers);
  g_atomic_rc_box_release (request);
}

const char *
lode_http_request_get_method (LodeHttpRequest *request)
{
  return request->method;
}

/* The path of the request target, without its query. */
const char *
lode_http_request_get_path (LodeHttpRequest *request)
{
  return request->path;
}

SoupMessageHeaders *
lode_http_request_get_headers (LodeHttpRequest *request)
{
  return request->headers;
}

GBytes *
lode_http_request_get_body (LodeHttpRequest *request)
{
  return request->body;
}

/* Headers to send with the response, set before it starts. */
SoupMessageHeaders *
lode_http_request_get_response_headers (LodeHttpRequest *request)
{
  return request->response_headers;
}

/**
 * lode_http_request_set_abort_func:
 * @request: a #LodeHttpRequest
 * @func: (nullable): called once if the connection ends before the response is written
 * @user_data: user data for @func
 */
void
lode_http_request_set_abort_func (LodeHttpRequest   *request,
                                  LodeHttpAbortFunc  func,
                                  gpointer           user_data)
{
  request->abort_func = func;
  request->abort_data = user_data;
}

/**
 * lode_http_request_respond:
 * @request: a #LodeHttpRequest
 * @status: an HTTP status
 * @content_type: (nullable): the type of @body
 * @body: (nullable) (transfer full): the response body
 *
 * Answers @request. Nothing happens when its connection is gone.
 */
void
lode_http_request_respond (LodeHttpRequest *request,
                           guint            status,
                           const char      *content_type,
                           GBytes          *body)
{
  g_autoptr(GBytes) owned = body;
  Conn *conn = request->conn;
  gsize length = owned != NULL ? g_bytes_get_size (owned) : 0;
  GString *response;

  g_return_if_fail (!request->responded);

  request->responded = TRUE;
  if (conn == NULL)
    return;

  if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
    conn->close_after = TRUE;
  response = response_head (status, content_type, request->response_headers, conn->close_after);
  g_string_append_printf (response, "Content-Length: %zu\r\n\r\n", length);
  if (length > 0 && !g_str_equal (request->method, "HEAD"))
    g_string_append_len (response, g_bytes_get_data (owned, NULL), length);

  conn->response_done = TRUE;
  conn_queue (conn, g_string_free_to_bytes (response));
}

/**
 * lode_http_request_begin_stream:
 * @request: a #LodeHttpRequest
 * @status: an HTTP status
 * @content_type: the type of what follows
 *
 * Starts a response of unknown length, written in parts with lode_http_request_write()
 * and ended with lode_http_request_end_stream().
 */
void
lode_http_request_begin_stream (LodeHttpRequest *request,
                                guint            status,
                                const char      *content_type)
{
  Conn *conn = request->conn;
  GString *head;

  g_return_if_fail (!request->responded);

  request->responded = TRUE;
  request->streaming = TRUE;
  if (conn == NULL)
    return;

  /* HTTP/1.0 knows no chunks: the end of the connection ends the response. */
  request->chunked = request->version >= SOUP_HTTP_1_1;
  if (!request->chunked)
    conn->close_after = TRUE;
  head = response_head (status, content_type, request->response_headers, conn->close_after);
  if (request->chunked)
    g_string_append (head, "Transfer-Encoding: chunked\r\n");
  g_string_append (head, "\r\n");
  conn_queue (conn, g_string_free_to_bytes (head));
}

/**
 * lode_http_request_write:
 * @request: a #LodeHttpRequest with a stream begun
 * @data: (transfer full): the next part of the response
 */
void
lode_http_request_write (LodeHttpRequest *request,
                         GBytes          *data)
{
  g_autoptr(GBytes) owned = data;
  gsize length = g_bytes_get_size (data);
  GString *chunk;

  g_return_if_fail (request->streaming);

  if (request->conn == NULL || request->conn->response_done || length == 0)
    return;

  if (!request->chunked)
    {
      conn_queue (request->conn, g_steal_pointer (&owned));
      return;
    }

  chunk = g_string_sized_new (length + 16);
  g_string_append_printf (chunk, "%zx\r\n", length);
  g_string_append_len (chunk, g_bytes_get_data (data, NULL), length);
  g_string_append (chunk, "\r\n");
  conn_queue (request->conn, g_string_free_to_bytes (chunk));
}

void
lode_http_request_end_stream (LodeHttpRequest *request)
{
  Conn *conn = request->conn;

  g_return_if_fail (request->streaming);

  if (conn == NULL || conn->response_done)
    return;

  conn->response_done = TRUE;
  conn_queue (conn, request->chunked ? g_bytes_new_static ("0\r\n\r\n", 5)
                                     : g_bytes_new (NULL, 0));
}
