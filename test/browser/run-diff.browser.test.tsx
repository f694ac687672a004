import { act, cleanup, render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import {
  EventStream,
  createSelectionStore,
  generateRun,
  generateRunVariant,
  type Event,
} from '../../src/index.js';
import { RunDiff } from '../../src/react.js';
import { run } from '../core/helpers/run-builder.js';
import '../../src/styles.css';

afterEach(() => cleanup());

/** Run A: a task of eight identical turns, then a test that passes. */
function runA(): Event[] {
  return run('a', (r) => {
    r.message('user', 'Fix the failing build');
    for (let i = 0; i < 8; i++)
      r.model(`step ${i}`, { calls: ['bash'] }).tool('bash', { cmd: `ls ${i}` }, `out ${i}`);
    r.model('run the tests', { calls: ['bash'] }).tool(
      'bash',
      { cmd: 'make test' },
      'all 12 passed',
    );
    r.score('C');
  });
}

/** Run B: the same, but the test command differs and fails, then one retry. */
function runB(): Event[] {
  return run('b', (r) => {
    r.message('user', 'Fix the failing build');
    for (let i = 0; i < 8; i++)
      r.model(`step ${i}`, { calls: ['bash'] }).tool('bash', { cmd: `ls ${i}` }, `out ${i}`);
    r.model('run the tests', { calls: ['bash'] }).tool(
      'bash',
      { cmd: 'make -j8 test' },
      '3 failed',
      {
        error: 'exit 2',
      },
    );
    r.model('retry', { calls: ['bash'] }).tool('bash', { cmd: 'make test' }, 'all 12 passed');
    r.score('I');
  });
}

function mount(node: ReactNode) {
  const { container } = render(<div style={{ height: 600, width: 1000 }}>{node}</div>);
  const grid = container.querySelector<HTMLElement>('[role="treegrid"]')!;
  const scroller = container.querySelector<HTMLElement>('.skein-run-diff__scroller')!;
  return { container, grid, scroller };
}

const bodyRows = (root: ParentNode) => [
  ...root.querySelectorAll<HTMLElement>('.skein-run-diff__body [role="row"]'),
];

describe('<RunDiff> in Chromium', () => {
  it('aligns two runs in two columns: folds, changes with a word diff, gaps', async () => {
    const { container, grid } = mount(
      <RunDiff a={runA()} b={runB()} names={['epoch 1', 'epoch 2']} />,
    );
    await expect.poll(() => bodyRows(grid).length).toBeGreaterThan(3);
    // The identical opening is folded into one row.
    const fold = grid.querySelector<HTMLElement>('[data-fold]')!;
    expect(fold.textContent).toMatch(/\d+ identical steps/);
    // B's extra turn (the failing -j8 test) is in B only; A's last turn then
    // pairs with B's retry: changed, its answer diffed word by word (jsdiff, lazy).
    const changed = bodyRows(grid).filter((r) => r.dataset.status === 'changed');
    expect(changed.length).toBeGreaterThan(0);
    await expect
      .poll(() =>
        [...grid.querySelectorAll('.skein-run-diff__words ins')].map((e) => e.textContent),
      )
      .toContain('retry');
    expect(
      [...grid.querySelectorAll('.skein-run-diff__words del')].map((e) => e.textContent),
    ).toContain('run the tests');
    // The retry is in B only: A's side of its rows is a gap.
    const onlyB = bodyRows(grid).filter((r) => r.dataset.status === 'only-b');
    expect(onlyB.length).toBeGreaterThan(0);
    expect(onlyB[0]!.querySelector('.skein-run-diff__gap')!.textContent).toBe('not in epoch 1');
    // The header states the deltas and where the runs diverge.
    const header = container.querySelector('.skein-run-diff__header')!;
    expect(header.textContent).toContain('score match C → I');
    expect(header.textContent).toContain('First divergence');
    // Both runs' swimlanes and the difference strip on the shared axis.
    await expect.poll(() => container.querySelectorAll('.skein-run-diff__lane').length).toBe(2);
    expect(
      container.querySelectorAll('.skein-run-diff__strip rect[data-status]').length,
    ).toBeGreaterThan(0);
    // ARIA: a grid with its row count and 3 columns.
    expect(grid.getAttribute('aria-colcount')).toBe('3');
    expect(Number(grid.getAttribute('aria-rowcount'))).toBe(bodyRows(grid).length + 1);
  });

  it('keyboard: Enter opens a fold; f, n and p move between differences', async () => {
    const { grid } = mount(<RunDiff a={runA()} b={runB()} />);
    await expect.poll(() => bodyRows(grid).length).toBeGreaterThan(3);
    const focused = () => document.activeElement as HTMLElement;
    // One Tab stop: the first row, a fold of the identical opening.
    expect(bodyRows(grid).filter((r) => r.tabIndex === 0)).toEqual([bodyRows(grid)[0]]);
    bodyRows(grid)[0]!.focus();
    expect(focused().dataset.fold).toBe('');
    const before = bodyRows(grid).length;
    await userEvent.keyboard('{Enter}');
    await expect.poll(() => bodyRows(grid).length).toBeGreaterThan(before);
    expect(grid.querySelector('[data-fold]')).toBeNull();
    // The focus moved to the fold's first step.
    await expect.poll(() => focused().dataset.index).toBe('0');
    expect(focused().dataset.status).toBe('same');
    await userEvent.keyboard('{ArrowDown}');
    await expect.poll(() => focused().dataset.index).toBe('1');
    await userEvent.keyboard('f');
    await expect.poll(() => focused().dataset.first).toBe('');
    const at = Number(focused().dataset.index);
    await userEvent.keyboard('n');
    await expect.poll(() => Number(focused().dataset.index)).toBeGreaterThan(at);
    expect(focused().dataset.status).not.toBe('same');
    await userEvent.keyboard('p');
    await expect.poll(() => Number(focused().dataset.index)).toBe(at);
    await userEvent.keyboard('{End}');
    const rowCount = Number(grid.getAttribute('aria-rowcount'));
    await expect.poll(() => Number(focused().dataset.index)).toBe(rowCount - 2);
    expect(bodyRows(grid).filter((r) => r.tabIndex === 0)).toEqual([focused()]);
  });

  it("a click selects both steps in the runs' selection stores", async () => {
    const selA = createSelectionStore();
    const selB = createSelectionStore();
    const a = runA();
    const b = runB();
    const { grid } = mount(<RunDiff a={a} b={b} selectionA={selA} selectionB={selB} />);
    await expect.poll(() => bodyRows(grid).length).toBeGreaterThan(3);
    const changed = bodyRows(grid).find((r) => r.dataset.status === 'changed')!;
    await userEvent.click(changed.querySelector('.skein-run-diff__label')!);
    expect(selA.getSnapshot().selected).toMatch(/^a-/);
    expect(selB.getSnapshot().selected).toMatch(/^b-/);
  });

  it('virtualizes: tens of rows in the DOM of thousands, End reaches the last', async () => {
    const a = generateRun({ seed: 34, events: 12_000, pendingRate: 0 });
    const b = generateRunVariant(a, { rate: 0.05 });
    const { grid, scroller } = mount(<RunDiff a={a} b={b} />);
    await expect.poll(() => grid.getAttribute('aria-busy'), { timeout: 60_000 }).toBe('false');
    await expect.poll(() => bodyRows(grid).length).toBeGreaterThan(5);
    expect(bodyRows(grid).length).toBeLessThan(120);
    expect(Number(grid.getAttribute('aria-rowcount'))).toBeGreaterThan(1000);
    // Opening the first fold moves the focus to its first step.
    // (Clicked near its start: the test page is narrower than the box.)
    await userEvent.click(grid.querySelector('[data-fold]')!, { position: { x: 20, y: 10 } });
    await expect.poll(() => (document.activeElement as HTMLElement).dataset.status).toBe('same');
    const total = Number(grid.getAttribute('aria-rowcount')) - 1;
    await userEvent.keyboard('{End}');
    await expect
      .poll(() => (document.activeElement as HTMLElement).dataset.index)
      .toBe(String(total - 1));
    expect(scroller.scrollTop).toBeGreaterThan(0);
    expect(bodyRows(grid).length).toBeLessThan(120);
  }, 120_000);

  it('follows run B while it is still running', async () => {
    const a = runA();
    const full = runB();
    const stream = new EventStream();
    for (const e of full.slice(0, 10)) stream.append(e);
    const { container, grid } = mount(<RunDiff a={a} b={stream} />);
    await expect.poll(() => container.textContent).toContain('(still running)');
    const before = Number(grid.getAttribute('aria-rowcount'));
    await act(async () => {
      for (const e of full.slice(10)) stream.append(e);
      stream.close();
    });
    await expect.poll(() => container.textContent).not.toContain('(still running)');
    await expect.poll(() => Number(grid.getAttribute('aria-rowcount'))).not.toBe(before);
    expect(container.querySelector('.skein-run-diff__header')!.textContent).toContain('C → I');
  });

  it('a step nested 20 deep keeps room for its name in a phone-wide column (indent at most a third)', async () => {
    const deep = (id: string, cmd: string) =>
      run(id, (r) => {
        const nest = (b: typeof r, level: number): void => {
          if (level === 0) {
            b.model('run it', { calls: ['bash'] }).tool('bash', { cmd }, 'ok');
            return;
          }
          b.span(`agent ${level}`, 'agent', (inner) => nest(inner, level - 1));
        };
        nest(r, 20);
      });
    const { container } = render(
      <div style={{ height: 600, width: 390 }}>
        <RunDiff a={deep('a', 'make test')} b={deep('b', 'make -j8 test')} />
      </div>,
    );
    const grid = container.querySelector<HTMLElement>('[role="treegrid"]')!;
    await expect
      .poll(() => grid.querySelectorAll('.skein-run-diff__step').length)
      .toBeGreaterThan(0);
    await expect
      .poll(() => container.querySelectorAll('[data-status="changed"]').length)
      .toBeGreaterThan(0);
    const steps = [...grid.querySelectorAll<HTMLElement>('.skein-run-diff__step')];
    const deepest = steps.filter((s) => s.textContent?.includes('bash'));
    expect(deepest.length).toBeGreaterThan(0);
    for (const cell of deepest) {
      const indent = parseFloat(getComputedStyle(cell).paddingInlineStart);
      // 20 levels at 12 px would be 246 px, wider than the column itself.
      expect(indent).toBeLessThan(cell.getBoundingClientRect().width / 2);
      const label = cell.querySelector<HTMLElement>('.skein-run-diff__label')!;
      expect(label.getBoundingClientRect().width).toBeGreaterThan(40);
    }
    expect(document.documentElement.scrollWidth).toBeLessThanOrEqual(
      document.documentElement.clientWidth,
    );
  });

  it('a closed word diff lays out its opening only; opened, all of it', async () => {
    const long = (word: string) => Array.from({ length: 400 }, (_, i) => `${word}${i}`).join(' ');
    const a = run('a', (r) => {
      r.model('go', { calls: ['bash'] }).tool('bash', { cmd: 'cat log' }, long('alpha'));
    });
    const b = run('b', (r) => {
      r.model('go', { calls: ['bash'] }).tool('bash', { cmd: 'cat log' }, long('beta'));
    });
    const { grid } = mount(<RunDiff a={a} b={b} overview={false} />);
    const words = () => grid.querySelector<HTMLElement>('.skein-run-diff__words');
    await expect.poll(() => words()?.querySelector('del, ins') ?? null).not.toBeNull();
    // Closed: at most 2,000 characters of each text (three lines never hold more).
    const closed = words()!.textContent!.length;
    expect(closed).toBeGreaterThan(1000);
    expect(closed).toBeLessThanOrEqual(4001);
    expect(words()!.textContent).not.toContain('beta399');
    const row = words()!.closest<HTMLElement>('[role="row"]')!;
    await userEvent.click(row.querySelector<HTMLElement>('.skein-run-diff__more')!);
    await expect.poll(() => words()!.textContent!.length).toBeGreaterThan(5000);
    expect(words()!.textContent).toContain('beta399');
  });

  it('a closed word diff lays out four lines of a text of many lines; opened, all of them', async () => {
    const lines = (word: string) => Array.from({ length: 60 }, (_, i) => `${word} ${i}`).join('\n');
    const a = run('a', (r) => {
      r.model('go', { calls: ['bash'] }).tool('bash', { cmd: 'cat log' }, lines('alpha'));
    });
    const b = run('b', (r) => {
      r.model('go', { calls: ['bash'] }).tool('bash', { cmd: 'cat log' }, lines('beta'));
    });
    const { grid } = mount(<RunDiff a={a} b={b} overview={false} />);
    const words = () => grid.querySelector<HTMLElement>('.skein-run-diff__words');
    await expect.poll(() => words()?.querySelector('del, ins') ?? null).not.toBeNull();
    // Closed, three lines show: the DOM holds no more than four lines of
    // each text (the word diff's parts, or both texts whole before it).
    const newlines = (text: string) => text.split('\n').length - 1;
    await expect.poll(() => words()!.querySelector('span') !== null).toBe(true);
    expect(newlines(words()!.textContent!)).toBeLessThanOrEqual(3);
    expect(words()!.textContent).not.toContain('beta 59');
    // Still clamped by the stylesheet: a fourth line is there to be cut.
    expect(words()!.scrollHeight).toBeGreaterThan(words()!.clientHeight);
    const row = words()!.closest<HTMLElement>('[role="row"]')!;
    await userEvent.click(row.querySelector<HTMLElement>('.skein-run-diff__more')!);
    await expect.poll(() => words()!.textContent).toContain('beta 59');
    expect(newlines(words()!.textContent!)).toBeGreaterThan(50);
  });
});
