/* lode-graph-diagram.c — what a picture of the import graph shows, and its Mermaid text
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-graph"

#include "config.h"

#include <string.h>

#include "lode-graph-diagram.h"

/*
 * A diagram is boxes and arrows within a bound. A file's neighbourhood keeps its nearest
 * files; past the bound the farther ones are drawn one box per folder, and what still does
 * not fit is one box that counts them. The whole project is drawn file by file when it fits,
 * else one box per folder at the deepest level that fits. Arrows between boxes count the
 * file → file imports they stand for; arrows and files of import cycles are marked, with
 * the same rule as lode_graph_find_cycles() (Rust's module tree is no cycle).
 */

#define UNSET G_MAXUINT

static void
box_clear (LodeGraphBox *box)
{
  g_free (box->path);
  g_free (box->name);
}

void
lode_graph_diagram_free (LodeGraphDiagram *self)
{
  if (self == NULL)
    return;

  g_clear_pointer (&self->boxes, g_array_unref);
  g_clear_pointer (&self->arrows, g_array_unref);
  g_free (self);
}

static LodeGraphDiagram *
diagram_new (void)
{
  LodeGraphDiagram *self = g_new0 (LodeGraphDiagram, 1);

  self->boxes = g_array_new (FALSE, TRUE, sizeof (LodeGraphBox));
  g_array_set_clear_func (self->boxes, (GDestroyNotify) box_clear);
  self->arrows = g_array_new (FALSE, TRUE, sizeof (LodeGraphArrow));

  return self;
}

/**
 * lode_graph_diagram_new_empty:
 *
 * Returns: (transfer full): a diagram with no box, for a symbol's definitions
 *   (lode_graph_diagram_add_symbol())
 */
LodeGraphDiagram *
lode_graph_diagram_new_empty (void)
{
  return diagram_new ();
}

/**
 * lode_graph_diagram_add_symbol:
 * @self: a diagram
 * @name: the definition's name
 * @path: its file
 * @language: (nullable): its file's language
 * @distance: calls between it and the focus
 * @focus: it is the definition the diagram is about
 *
 * Adds a definition's box, unless @self has one for @name in @path already.
 *
 * Returns: its box
 */
guint
lode_graph_diagram_add_symbol (LodeGraphDiagram *self,
                               const char       *name,
                               const char       *path,
                               const char       *language,
                               guint             distance,
                               gboolean          focus)
{
  LodeGraphBox box = { 0 };

  g_return_val_if_fail (self != NULL, 0);
  g_return_val_if_fail (name != NULL && path != NULL, 0);

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const LodeGraphBox *other = &g_array_index (self->boxes, LodeGraphBox, i);

      if (other->kind == LODE_GRAPH_BOX_DEFINITION && g_str_equal (other->name, name) &&
          g_str_equal (other->path, path))
        return i;
    }

  box.kind = LODE_GRAPH_BOX_DEFINITION;
  box.path = g_strdup (path);
  box.name = g_strdup (name);
  box.language = g_intern_string (language != NULL ? language : "text");
  box.n_files = 1;
  box.distance = distance;
  box.focus = focus;
  g_array_append_val (self->boxes, box);
  return self->boxes->len - 1;
}

/**
 * lode_graph_diagram_add_call:
 * @self: a diagram
 * @from: the calling definition's box
 * @to: the called one's
 *
 * Adds a call: an arrow, or one more call on the arrow there is.
 */
void
lode_graph_diagram_add_call (LodeGraphDiagram *self,
                             guint             from,
                             guint             to)
{
  LodeGraphArrow arrow = { from, to, 1, FALSE };

  g_return_if_fail (self != NULL);
  g_return_if_fail (from < self->boxes->len && to < self->boxes->len);

  for (guint i = 0; i < self->arrows->len; i++)
    {
      LodeGraphArrow *other = &g_array_index (self->arrows, LodeGraphArrow, i);

      if (other->from == from && other->to == to)
        {
          other->count++;
          return;
        }
    }
  g_array_append_val (self->arrows, arrow);
}

/* The cycle each file is in (its index in lode_graph_find_cycles()), or UNSET. */
static guint *
cycle_of_files (const LodeGraph *graph)
{
  g_autoptr(GPtrArray) cycles = lode_graph_find_cycles (graph);
  guint n = lode_graph_get_n_files (graph);
  guint *cycle_of = g_new (guint, MAX (n, 1));

  memset (cycle_of, 0xff, sizeof (guint) * n);
  for (guint i = 0; i < cycles->len; i++)
    {
      const LodeGraphCycle *cycle = g_ptr_array_index (cycles, i);

      for (guint j = 0; j < cycle->members->len; j++)
        cycle_of[g_array_index (cycle->members, guint, j)] = i;
    }

  return cycle_of;
}

static void
add_file_box (LodeGraphDiagram *self,
              const LodeGraph  *graph,
              guint             file,
              guint             distance,
              gboolean          focus,
              const guint      *cycle_of)
{
  LodeGraphBox box = { 0 };

  box.kind = LODE_GRAPH_BOX_FILE;
  box.path = g_strdup (lode_graph_get_path (graph, file));
  box.language = lode_graph_get_language (graph, file);
  box.file = file;
  box.n_files = 1;
  box.distance = distance;
  box.focus = focus;
  box.in_cycle = cycle_of[file] != UNSET;
  g_array_append_val (self->boxes, box);
}

static void
add_more_box (LodeGraphDiagram *self,
              guint             n_files,
              guint             distance)
{
  LodeGraphBox box = { 0 };

  if (n_files == 0)
    return;

  box.kind = LODE_GRAPH_BOX_MORE;
  box.language = "text";
  box.n_files = n_files;
  box.distance = distance;
  g_array_append_val (self->boxes, box);
  self->n_hidden = n_files;
}

/* Files grouped into one box each. */
typedef struct
{
  char       *name;         /* the folder, "." at the top */
  GHashTable *languages;    /* language → GUINT count */
  guint       n_files;
  guint       distance;     /* the nearest of its files */
  guint       box;          /* its box, UNSET when not drawn */
} Group;

static void
group_free (Group *group)
{
  g_free (group->name);
  g_hash_table_unref (group->languages);
  g_free (group);
}

static int
compare_groups (gconstpointer a,
                gconstpointer b)
{
  const Group *ga = *(Group *const *) a;
  const Group *gb = *(Group *const *) b;

  if (ga->n_files != gb->n_files)
    return ga->n_files > gb->n_files ? -1 : 1;
  return strcmp (ga->name, gb->name);
}

static const char *
main_language (Group *group)
{
  GHashTableIter iter;
  gpointer key, value;
  const char *best = "text";
  guint best_count = 0;

  g_hash_table_iter_init (&iter, group->languages);
  while (g_hash_table_iter_next (&iter, &key, &value))
    if (GPOINTER_TO_UINT (value) > best_count ||
        (GPOINTER_TO_UINT (value) == best_count && g_strcmp0 (key, best) < 0))
      {
        best = key;
        best_count = GPOINTER_TO_UINT (value);
      }

  return best;
}

/* The first @levels directories of @path ("." for a file at the top). */
static char *
directory_prefix (const char *path,
                  guint       levels)
{
  const char *end = path;
  const char *slash;

  for (guint i = 0; i < levels && (slash = strchr (end, '/')) != NULL; i++)
    end = slash + 1;

  if (end == path)
    return g_strdup (".");

  return g_strndup (path, end - path - 1);
}

/* Groups @files (ids) by the first @levels directories of their paths (G_MAXUINT: the whole
 * directory); @group_of gets each file's group. */
static GPtrArray *
group_files (const LodeGraph *graph,
             const guint     *files,
             const guint     *distances,
             guint            n_files,
             guint            levels,
             Group          **group_of)
{
  g_autoptr(GHashTable) by_name = g_hash_table_new (g_str_hash, g_str_equal);
  GPtrArray *groups = g_ptr_array_new_with_free_func ((GDestroyNotify) group_free);

  for (guint i = 0; i < n_files; i++)
    {
      const char *path = lode_graph_get_path (graph, files[i]);
      g_autofree char *name = NULL;
      gpointer language = (gpointer) lode_graph_get_language (graph, files[i]);
      Group *group;

      if (levels == G_MAXUINT)
        {
          const char *slash = strrchr (path, '/');

          name = slash != NULL ? g_strndup (path, slash - path) : g_strdup (".");
        }
      else
        name = directory_prefix (path, levels);

      group = g_hash_table_lookup (by_name, name);
      if (group == NULL)
        {
          group = g_new0 (Group, 1);
          group->name = g_steal_pointer (&name);
          group->languages = g_hash_table_new (NULL, NULL);
          group->distance = LODE_GRAPH_NO_DISTANCE;
          group->box = UNSET;
          g_hash_table_insert (by_name, group->name, group);
          g_ptr_array_add (groups, group);
        }
      group->n_files++;
      if (distances != NULL)
        group->distance = MIN (group->distance, distances[i]);
      g_hash_table_insert (group->languages, language,
                           GUINT_TO_POINTER (GPOINTER_TO_UINT (
                             g_hash_table_lookup (group->languages, language)) + 1));
      if (group_of != NULL)
        group_of[i] = group;
    }

  g_ptr_array_sort (groups, compare_groups);
  return groups;
}

/* Up to @max folder boxes for @groups, largest first; the rest of their files go to @more. */
static guint
add_folder_boxes (LodeGraphDiagram *self,
                  GPtrArray        *groups,
                  guint             max)
{
  guint more = 0;

  for (guint i = 0; i < groups->len; i++)
    {
      Group *group = g_ptr_array_index (groups, i);
      LodeGraphBox box = { 0 };

      if (i >= max)
        {
          more += group->n_files;
          continue;
        }
      box.kind = LODE_GRAPH_BOX_FOLDER;
      box.path = g_strconcat (group->name, "/", NULL);
      box.language = main_language (group);
      box.n_files = group->n_files;
      box.distance = group->distance;
      group->box = self->boxes->len;
      g_array_append_val (self->boxes, box);
    }

  return more;
}

/* The arrows between boxes: every import between two files that have a box, counted. */
static void
add_arrows (LodeGraphDiagram *self,
            const LodeGraph  *graph,
            const guint      *box_of,
            const guint      *cycle_of)
{
  g_autoptr(GHashTable) arrow_ids = g_hash_table_new_full (g_int64_hash, g_int64_equal,
                                                           g_free, NULL);
  guint n_files = lode_graph_get_n_files (graph);

  for (guint file = 0; file < n_files; file++)
    {
      const guint *row;
      guint n;

      if (box_of[file] == UNSET)
        continue;

      row = lode_graph_get_imports (graph, file, &n);
      for (guint i = 0; i < n; i++)
        {
          guint from = box_of[file];
          guint to = box_of[row[i]];
          gint64 key;
          gpointer id;
          LodeGraphArrow *arrow;

          if (to == UNSET || from == to)
            continue;
          key = ((gint64) from << 32) | to;
          if (!g_hash_table_lookup_extended (arrow_ids, &key, NULL, &id))
            {
              LodeGraphArrow added = { from, to, 0, FALSE };
              gint64 *stored = g_new (gint64, 1);

              *stored = key;
              id = GUINT_TO_POINTER (self->arrows->len);
              g_hash_table_insert (arrow_ids, stored, id);
              g_array_append_val (self->arrows, added);
            }
          arrow = &g_array_index (self->arrows, LodeGraphArrow, GPOINTER_TO_UINT (id));
          arrow->count++;
          /* Only file boxes carry cycles: folders and the rest are summaries. */
          if (g_array_index (self->boxes, LodeGraphBox, from).kind == LODE_GRAPH_BOX_FILE &&
              g_array_index (self->boxes, LodeGraphBox, to).kind == LODE_GRAPH_BOX_FILE &&
              cycle_of[file] != UNSET && cycle_of[file] == cycle_of[row[i]] &&
              !lode_graph_is_module_tree_edge (graph, file, row[i]))
            arrow->in_cycle = TRUE;
        }
    }
}

/* A file's neighbourhood: a breadth-first walk along both directions, nearest first. */
static void
build_neighbourhood (LodeGraphDiagram *self,
                     const LodeGraph  *graph,
                     guint             focus,
                     guint             depth,
                     guint             max_boxes,
                     guint            *box_of,
                     const guint      *cycle_of)
{
  guint n_files = lode_graph_get_n_files (graph);
  g_autofree guint *distance = g_new (guint, MAX (n_files, 1));
  g_autoptr(GArray) reached = g_array_new (FALSE, FALSE, sizeof (guint));
  g_autoptr(GArray) distances = g_array_new (FALSE, FALSE, sizeof (guint));
  guint head = 0;
  guint n_kept;

  memset (distance, 0xff, sizeof (guint) * n_files);
  distance[focus] = 0;
  g_array_append_val (reached, focus);

  while (head < reached->len)
    {
      guint node = g_array_index (reached, guint, head++);

      if (distance[node] >= depth)
        continue;
      for (guint direction = 0; direction < 2; direction++)
        {
          const guint *row;
          guint n;

          row = direction == 0 ? lode_graph_get_imports (graph, node, &n)
                               : lode_graph_get_dependents (graph, node, &n);
          for (guint i = 0; i < n; i++)
            {
              if (distance[row[i]] != UNSET)
                continue;
              distance[row[i]] = distance[node] + 1;
              g_array_append_val (reached, row[i]);
            }
        }
    }

  for (guint i = 0; i < reached->len; i++)
    g_array_append_val (distances, distance[g_array_index (reached, guint, i)]);

  /* Past the bound, a fifth of the boxes are folders of the farther files. */
  n_kept = reached->len <= max_boxes ? reached->len : max_boxes - MAX (max_boxes / 5, 1);
  for (guint i = 0; i < n_kept; i++)
    {
      guint file = g_array_index (reached, guint, i);

      box_of[file] = self->boxes->len;
      add_file_box (self, graph, file, distance[file], i == 0, cycle_of);
    }

  if (n_kept < reached->len)
    {
      guint n_rest = reached->len - n_kept;
      g_autofree Group **group_of = g_new (Group *, n_rest);
      g_autoptr(GPtrArray) groups = NULL;
      guint room = max_boxes - n_kept;
      guint more;
      guint farthest = 0;

      groups = group_files (graph, (guint *) reached->data + n_kept,
                            (guint *) distances->data + n_kept, n_rest, G_MAXUINT, group_of);
      /* All folders fit, or all but one box's worth, which counts the rest. */
      more = add_folder_boxes (self, groups, groups->len <= room ? room : room - 1);
      for (guint i = 0; i < n_rest; i++)
        {
          box_of[g_array_index (reached, guint, n_kept + i)] = group_of[i]->box;
          farthest = MAX (farthest, g_array_index (distances, guint, n_kept + i));
        }
      add_more_box (self, more, farthest);
    }
}

/* The whole project, one box per directory: the deepest directory level that still fits in
 * @max_boxes boxes; if even the top level does not fit, its largest directories. */
static void
build_directories (LodeGraphDiagram *self,
                   const LodeGraph  *graph,
                   guint             max_boxes,
                   guint            *box_of)
{
  guint n_files = lode_graph_get_n_files (graph);
  g_autofree guint *files = g_new (guint, MAX (n_files, 1));
  g_autofree Group **group_of = g_new (Group *, MAX (n_files, 1));
  g_autoptr(GPtrArray) groups = NULL;
  guint max_levels = 1;
  guint more;

  for (guint i = 0; i < n_files; i++)
    {
      guint n = 0;

      files[i] = i;
      for (const char *p = lode_graph_get_path (graph, i); *p != '\0'; p++)
        n += *p == '/';
      max_levels = MAX (max_levels, n);
    }

  for (guint levels = max_levels; ; levels--)
    {
      g_clear_pointer (&groups, g_ptr_array_unref);
      groups = group_files (graph, files, NULL, n_files, levels, group_of);
      if (groups->len <= max_boxes || levels == 1)
        break;
    }

  more = add_folder_boxes (self, groups, groups->len <= max_boxes ? max_boxes : max_boxes - 1);
  for (guint i = 0; i < n_files; i++)
    box_of[i] = group_of[i]->box;
  add_more_box (self, more, LODE_GRAPH_NO_DISTANCE);
}

/**
 * lode_graph_diagram_new:
 * @graph: a frozen graph
 * @focus: (nullable): the file whose neighbourhood to draw, or %NULL for the whole project
 * @depth: for @focus, hops to follow in both directions (1 … %LODE_GRAPH_MAX_DEPTH)
 * @max_boxes: boxes to draw at most (at least 2)
 *
 * A neighbourhood shows its files, nearest first; past @max_boxes, four fifths of the boxes
 * are the nearest files, then one box per folder of the others, largest first, and one box
 * for the files still left out. The project shows its files when it has no more than
 * @max_boxes, else one box per directory at the deepest level that fits, and one for the
 * directories left out.
 *
 * Returns: (transfer full): the diagram
 */
LodeGraphDiagram *
lode_graph_diagram_new (const LodeGraph *graph,
                        const guint     *focus,
                        guint            depth,
                        guint            max_boxes)
{
  LodeGraphDiagram *self;
  guint n_files;
  g_autofree guint *box_of = NULL;
  g_autofree guint *cycle_of = NULL;

  g_return_val_if_fail (graph != NULL, NULL);
  n_files = lode_graph_get_n_files (graph);
  g_return_val_if_fail (focus == NULL || *focus < n_files, NULL);

  self = diagram_new ();
  max_boxes = MAX (max_boxes, 2);
  depth = CLAMP (depth, 1, LODE_GRAPH_MAX_DEPTH);
  box_of = g_new (guint, MAX (n_files, 1));
  memset (box_of, 0xff, sizeof (guint) * n_files);
  cycle_of = cycle_of_files (graph);

  if (focus != NULL)
    build_neighbourhood (self, graph, *focus, depth, max_boxes, box_of, cycle_of);
  else if (n_files <= max_boxes)
    for (guint i = 0; i < n_files; i++)
      {
        box_of[i] = i;
        add_file_box (self, graph, i, LODE_GRAPH_NO_DISTANCE, FALSE, cycle_of);
      }
  else
    build_directories (self, graph, max_boxes, box_of);

  add_arrows (self, graph, box_of, cycle_of);

  return self;
}

/**
 * lode_graph_diagram_dup_label:
 * @box: a box of a diagram
 *
 * Returns: (transfer full): the box's text, in English: the file's path, "src/net/ (4 files)",
 *   "12 more files", a definition's name
 */
char *
lode_graph_diagram_dup_label (const LodeGraphBox *box)
{
  g_return_val_if_fail (box != NULL, NULL);

  switch (box->kind)
    {
    case LODE_GRAPH_BOX_FILE:
      return g_strdup (box->path);
    case LODE_GRAPH_BOX_FOLDER:
      return g_strdup_printf ("%s (%u %s)", box->path, box->n_files,
                              box->n_files == 1 ? "file" : "files");
    case LODE_GRAPH_BOX_MORE:
      return g_strdup_printf ("%u more %s", box->n_files, box->n_files == 1 ? "file" : "files");
    case LODE_GRAPH_BOX_DEFINITION:
      return g_strdup (box->name);
    default:
      g_return_val_if_reached (NULL);
    }
}

/* Mermaid */

typedef struct
{
  const char *language;
  const char *fill;
  const char *text;
} LanguageColour;

/* Colours close to the ones GitHub's linguist gives each language, dark text on light fills
 * and the reverse, so that labels stay readable. */
static const LanguageColour language_colours[] = {
  { "bash",       "#89e051", "#000" },
  { "c",          "#555555", "#fff" },
  { "cpp",        "#f34b7d", "#000" },
  { "csharp",     "#178600", "#fff" },
  { "css",        "#663399", "#fff" },
  { "dart",       "#00b4ab", "#000" },
  { "go",         "#00add8", "#000" },
  { "html",       "#e34c26", "#fff" },
  { "java",       "#b07219", "#fff" },
  { "javascript", "#f1e05a", "#000" },
  { "kotlin",     "#a97bff", "#000" },
  { "lua",        "#000080", "#fff" },
  { "php",        "#4f5d95", "#fff" },
  { "python",     "#3572a5", "#fff" },
  { "ruby",       "#701516", "#fff" },
  { "rust",       "#dea584", "#000" },
  { "scala",      "#c22d40", "#fff" },
  { "scss",       "#c6538c", "#fff" },
  { "svelte",     "#ff3e00", "#fff" },
  { "swift",      "#f05138", "#000" },
  { "tsx",        "#3178c6", "#fff" },
  { "typescript", "#3178c6", "#fff" },
  { "vue",        "#41b883", "#000" },
};

/**
 * lode_graph_language_colours:
 * @language: a language id
 * @fill: (out): the fill of its boxes, "#rrggbb"
 * @text: (out): the colour of their text
 */
void
lode_graph_language_colours (const char  *language,
                             const char **fill,
                             const char **text)
{
  g_return_if_fail (fill != NULL && text != NULL);

  *fill = "#dddddd";
  *text = "#000";
  for (guint i = 0; i < G_N_ELEMENTS (language_colours); i++)
    if (g_strcmp0 (language_colours[i].language, language) == 0)
      {
        *fill = language_colours[i].fill;
        *text = language_colours[i].text;
      }
}

/* A class name Mermaid accepts: letters, digits and underscores. */
static void
append_class_name (GString    *out,
                   const char *language)
{
  g_string_append (out, "lang_");
  for (const char *p = language; *p != '\0'; p++)
    g_string_append_c (out, g_ascii_isalnum (*p) ? *p : '_');
}

/* Text inside a quoted Mermaid label, with Mermaid's entity codes for what would end it. */
static void
append_label (GString    *out,
              const char *text)
{
  for (const char *p = text; *p != '\0'; p++)
    {
      switch (*p)
        {
        case '"':
          g_string_append (out, "#quot;");
          break;
        case '<':
          g_string_append (out, "#lt;");
          break;
        case '>':
          g_string_append (out, "#gt;");
          break;
        case '#':
          g_string_append (out, "#35;");
          break;
        case '\n':
        case '\r':
          g_string_append_c (out, ' ');
          break;
        default:
          g_string_append_c (out, *p);
          break;
        }
    }
}

static int
compare_strings (gconstpointer a,
                 gconstpointer b)
{
  return strcmp (*(const char *const *) a, *(const char *const *) b);
}

/**
 * lode_graph_diagram_to_mermaid:
 * @self: a diagram
 *
 * A Mermaid flowchart of @self: boxes coloured by language, the focus file with a red border,
 * arrows of cycles red, the number of imports on arrows that stand for more than one.
 *
 * Returns: (transfer full): the diagram's source
 */
char *
lode_graph_diagram_to_mermaid (const LodeGraphDiagram *self)
{
  g_autoptr(GHashTable) classes = g_hash_table_new_full (g_str_hash, g_str_equal, NULL,
                                                         (GDestroyNotify) g_ptr_array_unref);
  g_autoptr(GPtrArray) languages = g_ptr_array_new ();
  GString *out = g_string_new ("flowchart LR\n");

  g_return_val_if_fail (self != NULL, NULL);

  for (guint i = 0; i < self->boxes->len; i++)
    {
      const LodeGraphBox *box = &g_array_index (self->boxes, LodeGraphBox, i);
      g_autofree char *label = lode_graph_diagram_dup_label (box);
      GPtrArray *members;

      g_string_append_printf (out, "  n%u[\"", i);
      append_label (out, label);
      g_string_append (out, "\"]\n");

      members = g_hash_table_lookup (classes, box->language);
      if (members == NULL)
        {
          members = g_ptr_array_new ();
          g_hash_table_insert (classes, (gpointer) box->language, members);
          g_ptr_array_add (languages, (gpointer) box->language);
        }
      g_ptr_array_add (members, GUINT_TO_POINTER (i));
    }

  for (guint i = 0; i < self->arrows->len; i++)
    {
      const LodeGraphArrow *arrow = &g_array_index (self->arrows, LodeGraphArrow, i);

      if (arrow->count > 1)
        g_string_append_printf (out, "  n%u -->|%u| n%u\n", arrow->from, arrow->count, arrow->to);
      else
        g_string_append_printf (out, "  n%u --> n%u\n", arrow->from, arrow->to);
    }

  g_ptr_array_sort (languages, compare_strings);
  for (guint i = 0; i < languages->len; i++)
    {
      const char *language = g_ptr_array_index (languages, i);
      GPtrArray *members = g_hash_table_lookup (classes, language);
      const char *fill, *text;

      lode_graph_language_colours (language, &fill, &text);
      g_string_append (out, "  classDef ");
      append_class_name (out, language);
      g_string_append_printf (out, " fill:%s,color:%s\n  class ", fill, text);
      for (guint j = 0; j < members->len; j++)
        g_string_append_printf (out, "%sn%u", j > 0 ? "," : "",
                                GPOINTER_TO_UINT (g_ptr_array_index (members, j)));
      g_string_append_c (out, ' ');
      append_class_name (out, language);
      g_string_append_c (out, '\n');
    }

  for (guint i = 0; i < self->boxes->len; i++)
    if (g_array_index (self->boxes, LodeGraphBox, i).focus)
      g_string_append_printf (out, "  style n%u stroke:#d00,stroke-width:3px\n", i);
  for (guint i = 0; i < self->arrows->len; i++)
    if (g_array_index (self->arrows, LodeGraphArrow, i).in_cycle)
      g_string_append_printf (out, "  linkStyle %u stroke:#d00\n", i);

  return g_string_free (out, FALSE);
}
