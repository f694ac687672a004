import { SkeinError } from '../../core/errors.js';
import DOMPurify, { type Config, type DOMPurify as Purifier } from 'dompurify';
import { imageUrlKind, safeLinkUrl } from './url-policy.js';

/**
 * Elements removed from trusted HTML on top of DOMPurify's defaults. Trusted
 * means "the producer is not hostile", not "may take over the page": no global
 * styles, no forms, no frames or plugins, nothing that changes how the host
 * document resolves URLs or refreshes, no media that fetches on its own.
 */
const FORBID_TAGS = [
  'style',
  'link',
  'meta',
  'base',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'option',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'applet',
  'portal',
  'audio',
  'video',
  'source',
  'track',
  'template',
  'noscript',
  'dialog',
  'animate',
  'animateMotion',
  'animateTransform',
  'set',
  'foreignObject',
];

const FORBID_ATTR = [
  'srcset',
  'action',
  'formaction',
  'ping',
  'background',
  'poster',
  'autofocus',
  'tabindex',
  'accesskey',
  'popover',
  'popovertarget',
];

/** CSS that can fetch, run code or escape its declaration in some engine. */
const DANGEROUS_CSS =
  /url\s*\(|image-set|expression|@import|behavio(u)?r|-moz-binding|javascript:|\\/i;

/** Every `url(` in an attribute value, with what starts its argument. */
const URL_FUNCTION = /url\s*\(\s*(['"]?)\s*(#?)/gi;

/**
 * SVG presentation attributes (`fill`, `filter`, `mask`, …) are CSS values:
 * besides `url(` they can fetch through `image-set`/`image()`/`src()` or hide
 * `url(` behind a CSS escape. Checked on SVG elements only (HTML does not parse
 * its attributes as CSS).
 */
const DANGEROUS_SVG_VALUE = /image-set|image\s*\(|cross-fade|src\s*\(|element\s*\(|\\/i;

/** DOMPurify's prefix for ids and names under `SANITIZE_NAMED_PROPS`. */
const ID_PREFIX = 'user-content-';

/** `#id` → `#user-content-id`, matching what `SANITIZE_NAMED_PROPS` does to the id itself. */
function prefixFragment(id: string): string {
  return id.startsWith(ID_PREFIX) ? id : ID_PREFIX + id;
}

/**
 * The value with every `url(#id)` pointed at the prefixed id, or `null` when
 * some `url(…)` in it is not a same-document fragment (it would fetch).
 */
function fragmentUrls(value: string): string | null {
  let external = false;
  const out = value.replace(URL_FUNCTION, (match: string, quote: string, hash: string) => {
    if (!hash) external = true;
    return hash ? `url(${quote}#` : match;
  });
  if (external) return null;
  return out.replace(/url\((['"]?)#([^'")\s]*)/g, (_m, quote: string, id: string) => {
    return `url(${quote}#${prefixFragment(id)}`;
  });
}

const CONFIG: Config = {
  FORBID_TAGS,
  FORBID_ATTR,
  // ids and names become `user-content-…`, so output cannot clobber
  // `document.foo` or the host's own ids.
  SANITIZE_NAMED_PROPS: true,
  ALLOW_DATA_ATTR: false,
  ALLOW_UNKNOWN_PROTOCOLS: false,
};

let purifier: Purifier | undefined;

function getPurifier(): Purifier | undefined {
  if (purifier) return purifier;
  if (typeof window === 'undefined') return undefined;
  // A private instance: hooks on the shared default would leak into the host app's own use.
  const instance = DOMPurify(window);
  if (!instance.isSupported) return undefined;
  instance.addHook('afterSanitizeAttributes', (node) => {
    const el = node as Element;
    if (typeof el.getAttribute !== 'function') return;
    const tag = el.localName;
    for (const name of ['href', 'xlink:href']) {
      const value = el.getAttribute(name);
      if (value === null) continue;
      if (tag === 'a') {
        const safe = safeLinkUrl(value);
        if (safe) el.setAttribute(name, safe);
        else el.removeAttribute(name);
      } else if (!value.trim().startsWith('#')) {
        // SVG <use>/<image> may only point inside the fragment.
        el.removeAttribute(name);
      } else {
        el.setAttribute(name, `#${prefixFragment(value.trim().slice(1))}`);
      }
    }
    const svg = el.namespaceURI === 'http://www.w3.org/2000/svg';
    for (const { name, value } of Array.from(el.attributes)) {
      if (name === 'style') continue; // checked below, stricter
      if (svg && name !== 'href' && name !== 'xlink:href' && DANGEROUS_SVG_VALUE.test(value)) {
        el.removeAttribute(name);
        continue;
      }
      if (!/url\s*\(/i.test(value)) continue;
      // `fill="url(https://…)"`, `filter`, `mask`, `clip-path`, `marker-*`…
      // would fetch; only same-document references stay, renamed like the ids.
      const local = fragmentUrls(value);
      if (local === null) el.removeAttribute(name);
      else if (local !== value) el.setAttribute(name, local);
    }
    if (tag === 'a') {
      if (el.hasAttribute('href') || el.hasAttribute('xlink:href')) {
        el.setAttribute('target', '_blank');
        el.setAttribute('rel', 'noopener noreferrer nofollow');
      } else {
        el.removeAttribute('target');
      }
    }
    const src = el.getAttribute('src');
    // No request leaves the page by itself: only inline raster images load.
    if (src !== null && imageUrlKind(src) !== 'data') el.removeAttribute('src');
    const style = el.getAttribute('style');
    if (style !== null && DANGEROUS_CSS.test(style)) el.removeAttribute('style');
  });
  purifier = instance;
  return instance;
}

/**
 * Whether {@link sanitizeHtml} can run here (it needs a DOM).
 *
 * @example
 * import { canSanitize } from './sanitize.js';
 * declare const html: string;
 * declare function showInSandboxedFrame(html: string): void;
 * if (!canSanitize()) showInSandboxedFrame(html);
 */
export function canSanitize(): boolean {
  return getPurifier() !== undefined;
}

/**
 * Sanitizes HTML for inlining into the host page (the trusted path only):
 * DOMPurify's defaults (no script, no `on*`, no `javascript:`), plus skein's
 * stricter rules — see `FORBID_TAGS`; links only `http(s):`/`mailto:` and
 * opening in a new tab; images only as inline `data:` rasters; no CSS that
 * fetches, in `style` or in any other attribute (an SVG `fill="url(…)"` keeps
 * only same-document `url(#id)` references, pointed at the `user-content-`
 * ids like fragment `href`s). Throws when there is no DOM to sanitize with (never returns
 * unsanitized input, unlike DOMPurify's own server fallback).
 *
 * @example
 * import { sanitizeHtml } from './sanitize.js';
 * sanitizeHtml('<img src=x onerror=alert(1)><b>ok</b>'); // '<img><b>ok</b>'
 */
export function sanitizeHtml(html: string, options: { svg?: boolean } = {}): string {
  const p = getPurifier();
  if (!p) throw new SkeinError('sanitize_no_dom');
  const config: Config = options.svg
    ? // `<use>` is safe here: the hook keeps only fragment `href`s, renamed to the prefixed ids.
      { ...CONFIG, USE_PROFILES: { svg: true, svgFilters: true }, ADD_TAGS: ['use'] }
    : CONFIG;
  return p.sanitize(html, { ...config, RETURN_TRUSTED_TYPE: false }) as string;
}
