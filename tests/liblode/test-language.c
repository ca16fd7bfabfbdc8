/* test-language.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode-error.h"
#include "lode-language.h"

static void
test_for_path (void)
{
  static const struct {
    const char *path;
    const char *id;
  } cases[] = {
    { "main.c", "c" }, { "src/lode.h", "c" }, { "a/b/widget.cpp", "cpp" }, { "x.hpp", "cpp" },
    { "X.CC", "cpp" }, { "Program.cs", "csharp" }, { "main.go", "go" }, { "A.java", "java" },
    { "app.js", "javascript" }, { "mod.mjs", "javascript" }, { "view.jsx", "javascript" },
    { "app.ts", "typescript" }, { "view.tsx", "tsx" }, { "build.gradle.kts", "kotlin" },
    { "init.lua", "lua" }, { "index.php", "php" }, { "setup.py", "python" },
    { "types.pyi", "python" }, { "lib/a.rb", "ruby" }, { "Gemfile", "ruby" },
    { "Rakefile", "ruby" }, { "main.rs", "rust" }, { "Main.scala", "scala" },
    { "App.swift", "swift" }, { "run.sh", "bash" }, { ".bashrc", "bash" },
    { "PKGBUILD", "bash" }, { "style.css", "css" }, { "index.html", "html" },
    { "package.json", "json" }, { "README.md", "markdown" }, { "Cargo.toml", "toml" },
    { "Cargo.lock", "toml" }, { "ci.yml", "yaml" }, { "ci.yaml", "yaml" },
    { "COPYING", "text" }, { "notes.txt", "text" }, { "Makefile", "text" },
    { "archive.tar.gz", "text" }, { "dir.c/file", "text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const LodeLanguage *language = lode_language_for_path (cases[i].path);

      g_assert_nonnull (language);
      g_assert_cmpstr (language->id, ==, cases[i].id);
    }
}

static void
test_lookup (void)
{
  guint n = 0;
  const LodeLanguage **all = lode_language_get_all (&n);

  g_assert_cmpuint (n, >=, 24);
  for (guint i = 0; i < n; i++)
    {
      g_assert_true (lode_language_lookup (all[i]->id) == all[i]);
      g_assert_nonnull (all[i]->name);
    }
  g_assert_null (lode_language_lookup ("cobol"));
  g_assert_null (lode_language_lookup (""));
}

static void
test_add_extension (void)
{
  g_autoptr(GError) error = NULL;

  g_assert_cmpstr (lode_language_for_path ("page.tpl")->id, ==, "text");

  g_assert_true (lode_language_add_extension ("tpl", "html", &error));
  g_assert_no_error (error);
  g_assert_cmpstr (lode_language_for_path ("views/page.tpl")->id, ==, "html");

  /* Extra extensions take precedence over built-in ones. */
  g_assert_true (lode_language_add_extension (".inc", "php", &error));
  g_assert_cmpstr (lode_language_for_path ("x.inc")->id, ==, "php");

  g_assert_false (lode_language_add_extension (".foo", "cobol", &error));
  g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
}

static void
test_grammars (void)
{
  guint n = 0;
  const LodeLanguage **all = lode_language_get_all (&n);
  guint n_grammars = 0;

  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GError) error = NULL;
      const TSLanguage *ts_language;
      TSQuery *query;
      uint32_t version;

      if (all[i]->ts_language == NULL)
        continue;

      n_grammars++;
      ts_language = all[i]->ts_language ();
      version = ts_language_version (ts_language);
      g_test_message ("%s: grammar version %u", all[i]->id, version);
      g_assert_true (version == 13 || version == 14);

      query = lode_language_get_chunk_query (all[i], &error);
      g_assert_no_error (error);
      g_assert_nonnull (query);
      g_assert_cmpuint (ts_query_pattern_count (query), >, 0);
      /* Cached: the same query every time. */
      g_assert_true (lode_language_get_chunk_query (all[i], NULL) == query);
      g_assert_nonnull (lode_language_get_chunk_roots (all[i]));
    }

  g_assert_cmpuint (n_grammars, ==, 17);
}

static void
test_for_content_header (void)
{
  static const struct {
    const char *text;
    const char *id;
  } cases[] = {
    { "#pragma once\nint foo (int);\n", "c" },
    { "/* This class of functions ... */\nstruct x { int a; };\n", "c" },
    { "#pragma once\nclass Widget {\n};\n", "cpp" },
    { "class Widget : public Base\n{\n};\n", "cpp" },
    { "class Widget\n{\n};\n", "cpp" },
    { "namespace lode {\n}\n", "cpp" },
    { "template <typename T>\nT max (T a, T b);\n", "cpp" },
    { "struct s {\npublic:\n  int x;\n};\n", "cpp" },
    { "int namespace_count;\n", "c" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const LodeLanguage *by_path = lode_language_for_path ("include/thing.h");
      const LodeLanguage *language;

      language = lode_language_for_content (by_path, "include/thing.h", cases[i].text,
                                            strlen (cases[i].text));
      g_assert_cmpstr (language->id, ==, cases[i].id);
    }

  /* Only `.h` is sniffed; a `.c` file stays C. */
  g_assert_cmpstr (lode_language_for_content (lode_language_for_path ("a.c"), "a.c",
                                              "class X {};\n", 12)->id, ==, "c");
}

static void
test_for_content_shebang (void)
{
  static const char tcl[] =
    "#!/bin/sh\n# Tcl ignores the next line -*- tcl -*- \\\nexec tclsh \"$0\" -- \"$@\"\n";
  static const char shell[] = "#!/bin/sh\n# a comment \\\necho \"$0\"\nexec wish \"$0\"\n";
  static const struct {
    const char *text;
    const char *id;
  } cases[] = {
    { "#!/bin/sh\necho hi\n", "bash" },
    { "#!/bin/bash -e\n", "bash" },
    { "#!/usr/bin/env bash\n", "bash" },
    { "#!/usr/bin/env python3\nprint(1)\n", "python" },
    { "#!/usr/bin/python3.11\n", "python" },
    { "#!/usr/bin/env -S ruby -w\n", "ruby" },
    { "#!/usr/bin/env node\n", "javascript" },
    { "#!/usr/bin/lua5.4\n", "lua" },
    { "#!/usr/bin/php\n<?php\n", "php" },
    { "#!/usr/bin/perl\n", "text" },
    /* Tcl started through the shell (gitk, git-gui): Tcl goes on with the comment onto the
     * lines that end in a backslash, the shell runs them. */
    { "#!/bin/sh\n# Tcl ignores the next line -*- tcl -*- \\\nexec wish \"$0\" -- \"$@\"\n\n"
      "proc hasworktree {} {\n}\n", "text" },
    { "#!/bin/sh\n# Tcl ignores the next line -*- tcl -*- \\\n"
      " if test \"z$*\" = zversion \\\n || test \"z$*\" = z--version; \\\n then \\\n"
      "\techo 'git-gui version'; \\\n\texit; \\\n fi; \\\n argv0=$0; \\\n"
      " exec wish \"$argv0\" -- \"$@\"\n\nset appvers {1}\n", "text" },
    { "#!/bin/sh\r\n# restart with tclsh \\\r\nexec /usr/bin/tclsh8.6 \"$0\" ${1+\"$@\"}\r\n",
      "text" },
    /* What the shell runs after a comment it ended is still the shell's. */
    { "#!/bin/sh\n# a comment that ends in a backslash \\\necho done\nexec wish \"$0\"\n",
      "bash" },
    { "#!/bin/sh\n# not the magic\nexec wish \"$0\" -- \"$@\"\n", "bash" },
    { "#!/bin/sh\nset -e\n# late \\\nexec tclsh \"$0\"\n", "bash" },
    { "#!/bin/sh\n# \\\nexec wishful \"$0\"\n", "bash" },
    { "#!/bin/sh\n# \\\n", "bash" },
    { "#!/bin/sh\n# \\\nexec", "bash" },
    { "#!/usr/bin/env shellcheck\n", "text" },
    { "#!", "text" },
    { "no shebang\n", "text" },
    { "", "text" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      const LodeLanguage *language;

      language = lode_language_for_content (lode_language_for_path ("bin/tool"), "bin/tool",
                                            cases[i].text, strlen (cases[i].text));
      g_assert_cmpstr (language->id, ==, cases[i].id);
    }

  /* A name that already says what the file is wins over the shebang. */
  g_assert_cmpstr (lode_language_for_content (lode_language_for_path ("x.py"), "x.py",
                                              "#!/bin/sh\n", 10)->id, ==, "python");
  /* Tcl started through the shell is not shell, whatever its name says (git-gui.sh). */
  g_assert_cmpstr (lode_language_for_content (lode_language_for_path ("git-gui.sh"),
                                              "git-gui.sh", tcl, strlen (tcl))->id, ==, "text");
  g_assert_cmpstr (lode_language_for_content (lode_language_for_path ("run.sh"), "run.sh",
                                              shell, strlen (shell))->id, ==, "bash");
  /* Without a language from the path, the path is looked at first. */
  g_assert_cmpstr (lode_language_for_content (NULL, "tool", "#!/bin/sh\n", 10)->id, ==, "bash");
}

/* Every node of a C and a Python file, in turns, each field name asked of each: the same child
 * as tree-sitter's own look-up, including for names one grammar has and the other lacks and
 * for a name written over another at the same address. */
static void
assert_fields (TSNode      node,
               const char *name)
{
  TSNode expected = ts_node_child_by_field_name (node, name, strlen (name));
  TSNode child = lode_node_child_by_field (node, name);

  g_assert_true (ts_node_is_null (child) == ts_node_is_null (expected));
  if (!ts_node_is_null (child))
    g_assert_true (ts_node_eq (child, expected));
}

static void
test_child_by_field (void)
{
  static const char * const names[] = {
    "declarator", "body", "name", "function", "arguments", "parameters", "type", "value",
    "left", "right", "condition", "alternative", "return_type", "rhs",
  };
  static const char c_text[] =
    "static int f (int a, char **b) { if (a > 1) return g (a, b[0]); else x = a; }\n"
    "struct s { int n; };\n";
  static const char py_text[] =
    "def f(a, b: int) -> int:\n    if a > 1:\n        return g(a, b[0])\n    x = a\n"
    "class S:\n    n: int = 0\n";
  const LodeLanguage *languages[] = { lode_language_lookup ("c"),
                                      lode_language_lookup ("python") };
  const char *texts[] = { c_text, py_text };
  TSTree *trees[2];
  TSTreeCursor cursors[2];
  gboolean walking[2] = { TRUE, TRUE };
  char reused[16];
  guint n_nodes = 0;

  for (guint i = 0; i < 2; i++)
    {
      TSParser *parser = ts_parser_new ();

      g_assert_true (ts_parser_set_language (parser, languages[i]->ts_language ()));
      trees[i] = ts_parser_parse_string (parser, NULL, texts[i], strlen (texts[i]));
      ts_parser_delete (parser);
      cursors[i] = ts_tree_cursor_new (ts_tree_root_node (trees[i]));
    }

  while (walking[0] || walking[1])
    for (guint i = 0; i < 2; i++)
      {
        TSNode node;

        if (!walking[i])
          continue;
        node = ts_tree_cursor_current_node (&cursors[i]);
        n_nodes++;
        for (guint j = 0; j < G_N_ELEMENTS (names); j++)
          {
            assert_fields (node, names[j]);
            g_strlcpy (reused, names[j], sizeof reused);
            assert_fields (node, reused);
          }
        if (ts_tree_cursor_goto_first_child (&cursors[i]))
          continue;
        while (!ts_tree_cursor_goto_next_sibling (&cursors[i]))
          if (!ts_tree_cursor_goto_parent (&cursors[i]))
            {
              walking[i] = FALSE;
              break;
            }
      }
  g_assert_cmpuint (n_nodes, >, 80);

  for (guint i = 0; i < 2; i++)
    {
      ts_tree_cursor_delete (&cursors[i]);
      ts_tree_delete (trees[i]);
    }
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/language/for-path", test_for_path);
  g_test_add_func ("/lode/language/lookup", test_lookup);
  g_test_add_func ("/lode/language/add-extension", test_add_extension);
  g_test_add_func ("/lode/language/grammars", test_grammars);
  g_test_add_func ("/lode/language/for-content-header", test_for_content_header);
  g_test_add_func ("/lode/language/for-content-shebang", test_for_content_shebang);
  g_test_add_func ("/lode/language/child-by-field", test_child_by_field);

  return g_test_run ();
}
