// glimpse's AVIF decoder: dav1d 1.0.0 (Debian's source, plain C, one thread) decodes the AV1 image
// items, and this file turns their YUV planes into 8-bit RGBA rows.
//
// The host reads the HEIF container itself (packages/media/src/containers/heif-items.ts) and hands over
// one coded item at a time: the primary image or one tile of a grid into slot 0, its alpha image into
// slot 1. It then asks for rows of RGBA, optionally shrunk by an integer factor on the way (each output
// pixel the mean of a factor×factor block), so a 12 MP photo bound for 2000 px never exists at full size
// as RGBA. Transformations (irot/imir/clap) are the host's.
//
// Colour: YUV → R'G'B' with the matrix coefficients (ITU-T H.273) and range the host passes (the
// container's nclx box, else the AV1 sequence header); no transfer or gamut conversion. Deeper samples
// (10, 12 bit) are converted at full precision and rounded to 8 bits once. At full size, 4:2:0 and
// 4:2:2 chroma is upsampled bilinearly between sample centres; when shrinking, each luma sample takes
// the chroma sample that covers it.

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "dav1d/dav1d.h"

static char message[256];
static Dav1dPicture pictures[2];
static int held[2];

// Conversion state set by prepare_rgba.
static struct {
  int matrix;       // 0 identity, 8 YCgCo, otherwise Kr/Kb below
  float kr, kb;     // luma weights of red and blue
  float y_offset, y_scale, c_offset, c_scale;  // code value → [0, 1] (luma) / [-0.5, 0.5] (chroma)
  float a_offset, a_scale;
  int premultiplied;
} colour;

// Rows of chroma interpolated to luma positions, reused between calls.
static float *chroma_rows;
static size_t chroma_capacity;

static int fail(int status, const char *format, ...) {
  va_list args;
  va_start(args, format);
  vsnprintf(message, sizeof message, format, args);
  va_end(args);
  return status;
}

// dav1d's log messages are its only explanation of a failure: the last one becomes the error text.
static void log_message(void *cookie, const char *format, va_list args) {
  (void)cookie;
  vsnprintf(message, sizeof message, format, args);
  size_t length = strlen(message);
  while (length > 0 && message[length - 1] == '\n') message[--length] = 0;
}

static void no_free(const uint8_t *data, void *cookie) {
  (void)data;
  (void)cookie;
}

// The most WASM memory this instance may have, in bytes (0: no limit beyond WASM's own). The memory grows
// only here: wasi-libc's malloc asks sbrk for pages, and this sbrk, linked instead of wasi-libc's (same
// behaviour otherwise), refuses to grow past the limit. malloc then returns NULL, dav1d fails with ENOMEM
// and the host reports a typed error, where a runtime with a hard memory limit (a Worker's 128 MB) would
// otherwise kill the whole isolate.
static uintptr_t memory_limit;

void *sbrk(intptr_t increment) {
  uintptr_t size = __builtin_wasm_memory_size(0) * 65536;
  if (increment == 0) return (void *)size;
  if (increment < 0 || increment % 65536 != 0) abort();  // dlmalloc asks for whole pages, never shrinks
  if (memory_limit != 0 && (uintptr_t)increment > memory_limit - (size < memory_limit ? size : memory_limit)) {
    errno = ENOMEM;
    return (void *)-1;
  }
  uintptr_t old = __builtin_wasm_memory_grow(0, (uintptr_t)increment / 65536);
  if (old == SIZE_MAX) {
    errno = ENOMEM;
    return (void *)-1;
  }
  return (void *)(old * 65536);
}

__attribute__((export_name("set_memory_limit"))) void set_memory_limit(uint32_t bytes) { memory_limit = bytes; }

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }
__attribute__((export_name("release"))) void release(void *pointer) { free(pointer); }

// The text of the last failure, NUL-terminated.
__attribute__((export_name("error_message"))) const char *error_message(void) { return message; }

// Status codes the host maps to typed errors.
enum { OK = 0, CORRUPT = 1, UNSUPPORTED = 2, OUT_OF_MEMORY = 3, TOO_MANY_PIXELS = 4, OVER_MEMORY_LIMIT = 5 };

static int status_of(int error) {
  if (error == DAV1D_ERR(ENOMEM)) return OUT_OF_MEMORY;
  if (error == DAV1D_ERR(ENOPROTOOPT)) return UNSUPPORTED;
  return CORRUPT;
}

// The bytes dav1d's default picture allocator (picture.c) takes for a width×height frame: each plane
// padded to a multiple of 128 pixels both ways, samples of 1 byte (8-bit) or 2 (10, 12-bit), a stride
// that is a multiple of 1024 bytes made 64 longer. The frame is decoded whole (AV1's prediction and
// in-loop filters reach across it, and dav1d hands out whole pictures), so this is the least it can cost.
static uint64_t picture_bytes(int width, int height, int layout, int high_bit_depth) {
  uint64_t aligned_w = ((uint64_t)width + 127) & ~(uint64_t)127, aligned_h = ((uint64_t)height + 127) & ~(uint64_t)127;
  uint64_t y_stride = aligned_w << high_bit_depth, uv_stride = layout == DAV1D_PIXEL_LAYOUT_I400 ? 0 : layout == DAV1D_PIXEL_LAYOUT_I444 ? y_stride : y_stride >> 1;
  if (!(y_stride & 1023)) y_stride += DAV1D_PICTURE_ALIGNMENT;
  if (uv_stride && !(uv_stride & 1023)) uv_stride += DAV1D_PICTURE_ALIGNMENT;
  uint64_t uv_h = layout == DAV1D_PIXEL_LAYOUT_I420 ? aligned_h >> 1 : aligned_h;
  return y_stride * aligned_h + 2 * uv_stride * uv_h + DAV1D_PICTURE_ALIGNMENT;
}

static uint64_t held_bytes(int slot) {
  if (!held[slot]) return 0;
  const Dav1dPicture *p = &pictures[slot];
  return picture_bytes(p->p.w, p->p.h, p->p.layout, p->p.bpc > 8);
}

// Refuses, before dav1d allocates anything, an item whose decoding would not fit the memory limit: its
// sequence header gives the largest frame, the layout and the bit depth. What it costs: the frame, a second
// one when dav1d applies film grain (it writes the grain into a copy), dav1d's working buffers (the loop
// filter's levels and masks, CDEF and loop-restoration line buffers, the above-context: measured 0.46 bytes
// a pixel for a 12 MP 8-bit 4:4:4 frame, 0.59 for 10-bit; counted as 0.5 and 0.625), and what the instance
// already holds (the other slot's picture, the module's 2 MB of stack and data).
static int check_memory(uint32_t slot, const uint8_t *data, uint32_t size) {
  if (memory_limit == 0) return OK;
  Dav1dSequenceHeader sequence;
  if (dav1d_parse_sequence_header(&sequence, data, size) < 0) return OK;  // dav1d reports the damage itself
  uint64_t frame = picture_bytes(sequence.max_width, sequence.max_height, sequence.layout, sequence.hbd > 0);
  uint64_t pixels = (uint64_t)sequence.max_width * (uint64_t)sequence.max_height;
  uint64_t working = sequence.hbd > 0 ? pixels / 8 * 5 : pixels / 2;
  uint64_t need = frame * (sequence.film_grain_present ? 2 : 1) + working + held_bytes(1 - slot) + (2 << 20);
  if (need <= memory_limit) return OK;
  const char *kind = slot == 1                                   ? "alpha"
                     : sequence.layout == DAV1D_PIXEL_LAYOUT_I400 ? "monochrome"
                     : sequence.layout == DAV1D_PIXEL_LAYOUT_I420 ? "4:2:0"
                     : sequence.layout == DAV1D_PIXEL_LAYOUT_I422 ? "4:2:2"
                                                                  : "4:4:4";
  return fail(OVER_MEMORY_LIMIT, "%dx%d %d-bit %s frame needs about %llu MB to decode%s, over the limit of %u MB", sequence.max_width,
              sequence.max_height, sequence.hbd == 0 ? 8 : sequence.hbd == 1 ? 10 : 12, kind,
              (unsigned long long)((need + (1 << 20) - 1) >> 20), held[1 - slot] ? " beside the colour frame" : "",
              (unsigned)(memory_limit >> 20));
}

// Decodes the AV1 image item `data` (one temporal unit: sequence header and frame OBUs) into `slot`,
// replacing what was there (slot 0: the alpha image in slot 1 too). Frames over `max_pixels`, and items
// whose decoding would not fit the memory limit (check_memory), are refused before dav1d allocates them.
// info[0..8] = width, height, bits per sample, layout (0 mono, 1 4:2:0, 2 4:2:2, 3 4:4:4),
// matrix coefficients, full range, colour primaries, transfer characteristics, all-lossless.
__attribute__((export_name("decode_item"))) int decode_item(uint32_t slot, const uint8_t *data, uint32_t size, uint32_t max_pixels, uint32_t *info) {
  if (slot > 1) return fail(CORRUPT, "no slot %u", slot);
  // A new colour image (the next grid tile) ends the previous one's alpha image too: it is not held
  // while the colour frame is decoded.
  for (uint32_t other = slot; other < 2; other++) {
    if (held[other]) dav1d_picture_unref(&pictures[other]);
    held[other] = 0;
  }
  message[0] = 0;
  int refused = check_memory(slot, data, size);
  if (refused != OK) return refused;

  Dav1dSettings settings;
  dav1d_default_settings(&settings);
  settings.n_threads = 1;
  settings.max_frame_delay = 1;
  settings.all_layers = 0;  // the highest spatial layer only, as AVIF readers show
  settings.frame_size_limit = max_pixels;
  settings.logger.cookie = NULL;
  settings.logger.callback = log_message;
  Dav1dContext *context = NULL;
  int error = dav1d_open(&context, &settings);
  if (error < 0) return fail(status_of(error), "dav1d could not start (%d)", error);

  Dav1dData input;
  error = dav1d_data_wrap(&input, data, size, no_free, NULL);
  Dav1dPicture picture;
  memset(&picture, 0, sizeof picture);
  int got = 0;
  // An item shows one frame: once it is out, the rest (trailing data of a damaged item) is ignored.
  while (error >= 0 && input.sz > 0 && !got) {
    error = dav1d_send_data(context, &input);
    int waiting = error == DAV1D_ERR(EAGAIN);  // a picture waits: take it below, then send the rest
    if (waiting) error = 0;
    if (error < 0) break;
    int status = dav1d_get_picture(context, &picture);
    if (status == 0) got = 1;
    else if (status != DAV1D_ERR(EAGAIN)) error = status;
    else if (waiting) error = fail(DAV1D_ERR(EINVAL), "the decoder neither takes data nor gives a picture");  // never spin
  }
  for (int drain = 0; error >= 0 && !got && drain < 4; drain++) {
    int status = dav1d_get_picture(context, &picture);
    if (status == 0) got = 1;
    else if (status != DAV1D_ERR(EAGAIN)) error = status;
  }
  if (input.sz > 0) dav1d_data_unref(&input);
  dav1d_close(&context);  // the picture keeps its own reference to its planes
  if (error < 0) {
    if (got) dav1d_picture_unref(&picture);
    if (max_pixels > 0 && error == DAV1D_ERR(EINVAL) && strstr(message, "size limit") != NULL) return TOO_MANY_PIXELS;
    if (message[0] == 0) snprintf(message, sizeof message, "dav1d error %d", error);
    return status_of(error);
  }
  if (!got) return fail(CORRUPT, "the item holds no complete AV1 frame");
  if (picture.p.bpc != 8 && picture.p.bpc != 10 && picture.p.bpc != 12) {
    dav1d_picture_unref(&picture);
    return fail(UNSUPPORTED, "%d-bit samples", picture.p.bpc);
  }
  pictures[slot] = picture;
  held[slot] = 1;
  const Dav1dSequenceHeader *sequence = picture.seq_hdr;
  info[0] = (uint32_t)picture.p.w;
  info[1] = (uint32_t)picture.p.h;
  info[2] = (uint32_t)picture.p.bpc;
  info[3] = (uint32_t)picture.p.layout;
  info[4] = (uint32_t)sequence->mtrx;
  info[5] = (uint32_t)sequence->color_range;
  info[6] = (uint32_t)sequence->pri;
  info[7] = (uint32_t)sequence->trc;
  info[8] = picture.frame_hdr && picture.frame_hdr->all_lossless ? 1 : 0;
  return OK;
}

// Kr and Kb of the colour primaries' white point and red/blue, for matrix 12 (chromaticity-derived):
// the luma row of the RGB → XYZ matrix (H.273, equations for MatrixCoefficients 12).
static int derive_weights(int primaries, float *kr, float *kb) {
  // xR, yR, xG, yG, xB, yB, xW, yW for the primaries H.273 lists (1 BT.709, 4 BT.470M, 5 BT.470BG,
  // 6/7 SMPTE 170M/240M, 8 generic film, 9 BT.2020, 10 XYZ, 11 DCI-P3, 12 Display P3, 22 EBU 3213).
  static const struct { int code; double p[8]; } table[] = {
      {1, {0.64, 0.33, 0.30, 0.60, 0.15, 0.06, 0.3127, 0.3290}},
      {4, {0.67, 0.33, 0.21, 0.71, 0.14, 0.08, 0.310, 0.316}},
      {5, {0.64, 0.33, 0.29, 0.60, 0.15, 0.06, 0.3127, 0.3290}},
      {6, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},
      {7, {0.630, 0.340, 0.310, 0.595, 0.155, 0.070, 0.3127, 0.3290}},
      {8, {0.681, 0.319, 0.243, 0.692, 0.145, 0.049, 0.310, 0.316}},
      {9, {0.708, 0.292, 0.170, 0.797, 0.131, 0.046, 0.3127, 0.3290}},
      {10, {1.0, 0.0, 0.0, 1.0, 0.0, 0.0, 1.0 / 3, 1.0 / 3}},
      {11, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.314, 0.351}},
      {12, {0.680, 0.320, 0.265, 0.690, 0.150, 0.060, 0.3127, 0.3290}},
      {22, {0.630, 0.340, 0.295, 0.605, 0.155, 0.077, 0.3127, 0.3290}},
  };
  for (size_t i = 0; i < sizeof table / sizeof table[0]; i++) {
    if (table[i].code != primaries) continue;
    const double *p = table[i].p;
    double zr = 1 - (p[0] + p[1]), zg = 1 - (p[2] + p[3]), zb = 1 - (p[4] + p[5]), zw = 1 - (p[6] + p[7]);
    double xw = p[6] / p[7], yw = 1, zwn = zw / p[7];
    // Solve for the Y contribution of each primary so that R = G = B = 1 gives the white point.
    double m[3][3] = {{p[0], p[2], p[4]}, {p[1], p[3], p[5]}, {zr, zg, zb}};
    double det = m[0][0] * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (m[1][0] * m[2][2] - m[1][2] * m[2][0]) +
                 m[0][2] * (m[1][0] * m[2][1] - m[1][1] * m[2][0]);
    if (fabs(det) < 1e-12) return 0;
    double sr = (xw * (m[1][1] * m[2][2] - m[1][2] * m[2][1]) - m[0][1] * (yw * m[2][2] - m[1][2] * zwn) + m[0][2] * (yw * m[2][1] - m[1][1] * zwn)) / det;
    double sb = (m[0][0] * (m[1][1] * zwn - yw * m[2][1]) - m[0][1] * (m[1][0] * zwn - yw * m[2][0]) + xw * (m[1][0] * m[2][1] - m[1][1] * m[2][0])) / det;
    *kr = (float)(sr * p[1]);
    *kb = (float)(sb * p[5]);
    return 1;
  }
  return 0;
}

// Sets how rows are converted: matrix coefficients, whether colour and alpha samples use the full
// range, the primaries (for matrix 12), and whether colour is premultiplied by alpha (an iref `prem`).
// Returns 0, or UNSUPPORTED for a matrix this decoder does not convert.
__attribute__((export_name("prepare_rgba"))) int prepare_rgba(uint32_t matrix, uint32_t full_range, uint32_t alpha_full_range, uint32_t primaries, uint32_t premultiplied) {
  if (!held[0]) return fail(CORRUPT, "no image decoded");
  int bits = pictures[0].p.bpc;
  float max = (float)((1 << bits) - 1), unit = (float)(1 << (bits - 8));
  colour.matrix = (int)matrix;
  colour.premultiplied = (int)premultiplied;
  switch (matrix) {
    case 0: case 8: colour.kr = 0; colour.kb = 0; break;
    case 1: colour.kr = 0.2126f; colour.kb = 0.0722f; break;
    case 4: colour.kr = 0.30f; colour.kb = 0.11f; break;
    case 2: case 5: case 6: colour.kr = 0.299f; colour.kb = 0.114f; break;  // unspecified: BT.601, as libavif
    case 7: colour.kr = 0.212f; colour.kb = 0.087f; break;
    case 9: colour.kr = 0.2627f; colour.kb = 0.0593f; break;
    case 12:
      if (!derive_weights((int)primaries, &colour.kr, &colour.kb)) return fail(UNSUPPORTED, "chromaticity-derived matrix with colour primaries %u", primaries);
      break;
    default: return fail(UNSUPPORTED, "matrix coefficients %u (constant-luminance or ICtCp)", matrix);
  }
  if (full_range || matrix == 0) {
    colour.y_offset = 0, colour.y_scale = 1 / max;
  } else {
    colour.y_offset = 16 * unit, colour.y_scale = 1 / (219 * unit);
  }
  if (matrix == 0) {  // identity: G, B, R stored as they are, each with the luma range
    colour.c_offset = colour.y_offset, colour.c_scale = colour.y_scale;
  } else if (full_range) {
    colour.c_offset = 128 * unit, colour.c_scale = 1 / max;
  } else {
    colour.c_offset = 128 * unit, colour.c_scale = 1 / (224 * unit);
  }
  if (held[1] && (pictures[1].p.w != pictures[0].p.w || pictures[1].p.h != pictures[0].p.h)) {
    return fail(CORRUPT, "the alpha image is %dx%d, the colour image %dx%d", pictures[1].p.w, pictures[1].p.h, pictures[0].p.w, pictures[0].p.h);
  }
  if (held[1]) {
    float alpha_max = (float)((1 << pictures[1].p.bpc) - 1), alpha_unit = (float)(1 << (pictures[1].p.bpc - 8));
    if (alpha_full_range) colour.a_offset = 0, colour.a_scale = 1 / alpha_max;
    else colour.a_offset = 16 * alpha_unit, colour.a_scale = 1 / (219 * alpha_unit);
  }
  return OK;
}

static inline float sample(const Dav1dPicture *picture, int plane, int x, int y) {
  ptrdiff_t stride = picture->stride[plane > 0];
  const uint8_t *row = (const uint8_t *)picture->data[plane] + y * stride;
  return picture->p.bpc == 8 ? row[x] : ((const uint16_t *)row)[x];
}

static inline float clamp01(float value) { return value < 0 ? 0 : value > 1 ? 1 : value; }

// One pixel from luma y and centred chroma cb, cr (code values minus offset), as R'G'B' in [0, 1].
static inline void to_rgb(float y, float cb, float cr, float rgb[3]) {
  float luma = (y - colour.y_offset) * colour.y_scale;
  cb *= colour.c_scale;
  cr *= colour.c_scale;
  if (colour.matrix == 0) {
    rgb[0] = cr, rgb[1] = luma, rgb[2] = cb;  // the planes hold G, B, R, all with the luma range
  } else if (colour.matrix == 8) {
    float t = luma - cb;
    rgb[0] = t + cr, rgb[1] = luma + cb, rgb[2] = t - cr;
  } else {
    float kr = colour.kr, kb = colour.kb, kg = 1 - kr - kb;
    rgb[0] = luma + 2 * (1 - kr) * cr;
    rgb[2] = luma + 2 * (1 - kb) * cb;
    rgb[1] = luma - (2 * kb * (1 - kb) / kg) * cb - (2 * kr * (1 - kr) / kg) * cr;
  }
  for (int c = 0; c < 3; c++) rgb[c] = clamp01(rgb[c]);
}

static inline float alpha_at(int x, int y) {
  if (!held[1]) return 1;
  return clamp01((sample(&pictures[1], 0, x, y) - colour.a_offset) * colour.a_scale);
}

static inline uint8_t to8(float value) { return (uint8_t)(value * 255 + 0.5f); }

// Straight alpha from premultiplied colour.
static inline void unpremultiply(float rgb[3], float alpha) {
  if (!colour.premultiplied || alpha >= 1) return;
  for (int c = 0; c < 3; c++) rgb[c] = alpha <= 0 ? 0 : clamp01(rgb[c] / alpha);
}

// Chroma of source row `y` at every luma column, centred, bilinear between chroma sample centres (the
// 9:3:3:1 weights of 2× upsampling), into out[0..width) (Cb) and out[width..2·width) (Cr).
static void chroma_row(const Dav1dPicture *picture, int y, float *out) {
  int width = picture->p.w, layout = picture->p.layout;
  int ss_x = layout == DAV1D_PIXEL_LAYOUT_I420 || layout == DAV1D_PIXEL_LAYOUT_I422;
  int ss_y = layout == DAV1D_PIXEL_LAYOUT_I420;
  int chroma_width = (width + ss_x) >> ss_x, chroma_height = (picture->p.h + ss_y) >> ss_y;
  int near = y >> ss_y, far = near;
  float near_weight = 1;
  if (ss_y) {
    far = (y & 1) ? near + 1 : near - 1;
    if (far < 0) far = 0;
    if (far >= chroma_height) far = chroma_height - 1;
    near_weight = 0.75f;
  }
  for (int plane = 1; plane <= 2; plane++) {
    float *to = out + (plane - 1) * width;
    for (int x = 0; x < width; x++) {
      int cx = x >> ss_x, other = cx;
      float weight = 1;
      if (ss_x) {
        other = (x & 1) ? cx + 1 : cx - 1;
        if (other < 0) other = 0;
        if (other >= chroma_width) other = chroma_width - 1;
        weight = 0.75f;
      }
      float a = weight * sample(picture, plane, cx, near) + (1 - weight) * sample(picture, plane, other, near);
      float b = weight * sample(picture, plane, cx, far) + (1 - weight) * sample(picture, plane, other, far);
      to[x] = near_weight * a + (1 - near_weight) * b - colour.c_offset;
    }
  }
}

static int reserve_chroma(size_t floats) {
  if (floats <= chroma_capacity) return 1;
  float *grown = realloc(chroma_rows, floats * sizeof(float));
  if (!grown) return 0;
  chroma_rows = grown;
  chroma_capacity = floats;
  return 1;
}

// Writes output rows [y, y + rows), columns [0, columns), of the slot-0 image shrunk by `factor`, as
// straight-alpha RGBA8 to `out`, `stride` bytes apart; alpha from slot 1 when it holds an image. An
// output pixel is the mean of the factor×factor block it covers (edge blocks: what lies inside).
// Returns 0 or OUT_OF_MEMORY.
__attribute__((export_name("rgba_rows"))) int rgba_rows(uint8_t *out, uint32_t stride, uint32_t y, uint32_t rows, uint32_t columns, uint32_t factor) {
  const Dav1dPicture *picture = &pictures[0];
  int width = picture->p.w, height = picture->p.h, f = (int)factor;
  int mono = picture->p.layout == DAV1D_PIXEL_LAYOUT_I400;
  int ss_x = picture->p.layout == DAV1D_PIXEL_LAYOUT_I420 || picture->p.layout == DAV1D_PIXEL_LAYOUT_I422;
  int ss_y = picture->p.layout == DAV1D_PIXEL_LAYOUT_I420;
  if (f == 1) {
    if (!mono && !reserve_chroma((size_t)width * 2)) return fail(OUT_OF_MEMORY, "no memory for a chroma row");
    for (uint32_t row = 0; row < rows; row++) {
      int source = (int)(y + row);
      if (!mono) chroma_row(picture, source, chroma_rows);
      uint8_t *to = out + row * stride;
      for (uint32_t x = 0; x < columns; x++) {
        float rgb[3];
        float cb = mono ? 0 : chroma_rows[x], cr = mono ? 0 : chroma_rows[width + x];
        to_rgb(sample(picture, 0, (int)x, source), cb, cr, rgb);
        float alpha = alpha_at((int)x, source);
        unpremultiply(rgb, alpha);
        to[x * 4] = to8(rgb[0]), to[x * 4 + 1] = to8(rgb[1]), to[x * 4 + 2] = to8(rgb[2]), to[x * 4 + 3] = to8(alpha);
      }
    }
    return OK;
  }
  if (!reserve_chroma((size_t)columns * 4)) return fail(OUT_OF_MEMORY, "no memory for a row of sums");
  for (uint32_t row = 0; row < rows; row++) {
    float *sums = chroma_rows;
    memset(sums, 0, columns * 4 * sizeof(float));
    int top = (int)(y + row) * f, bottom = top + f < height ? top + f : height;
    for (uint32_t x = 0; x < columns; x++) {
      int left = (int)x * f, right = left + f < width ? left + f : width;
      float *sum = sums + x * 4;
      for (int sy = top; sy < bottom; sy++) {
        for (int sx = left; sx < right; sx++) {
          float rgb[3];
          float cb = mono ? 0 : sample(picture, 1, sx >> ss_x, sy >> ss_y) - colour.c_offset;
          float cr = mono ? 0 : sample(picture, 2, sx >> ss_x, sy >> ss_y) - colour.c_offset;
          to_rgb(sample(picture, 0, sx, sy), cb, cr, rgb);
          // Averaged premultiplied, so transparent pixels lend the block no colour.
          float alpha = alpha_at(sx, sy), weight = colour.premultiplied ? 1 : alpha;
          sum[0] += rgb[0] * weight, sum[1] += rgb[1] * weight, sum[2] += rgb[2] * weight, sum[3] += alpha;
        }
      }
      float count = (float)((bottom - top) * (right - left));
      uint8_t *to = out + row * stride + x * 4;
      for (int c = 0; c < 3; c++) to[c] = sum[3] > 0 ? to8(clamp01(sum[c] / sum[3])) : 0;
      to[3] = to8(sum[3] / count);
    }
  }
  return OK;
}
