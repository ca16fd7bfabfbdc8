/* lode-project-row.c — a tree on the Projects page, with its progress and its actions
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-project-row.h"

/*
 * The buttons activate the page's "project.*" actions with the row's root as parameter, so
 * that every daemon call lives in LodeProjectsPage.
 */

struct _LodeProjectRow
{
  AdwActionRow     parent_instance;
  LodeProjectItem *item;
  GtkProgressBar  *progress;
  GtkSwitch       *watch_switch;
  GtkButton       *reindex_button;
  GtkButton       *stop_button;
  GtkButton       *remove_button;
};

G_DEFINE_FINAL_TYPE (LodeProjectRow, lode_project_row, ADW_TYPE_ACTION_ROW)

/* Where the folder is, then what its index holds: two projects named alike are told apart. */
static void
update_subtitle (LodeProjectRow *self)
{
  g_autofree char *subtitle = g_markup_printf_escaped ("%s\n%s",
                                                       lode_project_item_get_location (self->item),
                                                       lode_project_item_get_summary (self->item));

  adw_action_row_set_subtitle (ADW_ACTION_ROW (self), subtitle);
}

GtkWidget *
lode_project_row_new (LodeProjectItem *item)
{
  LodeProjectRow *self;
  GVariant *root;

  g_return_val_if_fail (LODE_IS_PROJECT_ITEM (item), NULL);

  self = g_object_new (LODE_TYPE_PROJECT_ROW, NULL);
  self->item = g_object_ref (item);

  g_object_bind_property (item, "display-name", self, "title", G_BINDING_SYNC_CREATE);
  g_signal_connect_object (item, "notify::summary", G_CALLBACK (update_subtitle), self,
                           G_CONNECT_SWAPPED);
  update_subtitle (self);
  g_object_bind_property (item, "fraction", self->progress, "fraction", G_BINDING_SYNC_CREATE);
  g_object_bind_property (item, "indexing", self->progress, "visible", G_BINDING_SYNC_CREATE);
  g_object_bind_property (item, "indexing", self->stop_button, "visible",
                          G_BINDING_SYNC_CREATE);
  g_object_bind_property (item, "indexing", self->reindex_button, "visible",
                          G_BINDING_SYNC_CREATE | G_BINDING_INVERT_BOOLEAN);
  g_object_bind_property (item, "watched", self->watch_switch, "active",
                          G_BINDING_SYNC_CREATE);

  root = g_variant_new_string (lode_project_item_get_root (item));
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->reindex_button), root);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->stop_button), root);
  gtk_actionable_set_action_target_value (GTK_ACTIONABLE (self->remove_button), root);
  gtk_widget_set_tooltip_text (GTK_WIDGET (self), lode_project_item_get_root (item));

  return GTK_WIDGET (self);
}

/**
 * lode_project_row_get_item:
 * @self: a #LodeProjectRow
 *
 * Returns: (transfer none): the project the row shows
 */
LodeProjectItem *
lode_project_row_get_item (LodeProjectRow *self)
{
  g_return_val_if_fail (LODE_IS_PROJECT_ROW (self), NULL);

  return self->item;
}

/* The switch only asks; the item (and so the switch) follows what the daemon answers. */
static gboolean
watch_state_set_cb (LodeProjectRow *self,
                    gboolean        state,
                    GtkSwitch      *watch_switch)
{
  if (state != lode_project_item_get_watched (self->item))
    gtk_widget_activate_action (GTK_WIDGET (self), "project.watch", "(sb)",
                                lode_project_item_get_root (self->item), state);

  return TRUE;
}

static void
lode_project_row_dispose (GObject *object)
{
  LodeProjectRow *self = (LodeProjectRow *)object;

  gtk_widget_dispose_template (GTK_WIDGET (self), LODE_TYPE_PROJECT_ROW);
  g_clear_object (&self->item);

  G_OBJECT_CLASS (lode_project_row_parent_class)->dispose (object);
}

static void
lode_project_row_class_init (LodeProjectRowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_project_row_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-project-row.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeProjectRow, progress);
  gtk_widget_class_bind_template_child (widget_class, LodeProjectRow, watch_switch);
  gtk_widget_class_bind_template_child (widget_class, LodeProjectRow, reindex_button);
  gtk_widget_class_bind_template_child (widget_class, LodeProjectRow, stop_button);
  gtk_widget_class_bind_template_child (widget_class, LodeProjectRow, remove_button);
  gtk_widget_class_bind_template_callback (widget_class, watch_state_set_cb);
}

static void
lode_project_row_init (LodeProjectRow *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
