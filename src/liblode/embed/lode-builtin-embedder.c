/* lode-builtin-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-builtin-embedder"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>

#include "lode-bert.h"
#include "lode-builtin-embedder.h"
#include "lode-embed-parts.h"
#include "lode-error.h"
#include "lode-json.h"
#include "lode-wordpiece.h"

/* Tokens per forward pass: bounds the buffers of one pass (≈ 50 MB for a 384-wide model)
 * while keeping the matrix products large enough for BLAS to be efficient. */
#define MAX_PASS_TOKENS 8192

struct _LodeBuiltinEmbedder
{
  GObject        parent_instance;
  LodeBert      *bert;
  LodeWordpiece *wordpiece;
  char          *model;
  char          *dir;
  char          *query_prefix;
  guint          max_tokens;
  LodePooling    pooling;
};

static void lode_builtin_embedder_iface_init (LodeEmbedderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeBuiltinEmbedder, lode_builtin_embedder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_EMBEDDER,
                                                      lode_builtin_embedder_iface_init))

static void
lode_builtin_embedder_finalize (GObject *object)
{
  LodeBuiltinEmbedder *self = (LodeBuiltinEmbedder *)object;

  g_clear_pointer (&self->bert, lode_bert_free);
  g_clear_pointer (&self->wordpiece, lode_wordpiece_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->dir, g_free);
  g_clear_pointer (&self->query_prefix, g_free);

  G_OBJECT_CLASS (lode_builtin_embedder_parent_class)->finalize (object);
}

static void
lode_builtin_embedder_class_init (LodeBuiltinEmbedderClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_builtin_embedder_finalize;
}

static void
lode_builtin_embedder_init (LodeBuiltinEmbedder *self)
{
}

/* ---- model resolution ------------------------------------------------------------------- */

static char *
known_model_names (void)
{
  g_autoptr(GString) names = g_string_new (NULL);
  guint n = 0;
  const LodeModelInfo *all = lode_models_get_all (&n);

  for (guint i = 0; i < n; i++)
    if (all[i].format == LODE_MODEL_FORMAT_BERT)
      g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", all[i].name);

  return g_string_free (g_steal_pointer (&names), FALSE);
}

/* The known model a folder holds: Lode's cache names folders after the model, the Hugging
 * Face cache has …/models--ORG--NAME/snapshots/REVISION. */
static const LodeModelInfo *
model_of_dir (const char  *dir,
              char       **name)
{
  g_autofree char *base = g_path_get_basename (dir);
  g_autofree char *parent = g_path_get_dirname (dir);
  g_autofree char *parent_base = g_path_get_basename (parent);
  const LodeModelInfo *info = lode_models_lookup (base);

  if (info == NULL && g_str_equal (parent_base, "snapshots"))
    {
      g_autofree char *repo_dir = g_path_get_dirname (parent);
      g_autofree char *repo_base = g_path_get_basename (repo_dir);
      guint n = 0;
      const LodeModelInfo *all = lode_models_get_all (&n);

      if (g_str_has_prefix (repo_base, "models--"))
        {
          g_auto(GStrv) parts = g_strsplit (repo_base + strlen ("models--"), "--", -1);
          g_autofree char *repo = g_strjoinv ("/", parts);

          for (guint i = 0; i < n && info == NULL; i++)
            if (all[i].hf_repo != NULL && g_ascii_strcasecmp (all[i].hf_repo, repo) == 0)
              info = &all[i];
          if (info == NULL)
            {
              g_free (base);
              base = g_strdup (parts[g_strv_length (parts) - 1]);
            }
        }
    }

  *name = g_strdup (info != NULL ? info->name : base);
  return info;
}

/* sentence-transformers' 1_Pooling/config.json, for folders of models Lode does not know. */
static LodePooling
pooling_of_dir (const char *dir)
{
  g_autofree char *path = g_build_filename (dir, "1_Pooling", "config.json", NULL);
  g_autoptr(JsonNode) root = lode_json_parse_file (path, NULL);
  JsonNode *cls;

  cls = root != NULL && JSON_NODE_HOLDS_OBJECT (root) ?
    json_object_get_member (json_node_get_object (root), "pooling_mode_cls_token") : NULL;
  if (cls != NULL && JSON_NODE_HOLDS_VALUE (cls) &&
      json_node_get_value_type (cls) == G_TYPE_BOOLEAN && json_node_get_boolean (cls))
    return LODE_POOLING_CLS;

  return LODE_POOLING_MEAN;
}

static char *
resolve_model_dir (const char           *model_or_dir,
                   const LodeModelInfo **info,
                   GError              **error)
{
  g_autofree char *known = NULL;
  char *dir;

  *info = lode_models_lookup (model_or_dir);
  if (*info != NULL && (*info)->format != LODE_MODEL_FORMAT_BERT)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "“%s” is not a BERT encoder; the built-in encoder runs %s",
                   (*info)->name, (known = known_model_names ()));
      return NULL;
    }
  if (*info != NULL)
    {
      dir = lode_models_find_installed ((*info)->name);
      if (dir == NULL)
        g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                     "The embedding model “%s” is not installed; download it with "
                     "“lode model pull %s”", (*info)->name, (*info)->name);
      return dir;
    }

  if (g_file_test (model_or_dir, G_FILE_TEST_IS_DIR))
    return g_canonicalize_filename (model_or_dir, NULL);

  known = known_model_names ();
  g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
               "“%s” is neither a known embedding model (%s) nor a model folder",
               model_or_dir, known);
  return NULL;
}

/**
 * lode_builtin_embedder_new:
 * @model_or_dir: a known model name (`bge-small-en-v1.5`, `all-MiniLM-L6-v2`, `gte-small`),
 *   found in Lode's model cache or the Hugging Face cache, or a folder in Hugging Face layout
 * @error: return location for a #GError
 *
 * Loads a BERT-family model to run in this process. Pooling and the query prefix come from
 * the table of known models; for other folders, from sentence-transformers'
 * `1_Pooling/config.json` (mean pooling when it is absent) and no prefix.
 *
 * Returns: (transfer full) (nullable): the embedder, or %NULL with @error set
 *   (%LODE_ERROR_EMBEDDER: the model is not installed, or its files are missing or corrupt)
 */
LodeEmbedder *
lode_builtin_embedder_new (const char  *model_or_dir,
                           GError     **error)
{
  g_autoptr(LodeBuiltinEmbedder) self = NULL;
  const LodeModelInfo *info = NULL;
  g_autofree char *dir = NULL;
  guint tokenizer_max;

  g_return_val_if_fail (model_or_dir != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  dir = resolve_model_dir (model_or_dir, &info, error);
  if (dir == NULL)
    return NULL;

  self = g_object_new (LODE_TYPE_BUILTIN_EMBEDDER, NULL);
  self->dir = g_steal_pointer (&dir);
  if (info != NULL)
    self->model = g_strdup (info->name);
  else
    info = model_of_dir (self->dir, &self->model);

  self->wordpiece = lode_wordpiece_new_from_dir (self->dir, error);
  if (self->wordpiece == NULL)
    return NULL;
  self->bert = lode_bert_new (self->dir, error);
  if (self->bert == NULL)
    return NULL;
  if (lode_wordpiece_get_vocab_size (self->wordpiece) > lode_bert_get_vocab_size (self->bert))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: the tokenizer has %u tokens, the model only %u", self->dir,
                   lode_wordpiece_get_vocab_size (self->wordpiece),
                   lode_bert_get_vocab_size (self->bert));
      return NULL;
    }

  self->max_tokens = lode_bert_get_max_positions (self->bert);
  tokenizer_max = lode_wordpiece_get_max_tokens (self->wordpiece);
  if (tokenizer_max != 0)
    self->max_tokens = MIN (self->max_tokens, tokenizer_max);
  if (info != NULL)
    {
      self->max_tokens = MIN (self->max_tokens, info->max_tokens);
      self->pooling = info->pooling;
      self->query_prefix = g_strdup (info->query_prefix);
    }
  else
    self->pooling = pooling_of_dir (self->dir);

  if (self->max_tokens < 3)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: a limit of %u tokens is too small",
                   self->dir, self->max_tokens);
      return NULL;
    }

  g_debug ("Loaded %s from %s: %u dims, %u tokens, %s pooling", self->model, self->dir,
           lode_bert_get_dims (self->bert), self->max_tokens,
           lode_pooling_to_string (self->pooling));

  return LODE_EMBEDDER (g_steal_pointer (&self));
}

/* Runs in a GTask thread. */
static void
new_worker (GTask        *task,
            gpointer      source_object,
            gpointer      task_data,
            GCancellable *cancellable)
{
  GError *error = NULL;
  LodeEmbedder *embedder = lode_builtin_embedder_new (task_data, &error);

  if (embedder == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, embedder, g_object_unref);
}

/**
 * lode_builtin_embedder_new_async:
 * @model_or_dir: a known model name or a model folder, as for lode_builtin_embedder_new()
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Loads the model in a worker thread (reading the tokenizer and mapping the weights take
 * tens of milliseconds, more on a cold disk).
 */
void
lode_builtin_embedder_new_async (const char          *model_or_dir,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (model_or_dir != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_builtin_embedder_new_async);
  g_task_set_task_data (task, g_strdup (model_or_dir), g_free);
  g_task_set_return_on_cancel (task, TRUE);
  g_task_run_in_thread (task, new_worker);
}

/**
 * lode_builtin_embedder_new_finish:
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the embedder, or %NULL with @error set
 */
LodeEmbedder *
lode_builtin_embedder_new_finish (GAsyncResult  *result,
                                  GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * lode_builtin_embedder_get_dir:
 * @self: a #LodeBuiltinEmbedder
 *
 * Returns: the folder the model was loaded from
 */
const char *
lode_builtin_embedder_get_dir (LodeBuiltinEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_BUILTIN_EMBEDDER (self), NULL);

  return self->dir;
}

LodePooling
lode_builtin_embedder_get_pooling (LodeBuiltinEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_BUILTIN_EMBEDDER (self), LODE_POOLING_MEAN);

  return self->pooling;
}

/**
 * lode_builtin_embedder_set_pooling:
 * @self: a #LodeBuiltinEmbedder
 * @pooling: how token vectors become one vector
 *
 * Overrides the model's pooling, for experiments (`lode embed --pooling`). Call it before
 * the first embedding: the worker thread reads it without a lock.
 */
void
lode_builtin_embedder_set_pooling (LodeBuiltinEmbedder *self,
                                   LodePooling          pooling)
{
  g_return_if_fail (LODE_IS_BUILTIN_EMBEDDER (self));

  self->pooling = pooling;
}

static char *
prefixed_text (LodeBuiltinEmbedder *self,
               const char          *text,
               LodeEmbedPurpose     purpose)
{
  if (purpose == LODE_EMBED_QUERY && self->query_prefix != NULL && *self->query_prefix != '\0')
    return g_strconcat (self->query_prefix, text, NULL);

  return g_strdup (text);
}

/**
 * lode_builtin_embedder_tokenize:
 * @self: a #LodeBuiltinEmbedder
 * @texts: (array zero-terminated=1): the texts
 * @purpose: queries get the model's query prefix
 * @error: return location for a #GError
 *
 * Tokenizes texts the way the model's reference tokenizer does, cut at the model's token
 * limit (see lode_wordpiece_encode()). For `lode embed`, which shows the ids.
 *
 * Returns: (transfer full) (element-type GArray): one array of gint32 ids per text, or %NULL
 *   with @error set when a text is not valid UTF-8
 */
GPtrArray *
lode_builtin_embedder_tokenize (LodeBuiltinEmbedder  *self,
                                const char * const   *texts,
                                LodeEmbedPurpose      purpose,
                                GError              **error)
{
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  g_return_val_if_fail (LODE_IS_BUILTIN_EMBEDDER (self), NULL);
  g_return_val_if_fail (texts != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  for (guint i = 0; texts[i] != NULL; i++)
    {
      g_autofree char *text = prefixed_text (self, texts[i], purpose);
      GArray *ids = lode_wordpiece_encode (self->wordpiece, text, self->max_tokens, NULL, error);

      if (ids == NULL)
        {
          g_prefix_error (error, "Text %u: ", i + 1);
          return NULL;
        }
      g_ptr_array_add (all, ids);
    }

  return g_steal_pointer (&all);
}

/* Runs the encoder on @ids (GArrays of gint32) in passes of at most MAX_PASS_TOKENS
 * tokens; row i of @out is the vector of @ids[i]. */
static gboolean
embed_sequences (LodeBuiltinEmbedder  *self,
                 GPtrArray            *ids,
                 float                *out,
                 GCancellable         *cancellable,
                 GError              **error)
{
  guint dims = lode_bert_get_dims (self->bert);
  g_autofree const gint32 **pointers = g_new (const gint32 *, MAX (ids->len, 1));
  g_autofree guint *lengths = g_new (guint, MAX (ids->len, 1));
  guint start = 0;

  for (guint i = 0; i < ids->len; i++)
    {
      GArray *seq = g_ptr_array_index (ids, i);

      pointers[i] = (const gint32 *) (gconstpointer) seq->data;
      lengths[i] = seq->len;
    }

  while (start < ids->len)
    {
      guint end = start;
      gsize tokens = 0;

      while (end < ids->len && (end == start || tokens + lengths[end] <= MAX_PASS_TOKENS))
        tokens += lengths[end++];

      if (!lode_bert_embed (self->bert, end - start, pointers + start, lengths + start,
                            self->pooling, out + (gsize) start * dims, cancellable, error))
        return FALSE;
      start = end;
    }

  return TRUE;
}

/**
 * lode_builtin_embedder_embed_ids:
 * @self: a #LodeBuiltinEmbedder
 * @ids: (element-type GArray): token ids per text, [CLS] and [SEP] included, each at most the
 *   model's token limit
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Runs the encoder synchronously on tokenized texts, for `lode embed` and benchmarks.
 *
 * Returns: (transfer full): one vector per sequence, or %NULL with @error set
 */
LodeEmbeddings *
lode_builtin_embedder_embed_ids (LodeBuiltinEmbedder  *self,
                                 GPtrArray            *ids,
                                 GCancellable         *cancellable,
                                 GError              **error)
{
  g_autoptr(LodeEmbeddings) embeddings = NULL;

  g_return_val_if_fail (LODE_IS_BUILTIN_EMBEDDER (self), NULL);
  g_return_val_if_fail (ids != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  embeddings = lode_embeddings_new (ids->len, lode_bert_get_dims (self->bert));
  if (!embed_sequences (self, ids, embeddings->data, cancellable, error))
    return NULL;

  return g_steal_pointer (&embeddings);
}

/* ---- LodeEmbedder ----------------------------------------------------------------------- */

typedef struct
{
  GStrv            texts;
  LodeEmbedPurpose purpose;
} EmbedData;

static void
embed_data_free (EmbedData *data)
{
  g_strfreev (data->texts);
  g_free (data);
}

/* Embeds every text whole: a text longer than the model's limit is split into windows of
 * at most that many tokens (each with its own [CLS] and [SEP]), and its vector is the mean
 * of the windows' vectors weighted by their lengths, renormalised (lode-embed-parts.c).
 * Nothing is cut off. Runs on the encoder thread. */
static LodeEmbeddings *
embed_texts (LodeBuiltinEmbedder  *self,
             EmbedData            *data,
             GCancellable         *cancellable,
             GError              **error)
{
  guint n_texts = g_strv_length (data->texts);
  guint dims = lode_bert_get_dims (self->bert);
  guint window = self->max_tokens - 2;
  g_autoptr(GPtrArray) sequences = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
  g_autoptr(LodeEmbedParts) parts = lode_embed_parts_new ();
  g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (gint32));
  g_autofree float *vectors = NULL;
  gint32 cls = lode_wordpiece_get_cls_id (self->wordpiece);
  gint32 sep = lode_wordpiece_get_sep_id (self->wordpiece);

  for (guint i = 0; i < n_texts; i++)
    {
      g_autofree char *text = prefixed_text (self, data->texts[i], data->purpose);
      guint start = 0;

      lode_embed_parts_begin_text (parts);
      g_array_set_size (pieces, 0);
      if (!lode_wordpiece_tokenize (self->wordpiece, text, 0, pieces, NULL, error))
        {
          g_prefix_error (error, "Text %u: ", i + 1);
          return NULL;
        }

      do
        {
          guint n = MIN (window, pieces->len - start);
          GArray *seq = g_array_sized_new (FALSE, FALSE, sizeof (gint32), n + 2);

          g_array_append_val (seq, cls);
          g_array_append_vals (seq, &g_array_index (pieces, gint32, start), n);
          g_array_append_val (seq, sep);
          g_ptr_array_add (sequences, seq);
          lode_embed_parts_add (parts, NULL, n);
          start += n;
        }
      while (start < pieces->len);
    }

  vectors = g_new (float, (gsize) sequences->len * dims);
  if (!embed_sequences (self, sequences, vectors, cancellable, error))
    return NULL;

  return lode_embed_parts_combine (parts, vectors, dims, error);
}

/* Runs on the encoder thread. */
static void
embed_worker (gpointer task_ptr,
              gpointer pool_data)
{
  g_autoptr(GTask) task = task_ptr;
  LodeBuiltinEmbedder *self = g_task_get_source_object (task);
  EmbedData *data = g_task_get_task_data (task);
  GError *error = NULL;
  LodeEmbeddings *embeddings;

  if (g_task_return_error_if_cancelled (task))
    return;

  embeddings = embed_texts (self, data, g_task_get_cancellable (task), &error);
  if (embeddings == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, embeddings, (GDestroyNotify) lode_embeddings_free);
}

/* One encoder thread for the process: lode_bert_embed() already spreads each forward pass
 * over the cores, so two batches at once would only compete for them. The pool is never freed;
 * a task holds its embedder until it has run. */
static GThreadPool *
encoder_pool (void)
{
  static GThreadPool *pool;

  if (g_once_init_enter (&pool))
    g_once_init_leave (&pool, g_thread_pool_new (embed_worker, NULL, 1, FALSE, NULL));

  return pool;
}

static void
lode_builtin_embedder_embed_async (LodeEmbedder        *embedder,
                                   const char * const  *texts,
                                   LodeEmbedPurpose     purpose,
                                   GCancellable        *cancellable,
                                   GAsyncReadyCallback  callback,
                                   gpointer             user_data)
{
  LodeBuiltinEmbedder *self = LODE_BUILTIN_EMBEDDER (embedder);
  g_autoptr(GTask) task = NULL;
  g_autoptr(GError) error = NULL;
  EmbedData *data = g_new0 (EmbedData, 1);

  data->texts = g_strdupv ((char **) texts);
  data->purpose = purpose;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_builtin_embedder_embed_async);
  g_task_set_task_data (task, data, (GDestroyNotify) embed_data_free);

  /* The pool owns the task from here on. A failed push only means no new thread could be
   * started; the task still waits in the queue. */
  if (!g_thread_pool_push (encoder_pool (), g_steal_pointer (&task), &error))
    g_warning ("Encoder pool could not start a thread: %s", error->message);
}

static LodeEmbeddings *
lode_builtin_embedder_embed_finish (LodeEmbedder  *embedder,
                                    GAsyncResult  *result,
                                    GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, embedder), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static const char *
lode_builtin_embedder_get_model (LodeEmbedder *embedder)
{
  return LODE_BUILTIN_EMBEDDER (embedder)->model;
}

static guint
lode_builtin_embedder_get_dims (LodeEmbedder *embedder)
{
  return lode_bert_get_dims (LODE_BUILTIN_EMBEDDER (embedder)->bert);
}

static guint
lode_builtin_embedder_get_max_tokens (LodeEmbedder *embedder)
{
  return LODE_BUILTIN_EMBEDDER (embedder)->max_tokens;
}

static void
lode_builtin_embedder_iface_init (LodeEmbedderInterface *iface)
{
  iface->get_model = lode_builtin_embedder_get_model;
  iface->get_dims = lode_builtin_embedder_get_dims;
  iface->get_max_tokens = lode_builtin_embedder_get_max_tokens;
  iface->embed_async = lode_builtin_embedder_embed_async;
  iface->embed_finish = lode_builtin_embedder_embed_finish;
}
