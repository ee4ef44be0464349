// glimpse's HEIC/HEIF decoder: a thin layer over libheif 1.15 (container) and libde265 1.0.11 (HEVC),
// Debian's sources with their security patches, built for wasm32 without threads.
//
// The host reads the container's layout itself (packages/heif reads the item graph in TypeScript) and
// asks for one coded item at a time: the primary image, or each tile of a grid image in turn. A phone's
// 12 MP photo is 48 tiles of 512×512, so decoding tile by tile keeps one tile's planes in memory instead
// of the whole picture twice over (libheif's own grid path builds the full planar image, then an
// interleaved copy). Transformations (irot/imir/clap) are left to the host, which orients every format
// the same way. Pixels leave as 8-bit RGBA rows; deeper samples are scaled down, rounding to nearest.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>

#include "libheif/heif.h"
#include "libheif/heif_api_structs.h"
#include "libheif/heif_context.h"
#include "libheif/heif_image.h"

namespace {

heif_context *context = nullptr;
std::shared_ptr<heif::HeifPixelImage> current;
char message[256];

int fail(const heif_error &error) {
  snprintf(message, sizeof message, "%s", error.message ? error.message : "unknown error");
  return error.code != heif_error_Ok ? error.code : heif_error_Decoder_plugin_error;
}

int fail(const heif::Error &error) {
  snprintf(message, sizeof message, "%s: %s%s%s", heif::Error::get_error_string(error.error_code),
           heif::Error::get_error_string(error.sub_error_code), error.message.empty() ? "" : ": ", error.message.c_str());
  return error.error_code;
}

// One sample of `bits` bits (stored in 16 bits when deeper than 8) as 8 bits, rounded to nearest.
inline uint8_t sample8(const uint8_t *row, int x, int bits) {
  if (bits == 8) return row[x];
  uint32_t value = reinterpret_cast<const uint16_t *>(row)[x];
  uint32_t max = (1u << bits) - 1;
  if (value > max) value = max;
  return static_cast<uint8_t>((value * 255 + max / 2) / max);
}

}  // namespace

extern "C" {

// wasm32-wasi has no exception handling, and Debian's libc++abi for it no __cxa_throw. libheif is
// compiled as written (it has one try/catch), so the few throws libc++'s headers can make (bad_alloc,
// out_of_range) reach these: like abort(), they trap, the host reports a failed decode and drops the
// instance.
void *__cxa_allocate_exception(size_t) { __builtin_trap(); }
void __cxa_throw(void *, void *, void (*)(void *)) { __builtin_trap(); }

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }

// The text of the last failure, NUL-terminated.
__attribute__((export_name("error_message"))) const char *error_message() { return message; }

// Parses the container (nothing is decoded). The bytes must stay where they are until the instance
// is dropped: libheif reads them in place. Returns 0, or libheif's heif_error_code; info[0] = the
// primary image's item ID.
__attribute__((export_name("open_file"))) int open_file(const uint8_t *data, uint32_t size, uint32_t *info) {
  context = heif_context_alloc();
  heif_error error = heif_context_read_from_memory_without_copy(context, data, size, nullptr);
  if (error.code != heif_error_Ok) return fail(error);
  heif_item_id primary = 0;
  error = heif_context_get_primary_image_ID(context, &primary);
  if (error.code != heif_error_Ok) return fail(error);
  info[0] = primary;
  return 0;
}

// Decodes one image item (the primary image, or a tile of a grid) without its transformations, to
// planar RGB or gray, with alpha when the item has an alpha image. Replaces the item decoded before.
// info[0..4] = width, height, bits per sample, has alpha, gray. Returns 0 or a heif_error_code.
__attribute__((export_name("decode_item"))) int decode_item(uint32_t id, uint32_t *info) {
  current.reset();
  if (!context->context->is_image(id)) {
    snprintf(message, sizeof message, "item %u is not an image", id);
    return heif_error_Invalid_input;
  }
  heif_decoding_options *options = heif_decoding_options_alloc();
  options->ignore_transformations = 1;
  std::shared_ptr<heif::HeifPixelImage> image;
  heif::Error error = context->context->decode_image_planar(id, image, heif_colorspace_undefined, options, false);
  heif_decoding_options_free(options);
  if (error) return fail(error);
  bool gray = image->get_colorspace() == heif_colorspace_monochrome;
  heif_channel first = gray ? heif_channel_Y : heif_channel_R;
  if (!gray && image->get_colorspace() != heif_colorspace_RGB) {
    snprintf(message, sizeof message, "unexpected colour space %d after conversion", image->get_colorspace());
    return heif_error_Unsupported_feature;
  }
  int bits = image->get_bits_per_pixel(first);
  if (bits < 1 || bits > 16) {
    snprintf(message, sizeof message, "unsupported sample depth %d", bits);
    return heif_error_Unsupported_feature;
  }
  current = image;
  info[0] = static_cast<uint32_t>(image->get_width());
  info[1] = static_cast<uint32_t>(image->get_height());
  info[2] = static_cast<uint32_t>(bits);
  info[3] = image->has_channel(heif_channel_Alpha) ? 1 : 0;
  info[4] = gray ? 1 : 0;
  return 0;
}

// Writes rows [y, y + rows) of the decoded item, its first `columns` columns, as straight-alpha RGBA8
// to `out`, `stride` bytes apart. The host keeps within the item's size.
__attribute__((export_name("copy_rows"))) void copy_rows(uint8_t *out, uint32_t stride, uint32_t y, uint32_t rows, uint32_t columns) {
  heif::HeifPixelImage &image = *current;
  bool gray = image.get_colorspace() == heif_colorspace_monochrome;
  heif_channel channels[3] = {gray ? heif_channel_Y : heif_channel_R, gray ? heif_channel_Y : heif_channel_G,
                              gray ? heif_channel_Y : heif_channel_B};
  const uint8_t *planes[4];
  int strides[4];
  int bits[4];
  for (int c = 0; c < 3; c++) {
    planes[c] = image.get_plane(channels[c], &strides[c]);
    bits[c] = image.get_bits_per_pixel(channels[c]);
  }
  bool alpha = image.has_channel(heif_channel_Alpha);
  if (alpha) {
    planes[3] = image.get_plane(heif_channel_Alpha, &strides[3]);
    bits[3] = image.get_bits_per_pixel(heif_channel_Alpha);
  }
  bool premultiplied = alpha && image.is_premultiplied_alpha();
  for (uint32_t row = 0; row < rows; row++) {
    uint8_t *to = out + row * stride;
    uint32_t source = y + row;
    for (uint32_t x = 0; x < columns; x++) {
      uint8_t rgba[4];
      for (int c = 0; c < 3; c++) rgba[c] = sample8(planes[c] + source * strides[c], x, bits[c]);
      rgba[3] = alpha ? sample8(planes[3] + source * strides[3], x, bits[3]) : 255;
      if (premultiplied && rgba[3] != 255) {
        for (int c = 0; c < 3; c++) {
          rgba[c] = rgba[3] == 0 ? 0 : static_cast<uint8_t>(std::min(255, (rgba[c] * 255 + rgba[3] / 2) / rgba[3]));
        }
      }
      memcpy(to + x * 4, rgba, 4);
    }
  }
}

}  // extern "C"
