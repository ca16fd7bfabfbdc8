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
gboolean  _lode_imports_collect_tree    (const LodeLanguage  *language,
                                         TSTree              *tree,
                                         const char          *text,
                                         gsize                len,
                                         guint                line_offset,
                                         GPtrArray           *imports,
                                         GError             **error);
gboolean  _lode_imports_collect_text    (const LodeLanguage  *language,
                                         const char          *text,
                                         gsize                len,
                                         guint                line_offset,
                                         GPtrArray           *imports,
                                         GError             **error);
void      _lode_imports_scan            (const LodeLanguage  *language,
                                         const char          *text,
                                         gsize                len,
                                         GPtrArray           *imports);

G_END_DECLS
