/* http-client.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "http-client.h"

void
response_free (Response *response)
{
  g_hash_table_unref (response->headers);
  g_string_free (response->body, TRUE);
  g_free (response);
}


/* A blocking client socket to the server, or -1 when it does not take the connection within
 * @timeout_s seconds; reads and writes time out after as long. */
int
try_connect (guint port,
             guint timeout_s)
{
  struct sockaddr_in address = { .sin_family = AF_INET, .sin_port = htons (port) };
  struct timeval timeout = { .tv_sec = timeout_s };
  int fd = socket (AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);

  g_assert_cmpint (fd, >=, 0);
  address.sin_addr.s_addr = htonl (INADDR_LOOPBACK);
  /* Linux applies the send timeout to connect() too. */
  setsockopt (fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  setsockopt (fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  if (connect (fd, (struct sockaddr *) &address, sizeof address) != 0)
    {
      close (fd);
      return -1;
    }

  return fd;
}

int
connect_to (guint port,
            guint timeout_s)
{
  int fd = try_connect (port, timeout_s);

  g_assert_cmpint (fd, >=, 0);
  return fd;
}

gboolean
send_text (int         fd,
           const char *text)
{
  gsize length = strlen (text);

  while (length > 0)
    {
      gssize n = send (fd, text, length, MSG_NOSIGNAL);

      if (n < 0 && errno == EINTR)
        continue;
      if (n <= 0)
        return FALSE;
      text += n;
      length -= n;
    }

  return TRUE;
}

/* Reads one response; NULL when the connection ends or times out first. */
Response *
read_response (int fd)
{
  g_autoptr(GString) data = g_string_new (NULL);
  g_autoptr(Response) response = g_new0 (Response, 1);
  g_auto(GStrv) lines = NULL;
  g_autofree char *head_text = NULL;
  const char *end;
  gsize head;
  gsize length = 0;
  char buffer[4096];

  response->headers = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  response->body = g_string_new (NULL);

  /* A byte at a time, so that nothing of a response that follows is taken. */
  while ((end = strstr (data->str, "\r\n\r\n")) == NULL)
    {
      gssize n = recv (fd, buffer, 1, 0);

      if (n <= 0)
        return NULL;
      g_string_append_len (data, buffer, n);
    }
  head = end - data->str + 4;
  head_text = g_strndup (data->str, end - data->str);
  lines = g_strsplit (head_text, "\r\n", -1);
  g_assert_true (g_str_has_prefix (lines[0], "HTTP/1.1 "));
  response->status = atoi (lines[0] + strlen ("HTTP/1.1 "));
  for (guint i = 1; lines[i] != NULL; i++)
    {
      const char *colon = strchr (lines[i], ':');

      g_assert_nonnull (colon);
      g_hash_table_insert (response->headers,
                           g_ascii_strdown (lines[i], colon - lines[i]),
                           g_strstrip (g_strdup (colon + 1)));
    }

  g_assert_cmpuint (data->len, ==, head);

  /* Chunks are kept as they came, up to the last one; without a length the body ends with
   * the connection. */
  if (g_strcmp0 (g_hash_table_lookup (response->headers, "transfer-encoding"), "chunked") == 0)
    {
      while (!g_str_has_suffix (response->body->str, "0\r\n\r\n"))
        {
          gssize n = recv (fd, buffer, 1, 0);

          if (n <= 0)
            return NULL;
          g_string_append_len (response->body, buffer, n);
        }
      return g_steal_pointer (&response);
    }

  if (g_hash_table_contains (response->headers, "content-length"))
    length = g_ascii_strtoull (g_hash_table_lookup (response->headers, "content-length"),
                               NULL, 10);
  else if (response->status >= 200)
    length = G_MAXSIZE;

  while (response->body->len < length)
    {
      gssize n = recv (fd, buffer, MIN (sizeof buffer, length - response->body->len), 0);

      if (n == 0 && length == G_MAXSIZE)
        break;
      if (n <= 0)
        return NULL;
      g_string_append_len (response->body, buffer, n);
    }

  return g_steal_pointer (&response);
}

/* TRUE when the server closes the connection within @timeout_s seconds. */
gboolean
closed_by_server (int   fd,
                  guint timeout_s)
{
  struct pollfd poll_fd = { .fd = fd, .events = POLLIN };
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;
  char buffer[4096];

  while (g_get_monotonic_time () < deadline)
    {
      gssize n;

      if (poll (&poll_fd, 1, 100) <= 0)
        continue;
      n = recv (fd, buffer, sizeof buffer, MSG_DONTWAIT);
      if (n == 0 || (n < 0 && errno != EAGAIN && errno != EINTR))
        return TRUE;
    }

  return FALSE;
}
