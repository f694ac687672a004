// Makes `react` and `react-dom` mean the React 18.3 copies installed as
// `react-18` / `react-dom-18` (package.json devDependencies), for ESM imports
// (a resolve hook) and for the CommonJS requires inside React itself.
import { register } from 'node:module';
import Module from 'node:module';

const map = (specifier) => {
  const m = /^(react-dom|react)(\/.*)?$/.exec(specifier);
  return m === null ? null : `${m[1]}-18${m[2] ?? ''}`;
};

const original = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  return original.call(this, map(request) ?? request, ...rest);
};

register(
  `data:text/javascript,${encodeURIComponent(`
    const map = ${map.toString()};
    export async function resolve(specifier, context, next) {
      return next(map(specifier) ?? specifier, context);
    }`)}`,
  import.meta.url,
);
