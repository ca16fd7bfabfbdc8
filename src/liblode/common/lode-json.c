/* lode-json.c — reading JSON from outside and writing JSON that stays valid
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-json"

#include "config.h"

#include <math.h>
#include <string.h>

#include "lode-json.h"

/*
 * json-glib is Lode's JSON library, and it is right about almost everything. What it gets
 * wrong with hostile or merely unusual input is fixed around it, in one place, for every
 * JSON that comes from outside (MCP messages over stdio and HTTP, the daemon's CallTool
 * arguments and replies, project configuration files, model files, embedding servers'
 * answers) and every JSON Lode writes:
 *
 * - It parses recursively: 100,000 nested `[` overflow the stack. Nesting is counted first
 *   and refused past LODE_JSON_MAX_DEPTH.
 * - It decodes some malformed escapes (`\u` without four hex digits) into bytes that are not
 *   UTF-8: every escape must be one JSON defines.
 * - `\u0000` ends the C string it decodes into, so `"ping\u0000x"` reads as `"ping"` (and a
 *   raw NUL byte cuts the text). Both are refused: a name or a path is never silently cut.
 * - An escaped lone surrogate (`\ud800`) decodes into bytes that are not UTF-8, which then
 *   break every output. It is read as U+FFFD, the replacement character.
 * - Integers beyond 64 bits wrap around (2^64 reads as -1) and 1e400 reads as infinity,
 *   which it writes back as `inf.0`. Both are refused: a JSON-RPC id must come back exactly.
 * - It escapes control characters below U+001F but writes U+001F itself raw, which is
 *   invalid JSON, writes infinities and NaNs as bare words and 1e20 as `1e+20.0`.
 *   lode_json_to_string() writes JSON itself (see "Writing" below).
 * - Its scanner (GScanner's) reads more than JSON: C comments, single-quoted strings and
 *   hexadecimal numbers. A comment or a single-quoted string can hide a `"` from the scan
 *   below, and with it the brackets, NULs and numbers that follow (a comment holding a
 *   quote, 100,000 `[`, then another such comment crashed lode-mcp), and
 *   `0x1FFFFFFFFFFFFFFFF` wraps around. Outside strings only JSON's own tokens are let
 *   through: whitespace, structure, numbers, `true`, `false` and `null` (and a byte-order
 *   mark at the start, which json-glib skips).
 *
 * The scan before parsing is linear and each of its steps consumes at least one byte.
 */

static gboolean
hex4 (const char *p,
      const char *end,
      guint      *value)
{
  guint v = 0;

  if (end - p < 4)
    return FALSE;
  for (guint i = 0; i < 4; i++)
    {
      int d = g_ascii_xdigit_value (p[i]);

      if (d < 0)
        return FALSE;
      v = v * 16 + d;
    }

  *value = v;
  return TRUE;
}

/* Past the string whose opening quote was just before @p. Lone surrogates are replaced in
 * *@copy (made on the first one; the replacement has the same length). */
static const char *
scan_string (const char  *data,
             const char  *p,
             const char  *end,
             char       **copy,
             guint       *n_nul,
             GError     **error)
{
  while (p < end)
    {
      guint code;
      guint low;

      if (*p == '"')
        return p + 1;
      if (*p == '\0')
        {
          g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                       "NUL byte at byte %" G_GSIZE_FORMAT, (gsize) (p - data));
          return NULL;
        }
      if (*p != '\\')
        {
          p++;
          continue;
        }
      if (end - p >= 2 && strchr ("\"\\/bfnrt", p[1]) != NULL && p[1] != '\0')
        {
          p += 2;
          continue;
        }
      if (end - p < 2 || p[1] != 'u' || !hex4 (p + 2, end, &code))
        {
          /* json-glib decodes some of these into bytes that are not UTF-8. */
          g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                       "invalid escape at byte %" G_GSIZE_FORMAT, (gsize) (p - data));
          return NULL;
        }

      if (code == 0 && n_nul == NULL)
        {
          g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                       "\\u0000 at byte %" G_GSIZE_FORMAT ": strings may not contain U+0000",
                       (gsize) (p - data));
          return NULL;
        }
      if (code == 0)
        {
          (*n_nul)++;
          if (*copy == NULL)
            *copy = g_strndup (data, end - data);
          memcpy (*copy + (p - data), "\\ufffd", 6);
          p += 6;
          continue;
        }

      if (code >= 0xD800 && code <= 0xDBFF && end - p >= 12 && p[6] == '\\' && p[7] == 'u' &&
          hex4 (p + 8, end, &low) && low >= 0xDC00 && low <= 0xDFFF)
        {
          p += 12;
          continue;
        }

      if (code >= 0xD800 && code <= 0xDFFF)
        {
          if (*copy == NULL)
            *copy = g_strndup (data, end - data);
          memcpy (*copy + (p - data), "\\ufffd", 6);
        }
      p += 6;
    }

  return end;
}

/* Past the number at @p, which must fit: a 64-bit integer, or a finite double. */
static const char *
scan_number (const char  *data,
             const char  *p,
             const char  *end,
             GError     **error)
{
  const char *start = p;
  gboolean integer = TRUE;
  g_autofree char *token = NULL;
  g_autoptr(GError) local_error = NULL;
  gint64 value;

  while (p < end && (g_ascii_isdigit (*p) || *p == '-' || *p == '+' || *p == '.' ||
                     *p == 'e' || *p == 'E'))
    {
      if (*p == '.' || *p == 'e' || *p == 'E')
        integer = FALSE;
      p++;
    }

  token = g_strndup (start, p - start);
  if (integer)
    {
      /* Malformed tokens ("-", "1-2") are json-glib's to report; only the range is ours. */
      if (!g_ascii_string_to_signed (token, 10, G_MININT64, G_MAXINT64, &value, &local_error) &&
          g_error_matches (local_error, G_NUMBER_PARSER_ERROR,
                           G_NUMBER_PARSER_ERROR_OUT_OF_BOUNDS))
        goto out_of_range;
    }
  else if (!isfinite (g_ascii_strtod (token, NULL)))
    goto out_of_range;

  return MAX (p, start + 1);

out_of_range:
  g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
               "the number %.40s%s at byte %" G_GSIZE_FORMAT " is out of range",
               token, strlen (token) > 40 ? "…" : "", (gsize) (start - data));
  return NULL;
}

/* Past `true`, `false` or `null` at @p; anything else outside a string is not JSON. */
static const char *
scan_word (const char  *data,
           const char  *p,
           const char  *end,
           GError     **error)
{
  static const char * const words[] = { "true", "false", "null" };
  const char *start = p;

  if (p == data && end - p >= 3 && memcmp (p, "\xef\xbb\xbf", 3) == 0)
    return p + 3;

  while (p < end && (g_ascii_isalnum (*p) || *p == '_'))
    p++;
  for (guint i = 0; i < G_N_ELEMENTS (words); i++)
    if ((gsize) (p - start) == strlen (words[i]) && memcmp (start, words[i], p - start) == 0)
      return p;

  if (p == start)
    g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                 "unexpected character at byte %" G_GSIZE_FORMAT ": not JSON",
                 (gsize) (start - data));
  else
    g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                 "unexpected “%.*s”%s at byte %" G_GSIZE_FORMAT ": not JSON",
                 (int) MIN (p - start, 40), start, p - start > 40 ? "…" : "",
                 (gsize) (start - data));
  return NULL;
}

/* Checks @data for what json-glib would mishandle (see above). Returns FALSE with @error set
 * for what is refused; *@copy is set when lone surrogates (or, with @n_nul, `\u0000`) had to
 * be replaced. */
static gboolean
prescan (const char  *data,
         gsize        length,
         char       **copy,
         guint       *n_nul,
         GError     **error)
{
  const char *end = data + length;
  const char *p = data;
  guint depth = 0;

  while (p < end)
    {
      switch (*p)
        {
        case '\0':
          g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                       "NUL byte at byte %" G_GSIZE_FORMAT, (gsize) (p - data));
          return FALSE;

        case '[':
        case '{':
          if (++depth > LODE_JSON_MAX_DEPTH)
            {
              g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA,
                           "arrays and objects are nested deeper than %d levels at byte %"
                           G_GSIZE_FORMAT, LODE_JSON_MAX_DEPTH, (gsize) (p - data));
              return FALSE;
            }
          p++;
          break;

        case ']':
        case '}':
          if (depth > 0)
            depth--;
          p++;
          break;

        case '"':
          p = scan_string (data, p + 1, end, copy, n_nul, error);
          if (p == NULL)
            return FALSE;
          break;

        case '-':
        case '0': case '1': case '2': case '3': case '4':
        case '5': case '6': case '7': case '8': case '9':
          p = scan_number (data, p, end, error);
          if (p == NULL)
            return FALSE;
          break;

        case ' ':
        case '\t':
        case '\n':
        case '\r':
        case ',':
        case ':':
          p++;
          break;

        default:
          p = scan_word (data, p, end, error);
          if (p == NULL)
            return FALSE;
          break;
        }
    }

  return TRUE;
}

/**
 * lode_json_parse_full:
 * @data: JSON text from outside (a message, a file, a server's answer)
 * @length: length of @data in bytes, or -1 if it is nul-terminated
 * @n_nul: (out) (optional): when given, `\u0000` is read as U+FFFD instead of refused, and
 *   this counts how often
 * @error: return location for a #GError
 *
 * Parses JSON that Lode did not write itself. Unlike json-glib alone it refuses nesting
 * deeper than %LODE_JSON_MAX_DEPTH (which would overflow the stack), `\u0000` (unless
 * @n_nul is given) and NUL bytes (which would cut strings), integers beyond 64 bits and
 * numbers beyond the range of a double (which would wrap or become infinite), and reads
 * escaped lone surrogates as U+FFFD, so that every string of the result is valid UTF-8
 * without embedded NULs. A caller that must answer a message it refuses (a JSON-RPC
 * request, with its id) reads it with @n_nul and refuses what it holds.
 *
 * Returns: (transfer full) (nullable): the root node, mutable, or %NULL with @error set (in
 *   the %JSON_PARSER_ERROR domain)
 */
JsonNode *
lode_json_parse_full (const char  *data,
                      gssize       length,
                      guint       *n_nul,
                      GError     **error)
{
  g_autoptr(JsonParser) parser = NULL;
  g_autofree char *copy = NULL;
  gsize len;

  g_return_val_if_fail (data != NULL || length == 0, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  if (n_nul != NULL)
    *n_nul = 0;
  len = length < 0 ? strlen (data) : (gsize) length;
  if (!prescan (data != NULL ? data : "", len, &copy, n_nul, error))
    return NULL;

  parser = json_parser_new ();
  if (!json_parser_load_from_data (parser, copy != NULL ? copy : data != NULL ? data : "", len,
                                   error))
    return NULL;
  if (json_parser_get_root (parser) == NULL)
    {
      g_set_error (error, JSON_PARSER_ERROR, JSON_PARSER_ERROR_INVALID_DATA, "empty JSON text");
      return NULL;
    }

  return json_parser_steal_root (parser);
}

/**
 * lode_json_parse:
 * @data: JSON text from outside (a message, a file, a server's answer)
 * @length: length of @data in bytes, or -1 if it is nul-terminated
 * @error: return location for a #GError
 *
 * lode_json_parse_full() without @n_nul: `\u0000` is refused.
 *
 * Returns: (transfer full) (nullable): the root node, mutable, or %NULL with @error set (in
 *   the %JSON_PARSER_ERROR domain)
 */
JsonNode *
lode_json_parse (const char  *data,
                 gssize       length,
                 GError     **error)
{
  return lode_json_parse_full (data, length, NULL, error);
}

/**
 * lode_json_parse_file:
 * @path: a JSON file
 * @error: return location for a #GError
 *
 * lode_json_parse() on the contents of @path (a model's configuration, a tokenizer).
 *
 * Returns: (transfer full) (nullable): the root node, or %NULL with @error set
 */
JsonNode *
lode_json_parse_file (const char  *path,
                      GError     **error)
{
  g_autoptr(GMappedFile) file = NULL;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  file = g_mapped_file_new (path, FALSE, error);
  if (file == NULL)
    return NULL;

  return lode_json_parse (g_mapped_file_get_contents (file), g_mapped_file_get_length (file),
                          error);
}

/* Writing. json-glib's own generator writes U+001F raw, infinities and NaNs as bare words,
 * 1e20 as `1e+20.0` (it appends `.0` to any number without a point) and invalid UTF-8 as it
 * is; it also costs a search through lode-mcp more than its ranking of an identifier does
 * (json_to_string() and a second pass to repair its output were a fifth of the instructions
 * of such a search). Lode writes its JSON itself, in one pass over the tree. */

static void write_node (GString  *out,
                        JsonNode *node,
                        gboolean  pretty,
                        guint     level);

static void
write_indent (GString *out,
              guint    level)
{
  g_string_append_c (out, '\n');
  for (guint i = 0; i < level; i++)
    g_string_append (out, "  ");
}

/* What a byte below 0x80 is written as inside a string: 0 itself, 1 `\u00XX`, or the
 * character after a backslash. */
static const char string_escape[0x80] = {
  [0x00 ... 0x07] = 1, ['\b'] = 'b', ['\t'] = 't', ['\n'] = 'n', [0x0b] = 1, ['\f'] = 'f',
  ['\r'] = 'r', [0x0e ... 0x1f] = 1, ['"'] = '"', ['\\'] = '\\',
};

/**
 * lode_json_append_string:
 * @out: the text being written
 * @text: a string
 *
 * Appends @text as a JSON string, as lode_json_to_string() writes it: quoted, with quotes,
 * backslashes and every control character escaped and each byte that is not part of valid
 * UTF-8 written as U+FFFD. For JSON Lode writes itself, without a tree.
 */
void
lode_json_append_string (GString    *out,
                         const char *text)
{
  const guchar *p = (const guchar *) text;

  g_string_append_c (out, '"');
  while (*p != '\0')
    {
      const guchar *run = p;
      gunichar c;

      while (*p != '\0' && *p < 0x80 && string_escape[*p] == 0)
        p++;
      g_string_append_len (out, (const char *) run, p - run);
      if (*p == '\0')
        break;

      if (*p < 0x80)
        {
          if (string_escape[*p] == 1)
            g_string_append_printf (out, "\\u%04x", *p);
          else
            {
              g_string_append_c (out, '\\');
              g_string_append_c (out, string_escape[*p]);
            }
          p++;
          continue;
        }

      c = g_utf8_get_char_validated ((const char *) p, -1);
      if (c == (gunichar) -1 || c == (gunichar) -2)
        {
          g_string_append (out, "\xef\xbf\xbd");
          p++;
        }
      else
        {
          g_string_append_len (out, (const char *) p, g_utf8_skip[*p]);
          p += g_utf8_skip[*p];
        }
    }
  g_string_append_c (out, '"');
}

static void
write_int (GString *out,
           gint64   value)
{
  char buf[24];
  char *p = buf + sizeof buf;
  guint64 v = value < 0 ? -(guint64) value : (guint64) value;

  do
    *--p = '0' + v % 10;
  while ((v /= 10) != 0);
  if (value < 0)
    *--p = '-';
  g_string_append_len (out, p, buf + sizeof buf - p);
}

/* The shortest of 15 to 17 digits that reads back as @value, with a point or an exponent so
 * that it reads back as a double; null for what JSON cannot write. */
static void
write_double (GString *out,
              double   value)
{
  char buf[G_ASCII_DTOSTR_BUF_SIZE];

  if (!isfinite (value))
    {
      g_string_append (out, "null");
      return;
    }
  g_ascii_formatd (buf, sizeof buf, "%.15g", value);
  if (g_ascii_strtod (buf, NULL) != value)
    g_ascii_formatd (buf, sizeof buf, "%.16g", value);
  if (g_ascii_strtod (buf, NULL) != value)
    g_ascii_formatd (buf, sizeof buf, "%.17g", value);
  g_string_append (out, buf);
  if (strpbrk (buf, ".e") == NULL)
    g_string_append (out, ".0");
}

static void
write_value (GString  *out,
             JsonNode *node)
{
  const char *text;

  switch (json_node_get_value_type (node))
    {
    case G_TYPE_INT64:
      write_int (out, json_node_get_int (node));
      break;
    case G_TYPE_DOUBLE:
      write_double (out, json_node_get_double (node));
      break;
    case G_TYPE_BOOLEAN:
      g_string_append (out, json_node_get_boolean (node) ? "true" : "false");
      break;
    case G_TYPE_STRING:
      text = json_node_get_string (node);
      if (text != NULL)
        lode_json_append_string (out, text);
      else
        g_string_append (out, "null");
      break;
    default:
      g_string_append (out, "null");
      break;
    }
}

static void
write_object (GString    *out,
              JsonObject *object,
              gboolean    pretty,
              guint       level)
{
  JsonObjectIter iter;
  const char *name;
  JsonNode *member;
  gboolean first = TRUE;

  g_string_append_c (out, '{');
  json_object_iter_init_ordered (&iter, object);
  while (json_object_iter_next_ordered (&iter, &name, &member))
    {
      if (!first)
        g_string_append_c (out, ',');
      first = FALSE;
      if (pretty)
        write_indent (out, level + 1);
      lode_json_append_string (out, name);
      g_string_append (out, pretty ? " : " : ":");
      write_node (out, member, pretty, level + 1);
    }
  if (pretty && !first)
    write_indent (out, level);
  g_string_append_c (out, '}');
}

static void
write_array (GString   *out,
             JsonArray *array,
             gboolean   pretty,
             guint      level)
{
  guint n = json_array_get_length (array);

  g_string_append_c (out, '[');
  for (guint i = 0; i < n; i++)
    {
      if (i > 0)
        g_string_append_c (out, ',');
      if (pretty)
        write_indent (out, level + 1);
      write_node (out, json_array_get_element (array, i), pretty, level + 1);
    }
  if (pretty && n > 0)
    write_indent (out, level);
  g_string_append_c (out, ']');
}

static void
write_node (GString  *out,
            JsonNode *node,
            gboolean  pretty,
            guint     level)
{
  switch (JSON_NODE_TYPE (node))
    {
    case JSON_NODE_OBJECT:
      write_object (out, json_node_get_object (node), pretty, level);
      break;
    case JSON_NODE_ARRAY:
      write_array (out, json_node_get_array (node), pretty, level);
      break;
    case JSON_NODE_VALUE:
      write_value (out, node);
      break;
    case JSON_NODE_NULL:
    default:
      g_string_append (out, "null");
      break;
    }
}

/**
 * lode_json_to_string:
 * @node: a node
 * @pretty: indent the output
 *
 * Like json_to_string(), but the result is always valid JSON: every control character is
 * escaped in strings, infinities and NaNs (which JSON cannot express) are written as null,
 * and invalid UTF-8 becomes U+FFFD. Members keep their order. Use it for everything Lode
 * writes: MCP messages, `--json` output, requests to embedding servers and Qdrant.
 *
 * Returns: (transfer full): the JSON text
 */
char *
lode_json_to_string (JsonNode *node,
                     gboolean  pretty)
{
  GString *out;

  g_return_val_if_fail (node != NULL, NULL);

  out = g_string_sized_new (256);
  write_node (out, node, pretty, 0);

  return g_string_free (out, FALSE);
}

/**
 * lode_json_get_string:
 * @object: (nullable): a JSON object from outside
 * @member: a member name
 *
 * Returns: (nullable): @member of @object when it is a string; %NULL when @object is %NULL or
 *   the member is missing or of another type
 */
const char *
lode_json_get_string (JsonObject *object,
                      const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_STRING)
    return NULL;
  return json_node_get_string (node);
}

/**
 * lode_json_get_object:
 * @object: (nullable): a JSON object from outside
 * @member: a member name
 *
 * Returns: (nullable): @member of @object when it is an object
 */
JsonObject *
lode_json_get_object (JsonObject *object,
                      const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node) : NULL;
}

/**
 * lode_json_get_array:
 * @object: (nullable): a JSON object from outside
 * @member: a member name
 *
 * Returns: (nullable): @member of @object when it is an array
 */
JsonArray *
lode_json_get_array (JsonObject *object,
                     const char *member)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  return node != NULL && JSON_NODE_HOLDS_ARRAY (node) ? json_node_get_array (node) : NULL;
}

/**
 * lode_json_get_int:
 * @object: (nullable): a JSON object
 * @member: a member name
 * @default_value: what a missing member, or one that is no integer, gives
 *
 * Returns: @member of @object when it is an integer, else @default_value
 */
gint64
lode_json_get_int (JsonObject *object,
                   const char *member,
                   gint64      default_value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_INT64)
    return default_value;
  return json_node_get_int (node);
}

/**
 * lode_json_get_boolean:
 * @object: (nullable): a JSON object
 * @member: a member name
 * @default_value: what a missing member, or one that is no boolean, gives
 *
 * Returns: @member of @object when it is a boolean, else @default_value
 */
gboolean
lode_json_get_boolean (JsonObject *object,
                       const char *member,
                       gboolean    default_value)
{
  JsonNode *node = object != NULL ? json_object_get_member (object, member) : NULL;

  if (node == NULL || !JSON_NODE_HOLDS_VALUE (node) ||
      json_node_get_value_type (node) != G_TYPE_BOOLEAN)
    return default_value;
  return json_node_get_boolean (node);
}

/**
 * lode_json_builder_add_string:
 * @builder: a #JsonBuilder inside an object
 * @member: a member name
 * @value: (nullable): its value; %NULL writes null
 */
void
lode_json_builder_add_string (JsonBuilder *builder,
                              const char  *member,
                              const char  *value)
{
  json_builder_set_member_name (builder, member);
  if (value != NULL)
    json_builder_add_string_value (builder, value);
  else
    json_builder_add_null_value (builder);
}

void
lode_json_builder_add_int (JsonBuilder *builder,
                           const char  *member,
                           gint64       value)
{
  json_builder_set_member_name (builder, member);
  json_builder_add_int_value (builder, value);
}

void
lode_json_builder_add_boolean (JsonBuilder *builder,
                               const char  *member,
                               gboolean     value)
{
  json_builder_set_member_name (builder, member);
  json_builder_add_boolean_value (builder, value);
}

/**
 * lode_json_builder_steal_object:
 * @builder: a #JsonBuilder whose root is a finished object
 *
 * Returns: (transfer full): the object built
 */
JsonObject *
lode_json_builder_steal_object (JsonBuilder *builder)
{
  g_autoptr(JsonNode) root = json_builder_get_root (builder);

  return json_node_dup_object (root);
}
