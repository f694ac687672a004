// One run's linked views: <SpanTree> and <Transcript> on one selection store
// (and one tree feed), in resizable panes, with the swimlane below. A loaded
// log can be replayed: <Player> plays the run into a stream of its own that
// the same three views show, on the same selection store (its playhead is
// the swimlane's). The selected event round-trips through `#event=`.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import {
  createEventTreeFeed,
  createSelectionStore,
  eventTreeIndexOf,
  type EventStream,
  type EventTree,
  type SelectionStore,
  type Timeline,
} from '../src/index.js';
import {
  Player,
  SpanTree,
  Transcript,
  useReplayPlayer,
  useStoreSelector,
  type TranscriptHandle,
} from '../src/react.js';
import { NARROW, Split, useElementSize } from './panes.js';
import { TimelineSlot } from './slots.js';
import { Tabs, type ViewTab } from './tabs.js';

export interface RunViewProps {
  stream: EventStream;
  /** A live run opens at its end and follows it; a log opens at its start. */
  live?: boolean;
  /** The event to show first (`#event=`). */
  initialEvent?: string | null;
  /** Go to this event (a new object each time: the diagnostics panel's links). */
  navigate?: { readonly uuid: string; readonly n: number } | null;
  /** Called with the selected event's uuid (to write `#event=`). */
  onEventChange?: (uuid: string | null) => void;
  /**
   * The log is still loading: the timeline waits for the end. `<Swimlane>`
   * lays out the whole run again at every tree snapshot it gets, which on a
   * 300k-event log held the page for seconds while rows streamed in (issue
   * 22; `viewer.open.*` in bench/browser). A live run is never "loading".
   */
  loading?: boolean;
  /**
   * The run's timeline when the loader built it (a loaded log; `'pending'`
   * while the page rebuilds it in slices). Without it the swimlane builds
   * the timeline from the tree feed in the task that mounts it, over a
   * second on a 300k-event log (issue 22).
   */
  timeline?: Timeline | 'pending' | null;
}

/** The uuid of the event that shows node `key` in the transcript (a span's begin event). */
export function eventOfKey(tree: EventTree, key: string | null): string | null {
  if (key === null) return null;
  const i = eventTreeIndexOf(tree, key);
  return i >= 0 ? tree.events[i]!.uuid : key;
}

export function RunView(props: RunViewProps) {
  const { stream, live = false, loading = false, initialEvent = null } = props;
  const selection = useMemo(
    () => createSelectionStore(initialEvent ? { selected: initialEvent } : {}),
    // A new run (stream) gets a new store; the initial event is read once per run.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [stream],
  );
  const [replaying, setReplaying] = useState(false);
  // Only a whole run replays: not a live one, not one still loading.
  const canReplay = !live && !loading && TimelineSlot !== null;
  if (replaying && canReplay)
    return <ReplayRun {...props} selection={selection} onExit={() => setReplaying(false)} />;
  return (
    <LinkedViews
      {...props}
      selection={selection}
      controls={
        canReplay ? (
          <div className="viewer-timeline-bar">
            <button
              type="button"
              className="viewer-button"
              onClick={() => setReplaying(true)}
              data-testid="replay-start"
            >
              Replay
            </button>
          </div>
        ) : null
      }
    />
  );
}

/** The run replayed: the player's stream in the same views, its controls above the timeline. */
function ReplayRun(props: RunViewProps & { selection: SelectionStore; onExit: () => void }) {
  const { stream, selection, onExit } = props;
  const events = useMemo(() => stream.toArray(), [stream]);
  // Opens at the end (the whole run, as before the switch); Home or the
  // scrubber go back.
  const player = useReplayPlayer(events, { selection, initial: 'end' });
  const shown = useStoreSelector(player, (s) => s.stream);
  return (
    <LinkedViews
      {...props}
      stream={shown}
      replay
      controls={
        <div className="viewer-timeline-bar">
          <div className="viewer-timeline-player">
            <Player player={player} aria-label="Replay" />
          </div>
          <button
            type="button"
            className="viewer-button"
            onClick={onExit}
            data-testid="replay-exit"
          >
            Exit replay
          </button>
        </div>
      }
    />
  );
}

interface LinkedViewsProps extends RunViewProps {
  selection: SelectionStore;
  /** Above the timeline: the replay button, or the player. */
  controls: ReactNode;
  /** The stream is a replay's (it grows and restarts as the player moves). */
  replay?: boolean;
}

function LinkedViews({
  stream,
  live = false,
  initialEvent = null,
  navigate = null,
  onEventChange,
  loading = false,
  timeline = null,
  selection,
  controls,
  replay = false,
}: LinkedViewsProps) {
  // A stream's feed pauses when its last view leaves and needs no dispose
  // (disposing in an effect cleanup would end it under StrictMode's re-run).
  const feed = useMemo(() => createEventTreeFeed(stream), [stream]);
  const tree = useStoreSelector(feed, (s) => s.tree);
  const selected = useStoreSelector(selection, (s) => s.selected);
  const uuid = eventOfKey(tree, selected);
  const onSelect = useCallback((id: string | null) => selection.select(id), [selection]);

  // The layout follows the run's own width (a sidebar beside it counts):
  // side by side where the views fit, one tab each where they do not. Views
  // mount once it is measured, before the first paint.
  const [box, size] = useElementSize<HTMLDivElement>();
  const narrow = size !== null && size.width < NARROW;
  const [tab, setTab] = useState<string>('transcript');

  const transcript = useRef<TranscriptHandle>(null);
  const opened = useRef(false);
  useEffect(() => {
    // Once per run, when the transcript is first there: later selections
    // come from the views.
    if (opened.current || size === null) return;
    opened.current = true;
    if (initialEvent && !replay)
      void transcript.current?.scrollToEvent(initialEvent, { focus: false });
  }, [size, initialEvent, replay]);

  useEffect(() => {
    if (navigate) void transcript.current?.scrollToEvent(navigate.uuid);
  }, [navigate]);

  // On a narrow screen a span or bar chosen in the tree or the timeline is
  // shown where it can be read: the transcript's tab opens on it.
  useEffect(() => {
    if (!narrow) return;
    let last = selection.getSnapshot().selected;
    return selection.subscribe(() => {
      const now = selection.getSnapshot().selected;
      if (now === last) return;
      last = now;
      if (now !== null) setTab('transcript');
    });
  }, [narrow, selection]);

  const report = useRef(onEventChange);
  report.current = onEventChange;
  const lastReported = useRef<string | null | undefined>(undefined);
  useEffect(() => {
    // Before the selected node has loaded, `uuid` is the key itself: report
    // only what the tree resolved, or a plain event uuid.
    if (lastReported.current === uuid) return;
    lastReported.current = uuid;
    report.current?.(uuid);
  }, [uuid]);

  const treeView = (
    <section className="viewer-view" aria-label="Span tree">
      <SpanTree feed={feed} selection={selection} aria-label="Span tree" />
    </section>
  );
  const transcriptView = (
    <section className="viewer-view" aria-label="Transcript">
      <Transcript
        ref={transcript}
        feed={feed}
        selectedId={uuid}
        onSelect={onSelect}
        openAt={live || replay ? 'auto' : 'start'}
        selectable
        aria-label="Transcript"
      />
    </section>
  );
  const Slot = TimelineSlot;
  const timelineView =
    Slot === null ? null : (
      <div className="viewer-timeline">
        {controls}
        {loading || (timeline === 'pending' && !replay) ? (
          <section className="viewer-view viewer-timeline-wait" aria-label="Timeline">
            <p className="viewer-note">
              {loading
                ? 'The timeline is drawn when the log has loaded.'
                : 'Building the timeline…'}
            </p>
          </section>
        ) : (
          <Slot
            stream={stream}
            feed={feed}
            selection={selection}
            timeline={replay || timeline === 'pending' ? null : timeline}
          />
        )}
      </div>
    );

  let body: ReactNode = null;
  if (size === null) body = null;
  else if (narrow) {
    const tabs: ViewTab[] = [
      { id: 'tree', label: 'Tree', panel: treeView },
      { id: 'transcript', label: 'Transcript', panel: transcriptView },
      ...(timelineView ? [{ id: 'timeline', label: 'Timeline', panel: timelineView }] : []),
    ];
    body = <Tabs label="Views" tabs={tabs} active={tab} onChange={setTab} />;
  } else {
    const views = (
      <Split
        id="tree"
        direction="row"
        defaultSize={Math.min(460, Math.round(size.width * 0.4))}
        min={160}
        max={1200}
        minSecond={320}
        label="Resize the span tree"
        first={treeView}
        second={transcriptView}
      />
    );
    body =
      timelineView === null ? (
        views
      ) : (
        <Split
          id="timeline"
          direction="column"
          defaultSize={520}
          min={120}
          max={2000}
          minSecond={120}
          label="Resize the timeline"
          first={views}
          second={timelineView}
        />
      );
  }
  return (
    <div ref={box} className="viewer-run" data-layout={narrow ? 'tabs' : 'split'}>
      {body}
    </div>
  );
}
