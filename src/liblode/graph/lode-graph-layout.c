/* lode-graph-layout.c — a layered drawing of a directed graph, left to right
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-graph"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-graph-layout.h"

/*
 * Sugiyama's method, as dot does it, in four steps over boxes of given sizes:
 *
 * 1. Cycles: a depth-first walk from the sources reverses each edge that closes a cycle, so
 *    that what is left has an order; reversed edges are drawn back the other way.
 * 2. Columns: each box goes one column right of the farthest box importing it (longest
 *    path); then a box with more arrows out than in moves right, next to the nearest box it
 *    imports, which shortens arrows. Arrows longer than one column get a chain of invisible
 *    boxes, one per column they cross, so that they are routed around boxes, not through.
 * 3. Order in each column: sweeps right and left put each box at the mean position of its
 *    neighbours in the previous column (barycentre), keeping the order with the fewest
 *    crossings (counted with a Fenwick tree, in E log V), then neighbours are swapped where
 *    that removes crossings.
 * 4. Heights: sweeps place each column's boxes as near as possible to the mean height of
 *    their neighbours without overlapping, which is an isotonic regression solved exactly by
 *    pooling adjacent violators; the invisible boxes weigh more, so long arrows run straight.
 *
 * Arrows leave a box on its right side and enter the next one on its left, through the gap
 * between columns: the points of an edge are, for each column it runs through, the entry and
 * exit of the straight stretch it runs in there. Nothing here is quadratic in the
 * size of the graph except the swaps of step 3, which stop after a few passes.
 */

#define UNSET             G_MAXUINT
#define DUMMY_HEIGHT      4.0
#define ORDER_SWEEPS      24
#define ORDER_PATIENCE    6
#define SWAP_PASSES       12
#define PLACE_SWEEPS      12
#define DUMMY_WEIGHT      4.0
#define REVERSED_OFFSET   6.0

typedef struct
{
  double width;
  double height;
  double x;
  double y;            /* the top */
  guint  column;
  guint  position;     /* in its column */
  guint  dummy : 1;
} Node;

typedef struct
{
  guint   from;
  guint   to;
  guint   same_as;     /* the first edge between the same ends, or UNSET */
  guint   reversed : 1;
  GArray *chain;       /* (nullable): node ids from the left end to the right end */
  GArray *points;      /* doubles: x, y, … from @from to @to */
} Edge;

struct _LodeGraphLayout
{
  GArray     *nodes;       /* Node; the first n_real are the caller's */
  GArray     *edges;       /* Edge, in the caller's order */
  guint       n_real;
  guint       n_columns;
  GPtrArray  *columns;     /* GArray of node ids, in order, per column */
  guint      *up_start;    /* CSR of each node's neighbours one column left */
  guint      *up;
  guint      *down_start;  /* and one column right */
  guint      *down;
  double      width;
  double      height;
  guint       done : 1;
};

LodeGraphLayout *
lode_graph_layout_new (void)
{
  LodeGraphLayout *self = g_new0 (LodeGraphLayout, 1);

  self->nodes = g_array_new (FALSE, TRUE, sizeof (Node));
  self->edges = g_array_new (FALSE, TRUE, sizeof (Edge));
  self->columns = g_ptr_array_new_with_free_func ((GDestroyNotify) g_array_unref);

  return self;
}

void
lode_graph_layout_free (LodeGraphLayout *self)
{
  if (self == NULL)
    return;

  for (guint i = 0; i < self->edges->len; i++)
    {
      Edge *edge = &g_array_index (self->edges, Edge, i);

      g_clear_pointer (&edge->chain, g_array_unref);
      g_clear_pointer (&edge->points, g_array_unref);
    }
  g_array_unref (self->nodes);
  g_array_unref (self->edges);
  g_ptr_array_unref (self->columns);
  g_free (self->up_start);
  g_free (self->up);
  g_free (self->down_start);
  g_free (self->down);
  g_free (self);
}

/**
 * lode_graph_layout_add_node:
 * @self: a layout not run yet
 * @width: the box's width
 * @height: its height
 *
 * Returns: the box's id, counting from 0
 */
guint
lode_graph_layout_add_node (LodeGraphLayout *self,
                            double           width,
                            double           height)
{
  Node node = { 0 };

  g_return_val_if_fail (self != NULL && !self->done, 0);

  node.width = MAX (width, 0.0);
  node.height = MAX (height, 0.0);
  g_array_append_val (self->nodes, node);
  self->n_real = self->nodes->len;

  return self->nodes->len - 1;
}

/**
 * lode_graph_layout_add_edge:
 * @self: a layout not run yet
 * @from: the box the arrow starts at
 * @to: the box it points to
 *
 * Returns: the edge's id, counting from 0
 */
guint
lode_graph_layout_add_edge (LodeGraphLayout *self,
                            guint            from,
                            guint            to)
{
  Edge edge = { 0 };

  g_return_val_if_fail (self != NULL && !self->done, 0);
  g_return_val_if_fail (from < self->nodes->len && to < self->nodes->len, 0);

  edge.from = from;
  edge.to = to;
  edge.same_as = UNSET;
  edge.points = g_array_new (FALSE, FALSE, sizeof (double));
  g_array_append_val (self->edges, edge);

  return self->edges->len - 1;
}

static Node *
node_at (LodeGraphLayout *self,
         guint            id)
{
  return &g_array_index (self->nodes, Node, id);
}

/* The edges that take part: no loops, one of each pair of ends. */
static GArray *
distinct_edges (LodeGraphLayout *self)
{
  g_autoptr(GHashTable) seen = g_hash_table_new_full (g_int64_hash, g_int64_equal, g_free,
                                                      NULL);
  GArray *ids = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < self->edges->len; i++)
    {
      Edge *edge = &g_array_index (self->edges, Edge, i);
      gint64 key = ((gint64) edge->from << 32) | edge->to;
      gpointer first;

      if (edge->from == edge->to)
        continue;
      if (g_hash_table_lookup_extended (seen, &key, NULL, &first))
        {
          edge->same_as = GPOINTER_TO_UINT (first);
          continue;
        }
      g_hash_table_insert (seen, g_memdup2 (&key, sizeof key), GUINT_TO_POINTER (i));
      g_array_append_val (ids, i);
    }

  return ids;
}

/* Compressed rows of @n nodes from pairs (a → b) or, with @reverse, (b → a). */
static void
build_rows (guint          n,
            const guint   *pairs,
            guint          n_pairs,
            gboolean       reverse,
            guint        **start,
            guint        **targets)
{
  g_autofree guint *fill = g_new0 (guint, n + 1);

  *start = g_new0 (guint, n + 1);
  *targets = g_new (guint, MAX (n_pairs, 1));
  for (guint i = 0; i < n_pairs; i++)
    (*start)[pairs[2 * i + (reverse ? 1 : 0)] + 1]++;
  for (guint i = 0; i < n; i++)
    (*start)[i + 1] += (*start)[i];
  for (guint i = 0; i < n_pairs; i++)
    {
      guint a = pairs[2 * i + (reverse ? 1 : 0)];

      (*targets)[(*start)[a] + fill[a]++] = pairs[2 * i + (reverse ? 0 : 1)];
    }
}

typedef struct
{
  guint node;
  guint next;     /* index into the node's row */
} Frame;

/* Step 1: a depth-first walk from sources first; an edge back to a box on the walk's path
 * closes a cycle and is reversed. */
static void
break_cycles (LodeGraphLayout *self,
              GArray          *ids)
{
  guint n = self->n_real;
  g_autofree guint *pairs = g_new (guint, 2 * MAX (ids->len, 1));
  g_autofree guint *start = NULL;
  g_autofree guint *targets = NULL;
  g_autofree guint *slot_edge = NULL;
  g_autofree guint8 *state = g_new0 (guint8, MAX (n, 1));
  g_autofree guint *in_degree = g_new0 (guint, MAX (n, 1));
  g_autoptr(GArray) stack = g_array_new (FALSE, FALSE, sizeof (Frame));
  g_autoptr(GArray) roots = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < ids->len; i++)
    {
      const Edge *edge = &g_array_index (self->edges, Edge, g_array_index (ids, guint, i));

      pairs[2 * i] = edge->from;
      pairs[2 * i + 1] = edge->to;
      in_degree[edge->to]++;
    }
  build_rows (n, pairs, ids->len, FALSE, &start, &targets);

  /* Which edge each slot of the rows is: the rows were filled in the order of @ids. */
  slot_edge = g_new (guint, MAX (ids->len, 1));
  {
    g_autofree guint *fill = g_new0 (guint, MAX (n, 1));

    for (guint i = 0; i < ids->len; i++)
      slot_edge[start[pairs[2 * i]] + fill[pairs[2 * i]]++] = g_array_index (ids, guint, i);
  }

  for (guint i = 0; i < n; i++)
    if (in_degree[i] == 0)
      g_array_append_val (roots, i);
  for (guint i = 0; i < n; i++)
    if (in_degree[i] != 0)
      g_array_append_val (roots, i);

  for (guint r = 0; r < roots->len; r++)
    {
      Frame frame = { g_array_index (roots, guint, r), 0 };

      if (state[frame.node] != 0)
        continue;
      state[frame.node] = 1;
      frame.next = start[frame.node];
      g_array_append_val (stack, frame);

      while (stack->len > 0)
        {
          Frame *top = &g_array_index (stack, Frame, stack->len - 1);

          if (top->next < start[top->node + 1])
            {
              guint slot = top->next++;
              guint next = targets[slot];

              if (state[next] == 1)
                g_array_index (self->edges, Edge, slot_edge[slot]).reversed = TRUE;
              else if (state[next] == 0)
                {
                  Frame child = { next, start[next] };

                  state[next] = 1;
                  g_array_append_val (stack, child);   /* may move @top */
                }
              continue;
            }

          state[top->node] = 2;
          g_array_set_size (stack, stack->len - 1);
        }
    }
}

/* The edge's ends in drawing order: left to right. */
static void
edge_ends (const Edge *edge,
           guint      *left,
           guint      *right)
{
  *left = edge->reversed ? edge->to : edge->from;
  *right = edge->reversed ? edge->from : edge->to;
}

/* Step 2: columns by the longest path, then boxes pulled right towards what they import. */
static void
assign_columns (LodeGraphLayout *self,
                GArray          *ids)
{
  guint n = self->n_real;
  g_autofree guint *pairs = g_new (guint, 2 * MAX (ids->len, 1));
  g_autofree guint *out_start = NULL;
  g_autofree guint *out = NULL;
  g_autofree guint *in_start = NULL;
  g_autofree guint *in = NULL;
  g_autofree guint *waiting = g_new0 (guint, MAX (n, 1));
  g_autofree guint *order = g_new (guint, MAX (n, 1));
  guint head = 0;
  guint tail = 0;
  guint min_column = G_MAXUINT;

  for (guint i = 0; i < ids->len; i++)
    edge_ends (&g_array_index (self->edges, Edge, g_array_index (ids, guint, i)),
               &pairs[2 * i], &pairs[2 * i + 1]);
  build_rows (n, pairs, ids->len, FALSE, &out_start, &out);
  build_rows (n, pairs, ids->len, TRUE, &in_start, &in);

  /* Kahn's order; the reversed edges left no cycle. */
  for (guint i = 0; i < n; i++)
    {
      waiting[i] = in_start[i + 1] - in_start[i];
      node_at (self, i)->column = 0;
      if (waiting[i] == 0)
        order[tail++] = i;
    }
  while (head < tail)
    {
      guint v = order[head++];

      for (guint j = out_start[v]; j < out_start[v + 1]; j++)
        {
          guint w = out[j];

          node_at (self, w)->column = MAX (node_at (self, w)->column,
                                           node_at (self, v)->column + 1);
          if (--waiting[w] == 0)
            order[tail++] = w;
        }
    }
  g_assert (tail == n);

  for (guint i = n; i-- > 0;)
    {
      guint v = order[i];
      guint n_out = out_start[v + 1] - out_start[v];
      guint n_in = in_start[v + 1] - in_start[v];
      guint nearest = G_MAXUINT;

      if (n_out == 0 || n_out <= n_in)
        continue;
      for (guint j = out_start[v]; j < out_start[v + 1]; j++)
        nearest = MIN (nearest, node_at (self, out[j])->column);
      node_at (self, v)->column = nearest - 1;
    }

  self->n_columns = 0;
  for (guint i = 0; i < n; i++)
    min_column = MIN (min_column, node_at (self, i)->column);
  for (guint i = 0; i < n; i++)
    {
      node_at (self, i)->column -= min_column;
      self->n_columns = MAX (self->n_columns, node_at (self, i)->column + 1);
    }
}

/* Chains of invisible boxes for arrows that span columns, and the rows of neighbours in the
 * next and previous columns. */
static void
add_chains (LodeGraphLayout *self,
            GArray          *ids)
{
  g_autoptr(GArray) links = g_array_new (FALSE, FALSE, sizeof (guint));

  for (guint i = 0; i < ids->len; i++)
    {
      Edge *edge = &g_array_index (self->edges, Edge, g_array_index (ids, guint, i));
      guint left, right, previous;

      edge_ends (edge, &left, &right);
      edge->chain = g_array_new (FALSE, FALSE, sizeof (guint));
      g_array_append_val (edge->chain, left);
      previous = left;
      for (guint column = node_at (self, left)->column + 1;
           column < node_at (self, right)->column; column++)
        {
          Node dummy = { 0 };
          guint id = self->nodes->len;

          dummy.height = DUMMY_HEIGHT;
          dummy.column = column;
          dummy.dummy = TRUE;
          g_array_append_val (self->nodes, dummy);
          g_array_append_val (edge->chain, id);
          g_array_append_val (links, previous);
          g_array_append_val (links, id);
          previous = id;
        }
      g_array_append_val (edge->chain, right);
      g_array_append_val (links, previous);
      g_array_append_val (links, right);
    }

  build_rows (self->nodes->len, (guint *) links->data, links->len / 2, FALSE,
              &self->down_start, &self->down);
  build_rows (self->nodes->len, (guint *) links->data, links->len / 2, TRUE,
              &self->up_start, &self->up);
}

static GArray *
column_at (LodeGraphLayout *self,
           guint            column)
{
  return g_ptr_array_index (self->columns, column);
}

static void
number_column (LodeGraphLayout *self,
               GArray          *column)
{
  for (guint i = 0; i < column->len; i++)
    node_at (self, g_array_index (column, guint, i))->position = i;
}

/* Crossings between column @c and the next: the links sorted by their left ends; each one
 * crosses the earlier links whose right ends lie below its own. */
static guint
count_column_crossings (LodeGraphLayout *self,
                        guint            c)
{
  GArray *left = column_at (self, c);
  guint n_right = column_at (self, c + 1)->len;
  g_autofree guint *tree = g_new0 (guint, n_right + 1);
  guint crossings = 0;
  guint seen = 0;

  for (guint i = 0; i < left->len; i++)
    {
      guint v = g_array_index (left, guint, i);
      guint n = self->down_start[v + 1] - self->down_start[v];
      g_autofree guint *ends = g_new (guint, MAX (n, 1));

      for (guint j = 0; j < n; j++)
        ends[j] = node_at (self, self->down[self->down_start[v] + j])->position;
      /* Links of one box never cross each other: insert them in order, after counting. */
      for (guint j = 0; j < n; j++)
        {
          guint below = 0;

          for (guint k = ends[j] + 1; k > 0; k -= k & -k)
            below += tree[k];
          crossings += seen - below;
        }
      for (guint j = 0; j < n; j++)
        {
          for (guint k = ends[j] + 1; k <= n_right; k += k & -k)
            tree[k]++;
          seen++;
        }
    }

  return crossings;
}

static guint
count_crossings (LodeGraphLayout *self)
{
  guint crossings = 0;

  for (guint c = 0; c + 1 < self->n_columns; c++)
    crossings += count_column_crossings (self, c);

  return crossings;
}

typedef struct
{
  guint  node;
  double key;
} Keyed;

static int
compare_keyed (gconstpointer a,
               gconstpointer b)
{
  const Keyed *ka = a;
  const Keyed *kb = b;

  return ka->key < kb->key ? -1 : ka->key > kb->key ? 1 : 0;
}

static int
compare_doubles (gconstpointer a,
                 gconstpointer b)
{
  double da = *(const double *) a;
  double db = *(const double *) b;

  return da < db ? -1 : da > db ? 1 : 0;
}

/* dot's weighted median of the neighbours' positions: the middle one, or between the two
 * middle ones, nearer the side where the neighbours are packed closer; -1 without any. */
static double
weighted_median (double *positions,
                 guint   n)
{
  double left, right;

  if (n == 0)
    return -1;
  qsort (positions, n, sizeof (double), compare_doubles);
  if (n % 2 == 1)
    return positions[n / 2];
  if (n == 2)
    return (positions[0] + positions[1]) / 2;
  left = positions[n / 2 - 1] - positions[0];
  right = positions[n - 1] - positions[n / 2];
  if (left + right == 0)
    return (positions[n / 2 - 1] + positions[n / 2]) / 2;
  return (positions[n / 2 - 1] * right + positions[n / 2] * left) / (left + right);
}

/* One column in the median order of its neighbours in the column before it (@forward) or
 * after it; a box without such neighbours keeps its place. */
static void
order_by_median (LodeGraphLayout *self,
                 guint            c,
                 gboolean         forward)
{
  GArray *column = column_at (self, c);
  const guint *start = forward ? self->up_start : self->down_start;
  const guint *row = forward ? self->up : self->down;
  g_autofree Keyed *keyed = g_new (Keyed, MAX (column->len, 1));
  g_autoptr(GArray) positions = g_array_new (FALSE, FALSE, sizeof (double));
  double previous = -1;

  for (guint i = 0; i < column->len; i++)
    {
      guint v = g_array_index (column, guint, i);
      double key;

      g_array_set_size (positions, 0);
      for (guint j = start[v]; j < start[v + 1]; j++)
        {
          double position = node_at (self, row[j])->position;

          g_array_append_val (positions, position);
        }
      key = weighted_median ((double *) positions->data, positions->len);
      /* A box without neighbours there stays just after the box above it. */
      if (key < 0)
        key = previous;
      keyed[i].node = v;
      keyed[i].key = key + i * 1e-6;
      previous = key;
    }
  qsort (keyed, column->len, sizeof (Keyed), compare_keyed);
  for (guint i = 0; i < column->len; i++)
    g_array_index (column, guint, i) = keyed[i].node;
  number_column (self, column);
}

/* Crossings between the links of @u and those of @v (u above v) on one side. */
static guint
pair_crossings (LodeGraphLayout *self,
                guint            u,
                guint            v,
                const guint     *start,
                const guint     *row)
{
  guint crossings = 0;

  for (guint i = start[u]; i < start[u + 1]; i++)
    for (guint j = start[v]; j < start[v + 1]; j++)
      crossings += node_at (self, row[i])->position > node_at (self, row[j])->position;

  return crossings;
}

/* Swaps neighbours of a column wherever that removes crossings on both sides. */
static gboolean
swap_neighbours (LodeGraphLayout *self,
                 guint            c)
{
  GArray *column = column_at (self, c);
  gboolean improved = FALSE;

  for (guint i = 0; i + 1 < column->len; i++)
    {
      guint u = g_array_index (column, guint, i);
      guint v = g_array_index (column, guint, i + 1);
      guint now = pair_crossings (self, u, v, self->up_start, self->up) +
                  pair_crossings (self, u, v, self->down_start, self->down);
      guint swapped = pair_crossings (self, v, u, self->up_start, self->up) +
                      pair_crossings (self, v, u, self->down_start, self->down);

      if (swapped < now)
        {
          g_array_index (column, guint, i) = v;
          g_array_index (column, guint, i + 1) = u;
          node_at (self, u)->position = i + 1;
          node_at (self, v)->position = i;
          improved = TRUE;
        }
    }

  return improved;
}

static void
swap_until_stable (LodeGraphLayout *self)
{
  for (guint pass = 0; pass < SWAP_PASSES; pass++)
    {
      gboolean improved = FALSE;

      for (guint c = 0; c < self->n_columns; c++)
        improved |= swap_neighbours (self, c);
      if (!improved)
        break;
    }
}

static void
save_order (LodeGraphLayout *self,
            guint           *positions)
{
  for (guint i = 0; i < self->nodes->len; i++)
    positions[i] = node_at (self, i)->position;
}

static void
restore_order (LodeGraphLayout *self,
               const guint     *positions)
{
  for (guint i = 0; i < self->nodes->len; i++)
    {
      node_at (self, i)->position = positions[i];
      g_array_index (column_at (self, node_at (self, i)->column), guint, positions[i]) = i;
    }
}

/* Step 3. */
static void
order_columns (LodeGraphLayout *self)
{
  g_autofree guint *best = g_new (guint, MAX (self->nodes->len, 1));
  guint best_crossings;
  guint since_best = 0;

  for (guint c = 0; c < self->n_columns; c++)
    g_ptr_array_add (self->columns, g_array_new (FALSE, FALSE, sizeof (guint)));
  for (guint i = 0; i < self->nodes->len; i++)
    g_array_append_val (column_at (self, node_at (self, i)->column), i);
  for (guint c = 0; c < self->n_columns; c++)
    number_column (self, column_at (self, c));

  /* A first sweep from the left gives every column an order its neighbours agree with. */
  for (guint c = 1; c < self->n_columns; c++)
    order_by_median (self, c, TRUE);
  swap_until_stable (self);
  save_order (self, best);
  best_crossings = count_crossings (self);

  for (guint sweep = 0; sweep < ORDER_SWEEPS && best_crossings > 0 &&
       since_best < ORDER_PATIENCE; sweep++)
    {
      guint crossings;

      if (sweep % 2 == 0)
        for (guint c = self->n_columns - 1; c-- > 0;)
          order_by_median (self, c, FALSE);
      else
        for (guint c = 1; c < self->n_columns; c++)
          order_by_median (self, c, TRUE);
      swap_until_stable (self);

      crossings = count_crossings (self);
      if (crossings < best_crossings)
        {
          best_crossings = crossings;
          save_order (self, best);
          since_best = 0;
        }
      else
        since_best++;
    }
  restore_order (self, best);
}

/* The boxes of a column as near as possible to @target (centres, weighted), in order and
 * apart by their half heights and the gap: pool adjacent violators on the centres less
 * their least offsets. */
static void
place_column (LodeGraphLayout *self,
              GArray          *column,
              const double    *target,
              const double    *weight)
{
  guint n = column->len;
  g_autofree double *offset = g_new (double, MAX (n, 1));
  g_autofree double *block_value = g_new (double, MAX (n, 1));
  g_autofree double *block_weight = g_new (double, MAX (n, 1));
  g_autofree guint *block_start = g_new (guint, MAX (n, 1));
  guint n_blocks = 0;

  for (guint i = 0; i < n; i++)
    {
      const Node *node = node_at (self, g_array_index (column, guint, i));

      if (i == 0)
        offset[i] = 0;
      else
        {
          const Node *above = node_at (self, g_array_index (column, guint, i - 1));

          offset[i] = offset[i - 1] + (above->height + node->height) / 2 +
                      LODE_GRAPH_LAYOUT_BOX_GAP;
        }

      block_value[n_blocks] = target[i] - offset[i];
      block_weight[n_blocks] = weight[i];
      block_start[n_blocks] = i;
      n_blocks++;
      while (n_blocks > 1 && block_value[n_blocks - 2] > block_value[n_blocks - 1])
        {
          double w = block_weight[n_blocks - 2] + block_weight[n_blocks - 1];

          block_value[n_blocks - 2] = (block_value[n_blocks - 2] * block_weight[n_blocks - 2] +
                                       block_value[n_blocks - 1] * block_weight[n_blocks - 1]) / w;
          block_weight[n_blocks - 2] = w;
          n_blocks--;
        }
    }

  for (guint b = 0; b < n_blocks; b++)
    {
      guint end = b + 1 < n_blocks ? block_start[b + 1] : n;

      for (guint i = block_start[b]; i < end; i++)
        {
          Node *node = node_at (self, g_array_index (column, guint, i));

          node->y = block_value[b] + offset[i] - node->height / 2;
        }
    }
}

static double
centre (const Node *node)
{
  return node->y + node->height / 2;
}

/* Step 4: sweeps right (towards the boxes on the left), left, and a last one towards both. */
static void
place_boxes (LodeGraphLayout *self)
{
  double top = G_MAXDOUBLE;

  for (guint c = 0; c < self->n_columns; c++)
    {
      GArray *column = column_at (self, c);
      double y = 0;

      for (guint i = 0; i < column->len; i++)
        {
          Node *node = node_at (self, g_array_index (column, guint, i));

          node->y = y;
          y += node->height + LODE_GRAPH_LAYOUT_BOX_GAP;
        }
    }

  for (guint sweep = 0; sweep <= PLACE_SWEEPS; sweep++)
    {
      gboolean forward = sweep % 2 == 0;
      gboolean both = sweep == PLACE_SWEEPS;

      for (guint k = 0; k < self->n_columns; k++)
        {
          guint c = forward ? k : self->n_columns - 1 - k;
          GArray *column = column_at (self, c);
          g_autofree double *target = g_new (double, MAX (column->len, 1));
          g_autofree double *weight = g_new (double, MAX (column->len, 1));

          for (guint i = 0; i < column->len; i++)
            {
              guint v = g_array_index (column, guint, i);
              Node *node = node_at (self, v);
              double sum = 0;
              guint n = 0;

              if (forward || both)
                for (guint j = self->up_start[v]; j < self->up_start[v + 1]; j++, n++)
                  sum += centre (node_at (self, self->up[j]));
              if (!forward || both)
                for (guint j = self->down_start[v]; j < self->down_start[v + 1]; j++, n++)
                  sum += centre (node_at (self, self->down[j]));
              target[i] = n > 0 ? sum / n : centre (node);
              weight[i] = (node->dummy ? DUMMY_WEIGHT : 1.0) * (n > 0 ? 1.0 : 0.25);
            }
          place_column (self, column, target, weight);
        }
    }

  for (guint i = 0; i < self->nodes->len; i++)
    top = MIN (top, node_at (self, i)->y);
  for (guint i = 0; i < self->nodes->len; i++)
    node_at (self, i)->y -= top;
}

static void
append_point (GArray *points,
              double  x,
              double  y)
{
  g_array_append_val (points, x);
  g_array_append_val (points, y);
}

/* Columns side by side, boxes centred in theirs; then the points of every edge. */
static void
route (LodeGraphLayout *self)
{
  g_autofree double *column_x = g_new0 (double, self->n_columns + 1);
  g_autofree double *column_width = g_new0 (double, MAX (self->n_columns, 1));

  for (guint i = 0; i < self->nodes->len; i++)
    {
      const Node *node = node_at (self, i);

      column_width[node->column] = MAX (column_width[node->column], node->width);
    }
  for (guint c = 0; c < self->n_columns; c++)
    column_x[c + 1] = column_x[c] + column_width[c] + LODE_GRAPH_LAYOUT_COLUMN_GAP;

  self->width = self->n_columns > 0 ? column_x[self->n_columns] - LODE_GRAPH_LAYOUT_COLUMN_GAP
                                    : 0;
  self->height = 0;
  for (guint i = 0; i < self->nodes->len; i++)
    {
      Node *node = node_at (self, i);

      node->x = column_x[node->column] + (column_width[node->column] - node->width) / 2;
      if (node->dummy)
        {
          node->x = column_x[node->column];
          node->width = column_width[node->column];
        }
      self->height = MAX (self->height, node->y + node->height);
    }

  for (guint i = 0; i < self->edges->len; i++)
    {
      Edge *edge = &g_array_index (self->edges, Edge, i);
      const Node *first;
      const Node *last;

      if (edge->chain == NULL)
        continue;

      first = node_at (self, g_array_index (edge->chain, guint, 0));
      last = node_at (self, g_array_index (edge->chain, guint, edge->chain->len - 1));
      append_point (edge->points, first->x + first->width, centre (first));
      append_point (edge->points, column_x[first->column + 1] - LODE_GRAPH_LAYOUT_COLUMN_GAP,
                    centre (first));
      for (guint j = 1; j + 1 < edge->chain->len; j++)
        {
          const Node *dummy = node_at (self, g_array_index (edge->chain, guint, j));

          append_point (edge->points, dummy->x, centre (dummy));
          append_point (edge->points, dummy->x + dummy->width, centre (dummy));
        }
      append_point (edge->points, column_x[last->column], centre (last));
      append_point (edge->points, last->x, centre (last));

      /* A reversed edge leaves and enters its boxes a little lower than the centre, so that
       * the two edges of a pair of files importing each other are drawn apart. */
      if (edge->reversed)
        {
          guint n = edge->points->len;

          for (guint k = 0; k < 4; k++)
            g_array_index (edge->points, double, k < 2 ? 2 * k + 1 : n - 2 * (k - 2) - 1) +=
              MIN (REVERSED_OFFSET, MIN (first->height, last->height) / 4);
        }

      /* Points run from the edge's own start: a reversed edge is drawn right to left. */
      if (edge->reversed)
        for (guint a = 0, b = edge->points->len / 2 - 1; a < b; a++, b--)
          {
            double ax = g_array_index (edge->points, double, 2 * a);
            double ay = g_array_index (edge->points, double, 2 * a + 1);

            g_array_index (edge->points, double, 2 * a) =
              g_array_index (edge->points, double, 2 * b);
            g_array_index (edge->points, double, 2 * a + 1) =
              g_array_index (edge->points, double, 2 * b + 1);
            g_array_index (edge->points, double, 2 * b) = ax;
            g_array_index (edge->points, double, 2 * b + 1) = ay;
          }
    }

  for (guint i = 0; i < self->edges->len; i++)
    {
      Edge *edge = &g_array_index (self->edges, Edge, i);

      if (edge->same_as != UNSET)
        {
          const Edge *first = &g_array_index (self->edges, Edge, edge->same_as);

          edge->reversed = first->reversed;
          g_array_append_vals (edge->points, first->points->data, first->points->len);
        }
    }
}

/**
 * lode_graph_layout_run:
 * @self: a layout with its boxes and edges
 *
 * Places the boxes in columns, left to right along the edges, and routes the edges. Run it
 * once; the layout cannot change afterwards.
 */
void
lode_graph_layout_run (LodeGraphLayout *self)
{
  g_autoptr(GArray) ids = NULL;

  g_return_if_fail (self != NULL && !self->done);

  self->done = TRUE;
  if (self->n_real == 0)
    return;

  ids = distinct_edges (self);
  break_cycles (self, ids);
  assign_columns (self, ids);
  add_chains (self, ids);
  order_columns (self);
  place_boxes (self);
  route (self);
}

guint
lode_graph_layout_get_n_nodes (const LodeGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->n_real;
}

guint
lode_graph_layout_get_n_edges (const LodeGraphLayout *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->edges->len;
}

/**
 * lode_graph_layout_get_node:
 * @self: a layout that ran
 * @node: a box
 * @x: (out) (optional): its left
 * @y: (out) (optional): its top
 * @width: (out) (optional): its width, as given
 * @height: (out) (optional): its height, as given
 */
void
lode_graph_layout_get_node (const LodeGraphLayout *self,
                            guint                  node,
                            double                *x,
                            double                *y,
                            double                *width,
                            double                *height)
{
  const Node *n;

  g_return_if_fail (self != NULL && self->done);
  g_return_if_fail (node < self->n_real);

  n = &g_array_index (self->nodes, Node, node);
  if (x != NULL)
    *x = n->x;
  if (y != NULL)
    *y = n->y;
  if (width != NULL)
    *width = n->width;
  if (height != NULL)
    *height = n->height;
}

/**
 * lode_graph_layout_get_column:
 * @self: a layout that ran
 * @node: a box
 *
 * Returns: the column of @node, 0 for the leftmost
 */
guint
lode_graph_layout_get_column (const LodeGraphLayout *self,
                              guint                  node)
{
  g_return_val_if_fail (self != NULL && self->done, 0);
  g_return_val_if_fail (node < self->n_real, 0);

  return g_array_index (self->nodes, Node, node).column;
}

void
lode_graph_layout_get_edge_ends (const LodeGraphLayout *self,
                                 guint                  edge,
                                 guint                 *from,
                                 guint                 *to)
{
  const Edge *e;

  g_return_if_fail (self != NULL);
  g_return_if_fail (edge < self->edges->len);

  e = &g_array_index (self->edges, Edge, edge);
  if (from != NULL)
    *from = e->from;
  if (to != NULL)
    *to = e->to;
}

/**
 * lode_graph_layout_get_edge_points:
 * @self: a layout that ran
 * @edge: an edge
 * @n_points: (out): how many points
 *
 * The edge's route from its start box to its end box, pairs of points: in each column it
 * runs through, a straight horizontal run from where it enters the column to where it
 * leaves it, starting at the side of the start box (its right side, or its left for a
 * reversed edge) and ending at the side of the end box. Between two pairs the route crosses
 * a gap between columns, where a curve with horizontal tangents at both ends stays clear of
 * boxes. A loop (an edge from a box to itself) has no points.
 *
 * Returns: (array length=n_points) (transfer none): x, y of each point
 */
const double *
lode_graph_layout_get_edge_points (const LodeGraphLayout *self,
                                   guint                  edge,
                                   guint                 *n_points)
{
  const Edge *e;

  g_return_val_if_fail (self != NULL && self->done, NULL);
  g_return_val_if_fail (edge < self->edges->len, NULL);
  g_return_val_if_fail (n_points != NULL, NULL);

  e = &g_array_index (self->edges, Edge, edge);
  *n_points = e->points->len / 2;
  return (const double *) e->points->data;
}

/**
 * lode_graph_layout_is_reversed:
 * @self: a layout that ran
 * @edge: an edge
 *
 * Returns: %TRUE if @edge closes a cycle and so runs right to left
 */
gboolean
lode_graph_layout_is_reversed (const LodeGraphLayout *self,
                               guint                  edge)
{
  g_return_val_if_fail (self != NULL && self->done, FALSE);
  g_return_val_if_fail (edge < self->edges->len, FALSE);

  return g_array_index (self->edges, Edge, edge).reversed;
}

void
lode_graph_layout_get_size (const LodeGraphLayout *self,
                            double                *width,
                            double                *height)
{
  g_return_if_fail (self != NULL && self->done);

  if (width != NULL)
    *width = self->width;
  if (height != NULL)
    *height = self->height;
}

/**
 * lode_graph_layout_count_crossings:
 * @self: a layout that ran
 *
 * Returns: how many pairs of edges cross between columns
 */
guint
lode_graph_layout_count_crossings (const LodeGraphLayout *self)
{
  g_return_val_if_fail (self != NULL && self->done, 0);

  return self->n_real > 0 ? count_crossings ((LodeGraphLayout *) self) : 0;
}
