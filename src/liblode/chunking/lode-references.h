/* lode-references.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeReferenceKind:
 * @LODE_REFERENCE_USE: any other use of the name (a variable, an argument, a field)
 * @LODE_REFERENCE_DEFINITION: the name of a declaration
 * @LODE_REFERENCE_CALL: the function called (also a method, a constructor after `new`, a
 *   macro invocation)
 * @LODE_REFERENCE_TYPE: a type (a declaration's type, a base class, a type argument)
 * @LODE_REFERENCE_IMPORT: inside an import, include, use or package statement
 *
 * What an identifier does where it appears. The values are stored: only append.
 */
typedef enum
{
  LODE_REFERENCE_USE,
  LODE_REFERENCE_DEFINITION,
  LODE_REFERENCE_CALL,
  LODE_REFERENCE_TYPE,
  LODE_REFERENCE_IMPORT,
} LodeReferenceKind;

#define LODE_REFERENCE_N_KINDS (LODE_REFERENCE_IMPORT + 1)

/**
 * LodeReferences:
 *
 * The identifiers of one file, from its parse (code only: comments and strings hold none):
 * for each name, the lines where it appears and what it does there, in file order.
 */
typedef struct _LodeReferences LodeReferences;

/**
 * LodeReferenceFunc:
 * @name: an identifier
 * @sites: its sites in file order, each lode_reference_site_line() and _kind()
 * @n_sites: how many
 * @user_data: data passed to lode_references_foreach()
 */
typedef void (*LodeReferenceFunc) (const char    *name,
                                   const guint32 *sites,
                                   guint          n_sites,
                                   gpointer       user_data);

LodeReferences    *lode_references_new          (void);
void               lode_references_free         (LodeReferences    *references);
void               lode_references_add          (LodeReferences    *references,
                                                 const char        *name,
                                                 gsize              len,
                                                 guint              line,
                                                 LodeReferenceKind  kind);
guint              lode_references_get_n_names  (LodeReferences    *references);
void               lode_references_foreach      (LodeReferences    *references,
                                                 LodeReferenceFunc  func,
                                                 gpointer           user_data);
GBytes            *lode_reference_sites_encode  (const guint32     *sites,
                                                 guint              n_sites);
GArray            *lode_reference_sites_decode  (const guint8      *data,
                                                 gsize              len);
const char        *lode_reference_kind_to_string (LodeReferenceKind kind);

/* A site packs a 1-based line and a kind. */
static inline guint
lode_reference_site_line (guint32 site)
{
  return site >> 3;
}

static inline LodeReferenceKind
lode_reference_site_kind (guint32 site)
{
  return (LodeReferenceKind) (site & 7);
}

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeReferences, lode_references_free)

G_END_DECLS
