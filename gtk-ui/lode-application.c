/* lode-application.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-application.h"
#include "lode-error.h"
#include "lode-preferences-window.h"
#include "lode-window.h"

/*
 * The app is a D-Bus client of loded and nothing else: it holds one proxy of the daemon
 * (created asynchronously at startup; the first call activates loded) and the settings the
 * daemon shares. It is DBusActivatable: GApplication handles --gapplication-service, and the
 * daemon's Shell search provider opens it on a query with the "search" action.
 */

struct _LodeApplication
{
  AdwApplication   parent_instance;
  GSettings       *settings;
  LodeDBusDaemon1 *daemon;
  GCancellable    *cancellable;
};

G_DEFINE_FINAL_TYPE (LodeApplication, lode_application, ADW_TYPE_APPLICATION)

enum { PROP_0, PROP_DAEMON, N_PROPS };
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
 * lode_application_get_daemon:
 * @self: a #LodeApplication
 *
 * Returns: (transfer none) (nullable): the daemon's proxy, %NULL until it has been created
 *   (#LodeApplication:daemon is notified then)
 */
LodeDBusDaemon1 *
lode_application_get_daemon (LodeApplication *self)
{
  g_return_val_if_fail (LODE_IS_APPLICATION (self), NULL);

  return self->daemon;
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
proxy_ready_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(LodeApplication) self = user_data;
  g_autoptr(GError) error = NULL;
  LodeDBusDaemon1 *proxy = lode_dbus_daemon1_proxy_new_for_bus_finish (result, &error);

  if (proxy == NULL)
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        g_warning ("Cannot reach the Lode daemon: %s", error->message);
      return;
    }

  /* Indexing a large tree takes minutes; the daemon reports progress with signals. */
  g_dbus_proxy_set_default_timeout (G_DBUS_PROXY (proxy), G_MAXINT);
  self->daemon = proxy;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_DAEMON]);
}

static void
lode_application_startup (GApplication *app)
{
  LodeApplication *self = LODE_APPLICATION (app);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };

  G_APPLICATION_CLASS (lode_application_parent_class)->startup (app);

  /* Daemon errors arrive as LODE_ERROR, with the daemon's message. */
  lode_error_quark ();

  self->settings = g_settings_new (LODE_SCHEMA_ID);
  self->cancellable = g_cancellable_new ();
  lode_dbus_daemon1_proxy_new_for_bus (G_BUS_TYPE_SESSION,
                                       G_DBUS_PROXY_FLAGS_DO_NOT_LOAD_PROPERTIES,
                                       LODE_DAEMON_BUS_NAME, LODE_DAEMON_OBJECT_PATH,
                                       self->cancellable, proxy_ready_cb,
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
    case PROP_DAEMON:
      g_value_set_object (value, self->daemon);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_application_finalize (GObject *object)
{
  LodeApplication *self = (LodeApplication *)object;

  g_clear_object (&self->daemon);
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

  properties [PROP_DAEMON] =
    g_param_spec_object ("daemon", NULL, NULL,
                         LODE_DBUS_TYPE_DAEMON1,
                         (G_PARAM_READABLE | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_application_init (LodeApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
}
