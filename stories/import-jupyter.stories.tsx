import type { Meta } from '@storybook/react-vite';
import { importJupyter } from '../src/index.js';
import { Transcript } from '../src/react.js';
import { importedRunStory } from './imported-run.js';
import notebook from '../test/fixtures/jupyter/agent notebook.ipynb?raw';
import iopub from '../test/fixtures/jupyter/iopub.jsonl?raw';

const meta = {
  title: 'Import/Jupyter',
  component: Transcript,
  tags: ['light-only'],
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof Transcript>;

export default meta;

/**
 * A notebook (nbformat 4.5) imported with `importJupyter`: one `cell` span per
 * cell, its source, its outputs (streams with ANSI colour, an HTML table whose
 * `<script>` never runs, an image, JSON) and an error with its traceback.
 */
export const Notebook = importedRunStory(
  { events: importJupyter(notebook, { filename: 'agent notebook.ipynb' }).events },
  ['In [1]', 'ZeroDivisionError'],
);

/** An iopub message log: stream deltas joined, a progress display updated in place, clear_output honoured. */
export const IopubMessages = importedRunStory({ events: importJupyter(iopub).events }, ['In [2]']);
