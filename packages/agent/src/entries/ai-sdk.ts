// The Vercel AI SDK adapter (`@glimpse/agent/ai-sdk`): needs only the types of `@ai-sdk/provider` at build time.
export { fitMediaMiddleware } from '../ai-sdk/fit-media-middleware.js';
export type { FitMediaMiddlewareOptions, FitMediaMiddlewareV3 } from '../ai-sdk/fit-media-middleware.js';
export type { FitMediaWarning } from '../ai-sdk/fit-media-warning.js';
export { aiSdkRoute, routeOfProviderId } from '../ai-sdk/ai-sdk-route.js';
export type { AiSdkRoute, AiSdkRouteQuery } from '../ai-sdk/ai-sdk-route.js';
export { toAiSdkModelOutput } from '../ai-sdk/to-ai-sdk-model-output.js';
export type {
  AiSdk6ContentItem,
  AiSdk6ModelOutput,
  AiSdkContentItem,
  AiSdkModelOutput,
} from '../ai-sdk/to-ai-sdk-model-output.js';
export { AI_SDK_VERSION_ERROR_CODES, AiSdkVersionError, isAiSdkVersionError } from '../ai-sdk/ai-sdk-version-error.js';
