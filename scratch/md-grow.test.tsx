import { render, act } from '@testing-library/react';
import { it } from 'vitest';
import { Display, preloadDisplay } from '../src/react/index.js';
import { splitMarkdown } from '../src/react/display/renderers/markdown.js';
it('grow', async () => {
  await preloadDisplay();
  let text = '';
  const words = (n: number) => { let t = ''; for (let k = 0; k < n; k++) t += (k % 120 === 119 ? 'end.\n\n' : `word${k % 97} `); return t; };
  text = words(3000);
  const { container, rerender } = render(<Display value={text} mime="text/markdown" />);
  const before = splitMarkdown(text, 2000, 250);
  let resets = 0;
  for (let i = 0; i < 50; i++) {
    text += `more${i} `;
    rerender(<Display value={text} mime="text/markdown" />);
    if (container.textContent?.includes('more sections')) resets++;
  }
  console.log('chunks', before.length, 'resets', resets, container.textContent?.slice(-200));
});
