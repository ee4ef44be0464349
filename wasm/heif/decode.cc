// glimpse's HEIC/HEIF decoder: a thin layer over libheif 1.15 (container) and libde265 1.0.11 (HEVC),
// Debian's sources with their security patches, built for wasm32 without threads.
//
// The host reads the container's layout itself (packages/heif reads the item graph in TypeScript) and
// asks for one coded item at a time: the primary image, or each tile of a grid image in turn. A phone's
// 12 MP photo is 48 tiles of 512×512, so decoding tile by tile keeps one row of tiles in memory instead
// of the whole picture twice over (libheif's own grid path builds the full planar image, then an
// interleaved copy). Items stay in YCbCr as decoded; rows become RGB as the host copies them out.
// A coded item's picture is libde265's own: decode.cc takes its planes from the decoder and frees the
// decoder (and its per-picture metadata) at once, instead of libheif's plugin copying the planes into a
// heif_image and holding the decoder until it is done (see take_pictures).
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
#include "libheif/plugins/heif_decoder_libde265.h"
#include "libde265/de265.h"

// sao-rows.cc: libde265's SAO filter over a decoded picture, a band of rows at a time.
extern "C" bool glimpse_sao_in_bands(de265_image *image);

namespace {

heif_context *context = nullptr;
// The largest picture libde265 may allocate for the item being decoded (see glimpse_picture_fits), and
// the size of a picture it refused.
int max_width = 0, max_height = 0;
int refused_width = 0, refused_height = 0;

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

Conversion conversion_of(const std::shared_ptr<const heif::color_profile_nclx> &nclx, int bits, heif_chroma chroma) {
  Conversion conversion;
  if (nclx) {
    conversion.matrix = nclx->get_matrix_coefficients();
    conversion.full_range = nclx->get_full_range_flag();
    conversion.coefficients = heif::get_YCbCr_to_RGB_coefficients(nclx->get_matrix_coefficients(), nclx->get_colour_primaries());
  }
  conversion.bits = bits;
  conversion.shift_h = chroma_h_subsampling(chroma) - 1;
  conversion.shift_v = chroma_v_subsampling(chroma) - 1;
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

// --- Pictures taken from libde265 ---
//
// libheif's libde265 plugin copies each decoded picture into a heif_image (a second whole copy of it)
// and keeps the decoder, with its per-picture metadata (prediction and transform info per 4×4 block, as
// large again as an 8-bit picture), until the copy is made. decode.cc registers a plugin of its own
// above it: for the decodes decode_item says to take, it runs libde265 the way libheif's plugin does
// (the same NAL units, the same decoding loop, the same colour profile) but keeps libde265's picture
// itself: the planes are allocated as libde265 allocates them (allocate_planes), and a picture's planes,
// once taken, are no longer freed by the decoder, which is freed at once. libheif is handed a heif_image without planes,
// so its own steps (colour profile, alpha, premultiplication) run as before; decode_item reads the
// pixels from the taken planes. Every other decode (libheif's own grid path) goes to libheif's plugin.

// The planes that pictures taken from libde265 own: the decoder no longer frees them. And their bytes.
std::vector<void *> taken_planes;
size_t taken_bytes = 0;

void free_taken(void *plane, size_t bytes) {
  if (plane == nullptr) return;
  taken_planes.erase(std::remove(taken_planes.begin(), taken_planes.end(), plane), taken_planes.end());
  taken_bytes -= bytes;
  free(plane);
}

// A picture taken from libde265: its planes from the conformance window's first sample.
struct Taken {
  void *planes[3] = {nullptr, nullptr, nullptr};  // as allocated, freed with the picture
  const uint8_t *rows[3] = {nullptr, nullptr, nullptr};
  int strides[3] = {0, 0, 0};  // bytes
  int widths[3] = {0, 0, 0};
  int heights[3] = {0, 0, 0};
  int bits[3] = {0, 0, 0};
  size_t bytes[3] = {0, 0, 0};
  de265_chroma chroma = de265_chroma_mono;
  int colour_primaries = 2, transfer_characteristics = 2, matrix_coefficients = 2;
  bool full_range = false;

  Taken() = default;
  Taken(const Taken &) = delete;
  Taken &operator=(const Taken &) = delete;
  ~Taken() {
    for (int c = 0; c < 3; c++) free_taken(planes[c], bytes[c]);
  }
  // An alpha image needs only its luma: its chroma planes go at once.
  void drop_chroma() {
    for (int c = 1; c < 3; c++) {
      free_taken(planes[c], bytes[c]);
      planes[c] = nullptr;
      rows[c] = nullptr;
    }
  }
};

// The most memory (bytes) the instance may reach while it decodes (set_memory_limit; 0: no limit), and
// what a picture refused for it would have needed.
size_t memory_limit = 0;
size_t memory_needed = 0;
// The instance's memory once the file is parsed (the file, libheif's boxes, the stack), and the size of
// the coded data of the item being decoded.
size_t opened_bytes = 0;
size_t pushed_bytes = 0;
// A picture decode.cc takes is filtered a band at a time (sao-rows.cc); one decoded by libheif's plugin
// (its grid path) is filtered after a copy of a whole plane and then copied into a heif_image.
bool libheif_copies = true;

// What the instance holds at its peak while it decodes a picture of these planes: what it held before
// (the parsed file, the pictures taken), the item's coded data twice (libheif's copy of the item and
// libde265's NAL units), the planes, libde265's metadata for the picture (18 bytes per 4×4 block: motion,
// prediction modes, transform, deblocking and coding-block info), and libheif's plugin's copies. Freed
// memory is reused, so this is what it needs, not the size its memory has grown to.
size_t peak_with(const size_t plane_bytes[3], int width, int height) {
  size_t planes = plane_bytes[0] + plane_bytes[1] + plane_bytes[2];
  size_t blocks = static_cast<size_t>((width + 3) / 4) * static_cast<size_t>((height + 3) / 4);
  size_t copies = libheif_copies ? planes + std::max(plane_bytes[0], plane_bytes[1]) : 0;
  return opened_bytes + taken_bytes + 2 * pushed_bytes + planes + blocks * 18 + copies;
}

// libde265's allocation of a picture's planes (de265_image_get_buffer in image.cc, 1.0.11: the same
// sizes, strides, alignment and padding), except that each plane is its own user data, so that
// release_planes can tell a taken plane from the decoder's own.
int allocate_planes(de265_decoder_context *, de265_image_spec *spec, de265_image *image, void *) {
  const de265_chroma chroma = de265_get_chroma_format(image);
  const int sub_width = chroma == de265_chroma_420 || chroma == de265_chroma_422 ? 2 : 1;
  const int sub_height = chroma == de265_chroma_420 ? 2 : 1;
  const size_t padding = 16;  // libde265's MEMORY_PADDING with SSE: its SIMD code reads past a row's end
  const int count = chroma == de265_chroma_mono ? 1 : 3;
  void *planes[3] = {nullptr, nullptr, nullptr};
  int strides[3] = {0, 0, 0};
  size_t bytes[3] = {0, 0, 0};
  for (int c = 0; c < count; c++) {
    int width = c == 0 ? spec->width : spec->width / sub_width;
    int height = c == 0 ? spec->height : spec->height / sub_height;
    int samples = (width + spec->alignment - 1) / spec->alignment * spec->alignment;
    strides[c] = samples * ((de265_get_bits_per_pixel(image, c) + 7) / 8);
    bytes[c] = static_cast<size_t>(strides[c]) * static_cast<size_t>(height) + padding;
  }
  // Refused before anything of the picture is allocated: libde265 reports it out of memory, and
  // decode_item the limit.
  if (memory_limit != 0 && peak_with(bytes, spec->width, spec->height) > memory_limit) {
    memory_needed = peak_with(bytes, spec->width, spec->height);
    return 0;
  }
  for (int c = 0; c < count; c++) {
    if (posix_memalign(&planes[c], 16, bytes[c]) != 0) {
      planes[c] = nullptr;
      for (void *plane : planes) free(plane);
      return 0;
    }
  }
  for (int c = 0; c < 3; c++) de265_set_image_plane(image, c, planes[c], strides[c], planes[c]);
  return 1;
}

void release_planes(de265_decoder_context *, de265_image *image, void *) {
  for (int c = 0; c < 3; c++) {
    void *plane = de265_get_image_plane_user_data(image, c);
    if (plane != nullptr && std::find(taken_planes.begin(), taken_planes.end(), plane) == taken_planes.end()) free(plane);
  }
}

// libde265 allocates a picture that SAO will filter in place (most HEIC pictures) with its default
// functions, whatever the decoder was given, so these become its defaults (the same allocation): the
// object de265_get_default_image_allocation_functions points to is libde265's static, not const, and
// each decoder copies it as it is created.
void take_over_allocation() {
  *const_cast<de265_image_allocation *>(de265_get_default_image_allocation_functions()) = {allocate_planes, release_planes};
}

// How many of the HEVC decodes still to come are taken (decode_item sets it), and those taken, in order.
int takes_left = 0;
std::vector<std::unique_ptr<Taken>> taken_pictures;

struct Decoder {
  void *delegate = nullptr;  // libheif's libde265 plugin's decoder, for a decode not taken
  de265_decoder_context *context = nullptr;
};

const heif_error heif_ok = {heif_error_Ok, heif_suberror_Unspecified, "Success"};

const char *plugin_name() { return "libde265 (glimpse: pictures taken without a copy)"; }
void plugin_init() {}
void plugin_deinit() {}
// Above libheif's libde265 plugin (100), which it delegates to.
int plugin_supports(heif_compression_format format) { return format == heif_compression_HEVC ? 200 : 0; }

heif_error plugin_new_decoder(void **out) {
  Decoder *decoder = new Decoder;
  libheif_copies = takes_left == 0;
  if (takes_left > 0) {
    takes_left--;
    decoder->context = de265_new_decoder();
    // Filtered a band at a time once decoded (glimpse_sao_in_bands), instead of after a whole-plane copy.
    de265_set_parameter_bool(decoder->context, DE265_DECODER_PARAM_DISABLE_SAO, 1);
  } else {
    heif_error error = get_decoder_plugin_libde265()->new_decoder(&decoder->delegate);
    if (error.code != heif_error_Ok) {
      delete decoder;
      return error;
    }
  }
  *out = decoder;
  return heif_ok;
}

void plugin_free_decoder(void *raw) {
  Decoder *decoder = static_cast<Decoder *>(raw);
  if (decoder->delegate != nullptr) get_decoder_plugin_libde265()->free_decoder(decoder->delegate);
  if (decoder->context != nullptr) de265_free_decoder(decoder->context);
  delete decoder;
}

void plugin_set_strict_decoding(void *raw, int flag) {
  Decoder *decoder = static_cast<Decoder *>(raw);
  const heif_decoder_plugin *libde265 = get_decoder_plugin_libde265();
  if (decoder->delegate != nullptr && libde265->plugin_api_version >= 2 && libde265->set_strict_decoding) {
    libde265->set_strict_decoding(decoder->delegate, flag);
  }
}

// The item's data as libheif hands it over (the hvcC's NAL units, then the item's), each NAL unit after
// its 4-byte size: libheif's plugin's push_data.
heif_error plugin_push_data(void *raw, const void *data, size_t size) {
  Decoder *decoder = static_cast<Decoder *>(raw);
  pushed_bytes = size;
  if (decoder->delegate != nullptr) return get_decoder_plugin_libde265()->push_data(decoder->delegate, data, size);
  const uint8_t *bytes = static_cast<const uint8_t *>(data);
  size_t at = 0;
  while (at < size) {
    if (4 > size - at) return {heif_error_Decoder_plugin_error, heif_suberror_End_of_data, ""};
    uint32_t nal_size = (static_cast<uint32_t>(bytes[at]) << 24) | (bytes[at + 1] << 16) | (bytes[at + 2] << 8) | bytes[at + 3];
    at += 4;
    if (nal_size > size - at) return {heif_error_Decoder_plugin_error, heif_suberror_End_of_data, ""};
    de265_push_NAL(decoder->context, bytes + at, nal_size, 0, nullptr);
    at += nal_size;
  }
  return heif_ok;
}

// libheif's plugin's decoding loop (the last picture output wins), taking the picture instead of copying
// it, then freeing the decoder. The heif_image handed back has the picture's size, colour space, chroma
// and colour profile (from the stream's VUI, as libheif's plugin sets it) but no planes.
heif_error plugin_decode_image(void *raw, heif_image **out) {
  Decoder *decoder = static_cast<Decoder *>(raw);
  if (decoder->delegate != nullptr) return get_decoder_plugin_libde265()->decode_image(decoder->delegate, out);
  *out = nullptr;
  de265_flush_data(decoder->context);
  // Every picture output is taken (the decoder may still hold an earlier one as a reference); all are
  // freed once the decoder is, but the last.
  std::vector<std::unique_ptr<Taken>> pictures;
  de265_image *last = nullptr;
  heif_error refused = heif_ok;
  int more;
  do {
    more = 0;
    if (de265_decode(decoder->context, &more) != DE265_OK) break;
    const de265_image *image = de265_get_next_picture(decoder->context);
    if (image == nullptr) continue;
    std::unique_ptr<Taken> taken(new Taken);
    taken->chroma = de265_get_chroma_format(image);
    const int count = taken->chroma == de265_chroma_mono ? 1 : 3;
    for (int c = 0; c < count; c++) {
      taken->planes[c] = de265_get_image_plane_user_data(image, c);
      taken_planes.push_back(taken->planes[c]);
      taken->rows[c] = de265_get_image_plane(image, c, &taken->strides[c]);
      taken->widths[c] = de265_get_image_width(image, c);
      taken->heights[c] = de265_get_image_height(image, c);
      taken->bytes[c] = static_cast<size_t>(taken->strides[c]) * static_cast<size_t>(std::max(taken->heights[c], 0));
      taken_bytes += taken->bytes[c];
      taken->bits[c] = de265_get_bits_per_pixel(image, c);
    }
    taken->colour_primaries = de265_get_image_colour_primaries(image);
    taken->transfer_characteristics = de265_get_image_transfer_characteristics(image);
    taken->matrix_coefficients = de265_get_image_matrix_coefficients(image);
    taken->full_range = de265_get_image_full_range_flag(image) != 0;
    pictures.push_back(std::move(taken));
    last = const_cast<de265_image *>(image);
    // What libheif's plugin refuses as it copies a picture.
    const Taken &picture = *pictures.back();
    for (int c = 0; c < count && refused.code == heif_error_Ok; c++) {
      if (picture.bits[c] != picture.bits[0]) {
        refused = {heif_error_Unsupported_feature, heif_suberror_Unsupported_color_conversion,
                   "Channels with different number of bits per pixel are not supported"};
      } else if (picture.widths[c] <= 0 || picture.heights[c] <= 0) {
        refused = {heif_error_Decoder_plugin_error, heif_suberror_Invalid_image_size, ""};
      }
    }
    if (refused.code != heif_error_Ok) break;
    de265_release_next_picture(decoder->context);
  } while (more);
  // An HEIC item is one intra picture: no later picture predicts from it unfiltered.
  if (last != nullptr && refused.code == heif_error_Ok) glimpse_sao_in_bands(last);
  de265_free_decoder(decoder->context);
  decoder->context = nullptr;
  if (refused.code != heif_error_Ok) return refused;
  if (pictures.empty()) return heif_ok;
  std::unique_ptr<Taken> picture = std::move(pictures.back());
  pictures.clear();
  bool mono = picture->chroma == de265_chroma_mono;
  heif_error error = heif_image_create(picture->widths[0], picture->heights[0],
                                       mono ? heif_colorspace_monochrome : heif_colorspace_YCbCr,
                                       static_cast<heif_chroma>(picture->chroma), out);
  if (error.code != heif_error_Ok) return error;
  heif_color_profile_nclx *nclx = heif_nclx_color_profile_alloc();
  // As libheif's plugin sets them, not strict: a value it does not know becomes "unspecified".
  heif_nclx_color_profile_set_color_primaries(nclx, static_cast<uint16_t>(picture->colour_primaries));
  heif_nclx_color_profile_set_transfer_characteristics(nclx, static_cast<uint16_t>(picture->transfer_characteristics));
  heif_nclx_color_profile_set_matrix_coefficients(nclx, static_cast<uint16_t>(picture->matrix_coefficients));
  nclx->full_range_flag = picture->full_range;
  heif_image_set_nclx_color_profile(*out, nclx);
  heif_nclx_color_profile_free(nclx);
  taken_pictures.push_back(std::move(picture));
  return heif_ok;
}

const heif_decoder_plugin taking_plugin = {
    3,
    plugin_name,
    plugin_init,
    plugin_deinit,
    plugin_supports,
    plugin_new_decoder,
    plugin_free_decoder,
    plugin_push_data,
    plugin_decode_image,
    plugin_set_strict_decoding,
    "glimpse-libde265",
};

// A decoded item as the host reads it: its planes (R, G, B or Y, Cb, Cr, or Y three times, then alpha),
// from pictures taken from libde265, or from libheif's image (its own grid path).
struct Picture {
  int width = 0, height = 0;
  heif_colorspace space = heif_colorspace_undefined;
  const uint8_t *rows[4] = {nullptr, nullptr, nullptr, nullptr};
  int strides[4] = {0, 0, 0, 0};
  int bits = 8, alpha_bits = 0;
  bool alpha = false, premultiplied = false;
  Conversion conversion;
  std::unique_ptr<Taken> colour_picture, alpha_picture;
  std::shared_ptr<heif::HeifPixelImage> image;
};

// The decoded items the host holds, by slot: a grid's tiles across one row of the grid.
std::vector<std::unique_ptr<Picture>> slots;

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

// The most memory the instance may reach: a picture whose decoding would take it further is refused
// before it is allocated (decode_item returns heif_error_Memory_allocation_error). 0: no limit.
__attribute__((export_name("set_memory_limit"))) void set_memory_limit(uint32_t bytes) { memory_limit = bytes; }

// The text of the last failure, NUL-terminated.
__attribute__((export_name("error_message"))) const char *error_message() { return message; }

// Parses the container (nothing is decoded). The bytes must stay where they are until the instance
// is dropped: libheif reads them in place. Returns 0, or libheif's heif_error_code; info[0] = the
// primary image's item ID.
__attribute__((export_name("open_file"))) int open_file(const uint8_t *data, uint32_t size, uint32_t *info) {
  static bool registered = false;
  if (!registered) {
    take_over_allocation();
    heif_register_decoder_plugin(&taking_plugin);
    registered = true;
  }
  context = heif_context_alloc();
  heif_error error = heif_context_read_from_memory_without_copy(context, data, size, nullptr);
  if (error.code != heif_error_Ok) return fail(error);
  heif_item_id primary = 0;
  error = heif_context_get_primary_image_ID(context, &primary);
  if (error.code != heif_error_Ok) return fail(error);
  info[0] = primary;
  opened_bytes = __builtin_wasm_memory_size(0) * 65536;
  return 0;
}

// Decodes one image item (the primary image, or a tile of a grid) without its transformations, to
// planar YCbCr or gray as coded, with alpha when the item has an alpha image, into `slot`, replacing
// (and first freeing) the item held there. The coded picture may be at most `width`×`height` (the
// item's declared size, which the host checked, rounded up to whole coding blocks). `takes`: how many
// of the HEVC pictures the decode makes, in order (the item's, then its alpha image's), are taken from
// libde265 without a copy; 0 for a grid, which libheif assembles from tiles it converts to RGB.
// info[0..4] = width, height, bits per sample, has alpha, gray. Returns 0 or a heif_error_code.
__attribute__((export_name("decode_item"))) int decode_item(uint32_t id, uint32_t slot, uint32_t width, uint32_t height,
                                                            uint32_t takes, uint32_t *info) {
  if (slot >= slots.size()) slots.resize(slot + 1);
  slots[slot].reset();
  max_width = static_cast<int>(std::min<uint32_t>(width, 65535));
  max_height = static_cast<int>(std::min<uint32_t>(height, 65535));
  refused_width = refused_height = 0;
  memory_needed = 0;
  if (!context->context->is_image(id)) {
    snprintf(message, sizeof message, "item %u is not an image", id);
    return heif_error_Invalid_input;
  }
  heif_decoding_options *options = heif_decoding_options_alloc();
  options->ignore_transformations = 1;
  std::shared_ptr<heif::HeifPixelImage> image;
  taken_pictures.clear();
  takes_left = static_cast<int>(std::min<uint32_t>(takes, 2));
  heif::Error error = context->context->decode_image_planar(id, image, heif_colorspace_undefined, options, false);
  takes_left = 0;
  std::vector<std::unique_ptr<Taken>> pictures = std::move(taken_pictures);
  taken_pictures.clear();
  heif_decoding_options_free(options);
  if (refused_width != 0) {
    snprintf(message, sizeof message, "its HEVC stream codes a %d×%d picture, larger than the %d×%d the file declares",
             refused_width, refused_height, max_width, max_height);
    return heif_error_Invalid_input;
  }
  if (memory_needed != 0) {
    snprintf(message, sizeof message, "decoding it takes about %zu MB of memory, over the %zu MB allowed",
             (memory_needed + (1 << 20) - 1) >> 20, memory_limit >> 20);
    return heif_error_Memory_allocation_error;
  }
  if (error) return fail(error);
  std::unique_ptr<Picture> picture(new Picture);
  int alpha_width = 0, alpha_height = 0;
  bool mixed = false;
  if (!pictures.empty()) {
    // The item's own picture, as coded.
    picture->colour_picture = std::move(pictures[0]);
    const Taken &colour = *picture->colour_picture;
    bool gray = colour.chroma == de265_chroma_mono;
    picture->space = gray ? heif_colorspace_monochrome : heif_colorspace_YCbCr;
    picture->width = colour.widths[0];
    picture->height = colour.heights[0];
    picture->bits = colour.bits[0];
    for (int c = 0; c < 3; c++) {
      picture->rows[c] = colour.rows[gray ? 0 : c];
      picture->strides[c] = colour.strides[gray ? 0 : c];
    }
  } else {
    // As coded (YCbCr or gray), or planar RGB from libheif's own grid path (a grid with alpha).
    picture->image = image;
    picture->space = image->get_colorspace();
    picture->width = image->get_width();
    picture->height = image->get_height();
    if (picture->space == heif_colorspace_monochrome || picture->space == heif_colorspace_YCbCr ||
        picture->space == heif_colorspace_RGB) {
      const heif_channel *channels = channels_of(picture->space);
      picture->bits = image->get_bits_per_pixel(channels[0]);
      mixed = image->get_bits_per_pixel(channels[1]) != picture->bits ||
              image->get_bits_per_pixel(channels[2]) != picture->bits;
      for (int c = 0; c < 3; c++) picture->rows[c] = image->get_plane(channels[c], &picture->strides[c]);
    }
  }
  if (picture->space != heif_colorspace_monochrome && picture->space != heif_colorspace_YCbCr &&
      picture->space != heif_colorspace_RGB) {
    snprintf(message, sizeof message, "unexpected colour space %d", picture->space);
    return heif_error_Unsupported_feature;
  }
  if (picture->bits < 8 || picture->bits > 16) {
    snprintf(message, sizeof message, "unsupported sample depth %d", picture->bits);
    return heif_error_Unsupported_feature;
  }
  if (image->has_channel(heif_channel_Alpha)) {
    picture->alpha = true;
    if (pictures.size() > 1) {
      // The alpha image's picture, taken too: its luma is the alpha.
      picture->alpha_picture = std::move(pictures[1]);
      Taken &alpha = *picture->alpha_picture;
      alpha.drop_chroma();
      picture->rows[3] = alpha.rows[0];
      picture->strides[3] = alpha.strides[0];
      picture->alpha_bits = alpha.bits[0];
      alpha_width = alpha.widths[0];
      alpha_height = alpha.heights[0];
    } else {
      picture->image = image;
      picture->rows[3] = image->get_plane(heif_channel_Alpha, &picture->strides[3]);
      picture->alpha_bits = image->get_bits_per_pixel(heif_channel_Alpha);
      alpha_width = image->get_width(heif_channel_Alpha);
      alpha_height = image->get_height(heif_channel_Alpha);
    }
  }
  pictures.clear();
  // What libheif's conversion to RGB refused: chroma of another depth than luma, alpha of another size.
  if (mixed || (picture->alpha && (picture->rows[3] == nullptr || alpha_width != picture->width || alpha_height != picture->height))) {
    snprintf(message, sizeof message, "unsupported colour conversion");
    return heif_error_Unsupported_feature;
  }
  picture->premultiplied = picture->alpha && image->is_premultiplied_alpha();
  if (picture->space == heif_colorspace_YCbCr) {
    picture->conversion = conversion_of(image->get_color_profile_nclx(), picture->bits, image->get_chroma_format());
  }
  info[0] = static_cast<uint32_t>(picture->width);
  info[1] = static_cast<uint32_t>(picture->height);
  info[2] = static_cast<uint32_t>(picture->bits);
  info[3] = picture->alpha ? 1 : 0;
  info[4] = picture->space == heif_colorspace_monochrome ? 1 : 0;
  slots[slot] = std::move(picture);
  return 0;
}

// Writes rows [y, y + rows) of the item decoded into `slot`, its first `columns` columns, as
// straight-alpha RGBA8 to `out`, `stride` bytes apart. The host keeps within the item's size.
__attribute__((export_name("copy_rows"))) void copy_rows(uint32_t slot, uint8_t *out, uint32_t stride, uint32_t y, uint32_t rows, uint32_t columns) {
  const Picture &picture = *slots[slot];
  const heif_colorspace space = picture.space;
  const int bits = picture.bits;
  const Conversion &conversion = picture.conversion;
  const uint8_t *const *planes = picture.rows;
  const int *strides = picture.strides;
  const bool alpha = picture.alpha;
  const int alpha_bits = picture.alpha_bits;
  const bool premultiplied = picture.premultiplied;
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
