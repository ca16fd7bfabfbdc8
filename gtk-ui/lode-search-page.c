/* lode-search-page.c — codebase_search: project, words, mode, language and path filters
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-open-location.h"
#include "lode-project-item.h"
#include "lode-search-page.h"
#include "lode-search-row.h"
#include "lode-toast.h"

/*
 * Each change of the form runs codebase_search in loded (the previous search is cancelled);
 * the results are the tool's structured result, one row each. Activating a row opens the file
 * at the result's first line in the user's editor.
 */

#define SEARCH_LIMIT 25

/* The mode drop-down's items, in its order. */
static const char *const modes[] = { "hybrid", "lexical", "semantic" };

struct _LodeSearchPage
{
  GtkWidget        parent_instance;
  LodeConnection  *connection;
  GCancellable    *cancellable;
  GtkDropDown     *project;
  GtkSearchEntry  *entry;
  GtkDropDown     *mode;
  GtkEntry        *language;
  GtkEntry        *path;
  GtkStack        *stack;
  AdwStatusPage   *none_page;
  GtkLabel        *summary;
  GtkListBox      *results;
};

G_DEFINE_FINAL_TYPE (LodeSearchPage, lode_search_page, GTK_TYPE_WIDGET)

/**
 * lode_search_page_set_connection:
 * @self: a #LodeSearchPage
 * @connection: the connection to loded, whose client runs the searches
 * @projects: the #LodeProjectItem list of the Projects page
 */
void
lode_search_page_set_connection (LodeSearchPage *self,
                                 LodeConnection *connection,
                                 GListModel     *projects)
{
  g_return_if_fail (LODE_IS_SEARCH_PAGE (self));
  g_return_if_fail (LODE_IS_CONNECTION (connection));
  g_return_if_fail (G_IS_LIST_MODEL (projects));

  self->connection = connection;
  gtk_drop_down_set_model (self->project, projects);
}

/**
 * lode_search_page_set_query:
 * @self: a #LodeSearchPage
 * @query: the text to put in the search entry
 *
 * Searches for @query, as if the user had typed it.
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
clear_results (LodeSearchPage *self)
{
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (self->results))) != NULL)
    gtk_list_box_remove (self->results, row);
}

static const char *
mode_title (const char *mode)
{
  if (g_strcmp0 (mode, "lexical") == 0)
    return C_("search mode", "lexical");
  if (g_strcmp0 (mode, "semantic") == 0)
    return C_("search mode", "semantic");
  return C_("search mode", "hybrid");
}

/* "3 results, lexical search", and why the mode differs from the one asked for. */
static char *
describe (JsonObject *found)
{
  JsonObject *mode = json_object_get_object_member (found, "mode");
  const char *reason = json_object_get_string_member_with_default (mode, "reason", NULL);
  const char *used = json_object_get_string_member (mode, "used");
  guint total = json_object_get_int_member (found, "total");
  g_autofree char *count = NULL;

  /* Translators: %u is a number of results, %s the search mode (hybrid, lexical, semantic). */
  count = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u result, %s search",
                                        "%u results, %s search", total),
                           total, mode_title (used));
  if (reason == NULL)
    return g_steal_pointer (&count);

  /* Translators: the result count, then why the mode differs from the one asked for (the
   * engine's words, in English, as agents get them: "semantic search unavailable: …"). */
  return g_strdup_printf (_("%s — %s"), count, reason);
}

static void
search_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(LodeSearchPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) found = NULL;
  g_autofree char *summary = NULL;
  JsonArray *results;
  const char *root;
  const char *query;

  found = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  clear_results (self);
  if (found == NULL)
    {
      adw_status_page_set_title (self->none_page, _("Search Failed"));
      adw_status_page_set_description (self->none_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "none");
      return;
    }

  results = json_object_get_array_member (found, "results");
  root = json_object_get_string_member (found, "projectPath");
  query = json_object_get_string_member (found, "query");
  if (json_array_get_length (results) == 0)
    {
      adw_status_page_set_title (self->none_page, _("No Results"));
      adw_status_page_set_description (self->none_page,
                                       _("Try other words, an identifier, or fewer filters."));
      gtk_stack_set_visible_child_name (self->stack, "none");
      return;
    }

  for (guint i = 0; i < json_array_get_length (results); i++)
    gtk_list_box_append (self->results,
                         lode_search_row_new (root, json_array_get_object_element (results, i),
                                              query));
  summary = describe (found);
  gtk_label_set_text (self->summary, summary);
  gtk_stack_set_visible_child_name (self->stack, "results");
}

static void
set_filter (JsonObject *arguments,
            const char *member,
            GtkEntry   *entry)
{
  g_autofree char *text = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (entry))));

  if (*text != '\0')
    json_object_set_string_member (arguments, member, text);
}

static void
search_cb (LodeSearchPage *self)
{
  g_autofree char *query = NULL;
  LodeProjectItem *project;
  JsonObject *arguments;
  guint mode;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);

  query = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->entry))));
  project = gtk_drop_down_get_selected_item (self->project);
  if (*query == '\0' || project == NULL || self->connection == NULL)
    {
      clear_results (self);
      gtk_stack_set_visible_child_name (self->stack, "empty");
      return;
    }

  mode = MIN (gtk_drop_down_get_selected (self->mode), G_N_ELEMENTS (modes) - 1);
  arguments = json_object_new ();
  json_object_set_string_member (arguments, "query", query);
  json_object_set_string_member (arguments, "projectPath", lode_project_item_get_root (project));
  json_object_set_string_member (arguments, "mode", modes[mode]);
  json_object_set_int_member (arguments, "limit", SEARCH_LIMIT);
  set_filter (arguments, "languageFilter", self->language);
  set_filter (arguments, "fileFilter", self->path);

  self->cancellable = g_cancellable_new ();
  lode_connection_call_tool (self->connection, "codebase_search", arguments, self->cancellable,
                             search_done_cb, g_object_ref (self));
}

static void
row_activated_cb (LodeSearchPage *self,
                  GtkListBoxRow  *row)
{
  g_autoptr(GAppLaunchContext) context = NULL;
  g_autoptr(GError) error = NULL;
  LodeSearchRow *result = LODE_SEARCH_ROW (row);

  context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (
                                    gtk_widget_get_display (GTK_WIDGET (self))));
  if (!lode_open_location (lode_search_row_get_path (result), lode_search_row_get_line (result),
                           context, &error))
    lode_toast_show_error (GTK_WIDGET (self), _("Cannot open the file"), error);
}

static void
lode_search_page_dispose (GObject *object)
{
  LodeSearchPage *self = (LodeSearchPage *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
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
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, none_page);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, summary);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, results);
  gtk_widget_class_bind_template_callback (widget_class, search_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
lode_search_page_init (LodeSearchPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
