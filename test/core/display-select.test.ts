// Renderer choice (issue 5; STYLE.md §8): a pure function of bundle, registry
// and trust, with JupyterLab's preferredMimeType semantics.
import { describe, expect, it } from 'vitest';
import { createMimeRegistry, selectMimeType } from '../../src/index.js';
import type { MimeRegistry, RendererInfo } from '../../src/index.js';

// JupyterLab's default ranks (research/formats.md §6.3), with our safety flags:
// html and svg only through a sandboxed or sanitizing renderer → unsafe here.
const jupyterDefaults: RendererInfo[] = [
  { mimeTypes: ['text/html'], rank: 50, safe: false },
  { mimeTypes: ['text/markdown'], rank: 60, safe: true },
  { mimeTypes: ['text/latex'], rank: 70, safe: true },
  { mimeTypes: ['image/svg+xml'], rank: 80, safe: false },
  {
    mimeTypes: ['image/bmp', 'image/png', 'image/jpeg', 'image/gif', 'image/webp'],
    rank: 90,
    safe: true,
  },
  { mimeTypes: ['text/javascript', 'application/javascript'], rank: 110, safe: false },
  {
    mimeTypes: ['text/plain', 'application/vnd.jupyter.stdout', 'application/vnd.jupyter.stderr'],
    rank: 120,
    safe: true,
  },
];

function registryOf(infos: RendererInfo[]): MimeRegistry {
  const registry = createMimeRegistry();
  for (const info of infos) registry.add(info);
  return registry;
}

const bundle = (...mimes: string[]) => ({ data: Object.fromEntries(mimes.map((m) => [m, 'x'])) });

describe('selectMimeType', () => {
  const registry = registryOf(jupyterDefaults);

  it.each<[string, string[], 'trusted' | 'untrusted' | undefined, string | undefined]>([
    [
      'lowest rank wins when trusted',
      ['text/plain', 'text/html', 'text/markdown'],
      'trusted',
      'text/html',
    ],
    [
      'untrusted skips unsafe renderers',
      ['text/plain', 'text/html', 'text/markdown'],
      'untrusted',
      'text/markdown',
    ],
    ['untrusted is the default', ['text/plain', 'text/html'], undefined, 'text/plain'],
    ['untrusted SVG shows the text', ['image/svg+xml', 'text/plain'], 'untrusted', 'text/plain'],
    ['trusted SVG shows the SVG', ['image/svg+xml', 'text/plain'], 'trusted', 'image/svg+xml'],
    ['JavaScript never runs untrusted', ['application/javascript'], 'untrusted', undefined],
    ['images beat text', ['text/plain', 'image/png'], 'untrusted', 'image/png'],
    [
      'an unregistered type is ignored',
      ['application/x-unknown', 'text/plain'],
      'trusted',
      'text/plain',
    ],
    ['nothing renderable', ['application/x-unknown'], 'trusted', undefined],
    ['an empty bundle', [], 'trusted', undefined],
  ])('%s', (_name, mimes, trust, expected) => {
    expect(selectMimeType(bundle(...mimes), registry, trust ? { trust } : {})).toBe(expected);
  });

  it('safe: "prefer" tries safe renderers first, then unsafe ones', () => {
    expect(selectMimeType(bundle('text/html', 'text/plain'), registry, { safe: 'prefer' })).toBe(
      'text/plain',
    );
    expect(selectMimeType(bundle('text/html'), registry, { safe: 'prefer' })).toBe('text/html');
  });

  it('a null or undefined representation does not count', () => {
    expect(selectMimeType({ data: { 'text/markdown': null, 'text/plain': 'x' } }, registry)).toBe(
      'text/plain',
    );
    expect(
      selectMimeType({ data: { 'text/markdown': undefined, 'text/plain': 'x' } }, registry),
    ).toBe('text/plain');
  });

  it('inherited keys do not count', () => {
    const data = Object.create({ 'text/markdown': 'inherited' }) as Record<string, unknown>;
    data['text/plain'] = 'own';
    expect(selectMimeType({ data }, registry)).toBe('text/plain');
  });

  it('accepts a plain list of renderer infos', () => {
    expect(
      selectMimeType(bundle('text/html', 'text/plain'), jupyterDefaults, { trust: 'trusted' }),
    ).toBe('text/html');
  });

  it('ties on rank go to the earlier registration', () => {
    const infos: RendererInfo[] = [
      { mimeTypes: ['application/json'], rank: 100, safe: true },
      { mimeTypes: ['text/x-diff'], rank: 100, safe: true },
    ];
    expect(selectMimeType(bundle('text/x-diff', 'application/json'), registryOf(infos))).toBe(
      'application/json',
    );
    expect(selectMimeType(bundle('text/x-diff', 'application/json'), [...infos].reverse())).toBe(
      'text/x-diff',
    );
  });

  it('is pure: same inputs, same answer, input untouched', () => {
    const b = Object.freeze({ data: Object.freeze({ 'text/html': '<b>', 'text/plain': 'b' }) });
    const first = selectMimeType(b, registry, { trust: 'trusted' });
    expect(selectMimeType(b, registry, { trust: 'trusted' })).toBe(first);
  });
});

describe('createMimeRegistry', () => {
  it('orders MIME types by rank', () => {
    expect(registryOf(jupyterDefaults).mimeTypes().slice(0, 3)).toEqual([
      'text/html',
      'text/markdown',
      'text/latex',
    ]);
  });

  it('the latest added renderer of a type wins; removing it brings the previous one back', () => {
    const registry = registryOf(jupyterDefaults);
    const remove = registry.add({
      mimeTypes: ['text/html'],
      rank: 200,
      safe: true,
      name: 'sandboxed-html',
    });
    expect(registry.get('text/html')?.name).toBe('sandboxed-html');
    // Now safe but ranked after text/plain (200 > 120).
    expect(selectMimeType(bundle('text/html'), registry)).toBe('text/html');
    expect(selectMimeType(bundle('text/html', 'text/plain'), registry)).toBe('text/plain');
    remove();
    expect(registry.get('text/html')?.safe).toBe(false);
    expect(selectMimeType(bundle('text/html'), registry)).toBeUndefined();
    expect(selectMimeType(bundle('text/html', 'text/plain'), registry, { trust: 'trusted' })).toBe(
      'text/html',
    );
  });

  it('carries an opaque renderer payload for the UI layer', () => {
    const registry = createMimeRegistry<(text: string) => string>();
    registry.add({
      mimeTypes: ['text/plain'],
      rank: 120,
      safe: true,
      renderer: (t) => t.toUpperCase(),
    });
    expect(registry.get('text/plain')?.renderer?.('hi')).toBe('HI');
  });

  it('is an external store: same snapshot until a change, listeners called on change', () => {
    const registry = createMimeRegistry();
    const before = registry.getSnapshot();
    expect(registry.getSnapshot()).toBe(before);
    let calls = 0;
    const unsubscribe = registry.subscribe(() => calls++);
    const remove = registry.add({ mimeTypes: ['text/plain'], rank: 1, safe: true });
    expect(registry.getSnapshot()).not.toBe(before);
    expect(registry.getSnapshot()).toHaveLength(1);
    const types = registry.mimeTypes();
    expect(registry.mimeTypes()).toBe(types);
    remove();
    remove(); // a second call is a no-op
    unsubscribe();
    registry.add({ mimeTypes: ['text/html'], rank: 1, safe: true });
    expect(calls).toBe(2);
  });

  it('entries are frozen copies of what was added', () => {
    const registry = createMimeRegistry();
    const mimeTypes = ['text/plain'];
    registry.add({ mimeTypes, rank: 1, safe: true });
    mimeTypes.push('text/html');
    expect(registry.getSnapshot()[0]?.mimeTypes).toEqual(['text/plain']);
    expect(Object.isFrozen(registry.getSnapshot()[0])).toBe(true);
  });
});
