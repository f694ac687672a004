import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, within } from 'storybook/test';
import { useId } from 'react';
import { SkeinTheme } from '../src/react.js';
import './theme.css';

const TOKENS = [
  'bg',
  'bg-subtle',
  'bg-raised',
  'fg',
  'fg-muted',
  'border',
  'accent',
  'focus-ring',
  'selection',
  'highlight',
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
] as const;

/** Every colour token of skein/styles.css, as the current theme resolves it. */
function Tokens({ title = 'skein colour tokens' }: { title?: string }) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h1 id={id} style={{ fontSize: 18, margin: '0 0 12px' }}>
        {title}
      </h1>
      <ul className="skein-swatches">
        {TOKENS.map((token) => (
          <li key={token} className="skein-swatch">
            <span
              className="skein-swatch__chip"
              style={{ background: `var(--skein-${token})` }}
              aria-hidden="true"
            />
            <span>--skein-{token}</span>
          </li>
        ))}
      </ul>
      <p style={{ color: 'var(--skein-fg-muted)' }}>
        Muted text,{' '}
        <a href={`#${id}`} style={{ color: 'var(--skein-accent)' }}>
          an accent link
        </a>
        , and <code style={{ fontFamily: 'var(--skein-font-mono)' }}>monospace</code>.
      </p>
    </section>
  );
}

const meta = {
  title: 'Foundation/Theme',
  component: Tokens,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Tokens>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Follows the toolbar's theme (light by default). */
export const Toolbar: Story = {
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getAllByRole('listitem')).toHaveLength(TOKENS.length);
  },
};

/** Both themes side by side, whatever the toolbar says. */
export const SideBySide: Story = {
  render: () => (
    // Side by side where both fit, one above the other on a phone.
    <div
      style={{
        display: 'grid',
        gridTemplateColumns: 'repeat(auto-fit, minmax(min(100%, 16rem), 1fr))',
      }}
    >
      <SkeinTheme theme="light" style={{ padding: 16 }}>
        <Tokens title="Light theme tokens" />
      </SkeinTheme>
      <SkeinTheme theme="dark" style={{ padding: 16 }}>
        <Tokens title="Dark theme tokens" />
      </SkeinTheme>
    </div>
  ),
  play: async ({ canvasElement }) => {
    const roots = canvasElement.querySelectorAll<HTMLElement>('.skein[data-theme]');
    const light = [...roots].find((r) => r.dataset['theme'] === 'light');
    const dark = [...roots].find((r) => r.dataset['theme'] === 'dark');
    // The two themes resolve the same variable to different colours.
    await expect(getComputedStyle(light!).backgroundColor).toBe('rgb(255, 255, 255)');
    await expect(getComputedStyle(dark!).backgroundColor).toBe('rgb(15, 20, 25)');
  },
};

/** Compact density shrinks the type scale and row height. */
export const Compact: Story = {
  render: () => (
    <SkeinTheme theme="light" density="compact" style={{ padding: 16 }}>
      <Tokens />
    </SkeinTheme>
  ),
  play: async ({ canvasElement }) => {
    const root = canvasElement.querySelector<HTMLElement>('.skein[data-density="compact"]')!;
    await expect(getComputedStyle(root).fontSize).toBe('13px');
  },
};

/** The dark theme through the toolbar global, so axe checks its contrast too. */
export const Dark: Story = {
  globals: { theme: 'dark' },
  play: async ({ canvasElement }) => {
    const root = canvasElement.closest('.skein') ?? canvasElement.querySelector('.skein');
    await expect(root?.getAttribute('data-theme')).toBe('dark');
  },
};
