// <smmintrin.h> for wasm32: libde265's x86 transforms (x86/sse-dct.cc) get the SSE4.1 intrinsics from SIMDe
// (Debian's libsimde-dev), which implements them with WASM SIMD128 instructions.
#pragma once
#define SIMDE_ENABLE_NATIVE_ALIASES
#include <simde/x86/sse4.1.h>
