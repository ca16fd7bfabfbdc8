/* test-http.c — `lode-mcp --http` under hostile or careless clients, over raw sockets
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <gio/gio.h>
#include <netinet/in.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http-client.h"

#define TOKEN    "t0ken"
#define MIB      (1024 * 1024)

#define INITIALIZE "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":" \
                   "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{}," \
                   "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}"
#define PING       "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}"

typedef struct
{
  GSubprocess *process;
  GThread     *drain;
  GMutex       lock;
  GString     *stderr_text;
  guint        port;
  GPid         pid;
} Server;

static gpointer
drain_thread_func (gpointer user_data)
{
  Server *server = user_data;
  GInputStream *input = g_subprocess_get_stderr_pipe (server->process);
  char buffer[4096];
  gssize n;

  while ((n = g_input_stream_read (input, buffer, sizeof buffer, NULL, NULL)) > 0)
    {
      g_mutex_lock (&server->lock);
      g_string_append_len (server->stderr_text, buffer, n);
      g_mutex_unlock (&server->lock);
    }

  return NULL;
}

static char *
server_dup_stderr (Server *server)
{
  char *text;

  g_mutex_lock (&server->lock);
  text = g_strdup (server->stderr_text->str);
  g_mutex_unlock (&server->lock);

  return text;
}

/* In the child: it dies with the test (an assertion must not leave it running), and gets
 * at most @user_data descriptors when that is not 0. */
static void
child_setup (gpointer user_data)
{
  struct rlimit limit = { GPOINTER_TO_UINT (user_data), GPOINTER_TO_UINT (user_data) };

  prctl (PR_SET_PDEATHSIG, SIGKILL);
  if (limit.rlim_cur > 0)
    setrlimit (RLIMIT_NOFILE, &limit);
}

/* Starts lode-mcp --http on a free port, with @token (NULL: none given), at most
 * @max_files descriptors (0: no limit set), and waits until it listens. */
static Server *
server_start (const char *token,
              guint       max_files)
{
  g_autoptr(GSubprocessLauncher) launcher =
    g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE | G_SUBPROCESS_FLAGS_STDERR_PIPE);
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GError) error = NULL;
  Server *server = g_new0 (Server, 1);
  const char *lode_mcp = g_getenv ("LODE_MCP");
  gint64 deadline = g_get_monotonic_time () + 30 * G_USEC_PER_SEC;

  /* Its data goes to the XDG directories that g_test_init() made for this test. */
  g_assert_nonnull (lode_mcp);
  g_subprocess_launcher_setenv (launcher, "LODE_NO_DAEMON", "1", TRUE);
  g_subprocess_launcher_unsetenv (launcher, "LODE_MCP_TOKEN");
  g_subprocess_launcher_set_child_setup (launcher, child_setup, GUINT_TO_POINTER (max_files),
                                         NULL);

  g_ptr_array_add (argv, (char *) lode_mcp);
  g_ptr_array_add (argv, "--http");
  g_ptr_array_add (argv, "--port=0");
  if (token != NULL)
    {
      g_ptr_array_add (argv, "--token");
      g_ptr_array_add (argv, (char *) token);
    }
  g_ptr_array_add (argv, NULL);

  server->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                  &error);
  g_assert_no_error (error);
  server->pid = atoi (g_subprocess_get_identifier (server->process));
  g_mutex_init (&server->lock);
  server->stderr_text = g_string_new (NULL);
  server->drain = g_thread_new ("stderr", drain_thread_func, server);

  while (server->port == 0)
    {
      g_autofree char *text = server_dup_stderr (server);
      const char *listening = strstr (text, "listening on http://127.0.0.1:");

      if (listening != NULL && strchr (listening, '\n') != NULL)
        server->port = atoi (listening + strlen ("listening on http://127.0.0.1:"));
      else if (g_get_monotonic_time () > deadline)
        g_error ("lode-mcp did not start: %s", text);
      else
        g_usleep (10000);
    }

  return server;
}

static void
server_stop (Server *server)
{
  g_autoptr(GError) error = NULL;

  g_subprocess_send_signal (server->process, SIGTERM);
  g_subprocess_wait (server->process, NULL, &error);
  g_assert_no_error (error);
  g_thread_join (server->drain);
  g_object_unref (server->process);
  g_string_free (server->stderr_text, TRUE);
  g_mutex_clear (&server->lock);
  g_free (server);
}

/* Resident memory of the server, in KiB. */
static guint64
server_rss_kib (Server *server)
{
  g_autofree char *path = g_strdup_printf ("/proc/%d/status", server->pid);
  g_autofree char *status = NULL;
  const char *line;

  g_assert_true (g_file_get_contents (path, &status, NULL, NULL));
  line = strstr (status, "VmRSS:");
  g_assert_nonnull (line);

  return g_ascii_strtoull (line + strlen ("VmRSS:"), NULL, 10);
}

static char *
post_text (guint       port,
           const char *headers,
           const char *body)
{
  return g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                          "Content-Type: application/json\r\n"
                          "Accept: application/json, text/event-stream\r\n"
                          "%sContent-Length: %zu\r\n\r\n%s",
                          port, headers, strlen (body), body);
}

/* POSTs @body with extra @headers ("Name: value\r\n" each) on a new connection. */
static Response *
post (Server     *server,
      const char *headers,
      const char *body)
{
  g_autofree char *request = post_text (server->port, headers, body);
  int fd = connect_to (server->port, 10);
  Response *response = NULL;

  if (send_text (fd, request))
    response = read_response (fd);
  close (fd);

  return response;
}

static char *
initialize (Server *server)
{
  g_autoptr(Response) response = post (server, "Authorization: Bearer " TOKEN "\r\n",
                                       INITIALIZE);

  g_assert_nonnull (response);
  g_assert_cmpuint (response->status, ==, 200);

  return g_strdup (g_hash_table_lookup (response->headers, "mcp-session-id"));
}

static guint
ping (Server     *server,
      const char *session_id)
{
  g_autofree char *headers = g_strdup_printf ("Authorization: Bearer " TOKEN "\r\n"
                                              "MCP-Session-Id: %s\r\n", session_id);
  g_autoptr(Response) response = post (server, headers, PING);

  return response != NULL ? response->status : 0;
}

/* Without --token or LODE_MCP_TOKEN a random token guards the server; it is printed once. */
static void
test_generated_token (void)
{
  Server *server = server_start (NULL, 0);
  g_autofree char *text = server_dup_stderr (server);
  const char *line = strstr (text, "bearer token: ");
  g_autofree char *token = NULL;
  g_autofree char *bearer = NULL;
  g_autofree char *lower = NULL;
  g_autoptr(Response) none = NULL;
  g_autoptr(Response) wrong = NULL;
  g_autoptr(Response) right = NULL;
  g_autoptr(Response) scheme = NULL;

  g_assert_nonnull (line);
  token = g_strndup (line + strlen ("bearer token: "), strcspn (line + strlen ("bearer token: "), "\n"));
  g_assert_cmpuint (strlen (token), ==, 32);
  g_assert_cmpuint (strspn (token, "0123456789abcdef"), ==, 32);
  /* Printed once. */
  g_assert_null (strstr (line + strlen ("bearer token: ") + 32, token));

  none = post (server, "", INITIALIZE);
  g_assert_cmpuint (none->status, ==, 401);
  wrong = post (server, "Authorization: Bearer 0123456789abcdef0123456789abcdef\r\n",
                INITIALIZE);
  g_assert_cmpuint (wrong->status, ==, 401);
  bearer = g_strdup_printf ("Authorization: Bearer %s\r\n", token);
  right = post (server, bearer, INITIALIZE);
  g_assert_cmpuint (right->status, ==, 200);
  /* The scheme is case-insensitive (RFC 9110, 11.1). */
  lower = g_strdup_printf ("Authorization: bEARER %s\r\n", token);
  scheme = post (server, lower, INITIALIZE);
  g_assert_cmpuint (scheme->status, ==, 200);

  server_stop (server);
}

/* Host names are case-insensitive: LOCALHOST is loopback, a foreign one is not. */
static void
test_origin_case (void)
{
  Server *server = server_start (TOKEN, 0);
  g_autofree char *upper_host = NULL;
  g_autoptr(Response) upper_origin = NULL;
  g_autoptr(Response) foreign = NULL;
  g_autoptr(Response) host = NULL;
  int fd;

  upper_origin = post (server, "Authorization: Bearer " TOKEN "\r\n"
                       "Origin: http://LocalHost:6274\r\n", INITIALIZE);
  g_assert_cmpuint (upper_origin->status, ==, 200);
  foreign = post (server, "Authorization: Bearer " TOKEN "\r\n"
                  "Origin: http://LOCALHOST.evil.example\r\n", INITIALIZE);
  g_assert_cmpuint (foreign->status, ==, 403);

  upper_host = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: LOCALHOST:%u\r\n"
                                "Authorization: Bearer " TOKEN "\r\n"
                                "Content-Type: application/json\r\n"
                                "Content-Length: %zu\r\n\r\n%s",
                                server->port, strlen (INITIALIZE), INITIALIZE);
  fd = connect_to (server->port, 10);
  g_assert_true (send_text (fd, upper_host));
  host = read_response (fd);
  close (fd);
  g_assert_cmpuint (host->status, ==, 200);

  server_stop (server);
}

/* A body announced over the limit is refused before it is sent. */
static void
test_body_content_length (void)
{
  Server *server = server_start (TOKEN, 0);
  g_autofree char *request = NULL;
  g_autoptr(Response) response = NULL;
  int fd = connect_to (server->port, 10);

  request = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                             "Authorization: Bearer " TOKEN "\r\n"
                             "Content-Type: application/json\r\n"
                             "Content-Length: %u\r\n\r\n", server->port, 400 * MIB);
  g_assert_true (send_text (fd, request));
  response = read_response (fd);
  g_assert_nonnull (response);
  g_assert_cmpuint (response->status, ==, 413);
  g_assert_true (closed_by_server (fd, 10));
  close (fd);

  server_stop (server);
}

/* A chunked body is refused once it passes the limit, and never held whole. */
static void
test_body_chunked (void)
{
  Server *server = server_start (TOKEN, 0);
  g_autofree char *head = NULL;
  g_autofree char *chunk = g_malloc (MIB);
  g_autofree char *chunk_head = g_strdup_printf ("%x\r\n", MIB);
  g_autoptr(Response) response = NULL;
  guint64 rss_before = server_rss_kib (server);
  guint64 rss_after;
  gsize sent = 0;
  int fd = connect_to (server->port, 10);

  memset (chunk, ' ', MIB);
  head = g_strdup_printf ("POST /mcp HTTP/1.1\r\nHost: 127.0.0.1:%u\r\n"
                          "Authorization: Bearer " TOKEN "\r\n"
                          "Content-Type: application/json\r\n"
                          "Transfer-Encoding: chunked\r\n\r\n", server->port);
  g_assert_true (send_text (fd, head));

  /* Up to 64 MiB, as long as the server reads; it stops at 16. */
  while (sent < 64 * MIB)
    {
      struct pollfd poll_fd = { .fd = fd, .events = POLLIN };

      if (!send_text (fd, chunk_head) || send (fd, chunk, MIB, MSG_NOSIGNAL) != MIB ||
          !send_text (fd, "\r\n"))
        break;
      sent += MIB;
      if (poll (&poll_fd, 1, 0) > 0)
        break;
    }
  rss_after = server_rss_kib (server);

  response = read_response (fd);
  close (fd);
  g_test_message ("Sent %zu MiB; resident memory %" G_GUINT64_FORMAT " → %" G_GUINT64_FORMAT
                  " KiB", sent / MIB, rss_before, rss_after);
  /* Refused after 16 MiB, give or take what the socket buffers held. */
  g_assert_cmpuint (sent, <, 40 * MIB);
  if (response != NULL)
    g_assert_cmpuint (response->status, ==, 413);
  /* At most the 16 MiB taken in and their reallocations (which AddressSanitizer keeps in
   * quarantine), far from the 64 MiB that buffering the whole body costs. */
  g_assert_cmpuint (rss_after, <, rss_before + 48 * 1024);

  server_stop (server);
}

/* Clients without the token cannot lock the real one out: a refusal ends its connection,
 * and at the connection limit (64) the connection idle the longest makes room. */
static void
test_connection_cap (void)
{
  Server *server = server_start (TOKEN, 0);
  g_autoptr(GArray) held = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *denied_request = post_text (server->port, "", INITIALIZE);
  g_autoptr(Response) served = NULL;
  g_autoptr(Response) served_again = NULL;

  for (guint i = 0; i < 64; i++)
    {
      int fd = connect_to (server->port, 10);
      g_autoptr(Response) denied = NULL;

      g_assert_true (send_text (fd, denied_request));
      denied = read_response (fd);
      g_assert_nonnull (denied);
      g_assert_cmpuint (denied->status, ==, 401);
      g_array_append_val (held, fd);
    }
  /* The refused clients keep their end open; the server closed its own. */
  g_assert_true (closed_by_server (g_array_index (held, int, 0), 5));
  served = post (server, "Authorization: Bearer " TOKEN "\r\n", INITIALIZE);
  g_assert_nonnull (served);
  g_assert_cmpuint (served->status, ==, 200);

  /* Connections that send nothing make room once idle for a moment. */
  for (guint i = 0; i < 100; i++)
    {
      int fd = connect_to (server->port, 10);

      g_array_append_val (held, fd);
    }
  g_usleep (G_USEC_PER_SEC / 2);
  served_again = post (server, "Authorization: Bearer " TOKEN "\r\n", INITIALIZE);
  g_assert_nonnull (served_again);
  g_assert_cmpuint (served_again->status, ==, 200);

  for (guint i = 0; i < held->len; i++)
    close (g_array_index (held, int, i));
  server_stop (server);
}

/* A client that starts a request and never ends it is disconnected. */
static void
test_request_timeout (void)
{
  Server *server = server_start (TOKEN, 0);
  int silent = connect_to (server->port, 30);
  int partial = connect_to (server->port, 30);

  g_assert_true (send_text (partial, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n"));
  /* The default timeout is 10 s. */
  g_assert_true (closed_by_server (silent, 20));
  g_assert_true (closed_by_server (partial, 5));
  close (silent);
  close (partial);

  server_stop (server);
}

/* Out of descriptors, the server keeps accepting once some are free again. */
static void
test_accept_emfile (void)
{
  Server *server = server_start (TOKEN, 48);
  g_autoptr(GArray) clients = g_array_new (FALSE, FALSE, sizeof (int));
  g_autofree char *text = NULL;
  g_autofree char *session_id = NULL;

  /* More connections than the server has descriptors: accept() fails with EMFILE. */
  for (guint i = 0; i < 60; i++)
    {
      int fd = try_connect (server->port, 2);

      if (fd >= 0)
        g_array_append_val (clients, fd);
    }
  for (guint attempt = 0; attempt < 600; attempt++)
    {
      g_free (text);
      text = server_dup_stderr (server);
      if (strstr (text, "Cannot accept a connection") != NULL)
        break;
      g_usleep (50000);
    }

  for (guint i = 0; i < clients->len; i++)
    close (g_array_index (clients, int, i));

  session_id = initialize (server);
  g_assert_nonnull (session_id);
  g_assert_cmpuint (ping (server, session_id), ==, 200);
  /* It did run out. */
  g_assert_nonnull (strstr (text, "Cannot accept a connection"));

  server_stop (server);
}

/* Session ids are 128 random bits; past the limit the session idle the longest ends. */
static void
test_sessions (void)
{
  Server *server = server_start (TOKEN, 0);
  g_autofree char *first = initialize (server);
  g_autofree char *last = NULL;

  g_assert_nonnull (first);
  g_assert_cmpuint (strlen (first), ==, 32);
  g_assert_cmpuint (strspn (first, "0123456789abcdef"), ==, 32);
  g_assert_cmpuint (ping (server, first), ==, 200);

  /* The default limit is 256 sessions. */
  for (guint i = 0; i < 300; i++)
    {
      g_free (last);
      last = initialize (server);
      g_assert_cmpstr (last, !=, first);
    }
  g_assert_cmpuint (ping (server, first), ==, 404);
  g_assert_cmpuint (ping (server, last), ==, 200);

  server_stop (server);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/mcp-http/token/generated", test_generated_token);
  g_test_add_func ("/lode/mcp-http/origin/case", test_origin_case);
  g_test_add_func ("/lode/mcp-http/body/content-length", test_body_content_length);
  g_test_add_func ("/lode/mcp-http/body/chunked", test_body_chunked);
  g_test_add_func ("/lode/mcp-http/connections/cap", test_connection_cap);
  g_test_add_func ("/lode/mcp-http/connections/request-timeout", test_request_timeout);
  g_test_add_func ("/lode/mcp-http/connections/emfile", test_accept_emfile);
  g_test_add_func ("/lode/mcp-http/sessions", test_sessions);

  return g_test_run ();
}
