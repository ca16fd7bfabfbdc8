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
#include "lode-qdrant-client.h"

#define DEFAULT_TIMEOUT_SECONDS   60
#define DEFAULT_MAX_RETRIES       6
#define DEFAULT_RETRY_DELAY_MSEC  500
/* A read (a search, a scroll, a count) is sent again at most this often: someone is waiting
 * for its answer, and nothing is lost when it fails. */
#define MAX_READ_RETRIES          2
/* A server that asks for a longer pause than this gets an error instead of a wait. */
#define MAX_RETRY_WAIT_MSEC       (2 * 60 * 1000)
/* Points per upsert request, whatever their size: Qdrant applies a request as one operation,
 * and smaller ones keep a retry cheap. */
#define MAX_BATCH_POINTS          256
#define SCROLL_PAGE               256
/* Lode's RRF constant (docs/architecture.md, "Fusion"): Qdrant's formula
 * 1 / (position + k) with 0-based positions equals 1 / (60 + rank) for 1-based ranks at
 * k = 60. */
#define RRF_K                     60

struct _LodeQdrantClient
{
  GObject  parent_instance;

  char    *url;               /* without a trailing slash */
  char    *api_key;
  GList   *ca_certificates;   /* GTlsCertificate, trusted besides the system's */
  char    *server_version;
  guint    timeout_seconds;
  guint    max_retries;
  guint    retry_delay_msec;
  gsize    max_request_bytes;
};

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
  return take_result (self, request (self, method, path, bytes, cancellable, error), path, error);
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

/* ---- collections ----------------------------------------------------------------------- */

static char *
collection_path (const char *collection,
                 const char *suffix)
{
  g_autofree char *escaped = g_uri_escape_string (collection, NULL, FALSE);

  return g_strconcat ("/collections/", escaped, suffix, NULL);
}

gboolean
lode_qdrant_client_collection_exists (LodeQdrantClient  *self,
                                      const char        *collection,
                                      gboolean          *exists,
                                      GCancellable      *cancellable,
                                      GError           **error)
{
  g_autofree char *path = collection_path (collection, "/exists");
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  result = lode_qdrant_client_call (self, "GET", path, NULL, cancellable, error);
  if (result == NULL)
    return FALSE;
  if (!JSON_NODE_HOLDS_OBJECT (result))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: %s gave no object",
                   self->url, path);
      return FALSE;
    }
  *exists = json_object_get_boolean_member_with_default (json_node_get_object (result), "exists",
                                                         FALSE);
  return TRUE;
}

/**
 * lode_qdrant_client_create_collection:
 * @self: a #LodeQdrantClient
 * @collection: its name
 * @spec: vectors, shards and replicas
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Creates the collection unless it exists (a retried request whose first answer was lost
 * finds it made).
 *
 * Returns: whether the collection exists now
 */
/* The code's BM25 and the context artifacts' (lode-qdrant-store.c), each with its own IDF. */
static const char * const sparse_vectors[] = { "bm25", "artifact_bm25" };

gboolean
lode_qdrant_client_create_collection (LodeQdrantClient                *self,
                                      const char                      *collection,
                                      const LodeQdrantCollectionSpec  *spec,
                                      GCancellable                    *cancellable,
                                      GError                         **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;
  g_autofree char *path = collection_path (collection, "");
  g_autoptr(GError) local_error = NULL;
  gboolean exists = FALSE;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (spec != NULL, FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "vectors");
  json_builder_begin_object (builder);
  if (spec->dims > 0)
    {
      json_builder_set_member_name (builder, "dense");
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "size");
      json_builder_add_int_value (builder, spec->dims);
      json_builder_set_member_name (builder, "distance");
      json_builder_add_string_value (builder, "Cosine");
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "sparse_vectors");
  json_builder_begin_object (builder);
  for (guint i = 0; i < G_N_ELEMENTS (sparse_vectors); i++)
    {
      json_builder_set_member_name (builder, sparse_vectors[i]);
      json_builder_begin_object (builder);
      json_builder_set_member_name (builder, "modifier");
      json_builder_add_string_value (builder, "idf");
      json_builder_end_object (builder);
    }
  json_builder_end_object (builder);
  if (spec->shard_number > 0)
    {
      json_builder_set_member_name (builder, "shard_number");
      json_builder_add_int_value (builder, spec->shard_number);
    }
  if (spec->replication_factor > 0)
    {
      json_builder_set_member_name (builder, "replication_factor");
      json_builder_add_int_value (builder, spec->replication_factor);
    }
  if (spec->write_consistency_factor > 0)
    {
      json_builder_set_member_name (builder, "write_consistency_factor");
      json_builder_add_int_value (builder, spec->write_consistency_factor);
    }
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  result = lode_qdrant_client_call (self, "PUT", path, body, cancellable, &local_error);
  if (result != NULL)
    return TRUE;

  /* Lost answer, or another machine made it meanwhile: both leave the collection there. */
  if (lode_qdrant_client_collection_exists (self, collection, &exists, cancellable, NULL) &&
      exists)
    return TRUE;

  g_propagate_prefixed_error (error, g_steal_pointer (&local_error),
                              "Cannot create the Qdrant collection %s: ", collection);
  return FALSE;
}

gboolean
lode_qdrant_client_delete_collection (LodeQdrantClient  *self,
                                      const char        *collection,
                                      GCancellable      *cancellable,
                                      GError           **error)
{
  g_autofree char *path = collection_path (collection, "");
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  result = lode_qdrant_client_call (self, "DELETE", path, NULL, cancellable, error);
  return result != NULL;
}

/**
 * lode_qdrant_client_list_collections:
 * @self: a #LodeQdrantClient
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer full): the names of the server's collections, sorted
 */
GStrv
lode_qdrant_client_list_collections (LodeQdrantClient  *self,
                                     GCancellable      *cancellable,
                                     GError           **error)
{
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GStrvBuilder) names = g_strv_builder_new ();
  JsonNode *list;
  GStrv strv;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  result = lode_qdrant_client_call (self, "GET", "/collections", NULL, cancellable, error);
  if (result == NULL)
    return NULL;

  list = JSON_NODE_HOLDS_OBJECT (result)
    ? json_object_get_member (json_node_get_object (result), "collections") : NULL;
  if (list != NULL && JSON_NODE_HOLDS_ARRAY (list))
    {
      JsonArray *array = json_node_get_array (list);

      for (guint i = 0; i < json_array_get_length (array); i++)
        {
          JsonNode *item = json_array_get_element (array, i);

          if (JSON_NODE_HOLDS_OBJECT (item))
            {
              JsonObject *description = json_node_get_object (item);
              const char *name = json_object_get_string_member_with_default (description, "name",
                                                                              NULL);
              if (name != NULL)
                g_strv_builder_add (names, name);
            }
        }
    }

  strv = g_strv_builder_end (names);
  qsort (strv, g_strv_length (strv), sizeof (char *), (GCompareFunc) (void (*) (void)) g_strcmp0);
  return strv;
}

/**
 * lode_qdrant_client_list_aliases:
 * @self: a #LodeQdrantClient
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (element-type utf8 utf8): every alias of the server, mapped to the
 *   collection it names
 */
GHashTable *
lode_qdrant_client_list_aliases (LodeQdrantClient  *self,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  g_autoptr(JsonNode) result = NULL;
  g_autoptr(GHashTable) aliases = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  JsonNode *list;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  result = lode_qdrant_client_call (self, "GET", "/aliases", NULL, cancellable, error);
  if (result == NULL)
    return NULL;

  list = JSON_NODE_HOLDS_OBJECT (result)
    ? json_object_get_member (json_node_get_object (result), "aliases") : NULL;
  if (list == NULL || !JSON_NODE_HOLDS_ARRAY (list))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: /aliases gave no list",
                   self->url);
      return NULL;
    }
  for (guint i = 0; i < json_array_get_length (json_node_get_array (list)); i++)
    {
      JsonNode *item = json_array_get_element (json_node_get_array (list), i);
      const char *alias = NULL;
      const char *collection = NULL;

      if (JSON_NODE_HOLDS_OBJECT (item))
        {
          alias = json_object_get_string_member_with_default (json_node_get_object (item),
                                                              "alias_name", NULL);
          collection = json_object_get_string_member_with_default (json_node_get_object (item),
                                                                   "collection_name", NULL);
        }
      if (alias != NULL && collection != NULL)
        g_hash_table_replace (aliases, g_strdup (alias), g_strdup (collection));
    }

  return g_steal_pointer (&aliases);
}

/**
 * lode_qdrant_client_switch_alias:
 * @self: a #LodeQdrantClient
 * @alias: an alias, existing or not
 * @collection: the collection @alias is to name
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Points @alias at @collection in one request (`delete_alias` then `create_alias`), which
 * Qdrant applies under one lock: every other request sees the collection @alias named before
 * or @collection, never neither. Qdrant refuses it when a collection is named @alias.
 *
 * Returns: %TRUE on success
 */
gboolean
lode_qdrant_client_switch_alias (LodeQdrantClient  *self,
                                 const char        *alias,
                                 const char        *collection,
                                 GCancellable      *cancellable,
                                 GError           **error)
{
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (alias != NULL && collection != NULL, FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "actions");
  json_builder_begin_array (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "delete_alias");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "alias_name");
  json_builder_add_string_value (builder, alias);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "create_alias");
  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "collection_name");
  json_builder_add_string_value (builder, collection);
  json_builder_set_member_name (builder, "alias_name");
  json_builder_add_string_value (builder, alias);
  json_builder_end_object (builder);
  json_builder_end_object (builder);
  json_builder_end_array (builder);
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  result = lode_qdrant_client_call (self, "POST", "/collections/aliases", body, cancellable,
                                    error);
  if (result == NULL)
    {
      g_prefix_error (error, "Cannot point the Qdrant alias %s at %s: ", alias, collection);
      return FALSE;
    }
  return TRUE;
}

gboolean
lode_qdrant_client_create_payload_index (LodeQdrantClient  *self,
                                         const char        *collection,
                                         const char        *field,
                                         const char        *type,
                                         GCancellable      *cancellable,
                                         GError           **error)
{
  g_autofree char *path = collection_path (collection, "/index?wait=true");
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) body = NULL;
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "field_name");
  json_builder_add_string_value (builder, field);
  json_builder_set_member_name (builder, "field_schema");
  json_builder_add_string_value (builder, type);
  json_builder_end_object (builder);
  body = json_builder_get_root (builder);

  result = lode_qdrant_client_call (self, "PUT", path, body, cancellable, error);
  return result != NULL;
}

/* ---- points ---------------------------------------------------------------------------- */

static JsonNode *id_node (const char *id);

static GPtrArray *
hits_new (void)
{
  return g_ptr_array_new_with_free_func ((GDestroyNotify) lode_qdrant_hit_free);
}

static gboolean
send_points (LodeQdrantClient  *self,
             const char        *path,
             GString           *batch,
             GCancellable      *cancellable,
             GError           **error)
{
  g_autoptr(GBytes) bytes = NULL;
  g_autoptr(JsonNode) result = NULL;

  g_string_append (batch, "]}");
  bytes = g_bytes_new (batch->str, batch->len);
  result = take_result (self, request (self, "PUT", path, bytes, cancellable, error), path, error);
  g_string_assign (batch, "{\"points\":[");
  return result != NULL;
}

/**
 * lode_qdrant_client_upsert:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @points: (element-type JsonNode): points (`{"id", "vector", "payload"}` objects)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Writes @points in requests of at most %MAX_BATCH_POINTS points and the client's request
 * size, each acknowledged only once applied (`wait=true`). A failure leaves the requests
 * before it written: upserts by id can be sent again.
 *
 * Returns: whether every point was written
 */
gboolean
lode_qdrant_client_upsert (LodeQdrantClient  *self,
                           const char        *collection,
                           GPtrArray         *points,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_autofree char *path = collection_path (collection, "/points?wait=true");
  g_autoptr(GString) batch = g_string_new ("{\"points\":[");
  const gsize overhead = strlen ("{\"points\":[]}");
  guint in_batch = 0;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (points != NULL, FALSE);

  for (guint i = 0; i < points->len; i++)
    {
      g_autofree char *text = lode_json_to_string (g_ptr_array_index (points, i), FALSE);
      gsize len = strlen (text);

      if (len + overhead > self->max_request_bytes)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "A point of %zu bytes does not fit in one request to Qdrant at %s "
                       "(at most %zu bytes)", len, self->url, self->max_request_bytes);
          return FALSE;
        }

      if (in_batch > 0 &&
          (in_batch >= MAX_BATCH_POINTS || batch->len + 1 + len + 2 > self->max_request_bytes))
        {
          if (!send_points (self, path, batch, cancellable, error))
            return FALSE;
          in_batch = 0;
        }

      if (in_batch > 0)
        g_string_append_c (batch, ',');
      g_string_append_len (batch, text, len);
      in_batch++;
    }

  if (in_batch > 0)
    return send_points (self, path, batch, cancellable, error);

  return TRUE;
}

/**
 * lode_qdrant_client_delete:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @filter: the points to delete, a Qdrant filter
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: whether the points are gone
 */
gboolean
lode_qdrant_client_delete (LodeQdrantClient  *self,
                           const char        *collection,
                           JsonNode          *filter,
                           GCancellable      *cancellable,
                           GError           **error)
{
  g_autofree char *path = collection_path (collection, "/points/delete?wait=true");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);
  g_return_val_if_fail (filter != NULL, FALSE);

  json_object_set_member (object, "filter", json_node_copy (filter));
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  return result != NULL;
}

/**
 * lode_qdrant_client_update_vectors:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @points: (element-type JsonNode): `{"id", "vector"}` objects
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Sets the named vectors given of existing points, leaving their payload and other vectors.
 *
 * Returns: whether every point was updated
 */
gboolean
lode_qdrant_client_update_vectors (LodeQdrantClient  *self,
                                   const char        *collection,
                                   GPtrArray         *points,
                                   GCancellable      *cancellable,
                                   GError           **error)
{
  g_autofree char *path = collection_path (collection, "/points/vectors?wait=true");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;
  JsonArray *array = json_array_sized_new (points->len);

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  for (guint i = 0; i < points->len; i++)
    json_array_add_element (array, json_node_copy (g_ptr_array_index (points, i)));
  json_object_set_array_member (object, "points", array);
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "PUT", path, body, cancellable, error);
  return result != NULL;
}

/**
 * lode_qdrant_client_set_payload:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @filter: the points
 * @payload: the fields to set (others are kept)
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: whether the payload is set
 */
gboolean
lode_qdrant_client_set_payload (LodeQdrantClient  *self,
                                const char        *collection,
                                JsonNode          *filter,
                                JsonObject        *payload,
                                GCancellable      *cancellable,
                                GError           **error)
{
  g_autofree char *path = collection_path (collection, "/points/payload?wait=true");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  json_object_set_object_member (object, "payload", json_object_ref (payload));
  json_object_set_member (object, "filter", json_node_copy (filter));
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  return result != NULL;
}

gboolean
lode_qdrant_client_count (LodeQdrantClient  *self,
                          const char        *collection,
                          JsonNode          *filter,
                          guint64           *count,
                          GCancellable      *cancellable,
                          GError           **error)
{
  g_autofree char *path = collection_path (collection, "/points/count");
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), FALSE);

  if (filter != NULL)
    json_object_set_member (object, "filter", json_node_copy (filter));
  json_object_set_boolean_member (object, "exact", TRUE);
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  if (result == NULL)
    return FALSE;

  *count = JSON_NODE_HOLDS_OBJECT (result)
    ? (guint64) json_object_get_int_member_with_default (json_node_get_object (result), "count", 0)
    : 0;
  return TRUE;
}

static JsonNode *
payload_selector (const char * const *fields)
{
  JsonNode *node;

  if (fields == NULL)
    {
      node = json_node_new (JSON_NODE_VALUE);
      json_node_set_boolean (node, TRUE);
      return node;
    }

  node = json_node_new (JSON_NODE_ARRAY);
  json_node_take_array (node, json_array_new ());
  for (guint i = 0; fields[i] != NULL; i++)
    json_array_add_string_element (json_node_get_array (node), fields[i]);
  return node;
}

static JsonNode *
id_node (const char *id)
{
  JsonNode *node = json_node_new (JSON_NODE_VALUE);
  guint64 number;

  if (g_ascii_string_to_unsigned (id, 10, 0, G_MAXINT64, &number, NULL))
    json_node_set_int (node, (gint64) number);
  else
    json_node_set_string (node, id);
  return node;
}

static char *
dup_id (JsonNode *node)
{
  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node))
    return NULL;
  if (json_node_get_value_type (node) == G_TYPE_STRING)
    return g_strdup (json_node_get_string (node));
  return g_strdup_printf ("%" G_GINT64_FORMAT, json_node_get_int (node));
}

/* Reads Qdrant's points ({"id", "score"?, "payload"?}) into LodeQdrantHit. */
static gboolean
read_points (LodeQdrantClient  *self,
             JsonArray         *array,
             GPtrArray         *hits,
             GError           **error)
{
  for (guint i = 0; i < json_array_get_length (array); i++)
    {
      JsonNode *item = json_array_get_element (array, i);
      JsonObject *object;
      JsonNode *payload;
      LodeQdrantHit *hit;

      if (!JSON_NODE_HOLDS_OBJECT (item))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "Qdrant at %s answered with a point that is not an object", self->url);
          return FALSE;
        }
      object = json_node_get_object (item);
      hit = g_new0 (LodeQdrantHit, 1);
      hit->id = dup_id (json_object_get_member (object, "id"));
      hit->score = json_object_get_double_member_with_default (object, "score", 0.0);
      payload = json_object_get_member (object, "payload");
      if (payload != NULL && JSON_NODE_HOLDS_OBJECT (payload))
        hit->payload = json_object_ref (json_node_get_object (payload));
      g_ptr_array_add (hits, hit);
      if (hit->id == NULL)
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "Qdrant at %s answered with a point without an id", self->url);
          return FALSE;
        }
    }

  return TRUE;
}

/**
 * lode_qdrant_client_scroll:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @filter: (nullable): which points
 * @fields: (nullable) (array zero-terminated=1): the payload fields to return, %NULL for all
 * @start_id: (nullable): the first point id to read (Qdrant orders integer ids before UUIDs)
 * @limit: at most this many points, 0 for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * The points @filter selects, in id order, page by page.
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the points
 */
GPtrArray *
lode_qdrant_client_scroll (LodeQdrantClient    *self,
                           const char          *collection,
                           JsonNode            *filter,
                           const char * const  *fields,
                           const char          *start_id,
                           guint                limit,
                           GCancellable        *cancellable,
                           GError             **error)
{
  g_autofree char *path = collection_path (collection, "/points/scroll");
  g_autoptr(GPtrArray) hits = hits_new ();
  g_autoptr(JsonNode) offset = start_id != NULL ? id_node (start_id) : NULL;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  while (limit == 0 || hits->len < limit)
    {
      g_autoptr(JsonObject) object = json_object_new ();
      g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
      g_autoptr(JsonNode) result = NULL;
      JsonNode *points;
      JsonNode *next;

      if (filter != NULL)
        json_object_set_member (object, "filter", json_node_copy (filter));
      json_object_set_int_member (object, "limit", limit > 0 ? MIN (SCROLL_PAGE, limit - hits->len)
                                                              : SCROLL_PAGE);
      json_object_set_member (object, "with_payload", payload_selector (fields));
      json_object_set_boolean_member (object, "with_vector", FALSE);
      if (offset != NULL)
        json_object_set_member (object, "offset", json_node_copy (offset));
      json_node_set_object (body, object);

      result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
      if (result == NULL)
        return NULL;

      points = JSON_NODE_HOLDS_OBJECT (result)
        ? json_object_get_member (json_node_get_object (result), "points") : NULL;
      if (points == NULL || !JSON_NODE_HOLDS_ARRAY (points))
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_STORE,
                       "Qdrant at %s: %s gave no points", self->url, path);
          return NULL;
        }
      if (!read_points (self, json_node_get_array (points), hits, error))
        return NULL;

      next = json_object_get_member (json_node_get_object (result), "next_page_offset");
      g_clear_pointer (&offset, json_node_unref);
      if (next == NULL || JSON_NODE_HOLDS_NULL (next))
        break;
      offset = json_node_copy (next);
    }

  return g_steal_pointer (&hits);
}

/**
 * lode_qdrant_client_retrieve:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @ids: (array length=n_ids): point ids (decimal integers or UUIDs)
 * @n_ids: how many
 * @fields: (nullable) (array zero-terminated=1): payload fields, %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the points that exist
 */
GPtrArray *
lode_qdrant_client_retrieve (LodeQdrantClient    *self,
                             const char          *collection,
                             const char * const  *ids,
                             guint                n_ids,
                             const char * const  *fields,
                             GCancellable        *cancellable,
                             GError             **error)
{
  g_autofree char *path = collection_path (collection, "/points");
  g_autoptr(GPtrArray) hits = hits_new ();
  g_autoptr(JsonObject) object = json_object_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;
  JsonArray *array = json_array_new ();

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);

  for (guint i = 0; i < n_ids; i++)
    json_array_add_element (array, id_node (ids[i]));
  json_object_set_array_member (object, "ids", array);
  json_object_set_member (object, "with_payload", payload_selector (fields));
  json_object_set_boolean_member (object, "with_vector", FALSE);
  json_node_set_object (body, object);

  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  if (result == NULL)
    return NULL;
  if (!JSON_NODE_HOLDS_ARRAY (result))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: %s gave no list",
                   self->url, path);
      return NULL;
    }
  if (!read_points (self, json_node_get_array (result), hits, error))
    return NULL;

  return g_steal_pointer (&hits);
}

static JsonNode *
dense_node (const float *dense,
            guint        dims)
{
  JsonNode *node = json_node_new (JSON_NODE_ARRAY);
  JsonArray *array = json_array_sized_new (dims);

  for (guint i = 0; i < dims; i++)
    json_array_add_double_element (array, dense[i]);
  json_node_take_array (node, array);
  return node;
}

/**
 * lode_qdrant_sparse_node:
 * @sparse: a sparse vector
 *
 * Returns: (transfer full): @sparse as Qdrant writes one, `{"indices", "values"}`
 */
JsonNode *
lode_qdrant_sparse_node (const LodeSparseVector *sparse)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *object = json_object_new ();
  JsonArray *indices = json_array_sized_new (sparse->len);
  JsonArray *values = json_array_sized_new (sparse->len);

  for (guint i = 0; i < sparse->len; i++)
    {
      json_array_add_int_element (indices, sparse->indices[i]);
      json_array_add_double_element (values, sparse->values[i]);
    }
  json_object_set_array_member (object, "indices", indices);
  json_object_set_array_member (object, "values", values);
  json_node_take_object (node, object);
  return node;
}

/* One leg: {"query", "using", "limit", "filter"?}. */
static JsonObject *
leg_object (const char  *using,
            JsonNode    *query,
            JsonNode    *filter,
            guint        limit)
{
  JsonObject *object = json_object_new ();

  json_object_set_member (object, "query", query);
  json_object_set_string_member (object, "using", using);
  json_object_set_int_member (object, "limit", limit);
  if (filter != NULL)
    json_object_set_member (object, "filter", json_node_copy (filter));
  return object;
}

static GPtrArray *
run_query (LodeQdrantClient    *self,
           const char          *collection,
           JsonObject          *object,
           const char * const  *fields,
           GCancellable        *cancellable,
           GError             **error)
{
  g_autofree char *path = collection_path (collection, "/points/query");
  g_autoptr(GPtrArray) hits = hits_new ();
  g_autoptr(JsonNode) body = json_node_new (JSON_NODE_OBJECT);
  g_autoptr(JsonNode) result = NULL;
  JsonNode *points;

  json_object_set_member (object, "with_payload", payload_selector (fields));
  json_node_set_object (body, object);
  result = lode_qdrant_client_call (self, "POST", path, body, cancellable, error);
  if (result == NULL)
    return NULL;

  points = JSON_NODE_HOLDS_OBJECT (result)
    ? json_object_get_member (json_node_get_object (result), "points") : NULL;
  if (points == NULL || !JSON_NODE_HOLDS_ARRAY (points))
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_STORE, "Qdrant at %s: %s gave no points",
                   self->url, path);
      return NULL;
    }
  if (!read_points (self, json_node_get_array (points), hits, error))
    return NULL;

  return g_steal_pointer (&hits);
}

/**
 * lode_qdrant_client_query:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @using: the vector to search: "dense", "bm25" or "artifact_bm25"
 * @dense: (nullable) (array length=dims): the dense query vector
 * @dims: its size
 * @sparse: (nullable): the sparse query vector, when @using names a sparse vector
 * @filter: (nullable): which points may be found
 * @limit: how many
 * @fields: (nullable) (array zero-terminated=1): payload fields, %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * One leg alone: nearest neighbours of @dense, or the best matches of @sparse (with the
 * server's IDF).
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the points, best first
 */
GPtrArray *
lode_qdrant_client_query (LodeQdrantClient        *self,
                          const char              *collection,
                          const char              *using,
                          const float             *dense,
                          guint                    dims,
                          const LodeSparseVector  *sparse,
                          JsonNode                *filter,
                          guint                    limit,
                          const char * const      *fields,
                          GCancellable            *cancellable,
                          GError                 **error)
{
  JsonObject *object;

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);
  g_return_val_if_fail ((dense != NULL) != (sparse != NULL), NULL);

  object = leg_object (using,
                       dense != NULL ? dense_node (dense, dims) : lode_qdrant_sparse_node (sparse),
                       filter, MAX (limit, 1));
  return run_query (self, collection, object, fields, cancellable, error);
}

/**
 * lode_qdrant_client_query_hybrid:
 * @self: a #LodeQdrantClient
 * @collection: the collection
 * @dense: (array length=dims): the dense query vector
 * @dims: its size
 * @sparse: the sparse query vector
 * @filter: (nullable): which points may be found, applied to both legs
 * @dense_filter: (nullable): what the dense leg also requires (the model of its vectors)
 * @candidates: how many points each leg brings to the fusion
 * @limit: how many fused points to return
 * @fields: (nullable) (array zero-terminated=1): payload fields, %NULL for all
 * @cancellable: (nullable): a #GCancellable
 * @error: return location for a #GError
 *
 * One `query` call: a `bm25` prefetch and a `dense` prefetch, fused on the server with
 * reciprocal rank fusion at Lode's k (60).
 *
 * Returns: (transfer container) (element-type LodeQdrantHit): the fused points, best first
 */
GPtrArray *
lode_qdrant_client_query_hybrid (LodeQdrantClient        *self,
                                 const char              *collection,
                                 const float             *dense,
                                 guint                    dims,
                                 const LodeSparseVector  *sparse,
                                 JsonNode                *filter,
                                 JsonNode                *dense_filter,
                                 guint                    candidates,
                                 guint                    limit,
                                 const char * const      *fields,
                                 GCancellable            *cancellable,
                                 GError                 **error)
{
  JsonObject *object = json_object_new ();
  JsonArray *prefetch = json_array_new ();
  JsonObject *fusion = json_object_new ();
  JsonObject *rrf = json_object_new ();

  g_return_val_if_fail (LODE_IS_QDRANT_CLIENT (self), NULL);
  g_return_val_if_fail (dense != NULL && sparse != NULL, NULL);

  candidates = MAX (candidates, MAX (limit, 1));
  json_array_add_object_element (prefetch, leg_object ("bm25", lode_qdrant_sparse_node (sparse),
                                                       filter, candidates));
  if (dense_filter != NULL)
    {
      g_autoptr(JsonNode) both = NULL;

      both = lode_qdrant_filter_and (filter != NULL ? json_node_copy (filter) : NULL,
                                     json_node_copy (dense_filter));

      json_array_add_object_element (prefetch, leg_object ("dense", dense_node (dense, dims), both,
                                                           candidates));
    }
  else
    json_array_add_object_element (prefetch, leg_object ("dense", dense_node (dense, dims), filter,
                                                         candidates));
  json_object_set_array_member (object, "prefetch", prefetch);
  json_object_set_int_member (rrf, "k", RRF_K);
  json_object_set_object_member (fusion, "rrf", rrf);
  json_object_set_object_member (object, "query", fusion);
  json_object_set_int_member (object, "limit", MAX (limit, 1));

  return run_query (self, collection, object, fields, cancellable, error);
}

/* ---- filters --------------------------------------------------------------------------- */

/**
 * lode_qdrant_filter_match:
 * @key: a payload key
 * @value: the keyword it must hold
 *
 * Returns: (transfer full): `{"must": [{"key": key, "match": {"value": value}}]}`
 */
JsonNode *
lode_qdrant_filter_match (const char *key,
                          const char *value)
{
  return lode_qdrant_filter_match_any (key, &value, 1);
}

/**
 * lode_qdrant_filter_match_any:
 * @key: a payload key
 * @values: (array length=n_values): keywords
 * @n_values: how many
 *
 * Returns: (transfer full): a filter for points whose @key holds one of @values
 */
JsonNode *
lode_qdrant_filter_match_any (const char         *key,
                              const char * const *values,
                              guint               n_values)
{
  JsonNode *node = json_node_new (JSON_NODE_OBJECT);
  JsonObject *filter = json_object_new ();
  JsonArray *must = json_array_new ();
  JsonObject *condition = json_object_new ();
  JsonObject *match = json_object_new ();

  if (n_values == 1)
    json_object_set_string_member (match, "value", values[0]);
  else
    {
      JsonArray *any = json_array_sized_new (n_values);

      for (guint i = 0; i < n_values; i++)
        json_array_add_string_element (any, values[i]);
      json_object_set_array_member (match, "any", any);
    }
  json_object_set_string_member (condition, "key", key);
  json_object_set_object_member (condition, "match", match);
  json_array_add_object_element (must, condition);
  json_object_set_array_member (filter, "must", must);
  json_node_take_object (node, filter);
  return node;
}

/**
 * lode_qdrant_filter_and:
 * @first: (transfer full) (nullable): a filter
 * @second: (transfer full) (nullable): a filter
 *
 * Returns: (transfer full) (nullable): a filter both must pass
 */
JsonNode *
lode_qdrant_filter_and (JsonNode *first,
                        JsonNode *second)
{
  JsonNode *node;
  JsonObject *filter;
  JsonArray *must;

  if (first == NULL)
    return second;
  if (second == NULL)
    return first;

  node = json_node_new (JSON_NODE_OBJECT);
  filter = json_object_new ();
  must = json_array_new ();
  json_array_add_element (must, first);
  json_array_add_element (must, second);
  json_object_set_array_member (filter, "must", must);
  json_node_take_object (node, filter);
  return node;
}
