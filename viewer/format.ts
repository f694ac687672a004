// Number formats of the viewer's chrome; durations and tokens read as in the span tree.
export { formatBytes, formatDuration, formatTokens } from '../src/index.js';

const counts = new Intl.NumberFormat();

/**
 * A count in the user's locale (`12,345`), through one formatter made once:
 * `toLocaleString()` looks the locale up on every call (a progress line
 * redrawn per slice while a log loads).
 */
export function formatCount(n: number): string {
  return counts.format(n);
}

/** A date as `2026-11-25 14:03` in the user's time zone. */
export function formatDate(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}

/**
 * A date as short as the listing's column allows, in the user's time zone:
 * `14:03` today, `11-25 14:03` this year, `2025-11-25` before.
 */
export function formatShortDate(ms: number, now = Date.now()): string {
  if (!Number.isFinite(ms)) return '';
  const full = formatDate(ms);
  const today = formatDate(now);
  if (full.slice(0, 10) === today.slice(0, 10)) return full.slice(11);
  if (full.slice(0, 4) === today.slice(0, 4)) return full.slice(5);
  return full.slice(0, 10);
}

/**
 * A log file's name split for a narrow column: inspect_ai names its logs
 * `<ISO time with '-' for ':'>_<task>_<id>.<ext>`, so the part that tells
 * logs apart comes after a stamp they share; `label` is that part and
 * `stamp` the time as `2024-11-05 13:32` (the log's own clock). Other names
 * are their own label.
 */
export function splitLogName(name: string): { label: string; stamp: string | null } {
  const m = /^(\d{4}-\d\d-\d\d)T(\d\d)-(\d\d)-\d\d(?:[+-]\d\d-\d\d|Z)?_(.+)$/.exec(name);
  return m ? { label: m[4]!, stamp: `${m[1]!} ${m[2]!}:${m[3]!}` } : { label: name, stamp: null };
}
