/* lode-graph.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The import graph in memory: files are ids 0 … n-1, edges are kept in compressed sparse rows
 * (one array of targets, one array of offsets per file) in both directions, so that imports,
 * dependents and breadth-first walks touch contiguous memory. Built by adding files and edges,
 * then frozen; a frozen graph is immutable and may be read from any number of threads.
 *
 * No algorithm here recurses: strongly connected components use Tarjan's algorithm with an
 * explicit stack, walks are breadth-first with a queue, so a 100,000-file import chain needs
 * no more stack than a single file does. */

#define G_LOG_DOMAIN "lode-graph"

#include "config.h"

#include <string.h>

#include "lode-graph.h"
#include "lode-imports.h"
#include "lode-language.h"

#define UNSET G_MAXUINT

typedef struct
{
  guint a;
  guint b;
} Pair;

/* Compressed sparse rows: the targets of node i are targets[start[i]] … targets[start[i+1]-1]. */
typedef struct
{
  guint *start;
  guint *targets;
} Csr;

struct _LodeGraph
{
  GPtrArray  *paths;             /* id → path */
  GPtrArray  *languages;         /* id → language (interned) */
  GHashTable *ids;               /* path (borrowed from paths) → id + 1 */
  GPtrArray  *packages;          /* package index → name */
  GHashTable *package_ids;       /* name (borrowed) → index + 1 */
  GArray     *edges;             /* Pair: file → file, sorted and unique once frozen */
  GArray     *externals;         /* Pair: file → package index, sorted and unique once frozen */
  Csr         out;
  Csr         in;
  Csr         ext;
  guint       frozen : 1;
};

void
lode_graph_cycle_free (LodeGraphCycle *cycle)
{
  if (cycle == NULL)
    return;

  g_clear_pointer (&cycle->members, g_array_unref);
  g_clear_pointer (&cycle->cycle, g_array_unref);
  g_free (cycle);
}

void
lode_graph_stats_free (LodeGraphStats *stats)
{
  if (stats == NULL)
    return;

  g_clear_pointer (&stats->most_connected, g_array_unref);
  g_clear_pointer (&stats->orphans, g_array_unref);
  g_clear_pointer (&stats->packages, g_array_unref);
  g_free (stats);
}

/**
 * lode_graph_new:
 *
 * Returns: (transfer full): an empty graph; add files and edges, then lode_graph_freeze() it
 */
LodeGraph *
lode_graph_new (void)
{
  LodeGraph *self = g_new0 (LodeGraph, 1);

  self->paths = g_ptr_array_new_with_free_func (g_free);
  self->languages = g_ptr_array_new ();
  self->ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->packages = g_ptr_array_new_with_free_func (g_free);
  self->package_ids = g_hash_table_new (g_str_hash, g_str_equal);
  self->edges = g_array_new (FALSE, FALSE, sizeof (Pair));
  self->externals = g_array_new (FALSE, FALSE, sizeof (Pair));

  return self;
}

static void
csr_clear (Csr *csr)
{
  g_clear_pointer (&csr->start, g_free);
  g_clear_pointer (&csr->targets, g_free);
}

void
lode_graph_free (LodeGraph *self)
{
  if (self == NULL)
    return;

  g_hash_table_unref (self->ids);
  g_hash_table_unref (self->package_ids);
  g_ptr_array_unref (self->paths);
  g_ptr_array_unref (self->languages);
  g_ptr_array_unref (self->packages);
  g_array_unref (self->edges);
  g_array_unref (self->externals);
  csr_clear (&self->out);
  csr_clear (&self->in);
  csr_clear (&self->ext);
  g_free (self);
}

/**
 * lode_graph_add_file:
 * @self: a graph, not frozen
 * @path: the file's path, relative to the project
 * @language: (nullable): its language id
 *
 * Adding a path twice returns the id it already has.
 *
 * Returns: the file's id
 */
guint
lode_graph_add_file (LodeGraph  *self,
                     const char *path,
                     const char *language)
{
  gpointer value;
  char *copy;

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (!self->frozen, 0);
  g_return_val_if_fail (path != NULL, 0);

  value = g_hash_table_lookup (self->ids, path);
  if (value != NULL)
    return GPOINTER_TO_UINT (value) - 1;

  copy = g_strdup (path);
  g_ptr_array_add (self->paths, copy);
  g_ptr_array_add (self->languages, (gpointer) g_intern_string (language != NULL ? language
                                                                                 : "text"));
  g_hash_table_insert (self->ids, copy, GUINT_TO_POINTER (self->paths->len));

  return self->paths->len - 1;
}

/**
 * lode_graph_add_edge:
 * @self: a graph, not frozen
 * @from: the importing file
 * @to: the imported file
 *
 * Repeated edges count once.
 */
void
lode_graph_add_edge (LodeGraph *self,
                     guint      from,
                     guint      to)
{
  Pair pair = { from, to };

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->frozen);
  g_return_if_fail (from < self->paths->len && to < self->paths->len);

  g_array_append_val (self->edges, pair);
}

/**
 * lode_graph_add_external:
 * @self: a graph, not frozen
 * @from: the importing file
 * @package: the package outside the project it imports
 */
void
lode_graph_add_external (LodeGraph  *self,
                         guint       from,
                         const char *package)
{
  gpointer value;
  Pair pair = { from, 0 };

  g_return_if_fail (self != NULL);
  g_return_if_fail (!self->frozen);
  g_return_if_fail (from < self->paths->len);
  g_return_if_fail (package != NULL);

  value = g_hash_table_lookup (self->package_ids, package);
  if (value == NULL)
    {
      char *copy = g_strdup (package);

      g_ptr_array_add (self->packages, copy);
      value = GUINT_TO_POINTER (self->packages->len);
      g_hash_table_insert (self->package_ids, copy, value);
    }
  pair.b = GPOINTER_TO_UINT (value) - 1;
  g_array_append_val (self->externals, pair);
}

static int
compare_pairs (gconstpointer a,
               gconstpointer b)
{
  const Pair *pa = a;
  const Pair *pb = b;

  if (pa->a != pb->a)
    return pa->a < pb->a ? -1 : 1;
  return pa->b < pb->b ? -1 : pa->b > pb->b ? 1 : 0;
}

static void
sort_unique (GArray *pairs)
{
  guint n = 0;

  g_array_sort (pairs, compare_pairs);
  for (guint i = 0; i < pairs->len; i++)
    {
      if (n > 0 && compare_pairs (&g_array_index (pairs, Pair, n - 1),
                                  &g_array_index (pairs, Pair, i)) == 0)
        continue;
      g_array_index (pairs, Pair, n++) = g_array_index (pairs, Pair, i);
    }
  g_array_set_size (pairs, n);
}

/* Rows of @pairs by their first member (@reverse: by their second). */
static void
csr_build (Csr          *csr,
           const GArray *pairs,
           guint         n_nodes,
           gboolean      reverse)
{
  g_autofree guint *fill = g_new0 (guint, n_nodes + 1);

  csr->start = g_new0 (guint, n_nodes + 1);
  csr->targets = g_new (guint, MAX (pairs->len, 1));

  for (guint i = 0; i < pairs->len; i++)
    {
      const Pair *p = &g_array_index (pairs, Pair, i);

      csr->start[(reverse ? p->b : p->a) + 1]++;
    }
  for (guint i = 0; i < n_nodes; i++)
    csr->start[i + 1] += csr->start[i];

  /* Pairs are sorted by (a, b), so each row of either direction comes out sorted. */
  for (guint i = 0; i < pairs->len; i++)
    {
      const Pair *p = &g_array_index (pairs, Pair, i);
      guint row = reverse ? p->b : p->a;

      csr->targets[csr->start[row] + fill[row]++] = reverse ? p->a : p->b;
    }
}

/**
 * lode_graph_freeze:
 * @self: a graph
 *
 * Ends building: merges repeated edges and builds the adjacency rows. Queries need a frozen
 * graph; a frozen graph may be shared between threads.
 */
void
lode_graph_freeze (LodeGraph *self)
{
  g_return_if_fail (self != NULL);

  if (self->frozen)
    return;

  sort_unique (self->edges);
  sort_unique (self->externals);
  csr_build (&self->out, self->edges, self->paths->len, FALSE);
  csr_build (&self->in, self->edges, self->paths->len, TRUE);
  csr_build (&self->ext, self->externals, self->paths->len, FALSE);
  self->frozen = TRUE;
}

guint
lode_graph_get_n_files (const LodeGraph *self)
{
  g_return_val_if_fail (self != NULL, 0);

  return self->paths->len;
}

const char *
lode_graph_get_path (const LodeGraph *self,
                     guint            file)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (file < self->paths->len, NULL);

  return g_ptr_array_index (self->paths, file);
}

const char *
lode_graph_get_language (const LodeGraph *self,
                         guint            file)
{
  g_return_val_if_fail (self != NULL, NULL);
  g_return_val_if_fail (file < self->paths->len, NULL);

  return g_ptr_array_index (self->languages, file);
}

/**
 * lode_graph_lookup:
 * @self: a graph
 * @path: a path relative to the project
 * @file: (out) (optional): its id
 *
 * Returns: %TRUE if @path is a file of the graph
 */
gboolean
lode_graph_lookup (const LodeGraph *self,
                   const char      *path,
                   guint           *file)
{
  gpointer value;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  value = g_hash_table_lookup (self->ids, path);
  if (value == NULL)
    return FALSE;
  if (file != NULL)
    *file = GPOINTER_TO_UINT (value) - 1;

  return TRUE;
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

static const guint *
csr_row (const Csr *csr,
         guint      node,
         guint     *n)
{
  *n = csr->start[node + 1] - csr->start[node];
  return csr->targets + csr->start[node];
}

/**
 * lode_graph_get_imports:
 * @self: a frozen graph
 * @file: a file id
 * @n_imports: (out): how many
 *
 * Returns: (array length=n_imports) (transfer none): the project files @file imports, by id
 */
const guint *
lode_graph_get_imports (const LodeGraph *self,
                        guint            file,
                        guint           *n_imports)
{
  g_return_val_if_fail (self != NULL && self->frozen, NULL);
  g_return_val_if_fail (file < self->paths->len, NULL);
  g_return_val_if_fail (n_imports != NULL, NULL);

  return csr_row (&self->out, file, n_imports);
}

/**
 * lode_graph_get_dependents:
 * @self: a frozen graph
 * @file: a file id
 * @n_dependents: (out): how many
 *
 * Returns: (array length=n_dependents) (transfer none): the files that import @file, by id
 */
const guint *
lode_graph_get_dependents (const LodeGraph *self,
                           guint            file,
                           guint           *n_dependents)
{
  g_return_val_if_fail (self != NULL && self->frozen, NULL);
  g_return_val_if_fail (file < self->paths->len, NULL);
  g_return_val_if_fail (n_dependents != NULL, NULL);

  return csr_row (&self->in, file, n_dependents);
}

/**
 * lode_graph_dup_packages:
 * @self: a frozen graph
 * @file: a file id
 *
 * Returns: (transfer container) (element-type utf8): the external packages @file imports,
 *   sorted; the strings belong to the graph
 */
GPtrArray *
lode_graph_dup_packages (const LodeGraph *self,
                         guint            file)
{
  GPtrArray *packages;
  const guint *row;
  guint n;

  g_return_val_if_fail (self != NULL && self->frozen, NULL);
  g_return_val_if_fail (file < self->paths->len, NULL);

  row = csr_row (&self->ext, file, &n);
  packages = g_ptr_array_sized_new (n);
  for (guint i = 0; i < n; i++)
    g_ptr_array_add (packages, g_ptr_array_index (self->packages, row[i]));
  g_ptr_array_sort (packages, compare_strings);

  return packages;
}

static int
compare_hits (gconstpointer a,
              gconstpointer b,
              gpointer      user_data)
{
  const LodeGraph *self = user_data;
  const LodeGraphHit *ha = a;
  const LodeGraphHit *hb = b;

  if (ha->distance != hb->distance)
    return ha->distance < hb->distance ? -1 : 1;
  if (ha->links != hb->links)
    return ha->links > hb->links ? -1 : 1;
  return strcmp (g_ptr_array_index (self->paths, ha->file),
                 g_ptr_array_index (self->paths, hb->file));
}

/**
 * lode_graph_impact:
 * @self: a frozen graph
 * @start: (array length=n_start): the files to start from
 * @n_start: how many
 * @direction: %LODE_GRAPH_INBOUND for the files that (transitively) import @start, what a
 *   change to them can break; %LODE_GRAPH_OUTBOUND for those they (transitively) import
 * @depth: hops to follow, at most %LODE_GRAPH_MAX_DEPTH
 *
 * A breadth-first walk from all start files at once.
 *
 * Returns: (transfer full) (element-type LodeGraphHit): the start files (distance 0) and the
 *   files reached, nearest first, then by links (most first), then by path
 */
GArray *
lode_graph_impact (const LodeGraph    *self,
                   const guint        *start,
                   guint               n_start,
                   LodeGraphDirection  direction,
                   guint               depth)
{
  const Csr *csr;
  g_autofree guint *distance = NULL;
  g_autofree guint *links = NULL;
  GArray *hits;
  guint head = 0;

  g_return_val_if_fail (self != NULL && self->frozen, NULL);
  g_return_val_if_fail (start != NULL || n_start == 0, NULL);

  csr = direction == LODE_GRAPH_INBOUND ? &self->in : &self->out;
  depth = MIN (depth, LODE_GRAPH_MAX_DEPTH);
  distance = g_new (guint, MAX (self->paths->len, 1));
  links = g_new0 (guint, MAX (self->paths->len, 1));
  memset (distance, 0xff, sizeof (guint) * self->paths->len);
  hits = g_array_new (FALSE, FALSE, sizeof (LodeGraphHit));

  /* hits doubles as the queue: entries are appended in order of distance. */
  for (guint i = 0; i < n_start; i++)
    {
      LodeGraphHit hit = { start[i], 0, 0 };

      g_return_val_if_fail (start[i] < self->paths->len, hits);
      if (distance[start[i]] == 0)
        continue;
      distance[start[i]] = 0;
      g_array_append_val (hits, hit);
    }

  while (head < hits->len)
    {
      guint node = g_array_index (hits, LodeGraphHit, head++).file;
      guint d = distance[node];
      const guint *row;
      guint n;

      if (d >= depth)
        continue;

      row = csr_row (csr, node, &n);
      for (guint i = 0; i < n; i++)
        {
          guint next = row[i];

          if (distance[next] == UNSET)
            {
              LodeGraphHit hit = { next, d + 1, 0 };

              distance[next] = d + 1;
              g_array_append_val (hits, hit);
            }
          if (distance[next] == d + 1)
            links[next]++;
        }
    }

  for (guint i = 0; i < hits->len; i++)
    {
      LodeGraphHit *hit = &g_array_index (hits, LodeGraphHit, i);

      hit->links = links[hit->file];
    }
  g_array_sort_with_data (hits, compare_hits, (gpointer) self);

  return hits;
}

static int
compare_ids_by_path (gconstpointer a,
                     gconstpointer b,
                     gpointer      user_data)
{
  const LodeGraph *self = user_data;

  return strcmp (g_ptr_array_index (self->paths, *(const guint *) a),
                 g_ptr_array_index (self->paths, *(const guint *) b));
}

/**
 * lode_graph_is_module_tree_edge:
 * @self: a graph
 * @from: the importing file
 * @to: the imported file
 *
 * Rust's module tree is no dependency between files: a module declares its submodules
 * (`mod x;`) and re-exports their items, and they use their parent's (`super::`,
 * `crate::`), so every module would be in a cycle with its parent. An edge from a Rust
 * module file down to a file of its own module directory, or to itself (an inline module's
 * `use super::*`), belongs to that tree and does not count for cycles.
 *
 * Returns: %TRUE if the edge @from → @to belongs to Rust's module tree
 */
gboolean
lode_graph_is_module_tree_edge (const LodeGraph *self,
                                guint            from,
                                guint            to)
{
  const char *parent;
  const char *child;
  const char *slash;
  const char *base;
  gsize n;

  g_return_val_if_fail (self != NULL, FALSE);
  g_return_val_if_fail (from < self->paths->len && to < self->paths->len, FALSE);

  parent = g_ptr_array_index (self->paths, from);
  child = g_ptr_array_index (self->paths, to);

  if (strcmp (g_ptr_array_index (self->languages, from), "rust") != 0 ||
      strcmp (g_ptr_array_index (self->languages, to), "rust") != 0)
    return FALSE;
  if (from == to)
    return TRUE;

  slash = strrchr (parent, '/');
  base = slash != NULL ? slash + 1 : parent;
  /* lib.rs, main.rs and mod.rs own their directory; a.rs owns a/. */
  if (strcmp (base, "lib.rs") == 0 || strcmp (base, "main.rs") == 0 ||
      strcmp (base, "mod.rs") == 0)
    return strncmp (child, parent, base - parent) == 0;

  n = strlen (parent);
  if (n < 3 || strcmp (parent + n - 3, ".rs") != 0)
    return FALSE;
  n -= 3;
  return strncmp (child, parent, n) == 0 && child[n] == '/';
}

/* A shortest cycle through @first inside component @comp: a breadth-first walk from @first
 * that stays in the component, until an edge leads back to @first. */
static GArray *
shortest_cycle (const LodeGraph *self,
                const guint     *component,
                guint            comp,
                guint            first,
                guint           *parent,
                GArray          *queue)
{
  GArray *cycle = g_array_new (FALSE, FALSE, sizeof (guint));
  guint head = 0;
  guint last = UNSET;

  g_array_set_size (queue, 0);
  g_array_append_val (queue, first);
  parent[first] = first;

  while (head < queue->len && last == UNSET)
    {
      guint node = g_array_index (queue, guint, head++);
      const guint *row;
      guint n;

      row = csr_row (&self->out, node, &n);
      for (guint i = 0; i < n; i++)
        {
          guint next = row[i];

          if (component[next] != comp || lode_graph_is_module_tree_edge (self, node, next))
            continue;
          if (next == first)
            {
              last = node;
              break;
            }
          if (parent[next] != UNSET)
            continue;
          parent[next] = node;
          g_array_append_val (queue, next);
        }
    }

  g_assert (last != UNSET);

  for (guint node = last; ; node = parent[node])
    {
      g_array_prepend_val (cycle, node);
      if (node == first)
        break;
    }

  /* Leave parent[] clean for the next component. */
  for (guint i = 0; i < queue->len; i++)
    parent[g_array_index (queue, guint, i)] = UNSET;

  return cycle;
}

static int
compare_cycles (gconstpointer a,
                gconstpointer b,
                gpointer      user_data)
{
  const LodeGraphCycle *ca = *(LodeGraphCycle *const *) a;
  const LodeGraphCycle *cb = *(LodeGraphCycle *const *) b;

  if (ca->members->len != cb->members->len)
    return ca->members->len > cb->members->len ? -1 : 1;
  return compare_ids_by_path (ca->members->data, cb->members->data, user_data);
}

static gboolean
has_self_edge (const LodeGraph *self,
               guint            node)
{
  const guint *row;
  guint n;

  row = csr_row (&self->out, node, &n);
  for (guint i = 0; i < n; i++)
    if (row[i] == node && !lode_graph_is_module_tree_edge (self, node, node))
      return TRUE;

  return FALSE;
}

typedef struct
{
  guint node;
  guint next_edge;
} Frame;

/**
 * lode_graph_find_cycles:
 * @self: a frozen graph
 *
 * Finds the import cycles: every strongly connected component of more than one file, and
 * every file that imports itself. Tarjan's algorithm with an explicit stack, so the depth of
 * the graph does not matter. Rust's module tree (a module file and its submodules) makes no
 * cycle.
 *
 * Returns: (transfer full) (element-type LodeGraphCycle): the cycles, largest first
 */
GPtrArray *
lode_graph_find_cycles (const LodeGraph *self)
{
  guint n_nodes;
  g_autofree guint *index = NULL;
  g_autofree guint *low = NULL;
  g_autofree guint *component = NULL;
  g_autofree guint *parent = NULL;
  g_autofree gboolean *on_stack = NULL;
  g_autoptr(GArray) stack = NULL;
  g_autoptr(GArray) frames = NULL;
  g_autoptr(GArray) queue = NULL;
  GPtrArray *cycles;
  guint counter = 0;
  guint n_components = 0;

  g_return_val_if_fail (self != NULL && self->frozen, NULL);

  n_nodes = self->paths->len;
  index = g_new (guint, MAX (n_nodes, 1));
  low = g_new (guint, MAX (n_nodes, 1));
  component = g_new (guint, MAX (n_nodes, 1));
  parent = g_new (guint, MAX (n_nodes, 1));
  on_stack = g_new0 (gboolean, MAX (n_nodes, 1));
  memset (index, 0xff, sizeof (guint) * n_nodes);
  memset (component, 0xff, sizeof (guint) * n_nodes);
  memset (parent, 0xff, sizeof (guint) * n_nodes);
  stack = g_array_new (FALSE, FALSE, sizeof (guint));
  frames = g_array_new (FALSE, FALSE, sizeof (Frame));
  queue = g_array_new (FALSE, FALSE, sizeof (guint));
  cycles = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_graph_cycle_free);

  for (guint root = 0; root < n_nodes; root++)
    {
      Frame frame = { root, self->out.start[root] };

      if (index[root] != UNSET)
        continue;

      index[root] = low[root] = counter++;
      g_array_append_val (stack, root);
      on_stack[root] = TRUE;
      g_array_append_val (frames, frame);

      while (frames->len > 0)
        {
          Frame *top = &g_array_index (frames, Frame, frames->len - 1);
          guint node = top->node;

          if (top->next_edge < self->out.start[node + 1])
            {
              guint next = self->out.targets[top->next_edge++];

              if (lode_graph_is_module_tree_edge (self, node, next))
                continue;
              if (index[next] == UNSET)
                {
                  Frame child = { next, self->out.start[next] };

                  index[next] = low[next] = counter++;
                  g_array_append_val (stack, next);
                  on_stack[next] = TRUE;
                  g_array_append_val (frames, child);   /* may move @top */
                }
              else if (on_stack[next])
                low[node] = MIN (low[node], index[next]);
              continue;
            }

          g_array_set_size (frames, frames->len - 1);
          if (frames->len > 0)
            {
              guint caller = g_array_index (frames, Frame, frames->len - 1).node;

              low[caller] = MIN (low[caller], low[node]);
            }

          if (low[node] == index[node])
            {
              g_autoptr(GArray) members = g_array_new (FALSE, FALSE, sizeof (guint));
              guint member;

              do
                {
                  member = g_array_index (stack, guint, stack->len - 1);
                  g_array_set_size (stack, stack->len - 1);
                  on_stack[member] = FALSE;
                  component[member] = n_components;
                  g_array_append_val (members, member);
                }
              while (member != node);

              if (members->len > 1 || has_self_edge (self, node))
                {
                  LodeGraphCycle *cycle = g_new0 (LodeGraphCycle, 1);
                  guint first;

                  g_array_sort_with_data (members, compare_ids_by_path, (gpointer) self);
                  first = g_array_index (members, guint, 0);
                  cycle->cycle = shortest_cycle (self, component, n_components, first, parent,
                                                 queue);
                  cycle->members = g_steal_pointer (&members);
                  g_ptr_array_add (cycles, cycle);
                }
              n_components++;
            }
        }
    }

  g_ptr_array_sort_with_data (cycles, compare_cycles, (gpointer) self);

  return cycles;
}

static int
compare_ranks (gconstpointer a,
               gconstpointer b,
               gpointer      user_data)
{
  const LodeGraphRank *ra = a;
  const LodeGraphRank *rb = b;
  guint ta = ra->n_in + ra->n_out;
  guint tb = rb->n_in + rb->n_out;

  if (ta != tb)
    return ta > tb ? -1 : 1;
  if (ra->n_in != rb->n_in)
    return ra->n_in > rb->n_in ? -1 : 1;
  return compare_ids_by_path (&ra->file, &rb->file, user_data);
}

static int
compare_packages (gconstpointer a,
                  gconstpointer b)
{
  const LodeGraphPackage *pa = a;
  const LodeGraphPackage *pb = b;

  if (pa->n_files != pb->n_files)
    return pa->n_files > pb->n_files ? -1 : 1;
  return strcmp (pa->package, pb->package);
}

/* Whether a file of @language_id could import anything: configuration, documentation and
 * data files (Markdown, JSON, YAML, …) have no imports, so no edge makes them no orphan. */
static gboolean
can_import (const char *language_id)
{
  const LodeLanguage *language = language_id != NULL ? lode_language_lookup (language_id)
                                                     : NULL;

  return language != NULL && lode_imports_supported (language);
}

/**
 * lode_graph_dup_stats:
 * @self: a frozen graph
 * @n_top: how many of the most connected files to list
 *
 * Returns: (transfer full): figures about the graph
 */
LodeGraphStats *
lode_graph_dup_stats (const LodeGraph *self,
                      guint            n_top)
{
  LodeGraphStats *stats;
  g_autoptr(GArray) ranks = NULL;
  g_autofree guint *package_files = NULL;

  g_return_val_if_fail (self != NULL && self->frozen, NULL);

  stats = g_new0 (LodeGraphStats, 1);
  stats->n_files = self->paths->len;
  stats->n_edges = self->edges->len;
  stats->n_external_edges = self->externals->len;
  stats->orphans = g_array_new (FALSE, FALSE, sizeof (guint));
  stats->packages = g_array_new (FALSE, FALSE, sizeof (LodeGraphPackage));
  ranks = g_array_sized_new (FALSE, FALSE, sizeof (LodeGraphRank), self->paths->len);

  for (guint i = 0; i < self->paths->len; i++)
    {
      LodeGraphRank rank = { i, 0, 0 };

      csr_row (&self->in, i, &rank.n_in);
      csr_row (&self->out, i, &rank.n_out);
      if (rank.n_in == 0 && rank.n_out == 0)
        {
          if (can_import (lode_graph_get_language (self, i)))
            g_array_append_val (stats->orphans, i);
        }
      else
        g_array_append_val (ranks, rank);
    }
  g_array_sort_with_data (stats->orphans, compare_ids_by_path, (gpointer) self);
  g_array_sort_with_data (ranks, compare_ranks, (gpointer) self);
  if (ranks->len > n_top)
    g_array_set_size (ranks, n_top);
  stats->most_connected = g_steal_pointer (&ranks);

  package_files = g_new0 (guint, MAX (self->packages->len, 1));
  for (guint i = 0; i < self->externals->len; i++)
    package_files[g_array_index (self->externals, Pair, i).b]++;
  for (guint i = 0; i < self->packages->len; i++)
    {
      LodeGraphPackage package = { g_ptr_array_index (self->packages, i), package_files[i] };

      g_array_append_val (stats->packages, package);
    }
  g_array_sort (stats->packages, compare_packages);

  return stats;
}
