/* loded.c — the Lode daemon
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-daemon"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>

#include "lode-daemon-service.h"
#include "lode-search-provider.h"

/*
 * A GApplication service (D-Bus activated, or started by its systemd user unit). The service
 * object is exported in dbus_register, before the bus name is owned, so that the call that
 * activated the daemon finds it. The daemon exits after inactivity-timeout when it neither
 * indexes nor watches anything.
 */

#define DEFAULT_IDLE_SECONDS 60

#define LODE_TYPE_DAEMON_APP (lode_daemon_app_get_type ())
G_DECLARE_FINAL_TYPE (LodeDaemonApp, lode_daemon_app, LODE, DAEMON_APP, GApplication)

struct _LodeDaemonApp
{
  GApplication       parent_instance;
  LodeEngine        *engine;
  LodeDaemonService *service;
  LodeSearchProvider *search_provider;
};

G_DEFINE_FINAL_TYPE (LodeDaemonApp, lode_daemon_app, G_TYPE_APPLICATION)

static gboolean
lode_daemon_app_dbus_register (GApplication     *app,
                               GDBusConnection  *connection,
                               const char       *object_path,
                               GError          **error)
{
  LodeDaemonApp *self = LODE_DAEMON_APP (app);

  if (!G_APPLICATION_CLASS (lode_daemon_app_parent_class)->dbus_register (app, connection,
                                                                          object_path, error))
    return FALSE;

  self->service = lode_daemon_service_new (app, self->engine);
  if (!g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self->service), connection,
                                         LODE_DAEMON_OBJECT_PATH, error))
    {
      g_prefix_error (error, _("Cannot export the daemon object: "));
      return FALSE;
    }

  self->search_provider = lode_search_provider_new (app, self->engine);
  if (!g_dbus_interface_skeleton_export (G_DBUS_INTERFACE_SKELETON (self->search_provider),
                                         connection, LODE_SEARCH_PROVIDER_OBJECT_PATH, error))
    {
      g_prefix_error (error, _("Cannot export the search provider: "));
      return FALSE;
    }

  return TRUE;
}

static void
lode_daemon_app_dbus_unregister (GApplication    *app,
                                 GDBusConnection *connection,
                                 const char      *object_path)
{
  LodeDaemonApp *self = LODE_DAEMON_APP (app);

  if (self->service != NULL)
    {
      lode_daemon_service_shutdown (self->service);
      g_dbus_interface_skeleton_unexport (G_DBUS_INTERFACE_SKELETON (self->service));
    }
  if (self->search_provider != NULL)
    g_dbus_interface_skeleton_unexport (G_DBUS_INTERFACE_SKELETON (self->search_provider));

  G_APPLICATION_CLASS (lode_daemon_app_parent_class)->dbus_unregister (app, connection,
                                                                       object_path);
}

static void
lode_daemon_app_startup (GApplication *app)
{
  LodeDaemonApp *self = LODE_DAEMON_APP (app);

  G_APPLICATION_CLASS (lode_daemon_app_parent_class)->startup (app);

  if (self->service != NULL)
    lode_daemon_service_resume (self->service);
}

static void
lode_daemon_app_activate (GApplication *app)
{
  /* Nothing to show: the work comes in over D-Bus. */
}

static void
lode_daemon_app_finalize (GObject *object)
{
  LodeDaemonApp *self = (LodeDaemonApp *)object;

  g_clear_object (&self->service);
  g_clear_object (&self->search_provider);
  g_clear_object (&self->engine);

  G_OBJECT_CLASS (lode_daemon_app_parent_class)->finalize (object);
}

static void
lode_daemon_app_class_init (LodeDaemonAppClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = lode_daemon_app_finalize;
  app_class->dbus_register = lode_daemon_app_dbus_register;
  app_class->dbus_unregister = lode_daemon_app_dbus_unregister;
  app_class->startup = lode_daemon_app_startup;
  app_class->activate = lode_daemon_app_activate;
}

static void
lode_daemon_app_init (LodeDaemonApp *self)
{
}

static gboolean
quit_cb (gpointer user_data)
{
  g_message ("Signal received, exiting");
  g_application_quit (G_APPLICATION (user_data));
  return G_SOURCE_REMOVE;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(LodeDaemonApp) app = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autoptr(GError) error = NULL;
  const char *idle = g_getenv ("LODE_DAEMON_IDLE_TIMEOUT");
  guint idle_seconds = DEFAULT_IDLE_SECONDS;

  lode_locale_init ();
  g_set_prgname ("loded");

  config = lode_engine_load_config (&error);
  if (config == NULL)
    {
      g_printerr ("loded: %s\n", error->message);
      return 1;
    }

  if (idle != NULL)
    idle_seconds = CLAMP (g_ascii_strtoull (idle, NULL, 10), 1, 24 * 3600);

  app = g_object_new (LODE_TYPE_DAEMON_APP,
                      "application-id", LODE_DAEMON_BUS_NAME,
                      "flags", G_APPLICATION_IS_SERVICE,
                      "inactivity-timeout", idle_seconds * 1000,
                      NULL);
  app->engine = lode_engine_new (config);

  g_unix_signal_add (SIGTERM, quit_cb, app);
  g_unix_signal_add (SIGINT, quit_cb, app);

  return g_application_run (G_APPLICATION (app), argc, argv);
}
