import { memo, useState, type ReactNode } from 'react';
import {
  formatDuration,
  describeEvent,
  type DescriberRegistry,
  type Event,
  type EventDisplay,
  type Trust,
} from '../../index.js';
import { Display } from '../display/index.js';
import { formatCount, formatTokens } from '../../core/format.js';

/**
 * Descriptions of the rows seen lately, by event version. Bounded: scrolling
 * through a 1M-event run must not keep a million descriptions alive.
 */
const DESCRIBED_MAX = 2000;
const describedDefault = new Map<Event, EventDisplay>();
/** One cache per registry: the same event reads differently under another. */
const describedBy = new WeakMap<DescriberRegistry, Map<Event, EventDisplay>>();

function describeCached(event: Event, registry: DescriberRegistry | undefined): EventDisplay {
  let described = describedDefault;
  if (registry !== undefined) {
    described = describedBy.get(registry) ?? new Map();
    describedBy.set(registry, described);
  }
  let display = described.get(event);
  if (display !== undefined) {
    // Refresh its place in the LRU order.
    described.delete(event);
    described.set(event, display);
    return display;
  }
  display = describeEvent(event, { registry });
  described.set(event, display);
  if (described.size > DESCRIBED_MAX) described.delete(described.keys().next().value!);
  return display;
}

/** What a span header shows (primitives, so the row memo holds across appends). */
export interface SpanHeaderInfo {
  name: string;
  type: string | null;
  durationMs: number;
  tokens: number;
  /** Nodes inside that the kind filter shows (what opening the section shows). */
  events: number;
  /** Events inside that the kind filter hides, and which: `1 sample_init`. */
  hidden: number;
  hiddenKinds: string;
  status: 'running' | 'ok' | 'error';
  /** The span's turn was rolled back (core `isAbortedEvent` on its begin). */
  aborted: boolean;
}

/**
 * What a row-body override receives (`<Transcript renderRowBody>`).
 *
 * @example
 * import type { ReactElement } from 'react';
 * declare function DeployCard(props: { event: Event; title: string }): ReactElement;
 * const renderRowBody = ({ event, display }: RowBodyRenderProps) =>
 *   event.event === 'deploy' ? <DeployCard event={event} title={display.title} /> : undefined;
 */
export interface RowBodyRenderProps {
  readonly event: Event;
  /** The describer's view of it (title, status, bodies). */
  readonly display: EventDisplay;
  readonly trust: Trust;
}

/**
 * Draws the body of an event's row (below its head): return a node to
 * replace the default bodies, or `undefined` to keep them.
 */
export type RenderRowBody = (props: RowBodyRenderProps) => ReactNode | undefined;

export interface RowBodyProps {
  event: Event;
  titleId: string;
  /** Set for span headers. */
  span: SpanHeaderInfo | null;
  hasChildren: boolean;
  expanded: boolean;
  trust: Trust;
  /** The describer registry (default: the built-in one). */
  describers?: DescriberRegistry;
  renderRowBody?: RenderRowBody;
  /**
   * Leave the bodies out for now (while scrolling or streaming): the row
   * shows its head at once, and the bodies (markdown, JSON) are drawn once
   * this turns `false` (the row is then measured again). A row whose bodies
   * are drawn keeps them.
   */
  deferBodies?: boolean;
}

/**
 * One row's content. Memoized on the event version and a few primitives:
 * appending events, scrolling or moving focus never re-renders it, so its
 * markdown is parsed once per event version (OpenHands#16910).
 */
export const RowBody = memo(RowBodyImpl, sameRow);

function sameRow(a: RowBodyProps, b: RowBodyProps): boolean {
  if (
    a.event !== b.event ||
    a.titleId !== b.titleId ||
    a.hasChildren !== b.hasChildren ||
    a.expanded !== b.expanded ||
    a.trust !== b.trust ||
    a.describers !== b.describers ||
    a.renderRowBody !== b.renderRowBody
  )
    return false;
  // Only un-deferring matters: a row that drew its bodies keeps them.
  if (a.deferBodies === true && b.deferBodies !== true) return false;
  if (a.span === null || b.span === null) return a.span === b.span;
  return (
    a.span.name === b.span.name &&
    a.span.type === b.span.type &&
    Object.is(a.span.durationMs, b.span.durationMs) &&
    a.span.tokens === b.span.tokens &&
    a.span.events === b.span.events &&
    a.span.hidden === b.span.hidden &&
    a.span.hiddenKinds === b.span.hiddenKinds &&
    a.span.status === b.span.status &&
    a.span.aborted === b.span.aborted
  );
}

/** The mark of a rolled-back turn's row: shown, and left out of totals. */
function AbortedBadge() {
  return (
    <span
      className="skein-transcript__aborted"
      title="Rolled back by the agent: shown, not counted in totals"
    >
      rolled back
    </span>
  );
}

function RowBodyImpl({
  event,
  titleId,
  span,
  hasChildren,
  expanded,
  trust,
  describers,
  renderRowBody,
  deferBodies = false,
}: RowBodyProps) {
  const [bodiesShown, setBodiesShown] = useState(!deferBodies);
  if (!deferBodies && !bodiesShown) setBodiesShown(true);
  const display = describeCached(event, describers);
  if (span !== null) {
    const events = `${formatCount(span.events)} ${span.events === 1 ? 'event' : 'events'}`;
    const parts = [
      formatDuration(span.durationMs),
      span.tokens > 0 ? `${formatTokens(span.tokens)} tokens` : '',
      // What opening the section shows, and what it hides. A
      // section the filter empties says what is in it, not "0 events": the
      // rows beside it are not what it hides.
      span.events > 0 ? events : '',
      span.hidden > 0
        ? span.events > 0
          ? `${formatCount(span.hidden)} hidden (${span.hiddenKinds})`
          : `only hidden events (${span.hiddenKinds})`
        : span.events > 0
          ? ''
          : 'empty',
    ].filter((p) => p !== '');
    const meta = parts.join(' · ');
    const title = span.type !== null && span.type !== '' && span.type !== span.name;
    return (
      <div className="skein-transcript__span" data-status={span.status}>
        {/* The twisty toggles the section; the rest of the header selects the span. */}
        <span className="skein-transcript__twisty" data-toggle="" aria-hidden="true">
          {hasChildren && span.events > 0 ? (expanded ? '▾' : '▸') : '·'}
        </span>
        {/* The kind is part of the row's name (aria-labelledby), but only
            the span's name truncates. */}
        <span className="skein-transcript__title" id={titleId}>
          {title ? <span className="skein-transcript__kind">{span.type}</span> : null}
          <span className="skein-transcript__name" title={span.name}>
            {span.name}
          </span>
        </span>
        <span className="skein-transcript__meta" title={meta}>
          {meta}
        </span>
        {span.aborted ? <AbortedBadge /> : null}
        <span className="skein-transcript__status" data-status={span.status}>
          {span.status}
        </span>
      </div>
    );
  }
  const timing =
    display.endTime !== undefined && Number.isFinite(display.startTime)
      ? formatDuration(display.endTime - display.startTime)
      : '';
  const tokens = display.tokens !== undefined ? `${formatTokens(display.tokens.total)} tokens` : '';
  const meta = timing !== '' && tokens !== '' ? `${timing} ${tokens}` : timing || tokens;
  return (
    <div className="skein-transcript__event" data-status={display.status}>
      <div className="skein-transcript__head">
        <span className="skein-transcript__kind" data-kind={display.kind}>
          {display.kind}
        </span>
        <span className="skein-transcript__title" id={titleId} title={display.title}>
          {display.title}
        </span>
        {display.subtitle !== '' ? (
          <span className="skein-transcript__subtitle" title={display.subtitle}>
            {display.subtitle}
          </span>
        ) : null}
        {meta !== '' ? (
          <span className="skein-transcript__meta" title={meta}>
            {meta}
          </span>
        ) : null}
        {display.aborted === true ? <AbortedBadge /> : null}
        {display.status !== 'ok' ? (
          <span className="skein-transcript__status" data-status={display.status}>
            {display.status}
          </span>
        ) : null}
      </div>
      {bodiesShown && renderRowBody !== undefined ? (
        <CustomBody
          render={renderRowBody}
          event={event}
          display={display}
          trust={trust}
          fallback={defaultBodies(display, trust, event)}
        />
      ) : bodiesShown ? (
        defaultBodies(display, trust, event)
      ) : null}
    </div>
  );
}

function CustomBody({
  render,
  event,
  display,
  trust,
  fallback,
}: {
  render: RenderRowBody;
  event: Event;
  display: EventDisplay;
  trust: Trust;
  fallback: ReactNode;
}) {
  const custom = render({ event, display, trust });
  return <>{custom === undefined ? fallback : custom}</>;
}

/**
 * An event's bodies. Each is one output of the event across its versions
 * (`outputId`): a message re-emitted as it streams redraws its body in place,
 * parsing only what grew, instead of mounting it afresh per version; while
 * it is in flight (`pending`) its unfinished paragraph is drawn as text.
 */
function defaultBodies(display: EventDisplay, trust: Trust, event: Event): ReactNode {
  const streaming = event.pending === true;
  return display.bodies.map((bundle, i) => {
    const label = bundle.metadata?.['skein'] as { label?: unknown } | undefined;
    return (
      <div className="skein-transcript__body" key={i}>
        {typeof label?.label === 'string' ? (
          <div className="skein-transcript__label">{label.label}</div>
        ) : null}
        <Display
          bundle={bundle}
          trust={trust}
          outputId={`${event.uuid}\u0000${i}`}
          streaming={streaming}
        />
      </div>
    );
  });
}
