/* test-qdrant-client.c — LodeQdrantClient against the loopback Qdrant (or a real one)
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib/gstdio.h>

#include "lode.h"
#include "lode-qdrant-client.h"
#include "qdrant-server.h"
#include "test-helpers.h"

/* The error first, so a failure shows its message. */
#define assert_ok(call) \
  G_STMT_START { gboolean ok_ = (call); g_assert_no_error (error); g_assert_true (ok_); } G_STMT_END

static LodeQdrantClient *
new_client (QdrantServer *server,
            const char   *api_key)
{
  g_autoptr(GError) error = NULL;
  LodeQdrantClient *client = lode_qdrant_client_new (server->url, api_key, &error);

  g_assert_no_error (error);
  /* Retries without the production pauses. */
  lode_qdrant_client_set_retry (client, 4, 5);
  return client;
}

static JsonNode *
point_new (guint64      id,
           const char  *path,
           const float *dense,
           guint        dims,
           guint32      term,
           double       weight,
           const char  *filler)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "id");
  json_builder_add_int_value (builder, (gint64) id);
  json_builder_set_member_name (builder, "vector");
  json_builder_begin_object (builder);
  if (dense != NULL)
    {
      json_builder_set_member_name (builder, "dense");
      json_builder_begin_array (builder);
      for (guint i = 0; i < dims; i++)
        json_builder_add_double_value (builder, dense[i]);
      json_builder_end_array (builder);
    }
  json_builder_set_member_name (builder, "bm25");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "indices");
  json_builder_begin_array (builder);
  json_builder_add_int_value (builder, term);
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "values");
  json_builder_begin_array (builder);
  json_builder_add_double_value (builder, weight);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "payload");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "path");
  json_builder_add_string_value (builder, path);
  if (filler != NULL)
    {
      json_builder_set_member_name (builder, "text");
      json_builder_add_string_value (builder, filler);
    }
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  return json_builder_get_root (builder);
}

static GPtrArray *
points_new (guint        n,
            guint        dims,
            gsize        filler_len)
{
  GPtrArray *points = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autofree char *filler = filler_len > 0 ? g_strnfill (filler_len, 'x') : NULL;

  for (guint i = 0; i < n; i++)
    {
      g_autofree char *path = g_strdup_printf ("src/file%03u.c", i / 4);
      float dense[3] = { 1.0f, (float) i, 0.5f };

      g_ptr_array_add (points, point_new (i + 1, path, dims > 0 ? dense : NULL, dims, i % 7,
                                          1.0, filler));
    }
  return points;
}

static char *
make_collection (QdrantServer     *server,
                 LodeQdrantClient *client,
                 const char       *name,
                 guint             dims)
{
  g_autofree char *collection = qdrant_server_collection (server, name);
  LodeQdrantCollectionSpec spec = { .dims = dims };
  g_autoptr(GError) error = NULL;

  lode_qdrant_client_delete_collection (client, collection, NULL, NULL);
  assert_ok (lode_qdrant_client_create_collection (client, collection, &spec, NULL, &error));
  assert_ok (lode_qdrant_client_create_payload_index (client, collection, "path", "keyword",
                                                          NULL, &error));
  return g_steal_pointer (&collection);
}

static guint64
count_points (LodeQdrantClient *client,
              const char       *collection,
              JsonNode         *filter)
{
  g_autoptr(GError) error = NULL;
  guint64 count = 0;

  assert_ok (lode_qdrant_client_count (client, collection, filter, &count, NULL, &error));
  return count;
}

/* A loopback server, a client of it and an empty collection named by the test's data. */
typedef struct
{
  QdrantServer     *server;
  LodeQdrantClient *client;
  char             *collection;
} Loopback;

static void
loopback_setup (Loopback      *fixture,
                gconstpointer  data)
{
  fixture->server = qdrant_server_new_loopback (NULL);
  fixture->client = new_client (fixture->server, NULL);
  fixture->collection = make_collection (fixture->server, fixture->client, data, 3);
}

static void
loopback_teardown (Loopback      *fixture,
                   gconstpointer  data)
{
  g_clear_pointer (&fixture->collection, g_free);
  g_clear_object (&fixture->client);
  g_clear_pointer (&fixture->server, qdrant_server_free);
}

/* ---- connecting ------------------------------------------------------------------------ */

static void
test_connect (void)
{
  g_autoptr(QdrantServer) server = qdrant_server_new (NULL);
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autoptr(GError) error = NULL;

  client = new_client (server, g_getenv ("LODE_TEST_QDRANT_API_KEY"));
  assert_ok (lode_qdrant_client_connect (client, NULL, &error));
  g_assert_nonnull (lode_qdrant_client_get_server_version (client));
  qdrant_server_assert_valid (server);
}

static void
test_old_version (void)
{
  const char *args[] = { "--version", "1.12.4", NULL };
  g_autoptr(QdrantServer) server = qdrant_server_new_loopback (args);
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autoptr(GError) error = NULL;

  client = new_client (server, NULL);
  g_assert_false (lode_qdrant_client_connect (client, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_UNSUPPORTED);
  /* The version found and the one needed, so a user knows what to upgrade to. */
  g_assert_nonnull (strstr (error->message, "1.12.4"));
  g_assert_nonnull (strstr (error->message, LODE_QDRANT_MIN_VERSION));
}

static void
test_bad_url (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_null (lode_qdrant_client_new ("localhost:6333", NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);
  g_assert_null (lode_qdrant_client_new ("ftp://example.org", NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
}

static void
test_unreachable (void)
{
  g_autoptr(GSocketListener) listener = g_socket_listener_new ();
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *url = NULL;
  guint16 port;

  /* A port nobody listens on: bind one, then close it. */
  port = g_socket_listener_add_any_inet_port (listener, NULL, &error);
  g_assert_no_error (error);
  g_socket_listener_close (listener);
  url = g_strdup_printf ("http://127.0.0.1:%u", port);

  /* A read is sent at most three times, whatever the retries allowed for writes (six by
   * default, about half a minute): someone waits for it, and it changed nothing to resume. */
  client = lode_qdrant_client_new (url, NULL, &error);
  g_assert_no_error (error);
  lode_qdrant_client_set_retry (client, 6, 5);
  g_assert_false (lode_qdrant_client_connect (client, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, url));
  g_assert_nonnull (strstr (error->message, "after 3 attempts"));
  g_assert_null (strstr (error->message, "resumes"));
}

static void
test_api_key (void)
{
  const char *args[] = { "--api-key", "s3cret-key-1234", NULL };
  g_autoptr(QdrantServer) server = qdrant_server_new_loopback (args);
  g_autoptr(LodeQdrantClient) anonymous = NULL;
  g_autoptr(LodeQdrantClient) wrong = NULL;
  g_autoptr(LodeQdrantClient) right = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) names = NULL;

  anonymous = new_client (server, NULL);
  g_assert_null (lode_qdrant_client_list_collections (anonymous, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "lode secret set qdrant"));
  g_clear_error (&error);

  wrong = new_client (server, "wrong-key-5678");
  g_assert_null (lode_qdrant_client_list_collections (wrong, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_null (strstr (error->message, "wrong-key-5678"));
  g_clear_error (&error);

  right = new_client (server, "s3cret-key-1234");
  names = lode_qdrant_client_list_collections (right, NULL, &error);
  g_assert_no_error (error);
  g_assert_nonnull (names);
  qdrant_server_assert_valid (server);
}

/* ---- points ---------------------------------------------------------------------------- */

static void
test_points (void)
{
  g_autoptr(QdrantServer) server = qdrant_server_new (NULL);
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GPtrArray) scrolled = NULL;
  g_autoptr(GPtrArray) got = NULL;
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *collection = NULL;
  const char *fields[] = { "path", NULL };
  const char *ids[] = { "1", "2", "999" };
  gboolean exists = FALSE;

  client = new_client (server, g_getenv ("LODE_TEST_QDRANT_API_KEY"));
  collection = make_collection (server, client, "points", 3);

  g_assert_true (lode_qdrant_client_collection_exists (client, collection, &exists, NULL, &error));
  g_assert_true (exists);

  points = points_new (40, 3, 0);
  assert_ok (lode_qdrant_client_upsert (client, collection, points, NULL, &error));
  g_assert_cmpuint (count_points (client, collection, NULL), ==, 40);

  /* Scrolling pages through everything, in id order. */
  scrolled = lode_qdrant_client_scroll (client, collection, NULL, fields, NULL, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (scrolled->len, ==, 40);
  g_assert_cmpstr (((LodeQdrantHit *) scrolled->pdata[0])->id, ==, "1");
  g_assert_cmpstr (json_object_get_string_member (((LodeQdrantHit *) scrolled->pdata[39])->payload,
                                                  "path"), ==, "src/file009.c");

  got = lode_qdrant_client_retrieve (client, collection, ids, G_N_ELEMENTS (ids), fields, NULL,
                                     &error);
  g_assert_no_error (error);
  g_assert_cmpuint (got->len, ==, 2);

  /* Deleting by filter removes exactly the file's points. */
  filter = lode_qdrant_filter_match ("path", "src/file002.c");
  g_assert_cmpuint (count_points (client, collection, filter), ==, 4);
  assert_ok (lode_qdrant_client_delete (client, collection, filter, NULL, &error));
  g_assert_cmpuint (count_points (client, collection, filter), ==, 0);
  g_assert_cmpuint (count_points (client, collection, NULL), ==, 36);

  g_assert_true (lode_qdrant_client_delete_collection (client, collection, NULL, &error));
  g_assert_true (lode_qdrant_client_collection_exists (client, collection, &exists, NULL, &error));
  g_assert_false (exists);
  qdrant_server_assert_valid (server);
}

/* Aliases as Qdrant documents them: a second name for every operation on a collection's
 * points and its info, switched atomically, refused when they would name a missing collection
 * or hide a collection, dropped with their collection. */
static void
test_aliases (void)
{
  g_autoptr(QdrantServer) server = qdrant_server_new (NULL);
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GHashTable) aliases = NULL;
  g_autoptr(JsonNode) info = NULL;
  g_autoptr(JsonNode) owned = NULL;
  g_autoptr(JsonNode) empty = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *first = NULL;
  g_autofree char *second = NULL;
  g_autofree char *alias = NULL;
  g_autofree char *missing = NULL;
  g_autofree char *info_path = NULL;
  g_autofree char *aliases_path = NULL;
  gboolean exists = FALSE;

  client = new_client (server, g_getenv ("LODE_TEST_QDRANT_API_KEY"));
  first = make_collection (server, client, "aliased-1", 3);
  second = make_collection (server, client, "aliased-2", 3);
  alias = qdrant_server_collection (server, "alias");
  missing = qdrant_server_collection (server, "missing");
  points = points_new (8, 3, 0);
  assert_ok (lode_qdrant_client_upsert (client, first, points, NULL, &error));

  /* Points, counts and info through the alias. */
  assert_ok (lode_qdrant_client_switch_alias (client, alias, first, NULL, &error));
  aliases = lode_qdrant_client_list_aliases (client, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (g_hash_table_lookup (aliases, alias), ==, first);
  g_assert_true (lode_qdrant_client_collection_exists (client, alias, &exists, NULL, &error));
  g_assert_true (exists);
  g_assert_cmpuint (count_points (client, alias, NULL), ==, 8);
  info_path = g_strdup_printf ("/collections/%s", alias);
  info = lode_qdrant_client_call (client, "GET", info_path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpint (json_object_get_int_member (json_node_get_object (info), "points_count"), ==, 8);
  aliases_path = g_strdup_printf ("/collections/%s/aliases", first);
  owned = lode_qdrant_client_call (client, "GET", aliases_path, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (json_array_get_length (json_object_get_array_member (
                      json_node_get_object (owned), "aliases")), ==, 1);

  /* Switched in one request: now the empty collection. */
  assert_ok (lode_qdrant_client_switch_alias (client, alias, second, NULL, &error));
  g_assert_cmpuint (count_points (client, alias, NULL), ==, 0);

  /* No alias of a missing collection, none with a collection's name, no collection with an
   * alias's name. */
  g_assert_false (lode_qdrant_client_switch_alias (client, first, second, NULL, &error));
  g_assert_nonnull (error);
  g_clear_error (&error);
  empty = json_node_new (JSON_NODE_OBJECT);
  json_node_take_object (empty, json_object_new ());
  g_assert_null (lode_qdrant_client_call (client, "PUT", info_path, empty, NULL, &error));
  g_assert_nonnull (error);
  g_assert_nonnull (strstr (error->message, "Alias with the same name already exists"));
  g_clear_error (&error);
  g_assert_false (lode_qdrant_client_switch_alias (client, alias, missing, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Deleting a collection by an alias deletes nothing; deleting it drops its aliases. */
  assert_ok (lode_qdrant_client_switch_alias (client, alias, second, NULL, &error));
  assert_ok (lode_qdrant_client_delete_collection (client, alias, NULL, &error));
  g_assert_true (lode_qdrant_client_collection_exists (client, second, &exists, NULL, &error));
  g_assert_true (exists);
  assert_ok (lode_qdrant_client_delete_collection (client, second, NULL, &error));
  g_clear_pointer (&aliases, g_hash_table_unref);
  aliases = lode_qdrant_client_list_aliases (client, NULL, &error);
  g_assert_no_error (error);
  g_assert_false (g_hash_table_contains (aliases, alias));
  g_assert_true (lode_qdrant_client_collection_exists (client, alias, &exists, NULL, &error));
  g_assert_false (exists);

  lode_qdrant_client_delete_collection (client, first, NULL, NULL);
  qdrant_server_assert_valid (server);
}

static void
test_batches (Loopback      *fixture,
              gconstpointer  data)
{
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GPtrArray) huge = NULL;
  g_autoptr(GError) error = NULL;
  gsize largest = 0;
  guint n_requests;

  /* 100 points of about 1 kB under a 16 kB limit: several requests, none over it. */
  lode_qdrant_client_set_max_request_bytes (fixture->client, 16 * 1024);
  points = points_new (100, 3, 1000);
  assert_ok (lode_qdrant_client_upsert (fixture->client, fixture->collection, points, NULL,
                                        &error));
  n_requests = qdrant_server_count_requests (fixture->server, "PUT", "/points", &largest);
  g_assert_cmpuint (n_requests, >=, 7);
  g_assert_cmpuint (largest, <=, 16 * 1024);
  g_assert_cmpuint (count_points (fixture->client, fixture->collection, NULL), ==, 100);

  /* A single point over the limit is an error that says so, not a request the server
   * refuses. */
  huge = points_new (1, 3, 20 * 1024);
  g_assert_false (lode_qdrant_client_upsert (fixture->client, fixture->collection, huge, NULL,
                                             &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "does not fit"));
  g_assert_cmpuint (qdrant_server_count_requests (fixture->server, "PUT", "/points", NULL), ==,
                    n_requests);
  qdrant_server_assert_valid (fixture->server);
}

/* ---- faults ---------------------------------------------------------------------------- */

static void
test_retry_busy (Loopback      *fixture,
                 gconstpointer  data)
{
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GError) error = NULL;

  /* 429 with Retry-After: 0, then 503 without it: the upsert still lands, on its third try. */
  qdrant_server_add_fault (fixture->server,
                           "[{\"method\": \"PUT\", \"path\": \"/points\", \"status\": 429,"
                           " \"retry_after\": 0},"
                           " {\"method\": \"PUT\", \"path\": \"/points\", \"status\": 503}]");
  points = points_new (10, 3, 0);
  assert_ok (lode_qdrant_client_upsert (fixture->client, fixture->collection, points, NULL,
                                        &error));
  g_assert_cmpuint (qdrant_server_count_requests (fixture->server, "PUT", "/points", NULL), ==, 3);
  g_assert_cmpuint (count_points (fixture->client, fixture->collection, NULL), ==, 10);
  qdrant_server_assert_valid (fixture->server);
}

/* A server's answer is JSON from outside: nested past any sense, it is refused, not parsed
 * into a stack overflow, whether it comes as a result or as an error. */
static void
test_deep_reply (Loopback      *fixture,
                 gconstpointer  data)
{
  g_autofree char *deep = g_strnfill (100000, '[');
  g_autofree char *faults = g_strdup_printf (
    "[{\"path\": \"/points/count\", \"kind\": \"raw\", \"status\": 200, \"body\": \"%s\"},"
    " {\"path\": \"/points/count\", \"kind\": \"raw\", \"status\": 400, \"body\": \"%s\"}]",
    deep, deep);
  g_autoptr(GError) error = NULL;
  guint64 count = 0;

  qdrant_server_add_fault (fixture->server, faults);
  g_assert_false (lode_qdrant_client_count (fixture->client, fixture->collection, NULL, &count,
                                            NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "invalid JSON"));
  g_clear_error (&error);

  g_assert_false (lode_qdrant_client_count (fixture->client, fixture->collection, NULL, &count,
                                            NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "400"));
  g_clear_error (&error);

  /* The faults are spent: the same call succeeds. */
  g_assert_cmpuint (count_points (fixture->client, fixture->collection, NULL), ==, 0);
}

/* The "sent" of the request to a path the loopback answered with an endless body, once the
 * client hung up on it; -1 while the server still writes. */
static gint64
endless_sent (QdrantServer *server,
              const char   *path_part)
{
  g_autoptr(JsonNode) state = qdrant_server_dup_state (server);
  JsonArray *requests = json_object_get_array_member (json_node_get_object (state), "requests");

  for (guint i = 0; i < json_array_get_length (requests); i++)
    {
      JsonObject *request = json_array_get_object_element (requests, i);

      if (strstr (json_object_get_string_member (request, "path"), path_part) != NULL &&
          json_object_has_member (request, "sent"))
        return json_object_get_int_member (request, "sent");
    }
  return -1;
}

/* An answer that never ends (#31 item 7: 4.2 GB in 60 s) is an error once 64 MiB of it were
 * read, not retried, and its connection is dropped: the server could send only that and what
 * the socket buffers hold. */
static void
test_endless_reply (Loopback      *fixture,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  gint64 deadline;
  gint64 sent = -1;
  guint64 count = 0;

  qdrant_server_add_fault (fixture->server,
                           "[{\"path\": \"/points/count\", \"kind\": \"endless\"}]");
  g_assert_false (lode_qdrant_client_count (fixture->client, fixture->collection, NULL, &count,
                                            NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "POST http://127.0.0.1:"));
  g_assert_nonnull (strstr (error->message, "/points/count"));
  g_assert_nonnull (strstr (error->message, "is larger than 67.1"));
  g_assert_cmpuint (qdrant_server_count_requests (fixture->server, "POST", "/points/count", NULL),
                    ==, 1);

  deadline = g_get_monotonic_time () + (gint64) test_timeout_seconds (10) * G_USEC_PER_SEC;
  while ((sent = endless_sent (fixture->server, "/points/count")) < 0 &&
         g_get_monotonic_time () < deadline)
    g_usleep (G_USEC_PER_SEC / 20);
  g_assert_cmpint (sent, >=, 64 * 1024 * 1024);
  g_assert_cmpint (sent, <, (64 + 16) * 1024 * 1024);

  /* The fault is spent: the same call succeeds. */
  g_assert_cmpuint (count_points (fixture->client, fixture->collection, NULL), ==, 0);
}

static void
test_give_up (Loopback      *fixture,
              gconstpointer  data)
{
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GError) error = NULL;

  qdrant_server_add_fault (fixture->server,
                           "[{\"path\": \"/points\", \"status\": 503, \"count\": 100}]");
  points = points_new (10, 3, 0);
  g_assert_false (lode_qdrant_client_upsert (fixture->client, fixture->collection, points, NULL,
                                             &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  /* Bounded: 1 + 4 retries, and the message says what happened and what is kept. */
  g_assert_cmpuint (qdrant_server_count_requests (fixture->server, "PUT", "/points", NULL), ==, 5);
  g_assert_nonnull (strstr (error->message, "after 5 attempts"));
  g_assert_nonnull (strstr (error->message, "503"));
  g_assert_nonnull (strstr (error->message, "next run resumes"));
}

static void
test_timeout (Loopback      *fixture,
              gconstpointer  data)
{
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GError) error = NULL;

  /* The first upsert hangs past the timeout; the client gives up on it and sends it again. */
  qdrant_server_add_fault (fixture->server,
                           "[{\"method\": \"PUT\", \"path\": \"/points\", \"kind\": \"hang\","
                           " \"seconds\": 5}]");
  lode_qdrant_client_set_timeout (fixture->client, 1);
  points = points_new (5, 3, 0);
  assert_ok (lode_qdrant_client_upsert (fixture->client, fixture->collection, points, NULL,
                                        &error));
  g_assert_cmpuint (qdrant_server_count_requests (fixture->server, "PUT", "/points", NULL), ==, 2);
  g_assert_cmpuint (count_points (fixture->client, fixture->collection, NULL), ==, 5);
}

static void
test_node_gone_mid_batch (Loopback      *fixture,
                          gconstpointer  data)
{
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GError) error = NULL;

  lode_qdrant_client_set_max_request_bytes (fixture->client, 4 * 1024);

  /* The third request's connection breaks before it is applied, the fifth's after: the
   * client sends both again (upserts by id are idempotent) and nothing is lost or doubled. */
  qdrant_server_add_fault (fixture->server,
                           "[{\"method\": \"PUT\", \"path\": \"/points\", \"kind\": \"drop\","
                           " \"skip\": 2},"
                           " {\"method\": \"PUT\", \"path\": \"/points\","
                           " \"kind\": \"drop-after-apply\", \"skip\": 4}]");
  points = points_new (60, 3, 300);
  assert_ok (lode_qdrant_client_upsert (fixture->client, fixture->collection, points, NULL,
                                        &error));
  g_assert_cmpuint (count_points (fixture->client, fixture->collection, NULL), ==, 60);
  qdrant_server_assert_valid (fixture->server);
}

static gboolean
cancel_cb (gpointer user_data)
{
  g_cancellable_cancel (user_data);
  return G_SOURCE_REMOVE;
}

static gpointer
upsert_thread_func (gpointer user_data)
{
  gpointer *args = user_data;
  GError *error = NULL;

  lode_qdrant_client_upsert (args[0], args[1], args[2], args[3], &error);
  return error;
}

static void
test_cancel (Loopback      *fixture,
             gconstpointer  data)
{
  g_autoptr(GPtrArray) points = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  gpointer args[4];
  GThread *thread;
  gint64 start;

  /* Busy for a long while, with long pauses: cancelling ends the wait at once. */
  qdrant_server_add_fault (fixture->server,
                           "[{\"path\": \"/points\", \"status\": 503, \"count\": 100}]");
  lode_qdrant_client_set_retry (fixture->client, 10, 60 * 1000);
  points = points_new (5, 3, 0);
  args[0] = fixture->client;
  args[1] = fixture->collection;
  args[2] = points;
  args[3] = cancellable;
  start = g_get_monotonic_time ();
  thread = g_thread_new ("upsert", upsert_thread_func, args);
  g_timeout_add (300, cancel_cb, cancellable);
  while (!g_cancellable_is_cancelled (cancellable))
    g_main_context_iteration (NULL, TRUE);
  error = g_thread_join (thread);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_cmpint (g_get_monotonic_time () - start, <, 10 * G_USEC_PER_SEC);
}

/* ---- queries --------------------------------------------------------------------------- */

static void
test_hybrid (void)
{
  g_autoptr(QdrantServer) server = qdrant_server_new (NULL);
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autoptr(GPtrArray) points = g_ptr_array_new_with_free_func ((GDestroyNotify) json_node_unref);
  g_autoptr(GPtrArray) hits = NULL;
  g_autoptr(GPtrArray) lexical = NULL;
  g_autoptr(JsonNode) filter = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *collection = NULL;
  const float a[3] = { 1, 0, 0 }, b[3] = { 0, 1, 0 }, c[3] = { 0.8f, 0.6f, 0 };
  const float query[3] = { 1, 0.1f, 0 };
  guint32 term = 7;
  float one = 1.0f;
  LodeSparseVector sparse = { &term, &one, 1 };
  LodeQdrantHit *first;

  client = new_client (server, g_getenv ("LODE_TEST_QDRANT_API_KEY"));
  collection = make_collection (server, client, "hybrid", 3);

  /* 1: nearest, without the term. 2: the term once, farthest. 3: the term twice, second
   * nearest. */
  g_ptr_array_add (points, point_new (1, "a.c", a, 3, 3, 1.0, NULL));
  g_ptr_array_add (points, point_new (2, "b.c", b, 3, 7, 1.0, NULL));
  g_ptr_array_add (points, point_new (3, "c.c", c, 3, 7, 2.0, NULL));
  assert_ok (lode_qdrant_client_upsert (client, collection, points, NULL, &error));

  hits = lode_qdrant_client_query_hybrid (client, collection, query, 3, &sparse, NULL, NULL, 10, 10,
                                          NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, 3);
  /* Point 3 is first in the lexical leg and second in the dense one: 1/60 + 1/61, Lode's RRF
   * at k = 60 with 1-based ranks. */
  first = hits->pdata[0];
  g_assert_cmpstr (first->id, ==, "3");
  g_assert_cmpfloat_with_epsilon (first->score, 1.0 / 60.0 + 1.0 / 61.0, 1e-5);
  g_assert_cmpstr (json_object_get_string_member (first->payload, "path"), ==, "c.c");

  /* The filter reaches both legs. */
  filter = lode_qdrant_filter_match ("path", "b.c");
  g_clear_pointer (&hits, g_ptr_array_unref);
  hits = lode_qdrant_client_query_hybrid (client, collection, query, 3, &sparse, filter, NULL,
                                          10, 10, NULL, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (hits->len, ==, 1);
  g_assert_cmpstr (((LodeQdrantHit *) hits->pdata[0])->id, ==, "2");

  /* The sparse leg alone finds only the points holding the term. */
  lexical = lode_qdrant_client_query (client, collection, "bm25", NULL, 0, &sparse, NULL, 10, NULL,
                                      NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lexical->len, ==, 2);
  qdrant_server_assert_valid (server);
  lode_qdrant_client_delete_collection (client, collection, NULL, NULL);
}

/* ---- TLS ------------------------------------------------------------------------------- */

static void
test_tls (void)
{
  g_autofree char *dir = g_dir_make_tmp ("lode-qdrant-tls-XXXXXX", NULL);
  g_autofree char *cert = g_build_filename (dir, "cert.pem", NULL);
  g_autofree char *key = g_build_filename (dir, "key.pem", NULL);
  g_autofree char *openssl = g_find_program_in_path ("openssl");
  g_autoptr(QdrantServer) server = NULL;
  g_autoptr(LodeQdrantClient) client = NULL;
  g_autoptr(LodeQdrantClient) trusting = NULL;
  g_autoptr(GError) error = NULL;
  int status = 0;

  if (openssl == NULL)
    {
      g_test_skip ("openssl is not installed");
      test_remove_tree (dir);
      return;
    }

  {
    const char *argv[] = { openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                           "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1",
                           "-keyout", key, "-out", cert, NULL };

    g_spawn_sync (NULL, (char **) argv, NULL, G_SPAWN_STDOUT_TO_DEV_NULL |
                  G_SPAWN_STDERR_TO_DEV_NULL, NULL, NULL, NULL, NULL, &status, &error);
    g_assert_no_error (error);
    g_assert_true (g_spawn_check_wait_status (status, NULL));
  }

  {
    const char *args[] = { "--tls-cert", cert, "--tls-key", key, NULL };

    server = qdrant_server_new_loopback (args);
  }
  g_assert_true (g_str_has_prefix (server->url, "https://"));

  /* A certificate no trusted authority signed is refused, and the error says what to do. */
  client = new_client (server, NULL);
  g_assert_false (lode_qdrant_client_connect (client, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_STORE);
  g_assert_nonnull (strstr (error->message, "not trusted"));
  g_assert_nonnull (strstr (error->message, "LODE_QDRANT_CA_FILE"));
  g_clear_error (&error);

  /* Trusting the private CA (here the certificate itself) lets it through. */
  trusting = new_client (server, NULL);
  g_assert_true (lode_qdrant_client_set_ca_file (trusting, cert, &error));
  assert_ok (lode_qdrant_client_connect (trusting, NULL, &error));

  test_remove_tree (dir);
}

int
main (int   argc,
      char *argv[])
{
  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/qdrant-client/connect", test_connect);
  g_test_add_func ("/lode/qdrant-client/old-version", test_old_version);
  g_test_add_func ("/lode/qdrant-client/bad-url", test_bad_url);
  g_test_add_func ("/lode/qdrant-client/unreachable", test_unreachable);
  g_test_add_func ("/lode/qdrant-client/api-key", test_api_key);
  g_test_add_func ("/lode/qdrant-client/points", test_points);
  g_test_add_func ("/lode/qdrant-client/aliases", test_aliases);
  g_test_add ("/lode/qdrant-client/batches", Loopback, "batches", loopback_setup, test_batches,
              loopback_teardown);
  g_test_add ("/lode/qdrant-client/retry-busy", Loopback, "busy", loopback_setup, test_retry_busy,
              loopback_teardown);
  g_test_add ("/lode/qdrant-client/give-up", Loopback, "down", loopback_setup, test_give_up,
              loopback_teardown);
  g_test_add ("/lode/qdrant-client/deep-reply", Loopback, "deep", loopback_setup,
              test_deep_reply, loopback_teardown);
  g_test_add ("/lode/qdrant-client/endless-reply", Loopback, "endless", loopback_setup,
              test_endless_reply, loopback_teardown);
  g_test_add ("/lode/qdrant-client/timeout", Loopback, "slow", loopback_setup, test_timeout,
              loopback_teardown);
  g_test_add ("/lode/qdrant-client/node-gone-mid-batch", Loopback, "gone", loopback_setup,
              test_node_gone_mid_batch, loopback_teardown);
  g_test_add ("/lode/qdrant-client/cancel", Loopback, "cancel", loopback_setup, test_cancel,
              loopback_teardown);
  g_test_add_func ("/lode/qdrant-client/hybrid", test_hybrid);
  g_test_add_func ("/lode/qdrant-client/tls", test_tls);

  return g_test_run ();
}
