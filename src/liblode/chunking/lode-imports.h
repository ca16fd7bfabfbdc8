/* lode-imports.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <tree_sitter/api.h>

#include "lode-language.h"
#include "lode-parse-budget.h"

G_BEGIN_DECLS

/* Files larger than this are not searched for imports: generated bundles, data. */
#define LODE_IMPORTS_MAX_BYTES (4 * 1024 * 1024)

/**
 * LodeImportKind:
 * @LODE_IMPORT_MODULE: a module or package named as the language resolves names: ES `import`
 *   and `require`, Python `import`, Go, Rust `use`, Java/Kotlin/Scala/C#/PHP/Swift imports,
 *   Ruby `require`, Lua `require`, Dart `import`
 * @LODE_IMPORT_RELATIVE: a file named relative to the importing file: Ruby
 *   `require_relative`, CSS `@import`/`@use`/`@forward`, HTML `src`/`href`, PHP `include`
 * @LODE_IMPORT_INCLUDE_LOCAL: C/C++ `#include "…"`
 * @LODE_IMPORT_INCLUDE_SYSTEM: C/C++ `#include <…>`
 * @LODE_IMPORT_SIDE_EFFECT: an import for its side effects only (`import "./x.css"`)
 * @LODE_IMPORT_DYNAMIC: an import at run time (`import("./x")`)
 * @LODE_IMPORT_REEXPORT: a re-export (`export … from "./x"`, Dart `export`)
 * @LODE_IMPORT_SOURCE: a file made part of the importing one: Bash `source`/`.`, Rust
 *   `mod x;`, Dart `part`
 * @LODE_IMPORT_STYLESHEET: a stylesheet's `@import`, `@use` or `@forward`, in a CSS, SCSS or
 *   Less file or a `<style>` block of a page or component
 *
 * How an import is written. Where it is looked for follows from the kind and the specifier.
 */
typedef enum
{
  LODE_IMPORT_MODULE,
  LODE_IMPORT_RELATIVE,
  LODE_IMPORT_INCLUDE_LOCAL,
  LODE_IMPORT_INCLUDE_SYSTEM,
  LODE_IMPORT_SIDE_EFFECT,
  LODE_IMPORT_DYNAMIC,
  LODE_IMPORT_REEXPORT,
  LODE_IMPORT_SOURCE,
  LODE_IMPORT_STYLESHEET,
} LodeImportKind;

/**
 * LodeImport:
 * @specifier: the import as written, quotes and brackets stripped: `./foo`, `os.path`,
 *   `.models` (Python relative), `crate::a::b`, `stdio.h`, `github.com/x/y`, `java.util.*`
 * @name: (nullable): the names imported from @specifier where they may themselves be
 *   modules, comma-separated: the `b,c` of Python `from a import b, c`; %NULL otherwise
 * @kind: how the import is written
 * @line: 1-based line of the specifier
 *
 * One import found in a file.
 */
typedef struct
{
  char           *specifier;
  char           *name;
  LodeImportKind  kind;
  guint           line;
} LodeImport;

LodeImport *lode_import_new            (const char          *specifier,
                                        const char          *name,
                                        LodeImportKind       kind,
                                        guint                line);
LodeImport *lode_import_copy           (const LodeImport    *import);
void        lode_import_free           (LodeImport          *import);
const char *lode_import_kind_to_string (LodeImportKind       kind);
gboolean    lode_import_kind_from_string (const char        *str,
                                        LodeImportKind      *kind);

gboolean    lode_imports_supported     (const LodeLanguage  *language);
gboolean    lode_imports_extract       (const LodeLanguage     *language,
                                        const char             *text,
                                        gsize                   len,
                                        const LodeParseBudget  *budget,
                                        GPtrArray             **imports,
                                        GError                **error);
gboolean    lode_imports_extract_tree  (const LodeLanguage     *language,
                                        TSTree                 *tree,
                                        const char             *text,
                                        gsize                   len,
                                        const LodeParseBudget  *budget,
                                        GPtrArray             **imports,
                                        GError                **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeImport, lode_import_free)

G_END_DECLS
