/* lode-ollama-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-ollama"

#include "config.h"

#include <string.h>

#include <json-glib/json-glib.h>
#include <libsoup/soup.h>

#include "lode-embedder-private.h"
#include "lode-error.h"
#include "lode-json.h"
#include "lode-ollama-embedder.h"

#define DEFAULT_TIMEOUT_SECONDS    120
#define DEFAULT_MAX_RETRIES        3
#define DEFAULT_RETRY_DELAY_MSEC   1000
/* /api/version answers at once, even while a model loads: a server that does not answer
 * within this is taken for down. */
#define CHECK_TIMEOUT_SECONDS      5

struct _LodeOllamaEmbedder
{
  GObject                 parent_instance;

  char                   *url;
  char                   *model;
  char                   *model_id;
  const char             *query_prefix;
  const char             *document_prefix;
  guint                   dims;
  guint                   max_tokens;
  guint                   timeout_seconds;
  guint                   max_retries;
  guint                   retry_delay_msec;
  LodeEmbedderBreaker     breaker;

  LodeOllamaPullProgress  pull_progress;
  gpointer                pull_progress_data;
  GDestroyNotify          pull_progress_destroy;

  guint                   auto_pull : 1;
};

static void lode_ollama_embedder_iface_init (LodeEmbedderInterface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeOllamaEmbedder, lode_ollama_embedder, G_TYPE_OBJECT,
                               G_IMPLEMENT_INTERFACE (LODE_TYPE_EMBEDDER,
                                                      lode_ollama_embedder_iface_init))

/* Models whose documentation asks for prefixes; looked up without the ":tag". */
static const struct
{
  const char *model;
  const char *query_prefix;
  const char *document_prefix;
  guint       max_tokens;
} known_models[] = {
  { "nomic-embed-text", "search_query: ", "search_document: ", 2048 },
  { "mxbai-embed-large", "Represent this sentence for searching relevant passages: ", "", 512 },
};

static void
lode_ollama_embedder_finalize (GObject *object)
{
  LodeOllamaEmbedder *self = (LodeOllamaEmbedder *) object;

  if (self->pull_progress_destroy != NULL)
    self->pull_progress_destroy (self->pull_progress_data);
  g_clear_pointer (&self->url, g_free);
  g_clear_pointer (&self->model, g_free);
  g_clear_pointer (&self->model_id, g_free);
  _lode_embedder_breaker_clear (&self->breaker);

  G_OBJECT_CLASS (lode_ollama_embedder_parent_class)->finalize (object);
}

static void
lode_ollama_embedder_class_init (LodeOllamaEmbedderClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_ollama_embedder_finalize;
}

static void
lode_ollama_embedder_init (LodeOllamaEmbedder *self)
{
  self->timeout_seconds = DEFAULT_TIMEOUT_SECONDS;
  self->max_retries = DEFAULT_MAX_RETRIES;
  self->retry_delay_msec = DEFAULT_RETRY_DELAY_MSEC;
  self->auto_pull = TRUE;
}

/**
 * lode_ollama_embedder_new:
 * @url: (nullable): the server, default %LODE_OLLAMA_DEFAULT_URL
 * @model: (nullable): the model, default %LODE_OLLAMA_DEFAULT_MODEL
 *
 * Returns: (transfer full): a provider that asks the Ollama server at @url to embed with
 *   @model, pulling the model first when the server does not have it
 */
LodeOllamaEmbedder *
lode_ollama_embedder_new (const char *url,
                          const char *model)
{
  LodeOllamaEmbedder *self = g_object_new (LODE_TYPE_OLLAMA_EMBEDDER, NULL);
  g_autofree char *base = NULL;
  gsize len;

  self->url = g_strdup (url != NULL && *url != '\0' ? url : LODE_OLLAMA_DEFAULT_URL);
  len = strlen (self->url);
  while (len > 0 && self->url[len - 1] == '/')
    self->url[--len] = '\0';
  self->model = g_strdup (model != NULL && *model != '\0' ? model : LODE_OLLAMA_DEFAULT_MODEL);
  self->model_id = g_strconcat ("ollama:", self->model, NULL);
  self->query_prefix = "";
  self->document_prefix = "";
  self->max_tokens = 512;

  base = g_strdup (self->model);
  if (strchr (base, ':') != NULL)
    *strchr (base, ':') = '\0';
  for (guint i = 0; i < G_N_ELEMENTS (known_models); i++)
    if (g_str_equal (base, known_models[i].model))
      {
        self->query_prefix = known_models[i].query_prefix;
        self->document_prefix = known_models[i].document_prefix;
        self->max_tokens = known_models[i].max_tokens;
      }

  return self;
}

/**
 * lode_ollama_embedder_set_timeout:
 * @self: a #LodeOllamaEmbedder
 * @seconds: how long a request (an embedding batch) may take, 0 for no limit; a version check
 *   takes 5 s at most, a query 15 s, and a pull is only limited by cancellation, since a model
 *   download takes minutes
 */
void
lode_ollama_embedder_set_timeout (LodeOllamaEmbedder *self,
                                  guint               seconds)
{
  g_return_if_fail (LODE_IS_OLLAMA_EMBEDDER (self));

  self->timeout_seconds = seconds;
}

/**
 * lode_ollama_embedder_set_retry:
 * @self: a #LodeOllamaEmbedder
 * @max_retries: how often a document batch that got 429 or 5xx, or could not connect, is sent
 *   again (a query is not: its search goes on without it)
 * @base_delay_msec: the first pause when the server sends no Retry-After; it doubles each time
 */
void
lode_ollama_embedder_set_retry (LodeOllamaEmbedder *self,
                                guint               max_retries,
                                guint               base_delay_msec)
{
  g_return_if_fail (LODE_IS_OLLAMA_EMBEDDER (self));

  self->max_retries = max_retries;
  self->retry_delay_msec = base_delay_msec;
}

/**
 * lode_ollama_embedder_set_auto_pull:
 * @self: a #LodeOllamaEmbedder
 * @auto_pull: whether a missing model is pulled before embedding (the default)
 */
void
lode_ollama_embedder_set_auto_pull (LodeOllamaEmbedder *self,
                                    gboolean            auto_pull)
{
  g_return_if_fail (LODE_IS_OLLAMA_EMBEDDER (self));

  self->auto_pull = !!auto_pull;
}

/**
 * lode_ollama_embedder_set_pull_progress:
 * @self: a #LodeOllamaEmbedder
 * @progress: (nullable): called for every status line of a pull
 * @user_data: data for @progress
 * @destroy: (nullable): frees @user_data
 */
void
lode_ollama_embedder_set_pull_progress (LodeOllamaEmbedder     *self,
                                        LodeOllamaPullProgress  progress,
                                        gpointer                user_data,
                                        GDestroyNotify          destroy)
{
  g_return_if_fail (LODE_IS_OLLAMA_EMBEDDER (self));

  if (self->pull_progress_destroy != NULL)
    self->pull_progress_destroy (self->pull_progress_data);
  self->pull_progress = progress;
  self->pull_progress_data = user_data;
  self->pull_progress_destroy = destroy;
}

static SoupMessage *
new_json_message (LodeOllamaEmbedder *self,
                  const char         *method,
                  const char         *path,
                  JsonBuilder        *builder)
{
  g_autofree char *uri = g_strconcat (self->url, path, NULL);
  SoupMessage *message = soup_message_new (method, uri);

  if (message == NULL)
    return NULL;

  if (builder != NULL)
    {
      g_autoptr(JsonNode) root = json_builder_get_root (builder);
      char *text = lode_json_to_string (root, FALSE);
      g_autoptr(GBytes) body = g_bytes_new_take (text, strlen (text));

      soup_message_set_request_body_from_bytes (message, "application/json", body);
    }

  return message;
}

static void
set_invalid_url (GError             **error,
                 LodeOllamaEmbedder  *self)
{
  g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT, "Invalid Ollama URL “%s”",
               self->url);
}

/* ---- /api/version ---------------------------------------------------------------------- */

static void
check_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LodeOllamaEmbedder *self = g_task_get_source_object (task);
  SoupMessage *message = NULL;
  g_autoptr(GBytes) body = NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *what = g_strdup_printf ("Ollama at %s", self->url);
  GError *error = NULL;
  const char *version;

  body = _lode_http_send_and_read_finish (result, &message, &error);
  if (body == NULL)
    {
      g_prefix_error (&error, "Ollama is not reachable at %s: ", self->url);
      g_task_return_error (task, error);
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    {
      _lode_embedder_set_http_error (&error, what, message, body);
      g_task_return_error (task, error);
      return;
    }

  root = _lode_embedder_parse_json (body, what, &error);
  if (root == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  version = json_object_get_string_member_with_default (json_node_get_object (root), "version",
                                                        NULL);
  if (version == NULL)
    {
      g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_EMBEDDER,
                               "%s: the answer to /api/version has no version", what);
      return;
    }

  g_task_return_pointer (task, g_strdup (version), g_free);
}

/**
 * lode_ollama_embedder_check_async:
 * @self: a #LodeOllamaEmbedder
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Checks that an Ollama server answers at the configured URL (`GET /api/version`).
 */
void
lode_ollama_embedder_check_async (LodeOllamaEmbedder  *self,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) message = NULL;

  g_return_if_fail (LODE_IS_OLLAMA_EMBEDDER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_ollama_embedder_check_async);

  message = new_json_message (self, SOUP_METHOD_GET, "/api/version", NULL);
  if (message == NULL)
    {
      GError *error = NULL;

      set_invalid_url (&error, self);
      g_task_return_error (task, error);
      return;
    }

  _lode_http_send_and_read_async (message,
                                  self->timeout_seconds > 0 ? MIN (self->timeout_seconds,
                                                                   CHECK_TIMEOUT_SECONDS)
                                                            : CHECK_TIMEOUT_SECONDS,
                                  cancellable, check_cb, g_steal_pointer (&task));
}

/**
 * lode_ollama_embedder_check_finish:
 * @self: a #LodeOllamaEmbedder
 * @result: the result given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the server's version, or %NULL when it is not reachable
 */
char *
lode_ollama_embedder_check_finish (LodeOllamaEmbedder  *self,
                                   GAsyncResult        *result,
                                   GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/* ---- /api/pull ------------------------------------------------------------------------- */

typedef struct
{
  GDataInputStream *lines;
  SoupMessage      *failed;
  gboolean          succeeded;
} PullData;

static void
pull_data_free (PullData *data)
{
  g_clear_object (&data->lines);
  g_clear_object (&data->failed);
  g_free (data);
}

static void pull_read_line_cb (GObject      *object,
                               GAsyncResult *result,
                               gpointer      user_data);

/* Handles one NDJSON line; FALSE (with @error) ends the pull. */
static gboolean
pull_handle_line (LodeOllamaEmbedder  *self,
                  PullData            *data,
                  char                *line,
                  GError             **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autofree char *what = g_strdup_printf ("Pulling %s from Ollama at %s", self->model, self->url);
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  const char *status;

  g_strstrip (line);
  if (line[0] == '\0')
    return TRUE;

  bytes = g_bytes_new_static (line, strlen (line));

  root = _lode_embedder_parse_json (bytes, what, error);
  if (root == NULL)
    return FALSE;

  object = json_node_get_object (root);
  if (json_object_has_member (object, "error"))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: %s", what,
                   json_object_get_string_member_with_default (object, "error", "unknown error"));
      return FALSE;
    }

  status = json_object_get_string_member_with_default (object, "status", "");
  if (g_str_equal (status, "success"))
    data->succeeded = TRUE;

  if (self->pull_progress != NULL)
    self->pull_progress (status,
                         MAX (json_object_get_int_member_with_default (object, "completed", 0), 0),
                         MAX (json_object_get_int_member_with_default (object, "total", 0), 0),
                         self->pull_progress_data);
  return TRUE;
}

static void
pull_read_line_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LodeOllamaEmbedder *self = g_task_get_source_object (task);
  PullData *data = g_task_get_task_data (task);
  g_autofree char *line = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  line = g_data_input_stream_read_line_finish_utf8 (G_DATA_INPUT_STREAM (object), result, NULL,
                                                    &error);
  if (error != NULL)
    {
      g_prefix_error (&error, "Pulling %s from Ollama at %s: ", self->model, self->url);
      g_task_return_error (task, error);
      return;
    }

  if (line == NULL)
    {
      if (data->succeeded)
        g_task_return_boolean (task, TRUE);
      else
        g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_EMBEDDER,
                                 "Pulling %s from Ollama at %s: the server stopped before "
                                 "reporting success", self->model, self->url);
      return;
    }

  if (!pull_handle_line (self, data, line, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  /* The cancellable is read before the task moves (argument order is unspecified). */
  cancellable = g_task_get_cancellable (task);
  g_data_input_stream_read_line_async (data->lines, G_PRIORITY_DEFAULT, cancellable,
                                       pull_read_line_cb, g_steal_pointer (&task));
}

static void
pull_error_body_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LodeOllamaEmbedder *self = g_task_get_source_object (task);
  PullData *data = g_task_get_task_data (task);
  g_autoptr(GBytes) body = g_input_stream_read_bytes_finish (G_INPUT_STREAM (object), result,
                                                             NULL);
  g_autofree char *what = g_strdup_printf ("Pulling %s from Ollama at %s", self->model,
                                           self->url);
  GError *error = NULL;

  _lode_embedder_set_http_error (&error, what, data->failed, body);
  g_task_return_error (task, error);
}

static void
pull_send_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LodeOllamaEmbedder *self = g_task_get_source_object (task);
  PullData *data = g_task_get_task_data (task);
  SoupMessage *message = soup_session_get_async_result_message (SOUP_SESSION (object), result);
  g_autoptr(GInputStream) stream = NULL;
  GCancellable *cancellable;
  GError *error = NULL;

  stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (stream == NULL)
    {
      g_prefix_error (&error, "Pulling %s from Ollama at %s: ", self->model, self->url);
      g_task_return_error (task, error);
      return;
    }

  data->lines = g_data_input_stream_new (stream);
  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    {
      /* The start of the body says what went wrong. */
      data->failed = g_object_ref (message);
      cancellable = g_task_get_cancellable (task);
      g_input_stream_read_bytes_async (stream, 4096, G_PRIORITY_DEFAULT, cancellable,
                                       pull_error_body_cb, g_steal_pointer (&task));
      return;
    }

  /* The cancellable is read before the task moves (argument order is unspecified). */
  cancellable = g_task_get_cancellable (task);
  g_data_input_stream_read_line_async (data->lines, G_PRIORITY_DEFAULT, cancellable,
                                       pull_read_line_cb, g_steal_pointer (&task));
}

/**
 * lode_ollama_embedder_pull_async:
 * @self: a #LodeOllamaEmbedder
 * @cancellable: (nullable): a #GCancellable
 * @callback: called when the pull is over
 * @user_data: data for @callback
 *
 * Asks the server to download the model (`POST /api/pull`), reporting its streamed status
 * lines through the pull-progress callback.
 */
void
lode_ollama_embedder_pull_async (LodeOllamaEmbedder  *self,
                                 GCancellable        *cancellable,
                                 GAsyncReadyCallback  callback,
                                 gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(SoupMessage) message = NULL;
  g_autoptr(JsonBuilder) builder = json_builder_new ();

  g_return_if_fail (LODE_IS_OLLAMA_EMBEDDER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_ollama_embedder_pull_async);
  g_task_set_task_data (task, g_new0 (PullData, 1), (GDestroyNotify) pull_data_free);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, self->model);
  json_builder_set_member_name (builder, "stream");
  json_builder_add_boolean_value (builder, TRUE);
  json_builder_end_object (builder);

  message = new_json_message (self, SOUP_METHOD_POST, "/api/pull", builder);
  if (message == NULL)
    {
      GError *error = NULL;

      set_invalid_url (&error, self);
      g_task_return_error (task, error);
      return;
    }

  soup_session_send_async (_lode_http_get_session (), message, G_PRIORITY_DEFAULT, cancellable,
                           pull_send_cb, g_steal_pointer (&task));
}

gboolean
lode_ollama_embedder_pull_finish (LodeOllamaEmbedder  *self,
                                  GAsyncResult        *result,
                                  GError             **error)
{
  g_return_val_if_fail (g_task_is_valid (result, self), FALSE);

  return g_task_propagate_boolean (G_TASK (result), error);
}

/* ---- /api/embed ------------------------------------------------------------------------ */

typedef struct
{
  GStrv             inputs;
  guint             n_inputs;
  LodeEmbedPurpose  purpose;
  GBytes           *body;
  gboolean          pulled;
} EmbedData;

static void
embed_data_free (EmbedData *data)
{
  g_strfreev (data->inputs);
  g_clear_pointer (&data->body, g_bytes_unref);
  g_free (data);
}

static void embed_send (GTask *task);

static gboolean
is_model_missing (SoupMessage *message,
                  GBytes      *body)
{
  gsize size = 0;
  const char *text = body != NULL ? g_bytes_get_data (body, &size) : NULL;
  g_autofree char *copy = NULL;

  if (soup_message_get_status (message) != SOUP_STATUS_NOT_FOUND || text == NULL)
    return FALSE;

  /* Ollama answers 404 {"error":"model \"x\" not found, try pulling it first"}. */
  copy = g_strndup (text, size);
  return strstr (copy, "not found") != NULL;
}

static void
embed_pull_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;

  if (!lode_ollama_embedder_pull_finish (LODE_OLLAMA_EMBEDDER (object), result, &error))
    {
      g_task_return_error (task, error);
      return;
    }

  embed_send (g_steal_pointer (&task));
}

static LodeEmbeddings *
parse_embeddings (LodeOllamaEmbedder  *self,
                  EmbedData           *data,
                  GBytes              *body,
                  GError             **error)
{
  g_autofree char *what = g_strdup_printf ("Ollama at %s (model %s)", self->url, self->model);
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  JsonNode *member;
  JsonArray *vectors;
  guint dims;

  root = _lode_embedder_parse_json (body, what, error);
  if (root == NULL)
    return NULL;

  member = json_object_get_member (json_node_get_object (root), "embeddings");
  if (member == NULL || !JSON_NODE_HOLDS_ARRAY (member))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: the answer has no \"embeddings\" array", what);
      return NULL;
    }

  vectors = json_node_get_array (member);
  if (json_array_get_length (vectors) != data->n_inputs)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "%s: %u vectors for %u inputs", what, json_array_get_length (vectors),
                   data->n_inputs);
      return NULL;
    }

  if (data->n_inputs == 0)
    return lode_embeddings_new (0, self->dims);

  /* The first answer tells the dimensions; every later one must agree. */
  dims = self->dims;
  if (dims == 0)
    {
      dims = _lode_embedder_vector_length (json_array_get_element (vectors, 0));
      if (dims == 0)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: an empty embedding", what);
          return NULL;
        }
    }

  embeddings = lode_embeddings_new (data->n_inputs, dims);
  for (guint i = 0; i < data->n_inputs; i++)
    {
      if (!_lode_embedder_read_vector (json_array_get_element (vectors, i),
                                       embeddings->data + (gsize) i * dims, dims, error))
        {
          g_prefix_error (error, "%s: vector %u: ", what, i);
          return NULL;
        }
    }

  self->dims = dims;
  return g_steal_pointer (&embeddings);
}

static void
embed_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LodeOllamaEmbedder *self = g_task_get_source_object (task);
  EmbedData *data = g_task_get_task_data (task);
  SoupMessage *message = NULL;
  g_autoptr(GBytes) body = NULL;
  LodeEmbeddings *embeddings;
  GCancellable *cancellable;
  GError *error = NULL;

  body = _lode_embedder_request_finish (result, &message, &error);
  if (body == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (is_model_missing (message, body) && self->auto_pull && !data->pulled)
    {
      g_debug ("Model %s is missing on %s; pulling it", self->model, self->url);
      data->pulled = TRUE;
      cancellable = g_task_get_cancellable (task);
      lode_ollama_embedder_pull_async (self, cancellable, embed_pull_cb, g_steal_pointer (&task));
      return;
    }

  if (!SOUP_STATUS_IS_SUCCESSFUL (soup_message_get_status (message)))
    {
      g_autofree char *what = g_strdup_printf ("Ollama at %s (model %s)", self->url, self->model);

      _lode_embedder_set_http_error (&error, what, message, body);
      g_task_return_error (task, error);
      return;
    }

  embeddings = parse_embeddings (self, data, body, &error);
  if (embeddings == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, embeddings, (GDestroyNotify) lode_embeddings_free);
}

/* The request of one attempt. */
static SoupMessage *
new_embed_message (gpointer   user_data,
                   GError   **error)
{
  GTask *task = user_data;
  LodeOllamaEmbedder *self = g_task_get_source_object (task);
  EmbedData *data = g_task_get_task_data (task);
  SoupMessage *message = new_json_message (self, SOUP_METHOD_POST, "/api/embed", NULL);

  if (message == NULL)
    {
      set_invalid_url (error, self);
      return NULL;
    }

  soup_message_set_request_body_from_bytes (message, "application/json", data->body);
  return message;
}

/* Takes @task. */
static void
embed_send (GTask *task)
{
  LodeOllamaEmbedder *self = g_task_get_source_object (task);
  EmbedData *data = g_task_get_task_data (task);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *what = g_strdup_printf ("Ollama at %s (model %s)", self->url, self->model);
  LodeEmbedderRetry retry;
  char *text;

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "model");
  json_builder_add_string_value (builder, self->model);
  json_builder_set_member_name (builder, "input");
  json_builder_begin_array (builder);
  for (guint i = 0; i < data->n_inputs; i++)
    json_builder_add_string_value (builder, data->inputs[i]);
  json_builder_end_array (builder);
  /* An input longer than the context is an error, never silently cut. */
  json_builder_set_member_name (builder, "truncate");
  json_builder_add_boolean_value (builder, FALSE);
  json_builder_end_object (builder);

  root = json_builder_get_root (builder);
  text = lode_json_to_string (root, FALSE);
  g_clear_pointer (&data->body, g_bytes_unref);
  data->body = g_bytes_new_take (text, strlen (text));

  _lode_embedder_retry_init (&retry, data->purpose, self->timeout_seconds, self->max_retries,
                             self->retry_delay_msec, &self->breaker);
  _lode_embedder_request_async (new_embed_message, task, &retry, what,
                                g_task_get_cancellable (task), embed_cb, task);
}

static void
lode_ollama_embedder_embed_async (LodeEmbedder        *embedder,
                                  const char * const  *texts,
                                  LodeEmbedPurpose     purpose,
                                  GCancellable        *cancellable,
                                  GAsyncReadyCallback  callback,
                                  gpointer             user_data)
{
  LodeOllamaEmbedder *self = LODE_OLLAMA_EMBEDDER (embedder);
  const char *prefix = purpose == LODE_EMBED_QUERY ? self->query_prefix : self->document_prefix;
  GTask *task;
  EmbedData *data;

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_ollama_embedder_embed_async);

  data = g_new0 (EmbedData, 1);
  data->n_inputs = g_strv_length ((GStrv) texts);
  data->purpose = purpose;
  data->inputs = g_new0 (char *, data->n_inputs + 1);
  for (guint i = 0; i < data->n_inputs; i++)
    data->inputs[i] = g_strconcat (prefix, texts[i], NULL);
  g_task_set_task_data (task, data, (GDestroyNotify) embed_data_free);

  for (guint i = 0; i < data->n_inputs; i++)
    {
      if (!g_utf8_validate (texts[i], -1, NULL))
        {
          g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                                   "Input %u is not valid UTF-8", i);
          g_object_unref (task);
          return;
        }
    }

  if (data->n_inputs == 0)
    {
      g_task_return_pointer (task, lode_embeddings_new (0, self->dims),
                             (GDestroyNotify) lode_embeddings_free);
      g_object_unref (task);
      return;
    }

  embed_send (task);
}

static LodeEmbeddings *
lode_ollama_embedder_embed_finish (LodeEmbedder  *embedder,
                                   GAsyncResult  *result,
                                   GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, embedder), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static const char *
lode_ollama_embedder_get_model (LodeEmbedder *embedder)
{
  return LODE_OLLAMA_EMBEDDER (embedder)->model_id;
}

static guint
lode_ollama_embedder_get_dims (LodeEmbedder *embedder)
{
  return LODE_OLLAMA_EMBEDDER (embedder)->dims;
}

static guint
lode_ollama_embedder_get_max_tokens (LodeEmbedder *embedder)
{
  return LODE_OLLAMA_EMBEDDER (embedder)->max_tokens;
}

static void
lode_ollama_embedder_iface_init (LodeEmbedderInterface *iface)
{
  iface->get_model = lode_ollama_embedder_get_model;
  iface->get_dims = lode_ollama_embedder_get_dims;
  iface->get_max_tokens = lode_ollama_embedder_get_max_tokens;
  iface->embed_async = lode_ollama_embedder_embed_async;
  iface->embed_finish = lode_ollama_embedder_embed_finish;
}
