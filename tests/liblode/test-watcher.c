/* test-watcher.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <gio/gio.h>
#include <glib/gstdio.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

#include "lode.h"
#include "test-helpers.h"

typedef struct
{
  char        *tmp;
  char        *root;
  LodeWatcher *watcher;
  GPtrArray   *batches;      /* of GPtrArray of LodeChange */
  guint        n_rescans;
} Fixture;

/* Writes @relative in place, so that the watcher sees it created, not renamed into place. */
static void
create_file (const char *root,
             const char *relative,
             const char *contents)
{
  g_autofree char *path = g_build_filename (root, relative, NULL);
  g_autoptr(GError) error = NULL;

  g_file_set_contents_full (path, contents, -1, G_FILE_SET_CONTENTS_NONE, 0644, &error);
  g_assert_no_error (error);
}

static void
changed_cb (LodeWatcher *watcher,
            GPtrArray   *changes,
            gpointer     user_data)
{
  Fixture *fixture = user_data;

  g_ptr_array_add (fixture->batches, g_ptr_array_ref (changes));
}

static void
rescan_cb (LodeWatcher *watcher,
           gpointer     user_data)
{
  Fixture *fixture = user_data;

  fixture->n_rescans++;
}

static void
fixture_setup (Fixture       *fixture,
               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  fixture->tmp = g_dir_make_tmp ("lode-watcher-XXXXXX", &error);
  g_assert_no_error (error);
  fixture->root = g_build_filename (fixture->tmp, "tree", NULL);
  test_write_file (fixture->root, "src/main.c", "int main (void) { return 0; }\n");
  test_write_file (fixture->root, "src/util/util.c", "int util (void) { return 1; }\n");
  test_write_file (fixture->root, ".gitignore", "build/\n*.o\n");
  test_write_file (fixture->root, "build/out.c", "int generated;\n");
  test_write_file (fixture->root, "node_modules/x/index.js", "module.exports = 1;\n");

  fixture->batches = g_ptr_array_new_with_free_func ((GDestroyNotify) g_ptr_array_unref);
  fixture->watcher = lode_watcher_new (fixture->root);
  lode_watcher_set_debounce_msec (fixture->watcher, 100);
  g_signal_connect (fixture->watcher, "changed", G_CALLBACK (changed_cb), fixture);
  g_signal_connect (fixture->watcher, "rescan", G_CALLBACK (rescan_cb), fixture);
}

static void
fixture_teardown (Fixture       *fixture,
                  gconstpointer  data)
{
  g_clear_object (&fixture->watcher);
  g_clear_pointer (&fixture->batches, g_ptr_array_unref);
  g_free (fixture->root);
  test_remove_tree (fixture->tmp);
  g_free (fixture->tmp);
}

static gboolean
timeout_cb (gpointer user_data)
{
  g_assert_not_reached ();
  return G_SOURCE_REMOVE;
}

/* Iterates the main loop until a batch arrives, under a watchdog. */
static GPtrArray *
wait_batch (Fixture *fixture)
{
  guint watchdog = g_timeout_add_seconds (10, timeout_cb, NULL);

  while (fixture->batches->len == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);

  return g_ptr_array_steal_index (fixture->batches, 0);
}

static const LodeChange *
find_change (GPtrArray  *changes,
             const char *path)
{
  for (guint i = 0; i < changes->len; i++)
    {
      const LodeChange *change = g_ptr_array_index (changes, i);

      if (strcmp (change->path, path) == 0)
        return change;
    }

  return NULL;
}

/* Iterates the main loop until every path of the NULL-terminated list is reported and
 * returns every change reported until then: on a loaded machine the debounce can end
 * between the events of one write, e.g. between g_file_set_contents() creating its
 * temporary file and renaming it into place. */
static G_GNUC_NULL_TERMINATED GPtrArray *
wait_paths (Fixture    *fixture,
            const char *path,
            ...)
{
  GPtrArray *changes = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_change_free);
  va_list args;

  va_start (args, path);
  for (; path != NULL; path = va_arg (args, const char *))
    while (find_change (changes, path) == NULL)
      g_ptr_array_extend_and_steal (changes, wait_batch (fixture));
  va_end (args);

  return changes;
}

static void
test_ignored_dirs_not_watched (Fixture       *fixture,
                               gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  /* root, src, src/util; not build/ (.gitignore) nor node_modules/ (defaults). */
  g_assert_cmpuint (lode_watcher_get_n_watches (fixture->watcher), ==, 3);
  g_assert_false (lode_watcher_get_polling (fixture->watcher));
  g_assert_nonnull (strstr (lode_watcher_get_status (fixture->watcher), "3 directories"));
}

static void
test_create_modify_delete (Fixture       *fixture,
                           gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autofree char *main_c = g_build_filename (fixture->root, "src/main.c", NULL);
  const LodeChange *change;

  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  create_file (fixture->root, "src/new.c", "int fresh;\n");
  test_write_file (fixture->root, "src/main.c", "int main (void) { return 2; }\n");
  test_write_file (fixture->root, "src/junk.o", "ignored\n");
  test_write_file (fixture->root, "build/more.c", "ignored\n");
  batch = wait_paths (fixture, "src/new.c", "src/main.c", NULL);

  change = find_change (batch, "src/new.c");
  g_assert_nonnull (change);
  g_assert_cmpint (change->kind, ==, LODE_CHANGE_CREATED);
  change = find_change (batch, "src/main.c");
  g_assert_nonnull (change);
  /* g_file_set_contents() writes a temporary file and renames it over the old one. */
  g_assert_cmpint (change->kind, !=, LODE_CHANGE_DELETED);
  g_assert_null (find_change (batch, "src/junk.o"));
  g_assert_null (find_change (batch, "build/more.c"));
  g_clear_pointer (&batch, g_ptr_array_unref);

  g_assert_cmpint (g_unlink (main_c), ==, 0);
  batch = wait_paths (fixture, "src/main.c", NULL);
  change = find_change (batch, "src/main.c");
  g_assert_cmpint (change->kind, ==, LODE_CHANGE_DELETED);
}

/* A file touched without a change of content (touch, cp -a) is a change: the index stores
 * its modification time. A touched directory is none (the next event, a file's, is). */
static void
test_touched (Fixture       *fixture,
              gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autofree char *util_dir = g_build_filename (fixture->root, "src/util", NULL);
  g_autofree char *main_c = g_build_filename (fixture->root, "src/main.c", NULL);
  struct timespec times[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
  const LodeChange *change;

  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  g_assert_cmpint (utimensat (AT_FDCWD, util_dir, times, 0), ==, 0);
  g_assert_cmpint (utimensat (AT_FDCWD, main_c, times, 0), ==, 0);
  batch = wait_paths (fixture, "src/main.c", NULL);
  change = find_change (batch, "src/main.c");
  g_assert_cmpint (change->kind, ==, LODE_CHANGE_CHANGED);
  g_assert_null (find_change (batch, "src/util"));
}

static void
test_created_then_deleted_cancels (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autofree char *tmp = g_build_filename (fixture->root, "src/tmp.c", NULL);

  /* All three writes must fall in one quiet period, also on a loaded machine. */
  lode_watcher_set_debounce_msec (fixture->watcher, 1500);
  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  test_write_file (fixture->root, "src/tmp.c", "int t;\n");
  g_assert_cmpint (g_unlink (tmp), ==, 0);
  test_write_file (fixture->root, "src/kept.c", "int k;\n");
  batch = wait_batch (fixture);

  g_assert_null (find_change (batch, "src/tmp.c"));
  g_assert_nonnull (find_change (batch, "src/kept.c"));
}

static void
test_rename_is_a_move (Fixture       *fixture,
                       gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autofree char *from = g_build_filename (fixture->root, "src/main.c", NULL);
  g_autofree char *to = g_build_filename (fixture->root, "src/util/entry.c", NULL);
  g_autofree char *dir_from = g_build_filename (fixture->root, "src/util", NULL);
  g_autofree char *dir_to = g_build_filename (fixture->root, "lib", NULL);
  const LodeChange *change;

  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  g_assert_cmpint (g_rename (from, to), ==, 0);
  batch = wait_batch (fixture);
  g_assert_cmpuint (batch->len, ==, 1);
  change = g_ptr_array_index (batch, 0);
  g_assert_cmpint (change->kind, ==, LODE_CHANGE_RENAMED);
  g_assert_cmpstr (change->path, ==, "src/util/entry.c");
  g_assert_cmpstr (change->old_path, ==, "src/main.c");
  g_clear_pointer (&batch, g_ptr_array_unref);

  /* A directory moved: its monitors follow it, and files inside it are still seen. */
  g_assert_cmpint (g_rename (dir_from, dir_to), ==, 0);
  batch = wait_paths (fixture, "lib", NULL);
  change = find_change (batch, "lib");
  g_assert_nonnull (change);
  g_assert_cmpint (change->kind, ==, LODE_CHANGE_RENAMED);
  g_assert_cmpstr (change->old_path, ==, "src/util");
  g_clear_pointer (&batch, g_ptr_array_unref);

  test_write_file (fixture->root, "lib/added.c", "int added;\n");
  batch = wait_paths (fixture, "lib/added.c", NULL);
  g_assert_nonnull (find_change (batch, "lib/added.c"));
  g_assert_cmpuint (lode_watcher_get_n_watches (fixture->watcher), ==, 3);
}

static void
test_flood_is_one_batch (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;

  /* The flush may wait ten debounces at most: room for 2,000 writes on a loaded machine. */
  lode_watcher_set_debounce_msec (fixture->watcher, 1000);
  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  for (guint i = 0; i < 2000; i++)
    {
      g_autofree char *rel = g_strdup_printf ("src/gen/d%u/f%u.c", i % 20, i);

      test_write_file (fixture->root, rel, "int x;\n");
    }

  batch = wait_batch (fixture);
  /* New directories are reported as created; files written after their monitor existed too.
   * All of it is one batch. */
  g_assert_nonnull (find_change (batch, "src/gen"));
  g_assert_cmpuint (fixture->batches->len, ==, 0);
  g_assert_cmpuint (lode_watcher_get_n_watches (fixture->watcher), ==, 3 + 1 + 20);
}

static void
test_new_dir_is_watched (Fixture       *fixture,
                         gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autofree char *dir = g_build_filename (fixture->root, "pkg", NULL);

  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  g_assert_cmpint (g_mkdir (dir, 0755), ==, 0);
  batch = wait_batch (fixture);
  g_assert_nonnull (find_change (batch, "pkg"));
  g_clear_pointer (&batch, g_ptr_array_unref);

  test_write_file (fixture->root, "pkg/mod.py", "def f(): pass\n");
  batch = wait_paths (fixture, "pkg/mod.py", NULL);
  g_assert_nonnull (find_change (batch, "pkg/mod.py"));
}

static void
wait_rescan (Fixture *fixture)
{
  guint watchdog = g_timeout_add_seconds (10, timeout_cb, NULL);

  while (fixture->n_rescans == 0)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);
}

/* Fails when a batch reports @path. */
static void
assert_not_reported (Fixture    *fixture,
                     const char *path)
{
  for (guint i = 0; i < fixture->batches->len; i++)
    if (find_change (g_ptr_array_index (fixture->batches, i), path) != NULL)
      g_error ("%s was reported, but it changed in a folder that is no longer the tree", path);
}

/* mv P P.old; mv P.new P: the monitors follow P.old. The new P is watched and read again;
 * a file deleted in P.old is not deleted from P, whose own new files are reported. */
static void
test_root_replaced (Fixture       *fixture,
                    gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  g_autofree char *old = g_strconcat (fixture->root, ".old", NULL);
  g_autofree char *new = g_strconcat (fixture->root, ".new", NULL);
  g_autofree char *old_main = g_build_filename (old, "src", "main.c", NULL);

  test_write_file (new, "src/main.c", "int main (void) { return 2; }\n");
  test_write_file (new, "lib/a/b/c.c", "int c;\n");
  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  g_assert_cmpint (g_rename (fixture->root, old), ==, 0);
  g_assert_cmpint (g_rename (new, fixture->root), ==, 0);
  wait_rescan (fixture);
  /* root, src, lib, lib/a, lib/a/b */
  g_assert_cmpstr (lode_watcher_get_status (fixture->watcher), ==,
                   "Watching 5 directories live");

  g_assert_cmpint (g_unlink (old_main), ==, 0);
  create_file (fixture->root, "src/added.c", "int added;\n");
  batch = wait_paths (fixture, "src/added.c", NULL);
  g_assert_null (find_change (batch, "src/main.c"));
  assert_not_reported (fixture, "src/main.c");
}

/* rm -rf P; mkdir P: the status says the tree is gone, then the new P is watched and read
 * again. */
static void
test_root_removed (Fixture       *fixture,
                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(GPtrArray) batch = NULL;
  guint watchdog;

  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  test_remove_tree (fixture->root);
  watchdog = g_timeout_add_seconds (10, timeout_cb, NULL);
  while (strstr (lode_watcher_get_status (fixture->watcher), "removed") == NULL)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (watchdog);
  g_assert_cmpuint (lode_watcher_get_n_watches (fixture->watcher), ==, 0);

  g_assert_cmpint (g_mkdir (fixture->root, 0755), ==, 0);
  wait_rescan (fixture);
  g_assert_cmpstr (lode_watcher_get_status (fixture->watcher), ==,
                   "Watching 1 directory live");
  create_file (fixture->root, "again.c", "int again;\n");
  batch = wait_paths (fixture, "again.c", NULL);
  g_assert_nonnull (find_change (batch, "again.c"));
}

static void
test_budget_falls_back_to_rescans (Fixture       *fixture,
                                   gconstpointer  data)
{
  g_autoptr(GError) error = NULL;

  lode_watcher_set_max_watches (fixture->watcher, 2);
  lode_watcher_set_rescan_interval (fixture->watcher, 1);
  lode_watcher_start (fixture->watcher, &error);
  g_assert_no_error (error);

  g_assert_true (lode_watcher_get_polling (fixture->watcher));
  g_assert_cmpuint (lode_watcher_get_n_watches (fixture->watcher), ==, 0);
  g_assert_nonnull (strstr (lode_watcher_get_status (fixture->watcher),
                            "fs.inotify.max_user_watches"));

  while (fixture->n_rescans == 0)
    g_main_context_iteration (NULL, TRUE);
}

static void
test_budget_default (void)
{
  g_autofree char *text = NULL;
  guint budget = lode_watcher_get_inotify_budget ();

  g_assert_cmpuint (budget, >, 0);
  if (g_file_get_contents ("/proc/sys/fs/inotify/max_user_watches", &text, NULL, NULL))
    g_assert_cmpuint (budget, <, g_ascii_strtoull (text, NULL, 10));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(name, func) \
  g_test_add ("/lode/watcher/" name, Fixture, NULL, fixture_setup, func, fixture_teardown)

  ADD ("ignored-dirs-not-watched", test_ignored_dirs_not_watched);
  ADD ("create-modify-delete", test_create_modify_delete);
  ADD ("touched", test_touched);
  ADD ("created-then-deleted-cancels", test_created_then_deleted_cancels);
  ADD ("rename-is-a-move", test_rename_is_a_move);
  ADD ("flood-is-one-batch", test_flood_is_one_batch);
  ADD ("new-dir-is-watched", test_new_dir_is_watched);
  ADD ("root-replaced", test_root_replaced);
  ADD ("root-removed", test_root_removed);
  ADD ("budget-falls-back-to-rescans", test_budget_falls_back_to_rescans);
  g_test_add_func ("/lode/watcher/budget-default", test_budget_default);

  return g_test_run ();
}
