/* lode-bert-private.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include "lode-bert.h"

G_BEGIN_DECLS

LodeBert *_lode_bert_new_for_data (const char    *config,
                                   const guint8  *weights,
                                   gsize          weights_len,
                                   GError       **error);

G_END_DECLS
