import { useMemo } from 'react';
import { BudgetNotice, useBudget } from '../budget.js';
import { useLazyModule } from '../lazy.js';
import { ansiModule } from '../loaders.js';
import { expectText, sliceText } from '../text.js';
import type { RendererProps } from '../types.js';

/**
 * `text/plain` (also used for `application/vnd.code.notebook.stdout`-like
 * streams and tracebacks): preformatted text with ANSI SGR colours. Escape
 * codes become React spans with classes (16 colours, themed through
 * `--skein-ansi-*`) or validated inline `rgb()` colours (256 and true colour)
 * — never an HTML string.
 *
 * @example
 * declare const rest: Omit<RendererProps, 'data' | 'mimeType'>;
 * <PlainTextRenderer data={'\x1b[31merror\x1b[0m: failed'} mimeType="text/plain" {...rest} />
 */
export function PlainTextRenderer({ data, mimeType, budget }: RendererProps) {
  return <PlainText text={expectText(data, mimeType)} limit={budget.chars} />;
}

/**
 * Props of {@link PlainText}.
 *
 * @example
 * declare const log: string;
 * const props: PlainTextProps = { text: log, limit: 10_000 };
 */
export interface PlainTextProps {
  text: string;
  /** Characters shown before "show all". */
  limit: number;
}

/**
 * Budgeted, ANSI-aware preformatted text; the building block of the text
 * renderers and of error fallbacks.
 *
 * @example
 * declare const log: string;
 * <PlainText text={log} limit={10_000} />
 */
export function PlainText({ text, limit }: PlainTextProps) {
  const { shown, total, hidden, showAll } = useBudget(text.length, limit);
  const visible = hidden ? sliceText(text, shown) : text;
  // Escape codes: coloured once the ANSI parser (a chunk of its own) is
  // loaded; until then shown as plain text without the codes.
  const escaped = hasAnsi(visible);
  const ansi = useLazyModule(ansiModule, escaped);
  const content = useMemo(
    () => (!escaped ? visible : ansi ? ansi.ansiToReact(visible) : stripAnsi(visible)),
    [visible, escaped, ansi],
  );
  return (
    <div className="skein-text">
      {/* A focusable scroll region: long lines scroll horizontally by keyboard too. */}
      {/* eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex -- axe scrollable-region-focusable */}
      <pre className="skein-text__pre" tabIndex={0}>
        {content}
      </pre>
      {hidden ? (
        <BudgetNotice shown={shown} total={total} unit="characters" onShowAll={showAll} />
      ) : null}
    </div>
  );
}

function hasAnsi(text: string): boolean {
  return text.includes('\u001b') || text.includes('\u009b');
}

/** CSI sequences (`ESC [ … final`) and two-character escapes. */
// eslint-disable-next-line no-control-regex -- matching escape codes is the point
const ANSI_CODE = /(?:\u001b\[|\u009b)[0-?]*[ -/]*[@-~]|\u001b[@-Z\\-_]/g;

/** The text without its ANSI escape codes. */
function stripAnsi(text: string): string {
  return text.replace(ANSI_CODE, '');
}
