/* lode-symbol-extract.h — symbol details and references from a file's parse
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <tree_sitter/api.h>

#include "lode-language.h"
#include "lode-references.h"

G_BEGIN_DECLS

typedef struct _LodeSymbolExtractor LodeSymbolExtractor;

/**
 * LodeSymbolDef:
 * @node: the declaration's node, as the chunk query captured it
 * @name_byte: where its name starts
 * @kind: the chunker's kind ("function", "class", …)
 * @name: its name
 * @container: (nullable): the enclosing class, impl or namespace
 * @doc: (nullable): its doc comment
 */
typedef struct
{
  TSNode      node;
  guint32     name_byte;
  const char *kind;
  const char *name;
  const char *container;
  const char *doc;
} LodeSymbolDef;

/**
 * LodeSymbolSite:
 * @start_byte: where a name starts in the file
 * @end_byte: where it ends
 * @line: its 1-based line
 *
 * A name of the file that its parse does not hold as a node (see
 * lode_symbol_extractor_add_references()).
 */
typedef struct
{
  guint32 start_byte;
  guint32 end_byte;
  guint   line;
} LodeSymbolSite;

LodeSymbolExtractor *lode_symbol_extractor_new             (const LodeLanguage  *language,
                                                            const char          *text,
                                                            gsize                len,
                                                            TSNode               root);
void                 lode_symbol_extractor_free            (LodeSymbolExtractor *self);
const char          *lode_symbol_extractor_get_package     (LodeSymbolExtractor *self);
const char          *lode_symbol_extractor_get_separator   (LodeSymbolExtractor *self);
char                *lode_symbol_extractor_describe        (LodeSymbolExtractor *self,
                                                            const LodeSymbolDef *def);
void                 lode_symbol_extractor_add_references  (LodeSymbolExtractor *self,
                                                            GArray              *def_names,
                                                            GArray              *calls,
                                                            LodeReferences      *references);
const char          *lode_symbol_separator_for_language    (const char          *language_id);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeSymbolExtractor, lode_symbol_extractor_free)

G_END_DECLS
