import { SkeinError } from '../../core/errors.js';

// Small helpers shared by the text-like renderers.

/**
 * The text of a bundle entry: a string, or a list of strings (nbformat stores
 * multi-line text as a list of lines). Anything else is a renderer error —
 * the boundary then shows the raw value instead.
 *
 * @example
 * import { expectText } from './text.js';
 * expectText(['a\n', 'b'], 'text/plain'); // 'a\nb'
 */
export function expectText(data: unknown, mimeType: string): string {
  if (typeof data === 'string') return data;
  if (Array.isArray(data) && data.every((d) => typeof d === 'string')) return data.join('');
  throw new SkeinError('display_not_text', mimeType, describeType(data));
}

/**
 * `null`, `array`, `object`, `number`, … for error messages.
 *
 * @example
 * import { describeType } from './text.js';
 * describeType([]); // 'array'
 */
export function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/**
 * The first `n` UTF-16 units of `text`, never splitting a surrogate pair.
 *
 * @example
 * import { sliceText } from './text.js';
 * sliceText('a😀', 2); // 'a'
 */
export function sliceText(text: string, n: number): string {
  if (n >= text.length) return text;
  const code = text.charCodeAt(n - 1);
  return text.slice(0, code >= 0xd800 && code <= 0xdbff ? n - 1 : n);
}

/**
 * Best-effort text of any value for fallbacks: never throws, bounded.
 *
 * @example
 * import { rawText } from './text.js';
 * rawText({ a: 1 }, 100); // '{\n  "a": 1\n}'
 */
export function rawText(value: unknown, max: number): string {
  let text: string;
  if (typeof value === 'string') text = value;
  else if (Array.isArray(value) && value.every((d) => typeof d === 'string')) text = value.join('');
  else {
    try {
      text = JSON.stringify(value, null, 2) ?? String(value);
    } catch {
      text = Object.prototype.toString.call(value);
    }
  }
  return text.length > max ? `${sliceText(text, max)}…` : text;
}

/**
 * `metadata[key]` when it is a finite positive number.
 *
 * @example
 * import { positiveNumber } from './text.js';
 * positiveNumber({ width: 320 }, 'width'); // 320
 */
export function positiveNumber(
  metadata: Readonly<Record<string, unknown>> | undefined,
  key: string,
): number | undefined {
  const v = metadata?.[key];
  return typeof v === 'number' && Number.isFinite(v) && v > 0 ? v : undefined;
}
