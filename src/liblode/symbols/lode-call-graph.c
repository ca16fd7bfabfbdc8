/* lode-call-graph.c — who calls what: the call edges of a project and the walks over them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 *
 * The graph's policy, whichever store kept the calls: a call joins two definitions only when
 * its resolution bound it to one (resolved); ambiguous, external and unresolved calls are
 * listed where they are made, never walked through. Walks (reach, trace) go breadth first, so
 * that each definition is met once and at its least distance, and stop at their depth.
 */

#define G_LOG_DOMAIN "lode-call-graph"

#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lode-call-graph.h"
#include "lode-calls.h"
#include "lode-chunk.h"
#include "lode-search-private.h"
#include "lode-symbol-scope.h"

/* A project's graph holds every definition and call of the index at once, so their text is
 * kept once: paths, names and packages repeat on thousands of rows. */
struct _LodeCallGraph
{
  GObject       parent_instance;
  GStringChunk *strings;   /* the text of every node and call */
  GArray       *nodes;     /* LodeCallNode */
  GHashTable   *by_line;   /* path → (line → node + 1) */
  GHashTable   *by_name;   /* name → GArray of node */
  GPtrArray    *calls;     /* LodeStoredCall: the structs owned, their text in strings */
  GPtrArray  *callees;   /* per node: GArray of LodeCallLink, or NULL */
  GPtrArray  *callers;   /* per node: GArray of LodeCallLink, or NULL */
  GHashTable *entries;   /* node + 1 → Registration: what the code registers it as */
};

typedef struct
{
  const char *reason;    /* interned */
  char       *label;
} Registration;

static Registration *
registration_new (const char *reason,
                  const char *label)
{
  Registration *registration = g_new (Registration, 1);

  registration->reason = g_intern_string (reason);
  registration->label = g_strdup (label);
  return registration;
}

static void
registration_free (Registration *registration)
{
  g_free (registration->label);
  g_free (registration);
}

G_DEFINE_FINAL_TYPE (LodeCallGraph, lode_call_graph, G_TYPE_OBJECT)

static LodeStoredCall *
stored_call_new (const char           *path,
                 const LodeCallSymbol *caller,
                 const LodeCallEdge   *edge)
{
  LodeStoredCall *call = g_new0 (LodeStoredCall, 1);

  call->path = g_strdup (path);
  call->caller = caller != NULL ? g_strdup (caller->name) : NULL;
  call->caller_line = caller != NULL ? caller->start_line : 0;
  call->callee = g_strdup (edge->site->name);
  call->qualifier = g_strdup (edge->site->qualifier);
  call->line = edge->site->line;
  call->status = edge->status;
  call->rule = edge->rule;
  call->confidence = edge->confidence;
  call->package = g_strdup (edge->package);
  return call;
}

/**
 * lode_stored_calls_from_edges:
 * @resolver: the resolver that made @edges
 * @file: the file they were resolved for
 * @edges: (element-type LodeCallEdge): lode_call_resolver_resolve()'s answer for @file
 *
 * The rows an index keeps of @edges: one per call, and one per candidate of an ambiguous call.
 *
 * Returns: (transfer container) (element-type LodeStoredCall): the rows, in file order
 */
GPtrArray *
lode_stored_calls_from_edges (LodeCallResolver *resolver,
                              guint             file,
                              GPtrArray        *edges)
{
  GPtrArray *rows = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_stored_call_free);
  const char *path = lode_call_resolver_get_path (resolver, file);
  const LodeCallSymbol *symbols = lode_call_resolver_get_symbols (resolver, file, NULL);

  for (guint i = 0; i < edges->len; i++)
    {
      LodeCallEdge *edge = g_ptr_array_index (edges, i);
      const LodeCallSymbol *caller = edge->site->caller >= 0 ? &symbols[edge->site->caller]
                                                             : NULL;

      /* A name a table or a router gives that is no function of the project: nothing. */
      if ((edge->site->flags & LODE_CALL_REGISTRATION) && edge->status != LODE_CALL_REGISTERED)
        continue;
      if (edge->targets == NULL || edge->targets->len == 0)
        {
          g_ptr_array_add (rows, stored_call_new (path, caller, edge));
          continue;
        }
      for (guint t = 0; t < edge->targets->len; t++)
        {
          LodeCallTarget *target = &g_array_index (edge->targets, LodeCallTarget, t);
          const LodeCallSymbol *symbol =
            &lode_call_resolver_get_symbols (resolver, target->file, NULL)[target->symbol];
          LodeStoredCall *call = stored_call_new (path, caller, edge);

          call->target_path = g_strdup (lode_call_resolver_get_path (resolver, target->file));
          call->target_line = symbol->start_line;
          g_ptr_array_add (rows, call);
        }
    }
  return rows;
}

static void
lode_call_graph_finalize (GObject *object)
{
  LodeCallGraph *self = LODE_CALL_GRAPH (object);

  g_clear_pointer (&self->nodes, g_array_unref);
  g_clear_pointer (&self->by_line, g_hash_table_unref);
  g_clear_pointer (&self->by_name, g_hash_table_unref);
  g_clear_pointer (&self->calls, g_ptr_array_unref);
  g_clear_pointer (&self->callees, g_ptr_array_unref);
  g_clear_pointer (&self->callers, g_ptr_array_unref);
  g_clear_pointer (&self->entries, g_hash_table_unref);
  g_clear_pointer (&self->strings, g_string_chunk_free);

  G_OBJECT_CLASS (lode_call_graph_parent_class)->finalize (object);
}

static void
lode_call_graph_class_init (LodeCallGraphClass *klass)
{
  G_OBJECT_CLASS (klass)->finalize = lode_call_graph_finalize;
}

static void
links_free (gpointer links)
{
  if (links != NULL)
    g_array_unref (links);
}

static void
lode_call_graph_init (LodeCallGraph *self)
{
  self->strings = g_string_chunk_new (64 * 1024);
  self->nodes = g_array_new (FALSE, TRUE, sizeof (LodeCallNode));
  self->by_line = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) g_hash_table_unref);
  self->entries = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) registration_free);
  self->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                         (GDestroyNotify) g_array_unref);
  self->calls = g_ptr_array_new_with_free_func (g_free);
  self->callees = g_ptr_array_new_with_free_func (links_free);
  self->callers = g_ptr_array_new_with_free_func (links_free);
}

LodeCallGraph *
lode_call_graph_new (void)
{
  return g_object_new (LODE_TYPE_CALL_GRAPH, NULL);
}

static int
compare_paths (const void *a,
               const void *b)
{
  return strcmp (*(const char * const *) a, *(const char * const *) b);
}

static guint node_at (LodeCallGraph *self,
                      const char    *path,
                      guint          line);

/* @text kept in the graph's strings, once however often it is given */
static const char *
intern (LodeCallGraph *self,
        const char    *text)
{
  return text != NULL ? g_string_chunk_insert_const (self->strings, text) : NULL;
}

/* Moves the string at @field, which the caller gave up, into the graph's strings. */
static void
take_text (LodeCallGraph  *self,
           char          **field)
{
  g_autofree char *owned = *field;

  *field = (char *) intern (self, owned);
}

/* A handler a table or a router names, as its call site: file, line and name. */
static char *
registration_key (const char *path,
                  guint       line,
                  const char *name)
{
  return g_strdup_printf ("%s:%u:%s", path, line, name != NULL ? name : "");
}

/**
 * lode_call_graph_add_entry:
 * @self: a #LodeCallGraph
 * @node: a definition
 * @reason: why it is an entry point: "command", "route"
 * @label: the command or the route (`add`, `GET /users/{id}`)
 *
 * Marks a definition that the code registers as an entry point; the first registration of
 * a definition is the one kept.
 */
void
lode_call_graph_add_entry (LodeCallGraph *self,
                           guint          node,
                           const char    *reason,
                           const char    *label)
{
  g_return_if_fail (LODE_IS_CALL_GRAPH (self));
  g_return_if_fail (node < self->nodes->len && reason != NULL);

  if (!g_hash_table_contains (self->entries, GUINT_TO_POINTER (node + 1)))
    g_hash_table_insert (self->entries, GUINT_TO_POINTER (node + 1),
                         registration_new (reason, label));
}

/**
 * lode_call_graph_load:
 * @store: a project's index
 * @error: return location for a #GError
 *
 * The call graph the index keeps: the definitions of every file with call sites (as the
 * chunker listed them, lode_index_store_put_call_sites()) and every call.
 *
 * Returns: (transfer full) (nullable): the graph, or %NULL with @error (a store error, or
 *   damaged call sites, %G_IO_ERROR_INVALID_DATA, naming the file)
 */
LodeCallGraph *
lode_call_graph_load (LodeIndexStore  *store,
                      GError         **error)
{
  g_autoptr(LodeCallGraph) self = lode_call_graph_new ();
  g_autoptr(GHashTable) sites = lode_index_store_dup_call_sites (store, error);
  g_autoptr(GHashTable) registered = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                            (GDestroyNotify) registration_free);
  g_autofree const char **paths = NULL;
  guint n, first;

  if (sites == NULL)
    return NULL;
  paths = (const char **) g_hash_table_get_keys_as_array (sites, &n);
  qsort (paths, n, sizeof (char *), compare_paths);
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(LodeCalls) parsed = lode_calls_new_from_bytes (g_hash_table_lookup (sites,
                                                                                    paths[i]),
                                                               &symbols, error);

      if (parsed == NULL)
        {
          g_prefix_error (error, "Cannot read the calls of %s: ", paths[i]);
          return NULL;
        }
      first = self->nodes->len;
      for (guint s = 0; s < symbols->len; s++)
        {
          const LodeSymbol *symbol = g_ptr_array_index (symbols, s);

          lode_call_graph_add_node (self, paths[i], symbol->name, symbol->kind,
                                    symbol->container, symbol->scope, symbol->signature,
                                    symbol->start_line, symbol->end_line);
        }
      for (guint b = 0; b < parsed->bindings->len; b++)
        {
          const LodeCallBinding *binding = g_ptr_array_index (parsed->bindings, b);

          if (binding->kind != LODE_CALL_BINDING_ENTRY)
            continue;
          if (binding->scope >= 0)
            lode_call_graph_add_entry (self, first + binding->scope, binding->target,
                                       binding->name);
          else if (binding->path != NULL)
            g_hash_table_replace (registered,
                                  registration_key (paths[i], binding->line, binding->path),
                                  registration_new (binding->target, binding->name));
        }
    }

  /* File by file, in path order: only one file's rows are ever copied out of the store at
   * once, and the first registration of a definition is the same in every index. */
  for (guint i = 0; i < n; i++)
    {
      g_autoptr(GPtrArray) calls = lode_index_store_dup_calls (store, paths[i], error);

      if (calls == NULL)
        return NULL;
      for (guint c = 0; c < calls->len; c++)
        {
          LodeStoredCall *call = g_ptr_array_index (calls, c);

          lode_call_graph_add_call (self, g_steal_pointer (&g_ptr_array_index (calls, c)));
          if (call->status == LODE_CALL_REGISTERED)
            {
              g_autofree char *key = registration_key (call->path, call->line, call->callee);
              const Registration *registration = g_hash_table_lookup (registered, key);
              guint target = node_at (self, call->target_path, call->target_line);

              if (registration != NULL && target != LODE_CALL_GRAPH_NONE)
                lode_call_graph_add_entry (self, target, registration->reason,
                                           registration->label);
            }
        }
    }
  return g_steal_pointer (&self);
}

static gboolean
is_callable (const char *kind)
{
  return g_strcmp0 (kind, "function") == 0 || g_strcmp0 (kind, "method") == 0 ||
         g_strcmp0 (kind, "constructor") == 0;
}

/**
 * lode_call_graph_add_node:
 * @self: a #LodeCallGraph
 *
 * Adds a definition; every definition is added before the calls.
 *
 * Returns: its id
 */
guint
lode_call_graph_add_node (LodeCallGraph *self,
                          const char    *path,
                          const char    *name,
                          const char    *kind,
                          const char    *container,
                          const char    *scope,
                          const char    *signature,
                          guint          start_line,
                          guint          end_line)
{
  LodeCallNode node;
  GHashTable *lines;
  guint id;
  gpointer old;
  GArray *named;

  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), 0);

  /* A signature is its definition's own: kept, not looked for among the others. */
  node = (LodeCallNode) {
    intern (self, path), intern (self, name), g_intern_string (kind), intern (self, container),
    intern (self, scope),
    signature != NULL ? g_string_chunk_insert (self->strings, signature) : NULL,
    start_line, end_line
  };
  id = self->nodes->len;
  lines = g_hash_table_lookup (self->by_line, node.path);
  if (lines == NULL)
    {
      lines = g_hash_table_new (NULL, NULL);
      g_hash_table_insert (self->by_line, (gpointer) node.path, lines);
    }
  old = g_hash_table_lookup (lines, GUINT_TO_POINTER (start_line));

  g_array_append_val (self->nodes, node);
  g_ptr_array_add (self->callees, NULL);
  g_ptr_array_add (self->callers, NULL);

  /* Two definitions on one line (a class and its constructor): calls name the callable. */
  if (old == NULL || (!is_callable (g_array_index (self->nodes, LodeCallNode,
                                                   GPOINTER_TO_UINT (old) - 1).kind) &&
                      is_callable (node.kind)))
    g_hash_table_insert (lines, GUINT_TO_POINTER (start_line), GUINT_TO_POINTER (id + 1));

  named = g_hash_table_lookup (self->by_name, node.name);
  if (named == NULL)
    {
      named = g_array_new (FALSE, FALSE, sizeof (guint));
      g_hash_table_insert (self->by_name, (gpointer) node.name, named);
    }
  g_array_append_val (named, id);
  return id;
}

static guint
node_at (LodeCallGraph *self,
         const char    *path,
         guint          line)
{
  GHashTable *lines;
  gpointer found;

  if (path == NULL || line == 0)
    return LODE_CALL_GRAPH_NONE;
  lines = g_hash_table_lookup (self->by_line, path);
  found = lines != NULL ? g_hash_table_lookup (lines, GUINT_TO_POINTER (line)) : NULL;
  return found != NULL ? GPOINTER_TO_UINT (found) - 1 : LODE_CALL_GRAPH_NONE;
}

static void
add_link (GPtrArray            *lists,
          guint                 at,
          guint                 other,
          const LodeStoredCall *call)
{
  LodeCallLink link = { other, call };
  GArray *links = g_ptr_array_index (lists, at);

  if (links == NULL)
    {
      links = g_array_new (FALSE, FALSE, sizeof (LodeCallLink));
      g_ptr_array_index (lists, at) = links;
    }
  g_array_append_val (links, link);
}

/**
 * lode_call_graph_add_call:
 * @self: a #LodeCallGraph
 * @call: (transfer full): a call; its text moves into the graph's strings
 *
 * Adds a call, after the definitions: its caller and target are the definitions that start on
 * their lines.
 */
void
lode_call_graph_add_call (LodeCallGraph  *self,
                          LodeStoredCall *call)
{
  guint caller, target;

  g_return_if_fail (LODE_IS_CALL_GRAPH (self));

  take_text (self, &call->path);
  take_text (self, &call->caller);
  take_text (self, &call->callee);
  take_text (self, &call->qualifier);
  take_text (self, &call->target_path);
  take_text (self, &call->package);
  g_ptr_array_add (self->calls, call);
  caller = node_at (self, call->path, call->caller_line);
  target = call->status == LODE_CALL_RESOLVED || call->status == LODE_CALL_AMBIGUOUS ||
           call->status == LODE_CALL_REGISTERED
           ? node_at (self, call->target_path, call->target_line) : LODE_CALL_GRAPH_NONE;
  if (caller != LODE_CALL_GRAPH_NONE)
    add_link (self->callees, caller, target, call);
  if (target != LODE_CALL_GRAPH_NONE)
    add_link (self->callers, target, caller, call);
}

guint
lode_call_graph_get_n_nodes (LodeCallGraph *self)
{
  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), 0);

  return self->nodes->len;
}

const LodeCallNode *
lode_call_graph_get_node (LodeCallGraph *self,
                          guint          node)
{
  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  return &g_array_index (self->nodes, LodeCallNode, node);
}

/**
 * lode_call_graph_lookup:
 * @self: a #LodeCallGraph
 * @path: a file
 * @line: the first line of a definition there
 * @node: (out): the definition (a callable before another one starting on that line)
 *
 * Returns: whether a definition starts there
 */
gboolean
lode_call_graph_lookup (LodeCallGraph *self,
                        const char    *path,
                        guint          line,
                        guint         *node)
{
  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), FALSE);

  *node = node_at (self, path, line);
  return *node != LODE_CALL_GRAPH_NONE;
}

/* Whether the parts of @text (a scope, a container, a path without its extension) end with
 * @qualifier. */
static gboolean
ends_with_parts (const char         *text,
                 const char * const *qualifier)
{
  g_auto(GStrv) parts = NULL;
  g_autofree char *stem = NULL;
  char *dot;

  if (text == NULL)
    return FALSE;
  stem = g_strdup (text);
  dot = strrchr (stem, '.');
  if (dot != NULL && strchr (dot, '/') == NULL && strchr (text, '/') != NULL)
    *dot = '\0';
  parts = lode_symbol_name_parts (stem);
  return lode_symbol_parts_end_with ((const char * const *) parts, qualifier);
}

static gboolean
in_file (const LodeCallNode *node,
         const char         *file)
{
  gsize n, m;

  if (file == NULL)
    return TRUE;
  n = strlen (file);
  m = strlen (node->path);
  return strcmp (node->path, file) == 0 ||
         (m > n && g_str_has_suffix (node->path, file) && node->path[m - n - 1] == '/');
}

/**
 * lode_call_graph_find:
 * @self: a #LodeCallGraph
 * @name: a short name or a qualified one as the tools print it (`a::b::T::m`,
 *   `pkg.Type.Method`, `Class::method`, `module.func`): the parts before the name end its
 *   scope, its container or its file's path
 * @file: (nullable): a path, or its last components, the definition must be in
 *
 * A prototype (a C header's declaration) is found only when no callable is: it leads to
 * its definition, so `strbuf_addf` names one function, not it and its declaration.
 *
 * Returns: (transfer full) (element-type guint): the definitions, callables first, then in
 *   the order they were added
 */
GArray *
lode_call_graph_find (LodeCallGraph *self,
                      const char    *name,
                      const char    *file)
{
  g_auto(GStrv) parts = lode_symbol_name_parts (name);
  guint n = g_strv_length (parts);
  GArray *found = g_array_new (FALSE, FALSE, sizeof (guint));
  GArray *named;

  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), found);

  if (n == 0)
    return found;
  named = g_hash_table_lookup (self->by_name, parts[n - 1]);
  g_free (parts[n - 1]);
  parts[n - 1] = NULL;
  for (guint pass = 0; named != NULL && pass < 2; pass++)
    for (guint i = 0; i < named->len; i++)
      {
        guint id = g_array_index (named, guint, i);
        const LodeCallNode *node = &g_array_index (self->nodes, LodeCallNode, id);
        const char * const *qualifier = (const char * const *) parts;

        if (is_callable (node->kind) != (pass == 0) || !in_file (node, file))
          continue;
        if (found->len > 0 && g_strcmp0 (node->kind, "prototype") == 0)
          continue;
        if (n > 1 && !ends_with_parts (node->scope, qualifier) &&
            !ends_with_parts (node->container, qualifier) &&
            !ends_with_parts (node->path, qualifier))
          continue;
        g_array_append_val (found, id);
      }
  return found;
}

/* Calls by file, line, callee, then target: the same whatever order a store read them in. */
static gint
compare_links (gconstpointer a,
               gconstpointer b)
{
  const LodeStoredCall *x = ((const LodeCallLink *) a)->call;
  const LodeStoredCall *y = ((const LodeCallLink *) b)->call;
  int c;

  if ((c = g_strcmp0 (x->path, y->path)) != 0)
    return c;
  if (x->line != y->line)
    return x->line < y->line ? -1 : 1;
  if ((c = g_strcmp0 (x->callee, y->callee)) != 0)
    return c;
  if ((c = g_strcmp0 (x->target_path, y->target_path)) != 0)
    return c;
  return (x->target_line > y->target_line) - (x->target_line < y->target_line);
}

static GArray *
dup_links (GPtrArray *lists,
           guint      node)
{
  GArray *links = g_ptr_array_index (lists, node);
  GArray *copy = g_array_new (FALSE, FALSE, sizeof (LodeCallLink));

  if (links != NULL)
    g_array_append_vals (copy, links->data, links->len);
  g_array_sort (copy, compare_links);
  return copy;
}

/**
 * lode_call_graph_dup_callers:
 * @self: a #LodeCallGraph
 * @node: a definition
 *
 * Returns: (transfer full) (element-type LodeCallLink): the calls that reach @node (resolved,
 *   or ambiguous with @node a candidate), by file and line
 */
GArray *
lode_call_graph_dup_callers (LodeCallGraph *self,
                             guint          node)
{
  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  return dup_links (self->callers, node);
}

/**
 * lode_call_graph_dup_callees:
 * @self: a #LodeCallGraph
 * @node: a definition
 *
 * Returns: (transfer full) (element-type LodeCallLink): the calls @node makes, whatever their
 *   resolution, by line
 */
GArray *
lode_call_graph_dup_callees (LodeCallGraph *self,
                             guint          node)
{
  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), NULL);
  g_return_val_if_fail (node < self->nodes->len, NULL);

  return dup_links (self->callees, node);
}

/* Breadth first from @start over resolved calls (towards callers or callees), to @depth; every
 * definition met once, with its distance and the one it was reached from. Stops early when
 * @stop is met. */
static GArray *
walk (LodeCallGraph *self,
      guint          start,
      gboolean       callers,
      guint          depth,
      guint          stop)
{
  GArray *reached = g_array_new (FALSE, FALSE, sizeof (LodeCallReach));
  g_autoptr(GHashTable) seen = g_hash_table_new (NULL, NULL);
  LodeCallReach first = { start, 0, LODE_CALL_GRAPH_NONE };
  GPtrArray *lists = callers ? self->callers : self->callees;

  g_array_append_val (reached, first);
  g_hash_table_add (seen, GUINT_TO_POINTER (start + 1));
  for (guint i = 0; i < reached->len; i++)
    {
      LodeCallReach at = g_array_index (reached, LodeCallReach, i);
      GArray *links = g_ptr_array_index (lists, at.node);

      if (at.node == stop)
        break;
      if (at.distance >= depth || links == NULL)
        continue;
      for (guint l = 0; l < links->len; l++)
        {
          LodeCallLink *link = &g_array_index (links, LodeCallLink, l);
          LodeCallReach next = { link->node, at.distance + 1, at.node };

          if (link->node == LODE_CALL_GRAPH_NONE || link->call->status != LODE_CALL_RESOLVED ||
              g_hash_table_contains (seen, GUINT_TO_POINTER (link->node + 1)))
            continue;
          g_hash_table_add (seen, GUINT_TO_POINTER (link->node + 1));
          g_array_append_val (reached, next);
        }
    }
  return reached;
}

/**
 * lode_call_graph_reach:
 * @self: a #LodeCallGraph
 * @start: a definition
 * @callers: %TRUE to walk to the callers (what a change of @start affects), %FALSE to the
 *   callees
 * @depth: how many calls away at most
 *
 * Returns: (transfer full) (element-type LodeCallReach): @start (distance 0), then each
 *   definition reached through resolved calls, nearest first
 */
GArray *
lode_call_graph_reach (LodeCallGraph *self,
                       guint          start,
                       gboolean       callers,
                       guint          depth)
{
  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), NULL);
  g_return_val_if_fail (start < self->nodes->len, NULL);

  return walk (self, start, callers, depth, LODE_CALL_GRAPH_NONE);
}

/* The definitions from @reached's start to its element @index. */
static GArray *
path_to (GArray *reached,
         guint   index)
{
  GArray *path = g_array_new (FALSE, FALSE, sizeof (guint));
  LodeCallReach *at = &g_array_index (reached, LodeCallReach, index);

  g_array_prepend_val (path, at->node);
  while (at->via != LODE_CALL_GRAPH_NONE)
    {
      guint i;

      for (i = 0; g_array_index (reached, LodeCallReach, i).node != at->via; i++)
        ;
      at = &g_array_index (reached, LodeCallReach, i);
      g_array_prepend_val (path, at->node);
    }
  return path;
}

/**
 * lode_call_graph_trace:
 * @self: a #LodeCallGraph
 * @from: where the calls start
 * @to: where they should lead
 * @depth: how many calls at most
 * @reached: (out): whether @to was reached
 *
 * A shortest chain of resolved calls from @from to @to; when there is none within @depth, the
 * chain to the furthest definition @from reaches (the first met at that distance).
 *
 * Returns: (transfer full) (element-type guint): the definitions along the chain, @from first
 */
GArray *
lode_call_graph_trace (LodeCallGraph *self,
                       guint          from,
                       guint          to,
                       guint          depth,
                       gboolean      *reached)
{
  g_autoptr(GArray) walked = NULL;
  guint furthest = 0;

  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), NULL);
  g_return_val_if_fail (from < self->nodes->len && to < self->nodes->len, NULL);

  walked = walk (self, from, FALSE, depth, to);
  for (guint i = 0; i < walked->len; i++)
    {
      LodeCallReach *at = &g_array_index (walked, LodeCallReach, i);

      if (at->node == to)
        {
          *reached = TRUE;
          return path_to (walked, i);
        }
      if (at->distance > g_array_index (walked, LodeCallReach, furthest).distance)
        furthest = i;
    }
  *reached = FALSE;
  return path_to (walked, furthest);
}

static gboolean
is_test_name (const char *name)
{
  return g_str_has_prefix (name, "test") || g_str_has_prefix (name, "Test") ||
         g_str_has_suffix (name, "Test") || g_str_has_suffix (name, "_test");
}

static guint
count_resolved (GArray *links,
                gboolean skip_self,
                guint    self_node)
{
  guint n = 0;

  for (guint i = 0; links != NULL && i < links->len; i++)
    {
      LodeCallLink *link = &g_array_index (links, LodeCallLink, i);

      if (link->call->status == LODE_CALL_RESOLVED && !(skip_self && link->node == self_node))
        n++;
    }
  return n;
}

static int
reason_rank (const char *reason)
{
  static const char * const order[] = { "main", "command", "route", "uncalled", NULL };

  for (guint i = 0; order[i] != NULL; i++)
    if (strcmp (reason, order[i]) == 0)
      return i;
  return G_N_ELEMENTS (order);
}

static gint
compare_entries (gconstpointer a,
                 gconstpointer b)
{
  const LodeCallEntry *x = a, *y = b;
  int rx = reason_rank (x->reason), ry = reason_rank (y->reason);

  if (rx != ry)
    return rx - ry;
  if (x->n_callees != y->n_callees)
    return x->n_callees > y->n_callees ? -1 : 1;
  return x->node < y->node ? -1 : x->node > y->node;
}

/**
 * lode_call_graph_entry_points:
 * @self: a #LodeCallGraph
 * @limit: at most this many
 *
 * Where the calls start: `main` functions, then the functions a table of commands or a router
 * registers (lode_call_graph_add_entry()), then functions and methods nothing in the project
 * calls but which call into it (exported API, handlers a framework finds by itself), then
 * test functions (by their file or name); the busiest first within each.
 *
 * Returns: (transfer full) (element-type LodeCallEntry): the entry points, ranked
 */
GArray *
lode_call_graph_entry_points (LodeCallGraph *self,
                              guint          limit)
{
  GArray *entries = g_array_new (FALSE, FALSE, sizeof (LodeCallEntry));

  g_return_val_if_fail (LODE_IS_CALL_GRAPH (self), entries);

  for (guint i = 0; i < self->nodes->len; i++)
    {
      const LodeCallNode *node = &g_array_index (self->nodes, LodeCallNode, i);
      GArray *out = g_ptr_array_index (self->callees, i);
      LodeCallEntry entry = { i, NULL, NULL, count_resolved (out, FALSE, i) };
      const Registration *registration = g_hash_table_lookup (self->entries,
                                                              GUINT_TO_POINTER (i + 1));

      if (!is_callable (node->kind))
        continue;
      if (registration != NULL)
        {
          entry.reason = registration->reason;
          entry.label = registration->label;
        }
      else if (strcmp (node->name, "main") == 0 && !_lode_path_is_test (node->path))
        entry.reason = "main";
      else if (_lode_path_is_test (node->path) || is_test_name (node->name))
        entry.reason = entry.n_callees > 0 ? "test" : NULL;
      else if (entry.n_callees > 0 &&
               count_resolved (g_ptr_array_index (self->callers, i), TRUE, i) == 0)
        entry.reason = "uncalled";
      if (entry.reason != NULL)
        g_array_append_val (entries, entry);
    }
  g_array_sort (entries, compare_entries);
  if (entries->len > limit)
    g_array_set_size (entries, limit);
  return entries;
}
