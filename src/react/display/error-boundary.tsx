import { Component, type ErrorInfo, type ReactNode } from 'react';
import { rawText } from './text.js';

/**
 * Props of {@link RendererErrorBoundary}.
 *
 * @example
 * declare const text: string;
 * const props: RendererErrorBoundaryProps = { mimeType: 'text/markdown', raw: text, limit: 10_000 };
 */
export interface RendererErrorBoundaryProps {
  /** The MIME type being drawn, named in the fallback. */
  mimeType: string;
  /** What to show as raw text when the renderer fails. */
  raw: unknown;
  /** Characters of raw text shown. */
  limit: number;
  onError?: (error: unknown, mimeType: string) => void;
  children?: ReactNode;
}

interface State {
  error: unknown;
}

/**
 * Catches a failing renderer and shows the raw text and the error in its
 * place, so one bad output never blanks the transcript around it. Remount
 * (a new `key`) to retry.
 *
 * @example
 * declare const text: string;
 * declare const rest: Omit<RendererProps, 'data' | 'mimeType'>;
 * <RendererErrorBoundary mimeType="text/markdown" raw={text} limit={10_000}>
 *   <MarkdownRenderer data={text} mimeType="text/markdown" {...rest} />
 * </RendererErrorBoundary>
 */
export class RendererErrorBoundary extends Component<RendererErrorBoundaryProps, State> {
  override state: State = { error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error ?? new Error('unknown error') };
  }

  override componentDidCatch(error: unknown, _info: ErrorInfo) {
    this.props.onError?.(error, this.props.mimeType);
  }

  // New data (the next version of a streamed output, drawn in place) gets
  // another try.
  override componentDidUpdate(previous: RendererErrorBoundaryProps) {
    if (this.state.error !== undefined && previous.raw !== this.props.raw)
      this.setState({ error: undefined });
  }

  // Annotated: an inferred type would be written out in the d.ts as React 19's ReactNode
  // union (with bigint), which React 18's Component.render rejects (TS2416).
  override render(): ReactNode {
    if (this.state.error === undefined) return this.props.children;
    const { error } = this.state;
    const message = error instanceof Error ? error.message : String(error);
    return (
      <div className="skein-display__error" data-skein-error="">
        <p className="skein-display__error-message">
          <strong>Could not render {this.props.mimeType}:</strong> {message}
        </p>
        {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe scrollable-region-focusable */}
        <pre className="skein-text__pre" tabIndex={0}>
          {rawText(this.props.raw, this.props.limit)}
        </pre>
      </div>
    );
  }
}
