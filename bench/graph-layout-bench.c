/* graph-layout-bench.c — Lode's layered layout against Graphviz's dot on the same graphs
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

#include <glib.h>

#ifdef HAVE_LIBGVC
#include <graphviz/gvc.h>
#endif

#include "lode-graph-layout.h"

/*
 * graph-layout-bench EDGES-FILE… [-n RUNS]
 *
 * For each edge list (tests/liblode/fixtures/layout: "from to" per line), boxes as wide as
 * their paths at 7.5 pixels per character plus 24, 30 high, laid out by
 * lode_graph_layout_run() and, when built with libgvc, by dot with the same sizes and gaps
 * (rankdir=LR). Prints the median time of RUNS layouts (the graph's construction not
 * counted), the drawing's size and the pairs of edges whose drawn curves cross (each curve
 * cut into 8 segments per Bézier piece; edges that share a box are not counted: they meet
 * there). The app lays out at most 60 boxes; these graphs are 200 and more.
 */

#define CHAR_WIDTH 7.5
#define PADDING    24.0
#define BOX_HEIGHT 30.0
#define SAMPLES    8

typedef struct
{
  GPtrArray *paths;
  GArray    *edges;    /* guint pairs */
} Graph;

static void
graph_clear (Graph *graph)
{
  g_ptr_array_unref (graph->paths);
  g_array_unref (graph->edges);
}

static gboolean
load_graph (const char  *file,
            Graph       *graph,
            GError     **error)
{
  g_autofree char *text = NULL;
  g_auto(GStrv) lines = NULL;
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);

  if (!g_file_get_contents (file, &text, NULL, error))
    return FALSE;

  graph->paths = g_ptr_array_new_with_free_func (g_free);
  graph->edges = g_array_new (FALSE, FALSE, sizeof (guint));
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) ends = NULL;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      ends = g_strsplit (lines[i], " ", 2);
      for (guint e = 0; e < 2 && ends[e] != NULL; e++)
        {
          gpointer id = g_hash_table_lookup (ids, ends[e]);
          guint node;

          if (id == NULL)
            {
              char *copy = g_strdup (ends[e]);

              g_ptr_array_add (graph->paths, copy);
              id = GUINT_TO_POINTER (graph->paths->len);
              g_hash_table_insert (ids, copy, id);
            }
          node = GPOINTER_TO_UINT (id) - 1;
          g_array_append_val (graph->edges, node);
        }
    }

  return TRUE;
}

static double
box_width (const char *path)
{
  return strlen (path) * CHAR_WIDTH + PADDING;
}

/* Curves as polylines, one GArray of doubles (x, y, …) per edge. */

static void
sample_cubic (GArray *out,
              double  x0, double y0, double x1, double y1,
              double  x2, double y2, double x3, double y3)
{
  for (guint i = 1; i <= SAMPLES; i++)
    {
      double t = (double) i / SAMPLES;
      double u = 1 - t;
      double x = u * u * u * x0 + 3 * u * u * t * x1 + 3 * u * t * t * x2 + t * t * t * x3;
      double y = u * u * u * y0 + 3 * u * u * t * y1 + 3 * u * t * t * y2 + t * t * t * y3;

      g_array_append_val (out, x);
      g_array_append_val (out, y);
    }
}

static gboolean
segments_cross (const double *a,
                const double *b)
{
  double d1 = (b[2] - b[0]) * (a[1] - b[1]) - (b[3] - b[1]) * (a[0] - b[0]);
  double d2 = (b[2] - b[0]) * (a[3] - b[1]) - (b[3] - b[1]) * (a[2] - b[0]);
  double d3 = (a[2] - a[0]) * (b[1] - a[1]) - (a[3] - a[1]) * (b[0] - a[0]);
  double d4 = (a[2] - a[0]) * (b[3] - a[1]) - (a[3] - a[1]) * (b[2] - a[0]);

  return ((d1 > 0 && d2 < 0) || (d1 < 0 && d2 > 0)) && ((d3 > 0 && d4 < 0) || (d3 < 0 && d4 > 0));
}

static gboolean
curves_cross (GArray *a,
              GArray *b)
{
  const double *pa = (const double *) a->data;
  const double *pb = (const double *) b->data;

  for (guint i = 0; i + 3 < a->len; i += 2)
    for (guint j = 0; j + 3 < b->len; j += 2)
      if (segments_cross (pa + i, pb + j))
        return TRUE;

  return FALSE;
}

static void
bounds (GArray *curve,
        double *box)
{
  box[0] = box[1] = G_MAXDOUBLE;
  box[2] = box[3] = -G_MAXDOUBLE;
  for (guint i = 0; i + 1 < curve->len; i += 2)
    {
      box[0] = MIN (box[0], g_array_index (curve, double, i));
      box[1] = MIN (box[1], g_array_index (curve, double, i + 1));
      box[2] = MAX (box[2], g_array_index (curve, double, i));
      box[3] = MAX (box[3], g_array_index (curve, double, i + 1));
    }
}

static guint
count_crossing_pairs (const Graph *graph,
                      GPtrArray   *curves)
{
  g_autofree double *boxes = g_new (double, 4 * MAX (curves->len, 1));
  guint crossings = 0;

  for (guint i = 0; i < curves->len; i++)
    bounds (curves->pdata[i], boxes + 4 * i);

  for (guint i = 0; i < curves->len; i++)
    for (guint j = i + 1; j < curves->len; j++)
      {
        const guint *ei = &g_array_index (graph->edges, guint, 2 * i);
        const guint *ej = &g_array_index (graph->edges, guint, 2 * j);
        const double *bi = boxes + 4 * i;
        const double *bj = boxes + 4 * j;

        if (ei[0] == ej[0] || ei[0] == ej[1] || ei[1] == ej[0] || ei[1] == ej[1])
          continue;
        if (bi[2] < bj[0] || bj[2] < bi[0] || bi[3] < bj[1] || bj[3] < bi[1])
          continue;
        crossings += curves_cross (curves->pdata[i], curves->pdata[j]);
      }

  return crossings;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db;
}

static double
median (GArray *times)
{
  g_array_sort (times, compare_doubles);
  return g_array_index (times, double, times->len / 2);
}

static LodeGraphLayout *
lode_layout (const Graph *graph,
             double      *msec)
{
  LodeGraphLayout *layout = lode_graph_layout_new ();
  gint64 start;

  for (guint i = 0; i < graph->paths->len; i++)
    lode_graph_layout_add_node (layout, box_width (graph->paths->pdata[i]), BOX_HEIGHT);
  for (guint i = 0; i + 1 < graph->edges->len; i += 2)
    lode_graph_layout_add_edge (layout, g_array_index (graph->edges, guint, i),
                                g_array_index (graph->edges, guint, i + 1));
  start = g_get_monotonic_time ();
  lode_graph_layout_run (layout);
  *msec = (g_get_monotonic_time () - start) / 1000.0;

  return layout;
}

/* Runs straight, gaps crossed by curves with horizontal tangents, as the app draws them. */
static GPtrArray *
lode_curves (LodeGraphLayout *layout)
{
  GPtrArray *curves = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  for (guint e = 0; e < lode_graph_layout_get_n_edges (layout); e++)
    {
      GArray *curve = g_array_new (FALSE, FALSE, sizeof (double));
      guint n;
      const double *p = lode_graph_layout_get_edge_points (layout, e, &n);

      if (n > 0)
        g_array_append_vals (curve, p, 2);
      for (guint i = 0; i + 1 < n; i++)
        {
          const double *a = p + 2 * i;
          const double *b = p + 2 * i + 2;
          double mid = (a[0] + b[0]) / 2;

          if (i % 2 == 0)
            g_array_append_vals (curve, b, 2);
          else
            sample_cubic (curve, a[0], a[1], mid, a[1], mid, b[1], b[0], b[1]);
        }
      g_ptr_array_add (curves, curve);
    }

  return curves;
}

#ifdef HAVE_LIBGVC
static double
dot_layout (GVC_t       *gvc,
            const Graph *graph,
            GPtrArray   *curves,
            double      *width,
            double      *height)
{
  Agraph_t *g = agopen ((char *) "g", Agdirected, NULL);
  g_autofree Agnode_t **nodes = g_new (Agnode_t *, MAX (graph->paths->len, 1));
  g_autofree Agedge_t **edges = g_new (Agedge_t *, MAX (graph->edges->len / 2, 1));
  char value[G_ASCII_DTOSTR_BUF_SIZE];
  gint64 start;
  double msec;
  boxf bb;

  agattr (g, AGRAPH, (char *) "rankdir", (char *) "LR");
  agattr (g, AGRAPH, (char *) "nodesep", g_ascii_dtostr (value, sizeof value, 14.0 / 72));
  agattr (g, AGRAPH, (char *) "ranksep", g_ascii_dtostr (value, sizeof value, 72.0 / 72));
  agattr (g, AGNODE, (char *) "shape", (char *) "box");
  agattr (g, AGNODE, (char *) "fixedsize", (char *) "true");
  agattr (g, AGNODE, (char *) "label", (char *) "");
  agattr (g, AGNODE, (char *) "width", (char *) "1");
  agattr (g, AGNODE, (char *) "height", g_ascii_dtostr (value, sizeof value, BOX_HEIGHT / 72));
  for (guint i = 0; i < graph->paths->len; i++)
    {
      nodes[i] = agnode (g, graph->paths->pdata[i], 1);
      agset (nodes[i], (char *) "width",
             g_ascii_dtostr (value, sizeof value, box_width (graph->paths->pdata[i]) / 72));
    }
  for (guint i = 0; i + 1 < graph->edges->len; i += 2)
    edges[i / 2] = agedge (g, nodes[g_array_index (graph->edges, guint, i)],
                           nodes[g_array_index (graph->edges, guint, i + 1)], NULL, 1);

  start = g_get_monotonic_time ();
  gvLayout (gvc, g, "dot");
  msec = (g_get_monotonic_time () - start) / 1000.0;

  bb = GD_bb (g);
  *width = bb.UR.x - bb.LL.x;
  *height = bb.UR.y - bb.LL.y;
  for (guint i = 0; curves != NULL && i < graph->edges->len / 2; i++)
    {
      GArray *curve = g_array_new (FALSE, FALSE, sizeof (double));
      splines *spl = ED_spl (edges[i]);

      if (spl != NULL && spl->size > 0)
        {
          bezier *bz = &spl->list[0];

          g_array_append_vals (curve, (double[]) { bz->list[0].x, bz->list[0].y }, 2);
          for (gsize k = 0; k + 3 < (gsize) bz->size; k += 3)
            sample_cubic (curve, bz->list[k].x, bz->list[k].y, bz->list[k + 1].x,
                          bz->list[k + 1].y, bz->list[k + 2].x, bz->list[k + 2].y,
                          bz->list[k + 3].x, bz->list[k + 3].y);
        }
      g_ptr_array_add (curves, curve);
    }

  gvFreeLayout (gvc, g);
  agclose (g);
  return msec;
}
#endif

int
main (int   argc,
      char *argv[])
{
  int runs = 7;
  g_auto(GStrv) files = NULL;
  g_autoptr(GOptionContext) context = g_option_context_new ("EDGES-FILE…");
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "runs", 'n', 0, G_OPTION_ARG_INT, &runs, "Layouts to time per graph (median)", "N" },
    { G_OPTION_REMAINING, 0, 0, G_OPTION_ARG_FILENAME_ARRAY, &files, NULL, NULL },
    { NULL }
  };
#ifdef HAVE_LIBGVC
  GVC_t *gvc = gvContext ();
#endif

  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || files == NULL)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "Give edge lists");
      return 2;
    }

  for (guint f = 0; files[f] != NULL; f++)
    {
      Graph graph;
      g_autoptr(GArray) times = g_array_new (FALSE, FALSE, sizeof (double));
      g_autoptr(GPtrArray) curves = NULL;
      g_autoptr(LodeGraphLayout) layout = NULL;
      double width, height, msec;

      if (!load_graph (files[f], &graph, &error))
        {
          g_printerr ("%s\n", error->message);
          return 1;
        }

      for (int r = 0; r < MAX (runs, 1); r++)
        {
          g_clear_pointer (&layout, lode_graph_layout_free);
          layout = lode_layout (&graph, &msec);
          g_array_append_val (times, msec);
        }
      lode_graph_layout_get_size (layout, &width, &height);
      curves = lode_curves (layout);
      g_print ("%s: %u boxes, %u edges\n", files[f], graph.paths->len, graph.edges->len / 2);
      g_print ("  lode: %8.2f ms (median of %d), %5.0f x %5.0f, %u crossing pairs\n",
               median (times), MAX (runs, 1), width, height,
               count_crossing_pairs (&graph, curves));

#ifdef HAVE_LIBGVC
      g_array_set_size (times, 0);
      for (int r = 0; r < MAX (runs, 1); r++)
        {
          msec = dot_layout (gvc, &graph, NULL, &width, &height);
          g_array_append_val (times, msec);
        }
      g_clear_pointer (&curves, g_ptr_array_unref);
      curves = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);
      dot_layout (gvc, &graph, curves, &width, &height);
      g_print ("  dot:  %8.2f ms (median of %d), %5.0f x %5.0f, %u crossing pairs\n",
               median (times), MAX (runs, 1), width, height,
               count_crossing_pairs (&graph, curves));
#endif
      graph_clear (&graph);
    }

#ifdef HAVE_LIBGVC
  gvFreeContext (gvc);
#endif
  return 0;
}
