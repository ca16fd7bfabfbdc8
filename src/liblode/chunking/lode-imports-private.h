/* lode-imports-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-imports.h"

G_BEGIN_DECLS

char     *_lode_imports_clean_specifier (const char          *text,
                                         gsize                len);
gboolean  _lode_imports_collect_tree    (const LodeLanguage     *language,
                                         TSTree                 *tree,
                                         const char             *text,
                                         gsize                   len,
                                         guint                   line_offset,
                                         const LodeParseBudget  *budget,
                                         GPtrArray              *imports,
                                         GError                **error);
gboolean  _lode_imports_collect_text    (const LodeLanguage     *language,
                                         const char             *text,
                                         gsize                   len,
                                         guint                   line_offset,
                                         const LodeParseBudget  *budget,
                                         GPtrArray              *imports,
                                         GError                **error);
/* Called by the scanners for a block of another language inside a file (the `<script>` of
 * an HTML, Vue or Svelte file), whose first line is line @line_offset + 1 of the file. */
typedef void (*LodeImportsBlockFunc) (const LodeLanguage *language,
                                      const char         *text,
                                      gsize               len,
                                      guint               line_offset,
                                      GPtrArray          *imports,
                                      gpointer            user_data);

void      _lode_imports_scan            (const LodeLanguage  *language,
                                         const char          *text,
                                         gsize                len,
                                         GPtrArray           *imports,
                                         LodeImportsBlockFunc block,
                                         gpointer             block_data);

G_END_DECLS
