/**
 * Option checks shared by the swimlane functions. A bad number (`NaN`, a
 * fractional ASCII width) would otherwise surface far away as a `RangeError`
 * from `String.prototype.repeat` or as a silently empty drawing; this names
 * the option instead, with the catalogue's `invalid_option` code.
 */
import { ImportError } from '../errors.js';

/**
 * Throws `ImportError('invalid_option')` unless `ok(value)`; returns the value.
 * @internal
 * @example
 * import { checkOption } from 'src/core/swimlane/options.js';
 * const width = checkOption('width', 120, Number.isInteger, 'an integer');
 */
export function checkOption<T>(
  name: string,
  value: T,
  ok: (value: T) => boolean,
  expected: string,
): T {
  if (!ok(value)) {
    throw new ImportError('invalid_option', `$.${name}`, name, expected, String(value));
  }
  return value;
}

/**
 * `true` for finite numbers.
 * @internal
 * @example
 * import { isFiniteNumber } from 'src/core/swimlane/options.js';
 * [0, 1].every(isFiniteNumber); // true
 */
export const isFiniteNumber = (n: number): boolean => Number.isFinite(n);
