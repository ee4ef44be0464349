// glimpse's PNG codec: a thin layer over libpng and zlib (Debian's source packages with their security
// patches), built for wasm32 without libpng's x86/ARM SIMD filters.
//
// decode_start/rows/finish turn every PNG kind (palette, tRNS, gray, gray+alpha, 1–16 bits, interlaced) into straight
// RGBA8. Gamma, iCCP, sRGB and cHRM are not applied: the pixels are passed on as stored, like browsers
// that ignore colour management do. An APNG decodes to its default image.
// encode_start/rows/finish write an 8-bit, non-interlaced PNG with adaptive filtering over zlib: RGB when every pixel
// is opaque (a quarter less to compress), RGBA otherwise.
//
// Errors: libpng reports fatal errors through its error callback, which must not return. Ours calls the
// host's `fail` import, which throws; the stack unwinds through WASM and the caller discards the
// instance (one instance per call), so nothing leaks and no setjmp/longjmp is needed.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "png.h"
#include "zlib.h"
#include <wasm_simd128.h>

__attribute__((import_module("env"), import_name("fail"))) _Noreturn void host_fail(const char *message);

static void fail_with_message(png_structp png, png_const_charp message) {
  (void)png;
  host_fail(message);
}

static void ignore_warning(png_structp png, png_const_charp message) {
  (void)png;
  (void)message;
}

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }

// `verify` reads a file already in the instance's memory.
struct memory_reader {
  const uint8_t *data;
  size_t size;
  size_t offset;
};

static void read_from_memory(png_structp png, png_bytep out, size_t length) {
  struct memory_reader *reader = png_get_io_ptr(png);
  if (length > reader->size - reader->offset) png_error(png, "the PNG data ends early");
  memcpy(out, reader->data + reader->offset, length);
  reader->offset += length;
}

// The decoder's file is not copied into the instance whole: libpng reads it through a small buffer that the host
// refills with the file's next bytes (`read_input` copies up to `capacity` bytes to `out` and returns how
// many; 0 at the end). A 30 MB PNG photo then costs 64 KB of WASM memory instead of 30 MB.
__attribute__((import_module("env"), import_name("read_input")))
uint32_t host_read_input(uint8_t *out, uint32_t capacity);

#define INPUT_BUFFER_BYTES 65536u

struct host_reader {
  uint8_t buffer[INPUT_BUFFER_BYTES];
  uint32_t filled, offset;
};

static void read_from_host(png_structp png, png_bytep out, size_t length) {
  struct host_reader *reader = png_get_io_ptr(png);
  while (length > 0) {
    if (reader->offset == reader->filled) {
      reader->filled = host_read_input(reader->buffer, INPUT_BUFFER_BYTES);
      reader->offset = 0;
      if (reader->filled == 0) png_error(png, "the PNG data ends early");
    }
    size_t part = reader->filled - reader->offset < length ? reader->filled - reader->offset : length;
    memcpy(out, reader->buffer + reader->offset, part);
    reader->offset += (uint32_t)part;
    out += part;
    length -= part;
  }
}

// Chunks whose contents never change the decoded pixels: skipped unread (no inflating of big profiles
// or text, and a damaged one cannot fail the decode).
static const png_byte IGNORED_CHUNKS[] = {
    'i', 'C', 'C', 'P', '\0', 'i', 'T', 'X', 't', '\0', 't', 'E', 'X', 't', '\0', 'z', 'T', 'X', 't', '\0',
    'e', 'X', 'I', 'f', '\0', 's', 'P', 'L', 'T', '\0', 'h', 'I', 'S', 'T', '\0',
};

// Whether all `pixels` RGBA8 pixels have alpha 255: ANDs the alpha bytes a block at a time (the loop
// vectorises), stopping at the first block with a non-opaque pixel.
static int every_pixel_opaque(const uint8_t *rgba, size_t pixels) {
  for (size_t start = 0; start < pixels; start += 4096) {
    size_t end = pixels - start < 4096 ? pixels : start + 4096;
    uint8_t alpha = 255;
    for (size_t i = start; i < end; i++) alpha &= rgba[i * 4 + 3];
    if (alpha != 255) return 0;
  }
  return 1;
}

// Decoding runs in steps so the host can take the pixels a band of rows at a time: the instance then
// never holds the whole image (a 6 MP screenshot: 3 MB of WASM memory instead of 27, which the host
// would fault in page by page only to copy it out). One decode per instance (a fresh instance per call).
static struct {
  png_structp png;
  png_infop header;
  struct host_reader reader;
  uint32_t width, height, passes, rows_read;
  int may_have_alpha, opaque;
} decoder;

// Reads the header (the file comes from the host's read_input) and sets up decoding to straight-alpha
// RGBA8; info[0..2] = width, height, passes (1, or 7 for an interlaced image, whose rows must all be read
// into the same place once per pass).
__attribute__((export_name("decode_start"))) void decode_start(uint32_t *info) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, fail_with_message, ignore_warning);
  if (!png) host_fail("out of memory for the PNG decoder");
  png_infop header = png_create_info_struct(png);
  if (!header) host_fail("out of memory for the PNG decoder");
  decoder.png = png;
  decoder.header = header;
  decoder.reader.filled = decoder.reader.offset = 0;
  png_set_read_fn(png, &decoder.reader, read_from_host);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, IGNORED_CHUNKS, sizeof IGNORED_CHUNKS / 5);
  // No chunk CRCs and no zlib Adler-32: damaged image data still fails inside inflate (bad codes,
  // distances, lengths) or as missing rows, and checksums cost a pass over every byte. A flipped bit
  // that inflate accepts gives wrong pixels instead of an error, as in browsers, which skip them too.
  png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
  png_set_option(png, PNG_IGNORE_ADLER32, PNG_OPTION_ON);
  png_read_info(png, header);
  decoder.may_have_alpha = (png_get_color_type(png, header) & PNG_COLOR_MASK_ALPHA) != 0 || png_get_valid(png, header, PNG_INFO_tRNS);
  decoder.opaque = 1;

  png_set_expand(png);        // palette → RGB, gray below 8 bits → 8, tRNS → alpha channel
  png_set_strip_16(png);      // 16-bit samples keep their high byte
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);  // opaque alpha where the image has none
  decoder.passes = (uint32_t)png_set_interlace_handling(png);
  png_read_update_info(png, header);

  decoder.width = png_get_image_width(png, header);
  decoder.height = png_get_image_height(png, header);
  if (png_get_rowbytes(png, header) != (size_t)decoder.width * 4) host_fail("libpng did not produce RGBA8 rows");
  if ((uint64_t)decoder.width * decoder.height * 4 > 0x7fffffffu) host_fail("out of memory for the decoded PNG pixels");
  info[0] = decoder.width;
  info[1] = decoder.height;
  info[2] = decoder.passes;
}

// Reads the next `count` rows into `out` (rows of width × 4 bytes, back to back); libpng unfilters each
// row straight into place. An interlaced image is read as `passes` sweeps of all its rows over the same
// buffer. Rows of the last pass are checked for alpha below 255 while they are still in cache.
__attribute__((export_name("decode_rows"))) void decode_rows(uint8_t *out, uint32_t count) {
  size_t row_bytes = (size_t)decoder.width * 4;
  int last_pass = decoder.rows_read >= (decoder.passes - 1) * decoder.height;
  for (uint32_t i = 0; i < count; i++) {
    uint8_t *row = out + i * row_bytes;
    png_read_row(decoder.png, row, NULL);
    if (last_pass && decoder.may_have_alpha && decoder.opaque) decoder.opaque = every_pixel_opaque(row, decoder.width);
  }
  decoder.rows_read += count;
}

// Ends the decode and returns 1 when some pixel is not fully opaque. The chunks after the image data
// (IEND, trailing text) are not read: a file cut off after its last pixel still decodes.
__attribute__((export_name("decode_finish"))) uint32_t decode_finish(void) {
  if (decoder.rows_read != decoder.passes * decoder.height) host_fail("the PNG decoder was not given every row");
  png_destroy_read_struct(&decoder.png, &decoder.header, NULL);
  return decoder.opaque ? 0 : 1;
}

// The first warning of a `verify` read (libpng formats chunk warnings in a stack buffer: keep a copy).
static char first_warning[160];

static void note_first_warning(png_structp png, png_const_charp message) {
  (void)png;
  if (!first_warning[0]) strncpy(first_warning, message, sizeof first_warning - 1);
}

// Reads the whole file as a strict libpng reader does, keeping no pixels: every chunk's CRC, the lengths
// and placement of the ancillary chunks libpng knows, the image data inflated through its Adler-32 with
// every row's filter type, and on through IEND. What libpng cannot read fails through the host; what it
// reads with a warning (a damaged or misplaced ancillary chunk, a bad checksum after the last row, too
// much image data) is returned as the first warning's text, NULL when there was none. Rows are read raw,
// one at a time into one buffer. (The sRGB profile check is off: it judges colour data, not the file.)
// `data` NULL: the file comes from the host's read_input, 64 KB at a time, as for decoding (the instance
// then never holds all of it). VERIFY_CRCS_CHECKED in `flags`: the caller has checked every chunk's CRC of
// these same bytes (the structural check), so libpng does not compute them again.
#define VERIFY_CRCS_CHECKED 1u

__attribute__((export_name("verify"))) const char *verify(const uint8_t *data, uint32_t size, uint32_t flags) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, fail_with_message, note_first_warning);
  if (!png) host_fail("out of memory for the PNG decoder");
  png_infop header = png_create_info_struct(png);
  png_infop trailer = png_create_info_struct(png);
  if (!header || !trailer) host_fail("out of memory for the PNG decoder");
  struct memory_reader reader = {data, size, 0};
  if (data) {
    png_set_read_fn(png, &reader, read_from_memory);
  } else {
    decoder.reader.filled = decoder.reader.offset = 0;
    png_set_read_fn(png, &decoder.reader, read_from_host);
  }
  if (flags & VERIFY_CRCS_CHECKED) png_set_crc_action(png, PNG_CRC_QUIET_USE, PNG_CRC_QUIET_USE);
  png_set_option(png, PNG_SKIP_sRGB_CHECK_PROFILE, PNG_OPTION_ON);
  first_warning[0] = '\0';
  png_read_info(png, header);
  uint32_t passes = (uint32_t)png_set_interlace_handling(png);
  png_read_update_info(png, header);
  uint32_t height = png_get_image_height(png, header);
  png_bytep row = malloc(png_get_rowbytes(png, header));
  if (!row) host_fail("out of memory for the PNG decoder");
  for (uint32_t pass = 0; pass < passes; pass++)
    for (uint32_t y = 0; y < height; y++) png_read_row(png, row, NULL);
  png_read_end(png, trailer);
  free(row);
  png_destroy_read_struct(&png, &header, &trailer);
  return first_warning[0] ? first_warning : NULL;
}

// The encoder writes the PNG itself, over zlib: libpng's writer spent half its time choosing each row's
// filter one byte at a time, while filter_row below computes all five filters and their costs 16 bytes
// at a time (SIMD128 intrinsics: 12 ms less than auto-vectorised loops on 2000×1299). Same choice rule
// (the filter whose output has the smallest sum of absolute signed bytes, libpng's heuristic), same
// files; a 2000×1250 screenshot at zlib level 3 encodes in 50 ms instead of 78 (measured).

// The PNG is kept in blocks of OUTPUT_BLOCK bytes, each allocated once: a buffer that doubles as it grows
// is moved by each realloc (wasi-libc's dlmalloc extends a chunk in place only within memory it already
// has), leaving the old one behind: a 4.9 MB PNG (a 2000×1500 RGBA photo) took a 16.9 MB instance, in
// blocks 6.0 MB. The host copies the blocks out in order (encode_finish).
// With a `limit` (0: none), the PNG is given up as soon as it would pass that many bytes: `over` is set
// and nothing more is kept. A caller that only wants the PNG if it fits (the fit, which has a lossy
// encoding to fall back on) stops there instead of finishing it: the same photo given up at 3.75 MB took
// a 5.0 MB instance, and its last quarter of rows was never compressed.
#define OUTPUT_BLOCK (1u << 20)

struct output {
  uint8_t **blocks;
  size_t count, slots;  // blocks in use, room in `blocks`
  size_t size;          // bytes in all blocks
  size_t limit;
  int over;
};

static void append(struct output *out, const uint8_t *bytes, size_t length) {
  if (out->over) return;
  if (out->limit != 0 && length > out->limit - out->size) {
    out->over = 1;
    return;
  }
  while (length > 0) {
    size_t used = out->size % OUTPUT_BLOCK;
    if (used == 0 && out->size == out->count * OUTPUT_BLOCK) {
      if (out->count == out->slots) {
        size_t slots = out->slots == 0 ? 16 : out->slots * 2;
        uint8_t **grown = realloc(out->blocks, slots * sizeof *grown);
        if (!grown) host_fail("out of memory for the encoded PNG");
        out->blocks = grown;
        out->slots = slots;
      }
      out->blocks[out->count] = malloc(OUTPUT_BLOCK);
      if (!out->blocks[out->count]) host_fail("out of memory for the encoded PNG");
      out->count++;
    }
    size_t part = OUTPUT_BLOCK - used < length ? OUTPUT_BLOCK - used : length;
    memcpy(out->blocks[out->count - 1] + used, bytes, part);
    out->size += part;
    bytes += part;
    length -= part;
  }
}

static void put_be32(uint8_t *at, uint32_t value) {
  at[0] = (uint8_t)(value >> 24);
  at[1] = (uint8_t)(value >> 16);
  at[2] = (uint8_t)(value >> 8);
  at[3] = (uint8_t)value;
}

static void write_chunk(struct output *out, const char *type, const uint8_t *data, uint32_t length) {
  uint8_t header[8];
  put_be32(header, length);
  memcpy(header + 4, type, 4);
  append(out, header, 8);
  if (length > 0) append(out, data, length);
  // zlib's crc32() returns 0 for a NULL buffer instead of passing the running value through, so an
  // empty chunk (IEND) must not hand it its NULL data pointer.
  uLong crc_value = crc32(0, header + 4, 4);
  if (length > 0) crc_value = crc32(crc_value, data, length);
  uint8_t crc[4];
  put_be32(crc, (uint32_t)crc_value);
  append(out, crc, 4);
}

typedef uint8_t bytes16 __attribute__((vector_size(16)));

// RGBA → RGB, four pixels per shuffle. Each store writes 16 bytes for 12, so `rgb` needs 4 bytes of slack.
static void drop_alpha(const uint8_t *restrict rgba, size_t width, uint8_t *restrict rgb) {
  size_t x = 0;
  for (; x + 4 <= width; x += 4) {
    bytes16 pixels;
    memcpy(&pixels, rgba + x * 4, 16);
    bytes16 packed = __builtin_shufflevector(pixels, pixels, 0, 1, 2, 4, 5, 6, 8, 9, 10, 12, 13, 14, 0, 0, 0, 0);
    memcpy(rgb + x * 3, &packed, 16);
  }
  for (; x < width; x++) memcpy(rgb + x * 3, rgba + x * 4, 3);
}

// The five filters of one row and their costs, 16 bytes at a time (SIMD128). Each output byte is the
// row byte minus a prediction from "left" (a: the byte one pixel back), "up" (b) and "upper left" (c);
// the cost of a filtered row is the sum of its bytes taken as signed magnitudes (libpng's heuristic).

// Paeth's predictor for 8 samples in 16-bit lanes: a, b or c, whichever is nearest to a + b - c (ties
// prefer a, then b).
static v128_t paeth_half(v128_t a, v128_t b, v128_t c) {
  v128_t to_a = wasm_i16x8_abs(wasm_i16x8_sub(b, c));
  v128_t to_b = wasm_i16x8_abs(wasm_i16x8_sub(a, c));
  v128_t to_c = wasm_i16x8_abs(wasm_i16x8_sub(wasm_i16x8_add(a, b), wasm_i16x8_add(c, c)));
  v128_t nearer = wasm_v128_bitselect(b, c, wasm_i16x8_le(to_b, to_c));
  return wasm_v128_bitselect(a, nearer, wasm_v128_and(wasm_i16x8_le(to_a, to_b), wasm_i16x8_le(to_a, to_c)));
}

static v128_t paeth(v128_t a, v128_t b, v128_t c) {
  v128_t low = paeth_half(wasm_u16x8_extend_low_u8x16(a), wasm_u16x8_extend_low_u8x16(b), wasm_u16x8_extend_low_u8x16(c));
  v128_t high = paeth_half(wasm_u16x8_extend_high_u8x16(a), wasm_u16x8_extend_high_u8x16(b), wasm_u16x8_extend_high_u8x16(c));
  return wasm_u8x16_narrow_i16x8(low, high);
}

// Writes the row filtered as None, Sub, Up, Average and Paeth to out[0..4] (each needs 15 bytes of
// slack) and their costs to costs[0..4]. `row` and `above` must have `bpp` zero bytes before them (the
// first pixel's left and upper left) and be readable 15 bytes past `length`.
static void filter_row(const uint8_t *row, const uint8_t *above, size_t length, size_t bpp, uint8_t *const out[5], uint32_t costs[5]) {
  const v128_t lane = wasm_u8x16_make(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
  v128_t sums[5];
  for (int type = 0; type < 5; type++) sums[type] = wasm_i32x4_splat(0);
  for (size_t i = 0; i < length; i += 16) {
    v128_t x = wasm_v128_load(row + i);
    v128_t a = wasm_v128_load(row + i - bpp);
    v128_t b = wasm_v128_load(above + i);
    v128_t c = wasm_v128_load(above + i - bpp);
    // (a + b) >> 1: the rounding-up average, minus the bit it rounded up.
    v128_t average = wasm_i8x16_sub(wasm_u8x16_avgr(a, b), wasm_v128_and(wasm_v128_xor(a, b), wasm_i8x16_splat(1)));
    v128_t filtered[5] = {x, wasm_i8x16_sub(x, a), wasm_i8x16_sub(x, b), wasm_i8x16_sub(x, average), wasm_i8x16_sub(x, paeth(a, b, c))};
    // Bytes past the row's end are written (slack) but not counted.
    v128_t counted = i + 16 <= length ? wasm_i8x16_splat(-1) : wasm_u8x16_lt(lane, wasm_u8x16_splat((uint8_t)(length - i)));
    for (int type = 0; type < 5; type++) {
      wasm_v128_store(out[type] + i, filtered[type]);
      // |signed byte| read as unsigned is right for -128 too (0x80 = 128).
      v128_t magnitude = wasm_v128_and(wasm_i8x16_abs(filtered[type]), counted);
      sums[type] = wasm_i32x4_add(sums[type], wasm_u32x4_extadd_pairwise_u16x8(wasm_u16x8_extadd_pairwise_u8x16(magnitude)));
    }
  }
  for (int type = 0; type < 5; type++) {
    costs[type] = wasm_u32x4_extract_lane(sums[type], 0) + wasm_u32x4_extract_lane(sums[type], 1) +
                  wasm_u32x4_extract_lane(sums[type], 2) + wasm_u32x4_extract_lane(sums[type], 3);
  }
}

struct deflater {
  z_stream stream;
  struct output *out;
  uint8_t buffer[65536];  // one IDAT chunk's worth: 12 bytes of framing per 64 KB
};

static void deflate_bytes(struct deflater *d, const uint8_t *bytes, size_t length, int flush) {
  d->stream.next_in = (Bytef *)bytes;
  d->stream.avail_in = (uInt)length;
  for (;;) {
    int status = deflate(&d->stream, flush);
    if (status == Z_STREAM_ERROR) host_fail("zlib refused the PNG data");
    if (d->stream.avail_out == 0 || status == Z_STREAM_END) {
      write_chunk(d->out, "IDAT", d->buffer, (uint32_t)(sizeof d->buffer - d->stream.avail_out));
      d->stream.next_out = d->buffer;
      d->stream.avail_out = sizeof d->buffer;
    }
    if (status == Z_STREAM_END) return;
    if (flush == Z_NO_FLUSH && d->stream.avail_in == 0 && d->stream.avail_out > 0) return;
  }
}

// Encoding runs in steps too, so the host can hand the pixels over a band of rows at a time (the
// instance never holds the whole image): encode_opaque over every band first (RGB or RGBA is decided
// before the first row), then encode_start, encode_rows for every band in order, encode_finish.
static struct {
  struct output out;
  struct deflater *d;
  uint8_t *rows, *filtered;
  size_t bpp, length, stride, filtered_stride;
  uint32_t width, height, y;
  int opaque;
} encoder;

// Whether every one of `pixels` RGBA8 pixels at `rgba` is opaque.
__attribute__((export_name("encode_opaque"))) uint32_t encode_opaque(const uint8_t *rgba, uint32_t pixels) {
  return (uint32_t)every_pixel_opaque(rgba, pixels);
}

// Starts a PNG of width × height at zlib `level` (0–9): RGB when `opaque`, RGBA otherwise; given up once
// it would pass `limit` bytes (0: no limit).
__attribute__((export_name("encode_start"))) void encode_start(
    uint32_t width, uint32_t height, uint32_t level, uint32_t opaque, uint32_t limit) {
  if (width == 0 || height == 0) host_fail("a PNG needs at least one pixel");
  encoder.width = width;
  encoder.height = height;
  encoder.opaque = opaque != 0;
  encoder.bpp = opaque ? 3 : 4;
  encoder.length = (size_t)width * encoder.bpp;
  size_t padded = (encoder.length + 15) & ~(size_t)15;
  encoder.stride = 16 + padded + 16;           // zeros before each row (left of the first pixel), slack after
  encoder.rows = calloc(2, encoder.stride);    // this row and the one above, as stored (RGB or RGBA)
  encoder.filtered_stride = 1 + padded + 16;   // type byte, filtered row, slack
  encoder.filtered = malloc(5 * encoder.filtered_stride);
  encoder.d = malloc(sizeof *encoder.d);
  struct deflater *d = encoder.d;
  encoder.out = (struct output){NULL, 0, 0, 0, limit, 0};
  if (!encoder.rows || !encoder.filtered || !d) host_fail("out of memory for the PNG encoder");

  static const uint8_t SIGNATURE[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1a, '\n'};
  append(&encoder.out, SIGNATURE, 8);
  uint8_t header[13] = {0};
  put_be32(header, width);
  put_be32(header + 4, height);
  header[8] = 8;                           // bits per sample
  header[9] = opaque ? 2 : 6;              // RGB or RGBA; compression, filter, interlace methods 0
  write_chunk(&encoder.out, "IHDR", header, 13);

  memset(&d->stream, 0, sizeof d->stream);
  if (deflateInit2(&d->stream, (int)level, Z_DEFLATED, 15, 8, Z_FILTERED) != Z_OK) host_fail("out of memory for the PNG encoder");
  d->out = &encoder.out;
  d->stream.next_out = d->buffer;
  d->stream.avail_out = sizeof d->buffer;
}

// Filters and compresses the next `count` rows of RGBA8 at `rgba`. Returns 0 once the PNG has passed its
// limit (the rows are then ignored: the caller stops), else 1.
__attribute__((export_name("encode_rows"))) uint32_t encode_rows(const uint8_t *rgba, uint32_t count) {
  if (count > encoder.height - encoder.y) host_fail("the PNG encoder was given more rows than the image has");
  if (encoder.out.over) return 0;
  size_t length = encoder.length, stride = encoder.stride, filtered_stride = encoder.filtered_stride;
  uint8_t *filtered = encoder.filtered;
  uint8_t *const out[5] = {filtered + 1, filtered + filtered_stride + 1, filtered + 2 * filtered_stride + 1,
                           filtered + 3 * filtered_stride + 1, filtered + 4 * filtered_stride + 1};
  for (uint32_t i = 0; i < count; i++, encoder.y++) {
    uint32_t y = encoder.y;
    uint8_t *row = encoder.rows + (y & 1) * stride + 16;
    const uint8_t *above = encoder.rows + ((y & 1) ^ 1) * stride + 16;  // zeros before the first row
    const uint8_t *source = rgba + (size_t)i * encoder.width * 4;
    if (encoder.opaque) {
      drop_alpha(source, encoder.width, row);
    } else {
      memcpy(row, source, length);
    }
    uint32_t costs[5];
    filter_row(row, above, length, encoder.bpp, out, costs);
    int best = 0;
    for (int type = 1; type < 5; type++) {
      if (costs[type] < costs[best]) best = type;
    }
    uint8_t *chosen = filtered + best * filtered_stride;
    chosen[0] = (uint8_t)best;
    deflate_bytes(encoder.d, chosen, length + 1, Z_NO_FLUSH);
    if (encoder.out.over) return 0;
  }
  return 1;
}

// Ends the PNG. Returns where the pointers to its blocks are (OUTPUT_BLOCK bytes each, the last one
// partly filled); info[0] = byte length, info[1] = block count. Returns 0 (info[0] = 0) if the PNG passed
// its limit.
__attribute__((export_name("encode_finish"))) uint8_t **encode_finish(uint32_t *info) {
  if (encoder.y != encoder.height) host_fail("the PNG encoder was not given every row");
  deflate_bytes(encoder.d, NULL, 0, Z_FINISH);
  deflateEnd(&encoder.d->stream);
  write_chunk(&encoder.out, "IEND", NULL, 0);
  free(encoder.d);
  free(encoder.filtered);
  free(encoder.rows);
  info[1] = (uint32_t)encoder.out.count;
  if (encoder.out.over) {
    info[0] = 0;
    return 0;
  }
  info[0] = (uint32_t)encoder.out.size;
  return encoder.out.blocks;
}
