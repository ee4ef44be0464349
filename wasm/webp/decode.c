// glimpse's WebP decoder: a thin layer over libwebp's decoder (Debian's libwebp 1.2.4 with its security
// patches), built for wasm32 without libwebp's x86/ARM SIMD.
//
// decode_start reads the header; decode_more hands libwebp's incremental decoder the file a chunk at a
// time (the host copies each chunk in: the file is never in this module's memory whole), and the rows
// libwebp finishes go to the host through the imported rows_ready. It can decode straight to a smaller
// size: libwebp rescales each row as it is decoded (area averaging, alpha premultiplied while it
// averages), so a 12 MP WebP meant for 2000 px never exists at full size in RGBA. What libwebp holds
// meanwhile: the data it has not read yet (vp8l-stream.patch lets the lossless decoder drop what it
// read), a window of output rows (output-window.patch: the rows one batch of decoding makes, instead of
// the whole output) and, for a lossless image, a window of its rows as ARGB: vp8l-window.patch keeps the
// rows VP8L's backward references may still reach (2^20 pixels back at most) instead of the whole image
// (a 4000×3000 image: 5.8 MiB instead of 46 MiB). Animated files are not handled here (the caller
// extracts frame 1).

#include <stdint.h>
#include <stdlib.h>
#include "src/webp/decode.h"

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }
__attribute__((export_name("release"))) void release(void *pointer) { free(pointer); }

// The host takes `count` finished rows (width × 4 bytes each, back to back at `rows`), in order.
__attribute__((import_module("env"), import_name("rows_ready"))) void rows_ready(const uint8_t *rows, int count);

// Rows one batch of libwebp's decoding finishes at most, unscaled (output-window.patch says why).
#define BATCH_ROWS 25

// One decode per instance (a fresh instance per call).
static WebPDecoderConfig config;
static WebPIDecoder *idec;

// Reads the header from the file's first `size` bytes and starts decoding to straight-alpha RGBA8;
// width/height 0 keep the stored size. info[0..2] = output width, height, has_alpha; info[3] =
// libwebp's VP8StatusCode (0 on success; 7, not enough data: the header needs more of the file).
__attribute__((export_name("decode_start"))) uint32_t decode_start(
    const uint8_t *data, uint32_t size, uint32_t width, uint32_t height, uint32_t *info) {
  info[3] = 0;
  if (!WebPInitDecoderConfig(&config)) {
    info[3] = VP8_STATUS_INVALID_PARAM;
    return 0;
  }
  VP8StatusCode status = WebPGetFeatures(data, size, &config.input);
  if (status != VP8_STATUS_OK) {
    info[3] = status;
    return 0;
  }
  config.output.colorspace = MODE_RGBA;
  const uint32_t in_height = (uint32_t)config.input.height;
  uint32_t out_width = (uint32_t)config.input.width, out_height = in_height;
  if (width > 0 && height > 0 && (width != out_width || height != out_height)) {
    config.options.use_scaling = 1;
    config.options.scaled_width = (int)width;
    config.options.scaled_height = (int)height;
    out_width = width;
    out_height = height;
  }
  // A batch's rows, times the vertical scale when rescaling up, plus the rescaler's rounding.
  const uint32_t scale_up = (out_height + in_height - 1) / in_height;
  config.output.u.RGBA.window_rows = (int)(BATCH_ROWS * scale_up + 2);
  config.output.u.RGBA.rows_done = rows_ready;
  idec = WebPIDecode(NULL, 0, &config);  // the features were read above
  if (!idec) {
    info[3] = VP8_STATUS_OUT_OF_MEMORY;
    return 0;
  }
  info[0] = out_width;
  info[1] = out_height;
  info[2] = (uint32_t)config.input.has_alpha;
  return 1;
}

// Gives libwebp the file's next `size` bytes (the host's copy at `data`, which libwebp copies what it
// still needs from); the rows it finishes go to rows_ready. `last` is 1 for the file's last chunk.
// Returns libwebp's status: 0 when every row is out, 5 (suspended) while it waits for more; anything
// else is a failure (corrupt, truncated or out of memory).
__attribute__((export_name("decode_more"))) uint32_t decode_more(const uint8_t *data, uint32_t size, uint32_t last) {
  VP8StatusCode status = WebPIAppend(idec, data, size);
  if (status == VP8_STATUS_SUSPENDED && last) return VP8_STATUS_NOT_ENOUGH_DATA;
  if (status != VP8_STATUS_OK) return (uint32_t)status;
  int last_y = 0, width = 0, height = 0, stride = 0;
  WebPIDecGetRGB(idec, &last_y, &width, &height, &stride);
  // Finished without every row: libwebp never does this.
  return last_y == height ? VP8_STATUS_OK : VP8_STATUS_BITSTREAM_ERROR;
}
