import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfm } from 'micromark-extension-gfm';
import { gfmFromMarkdown } from 'mdast-util-gfm';
const words = (n: number) => { let t = ''; for (let k = 0; k < n; k++) t += (k % 120 === 119 ? 'end.\n\n' : `word${k % 97} `); return t; };
for (const n of [150, 300, 600, 3000]) {
  const t = words(n);
  for (let w = 0; w < 5; w++) fromMarkdown(t, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  const s = performance.now();
  for (let r = 0; r < 20; r++) fromMarkdown(t, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] });
  console.log(t.length, 'chars', ((performance.now() - s) / 20).toFixed(2), 'ms');
}
