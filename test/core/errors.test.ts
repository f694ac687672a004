import { makeDiagnostic } from '../../src/core/errors.js';
import { describe, expect, it } from 'vitest';
import { ImportError, LiveError, SkeinError, errorMessage, jsonPath } from '../../src/index.js';

describe('jsonPath', () => {
  it('appends identifiers with a dot', () => expect(jsonPath('$', 'samples')).toBe('$.samples'));
  it('appends indexes in brackets', () => expect(jsonPath('$.samples', 0)).toBe('$.samples[0]'));
  it('quotes names that are not identifiers', () =>
    expect(jsonPath('$', 'x-y "z"')).toBe('$["x-y \\"z\\""]'));
});

describe('ImportError', () => {
  it('carries code, details and path; its message comes from the catalogue plus the path', () => {
    const e = new ImportError('wrong_type', '$.a[1]', 'string', 'number');
    expect(e).toBeInstanceOf(Error);
    expect(e).toBeInstanceOf(SkeinError);
    expect(e.name).toBe('ImportError');
    expect(e.code).toBe('wrong_type');
    expect(e.details).toEqual(['string', 'number']);
    expect(e.path).toBe('$.a[1]');
    expect(e.message).toBe('Expected string, got number (at $.a[1])');
    expect(e.message).toBe(`${errorMessage('wrong_type', 'string', 'number')} (at $.a[1])`);
  });

  it('records a cause without changing the message', () => {
    const cause = new SyntaxError('bad');
    const e = new ImportError('invalid_json', '$', 'bad').causedBy(cause);
    expect(e.cause).toBe(cause);
    expect(e.message).toBe('Invalid JSON: bad (at $)');
  });
});

describe('SkeinError', () => {
  it('derives its message from the code and details', () => {
    const e = new SkeinError('invalid_option', 'width', 'a positive number', '-1');
    expect(e.name).toBe('SkeinError');
    expect(e.message).toBe('Option "width" must be a positive number, got -1');
  });
});

describe('makeDiagnostic', () => {
  it('builds the message from the catalogue', () => {
    expect(makeDiagnostic('warning', '$[2]', 'unknown_event_kind', 'foo')).toEqual({
      code: 'unknown_event_kind',
      severity: 'warning',
      path: '$[2]',
      message: 'Unknown event kind "foo"; kept as is',
    });
  });
});

describe('LiveError', () => {
  it('is a SkeinError whose message and status come from the code and details', () => {
    const e = new LiveError('live_http_status', 403, 'forbidden');
    expect(e).toBeInstanceOf(SkeinError);
    expect(e.name).toBe('LiveError');
    expect(e.code).toBe('live_http_status');
    expect(e.status).toBe(403);
    expect(e.message).toBe('The live server answered HTTP 403: forbidden');
    expect(new LiveError('live_gap', '4', '6').status).toBeUndefined();
  });
});
