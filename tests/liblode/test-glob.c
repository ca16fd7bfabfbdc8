/* test-glob.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib.h>

#include "lode-glob.h"

typedef struct
{
  const char    *pattern;
  const char    *text;
  LodeGlobFlags  flags;
  gboolean       expected;
} GlobCase;

#define P LODE_GLOB_PATHNAME
#define I LODE_GLOB_CASEFOLD

static const GlobCase glob_cases[] = {
  /* Literals and the empty pattern. */
  { "foo", "foo", 0, TRUE },
  { "foo", "fo", 0, FALSE },
  { "foo", "fooo", 0, FALSE },
  { "", "", 0, TRUE },
  { "", "a", 0, FALSE },
  { "a", "", 0, FALSE },

  /* `?` and `*`. */
  { "f?o", "foo", 0, TRUE },
  { "f?o", "fo", 0, FALSE },
  { "*", "", 0, TRUE },
  { "*", "anything", 0, TRUE },
  { "*.c", "main.c", 0, TRUE },
  { "*.c", "main.h", 0, FALSE },
  { "*.c", ".c", 0, TRUE },
  { "a*b*c", "abc", 0, TRUE },
  { "a*b*c", "aXXbYYc", 0, TRUE },
  { "a*b*c", "aXXbYYcZ", 0, FALSE },
  { "*ab", "aab", 0, TRUE },
  { "*aab", "aaab", 0, TRUE },
  { "a*", "a/b", 0, TRUE },
  { "a*", "a/b", P, FALSE },
  { "a?b", "a/b", 0, TRUE },
  { "a?b", "a/b", P, FALSE },
  { "*/b", "a/b", P, TRUE },
  { "*/b", "a/x/b", P, FALSE },
  { "*/*", "a/b", P, TRUE },
  { "a*/b", "ab/b", P, TRUE },
  { "*x/y", "ax/ax/y", P, FALSE },
  { "*", "a/b", P, FALSE },

  /* Bracket expressions. */
  { "[abc]", "b", 0, TRUE },
  { "[abc]", "d", 0, FALSE },
  { "[a-c]x", "cx", 0, TRUE },
  { "[a-c]x", "dx", 0, FALSE },
  { "[!a-c]", "d", 0, TRUE },
  { "[!a-c]", "a", 0, FALSE },
  { "[^a-c]", "a", 0, FALSE },
  { "[]]", "]", 0, TRUE },
  { "[]a]", "a", 0, TRUE },
  { "[!]]", "]", 0, FALSE },
  { "[a-]", "-", 0, TRUE },
  { "[\\]]", "]", 0, TRUE },
  { "[[:digit:]][[:alpha:]]", "1x", 0, TRUE },
  { "[[:digit:]]", "x", 0, FALSE },
  { "[[:upper:]]", "a", 0, FALSE },
  { "[[:upper:]]", "a", I, TRUE },
  { "[[:bogus:]]", "a", 0, FALSE },
  { "[/]", "/", 0, TRUE },
  { "[/]", "/", P, FALSE },
  { "a[!x]b", "a/b", P, FALSE },
  /* An unterminated bracket makes the whole pattern match nothing, as in git. */
  { "[ab", "[ab", 0, FALSE },
  { "[ab", "a", 0, FALSE },

  /* Backslash quoting. */
  { "\\*", "*", 0, TRUE },
  { "\\*", "x", 0, FALSE },
  { "\\?", "?", 0, TRUE },
  { "\\[a]", "[a]", 0, TRUE },
  { "\\!x", "!x", 0, TRUE },
  { "\\#x", "#x", 0, TRUE },
  { "a\\ b", "a b", 0, TRUE },
  { "x\\", "x\\", 0, FALSE },
  { "x\\", "x", 0, FALSE },

  /* Case folding. */
  { "README", "readme", 0, FALSE },
  { "README", "readme", I, TRUE },
  { "*.C", "main.c", I, TRUE },
  { "[A-C]", "b", I, TRUE },
  { "[a-c]", "B", I, TRUE },

  /* `**` as a whole component, with LODE_GLOB_PATHNAME. */
  { "**", "", P, TRUE },
  { "**", "a/b/c", P, TRUE },
  { "**/foo", "foo", P, TRUE },
  { "**/foo", "a/foo", P, TRUE },
  { "**/foo", "a/b/foo", P, TRUE },
  { "**/foo", "a/b/foox", P, FALSE },
  { "**/foo", "afoo", P, FALSE },
  { "**/foo/bar", "x/foo/bar", P, TRUE },
  { "**/foo/bar", "x/foo/y/bar", P, FALSE },
  { "a/**/b", "a/b", P, TRUE },
  { "a/**/b", "a/x/b", P, TRUE },
  { "a/**/b", "a/x/y/z/b", P, TRUE },
  { "a/**/b", "ab", P, FALSE },
  { "a/**/b", "a/xb", P, FALSE },
  { "a/**/b", "x/a/b", P, FALSE },
  { "a/**", "a/b", P, TRUE },
  { "a/**", "a/b/c", P, TRUE },
  { "a/**", "a", P, FALSE },
  { "a/**/*.c", "a/x/y/m.c", P, TRUE },
  { "a/**/*.c", "a/m.c", P, TRUE },
  { "a/**/*.c", "a/m.h", P, FALSE },
  { "**/x/**/y", "p/x/q/r/y", P, TRUE },
  { "**/x/**/y", "p/x/q/r/z", P, FALSE },
  /* Longer runs of stars count as `**`. */
  { "***/foo", "a/b/foo", P, TRUE },
  { "a/***", "a/b/c", P, TRUE },
  /* Elsewhere `**` is a single `*`. */
  { "a**b", "a/b", P, FALSE },
  { "a**b", "axxb", P, TRUE },
  { "**.c", "m.c", P, TRUE },
  { "**.c", "d/m.c", P, FALSE },
  { "a/**b", "a/x/b", P, FALSE },
  /* Without LODE_GLOB_PATHNAME a star crosses '/'. */
  { "a/**/b", "a/x/y/b", 0, TRUE },
  { "*.c", "dir/m.c", 0, TRUE },
};

static void
test_match_table (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (glob_cases); i++)
    {
      const GlobCase *c = &glob_cases[i];
      gboolean got = lode_glob_match (c->pattern, c->text, c->flags);

      if (got != c->expected)
        g_error ("lode_glob_match (\"%s\", \"%s\", %d) = %d, expected %d",
                 c->pattern, c->text, c->flags, got, c->expected);
    }
}

/* Patterns that make a naive backtracking matcher take exponential time. The answers must come
 * back (the test has a timeout) and be right. */
static void
test_pathological (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GString) pattern = g_string_new (NULL);
  g_autoptr(GString) path = g_string_new (NULL);
  g_autoptr(GString) dpattern = g_string_new (NULL);

  for (guint i = 0; i < 2000; i++)
    g_string_append_c (text, 'a');
  for (guint i = 0; i < 40; i++)
    g_string_append (pattern, "*a");

  g_assert_false (lode_glob_match ("*a*a*a*a*a*a*a*a*a*a*a*a*b", text->str, 0));
  g_assert_false (lode_glob_match ("*a*a*a*a*a*a*a*a*a*a*a*a*b", text->str, LODE_GLOB_PATHNAME));
  g_assert_true (lode_glob_match (pattern->str, text->str, 0));
  g_string_append_c (pattern, 'b');
  g_assert_false (lode_glob_match (pattern->str, text->str, 0));
  g_string_append_c (text, 'b');
  g_assert_true (lode_glob_match (pattern->str, text->str, 0));

  /* The same with `**` components over a deep path. */
  for (guint i = 0; i < 200; i++)
    g_string_append (path, "a/");
  g_string_append (path, "a");
  for (guint i = 0; i < 20; i++)
    g_string_append (dpattern, "**/a/");
  g_string_append (dpattern, "b");
  g_assert_false (lode_glob_match (dpattern->str, path->str, LODE_GLOB_PATHNAME));
  g_string_truncate (dpattern, dpattern->len - 2);
  g_assert_true (lode_glob_match (dpattern->str, path->str, LODE_GLOB_PATHNAME));
}

typedef struct
{
  const char *pattern;
  const char *path;
  gboolean    expected;
} PathCase;

static const PathCase path_cases[] = {
  /* No '/': any component, at any depth. */
  { "*.c", "main.c", TRUE },
  { "*.c", "src/cli/main.c", TRUE },
  { "*.c", "src/cli/main.h", FALSE },
  { "main.c", "src/main.c", TRUE },
  { "tests", "tests/liblode/test-glob.c", TRUE },
  { "tests", "src/tests/x.c", TRUE },
  { "tests", "src/testsuite/x.c", FALSE },
  { "test*", "src/testsuite/x.c", TRUE },
  /* A directory prefix, with or without the trailing '/'. */
  { "src/", "src/cli/main.c", TRUE },
  { "src", "src/cli/main.c", TRUE },
  { "src/", "lib/x.c", FALSE },
  { "src/cli", "src/cli/main.c", TRUE },
  { "src/cli/", "src/cli/sub/x.c", TRUE },
  { "src/cli", "src/client.c", FALSE },
  { "src/cli", "lib/src/cli/x.c", FALSE },
  /* With a '/', anchored at the root. */
  { "src/*", "src/main.c", TRUE },
  { "src/*", "src/cli/main.c", TRUE },
  { "src/*.c", "src/main.c", TRUE },
  { "src/*.c", "src/cli/main.c", FALSE },
  { "src/**/*.c", "src/main.c", TRUE },
  { "src/**/*.c", "src/cli/deep/main.c", TRUE },
  { "src/**/*.c", "lib/src/main.c", FALSE },
  { "src/**/*.c", "src/cli/main.h", FALSE },
  { "**/*.c", "a/b/c.c", TRUE },
  { "*/cli/*", "src/cli/main.c", TRUE },
  { "/src/*.c", "src/main.c", TRUE },
  { "./src/*.c", "src/main.c", TRUE },
  { "", "anything/at/all", TRUE },
  { "[", "[", FALSE },
};

static void
test_match_path (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (path_cases); i++)
    {
      const PathCase *c = &path_cases[i];
      gboolean got = lode_glob_match_path (c->pattern, c->path);

      if (got != c->expected)
        g_error ("lode_glob_match_path (\"%s\", \"%s\") = %d, expected %d",
                 c->pattern, c->path, got, c->expected);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/glob/match", test_match_table);
  g_test_add_func ("/lode/glob/pathological", test_pathological);
  g_test_add_func ("/lode/glob/match-path", test_match_path);

  return g_test_run ();
}
