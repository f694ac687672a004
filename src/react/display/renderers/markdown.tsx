import { startTransition, useEffect, useMemo, useState } from 'react';
import { formatCount } from '../../../core/format.js';
import { BudgetNotice, useBudget } from '../budget.js';
import { useLazyModule } from '../lazy.js';
import { markdownModule } from '../loaders.js';
import { expectText, sliceText } from '../text.js';
import type { RendererProps, Trust } from '../types.js';
import type { MarkdownChunk } from './markdown-body.js';
import { PlainText } from './plain-text.js';

/** Above this many characters, markdown is parsed in chunks across frames. */
const CHUNK_THRESHOLD = 3_000;
/**
 * Target characters per chunk: one chunk's parse stays well under a 50 ms
 * task. The first chunks are smaller (250, 500, 1000, …): while the parser's
 * code is still cold (first markdown on the page), a chunk costs several
 * times more, and a small one keeps that first task short too.
 */
const CHUNK_SIZE = 2_000;
const FIRST_CHUNK_SIZE = 250;
/** Chunks drawn in the first (synchronous) render, so the first paint has content. */
const FIRST_CHUNKS = 1;
/** Chunks added per later (transition) render. */
const STEP_CHUNKS = 4;

/**
 * Markdown (CommonMark + GFM) for agent output.
 *
 * Security: raw HTML is never interpreted — HTML in the source is
 * shown as literal text; links keep only absolute `http:`, `https:` and
 * `mailto:` URLs (anything else renders as plain text) and open in a new tab
 * with `rel="noopener noreferrer nofollow"`; images load only from `https:` or
 * as `data:image/(png|jpeg|gif|webp)` within the byte budget, and for untrusted
 * data a remote image waits for a click (no tracking pixel fires on render).
 *
 * Budgets: characters (cut at a block boundary, "show all" lifts it) and
 * nesting depth (deep `> > >` / list chains are shown as plain text, because
 * parsers recurse per level). Long documents are parsed in chunks, a few per
 * frame, so 100k characters never block the page in one long task.
 *
 * Loading: the parser (react-markdown, remark-gfm) is a separate
 * chunk fetched the first time markdown is shown; until it arrives the source
 * shows as plain text. `preloadDisplay()` fetches it ahead (for server
 * rendering, or to avoid the swap).
 *
 * @example
 * declare const rest: Omit<RendererProps, 'data' | 'mimeType'>;
 * <MarkdownRenderer data="**bold** [link](https://example.com)" mimeType="text/markdown" {...rest} />
 */
export function MarkdownRenderer({ data, mimeType, trust, budget, streaming }: RendererProps) {
  const whole = expectText(data, mimeType);
  // While the text is being written, its last paragraph (still growing) is
  // drawn as text and parsed once complete: a token costs no parse.
  const {
    done: text,
    tail,
    code,
  } = streaming === true ? streamingTail(whole) : { done: whole, tail: '', code: false };
  const { shown, total, hidden, showAll } = useBudget(text.length, budget.chars);
  const depth = useMemo(() => markdownDepth(text), [text]);
  if (depth > budget.depth) {
    return (
      <div className="skein-md skein-md--fallback">
        <BudgetNotice shown={0} total={depth} unit="levels">
          {`Nesting depth ${formatCount(depth)} exceeds ${formatCount(budget.depth)}: shown as plain text.`}
        </BudgetNotice>
        <PlainText text={text} limit={budget.chars} />
      </div>
    );
  }
  const visible = hidden ? cutAtBlock(text, shown) : text;
  return (
    <div className="skein-md">
      <MarkdownBody text={visible} trust={trust} maxImageBytes={budget.bytes} />
      {!hidden && tail !== '' ? (
        code ? (
          <pre data-skein-streaming="">
            <code>{tail}</code>
          </pre>
        ) : (
          <p data-skein-streaming="">{tail}</p>
        )
      ) : null}
      {hidden ? (
        <BudgetNotice shown={visible.length} total={total} unit="characters" onShowAll={showAll} />
      ) : null}
    </div>
  );
}

interface BodyProps {
  text: string;
  trust: Trust;
  maxImageBytes: number;
}

function MarkdownBody({ text, trust, maxImageBytes }: BodyProps) {
  const parser = useLazyModule(markdownModule);
  if (!parser) {
    return (
      <div data-skein-pending="">
        <PlainText text={text} limit={text.length} />
      </div>
    );
  }
  return (
    <MarkdownChunks
      text={text}
      trust={trust}
      maxImageBytes={maxImageBytes}
      Chunk={parser.MarkdownChunk}
    />
  );
}

function MarkdownChunks({
  text,
  trust,
  maxImageBytes,
  Chunk,
}: BodyProps & { Chunk: typeof MarkdownChunk }) {
  const chunks = useMemo(
    () =>
      text.length > CHUNK_THRESHOLD ? splitMarkdown(text, CHUNK_SIZE, FIRST_CHUNK_SIZE) : [text],
    [text],
  );
  // Derived state keyed by `chunks`: a new text starts over at FIRST_CHUNKS,
  // but a text that only grew at its end (a message streamed token by token)
  // keeps what it drew — its chunks are memoized by their text, so only the
  // last, changed one is parsed again, not the whole message per token.
  const [progress, setProgress] = useState({ chunks, count: FIRST_CHUNKS });
  let count = progress.count;
  if (progress.chunks !== chunks) {
    count = grownCount(progress.chunks, progress.count, chunks);
    setProgress({ chunks, count });
  }
  const done = count >= chunks.length;
  useEffect(() => {
    if (done) return;
    // A transition render is time-sliced by React: it yields between chunk
    // components, so the longest task is about one chunk's parse.
    const id = setTimeout(() =>
      startTransition(() => setProgress({ chunks, count: count + STEP_CHUNKS })),
    );
    return () => clearTimeout(id);
  }, [chunks, count, done]);
  return (
    <>
      {chunks.slice(0, count).map((chunk, i) => (
        <Chunk key={i} text={chunk} trust={trust} maxImageBytes={maxImageBytes} />
      ))}
      {done ? null : (
        <p className="skein-md__pending" data-skein-pending="">
          Rendering {formatCount(chunks.length - count)} more sections…
        </p>
      )}
    </>
  );
}

/**
 * A text being written, as its finished part (up to its last blank line
 * outside fenced code) and the paragraph still being written; `code` when
 * that paragraph is inside an open code fence.
 *
 * @example
 * import { streamingTail } from 'src/react/display/renderers/markdown.js';
 * streamingTail('# Title\n\nStill writ'); // { done: '# Title\n\n', tail: 'Still writ', code: false }
 */
export function streamingTail(text: string): { done: string; tail: string; code: boolean } {
  let fence: string | undefined;
  let cut = 0;
  let at = 0;
  let previousBlank = false;
  while (at <= text.length) {
    let nl = text.indexOf('\n', at);
    if (nl < 0) nl = text.length;
    const line = text.slice(at, nl);
    const match = FENCE.exec(line);
    if (match) {
      const marker = match[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) {
        fence = undefined;
        cut = Math.min(nl + 1, text.length); // a closed fence is a finished block
      }
    }
    const blank = line.trim() === '';
    if (fence === undefined && blank && !previousBlank && at > 0) cut = at;
    previousBlank = blank;
    at = nl + 1;
  }
  const tail = text.slice(cut);
  if (fence === undefined) return { done: text.slice(0, cut), tail, code: false };
  // Inside an open fence: the code so far, without its opening line.
  const open = tail.search(/^ {0,3}(`{3,}|~{3,})/m);
  const body = open < 0 ? tail : tail.slice(tail.indexOf('\n', open) + 1 || tail.length);
  return { done: text.slice(0, cut) + tail.slice(0, open < 0 ? 0 : open), tail: body, code: true };
}

/**
 * How many of `next`'s chunks to draw when the text changed from `before`
 * (of which `drawn` were drawn): as many as before when every drawn chunk
 * but the last is unchanged (the text grew at its end), all of them when all
 * were drawn; else a fresh start.
 */
function grownCount(before: readonly string[], drawn: number, next: readonly string[]): number {
  const kept = Math.min(drawn, before.length);
  for (let i = 0; i < kept - 1; i++) if (before[i] !== next[i]) return FIRST_CHUNKS;
  if (kept > 0 && !next[kept - 1]!.startsWith(before[kept - 1]!.slice(0, -1))) return FIRST_CHUNKS;
  return drawn >= before.length ? next.length : Math.max(FIRST_CHUNKS, drawn);
}

// ---------------------------------------------------------------------------
// Pre-scans: nesting depth, block-boundary cuts, chunking
// ---------------------------------------------------------------------------

const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * The deepest container nesting of any line (block quotes, list markers and
 * indentation), without parsing: a linear scan that runs before the parser,
 * whose recursion deep inputs would overflow.
 *
 * @example
 * import { markdownDepth } from './markdown.js';
 * markdownDepth('> > > deep'); // 3
 */
export function markdownDepth(text: string): number {
  let max = 0;
  let depth = 0;
  let spaces = 0;
  let atLineStart = true;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10) {
      atLineStart = true;
      depth = 0;
      spaces = 0;
      continue;
    }
    if (!atLineStart) continue;
    if (c === 32) spaces++;
    else if (c === 9) spaces += 4;
    else if (c === 62 /* > */) {
      depth++;
      if (text.charCodeAt(i + 1) === 32) i++;
    } else if ((c === 45 || c === 42 || c === 43) /* - * + */ && isBlank(text.charCodeAt(i + 1))) {
      depth++;
      i++;
    } else if (c >= 48 && c <= 57 /* 0-9 */ && orderedMarkerEnd(text, i) > 0) {
      depth++;
      i = orderedMarkerEnd(text, i);
    } else {
      atLineStart = false;
      const level = depth + Math.floor(spaces / 2);
      if (level > max) max = level;
    }
  }
  return max;
}

function isBlank(c: number): boolean {
  return c === 32 || c === 9;
}

/**
 * For an ordered list marker at `i` (1–9 digits, `.` or `)`, then a space or
 * tab), the index of that space or tab; else 0.
 */
function orderedMarkerEnd(text: string, i: number): number {
  let j = i;
  while (j < text.length && j - i < 9) {
    const d = text.charCodeAt(j);
    if (d < 48 || d > 57) break;
    j++;
  }
  const c = text.charCodeAt(j);
  return j > i && (c === 46 || c === 41) /* . ) */ && isBlank(text.charCodeAt(j + 1)) ? j + 1 : 0;
}

/** Cuts `text` to at most `limit` characters, at the last blank line when there is one. */
function cutAtBlock(text: string, limit: number): string {
  const head = sliceText(text, limit);
  const blank = head.lastIndexOf('\n\n');
  return blank > limit / 2 ? head.slice(0, blank) : head;
}

const DEFINITION = /^ {0,3}\[(?!\^)(?:[^\]\\\n]|\\.){1,999}\]:[ \t]*\S/;
const KEEP_WITH_PREVIOUS = /^(?:[ \t]|[>*+|-]|\d{1,9}[.)]|=|$)/;

/**
 * Splits markdown into chunks of about `size` characters that parse the same
 * alone: cuts only at a blank line outside fenced code, before a line that
 * cannot continue the previous block (no indentation, list, quote or table).
 * Link reference definitions apply document-wide, so each chunk gets a copy of
 * all of them. With `firstSize`, chunk sizes start there and double up to `size`.
 *
 * @example
 * import { splitMarkdown } from './markdown.js';
 * declare const longReport: string;
 * splitMarkdown(longReport, 3000).length; // ≈ longReport.length / 3000
 */
export function splitMarkdown(text: string, size: number, firstSize = size): string[] {
  let target = Math.min(firstSize, size);
  const lines = text.split('\n');
  const definitions: string[] = [];
  const chunks: string[] = [];
  let current: string[] = [];
  let currentLength = 0;
  let fence: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const fenceMatch = FENCE.exec(line);
    if (fenceMatch) {
      const marker = fenceMatch[1]!;
      if (fence === undefined) fence = marker;
      else if (marker[0] === fence[0] && marker.length >= fence.length) fence = undefined;
    } else if (fence === undefined && DEFINITION.test(line)) {
      definitions.push(line);
    }
    const previous = lines[i - 1];
    if (
      fence === undefined &&
      currentLength >= target &&
      previous !== undefined &&
      previous.trim() === '' &&
      !KEEP_WITH_PREVIOUS.test(line)
    ) {
      chunks.push(current.join('\n'));
      current = [];
      currentLength = 0;
      target = Math.min(size, target * 2);
    }
    current.push(line);
    currentLength += line.length + 1;
  }
  chunks.push(current.join('\n'));
  if (chunks.length === 1 || definitions.length === 0) return chunks;
  const suffix = `\n\n${definitions.join('\n')}\n`;
  return chunks.map((chunk) => chunk + suffix);
}
