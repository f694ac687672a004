import { describe, expect, it } from 'vitest';
import { ImportError, errorMessage, jsonPath } from '../../src/index.js';

describe('jsonPath', () => {
  it('appends identifiers with a dot', () => expect(jsonPath('$', 'samples')).toBe('$.samples'));
  it('appends indexes in brackets', () => expect(jsonPath('$.samples', 0)).toBe('$.samples[0]'));
  it('quotes names that are not identifiers', () =>
    expect(jsonPath('$', 'x-y "z"')).toBe('$["x-y \\"z\\""]'));
});

describe('ImportError', () => {
  it('carries code and path and names the path in its message', () => {
    const e = new ImportError(
      'wrong_type',
      '$.a[1]',
      errorMessage('wrong_type', 'string', 'number'),
    );
    expect(e).toBeInstanceOf(Error);
    expect(e.name).toBe('ImportError');
    expect(e.code).toBe('wrong_type');
    expect(e.path).toBe('$.a[1]');
    expect(e.message).toBe('Expected string, got number (at $.a[1])');
  });
});
