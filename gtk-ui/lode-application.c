/* lode-application.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-application.h"
#include "lode-connection.h"
#include "lode-preferences-window.h"
#include "lode-window.h"

/*
 * The app is a D-Bus client of loded and nothing else: at startup it makes the connection
 * to loded (lode-connection.c) that its windows and their pages share. It is
 * DBusActivatable: GApplication handles --gapplication-service, the daemon's Shell search
 * provider opens it on a query with the "search" action and on a result with "show-symbol",
 * and codebase_graph_visualize's interactive mode on a file's imports with "show-graph" or on
 * a symbol with "show-symbol".
 */

struct _LodeApplication
{
  AdwApplication  parent_instance;
  LodeConnection *connection;
  GCancellable   *cancellable;
};

G_DEFINE_FINAL_TYPE (LodeApplication, lode_application, ADW_TYPE_APPLICATION)

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
 * Returns: (transfer none) (nullable): the client of loded, %NULL before startup, until it
 *   is connected or when loded cannot be reached
 */
LodeClient *
lode_application_get_client (LodeApplication *self)
{
  g_return_val_if_fail (LODE_IS_APPLICATION (self), NULL);

  return self->connection != NULL ? lode_connection_get_client (self->connection) : NULL;
}

/**
 * lode_application_get_settings:
 * @self: a #LodeApplication
 *
 * Returns: (transfer none) (nullable): the settings shared with the daemon, %NULL before
 *   startup
 */
GSettings *
lode_application_get_settings (LodeApplication *self)
{
  g_return_val_if_fail (LODE_IS_APPLICATION (self), NULL);

  return self->connection != NULL ? lode_connection_get_settings (self->connection) : NULL;
}

static LodeWindow *
ensure_window (LodeApplication *self)
{
  GtkWindow *window = gtk_application_get_active_window (GTK_APPLICATION (self));

  if (window == NULL)
    window = GTK_WINDOW (lode_window_new (GTK_APPLICATION (self), self->connection));

  return LODE_WINDOW (window);
}

static void
lode_application_startup (GApplication *app)
{
  LodeApplication *self = LODE_APPLICATION (app);
  static const char *quit_accels[] = { "<Control>q", NULL };
  static const char *preferences_accels[] = { "<Control>comma", NULL };

  G_APPLICATION_CLASS (lode_application_parent_class)->startup (app);

  self->cancellable = g_cancellable_new ();
  self->connection = lode_connection_new (self->cancellable);

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
  GSettings *settings = lode_connection_get_settings (self->connection);
  LodePreferencesWindow *preferences = lode_preferences_window_new (settings);

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
                        "comments", _("Search your source trees as you type and explore their "
                                      "import graphs, shared with your AI agents"),
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

/* ("/root/of/project", "src/file.c"): codebase_graph_visualize's interactive mode; "" for
 * the file shows the project's overview. */
static void
show_graph_activated (GSimpleAction *action,
                      GVariant      *parameter,
                      gpointer       user_data)
{
  LodeWindow *window = ensure_window (LODE_APPLICATION (user_data));
  const char *root;
  const char *file;

  g_variant_get (parameter, "(&s&s)", &root, &file);
  lode_window_show_graph (window, root, file);
  gtk_window_present (GTK_WINDOW (window));
}

/* ("/root/of/project", "name", "src/file.c"): a Shell search result, or
 * codebase_graph_visualize's interactive mode for a symbol; "" for the file when the name is
 * enough. */
static void
show_symbol_activated (GSimpleAction *action,
                       GVariant      *parameter,
                       gpointer       user_data)
{
  LodeWindow *window = ensure_window (LODE_APPLICATION (user_data));
  const char *root, *name, *file;

  g_variant_get (parameter, "(&s&s&s)", &root, &name, &file);
  lode_window_show_symbol (window, root, name, file);
  gtk_window_present (GTK_WINDOW (window));
}

static const GActionEntry app_actions[] = {
  { "quit", quit_activated },
  { "preferences", preferences_activated },
  { "about", about_activated },
  { "search", search_activated, "s" },
  { "show-graph", show_graph_activated, "(ss)" },
  { "show-symbol", show_symbol_activated, "(sss)" },
};

static void
lode_application_finalize (GObject *object)
{
  LodeApplication *self = (LodeApplication *)object;

  g_clear_object (&self->connection);
  g_clear_object (&self->cancellable);

  G_OBJECT_CLASS (lode_application_parent_class)->finalize (object);
}

static void
lode_application_class_init (LodeApplicationClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GApplicationClass *app_class = G_APPLICATION_CLASS (klass);

  object_class->finalize = lode_application_finalize;
  app_class->startup = lode_application_startup;
  app_class->shutdown = lode_application_shutdown;
  app_class->activate = lode_application_activate;
}

static void
lode_application_init (LodeApplication *self)
{
  g_action_map_add_action_entries (G_ACTION_MAP (self), app_actions,
                                   G_N_ELEMENTS (app_actions), self);
}
