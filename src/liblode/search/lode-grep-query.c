/* lode-grep-query.c — what a regular expression requires of a text, as a trigram query
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A small reader of PCRE's syntax that only has to be right in one direction: whatever it
 * does not understand requires nothing (LODE_GREP_QUERY_ALL), which costs a wider scan but
 * never a missed line, since GRegex checks every candidate. Each piece of the pattern is
 * either exact (the small set of strings it can match: `ab(c|d)` → {abc, abd}) or a query;
 * a concatenation multiplies exact sets while they stay small, and a set becomes a query as
 * the OR of its strings once it must (each string of three characters or more; a shorter
 * one requires nothing). */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-grep-query.h"

/* Exact sets larger than this become queries: `[ab][cd][ef]…` would otherwise grow as 2^n. */
#define MAX_EXACT 16
/* Nor is an exact string kept longer than this: its trigrams say enough. */
#define MAX_EXACT_LEN 64
/* Nesting deeper than this requires nothing (no input may recurse without bound). */
#define MAX_DEPTH 64

typedef struct
{
  GPtrArray     *exact;  /* (nullable) char*: the strings it matches, or NULL */
  LodeGrepQuery *query;  /* (nullable) when not exact */
  gboolean       repeated; /* exact, and followed by any number of repeats: x+, x{2,} */
} Info;

typedef struct
{
  const char *p;
  const char *end;
  guint       depth;
  gboolean    failed;    /* something not understood: the whole pattern requires nothing */
  guint       min_chars; /* a string shorter than this requires nothing */
} Parser;

void
lode_grep_query_free (LodeGrepQuery *query)
{
  if (query == NULL)
    return;
  g_free (query->literal);
  g_clear_pointer (&query->children, g_ptr_array_unref);
  g_free (query);
}

static LodeGrepQuery *
query_new (LodeGrepQueryKind kind)
{
  LodeGrepQuery *q = g_new0 (LodeGrepQuery, 1);

  q->kind = kind;
  if (kind == LODE_GREP_QUERY_AND || kind == LODE_GREP_QUERY_OR)
    q->children = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_grep_query_free);
  return q;
}

/* a AND b / a OR b, flattened, with ALL absorbed: ALL AND x = x, ALL OR x = ALL. */
static LodeGrepQuery *
query_combine (LodeGrepQueryKind  kind,
               LodeGrepQuery     *a,
               LodeGrepQuery     *b)
{
  LodeGrepQuery *parts[2] = { a, b };
  LodeGrepQuery *q;

  if (a->kind == LODE_GREP_QUERY_ALL || b->kind == LODE_GREP_QUERY_ALL)
    {
      LodeGrepQuery *all = a->kind == LODE_GREP_QUERY_ALL ? a : b;
      LodeGrepQuery *other = all == a ? b : a;

      if (kind == LODE_GREP_QUERY_OR)
        {
          lode_grep_query_free (other);
          return all;
        }
      lode_grep_query_free (all);
      return other;
    }

  q = query_new (kind);
  for (guint i = 0; i < 2; i++)
    {
      if (parts[i]->kind == kind)
        {
          for (guint j = 0; j < parts[i]->children->len; j++)
            g_ptr_array_add (q->children, g_steal_pointer (&parts[i]->children->pdata[j]));
          g_ptr_array_set_free_func (parts[i]->children, NULL);
          lode_grep_query_free (parts[i]);
        }
      else
        g_ptr_array_add (q->children, parts[i]);
    }
  return q;
}

static Info
info_exact (const char *s,
            gssize      len)
{
  Info info = { g_ptr_array_new_with_free_func (g_free), NULL, FALSE };

  g_ptr_array_add (info.exact, len < 0 ? g_strdup (s) : g_strndup (s, len));
  return info;
}

static Info
info_empty (void)
{
  return info_exact ("", 0);
}

static Info
info_all (void)
{
  Info info = { NULL, query_new (LODE_GREP_QUERY_ALL), FALSE };

  return info;
}

static void
info_clear (Info *info)
{
  g_clear_pointer (&info->exact, g_ptr_array_unref);
  g_clear_pointer (&info->query, lode_grep_query_free);
}

/* The query an exact set stands for: the OR of its strings, or ALL when one is shorter
 * than @ps wants (a trigram, for the index). */
static LodeGrepQuery *
exact_to_query (const Parser *ps,
                GPtrArray    *exact)
{
  LodeGrepQuery *q = NULL;

  for (guint i = 0; i < exact->len; i++)
    if (g_utf8_strlen (exact->pdata[i], -1) < ps->min_chars)
      return query_new (LODE_GREP_QUERY_ALL);

  for (guint i = 0; i < exact->len; i++)
    {
      LodeGrepQuery *lit = query_new (LODE_GREP_QUERY_LITERAL);

      lit->literal = g_strdup (exact->pdata[i]);
      q = q == NULL ? lit : query_combine (LODE_GREP_QUERY_OR, q, lit);
    }
  return q != NULL ? q : query_new (LODE_GREP_QUERY_ALL);
}

static LodeGrepQuery *
info_steal_query (const Parser *ps,
                  Info         *info)
{
  LodeGrepQuery *q;

  if (info->exact != NULL)
    q = exact_to_query (ps, info->exact);
  else
    q = g_steal_pointer (&info->query);
  info_clear (info);
  return q;
}

static Info
info_from_query (LodeGrepQuery *q)
{
  Info info = { NULL, q, FALSE };

  return info;
}

/* The product of two exact sets, or NULL when it would grow too large. */
static GPtrArray *
exact_product (GPtrArray *a,
               GPtrArray *b)
{
  GPtrArray *product;

  if (a->len * b->len > MAX_EXACT)
    return NULL;
  product = g_ptr_array_new_with_free_func (g_free);
  for (guint i = 0; i < a->len; i++)
    for (guint j = 0; j < b->len; j++)
      {
        char *s = g_strconcat (a->pdata[i], b->pdata[j], NULL);

        if (strlen (s) > MAX_EXACT_LEN)
          {
            g_free (s);
            g_ptr_array_unref (product);
            return NULL;
          }
        g_ptr_array_add (product, s);
      }
  return product;
}

static LodeGrepQuery *
query_and (LodeGrepQuery *a,
           LodeGrepQuery *b)
{
  if (a == NULL)
    return b;
  return query_combine (LODE_GREP_QUERY_AND, a, b);
}

static Info
info_alternate (const Parser *ps,
                Info          a,
                Info          b)
{
  if (a.exact != NULL && b.exact != NULL && a.exact->len + b.exact->len <= MAX_EXACT)
    {
      for (guint i = 0; i < b.exact->len; i++)
        g_ptr_array_add (a.exact, g_steal_pointer (&b.exact->pdata[i]));
      info_clear (&b);
      return a;
    }

  return info_from_query (query_combine (LODE_GREP_QUERY_OR, info_steal_query (ps, &a),
                                         info_steal_query (ps, &b)));
}

/* x? matches what x does or nothing. */
static Info
info_optional (Info a)
{
  if (a.exact != NULL && a.exact->len < MAX_EXACT)
    {
      g_ptr_array_add (a.exact, g_strdup (""));
      return a;
    }
  info_clear (&a);
  return info_all ();
}

static Info parse_alternation (Parser *ps);

static gboolean
at_end (Parser *ps)
{
  return ps->p >= ps->end;
}

/* After `{`: a quantifier {n}, {n,}, {n,m} (PCRE reads anything else as the literal `{`). */
static gboolean
parse_braces (Parser *ps,
              guint  *min)
{
  const char *p = ps->p + 1;
  guint n = 0;
  gboolean digits = FALSE;

  while (p < ps->end && g_ascii_isdigit (*p))
    {
      n = MIN (n * 10 + (guint) (*p - '0'), 100000u);
      digits = TRUE;
      p++;
    }
  if (!digits)
    return FALSE;
  if (p < ps->end && *p == ',')
    {
      p++;
      while (p < ps->end && g_ascii_isdigit (*p))
        p++;
    }
  if (p >= ps->end || *p != '}')
    return FALSE;
  ps->p = p + 1;
  *min = n;
  return TRUE;
}

/* A character class `[…]`: small sets of plain characters stay exact (`[aA]`, `[-_]`);
 * ranges, negations and named classes require nothing. */
static Info
parse_class (Parser *ps)
{
  g_autoptr(GPtrArray) chars = g_ptr_array_new_with_free_func (g_free);
  gboolean plain = TRUE;
  const char *start;

  ps->p++;
  if (!at_end (ps) && *ps->p == '^')
    {
      plain = FALSE;
      ps->p++;
    }
  start = ps->p;
  while (!at_end (ps) && (*ps->p != ']' || ps->p == start))
    {
      if (*ps->p == '\\')
        {
          ps->p++;
          if (at_end (ps))
            break;
          if (g_ascii_isalnum (*ps->p))
            plain = FALSE;
          else
            g_ptr_array_add (chars, g_strndup (ps->p, 1));
          ps->p = g_utf8_next_char (ps->p);
          continue;
        }
      if (*ps->p == '[' && ps->p + 1 < ps->end && ps->p[1] == ':')
        {
          const char *close = g_strstr_len (ps->p, ps->end - ps->p, ":]");

          plain = FALSE;
          ps->p = close != NULL ? close + 2 : ps->end;
          continue;
        }
      if (*ps->p == '-' && ps->p != start && ps->p + 1 < ps->end && ps->p[1] != ']')
        plain = FALSE;
      g_ptr_array_add (chars, g_strndup (ps->p, g_utf8_next_char (ps->p) - ps->p));
      ps->p = g_utf8_next_char (ps->p);
    }
  if (at_end (ps))
    {
      ps->failed = TRUE;
      return info_all ();
    }
  ps->p++;

  if (!plain || chars->len == 0 || chars->len > 4)
    return info_all ();
  {
    Info info = { g_ptr_array_new_with_free_func (g_free), NULL, FALSE };

    for (guint i = 0; i < chars->len; i++)
      {
        if (!g_ptr_array_find_with_equal_func (info.exact, chars->pdata[i], g_str_equal, NULL))
          g_ptr_array_add (info.exact, g_strdup (chars->pdata[i]));
      }
    return info;
  }
}

/* After `\`: a literal character, an anchor (matches nothing), or a class (requires
 * nothing). */
static Info
parse_escape (Parser *ps)
{
  char c;

  ps->p++;
  if (at_end (ps))
    {
      ps->failed = TRUE;
      return info_all ();
    }
  c = *ps->p;
  if (c == 'Q')
    {
      const char *start = ps->p + 1;
      const char *stop = g_strstr_len (start, ps->end - start, "\\E");

      ps->p = stop != NULL ? stop + 2 : ps->end;
      return info_exact (start, (stop != NULL ? stop : ps->end) - start);
    }
  if (strchr ("bBAzZGK", c) != NULL)
    {
      ps->p++;
      return info_empty ();
    }
  if (c == 't' || c == 'f' || c == 'e' || c == 'a')
    {
      const char *lit = c == 't' ? "\t" : c == 'f' ? "\f" : c == 'e' ? "\033" : "\a";

      ps->p++;
      return info_exact (lit, 1);
    }
  if (c == 'x')
    {
      gunichar u = 0;
      char buf[8];
      gint len;

      ps->p++;
      if (!at_end (ps) && *ps->p == '{')
        {
          ps->p++;
          for (; !at_end (ps) && g_ascii_isxdigit (*ps->p); ps->p++)
            u = MIN (u * 16 + (gunichar) g_ascii_xdigit_value (*ps->p), 0x110000u);
          if (at_end (ps) || *ps->p != '}')
            {
              ps->failed = TRUE;
              return info_all ();
            }
          ps->p++;
        }
      else
        for (guint i = 0; i < 2 && !at_end (ps) && g_ascii_isxdigit (*ps->p); i++)
          u = u * 16 + (gunichar) g_ascii_xdigit_value (*ps->p++);
      if (u == 0 || u == '\n' || !g_unichar_validate (u))
        return info_all ();
      len = g_unichar_to_utf8 (u, buf);
      return info_exact (buf, len);
    }
  if ((c == 'p' || c == 'P') && ps->p + 1 < ps->end && ps->p[1] == '{')
    {
      const char *close = memchr (ps->p, '}', ps->end - ps->p);

      ps->p = close != NULL ? close + 1 : ps->end;
      return info_all ();
    }
  if (c == 'k' || c == 'g')
    {
      /* Back-references by name or number: \k<n>, \k{n}, \g1, \g{-1}. */
      ps->p++;
      if (!at_end (ps) && strchr ("<{'", *ps->p) != NULL)
        {
          char close = *ps->p == '<' ? '>' : *ps->p == '{' ? '}' : '\'';
          const char *stop = memchr (ps->p, close, ps->end - ps->p);

          ps->p = stop != NULL ? stop + 1 : ps->end;
        }
      else
        while (!at_end (ps) && (g_ascii_isdigit (*ps->p) || *ps->p == '-'))
          ps->p++;
      return info_all ();
    }
  if (g_ascii_isalnum (c))
    {
      /* \d \w \s \n \1 \cX and the rest: classes, back-references, control characters. */
      ps->p++;
      if (c == 'c' && !at_end (ps))
        ps->p++;
      while (g_ascii_isdigit (c) && !at_end (ps) && g_ascii_isdigit (*ps->p))
        ps->p++;
      return info_all ();
    }

  {
    const char *start = ps->p;

    ps->p = g_utf8_next_char (ps->p);
    return info_exact (start, ps->p - start);
  }
}

/* `(` … `)`: groups of every kind; look-arounds match nothing, inline options change no
 * literal (the index folds case) except `x`, which makes spaces mean nothing. */
static Info
parse_group (Parser *ps)
{
  gboolean lookaround = FALSE;
  Info inner;

  ps->p++;
  if (!at_end (ps) && *ps->p == '?')
    {
      ps->p++;
      if (at_end (ps))
        {
          ps->failed = TRUE;
          return info_all ();
        }
      if (*ps->p == '#')
        {
          const char *close = memchr (ps->p, ')', ps->end - ps->p);

          ps->p = close != NULL ? close + 1 : ps->end;
          return info_empty ();
        }
      if (*ps->p == '=' || *ps->p == '!')
        {
          lookaround = TRUE;
          ps->p++;
        }
      else if (*ps->p == '<' && ps->p + 1 < ps->end && (ps->p[1] == '=' || ps->p[1] == '!'))
        {
          lookaround = TRUE;
          ps->p += 2;
        }
      else if (*ps->p == 'P' || *ps->p == '<' || *ps->p == '\'')
        {
          const char *close;

          if (*ps->p == 'P' && ps->p + 1 < ps->end && (ps->p[1] == '=' || ps->p[1] == '>'))
            {
              /* (?P=name) and (?P>name): a back-reference or a call. */
              close = memchr (ps->p, ')', ps->end - ps->p);
              ps->p = close != NULL ? close + 1 : ps->end;
              return info_all ();
            }
          close = memchr (ps->p, *ps->p == '\'' ? '\'' : '>', ps->end - ps->p);
          if (close == NULL || (*ps->p != '\'' && close == ps->p))
            {
              ps->failed = TRUE;
              return info_all ();
            }
          ps->p = close + 1;
        }
      else if (*ps->p == ':' || *ps->p == '>' || *ps->p == '|')
        ps->p++;
      else
        {
          /* Options: (?i) (?-i) (?i:…); anything else (recursion, conditionals) is not
           * understood. */
          const char *start = ps->p;

          while (!at_end (ps) && (g_ascii_isalpha (*ps->p) || *ps->p == '-' || *ps->p == '^'))
            ps->p++;
          if (at_end (ps) || ps->p == start
              || memchr (start, 'x', ps->p - start) != NULL)
            {
              ps->failed = TRUE;
              return info_all ();
            }
          if (*ps->p == ')')
            {
              ps->p++;
              return info_empty ();
            }
          if (*ps->p != ':')
            {
              ps->failed = TRUE;
              return info_all ();
            }
          ps->p++;
        }
    }

  inner = parse_alternation (ps);
  if (at_end (ps) || *ps->p != ')')
    {
      ps->failed = TRUE;
      info_clear (&inner);
      return info_all ();
    }
  ps->p++;
  if (lookaround)
    {
      info_clear (&inner);
      return info_empty ();
    }
  return inner;
}

static Info
parse_atom (Parser *ps)
{
  const char *start = ps->p;

  switch (*ps->p)
    {
    case '(':
      return parse_group (ps);
    case '[':
      return parse_class (ps);
    case '\\':
      return parse_escape (ps);
    case '.':
      ps->p++;
      return info_all ();
    case '^':
    case '$':
      ps->p++;
      return info_empty ();
    default:
      ps->p = g_utf8_next_char (ps->p);
      if (ps->p > ps->end)
        ps->p = ps->end;
      return info_exact (start, ps->p - start);
    }
}

/* An atom and its quantifiers. */
static Info
parse_repeat (Parser *ps)
{
  Info atom = parse_atom (ps);

  while (!at_end (ps) && !ps->failed)
    {
      guint min = 1;

      if (*ps->p == '*')
        {
          min = 0;
          ps->p++;
        }
      else if (*ps->p == '+')
        ps->p++;
      else if (*ps->p == '?')
        {
          ps->p++;
          atom = info_optional (atom);
          goto lazy;
        }
      else if (*ps->p != '{' || !parse_braces (ps, &min))
        break;

      if (min == 0)
        {
          info_clear (&atom);
          atom = info_all ();
        }
      else if (atom.exact != NULL)
        {
          /* x+ and x{n,…} start with x; what follows it is no longer a small set. */
          atom.repeated = TRUE;
        }

    lazy:
      if (!at_end (ps) && (*ps->p == '?' || *ps->p == '+'))
        ps->p++;
    }
  return atom;
}

/* A sequence: consecutive exact pieces multiply into one run of strings (`foo`, `ab(c|d)`);
 * a piece that is not exact, or a run grown too large, closes the run, whose query joins
 * the others by AND. */
static Info
parse_concat (Parser *ps)
{
  g_autoptr(GPtrArray) run = g_ptr_array_new_with_free_func (g_free);
  LodeGrepQuery *query = NULL;

  g_ptr_array_add (run, g_strdup (""));
  while (!at_end (ps) && *ps->p != '|' && *ps->p != ')' && !ps->failed)
    {
      Info piece = parse_repeat (ps);
      GPtrArray *product;

      if (piece.exact != NULL && (product = exact_product (run, piece.exact)) != NULL)
        {
          g_ptr_array_unref (run);
          run = product;
          if (piece.repeated)
            {
              query = query_and (query, exact_to_query (ps, run));
              g_ptr_array_set_size (run, 0);
              g_ptr_array_add (run, g_strdup (""));
            }
          info_clear (&piece);
          continue;
        }
      query = query_and (query, exact_to_query (ps, run));
      g_clear_pointer (&run, g_ptr_array_unref);
      if (piece.exact != NULL && !piece.repeated)
        {
          run = g_steal_pointer (&piece.exact);
          info_clear (&piece);
        }
      else
        {
          query = query_and (query, info_steal_query (ps, &piece));
          run = g_ptr_array_new_with_free_func (g_free);
          g_ptr_array_add (run, g_strdup (""));
        }
    }

  if (query == NULL)
    {
      Info info = { g_steal_pointer (&run), NULL, FALSE };

      return info;
    }
  return info_from_query (query_and (query, exact_to_query (ps, run)));
}

static Info
parse_alternation (Parser *ps)
{
  Info info;

  if (++ps->depth > MAX_DEPTH)
    {
      ps->failed = TRUE;
      return info_all ();
    }
  info = parse_concat (ps);
  while (!at_end (ps) && *ps->p == '|' && !ps->failed)
    {
      ps->p++;
      info = info_alternate (ps, info, parse_concat (ps));
    }
  ps->depth--;
  return info;
}

static LodeGrepQuery *
query_for_pattern (const char *pattern,
                   gboolean    regex,
                   guint       min_chars)
{
  Parser ps = { pattern, pattern + strlen (pattern), 0, FALSE, min_chars };
  Info info;
  LodeGrepQuery *q;

  if (!regex)
    {
      info = info_exact (pattern, -1);
      return info_steal_query (&ps, &info);
    }

  info = parse_alternation (&ps);
  if (!at_end (&ps))
    ps.failed = TRUE;   /* an unbalanced `)` */
  q = info_steal_query (&ps, &info);
  if (ps.failed)
    {
      lode_grep_query_free (q);
      return query_new (LODE_GREP_QUERY_ALL);
    }
  return q;
}

/**
 * lode_grep_query_for_pattern:
 * @pattern: what is searched for (UTF-8)
 * @regex: whether @pattern is a regular expression (PCRE syntax) or a literal string
 *
 * Returns: (transfer full): what every text holding a line that @pattern matches holds; a
 *   query of kind %LODE_GREP_QUERY_ALL when no trigram is certain (then every text must be
 *   scanned)
 */
LodeGrepQuery *
lode_grep_query_for_pattern (const char *pattern,
                             gboolean    regex)
{
  g_return_val_if_fail (pattern != NULL, NULL);

  return query_for_pattern (pattern, regex, 3);
}

/**
 * lode_grep_query_bytes_for_pattern:
 * @pattern: what is searched for (UTF-8)
 * @regex: whether @pattern is a regular expression (PCRE syntax) or a literal string
 *
 * As lode_grep_query_for_pattern(), with strings of any length: what a file's bytes must
 * hold, checked with memmem() before the regex runs. Short ones name no trigram but still
 * rule out most of a text: the `()` of `\w+\(\)\s*\{$`, the bytes of `→`. Holds byte for
 * byte only when case matters.
 *
 * Returns: (transfer full): the query
 */
LodeGrepQuery *
lode_grep_query_bytes_for_pattern (const char *pattern,
                                   gboolean    regex)
{
  g_return_val_if_fail (pattern != NULL, NULL);

  return query_for_pattern (pattern, regex, 1);
}

static void
query_append (const LodeGrepQuery *q,
              GString             *out)
{
  switch (q->kind)
    {
    case LODE_GREP_QUERY_ALL:
      g_string_append (out, "ALL");
      break;
    case LODE_GREP_QUERY_LITERAL:
      g_string_append_printf (out, "\"%s\"", q->literal);
      break;
    case LODE_GREP_QUERY_AND:
    case LODE_GREP_QUERY_OR:
      g_string_append_c (out, '(');
      for (guint i = 0; i < q->children->len; i++)
        {
          if (i > 0)
            g_string_append (out, q->kind == LODE_GREP_QUERY_AND ? " AND " : " OR ");
          query_append (q->children->pdata[i], out);
        }
      g_string_append_c (out, ')');
      break;
    default:
      g_assert_not_reached ();
    }
}

/**
 * lode_grep_query_to_string:
 * @query: a query
 *
 * Returns: (transfer full): the query as text, `("abc" AND ("def" OR "ghi"))`, for logs
 *   and tests
 */
char *
lode_grep_query_to_string (const LodeGrepQuery *query)
{
  GString *out = g_string_new (NULL);

  g_return_val_if_fail (query != NULL, NULL);
  query_append (query, out);
  return g_string_free (out, FALSE);
}

/**
 * lode_grep_query_matches_text:
 * @query: a query
 * @folded_text: a text, folded with lode_grep_fold()
 *
 * Returns: whether the text holds what @query requires, regardless of case (as an index of
 *   folded trigrams would answer it)
 */
gboolean
lode_grep_query_matches_text (const LodeGrepQuery *query,
                              const char          *folded_text)
{
  g_return_val_if_fail (query != NULL, FALSE);
  g_return_val_if_fail (folded_text != NULL, FALSE);

  switch (query->kind)
    {
    case LODE_GREP_QUERY_ALL:
      return TRUE;
    case LODE_GREP_QUERY_LITERAL:
      {
        g_autofree char *literal = lode_grep_fold (query->literal, -1);

        return strstr (folded_text, literal) != NULL;
      }
    case LODE_GREP_QUERY_AND:
      for (guint i = 0; i < query->children->len; i++)
        if (!lode_grep_query_matches_text (query->children->pdata[i], folded_text))
          return FALSE;
      return TRUE;
    case LODE_GREP_QUERY_OR:
      for (guint i = 0; i < query->children->len; i++)
        if (lode_grep_query_matches_text (query->children->pdata[i], folded_text))
          return TRUE;
      return FALSE;
    default:
      g_assert_not_reached ();
    }
}

/**
 * lode_grep_literal_trigrams:
 * @literal: a literal of a query
 *
 * Returns: (transfer full) (element-type utf8): its trigrams (three characters each, in
 *   order, each once), which an index of trigrams looks up
 */
GPtrArray *
lode_grep_literal_trigrams (const char *literal)
{
  GPtrArray *trigrams = g_ptr_array_new_with_free_func (g_free);

  g_return_val_if_fail (literal != NULL, trigrams);

  for (const char *p = literal; *p != '\0'; p = g_utf8_next_char (p))
    {
      const char *q = p;
      g_autofree char *t = NULL;

      for (guint i = 0; i < 3 && *q != '\0'; i++)
        q = g_utf8_next_char (q);
      if (g_utf8_strlen (p, q - p) < 3)
        break;
      t = g_strndup (p, q - p);
      if (!g_ptr_array_find_with_equal_func (trigrams, t, g_str_equal, NULL))
        g_ptr_array_add (trigrams, g_steal_pointer (&t));
    }
  return trigrams;
}

/**
 * lode_grep_fold:
 * @text: UTF-8 text
 * @length: its length in bytes, or -1 when nul-terminated
 *
 * Returns: (transfer full): @text with each character lower-cased on its own (the number
 *   of characters stays, so trigrams stay aligned), as an index of trigrams folds case
 */
char *
lode_grep_fold (const char *text,
                gssize      length)
{
  GString *out;
  const char *end;

  g_return_val_if_fail (text != NULL, NULL);

  end = text + (length < 0 ? (gssize) strlen (text) : length);
  out = g_string_sized_new (end - text);
  for (const char *p = text; p < end; p = g_utf8_next_char (p))
    g_string_append_unichar (out, g_unichar_tolower (g_utf8_get_char (p)));
  return g_string_free (out, FALSE);
}
