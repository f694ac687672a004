import { markdownDepth, splitMarkdown } from '../../src/react/display/renderers/markdown.js';
import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import {
  Display,
  DisplayProvider,
  createRendererRegistry,
  defaultRenderers,
  parseUnifiedDiff,
  preloadDisplay,
  safeImageUrl,
  safeLinkUrl,
  type DisplayRenderer,
  type MimeBundle,
} from '../../src/react.js';

const bundle = (data: Record<string, unknown>, metadata?: Record<string, unknown>): MimeBundle => ({
  data,
  metadata,
});

// These tests check what the renderers draw once loaded; the markdown parser
// and the sanitizer load on first use, which display-lazy.test.tsx checks.
beforeAll(() => preloadDisplay());

describe('url policy', () => {
  it.each([
    ['https://example.com/x', 'https://example.com/x'],
    ['HTTP://Example.com', 'http://example.com/'],
    ['mailto:a@example.com', 'mailto:a@example.com'],
  ])('allows %s', (url, expected) => {
    expect(safeLinkUrl(url)).toBe(expected);
  });

  it.each([
    'javascript:alert(1)',
    ' JaVaScRiPt:alert(1)',
    'java\nscript:alert(1)',
    'java\tscript:alert(1)',
    '\u0001javascript:alert(1)',
    'vbscript:msgbox(1)',
    'data:text/html,<script>alert(1)</script>',
    '/relative/path',
    '#fragment',
    '//evil.example/x',
    'https://user:pw@evil.example/',
    'file:///etc/passwd',
  ])('refuses %j', (url) => {
    expect(safeLinkUrl(url)).toBeUndefined();
  });

  it('allows https and raster data images only', () => {
    expect(safeImageUrl('https://example.com/a.png')).toBe('https://example.com/a.png');
    expect(safeImageUrl('http://example.com/a.png')).toBeUndefined();
    expect(safeImageUrl('data:image/png;base64,iVBORw0KGgo=')).toBe(
      'data:image/png;base64,iVBORw0KGgo=',
    );
    expect(safeImageUrl('data:image/svg+xml;base64,PHN2Zz4=')).toBeUndefined();
    expect(safeImageUrl('data:text/html;base64,PHNjcmlwdD4=')).toBeUndefined();
    expect(safeImageUrl(`data:image/png;base64,${'A'.repeat(400)}`, 100)).toBeUndefined();
  });
});

describe('<Display> selection', () => {
  it('prefers markdown over plain text and renders it', () => {
    render(<Display bundle={bundle({ 'text/plain': 'plain', 'text/markdown': '**bold**' })} />);
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    expect(screen.queryByText('plain')).toBeNull();
  });

  it('shows a value through the core cascade', () => {
    const { container } = render(<Display value={42} />);
    expect(container.textContent).toContain('42');
    expect(container.querySelector('[data-mime]')?.getAttribute('data-mime')).toBe('text/plain');
  });

  it('shows an object as its shape summary that opens into the JSON tree', () => {
    const rows = Array.from({ length: 1000 }, (_, id) => ({ id, name: `row ${id}` }));
    const { container } = render(<Display value={rows} />);
    const toggle = screen.getByRole('button', {
      name: /^Array\(1000\) of \{id: number, name: string\}/,
    });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    // Closed: the bounded preview, no tree rows.
    expect(container.querySelector('[data-skein-preview]')?.textContent).toContain('row 0');
    expect(container.querySelector('.skein-json__children')).toBeNull();
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    expect(container.querySelector('[data-skein-preview]')).toBeNull();
    // One page of children, each its own closed node.
    const children = container.querySelectorAll('.skein-json__children > li.skein-json__node');
    expect(children).toHaveLength(100);
    expect(screen.getByRole('button', { name: 'Show 100 more' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: '0: {2 keys}' }));
    expect(container.textContent).toContain('name: "row 0"');
  });

  it('keeps strings as text unless mime says otherwise', () => {
    const { container, rerender } = render(<Display value="**not bold**" />);
    expect(container.querySelector('[data-mime]')?.getAttribute('data-mime')).toBe('text/plain');
    expect(container.textContent).toContain('**not bold**');
    rerender(<Display value="**bold**" mime="text/markdown" />);
    expect(container.querySelector('[data-mime]')?.getAttribute('data-mime')).toBe('text/markdown');
    expect(screen.getByText('bold').tagName).toBe('STRONG');
    // The mime type is taken as given, with the string as text/plain fallback.
    rerender(<Display value="<b>x</b>" mime="text/x-unknown" />);
    expect(container.querySelector('[data-mime]')?.getAttribute('data-mime')).toBe('text/plain');
  });

  it('shows collections, dates and self-describing values without a tree', () => {
    const { container, rerender } = render(<Display value={new Map([['a', 1]])} />);
    expect(container.querySelector('[data-value-tree]')).toBeNull();
    expect(container.textContent).toMatch(/Map\(1\)/);
    rerender(<Display value={{ _repr_markdown_: () => '*own*' }} />);
    expect(container.querySelector('[data-value-tree]')).toBeNull();
    expect(screen.getByText('own').tagName).toBe('EM');
  });

  it('marks a cycle in an opened value instead of recursing', () => {
    const a: Record<string, unknown> = { name: 'a' };
    a['self'] = a;
    render(<Display value={a} />);
    fireEvent.click(screen.getByRole('button', { name: /^\{name: string, self: / }));
    expect(screen.getByText('[Circular]')).toBeTruthy();
  });

  it('says when no renderer fits and when a bundle is empty', () => {
    const { rerender, container } = render(
      <Display bundle={bundle({ 'application/x-nope': 1 })} />,
    );
    expect(container.textContent).toContain('No untrusted renderer for application/x-nope');
    rerender(<Display bundle={{ data: null as never }} />);
    expect(container.textContent).toContain('Empty output');
  });

  it('skips unsafe renderers for untrusted data and uses them when trusted', () => {
    const unsafe: DisplayRenderer = {
      name: 'raw',
      mimeTypes: ['application/x-raw'],
      rank: 1,
      safe: false,
      renderer: () => <span>RAW</span>,
    };
    const b = bundle({ 'application/x-raw': 'x', 'text/plain': 'fallback' });
    const { container, rerender } = render(
      <DisplayProvider renderers={[unsafe]}>
        <Display bundle={b} />
      </DisplayProvider>,
    );
    expect(container.textContent).toContain('fallback');
    rerender(
      <DisplayProvider renderers={[unsafe]}>
        <Display bundle={b} trust="trusted" />
      </DisplayProvider>,
    );
    expect(container.textContent).toContain('RAW');
  });

  it('lets a provider replace a default renderer, and a registry change re-render', () => {
    const registry = createRendererRegistry(defaultRenderers);
    render(
      <DisplayProvider registry={registry}>
        <Display bundle={bundle({ 'text/plain': 'hello' })} />
      </DisplayProvider>,
    );
    expect(screen.getByText('hello')).toBeTruthy();
    act(() => {
      registry.add({
        name: 'shout',
        mimeTypes: ['text/plain'],
        rank: 120,
        safe: true,
        renderer: ({ data }) => <b>{String(data).toUpperCase()}</b>,
      });
    });
    expect(screen.getByText('HELLO').tagName).toBe('B');
  });
});

describe('error boundary', () => {
  it('shows the raw text and the error instead of blanking', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const boom: DisplayRenderer = {
      name: 'boom',
      mimeTypes: ['text/markdown'],
      rank: 1,
      safe: true,
      renderer: () => {
        throw new Error('kaboom');
      },
    };
    const { container } = render(
      <DisplayProvider renderers={[boom]} onError={onError}>
        <Display bundle={bundle({ 'text/markdown': '# raw *source*' })} />
        <Display bundle={bundle({ 'text/plain': 'neighbour survives' })} />
      </DisplayProvider>,
    );
    expect(container.textContent).toContain('Could not render text/markdown: kaboom');
    expect(container.textContent).toContain('# raw *source*');
    expect(container.textContent).toContain('neighbour survives');
    expect(onError).toHaveBeenCalledWith(expect.any(Error), 'text/markdown');
  });

  it('catches malformed data in a default renderer', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const { container } = render(
      <DisplayProvider onError={onError}>
        <Display bundle={bundle({ 'text/markdown': { not: 'text' } })} />
      </DisplayProvider>,
    );
    expect(container.textContent).toContain('text/markdown data must be a string, got object');
    expect(container.textContent).toContain('"not": "text"');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ name: 'SkeinError', code: 'display_not_text' }),
      'text/markdown',
    );
  });
});

describe('budgets', () => {
  it('says what plain text hid and shows all on request', () => {
    const text = 'x'.repeat(2_345_678);
    const { container } = render(
      <DisplayProvider budget={{ chars: 10_000 }}>
        <Display bundle={bundle({ 'text/plain': text })} />
      </DisplayProvider>,
    );
    expect(container.textContent).toContain('Showing 10,000 of 2,345,678 characters.');
    expect(container.querySelector('pre')!.textContent).toHaveLength(10_000);
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(container.querySelector('pre')!.textContent).toHaveLength(2_345_678);
    expect(container.textContent).not.toContain('Showing');
  });

  it('cuts markdown at a block boundary', () => {
    const md = Array.from({ length: 50 }, (_, i) => `Paragraph ${i} ${'word '.repeat(30)}`).join(
      '\n\n',
    );
    const { container } = render(
      <DisplayProvider budget={{ chars: 2_000 }}>
        <Display bundle={bundle({ 'text/markdown': md })} />
      </DisplayProvider>,
    );
    const paragraphs = container.querySelectorAll('.skein-md p:not([role])');
    expect(paragraphs.length).toBeGreaterThan(5);
    expect(paragraphs.length).toBeLessThan(50);
    expect(container.textContent).toMatch(/Showing 1,\d{3} of \d,\d{3} characters/);
  });

  it('shows deeply nested markdown as text', () => {
    const md = `${'> '.repeat(500)}deep`;
    expect(markdownDepth(md)).toBe(500);
    const { container } = render(<Display bundle={bundle({ 'text/markdown': md })} />);
    expect(container.textContent).toContain('Nesting depth 500 exceeds 100: shown as plain text.');
    expect(container.querySelector('blockquote')).toBeNull();
  });

  it.each([
    ['ordered, dot', '1. '],
    ['ordered, paren', '1) '],
    ['ordered, multi-digit', '123456789. '],
    ['ordered, tab', '1.\t'],
    ['bullet, tab', '-\t'],
    ['star, tab', '*\t'],
    ['plus, tab', '+\t'],
  ])('counts %s list markers in the nesting depth', (_name, marker) => {
    expect(markdownDepth(`${marker.repeat(500)}deep`)).toBe(500);
  });

  it('does not count what is not a list marker', () => {
    expect(markdownDepth('1234567890. x')).toBe(0);
    expect(markdownDepth('1.x')).toBe(0);
    expect(markdownDepth('-x')).toBe(0);
    expect(markdownDepth('3. item')).toBe(1);
  });

  it('shows a very deep ordered list as text instead of overflowing the stack', () => {
    const md = `${'1. '.repeat(30_000)}deep`;
    const { container } = render(<Display bundle={bundle({ 'text/markdown': md })} />);
    expect(container.textContent).toContain(
      'Nesting depth 30,000 exceeds 100: shown as plain text.',
    );
    expect(container.querySelector('ol')).toBeNull();
  });

  it('hides trusted SVG over the byte budget until asked', () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg"><desc>${'x'.repeat(4_000)}</desc><circle r="4"/></svg>`;
    const { container } = render(
      <DisplayProvider budget={{ bytes: 1_000 }}>
        <Display bundle={bundle({ 'image/svg+xml': svg })} trust="trusted" />
      </DisplayProvider>,
    );
    expect(container.querySelector('svg')).toBeNull();
    expect(container.textContent).toMatch(/Image hidden: .* is over the 1\.0 kB limit\./);
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(container.querySelector('svg circle')).not.toBeNull();
  });

  it('hides an image over the byte budget until asked', () => {
    const png = 'A'.repeat(4_000);
    const { container } = render(
      <DisplayProvider budget={{ bytes: 1_000 }}>
        <Display bundle={bundle({ 'image/png': png, 'text/plain': 'a chart' })} />
      </DisplayProvider>,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('Image hidden: 3.0 kB is over the 1.0 kB limit.');
    fireEvent.click(screen.getByRole('button', { name: 'Show all' }));
    expect(container.querySelector('img')!.getAttribute('alt')).toBe('a chart');
  });
});

describe('markdown renderer', () => {
  it('renders GFM tables, strikethrough and task lists', () => {
    const md = '| a | b |\n|---|---|\n| 1 | 2 |\n\n~~gone~~\n\n- [x] done';
    const { container } = render(<Display bundle={bundle({ 'text/markdown': md })} />);
    expect(container.querySelector('table td')?.textContent).toBe('1');
    expect(container.querySelector('del')?.textContent).toBe('gone');
    expect(container.querySelector('input[type=checkbox]')).not.toBeNull();
  });

  it('shows raw HTML as literal text', () => {
    const { container } = render(
      <Display bundle={bundle({ 'text/markdown': 'before <img src=x onerror=alert(1)> after' })} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('<img src=x onerror=alert(1)>');
  });

  it('keeps safe links with rel/target and turns unsafe ones into text', () => {
    const md =
      '[ok](https://example.com) [bad](javascript:alert(1)) [ref][r] <https://auto.example>\n\n[r]: vbscript:x';
    const { container } = render(<Display bundle={bundle({ 'text/markdown': md })} />);
    const links = [...container.querySelectorAll('a')];
    expect(links.map((a) => a.getAttribute('href'))).toEqual([
      'https://example.com/',
      'https://auto.example/',
    ]);
    for (const a of links) {
      expect(a.getAttribute('rel')).toBe('noopener noreferrer nofollow');
      expect(a.getAttribute('target')).toBe('_blank');
    }
    expect(screen.getByText('bad').tagName).toBe('SPAN');
    expect(screen.getByText('ref').tagName).toBe('SPAN');
  });

  it('asks before loading a remote image when untrusted', () => {
    const md = '![chart](https://img.example/c.png)';
    const { container } = render(<Display bundle={bundle({ 'text/markdown': md })} />);
    expect(container.querySelector('img')).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Load image “chart” from img.example' }));
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('https://img.example/c.png');
    expect(img.getAttribute('referrerpolicy')).toBe('no-referrer');
  });

  it('loads remote images directly when trusted, never svg data', () => {
    const md = '![a](https://img.example/a.png) ![b](data:image/svg+xml;base64,PHN2Zz4=)';
    const { container } = render(
      <Display bundle={bundle({ 'text/markdown': md })} trust="trusted" />,
    );
    expect([...container.querySelectorAll('img')].map((i) => i.getAttribute('src'))).toEqual([
      'https://img.example/a.png',
    ]);
    expect(container.textContent).toContain('[image: b]');
  });

  it('gives code blocks a named copy button that copies the source', async () => {
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<Display bundle={bundle({ 'text/markdown': '```python\nprint("hi")\n```' })} />);
    const button = screen.getByRole('button', { name: 'Copy python code' });
    await act(async () => {
      fireEvent.click(button);
    });
    expect(writeText).toHaveBeenCalledWith('print("hi")\n');
    expect(screen.getByRole('status').textContent).toBe('Copied');
  });

  it('splits long markdown into chunks that keep fences and definitions', () => {
    const block = (i: number) => `Para ${i} [link][d] ${'text '.repeat(100)}`;
    const fence = '```\ncode\n\nstill code\n```';
    const md = [
      ...Array.from({ length: 20 }, (_, i) => block(i)),
      fence,
      '[d]: https://d.example',
    ].join('\n\n');
    const chunks = splitMarkdown(md, 1_000);
    expect(chunks.length).toBeGreaterThan(5);
    expect(chunks.some((c) => c.includes('```\ncode\n\nstill code\n```'))).toBe(true);
    for (const chunk of chunks) expect(chunk).toContain('[d]: https://d.example');
  });

  it(
    'renders a long document progressively, links resolving across chunks',
    { timeout: 30_000 },
    async () => {
      const md = [
        ...Array.from({ length: 60 }, (_, i) => `Section ${i} [see][d] ${'lorem '.repeat(80)}`),
        '[d]: https://d.example',
      ].join('\n\n');
      const { container } = render(<Display bundle={bundle({ 'text/markdown': md })} />);
      expect(container.querySelector('[data-skein-pending]')).not.toBeNull();
      await vi.waitFor(() => expect(container.querySelector('[data-skein-pending]')).toBeNull(), {
        timeout: 20_000,
      });
      expect(container.querySelectorAll('.skein-md p')).toHaveLength(60);
      expect(container.querySelectorAll('a[href="https://d.example/"]')).toHaveLength(60);
    },
  );
});

describe('text/plain with ANSI', () => {
  it('turns escape codes into classed spans, never markup', async () => {
    const text = '\u001b[31mred\u001b[0m \u001b[1;38;2;1;2;3mtrue\u001b[0m <b>not bold</b>';
    const { container } = render(<Display bundle={bundle({ 'text/plain': text })} />);
    // Until the ANSI parser (loaded on first use) arrives: the text without its codes.
    expect(container.textContent).toContain('red true <b>not bold</b>');
    expect(container.textContent).not.toContain('\u001b');
    const red = await screen.findByText('red', undefined, { timeout: 20_000 });
    expect(red.className).toBe('skein-ansi-fg-red');
    const tc = screen.getByText('true');
    expect(tc.className).toBe('skein-ansi-bold');
    expect(tc.style.color).toBe('rgb(1, 2, 3)');
    expect(container.querySelector('b')).toBeNull();
    expect(container.textContent).toContain('<b>not bold</b>');
    expect(container.textContent).not.toContain('\u001b');
  });
});

describe('html renderer', () => {
  it('puts untrusted HTML in a sandboxed frame with a CSP', () => {
    const { container } = render(
      <Display
        bundle={bundle({ 'text/html': '<b onclick="x()">hi</b>' }, { 'text/html': { height: 99 } })}
      />,
    );
    const frame = container.querySelector('iframe')!;
    expect(frame.getAttribute('sandbox')).toBe('');
    const doc = frame.getAttribute('srcdoc')!;
    expect(doc).toContain(
      `content="default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'"`,
    );
    expect(doc.indexOf('Content-Security-Policy')).toBeLessThan(doc.indexOf('<b onclick'));
    expect(frame.getAttribute('title')).toContain('sandboxed');
    expect((frame.parentElement as HTMLElement).style.height).toBe('99px');
    expect(container.querySelector('b')).toBeNull();
  });

  it('sanitizes and inlines trusted HTML', () => {
    const html =
      '<b onclick="x()">hi</b><script>bad()</script><a href="javascript:x">j</a><a href="https://ok.example">ok</a><img src="https://t.example/p.gif"><style>body{}</style>';
    const { container } = render(
      <Display bundle={bundle({ 'text/html': html })} trust="trusted" />,
    );
    const root = container.querySelector('.skein-html__inline')!;
    expect(root.querySelector('b')?.getAttribute('onclick')).toBeNull();
    expect(root.querySelector('script, style')).toBeNull();
    const [j, ok] = [...root.querySelectorAll('a')];
    expect(j!.hasAttribute('href')).toBe(false);
    expect(ok!.getAttribute('href')).toBe('https://ok.example/');
    expect(ok!.getAttribute('rel')).toBe('noopener noreferrer nofollow');
    expect(root.querySelector('img')?.hasAttribute('src')).toBe(false);
  });
});

describe('images', () => {
  it('renders base64 rasters with metadata size and text alt', () => {
    const { container } = render(
      <Display
        bundle={bundle(
          { 'image/png': 'iVBORw0KGgo=\n', 'text/plain': '<Figure size 640x480>' },
          { 'image/png': { width: 320, height: 'x' } },
        )}
      />,
    );
    const img = container.querySelector('img')!;
    expect(img.getAttribute('src')).toBe('data:image/png;base64,iVBORw0KGgo=');
    expect(img.getAttribute('width')).toBe('320');
    expect(img.hasAttribute('height')).toBe(false);
    expect(img.getAttribute('alt')).toBe('<Figure size 640x480>');
  });

  it('refuses a payload that is not base64', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    const onError = vi.fn();
    const { container } = render(
      <DisplayProvider onError={onError}>
        <Display bundle={bundle({ 'image/png': 'AAAA" onerror="alert(1)' })} />
      </DisplayProvider>,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(container.textContent).toContain('image/png data is not base64');
    expect(onError).toHaveBeenCalledWith(
      expect.objectContaining({ code: 'display_not_base64' }),
      'image/png',
    );
  });

  it('shows untrusted SVG only as an <img> data URL', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>';
    const { container } = render(<Display bundle={bundle({ 'image/svg+xml': svg })} />);
    expect(container.querySelector('svg')).toBeNull();
    expect(container.querySelector('img')!.getAttribute('src')).toMatch(
      /^data:image\/svg\+xml;charset=utf-8,/,
    );
  });

  it('inlines trusted SVG after sanitizing', () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><circle r="4"/></svg>';
    const { container } = render(
      <Display bundle={bundle({ 'image/svg+xml': svg })} trust="trusted" />,
    );
    const el = container.querySelector('svg')!;
    expect(el.hasAttribute('onload')).toBe(false);
    expect(el.querySelector('circle')).not.toBeNull();
  });
});

describe('trusted SVG/HTML: url() references', () => {
  const trustedSvg = (svg: string) => {
    const { container } = render(
      <Display bundle={bundle({ 'image/svg+xml': svg })} trust="trusted" />,
    );
    return container.querySelector('.skein-image--svg')!;
  };

  it.each([
    ['fill', '<rect fill="url(https://evil.example/x.svg#p)" width="9" height="9"/>'],
    ['stroke, quoted', `<rect stroke="url('//evil.example/x.svg#p')" width="9" height="9"/>`],
    ['filter', '<rect filter="url(https://evil.example/f.svg#f)" width="9" height="9"/>'],
    ['mask', '<rect mask="url(https://evil.example/m.svg#m)" width="9" height="9"/>'],
    ['clip-path', '<rect clip-path="url(https://evil.example/c.svg#c)" width="9" height="9"/>'],
    ['marker-end', '<path marker-end="url(https://evil.example/m.svg#m)" d="M0 0L9 9"/>'],
    ['mixed', '<rect fill="url(#ok) url(https://evil.example/x.svg#p)" width="9" height="9"/>'],
    ['escaped', '<rect fill="u\\rl(https://evil.example/x.svg#p)" width="9" height="9"/>'],
    ['image-set', `<rect mask="image-set('https://evil.example/x.png' 1x)" width="9" height="9"/>`],
  ])('drops an external reference in %s', (_name, shape) => {
    const root = trustedSvg(`<svg xmlns="http://www.w3.org/2000/svg">${shape}</svg>`);
    const el = root.querySelector('svg > *')!;
    expect(el).not.toBeNull();
    for (const attr of el.attributes) expect(attr.value).not.toMatch(/evil|url\((?!['"]?#)/);
  });

  it('drops an external url() in a trusted HTML attribute too', () => {
    const { container } = render(
      <Display
        bundle={bundle({
          'text/html': '<svg><rect fill="url(https://evil.example/x.svg#p)"/></svg><b>ok</b>',
        })}
        trust="trusted"
      />,
    );
    expect(container.querySelector('rect')?.hasAttribute('fill')).toBe(false);
    expect(container.querySelector('b')?.textContent).toBe('ok');
  });

  it('keeps a gradient fill and a <use>, pointed at the prefixed ids', () => {
    const root = trustedSvg(
      '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">' +
        '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient>' +
        '<circle id="dot" r="2"/><clipPath id="c"><rect width="5" height="5"/></clipPath></defs>' +
        '<rect fill="url(#g)" clip-path="url(\'#c\')" width="9" height="9"/>' +
        '<use href="#dot" x="3"/><use xlink:href="#dot" x="6"/>' +
        '<use href="https://evil.example/x.svg#dot"/></svg>',
    );
    expect(root.querySelector('linearGradient')!.id).toBe('user-content-g');
    const rect = root.querySelector('svg > rect')!;
    expect(rect.getAttribute('fill')).toBe('url(#user-content-g)');
    expect(rect.getAttribute('clip-path')).toBe("url('#user-content-c')");
    const uses = [...root.querySelectorAll('use')];
    expect(uses).toHaveLength(3);
    expect(uses[0]!.getAttribute('href')).toBe('#user-content-dot');
    expect(uses[1]!.getAttribute('xlink:href')).toBe('#user-content-dot');
    expect(uses[2]!.hasAttribute('href')).toBe(false);
    expect(root.querySelector('#user-content-dot')).not.toBeNull();
  });

  it('does not prefix an id twice', () => {
    const root = trustedSvg(
      '<svg xmlns="http://www.w3.org/2000/svg"><linearGradient id="user-content-g"/>' +
        '<rect fill="url(#user-content-g)" width="9" height="9"/></svg>',
    );
    expect(root.querySelector('linearGradient')!.id).toBe('user-content-g');
    expect(root.querySelector('rect')!.getAttribute('fill')).toBe('url(#user-content-g)');
  });
});

describe('JSON tree', () => {
  it('starts with the root open and expands children lazily with aria-expanded', () => {
    const data = { name: 'x', nested: { deep: { deeper: 1 } }, list: [1, 2] };
    render(<Display bundle={bundle({ 'application/json': data })} />);
    const root = screen.getByRole('button', { name: '{3 keys}' });
    expect(root.getAttribute('aria-expanded')).toBe('true');
    const nested = screen.getByRole('button', { name: 'nested: {1 key}' });
    expect(nested.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText('deep')).toBeNull();
    fireEvent.click(nested);
    expect(nested.getAttribute('aria-expanded')).toBe('true');
    expect(screen.getByRole('button', { name: 'deep: {1 key}' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'list: Array(2)' })).toBeTruthy();
    expect(screen.getByText('"x"')).toBeTruthy();
  });

  it('pages a 100k-key object', { timeout: 30_000 }, () => {
    const data: Record<string, number> = {};
    for (let i = 0; i < 100_000; i++) data[`k${i}`] = i;
    const { container } = render(<Display bundle={bundle({ 'application/json': data })} />);
    expect(container.querySelectorAll('.skein-json__leaf')).toHaveLength(100);
    expect(container.textContent).toContain('99,900 more');
    fireEvent.click(screen.getByRole('button', { name: 'Show 1,000 more' }));
    expect(container.querySelectorAll('.skein-json__leaf')).toHaveLength(1_100);
    fireEvent.click(screen.getByRole('button', { name: 'Show 100 more' }));
    expect(container.querySelectorAll('.skein-json__leaf')).toHaveLength(1_200);
  });

  it('parses JSON text, marks cycles in JS values, renders hostile keys as text', () => {
    const { container, unmount } = render(
      <Display bundle={bundle({ 'application/json': '{"<img src=x onerror=alert(1)>": true}' })} />,
    );
    expect(container.querySelector('img')).toBeNull();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeTruthy();
    unmount();
    const cyclic: Record<string, unknown> = { a: 1 };
    cyclic['self'] = cyclic;
    render(<Display bundle={bundle({ 'application/json': cyclic })} />);
    expect(screen.getByText('[Circular]')).toBeTruthy();
  });

  it('truncates a long string value with its own show-all', () => {
    render(<Display bundle={bundle({ 'application/json': { s: 'y'.repeat(5_000) } })} />);
    const button = screen.getByRole('button', { name: 'Show all 5,000 characters' });
    const leaf = button.closest('li')!;
    expect(within(leaf).getByText(/^"y+…"$/)).toBeTruthy();
    fireEvent.click(button);
    expect(leaf.textContent).toContain('y'.repeat(5_000));
  });
});

describe('diff and latex', () => {
  it('parses a unified diff with line numbers', () => {
    const lines = parseUnifiedDiff('--- a/f\n+++ b/f\n@@ -10,2 +10,2 @@\n ctx\n-old\n+new');
    expect(lines.map((l) => [l.kind, l.oldLine, l.newLine])).toEqual([
      ['file', undefined, undefined],
      ['file', undefined, undefined],
      ['hunk', undefined, undefined],
      ['context', 10, 10],
      ['del', 11, undefined],
      ['add', undefined, 11],
    ]);
  });

  it('renders diff lines with their kind and keeps +/- visible', () => {
    const { container } = render(
      <Display bundle={bundle({ 'text/x-diff': '@@ -1 +1 @@\n-old\n+new' })} />,
    );
    const kinds = [...container.querySelectorAll('.skein-diff__line')].map((l) =>
      l.getAttribute('data-kind'),
    );
    expect(kinds).toEqual(['hunk', 'del', 'add']);
    expect(container.textContent).toContain('+new');
  });

  it('renders LaTeX source as code with a copy button', () => {
    render(<Display bundle={bundle({ 'text/latex': '$$e^{i\\pi}+1=0$$' })} />);
    expect(screen.getByText('$$e^{i\\pi}+1=0$$')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Copy LaTeX source' })).toBeTruthy();
  });
});
