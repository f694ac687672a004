/**
 * Event describers behind a registry: each kind has a function that
 * turns an event into an {@link EventDisplay}; users replace or add kinds with
 * `register`. The registry never throws: a failing describer falls back to
 * the generic one, which says what failed.
 */
import type { Event } from '../events/types.js';
import { baseDisplay, plain } from './describe-helpers.js';
import { BUILTIN_DESCRIBERS, genericDescriber } from './describers.js';
import type {
  DescribeContext,
  DescribeEventOptions,
  DescriberRegistry,
  DisplayOptions,
  EventDescriber,
  EventDisplay,
} from './types.js';

const DEFAULT_MAX_SEARCH_TEXT = 20_000;

function errorText(error: unknown): string {
  if (error instanceof Error) return `${error.name}: ${error.message}`;
  try {
    return String(error);
  } catch {
    return 'unprintable error';
  }
}

function contextOf(options: Omit<DescribeEventOptions, 'registry'>): DescribeContext {
  const max = options.maxSearchText;
  const maxSearchText =
    typeof max === 'number' && max >= 0 ? Math.floor(max) : DEFAULT_MAX_SEARCH_TEXT;
  const display: DisplayOptions = options.display ?? {};
  const context: DescribeContext = {
    maxSearchText,
    display,
    base: baseDisplay,
    generic: (event) => genericDescriber(event, context),
  };
  return context;
}

/** Holds a user describer to the `searchText` bound (built-ins already are). */
function bounded(display: EventDisplay, max: number): EventDisplay {
  if (typeof display.searchText !== 'string')
    return { ...display, searchText: '', searchTextTruncated: 0 };
  if (display.searchText.length <= max) return display;
  return {
    ...display,
    searchText: display.searchText.slice(0, max),
    searchTextTruncated: (display.searchTextTruncated || 0) + display.searchText.length - max,
  };
}

/**
 * Creates a describer registry holding the built-in describers of every
 * canonical kind. `register` adds a kind or replaces one; the function it
 * returns restores what was there before.
 *
 * @example
 * const registry = createDescriberRegistry();
 * registry.register('tool', (event, ctx) => ({ ...ctx.generic(event), title: 'a tool' }));
 * describeEvent(toolEvent, { registry }).title; // 'a tool'
 */
export function createDescriberRegistry(): DescriberRegistry {
  const describers = new Map<string, EventDescriber>(Object.entries(BUILTIN_DESCRIBERS));
  const registry: DescriberRegistry = {
    register(kind, describer) {
      const had = describers.has(kind);
      const previous = describers.get(kind);
      describers.set(kind, describer);
      return () => {
        // Only undo our own registration, not a later one.
        if (describers.get(kind) !== describer) return;
        if (had && previous) describers.set(kind, previous);
        else describers.delete(kind);
      };
    },
    get: (kind) => describers.get(kind) ?? genericDescriber,
    has: (kind) => describers.has(kind),
    kinds: () => [...describers.keys()],
    describe(event, options = {}) {
      const context = contextOf(options);
      const kind =
        event && typeof event === 'object' && typeof event.event === 'string' ? event.event : '';
      const describer = registry.get(kind);
      try {
        return bounded(describer(event, context), context.maxSearchText);
      } catch (error) {
        const fallback = genericDescriber(event, context);
        const note = `describer for ${JSON.stringify(kind)} failed: ${errorText(error)}`;
        return {
          ...fallback,
          bodies: [...fallback.bodies, plain(note, 'Describer error', { errors: [note] })],
        };
      }
    },
  };
  return registry;
}

let defaultRegistry: DescriberRegistry | undefined;

/**
 * Describes an event for display: title, subtitle, status, times, tokens,
 * body bundles and search text. Uses the default registry unless
 * `options.registry` is given; never throws.
 *
 * @example
 * const d = describeEvent({
 *   event: 'tool', uuid: 'u7', timestamp: '2026-06-10T18:24:12Z', type: 'function', id: 'c1',
 *   function: 'bash', arguments: { cmd: 'ls' }, result: 'a.txt', events: [],
 * });
 * d.title; // 'bash'
 * d.subtitle; // 'ls'
 * d.status; // 'ok'
 */
export function describeEvent(event: Event, options: DescribeEventOptions = {}): EventDisplay {
  const registry = options.registry ?? (defaultRegistry ??= createDescriberRegistry());
  return registry.describe(event, options);
}
