/* lode-graph-diagram.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

#include "lode-graph.h"

G_BEGIN_DECLS

/* Boxes a diagram shows at most by default: more is unreadable. */
#define LODE_GRAPH_DIAGRAM_MAX_BOXES 60
/* The distance of a box drawn without a focus file. */
#define LODE_GRAPH_NO_DISTANCE G_MAXUINT

/**
 * LodeGraphBoxKind:
 * @LODE_GRAPH_BOX_FILE: one file of the project
 * @LODE_GRAPH_BOX_FOLDER: the files of a folder, drawn as one box
 * @LODE_GRAPH_BOX_MORE: the files left out, counted
 * @LODE_GRAPH_BOX_DEFINITION: a definition of the call graph, in a symbol's diagram
 */
typedef enum
{
  LODE_GRAPH_BOX_FILE,
  LODE_GRAPH_BOX_FOLDER,
  LODE_GRAPH_BOX_MORE,
  LODE_GRAPH_BOX_DEFINITION,
} LodeGraphBoxKind;

/**
 * LodeGraphBox:
 * @kind: what the box stands for
 * @path: (nullable): the file's path (a definition's file), the folder's path ending with '/'
 *   (`./` for the top), %NULL for the files left out
 * @name: (nullable): a definition's name
 * @language: the file's language, the one most of a folder's files have, "text" otherwise
 * @file: a file box's id in the graph
 * @n_files: the files the box stands for
 * @distance: hops from the focus file (the nearest of a folder's files), or
 *   %LODE_GRAPH_NO_DISTANCE
 * @focus: the box is the focus file
 * @in_cycle: the file is in an import cycle of the project
 */
typedef struct
{
  LodeGraphBoxKind  kind;
  char             *path;
  char             *name;
  const char       *language;
  guint             file;
  guint             n_files;
  guint             distance;
  gboolean          focus;
  gboolean          in_cycle;
} LodeGraphBox;

/**
 * LodeGraphArrow:
 * @from: the importing box
 * @to: the imported box
 * @count: the file → file imports the arrow stands for
 * @in_cycle: both ends are files of one import cycle
 */
typedef struct
{
  guint    from;
  guint    to;
  guint    count;
  gboolean in_cycle;
} LodeGraphArrow;

/**
 * LodeGraphDiagram:
 * @boxes: (element-type LodeGraphBox): nearest first for a focus file
 * @arrows: (element-type LodeGraphArrow)
 * @n_hidden: files left out (those of the %LODE_GRAPH_BOX_MORE box, when there is one)
 *
 * What a picture of the import graph shows: a file's neighbourhood or the whole project,
 * within a number of boxes; or a definition with its callers and callees. Mermaid, the SVG of
 * lode-graph-svg and the desktop app draw it.
 */
typedef struct
{
  GArray *boxes;
  GArray *arrows;
  guint   n_hidden;
} LodeGraphDiagram;

LodeGraphDiagram *lode_graph_diagram_new        (const LodeGraph        *graph,
                                                 const guint            *focus,
                                                 guint                   depth,
                                                 guint                   max_boxes);
LodeGraphDiagram *lode_graph_diagram_new_empty  (void);
guint             lode_graph_diagram_add_symbol (LodeGraphDiagram       *self,
                                                 const char             *name,
                                                 const char             *path,
                                                 const char             *language,
                                                 guint                   distance,
                                                 gboolean                focus);
void              lode_graph_diagram_add_call   (LodeGraphDiagram       *self,
                                                 guint                   from,
                                                 guint                   to);
void              lode_graph_diagram_free       (LodeGraphDiagram       *self);
char             *lode_graph_diagram_dup_label  (const LodeGraphBox     *box);
char             *lode_graph_diagram_to_mermaid (const LodeGraphDiagram *self);
char             *lode_graph_diagram_to_svg     (const LodeGraphDiagram *self);
void              lode_graph_language_colours   (const char             *language,
                                                 const char            **fill,
                                                 const char            **text);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGraphDiagram, lode_graph_diagram_free)

G_END_DECLS
