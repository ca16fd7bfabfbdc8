/* lode-store.h — a project's index in a SQLite database on this machine
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

/* Bumped on every schema change; an index with another version is rebuilt. */
#define LODE_STORE_SCHEMA_VERSION 14

/* A LodeStore is a LodeIndexStore and a LodeSearchBackend; everything else it does goes
 * through those interfaces. What is here is the life of its file. */
#define LODE_TYPE_STORE (lode_store_get_type ())
G_DECLARE_FINAL_TYPE (LodeStore, lode_store, LODE, STORE, GObject)

LodeStore  *lode_store_open               (const char            *filename,
                                           GError               **error);
LodeStore  *lode_store_open_reader        (const char            *filename,
                                           GError               **error);
LodeStore  *lode_store_open_aside         (const char            *filename,
                                           GError               **error);
gboolean    lode_store_end_aside          (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_install            (const char            *from,
                                           const char            *to,
                                           GError               **error);
gboolean    lode_store_remove_files       (const char            *filename,
                                           GError               **error);
gboolean    lode_store_copy_into          (LodeStore             *self,
                                           const char            *filename,
                                           GError               **error);

G_END_DECLS
