/**
 * Which URLs agent output may point at. One place, so
 * markdown, sanitized HTML and the tests all apply the same rules.
 *
 * URLs are parsed with the WHATWG `URL` parser — the one the browser uses when
 * it follows the link — so tricks like `java\nscript:`, `JaVaScRiPt:`, leading
 * control characters or entity-free obfuscation resolve to the scheme the
 * browser would see. Relative URLs are refused: agent output has no base URL
 * we could vouch for, and `/logout` relative to the host app is an attack.
 */

const LINK_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/** Raster image types allowed as `data:` URLs; never SVG (it can carry script and links). */
const DATA_IMAGE = /^data:image\/(png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/i;

/**
 * The normalized `href` when `url` is an absolute `http:`, `https:` or
 * `mailto:` URL; otherwise `undefined` (the caller renders the link as text).
 *
 * @example
 * safeLinkUrl('https://example.com/a b'); // 'https://example.com/a%20b'
 * safeLinkUrl('javascript:alert(1)');     // undefined
 */
export function safeLinkUrl(url: string): string | undefined {
  const parsed = parseAbsolute(url);
  if (!parsed || !LINK_PROTOCOLS.has(parsed.protocol)) return undefined;
  // Credentials in a link (`https://google.com@evil.example`) disguise the host.
  if (parsed.username || parsed.password) return undefined;
  return parsed.href;
}

/**
 * How an image URL may be shown: a remote `https:` image or an inline `data:` image.
 *
 * @example
 * const kind: ImageUrlKind | undefined = imageUrlKind('https://example.com/plot.png'); // 'remote'
 */
export type ImageUrlKind = 'remote' | 'data';

/**
 * Classifies an image URL: `'remote'` for absolute `https:`, `'data'` for a
 * base64 `data:image/(png|jpeg|gif|webp)` URL of at most `maxBytes` decoded
 * bytes, `undefined` for anything else (including `data:image/svg+xml`).
 *
 * @example
 * imageUrlKind('https://example.com/a.png');        // 'remote'
 * imageUrlKind('data:image/svg+xml;base64,PHN2Zz4='); // undefined
 */
export function imageUrlKind(url: string, maxBytes = Infinity): ImageUrlKind | undefined {
  const trimmed = url.trim();
  if (/^data:/i.test(trimmed)) {
    if (!DATA_IMAGE.test(trimmed)) return undefined;
    const payload = trimmed.length - trimmed.indexOf(',') - 1;
    return (payload * 3) / 4 <= maxBytes ? 'data' : undefined;
  }
  const parsed = parseAbsolute(trimmed);
  if (!parsed || parsed.protocol !== 'https:' || parsed.username || parsed.password)
    return undefined;
  return 'remote';
}

/**
 * The normalized image URL when {@link imageUrlKind} accepts it, else `undefined`.
 *
 * @example
 * safeImageUrl('javascript:alert(1)'); // undefined
 */
export function safeImageUrl(url: string, maxBytes = Infinity): string | undefined {
  const kind = imageUrlKind(url, maxBytes);
  if (kind === 'data') return url.trim().replace(/\s+/g, '');
  if (kind === 'remote') return parseAbsolute(url)?.href;
  return undefined;
}

function parseAbsolute(url: string): URL | undefined {
  try {
    // No base: a relative URL throws and is refused.
    return new URL(url);
  } catch {
    return undefined;
  }
}
