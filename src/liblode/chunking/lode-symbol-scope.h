/* lode-symbol-scope.h — scope paths: the module a file is, qualified names, Rust paths
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

char      *lode_symbol_file_module      (const char         *language_id,
                                         const char         *path);
char      *lode_symbol_rust_crate_dir   (const char         *path);
GStrv      lode_symbol_name_parts       (const char         *name);
gboolean   lode_symbol_parts_end_with   (const char * const *parts,
                                         const char * const *tail);
gboolean   lode_symbol_parts_contain    (const char * const *parts,
                                         const char * const *wanted);
char      *lode_symbol_rust_resolve     (const char         *module,
                                         const char         *path,
                                         GHashTable         *uses,
                                         GHashTable         *children);

G_END_DECLS
