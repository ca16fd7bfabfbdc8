/* lode-chunker-private.h — what the parts of the chunker share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <tree_sitter/api.h>

#include "lode-chunker.h"
#include "lode-parse-budget.h"
#include "lode-symbol-extract.h"

G_BEGIN_DECLS

/*
 * The chunker is split by what it does with a file (see the overview in lode-chunker.c):
 * lode-chunker.c parses it and runs the steps, lode-chunker-defs.c turns the query's matches
 * into nested definitions with their names, signatures and docs and lists them as symbols,
 * lode-chunker-pieces.c cuts lines into pieces and merges them into chunks,
 * lode-chunker-sections.c finds the structure of files without a grammar,
 * lode-chunker-macros.c parses the items inside Rust macro invocations as items.
 */

#define SIGNATURE_MAX        200
#define NAME_MAX_BYTES       256
#define MAX_NESTING          64

typedef enum
{
  ROLE_NONE,
  ROLE_DEFINITION,
  ROLE_NAME,
  ROLE_DOC,
  ROLE_BODY,
  ROLE_CONTAINER,
  ROLE_ATTRIBUTE,
} CaptureRole;

/* What each capture of a compiled query means, worked out once per chunker and language. */
typedef struct
{
  TSQuery      *query;
  guint         n_captures;
  CaptureRole  *roles;
  const char  **kinds;
  const guint8 *roots;      /* lode_language_get_chunk_roots() */
  guint         n_symbols;  /* of the grammar, the length of roots */
} QueryInfo;

typedef struct _Def Def;
struct _Def
{
  TSNode      node;
  TSNode      body;
  guint32     start_byte;
  guint32     end_byte;
  guint32     name_byte;
  guint       pattern;         /* index of the query pattern that matched, to break ties */
  guint       start_row;
  guint       end_row;
  guint       doc_row;         /* first row of the comment block above; start_row if none */
  const char *kind;
  char       *name;
  char       *container;
  char       *signature;
  char       *doc;
  char       *context;         /* lazily, for pieces of this definition once split */
  Def        *parent;
  Def        *first_child;
  Def        *last_child;
  Def        *next_sibling;
  guint       has_node : 1;
  guint       has_body : 1;
  guint       contains : 1;    /* a class-like scope: its name is its members' container */
};

/* A comment, or an attribute that may stand between a doc comment and its definition. */
typedef struct
{
  guint   start_row;
  guint   end_row;
  guint32 start_byte;
  guint32 end_byte;
  guint   attribute : 1;
} Comment;

typedef enum
{
  PIECE_GAP,
  PIECE_DEF,
  PIECE_PART,
} PieceType;

typedef struct
{
  guint     s;
  guint     e;
  gsize     tokens;
  gsize     byte_start;        /* only for pieces of a line cut by characters */
  gsize     byte_end;
  Def      *def;               /* first definition held */
  Def      *owner;             /* the split definition this is a piece of */
  Def      *scope;             /* the innermost split definition around this piece */
  guint     n_defs;
  PieceType type : 2;
  guint     is_chars : 1;
  guint     mergeable : 1;
  guint     merged : 1;
  guint     head : 1;
} Piece;

typedef struct
{
  const char    *path;           /* (nullable) the file's path in its project */
  const char    *text;
  gsize          len;
  TSQueryCursor *cursor;         /* the chunker's, for the chunk query */
  gsize         *line_start;     /* n_lines + 1 entries; the last is len (+1 without final \n) */
  gsize         *cum_tokens;     /* prefix sums of per-line token estimates */
  guint8        *cut_depth;      /* per row: how good a place to start a piece it is */
  guint8        *blank;
  guint          n_lines;
  gsize          max;
  GArray        *defs;           /* Def */
  GArray        *comments;       /* Comment */
  GArray        *macro_names;    /* LodeSymbolSite: Rust macros whose items were parsed */
  GArray        *out;            /* Piece, in file order */
  const LodeParseBudget *budget;
  gboolean       spent;          /* the budget ran out during the parse or a query */
} Ctx;

/* Line helpers. */

static inline gsize
line_end (Ctx   *ctx,
          guint  row)
{
  gsize end = ctx->line_start[row + 1];

  /* Without the newline; the last line may have none. */
  if (end > ctx->line_start[row] && end - 1 < ctx->len && ctx->text[end - 1] == '\n')
    end--;
  return MIN (end, ctx->len);
}

static inline gsize
range_tokens (Ctx   *ctx,
              guint  s,
              guint  e)
{
  return ctx->cum_tokens[e + 1] - ctx->cum_tokens[s];
}

static inline guint
row_of_point (Ctx     *ctx,
              TSPoint  point)
{
  return MIN (point.row, ctx->n_lines - 1);
}

/* The last row a node really occupies: a node that ends at column 0 (it swallowed the final
 * newline, as preprocessor lines do) ends on the row before. */
static inline guint
node_end_row (Ctx    *ctx,
              TSNode  node)
{
  TSPoint start = ts_node_start_point (node);
  TSPoint end = ts_node_end_point (node);

  if (end.column == 0 && end.row > start.row)
    return row_of_point (ctx, end) - (end.row <= ctx->n_lines - 1 ? 1 : 0);
  return row_of_point (ctx, end);
}

/* lode-chunker-defs.c */
gsize      _lode_chunker_utf8_bound                (const char         *str,
                                                    gsize               len,
                                                    gsize               max);
char      *_lode_chunker_collapse_ws               (const char         *str,
                                                    gsize               len,
                                                    gsize               max);
void       _lode_chunker_def_clear                 (Def                *def);
void       _lode_chunker_collect_matches           (Ctx                *ctx,
                                                    QueryInfo          *info,
                                                    TSNode              root);
void       _lode_chunker_build_tree                (Ctx                *ctx);
void       _lode_chunker_emit_symbols              (Ctx                *ctx,
                                                    const LodeLanguage *language,
                                                    TSNode              root,
                                                    GPtrArray          *imports,
                                                    GPtrArray          *symbols);

/* lode-chunker-pieces.c */
void       _lode_chunker_scan_lines                (Ctx                *ctx);
gboolean   _lode_chunker_is_minified               (Ctx                *ctx);
void       _lode_chunker_mark_paragraph_cuts       (Ctx                *ctx);
void       _lode_chunker_mark_cuts                 (Ctx                *ctx,
                                                    TSTreeCursor       *cursor,
                                                    guint               depth);
void       _lode_chunker_pack_lines                (Ctx                *ctx,
                                                    GArray             *level,
                                                    guint               s,
                                                    guint               e,
                                                    guint               overlap,
                                                    Def                *owner,
                                                    Def                *scope);
void       _lode_chunker_merge_level               (Ctx                *ctx,
                                                    GArray             *level,
                                                    GArray             *out);
void       _lode_chunker_emit_range                (Ctx                *ctx,
                                                    GArray             *out,
                                                    Def                *first_child,
                                                    guint               s,
                                                    guint               e,
                                                    Def                *scope,
                                                    guint               depth);
LodeChunk *_lode_chunker_piece_to_chunk            (Ctx                *ctx,
                                                    const Piece        *p);

/* lode-chunker-macros.c */
TSTree    *_lode_chunker_expand_macros             (Ctx                *ctx,
                                                    TSParser           *parser,
                                                    TSTree             *tree,
                                                    GArray             *names);

/* lode-chunker-conditionals.c */
TSTree    *_lode_chunker_repair_preprocessor       (Ctx                *ctx,
                                                    TSParser           *parser,
                                                    TSTree             *tree);

/* lode-chunker-sections.c */
void       _lode_chunker_find_markdown_sections    (Ctx                *ctx);
void       _lode_chunker_find_key_sections         (Ctx                *ctx,
                                                    gboolean            toml);
void       _lode_chunker_link_sections             (Ctx                *ctx);

G_END_DECLS
