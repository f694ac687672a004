// The licence notices of code bundled from other packages: one helper for
// dist/THIRD-PARTY-LICENSES.md (scripts/build.mjs, from the library's source
// maps) and dist/viewer/THIRD-PARTY-LICENSES.md (viewer/vite.config.ts, from
// the modules of the viewer's chunks: React, react-dom, scheduler, …).
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Adds the package of each bundled file under `node_modules` to `packages`
 * (name → the package's folder). Paths use `/` or the platform's separator.
 */
export function addBundledPackages(packages, paths) {
  for (const raw of paths) {
    const path = raw.replaceAll('\\', '/');
    const m = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(path);
    if (m) packages.set(m[1], path.slice(0, m.index + m[0].length));
  }
  return packages;
}

/** A markdown page with each package's name, version, licence and LICENSE text, by name. */
export function licenseNotices(packages, title, intro) {
  const sections = [...packages.keys()].sort().map((name) => {
    const dir = packages.get(name);
    const meta = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8'));
    const licenceFile = readdirSync(dir).find((f) => /^licen[cs]e/i.test(f));
    if (!licenceFile) throw new Error(`${name}: no LICENSE file to include`);
    const text = readFileSync(join(dir, licenceFile), 'utf8').trim();
    return `## ${name}@${meta.version} (${meta.license})\n\n\`\`\`text\n${text}\n\`\`\`\n`;
  });
  return `# ${title}\n\n${intro}\n\n${sections.join('\n')}`;
}
