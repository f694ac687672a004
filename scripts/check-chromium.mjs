// `npm test` runs this first: without Chromium the browser projects cannot run,
// and we fail loudly instead of skipping them.
import { chromiumFound, installHint } from './chromium.mjs';

if (!chromiumFound()) {
  process.stderr.write(`\n${installHint}\n\n`);
  process.exit(1);
}
