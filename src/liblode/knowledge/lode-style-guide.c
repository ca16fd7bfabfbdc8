/* lode-style-guide.c — the rules a project states about how its code is written
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>

#include "lode-config-reader.h"
#include "lode-i18n.h"
#include "lode-style-guide.h"

/*
 * get_style_guide's rules, each with the file and line that state it: the settings of the
 * formatters and linters a project configures (EditorConfig, ESLint, Prettier, clang-format,
 * rustfmt, Ruff, golangci-lint), read with lode-config-reader, and the rules its documents
 * write down (CONTRIBUTING, style guides, HACKING): their list items, and the sentences that
 * say must, never, always, prefer or avoid, filed under the category their heading and words
 * name.
 */

#define MAX_FILE_BYTES (1024 * 1024)
#define MAX_RULE_CHARS 300

typedef enum
{
  READ_CONFIG,     /* every entry a rule */
  READ_ESLINT,     /* rules.*, extends */
  READ_PRETTIER_JSON,
  READ_RUFF_PYPROJECT,
  READ_ESLINT_JS,  /* a JavaScript config: its rules' lines */
  READ_DOCUMENT,
} ReadKind;

static const struct
{
  const char       *path;
  const char       *tool;
  ReadKind          kind;
  LodeConfigFormat  format;
} sources_table[] = {
  { ".editorconfig", "editorconfig", READ_CONFIG, LODE_CONFIG_INI },
  { ".eslintrc.json", "eslint", READ_ESLINT, LODE_CONFIG_JSON },
  { ".eslintrc", "eslint", READ_ESLINT, LODE_CONFIG_YAML },
  { ".eslintrc.yml", "eslint", READ_ESLINT, LODE_CONFIG_YAML },
  { ".eslintrc.yaml", "eslint", READ_ESLINT, LODE_CONFIG_YAML },
  { "eslint.config.js", "eslint", READ_ESLINT_JS, LODE_CONFIG_JSON },
  { "eslint.config.mjs", "eslint", READ_ESLINT_JS, LODE_CONFIG_JSON },
  { "eslint.config.cjs", "eslint", READ_ESLINT_JS, LODE_CONFIG_JSON },
  { ".prettierrc", "prettier", READ_CONFIG, LODE_CONFIG_YAML },
  { ".prettierrc.json", "prettier", READ_CONFIG, LODE_CONFIG_JSON },
  { ".prettierrc.yml", "prettier", READ_CONFIG, LODE_CONFIG_YAML },
  { ".prettierrc.yaml", "prettier", READ_CONFIG, LODE_CONFIG_YAML },
  { ".prettierrc.toml", "prettier", READ_CONFIG, LODE_CONFIG_TOML },
  { "package.json", "prettier", READ_PRETTIER_JSON, LODE_CONFIG_JSON },
  { ".clang-format", "clang-format", READ_CONFIG, LODE_CONFIG_YAML },
  { "_clang-format", "clang-format", READ_CONFIG, LODE_CONFIG_YAML },
  { "rustfmt.toml", "rustfmt", READ_CONFIG, LODE_CONFIG_TOML },
  { ".rustfmt.toml", "rustfmt", READ_CONFIG, LODE_CONFIG_TOML },
  { "ruff.toml", "ruff", READ_CONFIG, LODE_CONFIG_TOML },
  { ".ruff.toml", "ruff", READ_CONFIG, LODE_CONFIG_TOML },
  { "pyproject.toml", "ruff", READ_RUFF_PYPROJECT, LODE_CONFIG_TOML },
  { ".golangci.yml", "golangci-lint", READ_CONFIG, LODE_CONFIG_YAML },
  { ".golangci.yaml", "golangci-lint", READ_CONFIG, LODE_CONFIG_YAML },
  { ".golangci.toml", "golangci-lint", READ_CONFIG, LODE_CONFIG_TOML },
  { ".golangci.json", "golangci-lint", READ_CONFIG, LODE_CONFIG_JSON },
  { "CONTRIBUTING.md", "document", READ_DOCUMENT, 0 },
  { ".github/CONTRIBUTING.md", "document", READ_DOCUMENT, 0 },
  { "docs/CONTRIBUTING.md", "document", READ_DOCUMENT, 0 },
  { "STYLE.md", "document", READ_DOCUMENT, 0 },
  { "STYLE_GUIDE.md", "document", READ_DOCUMENT, 0 },
  { "STYLEGUIDE.md", "document", READ_DOCUMENT, 0 },
  { "CODING_STYLE.md", "document", READ_DOCUMENT, 0 },
  { "HACKING.md", "document", READ_DOCUMENT, 0 },
  { "docs/style-guide.md", "document", READ_DOCUMENT, 0 },
  { "docs/coding-style.md", "document", READ_DOCUMENT, 0 },
  { "docs/STYLE.md", "document", READ_DOCUMENT, 0 },
};

static const char *const all_categories[] = {
  "formatting", "linting", "naming", "testing", "errors", "documentation", "commits",
  "architecture", "general", NULL
};

void
lode_style_rule_free (LodeStyleRule *rule)
{
  if (rule == NULL)
    return;

  g_free (rule->rule);
  g_free (rule->source);
  g_free (rule->scope);
  g_free (rule);
}

static const struct
{
  const char *category;
  const char *const words[12];
} category_words[] = {
  { "naming", { "naming", "name", "camel", "snake", "pascal", "prefix", "suffix", "identifier",
                NULL } },
  { "testing", { "test", "tests", "testing", "coverage", "fixture", "mock", NULL } },
  { "commits", { "commit", "commits", "branch", "pull request", "merge", "changelog",
                 "review", NULL } },
  { "documentation", { "comment", "comments", "docstring", "documentation", "docs",
                       "readme", NULL } },
  { "errors", { "error", "errors", "exception", "panic", "gerror", NULL } },
  { "formatting", { "indent", "tab", "tabs", "spaces", "line length", "width", "column",
                    "brace", "quote", "semicolon", "whitespace", NULL } },
  { "architecture", { "module", "layer", "architecture", "header", "dependency", "import",
                      "folder", "directory", NULL } },
};

static gboolean
has_word (const char *lower,
          const char *word)
{
  gsize n = strlen (word);

  for (const char *p = strstr (lower, word); p != NULL; p = strstr (p + 1, word))
    if ((p == lower || !g_ascii_isalnum (p[-1])) && !g_ascii_isalnum (p[n]))
      return TRUE;

  return FALSE;
}

static const char *
category_of_text (const char *heading,
                  const char *text)
{
  g_autofree char *lower_heading = g_ascii_strdown (heading != NULL ? heading : "", -1);
  g_autofree char *lower_text = g_ascii_strdown (text, -1);

  /* The heading says it best; then the rule's own words. */
  for (guint pass = 0; pass < 2; pass++)
    for (guint i = 0; i < G_N_ELEMENTS (category_words); i++)
      for (guint w = 0; category_words[i].words[w] != NULL; w++)
        if (has_word (pass == 0 ? lower_heading : lower_text, category_words[i].words[w]))
          return category_words[i].category;

  return "general";
}

/* A formatter's settings are formatting; a linter's are linting unless they are about
 * layout. */
static const char *
category_of_setting (const char *tool,
                     const char *key)
{
  static const char *const layout[] = {
    "indent", "tab", "width", "line", "length", "quote", "semi", "comma", "brace", "space",
    "newline", "eol", "charset", "wrap", "column", "bracket", NULL
  };
  g_autofree char *lower = g_ascii_strdown (key, -1);

  if (g_str_equal (tool, "editorconfig") || g_str_equal (tool, "prettier") ||
      g_str_equal (tool, "clang-format") || g_str_equal (tool, "rustfmt"))
    return "formatting";
  for (guint i = 0; layout[i] != NULL; i++)
    if (strstr (lower, layout[i]) != NULL)
      return "formatting";
  if (strstr (lower, "naming") != NULL || strstr (lower, "camelcase") != NULL)
    return "naming";

  return "linting";
}

static void
add_rule (GPtrArray  *rules,
          const char *category,
          const char *text,
          const char *source,
          guint       line,
          const char *tool,
          const char *scope)
{
  LodeStyleRule *rule = g_new0 (LodeStyleRule, 1);

  rule->category = category;
  rule->rule = g_utf8_substring (text, 0, MIN (g_utf8_strlen (text, -1), MAX_RULE_CHARS));
  rule->source = g_strdup (source);
  rule->line = line;
  rule->tool = tool;
  rule->scope = g_strdup (scope);
  g_ptr_array_add (rules, rule);
}

static void
read_settings (GPtrArray  *rules,
               GPtrArray  *entries,
               const char *source,
               const char *tool,
               ReadKind    kind)
{
  for (guint i = 0; i < entries->len; i++)
    {
      LodeConfigEntry *entry = g_ptr_array_index (entries, i);
      g_autofree char *key = g_strdup (entry->key);
      g_autofree char *scope = NULL;
      g_autofree char *text = NULL;
      const char *entry_tool = tool;

      if (kind == READ_ESLINT && !g_str_has_prefix (key, "rules.") &&
          !g_str_has_prefix (key, "extends"))
        continue;
      if (kind == READ_PRETTIER_JSON)
        {
          if (!g_str_has_prefix (key, "prettier.") && !g_str_has_prefix (key, "eslintConfig.rules."))
            continue;
          entry_tool = g_str_has_prefix (key, "prettier.") ? "prettier" : "eslint";
          memmove (key, strchr (key, '.') + 1, strlen (strchr (key, '.') + 1) + 1);
          if (g_str_equal (entry_tool, "eslint"))
            memmove (key, strchr (key, '.') + 1, strlen (strchr (key, '.') + 1) + 1);
        }
      if (kind == READ_RUFF_PYPROJECT)
        {
          if (!g_str_has_prefix (key, "tool.ruff."))
            continue;
          memmove (key, key + strlen ("tool.ruff."), strlen (key + strlen ("tool.ruff.")) + 1);
        }
      if (kind == READ_ESLINT && g_str_has_prefix (key, "rules."))
        memmove (key, key + strlen ("rules."), strlen (key + strlen ("rules.")) + 1);
      /* .editorconfig: `[*.{c,h}].indent_size` applies to a glob. */
      if (key[0] == '[' && strstr (key, "].") != NULL)
        {
          char *end = strstr (key, "].");

          scope = g_strndup (key, end - key + 1);
          memmove (key, end + 2, strlen (end + 2) + 1);
        }
      if (g_str_has_suffix (key, "[]"))
        {
          key[strlen (key) - 2] = '\0';
          text = g_strdup_printf ("%s includes %s", key, entry->value);
        }
      else if (entry->value[0] == '[' && strchr (entry->value, '{') == NULL)
        {
          /* A list as written (over lines, with comments): its items. */
          g_auto(GStrv) items = lode_config_split_list (entry->value);
          g_autofree char *joined = g_strjoinv (", ", items);

          text = g_strdup_printf ("%s = %s", key, joined);
        }
      else
        text = g_strdup_printf ("%s = %s", key, entry->value);
      add_rule (rules, category_of_setting (entry_tool, key), text, source, entry->line,
                entry_tool, scope);
    }
}

/* eslint.config.js is a program: its rules are read from the lines that look like
 * `'rule-name': 'error'` or `"rule": ["warn", …]`. */
static void
read_eslint_js (GPtrArray  *rules,
                const char *text,
                const char *source)
{
  g_autoptr(GRegex) regex = g_regex_new ("^\\s*['\"]([@a-z0-9/-]+)['\"]\\s*:\\s*"
                                         "(\\[?\\s*['\"]?(off|warn|error|0|1|2)[^\\n]*?),?\\s*$",
                                         G_REGEX_MULTILINE, 0, NULL);
  g_autoptr(GMatchInfo) match = NULL;

  for (g_regex_match (regex, text, 0, &match); g_match_info_matches (match);
       g_match_info_next (match, NULL))
    {
      g_autofree char *name = g_match_info_fetch (match, 1);
      g_autofree char *value = g_match_info_fetch (match, 2);
      g_autofree char *rule = g_strdup_printf ("%s = %s", name, value);
      int start;
      guint line = 1;

      g_match_info_fetch_pos (match, 0, &start, NULL);
      for (int i = 0; i < start; i++)
        line += text[i] == '\n';
      add_rule (rules, category_of_setting ("eslint", name), rule, source, line, "eslint",
                NULL);
    }
}

static gboolean
states_rule (const char *lower)
{
  static const char *const words[] = {
    "must", "never", "always", "should", "prefer", "avoid", "don't", "do not", "only", NULL
  };

  for (guint i = 0; words[i] != NULL; i++)
    if (has_word (lower, words[i]))
      return TRUE;

  return FALSE;
}

/* A document's rules: list items (of four words or more) and sentences that state a rule,
 * outside code blocks, under their heading. */
static void
read_document (GPtrArray  *rules,
               const char *text,
               const char *source)
{
  g_auto(GStrv) lines = g_strsplit (text, "\n", -1);
  g_autofree char *heading = NULL;
  gboolean fenced = FALSE;

  for (guint i = 0; lines[i] != NULL; i++)
    {
      char *line = g_strstrip (lines[i]);
      g_autofree char *lower = NULL;
      const char *item = NULL;

      if (g_str_has_prefix (line, "```") || g_str_has_prefix (line, "~~~"))
        {
          fenced = !fenced;
          continue;
        }
      if (fenced || line[0] == '\0')
        continue;
      if (line[0] == '#')
        {
          g_free (heading);
          heading = g_strdup (g_strstrip (line + strspn (line, "#")));
          continue;
        }
      if ((line[0] == '-' || line[0] == '*' || line[0] == '+') && line[1] == ' ')
        item = line + 2;
      else if (g_ascii_isdigit (line[0]) && strspn (line, "0123456789") < 4 &&
               (line[strspn (line, "0123456789")] == '.' ||
                line[strspn (line, "0123456789")] == ')'))
        item = g_strstrip (line + strspn (line, "0123456789") + 1);
      lower = g_ascii_strdown (line, -1);
      if (item != NULL)
        {
          g_auto(GStrv) words = g_strsplit (item, " ", 5);

          if (g_strv_length (words) < 4 || g_str_has_prefix (item, "[ ]") ||
              g_str_has_prefix (item, "["))
            continue;
        }
      else if (!states_rule (lower) || line[0] == '|' || line[0] == '>')
        continue;
      add_rule (rules, category_of_text (heading, line), item != NULL ? item : line, source,
                i + 1, "document", heading);
    }
}

/**
 * lode_style_guide_read:
 * @root: the project's root
 * @sources: (element-type utf8): where the files read are listed, with their tool
 * @notes: (element-type utf8): files that could not be read, and why
 *
 * Returns: (transfer full) (element-type LodeStyleRule): every rule the project states,
 *   in the order of its files and lines
 */
GPtrArray *
lode_style_guide_read (const char *root,
                       GPtrArray  *sources,
                       GPtrArray  *notes)
{
  GPtrArray *rules = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_style_rule_free);

  for (guint i = 0; i < G_N_ELEMENTS (sources_table); i++)
    {
      g_autofree char *path = g_build_filename (root, sources_table[i].path, NULL);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) entries = NULL;
      g_autoptr(GError) error = NULL;
      guint before = rules->len;
      gsize length;

      if (!g_file_test (path, G_FILE_TEST_IS_REGULAR) ||
          !g_file_get_contents (path, &text, &length, NULL) || length > MAX_FILE_BYTES)
        continue;

      switch (sources_table[i].kind)
        {
        case READ_DOCUMENT:
          read_document (rules, text, sources_table[i].path);
          break;
        case READ_ESLINT_JS:
          read_eslint_js (rules, text, sources_table[i].path);
          break;
        case READ_CONFIG:
        case READ_ESLINT:
        case READ_PRETTIER_JSON:
        case READ_RUFF_PYPROJECT:
        default:
          /* .eslintrc and .prettierrc may be JSON or YAML; YAML reads JSON too. */
          entries = lode_config_read (text, length, sources_table[i].format, &error);
          if (entries == NULL)
            {
              g_ptr_array_add (notes, g_strdup_printf ("%s not read: %s",
                                                       sources_table[i].path, error->message));
              continue;
            }
          read_settings (rules, entries, sources_table[i].path, sources_table[i].tool,
                         sources_table[i].kind);
          break;
        }
      if (rules->len > before)
        g_ptr_array_add (sources, g_strdup_printf ("%s (%s)", sources_table[i].path,
                                                   ((LodeStyleRule *) g_ptr_array_index (rules,
                                                                                         before))->tool));
    }

  return rules;
}

static guint
query_hits (const LodeStyleRule *rule,
            GStrv                terms)
{
  g_autofree char *text = g_ascii_strdown (rule->rule, -1);
  g_autofree char *scope = g_ascii_strdown (rule->scope != NULL ? rule->scope : "", -1);
  guint hits = 0;

  for (guint i = 0; terms[i] != NULL; i++)
    if (terms[i][0] != '\0' &&
        (strstr (text, terms[i]) != NULL || strstr (scope, terms[i]) != NULL ||
         strstr (rule->category, terms[i]) != NULL || strstr (rule->tool, terms[i]) != NULL))
      hits++;

  return hits;
}

/**
 * lode_style_guide_report:
 * @root: the project's root
 * @query: (nullable): words; only rules holding one (in their text, heading, category or
 *   tool), those holding most first
 * @category: (nullable): only this category
 * @limit: rules at most
 *
 * Returns: (transfer full): `{projectPath, total, sources, categories, rules, notes}`
 */
JsonObject *
lode_style_guide_report (const char *root,
                         const char *query,
                         const char *category,
                         guint       limit)
{
  g_autoptr(GPtrArray) sources = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) notes = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) rules = lode_style_guide_read (root, sources, notes);
  g_autoptr(GPtrArray) kept = g_ptr_array_new ();
  g_autoptr(GArray) hits = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autofree char *lower = g_ascii_strdown (query != NULL ? query : "", -1);
  g_auto(GStrv) terms = g_strsplit_set (lower, " \t\n,", -1);
  g_autoptr(GHashTable) counts = g_hash_table_new (g_str_hash, g_str_equal);
  g_autoptr(JsonBuilder) builder = json_builder_new ();
  g_autoptr(JsonNode) node = NULL;
  guint best = 0;

  for (guint i = 0; i < rules->len; i++)
    {
      LodeStyleRule *rule = g_ptr_array_index (rules, i);
      guint n = query != NULL ? query_hits (rule, terms) : 0;

      g_hash_table_insert (counts, (gpointer) rule->category,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (g_hash_table_lookup (counts,
                                                                                    rule->category))
                                             + 1));
      if ((category != NULL && !g_str_equal (rule->category, category)) ||
          (query != NULL && n == 0))
        continue;
      g_ptr_array_add (kept, rule);
      g_array_append_val (hits, n);
      best = MAX (best, n);
    }

  json_builder_begin_object (builder);
  json_builder_set_member_name (builder, "projectPath");
  json_builder_add_string_value (builder, root);
  json_builder_set_member_name (builder, "total");
  json_builder_add_int_value (builder, kept->len);
  json_builder_set_member_name (builder, "sources");
  json_builder_begin_array (builder);
  for (guint i = 0; i < sources->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (sources, i));
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "categories");
  json_builder_begin_object (builder);
  for (guint i = 0; all_categories[i] != NULL; i++)
    if (g_hash_table_contains (counts, all_categories[i]))
      {
        json_builder_set_member_name (builder, all_categories[i]);
        json_builder_add_int_value (builder,
                                    GPOINTER_TO_UINT (g_hash_table_lookup (counts,
                                                                           all_categories[i])));
      }
  json_builder_end_object (builder);
  json_builder_set_member_name (builder, "rules");
  json_builder_begin_array (builder);
  /* Rules holding the most query words first, in file order within each count. */
  for (guint want = best, shown = 0; shown < limit; want--)
    {
      for (guint i = 0; i < kept->len && shown < limit; i++)
        {
          LodeStyleRule *rule = g_ptr_array_index (kept, i);

          if (g_array_index (hits, guint, i) != want)
            continue;
          shown++;
          json_builder_begin_object (builder);
          json_builder_set_member_name (builder, "category");
          json_builder_add_string_value (builder, rule->category);
          json_builder_set_member_name (builder, "rule");
          json_builder_add_string_value (builder, rule->rule);
          json_builder_set_member_name (builder, "source");
          json_builder_add_string_value (builder, rule->source);
          json_builder_set_member_name (builder, "line");
          json_builder_add_int_value (builder, rule->line);
          json_builder_set_member_name (builder, "tool");
          json_builder_add_string_value (builder, rule->tool);
          if (rule->scope != NULL)
            {
              json_builder_set_member_name (builder, "scope");
              json_builder_add_string_value (builder, rule->scope);
            }
          json_builder_end_object (builder);
        }
      if (want == 0)
        break;
    }
  json_builder_end_array (builder);
  json_builder_set_member_name (builder, "notes");
  json_builder_begin_array (builder);
  for (guint i = 0; i < notes->len; i++)
    json_builder_add_string_value (builder, g_ptr_array_index (notes, i));
  json_builder_end_array (builder);
  json_builder_end_object (builder);

  node = json_builder_get_root (builder);
  return json_node_dup_object (node);
}

/**
 * lode_style_guide_format:
 * @report: what lode_style_guide_report() returned
 *
 * Returns: (transfer full): the rules as markdown, by category
 */
char *
lode_style_guide_format (JsonObject *report)
{
  JsonArray *rules = json_object_get_array_member (report, "rules");
  JsonArray *sources = json_object_get_array_member (report, "sources");
  JsonArray *notes = json_object_get_array_member (report, "notes");
  guint n = json_array_get_length (rules);
  GString *text = g_string_new ("## ");

  lode_append_count (text, json_object_get_int_member (report, "total"), "%u style rule",
                     "%u style rules");
  if (n < json_object_get_int_member (report, "total"))
    g_string_append_printf (text, " (the first %u)", n);
  g_string_append (text, "\n\n");
  if (json_array_get_length (sources) == 0)
    g_string_append (text, "The project states no rules: no .editorconfig, linter or "
                     "formatter configuration, CONTRIBUTING or style guide was found. Follow "
                     "the code around your change.\n");
  for (guint i = 0; i < n; i++)
    {
      JsonObject *rule = json_array_get_object_element (rules, i);

      g_string_append_printf (text, "- [%s] %s (`%s:%" G_GINT64_FORMAT "`%s%s)\n",
                              json_object_get_string_member (rule, "category"),
                              json_object_get_string_member (rule, "rule"),
                              json_object_get_string_member (rule, "source"),
                              json_object_get_int_member (rule, "line"),
                              json_object_has_member (rule, "scope") ? ", " : "",
                              json_object_get_string_member_with_default (rule, "scope", ""));
    }
  for (guint i = 0; i < json_array_get_length (notes); i++)
    g_string_append_printf (text, "\n> %s\n", json_array_get_string_element (notes, i));

  return g_string_free (text, FALSE);
}
