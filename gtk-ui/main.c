/* main.c — lode-gtk, the Lode desktop app
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-gtk"

#include "config.h"

#include "lode-application.h"

int
main (int   argc,
      char *argv[])
{
  g_autoptr(LodeApplication) app = NULL;

  lode_locale_init ();

  app = lode_application_new ();

  return g_application_run (G_APPLICATION (app), argc, argv);
}
