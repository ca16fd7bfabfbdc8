/* lode-chunker-pieces.c — token estimates, cut points, pieces of lines and their merging
 * into chunks
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunker"

#include "config.h"

#include <string.h>

#include "lode-chunker-private.h"

#define CONTEXT_MAX          1024
#define MINIFIED_AVG_LINE    300
#define MINIFIED_LONG_LINE   2000
#define BYTES_PER_TOKEN_MAX  16
#define NO_CUT               255
#define WEAK_CUT             250

/* Token estimate, one byte at a time so that a line can be cut at a token budget.
 *
 * BPE vocabularies of code models spend about one token on a short word, several on a long
 * identifier, one on most punctuation characters, and one or more per non-ASCII character.
 * So: a run of [A-Za-z0-9_] costs one token per started 6 bytes, each ASCII punctuation byte
 * and each non-ASCII character one token, white space nothing. On git's C sources this gives
 * about 3.3 bytes per token, close to what real tokenizers report, where bytes / 4 would
 * undercount dense code and overcount indentation. */
typedef struct
{
  guint word_len;
} TokenState;

static inline guint
token_step (TokenState *state,
            guchar      c)
{
  if (g_ascii_isalnum (c) || c == '_')
    return (state->word_len++ % 6) == 0;

  state->word_len = 0;
  if (c >= 0xc0)
    return 1;
  if (c >= 0x80 || g_ascii_isspace (c))
    return 0;
  return 1;
}

/**
 * lode_estimate_tokens:
 * @text: UTF-8 text
 * @len: length of @text in bytes
 *
 * A cheap estimate of how many model tokens @text takes: one per started six bytes of a word,
 * one per punctuation byte and per non-ASCII character; white space is free.
 *
 * Returns: the estimate
 */
guint
lode_estimate_tokens (const char *text,
                      gsize       len)
{
  TokenState state = { 0 };
  guint tokens = 0;

  g_return_val_if_fail (text != NULL || len == 0, 0);

  for (gsize i = 0; i < len; i++)
    tokens += token_step (&state, (guchar) text[i]);

  return tokens;
}

/* Computes line offsets, per-line token counts and blank lines, a line at a time: memchr()
 * finds the line breaks, the bytes between them are looked at once. */
void
_lode_chunker_scan_lines (Ctx *ctx)
{
  const char *text = ctx->text;
  const char *end = text + ctx->len;
  guint n_lines = 0;
  guint row = 0;

  for (const char *p = text; p < end && (p = memchr (p, '\n', end - p)) != NULL; p++)
    n_lines++;
  if (ctx->len > 0 && end[-1] != '\n')
    n_lines++;

  ctx->n_lines = n_lines;
  ctx->line_start = g_new (gsize, n_lines + 1);
  ctx->cum_tokens = g_new (gsize, n_lines + 1);
  ctx->blank = g_new (guint8, n_lines + 1);
  ctx->cut_depth = g_new (guint8, n_lines + 1);
  memset (ctx->cut_depth, NO_CUT, n_lines + 1);

  ctx->line_start[0] = 0;
  ctx->cum_tokens[0] = 0;

  for (const char *p = text; row < n_lines; row++)
    {
      const char *newline = memchr (p, '\n', end - p);
      const char *stop = newline != NULL ? newline : end;
      TokenState state = { 0 };
      gsize line_tokens = 0;
      gboolean is_blank = TRUE;

      for (const char *q = p; q < stop; q++)
        {
          line_tokens += token_step (&state, (guchar) *q);
          if (!g_ascii_isspace (*q))
            is_blank = FALSE;
        }

      ctx->blank[row] = is_blank;
      ctx->cum_tokens[row + 1] = ctx->cum_tokens[row] +
                                 MAX (line_tokens, (gsize) (stop - p) / BYTES_PER_TOKEN_MAX);
      ctx->line_start[row + 1] = newline != NULL ? (gsize) (newline + 1 - text) : ctx->len + 1;
      p = newline != NULL ? newline + 1 : end;
    }

  /* Rows right after a blank line are acceptable places to cut when nothing better exists. */
  for (guint r = 1; r < n_lines; r++)
    if (ctx->blank[r - 1] && !ctx->blank[r])
      ctx->cut_depth[r] = WEAK_CUT;
}

gboolean
_lode_chunker_is_minified (Ctx *ctx)
{
  gsize long_bytes = 0;

  if (ctx->n_lines == 0)
    return FALSE;
  if (ctx->len / ctx->n_lines > MINIFIED_AVG_LINE)
    return TRUE;

  for (guint r = 0; r < ctx->n_lines; r++)
    {
      gsize bytes = ctx->line_start[r + 1] - ctx->line_start[r];

      if (bytes > MINIFIED_LONG_LINE)
        long_bytes += bytes;
    }

  return long_bytes > ctx->len / 2;
}

void
_lode_chunker_mark_paragraph_cuts (Ctx *ctx)
{
  for (guint r = 1; r < ctx->n_lines; r++)
    if (ctx->cut_depth[r] == WEAK_CUT)
      ctx->cut_depth[r] = 0;
}

/* Marks the start rows of the named children of an oversized node as cut points, deeper
 * ones as worse, and recurses into children that are themselves oversized. */
void
_lode_chunker_mark_cuts (Ctx          *ctx,
                         TSTreeCursor *cursor,
                         guint         depth)
{
  if (!ts_tree_cursor_goto_first_child (cursor))
    return;

  do
    {
      TSNode node = ts_tree_cursor_current_node (cursor);
      guint s, e;

      if (!ts_node_is_named (node))
        continue;

      s = row_of_point (ctx, ts_node_start_point (node));
      e = node_end_row (ctx, node);
      if (depth < ctx->cut_depth[s])
        ctx->cut_depth[s] = depth;
      if (e > s && depth + 1 < WEAK_CUT && range_tokens (ctx, s, e) > ctx->max)
        _lode_chunker_mark_cuts (ctx, cursor, depth + 1);
    }
  while (ts_tree_cursor_goto_next_sibling (cursor));

  ts_tree_cursor_goto_parent (cursor);
}

static void
add_piece (GArray   *level,
           Ctx      *ctx,
           guint     s,
           guint     e,
           Def      *owner,
           Def      *scope,
           gboolean  head)
{
  Piece piece = { 0 };

  piece.s = s;
  piece.e = e;
  piece.tokens = range_tokens (ctx, s, e);
  piece.owner = owner;
  piece.scope = scope;
  piece.type = owner != NULL ? PIECE_PART : PIECE_GAP;
  piece.mergeable = owner == NULL;
  piece.head = head;
  g_array_append_val (level, piece);
}

/* Cuts one line that alone is over budget into pieces by characters. */
static void
split_line (Ctx      *ctx,
            GArray   *level,
            guint     row,
            Def      *owner,
            Def      *scope,
            gboolean  head)
{
  const char *text = ctx->text;
  gsize start = ctx->line_start[row];
  gsize end = line_end (ctx, row);
  gsize max_bytes = ctx->max * BYTES_PER_TOKEN_MAX;

  while (start < end)
    {
      Piece piece = { 0 };
      TokenState state = { 0 };
      gsize tokens = 0;
      gsize cut = start;

      while (cut < end && cut - start < max_bytes)
        {
          guint t = token_step (&state, (guchar) text[cut]);

          if (tokens + t > ctx->max)
            break;
          tokens += t;
          cut++;
        }

      if (cut < end)
        {
          gsize back = cut;

          /* Prefer to end after a space or punctuation within the last 64 bytes. */
          while (back > start + 1 && cut - back < 64 &&
                 (g_ascii_isalnum (text[back - 1]) || text[back - 1] == '_' ||
                  ((guchar) text[back - 1] & 0x80)))
            back--;
          if (back > start + 1 && cut - back < 64)
            cut = back;
          while (cut > start && ((guchar) text[cut] & 0xc0) == 0x80)
            cut--;
          if (cut == start)
            {
              cut = start + 1;
              while (cut < end && ((guchar) text[cut] & 0xc0) == 0x80)
                cut++;
            }
        }

      piece.s = piece.e = row;
      piece.byte_start = start;
      piece.byte_end = cut;
      piece.tokens = lode_estimate_tokens (text + start, cut - start);
      piece.owner = owner;
      piece.scope = scope;
      piece.type = owner != NULL ? PIECE_PART : PIECE_GAP;
      piece.is_chars = TRUE;
      piece.head = head && start == ctx->line_start[row];
      g_array_append_val (level, piece);
      start = cut;
    }
}

/* Where to end a piece that starts at row @a and may extend to row @b: before the row in
 * the later half with the shallowest cut mark, the latest among equals; else before any
 * marked row; else after @b. */
static guint
choose_cut (Ctx   *ctx,
            guint  a,
            guint  b)
{
  guint mid = a + (b + 1 - a + 1) / 2;
  guint best = b + 1;
  guint8 best_depth = NO_CUT;

  for (guint r = b + 1; r >= mid && r > a; r--)
    if (ctx->cut_depth[r] < best_depth)
      {
        best_depth = ctx->cut_depth[r];
        best = r;
      }

  if (best_depth == NO_CUT)
    for (guint r = mid - 1; r > a; r--)
      if (ctx->cut_depth[r] < best_depth)
        {
          best_depth = ctx->cut_depth[r];
          best = r;
        }

  return best;
}

/* Cuts rows @s…@e into pieces of at most max tokens at the best cut points. */
void
_lode_chunker_pack_lines (Ctx    *ctx,
                          GArray *level,
                          guint   s,
                          guint   e,
                          guint   overlap,
                          Def    *owner,
                          Def    *scope)
{
  guint a = s;
  gboolean head = owner != NULL;

  while (a <= e)
    {
      gsize base = ctx->cum_tokens[a];
      guint b, c;

      if (ctx->cum_tokens[e + 1] - base <= ctx->max)
        {
          add_piece (level, ctx, a, e, owner, scope, head);
          return;
        }

      if (range_tokens (ctx, a, a) > ctx->max)
        {
          split_line (ctx, level, a, owner, scope, head);
          head = FALSE;
          a++;
          continue;
        }

      b = a;
      while (b + 1 <= e && ctx->cum_tokens[b + 2] - base <= ctx->max)
        b++;

      c = choose_cut (ctx, a, b);
      add_piece (level, ctx, a, c - 1, owner, scope, head);
      head = FALSE;

      if (overlap > 0 && c > a + overlap && c <= e)
        {
          guint next = c - overlap;

          /* Never step back into lines that are themselves too big to repeat. */
          while (next < c && range_tokens (ctx, next, c - 1) > ctx->max / 4)
            next++;
          a = next;
        }
      else
        a = c;
    }
}

static gboolean
piece_is_blank (const Piece *p)
{
  return p->type == PIECE_GAP && p->tokens == 0 && !p->is_chars;
}

static gboolean
attaches_forward (Ctx         *ctx,
                  const Piece *p,
                  const Piece *next)
{
  return next != NULL && p->type == PIECE_GAP && !p->is_chars && !p->merged &&
         p->tokens <= ctx->max / 8 && p->e + 1 == next->s && !ctx->blank[p->e] &&
         (next->type == PIECE_DEF || (next->type == PIECE_PART && next->head)) &&
         !next->is_chars && p->tokens + next->tokens <= ctx->max;
}

/* Merges the pieces of one nesting level and appends them to @out. */
void
_lode_chunker_merge_level (Ctx    *ctx,
                           GArray *level,
                           GArray *out)
{
  guint first = out->len;
  gsize tiny = ctx->max / 8;
  gsize limit = ctx->max / 2;

  for (guint i = 0; i < level->len; i++)
    {
      Piece p = g_array_index (level, Piece, i);
      const Piece *next = i + 1 < level->len ? &g_array_index (level, Piece, i + 1) : NULL;
      Piece *q = out->len > first ? &g_array_index (out, Piece, out->len - 1) : NULL;

      if (q != NULL && piece_is_blank (&p) && !q->is_chars)
        {
          q->e = p.e;
          continue;
        }

      if (q != NULL && piece_is_blank (q) && !p.is_chars)
        {
          p.s = q->s;
          g_array_set_size (out, out->len - 1);
          q = out->len > first ? &g_array_index (out, Piece, out->len - 1) : NULL;
        }

      if (attaches_forward (ctx, &p, next))
        {
          g_array_append_val (out, p);
          continue;
        }

      if (q != NULL && q->mergeable && p.mergeable && q->tokens + p.tokens <= limit)
        {
          q->e = p.e;
          q->tokens += p.tokens;
          q->n_defs += p.n_defs;
          if (q->def == NULL)
            q->def = p.def;
          if (p.type == PIECE_DEF)
            q->type = PIECE_DEF;
          q->merged = TRUE;
          continue;
        }

      if (q != NULL && p.type == PIECE_GAP && !p.is_chars && !q->is_chars && p.tokens <= tiny &&
          q->tokens + p.tokens <= ctx->max)
        {
          q->e = p.e;
          q->tokens += p.tokens;
          continue;
        }

      if (q != NULL && attaches_forward (ctx, q, &p))
        {
          p.s = q->s;
          p.tokens += q->tokens;
          g_array_set_size (out, out->len - 1);
        }

      g_array_append_val (out, p);
    }
}

/* Emits one definition clamped to rows @s…@e into @level. */
static void
emit_def (Ctx    *ctx,
          GArray *level,
          Def    *def,
          guint   s,
          guint   e,
          Def    *scope,
          guint   depth)
{
  g_autoptr(GArray) inner = NULL;
  Piece piece = { 0 };
  gsize tokens = range_tokens (ctx, s, e);

  if (tokens <= ctx->max)
    {
      piece.s = s;
      piece.e = e;
      piece.tokens = tokens;
      piece.def = def;
      piece.n_defs = 1;
      piece.scope = scope;
      piece.type = PIECE_DEF;
      piece.mergeable = e - s <= 1 && tokens <= ctx->max / 8;
      g_array_append_val (level, piece);
      return;
    }

  inner = g_array_new (FALSE, FALSE, sizeof (Piece));
  if (def->first_child != NULL && depth < MAX_NESTING)
    _lode_chunker_emit_range (ctx, inner, def->first_child, s, e, def, depth + 1);
  else
    {
      g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));

      _lode_chunker_pack_lines (ctx, pieces, s, e, 0, def, def);
      _lode_chunker_merge_level (ctx, pieces, inner);
    }

  for (guint i = 0; i < inner->len; i++)
    {
      Piece *p = &g_array_index (inner, Piece, i);

      p->type = PIECE_PART;
      p->mergeable = FALSE;
    }
  g_array_append_vals (level, inner->data, inner->len);
}

/* Emits rows @s…@e, which hold the sibling definitions starting at @first_child, into @out:
 * the definitions and the text between them, merged. @scope is the split definition they
 * belong to, if any. */
void
_lode_chunker_emit_range (Ctx    *ctx,
                          GArray *out,
                          Def    *first_child,
                          guint   s,
                          guint   e,
                          Def    *scope,
                          guint   depth)
{
  g_autoptr(GArray) level = g_array_new (FALSE, FALSE, sizeof (Piece));
  guint cursor = s;

  for (Def *def = first_child; def != NULL; def = def->next_sibling)
    {
      guint ds = MAX (def->start_row, cursor);
      guint de = MIN (def->end_row, e);

      if (de < ds || ds > e)
        continue;

      /* Take the comment above along, unless only the definition itself fits. */
      if (def->doc_row < ds)
        {
          guint doc_s = MAX (def->doc_row, cursor);

          if (range_tokens (ctx, doc_s, de) <= ctx->max || range_tokens (ctx, ds, de) > ctx->max)
            ds = doc_s;
        }

      if (ds > cursor)
        {
          /* The head of a split definition: its own text before its first member. */
          if (scope != NULL && cursor == s)
            _lode_chunker_pack_lines (ctx, level, cursor, ds - 1, 0, scope, scope);
          else
            _lode_chunker_pack_lines (ctx, level, cursor, ds - 1, 0, NULL, scope);
        }

      emit_def (ctx, level, def, ds, de, scope, depth);
      cursor = de + 1;
    }

  if (cursor <= e)
    _lode_chunker_pack_lines (ctx, level, cursor, e, 0, scope != NULL && cursor == s ? scope : NULL,
                              scope);

  _lode_chunker_merge_level (ctx, level, out);
}

static const char *
def_context (Def *def)
{
  if (def->context == NULL)
    {
      const char *outer = def->parent != NULL ? def_context (def->parent) : NULL;
      const char *sig = def->signature != NULL ? def->signature : def->name;

      if (outer != NULL && *outer != '\0')
        def->context = g_strconcat (outer, "\n", sig, NULL);
      else
        def->context = g_strdup (sig);
      if (strlen (def->context) > CONTEXT_MAX)
        def->context[_lode_chunker_utf8_bound (def->context, strlen (def->context),
                                               CONTEXT_MAX)] = '\0';
    }
  return def->context;
}

static void
fill_merged (LodeChunk   *chunk,
             const Piece *p)
{
  GString *names = g_string_new (NULL);
  const char *kind = p->def->kind;
  const char *container = p->def->container;
  gboolean same_container = TRUE;

  for (Def *def = p->def; def != NULL && def->start_row <= p->e; def = def->next_sibling)
    {
      if (names->len + strlen (def->name) + 1 > NAME_MAX_BYTES)
        break;
      if (names->len > 0)
        g_string_append_c (names, ' ');
      g_string_append (names, def->name);
      if (def->kind != kind)
        kind = NULL;
      if (g_strcmp0 (def->container, container) != 0)
        same_container = FALSE;
    }

  chunk->symbol = g_string_free (names, FALSE);
  chunk->kind = kind;
  chunk->container = same_container ? g_strdup (container) : NULL;
}

LodeChunk *
_lode_chunker_piece_to_chunk (Ctx         *ctx,
                              const Piece *p)
{
  LodeChunk *chunk = lode_chunk_new ();
  gsize start, end;

  chunk->start_line = p->s + 1;
  chunk->end_line = p->e + 1;

  if (p->is_chars)
    {
      start = p->byte_start;
      end = p->byte_end;
    }
  else
    {
      start = ctx->line_start[p->s];
      end = line_end (ctx, p->e);
    }
  /* Not g_strndup (): the text may hold NUL bytes, and content must be exact. */
  chunk->content = g_malloc (end - start + 1);
  memcpy (chunk->content, ctx->text + start, end - start);
  chunk->content[end - start] = '\0';

  if (p->n_defs == 1)
    {
      chunk->kind = p->def->kind;
      chunk->symbol = g_strdup (p->def->name);
      chunk->container = g_strdup (p->def->container);
      chunk->signature = g_strdup (p->def->signature);
      chunk->doc = g_strdup (p->def->doc);
    }
  else if (p->n_defs > 1)
    fill_merged (chunk, p);
  else if (p->owner != NULL)
    {
      chunk->kind = p->owner->kind;
      chunk->symbol = g_strdup (p->owner->name);
      chunk->container = g_strdup (p->owner->container);
      chunk->signature = g_strdup (p->owner->signature);
      if (p->head)
        chunk->doc = g_strdup (p->owner->doc);
    }
  else if (p->scope != NULL)
    chunk->container = g_strdup (p->scope->contains ? p->scope->name : p->scope->container);

  if (p->scope != NULL)
    chunk->context = g_strdup (def_context (p->scope));

  return chunk;
}
