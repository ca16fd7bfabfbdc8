/* lode-searcher-literals.c — the literal leg: a pasted message finds the code that holds it
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* A query that is, or quotes, a message (an error, a panic, a log line, a format string)
 * is best answered by the code that writes that literal, which BM25 over its common words
 * does not find (`IO is disabled` on tokio ranks the `expect()` that says it 26th). The
 * literals of a query are looked up in the index's text (lode_search_backend_find_text(),
 * a phrase query on the SQLite store), and the chunks that hold them come first.
 *
 * What counts as a literal: the whole query when it is one line; in any line but those of
 * a fenced block of source code (```rust: its strings were copied from code, not seen
 * printed), the text between quotes ("…", '…', “…”, ‘…’) and the message after an error's prefix (`error:`,
 * `fatal:`, `ValueError:`, …), and the line after Rust's `thread '…' panicked at …:`; each of
 * at least three words and LITERAL_MIN_BYTES. A message printed from a format string holds
 * text the code does not (`unable to read tree 1f3e…` for "unable to read tree %s"): when a
 * message from quotes or an error line is not found whole, its longest leading and trailing
 * runs of words that are, each of at least half of it, count instead. A one-line question
 * that names an option, an environment variable or a configuration key looks for its name
 * as a string (add_names()). */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <string.h>

#include "lode-searcher-private.h"

#define LITERAL_MIN_BYTES 10
#define LITERAL_MIN_WORDS 3
#define LITERAL_MAX_BYTES 300
#define MAX_LITERALS      8
/* A literal in more chunks than this says little about where a query points. */
#define LITERAL_MAX_CHUNKS 64
/* A chunk with at least this many lines of strings, most of its lines, is a table of
 * messages (is_message_table()). */
#define MESSAGE_TABLE_LINES 8

typedef struct
{
  char     *text;
  gboolean  trim;   /* a message that may have been printed from a format string */
} Literal;

static void
literal_clear (Literal *literal)
{
  g_free (literal->text);
}

static gboolean
has_literal (GArray     *literals,
             const char *text)
{
  for (guint i = 0; i < literals->len; i++)
    if (strcmp (g_array_index (literals, Literal, i).text, text) == 0)
      return TRUE;

  return FALSE;
}

/* Adds @text (@len bytes) when it reads as a message: three words or more, trimmed of
 * spaces and a final period. */
static void
add_literal (GArray     *literals,
             const char *text,
             gsize       len,
             gboolean    trim)
{
  g_autofree char *copy = NULL;
  guint spaces = 0;
  Literal literal;

  while (len > 0 && g_ascii_isspace (*text))
    text++, len--;
  while (len > 0 && (g_ascii_isspace (text[len - 1]) || text[len - 1] == '.'))
    len--;
  if (literals->len >= MAX_LITERALS || len < LITERAL_MIN_BYTES || len > LITERAL_MAX_BYTES)
    return;
  copy = g_strndup (text, len);
  if (!g_utf8_validate (copy, -1, NULL) || strchr (copy, '\n') != NULL)
    return;
  for (const char *p = copy; *p != '\0'; p++)
    if (*p == ' ' && p[1] != ' ')
      spaces++;
  if (spaces + 1 < LITERAL_MIN_WORDS || has_literal (literals, copy))
    return;

  literal.text = g_steal_pointer (&copy);
  literal.trim = trim;
  g_array_append_val (literals, literal);
}

/* The closing quote for @open, 0 for a character that opens none. */
static gunichar
closing_quote (gunichar open)
{
  switch (open)
    {
    case '"':
    case '\'':
      return open;
    case 0x201C:  /* “ */
      return 0x201D;
    case 0x2018:  /* ‘ */
      return 0x2019;
    default:
      return 0;
    }
}

static gboolean
is_word_char (gunichar c)
{
  return g_unichar_isalnum (c) || c == '_';
}

/* The quoted runs of @line: a quote not preceded by a word character opens one, the same
 * quote not followed by one closes it (the apostrophe of `can't` does neither). A closing
 * quote is looked for as far as a literal may run only, so that a long line of quotes costs
 * a bounded time per quote. */
static void
add_quoted (GArray     *literals,
            const char *line)
{
  g_autofree char *valid = NULL;
  gunichar before = 0;

  /* g_utf8_next_char() takes a lead byte's word for its length, and would step over the
   * nul of a line that ends inside a sequence (a pasted `\xfd`): quotes are looked for in
   * a copy with each bad byte replaced. */
  if (!g_utf8_validate (line, -1, NULL))
    line = valid = g_utf8_make_valid (line, -1);

  for (const char *p = line; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);
      gunichar close = closing_quote (c);
      const char *start = g_utf8_next_char (p);

      if (close != 0 && !is_word_char (before))
        for (const char *q = start; *q != '\0' && q - start <= LITERAL_MAX_BYTES;
             q = g_utf8_next_char (q))
          {
            const char *after = g_utf8_next_char (q);

            if (g_utf8_get_char (q) == close && !is_word_char (g_utf8_get_char (after)))
              {
                add_literal (literals, start, q - start, TRUE);
                p = q;
                c = close;
                break;
              }
          }
      before = c;
    }
}

/* The message of an error line: `error: …`, `fatal: …`, `panic: …`, `ValueError: …`,
 * `java.io.IOException: …`, `error[E0308]: …`; %NULL for another line. */
static const char *
error_message (const char *line)
{
  static const char *const prefixes[] = {
    "error", "fatal", "panic", "warning", "critical", "exception", "caused by",
  };
  const char *colon = strstr (line, ": ");
  g_autofree char *head = NULL;

  if (colon == NULL || colon - line > 60)
    return NULL;
  head = g_ascii_strdown (line, colon - line);
  if (strchr (head, ' ') != NULL && !g_str_has_prefix (head, "caused by"))
    return NULL;
  for (guint i = 0; i < G_N_ELEMENTS (prefixes); i++)
    if (g_str_has_prefix (head, prefixes[i]))
      return colon + 2;
  if (g_str_has_suffix (head, "error") || g_str_has_suffix (head, "exception"))
    return colon + 2;

  return NULL;
}

/* A question about a command-line option (`--arg`), an environment variable (`RUST_LOG`)
 * or a configuration key (`core.editor`) is answered where the code parses it, which
 * holds its name as a string of its own (`"--arg"`, `isoption (…, "arg", …)`,
 * `getenv ("RUST_LOG")`, `!strcmp (var, "core.editor")`), while its documentation holds it
 * inside prose. Those strings are the literals. */
static void
add_quoted_name (GArray     *literals,
                 const char *name,
                 gsize       len)
{
  Literal literal;

  if (literals->len >= MAX_LITERALS || len < 2)
    return;
  literal.text = g_strdup_printf ("\"%.*s\"", (int) len, name);
  literal.trim = FALSE;
  if (has_literal (literals, literal.text))
    g_free (literal.text);
  else
    g_array_append_val (literals, literal);
}

static void
add_names (GArray     *literals,
           const char *query)
{
  for (const char *p = query; *p != '\0'; p++)
    {
      const char *end = p;
      gboolean upper = TRUE, underscore = FALSE, dot = FALSE;

      if (p > query && (g_ascii_isalnum (p[-1]) || p[-1] == '_' || p[-1] == '-' ||
                        p[-1] == '.'))
        continue;
      if (p[0] == '-' && p[1] == '-' && g_ascii_isalpha (p[2]))
        {
          for (end = p + 2; g_ascii_isalnum (*end) || *end == '-' || *end == '_'; end++)
            ;
          add_quoted_name (literals, p, end - p);
          add_quoted_name (literals, p + 2, end - p - 2);
          p = end - 1;
          continue;
        }
      if (!g_ascii_isalpha (*p))
        continue;
      for (; g_ascii_isalnum (*end) || *end == '_' || (*end == '.' && g_ascii_isalpha (end[1]));
           end++)
        {
          upper &= !g_ascii_islower (*end);
          underscore |= *end == '_';
          dot |= *end == '.';
        }
      if ((upper && underscore && !dot) ||
          (dot && !underscore && g_ascii_islower (*p) && !g_ascii_isupper (end[-1])))
        add_quoted_name (literals, p, end - p);
      p = end - 1;
    }
}

/* Whether a fence's info string (```rust) opens source code, whose strings a user copied
 * from the code rather than saw printed; an untagged fence, a shell session or a log is
 * output. */
static gboolean
fence_holds_code (const char *info)
{
  static const char *const output[] = {
    "", "text", "txt", "console", "sh", "shell", "bash", "zsh", "log", "output", "plain",
    "plaintext", "none", "stderr", "stdout", "pytb", "python-traceback",
  };
  g_autofree char *tag = g_ascii_strdown (info, -1);

  g_strstrip (tag);
  for (guint i = 0; i < G_N_ELEMENTS (output); i++)
    if (strcmp (tag, output[i]) == 0)
      return FALSE;

  return TRUE;
}

/* The literals of @query, at most MAX_LITERALS. */
static GArray *
query_literals (const char *query)
{
  GArray *literals = g_array_new (FALSE, FALSE, sizeof (Literal));
  g_auto(GStrv) lines = g_strsplit (query, "\n", -1);
  gboolean panicked = FALSE;
  gboolean in_code = FALSE;

  g_array_set_clear_func (literals, (GDestroyNotify) literal_clear);
  if (g_strv_length (lines) == 1)
    {
      const char *message = error_message (g_strstrip (lines[0]));

      add_literal (literals, lines[0], strlen (lines[0]), FALSE);
      if (message != NULL)
        add_literal (literals, message, strlen (message), TRUE);
      add_names (literals, lines[0]);
    }

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      const char *message;

      while (*line == '>')
        line = g_strchug (line + 1);
      if (g_str_has_prefix (line, "```") || g_str_has_prefix (line, "~~~"))
        {
          in_code = !in_code && fence_holds_code (line + 3);
          panicked = FALSE;
          continue;
        }
      if (in_code)
        continue;
      if (panicked)
        add_literal (literals, line, strlen (line), TRUE);
      panicked = g_str_has_prefix (line, "thread '") && strstr (line, "' panicked at ") != NULL &&
                 g_str_has_suffix (line, ":");
      message = error_message (line);
      if (message != NULL)
        add_literal (literals, message, strlen (message), TRUE);
      add_quoted (literals, line);
    }

  return literals;
}

/* The chunks that hold @text: %FALSE on error; none when it is common. */
static gboolean
find_text (Search      *search,
           const char  *text,
           gsize        len,
           GArray      *chunk_ids,
           gboolean    *common,
           GError     **error)
{
  g_autofree char *copy = g_strndup (text, len);

  g_array_set_size (chunk_ids, 0);
  return lode_search_backend_find_text (search->backend, copy, LITERAL_MAX_CHUNKS, chunk_ids,
                                        common, error);
}

/* The longest run of @literal's words, from its start (@from_end FALSE) or its end, that
 * the index holds, of at least half of it: its chunks in @chunk_ids and its length in @run,
 * 0 when there is none or it is common. Runs found or common form a prefix of the lengths
 * tried, so a binary search over the word boundaries finds the longest. */
static gboolean
longest_run (Search      *search,
             const char  *literal,
             gboolean     from_end,
             GArray      *chunk_ids,
             gsize       *run,
             GError     **error)
{
  g_autoptr(GArray) cuts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize len = strlen (literal);
  gboolean common = FALSE;
  guint lo = 0;
  guint hi;

  /* The run lengths that end (or start) at a space, ascending: at least half, short of all,
   * of three words or more as a literal is (two common words, `number type`, say nothing). */
  *run = 0;
  for (gsize i = 1, words = 1; i < len; i++)
    {
      gsize at = from_end ? len - i : i;
      gsize n = from_end ? len - at - 1 : at;

      if (literal[at] != ' ' || (from_end ? literal[at + 1] == ' ' : literal[at - 1] == ' '))
        continue;
      if (words >= LITERAL_MIN_WORDS && n * 2 >= len && n >= LITERAL_MIN_BYTES)
        g_array_append_val (cuts, n);
      words++;
    }

  hi = cuts->len;
  while (lo < hi)
    {
      guint mid = lo + (hi - lo) / 2;
      gsize n = g_array_index (cuts, gsize, mid);

      if (!find_text (search, from_end ? literal + len - n : literal, n, chunk_ids, &common,
                      error))
        return FALSE;
      if (common || chunk_ids->len > 0)
        lo = mid + 1;
      else
        hi = mid;
    }
  if (lo == 0)
    {
      g_array_set_size (chunk_ids, 0);
      return TRUE;
    }

  *run = g_array_index (cuts, gsize, lo - 1);
  if (!find_text (search, from_end ? literal + len - *run : literal, *run, chunk_ids, &common,
                  error))
    return FALSE;
  if (common || chunk_ids->len == 0)
    *run = 0;

  return TRUE;
}

/* Whether @chunk holds @literal in code, not only in a comment: on a line that does not
 * start as a comment does, after a quote (a message is a string; an option's name is
 * quoted already). */
static gboolean
holds_in_code (const char *body,
               const char *literal)
{
  g_autofree char *lower = g_ascii_strdown (body, -1);
  g_autofree char *needle = g_ascii_strdown (literal, -1);
  static const char *const comments[] = { "//", "/*", "*", "#", "--", ";", "%" };

  for (const char *hit = strstr (lower, needle); hit != NULL; hit = strstr (hit + 1, needle))
    {
      const char *line = hit;
      const char *p;
      gboolean comment = FALSE;
      gboolean quoted = literal[0] == '"';

      while (line > lower && line[-1] != '\n')
        line--;
      for (p = line; p < hit && g_ascii_isspace (*p); p++)
        ;
      for (guint i = 0; i < G_N_ELEMENTS (comments) && !comment; i++)
        comment = g_str_has_prefix (p, comments[i]);
      for (; p < hit && !quoted; p++)
        quoted = *p == '"' || *p == '\'' || *p == '`';
      if (!comment && quoted)
        return TRUE;
    }

  return FALSE;
}

/* Whether @body reads as a table of messages: most of its lines, and at least
 * MESSAGE_TABLE_LINES, hold a string (zstd's ERR_getErrorString(), a `case` per error code,
 * a dict of messages). A message found there says what the text reads, not where the
 * program decides to show it: the table keeps its place, as tests and prose do. */
static gboolean
is_message_table (const char *body)
{
  guint lines = 0;
  guint strings = 0;

  for (const char *line = body; *line != '\0';)
    {
      const char *end = line + strcspn (line, "\n");
      const char *quote = memchr (line, '"', end - line);
      gboolean blank = TRUE;

      for (const char *p = line; p < end && blank; p++)
        blank = g_ascii_isspace (*p);
      lines += !blank;
      strings += quote != NULL && memchr (quote + 1, '"', end - quote - 1) != NULL;
      line = *end != '\0' ? end + 1 : end;
    }

  return strings >= MESSAGE_TABLE_LINES && strings * 2 >= lines;
}

/* Adds @length (the bytes of @literal) to what each of @chunk_ids holds, half of it when a
 * chunk holds it in comments only, nothing when it is a table of messages, as a candidate of its own when the other legs did not
 * find it (with its BM25 relevance, scored at the end). */
static gboolean
credit (Search      *search,
        GArray      *candidates,
        GHashTable  *index,
        GArray      *added,
        GArray      *chunk_ids,
        const char  *literal,
        gsize        length,
        GError     **error)
{
  g_autofree char *text = g_strndup (literal, length);

  for (guint i = 0; i < chunk_ids->len; i++)
    {
      gint64 id = g_array_index (chunk_ids, gint64, i);
      g_autoptr(GError) local_error = NULL;
      g_autofree char *body = NULL;
      gsize held = length;
      gpointer pos;

      body = lode_search_backend_dup_chunk_text (search->backend, id, &local_error);
      if (local_error != NULL)
        {
          g_propagate_error (error, g_steal_pointer (&local_error));
          return FALSE;
        }
      if (body == NULL || is_message_table (body))
        continue;
      if (!holds_in_code (body, text))
        held = (length + 1) / 2;

      if (g_hash_table_lookup_extended (index, GSIZE_TO_POINTER ((gsize) id), NULL, &pos))
        {
          g_array_index (candidates, Candidate, GPOINTER_TO_UINT (pos)).literal += held;
          continue;
        }

      {
        Candidate c = { 0 };
        guint at = candidates->len;

        c.chunk_id = id;
        c.literal = held;
        g_hash_table_insert (index, GSIZE_TO_POINTER ((gsize) id), GUINT_TO_POINTER (at));
        g_array_append_val (candidates, c);
        g_array_append_val (added, at);
      }
    }

  return TRUE;
}

/**
 * _lode_searcher_literal_leg:
 * @search: a search of a query in words
 * @candidates: the candidates so far; the chunks that hold a literal of the query get the
 *   bytes of it they hold in their `literal`, those not among them join
 * @index: chunk id → position in @candidates
 * @total: (out): the bytes of the literals found, what a chunk holding them all holds
 * @error: return location for a #GError
 *
 * Returns: %TRUE on success
 */
gboolean
_lode_searcher_literal_leg (Search      *search,
                            GArray      *candidates,
                            GHashTable  *index,
                            gsize       *total,
                            GError     **error)
{
  g_autoptr(GArray) literals = query_literals (search->options->query);
  g_autoptr(GArray) chunk_ids = g_array_new (FALSE, FALSE, sizeof (gint64));
  g_autoptr(GArray) added = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree gint64 *ids = NULL;
  g_autofree double *scores = NULL;

  *total = 0;
  for (guint i = 0; i < literals->len; i++)
    {
      const Literal *literal = &g_array_index (literals, Literal, i);
      gboolean common = FALSE;
      gsize found = 0;

      if (g_cancellable_set_error_if_cancelled (search->cancellable, error))
        return FALSE;
      if (!find_text (search, literal->text, strlen (literal->text), chunk_ids, &common, error))
        return FALSE;
      if (chunk_ids->len > 0)
        {
          found = strlen (literal->text);
          if (!credit (search, candidates, index, added, chunk_ids, literal->text, found,
                       error))
            return FALSE;
        }
      else if (!common && literal->trim)
        for (guint end = 0; end < 2; end++)
          {
            gsize run;

            if (!longest_run (search, literal->text, end == 1, chunk_ids, &run, error))
              return FALSE;
            if (run > 0 &&
                !credit (search, candidates, index, added, chunk_ids,
                         end == 1 ? literal->text + strlen (literal->text) - run
                                  : literal->text, run, error))
              return FALSE;
            found = MAX (found, run);
          }
      g_debug ("Literal \"%s\": %" G_GSIZE_FORMAT " bytes found%s", literal->text, found,
               common ? " (common)" : "");
      *total += found;
    }

  if (added->len == 0 || search->plan->lexical == NULL)
    return TRUE;

  ids = g_new (gint64, added->len);
  scores = g_new0 (double, added->len);
  for (guint i = 0; i < added->len; i++)
    ids[i] = g_array_index (candidates, Candidate, g_array_index (added, guint, i)).chunk_id;
  if (!lode_search_backend_score_lexical (search->backend, search->plan->lexical, ids,
                                          added->len, scores, error))
    return FALSE;
  for (guint i = 0; i < added->len; i++)
    g_array_index (candidates, Candidate, g_array_index (added, guint, i)).relevance =
      MAX (0.0, scores[i]);

  return TRUE;
}
