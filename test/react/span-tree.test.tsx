import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { renderToString } from 'react-dom/server';
import { describe, expect, it, vi } from 'vitest';
import { EventStream, createSelectionStore, type Event } from '../../src/index.js';
import { SpanTree, useControllable } from '../../src/react.js';

const T0 = Date.parse('2026-06-10T18:23:50Z');
const ts = (s: number) => new Date(T0 + s * 1000).toISOString();
const begin = (id: string, parent: string | null, at = 0, type = 'agent'): Event =>
  ({
    event: 'span_begin',
    uuid: `b-${id}`,
    timestamp: ts(at),
    id,
    parent_id: parent,
    span_id: id,
    name: id,
    type,
  }) as Event;
const end = (id: string, at: number): Event =>
  ({ event: 'span_end', uuid: `x-${id}`, timestamp: ts(at), id, span_id: id }) as Event;
const toolError = (uuid: string, span: string): Event =>
  ({
    event: 'tool',
    uuid,
    timestamp: ts(2),
    span_id: span,
    id: uuid,
    function: 'bash',
    arguments: {},
    error: { type: 'timeout', message: 'timed out' },
  }) as unknown as Event;

// agent ─┬─ planner ── bash (failed)
//        └─ coder
// scorer
const run: Event[] = [
  begin('agent', null, 0),
  begin('planner', 'agent', 1),
  toolError('t1', 'planner'),
  end('planner', 3),
  begin('coder', 'agent', 3),
  end('coder', 8),
  end('agent', 9),
  begin('scorer', null, 9, 'scorers'),
  end('scorer', 10),
];

const rows = () => screen.getAllByRole('row').filter((r) => r.hasAttribute('aria-level'));
const row = (name: string) => rows().find((r) => r.dataset['key'] === name)!;
const grid = () => screen.getByRole('treegrid');

describe('<SpanTree> (jsdom)', () => {
  it('renders an APG treegrid: level, position, set size, expanded', () => {
    render(<SpanTree events={run} />);
    expect(grid().getAttribute('aria-label')).toBe('Span tree');
    expect(rows().map((r) => r.dataset['key'])).toEqual(['agent', 'planner', 'coder', 'scorer']);
    const agent = row('agent');
    expect(agent.getAttribute('aria-level')).toBe('1');
    expect(agent.getAttribute('aria-posinset')).toBe('1');
    expect(agent.getAttribute('aria-setsize')).toBe('2');
    expect(agent.getAttribute('aria-expanded')).toBe('true');
    const coder = row('coder');
    expect(coder.getAttribute('aria-level')).toBe('2');
    expect(coder.getAttribute('aria-posinset')).toBe('2');
    expect(coder.getAttribute('aria-setsize')).toBe('2');
    expect(coder.hasAttribute('aria-expanded')).toBe(false);
    // Roving tabindex: exactly one row is in the tab order.
    expect(rows().filter((r) => r.tabIndex === 0)).toHaveLength(1);
    // Columns: name + duration, tokens, start, timeline.
    expect(screen.getAllByRole('columnheader').map((c) => c.textContent)).toEqual([
      'Name',
      'Duration',
      'Tokens',
      'Start',
      'Timeline',
    ]);
    expect(within(row('coder')).getAllByRole('gridcell')[1]!.textContent).toBe('5.0 s');
    expect(within(row('coder')).getAllByRole('gridcell')[3]!.textContent).toBe('+3.0 s');
  });

  it('a collapsed row shows a descendant failed, with a count, and what it holds', () => {
    render(<SpanTree events={run} />);
    expect(row('planner').dataset['status']).toBe('error');
    expect(screen.queryByText('1 failed')).toBeNull();
    act(() => row('agent').focus());
    fireEvent.keyDown(row('agent'), { key: 'ArrowLeft' });
    expect(row('agent').getAttribute('aria-expanded')).toBe('false');
    expect(within(row('agent')).getByText('1 failed')).toBeTruthy();
    expect(within(row('agent')).getByText(/3 events/)).toBeTruthy();
    expect(rows().map((r) => r.dataset['key'])).toEqual(['agent', 'scorer']);
  });

  it('keyboard: arrows move focus, Right expands, Enter selects, * expands siblings', () => {
    const store = createSelectionStore();
    render(<SpanTree events={run} selection={store} />);
    act(() => row('agent').focus());
    expect(store.getSnapshot().focused).toBe('agent');
    fireEvent.keyDown(row('agent'), { key: 'ArrowDown' });
    expect(store.getSnapshot().focused).toBe('planner');
    expect(document.activeElement).toBe(row('planner'));
    expect(row('planner').tabIndex).toBe(0);
    expect(row('agent').tabIndex).toBe(-1);
    fireEvent.keyDown(row('planner'), { key: 'Enter' });
    expect(store.getSnapshot().selected).toBe('planner');
    expect(row('planner').getAttribute('aria-selected')).toBe('true');
    fireEvent.keyDown(row('planner'), { key: 'ArrowLeft' });
    expect(store.getSnapshot().focused).toBe('agent');
    fireEvent.keyDown(row('agent'), { key: 'ArrowLeft' });
    expect(rows()).toHaveLength(2);
    fireEvent.keyDown(row('agent'), { key: 'ArrowRight' });
    expect(rows()).toHaveLength(4);
    fireEvent.keyDown(row('agent'), { key: 'End' });
    expect(store.getSnapshot().focused).toBe('scorer');
    // Type-ahead.
    fireEvent.keyDown(row('scorer'), { key: 'c' });
    expect(store.getSnapshot().focused).toBe('coder');
    act(() => store.collapseAll());
    expect(rows()).toHaveLength(2);
    fireEvent.keyDown(row('scorer'), { key: '*' });
    expect(rows()).toHaveLength(4);
  });

  it('RTL swaps Left and Right', () => {
    render(<SpanTree events={run} dir="rtl" />);
    act(() => row('agent').focus());
    fireEvent.keyDown(row('agent'), { key: 'ArrowRight' });
    expect(row('agent').getAttribute('aria-expanded')).toBe('false');
    fireEvent.keyDown(row('agent'), { key: 'ArrowLeft' });
    expect(row('agent').getAttribute('aria-expanded')).toBe('true');
  });

  it('filters strict and loose, expand/collapse all from the toolbar', () => {
    render(<SpanTree events={run} />);
    const filter = screen.getByRole('searchbox', { name: /filter/i });
    fireEvent.change(filter, { target: { value: 'coder' } });
    expect(rows().map((r) => r.dataset['key'])).toEqual(['agent', 'coder']);
    expect(row('agent').hasAttribute('data-dim')).toBe(true);
    fireEvent.change(screen.getByRole('combobox', { name: 'Filter mode' }), {
      target: { value: 'strict' },
    });
    expect(rows().map((r) => r.dataset['key'])).toEqual(['coder']);
    fireEvent.change(filter, { target: { value: '' } });
    fireEvent.click(screen.getByRole('button', { name: 'Collapse all' }));
    expect(rows()).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Expand all' }));
    expect(rows()).toHaveLength(4);
  });

  it('hides columns and sets their widths from the Columns menu (a slider each)', () => {
    const onWidths = vi.fn();
    render(<SpanTree events={run} onColumnWidthsChange={onWidths} />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Tokens' }));
    expect(screen.getAllByRole('columnheader')).toHaveLength(4);
    // A hidden column's width cannot be set.
    expect(screen.getByRole('slider', { name: 'Tokens width' })).toHaveProperty('disabled', true);
    const duration = screen.getByRole('slider', { name: 'Duration width' });
    expect(duration.getAttribute('aria-valuetext')).toBe('80 px');
    fireEvent.change(duration, { target: { value: '90' } });
    expect(onWidths).toHaveBeenLastCalledWith(expect.objectContaining({ duration: 90 }));
    // The header's handles are for the pointer: no Tab stops, not in the a11y tree.
    expect(screen.queryAllByRole('separator')).toHaveLength(0);
  });

  it('live appends keep expansion and focus; aria-busy while building', async () => {
    const stream = new EventStream();
    stream.append(begin('agent', null, 0));
    stream.append(begin('a', 'agent', 1));
    const store = createSelectionStore();
    render(<SpanTree stream={stream} selection={store} />);
    act(() => row('a').focus());
    act(() => store.toggle('agent', false));
    await act(async () => {
      stream.append(begin('b', 'agent', 2));
      stream.append(begin('late', null, 3));
      await new Promise((r) => setTimeout(r, 20));
    });
    expect(rows().map((r) => r.dataset['key'])).toEqual(['agent', 'late']);
    expect(store.getSnapshot().focused).toBe('a');
    act(() => store.toggle('agent', true));
    expect(rows().map((r) => r.dataset['key'])).toEqual(['agent', 'a', 'b', 'late']);
    expect(grid().getAttribute('aria-busy')).toBe('false');
  });

  it('maps a key selected elsewhere (an event uuid) onto the row that shows it', () => {
    const store = createSelectionStore();
    render(<SpanTree events={run} selection={store} />);
    act(() => store.select('t1'));
    expect(row('planner').getAttribute('aria-selected')).toBe('true');
  });

  it('outline mode folds turns', () => {
    const model = (uuid: string, at: number): Event =>
      ({
        event: 'model',
        uuid,
        timestamp: ts(at),
        span_id: 'agent',
        model: 'gpt-x',
        input: [],
        tools: [],
        tool_choice: 'auto',
        config: {},
        output: { model: 'gpt-x', choices: [] },
      }) as unknown as Event;
    render(
      <SpanTree
        events={[begin('agent', null), model('m1', 1), model('m2', 2), end('agent', 3)]}
        defaultMode="outline"
      />,
    );
    expect(rows().map((r) => r.dataset['key'])).toEqual(['agent', 'turns:m1']);
    expect(within(row('turns:m1')).getByText('2 turns')).toBeTruthy();
  });

  it('renders on the server with rows and no DOM access', () => {
    const html = renderToString(<SpanTree events={run} />);
    expect(html).toContain('role="treegrid"');
    expect(html).toContain('data-key="coder"');
  });
});

describe('useControllable', () => {
  function Probe(props: { value?: number; onChange?: (n: number) => void }) {
    const [v, set] = useControllable(props.value, 1, props.onChange);
    return (
      <button type="button" onClick={() => set((x) => x + 1)}>
        {v}
      </button>
    );
  }

  it('uncontrolled keeps its own state and reports changes', () => {
    const onChange = vi.fn();
    render(<Probe onChange={onChange} />);
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('2');
    expect(onChange).toHaveBeenCalledWith(2);
  });

  it('controlled shows the prop and only reports', () => {
    const onChange = vi.fn();
    render(<Probe value={5} onChange={onChange} />);
    fireEvent.click(screen.getByRole('button'));
    expect(screen.getByRole('button').textContent).toBe('5');
    expect(onChange).toHaveBeenCalledWith(6);
  });
});

describe('<SpanTree> rolled-back turns (metadata.aborted)', () => {
  const aborted = <T extends Event>(e: T): T =>
    ({ ...e, metadata: { aborted: true } }) as unknown as T;
  // agent ── turn (rolled back) ── bash (failed, rolled back)
  const rolledBack: Event[] = [
    begin('agent', null, 0),
    aborted(begin('turn', 'agent', 1, 'turn')),
    aborted(toolError('t9', 'turn')),
    aborted(end('turn', 2)),
    end('agent', 3),
  ];

  it('marks the turn, keeps its events, and leaves its failure out of the totals', () => {
    render(<SpanTree events={rolledBack} />);
    const turn = row('turn');
    expect(turn.hasAttribute('data-aborted')).toBe(true);
    expect(within(turn).getByText('rolled back')).toBeTruthy();
    expect(row('agent').hasAttribute('data-aborted')).toBe(false);
    // Collapsed, the agent holds the turn's events but shows no failure.
    act(() => row('agent').focus());
    fireEvent.keyDown(row('agent'), { key: 'ArrowLeft' });
    expect(within(row('agent')).queryByText(/failed/)).toBeNull();
    expect(within(row('agent')).getByText(/events/)).toBeTruthy();
  });
});
