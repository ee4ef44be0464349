import type { ProviderName } from '../route/capabilities.js';
import { ModelClientError } from './model-client-error.js';

/**
 * Imports a provider SDK on first use. The SDKs are optional peer dependencies of @glimpse/agent: an app installs
 * the ones it talks to, and a bundle for a Worker or a browser never pulls in the others.
 */
export async function loadSdk<T>(provider: ProviderName, packageName: string, load: () => Promise<T>): Promise<T> {
  try {
    return await load();
  } catch (error) {
    throw new ModelClientError(
      'E_SDK_MISSING',
      `The ${provider} client needs ${packageName}: npm install ${packageName}`,
      { provider, cause: error },
    );
  }
}
