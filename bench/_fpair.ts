import { infoPerRecord, infoPerJsonRecord } from './import-format.js';
const [name, nArg] = process.argv.slice(2);
const n = Number(nArg ?? 100000);
const bench = (await import(`./import-${name}.bench.ts`)).default;
const text: string = bench.spec.make(n);
const floor = bench.spec.encoding === 'jsonl' ? () => infoPerRecord(text) : () => infoPerJsonRecord(text, bench.spec.records);
const cpu = async (f: () => unknown) => { gc!(); gc!(); const a = process.cpuUsage(); await f(); const b = process.cpuUsage(a); return (b.user + b.system) / 1000; };
await bench.spec.run(text); floor();
const imp: number[] = [], fl: number[] = [], ratios: number[] = [];
for (let i = 0; i < 7; i++) { const a = await cpu(() => bench.spec.run(text)); const b = await cpu(floor); imp.push(a); fl.push(b); ratios.push(a / b); }
const med = (a: number[]) => [...a].sort((x, y) => x - y)[a.length >> 1]!;
console.log(`${name} ${n}: import ${med(imp).toFixed(0)} ms CPU, floor ${med(fl).toFixed(0)} ms, paired ratio ${med(ratios).toFixed(2)}× (min ${Math.min(...ratios).toFixed(2)})`);
