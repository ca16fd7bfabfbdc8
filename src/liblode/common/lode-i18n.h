/* lode-i18n.h — counted nouns in messages
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>
#include <glib/gi18n-lib.h>

G_BEGIN_DECLS

/**
 * lode_append_count:
 * @out: where to append
 * @n: the count
 * @singular: the message for one, with one `%u` (marked for xgettext as a plural pair)
 * @plural: the message for other counts
 *
 * Appends "1 file" or "3 files" in the form the user's language wants for @n.
 */
static inline void
lode_append_count (GString    *out,
                   guint64     n,
                   const char *singular,
                   const char *plural)
{
  g_string_append_printf (out, g_dngettext (GETTEXT_PACKAGE, singular, plural, (gulong) n),
                          (guint) n);
}

G_END_DECLS
