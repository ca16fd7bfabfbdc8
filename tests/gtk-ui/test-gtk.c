/* test-gtk.c — lode-gtk under Xvfb, against a test loded and a real gnome-keyring-daemon
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <glib/gstdio.h>
#include <string.h>

#include "lode.h"
#include "lode-application.h"
#include "lode-graph-page.h"
#include "lode-models-page.h"
#include "lode-preferences-window.h"
#include "lode-project-item.h"
#include "lode-projects-page.h"
#include "lode-remote-embedder.h"
#include "lode-search-page.h"
#include "lode-search-row.h"
#include "lode-secret.h"
#include "lode-window.h"
#include "mock-http-server.h"
#include "test-helpers.h"

/*
 * One private session bus for the whole run, with the build-tree loded activatable on it (its
 * data in the run's directory) and a gnome-keyring-daemon serving the Secret Service. The app
 * is the real LodeApplication, driven by direct widget calls. The user's editor is a stand-in:
 * a desktop file named after GNOME Text Editor, the default for C files, whose program only
 * writes down its arguments, so that opening a search result is captured. Each page is
 * rendered to a PNG in $LODE_SCREENSHOT_DIR (default: the build directory's screenshots/).
 */

#define API_KEY "sk-lode-test-4f1c9a7e2b6d"
#define WAIT_SECONDS 60

typedef struct
{
  LodeApplication *app;
  char            *root;
} Fixture;

/* Every message logged in this process, to check that no secret is among them. */
static GString *log_text;
static LodeApplication *app;

/* One bus for the whole run: GDBus keeps the bus connection of a process (libsecret's
 * service among others) for its lifetime. */
static GTestDBus   *test_bus;
static GSubprocess *keyring;
static char        *tmp;
static char        *launch_log;

static GLogWriterOutput
log_writer (GLogLevelFlags   log_level,
            const GLogField *fields,
            gsize            n_fields,
            gpointer         user_data)
{
  GString *log = user_data;

  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].length < 0)
      g_string_append_printf (log, "%s\n", (const char *) fields[i].value);

  return g_log_writer_default (log_level, fields, n_fields, NULL);
}

static gboolean
timeout_cb (gpointer user_data)
{
  gboolean *timed_out = user_data;

  *timed_out = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

typedef gboolean (*Condition) (gpointer data);

/* Runs the main loop until @condition holds; fails the test after WAIT_SECONDS. */
static void
wait_until (Condition  condition,
            gpointer   data,
            const char *what)
{
  gboolean timed_out = FALSE;
  guint timeout = g_timeout_add_seconds (WAIT_SECONDS, timeout_cb, &timed_out);
  guint tick = g_timeout_add (20, tick_cb, NULL);

  while (!timed_out && !condition (data))
    g_main_context_iteration (NULL, TRUE);

  g_source_remove (tick);
  if (timed_out)
    g_error ("Timed out waiting for %s", what);
  g_source_remove (timeout);
}

/* test_write_file() at @path, then @mode (an editor that runs, a file it may read). */
static void
write_file_with_mode (const char *path,
                      const char *contents,
                      int         mode)
{
  g_autofree char *dir = g_path_get_dirname (path);
  g_autofree char *name = g_path_get_basename (path);

  test_write_file (dir, name, contents);
  g_assert_cmpint (g_chmod (path, mode), ==, 0);
}

/* The stand-in editor: the default application for C files and text. */
static void
install_fake_editor (void)
{
  g_autofree char *editor = g_build_filename (tmp, "bin", "gnome-text-editor", NULL);
  g_autofree char *desktop = g_build_filename (g_get_user_data_dir (), "applications",
                                               "fake-editor.desktop", NULL);
  g_autofree char *mimeapps = g_build_filename (g_get_user_config_dir (), "mimeapps.list",
                                                NULL);
  g_autofree char *entry = NULL;

  write_file_with_mode (editor,
                        "#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$LODE_TEST_LAUNCH_LOG.part\"\n"
                        "mv \"$LODE_TEST_LAUNCH_LOG.part\" \"$LODE_TEST_LAUNCH_LOG\"\n", 0755);
  entry = g_strdup_printf ("[Desktop Entry]\nType=Application\nName=Fake Editor\n"
                           "Exec=%s %%U\nMimeType=text/x-csrc;text/x-chdr;text/plain;\n", editor);
  write_file_with_mode (desktop, entry, 0644);
  write_file_with_mode (mimeapps,
                        "[Default Applications]\ntext/x-csrc=fake-editor.desktop\n"
                        "text/x-chdr=fake-editor.desktop\ntext/plain=fake-editor.desktop\n",
                        0644);
}

static gboolean
name_owned (gpointer data)
{
  g_autoptr(GDBusConnection) bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, NULL);
  g_autoptr(GVariant) reply = NULL;
  gboolean owned = FALSE;

  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.DBus", "/org/freedesktop/DBus",
                                       "org.freedesktop.DBus", "NameHasOwner",
                                       g_variant_new ("(s)", (const char *) data),
                                       G_VARIANT_TYPE ("(b)"), G_DBUS_CALL_FLAGS_NONE, -1,
                                       NULL, NULL);
  if (reply != NULL)
    g_variant_get (reply, "(b)", &owned);
  return owned;
}

/* A fresh keyring has no login collection, and creating one needs a prompt: the session
 * collection becomes the default one, so that the app stores where it always does. */
static void
start_keyring (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GVariant) reply = NULL;

  keyring = g_subprocess_new (G_SUBPROCESS_FLAGS_STDOUT_SILENCE, &error,
                                       "gnome-keyring-daemon", "--start", "--foreground",
                                       "--components=secrets", NULL);
  g_assert_no_error (error);
  wait_until (name_owned, (gpointer) "org.freedesktop.secrets", "the keyring");

  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  reply = g_dbus_connection_call_sync (bus, "org.freedesktop.secrets",
                                       "/org/freedesktop/secrets",
                                       "org.freedesktop.Secret.Service", "SetAlias",
                                       g_variant_new ("(so)", "default",
                                                      "/org/freedesktop/secrets/collection/session"),
                                       NULL, G_DBUS_CALL_FLAGS_NONE, -1, NULL, &error);
  g_assert_no_error (error);
}

static gboolean
client_ready (gpointer data)
{
  return lode_application_get_client (data) != NULL;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *source = NULL;

  fixture->root = g_build_filename (tmp, "widgets", NULL);
  /* Three files, two of which import each other. */
  source = g_build_filename (fixture->root, "src", "widget.c", NULL);
  write_file_with_mode (source,
                        "#include \"widget.h\"\n\nint\nparse_widget_config (const char *text)\n"
                        "{\n  return text[0];\n}\n", 0644);
  g_free (source);
  source = g_build_filename (fixture->root, "src", "widget.h", NULL);
  write_file_with_mode (source,
                        "#pragma once\n#include \"config.h\"\n\n"
                        "int parse_widget_config (const char *text);\n", 0644);
  g_free (source);
  source = g_build_filename (fixture->root, "src", "config.h", NULL);
  write_file_with_mode (source,
                        "#pragma once\n#include \"widget.h\"\n\n#define WIDGET_MAX 8\n", 0644);
  /* The system's icons, as on a desktop. */
  g_setenv ("XDG_DATA_DIRS", "/usr/local/share:/usr/share", TRUE);

  /* One app per process, like the bus: it is registered on it for good. */
  if (app == NULL)
    {
      app = lode_application_new ();
      g_application_set_flags (G_APPLICATION (app), G_APPLICATION_NON_UNIQUE);
      g_application_register (G_APPLICATION (app), NULL, &error);
      g_assert_no_error (error);
    }
  fixture->app = app;
  g_application_activate (G_APPLICATION (fixture->app));
  wait_until (client_ready, fixture->app, "the client of loded");
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWindow *window;

  while ((window = gtk_application_get_active_window (GTK_APPLICATION (fixture->app))) != NULL)
    gtk_window_destroy (window);
  g_free (fixture->root);
}

/* The private bus with the build-tree loded (its data under @tmp) and gnome-keyring. */
static void
start_services (void)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *data_dir = NULL;
  g_autofree char *runtime_dir = NULL;
  g_auto(GStrv) saved = NULL;
  static const char *const restored[] = { "DISPLAY", "XDG_CACHE_HOME", "XDG_CONFIG_HOME",
                                          "XDG_DATA_HOME" };
  static const char *const homes[][2] = { { "XDG_CACHE_HOME", "cache" },
                                          { "XDG_CONFIG_HOME", "config" },
                                          { "XDG_DATA_HOME", "share" } };

  tmp = g_dir_make_tmp ("lode-gtk-XXXXXX", &error);
  g_assert_no_error (error);
  data_dir = g_build_filename (tmp, "data", NULL);
  g_setenv ("LODE_DATA_DIR", data_dir, TRUE);
  g_setenv ("LODE_EMBEDDING_PROVIDER", "none", TRUE);
  g_setenv ("HOME", tmp, TRUE);
  /* Desktop files, default applications and the model cache of this run only (GLib reads
   * these once, so before anything asks). */
  for (guint i = 0; i < G_N_ELEMENTS (homes); i++)
    {
      g_autofree char *dir = g_build_filename (tmp, homes[i][1], NULL);

      g_setenv (homes[i][0], dir, TRUE);
    }
  launch_log = g_build_filename (tmp, "launched", NULL);
  g_setenv ("LODE_TEST_LAUNCH_LOG", launch_log, TRUE);

  saved = g_get_environ ();
  test_bus = g_test_dbus_new (G_TEST_DBUS_NONE);
  g_test_dbus_add_service_dir (test_bus, LODE_TEST_SERVICES_DIR);
  g_test_dbus_up (test_bus);
  /* g_test_dbus_up unsets DISPLAY and points the XDG directories at /dev/null; the app needs
   * its display, and GTK writable caches. */
  for (guint i = 0; i < G_N_ELEMENTS (restored); i++)
    if (g_environ_getenv (saved, restored[i]) != NULL)
      g_setenv (restored[i], g_environ_getenv (saved, restored[i]), TRUE);
  runtime_dir = g_build_filename (tmp, "runtime", NULL);
  g_assert_cmpint (g_mkdir_with_parents (runtime_dir, 0700), ==, 0);
  g_setenv ("XDG_RUNTIME_DIR", runtime_dir, TRUE);
  install_fake_editor ();
  start_keyring ();
}

static void
stop_services (void)
{
  secret_service_disconnect ();
  g_subprocess_force_exit (keyring);
  g_subprocess_wait (keyring, NULL, NULL);
  g_clear_object (&keyring);
  /* Stopped, not brought down: down waits for this process's bus connection to go away,
   * which GTK and libsecret keep until exit. */
  g_test_dbus_stop (test_bus);
  g_free (launch_log);
  test_remove_tree (tmp);
  g_free (tmp);
}

static GtkWidget *
find_widget (GtkWidget *widget,
             GType      type,
             guint      skip)
{
  guint n = 0;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type) && n++ == skip)
        return child;
      found = find_widget (child, type, 0);
      if (found != NULL && skip == 0)
        return found;
    }

  return NULL;
}

static gboolean
frames_drawn (gpointer data)
{
  guint *frames = data;

  return *frames >= 3;
}

static gboolean
count_frame_cb (GtkWidget     *widget,
                GdkFrameClock *clock,
                gpointer       user_data)
{
  guint *frames = user_data;

  (*frames)++;
  return G_SOURCE_CONTINUE;
}

/* Renders @window as the user sees it, after it has drawn a few frames. */
static void
screenshot (GtkWidget  *window,
            const char *name)
{
  const char *dir = g_getenv ("LODE_SCREENSHOT_DIR");
  g_autofree char *default_dir = g_test_build_filename (G_TEST_BUILT, "screenshots", NULL);
  g_autofree char *file = g_strconcat (name, ".png", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  guint frames = 0;
  guint tick;
  int width, height;

  tick = gtk_widget_add_tick_callback (window, count_frame_cb, &frames, NULL);
  gtk_widget_queue_draw (window);
  wait_until (frames_drawn, &frames, "the window to draw");
  gtk_widget_remove_tick_callback (window, tick);

  width = gtk_widget_get_width (window);
  height = gtk_widget_get_height (window);
  g_assert_cmpint (width, >, 0);

  paintable = gtk_widget_paintable_new (window);
  snapshot = gtk_snapshot_new ();
  gdk_paintable_snapshot (paintable, snapshot, width, height);
  node = gtk_snapshot_free_to_node (snapshot);
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

  if (dir == NULL)
    dir = default_dir;
  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  path = g_build_filename (dir, file, NULL);
  g_assert_true (gdk_texture_save_to_png (texture, path));
  g_test_message ("Screenshot: %s", path);
}

static gboolean
has_label (GtkWidget  *widget,
           const char *text)
{
  if (GTK_IS_LABEL (widget) && g_strcmp0 (gtk_label_get_label (GTK_LABEL (widget)), text) == 0)
    return gtk_widget_get_visible (widget);

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_label (child, text))
      return TRUE;

  return FALSE;
}

/* Whether a visible label under @widget starts with @prefix. */
static gboolean
has_label_prefix (GtkWidget  *widget,
                  const char *prefix)
{
  if (GTK_IS_LABEL (widget) && gtk_widget_get_visible (widget) &&
      g_str_has_prefix (gtk_label_get_label (GTK_LABEL (widget)), prefix))
    return TRUE;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    if (has_label_prefix (child, prefix))
      return TRUE;

  return FALSE;
}

static gboolean
item_finished (gpointer data)
{
  LodeProjectItem *item = data;

  return !lode_project_item_get_indexing (item) &&
         lode_project_item_get_fraction (item) == 1.0;
}

static void
collect_widgets (GtkWidget *widget,
                 GType      type,
                 GPtrArray *found)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        g_ptr_array_add (found, child);
      collect_widgets (child, type, found);
    }
}

static gboolean
first_result_in (gpointer data)
{
  GtkWidget *row = find_widget (((gpointer *) data)[0], LODE_TYPE_SEARCH_ROW, 0);

  return row != NULL &&
         g_str_has_suffix (lode_search_row_get_path (LODE_SEARCH_ROW (row)),
                           ((gpointer *) data)[1]);
}

/* The first row of the search results. */
static gboolean
has_search_row (gpointer data)
{
  return find_widget (data, LODE_TYPE_SEARCH_ROW, 0) != NULL;
}

/* The visible row under @widget titled @title, or %NULL. */
static GtkWidget *
find_row (GtkWidget  *widget,
          const char *title)
{
  if (ADW_IS_PREFERENCES_ROW (widget) && gtk_widget_get_visible (widget) &&
      g_strcmp0 (adw_preferences_row_get_title (ADW_PREFERENCES_ROW (widget)), title) == 0)
    return widget;

  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found = find_row (child, title);

      if (found != NULL)
        return found;
    }

  return NULL;
}

static gboolean
has_row (GtkWidget  *widget,
         const char *title)
{
  return find_row (widget, title) != NULL;
}

static gboolean
shows_row (gpointer data)
{
  return has_row (((gpointer *) data)[0], ((gpointer *) data)[1]);
}

static void
wait_for_row (GtkWidget  *widget,
              const char *title)
{
  gpointer data[2] = { widget, (gpointer) title };

  wait_until (shows_row, data, title);
}

static gboolean
file_exists (gpointer data)
{
  return g_file_test (data, G_FILE_TEST_EXISTS);
}

/* The acceptance flow: add a project, see its progress reach the end, search it, open the
 * result in the editor; then its import graph and the provider's health. */
static void
test_acceptance (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  GtkWidget *models = find_widget (window, LODE_TYPE_MODELS_PAGE, 0);
  GListModel *projects = lode_projects_page_get_model (page);
  LodeClient *client = lode_application_get_client (fixture->app);
  g_autoptr(GFile) folder = g_file_new_for_path (fixture->root);
  g_autoptr(LodeProjectItem) item = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *launched = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *source = g_build_filename (fixture->root, "src", "widget.c", NULL);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  LodeSearchRow *row;
  guint files = 0;

  g_assert_true (lode_client_is_remote (client));
  screenshot (window, "empty");

  /* The row follows the client's index-progress signal, whoever started the job. */
  g_signal_emit_by_name (client, "index-progress", fixture->root, "indexing", 1, 4);
  g_assert_cmpuint (g_list_model_get_n_items (projects), ==, 1);
  item = g_list_model_get_item (projects, 0);
  g_assert_cmpstr (lode_project_item_get_root (item), ==, fixture->root);
  g_assert_true (lode_project_item_get_indexing (item));
  g_assert_cmpfloat (lode_project_item_get_fraction (item), ==, 0.25);
  g_assert_cmpstr (lode_project_item_get_summary (item), ==, "Indexing: 1 of 4 files");

  /* The daemon indexes the folder; its progress runs to the end, and the row shows the
   * index. */
  lode_projects_page_add_folder (page, folder);
  wait_until (item_finished, item, "indexing to finish");
  g_assert_cmpstr (lode_project_item_get_state (item), ==, "ready");
  g_object_get (item, "files", &files, NULL);
  g_assert_cmpuint (files, ==, 3);
  g_assert_true (g_str_has_prefix (lode_project_item_get_summary (item), "Ready · 3 files ("));
  g_assert_nonnull (strstr (lode_project_item_get_summary (item), " vectors · index "));
  screenshot (window, "projects");

  /* Search: the definition is listed first, with its place, kind and snippet. */
  lode_window_search (LODE_WINDOW (window), "parse_widget_config");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "search");
  wait_until (has_search_row, window, "a search result");
  row = LODE_SEARCH_ROW (find_widget (window, LODE_TYPE_SEARCH_ROW, 0));
  g_assert_cmpstr (lode_search_row_get_path (row), ==, source);
  g_assert_cmpuint (lode_search_row_get_line (row), ==, 3);
  g_assert_true (has_label (GTK_WIDGET (row), "src/widget.c:3"));
  g_assert_true (has_label (GTK_WIDGET (row), "function parse_widget_config"));
  screenshot (window, "search");

  /* Activating it opens the file at the line in the user's editor. */
  gtk_widget_activate (GTK_WIDGET (row));
  wait_until (file_exists, launch_log, "the editor to start");
  g_file_get_contents (launch_log, &launched, NULL, &error);
  g_assert_no_error (error);
  expected = g_strdup_printf ("+3\n%s\n", source);
  g_assert_cmpstr (launched, ==, expected);

  /* The path filter (the second entry below the query, after the language's) goes to
   * codebase_search's fileFilter: only the header is left. */
  {
    GtkWidget *search = find_widget (window, LODE_TYPE_SEARCH_PAGE, 0);
    g_autoptr(GPtrArray) entries = g_ptr_array_new ();
    gpointer header[2] = { search, (gpointer) "/src/widget.h" };

    collect_widgets (search, GTK_TYPE_ENTRY, entries);
    g_assert_cmpuint (entries->len, ==, 2);
    gtk_editable_set_text (GTK_EDITABLE (entries->pdata[1]), "*.h");
    g_signal_emit_by_name (entries->pdata[1], "activate");
    wait_until (first_result_in, header, "the filtered results");
    g_assert_true (has_label_prefix (search, "1 result, lexical search — "));
    gtk_editable_set_text (GTK_EDITABLE (entries->pdata[1]), "");
  }

  /* The import graph: the cycle, the hubs, and a file's neighbours. */
  adw_view_stack_set_visible_child_name (stack, "graph");
  wait_for_row (graph, "src/config.h → src/widget.h → src/config.h");
  wait_for_row (graph, "src/widget.h");
  lode_graph_page_show_file (LODE_GRAPH_PAGE (graph), "src/widget.h");
  wait_for_row (graph, "config.h");
  wait_for_row (graph, "src/widget.c");
  screenshot (window, "graph");

  /* The provider is off in this run, which is the default, not a fault: the page says so. */
  adw_view_stack_set_visible_child_name (stack, "models");
  wait_for_row (models, "Semantic search is off");
  g_assert_false (has_row (models, "Not answering"));
  g_assert_true (has_row (models, "bge-small-en-v1.5"));
  screenshot (window, "models");
}

static LodeProjectItem *
find_project (GListModel *projects,
              const char *root)
{
  for (guint i = 0; i < g_list_model_get_n_items (projects); i++)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (projects, i);

      if (g_str_equal (lode_project_item_get_root (item), root))
        return item;
    }

  return NULL;
}

static gboolean
project_listed (gpointer data)
{
  return find_project (((gpointer *) data)[0], ((gpointer *) data)[1]) != NULL;
}

static gboolean
project_gone (gpointer data)
{
  return !project_listed (data);
}

static gboolean
item_watched (gpointer data)
{
  return lode_project_item_get_watched (data);
}

static GtkWidget *
message_dialog (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (ADW_IS_MESSAGE_DIALOG (toplevel))
        return GTK_WIDGET (toplevel);
    }

  return NULL;
}

static gboolean
has_message_dialog (gpointer data)
{
  return message_dialog () != NULL;
}

/* Watching, indexing again and removing a project, each through the daemon; removing asks
 * first and leaves the folder's files alone. */
static void
test_manage (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GListModel *projects = lode_projects_page_get_model (page);
  g_autofree char *root = g_build_filename (tmp, "gadgets", NULL);
  g_autofree char *source = g_build_filename (root, "gadget.py", NULL);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(LodeProjectItem) item = NULL;
  gpointer listed[2] = { projects, root };

  write_file_with_mode (source, "def make_gadget(name):\n    return {'name': name}\n", 0644);
  folder = g_file_new_for_path (root);
  lode_projects_page_add_folder (page, folder);
  wait_until (project_listed, listed, "the new project");
  item = g_object_ref (find_project (projects, root));
  wait_until (item_finished, item, "indexing to finish");
  g_assert_false (lode_project_item_get_watched (item));

  gtk_widget_activate_action (GTK_WIDGET (page), "project.watch", "(sb)", root, TRUE);
  wait_until (item_watched, item, "the daemon to watch the project");

  gtk_widget_activate_action (GTK_WIDGET (page), "project.reindex", "s", root);
  g_assert_true (lode_project_item_get_indexing (item));
  wait_until (item_finished, item, "indexing again to finish");

  gtk_widget_activate_action (GTK_WIDGET (page), "project.remove", "s", root);
  wait_until (has_message_dialog, NULL, "the confirmation");
  adw_message_dialog_response (ADW_MESSAGE_DIALOG (message_dialog ()), "remove");
  wait_until (project_gone, listed, "the project's row to go");
  g_assert_true (g_file_test (source, G_FILE_TEST_IS_REGULAR));
}

/* A label below @widget whose text contains @text, or NULL. */
static GtkLabel *
find_label (GtkWidget  *widget,
            const char *text)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkLabel *found;

      if (GTK_IS_LABEL (child) && strstr (gtk_label_get_text (GTK_LABEL (child)), text) != NULL)
        return GTK_LABEL (child);
      found = find_label (child, text);
      if (found != NULL)
        return found;
    }

  return NULL;
}

/* A page's error reaches the user as a toast of its window, with what failed and why. */
static void
test_error_toast (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  /* No VFS module handles this scheme: the file has no local path. */
  g_autoptr(GFile) remote = g_file_new_for_uri ("lode-test://example.org/widgets");

  g_assert_null (find_label (window, "Cannot add the folder"));
  lode_projects_page_add_folder (page, remote);
  g_assert_nonnull (find_label (window,
                                "Cannot add the folder: Only local folders can be indexed"));
}

/* The app in French (meson's gtk-fr test runs this with LANGUAGE=fr and the build tree's
 * catalogs): the window, a project's row and a search, as a French-speaking user sees them. */
static void
test_french (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *search = find_widget (window, LODE_TYPE_SEARCH_PAGE, 0);
  GListModel *projects = lode_projects_page_get_model (page);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  AdwViewStackPage *search_page = adw_view_stack_get_page (stack, search);
  g_autoptr(GFile) folder = g_file_new_for_path (fixture->root);
  g_autoptr(LodeProjectItem) item = NULL;
  gpointer listed[2] = { projects, fixture->root };

  if (g_strcmp0 (g_dgettext (GETTEXT_PACKAGE, "Ready"), "Ready") == 0)
    {
      g_test_skip ("Not in French (the gtk-fr test runs this with LANGUAGE=fr)");
      return;
    }

  g_assert_cmpstr (adw_view_stack_page_get_title (search_page), ==, "_Recherche");
  g_assert_true (has_label (window, "Aucun projet"));
  screenshot (window, "empty-fr");

  lode_projects_page_add_folder (page, folder);
  wait_until (project_listed, listed, "the project's row");
  item = g_object_ref (find_project (projects, fixture->root));
  wait_until (item_finished, item, "indexing to finish");
  g_assert_true (g_str_has_prefix (lode_project_item_get_summary (item),
                                   "Prêt · 3 fichiers ("));
  g_assert_nonnull (strstr (lode_project_item_get_summary (item), " 0 vecteur · index "));
  screenshot (window, "projects-fr");

  lode_window_search (LODE_WINDOW (window), "parse_widget_config");
  wait_until (has_search_row, window, "a search result");
  g_assert_true (has_label_prefix (search, "2 résultats, recherche lexicale — "));
  screenshot (window, "search-fr");
}

/* A model server that sends the first 400 bytes of config.json and then nothing more (the
 * connection is kept open until the test ends), or that has no such model. */
static GPtrArray *stalled;

static void
model_handler (MockServer        *server,
               SoupServerMessage *message,
               const char        *path,
               const char        *body,
               guint              index,
               gpointer           user_data)
{
  gboolean *missing = user_data;
  g_autoptr(GIOStream) stream = NULL;
  char head[] = "HTTP/1.1 200 OK\r\nContent-Length: 743\r\n\r\n";
  char part[400];

  if (*missing)
    {
      mock_reply (message, SOUP_STATUS_NOT_FOUND, "text/plain", "Entry not found", 15);
      return;
    }

  memset (part, '{', sizeof part);
  stream = soup_server_message_steal_connection (message);
  g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (stream), head,
                                            strlen (head), NULL, NULL, NULL));
  g_assert_true (g_output_stream_write_all (g_io_stream_get_output_stream (stream), part,
                                            sizeof part, NULL, NULL, NULL));
  g_ptr_array_add (stalled, g_steal_pointer (&stream));
}

static gboolean
download_started (gpointer data)
{
  GtkWidget *models = data;
  GtkProgressBar *bar = GTK_PROGRESS_BAR (find_widget (models, GTK_TYPE_PROGRESS_BAR, 0));

  return gtk_progress_bar_get_fraction (bar) > 0.0;
}

static gboolean
download_idle (gpointer data)
{
  GtkStack *stack = GTK_STACK (find_widget (data, GTK_TYPE_STACK, 0));

  return g_strcmp0 (gtk_stack_get_visible_child_name (stack), "download") == 0;
}

static gboolean
logged (gpointer data)
{
  return strstr (log_text->str, data) != NULL;
}

/* The built-in model's download shows its progress and stops when cancelled; a server
 * without the model is an error the page shows. */
static void
test_model_download (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  GtkWidget *models = find_widget (window, LODE_TYPE_MODELS_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  gboolean missing = FALSE;
  g_autoptr(MockServer) server = mock_server_new (model_handler, &missing);
  g_autofree char *part = NULL;
  g_autofree char *model_dir = lode_models_dup_model_dir ("bge-small-en-v1.5");

  stalled = g_ptr_array_new_with_free_func (g_object_unref);
  g_setenv ("LODE_HF_ENDPOINT", server->url, TRUE);
  adw_view_stack_set_visible_child_name (stack, "models");
  g_assert_true (download_idle (models));

  gtk_widget_activate_action (models, "models.download", NULL);
  wait_until (download_started, models, "the download's progress");
  g_assert_true (g_str_has_prefix (mock_server_get_request (server, 0)->path,
                                   "/BAAI/bge-small-en-v1.5/resolve/"));
  g_assert_true (g_str_has_suffix (mock_server_get_request (server, 0)->path, "/config.json"));
  g_assert_true (has_label (models, "_Cancel") || has_label (models, "Cancel"));
  screenshot (window, "models-download");

  gtk_widget_activate_action (models, "models.cancel", NULL);
  wait_until (download_idle, models, "the download to stop");
  /* What arrived is kept for the next download to resume; nothing is installed. */
  part = g_build_filename (model_dir, "config.json.part", NULL);
  g_assert_true (g_file_test (part, G_FILE_TEST_EXISTS));
  g_assert_null (lode_models_find_installed ("bge-small-en-v1.5"));
  g_assert_null (strstr (log_text->str, "Cannot download the model"));

  missing = TRUE;
  gtk_widget_activate_action (models, "models.download", NULL);
  wait_until (logged, (gpointer) "Cannot download the model: ", "the download's error");
  wait_until (download_idle, models, "the download to end");

  g_unsetenv ("LODE_HF_ENDPOINT");
  g_clear_pointer (&stalled, g_ptr_array_unref);
}

/* The query's identifiers and their parts are highlighted, whatever their case; the rest of
 * the snippet is escaped, and it is cut after eight lines. */
static void
test_snippet_markup (void)
{
  g_autofree char *markup = NULL;
  g_autofree char *long_markup = NULL;

  markup = lode_search_snippet_markup ("int parseWidget (Config *c); /* <b> & */", "parse_widget");
  g_assert_cmpstr (markup, ==,
                   "int <span weight=\"bold\" background=\"#f6d32d\" bgalpha=\"40%\">parse</span>"
                   "<span weight=\"bold\" background=\"#f6d32d\" bgalpha=\"40%\">Widget</span> "
                   "(Config *c); /* &lt;b&gt; &amp; */");

  long_markup = lode_search_snippet_markup ("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "zz");
  g_assert_cmpstr (long_markup, ==, "a\nb\nc\nd\ne\nf\ng\nh\n…");
}

static GtkWidget *
preferences_window (void)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GObject) toplevel = g_list_model_get_item (toplevels, i);

      if (LODE_IS_PREFERENCES_WINDOW (toplevel))
        return GTK_WIDGET (toplevel);
    }

  return NULL;
}

static gboolean
has_preferences (gpointer data)
{
  return preferences_window () != NULL;
}

static gboolean
row_shows (gpointer data)
{
  return has_label (((gpointer *) data)[0], ((gpointer *) data)[1]);
}

/* Waits until the key row says whether a key is stored. */
static void
wait_for_label (GtkWidget  *row,
                const char *expected)
{
  gpointer data[2] = { row, (gpointer) expected };

  wait_until (row_shows, data, expected);
}

static void
lookup_cb (GObject      *object,
           GAsyncResult *result,
           gpointer      user_data)
{
  char **secret = user_data;
  g_autoptr(GError) error = NULL;

  *secret = lode_secret_lookup_finish (result, &error);
  g_assert_no_error (error);
  if (*secret == NULL)
    *secret = g_strdup ("");
}

static gboolean
is_set (gpointer data)
{
  return *(char **) data != NULL;
}

static char *
lookup_key (void)
{
  char *secret = NULL;

  lode_secret_lookup_async ("openai", NULL, lookup_cb, &secret);
  wait_until (is_set, &secret, "the keyring's answer");
  return secret;
}

static void
embeddings_handler (MockServer        *server,
                    SoupServerMessage *message,
                    const char        *path,
                    const char        *body,
                    guint              index,
                    gpointer           user_data)
{
  mock_reply_json (message, SOUP_STATUS_OK,
                   "{\"object\":\"list\",\"data\":[{\"object\":\"embedding\",\"index\":0,"
                   "\"embedding\":[0.6,0.8]}],\"model\":\"text-embedding-3-small\"}");
}

static void
remote_ready_cb (GObject      *object,
                 GAsyncResult *result,
                 gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/* The OpenAI provider, built the way the daemon builds it, sends the stored key. */
static void
check_provider_sends_key (void)
{
  g_autoptr(MockServer) server = mock_server_new (embeddings_handler, NULL);
  g_autoptr(GAsyncResult) result = NULL;
  g_autoptr(LodeEmbedder) embedder = NULL;
  g_autoptr(LodeEmbeddings) embeddings = NULL;
  g_autoptr(GError) error = NULL;
  const char *texts[] = { "parse the widget configuration", NULL };

  lode_remote_embedder_new_async ("openai", server->url, NULL, NULL, remote_ready_cb, &result);
  wait_until (is_set, &result, "the OpenAI provider");
  embedder = lode_remote_embedder_new_finish (result, &error);
  g_assert_no_error (error);

  /* Asynchronously: the loopback server answers on this thread's main context. */
  g_clear_object (&result);
  lode_embedder_embed_async (embedder, texts, LODE_EMBED_DOCUMENT, NULL, remote_ready_cb,
                             &result);
  wait_until (is_set, &result, "the embeddings");
  embeddings = lode_embedder_embed_finish (embedder, result, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (embeddings->n_vectors, ==, 1);
  g_assert_cmpuint (server->requests->len, ==, 1);
  g_assert_cmpstr (mock_server_get_request (server, 0)->authorization, ==, "Bearer " API_KEY);
}

static void
assert_not_in_settings (GSettings *settings)
{
  g_autoptr(GSettingsSchema) schema = NULL;
  g_auto(GStrv) keys = NULL;

  g_object_get (settings, "settings-schema", &schema, NULL);
  keys = g_settings_schema_list_keys (schema);
  for (guint i = 0; keys[i] != NULL; i++)
    {
      g_autoptr(GVariant) value = g_settings_get_value (settings, keys[i]);
      g_autofree char *text = g_variant_print (value, FALSE);

      g_assert_null (strstr (text, API_KEY));
    }
}

static void
test_preferences_secret (Fixture       *fixture,
                         gconstpointer  data)
{
  GtkWidget *preferences;
  GtkWidget *key_row;
  g_autofree char *before = NULL;
  g_autofree char *stored = NULL;
  g_autofree char *cleared = NULL;

  g_setenv ("LODE_OPENAI_API_KEY", "", TRUE);
  g_unsetenv ("LODE_OPENAI_API_KEY");
  g_unsetenv ("OPENAI_API_KEY");

  before = lookup_key ();
  g_assert_cmpstr (before, ==, "");

  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "preferences", NULL);
  wait_until (has_preferences, NULL, "the Preferences window");
  preferences = preferences_window ();
  key_row = find_widget (preferences, ADW_TYPE_PASSWORD_ENTRY_ROW, 0);
  g_assert_nonnull (key_row);
  wait_for_label (key_row, "Not set");

  /* Typed and applied, as a user does with Enter. */
  gtk_editable_set_text (GTK_EDITABLE (key_row), API_KEY);
  g_signal_emit_by_name (key_row, "apply");
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (key_row)), ==, "");
  wait_for_label (key_row, "Stored in the keyring");
  screenshot (preferences, "preferences");

  stored = lookup_key ();
  g_assert_cmpstr (stored, ==, API_KEY);
  check_provider_sends_key ();

  /* Never shown back, never in a setting, never logged. */
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (key_row)), ==, "");
  assert_not_in_settings (lode_application_get_settings (fixture->app));
  g_assert_null (strstr (log_text->str, API_KEY));

  gtk_widget_activate_action (preferences, "key.clear", "s", "openai");
  wait_for_label (key_row, "Not set");
  cleared = lookup_key ();
  g_assert_cmpstr (cleared, ==, "");
  gtk_window_destroy (GTK_WINDOW (preferences));
}

static gboolean
is_laid_out (gpointer data)
{
  GtkAdjustment *adjustment = gtk_scrolled_window_get_vadjustment (data);

  return gtk_widget_get_mapped (data) &&
         gtk_adjustment_get_upper (adjustment) > gtk_adjustment_get_page_size (adjustment);
}

/* Scrolls @widget's scrolled window so that @widget's group is at the top, once shown and
 * laid out. */
static void
scroll_to (GtkWidget *widget)
{
  GtkWidget *scrolled = gtk_widget_get_ancestor (widget, GTK_TYPE_SCROLLED_WINDOW);
  GtkWidget *group = gtk_widget_get_ancestor (widget, ADW_TYPE_PREFERENCES_GROUP);
  graphene_point_t point;

  g_assert_nonnull (scrolled);
  g_assert_nonnull (group);
  wait_until (is_laid_out, scrolled, "the page to be laid out");
  g_assert_true (gtk_widget_compute_point (group,
                                           gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled)),
                                           &GRAPHENE_POINT_INIT (0, 0), &point));
  gtk_adjustment_set_value (gtk_scrolled_window_get_vadjustment (GTK_SCROLLED_WINDOW (scrolled)),
                            point.y);
}

/* The store and the Qdrant collection settings: each control changes its GSettings key (the
 * daemon's), follows a change made elsewhere, and the Qdrant rows are sensitive only while
 * the store is Qdrant. */
static void
test_preferences_store (Fixture       *fixture,
                        gconstpointer  data)
{
  GSettings *settings = lode_application_get_settings (fixture->app);
  GtkWidget *preferences;
  GtkWidget *store_row;
  GtkWidget *url_row;
  GtkWidget *shards_row;
  GtkWidget *replicas_row;
  GtkWidget *shards_spin;
  GtkWidget *replicas_spin;
  g_autofree char *store = NULL;

  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "preferences", NULL);
  wait_until (has_preferences, NULL, "the Preferences window");
  preferences = preferences_window ();
  /* By their titles in the language the test runs in. */
  store_row = find_row (preferences, _("_Store"));
  url_row = find_row (preferences, _("_Qdrant URL"));
  shards_row = find_row (preferences, _("S_hards of new collections"));
  replicas_row = find_row (preferences, _("_Copies of each shard"));
  g_assert_nonnull (store_row);
  g_assert_nonnull (url_row);
  g_assert_nonnull (shards_row);
  g_assert_nonnull (replicas_row);
  shards_spin = find_widget (shards_row, GTK_TYPE_SPIN_BUTTON, 0);
  replicas_spin = find_widget (replicas_row, GTK_TYPE_SPIN_BUTTON, 0);
  g_assert_nonnull (shards_spin);
  g_assert_nonnull (replicas_spin);

  /* The default: SQLite, the Qdrant rows greyed out. */
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (store_row)), ==, 0);
  g_assert_false (gtk_widget_get_sensitive (url_row));
  g_assert_false (gtk_widget_get_sensitive (shards_row));
  g_assert_false (gtk_widget_get_sensitive (replicas_row));

  adw_combo_row_set_selected (ADW_COMBO_ROW (store_row), 1);
  store = g_settings_get_string (settings, "store");
  g_assert_cmpstr (store, ==, "qdrant");
  g_assert_true (gtk_widget_get_sensitive (url_row));
  g_assert_true (gtk_widget_get_sensitive (shards_row));
  g_assert_true (gtk_widget_get_sensitive (replicas_row));

  gtk_spin_button_set_value (GTK_SPIN_BUTTON (shards_spin), 6);
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (replicas_spin), 2);
  g_assert_cmpuint (g_settings_get_uint (settings, "qdrant-shard-number"), ==, 6);
  g_assert_cmpuint (g_settings_get_uint (settings, "qdrant-replication-factor"), ==, 2);
  scroll_to (store_row);
  screenshot (preferences, "preferences-store");

  /* A change from elsewhere (lode, dconf) shows. */
  g_settings_set_uint (settings, "qdrant-replication-factor", 3);
  g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (replicas_spin)), ==, 3);
  g_settings_set_string (settings, "store", "sqlite");
  g_assert_cmpuint (adw_combo_row_get_selected (ADW_COMBO_ROW (store_row)), ==, 0);
  g_assert_false (gtk_widget_get_sensitive (shards_row));

  g_settings_reset (settings, "store");
  g_settings_reset (settings, "qdrant-shard-number");
  g_settings_reset (settings, "qdrant-replication-factor");
  gtk_window_destroy (GTK_WINDOW (preferences));
}

int
main (int   argc,
      char *argv[])
{
  int status;

  /* As the app's main() does: the user's language, here from the build tree's catalogs when
   * the gtk-fr test asks for French. */
  lode_locale_init ();
  g_test_init (&argc, &argv, NULL);

  if (g_getenv ("DISPLAY") == NULL && g_getenv ("WAYLAND_DISPLAY") == NULL)
    {
      g_test_skip ("No display (run under xvfb-run)");
      return g_test_run ();
    }

  g_test_add_func ("/lode/gtk/snippet-markup", test_snippet_markup);

  log_text = g_string_new (NULL);
  g_log_set_writer_func (log_writer, log_text, NULL);
  start_services ();

#define ADD(name, func) \
  g_test_add ("/lode/gtk/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("acceptance", test_acceptance);
  ADD ("manage", test_manage);
  ADD ("error-toast", test_error_toast);
  ADD ("model-download", test_model_download);
  ADD ("french", test_french);
  ADD ("preferences-secret", test_preferences_secret);
  ADD ("preferences-store", test_preferences_store);
#undef ADD

  status = g_test_run ();
  stop_services ();
  return status;
}
