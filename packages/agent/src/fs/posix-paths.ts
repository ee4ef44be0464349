import type { PathOps } from './file-system.js';

/** Splits, drops `.` and empty segments, and applies `..` (never above the root). */
function normalizeSegments(path: string): string[] {
  const out: string[] = [];
  for (const segment of path.split('/')) {
    if (segment === '' || segment === '.') continue;
    if (segment === '..') out.pop();
    else out.push(segment);
  }
  return out;
}

/** POSIX path arithmetic for the memory and Deno file systems (no `node:path`, so it runs in browsers and Workers). */
export const posixPaths: PathOps = {
  sep: '/',
  isAbsolute: (path) => path.startsWith('/'),
  resolve(...paths) {
    let joined = '';
    for (const path of paths) joined = path.startsWith('/') ? path : `${joined}/${path}`;
    return `/${normalizeSegments(joined).join('/')}`;
  },
  relative(from, to) {
    const a = normalizeSegments(from);
    const b = normalizeSegments(to);
    let common = 0;
    while (common < a.length && common < b.length && a[common] === b[common]) common++;
    return [...a.slice(common).map(() => '..'), ...b.slice(common)].join('/');
  },
  dirname(path) {
    const segments = normalizeSegments(path);
    segments.pop();
    return (path.startsWith('/') ? '/' : '') + segments.join('/') || '.';
  },
  basename: (path) => normalizeSegments(path).at(-1) ?? '',
  extname(path) {
    const name = normalizeSegments(path).at(-1) ?? '';
    const dot = name.lastIndexOf('.');
    return dot > 0 ? name.slice(dot) : '';
  },
  join: (...paths) => {
    const joined = paths.filter((p) => p !== '').join('/');
    return (joined.startsWith('/') ? '/' : '') + normalizeSegments(joined).join('/') || '.';
  },
};
