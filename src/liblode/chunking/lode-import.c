/* lode-import.c — one import: its value type and the clean-up of its specifier
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-imports"

#include "config.h"

#include <string.h>

#include "lode-imports.h"
#include "lode-imports-private.h"

#define MAX_SPECIFIER_LEN 1024

static const char * const kind_names[] = {
  [LODE_IMPORT_MODULE] = "module",
  [LODE_IMPORT_RELATIVE] = "relative",
  [LODE_IMPORT_INCLUDE_LOCAL] = "include-local",
  [LODE_IMPORT_INCLUDE_SYSTEM] = "include-system",
  [LODE_IMPORT_SIDE_EFFECT] = "side-effect",
  [LODE_IMPORT_DYNAMIC] = "dynamic",
  [LODE_IMPORT_REEXPORT] = "re-export",
  [LODE_IMPORT_SOURCE] = "source",
  [LODE_IMPORT_STYLESHEET] = "stylesheet",
};

LodeImport *
lode_import_new (const char     *specifier,
                 const char     *name,
                 LodeImportKind  kind,
                 guint           line)
{
  LodeImport *import;

  g_return_val_if_fail (specifier != NULL, NULL);

  import = g_new0 (LodeImport, 1);
  import->specifier = g_strdup (specifier);
  import->name = g_strdup (name);
  import->kind = kind;
  import->line = line;

  return import;
}

LodeImport *
lode_import_copy (const LodeImport *import)
{
  g_return_val_if_fail (import != NULL, NULL);

  return lode_import_new (import->specifier, import->name, import->kind, import->line);
}

void
lode_import_free (LodeImport *import)
{
  if (import == NULL)
    return;

  g_free (import->specifier);
  g_free (import->name);
  g_free (import);
}

/**
 * lode_import_kind_to_string:
 * @kind: a #LodeImportKind
 *
 * Returns: (transfer none): a stable name for @kind ("module", "relative", "include-local",
 *   "include-system", "side-effect", "dynamic", "re-export", "source", "stylesheet"), for
 *   storage and output
 */
const char *
lode_import_kind_to_string (LodeImportKind kind)
{
  g_return_val_if_fail ((guint) kind < G_N_ELEMENTS (kind_names), NULL);

  return kind_names[kind];
}

/**
 * lode_import_kind_from_string:
 * @str: a name from lode_import_kind_to_string()
 * @kind: (out): the kind
 *
 * Returns: %TRUE if @str names a kind
 */
gboolean
lode_import_kind_from_string (const char     *str,
                              LodeImportKind *kind)
{
  g_return_val_if_fail (str != NULL, FALSE);
  g_return_val_if_fail (kind != NULL, FALSE);

  for (guint i = 0; i < G_N_ELEMENTS (kind_names); i++)
    if (strcmp (str, kind_names[i]) == 0)
      {
        *kind = (LodeImportKind) i;
        return TRUE;
      }

  return FALSE;
}

/* Strips quotes, string prefixes and brackets from the text of a specifier node, and drops
 * blanks from unquoted (dotted or `::`) names. NULL when nothing usable remains. */
char *
_lode_imports_clean_specifier (const char *text,
                               gsize       len)
{
  const char *start = text;
  const char *end = text + len;
  gboolean quoted = FALSE;
  GString *out;

  while (start < end && g_ascii_isspace (*start))
    start++;
  while (end > start && g_ascii_isspace (end[-1]))
    end--;

  /* r"…", b'…', u"…", f"…", @"…" */
  if (end - start >= 3 && strchr ("rRbBuUfF@", *start) != NULL &&
      (start[1] == '"' || start[1] == '\''))
    start++;

  if (end - start >= 6 && (memcmp (start, "\"\"\"", 3) == 0 || memcmp (start, "'''", 3) == 0) &&
      memcmp (end - 3, start, 3) == 0)
    {
      start += 3;
      end -= 3;
      quoted = TRUE;
    }
  else if (end - start >= 2 && (*start == '"' || *start == '\'' || *start == '`') &&
           end[-1] == *start)
    {
      /* A template string with substitutions names no file in particular. */
      if (*start == '`' && g_strstr_len (start, end - start, "${") != NULL)
        return NULL;
      start++;
      end--;
      quoted = TRUE;
    }
  else if (end - start >= 2 && *start == '<' && end[-1] == '>')
    {
      start++;
      end--;
      quoted = TRUE;
    }
  else if (end - start >= 4 && start[0] == '[' && (start[1] == '[' || start[1] == '='))
    {
      /* Lua long strings: [[…]], [=[…]=] */
      const char *open = start + 1;
      gsize level = 0;

      while (open < end && *open == '=')
        open++, level++;
      if (open < end && *open == '[' && (gsize) (end - open) > level + 2)
        {
          start = open + 1;
          end -= level + 2;
          quoted = TRUE;
        }
    }

  if (start >= end || (gsize) (end - start) > MAX_SPECIFIER_LEN)
    return NULL;
  if (memchr (start, '\n', end - start) != NULL && quoted)
    return NULL;
  if (memchr (start, '\0', end - start) != NULL)
    return NULL;

  out = g_string_sized_new (end - start);
  for (const char *p = start; p < end; p++)
    if (quoted || !g_ascii_isspace (*p))
      g_string_append_c (out, *p);

  if (out->len == 0)
    {
      g_string_free (out, TRUE);
      return NULL;
    }

  if (!g_utf8_validate (out->str, out->len, NULL))
    {
      char *valid = g_utf8_make_valid (out->str, out->len);

      g_string_free (out, TRUE);
      return valid;
    }

  return g_string_free (out, FALSE);
}
