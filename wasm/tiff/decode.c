// glimpse's TIFF decoder: a thin layer over libtiff 4.5 (Debian's source with its security patches),
// with zlib for Deflate and libjpeg-turbo for JPEG-in-TIFF, built for wasm32.
//
// libtiff's RGBA interface does the photometric work: gray, palette, RGB, CMYK (8-bit contiguous
// without alpha; the rest is converted here), YCbCr and CIELab; 1 to 16 bits per sample; contiguous or
// planar; strips or tiles. It hands out 8-bit RGBA a band of rows at a time, so the host never needs the
// whole image inside the instance, nor the file (read through the host). The first page (IFD) is read;
// pixels come in stored order (the host applies the Orientation tag like EXIF's).

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

// libjpeg's warnings about damaged data in JPEG-in-TIFF (libtiff passes them on as module "JPEGLib"): libjpeg
// fills what it could not read and carries on, so the host must hear of it. Other warnings (unknown tags and
// the like) say nothing about the pixels and are ignored.
static char damage[256];

static void record_warning(const char *module, const char *format, va_list arguments) {
  if (damage[0] || !module || strcmp(module, "JPEGLib") != 0) return;
  char text[sizeof damage];
  vsnprintf(text, sizeof text, format, arguments);
  if (strncmp(text, "Corrupt JPEG data", 17) == 0 || strstr(text, "Premature end") != NULL)
    snprintf(damage, sizeof damage, "%s", text);
}

// libtiff's JPEG codecs call this where they would longjmp out of libjpeg (see setjmp.h): the error
// was already recorded, and the host ends the decode.
_Noreturn void glimpse_jpeg_abort(void) { host_fail(message[0] ? message : "JPEG data in the TIFF is damaged"); }

// The file stays with the host: libtiff asks for the bytes at an offset (the directory, a strip's or
// tile's compressed data) and `env.read_at` copies just those, so the instance never holds the file.
__attribute__((import_module("env"), import_name("read_at")))
uint32_t host_read_at(uint8_t *out, uint32_t offset, uint32_t capacity);

static struct {
  toff_t size;
  toff_t position;
} file;

static tmsize_t read_file(thandle_t handle, void *buffer, tmsize_t size) {
  (void)handle;
  if (file.position >= file.size || size <= 0) return 0;
  toff_t available = file.size - file.position;
  toff_t count = (toff_t)size < available ? (toff_t)size : available;
  // position < size <= UINT32_MAX, so both fit the import's 32-bit arguments.
  uint32_t copied = host_read_at(buffer, (uint32_t)file.position, (uint32_t)count);
  file.position += copied;
  return (tmsize_t)copied;
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

static TIFF *tiff;
static TIFFRGBAImage image;
static uint32_t width;
static tmsize_t scanline_bytes;
static int unpremultiply;

// libtiff's RGBA interface converts 8-bit CMYK only, drops its alpha, and takes separate planes only as
// 8-bit CMYK without alpha (holding a strip of every plane). CMYK that is 16-bit, has an alpha sample or is
// in separate planes is read here, in strips or tiles, and converted the way libtiff converts 8-bit CMYK
// (putRGBcontig8bitCMYKtile), from each sample's high byte, keeping the alpha sample.
static int cmyk;
static uint16_t cmyk_bits, cmyk_samples, cmyk_alpha; // cmyk_alpha: the alpha sample's index, 0 for none
static int cmyk_separate, cmyk_tiled;
static size_t cmyk_line_bytes; // a band row in strips: every sample of a row, contiguous or plane by plane
// Separate planes in strips: one libtiff handle per plane, each reading its own plane's scanlines in order,
// so no strip is decoded twice and none needs to be held whole (the scanline reader reads a strip in parts).
#define MAX_PLANES 16
static TIFF *planes[MAX_PLANES];
// Tiles: the tile at one position, every plane of it when separate (plane after plane), converted straight
// into the band of RGBA rows, so a band costs one row of tiles of RGBA and one tile of samples.
static uint32_t tile_width, tile_height;
static uint8_t *tile;
static tmsize_t tile_bytes, tile_row_bytes; // of one plane when separate

static int is_own_cmyk(void) {
  uint16_t photometric = 0, planar = 0, inkset = 0, format = 0, extras = 0, *types = NULL;
  if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric) || photometric != PHOTOMETRIC_SEPARATED) return 0;
  TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &cmyk_bits);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &planar);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &cmyk_samples);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_INKSET, &inkset);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &format);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_EXTRASAMPLES, &extras, &types);
  cmyk_alpha = 0;
  if (extras > 0 && cmyk_samples >= 5 && cmyk_samples - extras >= 4 &&
      (types[0] == EXTRASAMPLE_ASSOCALPHA || types[0] == EXTRASAMPLE_UNASSALPHA)) {
    cmyk_alpha = (uint16_t)(cmyk_samples - extras);
    unpremultiply = types[0] == EXTRASAMPLE_ASSOCALPHA;
  }
  cmyk_separate = planar == PLANARCONFIG_SEPARATE;
  cmyk_tiled = TIFFIsTiled(tiff);
  return (cmyk_bits == 16 || (cmyk_bits == 8 && (cmyk_alpha || cmyk_separate))) && format == SAMPLEFORMAT_UINT &&
         (planar == PLANARCONFIG_CONTIG || cmyk_separate) && cmyk_samples >= 4 && cmyk_samples <= MAX_PLANES &&
         inkset == INKSET_CMYK;
}

// `rows` rows of `columns` CMYK pixels to RGBA8 rows of the image's width. A row of `in` is `line_bytes`
// long; in it, sample s of pixel x is sample x * cmyk_samples + s (contiguous) or s * plane_samples + x
// (separate). 16-bit samples are in native order (libtiff swaps them).
static void put_cmyk(uint8_t *out, const uint8_t *in, uint32_t columns, uint32_t rows, size_t line_bytes,
                     size_t plane_samples) {
  size_t pixel_step = cmyk_separate ? 1 : cmyk_samples, sample_step = cmyk_separate ? plane_samples : 1;
  for (uint32_t row = 0; row < rows; row++) {
    const uint8_t *line = in + (size_t)row * line_bytes;
    const uint16_t *wide = (const uint16_t *)line;
    uint8_t *to = out + (size_t)row * width * 4;
    for (size_t x = 0; x < columns; x++, to += 4) {
      uint32_t sample[5];
      for (size_t s = 0; s < 4; s++) {
        size_t index = x * pixel_step + s * sample_step;
        sample[s] = cmyk_bits == 16 ? (uint32_t)(wide[index] >> 8) : line[index];
      }
      size_t alpha = x * pixel_step + cmyk_alpha * sample_step;
      sample[4] = !cmyk_alpha ? 255 : cmyk_bits == 16 ? (uint32_t)(wide[alpha] >> 8) : line[alpha];
      uint32_t k = 255 - sample[3];
      for (int c = 0; c < 3; c++) to[c] = (uint8_t)(k * (255 - sample[c]) / 255);
      to[3] = (uint8_t)sample[4];
    }
  }
}

// Why a separated (CMYK) image is neither libtiff's nor ours, into `message`.
static void describe_unsupported_cmyk(const char *reason) {
  uint16_t inkset = 0, format = 0;
  TIFFGetFieldDefaulted(tiff, TIFFTAG_INKSET, &inkset);
  TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLEFORMAT, &format);
  snprintf(message, sizeof message,
           "%s: separated (CMYK) TIFF with %u %s %u-bit samples and InkSet %u is not supported; 8- and 16-bit "
           "unsigned CMYK (InkSet 1) is",
           reason[0] ? reason : "libtiff cannot read it", cmyk_samples,
           format == SAMPLEFORMAT_IEEEFP ? "floating-point" : format == SAMPLEFORMAT_INT ? "signed" : "unsigned",
           cmyk_bits, inkset);
}

// Prepares the own CMYK reader; returns 1, or 0 with `message` set.
static int open_cmyk(uint32_t *info) {
  uint32_t height = 0;
  TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, &width);
  TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, &height);
  size_t sample_bytes = cmyk_bits / 8, pixel_samples = cmyk_separate ? 1 : cmyk_samples;
  cmyk_line_bytes = (size_t)width * cmyk_samples * sample_bytes;
  if (width == 0 || height == 0 || (uint64_t)width * cmyk_samples * sample_bytes > UINT32_MAX / 4) {
    snprintf(message, sizeof message, "the CMYK image's size is invalid");
    return 0;
  }
  uint32_t band = 1;
  if (cmyk_tiled) {
    TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &tile_width);
    TIFFGetField(tiff, TIFFTAG_TILELENGTH, &tile_height);
    tile_bytes = TIFFTileSize(tiff);
    tile_row_bytes = TIFFTileRowSize(tiff);
    if (tile_width == 0 || tile_height == 0 || tile_bytes <= 0 ||
        (uint64_t)tile_row_bytes != (uint64_t)tile_width * pixel_samples * sample_bytes ||
        (uint64_t)tile_bytes != (uint64_t)tile_row_bytes * tile_height) {
      snprintf(message, sizeof message, "the CMYK image's tile size is invalid");
      return 0;
    }
    uint64_t all = (uint64_t)tile_bytes * (cmyk_separate ? cmyk_samples : 1);
    if (all > UINT32_MAX / 8 || !(tile = malloc((size_t)all))) {
      snprintf(message, sizeof message, "out of memory: a tile of %llu bytes", (unsigned long long)all);
      return 0;
    }
    band = tile_height;
  } else {
    if ((uint64_t)TIFFScanlineSize(tiff) != (uint64_t)width * pixel_samples * sample_bytes) {
      snprintf(message, sizeof message, "the CMYK image's scanline length is invalid");
      return 0;
    }
    if (cmyk_separate) {
      planes[0] = tiff;
      for (uint16_t plane = 1; plane < cmyk_samples; plane++) {
        file.position = 0; // libtiff reads the header from where the file stands
        planes[plane] =
            TIFFClientOpen("input", "rm", NULL, read_file, write_file, seek_file, close_file, size_file, NULL, NULL);
        if (!planes[plane]) return 0;
      }
    }
  }
  info[0] = width;
  info[1] = height;
  info[2] = cmyk_alpha != 0;
  info[3] = band;
  info[4] = cmyk_bits;
  return 1;
}

// Rows [y, y + rows) as RGBA into `out`, y a multiple of the tile height: each row of tiles is read tile by
// tile (every plane of a tile when separate) and each tile converted into place.
static int read_cmyk_tiles(uint8_t *out, uint32_t y, uint32_t rows) {
  size_t sample_bytes = cmyk_bits / 8;
  if (y % tile_height != 0) {
    snprintf(message, sizeof message, "rows must be read a row of tiles at a time (asked for row %u)", y);
    return 0;
  }
  for (uint32_t top = y; top < y + rows; top += tile_height) {
    uint32_t tile_rows = top + tile_height < y + rows ? tile_height : y + rows - top;
    for (uint32_t left = 0; left < width; left += tile_width) {
      for (uint16_t plane = 0; plane < (cmyk_separate ? cmyk_samples : 1); plane++) {
        uint32_t index = TIFFComputeTile(tiff, left, top, 0, plane);
        if (TIFFReadEncodedTile(tiff, index, tile + (size_t)plane * (size_t)tile_bytes, tile_bytes) < tile_bytes) {
          if (!message[0]) snprintf(message, sizeof message, "tile %u could not be read", index);
          return 0;
        }
      }
      uint32_t columns = left + tile_width < width ? tile_width : width - left;
      put_cmyk(out + ((size_t)(top - y) * width + left) * 4, tile, columns, tile_rows, (size_t)tile_row_bytes,
               (size_t)tile_bytes / sample_bytes);
    }
  }
  return 1;
}

// Rows [y, y + rows) of separate planes in strips into `band`, each plane through its own handle.
static int read_cmyk_planes(uint8_t *band, uint32_t y, uint32_t rows) {
  size_t plane_bytes = (size_t)width * (cmyk_bits / 8);
  for (uint32_t row = 0; row < rows; row++) {
    for (uint16_t plane = 0; plane < cmyk_samples; plane++) {
      uint8_t *line = band + (size_t)row * cmyk_line_bytes + plane * plane_bytes;
      if (TIFFReadScanline(planes[plane], line, y + row, plane) < 0) {
        if (!message[0]) snprintf(message, sizeof message, "row %u of plane %u could not be read", y + row, plane);
        return 0;
      }
    }
  }
  return 1;
}

// How rows are read. Contiguous strips (nearly every TIFF) go a scanline at a time through libtiff's
// scanline reader, which decodes a strip incrementally, so a file stored as one huge strip costs one band,
// not the whole image; libtiff's own RGBA converter (image.put.contig) turns each band of scanlines into
// RGBA, so the pixels are those of TIFFRGBAImageGet. Tiles, separate planes and YCbCr that libtiff does
// not upsample itself (subsampled blocks span rows) go through TIFFRGBAImageGet a band of whole tile rows
// or strips at a time: a band is then at least one row of tiles (or one strip) of the image's width.
// Own CMYK goes through its own readers: contiguous strips by scanline, separate strips a scanline of each
// plane at a time, tiles a row of tiles at a time (each tile converted into the band as it is read).
static int by_scanline;
static uint8_t *scanlines;
static uint32_t scanlines_capacity;
static uint32_t next_row;

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }

// The text of the last failure, NUL-terminated.
__attribute__((export_name("error_message"))) const char *error_message(void) { return message; }

// libjpeg's first complaint about damaged JPEG data read so far, NUL-terminated; empty when none.
__attribute__((export_name("damage_message"))) const char *damage_message(void) { return damage; }

// Opens the first page of the `size`-byte file (read through env.read_at) and prepares RGBA reading.
// Returns 1, or 0 with error_message() set. info[0..4] = width, height, has alpha, the rows a band
// must be a whole multiple of (1 when read by scanline), bits per sample.
__attribute__((export_name("open_file"))) int open_file(uint32_t size, uint32_t *info) {
  TIFFSetErrorHandler(record_error);
  TIFFSetWarningHandler(record_warning);
  damage[0] = 0;
  file.size = size;
  file.position = 0;
  // "m": no memory mapping; every read goes through read_file.
  tiff = TIFFClientOpen("input", "rm", NULL, read_file, write_file, seek_file, close_file, size_file, NULL, NULL);
  if (!tiff) return 0;
  next_row = 0;
  unpremultiply = 0;
  cmyk = is_own_cmyk();
  if (cmyk) {
    by_scanline = 1;
    return open_cmyk(info);
  }
  char reason[1024] = "";
  // Stop at the first damaged strip or tile (E_CORRUPT), rather than carrying on with stale pixels.
  if (!TIFFRGBAImageOK(tiff, reason) || !TIFFRGBAImageBegin(&image, tiff, 1, reason)) {
    if (reason[0]) snprintf(message, sizeof message, "%s", reason);
    // libtiff's "requested compression method is not configured" does not say which: name it.
    uint16_t compression = COMPRESSION_NONE;
    if (TIFFGetField(tiff, TIFFTAG_COMPRESSION, &compression) && !TIFFIsCODECConfigured(compression)) {
      const TIFFCodec *codec = TIFFFindCODEC(compression);
      snprintf(message, sizeof message, "%s compression, code %u, is not supported", codec ? codec->name : "unknown",
               (unsigned)compression);
    }
    uint16_t photometric = 0;
    // libtiff's "can not handle image" names nothing: say which CMYK this is (the host adds what to do).
    if (TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric) && photometric == PHOTOMETRIC_SEPARATED)
      describe_unsupported_cmyk(reason);
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
  width = image.width;
  unpremultiply = image.alpha == EXTRASAMPLE_ASSOCALPHA;
  by_scanline = !TIFFIsTiled(tiff) && image.isContig && image.put.contig && image.photometric != PHOTOMETRIC_YCBCR;
  scanline_bytes = TIFFScanlineSize(tiff);
  if (by_scanline && scanline_bytes <= 0) return 0;
  uint32_t band = 1;
  if (TIFFIsTiled(tiff)) TIFFGetField(tiff, TIFFTAG_TILELENGTH, &band);
  else if (!by_scanline) TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &band);
  info[0] = image.width;
  info[1] = image.height;
  info[2] = image.alpha != 0;
  info[3] = band;
  info[4] = image.bitspersample;
  return 1;
}

// Rows [y, y + rows) through the scanline reader (or, for own CMYK, its tile or plane reader) and a
// converter; rows come in order.
static int read_scanlines(uint8_t *out, uint32_t y, uint32_t rows) {
  if (y != next_row) {
    snprintf(message, sizeof message, "rows must be read in order (asked for %u, next is %u)", y, next_row);
    return 0;
  }
  if (cmyk && cmyk_tiled) {
    if (!read_cmyk_tiles(out, y, rows)) return 0;
    next_row = y + rows;
    return 1;
  }
  size_t line_bytes = cmyk ? cmyk_line_bytes : (size_t)scanline_bytes;
  if (rows > scanlines_capacity) {
    if ((uint64_t)rows * line_bytes > UINT32_MAX / 2) {
      snprintf(message, sizeof message, "out of memory: %u rows of %zu bytes", rows, line_bytes);
      return 0;
    }
    free(scanlines);
    scanlines = malloc((size_t)rows * line_bytes);
    scanlines_capacity = scanlines ? rows : 0;
    if (!scanlines) {
      snprintf(message, sizeof message, "out of memory: %u rows of %zu bytes", rows, line_bytes);
      return 0;
    }
  }
  if (cmyk && cmyk_separate) {
    if (!read_cmyk_planes(scanlines, y, rows)) return 0;
  } else {
    for (uint32_t row = 0; row < rows; row++) {
      if (TIFFReadScanline(tiff, scanlines + (size_t)row * line_bytes, y + row, 0) < 0) {
        if (!message[0]) snprintf(message, sizeof message, "row %u could not be read", y + row);
        return 0;
      }
    }
  }
  next_row = y + rows;
  if (cmyk) put_cmyk(out, scanlines, width, rows, line_bytes, width);
  else image.put.contig(&image, (uint32_t *)out, 0, 0, width, rows, 0, 0, scanlines);
  return 1;
}

// Reads rows [y, y + rows) as straight-alpha RGBA8 into `out`. Returns 1, or 0 with error_message() set.
// By scanline (and own CMYK), rows must come in order; y and rows are whole multiples of info[3] (but the
// last).
__attribute__((export_name("read_rows"))) int read_rows(uint8_t *out, uint32_t y, uint32_t rows) {
  if (by_scanline) {
    if (!read_scanlines(out, y, rows)) return 0;
  } else {
    image.row_offset = (int)y;
    image.col_offset = 0;
    if (!TIFFRGBAImageGet(&image, (uint32_t *)out, image.width, rows)) {
      if (!message[0]) snprintf(message, sizeof message, "rows %u to %u could not be read", y, y + rows);
      return 0;
    }
  }
  if (unpremultiply) {
    for (uint8_t *pixel = out, *end = out + (size_t)rows * width * 4; pixel < end; pixel += 4) {
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
