/* lode-bert.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-bert"

#include "config.h"

#include <math.h>
#include <string.h>

#include <json-glib/json-glib.h>

#include "lode-bert.h"
#include "lode-bert-private.h"
#include "lode-error.h"
#include "lode-json.h"
#include "lode-gemm.h"

/* Upper bounds for config values, far above any BERT-family encoder, so that a corrupt
 * config cannot make us allocate absurd buffers. */
#define MAX_HIDDEN        8192
#define MAX_LAYERS        128
#define MAX_VOCAB         (4 * 1024 * 1024)
#define MAX_POSITIONS     65536
#define MAX_HEADER_BYTES  (100 * 1024 * 1024)

/* Batches of up to this many tokens split their dense products by columns (see
 * columns_part()). */
#define COLUMN_SPLIT_ROWS 256

/* The weights of the dense products are packed once at load (see lode-gemm.h), so the
 * mapped originals are read only then. */
typedef struct
{
  LodePackedMatrix *wqkv;  /* [3H, H]: query, key and value weights stacked */
  float            *bqkv;  /* [3H] (owned) */
  LodePackedMatrix *wo;    /* [H, H] attention output */
  const float      *bo;
  const float      *ln1_g;
  const float      *ln1_b;
  LodePackedMatrix *wi;    /* [I, H] intermediate */
  const float      *bi;
  LodePackedMatrix *wo2;   /* [H, I] output */
  const float      *bo2;
  const float      *ln2_g;
  const float      *ln2_b;
} BertLayer;

struct _LodeBert
{
  GMappedFile *file;
  GPtrArray   *owned;          /* float buffers converted or copied at load */
  BertLayer   *layers;
  const float *word;           /* [V, H] */
  const float *position;       /* [P, H] */
  const float *token_type;     /* [T, H]; every input is segment 0 */
  const float *emb_ln_g;
  const float *emb_ln_b;
  guint        vocab_size;
  guint        hidden;
  guint        heads;
  guint        head_dim;
  guint        intermediate;
  guint        n_layers;
  guint        max_positions;
  guint        type_vocab;
  float        eps;
  guint        gelu_tanh : 1;  /* "gelu_new"-style tanh approximation instead of erf */
};

void
lode_bert_free (LodeBert *self)
{
  if (self == NULL)
    return;

  for (guint l = 0; self->layers != NULL && l < self->n_layers; l++)
    {
      lode_packed_matrix_free (self->layers[l].wqkv);
      lode_packed_matrix_free (self->layers[l].wo);
      lode_packed_matrix_free (self->layers[l].wi);
      lode_packed_matrix_free (self->layers[l].wo2);
    }
  g_clear_pointer (&self->owned, g_ptr_array_unref);
  g_clear_pointer (&self->file, g_mapped_file_unref);
  g_free (self->layers);
  g_free (self);
}

/* ---- config.json ------------------------------------------------------------------------ */

static gboolean
config_uint (JsonObject  *config,
             const char  *name,
             gint64       def,
             gint64       max,
             guint       *out,
             const char  *path,
             GError     **error)
{
  JsonNode *node = json_object_get_member (config, name);
  gint64 value = def;

  if (node != NULL && !JSON_NODE_HOLDS_NULL (node))
    {
      if (!JSON_NODE_HOLDS_VALUE (node) || json_node_get_value_type (node) != G_TYPE_INT64)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: “%s” is not an integer",
                       path, name);
          return FALSE;
        }
      value = json_node_get_int (node);
    }

  if (value < 1 || value > max)
    {
      if (node == NULL)
        g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: “%s” is missing", path, name);
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                     "%s: “%s” is %" G_GINT64_FORMAT ", not in 1…%" G_GINT64_FORMAT,
                     path, name, value, max);
      return FALSE;
    }

  *out = (guint) value;
  return TRUE;
}

static const char *
config_string (JsonObject *config,
               const char *name,
               const char *def)
{
  const char *value = lode_json_get_string (config, name);

  return value != NULL ? value : def;
}

/* Reads config.json, whose text is @text (@length bytes) and whose name is @path. */
static gboolean
bert_read_config (LodeBert    *self,
                  const char  *text,
                  gsize        length,
                  const char  *path,
                  GError     **error)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *config;
  JsonNode *eps;
  const char *model_type;
  const char *position_type;
  const char *act;

  root = lode_json_parse (text, length, error);
  if (root == NULL)
    {
      g_prefix_error (error, "%s: ", path);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: not a JSON object", path);
      return FALSE;
    }
  config = json_node_get_object (root);

  model_type = config_string (config, "model_type", "bert");
  if (g_strcmp0 (model_type, "bert") != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: model type “%s” is not supported (only BERT)", path, model_type);
      return FALSE;
    }

  position_type = config_string (config, "position_embedding_type", "absolute");
  if (g_strcmp0 (position_type, "absolute") != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: position embeddings “%s” are not supported", path, position_type);
      return FALSE;
    }

  act = config_string (config, "hidden_act", "gelu");
  if (g_strcmp0 (act, "gelu") == 0)
    self->gelu_tanh = FALSE;
  else if (g_strcmp0 (act, "gelu_new") == 0 || g_strcmp0 (act, "gelu_pytorch_tanh") == 0)
    self->gelu_tanh = TRUE;
  else
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: activation “%s” is not supported", path, act);
      return FALSE;
    }

  if (!config_uint (config, "hidden_size", 0, MAX_HIDDEN, &self->hidden, path, error) ||
      !config_uint (config, "num_attention_heads", 0, MAX_HIDDEN, &self->heads, path, error) ||
      !config_uint (config, "intermediate_size", 0, 4 * MAX_HIDDEN, &self->intermediate, path,
                    error) ||
      !config_uint (config, "num_hidden_layers", 0, MAX_LAYERS, &self->n_layers, path, error) ||
      !config_uint (config, "vocab_size", 0, MAX_VOCAB, &self->vocab_size, path, error) ||
      !config_uint (config, "max_position_embeddings", 512, MAX_POSITIONS, &self->max_positions,
                    path, error) ||
      !config_uint (config, "type_vocab_size", 2, 1024, &self->type_vocab, path, error))
    return FALSE;

  if (self->hidden % self->heads != 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: hidden_size %u is not a multiple of num_attention_heads %u", path,
                   self->hidden, self->heads);
      return FALSE;
    }
  self->head_dim = self->hidden / self->heads;

  self->eps = 1e-12f;
  eps = json_object_get_member (config, "layer_norm_eps");
  if (eps != NULL && JSON_NODE_HOLDS_VALUE (eps) &&
      (json_node_get_value_type (eps) == G_TYPE_DOUBLE ||
       json_node_get_value_type (eps) == G_TYPE_INT64))
    self->eps = (float) json_node_get_double (eps);
  if (!(self->eps >= 0.0f && self->eps < 1.0f))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: layer_norm_eps out of range",
                   path);
      return FALSE;
    }

  return TRUE;
}

/* ---- model.safetensors ------------------------------------------------------------------ */

typedef struct
{
  JsonObject   *header;
  const guint8 *data;       /* the byte buffer after the header */
  gsize         data_len;
  const char   *path;
  const char   *prefix;     /* "" or "bert." */
} Loader;

static float
half_to_float (guint16 h)
{
  guint32 sign = (guint32) (h & 0x8000) << 16;
  guint32 exponent = (h >> 10) & 0x1f;
  guint32 mantissa = h & 0x3ff;
  guint32 bits;
  float f;

  if (exponent == 0x1f)
    bits = sign | 0x7f800000 | (mantissa << 13);
  else if (exponent != 0)
    bits = sign | ((exponent + 112) << 23) | (mantissa << 13);
  else if (mantissa == 0)
    bits = sign;
  else
    {
      /* Subnormal half: exact as a normal float. */
      f = ldexpf ((float) mantissa, -24);
      return sign != 0 ? -f : f;
    }

  memcpy (&f, &bits, sizeof f);
  return f;
}

static float
bfloat16_to_float (guint16 b)
{
  guint32 bits = (guint32) b << 16;
  float f;

  memcpy (&f, &bits, sizeof f);
  return f;
}

static gboolean
json_uint_value (JsonNode *node,
                 guint64  *out)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64 || json_node_get_int (node) < 0)
    return FALSE;

  *out = (guint64) json_node_get_int (node);
  return TRUE;
}

/* The tensor @name, checked against the expected shape (@cols == 0 for a vector). F32 data
 * is used in place when it is aligned; anything else is converted once into a buffer that
 * lives as long as the model. */
static const float *
bert_tensor (LodeBert    *self,
             Loader      *loader,
             const char  *name,
             guint        rows,
             guint        cols,
             GError     **error)
{
  g_autofree char *full_name = g_strconcat (loader->prefix, name, NULL);
  JsonNode *node = json_object_get_member (loader->header, full_name);
  JsonObject *entry;
  JsonNode *shape_node;
  JsonNode *offsets_node;
  JsonArray *shape;
  JsonArray *offsets;
  const char *dtype;
  guint n_dims = cols == 0 ? 1 : 2;
  guint64 expected[2] = { rows, cols };
  guint64 begin;
  guint64 end;
  guint64 count = (guint64) rows * MAX (cols, 1);
  gsize elem_size;
  const guint8 *bytes;
  const float *weights;
  float *converted;

  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: tensor “%s” is missing",
                   loader->path, full_name);
      return NULL;
    }
  entry = json_node_get_object (node);

  dtype = config_string (entry, "dtype", "");
  if (g_str_equal (dtype, "F32"))
    elem_size = 4;
  else if (g_str_equal (dtype, "F16") || g_str_equal (dtype, "BF16"))
    elem_size = 2;
  else
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: tensor “%s” has type “%s”; F32, F16 and BF16 are supported",
                   loader->path, full_name, dtype);
      return NULL;
    }

  shape_node = json_object_get_member (entry, "shape");
  shape = shape_node != NULL && JSON_NODE_HOLDS_ARRAY (shape_node) ?
    json_node_get_array (shape_node) : NULL;
  if (shape == NULL || json_array_get_length (shape) != n_dims)
    goto bad_shape;
  for (guint i = 0; i < n_dims; i++)
    {
      guint64 dim;

      if (!json_uint_value (json_array_get_element (shape, i), &dim) || dim != expected[i])
        goto bad_shape;
    }

  offsets_node = json_object_get_member (entry, "data_offsets");
  offsets = offsets_node != NULL && JSON_NODE_HOLDS_ARRAY (offsets_node) ?
    json_node_get_array (offsets_node) : NULL;
  if (offsets == NULL || json_array_get_length (offsets) != 2 ||
      !json_uint_value (json_array_get_element (offsets, 0), &begin) ||
      !json_uint_value (json_array_get_element (offsets, 1), &end) ||
      begin > end || end > loader->data_len || end - begin != count * elem_size)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: tensor “%s” has invalid data offsets (file truncated?)",
                   loader->path, full_name);
      return NULL;
    }

  bytes = loader->data + begin;
  if (elem_size == 4 && ((guintptr) bytes % G_ALIGNOF (float)) == 0)
    weights = (const float *) (gconstpointer) bytes;
  else
    {
      converted = g_new (float, count);
      g_ptr_array_add (self->owned, converted);
      if (elem_size == 4)
        memcpy (converted, bytes, count * sizeof (float));
      else
        {
          gboolean bf16 = g_str_equal (dtype, "BF16");

          for (guint64 i = 0; i < count; i++)
            {
              guint16 h;

              /* Little-endian on disk, like every safetensors file. */
              h = (guint16) (bytes[2 * i] | (bytes[2 * i + 1] << 8));
              converted[i] = bf16 ? bfloat16_to_float (h) : half_to_float (h);
            }
        }
      weights = converted;
    }

  /* A NaN or an infinity would only make every vector NaN; the weights are read once here
   * anyway (packing reads them all). */
  for (guint64 i = 0; i < count; i++)
    if (!isfinite (weights[i]))
      {
        g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                     "%s: tensor “%s” holds a value that is not finite (%g at %" G_GUINT64_FORMAT
                     "): the file is corrupt", loader->path, full_name, weights[i], i);
        return NULL;
      }

  return weights;

bad_shape:
  if (cols == 0)
    g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                 "%s: tensor “%s” does not have the shape [%u] that config.json implies",
                 loader->path, full_name, rows);
  else
    g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                 "%s: tensor “%s” does not have the shape [%u, %u] that config.json implies",
                 loader->path, full_name, rows, cols);
  return NULL;
}

/* The weights @name packed for the dense products; a converted copy is dropped. */
static LodePackedMatrix *
bert_packed_tensor (LodeBert    *self,
                    Loader      *loader,
                    const char  *name,
                    guint        rows,
                    guint        cols,
                    GError     **error)
{
  guint n_owned = self->owned->len;
  const float *weights = bert_tensor (self, loader, name, rows, cols, error);
  LodePackedMatrix *packed;

  if (weights == NULL)
    return NULL;

  packed = lode_packed_matrix_new (weights, rows, cols);
  if (self->owned->len > n_owned)
    g_ptr_array_remove_index (self->owned, n_owned);

  return packed;
}

static gboolean
bert_load_layer (LodeBert   *self,
                 Loader     *loader,
                 guint       index,
                 BertLayer  *layer,
                 GError    **error)
{
  const char *qkv_names[] = { "query", "key", "value" };
  guint H = self->hidden;
  guint n_inter = self->intermediate;

  g_autofree float *wqkv = NULL;

#define LAYER_TENSOR(field, suffix, r, c) \
  G_STMT_START { \
    g_autofree char *name_ = g_strdup_printf ("encoder.layer.%u.%s", index, suffix); \
    if ((layer->field = bert_tensor (self, loader, name_, r, c, error)) == NULL) \
      return FALSE; \
  } G_STMT_END
#define LAYER_PACKED(field, suffix, r, c) \
  G_STMT_START { \
    g_autofree char *name_ = g_strdup_printf ("encoder.layer.%u.%s", index, suffix); \
    if ((layer->field = bert_packed_tensor (self, loader, name_, r, c, error)) == NULL) \
      return FALSE; \
  } G_STMT_END

  /* One [3H, H] product instead of three [H, H] ones: fewer, larger products. */
  wqkv = g_new (float, (gsize) 3 * H * H);
  layer->bqkv = g_new (float, (gsize) 3 * H);
  g_ptr_array_add (self->owned, layer->bqkv);
  for (guint i = 0; i < 3; i++)
    {
      g_autofree char *weight_name = g_strdup_printf ("encoder.layer.%u.attention.self.%s.weight",
                                                      index, qkv_names[i]);
      g_autofree char *bias_name = g_strdup_printf ("encoder.layer.%u.attention.self.%s.bias",
                                                    index, qkv_names[i]);
      const float *weight = bert_tensor (self, loader, weight_name, H, H, error);
      const float *bias = weight != NULL ? bert_tensor (self, loader, bias_name, H, 0, error) : NULL;

      if (bias == NULL)
        return FALSE;
      memcpy (wqkv + (gsize) i * H * H, weight, (gsize) H * H * sizeof (float));
      memcpy (layer->bqkv + (gsize) i * H, bias, H * sizeof (float));
    }
  layer->wqkv = lode_packed_matrix_new (wqkv, 3 * H, H);

  LAYER_PACKED (wo, "attention.output.dense.weight", H, H);
  LAYER_TENSOR (bo, "attention.output.dense.bias", H, 0);
  LAYER_TENSOR (ln1_g, "attention.output.LayerNorm.weight", H, 0);
  LAYER_TENSOR (ln1_b, "attention.output.LayerNorm.bias", H, 0);
  LAYER_PACKED (wi, "intermediate.dense.weight", n_inter, H);
  LAYER_TENSOR (bi, "intermediate.dense.bias", n_inter, 0);
  LAYER_PACKED (wo2, "output.dense.weight", H, n_inter);
  LAYER_TENSOR (bo2, "output.dense.bias", H, 0);
  LAYER_TENSOR (ln2_g, "output.LayerNorm.weight", H, 0);
  LAYER_TENSOR (ln2_b, "output.LayerNorm.bias", H, 0);

#undef LAYER_TENSOR
#undef LAYER_PACKED

  return TRUE;
}

/* Reads model.safetensors, whose bytes are @contents (which must outlive @self) and whose
 * name is @path: the header, then every tensor the config implies, checked against it. */
static gboolean
bert_read_weights (LodeBert      *self,
                   const guint8  *contents,
                   gsize          length,
                   const char    *path,
                   GError       **error)
{
  g_autoptr(GError) local_error = NULL;
  g_autoptr(JsonNode) root = NULL;
  guint64 header_len = 0;
  Loader loader = { 0 };

  if (length < 8)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: not a safetensors file", path);
      return FALSE;
    }

  for (guint i = 0; i < 8; i++)
    header_len |= (guint64) contents[i] << (8 * i);
  if (header_len < 2 || header_len > MAX_HEADER_BYTES || header_len > length - 8)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: header length %" G_GUINT64_FORMAT " does not fit the file of %"
                   G_GSIZE_FORMAT " bytes (truncated or not safetensors)",
                   path, header_len, length);
      return FALSE;
    }

  root = lode_json_parse ((const char *) contents + 8, header_len, &local_error);
  if (root == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: corrupt header: %s", path,
                   local_error->message);
      return FALSE;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: the header is not an object",
                   path);
      return FALSE;
    }

  loader.header = json_node_get_object (root);
  loader.data = contents + 8 + header_len;
  loader.data_len = length - 8 - header_len;
  loader.path = path;
  /* BertModel checkpoints name tensors "embeddings.…", BertFor* ones "bert.embeddings.…". */
  loader.prefix = json_object_has_member (loader.header, "embeddings.word_embeddings.weight") ?
    "" : "bert.";

  if ((self->word = bert_tensor (self, &loader, "embeddings.word_embeddings.weight",
                                 self->vocab_size, self->hidden, error)) == NULL ||
      (self->position = bert_tensor (self, &loader, "embeddings.position_embeddings.weight",
                                     self->max_positions, self->hidden, error)) == NULL ||
      (self->token_type = bert_tensor (self, &loader, "embeddings.token_type_embeddings.weight",
                                       self->type_vocab, self->hidden, error)) == NULL ||
      (self->emb_ln_g = bert_tensor (self, &loader, "embeddings.LayerNorm.weight",
                                     self->hidden, 0, error)) == NULL ||
      (self->emb_ln_b = bert_tensor (self, &loader, "embeddings.LayerNorm.bias",
                                     self->hidden, 0, error)) == NULL)
    return FALSE;

  self->layers = g_new0 (BertLayer, self->n_layers);
  for (guint l = 0; l < self->n_layers; l++)
    if (!bert_load_layer (self, &loader, l, &self->layers[l], error))
      return FALSE;

  return TRUE;
}

static gboolean
bert_load_config (LodeBert    *self,
                  const char  *path,
                  GError     **error)
{
  g_autofree char *text = NULL;
  gsize length = 0;

  if (!g_file_get_contents (path, &text, &length, error))
    return FALSE;

  return bert_read_config (self, text, length, path, error);
}

static gboolean
bert_load_weights (LodeBert    *self,
                   const char  *path,
                   GError     **error)
{
  g_autoptr(GError) local_error = NULL;

  self->file = g_mapped_file_new (path, FALSE, &local_error);
  if (self->file == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s", local_error->message);
      return FALSE;
    }

  return bert_read_weights (self, (const guint8 *) g_mapped_file_get_contents (self->file),
                            g_mapped_file_get_length (self->file), path, error);
}

/**
 * lode_bert_new:
 * @dir: a folder with `config.json` and `model.safetensors`
 * @error: return location for a #GError
 *
 * Loads a BERT encoder. The weights file stays memory-mapped; F16 and BF16 weights are
 * converted to F32 once.
 *
 * Returns: (transfer full) (nullable): the encoder, or %NULL with @error set
 *   (%LODE_ERROR_EMBEDDER for missing, corrupt or inconsistent files)
 */
LodeBert *
lode_bert_new (const char  *dir,
               GError     **error)
{
  g_autoptr(LodeBert) self = g_new0 (LodeBert, 1);
  g_autofree char *config_path = NULL;
  g_autofree char *weights_path = NULL;

  g_return_val_if_fail (dir != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  self->owned = g_ptr_array_new_with_free_func (g_free);
  config_path = g_build_filename (dir, "config.json", NULL);
  weights_path = g_build_filename (dir, "model.safetensors", NULL);

  if (!bert_load_config (self, config_path, error) ||
      !bert_load_weights (self, weights_path, error))
    return NULL;

  return g_steal_pointer (&self);
}

/* For the safetensors fuzzer (tests/fuzz): a model from a config.json text and the bytes of
 * a model.safetensors, which must outlive it. */
LodeBert *
_lode_bert_new_for_data (const char    *config,
                         const guint8  *weights,
                         gsize          weights_len,
                         GError       **error)
{
  g_autoptr(LodeBert) self = g_new0 (LodeBert, 1);

  self->owned = g_ptr_array_new_with_free_func (g_free);
  if (!bert_read_config (self, config, strlen (config), "config.json", error) ||
      !bert_read_weights (self, weights, weights_len, "model.safetensors", error))
    return NULL;

  return g_steal_pointer (&self);
}

guint
lode_bert_get_dims (LodeBert *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->hidden;
}

guint
lode_bert_get_max_positions (LodeBert *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->max_positions;
}

guint
lode_bert_get_vocab_size (LodeBert *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->vocab_size;
}

/* ---- kernels ---------------------------------------------------------------------------- */

/* Y[M, N] = bias + X[M, K] · W[N, K]ᵀ, a Hugging Face linear layer; without @bias,
 * accumulated into @y, which holds the residual. */
static inline void
linear (const float            *x,
        const LodePackedMatrix *w,
        const float            *bias,
        float                  *y,
        guint                   m)
{
  guint n = lode_packed_matrix_get_n (w);

  lode_gemm_acc (LODE_GEMM_KERNEL_BEST, x, lode_packed_matrix_get_k (w), m, w, 0, n, bias, y,
                 n);
}

/* The element-wise kernels below run once per layer over whole matrices. They are compiled
 * for x86-64-v4 (AVX-512), v3 (AVX2 + FMA) and the baseline, and the loader picks the best
 * for the processor; `omp simd` (with -fopenmp-simd, no OpenMP runtime) lets the compiler
 * vectorise the reductions without -ffast-math. */
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__) && defined(__ELF__)
#define SIMD_CLONES __attribute__ ((target_clones ("arch=x86-64-v4", "arch=x86-64-v3", "default")))
#else
#define SIMD_CLONES
#endif

static inline float
clampf (float x,
        float lo,
        float hi)
{
  x = x < lo ? lo : x;
  return x > hi ? hi : x;
}

/* x = LayerNorm (x + bias) over rows of @n, in place; @bias may be NULL. */
SIMD_CLONES static void
bias_layer_norm (float       * restrict x,
                 const float * restrict bias,
                 const float * restrict gamma,
                 const float * restrict beta,
                 guint                  rows,
                 guint                  n,
                 float                  eps)
{
  for (guint r = 0; r < rows; r++)
    {
      float * restrict row = x + (gsize) r * n;
      float sum = 0.0f;
      float var = 0.0f;
      float mean;
      float inv;

      if (bias != NULL)
        {
#pragma omp simd reduction (+:sum)
          for (guint i = 0; i < n; i++)
            {
              row[i] += bias[i];
              sum += row[i];
            }
        }
      else
        {
#pragma omp simd reduction (+:sum)
          for (guint i = 0; i < n; i++)
            sum += row[i];
        }

      mean = sum / n;
#pragma omp simd reduction (+:var)
      for (guint i = 0; i < n; i++)
        {
          float d = row[i] - mean;

          var += d * d;
        }
      inv = 1.0f / sqrtf (var / n + eps);
#pragma omp simd
      for (guint i = 0; i < n; i++)
        row[i] = (row[i] - mean) * inv * gamma[i] + beta[i];
    }
}

/* erf to about 4e-7: a rational approximation (the one Eigen and XLA use) that vectorises,
 * unlike libm's erff. */
static inline float
erf_approx (float a)
{
  float x = clampf (a, -4.0f, 4.0f);
  float x2 = x * x;
  float p;
  float q;

  p = x2 * -2.72614225801306e-10f + 2.77068142495902e-08f;
  p = x2 * p + -2.10102402082508e-06f;
  p = x2 * p + -5.69250639462346e-05f;
  p = x2 * p + -7.34990630326855e-04f;
  p = x2 * p + -2.95459980854025e-03f;
  p = x2 * p + -1.60960333262415e-02f;
  p = x * p;
  q = x2 * -1.45660718464996e-05f + -2.13374055278905e-04f;
  q = x2 * q + -1.68282697438203e-03f;
  q = x2 * q + -7.37332916720468e-03f;
  q = x2 * q + -1.42647390514189e-02f;
  return p / q;
}

/* e^x for x ≤ 0 to about 2e-7 relative: range reduction by ln 2, a degree-6 polynomial
 * (Cephes expf), the power of two built in the exponent bits. Vectorises. */
static inline float
exp_approx (float x)
{
  const float magic = 12582912.0f;  /* 1.5 × 2^23: adding it rounds to an integer */
  union { gint32 i; float f; } scale;
  float n;
  float r;
  float p;

  /* Written so that a NaN (from activations that overflowed) becomes -87 too: the
   * conversion of n to an integer below must get a number in range. */
  x = x > -87.0f ? x : -87.0f;
  x = x < 88.0f ? x : 88.0f;
  n = (x * 1.44269504088896341f + magic) - magic;
  r = x - n * 0.693359375f;
  r = r - n * -2.12194440e-4f;
  p = 1.9875691500e-4f;
  p = p * r + 1.3981999507e-3f;
  p = p * r + 8.3334519073e-3f;
  p = p * r + 4.1665795894e-2f;
  p = p * r + 1.6666665459e-1f;
  p = p * r + 5.0000001201e-1f;
  p = p * (r * r) + r + 1.0f;
  scale.i = ((gint32) n + 127) << 23;
  return p * scale.f;
}

/* tanh (x) = 1 − 2 / (e^{2x} + 1), with e^{2x} from exp_approx on the negative side. */
static inline float
tanh_approx (float x)
{
  float a = clampf (x, -9.0f, 9.0f);
  float e = exp_approx (-2.0f * (a < 0.0f ? -a : a));
  float t = (1.0f - e) / (1.0f + e);

  return a < 0.0f ? -t : t;
}

/* x = GELU (x), in place. */
SIMD_CLONES static void
gelu (float    * restrict x,
      gsize               n,
      gboolean            tanh_form)
{
  if (tanh_form)
    {
#pragma omp simd
      for (gsize i = 0; i < n; i++)
        {
          float v = x[i];

          x[i] = 0.5f * v * (1.0f + tanh_approx (0.7978845608f * (v + 0.044715f * v * v * v)));
        }
    }
  else
    {
#pragma omp simd
      for (gsize i = 0; i < n; i++)
        {
          float v = x[i];

          x[i] = 0.5f * v * (1.0f + erf_approx (v * (float) M_SQRT1_2));
        }
    }
}

/* Softmax of each row of @scores (@rows × @n, rows @stride apart), in place. */
SIMD_CLONES static void
softmax_rows (float *scores,
              guint  rows,
              guint  n,
              guint  stride,
              float  scale)
{
  for (guint r = 0; r < rows; r++)
    {
      float * restrict row = scores + (gsize) r * stride;
      float max = row[0];
      float sum = 0.0f;
      float inv;

#pragma omp simd reduction (max:max)
      for (guint i = 0; i < n; i++)
        max = row[i] > max ? row[i] : max;
#pragma omp simd reduction (+:sum)
      for (guint i = 0; i < n; i++)
        {
          row[i] = exp_approx ((row[i] - max) * scale);
          sum += row[i];
        }
      inv = 1.0f / sum;
#pragma omp simd
      for (guint i = 0; i < n; i++)
        row[i] *= inv;
    }
}

/* ---- fork-join ------------------------------------------------------------------------- */

/* The encoder splits each step of a forward pass over the processors itself: its products,
 * its element-wise work and the attention heads. (Helpers that spin before sleeping, as
 * onnxruntime's do, measured no faster here.) */
typedef void (*PartFunc) (gpointer data,
                          guint    part,
                          guint    n_parts);

typedef struct
{
  GMutex mutex;
  GCond  cond;
  guint  pending;
} Join;

typedef struct
{
  PartFunc  func;
  gpointer  data;
  guint     part;
  guint     n_parts;
  Join     *join;
} Part;

/* Runs on a helper thread. */
static void
part_worker (gpointer item,
             gpointer pool_data)
{
  Part *part = item;
  Join *join = part->join;

  part->func (part->data, part->part, part->n_parts);

  g_mutex_lock (&join->mutex);
  if (--join->pending == 0)
    g_cond_signal (&join->cond);
  g_mutex_unlock (&join->mutex);
}

static guint
n_workers (void)
{
  static gsize n;

  if (g_once_init_enter (&n))
    g_once_init_leave (&n, CLAMP (g_get_num_processors (), 1, 64));

  return (guint) n;
}

/* The helpers of every encoder in the process (n_workers () − 1 threads; the caller does
 * part 0). Helpers never wait on each other, so concurrent callers cannot deadlock. */
static GThreadPool *
helper_pool (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (part_worker, NULL, MAX (n_workers () - 1, 1),
                                                 TRUE, NULL));

  return pool;
}

/* Calls @func (@data, i, @n_parts) for every i < @n_parts, part 0 on this thread, and
 * returns when all have returned. */
static void
run_parts (PartFunc func,
           gpointer data,
           guint    n_parts)
{
  Part parts[64];
  Join join;

  g_assert (n_parts >= 1 && n_parts <= G_N_ELEMENTS (parts));

  if (n_parts == 1)
    {
      func (data, 0, 1);
      return;
    }

  g_mutex_init (&join.mutex);
  g_cond_init (&join.cond);
  join.pending = n_parts - 1;
  for (guint i = 1; i < n_parts; i++)
    {
      parts[i] = (Part) { func, data, i, n_parts, &join };
      /* A failed push only means no new thread could start; the part still waits in the
       * queue for a running helper. */
      g_thread_pool_push (helper_pool (), &parts[i], NULL);
    }

  func (data, 0, n_parts);

  g_mutex_lock (&join.mutex);
  while (join.pending > 0)
    g_cond_wait (&join.cond, &join.mutex);
  g_mutex_unlock (&join.mutex);
  g_mutex_clear (&join.mutex);
  g_cond_clear (&join.cond);
}

/* ---- forward pass ----------------------------------------------------------------------- */

/* The state of one lode_bert_embed() call. Sequences are packed one after another (no
 * padding): a token attends only to the tokens of its own sequence, which is what an
 * attention mask over a padded batch achieves, without computing the padding. */
typedef struct
{
  LodeBert        *self;
  const guint     *lengths;
  const gsize     *offsets;   /* first row of each sequence */
  guint            n_sequences;
  guint            T;         /* rows: all tokens of the batch */
  float           *x;         /* [T, H] hidden states */
  float           *qkv;       /* [T, 3H] */
  float           *ctx;       /* [T, H] attention context */
  float           *inter;     /* [T, I] */
  float          **scores;    /* per part: [Lmax, Lmax padded], one head of one sequence */
  float          **keys;      /* per part: [D, Lmax padded], its keys transposed */
  const BertLayer *finish;    /* the layer whose dense half the row step runs, or NULL */
  const BertLayer *start;     /* the layer whose QKV product the row step runs, or NULL */
  struct
  {
    const float            *x;     /* [T, k] */
    const LodePackedMatrix *w;     /* [n, k] */
    const float            *bias;  /* [n], or NULL to accumulate into y as it is */
    float                  *y;     /* [T, n] */
    gboolean                gelu;
  } product;                       /* the product the column step runs */
} Pass;

/* Rows r0…r1: the dense half of the previous layer (post-LayerNorm:
 * x = LN (x + dense (ctx)), then x = LN (x + dense (gelu (dense (x))))), then the QKV product
 * of the next. Each row depends only on itself, so parts need no join in between. The
 * residual x is the accumulator of the output products. */
static void
rows_part (gpointer data,
           guint    part,
           guint    n_parts)
{
  Pass *pass = data;
  LodeBert *self = pass->self;
  guint H = self->hidden;
  guint n_inter = self->intermediate;
  guint r0 = (guint) ((guint64) pass->T * part / n_parts);
  guint r1 = (guint) ((guint64) pass->T * (part + 1) / n_parts);
  guint m = r1 - r0;
  float *x = pass->x + (gsize) r0 * H;

  if (m == 0)
    return;

  if (pass->finish != NULL)
    {
      const BertLayer *layer = pass->finish;
      float *inter = pass->inter + (gsize) r0 * n_inter;

      linear (pass->ctx + (gsize) r0 * H, layer->wo, NULL, x, m);
      bias_layer_norm (x, layer->bo, layer->ln1_g, layer->ln1_b, m, H, self->eps);
      linear (x, layer->wi, layer->bi, inter, m);
      gelu (inter, (gsize) m * n_inter, self->gelu_tanh);
      linear (inter, layer->wo2, NULL, x, m);
      bias_layer_norm (x, layer->bo2, layer->ln2_g, layer->ln2_b, m, H, self->eps);
    }

  if (pass->start != NULL)
    {
      float *qkv = pass->qkv + (gsize) r0 * 3 * H;

      linear (x, pass->start->wqkv, pass->start->bqkv, qkv, m);
    }
}

/* Columns c0…c1 of @n for one part: whole panels of the packed weights. */
static void
column_range (guint  n,
              guint  part,
              guint  n_parts,
              guint *c0,
              guint *c1)
{
  guint panels = (n + LODE_GEMM_PANEL - 1) / LODE_GEMM_PANEL;

  *c0 = MIN (n, panels * part / n_parts * LODE_GEMM_PANEL);
  *c1 = MIN (n, panels * (part + 1) / n_parts * LODE_GEMM_PANEL);
}

/* The column step, for short batches: y (+)= x · wᵀ (+ bias, then GELU) for one part's share
 * of the output columns. With few rows, the weights are the larger operand: this way each
 * part reads only its columns' weights. Four joins more per layer than the row steps. */
static void
columns_part (gpointer data,
              guint    part,
              guint    n_parts)
{
  Pass *pass = data;
  const LodePackedMatrix *w = pass->product.w;
  guint n = lode_packed_matrix_get_n (w);
  guint c0, c1;

  column_range (n, part, n_parts, &c0, &c1);
  if (c1 == c0)
    return;
  lode_gemm_acc (LODE_GEMM_KERNEL_BEST, pass->product.x, lode_packed_matrix_get_k (w),
                 pass->T, w, c0, c1, pass->product.bias, pass->product.y, n);
  if (pass->product.gelu)
    for (guint r = 0; r < pass->T; r++)
      gelu (pass->product.y + (gsize) r * n + c0, c1 - c0, pass->self->gelu_tanh);
}

static void
run_columns (Pass                   *pass,
             const float            *x,
             const LodePackedMatrix *w,
             const float            *bias,
             float                  *y,
             gboolean                with_gelu,
             guint                   n_parts)
{
  pass->product.x = x;
  pass->product.w = w;
  pass->product.bias = bias;
  pass->product.y = y;
  pass->product.gelu = with_gelu;
  run_parts (columns_part, pass, n_parts);
}

/* Columns of a row of attention scores for @len tokens: whole panels. */
static inline guint
padded_length (guint len)
{
  return (len + LODE_GEMM_PANEL - 1) / LODE_GEMM_PANEL * LODE_GEMM_PANEL;
}

/* Attention of every (sequence, head) pair i with i ≡ part (mod n_parts). */
static void
attention_part (gpointer data,
                guint    part,
                guint    n_parts)
{
  Pass *pass = data;
  LodeBert *self = pass->self;
  guint H = self->hidden;
  guint D = self->head_dim;
  gsize ld = 3 * (gsize) H;
  float scale = 1.0f / sqrtf ((float) D);
  float *scores = pass->scores[part];
  float *keys = pass->keys[part];

  for (guint i = part; i < pass->n_sequences * self->heads; i += n_parts)
    {
      guint s = i / self->heads;
      guint h = i % self->heads;
      guint L = pass->lengths[s];
      guint Lp = padded_length (L);
      const float *q = pass->qkv + pass->offsets[s] * ld + h * D;
      const float *k = q + H;
      const float *v = q + 2 * H;
      float *ctx = pass->ctx + pass->offsets[s] * H + h * D;

      /* keys[D, Lp] = K_hᵀ, zero after column L; scores[L, Lp] = Q_h · K_hᵀ, then
       * softmax (Q_h · K_hᵀ / √D) over the first L columns, then ctx_h = scores · V_h. */
      for (guint d = 0; d < D; d++)
        {
          float *row = keys + (gsize) d * Lp;

          for (guint j = 0; j < L; j++)
            row[j] = k[j * ld + d];
          for (guint j = L; j < Lp; j++)
            row[j] = 0.0f;
        }
      lode_gemm_nn (LODE_GEMM_KERNEL_BEST, L, Lp, D, q, ld, keys, Lp, scores, Lp);
      softmax_rows (scores, L, L, Lp, scale);
      lode_gemm_nn (LODE_GEMM_KERNEL_BEST, L, D, L, scores, Lp, v, ld, ctx, H);
    }
}

static void
l2_normalize (float *v,
              guint  n)
{
  double sum = 0.0;

  for (guint i = 0; i < n; i++)
    sum += (double) v[i] * v[i];
  if (sum > 0.0)
    {
      float inv = (float) (1.0 / sqrt (sum));

      for (guint i = 0; i < n; i++)
        v[i] *= inv;
    }
}

/**
 * lode_bert_embed:
 * @self: a #LodeBert
 * @n_sequences: number of token sequences
 * @ids: (array length=n_sequences): the token ids of each sequence, [CLS] and [SEP] included
 * @lengths: (array length=n_sequences): the length of each sequence, 1 to the model's
 *   maximum positions
 * @pooling: mean of the token vectors, or the [CLS] vector
 * @out: (out caller-allocates): @n_sequences × dims floats, each row L2-normalised
 * @cancellable: (nullable): checked between layers
 * @error: return location for a #GError
 *
 * Runs the encoder on a batch. Sequences of different lengths may be mixed; each sees only
 * its own tokens. May be called from several threads at once.
 *
 * Returns: %FALSE with @error set for an empty or too long sequence, an id outside the
 *   vocabulary, or cancellation
 */
gboolean
lode_bert_embed (LodeBert             *self,
                 guint                 n_sequences,
                 const gint32 * const *ids,
                 const guint          *lengths,
                 LodePooling           pooling,
                 float                *out,
                 GCancellable         *cancellable,
                 GError              **error)
{
  Pass pass = { 0 };
  g_autofree gsize *offsets = NULL;
  guint H;
  gsize T = 0;
  guint max_len = 0;
  guint n_parts;
  guint n_head_parts;
  gboolean by_columns;
  gboolean cancelled = FALSE;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (n_sequences == 0 || (ids != NULL && lengths != NULL), FALSE);
  g_return_val_if_fail (n_sequences == 0 || out != NULL, FALSE);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  H = self->hidden;
  for (guint s = 0; s < n_sequences; s++)
    {
      if (lengths[s] == 0 || lengths[s] > self->max_positions)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "sequence %u has %u tokens; the model takes 1 to %u", s, lengths[s],
                       self->max_positions);
          return FALSE;
        }
      for (guint i = 0; i < lengths[s]; i++)
        if (ids[s][i] < 0 || (guint) ids[s][i] >= self->vocab_size)
          {
            g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                         "token id %d is outside the vocabulary of %u", ids[s][i],
                         self->vocab_size);
            return FALSE;
          }
      T += lengths[s];
      max_len = MAX (max_len, lengths[s]);
    }

  if (n_sequences == 0)
    return TRUE;

  offsets = g_new (gsize, n_sequences);
  for (guint s = 0; s < n_sequences; s++)
    offsets[s] = s == 0 ? 0 : offsets[s - 1] + lengths[s - 1];

  /* Up to COLUMN_SPLIT_ROWS tokens the dense products are split by output columns, above
   * by rows (in parts of at least 16 rows); attention in parts of whole heads. */
  by_columns = T <= COLUMN_SPLIT_ROWS && n_workers () > 1;
  n_parts = by_columns ? n_workers () : CLAMP (T / 16, 1, n_workers ());
  n_head_parts = MIN (n_sequences * self->heads, n_workers ());

  pass.self = self;
  pass.lengths = lengths;
  pass.offsets = offsets;
  pass.n_sequences = n_sequences;
  pass.T = T;
  pass.x = g_new (float, T * H);
  pass.qkv = g_new (float, T * 3 * H);
  pass.ctx = g_new (float, T * H);
  pass.inter = g_new (float, T * self->intermediate);
  pass.scores = g_new (float *, n_head_parts);
  pass.keys = g_new (float *, n_head_parts);
  for (guint i = 0; i < n_head_parts; i++)
    {
      pass.scores[i] = g_new (float, (gsize) max_len * padded_length (max_len));
      pass.keys[i] = g_new (float, (gsize) self->head_dim * padded_length (max_len));
    }

  /* Embeddings: word + position + segment 0, then LayerNorm. */
  for (guint s = 0; s < n_sequences; s++)
    for (guint p = 0; p < lengths[s]; p++)
      {
        float *row = pass.x + (offsets[s] + p) * H;
        const float *word = self->word + (gsize) ids[s][p] * H;
        const float *position = self->position + (gsize) p * H;

        for (guint i = 0; i < H; i++)
          row[i] = word[i] + position[i] + self->token_type[i];
      }
  bias_layer_norm (pass.x, NULL, self->emb_ln_g, self->emb_ln_b, T, H, self->eps);

  for (guint l = 0; l < self->n_layers; l++)
    {
      const BertLayer *layer = &self->layers[l];

      cancelled = g_cancellable_set_error_if_cancelled (cancellable, error);
      if (cancelled)
        break;

      if (by_columns)
        {
          run_columns (&pass, pass.x, layer->wqkv, layer->bqkv, pass.qkv, FALSE, n_parts);
          run_parts (attention_part, &pass, n_head_parts);
          run_columns (&pass, pass.ctx, layer->wo, NULL, pass.x, FALSE, n_parts);
          bias_layer_norm (pass.x, layer->bo, layer->ln1_g, layer->ln1_b, T, H, self->eps);
          run_columns (&pass, pass.x, layer->wi, layer->bi, pass.inter, TRUE, n_parts);
          run_columns (&pass, pass.inter, layer->wo2, NULL, pass.x, FALSE, n_parts);
          bias_layer_norm (pass.x, layer->bo2, layer->ln2_g, layer->ln2_b, T, H, self->eps);
        }
      else
        {
          pass.finish = l > 0 ? &self->layers[l - 1] : NULL;
          pass.start = layer;
          run_parts (rows_part, &pass, n_parts);
          run_parts (attention_part, &pass, n_head_parts);
        }
    }

  if (!cancelled)
    {
      if (!by_columns)
        {
          pass.finish = &self->layers[self->n_layers - 1];
          pass.start = NULL;
          run_parts (rows_part, &pass, n_parts);
        }

      for (guint s = 0; s < n_sequences; s++)
        {
          float *vector = out + (gsize) s * H;
          const float *tokens = pass.x + offsets[s] * H;

          if (pooling == LODE_POOLING_CLS)
            memcpy (vector, tokens, H * sizeof (float));
          else
            {
              memset (vector, 0, H * sizeof (float));
              for (guint p = 0; p < lengths[s]; p++)
                for (guint i = 0; i < H; i++)
                  vector[i] += tokens[(gsize) p * H + i];
              for (guint i = 0; i < H; i++)
                vector[i] /= lengths[s];
            }
          l2_normalize (vector, H);
        }
    }

  g_free (pass.x);
  g_free (pass.qkv);
  g_free (pass.ctx);
  g_free (pass.inter);
  for (guint i = 0; i < n_head_parts; i++)
    {
      g_free (pass.scores[i]);
      g_free (pass.keys[i]);
    }
  g_free (pass.scores);
  g_free (pass.keys);

  return !cancelled;
}
