/* lode-search-page.c — the query form: project, words, mode, language and path filters
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-project-item.h"
#include "lode-search-page.h"

/*
 * Results come from the daemon's Search through the shared client (dbus/), which converts
 * them to LodeSearchResult; until that client exists the page holds the form only.
 */

struct _LodeSearchPage
{
  GtkWidget       parent_instance;
  GtkDropDown    *project;
  GtkSearchEntry *entry;
  GtkDropDown    *mode;
  GtkEntry       *language;
  GtkEntry       *path;
  GtkStack       *stack;
};

G_DEFINE_FINAL_TYPE (LodeSearchPage, lode_search_page, GTK_TYPE_WIDGET)

/**
 * lode_search_page_set_projects:
 * @self: a #LodeSearchPage
 * @projects: the #LodeProjectItem list of the Projects page
 */
void
lode_search_page_set_projects (LodeSearchPage *self,
                               GListModel     *projects)
{
  g_return_if_fail (LODE_IS_SEARCH_PAGE (self));
  g_return_if_fail (G_IS_LIST_MODEL (projects));

  gtk_drop_down_set_model (self->project, projects);
}

/**
 * lode_search_page_set_query:
 * @self: a #LodeSearchPage
 * @query: the text to put in the search entry
 */
void
lode_search_page_set_query (LodeSearchPage *self,
                            const char     *query)
{
  g_return_if_fail (LODE_IS_SEARCH_PAGE (self));
  g_return_if_fail (query != NULL);

  gtk_editable_set_text (GTK_EDITABLE (self->entry), query);
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
}

static void
lode_search_page_dispose (GObject *object)
{
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_SEARCH_PAGE);
  /* The template's root is not bound to a field, so it is unparented here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (lode_search_page_parent_class)->dispose (object);
}

static void
lode_search_page_class_init (LodeSearchPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_search_page_dispose;

  g_type_ensure (LODE_TYPE_PROJECT_ITEM);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-search-page.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, project);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, entry);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, mode);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, language);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, path);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, stack);
}

static void
lode_search_page_init (LodeSearchPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
