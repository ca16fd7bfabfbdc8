/* lode-artifact-chunker.h
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#pragma once

#include <glib.h>

G_BEGIN_DECLS

/**
 * LodeArtifactChunk:
 * @path: the file it comes from, as given to lode_artifact_chunk_text()
 * @start_line: first line, 1-based
 * @end_line: last line, inclusive
 * @kind: what the piece is: "sql", "openapi-path", "openapi-schema", "section", "block",
 *   "text"
 * @title: (nullable): its name: `CREATE TABLE users`, `GET /users/{id}`, `schema User`,
 *   a heading, `message Order`
 * @body: the text
 *
 * A searchable piece of a context artifact.
 */
typedef struct
{
  char  *path;
  guint  start_line;
  guint  end_line;
  char  *kind;
  char  *title;
  char  *body;
} LodeArtifactChunk;

void       lode_artifact_chunk_free   (LodeArtifactChunk *chunk);
GPtrArray *lode_artifact_chunk_text   (const char        *path,
                                       const char        *text,
                                       gsize              len);

G_DEFINE_AUTOPTR_CLEANUP_FUNC (LodeArtifactChunk, lode_artifact_chunk_free)

G_END_DECLS
