/* lode-projects-page.c — the indexed trees: add, index again, stop, watch, remove
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-error.h"
#include "lode-project-item.h"
#include "lode-project-row.h"
#include "lode-projects-page.h"
#include "lode-window.h"

struct _LodeProjectsPage
{
  GtkWidget       parent_instance;
  LodeDBusDaemon1 *daemon;
  GListStore      *projects;
  GtkFileChooserNative *chooser;
  GtkStack        *stack;
  GtkListBox      *list;
};

G_DEFINE_FINAL_TYPE (LodeProjectsPage, lode_projects_page, GTK_TYPE_WIDGET)

/* A request in flight: the page (weakly: it may close first) and the tree it is about. */
typedef struct
{
  GWeakRef  page;
  char     *root;
  gboolean  enable;
} Request;

static Request *
request_new (LodeProjectsPage *self,
             const char       *root)
{
  Request *request = g_new0 (Request, 1);

  g_weak_ref_init (&request->page, self);
  request->root = g_strdup (root);
  return request;
}

static void
request_free (Request *request)
{
  g_weak_ref_clear (&request->page);
  g_free (request->root);
  g_free (request);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Request, request_free)

/**
 * lode_projects_page_get_model:
 * @self: a #LodeProjectsPage
 *
 * Returns: (transfer none): the #LodeProjectItem of every tree the page shows
 */
GListModel *
lode_projects_page_get_model (LodeProjectsPage *self)
{
  g_return_val_if_fail (LODE_IS_PROJECTS_PAGE (self), NULL);

  return G_LIST_MODEL (self->projects);
}

static LodeProjectItem *
find_item (LodeProjectsPage *self,
           const char       *root,
           guint            *position)
{
  guint n = g_list_model_get_n_items (G_LIST_MODEL (self->projects));

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (G_LIST_MODEL (self->projects), i);

      if (g_str_equal (lode_project_item_get_root (item), root))
        {
          if (position != NULL)
            *position = i;
          return item;
        }
    }

  return NULL;
}

static int
compare_roots (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  return g_strcmp0 (lode_project_item_get_root ((LodeProjectItem *) a),
                    lode_project_item_get_root ((LodeProjectItem *) b));
}

static LodeProjectItem *
ensure_item (LodeProjectsPage *self,
             const char       *root)
{
  LodeProjectItem *item = find_item (self, root, NULL);

  if (item == NULL)
    {
      g_autoptr(LodeProjectItem) created = lode_project_item_new (root);

      g_list_store_insert_sorted (self->projects, created, compare_roots, NULL);
      item = created;
    }

  return item;
}

static void
update_stack (LodeProjectsPage *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->projects)) == 0;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "list");
}

static void
progress_cb (LodeProjectsPage *self,
             const char       *root,
             const char       *phase,
             guint             done,
             guint             total)
{
  lode_project_item_set_progress (ensure_item (self, root), phase, done, total);
}

static void
index_changed_cb (LodeProjectsPage *self,
                  const char       *root)
{
  lode_project_item_set_finished (ensure_item (self, root));
}

static void
show_error (LodeProjectsPage *self,
            const char       *what,
            GError           *error)
{
  if (g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    return;

  lode_window_show_error (GTK_WIDGET (self), what, error);
}

static void
add_project_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = g_weak_ref_get (&request->page);
  g_autoptr(GError) error = NULL;
  g_autofree char *root = NULL;
  g_autofree char *id = NULL;

  if (!lode_dbus_daemon1_call_add_project_finish (LODE_DBUS_DAEMON1 (object), &root, &id,
                                                  result, &error))
    {
      if (self != NULL)
        show_error (self, _("Cannot add the folder"), error);
      return;
    }

  if (self == NULL)
    return;

  lode_project_item_set_indexing (ensure_item (self, root), TRUE);
  update_stack (self);
}

/**
 * lode_projects_page_add_folder:
 * @self: a #LodeProjectsPage
 * @folder: a local folder
 *
 * Asks the daemon to index @folder; the new row follows its progress.
 */
void
lode_projects_page_add_folder (LodeProjectsPage *self,
                               GFile            *folder)
{
  g_autofree char *path = NULL;

  g_return_if_fail (LODE_IS_PROJECTS_PAGE (self));
  g_return_if_fail (G_IS_FILE (folder));

  path = g_file_get_path (folder);
  if (path == NULL || self->daemon == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                                     path == NULL
                                                     ? _("Only local folders can be indexed")
                                                     : _("The Lode service is not running"));

      show_error (self, _("Cannot add the folder"), error);
      return;
    }

  lode_dbus_daemon1_call_add_project (self->daemon, path, NULL, add_project_cb,
                                      request_new (self, path));
}

static void
chooser_response_cb (LodeProjectsPage     *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) folder = NULL;

  if (response == GTK_RESPONSE_ACCEPT)
    folder = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));

  g_clear_object (&self->chooser);
  if (folder != NULL)
    lode_projects_page_add_folder (self, folder);
}

static void
add_activated (GtkWidget  *widget,
               const char *action_name,
               GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  GtkRoot *root = gtk_widget_get_root (widget);

  if (self->chooser != NULL)
    return;

  /* GtkFileChooserNative goes through the file chooser portal inside a Flatpak. */
  self->chooser = gtk_file_chooser_native_new (_("Add a Folder to Index"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SELECT_FOLDER,
                                               _("_Add"), _("_Cancel"));
  gtk_native_dialog_set_modal (GTK_NATIVE_DIALOG (self->chooser), TRUE);
  g_signal_connect_swapped (self->chooser, "response", G_CALLBACK (chooser_response_cb), self);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

static void
index_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = g_weak_ref_get (&request->page);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) report = NULL;
  LodeProjectItem *item;

  if (lode_dbus_daemon1_call_index_finish (LODE_DBUS_DAEMON1 (object), &report, result, &error))
    return; /* IndexChanged tells every client, this one included. */

  if (self == NULL)
    return;

  item = find_item (self, request->root, NULL);
  if (item != NULL)
    lode_project_item_set_indexing (item, FALSE);
  if (!g_error_matches (error, LODE_ERROR, LODE_ERROR_CANCELLED))
    show_error (self, _("Indexing failed"), error);
}

static void
reindex_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  const char *root = g_variant_get_string (parameter, NULL);

  if (self->daemon == NULL)
    return;

  lode_project_item_set_indexing (ensure_item (self, root), TRUE);
  lode_dbus_daemon1_call_index (self->daemon, root, FALSE, NULL, index_cb,
                                request_new (self, root));
}

static void
stop_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = g_weak_ref_get (&request->page);
  g_autoptr(GError) error = NULL;
  gboolean stopped = FALSE;

  if (!lode_dbus_daemon1_call_stop_finish (LODE_DBUS_DAEMON1 (object), &stopped, result,
                                           &error) && self != NULL)
    show_error (self, _("Cannot stop indexing"), error);
}

static void
stop_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  const char *root = g_variant_get_string (parameter, NULL);

  if (self->daemon != NULL)
    lode_dbus_daemon1_call_stop (self->daemon, root, NULL, stop_cb, request_new (self, root));
}

static void
watch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = g_weak_ref_get (&request->page);
  g_autoptr(GError) error = NULL;
  g_autoptr(GVariant) status = NULL;
  LodeProjectItem *item;

  if (!lode_dbus_daemon1_call_watch_finish (LODE_DBUS_DAEMON1 (object), &status, result,
                                            &error))
    {
      if (self != NULL)
        show_error (self, request->enable ? _("Cannot watch the folder")
                                          : _("Cannot stop watching the folder"), error);
      return;
    }

  if (self != NULL && (item = find_item (self, request->root, NULL)) != NULL)
    lode_project_item_set_watched (item, request->enable);
}

static void
watch_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  const char *root = NULL;
  gboolean enable = FALSE;
  Request *request;

  if (self->daemon == NULL)
    return;

  g_variant_get (parameter, "(&sb)", &root, &enable);
  request = request_new (self, root);
  request->enable = enable;
  lode_dbus_daemon1_call_watch (self->daemon, root, enable, NULL, watch_cb, request);
}

static void
remove_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = g_weak_ref_get (&request->page);
  g_autoptr(GError) error = NULL;
  guint position;

  if (!lode_dbus_daemon1_call_remove_project_finish (LODE_DBUS_DAEMON1 (object), result,
                                                     &error))
    {
      if (self != NULL)
        show_error (self, _("Cannot remove the index"), error);
      return;
    }

  if (self != NULL && find_item (self, request->root, &position) != NULL)
    {
      g_list_store_remove (self->projects, position);
      update_stack (self);
    }
}

static void
remove_response_cb (AdwMessageDialog *dialog,
                    const char       *response,
                    gpointer          user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = g_weak_ref_get (&request->page);

  if (self == NULL || self->daemon == NULL || !g_str_equal (response, "remove"))
    return;

  lode_dbus_daemon1_call_remove_project (self->daemon, request->root, NULL, remove_cb,
                                         g_steal_pointer (&request));
}

static void
remove_activated (GtkWidget  *widget,
                  const char *action_name,
                  GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  const char *root = g_variant_get_string (parameter, NULL);
  g_autofree char *name = g_path_get_basename (root);
  GtkRoot *window = gtk_widget_get_root (widget);
  GtkWidget *dialog;

  dialog = adw_message_dialog_new (GTK_IS_WINDOW (window) ? GTK_WINDOW (window) : NULL,
                                   NULL, NULL);
  /* Translators: %s is a folder name. */
  adw_message_dialog_format_heading (ADW_MESSAGE_DIALOG (dialog), _("Remove the Index of %s?"),
                                     name);
  adw_message_dialog_format_body (ADW_MESSAGE_DIALOG (dialog),
                                  _("Lode forgets this folder and deletes its index. The folder "
                                    "and its files are not touched."));
  adw_message_dialog_add_responses (ADW_MESSAGE_DIALOG (dialog),
                                    "cancel", _("_Cancel"),
                                    "remove", _("_Remove Index"),
                                    NULL);
  adw_message_dialog_set_response_appearance (ADW_MESSAGE_DIALOG (dialog), "remove",
                                              ADW_RESPONSE_DESTRUCTIVE);
  adw_message_dialog_set_default_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  adw_message_dialog_set_close_response (ADW_MESSAGE_DIALOG (dialog), "cancel");
  g_signal_connect (dialog, "response", G_CALLBACK (remove_response_cb),
                    request_new (self, root));
  gtk_window_present (GTK_WINDOW (dialog));
}

/**
 * lode_projects_page_set_daemon:
 * @self: a #LodeProjectsPage
 * @daemon: (nullable): the daemon's proxy
 *
 * Follows @daemon's progress and index signals.
 */
void
lode_projects_page_set_daemon (LodeProjectsPage *self,
                               LodeDBusDaemon1  *daemon)
{
  g_return_if_fail (LODE_IS_PROJECTS_PAGE (self));

  if (self->daemon == daemon)
    return;

  if (self->daemon != NULL)
    g_signal_handlers_disconnect_by_data (self->daemon, self);
  g_set_object (&self->daemon, daemon);
  if (daemon == NULL)
    return;

  g_signal_connect_object (daemon, "progress", G_CALLBACK (progress_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (daemon, "index-changed", G_CALLBACK (index_changed_cb), self,
                           G_CONNECT_SWAPPED);
}

static GtkWidget *
create_row (gpointer item,
            gpointer user_data)
{
  return lode_project_row_new (LODE_PROJECT_ITEM (item));
}

static void
lode_projects_page_dispose (GObject *object)
{
  LodeProjectsPage *self = (LodeProjectsPage *)object;

  if (self->chooser != NULL)
    gtk_native_dialog_destroy (GTK_NATIVE_DIALOG (self->chooser));
  g_clear_object (&self->chooser);
  if (self->daemon != NULL)
    g_signal_handlers_disconnect_by_data (self->daemon, self);
  g_clear_object (&self->daemon);
  gtk_widget_dispose_template (GTK_WIDGET (self), LODE_TYPE_PROJECTS_PAGE);
  g_clear_object (&self->projects);

  G_OBJECT_CLASS (lode_projects_page_parent_class)->dispose (object);
}

static void
lode_projects_page_class_init (LodeProjectsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_projects_page_dispose;

  gtk_widget_class_set_layout_manager_type (widget_class, GTK_TYPE_BIN_LAYOUT);
  gtk_widget_class_set_template_from_resource (widget_class,
                                               "/io/github/lode/Lode/lode-projects-page.ui");
  gtk_widget_class_bind_template_child (widget_class, LodeProjectsPage, stack);
  gtk_widget_class_bind_template_child (widget_class, LodeProjectsPage, list);

  gtk_widget_class_install_action (widget_class, "project.add", NULL, add_activated);
  gtk_widget_class_install_action (widget_class, "project.reindex", "s", reindex_activated);
  gtk_widget_class_install_action (widget_class, "project.stop", "s", stop_activated);
  gtk_widget_class_install_action (widget_class, "project.remove", "s", remove_activated);
  gtk_widget_class_install_action (widget_class, "project.watch", "(sb)", watch_activated);
}

static void
lode_projects_page_init (LodeProjectsPage *self)
{
  gtk_widget_init_template (GTK_WIDGET (self));

  self->projects = g_list_store_new (LODE_TYPE_PROJECT_ITEM);
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (self->projects), create_row, NULL, NULL);
  update_stack (self);
}
