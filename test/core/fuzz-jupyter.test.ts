import { jupyterFormat } from '../../src/core/import/jupyter/jupyter.js';
import { readFileSync } from 'node:fs';
import { describe, it } from 'vitest';
import { importAny, importJupyter } from '../../src/index.js';
import { fuzzImporter, fuzzShare, streamedAsWhole } from './helpers/import-fuzz.js';

const own = (name: string) =>
  readFileSync(new URL(`../fixtures/jupyter/${name}`, import.meta.url), 'utf8');
const notebook = JSON.parse(own('agent notebook.ipynb')) as never;
const messages = own('iopub.jsonl')
  .split('\n')
  .filter((l) => l.trim())
  .map((l) => JSON.parse(l) as never);

// FUZZ_RUNS inputs for the importer, shared by its 4 properties.
const runs = fuzzShare(4);

describe('fuzz: Jupyter', () => {
  it(`notebooks: a result or an ImportError for ${runs} mutated inputs`, async () => {
    await fuzzImporter((input) => importJupyter(input), [[notebook]], 'json', runs);
  }, 300_000);

  it(`iopub logs: a result or an ImportError for ${runs} mutated inputs`, async () => {
    await fuzzImporter((input) => importJupyter(input), [messages], 'jsonl', runs);
  }, 300_000);

  it(`through the front door (${runs} inputs)`, async () => {
    await fuzzImporter((input) => importAny(input), [[notebook]], 'json', runs);
  }, 300_000);

  it(`iopub logs streamed a line at a time end as the whole-file import (${runs} inputs)`, async () => {
    await fuzzImporter(streamedAsWhole(jupyterFormat, importJupyter), [messages], 'jsonl', runs);
  }, 300_000);
});
