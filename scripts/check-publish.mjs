// `npm publish` runs this first (prepublishOnly): refuse while package.json
// still holds the placeholder URLs (skein has no public repository yet; the
// placeholders use the reserved `.invalid` domain so they can never resolve),
// and while the README's image and linked docs do not point at this version's copies.
import { readFileSync } from 'node:fs';

const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8'));
const readme = readFileSync(new URL('../README.md', import.meta.url), 'utf8');
const problems = [];
for (const [field, value] of [
  ['repository', pkg.repository?.url],
  ['bugs', pkg.bugs?.url],
  ['homepage', pkg.homepage],
]) {
  if (!value || /\.invalid\b/.test(value)) problems.push(`${field} is a placeholder: ${value}`);
}
const shipped = `https://cdn.jsdelivr.net/npm/${pkg.name}@${pkg.version}/`;
for (const [, url] of readme.matchAll(/!\[[^\]]*\]\(([^)\s]+)/g)) {
  if (!url.startsWith(shipped)) problems.push(`README image ${url} is not under ${shipped}`);
}
// The docs the README links: this version's copies too, never another's.
for (const [, url] of readme.matchAll(/\]\((https:\/\/cdn\.jsdelivr\.net\/npm\/[^)\s]+)\)/g)) {
  if (!url.startsWith(shipped)) problems.push(`README link ${url} is not under ${shipped}`);
}
if (problems.length) {
  process.stderr.write(`Not publishing:\n  ${problems.join('\n  ')}\n`);
  process.exit(1);
}
