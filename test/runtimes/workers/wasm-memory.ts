// Test-only instrumentation for the Workers suite: sees every WASM memory that codec instances create
// or import, by wrapping WebAssembly.Instance and WebAssembly.instantiate before any codec starts.
// Memories only grow, so a memory's final size is its peak. Per request it reports:
// - held: bytes of all memories still alive when the response is made (what the isolate keeps);
// - created: bytes of the memories created during the request, kept alive until it ends. Instances that
//   run one after another never all exist at once, so the request's true peak lies between the largest
//   single memory and held-before + created.

const live: WeakRef<WebAssembly.Memory>[] = [];
const seen = new WeakSet<WebAssembly.Memory>();
let createdThisRequest: WebAssembly.Memory[] = [];

function remember(value: unknown): void {
  if (value instanceof WebAssembly.Memory && !seen.has(value)) {
    seen.add(value);
    live.push(new WeakRef(value));
    createdThisRequest.push(value);
  }
}

function rememberInstance(instance: WebAssembly.Instance, imports: WebAssembly.Imports | undefined): void {
  Object.values(instance.exports).forEach(remember);
  for (const namespace of Object.values(imports ?? {})) Object.values(namespace).forEach(remember);
}

export interface WasmMemoryUse {
  held: number;
  created: number;
  largest: number;
}

export interface WasmMemoryTracker {
  beginRequest(): void;
  measure(): WasmMemoryUse;
}

/** Installs the wrappers (once per isolate). */
export function trackWasmMemory(): WasmMemoryTracker {
  const OriginalInstance = WebAssembly.Instance;
  // A Proxy, not a subclass: glue code checks `result instanceof WebAssembly.Instance` on instances
  // that WebAssembly.instantiate made, which a subclass would fail.
  WebAssembly.Instance = new Proxy(OriginalInstance, {
    construct(target, args: [WebAssembly.Module, WebAssembly.Imports?], newTarget) {
      const instance: unknown = Reflect.construct(target, args, newTarget);
      if (!(instance instanceof OriginalInstance)) throw new TypeError('WebAssembly.Instance made no instance');
      rememberInstance(instance, args[1]);
      return instance;
    },
  });

  const originalInstantiate = WebAssembly.instantiate;
  Object.defineProperty(WebAssembly, 'instantiate', {
    configurable: true,
    writable: true,
    value: async (source: unknown, imports?: WebAssembly.Imports): Promise<unknown> => {
      const result: unknown = await Reflect.apply(originalInstantiate, WebAssembly, [source, imports]);
      if (result instanceof OriginalInstance) rememberInstance(result, imports);
      else if (typeof result === 'object' && result !== null && 'instance' in result && result.instance instanceof OriginalInstance) {
        rememberInstance(result.instance, imports);
      }
      return result;
    },
  });

  return {
    beginRequest() {
      createdThisRequest = [];
    },
    measure() {
      const sizes = live.map((reference) => reference.deref()?.buffer.byteLength ?? 0);
      const created = createdThisRequest.map((memory) => memory.buffer.byteLength);
      return {
        held: sizes.reduce((total, size) => total + size, 0),
        created: created.reduce((total, size) => total + size, 0),
        largest: Math.max(0, ...sizes, ...created),
      };
    },
  };
}
