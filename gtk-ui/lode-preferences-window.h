/* lode-preferences-window.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>

G_BEGIN_DECLS

#define LODE_TYPE_PREFERENCES_WINDOW (lode_preferences_window_get_type ())
G_DECLARE_FINAL_TYPE (LodePreferencesWindow, lode_preferences_window, LODE, PREFERENCES_WINDOW,
                      AdwPreferencesWindow)

LodePreferencesWindow *lode_preferences_window_new (GSettings *settings);

G_END_DECLS
