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

static JsonObject *
result_to_json (const LodeGrepOptions *options,
                const char            *root,
                const LodeGrepResult  *result)
{
  g_autoptr(JsonBuilder) b = json_builder_new ();

  json_builder_begin_object (b);
  lode_json_builder_add_string (b, "pattern", options->pattern);
  lode_json_builder_add_string (b, "projectPath", root);
  lode_json_builder_add_int (b, "totalMatches", result->n_matches);
  lode_json_builder_add_int (b, "totalFiles", result->n_files);
  lode_json_builder_add_int (b, "shown", result->n_shown);
  lode_json_builder_add_boolean (b, "totalsExact", result->n_unread == 0);
  lode_json_builder_add_int (b, "unreadFiles", result->n_unread);
  lode_json_builder_add_boolean (b, "complete", result->complete);
  lode_json_builder_add_boolean (b, "indexed", result->indexed);
  json_builder_set_member_name (b, "files");
  json_builder_begin_array (b);
  for (guint i = 0; i < result->files->len; i++)
    {
      LodeGrepFile *file = result->files->pdata[i];

      json_builder_begin_object (b);
      lode_json_builder_add_string (b, "path", file->path);
      if (file->language != NULL)
        lode_json_builder_add_string (b, "language", file->language);
      lode_json_builder_add_int (b, "matches", file->n_matches);
      json_builder_set_member_name (b, "lines");
      json_builder_begin_array (b);
      for (guint j = 0; j < file->lines->len; j++)
        {
          LodeGrepLine *line = file->lines->pdata[j];

          json_builder_begin_object (b);
          lode_json_builder_add_int (b, "line", line->line);
          lode_json_builder_add_string (b, "text", line->text);
          lode_json_builder_add_boolean (b, "match", line->match);
          if (line->symbol != NULL)
            lode_json_builder_add_string (b, "symbol", line->symbol);
          json_builder_end_object (b);
        }
      json_builder_end_array (b);
      json_builder_end_object (b);
    }
  json_builder_end_array (b);
  json_builder_end_object (b);
  return lode_json_builder_steal_object (b);
}

static JsonObject *
codebase_grep (LodeToolCall  *call,
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
    return NULL;
  if (language != NULL && lode_language_lookup (language) == NULL)
    {
      g_set_error (error, LODE_ERROR, LODE_ERROR_INVALID_ARGUMENT,
                   "Unknown language “%s” in languageFilter; codebase_status lists the "
                   "languages of a project (ids such as c, python, typescript)",
                   lode_json_get_string (arguments, "languageFilter"));
      return NULL;
    }

  path = lode_tool_call_dup_project_path (call, error);
  if (path == NULL)
    return NULL;
  project = lode_tool_call_open_indexed (call, path, error);
  if (project == NULL)
    return NULL;
  files = lode_project_read (project, find_candidates, &candidates, error);
  if (files == NULL)
    return NULL;

  targets = g_new0 (LodeGrepTarget, MAX (files->len, 1));
  for (guint i = 0; i < files->len; i++)
    {
      LodeStoredFile *f = files->pdata[i];

      targets[i].path = f->path;
      targets[i].language = f->language;
    }
  result = lode_grep_files (lode_project_get_root (project), &options, targets, files->len,
                            candidates.indexed, cancellable, error);
  if (result == NULL)
    return NULL;
  if (lode_project_read (project, name_symbols, result, error) == NULL)
    return NULL;

  return result_to_json (&options, lode_project_get_root (project), result);
}

static char *
format_grep (JsonObject *result)
{
  JsonArray *files = json_object_get_array_member (result, "files");
  gint64 total = lode_json_get_int (result, "totalMatches", 0);
  gint64 shown = lode_json_get_int (result, "shown", 0);
  gint64 unread = lode_json_get_int (result, "unreadFiles", 0);
  GString *text = g_string_new ("## ");

  if (!lode_json_get_boolean (result, "totalsExact", TRUE))
    g_string_append (text, "At least ");
  lode_append_count (text, total, "%u matching line", "%u matching lines");
  g_string_append (text, " in ");
  lode_append_count (text, lode_json_get_int (result, "totalFiles", 0), "%u file", "%u files");
  g_string_append_printf (text, " for `%s`\n\n", lode_json_get_string (result, "pattern"));
  if (!lode_json_get_boolean (result, "complete", TRUE))
    g_string_append (text, "> The search ran out of time before reading every file: the "
                     "pattern has no three-character literal to look up. Counts are partial.\n\n");
  else if (shown < total || unread > 0)
    {
      g_string_append_printf (text, "> The first %" G_GINT64_FORMAT " are shown", shown);
      if (unread > 0)
        {
          g_string_append (text, ", and ");
          lode_append_count (text, unread, "%u more file that may match was not read",
                             "%u more files that may match were not read");
        }
      g_string_append (text, ": raise limit or narrow with fileFilter.\n\n");
    }

  for (guint i = 0; i < json_array_get_length (files); i++)
    {
      JsonObject *file = json_array_get_object_element (files, i);
      JsonArray *lines = json_object_get_array_member (file, "lines");
      const char *symbol = NULL;
      gint64 previous = 0;

      g_string_append_printf (text, "### %s\n```\n", lode_json_get_string (file, "path"));
      for (guint j = 0; j < json_array_get_length (lines); j++)
        {
          JsonObject *line = json_array_get_object_element (lines, j);
          gint64 number = lode_json_get_int (line, "line", 0);
          gboolean match = lode_json_get_boolean (line, "match", FALSE);
          const char *in = lode_json_get_string (line, "symbol");

          if (previous != 0 && number > previous + 1)
            g_string_append (text, "--\n");
          /* The declaration a match lies in, as diff's hunk headers name it. */
          if (match && in != NULL && g_strcmp0 (in, symbol) != 0)
            {
              g_string_append_printf (text, "@@ %s\n", in);
              symbol = in;
            }
          g_string_append_printf (text, "%" G_GINT64_FORMAT "%c%s\n", number, match ? ':' : '-',
                                  lode_json_get_string (line, "text"));
          previous = number;
        }
      g_string_append (text, "```\n");
    }
  return g_string_free (text, FALSE);
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
    "\"description\": \"Lines shown (100); the rest counted up to 1 MiB more text\"}}, "
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
  .func = codebase_grep,
  .format = format_grep,
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
