/* test-chunker.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <gio/gio.h>
#include <json-glib/json-glib.h>

#include "lode-chunker.h"
#include "lode-doc-comment.h"
#include "lode-parse-budget.h"
#include "lode-references.h"
#include "test-helpers.h"

typedef struct
{
  const char *name;
  const char *kind;
  const char *container;
  guint       start_line;
  guint       end_line;
} ExpectedSymbol;

typedef struct
{
  guint       start_line;
  guint       end_line;
  const char *kind;
  const char *symbol;
} ExpectedChunk;

typedef struct
{
  const char           *language;
  const char           *file;
  const ExpectedSymbol *symbols;
  const ExpectedChunk  *chunks;
} LanguageCase;

#define END { NULL }

static const ExpectedSymbol c_symbols[] = {
  { "BUF_INITIAL", "macro", NULL, 6, 6 },
  { "BUF_MAX", "macro", NULL, 7, 7 },
  { "buf", "struct", NULL, 9, 14 },
  { "buf_t", "type", NULL, 16, 16 },
  { "buf_mode", "enum", NULL, 18, 22 },
  { "buf_grow", "function", NULL, 28, 39 },
  { "buf_detach", "function", NULL, 41, 48 },
  END
};
static const ExpectedChunk c_chunks[] = {
  { 1, 8, "macro", "BUF_INITIAL BUF_MAX" },
  { 9, 15, "struct", "buf" },
  { 26, 40, "function", "buf_grow" },
  { 41, 48, "function", "buf_detach" },
  { 0 }
};

static const ExpectedSymbol h_symbols[] = {
  { "SAMPLE_H", "macro", NULL, 3, 3 },
  { "buf_append", "prototype", NULL, 10, 10 },
  { "buf_detach", "prototype", NULL, 11, 11 },
  { "buf_free", "prototype", NULL, 12, 12 },
  END
};
static const ExpectedChunk h_chunks[] = {
  { 1, 14, NULL, "SAMPLE_H buf_append buf_detach buf_free" },
  { 0 }
};

static const ExpectedSymbol cpp_symbols[] = {
  { "geo", "namespace", NULL, 4, 27 },
  { "Shape", "class", "geo", 7, 13 },
  { "~Shape", "method", "Shape", 10, 10 },
  { "area", "prototype", "Shape", 11, 11 },
  { "name", "prototype", "Shape", 12, 12 },
  { "Point", "struct", "geo", 15, 19 },
  { "distance", "function", "geo", 21, 25 },
  { "name", "method", "geo::Shape", 29, 33 },
  END
};
static const ExpectedChunk cpp_chunks[] = {
  { 4, 28, "namespace", "geo" },
  { 29, 33, "method", "name" },
  { 0 }
};

static const ExpectedSymbol cs_symbols[] = {
  { "Lode.Samples", "namespace", NULL, 3, 32 },
  { "Account", "class", "Lode.Samples", 6, 24 },
  { "Account", "method", "Account", 10, 13 },
  { "Deposit", "method", "Account", 16, 21 },
  { "Balance", "property", "Account", 23, 23 },
  { "IAuditor", "interface", "Lode.Samples", 26, 29 },
  { "Audit", "method", "IAuditor", 28, 28 },
  { "Currency", "enum", "Lode.Samples", 31, 31 },
  END
};
static const ExpectedChunk cs_chunks[] = {
  { 3, 32, "namespace", "Lode.Samples" },
  { 0 }
};

static const ExpectedSymbol go_symbols[] = {
  { "MaxKeys", "constant", NULL, 12, 12 },
  { "Store", "struct", NULL, 15, 18 },
  { "Getter", "interface", NULL, 21, 23 },
  { "New", "function", NULL, 26, 28 },
  { "Get", "method", "Store", 31, 39 },
  END
};
static const ExpectedChunk go_chunks[] = {
  { 14, 19, "struct", "Store" },
  { 20, 24, "interface", "Getter" },
  { 25, 29, "function", "New" },
  { 30, 39, "method", "Get" },
  { 0 }
};

static const ExpectedSymbol java_symbols[] = {
  { "JobQueue", "class", NULL, 9, 28 },
  { "JobQueue", "method", "JobQueue", 12, 13 },
  { "push", "method", "JobQueue", 16, 18 },
  { "pop", "method", "JobQueue", 20, 25 },
  { "State", "enum", "JobQueue", 27, 27 },
  { "Worker", "interface", NULL, 30, 32 },
  { "run", "method", "Worker", 31, 31 },
  END
};
static const ExpectedChunk java_chunks[] = {
  { 6, 29, "class", "JobQueue" },
  { 30, 32, "interface", "Worker" },
  { 0 }
};

static const ExpectedSymbol js_symbols[] = {
  { "joinAll", "function", NULL, 8, 10 },
  { "double", "function", NULL, 12, 12 },
  { "Cache", "class", NULL, 14, 22 },
  { "constructor", "method", "Cache", 15, 17 },
  { "get", "method", "Cache", 19, 21 },
  END
};
static const ExpectedChunk js_chunks[] = {
  { 5, 11, "function", "joinAll" },
  { 14, 24, "class", "Cache" },
  { 0 }
};

static const ExpectedSymbol ts_symbols[] = {
  { "LoadOptions", "interface", NULL, 4, 7 },
  { "Loader", "type", NULL, 9, 9 },
  { "Level", "enum", NULL, 11, 14 },
  { "ConfigLoader", "class", NULL, 16, 24 },
  { "load", "method", "ConfigLoader", 19, 23 },
  { "parse", "function", NULL, 26, 28 },
  END
};
static const ExpectedChunk ts_chunks[] = {
  { 3, 8, "interface", "LoadOptions" },
  { 16, 25, "class", "ConfigLoader" },
  { 26, 28, "function", "parse" },
  { 0 }
};

static const ExpectedSymbol tsx_symbols[] = {
  { "ButtonProps", "interface", NULL, 3, 6 },
  { "Button", "function", NULL, 9, 11 },
  { "Title", "function", NULL, 13, 13 },
  END
};
static const ExpectedChunk tsx_chunks[] = {
  { 8, 12, "function", "Button" },
  { 13, 13, "function", "Title" },
  { 0 }
};

static const ExpectedSymbol py_symbols[] = {
  { "MAX_ITEMS", "constant", NULL, 5, 5 },
  { "Item", "class", NULL, 8, 18 },
  { "restock", "method", "Item", 15, 18 },
  { "find", "function", NULL, 22, 26 },
  END
};
static const ExpectedChunk py_chunks[] = {
  { 8, 20, "class", "Item" },
  { 21, 26, "function", "find" },
  { 0 }
};

static const ExpectedSymbol rb_symbols[] = {
  { "Greeter", "module", NULL, 2, 20 },
  { "Person", "class", "Greeter", 4, 15 },
  { "initialize", "method", "Person", 7, 9 },
  { "greet", "method", "Person", 12, 14 },
  { "shout", "method", "Greeter", 17, 19 },
  END
};
static const ExpectedChunk rb_chunks[] = {
  { 1, 20, "module", "Greeter" },
  { 0 }
};

static const ExpectedSymbol rs_symbols[] = {
  { "Counter", "struct", NULL, 7, 9 },
  { "Total", "trait", NULL, 11, 13 },
  { "total", "prototype", "Total", 12, 12 },
  { "Counter", "impl", NULL, 15, 24 },
  { "new", "method", "Counter", 17, 19 },
  { "add", "method", "Counter", 21, 23 },
  { "Counter", "impl", NULL, 26, 30 },
  { "total", "method", "Counter", 27, 29 },
  { "Mode", "enum", NULL, 32, 35 },
  { "square", "macro", NULL, 37, 41 },
  { "LIMIT", "constant", NULL, 43, 43 },
  END
};
static const ExpectedChunk rs_chunks[] = {
  { 1, 4, NULL, NULL },
  /* The doc comment above the attribute is the struct's. */
  { 5, 10, "struct", "Counter" },
  { 15, 25, "impl", "Counter" },
  { 26, 31, "impl", "Counter" },
  { 37, 42, "macro", "square" },
  { 0 }
};

static const ExpectedSymbol php_symbols[] = {
  { "App\\Models", "namespace", NULL, 3, 3 },
  { "User", "class", NULL, 8, 21 },
  { "__construct", "method", "User", 12, 15 },
  { "email", "method", "User", 17, 20 },
  { "Notifier", "interface", NULL, 23, 26 },
  { "notify", "method", "Notifier", 25, 25 },
  { "make_user", "function", NULL, 28, 31 },
  END
};
static const ExpectedChunk php_chunks[] = {
  { 5, 22, "class", "User" },
  { 28, 31, "function", "make_user" },
  { 0 }
};

static const ExpectedSymbol kt_symbols[] = {
  { "Vec", "class", NULL, 6, 10 },
  { "length", "method", "Vec", 7, 9 },
  { "Shape", "interface", NULL, 12, 14 },
  { "area", "method", "Shape", 13, 13 },
  { "Registry", "object", NULL, 16, 18 },
  { "scale", "function", NULL, 20, 22 },
  END
};
static const ExpectedChunk kt_chunks[] = {
  { 5, 11, "class", "Vec" },
  { 20, 22, "function", "scale" },
  { 0 }
};

static const ExpectedSymbol scala_symbols[] = {
  { "Drawable", "trait", NULL, 6, 8 },
  { "draw", "prototype", "Drawable", 7, 7 },
  { "Circle", "class", NULL, 10, 14 },
  { "draw", "method", "Circle", 11, 11 },
  { "area", "method", "Circle", 13, 13 },
  { "Canvas", "object", NULL, 16, 19 },
  { "render", "method", "Canvas", 17, 18 },
  END
};
static const ExpectedChunk scala_chunks[] = {
  { 5, 9, "trait", "Drawable" },
  { 16, 19, "object", "Canvas" },
  { 0 }
};

static const ExpectedSymbol swift_symbols[] = {
  { "Named", "interface", NULL, 4, 6 },
  { "Person", "struct", NULL, 8, 14 },
  { "greet", "method", "Person", 11, 13 },
  { "Counter", "class", NULL, 16, 26 },
  { "init", "method", "Counter", 19, 21 },
  { "increment", "method", "Counter", 23, 25 },
  { "makeCounter", "function", NULL, 28, 30 },
  END
};
static const ExpectedChunk swift_chunks[] = {
  { 16, 27, "class", "Counter" },
  { 28, 30, "function", "makeCounter" },
  { 0 }
};

static const ExpectedSymbol sh_symbols[] = {
  { "log", "function", NULL, 9, 11 },
  { "build", "function", NULL, 13, 16 },
  END
};
static const ExpectedChunk sh_chunks[] = {
  { 1, 7, NULL, NULL },
  { 8, 12, "function", "log" },
  { 0 }
};

static const ExpectedSymbol lua_symbols[] = {
  { "push", "method", "M", 5, 7 },
  { "size", "method", "M", 9, 11 },
  { "helper", "function", NULL, 13, 15 },
  END
};
static const ExpectedChunk lua_chunks[] = {
  { 4, 8, "method", "push" },
  { 13, 17, "function", "helper" },
  { 0 }
};

static const LanguageCase language_cases[] = {
  { "c", "sample.c", c_symbols, c_chunks },
  { "c", "sample.h", h_symbols, h_chunks },
  { "cpp", "sample.cpp", cpp_symbols, cpp_chunks },
  { "csharp", "sample.cs", cs_symbols, cs_chunks },
  { "go", "sample.go", go_symbols, go_chunks },
  { "java", "Sample.java", java_symbols, java_chunks },
  { "javascript", "sample.js", js_symbols, js_chunks },
  { "typescript", "sample.ts", ts_symbols, ts_chunks },
  { "tsx", "sample.tsx", tsx_symbols, tsx_chunks },
  { "python", "sample.py", py_symbols, py_chunks },
  { "ruby", "sample.rb", rb_symbols, rb_chunks },
  { "rust", "sample.rs", rs_symbols, rs_chunks },
  { "php", "sample.php", php_symbols, php_chunks },
  { "kotlin", "sample.kt", kt_symbols, kt_chunks },
  { "scala", "sample.scala", scala_symbols, scala_chunks },
  { "swift", "sample.swift", swift_symbols, swift_chunks },
  { "bash", "sample.sh", sh_symbols, sh_chunks },
  { "lua", "sample.lua", lua_symbols, lua_chunks },
};

static const struct {
  const char *language;
  const char *file;
} structured_files[] = {
  { "markdown", "sample.md" },
  { "yaml", "sample.yaml" },
  { "toml", "sample.toml" },
};

static char *
load_fixture (const char *file,
              gsize      *len)
{
  g_autoptr(GError) error = NULL;
  char *text = NULL;
  const char *path = g_test_get_filename (G_TEST_DIST, "liblode", "fixtures", "chunker", file,
                                          NULL);

  g_file_get_contents (path, &text, len, &error);
  g_assert_no_error (error);
  return text;
}

static void
chunk_text (guint        max_tokens,
            const char  *language_id,
            const char  *text,
            gsize        len,
            GPtrArray  **chunks,
            GPtrArray  **symbols)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (max_tokens);
  g_autoptr(GError) error = NULL;
  const LodeLanguage *language = lode_language_lookup (language_id);

  g_assert_nonnull (language);
  g_assert_true (lode_chunker_chunk (chunker, language, NULL, text, len, chunks, symbols, NULL,
                                     NULL, NULL, NULL, &error));
  g_assert_no_error (error);
  g_assert_nonnull (*chunks);
  g_assert_nonnull (*symbols);
}

/* Splits @text into lines the way the chunker numbers them: by '\n', a final newline ends
 * the last line rather than starting an empty one. */
static GPtrArray *
split_lines (const char *text,
             gsize       len)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  gsize start = 0;

  for (gsize i = 0; i < len; i++)
    if (text[i] == '\n')
      {
        g_ptr_array_add (lines, g_strndup (text + start, i - start));
        start = i + 1;
      }
  if (start < len)
    g_ptr_array_add (lines, g_strndup (text + start, len - start));

  return lines;
}

/* The invariant of the chunker: every line inside some chunk, each chunk's content the
 * exact text of its lines (or, for a line cut by characters, an exact slice of it, the
 * slices of one line in order), chunks in file order, and overlap only when allowed. */
static void
assert_coverage (const char *text,
                 gsize       len,
                 GPtrArray  *chunks,
                 guint       allowed_overlap)
{
  g_autoptr(GPtrArray) lines = split_lines (text, len);
  g_autofree guint *covered = g_new0 (guint, lines->len + 1);
  guint prev_end = 0;
  g_autoptr(GString) pending_line = g_string_new (NULL);
  guint pending_row = 0;

  for (guint i = 0; i < chunks->len; i++)
    {
      LodeChunk *chunk = g_ptr_array_index (chunks, i);
      g_autoptr(GString) expected = g_string_new (NULL);

      g_assert_cmpuint (chunk->start_line, >=, 1);
      g_assert_cmpuint (chunk->start_line, <=, chunk->end_line);
      g_assert_cmpuint (chunk->end_line, <=, lines->len);
      g_assert_nonnull (chunk->content);

      if (prev_end > 0 && chunk->start_line <= prev_end)
        g_assert_cmpuint (prev_end - chunk->start_line + 1, <=, MAX (allowed_overlap, 1));
      prev_end = chunk->end_line;

      for (guint l = chunk->start_line; l <= chunk->end_line; l++)
        {
          if (l > chunk->start_line)
            g_string_append_c (expected, '\n');
          g_string_append (expected, g_ptr_array_index (lines, l - 1));
          covered[l]++;
        }

      if (chunk->start_line == chunk->end_line && strcmp (expected->str, chunk->content) != 0)
        {
          /* A slice of a long line: the slices must add up to the line, in order. */
          if (pending_row != chunk->start_line)
            {
              g_string_truncate (pending_line, 0);
              pending_row = chunk->start_line;
            }
          g_string_append (pending_line, chunk->content);
          g_assert_true (g_str_has_prefix (expected->str, pending_line->str));
          if (strcmp (expected->str, pending_line->str) == 0)
            pending_row = 0;
        }
      else
        g_assert_cmpstr (chunk->content, ==, expected->str);
    }

  g_assert_cmpuint (pending_row, ==, 0);
  for (guint l = 1; l <= lines->len; l++)
    if (covered[l] == 0)
      g_error ("line %u is in no chunk", l);
}

static LodeSymbol *
find_symbol (GPtrArray  *symbols,
             const char *name,
             guint       start_line)
{
  for (guint i = 0; i < symbols->len; i++)
    {
      LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      if (strcmp (symbol->name, name) == 0 && (start_line == 0 || symbol->start_line == start_line))
        return symbol;
    }
  return NULL;
}

static void
test_languages (void)
{
  for (guint i = 0; i < G_N_ELEMENTS (language_cases); i++)
    {
      const LanguageCase *lc = &language_cases[i];
      g_autoptr(GPtrArray) chunks = NULL;
      g_autoptr(GPtrArray) symbols = NULL;
      g_autofree char *text = NULL;
      gsize len;
      guint n_expected = 0;

      g_test_message ("%s (%s)", lc->file, lc->language);
      text = load_fixture (lc->file, &len);
      chunk_text (0, lc->language, text, len, &chunks, &symbols);

      for (const ExpectedSymbol *es = lc->symbols; es->name != NULL; es++, n_expected++)
        {
          LodeSymbol *symbol = find_symbol (symbols, es->name, es->start_line);

          if (symbol == NULL)
            g_error ("%s: no symbol %s at line %u", lc->file, es->name, es->start_line);
          g_assert_cmpstr (symbol->kind, ==, es->kind);
          g_assert_cmpstr (symbol->container, ==, es->container);
          g_assert_cmpuint (symbol->end_line, ==, es->end_line);
          g_assert_nonnull (symbol->signature);
          g_assert_nonnull (strstr (symbol->signature, es->name));
        }
      g_assert_cmpuint (symbols->len, ==, n_expected);

      for (const ExpectedChunk *ec = lc->chunks; ec->start_line != 0; ec++)
        {
          gboolean found = FALSE;

          for (guint j = 0; j < chunks->len && !found; j++)
            {
              LodeChunk *chunk = g_ptr_array_index (chunks, j);

              if (chunk->start_line != ec->start_line)
                continue;
              g_assert_cmpuint (chunk->end_line, ==, ec->end_line);
              g_assert_cmpstr (chunk->kind, ==, ec->kind);
              g_assert_cmpstr (chunk->symbol, ==, ec->symbol);
              g_assert_null (chunk->context);
              found = TRUE;
            }
          if (!found)
            g_error ("%s: no chunk starts at line %u", lc->file, ec->start_line);
        }

      assert_coverage (text, len, chunks, 0);
    }
}

static void
test_docs_and_signatures (void)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autofree char *text = NULL;
  gsize len;
  LodeChunk *chunk;

  text = load_fixture ("sample.c", &len);
  chunk_text (0, "c", text, len, &chunks, &symbols);
  chunk = g_ptr_array_index (chunks, 4);
  g_assert_cmpstr (chunk->symbol, ==, "buf_grow");
  g_assert_cmpstr (chunk->signature, ==, "static int buf_grow (struct buf *b, size_t extra)");
  g_assert_cmpstr (chunk->doc, ==, "Grows @b so that it can hold @extra more bytes.\n"
                                   "Returns 0 on success.");
  g_clear_pointer (&chunks, g_ptr_array_unref);
  g_clear_pointer (&symbols, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);

  /* Python: the docstring is the doc, also for a method. */
  text = load_fixture ("sample.py", &len);
  chunk_text (30, "python", text, len, &chunks, &symbols);
  for (guint i = 0; i < chunks->len; i++)
    {
      chunk = g_ptr_array_index (chunks, i);
      if (g_strcmp0 (chunk->symbol, "restock") == 0)
        {
          g_assert_cmpstr (chunk->doc, ==, "Adds n units.");
          g_assert_cmpstr (chunk->signature, ==, "def restock(self, n):");
          g_assert_cmpstr (chunk->container, ==, "Item");
          g_assert_cmpstr (chunk->context, ==, "@dataclasses.dataclass class Item:");
          break;
        }
    }
  g_assert_cmpstr (chunk->symbol, ==, "restock");
}

/* A signature cut at its size limit ends on a whole character (genvars.go of go-zero cut a
 * Chinese comment in the middle of one, and the index held invalid UTF-8). */
static void
test_signature_cut_on_character (void)
{
  g_autoptr(GString) text = g_string_new ("def greet(name=\"");
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  LodeChunk *chunk;

  /* The signature reaches its 200-byte limit in the middle of a two-byte "é", whatever the
   * exact cut: odd and even offsets both fall inside one. */
  for (guint i = 0; i < 150; i++)
    g_string_append (text, "\xc3\xa9");
  g_string_append (text, "\"):\n    return name\n");

  for (guint shift = 0; shift < 2; shift++)
    {
      if (shift == 1)
        g_string_insert (text, 4, "x");
      chunk_text (0, "python", text->str, text->len, &chunks, &symbols);
      chunk = g_ptr_array_index (chunks, 0);
      g_assert_cmpstr (chunk->symbol, ==, shift == 0 ? "greet" : "xgreet");
      g_assert_nonnull (chunk->signature);
      g_assert_true (g_utf8_validate (chunk->signature, -1, NULL));
      g_assert_cmpuint (strlen (chunk->signature), <=, 200);
      g_assert_cmpuint (strlen (chunk->signature), >=, 198);
      g_clear_pointer (&chunks, g_ptr_array_unref);
      g_clear_pointer (&symbols, g_ptr_array_unref);
    }
}

static void
test_coverage (void)
{
  static const guint budgets[] = { LODE_CHUNKER_DEFAULT_MAX_TOKENS, 64, 16 };

  for (guint b = 0; b < G_N_ELEMENTS (budgets); b++)
    {
      for (guint i = 0; i < G_N_ELEMENTS (language_cases); i++)
        {
          g_autoptr(GPtrArray) chunks = NULL;
          g_autoptr(GPtrArray) symbols = NULL;
          g_autofree char *text = NULL;
          gsize len;

          text = load_fixture (language_cases[i].file, &len);
          chunk_text (budgets[b], language_cases[i].language, text, len, &chunks, &symbols);
          assert_coverage (text, len, chunks, 0);
        }

      for (guint i = 0; i < G_N_ELEMENTS (structured_files); i++)
        {
          g_autoptr(GPtrArray) chunks = NULL;
          g_autoptr(GPtrArray) symbols = NULL;
          g_autofree char *text = NULL;
          gsize len;

          text = load_fixture (structured_files[i].file, &len);
          chunk_text (budgets[b], structured_files[i].language, text, len, &chunks, &symbols);
          assert_coverage (text, len, chunks, 0);
        }
    }
}

static void
assert_within_budget (GPtrArray *chunks,
                      guint      max_tokens)
{
  for (guint i = 0; i < chunks->len; i++)
    {
      LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_cmpuint (lode_estimate_tokens (chunk->content, strlen (chunk->content)), <=,
                        max_tokens);
    }
}

static void
test_split_large_function (void)
{
  g_autoptr(GString) text = g_string_new ("#include <stdio.h>\n\n"
                                          "/* Prints many things. */\n"
                                          "int\nprint_all (int n)\n{\n");
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  guint pieces = 0;

  for (guint i = 0; i < 300; i++)
    {
      if (i % 10 == 0)
        g_string_append_printf (text, "  if (n > %u)\n    {\n", i);
      g_string_append_printf (text, "      printf (\"value %%d\\n\", n + %u);\n", i);
      if (i % 10 == 9)
        g_string_append (text, "    }\n");
    }
  g_string_append (text, "  return 0;\n}\n\nint\nsmall (void)\n{\n  return 1;\n}\n");

  /* An if block is about 160 tokens: two fit in a piece, and cuts fall between them. */
  chunk_text (400, "c", text->str, text->len, &chunks, &symbols);
  assert_coverage (text->str, text->len, chunks, 0);
  assert_within_budget (chunks, 400);

  for (guint i = 0; i < chunks->len; i++)
    {
      LodeChunk *chunk = g_ptr_array_index (chunks, i);

      if (g_strcmp0 (chunk->symbol, "print_all") != 0)
        continue;
      pieces++;
      g_assert_cmpstr (chunk->kind, ==, "function");
      g_assert_cmpstr (chunk->context, ==, "int print_all (int n)");
      g_assert_true (g_str_has_prefix (chunk->content, "  if (n > ") || pieces == 1);
      if (pieces == 1)
        g_assert_cmpstr (chunk->doc, ==, "Prints many things.");
    }
  g_assert_cmpuint (pieces, >=, 12);
  g_assert_cmpuint (symbols->len, ==, 2);

  /* With a budget smaller than one block, blocks are cut too, still within budget. */
  g_clear_pointer (&chunks, g_ptr_array_unref);
  g_clear_pointer (&symbols, g_ptr_array_unref);
  chunk_text (64, "c", text->str, text->len, &chunks, &symbols);
  assert_coverage (text->str, text->len, chunks, 0);
  assert_within_budget (chunks, 64);
}

static void
test_split_class (void)
{
  g_autoptr(GString) text = g_string_new ("class Registry:\n    \"\"\"Holds things.\"\"\"\n\n");
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  guint methods = 0;

  for (guint i = 0; i < 40; i++)
    g_string_append_printf (text, "    def method_%u(self, value):\n"
                                  "        self.items.append(value + %u)\n"
                                  "        return len(self.items)\n\n", i, i);

  chunk_text (128, "python", text->str, text->len, &chunks, &symbols);
  assert_coverage (text->str, text->len, chunks, 0);
  assert_within_budget (chunks, 128);

  g_assert_cmpstr (((LodeChunk *) g_ptr_array_index (chunks, 0))->symbol, ==, "Registry");
  for (guint i = 0; i < chunks->len; i++)
    {
      LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_cmpstr (chunk->context, ==, "class Registry:");
      if (chunk->symbol != NULL && g_str_has_prefix (chunk->symbol, "method_"))
        {
          g_assert_cmpstr (chunk->container, ==, "Registry");
          methods++;
        }
    }
  /* Small methods merge with their neighbours, but all of them are named. */
  g_assert_cmpuint (methods, >=, 5);
  g_assert_cmpuint (symbols->len, ==, 41);
}

static void
test_minified (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GString) joined = g_string_new (NULL);

  while (text->len < 300 * 1024)
    g_string_append_printf (text, "function f%zu(a,b){return a+b*%zu;}var s%zu=\"h\xc3\xa9llo\";",
                            text->len, text->len, text->len);

  chunk_text (0, "javascript", text->str, text->len, &chunks, &symbols);
  g_assert_cmpuint (chunks->len, >, 100);
  g_assert_cmpuint (symbols->len, ==, 0);
  assert_within_budget (chunks, LODE_CHUNKER_DEFAULT_MAX_TOKENS);

  for (guint i = 0; i < chunks->len; i++)
    {
      LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_cmpuint (chunk->start_line, ==, 1);
      g_assert_cmpuint (chunk->end_line, ==, 1);
      g_assert_true (g_utf8_validate (chunk->content, -1, NULL));
      g_string_append (joined, chunk->content);
    }
  g_assert_cmpuint (joined->len, ==, text->len);
  g_assert_true (memcmp (joined->str, text->str, text->len) == 0);
}

static void
test_markdown (void)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autofree char *text = NULL;
  gsize len;
  static const ExpectedChunk expected[] = {
    { 1, 4, "section", "Lode" },
    { 5, 8, "section", "Install" },
    { 9, 13, "section", "Install" },
    { 14, 17, "section", "Usage" },
    { 18, 20, "section", "Filters" },
  };

  text = load_fixture ("sample.md", &len);
  chunk_text (16, "markdown", text, len, &chunks, &symbols);
  assert_coverage (text, len, chunks, 0);
  g_assert_cmpuint (symbols->len, ==, 0);

  /* The `#` line inside the code fence is not a heading; the Install section is too big
   * for the budget and is cut at a blank line. */
  g_assert_cmpuint (chunks->len, ==, G_N_ELEMENTS (expected));
  for (guint i = 0; i < G_N_ELEMENTS (expected); i++)
    {
      LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_cmpuint (chunk->start_line, ==, expected[i].start_line);
      g_assert_cmpuint (chunk->end_line, ==, expected[i].end_line);
      g_assert_cmpstr (chunk->kind, ==, expected[i].kind);
      g_assert_cmpstr (chunk->symbol, ==, expected[i].symbol);
    }
  g_assert_cmpstr (((LodeChunk *) g_ptr_array_index (chunks, 2))->context, ==,
                   "# Lode\n## Install");
  g_assert_cmpstr (((LodeChunk *) g_ptr_array_index (chunks, 4))->container, ==, "Usage");
}

static void
test_yaml_toml (void)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autofree char *text = NULL;
  gsize len;
  LodeChunk *chunk;

  text = load_fixture ("sample.yaml", &len);
  chunk_text (20, "yaml", text, len, &chunks, &symbols);
  assert_coverage (text, len, chunks, 0);
  g_assert_cmpuint (chunks->len, ==, 3);
  chunk = g_ptr_array_index (chunks, 1);
  /* The comment above a key belongs to its section. */
  g_assert_cmpuint (chunk->start_line, ==, 4);
  g_assert_cmpuint (chunk->end_line, ==, 8);
  g_assert_cmpstr (chunk->symbol, ==, "on");
  chunk = g_ptr_array_index (chunks, 2);
  g_assert_cmpstr (chunk->symbol, ==, "jobs");
  g_assert_cmpuint (chunk->start_line, ==, 9);

  g_clear_pointer (&chunks, g_ptr_array_unref);
  g_clear_pointer (&symbols, g_ptr_array_unref);
  g_clear_pointer (&text, g_free);

  text = load_fixture ("sample.toml", &len);
  chunk_text (20, "toml", text, len, &chunks, &symbols);
  assert_coverage (text, len, chunks, 0);
  g_assert_cmpuint (chunks->len, ==, 3);
  chunk = g_ptr_array_index (chunks, 1);
  g_assert_cmpstr (chunk->symbol, ==, "package");
  g_assert_cmpuint (chunk->start_line, ==, 3);
  g_assert_cmpuint (chunk->end_line, ==, 6);
  chunk = g_ptr_array_index (chunks, 2);
  g_assert_cmpstr (chunk->symbol, ==, "dependencies");
  g_assert_cmpuint (chunk->start_line, ==, 7);
}

static void
test_text_windows (void)
{
  g_autoptr(GString) text = g_string_new (NULL);
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  guint overlapping = 0;

  for (guint i = 0; i < 500; i++)
    g_string_append_printf (text, "line %u of some plain text without any structure\n", i);

  chunk_text (64, "text", text->str, text->len, &chunks, &symbols);
  assert_coverage (text->str, text->len, chunks, 2);
  assert_within_budget (chunks, 64);
  g_assert_cmpuint (chunks->len, >, 10);

  for (guint i = 1; i < chunks->len; i++)
    {
      LodeChunk *prev = g_ptr_array_index (chunks, i - 1);
      LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_null (chunk->symbol);
      if (chunk->start_line <= prev->end_line)
        overlapping++;
    }
  /* Windows overlap so that a passage cut in two is still found whole once. */
  g_assert_cmpuint (overlapping, ==, chunks->len - 1);
}

static void
test_empty (void)
{
  static const char *languages[] = { "c", "python", "markdown", "text", "json" };

  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    {
      g_autoptr(GPtrArray) chunks = NULL;
      g_autoptr(GPtrArray) symbols = NULL;

      chunk_text (0, languages[i], "", 0, &chunks, &symbols);
      g_assert_cmpuint (chunks->len, ==, 0);
      g_assert_cmpuint (symbols->len, ==, 0);
    }
}

static void
test_invalid_syntax (void)
{
  static const char text[] =
    "int good (void)\n{\n  return 1;\n}\n\n"
    "int broken (int a)\n{\n  if (a > ) return ;;; ]] @@\n}\n\n"
    "static int\nalso_good (int x)\n{\n  return x * 2;\n}\n";
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;

  chunk_text (16, "c", text, strlen (text), &chunks, &symbols);
  assert_coverage (text, strlen (text), chunks, 0);
  g_assert_nonnull (find_symbol (symbols, "good", 1));
  g_assert_nonnull (find_symbol (symbols, "broken", 6));
  g_assert_nonnull (find_symbol (symbols, "also_good", 11));
}

static void
test_no_trailing_newline (void)
{
  static const char text[] = "def f():\n    return 1\n\n\n\nx = f()";
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  LodeChunk *last;

  chunk_text (0, "python", text, strlen (text), &chunks, &symbols);
  assert_coverage (text, strlen (text), chunks, 0);
  last = g_ptr_array_index (chunks, chunks->len - 1);
  g_assert_cmpuint (last->end_line, ==, 6);
  g_assert_true (g_str_has_suffix (last->content, "x = f()"));
}

static void
test_long_line_in_code (void)
{
  g_autoptr(GString) text = g_string_new ("static const char *data =\n  \"");
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;

  for (guint i = 0; i < 3000; i++)
    g_string_append (text, "abc ");
  g_string_append (text, "\";\n");
  /* Enough ordinary code that the file is not taken for minified. */
  for (guint i = 0; i < 400; i++)
    g_string_append_printf (text, "\nint\nfunction_%u (int x)\n{\n  return x * %u + 1;\n}\n", i, i);
  g_string_append (text, "\nint\nmain (void)\n{\n  return 0;\n}\n");

  chunk_text (64, "c", text->str, text->len, &chunks, &symbols);
  assert_coverage (text->str, text->len, chunks, 0);
  assert_within_budget (chunks, 64);
  g_assert_nonnull (find_symbol (symbols, "main", 0));
  g_assert_cmpuint (symbols->len, ==, 401);
}

static void
test_estimate_tokens (void)
{
  g_assert_cmpuint (lode_estimate_tokens ("", 0), ==, 0);
  g_assert_cmpuint (lode_estimate_tokens ("   \n\t", 5), ==, 0);
  g_assert_cmpuint (lode_estimate_tokens ("hello world", 11), ==, 2);
  /* 18 identifier bytes: three tokens; `(`, `)` and `;` one each. */
  g_assert_cmpuint (lode_estimate_tokens ("lode_chunker_chunk();", 21), ==, 6);
  /* Each non-ASCII character counts. */
  g_assert_cmpuint (lode_estimate_tokens ("日本語", strlen ("日本語")), ==, 3);
}

/* Two megabytes of punctuation: the C grammar's error recovery takes seconds over it. */
static char *
make_noise (gsize *len)
{
  static const char alphabet[] = "{}()[]<>;,=+*/&|!?:\"'#\n abcx0";
  g_autoptr(GRand) rand = g_rand_new_with_seed (1);
  GString *noise = g_string_sized_new (2000000);

  for (guint i = 0; i < 2000000; i++)
    g_string_append_c (noise, alphabet[g_rand_int_range (rand, 0, sizeof alphabet - 1)]);
  *len = noise->len;
  return g_string_free (noise, FALSE);
}

/* A file over the time budget is chunked by lines (every line still covered), and the
 * chunker says why; within the budget the same file keeps its structure. */
static void
test_time_budget (void)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  g_autoptr(GString) code = g_string_new (NULL);
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *degraded = NULL;
  const LodeLanguage *c = lode_language_lookup ("c");
  guint covered = 0;

  g_string_append (code, "#include \"a.h\"\n");
  for (guint i = 0; i < 5000; i++)
    g_string_append_printf (code, "static int\nf%u (int x)\n{\n  return x + %u;\n}\n\n", i, i);

  /* A budget no loaded machine can miss. */
  lode_chunker_set_time_budget (chunker, 600 * 1000);
  g_assert_true (lode_chunker_chunk (chunker, c, NULL, code->str, code->len, &chunks, &symbols,
                                     &imports, NULL, NULL, &degraded, &error));
  g_assert_no_error (error);
  g_assert_null (degraded);
  g_assert_cmpuint (symbols->len, ==, 5000);
  g_assert_cmpuint (imports->len, ==, 1);
  g_clear_pointer (&chunks, g_ptr_array_unref);
  g_clear_pointer (&symbols, g_ptr_array_unref);
  g_clear_pointer (&imports, g_ptr_array_unref);

  /* 170 KB of C take far more than a millisecond to parse. */
  lode_chunker_set_time_budget (chunker, 1);
  g_assert_true (lode_chunker_chunk (chunker, c, NULL, code->str, code->len, &chunks, &symbols,
                                     &imports, NULL, NULL, &degraded, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (degraded, ==, "took longer than 1 ms to parse: indexed by lines");
  g_assert_cmpuint (symbols->len, ==, 0);
  g_assert_cmpuint (imports->len, ==, 0);
  for (guint i = 0; i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_cmpuint (chunk->start_line, <=, covered + 1);
      covered = MAX (covered, chunk->end_line);
    }
  g_assert_cmpuint (covered, ==, 5000 * 6 + 1);
}

/* The budget counts the parsing thread's CPU time: time the thread spends off the CPU (a
 * loaded machine, here a sleep) does not spend it, work does. */
static void
test_time_budget_cpu (void)
{
  volatile guint64 sink = 0;
  gint64 give_up = g_get_monotonic_time () +
                   (gint64) test_timeout_seconds (60) * G_USEC_PER_SEC;
  LodeParseBudget budget = { lode_parse_budget_now () + 100 * 1000, NULL };

  g_usleep (300 * 1000);
  g_assert_false (lode_parse_budget_spent (&budget));

  while (!lode_parse_budget_spent (&budget) && g_get_monotonic_time () < give_up)
    for (guint i = 0; i < 100000; i++)
      sink += i;
  g_assert_true (lode_parse_budget_spent (&budget));
}

/* The visibility the symbol tools give @name, a symbol of @symbols. */
static char *
visibility_of (GPtrArray  *symbols,
               const char *name)
{
  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (symbols, i);
      g_autoptr(JsonNode) detail = NULL;

      if (strcmp (symbol->name, name) != 0)
        continue;
      g_assert_nonnull (symbol->detail);
      detail = json_from_string (symbol->detail, NULL);
      g_assert_nonnull (detail);
      return g_strdup (json_object_get_string_member_with_default (json_node_get_object (detail),
                                                                   "visibility", NULL));
    }
  g_error ("no symbol %s", name);
}

/* The C++ access section and Ruby's `private` reach every member after them, however many
 * members and comments come between (they were looked for only 400 siblings back, one
 * costly step at a time: a Rust impl of 40 documented methods took 1.5 s of CPU). */
static void
test_section_visibility (void)
{
  g_autoptr(GString) cpp = g_string_new ("class Big {\npublic:\n");
  g_autoptr(GString) ruby = g_string_new ("class Big\n  private\n\n");
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autofree char *cpp_last = NULL;
  g_autofree char *ruby_last = NULL;

  for (guint i = 0; i < 450; i++)
    g_string_append_printf (cpp, "  // field %u\n  int field%u;\n", i, i);
  g_string_append (cpp, "  int last () const;\n};\n");
  chunk_text (0, "cpp", cpp->str, cpp->len, &chunks, &symbols);
  cpp_last = visibility_of (symbols, "last");
  g_assert_cmpstr (cpp_last, ==, "public");
  g_clear_pointer (&chunks, g_ptr_array_unref);
  g_clear_pointer (&symbols, g_ptr_array_unref);

  for (guint i = 0; i < 450; i++)
    g_string_append_printf (ruby, "  # method %u\n  def m%u\n  end\n", i, i);
  g_string_append (ruby, "  def last\n  end\nend\n");
  chunk_text (0, "ruby", ruby->str, ruby->len, &chunks, &symbols);
  ruby_last = visibility_of (symbols, "last");
  g_assert_cmpstr (ruby_last, ==, "private");
}

typedef struct
{
  LodeChunker  *chunker;
  const char   *text;
  gsize         len;
  GError       *error;
  gboolean      ok;
} ChunkThread;

static gpointer
chunk_thread_func (gpointer data)
{
  ChunkThread *run = data;
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;

  run->ok = lode_chunker_chunk (run->chunker, lode_language_lookup ("c"), NULL, run->text,
                                run->len, &chunks, &symbols, NULL, NULL, NULL, NULL, &run->error);
  return NULL;
}

/* Cancelling stops a parse under way (SIGTERM during `lode index` waited for it to end, and
 * one parse of such a file takes seconds); the file is not chunked at all. */
static void
test_cancel_parse (void)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  g_autofree char *noise = NULL;
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GError) error = NULL;
  ChunkThread run = { chunker, NULL, 0, NULL, FALSE };
  GThread *thread;

  noise = make_noise (&run.len);
  run.text = noise;
  lode_chunker_set_time_budget (chunker, 600 * 1000);
  lode_chunker_set_cancellable (chunker, cancellable);

  thread = g_thread_new ("chunk", chunk_thread_func, &run);
  g_usleep (200 * 1000);
  g_cancellable_cancel (cancellable);
  g_thread_join (thread);

  g_assert_false (run.ok);
  g_assert_error (run.error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
  g_clear_error (&run.error);

  /* Once cancelled, every file is refused at once. */
  g_assert_false (lode_chunker_chunk (chunker, lode_language_lookup ("c"), NULL, "int x;\n", 7,
                                      &chunks, &symbols, NULL, NULL, NULL, NULL, &error));
  g_assert_error (error, G_IO_ERROR, G_IO_ERROR_CANCELLED);
}

/* 65,536 open parentheses: tree-sitter 0.20.7 (Debian 12's) freed an invalid pointer when it
 * deleted so deep a tree, which aborted the whole indexer; its fuzzer-found twin was `a<`
 * written 50,000 times in a .cpp file. A query cursor visits each node of so deep a tree at
 * the cost of its depth (minutes in all), which the budget then had to end, leaving the file
 * to line windows; the chunk query now starts only where its patterns start, and the file is
 * chunked from its parse well within the budget, every line in a chunk. */
static void
test_deep_nesting (void)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  g_autoptr(GString) code = g_string_new ("int deep =\n");
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *degraded = NULL;
  guint covered = 0;

  /* Lines of 64, so that the text does not look minified and is parsed. */
  for (guint i = 0; i < 65536 / 64; i++)
    g_string_append (code, "((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((\n");
  g_string_append (code, ";\nint after_deep (void) { return 1; }\n");

  lode_chunker_set_time_budget (chunker, 2000);
  g_assert_true (lode_chunker_chunk (chunker, lode_language_lookup ("c"), NULL, code->str,
                                     code->len, &chunks, &symbols, NULL, NULL, NULL, &degraded,
                                     &error));
  g_assert_no_error (error);
  g_assert_null (degraded);
  for (guint i = 0; i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_cmpuint (chunk->start_line, <=, covered + 1);
      covered = MAX (covered, chunk->end_line);
    }
  g_assert_cmpuint (covered, ==, 65536 / 64 + 3);
}

typedef struct
{
  const char *name;
  GString    *sites;
} FindSites;

static void
find_sites_cb (const char    *name,
               const guint32 *sites,
               guint          n_sites,
               gpointer       user_data)
{
  FindSites *find = user_data;

  if (strcmp (name, find->name) != 0)
    return;
  for (guint i = 0; i < n_sites; i++)
    g_string_append_printf (find->sites, "%s%u:%s", find->sites->len > 0 ? " " : "",
                            lode_reference_site_line (sites[i]),
                            lode_reference_kind_to_string (lode_reference_site_kind (sites[i])));
}

/* "line:kind …" of @name's references. */
static char *
reference_sites (LodeReferences *references,
                 const char     *name)
{
  FindSites find = { name, g_string_new (NULL) };

  lode_references_foreach (references, find_sites_cb, &find);
  return g_string_free (find.sites, FALSE);
}

static const LodeImport *
find_import (GPtrArray  *imports,
             const char *specifier)
{
  for (guint i = 0; i < imports->len; i++)
    {
      const LodeImport *import = g_ptr_array_index (imports, i);

      if (strcmp (import->specifier, specifier) == 0)
        return import;
    }
  return NULL;
}

/* The details of the symbol @name of @kind in @file, as the symbol tools read them. */
static JsonObject *
symbol_detail (const char *language,
               const char *file,
               const char *name,
               const char *kind)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autofree char *text = NULL;
  gsize len;

  text = load_fixture (file, &len);
  chunk_text (0, language, text, len, &chunks, &symbols);
  for (guint i = 0; i < symbols->len; i++)
    {
      LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      if (strcmp (symbol->name, name) == 0 && strcmp (symbol->kind, kind) == 0)
        {
          g_autoptr(JsonNode) node = json_from_string (symbol->detail, NULL);

          g_assert_nonnull (node);
          return json_node_dup_object (node);
        }
    }
  g_error ("%s: no %s %s", file, kind, name);
}

/* "name: description" of each item of @detail's @member ("fields", "methods"), one a line. */
static char *
member_docs (JsonObject *detail,
             const char *member)
{
  JsonArray *items = json_object_get_array_member (detail, member);
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < json_array_get_length (items); i++)
    {
      JsonObject *item = json_array_get_object_element (items, i);

      g_string_append_printf (out, "%s: %s\n", json_object_get_string_member (item, "name"),
                              json_object_get_string_member_with_default (item, "description",
                                                                          "-"));
    }
  return g_string_free (out, FALSE);
}

/* Doc text: markers go, paragraphs stay apart across comments (Rust's `///` lines are one
 * node each), a summary stops at an empty line or at tags, and cuts stay on characters. */
static void
test_doc_comment_text (void)
{
  static const char * const lines[] = {
    "/// Acquires a permit.\n", "///\n", "/// Waits while none is free.\n",
  };
  g_autoptr(GString) doc = g_string_new (NULL);
  g_autoptr(GString) cut = g_string_new (NULL);
  g_autofree char *summary = NULL;
  g_autofree char *javadoc = NULL;
  g_autofree char *csharp = NULL;
  g_autofree char *short_summary = NULL;
  g_autofree char *filler = g_strnfill (300, 'x');
  g_autofree char *accented = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (lines); i++)
    lode_doc_comment_append (doc, lines[i], strlen (lines[i]), 1024);
  g_assert_cmpstr (doc->str, ==, "Acquires a permit.\n\nWaits while none is free.");
  summary = lode_doc_comment_summary (doc->str, 1024);
  g_assert_cmpstr (summary, ==, "Acquires a permit.");

  javadoc = lode_doc_comment_summary ("Deposits an amount\ninto the account.\n@param amount in "
                                      "cents", 1024);
  g_assert_cmpstr (javadoc, ==, "Deposits an amount into the account.");
  csharp = lode_doc_comment_summary ("\n\nGets the size.\n", 1024);
  g_assert_cmpstr (csharp, ==, "Gets the size.");
  g_assert_null (lode_doc_comment_summary ("\n \n", 1024));

  /* 199 bytes, then a two-byte "é" that the 200-byte limit would cut. */
  accented = g_strdup_printf ("%.*s\xc3\xa9 and more", 199, filler);
  short_summary = lode_doc_comment_summary (accented, 200);
  g_assert_cmpuint (strlen (short_summary), ==, 199);
  lode_doc_comment_append (cut, accented, strlen (accented), 200);
  g_assert_cmpuint (cut->len, ==, 199);
  g_assert_true (g_utf8_validate (cut->str, -1, NULL));
}

/* A member's doc is the comment after it on its line, else the comment right above it
 * (through attributes): on grpc-go's ClientConn, `cancel` carried `ctx`'s comment and
 * `parsedTarget` `target`'s, since each took the comment before it. */
static void
test_member_docs (void)
{
  g_autoptr(JsonObject) conn = symbol_detail ("go", "../symbol-scopes/grpc/clientconn.go",
                                              "ClientConn", "struct");
  g_autoptr(JsonObject) sem = symbol_detail ("rust", "permits.rs", "Semaphore", "struct");
  g_autoptr(JsonObject) error = symbol_detail ("rust", "permits.rs", "TryAcquireError",
                                               "enum");
  g_autoptr(JsonObject) retry = symbol_detail ("java", "members/Retry.java", "RetryPolicy",
                                               "class");
  g_autoptr(JsonObject) code = symbol_detail ("java", "members/Retry.java", "Code", "enum");
  g_autoptr(JsonObject) options = symbol_detail ("csharp", "members/Options.cs",
                                                 "GrpcChannelOptions", "class");
  g_autoptr(JsonObject) cache = symbol_detail ("kotlin", "members/Config.kt", "CacheControl",
                                               "class");
  g_autoptr(JsonObject) config = symbol_detail ("typescript", "members/client.ts",
                                                "RequestConfig", "interface");
  g_autofree char *conn_fields = member_docs (conn, "fields");
  g_autofree char *sem_fields = member_docs (sem, "fields");
  g_autofree char *variants = member_docs (error, "fields");
  g_autofree char *retry_fields = member_docs (retry, "fields");
  g_autofree char *constants = member_docs (code, "fields");
  g_autofree char *properties = member_docs (options, "fields");
  g_autofree char *cache_fields = member_docs (cache, "fields");
  g_autofree char *config_fields = member_docs (config, "fields");
  g_autofree char *config_methods = member_docs (config, "methods");

  g_assert_cmpstr (conn_fields, ==,
                   "ctx: Initialized using the background context at dial time.\n"
                   "cancel: Cancelled on close.\n"
                   "target: User's dial target.\n"
                   "parsedTarget: See initParsedTarget().\n"
                   "authority: See initAuthority().\n"
                   "dopts: Default and user specified dial options.\n"
                   "resolverBuilder: -\n"
                   "statsHandler: -\n"
                   "csMgr: The following provide their own synchronization, and therefore "
                   "don't require cc.mu to be held to access them.\n"
                   "retryThrottler: Updated from service config.\n"
                   "mu: mu protects the following fields.\n"
                   "conns: Set to nil on close.\n"
                   "firstResolveEvent: firstResolveEvent is used to track whether the name "
                   "resolver sent us at least one update. RPCs block on this event.\n"
                   "lceMu: protects lastConnectionError\n"
                   "lastConnectionError: -\n");
  g_assert_cmpstr (sem_fields, ==, "ll_sem: The low level semaphore\nresource_span: -\n");
  g_assert_cmpstr (variants, ==,
                   "Closed: The semaphore has been [closed] and cannot issue new permits.\n"
                   "NoPermits: The semaphore has no available permits.\n");
  g_assert_cmpstr (retry_fields, ==,
                   "maxAttempts: How many attempts at most, the first one included.\n"
                   "initialBackoffNanos: The delay before the first retry.\n"
                   "maxBackoffNanos: The longest delay between two attempts.\n");
  g_assert_cmpstr (constants, ==, "UNAVAILABLE: The service is unavailable.\n"
                                  "DEADLINE_EXCEEDED: The deadline passed first.\n");
  g_assert_cmpstr (properties, ==,
                   "MaxSendMessageSize: Gets or sets the maximum message size in bytes that "
                   "can be sent from the client.\n"
                   "MaxReceiveMessageSize: Gets or sets the maximum message size in bytes "
                   "that can be received by the client.\n"
                   "_disposed: Set when the channel is disposed.\n");
  g_assert_cmpstr (cache_fields, ==,
                   "noCache: -\n"
                   "maxAgeSeconds: The duration past the response's served date that it can "
                   "be served without validation.\n"
                   "headerValue: Lazily computed, null if absent.\n");
  g_assert_cmpstr (config_fields, ==,
                   "url: The server URL of the request.\n"
                   "timeout: Milliseconds before the request times out.\n"
                   "headers: Sent as they are.\n");
  g_assert_cmpstr (config_methods, ==,
                   "transformResponse: Turns the response body into what the caller gets.\n");
  /* <see cref="X"/> leaves X. */
  g_assert_cmpstr (json_object_get_string_member (options, "description"), ==,
                   "An options class for configuring a GrpcChannel.");
}

/* A description is the doc's first paragraph: tokio's Semaphore said "[`Semaphore::
 * acquire_owned`]: crate::…", the last line of its doc, which is all that was read above
 * its `#[derive(Debug)]`. The chunk keeps the whole doc, paragraphs apart. */
static void
test_doc_summaries (void)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(JsonObject) sem = symbol_detail ("rust", "permits.rs", "Semaphore", "struct");
  g_autoptr(JsonObject) new = symbol_detail ("rust", "permits.rs", "new", "method");
  g_autoptr(JsonObject) conn = symbol_detail ("go", "../symbol-scopes/grpc/clientconn.go",
                                              "ClientConn", "struct");
  g_autoptr(JsonObject) spawn = symbol_detail ("rust", "cfg_macros.rs", "spawn_blocking",
                                               "function");
  g_autofree char *text = NULL;
  LodeChunk *chunk = NULL;
  gsize len;

  g_assert_cmpstr (json_object_get_string_member (sem, "description"), ==,
                   "Counting semaphore performing asynchronous permit acquisition.");
  g_assert_cmpstr (json_object_get_string_member (new, "description"), ==,
                   "Creates a new semaphore with the initial number of permits.");
  g_assert_cmpstr (json_object_get_string_member (conn, "description"), ==,
                   "ClientConn represents a virtual connection to a conceptual endpoint, to "
                   "perform RPCs.");
  g_assert_cmpstr (json_object_get_string_member (spawn, "description"), ==,
                   "Runs the closure on a thread where blocking is fine.");

  text = load_fixture ("permits.rs", &len);
  chunk_text (0, "rust", text, len, &chunks, &symbols);
  for (guint i = 0; i < chunks->len && chunk == NULL; i++)
    if (g_strcmp0 (((LodeChunk *) g_ptr_array_index (chunks, i))->symbol, "Semaphore") == 0)
      chunk = g_ptr_array_index (chunks, i);
  g_assert_nonnull (chunk);
  g_assert_true (g_str_has_prefix (chunk->doc,
                                   "Counting semaphore performing asynchronous permit "
                                   "acquisition.\n\nA semaphore maintains a set of permits. "
                                   "Permits are used to synchronize\naccess to a shared "
                                   "resource.\n\n# Examples\n\n"));
  g_assert_true (g_str_has_suffix (chunk->doc,
                                   "\n[`Semaphore::acquire_owned`]: "
                                   "crate::sync::Semaphore::acquire_owned"));
  /* The chunk starts with its doc, above the attribute. */
  g_assert_cmpuint (chunk->start_line, ==, 6);
}

/* tokio's public API sits in `cfg_rt! { … }` blocks, which tree-sitter parses as token
 * trees: `lode symbol type TcpListener` found nothing, `spawn_blocking` had no symbol and
 * `mod semaphore;` in `cfg_sync!` was not in the import graph. Items in item-level macro
 * bodies (nested, in impls, after doc comments and attributes) are items; other macro
 * bodies (`cfg_if!`'s conditions, statements in a function) stay token trees. */
/* tree-sitter-c ends a `#define`'s body at a comment in it and reads the rest of the line
 * as code: git's diffcore.h lost the declaration below its `do { / * nothing * / } while (0)`
 * macros, zstd.h its ZSTD_compressBound() below ZSTD_COMPRESSBOUND(). */
static void
test_c_macro_comments (void)
{
  static const ExpectedSymbol expected[] = {
    { "DIFFCORE_H", "macro", NULL, 2, 2 },
    { "diff_debug_filespec", "prototype", NULL, 15, 15 },
    { "diff_debug_filepair", "prototype", NULL, 16, 16 },
    { "diff_debug_queue", "prototype", NULL, 17, 17 },
    { "diff_debug_filespec", "macro", NULL, 19, 19 },
    { "diff_debug_filepair", "macro", NULL, 20, 20 },
    { "diff_debug_queue", "macro", NULL, 21, 21 },
    { "diffcore_count_changes", "prototype", NULL, 24, 30 },
    { "ZSTD_COMPRESSBOUND", "macro", NULL, 33, 33 },
    { "ZSTD_compressBound", "prototype", NULL, 34, 34 },
    { "ZSTD_isError", "prototype", NULL, 35, 35 },
    { "DIFF_MARKER", "macro", NULL, 38, 38 },
    { "DIFF_SLASH", "macro", NULL, 39, 39 },
    { "diff_marker_width", "prototype", NULL, 40, 40 },
    END
  };
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  gsize len;
  guint n = 0;

  text = load_fixture ("macro_comments.h", &len);
  g_assert_true (lode_chunker_chunk (chunker, lode_language_lookup ("c"), "diffcore.h", text,
                                     len, &chunks, &symbols, NULL, NULL, NULL, NULL, &error));
  g_assert_no_error (error);

  for (const ExpectedSymbol *es = expected; es->name != NULL; es++, n++)
    {
      LodeSymbol *symbol;

      g_assert_cmpuint (n, <, symbols->len);
      symbol = g_ptr_array_index (symbols, n);
      g_assert_cmpstr (symbol->name, ==, es->name);
      g_assert_cmpstr (symbol->kind, ==, es->kind);
      g_assert_cmpuint (symbol->start_line, ==, es->start_line);
      g_assert_cmpuint (symbol->end_line, ==, es->end_line);
    }
  g_assert_cmpuint (symbols->len, ==, n);
}

static void
test_rust_macro_items (void)
{
  static const ExpectedSymbol expected[] = {
    { "cfg_rt", "macro", NULL, 4, 11 },
    { "spawn_blocking", "function", NULL, 20, 26 },
    { "futures", "module", NULL, 31, 33 },
    { "semaphore", "module", NULL, 35, 35 },
    { "notify", "module", NULL, 38, 38 },
    { "batch_semaphore", "module", NULL, 43, 43 },
    { "TcpListener", "struct", NULL, 49, 51 },
    { "TcpListener", "impl", NULL, 54, 66 },
    { "bind", "method", "TcpListener", 57, 59 },
    { "accept", "method", "TcpListener", 63, 65 },
    { "run", "function", NULL, 76, 80 },
    END
  };
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(LodeReferences) references = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *text = NULL;
  g_autofree char *cfg_rt = NULL;
  g_autofree char *cfg_fs = NULL;
  g_autofree char *let_handle = NULL;
  const LodeImport *import;
  LodeChunk *chunk = NULL;
  gsize len;
  guint n = 0;

  text = load_fixture ("cfg_macros.rs", &len);
  g_assert_true (lode_chunker_chunk (chunker, lode_language_lookup ("rust"),
                                     "tokio/src/task/blocking.rs", text, len,
                                     &chunks, &symbols, &imports, &references, NULL, NULL,
                                     &error));
  g_assert_no_error (error);

  for (const ExpectedSymbol *es = expected; es->name != NULL; es++, n++)
    {
      LodeSymbol *symbol = g_ptr_array_index (symbols, n);

      g_assert_cmpstr (symbol->name, ==, es->name);
      g_assert_cmpstr (symbol->kind, ==, es->kind);
      g_assert_cmpstr (symbol->container, ==, es->container);
      g_assert_cmpuint (symbol->start_line, ==, es->start_line);
      g_assert_cmpuint (symbol->end_line, ==, es->end_line);
    }
  /* Not `platform`: cfg_if!'s branches are conditions, not items. */
  g_assert_cmpuint (symbols->len, ==, n);

  /* spawn_blocking is a chunk of its own, not lines of a token tree. */
  for (guint i = 0; i < chunks->len; i++)
    if (g_strcmp0 (((LodeChunk *) g_ptr_array_index (chunks, i))->symbol, "spawn_blocking") == 0)
      chunk = g_ptr_array_index (chunks, i);
  g_assert_nonnull (chunk);
  g_assert_cmpstr (chunk->kind, ==, "function");
  g_assert_cmpuint (chunk->end_line, ==, 26);
  assert_coverage (text, len, chunks, 0);

  /* `mod semaphore;` in cfg_sync! and `mod batch_semaphore;` two macros deep are imports. */
  import = find_import (imports, "semaphore");
  g_assert_nonnull (import);
  g_assert_cmpint (import->kind, ==, LODE_IMPORT_SOURCE);
  g_assert_cmpuint (import->line, ==, 35);
  import = find_import (imports, "batch_semaphore");
  g_assert_nonnull (import);
  g_assert_cmpint (import->kind, ==, LODE_IMPORT_SOURCE);
  g_assert_nonnull (find_import (imports, "super::notify::Notified"));

  /* The macros taken apart are still called where they were; a macro left as a token tree
   * (in run ()) is read as before. */
  cfg_rt = reference_sites (references, "cfg_rt");
  g_assert_cmpstr (cfg_rt, ==, "4:definition 15:call 77:call");
  cfg_fs = reference_sites (references, "cfg_fs");
  g_assert_cmpstr (cfg_fs, ==, "42:call");
  let_handle = reference_sites (references, "handle");
  g_assert_cmpstr (let_handle, ==, "78:use");

  /* Cut small, the chunks still cover every line once. */
  for (guint budget = 16; budget <= 64; budget *= 4)
    {
      g_clear_pointer (&chunks, g_ptr_array_unref);
      g_clear_pointer (&symbols, g_ptr_array_unref);
      chunk_text (budget, "rust", text, len, &chunks, &symbols);
      assert_coverage (text, len, chunks, 0);
    }
}

/* The parses that take macro bodies apart count against the file's budget: 3,000 functions
 * two macros deep are all found under a generous budget, and the file is indexed by lines,
 * not parsed for ever, under a tiny one. */
static void
test_rust_macro_budget (void)
{
  g_autoptr(LodeChunker) chunker = lode_chunker_new (0);
  g_autoptr(GString) code = g_string_new ("cfg_rt! {\n    cfg_net! {\n");
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GError) error = NULL;
  g_autofree char *degraded = NULL;
  const LodeLanguage *rust = lode_language_lookup ("rust");

  for (guint i = 0; i < 3000; i++)
    g_string_append_printf (code, "        /// Doc %u.\n        pub fn f%u(x: u32) -> u32 {\n"
                                  "            x + %u\n        }\n\n", i, i, i);
  g_string_append (code, "    }\n}\n");

  lode_chunker_set_time_budget (chunker, 600 * 1000);
  g_assert_true (lode_chunker_chunk (chunker, rust, NULL, code->str, code->len, &chunks, &symbols,
                                     NULL, NULL, NULL, &degraded, &error));
  g_assert_no_error (error);
  g_assert_null (degraded);
  g_assert_cmpuint (symbols->len, ==, 3000);
  g_clear_pointer (&chunks, g_ptr_array_unref);
  g_clear_pointer (&symbols, g_ptr_array_unref);

  lode_chunker_set_time_budget (chunker, 1);
  g_assert_true (lode_chunker_chunk (chunker, rust, NULL, code->str, code->len, &chunks, &symbols,
                                     NULL, NULL, NULL, &degraded, &error));
  g_assert_no_error (error);
  g_assert_cmpstr (degraded, ==, "took longer than 1 ms to parse: indexed by lines");
  g_assert_cmpuint (symbols->len, ==, 0);
  assert_coverage (code->str, code->len, chunks, 2);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/chunker/languages", test_languages);
  g_test_add_func ("/lode/chunker/docs-and-signatures", test_docs_and_signatures);
  g_test_add_func ("/lode/chunker/signature-cut-on-character",
                   test_signature_cut_on_character);
  g_test_add_func ("/lode/chunker/coverage", test_coverage);
  g_test_add_func ("/lode/chunker/split-large-function", test_split_large_function);
  g_test_add_func ("/lode/chunker/split-class", test_split_class);
  g_test_add_func ("/lode/chunker/minified", test_minified);
  g_test_add_func ("/lode/chunker/markdown", test_markdown);
  g_test_add_func ("/lode/chunker/yaml-toml", test_yaml_toml);
  g_test_add_func ("/lode/chunker/text-windows", test_text_windows);
  g_test_add_func ("/lode/chunker/empty", test_empty);
  g_test_add_func ("/lode/chunker/invalid-syntax", test_invalid_syntax);
  g_test_add_func ("/lode/chunker/no-trailing-newline", test_no_trailing_newline);
  g_test_add_func ("/lode/chunker/long-line-in-code", test_long_line_in_code);
  g_test_add_func ("/lode/chunker/estimate-tokens", test_estimate_tokens);
  g_test_add_func ("/lode/chunker/time-budget", test_time_budget);
  g_test_add_func ("/lode/chunker/time-budget-cpu", test_time_budget_cpu);
  g_test_add_func ("/lode/chunker/section-visibility", test_section_visibility);
  g_test_add_func ("/lode/chunker/cancel-parse", test_cancel_parse);
  g_test_add_func ("/lode/chunker/deep-nesting", test_deep_nesting);
  g_test_add_func ("/lode/chunker/rust-macro-items", test_rust_macro_items);
  g_test_add_func ("/lode/chunker/c-macro-comments", test_c_macro_comments);
  g_test_add_func ("/lode/chunker/rust-macro-budget", test_rust_macro_budget);
  g_test_add_func ("/lode/chunker/member-docs", test_member_docs);
  g_test_add_func ("/lode/chunker/doc-summaries", test_doc_summaries);
  g_test_add_func ("/lode/chunker/doc-comment-text", test_doc_comment_text);

  return g_test_run ();
}
