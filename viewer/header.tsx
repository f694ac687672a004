// The run header: task, model, status, scores, tokens, duration (issue 22).
import type { RunFacts } from './load/protocol.js';
import { formatDuration, formatTokens } from './format.js';

export interface RunHeaderProps {
  name: string;
  format: string | null;
  facts: RunFacts;
  /** The sample shown, for a multi-sample log. */
  sample?: string | null;
}

const STATUS_CLASS: Record<string, string> = {
  success: 'ok',
  ok: 'ok',
  error: 'error',
  cancelled: 'cancelled',
  started: 'running',
  running: 'running',
  live: 'running',
};

export function RunHeader({ name, format, facts, sample }: RunHeaderProps) {
  const items: [string, string][] = [];
  if (facts.model) items.push(['Model', facts.model]);
  if (facts.scores?.length) items.push(['Scores', facts.scores.join(', ')]);
  if (facts.tokens !== undefined) items.push(['Tokens', formatTokens(facts.tokens)]);
  if (facts.durationMs !== undefined) items.push(['Duration', formatDuration(facts.durationMs)]);
  if (facts.failures) items.push(['Failures', String(facts.failures)]);
  if (format) items.push(['Format', format]);
  const status = facts.status;
  return (
    <div className="viewer-run-header" data-testid="run-header">
      <h2
        className="viewer-run-title"
        title={`${facts.task ?? name}${sample ? ` · sample ${sample}` : ''}`}
      >
        {facts.task ?? name}
        {sample ? <span className="viewer-muted"> · sample {sample}</span> : null}
      </h2>
      {status ? (
        <span
          className="viewer-status"
          data-status={STATUS_CLASS[status] ?? 'unknown'}
          data-testid="run-status"
        >
          {status}
        </span>
      ) : null}
      <dl className="viewer-facts">
        {items.map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd data-fact={k.toLowerCase()} title={v}>
              {v}
            </dd>
          </div>
        ))}
      </dl>
    </div>
  );
}
