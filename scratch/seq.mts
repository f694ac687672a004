import { uiRun, uiMessages } from '../test/core/helpers/vercel-ai-runs.ts';
const c = await uiRun();
console.log(c.map((x: any) => x.type + (x.id ? ':' + x.id : '') + (x.messageId ? ':' + x.messageId : '')).join(' '));
const m = await uiMessages(c);
console.log(m.length, JSON.stringify(m.at(-1)).slice(0, 1500));
const a = await uiRun({ abortAfter: 2 });
console.log(a.map((x: any) => x.type).join(' '));
const e = await uiRun({ toolError: true });
console.log(e.map((x: any) => x.type).join(' '));
