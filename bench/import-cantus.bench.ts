import { importCantus } from '../src/core/import/cantus/cantus.js';
import { defineFormatBench } from './import-format.js';

// A generated cantus stream of n items as `{"events": [...]}` (the keyed form
// the docs show): skill calls with their observations, now and then a tool
// error, a validation error and its retry, and a final answer. Deterministic.
function makeCantus(n: number): string {
  const items: unknown[] = [];
  let i = 0;
  while (items.length < n - 1) {
    const skill = ['search', 'calculator', 'fetch'][i % 3]!;
    items.push({
      CallSkillAction: {
        thought: `Step ${i}: use ${skill} to get the next fact.`,
        skill_name: skill,
        args: { query: `tide height ${i}`, limit: 5 },
      },
    });
    if (i % 17 === 5)
      items.push({
        ToolErrorObservation: { skill_name: skill, message: `Unknown skill '${skill}2'` },
      });
    else
      items.push({
        SkillObservation: { skill_name: skill, result: `High tide ${i % 7}.9 m at 14:0${i % 10}.` },
      });
    if (i % 23 === 11)
      items.push({
        ValidationErrorObservation: { validator_name: 'action_parse', feedback: 'Expected JSON.' },
      });
    i++;
  }
  items.length = Math.max(0, n - 1);
  items.push({ FinalAnswerAction: { thought: 'Done.', answer: 'The range is 5.7 m.' } });
  return JSON.stringify({ events: items });
}

/**
 * `core.import.cantus.<n>`: a cantus `{"events": [...]}` document through the
 * cantus importer, as a ratio to one JSON.parse of the same bytes.
 */
export default defineFormatBench({
  name: 'core.import.cantus',
  encoding: 'json',
  make: makeCantus,
  run: (text) => importCantus(text).events.length,
});
