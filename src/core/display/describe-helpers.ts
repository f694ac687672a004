// Past 600 lines: the shared building blocks of the describers (search text, bodies for messages, content parts and tool calls), each short.
/**
 * Building blocks of the event describers: bounded search text, body bundles
 * for messages, content parts and tool calls, and small formatters. Internal
 * to `src/core/display/`, except what `DescribeContext` hands to user
 * describers.
 */
import type {
  ChatMessage,
  Content,
  Event,
  MimeBundle,
  ToolCall,
  ToolCallContent,
} from '../events/types.js';
import { eventOutcome } from '../events/outcome.js';
import { ownKeys } from '../events/freeze.js';
import { formatBytes, formatCount } from '../format.js';
import { displayNotes, displayOf } from './display-of.js';
import { markdownToPlainText } from './markdown-text.js';
import type { DisplayMetadata, DisplayOptions, EventDisplay, EventTokens } from './types.js';

// ---------------------------------------------------------------------------
// Search text
// ---------------------------------------------------------------------------

// Nodes visited when collecting the strings of a nested value; past it the
// walk stops (and the truncation count becomes a lower bound).
const WALK_BUDGET = 5_000;

/**
 * Collects the searchable texts of one event up to a character bound. Texts
 * past the bound are counted, not kept.
 * @internal
 * @example
 * import { SearchText } from 'src/core/display/describe-helpers.js';
 * const s = new SearchText(100);
 * s.add('bash');
 * s.result().searchText; // 'bash'
 */
export class SearchText {
  private readonly parts: string[] = [];
  private used = 0;
  private dropped = 0;

  constructor(private readonly max: number) {}

  /** Texts already added: a body that repeats a field adds nothing twice. */
  private readonly seen = new Set<string>();

  /**
   * Adds one text (ignored when empty, not a string/number, or added
   * before). ANSI escapes are removed: the page shows the text without them,
   * and find must match what the page shows.
   */
  add(text: unknown): this {
    if (typeof text === 'number' && Number.isFinite(text)) text = String(text);
    if (typeof text !== 'string' || text === '' || this.seen.has(text)) return this;
    const room = this.max - this.used - (this.parts.length > 0 ? 1 : 0);
    if (room <= 0) {
      // Full: count the cut, but remember nothing (a huge walk stays cheap).
      this.dropped += text.length;
      return this;
    }
    this.seen.add(text);
    // Cut before cleaning: a huge text costs only the part that is kept.
    let kept = text.length > room ? text.slice(0, room) : text;
    this.dropped += text.length - kept.length;
    if (kept.includes('\u001b')) kept = stripAnsi(kept);
    this.used += kept.length + (this.parts.length > 0 ? 1 : 0);
    this.parts.push(kept);
    return this;
  }

  /** Adds every string (and finite number) inside a JSON-like value, in order. */
  addValue(value: unknown): this {
    let budget = WALK_BUDGET;
    const seen = new Set<object>();
    const walk = (v: unknown): void => {
      if (budget-- <= 0) {
        // Unknown remainder: count at least one character so the result says "cut".
        this.dropped = Math.max(this.dropped, 1);
        return;
      }
      if (typeof v === 'string' || typeof v === 'number') {
        this.add(v);
        return;
      }
      if (typeof v !== 'object' || v === null || seen.has(v)) return;
      seen.add(v);
      if (Array.isArray(v)) {
        for (const item of v) walk(item);
        return;
      }
      for (const key of ownKeys(v)) walk((v as Record<string, unknown>)[key]);
    };
    walk(value);
    return this;
  }

  /**
   * Adds the texts of a bundle (`text/plain`, `text/markdown` as the words
   * it renders to, `text/latex`, JSON values).
   */
  addBundle(bundle: MimeBundle): this {
    const data = bundle.data;
    let any = false;
    for (const mime of ['text/markdown', 'text/plain', 'text/latex']) {
      const text = data[mime];
      if (typeof text === 'string') {
        // Rendered markdown shows `bold` for `**bold**`: search both forms.
        if (mime === 'text/markdown') {
          this.add(text);
          if (MARKDOWN_SYNTAX.test(text)) this.add(markdownToPlainText(text));
        } else this.add(text);
        any = true;
        // Markdown and plain text usually say the same: keep one.
        break;
      }
    }
    if (!any && data['application/json'] !== undefined) this.addValue(data['application/json']);
    return this;
  }

  /**
   * The joined text. `head` texts (title, subtitle) go first, so the bound
   * never drops what a row shows; the tail is cut to make room for them.
   */
  result(head: unknown[] = []): Pick<EventDisplay, 'searchText' | 'searchTextTruncated'> {
    const first = head.filter((t): t is string => typeof t === 'string' && t !== '');
    let text = [...first, ...this.parts].join('\n');
    let dropped = this.dropped;
    if (text.length > this.max) {
      dropped += text.length - this.max;
      text = text.slice(0, this.max);
    }
    return { searchText: text, searchTextTruncated: dropped };
  }
}

// ---------------------------------------------------------------------------
// Formatting
// ---------------------------------------------------------------------------

// Characters of markdown syntax: text without any reads the same rendered.
const MARKDOWN_SYNTAX = /[*_`[#>|~\\<]/;

// CSI and OSC escape sequences (colours, cursor moves, hyperlinks).
// eslint-disable-next-line no-control-regex
const ANSI = /\u001b(?:\[[0-?]*[ -/]*[@-~]|\][^\u0007\u001b]*(?:\u0007|\u001b\\)|[@-Z\\-_])/g;

/**
 * `text` without ANSI escape sequences: what a terminal (or the ANSI
 * renderer) shows.
 * @internal
 * @example
 * import { stripAnsi } from 'src/core/display/describe-helpers.js';
 * stripAnsi('\u001b[31mred\u001b[0m'); // 'red'
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/**
 * The first non-empty line of a text, cut to `max` characters.
 * @internal
 * @example
 * import { firstLine } from 'src/core/display/describe-helpers.js';
 * firstLine('\nhello\nworld'); // 'hello'
 */
export function firstLine(text: unknown, max = 120): string {
  if (typeof text !== 'string') return '';
  const start = text.search(/\S/);
  if (start < 0) return '';
  const end = text.indexOf('\n', start);
  const line = (end < 0 ? text.slice(start) : text.slice(start, end)).trimEnd();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}

/**
 * A value as a short one-line text (strings as-is, others as bounded JSON-ish).
 * @internal
 * @example
 * import { shortValue } from 'src/core/display/describe-helpers.js';
 * shortValue({ a: 1 }); // '{"a":1}'
 */
export function shortValue(value: unknown, max = 120): string {
  let text = typeof value === 'string' ? value : boundedJson(value, max + 1);
  text = text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max - 1)}…` : text;
}

/**
 * Compact JSON of a value, written only up to about `max` characters: a
 * describer runs once per event of a transcript, so a 10 MB state value must
 * not cost a full `JSON.stringify`. Values JSON cannot hold print as
 * JavaScript would (`undefined`, `12n`, `NaN`); cycles as `"[Circular]"`.
 * @internal
 * @example
 * import { boundedJson } from 'src/core/display/describe-helpers.js';
 * boundedJson({ a: [1, 'x'] }, 100); // '{"a":[1,"x"]}'
 */
export function boundedJson(value: unknown, max: number): string {
  const out: string[] = [];
  let length = 0;
  const path = new Set<object>();
  const emit = (s: string) => {
    out.push(s);
    length += s.length;
  };
  const walk = (v: unknown): void => {
    if (length > max) return;
    if (typeof v === 'string') {
      // Quote only the part that can still be shown.
      emit(JSON.stringify(v.length > max ? v.slice(0, max) : v));
      return;
    }
    if (v === null || typeof v !== 'object') {
      emit(v === undefined ? 'undefined' : formatScalar(v));
      return;
    }
    if (path.has(v)) {
      emit('"[Circular]"');
      return;
    }
    path.add(v);
    if (Array.isArray(v)) {
      emit('[');
      for (let i = 0; i < v.length && length <= max; i++) {
        if (i > 0) emit(',');
        walk(v[i]);
      }
      emit(']');
    } else if (v instanceof Date) {
      emit(JSON.stringify(Number.isNaN(v.getTime()) ? 'Invalid Date' : v.toISOString()));
    } else {
      emit('{');
      let first = true;
      for (const key in v) {
        if (length > max) break;
        if (!Object.prototype.hasOwnProperty.call(v, key)) continue;
        if (!first) emit(',');
        first = false;
        emit(`${JSON.stringify(key)}:`);
        let item: unknown;
        try {
          item = (v as Record<string, unknown>)[key];
        } catch {
          item = '<getter threw>';
        }
        walk(item);
      }
      emit('}');
    }
    path.delete(v);
  };
  walk(value);
  return out.join('');
}

function formatScalar(v: unknown): string {
  if (typeof v === 'bigint') return `${v}n`;
  if (typeof v === 'symbol') return v.toString();
  if (typeof v === 'function') return '[Function]';
  return String(v);
}

/**
 * The usage line shown under a model call.
 * @internal
 * @example
 * import { usageText } from 'src/core/display/describe-helpers.js';
 * usageText({ input: 1, output: 2, total: 3 }); // 'input 1 · output 2 · total 3'
 */
export function usageText(tokens: EventTokens): string {
  const parts = [`input ${formatCount(tokens.input)}`];
  if (tokens.cacheRead !== undefined) parts.push(`cache read ${formatCount(tokens.cacheRead)}`);
  if (tokens.cacheWrite !== undefined) parts.push(`cache write ${formatCount(tokens.cacheWrite)}`);
  parts.push(`output ${formatCount(tokens.output)}`);
  if (tokens.reasoning !== undefined) parts.push(`reasoning ${formatCount(tokens.reasoning)}`);
  parts.push(`total ${formatCount(tokens.total)}`);
  return parts.join(' · ');
}

// ---------------------------------------------------------------------------
// Bodies
// ---------------------------------------------------------------------------

/**
 * A body bundle with skein's notes (label, collapsed, …) under `metadata.skein`.
 * @internal
 * @example
 * import { body } from 'src/core/display/describe-helpers.js';
 * body({ 'text/plain': 'ls' }, { label: 'Command' });
 */
export function body(data: Record<string, unknown>, notes: DisplayMetadata = {}): MimeBundle {
  return { data, metadata: { skein: notes } };
}

/**
 * @internal
 * @example
 * import { markdown } from 'src/core/display/describe-helpers.js';
 * markdown('**hi**', 'Message');
 */
export function markdown(text: string, label?: string, notes: DisplayMetadata = {}): MimeBundle {
  return body({ 'text/markdown': text }, label === undefined ? notes : { label, ...notes });
}

/**
 * Plain text (ANSI escapes kept for the ANSI renderer).
 * @internal
 * @example
 * import { plain } from 'src/core/display/describe-helpers.js';
 * plain('ok', 'Output');
 */
export function plain(text: string, label?: string, notes: DisplayMetadata = {}): MimeBundle {
  return body({ 'text/plain': text }, label === undefined ? notes : { label, ...notes });
}

/**
 * A JSON value with a bounded plain-text fallback for hosts without a JSON renderer.
 * @internal
 * @example
 * import { json as jsonBody } from 'src/core/display/describe-helpers.js';
 * jsonBody({ a: 1 }, 'Arguments');
 */
export function json(
  value: unknown,
  label?: string,
  notes: DisplayMetadata = {},
  display: DisplayOptions = {},
): MimeBundle {
  const fallback = displayOf(value, { ...display, preferMarkdown: false }).data['text/plain'];
  return body(
    { 'application/json': value, 'text/plain': typeof fallback === 'string' ? fallback : '' },
    label === undefined ? notes : { label, ...notes },
  );
}

/**
 * A value through the display cascade, labelled.
 * @internal
 * @example
 * import { valueBody } from 'src/core/display/describe-helpers.js';
 * valueBody(42, 'Result');
 */
export function valueBody(
  value: unknown,
  label: string,
  display: DisplayOptions = {},
  notes: DisplayMetadata = {},
): MimeBundle {
  if (typeof value === 'string') return plain(value, label, notes);
  const bundle = displayOf(value, display);
  const prior = displayNotes(bundle);
  return {
    data: bundle.data,
    metadata: { ...bundle.metadata, skein: { ...prior, label, ...notes } },
  };
}

const DATA_URI = /^data:([a-z0-9.+-]+\/[a-z0-9.+-]+)(;[^,]*)?,/i;

/** Splits a base64 data URI into its MIME type and payload. */
function dataUri(uri: string): { mime: string; base64: string } | undefined {
  const m = DATA_URI.exec(uri);
  if (!m || !m[1] || !(m[2] ?? '').includes(';base64')) return undefined;
  return { mime: m[1].toLowerCase(), base64: uri.slice(m[0].length) };
}

function sizeText(chars: number): string {
  // base64: 4 characters per 3 bytes.
  const bytes = Math.round((chars * 3) / 4);
  return formatBytes(bytes);
}

/**
 * Text of message content (text parts, and non-redacted reasoning on request), for subtitles and search.
 * @internal
 * @example
 * import { contentText } from 'src/core/display/describe-helpers.js';
 * contentText([{ type: 'text', text: 'hi' }]); // 'hi'
 */
export function contentText(
  content: string | Content[] | null | undefined,
  withReasoning = false,
): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  const out: string[] = [];
  for (const part of content) {
    if (!part || typeof part !== 'object') continue;
    if (part.type === 'text' && typeof part.text === 'string') out.push(part.text);
    else if (
      withReasoning &&
      part.type === 'reasoning' &&
      !part.redacted &&
      typeof part.reasoning === 'string'
    ) {
      out.push(part.reasoning);
    }
  }
  return out.join('\n');
}

/**
 * The bodies of message content: text as markdown (models write markdown),
 * reasoning collapsed, images as image bundles (data URIs) or markdown images
 * (URLs; the markdown renderer decides which schemes load), other media as a
 * line that names them — never their bytes as text.
 * @internal
 * @example
 * import { SearchText, contentBodies } from 'src/core/display/describe-helpers.js';
 * contentBodies([{ type: 'text', text: 'hi' }], 'assistant', new SearchText(4000));
 */
export function contentBodies(
  content: string | Content[] | null | undefined,
  label: string,
  search: SearchText,
  display: DisplayOptions = {},
): MimeBundle[] {
  if (typeof content === 'string') {
    search.add(content);
    return content === '' ? [] : [markdown(content, label)];
  }
  if (!Array.isArray(content)) return [];
  const bodies: MimeBundle[] = [];
  let text: string[] = [];
  const flush = () => {
    if (text.length > 0) bodies.push(markdown(text.join('\n\n'), label));
    text = [];
  };
  for (const part of content) {
    if (!part || typeof part !== 'object') continue;
    switch (part.type) {
      case 'text':
        search.add(part.text);
        if (typeof part.text === 'string' && part.text !== '') text.push(part.text);
        break;
      case 'reasoning': {
        flush();
        if (part.redacted) {
          const summary = typeof part.summary === 'string' ? part.summary : '';
          search.add(summary);
          bodies.push(plain(summary || '(reasoning redacted)', 'Reasoning', { collapsed: true }));
        } else {
          search.add(part.reasoning);
          bodies.push(markdown(String(part.reasoning ?? ''), 'Reasoning', { collapsed: true }));
        }
        break;
      }
      case 'image': {
        flush();
        const uri = dataUri(String(part.image ?? ''));
        if (uri && uri.mime.startsWith('image/')) {
          bodies.push(
            body(
              {
                [uri.mime]: uri.base64,
                'text/plain': `${uri.mime} image (${sizeText(uri.base64.length)})`,
              },
              { label: 'Image' },
            ),
          );
        } else {
          const url = String(part.image ?? '');
          bodies.push(
            body(
              { 'text/markdown': `![image](<${url.replace(/[<>]/g, '')}>)`, 'text/plain': url },
              { label: 'Image' },
            ),
          );
        }
        break;
      }
      case 'audio':
      case 'video':
      case 'document': {
        flush();
        const src = String((part as unknown as Record<string, unknown>)[part.type] ?? '');
        const uri = dataUri(src);
        const name = part.type === 'document' ? part.filename : `${part.type} (${part.format})`;
        search.add(name);
        bodies.push(
          plain(
            uri ? `${name}: ${uri.mime}, ${sizeText(uri.base64.length)}` : `${name}: ${src}`,
            part.type === 'document' ? 'Document' : part.type === 'audio' ? 'Audio' : 'Video',
          ),
        );
        break;
      }
      case 'data':
        flush();
        search.addValue(part.data);
        bodies.push(json(part.data, 'Data', { collapsed: true }, display));
        break;
      case 'tool_use': {
        flush();
        search.add(part.name).add(part.arguments).add(part.result).add(part.error);
        const lines = [`${part.name}(${part.arguments})`];
        if (part.result) lines.push(`→ ${part.result}`);
        if (part.error) lines.push(`error: ${part.error}`);
        bodies.push(plain(lines.join('\n'), `Server tool: ${part.tool_type}`));
        break;
      }
      default:
        flush();
        search.addValue(part);
        bodies.push(json(part, 'Content', {}, display));
    }
  }
  flush();
  return bodies;
}

// Argument names whose single string value is code in a known language
// (inspect's own tool views fence `{{cmd}}` as bash, inspect_ai's `model/` and `tool/` types).
const CODE_ARGS: Readonly<Record<string, string>> = {
  cmd: 'bash',
  command: 'bash',
  bash: 'bash',
  code: 'python',
  python: 'python',
  sql: 'sql',
  query: '',
  script: '',
};

/**
 * A fenced code block longer than any backtick run inside the text.
 * @internal
 * @example
 * import { fence } from 'src/core/display/describe-helpers.js';
 * fence('ls', 'bash'); // '```bash\nls\n```'
 */
export function fence(text: string, lang: string): string {
  let longest = 0;
  for (const run of text.match(/`+/g) ?? []) longest = Math.max(longest, run.length);
  const f = '`'.repeat(Math.max(3, longest + 1));
  return `${f}${lang}\n${text}\n${f}`;
}

/** `{{name}}` placeholders of a tool view, filled from the call's arguments. */
function fillView(view: ToolCallContent, args: Record<string, unknown>): string {
  return String(view.content ?? '').replace(/\{\{\s*([\w.-]+)\s*\}\}/g, (whole, name: string) =>
    // Strings go in verbatim (a multi-line command stays multi-line).
    Object.prototype.hasOwnProperty.call(args, name)
      ? typeof args[name] === 'string'
        ? args[name]
        : boundedJson(args[name], 10_000)
      : whole,
  );
}

/**
 * A one-line view of tool arguments: the value of a single string argument,
 * else `key=value` pairs.
 * @internal
 * @example
 * import { argsInline } from 'src/core/display/describe-helpers.js';
 * argsInline({ cmd: 'ls -la' }); // 'ls -la'
 */
export function argsInline(args: unknown, max = 120): string {
  if (!args || typeof args !== 'object') return shortValue(args, max);
  const keys = Object.keys(args);
  const record = args as Record<string, unknown>;
  if (keys.length === 1 && typeof record[keys[0]!] === 'string')
    return firstLine(record[keys[0]!], max);
  return shortValue(keys.map((k) => `${k}=${shortValue(record[k], 60)}`).join(', '), max);
}

/**
 * The body of a tool call: its own view when it has one, a fenced code block
 * for a single code-like argument, else the arguments as JSON.
 * @internal
 * @example
 * import { SearchText, toolCallBody } from 'src/core/display/describe-helpers.js';
 * toolCallBody('bash', { cmd: 'ls' }, null, 'Call', new SearchText(4000));
 */
export function toolCallBody(
  fn: string,
  args: unknown,
  view: ToolCallContent | null | undefined,
  label: string,
  search: SearchText,
  display: DisplayOptions = {},
): MimeBundle {
  search.add(fn).addValue(args);
  const record = args && typeof args === 'object' ? (args as Record<string, unknown>) : {};
  if (view && typeof view.content === 'string') {
    const text = fillView(view, record);
    const notes = { label: view.title ? `${label}: ${view.title}` : label };
    return view.format === 'markdown'
      ? markdown(text, undefined, notes)
      : plain(text, undefined, notes);
  }
  const keys = Object.keys(record);
  const only = keys.length === 1 ? keys[0]! : undefined;
  if (only !== undefined && typeof record[only] === 'string' && only in CODE_ARGS) {
    const code = record[only];
    return body(
      { 'text/markdown': fence(code, CODE_ARGS[only] ?? ''), 'text/plain': code },
      { label },
    );
  }
  return json(args ?? {}, label, {}, display);
}

/**
 * Bodies of the tool calls of an assistant message.
 * @internal
 * @example
 * import { SearchText, toolCallBodies } from 'src/core/display/describe-helpers.js';
 * declare const calls: ToolCall[];
 * toolCallBodies(calls, new SearchText(4000));
 */
export function toolCallBodies(
  calls: ToolCall[] | null | undefined,
  search: SearchText,
  display: DisplayOptions = {},
): MimeBundle[] {
  if (!Array.isArray(calls)) return [];
  return calls.map((call) => {
    const body = toolCallBody(
      call.function,
      call.arguments,
      call.view,
      `Tool call: ${call.function}`,
      search,
      display,
    );
    if (call.parse_error) {
      search.add(call.parse_error);
      (body.metadata!.skein as DisplayMetadata).parseError = call.parse_error;
    }
    return body;
  });
}

/**
 * The label of a chat message body: its role, and for tool results the function.
 * @internal
 * @example
 * import { messageLabel } from 'src/core/display/describe-helpers.js';
 * messageLabel({ role: 'tool', content: 'ok', function: 'bash' }); // 'tool: bash'
 */
export function messageLabel(message: ChatMessage): string {
  if (message.role === 'tool' && message.function) return `tool: ${message.function}`;
  return String(message.role);
}

/**
 * Bodies of one chat message (content, tool calls, a tool error).
 * @internal
 * @example
 * import { SearchText, messageBodies } from 'src/core/display/describe-helpers.js';
 * messageBodies({ role: 'user', content: 'hi' }, new SearchText(4000));
 */
export function messageBodies(
  message: ChatMessage,
  search: SearchText,
  display: DisplayOptions = {},
): MimeBundle[] {
  if (!message || typeof message !== 'object') return [];
  const label = messageLabel(message);
  if (message.role === 'tool') {
    // Tool output is terminal text more often than markdown.
    const bodies: MimeBundle[] =
      typeof message.content === 'string'
        ? (search.add(message.content), [plain(message.content, label)])
        : contentBodies(message.content, label, search, display);
    if (message.error) {
      search.add(message.error.message);
      bodies.push(plain(`${message.error.type}: ${message.error.message}`, 'Error'));
    }
    return bodies;
  }
  const bodies = contentBodies(message.content, label, search, display);
  if (message.role === 'assistant')
    bodies.push(...toolCallBodies(message.tool_calls, search, display));
  return bodies;
}

// ---------------------------------------------------------------------------
// The envelope
// ---------------------------------------------------------------------------

/**
 * What every description starts from: kind, uuid, and the event's outcome
 * (status, times, tokens; events/outcome.ts), which no built-in describer
 * overrides.
 * @internal
 * @example
 * import { baseDisplay } from 'src/core/display/describe-helpers.js';
 * baseDisplay(event).status; // 'ok'
 */
export function baseDisplay(event: Event): EventDisplay {
  const kind = typeof event.event === 'string' ? event.event : 'unknown';
  const outcome = eventOutcome(event);
  const display: EventDisplay = {
    kind,
    uuid: typeof event.uuid === 'string' ? event.uuid : '',
    title: kind,
    subtitle: '',
    status: outcome.status,
    startTime: outcome.startTime,
    bodies: [],
    searchText: kind,
    searchTextTruncated: 0,
  };
  if (outcome.endTime !== undefined) display.endTime = outcome.endTime;
  if (outcome.tokens !== undefined) display.tokens = outcome.tokens;
  if (outcome.aborted === true) display.aborted = true;
  return display;
}
