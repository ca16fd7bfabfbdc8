/* lode-embedder.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-embedder"

#include "config.h"

#include <math.h>

#include "lode-embedder-private.h"
#include "lode-error.h"
#include "lode-json.h"

G_DEFINE_INTERFACE (LodeEmbedder, lode_embedder, G_TYPE_OBJECT)

static void
lode_embedder_default_init (LodeEmbedderInterface *iface)
{
}

/**
 * lode_embeddings_new:
 * @n_vectors: number of vectors
 * @dims: dimensions of each vector
 *
 * Returns: (transfer full): a zero-filled result of @n_vectors × @dims floats
 */
LodeEmbeddings *
lode_embeddings_new (guint n_vectors,
                     guint dims)
{
  LodeEmbeddings *embeddings = g_new0 (LodeEmbeddings, 1);

  embeddings->n_vectors = n_vectors;
  embeddings->dims = dims;
  /* g_new0 checks the product for overflow. */
  embeddings->data = g_new0 (float, (gsize) n_vectors * dims);
  return embeddings;
}

void
lode_embeddings_free (LodeEmbeddings *embeddings)
{
  if (embeddings == NULL)
    return;

  g_free (embeddings->data);
  g_free (embeddings);
}

const char *
lode_embedder_get_model (LodeEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), NULL);

  return LODE_EMBEDDER_GET_IFACE (self)->get_model (self);
}

guint
lode_embedder_get_dims (LodeEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), 0);

  return LODE_EMBEDDER_GET_IFACE (self)->get_dims (self);
}

guint
lode_embedder_get_max_tokens (LodeEmbedder *self)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), 0);

  return LODE_EMBEDDER_GET_IFACE (self)->get_max_tokens (self);
}

/**
 * lode_embedder_embed_async:
 * @self: a #LodeEmbedder
 * @texts: (array zero-terminated=1): the texts, without any model prefix
 * @purpose: whether the texts are queries or documents
 * @cancellable: (nullable): a #GCancellable
 * @callback: called on the caller's thread-default main context
 * @user_data: data for @callback
 *
 * Embeds a batch of texts.
 */
void
lode_embedder_embed_async (LodeEmbedder        *self,
                           const char * const  *texts,
                           LodeEmbedPurpose     purpose,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_return_if_fail (LODE_IS_EMBEDDER (self));
  g_return_if_fail (texts != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  LODE_EMBEDDER_GET_IFACE (self)->embed_async (self, texts, purpose, cancellable,
                                               callback, user_data);
}

/**
 * lode_embedder_embed_finish:
 * @self: a #LodeEmbedder
 * @result: the #GAsyncResult given to the callback
 * @error: return location for a #GError
 *
 * Returns: (transfer full): one L2-normalised vector per input text, or %NULL with @error set
 */
LodeEmbeddings *
lode_embedder_embed_finish (LodeEmbedder  *self,
                            GAsyncResult  *result,
                            GError       **error)
{
  g_return_val_if_fail (LODE_IS_EMBEDDER (self), NULL);
  g_return_val_if_fail (G_IS_ASYNC_RESULT (result), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  return LODE_EMBEDDER_GET_IFACE (self)->embed_finish (self, result, error);
}

static void
lode_embedder_embed_sync_cb (GObject      *object,
                             GAsyncResult *result,
                             gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/**
 * lode_embedder_embed_sync:
 * @self: a #LodeEmbedder
 * @texts: (array zero-terminated=1): the texts
 * @purpose: whether the texts are queries or documents
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Blocks until the batch is embedded. It runs the provider on a private main context, so it
 * may be called from any thread, but never from the main thread of loded or the app.
 *
 * Returns: (transfer full): the vectors, or %NULL with @error set
 */
LodeEmbeddings *
lode_embedder_embed_sync (LodeEmbedder        *self,
                          const char * const  *texts,
                          LodeEmbedPurpose     purpose,
                          GCancellable        *cancellable,
                          GError             **error)
{
  g_autoptr(GMainContext) context = NULL;
  g_autoptr(GAsyncResult) result = NULL;

  g_return_val_if_fail (LODE_IS_EMBEDDER (self), NULL);
  g_return_val_if_fail (texts != NULL, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  context = g_main_context_new ();
  g_main_context_push_thread_default (context);
  lode_embedder_embed_async (self, texts, purpose, cancellable,
                             lode_embedder_embed_sync_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  return lode_embedder_embed_finish (self, result, error);
}

/* Scales @vector to unit length. Returns FALSE for a zero or non-finite vector, which no
 * model should return. */
gboolean
_lode_embedder_normalize (float *vector,
                          guint  dims)
{
  double sum = 0.0;
  double scale;

  for (guint i = 0; i < dims; i++)
    sum += (double) vector[i] * vector[i];

  if (!isfinite (sum) || sum <= 0.0)
    return FALSE;

  scale = 1.0 / sqrt (sum);
  for (guint i = 0; i < dims; i++)
    vector[i] = (float) (vector[i] * scale);

  return TRUE;
}

/* The length of @node when it is an array, else 0. */
guint
_lode_embedder_vector_length (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    return 0;

  return json_array_get_length (json_node_get_array (node));
}

/* Reads an array of @dims numbers into @out and normalises it. */
gboolean
_lode_embedder_read_vector (JsonNode  *node,
                            float     *out,
                            guint      dims,
                            GError   **error)
{
  JsonArray *array;

  if (node == NULL || !JSON_NODE_HOLDS_ARRAY (node))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "an embedding is not an array");
      return FALSE;
    }

  array = json_node_get_array (node);
  if (json_array_get_length (array) != dims)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                   "an embedding has %u dimensions, expected %u",
                   json_array_get_length (array), dims);
      return FALSE;
    }

  for (guint i = 0; i < dims; i++)
    {
      JsonNode *element = json_array_get_element (array, i);

      if (!JSON_NODE_HOLDS_VALUE (element) ||
          (json_node_get_value_type (element) != G_TYPE_DOUBLE &&
           json_node_get_value_type (element) != G_TYPE_INT64))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                       "element %u of an embedding is not a number", i);
          return FALSE;
        }
      out[i] = (float) json_node_get_double (element);
    }

  if (!_lode_embedder_normalize (out, dims))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_EMBEDDER,
                           "an embedding is zero or not finite");
      return FALSE;
    }

  return TRUE;
}

/* Parses a JSON object from an answer. */
JsonNode *
_lode_embedder_parse_json (GBytes      *body,
                           const char  *what,
                           GError     **error)
{
  g_autoptr(GError) local_error = NULL;
  gsize size = 0;
  const char *text = g_bytes_get_data (body, &size);
  g_autoptr(JsonNode) root = NULL;

  if (text == NULL || size == 0)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: empty answer", what);
      return NULL;
    }

  root = lode_json_parse (text, size, &local_error);
  if (root == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: malformed JSON in the answer: %s",
                   what, local_error->message);
      return NULL;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: the answer is not a JSON object",
                   what);
      return NULL;
    }

  return g_steal_pointer (&root);
}

/* An HTTP error with what the server said: the "error" member of a JSON body (a string, or
 * an object with a "message", as OpenAI sends it), else the start of the body as text. */
void
_lode_embedder_set_http_error (GError      **error,
                               const char   *what,
                               SoupMessage  *message,
                               GBytes       *body)
{
  g_autofree char *detail = NULL;
  gsize size = 0;
  const char *text = body != NULL ? g_bytes_get_data (body, &size) : NULL;
  g_autoptr(JsonNode) root = text != NULL && size > 0 ? lode_json_parse (text, size, NULL) : NULL;

  if (root != NULL)
    {
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
      JsonNode *member = object != NULL ? json_object_get_member (object, "error") : NULL;

      if (member != NULL && JSON_NODE_HOLDS_VALUE (member) &&
          json_node_get_value_type (member) == G_TYPE_STRING)
        detail = g_strdup (json_node_get_string (member));
      else if (member != NULL && JSON_NODE_HOLDS_OBJECT (member))
        {
          const char *msg = json_object_get_string_member_with_default (json_node_get_object (member),
                                                                         "message", NULL);
          detail = g_strdup (msg);
        }
    }

  if (detail == NULL && text != NULL && size > 0)
    detail = g_utf8_make_valid (text, MIN (size, 200));

  if (detail != NULL && g_utf8_strlen (detail, -1) > 300)
    {
      char *cut = g_utf8_offset_to_pointer (detail, 300);

      *cut = '\0';
    }

  g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s: HTTP %u %s%s%s", what,
               soup_message_get_status (message), soup_message_get_reason_phrase (message),
               detail != NULL ? ": " : "", detail != NULL ? detail : "");
}

/* ---- Retries and the breaker ----------------------------------------------------------- */

/* A server that asks for a longer pause than this gets an error instead of a wait. */
#define MAX_RETRY_WAIT_MSEC (5 * 60 * 1000)
/* How long queries skip a server that failed. */
#define BREAKER_USEC        (30 * G_USEC_PER_SEC)
/* A search waits this long at most for its query's vector, and asks once: lexical results
 * now are better than ranked ones later. */
#define QUERY_TIMEOUT_SECONDS 15

void
_lode_embedder_breaker_clear (LodeEmbedderBreaker *breaker)
{
  g_clear_pointer (&breaker->reason, g_free);
}

static gboolean
breaker_check (LodeEmbedderBreaker  *breaker,
               GError              **error)
{
  gint64 now = g_get_monotonic_time ();
  gboolean open;

  g_mutex_lock (&breaker->lock);
  open = breaker->open_until > now;
  if (open)
    g_set_error (error, LODE_ERROR, LODE_ERROR_EMBEDDER, "%s (trying again in %" G_GINT64_FORMAT
                 " s)", breaker->reason, (breaker->open_until - now + G_USEC_PER_SEC - 1) /
                 G_USEC_PER_SEC);
  g_mutex_unlock (&breaker->lock);

  return !open;
}

static void
breaker_set (LodeEmbedderBreaker *breaker,
             const GError        *error)
{
  if (breaker == NULL)
    return;

  g_mutex_lock (&breaker->lock);
  g_clear_pointer (&breaker->reason, g_free);
  breaker->open_until = 0;
  if (error != NULL)
    {
      breaker->reason = g_strdup (error->message);
      breaker->open_until = g_get_monotonic_time () + BREAKER_USEC;
    }
  g_mutex_unlock (&breaker->lock);
}

/**
 * _lode_embedder_retry_init:
 * @retry: the policy to fill
 * @purpose: what the request embeds
 * @timeout_seconds: the provider's timeout, 0 for none
 * @max_retries: the provider's retries
 * @base_delay_msec: the provider's first pause
 * @breaker: the provider's breaker
 *
 * Documents (a background pass) get the provider's timeout and retries, after 429, a 5xx and
 * a refused or broken connection; a query gets at most QUERY_TIMEOUT_SECONDS, no retry, and
 * fails at once while the breaker is open.
 */
void
_lode_embedder_retry_init (LodeEmbedderRetry   *retry,
                           LodeEmbedPurpose     purpose,
                           guint                timeout_seconds,
                           guint                max_retries,
                           guint                base_delay_msec,
                           LodeEmbedderBreaker *breaker)
{
  gboolean query = purpose == LODE_EMBED_QUERY;

  retry->http.timeout_seconds = timeout_seconds;
  if (query && (timeout_seconds == 0 || timeout_seconds > QUERY_TIMEOUT_SECONDS))
    retry->http.timeout_seconds = QUERY_TIMEOUT_SECONDS;
  retry->http.max_retries = query ? 0 : max_retries;
  retry->http.base_delay_msec = base_delay_msec;
  retry->http.max_wait_msec = MAX_RETRY_WAIT_MSEC;
  retry->http.flags = LODE_HTTP_RETRY_SERVER_ERRORS;
  retry->breaker = breaker;
  retry->fail_fast = query;
}

typedef struct
{
  LodeEmbedderBreaker *breaker;
  char                *what;
  SoupMessage         *message;     /* of the last attempt */
} Request;

static void
request_free (Request *request)
{
  g_clear_object (&request->message);
  g_free (request->what);
  g_free (request);
}

/* Ends @task with @error, which the breaker remembers. Takes @error. */
static void
request_fail (GTask  *task,
              GError *error)
{
  Request *request = g_task_get_task_data (task);

  breaker_set (request->breaker, error);
  g_task_return_error (task, error);
}

static void
request_cb (GObject      *object,
            GAsyncResult *result,
            gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Request *request = g_task_get_task_data (task);
  g_autoptr(GBytes) body = NULL;
  g_autofree char *what = NULL;
  GError *error = NULL;
  LodeHttpEnd end;

  body = _lode_http_request_finish (result, &end, &error);
  g_set_object (&request->message, end.message);

  /* Cancelled, or the request could not be made: no server failed. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) || end.message == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  if (end.refused_wait_msec >= 0)
    {
      what = g_strdup_printf ("%s: the server asks to wait %" G_GINT64_FORMAT " s",
                              request->what, end.refused_wait_msec / 1000);
      g_clear_error (&error);
      _lode_embedder_set_http_error (&error, what, end.message, body);
      request_fail (task, error);
      return;
    }

  what = end.gave_up && end.n_retries > 0
         ? g_strdup_printf ("%s, gave up after %u retries", request->what, end.n_retries)
         : g_strdup (request->what);
  if (body == NULL)
    {
      g_prefix_error (&error, "%s: ", what);
      request_fail (task, error);
      return;
    }
  if (end.gave_up)
    {
      _lode_embedder_set_http_error (&error, what, end.message, body);
      request_fail (task, error);
      return;
    }

  /* It answered: queries may ask it again. */
  breaker_set (request->breaker, NULL);
  g_task_return_pointer (task, g_steal_pointer (&body), (GDestroyNotify) g_bytes_unref);
}

/**
 * _lode_embedder_request_async:
 * @build: makes the request of each attempt
 * @build_data: data for @build, alive until @callback runs
 * @retry: timeouts and retries
 * @what: the server and what is asked of it, to start error messages
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * Sends a request with _lode_http_request_async(). Answers of a status that is not tried
 * again are the caller's to read. A failure opens @retry's breaker, an answer closes it;
 * while it is open, a @fail_fast request fails at once with the reason of the last failure.
 */
void
_lode_embedder_request_async (LodeHttpMessageFunc      build,
                              gpointer                 build_data,
                              const LodeEmbedderRetry *retry,
                              const char              *what,
                              GCancellable            *cancellable,
                              GAsyncReadyCallback      callback,
                              gpointer                 user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Request *request = g_new0 (Request, 1);
  GError *error = NULL;

  g_task_set_source_tag (task, _lode_embedder_request_async);
  request->breaker = retry->breaker;
  request->what = g_strdup (what);
  g_task_set_task_data (task, request, (GDestroyNotify) request_free);

  if (retry->fail_fast && retry->breaker != NULL && !breaker_check (retry->breaker, &error))
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  _lode_http_request_async (build, build_data, &retry->http, cancellable, request_cb, task);
}

/**
 * _lode_embedder_request_finish:
 * @result: the result given to the callback
 * @message: (out) (transfer none) (optional): the last request, valid while @result lives
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the body of an answer that is not to be tried again (check its
 *   status), or %NULL with @error set
 */
GBytes *
_lode_embedder_request_finish (GAsyncResult  *result,
                               SoupMessage  **message,
                               GError       **error)
{
  Request *request;

  g_assert (g_task_is_valid (result, NULL));

  request = g_task_get_task_data (G_TASK (result));
  if (message != NULL)
    *message = request->message;
  return g_task_propagate_pointer (G_TASK (result), error);
}
