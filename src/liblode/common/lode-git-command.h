/* lode-git-command.h — the one way Lode runs git
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

G_BEGIN_DECLS

GBytes *lode_git_run (const char         *directory,
                      const char * const *args,
                      GCancellable       *cancellable,
                      GError            **error);

G_END_DECLS
