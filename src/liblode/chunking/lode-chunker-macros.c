/* lode-chunker-macros.c — Rust items inside macro invocations, parsed as items
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunker"

#include "config.h"

#include <string.h>

#include "lode-chunker-private.h"

/*
 * tree-sitter-rust parses the body of a macro invocation as a token tree: for `cfg_rt! { pub
 * fn spawn_blocking … }` it sees tokens, no function. Crates such as tokio put most of their
 * public API in such blocks (`cfg_rt!`, `cfg_net!`, `cfg_sync!`, nested, with attributes and
 * doc comments), so their items would have no symbol, no chunk of their own, no `mod` in the
 * import graph.
 *
 * An invocation at item level (in a file, a module, an impl or a trait) whose body is braced
 * and starts like an item (an attribute, a keyword that begins an item, or another macro
 * invocation) is taken to hold items. The file is parsed again with tree-sitter's included
 * ranges set to everything but those invocations' heads (`cfg_rt! {`) and closing braces: the
 * parser sees the items where the invocation was, with the positions they have in the file,
 * so everything downstream (the chunk query, the imports, the references, the nesting of
 * methods in their impl) works on one tree. A nested invocation is at item level in the new
 * tree and comes out in the next parse; MAX_EXPANSIONS parses at most. The parses share the
 * file's budget: one that runs out fails the whole parse, as an over-long first parse does.
 */

#define MAX_EXPANSIONS  8

typedef struct
{
  guint32 start_byte;
  guint32 end_byte;
  TSPoint start_point;
  TSPoint end_point;
} Span;

static gboolean
is_type (TSNode      node,
         const char *type)
{
  return strcmp (ts_node_type (node), type) == 0;
}

/* The first tokens of an item: `#[attr]`, `pub`, `fn`, `mod`…, or `name!` (an invocation). */
static gboolean
starts_item (TSNode first,
             TSNode second)
{
  static const char * const keywords[] = {
    "#", "pub", "fn", "mod", "use", "struct", "enum", "impl", "trait", "type", "const",
    "static", "unsafe", "async", "extern", NULL
  };

  if (g_strv_contains (keywords, ts_node_type (first)))
    return TRUE;
  return is_type (first, "identifier") && !ts_node_is_null (second) && is_type (second, "!");
}

/* Adds the head and the closing brace of @invocation to @spans when its body holds items. */
static void
add_item_macro (Ctx    *ctx,
                TSNode  invocation,
                GArray *spans,
                GArray *names)
{
  uint32_t n = ts_node_child_count (invocation);
  TSNode body = n > 0 ? ts_node_child (invocation, n - 1) : invocation;
  uint32_t n_tokens = ts_node_child_count (body);
  TSNode open, close, first = { 0 }, second = { 0 };
  TSNode name = lode_node_child_by_field (invocation, "macro");
  Span head, tail;

  if (!is_type (body, "token_tree") || n_tokens < 3)
    return;
  open = ts_node_child (body, 0);
  close = ts_node_child (body, n_tokens - 1);
  if (!is_type (open, "{") || !is_type (close, "}"))
    return;

  /* Doc comments may come first. */
  for (uint32_t i = 1; i + 1 < n_tokens; i++)
    {
      TSNode token = ts_node_child (body, i);

      if (strstr (ts_node_type (token), "comment") != NULL)
        continue;
      first = token;
      second = i + 2 < n_tokens ? ts_node_child (body, i + 1) : second;
      break;
    }
  if (ts_node_is_null (first) || !starts_item (first, second))
    return;

  head.start_byte = ts_node_start_byte (invocation);
  head.start_point = ts_node_start_point (invocation);
  head.end_byte = ts_node_end_byte (open);
  head.end_point = ts_node_end_point (open);
  tail.start_byte = ts_node_start_byte (close);
  tail.start_point = ts_node_start_point (close);
  tail.end_byte = ts_node_end_byte (close);
  tail.end_point = ts_node_end_point (close);
  g_array_append_val (spans, head);
  g_array_append_val (spans, tail);

  if (!ts_node_is_null (name) && ts_node_end_byte (name) <= ctx->len)
    {
      LodeSymbolSite site = { ts_node_start_byte (name), ts_node_end_byte (name),
                              ts_node_start_point (name).row + 1 };

      g_array_append_val (names, site);
    }
}

/* The item-level macro invocations of @tree: in the file, and in the bodies of modules,
 * impls, traits and extern blocks, at any depth. */
static void
find_item_macros (Ctx    *ctx,
                  TSTree *tree,
                  GArray *spans,
                  GArray *names)
{
  static const char * const scopes[] = {
    "mod_item", "impl_item", "trait_item", "foreign_mod_item", "declaration_list", NULL
  };
  TSTreeCursor cursor = ts_tree_cursor_new (ts_tree_root_node (tree));
  guint depth = 0;

  if (!ts_tree_cursor_goto_first_child (&cursor))
    goto done;
  for (;;)
    {
      TSNode node = ts_tree_cursor_current_node (&cursor);
      gboolean descend = FALSE;

      if (is_type (node, "macro_invocation"))
        add_item_macro (ctx, node, spans, names);
      else if (g_strv_contains (scopes, ts_node_type (node)))
        descend = TRUE;

      if (descend && depth < MAX_NESTING && ts_tree_cursor_goto_first_child (&cursor))
        {
          depth++;
          continue;
        }
      while (!ts_tree_cursor_goto_next_sibling (&cursor))
        {
          if (depth == 0 || !ts_tree_cursor_goto_parent (&cursor))
            goto done;
          depth--;
        }
    }
done:
  ts_tree_cursor_delete (&cursor);
}

static gint
compare_spans (gconstpointer a,
               gconstpointer b)
{
  const Span *x = a;
  const Span *y = b;

  return (x->start_byte > y->start_byte) - (x->start_byte < y->start_byte);
}

static gint
compare_sites (gconstpointer a,
               gconstpointer b)
{
  const LodeSymbolSite *x = a;
  const LodeSymbolSite *y = b;

  return (x->start_byte > y->start_byte) - (x->start_byte < y->start_byte);
}

/* Everything but @spans (sorted, apart), as tree-sitter's included ranges. */
static GArray *
included_ranges (GArray *spans)
{
  GArray *ranges = g_array_sized_new (FALSE, FALSE, sizeof (TSRange), spans->len + 1);
  TSRange range = { { 0, 0 }, { 0, 0 }, 0, 0 };

  for (guint i = 0; i < spans->len; i++)
    {
      const Span *span = &g_array_index (spans, Span, i);

      range.end_point = span->start_point;
      range.end_byte = span->start_byte;
      if (range.end_byte > range.start_byte)
        g_array_append_val (ranges, range);
      range.start_point = span->end_point;
      range.start_byte = span->end_byte;
    }
  range.end_point.row = G_MAXUINT32;
  range.end_point.column = G_MAXUINT32;
  range.end_byte = G_MAXUINT32;
  g_array_append_val (ranges, range);
  return ranges;
}

/**
 * _lode_chunker_expand_macros:
 * @ctx: the file
 * @parser: the parser that made @tree, still set to its language
 * @tree: (transfer full): the file's parse
 * @names: (element-type LodeSymbolSite): where to add the names of the invocations taken
 *   apart, in file order (they are no longer in the tree, but are references)
 *
 * Returns: (transfer full) (nullable): the file's parse with the items of Rust item macros
 *   parsed as items; @tree itself when there are none; %NULL when a parse failed or the
 *   budget ran out (ctx->spent tells which)
 */
TSTree *
_lode_chunker_expand_macros (Ctx      *ctx,
                             TSParser *parser,
                             TSTree   *tree,
                             GArray   *names)
{
  g_autoptr(GArray) spans = g_array_new (FALSE, FALSE, sizeof (Span));

  for (guint pass = 0; pass < MAX_EXPANSIONS; pass++)
    {
      g_autoptr(GArray) ranges = NULL;
      guint n_spans = spans->len;
      guint n_names = names->len;
      TSTree *expanded;

      find_item_macros (ctx, tree, spans, names);
      if (spans->len == n_spans)
        break;

      g_array_sort (spans, compare_spans);
      ranges = included_ranges (spans);
      if (!ts_parser_set_included_ranges (parser, (const TSRange *) (gpointer) ranges->data,
                                          ranges->len))
        {
          /* Not expected from spans cut out of one parse; the parse as it is will do. */
          g_array_set_size (names, n_names);
          break;
        }
      expanded = lode_parse_budget_parse (ctx->budget, parser, ctx->text, ctx->len, 0);
      ts_parser_set_included_ranges (parser, NULL, 0);
      ts_tree_delete (tree);
      if (expanded == NULL)
        {
          ctx->spent = lode_parse_budget_spent (ctx->budget);
          return NULL;
        }
      tree = expanded;
    }

  g_array_sort (names, compare_sites);
  return tree;
}
