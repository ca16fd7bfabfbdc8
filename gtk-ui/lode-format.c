/* lode-format.c — numbers as people read them
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>
#include <string.h>

#include "lode-format.h"

/**
 * lode_format_count:
 * @count: a number of things
 *
 * Groups the digits of @count by thousands ("10,795", "10 795"): with the separator of the
 * user's numeric locale, or, where it names none (the C locale), the one of the language
 * the app speaks.
 *
 * Returns: (transfer full): @count as text
 */
char *
lode_format_count (guint64 count)
{
  g_autofree char *digits = g_strdup_printf ("%" G_GUINT64_FORMAT, count);
  const char *separator = localeconv ()->thousands_sep;
  GString *text = g_string_new (NULL);
  gsize n = strlen (digits);

  if (separator == NULL || *separator == '\0')
    /* Translators: the separator of thousands in numbers such as 10,795, used where the
     * system's locale sets none; French uses a narrow no-break space (U+202F). */
    separator = C_("thousands separator", ",");

  for (gsize i = 0; i < n; i++)
    {
      if (i > 0 && (n - i) % 3 == 0)
        g_string_append (text, separator);
      g_string_append_c (text, digits[i]);
    }

  return g_string_free (text, FALSE);
}
