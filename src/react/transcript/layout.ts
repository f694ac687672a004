import { useEffect, useRef, useState, type CSSProperties } from 'react';
import { errorMessage } from '../../core/errors.js';
import type { LayoutProblem } from '../list/viewport.js';

/**
 * The layout-critical styles, inline: what makes the transcript a
 * bounded scroller in any parent even before (or without) `skein/styles.css`.
 * Everything else — colours, spacing, the root's `height: 100%` — is in the
 * stylesheet, at a specificity a user's class overrides.
 *
 * The scroller's flex basis is the height the transcript takes where its
 * parent gives it none (page flow, an unsized flex or grid track):
 * `--skein-transcript-height`, 600 px by default. In a parent with a height
 * it fills the parent instead (`height: 100%` on the root, the scroller
 * growing or shrinking to fit).
 */
export const layoutStyles = {
  root: { display: 'flex', flexDirection: 'column', position: 'relative', minWidth: 0 },
  scroller: {
    position: 'relative',
    flex: '1 1 var(--skein-transcript-height, 600px)',
    minHeight: 0,
    overflow: 'auto',
    overflowAnchor: 'none',
  },
  feed: { position: 'relative', width: '100%' },
  /** Before the scroller is measured (server, hydration): rows in normal flow. */
  rowsFlow: { position: 'relative' },
  rows: { position: 'absolute', top: 0, left: 0, right: 0, height: 0 },
  rowFlow: { position: 'relative' },
  row: { position: 'absolute', top: 0, left: 0, width: '100%', boxSizing: 'border-box' },
} satisfies Record<string, CSSProperties>;

/**
 * A layout the transcript cannot honour, as given to `onWarning`.
 *
 * @example
 * declare function report(code: string, message: string): void;
 * <Transcript stream={stream} onWarning={(w) => report(w.code, w.message)} />;
 */
export interface TranscriptWarning {
  readonly code: LayoutProblem['code'];
  readonly message: string;
}

function messageOf(problem: LayoutProblem): string {
  return problem.code === 'layout_no_height'
    ? errorMessage('layout_no_height')
    : errorMessage('layout_unbounded', problem.height);
}

/**
 * Whether this is a development build: bundlers replace
 * `process.env.NODE_ENV` (Vite, webpack, esbuild, Next.js do); where nothing
 * replaced it and there is no `process`, it counts as production.
 */
export function isDevelopment(): boolean {
  try {
    return process.env.NODE_ENV !== 'production';
  } catch {
    return false;
  }
}

/**
 * Reports a layout the transcript cannot honour. Library code
 * never writes to the console (the house rule): the warning goes to
 * `onWarning` when given; otherwise, in a development build only, it is
 * returned to be shown in the transcript's toolbar, where the developer
 * looking at the broken layout sees it. Production builds show nothing.
 */
export function useLayoutWarning(
  problem: LayoutProblem | null,
  onWarning: ((warning: TranscriptWarning) => void) | undefined,
): TranscriptWarning | null {
  const onWarningRef = useRef(onWarning);
  onWarningRef.current = onWarning;
  const [dev] = useState(isDevelopment);
  const warning = problem === null ? null : { code: problem.code, message: messageOf(problem) };
  const code = warning?.code ?? null;
  const messageRef = useRef('');
  messageRef.current = warning?.message ?? '';
  // Once per problem that appears (the height in a message may change).
  useEffect(() => {
    if (code !== null) onWarningRef.current?.({ code, message: messageRef.current });
  }, [code]);
  return warning !== null && onWarning === undefined && dev ? warning : null;
}
