// glimpse's PNG codec: a thin layer over libpng and zlib (Debian's source packages with their security
// patches), built for wasm32 without libpng's x86/ARM SIMD filters.
//
// decode_rgba turns every PNG kind (palette, tRNS, gray, gray+alpha, 1–16 bits, interlaced) into straight
// RGBA8. Gamma, iCCP, sRGB and cHRM are not applied: the pixels are passed on as stored, like browsers
// that ignore colour management do. An APNG decodes to its default image.
// encode_rgba writes an 8-bit, non-interlaced PNG with libpng's adaptive filtering: RGB when every pixel
// is opaque (a quarter less to compress), RGBA otherwise.
//
// Errors: libpng reports fatal errors through its error callback, which must not return. Ours calls the
// host's `fail` import, which throws; the stack unwinds through WASM and the caller discards the
// instance (one instance per call), so nothing leaks and no setjmp/longjmp is needed.

#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include "png.h"

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

// Chunks whose contents never change the decoded pixels: skipped unread (no inflating of big profiles
// or text, and a damaged one cannot fail the decode).
static const png_byte IGNORED_CHUNKS[] = {
    'i', 'C', 'C', 'P', '\0', 'i', 'T', 'X', 't', '\0', 't', 'E', 'X', 't', '\0', 'z', 'T', 'X', 't', '\0',
    'e', 'X', 'I', 'f', '\0', 's', 'P', 'L', 'T', '\0', 'h', 'I', 'S', 'T', '\0',
};

// Decodes to straight-alpha RGBA8 and returns the pixels; info[0..1] = width, height.
__attribute__((export_name("decode_rgba"))) uint8_t *decode_rgba(const uint8_t *data, uint32_t size, uint32_t *info) {
  png_structp png = png_create_read_struct(PNG_LIBPNG_VER_STRING, NULL, fail_with_message, ignore_warning);
  if (!png) host_fail("out of memory for the PNG decoder");
  png_infop header = png_create_info_struct(png);
  if (!header) host_fail("out of memory for the PNG decoder");
  struct memory_reader reader = {data, size, 0};
  png_set_read_fn(png, &reader, read_from_memory);
  png_set_keep_unknown_chunks(png, PNG_HANDLE_CHUNK_NEVER, IGNORED_CHUNKS, sizeof IGNORED_CHUNKS / 5);
  png_read_info(png, header);

  png_set_expand(png);        // palette → RGB, gray below 8 bits → 8, tRNS → alpha channel
  png_set_strip_16(png);      // 16-bit samples keep their high byte
  png_set_gray_to_rgb(png);
  png_set_add_alpha(png, 0xff, PNG_FILLER_AFTER);  // opaque alpha where the image has none
  png_set_interlace_handling(png);
  png_read_update_info(png, header);

  uint32_t width = png_get_image_width(png, header);
  uint32_t height = png_get_image_height(png, header);
  if (png_get_rowbytes(png, header) != (size_t)width * 4) host_fail("libpng did not produce RGBA8 rows");
  if ((uint64_t)width * height * 4 > 0x7fffffffu) host_fail("out of memory for the decoded PNG pixels");
  uint8_t *pixels = malloc((size_t)width * height * 4);
  png_bytep *rows = malloc((size_t)height * sizeof(png_bytep));
  if (!pixels || !rows) host_fail("out of memory for the decoded PNG pixels");
  for (uint32_t y = 0; y < height; y++) rows[y] = pixels + (size_t)y * width * 4;
  // Reads every pass of an interlaced image into the rows. The chunks after the image data (IEND,
  // trailing text) are not read: a file cut off after its last pixel still decodes.
  png_read_image(png, rows);
  png_destroy_read_struct(&png, &header, NULL);
  free(rows);
  info[0] = width;
  info[1] = height;
  return pixels;
}

struct memory_writer {
  uint8_t *data;
  size_t size;
  size_t capacity;
};

static void write_to_memory(png_structp png, png_bytep bytes, size_t length) {
  struct memory_writer *writer = png_get_io_ptr(png);
  if (length > writer->capacity - writer->size) {
    size_t capacity = writer->capacity * 2;
    while (capacity - writer->size < length) capacity *= 2;
    uint8_t *grown = realloc(writer->data, capacity);
    if (!grown) png_error(png, "out of memory for the encoded PNG");
    writer->data = grown;
    writer->capacity = capacity;
  }
  memcpy(writer->data + writer->size, bytes, length);
  writer->size += length;
}

static void flush_nothing(png_structp png) { (void)png; }

static int every_pixel_opaque(const uint8_t *rgba, size_t pixels) {
  for (size_t i = 0; i < pixels; i++) {
    if (rgba[i * 4 + 3] != 255) return 0;
  }
  return 1;
}

// Encodes RGBA8 as PNG at zlib `level` (0–9); info[0] = byte length.
__attribute__((export_name("encode_rgba"))) uint8_t *encode_rgba(
    const uint8_t *rgba, uint32_t width, uint32_t height, uint32_t level, uint32_t *info) {
  int opaque = every_pixel_opaque(rgba, (size_t)width * height);
  png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, fail_with_message, ignore_warning);
  if (!png) host_fail("out of memory for the PNG encoder");
  png_infop header = png_create_info_struct(png);
  if (!header) host_fail("out of memory for the PNG encoder");
  struct memory_writer writer = {malloc(65536), 0, 65536};
  if (!writer.data) host_fail("out of memory for the encoded PNG");
  png_set_write_fn(png, &writer, write_to_memory, flush_nothing);
  png_set_IHDR(png, header, width, height, 8, opaque ? PNG_COLOR_TYPE_RGB : PNG_COLOR_TYPE_RGB_ALPHA,
               PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
  png_set_compression_level(png, (int)level);
  png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_ALL_FILTERS);
  // Fewer, larger IDAT chunks: 12 bytes of framing per 64 KB instead of per 8 KB.
  png_set_compression_buffer_size(png, 65536);
  png_write_info(png, header);
  if (opaque) png_set_filler(png, 0, PNG_FILLER_AFTER);  // on write: drops the 4th byte of each pixel
  for (uint32_t y = 0; y < height; y++) png_write_row(png, rgba + (size_t)y * width * 4);
  png_write_end(png, header);
  png_destroy_write_struct(&png, &header);
  info[0] = (uint32_t)writer.size;
  return writer.data;
}
