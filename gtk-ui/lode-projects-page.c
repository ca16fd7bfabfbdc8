/* lode-projects-page.c — the indexed trees: add, index again, stop, watch, remove
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>

#include "lode-project-item.h"
#include "lode-project-row.h"
#include "lode-projects-page.h"
#include "lode-toast.h"

/*
 * Every action is a tool of the registry called in loded (codebase_index, codebase_stop,
 * codebase_watch, codebase_remove); the list is codebase_list_projects, and each row's
 * figures its project's codebase_status. The client's signals keep it live: index-progress
 * drives the progress bars, index-changed asks for a tree's status again, projects-changed
 * for the list. A run of another process that a status shows ends with an index-changed
 * too: loded follows it once its status was asked for.
 */

struct _LodeProjectsPage
{
  GtkWidget             parent_instance;
  LodeConnection       *connection;
  GListStore           *projects;
  GtkFileChooserNative *chooser;
  GCancellable         *cancellable;
  GtkStack             *stack;
  GtkListBox           *list;
  guint                 list_serial;    /* of the last codebase_list_projects asked */
  guint                 listed_serial;  /* of the last one applied */
  guint                 status_serial;  /* of the last codebase_status asked, for any tree */
  GHashTable           *status_serials; /* root → serial of the last status applied */
  GHashTable           *status_again;   /* roots whose failed status is to be asked again */
};

G_DEFINE_FINAL_TYPE (LodeProjectsPage, lode_projects_page, GTK_TYPE_WIDGET)

/* A request in flight: the page (weakly: it may close first) and the tree it is about. */
typedef struct
{
  GWeakRef  page;
  char     *root;
  gboolean  enable;
  guint     serial;
  gboolean  again;  /* a status asked for again, after one that failed */
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

static JsonObject *
project_arguments (const char *root)
{
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "projectPath", root);
  return arguments;
}

/* Calls @tool about @root; @callback gets the Request, which this returns. */
static Request *
call_for_root (LodeProjectsPage    *self,
               const char          *tool,
               JsonObject          *arguments,
               const char          *root,
               gboolean             enable,
               GAsyncReadyCallback  callback)
{
  Request *request = request_new (self, root);

  request->enable = enable;
  lode_connection_call_tool (self->connection, tool, arguments, self->cancellable, callback,
                             request);
  return request;
}

/* The tool's structured result, or NULL with @error set; with @what, a failure is also shown
 * as a toast, unless the call was cancelled (the page is closing). */
static JsonObject *
finish_call (GAsyncResult      *result,
             Request           *request,
             LodeProjectsPage **page,
             const char        *what,
             GError           **error)
{
  g_autoptr(GError) local_error = NULL;
  LodeConnection *connection = LODE_CONNECTION (g_async_result_get_source_object (result));
  JsonObject *object = lode_connection_call_tool_finish (connection, result, &local_error);

  g_object_unref (connection);
  *page = g_weak_ref_get (&request->page);
  if (object == NULL && *page != NULL && what != NULL &&
      !g_error_matches (local_error, G_IO_ERROR, G_IO_ERROR_CANCELLED))
    lode_toast_show_error (GTK_WIDGET (*page), what, local_error);
  if (local_error != NULL)
    g_propagate_error (error, g_steal_pointer (&local_error));

  return object;
}

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

/* Names shared by two projects get their parent folder ("a/src", "b/src"). */
static void
update_names (LodeProjectsPage *self)
{
  GListModel *projects = G_LIST_MODEL (self->projects);
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  guint n = g_list_model_get_n_items (projects);

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (projects, i);
      const char *name = lode_project_item_get_name (item);

      g_hash_table_insert (counts, (gpointer) name,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts,
                                                                                    name)) + 1));
    }
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (projects, i);

      lode_project_item_set_display_name (item,
                                          GPOINTER_TO_UINT (g_hash_table_lookup (
                                            counts, lode_project_item_get_name (item))) == 1);
    }
}

static void
update_stack (LodeProjectsPage *self)
{
  gboolean empty = g_list_model_get_n_items (G_LIST_MODEL (self->projects)) == 0;

  gtk_stack_set_visible_child_name (self->stack, empty ? "empty" : "list");
}

/* How long a tree's status waits to be asked for again after a call that failed. */
#define STATUS_AGAIN_SECONDS 1

static void refresh_status (LodeProjectsPage *self,
                            const char       *root,
                            gboolean          again);

static gboolean
status_again_cb (gpointer user_data)
{
  Request *request = user_data;
  g_autoptr(LodeProjectsPage) self = g_weak_ref_get (&request->page);

  if (self == NULL)
    return G_SOURCE_REMOVE;
  g_hash_table_remove (self->status_again, request->root);
  if (find_item (self, request->root, NULL) != NULL)
    refresh_status (self, request->root, TRUE);
  return G_SOURCE_REMOVE;
}

/* Asks for @root's status once more in STATUS_AGAIN_SECONDS, unless that is planned
 * already. */
static void
refresh_status_again (LodeProjectsPage *self,
                      const char       *root)
{
  if (!g_hash_table_add (self->status_again, g_strdup (root)))
    return;
  g_timeout_add_seconds_full (G_PRIORITY_DEFAULT, STATUS_AGAIN_SECONDS, status_again_cb,
                              request_new (self, root), (GDestroyNotify) request_free);
}

static void
status_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(JsonObject) status = finish_call (result, request, &self, NULL, &error);
  LodeProjectItem *item;

  /* As with the lists: a status asked for during a job may come after the one asked for at
   * its end, and would show the job running again, for good. */
  if (self == NULL || g_error_matches (error, G_IO_ERROR, G_IO_ERROR_CANCELLED) ||
      request->serial < GPOINTER_TO_UINT (g_hash_table_lookup (self->status_serials,
                                                               request->root)))
    return;

  item = find_item (self, request->root, NULL);
  if (item == NULL)
    return;

  /* The status at a job's end is the only news of it: without it the row would show the
   * job running for good. It is asked for once more (loded may have been busy or
   * restarting); failing again, the row says why, and stops showing progress. */
  if (status == NULL && !request->again)
    {
      refresh_status_again (self, request->root);
      return;
    }

  g_hash_table_insert (self->status_serials, g_strdup (request->root),
                       GUINT_TO_POINTER (request->serial));
  if (status == NULL)
    lode_project_item_set_status_error (item, error->message);
  else
    lode_project_item_update_status (item, status);
}

/* @again: after a status that failed; failing again, the row says why. */
static void
refresh_status (LodeProjectsPage *self,
                const char       *root,
                gboolean          again)
{
  Request *request = call_for_root (self, "codebase_status", project_arguments (root), root,
                                    FALSE, status_cb);

  request->serial = ++self->status_serial;
  request->again = again;
}

static void
list_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = NULL;
  g_autoptr(JsonObject) listed = finish_call (result, request, &self,
                                              _("Cannot list the indexed folders"), NULL);
  g_autoptr(GHashTable) roots = NULL;
  JsonArray *projects;
  guint n;

  /* The daemon answers calls as they finish, not in order: a list asked before a removal
   * may come after the list asked after it, and would bring the removed tree back. */
  if (self == NULL || listed == NULL || request->serial < self->listed_serial)
    return;
  self->listed_serial = request->serial;

  roots = g_hash_table_new (g_str_hash, g_str_equal);
  projects = json_object_get_array_member (listed, "projects");
  for (guint i = 0; i < json_array_get_length (projects); i++)
    {
      JsonObject *info = json_array_get_object_element (projects, i);
      const char *root = json_object_get_string_member (info, "projectPath");
      LodeProjectItem *item = ensure_item (self, root);

      g_hash_table_add (roots, (gpointer) root);
      lode_project_item_update_info (item, info);
      if (json_object_get_boolean_member_with_default (info, "exists", TRUE))
        refresh_status (self, root, FALSE);
    }

  /* Trees the daemon no longer lists, unless they are being indexed for the first time. */
  n = g_list_model_get_n_items (G_LIST_MODEL (self->projects));
  for (guint i = n; i > 0; i--)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (G_LIST_MODEL (self->projects),
                                                               i - 1);

      if (!g_hash_table_contains (roots, lode_project_item_get_root (item)) &&
          !lode_project_item_get_indexing (item))
        g_list_store_remove (self->projects, i - 1);
    }
  update_stack (self);
}

static void
refresh_projects (LodeProjectsPage *self)
{
  Request *request = call_for_root (self, "codebase_list_projects", NULL, NULL, FALSE, list_cb);

  request->serial = ++self->list_serial;
}

static void
progress_cb (LodeProjectsPage *self,
             const char       *root,
             const char       *phase,
             guint             done,
             guint             total)
{
  lode_project_item_set_progress (ensure_item (self, root), phase, done, total);
  update_stack (self);
}

static void
index_changed_cb (LodeProjectsPage *self,
                  const char       *root)
{
  if (find_item (self, root, NULL) != NULL)
    refresh_status (self, root, FALSE);
}

static void
start_index_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = NULL;
  g_autoptr(JsonObject) started = finish_call (result, request, &self,
                                               _("Cannot index the folder"), NULL);
  LodeProjectItem *item;

  if (self == NULL)
    return;

  item = find_item (self, request->root, NULL);
  if (started == NULL)
    {
      if (item != NULL)
        lode_project_item_set_indexing (item, FALSE);
      return;
    }

  /* The job runs in the background; its progress and its end come as signals. A job that
   * ended already (an unchanged tree) is told by its status. */
  item = ensure_item (self, json_object_get_string_member (started, "projectPath"));
  lode_project_item_set_indexing (item, TRUE);
  refresh_status (self, lode_project_item_get_root (item), FALSE);
  update_stack (self);
}

static void
start_index (LodeProjectsPage *self,
             const char       *root)
{
  JsonObject *arguments = project_arguments (root);

  json_object_set_boolean_member (arguments, "wait", FALSE);
  call_for_root (self, "codebase_index", arguments, root, FALSE, start_index_cb);
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
  if (path == NULL)
    {
      g_autoptr(GError) error = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                                                     _("Only local folders can be indexed"));

      lode_toast_show_error (GTK_WIDGET (self), _("Cannot add the folder"), error);
      return;
    }

  start_index (self, path);
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
reindex_activated (GtkWidget  *widget,
                   const char *action_name,
                   GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  const char *root = g_variant_get_string (parameter, NULL);

  lode_project_item_set_indexing (ensure_item (self, root), TRUE);
  start_index (self, root);
}

static void
stop_cb (GObject      *object,
         GAsyncResult *result,
         gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = NULL;
  g_autoptr(JsonObject) stopped = finish_call (result, request, &self,
                                               _("Cannot stop indexing"), NULL);

  if (self != NULL && find_item (self, request->root, NULL) != NULL)
    refresh_status (self, request->root, FALSE);
}

static void
stop_activated (GtkWidget  *widget,
                const char *action_name,
                GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  const char *root = g_variant_get_string (parameter, NULL);

  call_for_root (self, "codebase_stop", project_arguments (root), root, FALSE, stop_cb);
}

static void
watch_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = NULL;
  g_autoptr(JsonObject) watched = NULL;

  watched = finish_call (result, request, &self,
                         request->enable ? _("Cannot watch the folder")
                                         : _("Cannot stop watching the folder"),
                         NULL);
  /* Either way the row shows what the daemon does now. */
  if (self != NULL && find_item (self, request->root, NULL) != NULL)
    refresh_status (self, request->root, FALSE);
}

static void
watch_activated (GtkWidget  *widget,
                 const char *action_name,
                 GVariant   *parameter)
{
  LodeProjectsPage *self = LODE_PROJECTS_PAGE (widget);
  const char *root = NULL;
  gboolean enable = FALSE;
  JsonObject *arguments;

  g_variant_get (parameter, "(&sb)", &root, &enable);
  arguments = project_arguments (root);
  json_object_set_string_member (arguments, "action", enable ? "start" : "stop");
  call_for_root (self, "codebase_watch", arguments, root, enable, watch_cb);
}

static void
remove_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  g_autoptr(Request) request = user_data;
  g_autoptr(LodeProjectsPage) self = NULL;
  g_autoptr(JsonObject) removed = finish_call (result, request, &self,
                                               _("Cannot remove the index"), NULL);
  guint position;

  if (self != NULL && removed != NULL && find_item (self, request->root, &position) != NULL)
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

  if (self == NULL || !g_str_equal (response, "remove"))
    return;

  call_for_root (self, "codebase_remove", project_arguments (request->root), request->root,
                 FALSE, remove_cb);
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

/* The client is made once; its handlers go with the page. */
static void
client_changed_cb (LodeProjectsPage *self,
                   GParamSpec       *pspec,
                   LodeConnection   *connection)
{
  LodeClient *client = lode_connection_get_client (connection);

  if (client == NULL)
    return;

  g_signal_connect_object (client, "index-progress", G_CALLBACK (progress_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "index-changed", G_CALLBACK (index_changed_cb), self,
                           G_CONNECT_SWAPPED);
  g_signal_connect_object (client, "projects-changed", G_CALLBACK (refresh_projects), self,
                           G_CONNECT_SWAPPED);
  refresh_projects (self);
}

/**
 * lode_projects_page_set_connection:
 * @self: a #LodeProjectsPage
 * @connection: the connection to loded, whose client the page uses
 *
 * Lists the indexed trees as soon as the client is connected, and follows its signals.
 */
void
lode_projects_page_set_connection (LodeProjectsPage *self,
                                   LodeConnection   *connection)
{
  g_return_if_fail (LODE_IS_PROJECTS_PAGE (self));
  g_return_if_fail (LODE_IS_CONNECTION (connection));
  g_return_if_fail (self->connection == NULL);

  self->connection = connection;
  g_signal_connect_object (connection, "notify::client", G_CALLBACK (client_changed_cb), self,
                           G_CONNECT_SWAPPED);
  client_changed_cb (self, NULL, connection);
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
  g_cancellable_cancel (self->cancellable);
  g_clear_object (&self->cancellable);
  gtk_widget_dispose_template (GTK_WIDGET (self), LODE_TYPE_PROJECTS_PAGE);
  g_clear_object (&self->projects);

  G_OBJECT_CLASS (lode_projects_page_parent_class)->dispose (object);
}

static void
lode_projects_page_finalize (GObject *object)
{
  LodeProjectsPage *self = (LodeProjectsPage *)object;

  g_hash_table_unref (self->status_serials);
  g_hash_table_unref (self->status_again);

  G_OBJECT_CLASS (lode_projects_page_parent_class)->finalize (object);
}

static void
lode_projects_page_class_init (LodeProjectsPageClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_projects_page_dispose;
  object_class->finalize = lode_projects_page_finalize;

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
  self->cancellable = g_cancellable_new ();
  self->status_serials = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  self->status_again = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  gtk_list_box_bind_model (self->list, G_LIST_MODEL (self->projects), create_row, NULL, NULL);
  g_signal_connect_object (self->projects, "items-changed", G_CALLBACK (update_names), self,
                           G_CONNECT_SWAPPED);
  update_stack (self);
}
