/* lode-memory-limit.c — running out of memory cleanly, for every program of Lode
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-memory-limit"

#include "config.h"

#include <fcntl.h>
#include <malloc.h>
#include <signal.h>
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

/* The address-space limit, 0 for none; set once, before any thread starts. */
static rlim_t address_space_limit;

/* Says that memory ran out (@what could not get it) and ends the process: nothing here may
 * allocate. What the indexer committed is kept (SQLite drops the transaction in progress),
 * and the next run resumes. */
static void G_GNUC_NORETURN
out_of_memory (const char *what)
{
  char message[256];
  int length;
  const char *program = g_get_prgname ();

  length = snprintf (message, sizeof message,
                     "%s: out of memory (%s); what was indexed is kept, and the next run "
                     "with more memory resumes\n",
                     program != NULL ? program : "lode", what);
  if (length > 0)
    {
      ssize_t written = write (STDERR_FILENO, message, MIN ((size_t) length, sizeof message - 1));

      (void) written;
    }
  _exit (EXIT_FAILURE);
}

static void G_GNUC_NORETURN
out_of_memory_size (const char *who,
                    size_t      size)
{
  char what[128];

  snprintf (what, sizeof what, "%s could not get %zu bytes", who, size);
  out_of_memory (what);
}

/* Tree-sitter has no way to fail an allocation but abort(): it says so here instead. */
static void *
ts_malloc_or_exit (size_t size)
{
  void *p = malloc (size);

  if (p == NULL && size > 0)
    out_of_memory_size ("tree-sitter", size);
  return p;
}

static void *
ts_calloc_or_exit (size_t count,
                   size_t size)
{
  void *p = calloc (count, size);

  if (p == NULL && count > 0 && size > 0)
    out_of_memory_size ("tree-sitter", count * size);
  return p;
}

static void *
ts_realloc_or_exit (void   *buffer,
                    size_t  size)
{
  void *p = realloc (buffer, size);

  if (p == NULL && size > 0)
    out_of_memory_size ("tree-sitter", size);
  return p;
}

/* Whether the address space in use is within a few MiB of the limit: read from
 * /proc/self/statm with system calls only, as a signal handler may. */
static gboolean
address_space_exhausted (void)
{
  char text[64];
  ssize_t length;
  guint64 pages = 0;
  int fd;

  if (address_space_limit == 0)
    return FALSE;
  fd = open ("/proc/self/statm", O_RDONLY | O_CLOEXEC);
  if (fd < 0)
    return FALSE;
  length = read (fd, text, sizeof text - 1);
  close (fd);
  for (ssize_t i = 0; i < length && text[i] >= '0' && text[i] <= '9'; i++)
    pages = pages * 10 + (guint64) (text[i] - '0');

  return pages * (guint64) sysconf (_SC_PAGESIZE) + (32 << 20) >= address_space_limit;
}

/* GSlice aborts when an allocation fails, and code that does not check malloc()
 * dereferences NULL: under the limit, with the address space used up, that is memory
 * running out. Any other abort or fault stays one. */
static void
fatal_signal_cb (int signum)
{
  if (address_space_exhausted ())
    out_of_memory ("an allocation failed");

  signal (signum, SIG_DFL);
  raise (signum);
}

/* A failed g_malloc() ends in g_error(), whose default writer formats the message with the
 * memory it has not got and recurses until the stack overflows (a segmentation fault):
 * under the limit, that error says that memory ran out instead. Everything else goes to
 * GLib's writer. */
static GLogWriterOutput
log_writer_cb (GLogLevelFlags   log_level,
               const GLogField *fields,
               gsize            n_fields,
               gpointer         user_data)
{
  if (log_level & G_LOG_LEVEL_ERROR)
    for (gsize i = 0; i < n_fields; i++)
      {
        const char *failed;

        if (strcmp (fields[i].key, "MESSAGE") == 0 && fields[i].length < 0 &&
            (failed = strstr (fields[i].value, "failed to allocate")) != NULL)
          {
            char what[128];

            snprintf (what, sizeof what, "GLib %s", failed);
            out_of_memory (what);
          }
      }

  return g_log_writer_default (log_level, fields, n_fields, user_data);
}

#define ALTERNATE_STACK_SIZE (64 * 1024)

static void
alternate_stack_free (gpointer data)
{
  stack_t off = { .ss_flags = SS_DISABLE };

  sigaltstack (&off, NULL);
  g_free (data);
}

static GPrivate alternate_stack = G_PRIVATE_INIT (alternate_stack_free);

/**
 * lode_memory_limit_thread_init:
 *
 * Under an address-space limit, gives the calling thread a stack of its own for the signal
 * handler that says memory ran out: a failed g_vasprintf() makes GLib log its failure with
 * the memory it has not got, again and again until the thread's stack overflows, and the
 * handler of that fault needs a stack that is not the one used up (the main thread's stack,
 * which grows on demand, cannot grow either). Lode's threads call it first; it does nothing
 * without a limit.
 */
void
lode_memory_limit_thread_init (void)
{
  stack_t stack = { .ss_size = ALTERNATE_STACK_SIZE };

  if (address_space_limit == 0)
    return;
  stack.ss_sp = g_malloc (ALTERNATE_STACK_SIZE);
  if (sigaltstack (&stack, NULL) != 0)
    {
      g_free (stack.ss_sp);
      return;
    }
  g_private_replace (&alternate_stack, stack.ss_sp);
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
 * cannot fail an allocation, says that memory ran out and exits instead of aborting; so
 * does a failed g_malloc(), g_slice_alloc() or unchecked malloc(), which would otherwise
 * crash.
 */
void
lode_memory_limit_init (void)
{
  struct rlimit limit;

  if (getrlimit (RLIMIT_AS, &limit) == 0 && limit.rlim_cur != RLIM_INFINITY)
    {
      static const int signals[] = { SIGABRT, SIGSEGV, SIGBUS };
      struct sigaction action = { .sa_handler = fatal_signal_cb, .sa_flags = SA_ONSTACK };

      address_space_limit = limit.rlim_cur;
      mallopt (M_ARENA_MAX, LIMITED_ARENAS);
      lode_memory_limit_thread_init ();
      sigemptyset (&action.sa_mask);
      for (guint i = 0; i < G_N_ELEMENTS (signals); i++)
        sigaction (signals[i], &action, NULL);
      g_log_set_writer_func (log_writer_cb, NULL, NULL);
    }

  ts_set_allocator (ts_malloc_or_exit, ts_calloc_or_exit, ts_realloc_or_exit, free);
}

/**
 * lode_memory_limit_exhausted:
 *
 * Returns: whether the process runs under an address-space limit and has used it up (a
 * thread that cannot start, say, could not get the memory for its stack)
 */
gboolean
lode_memory_limit_exhausted (void)
{
  return address_space_exhausted ();
}
