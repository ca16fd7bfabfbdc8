/* lode-graph-page.c — a project's import graph: cycles, hubs, a file's neighbours
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-graph-page.h"
#include "lode-project-item.h"

/* The lists are filled from the graph tools through the shared client (dbus/). */

struct _LodeGraphPage
{
  GtkWidget       parent_instance;
  GtkDropDown *project;
  GtkEntry    *file;
};

G_DEFINE_FINAL_TYPE (LodeGraphPage, lode_graph_page, GTK_TYPE_WIDGET)

/**
 * lode_graph_page_set_projects:
 * @self: a #LodeGraphPage
 * @projects: the #LodeProjectItem list of the Projects page
 */
void
lode_graph_page_set_projects (LodeGraphPage *self,
                              GListModel    *projects)
{
  g_return_if_fail (LODE_IS_GRAPH_PAGE (self));
  g_return_if_fail (G_IS_LIST_MODEL (projects));

  gtk_drop_down_set_model (self->project, projects);
}

static void
lode_graph_page_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_GRAPH_PAGE);
  /* The template's root is not bound to a field, so it is unparented here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (lode_graph_page_parent_class)->dispose (object);
}

static void
lode_graph_page_class_init (LodeGraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_graph_page_dispose;

  g_type_ensure (LODE_TYPE_PROJECT_ITEM);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, project);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, file);
}

static void
lode_graph_page_init (LodeGraphPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
