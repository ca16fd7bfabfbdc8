/* lode-store.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-chunk.h"
#include "lode-search.h"

G_BEGIN_DECLS

/* Bumped on every schema change; an index with another version is rebuilt. */
#define LODE_STORE_SCHEMA_VERSION 1

typedef struct
{
  const char *path;
  const char *language;
  const char *hash;          /* git blob id (SHA-1 hex) of the content */
  guint64     size;
  gint64      mtime_usec;
  guint       n_lines;
} LodeFileInfo;

typedef struct
{
  guint   n_files;
  guint   n_chunks;
  guint   n_symbols;
  guint64 n_bytes;           /* source bytes indexed */
  guint64 n_lines;
} LodeStoreStats;

#define LODE_TYPE_STORE (lode_store_get_type ())
G_DECLARE_FINAL_TYPE (LodeStore, lode_store, LODE, STORE, GObject)

LodeStore  *lode_store_open               (const char            *filename,
                                           GError               **error);
gboolean    lode_store_get_was_reset      (LodeStore             *self);

GHashTable *lode_store_dup_file_hashes    (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_begin              (LodeStore             *self,
                                           GError               **error);
gboolean    lode_store_commit             (LodeStore             *self,
                                           GError               **error);
void        lode_store_rollback           (LodeStore             *self);
gboolean    lode_store_put_file           (LodeStore             *self,
                                           const LodeFileInfo    *file,
                                           GPtrArray             *chunks,
                                           GPtrArray             *symbols,
                                           GError               **error);
gboolean    lode_store_remove_file        (LodeStore             *self,
                                           const char            *path,
                                           GError               **error);

char       *lode_store_dup_meta           (LodeStore             *self,
                                           const char            *key);
gboolean    lode_store_set_meta           (LodeStore             *self,
                                           const char            *key,
                                           const char            *value,
                                           GError               **error);
gboolean    lode_store_get_stats          (LodeStore             *self,
                                           LodeStoreStats        *stats,
                                           GError               **error);
GHashTable *lode_store_dup_language_counts (LodeStore            *self,
                                           GError               **error);
GPtrArray  *lode_store_dup_chunks_for_file (LodeStore            *self,
                                           const char            *path,
                                           GError               **error);

GPtrArray  *lode_store_search             (LodeStore             *self,
                                           const LodeSearchOptions *options,
                                           GCancellable          *cancellable,
                                           GError               **error);

G_END_DECLS
