// Long on purpose (past 600 lines): notebooks and iopub logs map to the same cell and output events through one set of builders.
// Jupyter: notebooks (nbformat 4.x, https://nbformat.readthedocs.io/en/latest/format_description.html,
// schema nbformat.v4.5.schema.json) and iopub message logs (the kernel messaging
// protocol, https://jupyter-client.readthedocs.io/en/stable/messaging.html).
// Shapes and rules: nbformat v4 (https://nbformat.readthedocs.io/en/latest/format_description.html).
//
// Mapping (the one representation every importer maps to):
// - a cell is a `span_begin`/`span_end` pair of type `cell` (name `In [n]`,
//   `Markdown` or the cell type), id derived from the cell's `id` (4.5+) or index;
// - the cell's source is a `display` event (`text/markdown` for markdown cells;
//   a fenced code block plus `text/plain` for code), `metadata.jupyter.role: 'source'`;
// - `execute_result`, `display_data` → `display` events with the bundle as given
//   (multiline strings joined, `metadata` optional as in the wild);
// - `stream` → a `display` event with `text/plain` (ANSI kept; the renderer
//   draws it), `metadata.jupyter.stream: 'stdout' | 'stderr'`; iopub stream
//   deltas append to the previous output of that stream in the same request;
// - `error` → an `error` event (`ename: evalue`, traceback without and with ANSI);
// - unknown output and cell types → `info` events (`source: 'jupyter'`) holding
//   the raw record — kept, never dropped; unknown keys on known outputs are kept
//   under `metadata.jupyter.extra`.
//
// Outputs are untrusted (nbformat: outputs of an untrusted notebook): the importer copies bundles
// as data; the display protocol decides what may render.
//
// Times: notebooks store none, except JupyterLab's optional execution timing
// (`cell.metadata.execution["iopub.execute_input"]`, `["shell.execute_reply"]`),
// which is used when present. Otherwise times are invented in order and flagged.
import type {
  DisplayEvent,
  ErrorEvent,
  Event,
  InfoEvent,
  JsonObject,
  SpanBeginEvent,
} from '../../events/types.js';
import { ImportError, jsonPath } from '../../errors.js';
import {
  isRecord,
  own,
  typeName,
  type ImportContext,
  type ImportOptions,
  type JsonRecord,
} from '../guards.js';
import {
  importLines,
  importerParts,
  sniffer,
  type FormatImporter,
  type ImportResult,
  type IncrementalImporter,
} from '../format.js';
import { Probe, type ImportInput } from '../probe.js';
import { SyntheticClock, type EventSink } from '../sink.js';

// ---------------------------------------------------------------------------
// Shared helpers
// ---------------------------------------------------------------------------

/** nbformat's `multiline_string`: a string, or an array of lines to join with "". */
function multiline(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value.join('');
  return undefined;
}

// eslint-disable-next-line no-control-regex
const ANSI = /\u001b\[[0-9;?]*[ -/]*[@-~]/g;

/** A traceback without its ANSI colour codes. */
function stripAnsi(text: string): string {
  return text.replace(ANSI, '');
}

/** A MIME bundle with multiline text values joined; JSON values kept as they are. */
function bundleData(data: JsonRecord): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(data)) {
    const v = data[key];
    const text = key.includes('json') ? undefined : multiline(v);
    out[key] = text ?? v;
  }
  return out;
}

// A Map, not an object: an output type of `__proto__` or `constructor` is
// unknown, not a key of Object.prototype.
const KNOWN_OUTPUT_KEYS = new Map<string, ReadonlySet<string>>([
  ['execute_result', new Set(['output_type', 'execution_count', 'data', 'metadata'])],
  ['display_data', new Set(['output_type', 'data', 'metadata', 'transient'])],
  ['update_display_data', new Set(['output_type', 'data', 'metadata', 'transient'])],
  ['stream', new Set(['output_type', 'name', 'text'])],
  ['error', new Set(['output_type', 'ename', 'evalue', 'traceback'])],
]);

function extraKeys(record: JsonRecord, known: ReadonlySet<string>): JsonObject | undefined {
  let extra: JsonObject | undefined;
  for (const key of Object.keys(record)) {
    if (known.has(key)) continue;
    extra ??= {};
    // `__proto__` as a key is data: define it rather than assign it.
    Object.defineProperty(extra, key, { value: record[key], enumerable: true, writable: true });
  }
  return extra;
}

interface Place {
  readonly span: string | null;
  readonly timestamp: string;
  readonly path: string;
  readonly key: string;
  readonly invented: boolean;
}

/** Builds the event of one output (notebook or iopub content), or `undefined` for an empty stream. */
function outputEvent(
  ctx: ImportContext,
  sink: EventSink,
  output: JsonRecord,
  type: string,
  at: Place,
  open = false,
): Event {
  const base = {
    uuid: sink.uuid(at.key),
    timestamp: at.timestamp,
    span_id: at.span,
  };
  const known = KNOWN_OUTPUT_KEYS.get(type);
  const extra = known ? extraKeys(output, known) : undefined;
  const jupyter: JsonObject = { output_type: type };
  if (extra) jupyter['extra'] = extra;
  let event: Event;
  switch (type) {
    case 'execute_result':
    case 'display_data':
    case 'update_display_data': {
      const data = ctx.record(output, 'data', at.path) ?? {};
      const metadata = ctx.record(output, 'metadata', at.path);
      const transient = ctx.record(output, 'transient', at.path);
      const displayId =
        transient && typeof transient['display_id'] === 'string' ? transient['display_id'] : null;
      const count = own(output, 'execution_count');
      if (typeof count === 'number') jupyter['execution_count'] = count;
      event = {
        event: 'display',
        ...base,
        outputs: [{ data: bundleData(data), ...(metadata ? { metadata } : {}) }],
        display_id: displayId,
        metadata: { jupyter },
      };
      break;
    }
    case 'stream': {
      const name = ctx.string(output, 'name', at.path) ?? 'stdout';
      jupyter['stream'] = name;
      event = {
        event: 'display',
        ...base,
        outputs: [{ data: { 'text/plain': multiline(own(output, 'text')) ?? '' } }],
        metadata: { jupyter },
      };
      break;
    }
    case 'error': {
      const ename = ctx.string(output, 'ename', at.path) ?? 'Error';
      const evalue = ctx.string(output, 'evalue', at.path) ?? '';
      const lines = ctx.array(output, 'traceback', at.path) ?? [];
      const ansi = lines.filter((l): l is string => typeof l === 'string').join('\n');
      const e: ErrorEvent = {
        event: 'error',
        ...base,
        error: {
          message: evalue ? `${ename}: ${evalue}` : ename,
          traceback: stripAnsi(ansi),
          traceback_ansi: ansi,
        },
        metadata: { jupyter },
      };
      event = e;
      break;
    }
    default: {
      ctx.info(at.path, 'jupyter_unknown_output', type);
      const e: InfoEvent = {
        event: 'info',
        ...base,
        source: 'jupyter',
        data: output,
        metadata: { jupyter },
      };
      event = e;
    }
  }
  sink.add(event, { open });
  if (at.invented) sink.invent(event, 'timestamp', at.path);
  return event;
}

// ---------------------------------------------------------------------------
// Notebooks
// ---------------------------------------------------------------------------

function isNotebook(doc: unknown): doc is JsonRecord {
  return isRecord(doc) && Array.isArray(doc['cells']) && typeof doc['nbformat'] === 'number';
}

function cellTime(cell: JsonRecord, key: string): string | undefined {
  const meta = cell['metadata'];
  if (!isRecord(meta)) return undefined;
  const exec = meta['execution'];
  if (!isRecord(exec)) return undefined;
  const t = exec[key];
  return typeof t === 'string' && Number.isFinite(Date.parse(t)) ? t : undefined;
}

/**
 * Where invented times start in a notebook that records some real ones:
 * just before the first real time, leaving one millisecond for every event
 * that comes before it, so times never go backwards and the run does not start
 * in 1970 when most of it is dated.
 */
function inventedBase(cells: readonly unknown[]): string | undefined {
  let before = 0;
  for (const cell of cells) {
    if (!isRecord(cell)) continue;
    const real =
      cellTime(cell, 'iopub.execute_input') ?? cellTime(cell, 'shell.execute_reply.started');
    if (real) return new Date(Date.parse(real) - before - 1).toISOString();
    const outputs = Array.isArray(cell['outputs']) ? cell['outputs'].length : 0;
    before += 4 + outputs; // begin, source, unknown-cell info, end, outputs
  }
  return undefined;
}

function importNotebook(doc: JsonRecord, options: ImportOptions): ImportResult {
  const { ctx, sink } = importerParts('jupyter', options);
  const version = doc['nbformat'] as number;
  if (version < 4)
    throw new ImportError('jupyter_unsupported_nbformat', '$.nbformat', String(version));
  const meta = isRecord(doc['metadata']) ? doc['metadata'] : {};
  const language =
    (isRecord(meta['language_info']) && typeof meta['language_info']['name'] === 'string'
      ? meta['language_info']['name']
      : isRecord(meta['kernelspec']) && typeof meta['kernelspec']['language'] === 'string'
        ? meta['kernelspec']['language']
        : '') || '';
  const cells = doc['cells'] as unknown[];
  const clock = new SyntheticClock(options.baseTime ?? inventedBase(cells));
  for (let i = 0; i < cells.length; i++) {
    const path = jsonPath(jsonPath('$', 'cells'), i);
    const cell = cells[i];
    if (!isRecord(cell)) {
      ctx.warn(path, 'wrong_type', 'object', typeName(cell));
      continue;
    }
    const cellType = ctx.string(cell, 'cell_type', path) ?? 'unknown';
    const cellId = typeof cell['id'] === 'string' ? cell['id'] : `index-${i}`;
    const count = typeof cell['execution_count'] === 'number' ? cell['execution_count'] : null;
    const started =
      cellTime(cell, 'iopub.execute_input') ?? cellTime(cell, 'shell.execute_reply.started');
    const ended = cellTime(cell, 'shell.execute_reply');
    const time = (real: string | undefined): { t: string; invented: boolean } => {
      if (real) {
        clock.observe(real);
        return { t: real, invented: false };
      }
      return { t: clock.next(), invented: true };
    };
    const begin = time(started);
    const spanId = sink.uuid(`cell:${cellId}:${i}`);
    const name =
      cellType === 'code'
        ? count === null
          ? 'In [ ]'
          : `In [${count}]`
        : cellType === 'markdown'
          ? 'Markdown'
          : cellType;
    const cellMeta: JsonObject = { cell_type: cellType, cell_id: cellId };
    if (count !== null) cellMeta['execution_count'] = count;
    const extra = extraKeys(cell, CELL_KEYS);
    if (extra) cellMeta['extra'] = extra;
    const spanBegin = sink.openSpan(
      {
        id: spanId,
        uuid: sink.uuid(`${path}:begin`),
        timestamp: begin.t,
        parent_id: null,
        type: 'cell',
        name,
        metadata: { jupyter: cellMeta },
      },
      { timeInvented: begin.invented ? path : undefined },
    );
    const source = multiline(own(cell, 'source'));
    if (source !== undefined && source !== '') {
      const at = time(started);
      const data: Record<string, unknown> =
        cellType === 'markdown'
          ? { 'text/markdown': source, 'text/plain': source }
          : cellType === 'raw'
            ? { 'text/plain': source }
            : { 'text/markdown': '```' + language + '\n' + source + '\n```', 'text/plain': source };
      const ev = sink.add({
        event: 'display',
        uuid: sink.uuid(`${path}.source`),
        timestamp: at.t,
        span_id: spanId,
        outputs: [{ data }],
        metadata: { jupyter: { role: 'source', cell_type: cellType } },
      });
      if (at.invented) sink.invent(ev, 'timestamp', jsonPath(path, 'source'));
    }
    if (cellType !== 'code' && cellType !== 'markdown' && cellType !== 'raw') {
      ctx.info(path, 'jupyter_unknown_cell', cellType);
      const at = time(undefined);
      const ev = sink.add({
        event: 'info',
        uuid: sink.uuid(`${path}.cell`),
        timestamp: at.t,
        span_id: spanId,
        source: 'jupyter',
        data: cell,
      });
      sink.invent(ev, 'timestamp', path);
    }
    const outputs = cellType === 'code' ? (ctx.array(cell, 'outputs', path) ?? []) : [];
    for (let k = 0; k < outputs.length; k++) {
      const outPath = jsonPath(jsonPath(path, 'outputs'), k);
      const output = outputs[k];
      if (!isRecord(output)) {
        ctx.warn(outPath, 'wrong_type', 'object', typeName(output));
        continue;
      }
      const type = ctx.string(output, 'output_type', outPath) ?? 'unknown';
      const at = time(undefined);
      outputEvent(ctx, sink, output, type, {
        span: spanId,
        timestamp: at.t,
        invented: at.invented,
        path: outPath,
        key: outPath,
      });
    }
    const end = time(ended);
    sink.closeSpan(spanBegin, {
      uuid: sink.uuid(`${path}:end`),
      timestamp: end.t,
      timeInvented: end.invented ? path : undefined,
    });
  }
  return { format: 'jupyter', events: sink.finish(), diagnostics: ctx.finish() };
}

const CELL_KEYS: ReadonlySet<string> = new Set([
  'id',
  'cell_type',
  'metadata',
  'source',
  'execution_count',
  'outputs',
  'attachments',
]);

// ---------------------------------------------------------------------------
// iopub message logs
// ---------------------------------------------------------------------------

interface Message {
  msgType: string;
  msgId: string | undefined;
  parent: string | undefined;
  date: string | undefined;
  content: JsonRecord;
}

/** Reads a kernel message in either layout: `{header: {msg_type…}, parent_header, content}` or flat `msg_type`. */
function readMessage(record: unknown): Message | undefined {
  if (!isRecord(record)) return undefined;
  const header = isRecord(record['header']) ? record['header'] : undefined;
  const msgType = header?.['msg_type'] ?? record['msg_type'];
  if (typeof msgType !== 'string') return undefined;
  const content = record['content'];
  if (!isRecord(content)) return undefined;
  const parentHeader = record['parent_header'];
  const parent =
    isRecord(parentHeader) && typeof parentHeader['msg_id'] === 'string'
      ? parentHeader['msg_id']
      : undefined;
  const msgId = header?.['msg_id'] ?? record['msg_id'];
  const date = header?.['date'] ?? record['date'];
  return {
    msgType,
    msgId: typeof msgId === 'string' ? msgId : undefined,
    parent,
    date: typeof date === 'string' && Number.isFinite(Date.parse(date)) ? date : undefined,
    content,
  };
}

interface Request {
  span: string;
  begin: SpanBeginEvent;
  lastStream: Map<string, Event>;
  outputs: Event[];
  clearOnNext: boolean;
  ended: boolean;
}

function iopubImporter(options: ImportOptions): IncrementalImporter {
  const { ctx, sink } = importerParts('jupyter', options);
  const clock = new SyntheticClock(options.baseTime);
  const requests = new Map<string, Request>();
  const displays = new Map<string, Event[]>(); // display_id → events showing it
  let lastTime = '';

  const timeOf = (m: Message): { t: string; invented: boolean } => {
    if (m.date) {
      clock.observe(m.date);
      lastTime = m.date;
      return { t: m.date, invented: false };
    }
    const t = clock.next();
    lastTime = t;
    return { t, invented: true };
  };

  const requestOf = (m: Message, path: string): Request => {
    const key = m.parent ?? '(no parent)';
    let req = requests.get(key);
    if (req) return req;
    const at = timeOf(m);
    const begin = sink.openSpan(
      {
        key: `request:${key}`,
        timestamp: at.t,
        parent_id: null,
        type: 'cell',
        name: 'In [ ]',
        metadata: { jupyter: { parent_msg_id: m.parent ?? null } },
      },
      { open: true, timeInvented: at.invented ? path : undefined },
    );
    req = {
      span: begin.id,
      begin,
      lastStream: new Map(),
      outputs: [],
      clearOnNext: false,
      ended: false,
    };
    requests.set(key, req);
    return req;
  };

  const clear = (req: Request): void => {
    // Honoured, never dropped: the cleared outputs leave the view (empty
    // bundles) and stay readable under metadata.jupyter.cleared.
    for (const e of req.outputs) {
      if (e.event !== 'display') continue;
      const jupyter = {
        ...((e.metadata?.['jupyter'] as JsonObject | undefined) ?? {}),
        cleared: e.outputs,
      };
      e.outputs = [];
      e.metadata = { ...(e.metadata ?? {}), jupyter };
      sink.close(e); // cleared outputs no longer change
    }
    req.outputs = [];
    req.lastStream.clear();
    req.clearOnNext = false;
  };

  const end = (req: Request, path: string, m?: Message): void => {
    if (req.ended) return;
    req.ended = true;
    const at = m ? timeOf(m) : { t: lastTime || clock.next(), invented: !m };
    sink.closeSpan(req.begin, { timestamp: at.t, timeInvented: at.invented ? path : undefined });
    for (const o of req.outputs) sink.close(o);
  };

  return {
    push(record, path) {
      const m = readMessage(record);
      if (!m) {
        ctx.warn(path, 'jupyter_not_a_message', typeName(record));
        return;
      }
      switch (m.msgType) {
        case 'status': {
          const state = m.content['execution_state'];
          const req = m.parent ? requests.get(m.parent) : undefined;
          if (state === 'busy') requestOf(m, path);
          else if (state === 'idle' && req) end(req, path, m);
          return;
        }
        case 'execute_input': {
          const req = requestOf(m, path);
          const code = typeof m.content['code'] === 'string' ? m.content['code'] : '';
          const count = m.content['execution_count'];
          if (typeof count === 'number') {
            req.begin.name = `In [${count}]`;
            sink.touch(req.begin);
          }
          const at = timeOf(m);
          const e = sink.add({
            event: 'display',
            uuid: sink.uuid(`${path}.source`),
            timestamp: at.t,
            span_id: req.span,
            outputs: [{ data: { 'text/markdown': '```\n' + code + '\n```', 'text/plain': code } }],
            metadata: {
              jupyter: {
                role: 'source',
                execution_count: typeof count === 'number' ? count : null,
              },
            },
          });
          if (at.invented) sink.invent(e, 'timestamp', path);
          return;
        }
        case 'clear_output': {
          const req = requestOf(m, path);
          if (m.content['wait'] === true) req.clearOnNext = true;
          else clear(req);
          return;
        }
        case 'stream':
        case 'display_data':
        case 'update_display_data':
        case 'execute_result':
        case 'error': {
          const req = requestOf(m, path);
          if (req.clearOnNext) clear(req);
          if (m.msgType === 'stream') {
            const name = typeof m.content['name'] === 'string' ? m.content['name'] : 'stdout';
            const text = multiline(m.content['text']) ?? '';
            const prev = req.lastStream.get(name);
            if (prev && prev.event === 'display') {
              // A delta: the frontend appends to the previous output of this stream.
              const data = (prev as DisplayEvent).outputs[0]!.data;
              const before = data['text/plain'];
              data['text/plain'] = (typeof before === 'string' ? before : '') + text;
              sink.touch(prev);
              return;
            }
          }
          if (m.msgType === 'update_display_data') {
            const id = isRecord(m.content['transient'])
              ? m.content['transient']['display_id']
              : undefined;
            const shown = typeof id === 'string' ? displays.get(id) : undefined;
            if (shown?.length) {
              const data = isRecord(m.content['data']) ? bundleData(m.content['data']) : {};
              const metadata = isRecord(m.content['metadata']) ? m.content['metadata'] : undefined;
              for (const e of shown) {
                if (e.event !== 'display') continue;
                e.outputs = [{ data, ...(metadata ? { metadata } : {}) }];
                sink.touch(e);
              }
              return;
            }
            ctx.info(path, 'jupyter_update_unknown_display', typeof id === 'string' ? id : '');
          }
          const at = timeOf(m);
          const e = outputEvent(
            ctx,
            sink,
            { output_type: m.msgType, ...m.content },
            m.msgType,
            {
              span: req.span,
              timestamp: at.t,
              invented: at.invented,
              path,
              key: path,
            },
            // Open until the request is idle: streams append and displays update in place.
            // Output that arrives after idle (late messages) is final at once.
            !req.ended,
          );
          req.outputs.push(e);
          if (m.msgType === 'stream') {
            const name = m.content['name'];
            req.lastStream.set(typeof name === 'string' ? name : 'stdout', e);
          } else req.lastStream.clear();
          const displayId = e.event === 'display' ? (e as DisplayEvent).display_id : null;
          if (displayId) {
            const list = displays.get(displayId) ?? [];
            list.push(e);
            displays.set(displayId, list);
          }
          return;
        }
        default: {
          // execute_request/reply, comm messages, kernel_info…: kept quietly.
          const req = m.parent ? requests.get(m.parent) : undefined;
          const at = timeOf(m);
          const e = sink.add({
            event: 'info',
            uuid: sink.uuid(`${path}.message`),
            timestamp: at.t,
            span_id: req && !req.ended ? req.span : null,
            source: 'jupyter',
            data: { msg_type: m.msgType, content: m.content },
          });
          if (at.invented) sink.invent(e, 'timestamp', path);
        }
      }
    },
    drain: () => sink.drain(),
    end() {
      for (const req of requests.values()) {
        if (!req.ended) {
          const jupyter = req.begin.metadata?.['jupyter'] as JsonObject | undefined;
          const parent = jupyter?.['parent_msg_id'];
          ctx.warn('$', 'jupyter_request_unfinished', typeof parent === 'string' ? parent : '');
          end(req, '$');
        }
      }
      return sink.drain();
    },
    diagnostics: () => ctx.finish(),
  };
}

// ---------------------------------------------------------------------------
// The format
// ---------------------------------------------------------------------------

function looksLikeMessage(record: unknown): boolean {
  return readMessage(record) !== undefined;
}

/**
 * Jupyter notebooks (`.ipynb`, nbformat 4.x) and iopub message logs (JSON Lines
 * or an array of kernel messages).
 *
 * @example
 * import { Probe } from '../probe.js';
 * import { jupyterFormat } from './jupyter.js';
 * declare const notebookText: string; // an .ipynb file
 * jupyterFormat.detect(new Probe(notebookText)); // true
 */
export const jupyterFormat: FormatImporter & {
  incremental(options: ImportOptions): IncrementalImporter;
} = {
  id: 'jupyter',
  name: 'Jupyter notebook or iopub messages',
  extensions: ['.ipynb', '.jsonl'],
  detect(probe) {
    const doc = probe.json();
    if (isNotebook(doc)) return true;
    const records = probe.records(4);
    return records.length > 0 && records.every(looksLikeMessage);
  },
  import(probe, options): ImportResult {
    const doc = probe.json();
    if (isNotebook(doc)) return importNotebook(doc, options);
    return importLines(jupyterFormat, probe, options);
  },
  incremental: iopubImporter,
};

/**
 * A cheap check whether an input is a Jupyter notebook or an iopub message log.
 *
 * @example
 * declare const file: File; // from an <input type="file">
 * isJupyter(await file.text(), file.name);
 */
export const isJupyter: (input: ImportInput, filename?: string) => boolean = sniffer(jupyterFormat);

/**
 * Imports a Jupyter notebook (nbformat 4.x) or an iopub message log: each cell
 * (or execute request) a `cell` span holding its source and outputs.
 *
 * @example
 * declare const notebookText: string; // an .ipynb file
 * const { events, diagnostics } = importJupyter(notebookText);
 */
export function importJupyter(input: ImportInput, options: ImportOptions = {}): ImportResult {
  return jupyterFormat.import(new Probe(input, options.filename), options) as ImportResult;
}
