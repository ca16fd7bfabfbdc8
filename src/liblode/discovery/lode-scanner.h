/* lode-scanner.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <gio/gio.h>

#include "lode-language.h"

G_BEGIN_DECLS

/**
 * LodeSkipReason:
 * @LODE_SKIP_TOO_LARGE: larger than the configured size cap
 * @LODE_SKIP_BINARY: binary content
 * @LODE_SKIP_UNREADABLE: could not be opened or read
 * @LODE_SKIP_SYMLINK_OUTSIDE: a symbolic link that leads out of the project root
 * @LODE_SKIP_SYMLINK_LOOP: a symbolic link that loops or dangles
 * @LODE_SKIP_NOT_REGULAR: a device, socket or FIFO
 * @LODE_SKIP_SPECIAL_FS: on a file system of the kernel (procfs, sysfs, devtmpfs, …),
 *   whose files are not source and may never end
 * @LODE_SKIP_OVER_TIME_BUDGET: indexed, but its parse went over the time budget: it was
 *   chunked by lines, or its imports were not read (the detail says which)
 *
 * Why a file that is not ignored still is not indexed, or not fully. Ignored files are not
 * reported.
 */
typedef enum
{
  LODE_SKIP_TOO_LARGE,
  LODE_SKIP_BINARY,
  LODE_SKIP_UNREADABLE,
  LODE_SKIP_SYMLINK_OUTSIDE,
  LODE_SKIP_SYMLINK_LOOP,
  LODE_SKIP_NOT_REGULAR,
  LODE_SKIP_SPECIAL_FS,
  LODE_SKIP_OVER_TIME_BUDGET,
} LodeSkipReason;

#define LODE_SKIP_LAST LODE_SKIP_OVER_TIME_BUDGET

typedef struct
{
  char               *path;        /* relative to the root, '/'-separated */
  const LodeLanguage *language;
  guint64             size;
  gint64              mtime_usec;
} LodeScanFile;

typedef struct
{
  char           *path;
  LodeSkipReason  reason;
  char           *detail;          /* (nullable) e.g. the errno message */
} LodeSkippedFile;

void        lode_scan_file_free        (LodeScanFile    *file);
void        lode_skipped_file_free     (LodeSkippedFile *skipped);
const char *lode_skip_reason_to_string (LodeSkipReason   reason);

#define LODE_TYPE_SCANNER (lode_scanner_get_type ())
G_DECLARE_FINAL_TYPE (LodeScanner, lode_scanner, LODE, SCANNER, GObject)

LodeScanner *lode_scanner_new               (const char    *root);
void         lode_scanner_set_max_file_size (LodeScanner   *self,
                                             guint64        max_file_size);
gboolean     lode_scanner_scan              (LodeScanner   *self,
                                             GCancellable  *cancellable,
                                             GPtrArray    **files,
                                             GPtrArray    **skipped,
                                             GError       **error);
gboolean     lode_scanner_scan_paths        (LodeScanner         *self,
                                             const char * const  *paths,
                                             GPtrArray          **files,
                                             GPtrArray          **skipped,
                                             GPtrArray          **gone);

/**
 * LodeContentVerdict:
 * @LODE_CONTENT_TEXT: valid UTF-8 text
 * @LODE_CONTENT_REPAIRED: text with invalid UTF-8 sequences, which were replaced by U+FFFD
 * @LODE_CONTENT_BINARY: binary data, not to be indexed
 */
typedef enum
{
  LODE_CONTENT_TEXT,
  LODE_CONTENT_REPAIRED,
  LODE_CONTENT_BINARY,
} LodeContentVerdict;

LodeContentVerdict lode_content_check (const char  *data,
                                       gsize        len,
                                       char       **repaired);

char              *lode_read_file     (const char      *path,
                                       guint64          max_size,
                                       gsize           *length,
                                       gint64          *mtime,
                                       LodeSkipReason  *reason,
                                       GError         **error);

G_END_DECLS
