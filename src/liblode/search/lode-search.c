/* lode-search.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

/* Query analysis: what kind of query the user typed, and what the lexical leg looks for.
 * LodeSearcher (lode-searcher.c) runs the search. */

#define G_LOG_DOMAIN "lode-search"

#include "config.h"

#include <math.h>
#include <string.h>

#include <glib/gi18n-lib.h>

#include "lode-code-tokenizer.h"
#include "lode-language.h"
#include "lode-search-private.h"

/* A natural-language query keeps at most this many distinct words… */
#define NATURAL_MAX_TERMS   256
/* …and at most this many terms in its lexical query, word variants included. Each term is
 * one posting-list walk, so this bounds the query's cost. */
#define NATURAL_MAX_PHRASES 384
/* How much more a word that is surely code (see find_code_words) counts than prose. */
#define CODE_WORD_WEIGHT    3.0
/* A query with more distinct words than this (a pasted issue) keeps only this many (see
 * select_rare_words): fewer terms are faster, and the rarest carry the ranking. */
#define ISSUE_MAX_WORDS     32
/* A query of at most this many distinct words, none of them code, is a question (the code
 * lexicon may widen it, lode-search-expansion.c); longer ones are pasted text. */
#define QUESTION_MAX_WORDS  12
/* … and a question is one line of at most this many bytes. */
#define QUESTION_MAX_BYTES  120
/* A first line longer than this is prose, not a title. */
#define TITLE_MAX_BYTES     200

void
lode_search_symbol_free (LodeSearchSymbol *symbol)
{
  if (symbol == NULL)
    return;

  g_free (symbol->name);
  g_free (symbol->kind);
  g_free (symbol);
}

void
lode_search_result_free (LodeSearchResult *result)
{
  if (result == NULL)
    return;

  g_free (result->path);
  g_free (result->language);
  g_free (result->kind);
  g_free (result->symbol);
  g_free (result->container);
  g_free (result->signature);
  g_clear_pointer (&result->symbols, g_ptr_array_unref);
  g_free (result->snippet);
  g_free (result->content);
  g_strfreev (result->expanded_terms);
  g_strfreev (result->expanded_from);
  g_free (result);
}

void
lode_search_response_free (LodeSearchResponse *response)
{
  if (response == NULL)
    return;

  g_clear_pointer (&response->results, g_ptr_array_unref);
  g_free (response->notice);
  g_free (response->model);
  g_free (response);
}

const char *
lode_search_mode_to_string (LodeSearchMode mode)
{
  switch (mode)
    {
    case LODE_SEARCH_MODE_HYBRID:
      return "hybrid";
    case LODE_SEARCH_MODE_LEXICAL:
      return "lexical";
    case LODE_SEARCH_MODE_SEMANTIC:
      return "semantic";
    default:
      g_return_val_if_reached ("unknown");
    }
}

/**
 * lode_search_mode_from_string:
 * @name: "hybrid", "lexical" or "semantic"
 * @mode: (out): the mode
 *
 * Returns: whether @name is a mode
 */
gboolean
lode_search_mode_from_string (const char     *name,
                              LodeSearchMode *mode)
{
  static const LodeSearchMode modes[] = {
    LODE_SEARCH_MODE_HYBRID, LODE_SEARCH_MODE_LEXICAL, LODE_SEARCH_MODE_SEMANTIC,
  };

  g_return_val_if_fail (mode != NULL, FALSE);

  for (guint i = 0; name != NULL && i < G_N_ELEMENTS (modes); i++)
    if (g_str_equal (name, lode_search_mode_to_string (modes[i])))
      {
        *mode = modes[i];
        return TRUE;
      }

  return FALSE;
}

/**
 * lode_search_dup_coverage_notice:
 * @n_embedded: chunks with a vector of the current model
 * @n_embeddable: chunks that can have one
 *
 * Returns: (transfer full) (nullable): why semantic search sees only part of the index, for
 *   people and agents alike (it names no command), or %NULL when it sees all of it
 */
char *
lode_search_dup_coverage_notice (guint n_embedded,
                                 guint n_embeddable)
{
  if (n_embedded >= n_embeddable)
    return NULL;

  return g_strdup_printf (g_dngettext (GETTEXT_PACKAGE,
                                       "semantic search covers %u of %u chunk; the next "
                                       "indexing run embeds the rest",
                                       "semantic search covers %u of %u chunks; the next "
                                       "indexing run embeds the rest", n_embeddable),
                          n_embedded, n_embeddable);
}

/* Extensions that make `name.ext` a file name although Lode has no language for them. */
static const char *const other_extensions[] = {
  "ac", "am", "asm", "bat", "cfg", "cmake", "conf", "csv", "el", "gradle", "in", "ini", "lock",
  "m4", "mk", "perl", "pl", "pm", "po", "proto", "ps1", "rst", "s", "sql", "tcl", "txt", "vim",
  "xml", "adoc", "asciidoc",
};

static gboolean
looks_like_file_name (const char *query)
{
  const char *dot = strrchr (query, '.');
  const char *ext;

  if (dot == NULL || dot == query || dot[1] == '\0')
    return FALSE;

  if (strcmp (lode_language_for_path (query)->id, "text") != 0)
    return TRUE;

  ext = dot + 1;
  for (guint i = 0; i < G_N_ELEMENTS (other_extensions); i++)
    if (g_ascii_strcasecmp (ext, other_extensions[i]) == 0)
      return TRUE;

  return FALSE;
}

/* Characters an identifier query may consist of: identifier characters, and the separators
 * of qualified names (`::`, `.`, `->`, `#`) and of kebab-case. `$` and `@` start names in
 * PHP, shell, Perl and Ruby. */
static gboolean
is_identifier_query_char (gunichar c)
{
  if (c < 0x80)
    return g_ascii_isalnum (c) || strchr ("_:.->#$@", c) != NULL;

  return g_unichar_isalnum (c) || g_unichar_ismark (c);
}

static char *
strip_query (const char *query)
{
  char *copy = g_utf8_make_valid (query, -1);

  return g_strstrip (copy);
}

/* Drops a trailing `()` (`lode_store_open()`), as people often paste names with it. */
static void
strip_call_parens (char *query)
{
  gsize len = strlen (query);

  if (len > 2 && strcmp (query + len - 2, "()") == 0)
    query[len - 2] = '\0';
}

static LodeQueryKind
classify_stripped (const char *query)
{
  gboolean has_word = FALSE;

  if (*query == '\0')
    return LODE_QUERY_NATURAL;

  for (const char *p = query; *p != '\0'; p = g_utf8_next_char (p))
    if (g_unichar_isspace (g_utf8_get_char (p)))
      return LODE_QUERY_NATURAL;

  if (strchr (query, '/') != NULL || strchr (query, '\\') != NULL || looks_like_file_name (query))
    return LODE_QUERY_PATH;

  for (const char *p = query; *p != '\0'; p = g_utf8_next_char (p))
    {
      gunichar c = g_utf8_get_char (p);

      if (!is_identifier_query_char (c))
        return LODE_QUERY_NATURAL;
      if (g_unichar_isalnum (c))
        has_word = TRUE;
    }

  return has_word ? LODE_QUERY_IDENTIFIER : LODE_QUERY_NATURAL;
}

/**
 * lode_query_classify:
 * @query: the query as typed
 *
 * Classifies @query:
 *
 * - %LODE_QUERY_PATH: one word that contains '/' or '\', or that looks like `name.ext` with a
 *   known extension (`lode-store.c`, `README.md`, `Makefile.am`).
 * - %LODE_QUERY_IDENTIFIER: one word made of identifier characters and the separators of
 *   qualified names: `lode_store_open`, `parseHttpRequest`, `Foo::bar`, `obj.method`,
 *   `self->priv`, `lode-store`, `$var`, optionally followed by `()`. A single plain word
 *   (`Scanner`, `config`) is an identifier too: ranking its definition first costs nothing
 *   when there is none, and helps when there is one.
 * - %LODE_QUERY_NATURAL: anything else, in particular several words.
 *
 * Returns: the kind of query
 */
LodeQueryKind
lode_query_classify (const char *query)
{
  g_autofree char *stripped = NULL;

  g_return_val_if_fail (query != NULL, LODE_QUERY_NATURAL);

  stripped = strip_query (query);
  strip_call_parens (stripped);

  return classify_stripped (stripped);
}

/* English words and code-search noise that say nothing about which code is meant. */
static const char *const stop_words[] = {
  "about", "above", "after", "again", "all", "also", "am", "an", "and", "any", "are", "as", "at",
  "be", "because", "been", "before", "being", "both", "but", "by", "can", "code", "could",
  "did", "do", "does", "doing", "done", "each", "every", "find", "for", "from", "function",
  "functions", "had", "has", "have", "having", "here", "how", "if", "implementation",
  "implemented", "implements", "in", "into", "is", "it", "its", "itself", "just", "me", "method",
  "methods", "more", "most", "my", "of", "on", "once", "only", "or", "other", "our", "out",
  "over", "please", "same", "should", "show", "so", "some", "such", "than", "that", "the",
  "their", "them", "then", "there", "these", "they", "this", "those", "through", "to", "too",
  "under", "until", "up", "use", "used", "uses", "using", "very", "via", "was", "we", "were",
  "what", "when", "where", "which", "while", "who", "whom", "why", "will", "with", "within",
  "would", "you", "your",
};

static GHashTable *
get_stop_words (void)
{
  static GHashTable *words;

  if (g_once_init_enter (&words))
    {
      GHashTable *table = g_hash_table_new (g_str_hash, g_str_equal);

      for (guint i = 0; i < G_N_ELEMENTS (stop_words); i++)
        g_hash_table_add (table, (gpointer) stop_words[i]);
      g_once_init_leave (&words, table);
    }

  return words;
}

typedef struct
{
  char     *token;
  gboolean  colocated;
  gsize     start;
} Token;

static void
token_clear (Token *token)
{
  g_free (token->token);
}

static gboolean
collect_token_cb (const char *token,
                  gsize       len,
                  gsize       start,
                  gsize       end,
                  gboolean    colocated,
                  gpointer    user_data)
{
  GArray *tokens = user_data;
  Token t = { g_strndup (token, len), colocated, start };

  g_array_append_val (tokens, t);
  return TRUE;
}

static GArray *
tokenize (const char        *text,
          LodeTokenizeFlags  flags)
{
  GArray *tokens = g_array_new (FALSE, FALSE, sizeof (Token));

  g_array_set_clear_func (tokens, (GDestroyNotify) token_clear);
  lode_code_tokenize (text, strlen (text), flags, collect_token_cb, tokens);

  return tokens;
}

static void
add_weighted_group (LodeLexicalQuery  *lexical,
                    const char        *term,
                    char             **parts,
                    double             weight)
{
  LodeLexicalGroup *group = g_new0 (LodeLexicalGroup, 1);

  group->term = g_strdup (term);
  group->parts = parts;
  group->weight = weight;
  g_ptr_array_add (lexical->groups, group);
}

static void
add_group (LodeLexicalQuery  *lexical,
           const char        *term,
           char             **parts)
{
  add_weighted_group (lexical, term, parts, 1.0);
}

static LodeLexicalQuery *
finish_lexical (LodeLexicalQuery *lexical)
{
  if (lexical->groups->len > 0)
    return lexical;

  lode_lexical_query_free (lexical);
  return NULL;
}

static void
add_term (GPtrArray  *terms,
          const char *term)
{
  if (!g_ptr_array_find_with_equal_func (terms, term, g_str_equal, NULL))
    g_ptr_array_add (terms, g_strdup (term));
}

static char **
terms_to_strv (GPtrArray *terms)
{
  g_ptr_array_add (terms, NULL);
  return (char **) g_ptr_array_free (terms, FALSE);
}

/* `parseHttpRequest` → "parsehttprequest", or "parse", "http" and "request" anywhere in a
 * chunk (which also finds `parse_http_request`). A name that tokenizes into several
 * identifiers (`$a$b`) needs all of them. */
static void
plan_identifier (LodeQueryPlan *plan,
                 char          *query)
{
  g_autoptr(GArray) tokens = NULL;
  g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) components = g_ptr_array_new ();
  LodeLexicalQuery *lexical = _lode_lexical_query_new ();
  char *p = query;

  lexical->require_all = TRUE;

  /* The last component of a qualified name is the name; the one before it, its container. */
  g_ptr_array_add (components, p);
  while (*p != '\0')
    {
      guint sep = 0;

      if ((p[0] == ':' && p[1] == ':') || (p[0] == '-' && p[1] == '>'))
        sep = 2;
      else if (p[0] == '.' || p[0] == '#')
        sep = 1;

      if (sep == 0)
        {
          p++;
          continue;
        }

      *p = '\0';
      p += sep;
      g_ptr_array_add (components, p);
    }

  for (guint i = components->len; i > 0; i--)
    {
      const char *component = g_ptr_array_index (components, i - 1);

      if (*component == '\0')
        continue;
      if (plan->name == NULL)
        plan->name = g_strdup (component);
      else
        {
          plan->container = g_strdup (component);
          break;
        }
    }
  if (plan->name == NULL)
    plan->name = g_strdup (query);

  tokens = tokenize (plan->name, LODE_TOKENIZE_SPLIT);
  for (guint i = 0; i < tokens->len;)
    {
      Token *whole = &g_array_index (tokens, Token, i);
      guint n_parts = 0;
      char **parts = NULL;

      while (i + 1 + n_parts < tokens->len &&
             g_array_index (tokens, Token, i + 1 + n_parts).colocated)
        n_parts++;

      add_term (terms, whole->token);
      if (n_parts >= 2)
        {
          parts = g_new0 (char *, n_parts + 1);
          for (guint j = 0; j < n_parts; j++)
            {
              parts[j] = g_strdup (g_array_index (tokens, Token, i + 1 + j).token);
              add_term (terms, parts[j]);
            }
        }
      add_group (lexical, whole->token, parts);

      i += 1 + n_parts;
    }

  plan->lexical = finish_lexical (lexical);
  plan->terms = terms_to_strv (g_steal_pointer (&terms));
}

/* `src/cli/main.c` → "src", "cli" and "main" in the path, for paths that do not end with
 * the query; the searcher matches the ends of paths itself. */
static void
plan_path (LodeQueryPlan *plan,
           const char    *query)
{
  g_autoptr(GArray) tokens = tokenize (query, LODE_TOKENIZE_WHOLE);
  g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func (g_free);
  LodeLexicalQuery *lexical = _lode_lexical_query_new ();

  plan->path = g_strdup (query);
  lexical->require_all = TRUE;
  lexical->path_only = TRUE;

  for (guint i = 0; i < tokens->len; i++)
    {
      const char *token = g_array_index (tokens, Token, i).token;

      if (g_ptr_array_find_with_equal_func (terms, token, g_str_equal, NULL))
        continue;
      add_group (lexical, token, NULL);
      add_term (terms, token);
    }

  plan->lexical = finish_lexical (lexical);
  plan->terms = terms_to_strv (g_steal_pointer (&terms));
}

/* Crude English suffix stripping, for queries only: `parsing` also looks for `parse` and
 * `pars`, `files` for `file`, `verified` for `verify`. The index keeps words as written, so each variant is one more
 * exact term; variants that do not occur cost a failed b-tree look-up. */
static void
add_variants (GPtrArray  *terms,
              const char *word)
{
  gsize len = strlen (word);

  if (len < 5)
    return;
  for (const char *p = word; *p != '\0'; p++)
    if (!g_ascii_islower (*p))
      return;

  if (g_str_has_suffix (word, "ied"))
    {
      g_autofree char *stem = g_strndup (word, len - 3);
      g_autofree char *with_y = g_strconcat (stem, "y", NULL);

      add_term (terms, with_y);
    }
  else if (g_str_has_suffix (word, "ing") || g_str_has_suffix (word, "ed"))
    {
      gsize n = len - (g_str_has_suffix (word, "ing") ? 3 : 2);
      g_autofree char *stem = g_strndup (word, n);
      g_autofree char *with_e = g_strconcat (stem, "e", NULL);

      add_term (terms, stem);
      if (stem[n - 1] == stem[n - 2])
        {
          /* `mapped` → `map` */
          stem[n - 1] = '\0';
          add_term (terms, stem);
        }
      else
        add_term (terms, with_e);
    }
  else if (g_str_has_suffix (word, "ies"))
    {
      g_autofree char *stem = g_strndup (word, len - 3);
      g_autofree char *with_y = g_strconcat (stem, "y", NULL);

      add_term (terms, with_y);
    }
  else if (g_str_has_suffix (word, "es"))
    {
      g_autofree char *stem = g_strndup (word, len - 1);

      add_term (terms, stem);
      stem[len - 2] = '\0';
      add_term (terms, stem);
    }
  else if (g_str_has_suffix (word, "s") && !g_str_has_suffix (word, "ss"))
    {
      g_autofree char *stem = g_strndup (word, len - 1);

      add_term (terms, stem);
    }
}

/* @stem and @suffix, added to @forms. */
static void
add_form (GPtrArray  *forms,
          const char *stem,
          const char *suffix)
{
  g_autofree char *form = g_strconcat (stem, suffix, NULL);

  add_term (forms, form);
}

/* The other forms of a verb that a query writes as a participle, which code names use as
 * often: `matched` → `matching`, `matches` (`rule_matches ()`); `parsing` → `parsed`,
 * `parses`. Its base form is add_variants()'s. As the stem is a guess (`loaded` → `loads`,
 * `created` → `creates`), both third-person endings are tried, and the caller keeps only the
 * forms code is known to write (add_known_inflections()). A stem of fewer than four letters is most
 * likely no verb's (`string`, `during`). */
static void
add_inflections (GPtrArray  *forms,
                 const char *word)
{
  gsize len = strlen (word);
  const char *other;
  g_autofree char *stem = NULL;
  gsize n;

  for (const char *p = word; *p != '\0'; p++)
    if (!g_ascii_islower (*p))
      return;
  if (g_str_has_suffix (word, "ed") && !g_str_has_suffix (word, "ied"))
    {
      n = len - 2;
      other = "ing";
    }
  else if (g_str_has_suffix (word, "ing"))
    {
      n = len - 3;
      other = "ed";
    }
  else
    return;
  if (n < 4)
    return;

  stem = g_strndup (word, n);
  add_form (forms, stem, other);
  add_form (forms, stem, "es");
  /* `mapped` → `maps` */
  if (stem[n - 1] == stem[n - 2])
    stem[n - 1] = '\0';
  add_form (forms, stem, "s");
}

static int
compare_length_desc (gconstpointer a,
                     gconstpointer b)
{
  gsize la = strlen (*(const char *const *) a);
  gsize lb = strlen (*(const char *const *) b);

  return la < lb ? 1 : la > lb ? -1 : 0;
}

/* Byte ranges of @text that are code: `spans` and, with @fences, ```fenced blocks```. */
static GArray *
find_code_ranges (const char *text,
                  gboolean    fences)
{
  GArray *ranges = g_array_new (FALSE, FALSE, sizeof (gsize) * 2);
  const char *p = text;

  while ((p = strchr (p, '`')) != NULL)
    {
      gboolean fence = g_str_has_prefix (p, "```");
      const char *open = p + (fence ? 3 : 1);
      const char *close = fence ? strstr (open, "```") : strpbrk (open, "`\n");
      gsize range[2];

      if (close == NULL || (!fence && *close != '`'))
        {
          p = open;
          continue;
        }
      range[0] = open - text;
      range[1] = close - text;
      if (fences || !fence)
        g_array_append_vals (ranges, range, 1);
      p = close + (fence ? 3 : 1);
    }

  return ranges;
}

static gboolean
in_ranges (GArray *ranges,
           gsize   offset)
{
  for (guint i = 0; i < ranges->len; i++)
    {
      const gsize *range = &g_array_index (ranges, gsize, 2 * i);

      if (offset >= range[0] && offset < range[1])
        return TRUE;
    }

  return FALSE;
}

static GRegex *
get_regex (GRegex             **regex,
           const char          *pattern,
           GRegexCompileFlags   flags)
{
  if (g_once_init_enter (regex))
    {
      g_autoptr(GError) error = NULL;
      GRegex *compiled = g_regex_new (pattern, flags | G_REGEX_OPTIMIZE, 0, &error);

      g_assert_no_error (error);
      g_once_init_leave (regex, compiled);
    }

  return *regex;
}

/* Text of a pasted issue that names no code: links, addresses, handles, versions, hashes,
 * long numbers. Each match becomes a space, so that the words on either side stay apart.
 * Repeats are bounded where a long run of word characters could make a match attempt at
 * every position walk the rest of the run. */
static const char noise_pattern[] =
  "!\\[[^\\]\\n]*\\]\\([^)\\s]*\\)"                           /* a markdown image */
  "|\\]\\([^)\\s]*\\)"                                        /* a markdown link's target */
  "|\\b(?:https?|ftp|file)://[^\\s<>\"'`)\\]]+"               /* a URL */
  "|\\bwww\\.[^\\s<>\"'`)\\]]+"
  "|\\b[\\w.+-]{1,64}@[\\w-]{1,63}(?:\\.[\\w-]{1,63}){1,8}"     /* an e-mail address */
  "|\\b[\\w-]{1,63}(?:\\.[\\w-]{1,63}){0,8}\\.(?:com|org|net|io|dev|edu|gov)\\b"
                                                                /* a host name */
  "|(?<![\\w@.])@[A-Za-z0-9][\\w-]*"                          /* an @handle */
  "|\\bv?\\d+(?:\\.\\d+){1,3}(?:[-+][\\w.]*)?\\b"             /* a version */
  "|\\b(?=[0-9a-f]*[0-9])(?=[0-9a-f]*[a-f])[0-9a-f]{7,64}\\b" /* a hash */
  "|\\b\\d{5,}\\b";                                           /* a long number */

/* Headings and prompts of the usual issue templates: they say what kind of text follows,
 * nothing about the code. A line that holds nothing else goes. */
static const char heading_pattern[] =
  "^[\\s#>*_-]*(?:"
  "describe the bug|bug description|bug report|describe the issue|issue description"
  "|(?:steps|how) to reproduce(?: the behaviou?r)?|to reproduce|reproduction(?: steps)?"
  "|minimal reproducible example|code to reproduce"
  "|expected behaviou?r|expected results?|expected outcome"
  "|actual behaviou?r|actual results?|actual outcome|current behaviou?r"
  "|environment(?: info(?:rmation)?)?|system info(?:rmation)?|your environment|versions?"
  "|additional (?:context|information|notes)|screenshots?|logs?|output|error output"
  "|possible solution|proposed solution|motivation|summary|description|context"
  "|is your feature request related to a problem\\?" "?(?: please describe\\.?)?"
  "|describe the solution you'd like|describe alternatives you've considered"
  "|please complete the following information"
  ")[\\s*_:.]*$";

static gboolean
replace_noise_cb (const GMatchInfo *info,
                  GString          *out,
                  gpointer          user_data)
{
  GArray *code = user_data;
  g_autofree char *match = g_match_info_fetch (info, 0);
  int start = 0;

  g_match_info_fetch_pos (info, 0, &start, NULL);
  /* In code an @ starts a name: `@Override`, `@property`. */
  if (match[0] == '@' && in_ranges (code, start))
    g_string_append (out, match);
  else
    g_string_append_c (out, ' ');

  return FALSE;
}

/* @text without the noise of an issue template (see noise_pattern, heading_pattern). */
static char *
strip_noise (const char *text)
{
  static GRegex *noise, *headings;
  g_autoptr(GArray) code = find_code_ranges (text, TRUE);
  g_autofree char *plain = NULL;
  char *stripped;

  plain = g_regex_replace_eval (get_regex (&noise, noise_pattern, 0), text, -1, 0, 0,
                                replace_noise_cb, code, NULL);
  if (plain == NULL)
    plain = g_strdup (text);
  stripped = g_regex_replace_literal (get_regex (&headings, heading_pattern,
                                                 G_REGEX_CASELESS | G_REGEX_MULTILINE),
                                      plain, -1, 0, "", 0, NULL);

  return stripped != NULL ? stripped : g_steal_pointer (&plain);
}

static void
add_code_words (GHashTable *code,
                const char *text,
                gsize       len)
{
  g_autofree char *copy = g_strndup (text, len);
  g_autoptr(GArray) tokens = tokenize (copy, LODE_TOKENIZE_SPLIT);

  for (guint i = 0; i < tokens->len; i++)
    g_hash_table_add (code, g_strdup (g_array_index (tokens, Token, i).token));
}

/* A frame's file (`…/ext/autodoc/__init__.py` → autodoc, init) or class (`a.b.json.Parser` →
 * json, parser) by its last two components: the leading ones are usually where it was
 * installed (`/usr/lib/python3/site-packages`) or the vendor's domain. */
static void
add_frame_path (GHashTable *code,
                const char *path,
                gsize       len,
                gboolean    is_file)
{
  g_autofree char *copy = g_strndup (path, len);
  g_auto(GStrv) parts = NULL;
  char *base = copy;
  char *dot;
  guint n;

  for (char *p = copy; *p != '\0'; p++)
    if (*p == '/' || *p == '\\')
      base = p + 1;
  dot = strrchr (base, '.');
  if (is_file && dot != NULL && dot != base)
    *dot = '\0';
  g_strdelimit (copy, "\\.", '/');
  parts = g_strsplit (copy, "/", -1);
  n = g_strv_length (parts);
  for (guint i = n > 2 ? n - 2 : 0; i < n; i++)
    add_code_words (code, parts[i], strlen (parts[i]));
}

/* Traceback frames: Python's `File "x.py", line 12, in func`, and the JVM's
 * `at a.b.C.method(C.java:12)`. */
static const char frame_pattern[] =
  "File \"([^\"\\n]+)\", line \\d+(?:, in ([\\w<>.]+))?"
  "|\\bat ((?:[\\w$]+\\.)*[\\w$]+)\\.([\\w$<>]+)\\([\\w$]+\\.(?:java|kt|scala|groovy):\\d+\\)";

/* Words that are surely code: compound identifiers (`post_refund`, `parseHttpRequest`, a
 * path's `lode-store`), whatever stands in backticks, and the files and functions of
 * traceback frames, which also go to @lead (see find_title_words). An issue is mostly prose;
 * these are its strong signals. A fenced block counts only for its compound identifiers: it
 * is often a shell session or a log, whose plain words (`cd`, `install`, `checkout`) say
 * nothing about the project. */
static GHashTable *
find_code_words (const char *text,
                 GArray     *tokens,
                 GHashTable *lead)
{
  static GRegex *frames;
  GHashTable *code = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GArray) spans = find_code_ranges (text, FALSE);
  g_autoptr(GMatchInfo) info = NULL;

  for (guint i = 0; i < tokens->len; i++)
    {
      const Token *t = &g_array_index (tokens, Token, i);
      guint n_parts = 0;

      if (t->colocated)
        continue;
      while (i + 1 + n_parts < tokens->len &&
             g_array_index (tokens, Token, i + 1 + n_parts).colocated)
        n_parts++;
      if (n_parts >= 2 || in_ranges (spans, t->start))
        g_hash_table_add (code, g_strdup (t->token));
    }

  g_regex_match (get_regex (&frames, frame_pattern, 0), text, 0, &info);
  for (; g_match_info_matches (info); g_match_info_next (info, NULL))
    for (int n = 1; n <= 4; n++)
      {
        int start, end;

        if (!g_match_info_fetch_pos (info, n, &start, &end) || start < 0 || end <= start)
          continue;
        /* The file of a Python frame, the class of a JVM frame; their functions. */
        if (n == 1 || n == 3)
          {
            add_frame_path (code, text + start, end - start, n == 1);
            add_frame_path (lead, text + start, end - start, n == 1);
          }
        else
          {
            add_code_words (code, text + start, end - start);
            add_code_words (lead, text + start, end - start);
          }
      }

  return code;
}

/**
 * lode_search_dup_title:
 * @query: a query
 *
 * The title of an issue pasted whole ("Crash when the config has no [core] section\n
 * **Describe the bug**…"): its first line, when that is short and more text follows. The
 * title is the reporter's summary; the body repeats it with steps, logs and asides, so the
 * title's words count %LODE_SEARCH_TITLE_WEIGHT times the body's.
 *
 * Returns: (transfer full) (nullable): the title, or %NULL when @query has none
 */
char *
lode_search_dup_title (const char *query)
{
  const char *end;

  g_return_val_if_fail (query != NULL, NULL);

  end = strchr (query, '\n');
  if (end == NULL || end - query > TITLE_MAX_BYTES || end[strspn (end, " \t\r\n")] == '\0')
    return NULL;
  return g_strndup (query, end - query);
}

/* The words of a query's title (lode_search_dup_title()), added to @lead. Traceback frames,
 * what the program itself says, lead as much (find_code_words): these words count
 * LODE_SEARCH_TITLE_WEIGHT times. On the development set and its reserve, 3 ranks the files
 * that were changed better than 1.5, 2 or 5. */
static void
find_title_words (const char *query,
                  GHashTable *lead)
{
  g_autofree char *line = lode_search_dup_title (query);
  g_autoptr(GArray) tokens = NULL;

  if (line == NULL)
    return;

  tokens = tokenize (line, LODE_TOKENIZE_SPLIT);
  for (guint i = 0; i < tokens->len; i++)
    g_hash_table_add (lead, g_strdup (g_array_index (tokens, Token, i).token));
}

typedef struct
{
  char   *word;
  guint   n;        /* how often the query holds it */
  double  weight;   /* see word_weight() */
  double  rank;     /* for select_rare_words */
} Word;

static void
word_clear (Word *word)
{
  g_free (word->word);
}

static int
compare_rank_desc (gconstpointer a,
                   gconstpointer b)
{
  const Word *x = a;
  const Word *y = b;

  return x->rank < y->rank ? 1 : x->rank > y->rank ? -1 : strcmp (x->word, y->word);
}

/* Keeps the ISSUE_MAX_WORDS words of @words that say most: weight × IDF in the project ×
 * (1 + ln repeats), a word the issue keeps coming back to being what it is about. Words no
 * chunk holds go. @selected stays FALSE (and @words untouched) when the backend has no
 * statistics. */
static gboolean
select_rare_words (GArray             *words,
                   LodeSearchBackend  *backend,
                   gboolean           *selected,
                   GError            **error)
{
  g_autofree const char **terms = g_new (const char *, words->len);
  g_autofree guint *counts = g_new0 (guint, words->len);
  guint n_chunks = 0;

  for (guint i = 0; i < words->len; i++)
    terms[i] = g_array_index (words, Word, i).word;
  if (!lode_search_backend_doc_frequencies (backend, terms, words->len, counts, &n_chunks,
                                            error))
    return FALSE;
  if (n_chunks == 0)
    return TRUE;

  for (guint i = 0; i < words->len; i++)
    {
      Word *w = &g_array_index (words, Word, i);
      double df = counts[i];

      w->rank = counts[i] == 0 ? -1.0
                : w->weight * (1.0 + log (w->n)) *
                  MAX (1e-6, log ((n_chunks - df + 0.5) / (df + 0.5)));
    }
  g_array_sort (words, compare_rank_desc);
  while (words->len > 0 && g_array_index (words, Word, words->len - 1).rank < 0.0)
    g_array_set_size (words, words->len - 1);
  if (words->len > ISSUE_MAX_WORDS)
    g_array_set_size (words, ISSUE_MAX_WORDS);
  *selected = TRUE;

  return TRUE;
}

/* Without the project's statistics: the NATURAL_MAX_TERMS longest words, as longer words
 * are usually rarer. */
static void
keep_longest_words (GArray *words)
{
  g_autoptr(GPtrArray) by_length = g_ptr_array_new ();
  g_autoptr(GHashTable) keep = g_hash_table_new (g_str_hash, g_str_equal);

  for (guint i = 0; i < words->len; i++)
    g_ptr_array_add (by_length, g_array_index (words, Word, i).word);
  g_ptr_array_sort (by_length, compare_length_desc);
  for (guint i = 0; i < NATURAL_MAX_TERMS; i++)
    g_hash_table_add (keep, g_ptr_array_index (by_length, i));
  for (guint i = words->len; i > 0; i--)
    if (!g_hash_table_contains (keep, g_array_index (words, Word, i - 1).word))
      g_array_remove_index (words, i - 1);
}

/* Code words count CODE_WORD_WEIGHT times a prose word, the title's and frames' words
 * LODE_SEARCH_TITLE_WEIGHT times; a word of both, both. */
static double
word_weight (GHashTable *code,
             GHashTable *lead,
             const char *word)
{
  return (g_hash_table_contains (code, word) ? CODE_WORD_WEIGHT : 1.0) *
         (g_hash_table_contains (lead, word) ? LODE_SEARCH_TITLE_WEIGHT : 1.0);
}

/* The inflections of @words (add_inflections()) that the code lexicon knows, added to @terms
 * while they are fewer than NATURAL_MAX_PHRASES. The lexicon, not the index: every store
 * widens a question alike (the Qdrant store has no document frequencies), and a guess no
 * code writes (`matchs`) would only weigh on the query's weight. */
static void
add_known_inflections (GPtrArray *terms,
                       GArray    *words)
{
  g_autoptr(GPtrArray) forms = g_ptr_array_new_with_free_func (g_free);
  LodeLexicon *lexicon;

  for (guint i = 0; i < words->len; i++)
    add_inflections (forms, g_array_index (words, Word, i).word);
  if (forms->len == 0 || (lexicon = lode_lexicon_get_default ()) == NULL)
    return;

  for (guint i = 0; i < forms->len && terms->len < NATURAL_MAX_PHRASES; i++)
    if (lode_lexicon_contains (lexicon, g_ptr_array_index (forms, i)))
      add_term (terms, g_ptr_array_index (forms, i));
}

/* Several words → any of them; BM25 ranks chunks that hold more of them, and rarer ones,
 * higher; words that are surely code count CODE_WORD_WEIGHT times. A long query (a pasted
 * issue) loses its template noise first and keeps only its ISSUE_MAX_WORDS strongest words:
 * each term is one walk of its list of rows, so fewer terms are faster, and the rare ones
 * carry the ranking anyway. */
static gboolean
plan_natural (LodeQueryPlan      *plan,
              const char         *query,
              LodeSearchBackend  *backend,
              GError            **error)
{
  g_autofree char *clean = strip_noise (query);
  g_autoptr(GArray) tokens = tokenize (clean, LODE_TOKENIZE_SPLIT);
  g_autoptr(GArray) words = g_array_new (FALSE, FALSE, sizeof (Word));
  g_autoptr(GHashTable) seen = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(GHashTable) lead = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_autoptr(GHashTable) code = find_code_words (clean, tokens, lead);
  g_autoptr(GPtrArray) terms = g_ptr_array_new_with_free_func (g_free);
  LodeLexicalQuery *lexical;
  GHashTable *stop = get_stop_words ();
  gboolean only_stop = TRUE;
  gboolean selected = FALSE;

  g_array_set_clear_func (words, (GDestroyNotify) word_clear);
  find_title_words (query, lead);

  for (guint i = 0; i < tokens->len && only_stop; i++)
    if (!g_hash_table_contains (stop, g_array_index (tokens, Token, i).token))
      only_stop = FALSE;

  /* Distinct words in order, with how often each occurs. A query made only of stop words
   * still means something. */
  for (guint i = 0; i < tokens->len; i++)
    {
      const char *token = g_array_index (tokens, Token, i).token;
      gpointer index;

      if (!only_stop && g_hash_table_contains (stop, token))
        continue;
      if (g_hash_table_lookup_extended (seen, token, NULL, &index))
        {
          g_array_index (words, Word, GPOINTER_TO_UINT (index)).n++;
          continue;
        }
      g_hash_table_insert (seen, (gpointer) token, GUINT_TO_POINTER (words->len));
      g_array_append_val (words, ((Word) {
        g_strdup (token), 1, word_weight (code, lead, token), 0.0
      }));
    }

  if (words->len > ISSUE_MAX_WORDS && backend != NULL &&
      !select_rare_words (words, backend, &selected, error))
    return FALSE;
  if (!selected && words->len > NATURAL_MAX_TERMS)
    keep_longest_words (words);

  for (guint i = 0; i < words->len; i++)
    add_term (terms, g_array_index (words, Word, i).word);
  for (guint i = 0; i < words->len && terms->len < NATURAL_MAX_PHRASES; i++)
    add_variants (terms, g_array_index (words, Word, i).word);
  add_known_inflections (terms, words);
  if (terms->len > NATURAL_MAX_PHRASES)
    g_ptr_array_set_size (terms, NATURAL_MAX_PHRASES);

  lexical = _lode_lexical_query_new ();
  for (guint i = 0; i < terms->len; i++)
    {
      const char *term = g_ptr_array_index (terms, i);

      add_weighted_group (lexical, term, NULL, word_weight (code, lead, term));
    }

  plan->lexical = finish_lexical (lexical);
  plan->terms = terms_to_strv (g_steal_pointer (&terms));
  plan->question = g_hash_table_size (code) == 0 && words->len <= QUESTION_MAX_WORDS &&
                   strlen (query) <= QUESTION_MAX_BYTES && strchr (query, '\n') == NULL;
  plan->words = g_new0 (char *, words->len + 1);
  plan->repeats = g_new0 (guint, words->len + 1);
  for (guint i = 0; i < words->len; i++)
    {
      plan->words[i] = g_strdup (g_array_index (words, Word, i).word);
      plan->repeats[i] = g_array_index (words, Word, i).n;
    }
  return TRUE;
}

LodeQueryPlan *
_lode_query_plan_new (const char         *query,
                      LodeSearchBackend  *backend,
                      GError            **error)
{
  g_autoptr(LodeQueryPlan) plan = g_new0 (LodeQueryPlan, 1);
  g_autofree char *stripped = NULL;

  g_assert (query != NULL);

  stripped = strip_query (query);
  strip_call_parens (stripped);
  plan->kind = classify_stripped (stripped);

  switch (plan->kind)
    {
    case LODE_QUERY_IDENTIFIER:
      plan_identifier (plan, stripped);
      break;
    case LODE_QUERY_PATH:
      plan_path (plan, stripped);
      break;
    case LODE_QUERY_NATURAL:
    default:
      if (!plan_natural (plan, stripped, backend, error))
        return NULL;
      break;
    }

  return g_steal_pointer (&plan);
}

void
_lode_query_plan_free (LodeQueryPlan *plan)
{
  if (plan == NULL)
    return;

  lode_lexical_query_free (plan->lexical);
  g_strfreev (plan->terms);
  g_strfreev (plan->words);
  g_free (plan->repeats);
  g_free (plan->name);
  g_free (plan->container);
  g_free (plan->path);
  g_free (plan);
}

/* Start of the first line of @body at or after @from that holds one of @terms (compared
 * ignoring ASCII case), or @from itself. */
static const char *
first_matching_line (const char         *body,
                     const char         *from,
                     const char *const  *terms)
{
  g_autofree char *lower = g_ascii_strdown (from, -1);
  const char *first = NULL;

  for (guint i = 0; terms != NULL && terms[i] != NULL; i++)
    {
      const char *hit = strstr (lower, terms[i]);

      if (hit != NULL && (first == NULL || hit < first))
        first = hit;
    }

  if (first == NULL)
    return from;

  while (first > lower && first[-1] != '\n')
    first--;

  return from + (first - lower);
}

/* The start of line @line (0-based) of @text, or its end. */
static const char *
line_start (const char *text,
            guint       line)
{
  for (; line > 0 && *text != '\0'; text++)
    if (*text == '\n')
      line--;

  return text;
}

/* A bounded excerpt of @body: at most LODE_SNIPPET_MAX_LINES lines and
 * LODE_SNIPPET_MAX_BYTES bytes, starting at the first line from line @from_line (0-based)
 * on that holds a query term, cut at a line end when one is in reach and always at a
 * character boundary; valid UTF-8. *@first_line is the line it starts at, 0-based. */
char *
_lode_search_snippet (const char        *body,
                      const char *const *terms,
                      guint              from_line,
                      guint             *first_line)
{
  const char *start;
  const char *p;
  const char *cut;
  guint n_lines = 0;
  gsize n;
  g_autofree char *raw = NULL;

  *first_line = 0;
  if (body == NULL)
    return g_strdup ("");

  start = first_matching_line (body, line_start (body, from_line), terms);
  for (p = body; p < start; p++)
    *first_line += *p == '\n';

  p = start;
  while (*p != '\0' && p - start < LODE_SNIPPET_MAX_BYTES)
    {
      if (*p == '\n' && ++n_lines == LODE_SNIPPET_MAX_LINES)
        break;
      p++;
    }

  cut = p;
  if (*p != '\0' && *p != '\n')
    {
      /* Over the byte budget in the middle of a line: end at the previous line, unless this
       * is the first one. */
      const char *nl = p;

      while (nl > start && *nl != '\n')
        nl--;
      if (nl > start)
        cut = nl;
      else
        {
          while (cut > start && ((guchar) *cut & 0xC0) == 0x80)
            cut--;
        }
    }

  n = cut - start;
  while (n > 0 && (start[n - 1] == '\n' || start[n - 1] == '\r'))
    n--;

  raw = g_strndup (start, n);

  return g_utf8_make_valid (raw, -1);
}

/* Where the query terms are in a text: see LodeTermLines. */
void
_lode_term_lines_init (LodeTermLines      *tl,
                       const char         *body,
                       const char *const  *terms)
{
  g_autofree char *lower = g_ascii_strdown (body, -1);
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  g_autofree guint *row = NULL;
  GArray *counts = g_array_new (FALSE, FALSE, sizeof (guint));
  gsize zero = 0;

  g_array_append_val (starts, zero);
  for (const char *p = lower; *p != '\0'; p++)
    if (*p == '\n')
      {
        gsize next = p - lower + 1;

        g_array_append_val (starts, next);
      }
  tl->n_lines = starts->len;
  tl->n_terms = 0;
  row = g_new (guint, tl->n_lines + 1);

  for (guint t = 0; terms != NULL && terms[t] != NULL; t++)
    {
      const char *term = terms[t];
      guint line = 0;
      gboolean found = FALSE;

      /* A term never spans lines; the empty term is in every line. */
      if (strchr (term, '\n') != NULL)
        continue;
      memset (row, 0, sizeof (guint) * (tl->n_lines + 1));
      if (term[0] == '\0')
        {
          for (guint l = 0; l < tl->n_lines; l++)
            row[l + 1] = 1;
          found = TRUE;
        }
      else
        for (const char *hit = strstr (lower, term); hit != NULL; )
          {
            gsize offset = hit - lower;

            while (line + 1 < tl->n_lines && g_array_index (starts, gsize, line + 1) <= offset)
              line++;
            row[line + 1] = 1;
            found = TRUE;
            if (line + 1 == tl->n_lines)
              break;
            /* One hit per line is enough: go on from the next line. */
            hit = strstr (lower + g_array_index (starts, gsize, line + 1), term);
          }
      if (!found)
        continue;
      for (guint l = 0; l < tl->n_lines; l++)
        row[l + 1] += row[l];
      g_array_append_vals (counts, row, tl->n_lines + 1);
      tl->n_terms++;
    }

  tl->counts = (guint *) (void *) g_array_free (counts, FALSE);
}

/* How many of the terms lines @first … @last (0-based) hold. */
guint
_lode_term_lines_count (const LodeTermLines *tl,
                        guint                first,
                        guint                last)
{
  guint n = 0;

  if (first >= tl->n_lines)
    return 0;
  last = MIN (last, tl->n_lines - 1);
  if (last < first)
    return 0;
  for (guint t = 0; t < tl->n_terms; t++)
    {
      const guint *row = tl->counts + (gsize) t * (tl->n_lines + 1);

      n += row[last + 1] > row[first];
    }

  return n;
}

void
_lode_term_lines_clear (LodeTermLines *tl)
{
  g_clear_pointer (&tl->counts, g_free);
}
