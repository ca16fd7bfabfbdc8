/* lode-calls.c — call sites and what resolving them needs, from a file's parse
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-calls"

#include "config.h"

#include <string.h>

#include "lode-calls-private.h"
#include "lode-chunk.h"

/*
 * The value a file's walk fills (its call sites and bindings, stored and read back) and the
 * walk's state that lode-calls-bindings.c and lode-calls-walk.c share: the definitions
 * around it, the names a function's scope declares, texts squeezed and types cleaned. The
 * walk itself is in lode-calls-walk.c.
 */

#define QUALIFIER_MAX 160

static void
site_free (LodeCallSite *site)
{
  g_free (site->name);
  g_free (site->qualifier);
  g_free (site->receiver);
  g_free (site);
}

static void
binding_free (LodeCallBinding *binding)
{
  g_free (binding->name);
  g_free (binding->target);
  g_free (binding->path);
  g_free (binding);
}

/**
 * lode_calls_new:
 *
 * Returns: (transfer full): no call sites, no bindings
 */
LodeCalls *
lode_calls_new (void)
{
  LodeCalls *calls = g_new0 (LodeCalls, 1);

  calls->sites = g_ptr_array_new_with_free_func ((GDestroyNotify) site_free);
  calls->bindings = g_ptr_array_new_with_free_func ((GDestroyNotify) binding_free);
  calls->file_local = g_array_new (FALSE, FALSE, sizeof (guint));
  calls->conditional = g_array_new (FALSE, FALSE, sizeof (guint));
  return calls;
}

void
lode_calls_free (LodeCalls *calls)
{
  if (calls == NULL)
    return;
  g_ptr_array_unref (calls->sites);
  g_ptr_array_unref (calls->bindings);
  g_array_unref (calls->file_local);
  g_array_unref (calls->conditional);
  g_free (calls);
}

LodeCallSite *
_lode_calls_add_site (LodeCalls     *calls,
                      char          *name,
                      char          *qualifier,
                      guint          line,
                      gint           caller,
                      LodeCallFlags  flags)
{
  LodeCallSite *site = g_new0 (LodeCallSite, 1);

  site->name = name;
  site->qualifier = qualifier;
  site->line = line;
  site->caller = caller;
  site->flags = flags;
  g_ptr_array_add (calls->sites, site);
  return site;
}

/* The stored form of a file's calls, with the file's symbols they index: what
 * lode_call_resolver_add_file() needs of a file that is not parsed again when another one
 * changes, whatever the index keeps of its symbols besides. */
#define SYMBOL_TYPE "(ssmsmsmsmsuu)"
#define SITE_TYPE "(smsmsiuyy)"
#define BINDING_TYPE "(smsmsuiy)"
#define CALLS_VARIANT_TYPE "(a" SYMBOL_TYPE "a" SITE_TYPE "a" BINDING_TYPE "auau)"

static GVariant *
uint_array_to_variant (GArray *array)
{
  return g_variant_new_fixed_array (G_VARIANT_TYPE_UINT32, array->data, array->len,
                                    sizeof (guint32));
}

/**
 * lode_calls_to_bytes:
 * @calls: a file's calls
 * @symbols: (element-type LodeSymbol): the file's symbols, which @calls index
 *
 * Returns: (transfer full): @calls and @symbols (without their details) as bytes to store,
 *   read back by lode_calls_new_from_bytes()
 */
GBytes *
lode_calls_to_bytes (const LodeCalls *calls,
                     GPtrArray       *symbols)
{
  GVariantBuilder defs, sites, bindings;
  g_autoptr(GVariant) variant = NULL;

  g_variant_builder_init (&defs, G_VARIANT_TYPE ("a" SYMBOL_TYPE));
  for (guint i = 0; i < symbols->len; i++)
    {
      LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      g_variant_builder_add (&defs, SYMBOL_TYPE, symbol->name != NULL ? symbol->name : "",
                             symbol->kind != NULL ? symbol->kind : "", symbol->container,
                             symbol->package, symbol->scope, symbol->signature,
                             symbol->start_line, symbol->end_line);
    }
  g_variant_builder_init (&sites, G_VARIANT_TYPE ("a" SITE_TYPE));
  for (guint i = 0; i < calls->sites->len; i++)
    {
      LodeCallSite *site = g_ptr_array_index (calls->sites, i);

      g_variant_builder_add (&sites, SITE_TYPE, site->name, site->qualifier, site->receiver,
                             site->caller, site->line, site->flags, (guint8) site->receiver_kind);
    }
  g_variant_builder_init (&bindings, G_VARIANT_TYPE ("a" BINDING_TYPE));
  for (guint i = 0; i < calls->bindings->len; i++)
    {
      LodeCallBinding *binding = g_ptr_array_index (calls->bindings, i);

      g_variant_builder_add (&bindings, BINDING_TYPE, binding->name, binding->target,
                             binding->path, binding->line, binding->scope,
                             (guint8) binding->kind);
    }
  variant = g_variant_ref_sink (g_variant_new ("(@a" SYMBOL_TYPE "@a" SITE_TYPE "@a"
                                               BINDING_TYPE "@au@au)",
                                               g_variant_builder_end (&defs),
                                               g_variant_builder_end (&sites),
                                               g_variant_builder_end (&bindings),
                                               uint_array_to_variant (calls->file_local),
                                               uint_array_to_variant (calls->conditional)));
  return g_variant_get_data_as_bytes (variant);
}

static void
variant_to_uint_array (GVariant *variant,
                       GArray   *array)
{
  gsize n;
  const guint32 *values = g_variant_get_fixed_array (variant, &n, sizeof (guint32));

  g_array_append_vals (array, values, n);
}

static GPtrArray *
symbols_from_variant (GVariantIter *iter)
{
  GPtrArray *symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  const char *kind;
  LodeSymbol *symbol = lode_symbol_new ();

  while (g_variant_iter_next (iter, "(s&smsmsmsmsuu)", &symbol->name, &kind, &symbol->container,
                              &symbol->package, &symbol->scope, &symbol->signature,
                              &symbol->start_line, &symbol->end_line))
    {
      symbol->kind = kind[0] != '\0' ? g_intern_string (kind) : NULL;
      g_ptr_array_add (symbols, symbol);
      symbol = lode_symbol_new ();
    }
  lode_symbol_free (symbol);
  return symbols;
}

/**
 * lode_calls_new_from_bytes:
 * @bytes: what lode_calls_to_bytes() made
 * @symbols: (out) (transfer container) (element-type LodeSymbol): the file's symbols
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the calls, or %NULL with %G_IO_ERROR_INVALID_DATA when
 *   @bytes are not such calls: not in normal form, or naming symbols, kinds or receivers the
 *   file cannot have (a damaged index)
 */
LodeCalls *
lode_calls_new_from_bytes (GBytes     *bytes,
                           GPtrArray **symbols,
                           GError    **error)
{
  g_autoptr(GVariant) variant = NULL;
  g_autoptr(GVariantIter) defs = NULL;
  g_autoptr(GVariantIter) sites = NULL;
  g_autoptr(GVariantIter) bindings = NULL;
  g_autoptr(GVariant) file_local = NULL;
  g_autoptr(GVariant) conditional = NULL;
  g_autoptr(GPtrArray) read = NULL;
  LodeCalls *calls;
  const char *name;
  char *qualifier, *receiver;
  gint caller;
  guint line;
  guint8 flags, kind;
  gboolean ok = TRUE;

  variant = g_variant_ref_sink (g_variant_new_from_bytes (G_VARIANT_TYPE (CALLS_VARIANT_TYPE),
                                                          bytes, FALSE));
  if (!g_variant_is_normal_form (variant))
    goto damaged;

  calls = lode_calls_new ();
  g_variant_get (variant, "(a" SYMBOL_TYPE "a" SITE_TYPE "a" BINDING_TYPE "@au@au)", &defs,
                 &sites, &bindings, &file_local, &conditional);
  read = symbols_from_variant (defs);
  while (g_variant_iter_next (sites, "(&smsmsiuyy)", &name, &qualifier, &receiver, &caller,
                              &line, &flags, &kind))
    {
      LodeCallSite *site = _lode_calls_add_site (calls, g_strdup (name), qualifier, line,
                                                 caller, flags);

      site->receiver = receiver;
      site->receiver_kind = kind;
      if (caller < -1 || caller >= (gint) read->len || kind > LODE_CALL_RECEIVER_RESULT)
        ok = FALSE;
    }
  while (g_variant_iter_next (bindings, "(&smsmsuiy)", &name, &qualifier, &receiver, &line,
                              &caller, &kind))
    {
      lode_calls_add_binding (calls, kind, caller, name, qualifier, receiver, line);
      g_free (qualifier);
      g_free (receiver);
      if (caller < -1 || caller >= (gint) read->len || kind > LODE_CALL_BINDING_ENTRY)
        ok = FALSE;
    }
  variant_to_uint_array (file_local, calls->file_local);
  variant_to_uint_array (conditional, calls->conditional);
  for (guint i = 0; i < calls->file_local->len; i++)
    ok = ok && g_array_index (calls->file_local, guint, i) < read->len;
  if (ok)
    {
      *symbols = g_steal_pointer (&read);
      return calls;
    }
  lode_calls_free (calls);

damaged:
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "The stored call sites of a file are damaged (%" G_GSIZE_FORMAT " bytes)",
               g_bytes_get_size (bytes));
  return NULL;
}


/**
 * lode_calls_add_binding:
 * @calls: a #LodeCalls
 * @kind: what @name is
 * @scope: the index of the symbol it belongs to, -1 for the file
 * @name: the name bound
 * @target: (nullable): see #LodeCallBindingKind
 * @path: (nullable): the specifier of an import
 * @line: where, for an import the line lode-imports.c gives the same import
 */
void
lode_calls_add_binding (LodeCalls           *calls,
                        LodeCallBindingKind  kind,
                        gint                 scope,
                        const char          *name,
                        const char          *target,
                        const char          *path,
                        guint                line)
{
  LodeCallBinding *binding;

  g_return_if_fail (calls != NULL && name != NULL);

  binding = g_new0 (LodeCallBinding, 1);
  binding->kind = kind;
  binding->scope = scope;
  binding->name = g_strdup (name);
  binding->target = g_strdup (target);
  binding->path = g_strdup (path);
  binding->line = line;
  g_ptr_array_add (calls->bindings, binding);
}

/**
 * lode_calls_supported:
 * @language: a language
 *
 * Returns: whether call sites are read from files of @language
 */
gboolean
lode_calls_supported (const LodeLanguage *language)
{
  static const char * const ids[] = {
    "c", "cpp", "csharp", "go", "java", "javascript", "typescript", "tsx", "python", "rust",
    "php", "ruby", "kotlin", "swift", NULL
  };

  return language->ts_language != NULL && g_strv_contains (ids, language->id);
}

/* Text helpers ------------------------------------------------------------------------ */

/* @text[start..end) without white space, or NULL when longer than QUALIFIER_MAX. */
char *
_lode_calls_squeeze (Walk    *w,
                     guint32  start,
                     guint32  end)
{
  GString *out;

  end = MIN (end, w->x->len);
  if (start >= end || end - start > QUALIFIER_MAX * 4)
    return NULL;
  out = g_string_sized_new (end - start);
  for (guint32 i = start; i < end; i++)
    if (!g_ascii_isspace (w->x->text[i]))
      g_string_append_c (out, w->x->text[i]);
  if (out->len == 0 || out->len > QUALIFIER_MAX || !g_utf8_validate (out->str, out->len, NULL))
    {
      g_string_free (out, TRUE);
      return NULL;
    }
  return g_string_free (out, FALSE);
}

gboolean
_lode_calls_is_word_byte (char c)
{
  return g_ascii_isalnum (c) || c == '_' || c == '$' || (guchar) c >= 0x80;
}

/* A type as written → the path of names it starts with: `&mut a::Foo<T>` → `a::Foo`,
 * `*pkg.T` → `pkg.T`, `Foo?` → `Foo`, `List<Foo>` → `List`. NULL when none. */
char *
_lode_calls_clean_type (const char *text)
{
  static const char * const prefixes[] = {
    "&", "*", "mut ", "const ", "dyn ", "impl ", "?", ":", " ", "readonly ", "ref ", "out ",
    "in ", "struct ", "class ", "enum ", "union ", "typename ", "final ", "volatile ",
    "unsigned ", "\"", "'", "@", "->", "in ", "inout ", "some ", "any ", NULL
  };
  const char *p = text, *start;
  gboolean again = TRUE;

  if (text == NULL)
    return NULL;
  while (again)
    {
      again = FALSE;
      for (guint i = 0; prefixes[i] != NULL; i++)
        if (g_str_has_prefix (p, prefixes[i]))
          {
            p += strlen (prefixes[i]);
            again = TRUE;
          }
    }
  start = p;
  while (*p != '\0' && (_lode_calls_is_word_byte (*p) || *p == '.' || *p == '\\' ||
                        (p[0] == ':' && p[1] == ':')))
    p += (p[0] == ':') ? 2 : 1;
  while (p > start && (p[-1] == '.' || p[-1] == ':' || p[-1] == '\\'))
    p--;
  if (p == start)
    return NULL;
  return g_strndup (start, p - start);
}

/* Scopes ------------------------------------------------------------------------------ */

static void
local_free (Local *local)
{
  g_free (local->type);
  g_free (local);
}

Scope *
_lode_calls_scope_new (Scope *parent)
{
  Scope *scope = g_new0 (Scope, 1);

  scope->names = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                        (GDestroyNotify) local_free);
  scope->parent = parent;
  return scope;
}

void
_lode_calls_scope_free (Scope *scope)
{
  g_hash_table_unref (scope->names);
  g_free (scope);
}

const Local *
_lode_calls_scope_lookup (Scope      *scope,
                          const char *name)
{
  for (; scope != NULL; scope = scope->parent)
    {
      const Local *local = g_hash_table_lookup (scope->names, name);

      if (local != NULL)
        return local;
    }
  return NULL;
}

Scope *
_lode_calls_scope (Walk *w)
{
  for (guint i = w->frames->len; i > 0; i--)
    {
      Frame *frame = &g_array_index (w->frames, Frame, i - 1);

      if (frame->scope != NULL)
        return frame->scope;
    }
  return NULL;
}

/* Declares @name in the innermost function's scope; outside functions nothing is kept. */
void
_lode_calls_declare (Walk             *w,
                     TSNode            name,
                     LodeCallReceiver  kind,
                     const char       *type)
{
  Scope *scope = _lode_calls_scope (w);
  Local *local;
  char *key;

  if (scope == NULL || ts_node_is_null (name))
    return;
  key = _lode_calls_squeeze (w, ts_node_start_byte (name), ts_node_end_byte (name));
  if (key == NULL)
    return;
  local = g_new0 (Local, 1);
  local->kind = type != NULL ? kind : LODE_CALL_RECEIVER_UNKNOWN;
  local->type = g_strdup (type);
  g_hash_table_replace (scope->names, key, local);
}

gboolean
_lode_calls_kind_is_function (const char *kind)
{
  static const char * const kinds[] = {
    "function", "method", "constructor", "macro", "prototype", "property", NULL
  };

  return kind != NULL && g_strv_contains (kinds, kind);
}

static gboolean
kind_is_class (const char *kind)
{
  static const char * const kinds[] = {
    "class", "struct", "interface", "trait", "impl", "object", "enum", "union", "record",
    "protocol", "extension", NULL
  };

  return kind != NULL && g_strv_contains (kinds, kind);
}

static gboolean
kind_is_namespace (const char *kind)
{
  return kind != NULL && (strcmp (kind, "module") == 0 || strcmp (kind, "namespace") == 0);
}

/* The innermost function around the walk, else the innermost definition that is neither a
 * class nor a namespace (a constant's initializer), else the innermost class; -1 at file
 * level. */
gint
_lode_calls_caller (Walk *w)
{
  gint fallback = -1;

  for (guint i = w->frames->len; i > 0; i--)
    {
      guint def = g_array_index (w->frames, Frame, i - 1).def;
      const char *kind = w->kinds[def];

      if (_lode_calls_kind_is_function (kind))
        return def;
      if (kind_is_namespace (kind))
        continue;
      if (kind_is_class (kind))
        {
          if (fallback < 0)
            fallback = def;
          continue;
        }
      return def;
    }
  return fallback;
}

/* The innermost class-like definition around the walk, -1 if none. */
gint
_lode_calls_class (Walk *w)
{
  for (guint i = w->frames->len; i > 0; i--)
    {
      guint def = g_array_index (w->frames, Frame, i - 1).def;

      if (kind_is_class (w->kinds[def]))
        return def;
      if (_lode_calls_kind_is_function (w->kinds[def]))
        return -1;
    }
  return -1;
}
