/* lode-grep.c — every line of a tree's files that a pattern matches, as rg finds them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* The verifying half of `codebase_grep`: the caller narrows the files with the trigram
 * query (lode_grep_plan(), answered by the index) or passes them all, and this reads each
 * file and finds its matching lines with GRegex (PCRE2). A line is what rg calls one: the
 * bytes between two `\n`, so a match never spans lines; the regex runs over the whole file
 * (multi-line mode, JIT) and only a match that runs past its line's end is checked again on
 * the line alone. */

#define _GNU_SOURCE  /* memmem() */
#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "lode-error.h"
#include "lode-glob.h"
#include "lode-grep.h"
#include "lode-utf8.h"

void
lode_grep_options_init (LodeGrepOptions *options)
{
  g_return_if_fail (options != NULL);

  memset (options, 0, sizeof *options);
  options->case_sensitive = TRUE;
  options->limit = LODE_GREP_DEFAULT_LIMIT;
  options->count_bytes = LODE_GREP_DEFAULT_COUNT_BYTES;
  options->budget_msec = LODE_GREP_DEFAULT_BUDGET_MSEC;
}

void
lode_grep_line_free (LodeGrepLine *line)
{
  if (line == NULL)
    return;
  g_free (line->text);
  g_free (line->symbol);
  g_free (line);
}

void
lode_grep_file_free (LodeGrepFile *file)
{
  if (file == NULL)
    return;
  g_free (file->path);
  g_free (file->language);
  g_clear_pointer (&file->lines, g_ptr_array_unref);
  g_free (file);
}

void
lode_grep_result_free (LodeGrepResult *result)
{
  if (result == NULL)
    return;
  g_clear_pointer (&result->files, g_ptr_array_unref);
  g_free (result);
}

/**
 * lode_grep_compile:
 * @options: the search
 * @error: a #LODE_ERROR_INVALID_QUERY naming what is wrong with the pattern
 *
 * Returns: (transfer full): the regex every line is matched with
 */
GRegex *
lode_grep_compile (const LodeGrepOptions  *options,
                   GError                **error)
{
  g_autofree char *escaped = NULL;
  g_autofree char *pattern = NULL;
  g_autoptr(GError) local_error = NULL;
  GRegexCompileFlags flags = G_REGEX_MULTILINE | G_REGEX_OPTIMIZE | G_REGEX_NEWLINE_LF;
  GRegex *regex;

  g_return_val_if_fail (options != NULL && options->pattern != NULL, NULL);

  if (*options->pattern == '\0')
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY, "Empty pattern");
      return NULL;
    }
  if (!g_utf8_validate (options->pattern, -1, NULL))
    {
      g_set_error_literal (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY,
                           "The pattern is not valid UTF-8");
      return NULL;
    }
  if (!options->regex)
    escaped = g_regex_escape_string (options->pattern, -1);
  /* rg -w: the match is neither preceded nor followed by a word character. */
  pattern = options->whole_word
            ? g_strdup_printf ("(?<!\\w)(?:%s)(?!\\w)", escaped != NULL ? escaped : options->pattern)
            : g_strdup (escaped != NULL ? escaped : options->pattern);
  if (!options->case_sensitive)
    flags |= G_REGEX_CASELESS;

  regex = g_regex_new (pattern, flags, 0, &local_error);
  if (regex == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_QUERY, "Invalid regular expression: %s",
                   local_error->message);
      return NULL;
    }
  return regex;
}

/**
 * lode_grep_plan:
 * @options: the search
 *
 * Returns: (transfer full): what a file must hold to have a matching line
 */
LodeGrepQuery *
lode_grep_plan (const LodeGrepOptions *options)
{
  g_return_val_if_fail (options != NULL && options->pattern != NULL, NULL);

  return lode_grep_query_for_pattern (options->pattern, options->regex);
}

/**
 * lode_grep_wants_file:
 * @options: the search
 * @path: a file's path, relative to the root
 * @language: (nullable): its language id
 *
 * Returns: whether the file filter and the language filter let the file through
 */
gboolean
lode_grep_wants_file (const LodeGrepOptions *options,
                      const char            *path,
                      const char            *language)
{
  g_return_val_if_fail (options != NULL && path != NULL, FALSE);

  if (options->language_filter != NULL && *options->language_filter != '\0'
      && g_strcmp0 (options->language_filter, language) != 0)
    return FALSE;
  if (options->file_filter != NULL && *options->file_filter != '\0'
      && !lode_glob_match_path (options->file_filter, path))
    return FALSE;
  return TRUE;
}

/* Whether @line (bytes, not necessarily UTF-8) has a match on its own. As rg sees it, a
 * byte that is not UTF-8 is no character: nothing of a pattern matches it (not `.`, not
 * `[^a]`), so each valid run between such bytes is matched alone, `^` only at the line's
 * start and `$` only at its end. Nor is it a word's character or another's: a match of
 * @whole_word (rg -w) beside one is not a word. */
static gboolean
line_matches (GRegex     *regex,
              gboolean    whole_word,
              const char *line,
              gsize       length)
{
  const char *end = line + length;

  for (const char *run = line; run <= end;)
    {
      g_autoptr(GMatchInfo) info = NULL;
      const char *bad = NULL;
      GRegexMatchFlags flags = 0;

      lode_utf8_validate_len (run, end - run, &bad);
      if (run > line)
        flags |= G_REGEX_MATCH_NOTBOL;
      if (bad < end)
        flags |= G_REGEX_MATCH_NOTEOL;
      if (g_regex_match_full (regex, run, bad - run, 0, flags, &info, NULL))
        {
          if (!whole_word || (run == line && bad == end))
            return TRUE;
          do
            {
              gint start, stop;

              g_match_info_fetch_pos (info, 0, &start, &stop);
              if ((start > 0 || run == line) && (stop < bad - run || bad == end))
                return TRUE;
            }
          while (g_match_info_next (info, NULL));
        }
      if (bad == end)
        break;
      run = bad + 1;
    }
  return FALSE;
}

static void
add_line (GPtrArray  *lines,
          const char *text,
          gsize       start,
          gsize       end,
          guint       number,
          gboolean    match)
{
  LodeGrepLine *line = g_new0 (LodeGrepLine, 1);

  line->line = number;
  line->text = lode_utf8_validate_len (text + start, end - start, NULL)
               ? g_strndup (text + start, end - start)
               : g_utf8_make_valid (text + start, end - start);
  line->match = match;
  g_ptr_array_add (lines, line);
}

/* The start of each line of @text, and one past the last. */
static GArray *
line_starts (const char *text,
             gsize       length)
{
  GArray *starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  gsize zero = 0;

  g_array_append_val (starts, zero);
  for (const char *p = text; (p = memchr (p, '\n', text + length - p)) != NULL; p++)
    {
      gsize next = p - text + 1;

      g_array_append_val (starts, next);
    }
  if (g_array_index (starts, gsize, starts->len - 1) != length)
    g_array_append_val (starts, length);
  return starts;
}

/* A matching line: its number and its bytes (without the end of line). */
typedef struct
{
  guint number;
  gsize start;
  gsize end;
} MatchLine;

/* Sixteen bytes, compared all at once (SSE2 on x86-64, NEON on arm64: GCC and clang
 * vectors, no intrinsics). */
typedef gint8 Bytes16 __attribute__ ((vector_size (16)));

/* Counts the lines of @text from *@counted_to up to @to into *@line_number, sixteen bytes
 * at a time: a memchr() per line costs more than the lines' bytes on short lines. Each of
 * the sixteen lanes of @sum counts the ends of line it saw, up to 255 steps at a time. */
static void
count_lines (const char *text,
             gsize       to,
             gsize      *counted_to,
             guint      *line_number)
{
  const Bytes16 newline = (Bytes16) { 0 } + '\n';
  const char *p = text + *counted_to;
  const char *end = text + to;
  guint n = 0;

  while (end - p >= (gssize) sizeof (Bytes16))
    {
      gsize steps = MIN ((gsize) (end - p) / sizeof (Bytes16), 255);
      Bytes16 sum = { 0 };
      guint8 lanes[sizeof (Bytes16)];

      for (gsize i = 0; i < steps; i++, p += sizeof (Bytes16))
        {
          Bytes16 bytes;

          memcpy (&bytes, p, sizeof bytes);
          sum -= bytes == newline;  /* -1 in each lane that holds a '\n' */
        }
      memcpy (lanes, &sum, sizeof lanes);
      for (guint j = 0; j < sizeof lanes; j++)
        n += lanes[j];
    }
  for (; p < end; p++)
    n += *p == '\n';
  *line_number += n;
  *counted_to = to;
}

static void
record_match (GArray *matches,
              guint   keep,
              guint  *n_matches,
              guint   number,
              gsize   start,
              gsize   end)
{
  MatchLine m = { number, start, end };

  if (*n_matches < keep)
    g_array_append_val (matches, m);
  (*n_matches)++;
}

/* memmem() for a literal of two bytes or more: the places where its first and last bytes
 * both stand, sixteen positions a step, then a memcmp() of the rest there. glibc's memmem()
 * reads a byte at a time and took most of an identifier search's time. */
static const char *
find_literal (const char *text,
              gsize       length,
              const char *literal,
              gsize       literal_length)
{
  Bytes16 first = { 0 };
  Bytes16 last = { 0 };
  gsize i = 0;

  if (literal_length < 2)
    return memmem (text, length, literal, literal_length);
  first += (gint8) literal[0];
  last += (gint8) literal[literal_length - 1];
  for (; i + literal_length - 1 + sizeof (Bytes16) <= length; i += sizeof (Bytes16))
    {
      Bytes16 head;
      Bytes16 tail;
      Bytes16 both;
      guint64 halves[2];

      memcpy (&head, text + i, sizeof head);
      memcpy (&tail, text + i + literal_length - 1, sizeof tail);
      both = (head == first) & (tail == last);
      memcpy (halves, &both, sizeof halves);
      if ((halves[0] | halves[1]) == 0)
        continue;
      for (guint j = 0; j < sizeof (Bytes16); j++)
        if (both[j] != 0
            && memcmp (text + i + j + 1, literal + 1, literal_length - 2) == 0)
          return text + i + j;
    }
  return i < length ? memmem (text + i, length - i, literal, literal_length) : NULL;
}

/* What a line holding the literal needs to match besides it. */
typedef enum
{
  LITERAL_IS_MATCH,    /* nothing: the pattern is the literal */
  LITERAL_AS_WORD,     /* the pattern is the literal with -w */
  LITERAL_THEN_REGEX,  /* the regex, on the line alone */
} LiteralCheck;

static gboolean
is_ascii_word (char c)
{
  return g_ascii_isalnum (c) || c == '_';
}

/* Whether @line may hold @literal as a whole word: one of its places, from @first on, has
 * no ASCII word character (`\w` whatever the regex's Unicode mode) before or after it.
 * "oid" in "void" and "ret" in "return" are most of a short word's places; the regex checks
 * the lines left, where a neighbour that is not ASCII may still be a word character. */
static gboolean
may_hold_word (const char *line,
               gsize       line_length,
               gsize       first,
               const char *literal,
               gsize       literal_length)
{
  for (const char *p = line + first; p != NULL;
       p = find_literal (p + 1, line + line_length - p - 1, literal, literal_length))
    {
      gsize at = p - line;

      if ((at == 0 || !is_ascii_word (line[at - 1]))
          && (at + literal_length >= line_length || !is_ascii_word (line[at + literal_length])))
        return TRUE;
      if (at + 1 >= line_length)
        break;
    }
  return FALSE;
}

/* The lines holding @literal, each checked alone: no UTF-8 check nor regex over the rest
 * of the file, which is most of it for a literal or an identifier. */
static void
scan_literal_lines (GRegex       *regex,
                    gboolean      whole_word,
                    const char   *text,
                    gsize         length,
                    const char   *literal,
                    LiteralCheck  check,
                    guint         keep,
                    GArray       *matches,
                    guint        *n_matches)
{
  gsize literal_length = strlen (literal);
  gsize pos = 0;
  gsize counted_to = 0;
  guint line_number = 1;
  const char *hit;

  while (pos < length
         && (hit = find_literal (text + pos, length - pos, literal, literal_length)) != NULL)
    {
      gsize line_start = hit - text;
      const char *nl = memchr (hit, '\n', text + length - hit);
      gsize line_end = nl != NULL ? (gsize) (nl - text) : length;

      while (line_start > pos && text[line_start - 1] != '\n')
        line_start--;
      /* Past the lines kept, only their number counts, not where they are. */
      if (*n_matches < keep)
        count_lines (text, line_start, &counted_to, &line_number);
      if (check == LITERAL_IS_MATCH
          || ((check != LITERAL_AS_WORD
               || may_hold_word (text + line_start, line_end - line_start, hit - text - line_start,
                                 literal, literal_length))
              && line_matches (regex, whole_word, text + line_start, line_end - line_start)))
        record_match (matches, keep, n_matches, line_number, line_start, line_end);
      pos = line_end + 1;
    }
}

/* Every matching line of @text (valid UTF-8): one match over the file, continued with
 * g_match_info_next(), since each new search would check the whole text's UTF-8 again.
 * Matches later on a line already counted are skipped; a match that runs past its line's
 * end is checked again on the line alone, and the search starts again at the next. */
static void
scan_lines (GRegex     *regex,
            const char *text,
            gsize       length,
            guint       keep,
            GArray     *matches,
            guint      *n_matches)
{
  g_autoptr(GMatchInfo) info = NULL;
  gboolean more;
  gsize pos = 0;
  gsize counted_to = 0;
  guint line_number = 1;

  /* An empty file has no line (rg's view), not one empty line. */
  more = length > 0 && g_regex_match_full (regex, text, length, 0, 0, &info, NULL);
  while (more)
    {
      const char *nl;
      gsize line_start, line_end;
      gint match_start, match_end;

      g_match_info_fetch_pos (info, 0, &match_start, &match_end);
      if ((gsize) match_start < pos)
        {
          more = g_match_info_next (info, NULL);
          continue;
        }
      if (match_start == (gint) length && text[length - 1] == '\n')
        break;  /* an empty match after the last end of line: no line there */

      line_start = match_start;
      while (line_start > pos && text[line_start - 1] != '\n')
        line_start--;
      nl = memchr (text + match_start, '\n', length - match_start);
      line_end = nl != NULL ? (gsize) (nl - text) : length;
      if (*n_matches < keep)
        count_lines (text, line_start, &counted_to, &line_number);

      if ((gsize) match_end <= line_end || line_matches (regex, FALSE, text + line_start,
                                                         line_end - line_start))
        record_match (matches, keep, n_matches, line_number, line_start, line_end);
      pos = line_end + 1;
      if (pos > length)
        break;
      if ((gsize) match_end > pos)
        {
          g_clear_pointer (&info, g_match_info_free);
          more = g_regex_match_full (regex, text, length, pos, 0, &info, NULL);
        }
      else
        more = g_match_info_next (info, NULL);
    }
}

/* Every matching line of @text that is not valid UTF-8: each line alone (line_matches()). */
static void
scan_each_line (GRegex     *regex,
                gboolean    whole_word,
                const char *text,
                gsize       length,
                guint       keep,
                GArray     *matches,
                guint      *n_matches)
{
  guint line_number = 1;

  for (gsize start = 0; start < length; line_number++)
    {
      const char *nl = memchr (text + start, '\n', length - start);
      gsize end = nl != NULL ? (gsize) (nl - text) : length;

      if (line_matches (regex, whole_word, text + start, end - start))
        record_match (matches, keep, n_matches, line_number, start, end);
      start = end + 1;
    }
}

/**
 * lode_grep_text:
 * @regex: from lode_grep_compile()
 * @options: the search (its context lines)
 * @text: a file's content (bytes that are not UTF-8 match nothing, as in rg)
 * @length: its length
 * @line_literal: (nullable): bytes every matching line holds (no end of line): only the
 *   lines holding them are matched, each alone, and @text may hold any bytes; when they are
 *   a plain pattern itself (case-sensitive, not word-bounded), each line holding them matches
 * @keep: matching lines to keep
 * @n_matches: (out): its matching lines, kept or not
 *
 * Returns: (transfer full) (nullable): the file's first @keep matching lines with their
 *   context (without path), or %NULL when no line matches
 */
LodeGrepFile *
lode_grep_text (GRegex                *regex,
                const LodeGrepOptions *options,
                const char            *text,
                gsize                  length,
                const char            *line_literal,
                guint                  keep,
                guint                 *n_matches)
{
  g_autoptr(GArray) matches = g_array_new (FALSE, FALSE, sizeof (MatchLine));
  g_autoptr(GArray) starts = NULL;
  LodeGrepFile *file;
  guint last_added = 0;

  g_return_val_if_fail (regex != NULL && options != NULL && text != NULL, NULL);

  *n_matches = 0;
  if (line_literal != NULL)
    {
      LiteralCheck check = LITERAL_THEN_REGEX;

      if (!options->regex && options->case_sensitive && strcmp (line_literal, options->pattern) == 0)
        check = options->whole_word ? LITERAL_AS_WORD : LITERAL_IS_MATCH;
      scan_literal_lines (regex, options->whole_word, text, length, line_literal, check, keep,
                          matches, n_matches);
    }
  else if (!lode_utf8_validate_len (text, length, NULL))
    scan_each_line (regex, options->whole_word, text, length, keep, matches, n_matches);
  else
    scan_lines (regex, text, length, keep, matches, n_matches);

  if (*n_matches == 0)
    return NULL;

  file = g_new0 (LodeGrepFile, 1);
  file->lines = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_grep_line_free);
  file->n_matches = *n_matches;
  if (options->context_lines == 0)
    {
      for (guint i = 0; i < matches->len; i++)
        {
          const MatchLine *m = &g_array_index (matches, MatchLine, i);

          add_line (file->lines, text, m->start, m->end, m->number, TRUE);
        }
      return file;
    }
  if (matches->len == 0)
    return file;

  starts = line_starts (text, length);
  for (guint i = 0; i < matches->len; i++)
    {
      guint m = g_array_index (matches, MatchLine, i).number;
      guint first = m > options->context_lines ? m - options->context_lines : 1;
      guint last = MIN (m + options->context_lines, starts->len - 1);
      guint next_match = i + 1 < matches->len ? g_array_index (matches, MatchLine, i + 1).number : 0;

      first = MAX (first, last_added + 1);
      for (guint l = first; l <= last; l++)
        {
          gsize start = g_array_index (starts, gsize, l - 1);
          gsize end = g_array_index (starts, gsize, l);

          /* A context line that is the next match is added as a match, by its turn. */
          if (l == next_match)
            break;
          if (end > start && text[end - 1] == '\n')
            end--;
          add_line (file->lines, text, start, end, l, l == m);
          last_added = l;
        }
    }
  return file;
}

/* Whether @text holds the literals @query requires, byte for byte: a memmem() per literal
 * costs far less than checking the text's UTF-8 and running the regex, and most candidates
 * the index names (by trigrams found anywhere in the file) hold no match. */
static gboolean
holds_literals (const LodeGrepQuery *query,
                const char          *text,
                gsize                length)
{
  switch (query->kind)
    {
    case LODE_GREP_QUERY_ALL:
      return TRUE;
    case LODE_GREP_QUERY_LITERAL:
      return memmem (text, length, query->literal, strlen (query->literal)) != NULL;
    case LODE_GREP_QUERY_AND:
      for (guint i = 0; i < query->children->len; i++)
        if (!holds_literals (query->children->pdata[i], text, length))
          return FALSE;
      return TRUE;
    case LODE_GREP_QUERY_OR:
      for (guint i = 0; i < query->children->len; i++)
        if (holds_literals (query->children->pdata[i], text, length))
          return TRUE;
      return FALSE;
    default:
      g_assert_not_reached ();
    }
}

/* The longest literal of @query that every matching line holds (a match never spans
 * lines), or %NULL when it requires none or only one of several. */
static const char *
line_literal (const LodeGrepQuery *query)
{
  const char *best = NULL;

  switch (query->kind)
    {
    case LODE_GREP_QUERY_LITERAL:
      return strchr (query->literal, '\n') == NULL ? query->literal : NULL;
    case LODE_GREP_QUERY_AND:
      for (guint i = 0; i < query->children->len; i++)
        {
          const char *literal = line_literal (query->children->pdata[i]);

          if (literal != NULL && (best == NULL || strlen (literal) > strlen (best)))
            best = literal;
        }
      return best;
    case LODE_GREP_QUERY_ALL:
    case LODE_GREP_QUERY_OR:
    default:
      return NULL;
    }
}

/* A buffer for read_file(): all of its length is room to read into. */
static GByteArray *
read_buffer_new (void)
{
  GByteArray *buffer = g_byte_array_sized_new (64 * 1024);

  g_byte_array_set_size (buffer, 64 * 1024);
  return buffer;
}

/* Reads @fd into @buffer, sets @length to the bytes read, and closes it. The buffer is kept
 * from file to file at the size of the largest read so far, with room for a NUL after the
 * text: a search reads hundreds of files, and a new allocation of each (glib's
 * g_file_get_contents()) cost more than its matching. A read of a regular file that gives
 * less than asked has reached its end, so a file smaller than the buffer takes one read and
 * no fstat() (which took a twentieth of a search's CPU on git v2.47.0). A read that fills the
 * buffer asks what the file is: a device in an indexed file's place (/dev/zero would fill
 * any buffer) is not read on. */
static gboolean
read_file (int         fd,
           GByteArray *buffer,
           gsize      *length)
{
  gboolean checked = FALSE;

  *length = 0;
  for (;;)
    {
      gsize asked = buffer->len - *length - 1;
      gssize n = read (fd, buffer->data + *length, asked);

      if (n < 0 && errno == EINTR)
        continue;
      if (n < 0)
        break;
      *length += n;
      if ((gsize) n < asked)
        {
          close (fd);
          buffer->data[*length] = '\0';
          return TRUE;
        }
      if (!checked)
        {
          struct stat st;

          if (fstat (fd, &st) != 0 || !S_ISREG (st.st_mode))
            break;
          checked = TRUE;
          /* Room for a byte past the size and the NUL: the next read then asks for more
           * than the file holds. A file that grew since is read to its end. */
          g_byte_array_set_size (buffer, MAX ((gsize) st.st_size + 2, buffer->len * 2));
        }
      else
        g_byte_array_set_size (buffer, buffer->len * 2);
    }
  close (fd);
  return FALSE;
}

static gint
compare_targets (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (((const LodeGrepTarget *) a)->path, ((const LodeGrepTarget *) b)->path);
}

/* Whether @targets are by path already, as the index gives its candidates: sorting a
 * thousand of them again took a tenth of a literal's search. */
static gboolean
targets_sorted (const LodeGrepTarget *targets,
                guint                 n_targets)
{
  for (guint i = 1; i < n_targets; i++)
    if (compare_targets (&targets[i - 1], &targets[i]) > 0)
      return FALSE;
  return TRUE;
}

/* Bytes a search reads alone before other threads help it: enough for the few small files
 * of a rare identifier, which are read before a helper would wake. Past that, helpers cut
 * the wall time of the median identifier or literal on git by a sixth, for a tenth more CPU
 * (bench/grep-bench.py); at 4 MiB, where they used to start, most searches never saw one. */
#define LODE_GREP_HELPED_BYTES (64 * 1024)

/* One candidate file as a thread verified it, for the caller to merge in path order. */
typedef struct
{
  LodeGrepFile *file;       /* its first @kept matching lines, or NULL when none matches */
  gsize         length;     /* bytes read */
  guint         n_matches;
  guint         kept;
  gboolean      readable;
  gint          done;       /* atomic: the fields above are set */
} Verified;

/* A search shared by the threads that verify its files: each takes the next file, and the
 * caller merges them in order, deciding alone where the lines kept and the count stop, so
 * that the result does not depend on which thread read what. */
typedef struct
{
  const LodeGrepOptions *options;
  GRegex                *regex;
  const LodeGrepQuery   *literals;
  const char            *by_line;
  const LodeGrepTarget  *targets;   /* the files the filters let through, by path */
  guint                  n_targets;
  Verified              *verified;
  int                    root_fd;
  gint                   next;      /* atomic: the next file to verify */
  gint                   stop;      /* atomic: verify no more */
  gint                   keep_none; /* atomic: the limit's lines are all found */
  guint                  helpers;   /* helper threads not done, under @lock */
  guint                  waiting;   /* threads waiting on @cond, under @lock */
  GMutex                 lock;
  GCond                  cond;      /* a file verified or a helper done */
} Search;

/* Reads @s's file @i and finds its first @keep matching lines into @v. Runs on any of the
 * search's threads. */
static void
verify_file (Search     *s,
             guint       i,
             guint       keep,
             GByteArray *buffer,
             Verified   *v)
{
  const char *text;
  /* O_NONBLOCK: a FIFO put where an indexed file was must not hold the search (a regular
   * file ignores the flag). */
  int fd = s->root_fd >= 0 ? openat (s->root_fd, s->targets[i].path,
                                     O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK) : -1;

  v->readable = fd >= 0 && read_file (fd, buffer, &v->length);
  if (!v->readable)
    return;
  text = (const char *) buffer->data;
  v->kept = keep;
  /* A lone literal is looked for line by line in lode_grep_text(). */
  if (s->literals != NULL && s->literals->kind != LODE_GREP_QUERY_LITERAL
      && !holds_literals (s->literals, text, v->length))
    return;
  v->file = lode_grep_text (s->regex, s->options, text, v->length, s->by_line, keep,
                            &v->n_matches);
}

/* Verifies the next file not taken; FALSE when there is none or the search stopped. The
 * caller knows the lines left to keep of the file it merges next, @head; of the others, only
 * whether any is left. */
static gboolean
verify_next (Search     *s,
             guint       head,
             guint       left,
             GByteArray *buffer)
{
  guint i;
  Verified *v;

  if (g_atomic_int_get (&s->stop))
    return FALSE;
  i = g_atomic_int_add (&s->next, 1);
  if (i >= s->n_targets)
    return FALSE;
  v = &s->verified[i];
  verify_file (s, i, i == head ? left : g_atomic_int_get (&s->keep_none) ? 0 : s->options->limit,
               buffer, v);
  g_mutex_lock (&s->lock);
  g_atomic_int_set (&v->done, TRUE);
  /* A broadcast is a system call even when nobody waits, which is most files. */
  if (s->waiting > 0)
    g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
  return TRUE;
}

/* Runs on a thread of the helper pool. */
static void
verify_worker (gpointer data,
               gpointer user_data)
{
  Search *s = data;
  g_autoptr(GByteArray) buffer = read_buffer_new ();

  while (verify_next (s, G_MAXUINT, 0, buffer))
    ;
  g_mutex_lock (&s->lock);
  s->helpers--;
  g_cond_broadcast (&s->cond);
  g_mutex_unlock (&s->lock);
}

/* The threads that verify files beside the caller's: one per other core, from a pool whose
 * idle threads are kept (no thread is started for a search, none waits behind another's).
 * The cores are counted once: glibc reads /sys for each count. */
typedef struct
{
  GThreadPool *pool;
  guint        n_cores;
} Helpers;

static gpointer
new_helpers (gpointer data)
{
  Helpers *helpers = g_new0 (Helpers, 1);

  helpers->pool = g_thread_pool_new (verify_worker, NULL, -1, FALSE, NULL);
  helpers->n_cores = g_get_num_processors ();
  return helpers;
}

static const Helpers *
get_helpers (void)
{
  static GOnce once = G_ONCE_INIT;

  return g_once (&once, new_helpers, NULL);
}

/* Waits until file @i of @s, with @left lines to keep, is verified, verifying the next
 * ones meanwhile. */
static Verified *
wait_verified (Search     *s,
               guint       i,
               guint       left,
               GByteArray *buffer)
{
  Verified *v = &s->verified[i];

  while (!g_atomic_int_get (&v->done))
    {
      if (verify_next (s, i, left, buffer))
        continue;
      g_mutex_lock (&s->lock);
      s->waiting++;
      while (!g_atomic_int_get (&v->done))
        g_cond_wait (&s->cond, &s->lock);
      s->waiting--;
      g_mutex_unlock (&s->lock);
    }
  return v;
}

/**
 * lode_grep_files:
 * @root: the tree's root
 * @options: the search
 * @regex: @options' pattern, from lode_grep_compile(): the caller has named a bad pattern
 *   already, before it looked for the files
 * @targets: (array length=n_targets): the files to read (the filters still apply)
 * @n_targets: their number
 * @indexed: whether @targets are an index's candidates (recorded in the result)
 * @cancellable: (nullable): stops the search with %G_IO_ERROR_CANCELLED
 * @error: cancellation
 *
 * Reads the files by path and collects their matching lines. A file that cannot be read
 * (removed since it was indexed) has none. Once the limit's lines are kept, the options'
 * count_bytes of further files are read to count more, and the files left are only counted
 * as unread. When the options' budget runs out the result holds what was found, and says
 * whether the lines kept are all there are among the first ones.
 *
 * Returns: (transfer full): the matching lines by file, files by path
 */
LodeGrepResult *
lode_grep_files (const char            *root,
                 const LodeGrepOptions *options,
                 GRegex                *regex,
                 const LodeGrepTarget  *targets,
                 guint                  n_targets,
                 gboolean               indexed,
                 GCancellable          *cancellable,
                 GError               **error)
{
  g_autoptr(LodeGrepQuery) literals = NULL;
  g_autoptr(LodeGrepResult) result = NULL;
  g_autofree LodeGrepTarget *wanted = g_new (LodeGrepTarget, MAX (n_targets, 1));
  g_autofree Verified *verified = NULL;
  g_autoptr(GByteArray) buffer = read_buffer_new ();
  Search s = { options, NULL, NULL, NULL, wanted, 0 };
  guint64 counted_past_limit = 0;
  guint64 bytes_read = 0;
  guint n_helpers = 0;
  gint64 deadline;

  g_return_val_if_fail (root != NULL && options != NULL && regex != NULL, NULL);
  g_return_val_if_fail (targets != NULL || n_targets == 0, NULL);
  g_return_val_if_fail (!cancellable || G_IS_CANCELLABLE (cancellable), NULL);
  g_return_val_if_fail (error == NULL || *error == NULL, NULL);

  /* The literals hold byte for byte only when case matters and no inline option such as
   * (?i) may change it. Those too short for a trigram count here: a line without `()` is
   * not given to the regex `\w+\(\)\s*\{$`. */
  if (options->case_sensitive && (!options->regex || strstr (options->pattern, "(?") == NULL))
    literals = lode_grep_query_bytes_for_pattern (options->pattern, options->regex);
  s.regex = regex;
  s.literals = literals;
  s.by_line = literals != NULL ? line_literal (literals) : NULL;

  result = g_new0 (LodeGrepResult, 1);
  result->files = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_grep_file_free);
  result->complete = TRUE;
  result->indexed = indexed;
  for (guint i = 0; i < n_targets; i++)
    if (lode_grep_wants_file (options, targets[i].path, targets[i].language))
      wanted[s.n_targets++] = targets[i];
  if (!targets_sorted (wanted, s.n_targets))
    qsort (wanted, s.n_targets, sizeof (LodeGrepTarget), compare_targets);
  verified = g_new0 (Verified, MAX (s.n_targets, 1));
  s.verified = verified;
  deadline = options->budget_msec > 0
             ? g_get_monotonic_time () + (gint64) options->budget_msec * 1000 : G_MAXINT64;
  /* An unreadable root has no file to read, as each of its files would have none. */
  s.root_fd = open (root, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  g_mutex_init (&s.lock);
  g_cond_init (&s.cond);

  for (guint i = 0; i < s.n_targets; i++)
    {
      gboolean past_limit = result->n_shown >= options->limit;
      guint left = options->limit - MIN (result->n_shown, options->limit);
      Verified *v;

      if (g_cancellable_is_cancelled (cancellable))
        break;
      /* A search that has read more than a few small files gets the other cores' help. */
      if (bytes_read > LODE_GREP_HELPED_BYTES && n_helpers == 0 && i + 1 < s.n_targets)
        {
          n_helpers = MIN (get_helpers ()->n_cores, s.n_targets - i) - 1;
          g_mutex_lock (&s.lock);
          s.helpers = n_helpers;
          g_mutex_unlock (&s.lock);
          for (guint j = 0; j < n_helpers; j++)
            g_thread_pool_push (get_helpers ()->pool, &s, NULL);
        }
      v = wait_verified (&s, i, left, buffer);
      /* Past the limit the count is bounded by bytes read, not by time, so that the same
       * call gives the same answer. */
      if (g_get_monotonic_time () > deadline
          || (v->readable && past_limit && options->count_bytes > 0
              && counted_past_limit + v->length > options->count_bytes))
        {
          result->complete = past_limit;
          result->n_unread = s.n_targets - i;
          break;
        }

      result->n_candidates++;
      if (!v->readable)
        continue;
      bytes_read += v->length;
      if (past_limit)
        counted_past_limit += v->length;
      if (v->file == NULL)
        continue;
      /* Verified by a helper before the lines kept so far were known: without context, its
       * first lines are the ones to keep; with context, which depends on where the lines
       * stop, it is found again with the lines left to keep. */
      if (left > 0 && left < v->n_matches && v->kept > left && options->context_lines == 0)
        g_ptr_array_set_size (v->file->lines, left);
      else if (left > 0 && left < v->n_matches && v->kept > left)
        {
          g_clear_pointer (&v->file, lode_grep_file_free);
          v->n_matches = 0;
          verify_file (&s, i, left, buffer, v);
          if (v->file == NULL)
            continue;
        }
      result->n_matches += v->n_matches;
      result->n_files++;
      if (left == 0)
        continue;
      v->file->path = g_strdup (wanted[i].path);
      v->file->language = g_strdup (wanted[i].language);
      result->n_shown += MIN (v->n_matches, left);
      g_ptr_array_add (result->files, g_steal_pointer (&v->file));
      if (result->n_shown >= options->limit)
        g_atomic_int_set (&s.keep_none, TRUE);
    }

  g_atomic_int_set (&s.stop, TRUE);
  g_mutex_lock (&s.lock);
  while (s.helpers > 0)
    g_cond_wait (&s.cond, &s.lock);
  g_mutex_unlock (&s.lock);
  g_mutex_clear (&s.lock);
  g_cond_clear (&s.cond);
  for (guint i = 0; i < s.n_targets; i++)
    g_clear_pointer (&verified[i].file, lode_grep_file_free);
  if (s.root_fd >= 0)
    close (s.root_fd);

  if (g_cancellable_set_error_if_cancelled (cancellable, error))
    return NULL;
  return g_steal_pointer (&result);
}
