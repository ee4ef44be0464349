// The pi adapter (`@glimpse/agent/pi`): needs only the types of `@mariozechner/pi-ai` and `@mariozechner/pi-agent-core`.
export { toPiContent, fromPiContent } from '../pi/pi-content.js';
export type { PiContent } from '../pi/pi-content.js';
export { fitPiContent } from '../pi/fit-pi-content.js';
export type { FitPiContentOptions } from '../pi/fit-pi-content.js';
export { toPiMessages, toPiAssistantMessage, fromPiMessage, GLIMPSE_ORIGIN } from '../pi/pi-messages.js';
export type { ToPiMessagesOptions } from '../pi/pi-messages.js';
export { fitPiTool, toPiTool } from '../pi/pi-tools.js';
export type { PiModelSource, PiToolOptions } from '../pi/pi-tools.js';
// The glimpse tool shape `toPiTool` takes, under the name this entry gave it first.
export type { Tool as GlimpseTool } from '../types.js';
export { fitPiToolResults, glimpsePiExtension } from '../pi/pi-hooks.js';
export type { PiExtensionApi } from '../pi/pi-hooks.js';
export { routeOfPiModel, presetForPiModel } from '../pi/pi-route.js';
export type { PiModelInfo } from '../pi/pi-route.js';
export { fitPiContext } from '../pi/fit-pi-context.js';
export type { FitPiContextOptions } from '../pi/fit-pi-context.js';
