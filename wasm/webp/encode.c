// glimpse's WebP encoder: libwebp's encoder (Debian's libwebp 1.2.4, the decoder's source) fed a band of
// RGBA rows at a time.
//
// Lossy: each band is converted to YUV 4:2:0 as it arrives (rgba-rows.patch: libwebp's own conversion,
// two rows at a time), so what is held is the planes — 1.5 bytes per pixel, plus 1 for alpha when a
// row may be transparent — and the encoder's state, never the image as RGBA. Lossless: libwebp's VP8L
// encoder needs the whole image as ARGB (4 bytes per pixel), so the rows are stored that way.
//
// encode_start, encode_rows (every row, top to bottom), encode_finish; one image per instance.

#include <stdint.h>
#include <stdlib.h>
#include "src/webp/encode.h"

// From rgba-rows.patch (src/enc/picture_csp_enc.c).
int WebPPictureImportRGBARows(WebPPicture *picture, const uint8_t *rgba, int stride, int y, int rows);
// From encode-simd.c.
void EncoderDspInitSimd(void);

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }

static struct {
  WebPConfig config;
  WebPPicture picture;
  WebPMemoryWriter writer;
  int next_row;
} encoder;

// Prepares a width × height picture. method: libwebp's speed/size trade-off (0–6); may_have_alpha: 0
// promises every pixel opaque (no alpha plane is kept). Returns 0 on bad options or out of memory.
__attribute__((export_name("encode_start"))) uint32_t encode_start(
    uint32_t width, uint32_t height, uint32_t quality, uint32_t lossless, uint32_t method, uint32_t may_have_alpha) {
  WebPConfig *config = &encoder.config;
  WebPPicture *picture = &encoder.picture;
  EncoderDspInitSimd();
  if (!WebPConfigInit(config) || !WebPPictureInit(picture)) return 0;
  config->quality = (float)quality;
  config->lossless = lossless != 0;
  config->method = (int)method;
  config->alpha_quality = 100;  // exact edges: the alpha plane is stored losslessly
  if (!WebPValidateConfig(config)) return 0;
  picture->width = (int)width;
  picture->height = (int)height;
  picture->use_argb = lossless != 0;
  picture->colorspace = may_have_alpha ? WEBP_YUV420A : WEBP_YUV420;
  encoder.next_row = 0;
  return (uint32_t)WebPPictureAlloc(picture);
}

// Takes the next `rows` rows (RGBA8, straight alpha, width × 4 bytes each, back to back). Lossy bands
// hold an even number of rows, but for the image's last band. Returns 0 if the rows do not fit.
__attribute__((export_name("encode_rows"))) uint32_t encode_rows(const uint8_t *rgba, uint32_t rows) {
  WebPPicture *picture = &encoder.picture;
  const int y = encoder.next_row;
  if (rows == 0 || (uint32_t)(picture->height - y) < rows) return 0;
  encoder.next_row = y + (int)rows;
  if (!picture->use_argb) return (uint32_t)WebPPictureImportRGBARows(picture, rgba, picture->width * 4, y, (int)rows);
  for (uint32_t r = 0; r < rows; r++) {
    uint32_t *argb = picture->argb + (size_t)(y + (int)r) * (size_t)picture->argb_stride;
    const uint8_t *in = rgba + (size_t)r * (size_t)picture->width * 4;
    for (int x = 0; x < picture->width; x++, in += 4)
      argb[x] = (uint32_t)in[3] << 24 | (uint32_t)in[0] << 16 | (uint32_t)in[1] << 8 | in[2];
  }
  return 1;
}

// Encodes the picture once every row has arrived. Returns where the file is and writes its length to
// info[0]; on failure returns 0 and writes libwebp's WebPEncodingError to info[1].
__attribute__((export_name("encode_finish"))) uint8_t *encode_finish(uint32_t *info) {
  WebPPicture *picture = &encoder.picture;
  info[0] = 0;
  info[1] = 0;
  if (encoder.next_row != picture->height) {
    info[1] = VP8_ENC_ERROR_BAD_DIMENSION;
    return 0;
  }
  WebPMemoryWriterInit(&encoder.writer);
  picture->writer = WebPMemoryWrite;
  picture->custom_ptr = &encoder.writer;
  const int ok = WebPEncode(&encoder.config, picture);
  WebPPictureFree(picture);
  if (!ok) {
    info[1] = (uint32_t)picture->error_code;
    return 0;
  }
  info[0] = (uint32_t)encoder.writer.size;
  return encoder.writer.mem;
}
