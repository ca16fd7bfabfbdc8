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
 *    `export`, templates wrap the inner declaration). In Rust, the items inside item-level
 *    macro invocations (`cfg_rt! { … }`) are parsed as items first (lode-chunker-macros.c).
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
#include "lode-chunker-private.h"
#include "lode-error.h"

#define PARSE_MAX_BYTES      (8 * 1024 * 1024)
#define LINE_OVERLAP         2

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
  info->roots = lode_language_get_chunk_roots (language);
  info->n_symbols = ts_language_symbol_count (language->ts_language ());
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
          info->kinds[i] = g_intern_string (capture + strlen ("definition."));
        }
      else if (strcmp (capture, "name") == 0)
        info->roles[i] = ROLE_NAME;
      else if (strcmp (capture, "doc") == 0)
        info->roles[i] = ROLE_DOC;
      else if (strcmp (capture, "body") == 0)
        info->roles[i] = ROLE_BODY;
      else if (strcmp (capture, "container") == 0)
        info->roles[i] = ROLE_CONTAINER;
      else if (strcmp (capture, "attribute") == 0)
        info->roles[i] = ROLE_ATTRIBUTE;
    }

  g_hash_table_insert (self->query_infos, (gpointer) language, info);
  return info;
}

static gint
compare_bytes (gconstpointer a,
               gconstpointer b)
{
  guint32 x = *(const guint32 *) a, y = *(const guint32 *) b;

  return x < y ? -1 : x > y;
}

/* The start bytes of the names of @ctx's definitions, sorted. */
static GArray *
def_names_sorted (Ctx *ctx)
{
  GArray *def_names = g_array_sized_new (FALSE, FALSE, sizeof (guint32), ctx->defs->len);

  for (guint i = 0; i < ctx->defs->len; i++)
    g_array_append_val (def_names, g_array_index (ctx->defs, Def, i).name_byte);
  g_array_sort (def_names, compare_bytes);
  return def_names;
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
  g_autoptr(GArray) def_names = def_names_sorted (ctx);

  lode_symbol_extractor_add_references (extractor, def_names, ctx->macro_names, references);
}

/* The call sites of the parse @root, their callers among the definitions; NULL when the
 * budget ran out. With @references (nullable), the identifiers too, from the same walk: the
 * language must have call extraction (lode_calls_supported()). */
static LodeCalls *
find_calls (Ctx                *ctx,
            const LodeLanguage *language,
            TSNode              root,
            LodeReferences     *references)
{
  g_autofree TSNode *nodes = g_new (TSNode, MAX (ctx->defs->len, 1));
  g_autofree const char **kinds = g_new (const char *, MAX (ctx->defs->len, 1));
  g_autoptr(GArray) def_names = references != NULL ? def_names_sorted (ctx) : NULL;

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      nodes[i] = g_array_index (ctx->defs, Def, i).node;
      kinds[i] = g_array_index (ctx->defs, Def, i).kind;
    }
  return lode_calls_extract_tree (language, root, ctx->text, ctx->len, nodes, kinds,
                                  ctx->defs->len, ctx->budget, def_names, ctx->macro_names,
                                  references);
}

/* Parses @ctx's text with @language and collects its definitions. FALSE when the parse fails
 * or the budget runs out (ctx->spent), so that the caller falls back to line windows. */
static gboolean
collect_definitions (LodeChunker         *self,
                     Ctx                 *ctx,
                     const LodeLanguage  *language,
                     TSTree             **tree_out)
{
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
  if (tree != NULL && strcmp (language->id, "rust") == 0)
    tree = _lode_chunker_expand_macros (ctx, self->parser, tree, ctx->macro_names);
  if (tree != NULL && (strcmp (language->id, "c") == 0 || strcmp (language->id, "cpp") == 0))
    tree = _lode_chunker_repair_preprocessor (ctx, self->parser, tree);
  if (tree == NULL)
    {
      g_debug ("Parse of %zu bytes of %s failed or timed out", ctx->len, language->name);
      ctx->spent = lode_parse_budget_spent (ctx->budget);
      return FALSE;
    }

  root = ts_tree_root_node (tree);
  _lode_chunker_collect_matches (ctx, info, root);
  if (ctx->spent)
    {
      for (guint i = 0; i < ctx->defs->len; i++)
        _lode_chunker_def_clear (&g_array_index (ctx->defs, Def, i));
      g_array_set_size (ctx->defs, 0);
      g_array_set_size (ctx->comments, 0);
      ts_tree_delete (tree);
      return FALSE;
    }
  _lode_chunker_build_tree (ctx);

  if (ctx->n_lines > 0 && range_tokens (ctx, 0, ctx->n_lines - 1) > ctx->max)
    {
      TSTreeCursor cursor = ts_tree_cursor_new (root);

      _lode_chunker_mark_cuts (ctx, &cursor, 0);
      ts_tree_cursor_delete (&cursor);
    }

  *tree_out = tree;
  return TRUE;
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
 * @path: (nullable): the file's path in its project, which names its module in languages
 *   whose files are modules (Rust, Python, JavaScript, TypeScript, Swift; see
 *   lode_symbol_file_module()), for the symbols' packages and scopes
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
 * tools need) and, if asked, its imports and references, from the same parse. Parsing,
 * querying and reading imports share one time budget per file
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
                    const char          *path,
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

  ctx.cursor = self->cursor;
  ctx.path = path;
  ctx.text = text;
  ctx.len = len;
  ctx.max = self->max_tokens;
  ctx.defs = g_array_new (FALSE, FALSE, sizeof (Def));
  ctx.comments = g_array_new (FALSE, FALSE, sizeof (Comment));
  ctx.macro_names = g_array_new (FALSE, FALSE, sizeof (LodeSymbolSite));
  ctx.out = g_array_new (FALSE, FALSE, sizeof (Piece));
  ctx.budget = &budget;
  _lode_chunker_scan_lines (&ctx);

  if (ctx.n_lines == 0)
    goto out;

  if (language->ts_language != NULL && !_lode_chunker_is_minified (&ctx))
    {
      if (len <= PARSE_MAX_BYTES && collect_definitions (self, &ctx, language, &tree))
        structured = TRUE;
      else
        {
          parse_failed = len <= PARSE_MAX_BYTES;
          overlap = LINE_OVERLAP;
          _lode_chunker_mark_paragraph_cuts (&ctx);
        }
    }
  else if (language->ts_language == NULL && !_lode_chunker_is_minified (&ctx))
    {
      _lode_chunker_mark_paragraph_cuts (&ctx);
      if (strcmp (language->id, "markdown") == 0)
        _lode_chunker_find_markdown_sections (&ctx);
      else if (strcmp (language->id, "yaml") == 0 || strcmp (language->id, "toml") == 0)
        _lode_chunker_find_key_sections (&ctx, strcmp (language->id, "toml") == 0);
      else
        overlap = LINE_OVERLAP;

      _lode_chunker_link_sections (&ctx);
    }

  if (structured)
    {
      /* Rust scopes follow `use` declarations, whether the caller wants the imports or not
       * (then they cannot have cost it the imports it did not ask for). */
      if (imports != NULL || strcmp (language->id, "rust") == 0)
        import_array = find_imports (language, tree, parse_failed, text, len, &budget,
                                     &imports_spent);
      imports_spent = imports_spent && imports != NULL;
      link_top_level (&ctx);
      _lode_chunker_emit_range (&ctx, ctx.out, first_top_level (&ctx), 0, ctx.n_lines - 1,
                                NULL, 0);
      _lode_chunker_emit_symbols (&ctx, language, ts_tree_root_node (tree), import_array,
                                  symbol_array);
      if (references != NULL)
        reference_set = lode_references_new ();
      /* Calls and references from one walk where the language has both. */
      if (calls != NULL && lode_calls_supported (language))
        call_set = find_calls (&ctx, language, ts_tree_root_node (tree), reference_set);
      else
        {
          if (reference_set != NULL)
            find_references (&ctx, language, ts_tree_root_node (tree), reference_set);
          if (calls != NULL)
            call_set = find_calls (&ctx, language, ts_tree_root_node (tree), NULL);
        }
    }
  else if (ctx.defs->len > 0)
    {
      link_top_level (&ctx);
      _lode_chunker_emit_range (&ctx, ctx.out, first_top_level (&ctx), 0, ctx.n_lines - 1,
                                NULL, 0);
    }
  else
    {
      g_autoptr(GArray) level = g_array_new (FALSE, FALSE, sizeof (Piece));

      _lode_chunker_pack_lines (&ctx, level, 0, ctx.n_lines - 1, overlap, NULL, NULL);
      _lode_chunker_merge_level (&ctx, level, ctx.out);
    }

  for (guint i = 0; i < ctx.out->len; i++)
    g_ptr_array_add (chunk_array,
                     _lode_chunker_piece_to_chunk (&ctx, &g_array_index (ctx.out, Piece, i)));

out:
  if (imports != NULL && import_array == NULL)
    import_array = find_imports (language, tree, parse_failed, text, len, &budget,
                                 &imports_spent);
  g_clear_pointer (&tree, ts_tree_delete);
  for (guint i = 0; i < ctx.defs->len; i++)
    _lode_chunker_def_clear (&g_array_index (ctx.defs, Def, i));
  g_array_unref (ctx.defs);
  g_array_unref (ctx.comments);
  g_array_unref (ctx.macro_names);
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
  /* The chunk query runs on each node where one of its patterns starts, for those patterns
   * alone (_lode_chunker_collect_matches()). */
  ts_query_cursor_set_max_start_depth (self->cursor, 0);
}
