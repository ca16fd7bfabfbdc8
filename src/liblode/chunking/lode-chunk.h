/* lode-chunk.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

G_BEGIN_DECLS

/**
 * LodeChunk:
 * @start_line: first line, 1-based
 * @end_line: last line, 1-based, inclusive
 * @kind: (nullable): interned kind ("function", "method", "class", "struct", "interface",
 *   "enum", "module", "section", …); %NULL for plain code or text between declarations
 * @symbol: (nullable): name of the declaration the chunk holds
 * @container: (nullable): enclosing class, impl, namespace or module
 * @signature: (nullable): the declaration's head, e.g. `int main (int argc, char **argv)`
 * @doc: (nullable): the doc comment attached to the declaration
 * @context: (nullable): for a piece of a split declaration, the enclosing signature
 * @content: the exact text of lines @start_line … @end_line
 *
 * A searchable piece of a file. Chunks of one file cover every one of its lines.
 */
typedef struct
{
  guint       start_line;
  guint       end_line;
  const char *kind;
  char       *symbol;
  char       *container;
  char       *signature;
  char       *doc;
  char       *context;
  char       *content;
} LodeChunk;

/**
 * LodeSymbol:
 * @name: the declared name
 * @kind: interned kind, as #LodeChunk's
 * @container: (nullable): enclosing class, impl, namespace or module
 * @signature: (nullable): the declaration's head
 * @start_line: first line, 1-based
 * @end_line: last line, 1-based, inclusive
 * @package: (nullable): the module, package or namespace the declaration belongs to: the
 *   one the file declares (Go, Java, Kotlin, PHP, C#) or the file is (Rust, Python,
 *   JavaScript, TypeScript, Swift; see lode_symbol_file_module()), with the namespaces and
 *   modules around the declaration (C++, C#, PHP, Ruby, Rust's inline `mod`s)
 * @scope: (nullable): the declaration's scope path: @package, then the classes around it,
 *   innermost last, or for a Rust impl's items the type it implements, where that type is
 *   (`crate::sync::semaphore::Semaphore`); joined with lode_symbol_separator_for_language();
 *   %NULL at the top of a language without modules (C)
 * @detail: (nullable): what the symbol tools need besides, as JSON (see
 *   lode-symbol-extract.c): parameters, return types, modifiers, fields, relations, doc
 *
 * A declaration found in a file, for exact look-ups by name and the symbol tools.
 */
typedef struct
{
  char       *name;
  const char *kind;
  char       *container;
  char       *signature;
  guint       start_line;
  guint       end_line;
  char       *package;
  char       *scope;
  char       *detail;
} LodeSymbol;

LodeChunk  *lode_chunk_new   (void);
void        lode_chunk_free  (LodeChunk  *chunk);
LodeSymbol *lode_symbol_new  (void);
void        lode_symbol_free (LodeSymbol *symbol);

void        lode_chunk_append_search_text (const LodeChunk *chunk,
                                           GString         *text);
void        lode_chunk_set_search_text    (LodeChunk       *chunk,
                                           const char      *text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeChunk, lode_chunk_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSymbol, lode_symbol_free)

G_END_DECLS
