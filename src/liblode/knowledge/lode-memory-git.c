/* lode-memory-git.c — memories mined from commit subjects
 *
 * SPDX-FileCopyrightText: 2026 The Lode authors
 * SPDX-License-Identifier: GPL-3.0-or-later
 */

#define G_LOG_DOMAIN "lode-knowledge"

#include "config.h"

#include <string.h>

#include "lode-memory.h"

/*
 * A team writes some of its decisions into its history: "Revert …", "migrate to …",
 * "deprecate …", "never …". Each such subject is a memory, marked as mined from git and
 * naming the files its commit touched; it is mined again whenever HEAD moves (the history is
 * read once per HEAD). Plain fixes and features are left out: they say what changed, not
 * what the team decided.
 */

/* Shorter subjects say too little to act on; a commit touching more files names no code. */
#define MIN_SUBJECT 10
#define MAX_FILES   20

typedef struct
{
  const char *const *words;   /* any of them, as a whole word or word start */
  const char        *type;
  const char        *category;
} Rule;

static const char *const revert_words[] = { "revert", "reverts", "reverted", "roll back",
                                            "rollback", "back out", NULL };
static const char *const migrate_words[] = { "migrate", "migrated", "migrating", "migration",
                                             "switch to", "switched to", "switch from",
                                             "move to", "moved to", "port to", "ported to",
                                             "replace", "replaced", "in favour of",
                                             "in favor of", NULL };
static const char *const deprecate_words[] = { "deprecate", "deprecated", "deprecates",
                                               "deprecation", "drop support", "obsolete",
                                               "breaking change", NULL };
static const char *const rule_words[] = { "never", "always", "must", "must not", "do not",
                                          "don't", "forbid", "forbidden", "disallow", NULL };

/* The first rule that a subject matches decides; reverts first, as a revert's subject
 * quotes another that may match the others. */
static const Rule rules[] = {
  { revert_words, "failure", "architecture" },
  { deprecate_words, "decision", "architecture" },
  { migrate_words, "decision", "dependencies" },
  { rule_words, "convention", "conventions" },
};

/* Whether @word appears in @text (both lower case) at a word's start. */
static gboolean
has_word (const char *text,
          const char *word)
{
  gsize n = strlen (word);

  for (const char *p = strstr (text, word); p != NULL; p = strstr (p + 1, word))
    if ((p == text || !g_ascii_isalnum (p[-1])) && !g_ascii_isalnum (p[n]) )
      return TRUE;

  return FALSE;
}

/* A conventional commit's type (`test`, `build`…) names a category better than the words. */
static const char *
category_of_type (const char *subject,
                  const char *fallback)
{
  static const struct { const char *prefix; const char *category; } types[] = {
    { "test", "testing" }, { "build", "tooling" }, { "ci", "tooling" },
    { "deps", "dependencies" }, { "chore(deps", "dependencies" }, { "docs", "conventions" },
    { "style", "conventions" }, { "refactor", "architecture" },
  };

  for (guint i = 0; i < G_N_ELEMENTS (types); i++)
    {
      gsize n = strlen (types[i].prefix);

      if (g_ascii_strncasecmp (subject, types[i].prefix, n) == 0 &&
          strchr ("(:!", subject[n]) != NULL)
        return types[i].category;
    }

  return fallback;
}

static char *
format_date (gint64 time)
{
  g_autoptr(GDateTime) date = g_date_time_new_from_unix_utc (time);

  return g_date_time_format (date, "%Y-%m-%dT%H:%M:%SZ");
}

static LodeMemory *
mine_commit (const LodeCommit *commit)
{
  g_autofree char *lower = g_ascii_strdown (commit->subject, -1);
  g_autofree char *key = NULL;
  g_autofree char *sha = NULL;
  const Rule *rule = NULL;
  LodeMemory *memory;
  gboolean breaking;

  if (strlen (commit->subject) < MIN_SUBJECT)
    return NULL;
  /* `feat!:` or `refactor(api)!:` announces a breaking change. */
  breaking = strstr (commit->subject, "!:") != NULL &&
             strstr (commit->subject, "!:") < commit->subject + 32;
  for (guint i = 0; i < G_N_ELEMENTS (rules) && rule == NULL; i++)
    for (guint w = 0; rules[i].words[w] != NULL && rule == NULL; w++)
      if (has_word (lower, rules[i].words[w]))
        rule = &rules[i];
  if (rule == NULL && breaking)
    rule = &rules[1];
  if (rule == NULL)
    return NULL;

  key = g_strconcat ("git:", commit->id, NULL);
  sha = g_compute_checksum_for_string (G_CHECKSUM_SHA256, key, -1);
  memory = g_new0 (LodeMemory, 1);
  memory->id = g_strndup (sha, 12);
  memory->type = g_strdup (rule->type);
  memory->category = g_strdup (category_of_type (commit->subject, rule->category));
  memory->memory = g_strdup (commit->subject);
  memory->reason = g_strdup_printf ("Mined from commit %.12s", commit->id);
  memory->date = format_date (commit->time);
  memory->time = commit->time;
  memory->files = g_strv_length (commit->files) <= MAX_FILES ? g_strdupv (commit->files)
                                                             : g_new0 (char *, 1);
  memory->names = g_new0 (char *, 1);
  memory->changed = g_new0 (char *, 1);
  memory->gone = g_new0 (char *, 1);
  memory->source = LODE_MEMORY_SOURCE_GIT;
  memory->commit = g_strdup (commit->id);
  memory->confidence = 1.0;

  return memory;
}

/**
 * lode_memory_mine_git:
 * @history: a tree's history
 *
 * Returns: (transfer full) (element-type LodeMemory): the memories its commit subjects
 *   state — reverts (failures), deprecations and breaking changes, migrations (decisions),
 *   "never"/"always" rules (conventions) — newest first
 */
GPtrArray *
lode_memory_mine_git (LodeGitHistory *history)
{
  GPtrArray *commits = lode_git_history_get_commits (history);
  GPtrArray *memories = g_ptr_array_new_with_free_func ((GDestroyNotify) lode_memory_free);

  for (guint i = 0; i < commits->len; i++)
    {
      LodeMemory *memory = mine_commit (g_ptr_array_index (commits, i));

      if (memory != NULL)
        g_ptr_array_add (memories, memory);
    }

  return memories;
}
