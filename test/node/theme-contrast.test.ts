// Every text colour of skein/styles.css is readable (WCAG AA, 4.5:1) on every
// background it is drawn on, in both themes: a token changed for one view
// (a selected row's background) must not make another view's text fail. axe
// checks what the stories happen to show; this checks every pair.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const css = readFileSync(new URL('../../src/styles.css', import.meta.url), 'utf8');

/** `--skein-<name>: light-dark(#light, #dark)` declarations, by name. */
const tokens = new Map<string, readonly [string, string]>();
for (const m of css.matchAll(
  /--skein-([a-z0-9-]+):\s*light-dark\((#[0-9a-f]{6}),\s*(#[0-9a-f]{6})\)/gi,
))
  tokens.set(m[1]!, [m[2]!, m[3]!]);

/** WCAG 2 relative luminance of `#rrggbb`. */
function luminance(hex: string): number {
  const channel = (i: number) => {
    const c = Number.parseInt(hex.slice(i, i + 2), 16) / 255;
    return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(1) + 0.7152 * channel(3) + 0.0722 * channel(5);
}

function contrast(a: string, b: string): number {
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** Text colours of the views, and where they are drawn. */
const VIEW_TEXT = [
  'fg',
  'fg-muted',
  'accent',
  'ok',
  'error',
  'warning',
  'running',
  'cancelled',
  'kind-model',
  'kind-tool',
  'kind-span',
  'kind-score',
  'kind-error',
  'json-key',
  'json-string',
  'json-number',
  'json-boolean',
];
const VIEW_BACKGROUNDS = ['bg', 'bg-subtle', 'bg-raised', 'selection'];
/** Terminal colours are drawn in code blocks (`--skein-bg-subtle`). */
const ANSI_TEXT = [...tokens.keys()].filter((t) => /^ansi-(bright-)?[a-z]+$/.test(t));

const pairs = [
  ...VIEW_TEXT.flatMap((text) => VIEW_BACKGROUNDS.map((bg) => [text, bg] as const)),
  ...ANSI_TEXT.map((text) => [text, 'bg-subtle'] as const),
];

describe('styles.css colour tokens', () => {
  it('are all found', () => {
    for (const name of [...VIEW_TEXT, ...VIEW_BACKGROUNDS])
      expect(tokens.has(name), `--skein-${name}`).toBe(true);
    expect(ANSI_TEXT.length).toBe(16);
  });

  it.each(['light', 'dark'] as const)('meet 4.5:1 in the %s theme', (theme) => {
    const i = theme === 'light' ? 0 : 1;
    const failing = pairs
      .map(([text, bg]) => {
        const ratio = contrast(tokens.get(text)![i], tokens.get(bg)![i]);
        return { pair: `--skein-${text} on --skein-${bg}`, ratio: Math.round(ratio * 100) / 100 };
      })
      .filter((p) => p.ratio < 4.5);
    expect(failing).toEqual([]);
  });
});
