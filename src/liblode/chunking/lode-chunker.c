/* lode-chunker.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* How a file becomes chunks
 *
 * Everything works on whole lines: a file is cut into line ranges, and only a line too long for
 * one chunk is cut by characters. The invariant, checked by the tests, is that the chunks of a
 * file cover each of its lines; they overlap only in the line windows of unstructured text.
 *
 * 1. Definitions. The language's `queries/<id>/chunks.scm` captures each declaration as
 *    `@definition.<kind>` and its name as `@name` (conventions in data/queries/c/chunks.scm).
 *    Definitions nest by byte range. A `@name` whose node has a `declarator` field is followed
 *    down to the declared identifier (C and C++ declarators), and a qualified name `A::f`
 *    yields name `f` in container `A`. A "function" directly inside a class-like definition
 *    becomes a "method". Two matches on the same name node keep the outer one (decorators,
 *    `export`, templates wrap the inner declaration).
 *
 * 2. Chunks. A definition whose lines fit in max_tokens is one chunk, together with the
 *    comment block right above it (its doc). A bigger one with nested definitions is cut into
 *    its head (the lines before the first nested definition), the nested definitions, handled
 *    the same way, and the text between them. A bigger one without nested definitions is cut
 *    into pieces of at most max_tokens at statement boundaries: the start lines of the
 *    children of every syntax node that is itself too big, preferring shallow ones and, among
 *    those, late ones. A line that alone exceeds the budget is cut by characters, at a space
 *    or punctuation when one is near, always at a UTF-8 boundary. Pieces of a split
 *    declaration carry `context`: the signatures of the split declarations around them.
 *
 * 3. Text between definitions (includes, imports, globals) is chunked the same way, cut at
 *    top-level statements when too big.
 *
 * 4. Merging, per nesting level. Blank lines join the previous piece. Small neighbours (text
 *    between definitions, and definitions of at most two lines and max_tokens / 8) merge up to
 *    max_tokens / 2; a chunk holding several such definitions names them all, space-separated,
 *    in `symbol`, and keeps a kind or container only when they share it. A small piece right
 *    above a definition with no blank line in between (attributes, annotations, a comment that
 *    the grammar does not attach) joins that definition; other small leftovers (`#endif`, a
 *    closing brace) join the chunk before them.
 *
 * Files without a grammar: Markdown is cut at ATX headings (sections nest by level), YAML at
 * top-level keys, TOML at tables; the rest (JSON, CSS, HTML, plain text) and any parse that
 * fails or times out by windows of lines of up to max_tokens, preferably ending at a blank
 * line, overlapping by LINE_OVERLAP lines. Minified text (lines of 300 bytes on average, or
 * lines above 2000 bytes holding most of the file) is never parsed: its long lines are cut by
 * characters. Only definitions found by a grammar become symbols.
 *
 * Token estimate: see lode_estimate_tokens(). One pass over the file computes line offsets and
 * per-line token counts as prefix sums, so the size of any line range is O(1) and the whole
 * chunker stays linear in the file size.
 */

#define G_LOG_DOMAIN "lode-chunker"

#include "config.h"

#include <string.h>

#include "lode-calls.h"
#include "lode-chunker.h"
#include "lode-error.h"
#include "lode-parse-budget.h"
#include "lode-symbol-extract.h"

#define PARSE_MAX_BYTES      (8 * 1024 * 1024)
#define SIGNATURE_MAX        200
#define DOC_MAX              1024
#define NAME_MAX_BYTES       256
#define CONTEXT_MAX          1024
#define LINE_OVERLAP         2
#define MINIFIED_AVG_LINE    300
#define MINIFIED_LONG_LINE   2000
#define BYTES_PER_TOKEN_MAX  16
#define NO_CUT               255
#define WEAK_CUT             250
#define MAX_NESTING          64

struct _LodeChunker
{
  GObject        parent_instance;
  TSParser      *parser;
  TSQueryCursor *cursor;
  GHashTable    *query_infos;    /* LodeLanguage* → QueryInfo* */
  guint          max_tokens;
  guint          time_budget_msec;
  GCancellable  *cancellable;
  gulong         cancelled_id;
  size_t         cancelled;      /* set from any thread by cancelled_cb; tree-sitter reads it */
};

G_DEFINE_FINAL_TYPE (LodeChunker, lode_chunker, G_TYPE_OBJECT)

enum { PROP_0, PROP_MAX_TOKENS, PROP_TIME_BUDGET_MSEC, N_PROPS };
static GParamSpec *properties [N_PROPS];

typedef enum
{
  ROLE_NONE,
  ROLE_DEFINITION,
  ROLE_NAME,
  ROLE_DOC,
  ROLE_BODY,
  ROLE_CONTAINER,
} CaptureRole;

/* What each capture of a compiled query means, worked out once per chunker and language. */
typedef struct
{
  TSQuery     *query;
  guint        n_captures;
  CaptureRole *roles;
  const char **kinds;
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

typedef struct
{
  guint   start_row;
  guint   end_row;
  guint32 start_byte;
  guint32 end_byte;
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
  LodeChunker *self;
  const char  *text;
  gsize        len;
  gsize       *line_start;     /* n_lines + 1 entries; the last is len (+1 without final \n) */
  gsize       *cum_tokens;     /* prefix sums of per-line token estimates */
  guint8      *cut_depth;      /* per row: how good a place to start a piece it is */
  guint8      *blank;
  guint        n_lines;
  gsize        max;
  GArray      *defs;           /* Def */
  GArray      *comments;       /* Comment */
  GArray      *out;            /* Piece, in file order */
  const LodeParseBudget *budget;
  gboolean     spent;          /* the budget ran out during the parse or a query */
} Ctx;

static const char *
intern_kind (const char *kind)
{
  return g_intern_string (kind);
}

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

static void
query_info_free (QueryInfo *info)
{
  g_free (info->roles);
  g_free (info->kinds);
  g_free (info);
}

static QueryInfo *
get_query_info (LodeChunker         *self,
                const LodeLanguage  *language,
                GError             **error)
{
  QueryInfo *info;
  TSQuery *query;

  info = g_hash_table_lookup (self->query_infos, language);
  if (info != NULL)
    return info;

  query = lode_language_get_chunk_query (language, error);
  if (query == NULL)
    return NULL;

  info = g_new0 (QueryInfo, 1);
  info->query = query;
  info->n_captures = ts_query_capture_count (query);
  info->roles = g_new0 (CaptureRole, info->n_captures);
  info->kinds = g_new0 (const char *, info->n_captures);

  for (guint i = 0; i < info->n_captures; i++)
    {
      uint32_t name_len;
      const char *name = ts_query_capture_name_for_id (query, i, &name_len);
      g_autofree char *capture = g_strndup (name, name_len);

      if (g_str_has_prefix (capture, "definition."))
        {
          info->roles[i] = ROLE_DEFINITION;
          info->kinds[i] = intern_kind (capture + strlen ("definition."));
        }
      else if (strcmp (capture, "name") == 0)
        info->roles[i] = ROLE_NAME;
      else if (strcmp (capture, "doc") == 0)
        info->roles[i] = ROLE_DOC;
      else if (strcmp (capture, "body") == 0)
        info->roles[i] = ROLE_BODY;
      else if (strcmp (capture, "container") == 0)
        info->roles[i] = ROLE_CONTAINER;
    }

  g_hash_table_insert (self->query_infos, (gpointer) language, info);
  return info;
}

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

/* Computes line offsets, per-line token counts and blank lines in one pass. */
static void
scan_lines (Ctx *ctx)
{
  const char *text = ctx->text;
  gsize len = ctx->len;
  guint n_lines = 0;
  guint row = 0;
  gsize line_bytes = 0;
  gsize line_tokens = 0;
  gboolean is_blank = TRUE;
  TokenState state = { 0 };

  for (gsize i = 0; i < len; i++)
    if (text[i] == '\n')
      n_lines++;
  if (len > 0 && text[len - 1] != '\n')
    n_lines++;

  ctx->n_lines = n_lines;
  ctx->line_start = g_new (gsize, n_lines + 1);
  ctx->cum_tokens = g_new (gsize, n_lines + 1);
  ctx->blank = g_new (guint8, n_lines + 1);
  ctx->cut_depth = g_new (guint8, n_lines + 1);
  memset (ctx->cut_depth, NO_CUT, n_lines + 1);

  ctx->line_start[0] = 0;
  ctx->cum_tokens[0] = 0;

  for (gsize i = 0; i < len; i++)
    {
      guchar c = (guchar) text[i];

      if (c == '\n')
        {
          line_tokens = MAX (line_tokens, line_bytes / BYTES_PER_TOKEN_MAX);
          ctx->blank[row] = is_blank;
          ctx->cum_tokens[row + 1] = ctx->cum_tokens[row] + line_tokens;
          ctx->line_start[++row] = i + 1;
          line_bytes = 0;
          line_tokens = 0;
          is_blank = TRUE;
          state.word_len = 0;
          continue;
        }

      line_bytes++;
      line_tokens += token_step (&state, c);
      if (!g_ascii_isspace (c))
        is_blank = FALSE;
    }

  if (row < n_lines)
    {
      line_tokens = MAX (line_tokens, line_bytes / BYTES_PER_TOKEN_MAX);
      ctx->blank[row] = is_blank;
      ctx->cum_tokens[row + 1] = ctx->cum_tokens[row] + line_tokens;
      ctx->line_start[++row] = len + 1;
    }

  /* Rows right after a blank line are acceptable places to cut when nothing better exists. */
  for (guint r = 1; r < n_lines; r++)
    if (ctx->blank[r - 1] && !ctx->blank[r])
      ctx->cut_depth[r] = WEAK_CUT;
}

static gboolean
is_minified (Ctx *ctx)
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

/* Text helpers. */

/* Largest length ≤ @max that does not cut a UTF-8 character of @str (of @len bytes). */
static gsize
utf8_bound (const char *str,
            gsize       len,
            gsize       max)
{
  if (len <= max)
    return len;
  while (max > 0 && ((guchar) str[max] & 0xc0) == 0x80)
    max--;
  return max;
}

/* Copies @str with runs of white space collapsed to one space, trimmed, at most @max bytes. */
static char *
collapse_ws (const char *str,
             gsize       len,
             gsize       max)
{
  GString *out = g_string_sized_new (MIN (len, max) + 2);
  gboolean space = FALSE;

  /* One byte past @max, so that utf8_bound() sees whether the last character was cut. */
  for (gsize i = 0; i < len && out->len <= max; i++)
    {
      char c = str[i];

      if (g_ascii_isspace (c))
        {
          space = out->len > 0;
          continue;
        }
      if (space)
        g_string_append_c (out, ' ');
      space = FALSE;
      g_string_append_c (out, c);
    }

  g_string_truncate (out, utf8_bound (out->str, out->len, max));
  return g_string_free (out, FALSE);
}

/* Comment text without its markers: leading `//`, `/ *`, `*`, `#`, `--`, `"""` and the
 * closing `* /` go, lines are kept. Bounded to DOC_MAX bytes. */
static void
append_doc_text (GString    *out,
                 const char *str,
                 gsize       len)
{
  const char *end = str + len;
  const char *p = str;

  while (p < end && out->len < DOC_MAX)
    {
      const char *eol = memchr (p, '\n', end - p);
      const char *q;

      if (eol == NULL)
        eol = end;
      q = eol;

      while (p < q && g_ascii_isspace (*p))
        p++;
      while (p < q && strchr ("/*#!-\"'", *p) != NULL)
        p++;
      while (q > p && (g_ascii_isspace (q[-1]) || q[-1] == '/' || q[-1] == '*' ||
                       q[-1] == '"' || q[-1] == '\''))
        {
          if (q[-1] == '/' && q - 1 > p && q[-2] != '*')
            break;
          q--;
        }
      while (p < q && g_ascii_isspace (*p))
        p++;

      if (q > p)
        {
          if (out->len > 0)
            g_string_append_c (out, '\n');
          g_string_append_len (out, p, q - p);
        }
      p = eol + 1;
    }

  g_string_truncate (out, utf8_bound (out->str, out->len, DOC_MAX));
}

static char *
node_text_collapsed (Ctx    *ctx,
                     TSNode  node,
                     gsize   max)
{
  guint32 start = ts_node_start_byte (node);
  guint32 end = ts_node_end_byte (node);

  if (end > ctx->len)
    end = ctx->len;
  if (start >= end)
    return g_strdup ("");
  return collapse_ws (ctx->text + start, MIN (end - start, max * 4), max);
}

/* Strips what makes a type name a reference or an instance: `*Foo`, `&mut Foo`, `Foo<T>`. */
static char *
clean_type_name (Ctx    *ctx,
                 TSNode  node)
{
  g_autofree char *text = node_text_collapsed (ctx, node, NAME_MAX_BYTES);
  char *p = text;
  char *lt;

  while (*p == '*' || *p == '&' || *p == ' ')
    p++;
  if (g_str_has_prefix (p, "mut "))
    p += 4;
  lt = strpbrk (p, "<[(");
  if (lt != NULL && lt > p)
    *lt = '\0';
  return g_strstrip (g_strdup (p));
}

/* Definitions. */

static TSNode
child_by_field (TSNode      node,
                const char *field)
{
  return ts_node_child_by_field_name (node, field, strlen (field));
}

/* Follows C/C++ declarators down to the declared name, and splits `A::B::f` into `f` and the
 * container `A::B`. */
static void
resolve_name (Ctx     *ctx,
              TSNode   name,
              char   **name_out,
              char   **container_out,
              guint32 *name_byte)
{
  guint32 qualified_start = 0;
  gboolean qualified = FALSE;

  for (guint depth = 0; depth < 16; depth++)
    {
      TSNode next = child_by_field (name, "declarator");

      if (ts_node_is_null (next) && !ts_node_is_null (child_by_field (name, "scope")))
        {
          next = child_by_field (name, "name");
          if (!qualified)
            qualified_start = ts_node_start_byte (name);
          qualified = TRUE;
        }
      if (ts_node_is_null (next))
        break;
      name = next;
    }

  *name_byte = ts_node_start_byte (name);
  *name_out = node_text_collapsed (ctx, name, NAME_MAX_BYTES);
  *container_out = NULL;

  if (qualified && *name_byte > qualified_start)
    {
      g_autofree char *scope = collapse_ws (ctx->text + qualified_start,
                                            MIN (*name_byte - qualified_start, NAME_MAX_BYTES),
                                            NAME_MAX_BYTES);
      gsize n = strlen (scope);

      while (n > 0 && (scope[n - 1] == ':' || scope[n - 1] == ' '))
        scope[--n] = '\0';
      if (n > 0)
        *container_out = g_steal_pointer (&scope);
    }
}

static char *
make_signature (Ctx *ctx,
                Def *def)
{
  gsize start = def->start_byte;
  gsize end = def->has_body ? ts_node_start_byte (def->body) : def->end_byte;
  const char *brace;
  char *sig;
  gsize n;

  if (end > ctx->len)
    end = ctx->len;
  if (end <= start)
    return NULL;

  /* Without a body field, stop at the first brace: `struct x {`, `typedef enum {`. */
  n = MIN (end - start, (gsize) SIGNATURE_MAX * 8);
  if (!def->has_body)
    {
      brace = memchr (ctx->text + start, '{', n);
      if (brace != NULL)
        n = brace - (ctx->text + start);
    }

  /* Comment lines between the head and the body (Ruby, Python) are not part of it. */
  while (n > 0)
    {
      const char *head = ctx->text + start;
      const char *line = head + n;
      const char *p;

      while (line > head && line[-1] != '\n')
        line--;
      if (line == head)
        break;
      for (p = line; p < head + n && g_ascii_isspace (*p); p++)
        ;
      if (p < head + n && !(*p == '#' || (p[0] == '/' && p + 1 < head + n &&
                                           (p[1] == '/' || p[1] == '*'))) &&
          !(p[0] == '-' && p + 1 < head + n && p[1] == '-'))
        break;
      n = line - head;
      while (n > 0 && g_ascii_isspace (head[n - 1]))
        n--;
    }

  sig = collapse_ws (ctx->text + start, n, SIGNATURE_MAX);
  n = strlen (sig);
  while (n > 0 && (sig[n - 1] == ';' || sig[n - 1] == ' ' || sig[n - 1] == '{'))
    sig[--n] = '\0';
  return sig;
}

static gboolean
kind_is_class_like (const char *kind)
{
  static const char *class_kinds[] = {
    "class", "struct", "interface", "trait", "impl", "object", "enum", "union", "record",
    "protocol", "extension",
  };

  for (guint i = 0; i < G_N_ELEMENTS (class_kinds); i++)
    if (strcmp (kind, class_kinds[i]) == 0)
      return TRUE;
  return FALSE;
}

static gboolean
kind_is_container (const char *kind)
{
  return kind_is_class_like (kind) || strcmp (kind, "module") == 0 ||
         strcmp (kind, "namespace") == 0;
}

static gint
compare_defs (gconstpointer a,
              gconstpointer b)
{
  const Def *da = a;
  const Def *db = b;

  if (da->start_byte != db->start_byte)
    return da->start_byte < db->start_byte ? -1 : 1;
  if (da->end_byte != db->end_byte)
    return da->end_byte > db->end_byte ? -1 : 1;
  return da->pattern < db->pattern ? -1 : da->pattern > db->pattern;
}

static gint
compare_comments (gconstpointer a,
                  gconstpointer b)
{
  const Comment *ca = a;
  const Comment *cb = b;

  return ca->start_byte < cb->start_byte ? -1 : ca->start_byte > cb->start_byte;
}

static void
def_clear (Def *def)
{
  g_free (def->name);
  g_free (def->container);
  g_free (def->signature);
  g_free (def->doc);
  g_free (def->context);
}

static gboolean
starts_line (Ctx     *ctx,
             guint    row,
             guint32  byte)
{
  for (gsize i = ctx->line_start[row]; i < byte && i < ctx->len; i++)
    if (!g_ascii_isspace (ctx->text[i]))
      return FALSE;
  return TRUE;
}

static void
collect_matches (Ctx       *ctx,
                 QueryInfo *info,
                 TSNode     root)
{
  TSQueryCursor *cursor = ctx->self->cursor;
  TSQueryMatch match;
  LodeQueryBudget run;

  lode_parse_budget_exec (ctx->budget, &run, cursor, info->query, root);

  while (ts_query_cursor_next_match (cursor, &match))
    {
      Def def = { 0 };
      TSNode name = { 0 };
      TSNode doc = { 0 };
      TSNode container = { 0 };
      gboolean has_def = FALSE, has_name = FALSE, has_doc = FALSE, has_container = FALSE;

      for (guint i = 0; i < match.capture_count; i++)
        {
          const TSQueryCapture *capture = &match.captures[i];

          switch (capture->index < info->n_captures ? info->roles[capture->index] : ROLE_NONE)
            {
            case ROLE_DEFINITION:
              def.node = capture->node;
              def.kind = info->kinds[capture->index];
              has_def = TRUE;
              break;
            case ROLE_NAME:
              if (!has_name)
                name = capture->node;
              has_name = TRUE;
              break;
            case ROLE_DOC:
              doc = capture->node;
              has_doc = TRUE;
              break;
            case ROLE_BODY:
              def.body = capture->node;
              def.has_body = TRUE;
              break;
            case ROLE_CONTAINER:
              container = capture->node;
              has_container = TRUE;
              break;
            case ROLE_NONE:
            default:
              break;
            }
        }

      if (has_def && has_name)
        {
          def.has_node = TRUE;
          def.pattern = match.pattern_index;
          def.start_byte = ts_node_start_byte (def.node);
          def.end_byte = ts_node_end_byte (def.node);
          def.start_row = row_of_point (ctx, ts_node_start_point (def.node));
          def.end_row = node_end_row (ctx, def.node);
          def.doc_row = def.start_row;
          resolve_name (ctx, name, &def.name, &def.container, &def.name_byte);
          if (has_container)
            {
              g_free (def.container);
              def.container = clean_type_name (ctx, container);
            }
          if (!def.has_body)
            {
              def.body = child_by_field (def.node, "body");
              def.has_body = !ts_node_is_null (def.body);
            }
          if (has_doc)
            {
              /* A doc inside the definition's own pattern: a Python docstring. */
              GString *text = g_string_new (NULL);
              guint32 ds = ts_node_start_byte (doc), de = MIN (ts_node_end_byte (doc), ctx->len);

              append_doc_text (text, ctx->text + ds, de > ds ? MIN (de - ds, DOC_MAX * 4) : 0);
              def.doc = g_string_free (text, text->len == 0);
            }
          if (*def.name == '\0')
            def_clear (&def);
          else
            g_array_append_val (ctx->defs, def);
        }
      else if (has_doc && !has_def)
        {
          Comment comment;

          comment.start_row = row_of_point (ctx, ts_node_start_point (doc));
          comment.end_row = node_end_row (ctx, doc);
          comment.start_byte = ts_node_start_byte (doc);
          comment.end_byte = MIN (ts_node_end_byte (doc), ctx->len);
          /* A comment after code on its line describes that code, not what follows. */
          if (starts_line (ctx, comment.start_row, comment.start_byte))
            g_array_append_val (ctx->comments, comment);
        }
    }

  /* The walk ends early when the budget runs out. */
  ctx->spent = lode_parse_budget_spent (ctx->budget);
}

/* Attaches the contiguous block of whole-line comments ending right above @def. */
static void
attach_comments (Ctx *ctx,
                 Def *def)
{
  Comment *comments = (Comment *) (gpointer) ctx->comments->data;
  guint lo = 0, hi = ctx->comments->len;
  guint first;
  GString *text;

  if (def->start_row == 0 || hi == 0)
    return;

  /* The last comment that starts before the definition. */
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (comments[mid].start_byte < def->start_byte)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0 || comments[lo - 1].end_row + 1 != def->start_row)
    return;

  first = lo - 1;
  while (first > 0 && comments[first - 1].end_row + 1 >= comments[first].start_row &&
         comments[first - 1].end_row < comments[first].start_row)
    first--;

  def->doc_row = comments[first].start_row;
  if (def->doc != NULL)
    return;

  text = g_string_new (NULL);
  for (guint i = first; i < lo && text->len < DOC_MAX; i++)
    append_doc_text (text, ctx->text + comments[i].start_byte,
                     MIN (comments[i].end_byte - comments[i].start_byte, DOC_MAX * 4));
  def->doc = g_string_free (text, text->len == 0);
}

/* Sorts, deduplicates and nests the definitions, then fills in containers, kinds,
 * signatures and docs. */
static void
build_tree (Ctx *ctx)
{
  g_autoptr(GHashTable) names = g_hash_table_new (NULL, NULL);
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();
  Def *defs;
  guint n = 0;

  g_array_sort (ctx->defs, compare_defs);
  g_array_sort (ctx->comments, compare_comments);
  defs = (Def *) (gpointer) ctx->defs->data;

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &defs[i];

      if (g_hash_table_contains (names, GUINT_TO_POINTER (def->name_byte + 1)))
        {
          def_clear (def);
          continue;
        }
      g_hash_table_add (names, GUINT_TO_POINTER (def->name_byte + 1));
      if (n != i)
        defs[n] = *def;
      n++;
    }
  g_array_set_size (ctx->defs, n);
  defs = (Def *) (gpointer) ctx->defs->data;

  for (guint i = 0; i < n; i++)
    {
      Def *def = &defs[i];
      Def *parent;

      while (stack->len > 0)
        {
          Def *top = g_ptr_array_index (stack, stack->len - 1);

          if (def->start_byte >= top->start_byte && def->end_byte <= top->end_byte)
            break;
          g_ptr_array_set_size (stack, stack->len - 1);
        }

      parent = stack->len > 0 ? g_ptr_array_index (stack, stack->len - 1) : NULL;
      if (stack->len >= MAX_NESTING)
        parent = NULL;
      def->parent = parent;
      if (parent != NULL)
        {
          if (parent->last_child != NULL)
            parent->last_child->next_sibling = def;
          else
            parent->first_child = def;
          parent->last_child = def;
        }

      def->contains = kind_is_container (def->kind);
      if (parent != NULL)
        {
          if (def->container == NULL)
            def->container = g_strdup (parent->contains ? parent->name : parent->container);
          if (def->kind == g_intern_static_string ("function") &&
              kind_is_class_like (parent->kind))
            def->kind = g_intern_static_string ("method");
        }
      else if (def->container != NULL && def->kind == g_intern_static_string ("function"))
        def->kind = g_intern_static_string ("method");

      def->signature = make_signature (ctx, def);
      attach_comments (ctx, def);
      g_ptr_array_add (stack, def);
    }
}

/* Cut points. */

/* Marks the start rows of the named children of an oversized node as cut points, deeper
 * ones as worse, and recurses into children that are themselves oversized. */
static void
mark_cuts (Ctx          *ctx,
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
        mark_cuts (ctx, cursor, depth + 1);
    }
  while (ts_tree_cursor_goto_next_sibling (cursor));

  ts_tree_cursor_goto_parent (cursor);
}

/* Pieces. */

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
static void
pack_lines (Ctx    *ctx,
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

static void emit_range (Ctx    *ctx,
                        GArray *out,
                        Def    *first_child,
                        guint   s,
                        guint   e,
                        Def    *scope,
                        guint   depth);

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
static void
merge_level (Ctx    *ctx,
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
    emit_range (ctx, inner, def->first_child, s, e, def, depth + 1);
  else
    {
      g_autoptr(GArray) pieces = g_array_new (FALSE, FALSE, sizeof (Piece));

      pack_lines (ctx, pieces, s, e, 0, def, def);
      merge_level (ctx, pieces, inner);
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
static void
emit_range (Ctx    *ctx,
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
            pack_lines (ctx, level, cursor, ds - 1, 0, scope, scope);
          else
            pack_lines (ctx, level, cursor, ds - 1, 0, NULL, scope);
        }

      emit_def (ctx, level, def, ds, de, scope, depth);
      cursor = de + 1;
    }

  if (cursor <= e)
    pack_lines (ctx, level, cursor, e, 0, scope != NULL && cursor == s ? scope : NULL, scope);

  merge_level (ctx, level, out);
}

/* Structure without a grammar. */

static Def *
add_section (Ctx        *ctx,
             guint       row,
             const char *name,
             gsize       name_len)
{
  Def def = { 0 };
  gsize ls = ctx->line_start[row];

  def.start_row = def.end_row = def.doc_row = row;
  def.start_byte = ls;
  def.end_byte = line_end (ctx, row);
  def.kind = g_intern_static_string ("section");
  def.name = collapse_ws (name, name_len, NAME_MAX_BYTES);
  def.signature = collapse_ws (ctx->text + ls, def.end_byte - ls, SIGNATURE_MAX);
  def.contains = TRUE;
  g_array_append_val (ctx->defs, def);
  return &g_array_index (ctx->defs, Def, ctx->defs->len - 1);
}

/* Markdown: ATX headings outside fenced code; a section runs to the next heading of the same
 * or a higher level. */
static void
find_markdown_sections (Ctx *ctx)
{
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (guint));
  const char *fence = NULL;

  for (guint r = 0; r < ctx->n_lines; r++)
    {
      const char *p = ctx->text + ctx->line_start[r];
      const char *end = ctx->text + line_end (ctx, r);
      guint level = 0;

      while (p < end && *p == ' ' && p - (ctx->text + ctx->line_start[r]) < 3)
        p++;
      if (end - p >= 3 && (memcmp (p, "```", 3) == 0 || memcmp (p, "~~~", 3) == 0))
        {
          if (fence == NULL)
            fence = p;
          else if (*fence == *p)
            fence = NULL;
          continue;
        }
      if (fence != NULL)
        continue;

      while (p < end && *p == '#' && level < 7)
        {
          p++;
          level++;
        }
      if (level == 0 || level > 6 || (p < end && *p != ' ' && *p != '\t'))
        continue;

      while (end > p && (g_ascii_isspace (end[-1]) || end[-1] == '#'))
        end--;
      add_section (ctx, r, p, end > p ? end - p : 0);
      g_array_append_val (levels, level);
    }

  /* Close each section before the next heading of the same or a higher level. */
  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);
      guint level = g_array_index (levels, guint, i);
      guint j;

      for (j = i + 1; j < ctx->defs->len; j++)
        if (g_array_index (levels, guint, j) <= level)
          break;
      def->end_row = j < ctx->defs->len ? g_array_index (ctx->defs, Def, j).start_row - 1
                                        : ctx->n_lines - 1;
      def->end_byte = ctx->line_start[def->end_row + 1];
    }
}

/* YAML top-level keys and TOML tables: a section runs to the next one; comment lines right
 * above a section belong to it. */
static void
find_key_sections (Ctx      *ctx,
                   gboolean  toml)
{
  for (guint r = 0; r < ctx->n_lines; r++)
    {
      const char *p = ctx->text + ctx->line_start[r];
      const char *end = ctx->text + line_end (ctx, r);
      const char *name;
      const char *name_end;
      Def *def;

      if (p == end)
        continue;

      if (toml)
        {
          if (*p != '[')
            continue;
          name = p;
          while (name < end && *name == '[')
            name++;
          name_end = memchr (name, ']', end - name);
          if (name_end == NULL)
            continue;
        }
      else
        {
          if (g_ascii_isspace (*p) || *p == '#' || *p == '-' || *p == '.' || *p == '%')
            continue;
          name_end = memchr (p, ':', end - p);
          if (name_end == NULL || (name_end + 1 < end && name_end[1] != ' ' && name_end[1] != '\t'))
            continue;
          name = p;
          if (*name == '"' || *name == '\'')
            name++;
          while (name_end > name && (name_end[-1] == '"' || name_end[-1] == '\''))
            name_end--;
        }

      def = add_section (ctx, r, name, name_end - name);
      while (def->doc_row > 0 && ctx->text[ctx->line_start[def->doc_row - 1]] == '#')
        def->doc_row--;
    }

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);
      guint next = i + 1 < ctx->defs->len ? g_array_index (ctx->defs, Def, i + 1).doc_row
                                          : ctx->n_lines;

      def->end_row = MAX (def->start_row, next - 1);
      def->end_byte = ctx->line_start[def->end_row + 1];
    }
}

static void
link_sections (Ctx *ctx)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);
      Def *parent;

      while (stack->len > 0 &&
             ((Def *) g_ptr_array_index (stack, stack->len - 1))->end_row < def->start_row)
        g_ptr_array_set_size (stack, stack->len - 1);

      parent = stack->len > 0 ? g_ptr_array_index (stack, stack->len - 1) : NULL;
      def->parent = parent;
      if (parent != NULL)
        {
          if (parent->last_child != NULL)
            parent->last_child->next_sibling = def;
          else
            parent->first_child = def;
          parent->last_child = def;
          def->container = g_strdup (parent->name);
        }
      g_ptr_array_add (stack, def);
    }
}

/* Output. */

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
        def->context[utf8_bound (def->context, strlen (def->context), CONTEXT_MAX)] = '\0';
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

static LodeChunk *
piece_to_chunk (Ctx         *ctx,
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

/* The file's declared package and the namespaces and modules around @def. */
static char *
def_namespace (const Def  *def,
               const char *package,
               const char *separator)
{
  g_autoptr(GPtrArray) parts = g_ptr_array_new ();
  GString *out = g_string_new (package);

  for (const Def *p = def->parent; p != NULL; p = p->parent)
    if (p->kind == g_intern_static_string ("namespace") ||
        p->kind == g_intern_static_string ("module"))
      g_ptr_array_insert (parts, 0, p->name);

  for (guint i = 0; i < parts->len; i++)
    {
      if (out->len > 0)
        g_string_append (out, separator);
      g_string_append (out, g_ptr_array_index (parts, i));
    }

  return g_string_free (out, out->len == 0);
}

/* Symbols, with the details the symbol tools need, from the parse @root. */
static void
emit_symbols (Ctx                *ctx,
              const LodeLanguage *language,
              TSNode              root,
              GPtrArray          *symbols)
{
  g_autoptr(LodeSymbolExtractor) extractor = lode_symbol_extractor_new (language, ctx->text,
                                                                        ctx->len, root);
  const char *package = lode_symbol_extractor_get_package (extractor);
  const char *separator = lode_symbol_extractor_get_separator (extractor);

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      const Def *def = &g_array_index (ctx->defs, Def, i);
      LodeSymbol *symbol = lode_symbol_new ();
      g_autofree char *namespace = def_namespace (def, package, separator);
      LodeSymbolDef view = {
        def->node, def->name_byte, def->kind, def->name, def->container, namespace, def->doc
      };

      symbol->name = g_strdup (def->name);
      symbol->kind = def->kind;
      symbol->container = g_strdup (def->container);
      symbol->signature = g_strdup (def->signature);
      symbol->start_line = def->start_row + 1;
      symbol->end_line = def->end_row + 1;
      symbol->package = g_strdup (package != NULL ? package : namespace);
      symbol->detail = lode_symbol_extractor_describe (extractor, &view);
      g_ptr_array_add (symbols, symbol);
    }
}

static gint
compare_bytes (gconstpointer a,
               gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* Every identifier of the parse @root, with its role. */
static void
find_references (Ctx                *ctx,
                 const LodeLanguage *language,
                 TSNode              root,
                 LodeReferences     *references)
{
  g_autoptr(LodeSymbolExtractor) extractor = lode_symbol_extractor_new (language, ctx->text,
                                                                        ctx->len, root);
  g_autoptr(GArray) def_names = g_array_sized_new (FALSE, FALSE, sizeof (guint32),
                                                   ctx->defs->len);

  for (guint i = 0; i < ctx->defs->len; i++)
    g_array_append_val (def_names, g_array_index (ctx->defs, Def, i).name_byte);
  g_array_sort (def_names, compare_bytes);
  lode_symbol_extractor_add_references (extractor, def_names, references);
}

/* The call sites of the parse @root, their callers among the definitions; NULL when the
 * budget ran out. */
static LodeCalls *
find_calls (Ctx                *ctx,
            const LodeLanguage *language,
            TSNode              root)
{
  g_autofree TSNode *nodes = g_new (TSNode, MAX (ctx->defs->len, 1));
  g_autofree const char **kinds = g_new (const char *, MAX (ctx->defs->len, 1));

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      nodes[i] = g_array_index (ctx->defs, Def, i).node;
      kinds[i] = g_array_index (ctx->defs, Def, i).kind;
    }
  return lode_calls_extract_tree (language, root, ctx->text, ctx->len, nodes, kinds,
                                  ctx->defs->len, ctx->budget);
}

/* Parses @ctx's text with @language and collects its definitions. FALSE when the parse fails
 * or the budget runs out (ctx->spent), so that the caller falls back to line windows. */
static gboolean
collect_definitions (Ctx                 *ctx,
                     const LodeLanguage  *language,
                     TSTree             **tree_out)
{
  LodeChunker *self = ctx->self;
  g_autoptr(GError) error = NULL;
  QueryInfo *info;
  TSTree *tree;
  TSNode root;

  info = get_query_info (self, language, &error);
  if (info == NULL)
    {
      g_warning ("Chunking %s files by lines: %s", language->name, error->message);
      return FALSE;
    }

  if (!ts_parser_set_language (self->parser, language->ts_language ()))
    return FALSE;

  tree = lode_parse_budget_parse (ctx->budget, self->parser, ctx->text, ctx->len, 0);
  if (tree == NULL)
    {
      g_debug ("Parse of %zu bytes of %s failed or timed out", ctx->len, language->name);
      ctx->spent = lode_parse_budget_spent (ctx->budget);
      return FALSE;
    }

  root = ts_tree_root_node (tree);
  collect_matches (ctx, info, root);
  if (ctx->spent)
    {
      for (guint i = 0; i < ctx->defs->len; i++)
        def_clear (&g_array_index (ctx->defs, Def, i));
      g_array_set_size (ctx->defs, 0);
      g_array_set_size (ctx->comments, 0);
      ts_tree_delete (tree);
      return FALSE;
    }
  build_tree (ctx);

  if (ctx->n_lines > 0 && range_tokens (ctx, 0, ctx->n_lines - 1) > ctx->max)
    {
      TSTreeCursor cursor = ts_tree_cursor_new (root);

      mark_cuts (ctx, &cursor, 0);
      ts_tree_cursor_delete (&cursor);
    }

  *tree_out = tree;
  return TRUE;
}

static void
mark_paragraph_cuts (Ctx *ctx)
{
  for (guint r = 1; r < ctx->n_lines; r++)
    if (ctx->cut_depth[r] == WEAK_CUT)
      ctx->cut_depth[r] = 0;
}

static Def *
first_top_level (Ctx *ctx)
{
  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);

      if (def->parent == NULL)
        return def;
    }
  return NULL;
}

/* Links top-level definitions as siblings (children were linked while nesting). */
static void
link_top_level (Ctx *ctx)
{
  Def *prev = NULL;

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);

      if (def->parent != NULL)
        continue;
      if (prev != NULL)
        prev->next_sibling = def;
      prev = def;
    }
}

/* The imports of a file, from the chunker's parse when there was one; a file the chunker did
 * not try to parse (minified, too large to chunk by structure, no grammar) is read on its own,
 * within the import extractor's limits, but one whose parse failed or timed out is not parsed
 * twice. A file whose imports cannot be read has none; *@spent tells whether that is because
 * the budget ran out. */
static GPtrArray *
find_imports (const LodeLanguage     *language,
              TSTree                 *tree,
              gboolean                parse_failed,
              const char             *text,
              gsize                   len,
              const LodeParseBudget  *budget,
              gboolean               *spent)
{
  g_autoptr(GPtrArray) imports = NULL;
  g_autoptr(GError) error = NULL;
  gboolean found;

  *spent = FALSE;
  if (!lode_imports_supported (language) || parse_failed)
    return g_ptr_array_new_with_free_func ((GDestroyNotify) lode_import_free);

  if (tree != NULL)
    found = lode_imports_extract_tree (language, tree, text, len, budget, &imports, &error);
  else
    found = lode_imports_extract (language, text, len, budget, &imports, &error);

  if (!found)
    {
      g_debug ("No imports of a %s file: %s", language->name, error->message);
      *spent = error->domain == G_IO_ERROR;
      return g_ptr_array_new_with_free_func ((GDestroyNotify) lode_import_free);
    }

  return g_steal_pointer (&imports);
}

/**
 * lode_chunker_chunk:
 * @self: a #LodeChunker
 * @language: the language of @text
 * @text: the file's content, valid UTF-8
 * @len: length of @text in bytes
 * @chunks: (out) (transfer container) (element-type LodeChunk): the chunks, in file order,
 *   covering every line of @text
 * @symbols: (out) (transfer container) (element-type LodeSymbol): the definitions found
 * @imports: (out) (optional) (transfer container) (element-type LodeImport): the imports
 *   found (see lode_imports_extract()), or %NULL not to look for them; empty for languages
 *   without import extraction
 * @references: (out) (optional) (transfer full): the identifiers of the code and what they
 *   do (see lode_symbol_extractor_add_references()), or %NULL not to list them; empty for a
 *   file that was not parsed
 * @calls: (out) (optional) (transfer full): the call sites and what resolving them needs
 *   (see lode_calls_extract_tree()), callers as indices into @symbols, or %NULL not to list
 *   them; empty for a file that was not parsed
 * @degraded: (out) (optional) (nullable) (transfer full): set when the file went over its
 *   time budget, to what that cost it ("took longer than 3000 ms to parse: indexed by
 *   lines"); %NULL otherwise
 * @error: return location for a #GError
 *
 * Cuts one file into searchable chunks and lists its symbols (with the details the symbol
 * tools need) and, if asked, its imports and references, from the same parse. Parsing, querying and reading imports share one time budget per file
 * (see lode_chunker_set_time_budget()): a parse that fails or goes over it only degrades the
 * result to line windows (or, when only the imports ran over, to no imports); the file is
 * never refused.
 *
 * Returns: %TRUE, or %FALSE with %G_IO_ERROR_CANCELLED once the cancellable given with
 *   lode_chunker_set_cancellable() is cancelled, which also stops a parse under way
 */
gboolean
lode_chunker_chunk (LodeChunker         *self,
                    const LodeLanguage  *language,
                    const char          *text,
                    gsize                len,
                    GPtrArray          **chunks,
                    GPtrArray          **symbols,
                    GPtrArray          **imports,
                    LodeReferences     **references,
                    LodeCalls          **calls,
                    char               **degraded,
                    GError             **error)
{
  g_autoptr(GPtrArray) chunk_array = NULL;
  g_autoptr(GPtrArray) symbol_array = NULL;
  g_autoptr(GPtrArray) import_array = NULL;
  g_autoptr(LodeReferences) reference_set = NULL;
  g_autoptr(LodeCalls) call_set = NULL;
  TSTree *tree = NULL;
  Ctx ctx = { 0 };
  LodeParseBudget budget = { 0 };
  gboolean structured = FALSE;
  gboolean parse_failed = FALSE;
  gboolean imports_spent = FALSE;
  guint overlap = 0;

  g_return_val_if_fail (LODE_IS_CHUNKER (self), FALSE);
  g_return_val_if_fail (language != NULL, FALSE);
  g_return_val_if_fail (text != NULL || len == 0, FALSE);
  g_return_val_if_fail (chunks != NULL, FALSE);
  g_return_val_if_fail (symbols != NULL, FALSE);
  g_return_val_if_fail (error == NULL || *error == NULL, FALSE);

  if (degraded != NULL)
    *degraded = NULL;
  budget.deadline = lode_parse_budget_now () + (gint64) self->time_budget_msec * 1000;
  budget.cancelled = &self->cancelled;
  if (lode_parse_budget_cancelled (&budget))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Chunking was cancelled");
      return FALSE;
    }

  chunk_array = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_chunk_free);
  symbol_array = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);

  ctx.self = self;
  ctx.text = text;
  ctx.len = len;
  ctx.max = self->max_tokens;
  ctx.defs = g_array_new (FALSE, FALSE, sizeof (Def));
  ctx.comments = g_array_new (FALSE, FALSE, sizeof (Comment));
  ctx.out = g_array_new (FALSE, FALSE, sizeof (Piece));
  ctx.budget = &budget;
  scan_lines (&ctx);

  if (ctx.n_lines == 0)
    goto out;

  if (language->ts_language != NULL && !is_minified (&ctx))
    {
      if (len <= PARSE_MAX_BYTES && collect_definitions (&ctx, language, &tree))
        structured = TRUE;
      else
        {
          parse_failed = len <= PARSE_MAX_BYTES;
          overlap = LINE_OVERLAP;
          mark_paragraph_cuts (&ctx);
        }
    }
  else if (language->ts_language == NULL && !is_minified (&ctx))
    {
      mark_paragraph_cuts (&ctx);
      if (strcmp (language->id, "markdown") == 0)
        find_markdown_sections (&ctx);
      else if (strcmp (language->id, "yaml") == 0 || strcmp (language->id, "toml") == 0)
        find_key_sections (&ctx, strcmp (language->id, "toml") == 0);
      else
        overlap = LINE_OVERLAP;

      link_sections (&ctx);
    }

  if (structured)
    {
      link_top_level (&ctx);
      emit_range (&ctx, ctx.out, first_top_level (&ctx), 0, ctx.n_lines - 1, NULL, 0);
      emit_symbols (&ctx, language, ts_tree_root_node (tree), symbol_array);
      if (references != NULL)
        {
          reference_set = lode_references_new ();
          find_references (&ctx, language, ts_tree_root_node (tree), reference_set);
        }
      if (calls != NULL)
        call_set = find_calls (&ctx, language, ts_tree_root_node (tree));
    }
  else if (ctx.defs->len > 0)
    {
      link_top_level (&ctx);
      emit_range (&ctx, ctx.out, first_top_level (&ctx), 0, ctx.n_lines - 1, NULL, 0);
    }
  else
    {
      g_autoptr(GArray) level = g_array_new (FALSE, FALSE, sizeof (Piece));

      pack_lines (&ctx, level, 0, ctx.n_lines - 1, overlap, NULL, NULL);
      merge_level (&ctx, level, ctx.out);
    }

  for (guint i = 0; i < ctx.out->len; i++)
    g_ptr_array_add (chunk_array, piece_to_chunk (&ctx, &g_array_index (ctx.out, Piece, i)));

out:
  if (imports != NULL)
    import_array = find_imports (language, tree, parse_failed, text, len, &budget,
                                 &imports_spent);
  g_clear_pointer (&tree, ts_tree_delete);
  for (guint i = 0; i < ctx.defs->len; i++)
    def_clear (&g_array_index (ctx.defs, Def, i));
  g_array_unref (ctx.defs);
  g_array_unref (ctx.comments);
  g_array_unref (ctx.out);
  g_free (ctx.line_start);
  g_free (ctx.cum_tokens);
  g_free (ctx.cut_depth);
  g_free (ctx.blank);

  /* Cancelled during the parse or a query: nothing of this file is worth keeping. */
  if (lode_parse_budget_cancelled (&budget))
    {
      g_set_error_literal (error, G_IO_ERROR, G_IO_ERROR_CANCELLED, "Chunking was cancelled");
      return FALSE;
    }

  if (degraded != NULL && (ctx.spent || imports_spent))
    *degraded = g_strdup_printf ("took longer than %u ms to parse: %s", self->time_budget_msec,
                                 ctx.spent ? "indexed by lines" : "its imports were not read");

  *chunks = g_steal_pointer (&chunk_array);
  *symbols = g_steal_pointer (&symbol_array);
  if (imports != NULL)
    *imports = g_steal_pointer (&import_array);
  if (references != NULL)
    *references = reference_set != NULL ? g_steal_pointer (&reference_set)
                                         : lode_references_new ();
  if (calls != NULL)
    *calls = call_set != NULL ? g_steal_pointer (&call_set) : lode_calls_new ();
  return TRUE;
}

guint
lode_chunker_get_max_tokens (LodeChunker *self)
{
  g_return_val_if_fail (LODE_IS_CHUNKER (self), 0);

  return self->max_tokens;
}

LodeChunker *
lode_chunker_new (guint max_tokens)
{
  return g_object_new (LODE_TYPE_CHUNKER,
                       "max-tokens", max_tokens > 0 ? MAX (max_tokens, 16)
                                                    : LODE_CHUNKER_DEFAULT_MAX_TOKENS,
                       NULL);
}

/* Runs on the thread that cancels. */
static void
cancelled_cb (GCancellable *cancellable,
              gpointer      user_data)
{
  LodeChunker *self = user_data;

  __atomic_store_n (&self->cancelled, 1, __ATOMIC_RELAXED);
}

/**
 * lode_chunker_set_cancellable:
 * @self: a #LodeChunker
 * @cancellable: (nullable): a #GCancellable
 *
 * Once @cancellable is cancelled, lode_chunker_chunk() fails with %G_IO_ERROR_CANCELLED, at
 * once even in the middle of a parse.
 */
void
lode_chunker_set_cancellable (LodeChunker  *self,
                              GCancellable *cancellable)
{
  g_return_if_fail (LODE_IS_CHUNKER (self));
  g_return_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable));

  if (self->cancellable != NULL)
    g_cancellable_disconnect (self->cancellable, self->cancelled_id);
  self->cancelled_id = 0;
  self->cancelled = 0;
  g_set_object (&self->cancellable, cancellable);
  if (cancellable != NULL)
    self->cancelled_id = g_cancellable_connect (cancellable, G_CALLBACK (cancelled_cb), self,
                                                NULL);
}

/**
 * lode_chunker_set_time_budget:
 * @self: a #LodeChunker
 * @msec: the CPU time one file may take to parse, query and read imports from on the
 *   parsing thread, in milliseconds
 *
 * A file that takes longer is chunked by lines instead (see lode_chunker_chunk()). The
 * default is %LODE_CHUNKER_DEFAULT_TIME_BUDGET_MSEC.
 */
void
lode_chunker_set_time_budget (LodeChunker *self,
                              guint        msec)
{
  g_return_if_fail (LODE_IS_CHUNKER (self));

  msec = MAX (msec, 1);
  if (self->time_budget_msec == msec)
    return;
  self->time_budget_msec = msec;
  g_object_notify_by_pspec (G_OBJECT (self), properties [PROP_TIME_BUDGET_MSEC]);
}

static void
lode_chunker_finalize (GObject *object)
{
  LodeChunker *self = (LodeChunker *)object;

  lode_chunker_set_cancellable (self, NULL);

  g_clear_pointer (&self->cursor, ts_query_cursor_delete);
  g_clear_pointer (&self->parser, ts_parser_delete);
  g_clear_pointer (&self->query_infos, g_hash_table_unref);

  G_OBJECT_CLASS (lode_chunker_parent_class)->finalize (object);
}

static void
lode_chunker_get_property (GObject    *object,
                           guint       prop_id,
                           GValue     *value,
                           GParamSpec *pspec)
{
  LodeChunker *self = LODE_CHUNKER (object);

  switch (prop_id)
    {
    case PROP_MAX_TOKENS:
      g_value_set_uint (value, self->max_tokens);
      break;

    case PROP_TIME_BUDGET_MSEC:
      g_value_set_uint (value, self->time_budget_msec);
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_chunker_set_property (GObject      *object,
                           guint         prop_id,
                           const GValue *value,
                           GParamSpec   *pspec)
{
  LodeChunker *self = LODE_CHUNKER (object);

  switch (prop_id)
    {
    case PROP_MAX_TOKENS:
      self->max_tokens = g_value_get_uint (value);
      break;

    case PROP_TIME_BUDGET_MSEC:
      lode_chunker_set_time_budget (self, g_value_get_uint (value));
      break;

    default:
      G_OBJECT_WARN_INVALID_PROPERTY_ID (object, prop_id, pspec);
    }
}

static void
lode_chunker_class_init (LodeChunkerClass *klass)
{
  GObjectClass *object_class = G_OBJECT_CLASS (klass);

  object_class->finalize = lode_chunker_finalize;
  object_class->get_property = lode_chunker_get_property;
  object_class->set_property = lode_chunker_set_property;

  /* The budget of one chunk, in lode_estimate_tokens() units. Small budgets are raised to
   * 16 so that a chunk can always hold a few words. */
  properties [PROP_MAX_TOKENS] =
    g_param_spec_uint ("max-tokens", NULL, NULL,
                       16, G_MAXUINT / 2, LODE_CHUNKER_DEFAULT_MAX_TOKENS,
                       (G_PARAM_READWRITE | G_PARAM_CONSTRUCT_ONLY | G_PARAM_STATIC_STRINGS));

  properties [PROP_TIME_BUDGET_MSEC] =
    g_param_spec_uint ("time-budget-msec", NULL, NULL,
                       1, G_MAXUINT, LODE_CHUNKER_DEFAULT_TIME_BUDGET_MSEC,
                       (G_PARAM_READWRITE | G_PARAM_EXPLICIT_NOTIFY | G_PARAM_STATIC_STRINGS));

  g_object_class_install_properties (object_class, N_PROPS, properties);
}

static void
lode_chunker_init (LodeChunker *self)
{
  self->parser = ts_parser_new ();
  self->cursor = ts_query_cursor_new ();
  self->query_infos = g_hash_table_new_full (NULL, NULL, NULL, (GDestroyNotify) query_info_free);
  self->max_tokens = LODE_CHUNKER_DEFAULT_MAX_TOKENS;
  self->time_budget_msec = LODE_CHUNKER_DEFAULT_TIME_BUDGET_MSEC;

  /* Bounds the work of a pathological query on a pathological tree. */
  ts_query_cursor_set_match_limit (self->cursor, 1024);
}
