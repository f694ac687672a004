import { splitMarkdown } from '../src/react/display/renderers/markdown.tsx';
const words = (n: number) => { let t = ''; for (let k = 0; k < n; k++) t += (k % 120 === 119 ? 'end.\n\n' : `word${k % 97} `); return t; };
const a = words(3000); const b = a + 'more0 ';
const A = splitMarkdown(a, 2000, 250), B = splitMarkdown(b, 2000, 250);
console.log(A.length, B.length, A.map((c, i) => c === B[i]).join(','));
console.log(JSON.stringify(A.at(-1)!.slice(-30)), JSON.stringify(B.at(-1)!.slice(-40)));
