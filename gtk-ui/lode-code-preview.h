/* lode-code-preview.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <adwaita.h>
#include <gtksourceview/gtksource.h>

G_BEGIN_DECLS

#define LODE_TYPE_CODE_PREVIEW (lode_code_preview_get_type ())
G_DECLARE_FINAL_TYPE (LodeCodePreview, lode_code_preview, LODE, CODE_PREVIEW, GtkWidget)

void             lode_code_preview_show            (LodeCodePreview *self,
                                                    const char      *path,
                                                    const char      *title,
                                                    guint            first_line,
                                                    guint            last_line,
                                                    const char      *query);
void             lode_code_preview_clear           (LodeCodePreview *self);
const char      *lode_code_preview_get_path        (LodeCodePreview *self);
gboolean         lode_code_preview_get_loaded      (LodeCodePreview *self);
GtkSourceBuffer *lode_code_preview_get_buffer      (LodeCodePreview *self);
GArray          *lode_code_preview_dup_marked_lines (LodeCodePreview *self);

G_END_DECLS
