// Past 600 lines: the page's state (open logs, the comparison, the sidebar, global keys) lives in this one component; what it draws is in files of its own.
// The skein viewer (issue 22): open any agent log — a file (picker or drop,
// several at once), `?src=<url>`, `?live=<url>`, `?list=<url>` — and see it as
// a span tree and a transcript linked through one selection store.
import {
  useCallback,
  useEffect,
  useId,
  useMemo,
  useRef,
  useState,
  type DragEvent,
  type ReactNode,
} from 'react';
import { VERSION, formats } from '../src/index.js';
import { SkeinTheme, useEventStream, useStoreSelector } from '../src/react.js';
import { DiagnosticsPanel } from './diagnostics.js';
import { CompareChooser, CompareView, type CompareChoice, type OpenLogChoice } from './compare.js';
import { formatBytes, formatCount } from './format.js';
import { RunHeader } from './header.js';
import { KeyboardHelp } from './keyboard-help.js';
import { ListingView, type ListingLog } from './listing.js';
import {
  fixedSession,
  openLog,
  type LoadSession,
  type LoadState,
  type LoaderPort,
} from './load/client.js';
import type { LoadFailure, LoadSource, SampleRef } from './load/protocol.js';
import { NARROW, Split, useElementSize } from './panes.js';
import { RunView } from './run-view.js';
import { RunsView, type RunEntry } from './runs.js';
import { PickBar, PickBox, usePickTwo } from './pick-two.js';
import { SampleList } from './sample-list.js';
import { nameOfUrl, readHash, readParams, writeHash, type CompareTarget } from './url-state.js';

export interface ViewerAppProps {
  /** The loader to use (default: a Web Worker, or the page itself where there is none). */
  createPort?: () => LoaderPort;
  /** A log to open at once, instead of what the URL asks for (an exported page's run). */
  open?: LoadSource;
}

interface Doc {
  readonly key: number;
  readonly session: LoadSession;
  /** The URL it came from (`?src`, a listing), for the listing's current row. */
  readonly url: string | null;
  /** What was opened (`null`: it failed before it started), to open it again as run B. */
  readonly source: LoadSource | null;
}

/** Run A (a doc's run) compared with run B. */
interface Comparison {
  readonly aKey: number;
  readonly b: LoadSession;
  /** B was opened for the comparison (disposed with it), not an open log. */
  readonly owned: boolean;
  /** B is another sample of A's log. */
  readonly sameLog: boolean;
  /** B in the URL (`null`: a local file, which a link cannot name). */
  readonly target: CompareTarget | null;
}

/** A comparison's run B, as a choice or from a deep link. */
type CompareRequest = CompareChoice | { kind: 'link'; target: CompareTarget };

let nextKey = 1;

/** A session that failed before it started (a dropped folder). */
function failedSession(name: string, error: LoadFailure): LoadSession {
  const state = {
    name,
    phase: 'error',
    progress: { bytes: 0, total: null, events: 0, step: 'reading' },
    format: null,
    facts: {},
    samples: null,
    sample: null,
    diagnostics: [],
    error,
    stream: undefined,
  } as unknown as LoadState;
  return fixedSession(state);
}

function isTyping(target: EventTarget | null): boolean {
  const el = target as HTMLElement | null;
  if (!el || !el.tagName) return false;
  return (
    el.isContentEditable ||
    el.tagName === 'INPUT' ||
    el.tagName === 'TEXTAREA' ||
    el.tagName === 'SELECT'
  );
}

export function ViewerApp({ createPort, open }: ViewerAppProps) {
  const params = useMemo(() => readParams(location.search), []);
  const initialHash = useRef(readHash(location.hash));
  const [docs, setDocs] = useState<readonly Doc[]>([]);
  const [currentKey, setCurrentKey] = useState<number | null>(null);
  const [help, setHelp] = useState(false);
  const [showDiagnostics, setShowDiagnostics] = useState(false);
  const [dragging, setDragging] = useState(false);
  const picker = useRef<HTMLInputElement>(null);
  // The run followed live, in `?runs=` mode (its live URL).
  const [liveUrl, setLiveUrl] = useState<string | null>(params.live);
  const [comparison, setComparison] = useState<Comparison | null>(null);
  const [choosing, setChoosing] = useState(false);
  // A run B opened for a comparison ends with it.
  useEffect(() => () => (comparison?.owned ? comparison.b.dispose() : undefined), [comparison]);

  const add = useCallback(
    (source: LoadSource | { failed: LoadFailure; name: string }, url: string | null = null) => {
      const first = initialHash.current;
      const session =
        'failed' in source
          ? failedSession(source.name, source.failed)
          : openLog(source, {
              ...(createPort ? { createPort } : {}),
              ...(first.sample ? { sample: first.sample } : {}),
            });
      const doc: Doc = { key: nextKey++, session, url, source: 'failed' in source ? null : source };
      setDocs((d) => [...d, doc]);
      setCurrentKey(doc.key);
      return doc;
    },
    [createPort],
  );

  /** Opens files from the picker or a drop (several at once; each detected on its own). */
  const openFiles = useCallback(
    (files: Iterable<File>) => {
      for (const file of files) add({ kind: 'file', file, name: file.name });
    },
    [add],
  );

  // (Workers end with the page; a session is disposed only when replaced.)
  const docsRef = useRef(docs);
  docsRef.current = docs;

  /** Compares `a`'s run with the run `request` names; the URL says so where it can. */
  const compare = useCallback(
    (a: Doc, request: CompareRequest) => {
      setChoosing(false);
      const port = createPort ? { createPort } : {};
      const aState = a.session.getSnapshot();
      let next: Comparison | null = null;
      const target: CompareTarget | null =
        request.kind === 'link'
          ? request.target
          : request.kind === 'sample'
            ? { src: null, sample: request.sample }
            : request.kind === 'url'
              ? { src: request.url, sample: null }
              : null;
      if (request.kind === 'doc') {
        const b = docsRef.current.find((d) => d.key === request.key);
        if (!b) return;
        const bs = b.session.getSnapshot();
        const sample = bs.samples !== null && bs.samples.length > 1 ? bs.sample : null;
        next = {
          aKey: a.key,
          b: b.session,
          owned: false,
          sameLog: false,
          target: b.url ? { src: b.url, sample } : null,
        };
      } else if (request.kind === 'file') {
        const source = { kind: 'file', file: request.file, name: request.file.name } as const;
        next = { aKey: a.key, b: openLog(source, port), owned: true, sameLog: false, target };
      } else if (target?.src) {
        const source = { kind: 'url', url: target.src, name: nameOfUrl(target.src) } as const;
        const b = openLog(source, { ...port, ...(target.sample ? { sample: target.sample } : {}) });
        next = { aKey: a.key, b, owned: true, sameLog: false, target };
      } else if (target?.sample && a.source) {
        const b = openLog(a.source, { ...port, sample: target.sample });
        next = { aKey: a.key, b, owned: true, sameLog: true, target };
      }
      if (!next) return;
      setComparison(next);
      setCurrentKey(a.key);
      const multi = aState.samples !== null && aState.samples.length > 1;
      writeHash({
        compare: next.target,
        event: null,
        ...(multi && aState.sample ? { sample: aState.sample } : {}),
      });
    },
    [createPort],
  );
  const closeCompare = useCallback(() => {
    setComparison(null);
    writeHash({ compare: null });
  }, []);

  // What the URL asks to open, once.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    let doc: Doc | null = null;
    if (open) doc = add(open);
    else if (params.src)
      doc = add({ kind: 'url', url: params.src, name: nameOfUrl(params.src) }, params.src);
    else if (params.demo)
      add({ kind: 'demo', events: params.demo, name: `generated run (${params.demo} events)` });
    const target = initialHash.current.compare;
    if (doc && target) compare(doc, { kind: 'link', target });
  }, [params, add, open, compare]);

  const current = docs.find((d) => d.key === currentKey) ?? null;
  const consumeInitial = useCallback(() => {
    initialHash.current = { sample: null, event: null, compare: null };
  }, []);

  const openListed = useCallback(
    (log: ListingLog): Doc => {
      setComparison(null);
      let doc = docsRef.current.find((d) => d.url === log.url);
      if (doc) {
        setCurrentKey(doc.key);
      } else {
        initialHash.current = { sample: null, event: null, compare: null };
        doc = add({ kind: 'url', url: log.url, name: log.name }, log.url);
      }
      const q = new URLSearchParams(location.search);
      q.set('src', log.url);
      history.pushState(history.state, '', `${location.pathname}?${q}`);
      return doc;
    },
    [add],
  );
  const selectDoc = useCallback(
    (key: number) => {
      if (comparison && comparison.aKey !== key) closeCompare();
      setCurrentKey(key);
    },
    [comparison, closeCompare],
  );

  // Global keys: ? help, o open, d diagnostics, c compare (not while typing).
  const canCompare = current !== null && current.source !== null;
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.ctrlKey || e.metaKey || e.altKey || isTyping(e.target)) return;
      if (e.key === '?') {
        e.preventDefault();
        setHelp((h) => !h);
      } else if (e.key === 'o') {
        e.preventDefault();
        picker.current?.click();
      } else if (e.key === 'd') {
        e.preventDefault();
        setShowDiagnostics((s) => !s);
      } else if (e.key === 'c' && canCompare) {
        e.preventDefault();
        setChoosing(true);
      } else if (e.key === 'Escape') {
        setShowDiagnostics(false);
      }
    };
    addEventListener('keydown', onKey);
    return () => removeEventListener('keydown', onKey);
  }, [canCompare]);

  const onDrop = (e: DragEvent) => {
    e.preventDefault();
    setDragging(false);
    const items = [...e.dataTransfer.items];
    const files: File[] = [];
    items.forEach((item, i) => {
      const entry = item.webkitGetAsEntry?.();
      const file = item.getAsFile() ?? e.dataTransfer.files[i];
      if (entry?.isDirectory) {
        add({
          name: entry.name,
          failed: {
            code: 'directory',
            title: `${entry.name} is a folder`,
            detail:
              'The viewer opens log files. Drop the files inside the folder (several at once is fine), or run `skein view <folder>` to browse a folder of logs.',
          },
        });
      } else if (file) files.push(file);
    });
    if (!items.length) files.push(...e.dataTransfer.files);
    openFiles(files);
  };

  const openRun = useCallback((run: RunEntry) => {
    setLiveUrl(run.url);
    const q = new URLSearchParams(location.search);
    q.set('live', run.url);
    history.pushState(history.state, '', `${location.pathname}?${q}`);
  }, []);

  const sidebarParts: { title: string; body: ReactNode }[] = [];
  if (params.runs)
    sidebarParts.push({
      title: 'Runs',
      body: <RunsView url={params.runs} current={liveUrl} onOpen={openRun} />,
    });
  if (params.list)
    sidebarParts.push({
      title: 'Folder',
      body: (
        <ListingView
          url={params.list}
          current={current?.url ?? null}
          onOpen={openListed}
          onCompare={(a, b) => compare(openListed(a), { kind: 'url', url: b.url, name: b.name })}
        />
      ),
    });
  if (docs.length > 1)
    sidebarParts.push({
      title: 'Open logs',
      body: (
        <DocList
          docs={docs}
          current={currentKey}
          onSelect={selectDoc}
          onCompare={(a, b) => {
            const doc = docs.find((d) => d.key === a);
            if (doc) compare(doc, { kind: 'doc', key: b });
          }}
        />
      ),
    });

  return (
    <SkeinTheme theme="auto" className="viewer">
      {/* The whole page is a drop target, an addition to the "Open files" button. */}
      {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
      <div
        className="viewer-root"
        onDragEnter={(e) => {
          if (e.dataTransfer.types.includes('Files')) setDragging(true);
        }}
        onDragOver={(e) => e.preventDefault()}
        onDragLeave={(e) => {
          if (e.currentTarget === e.target) setDragging(false);
        }}
        onDrop={onDrop}
      >
        <header className="viewer-bar">
          <h1 className="viewer-brand">
            skein{' '}
            <span className="viewer-muted" data-testid="version">
              {VERSION}
            </span>
          </h1>
          <span className="viewer-spacer" />
          <button type="button" className="viewer-button" onClick={() => picker.current?.click()}>
            Open files…
          </button>
          <input
            ref={picker}
            type="file"
            multiple
            hidden
            aria-label="Open log files"
            data-testid="file-input"
            onChange={(e) => {
              if (e.target.files) openFiles([...e.target.files]);
              e.target.value = '';
            }}
          />
          <button
            type="button"
            className="viewer-button"
            aria-keyshortcuts="?"
            onClick={() => setHelp(true)}
          >
            Keys <kbd>?</kbd>
          </button>
        </header>
        <main className="viewer-body">
          {params.runs ? (
            <WithSidebar parts={sidebarParts}>
              {liveUrl ? (
                <LiveRun key={liveUrl} url={liveUrl} initialEvent={initialHash.current.event} />
              ) : (
                <div className="viewer-landing">
                  <h2>Runs, live</h2>
                  <p>Choose a run in the list; new ones appear as your agents export them.</p>
                </div>
              )}
            </WithSidebar>
          ) : params.live ? (
            <LiveRun url={params.live} initialEvent={initialHash.current.event} />
          ) : current && comparison?.aKey === current.key ? (
            <WithSidebar parts={sidebarParts} showing="Comparison">
              <CompareView
                a={current.session}
                b={comparison.b}
                sameLog={comparison.sameLog}
                onChange={() => setChoosing(true)}
                onClose={closeCompare}
              />
            </WithSidebar>
          ) : current ? (
            <DocView
              key={current.key}
              doc={current}
              sidebar={sidebarParts}
              initialEvent={initialHash.current.event}
              consumeInitial={consumeInitial}
              showDiagnostics={showDiagnostics}
              setShowDiagnostics={setShowDiagnostics}
              onCompare={canCompare ? () => setChoosing(true) : null}
            />
          ) : (
            <WithSidebar parts={sidebarParts}>
              <Landing onOpen={() => picker.current?.click()} listing={params.list !== null} />
            </WithSidebar>
          )}
        </main>
        {dragging ? (
          <div className="viewer-drop" aria-hidden="true">
            Drop log files to open them
          </div>
        ) : null}
        {help ? <KeyboardHelp onClose={() => setHelp(false)} /> : null}
        {choosing && current ? (
          <ChooserFor
            doc={current}
            docs={docs}
            listUrl={params.list}
            onChoose={(choice) => compare(current, choice)}
            onClose={() => setChoosing(false)}
          />
        ) : null}
      </div>
    </SkeinTheme>
  );
}

function WithSidebar({
  parts,
  showing = null,
  children,
}: {
  parts: { title: string; body: ReactNode }[];
  /** What the run beside the sidebar shows (`null`: no run; the sidebar is the page's content). */
  showing?: string | null;
  children: ReactNode;
}) {
  // Beside the run where both fit; above it, stacked, on a narrow screen,
  // where with a run open it folds under a button so the run has the height.
  const [box, size] = useElementSize<HTMLDivElement>();
  const [open, setOpen] = useState(false);
  // A log or sample chosen in the unfolded sidebar folds it again.
  const [openFor, setOpenFor] = useState(showing);
  if (openFor !== showing) {
    setOpenFor(showing);
    setOpen(false);
  }
  const id = useId();
  if (!parts.length) return <>{children}</>;
  const sidebar = (
    <nav className="viewer-sidebar" aria-label="Logs and samples" id={id}>
      {parts.map((p) => (
        <section key={p.title} className="viewer-sidebar-part" aria-label={p.title}>
          <h2 className="viewer-sidebar-title">{p.title}</h2>
          {p.body}
        </section>
      ))}
    </nav>
  );
  const narrow = size !== null && size.width < NARROW;
  const folding = narrow && showing !== null;
  return (
    <div ref={box} className="viewer-with-sidebar">
      {folding ? (
        <button
          type="button"
          className="viewer-sidebar-toggle"
          aria-expanded={open}
          aria-controls={open ? id : undefined}
          onClick={() => setOpen(!open)}
          data-testid="sidebar-toggle"
        >
          <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          <span>{parts.map((p) => p.title).join(' · ')}</span>
          <span className="viewer-muted viewer-sidebar-showing" title={showing}>
            {showing}
          </span>
        </button>
      ) : null}
      {size === null ? null : (
        // One Split whatever the width, so the run is never remounted (its
        // scroll and selection kept) when the sidebar moves or folds.
        <Split
          id={narrow ? 'sidebar-stacked' : 'sidebar'}
          direction={narrow ? 'column' : 'row'}
          defaultSize={narrow ? Math.round(size.height * 0.6) : 340}
          min={narrow ? 72 : 180}
          max={narrow ? 2000 : 900}
          minSecond={narrow ? 200 : 360}
          label="Resize the sidebar"
          hideFirst={folding && !open}
          first={sidebar}
          second={children}
        />
      )}
    </div>
  );
}

/** The compare chooser for the doc shown (run A). */
function ChooserFor({
  doc,
  docs,
  listUrl,
  onChoose,
  onClose,
}: {
  doc: Doc;
  docs: readonly Doc[];
  listUrl: string | null;
  onChoose: (choice: CompareChoice) => void;
  onClose: () => void;
}) {
  const s = useStoreSelector(doc.session, (x) => x);
  const others: OpenLogChoice[] = docs
    .filter((d) => d.key !== doc.key && d.source !== null)
    .map((d) => ({ key: d.key, name: d.session.getSnapshot().name }));
  return (
    <CompareChooser
      samples={s.samples}
      current={s.samples !== null && s.samples.length > 1 ? s.sample : null}
      docs={others}
      listUrl={listUrl}
      currentUrl={doc.url}
      onChoose={onChoose}
      onClose={onClose}
    />
  );
}

function DocList({
  docs,
  current,
  onSelect,
  onCompare,
}: {
  docs: readonly Doc[];
  current: number | null;
  onSelect: (key: number) => void;
  /** Compares two open logs chosen with the checkboxes (A the one chosen first). */
  onCompare: (a: number, b: number) => void;
}) {
  const pick = usePickTwo();
  return (
    <>
      <ul className="viewer-doc-list">
        {docs.map((d) => (
          <DocItem
            key={d.key}
            doc={d}
            current={d.key === current}
            onSelect={onSelect}
            picked={pick.picked.includes(String(d.key))}
            onPick={d.source ? () => pick.toggle(String(d.key)) : null}
          />
        ))}
      </ul>
      <PickBar
        count={pick.picked.length}
        onCompare={() => {
          const [a, b] = pick.picked.map(Number);
          pick.clear();
          if (a !== undefined && b !== undefined) onCompare(a, b);
        }}
        onClear={pick.clear}
      />
    </>
  );
}

function DocItem({
  doc,
  current,
  onSelect,
  picked,
  onPick,
}: {
  doc: Doc;
  current: boolean;
  onSelect: (key: number) => void;
  picked: boolean;
  /** Chooses it for a comparison (`null`: it cannot be compared). */
  onPick: (() => void) | null;
}) {
  const s = useStoreSelector(doc.session, (x) => x);
  return (
    <li data-current={current ? '' : undefined}>
      {onPick ? <PickBox name={s.name} checked={picked} onToggle={onPick} /> : null}{' '}
      <button
        type="button"
        className="viewer-link"
        aria-current={current ? 'true' : undefined}
        onClick={() => onSelect(doc.key)}
      >
        {s.name}
      </button>{' '}
      <span className="viewer-muted">
        {s.phase === 'error'
          ? 'failed'
          : s.phase === 'loading'
            ? 'loading…'
            : (s.format?.name ?? '')}
      </span>
    </li>
  );
}

function Landing({ onOpen, listing }: { onOpen: () => void; listing: boolean }) {
  return (
    <div className="viewer-landing">
      <h2>Open an agent log</h2>
      <p>
        {listing ? 'Choose a log in the folder, or drop' : 'Drop'} log files here, or{' '}
        <button type="button" className="viewer-button viewer-button--primary" onClick={onOpen}>
          choose files…
        </button>
      </p>
      <p className="viewer-muted" id="viewer-formats-label">
        Every format skein reads, detected from the content:
      </p>
      <ul className="viewer-formats" aria-labelledby="viewer-formats-label">
        {formats.map((f) => (
          <li key={f.id}>{f.name}</li>
        ))}
      </ul>
      <p className="viewer-muted">Files are read in your browser; nothing is uploaded.</p>
      <p className="viewer-muted">
        Or look at a <a href="?demo=20000">generated run of 20,000 events</a>.
      </p>
    </div>
  );
}

interface DocViewProps {
  doc: Doc;
  sidebar: { title: string; body: ReactNode }[];
  initialEvent: string | null;
  consumeInitial: () => void;
  showDiagnostics: boolean;
  setShowDiagnostics: (show: boolean) => void;
  /** Opens the compare chooser (`null`: this log cannot be compared). */
  onCompare: (() => void) | null;
}

function DocView({
  doc,
  sidebar,
  initialEvent,
  consumeInitial,
  showDiagnostics,
  setShowDiagnostics,
  onCompare,
}: DocViewProps) {
  const { session } = doc;
  const s = useStoreSelector(session, (x) => x);
  const multi = s.samples !== null && s.samples.length > 1;

  // The selected sample lives in the URL (multi-sample logs only).
  useEffect(() => {
    if (multi && s.sample) writeHash({ sample: s.sample });
  }, [multi, s.sample]);
  // The initial deep link is for the first run shown only.
  const [firstEvent] = useState(initialEvent);
  useEffect(() => {
    consumeInitial();
  }, [consumeInitial]);

  const selectSample = (sample: SampleRef) => {
    writeHash({ sample, event: null });
    session.selectSample(sample);
  };
  const showEvent = (uuid: string) => {
    setShowDiagnostics(false);
    setJump((j) => ({ uuid, n: (j?.n ?? 0) + 1 }));
  };
  const [jump, setJump] = useState<{ uuid: string; n: number } | null>(null);

  const parts = multi
    ? [
        ...sidebar,
        {
          title: 'Samples',
          body: <SampleList samples={s.samples!} selected={s.sample} onSelect={selectSample} />,
        },
      ]
    : sidebar;

  const sampleLabel = multi && s.sample ? String(s.sample.id) : null;
  return (
    <WithSidebar
      parts={parts}
      showing={`${s.facts.task ?? s.name}${sampleLabel ? ` · sample ${sampleLabel}` : ''}`}
    >
      <div className="viewer-doc" data-phase={s.phase}>
        <div className="viewer-doc-head">
          <RunHeader
            name={s.name}
            format={s.format?.name ?? null}
            facts={s.facts}
            sample={sampleLabel}
          />
          <span className="viewer-spacer" />
          {s.phase !== 'error' && onCompare ? (
            <button
              type="button"
              className="viewer-button"
              aria-keyshortcuts="c"
              onClick={onCompare}
              data-testid="compare-open"
            >
              Compare with…
            </button>
          ) : null}
          {s.phase !== 'error' ? (
            <button
              type="button"
              className="viewer-button"
              aria-expanded={showDiagnostics}
              aria-keyshortcuts="d"
              onClick={() => setShowDiagnostics(!showDiagnostics)}
              data-testid="diagnostics-toggle"
            >
              Diagnostics{s.phase === 'done' ? ` (${s.diagnostics.length})` : ''}
            </button>
          ) : null}
        </div>
        {s.phase === 'loading' ? (
          <LoadProgress state={s} onCancel={() => session.cancel()} />
        ) : null}
        {s.phase === 'cancelled' ? (
          <p className="viewer-note" role="status">
            Cancelled: showing the {formatCount(s.stream.length)} events read before.
          </p>
        ) : null}
        {s.error ? <LoadErrorView error={s.error} /> : null}
        {s.stream && s.phase !== 'error' ? (
          <div className="viewer-doc-main">
            <RunView
              key={sampleKey(s)}
              stream={s.stream}
              initialEvent={firstEvent}
              navigate={jump}
              loading={s.phase === 'loading'}
              timeline={s.timeline}
              onEventChange={(uuid) => writeHash({ event: uuid })}
            />
            {showDiagnostics ? (
              <DiagnosticsPanel
                diagnostics={s.diagnostics}
                stream={s.stream}
                linkable={s.format?.id === 'inspect' || s.format?.id === 'skein'}
                onShowEvent={showEvent}
                onClose={() => setShowDiagnostics(false)}
              />
            ) : null}
          </div>
        ) : null}
      </div>
    </WithSidebar>
  );
}

const streamKeys = new WeakMap<object, number>();
function sampleKey(s: LoadState): number {
  let k = streamKeys.get(s.stream);
  if (k === undefined) streamKeys.set(s.stream, (k = nextKey++));
  return k;
}

function LoadProgress({ state, onCancel }: { state: LoadState; onCancel: () => void }) {
  const { bytes, total, events, step } = state.progress;
  const verb = step === 'reading' ? 'Reading' : step === 'parsing' ? 'Parsing' : 'Loading';
  return (
    <div className="viewer-progress" role="status" data-testid="load-progress">
      <span>
        {verb} {state.name}: {formatBytes(bytes)}
        {total ? ` of ${formatBytes(total)}` : ''} · {formatCount(events)} events
      </span>
      <progress
        aria-label="Loading"
        max={total ?? undefined}
        value={total ? Math.min(bytes, total) : undefined}
      />
      <button type="button" className="viewer-button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

function LoadErrorView({ error }: { error: LoadFailure }) {
  return (
    <div className="viewer-error" role="alert" data-code={error.code}>
      <h3>{error.title}</h3>
      <p>{error.detail}</p>
      {error.path && error.path !== '$' ? (
        <p className="viewer-muted">
          At <code>{error.path}</code>
        </p>
      ) : null}
    </div>
  );
}

function LiveRun({ url, initialEvent }: { url: string; initialEvent: string | null }) {
  const live = useEventStream(url);
  if (live === null) return <p className="viewer-note">Connecting to {url}…</p>;
  return (
    <div className="viewer-doc">
      <div className="viewer-doc-head">
        <RunHeader name={nameOfUrl(url)} format="live" facts={{ status: live.status }} />
      </div>
      {live.error ? (
        <p className="viewer-note" role="status">
          {live.error.message}
        </p>
      ) : null}
      <div className="viewer-doc-main">
        <RunView
          key={`${live.streamId ?? ''}:${live.resets}`}
          stream={live.stream}
          live
          initialEvent={initialEvent}
          onEventChange={(uuid) => writeHash({ event: uuid })}
        />
      </div>
    </div>
  );
}
