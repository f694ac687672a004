import { importAgUi, importUIMessages, EventStream, agUiFormat, vercelAiFormat, readJsonLines, ImportContext } from '../src/index.js';
import { agUiRun } from '../test/core/helpers/ag-ui-runs.ts';
import { uiRun, uiMessages, question } from '../test/core/helpers/vercel-ai-runs.ts';
const deep = (d: number) => '['.repeat(d) + '1' + ']'.repeat(d);
function paths(v: any, at: any[] = [], out: any[][] = []) { out.push(at); if (Array.isArray(v)) v.forEach((x, i) => paths(x, [...at, i], out)); else if (v && typeof v === 'object') for (const k of Object.keys(v)) paths(v[k], [...at, k], out); return out; }
function setAt(root: any, path: any[], val: any) { if (!path.length) return val; const c = structuredClone(root); let n = c; for (const p of path.slice(0, -1)) n = n[p]; n[path.at(-1)] = val; return c; }
const streamed = (fmt: any, text: string) => { const imp = fmt.incremental({}); const s = new EventStream(); for (const { value, path } of readJsonLines(text, new ImportContext({}))) { imp.push(value, path); for (const e of imp.drain()) s.append(e); } for (const e of imp.end()) s.append(e); };
async function check(name: string, records: any[], run: (t: string) => void) {
  let worst = 0, where = '';
  for (let i = 0; i < records.length; i++) for (const p of paths(records[i]).slice(0, 400)) {
    const lines = records.map((r) => JSON.stringify(r));
    lines[i] = JSON.stringify(setAt(records[i], p, '@@D@@')).replace('"@@D@@"', deep(3200));
    const t = performance.now();
    try { run(lines.join('\n')); } catch (e) { console.log(name, 'THROW', i, records[i].type, p.join('.'), String(e).slice(0, 80)); console.log((e as Error).stack?.split('\n').slice(1, 14).join('\n')); return; }
    const ms = performance.now() - t; if (ms > worst) { worst = ms; where = `${i} ${records[i].type} ${p.join('.')}`; }
  }
  console.log(name, 'ok worst', Math.round(worst), where);
}
const run = agUiRun({ start: 1767225600000, tokens: 3, tools: 2 }) as any[];
await check('agui', run, (t) => importAgUi(t));
await check('agui-stream', run, (t) => streamed(agUiFormat, t));
const chunks = await uiRun({ tokens: 3 }) as any[];
await check('ui', chunks, (t) => importUIMessages(t));
await check('ui-stream', chunks, (t) => streamed(vercelAiFormat, t));
const stored = [question, (await uiMessages(chunks)).at(-1)];
const doc = stored as any;
let worst = 0; for (const p of paths(doc).slice(0, 400)) { const text = JSON.stringify(setAt(doc, p, '@@D@@')).replace('"@@D@@"', deep(3200)); const t = performance.now(); try { importUIMessages(text); } catch (e) { console.log('stored THROW', p.join('.'), String(e).slice(0,80)); console.log((e as Error).stack?.split('\n').slice(1, 14).join('\n')); break; } worst = Math.max(worst, performance.now() - t); }
console.log('stored worst', Math.round(worst));
