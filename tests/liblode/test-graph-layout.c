/* test-graph-layout.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <string.h>

#include <glib.h>

#include "lode-graph-layout.h"

/*
 * The drawings a reader needs: boxes that never overlap, arrows that all point one way in a
 * graph without cycles, and arrows that never run through a box. The graphs are real ones
 * (tests/liblode/fixtures/layout): grpc-go's balancers, credentials, resolvers and stats
 * (204 files, 701 imports, no cycle: Go forbids them) and tokio's src/ (358 files, 932
 * imports, with cycles). Boxes are as wide as their paths in a monospace font of 7.5 pixels per character.
 */

#define CHAR_WIDTH 7.5
#define PADDING    24.0
#define BOX_HEIGHT 30.0

typedef struct
{
  LodeGraphLayout *layout;
  GPtrArray       *paths;
  GArray          *edges;      /* guint pairs: from, to */
} Drawing;

static void
drawing_free (Drawing *drawing)
{
  lode_graph_layout_free (drawing->layout);
  g_ptr_array_unref (drawing->paths);
  g_array_unref (drawing->edges);
  g_free (drawing);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (Drawing, drawing_free)

static guint
node_of (Drawing    *drawing,
         GHashTable *ids,
         const char *path)
{
  gpointer id = g_hash_table_lookup (ids, path);

  if (id == NULL)
    {
      char *copy = g_strdup (path);

      g_ptr_array_add (drawing->paths, copy);
      id = GUINT_TO_POINTER (lode_graph_layout_add_node (drawing->layout,
                                                         strlen (path) * CHAR_WIDTH + PADDING,
                                                         BOX_HEIGHT) + 1);
      g_hash_table_insert (ids, copy, id);
    }

  return GPOINTER_TO_UINT (id) - 1;
}

static Drawing *
draw_fixture (const char *name)
{
  g_autofree char *path = g_test_build_filename (G_TEST_DIST, "liblode", "fixtures", "layout",
                                               name, NULL);
  g_autofree char *text = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GHashTable) ids = g_hash_table_new (g_str_hash, g_str_equal);
  g_auto(GStrv) lines = NULL;
  Drawing *drawing = g_new0 (Drawing, 1);

  drawing->layout = lode_graph_layout_new ();
  drawing->paths = g_ptr_array_new_with_free_func (g_free);
  drawing->edges = g_array_new (FALSE, FALSE, sizeof (guint));

  g_file_get_contents (path, &text, NULL, &error);
  g_assert_no_error (error);
  lines = g_strsplit (text, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    {
      g_auto(GStrv) ends = NULL;
      guint from, to;

      if (lines[i][0] == '#' || lines[i][0] == '\0')
        continue;
      ends = g_strsplit (lines[i], " ", 2);
      g_assert_nonnull (ends[1]);
      from = node_of (drawing, ids, ends[0]);
      to = node_of (drawing, ids, ends[1]);
      g_assert_cmpuint (lode_graph_layout_add_edge (drawing->layout, from, to), ==,
                        drawing->edges->len / 2);
      g_array_append_val (drawing->edges, from);
      g_array_append_val (drawing->edges, to);
    }

  lode_graph_layout_run (drawing->layout);
  return drawing;
}

typedef struct
{
  double x, y, width, height;
} Box;

static Box
box_of (Drawing *drawing,
        guint    node)
{
  Box box;

  lode_graph_layout_get_node (drawing->layout, node, &box.x, &box.y, &box.width, &box.height);
  return box;
}

static void
assert_no_overlap (Drawing *drawing)
{
  guint n = lode_graph_layout_get_n_nodes (drawing->layout);

  for (guint i = 0; i < n; i++)
    {
      Box a = box_of (drawing, i);

      g_assert_cmpfloat (a.x, >=, 0);
      g_assert_cmpfloat (a.y, >=, 0);
      for (guint j = i + 1; j < n; j++)
        {
          Box b = box_of (drawing, j);
          gboolean apart = a.x + a.width <= b.x || b.x + b.width <= a.x ||
                           a.y + a.height <= b.y || b.y + b.height <= a.y;

          if (!apart)
            g_error ("%s and %s overlap", (char *) drawing->paths->pdata[i],
                     (char *) drawing->paths->pdata[j]);
        }
    }
}

/* The stretch between two consecutive points of a route is either a curve across the gap
 * between two columns, where no box may stand, or a straight run along a column, where no
 * box may be within reach. */
static void
assert_routes_clear (Drawing *drawing)
{
  guint n_nodes = lode_graph_layout_get_n_nodes (drawing->layout);

  for (guint e = 0; e < lode_graph_layout_get_n_edges (drawing->layout); e++)
    {
      guint n_points;
      const double *points = lode_graph_layout_get_edge_points (drawing->layout, e, &n_points);

      g_assert_cmpuint (n_points, >=, 4);
      g_assert_cmpuint (n_points % 2, ==, 0);
      for (guint p = 0; p + 1 < n_points; p++)
        {
          double x0 = MIN (points[2 * p], points[2 * p + 2]);
          double x1 = MAX (points[2 * p], points[2 * p + 2]);
          double y = points[2 * p + 1];
          gboolean run = p % 2 == 0;

          for (guint i = 0; i < n_nodes; i++)
            {
              Box box = box_of (drawing, i);

              if (run)
                {
                  g_assert_cmpfloat (points[2 * p + 3], ==, y);
                  if (box.x < x1 && box.x + box.width > x0)
                    g_assert_true (y < box.y - 1 || y > box.y + box.height + 1);
                }
              else if (box.x + 0.5 < x1 && box.x + box.width - 0.5 > x0)
                g_error ("An arrow of %s crosses %s", (char *) drawing->paths->pdata[
                           g_array_index (drawing->edges, guint, 2 * e)],
                         (char *) drawing->paths->pdata[i]);
            }
        }
    }
}

/* A graph without cycles: every arrow starts at its importer's right side and ends at the
 * imported file's left side, further right. */
static void
test_acyclic (void)
{
  g_autoptr(Drawing) drawing = draw_fixture ("grpc-go.edges");
  guint n_edges = lode_graph_layout_get_n_edges (drawing->layout);
  double width, height;

  g_assert_cmpuint (lode_graph_layout_get_n_nodes (drawing->layout), >=, 200);
  assert_no_overlap (drawing);
  assert_routes_clear (drawing);

  for (guint e = 0; e < n_edges; e++)
    {
      guint from = g_array_index (drawing->edges, guint, 2 * e);
      guint to = g_array_index (drawing->edges, guint, 2 * e + 1);
      Box a = box_of (drawing, from);
      Box b = box_of (drawing, to);
      guint n_points;
      const double *points = lode_graph_layout_get_edge_points (drawing->layout, e, &n_points);

      g_assert_false (lode_graph_layout_is_reversed (drawing->layout, e));
      g_assert_cmpuint (lode_graph_layout_get_column (drawing->layout, to), >,
                        lode_graph_layout_get_column (drawing->layout, from));
      g_assert_cmpfloat (b.x, >=, a.x + a.width + LODE_GRAPH_LAYOUT_COLUMN_GAP);
      g_assert_cmpfloat (points[0], ==, a.x + a.width);
      g_assert_cmpfloat (points[2 * n_points - 2], ==, b.x);
      for (guint p = 0; p + 1 < n_points; p++)
        g_assert_cmpfloat (points[2 * p + 2], >=, points[2 * p]);
    }

  lode_graph_layout_get_size (drawing->layout, &width, &height);
  g_test_message ("grpc-go: %.0f × %.0f, %u crossings", width, height,
                  lode_graph_layout_count_crossings (drawing->layout));
}

/* With cycles: only edges that close one run right to left, and turning them round leaves
 * every arrow pointing right. */
static void
test_cycles (void)
{
  g_autoptr(Drawing) drawing = draw_fixture ("tokio.edges");
  guint n_edges = lode_graph_layout_get_n_edges (drawing->layout);
  guint reversed = 0;

  g_assert_cmpuint (lode_graph_layout_get_n_nodes (drawing->layout), >=, 200);
  assert_no_overlap (drawing);
  assert_routes_clear (drawing);

  for (guint e = 0; e < n_edges; e++)
    {
      guint from = g_array_index (drawing->edges, guint, 2 * e);
      guint to = g_array_index (drawing->edges, guint, 2 * e + 1);
      guint n_points;
      const double *points = lode_graph_layout_get_edge_points (drawing->layout, e, &n_points);

      if (lode_graph_layout_is_reversed (drawing->layout, e))
        {
          reversed++;
          g_assert_cmpuint (lode_graph_layout_get_column (drawing->layout, to), <,
                            lode_graph_layout_get_column (drawing->layout, from));
          g_assert_cmpfloat (points[0], ==, box_of (drawing, from).x);
        }
      else
        g_assert_cmpuint (lode_graph_layout_get_column (drawing->layout, to), >,
                          lode_graph_layout_get_column (drawing->layout, from));
    }

  /* Some edges close cycles (the module tree is most of them), most do not. */
  g_assert_cmpuint (reversed, >, 0);
  g_assert_cmpuint (reversed, <, n_edges / 4);
}

/* Loops and repeated edges: a loop has no route, a repeat the route of the first. */
static void
test_loops_and_repeats (void)
{
  g_autoptr(LodeGraphLayout) layout = lode_graph_layout_new ();
  guint a = lode_graph_layout_add_node (layout, 40, 20);
  guint b = lode_graph_layout_add_node (layout, 40, 20);
  guint loop = lode_graph_layout_add_edge (layout, a, a);
  guint first = lode_graph_layout_add_edge (layout, a, b);
  guint again = lode_graph_layout_add_edge (layout, a, b);
  guint n_loop, n_first, n_again;
  const double *p_first, *p_again;

  lode_graph_layout_run (layout);
  lode_graph_layout_get_edge_points (layout, loop, &n_loop);
  p_first = lode_graph_layout_get_edge_points (layout, first, &n_first);
  p_again = lode_graph_layout_get_edge_points (layout, again, &n_again);
  g_assert_cmpuint (n_loop, ==, 0);
  g_assert_cmpuint (n_first, ==, 4);
  g_assert_cmpmem (p_first, n_first * 2 * sizeof (double), p_again, n_again * 2 * sizeof (double));
  g_assert_cmpuint (lode_graph_layout_count_crossings (layout), ==, 0);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/graph-layout/acyclic", test_acyclic);
  g_test_add_func ("/lode/graph-layout/cycles", test_cycles);
  g_test_add_func ("/lode/graph-layout/loops-and-repeats", test_loops_and_repeats);

  return g_test_run ();
}
