// glimpse's TIFF decoder: a thin layer over libtiff 4.5 (Debian's source with its security patches),
// with zlib for Deflate and libjpeg-turbo for JPEG-in-TIFF, built for wasm32.
//
// libtiff's RGBA interface does the photometric work: gray, palette, RGB, CMYK, YCbCr and CIELab; 1 to
// 16 bits per sample; contiguous or planar; strips or tiles. It hands out 8-bit RGBA, read a band of
// rows at a time, so the host never needs the whole image inside the instance. The first page (IFD) is
// read; pixels come in stored order (the host applies the Orientation tag like EXIF's).

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include "tiffio.h"

__attribute__((import_module("env"), import_name("fail"))) _Noreturn void host_fail(const char *message);

static char message[512];

static void record_error(const char *module, const char *format, va_list arguments) {
  int used = module ? snprintf(message, sizeof message, "%s: ", module) : 0;
  if (used < 0 || (size_t)used >= sizeof message) used = 0;
  vsnprintf(message + used, sizeof message - (size_t)used, format, arguments);
}

static void ignore_warning(const char *module, const char *format, va_list arguments) {
  (void)module;
  (void)format;
  (void)arguments;
}

// libtiff's JPEG codecs call this where they would longjmp out of libjpeg (see setjmp.h): the error
// was already recorded, and the host ends the decode.
_Noreturn void glimpse_jpeg_abort(void) { host_fail(message[0] ? message : "JPEG data in the TIFF is damaged"); }

// The file, read in place from the instance's memory.
static struct {
  const uint8_t *data;
  toff_t size;
  toff_t position;
} file;

static tmsize_t read_file(thandle_t handle, void *buffer, tmsize_t size) {
  (void)handle;
  if (file.position >= file.size || size <= 0) return 0;
  toff_t available = file.size - file.position;
  toff_t count = (toff_t)size < available ? (toff_t)size : available;
  memcpy(buffer, file.data + file.position, (size_t)count);
  file.position += count;
  return (tmsize_t)count;
}

static tmsize_t write_file(thandle_t handle, void *buffer, tmsize_t size) {
  (void)handle;
  (void)buffer;
  (void)size;
  return -1;
}

static toff_t seek_file(thandle_t handle, toff_t offset, int whence) {
  (void)handle;
  toff_t base = whence == SEEK_CUR ? file.position : whence == SEEK_END ? file.size : 0;
  file.position = base + offset;
  return file.position;
}

static int close_file(thandle_t handle) {
  (void)handle;
  return 0;
}

static toff_t size_file(thandle_t handle) {
  (void)handle;
  return file.size;
}

// "Mapping" the file hands libtiff the bytes themselves, so raw strips are read without a copy.
static int map_file(thandle_t handle, void **base, toff_t *size) {
  (void)handle;
  *base = (void *)file.data;
  *size = file.size;
  return 1;
}

static void unmap_file(thandle_t handle, void *base, toff_t size) {
  (void)handle;
  (void)base;
  (void)size;
}

static TIFF *tiff;
static TIFFRGBAImage image;
static int unpremultiply;

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }

// The text of the last failure, NUL-terminated.
__attribute__((export_name("error_message"))) const char *error_message(void) { return message; }

// Opens the first page and prepares RGBA reading. Returns 1, or 0 with error_message() set.
// info[0..4] = width, height, has alpha, rows per strip or tile height (a good band), bits per sample.
__attribute__((export_name("open_file"))) int open_file(const uint8_t *data, uint32_t size, uint32_t *info) {
  TIFFSetErrorHandler(record_error);
  TIFFSetWarningHandler(ignore_warning);
  file.data = data;
  file.size = size;
  file.position = 0;
  tiff = TIFFClientOpen("input", "rm", NULL, read_file, write_file, seek_file, close_file, size_file, map_file, unmap_file);
  if (!tiff) return 0;
  char reason[1024] = "";
  if (!TIFFRGBAImageOK(tiff, reason) || !TIFFRGBAImageBegin(&image, tiff, 0, reason)) {
    if (reason[0]) snprintf(message, sizeof message, "%s", reason);
    return 0;
  }
  // Stored order: the host turns the image upright from the Orientation tag.
  image.req_orientation = image.orientation;
  // The RGBA interface premultiplies unassociated alpha through this table; an identity table keeps
  // the samples straight (no rounding loss). Associated alpha arrives premultiplied and is divided out.
  if (image.alpha == EXTRASAMPLE_UNASSALPHA && image.UaToAa) {
    for (uint32_t alpha = 0; alpha < 256; alpha++) {
      for (uint32_t value = 0; value < 256; value++) image.UaToAa[(alpha << 8) + value] = (uint8_t)value;
    }
  }
  unpremultiply = image.alpha == EXTRASAMPLE_ASSOCALPHA;
  uint32_t band = 0;
  if (TIFFIsTiled(tiff)) TIFFGetField(tiff, TIFFTAG_TILELENGTH, &band);
  else TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &band);
  info[0] = image.width;
  info[1] = image.height;
  info[2] = image.alpha != 0;
  info[3] = band;
  info[4] = image.bitspersample;
  return 1;
}

// Reads rows [y, y + rows) as straight-alpha RGBA8 into `out`. Returns 1, or 0 with error_message() set.
__attribute__((export_name("read_rows"))) int read_rows(uint8_t *out, uint32_t y, uint32_t rows) {
  image.row_offset = (int)y;
  image.col_offset = 0;
  if (!TIFFRGBAImageGet(&image, (uint32_t *)out, image.width, rows)) {
    if (!message[0]) snprintf(message, sizeof message, "rows %u to %u could not be read", y, y + rows);
    return 0;
  }
  if (unpremultiply) {
    for (uint8_t *pixel = out, *end = out + (size_t)rows * image.width * 4; pixel < end; pixel += 4) {
      uint32_t alpha = pixel[3];
      if (alpha == 255) continue;
      for (int c = 0; c < 3; c++) {
        uint32_t value = alpha == 0 ? 0 : (pixel[c] * 255 + alpha / 2) / alpha;
        pixel[c] = (uint8_t)(value > 255 ? 255 : value);
      }
    }
  }
  return 1;
}
