/* lode-preferences-window.c — the settings shared with the daemon, and the API keys
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <string.h>

#include "lode-preferences-window.h"
#include "lode-secret.h"

/*
 * Every row is bound to a key of the io.github.lode.Lode schema, which the daemon reads too.
 * API keys go to the Secret Service under the schema `lode secret` uses. A stored key is
 * never read back into the window: a lookup only tells whether one is there, and the
 * password rows are emptied as soon as their key is stored.
 */

/* The settings' values of the combo rows' items, in order. */
static const char *const providers[] = { "builtin", "ollama", "openai", "none", NULL };
static const char *const stores[] = { "sqlite", "qdrant", NULL };

struct _LodePreferencesWindow
{
  AdwPreferencesWindow  parent_instance;
  GSettings            *settings;
  GCancellable         *cancellable;
  AdwComboRow          *provider_row;
  AdwEntryRow          *model_row;
  AdwEntryRow          *ollama_url_row;
  AdwEntryRow          *openai_url_row;
  AdwComboRow          *store_row;
  AdwEntryRow          *qdrant_url_row;
  AdwActionRow         *shards_row;
  GtkSpinButton        *shards_spin;
  AdwActionRow         *replicas_row;
  GtkSpinButton        *replicas_spin;
  AdwEntryRow          *ignore_row;
  GtkSpinButton        *debounce_spin;
  AdwPasswordEntryRow  *openai_key_row;
  GtkLabel             *openai_key_state;
  GtkButton            *openai_key_clear;
  AdwPasswordEntryRow  *qdrant_key_row;
  GtkLabel             *qdrant_key_state;
  GtkButton            *qdrant_key_clear;
};

G_DEFINE_FINAL_TYPE (LodePreferencesWindow, lode_preferences_window, ADW_TYPE_PREFERENCES_WINDOW)


/* A string setting shown as the item of a combo row; @user_data is the values, in order. */
static gboolean
choice_get_mapping (GValue   *value,
                    GVariant *variant,
                    gpointer  user_data)
{
  const char *const *choices = user_data;
  const char *choice = g_variant_get_string (variant, NULL);

  for (guint i = 0; choices[i] != NULL; i++)
    if (g_str_equal (choices[i], choice))
      {
        g_value_set_uint (value, i);
        return TRUE;
      }

  return FALSE;
}

static GVariant *
choice_set_mapping (const GValue       *value,
                    const GVariantType *expected_type,
                    gpointer            user_data)
{
  const char *const *choices = user_data;
  guint i = g_value_get_uint (value);

  if (i >= g_strv_length ((char **) choices))
    return NULL;

  return g_variant_new_string (choices[i]);
}

/* The Qdrant rows are sensitive only while the store is Qdrant. */
static gboolean
is_qdrant_mapping (GValue   *value,
                   GVariant *variant,
                   gpointer  user_data)
{
  g_value_set_boolean (value, g_str_equal (g_variant_get_string (variant, NULL), "qdrant"));
  return TRUE;
}

/* The ignore patterns are a list in the settings and one comma-separated line on screen. */
static gboolean
patterns_get_mapping (GValue   *value,
                      GVariant *variant,
                      gpointer  user_data)
{
  g_autofree const char **patterns = g_variant_get_strv (variant, NULL);
  g_autofree char *joined = g_strjoinv (", ", (char **) patterns);

  g_value_set_string (value, joined);
  return TRUE;
}

static GVariant *
patterns_set_mapping (const GValue       *value,
                      const GVariantType *expected_type,
                      gpointer            user_data)
{
  g_auto(GStrv) parts = g_strsplit (g_value_get_string (value), ",", -1);
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_auto(GStrv) patterns = NULL;

  for (guint i = 0; parts[i] != NULL; i++)
    if (*g_strstrip (parts[i]) != '\0')
      g_strv_builder_add (builder, parts[i]);

  patterns = g_strv_builder_end (builder);
  return g_variant_new_strv ((const char * const *) patterns, -1);
}

LodePreferencesWindow *
lode_preferences_window_new (GSettings *settings)
{
  LodePreferencesWindow *self;

  g_return_val_if_fail (G_IS_SETTINGS (settings), NULL);

  self = g_object_new (LODE_TYPE_PREFERENCES_WINDOW, NULL);
  self->settings = g_object_ref (settings);

  g_settings_bind_with_mapping (settings, "embedding-provider", self->provider_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_get_mapping,
                                choice_set_mapping, (gpointer) providers, NULL);
  g_settings_bind (settings, "embedding-model", self->model_row, "text",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "ollama-url", self->ollama_url_row, "text",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "openai-base-url", self->openai_url_row, "text",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (settings, "store", self->store_row, "selected",
                                G_SETTINGS_BIND_DEFAULT, choice_get_mapping,
                                choice_set_mapping, (gpointer) stores, NULL);
  g_settings_bind (settings, "qdrant-url", self->qdrant_url_row, "text",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "qdrant-shard-number", self->shards_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind (settings, "qdrant-replication-factor", self->replicas_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);
  g_settings_bind_with_mapping (settings, "store", self->qdrant_url_row, "sensitive",
                                G_SETTINGS_BIND_GET, is_qdrant_mapping, NULL, NULL, NULL);
  g_settings_bind_with_mapping (settings, "store", self->shards_row, "sensitive",
                                G_SETTINGS_BIND_GET, is_qdrant_mapping, NULL, NULL, NULL);
  g_settings_bind_with_mapping (settings, "store", self->replicas_row, "sensitive",
                                G_SETTINGS_BIND_GET, is_qdrant_mapping, NULL, NULL, NULL);
  g_settings_bind_with_mapping (settings, "ignore-patterns", self->ignore_row, "text",
                                G_SETTINGS_BIND_DEFAULT, patterns_get_mapping,
                                patterns_set_mapping, NULL, NULL);
  g_settings_bind (settings, "watch-debounce-msec", self->debounce_spin, "value",
                   G_SETTINGS_BIND_DEFAULT);

  return self;
}

typedef struct
{
  LodePreferencesWindow *self;
  const char            *provider;
  GtkLabel              *state;
  GtkButton             *clear;
  AdwPasswordEntryRow   *row;
} KeyRow;

static KeyRow *
key_row (LodePreferencesWindow *self,
         const char            *provider)
{
  KeyRow *key = g_new0 (KeyRow, 1);

  key->self = self;
  key->provider = provider;
  if (g_str_equal (provider, "openai"))
    {
      key->state = self->openai_key_state;
      key->clear = self->openai_key_clear;
      key->row = self->openai_key_row;
    }
  else
    {
      key->state = self->qdrant_key_state;
      key->clear = self->qdrant_key_clear;
      key->row = self->qdrant_key_row;
    }

  return key;
}

static void
show_key_state (KeyRow   *key,
                gboolean  stored)
{
  gtk_label_set_label (key->state, stored ? _("Stored in the keyring") : _("Not set"));
  gtk_widget_set_visible (GTK_WIDGET (key->clear), stored);
}

static void
show_key_error (KeyRow       *key,
                const GError *error)
{
  AdwToast *toast;

  /* The Secret Service's messages never contain the secret itself. */
  g_message ("Keyring: %s", error->message);
  toast = adw_toast_new (error->message);
  adw_preferences_window_add_toast (ADW_PREFERENCES_WINDOW (key->self), toast);
}

/* Only asking the keyring whether a key is there: without a keyring the row says so, and no
 * toast interrupts a window nobody asked anything of yet. */
static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autofree KeyRow *key = user_data;
  g_autoptr(GError) error = NULL;
  char *secret = lode_secret_lookup_finish (result, &error);

  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (error != NULL)
    {
      g_message ("Keyring: %s", error->message);
      gtk_label_set_label (key->state, _("No keyring to store keys in"));
      gtk_widget_set_tooltip_text (GTK_WIDGET (key->state), error->message);
      gtk_widget_set_visible (GTK_WIDGET (key->clear), FALSE);
      return;
    }
  show_key_state (key, secret != NULL);

  if (secret != NULL)
    {
      memset (secret, 0, strlen (secret));
      g_free (secret);
    }
}

static void
refresh_key (LodePreferencesWindow *self,
             const char            *provider)
{
  lode_secret_lookup_async (provider, self->cancellable, lookup_cb, key_row (self, provider));
}

static void
store_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autofree KeyRow *key = user_data;
  g_autoptr(GError) error = NULL;

  if (!lode_secret_store_finish (result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_key_error (key, error);
      return;
    }

  refresh_key (key->self, key->provider);
}

static void
key_apply_cb (AdwPasswordEntryRow *row,
              gpointer             user_data)
{
  LodePreferencesWindow *self = user_data;
  const char *provider = row == self->openai_key_row ? "openai" : "qdrant";
  g_autofree char *text = g_strdup (gtk_editable_get_text (GTK_EDITABLE (row)));

  /* Out of the widget at once: the key is not kept on screen or in the undo history. */
  gtk_editable_set_text (GTK_EDITABLE (row), "");
  g_strstrip (text);
  if (*text != '\0')
    lode_secret_store_async (provider, text, NULL, self->cancellable, store_cb,
                             key_row (self, provider));
  memset (text, 0, strlen (text));
}

static void
clear_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autofree KeyRow *key = user_data;
  g_autoptr(GError) error = NULL;

  if (!lode_secret_clear_finish (result, &error))
    {
      if (!g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
        show_key_error (key, error);
      return;
    }

  refresh_key (key->self, key->provider);
}

static void
clear_key_activated (GtkWidget  *widget,
                     const char *action_name,
                     GVariant   *parameter)
{
  LodePreferencesWindow *self = LODE_PREFERENCES_WINDOW (widget);
  const char *provider = g_str_equal (g_variant_get_string (parameter, NULL), "openai")
                         ? "openai" : "qdrant";

  lode_secret_clear_async (provider, self->cancellable, clear_cb, key_row (self, provider));
}

static void
lode_preferences_window_constructed (GObject *object)
{
  LodePreferencesWindow *self = (LodePreferencesWindow *)object;

  G_OBJECT_CLASS (lode_preferences_window_parent_class)->constructed (object);

  refresh_key (self, "openai");
  refresh_key (self, "qdrant");
}

static void
lode_preferences_window_dispose (GObject *object)
{
  LodePreferencesWindow *self = (LodePreferencesWindow *)object;

  g_cancellable_cancel (self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), LODE_TYPE_PREFERENCES_WINDOW);
  g_clear_object (&self->cancellable);
  g_clear_object (&self->settings);

  G_OBJECT_CLASS (lode_preferences_window_parent_class)->dispose (object);
}

static void
lode_preferences_window_class_init (LodePreferencesWindowClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->constructed = lode_preferences_window_constructed;
  object_class->dispose = lode_preferences_window_dispose;

  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-preferences-window.ui");
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, provider_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, model_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, ollama_url_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, openai_url_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, store_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, qdrant_url_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, shards_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, shards_spin);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, replicas_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, replicas_spin);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, ignore_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, debounce_spin);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, openai_key_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, openai_key_state);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, openai_key_clear);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, qdrant_key_row);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, qdrant_key_state);
  gtk_widget_class_bind_template_child (widget_class, LodePreferencesWindow, qdrant_key_clear);
  gtk_widget_class_bind_template_callback (widget_class, key_apply_cb);

  gtk_widget_class_install_action (widget_class, "key.clear", "s", clear_key_activated);
}

static void
lode_preferences_window_init (LodePreferencesWindow *self)
{
  self->cancellable = g_cancellable_new ();
  gtk_widget_init_template (GTK_WIDGET (self));
}
