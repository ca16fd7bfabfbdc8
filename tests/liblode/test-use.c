/* test-use.c — the Universal Sentence Encoder Lite: tokenizer, encoder, static vectors
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gstdio.h>

#include "lode.h"
#include "lode-json.h"
#include "lode-sentencepiece.h"
#include "lode-static-embedder.h"
#include "lode-use.h"
#include "test-helpers.h"

/*
 * The tokenizer on a vocabulary small enough to check each segmentation by hand; the encoder
 * against TensorFlow.js' vectors of the same texts (fixtures/use-lite/reference.json, made by
 * make-reference.mjs); a damaged model refused with a reason; the static vectors distilled
 * from it telling a question from unrelated code. The model itself comes from
 * build-aux/fetch-test-models.sh ($LODE_TEST_USE_LITE_DIR); without it those tests are
 * skipped.
 */

/* Six reserved pieces, then pieces whose scores make each case below unambiguous. */
static const char small_vocab[] =
  "[[\"<unk>\", 0], [\"<s>\", 0], [\"</s>\", 0], [\"x1\", 0], [\"x2\", 0], [\"x3\", 0],"
  " [\"\xe2\x96\x81" "ab\", -1.0], [\"\xe2\x96\x81" "a\", -1.0], [\"b\", -1.5],"
  " [\"\xe2\x96\x81\", -2.0], [\"c\", -2.5], [\"abc\", -0.1], [\":\", null]]";

static GArray *
encode (LodeSentencepiece *sp,
        const char        *text)
{
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (gint32));

  lode_sentencepiece_encode (sp, text, -1, ids);
  return ids;
}

static void
assert_ids (LodeSentencepiece *sp,
            const char        *text,
            const gint32      *expected,
            guint              n)
{
  g_autoptr(GArray) ids = encode (sp, text);

  g_assert_cmpmem (ids->data, ids->len * sizeof (gint32), expected, n * sizeof (gint32));
}

static void
test_segmentation (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeSentencepiece) sp = lode_sentencepiece_new_from_data (small_vocab, -1, &error);
  static const gint32 ab[] = { 6 };               /* ▁ab (-1) beats ▁a b (-2.5) */
  static const gint32 abc[] = { 9, 11 };          /* ▁ abc (-2.1) beats ▁ab c (-3.5) */
  static const gint32 two_words[] = { 6, 9, 10 }; /* ▁ab ▁ c: no piece is "▁c" */
  static const gint32 unknown[] = { 7, 0, 8 };    /* ▁a, one unknown for ☃☃, b */
  static const gint32 colon[] = { 9, 12 };        /* a null score counts as 0 */
  static const gint32 invalid[] = { 7, 0 };       /* the invalid byte is an unknown */

  g_assert_no_error (error);
  g_assert_cmpuint (lode_sentencepiece_get_vocab_size (sp), ==, 13);
  g_assert_cmpstr (lode_sentencepiece_get_piece (sp, 6), ==, "\xe2\x96\x81" "ab");
  g_assert_null (lode_sentencepiece_get_piece (sp, 13));
  g_assert_cmpfloat (lode_sentencepiece_get_score (sp, 12), ==, 0.0f);

  assert_ids (sp, "ab", ab, G_N_ELEMENTS (ab));
  assert_ids (sp, "abc", abc, G_N_ELEMENTS (abc));
  assert_ids (sp, "ab c", two_words, G_N_ELEMENTS (two_words));
  assert_ids (sp, "a\xe2\x98\x83\xe2\x98\x83" "b", unknown, G_N_ELEMENTS (unknown));
  assert_ids (sp, ":", colon, G_N_ELEMENTS (colon));
  assert_ids (sp, "a\xff", invalid, G_N_ELEMENTS (invalid));
  assert_ids (sp, "", NULL, 0);
}

static void
test_malformed_vocabulary (void)
{
  static const char *const bad[] = {
    "{\"a\": 1}",
    "[[\"<unk>\", 0]]",
    "[[\"<unk>\", 0], [\"<s>\", 0], [\"</s>\", 0], [\"x1\", 0], [\"x2\", 0], [\"x3\", 0],"
    " [\"a\", \"high\"]]",
    "[[\"<unk>\", 0], [\"<s>\", 0], [\"</s>\", 0], [\"x1\", 0], [\"x2\", 0], [\"x3\", 0],"
    " [\"\", -1]]",
    "[[[[[[[[",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bad); i++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(LodeSentencepiece) sp = lode_sentencepiece_new_from_data (bad[i], -1, &error);

      g_assert_null (sp);
      g_assert_nonnull (error);
    }
}

static const char *
model_dir (void)
{
  const char *dir = g_getenv ("LODE_TEST_USE_LITE_DIR");
  g_autofree char *model = dir != NULL ? g_build_filename (dir, "model.json", NULL) : NULL;

  if (model == NULL || !g_file_test (model, G_FILE_TEST_IS_REGULAR))
    {
      g_test_skip ("the Universal Sentence Encoder Lite is not installed "
                   "(build-aux/fetch-test-models.sh)");
      return NULL;
    }

  return dir;
}

static LodeUse *
load_model (void)
{
  g_autoptr(GError) error = NULL;
  const char *dir = model_dir ();
  LodeUse *use;

  if (dir == NULL)
    return NULL;
  use = lode_use_new (dir, &error);
  g_assert_no_error (error);
  g_assert_nonnull (use);

  return use;
}

static void
test_reference (void)
{
  g_autoptr(LodeUse) use = load_model ();
  g_autofree char *path = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  JsonArray *texts;

  if (use == NULL)
    return;
  g_assert_cmpuint (lode_use_get_dims (use), ==, 512);
  g_assert_cmpuint (lode_use_get_max_tokens (use), ==, 128);

  path = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "use-lite",
                               "reference.json", NULL);
  root = lode_json_parse_file (path, &error);
  g_assert_no_error (error);
  texts = json_object_get_array_member (json_node_get_object (root), "texts");
  g_assert_cmpuint (json_array_get_length (texts), >=, 6);

  for (guint i = 0; i < json_array_get_length (texts); i++)
    {
      JsonObject *item = json_array_get_object_element (texts, i);
      const char *text = json_object_get_string_member (item, "text");
      JsonArray *expected_ids = json_object_get_array_member (item, "ids");
      JsonNode *expected = json_object_get_member (item, "vector");
      g_autoptr(GArray) ids = encode (lode_use_get_tokenizer (use), text);
      float vector[512];
      double max_diff = 0.0;

      g_test_message ("%s: %u pieces", text, ids->len);
      g_assert_cmpuint (ids->len, ==, json_array_get_length (expected_ids));
      for (guint k = 0; k < ids->len; k++)
        g_assert_cmpint (g_array_index (ids, gint32, k), ==,
                         json_array_get_int_element (expected_ids, k));

      lode_use_embed_ids (use, (const gint32 *) (const void *) ids->data, ids->len, vector);
      if (JSON_NODE_HOLDS_NULL (expected))
        {
          for (guint k = 0; k < 512; k++)
            g_assert_cmpfloat (vector[k], ==, 0.0f);
          continue;
        }
      for (guint k = 0; k < 512; k++)
        max_diff = MAX (max_diff, fabs (vector[k] - json_array_get_double_element (
                                                      json_node_get_array (expected), k)));
      g_assert_cmpfloat (max_diff, <, 1e-5);
    }
}

/* The pieces embedded one by one and in one batch agree. */
static void
test_pieces_batch (void)
{
  g_autoptr(LodeUse) use = load_model ();
  static const gint32 ids[] = { 9, 2002, 3586, 7999 };
  float batch[G_N_ELEMENTS (ids) * 512];

  if (use == NULL)
    return;

  lode_use_embed_pieces (use, ids, G_N_ELEMENTS (ids), batch);
  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    {
      float one[512];

      lode_use_embed_ids (use, &ids[i], 1, one);
      for (guint k = 0; k < 512; k++)
        g_assert_cmpfloat_with_epsilon (batch[i * 512 + k], one[k], 1e-6);
    }
}

/* A copy of the model folder in the test's cache, to damage. */
static char *
copy_model (void)
{
  const char *dir = model_dir ();
  g_autofree char *copy = NULL;
  g_autoptr(GDir) listing = NULL;
  const char *name;

  if (dir == NULL)
    return NULL;
  copy = g_build_filename (g_get_user_cache_dir (), "use-lite-copy", NULL);
  g_assert_cmpint (g_mkdir_with_parents (copy, 0700), ==, 0);
  listing = g_dir_open (dir, 0, NULL);
  while ((name = g_dir_read_name (listing)) != NULL)
    {
      g_autofree char *from = g_build_filename (dir, name, NULL);
      g_autofree char *to = g_build_filename (copy, name, NULL);
      g_autofree char *contents = NULL;
      gsize length = 0;

      g_assert_true (g_file_get_contents (from, &contents, &length, NULL));
      g_assert_true (g_file_set_contents (to, contents, length, NULL));
    }

  return g_steal_pointer (&copy);
}

static void
assert_refused (const char *dir,
                const char *reason)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeUse) use = lode_use_new (dir, &error);

  g_assert_null (use);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_test_message ("%s", error->message);
  g_assert_nonnull (strstr (error->message, reason));
}

static void
test_damaged_model (void)
{
  g_autofree char *dir = copy_model ();
  g_autofree char *shard = NULL;
  g_autofree char *model = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *escaped = NULL;
  g_auto(GStrv) parts = NULL;
  gsize length = 0;

  if (dir == NULL)
    return;

  /* The last weight file cut short. */
  shard = g_build_filename (dir, "group1-shard7of7", NULL);
  g_assert_true (g_file_get_contents (shard, &contents, &length, NULL));
  g_assert_true (g_file_set_contents (shard, contents, length / 2, NULL));
  assert_refused (dir, "end before");
  g_assert_true (g_file_set_contents (shard, contents, length, NULL));
  g_clear_pointer (&contents, g_free);

  /* A weight file named outside the folder. */
  model = g_build_filename (dir, "model.json", NULL);
  g_assert_true (g_file_get_contents (model, &contents, &length, NULL));
  parts = g_strsplit (contents, "\"group1-shard1of7\"", 2);
  escaped = g_strjoinv ("\"../group1-shard1of7\"", parts);
  g_assert_true (g_file_set_contents (model, escaped, -1, NULL));
  assert_refused (dir, "outside its folder");

  /* Not a model at all. */
  g_assert_true (g_file_set_contents (model, "{\"modelTopology\": {}}", -1, NULL));
  assert_refused (dir, "weightsManifest");
}

/* A weight group without its lists is refused before they are read (json-glib would warn,
 * and a test abort, on a missing member read as an array). Needs no model. */
static void
test_weight_group_without_paths (void)
{
  g_autofree char *dir = g_build_filename (g_get_user_cache_dir (), "use-no-paths", NULL);

  test_write_file (dir, "vocab.json", small_vocab);
  test_write_file (dir, "model.json", "{\"weightsManifest\": [{\"weights\": []}]}");
  assert_refused (dir, "no paths or weights");
  test_write_file (dir, "model.json",
                   "{\"weightsManifest\": [{\"paths\": [], \"weights\": 7}]}");
  assert_refused (dir, "no paths or weights");
}

static double
cosine (const float *a,
        const float *b)
{
  double dot = 0.0;

  for (guint k = 0; k < LODE_STATIC_EMBEDDER_DIMS; k++)
    dot += (double) a[k] * b[k];

  return dot;
}

static void
test_static_vectors (void)
{
  static const char question[] = "drop logins that went idle too long";
  static const char sessions[] =
    "class SessionStore:\n"
    "    def purge_stale_sessions(self):\n"
    "        stale = [t for t, (_, seen) in self._by_token.items() if now - seen > self._ttl]\n"
    "        for token in stale:\n"
    "            del self._by_token[token]\n";
  static const char thumbnails[] =
    "func Thumbnail(img image.Image, width int) image.Image {\n"
    "\treturn resize.Resize(uint(width), 0, img, resize.Lanczos3)\n"
    "}\n";
  const char *dir = model_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeEmbedder) first = NULL;
  g_autoptr(LodeEmbedder) second = NULL;
  g_autofree char *cache = NULL;
  float q[LODE_STATIC_EMBEDDER_DIMS], s[LODE_STATIC_EMBEDDER_DIMS];
  float t[LODE_STATIC_EMBEDDER_DIMS], again[LODE_STATIC_EMBEDDER_DIMS];
  float empty[LODE_STATIC_EMBEDDER_DIMS], punct[LODE_STATIC_EMBEDDER_DIMS];

  if (dir == NULL)
    return;

  first = lode_static_embedder_new ("use-lite", dir, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (lode_embedder_get_model (first), ==, "use-lite");
  g_assert_cmpuint (lode_embedder_get_dims (first), ==, LODE_STATIC_EMBEDDER_DIMS);

  lode_static_embedder_embed (LODE_STATIC_EMBEDDER (first), question, q);
  lode_static_embedder_embed (LODE_STATIC_EMBEDDER (first), sessions, s);
  lode_static_embedder_embed (LODE_STATIC_EMBEDDER (first), thumbnails, t);
  g_test_message ("question · sessions %.3f, question · thumbnails %.3f", cosine (q, s),
                  cosine (q, t));
  g_assert_cmpfloat_with_epsilon (cosine (q, q), 1.0, 1e-5);
  g_assert_cmpfloat (cosine (q, s), >, cosine (q, t));

  /* Text without words, and no text, still get a vector of length 1. */
  lode_static_embedder_embed (LODE_STATIC_EMBEDDER (first), "", empty);
  lode_static_embedder_embed (LODE_STATIC_EMBEDDER (first), "{ } ( ) ;", punct);
  g_assert_cmpfloat_with_epsilon (cosine (empty, empty), 1.0, 1e-5);
  g_assert_cmpfloat_with_epsilon (cosine (punct, punct), 1.0, 1e-5);

  /* The table was kept in the cache, and a second embedder reads it back. */
  cache = g_build_filename (g_get_user_cache_dir (), "lode", "static", NULL);
  g_assert_true (g_file_test (cache, G_FILE_TEST_IS_DIR));
  second = lode_static_embedder_new ("use-lite", dir, &error);
  g_assert_no_error (error);
  lode_static_embedder_embed (LODE_STATIC_EMBEDDER (second), question, again);
  g_assert_cmpmem (q, sizeof q, again, sizeof again);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/sentencepiece/segmentation", test_segmentation);
  g_test_add_func ("/lode/sentencepiece/malformed-vocabulary", test_malformed_vocabulary);
  g_test_add_func ("/lode/use/reference", test_reference);
  g_test_add_func ("/lode/use/pieces-batch", test_pieces_batch);
  g_test_add_func ("/lode/use/damaged-model", test_damaged_model);
  g_test_add_func ("/lode/use/weight-group-without-paths", test_weight_group_without_paths);
  g_test_add_func ("/lode/use/static-vectors", test_static_vectors);

  return g_test_run ();
}
