import type { Event } from '../events/types.js';

/**
 * Options of {@link generateRunVariant}.
 *
 * @example
 * const options: RunVariantOptions = { rate: 0.01, shiftMs: 3_600_000 };
 */
export interface RunVariantOptions {
  /** Share of tool calls and model answers changed, 0–1 (default 0.01). */
  rate?: number;
  /** How much later the second run happened, ms (default one hour). */
  shiftMs?: number;
  /** Prefix of the second run's ids (default `'b-'`). */
  prefix?: string;
}

/**
 * `events` again as another run of the same agent would log it: new
 * objects, new uuids, span ids and tool-call ids, times later by `shiftMs`,
 * and a share `rate` of its tool calls and model answers changed (other
 * arguments, another text). A second run to compare with `diffRuns`, for
 * tests, stories and benchmarks. Never mutates `events`.
 *
 * @example
 * const a = generateRun({ seed: 1, events: 2_000 });
 * const b = generateRunVariant(a, { rate: 0.05 });
 * diffRuns(a, b).counts.changed; // about 5 % of the tool and model steps
 */
export function generateRunVariant(
  events: readonly Event[],
  options: RunVariantOptions = {},
): Event[] {
  const rate = options.rate ?? 0.01;
  const shiftMs = options.shiftMs ?? 3_600_000;
  const prefix = options.prefix ?? 'b-';
  const shift = (t: unknown) =>
    typeof t === 'string' ? new Date(Date.parse(t) + shiftMs).toISOString() : t;
  const rename = (id: unknown) => (typeof id === 'string' ? `${prefix}${id}` : id);
  let k = 0;
  const every = rate > 0 ? Math.max(1, Math.round(1 / rate)) : Number.POSITIVE_INFINITY;
  const changes = () => rate > 0 && k++ % every === 0;
  return events.map((event) => {
    const e = JSON.parse(JSON.stringify(event)) as Record<string, unknown>;
    e.uuid = rename(e.uuid);
    e.span_id = rename(e.span_id);
    e.timestamp = shift(e.timestamp);
    if (e.completed !== undefined) e.completed = shift(e.completed);
    if (e.event === 'span_begin' || e.event === 'span_end') e.id = rename(e.id);
    if (e.event === 'span_begin' && e.parent_id !== undefined) e.parent_id = rename(e.parent_id);
    if (e.event === 'tool') {
      e.id = rename(e.id);
      if (e.agent_span_id !== undefined) e.agent_span_id = rename(e.agent_span_id);
      if (changes()) e.arguments = { ...(e.arguments as object), changed: k };
    } else if (e.event === 'model' && changes()) {
      const output = e.output as { completion?: string } | undefined;
      if (output !== undefined) output.completion = `${output.completion ?? ''} (changed)`;
    }
    return e as unknown as Event;
  });
}
