import { SkeinError } from '../../../core/errors.js';
import { useMemo } from 'react';
import { formatBytes } from '../../../core/format.js';
import { BudgetNotice, useBudget } from '../budget.js';
import { useLazyModule } from '../lazy.js';
import { sanitizerModule } from '../loaders.js';
import { expectText, positiveNumber } from '../text.js';
import type { MimeBundle, RendererProps } from '../types.js';

const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const RASTER = new Set(['image/png', 'image/jpeg', 'image/gif', 'image/webp']);

/**
 * Raster images (`image/png`, `image/jpeg`, `image/gif`, `image/webp`) sent as
 * base64, as Jupyter does. The payload is checked to be base64 (so it cannot
 * break out of the `data:` URL) and its decoded size against the byte budget.
 * Alt text comes from `metadata.alt`, else the bundle's `text/plain`.
 *
 * @example
 * declare const pngBase64: string;
 * declare const rest: Omit<RendererProps, 'data' | 'mimeType' | 'bundle'>;
 * <ImageRenderer data={pngBase64} mimeType="image/png" bundle={{ data: { 'image/png': pngBase64, 'text/plain': '<Figure>' } }} {...rest} />
 */
export function ImageRenderer({ data, mimeType, metadata, bundle, budget }: RendererProps) {
  if (!RASTER.has(mimeType)) throw new SkeinError('display_not_raster', mimeType);
  let payload = expectText(data, mimeType).replace(/\s+/g, '');
  const prefix = `data:${mimeType};base64,`;
  if (payload.startsWith(prefix)) payload = payload.slice(prefix.length);
  if (!BASE64.test(payload)) throw new SkeinError('display_not_base64', mimeType);
  const bytes = Math.floor((payload.length * 3) / 4);
  return (
    <BudgetedImage
      src={`${prefix}${payload}`}
      bytes={bytes}
      limit={budget.bytes}
      alt={altText(bundle, metadata, mimeType)}
      width={positiveNumber(metadata, 'width')}
      height={positiveNumber(metadata, 'height')}
    />
  );
}

/**
 * `image/svg+xml`. Untrusted SVG is drawn only through `<img>` from a `data:`
 * URL: an image document runs no script, follows no link and loads nothing
 * external. Trusted SVG is sanitized (DOMPurify's SVG profile) and inlined, so
 * it can use `currentColor` and the theme; until the sanitizer has loaded (on
 * first use, see `preloadDisplay`) it shows as an image too.
 *
 * @example
 * declare const rest: Omit<RendererProps, 'data' | 'mimeType' | 'trust'>;
 * <SvgRenderer data="<svg …/>" mimeType="image/svg+xml" trust="untrusted" {...rest} />
 */
export function SvgRenderer({ data, mimeType, metadata, bundle, trust, budget }: RendererProps) {
  const svg = expectText(data, mimeType);
  const src = useMemo(() => `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`, [svg]);
  const sanitizer = useLazyModule(sanitizerModule, trust === 'trusted');
  const alt = altText(bundle, metadata, mimeType);
  if (trust === 'trusted' && sanitizer?.canSanitize()) {
    return (
      <TrustedSvg svg={svg} alt={alt} limit={budget.bytes} sanitize={sanitizer.sanitizeHtml} />
    );
  }
  return (
    <BudgetedImage
      src={src}
      bytes={svg.length}
      limit={budget.bytes}
      alt={alt}
      width={positiveNumber(metadata, 'width')}
      height={positiveNumber(metadata, 'height')}
    />
  );
}

/** Sanitized, inlined SVG, behind the byte budget like every other image. */
function TrustedSvg({
  svg,
  alt,
  limit,
  sanitize,
}: {
  svg: string;
  alt: string;
  limit: number;
  sanitize: (html: string, options: { svg: boolean }) => string;
}) {
  const bytes = svg.length;
  const { hidden, showAll } = useBudget(bytes, limit);
  // Not sanitized (nor parsed) while hidden: the budget also bounds that work.
  const clean = useMemo(
    () => (hidden ? '' : sanitize(svg, { svg: true })),
    [svg, hidden, sanitize],
  );
  if (hidden) {
    return (
      <BudgetNotice shown={0} total={bytes} unit="bytes" onShowAll={showAll}>
        {`Image hidden: ${formatBytes(bytes)} is over the ${formatBytes(limit)} limit.`}
      </BudgetNotice>
    );
  }
  return (
    <div
      className="skein-image skein-image--svg"
      role="img"
      aria-label={alt}
      // DOMPurify output on the trusted path only (see sanitizeHtml).
      dangerouslySetInnerHTML={{ __html: clean }}
    />
  );
}

interface BudgetedImageProps {
  src: string;
  bytes: number;
  limit: number;
  alt: string;
  width: number | undefined;
  height: number | undefined;
}

function BudgetedImage({ src, bytes, limit, alt, width, height }: BudgetedImageProps) {
  const { hidden, showAll } = useBudget(bytes, limit);
  if (hidden) {
    return (
      <BudgetNotice shown={0} total={bytes} unit="bytes" onShowAll={showAll}>
        {`Image hidden: ${formatBytes(bytes)} is over the ${formatBytes(limit)} limit.`}
      </BudgetNotice>
    );
  }
  return (
    <img
      className="skein-image"
      src={src}
      alt={alt}
      width={width}
      height={height}
      decoding="async"
    />
  );
}

function altText(
  bundle: MimeBundle,
  metadata: Readonly<Record<string, unknown>> | undefined,
  mimeType: string,
): string {
  const fromMeta = metadata?.['alt'];
  if (typeof fromMeta === 'string' && fromMeta.trim()) return fromMeta.slice(0, 300);
  const plain = bundle.data['text/plain'];
  const text = typeof plain === 'string' ? plain : Array.isArray(plain) ? plain.join('') : '';
  if (text.trim()) return text.trim().slice(0, 300);
  return `${mimeType} output`;
}
