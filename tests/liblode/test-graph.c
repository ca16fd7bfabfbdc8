/* test-graph.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <pthread.h>
#include <string.h>

#include <glib.h>

#include "lode-graph.h"
#include "lode-graph-diagram.h"

/* Small enough that an algorithm recursing once per file of a long chain would overflow it. */
#define SMALL_STACK (256 * 1024)

/* A graph from "a>b" edge specs; files are added in the order they appear. */
static LodeGraph *
graph_from_edges (const char *const *edges)
{
  LodeGraph *graph = lode_graph_new ();

  for (guint i = 0; edges[i] != NULL; i++)
    {
      g_auto(GStrv) ends = g_strsplit (edges[i], ">", 2);
      guint from = lode_graph_add_file (graph, ends[0], "c");

      if (g_str_has_prefix (ends[1], "pkg:"))
        lode_graph_add_external (graph, from, ends[1] + 4);
      else if (ends[1][0] != '\0')
        lode_graph_add_edge (graph, from, lode_graph_add_file (graph, ends[1], "python"));
    }
  lode_graph_freeze (graph);

  return graph;
}

static guint
id_of (LodeGraph  *graph,
       const char *path)
{
  guint id = 0;

  g_assert_true (lode_graph_lookup (graph, path, &id));
  return id;
}

static char *
paths_of (LodeGraph   *graph,
          const guint *ids,
          guint        n)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < n; i++)
    g_string_append_printf (out, "%s%s", i > 0 ? " " : "", lode_graph_get_path (graph, ids[i]));

  return g_string_free (out, FALSE);
}

static char *
hits_to_string (LodeGraph *graph,
                GArray    *hits)
{
  GString *out = g_string_new (NULL);

  for (guint i = 0; i < hits->len; i++)
    {
      const LodeGraphHit *hit = &g_array_index (hits, LodeGraphHit, i);

      g_string_append_printf (out, "%s%s:%u:%u", i > 0 ? " " : "",
                              lode_graph_get_path (graph, hit->file), hit->distance, hit->links);
    }

  return g_string_free (out, FALSE);
}

static const char *const diamond[] = {
  "app.c>ui.c", "app.c>db.c", "ui.c>util.c", "db.c>util.c", "util.c>pkg:glib",
  "app.c>pkg:glib", "db.c>pkg:sqlite3", "util.c>log.c", "app.c>ui.c", "lonely.c>", NULL
};

static void
test_imports_dependents (void)
{
  g_autoptr(LodeGraph) graph = graph_from_edges (diamond);
  g_autoptr(GPtrArray) packages = NULL;
  g_autofree char *imports = NULL;
  g_autofree char *dependents = NULL;
  const guint *ids;
  guint n;

  g_assert_cmpuint (lode_graph_get_n_files (graph), ==, 6);
  g_assert_false (lode_graph_lookup (graph, "missing.c", NULL));

  /* The repeated app.c → ui.c counts once. */
  ids = lode_graph_get_imports (graph, id_of (graph, "app.c"), &n);
  imports = paths_of (graph, ids, n);
  g_assert_cmpstr (imports, ==, "ui.c db.c");

  ids = lode_graph_get_dependents (graph, id_of (graph, "util.c"), &n);
  dependents = paths_of (graph, ids, n);
  g_assert_cmpstr (dependents, ==, "ui.c db.c");

  packages = lode_graph_dup_packages (graph, id_of (graph, "db.c"));
  g_assert_cmpuint (packages->len, ==, 1);
  g_assert_cmpstr (g_ptr_array_index (packages, 0), ==, "sqlite3");
  g_assert_cmpstr (lode_graph_get_language (graph, id_of (graph, "log.c")), ==, "python");
}

static void
test_impact (void)
{
  g_autoptr(LodeGraph) graph = graph_from_edges (diamond);
  g_autoptr(GArray) inbound = NULL;
  g_autoptr(GArray) outbound = NULL;
  g_autoptr(GArray) shallow = NULL;
  g_autofree char *in_text = NULL;
  g_autofree char *out_text = NULL;
  g_autofree char *shallow_text = NULL;
  guint log = id_of (graph, "log.c");
  guint app = id_of (graph, "app.c");

  /* app.c is two links away from util.c (through ui.c and db.c): it sorts by distance first. */
  inbound = lode_graph_impact (graph, &log, 1, LODE_GRAPH_INBOUND, 5);
  in_text = hits_to_string (graph, inbound);
  g_assert_cmpstr (in_text, ==, "log.c:0:0 util.c:1:1 db.c:2:1 ui.c:2:1 app.c:3:2");

  outbound = lode_graph_impact (graph, &app, 1, LODE_GRAPH_OUTBOUND, 2);
  out_text = hits_to_string (graph, outbound);
  g_assert_cmpstr (out_text, ==, "app.c:0:0 db.c:1:1 ui.c:1:1 util.c:2:2");

  /* Depths beyond the maximum are clamped, not refused; 0 keeps only the start. */
  shallow = lode_graph_impact (graph, &app, 1, LODE_GRAPH_OUTBOUND, 0);
  shallow_text = hits_to_string (graph, shallow);
  g_assert_cmpstr (shallow_text, ==, "app.c:0:0");
}

static void
test_cycles_small (void)
{
  static const char *const edges[] = {
    "a>b", "b>c", "c>a", "c>d", "d>e", "e>d", "f>f", "g>a", "b>a", NULL
  };
  g_autoptr(LodeGraph) graph = graph_from_edges (edges);
  g_autoptr(GPtrArray) cycles = lode_graph_find_cycles (graph);
  LodeGraphCycle *cycle;
  g_autofree char *members0 = NULL;
  g_autofree char *cycle0 = NULL;
  g_autofree char *members1 = NULL;
  g_autofree char *cycle1 = NULL;
  g_autofree char *cycle2 = NULL;

  g_assert_cmpuint (cycles->len, ==, 3);

  /* a → b → a is the shortest cycle through a, not a → b → c → a. */
  cycle = g_ptr_array_index (cycles, 0);
  members0 = paths_of (graph, (guint *) cycle->members->data, cycle->members->len);
  cycle0 = paths_of (graph, (guint *) cycle->cycle->data, cycle->cycle->len);
  g_assert_cmpstr (members0, ==, "a b c");
  g_assert_cmpstr (cycle0, ==, "a b");

  cycle = g_ptr_array_index (cycles, 1);
  members1 = paths_of (graph, (guint *) cycle->members->data, cycle->members->len);
  cycle1 = paths_of (graph, (guint *) cycle->cycle->data, cycle->cycle->len);
  g_assert_cmpstr (members1, ==, "d e");
  g_assert_cmpstr (cycle1, ==, "d e");

  /* A file that imports itself. */
  cycle = g_ptr_array_index (cycles, 2);
  cycle2 = paths_of (graph, (guint *) cycle->cycle->data, cycle->cycle->len);
  g_assert_cmpstr (cycle2, ==, "f");
  g_assert_cmpuint (cycle->members->len, ==, 1);
}

/* tokio's shapes: a module file and its submodules use each other (`mod fs;` and
 * `pub use self::canonicalize::canonicalize;` down, `use crate::fs::asyncify;` up; an inline
 * `mod tests { use super::*; }`), which Rust's module tree makes no cycle; two sibling
 * modules that use each other are one. */
static void
test_cycles_rust_modules (void)
{
  static const char *const edges[][2] = {
    { "tokio/src/lib.rs", "tokio/src/fs/mod.rs" },
    { "tokio/src/fs/mod.rs", "tokio/src/fs/canonicalize.rs" },
    { "tokio/src/fs/canonicalize.rs", "tokio/src/fs/mod.rs" },
    { "tokio/src/fs/canonicalize.rs", "tokio/src/lib.rs" },
    { "tokio-util/src/either.rs", "tokio-util/src/either.rs" },
    { "tokio/src/sync/rwlock.rs", "tokio/src/sync/rwlock/owned_read_guard.rs" },
    { "tokio/src/sync/rwlock/owned_read_guard.rs", "tokio/src/sync/rwlock.rs" },
    { "tokio/src/io/interest.rs", "tokio/src/io/ready.rs" },
    { "tokio/src/io/ready.rs", "tokio/src/io/interest.rs" },
  };
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(GPtrArray) cycles = NULL;
  g_autoptr(GPtrArray) c_cycles = NULL;
  g_autoptr(LodeGraph) c_graph = NULL;
  g_autofree char *members = NULL;

  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    lode_graph_add_edge (graph, lode_graph_add_file (graph, edges[i][0], "rust"),
                         lode_graph_add_file (graph, edges[i][1], "rust"));
  lode_graph_freeze (graph);

  cycles = lode_graph_find_cycles (graph);
  g_assert_cmpuint (cycles->len, ==, 1);
  members = paths_of (graph, (guint *) ((LodeGraphCycle *) cycles->pdata[0])->members->data,
                      ((LodeGraphCycle *) cycles->pdata[0])->members->len);
  g_assert_cmpstr (members, ==, "tokio/src/io/interest.rs tokio/src/io/ready.rs");

  /* The rule is Rust's: the same paths in C are cycles. */
  c_graph = lode_graph_new ();
  for (guint i = 0; i < G_N_ELEMENTS (edges); i++)
    lode_graph_add_edge (c_graph, lode_graph_add_file (c_graph, edges[i][0], "c"),
                         lode_graph_add_file (c_graph, edges[i][1], "c"));
  lode_graph_freeze (c_graph);
  c_cycles = lode_graph_find_cycles (c_graph);
  g_assert_cmpuint (c_cycles->len, ==, 4);
}

static void
test_no_cycles (void)
{
  g_autoptr(LodeGraph) graph = graph_from_edges (diamond);
  g_autoptr(GPtrArray) cycles = lode_graph_find_cycles (graph);

  g_assert_cmpuint (cycles->len, ==, 0);
}

static void
test_stats (void)
{
  g_autoptr(LodeGraph) graph = graph_from_edges (diamond);
  g_autoptr(LodeGraphStats) stats = lode_graph_dup_stats (graph, 2);
  const LodeGraphRank *rank;
  const LodeGraphPackage *package;

  g_assert_cmpuint (stats->n_files, ==, 6);
  g_assert_cmpuint (stats->n_edges, ==, 5);
  g_assert_cmpuint (stats->n_external_edges, ==, 3);

  /* util.c has 2 dependents + 1 import; app.c, db.c and ui.c have two edges each, and ties
   * go to the file with more dependents, then by path: db.c. */
  g_assert_cmpuint (stats->most_connected->len, ==, 2);
  rank = &g_array_index (stats->most_connected, LodeGraphRank, 0);
  g_assert_cmpstr (lode_graph_get_path (graph, rank->file), ==, "util.c");
  g_assert_cmpuint (rank->n_in, ==, 2);
  g_assert_cmpuint (rank->n_out, ==, 1);
  rank = &g_array_index (stats->most_connected, LodeGraphRank, 1);
  g_assert_cmpstr (lode_graph_get_path (graph, rank->file), ==, "db.c");
  g_assert_cmpuint (rank->n_in, ==, 1);

  g_assert_cmpuint (stats->orphans->len, ==, 1);
  g_assert_cmpstr (lode_graph_get_path (graph, g_array_index (stats->orphans, guint, 0)), ==,
                   "lonely.c");

  g_assert_cmpuint (stats->packages->len, ==, 2);
  package = &g_array_index (stats->packages, LodeGraphPackage, 0);
  g_assert_cmpstr (package->package, ==, "glib");
  g_assert_cmpuint (package->n_files, ==, 2);
  package = &g_array_index (stats->packages, LodeGraphPackage, 1);
  g_assert_cmpstr (package->package, ==, "sqlite3");
  g_assert_cmpuint (package->n_files, ==, 1);
}

/* Configuration, documentation and data files never import anything: no edge does not make
 * them orphans. */
static void
test_orphans_code_only (void)
{
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(LodeGraphStats) stats = NULL;
  g_autofree char *orphans = NULL;

  lode_graph_add_edge (graph, lode_graph_add_file (graph, "main.py", "python"),
                       lode_graph_add_file (graph, "util.py", "python"));
  lode_graph_add_file (graph, "README.md", "markdown");
  lode_graph_add_file (graph, "config.json", "json");
  lode_graph_add_file (graph, ".github/ci.yml", "yaml");
  lode_graph_add_file (graph, "notes.txt", "text");
  lode_graph_add_file (graph, "tool.py", "python");
  lode_graph_add_file (graph, "site.css", "css");
  lode_graph_freeze (graph);

  stats = lode_graph_dup_stats (graph, 10);
  orphans = paths_of (graph, (const guint *) (gpointer) stats->orphans->data,
                      stats->orphans->len);
  g_assert_cmpstr (orphans, ==, "site.css tool.py");
}

static char *
to_mermaid (LodeGraph   *graph,
            const guint *focus,
            guint        depth,
            guint        max_boxes)
{
  g_autoptr(LodeGraphDiagram) diagram = lode_graph_diagram_new (graph, focus, depth, max_boxes);

  return lode_graph_diagram_to_mermaid (diagram);
}

static void
test_mermaid_neighbourhood (void)
{
  static const char *const edges[] = { "src/a.c>src/b\"q.c", "src/c.c>src/a.c", NULL };
  g_autoptr(LodeGraph) graph = graph_from_edges (edges);
  guint a = id_of (graph, "src/a.c");
  g_autofree char *diagram = to_mermaid (graph, &a, 1, 60);
  static const char expected[] =
    "flowchart LR\n"
    "  n0[\"src/a.c\"]\n"
    "  n1[\"src/b#quot;q.c\"]\n"
    "  n2[\"src/c.c\"]\n"
    "  n0 --> n1\n"
    "  n2 --> n0\n"
    "  classDef lang_c fill:#555555,color:#fff\n"
    "  class n0,n2 lang_c\n"
    "  classDef lang_python fill:#3572a5,color:#fff\n"
    "  class n1 lang_python\n"
    "  style n0 stroke:#d00,stroke-width:3px\n";

  g_assert_cmpstr (diagram, ==, expected);
}

static void
test_mermaid_bounded (void)
{
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autofree char *diagram = NULL;
  g_autofree char *focused = NULL;
  g_auto(GStrv) lines = NULL;
  guint n_boxes = 0;
  guint hub;

  /* 200 files in 10 directories, each importing lib/hub.c. */
  hub = lode_graph_add_file (graph, "lib/hub.c", "c");
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *path = g_strdup_printf ("dir%u/sub/f%u.c", i % 10, i);

      lode_graph_add_edge (graph, lode_graph_add_file (graph, path, "c"), hub);
    }
  lode_graph_freeze (graph);

  /* More files than boxes: one box per directory, deepest level that fits. */
  diagram = to_mermaid (graph, NULL, 1, 60);
  g_assert_nonnull (strstr (diagram, "[\"dir0/sub/ (20 files)\"]"));
  g_assert_nonnull (strstr (diagram, "[\"lib/ (1 file)\"]"));
  g_assert_nonnull (strstr (diagram, " -->|20| "));
  lines = g_strsplit (diagram, "\n", -1);
  for (guint i = 0; lines[i] != NULL; i++)
    n_boxes += strstr (lines[i], "[\"") != NULL;
  g_assert_cmpuint (n_boxes, ==, 11);

  /* A neighbourhood keeps its nearest files, four fifths of the bound, and draws the
   * others one box per folder, largest first, with the imports each arrow stands for. */
  focused = to_mermaid (graph, &hub, 1, 60);
  g_assert_nonnull (strstr (focused, "  n0[\"lib/hub.c\"]"));
  g_assert_nonnull (strstr (focused, "  n47[\"dir6/sub/f46.c\"]"));
  g_assert_nonnull (strstr (focused, "  n48[\"dir7/sub/ (16 files)\"]"));
  g_assert_nonnull (strstr (focused, "[\"dir0/sub/ (15 files)\"]"));
  g_assert_nonnull (strstr (focused, "  n48 -->|16| n0\n"));
  g_assert_nonnull (strstr (focused, "  n57[\""));
  g_assert_null (strstr (focused, "  n58[\""));
  g_assert_null (strstr (focused, "more"));
}

/* Folders beyond the bound: the last box counts the files left out. */
static void
test_diagram_more (void)
{
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(LodeGraphDiagram) diagram = NULL;
  const LodeGraphBox *last;
  guint hub;
  guint folders = 0;

  hub = lode_graph_add_file (graph, "lib/hub.c", "c");
  for (guint i = 0; i < 200; i++)
    {
      g_autofree char *path = g_strdup_printf ("dir%03u/f%u.c", i / 2, i);

      lode_graph_add_edge (graph, lode_graph_add_file (graph, path, "c"), hub);
    }
  lode_graph_freeze (graph);

  diagram = lode_graph_diagram_new (graph, &hub, 1, 60);
  g_assert_cmpuint (diagram->boxes->len, ==, 60);
  for (guint i = 0; i < diagram->boxes->len; i++)
    folders += g_array_index (diagram->boxes, LodeGraphBox, i).kind == LODE_GRAPH_BOX_FOLDER;
  g_assert_cmpuint (folders, ==, 11);
  last = &g_array_index (diagram->boxes, LodeGraphBox, 59);
  g_assert_cmpint (last->kind, ==, LODE_GRAPH_BOX_MORE);
  /* 200 dependents: 47 files, 11 folders of 2, the rest. */
  g_assert_cmpuint (last->n_files, ==, 200 - 47 - 22);
  g_assert_cmpuint (diagram->n_hidden, ==, last->n_files);
}

/* Files of a cycle and the arrows between them are marked, Rust's module tree aside. */
static void
test_diagram_cycles (void)
{
  static const char *const edges[] = { "a.c>b.c", "b.c>a.c", "b.c>c.c", NULL };
  g_autoptr(LodeGraph) graph = graph_from_edges (edges);
  g_autoptr(LodeGraphDiagram) diagram = lode_graph_diagram_new (graph, NULL, 1, 60);
  g_autofree char *mermaid = lode_graph_diagram_to_mermaid (diagram);

  g_assert_cmpuint (diagram->arrows->len, ==, 3);
  for (guint i = 0; i < diagram->arrows->len; i++)
    {
      const LodeGraphArrow *arrow = &g_array_index (diagram->arrows, LodeGraphArrow, i);
      const LodeGraphBox *to = &g_array_index (diagram->boxes, LodeGraphBox, arrow->to);

      g_assert_cmpint (arrow->in_cycle, ==, g_strcmp0 (to->path, "c.c") != 0);
      g_assert_cmpint (to->in_cycle, ==, g_strcmp0 (to->path, "c.c") != 0);
    }
  g_assert_nonnull (strstr (mermaid, "  linkStyle 0 stroke:#d00\n"));
}

/* Long graphs, on a thread whose stack is too small for recursion. */

static void
check_long_chain (void)
{
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(GPtrArray) cycles = NULL;
  g_autoptr(GArray) hits = NULL;
  guint first = 0;
  guint last = 99999;

  for (guint i = 0; i < 100000; i++)
    {
      g_autofree char *path = g_strdup_printf ("f%06u.c", i);

      g_assert_cmpuint (lode_graph_add_file (graph, path, "c"), ==, i);
      if (i > 0)
        lode_graph_add_edge (graph, i - 1, i);
    }
  lode_graph_freeze (graph);

  cycles = lode_graph_find_cycles (graph);
  g_assert_cmpuint (cycles->len, ==, 0);

  hits = lode_graph_impact (graph, &last, 1, LODE_GRAPH_INBOUND, 5);
  g_assert_cmpuint (hits->len, ==, 6);
  g_assert_cmpuint (g_array_index (hits, LodeGraphHit, 5).file, ==, 99994);
  g_assert_cmpuint (g_array_index (hits, LodeGraphHit, 5).distance, ==, 5);
  g_clear_pointer (&hits, g_array_unref);
  hits = lode_graph_impact (graph, &first, 1, LODE_GRAPH_OUTBOUND, 5);
  g_assert_cmpuint (hits->len, ==, 6);
}

static void
check_long_cycle (guint n_files)
{
  g_autoptr(LodeGraph) graph = lode_graph_new ();
  g_autoptr(GPtrArray) cycles = NULL;
  LodeGraphCycle *cycle;

  for (guint i = 0; i < n_files; i++)
    {
      g_autofree char *path = g_strdup_printf ("f%06u.c", i);

      lode_graph_add_file (graph, path, "c");
    }
  for (guint i = 0; i < n_files; i++)
    lode_graph_add_edge (graph, i, (i + 1) % n_files);
  lode_graph_freeze (graph);

  cycles = lode_graph_find_cycles (graph);
  g_assert_cmpuint (cycles->len, ==, 1);
  cycle = g_ptr_array_index (cycles, 0);
  g_assert_cmpuint (cycle->members->len, ==, n_files);
  g_assert_cmpuint (cycle->cycle->len, ==, n_files);
  for (guint i = 0; i < n_files; i++)
    g_assert_cmpuint (g_array_index (cycle->cycle, guint, i), ==, i);
}

static void *
long_graphs_thread_func (void *data)
{
  check_long_chain ();
  check_long_cycle (10000);
  /* The whole 100,000-file chain closed into one cycle: Tarjan's stack at its deepest. */
  check_long_cycle (100000);

  return data;
}

static void
test_long_graphs_small_stack (void)
{
  static int done;
  pthread_attr_t attr;
  pthread_t thread;
  void *result = NULL;

  g_assert_cmpint (pthread_attr_init (&attr), ==, 0);
  g_assert_cmpint (pthread_attr_setstacksize (&attr, SMALL_STACK), ==, 0);
  g_assert_cmpint (pthread_create (&thread, &attr, long_graphs_thread_func, &done), ==, 0);
  g_assert_cmpint (pthread_join (thread, &result), ==, 0);
  g_assert_true (result == &done);
  pthread_attr_destroy (&attr);
}

int
main (int   argc,
      char *argv[])
{
  g_test_init (&argc, &argv, G_TEST_OPTION_ISOLATE_DIRS, NULL);

  g_test_add_func ("/lode/graph/imports-dependents", test_imports_dependents);
  g_test_add_func ("/lode/graph/impact", test_impact);
  g_test_add_func ("/lode/graph/cycles-small", test_cycles_small);
  g_test_add_func ("/lode/graph/cycles-rust-modules", test_cycles_rust_modules);
  g_test_add_func ("/lode/graph/no-cycles", test_no_cycles);
  g_test_add_func ("/lode/graph/stats", test_stats);
  g_test_add_func ("/lode/graph/orphans-code-only", test_orphans_code_only);
  g_test_add_func ("/lode/graph/mermaid-neighbourhood", test_mermaid_neighbourhood);
  g_test_add_func ("/lode/graph/mermaid-bounded", test_mermaid_bounded);
  g_test_add_func ("/lode/graph/diagram-more", test_diagram_more);
  g_test_add_func ("/lode/graph/diagram-cycles", test_diagram_cycles);
  g_test_add_func ("/lode/graph/long-graphs-small-stack", test_long_graphs_small_stack);

  return g_test_run ();
}
