/* test-http-server.c — LodeHttpServer and LodeMcpHttp in-process, with small limits
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>
#include <unistd.h>

#include "http-client.h"
#include "lode-client.h"
#include "lode-http-server.h"
#include "lode-mcp-http.h"

/* The server runs on this thread's main context; each client runs on a thread of its own,
 * with blocking sockets, while the main context turns. */

typedef struct
{
  LodeHttpServer  *server;
  guint            port;
  GPtrArray       *held;       /* requests the handler keeps unanswered */
  guint            aborted;
  guint            handled;
  gint             open;       /* connections, as the main thread last saw them */
  gint             holding;    /* requests held, as the main thread last saw them */
} Fixture;

typedef void (*ClientFunc) (Fixture *fixture);

typedef struct
{
  Fixture    *fixture;
  ClientFunc  func;
  gint        done;
} Client;

static gpointer
client_thread_func (gpointer user_data)
{
  Client *client = user_data;

  client->func (client->fixture);
  g_atomic_int_set (&client->done, TRUE);
  g_main_context_wakeup (NULL);

  return NULL;
}

static gboolean
watchdog_cb (gpointer user_data)
{
  g_error ("The client did not finish in time");
  return G_SOURCE_REMOVE;
}

/* Runs @func on a client thread until it returns. */
static void
run_client (Fixture    *fixture,
            ClientFunc  func)
{
  Client client = { fixture, func, FALSE };
  GThread *thread = g_thread_new ("client", client_thread_func, &client);
  guint watchdog = g_timeout_add_seconds (60, watchdog_cb, NULL);

  while (!g_atomic_int_get (&client.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);
  g_source_remove (watchdog);
}

static void
abort_cb (LodeHttpRequest *request,
          gpointer         user_data)
{
  Fixture *fixture = user_data;

  fixture->aborted++;
}

/* Echoes the body; "/hold" is kept unanswered, "/stream" answers in parts. */
static void
request_cb (LodeHttpServer  *server,
            LodeHttpRequest *request,
            Fixture         *fixture)
{
  const char *path = lode_http_request_get_path (request);

  fixture->handled++;
  if (g_str_equal (path, "/hold"))
    {
      lode_http_request_set_abort_func (request, abort_cb, fixture);
      g_ptr_array_add (fixture->held, lode_http_request_ref (request));
    }
  else if (g_str_equal (path, "/stream"))
    {
      lode_http_request_begin_stream (request, 200, "text/plain");
      lode_http_request_write (request, g_bytes_new_static ("a", 1));
      lode_http_request_write (request, g_bytes_new_static ("bc", 2));
      lode_http_request_end_stream (request);
    }
  else if (g_str_equal (path, "/deny"))
    lode_http_request_respond (request, 401, "text/plain",
                               g_bytes_new_static ("no\n", 3));
  else if (g_str_equal (path, "/big"))
    {
      /* More than the socket buffers of both ends hold. */
      gsize size = 16 * 1024 * 1024;

      lode_http_request_respond (request, 200, "text/plain",
                                 g_bytes_new_take (g_malloc0 (size), size));
    }
  else
    lode_http_request_respond (request, 200, "text/plain",
                               g_bytes_ref (lode_http_request_get_body (request)));
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  /* Short timeouts for the tests of timeouts; others get time to spare (under valgrind). */
  guint timeout = user_data != NULL ? GPOINTER_TO_UINT (user_data) : 5000;

  fixture->server = g_object_new (LODE_TYPE_HTTP_SERVER,
                                  "max-connections", 2,
                                  "max-body-size", (guint64) 1000,
                                  "request-timeout", timeout,
                                  "idle-timeout", timeout,
                                  NULL);
  g_signal_connect (fixture->server, "request", G_CALLBACK (request_cb), fixture);
  g_assert_true (lode_http_server_listen (fixture->server, 0, &error));
  g_assert_no_error (error);
  fixture->port = lode_http_server_get_port (fixture->server);
  fixture->held = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_http_request_unref);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  user_data)
{
  g_clear_object (&fixture->server);
  g_ptr_array_unref (fixture->held);
}

static Response *
exchange (Fixture    *fixture,
          const char *request)
{
  int fd = connect_to (fixture->port, 5);
  Response *response = NULL;

  if (send_text (fd, request))
    response = read_response (fd);
  close (fd);

  return response;
}

/* Two requests in one write, on one connection, each with its answer, in order. */
static void
pipelined_client (Fixture *fixture)
{
  int fd = connect_to (fixture->port, 5);
  g_autoptr(Response) first = NULL;
  g_autoptr(Response) second = NULL;

  g_assert_true (send_text (fd, "POST /a HTTP/1.1\r\nContent-Length: 5\r\n\r\nfirst"
                                "POST /b HTTP/1.1\r\nContent-Length: 6\r\n\r\nsecond"));
  first = read_response (fd);
  second = read_response (fd);
  close (fd);
  g_assert_cmpstr (first->body->str, ==, "first");
  g_assert_cmpstr (second->body->str, ==, "second");
  g_assert_false (g_hash_table_contains (first->headers, "connection"));
}

static void
test_keep_alive (Fixture       *fixture,
                 gconstpointer  user_data)
{
  run_client (fixture, pipelined_client);
  g_assert_cmpuint (fixture->handled, ==, 2);
}

static void
chunked_client (Fixture *fixture)
{
  g_autoptr(Response) response =
    exchange (fixture, "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "3\r\nhel\r\n2;name=value\r\nlo\r\n0\r\nTrailer: x\r\n\r\n");
  g_autoptr(Response) malformed =
    exchange (fixture, "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "3\r\nhello\r\n0\r\n\r\n");
  g_autoptr(Response) no_digits =
    exchange (fixture, "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n");
  g_autoptr(Response) unknown =
    exchange (fixture, "POST /echo HTTP/1.1\r\nTransfer-Encoding: gzip\r\n\r\n");

  g_assert_cmpuint (response->status, ==, 200);
  g_assert_cmpstr (response->body->str, ==, "hello");
  g_assert_cmpuint (malformed->status, ==, 400);
  g_assert_cmpuint (no_digits->status, ==, 400);
  g_assert_cmpuint (unknown->status, ==, 501);
}

static void
test_chunked (Fixture       *fixture,
              gconstpointer  user_data)
{
  run_client (fixture, chunked_client);
}

static void
limits_client (Fixture *fixture)
{
  g_autofree char *exact_body = g_strnfill (1000, 'x');
  g_autofree char *exact = g_strdup_printf ("POST /echo HTTP/1.1\r\nContent-Length: 1000\r\n\r\n%s",
                                            exact_body);
  g_autofree char *big_head = g_strdup_printf ("GET / HTTP/1.1\r\nX: %0*d\r\n\r\n",
                                               70 * 1024, 0);
  g_autoptr(Response) fits = exchange (fixture, exact);
  g_autoptr(Response) announced =
    exchange (fixture, "POST /echo HTTP/1.1\r\nContent-Length: 1001\r\n\r\n");
  g_autoptr(Response) chunks =
    exchange (fixture, "POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n"
                       "1f4\r\n");
  g_autoptr(Response) chunks_over = NULL;
  g_autoptr(Response) head = exchange (fixture, big_head);
  g_autoptr(GString) over = g_string_new ("POST /echo HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
  g_autoptr(Response) continued = NULL;
  int fd;

  g_assert_cmpuint (fits->status, ==, 200);
  g_assert_cmpuint (fits->body->len, ==, 1000);
  g_assert_cmpuint (announced->status, ==, 413);
  g_assert_cmpstr (g_hash_table_lookup (announced->headers, "connection"), ==, "close");
  /* 500 bytes announced: fine so far, the client just never sends them. */
  g_assert_null (chunks);
  g_assert_cmpuint (head->status, ==, 431);

  /* 600 + 600 bytes of chunks: refused at the second, before its data. */
  g_string_append_printf (over, "258\r\n%s\r\n258\r\n", exact_body + 400);
  chunks_over = exchange (fixture, over->str);
  g_assert_cmpuint (chunks_over->status, ==, 413);

  /* Expect: 100-continue is answered before the body. */
  fd = connect_to (fixture->port, 5);
  g_assert_true (send_text (fd, "POST /echo HTTP/1.1\r\nContent-Length: 2\r\n"
                                "Expect: 100-continue\r\n\r\n"));
  continued = read_response (fd);
  g_assert_cmpuint (continued->status, ==, 100);
  g_clear_pointer (&continued, response_free);
  g_assert_true (send_text (fd, "ok"));
  continued = read_response (fd);
  close (fd);
  g_assert_cmpuint (continued->status, ==, 200);
  g_assert_cmpstr (continued->body->str, ==, "ok");
}

static void
test_limits (Fixture       *fixture,
             gconstpointer  user_data)
{
  run_client (fixture, limits_client);
}

static void
timeouts_client (Fixture *fixture)
{
  int silent = connect_to (fixture->port, 5);
  int partial = connect_to (fixture->port, 5);
  int idle;
  g_autoptr(Response) response = NULL;

  /* A new connection must send its request within request-timeout (300 ms)... */
  g_assert_true (send_text (partial, "POST /echo HTTP/1.1\r\nContent-Length: 3\r\n\r\nab"));
  g_assert_true (closed_by_server (silent, 3));
  g_assert_true (closed_by_server (partial, 3));
  close (silent);
  close (partial);

  /* ...and a kept-alive one may wait idle-timeout (300 ms) for its next. */
  idle = connect_to (fixture->port, 5);
  g_assert_true (send_text (idle, "POST /echo HTTP/1.1\r\nContent-Length: 2\r\n\r\nok"));
  response = read_response (idle);
  g_assert_cmpuint (response->status, ==, 200);
  g_assert_true (closed_by_server (idle, 3));
  close (idle);
}

static void
test_timeouts (Fixture       *fixture,
               gconstpointer  user_data)
{
  run_client (fixture, timeouts_client);
  g_assert_cmpuint (lode_http_server_get_n_connections (fixture->server), ==, 0);
}

/* A client that does not read its response is dropped once a write stalls. */
static void
stall_client (Fixture *fixture)
{
  int fd = connect_to (fixture->port, 5);
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  g_assert_true (send_text (fd, "GET /big HTTP/1.1\r\n\r\n"));
  /* The connection is counted as soon as it is accepted, and gone once the server gave up
   * on the write; this client has not read a byte, nor closed its end. */
  while (g_atomic_int_get (&fixture->open) == 0 && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  while (g_atomic_int_get (&fixture->open) != 0 && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  g_assert_cmpint (g_atomic_int_get (&fixture->open), ==, 0);
  close (fd);
}

static gboolean
count_cb (gpointer user_data)
{
  Fixture *fixture = user_data;

  g_atomic_int_set (&fixture->open, lode_http_server_get_n_connections (fixture->server));
  g_atomic_int_set (&fixture->holding, fixture->held->len);
  return G_SOURCE_CONTINUE;
}

static void
test_write_stall (Fixture       *fixture,
                  gconstpointer  user_data)
{
  guint counter = g_timeout_add (5, count_cb, fixture);

  run_client (fixture, stall_client);
  g_source_remove (counter);
}

/* At the cap, a new connection takes the place of the one idle the longest; when every
 * connection is busy with a request, it is told 503. */
static void
wait_until (gint *value,
            gint  wanted)
{
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  while (g_atomic_int_get (value) != wanted && g_get_monotonic_time () < deadline)
    g_usleep (10000);
  g_assert_cmpint (g_atomic_int_get (value), ==, wanted);
}

/* At the cap, a new connection takes the place of the one idle the longest (once idle for
 * a moment); when every connection is busy with a request, it is told 503. */
static void
cap_client (Fixture *fixture)
{
  int first = connect_to (fixture->port, 5);
  int second = connect_to (fixture->port, 5);
  int busy[2];
  g_autoptr(Response) served = NULL;
  g_autoptr(Response) refused = NULL;

  wait_until (&fixture->open, 2);
  g_usleep (G_USEC_PER_SEC / 5);
  served = exchange (fixture, "GET /echo HTTP/1.1\r\n\r\n");
  g_assert_nonnull (served);
  g_assert_cmpuint (served->status, ==, 200);
  g_assert_true (closed_by_server (first, 5));
  close (first);
  close (second);
  wait_until (&fixture->open, 0);

  for (guint i = 0; i < G_N_ELEMENTS (busy); i++)
    {
      busy[i] = connect_to (fixture->port, 5);
      g_assert_true (send_text (busy[i], "GET /hold HTTP/1.1\r\n\r\n"));
      wait_until (&fixture->holding, i + 1);
    }
  refused = exchange (fixture, "GET /echo HTTP/1.1\r\n\r\n");
  g_assert_nonnull (refused);
  g_assert_cmpuint (refused->status, ==, 503);
  for (guint i = 0; i < G_N_ELEMENTS (busy); i++)
    close (busy[i]);
}

static void
test_connection_cap (Fixture       *fixture,
                     gconstpointer  user_data)
{
  guint counter = g_timeout_add (5, count_cb, fixture);

  run_client (fixture, cap_client);
  g_source_remove (counter);
}

/* A refused client (401, 403) loses its connection: it cannot keep a place by asking
 * again and again without the right credentials. */
static void
deny_client (Fixture *fixture)
{
  int fd = connect_to (fixture->port, 5);
  g_autoptr(Response) denied = NULL;

  g_assert_true (send_text (fd, "GET /deny HTTP/1.1\r\n\r\n"));
  denied = read_response (fd);
  g_assert_nonnull (denied);
  g_assert_cmpuint (denied->status, ==, 401);
  g_assert_cmpstr (g_hash_table_lookup (denied->headers, "connection"), ==, "close");
  g_assert_true (closed_by_server (fd, 5));
  close (fd);
}

static void
test_deny_closes (Fixture       *fixture,
                  gconstpointer  user_data)
{
  run_client (fixture, deny_client);
}

static void
hold_client (Fixture *fixture)
{
  int fd = connect_to (fixture->port, 5);

  g_assert_true (send_text (fd, "GET /hold HTTP/1.1\r\n\r\n"));
  /* The request timeout does not apply while the handler works on the answer. */
  g_usleep (G_USEC_PER_SEC / 2);
  close (fd);
}

/* The client leaving before its answer aborts the request; answering it later is harmless. */
static void
test_abort (Fixture       *fixture,
            gconstpointer  user_data)
{
  run_client (fixture, hold_client);
  while (fixture->aborted == 0)
    g_main_context_iteration (NULL, TRUE);

  g_assert_cmpuint (fixture->aborted, ==, 1);
  g_assert_cmpuint (fixture->held->len, ==, 1);
  lode_http_request_respond (g_ptr_array_index (fixture->held, 0), 200, NULL, NULL);
  g_assert_cmpuint (lode_http_server_get_n_connections (fixture->server), ==, 0);
}

static void
stream_client (Fixture *fixture)
{
  g_autoptr(Response) chunked = exchange (fixture, "GET /stream HTTP/1.1\r\n\r\n");
  g_autoptr(Response) plain = NULL;
  int fd = connect_to (fixture->port, 5);

  g_assert_cmpuint (chunked->status, ==, 200);
  g_assert_cmpstr (g_hash_table_lookup (chunked->headers, "transfer-encoding"), ==, "chunked");
  /* read_response() leaves the chunks as they came. */
  g_assert_cmpstr (chunked->body->str, ==, "1\r\na\r\n2\r\nbc\r\n0\r\n\r\n");

  /* HTTP/1.0 knows no chunks: the end of the connection ends the body. */
  g_assert_true (send_text (fd, "GET /stream HTTP/1.0\r\n\r\n"));
  plain = read_response (fd);
  close (fd);
  g_assert_cmpstr (g_hash_table_lookup (plain->headers, "connection"), ==, "close");
  g_assert_cmpstr (plain->body->str, ==, "abc");
}

static void
test_stream (Fixture       *fixture,
             gconstpointer  user_data)
{
  run_client (fixture, stream_client);
}

/* LodeMcpHttp: sessions ------------------------------------------------------------------ */

typedef struct
{
  LodeMcpHttp *http;
  guint        port;
  char        *first;
  char        *second;
} Sessions;

static Sessions *sessions;

static char *
initialize_session (guint port)
{
  static const char body[] = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                             "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},"
                             "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";
  g_autofree char *request = g_strdup_printf ("POST /mcp HTTP/1.1\r\n"
                                              "Content-Type: application/json\r\n"
                                              "Content-Length: %zu\r\n\r\n%s",
                                              strlen (body), body);
  int fd = connect_to (port, 5);
  g_autoptr(Response) response = NULL;

  g_assert_true (send_text (fd, request));
  response = read_response (fd);
  close (fd);
  g_assert_cmpuint (response->status, ==, 200);

  return g_strdup (g_hash_table_lookup (response->headers, "mcp-session-id"));
}

static guint
ping_session (guint       port,
              const char *session_id)
{
  static const char body[] = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
  g_autofree char *request = g_strdup_printf ("POST /mcp HTTP/1.1\r\n"
                                              "Content-Type: application/json\r\n"
                                              "MCP-Session-Id: %s\r\n"
                                              "Content-Length: %zu\r\n\r\n%s",
                                              session_id, strlen (body), body);
  int fd = connect_to (port, 5);
  g_autoptr(Response) response = NULL;

  g_assert_true (send_text (fd, request));
  response = read_response (fd);
  close (fd);

  return response->status;
}

static void
expiry_client (Fixture *fixture)
{
  sessions->first = initialize_session (sessions->port);
  g_assert_cmpuint (ping_session (sessions->port, sessions->first), ==, 200);
  /* Idle past the session timeout (200 ms). */
  g_usleep (G_USEC_PER_SEC / 2);
  g_assert_cmpuint (ping_session (sessions->port, sessions->first), ==, 404);
}

static void
cap_sessions_client (Fixture *fixture)
{
  sessions->first = initialize_session (sessions->port);
  sessions->second = initialize_session (sessions->port);
  g_assert_cmpuint (ping_session (sessions->port, sessions->second), ==, 200);
  /* max-sessions is 1: the second pushed the first out. */
  g_assert_cmpuint (ping_session (sessions->port, sessions->first), ==, 404);
}

static void
run_sessions (guint      max_sessions,
              guint      timeout,
              ClientFunc func)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = lode_config_load (&error);
  g_autoptr(LodeClient) client = NULL;
  Sessions state = { NULL };

  g_assert_no_error (error);
  client = lode_client_new (config, LODE_CLIENT_IN_PROCESS, &error);
  g_assert_no_error (error);
  state.http = lode_mcp_http_new (client, NULL);
  g_object_set (state.http, "max-sessions", max_sessions, "session-timeout", timeout, NULL);
  g_assert_true (lode_mcp_http_listen (state.http, 0, &error));
  g_assert_no_error (error);
  state.port = lode_mcp_http_get_port (state.http);
  sessions = &state;
  run_client (NULL, func);
  sessions = NULL;

  g_assert_cmpstr (state.first, !=, state.second);
  lode_mcp_http_stop (state.http);
  g_object_unref (state.http);
  g_free (state.first);
  g_free (state.second);
}

static void
test_session_expiry (void)
{
  run_sessions (256, 200, expiry_client);
}

static void
test_session_cap (void)
{
  run_sessions (1, 60000, cap_sessions_client);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, timeout, func) \
  g_test_add (path, Fixture, GUINT_TO_POINTER (timeout), fixture_setup, func, fixture_teardown)
  ADD ("/lode/http-server/keep-alive", 0, test_keep_alive);
  ADD ("/lode/http-server/chunked", 0, test_chunked);
  ADD ("/lode/http-server/limits", 300, test_limits);
  ADD ("/lode/http-server/timeouts", 300, test_timeouts);
  ADD ("/lode/http-server/write-stall", 300, test_write_stall);
  ADD ("/lode/http-server/connection-cap", 0, test_connection_cap);
  ADD ("/lode/http-server/deny-closes", 0, test_deny_closes);
  ADD ("/lode/http-server/abort", 0, test_abort);
  ADD ("/lode/http-server/stream", 0, test_stream);
#undef ADD
  g_test_add_func ("/lode/mcp-http/sessions/expiry", test_session_expiry);
  g_test_add_func ("/lode/mcp-http/sessions/cap", test_session_cap);

  return g_test_run ();
}
