/* lode-style-guide.h — the rules a project states about how its code is written
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <json-glib/json-glib.h>

G_BEGIN_DECLS

/**
 * LodeStyleRule:
 * @category: formatting, linting, naming, testing, errors, documentation, commits,
 *   architecture or general
 * @rule: the rule as a sentence or as `key = value`
 * @source: the file stating it, relative to the project root
 * @line: its line there
 * @tool: editorconfig, eslint, prettier, clang-format, rustfmt, ruff, golangci-lint or
 *   document
 * @scope: (nullable): where it applies: an .editorconfig glob, a document's heading
 */
typedef struct
{
  const char *category;
  char       *rule;
  char       *source;
  guint       line;
  const char *tool;
  char       *scope;
} LodeStyleRule;

void        lode_style_rule_free     (LodeStyleRule *rule);
GPtrArray  *lode_style_guide_read    (const char    *root,
                                      GPtrArray     *sources,
                                      GPtrArray     *notes);
JsonObject *lode_style_guide_report  (const char    *root,
                                      const char    *query,
                                      const char    *category,
                                      guint          limit);
char       *lode_style_guide_format  (JsonObject    *report);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeStyleRule, lode_style_rule_free)

G_END_DECLS
