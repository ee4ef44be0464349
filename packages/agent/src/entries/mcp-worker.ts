// Worker-thread entry (built as dist/mcp-worker.js beside dist/cli.js): runs view_file calls one at a time for
// the MCP server's pool, so a file that takes the media pipeline a minute blocks this thread, not the server,
// and the pool can stop it with worker.terminate() (which also stops WASM mid-run).
import { parentPort, workerData } from 'node:worker_threads';
import { loadOptionalDecoders } from '../cli/load-optional-decoders.js';
import { systemFontsFor } from '../cli/system-fonts.js';
import { setDefaultFileSystem } from '../fs/default-file-system.js';
import { nodeFileSystem } from '../fs/node-file-system.js';
import { viewFile } from '../tools/view-file.js';
import { isViewRequest, isViewWorkerData, replyFromOutcome } from '../mcp/view-worker-protocol.js';
import type { ViewReply } from '../mcp/view-worker-protocol.js';

setDefaultFileSystem(nodeFileSystem);
// The same decoders as the CLI's main thread: a worker shares no modules, so HEIC needs registering here too.
const decodersLoaded = loadOptionalDecoders();
if (parentPort === null) throw new Error('mcp-worker runs as a worker thread of `glimpse mcp`, not on its own.');
const port = parentPort;
// The pool's fonts, sent once at start-up; a worker started without them draws with the bundled face only.
const { fonts, systemFonts } = isViewWorkerData(workerData) ? workerData : { fonts: [], systemFonts: false };
const fontOptions = { fonts, ...(systemFonts ? { fallbackFonts: systemFontsFor } : {}) };

port.on('message', (message: unknown) => {
  void answer(message);
});

async function answer(message: unknown): Promise<void> {
  if (!isViewRequest(message)) {
    port.postMessage({
      kind: 'failed',
      message: 'mcp-worker got a message that is not a view request',
    } satisfies ViewReply);
    return;
  }
  try {
    await decodersLoaded;
    const { reply, transfer } = replyFromOutcome(await viewFile(message.args, { ...message.options, ...fontOptions }));
    try {
      port.postMessage(reply, transfer);
    } catch {
      port.postMessage(reply); // a buffer that cannot move (a WASM memory's) is copied instead
    }
  } catch (error) {
    // viewFile turns every expected failure into a result; what reaches here is a bug, reported as the server would.
    const failure = error instanceof Error ? error : new Error(String(error));
    port.postMessage({ kind: 'failed', message: failure.message, stack: failure.stack } satisfies ViewReply);
  }
}
