/**
 * The `wasi_snapshot_preview1` imports a module built against wasi-libc links but glimpse never lets it use:
 * no files, no console, no exit. Each of those throws what `fail` makes, so a library reaching for the host
 * fails loudly instead of touching it. The environment is empty, so a library's getenv (libtiff's,
 * libc++'s) finds nothing and keeps its defaults. `memory` is read late: the instance does not exist yet.
 */
export function wasiStandIns(memory: () => WebAssembly.Memory | undefined, fail: () => Error) {
  const unavailable = () => {
    throw fail();
  };
  return {
    fd_close: unavailable,
    fd_fdstat_get: unavailable,
    fd_seek: unavailable,
    fd_write: unavailable,
    proc_exit: unavailable,
    environ_sizes_get: (count: number, size: number) => {
      const buffer = memory()?.buffer;
      const view = buffer && new DataView(buffer);
      view?.setUint32(count, 0, true);
      view?.setUint32(size, 0, true);
      return 0;
    },
    environ_get: () => 0,
  };
}
