import {
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type KeyboardEvent as ReactKeyboardEvent,
  type MouseEvent as ReactMouseEvent,
} from 'react';
import {
  createSelectionStore,
  layoutSwimlane,
  renderTimelineAscii,
  type SelectionStore,
  type Timeline,
} from '../../index.js';
import { useIsomorphicLayoutEffect } from '../list/use-isomorphic-layout-effect.js';
import { useStoreSelector } from '../use-store-selector.js';

/** Props of {@link AsciiSwimlane}. */
export interface AsciiSwimlaneProps {
  timeline: Timeline;
  /** The selection store shared with the other views (default: its own). */
  selection?: SelectionStore;
  onSelect?: (key: string | null) => void;
  /** Width in characters; default: what fits the container (measured). */
  width?: number;
  /** Characters assumed before measuring (and on the server). Default 100. */
  initialWidth?: number;
  'aria-label'?: string;
  className?: string;
  style?: CSSProperties;
}

/** `renderTimelineAscii` lines are `width − 2` long (inspect's quirk). */
const LINE_SLACK = 2;

/** The label column takes at most this share of a line; the bars keep the rest. */
const LABEL_SHARE = 0.3;

/**
 * `renderTimelineAscii` at `width`, its label column cut to a share of the
 * line: inspect's renderer sizes that column to the longest label, so long
 * agent names would leave a few cells of bar (or push the lines past the
 * box). Rendered wider by what the labels give up, then each label is cut
 * with an ellipsis: the bars keep the cells of the width asked for.
 */
function fitLabels(timeline: Timeline, width: number): { lines: string[]; full: string[] } {
  const first = renderTimelineAscii(timeline, { width }).split('\n');
  let column = 0;
  for (const line of first) column = Math.max(column, [...line].indexOf('│'));
  const cap = Math.max(8, Math.floor(width * LABEL_SHARE));
  if (column <= cap) return { lines: first, full: first };
  const full = renderTimelineAscii(timeline, { width: width + column - cap }).split('\n');
  const lines = full.map((line) => {
    const chars = [...line];
    const open = chars.indexOf('│');
    if (open < 0) return line;
    let label = chars.slice(0, open).join('').trimEnd();
    const length = [...label].length;
    if (length > cap - 1) label = [...label].slice(0, cap - 2).join('') + '…';
    return label + ' '.repeat(Math.max(0, cap - [...label].length)) + chars.slice(open).join('');
  });
  return { lines, full };
}

/**
 * The ASCII swimlane: `renderTimelineAscii` in a `<pre>` that
 * refits to its container's width (it measures a character cell of its own
 * font) and selects on click: a click on a row's bar selects the agent run
 * of that name at that time, through the same selection store as
 * `<Swimlane>`, `<SpanTree>` and `<Transcript>`. Rows are buttons, so
 * Enter selects the row's first run from the keyboard.
 *
 * @example
 * import 'skein/styles.css';
 * declare const selection: SelectionStore;
 * declare const runEvents: Event[];
 * <AsciiSwimlane timeline={buildTimeline(runEvents)} selection={selection} />
 */
export function AsciiSwimlane(props: AsciiSwimlaneProps) {
  const preRef = useRef<HTMLPreElement | null>(null);
  const cellRef = useRef<HTMLSpanElement | null>(null);
  const [measured, setMeasured] = useState<{ columns: number; cell: number } | null>(null);
  useIsomorphicLayoutEffect(() => {
    const pre = preRef.current;
    const probe = cellRef.current;
    if (pre === null || probe === null) return;
    const measure = () => {
      const cell = probe.getBoundingClientRect().width / 10;
      const style = getComputedStyle(pre);
      const inner =
        pre.clientWidth -
        parseFloat(style.paddingLeft || '0') -
        parseFloat(style.paddingRight || '0');
      if (!(cell > 0) || !(inner > 0)) return;
      const columns = Math.max(24, Math.floor(inner / cell) + LINE_SLACK);
      setMeasured((m) => (m?.columns === columns && m.cell === cell ? m : { columns, cell }));
    };
    measure();
    if (typeof ResizeObserver === 'undefined') return;
    const observer = new ResizeObserver(measure);
    observer.observe(pre);
    return () => observer.disconnect();
  }, []);
  const width = props.width ?? measured?.columns ?? props.initialWidth ?? 100;
  // `full`: the rendered lines with whole labels (what a line's runs are
  // found by); `lines`: what is shown, labels cut to fit.
  const { lines, full } = useMemo(() => fitLabels(props.timeline, width), [props.timeline, width]);
  const layout = useMemo(() => layoutSwimlane(props.timeline), [props.timeline]);

  const [ownStore] = useState(() => createSelectionStore());
  const store = props.selection ?? ownStore;
  const selected = useStoreSelector(store, (s) => s.selected);

  /** Span ids per line: the runs of that name (ASCII rows group by name). */
  const runsOfLine = useMemo(() => {
    const byName = new Map<string, { spanId: string; timeStart: number; timeEnd: number }[]>();
    for (const row of layout.rows)
      for (const bar of row.bars) {
        const key = bar.name.toLowerCase();
        const list = byName.get(key) ?? [];
        list.push(bar);
        byName.set(key, list);
      }
    return full.map((line) => {
      const name = line.slice(0, line.indexOf('│')).trim().replace(/^↳ /, '').toLowerCase();
      return byName.get(name) ?? [];
    });
  }, [layout, full]);

  const select = (key: string | null) => {
    store.focus(key);
    store.select(key);
    props.onSelect?.(key);
  };

  const onLineClick = (e: ReactMouseEvent<HTMLSpanElement>, lineIndex: number) => {
    const line = lines[lineIndex]!;
    const runs = runsOfLine[lineIndex]!;
    if (runs.length === 0) return;
    const bar = [...line];
    const open = bar.indexOf('│');
    const close = bar.lastIndexOf('│');
    const cell = measured?.cell ?? 0;
    const rect = e.currentTarget.getBoundingClientRect();
    const column = cell > 0 ? Math.floor((e.clientX - rect.left) / cell) : -1;
    let pick = runs[0]!;
    if (column > open && column < close) {
      const fraction = (column - open - 0.5) / (close - open - 1);
      const t = layout.timeStart + fraction * (layout.timeEnd - layout.timeStart);
      let best = Infinity;
      for (const run of runs) {
        const d = t < run.timeStart ? run.timeStart - t : t > run.timeEnd ? t - run.timeEnd : 0;
        if (d < best) {
          best = d;
          pick = run;
        }
      }
    }
    select(pick.spanId);
  };
  const onLineKey = (e: ReactKeyboardEvent<HTMLSpanElement>, lineIndex: number) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    const run = runsOfLine[lineIndex]![0];
    if (run === undefined) return;
    e.preventDefault();
    select(run.spanId);
  };

  return (
    <pre
      ref={preRef}
      className={`skein-ascii-swimlane${props.className ? ` ${props.className}` : ''}`}
      style={props.style}
      aria-label={props['aria-label'] ?? 'Swimlane (text)'}
      data-columns={width}
    >
      <span ref={cellRef} className="skein-ascii-swimlane__probe" aria-hidden="true">
        {'██████████'}
      </span>
      {lines.map((line, i) => {
        const runs = runsOfLine[i]!;
        const isSelected = selected !== null && runs.some((r) => r.spanId === selected);
        const cut = line !== full[i];
        return (
          <span
            key={i}
            className="skein-ascii-swimlane__line"
            title={cut ? full[i]!.slice(0, full[i]!.indexOf('│')).trim() : undefined}
            role="button"
            tabIndex={runs.length > 0 ? 0 : -1}
            aria-pressed={isSelected}
            data-selected={isSelected ? '' : undefined}
            onClick={(e) => onLineClick(e, i)}
            onKeyDown={(e) => onLineKey(e, i)}
          >
            {line}
            {'\n'}
          </span>
        );
      })}
    </pre>
  );
}
