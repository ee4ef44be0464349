import { ROUTES, type PresetName, type Route } from '@glimpse/media';
import {
  capabilitiesFor,
  type CapabilitiesQuery,
  type CapabilityRule,
  type ModelCapabilities,
  type ProviderName,
} from './capabilities.js';

/**
 * One model on one wire API, decided once: what the serializers, `fitConversation`, `toolResultFrom`, the token
 * estimates and the adapters need to know about where a request goes. Resolve it with `resolveRoute` where the
 * route is named (the agent loop, a CLI command, an adapter's call) and pass it on; nothing downstream looks the
 * model up again.
 */
export interface ModelRoute {
  /** The wire API. */
  readonly provider: ProviderName;
  /** The model id as the provider names it; absent means "the route's default model". */
  readonly model?: string;
  /** What the model takes on this route: the capability registry's answer, with the app's rules and overrides. */
  readonly capabilities: ModelCapabilities;
  /** The `@glimpse/media` preset attachments are fitted to (`capabilities.preset`). */
  readonly preset: PresetName;
  /** The wire API's media facts from `@glimpse/media`'s route table: image types it takes as they are, PDF input, count limits. */
  readonly media: Pick<Route, 'imageTypes' | 'pdfInput' | 'limits'>;
}

/** The route of a model: its capabilities (see `capabilitiesFor`) and the wire API's media facts. */
export function resolveRoute(query: CapabilitiesQuery): ModelRoute {
  const capabilities = capabilitiesFor(query);
  const { imageTypes, pdfInput, limits } = ROUTES[query.provider];
  return {
    provider: query.provider,
    ...(query.model !== undefined && { model: query.model }),
    capabilities,
    preset: capabilities.preset,
    media: { imageTypes, pdfInput, limits },
  };
}

/**
 * How the serializers, `fitConversation` and the token estimates are told the model: by its id (with the app's
 * rules and overrides), or by a route resolved already, which wins.
 */
export interface RouteOptions {
  /** The model id; picks capabilities (and, for Gemini, the tool-result shape). */
  model?: string;
  /** App capability rules, tried before the built-in registry. */
  rules?: readonly CapabilityRule[];
  /** Applied over the registry's answer; `{ imageInput: false, pdfInput: false }` makes any model text-only. */
  capabilities?: Partial<ModelCapabilities>;
  /** The route resolved already (`resolveRoute`), as the agent loop passes its own: `model`, `rules` and `capabilities` are then not read. */
  route?: ModelRoute;
}

/**
 * The route for `provider` that `options` name. A route resolved for another wire API is the caller's mistake
 * (the request would carry media where that API refuses them), so it is a TypeError.
 */
export function routeFor(provider: ProviderName, options: RouteOptions): ModelRoute {
  const { route } = options;
  if (route === undefined)
    return resolveRoute({
      provider,
      ...(options.model !== undefined && { model: options.model }),
      ...(options.rules !== undefined && { rules: options.rules }),
      ...(options.capabilities !== undefined && { overrides: options.capabilities }),
    });
  if (route.provider !== provider)
    throw new TypeError(`The route was resolved for ${route.provider}, not ${provider}: resolve it for ${provider}.`);
  return route;
}

/** How `toolResultFrom`, `wrapMcpTools` and the pi adapter are told the limits: a preset, a route, or a route's name and model. */
export interface PresetOptions {
  /** The `@glimpse/media` limits; wins over the others. */
  preset?: PresetName;
  /** The route resolved already: its preset. */
  route?: ModelRoute;
  /** The route's name (with `model`): its preset from the capability registry. */
  provider?: ProviderName;
  model?: string;
}

/** The preset those options name: `preset`, else the route's, else the registry's for `provider` and `model`, else `portable`. */
export function presetOf(options: PresetOptions): PresetName {
  if (options.preset !== undefined) return options.preset;
  if (options.route !== undefined) return options.route.preset;
  if (options.provider === undefined) return 'portable';
  return resolveRoute({
    provider: options.provider,
    ...(options.model !== undefined && { model: options.model }),
  }).preset;
}
