/* lode-import-makefile.c — the include directories a Makefile gives the compiler
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-import-resolver"

#include "config.h"

#include <string.h>

#include "lode-import-makefile-private.h"

/* A plain-Makefile C project has no compile_commands.json: the `-I` flags its Makefiles
 * write are what is known of its include directories. Makefiles are not run, only read:
 * variables assigned in the same file are expanded (`=`, `:=`, `::=`, `?=`, `+=`), and a
 * flag whose directory holds anything else (a function such as $(shell …) or $(wildcard …),
 * a variable set elsewhere or on the command line) is skipped rather than guessed. So is
 * what a conditional holds (`ifdef NO_REGEX` … `endif`): whether it applies depends on the
 * build, and git's `-Icompat/regex`, for builds without one, would otherwise take
 * `<regex.h>` from the C library for every build. */

/* What a reference that cannot be known expands to. A `-I` token holding it is skipped, so
 * are tokens of a Makefile that holds this byte itself (no text does). */
#define UNKNOWN '\x01'

/* Nesting of references within references: enough for a flag variable made of directory
 * variables, and an end to a variable that refers to itself. */
#define MAX_EXPANSION_DEPTH 8

/* Work (bytes written, references expanded) one Makefile may cost, whatever its text: a
 * variable that refers to several others several times multiplies the expansion. */
#define EXPANSION_BUDGET (4 * 1024 * 1024)

typedef enum
{
  ASSIGN_RECURSIVE,               /* =, expanded when used */
  ASSIGN_SIMPLE,                  /* :=, ::=, :::=, expanded when assigned */
  ASSIGN_CONDITIONAL,             /* ?= */
  ASSIGN_APPEND,                  /* += */
  ASSIGN_SHELL,                   /* !=, the output of a command */
} AssignKind;

typedef struct
{
  GString  *value;                /* as written, or expanded for a simple variable */
  gboolean  simple;
} Variable;

typedef struct
{
  GHashTable *variables;          /* name → Variable */
  GString    *names[MAX_EXPANSION_DEPTH]; /* the name of a reference at each depth, expanded:
                                           * one allocation each, not one per reference */
  gsize       budget;
} Make;

static void
variable_free (Variable *variable)
{
  g_string_free (variable->value, TRUE);
  g_free (variable);
}

/* Whether @path is a Makefile whose include directories the resolver reads: `Makefile`,
 * `makefile`, `GNUmakefile` or a `*.mk` fragment. */
gboolean
_lode_import_is_makefile (const char *path)
{
  const char *slash = strrchr (path, '/');
  const char *base = slash != NULL ? slash + 1 : path;

  return strcmp (base, "Makefile") == 0 || strcmp (base, "makefile") == 0 ||
         strcmp (base, "GNUmakefile") == 0 ||
         (g_str_has_suffix (base, ".mk") && strlen (base) > strlen (".mk"));
}

/* The lines of @text as make reads them: a backslash before the newline joins the next
 * line (its leading blanks made one space), and an unescaped `#` starts a comment to the
 * end of the joined line. */
static GPtrArray *
logical_lines (const char *text,
               gsize       len)
{
  GPtrArray *lines = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GString) line = g_string_new (NULL);
  gboolean comment = FALSE;

  for (gsize i = 0; i <= len; i++)
    {
      char c = i < len ? text[i] : '\n';
      gsize newline = i + 1 < len && text[i + 1] == '\r' ? i + 2 : i + 1;

      if (c == '\\' && newline < len && text[newline] == '\n')
        {
          i = newline;
          while (i + 1 < len && (text[i + 1] == ' ' || text[i + 1] == '\t'))
            i++;
          if (!comment)
            g_string_append_c (line, ' ');
          continue;
        }

      if (c == '\n')
        {
          if (line->len > 0)
            g_ptr_array_add (lines, g_strndup (line->str, line->len));
          g_string_truncate (line, 0);
          comment = FALSE;
        }
      else if (comment)
        continue;
      else if (c == '#' && line->len > 0 && line->str[line->len - 1] == '\\')
        line->str[line->len - 1] = '#';
      else if (c == '#')
        comment = TRUE;
      else
        g_string_append_c (line, c == '\0' || c == '\r' ? ' ' : c);
    }

  return lines;
}

/* How @line changes the nesting of conditionals (`ifdef`, `ifndef`, `ifeq`, `ifneq` open
 * one, `endif` closes it): +1, -1 or 0. A recipe line (a tab first) is the shell's. */
static int
conditional_step (const char *line)
{
  static const char * const opening[] = { "ifdef", "ifndef", "ifeq", "ifneq" };
  const char *p = line;

  if (*p == '\t')
    return 0;
  while (*p == ' ')
    p++;
  for (guint i = 0; i < G_N_ELEMENTS (opening); i++)
    {
      gsize n = strlen (opening[i]);

      if (strncmp (p, opening[i], n) == 0 && (p[n] == ' ' || p[n] == '\t' || p[n] == '('))
        return 1;
    }
  if (strncmp (p, "endif", 5) == 0 && (p[5] == '\0' || g_ascii_isspace (p[5])))
    return -1;
  return 0;
}

/* Whether @line assigns a variable: its name (new), how, and where the value starts. A
 * recipe line (a tab first) is a shell command; a computed name is not followed, nor one
 * that could not be written back as a reference. */
static gboolean
parse_assignment (const char  *line,
                  char       **name,
                  AssignKind  *kind,
                  const char **value)
{
  static const struct {
    const char *op;
    AssignKind  kind;
  } ops[] = {
    { ":::=", ASSIGN_SIMPLE }, { "::=", ASSIGN_SIMPLE }, { ":=", ASSIGN_SIMPLE },
    { "?=", ASSIGN_CONDITIONAL }, { "+=", ASSIGN_APPEND }, { "!=", ASSIGN_SHELL },
    { "=", ASSIGN_RECURSIVE },
  };
  const char *p = line;
  const char *start;
  const char *end;

  if (*p == '\t')
    return FALSE;

  for (;;)
    {
      while (*p == ' ' || *p == '\t')
        p++;
      if (g_str_has_prefix (p, "export ") || g_str_has_prefix (p, "override "))
        p = strchr (p, ' ');
      else
        break;
    }

  start = p;
  while (*p != '\0' && !g_ascii_isspace (*p) && strchr ("=:?+!$(){}", *p) == NULL)
    p++;
  end = p;
  if (end == start || (*p != '\0' && strchr ("$(){}", *p) != NULL))
    return FALSE;

  while (*p == ' ' || *p == '\t')
    p++;
  for (guint i = 0; i < G_N_ELEMENTS (ops); i++)
    if (g_str_has_prefix (p, ops[i].op))
      {
        p += strlen (ops[i].op);
        while (*p == ' ' || *p == '\t')
          p++;
        *name = g_strndup (start, end - start);
        *kind = ops[i].kind;
        *value = p;
        return TRUE;
      }

  return FALSE;
}

static void expand (Make       *make,
                    const char *text,
                    gsize       len,
                    guint       depth,
                    GString    *out);

/* Appends the value of the reference `$(@name)`; UNKNOWN for a function, a substitution
 * reference, a variable not assigned in the file, or past the depth. */
static void
expand_reference (Make       *make,
                  const char *name,
                  gsize       len,
                  guint       depth,
                  GString    *out)
{
  GString *expanded;
  Variable *variable;

  if (depth >= MAX_EXPANSION_DEPTH || make->budget == 0)
    {
      g_string_append_c (out, UNKNOWN);
      return;
    }
  make->budget--;

  if (make->names[depth] == NULL)
    make->names[depth] = g_string_new (NULL);
  expanded = g_string_truncate (make->names[depth], 0);

  /* `$($(arch)_CFLAGS)`: the name is itself expanded first. */
  expand (make, name, len, depth + 1, expanded);
  if (strpbrk (expanded->str, " \t,:=\x01") != NULL)
    {
      g_string_append_c (out, UNKNOWN);
      return;
    }

  variable = g_hash_table_lookup (make->variables, expanded->str);
  if (variable == NULL || (variable->simple && variable->value->len > make->budget))
    g_string_append_c (out, UNKNOWN);
  else if (variable->simple)
    {
      make->budget -= variable->value->len;
      g_string_append_len (out, variable->value->str, variable->value->len);
    }
  else
    expand (make, variable->value->str, variable->value->len, depth + 1, out);
}

/* Appends @text, its references expanded (`$(X)`, `${X}`, `$X`, `$$`). */
static void
expand (Make       *make,
        const char *text,
        gsize       len,
        guint       depth,
        GString    *out)
{
  for (gsize i = 0; i < len; i++)
    {
      char opening;
      char closing;
      guint nesting = 0;
      gsize j;

      if (make->budget == 0)
        {
          g_string_append_c (out, UNKNOWN);
          return;
        }
      make->budget--;

      if (text[i] != '$')
        {
          g_string_append_c (out, text[i]);
          continue;
        }
      if (i + 1 == len)
        return;

      opening = text[i + 1];
      if (opening == '$')
        {
          g_string_append_c (out, '$');
          i++;
          continue;
        }
      if (opening != '(' && opening != '{')
        {
          expand_reference (make, text + i + 1, 1, depth, out);
          i++;
          continue;
        }

      /* make pairs only the kind of parenthesis the reference opens with. */
      closing = opening == '(' ? ')' : '}';
      for (j = i + 2; j < len; j++)
        if (text[j] == opening)
          nesting++;
        else if (text[j] == closing && nesting-- == 0)
          break;
      if (j == len)
        {
          g_string_append_c (out, UNKNOWN);
          return;
        }
      expand_reference (make, text + i + 2, j - i - 2, depth, out);
      i = j;
    }
}

static void
add_variable (Make       *make,
              const char *name,
              const char *value,
              gboolean    simple)
{
  Variable *variable = g_new0 (Variable, 1);

  variable->value = g_string_new (value);
  variable->simple = simple;
  g_hash_table_replace (make->variables, g_strdup (name), variable);
}

/* Records one assignment as make would, in the order of the file: a simple variable takes
 * the values of those assigned before it. */
static void
assign (Make       *make,
        const char *name,
        AssignKind  kind,
        const char *value)
{
  Variable *variable = g_hash_table_lookup (make->variables, name);
  g_autoptr(GString) expanded = g_string_new (NULL);
  char unknown[] = { UNKNOWN, '\0' };

  switch (kind)
    {
    case ASSIGN_RECURSIVE:
      add_variable (make, name, value, FALSE);
      break;
    case ASSIGN_SIMPLE:
      expand (make, value, strlen (value), 0, expanded);
      add_variable (make, name, expanded->str, TRUE);
      break;
    case ASSIGN_CONDITIONAL:
      if (variable == NULL)
        add_variable (make, name, value, FALSE);
      break;
    case ASSIGN_APPEND:
      if (variable == NULL)
        add_variable (make, name, value, FALSE);
      else
        {
          if (variable->simple)
            expand (make, value, strlen (value), 0, expanded);
          else
            g_string_append (expanded, value);
          g_string_append_c (variable->value, ' ');
          g_string_append_len (variable->value, expanded->str, expanded->len);
        }
      break;
    case ASSIGN_SHELL:
      add_variable (make, name, unknown, TRUE);
      break;
    default:
      g_assert_not_reached ();
    }
}

/* Adds the directories of the `-I`, `-iquote` and `-isystem` flags among the words of
 * @text, both `-Idir` and `-I dir`, once each. */
static void
add_flag_dirs (const char *text,
               GPtrArray  *dirs)
{
  static const char * const flags[] = { "-I", "-iquote", "-isystem" };
  g_auto(GStrv) words = g_strsplit_set (text, " \t\n\v\f", -1);

  for (guint i = 0; words[i] != NULL; i++)
    for (guint f = 0; f < G_N_ELEMENTS (flags); f++)
      if (g_str_has_prefix (words[i], flags[f]))
        {
          const char *dir = words[i] + strlen (flags[f]);

          /* `-I dir`: the next word that is not empty (two blanks make an empty one). */
          if (dir[0] == '\0')
            {
              while (words[i + 1] != NULL && words[i + 1][0] == '\0')
                i++;
              dir = words[i + 1] != NULL ? words[++i] : "";
            }
          /* A '$' left is the shell's (`$$HOME` in a recipe), as unknown as the rest. */
          if (dir[0] != '\0' && dir[0] != '-' && strpbrk (dir, "$\x01") == NULL &&
              !g_ptr_array_find_with_equal_func (dirs, dir, g_str_equal, NULL))
            g_ptr_array_add (dirs, g_strdup (dir));
          break;
        }
}

/* The include directories of the `-I`, `-iquote` and `-isystem` flags anywhere in a
 * Makefile (a variable's value, a target-specific assignment, a recipe), with the variables
 * the file assigns expanded, in the order of the file, each once; as written, relative to
 * the Makefile's directory unless absolute. `$(CURDIR)` is that directory. A flag whose
 * directory cannot be known is left out. Any text returns, the work bounded by
 * EXPANSION_BUDGET and the text's length. */
GStrv
_lode_import_parse_makefile_include_dirs (const char *text,
                                          gsize       len)
{
  g_autoptr(GPtrArray) lines = logical_lines (text, len);
  g_autoptr(GPtrArray) scans = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GPtrArray) dirs = g_ptr_array_new_with_free_func (g_free);
  g_autoptr(GHashTable) variables = NULL;
  guint conditionals = 0;
  Make make = { NULL };

  variables = g_hash_table_new_full (g_str_hash, g_str_equal, g_free,
                                     (GDestroyNotify) variable_free);
  make.variables = variables;
  make.budget = EXPANSION_BUDGET;

  /* Directories come out relative to the Makefile's, as make's working directory is. */
  add_variable (&make, "CURDIR", ".", TRUE);

  /* What is read for flags: each line that assigns nothing, and each variable's final value
   * (not what an assignment overridden later, or a `?=` not taken, said), where the
   * variable first appears. Variables are only expanded once all are known, as make does
   * when it runs a recipe. */
  for (guint i = 0; i < lines->len; i++)
    {
      g_autofree char *name = NULL;
      const char *value;
      AssignKind kind;
      int step = conditional_step (lines->pdata[i]);

      /* An `endif` too many is make's error; here it closes nothing. */
      if (step > 0)
        conditionals++;
      else if (step < 0 && conditionals > 0)
        conditionals--;
      if (step != 0 || conditionals > 0)
        continue;

      if (!parse_assignment (lines->pdata[i], &name, &kind, &value))
        {
          g_ptr_array_add (scans, g_strdup (lines->pdata[i]));
          continue;
        }
      if (!g_hash_table_contains (make.variables, name))
        g_ptr_array_add (scans, g_strdup_printf ("$(%s)", name));
      assign (&make, name, kind, value);
    }

  for (guint i = 0; i < scans->len; i++)
    {
      g_autoptr(GString) expanded = g_string_new (NULL);
      const char *scan = scans->pdata[i];

      expand (&make, scan, strlen (scan), 0, expanded);
      add_flag_dirs (expanded->str, dirs);
    }

  for (guint i = 0; i < G_N_ELEMENTS (make.names); i++)
    if (make.names[i] != NULL)
      g_string_free (make.names[i], TRUE);
  g_ptr_array_add (dirs, NULL);
  return (GStrv) g_ptr_array_steal (dirs, NULL);
}
