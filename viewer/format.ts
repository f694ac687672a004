// Number formats of the viewer's chrome; durations and tokens read as in the span tree.
export { formatDuration, formatTokens } from '../src/index.js';

const counts = new Intl.NumberFormat();

/**
 * A count in the user's locale (`12,345`), through one formatter made once:
 * `toLocaleString()` looks the locale up on every call (a progress line
 * redrawn per slice while a log loads).
 */
export function formatCount(n: number): string {
  return counts.format(n);
}

/** `1.5 MB`, `320 kB`, `12 B` (decimal units, as file managers show them). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let v = n / 1000;
  let u = 0;
  while (v >= 1000 && u < units.length - 1) {
    v /= 1000;
    u++;
  }
  return `${v >= 100 ? v.toFixed(0) : v.toFixed(1)} ${units[u]}`;
}

/** A date as `2026-11-25 14:03` in the user's time zone. */
export function formatDate(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const d = new Date(ms);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${p(d.getMonth() + 1)}-${p(d.getDate())} ${p(d.getHours())}:${p(d.getMinutes())}`;
}
