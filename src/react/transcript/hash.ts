import { formatEventHash, parseEventHash } from '../../index.js';

/**
 * The event uuid in the page URL's `#event=<uuid>` (or in `hash`), or `null`.
 *
 * @example
 * import { useEffect, useRef } from 'react';
 * const transcriptRef = useRef<TranscriptHandle>(null);
 * useEffect(() => {
 *   const uuid = readEventHash();
 *   if (uuid !== null) transcriptRef.current?.scrollToEvent(uuid);
 * }, []);
 */
export function readEventHash(hash: string = globalThis.location?.hash ?? ''): string | null {
  return parseEventHash(hash);
}

/**
 * Writes `#event=<uuid>` into the page URL (keeping other fragment pairs),
 * or removes it for `null`. Replaces the history entry unless `push` is set,
 * so following a selection does not flood the back button.
 *
 * @example
 * <Transcript stream={stream} onSelect={(uuid) => writeEventHash(uuid)} />
 */
export function writeEventHash(uuid: string | null, options: { push?: boolean } = {}): void {
  const location = globalThis.location;
  const history = globalThis.history;
  if (location === undefined || history === undefined) return;
  const hash = formatEventHash(location.hash, uuid);
  const url = `${location.pathname}${location.search}${hash}`;
  if (options.push === true) history.pushState(history.state, '', url);
  else history.replaceState(history.state, '', url);
}
