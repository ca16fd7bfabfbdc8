// Minute and hour fields of a cron expression ("30 2 * * *"); returns the next Date after `from`.
export function nextRun(expr: string, from: Date = new Date()): Date {
  const [minute, hour] = expr.trim().split(/\s+/);
  const next = new Date(from.getTime());
  next.setSeconds(0, 0);
  next.setMinutes(minute === '*' ? next.getMinutes() + 1 : Number(minute));
  if (hour !== '*') next.setHours(Number(hour));
  if (next <= from) next.setDate(next.getDate() + 1);
  return next;
}
