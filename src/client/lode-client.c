/* lode-client.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-client"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-client.h"
#include "lode-dbus-daemon.h"
#include "lode-variant.h"

/*
 * The one place where a front end (lode, lode-mcp, lode-gtk) decides whether loded or its own
 * process does the work. The decision is made once, when the client is made: the daemon
 * when a session bus is there and loded can be activated on it, unless told otherwise.
 *
 * Every call is a tool of the registry, by name with JSON arguments, as MCP defines them:
 * through the daemon it is CallTool, carrying this process's configuration (data directory,
 * embedding provider, URLs, model, key) so that the daemon serves it with that
 * configuration; in-process the client's own registry runs it. When the daemon cannot take
 * a configuration on, the client runs that call, and every later one, itself, and its notice
 * says so (in LODE_CLIENT_DAEMON_ONLY mode the call fails instead). When the daemon dies
 * during a call, the call is made once more (activation starts loded again); only when that
 * fails too does the caller see an error, in plain words.
 *
 * A local engine and registry exist either way: they hold the tools' schemas (MCP
 * tools/list), and they run the tools when the daemon does not.
 */

struct _LodeClient
{
  GObject           parent_instance;
  LodeConfig       *config;
  LodeEngine       *engine;
  LodeToolRegistry *registry;
  LodeDBusDaemon1  *daemon;        /* (nullable): runs the tools when there */
  LodeClientMode    mode;
  GVariant         *config_variant;
  char             *notice;        /* (nullable): why this process runs the tools itself */
  GHashTable       *calls;         /* call_id → Call, while the daemon runs it */
  guint             next_call;
};

G_DEFINE_FINAL_TYPE (LodeClient, lode_client, G_TYPE_OBJECT)

enum {
  INDEX_PROGRESS,
  INDEX_FINISHED,
  INDEX_CHANGED,
  PROJECTS_CHANGED,
  N_SIGNALS
};

static guint signals [N_SIGNALS];

static void
lode_client_dispose (GObject *object)
{
  LodeClient *self = (LodeClient *)object;

  if (self->daemon != NULL)
    g_signal_handlers_disconnect_by_data (self->daemon, self);
  g_clear_object (&self->daemon);
  g_clear_object (&self->registry);
  g_clear_object (&self->engine);

  G_OBJECT_CLASS (lode_client_parent_class)->dispose (object);
}

static void
lode_client_finalize (GObject *object)
{
  LodeClient *self = (LodeClient *)object;

  g_clear_pointer (&self->config, lode_config_free);
  g_clear_pointer (&self->config_variant, g_variant_unref);
  g_clear_pointer (&self->calls, g_hash_table_unref);
  g_free (self->notice);

  G_OBJECT_CLASS (lode_client_parent_class)->finalize (object);
}

static void
lode_client_class_init (LodeClientClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->dispose = lode_client_dispose;
  object_class->finalize = lode_client_finalize;

  /**
   * LodeClient::index-progress:
   * @root: the project's tree
   * @phase: "scanning", "indexing", "finishing", "embedding" or "waiting"
   * @done: units done
   * @total: units in all, 0 when not known yet
   *
   * A project is being indexed (by whoever asked), wherever the engine runs.
   */
  signals [INDEX_PROGRESS] =
    g_signal_new ("index-progress", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 4,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_UINT, G_TYPE_UINT);

  /**
   * LodeClient::index-finished:
   * @root: the project's tree
   * @state: how the job ended: "succeeded", "failed" or "cancelled"
   * @error: (nullable): why it failed
   *
   * A job of a project ended (whoever asked for it), wherever the engine runs.
   */
  signals [INDEX_FINISHED] =
    g_signal_new ("index-finished", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 3,
                  G_TYPE_STRING, G_TYPE_STRING, G_TYPE_STRING);

  /**
   * LodeClient::index-changed:
   * @root: the project's tree
   *
   * A project's index changed or was removed.
   */
  signals [INDEX_CHANGED] =
    g_signal_new ("index-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  /**
   * LodeClient::projects-changed:
   *
   * A project was added or removed, or started or stopped being indexed or watched.
   */
  signals [PROJECTS_CHANGED] =
    g_signal_new ("projects-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
}

static void
lode_client_init (LodeClient *self)
{
  self->calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
}

/* Connecting --------------------------------------------------------------------------- */

/* A ping to loded's name: the bus activates loded when nobody owns the name and a service
 * file names it, and answers for a loded started some other way (a systemd unit, a test, a
 * developer's shell) even without a service file. StartServiceByName would refuse the
 * latter: dbus-daemon looks for the service file before it looks at the name's owner. */
#define PING_ARGS LODE_DAEMON_BUS_NAME, "/", "org.freedesktop.DBus.Peer", "Ping", NULL, NULL, \
                  G_DBUS_CALL_FLAGS_NONE, -1

/* The daemon, activating it if needed; NULL with @error when it cannot be had. */
static LodeDBusDaemon1 *
connect_daemon (GError **error)
{
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;
  LodeDBusDaemon1 *proxy;

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, error);
  if (bus == NULL)
    return NULL;

  reply = g_dbus_connection_call_sync (bus, PING_ARGS, NULL, error);
  if (reply == NULL)
    return NULL;

  proxy = lode_dbus_daemon1_proxy_new_sync (bus, G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                            LODE_DAEMON_BUS_NAME, LODE_DAEMON_OBJECT_PATH,
                                            NULL, error);
  if (proxy == NULL)
    return NULL;

  /* Indexing a large tree takes as long as it takes; the caller's cancellable ends a call. */
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), G_MAXINT);
  return proxy;
}

/* connect_daemon() in three asynchronous steps: the bus, activation, the proxy. */
static void
connect_proxy_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  LodeDBusDaemon1 *proxy = lode_dbus_daemon1_proxy_new_finish (result, &error);

  if (proxy == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), G_MAXINT);
  g_task_return_pointer (task, proxy, g_object_unref);
}

static void
connect_activated_cb (GObject      *object,
                      GAsyncResult *result,
                      gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GVariant) reply = NULL;
  GError *error = NULL;

  reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  if (reply == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  lode_dbus_daemon1_proxy_new (G_DBUS_CONNECTION (object),
                               G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES, LODE_DAEMON_BUS_NAME,
                               LODE_DAEMON_OBJECT_PATH, g_task_get_cancellable (task),
                               connect_proxy_cb, g_object_ref (task));
}

static void
connect_bus_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(GDBusConnection) bus = NULL;
  GError *error = NULL;

  bus = g_bus_get_finish (result, &error);
  if (bus == NULL)
    {
      g_task_return_error (task, error);
      return;
    }

  g_dbus_connection_call (bus, PING_ARGS, g_task_get_cancellable (task), connect_activated_cb,
                          g_object_ref (task));
}

typedef struct _Call Call;
static void call_progress (Call       *call,
                           double      done,
                           double      total,
                           const char *message);

static void
daemon_progress_cb (LodeDBusDaemon1 *daemon,
                    const char      *root,
                    const char      *phase,
                    guint            done,
                    guint            total,
                    LodeClient      *self)
{
  g_signal_emit (self, signals [INDEX_PROGRESS], 0, root, phase, done, total);
}

static void
daemon_index_finished_cb (LodeDBusDaemon1 *daemon,
                          const char      *root,
                          const char      *state,
                          const char      *error,
                          LodeClient      *self)
{
  g_signal_emit (self, signals [INDEX_FINISHED], 0, root, state, *error != '\0' ? error : NULL);
}

static void
daemon_index_changed_cb (LodeDBusDaemon1 *daemon,
                         const char      *root,
                         LodeClient      *self)
{
  g_signal_emit (self, signals [INDEX_CHANGED], 0, root);
}

static void
daemon_projects_changed_cb (LodeDBusDaemon1 *daemon,
                            LodeClient      *self)
{
  g_signal_emit (self, signals [PROJECTS_CHANGED], 0);
}

static void
daemon_tool_progress_cb (LodeDBusDaemon1 *daemon,
                         const char      *call_id,
                         double           done,
                         double           total,
                         const char      *message,
                         LodeClient      *self)
{
  Call *call = g_hash_table_lookup (self->calls, call_id);

  if (call != NULL)
    call_progress (call, done, total, *message != '\0' ? message : NULL);
}

static void
engine_progress_cb (LodeEngine *engine,
                    const char *project_id,
                    const char *root,
                    guint       phase,
                    guint       done,
                    guint       total,
                    LodeClient *self)
{
  if (self->daemon == NULL)
    g_signal_emit (self, signals [INDEX_PROGRESS], 0, root,
                   lode_index_phase_to_string (phase), done, total);
}

static void
engine_index_finished_cb (LodeEngine *engine,
                          const char *project_id,
                          const char *root,
                          guint       state,
                          const char *error,
                          LodeClient *self)
{
  if (self->daemon == NULL)
    g_signal_emit (self, signals [INDEX_FINISHED], 0, root, lode_job_state_to_string (state),
                   error);
}

static void
engine_index_changed_cb (LodeEngine *engine,
                         const char *project_id,
                         const char *root,
                         LodeClient *self)
{
  if (self->daemon == NULL)
    g_signal_emit (self, signals [INDEX_CHANGED], 0, root);
}

static void
engine_projects_changed_cb (LodeEngine *engine,
                            LodeClient *self)
{
  if (self->daemon == NULL)
    g_signal_emit (self, signals [PROJECTS_CHANGED], 0);
}

static void
use_daemon (LodeClient      *self,
            LodeDBusDaemon1 *daemon)
{
  self->daemon = daemon;
  g_signal_connect_object (daemon, "progress", G_CALLBACK (daemon_progress_cb), self, 0);
  g_signal_connect_object (daemon, "index-finished", G_CALLBACK (daemon_index_finished_cb),
                           self, 0);
  g_signal_connect_object (daemon, "index-changed", G_CALLBACK (daemon_index_changed_cb),
                           self, 0);
  g_signal_connect_object (daemon, "projects-changed",
                           G_CALLBACK (daemon_projects_changed_cb), self, 0);
  g_signal_connect_object (daemon, "tool-progress", G_CALLBACK (daemon_tool_progress_cb),
                           self, 0);
}

/* From now on this process does the work; @why says why, for people. */
static void
run_here (LodeClient *self,
          const char *why)
{
  if (self->daemon != NULL)
    g_signal_handlers_disconnect_by_data (self->daemon, self);
  g_clear_object (&self->daemon);
  g_free (self->notice);
  self->notice = g_strdup_printf ("Lode runs in this process, not in its daemon: %s", why);
  g_message ("%s", self->notice);
}

/* The client, before it knows where the work is done. */
static LodeClient *
client_create (const LodeConfig *config,
               LodeClientMode    mode)
{
  LodeClient *self = g_object_new (LODE_TYPE_CLIENT, NULL);

  self->config = lode_config_copy (config);
  self->config_variant = g_variant_ref_sink (lode_config_to_variant (config));
  self->engine = lode_engine_new (config);
  self->registry = lode_tools_new_registry (self->engine);
  g_signal_connect_object (self->engine, "index-progress", G_CALLBACK (engine_progress_cb),
                           self, 0);
  g_signal_connect_object (self->engine, "index-finished",
                           G_CALLBACK (engine_index_finished_cb), self, 0);
  g_signal_connect_object (self->engine, "index-changed",
                           G_CALLBACK (engine_index_changed_cb), self, 0);
  g_signal_connect_object (self->engine, "projects-changed",
                           G_CALLBACK (engine_projects_changed_cb), self, 0);

  if (mode == LODE_CLIENT_AUTO && g_getenv ("LODE_NO_DAEMON") != NULL)
    mode = LODE_CLIENT_IN_PROCESS;
  self->mode = mode;

  /* Registers the error names, so that daemon errors come back as LODE_ERROR. */
  (void) LODE_ERROR;

  return self;
}

/* Decides with what connecting gave: @daemon, or why there is none (@local_error, NULL when
 * this process was asked to do the work). FALSE only in LODE_CLIENT_DAEMON_ONLY mode. */
static gboolean
client_connected (LodeClient       *self,
                  LodeDBusDaemon1  *daemon,
                  GError           *local_error,
                  GError          **error)
{
  if (daemon != NULL)
    use_daemon (self, daemon);
  else if (self->mode == LODE_CLIENT_DAEMON_ONLY)
    {
      g_propagate_prefixed_error (error, local_error, _("Cannot reach Lode's daemon (loded): "));
      return FALSE;
    }
  else if (local_error != NULL)
    {
      g_dbus_error_strip_remote_error (local_error);
      g_debug ("No daemon: %s", local_error->message);
      self->notice = g_strdup_printf ("Lode runs in this process: its daemon cannot be "
                                      "reached (%s)", local_error->message);
      g_error_free (local_error);
    }

  g_debug ("Tools run %s", self->daemon != NULL ? "in loded" : "in this process");
  return TRUE;
}

/**
 * lode_client_new:
 * @config: this process's configuration; copied, and sent to the daemon with each call
 * @mode: where the engine should run
 * @error: return location for a #GError
 *
 * Decides where the work is done. Connecting to the daemon may activate it, which blocks
 * until loded owns its name; lode_client_new_async() does not block.
 *
 * Returns: (transfer full) (nullable): the client; %NULL only in %LODE_CLIENT_DAEMON_ONLY
 *   mode when the daemon cannot be had
 */
LodeClient *
lode_client_new (const LodeConfig  *config,
                 LodeClientMode     mode,
                 GError           **error)
{
  g_autoptr(LodeClient) self = NULL;
  GError *local_error = NULL;
  LodeDBusDaemon1 *daemon = NULL;

  g_return_val_if_fail (config != NULL, NULL);

  self = client_create (config, mode);
  if (self->mode != LODE_CLIENT_IN_PROCESS)
    daemon = connect_daemon (&local_error);
  if (!client_connected (self, daemon, local_error, error))
    return NULL;

  return g_steal_pointer (&self);
}

static void
new_connected_cb (GObject      *object,
                  GAsyncResult *result,
                  gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  LodeClient *self = g_task_get_task_data (task);
  GError *local_error = NULL;
  GError *error = NULL;
  LodeDBusDaemon1 *daemon = g_task_propagate_pointer (G_TASK (result), &local_error);

  if (g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    g_task_return_error (task, local_error);
  else if (client_connected (self, daemon, local_error, &error))
    g_task_return_pointer (task, g_object_ref (self), g_object_unref);
  else
    g_task_return_error (task, error);
}

/**
 * lode_client_new_async:
 * @config: this process's configuration; copied, and sent to the daemon with each call
 * @mode: where the engine should run
 * @cancellable: (nullable): a #GCancellable
 * @callback: called with the client
 * @user_data: data for @callback
 *
 * lode_client_new() without blocking the caller's main context while loded is activated,
 * for the desktop app.
 */
void
lode_client_new_async (const LodeConfig    *config,
                       LodeClientMode       mode,
                       GCancellable        *cancellable,
                       GAsyncReadyCallback  callback,
                       gpointer             user_data)
{
  g_autoptr(GTask) task = NULL;
  g_autoptr(GTask) connect = NULL;
  LodeClient *self;

  g_return_if_fail (config != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  self = client_create (config, mode);
  task = g_task_new (NULL, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_client_new_async);
  g_task_set_task_data (task, self, g_object_unref);

  connect = g_task_new (NULL, cancellable, new_connected_cb, g_steal_pointer (&task));
  if (self->mode == LODE_CLIENT_IN_PROCESS)
    g_task_return_pointer (connect, NULL, NULL);
  else
    g_bus_get (G_BUS_TYPE_SESSION, cancellable, connect_bus_cb, g_steal_pointer (&connect));
}

/**
 * lode_client_new_finish:
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): as lode_client_new()
 */
LodeClient *
lode_client_new_finish (GAsyncResult  *result,
                        GError       **error)
{
  g_return_val_if_fail (g_task_is_valid (result, NULL), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

gboolean
lode_client_is_remote (LodeClient *self)
{
  g_return_val_if_fail (LODE_IS_CLIENT (self), FALSE);
  return self->daemon != NULL;
}

/**
 * lode_client_get_notice:
 * @self: a #LodeClient
 *
 * Returns: (nullable): why this process runs the engine although the daemon was wanted, for
 *   people; %NULL when the daemon serves it, or when this process was asked to
 */
const char *
lode_client_get_notice (LodeClient *self)
{
  g_return_val_if_fail (LODE_IS_CLIENT (self), NULL);
  return self->notice;
}

/**
 * lode_client_get_engine:
 * @self: a #LodeClient
 *
 * Returns: (transfer none): the engine of this process (which runs the tools when the daemon
 *   does not)
 */
LodeEngine *
lode_client_get_engine (LodeClient *self)
{
  g_return_val_if_fail (LODE_IS_CLIENT (self), NULL);
  return self->engine;
}

/**
 * lode_client_get_registry:
 * @self: a #LodeClient
 *
 * Returns: (transfer none): the tools, with their schemas
 */
LodeToolRegistry *
lode_client_get_registry (LodeClient *self)
{
  g_return_val_if_fail (LODE_IS_CLIENT (self), NULL);
  return self->registry;
}

/* Calls -------------------------------------------------------------------------------- */

struct _Call
{
  LodeClient           *client;
  char                 *name;
  JsonObject           *arguments;
  char                 *default_project;
  LodeToolProgressFunc  progress;
  gpointer              progress_data;
  GDestroyNotify        progress_data_destroy;
  GCancellable         *cancellable;
  char                 *call_id;
  gulong                cancelled_id;
  guint                 attempts;
  GMainContext         *context;       /* the caller's */
};

static void
call_free (Call *call)
{
  if (call->progress_data_destroy != NULL)
    call->progress_data_destroy (call->progress_data);
  g_clear_object (&call->client);
  g_free (call->name);
  g_clear_pointer (&call->arguments, json_object_unref);
  g_free (call->default_project);
  g_clear_object (&call->cancellable);
  g_free (call->call_id);
  g_main_context_unref (call->context);
  g_free (call);
}

static void
call_progress (Call       *call,
               double      done,
               double      total,
               const char *message)
{
  if (call->progress != NULL)
    call->progress (done, total, message, call->progress_data);
}

static void
local_progress_cb (double      done,
                   double      total,
                   const char *message,
                   gpointer    user_data)
{
  call_progress (user_data, done, total, message);
}

static void
local_call_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  GError *error = NULL;
  LodeToolResult *tool_result;

  tool_result = lode_tool_registry_call_finish (LODE_TOOL_REGISTRY (object), result, &error);
  if (tool_result == NULL)
    g_task_return_error (task, error);
  else
    g_task_return_pointer (task, tool_result, (GDestroyNotify) lode_tool_result_free);
}

/* Takes @task, as call_daemon() does. */
static void
call_here (GTask *task)
{
  Call *call = g_task_get_task_data (task);

  lode_tool_registry_call_async (call->client->registry, call->name, call->arguments,
                                 call->default_project, local_progress_cb, call, NULL,
                                 call->cancellable, local_call_cb, task);
}

typedef struct
{
  LodeDBusDaemon1 *daemon;
  char            *call_id;
} CancelRequest;

static void
cancel_request_free (CancelRequest *request)
{
  g_object_unref (request->daemon);
  g_free (request->call_id);
  g_free (request);
}

static gboolean
send_cancel_cb (gpointer user_data)
{
  CancelRequest *request = user_data;

  lode_dbus_daemon1_call_cancel_tool (request->daemon, request->call_id, NULL, NULL, NULL);
  return G_SOURCE_REMOVE;
}

/* A cancelled call tells the daemon, which stops what the call started. Not from here:
 * this runs inside g_cancellable_cancel(), while GDBus's worker thread may be waiting in
 * g_cancellable_disconnect() on the same cancellable with the connection's lock held, and a
 * D-Bus call made here would wait for that lock — a deadlock. CancelTool goes out from an
 * idle on the caller's main context instead. */
static void
call_cancelled_cb (GCancellable *cancellable,
                   Call         *call)
{
  g_autoptr(GSource) source = NULL;
  CancelRequest *request;

  if (call->client->daemon == NULL || call->call_id == NULL)
    return;

  request = g_new0 (CancelRequest, 1);
  request->daemon = g_object_ref (call->client->daemon);
  request->call_id = g_strdup (call->call_id);
  source = g_idle_source_new ();
  g_source_set_callback (source, send_cancel_cb, request, (GDestroyNotify) cancel_request_free);
  g_source_set_static_name (source, "[lode] CancelTool");
  g_source_attach (source, call->context);
}

static gboolean
daemon_is_gone (const GError *error)
{
  return g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NO_REPLY) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SERVICE_UNKNOWN) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_NAME_HAS_NO_OWNER) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_DISCONNECTED) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_SPAWN_CHILD_EXITED) ||
         g_error_matches (error, G_DBUS_ERROR, G_DBUS_ERROR_UNKNOWN_OBJECT) ||
         g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CLOSED);
}

static void call_daemon (GTask *task);

static void
daemon_call_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  Call *call = g_task_get_task_data (task);
  LodeClient *self = call->client;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *json = NULL;
  LodeToolResult *tool_result;

  g_hash_table_remove (self->calls, call->call_id);
  g_cancellable_disconnect (call->cancellable, call->cancelled_id);
  call->cancelled_id = 0;

  if (!lode_dbus_daemon1_call_call_tool_finish (LODE_DBUS_DAEMON1 (object), &json, result,
                                                &error))
    {
      g_dbus_error_strip_remote_error (error);
      /* The desktop app shows what the daemon has, or why it cannot: it never runs the
       * engine itself. */
      if (g_error_matches (error, LODE_ERROR, LODE_ERROR_UNSUPPORTED) &&
          self->mode != LODE_CLIENT_DAEMON_ONLY)
        {
          g_autofree char *why = g_strdup (error->message);

          run_here (self, why);
          call_here (g_steal_pointer (&task));
          return;
        }
      if (daemon_is_gone (error) && call->attempts == 1 &&
          !g_cancellable_is_cancelled (call->cancellable))
        {
          /* Activation starts loded again: one more try. */
          g_message ("Lode's daemon stopped during %s (%s); asking it again", call->name,
                     error->message);
          call_daemon (g_steal_pointer (&task));
          return;
        }
      if (daemon_is_gone (error))
        g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_FAILED,
                                 _("Lode's daemon (loded) stopped while it ran %s, and asking "
                                   "it again failed too (%s). See `journalctl --user -u loded` "
                                   "or run with --no-daemon."), call->name, error->message);
      else
        g_task_return_error (task, g_steal_pointer (&error));
      return;
    }

  node = lode_json_parse (json, -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_FAILED,
                               "Lode's daemon answered %s with something that is not JSON",
                               call->name);
      return;
    }

  tool_result = lode_tool_result_from_json (json_node_get_object (node), &error);
  if (tool_result == NULL)
    g_task_return_error (task, g_steal_pointer (&error));
  else
    g_task_return_pointer (task, tool_result, (GDestroyNotify) lode_tool_result_free);
}

/* The daemon knows neither this process's working directory nor its MCP roots: the project
 * a tool would default to is passed along. */
static void
add_default_project (Call *call)
{
  JsonNode *schema = lode_tool_registry_get_input_schema (call->client->registry, call->name);
  JsonObject *properties;

  properties = schema != NULL && JSON_NODE_HOLDS_OBJECT (schema)
               ? json_object_get_object_member (json_node_get_object (schema), "properties")
               : NULL;
  if (properties != NULL && json_object_has_member (properties, "projectPath") &&
      !json_object_has_member (call->arguments, "projectPath"))
    {
      g_autofree char *project = call->default_project != NULL
                                 ? g_strdup (call->default_project) : g_get_current_dir ();

      json_object_set_string_member (call->arguments, "projectPath", project);
    }
}

static void
call_daemon (GTask *task)
{
  Call *call = g_task_get_task_data (task);
  LodeClient *self = call->client;
  g_autoptr(JsonNode) node = NULL;
  g_autofree char *json = NULL;
  GVariantDict options;

  call->attempts++;
  g_free (call->call_id);
  call->call_id = g_strdup_printf ("%u", ++self->next_call);
  g_hash_table_insert (self->calls, g_strdup (call->call_id), call);
  if (call->cancellable != NULL)
    call->cancelled_id = g_cancellable_connect (call->cancellable,
                                                G_CALLBACK (call_cancelled_cb), call, NULL);

  node = json_node_init_object (json_node_alloc (), call->arguments);
  json = lode_json_to_string (node, FALSE);
  g_variant_dict_init (&options, NULL);
  g_variant_dict_insert (&options, "call_id", "s", call->call_id);
  g_variant_dict_insert_value (&options, "config", self->config_variant);
  lode_dbus_daemon1_call_call_tool (self->daemon, call->name, json,
                                    g_variant_dict_end (&options), call->cancellable,
                                    daemon_call_cb, task);
}

/**
 * lode_client_call_tool_async:
 * @self: a #LodeClient
 * @name: a tool of the registry
 * @arguments: (nullable): its arguments; %NULL is the same as `{}`
 * @default_project: (nullable): the project when @arguments name none (an MCP client's
 *   root); else the working directory
 * @progress: (nullable): called on the caller's thread-default main context
 * @progress_data: data for @progress
 * @progress_data_destroy: (nullable): frees @progress_data once no more progress can come
 * @cancellable: (nullable): cancels the call, and what it started
 * @callback: called when the call ends
 * @user_data: data for @callback
 *
 * Calls a tool, in the daemon or in this process (see lode_client_new()).
 */
void
lode_client_call_tool_async (LodeClient           *self,
                             const char           *name,
                             JsonObject           *arguments,
                             const char           *default_project,
                             LodeToolProgressFunc  progress,
                             gpointer              progress_data,
                             GDestroyNotify        progress_data_destroy,
                             GCancellable         *cancellable,
                             GAsyncReadyCallback   callback,
                             gpointer              user_data)
{
  g_autoptr(GTask) task = NULL;
  Call *call;

  g_return_if_fail (LODE_IS_CLIENT (self));
  g_return_if_fail (name != NULL);
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  task = g_task_new (self, NULL, callback, user_data);
  g_task_set_source_tag (task, lode_client_call_tool_async);

  call = g_new0 (Call, 1);
  call->client = g_object_ref (self);
  call->name = g_strdup (name);
  call->arguments = arguments != NULL ? json_object_ref (arguments) : json_object_new ();
  call->default_project = g_strdup (default_project);
  call->progress = progress;
  call->progress_data = progress_data;
  call->progress_data_destroy = progress_data_destroy;
  call->cancellable = cancellable != NULL ? g_object_ref (cancellable) : NULL;
  call->context = g_main_context_ref_thread_default ();
  g_task_set_task_data (task, call, (GDestroyNotify) call_free);

  /* Arguments are checked here, by the registry code the daemon would run, so that bad ones
   * get the same tool error (from this process's registry) whichever process would have run
   * the tool. */
  if (self->daemon == NULL ||
      !lode_tool_registry_check_arguments (self->registry, name, call->arguments, NULL))
    {
      call_here (g_steal_pointer (&task));
      return;
    }

  add_default_project (call);
  call_daemon (g_steal_pointer (&task));
}

/**
 * lode_client_call_tool_finish:
 * @self: a #LodeClient
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tool's result (which may be an error result the
 *   agent can act on), or %NULL for an unknown tool, a cancelled call, or a daemon that could
 *   not answer
 */
LodeToolResult *
lode_client_call_tool_finish (LodeClient    *self,
                              GAsyncResult  *result,
                              GError       **error)
{
  g_return_val_if_fail (LODE_IS_CLIENT (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
sync_call_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  *(GAsyncResult **) user_data = g_object_ref (result);
}

/**
 * lode_client_call_tool:
 * @self: a #LodeClient
 * @name: a tool of the registry
 * @arguments: (nullable): its arguments
 * @progress: (nullable) (scope call): called on this thread
 * @progress_data: data for @progress
 * @cancellable: (nullable): cancels the call
 * @error: return location for a #GError
 *
 * lode_client_call_tool_async() that iterates the thread-default main context until the
 * call ends, for command-line tools.
 *
 * Returns: (transfer full) (nullable): as lode_client_call_tool_finish()
 */
LodeToolResult *
lode_client_call_tool (LodeClient            *self,
                       const char            *name,
                       JsonObject            *arguments,
                       LodeToolProgressFunc   progress,
                       gpointer               progress_data,
                       GCancellable          *cancellable,
                       GError               **error)
{
  g_autoptr(GAsyncResult) result = NULL;
  GMainContext *context = g_main_context_get_thread_default ();

  g_return_val_if_fail (LODE_IS_CLIENT (self), NULL);

  lode_client_call_tool_async (self, name, arguments, NULL, progress, progress_data, NULL,
                               cancellable, sync_call_cb, &result);
  while (result == NULL)
    g_main_context_iteration (context, TRUE);

  return lode_client_call_tool_finish (self, result, error);
}
