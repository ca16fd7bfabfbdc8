/* lode-qdrant-client.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-qdrant"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lode-error.h"
#include "lode-http-private.h"
#include "lode-json.h"
#include "lode-qdrant-client-private.h"

#define DEFAULT_TIMEOUT_SECONDS   60
#define DEFAULT_MAX_RETRIES       6
#define DEFAULT_RETRY_DELAY_MSEC  500
/* A read (a search, a scroll, a count) is sent again at most this often: someone is waiting
 * for its answer, and nothing is lost when it fails. */
#define MAX_READ_RETRIES          2
/* A server that asks for a longer pause than this gets an error instead of a wait. */
#define MAX_RETRY_WAIT_MSEC       (2 * 60 * 1000)

G_DEFINE_FINAL_TYPE (LodeQdrantClient, lode_qdrant_client, G_TYPE_OBJECT)

void
lode_qdrant_hit_free (LodeQdrantHit *hit)
{
  if (hit == NULL)
    return;
  g_free (hit->id);
  g_clear_pointer (&hit->payload, json_object_unref);
  g_free (hit);
}

static void
lode_qdrant_client_finalize (GObject *object)
{
  LodeQdrantClient *self = (LodeQdrantClient *) object;

  g_clear_pointer (&self->url, g_free);
  if (self->api_key != NULL)
    {
      memset (self->api_key, 0, strlen (self->api_key));
      g_clear_pointer (&self->api_key, g_free);
    }
  g_list_free_full (g_steal_pointer (&self->ca_certificates), g_object_unref);
  g_clear_pointer (&self->server_version, g_free);

  G_OBJECT_CLASS (lode_qdrant_client_parent_class)->finalize (object);
}

static void
lode_qdrant_client_class_init (LodeQdrantClientClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_qdrant_client_finalize;
}

static void
lode_qdrant_client_init (LodeQdrantClient *self)
{
  self->timeout_seconds = DEFAULT_TIMEOUT_SECONDS;
  self->max_retries = DEFAULT_MAX_RETRIES;
  self->retry_delay_msec = DEFAULT_RETRY_DELAY_MSEC;
  self->max_request_bytes = LODE_QDRANT_DEFAULT_MAX_REQUEST_BYTES;
}

/**
 * lode_qdrant_client_new:
 * @url: the server, `http://host:6333` or `https://…`
 * @api_key: (nullable): the key sent as the `api-key` header
 * @error: return location for a #GError
 *
 * Makes no request: lode_qdrant_client_connect() checks the server. Every call blocks its
 * thread (it runs the request on a private main context), so the store calls the client from
 * its worker threads only. HTTPS certificates are verified against the system's trust store
 * (and lode_qdrant_client_set_ca_file()); the key never appears in a log line or an error.
 *
 * Returns: (transfer full): a client, or %NULL when @url is not an http(s) URL
 */
LodeQdrantClient *
lode_qdrant_client_new (const char  *url,
                        const char  *api_key,
                        GError     **error)
{
  g_autoptr(LodeQdrantClient) self = NULL;
  g_autoptr(GUri) uri = NULL;
  const char *scheme;
  gsize len;

  g_return_val_if_fail (url != NULL, NULL);

  uri = g_uri_parse (url, G_URI_FLAGS_NONE, NULL);
  scheme = uri != NULL ? g_uri_get_scheme (uri) : NULL;
  if (uri == NULL || scheme == NULL || g_uri_get_host (uri) == NULL ||
      (g_ascii_strcasecmp (scheme, "http") != 0 && g_ascii_strcasecmp (scheme, "https") != 0))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "“%s” is not a Qdrant URL (http://host:6333 or https://host:6333)", url);
      return NULL;
    }

  self = g_object_new (LODE_TYPE_QDRANT_CLIENT, NULL);
  self->url = g_strdup (url);
  len = strlen (self->url);
  while (len > 0 && self->url[len - 1] == '/')
    self->url[--len] = '\0';
  if (api_key != NULL && *api_key != '\0')
    self->api_key = g_strdup (api_key);

  return g_steal_pointer (&self);
}

/**
 * lode_qdrant_client_set_ca_file:
 * @self: a #LodeQdrantClient
 * @filename: a PEM file of certificate authorities to trust besides the system's (a private
 *   CA of a self-hosted cluster)
 * @error: return location for a #GError
 *
 * Returns: whether the file could be read
 */
gboolean
lode_qdrant_client_set_ca_file (LodeQdrantClient  *self,
                                const char        *filename,
                                GError           **error)
{
  GList *list;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (filename != NULL, FALSE);

  list = g_tls_certificate_list_new_from_file (filename, error);
  if (list == NULL)
    {
      if (error != NULL && *error == NULL)
        g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                     "%s holds no certificate", filename);
      g_prefix_error (error, "Cannot read the Qdrant CA file: ");
      return FALSE;
    }

  g_list_free_full (self->ca_certificates, g_object_unref);
  self->ca_certificates = list;
  return TRUE;
}

/**
 * lode_qdrant_client_set_timeout:
 * @self: a #LodeQdrantClient
 * @seconds: how long one request may take, 0 for no limit
 */
void
lode_qdrant_client_set_timeout (LodeQdrantClient *self,
                                guint             seconds)
{
  g_return_if_fail (LODE_IS_QDRANT_CLIENT (self));

  self->timeout_seconds = seconds;
}

/**
 * lode_qdrant_client_set_retry:
 * @self: a #LodeQdrantClient
 * @max_retries: how often a request is sent again after 429, 502, 503, 504, a timeout or a
 *   lost connection
 * @base_delay_msec: the first pause when the server names none; it doubles each time
 */
void
lode_qdrant_client_set_retry (LodeQdrantClient *self,
                              guint             max_retries,
                              guint             base_delay_msec)
{
  g_return_if_fail (LODE_IS_QDRANT_CLIENT (self));

  self->max_retries = max_retries;
  self->retry_delay_msec = base_delay_msec;
}

/**
 * lode_qdrant_client_set_max_request_bytes:
 * @self: a #LodeQdrantClient
 * @max_bytes: the largest upsert body to send (the server's `max_request_size_mb` or less)
 */
void
lode_qdrant_client_set_max_request_bytes (LodeQdrantClient *self,
                                          gsize             max_bytes)
{
  g_return_if_fail (LODE_IS_QDRANT_CLIENT (self));
  g_return_if_fail (max_bytes >= 1024);

  self->max_request_bytes = max_bytes;
}

const char *
lode_qdrant_client_get_url (LodeQdrantClient *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  return self->url;
}

/**
 * lode_qdrant_client_get_server_version:
 * @self: a #LodeQdrantClient
 *
 * Returns: (nullable): the version the server reported to lode_qdrant_client_connect()
 */
const char *
lode_qdrant_client_get_server_version (LodeQdrantClient *self)
{
  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  return self->server_version;
}

/* ---- one request ----------------------------------------------------------------------- */

/* What one request of the client asks, for each attempt. */
typedef struct
{
  LodeQdrantClient *client;
  const char       *method;
  const char       *uri;
  GBytes           *body;
} Attempt;

/* How it ended, once every attempt it was worth was made. */
typedef struct
{
  GBytes       *body;
  LodeHttpEnd   end;       /* its message held by the exchange */
  GError       *error;
  gboolean      done;
} Exchange;

static void
exchange_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  Exchange *exchange = user_data;

  exchange->body = _lode_http_request_finish (result, &exchange->end, &exchange->error);
  if (exchange->end.message != NULL)
    g_object_ref (exchange->end.message);
  exchange->done = TRUE;
}

/* A certificate the system does not trust is accepted when one of the configured CAs
 * verifies it for the host asked for. */
static gboolean
accept_certificate_cb (SoupMessage          *message,
                       GTlsCertificate      *peer,
                       GTlsCertificateFlags  errors,
                       gpointer              user_data)
{
  LodeQdrantClient *self = user_data;
  GUri *uri = soup_message_get_uri (message);
  g_autoptr(GSocketConnectable) identity = NULL;

  identity = g_network_address_new (g_uri_get_host (uri), (guint16) MAX (g_uri_get_port (uri), 0));
  for (GList *l = self->ca_certificates; l != NULL; l = l->next)
    if (g_tls_certificate_verify (peer, identity, l->data) == 0)
      return TRUE;

  return FALSE;
}

/* libsoup sends an idempotent request (PUT) again by itself when a kept-alive connection
 * turns out to be closed, but without its body (libsoup 3.2: the body stream was consumed);
 * the loopback server's validation caught the empty upsert. Setting the body again on
 * "restarted" sends it whole. */
static void
restarted_cb (SoupMessage *message,
              gpointer     user_data)
{
  GBytes *body = user_data;

  soup_message_set_request_body_from_bytes (message, "application/json", body);
}

/* Qdrant's errors carry {"status": {"error": "…"}}; anything else shows its start. */
static char *
dup_error_detail (GBytes *body)
{
  gsize size = 0;
  const char *text = body != NULL ? g_bytes_get_data (body, &size) : NULL;
  g_autoptr(JsonNode) root = NULL;
  g_autofree char *detail = NULL;

  if (text == NULL || size == 0)
    return NULL;

  root = lode_json_parse (text, size, NULL);
  if (root != NULL)
    {
      JsonObject *object = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
      JsonNode *status = object != NULL ? json_object_get_member (object, "status") : NULL;

      if (status != NULL && JSON_NODE_HOLDS_OBJECT (status))
        {
          JsonObject *fields = json_node_get_object (status);

          detail = g_strdup (json_object_get_string_member_with_default (fields, "error", NULL));
        }
    }

  if (detail == NULL)
    detail = g_utf8_make_valid (text, MIN (size, 200));
  if (g_utf8_strlen (detail, -1) > 300)
    *g_utf8_offset_to_pointer (detail, 300) = '\0';

  return g_steal_pointer (&detail);
}

static void
redact (LodeQdrantClient *self,
        GError           *error)
{
  g_autoptr(GString) text = NULL;

  if (error == NULL || self->api_key == NULL || strstr (error->message, self->api_key) == NULL)
    return;

  text = g_string_new (error->message);
  g_string_replace (text, self->api_key, "[redacted]", 0);
  g_free (error->message);
  error->message = g_string_free (g_steal_pointer (&text), FALSE);
}

/* Whether @method on @path changes what the server keeps: reads are GETs and the POSTs that
 * query, scroll or count points. */
static gboolean
request_writes (const char *method,
                const char *path)
{
  if (strcmp (method, "GET") == 0)
    return FALSE;
  return strcmp (method, "POST") != 0 ||
         !(g_str_has_suffix (path, "/points/query") || g_str_has_suffix (path, "/points/scroll") ||
           g_str_has_suffix (path, "/points/count") || g_str_has_suffix (path, "/points/search"));
}

/* The request of one attempt. */
static SoupMessage *
new_message (gpointer   user_data,
             GError   **error)
{
  Attempt *attempt = user_data;
  LodeQdrantClient *self = attempt->client;
  SoupMessage *message = soup_message_new (attempt->method, attempt->uri);

  if (message == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Qdrant: “%s” is not a valid request URL", attempt->uri);
      return NULL;
    }

  if (self->api_key != NULL)
    soup_message_headers_replace (soup_message_get_request_headers (message), "api-key",
                                  self->api_key);
  if (attempt->body != NULL)
    {
      soup_message_set_request_body_from_bytes (message, "application/json", attempt->body);
      g_signal_connect (message, "restarted", G_CALLBACK (restarted_cb), attempt->body);
    }
  if (self->ca_certificates != NULL)
    g_signal_connect (message, "accept-certificate", G_CALLBACK (accept_certificate_cb), self);

  return message;
}

/* The failure behind an answer of a status worth another try, for messages. */
static char *
dup_status_failure (SoupMessage *message,
                    GBytes      *body)
{
  g_autofree char *detail = dup_error_detail (body);

  return g_strdup_printf ("HTTP %u %s%s%s", soup_message_get_status (message),
                          soup_message_get_reason_phrase (message),
                          detail != NULL ? ": " : "", detail != NULL ? detail : "");
}

/* Sends @body (NULL for none) and returns the answer's JSON root. Retries what a busy or
 * restarting cluster answers (429, 502, 503, 504), timeouts and lost connections, with the
 * server's Retry-After or an exponential backoff (reads fewer times than writes); every
 * request Lode sends is idempotent (upserts by id, deletes by filter, reads), so sending one
 * again after a connection broke mid-request is safe. Runs on a private main context: it
 * blocks the calling thread. */
static JsonNode *
request (LodeQdrantClient  *self,
         const char        *method,
         const char        *path,
         GBytes            *body,
         GCancellable      *cancellable,
         GError           **error)
{
  g_autoptr(GMainContext) context = g_main_context_new ();
  g_autofree char *uri = g_strconcat (self->url, path, NULL);
  g_autofree char *failure = NULL;
  gboolean writes = request_writes (method, path);
  Attempt attempt = { self, method, uri, body };
  LodeHttpRetry retry = { 0 };
  Exchange exchange = { 0 };
  JsonNode *result = NULL;
  guint status;

  retry.timeout_seconds = self->timeout_seconds;
  retry.max_retries = writes ? self->max_retries : MIN (self->max_retries, MAX_READ_RETRIES);
  retry.base_delay_msec = self->retry_delay_msec;
  retry.max_wait_msec = MAX_RETRY_WAIT_MSEC;
  retry.flags = LODE_HTTP_RETRY_ANY_FAILURE;

  g_debug ("%s %s (%zu bytes)", method, path, body != NULL ? g_bytes_get_size (body) : 0);
  g_main_context_push_thread_default (context);
  _lode_http_request_async (new_message, &attempt, &retry, cancellable, exchange_cb, &exchange);
  while (!exchange.done)
    g_main_context_iteration (context, TRUE);
  g_main_context_pop_thread_default (context);

  status = exchange.end.message != NULL ? soup_message_get_status (exchange.end.message) : 0;
  if (exchange.error != NULL && exchange.error->domain == G_TLS_ERROR)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "Qdrant at %s: the TLS certificate is not trusted (%s); install the "
                   "CA that signed it, or name it in LODE_QDRANT_CA_FILE",
                   self->url, exchange.error->message);
      g_clear_error (&exchange.error);
    }
  else if (exchange.error != NULL && !exchange.end.gave_up)
    g_propagate_error (error, g_steal_pointer (&exchange.error));
  else if (exchange.end.gave_up)
    {
      failure = exchange.error != NULL ? g_strdup (exchange.error->message)
                                       : dup_status_failure (exchange.end.message, exchange.body);
      if (exchange.end.refused_wait_msec >= 0)
        g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                     "Qdrant at %s asks to wait %" G_GINT64_FORMAT " s before %s %s (%s)",
                     self->url, exchange.end.refused_wait_msec / 1000, method, path, failure);
      else
        g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                     "Qdrant at %s did not answer %s %s after %u attempts (%s)%s",
                     self->url, method, path, exchange.end.n_retries + 1, failure,
                     writes ? "; what was written before is kept, and the next run resumes "
                              "from there"
                            : "");
      g_clear_error (&exchange.error);
    }
  else if (SOUP_STATUS_IS_SUCCESSFUL (status))
    {
      gsize size = 0;
      const char *data = g_bytes_get_data (exchange.body, &size);
      g_autoptr(GError) parse_error = NULL;

      /* A server's answer is read as any JSON from outside: bounded in depth. */
      if (size > 0)
        result = lode_json_parse (data, size, &parse_error);
      if (result == NULL)
        g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                     "Qdrant at %s: %s %s answered with invalid JSON%s%s", self->url,
                     method, path, parse_error != NULL ? ": " : "",
                     parse_error != NULL ? parse_error->message : "");
    }
  else
    {
      g_autofree char *detail = dup_error_detail (exchange.body);

      if (status == SOUP_STATUS_UNAUTHORIZED || status == SOUP_STATUS_FORBIDDEN)
        g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                     "Qdrant at %s refused %s (HTTP %u%s%s): store its API key with "
                     "`lode secret set qdrant` or set QDRANT_API_KEY", self->url,
                     self->api_key != NULL ? "the API key" : "a request without an API key",
                     status, detail != NULL ? ": " : "", detail != NULL ? detail : "");
      else
        g_set_error (error, LODE_ERROR,
                     status == SOUP_STATUS_NOT_FOUND ? LODE_ERROR_NOT_FOUND
                                                     : LODE_ERROR_STORE,
                     "Qdrant at %s: %s %s: HTTP %u %s%s%s", self->url, method, path,
                     status, soup_message_get_reason_phrase (exchange.end.message),
                     detail != NULL ? ": " : "", detail != NULL ? detail : "");
    }

  g_clear_pointer (&exchange.body, g_bytes_unref);
  g_clear_object (&exchange.end.message);
  if (result == NULL && error != NULL)
    redact (self, *error);
  return result;
}

static GBytes *
node_to_bytes (JsonNode *node)
{
  gsize len = 0;
  char *text;

  if (node == NULL)
    return NULL;
  text = lode_json_to_string (node, FALSE);
  len = strlen (text);
  return g_bytes_new_take (text, len);
}

/* The "result" member of a Qdrant answer. */
static JsonNode *
take_result (LodeQdrantClient  *self,
             JsonNode          *root,
             const char        *path,
             GError           **error)
{
  JsonNode *member;

  if (root == NULL)
    return NULL;

  member = JSON_NODE_HOLDS_OBJECT (root)
    ? json_object_get_member (json_node_get_object (root), "result") : NULL;
  if (member == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "Qdrant at %s: the answer to %s has no \"result\"", self->url, path);
      json_node_unref (root);
      return NULL;
    }

  member = json_node_copy (member);
  json_node_unref (root);
  return member;
}

/* request() of @body as it is, and the answer's "result" (lode_qdrant_client_call() with the
 * body already written). */
JsonNode *
_lode_qdrant_client_send (LodeQdrantClient  *self,
                          const char        *method,
                          const char        *path,
                          GBytes            *body,
                          GCancellable      *cancellable,
                          GError           **error)
{
  return take_result (self, request (self, method, path, body, cancellable, error), path, error);
}

/**
 * lode_qdrant_client_call:
 * @self: a #LodeQdrantClient
 * @method: "GET", "PUT", "POST" or "DELETE"
 * @path: the path, from `/`, with its query string
 * @body: (nullable): the JSON body
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * One request to the API, retried as described for the client. Blocks the calling thread.
 *
 * Returns: (transfer full): the answer's `result`, or %NULL with @error set
 */
JsonNode *
lode_qdrant_client_call (LodeQdrantClient  *self,
                         const char        *method,
                         const char        *path,
                         JsonNode          *body,
                         GCancellable      *cancellable,
                         GError           **error)
{
  g_autoptr(GBytes) bytes = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);
  g_return_val_if_fail (method != NULL && path != NULL && path[0] == '/', NULL);

  bytes = node_to_bytes (body);
  return _lode_qdrant_client_send (self, method, path, bytes, cancellable, error);
}

/* ---- version --------------------------------------------------------------------------- */

static gboolean
parse_version (const char *text,
               guint       parts[3])
{
  const char *p = text;

  if (*p == 'v' || *p == 'V')
    p++;
  for (guint i = 0; i < 3; i++)
    {
      char *end = NULL;
      guint64 value = g_ascii_strtoull (p, &end, 10);

      if (end == p)
        return FALSE;
      parts[i] = (guint) MIN (value, G_MAXUINT);
      p = end;
      if (i < 2)
        {
          if (*p != '.')
            return i >= 1;
          p++;
        }
    }

  return TRUE;
}

/**
 * lode_qdrant_client_connect:
 * @self: a #LodeQdrantClient
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Asks the server who it is (`GET /`) and checks that it is Qdrant
 * %LODE_QDRANT_MIN_VERSION or later; the error names the version found, the one needed, or
 * what failed (address, TLS, key).
 *
 * Returns: whether Lode can use the server
 */
gboolean
lode_qdrant_client_connect (LodeQdrantClient  *self,
                            GCancellable      *cancellable,
                            GError           **error)
{
  g_autoptr(JsonNode) root = NULL;
  JsonObject *object;
  const char *title;
  const char *version;
  guint have[3] = { 0 };
  guint need[3] = { 0 };

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  root = request (self, "GET", "/", NULL, cancellable, error);
  if (root == NULL)
    return FALSE;

  object = JSON_NODE_HOLDS_OBJECT (root) ? json_node_get_object (root) : NULL;
  title = object != NULL
    ? json_object_get_string_member_with_default (object, "title", NULL) : NULL;
  version = object != NULL
    ? json_object_get_string_member_with_default (object, "version", NULL) : NULL;
  if (title == NULL || strstr (title, "qdrant") == NULL || version == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "%s does not answer like a Qdrant server (GET / gave no Qdrant title and "
                   "version)", self->url);
      return FALSE;
    }

  g_assert (parse_version (LODE_QDRANT_MIN_VERSION, need));
  if (!parse_version (version, have))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                   "Qdrant at %s reports version “%s”, which Lode cannot read; Lode needs "
                   "Qdrant %s or later", self->url, version, LODE_QDRANT_MIN_VERSION);
      return FALSE;
    }
  for (guint i = 0; i < 3; i++)
    {
      if (have[i] > need[i])
        break;
      if (have[i] < need[i])
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_UNSUPPORTED,
                       "Qdrant at %s is version %s; Lode needs Qdrant %s or later (hybrid "
                       "queries fuse their legs with {\"rrf\": {\"k\": 60}})", self->url,
                       version, LODE_QDRANT_MIN_VERSION);
          return FALSE;
        }
    }

  g_free (self->server_version);
  self->server_version = g_strdup (version);
  return TRUE;
}
