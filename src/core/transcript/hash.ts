/**
 * Deep links to an event: `#event=<uuid>` in a URL's fragment,
 * next to whatever else the application keeps there (`&`-separated pairs).
 */

/**
 * The event uuid in a URL fragment (`#event=<uuid>`, alone or among other
 * `&`-separated pairs), or `null` when there is none.
 *
 * @example
 * parseEventHash('#event=3f2a'); // '3f2a'
 * parseEventHash('#tab=log&event=a%2Fb'); // 'a/b'
 */
export function parseEventHash(hash: string): string | null {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  for (const part of body.split('&')) {
    if (!part.startsWith('event=')) continue;
    const value = part.slice('event='.length);
    try {
      const uuid = decodeURIComponent(value);
      return uuid === '' ? null : uuid;
    } catch {
      return null;
    }
  }
  return null;
}

/**
 * `hash` with its `event=` pair set to `uuid` (or removed for `null`),
 * keeping every other pair in place. Returns the fragment with its `#`
 * (or `''` when nothing is left).
 *
 * @example
 * formatEventHash('#tab=log', 'u1'); // '#tab=log&event=u1'
 * formatEventHash('#event=u1', null); // ''
 */
export function formatEventHash(hash: string, uuid: string | null): string {
  const body = hash.startsWith('#') ? hash.slice(1) : hash;
  const parts = body === '' ? [] : body.split('&').filter((p) => !p.startsWith('event='));
  if (uuid !== null) parts.push(`event=${encodeURIComponent(uuid)}`);
  return parts.length === 0 ? '' : `#${parts.join('&')}`;
}
