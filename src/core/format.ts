/**
 * Numbers for people: the one place where skein turns a count, a token
 * count, a byte size, a duration or a score into text. Every view (the
 * transcript, the span tree, the swimlane in React, SVG and ASCII, the run
 * diff, the display budgets), the viewer and the CLI call these, so the same
 * number reads the same everywhere. One rule per quantity:
 *
 * - **counts** (events, rows, steps, characters): the whole number with
 *   comma thousands separators, in a fixed locale (`16,488`) so text, tests
 *   and screenshots do not change with the reader's machine.
 * - **tokens**: inspect_ai's swimlane rule (inspect_ai's `event/_timeline_repr.py`),
 *   which the ASCII swimlane must reproduce character for character: the
 *   integer below 1000, then `k` and `M` with one decimal below 100 of the
 *   unit and none from 100 (`950`, `1.2k`, `48.5k`, `134k`, `12.3M`); exact
 *   ties round half to even, as Python does. The rule never carries over to
 *   the next unit (`999,999` is `1000k`), as in inspect.
 * - **bytes**: decimal units, as file managers and HTTP tools show sizes
 *   (`12 B`, `1.5 kB`, `320 kB`, `2.5 MB`), with the same digits rule as
 *   tokens: a kilobyte is 1000 bytes everywhere, never 1024.
 * - **durations**: `850 ms`, `12.3 s`, `4m 05s`, `1h 02m` (seconds and
 *   minutes truncated in the two-unit forms); a negative duration keeps its
 *   sign; empty for NaN. Axis tick labels are not durations but positions
 *   on an axis and have their own format (`formatTickLabel`).
 * - **scores** (metric values, not counts): at most three decimals, trailing
 *   zeros dropped (`0.667`, `2.5`, `1`).
 *
 * Pure: no locale lookup, no DOM.
 */

/**
 * Python's `f"{x:.{digits}f}"`: like `toFixed`, except that an exact tie
 * rounds to even (Python) rather than up (JavaScript). Ties are rare —
 * `1.25` is exact in binary, `1.05` is not — and detected on the exact
 * decimal expansion of the double, which `toFixed(60)` gives for values
 * ≥ 1 (at most 52 fractional digits).
 */
function pythonFixed(x: number, digits: number): string {
  const rounded = x.toFixed(digits);
  const exact = x.toFixed(60);
  const point = exact.indexOf('.');
  const rest = exact.slice(point + 1 + digits);
  if (!/^50*$/.test(rest)) return rounded;
  // An exact tie: keep the truncated value if its last digit is even.
  const truncated = exact.slice(0, digits === 0 ? point : point + 1 + digits);
  const lastDigit = Number(truncated[truncated.length - 1]);
  return lastDigit % 2 === 0 ? truncated : rounded;
}

/** `value` (≥ 1) with one decimal below 100 and none from 100. */
function threeDigits(value: number): string {
  return pythonFixed(value, value >= 100 ? 0 : 1);
}

/**
 * A count with comma thousands separators, whatever the reader's locale:
 * `16,488`; rounded to a whole number; `NaN`/`Infinity` as JavaScript
 * prints them.
 *
 * @example
 * formatCount(16488); // '16,488'
 */
export function formatCount(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const sign = n < 0 ? '-' : '';
  const digits = String(Math.round(Math.abs(n)));
  return sign + digits.replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/**
 * A token count the way inspect's swimlane prints it: `950`, `1.2k`,
 * `48.5k`, `134k`, `12.3M` (ties to even; see the module's rules).
 *
 * @example
 * formatTokens(48_500); // '48.5k'
 */
export function formatTokens(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (n < 0) return `-${formatTokens(-n)}`;
  if (n < 1000) return String(Math.round(n));
  if (n < 1_000_000) return `${threeDigits(n / 1000)}k`;
  return `${threeDigits(n / 1_000_000)}M`;
}

const BYTE_UNITS = ['kB', 'MB', 'GB', 'TB'] as const;

/**
 * A byte size in decimal units: `12 B`, `1.5 kB`, `320 kB`, `2.5 MB`
 * (1 kB = 1000 B).
 *
 * @example
 * formatBytes(2_500_000); // '2.5 MB'
 */
export function formatBytes(n: number): string {
  if (!Number.isFinite(n)) return '';
  if (n < 0) return `-${formatBytes(-n)}`;
  if (n < 1000) return `${Math.round(n)} B`;
  let v = n / 1000;
  let u = 0;
  while (v >= 1000 && u < BYTE_UNITS.length - 1) {
    v /= 1000;
    u++;
  }
  return `${threeDigits(v)} ${BYTE_UNITS[u]}`;
}

/**
 * A duration: `850 ms`, `12.3 s`, `4m 05s`, `1h 02m`; empty for NaN. A
 * negative one (a span whose end was logged before its start: clocks of two
 * machines, records out of order) keeps its sign, `-29.0 s`: shown, not
 * hidden and not `-29000 ms`.
 *
 * @example
 * formatDuration(65_000); // '1m 05s'
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) return '';
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(ms);
  // Thresholds on the rounded value, so 999.6 ms reads `1.0 s`, not `1000 ms`.
  if (abs < 999.5) return `${sign}${Math.round(abs)} ms`;
  const tenths = Math.round(abs / 100);
  if (tenths < 600) return `${sign}${(tenths / 10).toFixed(1)} s`;
  const seconds = Math.max(60, Math.floor(abs / 1000));
  const m = Math.floor(seconds / 60);
  if (m < 60) return `${sign}${m}m ${String(seconds % 60).padStart(2, '0')}s`;
  return `${sign}${Math.floor(m / 60)}h ${String(m % 60).padStart(2, '0')}m`;
}

/**
 * A score or other measured value: at most three decimals, trailing zeros
 * dropped (`0.667`, `2.5`, `1`); `NaN`/`Infinity` as JavaScript prints them.
 *
 * @example
 * formatScore(2 / 3); // '0.667'
 */
export function formatScore(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  return String(Math.round(n * 1000) / 1000);
}
