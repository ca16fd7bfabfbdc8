/* test-ignore.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <errno.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/types.h>

#include <glib.h>
#include <glib/gstdio.h>
#include <gio/gio.h>

#include "lode-ignore.h"
#include "test-helpers.h"

typedef struct
{
  const char *path;
  gboolean    is_dir;
  gboolean    expected;
} IgnoreCase;

static void
check_cases (LodeIgnore       *ignore,
             const IgnoreCase *cases,
             gsize             n_cases)
{
  for (gsize i = 0; i < n_cases; i++)
    {
      gboolean got = lode_ignore_is_ignored (ignore, cases[i].path, cases[i].is_dir);

      if (got != cases[i].expected)
        g_error ("lode_ignore_is_ignored (\"%s\", is_dir=%d) = %d, expected %d",
                 cases[i].path, cases[i].is_dir, got, cases[i].expected);
    }
}

/* Expectations worked out from the gitignore documentation, independently of git. */
static void
test_semantics (void)
{
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  static const IgnoreCase cases[] = {
    /* Blank lines and comments add nothing; `\#` is a literal '#'. */
    { "# comment", FALSE, FALSE },
    { "#hash.txt", FALSE, TRUE },
    /* Unanchored: the base name at any depth. */
    { "a.log", FALSE, TRUE },
    { "x/y/z.log", FALSE, TRUE },
    /* Negation: the later rule wins. */
    { "keep.log", FALSE, FALSE },
    { "x/keep.log", FALSE, FALSE },
    { "!bang", FALSE, TRUE },
    /* Anchored by a leading '/', or by a '/' in the middle. */
    { "todo.txt", FALSE, TRUE },
    { "x/todo.txt", FALSE, FALSE },
    { "doc/api/index.html", FALSE, TRUE },
    { "x/doc/api/index.html", FALSE, FALSE },
    /* Trailing '/': directories only. */
    { "out", TRUE, TRUE },
    { "x/out", TRUE, TRUE },
    { "out", FALSE, FALSE },
    { "out/a.c", FALSE, TRUE },
    /* `**` */
    { "gen/x.c", FALSE, TRUE },
    { "a/b/gen/x.c", FALSE, TRUE },
    { "a/gen/y.c", FALSE, FALSE },
    { "lib/t.tmp", FALSE, TRUE },
    { "lib/a/b/t.tmp", FALSE, TRUE },
    { "t.tmp", FALSE, FALSE },
    { "cache/a", FALSE, TRUE },
    { "cache/x/y", FALSE, TRUE },
    { "cache", TRUE, FALSE },
    /* Trailing spaces are trimmed unless quoted. */
    { "spaced.txt", FALSE, TRUE },
    { "quoted ", FALSE, TRUE },
    { "quoted", FALSE, FALSE },
    /* Nothing below an excluded directory can be re-included. */
    { "vendor", TRUE, TRUE },
    { "vendor/keep.c", FALSE, TRUE },
    /* Classes and '?'. */
    { "file7.txt", FALSE, TRUE },
    { "filex.txt", FALSE, FALSE },
    { "a.q", FALSE, TRUE },
    { "ab.q", FALSE, FALSE },
    /* Unrelated paths. */
    { "src/main.c", FALSE, FALSE },
    { "src", TRUE, FALSE },
  };

  lode_ignore_add_patterns (ignore, "",
                            "# comment\n"
                            "\n"
                            "\\#hash.txt\n"
                            "*.log\n"
                            "!keep.log\n"
                            "\\!bang\n"
                            "/todo.txt\n"
                            "doc/api/\n"
                            "out/\n"
                            "**/b/gen/\n"
                            "/gen/\n"
                            "lib/**/*.tmp\n"
                            "cache/**\n"
                            "spaced.txt   \n"
                            "quoted\\ \n"
                            "vendor/\n"
                            "!vendor/keep.c\n"
                            "file[0-9].txt\n"
                            "?.q\r\n",
                            -1);
  check_cases (ignore, cases, G_N_ELEMENTS (cases));
}

/* Rules of deeper directories win, whatever order they were added in, and apply only below
 * their own directory. */
static void
test_nested (void)
{
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  static const IgnoreCase cases[] = {
    { "a.c", FALSE, TRUE },
    { "sub/a.c", FALSE, FALSE },
    { "sub/deep/a.c", FALSE, FALSE },
    { "other/a.c", FALSE, TRUE },
    { "sub/local.txt", FALSE, TRUE },
    { "sub/deep/local.txt", FALSE, FALSE },
    { "local.txt", FALSE, FALSE },
    { "sub/x/y.md", FALSE, TRUE },
    { "sub/x/y.md", FALSE, TRUE },
    { "subx/y.md", FALSE, FALSE },
    { "sub/deep/z.h", FALSE, TRUE },
    { "sub/z.h", FALSE, FALSE },
  };

  lode_ignore_add_patterns (ignore, "sub/deep", "*.h\n", -1);
  lode_ignore_add_patterns (ignore, "sub", "!*.c\n/local.txt\nx/*.md\n", -1);
  lode_ignore_add_patterns (ignore, "", "*.c\n", -1);
  check_cases (ignore, cases, G_N_ELEMENTS (cases));
}

static void
test_defaults (void)
{
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  static const IgnoreCase cases[] = {
    { ".git", TRUE, TRUE },
    { ".git", FALSE, TRUE },
    { "sub/.hg", TRUE, TRUE },
    { "node_modules", TRUE, TRUE },
    { "web/node_modules/react/index.js", FALSE, TRUE },
    { "target", TRUE, TRUE },
    { "__pycache__/m.cpython-311.pyc", FALSE, TRUE },
    { "pkg/foo.egg-info", TRUE, TRUE },
    { "package-lock.json", FALSE, TRUE },
    { "web/yarn.lock", FALSE, TRUE },
    { "Cargo.lock", FALSE, TRUE },
    { "go.sum", FALSE, TRUE },
    { "static/app.min.js", FALSE, TRUE },
    { "static/app.min.css", FALSE, TRUE },
    { "static/app.js.map", FALSE, TRUE },
    { "icons/logo.svg", FALSE, TRUE },
    { "main.o", FALSE, TRUE },
    /* Things that look close but are source. */
    { "static/app.js", FALSE, FALSE },
    { "src/build.c", FALSE, FALSE },
    { "buildtools", TRUE, FALSE },
    { "target.c", FALSE, FALSE },
    { "Cargo.toml", FALSE, FALSE },
    { "go.mod", FALSE, FALSE },
    { ".github/workflows/ci.yml", FALSE, FALSE },
    { ".gitignore", FALSE, FALSE },
    { "src/lib.rs", FALSE, FALSE },
  };

  lode_ignore_add_defaults (ignore);
  lode_ignore_add_defaults (ignore);
  check_cases (ignore, cases, G_N_ELEMENTS (cases));

  /* The defaults rank below ignore files: `!` re-includes, wherever it was added. */
  g_assert_true (lode_ignore_is_ignored (ignore, "build", TRUE));
  lode_ignore_add_patterns (ignore, "", "!build/\n", -1);
  g_assert_false (lode_ignore_is_ignored (ignore, "build", TRUE));
  g_assert_false (lode_ignore_is_ignored (ignore, "tools/build/make.c", FALSE));
  lode_ignore_add_patterns (ignore, "web", "!*.min.js\n", -1);
  g_assert_false (lode_ignore_is_ignored (ignore, "web/x.min.js", FALSE));
  g_assert_true (lode_ignore_is_ignored (ignore, "x.min.js", FALSE));
}

static void
test_vendored (void)
{
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  static const IgnoreCase cases[] = {
    { "vendor", TRUE, TRUE },
    { "vendor/github.com/pkg/errors/errors.go", FALSE, TRUE },
    { "app/vendor/autoload.php", FALSE, TRUE },
    { "Pods", TRUE, TRUE },
    { "Carthage/Checkouts/x/x.swift", FALSE, TRUE },
    { "third_party/zlib", TRUE, TRUE },
    { "3rdparty", TRUE, TRUE },
    { "jspm_packages", TRUE, TRUE },
    { ".bundle/config", FALSE, TRUE },
    /* Files so named, and look-alike directories, are source. */
    { "vendor", FALSE, FALSE },
    { "vendors", TRUE, FALSE },
    { "src/vendor.c", FALSE, FALSE },
  };

  lode_ignore_add_defaults (ignore);
  g_assert_false (lode_ignore_is_ignored (ignore, "vendor", TRUE));
  lode_ignore_add_vendored (ignore);
  lode_ignore_add_vendored (ignore);
  check_cases (ignore, cases, G_N_ELEMENTS (cases));

  /* Like the defaults, they rank below ignore files. */
  lode_ignore_add_patterns (ignore, "", "!vendor/\n", -1);
  g_assert_false (lode_ignore_is_ignored (ignore, "vendor/x/y.go", FALSE));
}

static void
test_add_file (void)
{
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  g_autoptr(GError) error = NULL;
  g_autofree char *root = g_dir_make_tmp ("lode-ignore-XXXXXX", &error);
  g_autofree char *missing = NULL;
  g_autofree char *fifo = NULL;
  g_autofree char *rules = NULL;

  g_assert_no_error (error);

  /* A byte order mark at the start does not hide the first rule. */
  test_write_file (root, "rules", "\xef\xbb\xbf*.tmp\n!keep.tmp\n");
  rules = g_build_filename (root, "rules", NULL);
  g_assert_true (lode_ignore_add_file (ignore, "./sub/", rules, &error));
  g_assert_no_error (error);
  g_assert_true (lode_ignore_is_ignored (ignore, "sub/a.tmp", FALSE));
  g_assert_false (lode_ignore_is_ignored (ignore, "sub/keep.tmp", FALSE));
  g_assert_false (lode_ignore_is_ignored (ignore, "a.tmp", FALSE));

  missing = g_build_filename (root, "missing", NULL);
  g_assert_false (lode_ignore_add_file (ignore, "", missing, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_NOT_FOUND);
  g_clear_error (&error);

  /* Reading a FIFO would block forever; it is refused instead. */
  fifo = g_build_filename (root, "fifo", NULL);
  g_assert_cmpint (mkfifo (fifo, 0644), ==, 0);
  g_assert_false (lode_ignore_add_file (ignore, "", fifo, &error));
  g_assert_nonnull (error);

  test_remove_tree (root);
}

/* Every file below @dir (relative to @root), .git excluded. */
static void
list_files (const char *root,
            const char *rel,
            GPtrArray  *out)
{
  g_autofree char *path = g_build_filename (root, rel, NULL);
  g_autoptr(GDir) dir = g_dir_open (path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child_rel = *rel ? g_strconcat (rel, "/", name, NULL) : g_strdup (name);
      g_autofree char *child = g_build_filename (root, child_rel, NULL);

      if (strcmp (child_rel, ".git") == 0)
        continue;
      if (g_file_test (child, G_FILE_TEST_IS_DIR))
        list_files (root, child_rel, out);
      else
        g_ptr_array_add (out, g_steal_pointer (&child_rel));
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static char *
join_sorted (GPtrArray *paths)
{
  g_autoptr(GString) out = g_string_new (NULL);

  g_ptr_array_sort (paths, compare_strings);
  for (guint i = 0; i < paths->len; i++)
    g_string_append_printf (out, "%s\n", (const char *) g_ptr_array_index (paths, i));

  return g_string_free (g_steal_pointer (&out), FALSE);
}

static char *
run_git (const char  *dir,
         const char **args)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_auto(GStrv) envp = g_get_environ ();
  g_autoptr(GError) error = NULL;
  g_autofree char *out = NULL;
  g_autofree char *err = NULL;
  int status = 0;

  /* Neither the system's nor the user's git configuration may change the answer. */
  envp = g_environ_setenv (envp, "GIT_CONFIG_NOSYSTEM", "1", TRUE);
  envp = g_environ_setenv (envp, "GIT_CONFIG_GLOBAL", "/dev/null", TRUE);

  g_ptr_array_add (argv, (char *) "git");
  g_ptr_array_add (argv, (char *) "-c");
  g_ptr_array_add (argv, (char *) "core.excludesFile=/dev/null");
  for (guint i = 0; args[i] != NULL; i++)
    g_ptr_array_add (argv, (char *) args[i]);
  g_ptr_array_add (argv, NULL);

  g_spawn_sync (dir, (char **) argv->pdata, envp, G_SPAWN_SEARCH_PATH, NULL, NULL,
                &out, &err, &status, &error);
  g_assert_no_error (error);
  if (!g_spawn_check_wait_status (status, &error))
    g_error ("git %s failed: %s\n%s", args[0], error->message, err);

  return g_steal_pointer (&out);
}

/* Builds a tree that exercises every part of the syntax and compares which files we keep with
 * what git itself keeps. */
static void
test_against_git (void)
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  g_autoptr(GPtrArray) all = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) ours = g_ptr_array_new ();
  g_autoptr(GPtrArray) theirs = g_ptr_array_new_with_free_func (g_free);
  g_autofree char *root = NULL;
  g_autofree char *git = g_find_program_in_path ("git");
  g_autofree char *exclude = NULL;
  g_autofree char *git_out = NULL;
  g_autofree char *ours_text = NULL;
  g_autofree char *theirs_text = NULL;
  const char *init_args[] = { "init", "-q", NULL };
  const char *ls_args[] = { "ls-files", "--others", "--exclude-standard", "-z", NULL };
  static const char *files[] = {
    "a.log", "keep.log", "sub/x.log", "sub/keep.log",
    "anchored.txt", "sub/anchored.txt",
    "build/out.o", "sub/build/x.c", "notdir/build",
    "docs/a.tmp", "docs/x/y/b.tmp", "other/docs/c.tmp",
    "gen/out.c", "x/y/gen/out.c", "x/gen/other.c",
    "#hash.txt", "!bang.txt", "bang.txt",
    "trailing.txt", "escaped ", "escaped",
    "excluded_dir/reinclude.txt", "excluded_dir/other.txt", "excluded_dir/.gitignore",
    "logs/other.txt", "logs/important/x.txt",
    "dironly/file", "sub/dironly/file", "other/dironly",
    "a/b/deep.txt", "x/a/b/deep.txt",
    "cache/a.txt", "cache/keep/f.txt", "cache2/keep/f.txt", "cache2/a.txt",
    "file1.txt", "filea.txt", "a.q", "ab.q",
    "x.secret", "sub/y.secret", "public.secret",
    "nested/y.log", "nested/local.txt", "nested/deeper/local.txt",
    "nested/a.c", "nested/keep.c", "nested/deeper/b.c", "nested/deeper/c.c",
    "nested/deeper/r.md", "nested/r.md",
    "star/only/any.txt",
    "q", "qq/r", "zq", "x/y/star3.txt", "star3.txt.not",
    "src/main.c", "README.md",
  };

  if (git == NULL)
    {
      g_test_skip ("git is not installed");
      return;
    }

  root = g_dir_make_tmp ("lode-ignore-git-XXXXXX", &error);
  g_assert_no_error (error);
  g_free (run_git (root, init_args));

  for (guint i = 0; i < G_N_ELEMENTS (files); i++)
    test_write_file (root, files[i], "x\n");

  test_write_file (root, ".gitignore",
                   "# a comment\n"
                   "\n"
                   "*.log\n"
                   "!keep.log\n"
                   "/anchored.txt\n"
                   "build/\n"
                   "docs/**/*.tmp\n"
                   "**/gen/out.c\n"
                   "\\#hash.txt\n"
                   "\\!bang.txt\n"
                   "trailing.txt   \n"
                   "escaped\\ \n"
                   "excluded_dir/\n"
                   "!excluded_dir/reinclude.txt\n"
                   "logs/*\n"
                   "!logs/important/\n"
                   "dironly/\n"
                   "a/b/deep.txt\n"
                   "cache/**\n"
                   "!cache/keep/**\n"
                   "cache2/**\n"
                   "!cache2/keep/\n"
                   "!cache2/keep/**\n"
                   "file[0-9].txt\n"
                   "?.q\n"
                   "!public.secret\n"
                   "star/*\n"
                   "/q**/*\n"
                   "***/star3.txt\n");
  test_write_file (root, "excluded_dir/.gitignore", "!*\n");
  test_write_file (root, "nested/.gitignore", "!*.log\n/local.txt\n*.c\n!keep.c\n");
  test_write_file (root, "nested/deeper/.gitignore", "!b.c\n*.md\n");
  test_write_file (root, ".git/info/exclude", "*.secret\n");

  list_files (root, "", all);

  exclude = g_build_filename (root, ".git", "info", "exclude", NULL);
  g_assert_true (lode_ignore_add_file (ignore, "", exclude, &error));
  g_assert_no_error (error);
  /* Deliberately deepest first: precedence must not depend on the order of the calls. */
  for (guint i = all->len; i > 0; i--)
    {
      const char *rel = g_ptr_array_index (all, i - 1);

      if (g_str_has_suffix (rel, ".gitignore"))
        {
          g_autofree char *dir = g_path_get_dirname (rel);
          g_autofree char *path = g_build_filename (root, rel, NULL);

          g_assert_true (lode_ignore_add_file (ignore, strcmp (dir, ".") == 0 ? "" : dir, path,
                                               &error));
          g_assert_no_error (error);
        }
    }

  for (guint i = 0; i < all->len; i++)
    if (!lode_ignore_is_ignored (ignore, g_ptr_array_index (all, i), FALSE))
      g_ptr_array_add (ours, g_ptr_array_index (all, i));

  git_out = run_git (root, ls_args);
  for (const char *p = git_out; *p != '\0'; p += strlen (p) + 1)
    g_ptr_array_add (theirs, g_strdup (p));

  ours_text = join_sorted (ours);
  theirs_text = join_sorted (theirs);
  g_assert_cmpstr (ours_text, ==, theirs_text);

  /* Guard against a vacuous agreement: both sides keep some files and drop others. */
  g_assert_cmpuint (ours->len, >, 10);
  g_assert_cmpuint (ours->len, <, all->len - 10);
  g_assert_nonnull (strstr (ours_text, "nested/deeper/b.c\n"));
  g_assert_null (strstr (ours_text, "excluded_dir/reinclude.txt\n"));

  test_remove_tree (root);
}

/* Rules of a directory 1,000 levels down apply below it and nowhere else, and a path of
 * 2,000 components is matched with a lookup only at the depths that have rules (the fuzzer's
 * seed tests/fuzz/seeds/ignore/deep-path.txt took two minutes before). */
static void
test_deep (void)
{
  g_autoptr(LodeIgnore) ignore = lode_ignore_new ();
  g_autoptr(GString) deep = g_string_new ("d");
  g_autoptr(GString) deeper = NULL;

  for (guint i = 1; i < 1000; i++)
    g_string_append (deep, "/d");
  lode_ignore_add_patterns (ignore, "", "*.o\n", -1);
  lode_ignore_add_patterns (ignore, deep->str, "*.tmp\n!keep.o\n", -1);

  deeper = g_string_new (deep->str);
  for (guint i = 0; i < 1000; i++)
    g_string_append (deeper, "/e");

  g_assert_true (lode_ignore_is_ignored (ignore, "d/x.o", FALSE));
  g_assert_false (lode_ignore_is_ignored (ignore, "d/x.tmp", FALSE));
  g_string_append (deep, "/x.tmp");
  g_assert_true (lode_ignore_is_ignored (ignore, deep->str, FALSE));
  g_string_append (deeper, "/keep.o");
  g_assert_false (lode_ignore_is_ignored (ignore, deeper->str, FALSE));
  g_string_truncate (deeper, deeper->len - strlen ("keep.o"));
  g_string_append (deeper, "other.o");
  g_assert_true (lode_ignore_is_ignored (ignore, deeper->str, FALSE));
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/ignore/semantics", test_semantics);
  g_test_add_func ("/lode/ignore/nested", test_nested);
  g_test_add_func ("/lode/ignore/defaults", test_defaults);
  g_test_add_func ("/lode/ignore/vendored", test_vendored);
  g_test_add_func ("/lode/ignore/add-file", test_add_file);
  g_test_add_func ("/lode/ignore/against-git", test_against_git);
  g_test_add_func ("/lode/ignore/deep", test_deep);

  return g_test_run ();
}
