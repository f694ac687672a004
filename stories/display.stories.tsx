import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, userEvent, waitFor, within } from 'storybook/test';
import type { ReactNode } from 'react';
import {
  Display,
  DisplayProvider,
  SkeinTheme,
  preloadDisplay,
  type DisplayRenderer,
  type MimeBundle,
  type Trust,
} from '../src/react.js';
import {
  ANSI_TRACEBACK,
  CHECKER_PNG,
  HOSTILE_MARKDOWN,
  HOSTILE_SVG,
  REPORT_MARKDOWN,
  SAMPLE_DIFF,
  longMarkdown,
} from './display-fixtures.js';

const meta = {
  title: 'Display/Renderers',
  component: Display,
  tags: ['autodocs'],
  // The theme decorator pads the canvas (and paints it, in the dark theme).
  parameters: { layout: 'fullscreen' },
  // The markdown parser and the sanitizer load on first use; these stories
  // show the renderers themselves, so load them before rendering.
  loaders: [() => preloadDisplay()],
} satisfies Meta<typeof Display>;

export default meta;
type Story = StoryObj<typeof meta>;

/** A labelled box around one output, as a transcript row would show it. */
function Cell({ title, children }: { title: string; children: ReactNode }) {
  return (
    <section
      aria-label={title}
      style={{
        border: '1px solid var(--skein-border)',
        borderRadius: 6,
        padding: 12,
        marginBottom: 12,
      }}
    >
      <p style={{ margin: '0 0 8px', fontWeight: 600 }}>{title}</p>
      {children}
    </section>
  );
}

const b = (data: Record<string, unknown>, metadata?: Record<string, unknown>): MimeBundle => ({
  data,
  metadata,
});

/** Markers a hostile payload would set if it ran. */
function assertNothingRan(root: HTMLElement) {
  expect((window as { __xss?: unknown }).__xss).toBeUndefined();
  for (const el of root.querySelectorAll('*')) {
    for (const attr of el.attributes) {
      expect(attr.name.startsWith('on'), `${attr.name} on <${el.localName}>`).toBe(false);
      if (attr.name === 'href' || attr.name === 'src') {
        expect(attr.value.toLowerCase().replace(/\s/g, '')).not.toMatch(/^(javascript|vbscript):/);
      }
    }
  }
}

// ---------------------------------------------------------------------------

/** Every built-in MIME type, untrusted (the default for agent output). */
export const Gallery: Story = {
  args: { bundle: b({ 'text/plain': 'unused' }) },
  render: () => (
    <div>
      <Cell title="text/markdown">
        <Display bundle={b({ 'text/markdown': REPORT_MARKDOWN })} />
      </Cell>
      <Cell title="text/html (untrusted: sandboxed frame)">
        <Display
          bundle={b(
            {
              'text/html':
                '<h2>Scores</h2><table border=1><tr><th>task</th><th>score</th></tr><tr><td>parse</td><td>0.92</td></tr></table>',
            },
            { 'text/html': { height: 140 } },
          )}
        />
      </Cell>
      <Cell title="image/png">
        <Display
          bundle={b(
            { 'image/png': CHECKER_PNG, 'text/plain': 'A blue and white checkerboard' },
            { 'image/png': { width: 64, height: 64 } },
          )}
        />
      </Cell>
      <Cell title="image/svg+xml (untrusted: as an image)">
        <Display bundle={b({ 'image/svg+xml': HOSTILE_SVG, 'text/plain': 'skein logo' })} />
      </Cell>
      <Cell title="application/json">
        <Display
          bundle={b({
            'application/json': {
              model: 'claude',
              usage: { input: 97, output: 263 },
              tools: ['bash', 'python'],
              ok: true,
              error: null,
            },
          })}
        />
      </Cell>
      <Cell title="text/plain with ANSI colours">
        <Display bundle={b({ 'text/plain': ANSI_TRACEBACK })} />
      </Cell>
      <Cell title="text/x-diff">
        <Display bundle={b({ 'text/x-diff': SAMPLE_DIFF })} />
      </Cell>
      <Cell title="text/latex (its source: skein has no TeX engine; register one to typeset)">
        <Display bundle={b({ 'text/latex': '$$\\sum_{i=1}^{n} i = \\frac{n(n+1)}{2}$$' })} />
      </Cell>
      <Cell title="a value through the display cascade">
        <Display value={Array.from({ length: 1000 }, (_, id) => ({ id, name: `row ${id}` }))} />
      </Cell>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const mimes = [...canvasElement.querySelectorAll('[data-mime]')].map((e) =>
      e.getAttribute('data-mime'),
    );
    await expect(mimes).toEqual([
      'text/markdown',
      'text/html',
      'image/png',
      'image/svg+xml',
      'application/json',
      'text/plain',
      'text/x-diff',
      'text/latex',
    ]);
    // The value: its shape summary, which opens into the JSON tree.
    await expect(canvasElement.querySelector('[data-value-tree]')).not.toBeNull();
    await expect(canvas.getByRole('link', { name: 'pull request' })).toHaveAttribute(
      'rel',
      'noopener noreferrer nofollow',
    );
    await expect(canvas.getByTitle('HTML output (sandboxed, scripts disabled)')).toHaveAttribute(
      'sandbox',
      '',
    );
    await expect(canvas.getByRole('img', { name: 'skein logo' }).getAttribute('src')).toMatch(
      /^data:image\/svg\+xml/,
    );
    await expect(canvas.getByText('1 failed').className).toContain('skein-ansi-fg-red');
    await expect(canvas.getByText(/Array\(1000\) of/)).toBeInTheDocument();
    assertNothingRan(canvasElement);
  },
};

/** The same gallery in the dark theme: every colour is a CSS variable, so axe checks dark contrast too. */
export const GalleryDark: Story = {
  ...Gallery,
  globals: { theme: 'dark' },
};

/** Markdown: GFM, links with safe schemes only, code blocks with a copy button. */
export const Markdown: Story = {
  args: { bundle: b({ 'text/markdown': REPORT_MARKDOWN }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('table')).toBeInTheDocument();
    await expect(canvas.getByRole('checkbox', { name: 'Done' })).toBeChecked();
    await expect(canvas.getByRole('button', { name: 'Copy python code' })).toBeInTheDocument();
    // Task lists show their boxes, not bullets as well.
    const task = canvas.getByRole('checkbox', { name: 'Done' }).closest('li')!;
    await expect(getComputedStyle(task).listStyleType).toBe('none');
  },
};

/** (A test, hidden from the sidebar.) Copy puts the code on the clipboard and says so in a status. */
export const MarkdownCopy: Story = {
  args: { bundle: b({ 'text/markdown': REPORT_MARKDOWN }) },
  tags: ['!dev', '!autodocs'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const copy = canvas.getByRole('button', { name: 'Copy python code' });
    await userEvent.click(copy);
    await waitFor(() =>
      expect(canvas.getByRole('status').textContent).toMatch(/Copied|Copy failed/),
    );
    // The accessible name stays what the button does.
    await expect(copy).toHaveAccessibleName('Copy python code');
  },
};

/** Hostile markdown: javascript:/vbscript: links become text, HTML stays text, remote images wait for a click. */
export const HostileMarkdown: Story = {
  args: { bundle: b({ 'text/markdown': HOSTILE_MARKDOWN }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvasElement.querySelectorAll('a')).toHaveLength(0);
    await expect(canvas.getByText('here').tagName).toBe('SPAN');
    await expect(canvasElement.textContent).toContain('<img src=x onerror=');
    await expect(
      canvas.getByRole('button', { name: 'Load image “tracker” from tracker.example' }),
    ).toBeInTheDocument();
    await expect(canvasElement.querySelector('img')).toBeNull();
    assertNothingRan(canvasElement);
  },
};

function TrustPair({ bundle }: { bundle: MimeBundle }) {
  return (
    <div style={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 12 }}>
      {(['untrusted', 'trusted'] as Trust[]).map((trust) => (
        <Cell key={trust} title={trust}>
          <Display bundle={bundle} trust={trust} />
        </Cell>
      ))}
    </div>
  );
}

const HOSTILE_HTML =
  // Inline colours bring their own background: readable in either theme.
  '<p style="color:#116329;background:#eef9f0;padding:2px 4px">Styled <b>bold</b> text.</p>' +
  '<p><a href="https://example.com">A link</a> and <a href="javascript:window.__xss=1">a bad link</a>.</p>' +
  '<img src=x onerror="window.__xss=2" alt="broken">' +
  '<script>window.__xss = 3</script><style>body{display:none}</style>' +
  '<form action="https://evil.example"><input name=p></form>';

/** HTML: untrusted in a script-less sandboxed frame, trusted sanitized and inlined. */
export const HtmlTrustedVsUntrusted: Story = {
  args: { bundle: b({ 'text/html': HOSTILE_HTML }) },
  render: (args) => <TrustPair bundle={args.bundle!} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const untrusted = canvas.getByRole('region', { name: 'untrusted' });
    const trusted = canvas.getByRole('region', { name: 'trusted' });
    const frame = untrusted.querySelector('iframe')!;
    await expect(frame.getAttribute('sandbox')).toBe('');
    await expect(frame.getAttribute('srcdoc')).toContain("default-src 'none'");
    await expect(within(trusted).getByText('bold').tagName).toBe('B');
    await expect(within(trusted).getByRole('link', { name: 'A link' })).toHaveAttribute(
      'target',
      '_blank',
    );
    await expect(within(trusted).getByText('a bad link')).not.toHaveAttribute('href');
    await expect(trusted.querySelector('script, style, form, input')).toBeNull();
    assertNothingRan(canvasElement);
  },
};

/** SVG: untrusted only as an <img> data URL; trusted sanitized and inlined. */
export const SvgTrustedVsUntrusted: Story = {
  args: { bundle: b({ 'image/svg+xml': HOSTILE_SVG, 'text/plain': 'skein logo' }) },
  render: (args) => <TrustPair bundle={args.bundle!} />,
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const untrusted = canvas.getByRole('region', { name: 'untrusted' });
    const trusted = canvas.getByRole('region', { name: 'trusted' });
    await expect(untrusted.querySelector('svg')).toBeNull();
    await expect(untrusted.querySelector('img')).not.toBeNull();
    const svg = trusted.querySelector('svg')!;
    await expect(svg.hasAttribute('onload')).toBe(false);
    await expect(svg.querySelector('script')).toBeNull();
    assertNothingRan(canvasElement);
  },
};

/** JSON: collapsible with buttons and aria-expanded; keyboard operable. */
export const Json: Story = {
  args: {
    bundle: b({
      'application/json': {
        '<img src=x onerror=alert(1)>': 'keys are text',
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'hello' },
        ],
        config: { temperature: 0.2, max_tokens: 1024, stop: null },
      },
    }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const messages = canvas.getByRole('button', { name: 'messages: Array(2)' });
    await expect(messages).toHaveAttribute('aria-expanded', 'false');
    messages.focus();
    await userEvent.keyboard('{Enter}');
    await expect(messages).toHaveAttribute('aria-expanded', 'true');
    await expect(canvas.getByRole('button', { name: '0: {2 keys}' })).toBeInTheDocument();
    await expect(canvas.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
  },
};

const RUN_RESULTS = Array.from({ length: 10_000 }, (_, id) => ({
  id,
  name: `sample ${id}`,
  score: Math.round(((id * 7919) % 1000) / 10) / 100,
  tags: id % 3 === 0 ? ['retry'] : [],
}));

/**
 * `<Display value>` on an array: the shape summary and a bounded preview, a
 * button that opens the value's JSON tree (as JupyterLab shows
 * `application/json`), one page of 100 children at a time.
 */
export const ValueAsTree: Story = {
  args: { value: RUN_RESULTS },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const summary = canvas.getByRole('button', { name: /^Array\(10000\) of \{id: number/ });
    await expect(summary).toHaveAttribute('aria-expanded', 'false');
    await expect(canvasElement.querySelector('[data-skein-preview]')).not.toBeNull();
    summary.focus();
    await userEvent.keyboard('{Enter}');
    await expect(summary).toHaveAttribute('aria-expanded', 'true');
    await expect(canvasElement.querySelector('[data-skein-preview]')).toBeNull();
    await userEvent.click(canvas.getByRole('button', { name: '0: {4 keys}' }));
    await expect(canvas.getByText('"sample 0"')).toBeInTheDocument();
    await expect(canvas.getByText('9,900 more')).toBeInTheDocument();
  },
};

/** A string is text; `mime` shows it as another type (here markdown). */
export const ValueWithMime: Story = {
  args: { value: 'unused' },
  render: () => (
    <div style={{ display: 'grid', gap: 12 }}>
      <Cell title="value (a string: text)">
        <Display value="**Done**: 3 of 4 tests passed." />
      </Cell>
      <Cell title='value with mime="text/markdown"'>
        <Display value="**Done**: 3 of 4 tests passed." mime="text/markdown" />
      </Cell>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const text = canvas.getByRole('region', { name: 'value (a string: text)' });
    await expect(text.textContent).toContain('**Done**');
    const md = canvas.getByRole('region', { name: 'value with mime="text/markdown"' });
    await expect(within(md).getByText('Done').tagName).toBe('STRONG');
  },
};

const HUGE_OBJECT = Object.fromEntries(
  Array.from({ length: 100_000 }, (_, i) => [`key${i}`, { i, even: i % 2 === 0 }]),
);

/** 100,000 keys: one page of 100 is in the DOM; "show more" adds pages. */
export const JsonHundredThousandKeys: Story = {
  tags: ['light-only', '!autodocs'],
  args: { bundle: b({ 'application/json': HUGE_OBJECT }) },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('button', { name: '{100,000 keys}' })).toHaveAttribute(
      'aria-expanded',
      'true',
    );
    await expect(canvasElement.querySelectorAll('.skein-json__toggle')).toHaveLength(101);
    await userEvent.click(canvas.getByRole('button', { name: 'Show 100 more' }));
    await expect(canvasElement.querySelectorAll('.skein-json__toggle')).toHaveLength(201);
    await expect(canvas.getByText('99,800 more')).toBeInTheDocument();
  },
};

/** A 10 MB string: the budget shows 100,000 characters and says what it hid. */
export const TenMegabyteString: Story = {
  tags: ['light-only', '!autodocs'],
  args: {
    bundle: b({ 'text/plain': 'log line with some text\n'.repeat(436_907).slice(0, 10_000_000) }),
  },
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('note').textContent).toContain(
      'Showing 100,000 of 10,000,000 characters.',
    );
    await expect(canvasElement.querySelector('pre')!.textContent).toHaveLength(100_000);
  },
};

/** Markdown nested 500 levels deep: shown as text instead of overflowing the parser's stack. */
export const DeeplyNestedMarkdown: Story = {
  args: { bundle: b({ 'text/markdown': `${'> '.repeat(500)}deep\n\n${'- '.repeat(300)}list` }) },
  play: async ({ canvasElement }) => {
    await expect(canvasElement.textContent).toContain(
      'Nesting depth 500 exceeds 100: shown as plain text.',
    );
    await expect(canvasElement.querySelector('blockquote')).toBeNull();
  },
};

/** 100k characters of markdown render in chunks, a few per frame. */
export const LongMarkdown: Story = {
  tags: ['light-only', '!autodocs'],
  // axe over the ~6,000 elements this draws takes ~20 s of the suite (its
  // colour-contrast and target-size rules most); the same renderer's markup
  // is axe-checked in `Markdown` and `Gallery`, light and dark.
  parameters: { a11y: { test: 'off' } },
  args: { bundle: b({ 'text/markdown': longMarkdown(100_000) }) },
  play: async ({ canvasElement }) => {
    await waitFor(() => expect(canvasElement.querySelector('[data-skein-pending]')).toBeNull(), {
      timeout: 30_000,
    });
    await expect(canvasElement.querySelectorAll('h2').length).toBeGreaterThan(50);
  },
};

const broken: DisplayRenderer = {
  name: 'broken-markdown',
  mimeTypes: ['text/markdown'],
  rank: 1,
  safe: true,
  renderer: () => {
    throw new Error('this renderer is broken on purpose');
  },
};

/** A renderer that throws: its output shows the raw text and the error, its neighbours are unaffected. */
export const FailingRenderer: Story = {
  args: { bundle: b({ 'text/markdown': '# raw **markdown** source' }) },
  render: (args) => (
    <DisplayProvider renderers={[broken]}>
      <Display bundle={args.bundle!} />
      <Display bundle={b({ 'text/plain': 'the next output still renders' })} />
    </DisplayProvider>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByText(/Could not render text\/markdown/)).toBeInTheDocument();
    await expect(canvas.getByText('# raw **markdown** source')).toBeInTheDocument();
    await expect(canvas.getByText('the next output still renders')).toBeInTheDocument();
  },
};

/** Diff with line numbers; +/- stay visible so colour is not the only cue. */
export const Diff: Story = {
  args: { bundle: b({ 'text/x-diff': SAMPLE_DIFF }) },
  play: async ({ canvasElement }) => {
    const add = canvasElement.querySelector('[data-kind="add"]')!;
    await expect(add.textContent).toContain('+    return [t for t in text.split() if t]');
    await expect(add.querySelectorAll('.skein-diff__num')[1]!.textContent).toBe('11');
  },
};

/** Everything in a custom budget, compact density, dark: the notice says what it hid. */
export const SmallBudgetDark: Story = {
  args: { bundle: b({ 'text/markdown': longMarkdown(5_000) }) },
  globals: { theme: 'dark' },
  render: (args) => (
    <SkeinTheme theme="dark" density="compact" style={{ padding: 12 }}>
      <DisplayProvider budget={{ chars: 1_000 }}>
        <Display bundle={args.bundle!} />
      </DisplayProvider>
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByRole('note').textContent).toMatch(
      /^Showing \d{3} of 5,\d{3} characters\./,
    );
    await expect(canvas.getByRole('button', { name: 'Show all' })).toBeInTheDocument();
  },
};

/** (A test, hidden from the sidebar.) "Show all" lifts the budget. */
export const SmallBudgetShowAll: Story = {
  ...SmallBudgetDark,
  tags: ['!dev', '!autodocs'],
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await userEvent.click(canvas.getByRole('button', { name: 'Show all' }));
    await expect(canvas.queryByRole('note')).toBeNull();
  },
};

/** The gallery at 390 px: every output keeps to its card (long lines wrap or scroll inside). */
export const GalleryNarrow: Story = {
  ...Gallery,
  globals: { viewport: { value: 'phone', isRotated: false } },
  play: async (context) => {
    await Gallery.play!(context);
    for (const cell of context.canvasElement.querySelectorAll<HTMLElement>('section')) {
      await expect(cell.scrollWidth, cell.getAttribute('aria-label')!).toBeLessThanOrEqual(
        cell.clientWidth,
      );
    }
  },
};
