// <Swimlane> drill-in and branches in Chromium (issue 18): double-click or
// the "Open" button drills into a sub-agent, breadcrumbs and Backspace lead
// back out, the drill is controllable, and branches show on demand.
import { act, cleanup, render } from '@testing-library/react';
import { userEvent } from 'vitest/browser';
import { afterEach, describe, expect, it } from 'vitest';
import { createSelectionStore } from '../../src/index.js';
import { Swimlane } from '../../src/react.js';
import { nestedTimeline } from '../../stories/swimlane-fixtures.js';
import '../../src/styles.css';

afterEach(() => cleanup());

function mount(extra: Record<string, unknown> = {}) {
  const drills: (string | null)[] = [];
  const ranges: unknown[] = [];
  const selection = createSelectionStore();
  const utils = render(
    <div style={{ width: 900, height: 400 }}>
      <Swimlane
        timeline={nestedTimeline()}
        selection={selection}
        onDrillChange={(id) => drills.push(id)}
        onRangeChange={(r) => ranges.push(r)}
        {...extra}
      />
    </div>,
  );
  const root = utils.container.querySelector<HTMLElement>('.skein-swimlane')!;
  return { ...utils, root, drills, ranges, selection };
}

const crumbs = (root: HTMLElement) =>
  [...root.querySelectorAll('nav[aria-label="Drill path"] li')].map((li) => li.textContent);
const rowLabels = (root: HTMLElement) =>
  [...root.querySelectorAll('.skein-swimlane__row')].map((r) => r.getAttribute('data-key'));
const bar = (root: HTMLElement, id: string) =>
  root.querySelector<SVGRectElement>(`rect.skein-swimlane__bar[data-span-id="${id}"]`);

describe('<Swimlane> drill-in in Chromium', () => {
  it('drills into a sub-agent on double-click and back out through the breadcrumbs', async () => {
    const { root, drills, ranges } = mount();
    expect(crumbs(root)).toEqual(['main']);
    expect(rowLabels(root)).toContain('main/planner/worker');
    const planner = bar(root, 'planner-1')!;
    expect(planner).not.toBeNull();
    await userEvent.dblClick(planner);
    expect(drills).toEqual(['planner-1']);
    expect(ranges.at(-1)).toBeNull();
    expect(crumbs(root)).toEqual(['main', 'planner']);
    expect(root.querySelector('[aria-current="location"]')!.textContent).toBe('planner');
    // The planner is the root row now; only its own sub-agents are drawn.
    expect(rowLabels(root)[0]).toBe('planner');
    const ids = [...root.querySelectorAll('rect.skein-swimlane__bar')].map((b) =>
      b.getAttribute('data-span-id'),
    );
    expect(ids.filter((id) => id!.startsWith('planner-1/')).length).toBe(6);
    expect(ids.some((id) => id!.startsWith('planner-0'))).toBe(false);

    await userEvent.click(root.querySelector<HTMLButtonElement>('nav button')!);
    expect(drills).toEqual(['planner-1', null]);
    expect(crumbs(root)).toEqual(['main']);
    expect(bar(root, 'planner-0')).not.toBeNull();
  });

  it('opens the selected span from the keyboard and Backspace goes back out', async () => {
    const { root, drills, selection } = mount();
    expect(root.querySelector('.skein-swimlane__open')).toBeNull();
    act(() => selection.select('planner-2'));
    const open = root.querySelector<HTMLButtonElement>('.skein-swimlane__open')!;
    expect(open.getAttribute('aria-label')).toBe('Open planner');
    open.focus();
    await userEvent.keyboard('{Enter}');
    expect(drills).toEqual(['planner-2']);
    expect(crumbs(root)).toEqual(['main', 'planner']);
    // A leaf sub-agent has nothing to open.
    act(() => selection.select('planner-2/agent-0'));
    expect(root.querySelector('.skein-swimlane__open')).toBeNull();
    root.focus();
    await userEvent.keyboard('{Backspace}');
    expect(drills).toEqual(['planner-2', null]);
    expect(crumbs(root)).toEqual(['main']);
  });

  it('follows a controlled drill and only reports changes', async () => {
    const { root, drills, rerender } = mount({ drill: 'planner-0' });
    expect(crumbs(root)).toEqual(['main', 'planner']);
    await userEvent.click(root.querySelector<HTMLButtonElement>('nav button')!);
    expect(drills).toEqual([null]);
    // Controlled: still drilled until the prop changes.
    expect(crumbs(root)).toEqual(['main', 'planner']);
    rerender(
      <div style={{ width: 900, height: 400 }}>
        <Swimlane timeline={nestedTimeline()} drill="nowhere" />
      </div>,
    );
    // An id not in the run shows the whole run.
    expect(crumbs(root)).toEqual(['main']);
  });
});

describe('<Swimlane> branches on demand in Chromium', () => {
  it('hides branches until the toggle is pressed, then shows their rows and back', async () => {
    const { root } = mount();
    const toggle = root.querySelector<HTMLButtonElement>('.skein-swimlane__toggle')!;
    expect(toggle.textContent).toBe('Branches');
    expect(toggle.getAttribute('aria-pressed')).toBe('false');
    expect(root.querySelector('.skein-swimlane__row[data-kind="branch"]')).toBeNull();
    toggle.focus();
    await userEvent.keyboard('{Enter}');
    expect(toggle.getAttribute('aria-pressed')).toBe('true');
    const branchRow = root.querySelector('.skein-swimlane__row[data-kind="branch"]')!;
    expect(branchRow).not.toBeNull();
    expect(branchRow.textContent).toContain('retry');
    await userEvent.click(toggle);
    expect(root.querySelector('.skein-swimlane__row[data-kind="branch"]')).toBeNull();
  });

  it('starts with branches shown from defaultShowBranches and reports toggles', async () => {
    const changes: boolean[] = [];
    const { root } = mount({
      defaultShowBranches: true,
      onShowBranchesChange: (v: boolean) => changes.push(v),
    });
    expect(root.querySelector('.skein-swimlane__row[data-kind="branch"]')).not.toBeNull();
    await userEvent.click(root.querySelector<HTMLButtonElement>('.skein-swimlane__toggle')!);
    expect(changes).toEqual([false]);
  });

  it('has no toolbar in a compact tile', () => {
    const { root } = mount({ compact: true });
    expect(root.querySelector('.skein-swimlane__toolbar')).toBeNull();
  });
});
