/* lode-http.c — the process's HTTP session and one request with a timeout
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
