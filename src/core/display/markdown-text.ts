/**
 * Markdown as clean text, for one-line row summaries and search (no raw
 * `**` or `#` in a row summary).
 *
 * Not a markdown parser: a line-by-line pass over the CommonMark/GFM syntax
 * agents actually write (headings, emphasis, code, links, images, lists,
 * quotes, tables, rules), keeping the words a reader sees when the markdown
 * is rendered. A full parser (micromark) would be exact but is 30+ kB and
 * lives in the React layer, loaded on first use; a summary line does not
 * need it, and the core stays dependency-free.
 */

const FENCE = /^\s{0,3}(`{3,}|~{3,})/;
const HEADING = /^\s{0,3}#{1,6}(?:\s+|$)(.*?)(?:\s+#+\s*)?$/;
const SETEXT = /^\s{0,3}(?:=+|-+)\s*$/;
const RULE = /^\s{0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$/;
const QUOTE = /^\s{0,3}>\s?/;
const BULLET = /^(\s*)(?:[-*+]|\d{1,9}[.)])\s+(?:\[[ xX]\]\s+)?/;
/** Lines longer than this skip the inline rules (see `markdownToPlainText`). */
const MAX_INLINE = 20_000;
const TABLE_RULE = /^\s*\|?\s*:?-{1,}:?\s*(?:\|\s*:?-{1,}:?\s*)+\|?\s*$/;
/** Every inline rule below needs one of these characters to match. */
// eslint-disable-next-line no-control-regex -- NUL: the placeholders' own
const INLINE_SYNTAX = /[`\\[<*_~\u0000]/;
/**
 * Every rule of `markdownToPlainText` (block and inline) needs one of these
 * characters: a text with none of them reads as it is written.
 */
// eslint-disable-next-line no-control-regex -- NUL is reserved for placeholders
const ANY_SYNTAX = /[`~#=\-*_>+|.)\\[<\u0000]/;

/** Inline syntax → its visible text. Order matters: code spans first (their content is literal). */
function inline(line: string): string {
  // Plain prose (most lines of most messages) has nothing to rewrite.
  if (!INLINE_SYNTAX.test(line)) return line;
  const codes: string[] = [];
  // Code spans: keep their text verbatim, shielded from the other rules
  // behind NUL-delimited placeholders (NULs were removed from the input).
  let out = line.replace(/(`+)([^`]|[^`][\s\S]{0,2000}?[^`])\1(?!`)/g, (_m, _t, code: string) => {
    codes.push(code.trim());
    return `\u0000${codes.length - 1}\u0000`;
  });
  // Backslash escapes of punctuation: the literal character, shielded too.
  out = out.replace(/\\([!-/:-@[-`{-~])/g, (_m, ch: string) => {
    codes.push(ch);
    return `\u0000${codes.length - 1}\u0000`;
  });
  out = out
    // Images, then links: the alt text / the link text.
    // No bracket inside a bracketed text: from each `[` a match scans to the
    // next bracket at most, so a line of 100k `[` (minified JSON) stays linear.
    .replace(/!\[([^[\]]*)\]\([^()]*\)/g, '$1')
    .replace(/\[([^[\]]+)\]\((?:[^()]|\([^()]*\))*\)/g, '$1')
    .replace(/\[([^[\]]+)\]\[[^[\]]*\]/g, '$1')
    // Autolinks: the URL.
    .replace(/<((?:https?|mailto):[^<>\s]+)>/g, '$1')
    .replace(/<br\s*\/?>/gi, ' ')
    // Emphasis and strikethrough (the markers must hug the text, as CommonMark wants).
    // A span never holds its own marker: an opener with no closer scans to
    // the next marker, not to the end of the line (linear on hostile lines).
    .replace(/(\*\*|__)(?=\S)((?:(?!\1)[\s\S])*?\S)\1/g, '$2')
    .replace(/~~(?=\S)((?:(?!~~)[\s\S])*?\S)~~/g, '$1')
    .replace(/(^|[^\w*])\*(?=[^\s*])([^*]*?[^\s*])\*(?![\w*])/g, '$1$2')
    .replace(/(^|[^\w])_(?=[^\s_])([^_]*?[^\s_])_(?!\w)/g, '$1$2');
  // eslint-disable-next-line no-control-regex -- the placeholders' own NULs
  return out.replace(/\u0000(\d+)\u0000/g, (_m, i: string) => codes[Number(i)] ?? '');
}

/**
 * The text a reader sees when `markdown` is rendered: no `#`, `**`, backticks,
 * link or image syntax, list markers, quote markers, table pipes or rules.
 * Lines are kept (a paragraph's soft breaks stay newlines), code blocks keep
 * their content.
 *
 * @example
 * import { markdownToPlainText } from './markdown-text.js';
 * markdownToPlainText('## Plan\n**Step 1**: run `ls` — see [docs](https://x.dev)');
 * // 'Plan\nStep 1: run ls — see docs'
 */
export function markdownToPlainText(markdown: string): string {
  if (typeof markdown !== 'string' || markdown === '') return '';
  // Lines split on any line ending and joined with `\n`, nothing else.
  if (!ANY_SYNTAX.test(markdown)) return markdown.replace(/\r\n?/g, '\n');
  return plainLines(markdown, false);
}

/**
 * The lines of `markdown` as clean text, joined with `\n`; with `firstOnly`,
 * only the first line that is not blank (or `''`), read no further.
 */
function plainLines(markdown: string, firstOnly: boolean): string {
  // eslint-disable-next-line no-control-regex -- NUL is reserved for placeholders
  const lines = markdown.replace(/\u0000/g, '').split(/\r\n|\r|\n/);
  const out: string[] = [];
  let fence: string | null = null;
  for (const raw of lines) {
    let line: string;
    if (fence !== null) {
      const close = FENCE.exec(raw);
      if (close && close[1]![0] === fence[0] && close[1]!.length >= fence.length) {
        fence = null;
        continue;
      }
      line = raw;
    } else {
      const open = FENCE.exec(raw);
      if (open) {
        fence = open[1]!;
        continue;
      }
      line = raw;
      while (QUOTE.test(line)) line = line.replace(QUOTE, '');
      if (RULE.test(line) || TABLE_RULE.test(line)) continue;
      // A setext underline (`===` / `---` under a paragraph line) is syntax.
      if (SETEXT.test(line) && out.length > 0 && out[out.length - 1] !== '') continue;
      const heading = HEADING.exec(line);
      if (heading) line = heading[1]!;
      else line = line.replace(BULLET, '$1');
      if (line.includes('|') && /^\s*\|.*\|\s*$/.test(line)) {
        line = line
          .trim()
          .replace(/^\||\|$/g, '')
          .split('|')
          .map((cell) => cell.trim())
          .join('  ');
      }
      // A line longer than any prose (a minified JSON dump) is kept as it is:
      // the inline rules cost more than linear on some hostile lines.
      if (line.length <= MAX_INLINE) line = inline(line);
    }
    if (firstOnly) {
      if (line.trim() !== '') return line;
      // Only whether the last line was blank matters to the next (setext).
      out.length = 0;
    }
    out.push(line);
  }
  return firstOnly ? '' : out.join('\n');
}

/**
 * The first non-empty line of `markdown` as clean text, cut to `max`
 * characters: a row's summary. Only the head of a long text is converted.
 *
 * @example
 * import { markdownSummary } from './markdown-text.js';
 * markdownSummary('# Report\n\nAll **green**.'); // 'Report'
 */
export function markdownSummary(markdown: unknown, max = 120): string {
  if (typeof markdown !== 'string') return '';
  // The first line rarely needs more than the head; a fence opened before the
  // cut only loses its tail, which is not the first line.
  const head = markdown.length > 4000 ? markdown.slice(0, 4000) : markdown;
  if (head === '') return '';
  let t: string;
  if (ANY_SYNTAX.test(head)) t = plainLines(head, true).trim();
  else {
    // No syntax: the first line with a non-blank character, as written.
    const lines = head.split(/\r\n|\r|\n/);
    t = '';
    for (const line of lines) {
      t = line.trim();
      if (t !== '') break;
    }
  }
  return t.length > max ? `${t.slice(0, max - 1)}…` : t;
}
