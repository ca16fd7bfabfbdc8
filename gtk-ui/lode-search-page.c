/* lode-search-page.c — codebase_search as you type, results beside their code
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-code-preview.h"
#include "lode-models.h"
#include "lode-open-location.h"
#include "lode-project-item.h"
#include "lode-search-page.h"
#include "lode-search-row.h"
#include "lode-toast.h"

/*
 * The query runs as it is typed: GtkSearchEntry waits until typing pauses (150 ms), and
 * each new search cancels the one before, so only the last query's results are shown. The
 * first result is selected and its code shown in the preview, its lines marked; ↑ and ↓ in
 * the entry move through the results, Enter (or a double click) opens the selected one in the
 * user's editor. A query whose result was looked at or opened joins the recent searches (the
 * `recent-queries` setting), which the empty page lists.
 */

#define SEARCH_LIMIT 25
#define RECENT_MAX   8

/* The mode drop-down's items, in its order. */
static const char *const modes[] = { "hybrid", "lexical", "semantic" };

struct _LodeSearchPage
{
  GtkWidget        parent_instance;
  LodeConnection  *connection;
  GCancellable    *cancellable;
  char            *query;       /* of the results shown */
  JsonObject      *found;       /* the results shown */
  char            *provider;    /* (nullable): the embedding provider loded runs */
  GCancellable    *health_cancellable;
  GtkDropDown     *project;
  GtkSearchEntry  *entry;
  GtkDropDown     *mode;
  GtkEntry        *language;
  GtkEntry        *path;
  GtkStack        *stack;
  AdwStatusPage   *none_page;
  GtkLabel        *summary;
  GtkListBox      *results;
  GtkScrolledWindow *results_scroll;
  GtkWidget       *recent_group;
  GtkListBox      *recent;
  LodeCodePreview *preview;
  guint            selecting : 1;   /* the page selects, not the user */
  guint            focus_on_map : 1;
};

G_DEFINE_FINAL_TYPE (LodeSearchPage, lode_search_page, GTK_TYPE_WIDGET)

static void
clear_list (GtkListBox *list)
{
  GtkWidget *row;

  while ((row = gtk_widget_get_first_child (GTK_WIDGET (list))) != NULL)
    gtk_list_box_remove (list, row);
}

static GSettings *
settings (LodeSearchPage *self)
{
  return self->connection != NULL ? lode_connection_get_settings (self->connection) : NULL;
}

static void
show_recent (LodeSearchPage *self)
{
  g_auto(GStrv) queries = settings (self) != NULL
                          ? g_settings_get_strv (settings (self), "recent-queries") : NULL;

  clear_list (self->recent);
  for (guint i = 0; queries != NULL && queries[i] != NULL; i++)
    {
      GtkWidget *row = adw_action_row_new ();
      g_autofree char *escaped = g_markup_escape_text (queries[i], -1);

      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (row), escaped);
      adw_action_row_add_prefix (ADW_ACTION_ROW (row),
                                 gtk_image_new_from_icon_name ("document-open-recent-symbolic"));
      gtk_list_box_row_set_activatable (GTK_LIST_BOX_ROW (row), TRUE);
      g_object_set_data_full (G_OBJECT (row), "lode-query", g_strdup (queries[i]), g_free);
      gtk_list_box_append (self->recent, row);
    }
  gtk_widget_set_visible (self->recent_group, queries != NULL && queries[0] != NULL);
}

/* @query first among the recent searches, once. */
static void
remember_query (LodeSearchPage *self,
                const char     *query)
{
  g_auto(GStrv) queries = NULL;
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) updated = NULL;
  guint n = 1;

  if (settings (self) == NULL || query == NULL || *query == '\0')
    return;

  queries = g_settings_get_strv (settings (self), "recent-queries");
  g_strv_builder_add (builder, query);
  for (guint i = 0; queries[i] != NULL && n < RECENT_MAX; i++)
    if (g_strcmp0 (queries[i], query) != 0)
      {
        g_strv_builder_add (builder, queries[i]);
        n++;
      }
  updated = g_strv_builder_end (builder);
  if (!g_strv_equal ((const char * const *) queries, (const char * const *) updated))
    g_settings_set_strv (settings (self), "recent-queries", (const char * const *) updated);
}

/* Another provider: loded is asked again which one it runs. */
static void
settings_changed_cb (LodeSearchPage *self)
{
  g_cancellable_cancel (self->health_cancellable);
  g_clear_object (&self->health_cancellable);
  g_clear_pointer (&self->provider, g_free);
}

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
  g_signal_connect_object (settings (self), "changed::recent-queries",
                           G_CALLBACK (show_recent), self, G_CONNECT_SWAPPED);
  g_signal_connect_object (settings (self), "changed::embedding-provider",
                           G_CALLBACK (settings_changed_cb), self, G_CONNECT_SWAPPED);
  show_recent (self);
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
  lode_search_page_focus_entry (self);
}

/**
 * lode_search_page_focus_entry:
 * @self: a #LodeSearchPage
 *
 * Puts the keyboard in the search entry, its text selected.
 */
void
lode_search_page_focus_entry (LodeSearchPage *self)
{
  g_return_if_fail (LODE_IS_SEARCH_PAGE (self));

  /* A page just switched to is mapped a moment later: the entry takes the focus then. */
  if (!gtk_widget_get_mapped (GTK_WIDGET (self->entry)))
    {
      self->focus_on_map = TRUE;
      return;
    }
  gtk_widget_grab_focus (GTK_WIDGET (self->entry));
  gtk_editable_select_region (GTK_EDITABLE (self->entry), 0, -1);
}

static void
entry_map_cb (LodeSearchPage *self)
{
  if (!self->focus_on_map)
    return;
  self->focus_on_map = FALSE;
  lode_search_page_focus_entry (self);
}

/**
 * lode_search_page_get_preview:
 * @self: a #LodeSearchPage
 *
 * Returns: (transfer none): the code of the selected result
 */
LodeCodePreview *
lode_search_page_get_preview (LodeSearchPage *self)
{
  g_return_val_if_fail (LODE_IS_SEARCH_PAGE (self), NULL);

  return self->preview;
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

/* Why semantic search did not run, in words that say what to click: the engine's reason is
 * worded for agents and the command line. Which provider loded runs (codebase_health) tells
 * the usual cases apart. */
static char *
describe_fallback (LodeSearchPage *self,
                   const char     *reason)
{
  if (g_strcmp0 (self->provider, "none") == 0)
    return g_strdup (_("semantic search is off (Preferences)"));
  if (g_strcmp0 (self->provider, "builtin") == 0)
    {
      g_autofree char *model = settings (self) != NULL
                               ? g_settings_get_string (settings (self), "embedding-model") : NULL;
      g_autofree char *installed = lode_models_find_installed (model != NULL && *model != '\0'
                                                               ? model : LODE_MODEL_DEFAULT);

      if (installed == NULL)
        /* Translators: keep the <a href="models"> … </a> around the link's words. */
        return g_strdup (_("to find code by meaning too, download the embedding model on the "
                           "<a href=\"models\">Models page</a>"));
    }

  /* Translators: %s is why, in the engine's words. */
  return g_markup_printf_escaped (_("semantic search is unavailable: %s"), reason);
}

/* "3 results, lexical search", and why the mode differs from the one asked for (markup). */
static char *
describe (LodeSearchPage *self,
          JsonObject     *found)
{
  JsonObject *mode = json_object_get_object_member (found, "mode");
  const char *reason = json_object_get_string_member_with_default (mode, "reason", NULL);
  const char *used = json_object_get_string_member (mode, "used");
  guint total = json_object_get_int_member (found, "total");
  g_autofree char *count = NULL;
  g_autofree char *fallback = NULL;

  /* Translators: %u is a number of results, %s the search mode (hybrid, lexical, semantic). */
  count = g_markup_printf_escaped (g_dngettext (GETTEXT_PACKAGE, "%u result, %s search",
                                                "%u results, %s search", total),
                                   total, mode_title (used));
  if (reason == NULL)
    return g_steal_pointer (&count);

  fallback = describe_fallback (self, reason);
  /* Translators: the result count, then why the mode differs from the one asked for. */
  return g_strdup_printf (_("%s — %s"), count, fallback);
}

static void
show_summary (LodeSearchPage *self)
{
  g_autofree char *summary = self->found != NULL ? describe (self, self->found) : NULL;

  gtk_label_set_markup (self->summary, summary != NULL ? summary : "");
}

static void
health_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LodeSearchPage) self = user_data;
  g_autoptr(JsonObject) health = NULL;
  JsonObject *embeddings;

  health = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, NULL);
  if (health == NULL)
    return;

  embeddings = json_object_get_object_member (health, "embeddings");
  g_free (self->provider);
  self->provider = g_strdup (json_object_get_string_member_with_default (embeddings, "provider",
                                                                          NULL));
  show_summary (self);
}

/* Asks loded which provider it runs, once per change of the settings. */
static void
check_provider (LodeSearchPage *self)
{
  if (self->provider != NULL || self->health_cancellable != NULL || self->connection == NULL)
    return;

  self->health_cancellable = g_cancellable_new ();
  lode_connection_call_tool (self->connection, "codebase_health", NULL,
                             self->health_cancellable, health_cb, g_object_ref (self));
}


static gboolean
summary_link_cb (LodeSearchPage *self,
                 const char     *uri)
{
  gtk_widget_activate_action (GTK_WIDGET (self), "win.show-page", "s", uri);
  return TRUE;
}

static void
select_row (LodeSearchPage *self,
            GtkListBoxRow  *row)
{
  self->selecting = TRUE;
  gtk_list_box_select_row (self->results, row);
  self->selecting = FALSE;
}

static void
search_done_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(LodeSearchPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) found = NULL;
  JsonArray *results;
  const char *root;

  found = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  clear_list (self->results);
  if (found == NULL)
    {
      adw_status_page_set_title (self->none_page, _("Search Failed"));
      adw_status_page_set_description (self->none_page, error->message);
      gtk_stack_set_visible_child_name (self->stack, "none");
      return;
    }

  results = json_object_get_array_member (found, "results");
  root = json_object_get_string_member (found, "projectPath");
  g_free (self->query);
  self->query = g_strdup (json_object_get_string_member (found, "query"));
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
                                              self->query));
  g_clear_pointer (&self->found, json_object_unref);
  self->found = json_object_ref (found);
  show_summary (self);
  if (json_object_has_member (json_object_get_object_member (found, "mode"), "reason"))
    check_provider (self);
  gtk_stack_set_visible_child_name (self->stack, "results");
  select_row (self, gtk_list_box_get_row_at_index (self->results, 0));
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
      clear_list (self->results);
      lode_code_preview_clear (self->preview);
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
row_selected_cb (LodeSearchPage *self,
                 GtkListBoxRow  *row)
{
  LodeSearchRow *result;

  /* The list empties as the page is disposed, the preview gone already. */
  if (self->preview == NULL)
    return;
  if (row == NULL)
    {
      lode_code_preview_clear (self->preview);
      return;
    }

  result = LODE_SEARCH_ROW (row);
  lode_code_preview_show (self->preview, lode_search_row_get_path (result),
                          lode_search_row_get_relative_path (result),
                          lode_search_row_get_line (result),
                          lode_search_row_get_end_line (result), self->query);
  if (!self->selecting)
    remember_query (self, self->query);
}

static void
row_activated_cb (LodeSearchPage *self,
                  GtkListBoxRow  *row)
{
  g_autoptr(GAppLaunchContext) context = NULL;
  g_autoptr(GError) error = NULL;
  LodeSearchRow *result = LODE_SEARCH_ROW (row);

  remember_query (self, self->query);
  context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (
                                    gtk_widget_get_display (GTK_WIDGET (self))));
  if (!lode_open_location (lode_search_row_get_path (result), lode_search_row_get_line (result),
                           context, &error))
    lode_toast_show_error (GTK_WIDGET (self), _("Cannot open the file"), error);
}

/* Enter opens the selected result (the first one, as it is selected with the results). */
static void
entry_activate_cb (LodeSearchPage *self)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->results);

  if (row != NULL && g_strcmp0 (gtk_stack_get_visible_child_name (self->stack), "results") == 0)
    g_signal_emit_by_name (row, "activate");
}

/* The least scrolling that shows all of @row. */
static void
scroll_to_row (LodeSearchPage *self,
               GtkListBoxRow  *row)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (self->results_scroll);
  double value = gtk_adjustment_get_value (adjustment);
  double page = gtk_adjustment_get_page_size (adjustment);
  graphene_rect_t bounds;

  if (!gtk_widget_compute_bounds (GTK_WIDGET (row), GTK_WIDGET (self->results), &bounds))
    return;
  if (bounds.origin.y < value)
    gtk_adjustment_set_value (adjustment, bounds.origin.y);
  else if (bounds.origin.y + bounds.size.height > value + page)
    gtk_adjustment_set_value (adjustment, bounds.origin.y + bounds.size.height - page);
}

/* ↑ and ↓ in the entry move through the results, the keyboard staying in the entry. */
static gboolean
entry_key_pressed_cb (LodeSearchPage        *self,
                      guint                  keyval,
                      guint                  keycode,
                      GdkModifierType        state,
                      GtkEventControllerKey *controller)
{
  GtkListBoxRow *row = gtk_list_box_get_selected_row (self->results);
  int index = row != NULL ? gtk_list_box_row_get_index (row) : -1;
  GtkListBoxRow *next;

  if (keyval == GDK_KEY_Down || keyval == GDK_KEY_KP_Down)
    index++;
  else if ((keyval == GDK_KEY_Up || keyval == GDK_KEY_KP_Up) && index > 0)
    index--;
  else
    return FALSE;

  next = gtk_list_box_get_row_at_index (self->results, index);
  if (next != NULL)
    {
      gtk_list_box_select_row (self->results, next);
      scroll_to_row (self, next);
    }
  return TRUE;
}

static void
recent_activated_cb (LodeSearchPage *self,
                     GtkListBoxRow  *row)
{
  const char *query = g_object_get_data (G_OBJECT (row), "lode-query");

  if (query != NULL)
    lode_search_page_set_query (self, query);
}

static void
lode_search_page_dispose (GObject *object)
{
  LodeSearchPage *self = (LodeSearchPage *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_cancellable_cancel (self->health_cancellable);
  g_clear_object (&self->health_cancellable);
  g_clear_pointer (&self->found, json_object_unref);
  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_SEARCH_PAGE);
  /* The template's root is not bound to a field, so it is unparented here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);

  G_OBJECT_CLASS (lode_search_page_parent_class)->dispose (object);
}

static void
lode_search_page_finalize (GObject *object)
{
  LodeSearchPage *self = (LodeSearchPage *)object;

  g_free (self->query);
  g_free (self->provider);

  G_OBJECT_CLASS (lode_search_page_parent_class)->finalize (object);
}

static void
lode_search_page_class_init (LodeSearchPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_search_page_dispose;
  object_class->finalize = lode_search_page_finalize;

  g_type_ensure (LODE_TYPE_PROJECT_ITEM);
  g_type_ensure (LODE_TYPE_CODE_PREVIEW);
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
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, results_scroll);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, recent_group);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, recent);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchPage, preview);
  gtk_widget_class_bind_template_callback (widget_class, search_cb);
  gtk_widget_class_bind_template_callback (widget_class, entry_activate_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, row_selected_cb);
  gtk_widget_class_bind_template_callback (widget_class, recent_activated_cb);
  gtk_widget_class_bind_template_callback (widget_class, summary_link_cb);
}

static void
lode_search_page_init (LodeSearchPage *self)
{
  GtkEventController *keys = gtk_event_controller_key_new ();

  gtk_widget_init_template (GTK_WIDGET (self));

  /* Before the entry's own handling of the keys. */
  gtk_event_controller_set_propagation_phase (keys, GTK_PHASE_CAPTURE);
  g_signal_connect_object (keys, "key-pressed", G_CALLBACK (entry_key_pressed_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_add_controller (GTK_WIDGET (self->entry), keys);
  g_signal_connect_object (self->entry, "map", G_CALLBACK (entry_map_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_widget_set_visible (self->recent_group, FALSE);
}
