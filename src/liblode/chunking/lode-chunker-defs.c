/* lode-chunker-defs.c — definitions from the chunk query's matches: names, nesting,
 * signatures, doc comments, and the symbols they make
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunker"

#include "config.h"

#include <string.h>

#include "lode-chunker-private.h"
#include "lode-doc-comment.h"
#include "lode-symbol-scope.h"

#define DOC_MAX              1024

/* Largest length ≤ @max that does not cut a UTF-8 character of @str (of @len bytes). */
gsize
_lode_chunker_utf8_bound (const char *str,
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
char *
_lode_chunker_collapse_ws (const char *str,
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

  g_string_truncate (out, _lode_chunker_utf8_bound (out->str, out->len, max));
  return g_string_free (out, FALSE);
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
  return _lode_chunker_collapse_ws (ctx->text + start, MIN (end - start, max * 4), max);
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

static TSNode
child_by_field (TSNode      node,
                const char *field)
{
  return lode_node_child_by_field (node, field);
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
      g_autofree char *scope = _lode_chunker_collapse_ws (ctx->text + qualified_start,
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

  sig = _lode_chunker_collapse_ws (ctx->text + start, n, SIGNATURE_MAX);
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

void
_lode_chunker_def_clear (Def *def)
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

/* Adds what one match of the chunk query found: a definition, or a comment or an attribute
 * that may be one's doc. */
static void
collect_match (Ctx                *ctx,
               QueryInfo          *info,
               const TSQueryMatch *match)
{
  Def def = { 0 };
  TSNode name = { 0 };
  TSNode doc = { 0 };
  TSNode container = { 0 };
  TSNode attribute = { 0 };
  gboolean has_def = FALSE, has_name = FALSE, has_doc = FALSE, has_container = FALSE;
  gboolean has_attribute = FALSE;

  for (guint i = 0; i < match->capture_count; i++)
    {
      const TSQueryCapture *capture = &match->captures[i];

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
        case ROLE_ATTRIBUTE:
          attribute = capture->node;
          has_attribute = TRUE;
          break;
        case ROLE_NONE:
        default:
          break;
        }
    }

  if (has_def && has_name)
    {
      def.has_node = TRUE;
      def.pattern = match->pattern_index;
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

          lode_doc_comment_append (text, ctx->text + ds,
                                   de > ds ? MIN (de - ds, DOC_MAX * 4) : 0, DOC_MAX);
          g_strchomp (text->str);
          g_string_set_size (text, strlen (text->str));
          def.doc = g_string_free (text, text->len == 0);
        }
      if (*def.name == '\0')
        _lode_chunker_def_clear (&def);
      else
        g_array_append_val (ctx->defs, def);
    }
  else if ((has_doc || has_attribute) && !has_def)
    {
      Comment comment = { 0 };
      TSNode node = has_doc ? doc : attribute;

      comment.start_row = row_of_point (ctx, ts_node_start_point (node));
      comment.end_row = node_end_row (ctx, node);
      comment.start_byte = ts_node_start_byte (node);
      comment.end_byte = MIN (ts_node_end_byte (node), ctx->len);
      comment.attribute = !has_doc;
      /* A comment after code on its line describes that code, not what follows. */
      if (starts_line (ctx, comment.start_row, comment.start_byte))
        g_array_append_val (ctx->comments, comment);
    }
}

/* Starts the query only at the nodes its patterns start at (lode_language_get_chunk_roots()),
 * at a depth of 0: the same matches as a query cursor's visit of every node, for about half of
 * what that visit costs (bench/README.md, "The chunk query, started where its patterns
 * start"). */
void
_lode_chunker_collect_matches (Ctx       *ctx,
                               QueryInfo *info,
                               TSNode     root)
{
  TSTreeCursor walk = ts_tree_cursor_new (root);
  TSQueryMatch match;
  LodeQueryBudget run;
  guint steps = 0;
  gboolean more = TRUE;

  while (more)
    {
      TSNode node = ts_tree_cursor_current_node (&walk);
      TSSymbol symbol = ts_node_symbol (node);

      if (symbol < info->n_symbols && info->roots[symbol])
        {
          lode_parse_budget_exec (ctx->budget, &run, ctx->cursor, info->query, node);
          while (ts_query_cursor_next_match (ctx->cursor, &match))
            collect_match (ctx, info, &match);
        }
      if (++steps % LODE_PARSE_BUDGET_WALK_STEPS == 0 &&
          lode_parse_budget_spent (ctx->budget))
        break;
      if (ts_tree_cursor_goto_first_child (&walk))
        continue;
      while (!ts_tree_cursor_goto_next_sibling (&walk) &&
             (more = ts_tree_cursor_goto_parent (&walk)))
        ;
    }
  ts_tree_cursor_delete (&walk);

  /* The walk ends early when the budget runs out. */
  ctx->spent = lode_parse_budget_spent (ctx->budget);
}

/* Attaches the contiguous block of whole-line comments ending right above @def, or above the
 * attributes right above it (Rust's `/// doc` before `#[derive(…)]`). */
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

  /* The last comment or attribute that starts before the definition. */
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
    if (!comments[i].attribute)
      lode_doc_comment_append (text, ctx->text + comments[i].start_byte,
                               MIN (comments[i].end_byte - comments[i].start_byte, DOC_MAX * 4),
                               DOC_MAX);
  g_strchomp (text->str);
  g_string_set_size (text, strlen (text->str));
  def->doc = g_string_free (text, text->len == 0);
}

/* Sorts, deduplicates and nests the definitions, then fills in containers, kinds,
 * signatures and docs. */
void
_lode_chunker_build_tree (Ctx *ctx)
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
          _lode_chunker_def_clear (def);
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

/* The file's package and the namespaces and modules around @def. */
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

/* What resolves the types of a Rust file's impls: the names its `use` declarations bring
 * into scope (leaf → path as written) and the modules it declares. */
typedef struct
{
  GHashTable *uses;
  GHashTable *children;
} RustNames;

static void
rust_names_init (RustNames *names,
                 Ctx       *ctx,
                 GPtrArray *imports)
{
  names->uses = g_hash_table_new (g_str_hash, g_str_equal);
  names->children = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; imports != NULL && i < imports->len; i++)
    {
      const LodeImport *import = g_ptr_array_index (imports, i);
      const char *leaf = g_strrstr (import->specifier, "::");

      leaf = leaf != NULL ? leaf + 2 : import->specifier;
      if (import->kind != LODE_IMPORT_SOURCE && strcmp (leaf, "*") != 0 &&
          strcmp (leaf, "self") != 0 && !g_hash_table_contains (names->uses, leaf))
        g_hash_table_insert (names->uses, (gpointer) leaf, import->specifier);
    }
  for (guint i = 0; i < ctx->defs->len; i++)
    {
      const Def *def = &g_array_index (ctx->defs, Def, i);

      if (def->kind == g_intern_static_string ("module"))
        g_hash_table_add (names->children, def->name);
    }
}

static void
rust_names_clear (RustNames *names)
{
  g_clear_pointer (&names->uses, g_hash_table_unref);
  g_clear_pointer (&names->children, g_hash_table_unref);
}

/* The path of the type a Rust impl implements, from the crate root: `impl Semaphore for
 * bounded::Semaphore` in crate::sync::mpsc::chan → crate::sync::mpsc::bounded::Semaphore. */
static char *
impl_target (Ctx             *ctx,
             const Def       *impl,
             const char      *module,
             const RustNames *names)
{
  TSNode type = child_by_field (impl->node, "type");
  g_autofree char *written = NULL;

  if (ts_node_is_null (type))
    return NULL;
  written = clean_type_name (ctx, type);
  if (*written == '\0')
    return NULL;
  return lode_symbol_rust_resolve (module, written, names->uses, names->children);
}

/* @def's scope path: @namespace (its package and namespaces), then the classes around it,
 * innermost last. In Rust an impl stands for the type it implements, wherever that type is;
 * an impl's own scope is the module of that type. */
static char *
def_scope (Ctx             *ctx,
           const Def       *def,
           const char      *namespace,
           const char      *separator,
           const RustNames *rust)
{
  g_autoptr(GPtrArray) classes = g_ptr_array_new ();
  g_autofree char *base = NULL;
  GString *out;

  if (rust != NULL && def->kind == g_intern_static_string ("impl"))
    {
      g_autofree char *target = impl_target (ctx, def, namespace, rust);
      const char *last = target != NULL ? g_strrstr (target, "::") : NULL;

      if (last != NULL)
        return g_strndup (target, last - target);
    }

  for (const Def *p = def->parent; p != NULL && base == NULL; p = p->parent)
    {
      if (p->kind == g_intern_static_string ("namespace") ||
          p->kind == g_intern_static_string ("module"))
        break;
      if (rust != NULL && p->kind == g_intern_static_string ("impl"))
        base = impl_target (ctx, p, namespace, rust);
      else if (p->contains)
        g_ptr_array_insert (classes, 0, p->name);
    }

  /* A container that is not an enclosing definition: a Go receiver's type, C++'s `A::f`. */
  if (base == NULL && classes->len == 0 && def->container != NULL &&
      (def->parent == NULL || g_strcmp0 (def->parent->name, def->container) != 0))
    g_ptr_array_add (classes, def->container);

  out = g_string_new (base != NULL ? base : namespace);
  for (guint i = 0; i < classes->len; i++)
    {
      if (out->len > 0)
        g_string_append (out, separator);
      g_string_append (out, g_ptr_array_index (classes, i));
    }
  return g_string_free (out, out->len == 0);
}

/* Symbols, with the details the symbol tools need, from the parse @root. */
void
_lode_chunker_emit_symbols (Ctx                *ctx,
                            const LodeLanguage *language,
                            TSNode              root,
                            GPtrArray          *imports,
                            GPtrArray          *symbols)
{
  g_autoptr(LodeSymbolExtractor) extractor = lode_symbol_extractor_new (language, ctx->text,
                                                                        ctx->len, root);
  g_autofree char *file_module = ctx->path != NULL ? lode_symbol_file_module (language->id,
                                                                              ctx->path)
                                                   : NULL;
  const char *declared = lode_symbol_extractor_get_package (extractor);
  const char *package = declared != NULL ? declared : file_module;
  const char *separator = lode_symbol_extractor_get_separator (extractor);
  RustNames rust = { NULL, NULL };

  if (strcmp (language->id, "rust") == 0)
    {
      rust_names_init (&rust, ctx, imports);
      /* A file of no known path is still in a crate. */
      if (package == NULL)
        package = "crate";
    }

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      const Def *def = &g_array_index (ctx->defs, Def, i);
      LodeSymbol *symbol = lode_symbol_new ();
      /* PHP's `namespace A\B;` declares the package; it is not in it. */
      gboolean declares = def->kind == g_intern_static_string ("namespace") &&
                          g_strcmp0 (def->name, declared) == 0;
      g_autofree char *namespace = def_namespace (def, declares ? NULL : package, separator);
      LodeSymbolDef view = {
        def->node, def->name_byte, def->kind, def->name, def->container, def->doc
      };

      symbol->name = g_strdup (def->name);
      symbol->kind = def->kind;
      symbol->container = g_strdup (def->container);
      symbol->signature = g_strdup (def->signature);
      symbol->start_line = def->start_row + 1;
      symbol->end_line = def->end_row + 1;
      symbol->package = g_strdup (namespace);
      symbol->scope = def_scope (ctx, def, namespace, separator,
                                 rust.uses != NULL ? &rust : NULL);
      symbol->detail = lode_symbol_extractor_describe (extractor, &view);
      g_ptr_array_add (symbols, symbol);
    }
  rust_names_clear (&rust);
}
