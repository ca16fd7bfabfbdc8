/* lode-language.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-language"

#include "config.h"

#include <string.h>

#include "lode-error.h"
#include "lode-language.h"
#include "lode-resources.h"

/* The grammars compiled into liblode (see src/liblode/meson.build). */
const TSLanguage *tree_sitter_bash (void);
const TSLanguage *tree_sitter_c (void);
const TSLanguage *tree_sitter_c_sharp (void);
const TSLanguage *tree_sitter_cpp (void);
const TSLanguage *tree_sitter_go (void);
const TSLanguage *tree_sitter_java (void);
const TSLanguage *tree_sitter_javascript (void);
const TSLanguage *tree_sitter_kotlin (void);
const TSLanguage *tree_sitter_lua (void);
const TSLanguage *tree_sitter_php (void);
const TSLanguage *tree_sitter_python (void);
const TSLanguage *tree_sitter_ruby (void);
const TSLanguage *tree_sitter_rust (void);
const TSLanguage *tree_sitter_scala (void);
const TSLanguage *tree_sitter_swift (void);
const TSLanguage *tree_sitter_tsx (void);
const TSLanguage *tree_sitter_typescript (void);

static const LodeLanguage languages[] = {
  { "bash",       "Bash",       tree_sitter_bash },
  { "c",          "C",          tree_sitter_c },
  { "cpp",        "C++",        tree_sitter_cpp },
  { "csharp",     "C#",         tree_sitter_c_sharp },
  { "go",         "Go",         tree_sitter_go },
  { "java",       "Java",       tree_sitter_java },
  { "javascript", "JavaScript", tree_sitter_javascript },
  { "kotlin",     "Kotlin",     tree_sitter_kotlin },
  { "lua",        "Lua",        tree_sitter_lua },
  { "php",        "PHP",        tree_sitter_php },
  { "python",     "Python",     tree_sitter_python },
  { "ruby",       "Ruby",       tree_sitter_ruby },
  { "rust",       "Rust",       tree_sitter_rust },
  { "scala",      "Scala",      tree_sitter_scala },
  { "swift",      "Swift",      tree_sitter_swift },
  { "tsx",        "TSX",        tree_sitter_tsx },
  { "typescript", "TypeScript", tree_sitter_typescript },
  /* Chunked by structure (headings, sections, top-level keys) or by lines. */
  { "css",        "CSS",        NULL },
  { "dart",       "Dart",       NULL },
  { "html",       "HTML",       NULL },
  { "json",       "JSON",       NULL },
  { "markdown",   "Markdown",   NULL },
  { "toml",       "TOML",       NULL },
  { "yaml",       "YAML",       NULL },
  { "text",       "Text",       NULL },
};

static const struct {
  const char *suffix;
  const char *id;
} suffixes[] = {
  { ".sh", "bash" }, { ".bash", "bash" }, { ".zsh", "bash" }, { ".ksh", "bash" },
  { ".c", "c" }, { ".h", "c" },
  { ".cc", "cpp" }, { ".cpp", "cpp" }, { ".cxx", "cpp" }, { ".c++", "cpp" }, { ".hh", "cpp" },
  { ".hpp", "cpp" }, { ".hxx", "cpp" }, { ".h++", "cpp" }, { ".ipp", "cpp" }, { ".tpp", "cpp" },
  { ".inl", "cpp" }, { ".cu", "cpp" },
  { ".cs", "csharp" },
  { ".dart", "dart" },
  { ".go", "go" },
  { ".java", "java" },
  { ".js", "javascript" }, { ".mjs", "javascript" }, { ".cjs", "javascript" },
  { ".jsx", "javascript" },
  { ".kt", "kotlin" }, { ".kts", "kotlin" },
  { ".lua", "lua" },
  { ".php", "php" }, { ".phtml", "php" },
  { ".py", "python" }, { ".pyi", "python" }, { ".pyw", "python" },
  { ".rb", "ruby" }, { ".rake", "ruby" }, { ".gemspec", "ruby" },
  { ".rs", "rust" },
  { ".scala", "scala" }, { ".sc", "scala" }, { ".sbt", "scala" },
  { ".swift", "swift" },
  { ".tsx", "tsx" },
  { ".ts", "typescript" }, { ".mts", "typescript" }, { ".cts", "typescript" },
  { ".css", "css" }, { ".scss", "css" }, { ".less", "css" },
  { ".html", "html" }, { ".htm", "html" }, { ".xhtml", "html" }, { ".vue", "html" },
  { ".svelte", "html" },
  { ".json", "json" }, { ".jsonc", "json" }, { ".json5", "json" },
  { ".md", "markdown" }, { ".markdown", "markdown" }, { ".mdx", "markdown" },
  { ".toml", "toml" },
  { ".yaml", "yaml" }, { ".yml", "yaml" },
};

static const struct {
  const char *basename;
  const char *id;
} basenames[] = {
  { "Gemfile", "ruby" }, { "Rakefile", "ruby" }, { "Podfile", "ruby" }, { "Vagrantfile", "ruby" },
  { ".bashrc", "bash" }, { ".bash_profile", "bash" }, { ".profile", "bash" }, { ".zshrc", "bash" },
  { "PKGBUILD", "bash" }, { "Cargo.lock", "toml" }, { "Pipfile", "toml" },
};

/* Extra suffixes from the `extra-extensions` setting; filled before indexing starts. */
static GHashTable *extra_suffixes;
G_LOCK_DEFINE_STATIC (extra_suffixes);

const LodeLanguage *
lode_language_lookup (const char *id)
{
  g_return_val_if_fail (id != NULL, NULL);

  for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
    if (strcmp (languages[i].id, id) == 0)
      return &languages[i];

  return NULL;
}

const LodeLanguage **
lode_language_get_all (guint *n_languages)
{
  static const LodeLanguage *all[G_N_ELEMENTS (languages) + 1];

  if (all[0] == NULL)
    for (guint i = 0; i < G_N_ELEMENTS (languages); i++)
      all[i] = &languages[i];

  if (n_languages != NULL)
    *n_languages = G_N_ELEMENTS (languages);

  return all;
}

static gboolean
has_suffix_ascii_nocase (const char *str,
                         gsize       len,
                         const char *suffix)
{
  gsize suffix_len = strlen (suffix);

  return len >= suffix_len && g_ascii_strcasecmp (str + len - suffix_len, suffix) == 0;
}

/**
 * lode_language_for_path:
 * @path: a file path (only its base name is looked at)
 *
 * Returns: (transfer none): the language of @path; the plain "text" language when its name
 *   says nothing more.
 */
const LodeLanguage *
lode_language_for_path (const char *path)
{
  const char *base;
  const char *dot;
  gsize len;

  g_return_val_if_fail (path != NULL, NULL);

  base = strrchr (path, '/');
  base = base != NULL ? base + 1 : path;
  len = strlen (base);

  for (guint i = 0; i < G_N_ELEMENTS (basenames); i++)
    if (strcmp (base, basenames[i].basename) == 0)
      return lode_language_lookup (basenames[i].id);

  dot = strrchr (base, '.');
  if (dot != NULL && extra_suffixes != NULL)
    {
      const char *id;

      G_LOCK (extra_suffixes);
      id = g_hash_table_lookup (extra_suffixes, dot);
      G_UNLOCK (extra_suffixes);
      if (id != NULL)
        return lode_language_lookup (id);
    }

  for (guint i = 0; i < G_N_ELEMENTS (suffixes); i++)
    if (has_suffix_ascii_nocase (base, len, suffixes[i].suffix))
      return lode_language_lookup (suffixes[i].id);

  return lode_language_lookup ("text");
}

/* Length of the identifier at @p (ASCII letters, digits, '_'), bounded by @end. */
static gsize
identifier_len (const char *p,
                const char *end)
{
  const char *q = p;

  if (q < end && (g_ascii_isalpha (*q) || *q == '_'))
    while (q < end && (g_ascii_isalnum (*q) || *q == '_'))
      q++;

  return q - p;
}

static gboolean
has_word_prefix (const char *p,
                 const char *end,
                 const char *word)
{
  gsize n = strlen (word);

  return (gsize) (end - p) >= n && memcmp (p, word, n) == 0;
}

/* One line of a header, leading blanks already skipped: does it use a construct that C
 * does not have? Only line-initial forms are looked at, so that prose in comments
 * ("this class of …") does not count. */
static gboolean
line_is_cplusplus (const char *p,
                   const char *end)
{
  gsize n;

  if (has_word_prefix (p, end, "template<") || has_word_prefix (p, end, "template <"))
    return TRUE;
  if (has_word_prefix (p, end, "public:") || has_word_prefix (p, end, "private:") ||
      has_word_prefix (p, end, "protected:"))
    return TRUE;

  if (has_word_prefix (p, end, "namespace "))
    {
      p += strlen ("namespace ");
      while (p < end && *p == ' ')
        p++;
      return p < end && (*p == '{' || identifier_len (p, end) > 0);
    }

  if (has_word_prefix (p, end, "class "))
    {
      p += strlen ("class ");
      while (p < end && *p == ' ')
        p++;
      n = identifier_len (p, end);
      if (n == 0)
        return FALSE;
      p += n;
      while (p < end && (*p == ' ' || *p == '\t' || *p == '\r'))
        p++;
      /* `class X {`, `class X : public Y`, `class X final`, `class X;` or the brace on the
       * next line. */
      return p == end || *p == '{' || *p == ':' || *p == ';' || has_word_prefix (p, end, "final");
    }

  return FALSE;
}

static gboolean
header_is_cplusplus (const char *text,
                     gsize       len)
{
  const char *end = text + MIN (len, 16 * 1024);
  const char *p = text;

  while (p < end)
    {
      const char *eol = memchr (p, '\n', end - p);

      if (eol == NULL)
        eol = end;
      while (p < eol && (*p == ' ' || *p == '\t'))
        p++;
      if (line_is_cplusplus (p, eol))
        return TRUE;
      p = eol + 1;
    }

  return FALSE;
}

/* Whether @word (of @len bytes) names @name, with a version after it or not (python3,
 * tclsh8.6), but not another name that merely starts alike (shellcheck, node-gyp). */
static gboolean
is_interpreter (const char *word,
                gsize       len,
                const char *name)
{
  gsize n = strlen (name);

  if (len < n || memcmp (word, name, n) != 0)
    return FALSE;
  for (; n < len; n++)
    if (!g_ascii_isdigit (word[n]) && word[n] != '.')
      return FALSE;
  return TRUE;
}

static const LodeLanguage *
language_for_shebang (const char *text,
                      gsize       len)
{
  static const struct {
    const char *prefix;
    const char *id;
  } interpreters[] = {
    { "bash", "bash" }, { "sh", "bash" }, { "dash", "bash" }, { "zsh", "bash" },
    { "ksh", "bash" }, { "ash", "bash" }, { "mksh", "bash" },
    { "python", "python" }, { "pypy", "python" },
    { "ruby", "ruby" }, { "jruby", "ruby" },
    { "lua", "lua" }, { "luajit", "lua" },
    { "node", "javascript" }, { "nodejs", "javascript" }, { "deno", "javascript" },
    { "bun", "javascript" },
    { "php", "php" },
  };
  const char *end;
  const char *eol;
  const char *p;
  const char *word;
  gsize word_len = 0;

  if (len < 2 || text[0] != '#' || text[1] != '!')
    return NULL;

  end = text + MIN (len, 256);
  eol = memchr (text, '\n', end - text);
  if (eol == NULL)
    eol = end;

  /* The interpreter is the base name of the first word, or for `/usr/bin/env [-S] NAME` the
   * first word that is not an option or an assignment. */
  p = text + 2;
  for (;;)
    {
      const char *slash;

      while (p < eol && (*p == ' ' || *p == '\t'))
        p++;
      word = p;
      while (p < eol && *p != ' ' && *p != '\t' && *p != '\r')
        p++;
      word_len = p - word;
      if (word_len == 0)
        return NULL;

      slash = g_strrstr_len (word, word_len, "/");
      if (slash != NULL)
        {
          word_len -= slash + 1 - word;
          word = slash + 1;
        }

      if (!(word_len == 3 && memcmp (word, "env", 3) == 0) && word[0] != '-' &&
          memchr (word, '=', word_len) == NULL)
        break;
    }

  for (guint i = 0; i < G_N_ELEMENTS (interpreters); i++)
    if (is_interpreter (word, word_len, interpreters[i].prefix))
      return lode_language_lookup (interpreters[i].id);

  return NULL;
}

/* Whether a shell script hands itself to a Tcl interpreter the way Tcl programs start
 * (gitk, git-gui): a comment ending in a backslash, which the shell ends at the line's end
 * but Tcl continues onto the next lines, and on those lines `exec wish "$0"` (or tclsh,
 * expect), which the shell runs and Tcl skips. Such a file is Tcl, not shell: parsed as
 * shell it gives no definitions, and gitk's 400 kB took four times a shell script's time. */
static gboolean
hands_over_to_tcl (const char *text,
                   gsize       len)
{
  static const char * const tcl[] = { "wish", "tclsh", "expect", "jimsh" };
  const char *end = text + MIN (len, 2048);
  const char *p = memchr (text, '\n', end - text);
  gboolean continued = FALSE;

  /* The comment comes among the comments right after the shebang; the lines it continues
   * onto end at the first that does not end in a backslash. */
  for (guint line = 0; p != NULL && p < end && line < 16; line++)
    {
      const char *start = p + 1;
      const char *eol = memchr (start, '\n', end - start);
      const char *last;

      if (start >= end)
        break;
      if (eol == NULL)
        eol = end;
      last = eol;
      while (last > start && (last[-1] == ' ' || last[-1] == '\t' || last[-1] == '\r'))
        last--;
      if (!continued)
        {
          if (*start != '#')
            return FALSE;
          continued = last > start && last[-1] == '\\';
        }
      else
        {
          for (const char *w = start;
               w < last && (w = g_strstr_len (w, last - w, "exec")) != NULL; w += 4)
            {
              const char *name = w + 4;
              const char *name_end;
              const char *slash;

              if ((w > start && !g_ascii_isspace (w[-1]) && w[-1] != ';') ||
                  name >= last || !g_ascii_isspace (*name))
                continue;
              while (name < last && g_ascii_isspace (*name))
                name++;
              for (name_end = name; name_end < last && !g_ascii_isspace (*name_end); name_end++)
                ;
              slash = g_strrstr_len (name, name_end - name, "/");
              if (slash != NULL)
                name = slash + 1;
              for (guint i = 0; i < G_N_ELEMENTS (tcl); i++)
                if (is_interpreter (name, name_end - name, tcl[i]))
                  return TRUE;
            }
          if (last == start || last[-1] != '\\')
            return FALSE;
        }
      p = eol < end ? eol : NULL;
    }
  return FALSE;
}

/**
 * lode_language_for_content:
 * @by_path: (nullable): the language lode_language_for_path() gave for @path
 * @path: the file path
 * @text: the start of the file's content (need not be nul-terminated)
 * @len: number of bytes at @text
 *
 * Refines the language guessed from a file name by looking at the content: a `.h` header
 * using C++ constructs in its first 16 KiB is C++, a file without a telling name that
 * starts with a `#!` line is chunked in its interpreter's language, and a shell script that
 * hands itself to Tcl (`exec wish "$0"` on a line Tcl reads as a comment) is text, whatever
 * its name.
 *
 * Returns: (transfer none): the language to chunk @text as
 */
const LodeLanguage *
lode_language_for_content (const LodeLanguage *by_path,
                           const char         *path,
                           const char         *text,
                           gsize               len)
{
  const char *dot;

  g_return_val_if_fail (path != NULL, NULL);
  g_return_val_if_fail (text != NULL || len == 0, NULL);

  if (by_path == NULL)
    by_path = lode_language_for_path (path);

  if (strcmp (by_path->id, "c") == 0)
    {
      dot = strrchr (path, '.');
      if (dot != NULL && strcmp (dot, ".h") == 0 && header_is_cplusplus (text, len))
        return lode_language_lookup ("cpp");
    }
  else if (strcmp (by_path->id, "text") == 0 || strcmp (by_path->id, "bash") == 0)
    {
      const LodeLanguage *language = language_for_shebang (text, len);

      /* Whatever the name says (git-gui.sh). */
      if (language != NULL && strcmp (language->id, "bash") == 0 && hands_over_to_tcl (text, len))
        return lode_language_lookup ("text");
      if (language != NULL && strcmp (by_path->id, "text") == 0)
        return language;
    }

  return by_path;
}

/**
 * lode_language_add_extension:
 * @extension: a file name suffix such as ".tpl" (a leading dot is added when missing)
 * @language_id: the language to chunk such files as
 * @error: return location for a #GError
 *
 * Maps an extra file name suffix to a language, for the whole process.
 *
 * Returns: %TRUE on success; %FALSE if @language_id is unknown
 */
gboolean
lode_language_add_extension (const char  *extension,
                             const char  *language_id,
                             GError     **error)
{
  const LodeLanguage *language;

  g_return_val_if_fail (extension != NULL, FALSE);
  g_return_val_if_fail (language_id != NULL, FALSE);

  language = lode_language_lookup (language_id);
  if (language == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Unknown language “%s” for extension “%s”", language_id, extension);
      return FALSE;
    }

  G_LOCK (extra_suffixes);
  if (extra_suffixes == NULL)
    extra_suffixes = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  g_hash_table_replace (extra_suffixes,
                        extension[0] == '.' ? g_strdup (extension)
                                            : g_strconcat (".", extension, NULL),
                        (gpointer) language->id);
  G_UNLOCK (extra_suffixes);

  return TRUE;
}

/**
 * lode_language_add_extensions:
 * @entries: (array zero-terminated=1): `.ext=language` entries, as #LodeConfig's
 *   extra_extensions holds them; empty ones are skipped
 * @error: return location for a #GError
 *
 * Maps every extra file name suffix of a configuration to its language, for the whole
 * process (lode_language_add_extension()).
 *
 * Returns: %TRUE on success; %FALSE with %LODE_ERROR_INVALID_ARGUMENT, naming the entry,
 *   when one is not of the form `.ext=language` or names an unknown language
 */
gboolean
lode_language_add_extensions (const char * const  *entries,
                              GError             **error)
{
  g_return_val_if_fail (entries != NULL, FALSE);

  for (guint i = 0; entries[i] != NULL; i++)
    {
      g_auto(GStrv) parts = NULL;

      if (*entries[i] == '\0')
        continue;

      parts = g_strsplit (entries[i], "=", 2);
      if (parts[0] == NULL || parts[1] == NULL || *g_strstrip (parts[0]) == '\0')
        {
          g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                       "Extra extension “%s” is not of the form .ext=language", entries[i]);
          return FALSE;
        }
      if (!lode_language_add_extension (parts[0], g_strstrip (parts[1]), error))
        {
          g_prefix_error (error, "Extra extension “%s”: ", entries[i]);
          return FALSE;
        }
    }

  return TRUE;
}

/* A query of the cache below, compiled by the first thread that needs it while others wait
 * for it alone: the chunking threads meet the languages of a tree at the same time, and
 * compiling one takes up to 55 ms (C++'s chunks), during which the other thread waited for
 * the lock of every query, its C ones too. */
typedef struct
{
  GMutex   lock;
  TSQuery *query;  /* (nullable): until it compiles */
  guint8  *roots;  /* (nullable): see query_roots() */
} CachedQuery;

/* For each symbol of @ts_language, whether a pattern of @query starts at a node of that
 * symbol; NULL when one starts at something else than a named node type (an alternation, a
 * wildcard, a supertype, `ERROR`), which only a walk of every node can match. */
static guint8 *
query_roots (const TSLanguage *ts_language,
             const TSQuery    *query,
             const char       *source,
             gsize             len)
{
  guint n_symbols = ts_language_symbol_count (ts_language);
  g_autofree guint8 *roots = g_new0 (guint8, n_symbols);

  for (uint32_t i = 0; i < ts_query_pattern_count (query); i++)
    {
      gsize p = ts_query_start_byte_for_pattern (query, i);
      gsize start;
      TSSymbol symbol;

      if (p >= len || source[p] != '(')
        return NULL;
      for (p++; p < len && g_ascii_isspace (source[p]); p++)
        ;
      for (start = p; p < len && (g_ascii_isalnum (source[p]) || source[p] == '_'); p++)
        ;
      if (p == start || (p < len && source[p] != ')' && !g_ascii_isspace (source[p])))
        return NULL;
      symbol = ts_language_symbol_for_name (ts_language, source + start, p - start, TRUE);
      if (symbol == 0 || symbol >= n_symbols ||
          ts_language_symbol_type (ts_language, symbol) != TSSymbolTypeRegular)
        return NULL;
      roots[symbol] = TRUE;
    }

  return g_steal_pointer (&roots);
}

static gboolean
compile_query (CachedQuery         *cached,
               const LodeLanguage  *language,
               GResource           *resource,
               const char          *resource_path,
               const char          *purpose,
               GError             **error)
{
  g_autoptr(GBytes) bytes = NULL;
  TSQuery *query;
  TSQueryError query_error = TSQueryErrorNone;
  uint32_t error_offset = 0;
  gsize len;
  const char *source;

  /* No @resource while another thread registers the process's resources (the lexicon's
   * first search, g_resources_lookup_data()): the global look-up waits for them. */
  if (resource != NULL)
    bytes = g_resource_lookup_data (resource, resource_path, G_RESOURCE_LOOKUP_FLAGS_NONE,
                                    error);
  else
    bytes = g_resources_lookup_data (resource_path, G_RESOURCE_LOOKUP_FLAGS_NONE, error);
  if (bytes == NULL)
    return FALSE;

  source = g_bytes_get_data (bytes, &len);
  query = ts_query_new (language->ts_language (), source, len, &error_offset, &query_error);
  if (query == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                   "%s query for %s does not compile (error %d at byte %u)",
                   purpose, language->name, (int) query_error, error_offset);
      return FALSE;
    }
  cached->roots = query_roots (language->ts_language (), query, source, len);
  cached->query = query;
  return TRUE;
}

/* Compiles `queries/<id>/<name>.scm` from the resources once per process. A #TSQuery is
 * immutable, so the result may be used from any thread with a cursor of its own. */
static CachedQuery *
get_query (const LodeLanguage  *language,
           const char          *name,
           const char          *purpose,
           GError             **error)
{
  static GHashTable *queries;
  G_LOCK_DEFINE_STATIC (queries);
  g_autofree char *resource_path = NULL;
  CachedQuery *cached;
  GResource *resource;
  gboolean compiled;

  resource_path = g_strdup_printf ("/io/github/lode/Lode/queries/%s/%s.scm", language->id, name);

  /* Cached for the life of the process, like the grammars themselves. */
  G_LOCK (queries);
  if (queries == NULL)
    queries = g_hash_table_new_full (g_str_hash, g_str_equal, g_free, NULL);
  cached = g_hash_table_lookup (queries, resource_path);
  if (cached == NULL)
    {
      cached = g_new0 (CachedQuery, 1);
      g_mutex_init (&cached->lock);
      g_hash_table_insert (queries, g_strdup (resource_path), cached);
    }
  /* Under the lock too: GLib registers a built-in resource at its first use, and
   * g_static_resource_get_resource() gives NULL to a thread that asks while another
   * registers it (GLib 2.74; two chunking threads compiling their first queries crashed
   * so). Registered, it may be read from any thread. */
  resource = lode_get_resource ();
  G_UNLOCK (queries);

  g_mutex_lock (&cached->lock);
  compiled = cached->query != NULL ||
             compile_query (cached, language, resource, resource_path, purpose, error);
  g_mutex_unlock (&cached->lock);

  return compiled ? cached : NULL;
}

/**
 * lode_language_get_chunk_query:
 * @language: a #LodeLanguage with a grammar
 * @error: return location for a #GError
 *
 * Compiles `queries/<id>/chunks.scm` from the resources once per process. A #TSQuery is
 * immutable, so the result may be used from any thread with a cursor of its own. Each of its
 * patterns must start at a named node type (see lode_language_get_chunk_roots()).
 *
 * Returns: (transfer none) (nullable): the query, or %NULL if it does not compile or a
 *   pattern starts otherwise
 */
TSQuery *
lode_language_get_chunk_query (const LodeLanguage  *language,
                               GError             **error)
{
  CachedQuery *cached;

  g_return_val_if_fail (language != NULL, NULL);
  g_return_val_if_fail (language->ts_language != NULL, NULL);

  cached = get_query (language, "chunks", "Chunk", error);
  if (cached == NULL)
    return NULL;
  if (cached->roots == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_FAILED,
                   "Chunk query for %s has a pattern that does not start at a named node type",
                   language->name);
      return NULL;
    }
  return cached->query;
}

/**
 * lode_language_get_chunk_roots:
 * @language: a #LodeLanguage with a grammar
 *
 * Where the patterns of lode_language_get_chunk_query() start. A query cursor visits every
 * node of a tree at a cost of its own on top of a walk's, and a node at the cost of its depth;
 * a walk that starts the query only at these nodes, at a depth of 0, finds the same matches.
 *
 * Returns: (transfer none) (nullable) (array): for each symbol of @language's grammar
 *   (ts_language_symbol_count()), whether a pattern starts at a node of that symbol; %NULL
 *   when lode_language_get_chunk_query() fails
 */
const guint8 *
lode_language_get_chunk_roots (const LodeLanguage *language)
{
  CachedQuery *cached;

  g_return_val_if_fail (language != NULL, NULL);
  g_return_val_if_fail (language->ts_language != NULL, NULL);

  cached = get_query (language, "chunks", "Chunk", NULL);
  return cached != NULL ? cached->roots : NULL;
}

/**
 * lode_language_get_import_query:
 * @language: a #LodeLanguage with a grammar
 * @error: return location for a #GError
 *
 * Compiles `queries/<id>/imports.scm` from the resources once per process, like
 * lode_language_get_chunk_query().
 *
 * Returns: (transfer none) (nullable): the query, or %NULL if the language has none or it
 *   does not compile
 */
TSQuery *
lode_language_get_import_query (const LodeLanguage  *language,
                                GError             **error)
{
  CachedQuery *cached;

  g_return_val_if_fail (language != NULL, NULL);
  g_return_val_if_fail (language->ts_language != NULL, NULL);

  cached = get_query (language, "imports", "Import", error);
  return cached != NULL ? cached->query : NULL;
}

/* A field id found by name, kept per thread. The slot holds a copy of the name, so a name whose
 * memory now holds another compares unequal. */
typedef struct
{
  const TSLanguage *ts_language;
  TSFieldId         id;
  char              name[30];
} FieldSlot;

/**
 * lode_node_child_by_field:
 * @node: a node
 * @name: the name of one of its grammar's fields
 *
 * ts_node_child_by_field_name(), for the walks that ask it at nearly every node: tree-sitter
 * finds a field's id by comparing @name with the grammar's field names in turn, all of them for
 * a name the grammar lacks (`rhs` in C, say), where this finds it in a table of the names this
 * thread asked for last.
 *
 * Returns: the child of @node in field @name, or a null node
 */
TSNode
lode_node_child_by_field (TSNode      node,
                          const char *name)
{
  static _Thread_local FieldSlot slots[128];
  const TSLanguage *ts_language = ts_node_language (node);
  gsize len = strlen (name);
  FieldSlot *slot;

  if (len == 0 || len >= sizeof slot->name)
    return ts_node_child_by_field_name (node, name, len);
  slot = &slots[(len * 131u + (guchar) name[0] * 31u + (guchar) name[len - 1] +
                 (GPOINTER_TO_UINT (ts_language) >> 4)) % G_N_ELEMENTS (slots)];
  if (slot->ts_language != ts_language || memcmp (slot->name, name, len + 1) != 0)
    {
      slot->ts_language = ts_language;
      slot->id = ts_language_field_id_for_name (ts_language, name, len);
      memcpy (slot->name, name, len + 1);
    }
  return ts_node_child_by_field_id (node, slot->id);
}
