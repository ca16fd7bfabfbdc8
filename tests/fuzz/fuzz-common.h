/* fuzz-common.h — what the libFuzzer harnesses of tests/fuzz share
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <stddef.h>
#include <stdint.h>

#include <stdlib.h>
#include <string.h>

#include <glib.h>

G_BEGIN_DECLS

int LLVMFuzzerTestOneInput (const uint8_t *data,
                            size_t         size);
int LLVMFuzzerInitialize   (int           *argc,
                            char        ***argv);

/* Splits an input into its first line (a file name, a tool name…) and the rest, both
 * nul-terminated copies: inputs hold any byte, the code under test wants C strings. */
static inline void
fuzz_split_first_line (const uint8_t  *data,
                       size_t          size,
                       char          **head,
                       char          **body,
                       gsize          *body_len)
{
  const uint8_t *nl = memchr (data, '\n', size);
  gsize head_len = nl != NULL ? (gsize) (nl - data) : size;

  *head = g_strndup ((const char *) data, head_len);
  *body_len = nl != NULL ? size - head_len - 1 : 0;
  *body = g_malloc (*body_len + 1);
  if (*body_len > 0)
    memcpy (*body, nl + 1, *body_len);
  (*body)[*body_len] = '\0';
}

/* Drops GLib's messages below critical: bad input may rightly cause a warning, and one per
 * input would drown libFuzzer's output. A critical means a broken precondition (a
 * g_return_if_fail): it is a finding, so it aborts. */
static GLogWriterOutput
fuzz_log_writer (GLogLevelFlags   level,
                 const GLogField *fields,
                 gsize            n_fields,
                 gpointer         user_data)
{
  if ((level & (G_LOG_LEVEL_ERROR | G_LOG_LEVEL_CRITICAL)) == 0)
    return G_LOG_WRITER_HANDLED;

  g_log_writer_standard_streams (level, fields, n_fields, user_data);
  abort ();
}

/* Before libFuzzer's first input, and before LLVMFuzzerInitialize where a harness has one. */
__attribute__ ((constructor)) static void
fuzz_quiet_logs (void)
{
  g_log_set_writer_func (fuzz_log_writer, NULL, NULL);
}

G_END_DECLS
