import { render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { cleanup } from '@testing-library/react';
import { Display, SkeinTheme, preloadDisplay, type MimeBundle } from '../../src/react.js';
import { CHECKER_PNG, HOSTILE_SVG, longMarkdown } from '../../stories/display-fixtures.js';
import '../../src/styles.css';

// The renderers themselves, loaded up front (they load on first use otherwise;
// test/react/display-lazy.test.tsx checks that).
beforeAll(() => preloadDisplay());
afterEach(() => cleanup());

const b = (data: Record<string, unknown>, metadata?: Record<string, unknown>): MimeBundle => ({
  data,
  metadata,
});

const loaded = (img: HTMLImageElement) =>
  img.complete && img.naturalWidth > 0
    ? Promise.resolve()
    : new Promise<void>((resolve, reject) => {
        img.addEventListener('load', () => resolve(), { once: true });
        img.addEventListener('error', () => reject(new Error('image failed to load')), {
          once: true,
        });
      });

describe('<Display> in Chromium', () => {
  it('decodes a base64 PNG and an untrusted SVG as real images', async () => {
    const { container } = render(
      <>
        <Display bundle={b({ 'image/png': CHECKER_PNG, 'text/plain': 'checker' })} />
        <Display bundle={b({ 'image/svg+xml': HOSTILE_SVG, 'text/plain': 'logo' })} />
      </>,
    );
    const [png, svg] = [...container.querySelectorAll('img')];
    await loaded(png!);
    await loaded(svg!);
    expect(png!.naturalWidth).toBe(32);
    expect(svg!.naturalWidth).toBe(120);
    // The SVG's onload and <script> never ran: as an image it is inert.
    expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  });

  it('sizes the untrusted HTML frame from metadata and lets the user resize it', async () => {
    const { container } = render(
      <SkeinTheme>
        <Display bundle={b({ 'text/html': '<p>hi</p>' }, { 'text/html': { height: 150 } })} />
      </SkeinTheme>,
    );
    const frame = container.querySelector('iframe')!;
    const box = frame.parentElement!;
    // The box (border included) is the requested height; the frame fills it.
    await expect.poll(() => box.getBoundingClientRect().height).toBe(150);
    expect(frame.getBoundingClientRect().height).toBe(148);
    expect(getComputedStyle(box).resize).toBe('vertical');
    // Opaque origin: the host cannot reach into the frame, nor the frame into the host.
    expect(() => frame.contentWindow!.document).toThrow();
  });

  it('colours ANSI spans through theme variables, differently in light and dark', () => {
    const text = '\u001b[31mred\u001b[0m';
    const { getAllByText } = render(
      <>
        <SkeinTheme theme="light">
          <Display bundle={b({ 'text/plain': text })} />
        </SkeinTheme>
        <SkeinTheme theme="dark">
          <Display bundle={b({ 'text/plain': text })} />
        </SkeinTheme>
      </>,
    );
    const [light, dark] = getAllByText('red');
    expect(getComputedStyle(light!).color).toBe('rgb(179, 29, 40)');
    expect(getComputedStyle(dark!).color).toBe('rgb(255, 123, 114)');
  });

  it('operates the JSON tree by keyboard with a visible focus ring', async () => {
    const { getByRole } = render(
      <SkeinTheme theme="light">
        <Display bundle={b({ 'application/json': { a: { b: 1 }, c: [1, 2, 3] } })} />
      </SkeinTheme>,
    );
    await userEvent.keyboard('{Tab}');
    const root = getByRole('button', { name: '{2 keys}' });
    expect(document.activeElement).toBe(root);
    await userEvent.keyboard('{Tab}');
    const a = getByRole('button', { name: 'a: {1 key}' });
    expect(document.activeElement).toBe(a);
    expect(getComputedStyle(a).outlineStyle).toBe('solid');
    await userEvent.keyboard('{Enter}');
    expect(a.getAttribute('aria-expanded')).toBe('true');
    expect(getByRole('list', { name: 'JSON value' }).textContent).toContain('b: 1');
    await userEvent.keyboard(' ');
    expect(a.getAttribute('aria-expanded')).toBe('false');
  });

  it('renders 100k characters of markdown to the end, in chunks', { timeout: 30_000 }, async () => {
    const text = longMarkdown(100_000);
    const last = [...text.matchAll(/^## (.*)$/gm)].at(-1)![1]!;
    const { container } = render(<Display bundle={b({ 'text/markdown': text })} />);
    // The first paint already has content, before the rest is parsed.
    expect(container.querySelector('.skein-md')!.textContent!.length).toBeGreaterThan(100);
    expect(container.querySelector('[data-skein-pending]')).not.toBeNull();
    await expect
      .poll(() => container.querySelector('[data-skein-pending]'), { timeout: 15_000 })
      .toBeNull();
    expect(container.textContent).toContain(last);
    expect(container.querySelectorAll('table').length).toBeGreaterThan(50);
  });

  it('keeps long lines inside a scrollable, focusable box', () => {
    const { container } = render(
      <div style={{ width: 300 }}>
        <Display bundle={b({ 'text/x-diff': `@@ -1 +1 @@\n+${'x'.repeat(2000)}` })} />
      </div>,
    );
    const pre = container.querySelector('pre')!;
    expect(pre.scrollWidth).toBeGreaterThan(pre.clientWidth);
    expect(pre.getBoundingClientRect().width).toBeLessThanOrEqual(300);
    expect(pre.tabIndex).toBe(0);
  });
});
