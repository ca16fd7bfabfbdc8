/* lode-mcp-session.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-mcp"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lode-error.h"
#include "lode-json.h"
#include "lode-mcp-errors.h"
#include "lode-mcp-session.h"
#include "lode-tool-profile.h"

/*
 * The protocol of one client, independent of the transport: the transport hands over each
 * message as text with a tag (its exchange: nothing for stdio, the HTTP request for HTTP)
 * and gets back messages to send, each with the tag of the request it belongs to. Requests
 * run concurrently; tools/call goes through the client (to loded, or to the registry of this
 * process, whose handlers run on worker threads), so the main loop keeps reading (and can
 * cancel).
 */

/* Calls that depend on the default project wait this long at most for the client's roots. */
#define ROOTS_TIMEOUT_MSEC 2000

#define RESOURCE_PREFIX "lode://project/"
#define RESOURCE_SUFFIX "/overview"
#define DEFAULT_PAGE_SIZE 50

static const char * const supported_protocols[] = {
  LODE_MCP_LATEST_PROTOCOL,
  "2025-06-18",
  "2025-03-26",
};

static const char * const log_levels[] = {
  "debug", "info", "notice", "warning", "error", "critical", "alert", "emergency",
};

/* Until a client sets a level, it hears about failures and stopped jobs, not every run. */
#define DEFAULT_LOG_LEVEL 2

typedef struct
{
  LodeMcpSession *session;
  char           *key;
  JsonNode       *id;
  gpointer        tag;
  GCancellable   *cancellable;
  JsonNode       *progress_token;
  char           *uri;
  char           *name;          /* tools/call: the tool */
  JsonObject     *arguments;     /* tools/call: its arguments */
  gboolean        json_text;     /* tools/call: the text is the structured result as JSON */
  double          last_progress;
  guint           progressed : 1;
  guint           cancelled : 1;
} Request;

/* A request held until the client's roots are known. */
typedef struct
{
  char       *method;
  JsonNode   *id;
  JsonObject *params;
  gpointer    tag;
} Deferred;

struct _LodeMcpSession
{
  GObject           parent_instance;

  LodeClient       *client;
  LodeToolRegistry *registry;        /* the client's: schemas and names */
  const LodeToolProfile *profile;    /* the tool names and arguments clients see */
  LodeMcpSendFunc   send;
  gpointer          send_data;

  GHashTable       *requests;        /* id as JSON text → Request, while in flight */
  char             *protocol_version;
  char             *default_project; /* the client's first root */
  GStrv             roots;           /* every root of the client that is a local folder */
  char             *roots_request;   /* id of our pending roots/list request */
  GQueue            deferred;        /* Deferred, while roots_request is pending */
  guint             roots_timeout;
  guint             next_request;
  guint             page_size;
  int               log_level;

  guint             initialize_done : 1;
  guint             initialized : 1;
  guint             client_roots : 1;
  guint             server_requests : 1;
  guint             closed : 1;
  guint             input_ended : 1;
  guint             drained : 1;
};

G_DEFINE_FINAL_TYPE (LodeMcpSession, lode_mcp_session, G_TYPE_OBJECT)

enum {
  DRAINED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

/* After the end of input, the last answer out is the session's end. */
static void
maybe_drained (LodeMcpSession *self)
{
  if (!self->input_ended || self->drained || self->closed ||
      g_hash_table_size (self->requests) > 0 || !g_queue_is_empty (&self->deferred))
    return;

  self->drained = TRUE;
  g_signal_emit (self, signals [DRAINED], 0);
}

static void
request_free (Request *request)
{
  g_autoptr(LodeMcpSession) self = g_steal_pointer (&request->session);

  g_clear_object (&request->cancellable);
  g_clear_pointer (&request->id, json_node_unref);
  g_clear_pointer (&request->progress_token, json_node_unref);
  g_free (request->key);
  g_free (request->uri);
  g_free (request->name);
  g_clear_pointer (&request->arguments, json_object_unref);
  g_free (request);
  maybe_drained (self);
}

static void
deferred_free (Deferred *deferred)
{
  g_free (deferred->method);
  json_node_unref (deferred->id);
  g_clear_pointer (&deferred->params, json_object_unref);
  g_free (deferred);
}

static void
lode_mcp_session_finalize (GObject *object)
{
  LodeMcpSession *self = (LodeMcpSession *)object;

  /* In-flight requests hold a reference: none is left here. */
  g_assert (g_hash_table_size (self->requests) == 0);

  g_clear_object (&self->registry);
  g_clear_object (&self->client);
  g_clear_pointer (&self->requests, g_hash_table_unref);
  g_free (self->protocol_version);
  g_free (self->default_project);
  g_strfreev (self->roots);
  g_free (self->roots_request);
  g_queue_clear_full (&self->deferred, (GDestroyNotify) deferred_free);

  G_OBJECT_CLASS (lode_mcp_session_parent_class)->finalize (object);
}

static void
lode_mcp_session_class_init (LodeMcpSessionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_mcp_session_finalize;

  /**
   * LodeMcpSession::drained:
   *
   * The input has ended (lode_mcp_session_end_input()) and every request has its answer.
   */
  signals [DRAINED] =
    g_signal_new ("drained", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lode_mcp_session_init (LodeMcpSession *self)
{
  const char *page_size = g_getenv ("LODE_MCP_PAGE_SIZE");

  self->requests = g_hash_table_new (g_str_hash, g_str_equal);
  g_queue_init (&self->deferred);
  self->log_level = DEFAULT_LOG_LEVEL;
  self->page_size = DEFAULT_PAGE_SIZE;
  /* Tests shrink pages to exercise cursors. */
  if (page_size != NULL && atoi (page_size) > 0)
    self->page_size = atoi (page_size);
}

gboolean
lode_mcp_protocol_is_supported (const char *version)
{
  if (version == NULL)
    return FALSE;

  for (guint i = 0; i < G_N_ELEMENTS (supported_protocols); i++)
    if (g_str_equal (version, supported_protocols[i]))
      return TRUE;

  return FALSE;
}

/* Sending ------------------------------------------------------------------------------ */

static void
send_message (LodeMcpSession *self,
              JsonObject     *message,
              gpointer        tag,
              gboolean        final)
{
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *json = NULL;

  if (self->closed)
    return;

  json_object_set_string_member (message, "jsonrpc", "2.0");
  node = json_node_init_object (json_node_alloc (), message);
  json = lode_json_to_string (node, FALSE);
  self->send (json, tag, final, self->send_data);
}

/* Ends the exchange @tag without a response (notifications, responses, cancelled requests). */
static void
send_nothing (LodeMcpSession *self,
              gpointer        tag)
{
  if (!self->closed)
    self->send (NULL, tag, TRUE, self->send_data);
}

static void
send_result (LodeMcpSession *self,
             JsonNode       *id,
             gpointer        tag,
             JsonObject     *result)
{
  g_autoptr(JsonObject) message = json_object_new ();

  json_object_set_member (message, "id", json_node_copy (id));
  json_object_set_object_member (message, "result", json_object_ref (result));
  send_message (self, message, tag, TRUE);
}

/* send_result() of lode_tool_result_to_json(), written without building it: a tool's
 * structured result may be already written (lode_tool_result_write_json()). */
static void
send_tool_result (LodeMcpSession       *self,
                  JsonNode             *id,
                  gpointer              tag,
                  const LodeToolResult *result)
{
  g_autoptr(GString) json = NULL;
  g_autofree char *id_json = NULL;

  if (self->closed)
    return;

  id_json = lode_json_to_string (id, FALSE);
  json = g_string_sized_new (strlen (result->text) * 2
                             + (result->structured_json != NULL
                                ? strlen (result->structured_json) : 0) + 128);
  g_string_append (json, "{\"id\":");
  g_string_append (json, id_json);
  g_string_append (json, ",\"result\":");
  lode_tool_result_write_json (result, json);
  g_string_append (json, ",\"jsonrpc\":\"2.0\"}");
  self->send (json->str, tag, TRUE, self->send_data);
}

/* @id may be NULL: when the request's id cannot be read, the response has none (JSON-RPC
 * says null, but MCP clients reject a null id; omitting it is what they accept). */
static void
send_error (LodeMcpSession *self,
            JsonNode       *id,
            gpointer        tag,
            int             code,
            const char     *text,
            JsonObject     *data)
{
  g_autoptr(JsonObject) message = json_object_new ();
  JsonObject *error = json_object_new ();

  if (id != NULL)
    json_object_set_member (message, "id", json_node_copy (id));
  json_object_set_int_member (error, "code", code);
  json_object_set_string_member (error, "message", text);
  if (data != NULL)
    json_object_set_object_member (error, "data", json_object_ref (data));
  json_object_set_object_member (message, "error", error);
  send_message (self, message, tag, TRUE);
}

static void
send_notification (LodeMcpSession *self,
                   const char     *method,
                   JsonObject     *params,
                   gpointer        tag)
{
  g_autoptr(JsonObject) message = json_object_new ();

  json_object_set_string_member (message, "method", method);
  json_object_set_object_member (message, "params", json_object_ref (params));
  send_message (self, message, tag, FALSE);
}

/**
 * lode_mcp_session_send_error:
 * @self: a #LodeMcpSession
 * @code: a JSON-RPC error code
 * @message: what went wrong
 * @tag: the exchange
 *
 * Answers a message the transport could not hand over (too long, unreadable) with an error
 * without an id.
 */
void
lode_mcp_session_send_error (LodeMcpSession *self,
                             int             code,
                             const char     *message,
                             gpointer        tag)
{
  g_return_if_fail (LODE_IS_MCP_SESSION (self));
  g_return_if_fail (message != NULL);

  send_error (self, NULL, tag, code, message, NULL);
}

static int
log_level_index (const char *level)
{
  for (guint i = 0; i < G_N_ELEMENTS (log_levels); i++)
    if (g_str_equal (level, log_levels[i]))
      return i;

  return -1;
}

static void
session_log (LodeMcpSession *self,
             int             level,
             const char     *text)
{
  g_autoptr(JsonObject) params = NULL;

  if (level < self->log_level || !self->initialized)
    return;

  params = json_object_new ();
  json_object_set_string_member (params, "level", log_levels[level]);
  json_object_set_string_member (params, "logger", "lode");
  json_object_set_string_member (params, "data", text);
  send_notification (self, "notifications/message", params, NULL);
}

/* A job ended, wherever the client's tools run. */
static void
index_finished_cb (LodeClient     *client,
                   const char     *root,
                   const char     *state,
                   const char     *error,
                   LodeMcpSession *self)
{
  g_autofree char *text = NULL;

  if (g_str_equal (state, lode_job_state_to_string (LODE_JOB_STATE_SUCCEEDED)))
    {
      text = g_strdup_printf ("Indexed %s", root);
      session_log (self, log_level_index ("info"), text);
    }
  else if (g_str_equal (state, lode_job_state_to_string (LODE_JOB_STATE_CANCELLED)))
    {
      text = g_strdup_printf ("Indexing of %s was stopped", root);
      session_log (self, log_level_index ("notice"), text);
    }
  else
    {
      text = g_strdup_printf ("Indexing of %s failed: %s", root,
                              error != NULL ? error : "no reason given");
      session_log (self, log_level_index ("warning"), text);
    }
}

/**
 * lode_mcp_session_new:
 * @client: runs the tools (in loded, so that all clients share its indexes, or in this
 *   process); its registry answers tools/list and validates names
 * @server_requests: whether the transport can carry requests from the server to the client
 *   (stdio can; our HTTP transport has no server-initiated stream)
 * @send: (scope notified): called for every message to send, on the main context
 * @send_data: data for @send
 *
 * Returns: (transfer full): a new session
 */
LodeMcpSession *
lode_mcp_session_new (LodeClient      *client,
                      gboolean         server_requests,
                      LodeMcpSendFunc  send,
                      gpointer         send_data)
{
  LodeMcpSession *self;

  g_return_val_if_fail (LODE_IS_CLIENT (client), NULL);
  g_return_val_if_fail (send != NULL, NULL);

  self = g_object_new (LODE_TYPE_MCP_SESSION, NULL);
  self->client = g_object_ref (client);
  self->registry = g_object_ref (lode_client_get_registry (client));
  self->profile = lode_tool_profile_lookup (LODE_TOOL_PROFILE_DEFAULT);
  self->server_requests = !!server_requests;
  self->send = send;
  self->send_data = send_data;
  g_signal_connect_object (client, "index-finished", G_CALLBACK (index_finished_cb), self, 0);

  return self;
}

/**
 * lode_mcp_session_set_profile:
 * @self: a #LodeMcpSession
 * @profile: the tool names and arguments its client sees
 *
 * Call it before the session receives anything.
 */
void
lode_mcp_session_set_profile (LodeMcpSession        *self,
                              const LodeToolProfile *profile)
{
  g_return_if_fail (LODE_IS_MCP_SESSION (self));
  g_return_if_fail (profile != NULL);

  self->profile = profile;
}

/* Helpers for params ------------------------------------------------------------------- */

static gboolean
is_id (JsonNode *node)
{
  return JSON_NODE_HOLDS_VALUE (node) &&
         (json_node_get_value_type (node) == G_TYPE_STRING ||
          json_node_get_value_type (node) == G_TYPE_INT64);
}

/* Cursors are page offsets, written as text: opaque to clients, checked on the way back. */
static gboolean
parse_cursor (JsonObject *params,
              guint       total,
              guint      *offset)
{
  JsonNode *node = params != NULL ? json_object_get_member (params, "cursor") : NULL;
  guint64 value;

  *offset = 0;
  if (node == NULL || JSON_NODE_HOLDS_NULL (node))
    return TRUE;
  if (lode_json_get_string (params, "cursor") == NULL ||
      !g_ascii_string_to_unsigned (lode_json_get_string (params, "cursor"), 10, 1, total, &value,
                                   NULL))
    return FALSE;

  *offset = value;
  return TRUE;
}

static void
set_next_cursor (LodeMcpSession *self,
                 JsonObject     *result,
                 guint           offset,
                 guint           total)
{
  if (offset + self->page_size < total)
    {
      g_autofree char *cursor = g_strdup_printf ("%u", offset + self->page_size);

      json_object_set_string_member (result, "nextCursor", cursor);
    }
}

/* initialize and friends --------------------------------------------------------------- */

static void
handle_initialize (LodeMcpSession *self,
                   JsonNode       *id,
                   JsonObject     *params,
                   gpointer        tag)
{
  const char *requested = lode_json_get_string (params, "protocolVersion");
  g_autoptr(JsonObject) result = json_object_new ();
  JsonObject *capabilities = json_object_new ();
  JsonObject *tools = json_object_new ();
  JsonObject *resources = json_object_new ();
  JsonObject *info = json_object_new ();

  if (self->initialize_done)
    {
      send_error (self, id, tag, LODE_MCP_INVALID_REQUEST,
                  "The session is already initialized", NULL);
      return;
    }

  if (requested == NULL)
    {
      send_error (self, id, tag, LODE_MCP_INVALID_PARAMS,
                  "initialize needs params.protocolVersion (a string)", NULL);
      return;
    }

  self->initialize_done = TRUE;
  self->protocol_version = g_strdup (lode_mcp_protocol_is_supported (requested)
                                     ? requested : LODE_MCP_LATEST_PROTOCOL);
  self->client_roots =
    lode_json_get_object (lode_json_get_object (params, "capabilities"), "roots") != NULL;

  json_object_set_string_member (result, "protocolVersion", self->protocol_version);
  json_object_set_boolean_member (tools, "listChanged", FALSE);
  json_object_set_object_member (capabilities, "tools", tools);
  json_object_set_boolean_member (resources, "subscribe", FALSE);
  json_object_set_boolean_member (resources, "listChanged", FALSE);
  json_object_set_object_member (capabilities, "resources", resources);
  json_object_set_object_member (capabilities, "logging", json_object_new ());
  json_object_set_object_member (result, "capabilities", capabilities);
  json_object_set_string_member (info, "name", "lode");
  json_object_set_string_member (info, "title", "Lode");
  json_object_set_string_member (info, "version", PACKAGE_VERSION);
  json_object_set_object_member (result, "serverInfo", info);
  json_object_set_string_member (result, "instructions",
                                 "Lode indexes and searches source code. Call codebase_index "
                                 "once per project (it runs in the background, and later "
                                 "calls only re-index changed files), then use "
                                 "codebase_search before reading files. projectPath defaults "
                                 "to the client's first root.");
  send_result (self, id, tag, result);
}

static void handle_request (LodeMcpSession *self,
                            const char     *method,
                            JsonNode       *id,
                            JsonObject     *params,
                            gpointer        tag);

/* The roots are known (or will not come): the held requests run, in order. */
static void
roots_settled (LodeMcpSession *self)
{
  Deferred *deferred;

  g_clear_pointer (&self->roots_request, g_free);
  g_clear_handle_id (&self->roots_timeout, g_source_remove);
  while ((deferred = g_queue_pop_head (&self->deferred)) != NULL)
    {
      handle_request (self, deferred->method, deferred->id, deferred->params, deferred->tag);
      deferred_free (deferred);
    }
}

static gboolean
roots_timeout_cb (gpointer user_data)
{
  LodeMcpSession *self = user_data;

  g_debug ("The client did not answer roots/list in time");
  self->roots_timeout = 0;
  roots_settled (self);
  return G_SOURCE_REMOVE;
}

static void
request_roots (LodeMcpSession *self)
{
  g_autoptr(JsonObject) message = json_object_new ();

  g_free (self->roots_request);
  self->roots_request = g_strdup_printf ("lode-roots-%u", ++self->next_request);
  if (self->roots_timeout == 0)
    self->roots_timeout = g_timeout_add_full (G_PRIORITY_DEFAULT, ROOTS_TIMEOUT_MSEC,
                                              roots_timeout_cb, g_object_ref (self),
                                              g_object_unref);
  json_object_set_string_member (message, "id", self->roots_request);
  json_object_set_string_member (message, "method", "roots/list");
  send_message (self, message, NULL, FALSE);
}

static void
read_roots (LodeMcpSession *self,
            JsonObject     *message)
{
  JsonArray *roots;
  JsonObject *result;
  g_autoptr(GStrvBuilder) paths = g_strv_builder_new ();

  result = lode_json_get_object (message, "result");
  if (result == NULL || !json_object_has_member (result, "roots") ||
      !JSON_NODE_HOLDS_ARRAY (json_object_get_member (result, "roots")))
    {
      g_debug ("The client did not list its roots");
      return;
    }

  roots = json_object_get_array_member (result, "roots");
  for (guint i = 0; i < json_array_get_length (roots); i++)
    {
      JsonNode *root = json_array_get_element (roots, i);
      const char *uri = JSON_NODE_HOLDS_OBJECT (root)
                        ? lode_json_get_string (json_node_get_object (root), "uri") : NULL;
      g_autofree char *path = uri != NULL ? g_filename_from_uri (uri, NULL, NULL) : NULL;

      if (path == NULL)
        g_debug ("Ignoring root %s: not a file URI", uri);
      else
        g_strv_builder_add (paths, path);
    }

  g_strfreev (self->roots);
  self->roots = g_strv_builder_end (paths);
  if (self->roots[0] == NULL)
    return;

  g_free (self->default_project);
  self->default_project = g_strdup (self->roots[0]);
  g_debug ("Default project: %s (of %u roots)", self->default_project,
           g_strv_length (self->roots));
}

/* With several roots no project is the obvious default: a tool that takes a projectPath and
 * got none must be told which there are. Returns the message, or NULL when the call may go on. */
static char *
dup_ambiguous_project (LodeMcpSession *self,
                       const char     *tool,
                       JsonObject     *arguments)
{
  JsonNode *schema = lode_tool_registry_get_input_schema (self->registry, tool);
  JsonObject *properties;
  g_autofree char *list = NULL;

  if (self->roots == NULL || g_strv_length (self->roots) < 2 ||
      json_object_has_member (arguments, "projectPath"))
    return NULL;
  properties = json_object_get_object_member (json_node_get_object (schema), "properties");
  if (properties == NULL || !json_object_has_member (properties, "projectPath"))
    return NULL;

  list = g_strjoinv (", ", self->roots);
  return g_strdup_printf ("This client has %u roots (%s): pass projectPath with the one %s "
                          "should use.", g_strv_length (self->roots), list, tool);
}

static void
handle_response (LodeMcpSession *self,
                 JsonObject     *message)
{
  if (self->roots_request == NULL || g_strcmp0 (lode_json_get_string (message, "id"),
                                                self->roots_request) != 0)
    return;

  read_roots (self, message);
  roots_settled (self);
}

/* tools/list and tools/call ------------------------------------------------------------ */

static void
handle_tools_list (LodeMcpSession *self,
                   JsonNode       *id,
                   JsonObject     *params,
                   gpointer        tag)
{
  g_autoptr(JsonArray) tools = lode_tool_profile_list_tools (self->profile, self->registry);
  g_autoptr(JsonObject) result = json_object_new ();
  JsonArray *array = json_array_new ();
  guint total = json_array_get_length (tools);
  guint offset;

  if (!parse_cursor (params, total, &offset))
    {
      json_array_unref (array);
      send_error (self, id, tag, LODE_MCP_INVALID_PARAMS, "Invalid cursor", NULL);
      return;
    }

  for (guint i = offset; i < total && i < offset + self->page_size; i++)
    json_array_add_element (array, json_node_copy (json_array_get_element (tools, i)));
  json_object_set_array_member (result, "tools", array);
  set_next_cursor (self, result, offset, total);
  send_result (self, id, tag, result);
}

static Request *
request_new (LodeMcpSession *self,
             const char     *key,
             JsonNode       *id,
             gpointer        tag)
{
  Request *request = g_new0 (Request, 1);

  request->session = g_object_ref (self);
  request->key = g_strdup (key);
  request->id = json_node_copy (id);
  request->tag = tag;
  request->cancellable = g_cancellable_new ();
  g_hash_table_insert (self->requests, request->key, request);

  return request;
}

/* Takes the request out of the table; returns FALSE if it ended without a response. */
static gboolean
request_finish (Request *request)
{
  LodeMcpSession *self = request->session;

  g_hash_table_remove (self->requests, request->key);
  if (request->cancelled)
    {
      /* No response to a cancelled request; the transport may close its exchange. */
      send_nothing (self, request->tag);
      return FALSE;
    }

  return TRUE;
}

static void
tool_progress_cb (double      done,
                  double      total,
                  const char *message,
                  gpointer    user_data)
{
  Request *request = user_data;
  g_autoptr(JsonObject) params = NULL;

  /* Progress must increase from one notification to the next. */
  if (request->progress_token == NULL || request->cancelled ||
      (request->progressed && done <= request->last_progress))
    return;
  request->progressed = TRUE;
  request->last_progress = done;

  params = json_object_new ();
  json_object_set_member (params, "progressToken", json_node_copy (request->progress_token));
  json_object_set_double_member (params, "progress", done);
  if (total > 0)
    json_object_set_double_member (params, "total", total);
  if (message != NULL)
    json_object_set_string_member (params, "message", message);
  send_notification (request->session, "notifications/progress", params, request->tag);
}

static void
tool_call_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  Request *request = user_data;
  LodeMcpSession *self = request->session;
  g_autoptr(LodeToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;

  tool_result = lode_client_call_tool_finish (LODE_CLIENT (object), result, &error);
  if (!request_finish (request))
    goto out;

  if (tool_result == NULL)
    {
      send_error (self, request->id, request->tag, lode_mcp_error_code_for (error),
                  error->message, NULL);
      goto out;
    }

  /* A profile's tool that takes output_format answers in JSON when asked. */
  if (request->json_text && lode_tool_result_get_structured (tool_result) != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (),
                                                        tool_result->structured);

      g_free (tool_result->text);
      tool_result->text = lode_json_to_string (node, TRUE);
    }
  send_tool_result (self, request->id, request->tag, tool_result);

out:
  request_free (request);
}

static JsonNode *
progress_token_of (JsonObject *params)
{
  JsonNode *token = json_object_get_member (params, "_meta");

  if (token == NULL || !JSON_NODE_HOLDS_OBJECT (token))
    return NULL;
  token = json_object_get_member (json_node_get_object (token), "progressToken");

  return token != NULL && is_id (token) ? token : NULL;
}

static void
handle_tools_call (LodeMcpSession *self,
                   const char     *key,
                   JsonNode       *id,
                   JsonObject     *params,
                   gpointer        tag)
{
  const char *name = lode_json_get_string (params, "name");
  JsonNode *arguments = params != NULL ? json_object_get_member (params, "arguments") : NULL;
  JsonNode *token = params != NULL ? progress_token_of (params) : NULL;
  Request *request;
  g_autofree char *message = NULL;
  g_autoptr(JsonObject) given = NULL;
  g_autoptr(GError) map_error = NULL;

  if (name == NULL)
    {
      send_error (self, id, tag, LODE_MCP_INVALID_PARAMS,
                  "tools/call needs params.name (a string)", NULL);
      return;
    }

  if (!lode_tool_profile_has_tool (self->profile, self->registry, name))
    {
      message = g_strdup_printf ("Unknown tool: %s", name);
      send_error (self, id, tag, LODE_MCP_INVALID_PARAMS, message, NULL);
      return;
    }

  if (arguments != NULL && !JSON_NODE_HOLDS_OBJECT (arguments) &&
      !JSON_NODE_HOLDS_NULL (arguments))
    {
      send_error (self, id, tag, LODE_MCP_INVALID_PARAMS,
                  "params.arguments must be an object", NULL);
      return;
    }

  request = request_new (self, key, id, tag);
  if (token != NULL)
    request->progress_token = json_node_copy (token);
  given = arguments != NULL && JSON_NODE_HOLDS_OBJECT (arguments)
          ? json_object_ref (json_node_get_object (arguments)) : json_object_new ();

  /* The profile's name and arguments become a registry tool's; arguments that do not fit
   * the schema the client was shown are a tool error, in the names it knows. */
  if (!lode_tool_profile_map_call (self->profile, self->registry, name, given,
                                   &request->name, &request->arguments, &request->json_text,
                                   &map_error))
    message = g_strdup (map_error->message);
  else
    message = dup_ambiguous_project (self, request->name, request->arguments);
  if (message != NULL)
    {
      LodeToolResult ambiguous = { NULL, message, TRUE, NULL };

      if (request_finish (request))
        send_tool_result (self, request->id, request->tag, &ambiguous);
      request_free (request);
      return;
    }

  lode_client_call_tool_async (self->client, request->name, request->arguments,
                               self->default_project, tool_progress_cb, request, NULL,
                               request->cancellable, tool_call_cb, request);
}

/* resources ---------------------------------------------------------------------------- */

/* The resources are the overviews of the indexed projects, which codebase_list_projects
 * lists: through the client, like every tool, so that they are loded's when loded runs the
 * tools. */

static JsonObject *
resource_for (JsonObject *project)
{
  JsonObject *resource = json_object_new ();
  const char *project_id = lode_json_get_string (project, "projectId");
  g_autofree char *uri = g_strconcat (RESOURCE_PREFIX, project_id, RESOURCE_SUFFIX, NULL);
  g_autofree char *name = g_strdup_printf ("%s-overview", project_id);
  g_autofree char *title = g_strdup_printf ("Overview of %s",
                                            lode_json_get_string (project, "projectPath"));

  json_object_set_string_member (resource, "uri", uri);
  json_object_set_string_member (resource, "name", name);
  json_object_set_string_member (resource, "title", title);
  json_object_set_string_member (resource, "description",
                                 "Languages, file and chunk counts and the index state");
  json_object_set_string_member (resource, "mimeType", "application/json");

  return resource;
}

/* The indexed projects in codebase_list_projects' result; NULL, and @request answered with
 * the error, when the call failed. */
static JsonArray *
listed_projects (Request        *request,
                 LodeToolResult *tool_result,
                 const GError   *error)
{
  JsonArray *projects = NULL;

  if (tool_result != NULL && !tool_result->is_error)
    projects = lode_json_get_array (tool_result->structured, "projects");
  if (projects == NULL)
    send_error (request->session, request->id, request->tag, LODE_MCP_INTERNAL_ERROR,
                tool_result != NULL ? tool_result->text : error->message, NULL);

  return projects;
}

static void
resources_list_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  Request *request = user_data;
  LodeMcpSession *self = request->session;
  g_autoptr(LodeToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) response = NULL;
  JsonArray *projects;
  JsonArray *array;
  guint total;
  guint offset;

  tool_result = lode_client_call_tool_finish (LODE_CLIENT (object), result, &error);
  if (!request_finish (request))
    goto out;

  projects = listed_projects (request, tool_result, error);
  if (projects == NULL)
    goto out;

  total = json_array_get_length (projects);
  if (!parse_cursor (request->arguments, total, &offset))
    {
      send_error (self, request->id, request->tag, LODE_MCP_INVALID_PARAMS, "Invalid cursor",
                  NULL);
      goto out;
    }

  response = json_object_new ();
  array = json_array_new ();
  for (guint i = offset; i < total && i < offset + self->page_size; i++)
    json_array_add_object_element (array,
                                   resource_for (json_array_get_object_element (projects, i)));
  json_object_set_array_member (response, "resources", array);
  set_next_cursor (self, response, offset, total);
  send_result (self, request->id, request->tag, response);

out:
  request_free (request);
}

static void
handle_resources_list (LodeMcpSession *self,
                       const char     *key,
                       JsonNode       *id,
                       JsonObject     *params,
                       gpointer        tag)
{
  Request *request = request_new (self, key, id, tag);

  request->arguments = params != NULL ? json_object_ref (params) : json_object_new ();
  lode_client_call_tool_async (self->client, "codebase_list_projects", NULL, NULL, NULL, NULL,
                               NULL, request->cancellable, resources_list_cb, request);
}

static void
handle_resource_templates_list (LodeMcpSession *self,
                                JsonNode       *id,
                                JsonObject     *params,
                                gpointer        tag)
{
  g_autoptr(JsonObject) result = json_object_new ();
  JsonArray *array = json_array_new ();
  JsonObject *template = json_object_new ();

  json_object_set_string_member (template, "uriTemplate",
                                 RESOURCE_PREFIX "{id}" RESOURCE_SUFFIX);
  json_object_set_string_member (template, "name", "project-overview");
  json_object_set_string_member (template, "title", "Project overview");
  json_object_set_string_member (template, "description",
                                 "Languages, file and chunk counts and the index state of an "
                                 "indexed project; ids come from codebase_list_projects");
  json_object_set_string_member (template, "mimeType", "application/json");
  json_array_add_object_element (array, template);
  json_object_set_array_member (result, "resourceTemplates", array);
  send_result (self, id, tag, result);
}

static void
resource_read_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  Request *request = user_data;
  LodeMcpSession *self = request->session;
  g_autoptr(LodeToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) response = NULL;
  g_autoptr(JsonNode) overview = NULL;
  g_autofree char *text = NULL;
  JsonArray *contents;
  JsonObject *content;

  tool_result = lode_client_call_tool_finish (LODE_CLIENT (object), result, &error);
  if (!request_finish (request))
    goto out;

  if (tool_result == NULL || tool_result->is_error)
    {
      send_error (self, request->id, request->tag, LODE_MCP_INTERNAL_ERROR,
                  tool_result != NULL ? tool_result->text : error->message, NULL);
      goto out;
    }

  overview = json_node_init_object (json_node_alloc (), tool_result->structured);
  text = lode_json_to_string (overview, TRUE);
  response = json_object_new ();
  contents = json_array_new ();
  content = json_object_new ();
  json_object_set_string_member (content, "uri", request->uri);
  json_object_set_string_member (content, "mimeType", "application/json");
  json_object_set_string_member (content, "text", text);
  json_array_add_object_element (contents, content);
  json_object_set_array_member (response, "contents", contents);
  send_result (self, request->id, request->tag, response);

out:
  request_free (request);
}

/* The project id of lode://project/{id}/overview, or NULL. */
static char *
dup_resource_id (const char *uri)
{
  gsize length;

  if (!g_str_has_prefix (uri, RESOURCE_PREFIX) || !g_str_has_suffix (uri, RESOURCE_SUFFIX))
    return NULL;
  length = strlen (uri) - strlen (RESOURCE_PREFIX) - strlen (RESOURCE_SUFFIX);
  if ((gssize) length <= 0)
    return NULL;

  return g_strndup (uri + strlen (RESOURCE_PREFIX), length);
}

/* The projects are listed: the overview of the one the URI names is what codebase_status
 * reports. */
static void
resource_listed_cb (GObject      *object,
                    GAsyncResult *result,
                    gpointer      user_data)
{
  Request *request = user_data;
  LodeMcpSession *self = request->session;
  g_autoptr(LodeToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  g_autofree char *project_id = dup_resource_id (request->uri);
  const char *root = NULL;
  JsonArray *projects = NULL;

  tool_result = lode_client_call_tool_finish (LODE_CLIENT (object), result, &error);
  if (request->cancelled)
    {
      request_finish (request);
      request_free (request);
      return;
    }

  projects = listed_projects (request, tool_result, error);
  for (guint i = 0; projects != NULL && i < json_array_get_length (projects) && root == NULL;
       i++)
    {
      JsonObject *project = json_array_get_object_element (projects, i);

      if (g_strcmp0 (lode_json_get_string (project, "projectId"), project_id) == 0)
        root = lode_json_get_string (project, "projectPath");
    }
  if (projects != NULL && root == NULL)
    {
      g_autoptr(JsonObject) data = json_object_new ();
      g_autofree char *message = g_strdup_printf ("Resource not found: %s", request->uri);

      json_object_set_string_member (data, "uri", request->uri);
      send_error (self, request->id, request->tag, LODE_MCP_RESOURCE_NOT_FOUND, message, data);
    }
  if (root == NULL)
    {
      request_finish (request);
      request_free (request);
      return;
    }

  /* The registry runs it off the main loop. */
  arguments = json_object_new ();
  json_object_set_string_member (arguments, "projectPath", root);
  lode_client_call_tool_async (self->client, "codebase_status", arguments, NULL, NULL, NULL,
                               NULL, request->cancellable, resource_read_cb, request);
}

static void
handle_resources_read (LodeMcpSession *self,
                       const char     *key,
                       JsonNode       *id,
                       JsonObject     *params,
                       gpointer        tag)
{
  const char *uri = lode_json_get_string (params, "uri");
  g_autofree char *project_id = NULL;
  Request *request;

  if (uri == NULL)
    {
      send_error (self, id, tag, LODE_MCP_INVALID_PARAMS,
                  "resources/read needs params.uri (a string)", NULL);
      return;
    }

  project_id = dup_resource_id (uri);
  if (project_id == NULL)
    {
      g_autoptr(JsonObject) data = json_object_new ();
      g_autofree char *message = g_strdup_printf ("Resource not found: %s", uri);

      json_object_set_string_member (data, "uri", uri);
      send_error (self, id, tag, LODE_MCP_RESOURCE_NOT_FOUND, message, data);
      return;
    }

  request = request_new (self, key, id, tag);
  request->uri = g_strdup (uri);
  lode_client_call_tool_async (self->client, "codebase_list_projects", NULL, NULL, NULL, NULL,
                               NULL, request->cancellable, resource_listed_cb, request);
}

/* logging, cancellation ---------------------------------------------------------------- */

static void
handle_set_level (LodeMcpSession *self,
                  JsonNode       *id,
                  JsonObject     *params,
                  gpointer        tag)
{
  const char *level = lode_json_get_string (params, "level");
  int index = level != NULL ? log_level_index (level) : -1;
  g_autoptr(JsonObject) result = NULL;

  if (index < 0)
    {
      send_error (self, id, tag, LODE_MCP_INVALID_PARAMS,
                  "logging/setLevel needs params.level: debug, info, notice, warning, error, "
                  "critical, alert or emergency", NULL);
      return;
    }

  self->log_level = index;
  result = json_object_new ();
  send_result (self, id, tag, result);
}

static void
cancel_request (Request *request)
{
  request->cancelled = TRUE;
  /* Through the daemon, the client tells it to stop the call too. */
  g_cancellable_cancel (request->cancellable);
}

static void
handle_cancelled (LodeMcpSession *self,
                  JsonObject     *params)
{
  JsonNode *id = params != NULL ? json_object_get_member (params, "requestId") : NULL;
  g_autofree char *key = NULL;
  Request *request;

  if (id == NULL || !is_id (id))
    return;

  key = json_to_string (id, FALSE);
  request = g_hash_table_lookup (self->requests, key);
  if (request != NULL)
    cancel_request (request);
}

/**
 * lode_mcp_session_cancel_tag:
 * @self: a #LodeMcpSession
 * @tag: an exchange
 *
 * Cancels the request of the exchange @tag, whose client went away. It ends without a
 * response.
 */
void
lode_mcp_session_cancel_tag (LodeMcpSession *self,
                             gpointer        tag)
{
  GHashTableIter iter;
  Request *request;

  g_return_if_fail (LODE_IS_MCP_SESSION (self));

  g_hash_table_iter_init (&iter, self->requests);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &request))
    if (request->tag == tag)
      cancel_request (request);
}

/**
 * lode_mcp_session_abandon:
 * @self: a #LodeMcpSession
 * @reason: why, for the error replies
 *
 * Cancels every request in flight and answers each with an error that carries its id and
 * @reason: a server that stops serving a client still answers what it was asked.
 */
void
lode_mcp_session_abandon (LodeMcpSession *self,
                          const char     *reason)
{
  GHashTableIter iter;
  Request *request;

  g_return_if_fail (LODE_IS_MCP_SESSION (self));
  g_return_if_fail (reason != NULL);

  g_hash_table_iter_init (&iter, self->requests);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &request))
    if (!request->cancelled)
      {
        send_error (self, request->id, request->tag, LODE_MCP_INTERNAL_ERROR, reason, NULL);
        cancel_request (request);
      }
}

/**
 * lode_mcp_session_close:
 * @self: a #LodeMcpSession
 *
 * Cancels every request in flight; nothing is sent any more.
 */
void
lode_mcp_session_close (LodeMcpSession *self)
{
  GHashTableIter iter;
  Request *request;

  g_return_if_fail (LODE_IS_MCP_SESSION (self));

  self->closed = TRUE;
  g_clear_handle_id (&self->roots_timeout, g_source_remove);
  g_queue_clear_full (&self->deferred, (GDestroyNotify) deferred_free);
  g_hash_table_iter_init (&iter, self->requests);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &request))
    cancel_request (request);
}

/**
 * lode_mcp_session_end_input:
 * @self: a #LodeMcpSession
 *
 * Says that the client will send nothing more, and waits for nothing from it: the requests
 * held for its roots run now. #LodeMcpSession::drained follows once every request in flight
 * has its answer, at once if none is.
 */
void
lode_mcp_session_end_input (LodeMcpSession *self)
{
  g_return_if_fail (LODE_IS_MCP_SESSION (self));

  self->input_ended = TRUE;
  if (self->roots_request != NULL)
    roots_settled (self);
  maybe_drained (self);
}

/* Dispatch ----------------------------------------------------------------------------- */

static void
handle_notification (LodeMcpSession *self,
                     const char     *method,
                     JsonObject     *params)
{
  if (g_str_equal (method, "notifications/initialized"))
    {
      if (!self->initialize_done || self->initialized)
        return;
      self->initialized = TRUE;
      if (self->client_roots && self->server_requests)
        request_roots (self);
    }
  else if (g_str_equal (method, "notifications/cancelled"))
    handle_cancelled (self, params);
  else if (g_str_equal (method, "notifications/roots/list_changed"))
    {
      if (self->initialized && self->client_roots && self->server_requests)
        request_roots (self);
    }
  else
    g_debug ("Ignoring notification %s", method);
}

static void
handle_request (LodeMcpSession *self,
                const char     *method,
                JsonNode       *id,
                JsonObject     *params,
                gpointer        tag)
{
  g_autofree char *key = json_to_string (id, FALSE);
  g_autofree char *message = NULL;

  if (g_hash_table_contains (self->requests, key))
    {
      send_error (self, id, tag, LODE_MCP_INVALID_REQUEST,
                  "A request with this id is still in progress", NULL);
      return;
    }

  if (g_str_equal (method, "initialize"))
    handle_initialize (self, id, params, tag);
  else if (g_str_equal (method, "ping"))
    {
      g_autoptr(JsonObject) result = json_object_new ();
      send_result (self, id, tag, result);
    }
  else if (!self->initialize_done)
    send_error (self, id, tag, LODE_MCP_INVALID_REQUEST,
                "The session is not initialized: send initialize first", NULL);
  else if (g_str_equal (method, "tools/list"))
    handle_tools_list (self, id, params, tag);
  else if (self->roots_request != NULL && g_str_equal (method, "tools/call") &&
           lode_json_get_string (lode_json_get_object (params, "arguments"), "projectPath") == NULL)
    {
      Deferred *deferred = g_new0 (Deferred, 1);

      /* Its project is the default one, the client's first root, which is on its way. */
      deferred->method = g_strdup (method);
      deferred->id = json_node_copy (id);
      deferred->params = params != NULL ? json_object_ref (params) : NULL;
      deferred->tag = tag;
      g_queue_push_tail (&self->deferred, deferred);
    }
  else if (g_str_equal (method, "tools/call"))
    handle_tools_call (self, key, id, params, tag);
  else if (g_str_equal (method, "resources/list"))
    handle_resources_list (self, key, id, params, tag);
  else if (g_str_equal (method, "resources/templates/list"))
    handle_resource_templates_list (self, id, params, tag);
  else if (g_str_equal (method, "resources/read"))
    handle_resources_read (self, key, id, params, tag);
  else if (g_str_equal (method, "logging/setLevel"))
    handle_set_level (self, id, params, tag);
  else
    {
      message = g_strdup_printf ("Method not found: %s", method);
      send_error (self, id, tag, LODE_MCP_METHOD_NOT_FOUND, message, NULL);
    }
}

/**
 * lode_mcp_session_receive:
 * @self: a #LodeMcpSession
 * @text: one JSON-RPC message (not necessarily valid UTF-8 or JSON)
 * @length: length of @text in bytes
 * @tag: (nullable): the transport's exchange, handed back with every message for it
 *
 * Handles one message. Every request gets exactly one response (an error for anything
 * malformed), unless it is cancelled; notifications and responses never get one.
 */
void
lode_mcp_session_receive (LodeMcpSession *self,
                          const char     *text,
                          gsize           length,
                          gpointer        tag)
{
  g_autoptr(JsonNode) root = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *message = NULL;
  JsonObject *object;
  JsonNode *id;
  JsonNode *method;
  JsonNode *params;
  const char *jsonrpc;
  guint n_nul = 0;

  g_return_if_fail (LODE_IS_MCP_SESSION (self));
  g_return_if_fail (text != NULL || length == 0);

  if (!g_utf8_validate_len (text, length, NULL))
    {
      send_error (self, NULL, tag, LODE_MCP_PARSE_ERROR, "Parse error: invalid UTF-8", NULL);
      return;
    }

  /* A `\u0000` is read (as U+FFFD), so that a request otherwise valid is refused with its
   * id, below. */
  root = lode_json_parse_full (text, length, &n_nul, &error);
  if (root == NULL)
    {
      message = g_strdup_printf ("Parse error: %s", error->message);
      send_error (self, NULL, tag, LODE_MCP_PARSE_ERROR, message, NULL);
      return;
    }

  if (!JSON_NODE_HOLDS_OBJECT (root))
    {
      send_error (self, NULL, tag, LODE_MCP_INVALID_REQUEST,
                  root != NULL && JSON_NODE_HOLDS_ARRAY (root)
                  ? "Invalid Request: batches (JSON arrays) are not part of MCP"
                  : "Invalid Request: a message is a JSON object", NULL);
      return;
    }

  object = json_node_get_object (root);
  id = json_object_get_member (object, "id");
  if (id != NULL && !is_id (id))
    {
      send_error (self, NULL, tag, LODE_MCP_INVALID_REQUEST,
                  "Invalid Request: id must be a string or an integer", NULL);
      return;
    }

  jsonrpc = lode_json_get_string (object, "jsonrpc");
  if (g_strcmp0 (jsonrpc, "2.0") != 0)
    {
      send_error (self, id, tag, LODE_MCP_INVALID_REQUEST,
                  "Invalid Request: jsonrpc must be \"2.0\"", NULL);
      return;
    }

  /* No name, path or query may hold U+0000 (it would cut it). */
  if (n_nul > 0)
    {
      if (id != NULL && json_object_has_member (object, "method"))
        send_error (self, id, tag, LODE_MCP_INVALID_PARAMS,
                    "Invalid params: a string holds \\u0000 (U+0000), which no name, path or "
                    "query may contain", NULL);
      else
        send_nothing (self, tag);
      return;
    }

  method = json_object_get_member (object, "method");
  if (method == NULL && id != NULL &&
      (json_object_has_member (object, "result") || json_object_has_member (object, "error")))
    {
      handle_response (self, object);
      send_nothing (self, tag);
      return;
    }

  if (method == NULL || !JSON_NODE_HOLDS_VALUE (method) ||
      json_node_get_value_type (method) != G_TYPE_STRING)
    {
      send_error (self, id, tag, LODE_MCP_INVALID_REQUEST,
                  "Invalid Request: method must be a string", NULL);
      return;
    }

  params = json_object_get_member (object, "params");
  if (params != NULL && !JSON_NODE_HOLDS_OBJECT (params) && !JSON_NODE_HOLDS_NULL (params))
    {
      if (id != NULL)
        send_error (self, id, tag, LODE_MCP_INVALID_PARAMS,
                    "Invalid params: params must be an object", NULL);
      else
        send_nothing (self, tag);
      return;
    }

  if (id == NULL)
    {
      handle_notification (self, json_node_get_string (method),
                           params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                           ? json_node_get_object (params) : NULL);
      send_nothing (self, tag);
      return;
    }

  handle_request (self, json_node_get_string (method), id,
                  params != NULL && JSON_NODE_HOLDS_OBJECT (params)
                  ? json_node_get_object (params) : NULL, tag);
}
