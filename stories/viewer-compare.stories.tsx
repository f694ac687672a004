import type { Meta, StoryObj } from '@storybook/react-vite';
import { expect, waitFor, within } from 'storybook/test';
import { EventStream, generateRun, generateRunVariant, type Event } from '../src/index.js';
import { CompareChooser, CompareView } from '../viewer/compare.js';
import { fixedSession, type LoadSession, type LoadState } from '../viewer/load/client.js';
import type { SampleRow } from '../viewer/load/protocol.js';
import '../viewer/viewer.css';

/** A loaded log's session over `events` (what the viewer's loader gives once done). */
function loaded(
  name: string,
  events: readonly Event[],
  samples: SampleRow[] | null,
  sample: SampleRow | null,
): LoadSession {
  const stream = EventStream.from(events);
  stream.close();
  const state: LoadState = {
    name,
    phase: 'done',
    progress: { bytes: 0, total: null, events: events.length, step: 'importing' },
    format: { id: 'inspect', name: 'inspect_ai log' },
    facts: { task: 'swe-task' },
    samples,
    sample,
    diagnostics: [],
    error: null,
    stream,
    timeline: null,
  };
  return fixedSession(state);
}

const row = (id: number, epoch: number, score: string, error: string | null = null): SampleRow => ({
  id,
  epoch,
  score,
  scoreValue: score === 'C' ? 1 : 0,
  scores: `match: ${score}`,
  tokens: 1200,
  duration: 12,
  error,
  limit: null,
  input: `question ${id}`,
});
const samples = [row(1, 1, 'C'), row(1, 2, 'I', 'exit status 2'), row(2, 1, 'C'), row(2, 2, 'C')];

const runA = generateRun({ seed: 11, events: 400, pendingRate: 0 });
const runB = generateRunVariant(runA, { rate: 0.03 });
const a = loaded('run.eval', runA, samples, samples[0]!);
const b = loaded('run.eval', runB, samples, samples[1]!);

const meta = {
  title: 'Viewer/Compare',
  component: CompareView,
  parameters: { layout: 'fullscreen' },
} satisfies Meta<typeof CompareView>;

export default meta;
type Story = StoryObj<typeof meta>;

/** Two epochs of one sample compared, as the viewer shows them ("Compare with…"). */
export const TwoEpochs: Story = {
  args: { a, b, sameLog: true, onChange: () => {}, onClose: () => {} },
  render: (args) => (
    <div className="viewer" style={{ height: 640, display: 'flex', flexDirection: 'column' }}>
      <CompareView {...args} />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    await expect(canvas.getByTestId('compare-a').textContent).toBe('epoch 1');
    await expect(canvas.getByTestId('compare-b').textContent).toBe('epoch 2');
    const grid = await canvas.findByRole('treegrid', {}, { timeout: 10_000 });
    await waitFor(() => expect(grid.querySelector('[data-status="changed"]')).not.toBeNull(), {
      timeout: 10_000,
    });
  },
};

/** The chooser: another epoch of the sample offered first, then the other samples and logs. */
export const Chooser: Story = {
  args: TwoEpochs.args,
  render: () => (
    <div className="viewer" style={{ height: 480 }}>
      <CompareChooser
        samples={samples}
        current={{ id: 1, epoch: 1 }}
        docs={[{ key: 2, name: 'yesterday.eval' }]}
        listUrl={null}
        currentUrl={null}
        onChoose={() => {}}
        onClose={() => {}}
      />
    </div>
  ),
  play: async ({ canvasElement }) => {
    const canvas = within(canvasElement);
    const select = await canvas.findByTestId('compare-target');
    await expect((select as HTMLSelectElement).selectedOptions[0]!.textContent).toBe(
      'sample 1 · epoch 2 (I) · error',
    );
    await waitFor(() => expect(document.activeElement).toBe(select), { timeout: 10_000 });
  },
};
