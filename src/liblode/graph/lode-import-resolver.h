/* lode-import-resolver.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib-object.h>

#include "lode-imports.h"

G_BEGIN_DECLS

#define LODE_TYPE_IMPORT_RESOLVER (lode_import_resolver_get_type ())
G_DECLARE_FINAL_TYPE (LodeImportResolver, lode_import_resolver, LODE, IMPORT_RESOLVER, GObject)

LodeImportResolver *lode_import_resolver_new               (const char          *root,
                                                            const char * const  *paths);
void                lode_import_resolver_add_file          (LodeImportResolver  *self,
                                                            const char          *path);
void                lode_import_resolver_remove_file       (LodeImportResolver  *self,
                                                            const char          *path);
gboolean            lode_import_resolver_has_file          (LodeImportResolver  *self,
                                                            const char          *path);
char               *lode_import_resolver_resolve           (LodeImportResolver  *self,
                                                            const char          *from_path,
                                                            const LodeImport    *import,
                                                            char               **package);
GStrv               lode_import_resolver_resolve_all       (LodeImportResolver  *self,
                                                            const char          *from_path,
                                                            const LodeImport    *import,
                                                            char               **package);
char               *lode_import_resolver_dup_key           (LodeImportResolver  *self,
                                                            const char          *from_path,
                                                            const LodeImport    *import);
GStrv               lode_import_resolver_dup_keys_for_path (LodeImportResolver  *self,
                                                            const char          *path);
gboolean            lode_import_resolver_is_config_file    (const char          *path);
gboolean            lode_import_resolver_reads_declarations (const char         *path);
guint               lode_import_common_dirs                (const char          *path,
                                                            const char          *other);

G_END_DECLS
