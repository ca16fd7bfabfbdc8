/* lode-references.c — the identifiers of a file, by name
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-symbols"

#include "config.h"

#include <string.h>

#include "lode-references.h"
#include "lode-varint.h"

/* Sites are stored per (file, name) as one blob: each site's line, as the difference to the
 * previous site's line, shifted left by three bits over its kind, in LEB128 varints. A name
 * used on a hundred lines of a file takes about a hundred bytes. */

#define MAX_SITE_LINE (G_MAXUINT32 >> 3)

struct _LodeReferences
{
  GHashTable *by_name;   /* name → GArray of guint32 sites */
};

LodeReferences *
lode_references_new (void)
{
  LodeReferences *references = g_new0 (LodeReferences, 1);

  references->by_name = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                                (GDestroyNotify) g_array_unref);
  return references;
}

void
lode_references_free (LodeReferences *references)
{
  if (references == NULL)
    return;

  g_hash_table_unref (references->by_name);
  g_free (references);
}

/**
 * lode_references_add:
 * @references: a #LodeReferences
 * @name: the identifier (not necessarily nul-terminated)
 * @len: its length in bytes
 * @line: the 1-based line
 * @kind: what it does there
 *
 * Adds a site. Sites of one name must come in file order; two on the same line with the same
 * kind count once.
 */
void
lode_references_add (LodeReferences    *references,
                     const char        *name,
                     gsize              len,
                     guint              line,
                     LodeReferenceKind  kind)
{
  char buffer[256];
  g_autofree char *heap = len >= sizeof buffer ? g_strndup (name, len) : NULL;
  char *key = heap;
  GArray *sites;
  guint32 site = ((guint32) MIN (line, MAX_SITE_LINE) << 3) | kind;

  /* Every identifier of a file comes here: look up without allocating. */
  if (key == NULL)
    {
      memcpy (buffer, name, len);
      buffer[len] = '\0';
      key = buffer;
    }
  sites = g_hash_table_lookup (references->by_name, key);
  if (sites == NULL)
    {
      sites = g_array_sized_new (FALSE, FALSE, sizeof (guint32), 2);
      g_hash_table_insert (references->by_name, g_strdup (key), sites);
    }
  else if (g_array_index (sites, guint32, sites->len - 1) == site)
    return;

  g_array_append_val (sites, site);
}

guint
lode_references_get_n_names (LodeReferences *references)
{
  return g_hash_table_size (references->by_name);
}

void
lode_references_foreach (LodeReferences    *references,
                         LodeReferenceFunc  func,
                         gpointer           user_data)
{
  GHashTableIter iter;
  gpointer key, value;

  g_hash_table_iter_init (&iter, references->by_name);
  while (g_hash_table_iter_next (&iter, &key, &value))
    {
      GArray *sites = value;

      func (key, (const guint32 *) (gpointer) sites->data, sites->len, user_data);
    }
}

/**
 * lode_reference_sites_encode:
 * @sites: sites in file order
 * @n_sites: how many
 *
 * Returns: (transfer full): the stored form of @sites
 */
GBytes *
lode_reference_sites_encode (const guint32 *sites,
                             guint          n_sites)
{
  GByteArray *out = g_byte_array_sized_new (n_sites * 2);
  guint previous = 0;

  for (guint i = 0; i < n_sites; i++)
    {
      guint line = lode_reference_site_line (sites[i]);
      guint32 value = ((line >= previous ? line - previous : 0) << 3) |
                      lode_reference_site_kind (sites[i]);

      previous = MAX (line, previous);
      lode_varint_append (out, value);
    }

  return g_byte_array_free_to_bytes (out);
}

/**
 * lode_reference_sites_decode:
 * @data: what lode_reference_sites_encode() made
 * @len: its length
 *
 * A truncated or overlong varint ends the list: stored data never makes this read out of
 * bounds.
 *
 * Returns: (transfer full) (element-type guint32): the sites
 */
GArray *
lode_reference_sites_decode (const guint8 *data,
                             gsize         len)
{
  GArray *sites = g_array_new (FALSE, FALSE, sizeof (guint32));
  const guint8 *p = data;
  const guint8 *end = data + len;
  guint line = 0;

  while (p < end)
    {
      guint64 value;
      guint32 site;

      if (!lode_varint_read (&p, end, &value) || value > G_MAXUINT32)
        break;

      line += value >> 3;
      site = ((guint32) MIN (line, MAX_SITE_LINE) << 3) | (value & 7);
      g_array_append_val (sites, site);
    }

  return sites;
}

/**
 * lode_reference_kind_to_string:
 * @kind: a #LodeReferenceKind
 *
 * Returns: "use", "definition", "call", "type" or "import"
 */
const char *
lode_reference_kind_to_string (LodeReferenceKind kind)
{
  static const char * const names[] = {
    [LODE_REFERENCE_USE] = "use",
    [LODE_REFERENCE_DEFINITION] = "definition",
    [LODE_REFERENCE_CALL] = "call",
    [LODE_REFERENCE_TYPE] = "type",
    [LODE_REFERENCE_IMPORT] = "import",
  };

  return (guint) kind < G_N_ELEMENTS (names) ? names[kind] : "use";
}
