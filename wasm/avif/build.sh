#!/usr/bin/env bash
# output: packages/media/wasm/avif.wasm
# decode.c over dav1d 1.0.0 with Debian's patches: AV1 image items decoded one at a time (the host reads
# the AVIF container), converted to 8-bit RGBA rows, optionally shrunk on the way. Plain C (no assembly),
# 8- and 16-bit templates (8/10/12-bit AVIF), one thread. BSD-2-Clause (dav1d).
source "$(dirname "$0")/../build-lib.sh"
dav1d="${DAV1D_SRC:-$(source_tree dav1d)}"
here="$ROOT/wasm/avif"

mkdir -p "$WORK/dav1d"
sed 's/@VCS_TAG@/1.0.0/' "$dav1d/include/vcs_version.h.in" > "$WORK/vcs_version.h"
sed -e 's/@DAV1D_API_VERSION_MAJOR@/6/' -e 's/@DAV1D_API_VERSION_MINOR@/6/' -e 's/@DAV1D_API_VERSION_PATCH@/0/' \
  "$dav1d/include/dav1d/version.h.in" > "$WORK/dav1d/version.h"

library=()
for f in cdf cpu data decode dequant_tables getbits intra_edge itx_1d lf_mask log mem msac obu picture qm ref \
  refmvs scan tables warpmv wedge lib thread_task; do
  library+=("$dav1d/src/$f.c")
done
# Compiled once per pixel width: 8-bit samples, and 16-bit ones that hold 10- and 12-bit images.
templates=()
for f in cdef_apply cdef fg_apply filmgrain ipred_prepare ipred itx lf_apply loopfilter looprestoration lr_apply mc recon; do
  templates+=("$dav1d/src/${f}_tmpl.c")
done

# -I $here first: config.h and the pthread.h stand-in. -ftls-model=local-exec: errno is thread-local in wasi-libc.
flags="${WASI_FLAGS[*]} -ftls-model=local-exec -O2 -DNDEBUG -D_POSIX_C_SOURCE=200112L -ffile-prefix-map=$dav1d=dav1d
  -I $here -I $WORK -I $WORK/dav1d -I $dav1d -I $dav1d/include -I $dav1d/include/dav1d"
compile "$WORK/own" "$flags ${STRICT[*]}" "$here/decode.c"
compile_library "$WORK/lib" "$flags" "${library[@]}"
compile_library "$WORK/tmpl8" "$flags -DBITDEPTH=8" "${templates[@]}"
compile_library "$WORK/tmpl16" "$flags -DBITDEPTH=16" "${templates[@]}"
# --import-memory: the host lends the instance a memory of its pool, shared with the other decoders so
# linked (packages/media/src/runtime/memory-pool.ts), instead of each module keeping its own.
link "$OUT/avif.wasm" "-O2 -Wl,-z,stack-size=1048576 -Wl,--import-memory" "$WORK/own" "$WORK/lib" "$WORK/tmpl8" "$WORK/tmpl16"
