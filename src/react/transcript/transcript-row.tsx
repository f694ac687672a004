import {
  eventTreeNodeUuid,
  isAbortedEvent,
  spanSummary,
  type DescriberRegistry,
  type SectionCount,
  type EventTree,
  type TranscriptRows,
  type Trust,
} from '../../index.js';
import { layoutStyles } from './layout.js';
import { RowBody, type RenderRowBody, type SpanHeaderInfo } from './row.js';

export interface TranscriptRowProps {
  tree: EventTree;
  rows: TranscriptRows;
  /** Row index. */
  r: number;
  countOf: (node: number) => SectionCount;
  /** Id of the row's title (for `aria-labelledby`). */
  titleId: string;
  selected: boolean;
  /** One of the rows selected together (`selectable`). */
  inSelection: boolean;
  /** Id of the hidden note "In the selection" (its description when in it). */
  inSelectionId: string;
  hovered: boolean;
  match: boolean;
  currentMatch: boolean;
  tabbable: boolean;
  /** Laid out by the list engine (absolute) or, before it measured, in flow. */
  placed: boolean;
  measureRow: (el: HTMLElement | null) => void;
  /** Pointer over / out of the row (a shared selection store's hover), or none. */
  onHover: ((uuid: string | null) => void) | undefined;
  trust: Trust;
  describers: DescriberRegistry | undefined;
  renderRowBody: RenderRowBody | undefined;
  deferBodies: boolean;
}

/**
 * One row of the transcript's feed: an `<article>` (APG feed) for an event
 * or a section header (a span, with its summary and a toggle). Its position
 * is set by the list engine, not here.
 */
export function TranscriptRow(p: TranscriptRowProps) {
  const { tree, rows, r } = p;
  const node = rows.node[r]!;
  const event = tree.events[node]!;
  const s = tree.spanIndex[node]!;
  let spanInfo: SpanHeaderInfo | null = null;
  if (s >= 0) {
    const span = tree.spans[s]!;
    const summary = spanSummary(tree, node);
    const count = p.countOf(node);
    spanInfo = {
      name: span.name,
      type: span.type,
      durationMs: summary.durationMs,
      tokens: summary.tokens,
      events: count.shown,
      hidden: count.hidden,
      hiddenKinds: [...count.hiddenByKind].map(([k, n]) => `${n} ${k}`).join(', '),
      status: summary.status,
      aborted: isAbortedEvent(span.begin),
    };
  }
  // A row of a later copy of a span begun twice has a suffixed uuid.
  const uuid = eventTreeNodeUuid(tree, node);
  const depth = rows.depth[r]!;
  const onHover = p.onHover;
  return (
    <article
      ref={p.measureRow}
      data-index={r}
      data-event-id={uuid}
      data-kind={event.event}
      data-selected={p.selected ? '' : undefined}
      data-in-selection={p.inSelection ? '' : undefined}
      aria-describedby={p.inSelection ? p.inSelectionId : undefined}
      data-hovered={p.hovered ? '' : undefined}
      onPointerEnter={onHover !== undefined ? () => onHover(uuid) : undefined}
      onPointerLeave={onHover !== undefined ? () => onHover(null) : undefined}
      data-match={p.match ? '' : undefined}
      data-current-match={p.currentMatch ? '' : undefined}
      data-aborted={isAbortedEvent(event) ? '' : undefined}
      aria-posinset={r + 1}
      aria-setsize={rows.length}
      aria-labelledby={p.titleId}
      aria-expanded={rows.hasChildren[r] === 1 ? rows.expanded[r] === 1 : undefined}
      // Roving focus (APG feed: articles are focusable): one is tabbable.
      // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
      tabIndex={p.tabbable ? 0 : -1}
      className="skein-transcript__row"
      style={{
        ...(p.placed ? layoutStyles.row : layoutStyles.rowFlow),
        // Deep rows in a narrow transcript: each level takes at most 3 % of
        // its width, and all levels together at most 40 % (cqi: the
        // transcript's own width, a container), so the text keeps the rest.
        paddingInlineStart: `min(${Math.min(depth, 24)} * min(var(--skein-transcript-indent, 16px), 3cqi), 40cqi)`,
      }}
    >
      {depth > 24 ? <span className="skein-transcript__depth">depth {depth}</span> : null}
      {s >= 0 ? (
        <RowBody
          event={event}
          titleId={p.titleId}
          span={spanInfo}
          hasChildren={rows.hasChildren[r] === 1}
          expanded={rows.expanded[r] === 1}
          trust={p.trust}
          describers={p.describers}
        />
      ) : (
        <RowBody
          event={event}
          titleId={p.titleId}
          span={null}
          hasChildren={false}
          expanded={false}
          trust={p.trust}
          describers={p.describers}
          renderRowBody={p.renderRowBody}
          deferBodies={p.deferBodies}
        />
      )}
    </article>
  );
}
