/* lode-artifact-chunker.c — context artifacts cut along their structure
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-context"

#include "config.h"

#include <json-glib/json-glib.h>
#include <string.h>

#include "lode-artifact-chunker.h"
#include "lode-json.h"

/*
 * A context artifact is searched for the piece that answers a question: the table, the
 * endpoint, the message, the section. So each kind of document is cut where its own
 * structure says a piece ends:
 *   - SQL: one statement per chunk (`;` outside strings, comments and dollar quotes), with
 *     the comments above it; titled by its head (`CREATE TABLE users`);
 *   - OpenAPI and Swagger (YAML or JSON): one chunk per path (titled `GET, POST /users`) and
 *     per schema of components/definitions (`schema User`), the rest per top-level key;
 *   - Markdown: one chunk per section, titled by its headings (`Setup > Database`);
 *   - Protobuf, GraphQL, Terraform/HCL, Thrift, Prisma: one chunk per top-level block
 *     (`message Order`, `type Query`, `resource "aws_s3_bucket" "logs"`);
 *   - anything else: windows of WINDOW_LINES lines.
 * A chunk longer than MAX_CHUNK_LINES is cut into windows that keep its title. Every scan
 * reads each byte a bounded number of times.
 */

#define WINDOW_LINES     60
#define MAX_CHUNK_LINES  150
#define TITLE_MAX        120

typedef struct
{
  const char *path;
  const char *text;
  gsize       len;
  gsize      *line_start;   /* n_lines + 1 offsets */
  guint       n_lines;
  GPtrArray  *out;
} Doc;

/* 1-based line of byte @offset. */
static guint
line_of (Doc   *doc,
         gsize  offset)
{
  guint lo = 0, hi = doc->n_lines;

  while (lo + 1 < hi)
    {
      guint mid = lo + (hi - lo) / 2;

      if (doc->line_start[mid] <= offset)
        lo = mid;
      else
        hi = mid;
    }
  return lo + 1;
}

static const char *
line_text (Doc  *doc,
           guint line,
           gsize *length)
{
  gsize start = doc->line_start[line - 1];
  gsize end = doc->line_start[line];

  if (end > start && doc->text[end - 1] == '\n')
    end--;
  *length = end - start;
  return doc->text + start;
}

static gboolean
line_is_blank (Doc   *doc,
               guint  line)
{
  gsize n;
  const char *p = line_text (doc, line, &n);

  for (gsize i = 0; i < n; i++)
    if (!g_ascii_isspace (p[i]))
      return FALSE;
  return TRUE;
}

static char *
collapse_title (const char *text,
                gsize       len)
{
  GString *out = g_string_new (NULL);
  gboolean space = FALSE;

  for (gsize i = 0; i < len && out->len < TITLE_MAX; i++)
    {
      if (g_ascii_isspace (text[i]))
        {
          space = out->len > 0;
          continue;
        }
      if (space)
        g_string_append_c (out, ' ');
      space = FALSE;
      g_string_append_c (out, text[i]);
    }
  if (!g_utf8_validate (out->str, out->len, NULL))
    {
      char *valid = g_utf8_make_valid (out->str, out->len);

      g_string_free (out, TRUE);
      return valid;
    }
  return g_string_free (out, out->len == 0);
}

/* Adds lines @first…@last (blank lines at both ends dropped) as one chunk, or several
 * windows of one title when it is long. */
static void
add_chunk (Doc        *doc,
           guint       first,
           guint       last,
           const char *kind,
           const char *title)
{
  while (first <= last && first <= doc->n_lines && line_is_blank (doc, first))
    first++;
  while (last >= first && last >= 1 && line_is_blank (doc, last))
    last--;
  if (first > last || first > doc->n_lines)
    return;
  last = MIN (last, doc->n_lines);

  for (guint start = first; start <= last; start += MAX_CHUNK_LINES)
    {
      guint end = MIN (last, start + MAX_CHUNK_LINES - 1);
      LodeArtifactChunk *chunk = g_new0 (LodeArtifactChunk, 1);
      gsize from = doc->line_start[start - 1];
      gsize to = doc->line_start[end];

      if (to > from && doc->text[to - 1] == '\n')
        to--;
      chunk->path = g_strdup (doc->path);
      chunk->start_line = start;
      chunk->end_line = end;
      chunk->kind = g_strdup (kind);
      chunk->title = g_strdup (title);
      chunk->body = g_utf8_make_valid (doc->text + from, to - from);
      g_ptr_array_add (doc->out, chunk);
    }
}

static void
chunk_windows (Doc   *doc,
               guint  first,
               guint  last)
{
  for (guint start = first; start <= last; start += WINDOW_LINES)
    add_chunk (doc, start, MIN (last, start + WINDOW_LINES - 1), "text", NULL);
}

/* SQL --------------------------------------------------------------------------------- */

/* The head of a statement: its words up to the first parenthesis or line end, after any
 * comments. */
static char *
sql_title (Doc   *doc,
           gsize  start,
           gsize  end)
{
  const char *p = doc->text + start;
  const char *stop = doc->text + end;

  for (;;)
    {
      while (p < stop && g_ascii_isspace (*p))
        p++;
      if (p + 1 < stop && p[0] == '-' && p[1] == '-')
        {
          while (p < stop && *p != '\n')
            p++;
        }
      else if (p + 1 < stop && p[0] == '/' && p[1] == '*')
        {
          const char *close = g_strstr_len (p + 2, stop - p - 2, "*/");

          p = close != NULL ? close + 2 : stop;
        }
      else
        break;
    }
  {
    const char *q = p;

    while (q < stop && *q != '(' && *q != '\n' && *q != ';')
      q++;
    return collapse_title (p, q - p);
  }
}

static void
chunk_sql (Doc *doc)
{
  const char *text = doc->text;
  gsize len = doc->len;
  gsize statement = 0;
  guint first_line = 1;
  gsize i = 0;

  while (i < len)
    {
      char c = text[i];

      if (c == '-' && i + 1 < len && text[i + 1] == '-')
        {
          while (i < len && text[i] != '\n')
            i++;
        }
      else if (c == '/' && i + 1 < len && text[i + 1] == '*')
        {
          const char *close = g_strstr_len (text + i + 2, len - i - 2, "*/");

          i = close != NULL ? (gsize) (close - text) + 2 : len;
        }
      else if (c == '\'' || c == '"' || c == '`')
        {
          i++;
          while (i < len && !(text[i] == c && !(i + 1 < len && text[i + 1] == c)))
            i += (text[i] == c) ? 2 : 1;
          i++;
        }
      else if (c == '$' && i + 1 < len && (text[i + 1] == '$' || g_ascii_isalpha (text[i + 1])))
        {
          /* PostgreSQL dollar quoting: $$ … $$ or $tag$ … $tag$ */
          gsize tag_end = i + 1;
          g_autofree char *tag = NULL;
          const char *close;

          while (tag_end < len && (g_ascii_isalnum (text[tag_end]) || text[tag_end] == '_'))
            tag_end++;
          if (tag_end >= len || text[tag_end] != '$')
            {
              i++;
              continue;
            }
          tag = g_strndup (text + i, tag_end - i + 1);
          close = g_strstr_len (text + tag_end + 1, len - tag_end - 1, tag);
          i = close != NULL ? (gsize) (close - text) + strlen (tag) : len;
        }
      else if (c == ';')
        {
          guint last_line = line_of (doc, i);
          g_autofree char *title = sql_title (doc, statement, i);

          if (title != NULL)
            add_chunk (doc, first_line, last_line, "sql", title);
          i++;
          statement = i;
          first_line = last_line + 1;
        }
      else
        i++;
    }

  if (first_line <= doc->n_lines)
    {
      g_autofree char *title = sql_title (doc, statement, len);

      if (title != NULL)
        add_chunk (doc, first_line, doc->n_lines, "sql", title);
    }
}

/* Markdown ---------------------------------------------------------------------------- */

static guint
heading_level (const char *line,
               gsize       n)
{
  guint level = 0;

  while (level < n && line[level] == '#')
    level++;
  return level >= 1 && level <= 6 && level < n && line[level] == ' ' ? level : 0;
}

static void
chunk_markdown (Doc *doc)
{
  char *titles[7] = { NULL };
  guint start = 1;
  g_autofree char *current = NULL;
  gboolean fenced = FALSE;

  for (guint line = 1; line <= doc->n_lines + 1; line++)
    {
      gsize n = 0;
      const char *text = line <= doc->n_lines ? line_text (doc, line, &n) : NULL;
      guint level;

      if (text != NULL && n >= 3 && (strncmp (text, "```", 3) == 0 ||
                                     strncmp (text, "~~~", 3) == 0))
        fenced = !fenced;
      level = text != NULL && !fenced ? heading_level (text, n) : 0;
      if (text != NULL && level == 0)
        continue;

      /* A heading, or the end: the section before it is complete. */
      add_chunk (doc, start, line - 1, "section",
                 current != NULL ? current : doc->path);
      if (text == NULL)
        break;

      g_free (titles[level]);
      titles[level] = collapse_title (text + level + 1, n - level - 1);
      for (guint l = level + 1; l <= 6; l++)
        g_clear_pointer (&titles[l], g_free);
      {
        GString *path = g_string_new (NULL);

        for (guint l = 1; l <= level; l++)
          if (titles[l] != NULL)
            g_string_append_printf (path, "%s%s", path->len > 0 ? " > " : "", titles[l]);
        g_free (current);
        current = g_string_free (path, FALSE);
      }
      start = line;
    }

  for (guint l = 0; l <= 6; l++)
    g_free (titles[l]);
}

/* OpenAPI ----------------------------------------------------------------------------- */

static guint
indent_of (const char *line,
           gsize       n)
{
  guint indent = 0;

  while (indent < n && line[indent] == ' ')
    indent++;
  return indent;
}

/* The key of a YAML mapping line (`  /users/{id}:` → `/users/{id}`), or NULL. */
static char *
yaml_key (const char *line,
          gsize       n)
{
  guint indent = indent_of (line, n);
  const char *p = line + indent;
  const char *end = line + n;
  const char *colon;

  if (p >= end || *p == '#' || *p == '-')
    return NULL;
  if (*p == '"' || *p == '\'')
    {
      const char *close = memchr (p + 1, *p, end - p - 1);

      if (close == NULL || close + 1 >= end || close[1] != ':')
        return NULL;
      return g_strndup (p + 1, close - p - 1);
    }
  colon = p;
  while (colon < end && !(*colon == ':' && (colon + 1 == end || colon[1] == ' ')))
    colon++;
  if (colon >= end)
    return NULL;
  return g_strndup (p, colon - p);
}

static gboolean
is_http_method (const char *key)
{
  static const char * const methods[] = {
    "get", "put", "post", "delete", "options", "head", "patch", "trace", NULL
  };

  return g_strv_contains (methods, key);
}

/* The child blocks of the mapping whose key line is @parent (`paths:`): one chunk each,
 * titled by @title_of. Returns the line after the mapping. */
static guint
yaml_children (Doc        *doc,
               guint       parent,
               guint       parent_indent,
               const char *kind,
               gboolean    paths)
{
  guint line = parent + 1;
  guint child_indent = 0;

  while (line <= doc->n_lines)
    {
      gsize n;
      const char *text = line_text (doc, line, &n);
      g_autofree char *key = NULL;
      guint indent, start, end;
      GString *methods;

      if (line_is_blank (doc, line) || text[indent_of (text, n)] == '#')
        {
          line++;
          continue;
        }
      indent = indent_of (text, n);
      if (indent <= parent_indent)
        break;
      if (child_indent == 0)
        child_indent = indent;
      key = yaml_key (text, n);
      if (indent != child_indent || key == NULL)
        {
          line++;
          continue;
        }

      start = line;
      methods = g_string_new (NULL);
      for (end = line + 1; end <= doc->n_lines; end++)
        {
          gsize m;
          const char *t = line_text (doc, end, &m);
          guint i;

          if (line_is_blank (doc, end))
            continue;
          i = indent_of (t, m);
          if (i <= child_indent)
            break;
          if (paths)
            {
              g_autofree char *sub = yaml_key (t, m);

              if (sub != NULL && is_http_method (sub) && i > child_indent &&
                  methods->len < TITLE_MAX)
                {
                  g_autofree char *upper = g_ascii_strup (sub, -1);

                  g_string_append_printf (methods, "%s%s", methods->len > 0 ? ", " : "", upper);
                }
            }
        }
      {
        g_autofree char *title = paths ? g_strdup_printf ("%s%s%s", methods->str,
                                                          methods->len > 0 ? " " : "", key)
                                       : g_strdup_printf ("schema %s", key);

        add_chunk (doc, start, end - 1, kind, title);
      }
      g_string_free (methods, TRUE);
      line = end;
    }
  return line;
}

static void
chunk_openapi_yaml (Doc *doc)
{
  guint line = 1;

  while (line <= doc->n_lines)
    {
      gsize n;
      const char *text = line_text (doc, line, &n);
      g_autofree char *key = indent_of (text, n) == 0 ? yaml_key (text, n) : NULL;
      guint next;

      if (key == NULL)
        {
          line++;
          continue;
        }

      if (strcmp (key, "paths") == 0)
        next = yaml_children (doc, line, 0, "openapi-path", TRUE);
      else if (strcmp (key, "definitions") == 0)
        next = yaml_children (doc, line, 0, "openapi-schema", FALSE);
      else if (strcmp (key, "components") == 0)
        {
          /* components: → schemas: → one chunk per schema; other parts as one each. */
          next = line + 1;
          while (next <= doc->n_lines)
            {
              gsize m;
              const char *t = line_text (doc, next, &m);
              g_autofree char *sub = NULL;
              guint indent;

              if (line_is_blank (doc, next))
                {
                  next++;
                  continue;
                }
              indent = indent_of (t, m);
              if (indent == 0)
                break;
              sub = yaml_key (t, m);
              if (sub != NULL && strcmp (sub, "schemas") == 0)
                next = yaml_children (doc, next, indent, "openapi-schema", FALSE);
              else
                next++;
            }
        }
      else
        {
          for (next = line + 1; next <= doc->n_lines; next++)
            {
              gsize m;
              const char *t = line_text (doc, next, &m);

              if (!line_is_blank (doc, next) && indent_of (t, m) == 0 && t[0] != '#')
                break;
            }
          add_chunk (doc, line, next - 1, "openapi", key);
        }
      line = MAX (next, line + 1);
    }
}

/* JSON documents: one chunk per path and schema, located at the line of their key. */
static void
chunk_openapi_json (Doc        *doc,
                    JsonObject *root)
{
  static const char * const groups[][2] = {
    { "paths", "openapi-path" }, { "components/schemas", "openapi-schema" },
    { "definitions", "openapi-schema" },
  };
  gsize cursor = 0;

  for (guint g = 0; g < G_N_ELEMENTS (groups); g++)
    {
      g_auto(GStrv) parts = g_strsplit (groups[g][0], "/", -1);
      JsonObject *object = root;
      g_autoptr(GList) keys = NULL;

      for (guint i = 0; parts[i] != NULL && object != NULL; i++)
        {
          JsonNode *node = json_object_get_member (object, parts[i]);

          object = node != NULL && JSON_NODE_HOLDS_OBJECT (node) ? json_node_get_object (node)
                                                                 : NULL;
        }
      if (object == NULL)
        continue;

      keys = json_object_get_members (object);
      for (GList *l = keys; l != NULL; l = l->next)
        {
          JsonNode *value = json_object_get_member (object, l->data);
          g_autofree char *quoted = g_strdup_printf ("\"%s\"", (const char *) l->data);
          const char *found = g_strstr_len (doc->text + cursor, doc->len - cursor, quoted);
          g_autofree char *body = json_to_string (value, TRUE);
          g_autofree char *title = NULL;
          LodeArtifactChunk *chunk;
          guint line = 1;

          if (found != NULL)
            {
              cursor = found - doc->text;
              line = line_of (doc, cursor);
            }
          if (strcmp (groups[g][1], "openapi-path") == 0 && JSON_NODE_HOLDS_OBJECT (value))
            {
              g_autoptr(GList) methods = json_object_get_members (json_node_get_object (value));
              GString *names = g_string_new (NULL);

              for (GList *m = methods; m != NULL; m = m->next)
                if (is_http_method (m->data))
                  {
                    g_autofree char *upper = g_ascii_strup (m->data, -1);

                    g_string_append_printf (names, "%s%s", names->len > 0 ? ", " : "", upper);
                  }
              title = g_strdup_printf ("%s%s%s", names->str, names->len > 0 ? " " : "",
                                       (const char *) l->data);
              g_string_free (names, TRUE);
            }
          else
            title = g_strdup_printf ("schema %s", (const char *) l->data);

          chunk = g_new0 (LodeArtifactChunk, 1);
          chunk->path = g_strdup (doc->path);
          chunk->start_line = line;
          chunk->end_line = line;
          chunk->kind = g_strdup (groups[g][1]);
          chunk->title = g_steal_pointer (&title);
          chunk->body = g_strdup_printf ("%s: %s", (const char *) l->data, body);
          g_ptr_array_add (doc->out, chunk);
        }
    }
}

/* Braced blocks --------------------------------------------------------------------------- */

static gboolean
line_is_comment (Doc   *doc,
                 guint  line)
{
  gsize n;
  const char *p = line_text (doc, line, &n);
  gsize i = 0;

  while (i < n && g_ascii_isspace (p[i]))
    i++;
  return i < n && (p[i] == '#' || p[i] == '*' || (p[i] == '/' && i + 1 < n &&
                                                   (p[i + 1] == '/' || p[i + 1] == '*')));
}

static void
chunk_blocks (Doc *doc)
{
  const char *text = doc->text;
  gsize len = doc->len;
  guint depth = 0;
  guint loose_start = 1;     /* first line not in a block yet */
  guint block_start = 0;
  gsize head_start = 0;
  gsize i = 0;

  while (i < len)
    {
      char c = text[i];

      if ((c == '/' && i + 1 < len && text[i + 1] == '/') || c == '#')
        {
          while (i < len && text[i] != '\n')
            i++;
        }
      else if (c == '/' && i + 1 < len && text[i + 1] == '*')
        {
          const char *close = g_strstr_len (text + i + 2, len - i - 2, "*/");

          i = close != NULL ? (gsize) (close - text) + 2 : len;
        }
      else if (c == '"' || c == '\'')
        {
          i++;
          while (i < len && text[i] != c && text[i] != '\n')
            i += (text[i] == '\\' && i + 1 < len) ? 2 : 1;
          i++;
        }
      else if (c == '{')
        {
          if (depth == 0)
            {
              guint line = line_of (doc, i);

              /* The block starts with its head's line, and the comments right above. */
              block_start = line;
              head_start = doc->line_start[line - 1];
              while (block_start > loose_start && line_is_comment (doc, block_start - 1))
                block_start--;
              if (block_start > loose_start)
                chunk_windows (doc, loose_start, block_start - 1);
            }
          depth++;
          i++;
        }
      else if (c == '}' && depth > 0)
        {
          depth--;
          i++;
          if (depth == 0)
            {
              guint last = line_of (doc, i - 1);
              const char *brace = memchr (text + head_start, '{', len - head_start);
              g_autofree char *title = collapse_title (text + head_start,
                                                       brace != NULL ? (gsize) (brace - text)
                                                                       - head_start : 0);

              add_chunk (doc, block_start, last, "block", title);
              loose_start = last + 1;
            }
        }
      else
        i++;
    }

  if (loose_start <= doc->n_lines)
    chunk_windows (doc, loose_start, doc->n_lines);
}

/* Dispatch ---------------------------------------------------------------------------- */

static gboolean
has_suffix_nocase (const char *path,
                   const char *suffix)
{
  gsize n = strlen (path), m = strlen (suffix);

  return n >= m && g_ascii_strcasecmp (path + n - m, suffix) == 0;
}

static gboolean
starts_yaml_key (const char *text,
                 gsize       len,
                 const char *key)
{
  gsize n = strlen (key);

  for (const char *p = text; p != NULL && p < text + len;)
    {
      if ((gsize) (text + len - p) > n && strncmp (p, key, n) == 0 && p[n] == ':')
        return TRUE;
      p = memchr (p, '\n', text + len - p);
      if (p != NULL)
        p++;
    }
  return FALSE;
}

/**
 * lode_artifact_chunk_text:
 * @path: the file's path (its name decides the format)
 * @text: its content
 * @len: its length
 *
 * Returns: (transfer full) (element-type LodeArtifactChunk): the chunks, in file order
 */
GPtrArray *
lode_artifact_chunk_text (const char *path,
                          const char *text,
                          gsize       len)
{
  g_autoptr(GArray) starts = g_array_new (FALSE, FALSE, sizeof (gsize));
  Doc doc = { path, text, len, NULL, 0, NULL };
  gsize zero = 0;

  doc.out = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_artifact_chunk_free);
  g_array_append_val (starts, zero);
  for (gsize i = 0; i < len; i++)
    if (text[i] == '\n' && i + 1 < len)
      {
        gsize next = i + 1;

        g_array_append_val (starts, next);
      }
  doc.n_lines = len > 0 ? starts->len : 0;
  g_array_append_val (starts, len);
  doc.line_start = (gsize *) (gpointer) starts->data;
  if (doc.n_lines == 0)
    return doc.out;

  if (has_suffix_nocase (path, ".sql") || has_suffix_nocase (path, ".ddl"))
    chunk_sql (&doc);
  else if (has_suffix_nocase (path, ".md") || has_suffix_nocase (path, ".markdown"))
    chunk_markdown (&doc);
  else if ((has_suffix_nocase (path, ".yaml") || has_suffix_nocase (path, ".yml")) &&
           (starts_yaml_key (text, len, "openapi") || starts_yaml_key (text, len, "swagger")))
    chunk_openapi_yaml (&doc);
  else if (has_suffix_nocase (path, ".json"))
    {
      /* An artifact is input from outside: 100,000 nested `[` overflowed json-glib's stack. */
      g_autoptr(JsonNode) root = lode_json_parse (text, len, NULL);

      if (root != NULL && JSON_NODE_HOLDS_OBJECT (root) &&
          (json_object_has_member (json_node_get_object (root), "openapi") ||
           json_object_has_member (json_node_get_object (root), "swagger")))
        chunk_openapi_json (&doc, json_node_get_object (root));
      else
        chunk_windows (&doc, 1, doc.n_lines);
    }
  else if (has_suffix_nocase (path, ".proto") || has_suffix_nocase (path, ".graphql") ||
           has_suffix_nocase (path, ".gql") || has_suffix_nocase (path, ".tf") ||
           has_suffix_nocase (path, ".hcl") || has_suffix_nocase (path, ".thrift") ||
           has_suffix_nocase (path, ".prisma") || has_suffix_nocase (path, ".avdl"))
    chunk_blocks (&doc);
  else
    chunk_windows (&doc, 1, doc.n_lines);

  return doc.out;
}
