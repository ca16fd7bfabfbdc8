/* qdrant-server.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * Starts tests/liblode/qdrant-loopback.py and talks to its control endpoints. When Qdrant's
 * OpenAPI document is there (LODE_QDRANT_OPENAPI, or ../shared/qdrant/openapi.json beside the
 * source tree), the server also validates every request and answer against it. With
 * LODE_TEST_QDRANT_URL set, tests run against that server instead (fault injection is then
 * skipped); every collection a test makes starts with a random prefix, so a shared server is
 * not disturbed.
 */

#include "config.h"

#include <string.h>

#include <libsoup/soup.h>

#include "qdrant-server.h"

static char *
openapi_path (void)
{
  const char *env = g_getenv ("LODE_QDRANT_OPENAPI");
  const char *root = g_getenv ("LODE_SOURCE_ROOT");

  if (env != NULL && *env != '\0')
    return g_strdup (env);
  g_assert_nonnull (root);
  return g_build_filename (root, "..", "shared", "qdrant", "openapi.json", NULL);
}

/**
 * qdrant_server_new_loopback:
 * @args: (nullable): more arguments for the server (`--version`, `--api-key`, `--tls-cert`, …)
 *
 * Returns: the loopback server; it validates against Qdrant's OpenAPI document when that is
 *   there, and the test says so (g_test_message()) when it is not
 */
QdrantServer *
qdrant_server_new_loopback (const char * const *args)
{
  g_autoptr(QdrantServer) server = g_new0 (QdrantServer, 1);
  g_autoptr(GSubprocessLauncher) launcher = NULL;
  g_autoptr(GPtrArray) argv = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GDataInputStream) out = NULL;
  g_autofree char *openapi = openapi_path ();
  g_autofree char *line = NULL;
  g_autoptr(GError) error = NULL;

  g_ptr_array_add (argv, g_strdup ("python3"));
  g_ptr_array_add (argv, g_test_build_filename (G_TEST_DIST, "liblode", "qdrant-loopback.py",
                                                NULL));
  if (g_file_test (openapi, G_FILE_TEST_IS_REGULAR))
    {
      g_ptr_array_add (argv, g_strdup ("--openapi"));
      g_ptr_array_add (argv, g_strdup (openapi));
    }
  else
    {
      g_test_message ("Requests are not validated against Qdrant's OpenAPI document: put it at "
                      "%s or set LODE_QDRANT_OPENAPI", openapi);
    }
  for (guint i = 0; args != NULL && args[i] != NULL; i++)
    g_ptr_array_add (argv, g_strdup (args[i]));
  g_ptr_array_add (argv, NULL);

  launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDIN_PIPE |
                                        G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  server->process = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata,
                                                  &error);
  g_assert_no_error (error);

  out = g_data_input_stream_new (g_subprocess_get_stdout_pipe (server->process));
  line = g_data_input_stream_read_line_utf8 (out, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (line);
  g_assert_true (g_str_has_prefix (line, "PORT "));
  server->url = g_strdup_printf ("%s://127.0.0.1:%s",
                                 args != NULL && g_strv_contains (args, "--tls-cert") ? "https"
                                                                                      : "http",
                                 line + strlen ("PORT "));
  server->prefix = g_strdup ("lode-test");
  return g_steal_pointer (&server);
}

/**
 * qdrant_server_new:
 * @args: (nullable): arguments for the loopback server
 *
 * Returns: the real server LODE_TEST_QDRANT_URL names, else the loopback server
 */
QdrantServer *
qdrant_server_new (const char * const *args)
{
  const char *url = g_getenv ("LODE_TEST_QDRANT_URL");
  QdrantServer *server;

  if (url == NULL || *url == '\0')
    return qdrant_server_new_loopback (args);

  server = g_new0 (QdrantServer, 1);
  server->url = g_strdup (url);
  server->prefix = g_strdup_printf ("lode-test-%08x", g_random_int ());
  return server;
}

gboolean
qdrant_server_is_loopback (QdrantServer *server)
{
  return server->process != NULL;
}

char *
qdrant_server_collection (QdrantServer *server,
                          const char   *name)
{
  return g_strconcat (server->prefix, "-", name, NULL);
}

static gboolean
accept_any_cb (SoupMessage          *message,
               GTlsCertificate      *certificate,
               GTlsCertificateFlags  errors,
               gpointer              user_data)
{
  return TRUE;
}

static JsonNode *
control (QdrantServer *server,
         const char   *method,
         const char   *path,
         const char   *body)
{
  g_autoptr(SoupSession) session = soup_session_new ();
  g_autofree char *uri = g_strconcat (server->url, path, NULL);
  g_autoptr(SoupMessage) message = soup_message_new (method, uri);
  g_autoptr(GBytes) answer = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;

  g_assert_nonnull (server->process);
  if (body != NULL)
    {
      g_autoptr(GBytes) bytes = g_bytes_new (body, strlen (body));

      soup_message_set_request_body_from_bytes (message, "application/json", bytes);
    }
  /* The loopback server's certificate is the test's own. */
  g_signal_connect (message, "accept-certificate", G_CALLBACK (accept_any_cb), NULL);
  answer = soup_session_send_and_read (session, message, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (soup_message_get_status (message), ==, 200);
  json_parser_load_from_data (parser, g_bytes_get_data (answer, NULL),
                              g_bytes_get_size (answer), &error);
  g_assert_no_error (error);
  return json_node_ref (json_parser_get_root (parser));
}

/* Injects faults (the JSON list the loopback server's /__loopback/faults takes). */
void
qdrant_server_add_fault (QdrantServer *server,
                         const char   *json)
{
  g_autoptr(JsonNode) answer = control (server, "POST", "/__loopback/faults", json);
}

JsonNode *
qdrant_server_dup_state (QdrantServer *server)
{
  return control (server, "GET", "/__loopback/state", NULL);
}

/* Requests whose method is @method and whose path contains @path_part; the largest body. */
guint
qdrant_server_count_requests (QdrantServer *server,
                              const char   *method,
                              const char   *path_part,
                              gsize        *max_bytes)
{
  g_autoptr(JsonNode) state = qdrant_server_dup_state (server);
  JsonArray *requests = json_object_get_array_member (json_node_get_object (state), "requests");
  guint n = 0;

  if (max_bytes != NULL)
    *max_bytes = 0;
  for (guint i = 0; i < json_array_get_length (requests); i++)
    {
      JsonObject *request = json_array_get_object_element (requests, i);

      if (g_strcmp0 (json_object_get_string_member (request, "method"), method) != 0 ||
          strstr (json_object_get_string_member (request, "path"), path_part) == NULL)
        continue;
      n++;
      if (max_bytes != NULL)
        *max_bytes = MAX (*max_bytes, (gsize) json_object_get_int_member (request, "bytes"));
    }

  return n;
}

/* Every request Lode sent, and every answer the server gave, fit Qdrant's OpenAPI document
 * (when the server has it to validate against). */
void
qdrant_server_assert_valid (QdrantServer *server)
{
  g_autoptr(JsonNode) state = NULL;
  JsonArray *violations;

  if (server->process == NULL)
    return;

  state = qdrant_server_dup_state (server);
  violations = json_object_get_array_member (json_node_get_object (state), "violations");
  if (json_array_get_length (violations) > 0)
    {
      g_autofree char *text = json_to_string (json_array_get_element (violations, 0), TRUE);

      g_error ("%u request(s) or answer(s) do not fit Qdrant's OpenAPI document; the first: %s",
               json_array_get_length (violations), text);
    }
}

void
qdrant_server_free (QdrantServer *server)
{
  if (server == NULL)
    return;

  if (server->process != NULL)
    {
      /* Closing its standard input ends the server. */
      g_output_stream_close (g_subprocess_get_stdin_pipe (server->process), NULL, NULL);
      g_subprocess_wait (server->process, NULL, NULL);
      g_clear_object (&server->process);
    }
  g_free (server->url);
  g_free (server->prefix);
  g_free (server);
}
