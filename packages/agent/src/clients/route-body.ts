import type { ProviderName } from '../route/capabilities.js';
import type { ModelRequest } from '../loop/model-client.js';
import type { SerializedRequest } from '../providers/request-bodies.js';

type BodyOf<P extends ProviderName> = SerializedRequest<P>['body'];

/**
 * The serializer's body for the wire API this client speaks. A request serialized for another route is the
 * caller's mistake (the loop and the client disagree), so it is a TypeError, not a model error to retry.
 */
export function routeBody<P extends ProviderName>(client: P, request: ModelRequest): BodyOf<P> {
  const { serialized } = request;
  if (serialized.provider !== client)
    throw new TypeError(
      `The request was serialized for ${serialized.provider}, but this client speaks ${client}: run the agent with provider: '${client}'.`,
    );
  return serialized.body as BodyOf<P>;
}
