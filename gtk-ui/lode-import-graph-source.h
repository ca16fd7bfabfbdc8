/* lode-import-graph-source.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-connection.h"
#include "lode-graph-source.h"

G_BEGIN_DECLS

/* Boxes the explorer draws around a file at most (four fifths files, the rest folders and a
 * count): a column of them still fits a screen at a readable size. */
#define LODE_IMPORT_GRAPH_MAX_BOXES 30

#define LODE_TYPE_IMPORT_GRAPH_SOURCE (lode_import_graph_source_get_type ())
G_DECLARE_FINAL_TYPE (LodeImportGraphSource, lode_import_graph_source, LODE,
                      IMPORT_GRAPH_SOURCE, GObject)

LodeGraphSource *lode_import_graph_source_new (LodeConnection *connection);

G_END_DECLS
