/* lode-window.c — the main window: Projects, Search, Graph and Models pages
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-graph-page.h"
#include "lode-models-page.h"
#include "lode-projects-page.h"
#include "lode-search-page.h"
#include "lode-toast.h"
#include "lode-window.h"

struct _LodeWindow
{
  AdwApplicationWindow  parent_instance;
  AdwToastOverlay      *toasts;
  AdwViewStack         *stack;
  LodeProjectsPage     *projects_page;
  LodeSearchPage       *search_page;
  LodeGraphPage        *graph_page;
  LodeModelsPage       *models_page;
};

G_DEFINE_FINAL_TYPE (LodeWindow, lode_window, ADW_TYPE_APPLICATION_WINDOW)

/* Loded cannot be reached: the pages stay empty, and the toast says why. */
static void
client_changed_cb (LodeWindow     *self,
                   GParamSpec     *pspec,
                   LodeConnection *connection)
{
  const GError *error = lode_connection_get_client_error (connection);

  if (error != NULL)
    lode_toast_show_error (GTK_WIDGET (self), _("Lode’s service is not available"), error);
}

/**
 * lode_window_new:
 * @application: the application
 * @connection: the connection to loded its pages use
 *
 * Returns: (transfer none): a new window of @application
 */
LodeWindow *
lode_window_new (GtkApplication *application,
                 LodeConnection *connection)
{
  LodeWindow *self;
  GListModel *projects;

  g_return_val_if_fail (GTK_IS_APPLICATION (application), NULL);
  g_return_val_if_fail (LODE_IS_CONNECTION (connection), NULL);

  self = g_object_new (LODE_TYPE_WINDOW, "application", application, NULL);

  projects = lode_projects_page_get_model (self->projects_page);
  lode_projects_page_set_connection (self->projects_page, connection);
  lode_search_page_set_connection (self->search_page, connection, projects);
  lode_graph_page_set_connection (self->graph_page, connection, projects);
  lode_models_page_set_connection (self->models_page, connection);

  g_signal_connect_object (connection, "notify::client", G_CALLBACK (client_changed_cb), self,
                           G_CONNECT_SWAPPED);
  client_changed_cb (self, NULL, connection);

  return self;
}

/**
 * lode_window_search:
 * @self: a #LodeWindow
 * @query: what to look for
 *
 * Shows the Search page with @query (the Shell search provider's LaunchSearch).
 */
void
lode_window_search (LodeWindow *self,
                    const char *query)
{
  g_return_if_fail (LODE_IS_WINDOW (self));
  g_return_if_fail (query != NULL);

  adw_view_stack_set_visible_child_name (self->stack, "search");
  lode_search_page_set_query (self->search_page, query);
}

/* The "win.show-toast" action: pages show errors through lode_toast_show_error(). */
static void
show_toast_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  LodeWindow *self = LODE_WINDOW (widget);
  AdwToast *toast = adw_toast_new (g_variant_get_string (parameter, NULL));

  adw_toast_set_timeout (toast, 0);
  adw_toast_overlay_add_toast (self->toasts, toast);
}

static void
lode_window_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_WINDOW);

  G_OBJECT_CLASS (lode_window_parent_class)->dispose (object);
}

static void
lode_window_class_init (LodeWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_window_dispose;

  g_type_ensure (LODE_TYPE_PROJECTS_PAGE);
  g_type_ensure (LODE_TYPE_SEARCH_PAGE);
  g_type_ensure (LODE_TYPE_GRAPH_PAGE);
  g_type_ensure (LODE_TYPE_MODELS_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, projects_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, search_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, graph_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, models_page);

  gtk_widget_class_install_action (widget_class, "win.show-toast", "s", show_toast_activated);
}

static void
lode_window_init (LodeWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
