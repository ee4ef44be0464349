// `@glimpse/agent/mcp`: glimpse's MCP server (what `glimpse mcp` runs), for connecting to a transport of
// your own. Node only (worker threads, the local disk by default); kept apart so the MCP SDK's server side
// loads only for those who use it.
import { setDefaultFileSystem } from '../fs/default-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';

setDefaultFileSystem(nodeFileSystem);

export { createGlimpseMcpServer, GLIMPSE_MCP_SERVER_INFO } from '../mcp/glimpse-mcp-server.js';
export type { GlimpseMcpServerOptions } from '../mcp/glimpse-mcp-server.js';
export { createViewWorkerPool, DEFAULT_VIEW_TIMEOUT_MS } from '../mcp/view-worker-pool.js';
export type { ViewFileRunner, ViewWorkerPool, ViewWorkerPoolOptions } from '../mcp/view-worker-pool.js';
export { serveMcpOverHttp } from '../mcp/serve-mcp-http.js';
export type { McpHttpEndpoint } from '../mcp/serve-mcp-http.js';
