/* lode-qdrant-store.h — a project's index in a Qdrant collection
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-qdrant-client.h"
#include "lode-index-store.h"

G_BEGIN_DECLS

/* Bumped when the layout of the points changes; a collection of another version is made
 * anew by a writer, never read. */
#define LODE_QDRANT_SCHEMA_VERSION 5

#define LODE_TYPE_QDRANT_STORE (lode_qdrant_store_get_type ())
G_DECLARE_FINAL_TYPE (LodeQdrantStore, lode_qdrant_store, LODE, QDRANT_STORE, GObject)

LodeQdrantStore *lode_qdrant_store_open          (LodeQdrantClient        *client,
                                                  const char              *collection,
                                                  const LodeQdrantCollectionSpec *spec,
                                                  gboolean                 writer,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
LodeQdrantStore *lode_qdrant_store_open_aside    (LodeQdrantClient        *client,
                                                  const char              *name,
                                                  const LodeQdrantCollectionSpec *spec,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
gboolean         lode_qdrant_store_install       (LodeQdrantStore         *self,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
gboolean         lode_qdrant_store_discard       (LodeQdrantStore         *self,
                                                  GError                 **error);
gboolean         lode_qdrant_store_delete        (LodeQdrantClient        *client,
                                                  const char              *name,
                                                  GCancellable            *cancellable,
                                                  GError                 **error);
const char      *lode_qdrant_store_get_collection (LodeQdrantStore        *self);
LodeQdrantClient *lode_qdrant_store_get_client    (LodeQdrantStore        *self);
guint            lode_qdrant_store_get_dims      (LodeQdrantStore         *self);
gboolean         lode_qdrant_store_refresh       (LodeQdrantStore         *self,
                                                  GError                 **error);

gint64      lode_qdrant_store_get_data_version   (LodeQdrantStore         *self);

G_END_DECLS
