/* test-embedder-source.c — a dead, hanging or recovering embedding server, seen from the
 * engine: no caller waits for it, searches go on lexically, and it is asked again later
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "lode.h"
#include "lode-embedder-source.h"
#include "lode-ollama-embedder.h"
#include "mock-http-server.h"

/* The server runs on this thread's main context; the blocking calls under test run on threads
 * of their own while it turns. */

typedef struct
{
  MockServer *server;
  gboolean    down;          /* /api/version answers 500 */
  gboolean    hang_version;  /* /api/version never answers */
  gboolean    hang_queries;  /* /api/embed never answers a query */
  guint       n_versions;
} Fixture;

static void
handler (MockServer        *server,
         SoupServerMessage *message,
         const char        *path,
         const char        *body,
         guint              index,
         gpointer           user_data)
{
  Fixture *f = user_data;
  g_autoptr(JsonParser) parser = NULL;
  g_autoptr(GString) out = NULL;
  guint n;

  if (g_str_equal (path, "/api/version"))
    {
      f->n_versions++;
      if (f->hang_version)
        mock_server_hang (server, message);
      else if (f->down)
        mock_reply_json (message, SOUP_STATUS_INTERNAL_SERVER_ERROR, "{\"error\":\"starting\"}");
      else
        mock_reply_json (message, SOUP_STATUS_OK, "{\"version\":\"0.5.7\"}");
      return;
    }

  g_assert_cmpstr (path, ==, "/api/embed");
  /* nomic-embed-text's query prefix tells queries from documents. */
  if (f->hang_queries && strstr (body, "search_query: ") != NULL)
    {
      mock_server_hang (server, message);
      return;
    }

  parser = json_parser_new ();
  g_assert_true (json_parser_load_from_data (parser, body, -1, NULL));
  n = json_array_get_length (json_object_get_array_member (
        json_node_get_object (json_parser_get_root (parser)), "input"));
  out = g_string_new ("{\"embeddings\":[");
  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s[%u,1,0,0]", i > 0 ? "," : "", i + 1);
  g_string_append (out, "]}");
  mock_reply_json (message, SOUP_STATUS_OK, out->str);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  f->server = mock_server_new (handler, f);
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_clear_pointer (&f->server, mock_server_free);
}

typedef struct
{
  GThreadFunc func;
  gpointer    data;
  gpointer    result;
  gint64      elapsed;
  gint        done;
} Call;

static gpointer
call_thread_func (gpointer user_data)
{
  Call *call = user_data;
  gint64 start = g_get_monotonic_time ();

  call->result = call->func (call->data);
  call->elapsed = g_get_monotonic_time () - start;
  g_atomic_int_set (&call->done, TRUE);
  g_main_context_wakeup (NULL);

  return NULL;
}

static GThread *
call_start (Call        *call,
            GThreadFunc  func,
            gpointer     data)
{
  call->func = func;
  call->data = data;
  return g_thread_new ("call", call_thread_func, call);
}

/* Turns the main context until @call is done, or at most @timeout_s seconds. */
static void
call_wait (Call    *call,
           GThread *thread,
           guint    timeout_s)
{
  gint64 deadline = g_get_monotonic_time () + timeout_s * G_USEC_PER_SEC;

  while (!g_atomic_int_get (&call->done))
    {
      if (g_get_monotonic_time () > deadline)
        g_error ("The call did not return within %u s", timeout_s);
      g_main_context_iteration (NULL, TRUE);
    }
  g_thread_join (thread);
}

/* Runs @func on a thread while the main context turns. */
static gpointer
run (GThreadFunc  func,
     gpointer     data,
     gint64      *elapsed)
{
  Call call = { 0 };
  GThread *thread = call_start (&call, func, data);

  call_wait (&call, thread, 60);
  if (elapsed != NULL)
    *elapsed = call.elapsed;

  return call.result;
}

static LodeConfig *
ollama_config (Fixture *f)
{
  LodeConfig *config = lode_config_new_default ();

  g_free (config->embedding_provider);
  config->embedding_provider = g_strdup ("ollama");
  g_free (config->ollama_url);
  config->ollama_url = g_strdup (f->server->url);
  g_free (config->data_dir);
  config->data_dir = g_build_filename (g_get_user_cache_dir (), "lode-data", NULL);

  return config;
}

static gpointer
source_dup_func (gpointer data)
{
  return lode_embedder_source_dup (data, NULL);
}

static gboolean
turn_cb (gpointer user_data)
{
  gboolean *fired = user_data;

  *fired = TRUE;
  return G_SOURCE_REMOVE;
}

/* Turns the main context for @msec. */
static void
turn (guint msec)
{
  gboolean fired = FALSE;

  g_timeout_add (msec, turn_cb, &fired);
  while (!fired)
    g_main_context_iteration (NULL, TRUE);
}

/* A server that was down when first asked is asked again later, and used once it answers. */
static void
test_recovers (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(LodeConfig) config = ollama_config (f);
  g_autoptr(LodeEmbedderSource) source = lode_embedder_source_new (config);
  g_autoptr(LodeEmbedder) none = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autofree char *notice = NULL;
  guint guard = 0;

  lode_embedder_source_set_retry_interval (source, 100, 400);
  f->down = TRUE;
  none = run (source_dup_func, source, NULL);
  g_assert_null (none);
  g_assert_cmpuint (f->n_versions, ==, 1);
  g_assert_null (lode_embedder_source_dup (source, &notice));
  g_assert_nonnull (strstr (notice, "HTTP 500"));
  /* Not asked again before the interval. */
  g_assert_cmpuint (f->n_versions, ==, 1);

  /* Still down: asked again after 100 ms, then 200 ms… */
  while (f->n_versions < 3 && guard++ < 200)
    {
      g_autoptr(LodeEmbedder) still = lode_embedder_source_dup (source, NULL);

      g_assert_null (still);
      turn (20);
    }
  g_assert_cmpuint (f->n_versions, ==, 3);

  f->down = FALSE;
  for (guard = 0; embedder == NULL && guard < 200; guard++)
    {
      embedder = lode_embedder_source_dup (source, NULL);
      turn (20);
    }
  g_assert_nonnull (embedder);
  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "ollama:nomic-embed-text");
  g_assert_cmpuint (f->n_versions, ==, 4);
}

static gpointer
engine_dup_func (gpointer data)
{
  return lode_engine_dup_embedder (data, NULL);
}

static gpointer
engine_turn_off_func (gpointer data)
{
  lode_engine_set_embedder (data, NULL);
  return NULL;
}

/* A server that never answers its check holds no one else up, and its first caller for a
 * few seconds only. */
static void
test_check_hangs (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(LodeConfig) config = ollama_config (f);
  g_autoptr(LodeEngine) engine = lode_engine_new (config);
  g_autoptr(LodeEmbedder) embedder = NULL;
  Call first = { 0 };
  GThread *first_thread;
  gint64 elapsed;

  f->hang_version = TRUE;
  first_thread = call_start (&first, engine_dup_func, engine);
  while (f->n_versions == 0)
    g_main_context_iteration (NULL, TRUE);

  /* Meanwhile the engine answers others at once. */
  run (engine_turn_off_func, engine, &elapsed);
  g_assert_cmpint (elapsed, <, G_USEC_PER_SEC);
  g_assert_false (g_atomic_int_get (&first.done));

  call_wait (&first, first_thread, 30);
  g_assert_cmpint (first.elapsed, <, 10 * G_USEC_PER_SEC);
  /* The check came back after set_embedder(): what that said stands. */
  g_assert_null (first.result);
  embedder = lode_engine_dup_embedder (engine, NULL);
  g_assert_null (embedder);
}

typedef struct
{
  LodeProject *project;
  const char  *query;
} Search;

static gpointer
index_func (gpointer data)
{
  g_autoptr(GError) error = NULL;
  LodeIndexReport *report = lode_project_index (data, NULL, NULL, NULL, &error);

  g_assert_no_error (error);
  return report;
}

static gpointer
search_func (gpointer data)
{
  Search *search = data;
  g_autoptr(GError) error = NULL;
  LodeSearchOptions options = LODE_SEARCH_OPTIONS_INIT;
  LodeSearchResponse *response;

  options.query = search->query;
  options.mode = LODE_SEARCH_MODE_HYBRID;
  response = lode_project_search_full (search->project, &options, NULL, &error);
  g_assert_no_error (error);

  return response;
}

/* Searches go on lexically while the server hangs: one waits for the query timeout, the
 * next ones not at all. */
static void
test_lexical_fallback (Fixture       *f,
                       gconstpointer  data)
{
  g_autoptr(LodeConfig) config = ollama_config (f);
  g_autoptr(LodeEngine) engine = lode_engine_new (config);
  g_autoptr(LodeOllamaEmbedder) ollama = lode_ollama_embedder_new (f->server->url, NULL);
  g_autofree char *root = g_build_filename (g_get_user_cache_dir (), "tree", NULL);
  g_autofree char *file = g_build_filename (root, "ledger.c", NULL);
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(LodeIndexReport) report = NULL;
  g_autoptr(GError) error = NULL;
  Search search = { NULL, "ledger_balance" };

  g_assert_cmpint (g_mkdir_with_parents (root, 0700), ==, 0);
  g_file_set_contents (file, "int ledger_balance (void) { return 0; }\n", -1, &error);
  g_assert_no_error (error);

  lode_ollama_embedder_set_timeout (ollama, 1);
  lode_engine_set_embedder (engine, LODE_EMBEDDER (ollama));
  project = lode_engine_open_project (engine, root, FALSE, &error);
  g_assert_no_error (error);
  report = run (index_func, project, NULL);
  g_assert_cmpuint (report->n_embedded, ==, 1);

  f->hang_queries = TRUE;
  search.project = project;
  for (guint i = 0; i < 3; i++)
    {
      g_autoptr(LodeSearchResponse) response = NULL;
      gint64 elapsed;

      response = run (search_func, &search, &elapsed);
      g_assert_cmpint (response->mode, ==, LODE_SEARCH_MODE_LEXICAL);
      g_assert_cmpuint (response->results->len, ==, 1);
      g_assert_nonnull (strstr (response->notice, "No answer within 1 s"));
      if (i > 0)
        g_assert_cmpint (elapsed, <, G_USEC_PER_SEC / 2);
    }
}

int
main (int   argc,
      char *argv[])
{
  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add ("/lode/embedder-source/recovers", Fixture, NULL, setup, test_recovers, teardown);
  g_test_add ("/lode/embedder-source/check-hangs", Fixture, NULL, setup, test_check_hangs,
              teardown);
  g_test_add ("/lode/embedder-source/lexical-fallback", Fixture, NULL, setup,
              test_lexical_fallback, teardown);

  return g_test_run ();
}
