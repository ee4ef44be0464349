// `@glimpse/agent/tools`: the file tools one by one (`createFileTools` in `@glimpse/agent` makes both), their
// definitions, the view that tells a host more than parts, and the capability gate they share.
export { createReadTool, READ_TOOL_DEFINITION } from '../tools/read.js';
export { createViewFileTool, viewFile, VIEW_FILE_TOOL_DEFINITION } from '../tools/view-file.js';
export type { ViewFileOutcome } from '../tools/view-file.js';
export { currentCapabilities, offersViewFile, requireImageInput } from '../tools/capability-gate.js';
export type { CapabilityAnswer } from '../tools/capability-gate.js';
