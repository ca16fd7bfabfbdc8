/* lode-chunker-conditionals.c — C and C++ blocks that `#if` lines cut apart, parsed whole
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunker"

#include "config.h"

#include <string.h>

#include "lode-chunker-private.h"

/*
 * tree-sitter-c parses `#if … #endif` as a node that holds whole statements or declarations.
 * Code that opens a brace in one conditional block and closes it in another,
 *
 *     #if DECSUBSET
 *     if (set->extended) {
 *     #endif
 *       decDivideOp(dac, &dnOne, lhs, &aset, DIVIDE, &status);
 *     #if DECSUBSET
 *       }
 *     #endif
 *
 * (jq's decNumber.c, 3,300 lines of it) leaves an error that swallows every definition up to
 * a point far below: no symbol, no chunk of their own, no call. When the parse of a C or C++
 * file has an error that holds a conditional directive line, the file is parsed again with
 * tree-sitter's included ranges set to everything but those lines, which reads every branch
 * as if all were compiled (the braces above balance), and that parse is kept when it has
 * fewer errors.
 * Positions do not move, so the chunks, symbols and calls read the file's text as it is.
 *
 * The grammar also ends a `#define`'s body at the first comment in it: what follows on the
 * line is read as code, an error that takes the declaration below with it, as in
 *
 *     #define diff_debug_filespec(a,b,c) do { / * nothing * / } while (0)
 *     void diff_debug_filepair(const struct diff_filepair *, int);
 *
 * (git's diffcore.h; zstd's ZSTD_COMPRESSBOUND() loses ZSTD_compressBound() the same way).
 * Such comments, those with more of the body after them, are left out of the parse in the
 * same way, first, and the conditional lines then when errors remain.
 */

typedef struct
{
  guint32 start_byte;
  guint32 end_byte;
  guint32 row;
} Directive;

static gboolean
is_conditional (const char *word,
                gsize       len)
{
  static const char * const words[] = {
    "if", "ifdef", "ifndef", "elif", "elifdef", "elifndef", "else", "endif", NULL
  };

  for (guint i = 0; words[i] != NULL; i++)
    if (strlen (words[i]) == len && memcmp (words[i], word, len) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
is_define (const char *word,
           gsize       len)
{
  return len == 6 && memcmp (word, "define", 6) == 0;
}

/* Whether only blanks and line continuations lie between @p and @end. */
static gboolean
only_blanks (const char *text,
             gsize       p,
             gsize       end)
{
  for (; p < end; p++)
    if (text[p] != ' ' && text[p] != '\t' && text[p] != '\r' && text[p] != '\\' &&
        text[p] != '\n')
      return FALSE;
  return TRUE;
}

/* The block comments of the `#define` line from @start to @end (continued lines included)
 * that more of the macro's body follows, added to @comments; @row is @start's. As the
 * grammar reads them: also inside a string (`"/ * x * /"` ends the body there too). A `//`
 * comment ends the body. */
static void
find_body_comments (const char *text,
                    gsize       start,
                    gsize       end,
                    guint32     row,
                    GArray     *comments)
{
  for (gsize p = start; p < end; p++)
    {
      if (text[p] == '\n')
        row++;
      else if (text[p] == '/' && p + 1 < end && text[p + 1] == '/')
        return;
      else if (text[p] == '/' && p + 1 < end && text[p + 1] == '*')
        {
          Directive comment = { p, 0, row };

          for (p += 2; p + 1 < end && !(text[p] == '*' && text[p + 1] == '/'); p++)
            if (text[p] == '\n')
              row++;
          if (p + 1 >= end)
            return;
          p++;
          comment.end_byte = p + 1;
          if (!only_blanks (text, p + 1, end))
            g_array_append_val (comments, comment);
        }
    }
}

/* The conditional directive lines of @text, each from its `#` to its end (continued lines
 * included, the last newline not), and into @comments the block comments inside `#define`
 * lines that more of the body follows (find_body_comments()). */
static GArray *
find_directives (const char *text,
                 gsize       len,
                 GArray     *comments)
{
  GArray *directives = g_array_new (FALSE, FALSE, sizeof (Directive));
  gsize p = 0;
  guint32 row = 0;

  while (p < len)
    {
      gsize start, word;

      while (p < len && (text[p] == ' ' || text[p] == '\t'))
        p++;
      start = p;
      if (p < len && text[p] == '#')
        {
          p++;
          while (p < len && (text[p] == ' ' || text[p] == '\t'))
            p++;
          word = p;
          while (p < len && g_ascii_isalpha (text[p]))
            p++;
          if (is_conditional (text + word, p - word) || is_define (text + word, p - word))
            {
              Directive directive = { start, 0, row };
              guint32 rows = 0;
              gboolean define = is_define (text + word, p - word);

              while (p < len && (text[p] != '\n' || (p > 0 && text[p - 1] == '\\')))
                {
                  if (text[p] == '\n')
                    rows++;
                  p++;
                }
              directive.end_byte = p;
              if (define)
                find_body_comments (text, start, p, row, comments);
              else
                g_array_append_val (directives, directive);
              row += rows;
            }
        }
      while (p < len && text[p] != '\n')
        p++;
      if (p < len)
        {
          p++;
          row++;
        }
    }
  return directives;
}

/* Everything but @directives, as included ranges. */
static GArray *
included_ranges (const char *text,
                 GArray     *directives)
{
  GArray *ranges = g_array_sized_new (FALSE, FALSE, sizeof (TSRange), directives->len + 1);
  TSRange range = { { 0, 0 }, { 0, 0 }, 0, 0 };

  for (guint i = 0; i < directives->len; i++)
    {
      const Directive *directive = &g_array_index (directives, Directive, i);
      const char *line_start = text + directive->start_byte;
      const char *end_line;
      guint32 rows = 0;

      while (line_start > text && line_start[-1] != '\n')
        line_start--;
      range.end_point = (TSPoint) { directive->row,
                                    directive->start_byte - (guint32) (line_start - text) };
      range.end_byte = directive->start_byte;
      if (range.end_byte > range.start_byte)
        g_array_append_val (ranges, range);
      for (const char *c = text + directive->start_byte; c < text + directive->end_byte; c++)
        if (*c == '\n')
          rows++;
      end_line = text + directive->end_byte;
      while (end_line > text && end_line[-1] != '\n')
        end_line--;
      range.start_point = (TSPoint) { directive->row + rows,
                                      directive->end_byte - (guint32) (end_line - text) };
      range.start_byte = directive->end_byte;
    }
  range.end_point = (TSPoint) { G_MAXUINT32, G_MAXUINT32 };
  range.end_byte = G_MAXUINT32;
  g_array_append_val (ranges, range);
  return ranges;
}

static gboolean
holds_directive (GArray *directives,
                 TSNode  node)
{
  guint32 start = ts_node_start_byte (node), end = ts_node_end_byte (node);
  guint lo = 0, hi = directives->len;

  /* The first directive that starts at or after @start. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (g_array_index (directives, Directive, mid).start_byte < start)
        lo = mid + 1;
      else
        hi = mid;
    }
  return lo < directives->len && g_array_index (directives, Directive, lo).start_byte < end;
}

typedef struct
{
  guint   n;        /* error and missing nodes */
  guint32 bytes;    /* the text error nodes hold, those inside others once */
} Errors;

/* The errors of @tree: error and missing nodes, past which nothing is counted (nor their
 * bytes); with @directives, only errors that hold one of them are counted. */
static Errors
tally_errors (TSTree *tree,
              GArray *directives,
              guint   past)
{
  TSTreeCursor cursor = ts_tree_cursor_new (ts_tree_root_node (tree));
  Errors errors = { 0, 0 };
  guint32 outer_end = 0;

  for (;;)
    {
      TSNode node = ts_tree_cursor_current_node (&cursor);

      /* An error that starts before the end of the last one lies inside it. */
      if (ts_node_is_error (node) && ts_node_start_byte (node) >= outer_end)
        {
          outer_end = ts_node_end_byte (node);
          errors.bytes += outer_end - ts_node_start_byte (node);
        }
      /* A missing node has no width: the node it is missing from tells. */
      if (ts_node_is_error (node) &&
          (directives == NULL || holds_directive (directives, node)))
        errors.n++;
      else if (ts_node_is_missing (node) &&
               (directives == NULL || holds_directive (directives, ts_node_parent (node))))
        errors.n++;
      if (errors.n > past)
        break;
      if (ts_node_has_error (node) && !ts_node_is_missing (node) &&
          ts_tree_cursor_goto_first_child (&cursor))
        continue;
      while (!ts_tree_cursor_goto_next_sibling (&cursor))
        if (!ts_tree_cursor_goto_parent (&cursor))
          goto done;
    }
done:
  ts_tree_cursor_delete (&cursor);
  return errors;
}

/* @tree parsed again without @excluded (sorted, apart), if that has fewer errors (with
 * @by_bytes, if its errors hold fewer bytes); @tree when not (*@kept says which). %NULL
 * when the budget ran out (ctx->spent tells). */
static TSTree *
reparse_without (Ctx      *ctx,
                 TSParser *parser,
                 TSTree   *tree,
                 GArray   *excluded,
                 gboolean  by_bytes,
                 gboolean *kept)
{
  g_autoptr(GArray) ranges = included_ranges (ctx->text, excluded);
  TSTree *again;
  Errors before, after;

  *kept = FALSE;
  if (!ts_parser_set_included_ranges (parser, (const TSRange *) (gpointer) ranges->data,
                                      ranges->len))
    return tree;
  again = lode_parse_budget_parse (ctx->budget, parser, ctx->text, ctx->len, 0);
  ts_parser_set_included_ranges (parser, NULL, 0);
  if (again == NULL)
    {
      ctx->spent = lode_parse_budget_spent (ctx->budget);
      if (ctx->spent)
        {
          ts_tree_delete (tree);
          return NULL;
        }
      return tree;
    }
  before = tally_errors (tree, NULL, G_MAXUINT);
  after = tally_errors (again, NULL, by_bytes ? G_MAXUINT : before.n);
  if (by_bytes ? after.bytes < before.bytes : after.n < before.n)
    {
      ts_tree_delete (tree);
      *kept = TRUE;
      return again;
    }
  ts_tree_delete (again);
  return tree;
}

static gint
compare_directives (gconstpointer a,
                    gconstpointer b)
{
  guint32 x = ((const Directive *) a)->start_byte, y = ((const Directive *) b)->start_byte;

  return x < y ? -1 : x > y;
}

/**
 * _lode_chunker_repair_preprocessor:
 * @ctx: the file
 * @parser: the parser that made @tree, still set to its language
 * @tree: (transfer full): the file's parse
 *
 * Returns: (transfer full) (nullable): the parse of the file without the comments inside
 *   its macros' bodies, kept when less of the text is in errors, then without its
 *   conditional directive lines, kept when it has fewer errors; else @tree; %NULL when the
 *   budget ran out (ctx->spent tells)
 */
TSTree *
_lode_chunker_repair_preprocessor (Ctx      *ctx,
                                   TSParser *parser,
                                   TSTree   *tree)
{
  g_autoptr(GArray) comments = g_array_new (FALSE, FALSE, sizeof (Directive));
  g_autoptr(GArray) directives = NULL;
  gboolean kept = FALSE;

  if (!ts_node_has_error (ts_tree_root_node (tree)))
    return tree;
  directives = find_directives (ctx->text, ctx->len, comments);
  /* Rare enough (a file with errors and such a comment) to be parsed again without asking
   * whether its errors are there: they often begin past the comment, anywhere below. Kept
   * when less of the text is in errors: an unknown macro's error may stay, smaller. */
  if (comments->len > 0)
    {
      tree = reparse_without (ctx, parser, tree, comments, TRUE, &kept);
      if (tree == NULL || !ts_node_has_error (ts_tree_root_node (tree)))
        return tree;
      if (!kept)
        g_array_set_size (comments, 0);
    }
  /* Errors that no conditional line lies in are not theirs (an unknown macro, say): one
   * parse is enough. */
  if (directives->len == 0 || tally_errors (tree, directives, 0).n == 0)
    return tree;
  g_array_append_vals (directives, comments->data, comments->len);
  g_array_sort (directives, compare_directives);
  return reparse_without (ctx, parser, tree, directives, FALSE, &kept);
}
