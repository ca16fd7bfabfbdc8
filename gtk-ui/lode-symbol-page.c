/* lode-symbol-page.c — a definition with its callers and callees
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-call-graph-source.h"
#include "lode-symbol-page.h"
#include "lode-toast.h"

/*
 * What codebase_symbol answers about one definition: its name, kind, place and signature
 * (and its doc comment, which get_function_details or find_type_definition gives),
 * the definitions that call it and those it calls, each a row that opens its own page here;
 * calls to nothing the project defines are listed, not clickable. Its code is shown beside,
 * its lines marked, or its call graph drawn (LodeCallGraphSource: its callers, its calls
 * down to the depth chosen, LODE_CALL_GRAPH_DEPTH at first), where activating a node opens that definition, Expand adds the
 * selected node's own callers and calls, and Blast Radius marks every definition that calls
 * it, directly or not. A name several
 * definitions share opens the first candidate.
 */

#define CALL_LIMIT 200

struct _LodeSymbolPage
{
  GtkWidget        parent_instance;
  LodeConnection  *connection;
  LodeGraphSource *source;
  GCancellable    *cancellable;
  GCancellable    *graph_cancellable;
  char            *root;
  char            *name;        /* (nullable): of the symbol shown */
  char            *key;         /* (nullable): its node in the call graph */
  guint            doc_line;    /* where the definition whose doc is asked for starts */
  gboolean         follow;      /* a name several definitions share opens the first */
  GtkStack        *stack;
  AdwStatusPage   *none_page;
  GtkLabel        *title;
  GtkLabel        *location;
  GtkLabel        *signature;
  GtkLabel        *doc;
  GtkLabel        *callers_heading;
  GtkListBox      *callers;
  GtkLabel        *callees_heading;
  GtkListBox      *callees;
  LodeCodePreview *preview;
  GtkStack        *view_stack;
  GtkToggleButton *show_graph;
  LodeGraphView   *graph_view;
  GtkToggleButton *blast_radius;
  GtkSpinButton   *depth;
};

G_DEFINE_FINAL_TYPE (LodeSymbolPage, lode_symbol_page, GTK_TYPE_WIDGET)

static void
clear_list (GtkListBox *list)
{
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, row);
}

/* A definition that calls or is called, as a row that opens it; a call to nothing the
 * project defines (@definition %FALSE) as a row that says where it goes. */
static void
add_call_row (GtkListBox *list,
              JsonObject *call,
              gboolean    definition,
              const char *outside)
{
  GtkWidget *row = adw_action_row_new ();
  const char *name = definition ? lode_call_graph_source_name_of (call)
                                : json_object_get_string_member (call, "name");
  const char *path = definition ? json_object_get_string_member (call, "path") : NULL;
  guint line = json_object_get_int_member_with_default (call, "callLine", 0);
  g_autofree char *subtitle = NULL;

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), name);
  adw_preferences_row_set_use_markup (ADW_PREFERENCES_ROW (row), FALSE);
  /* Translators: where a caller or callee is defined (or that the project does not define
   * it), then the line of the call. */
  subtitle = g_strdup_printf (_("%s, call on line %u"), definition ? path : outside, line);
  adw_action_row_set_subtitle (ADW_ACTION_ROW (row), subtitle);
  /* A call at a file's top level has no definition to open. */
  if (definition && json_object_get_int_member (call, "startLine") > 0)
    {
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      adw_action_row_add_suffix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("go-next-symbolic"));
      g_object_set_data_full (G_OBJECT (row), "name", g_strdup (name), g_free);
      g_object_set_data_full (G_OBJECT (row), "file", g_strdup (path), g_free);
    }
  gtk_list_box_append (list, row);
}

static void
add_calls (GtkListBox *list,
           JsonArray  *calls,
           gboolean    definitions,
           const char *outside)
{
  for (guint i = 0; calls != NULL && i < json_array_get_length (calls); i++)
    add_call_row (list, json_array_get_object_element (calls, i), definitions, outside);
}

static void
show_none (LodeSymbolPage *self,
           const char     *title,
           const char     *description)
{
  adw_status_page_set_title (self->none_page, title);
  adw_status_page_set_description (self->none_page, description);
  gtk_stack_set_visible_child_name (self->stack, "none");
}

static void
graph_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(LodeSymbolPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeGraphModel) model = NULL;

  model = lode_graph_source_load_finish (LODE_GRAPH_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (model == NULL)
    {
      lode_toast_show_error (GTK_WIDGET (self), _("Cannot draw the call graph"), error);
      return;
    }
  lode_graph_view_set_model (self->graph_view, model);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "symbol.export", TRUE);
}

/* Draws the call graph around the definition @name of @file. */
static void
load_graph (LodeSymbolPage *self,
            const char     *file,
            const char     *name)
{
  g_cancellable_cancel (self->graph_cancellable);
  g_clear_object (&self->graph_cancellable);
  gtk_toggle_button_set_active (self->blast_radius, FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "symbol.export", FALSE);
  g_free (self->key);
  self->key = lode_call_graph_source_make_key (file, name);
  self->graph_cancellable = g_cancellable_new ();
  lode_graph_source_load_async (self->source, self->root, self->key, self->graph_cancellable,
                                graph_cb, g_object_ref (self));
}

static void
reach_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(LodeSymbolPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) keys = NULL;

  keys = lode_graph_source_reach_finish (LODE_GRAPH_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (keys == NULL)
    {
      gtk_toggle_button_set_active (self->blast_radius, FALSE);
      lode_toast_show_error (GTK_WIDGET (self), _("Cannot find what calls it"), error);
      return;
    }
  lode_graph_view_set_reach (self->graph_view, self->key, (const char * const *) keys);
}

static void
expand_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LodeSymbolPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeGraphModel) around = NULL;
  LodeGraphModel *model;

  around = lode_graph_source_load_finish (LODE_GRAPH_SOURCE (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  model = lode_graph_view_get_model (self->graph_view);
  if (around == NULL)
    lode_toast_show_error (GTK_WIDGET (self), _("Cannot expand the definition"), error);
  else if (model != NULL)
    lode_graph_model_merge (model, around);
}

/* The graph drawn again, its calls down to the depth chosen. */
static void
depth_changed_cb (LodeSymbolPage *self)
{
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;

  lode_call_graph_source_set_depth (LODE_CALL_GRAPH_SOURCE (self->source),
                                    gtk_spin_button_get_value_as_int (self->depth));
  if (self->key != NULL && lode_call_graph_source_split_key (self->key, &file, &name))
    load_graph (self, file, name);
}

/* The selected node's own callers and calls, merged into the graph drawn. */
static void
expand_clicked_cb (LodeSymbolPage *self)
{
  const char *key = lode_graph_view_get_selected (self->graph_view);

  if (key == NULL || self->root == NULL)
    return;
  if (self->graph_cancellable == NULL)
    self->graph_cancellable = g_cancellable_new ();
  lode_graph_source_load_async (self->source, self->root, key, self->graph_cancellable,
                                expand_cb, g_object_ref (self));
}

/* The blast radius of the definition shown: every definition that calls it, marked. */
static void
blast_radius_toggled_cb (LodeSymbolPage *self)
{
  lode_graph_view_set_reach (self->graph_view, NULL, NULL);
  if (!gtk_toggle_button_get_active (self->blast_radius) || self->key == NULL)
    return;
  if (self->graph_cancellable == NULL)
    self->graph_cancellable = g_cancellable_new ();
  lode_graph_source_reach_async (self->source, self->root, self->key, self->graph_cancellable,
                                 reach_cb, g_object_ref (self));
}

/* "symbol.export" ("png" or "svg"): the call graph drawn, to a file the user picks. */
static void
export_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LodeSymbolPage *self = LODE_SYMBOL_PAGE (widget);
  gboolean svg = g_strcmp0 (g_variant_get_string (parameter, NULL), "svg") == 0;
  g_autofree char *base = g_strdup (self->name != NULL ? self->name : "symbol");
  g_autofree char *name = NULL;

  g_strdelimit (base, "/\\:<>", '_');
  name = g_strdup_printf ("%s-calls.%s", base, svg ? "svg" : "png");
  lode_graph_view_save_as (self->graph_view, svg, name);
}

static void request (LodeSymbolPage *self,
                     const char     *name,
                     const char     *file,
                     gboolean        follow);

static void
doc_cb (GObject      *object,
        GAsyncResult *result,
        gpointer      user_data)
{
  g_autoptr(LodeSymbolPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) report = NULL;
  JsonObject *descriptor = NULL;
  JsonObject *location = NULL;
  const char *description = NULL;

  report = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (report == NULL)
    {
      g_debug ("No doc comment: %s", error->message);
      return;
    }
  if (json_object_has_member (report, "function"))
    descriptor = json_object_get_object_member (report, "function");
  else if (json_object_has_member (report, "type"))
    descriptor = json_object_get_object_member (report, "type");
  if (descriptor != NULL)
    location = json_object_get_object_member (descriptor, "location");
  /* The same definition: one of that name elsewhere in the file has its own doc. */
  if (location != NULL && json_object_get_int_member (location, "start_line") == self->doc_line)
    description = json_object_get_string_member_with_default (descriptor, "description", NULL);

  gtk_label_set_text (self->doc, description != NULL ? description : "");
  gtk_widget_set_visible (GTK_WIDGET (self->doc), description != NULL && *description != '\0');
}

/* The doc comment of the definition shown: get_function_details for what can be called,
 * find_type_definition for a type; nothing for the rest. */
static void
request_doc (LodeSymbolPage *self,
             JsonObject     *symbol)
{
  const char *kind = json_object_get_string_member_with_default (symbol, "kind", "");
  static const char * const callables[] = { "function", "method", "constructor", NULL };
  static const char * const types[] = { "class", "struct", "interface", "trait", "enum",
                                        "union", "type", "protocol", "record", NULL };
  gboolean callable = g_strv_contains (callables, kind);
  JsonObject *arguments;

  gtk_widget_set_visible (GTK_WIDGET (self->doc), FALSE);
  if (!callable && !g_strv_contains (types, kind))
    return;

  self->doc_line = json_object_get_int_member (symbol, "startLine");
  arguments = json_object_new ();
  json_object_set_string_member (arguments, "projectPath", self->root);
  json_object_set_string_member (arguments, callable ? "function_name" : "type_name",
                                 self->name);
  json_object_set_string_member (arguments, "package",
                                 json_object_get_string_member (symbol, "path"));
  lode_connection_call_tool (self->connection,
                             callable ? "get_function_details" : "find_type_definition",
                             arguments, self->cancellable, doc_cb, g_object_ref (self));
}

static void
symbol_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LodeSymbolPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) report = NULL;
  g_autofree char *path = NULL;
  g_autofree char *location = NULL;
  g_autofree char *callers_heading = NULL;
  g_autofree char *callees_heading = NULL;
  JsonObject *symbol;
  JsonArray *candidates;
  JsonArray *callees;
  JsonArray *unresolved;
  JsonArray *external;
  const char *kind;
  const char *signature;
  guint n_callers, n_callees;

  report = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;
  if (report == NULL)
    {
      show_none (self, _("Cannot Show the Symbol"), error->message);
      return;
    }

  symbol = json_object_get_object_member (report, "symbol");
  candidates = json_object_get_array_member (report, "candidates");
  if (symbol == NULL && self->follow && candidates != NULL &&
      json_array_get_length (candidates) > 0)
    {
      JsonObject *first = json_array_get_object_element (candidates, 0);

      /* Once: the first candidate, by its qualified name and file, is asked for as it is. */
      request (self, lode_call_graph_source_name_of (first),
               json_object_get_string_member (first, "path"), FALSE);
      return;
    }
  if (symbol == NULL)
    {
      show_none (self, _("No Such Definition"),
                 _("The call graph has no definition of that name: index the project again "
                   "if it is new."));
      return;
    }

  g_free (self->name);
  self->name = g_strdup (lode_call_graph_source_name_of (symbol));
  gtk_label_set_text (self->title, self->name);
  kind = json_object_get_string_member_with_default (symbol, "kind", NULL);
  location = g_strdup_printf ("%s%s%s:%" G_GINT64_FORMAT, kind != NULL ? kind : "",
                              kind != NULL ? " · " : "",
                              json_object_get_string_member (symbol, "path"),
                              json_object_get_int_member (symbol, "startLine"));
  gtk_label_set_text (self->location, location);
  signature = json_object_get_string_member_with_default (symbol, "signature", NULL);
  gtk_label_set_text (self->signature, signature != NULL ? signature : "");
  gtk_widget_set_visible (GTK_WIDGET (self->signature), signature != NULL);
  request_doc (self, symbol);

  clear_list (self->callers);
  clear_list (self->callees);
  n_callers = json_object_get_int_member (report, "callerCount");
  callers_heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Caller", "%u Callers",
                                                  n_callers), n_callers);
  gtk_label_set_text (self->callers_heading, callers_heading);
  add_calls (self->callers, json_object_get_array_member (report, "callers"), TRUE, NULL);
  gtk_widget_set_visible (GTK_WIDGET (self->callers), n_callers > 0);

  callees = json_object_get_array_member (report, "callees");
  unresolved = json_object_get_array_member (report, "unresolvedCallees");
  external = json_object_get_array_member (report, "externalCallees");
  n_callees = json_array_get_length (callees) + json_array_get_length (unresolved) +
              json_array_get_length (external);
  callees_heading = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "%u Callee", "%u Callees",
                                                  n_callees), n_callees);
  gtk_label_set_text (self->callees_heading, callees_heading);
  add_calls (self->callees, callees, TRUE, NULL);
  add_calls (self->callees, external, FALSE, _("Outside the project"));
  add_calls (self->callees, unresolved, FALSE, _("Not found in the project"));
  gtk_widget_set_visible (GTK_WIDGET (self->callees), n_callees > 0);

  path = g_build_filename (self->root, json_object_get_string_member (symbol, "path"), NULL);
  lode_code_preview_show (self->preview, path, json_object_get_string_member (symbol, "path"),
                          json_object_get_int_member (symbol, "startLine"),
                          json_object_get_int_member_with_default (symbol, "endLine", 0), NULL);
  load_graph (self, json_object_get_string_member (symbol, "path"), self->name);
  gtk_stack_set_visible_child_name (self->stack, "symbol");
}

/**
 * lode_symbol_page_show:
 * @self: a #LodeSymbolPage
 * @root: the project
 * @name: the definition: plain or qualified
 * @file: (nullable): its file, relative to @root, when the name is not enough
 *
 * Asks codebase_symbol about the definition and shows it, replacing the one shown.
 */
void
lode_symbol_page_show (LodeSymbolPage *self,
                       const char     *root,
                       const char     *name,
                       const char     *file)
{
  g_return_if_fail (LODE_IS_SYMBOL_PAGE (self));
  g_return_if_fail (root != NULL && name != NULL);

  if (g_strcmp0 (self->root, root) != 0)
    {
      g_free (self->root);
      self->root = g_strdup (root);
    }
  request (self, name, file, TRUE);
}

static void
request (LodeSymbolPage *self,
         const char     *name,
         const char     *file,
         gboolean        follow)
{
  JsonObject *arguments;

  if (self->connection == NULL)
    return;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  self->follow = follow;

  arguments = json_object_new ();
  json_object_set_string_member (arguments, "projectPath", self->root);
  json_object_set_string_member (arguments, "name", name);
  if (file != NULL && *file != '\0')
    json_object_set_string_member (arguments, "file", file);
  json_object_set_int_member (arguments, "limit", CALL_LIMIT);
  lode_connection_call_tool (self->connection, "codebase_symbol", arguments, self->cancellable,
                             symbol_cb, g_object_ref (self));
}

static void
row_activated_cb (LodeSymbolPage *self,
                  GtkListBoxRow  *row)
{
  const char *name = g_object_get_data (G_OBJECT (row), "name");

  if (name != NULL)
    request (self, name, g_object_get_data (G_OBJECT (row), "file"), TRUE);
}

static void
node_activated_cb (LodeSymbolPage *self,
                   const char     *key)
{
  g_autofree char *file = NULL;
  g_autofree char *name = NULL;

  if (lode_call_graph_source_split_key (key, &file, &name))
    request (self, name, file, TRUE);
}

/**
 * lode_symbol_page_set_connection:
 * @self: a #LodeSymbolPage
 * @connection: the connection to loded, whose client runs codebase_symbol
 */
void
lode_symbol_page_set_connection (LodeSymbolPage *self,
                                 LodeConnection *connection)
{
  g_return_if_fail (LODE_IS_SYMBOL_PAGE (self));
  g_return_if_fail (LODE_IS_CONNECTION (connection));

  g_set_object (&self->connection, connection);
  g_clear_object (&self->source);
  self->source = lode_call_graph_source_new (connection);
}

/**
 * lode_symbol_page_get_name:
 * @self: a #LodeSymbolPage
 *
 * Returns: (nullable): the name of the definition shown, as the call graph qualifies it
 */
const char *
lode_symbol_page_get_name (LodeSymbolPage *self)
{
  g_return_val_if_fail (LODE_IS_SYMBOL_PAGE (self), NULL);

  return self->name;
}

/**
 * lode_symbol_page_get_callers:
 * @self: a #LodeSymbolPage
 *
 * Returns: (transfer none): the list of the definitions that call it
 */
GtkListBox *
lode_symbol_page_get_callers (LodeSymbolPage *self)
{
  g_return_val_if_fail (LODE_IS_SYMBOL_PAGE (self), NULL);

  return self->callers;
}

/**
 * lode_symbol_page_get_callees:
 * @self: a #LodeSymbolPage
 *
 * Returns: (transfer none): the list of what it calls
 */
GtkListBox *
lode_symbol_page_get_callees (LodeSymbolPage *self)
{
  g_return_val_if_fail (LODE_IS_SYMBOL_PAGE (self), NULL);

  return self->callees;
}

/**
 * lode_symbol_page_show_graph:
 * @self: a #LodeSymbolPage
 *
 * Shows the call graph instead of the code.
 */
void
lode_symbol_page_show_graph (LodeSymbolPage *self)
{
  g_return_if_fail (LODE_IS_SYMBOL_PAGE (self));

  gtk_toggle_button_set_active (self->show_graph, TRUE);
}

/* Code or Call Graph: two toggles, narrower than a GtkStackSwitcher's equal buttons. */
static void
view_toggled_cb (LodeSymbolPage *self)
{
  gtk_stack_set_visible_child_name (self->view_stack,
                                    gtk_toggle_button_get_active (self->show_graph) ? "graph"
                                                                                    : "code");
}

/**
 * lode_symbol_page_get_blast_radius:
 * @self: a #LodeSymbolPage
 *
 * Returns: (transfer none): the button that marks what calls the definition
 */
GtkToggleButton *
lode_symbol_page_get_blast_radius (LodeSymbolPage *self)
{
  g_return_val_if_fail (LODE_IS_SYMBOL_PAGE (self), NULL);

  return self->blast_radius;
}

/**
 * lode_symbol_page_get_graph_view:
 * @self: a #LodeSymbolPage
 *
 * Returns: (transfer none): the view of its call graph
 */
LodeGraphView *
lode_symbol_page_get_graph_view (LodeSymbolPage *self)
{
  g_return_val_if_fail (LODE_IS_SYMBOL_PAGE (self), NULL);

  return self->graph_view;
}

/**
 * lode_symbol_page_get_preview:
 * @self: a #LodeSymbolPage
 *
 * Returns: (transfer none): the preview of its code
 */
LodeCodePreview *
lode_symbol_page_get_preview (LodeSymbolPage *self)
{
  g_return_val_if_fail (LODE_IS_SYMBOL_PAGE (self), NULL);

  return self->preview;
}

static void
lode_symbol_page_dispose (GObject *object)
{
  LodeSymbolPage *self = (LodeSymbolPage *)object;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->graph_cancellable);
  g_clear_object (&self->graph_cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_SYMBOL_PAGE);
  g_clear_object (&self->source);
  g_clear_object (&self->connection);

  G_OBJECT_CLASS (lode_symbol_page_parent_class)->dispose (object);
}

static void
lode_symbol_page_finalize (GObject *object)
{
  LodeSymbolPage *self = (LodeSymbolPage *)object;

  g_free (self->root);
  g_free (self->name);
  g_free (self->key);

  G_OBJECT_CLASS (lode_symbol_page_parent_class)->finalize (object);
}

static void
lode_symbol_page_class_init (LodeSymbolPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_symbol_page_dispose;
  object_class->finalize = lode_symbol_page_finalize;

  g_type_ensure (LODE_TYPE_CODE_PREVIEW);
  g_type_ensure (LODE_TYPE_GRAPH_VIEW);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-symbol-page.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, stack);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, none_page);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, title);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, location);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, signature);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, doc);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, callers_heading);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, callers);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, callees_heading);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, callees);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, preview);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, view_stack);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, show_graph);
  gtk_widget_class_bind_template_callback (widget_class, view_toggled_cb);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, graph_view);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, blast_radius);
  gtk_widget_class_bind_template_callback (widget_class, blast_radius_toggled_cb);
  gtk_widget_class_bind_template_child (widget_class, LodeSymbolPage, depth);
  gtk_widget_class_bind_template_callback (widget_class, expand_clicked_cb);
  gtk_widget_class_bind_template_callback (widget_class, depth_changed_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, node_activated_cb);

  gtk_widget_class_install_action (widget_class, "symbol.export", "s", export_activated);
}

static void
lode_symbol_page_init (LodeSymbolPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "symbol.export", FALSE);
}
