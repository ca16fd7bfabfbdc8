/* lode-grep-tools.c — codebase_grep: every line a pattern matches, as rg prints them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-tools"

#include "config.h"

#include "lode-error.h"
#include "lode-grep.h"
#include "lode-i18n.h"
#include "lode-index-store.h"
#include "lode-json.h"
#include "lode-language.h"
#include "lode-project.h"
#include "lode-tools-private.h"

/*
 * The index says which files may hold a match (lode_index_store_find_text_files(), from
 * the trigrams the pattern requires), lode-grep reads them and keeps the matching lines,
 * and the index names the declaration each line lies in. The store is held for the two
 * look-ups only, never while files are read.
 */

typedef struct
{
  const LodeGrepOptions *options;
  GPtrArray             *files;      /* LodeStoredFile: the candidates */
  gboolean               indexed;    /* the candidates come from the trigram index */
} Candidates;

static gpointer
find_candidates (LodeProject     *project,
                 LodeIndexStore  *store,
                 gpointer         data,
                 GError         **error)
{
  Candidates *c = data;
  g_autoptr(LodeGrepQuery) query = lode_grep_plan (c->options);

  c->files = lode_index_store_find_text_files (store, query, &c->indexed, error);
  return c->files;
}

/* The innermost declaration of @symbols (LodeStoredSymbol, by line) holding @line. */
static const char *
enclosing_symbol (GPtrArray *symbols,
                  guint      line)
{
  const LodeStoredSymbol *best = NULL;

  for (guint i = 0; i < symbols->len; i++)
    {
      const LodeStoredSymbol *s = symbols->pdata[i];

      if (s->start_line > line)
        break;
      if (s->end_line >= line
          && (best == NULL || s->end_line - s->start_line <= best->end_line - best->start_line))
        best = s;
    }
  return best != NULL ? best->name : NULL;
}

static gpointer
name_symbols (LodeProject     *project,
              LodeIndexStore  *store,
              gpointer         data,
              GError         **error)
{
  LodeGrepResult *result = data;

  for (guint i = 0; i < result->files->len; i++)
    {
      LodeGrepFile *file = result->files->pdata[i];
      g_autoptr(GPtrArray) symbols = NULL;
      guint first = G_MAXUINT, last = 0;

      /* Only the declarations that meet the matched lines: a few rows, not the file's all. */
      for (guint j = 0; j < file->lines->len; j++)
        {
          const LodeGrepLine *line = file->lines->pdata[j];

          if (line->match)
            {
              first = MIN (first, line->line);
              last = MAX (last, line->line);
            }
        }
      if (first > last)
        continue;
      symbols = lode_index_store_dup_file_symbol_spans (store, file->path, first, last, error);
      if (symbols == NULL)
        return NULL;
      for (guint j = 0; j < file->lines->len; j++)
        {
          LodeGrepLine *line = file->lines->pdata[j];

          if (line->match)
            line->symbol = g_strdup (enclosing_symbol (symbols, line->line));
        }
    }
  return result;
}

/* The structured result, written as the output schema has it: a JsonObject tree of a
 * hundred lines, read back for the markdown and written out again, cost more than the
 * search that found them. */
static void
write_json (GString               *out,
            const LodeGrepOptions *options,
            const char            *root,
            const LodeGrepResult  *result)
{
  g_string_append (out, "{\"pattern\":");
  lode_json_append_string (out, options->pattern);
  g_string_append (out, ",\"projectPath\":");
  lode_json_append_string (out, root);
  g_string_append_printf (out, ",\"totalMatches\":%u,\"totalFiles\":%u,\"shown\":%u,"
                          "\"totalsExact\":%s,\"unreadFiles\":%u,\"complete\":%s,"
                          "\"indexed\":%s,\"files\":[",
                          result->n_matches, result->n_files, result->n_shown,
                          result->n_unread == 0 ? "true" : "false", result->n_unread,
                          result->complete ? "true" : "false",
                          result->indexed ? "true" : "false");
  for (guint i = 0; i < result->files->len; i++)
    {
      const LodeGrepFile *file = result->files->pdata[i];

      g_string_append (out, i > 0 ? ",{\"path\":" : "{\"path\":");
      lode_json_append_string (out, file->path);
      if (file->language != NULL)
        {
          g_string_append (out, ",\"language\":");
          lode_json_append_string (out, file->language);
        }
      g_string_append_printf (out, ",\"matches\":%u,\"lines\":[", file->n_matches);
      for (guint j = 0; j < file->lines->len; j++)
        {
          const LodeGrepLine *line = file->lines->pdata[j];

          g_string_append_printf (out, "%s{\"line\":%u,\"text\":", j > 0 ? "," : "", line->line);
          lode_json_append_string (out, line->text);
          g_string_append (out, line->match ? ",\"match\":true" : ",\"match\":false");
          if (line->symbol != NULL)
            {
              g_string_append (out, ",\"symbol\":");
              lode_json_append_string (out, line->symbol);
            }
          g_string_append_c (out, '}');
        }
      g_string_append (out, "]}");
    }
  g_string_append (out, "]}");
}

/* The markdown: the totals, then each file's lines as rg -n prints them, with the
 * declaration each match lies in. */
static void
write_markdown (GString               *text,
                const LodeGrepOptions *options,
                const LodeGrepResult  *result)
{
  g_string_append (text, "## ");
  if (result->n_unread > 0)
    g_string_append (text, "At least ");
  lode_append_count (text, result->n_matches, "%u matching line", "%u matching lines");
  g_string_append (text, " in ");
  lode_append_count (text, result->n_files, "%u file", "%u files");
  g_string_append_printf (text, " for `%s`\n\n", options->pattern);
  if (!result->complete)
    g_string_append (text, "> The search ran out of time before reading every file: the "
                     "pattern has no three-character literal to look up. Counts are partial.\n\n");
  else if (result->n_shown < result->n_matches || result->n_unread > 0)
    {
      g_string_append_printf (text, "> The first %u are shown", result->n_shown);
      if (result->n_unread > 0)
        {
          g_string_append (text, ", and ");
          lode_append_count (text, result->n_unread, "%u more file that may match was not read",
                             "%u more files that may match were not read");
        }
      g_string_append (text, ": raise limit or narrow with fileFilter.\n\n");
    }

  for (guint i = 0; i < result->files->len; i++)
    {
      const LodeGrepFile *file = result->files->pdata[i];
      const char *symbol = NULL;
      guint previous = 0;

      g_string_append (text, "### ");
      g_string_append (text, file->path);
      g_string_append (text, "\n```\n");
      for (guint j = 0; j < file->lines->len; j++)
        {
          const LodeGrepLine *line = file->lines->pdata[j];

          if (previous != 0 && line->line > previous + 1)
            g_string_append (text, "--\n");
          /* The declaration a match lies in, as diff's hunk headers name it. */
          if (line->match && line->symbol != NULL && g_strcmp0 (line->symbol, symbol) != 0)
            {
              g_string_append (text, "@@ ");
              g_string_append (text, line->symbol);
              g_string_append_c (text, '\n');
              symbol = line->symbol;
            }
          g_string_append_printf (text, "%u%c", line->line, line->match ? ':' : '-');
          g_string_append (text, line->text);
          g_string_append_c (text, '\n');
          previous = line->line;
        }
      g_string_append (text, "```\n");
    }
}

static gboolean
codebase_grep (LodeToolCall  *call,
               GString       *structured,
               GString       *text,
               GError       **error)
{
  JsonObject *arguments = lode_tool_call_get_arguments (call);
  GCancellable *cancellable = lode_tool_call_get_cancellable (call);
  g_autofree char *path = NULL;
  g_autofree char *language = NULL;
  g_autofree LodeGrepTarget *targets = NULL;
  g_autoptr(LodeProject) project = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(LodeGrepResult) result = NULL;
  g_autoptr(GRegex) regex = NULL;
  LodeGrepOptions options;
  Candidates candidates = { &options, NULL, FALSE };

  lode_grep_options_init (&options);
  options.pattern = lode_json_get_string (arguments, "pattern");
  options.regex = lode_json_get_boolean (arguments, "regex", FALSE);
  options.case_sensitive = lode_json_get_boolean (arguments, "caseSensitive", TRUE);
  options.whole_word = lode_json_get_boolean (arguments, "wholeWord", FALSE);
  options.file_filter = lode_json_get_string (arguments, "fileFilter");
  if (lode_json_get_string (arguments, "languageFilter") != NULL)
    language = g_ascii_strdown (lode_json_get_string (arguments, "languageFilter"), -1);
  options.language_filter = language;
  options.context_lines = lode_json_get_int (arguments, "contextLines", 0);
  options.limit = lode_json_get_int (arguments, "limit", LODE_GREP_DEFAULT_LIMIT);

  /* A bad pattern is named before anything is opened. */
  regex = lode_grep_compile (&options, error);
  if (regex == NULL)
    return FALSE;
  if (language != NULL && lode_language_lookup (language) == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Unknown language “%s” in languageFilter; codebase_status lists the "
                   "languages of a project (ids such as c, python, typescript)",
                   lode_json_get_string (arguments, "languageFilter"));
      return FALSE;
    }

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return FALSE;
  project = lode_tool_call_open_indexed (call, path, error);
  if (project == NULL)
    return FALSE;
  files = lode_project_read (project, find_candidates, &candidates, error);
  if (files == NULL)
    return FALSE;

  targets = g_new0 (LodeGrepTarget, MAX (files->len, 1));
  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredFile *f = files->pdata[i];

      targets[i].path = f->path;
      targets[i].language = f->language;
    }
  result = lode_grep_files (lode_project_get_root (project), &options, regex, targets,
                            files->len, candidates.indexed, cancellable, error);
  if (result == NULL)
    return FALSE;
  if (lode_project_read (project, name_symbols, result, error) == NULL)
    return FALSE;

  write_json (structured, &options, lode_project_get_root (project), result);
  write_markdown (text, &options, result);
  return TRUE;
}

static const LodeTool codebase_grep_tool = {
  .name = "codebase_grep",
  .title = "Grep a codebase",
  .description =
    "Every line matching a string or regex, as rg prints them, from the trigram index; by "
    "file, with enclosing symbols.",
  .input_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"pattern\": {\"type\": \"string\", \"minLength\": 1, \"maxLength\": 4096, "
    "\"description\": \"String or regex\"}, "
    PROJECT_PATH_PROPERTY ", "
    "\"regex\": {\"type\": \"boolean\", \"description\": \"PCRE, else literal\"}, "
    "\"caseSensitive\": {\"type\": \"boolean\", \"description\": \"Default true\"}, "
    "\"wholeWord\": {\"type\": \"boolean\", \"description\": \"rg -w\"}, "
    "\"fileFilter\": {\"type\": \"string\", \"description\": \"Path glob\"}, "
    "\"languageFilter\": {\"type\": \"string\", \"description\": \"Language id\"}, "
    "\"contextLines\": {\"type\": \"integer\", \"minimum\": 0, \"maximum\": 20, "
    "\"description\": \"rg -C\"}, "
    "\"limit\": {\"type\": \"integer\", \"minimum\": 1, \"maximum\": 10000, "
    "\"description\": \"Lines shown (100); the rest counted up to 256 KiB more text\"}}, "
    "\"required\": [\"pattern\"], \"additionalProperties\": false}",
  .output_schema =
    "{\"type\": \"object\", \"properties\": {"
    "\"pattern\": {\"type\": \"string\"}, \"projectPath\": {\"type\": \"string\"}, "
    "\"totalMatches\": {\"type\": \"integer\"}, \"totalFiles\": {\"type\": \"integer\"}, "
    "\"shown\": {\"type\": \"integer\"}, "
    "\"totalsExact\": {\"type\": \"boolean\", \"description\": "
    "\"Else the totals are lower bounds\"}, "
    "\"unreadFiles\": {\"type\": \"integer\", \"description\": "
    "\"Candidate files not read past the limit; each may match\"}, "
    "\"complete\": {\"type\": \"boolean\", \"description\": "
    "\"The shown lines are the first ones\"}, "
    "\"indexed\": {\"type\": \"boolean\"}, "
    "\"files\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"path\": {\"type\": \"string\"}, \"language\": {\"type\": \"string\"}, "
    "\"matches\": {\"type\": \"integer\"}, "
    "\"lines\": {\"type\": \"array\", \"items\": {\"type\": \"object\", \"properties\": {"
    "\"line\": {\"type\": \"integer\"}, \"text\": {\"type\": \"string\"}, "
    "\"match\": {\"type\": \"boolean\"}, \"symbol\": {\"type\": \"string\"}}, "
    "\"required\": [\"line\", \"text\", \"match\"]}}}, "
    "\"required\": [\"path\", \"matches\", \"lines\"]}}}, "
    "\"required\": [\"pattern\", \"projectPath\", \"totalMatches\", \"totalFiles\", \"shown\", "
    "\"totalsExact\", \"unreadFiles\", \"complete\", \"indexed\", \"files\"]}",
  .flags = LODE_TOOL_READ_ONLY | LODE_TOOL_IDEMPOTENT,
  .write = codebase_grep,
};

/**
 * lode_grep_tools_register:
 * @registry: the registry
 *
 * Adds codebase_grep.
 */
void
lode_grep_tools_register (LodeToolRegistry *registry)
{
  lode_tool_registry_add (registry, &codebase_grep_tool);
}
