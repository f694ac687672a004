// One rule per quantity (src/core/format.ts). The token table is inspect's
// swimlane rule (research/inspect_ai.md §3.6), which the ASCII swimlane
// reproduces; the other views print the same strings.
import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatCount,
  formatDuration,
  formatScore,
  formatTokens,
} from '../../src/core/format.js';

describe('one rule per quantity', () => {
  it.each([
    [formatTokens, 0, '0'],
    [formatTokens, 1, '1'],
    [formatTokens, 999, '999'],
    [formatTokens, 1_000, '1.0k'],
    [formatTokens, 1_049, '1.0k'],
    [formatTokens, 1_050, '1.1k'], // 1.05 is not exact in binary: 1.0500000000000000444 rounds up
    [formatTokens, 1_250, '1.2k'], // an exact tie: Python rounds half to even
    [formatTokens, 1_350, '1.4k'],
    [formatTokens, 48_500, '48.5k'],
    [formatTokens, 99_949, '99.9k'],
    [formatTokens, 99_950, '100.0k'], // below 100k, so one decimal even when it rounds up
    [formatTokens, 100_000, '100k'],
    [formatTokens, 100_500, '100k'], // exact tie, to even
    [formatTokens, 101_500, '102k'],
    [formatTokens, 134_000, '134k'],
    [formatTokens, 999_999, '1000k'],
    [formatTokens, 1_000_000, '1.0M'],
    [formatTokens, 1_250_000, '1.2M'],
    [formatTokens, 12_345_678, '12.3M'],
    [formatTokens, 250_000_000, '250M'],
    [formatTokens, -48_500, '-48.5k'],
    [formatBytes, 0, '0 B'],
    [formatBytes, 999, '999 B'],
    [formatBytes, 1_000, '1.0 kB'],
    [formatBytes, 1_024, '1.0 kB'],
    [formatBytes, 320_000, '320 kB'],
    [formatBytes, 2_500_000, '2.5 MB'], // decimal: 2,500,000 bytes is 2.5 MB, not 2.4
    [formatBytes, 1_500_000_000, '1.5 GB'],
    [formatBytes, NaN, ''],
    [formatDuration, 0, '0 ms'],
    [formatDuration, 850, '850 ms'],
    [formatDuration, 999.6, '1.0 s'], // the unit follows the rounded value
    [formatDuration, 12_340, '12.3 s'],
    [formatDuration, 59_960, '1m 00s'],
    [formatDuration, 65_000, '1m 05s'],
    [formatDuration, 245_700, '4m 05s'], // truncated in the two-unit forms
    [formatDuration, 3_720_000, '1h 02m'],
    [formatDuration, -29_000, '-29.0 s'],
    [formatDuration, NaN, ''],
  ] as const)('%o(%d) → %s', (format, n, expected) => {
    expect(format(n)).toBe(expected);
  });
});

describe('formatCount and formatScore', () => {
  it('groups thousands with commas whatever the locale, and rounds', () => {
    expect(formatCount(16_488)).toBe('16,488');
    expect(formatCount(-1_234_567.6)).toBe('-1,234,568');
    expect(formatCount(999)).toBe('999');
  });

  it('prints a score with at most three decimals', () => {
    expect(formatScore(2 / 3)).toBe('0.667');
    expect(formatScore(2.5)).toBe('2.5');
    expect(formatScore(3.0001)).toBe('3');
    expect(formatScore(1)).toBe('1');
  });
});
