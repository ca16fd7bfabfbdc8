/* lode-graph.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/* The deepest N-hop impact query; deeper rings say little and grow fast. */
#define LODE_GRAPH_MAX_DEPTH         5

/**
 * LodeGraphDirection:
 * @LODE_GRAPH_INBOUND: towards the files that import a file (what a change can break)
 * @LODE_GRAPH_OUTBOUND: towards the files a file imports (what it relies on)
 */
typedef enum
{
  LODE_GRAPH_INBOUND,
  LODE_GRAPH_OUTBOUND,
} LodeGraphDirection;

/**
 * LodeGraphHit:
 * @file: file id
 * @distance: hops from the nearest start file (0 for a start file)
 * @links: edges reaching it from files one hop nearer; more links, more likely affected
 *
 * A file reached by lode_graph_impact().
 */
typedef struct
{
  guint file;
  guint distance;
  guint links;
} LodeGraphHit;

/**
 * LodeGraphCycle:
 * @members: (element-type guint): the files of one strongly connected component, sorted by path
 * @cycle: (element-type guint): one simple cycle through them, in import order (each file imports
 *   the next, the last imports the first); a shortest one through the component's first file
 */
typedef struct
{
  GArray *members;
  GArray *cycle;
} LodeGraphCycle;

void lode_graph_cycle_free (LodeGraphCycle *cycle);

/**
 * LodeGraphRank:
 * @file: file id (or, in @externals of #LodeGraphStats, an index into the packages)
 * @n_in: files importing it
 * @n_out: project files it imports
 */
typedef struct
{
  guint file;
  guint n_in;
  guint n_out;
} LodeGraphRank;

typedef struct
{
  const char *package;
  guint       n_files;           /* files importing it */
} LodeGraphPackage;

/**
 * LodeGraphStats:
 * @n_files: files in the graph
 * @n_edges: distinct file → file edges
 * @n_external_edges: distinct file → package edges
 * @most_connected: (element-type LodeGraphRank): the files with most edges, most first
 * @orphans: (element-type guint): files of a language that has imports (code, stylesheets,
 *   pages; not configuration, documentation or data) with no edge to or from a project file,
 *   by path
 * @packages: (element-type LodeGraphPackage): external packages, most imported first
 */
typedef struct
{
  guint   n_files;
  guint   n_edges;
  guint   n_external_edges;
  GArray *most_connected;
  GArray *orphans;
  GArray *packages;
} LodeGraphStats;

void lode_graph_stats_free (LodeGraphStats *stats);

typedef struct _LodeGraph LodeGraph;

LodeGraph      *lode_graph_new            (void);
void            lode_graph_free           (LodeGraph           *self);
guint           lode_graph_add_file       (LodeGraph           *self,
                                           const char          *path,
                                           const char          *language);
void            lode_graph_add_edge       (LodeGraph           *self,
                                           guint                from,
                                           guint                to);
void            lode_graph_add_external   (LodeGraph           *self,
                                           guint                from,
                                           const char          *package);
void            lode_graph_freeze         (LodeGraph           *self);

guint           lode_graph_get_n_files    (const LodeGraph     *self);
const char     *lode_graph_get_path       (const LodeGraph     *self,
                                           guint                file);
const char     *lode_graph_get_language   (const LodeGraph     *self,
                                           guint                file);
gboolean        lode_graph_lookup         (const LodeGraph     *self,
                                           const char          *path,
                                           guint               *file);
const guint    *lode_graph_get_imports    (const LodeGraph     *self,
                                           guint                file,
                                           guint               *n_imports);
const guint    *lode_graph_get_dependents (const LodeGraph     *self,
                                           guint                file,
                                           guint               *n_dependents);
GPtrArray      *lode_graph_dup_packages   (const LodeGraph     *self,
                                           guint                file);
GArray         *lode_graph_impact         (const LodeGraph     *self,
                                           const guint         *start,
                                           guint                n_start,
                                           LodeGraphDirection   direction,
                                           guint                depth);
GPtrArray      *lode_graph_find_cycles    (const LodeGraph     *self);
LodeGraphStats *lode_graph_dup_stats      (const LodeGraph     *self,
                                           guint                n_top);
gboolean        lode_graph_is_module_tree_edge (const LodeGraph *self,
                                           guint                from,
                                           guint                to);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGraph, lode_graph_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGraphCycle, lode_graph_cycle_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGraphStats, lode_graph_stats_free)

G_END_DECLS
