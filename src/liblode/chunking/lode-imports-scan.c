/* lode-imports-scan.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-imports"

#include "config.h"

#include <string.h>

#include "lode-imports-private.h"

/* Imports of the languages liblode has no grammar for, found by small scanners that know
 * the language's comments and strings, so that an import in a comment or a string does not
 * count:
 * - CSS, SCSS, Less: `@import`, `@use`, `@forward` with a string or `url(…)`;
 * - HTML, and Vue and Svelte components (which Lode reads as HTML): `<script src>`,
 *   `<link href>` of stylesheets and preloads, the inline `<script>` blocks through the
 *   JavaScript/TypeScript query with their line offset, `<style>` blocks through the CSS
 *   scanner;
 * - Dart: `import`, `export` and `part` directives (`part of` names the library a part
 *   belongs to, not a dependency), with the URIs of conditional imports.
 * Every scanner reads each byte a bounded number of times. */

typedef struct
{
  const char *text;
  gsize       pos;
  guint       line;
} Lines;

/* 1-based line of @offset; offsets asked for mostly grow, so counting resumes. */
static guint
line_at (Lines *lines,
         gsize  offset)
{
  if (offset < lines->pos)
    {
      lines->pos = 0;
      lines->line = 1;
    }

  for (; lines->pos < offset; lines->pos++)
    if (lines->text[lines->pos] == '\n')
      lines->line++;

  return lines->line;
}

static void
add_import (GPtrArray      *imports,
            const char     *text,
            gsize           len,
            LodeImportKind  kind,
            guint           line)
{
  g_autofree char *specifier = _lode_imports_clean_specifier (text, len);

  if (specifier != NULL)
    g_ptr_array_add (imports, lode_import_new (specifier, NULL, kind, line));
}

static gboolean
has_prefix_nocase (const char *p,
                   const char *end,
                   const char *prefix)
{
  gsize n = strlen (prefix);

  return (gsize) (end - p) >= n && g_ascii_strncasecmp (p, prefix, n) == 0;
}

static const char *
find_nocase (const char *p,
             const char *end,
             const char *needle)
{
  for (; p < end; p++)
    if (has_prefix_nocase (p, end, needle))
      return p;

  return end;
}

/* Past a quoted string starting at @p; strings do not span lines in CSS. */
static const char *
skip_css_string (const char *p,
                 const char *end)
{
  char quote = *p++;

  while (p < end && *p != quote && *p != '\n')
    p += (*p == '\\' && p + 1 < end) ? 2 : 1;

  return p < end ? p + 1 : end;
}

static const char *
skip_css_blanks (const char *p,
                 const char *end)
{
  for (;;)
    {
      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p + 1 < end && p[0] == '/' && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, end - p - 2, "*/");

          p = close != NULL ? close + 2 : end;
        }
      else
        return p;
    }
}

/* The arguments of `@import` and friends: strings or `url(…)`, separated by commas; Less
 * options in parentheses first. Returns where scanning goes on. */
static const char *
scan_css_at_rule (const char *p,
                  const char *end,
                  Lines      *lines,
                  guint       line_offset,
                  GPtrArray  *imports)
{
  for (;;)
    {
      const char *start;

      p = skip_css_blanks (p, end);
      if (p < end && *p == '(')
        {
          const char *close = memchr (p, ')', end - p);

          p = skip_css_blanks (close != NULL ? close + 1 : end, end);
        }

      if (p < end && (*p == '"' || *p == '\''))
        {
          start = p;
          p = skip_css_string (p, end);
          add_import (imports, start, p - start, LODE_IMPORT_STYLESHEET,
                      line_at (lines, start - lines->text) + line_offset);
        }
      else if (has_prefix_nocase (p, end, "url("))
        {
          const char *close;

          start = p + 4;
          close = memchr (start, ')', end - start);
          if (close == NULL)
            return end;
          add_import (imports, start, close - start, LODE_IMPORT_STYLESHEET,
                      line_at (lines, start - lines->text) + line_offset);
          p = close + 1;
        }
      else
        return p;

      p = skip_css_blanks (p, end);
      if (p >= end || *p != ',')
        return p;
      p++;
    }
}

static void
scan_css (const char *text,
          gsize       len,
          guint       line_offset,
          GPtrArray  *imports)
{
  const char *end = text + len;
  const char *p = text;
  Lines lines = { text, 0, 1 };

  while (p < end)
    {
      if (p + 1 < end && p[0] == '/' && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, end - p - 2, "*/");

          p = close != NULL ? close + 2 : end;
        }
      else if (p + 1 < end && p[0] == '/' && p[1] == '/' &&
               (p == text || g_ascii_isspace (p[-1]) || strchr (";{}", p[-1]) != NULL))
        {
          /* SCSS and Less line comments; `//` inside `url(http://…)` follows a colon. */
          const char *eol = memchr (p, '\n', end - p);

          p = eol != NULL ? eol : end;
        }
      else if (*p == '"' || *p == '\'')
        p = skip_css_string (p, end);
      else if (*p == '@')
        {
          const char *word = ++p;

          while (p < end && (g_ascii_isalnum (*p) || *p == '-' || *p == '_'))
            p++;
          if ((p - word == 6 && g_ascii_strncasecmp (word, "import", 6) == 0) ||
              (p - word == 3 && g_ascii_strncasecmp (word, "use", 3) == 0) ||
              (p - word == 7 && g_ascii_strncasecmp (word, "forward", 7) == 0))
            p = scan_css_at_rule (p, end, &lines, line_offset, imports);
        }
      else
        p++;
    }
}

typedef struct
{
  char       *name;
  const char *value;
  gsize       value_len;
  gsize       value_offset;
} Attribute;

static void
attribute_clear (Attribute *attribute)
{
  g_free (attribute->name);
}

/* Reads the attributes of a start tag from @p (just past its name) to its `>`. */
static const char *
read_attributes (const char *p,
                 const char *end,
                 const char *text,
                 GArray     *attributes)
{
  g_array_set_size (attributes, 0);

  while (p < end)
    {
      Attribute attribute = { 0 };
      const char *name;

      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p >= end)
        return end;
      if (*p == '>')
        return p + 1;
      if (*p == '/')
        {
          p++;
          continue;
        }

      name = p;
      while (p < end && !g_ascii_isspace (*p) && *p != '=' && *p != '>' && *p != '/')
        p++;
      if (p == name)
        {
          p++;
          continue;
        }
      attribute.name = g_ascii_strdown (name, p - name);

      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p < end && *p == '=')
        {
          p++;
          while (p < end && g_ascii_isspace (*p))
            p++;
          if (p < end && (*p == '"' || *p == '\''))
            {
              const char *close = memchr (p + 1, *p, end - p - 1);

              attribute.value = p + 1;
              attribute.value_len = (close != NULL ? close : end) - attribute.value;
              p = close != NULL ? close + 1 : end;
            }
          else
            {
              attribute.value = p;
              while (p < end && !g_ascii_isspace (*p) && *p != '>')
                p++;
              attribute.value_len = p - attribute.value;
            }
          attribute.value_offset = attribute.value - text;
        }

      g_array_append_val (attributes, attribute);
    }

  return end;
}

static const Attribute *
find_attribute (GArray     *attributes,
                const char *name)
{
  for (guint i = 0; i < attributes->len; i++)
    {
      const Attribute *attribute = &g_array_index (attributes, Attribute, i);

      if (strcmp (attribute->name, name) == 0)
        return attribute;
    }

  return NULL;
}

static gboolean
attribute_is (const Attribute *attribute,
              const char      *value)
{
  return attribute != NULL && attribute->value != NULL &&
         attribute->value_len == strlen (value) &&
         g_ascii_strncasecmp (attribute->value, value, attribute->value_len) == 0;
}

static gboolean
attribute_has_word (const Attribute *attribute,
                    const char      *word)
{
  g_autofree char *value = NULL;
  g_auto(GStrv) words = NULL;

  if (attribute == NULL || attribute->value == NULL)
    return FALSE;

  value = g_ascii_strdown (attribute->value, attribute->value_len);
  words = g_strsplit_set (value, " \t\r\n", -1);
  return g_strv_contains ((const char * const *) words, word);
}

/* The language of an inline script block, or NULL for data and templates (JSON, import
 * maps, `text/x-template`). */
static const LodeLanguage *
script_language (GArray *attributes)
{
  const Attribute *lang = find_attribute (attributes, "lang");
  const Attribute *type = find_attribute (attributes, "type");

  if (attribute_is (lang, "ts") || attribute_is (lang, "typescript") ||
      attribute_is (type, "text/typescript") || attribute_is (type, "application/typescript"))
    return lode_language_lookup ("typescript");
  if (attribute_is (lang, "tsx"))
    return lode_language_lookup ("tsx");
  if (lang != NULL && !attribute_is (lang, "js") && !attribute_is (lang, "jsx") &&
      !attribute_is (lang, "javascript"))
    return NULL;

  if (type == NULL || type->value == NULL || attribute_is (type, "module") ||
      attribute_is (type, "text/javascript") || attribute_is (type, "application/javascript") ||
      attribute_is (type, "text/babel") || attribute_is (type, "text/jsx"))
    return lode_language_lookup ("javascript");

  return NULL;
}

static void
add_attribute_import (GPtrArray       *imports,
                      const Attribute *attribute,
                      Lines           *lines)
{
  static const char * const template_marks[] = { "{{", "{%", "<?", "${" };

  if (attribute == NULL || attribute->value == NULL || attribute->value_len == 0)
    return;

  /* Values computed by a template engine or a component framework name no file. */
  if (attribute->value[0] == '{')
    return;
  for (guint i = 0; i < G_N_ELEMENTS (template_marks); i++)
    if (g_strstr_len (attribute->value, attribute->value_len, template_marks[i]) != NULL)
      return;

  add_import (imports, attribute->value, attribute->value_len, LODE_IMPORT_RELATIVE,
              line_at (lines, attribute->value_offset));
}

static void
scan_html (const char           *text,
           gsize                 len,
           GPtrArray            *imports,
           LodeImportsBlockFunc  block,
           gpointer              block_data)
{
  g_autoptr(GArray) attributes = g_array_new (FALSE, TRUE, sizeof (Attribute));
  const char *end = text + len;
  const char *p = text;
  Lines lines = { text, 0, 1 };

  g_array_set_clear_func (attributes, (GDestroyNotify) attribute_clear);

  while (p < end)
    {
      const char *name;
      gsize name_len;

      if (has_prefix_nocase (p, end, "<!--"))
        {
          const char *close = g_strstr_len (p + 4, end - p - 4, "-->");

          p = close != NULL ? close + 3 : end;
          continue;
        }
      if (*p != '<' || p + 1 >= end || !g_ascii_isalpha (p[1]))
        {
          p++;
          continue;
        }

      name = ++p;
      while (p < end && (g_ascii_isalnum (*p) || *p == '-' || *p == ':'))
        p++;
      name_len = p - name;
      p = read_attributes (p, end, text, attributes);

      if (name_len == 6 && g_ascii_strncasecmp (name, "script", 6) == 0)
        {
          const Attribute *src = find_attribute (attributes, "src");
          const char *close = find_nocase (p, end, "</script");
          const LodeLanguage *language = script_language (attributes);

          if (src != NULL)
            add_attribute_import (imports, src, &lines);
          else if (language != NULL && close > p)
            {
              /* The block's first line is the line of its start tag's `>`. */
              guint first_line = line_at (&lines, p - text);

              block (language, p, close - p, first_line - 1, imports, block_data);
            }
          p = close;
        }
      else if (name_len == 5 && g_ascii_strncasecmp (name, "style", 5) == 0)
        {
          const char *close = find_nocase (p, end, "</style");

          scan_css (p, close - p, line_at (&lines, p - text) - 1, imports);
          p = close;
        }
      else if (name_len == 4 && g_ascii_strncasecmp (name, "link", 4) == 0)
        {
          const Attribute *rel = find_attribute (attributes, "rel");

          if (attribute_has_word (rel, "stylesheet") || attribute_has_word (rel, "modulepreload") ||
              attribute_has_word (rel, "preload") || attribute_has_word (rel, "import"))
            add_attribute_import (imports, find_attribute (attributes, "href"), &lines);
        }
    }
}

/* Past a Dart string literal at @p (`'…'`, `"…"`, triple-quoted, raw `r'…'`). */
static const char *
skip_dart_string (const char *p,
                  const char *end)
{
  gboolean raw = FALSE;
  char quote;

  if (*p == 'r')
    {
      raw = TRUE;
      p++;
    }
  quote = *p;

  if (end - p >= 3 && p[1] == quote && p[2] == quote)
    {
      const char delim[4] = { quote, quote, quote, '\0' };
      const char *close = g_strstr_len (p + 3, end - p - 3, delim);

      return close != NULL ? close + 3 : end;
    }

  p++;
  while (p < end && *p != quote && *p != '\n')
    p += (!raw && *p == '\\' && p + 1 < end) ? 2 : 1;

  return p < end ? p + 1 : end;
}

static const char *
skip_dart_blanks (const char *p,
                  const char *end)
{
  for (;;)
    {
      while (p < end && g_ascii_isspace (*p))
        p++;
      if (p + 1 < end && p[0] == '/' && p[1] == '/')
        {
          const char *eol = memchr (p, '\n', end - p);

          p = eol != NULL ? eol : end;
        }
      else if (p + 1 < end && p[0] == '/' && p[1] == '*')
        {
          /* Dart block comments nest. */
          guint depth = 0;

          do
            {
              if (p + 1 < end && p[0] == '/' && p[1] == '*')
                depth++, p += 2;
              else if (p + 1 < end && p[0] == '*' && p[1] == '/')
                depth--, p += 2;
              else
                p++;
            }
          while (p < end && depth > 0);
        }
      else
        return p;
    }
}

static gboolean
is_dart_string_start (const char *p,
                      const char *end)
{
  return p < end && (*p == '\'' || *p == '"' ||
                     (*p == 'r' && p + 1 < end && (p[1] == '\'' || p[1] == '"')));
}

static void
scan_dart (const char *text,
           gsize       len,
           GPtrArray  *imports)
{
  const char *end = text + len;
  const char *p = text;
  gboolean statement_start = TRUE;
  Lines lines = { text, 0, 1 };

  for (;;)
    {
      const char *word;
      LodeImportKind kind;

      p = skip_dart_blanks (p, end);
      if (p >= end)
        return;

      if (is_dart_string_start (p, end))
        {
          p = skip_dart_string (p, end);
          statement_start = FALSE;
          continue;
        }
      if (!g_ascii_isalpha (*p) && *p != '_' && *p != '$')
        {
          statement_start = *p == ';' || *p == '}' || *p == '{';
          p++;
          continue;
        }

      word = p;
      while (p < end && (g_ascii_isalnum (*p) || *p == '_' || *p == '$'))
        p++;

      if (!statement_start)
        continue;
      statement_start = FALSE;

      if (p - word == 6 && memcmp (word, "import", 6) == 0)
        kind = LODE_IMPORT_MODULE;
      else if (p - word == 6 && memcmp (word, "export", 6) == 0)
        kind = LODE_IMPORT_REEXPORT;
      else if (p - word == 4 && memcmp (word, "part", 4) == 0)
        kind = LODE_IMPORT_SOURCE;
      else
        continue;

      p = skip_dart_blanks (p, end);
      if (!is_dart_string_start (p, end))
        continue;

      /* Every string of the directive outside parentheses is a URI: the import and the
       * alternatives of a conditional import. */
      {
        guint depth = 0;

        while (p < end && *p != ';')
          {
            if (is_dart_string_start (p, end))
              {
                const char *start = p;

                p = skip_dart_string (p, end);
                if (depth == 0)
                  add_import (imports, start + (*start == 'r'), p - start - (*start == 'r'), kind,
                              line_at (&lines, start - text));
              }
            else
              {
                if (*p == '(')
                  depth++;
                else if (*p == ')' && depth > 0)
                  depth--;
                p++;
              }
            p = skip_dart_blanks (p, end);
          }
      }
    }
}

void
_lode_imports_scan (const LodeLanguage     *language,
                    const char             *text,
                    gsize                   len,
                    GPtrArray              *imports,
                    LodeImportsBlockFunc    block,
                    gpointer                block_data)
{
  if (strcmp (language->id, "css") == 0)
    scan_css (text, len, 0, imports);
  else if (strcmp (language->id, "html") == 0)
    scan_html (text, len, imports, block, block_data);
  else if (strcmp (language->id, "dart") == 0)
    scan_dart (text, len, imports);
  else
    g_assert_not_reached ();
}
