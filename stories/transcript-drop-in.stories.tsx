import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import {
  createDescriberRegistry,
  generateRun,
  type Event,
  type EventDisplay,
} from '../src/index.js';
import { Transcript, type RowBodyRenderProps } from '../src/react.js';

/**
 * `<Transcript>` dropped in as a user does (issue 16): only `skein/styles.css`,
 * no `<SkeinTheme>` (the `skeinTheme: false` parameter turns the global
 * decorator off), in each kind of parent.
 */
const meta = {
  title: 'Views/Transcript (drop-in)',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen', skeinTheme: false },
} satisfies Meta<typeof Transcript>;

export default meta;
type Story = StoryObj<typeof meta>;

const run = generateRun({ seed: 21, events: 20_000, pendingRate: 0 });

/** Rows bounded, a scroller, the first event first. */
async function checkBounded(canvasElement: HTMLElement) {
  const feed = await within(canvasElement).findByRole('feed');
  await waitFor(() => expect(feed.getAttribute('aria-busy')).toBe('false'), { timeout: 30_000 });
  const scroller = feed.parentElement!;
  await expect(feed.querySelectorAll('article').length).toBeLessThanOrEqual(100);
  await expect(scroller.scrollHeight).toBeGreaterThan(scroller.clientHeight * 5);
  await expect(scroller.clientHeight).toBeLessThanOrEqual(700);
  await expect(feed.querySelector('article')!.getAttribute('aria-posinset')).toBe('1');
  // No theme anywhere above it.
  await expect(canvasElement.querySelector('.skein')).toBeNull();
}

const page = (children: ReactNode) => <main style={{ padding: 8 }}>{children}</main>;

/** In a box with a fixed height: it fills it and scrolls inside. */
export const FixedBox: Story = {
  args: { events: run },
  render: (args) => page(<div style={{ height: 480 }}>{<Transcript {...args} />}</div>),
  play: ({ canvasElement }) => checkBounded(canvasElement),
};

/** The growing child of a column flex layout under an app header. */
export const FlexChild: Story = {
  args: { events: run },
  render: (args) =>
    page(
      <div style={{ display: 'flex', flexDirection: 'column', height: 520 }}>
        <header style={{ padding: 8 }}>My agent app</header>
        <Transcript {...args} style={{ flex: 1 }} />
      </div>,
    ),
  play: ({ canvasElement }) => checkBounded(canvasElement),
};

/** The `1fr` row of a grid. */
export const GridChild: Story = {
  args: { events: run },
  render: (args) =>
    page(
      <div style={{ display: 'grid', gridTemplateRows: 'auto 1fr', height: 520 }}>
        <header style={{ padding: 8 }}>My agent app</header>
        <Transcript {...args} />
      </div>,
    ),
  play: ({ canvasElement }) => checkBounded(canvasElement),
};

/**
 * In page flow, its parent unsized: it takes `--skein-transcript-height`
 * (600 px by default) and scrolls inside; the page does not grow with the rows.
 */
export const PageFlow: Story = {
  args: { events: run },
  render: (args) =>
    page(
      <>
        <p>Text of the page above the transcript.</p>
        <Transcript {...args} />
        <p>Text of the page below it.</p>
      </>,
    ),
  play: async ({ canvasElement }) => {
    await checkBounded(canvasElement);
    const scroller = canvasElement.querySelector<HTMLElement>('[role="feed"]')!.parentElement!;
    await expect(Math.round(scroller.getBoundingClientRect().height)).toBe(600);
  },
};

const target = run.filter((e) => e.event === 'model')[300]!;

/** Opens on a selected event in the middle of the run (`defaultSelectedId`; `syncHash` does the same from `#event=<uuid>`). */
export const DeepLink: Story = {
  args: { events: run, defaultSelectedId: target.uuid },
  render: (args) => page(<div style={{ height: 480 }}>{<Transcript {...args} />}</div>),
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed');
    const scroller = feed.parentElement!;
    await waitFor(
      () => {
        const row = feed.querySelector(`[data-event-id="${target.uuid}"]`);
        if (row === null) throw new Error('target not drawn');
        const box = row.getBoundingClientRect();
        const view = scroller.getBoundingClientRect();
        expect(box.top).toBeGreaterThanOrEqual(view.top - 1);
        expect(box.top).toBeLessThan(view.bottom);
        expect(row.hasAttribute('data-selected')).toBe(true);
      },
      { timeout: 10_000 },
    );
  },
};

const small = run.slice(0, 3000);

/** The server's HTML (30 rows in normal flow), then hydrated in place. */
function ServerRendered() {
  const host = useRef<HTMLDivElement>(null);
  const [html] = useState(() =>
    renderToString(
      <div style={{ height: 480 }}>
        <Transcript events={small} aria-label="Server-rendered run" />
      </div>,
    ),
  );
  useEffect(() => {
    const el = host.current!;
    el.innerHTML = html;
    const root = hydrateRoot(
      el,
      <div style={{ height: 480 }}>
        <Transcript events={small} aria-label="Server-rendered run" />
      </div>,
    );
    return () => {
      // After this commit, not during it.
      setTimeout(() => root.unmount(), 0);
    };
  }, [html]);
  return page(<div ref={host} data-testid="ssr-host" />);
}

/** Server-rendered (`renderToString`), then hydrated with `hydrateRoot`. */
export const ServerRenderedThenHydrated: Story = {
  args: { events: small },
  render: () => <ServerRendered />,
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed', { name: 'Server-rendered run' });
    await waitFor(() => expect(feed.style.height).not.toBe(''), { timeout: 10_000 });
    await expect(feed.querySelectorAll('article').length).toBeLessThanOrEqual(100);
    await expect(feed.querySelector('article')!.getAttribute('aria-posinset')).toBe('1');
  },
};

// --- customising: a kind of our own -------------------------------------------

const T0 = Date.parse('2026-06-10T18:23:50Z');
const deploys: Event[] = [
  ...run.slice(0, 40),
  ...[0, 1, 2].map(
    (i) =>
      ({
        event: 'deploy',
        uuid: `deploy-${i}`,
        timestamp: new Date(T0 + 60_000 * (i + 1)).toISOString(),
        span_id: null,
        service: ['api', 'web', 'worker'][i],
        version: `1.4.${i}`,
        ok: i !== 2,
      }) as unknown as Event,
  ),
];

/** A describer for the app's own `deploy` events: their head (title, status). */
const describers = createDescriberRegistry();
describers.register('deploy', (event, ctx): EventDisplay => {
  const e = event as unknown as { service: string; version: string; ok: boolean };
  return {
    ...ctx.generic(event),
    kind: 'deploy',
    title: `Deploy ${e.service}`,
    subtitle: `version ${e.version}`,
    status: e.ok ? 'ok' : 'error',
  };
});

/** Their body: a small card instead of the generic JSON. */
function renderRowBody({ event }: RowBodyRenderProps) {
  if (event.event !== 'deploy') return undefined;
  const e = event as unknown as { service: string; version: string; ok: boolean };
  return (
    <p className="deploy-card" style={{ margin: '4px 0 4px 24px' }}>
      {e.ok ? '✅' : '❌'} <strong>{e.service}</strong> rolled out to <code>{e.version}</code>
    </p>
  );
}

/** A custom event kind: `describers` for its head, `renderRowBody` for its body. */
export const CustomEventKind: Story = {
  args: { events: deploys, describers, renderRowBody, openAt: 'end' },
  render: (args) => page(<div style={{ height: 480 }}>{<Transcript {...args} />}</div>),
  play: async ({ canvasElement }) => {
    const feed = await within(canvasElement).findByRole('feed');
    const row = await waitFor(() => {
      const r = feed.querySelector<HTMLElement>('[data-event-id="deploy-2"]');
      if (r === null) throw new Error('deploy row not drawn');
      return r;
    });
    await expect(row.querySelector('.skein-transcript__title')).toHaveTextContent('Deploy worker');
    await waitFor(() => expect(row.querySelector('.deploy-card')).toHaveTextContent('worker'));
    await expect(row.querySelector('.skein-transcript__status')).toHaveTextContent('error');
  },
};
