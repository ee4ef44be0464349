// glimpse's HEIC/HEIF decoder: a thin layer over libheif 1.15 (container) and libde265 1.0.11 (HEVC),
// Debian's sources with their security patches, built for wasm32 without threads.
//
// The host reads the container's layout itself (packages/heif reads the item graph in TypeScript) and
// asks for one coded item at a time: the primary image, or each tile of a grid image in turn. A phone's
// 12 MP photo is 48 tiles of 512×512, so decoding tile by tile keeps one row of tiles in memory instead
// of the whole picture twice over (libheif's own grid path builds the full planar image, then an
// interleaved copy). Items stay in YCbCr as decoded; rows become RGB as the host copies them out.
// Transformations (irot/imir/clap) are left to the host, which orients every format the same way.
// Pixels leave as 8-bit RGBA rows; deeper samples are scaled down, rounding to nearest.

#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <vector>

#include <wasm_simd128.h>

#include "libheif/common_utils.h"
#include "libheif/heif.h"
#include "libheif/heif_api_structs.h"
#include "libheif/heif_context.h"
#include "libheif/heif_image.h"
#include "libheif/nclx.h"

namespace {

heif_context *context = nullptr;
// The largest picture libde265 may allocate for the item being decoded (see glimpse_picture_fits), and
// the size of a picture it refused.
int max_width = 0, max_height = 0;
int refused_width = 0, refused_height = 0;

// The decoded items the host holds, by slot: a grid's tiles across one row of the grid.
std::vector<std::shared_ptr<heif::HeifPixelImage>> slots;
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

// The planes read as R, G and B.
const heif_channel *channels_of(heif_colorspace space) {
  static const heif_channel gray[3] = {heif_channel_Y, heif_channel_Y, heif_channel_Y};
  static const heif_channel ycbcr[3] = {heif_channel_Y, heif_channel_Cb, heif_channel_Cr};
  static const heif_channel rgb[3] = {heif_channel_R, heif_channel_G, heif_channel_B};
  return space == heif_colorspace_monochrome ? gray : space == heif_colorspace_YCbCr ? ycbcr : rgb;
}

// How the item's YCbCr becomes RGB: libheif's own YCbCr-to-RGB step (Op_YCbCr_to_RGB in 1.15.1), which
// decode_item no longer runs (build.sh), done here a row at a time with the same arithmetic, so the
// pixels are identical without a whole RGB copy of the item.
struct Conversion {
  int matrix = 2;  // ISO/IEC 23091-2 matrix_coefficients; 0 (GBR) and 8 (YCgCo) have their own rules
  bool full_range = true;
  heif::YCbCr_to_RGB_coefficients coefficients = heif::YCbCr_to_RGB_coefficients::defaults();
  int bits = 8;
  int shift_h = 0;
  int shift_v = 0;
};

Conversion conversion_of(const heif::HeifPixelImage &image) {
  Conversion conversion;
  if (const auto &nclx = image.get_color_profile_nclx()) {
    conversion.matrix = nclx->get_matrix_coefficients();
    conversion.full_range = nclx->get_full_range_flag();
    conversion.coefficients = heif::get_YCbCr_to_RGB_coefficients(nclx->get_matrix_coefficients(), nclx->get_colour_primaries());
  }
  conversion.bits = image.get_bits_per_pixel(heif_channel_Y);
  conversion.shift_h = chroma_h_subsampling(image.get_chroma_format()) - 1;
  conversion.shift_v = chroma_v_subsampling(image.get_chroma_format()) - 1;
  return conversion;
}

inline uint8_t clip_u8(int value) { return static_cast<uint8_t>(value < 0 ? 0 : value > 255 ? 255 : value); }

// libheif's rounding of a float sample: half up, then clamped to [0, max].
inline uint32_t clip_float(float value, int32_t max) {
  long rounded = static_cast<long>(value + 0.5f);
  return static_cast<uint32_t>(rounded < 0 ? 0 : rounded > max ? max : rounded);
}

// A converted sample of `bits` bits as 8 bits, the way sample8 reads it from a plane.
inline uint8_t to8(uint32_t value, int bits) {
  if (bits == 8) return static_cast<uint8_t>(value);
  uint32_t max = (1u << bits) - 1;
  if (value > max) value = max;
  return static_cast<uint8_t>((value * 255 + max / 2) / max);
}

// One row of YCbCr samples (chroma already the row's subsampled row) to RGB in RGBA8 pixels; alpha is
// left to the caller.
template <typename Pixel>
void rgb_row(const Conversion &k, const Pixel *luma, const Pixel *cb, const Pixel *cr, uint32_t columns, uint8_t *out) {
  const int bits = k.bits;
  const int half = 1 << (bits - 1);
  const int32_t max = (1 << bits) - 1;
  const int limited_offset = 16 << (bits - 8);
  if (k.matrix == 0) {
    for (uint32_t x = 0; x < columns; x++) {
      uint32_t cx = x >> k.shift_h;
      uint32_t rgb[3] = {cr[cx], luma[x], cb[cx]};
      for (int c = 0; c < 3; c++) {
        uint32_t value = k.full_range ? rgb[c] : static_cast<Pixel>(((rgb[c] * 219 + 128) >> 8) + limited_offset);
        out[x * 4 + c] = to8(value, bits);
      }
    }
  } else if (k.matrix == 8) {
    for (uint32_t x = 0; x < columns; x++) {
      uint32_t cx = x >> k.shift_h;
      int yv = luma[x];
      int u = cb[cx] - half;
      int v = cr[cx] - half;
      out[x * 4] = to8(clip_u8(yv - u + v), bits);
      out[x * 4 + 1] = to8(clip_u8(yv + u), bits);
      out[x * 4 + 2] = to8(clip_u8(yv - u - v), bits);
    }
  } else {
    const heif::YCbCr_to_RGB_coefficients &c = k.coefficients;
    const float offset = static_cast<float>(limited_offset);
    for (uint32_t x = 0; x < columns; x++) {
      uint32_t cx = x >> k.shift_h;
      float yv = static_cast<float>(luma[x]);
      float u = static_cast<float>(cb[cx] - half);
      float v = static_cast<float>(cr[cx] - half);
      if (!k.full_range) {
        yv = (yv - offset) * 1.1689f;
        u = u * 1.1429f;
        v = v * 1.1429f;
      }
      out[x * 4] = to8(clip_float(yv + c.r_cr * v, max), bits);
      out[x * 4 + 1] = to8(clip_float(yv + c.g_cb * u + c.g_cr * v, max), bits);
      out[x * 4 + 2] = to8(clip_float(yv + c.b_cb * u, max), bits);
    }
  }
}

// rgb_row's general matrix for 8-bit samples, 16 pixels at a time in SIMD128, writing alpha 255: the same
// float operations in the same order per lane (WASM has no fused multiply-add to change the rounding), and
// libheif's half-up rounding by truncating value + 0.5 then clamping, so the pixels are identical. 4:2:0
// and 4:2:2 rows read each chroma sample for two pixels, 4:4:4 for one. Returns how many leading columns
// it converted (a multiple of 16); rgb_row does the rest.
uint32_t rgb_row_simd(const Conversion &k, const uint8_t *luma, const uint8_t *cb, const uint8_t *cr, uint32_t columns,
                      uint8_t *out) {
  if (k.matrix == 0 || k.matrix == 8 || k.bits != 8 || k.shift_h > 1) return 0;
  const heif::YCbCr_to_RGB_coefficients &c = k.coefficients;
  const v128_t r_cr = wasm_f32x4_splat(c.r_cr), g_cb = wasm_f32x4_splat(c.g_cb), g_cr = wasm_f32x4_splat(c.g_cr),
               b_cb = wasm_f32x4_splat(c.b_cb);
  const v128_t half = wasm_i32x4_splat(128), offset = wasm_f32x4_splat(16.0f), round = wasm_f32x4_splat(0.5f);
  const v128_t luma_scale = wasm_f32x4_splat(1.1689f), chroma_scale = wasm_f32x4_splat(1.1429f);
  const v128_t zero = wasm_i32x4_splat(0), top = wasm_i32x4_splat(255), opaque = wasm_i8x16_splat(-1);
  // One channel's 4 float values, rounded and clamped to 0..255 as 32-bit lanes.
  auto to_int = [&](v128_t value) {
    v128_t rounded = wasm_i32x4_trunc_sat_f32x4(wasm_f32x4_add(value, round));
    return wasm_i32x4_min(wasm_i32x4_max(rounded, zero), top);
  };
  uint32_t x = 0;
  for (; x + 16 <= columns; x += 16) {
    v128_t y8 = wasm_v128_load(luma + x);
    v128_t cb8, cr8;
    if (k.shift_h == 1) {
      cb8 = wasm_v128_load64_zero(cb + x / 2);
      cr8 = wasm_v128_load64_zero(cr + x / 2);
      cb8 = wasm_i8x16_shuffle(cb8, cb8, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
      cr8 = wasm_i8x16_shuffle(cr8, cr8, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7);
    } else {
      cb8 = wasm_v128_load(cb + x);
      cr8 = wasm_v128_load(cr + x);
    }
    v128_t rgb[3][4];  // channel, quarter of the 16 pixels
    for (int half16 = 0; half16 < 2; half16++) {
      v128_t y16 = half16 ? wasm_u16x8_extend_high_u8x16(y8) : wasm_u16x8_extend_low_u8x16(y8);
      v128_t cb16 = half16 ? wasm_u16x8_extend_high_u8x16(cb8) : wasm_u16x8_extend_low_u8x16(cb8);
      v128_t cr16 = half16 ? wasm_u16x8_extend_high_u8x16(cr8) : wasm_u16x8_extend_low_u8x16(cr8);
      for (int quarter = 0; quarter < 2; quarter++) {
        v128_t y32 = quarter ? wasm_u32x4_extend_high_u16x8(y16) : wasm_u32x4_extend_low_u16x8(y16);
        v128_t cb32 = quarter ? wasm_u32x4_extend_high_u16x8(cb16) : wasm_u32x4_extend_low_u16x8(cb16);
        v128_t cr32 = quarter ? wasm_u32x4_extend_high_u16x8(cr16) : wasm_u32x4_extend_low_u16x8(cr16);
        v128_t yv = wasm_f32x4_convert_i32x4(y32);
        v128_t u = wasm_f32x4_convert_i32x4(wasm_i32x4_sub(cb32, half));
        v128_t v = wasm_f32x4_convert_i32x4(wasm_i32x4_sub(cr32, half));
        if (!k.full_range) {
          yv = wasm_f32x4_mul(wasm_f32x4_sub(yv, offset), luma_scale);
          u = wasm_f32x4_mul(u, chroma_scale);
          v = wasm_f32x4_mul(v, chroma_scale);
        }
        int q = half16 * 2 + quarter;
        rgb[0][q] = to_int(wasm_f32x4_add(yv, wasm_f32x4_mul(r_cr, v)));
        rgb[1][q] = to_int(wasm_f32x4_add(wasm_f32x4_add(yv, wasm_f32x4_mul(g_cb, u)), wasm_f32x4_mul(g_cr, v)));
        rgb[2][q] = to_int(wasm_f32x4_add(yv, wasm_f32x4_mul(b_cb, u)));
      }
    }
    v128_t channel[3];
    for (int ch = 0; ch < 3; ch++) {
      channel[ch] = wasm_u8x16_narrow_i16x8(wasm_i16x8_narrow_i32x4(rgb[ch][0], rgb[ch][1]),
                                            wasm_i16x8_narrow_i32x4(rgb[ch][2], rgb[ch][3]));
    }
    // Interleave R, G, B and A: byte pairs RG and BA, then 16-bit pairs of those.
    v128_t rg_low = wasm_i8x16_shuffle(channel[0], channel[1], 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    v128_t rg_high =
        wasm_i8x16_shuffle(channel[0], channel[1], 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    v128_t ba_low = wasm_i8x16_shuffle(channel[2], opaque, 0, 16, 1, 17, 2, 18, 3, 19, 4, 20, 5, 21, 6, 22, 7, 23);
    v128_t ba_high = wasm_i8x16_shuffle(channel[2], opaque, 8, 24, 9, 25, 10, 26, 11, 27, 12, 28, 13, 29, 14, 30, 15, 31);
    uint8_t *to = out + x * 4;
    wasm_v128_store(to, wasm_i16x8_shuffle(rg_low, ba_low, 0, 8, 1, 9, 2, 10, 3, 11));
    wasm_v128_store(to + 16, wasm_i16x8_shuffle(rg_low, ba_low, 4, 12, 5, 13, 6, 14, 7, 15));
    wasm_v128_store(to + 32, wasm_i16x8_shuffle(rg_high, ba_high, 0, 8, 1, 9, 2, 10, 3, 11));
    wasm_v128_store(to + 48, wasm_i16x8_shuffle(rg_high, ba_high, 4, 12, 5, 13, 6, 14, 7, 15));
  }
  return x;
}

}  // namespace

extern "C" {

// Called by libde265 (patched in build.sh) as it reads a sequence parameter set, before it allocates
// anything by the picture size there: libde265 takes any size up to 65535×65535, but the host's pixel
// budget was checked against the size the container declares (ispe), so a stream declaring a larger
// picture is refused here instead of allocated.
bool glimpse_picture_fits(int width, int height) {
  if (width <= max_width && height <= max_height) return true;
  refused_width = width;
  refused_height = height;
  return false;
}

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
// planar YCbCr or gray as coded, with alpha when the item has an alpha image, into `slot`, replacing
// (and first freeing) the item held there. The coded picture may be at most `width`×`height` (the
// item's declared size, which the host checked, rounded up to whole coding blocks). info[0..4] = width,
// height, bits per sample, has alpha, gray. Returns 0 or a heif_error_code.
__attribute__((export_name("decode_item"))) int decode_item(uint32_t id, uint32_t slot, uint32_t width, uint32_t height, uint32_t *info) {
  if (slot >= slots.size()) slots.resize(slot + 1);
  slots[slot].reset();
  max_width = static_cast<int>(std::min<uint32_t>(width, 65535));
  max_height = static_cast<int>(std::min<uint32_t>(height, 65535));
  refused_width = refused_height = 0;
  if (!context->context->is_image(id)) {
    snprintf(message, sizeof message, "item %u is not an image", id);
    return heif_error_Invalid_input;
  }
  heif_decoding_options *options = heif_decoding_options_alloc();
  options->ignore_transformations = 1;
  std::shared_ptr<heif::HeifPixelImage> image;
  heif::Error error = context->context->decode_image_planar(id, image, heif_colorspace_undefined, options, false);
  heif_decoding_options_free(options);
  if (refused_width != 0) {
    snprintf(message, sizeof message, "its HEVC stream codes a %d×%d picture, larger than the %d×%d the file declares",
             refused_width, refused_height, max_width, max_height);
    return heif_error_Invalid_input;
  }
  if (error) return fail(error);
  // As coded (YCbCr or gray), or planar RGB from libheif's own grid path (a grid with alpha).
  heif_colorspace space = image->get_colorspace();
  bool gray = space == heif_colorspace_monochrome;
  if (!gray && space != heif_colorspace_YCbCr && space != heif_colorspace_RGB) {
    snprintf(message, sizeof message, "unexpected colour space %d", space);
    return heif_error_Unsupported_feature;
  }
  const heif_channel *channels = channels_of(space);
  int bits = image->get_bits_per_pixel(channels[0]);
  if (bits < 8 || bits > 16) {
    snprintf(message, sizeof message, "unsupported sample depth %d", bits);
    return heif_error_Unsupported_feature;
  }
  // What libheif's conversion to RGB refused: chroma of another depth than luma, alpha of another size.
  bool mixed = image->get_bits_per_pixel(channels[1]) != bits || image->get_bits_per_pixel(channels[2]) != bits;
  bool alpha = image->has_channel(heif_channel_Alpha);
  if (mixed || (alpha && (image->get_width(heif_channel_Alpha) != image->get_width() ||
                          image->get_height(heif_channel_Alpha) != image->get_height()))) {
    snprintf(message, sizeof message, "unsupported colour conversion");
    return heif_error_Unsupported_feature;
  }
  slots[slot] = image;
  info[0] = static_cast<uint32_t>(image->get_width());
  info[1] = static_cast<uint32_t>(image->get_height());
  info[2] = static_cast<uint32_t>(bits);
  info[3] = alpha ? 1 : 0;
  info[4] = gray ? 1 : 0;
  return 0;
}

// Writes rows [y, y + rows) of the item decoded into `slot`, its first `columns` columns, as
// straight-alpha RGBA8 to `out`, `stride` bytes apart. The host keeps within the item's size.
__attribute__((export_name("copy_rows"))) void copy_rows(uint32_t slot, uint8_t *out, uint32_t stride, uint32_t y, uint32_t rows, uint32_t columns) {
  const heif::HeifPixelImage &image = *slots[slot];
  heif_colorspace space = image.get_colorspace();
  const heif_channel *channels = channels_of(space);
  const int bits = image.get_bits_per_pixel(channels[0]);
  Conversion conversion = space == heif_colorspace_YCbCr ? conversion_of(image) : Conversion{};
  const uint8_t *planes[4];
  int strides[4];
  for (int c = 0; c < 3; c++) planes[c] = image.get_plane(channels[c], &strides[c]);
  bool alpha = image.has_channel(heif_channel_Alpha);
  int alpha_bits = 0;
  if (alpha) {
    planes[3] = image.get_plane(heif_channel_Alpha, &strides[3]);
    alpha_bits = image.get_bits_per_pixel(heif_channel_Alpha);
  }
  bool premultiplied = alpha && image.is_premultiplied_alpha();
  for (uint32_t row = 0; row < rows; row++) {
    uint8_t *to = out + row * stride;
    uint32_t source = y + row;
    uint32_t done = 0;  // leading columns rgb_row_simd converted, alpha included
    if (space == heif_colorspace_YCbCr) {
      uint32_t chroma = source >> conversion.shift_v;
      const uint8_t *luma = planes[0] + source * strides[0];
      const uint8_t *cb = planes[1] + chroma * strides[1];
      const uint8_t *cr = planes[2] + chroma * strides[2];
      if (bits == 8) {
        done = rgb_row_simd(conversion, luma, cb, cr, columns, to);
        rgb_row(conversion, luma + done, cb + (done >> conversion.shift_h), cr + (done >> conversion.shift_h),
                columns - done, to + done * 4);
      } else {
        rgb_row(conversion, reinterpret_cast<const uint16_t *>(luma), reinterpret_cast<const uint16_t *>(cb),
                reinterpret_cast<const uint16_t *>(cr), columns, to);
      }
    } else {
      for (int c = 0; c < 3; c++) {
        const uint8_t *plane = planes[c] + source * strides[c];
        for (uint32_t x = 0; x < columns; x++) to[x * 4 + c] = sample8(plane, x, bits);
      }
    }
    const uint8_t *alpha_row = alpha ? planes[3] + source * strides[3] : nullptr;
    for (uint32_t x = alpha ? 0 : done; x < columns; x++) {
      uint8_t *rgba = to + x * 4;
      rgba[3] = alpha ? sample8(alpha_row, x, alpha_bits) : 255;
      if (premultiplied && rgba[3] != 255) {
        for (int c = 0; c < 3; c++) {
          rgba[c] = rgba[3] == 0 ? 0 : static_cast<uint8_t>(std::min(255, (rgba[c] * 255 + rgba[3] / 2) / rgba[3]));
        }
      }
    }
  }
}

}  // extern "C"
