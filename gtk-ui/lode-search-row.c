/* lode-search-row.c — one result of codebase_search: where, what, and the snippet
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-query-terms.h"
#include "lode-search-row.h"

#define SNIPPET_LINES 4

struct _LodeSearchRow
{
  GtkListBoxRow  parent_instance;
  char          *path;       /* absolute */
  char          *relative;   /* as the project names it */
  guint          line;
  guint          end_line;
  GtkLabel      *location;
  GtkWidget     *symbol_button;
  GtkLabel      *symbol;
  GtkLabel      *snippet;
};

G_DEFINE_FINAL_TYPE (LodeSearchRow, lode_search_row, GTK_TYPE_LIST_BOX_ROW)

/**
 * lode_search_snippet_markup:
 * @snippet: a result's text
 * @query: what was searched for
 *
 * Returns: (transfer full): the first lines of @snippet as Pango markup, the query's terms
 *   highlighted where a word or a part of an identifier starts (lode-query-terms.c)
 */
char *
lode_search_snippet_markup (const char *snippet,
                            const char *query)
{
  g_autoptr(LodeQueryTerms) terms = NULL;
  g_autoptr(GString) markup = NULL;
  const char *end;
  const char *p;
  gsize start, matched;

  g_return_val_if_fail (snippet != NULL && query != NULL, NULL);

  /* The first lines only. */
  end = snippet;
  for (guint lines = 1; *end != '\0'; end++)
    if (*end == '\n' && ++lines > SNIPPET_LINES)
      break;

  terms = lode_query_terms_new (query);
  markup = g_string_new (NULL);
  for (p = snippet; lode_query_terms_find (terms, p, end - p, &start, &matched); p += start + matched)
    {
      g_autofree char *plain = g_markup_escape_text (p, start);
      g_autofree char *word = g_markup_escape_text (p + start, matched);

      g_string_append (markup, plain);
      g_string_append_printf (markup, "<span weight=\"bold\" background=\"#f6d32d\" "
                              "bgalpha=\"40%%\">%s</span>", word);
    }

  {
    g_autofree char *plain = g_markup_escape_text (p, end - p);

    g_string_append (markup, plain);
  }
  while (markup->len > 0 && markup->str[markup->len - 1] == '\n')
    g_string_truncate (markup, markup->len - 1);
  if (*end != '\0')
    g_string_append (markup, "\n…");

  return g_string_free (g_steal_pointer (&markup), FALSE);
}

/**
 * lode_search_row_new:
 * @project: the searched project's root
 * @result: one element of codebase_search's results
 * @query: what was searched for, to highlight in the snippet
 *
 * Returns: (transfer floating): the row
 */
GtkWidget *
lode_search_row_new (const char *project,
                     JsonObject *result,
                     const char *query)
{
  LodeSearchRow *self;
  const char *path;
  const char *kind;
  const char *symbol;
  g_autofree char *location = NULL;
  g_autofree char *markup = NULL;

  g_return_val_if_fail (project != NULL && result != NULL && query != NULL, NULL);

  self = g_object_new (LODE_TYPE_SEARCH_ROW, NULL);
  path = json_object_get_string_member (result, "path");
  kind = json_object_get_string_member_with_default (result, "kind", NULL);
  symbol = json_object_get_string_member_with_default (result, "symbol", NULL);

  self->path = g_build_filename (project, path, NULL);
  self->relative = g_strdup (path);
  self->line = MAX (json_object_get_int_member (result, "startLine"), 1);
  self->end_line = MAX (json_object_get_int_member_with_default (result, "endLine", 0),
                        self->line);

  location = g_strdup_printf ("%s:%u", path, self->line);
  gtk_label_set_text (self->location, location);
  if (symbol != NULL)
    {
      g_autofree char *what = g_strdup_printf ("%s %s", kind != NULL ? kind : "", symbol);

      gtk_label_set_text (self->symbol, g_strstrip (what));
      gtk_actionable_set_action_name (GTK_ACTIONABLE (self->symbol_button), "win.show-symbol");
      gtk_actionable_set_action_target (GTK_ACTIONABLE (self->symbol_button), "(sss)", project,
                                        symbol, path);
    }
  gtk_widget_set_visible (self->symbol_button, symbol != NULL);

  markup = lode_search_snippet_markup (json_object_get_string_member (result, "snippet"), query);
  gtk_label_set_markup (self->snippet, markup);

  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  location, -1);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), _("Enter opens it in the editor"));

  return GTK_WIDGET (self);
}

/**
 * lode_search_row_get_path:
 * @self: a #LodeSearchRow
 *
 * Returns: the result's file, absolute
 */
const char *
lode_search_row_get_path (LodeSearchRow *self)
{
  g_return_val_if_fail (LODE_IS_SEARCH_ROW (self), NULL);

  return self->path;
}

/**
 * lode_search_row_get_relative_path:
 * @self: a #LodeSearchRow
 *
 * Returns: the result's file, as the project names it
 */
const char *
lode_search_row_get_relative_path (LodeSearchRow *self)
{
  g_return_val_if_fail (LODE_IS_SEARCH_ROW (self), NULL);

  return self->relative;
}

guint
lode_search_row_get_line (LodeSearchRow *self)
{
  g_return_val_if_fail (LODE_IS_SEARCH_ROW (self), 0);

  return self->line;
}

guint
lode_search_row_get_end_line (LodeSearchRow *self)
{
  g_return_val_if_fail (LODE_IS_SEARCH_ROW (self), 0);

  return self->end_line;
}

static void
lode_search_row_dispose (GObject *object)
{
  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_SEARCH_ROW);

  G_OBJECT_CLASS (lode_search_row_parent_class)->dispose (object);
}

static void
lode_search_row_finalize (GObject *object)
{
  LodeSearchRow *self = (LodeSearchRow *)object;

  g_free (self->path);
  g_free (self->relative);

  G_OBJECT_CLASS (lode_search_row_parent_class)->finalize (object);
}

static void
lode_search_row_class_init (LodeSearchRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_search_row_dispose;
  object_class->finalize = lode_search_row_finalize;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-search-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeSearchRow, location);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchRow, symbol_button);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchRow, symbol);
  gtk_widget_class_bind_template_child (widget_class, LodeSearchRow, snippet);
}

static void
lode_search_row_init (LodeSearchRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
