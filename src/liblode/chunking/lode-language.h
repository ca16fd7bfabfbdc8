/* lode-language.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <tree_sitter/api.h>

G_BEGIN_DECLS

/**
 * LodeLanguage:
 * @id: stable identifier used in the index and in filters ("c", "python", "tsx", …)
 * @name: human-readable name
 * @ts_language: (nullable): the compiled-in tree-sitter grammar, or %NULL for languages
 *   chunked by structure or by lines
 *
 * A language Lode recognises. Instances are static and live for the whole process.
 */
typedef struct _LodeLanguage LodeLanguage;

struct _LodeLanguage
{
  const char        *id;
  const char        *name;
  const TSLanguage *(*ts_language) (void);
};

const LodeLanguage  *lode_language_lookup          (const char          *id);
const LodeLanguage  *lode_language_for_path        (const char          *path);
const LodeLanguage  *lode_language_for_content     (const LodeLanguage  *by_path,
                                                    const char          *path,
                                                    const char          *text,
                                                    gsize                len);
const LodeLanguage **lode_language_get_all         (guint               *n_languages);
TSQuery             *lode_language_get_chunk_query (const LodeLanguage  *language,
                                                    GError             **error);
TSQuery             *lode_language_get_import_query (const LodeLanguage *language,
                                                    GError             **error);
const guint8        *lode_language_get_chunk_roots (const LodeLanguage  *language);
gboolean             lode_language_add_extension   (const char          *extension,
                                                    const char          *language_id,
                                                    GError             **error);
gboolean             lode_language_add_extensions  (const char * const  *entries,
                                                    GError             **error);

TSNode               lode_node_child_by_field      (TSNode               node,
                                                    const char          *name);

G_END_DECLS
