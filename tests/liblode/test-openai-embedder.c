/* test-openai-embedder.c — the OpenAI-compatible provider against an in-process server
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "lode.h"
#include "lode-embedder-config.h"
#include "lode-openai-embedder.h"
#include "lode-remote-embedder.h"
#include "mock-http-server.h"
#include "test-helpers.h"

#define API_KEY "sk-test-S3CR3T-0123456789abcdef"

typedef enum
{
  MODE_OK,
  MODE_BAD_REQUEST,
  MODE_RATE_LIMITED_SECONDS,
  MODE_RATE_LIMITED_DATE,
  MODE_RATE_LIMITED_LONG,
  MODE_UNAVAILABLE,
  MODE_MALFORMED,
  MODE_WRONG_COUNT,
  MODE_DIMS_CHANGE,
  MODE_BAD_INDEX,
  MODE_WRONG_KEY,
  MODE_HANG,
} Mode;

typedef struct
{
  Mode        mode;
  MockServer *server;
} Fixture;

static JsonArray *
request_inputs (JsonParser *parser,
                const char *body)
{
  g_assert_true (json_parser_load_from_data (parser, body, -1, NULL));
  return json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                       "input");
}

/* The server's embedding of @text: (length, first byte, 1, 0, …). */
static void
server_vector (const char *text,
               guint       dims,
               double     *out)
{
  for (guint d = 0; d < dims; d++)
    out[d] = 0.0;
  out[0] = strlen (text);
  out[1] = (guchar) text[0];
  out[2] = 1.0;
}

/* Answers with the items in reverse order, so that only "index" tells them apart. */
static void
reply_embeddings (SoupServerMessage *message,
                  const char        *body,
                  guint              dims,
                  int                count_delta,
                  gboolean           bad_index)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GString) out = g_string_new ("{\"object\":\"list\",\"data\":[");
  JsonArray *input = request_inputs (parser, body);
  int n = (int) json_array_get_length (input) + count_delta;

  for (int i = n - 1; i >= 0; i--)
    {
      const char *text = json_array_get_string_element (input, MIN (i, (int) json_array_get_length (input) - 1));
      double v[8];

      server_vector (text, dims, v);
      g_string_append_printf (out, "%s{\"object\":\"embedding\",\"index\":%d,\"embedding\":[",
                              i < n - 1 ? "," : "", bad_index ? 0 : i);
      for (guint d = 0; d < dims; d++)
        g_string_append_printf (out, "%s%g", d > 0 ? "," : "", v[d]);
      g_string_append (out, "]}");
    }
  g_string_append (out, "],\"model\":\"text-embedding-3-small\",\"usage\":{\"prompt_tokens\":1,\"total_tokens\":1}}");
  mock_reply_json (message, SOUP_STATUS_OK, out->str);
}

static void
handler (MockServer        *server,
         SoupServerMessage *message,
         const char        *path,
         const char        *body,
         guint              index,
         gpointer           user_data)
{
  Fixture *f = user_data;
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);

  g_assert_cmpstr (path, ==, "/v1/embeddings");
  g_assert_cmpstr (soup_server_message_get_method (message), ==, "POST");

  switch (f->mode)
    {
    case MODE_OK:
      reply_embeddings (message, body, 4, 0, FALSE);
      break;
    case MODE_BAD_REQUEST:
      mock_reply_json (message, SOUP_STATUS_BAD_REQUEST,
                       "{\"error\":{\"message\":\"The model `nope` does not exist\","
                       "\"type\":\"invalid_request_error\"}}");
      break;
    case MODE_RATE_LIMITED_SECONDS:
    case MODE_RATE_LIMITED_DATE:
      if (index == 0)
        {
          if (f->mode == MODE_RATE_LIMITED_SECONDS)
            soup_message_headers_replace (headers, "Retry-After", "1");
          else
            {
              g_autoptr(GDateTime) now = g_date_time_new_now_utc ();
              g_autoptr(GDateTime) later = g_date_time_add_seconds (now, 2);
              g_autofree char *date = soup_date_time_to_string (later, SOUP_DATE_HTTP);

              soup_message_headers_replace (headers, "Retry-After", date);
            }
          mock_reply_json (message, 429, "{\"error\":{\"message\":\"Rate limit reached\"}}");
        }
      else
        reply_embeddings (message, body, 4, 0, FALSE);
      break;
    case MODE_RATE_LIMITED_LONG:
      soup_message_headers_replace (headers, "Retry-After", "15");
      mock_reply_json (message, 429, "{\"error\":{\"message\":\"Rate limit reached\"}}");
      break;
    case MODE_UNAVAILABLE:
      mock_reply (message, SOUP_STATUS_SERVICE_UNAVAILABLE, "text/plain", "upstream overloaded",
                  strlen ("upstream overloaded"));
      break;
    case MODE_MALFORMED:
      mock_reply_json (message, SOUP_STATUS_OK, "{\"data\":[{\"index\":0,\"embedding\":[0.1,");
      break;
    case MODE_WRONG_COUNT:
      reply_embeddings (message, body, 4, 1, FALSE);
      break;
    case MODE_DIMS_CHANGE:
      reply_embeddings (message, body, index == 0 ? 4 : 3, 0, FALSE);
      break;
    case MODE_BAD_INDEX:
      reply_embeddings (message, body, 4, 0, TRUE);
      break;
    case MODE_WRONG_KEY:
      mock_reply_json (message, SOUP_STATUS_UNAUTHORIZED,
                       "{\"error\":{\"message\":\"Incorrect API key provided: " API_KEY ". You can "
                       "find your API key at https://platform.openai.com/account/api-keys.\","
                       "\"type\":\"invalid_request_error\",\"code\":\"invalid_api_key\"}}");
      break;
    case MODE_HANG:
      mock_server_hang (server, message);
      break;
    default:
      g_assert_not_reached ();
    }
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->mode = GPOINTER_TO_INT (data);
  f->server = mock_server_new (handler, f);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_clear_pointer (&f->server, mock_server_free);
}

static LodeOpenaiEmbedder *
new_embedder (Fixture *f)
{
  LodeOpenaiEmbedder *embedder = lode_openai_embedder_new (f->server->url, NULL, API_KEY);

  lode_openai_embedder_set_retry (embedder, 3, 50);
  return embedder;
}

static LodeEmbeddings *
embed (LodeOpenaiEmbedder  *embedder,
       const char * const  *texts,
       GCancellable        *cancellable,
       GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  lode_embedder_embed_async (LODE_EMBEDDER (embedder), texts, LODE_EMBED_DOCUMENT, cancellable,
                             test_result_cb, &result);
  return lode_embedder_embed_finish (LODE_EMBEDDER (embedder), test_wait_result (&result), error);
}

static void
assert_server_vector (const LodeEmbeddings *embeddings,
                      guint                 row,
                      const char           *text)
{
  double v[8];
  double norm = 0.0;

  server_vector (text, embeddings->dims, v);
  for (guint d = 0; d < embeddings->dims; d++)
    norm += v[d] * v[d];
  for (guint d = 0; d < embeddings->dims; d++)
    g_assert_cmpfloat_with_epsilon (embeddings->data[row * embeddings->dims + d],
                                    v[d] / sqrt (norm), 1e-6);
}

static void
test_embed (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "alpha", "be", "gamma ray", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  const MockRequest *request;

  g_assert_cmpstr (lode_embedder_get_model (LODE_EMBEDDER (embedder)), ==,
                   "openai:text-embedding-3-small");

  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 3);
  g_assert_cmpuint (embeddings->dims, ==, 4);
  g_assert_cmpuint (lode_embedder_get_dims (LODE_EMBEDDER (embedder)), ==, 4);
  for (guint i = 0; i < 3; i++)
    assert_server_vector (embeddings, i, texts[i]);

  g_assert_cmpuint (f->server->requests->len, ==, 1);
  request = mock_server_get_request (f->server, 0);
  g_assert_cmpstr (request->authorization, ==, "Bearer " API_KEY);
  g_assert_nonnull (strstr (request->body, "\"model\":\"text-embedding-3-small\""));
  g_assert_nonnull (strstr (request->body, "\"input\":[\"alpha\",\"be\",\"gamma ray\"]"));
}

static void
test_base_url_with_v1 (Fixture       *f,
                       gconstpointer  data)
{
  g_autofree char *base = g_strconcat (f->server->url, "/v1/", NULL);
  g_autoptr(LodeOpenaiEmbedder) embedder = lode_openai_embedder_new (base, "local-model", NULL);
  const char *texts[] = { "x", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_no_error (error);
  /* No key, no Authorization header (local OpenAI-compatible servers). */
  g_assert_null (mock_server_get_request (f->server, 0)->authorization);
  g_assert_nonnull (strstr (mock_server_get_request (f->server, 0)->body, "\"local-model\""));
}

static void
test_batch_inputs (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "one", "two", "three", "four", "five", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  guint sizes[] = { 2, 2, 1 };

  lode_openai_embedder_set_batch_limits (embedder, 2, 100000);
  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 5);
  for (guint i = 0; i < 5; i++)
    assert_server_vector (embeddings, i, texts[i]);

  g_assert_cmpuint (f->server->requests->len, ==, 3);
  for (guint r = 0; r < 3; r++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonArray *input = request_inputs (parser, mock_server_get_request (f->server, r)->body);

      g_assert_cmpuint (json_array_get_length (input), ==, sizes[r]);
    }
}

static void
test_batch_tokens (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  /* 16 ASCII bytes ≈ 8 tokens each: with 20 tokens per request, two per request. */
  const char *texts[] = { "aaaaaaaaaaaaaaaa", "bbbbbbbbbbbbbbbb", "cccccccccccccccc", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  lode_openai_embedder_set_batch_limits (embedder, 100, 20);
  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (f->server->requests->len, ==, 2);
  for (guint r = 0; r < f->server->requests->len; r++)
    {
      g_autoptr(JsonParser) parser = json_parser_new ();
      JsonArray *input = request_inputs (parser, mock_server_get_request (f->server, r)->body);
      guint tokens = 0;

      for (guint i = 0; i < json_array_get_length (input); i++)
        tokens += lode_openai_estimate_tokens (json_array_get_string_element (input, i), -1);
      g_assert_cmpuint (tokens, <=, 20);
    }
  for (guint i = 0; i < 3; i++)
    assert_server_vector (embeddings, i, texts[i]);
}

static void
test_split_long_input (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  g_autoptr(GString) long_text = g_string_new (NULL);
  g_autoptr(GString) joined = g_string_new (NULL);
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  const char *texts[3];
  double expected[4] = { 0 };
  double norm = 0.0;
  JsonArray *input;
  guint n;

  for (guint i = 0; i < 12; i++)
    g_string_append_printf (long_text, "line %u of the function body\n", i);
  g_string_append (long_text, "ééééééééééééééééééééééééééééééééééééééééé");
  texts[0] = "short";
  texts[1] = long_text->str;
  texts[2] = NULL;

  lode_openai_embedder_set_max_tokens (embedder, 20);
  g_assert_cmpuint (lode_embedder_get_max_tokens (LODE_EMBEDDER (embedder)), ==, 20);
  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 2);
  assert_server_vector (embeddings, 0, "short");

  /* The server saw "short" and then the parts of the long input: each within the limit,
   * together exactly the input (split, never truncated). */
  input = request_inputs (parser, mock_server_get_request (f->server, 0)->body);
  n = json_array_get_length (input);
  g_assert_cmpuint (n, >, 3);
  g_assert_cmpstr (json_array_get_string_element (input, 0), ==, "short");
  for (guint i = 1; i < n; i++)
    {
      const char *part = json_array_get_string_element (input, i);
      double v[4];

      g_assert_cmpuint (lode_openai_estimate_tokens (part, -1), <=, 20);
      g_string_append (joined, part);

      /* The result is the length-weighted mean of the parts' unit vectors, renormalised. */
      server_vector (part, 4, v);
      norm = sqrt (v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
      for (guint d = 0; d < 4; d++)
        expected[d] += lode_openai_estimate_tokens (part, -1) * v[d] / norm;
    }
  g_assert_cmpstr (joined->str, ==, long_text->str);

  norm = sqrt (expected[0] * expected[0] + expected[1] * expected[1] + expected[2] * expected[2]);
  for (guint d = 0; d < 4; d++)
    g_assert_cmpfloat_with_epsilon (embeddings->data[4 + d], expected[d] / norm, 1e-5);
}

static void
test_invalid_utf8 (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "bad \xc3\x28 bytes", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_null (embeddings);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (f->server->requests->len, ==, 0);
}

static void
test_http_error (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "x", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_null (embeddings);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "HTTP 400"));
  g_assert_nonnull (strstr (error->message, "The model `nope` does not exist"));
  /* A client error is not retried. */
  g_assert_cmpuint (f->server->requests->len, ==, 1);
}

static void
test_retry_after (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "alpha", "beta", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  gint64 waited;

  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_no_error (error);
  assert_server_vector (embeddings, 1, "beta");
  g_assert_cmpuint (f->server->requests->len, ==, 2);

  /* Retry-After: 1 (seconds), or an HTTP date 2 s ahead (whole seconds, so at least 1 s). */
  waited = mock_server_get_request (f->server, 1)->time_usec -
           mock_server_get_request (f->server, 0)->time_usec;
  g_assert_cmpint (waited, >=, G_USEC_PER_SEC);
}

/* A query is sent once, and not at all while the server failed recently: its search goes on
 * lexically instead of waiting. */
static void
test_query_once (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "where", NULL };

  for (guint i = 0; i < 2; i++)
    {
      g_autoptr(GAsyncResult) result = NULL;
      g_autoptr(LodeEmbeddings) embeddings = NULL;
      g_autoptr(GError) error = NULL;

      lode_embedder_embed_async (LODE_EMBEDDER (embedder), texts, LODE_EMBED_QUERY, NULL,
                                 test_result_cb, &result);
      embeddings = lode_embedder_embed_finish (LODE_EMBEDDER (embedder),
                                               test_wait_result (&result), &error);
      g_assert_null (embeddings);
      g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
      g_assert_nonnull (strstr (error->message, "HTTP 503"));
      if (i == 1)
        g_assert_nonnull (strstr (error->message, "trying again in"));
    }
  g_assert_cmpuint (f->server->requests->len, ==, 1);
}

static void
test_retry_gives_up (Fixture       *f,
                     gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "x", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  gint64 first_gap, second_gap;

  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_null (embeddings);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "gave up after 3 retries"));
  g_assert_nonnull (strstr (error->message, "HTTP 503"));
  g_assert_nonnull (strstr (error->message, "upstream overloaded"));
  g_assert_cmpuint (f->server->requests->len, ==, 4);

  /* Exponential backoff from 50 ms: 50, 100, 200. */
  first_gap = mock_server_get_request (f->server, 1)->time_usec -
              mock_server_get_request (f->server, 0)->time_usec;
  second_gap = mock_server_get_request (f->server, 2)->time_usec -
               mock_server_get_request (f->server, 1)->time_usec;
  g_assert_cmpint (first_gap, >=, 50 * 1000);
  g_assert_cmpint (second_gap, >=, 100 * 1000);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static void
test_cancel_while_waiting (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  const char *texts[] = { "x", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  /* The server asks for 15 s; cancelling ends the wait at once (the watchdog is 20 s). */
  g_timeout_add (200, cancel_cb, cancellable);
  embeddings = embed (embedder, texts, cancellable, &error);
  g_assert_null (embeddings);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpuint (f->server->requests->len, ==, 1);
}

static char *
embed_error_message (Fixture *f,
                     guint    batch_inputs)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "one", "two", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  lode_openai_embedder_set_batch_limits (embedder, batch_inputs, 100000);
  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_null (embeddings);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  return g_strdup (error->message);
}

static void
test_malformed (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *message = embed_error_message (f, 10);

  g_assert_nonnull (strstr (message, "malformed JSON"));
}

static void
test_wrong_count (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *message = embed_error_message (f, 10);

  g_assert_nonnull (strstr (message, "3 vectors for 2 inputs"));
}

static void
test_wrong_dims (Fixture       *f,
                 gconstpointer  data)
{
  /* One input per request: the second answer has 3 dimensions after 4. */
  g_autofree char *message = embed_error_message (f, 1);

  g_assert_nonnull (strstr (message, "3 dimensions, expected 4"));
}

static void
test_bad_index (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *message = embed_error_message (f, 10);

  g_assert_nonnull (strstr (message, "out of range or repeated"));
}

static void
test_key_never_shown (Fixture       *f,
                      gconstpointer  data)
{
  g_autofree char *message = NULL;

  test_logs_clear ();
  message = embed_error_message (f, 10);
  g_assert_nonnull (strstr (message, "HTTP 401"));
  g_assert_nonnull (strstr (message, "Incorrect API key provided"));
  g_assert_null (strstr (message, "S3CR3T"));
  g_assert_null (strstr (message, "sk-"));

  /* Debug logging is on (G_MESSAGES_DEBUG=all): no log line names the key either. */
  g_assert_cmpuint (test_logs_count (), >, 0);
  g_assert_false (test_logs_contain ("S3CR3T"));
}

static void
test_timeout (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(LodeOpenaiEmbedder) embedder = new_embedder (f);
  const char *texts[] = { "x", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  lode_openai_embedder_set_timeout (embedder, 1);
  embeddings = embed (embedder, texts, NULL, &error);
  g_assert_null (embeddings);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
}

static void
test_from_spec (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  const char *texts[] = { "x", NULL };

  /* The key and the URL from the environment, as an MCP host sets them; the Secret Service
   * is not asked. */
  g_setenv ("LODE_OPENAI_API_KEY", API_KEY, TRUE);
  g_setenv ("LODE_OPENAI_BASE_URL", f->server->url, TRUE);
  g_setenv ("LODE_EMBEDDING_PROVIDER", "openai", TRUE);
  g_setenv ("LODE_EMBEDDING_MODEL", "text-embedding-3-large", TRUE);
  config = lode_config_load (&error);
  g_assert_no_error (error);
  g_unsetenv ("LODE_OPENAI_API_KEY");
  g_unsetenv ("LODE_OPENAI_BASE_URL");
  g_unsetenv ("LODE_EMBEDDING_PROVIDER");
  g_unsetenv ("LODE_EMBEDDING_MODEL");
  embedder = lode_embedder_new_for_config (config, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "openai:text-embedding-3-large");

  embeddings = embed (LODE_OPENAI_EMBEDDER (embedder), texts, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (mock_server_get_request (f->server, 0)->authorization, ==, "Bearer " API_KEY);
  g_assert_nonnull (strstr (mock_server_get_request (f->server, 0)->body,
                            "\"model\":\"text-embedding-3-large\""));
}

/* Against a real OpenAI-compatible server when LODE_TEST_OPENAI_URL names one (key and model
 * from LODE_TEST_OPENAI_KEY and LODE_TEST_OPENAI_MODEL). */
static void
test_real_server (void)
{
  const char *url = g_getenv ("LODE_TEST_OPENAI_URL");
  g_autoptr(GString) long_text = g_string_new (NULL);
  const char *texts[3];
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  if (url == NULL || *url == '\0')
    {
      g_test_skip ("LODE_TEST_OPENAI_URL is not set");
      return;
    }

  /* Longer than the limit set below: embedded in parts. */
  for (guint i = 0; i < 200; i++)
    g_string_append_printf (long_text, "static int helper_%u (int x) { return x * %u; }\n", i, i);
  texts[0] = "where are requests parsed";
  texts[1] = long_text->str;
  texts[2] = NULL;

  embedder = LODE_EMBEDDER (lode_openai_embedder_new (url, g_getenv ("LODE_TEST_OPENAI_MODEL"),
                                                      g_getenv ("LODE_TEST_OPENAI_KEY")));
  lode_openai_embedder_set_max_tokens (LODE_OPENAI_EMBEDDER (embedder), 512);
  embeddings = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 2);
  g_assert_cmpuint (embeddings->dims, >, 0);
}

static void
test_estimate (void)
{
  g_assert_cmpuint (lode_openai_estimate_tokens ("", -1), ==, 0);
  g_assert_cmpuint (lode_openai_estimate_tokens ("abcd", -1), ==, 2);
  g_assert_cmpuint (lode_openai_estimate_tokens ("abc", -1), ==, 2);
  g_assert_cmpuint (lode_openai_estimate_tokens ("é", -1), ==, 1);
  g_assert_cmpuint (lode_openai_estimate_tokens ("日本語", -1), ==, 3);
}

int
main (int   argc,
      char *argv[])
{
  test_capture_logs ();
  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, mode, func) \
  g_test_add ("/lode/openai/" path, Fixture, GINT_TO_POINTER (mode), setup, func, teardown)

  g_test_add_func ("/lode/openai/estimate", test_estimate);
  ADD ("embed", MODE_OK, test_embed);
  ADD ("base-url-with-v1", MODE_OK, test_base_url_with_v1);
  ADD ("batch-inputs", MODE_OK, test_batch_inputs);
  ADD ("batch-tokens", MODE_OK, test_batch_tokens);
  ADD ("split-long-input", MODE_OK, test_split_long_input);
  ADD ("http-error", MODE_BAD_REQUEST, test_http_error);
  ADD ("invalid-utf8", MODE_OK, test_invalid_utf8);
  ADD ("retry-after-seconds", MODE_RATE_LIMITED_SECONDS, test_retry_after);
  ADD ("retry-after-date", MODE_RATE_LIMITED_DATE, test_retry_after);
  ADD ("retry-gives-up", MODE_UNAVAILABLE, test_retry_gives_up);
  ADD ("query-once", MODE_UNAVAILABLE, test_query_once);
  ADD ("cancel-while-waiting", MODE_RATE_LIMITED_LONG, test_cancel_while_waiting);
  ADD ("malformed-json", MODE_MALFORMED, test_malformed);
  ADD ("wrong-count", MODE_WRONG_COUNT, test_wrong_count);
  ADD ("wrong-dims", MODE_DIMS_CHANGE, test_wrong_dims);
  ADD ("bad-index", MODE_BAD_INDEX, test_bad_index);
  ADD ("key-never-shown", MODE_WRONG_KEY, test_key_never_shown);
  ADD ("timeout", MODE_HANG, test_timeout);
  ADD ("from-spec", MODE_OK, test_from_spec);
  g_test_add_func ("/lode/openai/real-server", test_real_server);

#undef ADD

  return g_test_run ();
}
