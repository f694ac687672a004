import { memo, useMemo, useState, type ReactNode } from 'react';
import { BudgetNotice, formatBytes, formatCount, useBudget } from '../budget.js';
import { sliceText } from '../text.js';
import type { RendererProps } from '../types.js';
import { PlainText } from './plain-text.js';
import { safeJson } from '../../../core/import/guards.js';

/** Characters of one string value shown before its own "show all". */
const STRING_LIMIT = 1_000;

/**
 * `application/json`: a collapsible tree. Only the root starts open; children
 * are created when their parent is expanded, and large objects and arrays show
 * `budget.items` entries per page ("Show 100 more"), so a 100k-key object
 * costs one page of DOM. Each expandable row is a `<button aria-expanded>`;
 * keys (which agents control too) are rendered as text, never as markup.
 *
 * JSON text (a string) is parsed when it fits the byte budget; over it, or
 * when it is not JSON, the text is shown as is.
 *
 * @example
 * declare const rest: Omit<RendererProps, 'data' | 'mimeType'>;
 * <JsonRenderer data={{ rows: [1, 2, 3] }} mimeType="application/json" {...rest} />
 */
export function JsonRenderer({ data, budget }: RendererProps) {
  const parsed = useMemo(() => parseJsonData(data, budget.bytes), [data, budget.bytes]);
  if (parsed.kind === 'text') {
    return (
      <div className="skein-json skein-json--text">
        {parsed.note ? (
          <BudgetNotice shown={0} total={parsed.text.length} unit="bytes">
            {parsed.note}
          </BudgetNotice>
        ) : null}
        <PlainText text={parsed.text} limit={budget.chars} />
      </div>
    );
  }
  return (
    <ul className="skein-json" aria-label="JSON value">
      <JsonEntry
        label={undefined}
        value={parsed.value}
        pageSize={budget.items}
        open
        ancestors={[]}
      />
    </ul>
  );
}

/**
 * Props of {@link ValueTree}.
 *
 * @example
 * declare const rows: { id: number }[];
 * const props: ValueTreeProps = { value: rows, summary: 'Array(2) of {id: number}', pageSize: 100 };
 */
export interface ValueTreeProps {
  /** An array or an object (not JSON text). */
  value: object;
  /** The one-line shape summary shown while closed (`Array(10000) of {id: number}`). */
  summary: string;
  /** The bounded preview under it while closed. */
  preview?: string;
  /** Children per "show more" page once open. */
  pageSize: number;
}

/**
 * A value as JupyterLab shows `application/json`, led by skein's shape
 * summary: closed, the summary and its bounded preview; opened (a button with
 * `aria-expanded`), the lazy JSON tree of the value itself — children are
 * created as they are expanded, paged, cycles marked. What `<Display value>`
 * shows for arrays and objects.
 *
 * @example
 * declare const rows: { id: number }[];
 * <ValueTree value={rows} summary="Array(10000) of {id: number}" pageSize={100} />
 */
export function ValueTree({ value, summary, preview, pageSize }: ValueTreeProps) {
  return (
    <ul className="skein-json skein-json--value" aria-label="Value">
      <JsonContainer
        label={undefined}
        value={value as Container}
        pageSize={pageSize}
        ancestors={[]}
        summary={summary}
        preview={preview}
      />
    </ul>
  );
}

type Parsed = { kind: 'value'; value: unknown } | { kind: 'text'; text: string; note?: string };

function parseJsonData(data: unknown, maxBytes: number): Parsed {
  if (typeof data !== 'string') return { kind: 'value', value: data };
  if (data.length > maxBytes) {
    return {
      kind: 'text',
      text: data,
      note: `JSON text of ${formatBytes(data.length)} is over the ${formatBytes(maxBytes)} limit: shown as text.`,
    };
  }
  try {
    return { kind: 'value', value: JSON.parse(data) as unknown };
  } catch {
    return { kind: 'text', text: data };
  }
}

type Container = Record<string, unknown> | unknown[];

function isContainer(value: unknown): value is Container {
  return typeof value === 'object' && value !== null;
}

interface EntryProps {
  label: string | undefined;
  value: unknown;
  pageSize: number;
  open?: boolean;
  /** Containers above this one: a JS value (not JSON text) may be cyclic. */
  ancestors: readonly object[];
  /** Replaces the `Array(3)` / `{3 keys}` label (the root of a value's tree). */
  summary?: string;
  /** Shown under the label while closed (a value's bounded preview). */
  preview?: string;
}

const JsonEntry = memo(function JsonEntry({ label, value, pageSize, open, ancestors }: EntryProps) {
  const key = label === undefined ? null : <span className="skein-json__key">{label}</span>;
  if (!isContainer(value)) {
    return (
      <li className="skein-json__leaf">
        {key}
        {key ? ': ' : null}
        <JsonPrimitive value={value} />
      </li>
    );
  }
  if (ancestors.includes(value)) {
    return (
      <li className="skein-json__leaf">
        {key}
        {key ? ': ' : null}
        <span className="skein-json__summary">[Circular]</span>
      </li>
    );
  }
  // Each open level is a few nested components, and React walks them
  // recursively when it commits: past MAX_TREE_DEPTH levels (JSON text parsed
  // here is not cut as events are) the rest is offered as text instead.
  if (ancestors.length >= MAX_TREE_DEPTH) {
    return <DeepLeaf label={key} value={value} limit={pageSize * 100} />;
  }
  return (
    <JsonContainer
      label={label}
      value={value}
      pageSize={pageSize}
      open={open}
      ancestors={ancestors}
    />
  );
});

/** Levels of the tree drawn as nested lists; deeper values are shown as JSON text on request. */
const MAX_TREE_DEPTH = 100;

/** A container past {@link MAX_TREE_DEPTH}: its summary, and its JSON text on request. */
function DeepLeaf({ label, value, limit }: { label: ReactNode; value: object; limit: number }) {
  const [text, setText] = useState<string | null>(null);
  return (
    <li className="skein-json__leaf">
      {label}
      {label ? ': ' : null}
      <span className="skein-json__summary" data-skein-cut="">
        {Array.isArray(value) ? `Array(${formatCount(value.length)})` : '{…}'} nested more than{' '}
        {MAX_TREE_DEPTH} levels
      </span>{' '}
      {text === null ? (
        <button
          type="button"
          className="skein-display__button"
          // `safeJson` says so instead of throwing where the text itself is too deep.
          onClick={() => setText(safeJson(value))}
        >
          Show as text
        </button>
      ) : (
        <PlainText text={text} limit={limit} />
      )}
    </li>
  );
}

function JsonContainer({
  label,
  value,
  pageSize,
  open: initiallyOpen = false,
  ancestors,
  summary: summaryText,
  preview,
}: EntryProps & { value: Container }) {
  const [open, setOpen] = useState(initiallyOpen);
  const keys = useMemo(() => (Array.isArray(value) ? undefined : Object.keys(value)), [value]);
  const size = keys ? keys.length : (value as unknown[]).length;
  const summary =
    summaryText ??
    (Array.isArray(value)
      ? `Array(${formatCount(size)})`
      : `{${formatCount(size)} ${size === 1 ? 'key' : 'keys'}}`);
  return (
    <li className="skein-json__node">
      <button
        type="button"
        className="skein-json__toggle"
        aria-expanded={size > 0 ? open : undefined}
        disabled={size === 0}
        onClick={() => setOpen((o) => !o)}
      >
        {label !== undefined ? <span className="skein-json__key">{label}</span> : null}
        {label !== undefined ? ': ' : null}
        <span className="skein-json__summary">
          {size === 0 && summaryText === undefined ? (keys ? '{}' : '[]') : summary}
        </span>
      </button>
      {!open && preview ? (
        <pre className="skein-json__preview" data-skein-preview="">
          {preview}
        </pre>
      ) : null}
      {open && size > 0 ? (
        <JsonChildren
          value={value}
          keys={keys}
          size={size}
          pageSize={pageSize}
          ancestors={[...ancestors, value]}
        />
      ) : null}
    </li>
  );
}

function JsonChildren({
  value,
  keys,
  size,
  pageSize,
  ancestors,
}: {
  value: Container;
  keys: string[] | undefined;
  size: number;
  pageSize: number;
  ancestors: readonly object[];
}) {
  const [count, setCount] = useState(Math.min(size, pageSize));
  const rows = [];
  for (let i = 0; i < count && i < size; i++) {
    const label = keys ? keys[i]! : String(i);
    const child = keys ? (value as Record<string, unknown>)[label] : (value as unknown[])[i];
    rows.push(
      <JsonEntry
        key={label}
        label={label}
        value={child}
        pageSize={pageSize}
        ancestors={ancestors}
      />,
    );
  }
  const remaining = size - count;
  return (
    <ul className="skein-json__children">
      {rows}
      {remaining > 0 ? (
        <li className="skein-json__more">
          <span>{formatCount(remaining)} more</span>{' '}
          <button
            type="button"
            className="skein-display__button"
            onClick={() => setCount((c) => c + pageSize)}
          >
            Show {formatCount(Math.min(pageSize, remaining))} more
          </button>
          {remaining > pageSize * 10 ? (
            <>
              {' '}
              <button
                type="button"
                className="skein-display__button"
                onClick={() => setCount((c) => c + pageSize * 10)}
              >
                Show {formatCount(pageSize * 10)} more
              </button>
            </>
          ) : null}
        </li>
      ) : null}
    </ul>
  );
}

function JsonPrimitive({ value }: { value: unknown }) {
  if (typeof value === 'string') return <JsonString value={value} />;
  if (value === null) return <span className="skein-json__null">null</span>;
  if (typeof value === 'number' || typeof value === 'bigint') {
    return <span className="skein-json__number">{String(value)}</span>;
  }
  if (typeof value === 'boolean')
    return <span className="skein-json__boolean">{String(value)}</span>;
  // undefined, functions, symbols: not JSON, but a JS value passed directly may hold them.
  return (
    <span className="skein-json__null">
      {typeof value === 'undefined' ? 'undefined' : String(value)}
    </span>
  );
}

function JsonString({ value }: { value: string }) {
  const { shown, total, hidden, showAll } = useBudget(value.length, STRING_LIMIT);
  const text = JSON.stringify(hidden ? sliceText(value, shown) : value);
  return (
    <span className="skein-json__string">
      {hidden ? `${text.slice(0, -1)}…"` : text}
      {hidden ? (
        <>
          {' '}
          <button type="button" className="skein-display__button" onClick={showAll}>
            Show all {formatCount(total)} characters
          </button>
        </>
      ) : null}
    </span>
  );
}
