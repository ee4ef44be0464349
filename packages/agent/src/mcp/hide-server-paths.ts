import type { PathOps } from '../fs/file-system.js';

/** The root itself as a client sees it: a phrase a model reads as a place, where a bare "." read as a typo. */
export const ROOT_NAME = "the server's root directory";

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A text filter for what an MCP client sees: every mention of the served root's absolute path becomes a path
 * relative to it (`/srv/data/docs/a.png` → `docs/a.png`, the root itself → "the server's root directory"). Tools name the files they read by
 * their full path, which a local agent may see but a remote client must not.
 */
export function hideServerPaths(paths: Pick<PathOps, 'sep'>, root: string): (text: string) => string {
  const bare = root.endsWith(paths.sep) ? root.slice(0, -paths.sep.length) : root;
  if (bare === '') return (text) => text; // a server of "/" has no private prefix to hide
  // The root followed by a separator, or standing alone (not the start of a longer name like /srv/database).
  const mention = new RegExp(`${escapeRegExp(bare)}(?:${escapeRegExp(paths.sep)}|(?![\\w.-]))`, 'g');
  return (text) => text.replace(mention, (found) => (found === bare ? ROOT_NAME : ''));
}
