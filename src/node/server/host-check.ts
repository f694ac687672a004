/**
 * The `Host` check every skein server runs first: the live handlers (SSE,
 * Fetch, WebSocket), `skein serve`, `skein view`. It is the guard against DNS
 * rebinding: a page on `evil.example` whose name is re-pointed at 127.0.0.1
 * reaches a local server as same-origin, so CORS does not stop it, but the
 * browser still sends `Host: evil.example`, which no local server should
 * answer. An IP address needs no allowing: a rebinding page can only be
 * reached by a name, and a browser sends the name it used.
 * Pure: no Node built-ins (the Fetch handler runs on edge runtimes).
 */

/**
 * Which `Host` names a server answers to, besides the loopback names
 * (`localhost`, `*.localhost`) and IP addresses, which it always answers to:
 * a list of names (`'runs.example.com'`; an entry starting with a dot,
 * `'.example.com'`, allows that domain and every name under it), or `true`
 * for any name (only behind a proxy that checks the name itself).
 *
 * @example
 * import type { AllowedHosts } from 'skein/server';
 * const allowedHosts: AllowedHosts = ['runs.example.com', '.internal.example'];
 */
export type AllowedHosts = true | readonly string[];

/**
 * The host name of a `Host` header value (`name`, `name:port`, `[v6]:port`),
 * lower-cased, without the port, the brackets of an IPv6 address and one
 * trailing dot. `null` when there is none or it is malformed.
 *
 * @example
 * import { hostName } from 'skein/server';
 * hostName('LocalHost:8790'); // 'localhost'
 * hostName('[::1]:80'); // '::1'
 */
export function hostName(host: string | null | undefined): string | null {
  if (host === undefined || host === null) return null;
  const value = host.trim().toLowerCase();
  let name: string;
  if (value.startsWith('[')) {
    const end = value.indexOf(']');
    if (end < 0) return null;
    const rest = value.slice(end + 1);
    if (rest !== '' && !/^:\d{1,5}$/.test(rest)) return null;
    name = value.slice(1, end);
    return /^[0-9a-f:.]+$/.test(name) && name.includes(':') ? name : null;
  }
  const colon = value.indexOf(':');
  if (colon >= 0) {
    if (!/^\d{1,5}$/.test(value.slice(colon + 1))) return null;
    name = value.slice(0, colon);
  } else name = value;
  if (name.endsWith('.')) name = name.slice(0, -1);
  // Letters, digits, hyphens and dots: what a browser puts in Host for a name
  // or an IPv4 address (it sends IDNs as punycode).
  return /^[a-z0-9-]+(\.[a-z0-9-]+)*$/.test(name) ? name : null;
}

const IPV4 = /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}$/;

/** An IPv4 dotted quad or an IPv6 address (as `hostName` returns it: unbracketed). */
function isIpAddress(name: string): boolean {
  return IPV4.test(name) || name.includes(':');
}

/**
 * Builds the `Host` check of a server: a function that says whether a
 * request's `Host` header names this server. Allowed: the loopback names
 * (`localhost`, `*.localhost`), any IP address (127.0.0.1, `[::1]`, a LAN
 * address: a rebinding page cannot send one), and the names of
 * `allowedHosts`. A missing or malformed header is refused. Servers answer a
 * refused request with 421 (Misdirected Request) and read nothing.
 *
 * @example
 * import { createServer } from 'node:http';
 * import { createHostCheck } from 'skein/server';
 * const hostAllowed = createHostCheck(['runs.example.com']);
 * createServer((req, res) => {
 *   if (!hostAllowed(req.headers.host)) return void res.writeHead(421).end();
 *   res.end('ok');
 * });
 */
export function createHostCheck(
  allowedHosts?: AllowedHosts,
): (host: string | null | undefined) => boolean {
  if (allowedHosts === true) return (host) => hostName(host) !== null;
  const exact = new Set<string>();
  const suffixes: string[] = [];
  for (const entry of allowedHosts ?? []) {
    const lower = entry.trim().toLowerCase().replace(/\.$/, '');
    if (lower.startsWith('.')) suffixes.push(lower);
    else if (lower !== '') exact.add(hostName(lower) ?? lower);
  }
  return (host) => {
    const name = hostName(host);
    if (name === null) return false;
    if (name === 'localhost' || name.endsWith('.localhost') || isIpAddress(name)) return true;
    if (exact.has(name)) return true;
    return suffixes.some((s) => name === s.slice(1) || name.endsWith(s));
  };
}

/**
 * The answer to a refused `Host`, the same from every server.
 *
 * @example
 * import { HOST_REFUSED } from 'skein/server';
 * HOST_REFUSED.status; // 421
 */
export const HOST_REFUSED: {
  readonly status: 421;
  readonly headers: Readonly<Record<string, string>>;
  readonly body: string;
} = {
  status: 421,
  headers: { 'Content-Type': 'text/plain; charset=utf-8' },
  body: 'This server does not answer to this Host name (see allowedHosts)\n',
};
