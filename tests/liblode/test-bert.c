/* test-bert.c
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

#include "lode-bert.h"
#include "lode-error.h"
#include "lode-wordpiece.h"
#include "test-helpers.h"

#define TOLERANCE 1e-4

typedef struct
{
  JsonParser    *parser;
  JsonArray     *cases;
  LodeBert      *bert;
  LodeWordpiece *wordpiece;
  GPtrArray     *ids;      /* GArray of gint32 per case */
  guint         *lengths;
  gint32       **id_ptrs;
  guint          n;
} Fixture;

static void
fixture_setup (Fixture       *f,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  f->parser = json_parser_new ();
  f->cases = test_tiny_bert_cases (f->parser);
  f->n = json_array_get_length (f->cases);
  g_assert_cmpuint (f->n, >=, 8);

  f->bert = lode_bert_new (test_tiny_bert_dir (), &error);
  g_assert_no_error (error);
  f->wordpiece = lode_wordpiece_new_from_dir (test_tiny_bert_dir (), &error);
  g_assert_no_error (error);

  f->ids = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  f->lengths = g_new (guint, f->n);
  f->id_ptrs = g_new (gint32 *, f->n);
  for (guint i = 0; i < f->n; i++)
    {
      const char *text = json_object_get_string_member (json_array_get_object_element (f->cases, i),
                                                        "text");
      GArray *ids = lode_wordpiece_encode (f->wordpiece, text, 0, NULL, &error);

      g_assert_no_error (error);
      g_ptr_array_add (f->ids, ids);
      f->lengths[i] = ids->len;
      f->id_ptrs[i] = (gint32 *) (gpointer) ids->data;
    }
}

static void
fixture_teardown (Fixture       *f,
                  gconstpointer  data)
{
  g_clear_object (&f->parser);
  g_clear_pointer (&f->bert, lode_bert_free);
  g_clear_pointer (&f->wordpiece, lode_wordpiece_free);
  g_clear_pointer (&f->ids, g_ptr_array_unref);
  g_clear_pointer (&f->lengths, g_free);
  g_clear_pointer (&f->id_ptrs, g_free);
}

static double
max_abs_diff (const float *vector,
              JsonArray   *expected,
              guint        dims)
{
  double max = 0.0;

  g_assert_cmpuint (json_array_get_length (expected), ==, dims);
  for (guint i = 0; i < dims; i++)
    max = MAX (max, fabs (vector[i] - json_array_get_double_element (expected, i)));

  return max;
}

static const char *
pooling_member (LodePooling pooling)
{
  return pooling == LODE_POOLING_CLS ? "cls_normalized" : "mean_normalized";
}

/* Compares @vectors (one per case, in case order) with the reference. */
static void
assert_reference (Fixture     *f,
                  const float *vectors,
                  LodePooling  pooling)
{
  guint dims = lode_bert_get_dims (f->bert);

  for (guint i = 0; i < f->n; i++)
    {
      JsonObject *c = json_array_get_object_element (f->cases, i);
      double diff = max_abs_diff (vectors + (gsize) i * dims,
                                  json_object_get_array_member (c, pooling_member (pooling)),
                                  dims);

      g_test_message ("case %u (%u tokens), %s: max abs diff %.2e", i, f->lengths[i],
                      lode_pooling_to_string (pooling), diff);
      if (diff > TOLERANCE)
        g_error ("case %u “%.40s”, %s pooling: max abs diff %g", i,
                 json_object_get_string_member (c, "text"), lode_pooling_to_string (pooling), diff);
    }
}

static void
test_config (Fixture       *f,
             gconstpointer  data)
{
  g_assert_cmpuint (lode_bert_get_dims (f->bert), ==, 32);
  g_assert_cmpuint (lode_bert_get_max_positions (f->bert), ==, 512);
  g_assert_cmpuint (lode_bert_get_vocab_size (f->bert), ==, 30522);
}

static void
test_reference_single (Fixture       *f,
                       gconstpointer  data)
{
  LodePooling pooling = GPOINTER_TO_INT (data);
  guint dims = lode_bert_get_dims (f->bert);
  g_autofree float *vectors = g_new0 (float, f->n * dims);

  for (guint i = 0; i < f->n; i++)
    {
      g_autoptr(GError) error = NULL;
      const gint32 *ids = f->id_ptrs[i];

      lode_bert_embed (f->bert, 1, &ids, &f->lengths[i], pooling, vectors + (gsize) i * dims,
                       NULL, &error);
      g_assert_no_error (error);
    }

  assert_reference (f, vectors, pooling);
}

static void
test_reference_batched (Fixture       *f,
                        gconstpointer  data)
{
  LodePooling pooling = GPOINTER_TO_INT (data);
  guint dims = lode_bert_get_dims (f->bert);
  g_autofree float *vectors = g_new0 (float, f->n * dims);
  g_autofree float *reversed = g_new0 (float, f->n * dims);
  g_autofree const gint32 **rev_ids = g_new (const gint32 *, f->n);
  g_autofree guint *rev_lengths = g_new (guint, f->n);
  g_autoptr(GError) error = NULL;
  guint min_len = G_MAXUINT;
  guint max_len = 0;

  /* Every case at once: 2 to 256 tokens in one batch. */
  for (guint i = 0; i < f->n; i++)
    {
      min_len = MIN (min_len, f->lengths[i]);
      max_len = MAX (max_len, f->lengths[i]);
    }
  g_assert_cmpuint (min_len, <, max_len);

  lode_bert_embed (f->bert, f->n, (const gint32 * const *) f->id_ptrs, f->lengths, pooling,
                   vectors, NULL, &error);
  g_assert_no_error (error);
  assert_reference (f, vectors, pooling);

  /* The order within the batch changes nothing. */
  for (guint i = 0; i < f->n; i++)
    {
      rev_ids[i] = f->id_ptrs[f->n - 1 - i];
      rev_lengths[i] = f->lengths[f->n - 1 - i];
    }
  lode_bert_embed (f->bert, f->n, rev_ids, rev_lengths, pooling, reversed, NULL, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < f->n; i++)
    for (guint d = 0; d < dims; d++)
      g_assert_cmpfloat_with_epsilon (reversed[(gsize) (f->n - 1 - i) * dims + d],
                                      vectors[(gsize) i * dims + d], 1e-6);
}

typedef struct
{
  Fixture *f;
  float   *vectors;
} ThreadData;

static gpointer
embed_thread_func (gpointer user_data)
{
  ThreadData *data = user_data;
  g_autoptr(GError) error = NULL;

  for (guint round = 0; round < 5; round++)
    {
      lode_bert_embed (data->f->bert, data->f->n, (const gint32 * const *) data->f->id_ptrs,
                       data->f->lengths, LODE_POOLING_MEAN, data->vectors, NULL, &error);
      g_assert_no_error (error);
    }

  return NULL;
}

static void
test_threads (Fixture       *f,
              gconstpointer  data)
{
  guint dims = lode_bert_get_dims (f->bert);
  ThreadData threads[3];
  GThread *handles[3];

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      threads[i].f = f;
      threads[i].vectors = g_new0 (float, f->n * dims);
      handles[i] = g_thread_new ("embed", embed_thread_func, &threads[i]);
    }

  for (guint i = 0; i < G_N_ELEMENTS (threads); i++)
    {
      g_thread_join (handles[i]);
      assert_reference (f, threads[i].vectors, LODE_POOLING_MEAN);
      g_free (threads[i].vectors);
    }
}

static void
test_bad_input (Fixture       *f,
                gconstpointer  data)
{
  guint dims = lode_bert_get_dims (f->bert);
  g_autofree float *vector = g_new0 (float, dims);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  gint32 bad_ids[] = { 101, 30522, 102 };
  gint32 negative[] = { 101, -1, 102 };
  g_autofree gint32 *too_long = g_new0 (gint32, 513);
  const gint32 *ptr;
  guint len;
  g_autoptr(GError) error = NULL;

  ptr = bad_ids;
  len = G_N_ELEMENTS (bad_ids);
  g_assert_false (lode_bert_embed (f->bert, 1, &ptr, &len, LODE_POOLING_MEAN, vector, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  ptr = negative;
  g_assert_false (lode_bert_embed (f->bert, 1, &ptr, &len, LODE_POOLING_MEAN, vector, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  len = 0;
  g_assert_false (lode_bert_embed (f->bert, 1, &ptr, &len, LODE_POOLING_MEAN, vector, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  ptr = too_long;
  len = 513;
  g_assert_false (lode_bert_embed (f->bert, 1, &ptr, &len, LODE_POOLING_MEAN, vector, NULL, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_clear_error (&error);

  /* 512 tokens is the limit, and fine. */
  len = 512;
  g_assert_true (lode_bert_embed (f->bert, 1, &ptr, &len, LODE_POOLING_MEAN, vector, NULL, &error));
  g_assert_no_error (error);

  g_cancellable_cancel (cancellable);
  ptr = f->id_ptrs[0];
  g_assert_false (lode_bert_embed (f->bert, 1, &ptr, &f->lengths[0], LODE_POOLING_MEAN, vector,
                                   cancellable, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* ---- broken and converted weight files -------------------------------------------------- */

typedef void (*HeaderEdit) (JsonObject *header,
                            GByteArray *data);

static char *
make_model_dir (void)
{
  g_autofree char *src = g_build_filename (test_tiny_bert_dir (), "config.json", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *dir = g_dir_make_tmp ("lode-bert-XXXXXX", &error);
  g_autofree char *dst = g_build_filename (dir, "config.json", NULL);
  g_autofree char *contents = NULL;

  g_assert_no_error (error);
  g_file_get_contents (src, &contents, NULL, &error);
  g_assert_no_error (error);
  g_file_set_contents (dst, contents, -1, &error);
  g_assert_no_error (error);
  return g_steal_pointer (&dir);
}

/* Writes the fixture's weights into @dir after @edit changed the header and/or data.
 * @pad adds spaces to the header (to misalign the data). */
static void
write_weights (const char *dir,
               HeaderEdit  edit,
               guint       pad)
{
  g_autofree char *src = g_build_filename (test_tiny_bert_dir (), "model.safetensors", NULL);
  g_autofree char *dst = g_build_filename (dir, "model.safetensors", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(JsonGenerator) generator = json_generator_new ();
  g_autoptr(GByteArray) data = g_byte_array_new ();
  g_autoptr(GString) out = g_string_new (NULL);
  g_autofree char *header = NULL;
  gsize length;
  guint64 header_len = 0;
  guint64 new_len;

  g_file_get_contents (src, &contents, &length, &error);
  g_assert_no_error (error);
  for (guint i = 0; i < 8; i++)
    header_len |= (guint64) (guint8) contents[i] << (8 * i);
  json_parser_load_from_data (parser, contents + 8, header_len, &error);
  g_assert_no_error (error);
  g_byte_array_append (data, (const guint8 *) contents + 8 + header_len, length - 8 - header_len);

  if (edit != NULL)
    edit (json_node_get_object (json_parser_get_root (parser)), data);

  json_generator_set_root (generator, json_parser_get_root (parser));
  header = json_generator_to_data (generator, NULL);
  new_len = strlen (header) + pad;
  for (guint i = 0; i < 8; i++)
    g_string_append_c (out, (char) ((new_len >> (8 * i)) & 0xff));
  g_string_append (out, header);
  for (guint i = 0; i < pad; i++)
    g_string_append_c (out, ' ');
  g_string_append_len (out, (const char *) data->data, data->len);
  g_file_set_contents (dst, out->str, out->len, &error);
  g_assert_no_error (error);
}

static void
assert_load_error (const char *dir,
                   const char *needle)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeBert) bert = lode_bert_new (dir, &error);

  g_assert_null (bert);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER);
  g_test_message ("%s", error->message);
  if (strstr (error->message, needle) == NULL)
    g_error ("“%s” does not mention “%s”", error->message, needle);
}

static void
edit_wrong_shape (JsonObject *header,
                  GByteArray *data)
{
  JsonArray *shape = json_object_get_array_member (
    json_object_get_object_member (header, "encoder.layer.1.output.dense.weight"), "shape");

  /* [32, 64] → [64, 32]: the same number of bytes, the wrong layout. */
  json_array_remove_element (shape, 0);
  json_array_add_int_element (shape, 32);
}

static void
edit_missing_tensor (JsonObject *header,
                     GByteArray *data)
{
  json_object_remove_member (header, "encoder.layer.0.attention.self.key.bias");
}

static void
edit_bad_dtype (JsonObject *header,
                GByteArray *data)
{
  json_object_set_string_member (json_object_get_object_member (header,
                                                                "embeddings.LayerNorm.bias"),
                                 "dtype", "I8");
}

static void
edit_truncate_data (JsonObject *header,
                    GByteArray *data)
{
  g_byte_array_set_size (data, data->len / 2);
}

static void
edit_bad_offsets (JsonObject *header,
                  GByteArray *data)
{
  JsonArray *offsets = json_object_get_array_member (
    json_object_get_object_member (header, "embeddings.LayerNorm.weight"), "data_offsets");

  json_array_remove_element (offsets, 0);
  json_array_add_string_element (offsets, "12");
}

/* A NaN in the weights of the first layer: every activation after it is NaN (the fuzzer found
 * the conversion of one to an integer in the softmax). */
static void
edit_nan_weight (JsonObject *header,
                 GByteArray *data)
{
  JsonArray *offsets = json_object_get_array_member (
    json_object_get_object_member (header, "encoder.layer.0.attention.self.query.weight"),
    "data_offsets");
  float nan = NAN;

  memcpy (data->data + json_array_get_int_element (offsets, 0) + 8, &nan, sizeof nan);
}

static void
test_broken_weights (void)
{
  g_autofree char *dir = make_model_dir ();
  g_autofree char *weights = g_build_filename (dir, "model.safetensors", NULL);
  g_autofree char *config = g_build_filename (dir, "config.json", NULL);
  g_autoptr(GError) error = NULL;
  const char huge_header[] = { (char) 0xff, (char) 0xff, 0, 0, 0, 0, 0, 0, '{', '}' };

  assert_load_error (dir, "model.safetensors");

  g_file_set_contents (weights, "", 0, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "not a safetensors file");

  g_file_set_contents (weights, huge_header, sizeof huge_header, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "truncated");

  g_file_set_contents (weights, "\x0a\0\0\0\0\0\0\0{\"a\": [1,", 18, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "corrupt header");

  write_weights (dir, edit_wrong_shape, 0);
  assert_load_error (dir, "encoder.layer.1.output.dense.weight");
  write_weights (dir, edit_missing_tensor, 0);
  assert_load_error (dir, "encoder.layer.0.attention.self.key.bias");
  write_weights (dir, edit_bad_dtype, 0);
  assert_load_error (dir, "I8");
  write_weights (dir, edit_truncate_data, 0);
  assert_load_error (dir, "truncated");
  write_weights (dir, edit_bad_offsets, 0);
  assert_load_error (dir, "embeddings.LayerNorm.weight");
  write_weights (dir, edit_nan_weight, 0);
  assert_load_error (dir, "encoder.layer.0.attention.self.query.weight” holds a value that is "
                     "not finite");

  /* A config that does not match the weights, or makes no sense. */
  write_weights (dir, NULL, 0);
  g_file_set_contents (config, "{\"hidden_size\": 64, \"num_attention_heads\": 2, "
                       "\"intermediate_size\": 64, \"num_hidden_layers\": 2, "
                       "\"vocab_size\": 30522}", -1, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "shape");
  g_file_set_contents (config, "{\"hidden_size\": 32, \"num_attention_heads\": 3, "
                       "\"intermediate_size\": 64, \"num_hidden_layers\": 2, "
                       "\"vocab_size\": 30522}", -1, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "multiple");
  g_file_set_contents (config, "{\"hidden_size\": 32, \"num_attention_heads\": 2, "
                       "\"num_hidden_layers\": 2, \"vocab_size\": 30522}", -1, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "intermediate_size");
  g_file_set_contents (config, "{\"model_type\": \"roberta\"}", -1, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "roberta");
  g_file_set_contents (config, "[]", -1, &error);
  g_assert_no_error (error);
  assert_load_error (dir, "config.json");

  test_remove_tree (dir);
}

static void
embed_model_dir (Fixture     *f,
                 const char  *dir,
                 LodePooling  pooling,
                 float       *vectors)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeBert) bert = lode_bert_new (dir, &error);

  g_assert_no_error (error);
  lode_bert_embed (bert, f->n, (const gint32 * const *) f->id_ptrs, f->lengths, pooling,
                   vectors, NULL, &error);
  g_assert_no_error (error);
}

static void
test_unaligned (Fixture       *f,
                gconstpointer  data)
{
  g_autofree char *dir = make_model_dir ();
  guint dims = lode_bert_get_dims (f->bert);
  g_autofree float *vectors = g_new0 (float, f->n * dims);

  /* An odd header length leaves every F32 tensor misaligned; they are copied. */
  write_weights (dir, NULL, 1);
  embed_model_dir (f, dir, LODE_POOLING_CLS, vectors);
  assert_reference (f, vectors, LODE_POOLING_CLS);
  test_remove_tree (dir);
}

static const char *half_dtype;

/* Rewrites every tensor as F16 or BF16 (half_dtype), rounding to nearest. */
static void
edit_to_half (JsonObject *header,
              GByteArray *data)
{
  g_autoptr(GByteArray) halves = g_byte_array_new ();
  JsonObjectIter iter;
  const char *name;
  JsonNode *node;

  json_object_iter_init (&iter, header);
  while (json_object_iter_next (&iter, &name, &node))
    {
      JsonObject *entry;
      JsonArray *offsets;
      gint64 begin;
      gint64 end;
      guint64 start = halves->len;

      if (!JSON_NODE_HOLDS_OBJECT (node))
        continue;
      entry = json_node_get_object (node);
      offsets = json_object_get_array_member (entry, "data_offsets");
      begin = json_array_get_int_element (offsets, 0);
      end = json_array_get_int_element (offsets, 1);
      for (gint64 p = begin; p < end; p += 4)
        {
          float v;
          guint16 h;
          guint32 bits;

          memcpy (&v, data->data + p, 4);
          if (g_str_equal (half_dtype, "F16"))
            {
              _Float16 f16 = (_Float16) v;

              memcpy (&h, &f16, 2);
            }
          else
            {
              memcpy (&bits, &v, 4);
              h = (guint16) ((bits + 0x7fff + ((bits >> 16) & 1)) >> 16);
            }
          g_byte_array_append (halves, (const guint8 *) &h, 2);
        }
      json_object_set_string_member (entry, "dtype", half_dtype);
      json_array_remove_element (offsets, 1);
      json_array_remove_element (offsets, 0);
      json_array_add_int_element (offsets, start);
      json_array_add_int_element (offsets, halves->len);
    }

  g_byte_array_set_size (data, 0);
  g_byte_array_append (data, halves->data, halves->len);
}

static void
test_half_precision (Fixture       *f,
                     gconstpointer  data)
{
  const char *dtypes[] = { "F16", "BF16" };
  /* Cosine similarity to the F32 result; the rounding of the weights costs a little. */
  const double min_cosine[] = { 0.9999, 0.999 };
  guint dims = lode_bert_get_dims (f->bert);
  g_autofree float *full = g_new0 (float, f->n * dims);
  g_autofree float *half = g_new0 (float, f->n * dims);
  g_autoptr(GError) error = NULL;

  lode_bert_embed (f->bert, f->n, (const gint32 * const *) f->id_ptrs, f->lengths,
                   LODE_POOLING_MEAN, full, NULL, &error);
  g_assert_no_error (error);

  for (guint t = 0; t < G_N_ELEMENTS (dtypes); t++)
    {
      g_autofree char *dir = make_model_dir ();

      half_dtype = dtypes[t];
      write_weights (dir, edit_to_half, 0);
      embed_model_dir (f, dir, LODE_POOLING_MEAN, half);
      for (guint i = 0; i < f->n; i++)
        {
          double dot = 0.0;

          for (guint d = 0; d < dims; d++)
            dot += (double) full[(gsize) i * dims + d] * half[(gsize) i * dims + d];
          g_test_message ("%s case %u: cosine %.6f", dtypes[t], i, dot);
          g_assert_cmpfloat (dot, >=, min_cosine[t]);
          g_assert_cmpfloat (dot, <, 1.0 + 1e-5);
        }
      test_remove_tree (dir);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func, data) \
  g_test_add ("/lode/bert/" path, Fixture, data, fixture_setup, func, fixture_teardown)

  ADD ("config", test_config, NULL);
  ADD ("reference/mean", test_reference_single, GINT_TO_POINTER (LODE_POOLING_MEAN));
  ADD ("reference/cls", test_reference_single, GINT_TO_POINTER (LODE_POOLING_CLS));
  ADD ("reference/batched-mean", test_reference_batched, GINT_TO_POINTER (LODE_POOLING_MEAN));
  ADD ("reference/batched-cls", test_reference_batched, GINT_TO_POINTER (LODE_POOLING_CLS));
  ADD ("threads", test_threads, NULL);
  ADD ("bad-input", test_bad_input, NULL);
  ADD ("unaligned", test_unaligned, NULL);
  ADD ("half-precision", test_half_precision, NULL);
  g_test_add_func ("/lode/bert/broken-weights", test_broken_weights);

#undef ADD

  return g_test_run ();
}
