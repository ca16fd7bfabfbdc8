/* test-builtin-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <math.h>
#include <string.h>

#include "lode-builtin-embedder.h"
#include "lode-error.h"
#include "lode-models.h"
#include "test-helpers.h"

#define TOLERANCE 1e-4
#define BGE_PREFIX "Represent this sentence for searching relevant passages: "

static LodeEmbedder *
fixture_embedder (void)
{
  g_autoptr(GError) error = NULL;
  LodeEmbedder *embedder = lode_builtin_embedder_new (test_tiny_bert_dir (), &error);

  g_assert_no_error (error);
  g_assert_true (LODE_IS_BUILTIN_EMBEDDER (embedder));
  return embedder;
}

static double
max_abs_diff (const float *vector,
              JsonArray   *expected)
{
  double max = 0.0;

  for (guint i = 0; i < json_array_get_length (expected); i++)
    max = MAX (max, fabs (vector[i] - json_array_get_double_element (expected, i)));

  return max;
}

/* The short reference cases (all but the 600-word one, which exceeds the limit) through
 * the LodeEmbedder interface. */
static void
assert_reference_short (LodeEmbedder     *embedder,
                        LodeEmbedPurpose  purpose,
                        const char       *member)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cases = test_tiny_bert_cases (parser);
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);

      if (json_array_get_length (json_object_get_array_member (c, "input_ids")) < 256)
        g_ptr_array_add (texts, (gpointer) json_object_get_string_member (c, "text"));
    }
  g_assert_cmpuint (texts->len, ==, json_array_get_length (cases) - 1);
  g_ptr_array_add (texts, NULL);

  embeddings = lode_embedder_embed_sync (embedder, (const char * const *) texts->pdata, purpose,
                                         NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, texts->len - 1);
  g_assert_cmpuint (embeddings->dims, ==, 32);
  for (guint i = 0; i < embeddings->n_vectors; i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      double diff = max_abs_diff (embeddings->data + i * 32, json_object_get_array_member (c, member));

      g_test_message ("case %u, %s: max abs diff %.2e", i, member, diff);
      g_assert_cmpfloat (diff, <=, TOLERANCE);
    }
}

static void
test_folder (void)
{
  g_autoptr(LodeEmbedder) embedder = fixture_embedder ();
  LodeBuiltinEmbedder *builtin = LODE_BUILTIN_EMBEDDER (embedder);

  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "tiny-bert-random");
  g_assert_cmpuint (lode_embedder_get_dims (embedder), ==, 32);
  /* The tokenizer's 256 is below the 512 positions of the model. */
  g_assert_cmpuint (lode_embedder_get_max_tokens (embedder), ==, 256);
  /* No 1_Pooling/config.json: mean pooling, no prefixes. */
  g_assert_cmpint (lode_builtin_embedder_get_pooling (builtin), ==, LODE_POOLING_MEAN);
  assert_reference_short (embedder, LODE_EMBED_DOCUMENT, "mean_normalized");
  assert_reference_short (embedder, LODE_EMBED_QUERY, "mean_normalized");

  lode_builtin_embedder_set_pooling (builtin, LODE_POOLING_CLS);
  assert_reference_short (embedder, LODE_EMBED_DOCUMENT, "cls_normalized");
}

static void
test_async (void)
{
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbedder) missing = NULL;
  const char *texts[] = { "first text", "second", NULL };
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  /* Loading in a worker thread. */
  lode_builtin_embedder_new_async (test_tiny_bert_dir (), NULL, test_result_cb, &result);
  embedder = lode_builtin_embedder_new_finish (test_wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lode_embedder_get_dims (embedder), ==, 32);
  g_clear_object (&result);
  lode_builtin_embedder_new_async ("gte-small", NULL, test_result_cb, &result);
  missing = lode_builtin_embedder_new_finish (test_wait_result (&result), &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_null (missing);
  g_clear_error (&error);
  g_clear_object (&result);

  /* The callback comes on the caller's main context. */
  lode_embedder_embed_async (embedder, texts, LODE_EMBED_DOCUMENT, NULL, test_result_cb, &result);
  embeddings = lode_embedder_embed_finish (embedder, test_wait_result (&result), &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 2);
}

/* A text over the limit is embedded whole: as windows of at most 256 tokens whose vectors
 * are averaged by length, never cut. */
static void
test_long_text (void)
{
  g_autoptr(LodeEmbedder) embedder = fixture_embedder ();
  LodeBuiltinEmbedder *builtin = LODE_BUILTIN_EMBEDDER (embedder);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) first = g_string_new (NULL);
  g_autoptr(GString) second = g_string_new (NULL);
  const char *texts[2] = { NULL, NULL };
  const char *windows[3] = { NULL, NULL, NULL };
  g_autoptr(LodeEmbeddings) whole = NULL;
  g_autoptr(LodeEmbeddings) parts = NULL;
  g_autoptr(GError) error = NULL;
  double norm = 0.0;

  /* 300 one-piece words: windows of 254 and 46 pieces. */
  for (guint i = 0; i < 300; i++)
    {
      const char *word = i % 2 == 0 ? "file " : "read ";

      g_string_append (text, word);
      g_string_append (i < 254 ? first : second, word);
    }

  texts[0] = text->str;
  whole = lode_embedder_embed_sync (embedder, texts, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);

  windows[0] = first->str;
  windows[1] = second->str;
  parts = lode_embedder_embed_sync (embedder, windows, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);

  for (guint d = 0; d < 32; d++)
    {
      float mixed = 254 * parts->data[d] + 46 * parts->data[32 + d];

      norm += (double) mixed * mixed;
    }
  for (guint d = 0; d < 32; d++)
    {
      float mixed = 254 * parts->data[d] + 46 * parts->data[32 + d];

      g_assert_cmpfloat_with_epsilon (whole->data[d], mixed / sqrt (norm), 1e-5);
    }

  /* lode_builtin_embedder_tokenize cuts instead, like the reference tokenizer. */
  {
    g_autoptr(GPtrArray) ids = lode_builtin_embedder_tokenize (builtin, texts,
                                                               LODE_EMBED_DOCUMENT, &error);

    g_assert_no_error (error);
    g_assert_cmpuint (ids->len, ==, 1);
    g_assert_cmpuint (((GArray *) g_ptr_array_index (ids, 0))->len, ==, 256);
  }
}

static void
test_embed_ids (void)
{
  g_autoptr(LodeEmbedder) embedder = fixture_embedder ();
  LodeBuiltinEmbedder *builtin = LODE_BUILTIN_EMBEDDER (embedder);
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cases = test_tiny_bert_cases (parser);
  g_autoptr(GPtrArray) texts = g_ptr_array_new ();
  g_autoptr(GPtrArray) ids = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  /* Every case, the 600-word one cut at 256 tokens as in the reference. */
  for (guint i = 0; i < json_array_get_length (cases); i++)
    g_ptr_array_add (texts, (gpointer) json_object_get_string_member (
      json_array_get_object_element (cases, i), "text"));
  g_ptr_array_add (texts, NULL);

  ids = lode_builtin_embedder_tokenize (builtin, (const char * const *) texts->pdata,
                                        LODE_EMBED_DOCUMENT, &error);
  g_assert_no_error (error);
  embeddings = lode_builtin_embedder_embed_ids (builtin, ids, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, json_array_get_length (cases));
  for (guint i = 0; i < embeddings->n_vectors; i++)
    g_assert_cmpfloat (max_abs_diff (embeddings->data + i * 32,
                                     json_object_get_array_member (json_array_get_object_element (cases, i),
                                                                   "mean_normalized")),
                       <=, TOLERANCE);
}

static void
link_fixture_files (const char *dir)
{
  const char *files[] = { "config.json", "tokenizer.json", "tokenizer_config.json",
                          "model.safetensors" };
  g_autoptr(GError) error = NULL;
  g_autofree char *vocab = g_build_filename (dir, "vocab.txt", NULL);

  g_assert_cmpint (g_mkdir_with_parents (dir, 0700), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    {
      g_autofree char *target = g_build_filename (test_tiny_bert_dir (), files[i], NULL);
      g_autofree char *link = g_build_filename (dir, files[i], NULL);
      g_autoptr(GFile) file = g_file_new_for_path (link);

      g_file_make_symbolic_link (file, target, NULL, &error);
      g_assert_no_error (error);
    }

  /* An installed model has a vocab.txt too; tokenizer.json is what gets read. */
  g_file_set_contents (vocab, "", 0, &error);
  g_assert_no_error (error);
}

/* A known model in Lode's cache: its pooling and query prefix come from the model table. */
static void
test_known_model (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "lode", "models",
                                           "bge-small-en-v1.5", NULL);
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbedder) by_dir = NULL;
  g_autoptr(LodeEmbeddings) queries = NULL;
  g_autoptr(LodeEmbeddings) documents = NULL;
  g_autoptr(GError) error = NULL;
  const char *query[] = { "read a file", NULL };
  const char *prefixed[] = { BGE_PREFIX "read a file", NULL };

  link_fixture_files (dir);
  embedder = lode_builtin_embedder_new ("bge-small-en-v1.5", &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "bge-small-en-v1.5");
  g_assert_cmpstr (lode_builtin_embedder_get_dir (LODE_BUILTIN_EMBEDDER (embedder)), ==, dir);
  g_assert_cmpint (lode_builtin_embedder_get_pooling (LODE_BUILTIN_EMBEDDER (embedder)), ==,
                   LODE_POOLING_CLS);
  assert_reference_short (embedder, LODE_EMBED_DOCUMENT, "cls_normalized");

  /* Queries get the instruction prefix, documents do not. */
  queries = lode_embedder_embed_sync (embedder, query, LODE_EMBED_QUERY, NULL, &error);
  g_assert_no_error (error);
  documents = lode_embedder_embed_sync (embedder, prefixed, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (queries->data, 32 * sizeof (float), documents->data, 32 * sizeof (float));
  g_clear_pointer (&documents, lode_embeddings_free);
  documents = lode_embedder_embed_sync (embedder, query, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_true (memcmp (queries->data, documents->data, 32 * sizeof (float)) != 0);

  /* The same folder given as a path is recognised as the known model. */
  by_dir = lode_builtin_embedder_new (dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (by_dir), ==, "bge-small-en-v1.5");
  g_assert_cmpint (lode_builtin_embedder_get_pooling (LODE_BUILTIN_EMBEDDER (by_dir)), ==,
                   LODE_POOLING_CLS);
}

/* A model that only the Hugging Face cache has is used from there. */
static void
test_hf_cache (void)
{
  g_autofree char *hf_home = g_build_filename (g_get_user_cache_dir (), "hf-home", NULL);
  g_autofree char *snapshot = g_build_filename (hf_home, "hub",
                                                "models--sentence-transformers--all-MiniLM-L6-v2",
                                                "snapshots", "0123abcd", NULL);
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(GError) error = NULL;

  link_fixture_files (snapshot);
  g_setenv ("HF_HOME", hf_home, TRUE);
  embedder = lode_builtin_embedder_new ("all-MiniLM-L6-v2", &error);
  g_unsetenv ("HF_HOME");
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (embedder), ==, "all-MiniLM-L6-v2");
  g_assert_cmpstr (lode_builtin_embedder_get_dir (LODE_BUILTIN_EMBEDDER (embedder)), ==, snapshot);
  g_assert_cmpint (lode_builtin_embedder_get_pooling (LODE_BUILTIN_EMBEDDER (embedder)), ==,
                   LODE_POOLING_MEAN);
  assert_reference_short (embedder, LODE_EMBED_QUERY, "mean_normalized");
}

static void
test_missing_model (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autofree char *empty = g_build_filename (g_get_user_cache_dir (), "empty-model", NULL);

  embedder = lode_builtin_embedder_new ("gte-small", &error);
  g_assert_null (embedder);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "lode model pull gte-small"));
  g_clear_error (&error);

  embedder = lode_builtin_embedder_new ("no-such-model", &error);
  g_assert_null (embedder);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_assert_nonnull (strstr (error->message, "bge-small-en-v1.5"));
  g_clear_error (&error);

  g_assert_cmpint (g_mkdir_with_parents (empty, 0700), ==, 0);
  embedder = lode_builtin_embedder_new (empty, &error);
  g_assert_null (embedder);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
}

static void
test_bad_input (void)
{
  g_autoptr(LodeEmbedder) embedder = fixture_embedder ();
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  const char *invalid[] = { "fine", "bad \xff", NULL };
  const char *none[] = { NULL };
  const char *one[] = { "text", NULL };
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;

  embeddings = lode_embedder_embed_sync (embedder, invalid, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, "Text 2"));
  g_assert_null (embeddings);
  g_clear_error (&error);

  embeddings = lode_embedder_embed_sync (embedder, none, LODE_EMBED_DOCUMENT, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 0);
  g_clear_pointer (&embeddings, lode_embeddings_free);

  g_cancellable_cancel (cancellable);
  embeddings = lode_embedder_embed_sync (embedder, one, LODE_EMBED_DOCUMENT, cancellable, &error);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (embeddings);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/builtin-embedder/folder", test_folder);
  g_test_add_func ("/lode/builtin-embedder/async", test_async);
  g_test_add_func ("/lode/builtin-embedder/long-text", test_long_text);
  g_test_add_func ("/lode/builtin-embedder/embed-ids", test_embed_ids);
  g_test_add_func ("/lode/builtin-embedder/known-model", test_known_model);
  g_test_add_func ("/lode/builtin-embedder/hf-cache", test_hf_cache);
  g_test_add_func ("/lode/builtin-embedder/missing-model", test_missing_model);
  g_test_add_func ("/lode/builtin-embedder/bad-input", test_bad_input);

  return g_test_run ();
}
