// glimpse's WebP decoder: a thin layer over libwebp's still-image decoder (Debian's libwebp 1.2.4 with its
// security patches), built for wasm32 without libwebp's x86/ARM SIMD.
//
// decode_rgba can decode straight to a smaller size: libwebp rescales each macroblock row as it is
// decoded (area averaging, alpha premultiplied while it averages), so a 12 MP WebP meant for 2000 px
// never exists at full size in RGBA. Animated files are not handled here (the caller extracts frame 1).

#include <stdint.h>
#include <stdlib.h>
#include "src/webp/decode.h"

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }

// Decodes to straight-alpha RGBA8; width/height 0 keep the stored size. info[0..2] = width, height,
// has_alpha; info[3] = libwebp's VP8StatusCode (0 on success, when the result is non-null).
__attribute__((export_name("decode_rgba"))) uint8_t *decode_rgba(
    const uint8_t *data, uint32_t size, uint32_t width, uint32_t height, uint32_t *info) {
  WebPDecoderConfig config;
  info[3] = 0;
  if (!WebPInitDecoderConfig(&config)) {
    info[3] = VP8_STATUS_INVALID_PARAM;
    return NULL;
  }
  VP8StatusCode status = WebPGetFeatures(data, size, &config.input);
  if (status != VP8_STATUS_OK) {
    info[3] = status;
    return NULL;
  }
  config.output.colorspace = MODE_RGBA;
  if (width > 0 && height > 0 && (width != (uint32_t)config.input.width || height != (uint32_t)config.input.height)) {
    config.options.use_scaling = 1;
    config.options.scaled_width = (int)width;
    config.options.scaled_height = (int)height;
  }
  status = WebPDecode(data, size, &config);
  if (status != VP8_STATUS_OK) {
    WebPFreeDecBuffer(&config.output);
    info[3] = status;
    return NULL;
  }
  info[0] = (uint32_t)config.output.width;
  info[1] = (uint32_t)config.output.height;
  info[2] = (uint32_t)config.input.has_alpha;
  // The buffer was allocated by libwebp (external_memory == 0) and is handed over to the caller.
  return config.output.u.RGBA.rgba;
}
