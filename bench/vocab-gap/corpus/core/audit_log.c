#include <stdio.h>
#include <time.h>

/* Appends "<ISO time> <actor> <action> <target>" to the journal and flushes it. */
int
journal_append (FILE       *journal,
                const char *actor,
                const char *action,
                const char *target)
{
  char stamp[32];
  time_t now = time (NULL);
  struct tm tm;

  gmtime_r (&now, &tm);
  strftime (stamp, sizeof stamp, "%Y-%m-%dT%H:%M:%SZ", &tm);
  if (fprintf (journal, "%s %s %s %s\n", stamp, actor, action, target) < 0)
    return -1;

  return fflush (journal);
}
