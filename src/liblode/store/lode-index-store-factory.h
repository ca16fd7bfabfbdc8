/* lode-index-store-factory.h — which store holds a project's index: opening, building aside,
 * installing, removing and copying indexes
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-config.h"
#include "lode-index-store.h"

G_BEGIN_DECLS

/**
 * LodeStoreKind:
 * @LODE_STORE_KIND_SQLITE: the embedded SQLite index (the default)
 * @LODE_STORE_KIND_QDRANT: a Qdrant server
 */
typedef enum
{
  LODE_STORE_KIND_SQLITE,
  LODE_STORE_KIND_QDRANT,
} LodeStoreKind;

gboolean        lode_store_kind_from_string       (const char          *name,
                                                   LodeStoreKind       *kind);
const char     *lode_store_kind_to_string         (LodeStoreKind        kind);

LodeIndexStore *lode_index_store_open             (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   guint                dims,
                                                   gboolean             writer,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
char           *lode_index_store_dup_collection   (const char          *db_path);
gboolean        lode_index_store_exists           (LodeStoreKind        kind,
                                                   const char          *db_path);
gboolean        lode_index_store_remove           (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   GError             **error);
gboolean        lode_index_store_remove_leftovers (LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   GError             **error);
LodeIndexStore *lode_index_store_open_aside       (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *db_path,
                                                   guint                dims,
                                                   GCancellable        *cancellable,
                                                   GError             **error);
gboolean        lode_index_store_install          (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   LodeIndexStore      *aside,
                                                   const char          *db_path,
                                                   GError             **error);
void            lode_index_store_discard          (LodeStoreKind        kind,
                                                   LodeIndexStore      *aside,
                                                   const char          *db_path);

/**
 * LodeStoreCopyCounts:
 * @n_files: files copied
 * @n_chunks: chunks copied
 * @n_imports: imports copied
 * @n_vectors: vectors copied (distinct texts)
 * @n_references: files whose symbol references were copied
 * @n_artifacts: context artifacts copied
 */
typedef struct
{
  guint n_files;
  guint n_chunks;
  guint n_imports;
  guint n_vectors;
  guint n_references;
  guint n_artifacts;
} LodeStoreCopyCounts;

gboolean        lode_index_store_copy             (LodeIndexStore      *from,
                                                   LodeIndexStore      *to,
                                                   const char          *model,
                                                   GCancellable        *cancellable,
                                                   LodeStoreCopyCounts *counts,
                                                   GError             **error);
gboolean        lode_index_store_seed             (const LodeConfig    *config,
                                                   LodeStoreKind        kind,
                                                   const char          *from_db_path,
                                                   const char          *to_db_path,
                                                   guint                dims,
                                                   const char          *model,
                                                   GCancellable        *cancellable,
                                                   GError             **error);

G_END_DECLS
