/* test-gtk.c — lode-gtk under Xvfb, against a test loded and a real gnome-keyring-daemon
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gi18n.h>
#include <fcntl.h>
#include <glib/gstdio.h>
#include <string.h>
#include <sys/file.h>
#include <unistd.h>

#include "lode.h"
#include "lode-application.h"
#include "lode-format.h"
#include "lode-code-preview.h"
#include "lode-graph-model.h"
#include "lode-graph-page.h"
#include "lode-graph-view.h"
#include "lode-models-page.h"
#include "lode-preferences-window.h"
#include "lode-project-item.h"
#include "lode-projects-page.h"
#include "lode-remote-embedder.h"
#include "lode-search-page.h"
#include "lode-search-row.h"
#include "lode-secret.h"
#include "lode-symbol-page.h"
#include "lode-toast.h"
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
/* A window as narrow as the widest page allows (the Graph page's 661 pixels, with the
 * window's frame). */
#define NARROW_WIDTH 700

typedef struct
{
  LodeApplication *app;
  char            *root;
} Fixture;

/* Every message logged in this process, to check that no secret is among them. */
static GString *log_text;
/* Where the current test's log starts: earlier tests' messages are not its own. */
static gsize log_start;
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

static gboolean
set_flag_cb (gpointer user_data)
{
  *(gboolean *) user_data = TRUE;
  return G_SOURCE_REMOVE;
}

static gboolean
flag_set (gpointer data)
{
  return *(gboolean *) data;
}

/* Lets @msec pass, the main loop running: an animation ends. */
static void
wait_msec (guint msec)
{
  gboolean done = FALSE;

  g_timeout_add (msec, set_flag_cb, &done);
  wait_until (flag_set, &done, "time to pass");
}

/* The calls this process makes on the bus (the app's to loded among them) and their answers,
 * counted by a filter on GDBus's worker thread from the start of the run. The probe is
 * wait_for_answers()'s call to the bus itself. */
static struct
{
  GMutex           lock;
  GDBusConnection *bus;         /* the shared one, held: let go, the next would have no filter */
  GHashTable      *waiting;     /* serials of the calls without an answer yet */
  guint            n_sent;
  guint            filter;
  guint32          probe;       /* its serial, 0 when none is out */
  gboolean         probe_clean; /* no other call waited when its answer came */
  guint            probe_sent;  /* n_sent when its answer came */
} calls;

/* Runs on GDBus's worker thread, for a message on its way out as it is sent, and for one that
 * comes in before it is handed over. */
static GDBusMessage *
count_calls_filter (GDBusConnection *connection,
                    GDBusMessage    *message,
                    gboolean         incoming,
                    gpointer         user_data)
{
  GDBusMessageType type = g_dbus_message_get_message_type (message);
  guint32 serial;

  g_mutex_lock (&calls.lock);
  if (!incoming && type == G_DBUS_MESSAGE_TYPE_METHOD_CALL &&
      !(g_dbus_message_get_flags (message) & G_DBUS_MESSAGE_FLAGS_NO_REPLY_EXPECTED))
    {
      serial = g_dbus_message_get_serial (message);
      g_hash_table_add (calls.waiting, GUINT_TO_POINTER (serial));
      calls.n_sent++;
      if (g_strcmp0 (g_dbus_message_get_destination (message), "org.freedesktop.DBus") == 0 &&
          g_strcmp0 (g_dbus_message_get_member (message), "GetId") == 0)
        calls.probe = serial;
    }
  else if (incoming && (type == G_DBUS_MESSAGE_TYPE_METHOD_RETURN ||
                        type == G_DBUS_MESSAGE_TYPE_ERROR))
    {
      serial = g_dbus_message_get_reply_serial (message);
      g_hash_table_remove (calls.waiting, GUINT_TO_POINTER (serial));
      if (serial == calls.probe)
        {
          calls.probe_clean = g_hash_table_size (calls.waiting) == 0;
          calls.probe_sent = calls.n_sent;
        }
    }
  g_mutex_unlock (&calls.lock);

  return message;
}

static gboolean
no_call_waiting (gpointer data)
{
  gboolean none;

  g_mutex_lock (&calls.lock);
  none = g_hash_table_size (calls.waiting) == 0;
  g_mutex_unlock (&calls.lock);
  return none;
}

static void
probe_cb (GObject      *object,
          GAsyncResult *result,
          gpointer      user_data)
{
  g_autoptr(GDBusMessage) reply = NULL;
  g_autoptr(GError) error = NULL;

  reply = g_dbus_connection_send_message_with_reply_finish (G_DBUS_CONNECTION (object), result,
                                                            &error);
  g_assert_no_error (error);
  *(gboolean *) user_data = TRUE;
}

/* Sends the probe; returns whether no other call waited when its answer came, and how many
 * calls had been made by then. */
static gboolean
probe (GDBusConnection *bus,
       guint           *n_sent)
{
  g_autoptr(GDBusMessage) message = NULL;
  gboolean answered = FALSE;
  gboolean clean;

  message = g_dbus_message_new_method_call ("org.freedesktop.DBus", "/org/freedesktop/DBus",
                                            "org.freedesktop.DBus", "GetId");
  g_dbus_connection_send_message_with_reply (bus, message, G_DBUS_SEND_MESSAGE_FLAGS_NONE, -1,
                                             NULL, NULL, probe_cb, &answered);
  wait_until (flag_set, &answered, "the bus to answer");

  g_mutex_lock (&calls.lock);
  clean = calls.probe_clean;
  *n_sent = calls.probe_sent;
  calls.probe = 0;
  calls.probe_clean = FALSE;
  g_mutex_unlock (&calls.lock);
  return clean;
}

/* Waits until every call made on the bus has its answer, taken by the code that waited for
 * it, and that code asked nothing more. Calls go out in order, and GDBus hands the answers
 * over in the order they came: when a probe comes back with no other call waiting, every
 * call made before it was answered, and those answers are taken before the probe's. When a
 * second probe, sent after that, finds the same and no call made in between, the code that
 * took them asked for nothing more. */
static void
wait_for_answers (void)
{
  gboolean clean = FALSE;
  guint n_sent = 0;

  for (;;)
    {
      gboolean was_clean = clean;
      guint was_sent = n_sent;

      wait_until (no_call_waiting, NULL, "the answers to the calls made");
      clean = probe (calls.bus, &n_sent);
      if (was_clean && clean && n_sent == was_sent + 1)
        return;
    }
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
  /* Four files, two of which import each other. */
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
  write_file_with_mode (source, "#pragma once\n#include \"widget.h\"\n\n#define WIDGET_MAX 8\n", 0644);
  g_free (source);
  /* Two steps from widget.h, through config.h. */
  source = g_build_filename (fixture->root, "src", "app.c", NULL);
  write_file_with_mode (source, "#include \"config.h\"\n\nint\nmain (void)\n{\n  return WIDGET_MAX;\n}\n",
              0644);
  /* The system's icons, as on a desktop. */
  g_setenv ("XDG_DATA_DIRS", "/usr/local/share:/usr/share", TRUE);

  /* One app per process, like the bus: it is registered on it for good. */
  if (app == NULL)
    {
      /* The app owns its name on the bus: loded activates its actions there
       * (codebase_graph_visualize's interactive mode). */
      app = lode_application_new ();
      g_application_register (G_APPLICATION (app), NULL, &error);
      g_assert_no_error (error);
    }
  fixture->app = app;
  log_start = log_text->len;
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

  calls.bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  calls.waiting = g_hash_table_new (NULL, NULL);
  calls.filter = g_dbus_connection_add_filter (calls.bus, count_calls_filter, NULL, NULL);
}

static void
stop_services (void)
{
  /* The filter may run once more after its removal: its table stays. */
  g_dbus_connection_remove_filter (calls.bus, calls.filter);
  g_clear_object (&calls.bus);
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

/* Where screenshots go: $LODE_SCREENSHOT_DIR, or the build directory's screenshots/. */
static char *
screenshot_dir (void)
{
  const char *dir = g_getenv ("LODE_SCREENSHOT_DIR");
  char *path = dir != NULL ? g_strdup (dir)
                           : g_test_build_filename (G_TEST_BUILT, "screenshots", NULL);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
  return path;
}

/* Renders @window as the user sees it, after it has drawn a few frames. */
static void
screenshot (GtkWidget  *window,
            const char *name)
{
  g_autofree char *dir = screenshot_dir ();
  g_autofree char *file = g_strconcat (name, ".png", NULL);
  g_autofree char *path = NULL;
  g_autoptr(GdkPaintable) paintable = NULL;
  g_autoptr(GskRenderNode) node = NULL;
  g_autoptr(GdkTexture) texture = NULL;
  GtkSnapshot *snapshot;
  guint frames = 0;
  guint tick;
  int width, height;

  /* Switchers and toasts animate for a few hundred milliseconds. */
  wait_msec (400);
  tick = gtk_widget_add_tick_callback (window, count_frame_cb, &frames, NULL);
  gtk_widget_queue_draw (window);
  wait_until (frames_drawn, &frames, "the window to draw");
  gtk_widget_remove_tick_callback (window, tick);

  width = gtk_widget_get_width (window);
  height = gtk_widget_get_height (window);
  g_assert_cmpint (width, >, 0);

  /* A window drawing its first frames may have nothing to show yet: a few frames more. */
  paintable = gtk_widget_paintable_new (window);
  for (guint attempt = 0; node == NULL && attempt < 20; attempt++)
    {
      snapshot = gtk_snapshot_new ();
      gdk_paintable_snapshot (paintable, snapshot, width, height);
      node = gtk_snapshot_free_to_node (snapshot);
      if (node == NULL)
        wait_msec (100);
    }
  g_assert_nonnull (node);
  texture = gsk_renderer_render_texture (gtk_native_get_renderer (GTK_NATIVE (window)), node,
                                         &GRAPHENE_RECT_INIT (0, 0, width, height));

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
shows_label_prefix (gpointer data)
{
  return has_label_prefix (((gpointer *) data)[0], ((gpointer *) data)[1]);
}

static void
wait_for_label_prefix (GtkWidget  *widget,
                       const char *prefix)
{
  gpointer data[2] = { widget, (gpointer) prefix };

  wait_until (shows_label_prefix, data, prefix);
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

static void check_builtin_health (GtkWidget *models);

static gboolean
preview_shows (gpointer data)
{
  LodeCodePreview *preview = ((gpointer *) data)[0];

  return lode_code_preview_get_loaded (preview) &&
         g_strcmp0 (lode_code_preview_get_path (preview), ((gpointer *) data)[1]) == 0;
}

/* Waits until @preview shows the file @path. */
static void
wait_for_preview (LodeCodePreview *preview,
                  const char      *path)
{
  gpointer data[2] = { preview, (gpointer) path };

  wait_until (preview_shows, data, path);
}

static char *
marked_lines (LodeCodePreview *preview)
{
  g_autoptr(GArray) lines = lode_code_preview_dup_marked_lines (preview);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < lines->len; i++)
    g_string_append_printf (out, "%s%u", i > 0 ? " " : "", g_array_index (lines, guint, i));
  return g_string_free (out, FALSE);
}

/* Presses @keyval as @widget's key controller of @phase sees it. */
static gboolean
press_key (GtkWidget           *widget,
           GtkPropagationPhase  phase,
           guint                keyval)
{
  g_autoptr(GListModel) controllers = gtk_widget_observe_controllers (widget);
  gboolean handled = FALSE;

  for (guint i = 0; i < g_list_model_get_n_items (controllers); i++)
    {
      g_autoptr(GtkEventController) controller = g_list_model_get_item (controllers, i);

      if (GTK_IS_EVENT_CONTROLLER_KEY (controller) &&
          gtk_event_controller_get_propagation_phase (controller) == phase)
        {
          g_signal_emit_by_name (controller, "key-pressed", keyval, 0, 0, &handled);
          return handled;
        }
    }

  g_assert_not_reached ();
}

static const char *
selected_result (GtkWidget *search)
{
  g_autoptr(GPtrArray) lists = g_ptr_array_new ();

  collect_widgets (search, GTK_TYPE_LIST_BOX, lists);
  for (guint i = 0; i < lists->len; i++)
    {
      GtkListBoxRow *row = gtk_list_box_get_selected_row (lists->pdata[i]);

      if (row != NULL && LODE_IS_SEARCH_ROW (row))
        return lode_search_row_get_relative_path (LODE_SEARCH_ROW (row));
    }

  return NULL;
}

/* The first widget of @type under @widget, outside pop-overs (a drop-down's own search). */
static GtkWidget *
find_shown (GtkWidget *widget,
            GType      type)
{
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    {
      GtkWidget *found;

      if (GTK_IS_POPOVER (child))
        continue;
      if (G_TYPE_CHECK_INSTANCE_TYPE (child, type))
        return child;
      if ((found = find_shown (child, type)) != NULL)
        return found;
    }

  return NULL;
}

static gboolean
entry_focused (gpointer data)
{
  GtkWidget *focus = gtk_root_get_focus (gtk_widget_get_root (data));


  return focus != NULL && (focus == data || gtk_widget_is_ancestor (focus, data));
}

static gboolean
graph_drawn (gpointer data)
{
  LodeGraphView *view = ((gpointer *) data)[0];
  LodeGraphModel *model = lode_graph_view_get_model (view);

  return model != NULL &&
         g_strcmp0 (lode_graph_model_get_focus (model), ((gpointer *) data)[1]) == 0 &&
         gtk_widget_get_mapped (GTK_WIDGET (view)) && gtk_widget_get_width (GTK_WIDGET (view)) > 0;
}

/* Waits until @view draws the graph around @focus. */
static LodeGraphModel *
wait_for_graph (LodeGraphView *view,
                const char    *focus)
{
  gpointer data[2] = { view, (gpointer) focus };

  wait_until (graph_drawn, data, focus);
  return lode_graph_view_get_model (view);
}

static gboolean
graph_has_node (gpointer data)
{
  LodeGraphModel *model = lode_graph_view_get_model (((gpointer *) data)[0]);

  return model != NULL && lode_graph_model_lookup (model, ((gpointer *) data)[1], NULL);
}

static gboolean
graph_lacks_node (gpointer data)
{
  LodeGraphModel *model = lode_graph_view_get_model (((gpointer *) data)[0]);

  return model != NULL && !lode_graph_model_lookup (model, ((gpointer *) data)[1], NULL);
}

static gboolean
is_reached (gpointer data)
{
  return lode_graph_view_is_reached (((gpointer *) data)[0], ((gpointer *) data)[1]);
}

static const LodeGraphNode *
graph_node (LodeGraphModel *model,
            const char     *key)
{
  guint index;

  g_assert_true (lode_graph_model_lookup (model, key, &index));
  return lode_graph_model_get_node (model, index);
}

static const LodeGraphEdge *
graph_edge (LodeGraphModel *model,
            const char     *from,
            const char     *to)
{
  guint a, b;

  g_assert_true (lode_graph_model_lookup (model, from, &a));
  g_assert_true (lode_graph_model_lookup (model, to, &b));
  for (guint i = 0; i < lode_graph_model_get_n_edges (model); i++)
    {
      const LodeGraphEdge *edge = lode_graph_model_get_edge (model, i);

      if (edge->from == a && edge->to == b)
        return edge;
    }

  return NULL;
}

static void
svg_element (GMarkupParseContext  *context,
             const char           *element,
             const char          **names,
             const char          **values,
             gpointer              user_data,
             GError              **error)
{
  guint *paths = user_data;

  *paths += g_str_equal (element, "path");
}

/* The exported pictures: written, not empty; the PNG loads, the SVG parses. */
static void
check_exports (GtkWidget *graph)
{
  g_autofree char *dir = screenshot_dir ();
  g_autofree char *png_path = g_build_filename (dir, "graph-export.png", NULL);
  g_autofree char *svg_path = g_build_filename (dir, "graph-export.svg", NULL);
  g_autoptr(GFile) png = g_file_new_for_path (png_path);
  g_autoptr(GFile) svg = g_file_new_for_path (svg_path);
  g_autoptr(GdkTexture) texture = NULL;
  g_autoptr(GMarkupParseContext) parser = NULL;
  static const GMarkupParser counter = { svg_element, NULL, NULL, NULL, NULL };
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize length = 0;
  guint paths = 0;

  g_assert_true (lode_graph_page_export (LODE_GRAPH_PAGE (graph), png, FALSE, &error));
  g_assert_no_error (error);
  g_assert_true (lode_graph_page_export (LODE_GRAPH_PAGE (graph), svg, TRUE, &error));
  g_assert_no_error (error);

  texture = gdk_texture_new_from_file (png, &error);
  g_assert_no_error (error);
  g_assert_cmpint (gdk_texture_get_width (texture), >, 200);
  g_assert_cmpint (gdk_texture_get_height (texture), >, 100);

  g_file_get_contents (svg_path, &text, &length, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (length, >, 0);
  parser = g_markup_parse_context_new (&counter, 0, &paths, NULL);
  g_assert_true (g_markup_parse_context_parse (parser, text, length, &error));
  g_assert_true (g_markup_parse_context_end_parse (parser, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (paths, >, 3);
  g_test_message ("Exported: %s, %s", png_path, svg_path);
}

static gboolean
chooser_shown (gpointer data)
{
  GListModel *toplevels = gtk_window_get_toplevels ();

  for (guint i = 0; i < g_list_model_get_n_items (toplevels); i++)
    {
      g_autoptr(GtkWindow) window = g_list_model_get_item (toplevels, i);

      if (GTK_IS_FILE_CHOOSER_DIALOG (window) && gtk_widget_get_visible (GTK_WIDGET (window)))
        {
          *(GtkWindow **) data = window;
          return TRUE;
        }
    }
  return FALSE;
}

/* Whether @chooser would save to the file. */
static gboolean
chooser_at (gpointer data)
{
  g_autoptr(GFile) chosen = gtk_file_chooser_get_file (((gpointer *) data)[0]);

  return chosen != NULL && g_file_equal (chosen, ((gpointer *) data)[1]);
}

/* Activates @action ("png" or "svg") of @widget, as its Export menu does, and answers the file
 * chooser that opens with @name in the screenshots' folder; returns the path written, once
 * the toast says it is saved. The chooser opens in the current folder, which it reads
 * asynchronously: the test goes there first, so that no late read moves the chooser away. */
static char *
export_through_chooser (GtkWidget  *widget,
                        const char *action,
                        const char *format,
                        const char *name)
{
  g_autofree char *dir = screenshot_dir ();
  g_autofree char *saved = g_strdup_printf ("Saved %s", name);
  g_autofree char *cwd = g_get_current_dir ();
  char *path = g_build_filename (dir, name, NULL);
  g_autoptr(GFile) file = g_file_new_for_path (path);
  GtkWindow *chooser = NULL;
  gpointer toast[2] = { gtk_widget_get_root (widget), saved };

  g_unlink (path);
  g_assert_cmpint (g_chdir (dir), ==, 0);
  g_assert_true (gtk_widget_activate_action (widget, action, "s", format));
  wait_until (chooser_shown, &chooser, "the file chooser");
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (chooser), name);
  {
    gpointer at[2] = { chooser, file };

    wait_until (chooser_at, at, "the chooser in the screenshots' folder");
  }
  gtk_dialog_response (GTK_DIALOG (chooser), GTK_RESPONSE_ACCEPT);
  wait_until (shows_label_prefix, toast, saved);
  g_assert_cmpint (g_chdir (cwd), ==, 0);
  g_assert_true (g_file_test (path, G_FILE_TEST_IS_REGULAR));
  return path;
}

/* The acceptance flow: add a project, see its progress reach the end, search it as the
 * query is typed, look at a result's code, open it in the editor; then its import graph
 * drawn and explored, and the provider's health. */
static void
test_acceptance (Fixture       *fixture,
                 gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *search = find_widget (window, LODE_TYPE_SEARCH_PAGE, 0);
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  GtkWidget *models = find_widget (window, LODE_TYPE_MODELS_PAGE, 0);
  GtkWidget *entry = find_shown (search, GTK_TYPE_SEARCH_ENTRY);
  LodeCodePreview *preview = lode_search_page_get_preview (LODE_SEARCH_PAGE (search));
  LodeGraphView *view = lode_graph_page_get_view (LODE_GRAPH_PAGE (graph));
  GListModel *projects = lode_projects_page_get_model (page);
  LodeClient *client = lode_application_get_client (fixture->app);
  GSettings *settings = lode_application_get_settings (fixture->app);
  g_autoptr(GFile) folder = g_file_new_for_path (fixture->root);
  g_autoptr(LodeProjectItem) item = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *launched = NULL;
  g_autofree char *expected = NULL;
  g_autofree char *marks = NULL;
  g_autofree char *source = g_build_filename (fixture->root, "src", "widget.c", NULL);
  g_autofree char *header = g_build_filename (fixture->root, "src", "widget.h", NULL);
  g_autofree char *config = g_build_filename (fixture->root, "src", "config.h", NULL);
  g_auto(GStrv) recent = NULL;
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  static const char *const typed[] = { "p", "pars", "parse_wid", "parse_widget_config" };
  gpointer first_in_widget[2] = { search, (gpointer) "/src/widget.c" };
  gpointer app_c[2] = { view, (gpointer) "src/app.c" };
  LodeGraphModel *model;
  GtkSourceLanguage *language;
  graphene_rect_t before, after;
  guint files = 0;

  g_assert_true (lode_client_is_remote (client));
  screenshot (window, "empty");

  /* With no project, the Graph page says where to add one. */
  adw_view_stack_set_visible_child_name (stack, "graph");
  g_assert_true (has_label (graph, "Add a folder on the Projects page to see its import cycles"));
  g_assert_true (has_label (graph, "Add a folder on the Projects page to see its most connected files"));
  screenshot (window, "graph-no-project");
  adw_view_stack_set_visible_child_name (stack, "projects");

  /* The row follows the client's index-progress signal, whoever started the job. */
  g_signal_emit_by_name (client, "index-progress", fixture->root, "indexing", 1, 4);
  g_assert_cmpuint (g_list_model_get_n_items (projects), ==, 1);
  item = g_list_model_get_item (projects, 0);
  g_assert_cmpstr (lode_project_item_get_root (item), ==, fixture->root);
  g_assert_true (lode_project_item_get_indexing (item));
  g_assert_cmpfloat (lode_project_item_get_fraction (item), ==, 0.25);
  g_assert_cmpstr (lode_project_item_get_summary (item), ==, "Indexing: 1 of 4 files");

  /* The daemon indexes the folder; its progress runs to the end, and the row shows the
   * index. Semantic search is off in this run: no "0 vectors". */
  lode_projects_page_add_folder (page, folder);
  wait_until (item_finished, item, "indexing to finish");
  g_assert_cmpstr (lode_project_item_get_state (item), ==, "ready");
  g_object_get (item, "files", &files, NULL);
  g_assert_cmpuint (files, ==, 4);
  g_assert_true (g_str_has_prefix (lode_project_item_get_summary (item), "Ready · 4 files ("));
  g_assert_null (strstr (lode_project_item_get_summary (item), "vector"));
  g_assert_nonnull (strstr (lode_project_item_get_summary (item), " chunks · index "));
  screenshot (window, "projects");

  /* Search as the query is typed: results come without Enter, the first selected and its
   * code shown beside them, highlighted, the lines with the query's terms marked. */
  g_settings_reset (settings, "recent-queries");
  gtk_widget_activate_action (window, "win.focus-search", NULL);
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "search");
  wait_until (entry_focused, entry, "the search entry to take the keyboard");
  for (guint i = 0; i < G_N_ELEMENTS (typed); i++)
    {
      gtk_editable_set_text (GTK_EDITABLE (entry), typed[i]);
      g_main_context_iteration (NULL, FALSE);
    }
  wait_until (first_result_in, first_in_widget, "results as the query is typed");
  g_assert_cmpstr (selected_result (search), ==, "src/widget.c");
  wait_for_preview (preview, source);
  language = gtk_source_buffer_get_language (lode_code_preview_get_buffer (preview));
  g_assert_nonnull (language);
  g_assert_cmpstr (gtk_source_language_get_id (language), ==, "c");
  marks = marked_lines (preview);
  g_assert_cmpstr (marks, ==, "4");
  wait_for_label_prefix (search, "2 results, lexical search — semantic search is off (Preferences)");
  screenshot (window, "search");

  /* ↓ and ↑ move through the results while typing goes on in the entry; Enter opens the
   * selected result in the user's editor at its line, and the query joins the recent ones. */
  g_assert_true (press_key (entry, GTK_PHASE_CAPTURE, GDK_KEY_Down));
  g_assert_cmpstr (selected_result (search), ==, "src/widget.h");
  wait_for_preview (preview, header);
  g_assert_true (press_key (entry, GTK_PHASE_CAPTURE, GDK_KEY_Up));
  g_assert_cmpstr (selected_result (search), ==, "src/widget.c");
  g_signal_emit_by_name (entry, "activate");
  wait_until (file_exists, launch_log, "the editor to start");
  g_file_get_contents (launch_log, &launched, NULL, &error);
  g_assert_no_error (error);
  expected = g_strdup_printf ("+3\n%s\n", source);
  g_assert_cmpstr (launched, ==, expected);
  recent = g_settings_get_strv (settings, "recent-queries");
  g_assert_cmpstr (recent[0], ==, "parse_widget_config");

  /* The path filter (the second entry below the query, after the language's) goes to
   * codebase_search's fileFilter: only the header is left. */
  {
    g_autoptr(GPtrArray) entries = g_ptr_array_new ();
    gpointer filtered[2] = { search, (gpointer) "/src/widget.h" };

    collect_widgets (search, GTK_TYPE_ENTRY, entries);
    g_assert_cmpuint (entries->len, ==, 2);
    gtk_editable_set_text (GTK_EDITABLE (entries->pdata[1]), "*.h");
    g_signal_emit_by_name (entries->pdata[1], "activate");
    wait_until (first_result_in, filtered, "the filtered results");
    g_assert_true (has_label_prefix (search, "1 result, lexical search — "));
    gtk_editable_set_text (GTK_EDITABLE (entries->pdata[1]), "");
  }

  /* An empty query shows the recent searches. */
  gtk_editable_set_text (GTK_EDITABLE (entry), "");
  wait_for_row (search, "parse_widget_config");
  screenshot (window, "search-recent");

  /* The import graph: the project's cycle, then a file's imports drawn. */
  adw_view_stack_set_visible_child_name (stack, "graph");
  wait_for_row (graph, "src/config.h → src/widget.h → src/config.h");
  g_assert_true (has_label (graph, "2 files in this cycle"));
  screenshot (window, "graph-overview");

  lode_graph_page_show_file (LODE_GRAPH_PAGE (graph), "src/widget.h");
  model = wait_for_graph (view, "src/widget.h");
  g_assert_cmpuint (lode_graph_model_get_n_nodes (model), ==, 3);
  g_assert_true (graph_node (model, "src/widget.h")->in_cycle);
  g_assert_true (graph_node (model, "src/config.h")->in_cycle);
  g_assert_false (graph_node (model, "src/widget.c")->in_cycle);
  g_assert_true (graph_edge (model, "src/widget.h", "src/config.h")->in_cycle);
  g_assert_false (graph_edge (model, "src/widget.c", "src/widget.h")->in_cycle);
  /* Imports point right: the importer's column is left of the imported file's. */
  g_assert_true (lode_graph_view_get_node_bounds (view, "src/widget.c", &before));
  g_assert_true (lode_graph_view_get_node_bounds (view, "src/widget.h", &after));
  g_assert_cmpfloat (before.origin.x + before.size.width, <, after.origin.x);

  /* Selecting a file shows its code; → moves to the file on the right, Home back to the
   * focus. */
  lode_graph_view_select (view, "src/widget.c");
  wait_for_preview (lode_graph_page_get_preview (LODE_GRAPH_PAGE (graph)), source);
  g_assert_true (press_key (GTK_WIDGET (view), GTK_PHASE_BUBBLE, GDK_KEY_Right));
  g_assert_cmpstr (lode_graph_view_get_selected (view), ==, "src/widget.h");
  g_assert_true (press_key (GTK_WIDGET (view), GTK_PHASE_BUBBLE, GDK_KEY_Right));
  g_assert_cmpstr (lode_graph_view_get_selected (view), ==, "src/config.h");
  wait_for_preview (lode_graph_page_get_preview (LODE_GRAPH_PAGE (graph)), config);
  screenshot (window, "graph");

  /* Zoom in and out around the selection. */
  {
    double scale = lode_graph_view_get_scale (view);

    g_assert_true (press_key (GTK_WIDGET (view), GTK_PHASE_BUBBLE, GDK_KEY_plus));
    g_assert_cmpfloat (lode_graph_view_get_scale (view), >, scale);
    g_assert_true (press_key (GTK_WIDGET (view), GTK_PHASE_BUBBLE, GDK_KEY_0));
    g_assert_cmpfloat (lode_graph_view_get_scale (view), ==, scale);
  }

  /* Expanding config.h adds what imports it two steps from widget.h: app.c. */
  gtk_widget_activate_action (graph, "graph.expand", NULL);
  wait_until (graph_has_node, app_c, "the expanded file");
  g_assert_nonnull (graph_edge (model, "src/app.c", "src/config.h"));

  /* The blast radius of config.h: every file that reaches it, drawn or not. */
  gtk_widget_activate_action (graph, "graph.blast-radius", NULL);
  wait_until (is_reached, app_c, "the blast radius");
  g_assert_true (lode_graph_view_is_reached (view, "src/widget.h"));
  g_assert_true (lode_graph_view_is_reached (view, "src/widget.c"));
  g_assert_true (has_label_prefix (graph, "4 boxes · 2 in import cycles\nBlast radius: "
                                          "3 files reach src/config.h (3 drawn)"));
  screenshot (window, "graph-blast-radius");
  check_exports (graph);

  /* Activating a file draws the graph around it; Back returns to the file before, then to
   * the overview. */
  g_signal_emit_by_name (view, "node-activated", "src/app.c");
  wait_for_graph (view, "src/app.c");
  gtk_widget_activate_action (graph, "graph.back", NULL);
  wait_for_graph (view, "src/widget.h");
  gtk_widget_activate_action (graph, "graph.back", NULL);
  g_assert_null (lode_graph_page_get_file (LODE_GRAPH_PAGE (graph)));
  g_assert_true (has_row (graph, "src/config.h → src/widget.h → src/config.h"));

  /* The provider is off in this run, which is the default, not a fault: the page says so. */
  adw_view_stack_set_visible_child_name (stack, "models");
  wait_for_row (models, "Semantic search is off");
  g_assert_false (has_row (models, "Not answering"));
  g_assert_true (has_row (models, "bge-small-en-v1.5"));
  screenshot (window, "models");
  check_builtin_health (models);
}

static GtkLabel        *find_label     (GtkWidget  *widget,
                                        const char *text);
static LodeProjectItem *find_project   (GListModel *projects,
                                        const char *root);
static gboolean         project_listed (gpointer    data);

static void
call_tool_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  LodeToolResult **out = user_data;
  g_autoptr(GError) error = NULL;

  *out = lode_client_call_tool_finish (LODE_CLIENT (object), result, &error);
  g_assert_no_error (error);
}

static gboolean
is_set_pointer (gpointer data)
{
  return *(gpointer *) data != NULL;
}

/* codebase_status about @root, called by the test itself. */
static LodeToolResult *
call_status (LodeClient *client,
             const char *root)
{
  LodeToolResult *result = NULL;
  JsonObject *arguments = json_object_new ();

  json_object_set_string_member (arguments, "projectPath", root);
  lode_client_call_tool_async (client, "codebase_status", arguments, NULL, NULL, NULL, NULL,
                               NULL, call_tool_cb, &result);
  json_object_unref (arguments);
  wait_until (is_set_pointer, &result, "the tool's answer");
  return result;
}

/* Waits until the app has heard all there is about the job that indexed @root, and asks
 * loded nothing more about it: the job's end comes first (loded queues it on its main loop
 * as the job ends, ahead of the calls that come after, such as this one), then the answers
 * to what the app asks when it comes. */
static void
wait_for_job_told (LodeClient *client,
                   const char *root)
{
  g_autoptr(LodeToolResult) result = call_status (client, root);

  g_assert_false (json_object_get_boolean_member (result->structured, "indexing"));
  wait_for_answers ();
}

/* Indexes @root through the page, unless it is listed already. */
static void
ensure_indexed (LodeProjectsPage *page,
                const char       *root)
{
  GListModel *projects = lode_projects_page_get_model (page);
  g_autoptr(GFile) folder = g_file_new_for_path (root);
  gpointer listed[2] = { projects, (gpointer) root };

  if (find_project (projects, root) == NULL)
    lode_projects_page_add_folder (page, folder);
  wait_until (project_listed, listed, "the project");
  wait_until (item_finished, find_project (projects, root), "indexing to finish");
}

/* An agent asks codebase_graph_visualize for the interactive explorer: loded activates the
 * app's "show-graph" action on the bus (this process owns the app's name), which opens the
 * Graph page on the file, and the agent is told so. */
static void
test_visualize_interactive (Fixture       *fixture,
                            gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  LodeClient *client = lode_application_get_client (fixture->app);
  g_autoptr(LodeToolResult) result = NULL;
  JsonObject *arguments = json_object_new ();
  LodeGraphModel *model;

  ensure_indexed (page, fixture->root);
  adw_view_stack_set_visible_child_name (stack, "projects");

  json_object_set_string_member (arguments, "projectPath", fixture->root);
  json_object_set_string_member (arguments, "filePath", "src/config.h");
  json_object_set_string_member (arguments, "mode", "interactive");
  lode_client_call_tool_async (client, "codebase_graph_visualize", arguments, NULL, NULL, NULL,
                               NULL, NULL, call_tool_cb, &result);
  json_object_unref (arguments);
  wait_until (is_set_pointer, &result, "the tool's answer");

  g_assert_false (result->is_error);
  g_assert_true (json_object_get_boolean_member (result->structured, "opened"));
  g_assert_true (g_str_has_prefix (result->text, "Opened Lode's graph explorer on `src/config.h`"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "graph");
  model = wait_for_graph (lode_graph_page_get_view (LODE_GRAPH_PAGE (graph)), "src/config.h");
  g_assert_true (lode_graph_model_lookup (model, "src/app.c", NULL));
  screenshot (window, "graph-interactive");
}

/* A file that 98 files in 26 folders include: the nearest are drawn, the farther ones one
 * box per folder, and the rest counted in one box. Beside it, a cycle of three headers. */
static void
test_graph_large (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  LodeGraphView *view = lode_graph_page_get_view (LODE_GRAPH_PAGE (graph));
  g_autofree char *root = g_build_filename (tmp, "drivers", NULL);
  g_autofree char *hub = g_build_filename (root, "include", "bus.h", NULL);
  LodeGraphModel *model;
  guint groups = 0, more = 0, items = 0;

  write_file_with_mode (hub, "#pragma once\nint bus_register (const char *name);\n", 0644);
  /* Three headers that import each other: the shortest cycle through the first is two of
   * them. */
  {
    static const char *const headers[][2] = {
      { "lib/a.h", "#include \"b.h\"\n" },
      { "lib/b.h", "#include \"a.h\"\n#include \"c.h\"\n" },
      { "lib/c.h", "#include \"a.h\"\n" },
    };

    for (guint i = 0; i < G_N_ELEMENTS (headers); i++)
      {
        g_autofree char *path = g_build_filename (root, headers[i][0], NULL);

        write_file_with_mode (path, headers[i][1], 0644);
      }
  }
  for (guint i = 0; i < 98; i++)
    {
      g_autofree char *path = g_strdup_printf ("%s/%s/%s%02u/driver%02u.c", root,
                                               i % 2 == 0 ? "net" : "usb",
                                               i % 2 == 0 ? "eth" : "host", i % 26, i);
      g_autofree char *code = g_strdup_printf ("#include \"../../include/bus.h\"\n\nint\n"
                                               "driver%02u_probe (void)\n{\n"
                                               "  return bus_register (\"d%02u\");\n}\n", i, i);

      write_file_with_mode (path, code, 0644);
    }
  ensure_indexed (page, root);

  adw_view_stack_set_visible_child_name (stack, "graph");
  lode_graph_page_show (LODE_GRAPH_PAGE (graph), root, "include/bus.h");
  model = wait_for_graph (view, "include/bus.h");
  for (guint i = 0; i < lode_graph_model_get_n_nodes (model); i++)
    {
      LodeGraphNodeKind kind = lode_graph_model_get_node (model, i)->kind;

      groups += kind == LODE_GRAPH_NODE_GROUP;
      more += kind == LODE_GRAPH_NODE_MORE;
      items += kind == LODE_GRAPH_NODE_ITEM;
    }
  g_assert_cmpuint (lode_graph_model_get_n_nodes (model), ==, 30);
  g_assert_cmpuint (items, ==, 24);
  g_assert_cmpuint (groups, ==, 5);
  g_assert_cmpuint (more, ==, 1);
  g_assert_true (has_label_prefix (graph, "30 boxes"));
  /* Readable, around the focus; the folders and the count at the end of the column. */
  g_assert_cmpfloat (lode_graph_view_get_scale (view), >=, 0.7);
  lode_graph_view_select (view, "more:include/bus.h");
  g_assert_cmpstr (lode_graph_view_get_selected (view), ==, "more:include/bus.h");
  screenshot (window, "graph-large");

  /* The overview says how many files the cycle shown has, and among how many it is one. */
  lode_graph_page_show_file (LODE_GRAPH_PAGE (graph), "");
  wait_for_row (graph, "lib/a.h → lib/b.h → lib/a.h");
  g_assert_true (has_label (graph, "2 files in this cycle, one of the cycles among 3 files"));
}

/* The index file loded keeps for @root, found by the project's root file beside it. */
static char *
find_index_db (const char *root)
{
  g_autofree char *projects = g_build_filename (tmp, "data", "projects", NULL);
  g_autoptr(GDir) dir = g_dir_open (projects, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *root_file = g_build_filename (projects, name, "root", NULL);
      g_autofree char *contents = NULL;

      if (g_file_get_contents (root_file, &contents, NULL, NULL) &&
          g_strcmp0 (g_strchomp (contents), root) == 0)
        return g_build_filename (projects, name, "index.db", NULL);
    }
  g_assert_not_reached ();
}

static gboolean
shows_label (gpointer data)
{
  return has_label (((gpointer *) data)[0], ((gpointer *) data)[1]);
}

/* loded cannot read the index when the overview asks (here its file is moved away, as a run
 * that replaces it would, while the app has the project as ready): the list says it could
 * not be read, not that there is no cycle, and the cycles come once the index is back,
 * with no change of the index or of the project to tell the page. */
static void
test_graph_overview_retry (Fixture       *fixture,
                           gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  const char *cycle = "src/config.h → src/widget.h → src/config.h";
  LodeClient *client = lode_application_get_client (fixture->app);
  LodeProjectItem *item;
  g_autofree char *db = NULL;
  g_autofree char *away = NULL;

  ensure_indexed (page, fixture->root);
  item = find_project (lode_projects_page_get_model (page), fixture->root);
  adw_view_stack_set_visible_child_name (stack, "graph");
  lode_graph_page_show (LODE_GRAPH_PAGE (graph), fixture->root, NULL);
  wait_for_row (graph, cycle);
  /* Nothing may ask loded about the project while its index is away but the page's
   * retries: a status would tell the app the index is gone. */
  wait_for_job_told (client, fixture->root);

  db = find_index_db (fixture->root);
  away = g_strconcat (db, ".away", NULL);
  g_assert_cmpint (g_rename (db, away), ==, 0);
  /* What the project's item says when its status is read again, unchanged here. */
  g_object_notify (G_OBJECT (item), "state");
  wait_until (shows_label, (gpointer[]) { graph, (gpointer) "Cannot list the import cycles" },
              "the failed list");
  g_assert_false (has_row (graph, cycle));
  g_assert_false (has_label (graph, "No import cycles"));

  g_assert_cmpint (g_rename (away, db), ==, 0);
  wait_for_row (graph, cycle);
  g_assert_true (has_label (graph, "2 files in this cycle"));
}

typedef struct _ReplyFilter ReplyFilter;

/* What becomes of a reply the filter matched, called under its lock: the message handed over
 * in its place, or NULL for none. */
typedef GDBusMessage *(*ReplyAction) (ReplyFilter  *filter,
                                      GDBusMessage *reply);

/* loded's next answers to codebase_status about @root (with @running, those that say a job
 * runs), changed by @action on their way to the app. A reply kept back in @held goes on in
 * place of the ReleaseStatus signal. Filters run on GDBus's worker thread, and may still run
 * once removed: the filter holds a reference. */
struct _ReplyFilter
{
  GMutex           lock;
  GDBusConnection *bus;
  guint            id;
  char            *root;
  ReplyAction      action;
  guint            n_left;   /* replies still to change */
  GDBusMessage    *held;
  guint            running : 1;
  guint            released : 1;
};

static void
reply_filter_clear (ReplyFilter *filter)
{
  g_mutex_clear (&filter->lock);
  g_clear_object (&filter->bus);
  g_free (filter->root);
  g_clear_object (&filter->held);
}

static void
reply_filter_unref (gpointer data)
{
  g_atomic_rc_box_release_full (data, (GDestroyNotify) reply_filter_clear);
}

/* Whether @message is loded's answer to codebase_status about @root; with @running, during a
 * job. */
static gboolean
is_status (GDBusMessage *message,
           const char   *root,
           gboolean      running)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  GVariant *body = g_dbus_message_get_body (message);
  const char *json = NULL;
  JsonObject *status;

  if (g_dbus_message_get_message_type (message) != G_DBUS_MESSAGE_TYPE_METHOD_RETURN ||
      body == NULL || !g_variant_is_of_type (body, G_VARIANT_TYPE ("(s)")))
    return FALSE;
  g_variant_get (body, "(&s)", &json);
  if (!json_parser_load_from_data (parser, json, -1, NULL) ||
      !JSON_NODE_HOLDS_OBJECT (json_parser_get_root (parser)))
    return FALSE;

  status = json_object_get_object_member (json_node_get_object (json_parser_get_root (parser)),
                                          "structuredContent");
  /* Only codebase_status tells "semantic". */
  return status != NULL && json_object_has_member (status, "semantic") &&
         g_strcmp0 (json_object_get_string_member_with_default (status, "projectPath", NULL),
                    root) == 0 &&
         (!running || json_object_get_boolean_member_with_default (status, "indexing", FALSE));
}

static gboolean
is_release (GDBusMessage *message)
{
  return g_strcmp0 (g_dbus_message_get_interface (message), "io.github.lode.Test") == 0 &&
         g_strcmp0 (g_dbus_message_get_member (message), "ReleaseStatus") == 0;
}

/* Runs on GDBus's worker thread. */
static GDBusMessage *
reply_filter_cb (GDBusConnection *connection,
                 GDBusMessage    *message,
                 gboolean         incoming,
                 gpointer         user_data)
{
  ReplyFilter *filter = user_data;
  GDBusMessage *out = message;

  if (!incoming)
    return message;

  g_mutex_lock (&filter->lock);
  if (filter->n_left > 0 && is_status (message, filter->root, filter->running))
    {
      filter->n_left--;
      out = filter->action (filter, message);
    }
  else if (filter->held != NULL && is_release (message))
    {
      g_object_unref (message);
      out = g_steal_pointer (&filter->held);
      filter->released = TRUE;
    }
  g_mutex_unlock (&filter->lock);

  return out;
}

static ReplyFilter *
reply_filter_add (const char  *root,
                  gboolean     running,
                  ReplyAction  action,
                  guint        n_replies)
{
  ReplyFilter *filter = g_atomic_rc_box_new0 (ReplyFilter);
  g_autoptr(GError) error = NULL;

  g_mutex_init (&filter->lock);
  filter->bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  filter->root = g_strdup (root);
  filter->running = running;
  filter->action = action;
  filter->n_left = n_replies;
  filter->id = g_dbus_connection_add_filter (filter->bus, reply_filter_cb,
                                             g_atomic_rc_box_acquire (filter), reply_filter_unref);
  return filter;
}

static void
reply_filter_remove (ReplyFilter *filter)
{
  g_dbus_connection_remove_filter (filter->bus, filter->id);
  reply_filter_unref (filter);
}

/* The next @n_replies matching replies are changed. */
static void
reply_filter_arm (ReplyFilter *filter,
                  guint        n_replies)
{
  g_mutex_lock (&filter->lock);
  filter->n_left = n_replies;
  g_mutex_unlock (&filter->lock);
}

static gboolean
reply_held (gpointer data)
{
  ReplyFilter *filter = data;
  gboolean held;

  g_mutex_lock (&filter->lock);
  held = filter->held != NULL;
  g_mutex_unlock (&filter->lock);
  return held;
}

static gboolean
reply_released (gpointer data)
{
  ReplyFilter *filter = data;
  gboolean released;

  g_mutex_lock (&filter->lock);
  released = filter->released;
  g_mutex_unlock (&filter->lock);
  return released;
}

/* The reply is kept back until ReleaseStatus. */
static GDBusMessage *
hold_reply (ReplyFilter  *filter,
            GDBusMessage *reply)
{
  filter->held = reply;
  return NULL;
}

/* The reply becomes a tool's error. */
static GDBusMessage *
fail_reply (ReplyFilter  *filter,
            GDBusMessage *reply)
{
  g_autoptr(GError) error = NULL;
  GDBusMessage *out = g_dbus_message_copy (reply, &error);

  g_assert_no_error (error);
  g_dbus_message_set_body (out, g_variant_new ("(s)", "{\"content\": [{\"type\": \"text\", "
                                               "\"text\": \"The index is busy\"}], "
                                               "\"isError\": true}"));
  g_object_unref (reply);
  return out;
}

/* The Graph page opened on a project while its first index is written shows the cycle once
 * the job ends, and keeps it when a status asked for during the job comes last (loded
 * answers calls as they finish: under load, one that read the job running can be sent after
 * the one asked for at its end). The late reply is kept back here and let go at the end. */
static void
test_graph_late_status (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  GListModel *projects = lode_projects_page_get_model (page);
  LodeClient *client = lode_application_get_client (fixture->app);
  const char *cycle = "src/config.h → src/widget.h → src/config.h";
  g_autofree char *root = g_build_filename (tmp, "late", NULL);
  g_autoptr(GFile) folder = g_file_new_for_path (root);
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  gpointer listed[2] = { projects, root };
  ReplyFilter *hold;
  LodeProjectItem *item;

  test_write_file (root, "src/widget.h", "#pragma once\n#include \"config.h\"\n");
  test_write_file (root, "src/config.h", "#pragma once\n#include \"widget.h\"\n");
  /* Enough files that statuses are asked for while the job runs. */
  for (guint i = 0; i < 300; i++)
    {
      g_autofree char *name = g_strdup_printf ("src/part%03u.c", i);
      g_autofree char *text = g_strdup_printf ("#include \"widget.h\"\n\nint\npart_%u (void)\n"
                                               "{\n  return %u;\n}\n", i, i);

      test_write_file (root, name, text);
    }

  /* The first status that says the job runs. */
  hold = reply_filter_add (root, TRUE, hold_reply, 1);

  /* The page is open on the project from the start of its first job. */
  adw_view_stack_set_visible_child_name (stack, "graph");
  lode_projects_page_add_folder (page, folder);
  lode_graph_page_show (LODE_GRAPH_PAGE (graph), root, NULL);
  wait_until (project_listed, listed, "the new project");
  item = find_project (projects, root);
  wait_until (item_finished, item, "indexing to finish");
  wait_for_row (graph, cycle);

  if (!reply_held (hold))
    {
      reply_filter_remove (hold);
      g_test_skip ("the job ended before a status was asked for");
      return;
    }

  /* The status from the job's middle arrives last; a call of the test's own comes after it. */
  g_dbus_connection_emit_signal (hold->bus, g_dbus_connection_get_unique_name (hold->bus),
                                 "/io/github/lode/Test", "io.github.lode.Test", "ReleaseStatus",
                                 NULL, &error);
  g_assert_no_error (error);
  wait_until (reply_released, hold, "the status kept back to arrive");
  reply_filter_remove (hold);
  result = call_status (client, root);

  g_assert_true (has_row (graph, cycle));
  g_assert_true (item_finished (item));
  g_assert_cmpstr (lode_project_item_get_state (item), ==, "ready");
  screenshot (window, "graph-late-status");
}

/* The app's codebase_graph_circular calls, counted on their way out. */
static int n_circular;

/* Runs on GDBus's worker thread. */
static GDBusMessage *
count_circular_filter (GDBusConnection *connection,
                       GDBusMessage    *message,
                       gboolean         incoming,
                       gpointer         user_data)
{
  GVariant *body = g_dbus_message_get_body (message);
  const char *tool = NULL;

  if (incoming || g_strcmp0 (g_dbus_message_get_member (message), "CallTool") != 0 ||
      body == NULL || !g_variant_is_of_type (body, G_VARIANT_TYPE ("(ssa{sv})")))
    return message;

  g_variant_get_child (body, 0, "&s", &tool);
  if (g_str_equal (tool, "codebase_graph_circular"))
    g_atomic_int_inc (&n_circular);
  return message;
}

/* While a job runs the overview does not know the project's lists: it says when they come,
 * not that there is no cycle. "No import cycles" is for an index that has none. The
 * status at a job's end changes the project's state and its indexing flag at once: the lists
 * are asked for once, not once for each. */
static void
test_graph_indexing (Fixture       *fixture,
                     gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  LodeClient *client = lode_application_get_client (fixture->app);
  g_autofree char *root = g_build_filename (tmp, "acyclic", NULL);
  g_autoptr(JsonNode) running = json_from_string ("{\"state\": \"incomplete\", "
                                                  "\"indexing\": true}", NULL);
  g_autoptr(LodeToolResult) status = NULL;
  g_autoptr(GDBusConnection) bus = NULL;
  g_autoptr(GError) error = NULL;
  gpointer no_cycles[2] = { graph, (gpointer) "No import cycles" };
  gpointer waiting[2] = { graph, (gpointer) "The import cycles are listed once indexing ends" };
  LodeProjectItem *item;
  guint filter;

  test_write_file (root, "src/main.c",
                   "#include \"util.h\"\n\nint\nmain (void)\n{\n  return util ();\n}\n");
  test_write_file (root, "src/util.h", "#pragma once\nint util (void);\n");
  ensure_indexed (page, root);
  item = find_project (lode_projects_page_get_model (page), root);
  adw_view_stack_set_visible_child_name (stack, "graph");
  lode_graph_page_show (LODE_GRAPH_PAGE (graph), root, NULL);
  wait_until (shows_label, no_cycles, "the empty list of cycles");
  wait_for_row (graph, "src/util.h");

  /* Indexed again: the lists go as the job starts, and come back at its end. */
  gtk_widget_activate_action (GTK_WIDGET (page), "project.reindex", "s", root);
  g_assert_true (lode_project_item_get_indexing (item));
  wait_until (shows_label, waiting, "the lists to go");
  g_assert_false (has_row (graph, "src/util.h"));
  g_assert_false (has_label (graph, "No import cycles"));
  g_assert_true (has_label (graph, "The most connected files are listed once indexing ends"));
  wait_until (item_finished, item, "indexing to finish");
  wait_until (shows_label, no_cycles, "the empty list of cycles again");
  wait_for_row (graph, "src/util.h");
  g_assert_false (has_label (graph, "The import cycles are listed once indexing ends"));

  /* The page as a job's start leaves it, for as long as the picture takes. */
  lode_project_item_set_indexing (item, TRUE);
  screenshot (window, "graph-indexing");
  lode_project_item_set_indexing (item, FALSE);
  wait_until (shows_label, no_cycles, "the lists after the picture");

  /* As the list tells of a job, then the status at its end. */
  wait_for_job_told (client, root);
  status = call_status (client, root);
  g_assert_cmpstr (json_object_get_string_member (status->structured, "state"), ==, "ready");
  lode_project_item_update_info (item, json_node_get_object (running));
  wait_until (shows_label, waiting, "the lists to go again");
  bus = g_bus_get_sync (G_BUS_TYPE_SESSION, NULL, &error);
  g_assert_no_error (error);
  g_atomic_int_set (&n_circular, 0);
  filter = g_dbus_connection_add_filter (bus, count_circular_filter, NULL, NULL);
  lode_project_item_update_status (item, status->structured);
  wait_until (shows_label, no_cycles, "the lists at the job's end");
  wait_for_answers ();
  g_dbus_connection_remove_filter (bus, filter);
  g_assert_cmpint (g_atomic_int_get (&n_circular), ==, 1);
}

static gboolean
shows_symbol (gpointer data)
{
  LodeSymbolPage *page = ((gpointer *) data)[0];

  return g_strcmp0 (lode_symbol_page_get_name (page), ((gpointer *) data)[1]) == 0;
}

/* Waits until the Symbol page shows the definition @name. */
static void
wait_for_symbol (LodeSymbolPage *page,
                 const char     *name)
{
  gpointer data[2] = { page, (gpointer) name };

  wait_until (shows_symbol, data, name);
}

/* A parser whose functions call each other, the C library and something it never defines,
 * written under @root and indexed. */
static void
index_parser (LodeProjectsPage *page,
              const char       *root)
{
  g_autofree char *source = g_build_filename (root, "src", "parser.c", NULL);
  g_autofree char *main_c = g_build_filename (root, "src", "main.c", NULL);

  write_file_with_mode (source,
                        "#include <string.h>\n\n"
                        "static unsigned int\n"
                        "skip_blanks (const char *text)\n"
                        "{\n"
                        "  return strspn (text, \" \\t\");\n"
                        "}\n\n"
                        "/* Reads one header line: its name, then its value. */\n"
                        "int\n"
                        "parse_header_line (const char *text)\n"
                        "{\n"
                        "  unsigned int start = skip_blanks (text);\n\n"
                        "  return report_header (text + start, strlen (text + start));\n"
                        "}\n\n"
                        "int\n"
                        "parse_message (const char *text)\n"
                        "{\n"
                        "  return parse_header_line (text);\n"
                        "}\n", 0644);
  write_file_with_mode (main_c,
                        "int parse_message (const char *text);\n\n"
                        "int\n"
                        "main (int argc, char **argv)\n"
                        "{\n"
                        "  return argc > 1 ? parse_message (argv[1]) : 0;\n"
                        "}\n", 0644);
  ensure_indexed (page, root);
}

/* A parser whose functions call each other, the C library and something it never defines:
 * a definition found by the search opens on the Symbol page with its signature, callers and
 * callees; a caller's row opens that caller, its own callers listed. */
static void
test_symbol_page (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *search = find_widget (window, LODE_TYPE_SEARCH_PAGE, 0);
  LodeSymbolPage *symbol_page = LODE_SYMBOL_PAGE (find_widget (window, LODE_TYPE_SYMBOL_PAGE, 0));
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  GtkWidget *entry;
  GtkDropDown *project = GTK_DROP_DOWN (find_widget (search, GTK_TYPE_DROP_DOWN, 0));
  GListModel *projects = lode_projects_page_get_model (page);
  g_autofree char *root = g_build_filename (tmp, "parser", NULL);
  g_autofree char *source = g_build_filename (root, "src", "parser.c", NULL);
  gpointer first_in_search[2] = { search, "src/parser.c" };
  LodeGraphView *graph_view = lode_symbol_page_get_graph_view (symbol_page);
  LodeGraphModel *model;
  GtkWidget *row;
  GtkWidget *button;

  index_parser (page, root);

  adw_view_stack_set_visible_child_name (stack, "search");
  entry = find_shown (search, GTK_TYPE_SEARCH_ENTRY);
  for (guint i = 0; i < g_list_model_get_n_items (projects); i++)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (projects, i);

      if (g_str_equal (lode_project_item_get_root (item), root))
        gtk_drop_down_set_selected (project, i);
    }
  gtk_editable_set_text (GTK_EDITABLE (entry), "parse_header_line");
  wait_until (first_result_in, first_in_search, "the definition found");

  /* The result's definition name opens the Symbol page, which joins the switcher. */
  row = find_widget (search, LODE_TYPE_SEARCH_ROW, 0);
  button = find_widget (row, GTK_TYPE_BUTTON, 0);
  g_assert_nonnull (button);
  g_assert_true (gtk_widget_get_visible (button));
  g_signal_emit_by_name (button, "clicked");
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "symbol");
  wait_for_symbol (symbol_page, "parse_header_line");
  wait_for_preview (lode_symbol_page_get_preview (symbol_page), source);
  /* Its doc comment, under its signature. */
  {
    gpointer doc[2] = { symbol_page, "Reads one header line: its name, then its value." };

    wait_until (shows_label_prefix, doc, "the doc comment");
  }
  screenshot (window, "symbol");
  g_assert_true (has_label (GTK_WIDGET (symbol_page), "function · src/parser.c:10"));
  g_assert_true (has_label_prefix (GTK_WIDGET (symbol_page), "int\nparse_header_line") ||
                 has_label_prefix (GTK_WIDGET (symbol_page), "int parse_header_line"));
  g_assert_true (has_label (GTK_WIDGET (symbol_page), "1 Caller"));
  g_assert_true (has_label (GTK_WIDGET (symbol_page), "3 Callees"));
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callers (symbol_page)),
                          "parse_message"));
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callees (symbol_page)),
                          "skip_blanks"));
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callees (symbol_page)), "strlen"));
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callees (symbol_page)),
                          "report_header"));
  /* Only definitions of the project open: strlen, which it does not define, is a row to read. */
  g_assert_false (gtk_list_box_row_get_activatable (
                    GTK_LIST_BOX_ROW (find_row (GTK_WIDGET (lode_symbol_page_get_callees (symbol_page)),
                                                "strlen"))));

  /* The call graph beside, in columns where it fits whole: the caller left, the callee
   * right, a node per definition;
   * activating the caller's node centres the graph on it, its own caller from main.c drawn. */
  lode_symbol_page_show_graph (symbol_page);
  model = wait_for_graph (graph_view, "src/parser.c\nparse_header_line");
  g_assert_cmpuint (lode_graph_model_get_n_nodes (model), ==, 3);
  g_assert_cmpstr (graph_node (model, "src/parser.c\nparse_message")->label, ==, "parse_message");
  g_assert_cmpuint (graph_node (model, "src/parser.c\nskip_blanks")->line, ==, 3);
  g_assert_nonnull (graph_edge (model, "src/parser.c\nparse_message",
                                "src/parser.c\nparse_header_line"));
  g_assert_nonnull (graph_edge (model, "src/parser.c\nparse_header_line",
                                "src/parser.c\nskip_blanks"));
  g_assert_null (graph_edge (model, "src/parser.c\nskip_blanks",
                             "src/parser.c\nparse_header_line"));
  g_assert_false (lode_graph_view_is_vertical (graph_view));
  {
    graphene_rect_t caller, callee;

    g_assert_true (lode_graph_view_get_node_bounds (graph_view, "src/parser.c\nparse_message",
                                                    &caller));
    g_assert_true (lode_graph_view_get_node_bounds (graph_view, "src/parser.c\nskip_blanks",
                                                    &callee));
    g_assert_cmpfloat (caller.origin.x + caller.size.width, <, callee.origin.x);
  }
  screenshot (window, "symbol-graph");

  /* The blast radius: what calls it, directly (parse_message) or not (main), not what it
   * calls. */
  gtk_toggle_button_set_active (lode_symbol_page_get_blast_radius (symbol_page), TRUE);
  {
    gpointer reached[2] = { graph_view, "src/main.c\nmain" };

    wait_until (is_reached, reached, "main in the blast radius");
  }
  g_assert_true (lode_graph_view_is_reached (graph_view, "src/parser.c\nparse_message"));
  g_assert_false (lode_graph_view_is_reached (graph_view, "src/parser.c\nskip_blanks"));
  screenshot (window, "symbol-blast-radius");

  /* The graph exported from the page's menu, to the file picked in the chooser: a PNG that
   * loads, an SVG that parses, with a box per definition. */
  {
    g_autofree char *png_path = export_through_chooser (GTK_WIDGET (symbol_page),
                                                        "symbol.export", "png",
                                                        "parse_header_line-calls.png");
    g_autofree char *svg_path = export_through_chooser (GTK_WIDGET (symbol_page),
                                                        "symbol.export", "svg",
                                                        "parse_header_line-calls.svg");
    g_autoptr(GError) error = NULL;
    g_autoptr(GdkTexture) texture = gdk_texture_new_from_filename (png_path, &error);
    g_autoptr(GMarkupParseContext) parser = NULL;
    static const GMarkupParser counter = { svg_element, NULL, NULL, NULL, NULL };
    g_autofree char *text = NULL;
    gsize length = 0;
    guint paths = 0;

    g_assert_no_error (error);
    g_assert_cmpint (gdk_texture_get_width (texture), >, 200);
    g_file_get_contents (svg_path, &text, &length, &error);
    g_assert_no_error (error);
    parser = g_markup_parse_context_new (&counter, 0, &paths, NULL);
    g_assert_true (g_markup_parse_context_parse (parser, text, length, &error));
    g_assert_true (g_markup_parse_context_end_parse (parser, &error));
    g_assert_no_error (error);
    g_assert_cmpuint (paths, >, 3);
    g_test_message ("Exported: %s, %s", png_path, svg_path);
  }

  /* Expanding the caller draws its own caller, main, one hop further up. */
  lode_graph_view_select (graph_view, "src/parser.c\nparse_message");
  g_signal_emit_by_name (find_widget (GTK_WIDGET (symbol_page), GTK_TYPE_BUTTON, 0), "clicked");
  {
    gpointer drawn[2] = { graph_view, "src/main.c\nmain" };

    wait_until (graph_has_node, drawn, "main drawn after expanding parse_message");
  }
  g_assert_nonnull (graph_edge (model, "src/main.c\nmain", "src/parser.c\nparse_message"));
  g_assert_cmpuint (lode_graph_model_get_n_nodes (model), ==, 4);
  g_signal_emit_by_name (graph_view, "node-activated", "src/parser.c\nparse_message");
  model = wait_for_graph (graph_view, "src/parser.c\nparse_message");
  g_assert_cmpstr (lode_symbol_page_get_name (symbol_page), ==, "parse_message");
  g_assert_nonnull (graph_edge (model, "src/main.c\nmain", "src/parser.c\nparse_message"));
  /* Two calls down: parse_message, parse_header_line, skip_blanks; one call down when the
   * depth is set to 1. */
  g_assert_nonnull (graph_edge (model, "src/parser.c\nparse_header_line",
                                "src/parser.c\nskip_blanks"));
  gtk_spin_button_set_value (GTK_SPIN_BUTTON (find_widget (GTK_WIDGET (symbol_page),
                                                           GTK_TYPE_SPIN_BUTTON, 0)), 1);
  {
    gpointer drawn[2] = { graph_view, "src/parser.c\nskip_blanks" };

    wait_until (graph_lacks_node, drawn, "the graph one call deep");
  }
  model = lode_graph_view_get_model (graph_view);
  g_assert_cmpstr (lode_graph_model_get_focus (model), ==, "src/parser.c\nparse_message");
  g_assert_nonnull (graph_edge (model, "src/parser.c\nparse_message",
                                "src/parser.c\nparse_header_line"));

  /* The lists follow: parse_message's caller from another file, its one callee, whose row
   * opens it back on the same page; it has no doc comment, nor is the other one's shown. */
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callers (symbol_page)), "main"));
  g_assert_false (has_label_prefix (GTK_WIDGET (symbol_page), "Reads one header line"));
  g_assert_true (has_label (GTK_WIDGET (symbol_page), "1 Callee"));
  g_signal_emit_by_name (find_row (GTK_WIDGET (lode_symbol_page_get_callees (symbol_page)),
                                   "parse_header_line"), "activate");
  wait_for_symbol (symbol_page, "parse_header_line");
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callers (symbol_page)),
                          "parse_message"));
  model = wait_for_graph (graph_view, "src/parser.c\nparse_header_line");
  g_assert_cmpuint (lode_graph_model_get_n_nodes (model), ==, 3);
}

/* An agent asks codebase_graph_visualize for the interactive explorer on a symbol: loded
 * activates the app's "show-symbol" action, which opens the Symbol page on the definition,
 * and the agent is told so. */
static void
test_visualize_symbol (Fixture       *fixture,
                       gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  LodeSymbolPage *symbol_page = LODE_SYMBOL_PAGE (find_widget (window, LODE_TYPE_SYMBOL_PAGE, 0));
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  LodeClient *client = lode_application_get_client (fixture->app);
  g_autofree char *root = g_build_filename (tmp, "parser", NULL);
  g_autoptr(LodeToolResult) result = NULL;
  JsonObject *arguments = json_object_new ();

  index_parser (page, root);
  adw_view_stack_set_visible_child_name (stack, "projects");

  json_object_set_string_member (arguments, "projectPath", root);
  json_object_set_string_member (arguments, "symbol", "parse_message");
  json_object_set_string_member (arguments, "mode", "interactive");
  lode_client_call_tool_async (client, "codebase_graph_visualize", arguments, NULL, NULL, NULL,
                               NULL, NULL, call_tool_cb, &result);
  json_object_unref (arguments);
  wait_until (is_set_pointer, &result, "the tool's answer");

  g_assert_false (result->is_error);
  g_assert_true (json_object_get_boolean_member (result->structured, "opened"));
  g_assert_true (g_str_has_prefix (result->text,
                                   "Opened Lode's symbol page on `parse_message` "
                                   "(`src/parser.c:18`) in the desktop app.\n\n```mermaid\n"));
  g_assert_nonnull (strstr (result->text, "[\"main\"]"));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "symbol");
  wait_for_symbol (symbol_page, "parse_message");
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callers (symbol_page)), "main"));
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callees (symbol_page)),
                          "parse_header_line"));
  lode_symbol_page_show_graph (symbol_page);
  wait_for_graph (lode_symbol_page_get_graph_view (symbol_page), "src/parser.c\nparse_message");
  screenshot (window, "symbol-interactive");
}

static gboolean
window_narrowed (gpointer data)
{
  return gtk_widget_get_width (GTK_WIDGET (data)) <= NARROW_WIDTH;
}

/* The widest a page needs, @page's left out. */
static int
widest_other_page (GtkWidget *window,
                   GtkWidget *page)
{
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  GListModel *pages = G_LIST_MODEL (adw_view_stack_get_pages (stack));
  int widest = 0;

  for (guint i = 0; i < g_list_model_get_n_items (pages); i++)
    {
      g_autoptr(AdwViewStackPage) other = g_list_model_get_item (pages, i);
      GtkWidget *child = adw_view_stack_page_get_child (other);
      int minimum;

      if (child == page)
        continue;
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      widest = MAX (widest, minimum);
    }
  g_object_unref (pages);
  return widest;
}

/* Whether every button of @widget is drawn whole inside @page. */
static void
assert_buttons_inside (GtkWidget *widget,
                       GtkWidget *page)
{
  if (GTK_IS_BUTTON (widget) && gtk_widget_get_mapped (widget))
    {
      graphene_rect_t bounds;

      g_assert_true (gtk_widget_compute_bounds (widget, page, &bounds));
      g_assert_cmpfloat (bounds.origin.x, >=, 0);
      g_assert_cmpfloat (bounds.origin.x + bounds.size.width, <=, gtk_widget_get_width (page));
    }
  for (GtkWidget *child = gtk_widget_get_first_child (widget);
       child != NULL;
       child = gtk_widget_get_next_sibling (child))
    assert_buttons_inside (child, page);
}

/* The Symbol page in a narrow window: it needs no more width than the other pages (the app's
 * pages share the window's minimum), its lists, code and graph buttons all fit, and its call
 * graph turns to rows to fit the pane. */
static void
test_symbol_narrow (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  LodeSymbolPage *symbol_page = LODE_SYMBOL_PAGE (find_widget (window, LODE_TYPE_SYMBOL_PAGE, 0));
  g_autofree char *root = g_build_filename (tmp, "parser", NULL);
  LodeGraphView *view = lode_symbol_page_get_graph_view (symbol_page);
  static const char *const chain[] = { "src/main.c\nmain", "src/parser.c\nparse_message",
                                       "src/parser.c\nparse_header_line",
                                       "src/parser.c\nskip_blanks" };
  graphene_rect_t bounds[G_N_ELEMENTS (chain)];
  int minimum;

  index_parser (page, root);
  gtk_widget_activate_action (window, "win.show-symbol", "(sss)", root, "parse_message", "");
  wait_for_symbol (symbol_page, "parse_message");
  gtk_widget_measure (GTK_WIDGET (symbol_page), GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL,
                      NULL, NULL);
  g_assert_cmpint (minimum, <=, widest_other_page (window, GTK_WIDGET (symbol_page)));

  gtk_window_set_default_size (GTK_WINDOW (window), NARROW_WIDTH, 680);
  wait_until (window_narrowed, window, "the window to narrow");
  lode_symbol_page_show_graph (symbol_page);
  wait_for_graph (view, "src/parser.c\nparse_message");
  assert_buttons_inside (GTK_WIDGET (symbol_page), GTK_WIDGET (symbol_page));
  /* Four definitions in a chain are too wide for the pane in columns: drawn in rows, each
   * caller above what it calls, all of it in view and readable. */
  g_assert_true (lode_graph_view_is_vertical (view));
  g_assert_cmpfloat (lode_graph_view_get_scale (view), >=, 0.7);
  for (guint i = 0; i < G_N_ELEMENTS (chain); i++)
    {
      g_assert_true (lode_graph_view_get_node_bounds (view, chain[i], &bounds[i]));
      g_assert_cmpfloat (bounds[i].origin.x, >=, 0);
      g_assert_cmpfloat (bounds[i].origin.y, >=, 0);
      g_assert_cmpfloat (bounds[i].origin.x + bounds[i].size.width, <=,
                         gtk_widget_get_width (GTK_WIDGET (view)));
      g_assert_cmpfloat (bounds[i].origin.y + bounds[i].size.height, <=,
                         gtk_widget_get_height (GTK_WIDGET (view)));
      if (i > 0)
        g_assert_cmpfloat (bounds[i - 1].origin.y + bounds[i - 1].size.height, <,
                           bounds[i].origin.y);
    }
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callers (symbol_page)), "main"));
  screenshot (window, "symbol-narrow");
  gtk_window_set_default_size (GTK_WINDOW (window), 960, 680);
}

/* Whether @label shows its whole text: not ellipsized, and no glyph starts left of it or
 * ends right of it. */
static void
assert_label_whole (GtkLabel *label)
{
  PangoLayout *layout = gtk_label_get_layout (label);
  PangoRectangle ink;
  int x;

  gtk_label_get_layout_offsets (label, &x, NULL);
  pango_layout_get_pixel_extents (layout, &ink, NULL);
  g_assert_false (pango_layout_is_ellipsized (layout));
  g_assert_cmpint (x + ink.x, >=, 0);
  g_assert_cmpint (x + ink.x + ink.width, <=, gtk_widget_get_width (GTK_WIDGET (label)));
}

/* The Symbol page's header says what the definition is and where, whole: a deep path in a
 * narrow window does not cut the “f” of “function” (nor the rest of the word) to an
 * ellipsis, in a wide window and a narrow one. */
static void
test_symbol_header (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  LodeSymbolPage *symbol_page = LODE_SYMBOL_PAGE (find_widget (window, LODE_TYPE_SYMBOL_PAGE, 0));
  g_autofree char *root = g_build_filename (tmp, "server", NULL);
  g_autofree char *source = g_build_filename (root, "src", "net", "protocol", "http1",
                                              "header_value.c", NULL);
  const char *where = "function · src/net/protocol/http1/header_value.c:1";
  GtkLabel *location;

  write_file_with_mode (source, "int\nparse_header_value (const char *text)\n{\n"
                        "  return text[0] == ' ';\n}\n", 0644);
  ensure_indexed (page, root);
  gtk_widget_activate_action (window, "win.show-symbol", "(sss)", root, "parse_header_value",
                              "");
  wait_for_symbol (symbol_page, "parse_header_value");
  screenshot (window, "symbol-header");
  location = find_label (GTK_WIDGET (symbol_page), where);
  g_assert_nonnull (location);
  assert_label_whole (location);

  gtk_window_set_default_size (GTK_WINDOW (window), 360, 640);
  wait_until (window_narrowed, window, "the window to narrow");
  screenshot (window, "symbol-header-narrow");
  assert_label_whole (location);
  gtk_window_set_default_size (GTK_WINDOW (window), 960, 680);
}

/* The narrowest display the metainfo says the app fits on: its <display_length>, in
 * logical pixels. */
static int
promised_width (void)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "..", "data",
                                                 "io.github.lode.Lode.metainfo.xml.in.in",
                                                 NULL);
  g_autofree char *contents = NULL;
  g_autoptr(GError) error = NULL;
  const char *tag = "<display_length compare=\"ge\">";
  const char *found;

  g_file_get_contents (path, &contents, NULL, &error);
  g_assert_no_error (error);
  found = strstr (contents, tag);
  g_assert_nonnull (found);
  return atoi (found + strlen (tag));
}

/* The window as narrow as the metainfo promises, each page shown with something on it:
 * no page needs more width than that, and each is drawn (screenshots narrowest-PAGE). */
static void
test_narrowest (Fixture       *fixture,
                gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  LodeSymbolPage *symbol_page = LODE_SYMBOL_PAGE (find_widget (window, LODE_TYPE_SYMBOL_PAGE, 0));
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  GtkWidget *content = adw_application_window_get_content (ADW_APPLICATION_WINDOW (window));
  GtkWidget *search = find_widget (window, LODE_TYPE_SEARCH_PAGE, 0);
  GListModel *projects = lode_projects_page_get_model (page);
  g_autofree char *root = g_build_filename (tmp, "parser", NULL);
  gpointer first_in_search[2] = { search, "src/parser.c" };
  static const char *const pages[] = { "projects", "search", "graph", "symbol", "models" };
  int width = promised_width ();
  int minimum;

  index_parser (page, root);
  gtk_widget_activate_action (window, "win.show-symbol", "(sss)", root, "parse_message", "");
  wait_for_symbol (symbol_page, "parse_message");
  ensure_indexed (page, fixture->root);
  lode_window_show_graph (LODE_WINDOW (window), fixture->root, "src/config.h");
  wait_for_graph (lode_graph_page_get_view (LODE_GRAPH_PAGE (graph)), "src/config.h");
  for (guint i = 0; i < g_list_model_get_n_items (projects); i++)
    {
      g_autoptr(LodeProjectItem) item = g_list_model_get_item (projects, i);

      if (g_str_equal (lode_project_item_get_root (item), root))
        gtk_drop_down_set_selected (GTK_DROP_DOWN (find_widget (search, GTK_TYPE_DROP_DOWN, 0)),
                                    i);
    }
  lode_window_search (LODE_WINDOW (window), "parse_header_line");
  wait_until (first_result_in, first_in_search, "a search result");

  gtk_window_set_default_size (GTK_WINDOW (window), width, 640);
  for (guint i = 0; i < G_N_ELEMENTS (pages); i++)
    {
      g_autofree char *name = g_strconcat ("narrowest-", pages[i], NULL);
      GtkWidget *child = adw_view_stack_get_child_by_name (stack, pages[i]);

      adw_view_stack_set_visible_child_name (stack, pages[i]);
      gtk_widget_measure (child, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
      g_test_message ("%s page: at least %d pixels wide", pages[i], minimum);
      g_assert_cmpint (minimum, <=, width);
      screenshot (window, name);
    }
  gtk_widget_measure (content, GTK_ORIENTATION_HORIZONTAL, -1, &minimum, NULL, NULL, NULL);
  g_test_message ("window: at least %d pixels wide", minimum);
  g_assert_cmpint (minimum, <=, width);
  gtk_window_set_default_size (GTK_WINDOW (window), 960, 680);
}

static void
dbus_call_cb (GObject      *object,
              GAsyncResult *result,
              gpointer      user_data)
{
  GVariant **reply = user_data;
  g_autoptr(GError) error = NULL;

  *reply = g_dbus_connection_call_finish (G_DBUS_CONNECTION (object), result, &error);
  g_assert_no_error (error);
}

/* How many windows @application has open: the main window, and whatever else an action
 * opened. */
static guint
count_windows (LodeApplication *application)
{
  return g_list_length (gtk_application_get_windows (GTK_APPLICATION (application)));
}

/* Calls @method of loded's Shell search provider and waits for its answer, the app's main
 * loop running: loded calls back into this process (the app) before it answers. */
static GVariant *
call_search_provider (const char *method,
                      GVariant   *parameters)
{
  GDBusConnection *bus = g_application_get_dbus_connection (G_APPLICATION (app));
  GVariant *reply = NULL;

  g_dbus_connection_call (bus, LODE_DAEMON_BUS_NAME, "/io/github/lode/Lode/SearchProvider",
                          "org.gnome.Shell.SearchProvider2", method, parameters, NULL,
                          G_DBUS_CALL_FLAGS_NONE, WAIT_SECONDS * 1000, NULL, dbus_call_cb,
                          &reply);
  wait_until (is_set_pointer, &reply, method);
  return reply;
}

/* GNOME Shell's overview finds a definition by a prefix of its name; activating the result
 * opens the app (this process owns its name) on the definition's Symbol page, its callers
 * listed and its code shown. */
static void
test_shell_result (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  LodeSymbolPage *symbol_page = LODE_SYMBOL_PAGE (find_widget (window, LODE_TYPE_SYMBOL_PAGE, 0));
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  g_autofree char *root = g_build_filename (tmp, "parser", NULL);
  g_autofree char *source = g_build_filename (root, "src", "parser.c", NULL);
  g_autoptr(GVariant) results = NULL;
  g_autoptr(GVariant) activated = NULL;
  g_autoptr(GVariant) launched = NULL;
  GtkWidget *search = find_widget (window, LODE_TYPE_SEARCH_PAGE, 0);
  GtkWidget *entry;
  g_autofree const char **ids = NULL;
  const char *terms[] = { "parse_head", NULL };
  const char *id = NULL;

  index_parser (page, root);
  adw_view_stack_set_visible_child_name (stack, "projects");

  results = call_search_provider ("GetInitialResultSet",
                                  g_variant_new ("(^as)", (char **) terms));
  g_variant_get (results, "(^a&s)", &ids);
  /* An identifier carries the file, line, kind, name and project. */
  for (guint i = 0; ids[i] != NULL && id == NULL; i++)
    {
      g_auto(GStrv) fields = g_strsplit (ids[i], "\n", -1);

      if (g_strv_length (fields) == 5 && g_str_equal (fields[0], source) &&
          g_str_equal (fields[3], "parse_header_line") && g_str_equal (fields[4], root))
        id = ids[i];
    }
  g_assert_nonnull (id);

  activated = call_search_provider ("ActivateResult",
                                    g_variant_new ("(s^asu)", id, (char **) terms, 0));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "symbol");
  wait_for_symbol (symbol_page, "parse_header_line");
  g_assert_true (has_label (GTK_WIDGET (symbol_page), "function · src/parser.c:10"));
  g_assert_true (has_row (GTK_WIDGET (lode_symbol_page_get_callers (symbol_page)),
                          "parse_message"));
  wait_for_preview (lode_symbol_page_get_preview (symbol_page), source);
  screenshot (window, "symbol-from-shell");
  /* One activation, one page shown in the one window. */
  g_assert_cmpuint (count_windows (fixture->app), ==, 1);

  /* Enter in the overview: the Search page, the terms in its entry, still one window. */
  launched = call_search_provider ("LaunchSearch", g_variant_new ("(^asu)", (char **) terms, 0));
  g_assert_cmpstr (adw_view_stack_get_visible_child_name (stack), ==, "search");
  entry = find_shown (search, GTK_TYPE_SEARCH_ENTRY);
  g_assert_cmpstr (gtk_editable_get_text (GTK_EDITABLE (entry)), ==, "parse_head");
  g_assert_cmpuint (count_windows (fixture->app), ==, 1);
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

static gboolean
item_progressing (gpointer data)
{
  return lode_project_item_get_indexing (data) && lode_project_item_get_fraction (data) > 0;
}

static gboolean
item_idle (gpointer data)
{
  return !lode_project_item_get_indexing (data);
}

/* Indexes a tree of one C file at @root through the app and shows the Projects page, once
 * the app has heard all there is of the job: the item of the tree's row. */
static LodeProjectItem *
index_one_file (Fixture    *fixture,
                const char *root)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));

  test_write_file (root, "main.c", "int\nmain (void)\n{\n  return 0;\n}\n");
  ensure_indexed (page, root);
  wait_for_job_told (lode_application_get_client (fixture->app), root);
  adw_view_stack_set_visible_child_name (stack, "projects");
  return find_project (lode_projects_page_get_model (page), root);
}

/* A job's end is told by the tree's status: when it cannot be read, it is asked for once
 * more; failing again, the row stops showing the job and says why, until a status comes. */
static void
test_status_error (Fixture       *fixture,
                   gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeClient *client = lode_application_get_client (fixture->app);
  g_autofree char *root = g_build_filename (tmp, "unread", NULL);
  /* The app's own statuses of the job that indexed it are not the ones to fail. */
  LodeProjectItem *item = index_one_file (fixture, root);
  ReplyFilter *fail;

  /* A job runs, ends, and its status fails, asked for again too: the row says why, and
   * offers to index again. Every status of the tree fails until then: the page may ask for
   * more than these two (a projects-changed heard late lists the trees and asks for each
   * one's status), and such a one must not end the wait with the tree ready. */
  fail = reply_filter_add (root, FALSE, fail_reply, G_MAXUINT);
  g_signal_emit_by_name (client, "index-progress", root, "indexing", 1, 1);
  g_assert_true (lode_project_item_get_indexing (item));
  g_signal_emit_by_name (client, "index-changed", root);
  wait_until (item_idle, item, "the row to stop showing progress");
  g_assert_cmpstr (lode_project_item_get_summary (item), ==,
                   "Status unavailable: The index is busy");
  screenshot (window, "projects-status-error");

  /* Once only: the status asked for again is shown. */
  reply_filter_arm (fail, 1);
  g_signal_emit_by_name (client, "index-progress", root, "indexing", 1, 1);
  g_signal_emit_by_name (client, "index-changed", root);
  wait_until (item_finished, item, "the status asked for again");
  g_assert_true (g_str_has_prefix (lode_project_item_get_summary (item), "Ready · 1 file ("));

  reply_filter_remove (fail);
}

static gboolean
item_indexing (gpointer data)
{
  return lode_project_item_get_indexing (data);
}

/* Another process indexes a tree the app lists (`lode index` in a terminal): it holds the
 * index's writer lock, as that run would. Nothing tells loded of the run's end: its engine,
 * which saw the run in the tree's status, follows the lock and emits IndexChanged when it is
 * free, so the row, which shows the run, does not show it running for good. */
static void
test_indexed_elsewhere (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeClient *client = lode_application_get_client (fixture->app);
  g_autofree char *root = g_build_filename (tmp, "elsewhere", NULL);
  LodeProjectItem *item = index_one_file (fixture, root);
  g_autofree char *index_db = NULL;
  g_autofree char *project_dir = NULL;
  g_autofree char *lock_path = NULL;
  g_autofree char *pid = g_strdup_printf ("%d\n", (int) getpid ());
  int fd;

  index_db = find_index_db (root);
  project_dir = g_path_get_dirname (index_db);
  lock_path = g_build_filename (project_dir, "lock", NULL);
  fd = g_open (lock_path, O_RDWR | O_CREAT | O_CLOEXEC, 0600);
  g_assert_cmpint (fd, >=, 0);
  g_assert_cmpint (flock (fd, LOCK_EX | LOCK_NB), ==, 0);
  g_assert_cmpint (write (fd, pid, strlen (pid)), ==, (gssize) strlen (pid));

  /* The page hears of the tree (another client's job would be told so), while the other
   * run holds the lock. */
  g_signal_emit_by_name (client, "index-changed", root);
  wait_until (item_indexing, item, "the row to show the other run");
  g_assert_cmpstr (lode_project_item_get_summary (item), ==, "Being indexed by another program…");
  screenshot (window, "projects-indexed-elsewhere");

  /* The run ends, and nothing tells loded. */
  close (fd);
  wait_until (item_finished, item, "the row to see the other run end");
  g_assert_true (g_str_has_prefix (lode_project_item_get_summary (item), "Ready · 1 file ("));
}

/* A job stopped by another client (an agent's codebase_stop, `lode stop`) ends the row's
 * progress too: the page hears of the job's end, not only of its own Stop button. */
static void
test_stopped_elsewhere (Fixture       *fixture,
                        gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GListModel *projects = lode_projects_page_get_model (page);
  LodeClient *client = lode_application_get_client (fixture->app);
  g_autofree char *root = g_build_filename (tmp, "many", NULL);
  g_autoptr(GFile) folder = NULL;
  g_autoptr(LodeProjectItem) item = NULL;
  g_autoptr(LodeToolResult) result = NULL;
  JsonObject *arguments;
  gpointer listed[2] = { projects, root };

  /* Enough files that the job is still running when the stop comes. */
  for (guint i = 0; i < 4000; i++)
    {
      g_autofree char *name = g_strdup_printf ("part%04u.c", i);
      g_autofree char *text = g_strdup_printf ("int\npart_%u (int x)\n{\n  return x * %u;\n}\n",
                                               i, i);

      test_write_file (root, name, text);
    }
  folder = g_file_new_for_path (root);
  lode_projects_page_add_folder (page, folder);
  wait_until (project_listed, listed, "the new project");
  item = g_object_ref (find_project (projects, root));
  wait_until (item_progressing, item, "the job's progress");

  arguments = json_object_new ();
  json_object_set_string_member (arguments, "projectPath", root);
  lode_client_call_tool_async (client, "codebase_stop", arguments, NULL, NULL, NULL, NULL, NULL,
                               call_tool_cb, &result);
  json_object_unref (arguments);
  wait_until (is_set_pointer, &result, "the stop's answer");
  g_assert_false (result->is_error);
  if (!json_object_get_boolean_member (result->structured, "stopped"))
    {
      g_test_skip ("the job ended before the stop came");
      return;
    }

  /* What the stopped job wrote is kept, and the row offers to index the rest. */
  wait_until (item_idle, item, "the row to stop showing progress");
  g_assert_cmpstr (lode_project_item_get_state (item), ==, "incomplete");
  screenshot (window, "projects-stopped-elsewhere");
}

/* Two projects named alike are told apart by their parent folder, and each row says where
 * its folder is. */
static void
test_project_names (Fixture       *fixture,
                    gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GListModel *projects = lode_projects_page_get_model (page);
  const char *parents[] = { "alpha", "beta" };
  LodeProjectItem *items[2];

  for (guint i = 0; i < G_N_ELEMENTS (parents); i++)
    {
      g_autofree char *root = g_build_filename (tmp, parents[i], "src", NULL);
      g_autofree char *source = g_build_filename (root, "main.c", NULL);

      write_file_with_mode (source, "int main (void) { return 0; }\n", 0644);
      ensure_indexed (page, root);
      items[i] = find_project (projects, root);
    }

  g_assert_cmpstr (lode_project_item_get_display_name (items[0]), ==, "alpha/src");
  g_assert_cmpstr (lode_project_item_get_display_name (items[1]), ==, "beta/src");
  g_assert_cmpstr (lode_project_item_get_location (items[0]), ==, "~/alpha/src");
  g_assert_true (has_row (window, "alpha/src"));
  g_assert_true (has_row (window, "beta/src"));
  screenshot (window, "projects-names");
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

static gboolean
has_label_text (gpointer data)
{
  return find_label (((gpointer *) data)[0], ((gpointer *) data)[1]) != NULL;
}

static gboolean
no_label (gpointer data)
{
  return find_label (((gpointer *) data)[0], ((gpointer *) data)[1]) == NULL;
}

/* A page's error reaches the user as a toast of its window, with what failed and why; a long
 * URL in the cause is cut so that the cause stays in sight, the whole message is behind
 * Details, and the toast goes away after a few seconds. */
static void
test_error_toast (Fixture       *fixture,
                  gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *models = find_widget (window, LODE_TYPE_MODELS_PAGE, 0);
  AdwViewStack *stack = ADW_VIEW_STACK (find_widget (window, ADW_TYPE_VIEW_STACK, 0));
  /* No VFS module handles this scheme: the file has no local path. */
  g_autoptr(GFile) remote = g_file_new_for_uri ("lode-test://example.org/widgets");
  g_autoptr(GError) download = g_error_new_literal (G_IO_ERROR, G_IO_ERROR_NOT_FOUND,
                                                    "Cannot download https://huggingface.co/BAAI/"
                                                    "bge-small-en-v1.5/resolve/5c38ec7c405ec4b44b9"
                                                    "4cc5a9bb96e735b38267a/model.safetensors: "
                                                    "HTTP 404 Not Found");
  const char *shown = "Cannot download the model: huggingface.co/…/model.safetensors: "
                      "HTTP 404 Not Found";
  gpointer gone[2] = { window, (gpointer) shown };

  adw_view_stack_set_visible_child_name (stack, "projects");
  g_assert_null (find_label (window, "Cannot add the folder"));
  lode_projects_page_add_folder (page, remote);
  g_assert_nonnull (find_label (window,
                                "Cannot add the folder: Only local folders can be indexed"));

  adw_view_stack_set_visible_child_name (stack, "models");
  lode_toast_show_error (models, _("Cannot download the model"), download);
  wait_until (has_label_text, (gpointer[]) { window, (gpointer) shown }, "the error's toast");
  g_assert_true (has_label (window, "_Details") || has_label (window, "Details"));
  wait_msec (600);
  screenshot (window, "error-toast");

  /* Gone after its ten seconds, not left over the pages the user moves on to. */
  adw_view_stack_set_visible_child_name (stack, "projects");
  wait_until (no_label, gone, "the toast to go");
}

/* The app in French (meson's gtk-fr test runs this with LANGUAGE=fr and the build tree's
 * catalogs): the window, a project's row, a search and the Graph page while a job runs, as a
 * French-speaking user sees them. */
static void
test_french (Fixture       *fixture,
             gconstpointer  data)
{
  GtkWidget *window = GTK_WIDGET (gtk_application_get_active_window (GTK_APPLICATION (fixture->app)));
  LodeProjectsPage *page = LODE_PROJECTS_PAGE (find_widget (window, LODE_TYPE_PROJECTS_PAGE, 0));
  GtkWidget *search = find_widget (window, LODE_TYPE_SEARCH_PAGE, 0);
  GtkWidget *graph = find_widget (window, LODE_TYPE_GRAPH_PAGE, 0);
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
  adw_view_stack_set_visible_child_name (stack, "graph");
  g_assert_true (has_label (graph, "Ajoutez un dossier dans la page Projets pour voir ses cycles d’imports"));
  g_assert_true (has_label (graph, "Ajoutez un dossier dans la page Projets pour voir ses fichiers les plus liés"));
  screenshot (window, "graph-no-project-fr");
  adw_view_stack_set_visible_child_name (stack, "projects");

  lode_projects_page_add_folder (page, folder);
  wait_until (project_listed, listed, "the project's row");
  item = g_object_ref (find_project (projects, fixture->root));
  wait_until (item_finished, item, "indexing to finish");
  g_assert_true (g_str_has_prefix (lode_project_item_get_summary (item),
                                   "Prêt · 4 fichiers ("));
  g_assert_null (strstr (lode_project_item_get_summary (item), "vecteur"));
  screenshot (window, "projects-fr");

  /* French numbers: a narrow no-break space between thousands. */
  {
    g_autofree char *chunks = lode_format_count (10795);

    g_assert_cmpstr (chunks, ==, "10\u202f795");
  }

  lode_window_search (LODE_WINDOW (window), "parse_widget_config");
  wait_until (has_search_row, window, "a search result");
  wait_for_label_prefix (search, "2 résultats, recherche lexicale — la recherche sémantique "
                                 "est désactivée (Préférences)");
  screenshot (window, "search-fr");

  /* The Graph page as a job's start leaves it. */
  adw_view_stack_set_visible_child_name (stack, "graph");
  wait_for_row (graph, "src/config.h → src/widget.h → src/config.h");
  lode_project_item_set_indexing (item, TRUE);
  wait_until (shows_label,
              (gpointer[]) { graph, (gpointer) "Les cycles d’imports s’affichent une fois "
                                               "l’indexation terminée" },
              "the lists to go");
  screenshot (window, "graph-indexing-fr");
  lode_project_item_set_indexing (item, FALSE);
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
  return strstr (log_text->str + log_start, data) != NULL;
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
  g_assert_null (strstr (log_text->str + log_start, "Cannot download the model"));

  missing = TRUE;
  gtk_widget_activate_action (models, "models.download", NULL);
  wait_until (logged, (gpointer) "Cannot download the model: ", "the download's error");
  wait_until (download_idle, models, "the download to end");

  g_unsetenv ("LODE_HF_ENDPOINT");
  g_clear_pointer (&stalled, g_ptr_array_unref);
}

#define MARK(word) "<span weight=\"bold\" background=\"#f6d32d\" bgalpha=\"40%\">" word "</span>"

/* The query's identifiers and their parts are highlighted, whatever their case; the rest of
 * the snippet is escaped, and it is cut after four lines. A pasted issue's little words are
 * not highlighted, and no term is found inside a word: "an" is not in "Instant". */
static void
test_snippet_markup (void)
{
  g_autofree char *markup = NULL;
  g_autofree char *long_markup = NULL;
  g_autofree char *prose = NULL;
  g_autofree char *inside = NULL;

  markup = lode_search_snippet_markup ("int parseWidget (Config *c); /* <b> & */", "parse_widget");
  g_assert_cmpstr (markup, ==,
                   "int " MARK ("parse") MARK ("Widget") " (Config *c); /* &lt;b&gt; &amp; */");

  long_markup = lode_search_snippet_markup ("a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n", "zz");
  g_assert_cmpstr (long_markup, ==, "a\nb\nc\nd\n…");

  prose = lode_search_snippet_markup ("Instant const x = parser_for (the, was); /* an issue */",
                                      "An issue was seen on the parser");
  g_assert_cmpstr (prose, ==,
                   "Instant const x = " MARK ("parser") "_for (the, was); /* an " MARK ("issue")
                   " */");

  inside = lode_search_snippet_markup ("Instant constant; HTTPServer http_server", "stan server");
  g_assert_cmpstr (inside, ==, "Instant constant; HTTP" MARK ("Server") " http_" MARK ("server"));
}

/* Counts grouped by thousands: the C locale names no separator, the language's is used. */
static void
test_format_count (void)
{
  g_autofree char *small = lode_format_count (999);
  g_autofree char *chunks = lode_format_count (10795);
  g_autofree char *large = lode_format_count (1234567);

  g_assert_cmpstr (small, ==, "999");
  g_assert_cmpstr (chunks, ==, "10,795");
  g_assert_cmpstr (large, ==, "1,234,567");
}

/* What a listener reads of @item when one of its properties is notified. */
static void
record_item_cb (LodeProjectItem *item,
                GParamSpec      *pspec,
                GString         *seen)
{
  g_string_append_printf (seen, "%s: %s, %s, %s\n", pspec->name,
                          lode_project_item_get_state (item),
                          lode_project_item_get_indexing (item) ? "indexing" : "idle",
                          lode_project_item_get_summary (item));
}

/* Applies @json with @update, and checks that every notification it sent came with the item
 * as it is at the end. */
static void
check_update_atomic (LodeProjectItem *item,
                     void           (*update) (LodeProjectItem *, JsonObject *),
                     const char      *json,
                     const char      *state,
                     gboolean         indexing)
{
  g_autoptr(JsonNode) node = json_from_string (json, NULL);
  g_autoptr(GString) seen = g_string_new (NULL);
  g_auto(GStrv) lines = NULL;
  g_autofree char *end = NULL;
  gulong handler;

  handler = g_signal_connect (item, "notify", G_CALLBACK (record_item_cb), seen);
  update (item, json_node_get_object (node));
  g_signal_handler_disconnect (item, handler);

  g_assert_cmpstr (lode_project_item_get_state (item), ==, state);
  g_assert_cmpint (lode_project_item_get_indexing (item), ==, indexing);
  end = g_strdup_printf ("%s, %s, %s", state, indexing ? "indexing" : "idle",
                         lode_project_item_get_summary (item));
  lines = g_strsplit (seen->str, "\n", -1);
  g_assert_cmpuint (g_strv_length (lines), >, 2);
  for (guint i = 0; lines[i][0] != '\0'; i++)
    g_assert_cmpstr (strchr (lines[i], ' ') + 1, ==, end);
}

/* A project's item changes all at once for its listeners: a new state never comes with the
 * indexing flag or the summary from before (the Graph page follows both). */
static void
test_item_update_atomic (void)
{
  g_autoptr(LodeProjectItem) item = lode_project_item_new ("/src/widgets");
  g_autoptr(JsonNode) ready = json_from_string ("{\"projectPath\": \"/src/widgets\", "
                                                "\"state\": \"ready\", \"files\": 4, "
                                                "\"chunks\": 6}", NULL);

  /* The list says a job started on a ready tree; then the status at its end. */
  lode_project_item_update_info (item, json_node_get_object (ready));
  check_update_atomic (item, lode_project_item_update_info,
                       "{\"projectPath\": \"/src/widgets\", \"state\": \"incomplete\", "
                       "\"indexing\": true, \"files\": 2, \"chunks\": 3}",
                       "incomplete", TRUE);
  check_update_atomic (item, lode_project_item_update_status,
                       "{\"projectPath\": \"/src/widgets\", \"state\": \"ready\", "
                       "\"indexing\": false, \"files\": 4, \"chunks\": 6, \"bytes\": 512, "
                       "\"databaseBytes\": 4096, \"semantic\": {\"available\": false, "
                       "\"embeddedChunks\": 0}, \"watch\": {\"watching\": true}}",
                       "ready", FALSE);
}

/* A URL in an error is cut to its host and file, so that the cause stays in sight. */
static void
test_shorten_urls (void)
{
  g_autofree char *short_text = NULL;
  g_autofree char *plain = lode_toast_shorten_urls ("No such file: /tmp/a");

  short_text = lode_toast_shorten_urls ("Cannot download https://huggingface.co/BAAI/"
                                        "bge-small-en-v1.5/resolve/5c38ec7c405ec4b44b94cc5a9bb96e"
                                        "735b38267a/config.json: HTTP 404 Not Found. See "
                                        "http://127.0.0.1:8080.");
  g_assert_cmpstr (short_text, ==, "Cannot download huggingface.co/…/config.json: HTTP 404 "
                                   "Not Found. See 127.0.0.1:8080.");
  g_assert_cmpstr (plain, ==, "No such file: /tmp/a");
}

/* The Models page in words that say what to do: a built-in encoder without its model is
 * not "not answering", and no command line is named. */
static void
check_builtin_health (GtkWidget *models)
{
  g_autoptr(JsonParser) parser = json_parser_new ();
  g_autoptr(GError) error = NULL;
  JsonObject *health;

  json_parser_load_from_data (parser,
                              "{\"embeddings\": {\"provider\": \"builtin\", \"model\": "
                              "\"bge-small-en-v1.5\", \"available\": false, \"message\": "
                              "\"no embedding model (run `lode model pull`)\"}}", -1, &error);
  g_assert_no_error (error);
  health = json_node_get_object (json_parser_get_root (parser));
  lode_models_page_show_health (LODE_MODELS_PAGE (models), health);
  g_assert_true (has_row (models, "No model downloaded yet"));
  g_assert_false (has_row (models, "Not answering"));
  g_assert_null (find_label (models, "lode model pull"));
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
  /* The keyboard in the key row: the page scrolls to it, as it does for a user. */
  gtk_widget_grab_focus (key_row);
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
name_gone (gpointer data)
{
  return !name_owned (data);
}

/* Without a Secret Service the key rows say so, and the window opens without a toast: the
 * user asked nothing yet. */
static void
test_preferences_no_keyring (Fixture       *fixture,
                             gconstpointer  data)
{
  GtkWidget *preferences;
  GtkWidget *key_row;

  g_subprocess_force_exit (keyring);
  g_subprocess_wait (keyring, NULL, NULL);
  g_clear_object (&keyring);
  secret_service_disconnect ();
  wait_until (name_gone, (gpointer) "org.freedesktop.secrets", "the keyring to go");

  g_action_group_activate_action (G_ACTION_GROUP (fixture->app), "preferences", NULL);
  wait_until (has_preferences, NULL, "the Preferences window");
  preferences = preferences_window ();
  key_row = find_widget (preferences, ADW_TYPE_PASSWORD_ENTRY_ROW, 0);
  wait_for_label (key_row, "No keyring to store keys in");
  wait_msec (600);
  g_assert_null (find_label (preferences, "Secret"));
  g_assert_null (find_label (preferences, "secrets"));
  g_assert_null (find_label (preferences, "lode migrate"));
  /* Beside the eye that shows what is typed, no promise that nothing is ever shown. */
  g_assert_null (find_label (preferences, "never shown"));
  g_assert_true (has_label_prefix (preferences, "Existing indexes stay in the store they were "
                                                "built in"));
  gtk_widget_grab_focus (key_row);
  screenshot (preferences, "preferences-no-keyring");
  gtk_window_destroy (GTK_WINDOW (preferences));

  start_keyring ();
  secret_service_disconnect ();
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
  GtkWidget *content;

  g_assert_nonnull (scrolled);
  g_assert_nonnull (group);
  wait_until (is_laid_out, scrolled, "the page to be laid out");
  /* Where the group is in the whole page, not in the part of it scrolled to. */
  content = gtk_scrolled_window_get_child (GTK_SCROLLED_WINDOW (scrolled));
  if (GTK_IS_VIEWPORT (content))
    content = gtk_viewport_get_child (GTK_VIEWPORT (content));
  g_assert_true (gtk_widget_compute_point (group, content, &GRAPHENE_POINT_INIT (0, 0), &point));
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

  /* The watch delay the README names and the watcher uses. */
  {
    GtkWidget *delay_row = find_row (preferences, _("_Watch delay"));

    g_assert_nonnull (delay_row);
    g_assert_cmpfloat (gtk_spin_button_get_value (GTK_SPIN_BUTTON (find_widget (delay_row,
                                                                                GTK_TYPE_SPIN_BUTTON,
                                                                                0))), ==, 100);
  }

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
  g_test_add_func ("/lode/gtk/format-count", test_format_count);
  g_test_add_func ("/lode/gtk/shorten-urls", test_shorten_urls);
  g_test_add_func ("/lode/gtk/item-update-atomic", test_item_update_atomic);

  log_text = g_string_new (NULL);
  g_log_set_writer_func (log_writer, log_text, NULL);
  start_services ();

#define ADD(name, func) \
  g_test_add ("/lode/gtk/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)
  ADD ("acceptance", test_acceptance);
  ADD ("visualize-interactive", test_visualize_interactive);
  ADD ("graph-large", test_graph_large);
  ADD ("graph-overview-retry", test_graph_overview_retry);
  ADD ("graph-late-status", test_graph_late_status);
  ADD ("graph-indexing", test_graph_indexing);
  ADD ("symbol-page", test_symbol_page);
  ADD ("shell-result", test_shell_result);
  ADD ("visualize-symbol", test_visualize_symbol);
  ADD ("symbol-narrow", test_symbol_narrow);
  ADD ("symbol-header", test_symbol_header);
  ADD ("narrowest", test_narrowest);
  ADD ("manage", test_manage);
  ADD ("stopped-elsewhere", test_stopped_elsewhere);
  ADD ("status-error", test_status_error);
  ADD ("indexed-elsewhere", test_indexed_elsewhere);
  ADD ("project-names", test_project_names);
  ADD ("error-toast", test_error_toast);
  ADD ("model-download", test_model_download);
  ADD ("french", test_french);
  ADD ("preferences-secret", test_preferences_secret);
  ADD ("preferences-store", test_preferences_store);
  ADD ("preferences-no-keyring", test_preferences_no_keyring);
#undef ADD

  status = g_test_run ();
  stop_services ();
  return status;
}
