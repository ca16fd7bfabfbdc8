/* lode-config-reader.h — configuration files read as flat keys with their lines
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

typedef enum
{
  LODE_CONFIG_JSON,
  LODE_CONFIG_TOML,
  LODE_CONFIG_YAML,
  LODE_CONFIG_INI,
  LODE_CONFIG_XML,
} LodeConfigFormat;

/**
 * LodeConfigEntry:
 * @key: the path of a value: table and key joined by dots (`tool.ruff.line-length`,
 *   `rules.semi`), `[]` for an element of a list (`linters.enable[]`), an INI section in
 *   brackets (`[*.{c,h}].indent_size`), XML elements by `/` (`project/dependencies/dependency/artifactId`,
 *   an attribute after `@`)
 * @value: the value as text: strings unquoted, lists and tables as written
 * @line: 1-based line where it is written
 */
typedef struct
{
  char  *key;
  char  *value;
  guint  line;
} LodeConfigEntry;

void       lode_config_entry_free (LodeConfigEntry  *entry);
GPtrArray *lode_config_read       (const char       *text,
                                   gsize             length,
                                   LodeConfigFormat  format,
                                   GError          **error);
char      *lode_config_unquote    (const char       *value);
GStrv      lode_config_split_list (const char       *value);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeConfigEntry, lode_config_entry_free)

G_END_DECLS
