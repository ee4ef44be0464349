// Test-only instrumentation for the Workers suite: sees every WASM memory that codec instances create
// or import, by wrapping WebAssembly.Instance and WebAssembly.instantiate before any codec starts.
// Memories only grow, so a memory's final size is its peak. Per request it reports:
// - held: bytes of all memories still alive when the response is made (what the isolate keeps);
// - created: bytes of the memories created during the request, kept alive until it ends. Instances that
//   run one after another never all exist at once, so the request's true peak lies between the largest
//   single memory and held-before + created.

const live: WeakRef<WebAssembly.Memory>[] = [];
const owners = new WeakMap<WebAssembly.Memory, string>();
let createdThisRequest: WebAssembly.Memory[] = [];

/** Names a module by its export list, which the Node side maps back to a .wasm file. */
export function moduleSignature(module: WebAssembly.Module): string {
  const names = WebAssembly.Module.exports(module).map((entry) => entry.name);
  return `${names.length}:${names.slice(0, 6).join(',')}`;
}

function remember(value: unknown, owner: string): void {
  if (value instanceof WebAssembly.Memory && !owners.has(value)) {
    owners.set(value, owner);
    live.push(new WeakRef(value));
    createdThisRequest.push(value);
  }
}

function rememberInstance(
  module: WebAssembly.Module,
  instance: WebAssembly.Instance,
  imports: WebAssembly.Imports | undefined,
): void {
  const owner = moduleSignature(module);
  for (const value of Object.values(instance.exports)) remember(value, owner);
  for (const namespace of Object.values(imports ?? {}))
    for (const value of Object.values(namespace)) remember(value, owner);
}

export interface WasmMemoryUse {
  held: number;
  created: number;
  largest: number;
  /** Live memories after the request: module signature → bytes. */
  byModule: Record<string, number>;
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
      rememberInstance(args[0], instance, args[1]);
      return instance;
    },
  });

  const originalInstantiate = WebAssembly.instantiate;
  Object.defineProperty(WebAssembly, 'instantiate', {
    configurable: true,
    writable: true,
    value: async (source: unknown, imports?: WebAssembly.Imports): Promise<unknown> => {
      const result: unknown = await Reflect.apply(originalInstantiate, WebAssembly, [source, imports]);
      if (result instanceof OriginalInstance && source instanceof WebAssembly.Module)
        rememberInstance(source, result, imports);
      else if (
        typeof result === 'object' &&
        result !== null &&
        'instance' in result &&
        result.instance instanceof OriginalInstance
      ) {
        if ('module' in result && result.module instanceof WebAssembly.Module)
          rememberInstance(result.module, result.instance, imports);
      }
      return result;
    },
  });

  return {
    beginRequest() {
      createdThisRequest = [];
    },
    measure() {
      const alive = live.flatMap((reference) => reference.deref() ?? []);
      const byModule: Record<string, number> = {};
      for (const memory of alive) {
        const owner = owners.get(memory) ?? 'unknown';
        byModule[owner] = (byModule[owner] ?? 0) + memory.buffer.byteLength;
      }
      const created = createdThisRequest.map((memory) => memory.buffer.byteLength);
      const sizes = alive.map((memory) => memory.buffer.byteLength);
      return {
        held: sizes.reduce((total, size) => total + size, 0),
        created: created.reduce((total, size) => total + size, 0),
        largest: Math.max(0, ...sizes, ...created),
        byModule,
      };
    },
  };
}
