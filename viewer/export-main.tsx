// The entry of the single-file export (`skein export`): the viewer page,
// built as one classic script (viewer/vite.export.config.ts) and inlined into
// an HTML file with the run embedded in it. It opens that run and nothing
// else reaches the network: the page's CSP allows no connection, and the
// loader runs on the page (a module Worker cannot start from `file://`).
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import '../src/styles.css';
import './viewer.css';
import { ViewerApp } from './app.js';
import { readEmbeddedRun } from './embedded-run.js';
import { inThreadPort } from './load/client.js';

const root = createRoot(document.getElementById('root')!);
try {
  const source = readEmbeddedRun(document);
  root.render(
    <StrictMode>
      <ViewerApp createPort={inThreadPort} open={source} />
    </StrictMode>,
  );
} catch (error) {
  const p = document.createElement('p');
  p.setAttribute('role', 'alert');
  p.textContent = `This exported run could not be read: ${error instanceof Error ? error.message : String(error)}`;
  document.getElementById('root')!.replaceChildren(p);
}
