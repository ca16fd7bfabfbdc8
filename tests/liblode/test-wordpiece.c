/* test-wordpiece.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <json-glib/json-glib.h>
#include <string.h>

#include "lode-error.h"
#include "lode-wordpiece.h"
#include "test-helpers.h"

static void
assert_ids_equal (GArray    *ids,
                  JsonArray *expected,
                  const char *text)
{
  if (ids->len != json_array_get_length (expected))
    g_error ("“%.60s”: %u ids, expected %u", text, ids->len, json_array_get_length (expected));

  for (guint i = 0; i < ids->len; i++)
    if (g_array_index (ids, gint32, i) != json_array_get_int_element (expected, i))
      g_error ("“%.60s”: id %u is %d, expected %" G_GINT64_FORMAT, text, i,
               g_array_index (ids, gint32, i), json_array_get_int_element (expected, i));
}

static void
assert_reference_ids (LodeWordpiece *wordpiece)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  JsonArray *cases = test_tiny_bert_cases (parser);

  g_assert_cmpuint (json_array_get_length (cases), >=, 8);
  for (guint i = 0; i < json_array_get_length (cases); i++)
    {
      JsonObject *c = json_array_get_object_element (cases, i);
      const char *text = json_object_get_string_member (c, "text");
      g_autoptr(GError) error = NULL;
      g_autoptr(GArray) ids = lode_wordpiece_encode (wordpiece, text, 0, NULL, &error);

      g_assert_no_error (error);
      assert_ids_equal (ids, json_object_get_array_member (c, "input_ids"), text);
    }
}

static void
test_reference_tokenizer_json (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeWordpiece) wordpiece = lode_wordpiece_new_from_dir (test_tiny_bert_dir (), &error);

  g_assert_no_error (error);
  g_assert_cmpuint (lode_wordpiece_get_vocab_size (wordpiece), ==, 30522);
  /* tokenizer.json truncates at 256, tokenizer_config.json's model_max_length is 256. */
  g_assert_cmpuint (lode_wordpiece_get_max_tokens (wordpiece), ==, 256);
  g_assert_cmpint (lode_wordpiece_get_cls_id (wordpiece), ==, lode_wordpiece_lookup (wordpiece, "[CLS]"));
  g_assert_cmpint (lode_wordpiece_lookup (wordpiece, "##ing"), >, 0);
  g_assert_cmpint (lode_wordpiece_lookup (wordpiece, "no-such-token"), ==, -1);
  assert_reference_ids (wordpiece);
}

/* Writes the vocabulary of the fixture's tokenizer.json as a vocab.txt (one token per line,
 * in id order) plus its tokenizer_config.json into a temporary folder. */
static char *
make_vocab_txt_dir (void)
{
  g_autofree char *json_path = g_build_filename (test_tiny_bert_dir (), "tokenizer.json", NULL);
  g_autofree char *config_src = g_build_filename (test_tiny_bert_dir (), "tokenizer_config.json", NULL);
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) tokens = g_ptr_array_new ();
  g_autoptr(GString) text = g_string_new (NULL);
  g_autofree char *config = NULL;
  g_autofree char *dir = NULL;
  g_autofree char *vocab_path = NULL;
  g_autofree char *config_path = NULL;
  JsonObject *vocab;
  JsonObjectIter iter;
  const char *token;
  JsonNode *node;

  json_parser_load_from_mapped_file (parser, json_path, &error);
  g_assert_no_error (error);
  vocab = json_object_get_object_member (json_object_get_object_member (
    json_node_get_object (json_parser_get_root (parser)), "model"), "vocab");
  g_ptr_array_set_size (tokens, json_object_get_size (vocab));
  json_object_iter_init (&iter, vocab);
  while (json_object_iter_next (&iter, &token, &node))
    tokens->pdata[json_node_get_int (node)] = (gpointer) token;
  for (guint i = 0; i < tokens->len; i++)
    {
      g_assert_nonnull (tokens->pdata[i]);
      g_string_append_printf (text, "%s\n", (const char *) tokens->pdata[i]);
    }

  dir = g_dir_make_tmp ("lode-vocab-XXXXXX", &error);
  g_assert_no_error (error);
  vocab_path = g_build_filename (dir, "vocab.txt", NULL);
  g_file_set_contents (vocab_path, text->str, text->len, &error);
  g_assert_no_error (error);
  g_file_get_contents (config_src, &config, NULL, &error);
  g_assert_no_error (error);
  config_path = g_build_filename (dir, "tokenizer_config.json", NULL);
  g_file_set_contents (config_path, config, -1, &error);
  g_assert_no_error (error);

  return g_steal_pointer (&dir);
}

static void
test_reference_vocab_txt (void)
{
  g_autofree char *dir = make_vocab_txt_dir ();
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeWordpiece) wordpiece = lode_wordpiece_new_from_dir (dir, &error);

  g_assert_no_error (error);
  g_assert_cmpuint (lode_wordpiece_get_vocab_size (wordpiece), ==, 30522);
  g_assert_cmpuint (lode_wordpiece_get_max_tokens (wordpiece), ==, 256);
  assert_reference_ids (wordpiece);
  test_remove_tree (dir);
}

/* The real vocabulary of the shared model folder, when the checkout has it next to it (the
 * fixture's tokenizer is a byte-identical copy, so CI checks the same data above). */
static void
test_shared_vocabulary (void)
{
  g_autofree char *dir = g_build_filename (g_getenv ("LODE_SOURCE_ROOT"), "..", "shared",
                                           "models", "bert-uncased-tokenizer", NULL);
  g_autofree char *vocab = g_build_filename (dir, "vocab.txt", NULL);
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeWordpiece) from_dir = NULL;
  g_autoptr(LodeWordpiece) from_txt = NULL;
  g_autoptr(GArray) a = NULL;
  g_autoptr(GArray) b = NULL;
  const char *text = "Tokenization of naïve CamelCaseIdentifiers, 42 items; 東京!";

  if (!g_file_test (vocab, G_FILE_TEST_EXISTS))
    {
      g_test_skip ("no ../shared/models/bert-uncased-tokenizer next to the source tree");
      return;
    }

  from_dir = lode_wordpiece_new_from_dir (dir, &error);
  g_assert_no_error (error);
  from_txt = lode_wordpiece_new_from_vocab_txt (vocab, TRUE, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (lode_wordpiece_get_vocab_size (from_txt), ==, 30522);
  assert_reference_ids (from_dir);
  a = lode_wordpiece_encode (from_dir, text, 0, NULL, &error);
  g_assert_no_error (error);
  b = lode_wordpiece_encode (from_txt, text, 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpmem (a->data, a->len * sizeof (gint32), b->data, b->len * sizeof (gint32));
}

static LodeWordpiece *
fixture_wordpiece (void)
{
  g_autoptr(GError) error = NULL;
  LodeWordpiece *wordpiece = lode_wordpiece_new_from_dir (test_tiny_bert_dir (), &error);

  g_assert_no_error (error);
  return wordpiece;
}

static GArray *
encode (LodeWordpiece *wordpiece,
        const char    *text)
{
  g_autoptr(GError) error = NULL;
  GArray *ids = lode_wordpiece_encode (wordpiece, text, 0, NULL, &error);

  g_assert_no_error (error);
  return ids;
}

/* @tokens: vocabulary entries separated by spaces; the expected encoding of @text. */
static void
assert_tokens (LodeWordpiece *wordpiece,
               const char    *text,
               const char    *tokens)
{
  g_autoptr(GArray) ids = encode (wordpiece, text);
  g_auto(GStrv) expected = g_strsplit (tokens, " ", -1);
  guint n = g_strv_length (expected);

  g_assert_cmpuint (ids->len, ==, n + 2);
  g_assert_cmpint (g_array_index (ids, gint32, 0), ==, lode_wordpiece_get_cls_id (wordpiece));
  g_assert_cmpint (g_array_index (ids, gint32, n + 1), ==, lode_wordpiece_get_sep_id (wordpiece));
  for (guint i = 0; i < n; i++)
    {
      gint32 id = lode_wordpiece_lookup (wordpiece, expected[i]);

      g_assert_cmpint (id, >=, 0);
      if (g_array_index (ids, gint32, i + 1) != id)
        g_error ("“%s”: token %u is %d, expected “%s” (%d)", text, i,
                 g_array_index (ids, gint32, i + 1), expected[i], id);
    }
}

static void
assert_same_encoding (LodeWordpiece *wordpiece,
                      const char    *a,
                      const char    *b)
{
  g_autoptr(GArray) ids_a = encode (wordpiece, a);
  g_autoptr(GArray) ids_b = encode (wordpiece, b);

  g_assert_cmpmem (ids_a->data, ids_a->len * sizeof (gint32),
                   ids_b->data, ids_b->len * sizeof (gint32));
}

static void
test_normalization (void)
{
  g_autoptr(LodeWordpiece) wordpiece = fixture_wordpiece ();

  /* Lowercase, and ASCII symbols split words like punctuation does. */
  assert_tokens (wordpiece, "Hello, World!", "hello , world !");
  assert_tokens (wordpiece, "a$b+c^d`e|f~g", "a $ b + c ^ d ` e | f ~ g");
  assert_tokens (wordpiece, "x<=y", "x < = y");
  /* Accents are stripped through the canonical decomposition, composed or not. */
  assert_same_encoding (wordpiece, "Crème Brûlée", "creme brulee");
  assert_same_encoding (wordpiece, "Cre\xcc\x80me", "creme");
  assert_same_encoding (wordpiece, "ÅNGSTRÖM", "angstrom");
  /* Ideographs are words of their own; kana are not ideographs. */
  assert_same_encoding (wordpiece, "東京タワー", "東 京 タワー");
  /* Control and format characters vanish, Unicode spaces separate. */
  assert_same_encoding (wordpiece, "foo\x01" "bar\xe2\x80\x8b" "baz", "foobarbaz");
  assert_same_encoding (wordpiece, "a\xe3\x80\x80" "b\xc2\xa0" "c\td\r\ne", "a b c d e");
  /* Unicode punctuation splits: em dash, guillemets. */
  assert_tokens (wordpiece, "a—b «c»", "a — b « c »");
  assert_tokens (wordpiece, "", "");
  assert_tokens (wordpiece, " \t\n ", "");
}

static void
test_wordpieces (void)
{
  g_autoptr(LodeWordpiece) wordpiece = fixture_wordpiece ();
  g_autofree char *long_word = g_strnfill (101, 'x');
  g_autofree char *max_word = g_strnfill (100, 'x');
  g_autoptr(GArray) ids = NULL;
  gint32 unk = lode_wordpiece_lookup (wordpiece, "[UNK]");

  /* Greedy longest match first, continuation pieces with ##. */
  assert_tokens (wordpiece, "tokenization", "token ##ization");
  assert_tokens (wordpiece, "embeddings", "em ##bed ##ding ##s");
  /* A character no piece covers makes the whole word unknown. */
  assert_tokens (wordpiece, "abc🚀def", "[UNK]");
  assert_tokens (wordpiece, "abc 🚀 def", "abc [UNK] def");

  /* More than 100 characters: one [UNK]; 100 still gets pieces. */
  ids = encode (wordpiece, long_word);
  g_assert_cmpuint (ids->len, ==, 3);
  g_assert_cmpint (g_array_index (ids, gint32, 1), ==, unk);
  g_clear_pointer (&ids, g_array_unref);
  ids = encode (wordpiece, max_word);
  g_assert_cmpuint (ids->len, >, 3);
  g_assert_cmpint (g_array_index (ids, gint32, 1), !=, unk);
}

static void
test_truncation (void)
{
  g_autoptr(LodeWordpiece) wordpiece = fixture_wordpiece ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) full = NULL;
  g_autoptr(GArray) cut = NULL;
  g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autoptr(GString) many = g_string_new (NULL);
  const char *text = "embeddings of source code";
  gboolean truncated = TRUE;

  full = lode_wordpiece_encode (wordpiece, text, 0, &truncated, &error);
  g_assert_no_error (error);
  g_assert_false (truncated);
  g_assert_cmpuint (full->len, ==, 9);

  /* The cut is the first ids of the whole sequence (as in transformers.js) and may split a
   * word between its pieces. */
  cut = lode_wordpiece_encode (wordpiece, text, 4, &truncated, &error);
  g_assert_no_error (error);
  g_assert_true (truncated);
  g_assert_cmpuint (cut->len, ==, 4);
  g_assert_cmpmem (cut->data, 4 * sizeof (gint32), full->data, 4 * sizeof (gint32));
  g_clear_pointer (&cut, g_array_unref);

  /* A cut inside a word that turns out to be unknown keeps its [UNK], not the pieces
   * matched before the unknown character: "glob٧" is one [UNK] (found by fuzzing). */
  g_clear_pointer (&full, g_array_unref);
  full = lode_wordpiece_encode (wordpiece, "lode glob\u0667 x", 0, NULL, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (full->len, ==, 6);  /* [CLS] lo ##de [UNK] x [SEP] */
  g_assert_cmpint (g_array_index (full, gint32, 3), ==, lode_wordpiece_lookup (wordpiece, "[UNK]"));
  for (guint limit = 2; limit <= full->len; limit++)
    {
      cut = lode_wordpiece_encode (wordpiece, "lode glob\u0667 x", limit, NULL, &error);
      g_assert_no_error (error);
      g_assert_cmpmem (cut->data, cut->len * sizeof (gint32), full->data,
                       MIN (limit, full->len) * sizeof (gint32));
      g_clear_pointer (&cut, g_array_unref);
    }
  g_clear_pointer (&full, g_array_unref);
  full = lode_wordpiece_encode (wordpiece, text, 0, NULL, &error);
  g_assert_no_error (error);

  /* Exactly at the limit is no truncation; one less drops [SEP]. */
  cut = lode_wordpiece_encode (wordpiece, text, full->len, &truncated, &error);
  g_assert_no_error (error);
  g_assert_false (truncated);
  g_assert_cmpmem (cut->data, cut->len * sizeof (gint32), full->data, full->len * sizeof (gint32));
  g_clear_pointer (&cut, g_array_unref);
  cut = lode_wordpiece_encode (wordpiece, text, full->len - 1, &truncated, &error);
  g_assert_no_error (error);
  g_assert_true (truncated);
  g_assert_cmpmem (cut->data, cut->len * sizeof (gint32), full->data, (full->len - 1) * sizeof (gint32));

  /* Without a limit, tokenize returns every piece: 1000 words are 1000 pieces. */
  for (guint i = 0; i < 1000; i++)
    g_string_append (many, "word ");
  lode_wordpiece_tokenize (wordpiece, many->str, 0, pieces, &truncated, &error);
  g_assert_no_error (error);
  g_assert_false (truncated);
  g_assert_cmpuint (pieces->len, ==, 1000);
  g_clear_pointer (&cut, g_array_unref);
  cut = encode (wordpiece, many->str);
  g_assert_cmpuint (cut->len, ==, 256);
}

static void
test_invalid_input (void)
{
  g_autoptr(LodeWordpiece) wordpiece = fixture_wordpiece ();
  g_autoptr(GError) error = NULL;
  g_autoptr(GArray) ids = lode_wordpiece_encode (wordpiece, "ok \xff\xfe bad", 0, NULL, &error);

  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_null (ids);
}

static void
assert_load_fails (const char *file_name,
                   const char *contents)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("lode-wordpiece-XXXXXX", &error);
  g_autofree char *path = g_build_filename (dir, file_name, NULL);
  g_autoptr(LodeWordpiece) wordpiece = NULL;

  g_assert_no_error (error);
  if (contents != NULL)
    {
      g_file_set_contents (path, contents, -1, &error);
      g_assert_no_error (error);
    }

  wordpiece = lode_wordpiece_new_from_dir (dir, &error);
  g_assert_null (wordpiece);
  g_assert_nonnull (error);
  g_test_message ("%s: %s", file_name, error->message);
  test_remove_tree (dir);
}

static void
test_bad_files (void)
{
  assert_load_fails ("tokenizer.json", NULL);
  assert_load_fails ("tokenizer.json", "{\"model\": ");
  assert_load_fails ("tokenizer.json", "[1, 2]");
  assert_load_fails ("tokenizer.json", "{\"model\": {\"type\": \"BPE\", \"vocab\": {\"a\": 0}}}");
  assert_load_fails ("tokenizer.json", "{\"model\": {\"type\": \"WordPiece\", \"vocab\": {}}}");
  assert_load_fails ("tokenizer.json",
                     "{\"model\": {\"type\": \"WordPiece\", \"vocab\": {\"a\": \"x\"}}}");
  assert_load_fails ("tokenizer.json",
                     "{\"model\": {\"type\": \"WordPiece\", \"vocab\": {\"a\": -4}}}");
  /* No [CLS]/[SEP]/[UNK]. */
  assert_load_fails ("tokenizer.json",
                     "{\"model\": {\"type\": \"WordPiece\", \"vocab\": {\"a\": 0, \"b\": 1}}}");
  assert_load_fails ("tokenizer.json",
                     "{\"normalizer\": {\"type\": \"NFKC\"}, \"model\": {\"type\": \"WordPiece\", "
                     "\"vocab\": {\"[UNK]\": 0, \"[CLS]\": 1, \"[SEP]\": 2}}}");
  assert_load_fails ("vocab.txt", "[UNK]\n[CLS]\n");
  assert_load_fails ("vocab.txt", "[UNK]\n[CLS]\n[SEP]\n\xff\n");
  assert_load_fails ("tokenizer_config.json", "{}");
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/wordpiece/reference/tokenizer-json", test_reference_tokenizer_json);
  g_test_add_func ("/lode/wordpiece/reference/vocab-txt", test_reference_vocab_txt);
  g_test_add_func ("/lode/wordpiece/shared-vocabulary", test_shared_vocabulary);
  g_test_add_func ("/lode/wordpiece/normalization", test_normalization);
  g_test_add_func ("/lode/wordpiece/wordpieces", test_wordpieces);
  g_test_add_func ("/lode/wordpiece/truncation", test_truncation);
  g_test_add_func ("/lode/wordpiece/invalid-input", test_invalid_input);
  g_test_add_func ("/lode/wordpiece/bad-files", test_bad_files);

  return g_test_run ();
}
