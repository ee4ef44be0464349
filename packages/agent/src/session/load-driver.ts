import { SessionError } from './session-error.js';

/**
 * Imports an optional database driver when a store first needs it, so users who never name that store need
 * not install it. A missing package is `E_SESSION_STORE` naming the install command.
 */
export async function loadDriver<Module>(name: string, version: string, load: () => Promise<Module>): Promise<Module> {
  try {
    return await load();
  } catch (cause) {
    const missing =
      cause instanceof Error &&
      'code' in cause &&
      (cause.code === 'ERR_MODULE_NOT_FOUND' || cause.code === 'MODULE_NOT_FOUND') &&
      cause.message.includes(name);
    if (!missing) throw cause;
    throw new SessionError(
      'E_SESSION_STORE',
      `this session store needs the optional package ${name}, which is not installed: npm install ${name}@${version}`,
      undefined,
      { cause },
    );
  }
}
