import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { checkJsonRpc, type JsonRpcErrorResponse } from './check-json-rpc.js';

/** A line longer than this is answered with -32600 and skipped, so one huge message cannot grow memory without end. */
export const MAX_LINE_BYTES = 64 * 1024 * 1024;

/**
 * MCP over stdio, one JSON-RPC message per line, like the SDK's `StdioServerTransport`, except that malformed
 * input is answered instead of dropped: the SDK's transport reports a bad line to `onerror` only, so the client
 * waits for a reply that never comes. Each line goes through `checkJsonRpc` first.
 */
export class StdioJsonRpcTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private pending: Buffer[] = [];
  private pendingBytes = 0;
  private skipping = false;
  private closed = false;

  constructor(
    private readonly input: Readable = process.stdin,
    private readonly output: Writable = process.stdout,
  ) {}

  private readonly onData = (chunk: Buffer | string) => {
    let data = typeof chunk === 'string' ? Buffer.from(chunk) : chunk;
    for (let newline = data.indexOf(0x0a); newline !== -1; newline = data.indexOf(0x0a)) {
      const tail = data.subarray(0, newline);
      data = data.subarray(newline + 1);
      const line = Buffer.concat([...this.pending, tail])
        .toString('utf8')
        .replace(/\r$/, '');
      const skipped = this.skipping;
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = false;
      if (!skipped && line.trim() !== '') this.receive(line);
    }
    if (data.length === 0 || this.skipping) return;
    this.pending.push(data);
    this.pendingBytes += data.length;
    if (this.pendingBytes > MAX_LINE_BYTES) {
      this.pending = [];
      this.pendingBytes = 0;
      this.skipping = true;
      void this.write({
        jsonrpc: '2.0',
        id: null,
        error: { code: -32600, message: `Invalid Request: a message longer than ${MAX_LINE_BYTES} bytes was skipped.` },
      });
    }
  };

  private readonly onError = (error: Error) => this.onerror?.(error);

  private receive(line: string): void {
    const checked = checkJsonRpc(line);
    if ('reply' in checked) void this.write(checked.reply);
    else this.onmessage?.(checked.message);
  }

  async start(): Promise<void> {
    this.input.on('data', this.onData);
    this.input.on('error', this.onError);
  }

  send(message: JSONRPCMessage): Promise<void> {
    return this.write(message);
  }

  private write(message: JSONRPCMessage | JsonRpcErrorResponse): Promise<void> {
    return new Promise((resolve) => {
      if (this.output.write(`${JSON.stringify(message)}\n`)) resolve();
      else this.output.once('drain', resolve);
    });
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.input.off('data', this.onData);
    this.input.off('error', this.onError);
    if (this.input.listenerCount('data') === 0) this.input.pause();
    this.onclose?.();
  }
}
