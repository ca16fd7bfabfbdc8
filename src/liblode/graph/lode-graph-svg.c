/* lode-graph-svg.c — a diagram as an SVG picture, for where no app can show it
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-graph"

#include "config.h"

#include <string.h>

#include "lode-graph-diagram.h"
#include "lode-graph-layout.h"

/*
 * codebase_graph_visualize answers an agent without a display with this picture: the
 * diagram laid out by lode-graph-layout, boxes coloured as in Mermaid, the focus file with
 * a thick red border, folders dashed, arrows of import cycles red. Labels are set in a
 * monospace font, whose width per character is known without measuring text.
 */

#define FONT_SIZE   12.0
#define CHAR_WIDTH  7.3
#define PADDING     20.0
#define BOX_HEIGHT  28.0
#define MARGIN      16.0

static void
append_escaped (GString    *out,
                const char *text)
{
  g_autofree char *escaped = g_markup_escape_text (text, -1);

  g_string_append (out, escaped);
}

/* Numbers in SVG use dots, whatever the locale. */
static void
append_number (GString *out,
               double   value)
{
  char buffer[G_ASCII_DTOSTR_BUF_SIZE];

  g_string_append (out, g_ascii_formatd (buffer, sizeof buffer, "%.1f", value));
}

static void
append_point (GString *out,
              double   x,
              double   y)
{
  append_number (out, x + MARGIN);
  g_string_append_c (out, ' ');
  append_number (out, y + MARGIN);
}

/* Straight runs along columns, curves with horizontal tangents across the gaps. */
static void
append_route (GString      *out,
              const double *points,
              guint         n_points)
{
  g_string_append (out, "M ");
  append_point (out, points[0], points[1]);
  for (guint i = 0; i + 1 < n_points; i++)
    {
      const double *a = points + 2 * i;
      const double *b = points + 2 * i + 2;
      double mid = (a[0] + b[0]) / 2;

      if (i % 2 == 0)
        {
          g_string_append (out, " L ");
          append_point (out, b[0], b[1]);
          continue;
        }
      g_string_append (out, " C ");
      append_point (out, mid, a[1]);
      g_string_append (out, ", ");
      append_point (out, mid, b[1]);
      g_string_append (out, ", ");
      append_point (out, b[0], b[1]);
    }
}

/**
 * lode_graph_diagram_to_svg:
 * @self: a diagram
 *
 * Returns: (transfer full): @self drawn as an SVG document
 */
char *
lode_graph_diagram_to_svg (const LodeGraphDiagram *self)
{
  g_autoptr(LodeGraphLayout) layout = lode_graph_layout_new ();
  g_autoptr(GPtrArray) labels = g_ptr_array_new_with_free_func (g_free);
  GString *out = g_string_new (NULL);
  double width, height;

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const LodeGraphBox *box = &g_array_index (self->boxes, LodeGraphBox, i);
      char *label = lode_graph_diagram_dup_label (box);

      g_ptr_array_add (labels, label);
      lode_graph_layout_add_node (layout, g_utf8_strlen (label, -1) * CHAR_WIDTH + PADDING,
                                  BOX_HEIGHT);
    }
  for (guint i = 0; i < self->arrows->len; i++)
    {
      const LodeGraphArrow *arrow = &g_array_index (self->arrows, LodeGraphArrow, i);

      lode_graph_layout_add_edge (layout, arrow->from, arrow->to);
    }
  lode_graph_layout_run (layout);
  lode_graph_layout_get_size (layout, &width, &height);

  g_string_append (out, "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
                        "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"");
  append_number (out, width + 2 * MARGIN);
  g_string_append (out, "\" height=\"");
  append_number (out, height + 2 * MARGIN);
  g_string_append (out, "\" font-family=\"monospace\" font-size=\"");
  append_number (out, FONT_SIZE);
  g_string_append (out, "\">\n"
                        "  <defs>\n"
                        "    <marker id=\"arrow\" viewBox=\"0 0 10 10\" refX=\"10\" refY=\"5\" "
                        "markerWidth=\"8\" markerHeight=\"8\" orient=\"auto-start-reverse\">"
                        "<path d=\"M 0 0 L 10 5 L 0 10 z\" fill=\"context-stroke\"/></marker>\n"
                        "  </defs>\n"
                        "  <rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n");

  for (guint i = 0; i < self->arrows->len; i++)
    {
      const LodeGraphArrow *arrow = &g_array_index (self->arrows, LodeGraphArrow, i);
      guint n_points;
      const double *points = lode_graph_layout_get_edge_points (layout, i, &n_points);

      if (n_points == 0)
        continue;
      g_string_append (out, "  <path d=\"");
      append_route (out, points, n_points);
      g_string_append_printf (out, "\" fill=\"none\" stroke=\"%s\" stroke-width=\"%s\" "
                              "marker-end=\"url(#arrow)\"/>\n",
                              arrow->in_cycle ? "#c01c28" : "#5e5c64",
                              arrow->count > 1 ? "2" : "1.2");
    }

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const LodeGraphBox *box = &g_array_index (self->boxes, LodeGraphBox, i);
      const char *fill, *text;
      double x, y, w, h;

      lode_graph_language_colours (box->language, &fill, &text);
      if (box->kind == LODE_GRAPH_BOX_MORE)
        {
          fill = "#f6f5f4";
          text = "#5e5c64";
        }
      lode_graph_layout_get_node (layout, i, &x, &y, &w, &h);
      g_string_append (out, "  <rect x=\"");
      append_number (out, x + MARGIN);
      g_string_append (out, "\" y=\"");
      append_number (out, y + MARGIN);
      g_string_append (out, "\" width=\"");
      append_number (out, w);
      g_string_append (out, "\" height=\"");
      append_number (out, h);
      g_string_append_printf (out, "\" rx=\"6\" fill=\"%s\" stroke=\"%s\" stroke-width=\"%s\"%s/>\n",
                              fill, box->focus || box->in_cycle ? "#c01c28" : "#77767b",
                              box->focus ? "3" : "1",
                              box->kind == LODE_GRAPH_BOX_FILE ||
                              box->kind == LODE_GRAPH_BOX_DEFINITION ? ""
                                                                     : " stroke-dasharray=\"4 3\"");
      g_string_append (out, "  <text x=\"");
      append_number (out, x + MARGIN + w / 2);
      g_string_append (out, "\" y=\"");
      append_number (out, y + MARGIN + h / 2);
      g_string_append_printf (out, "\" fill=\"%s\" text-anchor=\"middle\" "
                              "dominant-baseline=\"central\">", text);
      append_escaped (out, g_ptr_array_index (labels, i));
      g_string_append (out, "</text>\n");
    }

  g_string_append (out, "</svg>\n");
  return g_string_free (out, FALSE);
}
