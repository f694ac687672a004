import { describe, expect, it } from 'vitest';
import { hasRefPrefix, isRefFree, parseJsonBytes } from '../../src/core/import/json.js';

// hasRefPrefix replaced `text.includes('attachment://') || text.includes('tc://')`
// (one scan instead of two); that expression is its oracle.
const oracle = (text: string) => text.includes('attachment://') || text.includes('tc://');

describe('hasRefPrefix', () => {
  it.each([
    ['', false],
    ['{}', false],
    ['attachment://abc', true],
    ['tc://abc', true],
    ['{"a": "attachment://x"}', true],
    ['{"a": "x tc://y"}', true],
    ['https://example.com', false],
    ['{"a": "https://x", "b": "ftp://y", "c": "etc://z"}', true],
    ['{"a": "https://x", "b": "attachment:/x", "c": "tc:/"}', false],
    ['://', false],
    ['c://', false],
    ['ttachment://', false],
    ['xattachment://', true],
    ['attachment:///', true],
    ['tc:://', false],
    ['://tc://', true],
    ['\u00e9attachment://\u00e9', true],
    ['\u00e9https://\u00e9', false],
  ])('%j → %s', (text, expected) => {
    expect(hasRefPrefix(text)).toBe(expected);
    expect(oracle(text)).toBe(expected);
  });

  it('agrees with two includes() scans on random texts over a small alphabet', () => {
    const alphabet = ['a', 't', 'c', ':', '/', 'attachment', 'tc', '://', 'x', 'é'];
    let seed = 7;
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) % alphabet.length;
    for (let n = 0; n < 2000; n++) {
      let text = '';
      for (let i = 0; i < 1 + (n % 12); i++) text += alphabet[next()];
      expect(hasRefPrefix(text)).toBe(oracle(text));
    }
  });
});

describe('parseJsonBytes marks ref-free documents', () => {
  const bytes = (text: string) => new TextEncoder().encode(text);
  it.each([
    ['{"a": "https://x"}', true],
    ['{"a": "attachment://x"}', false],
    ['{"a": ["tc://x"]}', false],
  ])('%s → ref-free %s', (text, refFree) => {
    expect(isRefFree(parseJsonBytes(bytes(text), '$'))).toBe(refFree);
  });
});
