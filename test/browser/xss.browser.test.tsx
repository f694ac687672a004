/**
 * The XSS suite (issue 5, "Security — test it as an attacker would"), in real
 * Chromium. Every payload of xss-payloads.ts goes through every default
 * renderer (untrusted, and trusted for the sanitizing paths), through the
 * core's display cascade, and through every text field and key of every
 * event kind via describeEvent. Pass means:
 *
 * - no script ran in the host page (`window.__xss` spy never called, no error events);
 * - no request to a probe URL left the page (resource timing of the host and
 *   of a same-origin replica of each sandboxed frame; fetch/XHR/beacon spies);
 * - no navigation (host URL unchanged, no unload; each sandboxed frame loaded once);
 * - the host DOM holds no `on*` attribute, no `javascript:`/`vbscript:`/
 *   `data:text/html` URL, no script/style/form/base/meta/object element, no
 *   unsandboxed frame, no CSS that fetches, no clobbering names.
 *
 * The "detector" tests at the top prove each check fails when it should.
 */
import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  DISPLAY,
  describeEvent,
  generateRun,
  type Event,
  type MimeBundle,
} from '../../src/index.js';
import {
  Display,
  SkeinTheme,
  preloadDisplay,
  sandboxDocument,
  type Trust,
} from '../../src/react.js';
import '../../src/styles.css';
import { XSS_PAYLOADS, withOrigin } from './xss-payloads.js';

interface Probe {
  calls: unknown[][];
  requests: string[];
  navigations: string[];
  errors: string[];
}

const probe: Probe = { calls: [], requests: [], navigations: [], errors: [] };
const startUrl = location.href;
// Probe URLs only: the test's own module URLs contain "xss" too.
const PROBE = /__xss_probe|xss\.invalid/i;
let observer: PerformanceObserver;
const restore: (() => void)[] = [];

function record(url: unknown) {
  const text = String(url instanceof Request ? url.url : url);
  if (PROBE.test(text)) probe.requests.push(text);
}

// Every payload goes through the real renderers: the markdown parser and the
// sanitizer, which otherwise load on first use, are loaded before any case.
beforeAll(() => preloadDisplay());

beforeAll(() => {
  (window as unknown as { __xss: unknown }).__xss = (...args: unknown[]) => probe.calls.push(args);
  performance.setResourceTimingBufferSize(100_000);
  observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) record(entry.name);
  });
  observer.observe({ type: 'resource', buffered: true });
  const fetch0 = window.fetch;
  window.fetch = (input, init) => {
    record(input);
    return fetch0(input, init);
  };
  const open0 = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function open(this: XMLHttpRequest, ...args: unknown[]) {
    record(args[1]);
    return (open0 as (...a: unknown[]) => void).apply(this, args);
  } as typeof open0;
  const beacon0 = navigator.sendBeacon.bind(navigator);
  navigator.sendBeacon = (url, data) => {
    record(url);
    return beacon0(url, data);
  };
  const windowOpen0 = window.open;
  window.open = (url) => {
    probe.navigations.push(`window.open ${String(url)}`);
    return null;
  };
  const onNavigate = (e: globalThis.Event) => probe.navigations.push(e.type);
  const onError = (e: globalThis.Event) => {
    if (e instanceof ErrorEvent) probe.errors.push(e.message);
  };
  for (const type of ['beforeunload', 'pagehide', 'hashchange', 'popstate']) {
    window.addEventListener(type, onNavigate);
  }
  window.addEventListener('error', onError, true);
  restore.push(() => {
    window.fetch = fetch0;
    XMLHttpRequest.prototype.open = open0;
    navigator.sendBeacon = beacon0;
    window.open = windowOpen0;
    for (const type of ['beforeunload', 'pagehide', 'hashchange', 'popstate']) {
      window.removeEventListener(type, onNavigate);
    }
    window.removeEventListener('error', onError, true);
    observer.disconnect();
  });
});

afterAll(() => {
  for (const r of restore) r();
});

beforeEach(() => {
  probe.calls.length = 0;
  probe.requests.length = 0;
  probe.navigations.length = 0;
  probe.errors.length = 0;
  for (const e of observer.takeRecords()) record(e.name);
  probe.requests.length = 0;
  performance.clearResourceTimings();
});

afterEach(() => {
  cleanup();
});

const caught: unknown[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const frame = () => new Promise((r) => requestAnimationFrame(r));

/** Renders `ui`, counting load events of every frame inside (capture: load does not bubble). */
function renderWatched(ui: ReactNode) {
  const loads = new Map<HTMLIFrameElement, number>();
  const host = document.createElement('div');
  host.addEventListener(
    'load',
    (e) => {
      if (e.target instanceof HTMLIFrameElement)
        loads.set(e.target, (loads.get(e.target) ?? 0) + 1);
    },
    true,
  );
  document.body.append(host);
  const result = render(<SkeinTheme theme="light">{ui}</SkeinTheme>, {
    container: host,
    // Renderers refusing malformed payloads (e.g. non-base64 images) is the
    // expected outcome; collect those errors instead of logging each one.
    onCaughtError: (error) => caught.push(error),
  });
  return { ...result, loads };
}

/** Waits until every frame has loaded once, then long enough for a 0 s meta refresh. */
async function settle(container: HTMLElement, loads: Map<HTMLIFrameElement, number>) {
  await frame();
  await frame();
  // The frames in the document now: asked again each time, because a frame
  // React replaces while this waits never loads once detached (that made the
  // suite fail after the full deadline on a loaded CI machine).
  const frames = () => [...container.querySelectorAll('iframe')];
  // Generous: the suite must not flake on a loaded 2-core CI machine.
  const deadline = performance.now() + 8_000;
  const unloaded = () => frames().some((f) => !loads.get(f));
  // Wait until every frame has loaded and none appears for 150 ms more: a
  // renderer loaded lazily, or React replacing a frame on a loaded machine,
  // can add a frame after the first wait ended (CI failed once that way).
  for (;;) {
    while (unloaded() && performance.now() < deadline) await sleep(10);
    await sleep(150);
    await frame();
    if (!unloaded() || performance.now() >= deadline) break;
  }
  // At most one load per frame: a second one is a navigation. A frame may
  // never fire its load at all: Chromium 1xx sometimes never ends loading a
  // sandboxed srcdoc whose SVG `<use>` points at a data: URL ("svg use data",
  // about one run in three on a quiet machine). Nothing ran and nothing
  // navigated, so that is not a failure; most frames load, and are counted.
  const loaded = frames().filter((f) => loads.has(f)).length;
  expect(loaded, 'every frame but at most one fired its load').toBeGreaterThanOrEqual(
    frames().length - 1,
  );
  // Frames that loaded and were replaced since must not have navigated either.
  for (const [f, count] of loads) {
    expect(count, `frame ${f.title} loads exactly once (no navigation)`).toBe(1);
  }
}

const FORBIDDEN_TAGS = new Set([
  'script',
  'style',
  'link',
  'meta',
  'base',
  'form',
  'object',
  'embed',
  'applet',
  'frame',
  'frameset',
  'portal',
  'template',
  'noscript',
  'textarea',
  'select',
  'video',
  'audio',
  'source',
]);
const URL_ATTRS = new Set([
  'href',
  'src',
  'action',
  'formaction',
  'xlink:href',
  'data',
  'poster',
  'background',
  'ping',
  'srcset',
  'lowsrc',
  'dynsrc',
  'codebase',
  'cite',
  'longdesc',
  'manifest',
  'icon',
]);
const TEXT_ATTRS = new Set(['alt', 'title']);
const CLOBBER = new Set(['__xss', 'getelementbyid', 'body', 'cookie', 'location', 'cookie']);

/** Every DOM-level rule of the suite; throws with the offending markup. */
function assertCleanDom(root: HTMLElement) {
  for (const el of root.querySelectorAll('*')) {
    const tag = el.localName;
    const payload = nameOf(el);
    const where = `${payload ? `(payload ${payload}) ` : ''}${el.outerHTML.slice(0, 200)}`;
    if (FORBIDDEN_TAGS.has(tag)) throw new Error(`forbidden <${tag}> in host DOM: ${where}`);
    if (
      tag === 'input' &&
      !(el.getAttribute('type') === 'checkbox' && el.hasAttribute('disabled'))
    ) {
      throw new Error(`input other than a GFM task checkbox: ${where}`);
    }
    if (tag === 'iframe' && (el.getAttribute('sandbox') !== '' || el.hasAttribute('src'))) {
      throw new Error(`frame that is not fully sandboxed: ${where}`);
    }
    for (const attr of el.attributes) {
      const name = attr.name.toLowerCase();
      if (name.startsWith('on')) throw new Error(`event handler attribute ${name}: ${where}`);
      if (name === 'srcdoc') continue; // inert text of our sandboxed frame, checked via the replica
      // Normalize as a URL parser would: drop whitespace and control characters.
      // eslint-disable-next-line no-control-regex
      const value = attr.value.replace(/[\u0000-\u0020\u007f-\u00a0]/g, '').toLowerCase();
      if (URL_ATTRS.has(name) || name.endsWith(':href')) {
        if (
          /^(javascript|vbscript|livescript):|^data:(text\/html|image\/svg|application)/.test(value)
        ) {
          if (!(tag === 'img' && name === 'src' && value.startsWith('data:image/svg+xml'))) {
            throw new Error(`dangerous URL in ${name}: ${where}`);
          }
        }
        if (tag !== 'a' && name !== 'srcdoc' && /^(https?:)?\/\//.test(value)) {
          throw new Error(`remote resource in ${name}: ${where}`);
        }
      }
      if (name === 'style' && /url\(|expression|image-set|@import|behavior|binding/.test(value)) {
        throw new Error(`fetching CSS in style attribute: ${where}`);
      }
      // Any attribute the engine may read as CSS (SVG `fill`, `filter`, `mask`,
      // `clip-path`, `marker-*`…): only same-document `url(#id)` references.
      // Text-only attributes (alt, title, aria-*) may quote a payload verbatim.
      // An `<img>` data URL is an inert image document (no fetches): its text is not CSS here.
      const inertImage = tag === 'img' && name === 'src' && value.startsWith('data:image/');
      if (
        !inertImage &&
        !TEXT_ATTRS.has(name) &&
        !name.startsWith('aria-') &&
        (/url\((?!['"]?#)/.test(value) || /image-set\(|image\(|cross-fade\(/.test(value))
      ) {
        throw new Error(`external url() in ${name}: ${where}`);
      }
      if ((name === 'id' || name === 'name') && CLOBBER.has(value)) {
        throw new Error(`clobbering ${name}=${value}: ${where}`);
      }
    }
  }
  if (document.querySelector('base, meta[http-equiv]'))
    throw new Error('base/meta reached the document');
}

/** Loads the frame's srcdoc in a same-origin, script-less replica to read what it fetched. */
async function checkFrameReplica(srcdoc: string) {
  const replica = document.createElement('iframe');
  replica.setAttribute('sandbox', 'allow-same-origin');
  const loaded = new Promise((r) => replica.addEventListener('load', r, { once: true }));
  replica.srcdoc = srcdoc;
  document.body.append(replica);
  await loaded;
  await sleep(150);
  const win = replica.contentWindow!;
  // Chromium also records requests the CSP blocked, with responseStatus 0 and
  // no bytes. The test server answers every probe path (200 or 404), so a
  // request that really reached the network has a status.
  const fetched = (win.performance.getEntriesByType('resource') as PerformanceResourceTiming[])
    .filter((e) => PROBE.test(e.name) && (e.responseStatus > 0 || e.transferSize > 0))
    .map((e) => e.name);
  const href = win.location.href;
  replica.remove();
  return { fetched, href };
}

async function assertClean(container: HTMLElement) {
  const frames = [...container.querySelectorAll('iframe')];
  const replicas = await Promise.all(
    frames.map((f) => checkFrameReplica(f.getAttribute('srcdoc') ?? '')),
  );
  for (const { fetched, href } of replicas) {
    expect(fetched, 'requests from inside a sandboxed frame').toEqual([]);
    expect(href, 'sandboxed frame navigated').toBe('about:srcdoc');
  }
  for (const e of observer.takeRecords()) record(e.name);
  for (const e of performance.getEntriesByType('resource')) record(e.name);
  expect(probe.calls, 'script ran in the host page').toEqual([]);
  expect([...new Set(probe.requests)], 'request left the page').toEqual([]);
  expect(probe.navigations, 'navigation').toEqual([]);
  expect(probe.errors, 'error events').toEqual([]);
  expect(location.href).toBe(startUrl);
  expect(getComputedStyle(container).display).not.toBe('none');
  assertCleanDom(container);
}

const PNG_1PX =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

type Case = { label: string; trust: Trust } & ({ bundle: MimeBundle } | { value: unknown });

/** Every way a string reaches a renderer. */
function casesFor(p: string): Case[] {
  const u: Trust = 'untrusted';
  const t: Trust = 'trusted';
  return [
    { label: 'markdown', trust: u, bundle: { data: { 'text/markdown': p } } },
    {
      label: 'html',
      trust: u,
      bundle: { data: { 'text/html': p }, metadata: { 'text/html': { height: p } } },
    },
    { label: 'html trusted', trust: t, bundle: { data: { 'text/html': p } } },
    { label: 'svg', trust: u, bundle: { data: { 'image/svg+xml': p } } },
    { label: 'svg trusted', trust: t, bundle: { data: { 'image/svg+xml': p } } },
    { label: 'plain', trust: u, bundle: { data: { 'text/plain': p } } },
    {
      label: 'json',
      trust: u,
      bundle: { data: { 'application/json': { [p]: p, list: [p, { [p]: [p] }] } } },
    },
    { label: 'json text', trust: u, bundle: { data: { 'application/json': p } } },
    { label: 'latex', trust: u, bundle: { data: { 'text/latex': p } } },
    { label: 'diff', trust: u, bundle: { data: { 'text/x-diff': p } } },
    {
      label: 'diff hunk',
      trust: u,
      bundle: { data: { 'text/x-diff': `--- ${p}\n+++ ${p}\n@@ -1 +1 @@\n-${p}\n+${p}\n ${p}` } },
    },
    { label: 'png data', trust: u, bundle: { data: { 'image/png': p } } },
    {
      label: 'jpeg data url',
      trust: u,
      bundle: { data: { 'image/jpeg': `data:image/jpeg;base64,${p}` } },
    },
    {
      label: 'png metadata',
      trust: u,
      bundle: {
        data: { 'image/png': PNG_1PX, 'text/plain': p },
        metadata: { 'image/png': { alt: p, width: p, height: p } },
      },
    },
    { label: 'mime key', trust: u, bundle: { data: { [p]: p, 'text/plain': 'ok' } } },
    { label: 'mime key alone', trust: u, bundle: { data: { [p]: p } } },
    { label: 'value string', trust: u, value: p },
    { label: 'value object', trust: u, value: { [p]: p, nested: { [p]: [p] } } },
    { label: 'repr html', trust: u, value: { _repr_html_: () => p } },
    { label: 'repr markdown', trust: u, value: { _repr_markdown_: () => p } },
    { label: 'repr svg', trust: u, value: { _repr_svg_: () => p } },
    {
      label: 'display symbol',
      trust: u,
      value: { [DISPLAY]: () => ({ data: { 'text/html': p, 'text/markdown': p } }) },
    },
    {
      label: 'jupyter output',
      trust: u,
      value: {
        output_type: 'display_data',
        data: { 'text/html': p, 'image/svg+xml': p },
        metadata: {},
      },
    },
  ];
}

function Gallery({ cases }: { cases: Case[] }) {
  return (
    <>
      {cases.map((c, i) => (
        <section key={i} aria-label={c.label} data-case="">
          {'bundle' in c ? (
            <Display bundle={c.bundle} trust={c.trust} />
          ) : (
            <Display value={c.value} trust={c.trust} />
          )}
        </section>
      ))}
    </>
  );
}

describe('XSS suite: the detectors work', { timeout: 60_000 }, () => {
  it('sees a script that runs', async () => {
    const { container, loads } = renderWatched(<div />);
    const img = document.createElement('img');
    img.setAttribute('onerror', '__xss("control")');
    img.src = 'data:image/png;base64,AAAA';
    container.append(img);
    await settle(container, loads);
    await expect.poll(() => probe.calls, { timeout: 10_000 }).toEqual([['control']]);
  });

  it('sees a request that leaves the page', async () => {
    const { container, loads } = renderWatched(<div />);
    const img = document.createElement('img');
    img.src = `${location.origin}/__xss_probe/control.png`;
    container.append(img);
    await new Promise(
      (r) => img.addEventListener('error', r, { once: true }) ?? img.addEventListener('load', r),
    );
    await settle(container, loads);
    await expect
      .poll(
        () => {
          for (const e of observer.takeRecords()) record(e.name);
          return probe.requests.some((r) => r.includes('/__xss_probe/control.png'));
        },
        { timeout: 10_000 },
      )
      .toBe(true);
  });

  it('sees a request from inside a frame without the CSP', async () => {
    const html = `<img src="${location.origin}/__xss_probe/frame-control.png">`;
    const { fetched } = await checkFrameReplica(html);
    expect(fetched.some((u) => u.includes('frame-control'))).toBe(true);
    // The same markup with skein's CSP fetches nothing.
    expect((await checkFrameReplica(sandboxDocument(html))).fetched).toEqual([]);
  });

  it('sees a frame that navigates', async () => {
    const { container, loads } = renderWatched(<div />);
    const f = document.createElement('iframe');
    // The same meta refresh that skein's script-less sandbox refuses (payload "meta refresh remote").
    f.setAttribute('sandbox', 'allow-scripts');
    f.srcdoc = '<meta http-equiv="refresh" content="0;url=data:text/html,moved">';
    container.append(f);
    const deadline = performance.now() + 8_000;
    while ((loads.get(f) ?? 0) < 2 && performance.now() < deadline) await sleep(10);
    expect(loads.get(f)).toBe(2);
  });

  it('rejects dangerous markup in the DOM check', () => {
    for (const html of [
      '<a href=" java\tscript:x">x</a>',
      '<b onclick="x">x</b>',
      '<iframe sandbox="allow-scripts" srcdoc="x"></iframe>',
      '<div style="background:url(https://x)">x</div>',
      '<img src="https://x/y.png">',
      '<form></form>',
      '<img name="__xss">',
      '<svg><rect fill="url(https://x/y.svg#p)"/></svg>',
      '<svg><rect filter="url( \'//x/f.svg#f\')"/></svg>',
      '<svg><rect mask="url(#ok) url(https://x/m.svg#m)"/></svg>',
      '<svg><path marker-end="url(https://x/m.svg#m)"/></svg>',
    ]) {
      const div = document.createElement('div');
      div.innerHTML = html;
      expect(() => assertCleanDom(div), html).toThrow();
    }
    const ok = document.createElement('div');
    ok.innerHTML =
      '<svg><rect fill="url(#user-content-g)" clip-path="url(\'#user-content-c\')"/></svg><img alt="url(https://x/y)">';
    expect(() => assertCleanDom(ok)).not.toThrow();
  });
});

/**
 * The payloads in groups of six, each group drawn and checked at once: every
 * check waits for frames to load and for a 0 s refresh, and paying that wait
 * once per group, not once per payload, took this file from 166 s to about a
 * third (it was the slowest file of `npm test`). A failure names the group's
 * payloads, and the DOM checks name the payload (`data-payload`) they found.
 */
const BATCH = 6;
/** The payload an element was drawn for (its group's wrapper holds the payload's index, not its text). */
function nameOf(el: Element): string | undefined {
  const index = el.closest('[data-payload]')?.getAttribute('data-payload');
  return index == null ? undefined : XSS_PAYLOADS[Number(index)]?.name;
}
const BATCHES = Array.from({ length: Math.ceil(XSS_PAYLOADS.length / BATCH) }, (_, i) => {
  const batch = XSS_PAYLOADS.slice(i * BATCH, (i + 1) * BATCH);
  return [batch.map((p) => p.name).join(' · '), batch] as const;
});

describe('XSS suite: every payload through every renderer', { timeout: 60_000 }, () => {
  it('has at least 100 payloads', () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(100);
  });

  it.each(BATCHES)(
    '%s',
    async (_names, batch) => {
      const { container, loads } = renderWatched(
        <>
          {batch.map(({ name, payload }) => (
            <div key={name} data-payload={XSS_PAYLOADS.findIndex((x) => x.name === name)}>
              <Gallery cases={casesFor(withOrigin(payload, location.origin))} />
            </div>
          ))}
        </>,
      );
      await settle(container, loads);
      // Every case rendered something (a renderer, a notice or a fallback): none blanked.
      for (const section of container.querySelectorAll('section[data-case]')) {
        expect(
          section.querySelector('.skein-display'),
          `${nameOf(section)}: ${section.getAttribute('aria-label')}`,
        ).not.toBeNull();
      }
      await assertClean(container);
    },
    60_000,
  );
});

// --- every text field of every event kind ------------------------------------

/** Fields that give an event its identity and place; everything else is agent-controlled text. */
const STRUCTURAL = new Set([
  'event',
  'uuid',
  'timestamp',
  'working_start',
  'span_id',
  'pending',
  'id',
  'parent_id',
  'type',
  'role',
]);

/** A copy of `value` with every string replaced by `p` and `p` added as a key to every object. */
function poison(value: unknown, p: string, key?: string): unknown {
  if (typeof value === 'string') return key !== undefined && STRUCTURAL.has(key) ? value : p;
  if (Array.isArray(value)) return value.map((v) => poison(v, p));
  if (typeof value === 'object' && value !== null) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = poison(v, p, k);
    out[p] = p;
    return out;
  }
  return value;
}

/** One event of every kind the generator produces, plus a display and an unknown kind. */
function sampleEvents(): Event[] {
  const byKind = new Map<string, Event>();
  for (const e of generateRun({ seed: 5, events: 600, errorRate: 0.2 })) {
    if (!byKind.has(e.event)) byKind.set(e.event, e);
  }
  const extra = [
    {
      event: 'display',
      uuid: 'd',
      timestamp: '2026-01-01T00:00:00Z',
      outputs: [{ data: { 'text/html': 'x', 'text/plain': 'x' } }],
    },
    { event: 'mystery', uuid: 'm', timestamp: '2026-01-01T00:00:00Z', note: 'x' },
  ] as unknown as Event[];
  return [...byKind.values(), ...extra];
}

describe(
  'XSS suite: every text field of every event, through describeEvent',
  { timeout: 60_000 },
  () => {
    const events = sampleEvents();

    it('covers many event kinds', () => {
      expect(new Set(events.map((e) => e.event)).size).toBeGreaterThanOrEqual(15);
    });

    it.each(BATCHES)(
      '%s',
      async (_names, batch) => {
        const runs = batch.map(({ name, payload }) => {
          const p = withOrigin(payload, location.origin);
          return { name, p, described: events.map((e) => describeEvent(poison(e, p) as Event)) };
        });
        const { container, loads } = renderWatched(
          <>
            {runs.map(({ name, described }) => (
              <div key={name} data-payload={XSS_PAYLOADS.findIndex((x) => x.name === name)}>
                {described.map((d, i) => (
                  <article key={i} aria-label={d.kind}>
                    <h2>{d.title}</h2>
                    <p>{d.subtitle}</p>
                    {d.bodies.map((b, j) => (
                      <Display key={j} bundle={b} />
                    ))}
                  </article>
                ))}
              </div>
            ))}
          </>,
        );
        await settle(container, loads);
        // The payload reached the screen (as text) — the fields were really exercised.
        for (const { name, p, described } of runs) {
          expect(
            described.some((d) => d.title.includes(p) || d.searchText.includes(p)),
            name,
          ).toBe(true);
        }
        await assertClean(container);
      },
      60_000,
    );
  },
);
