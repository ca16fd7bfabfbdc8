/* test-grep.c — regex → trigram query, and lode grep against rg line for line
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <glib/gstdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lode-error.h"
#include "lode-grep.h"
#include "lode-scanner.h"
#include "test-helpers.h"

typedef struct
{
  const char *pattern;
  gboolean    regex;
  const char *query;
} QueryCase;

/* What each pattern requires of a file, as the index is asked. */
static const QueryCase query_cases[] = {
  { "strbuf_addf", FALSE, "\"strbuf_addf\"" },
  { "a.b*c", FALSE, "\"a.b*c\"" },
  { "ab", FALSE, "ALL" },
  { "Hello", TRUE, "\"Hello\"" },
  { "foo.*bar", TRUE, "(\"foo\" AND \"bar\")" },
  { "foo|barbaz", TRUE, "(\"foo\" OR \"barbaz\")" },
  { "foo|ba", TRUE, "ALL" },
  { "(abc|abd)ef", TRUE, "(\"abcef\" OR \"abdef\")" },
  { "colou?r", TRUE, "(\"colour\" OR \"color\")" },
  { "fo+bar", TRUE, "\"bar\"" },
  { "x*", TRUE, "ALL" },
  { "\\bstruct\\s+(\\w+)", TRUE, "\"struct\"" },
  { "[Tt]he quick", TRUE, "(\"The quick\" OR \"the quick\")" },
  { "\\d+ files? changed", TRUE, "(\" files changed\" OR \" file changed\")" },
  { "(?i)TODO\\(", TRUE, "\"TODO(\"" },
  { "\\Qa.b*c\\E", TRUE, "\"a.b*c\"" },
  { "g_(autoptr|autofree)", TRUE, "(\"g_autoptr\" OR \"g_autofree\")" },
  { "(?<!\\w)die(?!\\w)", TRUE, "\"die\"" },
  { "[a-z]+_free \\(", TRUE, "\"_free (\"" },
  { "unbalanced)", TRUE, "ALL" },
  { "(?x) a b c", TRUE, "ALL" },
  { "É\\x{e9}t", TRUE, "\"Éét\"" },
  { "abc{2}de", TRUE, "\"abc\"" },
  { "[0-9]{4}-[0-9]{2}", TRUE, "ALL" },
};

static void
test_query (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (query_cases); i++)
    {
      g_autoptr(LodeGrepQuery) q = lode_grep_query_for_pattern (query_cases[i].pattern,
                                                                query_cases[i].regex);
      g_autofree char *s = lode_grep_query_to_string (q);

      g_test_message ("%s → %s", query_cases[i].pattern, s);
      g_assert_cmpstr (s, ==, query_cases[i].query);
    }
}

/* Whatever the query says, it never excludes a text with a matching line: every pattern
 * here is checked against the lines GRegex matches. */
static void
test_query_is_necessary (void)
{
  static const char *const texts[] = {
    "static void\nstrbuf_addf (struct strbuf *sb, const char *fmt, ...)\n",
    "colour = Color(255)\n  the quick brown fox\n",
    "int x = 3; /* 12 files changed */\nTODO(#12): later\n",
    "Ünïcödé éét ÉÉT\n",
  };
  static const char *const patterns[] = {
    "strbuf_addf", "struct\\s+\\w+", "(?i)COLOU?R", "[Tt]he quick", "\\d+ files? changed",
    "(?i)todo\\(", "éét", "(?i)ÉÉT", "ab{2}cd", "fmt, \\.\\.\\.", "x = \\d;",
  };

  for (guint i = 0; i < G_N_ELEMENTS (patterns); i++)
    for (guint j = 0; j < G_N_ELEMENTS (texts); j++)
      {
        g_autoptr(LodeGrepQuery) q = lode_grep_query_for_pattern (patterns[i], TRUE);
        g_autoptr(GRegex) regex = g_regex_new (patterns[i], G_REGEX_MULTILINE, 0, NULL);
        g_autofree char *folded = lode_grep_fold (texts[j], -1);

        g_assert_nonnull (regex);
        if (g_regex_match (regex, texts[j], 0, NULL))
          g_assert_true (lode_grep_query_matches_text (q, folded));
      }
}

/* What a file's bytes must hold before the regex runs: strings of any length. */
static const QueryCase bytes_cases[] = {
  { "ab", FALSE, "\"ab\"" },
  { "→", FALSE, "\"→\"" },
  { "foo|ba", TRUE, "(\"foo\" OR \"ba\")" },
  { "\\w+\\(\\)\\s*\\{$", TRUE, "(\"()\" AND \"{\")" },
  { "[;{]\\s+$", TRUE, "(\";\" OR \"{\")" },
  { "0x[0-9a-f]{8}", TRUE, "\"0x\"" },
  { "x*", TRUE, "ALL" },
  { "a?", TRUE, "ALL" },
  { "unbalanced)", TRUE, "ALL" },
};

static void
test_query_bytes (void)
{
  static const char *const texts[] = {
    "int\nmain (void)\n{\n  return run() ;\n}\n",
    "static int f() {\nx = 0xdeadbeef;\n",
    "arrow → here; foo ba\n",
  };

  for (guint i = 0; i < G_N_ELEMENTS (bytes_cases); i++)
    {
      g_autoptr(LodeGrepQuery) q = lode_grep_query_bytes_for_pattern (bytes_cases[i].pattern,
                                                                      bytes_cases[i].regex);
      g_autofree char *s = lode_grep_query_to_string (q);

      g_test_message ("%s → %s", bytes_cases[i].pattern, s);
      g_assert_cmpstr (s, ==, bytes_cases[i].query);
    }

  /* Never a text with a matching line left out (the texts here hold no letter whose case
   * folding would change what the query finds). */
  for (guint i = 0; i < G_N_ELEMENTS (bytes_cases); i++)
    for (guint j = 0; j < G_N_ELEMENTS (texts); j++)
      {
        g_autoptr(LodeGrepQuery) q = lode_grep_query_bytes_for_pattern (bytes_cases[i].pattern,
                                                                        bytes_cases[i].regex);
        g_autofree char *escaped = bytes_cases[i].regex
                                   ? NULL : g_regex_escape_string (bytes_cases[i].pattern, -1);
        g_autoptr(GRegex) regex = g_regex_new (escaped != NULL ? escaped : bytes_cases[i].pattern,
                                               G_REGEX_MULTILINE, 0, NULL);

        if (regex == NULL)
          continue;
        if (g_regex_match (regex, texts[j], 0, NULL))
          g_assert_true (lode_grep_query_matches_text (q, texts[j]));
      }
}

static void
test_trigrams (void)
{
  g_autoptr(GPtrArray) t = lode_grep_literal_trigrams ("abcabcé");
  g_autoptr(GPtrArray) none = lode_grep_literal_trigrams ("ab");

  g_assert_cmpuint (t->len, ==, 4);
  g_assert_cmpstr (t->pdata[0], ==, "abc");
  g_assert_cmpstr (t->pdata[1], ==, "bca");
  g_assert_cmpstr (t->pdata[2], ==, "cab");
  g_assert_cmpstr (t->pdata[3], ==, "bcé");
  g_assert_cmpuint (none->len, ==, 0);
}

/* lode_grep_files() with @options' pattern compiled, as codebase_grep calls it. */
static LodeGrepResult *
grep_files (const char             *root,
            const LodeGrepOptions  *options,
            const LodeGrepTarget   *targets,
            guint                   n_targets,
            gboolean                indexed,
            GCancellable           *cancellable,
            GError                **error)
{
  g_autoptr(GRegex) regex = lode_grep_compile (options, NULL);

  g_assert_nonnull (regex);
  return lode_grep_files (root, options, regex, targets, n_targets, indexed, cancellable, error);
}

static LodeGrepResult *
grep_text (const char *text,
           const char *pattern,
           gboolean    regex,
           guint       context,
           guint       limit)
{
  g_autofree char *dir = g_dir_make_tmp ("lode-grep-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "a.c", NULL);
  LodeGrepOptions options;
  LodeGrepTarget target = { "a.c", "c" };
  LodeGrepResult *result;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  lode_grep_options_init (&options);
  options.pattern = pattern;
  options.regex = regex;
  options.context_lines = context;
  options.limit = limit;
  result = grep_files (dir, &options, &target, 1, FALSE, NULL, NULL);
  g_assert_nonnull (result);
  g_unlink (path);
  g_rmdir (dir);
  return result;
}

/* A Latin-1 file of git's test tree, as rg reads it: the lines holding the literal are
 * found by their bytes, and an invalid byte shows as U+FFFD in the line given back, the
 * only line checked. A literal split across lines matches nothing. */
static void
test_invalid_utf8 (void)
{
  const char *text = "# Jos\xe9 Hern\xe1ndez: test_expect_success\n"
                     "\xff\xfe binary noise\n"
                     "test_expect_success 'caf\xe9' '\n"
                     "test_expect_\nsuccess\n";
  g_autoptr(LodeGrepResult) r = grep_text (text, "test_expect_success", FALSE, 0, 10);
  g_autoptr(LodeGrepResult) context = grep_text (text, "test_expect_success", FALSE, 1, 10);
  LodeGrepFile *f;

  g_assert_cmpuint (r->n_matches, ==, 2);
  f = r->files->pdata[0];
  g_assert_cmpuint (f->lines->len, ==, 2);
  g_assert_cmpuint (((LodeGrepLine *) f->lines->pdata[0])->line, ==, 1);
  g_assert_cmpstr (((LodeGrepLine *) f->lines->pdata[0])->text, ==,
                   "# Jos\xef\xbf\xbd Hern\xef\xbf\xbdndez: test_expect_success");
  g_assert_cmpuint (((LodeGrepLine *) f->lines->pdata[1])->line, ==, 3);
  g_assert_cmpstr (((LodeGrepLine *) f->lines->pdata[1])->text, ==,
                   "test_expect_success 'caf\xef\xbf\xbd' '");

  /* Context lines are made valid too. */
  f = context->files->pdata[0];
  g_assert_cmpuint (f->lines->len, ==, 4);
  g_assert_true (g_utf8_validate (((LodeGrepLine *) f->lines->pdata[1])->text, -1, NULL));
  g_assert_false (((LodeGrepLine *) f->lines->pdata[1])->match);
}

/* Lines that hold a byte that is not UTF-8, matched as rg (13.0) matches them: that byte is
 * no character, so neither `.` nor a negated class takes it, `$` still ends the line after
 * it and `^` does not start after it. Each line below is rg's answer, with and without a
 * literal that picks the lines to match. */
static void
test_invalid_utf8_regex (void)
{
  const char *text = "caf\xe9 au lait\ncafe noir\n\xff\n";
  static const struct
  {
    const char *pattern;
    const char *lines;
  } cases[] = {
    { "caf.", "2" },
    { "caf. au", "" },
    { "caf[^e]", "" },
    { "au lait$", "1" },
    { "^ au", "" },
    { "^$", "" },
    { "^caf", "1 2" },
    { "(caf|lait)", "1 2" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(LodeGrepResult) r = grep_text (text, cases[i].pattern, TRUE, 0, 10);
      g_autoptr(GString) lines = g_string_new (NULL);

      for (guint f = 0; f < r->files->len; f++)
        {
          LodeGrepFile *file = r->files->pdata[f];

          for (guint l = 0; l < file->lines->len; l++)
            g_string_append_printf (lines, "%s%u", lines->len > 0 ? " " : "",
                                    ((LodeGrepLine *) file->lines->pdata[l])->line);
        }
      g_test_message ("%s", cases[i].pattern);
      g_assert_cmpstr (lines->str, ==, cases[i].lines);
    }
}

static void
test_context_and_limit (void)
{
  const char *text = "one\ntwo match\nthree\nfour\nfive match\nsix match\nseven\neight\n";
  g_autoptr(LodeGrepResult) r = grep_text (text, "match", FALSE, 1, 100);
  g_autoptr(LodeGrepResult) cut = grep_text (text, "match", FALSE, 0, 2);
  g_autoptr(LodeGrepResult) none = grep_text (text, "absent", FALSE, 0, 2);
  g_autoptr(LodeGrepResult) empty_lines = grep_text ("a\n\nb\n", "^$", TRUE, 0, 10);
  static const guint lines[] = { 1, 2, 3, 4, 5, 6, 7 };
  static const gboolean is_match[] = { FALSE, TRUE, FALSE, FALSE, TRUE, TRUE, FALSE };
  LodeGrepFile *f;

  g_assert_cmpuint (r->n_matches, ==, 3);
  f = r->files->pdata[0];
  g_assert_cmpuint (f->lines->len, ==, G_N_ELEMENTS (lines));
  for (guint i = 0; i < f->lines->len; i++)
    {
      LodeGrepLine *l = f->lines->pdata[i];

      g_assert_cmpuint (l->line, ==, lines[i]);
      g_assert_cmpint (l->match, ==, is_match[i]);
    }
  g_assert_cmpstr (((LodeGrepLine *) f->lines->pdata[1])->text, ==, "two match");

  /* The limit keeps two lines and counts the third. */
  g_assert_cmpuint (cut->n_matches, ==, 3);
  g_assert_cmpuint (cut->n_shown, ==, 2);
  f = cut->files->pdata[0];
  g_assert_cmpuint (f->lines->len, ==, 2);

  g_assert_cmpuint (none->n_matches, ==, 0);
  g_assert_cmpuint (none->files->len, ==, 0);

  /* An empty line matches `^$`; the end of the last line is no line of its own. */
  g_assert_cmpuint (empty_lines->n_matches, ==, 1);
  f = empty_lines->files->pdata[0];
  g_assert_cmpuint (((LodeGrepLine *) f->lines->pdata[0])->line, ==, 2);
}

/* Six catalogs the shape of git's po/ files, each translating a message in three forms
 * among other entries, read by lode_grep_files() with @limit lines kept and @count_bytes
 * read past them. */
static LodeGrepResult *
grep_catalogs (guint limit,
               guint count_bytes,
               gsize *catalog_size)
{
  static const char *const names[] = { "bg.po", "ca.po", "de.po", "es.po", "fr.po", "it.po" };
  g_autofree char *dir = g_dir_make_tmp ("lode-grep-XXXXXX", NULL);
  g_autofree char *catalog = test_po_catalog (60, 20);
  LodeGrepTarget targets[G_N_ELEMENTS (names)];
  LodeGrepOptions options;
  LodeGrepResult *result;

  *catalog_size = strlen (catalog);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      test_write_file (dir, names[i], catalog);
      targets[i].path = names[i];
      targets[i].language = NULL;
    }
  lode_grep_options_init (&options);
  options.pattern = "not a git repository";
  options.limit = limit;
  options.count_bytes = count_bytes;
  result = grep_files (dir, &options, targets, G_N_ELEMENTS (names), TRUE, NULL, NULL);
  g_assert_nonnull (result);
  test_remove_tree (dir);
  return result;
}

/* Past the limit the count goes on over a bounded number of bytes: a long list gives a
 * lower bound and the files left unread, the same each time; a short one, or no bound,
 * the exact count. The lines kept are the first ones either way. */
static void
test_count_bound (void)
{
  gsize size = 0;
  /* Four lines kept: the second catalog holds the fourth, the next two are counted. */
  g_autoptr(LodeGrepResult) unbounded = grep_catalogs (4, 0, &size);
  g_autoptr(LodeGrepResult) bounded = grep_catalogs (4, 2 * size, &size);
  g_autoptr(LodeGrepResult) again = grep_catalogs (4, 2 * size, &size);
  g_autoptr(LodeGrepResult) short_list = grep_catalogs (100, 1, &size);
  LodeGrepFile *second;

  g_assert_cmpuint (bounded->n_shown, ==, 4);
  g_assert_cmpuint (bounded->n_matches, ==, 4 * 3);
  g_assert_cmpuint (bounded->n_files, ==, 4);
  g_assert_cmpuint (bounded->n_unread, ==, 2);
  g_assert_true (bounded->complete);
  g_assert_cmpuint (bounded->files->len, ==, 2);
  second = bounded->files->pdata[1];
  g_assert_cmpstr (second->path, ==, "ca.po");
  g_assert_cmpuint (second->lines->len, ==, 1);
  g_assert_true (g_str_has_prefix (((LodeGrepLine *) second->lines->pdata[0])->text,
                                   "msgid \"not a git repository"));
  g_assert_cmpuint (again->n_matches, ==, bounded->n_matches);
  g_assert_cmpuint (again->n_unread, ==, bounded->n_unread);

  g_assert_cmpuint (unbounded->n_matches, ==, 6 * 3);
  g_assert_cmpuint (unbounded->n_files, ==, 6);
  g_assert_cmpuint (unbounded->n_unread, ==, 0);
  g_assert_cmpuint (unbounded->n_shown, ==, 4);

  g_assert_cmpuint (short_list->n_matches, ==, 6 * 3);
  g_assert_cmpuint (short_list->n_shown, ==, 6 * 3);
  g_assert_cmpuint (short_list->n_unread, ==, 0);
  g_assert_true (short_list->complete);
}

/* A search that reads more than a few small files is helped by other threads, which verify
 * files ahead of the one the lines kept have reached: the result is the one file after file
 * would give. Forty 128 KiB C files, each calling die_errno() twice in a row and once more
 * below; the limit falls inside the 37th file, long after the helpers started, where the one
 * line kept has the next call as a context line, not as a match. */
static void
test_helped (void)
{
  g_autofree char *dir = g_dir_make_tmp ("lode-grep-XXXXXX", NULL);
  g_autoptr(GString) source = g_string_new ("#include \"git-compat-util.h\"\n");
  g_autofree LodeGrepTarget *targets = g_new0 (LodeGrepTarget, 40);
  g_autoptr(GPtrArray) names = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(LodeGrepResult) r = NULL;
  LodeGrepOptions options;
  LodeGrepFile *last;
  static const guint lines[] = { 9, 10, 11 };
  static const gboolean is_match[] = { FALSE, TRUE, FALSE };

  for (guint i = 1; i < 8; i++)
    g_string_append_printf (source, "/* %u */\n", i);
  g_string_append (source, "\tif (fd < 0)\n\t\tdie_errno(\"open\");\n\tdie_errno(\"close\");\n");
  while (source->len < 128 * 1024)
    g_string_append (source, "\tstrbuf_addf(&sb, \"%s/%s\", dir, name);\n");
  g_string_append (source, "\tdie_errno(\"read\");\n");
  for (guint i = 0; i < 40; i++)
    {
      char *name = g_strdup_printf ("builtin/cmd%02u.c", i);

      test_write_file (dir, name, source->str);
      g_ptr_array_add (names, name);
      /* Given in reverse: the search orders them. */
      targets[39 - i].path = name;
      targets[39 - i].language = "c";
    }
  lode_grep_options_init (&options);
  options.pattern = "die_errno";
  options.context_lines = 1;
  options.limit = 3 * 36 + 1;
  options.count_bytes = 0;
  r = grep_files (dir, &options, targets, 40, TRUE, NULL, NULL);

  g_assert_cmpuint (r->n_matches, ==, 3 * 40);
  g_assert_cmpuint (r->n_files, ==, 40);
  g_assert_cmpuint (r->n_shown, ==, options.limit);
  g_assert_cmpuint (r->n_unread, ==, 0);
  g_assert_cmpuint (r->files->len, ==, 37);
  for (guint i = 0; i < r->files->len; i++)
    {
      g_autofree char *name = g_strdup_printf ("builtin/cmd%02u.c", i);

      g_assert_cmpstr (((LodeGrepFile *) r->files->pdata[i])->path, ==, name);
    }
  last = r->files->pdata[36];
  g_assert_cmpuint (last->lines->len, ==, G_N_ELEMENTS (lines));
  for (guint i = 0; i < last->lines->len; i++)
    {
      LodeGrepLine *l = last->lines->pdata[i];

      g_assert_cmpuint (l->line, ==, lines[i]);
      g_assert_cmpint (l->match, ==, is_match[i]);
    }
  g_clear_pointer (&r, lode_grep_result_free);

  /* Without context, a file a helper verified with more lines than are left keeps its
   * first ones: here the 37th file's first call alone. */
  options.context_lines = 0;
  r = grep_files (dir, &options, targets, 40, TRUE, NULL, NULL);
  g_assert_cmpuint (r->n_matches, ==, 3 * 40);
  g_assert_cmpuint (r->n_shown, ==, options.limit);
  g_assert_cmpuint (r->files->len, ==, 37);
  last = r->files->pdata[36];
  g_assert_cmpstr (last->path, ==, "builtin/cmd36.c");
  g_assert_cmpuint (last->n_matches, ==, 3);
  g_assert_cmpuint (last->lines->len, ==, 1);
  g_assert_cmpuint (((LodeGrepLine *) last->lines->pdata[0])->line, ==, 10);
  g_assert_true (((LodeGrepLine *) last->lines->pdata[0])->match);
  for (guint i = 0; i < 36; i++)
    g_assert_cmpuint (((LodeGrepFile *) r->files->pdata[i])->lines->len, ==, 3);
  test_remove_tree (dir);
}

/* What took an indexed file's place since the index was made: a directory, a FIFO nobody
 * writes, a link to a device that never ends, a file that grew past the reading buffer.
 * Each is read as far as it is a file and the search ends, with the files' lines. */
static void
test_not_regular (void)
{
  g_autofree char *dir = g_dir_make_tmp ("lode-grep-XXXXXX", NULL);
  g_autofree char *fifo = g_build_filename (dir, "fifo.c", NULL);
  g_autofree char *sub = g_build_filename (dir, "dir.c", NULL);
  g_autofree char *zero = g_build_filename (dir, "zero.c", NULL);
  g_autoptr(GString) grown = g_string_new ("\tdie_errno(\"open\");\n");
  static const char * const names[] = { "a.c", "dir.c", "fifo.c", "grown.c", "zero.c" };
  LodeGrepTarget targets[G_N_ELEMENTS (names)];
  g_autoptr(LodeGrepResult) r = NULL;
  LodeGrepOptions options;
  LodeGrepFile *file;

  while (grown->len < 300 * 1024)
    g_string_append (grown, "\tstrbuf_addf(&sb, \"%s/%s\", dir, name);\n");
  g_string_append (grown, "\tdie_errno(\"close\");\n");
  test_write_file (dir, "a.c", "\tdie_errno(\"read\");\n");
  test_write_file (dir, "grown.c", grown->str);
  g_assert_cmpint (g_mkdir (sub, 0700), ==, 0);
  g_assert_cmpint (mkfifo (fifo, 0600), ==, 0);
  g_assert_cmpint (symlink ("/dev/zero", zero), ==, 0);
  for (guint i = 0; i < G_N_ELEMENTS (names); i++)
    {
      targets[i].path = names[i];
      targets[i].language = "c";
    }
  lode_grep_options_init (&options);
  options.pattern = "die_errno";
  r = grep_files (dir, &options, targets, G_N_ELEMENTS (targets), TRUE, NULL, NULL);

  g_assert_cmpuint (r->n_matches, ==, 3);
  g_assert_cmpuint (r->files->len, ==, 2);
  g_assert_cmpstr (((LodeGrepFile *) r->files->pdata[0])->path, ==, "a.c");
  file = r->files->pdata[1];
  g_assert_cmpstr (file->path, ==, "grown.c");
  g_assert_cmpuint (file->lines->len, ==, 2);
  g_assert_cmpstr (((LodeGrepLine *) file->lines->pdata[1])->text, ==, "\tdie_errno(\"close\");");
  g_assert_true (r->complete);
  test_remove_tree (dir);
}

/* -w with a short identifier, as in git's sources: "oid" stands inside "void" and
 * "oidcpy" on most lines that hold it, and a line counts when any of its places is a word. */
static void
test_whole_word (void)
{
  const char *text = "static void f (void)\n"
                     "struct object_id oid;\n"
                     "oidcpy(&oid, src);\n"
                     "caf\xc3\xa9 oid_x\n"
                     "na\xc3\xafve oid\n"
                     "xoid\n"
                     "oid";
  g_autofree char *dir = g_dir_make_tmp ("lode-grep-XXXXXX", NULL);
  g_autofree char *path = g_build_filename (dir, "object.c", NULL);
  g_autoptr(LodeGrepResult) r = NULL;
  g_autoptr(GString) lines = g_string_new (NULL);
  LodeGrepTarget target = { "object.c", "c" };
  LodeGrepOptions options;
  LodeGrepFile *f;

  g_assert_true (g_file_set_contents (path, text, -1, NULL));
  lode_grep_options_init (&options);
  options.pattern = "oid";
  options.whole_word = TRUE;
  r = grep_files (dir, &options, &target, 1, FALSE, NULL, NULL);
  g_unlink (path);
  g_rmdir (dir);

  g_assert_cmpuint (r->n_matches, ==, 4);
  f = r->files->pdata[0];
  for (guint i = 0; i < f->lines->len; i++)
    g_string_append_printf (lines, "%s%u", i > 0 ? " " : "",
                            ((LodeGrepLine *) f->lines->pdata[i])->line);
  g_assert_cmpstr (lines->str, ==, "2 3 5 7");
}

static void
test_invalid_pattern (void)
{
  LodeGrepOptions options;
  g_autoptr(GError) error = NULL;
  g_autoptr(GRegex) regex = NULL;

  lode_grep_options_init (&options);
  options.pattern = "foo(bar";
  options.regex = TRUE;
  regex = lode_grep_compile (&options, &error);
  g_assert_null (regex);
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY);
  g_assert_nonnull (strstr (error->message, "Invalid regular expression"));
}

static void
test_cancelled (void)
{
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autoptr(GError) error = NULL;
  LodeGrepOptions options;
  LodeGrepTarget target = { "x.c", "c" };
  LodeGrepResult *result;

  lode_grep_options_init (&options);
  options.pattern = "x";
  g_cancellable_cancel (cancellable);
  result = grep_files ("/nonexistent", &options, &target, 1, FALSE, cancellable, &error);
  g_assert_null (result);
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* lode grep against rg ------------------------------------------------------------------ */

typedef struct
{
  const char *pattern;
  gboolean    regex;
  gboolean    case_sensitive;
  gboolean    whole_word;
} RgCase;

static const RgCase rg_cases[] = {
  { "g_autoptr", FALSE, TRUE, FALSE },
  { "G_LOG_DOMAIN", FALSE, TRUE, FALSE },
  { "lode_store_", FALSE, TRUE, FALSE },
  { "return FALSE;", FALSE, TRUE, FALSE },
  { "(transfer full)", FALSE, TRUE, FALSE },
  { "TODO(#", FALSE, TRUE, FALSE },
  { "error", FALSE, FALSE, FALSE },
  { "Error", FALSE, TRUE, TRUE },
  { "self", FALSE, TRUE, TRUE },
  { "len", FALSE, TRUE, TRUE },
  { "lode_[a-z]+_new \\(", TRUE, TRUE, FALSE },
  { "^#include \"lode-", TRUE, TRUE, FALSE },
  { "g_(autoptr|autofree|auto)\\b", TRUE, TRUE, FALSE },
  { "\\bstatic\\s+gboolean\\b", TRUE, TRUE, FALSE },
  { "G_[A-Z_]+_ERROR", TRUE, TRUE, FALSE },
  { "colou?r", TRUE, FALSE, FALSE },
  { "\\d{3,}", TRUE, TRUE, FALSE },
  { "^\\s*$", TRUE, TRUE, FALSE },
  { "[{}]$", TRUE, TRUE, FALSE },
  { "é|ü|→", TRUE, TRUE, FALSE },
  { "(?i)sqlite", TRUE, TRUE, FALSE },
  { "s(elf|tore)->", TRUE, TRUE, FALSE },
  { "\\w+_cb \\(", TRUE, TRUE, FALSE },
  /* Literals too short for a trigram, checked byte for byte before the regex. */
  { "\\w+\\(\\)\\s*\\{$", TRUE, TRUE, FALSE },
  { "→", FALSE, TRUE, FALSE },
  { "->", FALSE, TRUE, TRUE },
  { "0x[0-9a-f]+", TRUE, TRUE, FALSE },
  { "[;{]\\s+$", TRUE, TRUE, FALSE },
};

static char *
repo_root (void)
{
  return g_test_build_filename (G_TEST_DIST, "..", NULL);
}

static GHashTable *
rg_lines (const char   *root,
          const RgCase *c,
          GPtrArray    *paths)
{
  g_autoptr(GPtrArray) argv = g_ptr_array_new ();
  g_autoptr(GSubprocessLauncher) launcher = g_subprocess_launcher_new (G_SUBPROCESS_FLAGS_STDOUT_PIPE);
  g_autoptr(GSubprocess) proc = NULL;
  g_autoptr(GBytes) out = NULL;
  g_autoptr(GError) error = NULL;
  GHashTable *lines = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  const char *data;
  gsize size, pos = 0;

  g_ptr_array_add (argv, "rg");
  g_ptr_array_add (argv, "--no-config");
  g_ptr_array_add (argv, "--line-number");
  g_ptr_array_add (argv, "--with-filename");
  g_ptr_array_add (argv, "--no-heading");
  g_ptr_array_add (argv, "--null");
  g_ptr_array_add (argv, "--color=never");
  g_ptr_array_add (argv, "--no-ignore");
  g_ptr_array_add (argv, "--text");
  if (!c->regex)
    g_ptr_array_add (argv, "--fixed-strings");
  if (!c->case_sensitive)
    g_ptr_array_add (argv, "--ignore-case");
  if (c->whole_word)
    g_ptr_array_add (argv, "--word-regexp");
  g_ptr_array_add (argv, "-e");
  g_ptr_array_add (argv, (char *) c->pattern);
  g_ptr_array_add (argv, "--");
  for (guint i = 0; i < paths->len; i++)
    g_ptr_array_add (argv, paths->pdata[i]);
  g_ptr_array_add (argv, NULL);

  g_subprocess_launcher_set_cwd (launcher, root);
  proc = g_subprocess_launcher_spawnv (launcher, (const char * const *) argv->pdata, &error);
  g_assert_no_error (error);
  g_subprocess_communicate (proc, NULL, NULL, &out, NULL, &error);
  g_assert_no_error (error);
  data = g_bytes_get_data (out, &size);
  while (pos < size)
    {
      const char *nl = memchr (data + pos, '\n', size - pos);
      gsize end = nl != NULL ? (gsize) (nl - data) : size;
      const char *nul = memchr (data + pos, '\0', end - pos);
      g_autofree char *path = NULL;
      g_autofree char *rest = NULL;

      g_assert_nonnull (nul);
      path = g_strndup (data + pos, nul - (data + pos));
      rest = g_utf8_make_valid (nul + 1, data + end - (nul + 1));
      g_hash_table_add (lines, g_strdup_printf ("%s:%s", path, rest));
      pos = end + 1;
    }
  return lines;
}

static void
test_same_as_rg (void)
{
  g_autofree char *root = repo_root ();
  g_autofree char *rg = g_find_program_in_path ("rg");
  g_autoptr(LodeScanner) scanner = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(GPtrArray) folded = g_ptr_array_new_with_free_func (g_free);
  g_autofree LodeGrepTarget *targets = NULL;
  g_autoptr(GError) error = NULL;
  guint total = 0;

  if (rg == NULL)
    {
      g_test_skip ("rg is not installed");
      return;
    }

  scanner = lode_scanner_new (root);
  g_assert_true (lode_scanner_scan (scanner, NULL, &files, &skipped, &error));
  g_assert_no_error (error);
  targets = g_new0 (LodeGrepTarget, files->len);
  for (guint i = 0; i < files->len; i++)
    {
      LodeScanFile *f = files->pdata[i];

      targets[i].path = f->path;
      targets[i].language = f->language != NULL ? f->language->id : NULL;
      g_ptr_array_add (paths, f->path);
    }
  g_assert_cmpuint (files->len, >, 100);
  for (guint i = 0; i < files->len; i++)
    {
      g_autofree char *full = g_build_filename (root, targets[i].path, NULL);
      g_autofree char *text = NULL;
      g_autofree char *valid = NULL;
      gsize len = 0;

      g_file_get_contents (full, &text, &len, NULL);
      valid = g_utf8_make_valid (text != NULL ? text : "", len);
      g_ptr_array_add (folded, lode_grep_fold (valid, -1));
    }

  for (guint i = 0; i < G_N_ELEMENTS (rg_cases); i++)
    {
      const RgCase *c = &rg_cases[i];
      g_autoptr(GHashTable) expected = rg_lines (root, c, paths);
      g_autoptr(GHashTable) got = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      g_autoptr(LodeGrepResult) result = NULL;
      g_autoptr(LodeGrepQuery) query = NULL;
      g_autoptr(GPtrArray) candidates = g_ptr_array_new ();
      LodeGrepOptions options;
      GHashTableIter iter;
      gpointer key;

      lode_grep_options_init (&options);
      options.pattern = c->pattern;
      options.regex = c->regex;
      options.case_sensitive = c->case_sensitive;
      options.whole_word = c->whole_word;
      options.limit = G_MAXUINT;
      options.budget_msec = 0;

      /* The files the trigram query lets through, as an index would answer it. */
      query = lode_grep_plan (&options);
      for (guint j = 0; j < files->len; j++)
        if (lode_grep_query_matches_text (query, folded->pdata[j]))
          g_ptr_array_add (candidates, &targets[j]);
      {
        g_autofree LodeGrepTarget *chosen = g_new0 (LodeGrepTarget, MAX (candidates->len, 1));

        for (guint j = 0; j < candidates->len; j++)
          chosen[j] = *(LodeGrepTarget *) candidates->pdata[j];
        result = grep_files (root, &options, chosen, candidates->len, TRUE, NULL, &error);
      }
      g_assert_no_error (error);
      g_assert_true (result->complete);

      for (guint j = 0; j < result->files->len; j++)
        {
          LodeGrepFile *f = result->files->pdata[j];
          guint shown = 0;

          for (guint k = 0; k < f->lines->len; k++)
            {
              LodeGrepLine *l = f->lines->pdata[k];

              if (l->match)
                g_hash_table_add (got, g_strdup_printf ("%s:%u:%s", f->path, l->line, l->text));
              shown += l->match;
            }
          if (shown != f->n_matches)
            g_error ("%s: %s counts %u lines, shows %u", c->pattern, f->path, f->n_matches, shown);
        }

      g_hash_table_iter_init (&iter, expected);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_hash_table_contains (got, key))
          g_error ("%s: rg finds %s, lode grep does not", c->pattern, (char *) key);
      g_hash_table_iter_init (&iter, got);
      while (g_hash_table_iter_next (&iter, &key, NULL))
        if (!g_hash_table_contains (expected, key))
          g_error ("%s: lode grep finds %s, rg does not", c->pattern, (char *) key);
      if (result->n_matches != g_hash_table_size (expected))
        g_error ("%s: lode grep counts %u lines, rg finds %u", c->pattern, result->n_matches,
                 g_hash_table_size (expected));
      g_test_message ("%s: %u lines in %u of %u candidate files", c->pattern,
                      result->n_matches, result->n_files, candidates->len);
      total += result->n_matches;
    }
  g_assert_cmpuint (total, >, 1000);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/grep/query", test_query);
  g_test_add_func ("/lode/grep/query-is-necessary", test_query_is_necessary);
  g_test_add_func ("/lode/grep/query-bytes", test_query_bytes);
  g_test_add_func ("/lode/grep/trigrams", test_trigrams);
  g_test_add_func ("/lode/grep/context-and-limit", test_context_and_limit);
  g_test_add_func ("/lode/grep/invalid-utf8", test_invalid_utf8);
  g_test_add_func ("/lode/grep/invalid-utf8-regex", test_invalid_utf8_regex);
  g_test_add_func ("/lode/grep/count-bound", test_count_bound);
  g_test_add_func ("/lode/grep/helped", test_helped);
  g_test_add_func ("/lode/grep/not-regular", test_not_regular);
  g_test_add_func ("/lode/grep/whole-word", test_whole_word);
  g_test_add_func ("/lode/grep/invalid-pattern", test_invalid_pattern);
  g_test_add_func ("/lode/grep/cancelled", test_cancelled);
  g_test_add_func ("/lode/grep/same-as-rg", test_same_as_rg);

  return g_test_run ();
}
