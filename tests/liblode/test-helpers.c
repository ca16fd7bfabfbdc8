/* test-helpers.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <glib/gstdio.h>
#include <glib-unix.h>

#include "test-helpers.h"

static GPtrArray *captured_logs;

/* Stores a reference to @result in the GAsyncResult* that @user_data points to. */
void
test_result_cb (GObject      *object,
                GAsyncResult *result,
                gpointer      user_data)
{
  GAsyncResult **out = user_data;

  *out = g_object_ref (result);
}

/**
 * test_timeout_seconds:
 * @seconds: how long a wait may take in a normal build
 *
 * An in-test watchdog's limit: @seconds times `LODE_TEST_TIMEOUT_MULTIPLIER` (1 when unset),
 * which `.ci/run` sets where the sanitizers make every test several times slower, as it
 * gives meson's own timeouts a multiplier there.
 *
 * Returns: the limit in seconds
 */
guint
test_timeout_seconds (guint seconds)
{
  const char *multiplier = g_getenv ("LODE_TEST_TIMEOUT_MULTIPLIER");
  guint64 factor = 1;

  if (multiplier != NULL && !g_ascii_string_to_unsigned (multiplier, 10, 1, 100, &factor, NULL))
    g_error ("LODE_TEST_TIMEOUT_MULTIPLIER=%s is not a whole number from 1 to 100", multiplier);
  return seconds * (guint) factor;
}

/**
 * test_kill_descendants_at_exit:
 *
 * Makes the processes this test starts die with it, however it ends: an assertion's
 * abort() runs no teardown, and a loded, dbus-daemon or lode left running holds the test's
 * stdout, so that meson waits for it until the test's timeout. A watcher process, forked
 * here, waits for this process to end (the end of a pipe only this process holds) and then
 * kills its process group: what meson started and everything started from it that stayed in
 * the group. Only in a session of the test's own, as meson runs tests (setsid()): run from a
 * shell, the group may hold the shell's other commands. Call it first thing in main().
 */
void
test_kill_descendants_at_exit (void)
{
  int fds[2];
  pid_t group = getpid ();
  pid_t pid;
  g_autoptr(GError) error = NULL;

  if (getsid (0) != group)
    return;
  if (!g_unix_open_pipe (fds, FD_CLOEXEC, &error))
    g_error ("Cannot make a pipe: %s", error->message);

  pid = fork ();
  if (pid < 0)
    g_error ("Cannot fork: %s", g_strerror (errno));
  if (pid == 0)
    {
      int null = open ("/dev/null", O_RDWR);
      char byte;

      /* Out of the group it kills, and holding none of meson's pipes. */
      setpgid (0, 0);
      dup2 (null, STDIN_FILENO);
      dup2 (null, STDOUT_FILENO);
      dup2 (null, STDERR_FILENO);
      close (fds[1]);
      while (read (fds[0], &byte, 1) < 0 && errno == EINTR)
        ;
      kill (-group, SIGKILL);
      _exit (0);
    }
  /* The write end stays open for this process's life; close-on-exec keeps it from the
   * programs it starts, whose life would otherwise hold the watcher back. */
  close (fds[0]);
}

static gboolean
watchdog_cb (gpointer user_data)
{
  g_error ("Test timed out");
  return G_SOURCE_REMOVE;
}

/* Iterates the thread-default main context until test_result_cb() has filled *@result,
 * failing the test after 20 s (see test_timeout_seconds()). */
GAsyncResult *
test_wait_result (GAsyncResult **result)
{
  GSource *watchdog = g_timeout_source_new_seconds (test_timeout_seconds (20));

  g_source_set_callback (watchdog, watchdog_cb, NULL, NULL);
  g_source_attach (watchdog, g_main_context_get_thread_default ());
  while (*result == NULL)
    g_main_context_iteration (g_main_context_get_thread_default (), TRUE);
  g_source_destroy (watchdog);
  g_source_unref (watchdog);
  return *result;
}

static GLogWriterOutput
capture_writer (GLogLevelFlags   log_level,
                const GLogField *fields,
                gsize            n_fields,
                gpointer         user_data)
{
  for (gsize i = 0; i < n_fields; i++)
    if (g_str_equal (fields[i].key, "MESSAGE") && fields[i].value != NULL)
      g_ptr_array_add (captured_logs,
                       fields[i].length < 0 ? g_strdup (fields[i].value)
                                            : g_strndup (fields[i].value, fields[i].length));

  if (log_level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL | G_LOG_LEVEL_WARNING))
    return g_log_writer_default (log_level, fields, n_fields, user_data);
  return G_LOG_WRITER_HANDLED;
}

/* Records every log message, debug ones included. Call first thing in main(). */
void
test_capture_logs (void)
{
  captured_logs = g_ptr_array_new_with_free_func (g_free);
  g_setenv ("G_MESSAGES_DEBUG", "all", TRUE);
  g_log_set_writer_func (capture_writer, NULL, NULL);
}

void
test_logs_clear (void)
{
  g_ptr_array_set_size (captured_logs, 0);
}

guint
test_logs_count (void)
{
  return captured_logs->len;
}

gboolean
test_logs_contain (const char *needle)
{
  for (guint i = 0; i < captured_logs->len; i++)
    if (strstr (g_ptr_array_index (captured_logs, i), needle) != NULL)
      return TRUE;
  return FALSE;
}

/* The random-weight BERT of tests/liblode/fixtures/tiny-bert-random, as the build assembles it. */
const char *
test_tiny_bert_dir (void)
{
  return g_test_get_filename (G_TEST_BUILT, "liblode", "fixtures", "tiny-bert-random", NULL);
}

/* The cases of its reference.json (text, input_ids, mean_normalized, cls_normalized), owned
 * by @parser. */
JsonArray *
test_tiny_bert_cases (JsonParser *parser)
{
  g_autofree char *path = g_build_filename (test_tiny_bert_dir (), "reference.json", NULL);
  g_autoptr(GError) error = NULL;

  json_parser_load_from_mapped_file (parser, path, &error);
  g_assert_no_error (error);
  return json_object_get_array_member (json_node_get_object (json_parser_get_root (parser)),
                                       "cases");
}

/* Removes @path and everything under it, like `rm -rf`: symbolic links are removed, never
 * followed, and folders a test made unreadable are opened up first. */
void
test_remove_tree (const char *path)
{
  GStatBuf st;

  if (g_lstat (path, &st) != 0)
    return;
  if (S_ISDIR (st.st_mode))
    {
      g_autoptr(GDir) dir = NULL;
      const char *name;

      g_chmod (path, 0700);
      dir = g_dir_open (path, 0, NULL);
      while (dir != NULL && (name = g_dir_read_name (dir)) != NULL)
        {
          g_autofree char *child = g_build_filename (path, name, NULL);

          test_remove_tree (child);
        }
      g_rmdir (path);
    }
  else
    g_unlink (path);
}

/* Writes @length bytes of @contents (-1: up to its NUL) to @relative under @root, creating
 * the folders on the way. */
void
test_write_bytes (const char *root,
                  const char *relative,
                  const char *contents,
                  gssize      length)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autofree char *dir = g_path_get_dirname (path);
  g_autoptr(GError) error = NULL;

  g_assert_cmpint (g_mkdir_with_parents (dir, 0755), ==, 0);
  g_file_set_contents (path, contents, length, &error);
  g_assert_no_error (error);
}

/* Writes the text @contents to @relative under @root, creating the folders on the way. */
void
test_write_file (const char *root,
                 const char *relative,
                 const char *contents)
{
  test_write_bytes (root, relative, contents, -1);
}

/* Copies the folder @from (files and folders, recursively) into @to, made when missing. */
void
test_copy_tree (const char *from,
                const char *to)
{
  g_autoptr(GDir) dir = g_dir_open (from, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  g_assert_cmpint (g_mkdir_with_parents (to, 0700), ==, 0);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *source = g_build_filename (from, name, NULL);
      g_autofree char *target = g_build_filename (to, name, NULL);

      if (g_file_test (source, G_FILE_TEST_IS_DIR))
        test_copy_tree (source, target);
      else
        {
          g_autofree char *text = NULL;
          gsize len;

          g_assert_true (g_file_get_contents (source, &text, &len, NULL));
          g_assert_true (g_file_set_contents (target, text, len, NULL));
        }
    }
}

/* "name:state" of each artifact of a codebase_context answer (lode_context_report_list()). */
char *
test_artifact_states (JsonObject *list)
{
  JsonArray *artifacts = json_object_get_array_member (list, "artifacts");
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (artifacts); i++)
    {
      JsonObject *a = json_array_get_object_element (artifacts, i);

      g_string_append_printf (out, "%s%s:%s", i > 0 ? " " : "",
                              json_object_get_string_member (a, "name"),
                              json_object_get_string_member (a, "state"));
    }
  return g_string_free (out, FALSE);
}

/* A translation catalog the shape of git's po/ files: @n_entries messages, one in @every
 * of them git's "not a git repository" (grep's tests look for it in several catalogs). */
char *
test_po_catalog (guint n_entries,
                 guint every)
{
  GString *catalog = g_string_new ("msgid \"\"\nmsgstr \"Content-Type: text/plain\"\n\n");

  for (guint i = 0; i < n_entries; i++)
    {
      g_string_append_printf (catalog, "#: builtin/gc.c:%u\nmsgid \"failed to prune %%s\"\n"
                              "msgstr \"impossible d'élaguer %%s\"\n\n", 100 + i);
      if (i % every == every / 2)
        g_string_append_printf (catalog, "#: setup.c:%u\n"
                                "msgid \"not a git repository (or any parent): %%s\"\n"
                                "msgstr \"ni ceci ni aucun parent n'est un dépôt git : %%s\"\n\n",
                                1400 + i);
    }
  return g_string_free (catalog, FALSE);
}
