/* fuzz-config.c — configuration files read as flat keys (lode-config-reader): JSON, TOML,
 * YAML, INI and XML, and the lists and quoted values they hold
 *
 * Every input is read in each of the five formats. Each entry must have a key and a value
 * and lie on a line of the input; its value read as a list and unquoted must not crash.
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include "fuzz-common.h"
#include "lode-config-reader.h"

int
LLVMFuzzerTestOneInput (const uint8_t *data,
                        size_t         size)
{
  static const LodeConfigFormat formats[] = {
    LODE_CONFIG_JSON, LODE_CONFIG_TOML, LODE_CONFIG_YAML, LODE_CONFIG_INI, LODE_CONFIG_XML,
  };
  guint lines = 1;

  /* YAML ends a line at a carriage return too: every CR and LF counts, an upper bound. */
  for (size_t i = 0; i < size; i++)
    lines += data[i] == '\n' || data[i] == '\r';

  for (guint f = 0; f < G_N_ELEMENTS (formats); f++)
    {
      g_autoptr(GError) error = NULL;
      g_autoptr(GPtrArray) entries = lode_config_read ((const char *) data, size, formats[f],
                                                       &error);

      g_assert ((entries == NULL) == (error != NULL));
      for (guint i = 0; entries != NULL && i < entries->len; i++)
        {
          LodeConfigEntry *entry = g_ptr_array_index (entries, i);
          g_auto(GStrv) items = lode_config_split_list (entry->value);
          g_autofree char *unquoted = lode_config_unquote (entry->value);

          g_assert_nonnull (entry->key);
          g_assert_nonnull (entry->value);
          g_assert_nonnull (items);
          g_assert_cmpuint (entry->line, >=, 1);
          /* An empty value YAML implies at the end of the text stands just past it. */
          g_assert_cmpuint (entry->line, <=, lines + 1);
          g_assert_cmpuint (strlen (unquoted), <=, strlen (entry->value));
        }
    }

  return 0;
}
