// A Vitest browser command (runs in Node): renders test/ssr/app.tsx on a real
// server — a Node process with no window — with React 19 or 18.3.
import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

export interface ServerRender {
  html: string;
  react: string;
  logs: string[];
}

const cache = new Map<string, Promise<ServerRender>>();

/** The server's HTML does not depend on the window: one render per React and layout. */
export function renderOnServer(
  _context: unknown,
  react: '18' | '19',
  layout: 'box' | 'flow',
): Promise<ServerRender> {
  const key = `${react}:${layout}`;
  let render = cache.get(key);
  if (render === undefined) {
    render = spawnRender(react, layout);
    cache.set(key, render);
  }
  return render;
}

function spawnRender(react: '18' | '19', layout: 'box' | 'flow'): Promise<ServerRender> {
  const args = ['--import', 'tsx'];
  if (react === '18') args.push('--import', './test/ssr/react18-hooks.mjs');
  args.push('test/ssr/render.tsx', layout);
  return new Promise((resolve, reject) => {
    execFile(
      process.execPath,
      args,
      { cwd: root, env: { ...process.env, NODE_ENV: 'development' }, maxBuffer: 64 << 20 },
      (error, stdout, stderr) => {
        if (error !== null) reject(new Error(`${error.message}\n${stderr}`));
        else resolve(JSON.parse(stdout) as ServerRender);
      },
    );
  });
}
