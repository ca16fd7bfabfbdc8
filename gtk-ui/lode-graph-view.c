/* lode-graph-view.c — a graph drawn in columns: pan, zoom, keys, selection, blast radius
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <cairo-svg.h>
#include <math.h>

#include "lode-graph-diagram.h"
#include "lode-graph-layout.h"
#include "lode-graph-view.h"
#include "lode-toast.h"

/*
 * The model's nodes are measured with Pango (a bold name, a smaller second line), laid out
 * by lode_graph_layout_run() (liblode: columns along the edges, arrows routed between them)
 * and drawn with Cairo: one drawing function for the screen and for the PNG and SVG exports.
 * An adaptive view lays the columns out as rows instead (edges running down) when that draws
 * the graph larger in the view's shape: the layout runs on the boxes turned a quarter, and
 * node_box(), layout_size() and the edges' transform turn it back.
 * Cards carry their language's colour on their left edge; the focus has a thick accent
 * border; edges and files of cycles are red; the blast radius (everything that reaches a
 * node) is orange and dims the rest. Dragging pans, Ctrl+wheel or pinching zooms, the wheel
 * scrolls; arrows move the selection to the nearest node that way, Enter activates it, + and
 * − zoom, 0 fits, Home goes back to the focus.
 */

#define PAD_X         12.0
#define PAD_Y         7.0
#define STRIPE        5.0
#define RADIUS        6.0
#define ARROW         8.0
#define MARGIN        24.0
#define MIN_SCALE     0.1
#define MIN_FIT_SCALE 0.7
#define MAX_SCALE     3.0
#define WHEEL_STEP    48.0
#define NONE          G_MAXUINT

struct _LodeGraphView
{
  GtkWidget        parent_instance;
  LodeGraphModel  *model;
  LodeGraphLayout *layout;
  GPtrArray       *labels;      /* PangoLayout per node */
  GPtrArray       *details;     /* PangoLayout or NULL per node */
  double           scale;
  double           offset_x;    /* where the layout's origin is drawn */
  double           offset_y;
  double           drag_x;      /* the offset when a drag began */
  double           drag_y;
  double           zoom_start;
  guint            selected;
  guint            focus;
  guint            target;      /* of the blast radius, or NONE */
  GHashTable      *reach;       /* keys reaching the target; NULL when none shown */
  GtkFileChooserNative *chooser; /* of lode_graph_view_save_as(), while it is shown */
  guint            needs_fit : 1;
  guint            adaptive : 1;
  guint            vertical : 1;   /* ranks top to bottom: the layout's x is the view's y */
};

G_DEFINE_FINAL_TYPE (LodeGraphView, lode_graph_view, GTK_TYPE_WIDGET)

enum { SELECTION_CHANGED, NODE_ACTIVATED, N_SIGNALS };
static guint signals [N_SIGNALS];

enum { PROP_0, PROP_ADAPTIVE, N_PROPS };
static GParamSpec *properties [N_PROPS];

/* What a drawing is painted with: the theme's colours on screen, fixed light ones in an
 * exported file. */
typedef struct
{
  GdkRGBA background;
  GdkRGBA card;
  GdkRGBA text;
  GdkRGBA dim_text;
  GdkRGBA edge;
  GdkRGBA accent;
  GdkRGBA cycle;
  GdkRGBA reach;
  gboolean fill_background;
} Palette;

GtkWidget *
lode_graph_view_new (void)
{
  return g_object_new (LODE_TYPE_GRAPH_VIEW, NULL);
}

static const LodeGraphNode *
node_at (LodeGraphView *self,
         guint          node)
{
  return lode_graph_model_get_node (self->model, node);
}

static void
node_box (LodeGraphView   *self,
          guint            node,
          graphene_rect_t *box)
{
  double x, y, w, h;

  lode_graph_layout_get_node (self->layout, node, &x, &y, &w, &h);
  if (self->vertical)
    graphene_rect_init (box, y, x, h, w);
  else
    graphene_rect_init (box, x, y, w, h);
}

/* The size of the whole graph as drawn. */
static void
layout_size (LodeGraphView *self,
             double        *width,
             double        *height)
{
  if (self->vertical)
    lode_graph_layout_get_size (self->layout, height, width);
  else
    lode_graph_layout_get_size (self->layout, width, height);
}

/* Layout coordinates to the widget's and back. */
static void
to_widget (LodeGraphView *self,
           double         x,
           double         y,
           double        *wx,
           double        *wy)
{
  *wx = x * self->scale + self->offset_x;
  *wy = y * self->scale + self->offset_y;
}

static void
to_layout (LodeGraphView *self,
           double         wx,
           double         wy,
           double        *x,
           double        *y)
{
  *x = (wx - self->offset_x) / self->scale;
  *y = (wy - self->offset_y) / self->scale;
}

/* A node's second line, which it may not have. */
static void
free_text (gpointer text)
{
  if (text != NULL)
    g_object_unref (text);
}

static void
clear_layout (LodeGraphView *self)
{
  g_clear_pointer (&self->layout, lode_graph_layout_free);
  g_ptr_array_set_size (self->labels, 0);
  g_ptr_array_set_size (self->details, 0);
}

static PangoLayout *
make_text (LodeGraphView *self,
           const char    *text,
           gboolean       bold,
           double         scale)
{
  PangoLayout *layout = gtk_widget_create_pango_layout (GTK_WIDGET (self), text);
  PangoAttrList *attributes = pango_attr_list_new ();

  if (bold)
    pango_attr_list_insert (attributes, pango_attr_weight_new (PANGO_WEIGHT_BOLD));
  if (scale != 1.0)
    pango_attr_list_insert (attributes, pango_attr_scale_new (scale));
  pango_layout_set_attributes (layout, attributes);
  pango_attr_list_unref (attributes);
  return layout;
}

/* Measures the nodes' texts and lays the model out. */
static void
relayout (LodeGraphView *self)
{
  clear_layout (self);
  self->focus = NONE;
  if (self->model == NULL)
    return;

  self->layout = lode_graph_layout_new ();
  for (guint i = 0; i < lode_graph_model_get_n_nodes (self->model); i++)
    {
      const LodeGraphNode *node = node_at (self, i);
      PangoLayout *label = make_text (self, node->label, node->kind == LODE_GRAPH_NODE_ITEM,
                                      1.0);
      PangoLayout *detail = node->detail != NULL ? make_text (self, node->detail, FALSE, 0.83)
                                                 : NULL;
      int lw, lh, dw = 0, dh = 0;

      pango_layout_get_pixel_size (label, &lw, &lh);
      if (detail != NULL)
        pango_layout_get_pixel_size (detail, &dw, &dh);
      g_ptr_array_add (self->labels, label);
      g_ptr_array_add (self->details, detail);
      if (self->vertical)
        lode_graph_layout_add_node (self->layout, lh + dh + 2 * PAD_Y,
                                    MAX (lw, dw) + 2 * PAD_X + STRIPE);
      else
        lode_graph_layout_add_node (self->layout, MAX (lw, dw) + 2 * PAD_X + STRIPE,
                                    lh + dh + 2 * PAD_Y);
      if (g_strcmp0 (node->key, lode_graph_model_get_focus (self->model)) == 0)
        self->focus = i;
    }
  for (guint i = 0; i < lode_graph_model_get_n_edges (self->model); i++)
    {
      const LodeGraphEdge *edge = lode_graph_model_get_edge (self->model, i);

      lode_graph_layout_add_edge (self->layout, edge->from, edge->to);
    }
  lode_graph_layout_run (self->layout);
}

static void
update_accessible (LodeGraphView *self)
{
  g_autofree char *description = NULL;
  guint n = self->model != NULL ? lode_graph_model_get_n_nodes (self->model) : 0;

  if (self->model != NULL)
    /* Translators: what a screen reader says of the graph; %s is the file it is drawn around. */
    description = g_strdup_printf (g_dngettext (GETTEXT_PACKAGE, "Graph around %s, %u node",
                                                "Graph around %s, %u nodes", n),
                                   lode_graph_model_get_focus (self->model), n);
  gtk_accessible_update_property (GTK_ACCESSIBLE (self), GTK_ACCESSIBLE_PROPERTY_LABEL,
                                  description != NULL ? description : _("Graph"), -1);
}

/* The layout's origin moved so that @node's centre is where it was, at @wx, @wy. */
static void
keep_node_at (LodeGraphView *self,
              guint          node,
              double         wx,
              double         wy)
{
  graphene_rect_t box;

  node_box (self, node, &box);
  self->offset_x = wx - (box.origin.x + box.size.width / 2) * self->scale;
  self->offset_y = wy - (box.origin.y + box.size.height / 2) * self->scale;
}

static void
model_changed_cb (LodeGraphView  *self,
                  LodeGraphModel *model)
{
  g_autofree char *selected = g_strdup (lode_graph_view_get_selected (self));
  graphene_rect_t box;
  double wx = 0, wy = 0;
  guint index;

  /* The node that was expanded stays under the pointer's eyes. */
  if (self->selected != NONE)
    {
      node_box (self, self->selected, &box);
      to_widget (self, box.origin.x + box.size.width / 2, box.origin.y + box.size.height / 2,
                 &wx, &wy);
    }

  relayout (self);
  self->selected = NONE;
  if (selected != NULL && lode_graph_model_lookup (self->model, selected, &index))
    {
      self->selected = index;
      keep_node_at (self, index, wx, wy);
    }
  update_accessible (self);
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * lode_graph_view_set_model:
 * @self: a #LodeGraphView
 * @model: (nullable): the graph to draw
 *
 * Draws @model fitted to the view, its focus selected.
 */
void
lode_graph_view_set_model (LodeGraphView  *self,
                           LodeGraphModel *model)
{
  g_return_if_fail (LODE_IS_GRAPH_VIEW (self));
  g_return_if_fail (!model || LODE_IS_GRAPH_MODEL (model));

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_set_object (&self->model, model);
  if (model != NULL)
    g_signal_connect_object (model, "changed", G_CALLBACK (model_changed_cb), self,
                             G_CONNECT_SWAPPED);

  g_clear_pointer (&self->reach, g_hash_table_unref);
  self->target = NONE;
  relayout (self);
  self->selected = self->focus;
  /* Fitted now when the view has its size, else once it has. */
  lode_graph_view_fit (self);
  update_accessible (self);
  gtk_widget_queue_allocate (GTK_WIDGET (self));
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals [SELECTION_CHANGED], 0);
}

LodeGraphModel *
lode_graph_view_get_model (LodeGraphView *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_VIEW (self), NULL);

  return self->model;
}

/**
 * lode_graph_view_get_selected:
 * @self: a #LodeGraphView
 *
 * Returns: (nullable): the key of the selected node
 */
const char *
lode_graph_view_get_selected (LodeGraphView *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_VIEW (self), NULL);

  return self->selected != NONE && self->model != NULL ? node_at (self, self->selected)->key
                                                       : NULL;
}

/* Pans the least that shows the whole of @node. */
static void
reveal (LodeGraphView *self,
        guint          node)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  graphene_rect_t box;
  double x0, y0, x1, y1;

  node_box (self, node, &box);
  to_widget (self, box.origin.x, box.origin.y, &x0, &y0);
  to_widget (self, box.origin.x + box.size.width, box.origin.y + box.size.height, &x1, &y1);
  if (x0 < MARGIN)
    self->offset_x += MARGIN - x0;
  else if (x1 > width - MARGIN)
    self->offset_x -= MIN (x1 - (width - MARGIN), x0 - MARGIN);
  if (y0 < MARGIN)
    self->offset_y += MARGIN - y0;
  else if (y1 > height - MARGIN)
    self->offset_y -= MIN (y1 - (height - MARGIN), y0 - MARGIN);
}

static void
set_selected (LodeGraphView *self,
              guint          node)
{
  if (self->selected == node)
    return;

  self->selected = node;
  if (node != NONE)
    reveal (self, node);
  gtk_widget_queue_draw (GTK_WIDGET (self));
  g_signal_emit (self, signals [SELECTION_CHANGED], 0);
}

/**
 * lode_graph_view_select:
 * @self: a #LodeGraphView
 * @key: (nullable): a node's key, or %NULL for none
 */
void
lode_graph_view_select (LodeGraphView *self,
                        const char    *key)
{
  guint node = NONE;

  g_return_if_fail (LODE_IS_GRAPH_VIEW (self));

  if (key != NULL && self->model != NULL)
    lode_graph_model_lookup (self->model, key, &node);
  set_selected (self, node);
}

/**
 * lode_graph_view_set_reach:
 * @self: a #LodeGraphView
 * @target: (nullable): the node whose blast radius to show, or %NULL for none
 * @keys: (nullable): the keys of everything that reaches it
 *
 * Highlights @target and the nodes of @keys that are drawn, and dims the others.
 */
void
lode_graph_view_set_reach (LodeGraphView      *self,
                           const char         *target,
                           const char * const *keys)
{
  g_return_if_fail (LODE_IS_GRAPH_VIEW (self));

  g_clear_pointer (&self->reach, g_hash_table_unref);
  self->target = NONE;
  if (target != NULL && self->model != NULL &&
      lode_graph_model_lookup (self->model, target, &self->target))
    {
      self->reach = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
      for (guint i = 0; keys != NULL && keys[i] != NULL; i++)
        g_hash_table_add (self->reach, g_strdup (keys[i]));
    }
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * lode_graph_view_is_reached:
 * @self: a #LodeGraphView
 * @key: a node's key
 *
 * Returns: whether the blast radius shown holds @key
 */
gboolean
lode_graph_view_is_reached (LodeGraphView *self,
                            const char    *key)
{
  g_return_val_if_fail (LODE_IS_GRAPH_VIEW (self), FALSE);

  return self->reach != NULL && g_hash_table_contains (self->reach, key);
}

static gboolean
in_reach (LodeGraphView *self,
          guint          node)
{
  return self->reach != NULL &&
         (node == self->target || g_hash_table_contains (self->reach, node_at (self, node)->key));
}

/* Zooms by @factor around the point @wx, @wy of the widget. */
static void
zoom_at (LodeGraphView *self,
         double         factor,
         double         wx,
         double         wy)
{
  double x, y;
  double scale = CLAMP (self->scale * factor, MIN_SCALE, MAX_SCALE);

  to_layout (self, wx, wy, &x, &y);
  self->scale = scale;
  self->offset_x = wx - x * scale;
  self->offset_y = wy - y * scale;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

/**
 * lode_graph_view_zoom:
 * @self: a #LodeGraphView
 * @factor: > 1 to zoom in, < 1 to zoom out
 *
 * Zooms around the selected node, or the middle of the view.
 */
void
lode_graph_view_zoom (LodeGraphView *self,
                      double         factor)
{
  double wx = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
  double wy = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;

  g_return_if_fail (LODE_IS_GRAPH_VIEW (self));

  if (self->selected != NONE && self->layout != NULL)
    {
      graphene_rect_t box;

      node_box (self, self->selected, &box);
      to_widget (self, box.origin.x + box.size.width / 2, box.origin.y + box.size.height / 2,
                 &wx, &wy);
    }
  zoom_at (self, factor, wx, wy);
}

/**
 * lode_graph_view_fit:
 * @self: a #LodeGraphView
 *
 * Shows the whole graph, at most at its natural size, centred; a graph too large to read
 * that way is shown around its focus, at a size still readable.
 */
/* The scale at which the graph laid out fits the view (1 at most: no larger than life). */
static double
fit_scale (LodeGraphView *self,
           double         width,
           double         height)
{
  double w, h;

  layout_size (self, &w, &h);
  return CLAMP (MIN ((width - 2 * MARGIN) / MAX (w, 1), (height - 2 * MARGIN) / MAX (h, 1)),
                MIN_SCALE, 1.0);
}

/* An adaptive view's columns, unless rows draw the graph larger in the view. */
static void
choose_orientation (LodeGraphView *self,
                    double         width,
                    double         height)
{
  double scale;

  if (!self->adaptive)
    return;
  if (self->vertical)
    {
      self->vertical = FALSE;
      relayout (self);
    }
  scale = fit_scale (self, width, height);
  if (scale >= 1.0)
    return;
  self->vertical = TRUE;
  relayout (self);
  if (fit_scale (self, width, height) <= scale)
    {
      self->vertical = FALSE;
      relayout (self);
    }
}

void
lode_graph_view_fit (LodeGraphView *self)
{
  double width = gtk_widget_get_width (GTK_WIDGET (self));
  double height = gtk_widget_get_height (GTK_WIDGET (self));
  double w, h;

  g_return_if_fail (LODE_IS_GRAPH_VIEW (self));

  if (self->layout == NULL || width <= 0 || height <= 0)
    {
      self->needs_fit = TRUE;
      return;
    }

  choose_orientation (self, width, height);
  layout_size (self, &w, &h);
  self->scale = fit_scale (self, width, height);
  self->offset_x = (width - w * self->scale) / 2;
  self->offset_y = (height - h * self->scale) / 2;
  /* Too large to read whole: readable, around the focus; the rest is a pan or a zoom away. */
  if (self->scale < MIN_FIT_SCALE && self->focus != NONE)
    {
      self->scale = MIN_FIT_SCALE;
      keep_node_at (self, self->focus, width / 2, height / 2);
    }
  self->needs_fit = FALSE;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

double
lode_graph_view_get_scale (LodeGraphView *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_VIEW (self), 1.0);

  return self->scale;
}

/**
 * lode_graph_view_get_node_bounds:
 * @self: a #LodeGraphView
 * @key: a node's key
 * @bounds: (out): where the node is drawn, in the widget's coordinates
 *
 * Returns: whether @key is a node drawn
 */
gboolean
lode_graph_view_get_node_bounds (LodeGraphView   *self,
                                 const char      *key,
                                 graphene_rect_t *bounds)
{
  graphene_rect_t box;
  guint node;
  double x, y;

  g_return_val_if_fail (LODE_IS_GRAPH_VIEW (self), FALSE);

  if (self->layout == NULL || !lode_graph_model_lookup (self->model, key, &node))
    return FALSE;

  node_box (self, node, &box);
  to_widget (self, box.origin.x, box.origin.y, &x, &y);
  graphene_rect_init (bounds, x, y, box.size.width * self->scale, box.size.height * self->scale);
  return TRUE;
}

static guint
node_at_point (LodeGraphView *self,
               double         wx,
               double         wy)
{
  double x, y;

  if (self->layout == NULL)
    return NONE;

  to_layout (self, wx, wy, &x, &y);
  for (guint i = 0; i < lode_graph_model_get_n_nodes (self->model); i++)
    {
      graphene_rect_t box;

      node_box (self, i, &box);
      if (graphene_rect_contains_point (&box, &GRAPHENE_POINT_INIT (x, y)))
        return i;
    }

  return NONE;
}

/* Drawing */

static void
set_source (cairo_t       *cr,
            const GdkRGBA *colour,
            double         alpha)
{
  cairo_set_source_rgba (cr, colour->red, colour->green, colour->blue, colour->alpha * alpha);
}

static void
rounded_rectangle (cairo_t               *cr,
                   const graphene_rect_t *box,
                   double                 radius)
{
  double x = box->origin.x, y = box->origin.y, w = box->size.width, h = box->size.height;

  cairo_new_sub_path (cr);
  cairo_arc (cr, x + w - radius, y + radius, radius, -G_PI / 2, 0);
  cairo_arc (cr, x + w - radius, y + h - radius, radius, 0, G_PI / 2);
  cairo_arc (cr, x + radius, y + h - radius, radius, G_PI / 2, G_PI);
  cairo_arc (cr, x + radius, y + radius, radius, G_PI, 3 * G_PI / 2);
  cairo_close_path (cr);
}

static void
draw_edge (LodeGraphView *self,
           cairo_t       *cr,
           guint          index,
           const Palette *palette)
{
  const LodeGraphEdge *edge = lode_graph_model_get_edge (self->model, index);
  gboolean reached = self->reach != NULL && in_reach (self, edge->from) &&
                     in_reach (self, edge->to);
  const GdkRGBA *colour = reached ? &palette->reach : edge->in_cycle ? &palette->cycle
                                                                     : &palette->edge;
  double alpha = self->reach != NULL && !reached ? 0.25 : 1.0;
  guint n;
  const double *p = lode_graph_layout_get_edge_points (self->layout, index, &n);
  double dx = 0;

  if (n < 2)
    return;

  /* Routed along the layout's columns: turned a quarter with the boxes in rows. */
  cairo_save (cr);
  if (self->vertical)
    cairo_transform (cr, &(cairo_matrix_t) { 0, 1, 1, 0, 0, 0 });
  cairo_move_to (cr, p[0], p[1]);
  for (guint i = 0; i + 1 < n; i++)
    {
      const double *a = p + 2 * i;
      const double *b = a + 2;
      double mid = (a[0] + b[0]) / 2;

      if (i % 2 == 0)
        cairo_line_to (cr, b[0], b[1]);
      else
        cairo_curve_to (cr, mid, a[1], mid, b[1], b[0], b[1]);
      if (b[0] != a[0])
        dx = b[0] - a[0];
    }
  set_source (cr, colour, alpha);
  cairo_set_line_width (cr, (reached ? 2.0 : 1.2) + MIN (log2 (edge->count), 3.0) * 0.6);
  cairo_stroke (cr);

  /* The head, along the last stretch, left or right. */
  {
    double x = p[2 * n - 2], y = p[2 * n - 1];
    double d = dx >= 0 ? 1 : -1;

    cairo_move_to (cr, x, y);
    cairo_line_to (cr, x - d * ARROW, y - ARROW / 2);
    cairo_line_to (cr, x - d * ARROW, y + ARROW / 2);
    cairo_close_path (cr);
    cairo_fill (cr);
  }
  cairo_restore (cr);
}

static void
draw_node (LodeGraphView *self,
           cairo_t       *cr,
           guint          index,
           const Palette *palette)
{
  const LodeGraphNode *node = node_at (self, index);
  PangoLayout *label = g_ptr_array_index (self->labels, index);
  PangoLayout *detail = g_ptr_array_index (self->details, index);
  gboolean dimmed = self->reach != NULL && !in_reach (self, index);
  double alpha = dimmed ? 0.3 : 1.0;
  const char *fill, *text_colour;
  GdkRGBA stripe;
  graphene_rect_t box;
  int label_height;

  node_box (self, index, &box);
  lode_graph_language_colours (node->language, &fill, &text_colour);
  gdk_rgba_parse (&stripe, node->kind == LODE_GRAPH_NODE_MORE ? "#9a9996" : fill);

  /* The card, its language's stripe, a tint when selected or reached. */
  rounded_rectangle (cr, &box, RADIUS);
  set_source (cr, &palette->card, alpha);
  cairo_fill_preserve (cr);
  if (index == self->selected)
    {
      set_source (cr, &palette->accent, 0.18 * alpha);
      cairo_fill_preserve (cr);
    }
  else if (self->reach != NULL && in_reach (self, index) && index != self->target)
    {
      set_source (cr, &palette->reach, 0.15);
      cairo_fill_preserve (cr);
    }
  cairo_save (cr);
  cairo_clip (cr);
  cairo_rectangle (cr, box.origin.x, box.origin.y, STRIPE, box.size.height);
  set_source (cr, &stripe, alpha);
  cairo_fill (cr);
  cairo_restore (cr);

  /* The border says what the node is: the focus, the blast radius's target or one of its
   * nodes, a file of a cycle, a group of files. */
  rounded_rectangle (cr, &box, RADIUS);
  if (index == self->focus || index == self->target)
    {
      set_source (cr, index == self->target ? &palette->reach : &palette->accent, 1.0);
      cairo_set_line_width (cr, 3.0);
    }
  else if (self->reach != NULL && in_reach (self, index))
    {
      set_source (cr, &palette->reach, 1.0);
      cairo_set_line_width (cr, 2.0);
    }
  else if (node->in_cycle)
    {
      set_source (cr, &palette->cycle, alpha);
      cairo_set_line_width (cr, 1.5);
    }
  else
    {
      set_source (cr, &palette->dim_text, 0.5 * alpha);
      cairo_set_line_width (cr, 1.0);
    }
  if (node->kind != LODE_GRAPH_NODE_ITEM)
    cairo_set_dash (cr, (double[]) { 4.0, 3.0 }, 2, 0);
  cairo_stroke (cr);
  cairo_set_dash (cr, NULL, 0, 0);

  /* A cycle's files carry a red dot in their corner as well. */
  if (node->in_cycle)
    {
      cairo_arc (cr, box.origin.x + box.size.width - 6, box.origin.y + 6, 3, 0, 2 * G_PI);
      set_source (cr, &palette->cycle, alpha);
      cairo_fill (cr);
    }

  pango_layout_get_pixel_size (label, NULL, &label_height);
  set_source (cr, node->kind == LODE_GRAPH_NODE_MORE ? &palette->dim_text : &palette->text,
              alpha);
  cairo_move_to (cr, box.origin.x + STRIPE + PAD_X, box.origin.y + PAD_Y);
  pango_cairo_show_layout (cr, label);
  if (detail != NULL)
    {
      set_source (cr, &palette->dim_text, alpha);
      cairo_move_to (cr, box.origin.x + STRIPE + PAD_X, box.origin.y + PAD_Y + label_height);
      pango_cairo_show_layout (cr, detail);
    }
}

/* The whole graph in layout coordinates. */
static void
draw_graph (LodeGraphView *self,
            cairo_t       *cr,
            const Palette *palette)
{
  for (guint i = 0; i < lode_graph_model_get_n_edges (self->model); i++)
    draw_edge (self, cr, i, palette);
  for (guint i = 0; i < lode_graph_model_get_n_nodes (self->model); i++)
    draw_node (self, cr, i, palette);
}

static void
lookup_colour (GtkStyleContext *context,
               const char      *name,
               const char      *fallback,
               GdkRGBA         *colour)
{
  if (!gtk_style_context_lookup_color (context, name, colour))
    gdk_rgba_parse (colour, fallback);
}

/* The theme's colours, light or dark; @exported: the light ones, on white. */
static void
get_palette (LodeGraphView *self,
             gboolean       exported,
             Palette       *palette)
{
  GtkStyleContext *context = gtk_widget_get_style_context (GTK_WIDGET (self));

  gdk_rgba_parse (&palette->cycle, "#e01b24");
  gdk_rgba_parse (&palette->reach, "#e66100");
  palette->fill_background = exported;
  if (exported)
    {
      gdk_rgba_parse (&palette->background, "#ffffff");
      gdk_rgba_parse (&palette->card, "#ffffff");
      gdk_rgba_parse (&palette->text, "#241f31");
      gdk_rgba_parse (&palette->dim_text, "#5e5c64");
      gdk_rgba_parse (&palette->edge, "#77767b");
      gdk_rgba_parse (&palette->accent, "#3584e4");
      return;
    }

  lookup_colour (context, "view_bg_color", "#ffffff", &palette->background);
  lookup_colour (context, "card_bg_color", "#ffffff", &palette->card);
  lookup_colour (context, "view_fg_color", "#241f31", &palette->text);
  palette->dim_text = palette->text;
  palette->dim_text.alpha *= 0.6;
  palette->edge = palette->text;
  palette->edge.alpha *= 0.55;
  lookup_colour (context, "accent_bg_color", "#3584e4", &palette->accent);
  lookup_colour (context, "error_color", "#e01b24", &palette->cycle);
}

static void
lode_graph_view_snapshot (GtkWidget   *widget,
                          GtkSnapshot *snapshot)
{
  LodeGraphView *self = LODE_GRAPH_VIEW (widget);
  double width = gtk_widget_get_width (widget);
  double height = gtk_widget_get_height (widget);
  Palette palette;
  cairo_t *cr;

  if (self->layout == NULL || width <= 0 || height <= 0)
    return;

  get_palette (self, FALSE, &palette);
  cr = gtk_snapshot_append_cairo (snapshot, &GRAPHENE_RECT_INIT (0, 0, width, height));
  cairo_translate (cr, self->offset_x, self->offset_y);
  cairo_scale (cr, self->scale, self->scale);
  draw_graph (self, cr, &palette);
  cairo_destroy (cr);
}

static void
lode_graph_view_size_allocate (GtkWidget *widget,
                               int        width,
                               int        height,
                               int        baseline)
{
  LodeGraphView *self = LODE_GRAPH_VIEW (widget);

  if (self->needs_fit)
    lode_graph_view_fit (self);
}

/**
 * lode_graph_view_set_adaptive:
 * @self: a #LodeGraphView
 * @adaptive: whether the graph may be laid out in rows
 *
 * An adaptive view draws the graph in rows, edges running down, when that shows it larger in
 * the view's shape than columns (a long chain of calls in a narrow pane).
 */
void
lode_graph_view_set_adaptive (LodeGraphView *self,
                              gboolean       adaptive)
{
  g_return_if_fail (LODE_IS_GRAPH_VIEW (self));

  adaptive = !!adaptive;
  if (self->adaptive == adaptive)
    return;
  self->adaptive = adaptive;
  if (!adaptive && self->vertical)
    {
      self->vertical = FALSE;
      relayout (self);
    }
  lode_graph_view_fit (self);
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_ADAPTIVE]);
}

/**
 * lode_graph_view_is_vertical:
 * @self: a #LodeGraphView
 *
 * Returns: whether the graph is drawn in rows, edges running down
 */
gboolean
lode_graph_view_is_vertical (LodeGraphView *self)
{
  g_return_val_if_fail (LODE_IS_GRAPH_VIEW (self), FALSE);

  return self->vertical;
}

/**
 * lode_graph_view_export:
 * @self: a #LodeGraphView
 * @file: where to write
 * @svg: %TRUE for an SVG document, %FALSE for a PNG picture (at twice the size)
 * @error: return location for a #GError
 *
 * Writes the whole graph, at its natural size on white, in light colours.
 *
 * Returns: whether the file was written
 */
gboolean
lode_graph_view_export (LodeGraphView  *self,
                        GFile          *file,
                        gboolean        svg,
                        GError        **error)
{
  g_autofree char *path = NULL;
  cairo_surface_t *surface;
  cairo_status_t status;
  Palette palette;
  double w, h;
  cairo_t *cr;

  g_return_val_if_fail (LODE_IS_GRAPH_VIEW (self), FALSE);
  g_return_val_if_fail (G_IS_FILE (file), FALSE);

  path = g_file_get_path (file);
  if (path == NULL || self->layout == NULL)
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_NOT_SUPPORTED,
                           path == NULL ? _("Only local files can be written")
                                        : _("There is no graph to export"));
      return FALSE;
    }

  layout_size (self, &w, &h);
  w += 2 * MARGIN;
  h += 2 * MARGIN;
  if (svg)
    surface = cairo_svg_surface_create (path, w, h);
  else
    {
      surface = cairo_image_surface_create (CAIRO_FORMAT_ARGB32, (int) ceil (w * 2),
                                            (int) ceil (h * 2));
      cairo_surface_set_device_scale (surface, 2, 2);
    }

  get_palette (self, TRUE, &palette);
  cr = cairo_create (surface);
  set_source (cr, &palette.background, 1.0);
  cairo_paint (cr);
  cairo_translate (cr, MARGIN, MARGIN);
  draw_graph (self, cr, &palette);
  status = cairo_status (cr);
  cairo_destroy (cr);

  if (status == CAIRO_STATUS_SUCCESS && !svg)
    status = cairo_surface_write_to_png (surface, path);
  cairo_surface_finish (surface);
  if (status == CAIRO_STATUS_SUCCESS)
    status = cairo_surface_status (surface);
  cairo_surface_destroy (surface);

  if (status != CAIRO_STATUS_SUCCESS)
    {
      g_set_error (error, G_IO_ERROR, G_IO_ERROR_FAILED,
                   /* Translators: %s is a file, the second why it could not be written. */
                   _("Cannot write %s: %s"), path, cairo_status_to_string (status));
      return FALSE;
    }

  return TRUE;
}

static void
chooser_response_cb (LodeGraphView        *self,
                     int                   response,
                     GtkFileChooserNative *chooser)
{
  g_autoptr(GFile) file = gtk_file_chooser_get_file (GTK_FILE_CHOOSER (chooser));
  gboolean svg = GPOINTER_TO_INT (g_object_get_data (G_OBJECT (chooser), "lode-svg"));
  g_autoptr(GError) error = NULL;

  if (response == GTK_RESPONSE_ACCEPT && file != NULL)
    {
      if (lode_graph_view_export (self, file, svg, &error))
        {
          g_autofree char *name = g_file_get_basename (file);
          /* Translators: %s is a file name. */
          g_autofree char *saved = g_strdup_printf (_("Saved %s"), name);

          lode_toast_show (GTK_WIDGET (self), saved);
        }
      else
        lode_toast_show_error (GTK_WIDGET (self), _("Cannot export the graph"), error);
    }
  g_clear_object (&self->chooser);
}

/**
 * lode_graph_view_save_as:
 * @self: a #LodeGraphView
 * @svg: %TRUE for SVG, %FALSE for PNG
 * @name: the file name suggested
 *
 * Asks where to export the graph (lode_graph_view_export()), and says when it is saved.
 */
void
lode_graph_view_save_as (LodeGraphView *self,
                         gboolean       svg,
                         const char    *name)
{
  GtkRoot *root;

  g_return_if_fail (LODE_IS_GRAPH_VIEW (self));
  g_return_if_fail (name != NULL);

  root = gtk_widget_get_root (GTK_WIDGET (self));
  g_clear_object (&self->chooser);
  self->chooser = gtk_file_chooser_native_new (svg ? _("Export the Graph as SVG")
                                                   : _("Export the Graph as PNG"),
                                               GTK_IS_WINDOW (root) ? GTK_WINDOW (root) : NULL,
                                               GTK_FILE_CHOOSER_ACTION_SAVE, _("_Export"),
                                               NULL);
  gtk_file_chooser_set_current_name (GTK_FILE_CHOOSER (self->chooser), name);
  g_object_set_data (G_OBJECT (self->chooser), "lode-svg", GINT_TO_POINTER (svg));
  g_signal_connect_object (self->chooser, "response", G_CALLBACK (chooser_response_cb), self,
                           G_CONNECT_SWAPPED);
  gtk_native_dialog_show (GTK_NATIVE_DIALOG (self->chooser));
}

/* Input */

static void
click_pressed_cb (GtkGestureClick *gesture,
                  int              n_press,
                  double           x,
                  double           y,
                  LodeGraphView   *self)
{
  guint node = node_at_point (self, x, y);

  gtk_widget_grab_focus (GTK_WIDGET (self));
  if (node == NONE)
    return;

  set_selected (self, node);
  if (n_press == 2)
    g_signal_emit (self, signals [NODE_ACTIVATED], 0, node_at (self, node)->key);
}

static void
drag_begin_cb (GtkGestureDrag *gesture,
               double          x,
               double          y,
               LodeGraphView  *self)
{
  self->drag_x = self->offset_x;
  self->drag_y = self->offset_y;
}

static void
drag_update_cb (GtkGestureDrag *gesture,
                double          dx,
                double          dy,
                LodeGraphView  *self)
{
  self->offset_x = self->drag_x + dx;
  self->offset_y = self->drag_y + dy;
  gtk_widget_queue_draw (GTK_WIDGET (self));
}

static gboolean
scroll_cb (GtkEventControllerScroll *controller,
           double                    dx,
           double                    dy,
           LodeGraphView            *self)
{
  GdkEvent *event = gtk_event_controller_get_current_event (GTK_EVENT_CONTROLLER (controller));
  GdkModifierType state = gtk_event_controller_get_current_event_state (
                            GTK_EVENT_CONTROLLER (controller));
  double step = gtk_event_controller_scroll_get_unit (controller) == GDK_SCROLL_UNIT_WHEEL
                ? WHEEL_STEP : 1.0;

  if (state & GDK_CONTROL_MASK)
    {
      double x = gtk_widget_get_width (GTK_WIDGET (self)) / 2.0;
      double y = gtk_widget_get_height (GTK_WIDGET (self)) / 2.0;

      if (event != NULL)
        gdk_event_get_position (event, &x, &y);
      zoom_at (self, pow (1.15, -dy * (step > 1 ? 1 : 0.05)), x, y);
      return TRUE;
    }

  self->offset_x -= dx * step;
  self->offset_y -= dy * step;
  gtk_widget_queue_draw (GTK_WIDGET (self));
  return TRUE;
}

static void
zoom_begin_cb (GtkGesture       *gesture,
               GdkEventSequence *sequence,
               LodeGraphView    *self)
{
  self->zoom_start = self->scale;
}

static void
zoom_changed_cb (GtkGestureZoom *gesture,
                 double          scale,
                 LodeGraphView  *self)
{
  double x, y;

  gtk_gesture_get_bounding_box_center (GTK_GESTURE (gesture), &x, &y);
  zoom_at (self, self->zoom_start * scale / self->scale, x, y);
}

/* The nearest node whose centre lies that way from the selected one's, straight lines
 * preferred. */
static guint
neighbour_towards (LodeGraphView *self,
                   int            dx,
                   int            dy)
{
  graphene_rect_t from;
  double fx, fy;
  guint best = NONE;
  double best_score = G_MAXDOUBLE;

  node_box (self, self->selected, &from);
  fx = from.origin.x + from.size.width / 2;
  fy = from.origin.y + from.size.height / 2;
  for (guint i = 0; i < lode_graph_model_get_n_nodes (self->model); i++)
    {
      graphene_rect_t box;
      double along, across, score;

      if (i == self->selected)
        continue;
      node_box (self, i, &box);
      along = (box.origin.x + box.size.width / 2 - fx) * dx +
              (box.origin.y + box.size.height / 2 - fy) * dy;
      across = fabs ((box.origin.x + box.size.width / 2 - fx) * dy) +
               fabs ((box.origin.y + box.size.height / 2 - fy) * dx);
      if (along <= 1)
        continue;
      score = along + 2 * across;
      if (score < best_score)
        {
          best_score = score;
          best = i;
        }
    }

  return best;
}

static gboolean
key_pressed_cb (GtkEventControllerKey *controller,
                guint                  keyval,
                guint                  keycode,
                GdkModifierType        state,
                LodeGraphView         *self)
{
  int dx = 0, dy = 0;

  if (self->layout == NULL || (state & (GDK_CONTROL_MASK | GDK_ALT_MASK)) != 0)
    return FALSE;

  switch (keyval)
    {
    case GDK_KEY_Left:
    case GDK_KEY_KP_Left:
      dx = -1;
      break;
    case GDK_KEY_Right:
    case GDK_KEY_KP_Right:
      dx = 1;
      break;
    case GDK_KEY_Up:
    case GDK_KEY_KP_Up:
      dy = -1;
      break;
    case GDK_KEY_Down:
    case GDK_KEY_KP_Down:
      dy = 1;
      break;
    case GDK_KEY_Return:
    case GDK_KEY_KP_Enter:
    case GDK_KEY_space:
      if (self->selected != NONE)
        g_signal_emit (self, signals [NODE_ACTIVATED], 0, node_at (self, self->selected)->key);
      return TRUE;
    case GDK_KEY_plus:
    case GDK_KEY_equal:
    case GDK_KEY_KP_Add:
      lode_graph_view_zoom (self, 1.25);
      return TRUE;
    case GDK_KEY_minus:
    case GDK_KEY_KP_Subtract:
      lode_graph_view_zoom (self, 0.8);
      return TRUE;
    case GDK_KEY_0:
    case GDK_KEY_KP_0:
      lode_graph_view_fit (self);
      return TRUE;
    case GDK_KEY_Home:
      set_selected (self, self->focus);
      return TRUE;
    default:
      return FALSE;
    }

  if (self->selected == NONE)
    set_selected (self, self->focus != NONE ? self->focus : 0);
  else
    {
      guint next = neighbour_towards (self, dx, dy);

      if (next != NONE)
        set_selected (self, next);
    }
  return TRUE;
}

static void
lode_graph_view_dispose (GObject *object)
{
  LodeGraphView *self = (LodeGraphView *)object;

  if (self->model != NULL)
    g_signal_handlers_disconnect_by_data (self->model, self);
  g_clear_object (&self->chooser);
  g_clear_object (&self->model);
  clear_layout (self);
  g_clear_pointer (&self->reach, g_hash_table_unref);

  G_OBJECT_CLASS (lode_graph_view_parent_class)->dispose (object);
}

static void
lode_graph_view_finalize (GObject *object)
{
  LodeGraphView *self = (LodeGraphView *)object;

  g_ptr_array_unref (self->labels);
  g_ptr_array_unref (self->details);

  G_OBJECT_CLASS (lode_graph_view_parent_class)->finalize (object);
}

static void
lode_graph_view_get_property (GObject    *object,
                              guint       prop_id,
                              GValue     *value,
                              GParamSpec *pspec)
{
  LodeGraphView *self = LODE_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_ADAPTIVE:
      g_value_set_boolean (value, self->adaptive);
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_graph_view_set_property (GObject      *object,
                              guint         prop_id,
                              const GValue *value,
                              GParamSpec   *pspec)
{
  LodeGraphView *self = LODE_GRAPH_VIEW (object);

  switch (prop_id)
    {
    case PROP_ADAPTIVE:
      lode_graph_view_set_adaptive (self, g_value_get_boolean (value));
      break;
    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_graph_view_class_init (LodeGraphViewClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);
  GtkWidgetClass *widget_class = GTK_WIDGET_CLASS (klass);

  object_class->dispose = lode_graph_view_dispose;
  object_class->finalize = lode_graph_view_finalize;
  object_class->get_property = lode_graph_view_get_property;
  object_class->set_property = lode_graph_view_set_property;

  /**
   * LodeGraphView:adaptive:
   *
   * Whether the graph is drawn in rows when that shows it larger (lode_graph_view_set_adaptive()).
   */
  properties [PROP_ADAPTIVE] =
    g_param_spec_boolean ("adaptive", NULL, NULL, FALSE,
                          (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));
  g_object_class_install_properties (object_class, N_PROPS, properties);
  widget_class->snapshot = lode_graph_view_snapshot;
  widget_class->size_allocate = lode_graph_view_size_allocate;

  /**
   * LodeGraphView::selection-changed:
   *
   * Another node was selected (lode_graph_view_get_selected()), or none.
   */
  signals [SELECTION_CHANGED] =
    g_signal_new ("selection-changed", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 0);
  /**
   * LodeGraphView::node-activated:
   * @key: the node's key
   *
   * A node was double-clicked, or Enter pressed on it: draw the graph around it.
   */
  signals [NODE_ACTIVATED] =
    g_signal_new ("node-activated", G_TYPE_FROM_CLASS (klass), G_SIGNAL_RUN_LAST, 0,
                  NULL, NULL, NULL, G_TYPE_NONE, 1, G_TYPE_STRING);

  gtk_widget_class_set_css_name (widget_class, "lode-graph-view");
  gtk_widget_class_set_accessible_role (widget_class, GTK_ACCESSIBLE_ROLE_IMG);
}

static void
lode_graph_view_init (LodeGraphView *self)
{
  GtkGesture *click = gtk_gesture_click_new ();
  GtkGesture *drag = gtk_gesture_drag_new ();
  GtkGesture *zoom = gtk_gesture_zoom_new ();
  GtkEventController *scroll = gtk_event_controller_scroll_new (
                                 GTK_EVENT_CONTROLLER_SCROLL_BOTH_AXES);
  GtkEventController *keys = gtk_event_controller_key_new ();

  self->labels = g_ptr_array_new_with_free_func (g_object_unref);
  self->details = g_ptr_array_new_with_free_func (free_text);
  self->scale = 1.0;
  self->selected = NONE;
  self->focus = NONE;
  self->target = NONE;

  gtk_widget_set_focusable (GTK_WIDGET (self), TRUE);
  gtk_widget_set_hexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_vexpand (GTK_WIDGET (self), TRUE);
  gtk_widget_set_overflow (GTK_WIDGET (self), GTK_OVERFLOW_HIDDEN);

  g_signal_connect (click, "pressed", G_CALLBACK (click_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (click));
  g_signal_connect (drag, "drag-begin", G_CALLBACK (drag_begin_cb), self);
  g_signal_connect (drag, "drag-update", G_CALLBACK (drag_update_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (drag));
  g_signal_connect (zoom, "begin", G_CALLBACK (zoom_begin_cb), self);
  g_signal_connect (zoom, "scale-changed", G_CALLBACK (zoom_changed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), GTK_EVENT_CONTROLLER (zoom));
  g_signal_connect (scroll, "scroll", G_CALLBACK (scroll_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), scroll);
  g_signal_connect (keys, "key-pressed", G_CALLBACK (key_pressed_cb), self);
  gtk_widget_add_controller (GTK_WIDGET (self), keys);

  update_accessible (self);
}
