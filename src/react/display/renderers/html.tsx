import { useMemo } from 'react';
import { BudgetNotice, useBudget } from '../budget.js';
import { useLazyModule } from '../lazy.js';
import { sanitizerModule } from '../loaders.js';
import { expectText, positiveNumber, sliceText } from '../text.js';
import type { RendererProps } from '../types.js';

/**
 * The Content-Security-Policy of every sandboxed frame: nothing may load
 * except inline styles and `data:` images — no scripts (also refused by the
 * sandbox), no remote images, fonts, frames, forms or prefetches, and no
 * `<base>` that re-targets URLs.
 *
 * @example
 * declare const html: string;
 * sandboxDocument(html).includes(SANDBOX_CSP); // true
 */
export const SANDBOX_CSP =
  "default-src 'none'; img-src data:; style-src 'unsafe-inline'; base-uri 'none'; form-action 'none'";

/** Height of an untrusted HTML frame when the bundle's metadata gives none. */
const DEFAULT_FRAME_HEIGHT = 240;
const MAX_FRAME_HEIGHT = 2000;

/**
 * The `srcdoc` of a sandboxed frame: the CSP `<meta>` comes first in `<head>`,
 * before any agent markup, so nothing the agent writes can precede it (and a
 * second policy can only tighten, never loosen, the first).
 *
 * @example
 * sandboxDocument('<b>hi</b>'); // '<!doctype html><html><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" …'
 */
export function sandboxDocument(html: string): string {
  return (
    '<!doctype html><html><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${SANDBOX_CSP}">` +
    '<meta name="color-scheme" content="light dark">' +
    '<meta name="referrer" content="no-referrer">' +
    '<style>html{font:14px/1.45 system-ui,sans-serif}body{margin:8px}</style>' +
    `</head><body>${html}</body></html>`
  );
}

/**
 * `text/html`.
 *
 * - Untrusted: a `<iframe sandbox="" srcdoc>` — an opaque origin with no
 *   scripts, forms, popups, top navigation or same-origin access, plus
 *   {@link SANDBOX_CSP}. Because no script runs inside, the frame cannot report
 *   its content height: it gets `metadata.height` (clamped) or 240 px, and the
 *   user can resize it vertically; content beyond that scrolls inside.
 * - Trusted: sanitized with DOMPurify (see `sanitizeHtml`) and inlined, so it
 *   takes the theme's fonts and sizes to its content. Until the sanitizer has
 *   loaded (it is fetched on first use, see `preloadDisplay`), and where no DOM
 *   exists to sanitize with (server rendering), it shows in the sandboxed frame.
 *
 * @example
 * declare const rest: Omit<RendererProps, 'data' | 'mimeType' | 'trust'>;
 * <HtmlRenderer data="<table>…</table>" mimeType="text/html" trust="untrusted" {...rest} />
 */
export function HtmlRenderer({ data, mimeType, trust, metadata, budget }: RendererProps) {
  const html = expectText(data, mimeType);
  const { shown, total, hidden, showAll } = useBudget(html.length, budget.chars);
  const visible = hidden ? sliceText(html, shown) : html;
  const notice = hidden ? (
    <BudgetNotice shown={shown} total={total} unit="characters of HTML" onShowAll={showAll} />
  ) : null;
  const sanitizer = useLazyModule(sanitizerModule, trust === 'trusted');
  if (trust === 'trusted' && sanitizer?.canSanitize()) {
    return (
      <div className="skein-html">
        <SanitizedHtml html={visible} sanitize={sanitizer.sanitizeHtml} />
        {notice}
      </div>
    );
  }
  const height = Math.min(
    MAX_FRAME_HEIGHT,
    positiveNumber(metadata, 'height') ?? DEFAULT_FRAME_HEIGHT,
  );
  return (
    <div className="skein-html">
      <SandboxedFrame html={visible} height={height} />
      {notice}
    </div>
  );
}

/**
 * Props of {@link SandboxedFrame}.
 *
 * @example
 * const props: SandboxedFrameProps = { html: '<p>hi</p>', height: 120 };
 */
export interface SandboxedFrameProps {
  html: string;
  height: number;
  title?: string;
}

/**
 * Untrusted markup in a frame that can run nothing and fetch nothing.
 *
 * @example
 * <SandboxedFrame html="<p>hi</p>" height={120} />
 */
export function SandboxedFrame({
  html,
  height,
  title = 'HTML output (sandboxed, scripts disabled)',
}: SandboxedFrameProps) {
  const srcDoc = useMemo(() => sandboxDocument(html), [html]);
  return (
    <div className="skein-html__frame" style={{ height }}>
      <iframe
        // Empty sandbox = every restriction: no allow-scripts, no
        // allow-same-origin, no allow-forms/popups/top-navigation.
        sandbox=""
        srcDoc={srcDoc}
        title={title}
        referrerPolicy="no-referrer"
      />
    </div>
  );
}

function SanitizedHtml({ html, sanitize }: { html: string; sanitize: (html: string) => string }) {
  const clean = useMemo(() => sanitize(html), [html, sanitize]);
  // The only dangerouslySetInnerHTML in skein: DOMPurify output on the trusted
  // path, never agent output. React cannot render an HTML string any other way.
  return <div className="skein-html__inline" dangerouslySetInnerHTML={{ __html: clean }} />;
}
