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
#include "lode-toast.h"

/*
 * The lists are the graph tools' structured results: codebase_graph_circular and
 * codebase_graph_stats for the selected project (again when its index changes), and
 * codebase_graph_query for the file typed above them. Activating a row that names a project
 * file shows that file's neighbours.
 */

#define CYCLES_LIMIT 20
#define HUBS_LIMIT   10

struct _LodeGraphPage
{
  GtkWidget            parent_instance;
  LodeConnection      *connection;
  GCancellable        *cancellable;        /* the project's lists */
  GCancellable        *query_cancellable;  /* the file's neighbours */
  LodeProjectItem     *item;               /* the selected project, followed */
  GtkDropDown         *project;
  GtkEntry            *file;
  GtkListBox          *cycles;
  GtkListBox          *hubs;
  AdwPreferencesGroup *hubs_group;
  GtkListBox          *dependents;
  AdwPreferencesGroup *dependents_group;
  GtkListBox          *imports;
  AdwPreferencesGroup *imports_group;
};

G_DEFINE_FINAL_TYPE (LodeGraphPage, lode_graph_page, GTK_TYPE_WIDGET)

static void
clear_list (GtkListBox *list)
{
  GtkWidget *row;

  /* The placeholder is not a row: it stays. */
  while ((row = GTK_WIDGET (gtk_list_box_get_row_at_index (list, 0))) != NULL)
    gtk_list_box_remove (list, row);
}

static void
set_placeholder (GtkListBox *list,
                 const char *text)
{
  GtkWidget *label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_list_box_set_placeholder (list, label);
}

/* A row; with @file (a project path) it is activatable and shows that file's neighbours. */
static void
add_row (GtkListBox *list,
         const char *title,
         const char *subtitle,
         const char *file)
{
  GtkWidget *row = adw_action_row_new ();
  g_autofree char *escaped = g_markup_escape_text (title, -1);

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
  if (subtitle != NULL)
    adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  if (file != NULL)
    {
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "lode-file", g_strdup (file), g_free);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("go-next-symbolic"));
    }
  gtk_list_box_append (list, row);
}

static const char *
selected_root (LodeGraphPage *self)
{
  LodeProjectItem *project = gtk_drop_down_get_selected_item (self->project);

  return project != NULL ? lode_project_item_get_root (project) : NULL;
}

/* A tool's result for this page, or NULL: cancelled (the page moved on) or failed (a toast
 * says why, unless @what is NULL). */
static JsonObject *
finish (LodeGraphPage *self,
        GAsyncResult  *result,
        const char    *what)
{
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  object = lode_connection_call_tool_finish (self->connection, result, &error);
  if (object == NULL && what != NULL &&
      !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    lode_toast_show_error (GTK_WIDGET (self), what, error);

  return object;
}

static void
circular_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(LodeGraphPage) self = user_data;
  g_autoptr(JsonObject) circular = finish (self, result, _("Cannot list the import cycles"));
  JsonArray *cycles;

  if (circular == NULL)
    return;

  clear_list (self->cycles);
  cycles = json_object_get_array_member (circular, "cycles");
  for (guint i = 0; i < json_array_get_length (cycles); i++)
    {
      JsonObject *cycle = json_array_get_object_element (cycles, i);
      JsonArray *path = json_object_get_array_member (cycle, "cycle");
      JsonArray *members = json_object_get_array_member (cycle, "members");
      g_autoptr(GString) title = g_string_new (NULL);
      g_autofree char *subtitle = NULL;

      for (guint j = 0; j < json_array_get_length (path); j++)
        g_string_append_printf (title, "%s%s", j > 0 ? " → " : "",
                                json_array_get_string_element (path, j));
      if (json_array_get_length (path) > 0)
        g_string_append_printf (title, " → %s", json_array_get_string_element (path, 0));
      subtitle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file in this cycle",
                                               "%u files in this cycle",
                                               json_array_get_length (members)),
                                  json_array_get_length (members));
      add_row (self->cycles, title->str, subtitle,
               json_array_get_length (path) > 0 ? json_array_get_string_element (path, 0)
                                                : NULL);
    }
}

static void
stats_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(LodeGraphPage) self = user_data;
  g_autoptr(JsonObject) stats = finish (self, result, _("Cannot read the import graph"));
  g_autofree char *files = NULL;
  g_autofree char *description = NULL;
  JsonArray *hubs;

  if (stats == NULL)
    return;

  clear_list (self->hubs);
  hubs = json_object_get_array_member (stats, "mostConnected");
  for (guint i = 0; i < json_array_get_length (hubs); i++)
    {
      JsonObject *hub = json_array_get_object_element (hubs, i);
      guint dependents = json_object_get_int_member (hub, "dependents");
      guint imports = json_object_get_int_member (hub, "imports");
      g_autofree char *imported_by = NULL;
      g_autofree char *imports_text = NULL;
      g_autofree char *subtitle = NULL;

      imported_by = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "imported by %u file",
                                                  "imported by %u files", dependents),
                                     dependents);
      imports_text = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "imports %u file",
                                                   "imports %u files", imports), imports);
      subtitle = g_strdup_printf ("%s · %s", imported_by, imports_text);
      add_row (self->hubs, json_object_get_string_member (hub, "path"), subtitle,
               json_object_get_string_member (hub, "path"));
    }

  /* Translators: the size of the import graph; both %u are counts. */
  files = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file", "%u files",
                                        json_object_get_int_member (stats, "files")),
                           (guint) json_object_get_int_member (stats, "files"));
  description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %u import between them",
                                              "%s, %u imports between them",
                                              json_object_get_int_member (stats, "edges")),
                                 files, (guint) json_object_get_int_member (stats, "edges"));
  adw_preferences_group_set_description (self->hubs_group, description);
}

static JsonObject *
project_arguments (const char *root,
                   guint       limit)
{
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "projectPath", root);
  if (limit > 0)
    json_object_set_int_member (arguments, "limit", limit);
  return arguments;
}

/* The file's lists show only once a file was asked for. */
static void
clear_neighbours (LodeGraphPage *self)
{
  clear_list (self->dependents);
  clear_list (self->imports);
  gtk_widget_set_visible (GTK_WIDGET (self->dependents_group), FALSE);
  gtk_widget_set_visible (GTK_WIDGET (self->imports_group), FALSE);
}

/* A project has a graph once it is indexed and no first indexing runs (its item tells;
 * asking earlier would only be an error). */
static void
load_project (LodeGraphPage *self)
{
  const char *root = selected_root (self);
  const char *state = self->item != NULL ? lode_project_item_get_state (self->item) : NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  clear_list (self->cycles);
  clear_list (self->hubs);
  adw_preferences_group_set_description (self->hubs_group, NULL);
  if (root == NULL || self->connection == NULL || lode_project_item_get_indexing (self->item) ||
      (g_strcmp0 (state, "ready") != 0 && g_strcmp0 (state, "incomplete") != 0))
    return;

  self->cancellable = g_cancellable_new ();
  lode_connection_call_tool (self->connection, "codebase_graph_circular",
                             project_arguments (root, CYCLES_LIMIT), self->cancellable,
                             circular_cb, g_object_ref (self));
  lode_connection_call_tool (self->connection, "codebase_graph_stats",
                             project_arguments (root, HUBS_LIMIT), self->cancellable, stats_cb,
                             g_object_ref (self));
}

static void
query_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(LodeGraphPage) self = user_data;
  g_autoptr(JsonObject) neighbours = finish (self, result, _("Cannot show the file’s imports"));
  JsonArray *dependents;
  JsonArray *imports;

  if (neighbours == NULL)
    return;

  clear_neighbours (self);
  gtk_widget_set_visible (GTK_WIDGET (self->dependents_group), TRUE);
  gtk_widget_set_visible (GTK_WIDGET (self->imports_group), TRUE);
  dependents = json_object_get_array_member (neighbours, "dependents");
  for (guint i = 0; i < json_array_get_length (dependents); i++)
    add_row (self->dependents, json_array_get_string_element (dependents, i), NULL,
             json_array_get_string_element (dependents, i));

  imports = json_object_get_array_member (neighbours, "imports");
  for (guint i = 0; i < json_array_get_length (imports); i++)
    {
      JsonObject *import = json_array_get_object_element (imports, i);
      JsonArray *targets = json_object_get_array_member (import, "targets");
      const char *package = json_object_get_string_member_with_default (import, "package",
                                                                         NULL);
      const char *target = json_array_get_length (targets) > 0
                           ? json_array_get_string_element (targets, 0) : NULL;
      g_autofree char *subtitle = NULL;

      if (target != NULL)
        /* Translators: an import resolved to a file of the project; %s is its path. */
        subtitle = g_strdup_printf (_("resolves to %s"), target);
      else if (package != NULL)
        /* Translators: an import of an external package; %s is its name. */
        subtitle = g_strdup_printf (_("package %s"), package);
      else
        subtitle = g_strdup (_("not resolved"));
      add_row (self->imports, json_object_get_string_member (import, "specifier"), subtitle,
               target);
    }
}

/**
 * lode_graph_page_show_file:
 * @self: a #LodeGraphPage
 * @file: a file of the selected project, relative to its root
 *
 * Lists what imports @file and what it imports.
 */
void
lode_graph_page_show_file (LodeGraphPage *self,
                           const char    *file)
{
  const char *root;
  JsonObject *arguments;

  g_return_if_fail (LODE_IS_GRAPH_PAGE (self));
  g_return_if_fail (file != NULL);

  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->file)), file) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->file), file);

  g_cancellable_cancel (self->query_cancellable);
  g_clear_object (&self->query_cancellable);
  clear_neighbours (self);
  root = selected_root (self);
  if (root == NULL || self->connection == NULL || *file == '\0')
    return;

  arguments = project_arguments (root, 0);
  json_object_set_string_member (arguments, "filePath", file);
  json_object_set_string_member (arguments, "direction", "inbound");
  self->query_cancellable = g_cancellable_new ();
  lode_connection_call_tool (self->connection, "codebase_graph_query", arguments,
                             self->query_cancellable, query_cb, g_object_ref (self));
}

static void
file_activate_cb (LodeGraphPage *self)
{
  g_autofree char *file = g_strstrip (g_strdup (gtk_editable_get_text (GTK_EDITABLE (self->file))));

  lode_graph_page_show_file (self, file);
}

static void
row_activated_cb (LodeGraphPage *self,
                  GtkListBoxRow *row)
{
  const char *file = g_object_get_data (G_OBJECT (row), "lode-file");

  if (file != NULL)
    lode_graph_page_show_file (self, file);
}

static void
project_changed_cb (LodeGraphPage *self)
{
  LodeProjectItem *item = gtk_drop_down_get_selected_item (self->project);

  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_set_object (&self->item, item);
  if (item != NULL)
    {
      g_signal_connect_object (item, "notify::state", G_CALLBACK (load_project), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (item, "notify::indexing", G_CALLBACK (load_project), self,
                               G_CONNECT_SWAPPED);
    }

  gtk_editable_set_text (GTK_EDITABLE (self->file), "");
  clear_neighbours (self);
  load_project (self);
}

static void
index_changed_cb (LodeGraphPage *self,
                  const char    *root)
{
  if (g_strcmp0 (root, selected_root (self)) == 0)
    load_project (self);
}

/* The client is made once; its handlers go with the page. */
static void
client_changed_cb (LodeGraphPage  *self,
                   GParamSpec     *pspec,
                   LodeConnection *connection)
{
  LodeClient *client = lode_connection_get_client (connection);

  if (client != NULL)
    g_signal_connect_object (client, "index-changed", G_CALLBACK (index_changed_cb), self,
                             G_CONNECT_SWAPPED);
}

/**
 * lode_graph_page_set_connection:
 * @self: a #LodeGraphPage
 * @connection: the connection to loded, whose client runs the graph tools
 * @projects: the #LodeProjectItem list of the Projects page
 */
void
lode_graph_page_set_connection (LodeGraphPage  *self,
                                LodeConnection *connection,
                                GListModel     *projects)
{
  g_return_if_fail (LODE_IS_GRAPH_PAGE (self));
  g_return_if_fail (LODE_IS_CONNECTION (connection));
  g_return_if_fail (G_IS_LIST_MODEL (projects));

  self->connection = connection;
  g_signal_connect_object (connection, "notify::client", G_CALLBACK (client_changed_cb), self,
                           G_CONNECT_SWAPPED);
  client_changed_cb (self, NULL, connection);
  gtk_drop_down_set_model (self->project, projects);
}

static void
lode_graph_page_dispose (GObject *object)
{
  LodeGraphPage *self = (LodeGraphPage *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->query_cancellable);
  g_clear_object (&self->query_cancellable);
  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);
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
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, cycles);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, hubs);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, hubs_group);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, dependents);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, dependents_group);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, imports);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, imports_group);
  gtk_widget_class_bind_template_callback (widget_class, project_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, file_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
}

static void
lode_graph_page_init (LodeGraphPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  set_placeholder (self->cycles, _("No import cycles"));
  set_placeholder (self->hubs, _("No imports between the project’s files"));
  set_placeholder (self->dependents, _("No file imports it"));
  set_placeholder (self->imports, _("It imports nothing"));
  clear_neighbours (self);
}
