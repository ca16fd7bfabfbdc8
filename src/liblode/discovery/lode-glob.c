/* lode-glob.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-glob"

#include "config.h"

#include <string.h>

#include "lode-glob.h"

/* Our own matcher with git's wildmatch semantics (git's wildmatch.c is GPL-2.0-only, so none of
 * it is used here).
 *
 * It never recurses. A `*` matches inside one path component when LODE_GLOB_PATHNAME is set,
 * so only the latest `*` needs a restart point: every earlier `*` is either in the same
 * component (and the latest one can absorb whatever it would have taken) or before a literal
 * '/' that has already pinned the alignment. Likewise only the latest `**` component needs a
 * restart point: it sits at a component start and can swallow any run of whole directories an
 * earlier one could have. The work is therefore bounded by O(pattern × text) per `**` restart,
 * whatever the number of stars. */

typedef enum
{
  CLASS_NO_MATCH,
  CLASS_MATCH,
  CLASS_MALFORMED,
} ClassResult;

static inline guchar
fold (guchar     c,
      gboolean   casefold)
{
  return casefold ? g_ascii_tolower (c) : c;
}

static gboolean
posix_class_matches (const char *name,
                     gsize       len,
                     guchar      c,
                     gboolean   *known)
{
  *known = TRUE;

#define IS(str) (len == sizeof (str) - 1 && memcmp (name, str, len) == 0)
  if (IS ("alnum"))
    return g_ascii_isalnum (c);
  if (IS ("alpha"))
    return g_ascii_isalpha (c);
  if (IS ("blank"))
    return c == ' ' || c == '\t';
  if (IS ("cntrl"))
    return g_ascii_iscntrl (c);
  if (IS ("digit"))
    return g_ascii_isdigit (c);
  if (IS ("graph"))
    return g_ascii_isgraph (c);
  if (IS ("lower"))
    return g_ascii_islower (c);
  if (IS ("print"))
    return g_ascii_isprint (c);
  if (IS ("punct"))
    return g_ascii_ispunct (c);
  if (IS ("space"))
    return g_ascii_isspace (c);
  if (IS ("upper"))
    return g_ascii_isupper (c);
  if (IS ("xdigit"))
    return g_ascii_isxdigit (c);
#undef IS

  *known = FALSE;
  return FALSE;
}

/* Matches the bracket expression starting at @p (just after '[') against @c and stores the
 * position after the closing ']' in @end. A bracket without its ']' is malformed: like git, the
 * whole pattern then matches nothing. */
static ClassResult
match_class (const char  *p,
             guchar       c,
             gboolean     casefold,
             const char **end)
{
  gboolean negated = FALSE;
  gboolean matched = FALSE;
  gboolean first = TRUE;
  guchar lc = fold (c, casefold);
  guchar uc = casefold ? g_ascii_toupper (c) : c;

  if (*p == '!' || *p == '^')
    {
      negated = TRUE;
      p++;
    }

  for (;; first = FALSE)
    {
      guchar lo;
      guchar hi;

      if (*p == '\0')
        return CLASS_MALFORMED;
      if (*p == ']' && !first)
        {
          p++;
          break;
        }

      if (p[0] == '[' && p[1] == ':')
        {
          const char *name = p + 2;
          const char *close = strstr (name, ":]");

          if (close != NULL)
            {
              gboolean known;
              gboolean hit = posix_class_matches (name, close - name, c, &known);

              if (!known)
                return CLASS_MALFORMED;
              /* A case-insensitive [:upper:] also takes lower-case letters, as in git. */
              if (hit || (casefold && (posix_class_matches (name, close - name, lc, &known) ||
                                       posix_class_matches (name, close - name, uc, &known))))
                matched = TRUE;
              p = close + 2;
              continue;
            }
        }

      if (*p == '\\')
        {
          p++;
          if (*p == '\0')
            return CLASS_MALFORMED;
        }
      lo = (guchar) *p++;
      hi = lo;

      if (p[0] == '-' && p[1] != ']' && p[1] != '\0')
        {
          p++;
          if (*p == '\\')
            {
              p++;
              if (*p == '\0')
                return CLASS_MALFORMED;
            }
          hi = (guchar) *p++;
        }

      if ((c >= lo && c <= hi) || (lc >= lo && lc <= hi) || (uc >= lo && uc <= hi))
        matched = TRUE;
    }

  *end = p;
  return matched != negated ? CLASS_MATCH : CLASS_NO_MATCH;
}

/**
 * lode_glob_match:
 * @pattern: a glob pattern
 * @text: the string to match
 * @flags: #LodeGlobFlags
 *
 * Matches @text against @pattern with git's wildmatch rules: `*` matches any run of
 * characters, `?` one character, `[abc]`, `[a-z]`, `[!x]` / `[^x]` and `[[:alpha:]]` a set,
 * and `\` quotes the next character. With %LODE_GLOB_PATHNAME none of these match '/', and
 * `**` as a whole path component (at the start, between two slashes or after the last slash)
 * matches any number of directories, including none; elsewhere `**` is a plain `*`.
 * %LODE_GLOB_CASEFOLD compares ASCII letters case-insensitively. A pattern with an
 * unterminated `[` or a trailing `\` matches nothing.
 *
 * Returns: whether @text matches @pattern
 */
gboolean
lode_glob_match (const char    *pattern,
                 const char    *text,
                 LodeGlobFlags  flags)
{
  const gboolean pathname = (flags & LODE_GLOB_PATHNAME) != 0;
  const gboolean casefold = (flags & LODE_GLOB_CASEFOLD) != 0;
  const char *p = pattern;
  const char *t = text;
  const char *star_p = NULL;
  const char *star_t = NULL;
  const char *dstar_p = NULL;
  const char *dstar_t = NULL;

  g_return_val_if_fail (pattern != NULL, FALSE);
  g_return_val_if_fail (text != NULL, FALSE);

  for (;;)
    {
      if (*p == '\0')
        {
          if (*t == '\0')
            return TRUE;
          goto backtrack;
        }

      if (*p == '*')
        {
          const char *run = p;

          while (*p == '*')
            p++;

          /* A run of two or more stars is special only as a whole component, and only when
           * matching paths. */
          if (pathname && p - run >= 2 && (run == pattern || run[-1] == '/') &&
              (*p == '/' || *p == '\0'))
            {
              if (*p == '\0')
                return TRUE;
              p++;
              dstar_p = p;
              dstar_t = t;
              star_p = NULL;
              continue;
            }

          /* A trailing `*` takes the rest of the text, unless that crosses a '/'. */
          if (*p == '\0' && (!pathname || strchr (t, '/') == NULL))
            return TRUE;
          star_p = p;
          star_t = t;
          continue;
        }

      if (*t == '\0')
        goto backtrack;

      switch (*p)
        {
        case '?':
          if (pathname && *t == '/')
            goto backtrack;
          p++;
          t++;
          continue;

        case '[':
          {
            const char *end = NULL;
            ClassResult res;

            if (pathname && *t == '/')
              goto backtrack;
            res = match_class (p + 1, (guchar) *t, casefold, &end);
            if (res == CLASS_MALFORMED)
              return FALSE;
            if (res == CLASS_NO_MATCH)
              goto backtrack;
            p = end;
            t++;
            continue;
          }

        case '\\':
          if (p[1] == '\0')
            return FALSE;
          p++;
          G_GNUC_FALLTHROUGH;

        default:
          if (fold ((guchar) *p, casefold) != fold ((guchar) *t, casefold))
            goto backtrack;
          /* Once a literal '/' is matched, an earlier single `*` can no longer move: it would
           * have to cross this '/'. */
          if (pathname && *t == '/')
            star_p = NULL;
          p++;
          t++;
          continue;
        }

    backtrack:
      if (star_p != NULL && *star_t != '\0' && !(pathname && *star_t == '/'))
        {
          star_t++;
          p = star_p;
          t = star_t;
          continue;
        }
      if (dstar_p != NULL)
        {
          const char *slash = strchr (dstar_t, '/');

          if (slash == NULL)
            return FALSE;
          dstar_t = slash + 1;
          p = dstar_p;
          t = dstar_t;
          star_p = NULL;
          continue;
        }
      return FALSE;
    }
}

/**
 * lode_glob_match_path:
 * @pattern: a path glob as a user types it, e.g. `*.c`, `src/cli/` or `src/x*.c`
 * @path: a '/'-separated path relative to the project root
 *
 * The path filter of searches. A pattern without a '/' (ignoring a trailing one) matches any
 * component of @path, so `*.c` matches C files at any depth and `tests` everything below any
 * `tests` directory. Otherwise the pattern is anchored at the root and matches @path or one of
 * its leading directories, so `src/cli` and `src/cli/` select everything below `src/cli`; a
 * `**` component spans any number of directories, as in lode_glob_match(). A leading `/` or
 * `./` is dropped. An empty pattern matches every path.
 *
 * Returns: whether @path is selected by @pattern
 */
gboolean
lode_glob_match_path (const char *pattern,
                      const char *path)
{
  g_autofree char *pat = NULL;
  g_autofree char *buf = NULL;
  gsize len;
  gboolean anchored;
  char *start;

  g_return_val_if_fail (pattern != NULL, FALSE);
  g_return_val_if_fail (path != NULL, FALSE);

  while (g_str_has_prefix (pattern, "./"))
    pattern += 2;
  while (*pattern == '/')
    pattern++;

  len = strlen (pattern);
  while (len > 0 && pattern[len - 1] == '/' && !(len > 1 && pattern[len - 2] == '\\'))
    len--;
  if (len == 0)
    return TRUE;

  pat = g_strndup (pattern, len);
  anchored = strchr (pat, '/') != NULL;

  /* Try @path's leading directories (or, unanchored, its components) one by one, then the
   * whole path. */
  buf = g_strdup (path);
  start = buf;
  for (char *s = buf; ; s++)
    {
      if (*s == '/' || *s == '\0')
        {
          gboolean last = *s == '\0';

          *s = '\0';
          if (lode_glob_match (pat, anchored ? buf : start, LODE_GLOB_PATHNAME))
            return TRUE;
          if (last)
            break;
          *s = '/';
          start = s + 1;
        }
    }

  return FALSE;
}
