/* lode-variant.h — the only GVariant forms of liblode's structs
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode.h"

G_BEGIN_DECLS

/* What crosses the bus, both ways: the client sends its configuration with each call, and
 * loded's typed methods answer with these dictionaries (documented in
 * dbus/io.github.lode.Lode.Daemon1.xml). */

GVariant   *lode_config_to_variant          (const LodeConfig         *config);
LodeConfig *lode_config_from_variant        (GVariant                 *dict,
                                             const LodeConfig         *defaults,
                                             GError                  **error);

GVariant   *lode_index_report_to_variant    (const LodeJobInfo        *job,
                                             gboolean                  joined);
GVariant   *lode_project_status_to_variant  (const LodeProjectStatus  *status);
GVariant   *lode_project_infos_to_variant   (GPtrArray                *infos);
GVariant   *lode_watch_to_variant           (const LodeProjectStatus  *status);
GVariant   *lode_search_response_to_variant (const LodeSearchResponse *response);

gboolean    lode_search_options_from_variant (GVariant                *options,
                                             LodeSearchOptions        *out,
                                             char                    **language,
                                             char                    **path_glob,
                                             GError                  **error);

G_END_DECLS
