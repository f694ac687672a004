const bench = (await import(`./import-openai-agents.bench.ts`)).default;
const text: string = bench.spec.make(100000);
const t0 = Date.now();
for (let i = 0; i < 6; i++) await bench.spec.run(text);
console.log('ms', (Date.now() - t0) / 6);
