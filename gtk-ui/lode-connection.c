/* lode-connection.c — what the app's windows and pages share with loded: the client, why it
 * is missing, the settings, and tool calls
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-connection.h"

/*
 * The app is a D-Bus client of loded and nothing else: its connection holds one LodeClient
 * in daemon-only mode (made asynchronously when the connection is made, which activates
 * loded) and the settings the daemon shares. Every page calls the registry's tools through
 * it, with JSON arguments, and shows their structured results, as an MCP agent would. The
 * application makes the connection at startup and hands it to its windows, which hand it to
 * their pages: the pages know nothing of the application or the window.
 */

struct _LodeConnection
{
  GObject       parent_instance;
  GSettings    *settings;
  LodeClient   *client;
  GError       *client_error;
};

G_DEFINE_FINAL_TYPE (LodeConnection, lode_connection, G_TYPE_OBJECT)

enum { PROP_0, PROP_CLIENT, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
client_ready_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(LodeConnection) self = user_data;
  g_autoptr(GError) error = NULL;
  LodeClient *client = lode_client_new_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (client == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_warning ("%s", error->message);
      self->client_error = g_steal_pointer (&error);
    }
  self->client = client;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_CLIENT]);
}

/**
 * lode_connection_new:
 * @cancellable: (nullable): stops the connecting
 *
 * Starts connecting to loded; #LodeConnection:client is notified when that succeeded or
 * failed.
 *
 * Returns: (transfer full): a new #LodeConnection
 */
LodeConnection *
lode_connection_new (GCancellable *cancellable)
{
  LodeConnection *self;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);

  self = g_object_new (LODE_TYPE_CONNECTION, NULL);
  self->settings = g_settings_new (LODE_SCHEMA_ID);

  /* The app's configuration is the daemon's (the same settings and environment), so loded
   * serves the app from its own engine. */
  config = lode_engine_load_config (&error);
  if (config == NULL)
    {
      g_warning ("%s", error->message);
      self->client_error = g_steal_pointer (&error);
    }
  else
    lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, cancellable, client_ready_cb,
                           g_object_ref (self));

  return self;
}

/**
 * lode_connection_get_client:
 * @self: a #LodeConnection
 *
 * Returns: (transfer none) (nullable): the client of loded, %NULL until it is connected
 *   (#LodeConnection:client is notified then) or when loded cannot be reached
 */
LodeClient *
lode_connection_get_client (LodeConnection *self)
{
  g_return_val_if_fail (LODE_IS_CONNECTION (self), NULL);

  return self->client;
}

/**
 * lode_connection_get_client_error:
 * @self: a #LodeConnection
 *
 * Returns: (transfer none) (nullable): why loded cannot be reached, once that is known
 */
const GError *
lode_connection_get_client_error (LodeConnection *self)
{
  g_return_val_if_fail (LODE_IS_CONNECTION (self), NULL);

  return self->client_error;
}

/**
 * lode_connection_get_settings:
 * @self: a #LodeConnection
 *
 * Returns: (transfer none): the settings shared with the daemon
 */
GSettings *
lode_connection_get_settings (LodeConnection *self)
{
  g_return_val_if_fail (LODE_IS_CONNECTION (self), NULL);

  return self->settings;
}

static void
call_tool_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  g_autoptr(GTask) task = user_data;
  g_autoptr(LodeToolResult) tool_result = NULL;
  GError *error = NULL;

  tool_result = lode_client_call_tool_finish (LODE_CLIENT (object), result, &error);
  if (tool_result == NULL)
    {
      g_dbus_error_strip_remote_error (error);
      g_task_return_error (task, error);
    }
  else if (tool_result->is_error || lode_tool_result_get_structured (tool_result) == NULL)
    g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_FAILED, "%s", tool_result->text);
  else
    g_task_return_pointer (task, json_object_ref (tool_result->structured),
                           (GDestroyNotify) json_object_unref);
}

/**
 * lode_connection_call_tool:
 * @self: a #LodeConnection
 * @name: a tool of the registry
 * @arguments: (transfer full): its arguments
 * @cancellable: (nullable): cancels the call
 * @callback: called with the result
 * @user_data: data for @callback
 *
 * Calls a tool in loded; the result is its structured result, and a tool's error result is
 * an error with the tool's message.
 */
void
lode_connection_call_tool (LodeConnection      *self,
                           const char          *name,
                           JsonObject          *arguments,
                           GCancellable        *cancellable,
                           GAsyncReadyCallback  callback,
                           gpointer             user_data)
{
  g_autoptr(JsonObject) owned = arguments;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (LODE_IS_CONNECTION (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_connection_call_tool);

  if (self->client == NULL)
    {
      g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_FAILED, "%s",
                               self->client_error != NULL
                               ? self->client_error->message
                               : _("Lode’s service is starting"));
      return;
    }

  lode_client_call_tool_async (self->client, name, owned, NULL, NULL, NULL, NULL, cancellable,
                               call_tool_cb, g_steal_pointer (&task));
}

/**
 * lode_connection_call_tool_finish:
 * @self: a #LodeConnection
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tool's structured result
 */
JsonObject *
lode_connection_call_tool_finish (LodeConnection  *self,
                                  GAsyncResult    *result,
                                  GError         **error)
{
  g_return_val_if_fail (LODE_IS_CONNECTION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

static void
lode_connection_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  LodeConnection *self = LODE_CONNECTION (object);

  switch (prop_id)
    {
    case PROP_CLIENT:
      g_value_set_object (value, self->client);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_connection_finalize (GObject *object)
{
  LodeConnection *self = (LodeConnection *)object;

  g_clear_object (&self->client);
  g_clear_error (&self->client_error);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (lode_connection_parent_class)->finalize (object);
}

static void
lode_connection_class_init (LodeConnectionClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->get_property = lode_connection_get_property;
  object_class->finalize = lode_connection_finalize;

  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL,
                         LODE_TYPE_CLIENT,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_connection_init (LodeConnection *self)
{
}
