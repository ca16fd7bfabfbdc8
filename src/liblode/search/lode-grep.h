/* lode-grep.h — every line of a tree's files that a pattern matches, as rg finds them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-grep-query.h"

G_BEGIN_DECLS

/* Matching lines kept when a caller asks for no limit of its own. */
#define LODE_GREP_DEFAULT_LIMIT 100
#define LODE_GREP_MAX_LIMIT 10000
#define LODE_GREP_MAX_CONTEXT 20
/* How long a search that must read every file may take. */
#define LODE_GREP_DEFAULT_BUDGET_MSEC 10000
/* How much more of the candidates' text is read once the limit's lines are kept, only to
 * count the lines not shown: enough to tell a few more from hundreds more, beside the
 * candidate files left unread, which the index counts. On git's tree, 1 MiB was a third of
 * the CPU of the median identifier's search (reading every candidate took twenty ms). */
#define LODE_GREP_DEFAULT_COUNT_BYTES (256 * 1024)

/**
 * LodeGrepOptions:
 * @pattern: what to find
 * @regex: @pattern is a regular expression (PCRE2 syntax, as GRegex reads it), not a literal
 * @case_sensitive: letters match their own case only (rg's default)
 * @whole_word: a match is neither preceded nor followed by a word character (rg's `-w`)
 * @file_filter: (nullable): a glob the file's path must match (lode_glob_match_path())
 * @language_filter: (nullable): the file's language id
 * @context_lines: lines shown before and after each match (rg's `-C`)
 * @limit: matching lines kept; the others are counted
 * @count_bytes: once @limit lines are kept, how many bytes of further files are read to
 *   count the lines not kept: the first file that would take them past it is not read, nor
 *   any after it (0: every file is read)
 * @budget_msec: how long reading the files may take before the search stops with what it
 *   found (0: no budget)
 */
typedef struct
{
  const char *pattern;
  gboolean    regex;
  gboolean    case_sensitive;
  gboolean    whole_word;
  const char *file_filter;
  const char *language_filter;
  guint       context_lines;
  guint       limit;
  guint       count_bytes;
  guint       budget_msec;
} LodeGrepOptions;

void lode_grep_options_init (LodeGrepOptions *options);

/**
 * LodeGrepLine:
 * @line: 1-based line number
 * @text: the line, without its end of line
 * @match: whether the pattern matches it (else it is context)
 * @symbol: (nullable): the declaration the line lies in, set by the caller that knows them
 */
typedef struct
{
  guint  line;
  char  *text;
  char  *symbol;
  guint  match : 1;
} LodeGrepLine;

/**
 * LodeGrepFile:
 * @path: relative to the root
 * @language: (nullable): its language id
 * @lines: (element-type LodeGrepLine): matching lines and their context, by line
 * @n_matches: matching lines in the file, kept or not
 */
typedef struct
{
  char      *path;
  char      *language;
  GPtrArray *lines;
  guint      n_matches;
} LodeGrepFile;

/**
 * LodeGrepResult:
 * @files: (element-type LodeGrepFile): files with a kept match, by path
 * @n_matches: matching lines found in the files read: all of them when @n_unread is 0, else
 *   a lower bound
 * @n_files: files read with a matching line (a lower bound too when @n_unread is not 0)
 * @n_shown: matching lines kept (at most the limit)
 * @n_candidates: files read
 * @n_unread: candidate files left unread, once the limit's lines were kept and the count
 *   past them reached its bound, or when the budget ran out: any of them may match
 * @complete: the lines kept are the first ones of all the candidates (else the budget ran
 *   out before they were all found)
 * @indexed: the candidates came from an index of trigrams (else every file was read)
 */
typedef struct
{
  GPtrArray *files;
  guint      n_matches;
  guint      n_files;
  guint      n_shown;
  guint      n_candidates;
  guint      n_unread;
  guint      complete : 1;
  guint      indexed : 1;
} LodeGrepResult;

/**
 * LodeGrepTarget:
 * @path: relative to the root
 * @language: (nullable): its language id
 *
 * A file the search may read.
 */
typedef struct
{
  const char *path;
  const char *language;
} LodeGrepTarget;

void            lode_grep_line_free   (LodeGrepLine   *line);
void            lode_grep_file_free   (LodeGrepFile   *file);
void            lode_grep_result_free (LodeGrepResult *result);

GRegex         *lode_grep_compile     (const LodeGrepOptions *options,
                                       GError               **error);
LodeGrepQuery  *lode_grep_plan        (const LodeGrepOptions *options);
gboolean        lode_grep_wants_file  (const LodeGrepOptions *options,
                                       const char            *path,
                                       const char            *language);
LodeGrepFile   *lode_grep_text        (GRegex                *regex,
                                       const LodeGrepOptions *options,
                                       const char            *text,
                                       gsize                  length,
                                       const char            *line_literal,
                                       guint                  keep,
                                       guint                 *n_matches);
LodeGrepResult *lode_grep_files       (const char            *root,
                                       const LodeGrepOptions *options,
                                       GRegex                *regex,
                                       const LodeGrepTarget  *targets,
                                       guint                  n_targets,
                                       gboolean               indexed,
                                       GCancellable          *cancellable,
                                       GError               **error);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGrepResult, lode_grep_result_free)
G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeGrepFile, lode_grep_file_free)

G_END_DECLS
