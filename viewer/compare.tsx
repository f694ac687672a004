// Compare in the viewer: run A (the log and sample shown) against run B
// (another epoch or sample of the same log, another open log, a log of the
// folder, or a file chosen now), drawn by `<RunDiff>`. The chooser is a modal
// dialog of native controls (APG dialog pattern); the comparison itself is a
// view of its own with a deep link (`#compare-…`, url-state.ts).
import { useEffect, useId, useMemo, useRef, useState, type ReactNode } from 'react';
import { RunDiff, useStoreSelector } from '../src/react.js';
import { formatCount } from './format.js';
import { useListing } from './listing.js';
import type { LoadSession, LoadState } from './load/client.js';
import type { SampleRef, SampleRow } from './load/protocol.js';
import { sameSample } from './load/loader.js';

/** What the chooser picked as run B. */
export type CompareChoice =
  | { readonly kind: 'sample'; readonly sample: SampleRef }
  | { readonly kind: 'doc'; readonly key: number }
  | { readonly kind: 'url'; readonly url: string; readonly name: string }
  | { readonly kind: 'file'; readonly file: File };

/** An open log the chooser offers. */
export interface OpenLogChoice {
  readonly key: number;
  readonly name: string;
}

export interface CompareChooserProps {
  /** Run A's samples (a multi-sample log), else `null`. */
  samples: readonly SampleRow[] | null;
  /** Run A's sample. */
  current: SampleRef | null;
  /** The other open logs. */
  docs: readonly OpenLogChoice[];
  /** A folder listing's URL (`?list`), to offer its logs. */
  listUrl: string | null;
  /** The URL run A came from (left out of the folder's logs). */
  currentUrl: string | null;
  onChoose: (choice: CompareChoice) => void;
  onClose: () => void;
}

const sampleText = (s: SampleRef) =>
  `sample ${String(s.id)}${s.epoch !== 1 ? ` · epoch ${s.epoch}` : ''}`;

/**
 * The sample to offer first: another epoch of the same sample (why did this
 * one fail?), else the next sample.
 */
export function defaultOtherSample(
  samples: readonly SampleRow[],
  current: SampleRef | null,
): SampleRow | null {
  const others = current ? samples.filter((s) => !sameSample(s, current)) : samples.slice(1);
  if (!others.length) return null;
  const epoch = current ? others.find((s) => String(s.id) === String(current.id)) : undefined;
  if (epoch) return epoch;
  const at = current ? samples.findIndex((s) => sameSample(s, current)) : 0;
  return samples.slice(at + 1).find((s) => others.includes(s)) ?? others[0]!;
}

/** The focusable controls of `root`, in order (for the dialog's Tab loop). */
function focusables(root: HTMLElement): HTMLElement[] {
  return [
    ...root.querySelectorAll<HTMLElement>('button, select, input:not([type="hidden"]), a[href]'),
  ].filter((el) => !(el as HTMLButtonElement).disabled && !el.hidden);
}

export function CompareChooser({
  samples,
  current,
  docs,
  listUrl,
  currentUrl,
  onChoose,
  onClose,
}: CompareChooserProps) {
  const dialog = useRef<HTMLDivElement>(null);
  const select = useRef<HTMLSelectElement>(null);
  const picker = useRef<HTMLInputElement>(null);
  const id = useId();
  const { listing } = useListing(listUrl);
  const sampleOptions = useMemo(
    () =>
      samples && samples.length > 1
        ? samples.filter((s) => !current || !sameSample(s, current))
        : [],
    [samples, current],
  );
  const folder = (listing?.logs ?? []).filter((l) => !l.error && l.url !== currentUrl);
  const first = samples ? defaultOtherSample(samples, current) : null;
  const initial = first ? `s:${sampleOptions.indexOf(first)}` : docs[0] ? `d:${docs[0].key}` : '';
  const [value, setValue] = useState(initial);
  // The folder's logs arrive after the first render: offer its first then.
  const shown = value || (folder[0] ? `u:${folder[0].url}` : '');

  useEffect(() => {
    const before = document.activeElement as HTMLElement | null;
    (select.current ?? dialog.current?.querySelector<HTMLElement>('button'))?.focus();
    return () => before?.focus?.();
  }, []);

  const choose = () => {
    const [kind, rest] = [shown.slice(0, 1), shown.slice(2)];
    if (kind === 's') {
      const s = sampleOptions[Number(rest)];
      if (s) onChoose({ kind: 'sample', sample: { id: s.id, epoch: s.epoch } });
    } else if (kind === 'd') onChoose({ kind: 'doc', key: Number(rest) });
    else if (kind === 'u') {
      const log = folder.find((l) => l.url === rest);
      if (log) onChoose({ kind: 'url', url: log.url, name: log.name });
    }
  };
  const any = sampleOptions.length > 0 || docs.length > 0 || folder.length > 0;

  return (
    <div className="viewer-backdrop">
      {/* A modal dialog handles Escape and keeps Tab inside (APG dialog pattern). */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-element-interactions */}
      <div
        ref={dialog}
        role="dialog"
        aria-modal="true"
        aria-labelledby={`${id}-title`}
        className="viewer-dialog viewer-compare-chooser"
        data-testid="compare-chooser"
        onKeyDown={(e) => {
          if (e.key === 'Escape') {
            e.preventDefault();
            e.stopPropagation();
            onClose();
          } else if (e.key === 'Tab' && dialog.current) {
            const all = focusables(dialog.current);
            const at = all.indexOf(document.activeElement as HTMLElement);
            const next = e.shiftKey ? (at <= 0 ? all.length - 1 : at - 1) : (at + 1) % all.length;
            e.preventDefault();
            all[next]?.focus();
          }
        }}
      >
        <div className="viewer-panel-head">
          <h2 id={`${id}-title`}>Compare with…</h2>
          <button type="button" className="viewer-button" onClick={onClose}>
            Cancel
          </button>
        </div>
        <p className="viewer-muted">
          {current ? `Run A is ${sampleText(current)} of this log. ` : 'Run A is this log. '}
          Choose run B: steps are aligned and the first divergence is marked.
        </p>
        <form
          className="viewer-compare-form"
          onSubmit={(e) => {
            e.preventDefault();
            choose();
          }}
        >
          {any ? (
            <>
              <label htmlFor={`${id}-b`}>Run B</label>
              <select
                ref={select}
                id={`${id}-b`}
                className="viewer-input"
                value={shown}
                onChange={(e) => setValue(e.target.value)}
                onKeyDown={(e) => {
                  // A select does not submit its form on Enter.
                  if (e.key === 'Enter') {
                    e.preventDefault();
                    choose();
                  }
                }}
                data-testid="compare-target"
              >
                {sampleOptions.length ? (
                  <optgroup label="This log">
                    {sampleOptions.map((s, i) => (
                      <option key={`${String(s.id)}/${s.epoch}`} value={`s:${i}`}>
                        {sampleText(s)}
                        {s.score !== null ? ` (${String(s.score)})` : ''}
                        {s.error !== null ? ' · error' : ''}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
                {docs.length ? (
                  <optgroup label="Open logs">
                    {docs.map((d) => (
                      <option key={d.key} value={`d:${d.key}`}>
                        {d.name}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
                {folder.length ? (
                  <optgroup label="Logs in the folder">
                    {folder.map((l) => (
                      <option key={l.url} value={`u:${l.url}`}>
                        {l.name}
                      </option>
                    ))}
                  </optgroup>
                ) : null}
              </select>
              <button type="submit" className="viewer-button viewer-button--primary">
                Compare
              </button>
            </>
          ) : null}
          <button type="button" className="viewer-button" onClick={() => picker.current?.click()}>
            {any ? 'Or choose a file…' : 'Choose a file…'}
          </button>
          <input
            ref={picker}
            type="file"
            hidden
            aria-label="Choose the log to compare with"
            data-testid="compare-file-input"
            onChange={(e) => {
              const file = e.target.files?.[0];
              e.target.value = '';
              if (file) onChoose({ kind: 'file', file });
            }}
          />
        </form>
      </div>
    </div>
  );
}

/** A run's name in the comparison: as short as tells A and B apart. */
export function compareNames(a: LoadState, b: LoadState, sameLog: boolean): [string, string] {
  const title = (s: LoadState) => s.facts.task ?? s.name;
  const multi = (s: LoadState) => s.samples !== null && s.samples.length > 1;
  if (sameLog && a.sample && b.sample) {
    return String(a.sample.id) === String(b.sample.id)
      ? [`epoch ${a.sample.epoch}`, `epoch ${b.sample.epoch}`]
      : [sampleText(a.sample), sampleText(b.sample)];
  }
  const name = (s: LoadState, head: string) =>
    multi(s) && s.sample ? `${head} · ${sampleText(s.sample)}` : head;
  const [na, nb] = [name(a, title(a)), name(b, title(b))];
  // Two logs of one task: their file names tell them apart.
  return na === nb ? [name(a, a.name), name(b, b.name)] : [na, nb];
}

export interface CompareViewProps {
  a: LoadSession;
  b: LoadSession;
  /** Both runs come from one log (two samples or epochs). */
  sameLog: boolean;
  /** Opens the chooser to compare A with something else. */
  onChange: () => void;
  onClose: () => void;
}

/** Two runs compared step by step, with what is still loading and what failed. */
export function CompareView({ a, b, sameLog, onChange, onClose }: CompareViewProps) {
  const sa = useStoreSelector(a, (x) => x);
  const sb = useStoreSelector(b, (x) => x);
  const names = compareNames(sa, sb, sameLog);
  const id = useId();
  const status = (s: LoadState, name: string): ReactNode =>
    s.phase === 'loading' ? (
      <span>
        {name}: loading, {formatCount(s.progress.events)} events
      </span>
    ) : s.phase === 'error' && s.error ? (
      <span className="viewer-error-cell">
        {name}: {s.error.title}
      </span>
    ) : null;
  const notes = [status(sa, names[0]), status(sb, names[1])].filter(Boolean);
  const both = sa.phase !== 'error' && sb.phase !== 'error';
  return (
    <section
      className="viewer-doc viewer-compare"
      aria-labelledby={`${id}-title`}
      data-testid="compare"
    >
      <div className="viewer-doc-head">
        <h2 id={`${id}-title`} className="viewer-run-title viewer-compare-title">
          <span className="viewer-muted">Compare </span>
          <span data-testid="compare-a" title={names[0]}>
            {names[0]}
          </span>
          <span className="viewer-muted"> with </span>
          <span data-testid="compare-b" title={names[1]}>
            {names[1]}
          </span>
        </h2>
        <span className="viewer-spacer" />
        <button type="button" className="viewer-button" aria-keyshortcuts="c" onClick={onChange}>
          Compare with…
        </button>
        <button
          type="button"
          className="viewer-button"
          onClick={onClose}
          data-testid="compare-close"
        >
          Close comparison
        </button>
      </div>
      {notes.length ? (
        <p className="viewer-note viewer-compare-notes" role="status">
          {notes.map((n, i) => (
            <span key={i}>{n}</span>
          ))}
        </p>
      ) : null}
      {both ? (
        <div className="viewer-doc-main">
          <RunDiff
            // A reset or sample switch gives a new stream: a new comparison.
            key={`${streamId(sa)}:${streamId(sb)}`}
            a={sa.stream}
            b={sb.stream}
            names={names}
            aria-label={`${names[0]} compared with ${names[1]}`}
            className="viewer-run-diff"
          />
        </div>
      ) : null}
    </section>
  );
}

const streamIds = new WeakMap<object, number>();
let nextStream = 1;
function streamId(s: LoadState): number {
  let k = streamIds.get(s.stream);
  if (k === undefined) streamIds.set(s.stream, (k = nextStream++));
  return k;
}
