/* lode-chunker-sections.c — the structure of files without a grammar: Markdown headings,
 * YAML top-level keys, TOML tables
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-chunker"

#include "config.h"

#include <string.h>

#include "lode-chunker-private.h"

static Def *
add_section (Ctx        *ctx,
             guint       row,
             const char *name,
             gsize       name_len)
{
  Def def = { 0 };
  gsize ls = ctx->line_start[row];

  def.start_row = def.end_row = def.doc_row = row;
  def.start_byte = ls;
  def.end_byte = line_end (ctx, row);
  def.kind = g_intern_static_string ("section");
  def.name = _lode_chunker_collapse_ws (name, name_len, NAME_MAX_BYTES);
  def.signature = _lode_chunker_collapse_ws (ctx->text + ls, def.end_byte - ls, SIGNATURE_MAX);
  def.contains = TRUE;
  g_array_append_val (ctx->defs, def);
  return &g_array_index (ctx->defs, Def, ctx->defs->len - 1);
}

/* Markdown: ATX headings outside fenced code; a section runs to the next heading of the same
 * or a higher level. */
void
_lode_chunker_find_markdown_sections (Ctx *ctx)
{
  g_autoptr(GArray) levels = g_array_new (FALSE, FALSE, sizeof (guint));
  const char *fence = NULL;

  for (guint r = 0; r < ctx->n_lines; r++)
    {
      const char *p = ctx->text + ctx->line_start[r];
      const char *end = ctx->text + line_end (ctx, r);
      guint level = 0;

      while (p < end && *p == ' ' && p - (ctx->text + ctx->line_start[r]) < 3)
        p++;
      if (end - p >= 3 && (memcmp (p, "```", 3) == 0 || memcmp (p, "~~~", 3) == 0))
        {
          if (fence == NULL)
            fence = p;
          else if (*fence == *p)
            fence = NULL;
          continue;
        }
      if (fence != NULL)
        continue;

      while (p < end && *p == '#' && level < 7)
        {
          p++;
          level++;
        }
      if (level == 0 || level > 6 || (p < end && *p != ' ' && *p != '\t'))
        continue;

      while (end > p && (g_ascii_isspace (end[-1]) || end[-1] == '#'))
        end--;
      add_section (ctx, r, p, end > p ? end - p : 0);
      g_array_append_val (levels, level);
    }

  /* Close each section before the next heading of the same or a higher level. */
  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);
      guint level = g_array_index (levels, guint, i);
      guint j;

      for (j = i + 1; j < ctx->defs->len; j++)
        if (g_array_index (levels, guint, j) <= level)
          break;
      def->end_row = j < ctx->defs->len ? g_array_index (ctx->defs, Def, j).start_row - 1
                                        : ctx->n_lines - 1;
      def->end_byte = ctx->line_start[def->end_row + 1];
    }
}

/* YAML top-level keys and TOML tables: a section runs to the next one; comment lines right
 * above a section belong to it. */
void
_lode_chunker_find_key_sections (Ctx      *ctx,
                                 gboolean  toml)
{
  for (guint r = 0; r < ctx->n_lines; r++)
    {
      const char *p = ctx->text + ctx->line_start[r];
      const char *end = ctx->text + line_end (ctx, r);
      const char *name;
      const char *name_end;
      Def *def;

      if (p == end)
        continue;

      if (toml)
        {
          if (*p != '[')
            continue;
          name = p;
          while (name < end && *name == '[')
            name++;
          name_end = memchr (name, ']', end - name);
          if (name_end == NULL)
            continue;
        }
      else
        {
          if (g_ascii_isspace (*p) || *p == '#' || *p == '-' || *p == '.' || *p == '%')
            continue;
          name_end = memchr (p, ':', end - p);
          if (name_end == NULL || (name_end + 1 < end && name_end[1] != ' ' && name_end[1] != '\t'))
            continue;
          name = p;
          if (*name == '"' || *name == '\'')
            name++;
          while (name_end > name && (name_end[-1] == '"' || name_end[-1] == '\''))
            name_end--;
        }

      def = add_section (ctx, r, name, name_end - name);
      while (def->doc_row > 0 && ctx->text[ctx->line_start[def->doc_row - 1]] == '#')
        def->doc_row--;
    }

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);
      guint next = i + 1 < ctx->defs->len ? g_array_index (ctx->defs, Def, i + 1).doc_row
                                          : ctx->n_lines;

      def->end_row = MAX (def->start_row, next - 1);
      def->end_byte = ctx->line_start[def->end_row + 1];
    }
}

void
_lode_chunker_link_sections (Ctx *ctx)
{
  g_autoptr(GPtrArray) stack = g_ptr_array_new ();

  for (guint i = 0; i < ctx->defs->len; i++)
    {
      Def *def = &g_array_index (ctx->defs, Def, i);
      Def *parent;

      while (stack->len > 0 &&
             ((Def *) g_ptr_array_index (stack, stack->len - 1))->end_row < def->start_row)
        g_ptr_array_set_size (stack, stack->len - 1);

      parent = stack->len > 0 ? g_ptr_array_index (stack, stack->len - 1) : NULL;
      def->parent = parent;
      if (parent != NULL)
        {
          if (parent->last_child != NULL)
            parent->last_child->next_sibling = def;
          else
            parent->first_child = def;
          parent->last_child = def;
          def->container = g_strdup (parent->name);
        }
      g_ptr_array_add (stack, def);
    }
}
