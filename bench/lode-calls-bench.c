/* lode-calls-bench.c — the call graph of a tree, extracted and resolved in this process
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-bench"

#include "config.h"

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>

#include "lode.h"
#include "lode-calls-resolver.h"
#include "lode-chunker.h"
#include "lode-import-resolver.h"
#include "lode-scanner.h"

/*
 * Scans a tree, chunks every file of a language with call extraction (call sites, imports),
 * resolves the imports and then the calls, and prints one line per call site as TSV on
 * stdout (or the raw call sites of one file with --sites). bench/callgraph-gcc.py compares
 * these edges with GCC's; the timings on stderr say what extraction and resolution cost.
 * Never a pass/fail test; see bench/README.md.
 */

static char *opt_sites;
static gboolean opt_no_calls;

static const GOptionEntry entries[] = {
  { "no-calls", 0, 0, G_OPTION_ARG_NONE, &opt_no_calls,
    "Only chunk every file, without call extraction (the reference for its cost)", NULL },
  { "sites", 's', 0, G_OPTION_ARG_FILENAME, &opt_sites,
    "Print the call sites and bindings of this file (relative to ROOT) instead", "PATH" },
  { NULL }
};

static const char * const receiver_names[] = { "", "self", "type", "result" };
static const char * const binding_names[] = {
  "import", "field", "field-result", "super", "returns", "alias", "reexport"
};

static void
print_sites (const char *path,
             GPtrArray  *symbols,
             LodeCalls  *calls)
{
  for (guint i = 0; i < calls->sites->len; i++)
    {
      LodeCallSite *site = g_ptr_array_index (calls->sites, i);
      LodeSymbol *caller = site->caller >= 0 ? g_ptr_array_index (symbols, site->caller) : NULL;

      printf ("%s:%u\t%s\t%s\tflags=%u\t%s %s\tcaller=%s\n", path, site->line, site->name,
              site->qualifier != NULL ? site->qualifier : "-", site->flags,
              receiver_names[site->receiver_kind], site->receiver != NULL ? site->receiver : "",
              caller != NULL ? caller->name : "-");
    }
  for (guint i = 0; i < calls->bindings->len; i++)
    {
      LodeCallBinding *b = g_ptr_array_index (calls->bindings, i);
      LodeSymbol *scope = b->scope >= 0 ? g_ptr_array_index (symbols, b->scope) : NULL;

      printf ("binding %s\t%s\t%s\t%s\tline=%u\tscope=%s\n", binding_names[b->kind], b->name,
              b->target != NULL ? b->target : "-", b->path != NULL ? b->path : "-", b->line,
              scope != NULL ? scope->name : "-");
    }
  for (guint i = 0; i < symbols->len; i++)
    {
      LodeSymbol *s = g_ptr_array_index (symbols, i);

      printf ("symbol %u %s %s container=%s package=%s lines=%u-%u\n", i, s->kind, s->name,
              s->container != NULL ? s->container : "-", s->package != NULL ? s->package : "-",
              s->start_line, s->end_line);
    }
  for (guint i = 0; i < calls->file_local->len; i++)
    {
      LodeSymbol *s = g_ptr_array_index (symbols, g_array_index (calls->file_local, guint, i));

      printf ("file-local %s\n", s->name);
    }
}

int
main (int    argc,
      char **argv)
{
  g_autoptr(GOptionContext) context = g_option_context_new ("ROOT");
  g_autoptr(GError) error = NULL;
  g_autoptr(LodeScanner) scanner = NULL;
  g_autoptr(GPtrArray) files = NULL;
  g_autoptr(GPtrArray) skipped = NULL;
  g_autoptr(GPtrArray) paths = g_ptr_array_new ();
  g_autoptr(LodeImportResolver) imports = NULL;
  g_autoptr(LodeCallResolver) resolver = NULL;
  g_autoptr(LodeChunker) chunker = lode_chunker_new (LODE_CHUNKER_DEFAULT_MAX_TOKENS);
  guint counts[LODE_CALL_REGISTERED + 1] = { 0 };
  guint n_sites = 0;
  gint64 start, chunked, resolved;
  g_autofree char *root = NULL;

  setlocale (LC_ALL, "");
  g_option_context_add_main_entries (context, entries, NULL);
  if (!g_option_context_parse (context, &argc, &argv, &error) || argc != 2)
    {
      g_printerr ("%s\n", error != NULL ? error->message : "Usage: lode-calls-bench ROOT");
      return 2;
    }
  if (opt_sites != NULL && opt_no_calls)
    {
      g_printerr ("--sites prints what call extraction finds: it cannot go with --no-calls\n");
      return 2;
    }
  /* The scanner and the resolvers take the tree's absolute path. */
  root = g_canonicalize_filename (argv[1], NULL);
  scanner = lode_scanner_new (root);
  if (!lode_scanner_scan (scanner, NULL, &files, &skipped, &error))
    {
      g_printerr ("%s\n", error->message);
      return 1;
    }
  for (guint i = 0; i < files->len; i++)
    g_ptr_array_add (paths, ((LodeScanFile *) g_ptr_array_index (files, i))->path);
  g_ptr_array_add (paths, NULL);
  imports = lode_import_resolver_new (root, (const char * const *) paths->pdata);
  resolver = lode_call_resolver_new (imports);

  start = g_get_monotonic_time ();
  for (guint i = 0; i < files->len; i++)
    {
      LodeScanFile *file = g_ptr_array_index (files, i);
      g_autofree char *full = g_build_filename (root, file->path, NULL);
      g_autofree char *text = NULL;
      g_autoptr(GPtrArray) chunks = NULL;
      g_autoptr(GPtrArray) symbols = NULL;
      g_autoptr(GPtrArray) file_imports = NULL;
      LodeCalls *calls = NULL;
      gsize len;

      if (file->language == NULL || !lode_calls_supported (file->language))
        continue;
      if (opt_sites != NULL && strcmp (opt_sites, file->path) != 0)
        continue;
      if (!g_file_get_contents (full, &text, &len, NULL) || !g_utf8_validate (text, len, NULL))
        continue;
      if (!lode_chunker_chunk (chunker, file->language, file->path, text, len, &chunks,
                               &symbols, &file_imports, NULL, opt_no_calls ? NULL : &calls,
                               NULL, &error))
        {
          g_printerr ("%s: %s\n", file->path, error->message);
          return 1;
        }
      if (opt_sites != NULL)
        {
          for (guint j = 0; j < file_imports->len; j++)
            {
              LodeImport *import = g_ptr_array_index (file_imports, j);
              g_autofree char *package = NULL;
              g_auto(GStrv) targets = lode_import_resolver_resolve_all (imports, file->path,
                                                                        import, &package);
              g_autofree char *joined = targets != NULL ? g_strjoinv (" ", targets) : NULL;

              printf ("import %s line=%u -> %s%s%s\n", import->specifier, import->line,
                      joined != NULL ? joined : "", package != NULL ? " package " : "",
                      package != NULL ? package : "");
            }
          print_sites (file->path, symbols, calls);
          lode_calls_free (calls);
          return 0;
        }
      if (opt_no_calls)
        continue;
      n_sites += calls->sites->len;
      lode_call_resolver_add_file (resolver, file->path, file->language->id, symbols, calls,
                                   file_imports);
    }
  chunked = g_get_monotonic_time ();

  if (opt_sites != NULL)
    {
      g_printerr ("%s is not a file of %s that lode-calls-bench extracts calls from (a path "
                  "relative to the tree, in a language with call extraction)\n", opt_sites,
                  root);
      return 1;
    }

  for (guint f = 0; f < lode_call_resolver_get_n_files (resolver); f++)
    {
      g_autoptr(GPtrArray) edges = lode_call_resolver_resolve (resolver, f);
      const LodeCallSymbol *symbols = lode_call_resolver_get_symbols (resolver, f, NULL);
      const char *path = lode_call_resolver_get_path (resolver, f);

      for (guint e = 0; e < edges->len; e++)
        {
          LodeCallEdge *edge = g_ptr_array_index (edges, e);
          const LodeCallSite *site = edge->site;
          const LodeCallSymbol *caller = site->caller >= 0 ? &symbols[site->caller] : NULL;

          counts[edge->status]++;
          for (guint t = 0; t < MAX (edge->targets->len, 1); t++)
            {
              LodeCallTarget *target = t < edge->targets->len
                                       ? &g_array_index (edge->targets, LodeCallTarget, t)
                                       : NULL;
              const LodeCallSymbol *callee =
                target != NULL
                ? &lode_call_resolver_get_symbols (resolver, target->file, NULL)[target->symbol]
                : NULL;

              printf ("%s\t%s\t%s\t%u\t%u\t%s\t%s\t%s\t%s\t%.2f\t%s\t%s\t%s\t%u\t%s\t%u\n",
                      path, caller != NULL ? caller->name : "-",
                      caller != NULL ? caller->kind : "-",
                      caller != NULL ? caller->start_line : 0, site->line, site->name,
                      site->qualifier != NULL ? site->qualifier : "-",
                      lode_call_status_to_string (edge->status),
                      lode_call_rule_to_string (edge->rule), edge->confidence,
                      target != NULL ? lode_call_resolver_get_path (resolver, target->file) : "-",
                      callee != NULL ? callee->name : "-", callee != NULL ? callee->kind : "-",
                      callee != NULL ? callee->start_line : 0,
                      edge->package != NULL ? edge->package : "-", site->flags);
            }
        }
    }
  resolved = g_get_monotonic_time ();

  g_printerr ("%u files, %u call sites: %u resolved, %u ambiguous, %u external, "
              "%u unresolved; chunking with calls %.2f s, resolving %.2f s\n",
              lode_call_resolver_get_n_files (resolver), n_sites, counts[LODE_CALL_RESOLVED],
              counts[LODE_CALL_AMBIGUOUS], counts[LODE_CALL_EXTERNAL],
              counts[LODE_CALL_UNRESOLVED], (chunked - start) / 1e6, (resolved - chunked) / 1e6);
  return 0;
}
