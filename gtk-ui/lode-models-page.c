/* lode-models-page.c — which embedding provider is active, and the built-in model
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-models-page.h"

struct _LodeModelsPage
{
  GtkWidget       parent_instance;
  GSettings    *settings;
  AdwActionRow *provider_row;
};

G_DEFINE_FINAL_TYPE (LodeModelsPage, lode_models_page, GTK_TYPE_WIDGET)

static const char *
provider_title (const char *provider)
{
  if (g_str_equal (provider, "builtin"))
    return _("Built-in encoder");
  if (g_str_equal (provider, "ollama"))
    return _("Ollama");
  if (g_str_equal (provider, "openai"))
    return _("OpenAI-compatible server");
  return _("None: lexical search only");
}

static void
settings_changed_cb (LodeModelsPage *self,
                     const char     *key,
                     GSettings      *settings)
{
  g_autofree char *provider = g_settings_get_string (settings, "embedding-provider");
  g_autofree char *model = g_settings_get_string (settings, "embedding-model");

  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->provider_row),
                                 provider_title (provider));
  adw_action_row_set_subtitle (self->provider_row,
                               *model != '\0' ? model : _("The provider’s default model"));
}

/**
 * lode_models_page_set_settings:
 * @self: a #LodeModelsPage
 * @settings: the settings shared with the daemon
 */
void
lode_models_page_set_settings (LodeModelsPage *self,
                               GSettings      *settings)
{
  g_return_if_fail (LODE_IS_MODELS_PAGE (self));
  g_return_if_fail (G_IS_SETTINGS (settings));

  if (self->settings != NULL)
    g_signal_handlers_disconnect_by_data (self->settings, self);
  g_set_object (&self->settings, settings);
  g_signal_connect_object (settings, "changed", G_CALLBACK (settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  settings_changed_cb (self, NULL, settings);
}

static void
lode_models_page_dispose (GObject *object)
{
  LodeModelsPage *self = (LodeModelsPage *)object;
  GtkWidget *child;

  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_MODELS_PAGE);
  /* The template's root is not bound to a field, so it is unparented here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (lode_models_page_parent_class)->dispose (object);
}

static void
lode_models_page_class_init (LodeModelsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_models_page_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-models-page.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeModelsPage, provider_row);
}

static void
lode_models_page_init (LodeModelsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
}
