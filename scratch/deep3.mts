import { safeJson } from '../src/core/import/guards.ts';
import { cloneJson, deepFreeze } from '../src/index.js';
import { jsonEqual } from '../src/core/import/json-equal.ts';
const d = JSON.parse('['.repeat(3200) + '1' + ']'.repeat(3200));
for (const [n, f] of [['safeJson2', () => safeJson(d, 2)], ['safeJson', () => safeJson(d)], ['clone', () => cloneJson(d)], ['eq', () => jsonEqual(d, cloneJson(d))], ['freeze', () => deepFreeze(cloneJson(d))]] as const) { const t = performance.now(); (f as any)(); console.log(n, Math.round(performance.now() - t)); }
