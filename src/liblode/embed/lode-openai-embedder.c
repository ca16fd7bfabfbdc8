/* lode-openai-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-openai"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "lode-embed-parts.h"
#include "lode-embedder-private.h"
#include "lode-error.h"
#include "lode-json.h"
#include "lode-openai-embedder.h"

#define DEFAULT_TIMEOUT_SECONDS   120
#define DEFAULT_MAX_TOKENS        8191
/* OpenAI's limits per request: 2048 inputs and 300,000 tokens. */
#define DEFAULT_BATCH_INPUTS      2048
#define DEFAULT_BATCH_TOKENS      300000
#define DEFAULT_MAX_RETRIES       5
#define DEFAULT_RETRY_DELAY_MSEC  1000

struct _LodeOpenaiEmbedder
{
  GObject      parent_instance;

  char        *endpoint;
  char        *model;
  char        *model_id;
  char        *api_key;
  guint        dims;
  guint        max_tokens;
  guint        batch_inputs;
  guint        batch_tokens;
  guint        max_retries;
  guint        retry_delay_msec;
  guint        timeout_seconds;
  LodeEmbedderBreaker breaker;
};

static void lode_openai_embedder_iface_init (LodeEmbedderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeOpenaiEmbedder, lode_openai_embedder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_EMBEDDER,
                                                      lode_openai_embedder_iface_init))

static void
lode_openai_embedder_finalize (GObject *object)
{
  LodeOpenaiEmbedder *self = (LodeOpenaiEmbedder *) object;

  g_clear_pointer (&self->endpoint, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->model_id, g_free);
  _lode_embedder_breaker_clear (&self->breaker);
  if (self->api_key != NULL)
    {
      memset (self->api_key, 0, strlen (self->api_key));
      g_clear_pointer (&self->api_key, g_free);
    }

  G_OBJECT_CLASS (lode_openai_embedder_parent_class)->finalize (object);
}

static void
lode_openai_embedder_class_init (LodeOpenaiEmbedderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_openai_embedder_finalize;
}

static void
lode_openai_embedder_init (LodeOpenaiEmbedder *self)
{
  self->timeout_seconds = DEFAULT_TIMEOUT_SECONDS;
  self->max_tokens = DEFAULT_MAX_TOKENS;
  self->batch_inputs = DEFAULT_BATCH_INPUTS;
  self->batch_tokens = DEFAULT_BATCH_TOKENS;
  self->max_retries = DEFAULT_MAX_RETRIES;
  self->retry_delay_msec = DEFAULT_RETRY_DELAY_MSEC;
}

/**
 * lode_openai_embedder_new:
 * @base_url: (nullable): the server, default %LODE_OPENAI_DEFAULT_URL; requests go to
 *   `BASE/v1/embeddings` (or `BASE/embeddings` when @base_url already ends in `/v1`)
 * @model: (nullable): the model, default %LODE_OPENAI_DEFAULT_MODEL
 * @api_key: (nullable): the key sent as a bearer token; %NULL sends none (local servers)
 *
 * The key is kept in memory only, and never appears in a log line or an error.
 *
 * Returns: (transfer full): a new provider
 */
LodeOpenaiEmbedder *
lode_openai_embedder_new (const char *base_url,
                          const char *model,
                          const char *api_key)
{
  LodeOpenaiEmbedder *self = g_object_new (LODE_TYPE_OPENAI_EMBEDDER, NULL);
  g_autofree char *base = g_strdup (base_url != NULL && *base_url != '\0' ? base_url
                                                                           : LODE_OPENAI_DEFAULT_URL);
  gsize len = strlen (base);

  while (len > 0 && base[len - 1] == '/')
    base[--len] = '\0';
  if (g_str_has_suffix (base, "/v1"))
    self->endpoint = g_strconcat (base, "/embeddings", NULL);
  else
    self->endpoint = g_strconcat (base, "/v1/embeddings", NULL);

  self->model = g_strdup (model != NULL && *model != '\0' ? model : LODE_OPENAI_DEFAULT_MODEL);
  self->model_id = g_strconcat ("openai:", self->model, NULL);
  if (api_key != NULL && *api_key != '\0')
    self->api_key = g_strdup (api_key);

  return self;
}

/**
 * lode_openai_embedder_set_timeout:
 * @self: a #LodeOpenaiEmbedder
 * @seconds: how long one request may take, 0 for no limit (waits before a retry not counted)
 */
void
lode_openai_embedder_set_timeout (LodeOpenaiEmbedder *self,
                                  guint               seconds)
{
  g_return_if_fail (LODE_IS_OPENAI_EMBEDDER (self));

  self->timeout_seconds = seconds;
}

/**
 * lode_openai_embedder_set_max_tokens:
 * @self: a #LodeOpenaiEmbedder
 * @max_tokens: the model's input limit (8191 for OpenAI's embedding models); longer inputs
 *   are split, embedded in parts and averaged
 */
void
lode_openai_embedder_set_max_tokens (LodeOpenaiEmbedder *self,
                                     guint               max_tokens)
{
  g_return_if_fail (LODE_IS_OPENAI_EMBEDDER (self));
  g_return_if_fail (max_tokens >= 2);

  self->max_tokens = max_tokens;
}

/**
 * lode_openai_embedder_set_batch_limits:
 * @self: a #LodeOpenaiEmbedder
 * @max_inputs: most inputs in one request
 * @max_tokens: most (estimated) tokens in one request
 */
void
lode_openai_embedder_set_batch_limits (LodeOpenaiEmbedder *self,
                                       guint               max_inputs,
                                       guint               max_tokens)
{
  g_return_if_fail (LODE_IS_OPENAI_EMBEDDER (self));
  g_return_if_fail (max_inputs > 0 && max_tokens > 0);

  self->batch_inputs = max_inputs;
  self->batch_tokens = max_tokens;
}

/**
 * lode_openai_embedder_set_retry:
 * @self: a #LodeOpenaiEmbedder
 * @max_retries: how often a document batch that got 429 or 5xx, or could not connect, is sent
 *   again (a query is not: its search goes on without it)
 * @base_delay_msec: the first pause when the server sends no Retry-After; it doubles each time
 */
void
lode_openai_embedder_set_retry (LodeOpenaiEmbedder *self,
                                guint               max_retries,
                                guint               base_delay_msec)
{
  g_return_if_fail (LODE_IS_OPENAI_EMBEDDER (self));

  self->max_retries = max_retries;
  self->retry_delay_msec = base_delay_msec;
}

/**
 * lode_openai_estimate_tokens:
 * @text: UTF-8 text
 * @length: its length in bytes, or -1 when nul-terminated
 *
 * An upper estimate of the tokens of @text for BPE tokenizers such as cl100k: half a token
 * per ASCII byte (real text averages a quarter; hex and base64 come close to half) and one
 * per other character.
 *
 * Returns: the estimate
 */
guint
lode_openai_estimate_tokens (const char *text,
                             gssize      length)
{
  guint64 halves = 0;
  const char *end;

  g_return_val_if_fail (text != NULL, 0);

  end = text + (length < 0 ? (gssize) strlen (text) : length);
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    halves += (guchar) *p < 0x80 ? 1 : 2;

  return (guint) MIN ((halves + 1) / 2, G_MAXUINT);
}

/* ---- embedding ------------------------------------------------------------------------- */

typedef struct
{
  LodeEmbedPurpose  purpose;
  LodeEmbedParts   *parts;         /* every input, split to fit the model */
  guint             next;          /* first part of the batch in flight */
  guint             batch_len;
  GBytes           *body;          /* of the batch in flight */
  guint             dims;
  float            *vectors;       /* one per part, allocated with the first answer */
} EmbedData;

static void
embed_data_free (EmbedData *data)
{
  lode_embed_parts_free (data->parts);
  g_clear_pointer (&data->body, g_bytes_unref);
  g_free (data->vectors);
  g_free (data);
}

/* Replaces the key, and anything that looks like an OpenAI key (servers echo a masked form
 * of a wrong key), in an error message. */
static void
redact_error (LodeOpenaiEmbedder *self,
              GError             *error)
{
  g_autoptr(GString) text = NULL;
  char *start;

  if (error == NULL)
    return;

  text = g_string_new (error->message);
  if (self->api_key != NULL)
    g_string_replace (text, self->api_key, "[redacted]", 0);

  start = text->str;
  while ((start = strstr (start, "sk-")) != NULL)
    {
      gsize pos = start - text->str;
      gsize end = pos;

      while (end < text->len && (g_ascii_isalnum (text->str[end]) || text->str[end] == '-' ||
                                 text->str[end] == '_' || text->str[end] == '*'))
        end++;
      g_string_erase (text, pos, end - pos);
      g_string_insert (text, pos, "[redacted]");
      start = text->str + pos + strlen ("[redacted]");
    }

  g_free (error->message);
  error->message = g_string_free (g_steal_pointer (&text), FALSE);
}

static void
return_error (GTask  *task,
              GError *error)
{
  redact_error (g_task_get_source_object (task), error);
  g_task_return_error (task, error);
}

static void send_batch (GTask *task);

static gboolean
read_batch (LodeOpenaiEmbedder  *self,
            EmbedData           *data,
            GBytes              *body,
            GError             **error)
{
  g_autofree char *what = g_strdup_printf ("%s (model %s)", self->endpoint, self->model);
  g_autoptr(JsonNode) root = NULL;
  g_autofree gboolean *seen = NULL;
  JsonNode *member;
  JsonArray *items;
  guint n;

  root = _lode_embedder_parse_json (body, what, error);
  if (root == NULL)
    return FALSE;

  member = json_object_get_member (json_node_get_object (root), "data");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: the answer has no \"data\" array",
                   what);
      return FALSE;
    }

  items = json_node_get_array (member);
  n = json_array_get_length (items);
  if (n != data->batch_len)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: %u vectors for %u inputs", what,
                   n, data->batch_len);
      return FALSE;
    }

  if (data->vectors == NULL)
    {
      /* The first answer tells the dimensions; every later one must agree. */
      JsonNode *first = json_array_get_element (items, 0);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (first) ? json_node_get_object (first) : NULL;
      guint dims = self->dims;

      if (dims == 0 && object != NULL)
        dims = _lode_embedder_vector_length (json_object_get_member (object, "embedding"));
      if (dims == 0)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: an empty embedding", what);
          return FALSE;
        }
      data->dims = dims;
      data->vectors = g_new0 (float, (gsize) lode_embed_parts_get_n_parts (data->parts) * dims);
    }

  seen = g_new0 (gboolean, n);
  for (guint i = 0; i < n; i++)
    {
      JsonNode *item = json_array_get_element (items, i);
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (item) ? json_node_get_object (item) : NULL;
      JsonNode *index_node = object != NULL ? json_object_get_member (object, "index") : NULL;
      gint64 index;

      if (index_node == NULL || !JSON_NODE_HOLDS_VALUE (index_node) ||
          json_node_get_value_type (index_node) != G_TYPE_INT64)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: item %u has no index", what, i);
          return FALSE;
        }

      index = json_node_get_int (index_node);
      if (index < 0 || index >= n || seen[index])
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "%s: item %u has index %" G_GINT64_FORMAT ", out of range or repeated",
                       what, i, index);
          return FALSE;
        }
      seen[index] = TRUE;

      if (!_lode_embedder_read_vector (json_object_get_member (object, "embedding"),
                                       data->vectors + (gsize) (data->next + index) * data->dims,
                                       data->dims, error))
        {
          g_prefix_error (error, "%s: item %u: ", what, i);
          return FALSE;
        }
    }

  self->dims = data->dims;
  return TRUE;
}

static void
batch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LodeOpenaiEmbedder *self = g_task_get_source_object (task);
  EmbedData *data = g_task_get_task_data (task);
  SoupMessage *message = NULL;
  g_autoptr(GBytes) body = NULL;
  LodeEmbeddings *embeddings;
  GError *error = NULL;

  body = _lode_embedder_request_finish (result, &message, &error);
  if (body == NULL)
    {
      return_error (task, error);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    {
      g_autofree char *what = g_strdup_printf ("%s (model %s)", self->endpoint, self->model);

      _lode_embedder_set_http_error (&error, what, message, body);
      return_error (task, error);
      return;
    }

  if (!read_batch (self, data, body, &error))
    {
      return_error (task, error);
      return;
    }

  data->next += data->batch_len;
  if (data->next < lode_embed_parts_get_n_parts (data->parts))
    {
      send_batch (g_steal_pointer (&task));
      return;
    }

  embeddings = lode_embed_parts_combine (data->parts, data->vectors, data->dims, &error);
  if (embeddings == NULL)
    return_error (task, error);
  else
    g_task_return_pointer (task, embeddings, (GDestroyNotify) lode_embeddings_free);
}

/* The request of one attempt at the batch in flight. */
static SoupMessage *
new_batch_message (gpointer   user_data,
                   GError   **error)
{
  GTask *task = user_data;
  LodeOpenaiEmbedder *self = g_task_get_source_object (task);
  EmbedData *data = g_task_get_task_data (task);
  g_autofree char *authorization = NULL;
  SoupMessage *message;

  message = soup_message_new (SOUP_METHOD_POST, self->endpoint);
  if (message == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Invalid embeddings URL “%s”", self->endpoint);
      return NULL;
    }

  soup_message_set_request_body_from_bytes (message, "application/json", data->body);
  if (self->api_key != NULL)
    {
      authorization = g_strconcat ("Bearer ", self->api_key, NULL);
      soup_message_headers_replace (soup_message_get_request_headers (message), "Authorization",
                                    authorization);
      memset (authorization, 0, strlen (authorization));
    }

  return message;
}

/* Sends the parts from data->next on, as many as the batch limits allow. Takes @task. */
static void
send_batch (GTask *task)
{
  LodeOpenaiEmbedder *self = g_task_get_source_object (task);
  EmbedData *data = g_task_get_task_data (task);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *what = g_strdup_printf ("%s (model %s)", self->endpoint, self->model);
  GCancellable *cancellable = g_task_get_cancellable (task);
  LodeEmbedderRetry retry;
  guint64 tokens = 0;
  char *text;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, self->model);
  json_builder_set_member_name (builder, "encoding_format");
  json_builder_add_string_value (builder, "float");
  json_builder_set_member_name (builder, "input");
  json_builder_begin_array (builder);
  data->batch_len = 0;
  for (guint i = data->next;
       i < lode_embed_parts_get_n_parts (data->parts) && data->batch_len < self->batch_inputs;
       i++)
    {
      const char *part = lode_embed_parts_get_texts (data->parts)[i];
      guint estimate = lode_openai_estimate_tokens (part, -1);

      /* A batch always takes at least one part; each part is within the model's limit. */
      if (data->batch_len > 0 && tokens + estimate > self->batch_tokens)
        break;
      tokens += estimate;
      json_builder_add_string_value (builder, part);
      data->batch_len++;
    }
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = lode_json_to_string (root, FALSE);
  g_clear_pointer (&data->body, g_bytes_unref);
  data->body = g_bytes_new_take (text, strlen (text));

  g_debug ("Embedding %u inputs (~%" G_GUINT64_FORMAT " tokens) with %s", data->batch_len,
           tokens, self->model);
  _lode_embedder_retry_init (&retry, data->purpose, self->timeout_seconds, self->max_retries,
                             self->retry_delay_msec, &self->breaker);
  _lode_embedder_request_async (new_batch_message, task, &retry, what, cancellable, batch_cb,
                                task);
}

static void
lode_openai_embedder_embed_async (LodeEmbedder        *embedder,
                                  const char * const  *texts,
                                  LodeEmbedPurpose     purpose,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  LodeOpenaiEmbedder *self = LODE_OPENAI_EMBEDDER (embedder);
  GTask *task;
  EmbedData *data;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_openai_embedder_embed_async);

  data = g_new0 (EmbedData, 1);
  data->parts = lode_embed_parts_new ();
  data->purpose = purpose;
  g_task_set_task_data (task, data, (GDestroyNotify) embed_data_free);

  for (guint i = 0; texts[i] != NULL; i++)
    {
      if (!g_utf8_validate (texts[i], -1, NULL))
        {
          g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                                   "Input %u is not valid UTF-8", i);
          g_object_unref (task);
          return;
        }
      /* OpenAI's models take no query or document prefix. */
      lode_embed_parts_add_text (data->parts, texts[i], self->max_tokens,
                                 lode_openai_estimate_tokens);
    }

  if (lode_embed_parts_get_n_texts (data->parts) == 0)
    {
      g_task_return_pointer (task, lode_embeddings_new (0, self->dims),
                             (GDestroyNotify) lode_embeddings_free);
      g_object_unref (task);
      return;
    }

  send_batch (task);
}

static LodeEmbeddings *
lode_openai_embedder_embed_finish (LodeEmbedder  *embedder,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, embedder), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static const char *
lode_openai_embedder_get_model (LodeEmbedder *embedder)
{
  return LODE_OPENAI_EMBEDDER (embedder)->model_id;
}

static guint
lode_openai_embedder_get_dims (LodeEmbedder *embedder)
{
  return LODE_OPENAI_EMBEDDER (embedder)->dims;
}

static guint
lode_openai_embedder_get_max_tokens (LodeEmbedder *embedder)
{
  return LODE_OPENAI_EMBEDDER (embedder)->max_tokens;
}

static void
lode_openai_embedder_iface_init (LodeEmbedderInterface *iface)
{
  iface->get_model = lode_openai_embedder_get_model;
  iface->get_dims = lode_openai_embedder_get_dims;
  iface->get_max_tokens = lode_openai_embedder_get_max_tokens;
  iface->embed_async = lode_openai_embedder_embed_async;
  iface->embed_finish = lode_openai_embedder_embed_finish;
}
