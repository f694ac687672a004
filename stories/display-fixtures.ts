// Inputs for the display stories, the display tests and the bench.

/** A 32×32 checkerboard PNG (base64), as Jupyter sends `image/png`. */
export const CHECKER_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAACAAAAAgCAIAAAD8GO2jAAAAP0lEQVR4nGP4jwNwRV/GikhVzzBqwagFQ8ACahmES/2oBaMWDAULqGUQzow2asGoBUPAAppntFELRi0Y/BYAABdcanmSpUfkAAAAAElFTkSuQmCC';

/** An SVG with a script and a handler: harmless as <img>, sanitized when trusted. */
export const HOSTILE_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" width="120" height="40" viewBox="0 0 120 40" onload="window.__xss = \'svg\'">' +
  '<script>window.__xss = "svg-script"</script>' +
  '<rect width="120" height="40" rx="6" fill="#0a5bd3"/>' +
  '<text x="60" y="25" text-anchor="middle" font-size="14" fill="#ffffff" font-family="sans-serif">skein</text></svg>';

/** A report with every markdown feature the renderer handles. */
export const REPORT_MARKDOWN = `## Run summary

The agent **fixed the failing test** in _3 steps_ and ~~gave up~~ kept going.
See the [pull request](https://example.com/pr/1) or mail <mailto:team@example.com>.

### Steps

1. Read \`test_parser.py\`
2. Patched the tokenizer
3. Re-ran the suite

- [x] tests pass
- [ ] docs updated

| file | lines changed |
| --- | ---: |
| tokenizer.py | 12 |
| test_parser.py | 3 |

> The fix keeps the old behaviour for empty input.

\`\`\`python
def tokenize(text: str) -> list[str]:
    return [t for t in text.split() if t]
\`\`\`
`;

/** Markdown that tries every trick; every link here must render as text. */
export const HOSTILE_MARKDOWN = `Click [here](javascript:window.__xss='md') or [there][evil] or <javascript:window.__xss='auto'>.

Raw HTML stays text: <img src=x onerror="window.__xss='img'"> <script>window.__xss='script'</script>

![tracker](https://tracker.example/pixel.gif) ![svg](data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+)

[evil]: vbscript:msgbox(1)
`;

/** A unified diff. */
export const SAMPLE_DIFF = `diff --git a/src/tokenizer.py b/src/tokenizer.py
--- a/src/tokenizer.py
+++ b/src/tokenizer.py
@@ -10,7 +10,7 @@ def tokenize(text):
     """Split text into tokens."""
-    return text.split(" ")
+    return [t for t in text.split() if t]
 
 def detokenize(tokens):
     return " ".join(tokens)
`;

/** Terminal output with ANSI colours, as a failing pytest prints it. */
export const ANSI_TRACEBACK =
  '\u001b[1m============ test session starts ============\u001b[0m\n' +
  'collected 3 items\n\n' +
  'test_parser.py \u001b[32m.\u001b[0m\u001b[32m.\u001b[0m\u001b[31mF\u001b[0m\n\n' +
  '\u001b[31m\u001b[1m__________ test_empty __________\u001b[0m\n' +
  '    def test_empty():\n' +
  '\u001b[1m>       assert tokenize("") == []\u001b[0m\n' +
  "\u001b[31mE       AssertionError: assert [''] == []\u001b[0m\n\n" +
  '\u001b[34mtest_parser.py\u001b[0m:12: AssertionError\n' +
  '\u001b[31m\u001b[1m1 failed\u001b[0m, \u001b[32m2 passed\u001b[0m in 0.03s';

/**
 * About `chars` characters of varied markdown (headings, paragraphs, lists,
 * code, tables), deterministic.
 */
export function longMarkdown(chars: number): string {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < chars; i++) {
    const block =
      i % 5 === 0
        ? `## Section ${i}\n\nThe agent ran **step ${i}** and wrote [a note](https://example.com/${i}).`
        : i % 5 === 1
          ? `- item ${i} with \`code\`\n- another *item*\n- a third item with more words in it`
          : i % 5 === 2
            ? '```ts\nconst x = [1, 2, 3].map((n) => n * 2);\nconsole.log(x);\n```'
            : i % 5 === 3
              ? `| step | result |\n| --- | --- |\n| ${i} | ok |\n| ${i + 1} | retry |`
              : `Paragraph ${i}: ${'lorem ipsum dolor sit amet, consectetur adipiscing elit. '.repeat(3)}`;
    parts.push(block);
    length += block.length + 2;
  }
  return parts.join('\n\n');
}
