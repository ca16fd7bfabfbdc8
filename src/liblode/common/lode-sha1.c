/* lode-sha1.c — content names: git's blob ids and the stores' text keys
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#include "config.h"

#include <nettle/sha1.h>

#include "lode-sha1.h"

/* SHA-1 comes from Nettle, not GChecksum: an index hashes every file and every chunk's text,
 * and GLib's portable SHA-1 took 3.4 % of the instructions of indexing git v2.47.0, where
 * Nettle picks the CPU's SHA instructions at run time (bench/README.md). */

static char *
digest_string (struct sha1_ctx *ctx)
{
  static const char hex[] = "0123456789abcdef";
  guint8 digest[SHA1_DIGEST_SIZE];
  char *out = g_malloc (SHA1_DIGEST_SIZE * 2 + 1);

  sha1_digest (ctx, sizeof digest, digest);
  for (guint i = 0; i < SHA1_DIGEST_SIZE; i++)
    {
      out[2 * i] = hex[digest[i] >> 4];
      out[2 * i + 1] = hex[digest[i] & 0xf];
    }
  out[SHA1_DIGEST_SIZE * 2] = '\0';

  return out;
}

/**
 * lode_sha1_string:
 * @data: the bytes to hash
 * @len: length of @data in bytes
 *
 * The SHA-1 of @data, as g_compute_checksum_for_data() gives it.
 *
 * Returns: (transfer full): 40 lower-case hexadecimal digits
 */
char *
lode_sha1_string (const char *data,
                  gsize       len)
{
  struct sha1_ctx ctx;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  sha1_init (&ctx);
  sha1_update (&ctx, len, (const guint8 *) data);

  return digest_string (&ctx);
}

/**
 * lode_git_blob_id:
 * @data: a file's contents
 * @len: length of @data in bytes
 *
 * git's id of @data as a blob, so that a file's hash matches `git ls-tree` and can be
 * compared across tools.
 *
 * Returns: (transfer full): 40 lower-case hexadecimal digits
 */
char *
lode_git_blob_id (const char *data,
                  gsize       len)
{
  struct sha1_ctx ctx;
  char header[32];
  int header_len;

  g_return_val_if_fail (data != NULL || len == 0, NULL);

  header_len = g_snprintf (header, sizeof header, "blob %" G_GSIZE_FORMAT, len);
  sha1_init (&ctx);
  sha1_update (&ctx, header_len + 1, (const guint8 *) header);
  sha1_update (&ctx, len, (const guint8 *) data);

  return digest_string (&ctx);
}
