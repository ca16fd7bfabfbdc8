/* lode-calls.c — call sites and what resolving them needs, from a file's parse
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-calls"

#include "config.h"

#include <gio/gio.h>
#include <string.h>

#include "lode-calls-private.h"
#include "lode-chunk.h"
#include "lode-varint.h"

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
 * changes, whatever the index keeps of its symbols besides. A version byte, then LEB128
 * varints: each list's length and its items in order; a string as its length and its bytes,
 * one that may be NULL as its length + 1 (0 for NULL); a caller or scope as its index + 1.
 * Written on the indexer's writer thread for every file and read back by the call pass:
 * GVariant's builder spent about 0.7 s of CPU on git's files, this about a tenth. */
#define CALLS_FORMAT 1

static void
put_string (GByteArray *out,
            const char *text)
{
  gsize len = strlen (text);

  lode_varint_append (out, len);
  g_byte_array_append (out, (const guint8 *) text, len);
}

static void
put_nullable (GByteArray *out,
              const char *text)
{
  gsize len = text != NULL ? strlen (text) : 0;

  lode_varint_append (out, text != NULL ? len + 1 : 0);
  if (text != NULL)
    g_byte_array_append (out, (const guint8 *) text, len);
}

static void
put_uints (GByteArray *out,
           GArray     *array)
{
  lode_varint_append (out, array->len);
  for (guint i = 0; i < array->len; i++)
    lode_varint_append (out, g_array_index (array, guint, i));
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
  GByteArray *out = g_byte_array_sized_new (64 * (symbols->len + calls->sites->len) + 16);
  guint8 format = CALLS_FORMAT;

  g_byte_array_append (out, &format, 1);
  lode_varint_append (out, symbols->len);
  for (guint i = 0; i < symbols->len; i++)
    {
      LodeSymbol *symbol = g_ptr_array_index (symbols, i);

      put_string (out, symbol->name != NULL ? symbol->name : "");
      put_string (out, symbol->kind != NULL ? symbol->kind : "");
      put_nullable (out, symbol->container);
      put_nullable (out, symbol->package);
      put_nullable (out, symbol->scope);
      put_nullable (out, symbol->signature);
      lode_varint_append (out, symbol->start_line);
      lode_varint_append (out, symbol->end_line);
    }
  lode_varint_append (out, calls->sites->len);
  for (guint i = 0; i < calls->sites->len; i++)
    {
      LodeCallSite *site = g_ptr_array_index (calls->sites, i);

      put_string (out, site->name);
      put_nullable (out, site->qualifier);
      put_nullable (out, site->receiver);
      lode_varint_append (out, (guint64) ((gint64) site->caller + 1));
      lode_varint_append (out, site->line);
      lode_varint_append (out, site->flags);
      lode_varint_append (out, site->receiver_kind);
    }
  lode_varint_append (out, calls->bindings->len);
  for (guint i = 0; i < calls->bindings->len; i++)
    {
      LodeCallBinding *binding = g_ptr_array_index (calls->bindings, i);

      put_string (out, binding->name);
      put_nullable (out, binding->target);
      put_nullable (out, binding->path);
      lode_varint_append (out, binding->line);
      lode_varint_append (out, (guint64) ((gint64) binding->scope + 1));
      lode_varint_append (out, binding->kind);
    }
  put_uints (out, calls->file_local);
  put_uints (out, calls->conditional);
  return g_byte_array_free_to_bytes (out);
}

/* Reads what lode_calls_to_bytes() wrote; each read fails (and stays failed) past the end
 * or on a value out of its range, so that damaged bytes are never read out of bounds. */
typedef struct
{
  const guint8 *at;
  const guint8 *end;
  gboolean      ok;
} Reader;

static guint64
get_uint (Reader  *reader,
          guint64  max)
{
  guint64 value = 0;

  reader->ok = reader->ok && lode_varint_read (&reader->at, reader->end, &value) && value <= max;
  return reader->ok ? value : 0;
}

/* Valid UTF-8 without NUL, as every text of a file's symbols and calls. */
static char *
get_text (Reader *reader,
          gsize   len)
{
  const char *text = (const char *) reader->at;

  if (!reader->ok || len > (gsize) (reader->end - reader->at) ||
      memchr (text, '\0', len) != NULL || !g_utf8_validate_len (text, len, NULL))
    {
      reader->ok = FALSE;
      return NULL;
    }
  reader->at += len;
  return g_strndup (text, len);
}

static char *
get_string (Reader *reader)
{
  gsize len = get_uint (reader, G_MAXSIZE);

  return get_text (reader, len);
}

static char *
get_nullable (Reader *reader)
{
  gsize len = get_uint (reader, G_MAXSIZE);

  return len > 0 ? get_text (reader, len - 1) : NULL;
}

/* A list's length: each item takes a byte at least. */
static guint
get_length (Reader *reader)
{
  return get_uint (reader, MIN ((guint64) (reader->end - reader->at), G_MAXUINT));
}

static void
get_uints (Reader *reader,
           GArray *array,
           guint   max)
{
  guint n = get_length (reader);

  for (guint i = 0; i < n && reader->ok; i++)
    {
      guint value = get_uint (reader, max);

      g_array_append_val (array, value);
    }
}

static GPtrArray *
get_symbols (Reader *reader)
{
  GPtrArray *symbols = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_symbol_free);
  guint n = get_length (reader);

  for (guint i = 0; i < n && reader->ok; i++)
    {
      LodeSymbol *symbol = lode_symbol_new ();
      g_autofree char *kind = NULL;

      symbol->name = get_string (reader);
      kind = get_string (reader);
      symbol->kind = kind != NULL && kind[0] != '\0' ? g_intern_string (kind) : NULL;
      symbol->container = get_nullable (reader);
      symbol->package = get_nullable (reader);
      symbol->scope = get_nullable (reader);
      symbol->signature = get_nullable (reader);
      symbol->start_line = get_uint (reader, G_MAXUINT);
      symbol->end_line = get_uint (reader, G_MAXUINT);
      g_ptr_array_add (symbols, symbol);
    }
  return symbols;
}

/**
 * lode_calls_new_from_bytes:
 * @bytes: what lode_calls_to_bytes() made
 * @symbols: (out) (transfer container) (element-type LodeSymbol): the file's symbols
 * @error: return location for a #GError
 *
 * Returns: (transfer full) (nullable): the calls, or %NULL with %G_IO_ERROR_INVALID_DATA when
 *   @bytes are not such calls: truncated, of another format, or naming symbols, kinds or
 *   receivers the file cannot have (a damaged index)
 */
LodeCalls *
lode_calls_new_from_bytes (GBytes     *bytes,
                           GPtrArray **symbols,
                           GError    **error)
{
  gsize size;
  const guint8 *data = g_bytes_get_data (bytes, &size);
  Reader reader = { data, data + size, size > 0 && data[0] == CALLS_FORMAT };
  g_autoptr(GPtrArray) read = NULL;
  LodeCalls *calls = lode_calls_new ();
  guint n;

  if (reader.ok)
    reader.at++;
  read = get_symbols (&reader);
  n = get_length (&reader);
  for (guint i = 0; i < n && reader.ok; i++)
    {
      char *name = get_string (&reader);
      char *qualifier = get_nullable (&reader);
      char *receiver = get_nullable (&reader);
      gint caller = (gint) get_uint (&reader, read->len) - 1;
      guint line = get_uint (&reader, G_MAXUINT);
      LodeCallSite *site;

      site = _lode_calls_add_site (calls, name, qualifier, line, caller,
                                   get_uint (&reader, G_MAXUINT8));
      site->receiver = receiver;
      site->receiver_kind = get_uint (&reader, LODE_CALL_RECEIVER_RESULT);
    }
  n = get_length (&reader);
  for (guint i = 0; i < n && reader.ok; i++)
    {
      g_autofree char *name = get_string (&reader);
      g_autofree char *target = get_nullable (&reader);
      g_autofree char *path = get_nullable (&reader);
      guint line = get_uint (&reader, G_MAXUINT);
      gint scope = (gint) get_uint (&reader, read->len) - 1;
      LodeCallBindingKind kind = get_uint (&reader, LODE_CALL_BINDING_ENTRY);

      if (reader.ok)
        lode_calls_add_binding (calls, kind, scope, name, target, path, line);
    }
  get_uints (&reader, calls->file_local, read->len > 0 ? read->len - 1 : 0);
  get_uints (&reader, calls->conditional, G_MAXUINT);
  if (reader.ok && reader.at == reader.end && (read->len > 0 || calls->file_local->len == 0))
    {
      *symbols = g_steal_pointer (&read);
      return calls;
    }
  lode_calls_free (calls);
  g_set_error (error, G_IO_ERROR, G_IO_ERROR_INVALID_DATA,
               "The stored call sites of a file are damaged (%" G_GSIZE_FORMAT " bytes)",
               size);
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
