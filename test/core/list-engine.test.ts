// The list engine (ListEngine) driven directly in Node through a fake page:
// a scroller that clamps and rounds its scrollTop like a browser and fires a
// scroll event after it moved, rows whose real heights differ from the
// estimate, a row observer fired by hand, and a view that draws what
// `getView()` says and commits, again while the engine asks for it (what the
// React hook does inside one synchronous update).
import { MAX_SCROLL_SIZE } from '../../src/core/list/scroll-space.js';
import { markRowsContinued } from '../../src/core/list/carry.js';
import { describe, expect, it } from 'vitest';
import {
  ListEngine,
  type ListDom,
  type ListEngineOptions,
  type ListRow,
  type ListScroller,
} from '../../src/index.js';

class FakeScroller implements ListScroller {
  spacer = 0;
  /** A scroll event is owed (the position changed since the last one). */
  moved = false;
  #top = 0;
  constructor(public clientHeight: number) {}
  get scrollHeight(): number {
    return Math.max(this.spacer, this.clientHeight);
  }
  get scrollTop(): number {
    return this.#top;
  }
  set scrollTop(value: number) {
    const max = Math.max(0, this.scrollHeight - this.clientHeight);
    const next = Math.round(Math.min(Math.max(value, 0), max));
    if (next !== this.#top) this.moved = true;
    this.#top = next;
  }
}

class FakeRow implements ListRow {
  isConnected = true;
  /** Where the engine placed it (scroll space), px. */
  top = Number.NaN;
  constructor(
    public key: string,
    public index: number,
    public offsetHeight: number,
  ) {}
}

interface Rows {
  readonly keys: readonly string[];
}

/** A list of `keys` in a fake page, `heightOf(key)` tall each when drawn. */
function page(options: {
  keys: readonly string[];
  heightOf: (key: string) => number;
  estimate?: number;
  viewport?: number;
  measure?: boolean;
  pinned?: boolean;
}) {
  const scroller = new FakeScroller(options.viewport ?? 400);
  const drawn = new Map<string, FakeRow>();
  let resize: ((rows: readonly FakeRow[]) => void) | null = null;
  let userScrolls = 0;
  const dom: ListDom<FakeScroller, FakeRow> = {
    getScroller: () => scroller,
    readViewport: (el) => ({ height: el.clientHeight, problem: null }),
    sizeSpacer(el, size) {
      el.spacer = size;
      return true;
    },
    rowIndex: (row) => row.index,
    placeRow(row, top) {
      row.top = top;
    },
    observeViewport: () => () => {},
    observeRows(onResize) {
      resize = onResize;
      return { observe() {}, unobserve() {}, disconnect: () => void (resize = null) };
    },
  };
  let rows: Rows = { keys: options.keys };
  let pinned = options.pinned === true;
  const heightOf = options.heightOf;
  const estimate = options.estimate ?? 40;
  const estimateSize = () => estimate;
  const optionsNow = (): ListEngineOptions<FakeScroller, FakeRow> => ({
    count: rows.keys.length,
    rows,
    estimateSize,
    getKey: (i) => rows.keys[i]!,
    measure: options.measure,
    pinned,
    onUserScroll: () => userScrolls++,
    dom,
  });
  const engine = new ListEngine(optionsNow());
  let asked = false;
  engine.subscribe(() => (asked = true));
  let renders = 0;

  /** Draws and commits until the engine asks for nothing more, then delivers scroll events. */
  const settle = () => {
    for (let round = 0; round < 50; round++) {
      asked = false;
      renders++;
      engine.setOptions(optionsNow());
      const view = engine.getView();
      const keep = new Set<string>();
      for (const item of view.items) {
        keep.add(item.key);
        let row = drawn.get(item.key);
        if (row === undefined) {
          row = new FakeRow(item.key, item.index, heightOf(item.key));
          drawn.set(item.key, row);
          engine.measureRow(row);
        }
        row.index = item.index;
        // A list that does not measure draws its rows where the view says.
        if (options.measure === false) row.top = item.top;
      }
      for (const [key, row] of drawn) {
        if (keep.has(key)) continue;
        row.isConnected = false;
        drawn.delete(key);
      }
      engine.commit();
      if (asked) continue;
      // The browser's scroll event after a move (the engine's or the user's).
      if (scroller.moved) {
        scroller.moved = false;
        engine.sync();
        if (asked) continue;
      }
      return;
    }
    throw new Error('the list never settled');
  };

  const api = {
    engine,
    scroller,
    drawn,
    get renders() {
      return renders;
    },
    get userScrolls() {
      return userScrolls;
    },
    /** The row's top relative to the viewport's, or null when not drawn. */
    topOf(key: string): number | null {
      const row = drawn.get(key);
      return row === undefined ? null : row.top - scroller.scrollTop;
    },
    /** The user scrolls to `top`. */
    scrollTo(top: number) {
      scroller.scrollTop = top;
      scroller.moved = false;
      engine.sync();
      settle();
    },
    setRows(keys: readonly string[], continued = 0) {
      const next = { keys };
      if (continued > 0) markRowsContinued(next, rows, continued);
      rows = next;
      settle();
    },
    setPinned(value: boolean) {
      pinned = value;
      settle();
    },
    /** Drawn rows changed their height (images loaded, "show all"). */
    grow(keys: readonly string[], by: number) {
      const rowsResized: FakeRow[] = [];
      for (const key of keys) {
        const row = drawn.get(key);
        if (row === undefined) continue;
        row.offsetHeight += by;
        rowsResized.push(row);
      }
      resize?.(rowsResized);
      settle();
    },
    settle,
  };
  engine.attach();
  settle();
  return api;
}

const keysOf = (n: number, prefix = 'k') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);
/** Heights from 24 to 180 px, a fixed function of the key. */
const varied = (key: string) => {
  let h = 0;
  for (let i = 0; i < key.length; i++) h = (h * 31 + key.charCodeAt(i)) >>> 0;
  return 24 + (h % 157);
};

describe('ListEngine: first view and scrolling', () => {
  it('draws the rows covering the viewport plus overscan, measured, in place', () => {
    const p = page({ keys: keysOf(1000), heightOf: () => 30, estimate: 30 });
    const view = p.engine.getView();
    expect(view.ready).toBe(true);
    // 400 px of 30 px rows: rows 0..13 visible, 4 more below.
    expect(view.items.map((i) => i.index)).toEqual(Array.from({ length: 18 }, (_, i) => i));
    expect(view.scrollSize).toBe(30_000);
    expect(p.scroller.spacer).toBe(30_000);
    expect(p.topOf('k3')).toBe(90);
    p.scrollTo(3000);
    expect(p.topOf('k100')).toBe(0);
    expect(p.userScrolls).toBe(1);
  });

  it('keeps the row at the top still while the rows it brings in are measured (scrolling up)', () => {
    const p = page({ keys: keysOf(2000), heightOf: varied });
    const bottom = p.scroller.scrollHeight;
    p.scrollTo(bottom);
    // Scroll up in steps smaller than the overscan: rows above come in at
    // the estimate and measure different; the row that was at the top must
    // move by the scroll and nothing else.
    for (let step = 0; step < 40; step++) {
      const view = p.engine.getView();
      const topRow = view.heights.rowAt(view.contentOffset);
      const key = `k${topRow}`;
      const before = p.topOf(key)!;
      p.scrollTo(p.scroller.scrollTop - 60);
      const moved = p.topOf(key);
      expect(moved).not.toBeNull();
      expect(Math.abs(moved! - (before + 60))).toBeLessThanOrEqual(1);
    }
  });
});

describe('ListEngine: anchoring', () => {
  it('keeps the row in view where it is when rows are inserted above it', () => {
    const keys = keysOf(1000);
    const p = page({ keys, heightOf: varied });
    p.scrollTo(20_000);
    const view = p.engine.getView();
    const key = `k${view.heights.rowAt(view.contentOffset + 100)}`;
    const before = p.topOf(key)!;
    // 50 new rows at the top, then 3 more.
    p.setRows([...keysOf(50, 'n'), ...keys]);
    expect(p.topOf(key)).toBeCloseTo(before, 0);
    p.setRows([...keysOf(3, 'm'), ...keysOf(50, 'n'), ...keys]);
    expect(p.topOf(key)).toBeCloseTo(before, 0);
  });

  it('keeps the row in view still when rows above the viewport change height', () => {
    const p = page({ keys: keysOf(500), heightOf: varied, estimate: 60 });
    p.scrollTo(9_000);
    const view = p.engine.getView();
    const first = view.heights.rowAt(view.contentOffset);
    const key = `k${first + 1}`;
    const before = p.topOf(key)!;
    // The overscan rows above the viewport grow by 100 px each, then shrink.
    const above = view.items.filter((i) => i.index < first).map((i) => i.key);
    expect(above.length).toBeGreaterThan(0);
    p.grow(above, 100);
    expect(p.topOf(key)).toBe(before);
    p.grow(above, -60);
    expect(p.topOf(key)).toBe(before);
    // A row below the viewport's top that grows pushes only what is below it.
    const below = `k${first + 3}`;
    const belowBefore = p.topOf(below)!;
    p.grow([`k${first + 2}`], 50);
    expect(p.topOf(key)).toBe(before);
    expect(p.topOf(below)).toBe(belowBefore + 50);
  });
});

describe('ListEngine: jumps', () => {
  it('lands a row navigated to exactly where asked, and holds it while rows around it are measured', () => {
    const p = page({ keys: keysOf(10_000), heightOf: varied, estimate: 50 });
    for (const [index, align] of [
      [7000, 'center'],
      [120, 'start'],
      [9999, 'end'],
      [4321, 'auto'],
    ] as const) {
      // Aligned by the height known when asked (an estimate, learned from
      // the rows measured so far), then held there by its top.
      const known = p.engine.getView().heights.size(index);
      expect(p.engine.scrollToIndex(index, align)).toBe(true);
      p.settle();
      const key = `k${index}`;
      const at = p.topOf(key)!;
      const expected = align === 'center' ? (400 - known) / 2 : align === 'start' ? 0 : 400 - known;
      if (align !== 'auto') expect(Math.abs(at - expected)).toBeLessThanOrEqual(1);
      else expect(at >= 0 && at < 400).toBe(true);
      // Rows around it change height: it stays.
      const around = p.engine
        .getView()
        .items.map((i) => i.key)
        .filter((k) => k !== key);
      p.grow(around, 37);
      expect(Math.abs(p.topOf(key)! - at)).toBeLessThanOrEqual(1);
    }
    expect(p.engine.scrollToIndex(10_000)).toBe(false);
  });

  it('lets go of the row navigated to once the user scrolls', () => {
    const p = page({ keys: keysOf(1000), heightOf: varied });
    p.engine.scrollToIndex(600, 'start');
    p.settle();
    expect(p.topOf('k600')).toBe(0);
    const scrolls = p.userScrolls;
    p.scrollTo(p.scroller.scrollTop + 500);
    expect(p.userScrolls).toBe(scrolls + 1);
    expect(p.topOf('k600') ?? -Infinity).toBeLessThan(-400);
  });
});

describe('ListEngine: following the end', () => {
  it('stays at the end while rows are appended and measured', () => {
    let keys = keysOf(100);
    const p = page({ keys, heightOf: varied, pinned: true });
    const atEnd = () =>
      Math.abs(p.scroller.scrollTop - (p.scroller.scrollHeight - p.scroller.clientHeight)) < 1;
    expect(atEnd()).toBe(true);
    const last = (n: number) => `k${n - 1}`;
    expect(p.topOf(last(100))! + varied(last(100))).toBeCloseTo(400, 6);
    for (let batch = 0; batch < 30; batch++) {
      const n = keys.length;
      keys = keysOf(n + 7);
      p.setRows(keys, n);
      expect(atEnd()).toBe(true);
      expect(p.topOf(last(keys.length))! + varied(last(keys.length))).toBeCloseTo(400, 6);
    }
    // The last row grows (its body loaded): still the end.
    p.grow([last(keys.length)], 80);
    expect(atEnd()).toBe(true);
    expect(p.topOf(last(keys.length))! + varied(last(keys.length)) + 80).toBeCloseTo(400, 6);
  });

  it('stops following when unpinned: appended rows do not move the view', () => {
    let keys = keysOf(300);
    const p = page({ keys, heightOf: varied, pinned: true });
    p.setPinned(false);
    p.scrollTo(p.scroller.scrollTop - 1000);
    const view = p.engine.getView();
    const key = `k${view.heights.rowAt(view.contentOffset + 50)}`;
    const before = p.topOf(key)!;
    const n = keys.length;
    keys = keysOf(n + 40);
    p.setRows(keys, n);
    expect(p.topOf(key)).toBe(before);
  });
});

describe('ListEngine: 1,000,000 rows, past the browser element-height limit', () => {
  it('scales the scroll space, reaches the last row, and lands jumps exactly', () => {
    const n = 1_000_000;
    const keys = keysOf(n);
    const p = page({ keys, heightOf: () => 40, measure: false });
    const view = p.engine.getView();
    expect(view.space.contentSize).toBe(40 * n);
    expect(view.scrollSize).toBe(MAX_SCROLL_SIZE);
    expect(view.space.scale).toBeGreaterThan(2);
    // The scrollbar's end shows the last row at the bottom.
    p.scrollTo(p.scroller.scrollHeight);
    expect(p.topOf(`k${n - 1}`)! + 40).toBe(400);
    // Jumps land exactly despite the scale.
    for (const index of [123_456, 500_000, 999_000]) {
      p.engine.scrollToIndex(index, 'start');
      p.settle();
      expect(Math.abs(p.topOf(`k${index}`)!)).toBeLessThan(1);
    }
    // Few rows drawn whatever the count.
    expect(p.drawn.size).toBeLessThan(25);
  });

  it('keeps the row in view still in a scaled space while rows above are measured', () => {
    const n = 1_000_000;
    const p = page({ keys: keysOf(n), heightOf: varied, estimate: 40 });
    expect(p.engine.getView().space.scale).toBeGreaterThan(1);
    p.scrollTo(7_000_000);
    const view = p.engine.getView();
    const first = view.heights.rowAt(view.contentOffset);
    const key = `k${first + 1}`;
    const before = p.topOf(key)!;
    const above = view.items.filter((i) => i.index < first).map((i) => i.key);
    p.grow(above, 300);
    // One scroll pixel is `scale` content pixels: the browser's whole
    // pixels leave the row at most one scroll pixel off.
    expect(Math.abs(p.topOf(key)! - before)).toBeLessThanOrEqual(view.space.scale);
    expect(p.engine.getView().scrollSize).toBe(MAX_SCROLL_SIZE);
  });
});
