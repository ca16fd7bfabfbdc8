/* lode-graph-page.c — a project's import graph: its cycles and hubs, and a file's imports
 * drawn, with its code beside them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-code-preview.h"
#include "lode-format.h"
#include "lode-graph-page.h"
#include "lode-graph-view.h"
#include "lode-import-graph-source.h"
#include "lode-project-item.h"
#include "lode-toast.h"

/*
 * Without a file the page is the project's overview: codebase_graph_circular's cycles and
 * codebase_graph_stats' most connected files (again when the index changes, and again and
 * again, less and less often, after a call that failed). A file (typed,
 * or activated in a list, a graph or another surface) is drawn with what it imports and what
 * imports it, from a LodeGraphSource — imports now; the call graph of a symbol plugs in the
 * same way. Selecting a node shows its code in the preview; activating one draws the graph
 * around it; Back returns to the file before, then to the overview. Expand adds a node's own
 * neighbours; the blast radius asks the source for everything that reaches the selected node.
 */

#define CYCLES_LIMIT 20
#define HUBS_LIMIT   10

/* How long the overview waits before asking again after a failed call: twice longer each
 * time, up to the maximum. */
#define RETRY_FIRST_SECONDS 1
#define RETRY_MAX_SECONDS   30

struct _LodeGraphPage
{
  GtkWidget            parent_instance;
  LodeConnection      *connection;
  LodeGraphSource     *source;
  GCancellable        *cancellable;        /* the project's lists */
  guint                load_id;            /* asks for them again: after a failure, or once
                                            * an update of the item is told whole */
  guint                retry_seconds;      /* the last wait, 0 until a call failed */
  GCancellable        *graph_cancellable;  /* the graph drawn, expanded, its blast radius */
  LodeProjectItem     *item;               /* the selected project, followed */
  GPtrArray           *history;            /* files shown before the current one; "" for the
                                            * overview */
  char                *file;               /* the file drawn, or NULL for the overview */
  char                *pending_root;       /* a project asked for before it is listed */
  char                *pending_file;
  char                *reach_target;       /* whose blast radius is asked for or shown */
  GtkDropDown         *project;
  GtkEntry            *file_entry;
  GtkStack            *stack;
  GtkListBox          *cycles;
  GtkListBox          *hubs;
  AdwPreferencesGroup *hubs_group;
  LodeGraphView       *view;
  GtkLabel            *status;
  GtkSpinner          *spinner;
  LodeCodePreview     *preview;
};

G_DEFINE_FINAL_TYPE (LodeGraphPage, lode_graph_page, GTK_TYPE_WIDGET)

enum { PROP_0, PROP_BLAST_RADIUS, N_PROPS };
static GParamSpec *properties [N_PROPS];

static void
clear_list (GtkListBox *list)
{
  GtkWidget *row;

  /* The placeholder is not a row: it stays. */
  while ((row = GTK_WIDGET (gtk_list_box_get_row_at_index (list, 0))) != NULL)
    gtk_list_box_remove (list, row);
}

/* What @list says while it has no row; nothing with %NULL. */
static void
set_placeholder (GtkListBox *list,
                 const char *text)
{
  GtkWidget *label;

  if (text == NULL)
    {
      gtk_list_box_set_placeholder (list, NULL);
      return;
    }

  label = gtk_label_new (text);

  gtk_widget_add_css_class (label, "dim-label");
  gtk_widget_set_margin_top (label, 12);
  gtk_widget_set_margin_bottom (label, 12);
  gtk_label_set_wrap (GTK_LABEL (label), TRUE);
  gtk_list_box_set_placeholder (list, label);
}

/* A row; with @file (a project path) it is activatable and draws that file's graph. */
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

static void load_lists (LodeGraphPage *self);

static gboolean
load_lists_cb (gpointer user_data)
{
  LodeGraphPage *self = user_data;

  self->load_id = 0;
  load_lists (self);
  return G_SOURCE_REMOVE;
}

/* A list's result for this page, or NULL: cancelled (the page moved on) or failed. A failed
 * list says so in its place, and the first failure in a toast; both lists are asked for
 * again later. Nothing else would ask: the index that was being written (loded's "the index
 * is being created"), or the loded that was restarting, may be ready by now without any
 * change of the index or of the project's state to come. */
static JsonObject *
finish (LodeGraphPage *self,
        GAsyncResult  *result,
        GtkListBox    *list,
        const char    *what)
{
  g_autoptr(GError) error = NULL;
  JsonObject *object;

  object = lode_connection_call_tool_finish (self->connection, result, &error);
  if (object != NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return object;

  set_placeholder (list, what);
  if (self->load_id != 0)
    return NULL;
  if (self->retry_seconds == 0)
    lode_toast_show_error (GTK_WIDGET (self), what, error);
  self->retry_seconds = CLAMP (self->retry_seconds * 2, RETRY_FIRST_SECONDS, RETRY_MAX_SECONDS);
  self->load_id = g_timeout_add_seconds (self->retry_seconds, load_lists_cb, self);

  return NULL;
}

/* "2 files in this cycle", or, when the shortest cycle shown is one of several among more
 * files, how many files import each other in all. */
static char *
describe_cycle (guint n_cycle,
                guint n_members)
{
  g_autofree char *cycle = NULL;

  /* Translators: under an import cycle drawn as a → b → a. */
  cycle = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u file in this cycle",
                                        "%u files in this cycle", n_cycle), n_cycle);
  if (n_members <= n_cycle)
    return g_steal_pointer (&cycle);

  /* Translators: %s is "2 files in this cycle"; %u files import each other, through it and
   * others. */
  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, one of the cycles among %u file",
                                       "%s, one of the cycles among %u files", n_members),
                          cycle, n_members);
}

static void
circular_cb (GObject      *object,
             GAsyncResult *result,
             gpointer      user_data)
{
  g_autoptr(LodeGraphPage) self = user_data;
  g_autoptr(JsonObject) circular = finish (self, result, self->cycles,
                                           _("Cannot list the import cycles"));
  JsonArray *cycles;

  if (circular == NULL)
    return;

  clear_list (self->cycles);
  set_placeholder (self->cycles, _("No import cycles"));
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
      subtitle = describe_cycle (json_array_get_length (path), json_array_get_length (members));
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
  g_autoptr(JsonObject) stats = finish (self, result, self->hubs,
                                        _("Cannot read the import graph"));
  g_autofree char *files = NULL;
  g_autofree char *files_count = NULL;
  g_autofree char *edges_count = NULL;
  g_autofree char *description = NULL;
  JsonArray *hubs;
  guint n_files, n_edges;

  if (stats == NULL)
    return;

  clear_list (self->hubs);
  set_placeholder (self->hubs, _("No imports between the project’s files"));
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

  n_files = json_object_get_int_member (stats, "files");
  n_edges = json_object_get_int_member (stats, "edges");
  files_count = lode_format_count (n_files);
  edges_count = lode_format_count (n_edges);
  /* Translators: the size of the import graph; %s are counts such as 1,234. */
  files = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s file", "%s files", n_files),
                           files_count);
  description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%s, %s import between them",
                                              "%s, %s imports between them", n_edges),
                                 files, edges_count);
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

/* A project has a graph once it is indexed and no job runs (its item tells; asking earlier
 * would only be an error, or lists the job is about to change). Until the lists come, they
 * say when they will: "no import cycles" is for an index that has none. */
static void
load_lists (LodeGraphPage *self)
{
  const char *root = selected_root (self);
  const char *state = self->item != NULL ? lode_project_item_get_state (self->item) : NULL;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->load_id, g_source_remove);
  clear_list (self->cycles);
  clear_list (self->hubs);
  adw_preferences_group_set_description (self->hubs_group, NULL);
  if (self->item != NULL && lode_project_item_get_indexing (self->item))
    {
      /* Translators: in place of the lists of the Graph page while the project is indexed. */
      set_placeholder (self->cycles, _("The import cycles are listed once indexing ends"));
      set_placeholder (self->hubs, _("The most connected files are listed once indexing ends"));
      return;
    }
  if (root == NULL)
    {
      /* The drop-down chooses the first project as soon as there is one: none is chosen
       * when the app lists none.
       * Translators: in place of the lists of the Graph page while no folder is indexed. */
      set_placeholder (self->cycles, _("Add a folder on the Projects page to see its import cycles"));
      set_placeholder (self->hubs, _("Add a folder on the Projects page to see its most connected files"));
      return;
    }
  if (self->connection == NULL ||
      (g_strcmp0 (state, "ready") != 0 && g_strcmp0 (state, "incomplete") != 0))
    {
      /* Translators: in place of the lists of the Graph page for a project that has no
       * index (yet, or no longer). */
      set_placeholder (self->cycles,
                       _("The import cycles are listed once the project is indexed"));
      set_placeholder (self->hubs,
                       _("The most connected files are listed once the project is indexed"));
      return;
    }

  set_placeholder (self->cycles, NULL);
  set_placeholder (self->hubs, NULL);
  self->cancellable = g_cancellable_new ();
  lode_connection_call_tool (self->connection, "codebase_graph_circular",
                             project_arguments (root, CYCLES_LIMIT), self->cancellable,
                             circular_cb, g_object_ref (self));
  lode_connection_call_tool (self->connection, "codebase_graph_stats",
                             project_arguments (root, HUBS_LIMIT), self->cancellable, stats_cb,
                             g_object_ref (self));
}

/* Another project, or news of this one: the lists from the start, told again if they fail. */
static void
load_project (LodeGraphPage *self)
{
  self->retry_seconds = 0;
  load_lists (self);
}

/* An update of the item notifies its state and its indexing flag one after the other, each
 * with the item as it is at the end: the lists are asked for once, after the last one, and
 * before the next frame shows the page. */
static void
item_changed_cb (LodeGraphPage *self)
{
  self->retry_seconds = 0;
  g_clear_handle_id (&self->load_id, g_source_remove);
  self->load_id = g_idle_add_full (G_PRIORITY_DEFAULT, load_lists_cb, self, NULL);
}

/* What the status line under the graph says: its size, its cycles, the blast radius. */
static void
update_status (LodeGraphPage *self,
               const char    *extra)
{
  LodeGraphModel *model = lode_graph_view_get_model (self->view);
  g_autoptr(GString) text = g_string_new (NULL);
  guint n_cycle = 0;
  guint n;

  if (model == NULL)
    {
      gtk_widget_set_visible (GTK_WIDGET (self->status), FALSE);
      return;
    }

  n = lode_graph_model_get_n_nodes (model);
  for (guint i = 0; i < n; i++)
    n_cycle += lode_graph_model_get_node (model, i)->in_cycle;
  /* Translators: the boxes of the graph drawn. */
  g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u box", "%u boxes", n), n);
  if (n_cycle > 0)
    {
      g_string_append (text, " · ");
      /* Translators: files drawn that are part of an import cycle (drawn red). */
      g_string_append_printf (text, g_dngettext (GETTEXT_PACKAGE, "%u in an import cycle",
                                                 "%u in import cycles", n_cycle), n_cycle);
    }
  if (extra != NULL)
    g_string_append_printf (text, "\n%s", extra);
  gtk_label_set_text (self->status, text->str);
  gtk_widget_set_visible (GTK_WIDGET (self->status), TRUE);
}

static void
set_busy (LodeGraphPage *self,
          gboolean       busy)
{
  gtk_spinner_set_spinning (self->spinner, busy);
  gtk_widget_set_visible (GTK_WIDGET (self->spinner), busy);
}

static void set_blast_radius (LodeGraphPage *self,
                              gboolean       shown);

static void
update_actions (LodeGraphPage *self)
{
  gboolean drawn = self->file != NULL;
  const char *selected = lode_graph_view_get_selected (self->view);
  gboolean item = FALSE;
  LodeGraphModel *model = lode_graph_view_get_model (self->view);
  guint index;

  if (selected != NULL && model != NULL && lode_graph_model_lookup (model, selected, &index))
    item = lode_graph_model_get_node (model, index)->kind == LODE_GRAPH_NODE_ITEM;

  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.back", self->history->len > 0);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.expand", drawn && item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.blast-radius", drawn && item);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.zoom-in", drawn);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.zoom-out", drawn);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.fit", drawn);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "graph.export", drawn && model != NULL);
}

static void
show_overview (LodeGraphPage *self)
{
  g_cancellable_cancel (self->graph_cancellable);
  g_clear_object (&self->graph_cancellable);
  g_clear_pointer (&self->file, g_free);
  gtk_editable_set_text (GTK_EDITABLE (self->file_entry), "");
  lode_graph_view_set_model (self->view, NULL);
  lode_code_preview_clear (self->preview);
  set_blast_radius (self, FALSE);
  set_busy (self, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "overview");
  update_actions (self);
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(LodeGraphPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeGraphModel) model = NULL;

  model = lode_graph_source_load_finish (LODE_GRAPH_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_busy (self, FALSE);
  if (model == NULL)
    {
      lode_toast_show_error (GTK_WIDGET (self), _("Cannot draw the file’s imports"), error);
      return;
    }

  lode_graph_view_set_model (self->view, model);
  update_status (self, NULL);
  update_actions (self);
  gtk_widget_grab_focus (GTK_WIDGET (self->view));
}

/* Draws @file's graph; @remember: the page's state before is pushed for Back. */
static void
draw_file (LodeGraphPage *self,
           const char    *file,
           gboolean       remember)
{
  const char *root = selected_root (self);

  if (remember && g_strcmp0 (file, self->file) != 0)
    g_ptr_array_add (self->history, g_strdup (self->file != NULL ? self->file : ""));

  g_cancellable_cancel (self->graph_cancellable);
  g_clear_object (&self->graph_cancellable);
  g_free (self->file);
  self->file = g_strdup (file);
  if (g_strcmp0 (gtk_editable_get_text (GTK_EDITABLE (self->file_entry)), file) != 0)
    gtk_editable_set_text (GTK_EDITABLE (self->file_entry), file);

  set_blast_radius (self, FALSE);
  gtk_stack_set_visible_child_name (self->stack, "graph");
  update_actions (self);
  if (root == NULL || self->source == NULL)
    return;

  set_busy (self, TRUE);
  self->graph_cancellable = g_cancellable_new ();
  lode_graph_source_load_async (self->source, root, file, self->graph_cancellable, load_cb,
                                g_object_ref (self));
}

/**
 * lode_graph_page_show_file:
 * @self: a #LodeGraphPage
 * @file: a file of the selected project, relative to its root; "" for the overview
 *
 * Draws what @file imports and what imports it; Back returns to what was shown before.
 */
void
lode_graph_page_show_file (LodeGraphPage *self,
                           const char    *file)
{
  g_return_if_fail (LODE_IS_GRAPH_PAGE (self));
  g_return_if_fail (file != NULL);

  if (*file == '\0')
    {
      if (self->file != NULL)
        g_ptr_array_add (self->history, g_strdup (self->file));
      show_overview (self);
      return;
    }
  draw_file (self, file, TRUE);
}

/* The project of @root, selected in the drop-down; FALSE when it is not listed (yet). */
static gboolean
select_project (LodeGraphPage *self,
                const char    *root)
{
  GListModel *projects = gtk_drop_down_get_model (self->project);

  for (guint i = 0; projects != NULL && i < g_list_model_get_n_items (projects); i++)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (projects, i);

      if (g_strcmp0 (lode_project_item_get_root (item), root) == 0)
        {
          gtk_drop_down_set_selected (self->project, i);
          return TRUE;
        }
    }

  return FALSE;
}

/**
 * lode_graph_page_show:
 * @self: a #LodeGraphPage
 * @root: a project's root
 * @file: (nullable): one of its files, relative to @root; %NULL or "" for the overview
 *
 * Selects the project and shows @file's graph, or the project's overview; a project not
 * listed yet is selected as soon as it is.
 */
void
lode_graph_page_show (LodeGraphPage *self,
                      const char    *root,
                      const char    *file)
{
  g_return_if_fail (LODE_IS_GRAPH_PAGE (self));
  g_return_if_fail (root != NULL);

  g_clear_pointer (&self->pending_root, g_free);
  g_clear_pointer (&self->pending_file, g_free);
  if (!select_project (self, root))
    {
      self->pending_root = g_strdup (root);
      self->pending_file = g_strdup (file);
      return;
    }
  lode_graph_page_show_file (self, file != NULL ? file : "");
}

static void
projects_changed_cb (LodeGraphPage *self)
{
  g_autofree char *root = g_steal_pointer (&self->pending_root);
  g_autofree char *file = g_steal_pointer (&self->pending_file);

  if (root != NULL)
    lode_graph_page_show (self, root, file);
}

/**
 * lode_graph_page_get_file:
 * @self: a #LodeGraphPage
 *
 * Returns: (nullable): the file whose graph is shown, %NULL for the overview
 */
const char *
lode_graph_page_get_file (LodeGraphPage *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_PAGE (self), NULL);

  return self->file;
}

/**
 * lode_graph_page_get_view:
 * @self: a #LodeGraphPage
 *
 * Returns: (transfer none): the graph drawn
 */
LodeGraphView *
lode_graph_page_get_view (LodeGraphPage *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_PAGE (self), NULL);

  return self->view;
}

/**
 * lode_graph_page_get_preview:
 * @self: a #LodeGraphPage
 *
 * Returns: (transfer none): the code beside the graph
 */
LodeCodePreview *
lode_graph_page_get_preview (LodeGraphPage *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_PAGE (self), NULL);

  return self->preview;
}

static void
file_activate_cb (LodeGraphPage *self)
{
  g_autofree char *file = g_strstrip (g_strdup (gtk_editable_get_text (
                                                  GTK_EDITABLE (self->file_entry))));

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
selection_changed_cb (LodeGraphPage *self)
{
  LodeGraphModel *model = lode_graph_view_get_model (self->view);
  const char *key = lode_graph_view_get_selected (self->view);
  const char *root = selected_root (self);
  const LodeGraphNode *node = NULL;
  guint index;

  if (model != NULL && key != NULL && lode_graph_model_lookup (model, key, &index))
    node = lode_graph_model_get_node (model, index);

  if (node != NULL && node->path != NULL && root != NULL)
    {
      g_autofree char *path = g_build_filename (root, node->path, NULL);

      lode_code_preview_show (self->preview, path, node->path, node->line, node->line, NULL);
    }
  else
    lode_code_preview_clear (self->preview);
  update_actions (self);
}

static void
node_activated_cb (LodeGraphPage *self,
                   const char    *key)
{
  LodeGraphModel *model = lode_graph_view_get_model (self->view);
  guint index;

  if (model != NULL && lode_graph_model_lookup (model, key, &index) &&
      lode_graph_model_get_node (model, index)->kind == LODE_GRAPH_NODE_ITEM)
    draw_file (self, key, TRUE);
}

static void
back_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  LodeGraphPage *self = LODE_GRAPH_PAGE (widget);
  g_autofree char *previous = NULL;

  if (self->history->len == 0)
    return;

  previous = g_ptr_array_steal_index (self->history, self->history->len - 1);
  if (*previous == '\0')
    show_overview (self);
  else
    draw_file (self, previous, FALSE);
  update_actions (self);
}

static void
expand_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LodeGraphPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeGraphModel) around = NULL;
  LodeGraphModel *model;
  g_autofree char *extra = NULL;
  guint before, added;

  around = lode_graph_source_load_finish (LODE_GRAPH_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_busy (self, FALSE);
  model = lode_graph_view_get_model (self->view);
  if (around == NULL || model == NULL)
    {
      if (error != NULL)
        lode_toast_show_error (GTK_WIDGET (self), _("Cannot expand the file"), error);
      return;
    }

  before = lode_graph_model_get_n_nodes (model);
  lode_graph_model_merge (model, around);
  added = lode_graph_model_get_n_nodes (model) - before;
  /* Translators: after expanding a file of the graph; %s is the file. */
  extra = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Expanded %2$s: %1$u more box",
                                        "Expanded %2$s: %1$u more boxes", added),
                           added, lode_graph_model_get_focus (around));
  update_status (self, extra);
}

static void
expand_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LodeGraphPage *self = LODE_GRAPH_PAGE (widget);
  const char *key = lode_graph_view_get_selected (self->view);
  const char *root = selected_root (self);

  if (key == NULL || root == NULL || self->source == NULL)
    return;

  if (self->graph_cancellable == NULL)
    self->graph_cancellable = g_cancellable_new ();
  set_busy (self, TRUE);
  lode_graph_source_load_async (self->source, root, key, self->graph_cancellable, expand_cb,
                                g_object_ref (self));
}

static void
reach_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(LodeGraphPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) keys = NULL;
  const char *target = self->reach_target;
  g_autofree char *count = NULL;
  g_autofree char *extra = NULL;
  guint n, drawn = 0;

  keys = lode_graph_source_reach_finish (LODE_GRAPH_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  set_busy (self, FALSE);
  if (keys == NULL || target == NULL)
    {
      set_blast_radius (self, FALSE);
      if (error != NULL)
        lode_toast_show_error (GTK_WIDGET (self), _("Cannot find what reaches the file"),
                               error);
      return;
    }

  lode_graph_view_set_reach (self->view, target, (const char * const *) keys);
  n = g_strv_length (keys);
  for (guint i = 0; i < n; i++)
    drawn += lode_graph_view_is_reached (self->view, keys[i]) &&
             lode_graph_model_lookup (lode_graph_view_get_model (self->view), keys[i], NULL);
  count = lode_format_count (n);
  /* Translators: the blast radius of a file: %1$s files (a count such as 1,234) import it,
   * directly or not; %3$u of them are drawn; %2$s is the file. */
  extra = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                        "Blast radius: %1$s file reaches %2$s (%3$u drawn)",
                                        "Blast radius: %1$s files reach %2$s (%3$u drawn)", n),
                           count, target, drawn);
  update_status (self, extra);
}

/* The blast radius of the selected node, asked for; or none. */
static void
set_blast_radius (LodeGraphPage *self,
                  gboolean       shown)
{
  const char *key = lode_graph_view_get_selected (self->view);
  const char *root = selected_root (self);

  if (shown && (key == NULL || root == NULL || self->source == NULL))
    shown = FALSE;
  if ((!shown && self->reach_target == NULL) ||
      (shown && g_strcmp0 (key, self->reach_target) == 0))
    return;

  g_clear_pointer (&self->reach_target, g_free);
  lode_graph_view_set_reach (self->view, NULL, NULL);
  if (shown)
    {
      self->reach_target = g_strdup (key);
      if (self->graph_cancellable == NULL)
        self->graph_cancellable = g_cancellable_new ();
      set_busy (self, TRUE);
      lode_graph_source_reach_async (self->source, root, key, self->graph_cancellable, reach_cb,
                                     g_object_ref (self));
    }
  else
    update_status (self, NULL);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_BLAST_RADIUS]);
}

static void
zoom_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  LodeGraphPage *self = LODE_GRAPH_PAGE (widget);

  if (g_str_equal (action_name, "graph.fit"))
    lode_graph_view_fit (self->view);
  else
    lode_graph_view_zoom (self->view, g_str_equal (action_name, "graph.zoom-in") ? 1.25 : 0.8);
}

/**
 * lode_graph_page_export:
 * @self: a #LodeGraphPage
 * @file: where to write
 * @svg: %TRUE for SVG, %FALSE for PNG
 * @error: return location for a #GError
 *
 * Returns: whether the graph drawn was written to @file
 */
gboolean
lode_graph_page_export (LodeGraphPage  *self,
                        GFile          *file,
                        gboolean        svg,
                        GError        **error)
{
  g_return_val_if_fail (LODE_IS_GRAPH_PAGE (self), FALSE);

  return lode_graph_view_export (self->view, file, svg, error);
}

static void
export_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LodeGraphPage *self = LODE_GRAPH_PAGE (widget);
  gboolean svg = g_strcmp0 (g_variant_get_string (parameter, NULL), "svg") == 0;
  g_autofree char *base = g_path_get_basename (self->file != NULL ? self->file : "graph");
  g_autofree char *name = g_strdup_printf ("%s-imports.%s", base, svg ? "svg" : "png");

  lode_graph_view_save_as (self->view, svg, name);
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
      g_signal_connect_object (item, "notify::state", G_CALLBACK (item_changed_cb), self,
                               G_CONNECT_SWAPPED);
      g_signal_connect_object (item, "notify::indexing", G_CALLBACK (item_changed_cb), self,
                               G_CONNECT_SWAPPED);
    }

  g_ptr_array_set_size (self->history, 0);
  show_overview (self);
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
  g_clear_object (&self->source);
  self->source = lode_import_graph_source_new (connection);
  g_signal_connect_object (connection, "notify::client", G_CALLBACK (client_changed_cb), self,
                           G_CONNECT_SWAPPED);
  client_changed_cb (self, NULL, connection);
  gtk_drop_down_set_model (self->project, projects);
  g_signal_connect_object (projects, "items-changed", G_CALLBACK (projects_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

static void
lode_graph_page_dispose (GObject *object)
{
  LodeGraphPage *self = (LodeGraphPage *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_handle_id (&self->load_id, g_source_remove);
  g_cancellable_cancel (self->graph_cancellable);
  g_clear_object (&self->graph_cancellable);
  if (self->item != NULL)
    g_signal_handlers_disconnect_by_data (self->item, self);
  g_clear_object (&self->item);
  g_clear_object (&self->source);
  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_GRAPH_PAGE);
  /* The template's root is not bound to a field, so it is unparented here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (lode_graph_page_parent_class)->dispose (object);
}

static void
lode_graph_page_finalize (GObject *object)
{
  LodeGraphPage *self = (LodeGraphPage *)object;

  g_ptr_array_unref (self->history);
  g_free (self->file);
  g_free (self->pending_root);
  g_free (self->pending_file);
  g_free (self->reach_target);

  G_OBJECT_CLASS (lode_graph_page_parent_class)->finalize (object);
}

static void
lode_graph_page_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  LodeGraphPage *self = LODE_GRAPH_PAGE (object);

  switch (prop_id)
    {
    case PROP_BLAST_RADIUS:
      g_value_set_boolean (value, self->reach_target != NULL);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_graph_page_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  LodeGraphPage *self = LODE_GRAPH_PAGE (object);

  switch (prop_id)
    {
    case PROP_BLAST_RADIUS:
      set_blast_radius (self, g_value_get_boolean (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_graph_page_class_init (LodeGraphPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_graph_page_dispose;
  object_class->finalize = lode_graph_page_finalize;
  object_class->get_property = lode_graph_page_get_property;
  object_class->set_property = lode_graph_page_set_property;

  /**
   * LodeGraphPage:blast-radius:
   *
   * Whether everything that reaches the selected node is highlighted.
   */
  properties [PROP_BLAST_RADIUS] =
    g_param_spec_boolean ("blast-radius", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);

  g_type_ensure (LODE_TYPE_PROJECT_ITEM);
  g_type_ensure (LODE_TYPE_GRAPH_VIEW);
  g_type_ensure (LODE_TYPE_CODE_PREVIEW);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-graph-page.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, project);
  gtk_widget_class_bind_template_child_full (widget_class, "file", FALSE,
                                             G_STRUCT_OFFSET (LodeGraphPage, file_entry));
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, stack);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, cycles);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, hubs);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, hubs_group);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, view);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, status);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, spinner);
  gtk_widget_class_bind_template_child (widget_class, LodeGraphPage, preview);
  gtk_widget_class_bind_template_callback (widget_class, project_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, file_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, selection_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, node_activated_cb);

  gtk_widget_class_install_action (widget_class, "graph.back", NULL, back_activated);
  gtk_widget_class_install_action (widget_class, "graph.expand", NULL, expand_activated);
  gtk_widget_class_install_property_action (widget_class, "graph.blast-radius",
                                            "blast-radius");
  gtk_widget_class_install_action (widget_class, "graph.zoom-in", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.zoom-out", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.fit", NULL, zoom_activated);
  gtk_widget_class_install_action (widget_class, "graph.export", "s", export_activated);

  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Left, GDK_ALT_MASK, "graph.back",
                                       NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_Back, 0, "graph.back", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_e, 0, "graph.expand", NULL);
  gtk_widget_class_add_binding_action (widget_class, GDK_KEY_b, 0, "graph.blast-radius", NULL);
}

static void
lode_graph_page_init (LodeGraphPage *self)
{
  self->history = g_ptr_array_new_with_free_func (g_free);
  gtk_widget_init_template (GTK_WIDGET (self));

  load_lists (self);
  set_busy (self, FALSE);
  update_actions (self);
}
