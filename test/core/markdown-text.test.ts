// Markdown as clean text in row summaries and search (issue 16).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { markdownSummary, markdownToPlainText } from '../../src/core/display/markdown-text.js';

describe('markdownToPlainText', () => {
  it.each([
    ['# Title', 'Title'],
    ['### Deep heading ###', 'Deep heading'],
    ['**bold** and __strong__', 'bold and strong'],
    ['*em* and _em_ but snake_case_name stays', 'em and em but snake_case_name stays'],
    ['2 * 3 * 4', '2 * 3 * 4'],
    ['~~gone~~ kept', 'gone kept'],
    ['run `ls -la` now', 'run ls -la now'],
    ['``code with ` tick``', 'code with ` tick'],
    ['`**not bold**`', '**not bold**'],
    ['see [the docs](https://x.dev/a_(b)) here', 'see the docs here'],
    ['![a chart](data:image/png;base64,xx)', 'a chart'],
    ['[ref link][1]', 'ref link'],
    ['<https://x.dev>', 'https://x.dev'],
    ['- item one', 'item one'],
    ['  2. second', '  second'],
    ['- [x] done', 'done'],
    ['> quoted **text**', 'quoted text'],
    ['a\\*literal\\*', 'a*literal*'],
    ['---', ''],
    ['| a | b |\n|---|:-:|\n| 1 | 2 |', 'a  b\n1  2'],
    ['Title\n=====', 'Title'],
    ['```python\nprint("**x**")\n```', 'print("**x**")'],
  ])('%j', (markdown, text) => {
    expect(markdownToPlainText(markdown)).toBe(text);
  });

  it('keeps plain text as it is', () => {
    const text = 'The build failed: exit 2 (see log).\nSecond line.';
    expect(markdownToPlainText(text)).toBe(text);
  });

  // Text with no character any rule needs skips the rules: the rules must
  // agree. A code span on a last line sends the same lines through them
  // (no fence in the text, so lines are read one by one). Mostly letters,
  // with now and then one character of any kind.
  it('reads text without syntax characters the same with or without the rules (property)', () => {
    const printable = Array.from({ length: 95 }, (_, i) => String.fromCharCode(32 + i)).filter(
      (c) => c !== '`' && c !== '~',
    );
    const text = fc
      .array(
        fc.oneof(
          { arbitrary: fc.constantFrom(...'ab Z09\téß€😀'.split('')), weight: 12 },
          { arbitrary: fc.constantFrom(...printable, '\n'), weight: 1 },
        ),
        { maxLength: 16 },
      )
      .map((chars) => chars.join(''));
    fc.assert(
      fc.property(text, (t) => {
        expect(markdownToPlainText(`${t}\n\`x\``)).toBe(`${markdownToPlainText(t)}\nx`);
      }),
      { numRuns: 2000 },
    );
    expect(markdownToPlainText('a\r\nb\rc\n')).toBe('a\nb\nc\n');
  });
});

describe('markdownSummary', () => {
  // The summary reads only as far as its line: it must be the line the whole
  // conversion gives. Lines of markdown syntax, prose and blanks, in any order.
  it('is the first line the whole conversion has (property)', () => {
    const line = fc.oneof(
      fc.constantFrom('', '  ', '```', '~~~js', '---', '===', '> ', '| a | b |', '|-|-|', '# '),
      fc.constantFrom('- ', '1. ', '**', '`', '_', '[a](b)', 'x', 'word', ' \t'),
      fc.string({ maxLength: 6 }),
    );
    const markdown = fc
      .array(fc.array(line, { maxLength: 3 }), { maxLength: 6 })
      .map((lines) => lines.map((parts) => parts.join('')).join('\n'));
    fc.assert(
      fc.property(markdown, (md) => {
        const first = markdownToPlainText(md)
          .split('\n')
          .map((l) => l.trim())
          .find((l) => l !== '');
        expect(markdownSummary(md, 1000)).toBe(first ?? '');
      }),
      { numRuns: 3000 },
    );
  });

  it('is the first non-empty line, clean and cut', () => {
    expect(markdownSummary('\n\n## Plan\n1. **Read** the file')).toBe('Plan');
    expect(markdownSummary('```\ncode first\n```')).toBe('code first');
    expect(markdownSummary(`**${'x'.repeat(200)}**`, 10)).toBe('xxxxxxxxx…');
    expect(markdownSummary(42)).toBe('');
    // A blank line of spaces still makes `===` under it a setext underline.
    expect(markdownSummary('  \n===\nnext')).toBe('next');
    expect(markdownSummary('\n===')).toBe('===');
  });
});
