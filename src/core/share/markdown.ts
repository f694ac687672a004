// Events as Markdown to paste into an issue, a pull request or a chat
// (CommonMark 0.31 with GitHub's tables off: headings, inline code, fenced
// code blocks). Every event reads as its describer has it (`describeEvent`:
// the same kind, title, status, timing and bodies as its transcript row); all
// agent-produced text is inside a fenced code block or escaped, so nothing
// it holds renders as Markdown or HTML where it is pasted.
import type { Event, MimeBundle } from '../events/types.js';
import { describeEvent } from '../display/describe-event.js';
import type { DescriberRegistry, EventDisplay } from '../display/types.js';
import { formatCount, formatDuration } from '../format.js';

/**
 * Options of {@link eventsToMarkdown}.
 *
 * @example
 * const options: EventsToMarkdownOptions = { maxBodyLength: 4000, title: 'Failing run' };
 */
export interface EventsToMarkdownOptions {
  /** How events read (default: the built-in describers). */
  registry?: DescriberRegistry;
  /**
   * The most characters of one body kept (default 20,000); the rest is cut
   * and the cut said below the block.
   */
  maxBodyLength?: number;
  /** A heading above the events (escaped; none by default). */
  title?: string;
}

/**
 * A fence for `text`: backticks, one more than the longest run of backticks
 * in it (at least three), so the text cannot close its block (CommonMark
 * §4.5: a closing fence is at least as long as the opening one).
 *
 * @example
 * import { codeFence } from './markdown.js';
 * codeFence('a ``` b'); // '````'
 */
export function codeFence(text: string): string {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) === 96) {
      run++;
      if (run > longest) longest = run;
    } else run = 0;
  }
  return '`'.repeat(Math.max(3, longest + 1));
}

/**
 * `text` on one line with Markdown's inline syntax escaped (CommonMark §2.4:
 * any ASCII punctuation may be backslash-escaped), so a title such as
 * `<img src=x onerror=…>` or `[x](javascript:…)` shows as written.
 *
 * @example
 * import { escapeMarkdownInline } from './markdown.js';
 * escapeMarkdownInline('**bold** <b>'); // '\\*\\*bold\\*\\* \\<b\\>'
 */
export function escapeMarkdownInline(text: string): string {
  return text.replace(/\s+/g, ' ').replace(/[\\`*_{}[\]()<>#+\-.!|~&"']/g, '\\$&');
}

/** A fenced code block holding `text` verbatim. */
function fenced(text: string, info: string): string {
  const fence = codeFence(text);
  return `${fence}${info}\n${text}${text.endsWith('\n') ? '' : '\n'}${fence}`;
}

/**
 * A Markdown body that is one fenced code block and nothing else (how the
 * describers show a command or a call's arguments): its code and language,
 * so it is fenced once, not a block inside a block.
 */
function unwrapCodeBlock(markdown: string): { text: string; info: string } | null {
  const open = /^(`{3,}|~{3,})([^\n`]*)\n/.exec(markdown);
  if (open === null) return null;
  const fence = open[1]!;
  const rest = markdown.slice(open[0].length).replace(/\n+$/, '');
  const last = rest.lastIndexOf('\n');
  const closing = last < 0 ? rest : rest.slice(last + 1);
  if (closing.trim() !== fence) return null;
  const code = last < 0 ? '' : rest.slice(0, last);
  // A line inside that would close the block means it is not one block.
  for (const line of code.split('\n')) {
    const t = line.trim();
    if (t.length >= fence.length && t === fence[0]!.repeat(t.length)) return null;
  }
  const info = open[2]!.trim().split(/\s/)[0] ?? '';
  return { text: code, info: /^[\w+#.-]*$/.test(info) ? info : '' };
}

/** A body's text and the fence's info string, from the richest type a reader can read as text. */
function bodyText(bundle: MimeBundle): { text: string; info: string } | { note: string } {
  const data = bundle.data;
  const json = data['application/json'];
  if (json !== undefined) {
    let text: string;
    try {
      text = JSON.stringify(json, null, 2) ?? String(json);
    } catch {
      text = String(json);
    }
    return { text, info: 'json' };
  }
  const markdown = data['text/markdown'];
  if (typeof markdown === 'string')
    return unwrapCodeBlock(markdown) ?? { text: markdown, info: 'markdown' };
  const plain = data['text/plain'];
  if (typeof plain === 'string') return { text: plain, info: 'text' };
  const types = Object.keys(data);
  return { note: types.length > 0 ? types.join(', ') : 'empty' };
}

/** The role of a chat message event, when it has one. */
function roleOf(event: Event): string | null {
  const role = (event as { role?: unknown }).role;
  if (typeof role === 'string') return role;
  const message = (event as { message?: unknown }).message;
  if (typeof message === 'object' && message !== null) {
    const r = (message as { role?: unknown }).role;
    if (typeof r === 'string') return r;
  }
  return null;
}

function eventMarkdown(
  event: Event,
  display: EventDisplay,
  n: number,
  maxBodyLength: number,
): string {
  const head = [`### ${n}. ${escapeMarkdownInline(display.kind)}`];
  if (display.title !== '') head.push(`: ${escapeMarkdownInline(display.title)}`);
  if (display.status !== 'ok') head.push(` (${escapeMarkdownInline(display.status)})`);
  const meta: string[] = [];
  if (typeof event.timestamp === 'string' && event.timestamp !== '')
    meta.push(`\`${event.timestamp.replace(/`/g, '')}\``);
  const role = roleOf(event);
  if (role !== null) meta.push(`role: ${escapeMarkdownInline(role)}`);
  // The subtitle is a one-line summary of the content below: a short one helps, a long one repeats.
  if (display.subtitle !== '')
    meta.push(
      escapeMarkdownInline(
        display.subtitle.length > 80 ? `${display.subtitle.slice(0, 79)}…` : display.subtitle,
      ),
    );
  if (display.endTime !== undefined && Number.isFinite(display.startTime))
    meta.push(formatDuration(display.endTime - display.startTime));
  if (display.tokens !== undefined) meta.push(`${formatCount(display.tokens.total)} tokens`);
  if (display.aborted === true) meta.push('rolled back');
  const parts = [head.join('')];
  if (meta.length > 0) parts.push(meta.join(' · '));
  for (const bundle of display.bodies) {
    const label = (bundle.metadata?.['skein'] as { label?: unknown } | undefined)?.label;
    const body = bodyText(bundle);
    const lines: string[] = [];
    if (typeof label === 'string' && label !== '') lines.push(`**${escapeMarkdownInline(label)}**`);
    if ('note' in body) {
      lines.push(`_(${escapeMarkdownInline(body.note)} not shown as text)_`);
    } else {
      const cut = body.text.length > maxBodyLength;
      lines.push(fenced(cut ? body.text.slice(0, maxBodyLength) : body.text, body.info));
      if (cut)
        lines.push(
          `_(${formatCount(body.text.length - maxBodyLength)} more characters not shown)_`,
        );
    }
    parts.push(lines.join('\n'));
  }
  return parts.join('\n\n');
}

/**
 * Events as Markdown, one section per event in the given order: a heading
 * with its number, kind, title and status, a line with its time, role,
 * subtitle, duration and tokens, then each body in a fenced code block (tool
 * arguments and results as `json`, messages as `markdown` or `text`) whose
 * fence is longer than any backtick run inside it. Agent text never escapes
 * its block or its escaping: pasted into GitHub or a chat, it shows as
 * written and runs nothing.
 *
 * @example
 * declare const selected: Event[];
 * declare function copy(text: string): void;
 * copy(eventsToMarkdown(selected, { title: 'The failing step' }));
 */
export function eventsToMarkdown(
  events: readonly Event[],
  options: EventsToMarkdownOptions = {},
): string {
  const maxBodyLength = Math.max(0, options.maxBodyLength ?? 20_000);
  const sections: string[] = [];
  if (options.title !== undefined && options.title !== '')
    sections.push(`## ${escapeMarkdownInline(options.title)}`);
  events.forEach((event, i) => {
    const display = describeEvent(event, { registry: options.registry });
    sections.push(eventMarkdown(event, display, i + 1, maxBodyLength));
  });
  return sections.length > 0 ? `${sections.join('\n\n')}\n` : '';
}
