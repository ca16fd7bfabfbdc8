/* lode-markdown.c — text from outside inside the markdown Lode writes
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-markdown"

#include "config.h"

#include <string.h>

#include "lode-markdown.h"

/**
 * lode_markdown_append_code:
 * @out: where the markdown goes
 * @text: a file name, a path or another text from outside
 *
 * Appends @text as a CommonMark code span that shows it whatever it holds: delimited by
 * one backtick more than its longest run of them (padded with a space when it starts or
 * ends with one), and with control characters written as escapes (`\n`, `\t`, `\x1b`):
 * a line break inside would end the list item or start a heading, and a file may be
 * called anything.
 */
void
lode_markdown_append_code (GString    *out,
                           const char *text)
{
  guint longest = 0;
  guint run = 0;
  gboolean pad;

  g_return_if_fail (out != NULL);
  g_return_if_fail (text != NULL);

  for (const char *p = text; *p != '\0'; p++)
    {
      run = *p == '`' ? run + 1 : 0;
      longest = MAX (longest, run);
    }
  pad = text[0] == '`' || (text[0] != '\0' && text[strlen (text) - 1] == '`');

  for (guint i = 0; i <= longest; i++)
    g_string_append_c (out, '`');
  if (pad)
    g_string_append_c (out, ' ');
  for (const char *p = text; *p != '\0'; p++)
    {
      guchar c = *p;

      if (c == '\n')
        g_string_append (out, "\\n");
      else if (c == '\r')
        g_string_append (out, "\\r");
      else if (c == '\t')
        g_string_append (out, "\\t");
      else if (c < 0x20 || c == 0x7f)
        g_string_append_printf (out, "\\x%02x", c);
      else
        g_string_append_c (out, c);
    }
  if (pad)
    g_string_append_c (out, ' ');
  for (guint i = 0; i <= longest; i++)
    g_string_append_c (out, '`');
}
