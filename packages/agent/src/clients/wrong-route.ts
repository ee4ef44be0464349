import type { ProviderName } from '../capabilities.js';

/** The loop serialized the conversation for another wire API than the client speaks. */
export function wrongRoute(client: ProviderName, serialized: ProviderName): TypeError {
  return new TypeError(
    `The request was serialized for ${serialized}, but this client speaks ${client}: run the agent with provider: '${client}'.`,
  );
}
