// The representation cascade (issue 5, "Core"): the display symbol, IPython's
// names, serialized Jupyter outputs, shape summaries and primitives.
import { displayNotes } from '../../src/core/display/display-of.js';
import { describe, expect, it } from 'vitest';
import { DISPLAY, displayOf } from '../../src/index.js';

const skein = displayNotes;
const text = (value: unknown, options = {}) => displayOf(value, options).data['text/plain'];

describe('displayOf: cascade order', () => {
  const everything = {
    [DISPLAY]: () => ({ data: { 'text/plain': 'from symbol' } }),
    _repr_markdown_: () => 'from ipython',
    output_type: 'display_data',
    data: { 'text/plain': 'from jupyter' },
  };

  it('1. the display symbol wins over everything', () => {
    const b = displayOf(everything);
    expect(b.data).toEqual({ 'text/plain': 'from symbol' });
    expect(skein(b).source).toBe('symbol');
  });

  it('2. IPython names win over a shape summary', () => {
    const { [DISPLAY]: _, ...rest } = everything;
    expect(displayOf(rest).data['text/markdown']).toBe('from ipython');
    expect(skein(displayOf(rest)).source).toBe('ipython');
  });

  it('2. serialized outputs win over a shape summary', () => {
    const b = displayOf({ output_type: 'display_data', data: { 'text/plain': 'x' }, metadata: {} });
    expect(b.data).toEqual({ 'text/plain': 'x' });
    expect(skein(b).source).toBe('jupyter');
  });

  it('3. containers get a shape summary', () => {
    expect(skein(displayOf([1])).source).toBe('shape');
  });

  it('4. primitives become text/plain', () => {
    const b = displayOf('hi');
    expect(b.data).toEqual({ 'text/plain': 'hi' });
    expect(skein(b).source).toBe('primitive');
  });
});

describe('displayOf: the display symbol', () => {
  it('is Symbol.for("skein.display")', () => expect(DISPLAY).toBe(Symbol.for('skein.display')));

  it('accepts a full bundle with metadata', () => {
    const b = displayOf({
      [DISPLAY]: () => ({ data: { 'image/png': 'iVBO' }, metadata: { 'image/png': { width: 4 } } }),
    });
    expect(b.data).toEqual({ 'image/png': 'iVBO' });
    expect(b.metadata?.['image/png']).toEqual({ width: 4 });
  });

  it('accepts bare data', () => {
    expect(displayOf({ [DISPLAY]: () => ({ 'text/markdown': '**x**' }) }).data).toEqual({
      'text/markdown': '**x**',
    });
  });

  it('passes the options to the method', () => {
    let seen: unknown;
    displayOf({ [DISPLAY]: (o: unknown) => ((seen = o), { 'text/plain': '' }) }, { maxItems: 3 });
    expect(seen).toEqual({ maxItems: 3 });
  });

  it('works on class instances', () => {
    class Table {
      [DISPLAY]() {
        return { data: { 'text/markdown': '| a |\n|---|\n| 1 |' } };
      }
    }
    expect(displayOf(new Table()).data['text/markdown']).toBe('| a |\n|---|\n| 1 |');
  });

  it('falls through when the method throws, and says so', () => {
    const b = displayOf({
      [DISPLAY]: () => {
        throw new TypeError('boom');
      },
      a: 1,
    });
    expect(skein(b).source).toBe('shape');
    expect(skein(b).errors).toEqual(['[DISPLAY]: TypeError: boom']);
  });

  it('falls through when the method returns no bundle', () => {
    const b = displayOf({ [DISPLAY]: () => 42 });
    expect(skein(b).errors).toEqual(['[DISPLAY]: returned no MIME bundle']);
    expect(skein(b).source).toBe('shape');
  });

  it('falls through to IPython names', () => {
    const b = displayOf({ [DISPLAY]: () => null, _repr_html_: () => '<b>x</b>' });
    expect(b.data['text/html']).toBe('<b>x</b>');
    expect(skein(b).source).toBe('ipython');
  });
});

describe('displayOf: IPython names', () => {
  it.each([
    ['_repr_markdown_', 'text/markdown', '# hi'],
    ['_repr_html_', 'text/html', '<p>hi</p>'],
    ['_repr_png_', 'image/png', 'iVBORw0KGgo='],
    ['_repr_jpeg_', 'image/jpeg', '/9j/4AAQ'],
    ['_repr_svg_', 'image/svg+xml', '<svg></svg>'],
    ['_repr_json_', 'application/json', { a: [1, 2] }],
    ['_repr_latex_', 'text/latex', '$x^2$'],
  ])('%s fills %s', (name, mime, value) => {
    const b = displayOf({ [name]: () => value });
    expect(b.data[mime]).toEqual(value);
    expect(skein(b).source).toBe('ipython');
  });

  it('_repr_mimebundle_ returns data', () => {
    const b = displayOf({
      _repr_mimebundle_: () => ({ 'text/plain': 'p', 'text/html': '<i>h</i>' }),
    });
    expect(b.data).toEqual({ 'text/plain': 'p', 'text/html': '<i>h</i>' });
  });

  it('_repr_mimebundle_ returns a (data, metadata) tuple', () => {
    const b = displayOf({
      _repr_mimebundle_: () => [{ 'image/png': 'AA==' }, { 'image/png': { width: 9 } }],
    });
    expect(b.data['image/png']).toBe('AA==');
    expect(b.metadata?.['image/png']).toEqual({ width: 9 });
  });

  it('_repr_mimebundle_ entries win over single-type methods, which fill the gaps', () => {
    const b = displayOf({
      _repr_mimebundle_: () => ({ 'text/html': 'bundle' }),
      _repr_html_: () => 'method',
      _repr_markdown_: () => 'md',
    });
    expect(b.data['text/html']).toBe('bundle');
    expect(b.data['text/markdown']).toBe('md');
  });

  it('a _repr_*_ may return (data, metadata)', () => {
    const b = displayOf({ _repr_png_: () => ['AA==', { width: 3 }] });
    expect(b.data['image/png']).toBe('AA==');
    expect(b.metadata?.['image/png']).toEqual({ width: 3 });
  });

  it('encodes bytes from _repr_png_ as base64', () => {
    const b = displayOf({ _repr_png_: () => new Uint8Array([137, 80, 78, 71, 13]) });
    expect(b.data['image/png']).toBe('iVBORw0=');
  });

  it('markdown leads the bundle (preferred for the agent’s own context)', () => {
    const b = displayOf({ _repr_html_: () => '<b>x</b>', _repr_markdown_: () => '**x**' });
    expect(Object.keys(b.data)[0]).toBe('text/markdown');
  });

  it('adds a text/plain fallback naming the object, as IPython adds repr()', () => {
    class DataFrame {
      _repr_html_() {
        return '<table></table>';
      }
    }
    expect(text(new DataFrame())).toBe('DataFrame {…}');
  });

  it('keeps a text/plain the object gives', () => {
    expect(text({ _repr_mimebundle_: () => ({ 'text/plain': 'mine' }) })).toBe('mine');
  });

  it('a method returning None (null) adds nothing', () => {
    const b = displayOf({ _repr_html_: () => null, _repr_markdown_: () => 'md' });
    expect(b.data['text/html']).toBeUndefined();
  });

  it('a throwing method is skipped and reported; the others still count', () => {
    const b = displayOf({
      _repr_html_: () => {
        throw new Error('no html');
      },
      _repr_markdown_: () => 'md',
    });
    expect(b.data['text/markdown']).toBe('md');
    expect(skein(b).errors).toEqual(['_repr_html_: Error: no html']);
  });

  it('when every method throws, falls through to the shape summary', () => {
    const b = displayOf({
      _repr_html_: () => {
        throw new Error('a');
      },
      _repr_mimebundle_: () => {
        throw 'b';
      },
    });
    expect(skein(b).source).toBe('shape');
    expect(skein(b).errors).toEqual(['_repr_html_: Error: a', '_repr_mimebundle_: b']);
  });
});

describe('displayOf: serialized Jupyter outputs', () => {
  it('display_data keeps data and metadata', () => {
    const b = displayOf({
      output_type: 'display_data',
      data: { 'image/png': 'iVBO', 'text/plain': '<Figure>' },
      metadata: { 'image/png': { width: 400 } },
    });
    expect(b.data).toEqual({ 'image/png': 'iVBO', 'text/plain': '<Figure>' });
    expect(b.metadata?.['image/png']).toEqual({ width: 400 });
  });

  it('execute_result keeps its execution count', () => {
    const b = displayOf({
      output_type: 'execute_result',
      execution_count: 3,
      data: { 'text/plain': '42' },
      metadata: {},
    });
    expect(b.data).toEqual({ 'text/plain': '42' });
    expect(skein(b).execution_count).toBe(3);
  });

  it('joins multiline strings (lists of lines), but not JSON values', () => {
    const b = displayOf({
      output_type: 'display_data',
      data: { 'text/html': ['<b>', 'x', '</b>'], 'application/json': ['a', 'b'] },
      metadata: {},
    });
    expect(b.data['text/html']).toBe('<b>x</b>');
    expect(b.data['application/json']).toEqual(['a', 'b']);
  });

  it('stream becomes text/plain and names the stream', () => {
    const b = displayOf({ output_type: 'stream', name: 'stderr', text: ['warn\n', 'again\n'] });
    expect(b.data).toEqual({ 'text/plain': 'warn\nagain\n' });
    expect(skein(b).stream).toBe('stderr');
  });

  it('error keeps its ANSI traceback', () => {
    const traceback = [
      '\u001b[0;31mValueError\u001b[0m Traceback',
      '\u001b[0;31mValueError\u001b[0m: bad',
    ];
    const b = displayOf({ output_type: 'error', ename: 'ValueError', evalue: 'bad', traceback });
    expect(b.data['text/plain']).toBe(traceback.join('\n'));
    expect(skein(b).error).toEqual({ ename: 'ValueError', evalue: 'bad' });
  });

  it('error without traceback says ename: evalue', () => {
    expect(text({ output_type: 'error', ename: 'KeyError', evalue: "'x'", traceback: [] })).toBe(
      "KeyError: 'x'",
    );
  });

  it('a bare {data, metadata} bundle', () => {
    expect(displayOf({ data: { 'text/markdown': '*m*' }, metadata: {} }).data).toEqual({
      'text/markdown': '*m*',
    });
  });

  it('a bare MIME-keyed object (agex DisplayDataPart)', () => {
    const b = displayOf({ 'text/plain': 'df', 'text/html': '<table/>' });
    expect(b.data).toEqual({ 'text/plain': 'df', 'text/html': '<table/>' });
    expect(skein(b).source).toBe('jupyter');
  });

  it('{data: …} whose keys are not MIME types is ordinary data', () => {
    expect(skein(displayOf({ data: { rows: [1] } })).source).toBe('shape');
  });

  it('an unknown output_type is summarized, not dropped', () => {
    expect(text({ output_type: 'widget', model_id: 'x' })).toBe(
      '{output_type: string, model_id: string}\n{output_type: "widget", model_id: "x"}',
    );
  });
});

describe('displayOf: shape summaries (exact)', () => {
  it.each<[string, unknown, string]>([
    ['numbers', [1, 2, 3], 'Array(3) of number\n[1, 2, 3]'],
    ['empty array', [], 'Array(0)'],
    [
      'records',
      [
        { id: 1, name: 'a' },
        { id: 2, name: 'b' },
      ],
      'Array(2) of {id: number, name: string}\n[{id: 1, name: "a"}, {id: 2, name: "b"}]',
    ],
    [
      'optional keys and unions',
      [{ id: 1, note: 'a' }, { id: 2 }, null],
      'Array(3) of {id: number, note?: string} | null\n[{id: 1, note: "a"}, {id: 2}, null]',
    ],
    ['nested arrays', [[1, 2], [3]], 'Array(2) of number[]\n[[1, 2], [3]]'],
    [
      'mixed element types',
      [1, 'a', true],
      'Array(3) of number | string | boolean\n[1, "a", true]',
    ],
    ['sparse arrays', new Array(3), 'Array(3) of empty\n[<empty>, <empty>, <empty>]'],
    [
      'plain object',
      { a: 1, b: 'x', c: [1, 2] },
      '{a: number, b: string, c: number[]}\n{a: 1, b: "x", c: [1, 2]}',
    ],
    [
      'depth limit (preview equal to the shape is not repeated)',
      { a: { b: { c: { d: 1 } } } },
      '{a: {b: {…}}}',
    ],
    ['non-identifier keys', { 'x-y': 1 }, '{"x-y": number}\n{"x-y": 1}'],
    [
      'Map',
      new Map([
        ['a', 1],
        ['b', 2],
      ]),
      'Map(2) of string => number\nMap(2) {"a" => 1, "b" => 2}',
    ],
    ['Set', new Set([1, 'a']), 'Set(2) of number | string\nSet(2) {1, "a"}'],
    ['empty Map', new Map(), 'Map(0)\nMap(0) {}'],
    ['typed array', new Uint8Array([1, 2, 3]), 'Uint8Array(3)\n[1, 2, 3]'],
    ['ArrayBuffer', new ArrayBuffer(16), 'ArrayBuffer(16 bytes)'],
    ['Date', new Date(0), 'Date 1970-01-01T00:00:00.000Z'],
    ['invalid Date', new Date(Number.NaN), 'Date Invalid Date'],
    ['RegExp', /ab+c/gi, 'RegExp /ab+c/gi'],
    [
      'BigInt, Symbol, undefined, -0 inside',
      [10n, Symbol('s'), undefined, -0],
      'Array(4) of bigint | symbol | undefined | number\n[10n, Symbol(s), undefined, -0]',
    ],
    ['functions inside', { f: function named() {} }, '{f: function}\n{f: [Function named]}'],
    [
      'Dates and RegExps inside',
      { d: new Date(0), r: /x/ },
      '{d: Date, r: RegExp}\n{d: 1970-01-01T00:00:00.000Z, r: /x/}',
    ],
    ['Map inside', { m: new Map([[1, 'a']]) }, '{m: Map<number, string>}\n{m: Map(1) {1 => "a"}}'],
    [
      'null prototype',
      Object.assign(Object.create(null) as object, { a: 1 }),
      '{a: number}\n{a: 1}',
    ],
    ['empty object', {}, '{}'],
    ['boxed primitive', { n: Object(1) as object }, '{n: Number}'],
  ])('%s', (_name, value, expected) => expect(text(value)).toBe(expected));

  it('class instances are named', () => {
    class Point {
      constructor(
        public x: number,
        public y: number,
      ) {}
    }
    expect(text(new Point(1, 2))).toBe('Point {x: number, y: number}\nPoint {x: 1, y: 2}');
    expect(text([new Point(1, 2)])).toBe(
      'Array(1) of Point {x: number, y: number}\n[Point {x: 1, y: 2}]',
    );
  });

  it('a long array shows head and tail and how many are hidden', () => {
    const rows = Array.from({ length: 10000 }, (_, id) => ({ id, name: `n${id}` }));
    const lines = String(text(rows, { maxItems: 4 })).split('\n');
    expect(lines[0]).toBe('Array(10000) of {id: number, name: string}');
    expect(lines[1]).toBe(
      '[{id: 0, name: "n0"}, {id: 1, name: "n1"}, … 9996 more, {id: 9998, name: "n9998"}, {id: 9999, name: "n9999"}]',
    );
  });

  it('long strings inside are cut and their length is given', () => {
    expect(text(['x'.repeat(100)], { maxStringLength: 5 })).toBe(
      'Array(1) of string\n["xxxxx"…(100 chars)]',
    );
  });

  it('wide objects list the first keys and count the rest', () => {
    const wide = Object.fromEntries(Array.from({ length: 30 }, (_, i) => [`k${i}`, i]));
    expect(text(wide, { maxItems: 2 })).toBe(
      '{k0: number, k1: number, … +28}\n{k0: 0, k1: 1, … 28 more}',
    );
  });

  it('Errors show name, message and a bounded stack', () => {
    const e = new TypeError('boom');
    const lines = String(text(e)).split('\n');
    expect(lines[0]).toBe('TypeError: boom');
    expect(lines.length).toBeLessThanOrEqual(1 + 12 + 1);
    expect(lines.slice(1).every((l) => l.includes('at ') || l.includes('more frames'))).toBe(true);
  });

  it('an Error’s cause is shown', () => {
    const e = new Error('outer', { cause: new Error('inner') });
    expect(text(e)).toContain('cause: Error: inner');
  });

  it('functions and classes are named, never printed as source', () => {
    expect(text(function doIt() {})).toBe('[Function doIt]');
    expect(text(class Foo {})).toBe('[class Foo]');
  });

  it('marks truncated summaries in metadata', () => {
    expect(skein(displayOf(Array.from({ length: 50 }, (_, i) => i))).truncated).toBe(true);
    expect(skein(displayOf([1, 2])).truncated).toBeUndefined();
  });

  it('adds a fenced markdown rendering unless preferMarkdown is false', () => {
    expect(displayOf([1]).data['text/markdown']).toBe('```text\nArray(1) of number\n[1]\n```');
    expect(displayOf([1], { preferMarkdown: false }).data['text/markdown']).toBeUndefined();
  });

  it('the markdown fence is longer than any backtick run inside', () => {
    expect(displayOf(['````']).data['text/markdown']).toBe(
      '`````text\nArray(1) of string\n["````"]\n`````',
    );
  });
});

describe('displayOf: cycles and hostile objects', () => {
  it('a self-reference prints [Circular]', () => {
    const a: Record<string, unknown> = { name: 'x' };
    a.self = a;
    expect(text(a)).toBe('{name: string, self: [Circular]}\n{name: "x", self: [Circular]}');
  });

  it('a cycle through an array prints [Circular]', () => {
    const list: unknown[] = [1];
    list.push(list);
    expect(text(list)).toBe('Array(2) of number | [Circular]\n[1, [Circular]]');
  });

  it('a shared, non-cyclic reference is shown twice, not as [Circular]', () => {
    const shared = { v: 1 };
    expect(text({ a: shared, b: shared })).toBe(
      '{a: {v: number}, b: {v: number}}\n{a: {v: 1}, b: {v: 1}}',
    );
  });

  it('a Map containing itself', () => {
    const m = new Map<string, unknown>();
    m.set('me', m);
    expect(text(m)).toBe('Map(1) of string => [Circular]\nMap(1) {"me" => [Circular]}');
  });

  it('a throwing getter', () => {
    const o = {
      get bad(): number {
        throw new Error('no');
      },
      ok: 1,
    };
    expect(text(o)).toBe('{bad: unknown, ok: number}\n{bad: <getter threw>, ok: 1}');
  });

  it('a Proxy whose every trap throws', () => {
    const hostile = new Proxy(
      {},
      {
        get() {
          throw new Error('get');
        },
        ownKeys() {
          throw new Error('keys');
        },
        getPrototypeOf() {
          throw new Error('proto');
        },
        has() {
          throw new Error('has');
        },
      },
    );
    expect(() => displayOf(hostile)).not.toThrow();
    expect(typeof text(hostile)).toBe('string');
  });
});

describe('displayOf: bounds on huge inputs', () => {
  it('a 1M-element array: bounded output, a bounded number of reads (sampled, not scanned)', () => {
    const items = Array.from({ length: 1_000_000 }, (_, i) => ({
      id: i,
      name: `row ${i}`,
      tags: ['a', 'b'],
    }));
    // Count element reads instead of timing the call: a timed assertion fails
    // on a loaded machine, a scan of 1M elements reads 1M of them.
    let reads = 0;
    const big = new Proxy(items, {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads++;
        return Reflect.get(target, key, receiver) as unknown;
      },
    });
    const out = String(text(big));
    expect(out.split('\n')[0]).toBe('Array(1000000) of {id: number, name: string, tags: string[]}');
    expect(out.length).toBeLessThan(2100);
    expect(reads).toBeGreaterThan(0);
    expect(reads).toBeLessThan(1000);
  });

  it('the sample finds element shapes at both ends', () => {
    const big: unknown[] = Array.from({ length: 100_000 }, (_, i) => i);
    big[big.length - 1] = 'last';
    expect(String(text(big)).split('\n')[0]).toBe('Array(100000) of number | string');
  });

  it('deep nesting stops at maxDepth', () => {
    let deep: Record<string, unknown> = { leaf: 1 };
    for (let i = 0; i < 10_000; i++) deep = { next: deep };
    expect(String(text(deep)).length).toBeLessThan(200);
  });

  it('wide and deep: the whole text stays under maxLength', () => {
    const wide = Array.from({ length: 1000 }, () =>
      Object.fromEntries(Array.from({ length: 100 }, (_, i) => [`key_${i}`, 'v'.repeat(200)])),
    );
    const out = String(
      text(wide, { maxItems: 50, maxDepth: 5, maxStringLength: 1000, maxLength: 3000 }),
    );
    expect(out.length).toBeLessThan(3100);
    expect(out).toMatch(/more chars\)$/);
  });

  it('a 100k-key object', () => {
    const o: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) o[`k${i}`] = i;
    const out = String(text(o));
    expect(out).toContain('… +99990}');
    expect(out).toContain('… 99990 more}');
    expect(out.length).toBeLessThan(2100);
  });

  it('a 100k-entry Map reads only its head', () => {
    const m = new Map(Array.from({ length: 100_000 }, (_, i) => [i, String(i)] as const));
    expect(text(m)).toBe(
      'Map(100000) of number => string\nMap(100000) {0 => "0", 1 => "1", 2 => "2", 3 => "3", 4 => "4", 5 => "5", 6 => "6", 7 => "7", 8 => "8", 9 => "9", … 99990 more}',
    );
  });

  it('a 1M Float64Array', () => {
    expect(text(new Float64Array(1_000_000))).toBe(
      'Float64Array(1000000)\n[0, 0, 0, 0, 0, … 999990 more, 0, 0, 0, 0, 0]',
    );
  });
});

describe('displayOf: primitives', () => {
  it.each<[unknown, string]>([
    ['text', 'text'],
    [42, '42'],
    [-0, '-0'],
    [Number.NaN, 'NaN'],
    [Infinity, 'Infinity'],
    [true, 'true'],
    [null, 'null'],
    [undefined, 'undefined'],
    [12345678901234567890n, '12345678901234567890n'],
    [Symbol('tag'), 'Symbol(tag)'],
  ])('%s', (value, expected) => expect(displayOf(value).data).toEqual({ 'text/plain': expected }));

  it('strings are shown in full (renderers apply their own budget)', () => {
    expect(text('x'.repeat(100_000))).toHaveLength(100_000);
  });
});

describe('displayNotes', () => {
  it("reads skein's notes typed, and {} for a bundle without them or with foreign ones", () => {
    expect(displayNotes(displayOf([1, 2])).source).toBe('shape');
    expect(displayNotes({ data: { 'text/plain': 'x' } })).toEqual({});
    expect(displayNotes({ data: {}, metadata: { skein: 'not notes' } })).toEqual({});
    expect(displayNotes({ data: {}, metadata: { skein: [1] } })).toEqual({});
    expect(displayNotes({ data: {}, metadata: { skein: { label: 'Input' } } }).label).toBe('Input');
  });
});
