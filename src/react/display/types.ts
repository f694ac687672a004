import type { ComponentType } from 'react';
import type { MimeBundle, MimeRegistry, RendererInfo, Trust } from '../../core/display/types.js';

export type { MimeBundle, Trust } from '../../core/display/types.js';

/**
 * Size limits a renderer respects before it draws. Each renderer says what it
 * hid ("showing 10,000 of 2,345,678 characters") and offers "show all".
 *
 * @example
 * <DisplayProvider budget={{ chars: 20_000 }}>…</DisplayProvider>
 */
export interface DisplayBudget {
  /** Characters of text, markdown, HTML, diff or LaTeX drawn before a "show all" (default 100 000). */
  chars: number;
  /**
   * Markdown nesting depth (block quotes, list items, indentation; see
   * `markdownDepth`) beyond which markdown is shown as plain text (default 100).
   * Only the markdown renderer uses it: HTML nesting is left to the sanitizer
   * and the browser.
   */
  depth: number;
  /** Decoded bytes of an image, or of JSON text to parse (default 10 MB). */
  bytes: number;
  /** Children of a JSON object or array drawn per "show more" page (default 100). */
  items: number;
}

/**
 * Props every renderer component receives.
 *
 * @example
 * function Upper({ data }: RendererProps) { return <span>{String(data).toUpperCase()}</span>; }
 */
export interface RendererProps {
  /** `bundle.data[mimeType]`, as it came (untyped: renderers validate it). */
  data: unknown;
  /** The chosen MIME type. */
  mimeType: string;
  /** Per-type metadata (`bundle.metadata[mimeType]`), when it is an object. */
  metadata: Readonly<Record<string, unknown>> | undefined;
  /** The whole bundle, e.g. to use `text/plain` as alt text. */
  bundle: MimeBundle;
  trust: Trust;
  budget: DisplayBudget;
  /**
   * The output is still being written (a message in flight, re-drawn as it
   * grows): a renderer may draw its unfinished end cheaply — markdown shows
   * the paragraph being written as text until it is complete.
   */
  streaming?: boolean;
}

/**
 * A React renderer component.
 *
 * @example
 * const Shout: RendererComponent = ({ data }) => <strong>{String(data)}</strong>;
 */
export type RendererComponent = ComponentType<RendererProps>;

/**
 * A renderer as registered: the core's {@link RendererInfo} (MIME types, rank —
 * lower wins — and whether it is safe for untrusted data) with a React
 * component as payload.
 *
 * @example
 * const shout: DisplayRenderer = {
 *   name: 'shout', mimeTypes: ['text/x-shout'], rank: 10, safe: true,
 *   renderer: ({ data }) => <strong>{String(data)}</strong>,
 * };
 */
export interface DisplayRenderer extends RendererInfo<RendererComponent> {
  name: string;
  renderer: RendererComponent;
}

/**
 * The registry `<Display>` chooses renderers from: the core's mutable
 * {@link MimeRegistry} holding React components.
 *
 * @example
 * const registry: RendererRegistry = createRendererRegistry();
 */
export type RendererRegistry = MimeRegistry<RendererComponent>;
