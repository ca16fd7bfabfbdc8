/* lode-import-declarations.c — the package or namespace a JVM, C# or PHP file declares
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-import-resolver"

#include "config.h"

#include <string.h>

#include "lode-import-declarations-private.h"

/* Declarations: the package or namespace a JVM, C# or PHP file declares. */

static gboolean
is_jvm_path (const char *path)
{
  return g_str_has_suffix (path, ".java") || g_str_has_suffix (path, ".kt") ||
         g_str_has_suffix (path, ".kts") || g_str_has_suffix (path, ".scala");
}

gboolean
_lode_import_declares_packages (const char *path)
{
  return is_jvm_path (path) || g_str_has_suffix (path, ".cs") || g_str_has_suffix (path, ".php");
}

/* Past blanks and comments (C-style, which all these languages share). */
static const char *
skip_blanks (const char *p,
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
          const char *close = g_strstr_len (p + 2, end - p - 2, "*/");

          p = close != NULL ? close + 2 : end;
        }
      else if (p < end && *p == '#' && p + 1 < end && p[1] != '[')
        {
          /* PHP `#` comments and `#!` lines; `#[…]` is a PHP attribute. */
          const char *eol = memchr (p, '\n', end - p);

          p = eol != NULL ? eol : end;
        }
      else
        return p;
    }
}

static gboolean
word_at (const char *p,
         const char *end,
         const char *word)
{
  gsize n = strlen (word);

  return (gsize) (end - p) > n && memcmp (p, word, n) == 0 &&
         !g_ascii_isalnum (p[n]) && p[n] != '_';
}

/* A dotted (or, for PHP, backslashed) name at @p. */
static char *
read_qualified_name (const char **pp,
                     const char  *end)
{
  const char *p = skip_blanks (*pp, end);
  GString *name = g_string_new (NULL);

  while (p < end && (g_ascii_isalnum (*p) || *p == '_' || *p == '.' || *p == '\\' || *p == '`'))
    {
      if (*p != '`')
        g_string_append_c (name, *p == '\\' ? '.' : *p);
      p++;
    }

  *pp = p;
  if (name->len == 0 || name->str[0] == '.')
    {
      g_string_free (name, TRUE);
      return NULL;
    }
  return g_string_free (name, FALSE);
}

/* Past a string literal opening at @p: C#'s verbatim `@"…"` (where `""` is a quote and a
 * backslash is only a backslash) and raw `"""…"""`, or a quoted string that ends at its
 * quote or at the end of the line. Never returns @p itself. */
static const char *
skip_string (const char *p,
             const char *end,
             gboolean    verbatim)
{
  char quote = *p;

  g_assert (p < end);
  if (quote == '"' && end - p >= 3 && p[1] == '"' && p[2] == '"')
    {
      const char *close = g_strstr_len (p + 3, end - p - 3, "\"\"\"");

      return close != NULL ? close + 3 : end;
    }

  for (p++; p < end; p++)
    {
      if (*p == quote)
        {
          if (verbatim && p + 1 < end && p[1] == quote)
            {
              p++;
              continue;
            }
          return p + 1;
        }
      if (!verbatim && *p == '\n')
        return p + 1;
      if (!verbatim && *p == '\\' && p + 1 < end)
        p++;
    }
  return end;
}

/* Scans the head of a file for `package a.b` (Java, Kotlin; Scala's chained clauses are
 * joined) or `namespace A.B` (C#, with nesting; PHP, with '\' turned into '.').
 *
 * Every pass of the loop consumes at least one byte (`p = MAX (p, start + 1)`), whatever the
 * text holds: regular expressions, attributes, operators and broken literals are stepped over,
 * never stopped at. */
GStrv
_lode_import_parse_declarations (const char *path,
                                 const char *text,
                                 gsize       len)
{
  g_autoptr(GStrvBuilder) builder = g_strv_builder_new ();
  g_autoptr(GPtrArray) stack = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GArray) depths = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *jvm_package = NULL;
  gboolean jvm = is_jvm_path (path);
  const char *end = text + len;
  const char *p = text;
  guint depth = 0;

  while ((p = skip_blanks (p, end)) < end)
    {
      const char *start = p;

      if (*p == '"' || *p == '\'')
        {
          p = skip_string (p, end, FALSE);
        }
      else if (*p == '@' && p + 1 < end && p[1] == '"')
        {
          p = skip_string (p + 1, end, TRUE);
        }
      else if (*p == '{')
        {
          depth++;
          p++;
        }
      else if (*p == '}')
        {
          if (depth > 0)
            depth--;
          while (depths->len > 0 && g_array_index (depths, guint, depths->len - 1) >= depth + 1)
            {
              g_array_set_size (depths, depths->len - 1);
              g_ptr_array_remove_index (stack, stack->len - 1);
            }
          p++;
        }
      else if (jvm && word_at (p, end, "package"))
        {
          g_autofree char *name = NULL;

          p += strlen ("package");
          if (word_at (skip_blanks (p, end), end, "object"))
            p = skip_blanks (p, end) + strlen ("object");
          name = read_qualified_name (&p, end);
          if (name != NULL)
            {
              char *joined = jvm_package != NULL ? g_strconcat (jvm_package, ".", name, NULL)
                                                 : g_strdup (name);

              g_free (jvm_package);
              jvm_package = joined;
            }
        }
      else if (!jvm && word_at (p, end, "namespace"))
        {
          g_autofree char *name = NULL;
          g_autofree char *full = NULL;

          p += strlen ("namespace");
          name = read_qualified_name (&p, end);
          if (name != NULL)
            {
              full = stack->len > 0
                       ? g_strconcat (stack->pdata[stack->len - 1], ".", name, NULL)
                       : g_strdup (name);
              g_strv_builder_add (builder, full);

              p = skip_blanks (p, end);
              if (p < end && *p == '{')
                {
                  guint inner = depth + 1;

                  g_ptr_array_add (stack, g_steal_pointer (&full));
                  g_array_append_val (depths, inner);
                }
            }
        }
      else if (jvm && jvm_package != NULL && (g_ascii_isalpha (*p) || *p == '@') &&
               !word_at (p, end, "import"))
        {
          /* The first declaration after the package clauses: no more packages. */
          break;
        }
      else
        {
          while (p < end && (g_ascii_isalnum (*p) || *p == '_' || *p == '@' || *p == '.'))
            p++;
        }

      p = MAX (p, start + 1);
    }

  if (jvm_package != NULL)
    g_strv_builder_add (builder, jvm_package);

  return g_strv_builder_end (builder);
}
