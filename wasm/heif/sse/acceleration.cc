// libde265's acceleration table for wasm32 (its x86/sse.cc, which picks by cpuid, is not built): the
// SSE4.1 inverse transforms of x86/sse-dct.cc, compiled through SIMDe to WASM SIMD128, replace the scalar
// fallbacks (fallback-dct.cc multiplies by the whole DCT matrix; these are butterflies). Each gives the
// same pixels as its fallback, for any coefficients. Upstream keeps the 4×4 ones off on x86 as slower
// than scalar; in WASM they are faster. Every runtime glimpse supports has SIMD128 (every module is built
// with -msimd128), so nothing is detected. transform_skip_8 is not set: libde265 no longer calls it.
// Motion compensation (x86/sse-motion.cc) is not built: HEIF image items are single intra-coded pictures.
#include "libde265/acceleration.h"
#include "x86/sse-dct.h"
#include "x86/sse.h"

void init_acceleration_functions_sse(struct acceleration_functions *accel) {
  accel->transform_4x4_dst_add_8 = ff_hevc_transform_4x4_luma_add_8_sse4;
  accel->transform_add_8[0] = ff_hevc_transform_4x4_add_8_sse4;
  accel->transform_add_8[1] = ff_hevc_transform_8x8_add_8_sse4;
  accel->transform_add_8[2] = ff_hevc_transform_16x16_add_8_sse4;
  accel->transform_add_8[3] = ff_hevc_transform_32x32_add_8_sse4;
}
