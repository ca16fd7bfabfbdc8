/* lode.c — the `lode` command-line tool
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-cli"

#include "config.h"

#include <glib-unix.h>
#include <glib/gi18n.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "lode-cli-common.h"
#include "lode-cli-local.h"
#include "lode-client.h"
#include "lode-json.h"

/*
 * Most commands are tools of the registry with arguments taken from the command line: the
 * table below maps each command's words and options onto the tool's JSON arguments. The
 * client runs the tool in loded or in this process; the result is printed as the tool's
 * markdown, or with --json as its structured result — the same JSON an MCP agent gets.
 * `lode tool NAME [JSON]` runs any tool of the registry.
 *
 * SIGINT, SIGTERM and SIGHUP cancel the call (a running index stops; what it stored is kept
 * and the next run resumes) and end the command within a second, with status 128 + the
 * signal's number.
 */

static gboolean opt_no_daemon;

/* How long an interrupted command waits for the work it started to wind down. */
#define SHUTDOWN_USEC G_USEC_PER_SEC

/* Commands that are tools ---------------------------------------------------------------- */

typedef enum
{
  FLAG_STRING,      /* a string argument */
  FLAG_PATH,        /* a directory: made absolute */
  FLAG_INT,
  FLAG_DOUBLE,
  FLAG_TRUE,        /* no argument: the property is true */
  FLAG_FALSE,       /* no argument: the property is false */
  FLAG_ACTION,      /* no argument: the property is the flag's value */
} FlagType;

typedef struct
{
  const char *long_name;
  char        short_name;
  FlagType    type;
  const char *property;
  const char *description;
  const char *arg_description;
  const char *value;             /* FLAG_ACTION */
  gboolean    required;          /* the command cannot run without it */
} Flag;

typedef enum
{
  ARGS_NONE,
  ARGS_PATH,        /* [PATH]: the project, default the working directory */
  ARGS_TEXT,        /* WORDS…: joined into the property */
  ARGS_ONE,         /* ARG: the property */
  ARGS_OPTIONAL,    /* [ARG]: the property when given */
} ArgsKind;

#define MAX_FLAGS 8

typedef struct
{
  const char *name;              /* "index", or "graph query" */
  const char *summary;
  const char *tool;
  const char *parameters;
  const char *description;
  ArgsKind    args;
  const char *property;          /* of the words; projectPath for ARGS_PATH */
  const char *fixed;             /* JSON members always sent, e.g. "{\"wait\": true}" */
  Flag        flags[MAX_FLAGS];
} ToolCommand;

#define PROJECT_FLAG \
  { "project", 'p', FLAG_PATH, "projectPath", N_("The indexed tree (default: the current " \
    "directory)"), N_("PATH"), NULL }

static const ToolCommand tool_commands[] = {
  { "index", N_("Index a source tree"), "codebase_index", N_("[PATH]"),
    N_("Index PATH (default: the current directory). Files whose content is unchanged are "
       "skipped; an interrupted run resumes."),
    ARGS_PATH, "projectPath", "{\"wait\": true}",
    { { "force", 'f', FLAG_TRUE, "force", N_("Rebuild the index from scratch"), NULL, NULL },
      { "yes", 'y', FLAG_TRUE, "confirm",
        N_("Index PATH even if it is /, a system directory or the home directory"), NULL,
        NULL } } },
  { "update", N_("Update the index of a tree"), "codebase_update", N_("[PATH]"),
    N_("Update the index of PATH (default: the current directory): re-chunk new and changed "
       "files, drop deleted ones."),
    ARGS_PATH, "projectPath", NULL, { { NULL } } },
  { "search", N_("Search an indexed tree"), "codebase_search", N_("QUERY…"),
    N_("Search an indexed tree. QUERY may be an identifier (lode_store_open), a path "
       "(src/cli/lode.c), words (where are ignore rules parsed) or a pasted issue."),
    ARGS_TEXT, "query", NULL,
    { PROJECT_FLAG,
      { "limit", 'n', FLAG_INT, "limit", N_("Number of results (default 10)"), N_("N"), NULL },
      { "lang", 0, FLAG_STRING, "languageFilter", N_("Only this language (e.g. c, python)"),
        N_("LANG"), NULL },
      { "path", 0, FLAG_STRING, "fileFilter", N_("Only paths matching GLOB (e.g. src/**/*.c)"),
        N_("GLOB"), NULL },
      { "min-score", 0, FLAG_DOUBLE, "minScore", N_("Drop results scoring below S (0–1)"),
        N_("S"), NULL },
      { "per-file", 0, FLAG_TRUE, "onePerFile", N_("At most one result per file"), NULL, NULL },
      { "linked", 0, FLAG_TRUE, "includeLinked",
        N_("Also search the projects linked in .lode.json or .socraticode.json"), NULL, NULL },
      { "mode", 0, FLAG_STRING, "mode",
        N_("hybrid (BM25 + vectors, the default), lexical (BM25) or semantic (vectors)"),
        N_("MODE"), NULL } } },
  { "grep", N_("Find every line matching a pattern"), "codebase_grep", N_("PATTERN"),
    N_("Every line of an indexed tree that PATTERN (a string, or a regular expression with "
       "-e) matches, as rg finds them, with the declaration each lies in. Candidate files "
       "come from the index's trigrams."),
    ARGS_ONE, "pattern", NULL,
    { PROJECT_FLAG,
      { "regexp", 'e', FLAG_TRUE, "regex", N_("PATTERN is a regular expression (PCRE)"), NULL,
        NULL },
      { "ignore-case", 'i', FLAG_FALSE, "caseSensitive", N_("Letters match either case"),
        NULL, NULL },
      { "word-regexp", 'w', FLAG_TRUE, "wholeWord", N_("Only matches that are whole words"),
        NULL, NULL },
      { "context", 'C', FLAG_INT, "contextLines", N_("Lines shown around each match"),
        N_("N"), NULL },
      { "limit", 'n', FLAG_INT, "limit", N_("Matching lines shown (default 100)"), N_("N"),
        NULL },
      { "lang", 0, FLAG_STRING, "languageFilter", N_("Only this language (e.g. c, python)"),
        N_("LANG"), NULL },
      { "path", 0, FLAG_STRING, "fileFilter", N_("Only paths matching GLOB (e.g. src/**/*.c)"),
        N_("GLOB"), NULL } } },
  { "status", N_("Show the index state of a tree"), "codebase_status", N_("[PATH]"),
    N_("Show the state of the index of PATH (default: the current directory): files, chunks, "
       "languages, semantic coverage, watching, the last indexing job."),
    ARGS_PATH, "projectPath", NULL, { { NULL } } },
  { "projects", N_("List indexed trees"), "codebase_list_projects", NULL,
    N_("List every tree that has an index."), ARGS_NONE, NULL, NULL, { { NULL } } },
  { "remove", N_("Delete the index of a tree"), "codebase_remove", N_("PATH"),
    N_("Delete the index of PATH (the tree itself is never touched); stops watching it."),
    ARGS_ONE, "projectPath", NULL, { { NULL } } },
  { "stop", N_("Stop indexing a tree"), "codebase_stop", N_("[PATH]"),
    N_("Stop the indexing job of PATH, whoever started it. What was indexed is kept."),
    ARGS_PATH, "projectPath", NULL, { { NULL } } },
  { "watch", N_("Keep the index of a tree up to date"), "codebase_watch", N_("[PATH]"),
    N_("Keep the index of PATH (default: the current directory) up to date as files change. "
       "The daemon watches and remembers watched trees across restarts; without it, this "
       "command watches until it is interrupted."),
    ARGS_PATH, "projectPath", "{\"action\": \"start\"}",
    { { "stop", 0, FLAG_ACTION, "action", N_("Stop watching PATH"), NULL, "stop" },
      { "status", 0, FLAG_ACTION, "action", N_("Show whether PATH is watched"), NULL,
        "status" },
      { "yes", 'y', FLAG_TRUE, "confirm",
        N_("Watch PATH even if it is /, a system directory or the home directory"), NULL,
        NULL } } },
  { "graph build", N_("Index and switch the import graph on"), "codebase_graph_build", NULL,
    N_("Bring the import graph up to date (indexing keeps it so)."), ARGS_NONE, NULL, NULL,
    { PROJECT_FLAG } },
  { "graph query", N_("What a file imports, or what imports it"), "codebase_graph_query",
    N_("FILE"), N_("What FILE imports (--direction out) or what imports it (in, the default), "
                   "N hops deep."),
    ARGS_ONE, "filePath", NULL,
    { PROJECT_FLAG,
      { "depth", 'd', FLAG_INT, "depth", N_("Hops to follow, 1–5 (default 1)"), N_("N"), NULL },
      { "direction", 0, FLAG_STRING, "direction", N_("in (dependents) or out (imports)"),
        N_("in|out"), NULL } } },
  { "graph stats", N_("Hubs, orphans and counts"), "codebase_graph_stats", NULL,
    N_("The most connected files and packages, orphans and counts."), ARGS_NONE, NULL, NULL,
    { PROJECT_FLAG,
      { "limit", 'n', FLAG_INT, "limit", N_("Entries to list (default 20)"), N_("N"), NULL } } },
  { "graph circular", N_("Import cycles"), "codebase_graph_circular", NULL,
    N_("The import cycles of the tree."), ARGS_NONE, NULL, NULL,
    { PROJECT_FLAG,
      { "limit", 'n', FLAG_INT, "limit", N_("Cycles to list (default 20)"), N_("N"), NULL } } },
  { "graph visualize", N_("A Mermaid diagram"), "codebase_graph_visualize", N_("[FILE]"),
    N_("A Mermaid diagram of the whole graph, or of FILE's neighbourhood."),
    ARGS_OPTIONAL, "filePath", NULL,
    { PROJECT_FLAG,
      { "depth", 'd', FLAG_INT, "depth", N_("Hops around FILE, 1–5 (default 1)"), N_("N"),
        NULL },
      { "max-nodes", 0, FLAG_INT, "maxNodes", N_("Boxes at most (default 60)"), N_("N"),
        NULL } } },
  { "graph status", N_("Whether the graph is on, and its size"), "codebase_graph_status", NULL,
    N_("Whether indexing keeps the import graph, and its size."), ARGS_NONE, NULL, NULL,
    { PROJECT_FLAG } },
  { "graph remove", N_("Delete the graph and stop keeping it"), "codebase_graph_remove", NULL,
    N_("Delete the import graph; indexing then skips imports until graph build."), ARGS_NONE,
    NULL, NULL, { PROJECT_FLAG } },
  { "migrate", N_("Copy an index to another store"), "codebase_migrate", N_("[PATH]"),
    N_("Copy the index of PATH (default: the current directory) from the other store into "
       "--to (sqlite or qdrant) without indexing or embedding again; then set the store "
       "(LODE_STORE, or the store setting) to use it."),
    ARGS_PATH, "projectPath", NULL,
    { { "to", 0, FLAG_STRING, "to", N_("The store to copy into: sqlite or qdrant"),
        N_("STORE"), NULL, TRUE } } },
  { "branches", N_("List and prune branch indexes"), "codebase_branches", N_("[PATH]"),
    N_("List the branch indexes of PATH (default: the current directory), kept when "
       "branch-aware indexes are on (LODE_BRANCH_AWARE=1): size, last run, whether the "
       "branch still exists."),
    ARGS_PATH, "projectPath", NULL,
    { { "prune", 0, FLAG_TRUE, "prune",
        N_("Delete the indexes of branches that no longer exist"), NULL, NULL } } },
  { "impact", N_("Files a change may affect"), "codebase_impact", N_("[REV-RANGE]"),
    N_("The files a change may affect, most likely first: the uncommitted changes, or those "
       "of a git revision range (main..HEAD, HEAD~3)."),
    ARGS_OPTIONAL, "range", NULL,
    { PROJECT_FLAG,
      { "depth", 'd', FLAG_INT, "depth", N_("Hops to follow, 1–5 (default 3)"), N_("N"), NULL },
      { "limit", 'n', FLAG_INT, "limit", N_("Affected files to list (default 50)"), N_("N"),
        NULL },
      { "symbol", 's', FLAG_STRING, "symbol",
        N_("A definition: the callers it has, to --depth (up to 10), instead of files"),
        N_("NAME"), NULL },
      { "file", 0, FLAG_STRING, "file", N_("The file of --symbol"), N_("FILE"), NULL } } },
  { "symbol type", N_("A class, struct or interface and its members"), "find_type_definition",
    N_("NAME"), N_("The type NAME (or a full name such as App\\Models\\User): its fields, "
                   "methods, relations and doc comment."),
    ARGS_ONE, "type_name", NULL,
    { PROJECT_FLAG,
      { "package", 0, FLAG_STRING, "package", N_("Only in this package, namespace or module"),
        N_("PACKAGE"), NULL } } },
  { "symbol function", N_("A function's signature, parameters and code"),
    "get_function_details", N_("NAME"),
    N_("The function or method NAME (or Class.method): signature, parameters, returns, "
       "modifiers, doc comment and code."),
    ARGS_ONE, "function_name", NULL,
    { PROJECT_FLAG,
      { "package", 0, FLAG_STRING, "package", N_("Only in this package, namespace or module"),
        N_("PACKAGE"), NULL },
      { "class", 0, FLAG_STRING, "class_name", N_("Only methods of this class"), N_("CLASS"),
        NULL } } },
  { "symbol exports", N_("What a package, module or header declares"), "list_package_exports",
    N_("PACKAGE"), N_("The public symbols of a Go package, PHP namespace, Python module, "
                      "Java/Kotlin package, JS/TS module, Rust module or C header."),
    ARGS_ONE, "package", NULL,
    { PROJECT_FLAG,
      { "type", 't', FLAG_STRING, "symbol_type", N_("Only this kind (function, class…)"),
        N_("KIND"), NULL },
      { "limit", 'n', FLAG_INT, "limit", N_("Symbols to list (default 200)"), N_("N"),
        NULL } } },
  { "symbol refs", N_("Where a symbol is defined and used"), "codebase_symbol_references",
    N_("SYMBOL"), N_("Definitions, calls, type uses and imports of SYMBOL in code, not in "
                     "comments or strings."),
    ARGS_ONE, "symbol", NULL,
    { PROJECT_FLAG,
      { "limit", 'n', FLAG_INT, "limit", N_("References to list (default 100)"), N_("N"),
        NULL } } },
  { "symbol show", N_("A symbol with its callers and callees"), "codebase_symbol", N_("NAME"),
    N_("The definition NAME (or a qualified name such as Type.method or a::b::f) with the "
       "calls that reach it and those it makes, each with its line and how it was resolved."),
    ARGS_ONE, "name", NULL,
    { PROJECT_FLAG,
      { "file", 0, FLAG_STRING, "file", N_("Only the definition in this file"), N_("FILE"),
        NULL } } },
  { "symbol list", N_("The definitions of a file or a name"), "codebase_symbols", N_("[WORD]"),
    N_("The definitions whose name holds WORD, or with --file those of a file."),
    ARGS_OPTIONAL, "query", NULL,
    { PROJECT_FLAG,
      { "file", 0, FLAG_STRING, "file", N_("Only the definitions of this file"), N_("FILE"),
        NULL },
      { "kind", 't', FLAG_STRING, "kind", N_("Only this kind (function, class…)"), N_("KIND"),
        NULL },
      { "limit", 'n', FLAG_INT, "limit", N_("Definitions to list (default 200)"), N_("N"),
        NULL } } },
  { "symbol flow", N_("Entry points, or the calls from one"), "codebase_flow", N_("[NAME]"),
    N_("Without NAME, the entry points (main, tests, functions nothing calls); with NAME, the "
       "tree of the calls it makes."),
    ARGS_OPTIONAL, "entrypoint", NULL,
    { PROJECT_FLAG,
      { "file", 0, FLAG_STRING, "file", N_("Only the definition in this file"), N_("FILE"),
        NULL },
      { "depth", 'd', FLAG_INT, "depth", N_("Calls to follow, 1–10 (default 5)"), N_("N"),
        NULL } } },
  { "symbol trace", N_("How one symbol's calls reach another"), "codebase_trace", N_("FROM"),
    N_("A shortest chain of calls from FROM to --to, or how far the calls go."),
    ARGS_ONE, "from", NULL,
    { PROJECT_FLAG,
      { "to", 0, FLAG_STRING, "to", N_("Where the calls should lead"), N_("NAME"), NULL, TRUE },
      { "depth", 'd', FLAG_INT, "depth", N_("Calls to follow, 1–10 (default 10)"), N_("N"),
        NULL } } },
  { "memory list", N_("The team's memories"), "get_memory", NULL,
    N_("The decisions, gotchas, conventions and failures recorded in .lode/memory.json, read "
       "from .codebase-context/memory.json or mined from git, with their confidence."),
    ARGS_NONE, NULL, NULL,
    { PROJECT_FLAG,
      { "type", 't', FLAG_STRING, "type",
        N_("Only this type: decision, gotcha, convention or failure"), N_("TYPE"), NULL },
      { "category", 'c', FLAG_STRING, "category",
        N_("Only this category: tooling, architecture, testing, dependencies or conventions"),
        N_("CATEGORY"), NULL },
      { "query", 'q', FLAG_STRING, "query", N_("Words to search for"), N_("WORDS"), NULL },
      { "limit", 'n', FLAG_INT, "limit", N_("Memories to list (default 20)"), N_("N"),
        NULL } } },
  { "memory add", N_("Record a team memory"), "remember", N_("MEMORY…"),
    N_("Record MEMORY, one rule in a sentence, in the project's .lode/memory.json."),
    ARGS_TEXT, "memory", NULL,
    { PROJECT_FLAG,
      { "type", 't', FLAG_STRING, "type",
        N_("decision, gotcha, convention or failure"), N_("TYPE"), NULL, TRUE },
      { "category", 'c', FLAG_STRING, "category",
        N_("tooling, architecture, testing, dependencies or conventions"), N_("CATEGORY"),
        NULL, TRUE },
      { "reason", 'r', FLAG_STRING, "reason", N_("Why it matters"), N_("TEXT"), NULL,
        TRUE } } },
  { "memory remove", N_("Remove a team memory"), "forget", N_("ID"),
    N_("Remove the memory ID (as memory list shows it) from .lode/memory.json."),
    ARGS_ONE, "id", NULL, { PROJECT_FLAG } },
};

/* The command-line spelling of some values, as the tools spell them. */
static const char *
tool_value (const char *property,
            const char *value)
{
  if (g_strcmp0 (property, "direction") == 0 && g_strcmp0 (value, "in") == 0)
    return "inbound";
  if (g_strcmp0 (property, "direction") == 0 && g_strcmp0 (value, "out") == 0)
    return "outbound";
  return value;
}

static char *
absolute_path (const char *path)
{
  g_autofree char *cwd = g_get_current_dir ();

  return g_canonicalize_filename (path, cwd);
}

/* A FILE argument: a path that exists from here is taken as it is, anything else as relative
 * to the project root. */
static char *
file_argument (const char *file)
{
  if (g_path_is_absolute (file) || !g_file_test (file, G_FILE_TEST_EXISTS))
    return g_strdup (file);

  return absolute_path (file);
}

typedef union
{
  char   *string;
  int     integer;
  double  number;
  gboolean flag;
} FlagValue;

/* Parses a tool command's words and options into the tool's arguments. */
static JsonObject *
parse_tool_command (const ToolCommand  *command,
                    int                 argc,
                    char              **argv,
                    int                *status)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(JsonObject) arguments = NULL;
  FlagValue values[MAX_FLAGS] = { { 0 } };
  GOptionEntry entries[MAX_FLAGS + 2] = { { 0 } };
  guint n = 0;

  for (guint i = 0; i < MAX_FLAGS && command->flags[i].long_name != NULL; i++, n++)
    {
      const Flag *flag = &command->flags[i];
      GOptionEntry *entry = &entries[i];

      entry->long_name = flag->long_name;
      entry->short_name = flag->short_name;
      entry->description = flag->description;
      entry->arg_description = flag->arg_description;
      switch (flag->type)
        {
        case FLAG_STRING:
          entry->arg = G_OPTION_ARG_STRING;
          entry->arg_data = &values[i].string;
          break;
        case FLAG_PATH:
          entry->arg = G_OPTION_ARG_FILENAME;
          entry->arg_data = &values[i].string;
          break;
        case FLAG_INT:
          values[i].integer = G_MININT;
          entry->arg = G_OPTION_ARG_INT;
          entry->arg_data = &values[i].integer;
          break;
        case FLAG_DOUBLE:
          values[i].number = NAN;
          entry->arg = G_OPTION_ARG_DOUBLE;
          entry->arg_data = &values[i].number;
          break;
        case FLAG_TRUE:
        case FLAG_FALSE:
        case FLAG_ACTION:
        default:
          entry->arg = G_OPTION_ARG_NONE;
          entry->arg_data = &values[i].flag;
          break;
        }
    }
  entries[n] = (GOptionEntry) { "json", 0, 0, G_OPTION_ARG_NONE, &lode_cli_json,
                                N_("Print the structured result as JSON"), NULL };

  context = g_option_context_new (command->parameters != NULL ? _(command->parameters) : NULL);
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _(command->description));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!lode_cli_parse_options (context, &argc, &argv))
    {
      *status = 2;
      goto out;
    }

  if ((command->args == ARGS_NONE && argc > 1) ||
      ((command->args == ARGS_PATH || command->args == ARGS_OPTIONAL) && argc > 2) ||
      (command->args == ARGS_ONE && argc != 2) ||
      (command->args == ARGS_TEXT && argc < 2))
    {
      *status = lode_cli_usage_error (context, argc < 2 ? _("Missing argument")
                                                       : _("Too many arguments"));
      goto out;
    }

  for (guint i = 0; i < n; i++)
    if (command->flags[i].required && values[i].string == NULL)
      {
        g_autofree char *message = g_strdup_printf (_("Missing option --%s"),
                                                    command->flags[i].long_name);

        *status = lode_cli_usage_error (context, message);
        goto out;
      }

  if (command->fixed != NULL)
    {
      g_autoptr(JsonNode) fixed = json_from_string (command->fixed, NULL);

      arguments = json_node_dup_object (fixed);
    }
  else
    arguments = json_object_new ();

  if (command->args == ARGS_PATH)
    {
      g_autofree char *root = absolute_path (argc == 2 ? argv[1] : ".");

      json_object_set_string_member (arguments, command->property, root);
    }
  else if (command->args == ARGS_TEXT)
    {
      g_autofree char *text = g_strjoinv (" ", argv + 1);

      json_object_set_string_member (arguments, command->property, text);
    }
  else if (argc == 2)
    {
      g_autofree char *value = g_str_equal (command->property, "projectPath")
                               ? absolute_path (argv[1])
                               : g_str_equal (command->property, "filePath")
                               ? file_argument (argv[1]) : g_strdup (argv[1]);

      json_object_set_string_member (arguments, command->property, value);
    }

  for (guint i = 0; i < n; i++)
    {
      const Flag *flag = &command->flags[i];

      switch (flag->type)
        {
        case FLAG_STRING:
          if (values[i].string != NULL)
            json_object_set_string_member (arguments, flag->property,
                                           tool_value (flag->property, values[i].string));
          break;
        case FLAG_PATH:
          if (values[i].string != NULL)
            {
              g_autofree char *path = absolute_path (values[i].string);

              json_object_set_string_member (arguments, flag->property, path);
            }
          break;
        case FLAG_INT:
          if (values[i].integer != G_MININT)
            json_object_set_int_member (arguments, flag->property, values[i].integer);
          break;
        case FLAG_DOUBLE:
          if (!isnan (values[i].number))
            json_object_set_double_member (arguments, flag->property, values[i].number);
          break;
        case FLAG_TRUE:
        case FLAG_FALSE:
          if (values[i].flag)
            json_object_set_boolean_member (arguments, flag->property, flag->type == FLAG_TRUE);
          break;
        case FLAG_ACTION:
          if (values[i].flag)
            json_object_set_string_member (arguments, flag->property, flag->value);
          break;
        default:
          g_assert_not_reached ();
        }
    }
  *status = 0;

out:
  for (guint i = 0; i < n; i++)
    if (command->flags[i].type == FLAG_STRING || command->flags[i].type == FLAG_PATH)
      g_free (values[i].string);

  return g_steal_pointer (&arguments);
}

/* Progress: a bar that redraws itself on a terminal, a line per message otherwise. */
typedef struct
{
  gboolean  tty;
  gint64    last_draw;
  char     *last_message;
  gboolean  drawn;
} ProgressView;

static void
progress_cb (double      done,
             double      total,
             const char *message,
             gpointer    user_data)
{
  ProgressView *view = user_data;
  gint64 now = g_get_monotonic_time ();
  const char *text = message != NULL ? message : "";

  if (!view->tty)
    {
      /* One line per kind of step: the message without its figures. */
      g_autofree char *kind = g_strstrip (g_strndup (text, strcspn (text, "0123456789")));

      if (g_strcmp0 (kind, view->last_message) != 0)
        g_printerr ("%s…\n", kind);
      g_free (view->last_message);
      view->last_message = g_steal_pointer (&kind);
      return;
    }

  if (view->drawn && now - view->last_draw < 50000 && done != total)
    return;
  view->drawn = TRUE;
  view->last_draw = now;

  if (total > 0)
    {
      const int width = 30;
      int filled = (int) (width * MIN (done / total, 1.0));
      char bar[31];

      memset (bar, '#', filled);
      memset (bar + filled, '-', width - filled);
      bar[width] = '\0';
      g_printerr ("\r\033[K[%s] %s", bar, text);
    }
  else
    g_printerr ("\r\033[K%s…", text);
}

typedef struct
{
  GCancellable *cancellable;
  int           signal;        /* the first one received, 0 before */
} Interrupt;

typedef struct
{
  Interrupt *interrupt;
  int        signal;
} SignalSource;

static gboolean
signal_cb (gpointer user_data)
{
  SignalSource *source = user_data;

  if (source->interrupt->signal == 0)
    source->interrupt->signal = source->signal;
  g_cancellable_cancel (source->interrupt->cancellable);
  return G_SOURCE_CONTINUE;
}

static gboolean
tick_cb (gpointer user_data)
{
  return G_SOURCE_CONTINUE;
}

static const int handled_signals[] = { SIGINT, SIGTERM, SIGHUP };

/* An interrupted in-process run stops within a second: what it stored is committed batch by
 * batch, and whatever is half done is redone by the next run. */
static int
interrupted (LodeClient *client,
             int         signal)
{
  LodeEngine *engine = lode_client_get_engine (client);
  gint64 deadline = g_get_monotonic_time () + SHUTDOWN_USEC;
  guint tick = g_timeout_add (10, tick_cb, NULL);

  lode_engine_cancel_jobs (engine);
  lode_engine_stop_watching_all (engine);
  while (lode_engine_is_busy (engine) && g_get_monotonic_time () < deadline)
    g_main_context_iteration (NULL, TRUE);
  g_source_remove (tick);

  g_printerr (_("lode: interrupted; what was indexed is kept, run the command again to "
                "resume\n"));
  return 128 + signal;
}

static void
print_result (LodeToolResult *result,
              gboolean        verbose)
{
  if (lode_cli_json && lode_tool_result_get_structured (result) != NULL)
    {
      g_autoptr(JsonNode) node = json_node_init_object (json_node_alloc (),
                                                        result->structured);

      lode_cli_print_json_node (node);
      return;
    }

  g_print ("%s%s", result->text, g_str_has_suffix (result->text, "\n") ? "" : "\n");
  if (verbose && lode_tool_result_get_structured (result) != NULL)
    {
      JsonNode *job = json_object_get_member (result->structured, "job");
      JsonObject *report = job != NULL && JSON_NODE_HOLDS_OBJECT (job)
                           ? json_object_get_object_member (json_node_get_object (job), "report")
                           : NULL;
      JsonArray *skipped = report != NULL
                           ? json_object_get_array_member (report, "skippedFiles") : NULL;

      for (guint i = 0; skipped != NULL && i < json_array_get_length (skipped); i++)
        {
          JsonObject *file = json_array_get_object_element (skipped, i);
          const char *detail = json_object_get_string_member_with_default (file, "detail",
                                                                           NULL);

          g_print (_("  skipped %s: %s%s%s\n"), json_object_get_string_member (file, "path"),
                   json_object_get_string_member (file, "reason"),
                   detail != NULL ? ", " : "", detail != NULL ? detail : "");
        }
    }
}

/* Runs one tool for the command line: progress on stderr, the result on stdout. */
static int
run_tool (const LodeConfig *config,
          const char       *tool,
          JsonObject       *arguments,
          gboolean          verbose)
{
  g_autoptr(LodeClient) client = NULL;
  g_autoptr(LodeToolResult) result = NULL;
  g_autoptr(GError) error = NULL;
  g_autoptr(GCancellable) cancellable = g_cancellable_new ();
  ProgressView view = { isatty (STDERR_FILENO) && !lode_cli_json, 0, NULL, FALSE };
  Interrupt interrupt = { cancellable, 0 };
  SignalSource sources[G_N_ELEMENTS (handled_signals)];
  guint ids[G_N_ELEMENTS (handled_signals)];
  g_autoptr(JsonNode) instance = NULL;
  JsonNode *schema;
  gboolean watch_here;

  client = lode_client_new (config, opt_no_daemon ? LODE_CLIENT_IN_PROCESS : LODE_CLIENT_AUTO,
                            NULL);

  /* Arguments that do not fit the tool are a usage error, before anything runs. */
  schema = lode_tool_registry_get_input_schema (lode_client_get_registry (client), tool);
  instance = json_node_init_object (json_node_alloc (), arguments);
  if (schema == NULL)
    {
      g_printerr (_("lode: unknown tool “%s”; “lode tools” lists them\n"), tool);
      return 2;
    }
  if (!lode_json_schema_validate (schema, instance, NULL, &error))
    {
      g_printerr ("lode: %s\n", error->message);
      return 2;
    }

  for (guint i = 0; i < G_N_ELEMENTS (handled_signals); i++)
    {
      sources[i] = (SignalSource) { &interrupt, handled_signals[i] };
      ids[i] = g_unix_signal_add (handled_signals[i], signal_cb, &sources[i]);
    }

  result = lode_client_call_tool (client, tool, arguments, lode_cli_json ? NULL : progress_cb,
                                  &view, cancellable, &error);
  if (view.tty && view.drawn)
    g_printerr ("\r\033[K");
  g_free (view.last_message);

  if (interrupt.signal != 0)
    return interrupted (client, interrupt.signal);

  if (result == NULL)
    {
      lode_cli_print_error (error);
      return 1;
    }
  if (result->is_error)
    {
      g_printerr ("lode: %s\n", result->text);
      return 1;
    }

  print_result (result, verbose);

  /* Without the daemon, this process is the watcher: it watches until it is told to stop. */
  watch_here = g_str_equal (tool, "codebase_watch") && !lode_client_is_remote (client) &&
               g_strcmp0 (json_object_get_string_member (arguments, "action"), "start") == 0;
  if (watch_here)
    {
      g_printerr (_("Watching in this process (no daemon) until interrupted.\n"));
      while (interrupt.signal == 0)
        g_main_context_iteration (NULL, TRUE);
      return interrupted (client, interrupt.signal);
    }

  for (guint i = 0; i < G_N_ELEMENTS (ids); i++)
    g_source_remove (ids[i]);

  return 0;
}

static int
run_tool_command (const LodeConfig  *config,
                  const ToolCommand *command,
                  int                argc,
                  char             **argv)
{
  g_autoptr(JsonObject) arguments = NULL;
  gboolean verbose = FALSE;
  int status = 0;

  /* --verbose lists skipped files after an index run; not a tool argument. */
  for (int i = 1; i < argc; i++)
    if (g_str_equal (command->tool, "codebase_index") &&
        (strcmp (argv[i], "--verbose") == 0 || strcmp (argv[i], "-v") == 0))
      {
        verbose = TRUE;
        memmove (argv + i, argv + i + 1, (argc - i) * sizeof *argv);
        argc--;
        i--;
      }

  arguments = parse_tool_command (command, argc, argv, &status);
  if (arguments == NULL)
    return status;

  return run_tool (config, command->tool, arguments, verbose);
}

/* lode tool NAME [JSON] / lode tools --------------------------------------------------- */

static int
cmd_tool (const LodeConfig  *config,
          int                argc,
          char             **argv)
{
  g_autoptr(GOptionContext) context = NULL;
  g_autoptr(JsonNode) node = NULL;
  g_autoptr(GError) error = NULL;
  GOptionEntry entries[] = {
    { "json", 0, 0, G_OPTION_ARG_NONE, &lode_cli_json, N_("Print the structured result as "
                                                          "JSON"), NULL },
    { NULL }
  };

  context = g_option_context_new (_("NAME [ARGUMENTS]"));
  g_option_context_set_translation_domain (context, GETTEXT_PACKAGE);
  g_option_context_set_summary (context, _("Run any tool of Lode's registry (“lode tools” "
                                           "lists them) with its arguments as a JSON object, "
                                           "as an MCP agent would."));
  g_option_context_add_main_entries (context, entries, GETTEXT_PACKAGE);
  if (!lode_cli_parse_options (context, &argc, &argv))
    return 2;
  if (argc < 2 || argc > 3)
    return lode_cli_usage_error (context, _("Expected a tool name and its arguments"));

  /* Read as MCP messages and CallTool arguments are, so that the same text gets the same
   * answer: json-glib alone overflowed its stack on 100,000 nested `[` and cut
   * "ping\u0000x" to "ping". */
  node = lode_json_parse (argc == 3 ? argv[2] : "{}", -1, &error);
  if (node == NULL)
    {
      g_autofree char *message = g_strdup_printf (_("ARGUMENTS is not valid JSON: %s"),
                                                  error->message);

      return lode_cli_usage_error (context, message);
    }
  if (!JSON_NODE_HOLDS_OBJECT (node))
    return lode_cli_usage_error (context, _("ARGUMENTS must be a JSON object"));

  return run_tool (config, argv[1], json_node_get_object (node), FALSE);
}

static int
cmd_tools (const LodeConfig  *config,
           int                argc,
           char             **argv)
{
  g_autoptr(LodeEngine) engine = lode_engine_new (config);
  g_autoptr(LodeToolRegistry) registry = lode_tools_new_registry (engine);
  g_autoptr(GPtrArray) tools = lode_tool_registry_list (registry);

  for (guint i = 0; i < tools->len; i++)
    {
      const LodeTool *tool = g_ptr_array_index (tools, i);

      g_print ("%-28s %s\n", tool->name, tool->title);
    }

  return 0;
}

/* main --------------------------------------------------------------------------------- */

typedef struct
{
  const char *name;
  const char *summary;
  int       (*run) (const LodeConfig *config, int argc, char **argv);
} Command;

static int
cmd_model (const LodeConfig *config, int argc, char **argv)
{
  return lode_cli_model (argc, argv);
}

static int
cmd_embed (const LodeConfig *config, int argc, char **argv)
{
  return lode_cli_embed (argc, argv);
}

static int
cmd_secret (const LodeConfig *config, int argc, char **argv)
{
  return lode_cli_secret (argc, argv);
}

static int cmd_group (const LodeConfig *config, int argc, char **argv);

static const Command commands[] = {
  { "graph",  N_("Import graph: dependencies, cycles, diagrams"), cmd_group },
  { "symbol", N_("Types, functions, exports, references and calls"), cmd_group },
  { "memory", N_("The team's memories: list, add, remove"), cmd_group },
  { "tool",   N_("Run any tool with JSON arguments"),      cmd_tool },
  { "tools",  N_("List the tools"),                         cmd_tools },
  { "model",  N_("Download and list embedding models"),     cmd_model },
  { "embed",  N_("Embed texts with the built-in encoder"),  cmd_embed },
  { "secret", N_("Store or remove an API key"),             cmd_secret },
};

/* `lode graph`, `lode symbol` or `lode memory` without a known action: the group's
 * actions. */
static int
cmd_group (const LodeConfig *config,
           int               argc,
           char            **argv)
{
  gboolean help = argc >= 2 && (strcmp (argv[1], "--help") == 0 || strcmp (argv[1], "-h") == 0);
  FILE *stream = help ? stdout : stderr;
  g_autofree char *prefix = g_strconcat (argv[0], " ", NULL);
  g_autofree char *usage = g_strdup_printf (_("Usage: lode %s ACTION [OPTION…]"), argv[0]);

  if (argc >= 2 && !help)
    g_printerr (_("lode: unknown %s action “%s”\n\n"), argv[0], argv[1]);
  fprintf (stream, "%s\n\n%s\n", usage, _("Actions:"));
  for (guint i = 0; i < G_N_ELEMENTS (tool_commands); i++)
    if (g_str_has_prefix (tool_commands[i].name, prefix))
      fprintf (stream, "  %-16s %s\n", tool_commands[i].name + strlen (prefix),
               _(tool_commands[i].summary));

  return help ? 0 : 2;
}

static void
print_usage (FILE *stream)
{
  fprintf (stream, "%s\n\n%s\n", _("Usage: lode COMMAND [OPTION…]"), _("Commands:"));
  for (guint i = 0; i < G_N_ELEMENTS (tool_commands); i++)
    if (strchr (tool_commands[i].name, ' ') == NULL)
      fprintf (stream, "  %-16s %s\n", tool_commands[i].name, _(tool_commands[i].summary));
  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    fprintf (stream, "  %-16s %s\n", commands[i].name, _(commands[i].summary));
  fprintf (stream, "\n%s\n%s\n",
           _("--no-daemon runs the engine in this process instead of asking loded."),
           _("Run “lode COMMAND --help” for the options of a command."));
}

/* The tool command that @argv starts with ("graph query" takes two words), or NULL. */
static const ToolCommand *
find_tool_command (int    argc,
                   char **argv,
                   int   *words)
{
  for (guint i = 0; i < G_N_ELEMENTS (tool_commands); i++)
    {
      const char *name = tool_commands[i].name;
      const char *space = strchr (name, ' ');

      if (space == NULL && strcmp (argv[1], name) == 0)
        {
          *words = 1;
          return &tool_commands[i];
        }
      if (space != NULL && argc > 2 && strncmp (argv[1], name, space - name) == 0 &&
          argv[1][space - name] == '\0' && strcmp (argv[2], space + 1) == 0)
        {
          *words = 2;
          return &tool_commands[i];
        }
    }

  return NULL;
}

int
main (int   argc,
      char *argv[])
{
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeConfig) config = NULL;
  g_autofree char *prgname = NULL;
  const ToolCommand *tool_command;
  const char *name;
  int words = 1;

  lode_locale_init ();
  lode_memory_limit_init ();

  /* Logs never mix with --json output on stdout. */
  g_log_writer_default_set_use_stderr (TRUE);

  /* --no-daemon may come anywhere: it forces the in-process engine. */
  for (int i = 1; i < argc; i++)
    if (strcmp (argv[i], "--no-daemon") == 0)
      {
        opt_no_daemon = TRUE;
        memmove (argv + i, argv + i + 1, (argc - i) * sizeof *argv);
        argc--;
        i--;
      }

  if (argc < 2)
    {
      print_usage (stderr);
      return 2;
    }

  name = argv[1];
  if (strcmp (name, "--help") == 0 || strcmp (name, "-h") == 0 || strcmp (name, "help") == 0)
    {
      print_usage (stdout);
      return 0;
    }
  if (strcmp (name, "--version") == 0)
    {
      g_print ("lode %s\n", PACKAGE_VERSION);
      return 0;
    }

  config = lode_engine_load_config (&error);
  if (config == NULL)
    {
      lode_cli_print_error (error);
      return 1;
    }

  tool_command = find_tool_command (argc, argv, &words);
  if (tool_command != NULL)
    {
      prgname = g_strdup_printf ("lode %s", tool_command->name);
      g_set_prgname (prgname);
      /* The command sees its own name as argv[0]. */
      return run_tool_command (config, tool_command, argc - words, argv + words);
    }

  for (guint i = 0; i < G_N_ELEMENTS (commands); i++)
    if (strcmp (commands[i].name, name) == 0)
      {
        prgname = g_strdup_printf ("lode %s", name);
        g_set_prgname (prgname);
        return commands[i].run (config, argc - 1, argv + 1);
      }

  g_printerr (_("lode: unknown command “%s”\n\n"), name);
  print_usage (stderr);
  return 2;
}
