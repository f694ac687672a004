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

describe('formatTokens', () => {
  it.each([
    [0, '0'],
    [1, '1'],
    [999, '999'],
    [1_000, '1.0k'],
    [1_049, '1.0k'],
    [1_050, '1.1k'], // 1.05 is not exact in binary: 1.0500000000000000444 rounds up
    [1_250, '1.2k'], // an exact tie: Python rounds half to even
    [1_350, '1.4k'],
    [48_500, '48.5k'],
    [99_949, '99.9k'],
    [99_950, '100.0k'], // below 100k, so one decimal even when it rounds up
    [100_000, '100k'],
    [100_500, '100k'], // exact tie, to even
    [101_500, '102k'],
    [134_000, '134k'],
    [999_999, '1000k'],
    [1_000_000, '1.0M'],
    [1_250_000, '1.2M'],
    [12_345_678, '12.3M'],
    [250_000_000, '250M'],
    [-48_500, '-48.5k'],
  ])('%i → %s', (tokens, expected) => {
    expect(formatTokens(tokens)).toBe(expected);
  });
});

describe('formatBytes', () => {
  it.each([
    [0, '0 B'],
    [999, '999 B'],
    [1_000, '1.0 kB'],
    [1_024, '1.0 kB'],
    [320_000, '320 kB'],
    [2_500_000, '2.5 MB'], // decimal: 2,500,000 bytes is 2.5 MB, not 2.4
    [1_500_000_000, '1.5 GB'],
    [NaN, ''],
  ])('%d → %s', (bytes, expected) => {
    expect(formatBytes(bytes)).toBe(expected);
  });
});

describe('formatDuration', () => {
  it.each([
    [0, '0 ms'],
    [850, '850 ms'],
    [999.6, '1.0 s'], // the unit follows the rounded value
    [12_340, '12.3 s'],
    [59_960, '1m 00s'],
    [65_000, '1m 05s'],
    [245_700, '4m 05s'], // truncated in the two-unit forms
    [3_720_000, '1h 02m'],
    [-29_000, '-29.0 s'],
    [NaN, ''],
  ])('%d → %s', (ms, expected) => {
    expect(formatDuration(ms)).toBe(expected);
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
