// Test-only instrumentation for the Workers suite: remembers every WASM memory that codec instances
// create or import, so the worker can report how much WASM memory the isolate holds after each request.
// Works by wrapping WebAssembly.Instance and WebAssembly.instantiate before any codec starts.

const memories: WeakRef<WebAssembly.Memory>[] = [];
const seen = new WeakSet<WebAssembly.Memory>();

function remember(value: unknown): void {
  if (value instanceof WebAssembly.Memory && !seen.has(value)) {
    seen.add(value);
    memories.push(new WeakRef(value));
  }
}

function rememberInstance(instance: WebAssembly.Instance, imports: WebAssembly.Imports | undefined): void {
  Object.values(instance.exports).forEach(remember);
  for (const namespace of Object.values(imports ?? {})) Object.values(namespace).forEach(remember);
}

/** Installs the wrappers once; returns a function giving the bytes of all live WASM memories now. */
export function trackWasmMemory(): () => number {
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

  return () => memories.reduce((total, reference) => total + (reference.deref()?.buffer.byteLength ?? 0), 0);
}
