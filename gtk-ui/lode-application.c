/* lode-application.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-application.h"
#include "lode-preferences-window.h"
#include "lode-window.h"

/*
 * The app is a D-Bus client of loded and nothing else: it holds one LodeClient in
 * daemon-only mode (made asynchronously at startup, which activates loded) and the settings
 * the daemon shares. Every page calls the registry's tools through it, with JSON arguments,
 * and shows their structured results, as an MCP agent would. It is DBusActivatable:
 * GApplication handles --gapplication-service, and the daemon's Shell search provider opens
 * it on a query with the "search" action.
 */

struct _LodeApplication
{
  AdwApplication  parent_instance;
  GSettings      *settings;
  LodeClient     *client;
  GError         *client_error;
  GCancellable   *cancellable;
};

G_DEFINE_FINAL_TYPE (LodeApplication, lode_application, ADW_TYPE_APPLICATION)

enum { PROP_0, PROP_CLIENT, N_PROPS };
static GParamSpec *properties [N_PROPS];

LodeApplication *
lode_application_new (void)
{
  return g_object_new (LODE_TYPE_APPLICATION,
                       "application-id", LODE_APP_ID,
                       "flags", G_APPLICATION_DEFAULT_FLAGS,
                       "resource-base-path", "/io/github/lode/Lode",
                       NULL);
}

/**
 * lode_application_get_client:
 * @self: a #LodeApplication
 *
 * Returns: (transfer none) (nullable): the client of loded, %NULL until it is connected
 *   (#LodeApplication:client is notified then) or when loded cannot be reached
 */
LodeClient *
lode_application_get_client (LodeApplication *self)
{
  g_return_val_if_fail (LODE_IS_APPLICATION (self), NULL);

  return self->client;
}

/**
 * lode_application_get_client_error:
 * @self: a #LodeApplication
 *
 * Returns: (transfer none) (nullable): why loded cannot be reached, once that is known
 */
const GError *
lode_application_get_client_error (LodeApplication *self)
{
  g_return_val_if_fail (LODE_IS_APPLICATION (self), NULL);

  return self->client_error;
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
  else if (tool_result->is_error || tool_result->structured == NULL)
    g_task_return_new_error (task, LODE_ERROR, LODE_ERROR_FAILED, "%s", tool_result->text);
  else
    g_task_return_pointer (task, json_object_ref (tool_result->structured),
                           (GDestroyNotify) json_object_unref);
}

/**
 * lode_application_call_tool:
 * @self: a #LodeApplication
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
lode_application_call_tool (LodeApplication     *self,
                            const char          *name,
                            JsonObject          *arguments,
                            GCancellable        *cancellable,
                            GAsyncReadyCallback  callback,
                            gpointer             user_data)
{
  g_autoptr(JsonObject) owned = arguments;
  g_autoptr(GTask) task = NULL;

  g_return_if_fail (LODE_IS_APPLICATION (self));
  g_return_if_fail (name != NULL);

  task = g_task_new (self, cancellable, callback, user_data);
  g_task_set_source_tag (task, lode_application_call_tool);

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
 * lode_application_call_tool_finish:
 * @self: a #LodeApplication
 * @result: the #GAsyncResult
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the tool's structured result
 */
JsonObject *
lode_application_call_tool_finish (LodeApplication  *self,
                                   GAsyncResult     *result,
                                   GError          **error)
{
  g_return_val_if_fail (LODE_IS_APPLICATION (self), NULL);
  g_return_val_if_fail (g_task_is_valid (result, self), NULL);

  return g_task_propagate_pointer (G_TASK (result), error);
}

/**
 * lode_application_get_settings:
 * @self: a #LodeApplication
 *
 * Returns: (transfer none): the settings shared with the daemon
 */
GSettings *
lode_application_get_settings (LodeApplication *self)
{
  g_return_val_if_fail (LODE_IS_APPLICATION (self), NULL);

  return self->settings;
}

static LodeWindow *
ensure_window (LodeApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (lode_window_new (self));

  return LODE_WINDOW (window);
}

static void
client_ready_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  g_autoptr(LodeApplication) self = user_data;
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

static void
lode_application_startup (GApplication *app)
{
  LodeApplication *self = LODE_APPLICATION (app);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;

  G_APPLICATION_CLASS (lode_application_parent_class)->startup (app);

  self->settings = g_settings_new (LODE_SCHEMA_ID);
  self->cancellable = g_cancellable_new ();

  /* The app's configuration is the daemon's (the same settings and environment), so loded
   * serves the app from its own engine. */
  config = lode_config_load (&error);
  if (config == NULL)
    {
      g_warning ("%s", error->message);
      self->client_error = g_steal_pointer (&error);
    }
  else
    lode_client_new_async (config, LODE_CLIENT_DAEMON_ONLY, self->cancellable, client_ready_cb,
                           g_object_ref (self));

  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.quit", quit_accels);
  gtk_application_set_accels_for_action (GTK_APPLICATION (app), "app.preferences",
                                         preferences_accels);
}

static void
lode_application_shutdown (GApplication *app)
{
  LodeApplication *self = LODE_APPLICATION (app);

  g_cancellable_cancel (self->cancellable);

  G_APPLICATION_CLASS (lode_application_parent_class)->shutdown (app);
}

static void
lode_application_activate (GApplication *app)
{
  gtk_window_present (GTK_WINDOW (ensure_window (LODE_APPLICATION (app))));
}

static void
quit_activated (GSimpleAction *action,
                GVariant      *parameter,
                gpointer       user_data)
{
  g_application_quit (G_APPLICATION (user_data));
}

static void
preferences_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  LodeApplication *self = user_data;
  LodePreferencesWindow *preferences = lode_preferences_window_new (self->settings);

  gtk_window_set_transient_for (GTK_WINDOW (preferences), GTK_WINDOW (ensure_window (self)));
  gtk_window_present (GTK_WINDOW (preferences));
}

static void
about_activated (GSimpleAction *action,
                 GVariant      *parameter,
                 gpointer       user_data)
{
  LodeApplication *self = user_data;
  static const char *developers[] = { "The Lode authors", NULL };
  GtkWidget *about;

  about = g_object_new (ADW_TYPE_ABOUT_WINDOW,
                        "transient-for", ensure_window (self),
                        "application-name", _("Lode"),
                        "application-icon", LODE_APP_ID,
                        "version", PACKAGE_VERSION,
                        "comments", _("Code search and an import graph for your source trees, "
                                      "shared with your AI agents"),
                        "website", "https://github.com/lode/lode",
                        "issue-url", "https://github.com/lode/lode/issues",
                        "license-type", GTK_LICENSE_GPL_3_0,
                        "copyright", "© 2026 The Lode authors",
                        "developers", developers,
                        /* Translators: put your names here, one per line. */
                        "translator-credits", _("translator-credits"),
                        NULL);
  gtk_window_present (GTK_WINDOW (about));
}

static void
search_activated (GSimpleAction *action,
                  GVariant      *parameter,
                  gpointer       user_data)
{
  LodeWindow *window = ensure_window (LODE_APPLICATION (user_data));

  lode_window_search (window, g_variant_get_string (parameter, NULL));
  gtk_window_present (GTK_WINDOW (window));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "preferences", preferences_activated },
  { "about", about_activated },
  { "search", search_activated, "s" },
};

static void
lode_application_get_property (GObject    *object,
                               guint       prop_id,
                               GValue     *value,
                               GParamSpec *pspec)
{
  LodeApplication *self = LODE_APPLICATION (object);

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
lode_application_finalize (GObject *object)
{
  LodeApplication *self = (LodeApplication *)object;

  g_clear_object (&self->client);
  g_clear_error (&self->client_error);
  g_clear_object (&self->settings);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (lode_application_parent_class)->finalize (object);
}

static void
lode_application_class_init (LodeApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->get_property = lode_application_get_property;
  object_class->finalize = lode_application_finalize;
  app_class->startup = lode_application_startup;
  app_class->shutdown = lode_application_shutdown;
  app_class->activate = lode_application_activate;

  properties [PROP_CLIENT] =
    g_param_spec_object ("client", NULL, NULL,
                         LODE_TYPE_CLIENT,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_application_init (LodeApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
}
