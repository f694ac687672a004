// Which dialect a span speaks and what it is (a model call, a tool run, a
// span), and the attribute reads that remember what the mapping consumed.
// Spellings: OpenTelemetry GenAI semantic conventions, OpenInference,
// OpenLLMetry and the Vercel AI SDK.
import { MAX_VALUE_DEPTH } from '../../events/freeze.js';
import { isRecord, own, stringOf } from '../guards.js';
import { type Attrs, put, hasOwn, field, keyBit, NO_ATTRS } from './values.js';
import type { Span } from './read.js';

type Role = 'model' | 'tool' | 'span';

/** What a span is, worked out once from its attributes ({@link classify}). */
export interface Classified {
  role: Role;
  /** `span_begin.type` of a span; the dialect of a model or tool. */
  type: string | undefined;
  dialect: string;
}

const MODEL_OPS = new Set(['chat', 'generate_content', 'text_completion', 'completion']);

// The classes with no type of their own, one object each (never changed):
// not an object per span classified.
const GENAI_MODEL: Classified = { role: 'model', type: undefined, dialect: 'gen_ai' };
const GENAI_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'gen_ai' };
const GENAI_AGENT: Classified = { role: 'span', type: 'agent', dialect: 'gen_ai' };
const GENAI_WORKFLOW: Classified = { role: 'span', type: 'workflow', dialect: 'gen_ai' };
const OI_MODEL: Classified = { role: 'model', type: undefined, dialect: 'openinference' };
const OI_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'openinference' };
const VERCEL_MODEL: Classified = { role: 'model', type: undefined, dialect: 'vercel' };
const VERCEL_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'vercel' };
const OPENLLMETRY_TOOL: Classified = { role: 'tool', type: undefined, dialect: 'openllmetry' };
const PLAIN_SPAN: Classified = { role: 'span', type: undefined, dialect: 'otlp' };

/** The class of a span, worked out once (a tool's children are asked again). */
export function classify(s: Span, attrs: Attrs): Classified {
  return (s.cls ??= classifyAttrs(attrs));
}

function classifyAttrs(a: Attrs): Classified {
  const op = stringOf(a['gen_ai.operation.name']);
  if (op !== undefined) {
    if (MODEL_OPS.has(op)) return GENAI_MODEL;
    if (op === 'execute_tool') return GENAI_TOOL;
    if (op === 'invoke_agent' || op === 'create_agent') return GENAI_AGENT;
    if (op === 'invoke_workflow') return GENAI_WORKFLOW;
    return { role: 'span', type: op, dialect: 'gen_ai' };
  }
  const oiKind = stringOf(a['openinference.span.kind'])?.toUpperCase();
  if (oiKind !== undefined) {
    if (oiKind === 'LLM') return OI_MODEL;
    if (oiKind === 'TOOL') return OI_TOOL;
    return { role: 'span', type: oiKind.toLowerCase(), dialect: 'openinference' };
  }
  const aiOp = stringOf(a['ai.operationId']);
  if (aiOp !== undefined) {
    if (/\.do(Generate|Stream)$/.test(aiOp)) return VERCEL_MODEL;
    if (aiOp === 'ai.toolCall') return VERCEL_TOOL;
    return { role: 'span', type: aiOp, dialect: 'vercel' };
  }
  const tlKind = stringOf(a['traceloop.span.kind']);
  if (tlKind !== undefined) {
    if (tlKind === 'tool') return OPENLLMETRY_TOOL;
    return { role: 'span', type: tlKind, dialect: 'openllmetry' };
  }
  if (
    a['llm.request.type'] !== undefined ||
    a['gen_ai.prompt.0.role'] !== undefined ||
    a['gen_ai.prompt.0.content'] !== undefined ||
    a['gen_ai.input.messages'] !== undefined
  )
    return GENAI_MODEL;
  if (a['gen_ai.tool.name'] !== undefined || a['gen_ai.tool.call.id'] !== undefined)
    return GENAI_TOOL;
  return PLAIN_SPAN;
}

/** Attribute reads that remember what the mapping consumed (the rest is kept in metadata). */
export class Used {
  /**
   * The keys read, the first {@link count} of this list: one list for the
   * whole import (a span's reads end before the next span's begin), not one
   * per span that reads anything.
   */
  readonly #keys: string[] = [];
  count = 0;
  attrs: Attrs = NO_ATTRS;
  /** The {@link keyBit}s of the keys of {@link attrs}. */
  mask = 0;
  #all: string[] | undefined;

  /** Starts over on a span's attributes, with the {@link keyBit}s of their keys. */
  reset(attrs: Attrs, mask: number): this {
    this.attrs = attrs;
    this.mask = mask;
    this.count = 0;
    this.#all = undefined;
    return this;
  }

  get all(): string[] {
    return (this.#all ??= Object.keys(this.attrs));
  }

  #read(key: string): void {
    this.#keys[this.count++] = key;
  }

  #wasRead(key: string): boolean {
    for (let i = 0; i < this.count; i++) if (this.#keys[i] === key) return true;
    return false;
  }

  get(key: string): unknown {
    if ((this.mask & keyBit(key)) === 0) return undefined;
    const v = field(this.attrs, key);
    if (v !== undefined) this.#read(key);
    return v;
  }

  /**
   * The first of several spellings that is present. Up to six, as arguments
   * rather than a rest list (an array per call, a dozen calls per span).
   */
  first(a: string, b?: string, c?: string, d?: string, e?: string, f?: string): unknown {
    let v = this.get(a);
    if (v === undefined || v === null) v = b === undefined ? undefined : this.get(b);
    if (v === undefined || v === null) v = c === undefined ? undefined : this.get(c);
    if (v === undefined || v === null) v = d === undefined ? undefined : this.get(d);
    if (v === undefined || v === null) v = e === undefined ? undefined : this.get(e);
    if (v === undefined || v === null) v = f === undefined ? undefined : this.get(f);
    return v === null ? undefined : v;
  }

  /** Every key under `prefix.` un-flattened (`a.0.b` → `[{b}]`), or undefined. */
  tree(prefix: string): unknown {
    if ((this.mask & keyBit(prefix)) === 0) return undefined; // no key starts so
    const p = `${prefix}.`;
    let root: Record<string, unknown> | undefined;
    for (const key of this.all) {
      if (!key.startsWith(p)) continue;
      this.#read(key);
      root ??= {};
      // At most MAX_VALUE_DEPTH levels: a key's segments past that stay one
      // dotted key, so a key of 100,000 dots cannot nest that deep (which
      // `arrays` below and every later walk would have to follow).
      let parts = key.slice(p.length).split('.');
      if (parts.length > MAX_VALUE_DEPTH)
        parts = [
          ...parts.slice(0, MAX_VALUE_DEPTH - 1),
          parts.slice(MAX_VALUE_DEPTH - 1).join('.'),
        ];
      let node: Record<string, unknown> = root;
      for (let i = 0; i < parts.length - 1; i++) {
        const k = parts[i]!;
        let next = own(node, k);
        if (!isRecord(next)) {
          next = {};
          put(node, k, next);
        }
        node = next as Record<string, unknown>;
      }
      put(node, parts[parts.length - 1]!, this.attrs[key]);
    }
    return root === undefined ? undefined : arrays(root);
  }

  rest(): Attrs {
    // Nothing read: the span's own attributes (made for it by `keyValues`,
    // read only) are the rest, not a copy of them.
    if (this.count === 0) return this.attrs;
    // `for…in` with an own check: the keys of `Object.keys`, in its order,
    // without the array. The object is made at the second key left.
    const attrs = this.attrs;
    let out: Attrs | undefined;
    let first: string | undefined;
    for (const key in attrs) {
      if (!hasOwn.call(attrs, key) || this.#wasRead(key)) continue;
      if (first === undefined) {
        first = key;
        continue;
      }
      if (out === undefined) put((out = {}), first, attrs[first]);
      put(out, key, attrs[key]);
    }
    if (out !== undefined) return out;
    if (first === undefined) return NO_ATTRS;
    return this.#single(first, attrs[first]);
  }

  /**
   * Frozen one-attribute rests of a string value, by key and value: what
   * the mapping leaves of a GenAI span is often only the
   * `gen_ai.operation.name` it was classified by (`chat`, `execute_tool`,
   * `invoke_agent`), the same object for every such span instead of one per
   * event kept and frozen.
   */
  readonly #singles = new Map<string, Map<string, Attrs>>();

  #single(key: string, value: unknown): Attrs {
    if (typeof value !== 'string') {
      const one: Attrs = {};
      put(one, key, value);
      return one;
    }
    let byValue = this.#singles.get(key);
    if (byValue === undefined) this.#singles.set(key, (byValue = new Map()));
    let one = byValue.get(value);
    if (one === undefined) {
      one = {};
      put(one, key, value);
      byValue.set(value, Object.freeze(one));
    }
    return one;
  }
}

/**
 * Objects whose keys are all indices become arrays (in index order),
 * recursively: `tree` builds at most MAX_VALUE_DEPTH levels.
 */
function arrays(v: unknown): unknown {
  if (!isRecord(v)) return v;
  const keys = Object.keys(v);
  if (keys.length > 0 && keys.every((k) => /^\d+$/.test(k))) {
    return keys
      .map(Number)
      .sort((x, y) => x - y)
      .map((k) => arrays(v[String(k)]));
  }
  for (const k of keys) put(v, k, arrays(v[k]));
  return v;
}
