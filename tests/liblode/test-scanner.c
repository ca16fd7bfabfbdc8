/* test-scanner.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>
#include <unistd.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "lode-error.h"
#include "lode-scanner.h"
#include "test-helpers.h"

/* Each test builds its tree at run time in a fresh directory: symlinks, FIFOs and unreadable
 * files cannot be committed as fixtures. */
typedef struct
{
  char      *root;
  GPtrArray *files;
  GPtrArray *skipped;
} ScanFixture;

static void
scan_setup (ScanFixture   *fixture,
            gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *tmp = g_dir_make_tmp ("lode-scanner-XXXXXX", &error);

  g_assert_no_error (error);
  /* The scanner reports canonical paths; /tmp may itself be a link. */
  fixture->root = g_canonicalize_filename (tmp, NULL);
}

static void
scan_teardown (ScanFixture   *fixture,
               gconstpointer  user_data)
{
  test_remove_tree (fixture->root);
  g_clear_pointer (&fixture->root, g_free);
  g_clear_pointer (&fixture->files, g_ptr_array_unref);
  g_clear_pointer (&fixture->skipped, g_ptr_array_unref);
}

static char *
fixture_path (ScanFixture *fixture,
              const char  *rel)
{
  return g_build_filename (fixture->root, rel, NULL);
}

static void
make_dir (ScanFixture *fixture,
          const char  *rel)
{
  g_autofree char *path = fixture_path (fixture, rel);

  g_assert_cmpint (g_mkdir_with_parents (path, 0755), ==, 0);
}

static void
make_symlink (ScanFixture *fixture,
              const char  *target,
              const char  *rel)
{
  g_autofree char *path = fixture_path (fixture, rel);

  g_assert_cmpint (symlink (target, path), ==, 0);
}

static void
scan (ScanFixture *fixture,
      guint64      max_file_size)
{
  g_autoptr(LodeScanner) scanner = lode_scanner_new (fixture->root);
  g_autoptr(GError) error = NULL;

  if (max_file_size > 0)
    lode_scanner_set_max_file_size (scanner, max_file_size);

  g_clear_pointer (&fixture->files, g_ptr_array_unref);
  g_clear_pointer (&fixture->skipped, g_ptr_array_unref);
  g_assert_true (lode_scanner_scan (scanner, NULL, &fixture->files, &fixture->skipped, &error));
  g_assert_no_error (error);
  g_assert_nonnull (fixture->files);
  g_assert_nonnull (fixture->skipped);
}

/* The scanned paths, one per line, in the order returned. */
static char *
file_list (ScanFixture *fixture)
{
  g_autoptr(GString) out = g_string_new (NULL);

  for (guint i = 0; i < fixture->files->len; i++)
    {
      LodeScanFile *file = g_ptr_array_index (fixture->files, i);

      g_string_append_printf (out, "%s\n", file->path);
    }

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static const LodeSkippedFile *
find_skipped (ScanFixture *fixture,
              const char  *path)
{
  for (guint i = 0; i < fixture->skipped->len; i++)
    {
      LodeSkippedFile *skipped = g_ptr_array_index (fixture->skipped, i);

      if (strcmp (skipped->path, path) == 0)
        return skipped;
    }

  return NULL;
}

static const LodeScanFile *
find_file (ScanFixture *fixture,
           const char  *path)
{
  for (guint i = 0; i < fixture->files->len; i++)
    {
      LodeScanFile *file = g_ptr_array_index (fixture->files, i);

      if (strcmp (file->path, path) == 0)
        return file;
    }

  return NULL;
}

static void
assert_skipped (ScanFixture    *fixture,
                const char     *path,
                LodeSkipReason  reason)
{
  const LodeSkippedFile *skipped = find_skipped (fixture, path);

  if (skipped == NULL)
    g_error ("%s was not reported as skipped", path);
  g_assert_cmpint (skipped->reason, ==, reason);
  g_assert_nonnull (skipped->detail);
  g_assert_cmpstr (skipped->detail, !=, "");
}

static void
test_ignore_rules (ScanFixture   *fixture,
                   gconstpointer  user_data)
{
  g_autofree char *list = NULL;
  const LodeScanFile *main_c;
  g_autofree char *main_path = NULL;
  struct stat st;

  test_write_file (fixture->root, "src/main.c", "int main (void) { return 0; }\n");
  test_write_file (fixture->root, "src/util.h", "void util (void);\n");
  test_write_file (fixture->root, "README.md", "# Hello\n");
  test_write_file (fixture->root, "app.js", "x();\n");
  /* Default rules. */
  test_write_file (fixture->root, "app.min.js", "x();\n");
  test_write_file (fixture->root, "package-lock.json", "{}\n");
  test_write_file (fixture->root, "node_modules/dep/index.js", "x();\n");
  test_write_file (fixture->root, "web/node_modules/dep/index.js", "x();\n");
  test_write_file (fixture->root, ".git/HEAD", "ref: refs/heads/main\n");
  test_write_file (fixture->root, ".git/info/exclude", "*.secret\n");
  test_write_file (fixture->root, "target/debug/out.rs", "fn main() {}\n");
  /* The root .gitignore, and a .lodeignore overriding it and the defaults. */
  test_write_file (fixture->root, ".gitignore", "*.tmp\nsecret/\n/only-root.txt\n");
  test_write_file (fixture->root, ".lodeignore", "!keep.tmp\ndocs/draft.md\n!target/\n");
  test_write_file (fixture->root, "a.tmp", "x\n");
  test_write_file (fixture->root, "keep.tmp", "x\n");
  test_write_file (fixture->root, "secret/key.c", "x\n");
  test_write_file (fixture->root, "docs/draft.md", "x\n");
  test_write_file (fixture->root, "docs/guide.md", "x\n");
  test_write_file (fixture->root, "only-root.txt", "x\n");
  test_write_file (fixture->root, "lib/only-root.txt", "x\n");
  test_write_file (fixture->root, "x.secret", "x\n");
  /* A nested .gitignore applies only below its directory, and can re-include. */
  test_write_file (fixture->root, "lib/.gitignore", "*.c\n!*.tmp\n");
  test_write_file (fixture->root, "lib/a.c", "x\n");
  test_write_file (fixture->root, "lib/b.tmp", "x\n");
  test_write_file (fixture->root, "lib/b.h", "x\n");
  /* Inside an ignored directory nothing is re-included. */
  test_write_file (fixture->root, "secret/.gitignore", "!*\n");
  /* Names whose byte order differs from their component order. */
  test_write_file (fixture->root, "a-b.c", "x\n");
  test_write_file (fixture->root, "a.c", "x\n");
  test_write_file (fixture->root, "a/b.c", "x\n");
  make_dir (fixture, "empty");

  scan (fixture, 0);
  list = file_list (fixture);
  g_assert_cmpstr (list, ==,
                   ".gitignore\n"
                   ".lodeignore\n"
                   "README.md\n"
                   "a-b.c\n"
                   "a.c\n"
                   "a/b.c\n"
                   "app.js\n"
                   "docs/guide.md\n"
                   "keep.tmp\n"
                   "lib/.gitignore\n"
                   "lib/b.h\n"
                   "lib/b.tmp\n"
                   "lib/only-root.txt\n"
                   "src/main.c\n"
                   "src/util.h\n"
                   "target/debug/out.rs\n");
  /* Ignored files are not reported as skipped. */
  g_assert_cmpuint (fixture->skipped->len, ==, 0);

  main_c = find_file (fixture, "src/main.c");
  main_path = fixture_path (fixture, "src/main.c");
  g_assert_cmpint (stat (main_path, &st), ==, 0);
  g_assert_cmpuint (main_c->size, ==, strlen ("int main (void) { return 0; }\n"));
  g_assert_cmpint (main_c->mtime_usec / G_USEC_PER_SEC, ==, st.st_mtime);
  g_assert_nonnull (main_c->language);
  g_assert_cmpstr (main_c->language->id, ==, "c");
}

/* Third-party folders stay out unless .lode.json lets them in; a broken .lode.json keeps
 * the defaults rather than failing the scan. */
static void
test_vendored (ScanFixture   *fixture,
               gconstpointer  user_data)
{
  g_autofree char *list = NULL;

  test_write_file (fixture->root, "main.go", "package main\n");
  test_write_file (fixture->root, "vendor/github.com/x/y/y.go", "package y\n");
  test_write_file (fixture->root, "app/vendor/autoload.php", "<?php\n");
  test_write_file (fixture->root, "ios/Pods/Alamofire/Source/Request.swift", "import Foundation\n");
  test_write_file (fixture->root, "third_party/zlib/zlib.h", "int deflate (void);\n");
  test_write_file (fixture->root, "src/vendors.c", "int x;\n");

  scan (fixture, 0);
  list = file_list (fixture);
  g_assert_cmpstr (list, ==, "main.go\nsrc/vendors.c\n");
  g_clear_pointer (&list, g_free);
  g_clear_pointer (&fixture->files, g_ptr_array_unref);
  g_clear_pointer (&fixture->skipped, g_ptr_array_unref);

  test_write_file (fixture->root, ".lode.json", "{\"includeVendored\": true}\n");
  scan (fixture, 0);
  list = file_list (fixture);
  g_assert_cmpstr (list, ==,
                   ".lode.json\n"
                   "app/vendor/autoload.php\n"
                   "ios/Pods/Alamofire/Source/Request.swift\n"
                   "main.go\n"
                   "src/vendors.c\n"
                   "third_party/zlib/zlib.h\n"
                   "vendor/github.com/x/y/y.go\n");
  g_clear_pointer (&list, g_free);
  g_clear_pointer (&fixture->files, g_ptr_array_unref);
  g_clear_pointer (&fixture->skipped, g_ptr_array_unref);

  test_write_file (fixture->root, ".lode.json", "{\"includeVendored\": \"yes\"}\n");
  g_test_expect_message ("lode-config", G_LOG_LEVEL_WARNING, "*includeVendored*");
  scan (fixture, 0);
  g_test_assert_expected_messages ();
  list = file_list (fixture);
  g_assert_cmpstr (list, ==, ".lode.json\nmain.go\nsrc/vendors.c\n");
}

static void
test_size_cap (ScanFixture   *fixture,
               gconstpointer  user_data)
{
  g_autoptr(LodeScanner) scanner = lode_scanner_new (fixture->root);
  g_autofree char *big = g_strnfill (101, 'x');
  g_autofree char *fits = g_strnfill (100, 'x');
  guint64 max_size = 0;

  g_object_get (scanner, "max-file-size", &max_size, NULL);
  g_assert_cmpuint (max_size, ==, 2 * 1024 * 1024);

  test_write_file (fixture->root, "big.txt", big);
  test_write_file (fixture->root, "fits.txt", fits);
  test_write_file (fixture->root, "sub/big.c", big);

  scan (fixture, 100);
  g_assert_cmpuint (fixture->files->len, ==, 1);
  g_assert_nonnull (find_file (fixture, "fits.txt"));
  assert_skipped (fixture, "big.txt", LODE_SKIP_TOO_LARGE);
  assert_skipped (fixture, "sub/big.c", LODE_SKIP_TOO_LARGE);
  /* The detail states both sizes exactly. */
  g_assert_nonnull (strstr (find_skipped (fixture, "big.txt")->detail, "101 bytes"));
  g_assert_nonnull (strstr (find_skipped (fixture, "big.txt")->detail, "100 bytes"));
  g_assert_cmpstr (lode_skip_reason_to_string (LODE_SKIP_TOO_LARGE), ==,
                   "larger than the size limit");

  /* The default cap keeps both. */
  scan (fixture, 0);
  g_assert_cmpuint (fixture->files->len, ==, 3);
  g_assert_cmpuint (fixture->skipped->len, ==, 0);
}

static void
test_special_files (ScanFixture   *fixture,
                    gconstpointer  user_data)
{
  g_autofree char *fifo = fixture_path (fixture, "pipe");
  g_autofree char *ignored_fifo = fixture_path (fixture, "build/pipe");
  g_autofree char *sock_path = fixture_path (fixture, "sock");
  g_autoptr(GSocket) sock = NULL;
  g_autoptr(GSocketAddress) address = NULL;
  g_autoptr(GError) error = NULL;
  const LodeSkippedFile *skipped;

  test_write_file (fixture->root, "main.c", "x\n");
  make_dir (fixture, "build");
  /* Opening a FIFO without a writer would block forever: the scan must not. */
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_cmpint (mkfifo (ignored_fifo, 0644), ==, 0);

  sock = g_socket_new (G_SOCKET_FAMILY_UNIX, G_SOCKET_TYPE_STREAM, G_SOCKET_PROTOCOL_DEFAULT,
                       &error);
  g_assert_no_error (error);
  address = g_unix_socket_address_new (sock_path);
  g_socket_bind (sock, address, TRUE, &error);
  g_assert_no_error (error);

  scan (fixture, 0);
  g_assert_cmpuint (fixture->files->len, ==, 1);
  assert_skipped (fixture, "pipe", LODE_SKIP_NOT_REGULAR);
  skipped = find_skipped (fixture, "pipe");
  g_assert_cmpstr (skipped->detail, ==, "FIFO");
  assert_skipped (fixture, "sock", LODE_SKIP_NOT_REGULAR);
  g_assert_null (find_skipped (fixture, "build/pipe"));
  g_assert_cmpuint (fixture->skipped->len, ==, 2);
}

static void
test_symlinks (ScanFixture   *fixture,
               gconstpointer  user_data)
{
  g_autoptr(GError) error = NULL;
  g_autofree char *outside_tmp = g_dir_make_tmp ("lode-outside-XXXXXX", &error);
  g_autofree char *outside = NULL;
  g_autofree char *outside_file = NULL;
  g_autofree char *list = NULL;
  const LodeSkippedFile *skipped;

  g_assert_no_error (error);
  outside = g_canonicalize_filename (outside_tmp, NULL);
  outside_file = g_build_filename (outside, "passwd", NULL);
  g_file_set_contents (outside_file, "secret\n", -1, &error);
  g_assert_no_error (error);

  test_write_file (fixture->root, "a/one.c", "x\n");
  test_write_file (fixture->root, "src/main.c", "x\n");
  test_write_file (fixture->root, ".gitignore", "hidden/\n/ignored-link\n");
  test_write_file (fixture->root, "hidden/h.c", "x\n");
  /* Loops: to a parent, to the root, to itself, in a cycle. */
  make_symlink (fixture, "..", "a/up");
  make_symlink (fixture, "../..", "a/b-up");
  make_symlink (fixture, "self", "self");
  make_symlink (fixture, "cycle2", "cycle1");
  make_symlink (fixture, "cycle1", "cycle2");
  /* Out of the root, absolute and relative. */
  make_symlink (fixture, outside, "out-dir");
  make_symlink (fixture, outside_file, "out-file");
  make_symlink (fixture, "../../../../../../../../../../../etc", "out-rel");
  /* Dangling. */
  make_symlink (fixture, "does-not-exist", "dangling");
  /* Inside the root: a directory and a file already listed under their real paths, and a
   * directory that is only reachable through links (its real path is ignored). */
  make_symlink (fixture, "src", "src-alias");
  make_symlink (fixture, "src/main.c", "main-alias.c");
  make_symlink (fixture, "hidden", "view");
  make_symlink (fixture, "hidden", "view2");
  /* An ignored link is neither followed nor reported. */
  make_symlink (fixture, outside, "ignored-link");

  scan (fixture, 0);
  list = file_list (fixture);
  g_assert_cmpstr (list, ==,
                   ".gitignore\n"
                   "a/one.c\n"
                   "src/main.c\n"
                   "view/h.c\n");

  assert_skipped (fixture, "a/up", LODE_SKIP_SYMLINK_LOOP);
  assert_skipped (fixture, "self", LODE_SKIP_SYMLINK_LOOP);
  assert_skipped (fixture, "cycle1", LODE_SKIP_SYMLINK_LOOP);
  assert_skipped (fixture, "cycle2", LODE_SKIP_SYMLINK_LOOP);
  assert_skipped (fixture, "out-dir", LODE_SKIP_SYMLINK_OUTSIDE);
  assert_skipped (fixture, "out-file", LODE_SKIP_SYMLINK_OUTSIDE);
  assert_skipped (fixture, "out-rel", LODE_SKIP_SYMLINK_OUTSIDE);
  assert_skipped (fixture, "dangling", LODE_SKIP_SYMLINK_LOOP);
  skipped = find_skipped (fixture, "dangling");
  g_assert_nonnull (strstr (skipped->detail, "dangling"));
  /* a/b-up leads to the root's parent: outside. */
  assert_skipped (fixture, "a/b-up", LODE_SKIP_SYMLINK_OUTSIDE);
  g_assert_null (find_skipped (fixture, "src-alias"));
  g_assert_null (find_skipped (fixture, "main-alias.c"));
  g_assert_null (find_skipped (fixture, "view2"));
  g_assert_null (find_skipped (fixture, "ignored-link"));
  g_assert_cmpuint (fixture->skipped->len, ==, 9);

  test_remove_tree (outside);
}

static void
test_unreadable (ScanFixture   *fixture,
                 gconstpointer  user_data)
{
  g_autofree char *locked_dir = fixture_path (fixture, "locked");
  g_autofree char *locked_file = fixture_path (fixture, "secret.c");

  test_write_file (fixture->root, "ok.c", "x\n");
  test_write_file (fixture->root, "locked/inner.c", "x\n");
  test_write_file (fixture->root, "secret.c", "x\n");
  g_assert_cmpint (g_chmod (locked_dir, 0), ==, 0);
  g_assert_cmpint (g_chmod (locked_file, 0), ==, 0);

  scan (fixture, 0);

  /* Root reads anything: permissions cannot make a file unreadable for it. */
  if (geteuid () == 0)
    {
      g_assert_nonnull (find_file (fixture, "secret.c"));
      g_test_skip ("running as root, permissions do not stop reads");
      return;
    }

  g_assert_cmpuint (fixture->files->len, ==, 1);
  g_assert_nonnull (find_file (fixture, "ok.c"));
  assert_skipped (fixture, "locked", LODE_SKIP_UNREADABLE);
  assert_skipped (fixture, "secret.c", LODE_SKIP_UNREADABLE);
}

static void
test_bad_names (ScanFixture   *fixture,
                gconstpointer  user_data)
{
  test_write_file (fixture->root, "ok.c", "x\n");
  test_write_file (fixture->root, "caf\xc3\xa9.c", "x\n");
  test_write_file (fixture->root, "bad\xff.c", "x\n");

  scan (fixture, 0);
  g_assert_cmpuint (fixture->files->len, ==, 2);
  g_assert_nonnull (find_file (fixture, "caf\xc3\xa9.c"));
  /* Reported under a printable name. */
  assert_skipped (fixture, "bad\xef\xbf\xbd.c", LODE_SKIP_UNREADABLE);
}

static void
test_empty (ScanFixture   *fixture,
            gconstpointer  user_data)
{
  make_dir (fixture, "a/b/c");

  scan (fixture, 0);
  g_assert_cmpuint (fixture->files->len, ==, 0);
  g_assert_cmpuint (fixture->skipped->len, ==, 0);
}

static void
test_bad_root (ScanFixture   *fixture,
               gconstpointer  user_data)
{
  g_autofree char *missing = fixture_path (fixture, "missing");
  g_autofree char *regular = fixture_path (fixture, "file.c");
  g_autoptr(LodeScanner) scanner = NULL;
  g_autoptr(LodeScanner) file_scanner = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GError) error = NULL;

  scanner = lode_scanner_new (missing);
  g_assert_false (lode_scanner_scan (scanner, NULL, &files, &skipped, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_NOT_FOUND);
  g_assert_nonnull (strstr (error->message, missing));
  g_assert_null (files);
  g_clear_error (&error);

  test_write_file (fixture->root, "file.c", "x\n");
  file_scanner = lode_scanner_new (regular);
  g_assert_false (lode_scanner_scan (file_scanner, NULL, &files, &skipped, &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
  g_assert_nonnull (strstr (error->message, regular));
  g_assert_null (files);
}

static void
test_cancelled (ScanFixture   *fixture,
                gconstpointer  user_data)
{
  g_autoptr(LodeScanner) scanner = lode_scanner_new (fixture->root);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GError) error = NULL;

  test_write_file (fixture->root, "a/b.c", "x\n");
  g_cancellable_cancel (cancellable);
  g_assert_false (lode_scanner_scan (scanner, cancellable, &files, &skipped, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_assert_null (files);
}

/* A tree on the kernel's file systems is not walked: /proc/self lists files of size 0 that
 * pass any size cap, and /proc/self/pagemap then reads without end. */
static void
test_special_file_systems (ScanFixture   *fixture,
                           gconstpointer  user_data)
{
  g_autoptr(LodeScanner) scanner = lode_scanner_new ("/proc/self");
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GError) error = NULL;
  const LodeSkippedFile *root;

  g_assert_true (lode_scanner_scan (scanner, NULL, &files, &skipped, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (files->len, ==, 0);
  g_assert_cmpuint (skipped->len, ==, 1);
  root = g_ptr_array_index (skipped, 0);
  g_assert_cmpstr (root->path, ==, ".");
  g_assert_cmpint (root->reason, ==, LODE_SKIP_SPECIAL_FS);
  g_assert_cmpstr (root->detail, ==, "procfs");
}

/* The size cap holds while reading, whatever the file's size said; special files are not
 * read at all, and opening never blocks. */
static void
test_read_file (ScanFixture   *fixture,
                gconstpointer  user_data)
{
  g_autofree char *ok = g_build_filename (fixture->root, "ok.txt", NULL);
  g_autofree char *fifo = g_build_filename (fixture->root, "pipe", NULL);
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  LodeSkipReason reason;
  gsize len = 0;
  gint64 mtime = 0;
  struct stat st;

  test_write_file (fixture->root, "ok.txt", "0123456789abcdef\n");
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);

  contents = lode_read_file (ok, 17, &len, &mtime, &reason, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, "0123456789abcdef\n");
  g_assert_cmpuint (len, ==, 17);
  g_assert_cmpint (g_stat (ok, &st), ==, 0);
  g_assert_cmpint (mtime, ==, (gint64) st.st_mtim.tv_sec * G_USEC_PER_SEC +
                              st.st_mtim.tv_nsec / 1000);
  g_clear_pointer (&contents, g_free);

  g_assert_null (lode_read_file (ok, 16, &len, NULL, &reason, &error));
  g_assert_cmpint (reason, ==, LODE_SKIP_TOO_LARGE);
  g_assert_nonnull (strstr (error->message, "16 bytes"));
  g_clear_error (&error);

  g_assert_null (lode_read_file (fifo, 1024, &len, NULL, &reason, &error));
  g_assert_cmpint (reason, ==, LODE_SKIP_NOT_REGULAR);
  g_clear_error (&error);

  /* Its size is 0, and it never ends. */
  g_assert_null (lode_read_file ("/proc/self/pagemap", 1024, &len, NULL, &reason, &error));
  g_assert_cmpint (reason, ==, LODE_SKIP_SPECIAL_FS);
  g_assert_cmpstr (error->message, ==, "procfs");
  g_clear_error (&error);

  g_assert_null (lode_read_file ("/nonexistent/file", 1024, &len, NULL, &reason, &error));
  g_assert_cmpint (reason, ==, LODE_SKIP_UNREADABLE);
}

/* A file written between the scan that found it and its read: the read says the size and
 * modification time of the bytes it returns, never the scan's, which belong to content
 * the index never saw. */
static void
test_changed_after_scan (ScanFixture   *fixture,
                         gconstpointer  user_data)
{
  g_autoptr(LodeScanner) scanner = lode_scanner_new (fixture->root);
  g_autofree char *path = fixture_path (fixture, "main.c");
  g_autoptr(GError) error = NULL;
  g_autofree char *contents = NULL;
  struct timespec scanned[2] = { { 1000000000, 0 }, { 1000000000, 0 } };
  struct timespec written[2] = { { 1100000000, 500000000 }, { 1100000000, 500000000 } };
  const LodeScanFile *file;
  LodeSkipReason reason;
  gsize len = 0;
  gint64 mtime = 0;

  test_write_file (fixture->root, "main.c", "int main (void) { return 0; }\\n");
  g_assert_cmpint (utimensat (AT_FDCWD, path, scanned, 0), ==, 0);
  lode_scanner_scan (scanner, NULL, &fixture->files, &fixture->skipped, &error);
  g_assert_no_error (error);
  g_assert_cmpuint (fixture->files->len, ==, 1);
  file = g_ptr_array_index (fixture->files, 0);
  g_assert_cmpint (file->mtime_usec, ==, G_GINT64_CONSTANT (1000000000) * G_USEC_PER_SEC);

  test_write_file (fixture->root, "main.c", "int main (void) { return 1 + 1; }\\n");
  g_assert_cmpint (utimensat (AT_FDCWD, path, written, 0), ==, 0);

  contents = lode_read_file (path, 1024, &len, &mtime, &reason, &error);
  g_assert_no_error (error);
  g_assert_cmpstr (contents, ==, "int main (void) { return 1 + 1; }\\n");
  g_assert_cmpuint (len, ==, strlen (contents));
  g_assert_cmpuint (len, !=, file->size);
  g_assert_cmpint (mtime, ==, G_GINT64_CONSTANT (1100000000) * G_USEC_PER_SEC + 500000);
}

static gsize
count_lines (const char *text,
             gsize       len)
{
  gsize n = 0;

  for (gsize i = 0; i < len; i++)
    if (text[i] == '\n')
      n++;

  return n;
}

static void
test_content_check (void)
{
  static const char latin1[] = "caf\xe9\nna\xefve\n\xff\xfe\nend\n";
  static const char with_nul[] = "abc\0def\n";
  static const char control_heavy[] = "\x01\x02\x03\x04\x05\x06\x07\x0e\x0f\x10 text\n";
  static const char utf8[] = "caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac \xf0\x9f\x98\x80\n";
  g_autofree char *long_ascii = NULL;
  g_autofree char *late_nul = NULL;
  char *repaired = (char *) 0x1;
  gsize late_len = 3 * 8192;

  g_assert_cmpint (lode_content_check ("", 0, &repaired), ==, LODE_CONTENT_TEXT);
  g_assert_null (repaired);
  g_assert_cmpint (lode_content_check ("int x;\n", 7, &repaired), ==, LODE_CONTENT_TEXT);
  g_assert_null (repaired);
  g_assert_cmpint (lode_content_check (utf8, sizeof utf8 - 1, &repaired), ==, LODE_CONTENT_TEXT);
  g_assert_null (repaired);
  /* Terminal escapes and form feeds are text. */
  g_assert_cmpint (lode_content_check ("\x1b[1mbold\x1b[0m\f\n", 14, NULL), ==,
                   LODE_CONTENT_TEXT);

  g_assert_cmpint (lode_content_check (with_nul, sizeof with_nul - 1, &repaired), ==,
                   LODE_CONTENT_BINARY);
  g_assert_null (repaired);
  g_assert_cmpint (lode_content_check (control_heavy, sizeof control_heavy - 1, NULL), ==,
                   LODE_CONTENT_BINARY);

  g_assert_cmpint (lode_content_check (latin1, sizeof latin1 - 1, &repaired), ==,
                   LODE_CONTENT_REPAIRED);
  g_assert_nonnull (repaired);
  g_assert_true (g_utf8_validate (repaired, -1, NULL));
  g_assert_cmpuint (count_lines (repaired, strlen (repaired)), ==,
                    count_lines (latin1, sizeof latin1 - 1));
  g_assert_true (g_str_has_prefix (repaired, "caf\xef\xbf\xbd\nna"));
  g_clear_pointer (&repaired, g_free);

  /* The ASCII fast path must still see what follows it. */
  long_ascii = g_strnfill (1000, 'a');
  g_assert_cmpint (lode_content_check (long_ascii, 1000, NULL), ==, LODE_CONTENT_TEXT);
  long_ascii[997] = '\xc3';
  g_assert_cmpint (lode_content_check (long_ascii, 1000, NULL), ==, LODE_CONTENT_REPAIRED);

  /* A NUL byte past the sniffed start is repaired away, not passed on. */
  late_nul = g_strnfill (late_len, 'a');
  late_nul[100] = '\n';
  late_nul[20000] = '\0';
  g_assert_cmpint (lode_content_check (late_nul, late_len, &repaired), ==,
                   LODE_CONTENT_REPAIRED);
  g_assert_cmpuint (strlen (repaired), ==, late_len + 2);
  g_assert_cmpuint (count_lines (repaired, strlen (repaired)), ==, 1);
  g_clear_pointer (&repaired, g_free);
}

static void
test_reason_strings (void)
{
  static const LodeSkipReason reasons[] = {
    LODE_SKIP_TOO_LARGE, LODE_SKIP_BINARY, LODE_SKIP_UNREADABLE,
    LODE_SKIP_SYMLINK_OUTSIDE, LODE_SKIP_SYMLINK_LOOP, LODE_SKIP_NOT_REGULAR,
    LODE_SKIP_SPECIAL_FS, LODE_SKIP_OVER_TIME_BUDGET,
  };
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < G_N_ELEMENTS (reasons); i++)
    {
      const char *text = lode_skip_reason_to_string (reasons[i]);

      g_assert_nonnull (text);
      g_assert_cmpstr (text, !=, "unknown reason");
      g_assert_true (g_hash_table_add (seen, (gpointer) text));
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

#define ADD(path, func) \
  g_test_add ("/lode/scanner/" path, ScanFixture, NULL, scan_setup, func, scan_teardown)
  ADD ("ignore-rules", test_ignore_rules);
  ADD ("vendored", test_vendored);
  ADD ("size-cap", test_size_cap);
  ADD ("special-files", test_special_files);
  ADD ("symlinks", test_symlinks);
  ADD ("unreadable", test_unreadable);
  ADD ("bad-names", test_bad_names);
  ADD ("empty", test_empty);
  ADD ("bad-root", test_bad_root);
  ADD ("cancelled", test_cancelled);
  ADD ("special-file-systems", test_special_file_systems);
  ADD ("read-file", test_read_file);
  ADD ("changed-after-scan", test_changed_after_scan);
#undef ADD
  g_test_add_func ("/lode/scanner/content-check", test_content_check);
  g_test_add_func ("/lode/scanner/reason-strings", test_reason_strings);

  return g_test_run ();
}
