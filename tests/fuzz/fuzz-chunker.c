/* fuzz-chunker.c — the chunker: tree-sitter parses of every grammar, the line chunker of
 * languages without one (Markdown sections, YAML and TOML keys, line windows) and the
 * character chunker of minified text
 *
 * An input is a file name (which picks the language, as in a scan), a newline, and the
 * file's text. The chunks must cover every line, in order, within the file; symbols and
 * imports must point into the file.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-chunker.h"
#include "lode-scanner.h"

static LodeChunker *chunker;
static LodeChunker *small_chunker;

int
LLVMFuzzerInitialize (int    *argc,
                      char ***argv)
{
  chunker = lode_chunker_new (0);
  /* A small budget splits declarations and cuts long lines far more often. */
  small_chunker = lode_chunker_new (16);
  return 0;
}

static guint
count_lines (const char *text,
             gsize       len)
{
  guint n = 0;

  for (gsize i = 0; i < len; i++)
    n += text[i] == '\n';
  return len > 0 && text[len - 1] != '\n' ? n + 1 : n;
}

static void
check (LodeChunker        *self,
       const LodeLanguage *language,
       const char         *text,
       gsize               len)
{
  g_autoptr(GPtrArray) chunks = NULL;
  g_autoptr(GPtrArray) symbols = NULL;
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(LodeCalls) calls = NULL;
  g_autoptr(GError) error = NULL;
  guint n_lines = count_lines (text, len);
  guint covered = 0;

  g_assert_true (lode_chunker_chunk (self, language, NULL, text, len, &chunks, &symbols, &imports,
                                     NULL, &calls, NULL, &error));
  g_assert_no_error (error);

  for (guint i = 0; i < chunks->len; i++)
    {
      const LodeChunk *chunk = g_ptr_array_index (chunks, i);

      g_assert_cmpuint (chunk->start_line, >=, 1);
      g_assert_cmpuint (chunk->start_line, <=, chunk->end_line);
      g_assert_cmpuint (chunk->end_line, <=, n_lines);
      /* In file order, each starting at or before the first line not yet covered. */
      g_assert_cmpuint (chunk->start_line, <=, covered + 1);
      covered = MAX (covered, chunk->end_line);
      g_assert_nonnull (chunk->content);
      g_assert_true (g_utf8_validate (chunk->content, -1, NULL));
    }
  g_assert_cmpuint (covered, ==, n_lines);

  /* Every call site names a callee, on a line of the file, called by a symbol or none. */
  for (guint i = 0; i < calls->sites->len; i++)
    {
      const LodeCallSite *site = g_ptr_array_index (calls->sites, i);

      g_assert_nonnull (site->name);
      g_assert_true (g_utf8_validate (site->name, -1, NULL));
      g_assert_cmpuint (site->line, >=, 1);
      g_assert_cmpuint (site->line, <=, n_lines);
      g_assert_cmpint (site->caller, >=, -1);
      g_assert_cmpint (site->caller, <, (gint) symbols->len);
    }

  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      g_assert_nonnull (symbol->name);
      g_assert_cmpuint (symbol->start_line, >=, 1);
      g_assert_cmpuint (symbol->start_line, <=, symbol->end_line);
      g_assert_cmpuint (symbol->end_line, <=, n_lines);
    }

  for (guint i = 0; i < imports->len; i++)
    {
      const LodeImport *import = g_ptr_array_index (imports, i);

      g_assert_true (g_utf8_validate (import->specifier, -1, NULL));
      g_assert_cmpuint (strlen (import->specifier), >, 0);
      g_assert_cmpuint (import->line, >=, 1);
      g_assert_cmpuint (import->line, <=, MAX (n_lines, 1));
    }
}

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  g_autofree char *path = NULL;
  g_autofree char *body = NULL;
  g_autofree char *repaired = NULL;
  const LodeLanguage *language;
  const char *text;
  gsize len;

  fuzz_split_first_line (data, size, &path, &body, &len);

  /* What the indexer does with a file's bytes before chunking them. */
  switch (lode_content_check (body, len, &repaired))
    {
    case LODE_CONTENT_BINARY:
      return 0;
    case LODE_CONTENT_REPAIRED:
      text = repaired;
      len = strlen (repaired);
      break;
    case LODE_CONTENT_TEXT:
    default:
      text = body;
      len = strlen (body);
      break;
    }

  language = lode_language_for_content (lode_language_for_path (path), path, text, len);
  check (chunker, language, text, len);
  check (small_chunker, language, text, len);

  return 0;
}
