/* lode-models-page.c — which embedding provider is active and whether it answers, and the
 * built-in encoder's model
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-model-pull.h"
#include "lode-models-page.h"
#include "lode-toast.h"

/*
 * Which provider is active and whether it answers is codebase_health's answer from loded. Downloading the
 * built-in encoder's model is not index logic: the app does it in its own process with
 * lode_model_pull_async() into the model cache that loded reads, and loded picks the model
 * up by itself within a few seconds (it looks again every 2 s while it has none), after
 * which the page asks for the health again.
 */

#define HEALTH_AGAIN_SECONDS 3

struct _LodeModelsPage
{
  GtkWidget        parent_instance;
  LodeConnection  *connection;
  GSettings       *settings;
  GCancellable    *health_cancellable;
  GCancellable    *download;           /* (nullable): while a download runs */
  const LodeModelInfo *model;
  char            *file;               /* the file being downloaded */
  guint64          files_done;         /* bytes of the files downloaded before it */
  guint64          total;
  guint            health_again;
  AdwActionRow    *provider_row;
  AdwActionRow    *health_row;
  GtkImage        *health_icon;
  AdwActionRow    *model_row;
  GtkStack        *model_stack;
  GtkProgressBar  *download_progress;
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

/* The built-in model the settings name, or the default one. */
static const LodeModelInfo *
builtin_model (GSettings *settings)
{
  g_autofree char *provider = g_settings_get_string (settings, "embedding-provider");
  g_autofree char *model = g_settings_get_string (settings, "embedding-model");
  const LodeModelInfo *info = NULL;

  if (g_str_equal (provider, "builtin") && *model != '\0')
    info = lode_models_lookup (model);

  return info != NULL ? info : lode_models_lookup (LODE_MODEL_DEFAULT);
}

static guint64
model_size (const LodeModelInfo *info)
{
  guint64 size = 0;

  for (guint i = 0; i < LODE_MODEL_MAX_FILES && info->files[i].name != NULL; i++)
    size += info->files[i].size;

  return size;
}

/* The model row when no download runs: installed, or what a download would take. */
static void
show_model (LodeModelsPage *self)
{
  g_autofree char *installed = NULL;
  g_autofree char *subtitle = NULL;

  if (self->download != NULL)
    return;

  installed = lode_models_find_installed (self->model->name);
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->model_row), self->model->name);
  if (installed != NULL)
    /* Translators: %s is a folder. */
    subtitle = g_strdup_printf (_("Installed in %s"), installed);
  else
    {
      g_autofree char *size = g_format_size (model_size (self->model));

      /* Translators: %s is a size such as 134 MB. */
      subtitle = g_strdup_printf (_("Not downloaded yet · %s"), size);
    }
  adw_action_row_set_subtitle (self->model_row, subtitle);
  gtk_stack_set_visible_child_name (self->model_stack, installed != NULL ? "installed"
                                                                          : "download");
}

/**
 * lode_models_page_show_health:
 * @self: a #LodeModelsPage
 * @health: codebase_health's result
 *
 * Shows which provider loded runs and whether it works, in words that say what to do.
 */
void
lode_models_page_show_health (LodeModelsPage *self,
                              JsonObject     *health)
{
  g_autofree char *subtitle = NULL;
  JsonObject *embeddings;
  gboolean available;

  g_return_if_fail (LODE_IS_MODELS_PAGE (self));
  g_return_if_fail (health != NULL);

  /* What loded runs with, which the settings become once it starts again. */
  embeddings = json_object_get_object_member (health, "embeddings");
  available = json_object_get_boolean_member (embeddings, "available");
  adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->provider_row),
                                 provider_title (json_object_get_string_member (embeddings,
                                                                                "provider")));
  adw_action_row_set_subtitle (self->provider_row,
                               json_object_get_string_member (embeddings, "model"));
  if (available && json_object_has_member (embeddings, "dims"))
    /* Translators: the model that answers, and the size of its vectors. */
    subtitle = g_strdup_printf (_("%s, %u dimensions"),
                                json_object_get_string_member (embeddings, "model"),
                                (guint) json_object_get_int_member (embeddings, "dims"));
  else if (available)
    subtitle = g_strdup (json_object_get_string_member (embeddings, "model"));
  else
    /* The engine's reason, in English, as agents get it. */
    subtitle = g_strdup (json_object_get_string_member (embeddings, "message"));

  /* No provider is the default, not a fault: nothing is expected to answer. */
  if (g_strcmp0 (json_object_get_string_member (embeddings, "provider"), "none") == 0)
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->health_row),
                                     _("Semantic search is off"));
      adw_action_row_set_subtitle (self->health_row,
                                   _("Choose a provider to find code by meaning"));
      gtk_image_set_from_icon_name (self->health_icon, "dialog-information-symbolic");
      return;
    }

  /* The built-in encoder runs here: it is ready or not, it does not answer. Its usual
   * problem is a model not downloaded yet, which the row below offers to fix. */
  if (g_strcmp0 (json_object_get_string_member (embeddings, "provider"), "builtin") == 0)
    {
      g_autofree char *installed = lode_models_find_installed (self->model->name);

      if (!available && installed == NULL)
        {
          adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->health_row),
                                         _("No model downloaded yet"));
          adw_action_row_set_subtitle (self->health_row,
                                       _("Download the model below to find code by meaning"));
          gtk_image_set_from_icon_name (self->health_icon, "dialog-information-symbolic");
          return;
        }
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->health_row),
                                     available ? _("Ready") : _("Cannot load the model"));
    }
  else
    adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->health_row),
                                   available ? _("Answering") : _("Not answering"));
  adw_action_row_set_subtitle (self->health_row, subtitle);
  gtk_image_set_from_icon_name (self->health_icon, available ? "emblem-ok-symbolic"
                                                             : "dialog-warning-symbolic");
}

static void
health_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(LodeModelsPage) self = user_data;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) health = NULL;

  health = lode_connection_call_tool_finish (LODE_CONNECTION (object), result, &error);
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  if (health == NULL)
    {
      adw_preferences_row_set_title (ADW_PREFERENCES_ROW (self->health_row),
                                     _("Lode’s service does not answer"));
      adw_action_row_set_subtitle (self->health_row, error->message);
      gtk_image_set_from_icon_name (self->health_icon, "dialog-warning-symbolic");
      return;
    }

  lode_models_page_show_health (self, health);
}

static void
check_health (LodeModelsPage *self)
{
  g_cancellable_cancel (self->health_cancellable);
  g_clear_object (&self->health_cancellable);
  if (self->connection == NULL)
    return;

  self->health_cancellable = g_cancellable_new ();
  lode_connection_call_tool (self->connection, "codebase_health", NULL,
                             self->health_cancellable, health_cb, g_object_ref (self));
}

static void
check_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  check_health (LODE_MODELS_PAGE (widget));
}

static gboolean
health_again_cb (gpointer user_data)
{
  LodeModelsPage *self = user_data;

  self->health_again = 0;
  check_health (self);
  return G_SOURCE_REMOVE;
}

static void
pull_progress_cb (const char *file,
                  guint64     received,
                  guint64     total,
                  gpointer    user_data)
{
  LodeModelsPage *self = user_data;
  g_autofree char *done = NULL;
  g_autofree char *all = NULL;
  g_autofree char *subtitle = NULL;
  guint64 downloaded;

  if (g_strcmp0 (self->file, file) != 0)
    {
      /* The previous file is complete. */
      for (guint i = 0; self->file != NULL && i < LODE_MODEL_MAX_FILES; i++)
        if (g_strcmp0 (self->model->files[i].name, self->file) == 0)
          self->files_done += self->model->files[i].size;
      g_free (self->file);
      self->file = g_strdup (file);
    }

  downloaded = MIN (self->files_done + received, self->total);
  gtk_progress_bar_set_fraction (self->download_progress,
                                 self->total > 0 ? (double) downloaded / self->total : 0.0);
  done = g_format_size (downloaded);
  all = g_format_size (self->total);
  /* Translators: a file being downloaded, the bytes downloaded so far and in all. */
  subtitle = g_strdup_printf (_("Downloading %s: %s of %s"), file, done, all);
  adw_action_row_set_subtitle (self->model_row, subtitle);
}

static void
pull_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(LodeModelsPage) self = user_data;
  g_autoptr(GError) error = NULL;
  gboolean pulled = lode_model_pull_finish (result, &error);

  /* Cancelled by the page's dispose: there is nothing left to show. */
  if (self->model_row == NULL)
    return;

  g_clear_object (&self->download);
  g_clear_pointer (&self->file, g_free);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "models.cancel", FALSE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "models.download", TRUE);

  if (!pulled && !g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    lode_toast_show_error (GTK_WIDGET (self), _("Cannot download the model"), error);

  show_model (self);
  if (pulled)
    {
      check_health (self);
      g_clear_handle_id (&self->health_again, g_source_remove);
      self->health_again = g_timeout_add_seconds (HEALTH_AGAIN_SECONDS, health_again_cb, self);
    }
}

/**
 * lode_models_page_download:
 * @self: a #LodeModelsPage
 *
 * Downloads the built-in encoder's model (the settings' model, or the default one) into
 * Lode's model cache, following its progress on the page.
 */
void
lode_models_page_download (LodeModelsPage *self)
{
  g_autofree char *dir = NULL;

  g_return_if_fail (LODE_IS_MODELS_PAGE (self));

  if (self->download != NULL)
    return;

  self->download = g_cancellable_new ();
  self->files_done = 0;
  self->total = model_size (self->model);
  gtk_progress_bar_set_fraction (self->download_progress, 0.0);
  gtk_stack_set_visible_child_name (self->model_stack, "downloading");
  adw_action_row_set_subtitle (self->model_row, _("Starting the download…"));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "models.cancel", TRUE);
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "models.download", FALSE);

  dir = lode_models_dup_model_dir (self->model->name);
  lode_model_pull_async (self->model, dir, LODE_MODEL_PULL_NONE, pull_progress_cb, self,
                         self->download, pull_cb, g_object_ref (self));
}

static void
download_activated (GtkWidget  *widget,
                    const char *action_name,
                    GVariant   *parameter)
{
  lode_models_page_download (LODE_MODELS_PAGE (widget));
}

/* What was downloaded stays: the next download resumes it. */
static void
cancel_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LodeModelsPage *self = LODE_MODELS_PAGE (widget);

  g_cancellable_cancel (self->download);
}

static void
settings_changed_cb (LodeModelsPage *self,
                     const char     *key,
                     GSettings      *settings)
{
  if (self->download == NULL)
    {
      self->model = builtin_model (settings);
      show_model (self);
    }
}

static void
client_changed_cb (LodeModelsPage *self,
                   GParamSpec     *pspec,
                   LodeConnection *connection)
{
  if (lode_connection_get_client (connection) != NULL ||
      lode_connection_get_client_error (connection) != NULL)
    check_health (self);
}

/**
 * lode_models_page_set_connection:
 * @self: a #LodeModelsPage
 * @connection: the connection to loded: its settings, shared with the daemon, and its client
 */
void
lode_models_page_set_connection (LodeModelsPage *self,
                                 LodeConnection *connection)
{
  g_return_if_fail (LODE_IS_MODELS_PAGE (self));
  g_return_if_fail (LODE_IS_CONNECTION (connection));
  g_return_if_fail (self->connection == NULL);

  self->connection = connection;
  self->settings = g_object_ref (lode_connection_get_settings (connection));
  g_signal_connect_object (self->settings, "changed", G_CALLBACK (settings_changed_cb), self,
                           G_CONNECT_SWAPPED);
  settings_changed_cb (self, NULL, self->settings);

  g_signal_connect_object (connection, "notify::client", G_CALLBACK (client_changed_cb), self,
                           G_CONNECT_SWAPPED);
  client_changed_cb (self, NULL, connection);
}

static void
lode_models_page_dispose (GObject *object)
{
  LodeModelsPage *self = (LodeModelsPage *)object;
  GtkWidget *child;

  g_cancellable_cancel (self->download);
  g_clear_object (&self->download);
  g_cancellable_cancel (self->health_cancellable);
  g_clear_object (&self->health_cancellable);
  g_clear_handle_id (&self->health_again, g_source_remove);
  gtk_widget_dispose_template (GTK_WIDGET (object), LODE_TYPE_MODELS_PAGE);
  /* The template's root is not bound to a field, so it is unparented here. */
  while ((child = gtk_widget_get_first_child (GTK_WIDGET (object))) != NULL)
    gtk_widget_unparent (child);
  g_clear_object (&self->settings);
  g_clear_pointer (&self->file, g_free);

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
  gtk_widget_class_bind_template_child (widget_class, LodeModelsPage, health_row);
  gtk_widget_class_bind_template_child (widget_class, LodeModelsPage, health_icon);
  gtk_widget_class_bind_template_child (widget_class, LodeModelsPage, model_row);
  gtk_widget_class_bind_template_child (widget_class, LodeModelsPage, model_stack);
  gtk_widget_class_bind_template_child (widget_class, LodeModelsPage, download_progress);

  gtk_widget_class_install_action (widget_class, "models.check", NULL, check_activated);
  gtk_widget_class_install_action (widget_class, "models.download", NULL, download_activated);
  gtk_widget_class_install_action (widget_class, "models.cancel", NULL, cancel_activated);
}

static void
lode_models_page_init (LodeModelsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));
  gtk_widget_action_set_enabled (GTK_WIDGET (self), "models.cancel", FALSE);
}
