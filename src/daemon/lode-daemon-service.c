/* lode-daemon-service.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-daemon"

#include "config.h"

#include <glib/gi18n.h>

#include <stdlib.h>
#include <string.h>

#include "lode-daemon-service.h"
#include "lode-variant.h"

/*
 * The io.github.lode.Lode.Daemon1 object: GVariant in, an engine call, GVariant out. The
 * engine owns every project's jobs, watchers and the list of watched trees; this file only
 * translates, checks what comes from the bus, and ties calls to their callers, so that a
 * client that leaves the bus stops waiting (and the engine then stops what nobody wants).
 *
 * Typed methods use the daemon's own engine. CallTool carries the caller's configuration:
 * the same as the daemon's, it runs on that engine too; another one (an MCP host's data
 * directory or embedding provider) gets an engine of its own, made on first use.
 *
 * Everything here runs on the main thread and nothing blocks it: engine calls that read a
 * database or wait for a job are asynchronous.
 */

#define MAX_PATH_BYTES            4096
#define MAX_QUERY_BYTES           (64 * 1024)
#define MAX_TOOL_ARGUMENTS_BYTES  (1024 * 1024)
#define MAX_CALL_ID_BYTES         256
#define MAX_ENGINES               8
#define PROGRESS_USEC             (100 * G_TIME_SPAN_MILLISECOND)

/* An engine and the tools that run on it. */
typedef struct
{
  LodeEngine       *engine;
  LodeToolRegistry *registry;
} Served;

typedef struct
{
  char         *sender;
  guint         watch_id;
  GCancellable *cancellable;        /* of everything the client waits for */
  GHashTable   *tool_calls;         /* call_id → GCancellable */
} Client;

/* When Progress was last sent for a root, to send at most ten a second. */
typedef struct
{
  gint64 sent_at;
  guint  phase;
} ProgressState;

struct _LodeDaemonService
{
  LodeDBusDaemon1Skeleton  parent_instance;

  GApplication            *app;
  Served                  *own;        /* the daemon's configuration */
  GHashTable              *served;     /* configuration (printed) → Served */
  GHashTable              *clients;    /* unique bus name → Client */
  GHashTable              *progress;   /* root → ProgressState */
  guint                    held : 1;
};

static void lode_daemon_service_iface_init (LodeDBusDaemon1Iface *iface);

G_DEFINE_FINAL_TYPE_WITH_CODE (LodeDaemonService, lode_daemon_service,
                               LODE_DBUS_TYPE_DAEMON1_SKELETON,
                               G_IMPLEMENT_INTERFACE (LODE_DBUS_TYPE_DAEMON1,
                                                      lode_daemon_service_iface_init))

static void
served_free (Served *served)
{
  g_clear_object (&served->registry);
  g_clear_object (&served->engine);
  g_free (served);
}

static void
client_free (Client *client)
{
  GHashTableIter iter;
  GCancellable *cancellable;

  g_hash_table_iter_init (&iter, client->tool_calls);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &cancellable))
    g_cancellable_cancel (cancellable);
  g_hash_table_unref (client->tool_calls);
  g_cancellable_cancel (client->cancellable);
  g_clear_object (&client->cancellable);
  g_clear_handle_id (&client->watch_id, g_bus_unwatch_name);
  g_free (client->sender);
  g_free (client);
}

/* Lifetime ----------------------------------------------------------------------------- */

/* The daemon stays up while an engine indexes or watches anything; otherwise GApplication's
 * inactivity timeout ends it. */
static void
update_hold (LodeDaemonService *self)
{
  GHashTableIter iter;
  Served *served;
  gboolean busy = FALSE;

  g_hash_table_iter_init (&iter, self->served);
  while (!busy && g_hash_table_iter_next (&iter, NULL, (gpointer *) &served))
    busy = lode_engine_is_busy (served->engine);

  if (busy && !self->held)
    g_application_hold (self->app);
  else if (!busy && self->held)
    g_application_release (self->app);
  self->held = busy;
}

/* Every call restarts the inactivity timeout. */
static void
touch (LodeDaemonService *self)
{
  g_application_hold (self->app);
  g_application_release (self->app);
}

/* Engine signals, for every engine ----------------------------------------------------- */

static void
engine_progress_cb (LodeEngine        *engine,
                    const char        *project_id,
                    const char        *root,
                    guint              phase,
                    guint              done,
                    guint              total,
                    LodeDaemonService *self)
{
  ProgressState *state = g_hash_table_lookup (self->progress, root);
  gint64 now = g_get_monotonic_time ();

  if (state == NULL)
    {
      state = g_new0 (ProgressState, 1);
      state->phase = G_MAXUINT;
      g_hash_table_insert (self->progress, g_strdup (root), state);
    }

  /* At most ten signals a second, but every change of phase and the end of each. */
  if (phase == state->phase && done != total && now - state->sent_at < PROGRESS_USEC)
    return;

  state->sent_at = now;
  state->phase = phase;
  lode_dbus_daemon1_emit_progress (LODE_DBUS_DAEMON1 (self), root,
                                   lode_index_phase_to_string (phase), done, total);
  update_hold (self);
}

static void
engine_finished_cb (LodeEngine        *engine,
                    const char        *project_id,
                    const char        *root,
                    guint              state,
                    const char        *error,
                    LodeDaemonService *self)
{
  g_hash_table_remove (self->progress, root);
  lode_dbus_daemon1_emit_index_finished (LODE_DBUS_DAEMON1 (self), root,
                                         lode_job_state_to_string (state),
                                         error != NULL ? error : "");
  update_hold (self);
}

static void
engine_index_changed_cb (LodeEngine        *engine,
                         const char        *project_id,
                         const char        *root,
                         LodeDaemonService *self)
{
  lode_dbus_daemon1_emit_index_changed (LODE_DBUS_DAEMON1 (self), root);
  /* It may tell of the end of another process's run that the engine followed. */
  update_hold (self);
}

static void
engine_projects_changed_cb (LodeEngine        *engine,
                            LodeDaemonService *self)
{
  lode_dbus_daemon1_emit_projects_changed (LODE_DBUS_DAEMON1 (self));
  update_hold (self);
}

static Served *
serve (LodeDaemonService *self,
       LodeEngine        *engine)
{
  Served *served = g_new0 (Served, 1);

  served->engine = engine;
  served->registry = lode_tools_new_registry (engine);
  g_signal_connect_object (engine, "index-progress", G_CALLBACK (engine_progress_cb), self, 0);
  g_signal_connect_object (engine, "index-finished", G_CALLBACK (engine_finished_cb), self, 0);
  g_signal_connect_object (engine, "index-changed", G_CALLBACK (engine_index_changed_cb),
                           self, 0);
  g_signal_connect_object (engine, "projects-changed",
                           G_CALLBACK (engine_projects_changed_cb), self, 0);

  return served;
}

/* The engine for a client's configuration: the daemon's own when they agree. */
static Served *
served_for_config (LodeDaemonService  *self,
                   GVariant           *dict,
                   GError            **error)
{
  const LodeConfig *own = lode_engine_get_config (self->own->engine);
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GVariant) normal = NULL;
  g_autofree char *key = NULL;
  Served *served;

  if (dict == NULL)
    return self->own;

  config = lode_config_from_variant (dict, own, error);
  if (config == NULL)
    return NULL;

  normal = g_variant_ref_sink (lode_config_to_variant (config));
  key = g_variant_print (normal, FALSE);
  served = g_hash_table_lookup (self->served, key);
  if (served != NULL)
    return served;

  if (g_hash_table_size (self->served) >= MAX_ENGINES)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_UNSUPPORTED,
                   "the daemon serves %d configurations already", MAX_ENGINES);
      return NULL;
    }

  g_debug ("Serving another configuration (data directory %s)", config->data_dir);
  served = serve (self, lode_engine_new (config));
  g_hash_table_insert (self->served, g_steal_pointer (&key), served);

  return served;
}

/* Clients ------------------------------------------------------------------------------ */

static void
return_error (GDBusMethodInvocation *invocation,
              const GError          *error)
{
  LodeError code = LODE_ERROR_FAILED;

  if (error->domain == LODE_ERROR)
    {
      g_dbus_method_invocation_return_gerror (invocation, error);
      return;
    }

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    code = LODE_ERROR_CANCELLED;
  else if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND) ||
           g_error_matches (error, G_FILE_ERROR, G_FILE_ERROR_NOENT))
    code = LODE_ERROR_NOT_FOUND;

  g_dbus_method_invocation_return_error_literal (invocation, LODE_ERROR, code, error->message);
}

static void
client_vanished_cb (GDBusConnection *connection,
                    const char      *name,
                    gpointer         user_data)
{
  LodeDaemonService *self = user_data;

  /* Cancels what the client waited for; the engine stops the jobs nobody else wants. */
  g_debug ("Client %s left the bus", name);
  g_hash_table_remove (self->clients, name);
}

static Client *
ensure_client (LodeDaemonService     *self,
               GDBusMethodInvocation *invocation)
{
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  Client *client;

  /* Peer-to-peer connections have no sender and nothing to watch. */
  if (sender == NULL)
    return NULL;

  client = g_hash_table_lookup (self->clients, sender);
  if (client != NULL)
    return client;

  client = g_new0 (Client, 1);
  client->sender = g_strdup (sender);
  client->cancellable = g_cancellable_new ();
  client->tool_calls = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_object_unref);
  g_hash_table_insert (self->clients, client->sender, client);
  client->watch_id =
    g_bus_watch_name_on_connection (g_dbus_method_invocation_get_connection (invocation),
                                    sender, G_BUS_NAME_WATCHER_FLAGS_NONE, NULL,
                                    client_vanished_cb, self, NULL);

  return client;
}

static GCancellable *
client_cancellable (LodeDaemonService     *self,
                    GDBusMethodInvocation *invocation)
{
  Client *client = ensure_client (self, invocation);

  return client != NULL ? g_object_ref (client->cancellable) : g_cancellable_new ();
}

/* Paths from the bus: absolute, of bounded length; the engine checks the rest. */
static gboolean
check_path (GDBusMethodInvocation *invocation,
            const char            *path)
{
  if (strlen (path) > MAX_PATH_BYTES)
    g_dbus_method_invocation_return_error (invocation, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                                           _("Path longer than %d bytes"), MAX_PATH_BYTES);
  else if (!g_path_is_absolute (path))
    g_dbus_method_invocation_return_error (invocation, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                                           _("“%s” is not an absolute path"), path);
  else
    return TRUE;

  return FALSE;
}

/* Indexing ----------------------------------------------------------------------------- */

/* A first index of a whole system (/, /usr, the home directory) is refused, as codebase_index
 * refuses it without `confirm: true`; the typed methods have no way to confirm, CallTool has. */
static gboolean
check_index_root (LodeDaemonService     *self,
                  GDBusMethodInvocation *invocation,
                  const char            *path)
{
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GError) error = NULL;

  project = lode_engine_open_project (self->own->engine, path, FALSE, &error);
  if (project != NULL &&
      (lode_project_is_indexed (project) ||
       lode_engine_check_index_root (lode_project_get_root (project), FALSE,
                                     "call CallTool with codebase_index and confirm: true",
                                     &error)))
    return TRUE;

  return_error (invocation, error);
  return FALSE;
}

static gboolean
handle_add_project (LodeDBusDaemon1       *iface,
                    GDBusMethodInvocation *invocation,
                    const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeJobInfo) job = NULL;

  touch (self);
  if (!check_path (invocation, path) || !check_index_root (self, invocation, path))
    return G_DBUS_METHOD_INVOCATION_HANDLED;

  job = lode_engine_start_index (self->own->engine, path, LODE_INDEX_REQUEST_UPDATE, TRUE, NULL,
                                 &error);
  if (job == NULL)
    return_error (g_steal_pointer (&invocation), error);
  else
    lode_dbus_daemon1_complete_add_project (iface, g_steal_pointer (&invocation), job->root,
                                            job->project_id);
  update_hold (self);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
index_done_cb (GObject      *object,
               GAsyncResult *result,
               gpointer      user_data)
{
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  g_autoptr(LodeJobInfo) job = NULL;
  g_autoptr(GError) error = NULL;
  gboolean joined = FALSE;

  job = lode_engine_index_finish (LODE_ENGINE (object), result, &joined, &error);
  if (job != NULL && job->state == LODE_JOB_STATE_CANCELLED)
    g_set_error (&error, LODE_ERROR, LODE_ERROR_CANCELLED,
                 _("Indexing %s was stopped; what was indexed is kept"), job->root);
  else if (job != NULL && job->state == LODE_JOB_STATE_FAILED)
    g_set_error_literal (&error, LODE_ERROR, LODE_ERROR_FAILED, job->error);

  if (error != NULL)
    return_error (g_steal_pointer (&invocation), error);
  else
    g_dbus_method_invocation_return_value (g_steal_pointer (&invocation),
                                           g_variant_new ("(@a{sv})",
                                                          lode_index_report_to_variant (job,
                                                                                        joined)));
}

static void
start_index (LodeDaemonService     *self,
             GDBusMethodInvocation *invocation,
             const char            *path,
             LodeIndexRequest       request)
{
  g_autoptr(GCancellable) cancellable = NULL;

  touch (self);
  if (!check_path (invocation, path) ||
      (request != LODE_INDEX_REQUEST_MUST_EXIST && !check_index_root (self, invocation, path)))
    return;

  cancellable = client_cancellable (self, invocation);
  lode_engine_index_async (self->own->engine, path, request, cancellable, index_done_cb,
                           invocation);
  update_hold (self);
}

static gboolean
handle_index (LodeDBusDaemon1       *iface,
              GDBusMethodInvocation *invocation,
              const char            *path,
              gboolean               force)
{
  start_index (LODE_DAEMON_SERVICE (iface), invocation, path,
               force ? LODE_INDEX_REQUEST_REBUILD : LODE_INDEX_REQUEST_UPDATE);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_update (LodeDBusDaemon1       *iface,
               GDBusMethodInvocation *invocation,
               const char            *path)
{
  start_index (LODE_DAEMON_SERVICE (iface), invocation, path, LODE_INDEX_REQUEST_MUST_EXIST);
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_stop (LodeDBusDaemon1       *iface,
             GDBusMethodInvocation *invocation,
             const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autofree char *root = NULL;
  g_autofree char *id = NULL;

  touch (self);
  if (!check_path (invocation, path))
    return G_DBUS_METHOD_INVOCATION_HANDLED;

  root = realpath (path, NULL);
  id = lode_project_id_for_path (root != NULL ? root : path);
  lode_dbus_daemon1_complete_stop (iface, g_steal_pointer (&invocation),
                                   lode_engine_stop_index (self->own->engine, id));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* Removal waits for a running job to end: on a worker thread. */
static void
remove_worker (GTask        *task,
               gpointer      source_object,
               gpointer      task_data,
               GCancellable *cancellable)
{
  GError *error = NULL;

  if (lode_engine_remove_project (source_object, task_data, &error))
    g_task_return_boolean (task, TRUE);
  else
    g_task_return_error (task, error);
}

static void
remove_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  g_autoptr(GError) error = NULL;

  if (!g_task_propagate_boolean (G_TASK (result), &error))
    return_error (g_steal_pointer (&invocation), error);
  else
    g_dbus_method_invocation_return_value (g_steal_pointer (&invocation), NULL);
}

static gboolean
handle_remove_project (LodeDBusDaemon1       *iface,
                       GDBusMethodInvocation *invocation,
                       const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GTask) task = NULL;

  touch (self);
  if (!check_path (invocation, path))
    return G_DBUS_METHOD_INVOCATION_HANDLED;

  task = g_task_new (self->own->engine, NULL, remove_done_cb, invocation);
  g_task_set_source_tag (task, handle_remove_project);
  g_task_set_task_data (task, g_strdup (path), g_free);
  g_task_run_in_thread (task, remove_worker);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* Reading ------------------------------------------------------------------------------ */

static gboolean
handle_list_projects (LodeDBusDaemon1       *iface,
                      GDBusMethodInvocation *invocation)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) infos = NULL;

  touch (self);
  infos = lode_engine_list_projects (self->own->engine, &error);
  if (infos == NULL)
    return_error (g_steal_pointer (&invocation), error);
  else
    lode_dbus_daemon1_complete_list_projects (iface, g_steal_pointer (&invocation),
                                              lode_project_infos_to_variant (infos));

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

typedef GVariant *(*StatusForm) (const LodeProjectStatus *status);

typedef struct
{
  LodeDaemonService     *service;
  GDBusMethodInvocation *invocation;
  StatusForm             form;
} StatusCall;

static void
status_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autofree StatusCall *call = user_data;
  g_autoptr(LodeDaemonService) self = g_steal_pointer (&call->service);
  g_autoptr(LodeProjectStatus) status = NULL;
  g_autoptr(GError) error = NULL;

  status = lode_engine_dup_status_finish (LODE_ENGINE (object), result, &error);
  /* A status that found another process writing the tree has the engine follow that run
   * until it ends: the daemon stays up to tell of it. */
  update_hold (self);
  if (status == NULL)
    return_error (g_steal_pointer (&call->invocation), error);
  else
    g_dbus_method_invocation_return_value (g_steal_pointer (&call->invocation),
                                           g_variant_new ("(@a{sv})", call->form (status)));
}

static void
reply_status (LodeDaemonService     *self,
              GDBusMethodInvocation *invocation,
              const char            *path,
              StatusForm             form)
{
  g_autoptr(GCancellable) cancellable = client_cancellable (self, invocation);
  StatusCall *call = g_new0 (StatusCall, 1);

  call->service = g_object_ref (self);
  call->invocation = invocation;
  call->form = form;
  lode_engine_dup_status_async (self->own->engine, path, cancellable, status_done_cb, call);
}

static gboolean
handle_status (LodeDBusDaemon1       *iface,
               GDBusMethodInvocation *invocation,
               const char            *path)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);

  touch (self);
  if (check_path (invocation, path))
    reply_status (self, invocation, path, lode_project_status_to_variant);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_watch (LodeDBusDaemon1       *iface,
              GDBusMethodInvocation *invocation,
              const char            *path,
              gboolean               enable)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;

  touch (self);
  if (!check_path (invocation, path))
    return G_DBUS_METHOD_INVOCATION_HANDLED;

  /* The typed method cannot confirm a whole system; CallTool's codebase_watch can. */
  if (!lode_engine_set_watching (self->own->engine, path, enable, FALSE, &error))
    return_error (g_steal_pointer (&invocation), error);
  else
    reply_status (self, invocation, path, lode_watch_to_variant);
  update_hold (self);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static void
search_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(GDBusMethodInvocation) invocation = user_data;
  g_autoptr(LodeSearchResponse) response = NULL;
  g_autoptr(GError) error = NULL;

  response = lode_engine_search_finish (LODE_ENGINE (object), result, &error);
  if (response == NULL)
    return_error (g_steal_pointer (&invocation), error);
  else
    g_dbus_method_invocation_return_value (g_steal_pointer (&invocation),
                                           lode_search_response_to_variant (response));
}

static gboolean
handle_search (LodeDBusDaemon1       *iface,
               GDBusMethodInvocation *invocation,
               const char            *path,
               const char            *query,
               GVariant              *options)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autofree char *language = NULL;
  g_autofree char *path_glob = NULL;
  LodeSearchOptions search;

  touch (self);
  if (!check_path (invocation, path))
    return G_DBUS_METHOD_INVOCATION_HANDLED;

  if (strlen (query) > MAX_QUERY_BYTES)
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_QUERY,
                                             _("The query is longer than %d bytes"),
                                             MAX_QUERY_BYTES);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (!lode_search_options_from_variant (options, &search, &language, &path_glob, &error))
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }
  search.query = query;

  cancellable = client_cancellable (self, invocation);
  lode_engine_search_async (self->own->engine, path, &search, cancellable, search_done_cb,
                            invocation);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* Tools -------------------------------------------------------------------------------- */

/* One CallTool call, shared by its progress reports (which go to the caller alone, the only
 * client that knows the call's id) and its completion. */
typedef struct
{
  LodeDaemonService     *service;
  GDBusMethodInvocation *invocation;
  char                  *call_id;      /* (nullable) */
} ToolCall;

static void
tool_call_clear (ToolCall *call)
{
  g_clear_object (&call->service);
  g_clear_object (&call->invocation);
  g_free (call->call_id);
}

static void
tool_call_unref (ToolCall *call)
{
  g_rc_box_release_full (call, (GDestroyNotify) tool_call_clear);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (ToolCall, tool_call_unref)

static void
tool_progress_cb (double      done,
                  double      total,
                  const char *message,
                  gpointer    user_data)
{
  ToolCall *call = user_data;
  const char *sender = g_dbus_method_invocation_get_sender (call->invocation);
  g_autoptr(GError) error = NULL;

  if (!g_dbus_connection_emit_signal (g_dbus_method_invocation_get_connection (call->invocation),
                                      sender,
                                      g_dbus_method_invocation_get_object_path (call->invocation),
                                      LODE_DBUS_NAME ".Daemon1", "ToolProgress",
                                      g_variant_new ("(sdds)", call->call_id, done, total,
                                                     message != NULL ? message : ""),
                                      &error))
    g_debug ("Cannot send progress to %s: %s", sender, error->message);
}

static void
call_tool_done_cb (GObject      *object,
                   GAsyncResult *result,
                   gpointer      user_data)
{
  g_autoptr(ToolCall) call = user_data;
  g_autoptr(LodeToolResult) tool_result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) json = NULL;
  Client *client = g_hash_table_lookup (call->service->clients,
                                        g_dbus_method_invocation_get_sender (call->invocation));

  if (call->call_id != NULL && client != NULL)
    g_hash_table_remove (client->tool_calls, call->call_id);
  update_hold (call->service);

  tool_result = lode_tool_registry_call_finish (LODE_TOOL_REGISTRY (object), result, &error);
  if (tool_result == NULL)
    {
      return_error (g_object_ref (call->invocation), error);
      return;
    }

  json = g_string_new (NULL);
  lode_tool_result_write_json (tool_result, json);
  g_dbus_method_invocation_return_value (g_object_ref (call->invocation),
                                         g_variant_new ("(s)", json->str));
}

static gboolean
handle_call_tool (LodeDBusDaemon1       *iface,
                  GDBusMethodInvocation *invocation,
                  const char            *name,
                  const char            *arguments,
                  GVariant              *options)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GCancellable) cancellable = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(ToolCall) call = NULL;
  g_autoptr(GVariant) config = NULL;
  ToolCall *progress_call;
  const char *call_id = NULL;
  Served *served;
  Client *client;

  touch (self);
  if (strlen (arguments) > MAX_TOOL_ARGUMENTS_BYTES)
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_ARGUMENT,
                                             "Tool arguments are limited to %d bytes",
                                             MAX_TOOL_ARGUMENTS_BYTES);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  node = lode_json_parse (*arguments != '\0' ? arguments : "{}", -1, &error);
  if (node == NULL || !JSON_NODE_HOLDS_OBJECT (node))
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_INVALID_ARGUMENT,
                                             "The arguments of %s are not a JSON object%s%s",
                                             name, error != NULL ? ": " : "",
                                             error != NULL ? error->message : "");
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  config = g_variant_lookup_value (options, "config", G_VARIANT_TYPE_VARDICT);
  served = served_for_config (self, config, &error);
  if (served == NULL)
    {
      return_error (g_steal_pointer (&invocation), error);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  if (lode_tool_registry_lookup (served->registry, name) == NULL)
    {
      g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                             LODE_ERROR_NOT_FOUND,
                                             "Unknown tool “%s”; codebase_about lists them",
                                             name);
      return G_DBUS_METHOD_INVOCATION_HANDLED;
    }

  client = ensure_client (self, invocation);
  if (g_variant_lookup (options, "call_id", "&s", &call_id))
    {
      if (client == NULL || *call_id == '\0' || strlen (call_id) > MAX_CALL_ID_BYTES ||
          g_hash_table_contains (client->tool_calls, call_id))
        {
          g_dbus_method_invocation_return_error (g_steal_pointer (&invocation), LODE_ERROR,
                                                 LODE_ERROR_INVALID_ARGUMENT,
                                                 "call_id must be 1 to %d bytes and unique "
                                                 "among the caller's running calls",
                                                 MAX_CALL_ID_BYTES);
          return G_DBUS_METHOD_INVOCATION_HANDLED;
        }
      cancellable = g_cancellable_new ();
      g_hash_table_insert (client->tool_calls, g_strdup (call_id), g_object_ref (cancellable));
    }
  else
    cancellable = client_cancellable (self, invocation);

  call = g_rc_box_new0 (ToolCall);
  call->service = g_object_ref (self);
  call->invocation = g_steal_pointer (&invocation);
  call->call_id = g_strdup (call_id);
  progress_call = call_id != NULL ? g_rc_box_acquire (call) : NULL;
  lode_tool_registry_call_async (served->registry, name, json_node_get_object (node), NULL,
                                 call_id != NULL ? tool_progress_cb : NULL, progress_call,
                                 call_id != NULL ? (GDestroyNotify) tool_call_unref : NULL,
                                 cancellable, call_tool_done_cb, g_steal_pointer (&call));
  update_hold (self);

  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

static gboolean
handle_cancel_tool (LodeDBusDaemon1       *iface,
                    GDBusMethodInvocation *invocation,
                    const char            *call_id)
{
  LodeDaemonService *self = LODE_DAEMON_SERVICE (iface);
  const char *sender = g_dbus_method_invocation_get_sender (invocation);
  Client *client = sender != NULL ? g_hash_table_lookup (self->clients, sender) : NULL;
  GCancellable *cancellable;

  touch (self);
  cancellable = client != NULL ? g_hash_table_lookup (client->tool_calls, call_id) : NULL;
  if (cancellable != NULL)
    g_cancellable_cancel (cancellable);

  lode_dbus_daemon1_complete_cancel_tool (iface, g_steal_pointer (&invocation));
  return G_DBUS_METHOD_INVOCATION_HANDLED;
}

/* GObject ------------------------------------------------------------------------------ */

static void
lode_daemon_service_iface_init (LodeDBusDaemon1Iface *iface)
{
  iface->handle_call_tool = handle_call_tool;
  iface->handle_cancel_tool = handle_cancel_tool;
  iface->handle_add_project = handle_add_project;
  iface->handle_remove_project = handle_remove_project;
  iface->handle_list_projects = handle_list_projects;
  iface->handle_index = handle_index;
  iface->handle_update = handle_update;
  iface->handle_stop = handle_stop;
  iface->handle_status = handle_status;
  iface->handle_search = handle_search;
  iface->handle_watch = handle_watch;
}

static void
lode_daemon_service_finalize (GObject *object)
{
  LodeDaemonService *self = (LodeDaemonService *)object;

  g_clear_pointer (&self->clients, g_hash_table_unref);
  g_clear_pointer (&self->served, g_hash_table_unref);
  g_clear_pointer (&self->progress, g_hash_table_unref);

  G_OBJECT_CLASS (lode_daemon_service_parent_class)->finalize (object);
}

static void
lode_daemon_service_class_init (LodeDaemonServiceClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_daemon_service_finalize;
}

static void
lode_daemon_service_init (LodeDaemonService *self)
{
  self->served = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) served_free);
  self->clients = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) client_free);
  self->progress = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, g_free);
  lode_dbus_daemon1_set_version (LODE_DBUS_DAEMON1 (self), 1);
}

/**
 * lode_daemon_service_new:
 * @app: the daemon's application; held while anything is indexed or watched
 * @engine: the engine of the daemon's own configuration; it remembers what it watches
 *
 * Returns: (transfer full): the service object, not exported yet
 */
LodeDaemonService *
lode_daemon_service_new (GApplication *app,
                         LodeEngine   *engine)
{
  LodeDaemonService *self;
  g_autoptr(GVariant) config = NULL;

  g_return_val_if_fail (G_IS_APPLICATION (app), NULL);
  g_return_val_if_fail (LODE_IS_ENGINE (engine), NULL);

  self = g_object_new (LODE_TYPE_DAEMON_SERVICE, NULL);
  self->app = app;
  lode_engine_set_persist_watches (engine, TRUE);
  self->own = serve (self, g_object_ref (engine));
  config = g_variant_ref_sink (lode_config_to_variant (lode_engine_get_config (engine)));
  g_hash_table_insert (self->served, g_variant_print (config, FALSE), self->own);

  return self;
}

/**
 * lode_daemon_service_resume:
 * @self: a #LodeDaemonService
 *
 * Watches again the projects that were watched when the daemon last ran, each with a
 * catch-up update that finds what changed while the daemon was down.
 */
void
lode_daemon_service_resume (LodeDaemonService *self)
{
  g_return_if_fail (LODE_IS_DAEMON_SERVICE (self));

  lode_engine_resume_watching (self->own->engine);
  update_hold (self);
}

/**
 * lode_daemon_service_shutdown:
 * @self: a #LodeDaemonService
 *
 * Stops every watcher (the list of watched trees is kept for the next start) and cancels
 * every job; what jobs stored is kept.
 */
void
lode_daemon_service_shutdown (LodeDaemonService *self)
{
  GHashTableIter iter;
  Served *served;

  g_return_if_fail (LODE_IS_DAEMON_SERVICE (self));

  g_hash_table_iter_init (&iter, self->served);
  while (g_hash_table_iter_next (&iter, NULL, (gpointer *) &served))
    {
      lode_engine_stop_watching_all (served->engine);
      lode_engine_cancel_jobs (served->engine);
    }
}
