/* lode-memory-limit.c — running out of memory cleanly, for every program of Lode
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-memory-limit"

#include "config.h"

#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <unistd.h>

#include <tree_sitter/api.h>

#include "lode-memory-limit.h"

/* Malloc arenas under an address-space limit: one is locked by every thread, two are
 * enough for the writer and the chunkers to seldom wait on each other. */
#define LIMITED_ARENAS 2

/* Says that memory ran out and ends the process: nothing here may allocate. What the
 * indexer committed is kept (SQLite drops the transaction in progress), and the next run
 * resumes. */
static void G_GNUC_NORETURN
out_of_memory (const char *what,
               size_t      size)
{
  char message[256];
  int length;
  const char *program = g_get_prgname ();

  length = snprintf (message, sizeof message,
                     "%s: out of memory (%s could not get %zu bytes); what was indexed is "
                     "kept, and the next run with more memory resumes\n",
                     program != NULL ? program : "lode", what, size);
  if (length > 0)
    {
      ssize_t written = write (STDERR_FILENO, message, MIN ((size_t) length, sizeof message - 1));

      (void) written;
    }
  _exit (EXIT_FAILURE);
}

/* Tree-sitter has no way to fail an allocation but abort(): it says so here instead. */
static void *
ts_malloc_or_exit (size_t size)
{
  void *p = malloc (size);

  if (p == NULL && size > 0)
    out_of_memory ("tree-sitter", size);
  return p;
}

static void *
ts_calloc_or_exit (size_t count,
                   size_t size)
{
  void *p = calloc (count, size);

  if (p == NULL && count > 0 && size > 0)
    out_of_memory ("tree-sitter", count * size);
  return p;
}

static void *
ts_realloc_or_exit (void   *buffer,
                    size_t  size)
{
  void *p = realloc (buffer, size);

  if (p == NULL && size > 0)
    out_of_memory ("tree-sitter", size);
  return p;
}

/**
 * lode_memory_limit_init:
 *
 * Prepares the process for a memory limit; every main() calls it after lode_locale_init().
 *
 * Under an address-space limit (`ulimit -v`, RLIMIT_AS), glibc gives each thread that
 * allocates an arena of its own, which reserves 64 MiB of address space at once: with the
 * chunking threads and GLib's pools, a limit of 400 MiB ran out of address space while
 * little memory was in use, and a failed g_malloc() ends in GLib's own failure path, which
 * formats its message with the memory it has not got and overflows the stack in recursion
 * (a segmentation fault). With the arenas capped, such a limit is what Lode uses, and a
 * lower one fails in SQLite first, as a clean "out of memory" error. Tree-sitter, which
 * cannot fail an allocation, says that memory ran out and exits instead of aborting.
 */
void
lode_memory_limit_init (void)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    mallopt (M_ARENA_MAX, LIMITED_ARENAS);

  ts_set_allocator (ts_malloc_or_exit, ts_calloc_or_exit, ts_realloc_or_exit, free);
}
