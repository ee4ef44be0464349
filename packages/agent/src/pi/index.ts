// The pi adapter (`@glimpse/agent/pi`): needs only the types of `@mariozechner/pi-ai` and `@mariozechner/pi-agent-core`.
export { toPiContent, fromPiContent } from './pi-content.js';
export type { PiContent } from './pi-content.js';
export { fitPiContent } from './fit-pi-content.js';
export type { FitPiContentOptions } from './fit-pi-content.js';
export { toPiMessages, toPiAssistantMessage, fromPiMessage, GLIMPSE_ORIGIN } from './pi-messages.js';
export type { ToPiMessagesOptions } from './pi-messages.js';
export { fitPiTool, toPiTool } from './pi-tools.js';
export type { GlimpseTool, PiModelSource, PiToolOptions } from './pi-tools.js';
export { fitPiToolResults, glimpsePiExtension } from './pi-hooks.js';
export type { PiExtensionApi } from './pi-hooks.js';
export { routeOfPiModel, presetForPiModel } from './pi-route.js';
export type { PiModelInfo } from './pi-route.js';
