/* test-ollama-embedder.c — the Ollama provider against an in-process server
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "lode.h"
#include "lode-ollama-embedder.h"
#include "lode-remote-embedder.h"
#include "mock-http-server.h"
#include "test-helpers.h"

typedef enum
{
  MODE_OK,
  MODE_MISSING_THEN_PULL,
  MODE_PULL_FAILS,
  MODE_PULL_REJECTED,
  MODE_HTTP_ERROR,
  MODE_MALFORMED,
  MODE_WRONG_COUNT,
  MODE_DIMS_CHANGE,
  MODE_HANG,
  MODE_BUSY,
  MODE_VERSION_HANGS,
  MODE_ENDLESS,
} Mode;

typedef struct
{
  Mode        mode;
  MockServer *server;
  GPtrArray  *statuses;
  guint64     last_completed;
  gboolean    pulled;
  guint       n_embeds;
  guint       n_busy;      /* MODE_BUSY: how many /api/embed get 503 before it answers */
} Fixture;

/* Answers /api/embed with vectors of @dims: vector i is (i+1, 2, 0, …). */
static void
reply_embeddings (SoupServerMessage *message,
                  const char        *body,
                  guint              dims,
                  int                count_delta)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GString) out = g_string_new ("{\"model\":\"nomic-embed-text\",\"embeddings\":[");
  JsonArray *input;
  int n;

  g_assert_true (json_parser_load_from_data (parser, body, -1, NULL));
  input = json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                        "input");
  n = (int) json_array_get_length (input) + count_delta;
  for (int i = 0; i < n; i++)
    {
      g_string_append_printf (out, "%s[%d", i > 0 ? "," : "", i + 1);
      for (guint d = 1; d < dims; d++)
        g_string_append (out, d == 1 ? ",2" : ",0");
      g_string_append_c (out, ']');
    }
  g_string_append (out, "]}");
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

  /* Answers that never end: a version, a status line (and a vector below). */
  if (f->mode == MODE_ENDLESS && g_str_equal (path, "/api/version"))
    {
      mock_reply_endless (server, message, "application/json", "{\"version\":\"", "0");
      return;
    }
  if (f->mode == MODE_ENDLESS && g_str_equal (path, "/api/pull"))
    {
      mock_reply_endless (server, message, "application/x-ndjson", "{\"status\":\"", "x");
      return;
    }

  if (g_str_equal (path, "/api/version") && f->mode == MODE_VERSION_HANGS)
    {
      mock_server_hang (server, message);
      return;
    }

  if (g_str_equal (path, "/api/version"))
    {
      mock_reply_json (message, SOUP_STATUS_OK, "{\"version\":\"0.5.7\"}");
      return;
    }

  if (g_str_equal (path, "/api/pull"))
    {
      const char *ok =
        "{\"status\":\"pulling manifest\"}\n"
        "{\"status\":\"downloading sha256:970aa\",\"digest\":\"sha256:970aa\",\"total\":1000,\"completed\":400}\n"
        "{\"status\":\"downloading sha256:970aa\",\"digest\":\"sha256:970aa\",\"total\":1000,\"completed\":1000}\n"
        "{\"status\":\"verifying sha256 digest\"}\n"
        "{\"status\":\"success\"}\n";
      const char *failing =
        "{\"status\":\"pulling manifest\"}\n"
        "{\"error\":\"pull model manifest: file does not exist\"}\n";

      g_assert_nonnull (strstr (body, "\"model\":\"nomic-embed-text\""));
      if (f->mode == MODE_PULL_REJECTED)
        mock_reply_json (message, SOUP_STATUS_INTERNAL_SERVER_ERROR,
                         "{\"error\":\"no space left on device\"}");
      else if (f->mode == MODE_PULL_FAILS)
        mock_reply (message, SOUP_STATUS_OK, "application/x-ndjson", failing, strlen (failing));
      else
        {
          f->pulled = TRUE;
          mock_reply (message, SOUP_STATUS_OK, "application/x-ndjson", ok, strlen (ok));
        }
      return;
    }

  g_assert_cmpstr (path, ==, "/api/embed");
  g_assert_cmpstr (soup_server_message_get_method (message), ==, "POST");
  f->n_embeds++;

  switch (f->mode)
    {
    case MODE_OK:
      reply_embeddings (message, body, 4, 0);
      break;
    case MODE_MISSING_THEN_PULL:
    case MODE_PULL_FAILS:
    case MODE_PULL_REJECTED:
      if (!f->pulled)
        mock_reply_json (message, SOUP_STATUS_NOT_FOUND,
                         "{\"error\":\"model \\\"nomic-embed-text\\\" not found, try pulling it first\"}");
      else
        reply_embeddings (message, body, 4, 0);
      break;
    case MODE_HTTP_ERROR:
      mock_reply_json (message, SOUP_STATUS_INTERNAL_SERVER_ERROR,
                       "{\"error\":\"llama runner process has terminated\"}");
      break;
    case MODE_MALFORMED:
      mock_reply_json (message, SOUP_STATUS_OK, "{\"embeddings\":[[1,2,");
      break;
    case MODE_WRONG_COUNT:
      reply_embeddings (message, body, 4, -1);
      break;
    case MODE_DIMS_CHANGE:
      reply_embeddings (message, body, index == 0 ? 4 : 5, 0);
      break;
    case MODE_HANG:
      mock_server_hang (server, message);
      break;
    case MODE_BUSY:
      if (f->n_embeds <= f->n_busy)
        mock_reply_json (message, SOUP_STATUS_SERVICE_UNAVAILABLE,
                         "{\"error\":\"server busy, please try again.  maximum pending requests "
                         "exceeded\"}");
      else
        reply_embeddings (message, body, 4, 0);
      break;
    case MODE_ENDLESS:
      mock_reply_endless (server, message, "application/json", "{\"embeddings\":[[", "0.5,");
      break;
    case MODE_VERSION_HANGS:
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
  f->statuses = g_ptr_array_new_with_free_func (g_free);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_clear_pointer (&f->server, mock_server_free);
  g_ptr_array_unref (f->statuses);
}

static LodeEmbeddings *
embed (LodeOllamaEmbedder  *embedder,
       const char * const  *texts,
       LodeEmbedPurpose     purpose,
       GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  lode_embedder_embed_async (LODE_EMBEDDER (embedder), texts, purpose, NULL, test_result_cb,
                             &result);
  return lode_embedder_embed_finish (LODE_EMBEDDER (embedder), test_wait_result (&result), error);
}

static void
test_embed (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "int main (void)", "parse the header", NULL };
  const char *queries[] = { "where is main", NULL };
  g_autoptr(LodeEmbeddings) docs = NULL;
  g_autoptr(LodeEmbeddings) query = NULL;
  g_autoptr(GError) error = NULL;
  const MockRequest *request;

  g_assert_cmpstr (lode_embedder_get_model (LODE_EMBEDDER (embedder)), ==,
                   "ollama:nomic-embed-text");
  g_assert_cmpuint (lode_embedder_get_dims (LODE_EMBEDDER (embedder)), ==, 0);

  docs = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (docs->n_vectors, ==, 2);
  g_assert_cmpuint (docs->dims, ==, 4);
  g_assert_cmpuint (lode_embedder_get_dims (LODE_EMBEDDER (embedder)), ==, 4);
  /* (2, 2, 0, 0) normalised. */
  g_assert_cmpfloat_with_epsilon (docs->data[4], 1.0 / sqrt (2.0), 1e-6);
  g_assert_cmpfloat_with_epsilon (docs->data[5], 1.0 / sqrt (2.0), 1e-6);
  g_assert_cmpfloat_with_epsilon (docs->data[6], 0.0, 1e-6);

  request = mock_server_get_request (f->server, 0);
  g_assert_nonnull (strstr (request->body, "\"model\":\"nomic-embed-text\""));
  g_assert_nonnull (strstr (request->body, "\"search_document: int main (void)\""));
  g_assert_nonnull (strstr (request->body, "\"search_document: parse the header\""));
  g_assert_nonnull (strstr (request->body, "\"truncate\":false"));

  query = embed (embedder, queries, LODE_EMBED_QUERY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (query->n_vectors, ==, 1);
  request = mock_server_get_request (f->server, 1);
  g_assert_nonnull (strstr (request->body, "\"search_query: where is main\""));
}

static void
pull_progress_cb (const char *status,
                  guint64     completed,
                  guint64     total,
                  gpointer    user_data)
{
  Fixture *f = user_data;

  g_ptr_array_add (f->statuses, g_strdup (status));
  if (total > 0)
    {
      g_assert_cmpuint (completed, <=, total);
      f->last_completed = completed;
    }
}

typedef struct
{
  LodeEmbedder   *embedder;
  LodeEmbeddings *embeddings;
  GError         *error;
  gboolean        done;
} SyncCall;

static gpointer
sync_thread_func (gpointer data)
{
  SyncCall *call = data;
  const char *texts[] = { "from a worker thread", NULL };

  call->embeddings = lode_embedder_embed_sync (call->embedder, texts, LODE_EMBED_DOCUMENT, NULL,
                                               &call->error);
  g_atomic_int_set (&call->done, TRUE);
  g_main_context_wakeup (NULL);
  return NULL;
}

static void
test_sync_from_thread (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  SyncCall call = { LODE_EMBEDDER (embedder), NULL, NULL, FALSE };
  GThread *thread;

  /* The indexer embeds from worker threads with embed_sync; the server answers here. */
  thread = g_thread_new ("embed", sync_thread_func, &call);
  while (!g_atomic_int_get (&call.done))
    g_main_context_iteration (NULL, TRUE);
  g_thread_join (thread);

  g_assert_no_error (call.error);
  g_assert_nonnull (call.embeddings);
  g_assert_cmpuint (call.embeddings->n_vectors, ==, 1);
  lode_embeddings_free (call.embeddings);
}

static void
test_pull_when_missing (Fixture       *f,
                        gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "hello", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  lode_ollama_embedder_set_pull_progress (embedder, pull_progress_cb, f, NULL);
  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 1);

  /* embed (404) → pull → embed again. */
  g_assert_cmpuint (f->server->requests->len, ==, 3);
  g_assert_cmpstr (mock_server_get_request (f->server, 1)->path, ==, "/api/pull");
  g_assert_cmpuint (f->statuses->len, ==, 5);
  g_assert_cmpstr (g_ptr_array_index (f->statuses, 0), ==, "pulling manifest");
  g_assert_cmpstr (g_ptr_array_index (f->statuses, 4), ==, "success");
  g_assert_cmpuint (f->last_completed, ==, 1000);
}

static void
test_pull_fails (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "hello", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_null (embeddings);
  g_assert_nonnull (strstr (error->message, "file does not exist"));
}

static void
test_pull_rejected (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "hello", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_null (embeddings);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "HTTP 500"));
  g_assert_nonnull (strstr (error->message, "no space left on device"));
}

static void
test_no_auto_pull (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "hello", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  lode_ollama_embedder_set_auto_pull (embedder, FALSE);
  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "HTTP 404"));
  g_assert_nonnull (strstr (error->message, "try pulling it first"));
  g_assert_cmpuint (f->server->requests->len, ==, 1);
}

/* Runs one failing embed and returns the error message. */
static char *
embed_error (Fixture *f,
             guint    timeout)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "one", "two", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  if (timeout > 0)
    lode_ollama_embedder_set_timeout (embedder, timeout);
  lode_ollama_embedder_set_retry (embedder, 2, 10);
  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_null (embeddings);
  g_assert_nonnull (error);
  return g_strdup (error->message);
}

static void
test_invalid_utf8 (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "fine", "bad \xff\xfe bytes", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_null (embeddings);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_cmpuint (f->server->requests->len, ==, 0);
}

static void
test_http_error (Fixture       *f,
                 gconstpointer  data)
{
  g_autofree char *message = embed_error (f, 0);

  g_assert_nonnull (strstr (message, "HTTP 500"));
  g_assert_nonnull (strstr (message, "llama runner process has terminated"));
  /* A 5xx may pass: two retries, then the error. */
  g_assert_nonnull (strstr (message, "gave up after 2 retries"));
  g_assert_cmpuint (f->n_embeds, ==, 3);
}

/* A busy server (503) is asked again for documents, with a growing pause; a query is asked
 * once, and while the server failed recently not at all, until it answers again. */
static void
test_busy (Fixture       *f,
           gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "one", "two", NULL };
  const char *queries[] = { "where", NULL };
  g_autoptr(LodeEmbeddings) docs = NULL;
  g_autoptr(LodeEmbeddings) failed = NULL;
  g_autoptr(LodeEmbeddings) skipped = NULL;
  g_autoptr(LodeEmbeddings) again = NULL;
  g_autoptr(GError) error = NULL;
  gint64 gap;

  lode_ollama_embedder_set_retry (embedder, 3, 50);
  f->n_busy = 2;
  docs = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (docs->n_vectors, ==, 2);
  g_assert_cmpuint (f->n_embeds, ==, 3);
  gap = mock_server_get_request (f->server, 2)->time_usec -
        mock_server_get_request (f->server, 1)->time_usec;
  g_assert_cmpint (gap, >=, 100 * 1000);

  f->n_busy = 4;
  failed = embed (embedder, queries, LODE_EMBED_QUERY, &error);
  g_assert_null (failed);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "HTTP 503"));
  g_assert_cmpuint (f->n_embeds, ==, 4);
  g_clear_error (&error);

  skipped = embed (embedder, queries, LODE_EMBED_QUERY, &error);
  g_assert_null (skipped);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "trying again in"));
  g_assert_cmpuint (f->n_embeds, ==, 4);
  g_clear_error (&error);

  /* A document batch goes through (after the last 503) and lets queries in again. */
  g_clear_pointer (&docs, lode_embeddings_free);
  docs = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_no_error (error);
  again = embed (embedder, queries, LODE_EMBED_QUERY, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (again->n_vectors, ==, 1);
}

/* A server that does not answer costs one query its timeout, the next ones nothing. */
static void
test_query_hang (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *queries[] = { "where", NULL };
  g_autoptr(LodeEmbeddings) first = NULL;
  g_autoptr(LodeEmbeddings) second = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start;

  lode_ollama_embedder_set_timeout (embedder, 1);
  first = embed (embedder, queries, LODE_EMBED_QUERY, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_clear_error (&error);

  start = g_get_monotonic_time ();
  second = embed (embedder, queries, LODE_EMBED_QUERY, &error);
  g_assert_null (second);
  g_assert_nonnull (strstr (error->message, "No answer within 1 s"));
  g_assert_nonnull (strstr (error->message, "trying again in"));
  g_assert_cmpint (g_get_monotonic_time () - start, <, G_USEC_PER_SEC / 2);
  g_assert_cmpuint (f->n_embeds, ==, 1);
}

/* Nothing listens: documents are tried again (the server may be restarting), then given up. */
static void
test_refused (Fixture       *f,
              gconstpointer  data)
{
  g_autofree char *url = g_strdup (f->server->url);
  g_autoptr(LodeOllamaEmbedder) embedder = NULL;
  const char *texts[] = { "one", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  g_clear_pointer (&f->server, mock_server_free);
  embedder = lode_ollama_embedder_new (url, NULL);
  lode_ollama_embedder_set_retry (embedder, 2, 10);
  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_null (embeddings);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED);
  g_assert_nonnull (strstr (error->message, "gave up after 2 retries"));
  g_assert_nonnull (strstr (error->message, url));
}

static void
test_malformed (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *message = embed_error (f, 0);

  g_assert_nonnull (strstr (message, "malformed JSON"));
}

static void
test_wrong_count (Fixture       *f,
                  gconstpointer  data)
{
  g_autofree char *message = embed_error (f, 0);

  g_assert_nonnull (strstr (message, "1 vectors for 2 inputs"));
}

static void
test_dims_change (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "one", NULL };
  g_autoptr(LodeEmbeddings) first = NULL;
  g_autoptr(LodeEmbeddings) second = NULL;
  g_autoptr(GError) error = NULL;

  first = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (first->dims, ==, 4);

  second = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_null (second);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "5 dimensions, expected 4"));
}

static void
test_timeout (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "one", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  lode_ollama_embedder_set_timeout (embedder, 1);
  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_null (embeddings);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_nonnull (strstr (error->message, f->server->url));
}

static char *
check (LodeOllamaEmbedder  *embedder,
       GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  lode_ollama_embedder_check_async (embedder, NULL, test_result_cb, &result);
  return lode_ollama_embedder_check_finish (embedder, test_wait_result (&result), error);
}

static void
test_check (Fixture       *f,
            gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  g_autoptr(LodeOllamaEmbedder) dead = NULL;
  g_autofree char *version = NULL;
  g_autofree char *none = NULL;
  g_autofree char *dead_url = g_strdup (f->server->url);
  g_autoptr(GError) error = NULL;

  version = check (embedder, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (version, ==, "0.5.7");

  /* Nothing listens on the port once the server is gone. */
  g_clear_pointer (&f->server, mock_server_free);
  dead = lode_ollama_embedder_new (dead_url, NULL);
  none = check (dead, &error);
  g_assert_null (none);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "not reachable"));
}

/* The version check behind every provider look-up is short, whatever the request timeout. */
static void
test_check_hang (Fixture       *f,
                 gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  g_autofree char *version = NULL;
  g_autoptr(GError) error = NULL;
  gint64 start = g_get_monotonic_time ();

  version = check (embedder, &error);
  g_assert_null (version);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_TIMED_OUT);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

/* What the loopback connection's buffers hold beyond what the client read. */
#define SOCKET_SLACK (16 * 1024 * 1024)

/* Runs the main context until the server's endless answer was cut off by the client. */
static void
wait_endless_dropped (MockServer *server)
{
  gint64 deadline = g_get_monotonic_time () + (gint64) test_timeout_seconds (10) * G_USEC_PER_SEC;

  while (!server->endless_finished && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, FALSE);
  g_assert_true (server->endless_finished);
}

/* A server whose answer never ends (#31 item 7): each request fails with a clear error once
 * Lode read what such an answer may take, and drops the connection; the server could only
 * send that much and what the socket buffers hold. */
static void
test_endless (Fixture       *f,
              gconstpointer  data)
{
  g_autoptr(LodeOllamaEmbedder) embedder = lode_ollama_embedder_new (f->server->url, NULL);
  const char *texts[] = { "int main (void)", "parse the header", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GAsyncResult) result = NULL;
  g_autofree char *version = NULL;
  g_autoptr(GError) error = NULL;

  version = check (embedder, &error);
  g_assert_null (version);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, f->server->url));
  g_assert_nonnull (strstr (error->message, "larger than 65.5"));
  g_assert_null (strstr (error->message, "not reachable"));
  wait_endless_dropped (f->server);
  g_assert_cmpuint (f->server->endless_bytes, <, 64 * 1024 + SOCKET_SLACK);
  g_clear_error (&error);

  /* Two vectors may take 64 MiB and 128 KiB each. */
  f->server->endless_finished = FALSE;
  f->server->endless_bytes = 0;
  embeddings = embed (embedder, texts, LODE_EMBED_DOCUMENT, &error);
  g_assert_null (embeddings);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "larger than"));
  wait_endless_dropped (f->server);
  g_assert_cmpuint (f->server->endless_bytes, <, 64 * 1024 * 1024 + 2 * 128 * 1024 + SOCKET_SLACK);
  g_assert_cmpuint (f->n_embeds, ==, 1);
  g_clear_error (&error);

  /* A status line of the pull that never ends. */
  f->server->endless_finished = FALSE;
  f->server->endless_bytes = 0;
  lode_ollama_embedder_pull_async (embedder, NULL, test_result_cb, &result);
  g_assert_false (lode_ollama_embedder_pull_finish (embedder, test_wait_result (&result), &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "status line is longer than 65536 bytes"));
  wait_endless_dropped (f->server);
  g_assert_cmpuint (f->server->endless_bytes, <, 64 * 1024 + SOCKET_SLACK);
}

static LodeEmbedder *
from_spec (const char  *spec,
           const char  *url,
           GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  lode_remote_embedder_new_async (spec, url, NULL, NULL, test_result_cb, &result);
  return lode_remote_embedder_new_finish (test_wait_result (&result), error);
}

static void
test_from_spec (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbedder) other = NULL;
  g_autoptr(LodeEmbedder) dead = NULL;
  g_autoptr(LodeEmbedder) unknown = NULL;
  g_autofree char *dead_url = g_strdup (f->server->url);
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (lode_remote_embedder_spec_is_remote ("ollama"));
  g_assert_true (lode_remote_embedder_spec_is_remote ("openai:text-embedding-3-small"));
  g_assert_false (lode_remote_embedder_spec_is_remote ("bge-small-en-v1.5"));

  embedder = from_spec ("ollama", f->server->url, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "ollama:nomic-embed-text");
  g_assert_cmpstr (mock_server_get_request (f->server, 0)->path, ==, "/api/version");

  /* The URL may also come from the environment, as OLLAMA_HOST without a scheme. */
  g_setenv ("OLLAMA_HOST", f->server->url + strlen ("http://"), TRUE);
  config = lode_config_load (&error);
  g_unsetenv ("OLLAMA_HOST");
  g_assert_no_error (error);
  other = from_spec ("ollama:mxbai-embed-large", config->ollama_url, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (other), ==, "ollama:mxbai-embed-large");
  g_assert_cmpuint (f->server->requests->len, ==, 2);

  unknown = from_spec ("llamafile:x", f->server->url, &error);
  g_assert_null (unknown);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  g_clear_pointer (&f->server, mock_server_free);
  dead = from_spec ("ollama", dead_url, &error);
  g_assert_null (dead);
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "not reachable"));
}

/* Against a real Ollama when LODE_TEST_OLLAMA_URL names one (model: LODE_TEST_OLLAMA_MODEL). */
static void
test_real_server (void)
{
  const char *url = g_getenv ("LODE_TEST_OLLAMA_URL");
  const char *texts[] = { "int main (void) { return 0; }", "parse an HTTP request", NULL };
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  double norm = 0.0;

  if (url == NULL || *url == '\0')
    {
      g_test_skip ("LODE_TEST_OLLAMA_URL is not set");
      return;
    }

  embedder = LODE_EMBEDDER (lode_ollama_embedder_new (url, g_getenv ("LODE_TEST_OLLAMA_MODEL")));
  embeddings = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 2);
  g_assert_cmpuint (embeddings->dims, >, 0);
  for (guint d = 0; d < embeddings->dims; d++)
    norm += embeddings->data[d] * embeddings->data[d];
  g_assert_cmpfloat_with_epsilon (norm, 1.0, 1e-4);
}

int
main (int   argc,
      char *argv[])
{
  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, mode, func) \
  g_test_add ("/lode/ollama/" path, Fixture, GINT_TO_POINTER (mode), setup, func, teardown)

  ADD ("embed", MODE_OK, test_embed);
  ADD ("sync-from-thread", MODE_OK, test_sync_from_thread);
  ADD ("pull-when-missing", MODE_MISSING_THEN_PULL, test_pull_when_missing);
  ADD ("pull-fails", MODE_PULL_FAILS, test_pull_fails);
  ADD ("pull-rejected", MODE_PULL_REJECTED, test_pull_rejected);
  ADD ("no-auto-pull", MODE_MISSING_THEN_PULL, test_no_auto_pull);
  ADD ("http-error", MODE_HTTP_ERROR, test_http_error);
  ADD ("invalid-utf8", MODE_OK, test_invalid_utf8);
  ADD ("malformed-json", MODE_MALFORMED, test_malformed);
  ADD ("wrong-count", MODE_WRONG_COUNT, test_wrong_count);
  ADD ("wrong-dims", MODE_DIMS_CHANGE, test_dims_change);
  ADD ("timeout", MODE_HANG, test_timeout);
  ADD ("busy", MODE_BUSY, test_busy);
  ADD ("query-hang", MODE_HANG, test_query_hang);
  ADD ("refused", MODE_OK, test_refused);
  ADD ("check", MODE_OK, test_check);
  ADD ("check-hang", MODE_VERSION_HANGS, test_check_hang);
  ADD ("from-spec", MODE_OK, test_from_spec);
  ADD ("endless", MODE_ENDLESS, test_endless);
  g_test_add_func ("/lode/ollama/real-server", test_real_server);

#undef ADD

  return g_test_run ();
}
