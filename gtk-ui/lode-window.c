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
#include "lode-symbol-page.h"
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
  AdwViewStackPage     *symbol_stack_page;
  LodeSymbolPage       *symbol_page;
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
  lode_symbol_page_set_connection (self->symbol_page, connection);
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

/**
 * lode_window_show_graph:
 * @self: a #LodeWindow
 * @root: a project's root
 * @file: (nullable): one of its files, relative to @root
 *
 * Shows the Graph page on @file's imports, or on the project's overview (the app's
 * "show-graph" action, which codebase_graph_visualize's interactive mode activates).
 */
void
lode_window_show_graph (LodeWindow *self,
                        const char *root,
                        const char *file)
{
  g_return_if_fail (LODE_IS_WINDOW (self));
  g_return_if_fail (root != NULL);

  adw_view_stack_set_visible_child_name (self->stack, "graph");
  lode_graph_page_show (self->graph_page, root, file);
}

/* The "win.show-toast" action: lode_toast_show(). */
static void
show_toast_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  AdwToast *toast = adw_toast_new (g_variant_get_string (parameter, NULL));

  adw_toast_set_timeout (toast, LODE_TOAST_SECONDS);
  adw_toast_overlay_add_toast (LODE_WINDOW (widget)->toasts, toast);
}

/* The "win.show-error" action: lode_toast_show_error(), (title, whole message). */
static void
show_error_activated (GtkWidget  *widget,
                      const char *action_name,
                      GVariant   *parameter)
{
  const char *title;
  const char *full;
  AdwToast *toast;

  g_variant_get (parameter, "(&s&s)", &title, &full);
  toast = adw_toast_new (title);
  adw_toast_set_timeout (toast, LODE_TOAST_ERROR_SECONDS);
  /* The latest error is the one to read: it replaces a toast shown, rather than waiting. */
  adw_toast_set_priority (toast, ADW_TOAST_PRIORITY_HIGH);
  adw_toast_set_button_label (toast, _("_Details"));
  adw_toast_set_action_name (toast, "win.error-details");
  adw_toast_set_action_target_value (toast, g_variant_new_string (full));
  adw_toast_overlay_add_toast (LODE_WINDOW (widget)->toasts, toast);
}

/* A toast's Details: the whole message, which can be selected and copied. */
static void
error_details_activated (GtkWidget  *widget,
                         const char *action_name,
                         GVariant   *parameter)
{
  GtkWidget *dialog = adw_message_dialog_new (GTK_WINDOW (widget), _("What Went Wrong"), NULL);
  GtkWidget *message = gtk_label_new (g_variant_get_string (parameter, NULL));

  gtk_label_set_selectable (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap (GTK_LABEL (message), TRUE);
  gtk_label_set_wrap_mode (GTK_LABEL (message), PANGO_WRAP_WORD_CHAR);
  gtk_label_set_xalign (GTK_LABEL (message), 0);
  adw_message_dialog_set_extra_child (ADW_MESSAGE_DIALOG (dialog), message);
  adw_message_dialog_add_response (ADW_MESSAGE_DIALOG (dialog), "close", _("_Close"));
  gtk_window_present (GTK_WINDOW (dialog));
}

/* "win.show-page": a page by its name, such as "models". */
static void
show_page_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  adw_view_stack_set_visible_child_name (LODE_WINDOW (widget)->stack,
                                         g_variant_get_string (parameter, NULL));
}

/**
 * lode_window_show_symbol:
 * @self: a #LodeWindow
 * @root: a project's root
 * @name: a definition, plain or qualified
 * @file: (nullable): its file, relative to @root
 *
 * Shows the Symbol page, which joins the switcher when a first symbol is opened, on the
 * definition (a search result's name, the Shell provider's result, codebase_graph_visualize's
 * interactive mode for a symbol).
 */
void
lode_window_show_symbol (LodeWindow *self,
                         const char *root,
                         const char *name,
                         const char *file)
{
  g_return_if_fail (LODE_IS_WINDOW (self));
  g_return_if_fail (root != NULL && name != NULL);

  lode_symbol_page_show (self->symbol_page, root, name, file);
  adw_view_stack_page_set_visible (self->symbol_stack_page, TRUE);
  adw_view_stack_set_visible_child_name (self->stack, "symbol");
}

/* "win.show-symbol" (project, name, file): lode_window_show_symbol(). */
static void
show_symbol_activated (GtkWidget  *widget,
                       const char *action_name,
                       GVariant   *parameter)
{
  const char *root, *name, *file;

  g_variant_get (parameter, "(&s&s&s)", &root, &name, &file);
  lode_window_show_symbol (LODE_WINDOW (widget), root, name, file);
}

/* "win.focus-search" (Ctrl+F, Ctrl+K): the search entry, from any page. */
static void
focus_search_activated (GtkWidget  *widget,
                        const char *action_name,
                        GVariant   *parameter)
{
  LodeWindow *self = LODE_WINDOW (widget);

  adw_view_stack_set_visible_child_name (self->stack, "search");
  lode_search_page_focus_entry (self->search_page);
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
  g_type_ensure (LODE_TYPE_SYMBOL_PAGE);
  g_type_ensure (LODE_TYPE_MODELS_PAGE);

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, toasts);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, stack);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, projects_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, search_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, graph_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, symbol_stack_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, symbol_page);
  gtk_widget_class_bind_template_child (widget_class, LodeWindow, models_page);


  gtk_widget_class_install_action (widget_class, "win.show-toast", "s", show_toast_activated);
  gtk_widget_class_install_action (widget_class, "win.show-error", "(ss)", show_error_activated);
  gtk_widget_class_install_action (widget_class, "win.error-details", "s",
                                   error_details_activated);
  gtk_widget_class_install_action (widget_class, "win.show-page", "s", show_page_activated);
  gtk_widget_class_install_action (widget_class, "win.show-symbol", "(sss)",
                                   show_symbol_activated);
  gtk_widget_class_install_action (widget_class, "win.focus-search", NULL,
                                   focus_search_activated);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_f, GDK_CONTROL_MASK,
                                       "win.focus-search", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_k, GDK_CONTROL_MASK,
                                       "win.focus-search", NULL);
}

static void
lode_window_init (LodeWindow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
