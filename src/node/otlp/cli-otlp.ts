// `skein view --otlp` and `skein serve --otlp`: an OTLP/HTTP receiver on one
// port (4318, the OTLP/HTTP default) with its runs API; `view` adds the
// viewer page, which lists the runs as they arrive and follows one live.
// The command line's option parsing and listening are cli.ts's, lent here.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { SkeinErrorArgs } from '../../index.js';
import type { AllowedHosts } from '../server/host-check.js';
import { createOtlpRunRegistry } from '../../index.js';
import { createViewHandler } from '../view-server.js';
import { createOtlpHandler } from './node-handler.js';
import { isOtlpPath } from './receiver.js';
import { createOtlpRunsHandler } from './runs-handler.js';
import { createOtlpFileSpill, type OtlpFileSpill } from './spill.js';
import type { OtlpRedisPublication } from './redis-runs.js';

/** What cli.ts lends: its option readers, `listen` and its usage error. */
export interface OtlpCliTools {
  takeOption(args: string[], name: string): string | undefined;
  takeFlag(args: string[], name: string): boolean;
  takeNumber(args: string[], name: string, fallback: number, min: number): number;
  takePort(args: string[], fallback: number): number;
  takeHost(args: string[]): { host: string; allowedHosts: AllowedHosts };
  listen(server: ReturnType<typeof createServer>, port: number, host: string): Promise<string>;
  stopped(): Promise<void>;
  usage(...args: SkeinErrorArgs): Error;
  stdout(text: string): void;
  stderr(text: string): void;
  viewerDir?: string | null;
  openUrl(url: string): void;
}

/** What `view --help` and `serve --help` add. */
export const OTLP_HELP = {
  view: `
Usage: skein view --otlp [--port N] [--host H] [--allowed-host NAMES] [--open] [--spill DIR]
                        [--max-runs N] [--idle MS]

An OpenTelemetry (OTLP/HTTP) receiver with the viewer: agents export to it
(POST /v1/traces and /v1/logs; protobuf or JSON, gzip or not) and the page
lists their runs as they arrive, newest first; opening one follows it live.
A run is a trace, or the conversation (gen_ai.conversation.id) or session
(session.id) its spans name. Set OTEL_EXPORTER_OTLP_ENDPOINT to the printed
address in the agent's environment.

  --otlp             Receive OTLP; --port defaults to 4318
  --spill DIR        Also append every record to DIR/<run>.otlp.jsonl
  --max-runs N       Runs kept in memory (default 1000; ended ones leave first)
  --idle MS          A run quiet for this long has ended (default 30000)
`,
  serve: `
Usage: skein serve --otlp [--port N] [--host H] [--allowed-host NAMES] [--redis URL]
                         [--spill DIR] [--max-runs N] [--idle MS]

An OpenTelemetry (OTLP/HTTP) receiver: each run is served as a skein live
stream (/api/runs/<id>/events, for connectEventStream), the list of runs at
/api/runs (and /api/runs/watch, Server-Sent Events). --redis URL also
appends each run to the Redis stream skein:otlp:<run id> (skein/server/redis),
for other servers to serve. Options as for view --otlp.
`,
};

/**
 * Runs `view --otlp` (the page, the runs API, the receiver) or `serve
 * --otlp` (the runs API and the receiver, each run a live stream) until
 * stopped.
 */
export async function otlpCommand(
  mode: 'view' | 'serve',
  args: string[],
  tools: OtlpCliTools,
): Promise<number> {
  const port = tools.takePort(args, 4318);
  const { host, allowedHosts } = tools.takeHost(args);
  const open = mode === 'view' && tools.takeFlag(args, '--open');
  const spillDir = tools.takeOption(args, '--spill');
  const redisUrl = mode === 'serve' ? tools.takeOption(args, '--redis') : undefined;
  const maxRuns = tools.takeNumber(args, '--max-runs', 1000, 1);
  const idleMs = tools.takeNumber(args, '--idle', 30_000, 1);
  const unknown = args.find((a) => a.startsWith('-'));
  if (unknown !== undefined) throw tools.usage('cli_unknown_option', unknown);
  if (args.length > 0) throw tools.usage('cli_unexpected_argument', args[0]!);

  const files: OtlpFileSpill | undefined =
    spillDir !== undefined ? createOtlpFileSpill({ dir: spillDir }) : undefined;
  const registry = createOtlpRunRegistry({
    maxRuns,
    idleMs,
    ...(files ? { spill: files.spill } : {}),
  });
  const otlp = createOtlpHandler(registry, { allowedHosts });
  const runs = createOtlpRunsHandler(registry, { allowedHosts });
  const page =
    mode === 'view'
      ? createViewHandler({
          root: process.cwd(),
          ...(tools.viewerDir !== undefined ? { viewerDir: tools.viewerDir } : {}),
          allowedHosts,
        })
      : null;
  let redis: { publication: OtlpRedisPublication; quit(): Promise<unknown> } | undefined;
  if (redisUrl !== undefined) redis = await connectRedis(redisUrl, registry, tools);

  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const url = req.url ?? '/';
    if (isOtlpPath(url)) return otlp(req, res);
    if (runs.handles(url)) return runs(req, res);
    // The page's own API (folder listings) is not served here.
    if (page !== null && !url.startsWith('/api/')) return page(req, res);
    res.writeHead(404, { 'Content-Type': 'text/plain; charset=utf-8' });
    res.end('Not found\n');
  });
  let base: string;
  try {
    base = await tools.listen(server, port, host);
  } catch (e) {
    await otlp.close();
    await runs.close();
    page?.close();
    await redis?.publication.close();
    await redis?.quit();
    throw e;
  }
  tools.stdout(
    `skein: OTLP receiver at ${base} (POST /v1/traces, /v1/logs; protobuf or JSON)\n` +
      `skein: point your agent at it: OTEL_EXPORTER_OTLP_ENDPOINT=${base}\n`,
  );
  if (mode === 'view') {
    const url = `${base}/?runs=/api/runs`;
    tools.stdout(`skein: viewer at ${url} (runs appear as they arrive; Ctrl-C stops)\n`);
    if (open) tools.openUrl(url);
  } else {
    tools.stdout(
      `skein: runs at ${base}/api/runs (watch: /api/runs/watch); each run's live stream at ` +
        `${base}/api/runs/<id>/events${redisUrl !== undefined ? '; published to Redis' : ''} (Ctrl-C stops)\n`,
    );
  }
  if (files) tools.stdout(`skein: every record is also appended to ${files.dir}/\n`);
  await tools.stopped();
  await otlp.close();
  await runs.close();
  page?.close();
  await files?.close();
  if (redis) {
    await redis.publication.close();
    await redis.quit();
  }
  server.closeAllConnections();
  await new Promise<void>((done) => server.close(() => done()));
  return 0;
}

async function connectRedis(
  url: string,
  registry: ReturnType<typeof createOtlpRunRegistry>,
  tools: OtlpCliTools,
): Promise<{ publication: OtlpRedisPublication; quit(): Promise<unknown> }> {
  let createClient: (o: { url: string }) => {
    connect(): Promise<{
      sendCommand(a: string[]): Promise<unknown>;
      quit?(): Promise<unknown>;
      close?(): Promise<unknown>;
    }>;
  };
  try {
    ({ createClient } = (await import('redis')) as never);
  } catch {
    throw tools.usage('cli_bad_option', '--redis', 'needs the redis package (npm install redis)');
  }
  let client;
  try {
    client = await createClient({ url }).connect();
  } catch (e) {
    throw tools.usage('cli_bad_option', '--redis', `could not connect: ${(e as Error).message}`);
  }
  const { publishOtlpRuns } = await import('./redis-runs.js');
  const publication = publishOtlpRuns(registry, { client });
  return {
    publication,
    quit: () => (client.close?.() ?? client.quit?.() ?? Promise.resolve()).catch(() => {}),
  };
}
