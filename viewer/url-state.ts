// The viewer's URL (issue 22). Query parameters say what to open; the fragment
// says where to look, so a deep link round-trips:
//
//   ?src=<url>    fetch a log file of any format
//   ?live=<url>   follow a live run (skein/server SSE endpoint)
//   ?list=<url>   a folder listing { root, logs: [...] }; `<list>/watch` streams changes
//   ?runs=<url>   an OTLP receiver's runs { runs: [...] }; `<runs>/watch` streams changes
//   ?demo=<n>     a generated run of n events
//   #sample=<id>&epoch=<n>&event=<uuid>
//
// `epoch` is written only when it is not 1. Other fragment pairs are kept.
import type { SampleRef } from './load/protocol.js';

/** What the query asks to open. */
export interface ViewerParams {
  readonly src: string | null;
  readonly live: string | null;
  readonly list: string | null;
  /** An OTLP receiver's run list (`skein view --otlp`). */
  readonly runs: string | null;
  readonly demo: number | null;
}

/** Reads the query string (`location.search`). */
export function readParams(search: string): ViewerParams {
  const q = new URLSearchParams(search);
  const demo = q.get('demo');
  const n = demo === null ? NaN : Number(demo === '' ? 20000 : demo);
  return {
    src: q.get('src') || null,
    live: q.get('live') || null,
    list: q.get('list') || null,
    runs: q.get('runs') || null,
    demo: Number.isInteger(n) && n > 0 ? Math.min(n, 2_000_000) : null,
  };
}

/** Where the view looks: a sample of a multi-sample log and an event. */
export interface ViewerHash {
  readonly sample: SampleRef | null;
  readonly event: string | null;
}

function pairs(hash: string): [string, string][] {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  if (body === '') return [];
  return body.split('&').map((part) => {
    const eq = part.indexOf('=');
    const key = eq < 0 ? part : part.slice(0, eq);
    const raw = eq < 0 ? '' : part.slice(eq + 1);
    let value = raw;
    try {
      value = decodeURIComponent(raw);
    } catch {
      // a malformed escape: keep the text as it is
    }
    return [key, value];
  });
}

/** Reads `#sample=…&epoch=…&event=…`. */
export function readHash(hash: string): ViewerHash {
  const map = new Map(pairs(hash));
  const id = map.get('sample');
  const epoch = Number(map.get('epoch') ?? '1');
  const event = map.get('event');
  return {
    sample:
      id === undefined || id === ''
        ? null
        : { id, epoch: Number.isInteger(epoch) && epoch > 0 ? epoch : 1 },
    event: event === undefined || event === '' ? null : event,
  };
}

/**
 * `hash` with `sample`, `epoch` and `event` set from `state` (a `null`
 * removes the pair; `undefined` leaves it as it is). Returns `''` or a
 * fragment with its `#`.
 */
export function formatHash(
  hash: string,
  state: { sample?: SampleRef | null; event?: string | null },
): string {
  const owned = new Set<string>();
  if (state.sample !== undefined) owned.add('sample').add('epoch');
  if (state.event !== undefined) owned.add('event');
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const kept = body === '' ? [] : body.split('&').filter((p) => !owned.has(p.split('=', 1)[0]!));
  const current = readHash(hash);
  const sample = state.sample === undefined ? current.sample : state.sample;
  const event = state.event === undefined ? current.event : state.event;
  const out = [...kept.filter((p) => !['sample', 'epoch', 'event'].includes(p.split('=', 1)[0]!))];
  if (sample) {
    out.push(`sample=${encodeURIComponent(String(sample.id))}`);
    if (sample.epoch !== 1) out.push(`epoch=${sample.epoch}`);
  }
  if (event) out.push(`event=${encodeURIComponent(event)}`);
  return out.length ? `#${out.join('&')}` : '';
}

/** Replaces the fragment without a history entry (following a selection must not flood Back). */
export function writeHash(state: { sample?: SampleRef | null; event?: string | null }): void {
  const next = formatHash(location.hash, state);
  if (next === location.hash || (next === '' && location.hash === '')) return;
  history.replaceState(history.state, '', `${location.pathname}${location.search}${next}`);
}

/** The last path segment of a URL, decoded, for a name. */
export function nameOfUrl(url: string): string {
  try {
    const u = new URL(url, 'http://x/');
    const seg = u.pathname.split('/').filter(Boolean).at(-1) ?? u.hostname;
    return decodeURIComponent(seg) || url;
  } catch {
    return url;
  }
}
