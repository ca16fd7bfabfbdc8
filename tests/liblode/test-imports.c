/* test-imports.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode-chunker.h"
#include "lode-error.h"
#include "lode-import-resolver.h"
#include "lode-import-declarations-private.h"
#include "lode-import-makefile-private.h"
#include "lode-imports.h"
#include "test-helpers.h"

/* Every fixture project under fixtures/graph/<name>/ lists the exact edges its files make in
 * `expected-edges`, one "from -> to" or "from -> external:package" per line. */
#define EXPECTED_EDGES "expected-edges"

static void
list_files (const char *root,
            const char *rel,
            GPtrArray  *paths)
{
  g_autofree char *dir_path = g_build_filename (root, rel, NULL);
  g_autoptr(GDir) dir = g_dir_open (dir_path, 0, NULL);
  const char *name;

  g_assert_nonnull (dir);
  while ((name = g_dir_read_name (dir)) != NULL)
    {
      g_autofree char *child = rel[0] != '\0' ? g_strconcat (rel, "/", name, NULL)
                                              : g_strdup (name);
      g_autofree char *full = g_build_filename (root, child, NULL);

      if (g_file_test (full, G_FILE_TEST_IS_DIR))
        list_files (root, child, paths);
      else if (strcmp (child, EXPECTED_EDGES) != 0)
        g_ptr_array_add (paths, g_steal_pointer (&child));
    }
}

typedef struct
{
  char      *root;
  GPtrArray *paths;               /* project paths, sorted */
  GPtrArray *froms;               /* the importing path of each import */
  GPtrArray *imports;             /* LodeImport */
} Project;

static void
project_free (Project *project)
{
  g_free (project->root);
  g_ptr_array_unref (project->paths);
  g_ptr_array_unref (project->froms);
  g_ptr_array_unref (project->imports);
  g_free (project);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Project, project_free)

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char **) a, *(const char **) b);
}

/* Reads a fixture project and extracts its imports the way the indexer does: through the
 * chunker, from the parse it makes for chunking. */
static Project *
project_load (const char *name)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  Project *project = g_new0 (Project, 1);

  project->root = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "graph", name, NULL);
  project->paths = g_ptr_array_new_with_free_func (g_free);
  project->froms = g_ptr_array_new ();
  project->imports = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_import_free);
  list_files (project->root, "", project->paths);
  g_ptr_array_sort (project->paths, compare_strings);

  for (guint i = 0; i < project->paths->len; i++)
    {
      const char *path = project->paths->pdata[i];
      g_autofree char *full = g_build_filename (project->root, path, NULL);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) chunks = NULL;
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(GPtrArray) imports = NULL;
      g_autoptr(GError) error = NULL;
      const LodeLanguage *language;
      gsize len;

      g_assert_true (g_file_get_contents (full, &text, &len, &error));
      language = lode_language_for_content (NULL, path, text, len);
      g_assert_true (lode_chunker_chunk (chunker, language, NULL, text, len, &chunks, &symbols,
                                         &imports, NULL, NULL, NULL, &error));
      g_assert_no_error (error);

      for (guint j = 0; j < imports->len; j++)
        {
          g_ptr_array_add (project->froms, project->paths->pdata[i]);
          g_ptr_array_add (project->imports, lode_import_copy (imports->pdata[j]));
        }
    }

  return project;
}

static LodeImportResolver *
project_resolver (Project    *project,
                  const char *without)
{
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();

  for (guint i = 0; i < project->paths->len; i++)
    if (without == NULL || strcmp (project->paths->pdata[i], without) != 0)
      g_ptr_array_add (paths, project->paths->pdata[i]);
  g_ptr_array_add (paths, NULL);

  return lode_import_resolver_new (project->root, (const char * const *) paths->pdata);
}

/* "to" of every edge of one import: its files, or "external:<package>". */
static GStrv
resolve_edges (LodeImportResolver *resolver,
               const char         *from,
               const LodeImport   *import)
{
  g_autofree char *package = NULL;
  g_auto(GStrv) targets = lode_import_resolver_resolve_all (resolver, from, import, &package);

  if (targets[0] == NULL)
    {
      g_autofree char *edge = NULL;
      const char *edges[2] = { NULL, NULL };

      g_assert_nonnull (package);
      edge = g_strconcat ("external:", package, NULL);
      edges[0] = edge;
      return g_strdupv ((char **) edges);
    }

  g_assert_null (package);
  return g_steal_pointer (&targets);
}

static GPtrArray *
sorted_unique (GPtrArray *lines)
{
  GPtrArray *unique = g_ptr_array_new_with_free_func (g_free);

  g_ptr_array_sort (lines, compare_strings);
  for (guint i = 0; i < lines->len; i++)
    if (unique->len == 0 || strcmp (unique->pdata[unique->len - 1], lines->pdata[i]) != 0)
      g_ptr_array_add (unique, g_strdup (lines->pdata[i]));

  return unique;
}

static void
test_fixture (gconstpointer data)
{
  const char *name = data;
  g_autoptr(Project) project = project_load (name);
  g_autoptr(LodeImportResolver) resolver = project_resolver (project, NULL);
  g_autoptr(GPtrArray) edges = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) expected = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) actual = NULL;
  g_autoptr(GPtrArray) wanted = NULL;
  g_autofree char *expected_path = g_build_filename (project->root, EXPECTED_EDGES, NULL);
  g_autofree char *expected_text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GString) diff = g_string_new (NULL);
  guint a = 0;
  guint w = 0;

  for (guint i = 0; i < project->imports->len; i++)
    {
      const char *from = project->froms->pdata[i];
      g_auto(GStrv) targets = resolve_edges (resolver, from, project->imports->pdata[i]);

      for (guint j = 0; targets[j] != NULL; j++)
        g_ptr_array_add (edges, g_strdup_printf ("%s -> %s", from, targets[j]));
    }

  g_assert_true (g_file_get_contents (expected_path, &expected_text, NULL, &error));
  lines = g_strsplit (expected_text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    if (lines[i][0] != '\0')
      g_ptr_array_add (expected, g_strdup (lines[i]));

  actual = sorted_unique (edges);
  wanted = sorted_unique (expected);

  while (a < actual->len || w < wanted->len)
    {
      int cmp = a == actual->len ? 1 : w == wanted->len ? -1
                : strcmp (actual->pdata[a], wanted->pdata[w]);

      if (cmp == 0)
        a++, w++;
      else if (cmp < 0)
        g_string_append_printf (diff, "  unexpected: %s\n", (char *) actual->pdata[a++]);
      else
        g_string_append_printf (diff, "  missing:    %s\n", (char *) wanted->pdata[w++]);
    }

  if (diff->len > 0)
    g_test_message ("Edges of the %s fixture differ:\n%s", name, diff->str);
  g_assert_cmpstr (diff->str, ==, "");
}

/* The key contract behind incremental updates: without any one file, every import whose key
 * is not among that file's keys resolves exactly as with it. Configuration files are the
 * exception: a change to one re-resolves everything. */
static void
test_keys (gconstpointer data)
{
  const char *name = data;
  g_autoptr(Project) project = project_load (name);
  g_autoptr(LodeImportResolver) full = project_resolver (project, NULL);

  for (guint f = 0; f < project->paths->len; f++)
    {
      const char *removed = project->paths->pdata[f];
      g_autoptr(LodeImportResolver) partial = NULL;
      g_auto(GStrv) keys = NULL;

      if (lode_import_resolver_is_config_file (removed))
        continue;

      partial = project_resolver (project, removed);
      keys = lode_import_resolver_dup_keys_for_path (full, removed);

      for (guint i = 0; i < project->imports->len; i++)
        {
          const char *from = project->froms->pdata[i];
          const LodeImport *import = project->imports->pdata[i];
          g_autofree char *key = lode_import_resolver_dup_key (full, from, import);
          g_auto(GStrv) with_edges = NULL;
          g_auto(GStrv) without_edges = NULL;
          g_autofree char *with = NULL;
          g_autofree char *without = NULL;

          if (strcmp (from, removed) == 0 || g_strv_contains ((const char * const *) keys, key))
            continue;

          with_edges = resolve_edges (full, from, import);
          without_edges = resolve_edges (partial, from, import);
          with = g_strjoinv (" ", with_edges);
          without = g_strjoinv (" ", without_edges);
          if (g_strcmp0 (with, without) != 0)
            g_test_message ("%s: %s (key %s) depends on %s", from, import->specifier, key,
                            removed);
          g_assert_cmpstr (with, ==, without);
        }
    }
}

typedef struct
{
  const char     *specifier;
  const char     *name;
  LodeImportKind  kind;
  guint           line;
} ExpectedImport;

static void
assert_imports (const char           *language_id,
                const char           *text,
                const ExpectedImport *expected,
                guint                 n_expected)
{
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GError) error = NULL;

  g_assert_true (lode_imports_extract (lode_language_lookup (language_id), text, strlen (text),
                                       NULL, &imports, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < MIN (imports->len, n_expected); i++)
    {
      const LodeImport *import = imports->pdata[i];

      g_assert_cmpstr (import->specifier, ==, expected[i].specifier);
      g_assert_cmpstr (import->name, ==, expected[i].name);
      g_assert_cmpstr (lode_import_kind_to_string (import->kind), ==,
                       lode_import_kind_to_string (expected[i].kind));
      g_assert_cmpuint (import->line, ==, expected[i].line);
    }
  g_assert_cmpuint (imports->len, ==, n_expected);
}

static void
test_kinds (void)
{
  static const ExpectedImport js[] = {
    { "react", NULL, LODE_IMPORT_MODULE, 1 },
    { "./polyfill", NULL, LODE_IMPORT_SIDE_EFFECT, 2 },
    { "./api", NULL, LODE_IMPORT_REEXPORT, 3 },
    { "./lazy", NULL, LODE_IMPORT_DYNAMIC, 4 },
    { "./legacy", NULL, LODE_IMPORT_MODULE, 5 },
  };
  static const ExpectedImport python[] = {
    { "os.path", NULL, LODE_IMPORT_MODULE, 1 },
    { ".", "models,views", LODE_IMPORT_MODULE, 2 },
    { "..util", NULL, LODE_IMPORT_MODULE, 3 },
    { "plugins.x", NULL, LODE_IMPORT_DYNAMIC, 4 },
  };
  static const ExpectedImport rust[] = {
    { "crate::a::b", NULL, LODE_IMPORT_MODULE, 1 },
    { "crate::a::c", NULL, LODE_IMPORT_MODULE, 1 },
    { "crate::a::c::d", NULL, LODE_IMPORT_MODULE, 1 },
    { "crate::a::e::*", NULL, LODE_IMPORT_MODULE, 1 },
    { "net", NULL, LODE_IMPORT_SOURCE, 2 },
    /* tokio's sync/mod.rs: what `pub use` names is part of the module; `pub(crate) use`
     * is not. */
    { "semaphore::Semaphore", NULL, LODE_IMPORT_REEXPORT, 4 },
    { "semaphore::SemaphorePermit", NULL, LODE_IMPORT_REEXPORT, 4 },
    { "batch_semaphore::Acquire", NULL, LODE_IMPORT_MODULE, 5 },
  };
  static const ExpectedImport c[] = {
    { "stdio.h", NULL, LODE_IMPORT_INCLUDE_SYSTEM, 1 },
    { "util/list.h", NULL, LODE_IMPORT_INCLUDE_LOCAL, 2 },
  };

  assert_imports ("javascript",
                  "import React from 'react';\n"
                  "import './polyfill';\n"
                  "export * from \"./api\";\n"
                  "const lazy = import(`./lazy`), dyn = import(`./${name}`);\n"
                  "const legacy = require('./legacy'), other = notRequire('./no');\n",
                  js, G_N_ELEMENTS (js));
  assert_imports ("python",
                  "import os.path as p\n"
                  "from . import models, views as v\n"
                  "from ..util import *\n"
                  "m = importlib.import_module('plugins.x')\n",
                  python, G_N_ELEMENTS (python));
  assert_imports ("rust",
                  "use crate::a::{b, c::{self, d as e}, e::*};\n"
                  "mod net;\n"
                  "mod inline { }\n"
                  "pub use semaphore::{Semaphore, SemaphorePermit};\n"
                  "pub(crate) use batch_semaphore::Acquire;\n",
                  rust, G_N_ELEMENTS (rust));
  assert_imports ("c",
                  "#include <stdio.h>\n"
                  "#include \"util/list.h\"\n"
                  "#include MACRO_HEADER\n",
                  c, G_N_ELEMENTS (c));
}

/* Whatever the bytes, extraction returns (valid UTF-8 specifiers) or refuses with an error. */
static void
test_bad_input (void)
{
  static const char invalid_utf8[] =
    "import a from \"./\xff\xfe\";\n#include \"\xc3\x28.h\"\nrequire '\x80'\n"
    "@import \"\xed\xa0\x80\";\n<script src=\"\xff\"></script>\nimport '\xfe';\n";
  static const char * const unterminated[] = {
    "/* @import \"a\"", "@import url(", "@import \"a", "<script", "<script>import a from",
    "<!--", "<link rel=stylesheet href=\"x", "import 'a", "/* /* nested */", "part ",
    "<style>@import \"", "use a::{b, c", "from . import",
  };
  g_autofree char *binary = g_malloc (8 * 1024);
  g_autofree char *huge = NULL;
  g_autoptr(GRand) rand = g_rand_new_with_seed (6);
  guint n_languages;
  const LodeLanguage **languages = lode_language_get_all (&n_languages);

  for (gsize i = 0; i < 8 * 1024; i++)
    binary[i] = (char) g_rand_int_range (rand, 0, 256);

  for (guint l = 0; l < n_languages; l++)
    {
      const char *inputs[G_N_ELEMENTS (unterminated) + 2];
      gsize lens[G_N_ELEMENTS (unterminated) + 2];

      if (!lode_imports_supported (languages[l]))
        continue;

      inputs[0] = invalid_utf8;
      lens[0] = sizeof invalid_utf8 - 1;
      inputs[1] = binary;
      lens[1] = 8 * 1024;
      for (guint i = 0; i < G_N_ELEMENTS (unterminated); i++)
        {
          inputs[i + 2] = unterminated[i];
          lens[i + 2] = strlen (unterminated[i]);
        }

      for (guint i = 0; i < G_N_ELEMENTS (inputs); i++)
        {
          g_autoptr(GPtrArray) imports = NULL;
          g_autoptr(GError) error = NULL;

          g_assert_true (lode_imports_extract (languages[l], inputs[i], lens[i], NULL, &imports,
                                               &error));
          g_assert_no_error (error);
          for (guint j = 0; j < imports->len; j++)
            {
              const LodeImport *import = imports->pdata[j];

              g_assert_true (g_utf8_validate (import->specifier, -1, NULL));
              g_assert_cmpuint (import->line, >=, 1);
            }
        }
    }

  huge = g_malloc0 (LODE_IMPORTS_MAX_BYTES + 1);
  memset (huge, ' ', LODE_IMPORTS_MAX_BYTES + 1);
  {
    g_autoptr(GPtrArray) imports = NULL;
    g_autoptr(GError) error = NULL;

    g_assert_false (lode_imports_extract (lode_language_lookup ("javascript"), huge,
                                          LODE_IMPORTS_MAX_BYTES + 1, NULL, &imports, &error));
    g_assert_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT);
    g_assert_null (imports);
  }
}

/* A wildcard with nothing before it (`import _`, `import *`) names nothing: no edge, and the
 * resolver does not read past the specifier's parts (found by fuzz-imports). */
static void
test_bare_wildcard (void)
{
  static const char * const paths[] = { "src/main/scala/acme/Main.scala", "A.kt", NULL };
  static const char * const sources[] = { "import _\n", "import *\n", "import acme._\n" };
  g_autoptr(LodeImportResolver) resolver = lode_import_resolver_new ("/nonexistent", paths);

  for (guint i = 0; i < G_N_ELEMENTS (sources); i++)
    for (guint p = 0; paths[p] != NULL; p++)
      {
        g_autoptr(GPtrArray) imports = NULL;
        g_autoptr(GError) error = NULL;
        const LodeLanguage *language = lode_language_for_path (paths[p]);

        g_assert_true (lode_imports_extract (language, sources[i], strlen (sources[i]), NULL,
                                             &imports, &error));
        g_assert_no_error (error);
        for (guint j = 0; j < imports->len; j++)
          {
            g_autofree char *package = NULL;
            g_auto(GStrv) targets = lode_import_resolver_resolve_all (resolver, paths[p],
                                                                      imports->pdata[j],
                                                                      &package);

            g_assert_nonnull (targets);
            g_assert_cmpuint (g_strv_length (targets), ==, 0);
          }
      }
}

/* Many imports are all found, and a minified file the chunker does not parse still gives
 * its imports through the chunker. */
static void
test_many (void)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GError) error = NULL;
  const guint n = 20000;

  for (guint i = 0; i < n; i++)
    g_string_append_printf (text, "import m%u from \"./m%u\";", i, i);

  g_assert_true (lode_chunker_chunk (chunker, lode_language_lookup ("javascript"), NULL,
                                     text->str, text->len, &chunks, &symbols, &imports, NULL,
                                     NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (imports->len, ==, n);
  g_assert_cmpstr (((LodeImport *) imports->pdata[n - 1])->specifier, ==, "./m19999");
}

/* Adding and removing files changes what imports resolve to, and the key of an import is
 * among the keys of the files it resolves to. */
static void
test_incremental (void)
{
  g_autoptr(Project) project = project_load ("javascript");
  g_autoptr(LodeImportResolver) resolver = project_resolver (project, NULL);
  g_autoptr(LodeImport) import = lode_import_new ("./math", NULL, LODE_IMPORT_MODULE, 1);
  g_autoptr(LodeImport) unknown = lode_import_new ("whatever", NULL, LODE_IMPORT_MODULE, 1);
  g_autofree char *target = NULL;
  g_autofree char *package = NULL;
  g_autofree char *key = NULL;
  g_auto(GStrv) keys = NULL;

  target = lode_import_resolver_resolve (resolver, "src/lib/helper.js", import, &package);
  g_assert_cmpstr (target, ==, "src/lib/math.js");
  g_assert_null (package);
  key = lode_import_resolver_dup_key (resolver, "src/lib/helper.js", import);
  keys = lode_import_resolver_dup_keys_for_path (resolver, "src/lib/math.js");
  g_assert_true (g_strv_contains ((const char * const *) keys, key));

  lode_import_resolver_remove_file (resolver, "src/lib/math.js");
  g_assert_false (lode_import_resolver_has_file (resolver, "src/lib/math.js"));
  g_clear_pointer (&target, g_free);
  target = lode_import_resolver_resolve (resolver, "src/lib/helper.js", import, &package);
  g_assert_null (target);
  g_assert_cmpstr (package, ==, "./math");

  lode_import_resolver_add_file (resolver, "src/lib/math/index.ts");
  g_clear_pointer (&package, g_free);
  target = lode_import_resolver_resolve (resolver, "src/lib/helper.js", import, &package);
  g_assert_cmpstr (target, ==, "src/lib/math/index.ts");
  g_assert_null (package);
  g_strfreev (keys);
  keys = lode_import_resolver_dup_keys_for_path (resolver, "src/lib/math/index.ts");
  g_assert_true (g_strv_contains ((const char * const *) keys, key));

  /* A file of a language without resolution rules still gets a package. */
  g_clear_pointer (&target, g_free);
  target = lode_import_resolver_resolve (resolver, "README.md", unknown, &package);
  g_assert_null (target);
  g_assert_cmpstr (package, ==, "whatever");
}

/* The declaration scanner must return on any text. These are the shapes that once made it
 * loop without advancing: a PHP 8 attribute after `use` lines, and a C# verbatim string whose
 * backslash before a quote is not an escape, so that `/Date(…)/` was read as code. */
static const struct {
  const char *path;
  const char *text;
  const char *declared;
} declaration_cases[] = {
  { "a/Clear.php",
    "<?php\n\nnamespace App\\Console;\n\nuse App\\Command;\n\n"
    "#[AsCommand(name: 'auth:clear')]\nclass Clear extends Command {}\n",
    "App.Console" },
  { "b/Dates.cs",
    "namespace Tests.Dates\n{\n  class T {\n"
    "    string a = @\"C:\\\"; string b = @\"{\"\"d\"\":\"\"/Date(0)/\"\"}\";\n"
    "    string c = \"/Date(1)/\"; var r = x / y; \n  }\n  namespace Inner { }\n}\n",
    "Tests.Dates Tests.Dates.Inner" },
  { "c/Raw.cs", "namespace R;\nclass A { string s = \"\"\"\n \"quoted\" /x/ \n\"\"\"; }\n", "R" },
  { "d/Open.cs", "namespace Open { string s = @\"never closed / # [", "Open" },
  { "e/Tail.php", "<?php namespace Tail; #", "Tail" },
  { "f/Slash.kt", "package a.b\n/", "a.b" },
};

static void
declarations_advance_child (void)
{
  GRand *rand = g_rand_new_with_seed (20261125);
  static const char alphabet[] = "\"'@#[]{}()/\\*\n ;:.aZ_";
  static const char * const words[] = { "namespace ", "package ", "object ", "import ", "@\"",
                                        "\"\"\"", "//", "/*", "*/", "#[" };

  for (guint i = 0; i < G_N_ELEMENTS (declaration_cases); i++)
    {
      g_auto(GStrv) declared = _lode_import_parse_declarations (declaration_cases[i].path,
                                                                declaration_cases[i].text,
                                                                strlen (declaration_cases[i].text));
      g_autofree char *joined = g_strjoinv (" ", declared);

      g_assert_cmpstr (joined, ==, declaration_cases[i].declared);
    }

  /* Random texts made of the characters and words the scanner treats specially. */
  for (guint i = 0; i < 20000; i++)
    {
      g_autoptr(GString) text = g_string_new (NULL);
      guint n = g_rand_int_range (rand, 0, 64);
      const char *path = (i % 3 == 0) ? "x.cs" : (i % 3 == 1) ? "x.php" : "x.scala";
      g_auto(GStrv) declared = NULL;

      for (guint j = 0; j < n; j++)
        {
          if (g_rand_int_range (rand, 0, 4) == 0)
            g_string_append (text, words[g_rand_int_range (rand, 0, G_N_ELEMENTS (words))]);
          else
            g_string_append_c (text, alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]);
        }
      declared = _lode_import_parse_declarations (path, text->str, text->len);
      g_assert_nonnull (declared);
    }

  g_rand_free (rand);
}

static void
test_declarations_advance (void)
{
  if (g_test_subprocess ())
    {
      declarations_advance_child ();
      return;
    }

  /* A scanner that stops advancing never returns: the timeout turns that into a failure. */
  g_test_trap_subprocess (NULL, test_timeout_seconds (20) * G_USEC_PER_SEC,
                          G_TEST_SUBPROCESS_DEFAULT);
  g_test_trap_assert_passed ();
}

/* The one import @source makes in @language_id, resolved from @from: its targets, joined
 * by spaces; the import itself in @import_out when that is not %NULL. */
static char *
resolve_one (LodeImportResolver  *resolver,
             const char          *language_id,
             const char          *from,
             const char          *source,
             LodeImport         **import_out)
{
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GError) error = NULL;
  g_auto(GStrv) targets = NULL;

  g_assert_true (lode_imports_extract (lode_language_lookup (language_id), source,
                                       strlen (source), NULL, &imports, &error));
  g_assert_no_error (error);
  g_assert_cmpuint (imports->len, ==, 1);

  targets = lode_import_resolver_resolve_all (resolver, from, imports->pdata[0], NULL);
  if (import_out != NULL)
    *import_out = lode_import_copy (imports->pdata[0]);
  return g_strjoinv (" ", targets);
}

/* `from a import b, c` is one import: one edge to `a` when b and c are names in it, one
 * edge per submodule when they are modules, and `a` too when only some are. */
static void
test_python_from_names (void)
{
  static const char * const paths[] = {
    "app.py", "pkg/__init__.py", "pkg/core.py", "pkg/helpers.py", NULL
  };
  static const struct {
    const char *source;
    const char *name;
    const char *targets;
  } cases[] = {
    { "from pkg.core import Model, load, save\n", "Model,load,save", "pkg/core.py" },
    { "from pkg import core, helpers\n", "core,helpers", "pkg/core.py pkg/helpers.py" },
    { "from pkg import core, VERSION as v\n", "core,VERSION", "pkg/core.py pkg/__init__.py" },
  };
  g_autoptr(LodeImportResolver) resolver = lode_import_resolver_new ("/nonexistent", paths);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autoptr(LodeImport) import = NULL;
      g_autofree char *targets = resolve_one (resolver, "python", "app.py", cases[i].source,
                                              &import);

      g_assert_cmpstr (import->specifier, ==, g_str_has_prefix (cases[i].source, "from pkg.core")
                                             ? "pkg.core" : "pkg");
      g_assert_cmpstr (import->name, ==, cases[i].name);
      g_assert_cmpstr (targets, ==, cases[i].targets);
    }
}

/* A header included by its name alone, where the project has several of that name and the
 * build's include directories are not known: the shapes of zstd (a Linux kernel port of the
 * library under contrib/, whose sources include <linux/zstd.h>) and of a monorepo
 * holding several copies of git (tree.h at each copy's top and in its reftable/). */
static void
test_c_header_by_name (void)
{
  static const char * const paths[] = {
    "lib/zstd.h", "lib/compress/zstd_compress.c",
    "programs/bench.c", "contrib/adaptive-compression/adapt.c",
    "contrib/linux-kernel/include/linux/zstd.h", "contrib/linux-kernel/lib/zstd/compress.c",
    "copy-1/tree.h", "copy-1/reftable/tree.h", "copy-1/reftable/merged.c",
    "copy-1/builtin/clone.c",
    "copy-2/tree.h", "copy-2/reftable/tree.h", "copy-2/builtin/clone.c",
    NULL
  };
  static const struct {
    const char *from;
    const char *source;
    const char *target;
  } cases[] = {
    { "programs/bench.c", "#include \"zstd.h\"\n", "lib/zstd.h" },
    { "contrib/adaptive-compression/adapt.c", "#include \"zstd.h\"\n", "lib/zstd.h" },
    { "copy-1/builtin/clone.c", "#include \"tree.h\"\n", "copy-1/tree.h" },
    { "copy-2/builtin/clone.c", "#include \"tree.h\"\n", "copy-2/tree.h" },
    { "copy-1/reftable/merged.c", "#include \"tree.h\"\n", "copy-1/reftable/tree.h" },
  };
  g_autoptr(LodeImportResolver) resolver = lode_import_resolver_new ("/nonexistent", paths);

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_autofree char *target = resolve_one (resolver, "c", cases[i].from, cases[i].source,
                                             NULL);

      g_assert_cmpstr (target, ==, cases[i].target);
    }
}

/* A plain-Makefile tree with two headers of one name, zstd's shape: adapt.c's Makefile
 * gives `-I$(ZSTDDIR)/common`, which holds the library's zstd_internal.h; the Linux kernel
 * port's copy is nearer by path. Without the Makefile the guess takes the copy; the
 * Makefile's flags are only for the sources below it, so the kernel port's test keeps it. */
static void
test_c_makefile_include_dirs (void)
{
  g_autoptr(Project) project = project_load ("c-makefile");
  g_autoptr(LodeImportResolver) with = project_resolver (project, NULL);
  g_autoptr(LodeImportResolver) without = NULL;
  g_autofree char *target = NULL;

  target = resolve_one (with, "c", "contrib/adaptive-compression/adapt.c",
                        "#include \"zstd_internal.h\"\n", NULL);
  g_assert_cmpstr (target, ==, "lib/common/zstd_internal.h");
  g_clear_pointer (&target, g_free);
  target = resolve_one (with, "c", "contrib/linux-kernel/test/test.c",
                        "#include \"zstd_internal.h\"\n", NULL);
  g_assert_cmpstr (target, ==, "contrib/linux-kernel/lib/zstd/zstd_internal.h");

  without = project_resolver (project, "contrib/adaptive-compression/Makefile");
  g_clear_pointer (&target, g_free);
  target = resolve_one (without, "c", "contrib/adaptive-compression/adapt.c",
                        "#include \"zstd_internal.h\"\n", NULL);
  g_assert_cmpstr (target, ==, "contrib/linux-kernel/lib/zstd/zstd_internal.h");
}

/* Of several Makefiles above a source, the nearest one's directories are tried first; one
 * at the root is for every source. Without the Makefiles, config.h would be the guessed
 * include/config.h for both. */
static void
test_c_makefile_nearest (void)
{
  static const char * const paths[] = {
    "Makefile", "vendor/include/config.h", "include/config.h", "tools/Makefile",
    "tools/cli/main.c", "src/main.c", NULL,
  };
  g_autofree char *root = g_dir_make_tmp ("lode-makefile-XXXXXX", NULL);
  g_autoptr(LodeImportResolver) resolver = NULL;
  const char *include = "#include \"config.h\"\n";
  g_autofree char *target = NULL;

  for (guint i = 0; paths[i] != NULL; i++)
    test_write_file (root, paths[i], "");
  test_write_file (root, "Makefile", "CPPFLAGS = -Ivendor/include\n");
  test_write_file (root, "tools/Makefile", "CPPFLAGS = -I../include\n");
  resolver = lode_import_resolver_new (root, paths);

  target = resolve_one (resolver, "c", "tools/cli/main.c", include, NULL);
  g_assert_cmpstr (target, ==, "include/config.h");
  g_clear_pointer (&target, g_free);
  target = resolve_one (resolver, "c", "src/main.c", include, NULL);
  g_assert_cmpstr (target, ==, "vendor/include/config.h");

  test_remove_tree (root);
}

/* What a Makefile's text gives: the directories of its -I, -iquote and -isystem flags,
 * joined by spaces. A flag whose directory cannot be known is left out, and text that would
 * expand forever (a variable referring to itself, directly or not) or without bound ends. */
static void
test_makefile_parse (void)
{
  static const struct {
    const char *text;
    const char *dirs;
  } cases[] = {
    /* Continuations, comments, both kinds of reference, `-I dir`. */
    { "D = ../lib\n# The library.\nCPPFLAGS += -I$(D) \\\n    -I ${D}/common -I$(D)/x#y\n",
      "../lib ../lib/common ../lib/x" },
    { "# -Icommented \\\n  -Icontinued-comment\nX = -Ireal\n", "real" },
    { "CFLAGS = -I\\#hash\n", "#hash" },
    { "CFLAGS = -iquote q -isystem s -Iinc -include config.h -I- -I\n", "q s inc" },
    /* Unknown variables and functions: only those tokens are skipped. */
    { "CPPFLAGS = -I$(PREFIX)/include -I$(shell pkg-config x) -I$(wildcard src/*) -Iok\n",
      "ok" },
    { "S = a b\nX = -I$(S:a=b) -I$(subst a,b,$(S)) -I$($(S)) -I$@ -I$(\n", "" },
    { "OUT != echo -Ishell\nX = -I$(OUT)\n", "" },
    /* Recursive variables expand when used, simple ones when assigned. */
    { "F = -I$(D)\nD = late\n", "late" },
    { "D = a\nF := -I$(D)\nD = b\nG := $(F)\n", "a" },
    { "D ?= first\nD ?= second\nX = -I$(D)\n", "first" },
    { "X = -Ioverridden\nX ?= -Inot-taken\nX = -Ilast\n", "last" },
    { "A := -Ia\nA += -I$(B)\nB = b\nA += -Ic\nC = $(A)\n", "a c" },
    { "A = -Ia\nA += -I$(B)\nB = b\n", "a b" },
    { "ARCH = x86\nx86_INC = arch/x86\nX = -I$($(ARCH)_INC)\n", "arch/x86" },
    { "export X = -Iexported\noverride Y := -Ioverridden\n", "exported overridden" },
    { "X = -I$$HOME -I$(CURDIR)/include\n", "./include" },
    /* Recipes and target-specific assignments give flags too. */
    { "all: x.c\n\t$(CC) -Irecipe -c x.c\nx: CPPFLAGS += -Itarget\n", "recipe target" },
    /* What a conditional holds depends on the build (git's Makefile, for builds without a
     * regex.h or poll.h of their own), nested or not, whatever its kind. */
    { "BASIC_CFLAGS = -I.\nifdef NO_REGEX\n\tCOMPAT_CFLAGS += -Icompat/regex\nendif\n"
      "ifeq ($(uname_S),Linux)\n  ifndef NO_POLL\n  X = -Inested\n  endif\n"
      "else\n  X = -Iother\nendif\nifneq (,$(Y))\nZ = -Iz\nendif\n"
      "ALL = $(BASIC_CFLAGS) $(COMPAT_CFLAGS) $(X) -Iafter\n", ". after" },
    { "endif\nX = -Ix\nendif\n", "x" },
    { "ifdef A\nX = -Inever-closed\n", "" },
    /* Variables that refer to themselves. */
    { "X = $(X) -Iself\n", "self" },
    { "A = $(B) -Ia\nB = $(A) -Ib\nC = $(A)\n", "b a" },
    { "X = $(X)$(X)$(X)$(X)$(X)$(X)$(X)$(X)$(X)$(X) -Iwide\n", "wide" },
    { "", "" },
    { "\\", "" },
    { "X = $(", "" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (cases); i++)
    {
      g_auto(GStrv) dirs = _lode_import_parse_makefile_include_dirs (cases[i].text,
                                                                     strlen (cases[i].text));
      g_autofree char *joined = g_strjoinv (" ", dirs);

      g_test_message ("%s", cases[i].text);
      g_assert_cmpstr (joined, ==, cases[i].dirs);
    }

  g_assert_true (_lode_import_is_makefile ("Makefile"));
  g_assert_true (_lode_import_is_makefile ("a/GNUmakefile"));
  g_assert_true (_lode_import_is_makefile ("a/b/makefile"));
  g_assert_true (_lode_import_is_makefile ("lib/libzstd.mk"));
  g_assert_false (_lode_import_is_makefile ("a/.mk"));
  g_assert_false (_lode_import_is_makefile ("Makefile.am"));
  g_assert_false (_lode_import_is_makefile ("a/Makefile/x.c"));
  g_assert_true (lode_import_resolver_is_config_file ("contrib/x/Makefile"));
}

/* Editing, removing and adding back a Makefile re-reads it, as a change to
 * compile_commands.json does: the resolver's configuration files are read again. */
static void
test_makefile_incremental (void)
{
  g_autofree char *fixture = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "graph",
                                                    "c-makefile", NULL);
  g_autofree char *root = g_dir_make_tmp ("lode-makefile-XXXXXX", NULL);
  g_autoptr(Project) project = project_load ("c-makefile");
  g_autoptr(LodeImportResolver) resolver = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  const char *makefile = "contrib/adaptive-compression/Makefile";
  const char *from = "contrib/adaptive-compression/adapt.c";
  const char *include = "#include \"zstd_internal.h\"\n";
  g_autofree char *target = NULL;

  test_copy_tree (fixture, root);
  g_ptr_array_extend (paths, project->paths, NULL, NULL);
  g_ptr_array_add (paths, NULL);
  resolver = lode_import_resolver_new (root, (const char * const *) paths->pdata);
  target = resolve_one (resolver, "c", from, include, NULL);
  g_assert_cmpstr (target, ==, "lib/common/zstd_internal.h");

  test_write_file (root, makefile, "CPPFLAGS = -I../../lib\n");
  lode_import_resolver_add_file (resolver, makefile);
  g_clear_pointer (&target, g_free);
  target = resolve_one (resolver, "c", from, include, NULL);
  g_assert_cmpstr (target, ==, "contrib/linux-kernel/lib/zstd/zstd_internal.h");

  test_write_file (root, makefile, "CPPFLAGS = -I../../lib/common\n");
  lode_import_resolver_add_file (resolver, makefile);
  g_clear_pointer (&target, g_free);
  target = resolve_one (resolver, "c", from, include, NULL);
  g_assert_cmpstr (target, ==, "lib/common/zstd_internal.h");

  lode_import_resolver_remove_file (resolver, makefile);
  g_clear_pointer (&target, g_free);
  target = resolve_one (resolver, "c", from, include, NULL);
  g_assert_cmpstr (target, ==, "contrib/linux-kernel/lib/zstd/zstd_internal.h");

  test_remove_tree (root);
}

static const char * const fixtures[] = {
  "bash", "c", "c-makefile", "csharp", "css", "dart", "go", "java", "javascript", "kotlin", "lua", "php",
  "python", "ruby", "rust", "scala", "swift", "typescript", "web",
};

int
main (int    argc,
      char **argv)
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/imports/kinds", test_kinds);
  g_test_add_func ("/lode/imports/bad-input", test_bad_input);
  g_test_add_func ("/lode/imports/bare-wildcard", test_bare_wildcard);
  g_test_add_func ("/lode/imports/many", test_many);
  g_test_add_func ("/lode/imports/incremental", test_incremental);
  g_test_add_func ("/lode/imports/declarations-advance", test_declarations_advance);
  g_test_add_func ("/lode/imports/python-from-names", test_python_from_names);
  g_test_add_func ("/lode/imports/c-header-by-name", test_c_header_by_name);
  g_test_add_func ("/lode/imports/c-makefile-include-dirs", test_c_makefile_include_dirs);
  g_test_add_func ("/lode/imports/c-makefile-nearest", test_c_makefile_nearest);
  g_test_add_func ("/lode/imports/makefile-parse", test_makefile_parse);
  g_test_add_func ("/lode/imports/makefile-incremental", test_makefile_incremental);

  for (guint i = 0; i < G_N_ELEMENTS (fixtures); i++)
    {
      g_autofree char *edges = g_strdup_printf ("/lode/imports/edges/%s", fixtures[i]);
      g_autofree char *keys = g_strdup_printf ("/lode/imports/keys/%s", fixtures[i]);

      g_test_add_data_func (edges, fixtures[i], test_fixture);
      g_test_add_data_func (keys, fixtures[i], test_keys);
    }

  return g_test_run ();
}
