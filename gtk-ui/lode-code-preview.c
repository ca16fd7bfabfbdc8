/* lode-code-preview.c — a file's code, highlighted, at the lines a search or a graph chose
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "lode-code-preview.h"
#include "lode-open-location.h"
#include "lode-query-terms.h"
#include "lode-toast.h"

/*
 * The file is read from disk (asynchronously; a newer request cancels the one before) into a
 * read-only GtkSourceView with the language GtkSourceView guesses from its name and the
 * Adwaita style scheme of the current light or dark style. The lines asked for get a tinted
 * background, and those of them that hold a term of the query a mark in the gutter; the view
 * scrolls to them. "Open in Editor" opens the file at the first line in the user's editor.
 */

#define MAX_PREVIEW_BYTES (8 * 1024 * 1024)
#define MATCH_CATEGORY    "lode-match"

struct _LodeCodePreview
{
  GtkWidget        parent_instance;
  GCancellable    *cancellable;
  char            *path;
  char            *query;
  guint            first_line;
  guint            last_line;
  GtkSourceBuffer *buffer;
  GtkTextTag      *range_tag;
  GtkWidget       *header;
  GtkWidget       *separator;
  GtkLabel        *title;
  GtkStack        *stack;
  AdwStatusPage   *error_page;
  GtkSourceView   *view;
  guint            loaded : 1;
};

G_DEFINE_FINAL_TYPE (LodeCodePreview, lode_code_preview, GTK_TYPE_WIDGET)

static void
update_scheme (LodeCodePreview *self)
{
  AdwStyleManager *style = adw_style_manager_get_default ();
  GtkSourceStyleSchemeManager *schemes = gtk_source_style_scheme_manager_get_default ();
  GtkSourceStyleScheme *scheme;

  scheme = gtk_source_style_scheme_manager_get_scheme (schemes,
                                                       adw_style_manager_get_dark (style)
                                                       ? "Adwaita-dark" : "Adwaita");
  gtk_source_buffer_set_style_scheme (self->buffer, scheme);
}

/* The lines asked for, tinted; those holding a query term marked in the gutter. */
static void
mark_lines (LodeCodePreview *self)
{
  GtkTextBuffer *buffer = GTK_TEXT_BUFFER (self->buffer);
  g_autoptr(LodeQueryTerms) terms = lode_query_terms_new (self->query != NULL ? self->query
                                                                              : "");
  guint n_lines = gtk_text_buffer_get_line_count (buffer);
  guint first = MIN (MAX (self->first_line, 1), n_lines);
  guint last = MIN (MAX (self->last_line, first), n_lines);
  gboolean marked = FALSE;
  GtkTextIter start, end;

  gtk_text_buffer_get_iter_at_line (buffer, &start, first - 1);
  gtk_text_buffer_get_iter_at_line (buffer, &end, last - 1);
  gtk_text_iter_forward_to_line_end (&end);
  gtk_text_buffer_apply_tag (buffer, self->range_tag, &start, &end);

  for (guint line = first; line <= last; line++)
    {
      GtkTextIter line_start, line_end;
      g_autofree char *text = NULL;
      gsize at, matched;

      gtk_text_buffer_get_iter_at_line (buffer, &line_start, line - 1);
      line_end = line_start;
      gtk_text_iter_forward_to_line_end (&line_end);
      text = gtk_text_buffer_get_text (buffer, &line_start, &line_end, FALSE);
      if (lode_query_terms_find (terms, text, strlen (text), &at, &matched))
        {
          gtk_source_buffer_create_source_mark (self->buffer, NULL, MATCH_CATEGORY, &line_start);
          marked = TRUE;
        }
    }

  /* Without a term in them (a graph's file, a question in words), the first line. */
  if (!marked && self->first_line > 0)
    gtk_source_buffer_create_source_mark (self->buffer, NULL, MATCH_CATEGORY, &start);
}

static void
clear_marks (LodeCodePreview *self)
{
  GtkTextIter start, end;

  gtk_text_buffer_get_bounds (GTK_TEXT_BUFFER (self->buffer), &start, &end);
  gtk_source_buffer_remove_source_marks (self->buffer, &start, &end, NULL);
  gtk_text_buffer_remove_all_tags (GTK_TEXT_BUFFER (self->buffer), &start, &end);
}

static gboolean
scroll_cb (gpointer user_data)
{
  LodeCodePreview *self = user_data;
  GtkTextIter iter;

  gtk_text_buffer_get_iter_at_line (GTK_TEXT_BUFFER (self->buffer), &iter,
                                    MAX (self->first_line, 1) - 1);
  gtk_text_view_scroll_to_iter (GTK_TEXT_VIEW (self->view), &iter, 0.0, TRUE, 0.0, 0.2);
  return G_SOURCE_REMOVE;
}

/* GTK 4.8 ends a scroll animation twice, with a CRITICAL, when a scrolled window is unmapped
 * while the "value-changed" its end emits makes the text view end it as well
 * (gtk_adjustment_enable_animation() disconnects a handler it no longer has). The scroll to
 * the marked lines animates, so whatever hides the code ends that animation first: setting an
 * adjustment's value stops its animation where it is. */
static void
end_scrolling (LodeCodePreview *self)
{
  GtkScrollable *view = GTK_SCROLLABLE (self->view);
  GtkAdjustment *adjustments[] = {
    gtk_scrollable_get_hadjustment (view),
    gtk_scrollable_get_vadjustment (view),
  };

  for (guint i = 0; i < G_N_ELEMENTS (adjustments); i++)
    if (adjustments[i] != NULL)
      gtk_adjustment_set_value (adjustments[i], gtk_adjustment_get_value (adjustments[i]));
}

static void
show_page (LodeCodePreview *self,
           const char      *name)
{
  if (g_strcmp0 (name, "code") != 0)
    end_scrolling (self);
  gtk_stack_set_visible_child_name (self->stack, name);
}

static void
show_error (LodeCodePreview *self,
            const char      *message)
{
  adw_status_page_set_description (self->error_page, message);
  show_page (self, "error");
}

static void
load_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(LodeCodePreview) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  g_autofree char *text = NULL;
  GtkSourceLanguageManager *languages = gtk_source_language_manager_get_default ();
  gsize length = 0;

  if (!g_file_load_contents_finish (G_FILE (object), result, &contents, &length, NULL, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_error (self, error->message);
      return;
    }
  if (length > MAX_PREVIEW_BYTES)
    {
      g_autofree char *size = g_format_size (length);

      /* Translators: %s is a size such as 12.3 MB. */
      text = g_strdup_printf (_("The file is too large to preview (%s)."), size);
      show_error (self, text);
      return;
    }

  text = g_utf8_make_valid (contents, length);
  clear_marks (self);
  gtk_source_buffer_set_language (self->buffer,
                                  gtk_source_language_manager_guess_language (languages,
                                                                              self->path,
                                                                              NULL));
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), text, -1);
  mark_lines (self);
  show_page (self, "code");
  self->loaded = TRUE;
  g_idle_add_full (G_PRIORITY_LOW, scroll_cb, g_object_ref (self), g_object_unref);
}

/**
 * lode_code_preview_show:
 * @self: a #LodeCodePreview
 * @path: the file, absolute
 * @title: what to call it: its path in the project
 * @first_line: the first line to show and mark, 1-based (0: none)
 * @last_line: the last line to mark
 * @query: (nullable): what was searched for: its terms' lines get a mark
 *
 * Loads @path and shows it at @first_line.
 */
void
lode_code_preview_show (LodeCodePreview *self,
                        const char      *path,
                        const char      *title,
                        guint            first_line,
                        guint            last_line,
                        const char      *query)
{
  g_autoptr(GFile) file = NULL;
  g_autofree char *heading = NULL;

  g_return_if_fail (LODE_IS_CODE_PREVIEW (self));
  g_return_if_fail (path != NULL && title != NULL);

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  self->cancellable = g_cancellable_new ();
  g_free (self->path);
  self->path = g_strdup (path);
  g_free (self->query);
  self->query = g_strdup (query);
  self->first_line = first_line;
  self->last_line = last_line;
  self->loaded = FALSE;

  heading = first_line > 0 ? g_strdup_printf ("%s:%u", title, first_line) : g_strdup (title);
  gtk_label_set_text (self->title, heading);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self->title), path);
  gtk_widget_set_visible (self->header, TRUE);
  gtk_widget_set_visible (self->separator, TRUE);

  file = g_file_new_for_path (path);
  g_file_load_contents_async (file, self->cancellable, load_cb, g_object_ref (self));
}

/**
 * lode_code_preview_clear:
 * @self: a #LodeCodePreview
 *
 * Shows nothing, and says how to show something.
 */
void
lode_code_preview_clear (LodeCodePreview *self)
{
  g_return_if_fail (LODE_IS_CODE_PREVIEW (self));

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  g_clear_pointer (&self->path, g_free);
  self->loaded = FALSE;
  clear_marks (self);
  gtk_text_buffer_set_text (GTK_TEXT_BUFFER (self->buffer), "", 0);
  gtk_widget_set_visible (self->header, FALSE);
  gtk_widget_set_visible (self->separator, FALSE);
  show_page (self, "empty");
}

/**
 * lode_code_preview_get_path:
 * @self: a #LodeCodePreview
 *
 * Returns: (nullable): the file shown or being loaded
 */
const char *
lode_code_preview_get_path (LodeCodePreview *self)
{
  g_return_val_if_fail (LODE_IS_CODE_PREVIEW (self), NULL);

  return self->path;
}

/**
 * lode_code_preview_get_loaded:
 * @self: a #LodeCodePreview
 *
 * Returns: whether the file of lode_code_preview_get_path() is shown
 */
gboolean
lode_code_preview_get_loaded (LodeCodePreview *self)
{
  g_return_val_if_fail (LODE_IS_CODE_PREVIEW (self), FALSE);

  return self->loaded;
}

/**
 * lode_code_preview_get_buffer:
 * @self: a #LodeCodePreview
 *
 * Returns: (transfer none): the buffer shown
 */
GtkSourceBuffer *
lode_code_preview_get_buffer (LodeCodePreview *self)
{
  g_return_val_if_fail (LODE_IS_CODE_PREVIEW (self), NULL);

  return self->buffer;
}

/**
 * lode_code_preview_dup_marked_lines:
 * @self: a #LodeCodePreview
 *
 * Returns: (transfer full) (element-type guint): the lines with a match mark, 1-based, in
 *   order
 */
GArray *
lode_code_preview_dup_marked_lines (LodeCodePreview *self)
{
  GArray *lines = g_array_new (FALSE, FALSE, sizeof (guint));
  GtkTextIter iter;

  g_return_val_if_fail (LODE_IS_CODE_PREVIEW (self), lines);

  gtk_text_buffer_get_start_iter (GTK_TEXT_BUFFER (self->buffer), &iter);
  do
    {
      g_autoptr(GSList) marks = gtk_source_buffer_get_source_marks_at_iter (self->buffer, &iter,
                                                                           MATCH_CATEGORY);

      if (marks != NULL)
        {
          guint line = gtk_text_iter_get_line (&iter) + 1;

          g_array_append_val (lines, line);
        }
    }
  while (gtk_text_iter_forward_line (&iter));

  return lines;
}

static void
open_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  LodeCodePreview *self = LODE_CODE_PREVIEW (widget);
  g_autoptr(GAppLaunchContext) context = NULL;
  g_autoptr(GError) error = NULL;

  if (self->path == NULL)
    return;

  context = G_APP_LAUNCH_CONTEXT (gdk_display_get_app_launch_context (
                                    gtk_widget_get_display (widget)));
  if (!lode_open_location (self->path, MAX (self->first_line, 1), context, &error))
    lode_toast_show_error (widget, _("Cannot open the file"), error);
}

static void
lode_code_preview_unmap (GtkWidget *widget)
{
  end_scrolling (LODE_CODE_PREVIEW (widget));

  GTK_WIDGET_CLASS (lode_code_preview_parent_class)->unmap (widget);
}

static void
lode_code_preview_dispose (GObject *object)
{
  LodeCodePreview *self = (LodeCodePreview *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_CODE_PREVIEW);
  /* The template's root is not bound to a field, so it is unparented here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->buffer);

  G_OBJECT_CLASS (lode_code_preview_parent_class)->dispose (object);
}

static void
lode_code_preview_finalize (GObject *object)
{
  LodeCodePreview *self = (LodeCodePreview *)object;

  g_free (self->path);
  g_free (self->query);

  G_OBJECT_CLASS (lode_code_preview_parent_class)->finalize (object);
}

static void
lode_code_preview_class_init (LodeCodePreviewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_code_preview_dispose;
  object_class->finalize = lode_code_preview_finalize;

  widget_class->unmap = lode_code_preview_unmap;

  g_type_ensure (GTK_SOURCE_TYPE_VIEW);
  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-code-preview.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeCodePreview, header);
  gtk_widget_class_bind_template_child (widget_class, LodeCodePreview, separator);
  gtk_widget_class_bind_template_child (widget_class, LodeCodePreview, title);
  gtk_widget_class_bind_template_child (widget_class, LodeCodePreview, stack);
  gtk_widget_class_bind_template_child (widget_class, LodeCodePreview, error_page);
  gtk_widget_class_bind_template_child (widget_class, LodeCodePreview, view);

  gtk_widget_class_install_action (widget_class, "preview.open", NULL, open_activated);
}

static void
lode_code_preview_init (LodeCodePreview *self)
{
  g_autoptr(GtkSourceMarkAttributes) match = gtk_source_mark_attributes_new ();
  GdkRGBA match_background = { 0.96, 0.83, 0.18, 0.35 };

  gtk_widget_init_template (GTK_WIDGET (self));

  self->buffer = gtk_source_buffer_new (NULL);
  gtk_source_buffer_set_highlight_matching_brackets (self->buffer, FALSE);
  gtk_text_view_set_buffer (GTK_TEXT_VIEW (self->view), GTK_TEXT_BUFFER (self->buffer));
  self->range_tag = gtk_text_buffer_create_tag (GTK_TEXT_BUFFER (self->buffer), "lode-range",
                                                "paragraph-background-rgba",
                                                &(GdkRGBA) { 0.96, 0.83, 0.18, 0.12 },
                                                NULL);

  gtk_source_mark_attributes_set_background (match, &match_background);
  gtk_source_mark_attributes_set_icon_name (match, "go-next-symbolic");
  gtk_source_view_set_mark_attributes (self->view, MATCH_CATEGORY, match, 10);

  update_scheme (self);
  g_signal_connect_object (adw_style_manager_get_default (), "notify::dark",
                           G_CALLBACK (update_scheme), self, G_CONNECT_SWAPPED);
}
