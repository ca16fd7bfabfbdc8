/* lode-http.c — the process's HTTP session, one request with a timeout, and retries
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-http"

#include "config.h"

#include "lode-http-private.h"

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

/* What one read of the body asks for: a large answer takes a few dozen reads. */
#define READ_SIZE (256 * 1024)

typedef struct
{
  SoupMessage  *message;
  GCancellable *parent;
  GCancellable *child;
  gulong        parent_handler;
  GSource      *timer;
  guint         timeout_seconds;
  gboolean      timed_out;
  gsize         max_body_bytes;
  GInputStream *stream;
  GByteArray   *body;
  GError       *error;    /* the failure returned once the stream is closed */
} HttpCall;

static void
http_call_free (HttpCall *call)
{
  if (call->timer != NULL)
    g_source_destroy (call->timer);
  g_clear_pointer (&call->timer, g_source_unref);
  g_clear_object (&call->stream);
  if (call->parent != NULL)
    g_cancellable_disconnect (call->parent, call->parent_handler);
  g_clear_object (&call->parent);
  g_clear_object (&call->child);
  g_clear_object (&call->message);
  g_clear_pointer (&call->body, g_byte_array_unref);
  g_clear_error (&call->error);
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
http_call_return_error (GTask  *task,
                        GError *error)
{
  HttpCall *call = g_task_get_task_data (task);

  if (call->timed_out && g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    {
      g_error_free (error);
      g_task_return_new_error (task, G_IO_ERROR, G_IO_ERROR_TIMED_OUT,
                               "No answer within %u s", call->timeout_seconds);
    }
  else
    g_task_return_error (task, error);
}

static void
http_dropped_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HttpCall *call = g_task_get_task_data (task);

  g_input_stream_close_finish (G_INPUT_STREAM (object), result, NULL);
  g_clear_object (&call->stream);
  http_call_return_error (task, g_steal_pointer (&call->error));
}

/* Ends @task with @error, once the connection was dropped. Takes @task and @error. */
static void
http_call_fail (GTask  *task,
                GError *error)
{
  HttpCall *call = g_task_get_task_data (task);

  if (call->timer != NULL)
    g_source_destroy (call->timer);
  g_clear_pointer (&call->timer, g_source_unref);

  if (call->stream == NULL || g_input_stream_is_closed (call->stream))
    {
      http_call_return_error (task, error);
      g_object_unref (task);
      return;
    }

  /* Closed under a cancelled request, the body's stream is not read to its end (which an
   * endless body never reaches), and the connection is dropped. */
  call->error = error;
  g_cancellable_cancel (call->child);
  g_input_stream_close_async (call->stream, G_PRIORITY_DEFAULT, call->child, http_dropped_cb,
                              task);
}

static void
http_closed_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HttpCall *call = g_task_get_task_data (task);
  GError *error = NULL;

  if (!g_input_stream_close_finish (G_INPUT_STREAM (object), result, &error))
    {
      http_call_fail (g_steal_pointer (&task), error);
      return;
    }

  if (call->timer != NULL)
    g_source_destroy (call->timer);
  g_clear_pointer (&call->timer, g_source_unref);
  g_clear_object (&call->stream);
  g_task_return_pointer (task, g_byte_array_free_to_bytes (g_steal_pointer (&call->body)),
                         (GDestroyNotify) g_bytes_unref);
}

static void
http_set_too_large (GError   **error,
                    HttpCall  *call)
{
  g_autofree char *limit = g_format_size (call->max_body_bytes);
  g_autofree char *uri = g_uri_to_string_partial (soup_message_get_uri (call->message),
                                                  G_URI_HIDE_PASSWORD);

  g_set_error (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE,
               "The answer to %s %s is larger than %s; it was not read",
               soup_message_get_method (call->message), uri, limit);
}

static void http_read_next (GTask *task);

static void
http_read_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  HttpCall *call = g_task_get_task_data (task);
  GError *error = NULL;
  gsize start = call->body->len - READ_SIZE;
  gssize n;

  n = g_input_stream_read_finish (G_INPUT_STREAM (object), result, &error);
  g_byte_array_set_size (call->body, start + MAX (n, 0));
  if (n < 0)
    {
      http_call_fail (g_steal_pointer (&task), error);
      return;
    }
  /* Read to its end, the body leaves the connection to the next request. */
  if (n == 0)
    {
      g_input_stream_close_async (call->stream, G_PRIORITY_DEFAULT, call->child, http_closed_cb,
                                  g_steal_pointer (&task));
      return;
    }
  if (call->body->len > call->max_body_bytes)
    {
      http_set_too_large (&error, call);
      http_call_fail (g_steal_pointer (&task), error);
      return;
    }

  http_read_next (g_steal_pointer (&task));
}

/* Reads the next part of the body, one byte more than the bound at most. Takes @task. */
static void
http_read_next (GTask *task)
{
  HttpCall *call = g_task_get_task_data (task);
  gsize start = call->body->len;

  g_byte_array_set_size (call->body, start + READ_SIZE);
  g_input_stream_read_async (call->stream, call->body->data + start,
                             MIN (READ_SIZE, call->max_body_bytes + 1 - start),
                             G_PRIORITY_DEFAULT, call->child, http_read_cb, task);
}

static void
http_send_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GTask *task = user_data;
  HttpCall *call = g_task_get_task_data (task);
  SoupMessageHeaders *headers;
  GError *error = NULL;

  call->stream = soup_session_send_finish (SOUP_SESSION (object), result, &error);
  if (call->stream == NULL)
    {
      http_call_fail (task, error);
      return;
    }

  /* An answer that says it is too large is not read at all. */
  headers = soup_message_get_response_headers (call->message);
  if (soup_message_headers_get_encoding (headers) == SOUP_ENCODING_CONTENT_LENGTH &&
      soup_message_headers_get_content_length (headers) > (goffset) call->max_body_bytes)
    {
      http_set_too_large (&error, call);
      http_call_fail (task, error);
      return;
    }

  call->body = g_byte_array_new ();
  http_read_next (task);
}

/**
 * _lode_http_send_and_read_async:
 * @message: the request
 * @timeout_seconds: how long the whole exchange may take, 0 for no limit
 * @max_body_bytes: the largest answer read, 0 for %LODE_HTTP_MAX_BODY_BYTES
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the body
 * @user_data: data for @callback
 *
 * Sends @message on the shared session and reads the whole answer. A timeout ends with
 * %G_IO_ERROR_TIMED_OUT; an answer larger than @max_body_bytes (said or sent) ends with
 * %G_IO_ERROR_MESSAGE_TOO_LARGE once that much was read, and its connection is dropped: no
 * server can make Lode hold more than that of its answer.
 */
void
_lode_http_send_and_read_async (SoupMessage         *message,
                                guint                timeout_seconds,
                                gsize                max_body_bytes,
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
  call->max_body_bytes = max_body_bytes > 0 ? max_body_bytes : LODE_HTTP_MAX_BODY_BYTES;
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

  soup_session_send_async (_lode_http_get_session (), message, G_PRIORITY_DEFAULT, call->child,
                           http_send_cb, g_steal_pointer (&task));
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

/**
 * _lode_http_retry_after_msec:
 * @message: an answer (429, 503, …)
 *
 * Returns: the pause the answer asks for in milliseconds (`retry-after-ms`, as OpenAI sends,
 *   else `Retry-After` in seconds or as an HTTP date), or -1 when it names none
 */
gint64
_lode_http_retry_after_msec (SoupMessage *message)
{
  SoupMessageHeaders *headers = soup_message_get_response_headers (message);
  const char *ms = soup_message_headers_get_one (headers, "retry-after-ms");
  const char *value = soup_message_headers_get_one (headers, "Retry-After");
  g_autoptr(GDateTime) date = NULL;
  g_autoptr(GDateTime) now = NULL;
  g_autofree char *ms_text = ms != NULL ? g_strstrip (g_strdup (ms)) : NULL;
  g_autofree char *text = value != NULL ? g_strstrip (g_strdup (value)) : NULL;
  guint64 number;

  if (ms_text != NULL &&
      g_ascii_string_to_unsigned (ms_text, 10, 0, G_MAXINT32, &number, NULL))
    return (gint64) number;

  if (text == NULL)
    return -1;

  if (g_ascii_string_to_unsigned (text, 10, 0, G_MAXINT32 / 1000, &number, NULL))
    return (gint64) number * 1000;

  date = soup_date_time_new_from_http_string (value);
  if (date == NULL)
    return -1;

  now = g_date_time_new_now_utc ();
  /* Rounded up: waiting less than asked would only earn another 429. */
  return MAX ((g_date_time_difference (date, now) + 999) / 1000, 0);
}

/* ---- Retries ---------------------------------------------------------------------------- */

/* Rate limits and a server that is (for now) unable to answer. */
static gboolean
is_retryable_status (LodeHttpRetryFlags flags,
                     guint              status)
{
  if (status == 429 /* Too Many Requests */ || status == SOUP_STATUS_BAD_GATEWAY ||
      status == SOUP_STATUS_SERVICE_UNAVAILABLE || status == SOUP_STATUS_GATEWAY_TIMEOUT)
    return TRUE;

  return (flags & LODE_HTTP_RETRY_SERVER_ERRORS) != 0 && SOUP_STATUS_IS_SERVER_ERROR (status) &&
         status != SOUP_STATUS_NOT_IMPLEMENTED &&
         status != SOUP_STATUS_HTTP_VERSION_NOT_SUPPORTED;
}

/* Failures to reach the server that may pass (it restarts). Unless any failure is worth
 * another try, a server that took the whole timeout is not asked again: it would most
 * likely take as long. */
static gboolean
is_retryable_error (LodeHttpRetryFlags  flags,
                    const GError       *error)
{
  /* An answer too large would be as large again. */
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      g_error_matches (error, G_IO_ERROR, G_IO_ERROR_MESSAGE_TOO_LARGE))
    return FALSE;
  if ((flags & LODE_HTTP_RETRY_ANY_FAILURE) != 0)
    return error->domain != G_TLS_ERROR;

  return g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_REFUSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CONNECTION_CLOSED) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_BROKEN_PIPE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_HOST_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NETWORK_UNREACHABLE) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_CONNECTED) ||
         g_error_matches (error, G_RESOLVER_ERROR, G_RESOLVER_ERROR_TEMPORARY_FAILURE);
}

typedef struct
{
  LodeHttpMessageFunc  build;
  gpointer             build_data;
  LodeHttpRetry        retry;
  LodeHttpEnd          end;
  GSource             *wait;
  GCancellable        *cancellable;
  gulong               cancelled_id;
} Retrying;

static void
retrying_stop_waiting (Retrying *request)
{
  if (request->wait != NULL)
    g_source_destroy (request->wait);
  g_clear_pointer (&request->wait, g_source_unref);
  g_cancellable_disconnect (request->cancellable, request->cancelled_id);
  request->cancelled_id = 0;
}

static void
retrying_free (Retrying *request)
{
  retrying_stop_waiting (request);
  g_clear_object (&request->cancellable);
  g_clear_object (&request->end.message);
  g_free (request);
}

static void retrying_send (GTask *task);

static gboolean
retrying_wait_cb (gpointer user_data)
{
  GTask *task = user_data;

  retrying_stop_waiting (g_task_get_task_data (task));
  retrying_send (g_object_ref (task));

  return G_SOURCE_REMOVE;
}

static gboolean
retrying_cancel_pause_cb (gpointer user_data)
{
  GTask *task = user_data;
  Retrying *request = g_task_get_task_data (task);

  /* The pause may have ended since the cancel was posted, and the task returned with it. */
  if (request->wait == NULL)
    return G_SOURCE_REMOVE;

  retrying_stop_waiting (request);
  g_task_return_error_if_cancelled (task);

  return G_SOURCE_REMOVE;
}

/* Runs in the thread that cancels, which need not be the task's: it only posts the end of the
 * pause to the task's context. A GCancellableSource would do this for us, but GLib 2.74 leaks
 * one that is freed in the task's thread while the cancelling thread is still emitting
 * "cancelled" (its dispose takes a reference that only a later emission gives back). */
static void
retrying_cancelled_cb (GCancellable *cancellable,
                       gpointer      user_data)
{
  GTask *task = user_data;
  g_autoptr(GSource) idle = g_idle_source_new ();

  g_source_set_priority (idle, G_PRIORITY_DEFAULT);
  g_source_set_callback (idle, retrying_cancel_pause_cb, g_object_ref (task), g_object_unref);
  g_source_attach (idle, g_task_get_context (task));
}

/* Whether the attempt that failed with @error (or answered, when it is NULL) is sent again
 * after a pause; when it is not, request->end says why. */
static gboolean
retrying_wait (GTask        *task,
               const GError *error)
{
  Retrying *request = g_task_get_task_data (task);
  SoupMessage *message = request->end.message;
  gint64 wait = -1;

  if (error != NULL ? !is_retryable_error (request->retry.flags, error)
                    : !is_retryable_status (request->retry.flags,
                                            soup_message_get_status (message)))
    return FALSE;

  if (request->end.n_retries >= request->retry.max_retries)
    {
      request->end.gave_up = TRUE;
      return FALSE;
    }

  if (error == NULL)
    wait = _lode_http_retry_after_msec (message);
  if (wait < 0)
    wait = (gint64) request->retry.base_delay_msec << MIN (request->end.n_retries, 16);
  if (wait > request->retry.max_wait_msec)
    {
      request->end.gave_up = TRUE;
      request->end.refused_wait_msec = wait;
      return FALSE;
    }

  request->end.n_retries++;
  g_debug ("%s %s: %s; retry %u in %" G_GINT64_FORMAT " ms", soup_message_get_method (message),
           g_uri_get_path (soup_message_get_uri (message)),
           error != NULL ? error->message : soup_message_get_reason_phrase (message),
           request->end.n_retries, wait);

  request->wait = g_timeout_source_new ((guint) wait);
  g_source_set_callback (request->wait, retrying_wait_cb, g_object_ref (task), g_object_unref);
  g_source_attach (request->wait, g_task_get_context (task));
  if (request->cancellable != NULL)
    request->cancelled_id = g_cancellable_connect (request->cancellable,
                                                   G_CALLBACK (retrying_cancelled_cb),
                                                   g_object_ref (task), g_object_unref);

  return TRUE;
}

static void
retrying_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GBytes) body = NULL;
  GError *error = NULL;

  body = _lode_http_send_and_read_finish (result, NULL, &error);
  if (retrying_wait (task, error))
    g_clear_error (&error);
  else if (body == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, g_steal_pointer (&body), (GDestroyNotify) g_bytes_unref);
}

/* Takes @task. */
static void
retrying_send (GTask *task)
{
  Retrying *request = g_task_get_task_data (task);
  GError *error = NULL;

  if (g_task_return_error_if_cancelled (task))
    {
      g_object_unref (task);
      return;
    }

  g_clear_object (&request->end.message);
  request->end.message = request->build (request->build_data, &error);
  if (request->end.message == NULL)
    {
      g_task_return_error (task, error);
      g_object_unref (task);
      return;
    }

  g_debug ("%s %s, attempt %u", soup_message_get_method (request->end.message),
           g_uri_get_path (soup_message_get_uri (request->end.message)),
           request->end.n_retries + 1);
  _lode_http_send_and_read_async (request->end.message, request->retry.timeout_seconds,
                                  request->retry.max_body_bytes, g_task_get_cancellable (task),
                                  retrying_cb, task);
}

/**
 * _lode_http_request_async:
 * @build: makes the request of each attempt
 * @build_data: data for @build, alive until @callback runs
 * @retry: timeouts and retries
 * @cancellable: (nullable): a #GCancellable, which also ends a pause at once
 * @callback: called with the answer
 * @user_data: data for @callback
 *
 * Sends a request on the shared session, and again after a pause (the server's Retry-After,
 * else an exponential backoff) when it fails in a way that may pass (@retry's flags say
 * which). Every HTTP client of liblode sends through it: the embedding providers and the
 * Qdrant client.
 */
void
_lode_http_request_async (LodeHttpMessageFunc  build,
                          gpointer             build_data,
                          const LodeHttpRetry *retry,
                          GCancellable        *cancellable,
                          GAsyncReadyCallback  callback,
                          gpointer             user_data)
{
  GTask *task = g_task_new (NULL, cancellable, callback, user_data);
  Retrying *request = g_new0 (Retrying, 1);

  g_assert (build != NULL && retry != NULL);

  g_task_set_source_tag (task, _lode_http_request_async);
  request->build = build;
  request->build_data = build_data;
  request->retry = *retry;
  request->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  request->end.refused_wait_msec = -1;
  g_task_set_task_data (task, request, (GDestroyNotify) retrying_free);

  retrying_send (task);
}

/**
 * _lode_http_request_finish:
 * @result: the result given to the callback
 * @end: (out caller-allocates) (optional): how it ended; its message is valid while @result
 *   lives
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the body of the last answer, of any status (check the
 *   message's; with @end's gave_up set, it is one that may pass), or %NULL with @error set
 */
GBytes *
_lode_http_request_finish (GAsyncResult  *result,
                           LodeHttpEnd   *end,
                           GError       **error)
{
  g_assert (g_task_is_valid (result, NULL));

  if (end != NULL)
    *end = ((Retrying *) g_task_get_task_data (G_TASK (result)))->end;
  return g_task_propagate_pointer (G_TASK (result), error);
}
