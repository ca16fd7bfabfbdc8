/* lode-locale.c
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-locale"

#include "config.h"

#include <glib/gi18n.h>
#include <locale.h>

#include "lode-locale.h"

/**
 * lode_locale_init:
 *
 * Sets the locale from the environment and binds Lode's message catalog, from
 * `$LODE_LOCALEDIR` when it is set (an uninstalled build's `po/` directory, as the tests
 * use), else from the installed locale directory. Every main() calls it first.
 */
void
lode_locale_init (void)
{
  const char *dir = g_getenv ("LODE_LOCALEDIR");

  setlocale (LC_ALL, "");
  bindtextdomain (GETTEXT_PACKAGE, dir != NULL && *dir != '\0' ? dir : LOCALEDIR);
  bind_textdomain_codeset (GETTEXT_PACKAGE, "UTF-8");
  textdomain (GETTEXT_PACKAGE);
}
