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

/* ---- HTTP ------------------------------------------------------------------------------ */

/**
 * _lode_http_get_session:
 *
 * The process's one SoupSession, shared by every HTTP provider so that connections to a
 * server are reused. It has no timeout of its own: each request gets the timeout of its
 * provider from _lode_http_send_and_read_async(). libsoup ≥ 3.2 lets any thread use it;
 * a request runs on the thread-default main context of its caller.
 *
 * Returns: (transfer none): the session
 */
SoupSession *
_lode_http_get_session (void)
{
  static SoupSession *session;

  if (g_once_init_enter (&session))
    {
      g_autofree char *user_agent = g_strdup_printf ("lode/%s", PACKAGE_VERSION);

      g_once_init_leave (&session, soup_session_new_with_options ("timeout", 0,
                                                                  "user-agent", user_agent,
                                                                  NULL));
    }

  return session;
}

typedef struct
{
  SoupMessage  *message;
  GCancellable *parent;
  GCancellable *child;
  gulong        parent_handler;
  GSource      *timer;
  guint         timeout_seconds;
  gboolean      timed_out;
} HttpCall;

static void
http_call_free (HttpCall *call)
{
  if (call->timer != NULL)
    g_source_destroy (call->timer);
  g_clear_pointer (&call->timer, g_source_unref);
  if (call->parent != NULL)
    g_cancellable_disconnect (call->parent, call->parent_handler);
  g_clear_object (&call->parent);
  g_clear_object (&call->child);
  g_clear_object (&call->message);
  g_free (call);
}

static void
http_parent_cancelled_cb (GCancellable *parent,
                          gpointer      user_data)
{
  g_cancellable_cancel (user_data);
}

static gboolean
http_timeout_cb (gpointer user_data)
{
  HttpCall *call = user_data;

  call->timed_out = TRUE;
  g_clear_pointer (&call->timer, g_source_unref);
  g_cancellable_cancel (call->child);
  return G_SOURCE_REMOVE;
}

static void
http_send_and_read_cb (GObject      *object,
                       GAsyncResult *result,
                       gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HttpCall *call = g_task_get_task_data (task);
  GError *error = NULL;
  GBytes *body;

  body = soup_session_send_and_read_finish (SOUP_SESSION (object), result, &error);
  if (call->timer != NULL)
    g_source_destroy (call->timer);
  g_clear_pointer (&call->timer, g_source_unref);

  if (body != NULL)
    g_task_return_pointer (task, body, (GDestroyNotify) g_bytes_unref);
  else if (call->timed_out && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_clear_error (&error);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                               "No answer within %u s", call->timeout_seconds);
    }
  else
    g_task_return_error (task, error);
}

/**
 * _lode_http_send_and_read_async:
 * @message: the request
 * @timeout_seconds: how long the whole exchange may take, 0 for no limit
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the body
 * @user_data: data for @callback
 *
 * Sends @message on the shared session and reads the whole answer. A timeout ends with
 * %G_IO_ERROR_TIMED_OUT.
 */
void
_lode_http_send_and_read_async (SoupMessage         *message,
                                guint                timeout_seconds,
                                GCancellable        *cancellable,
                                GAsyncReadyCallback  callback,
                                gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  HttpCall *call;

  g_assert (SOUP_IS_MESSAGE (message));

  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, _lode_http_send_and_read_async);

  call = g_new0 (HttpCall, 1);
  call->message = g_object_ref (message);
  call->child = g_cancellable_new ();
  call->timeout_seconds = timeout_seconds;
  g_task_set_task_data (task, call, (GDestroyNotify) http_call_free);

  /* The request runs under a child cancellable, cancelled by the caller's or by the timer,
   * so that a timeout can be told apart from a cancellation. */
  if (cancellable != NULL)
    {
      call->parent = g_object_ref (cancellable);
      call->parent_handler = g_cancellable_connect (cancellable,
                                                    G_CALLBACK (http_parent_cancelled_cb),
                                                    call->child, NULL);
    }

  if (timeout_seconds > 0)
    {
      call->timer = g_timeout_source_new_seconds (timeout_seconds);
      g_source_set_callback (call->timer, http_timeout_cb, call, NULL);
      g_source_attach (call->timer, g_task_get_context (task));
    }

  soup_session_send_and_read_async (_lode_http_get_session (), message, G_PRIORITY_DEFAULT,
                                    call->child, http_send_and_read_cb, g_steal_pointer (&task));
}

/**
 * _lode_http_send_and_read_finish:
 * @result: the result given to the callback
 * @message: (out) (transfer none) (optional): the request, valid while @result lives
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the body (of any status; check the message's), or %NULL
 */
GBytes *
_lode_http_send_and_read_finish (GAsyncResult  *result,
                                 SoupMessage  **message,
                                 GError       **error)
{
  HttpCall *call;

  g_assert (g_task_is_valid (result, NULL));

  call = g_task_get_task_data (G_TASK (result));
  if (message != NULL)
    *message = call->message;
  return g_task_propagate_pointer (G_TASK (result), error);
}
