// glimpse's JPEG codec: a thin layer over libjpeg-turbo (built without its x86/ARM SIMD, for wasm32).
//
// Both directions run in bands of rows, so neither the decoded nor the encoded image ever exists whole
// in this module's memory. decode_start/rows/finish decode straight to RGBA at M/8 scale: a 12 MP photo
// meant for 2000 px is reconstructed from its DCT coefficients at 1/2 size, a few scanlines at a time;
// decode_window narrows it to a region, whose columns and rows alone are reconstructed.
// (A progressive JPEG is the exception libjpeg imposes: it holds every DCT coefficient, 2 bytes per
// sample, until the last scan, e.g. 3 bytes per pixel for 4:2:0; baseline holds one MCU row.)
// encode_start/rows/finish write baseline, Huffman-optimised 4:2:0 JPEG.
//
// Errors: libjpeg reports fatal errors through error_exit, which must not return. Ours formats the
// message and calls the host's `fail` import, which throws; the stack unwinds through WASM and the
// caller discards the instance (one instance per call), so no state survives a failure.

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include "jpeglib.h"
#include "jerror.h"

__attribute__((import_module("env"), import_name("fail"))) _Noreturn void host_fail(const char *message);
// Like host_fail, for a file refused because reading it would take unbounded work (E_TOO_COMPLEX).
__attribute__((import_module("env"), import_name("fail_too_complex"))) _Noreturn void host_fail_too_complex(
    const char *message);

static void fail_with_message(j_common_ptr cinfo) {
  static char message[JMSG_LENGTH_MAX];
  (*cinfo->err->format_message)(cinfo, message);
  host_fail(message);
}

// Where the data ran out, if it did: libjpeg warns JWRN_JPEG_EOF, then decodes the rest as if the
// coefficients were zero (flat grey). One instance per call, so file-level state is safe here.
static uint32_t eof_imcu_row;
static uint32_t eof_scan;

static void note_warning(j_common_ptr cinfo, int level) {
  if (level >= 0 || !cinfo->is_decompressor || cinfo->err->msg_code != JWRN_JPEG_EOF || eof_scan) return;
  j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
  eof_imcu_row = dinfo->input_iMCU_row;
  eof_scan = dinfo->input_scan_number > 0 ? (uint32_t)dinfo->input_scan_number : 1;
}

static void quiet_errors(struct jpeg_error_mgr *err) {
  jpeg_std_error(err);
  err->error_exit = fail_with_message;
  err->emit_message = note_warning;
}

// Bounded work for hostile progressive JPEGs. Each scan of a multi-scan JPEG walks every block of the
// components it codes, whatever the scan holds, so a file of a few KB with thousands of scans (a valid
// progression refines each of the 64 coefficients of each component bit by bit: up to 704 scans per
// component) takes time in proportion to scans × image size: 2,112 scans of a 2048×2048 image cost 1.8 s,
// 500 scans of a 100 MP gray image 12.7 s. Real encoders write far fewer: cjpeg/jpegtran -progressive 10
// scans for YCbCr (5.3 passes, a pass being every block of the image read once), 6 for gray, 18 for CMYK
// (6 passes). Two bounds, checked as each scan starts, before its data is read: MAX_SCANS, what
// `djpeg -maxscans` and TurboJPEG's scan limit (500) count, and MAX_PASSES, the blocks all scans walk
// together, which is what the time follows.
#define MAX_SCANS 100
#define MAX_PASSES 32

static struct {
  struct jpeg_progress_mgr pub;
  int scan;           // the last scan counted
  uint64_t blocks;    // blocks walked by the scans so far
} scan_budget;

static void count_scan(j_common_ptr cinfo) {
  j_decompress_ptr dinfo = (j_decompress_ptr)cinfo;
  if (dinfo->input_scan_number == scan_budget.scan) return;
  scan_budget.scan = dinfo->input_scan_number;
  static char message[160];
  if (scan_budget.scan > MAX_SCANS) {
    snprintf(message, sizeof message, "it has more than %d scans", MAX_SCANS);
    host_fail_too_complex(message);
  }
  uint64_t image = 0;
  for (int c = 0; c < dinfo->num_components; c++)
    image += (uint64_t)dinfo->comp_info[c].width_in_blocks * dinfo->comp_info[c].height_in_blocks;
  for (int i = 0; i < dinfo->comps_in_scan; i++)
    scan_budget.blocks += (uint64_t)dinfo->cur_comp_info[i]->width_in_blocks * dinfo->cur_comp_info[i]->height_in_blocks;
  if (scan_budget.blocks > MAX_PASSES * image) {
    snprintf(message, sizeof message, "its first %d scans read its %llu DCT blocks more than %d times over",
        scan_budget.scan, (unsigned long long)image, MAX_PASSES);
    host_fail_too_complex(message);
  }
}

static void bound_scans(j_decompress_ptr cinfo) {
  scan_budget.pub.progress_monitor = count_scan;
  scan_budget.scan = 0;
  scan_budget.blocks = 0;
  cinfo->progress = &scan_budget.pub;
}

__attribute__((export_name("alloc"))) void *alloc(uint32_t bytes) { return malloc(bytes); }

// Adobe CMYK JPEGs store inverted ink values; multiplying by K gives a usable RGB approximation.
static void cmyk_row_to_rgba(uint8_t *row, uint32_t width) {
  for (uint32_t x = 0; x < width; x++, row += 4) {
    uint32_t k = row[3];
    row[0] = (uint8_t)((row[0] * k + 127) / 255);
    row[1] = (uint8_t)((row[1] * k + 127) / 255);
    row[2] = (uint8_t)((row[2] * k + 127) / 255);
    row[3] = 255;
  }
}

// One decode and one encode per instance (a fresh instance per call), so their state can be static.
static struct {
  struct jpeg_decompress_struct cinfo;
  struct jpeg_error_mgr err;
  int cmyk;
} decoder;

// Reads the header and starts decoding at scale_eighths/8 (1..8) to RGBA8; info[0..1] = output width,
// height.
__attribute__((export_name("decode_start"))) void decode_start(
    const uint8_t *data, uint32_t size, uint32_t scale_eighths, uint32_t *info) {
  struct jpeg_decompress_struct *cinfo = &decoder.cinfo;
  cinfo->err = &decoder.err;
  quiet_errors(&decoder.err);
  eof_imcu_row = 0;
  eof_scan = 0;
  jpeg_create_decompress(cinfo);
  bound_scans(cinfo);
  jpeg_mem_src(cinfo, data, size);
  jpeg_read_header(cinfo, TRUE);

  decoder.cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
  cinfo->out_color_space = decoder.cmyk ? JCS_CMYK : JCS_EXT_RGBA;
  cinfo->scale_num = scale_eighths;
  cinfo->scale_denom = 8;
  jpeg_start_decompress(cinfo);
  info[0] = cinfo->output_width;
  info[1] = cinfo->output_height;
}

// Narrows a started decode to the output pixels x..x+width-1 of rows y.. (a region of the image, at the
// decode's scale): libjpeg-turbo's jpeg_crop_scanline inverse-transforms, upsamples and converts only the
// iMCU columns that hold it, and jpeg_skip_scanlines passes the rows above it without doing so (their
// entropy-coded data is still read: it cannot be skipped). Both change the pixels next to the cut (the
// upsampler treats it as the image's edge; progressive block smoothing lacks the neighbour blocks there), so
// the window reaches two iMCUs further on each side where the image does: the rows and columns the caller
// keeps are the full decode's, pixel for pixel. info[0..2] = the window's first column, its width and its
// first row; decode_rows then delivers its rows, from that row on.
__attribute__((export_name("decode_window"))) void decode_window(
    uint32_t x, uint32_t width, uint32_t y, uint32_t *info) {
  struct jpeg_decompress_struct *cinfo = &decoder.cinfo;
  if (cinfo->output_scanline != 0) host_fail("the JPEG decoder's window was set after rows were read");
  if (width == 0 || x > cinfo->output_width || width > cinfo->output_width - x || y >= cinfo->output_height)
    host_fail("the JPEG decoder's window reaches past the image");
  uint32_t columns = 2 * (uint32_t)cinfo->min_DCT_h_scaled_size * (uint32_t)cinfo->max_h_samp_factor;
  uint32_t rows = 2 * (uint32_t)cinfo->min_DCT_v_scaled_size * (uint32_t)cinfo->max_v_samp_factor;
  JDIMENSION left = x > columns ? x - columns : 0;
  JDIMENSION right = x + width + columns < cinfo->output_width ? x + width + columns : cinfo->output_width;
  JDIMENSION top = y > rows ? y - rows : 0;
  JDIMENSION span = right - left;
  jpeg_crop_scanline(cinfo, &left, &span);
  if (top > 0 && jpeg_skip_scanlines(cinfo, top) != top) host_fail("libjpeg skipped fewer rows than asked");
  info[0] = left;
  info[1] = span;
  info[2] = top;
}

// Decodes the next `count` rows into `out` (rows of width × 4 bytes, back to back).
__attribute__((export_name("decode_rows"))) void decode_rows(uint8_t *out, uint32_t count) {
  struct jpeg_decompress_struct *cinfo = &decoder.cinfo;
  if (count > cinfo->output_height - cinfo->output_scanline) host_fail("the JPEG decoder was asked for more rows than the image has");
  size_t row_bytes = (size_t)cinfo->output_width * 4;
  for (uint32_t i = 0; i < count;) {
    JSAMPROW row = out + i * row_bytes;
    uint32_t read = jpeg_read_scanlines(cinfo, &row, 1);
    if (read == 0) host_fail("libjpeg returned no scanline");
    if (decoder.cmyk) cmyk_row_to_rgba(row, cinfo->output_width);
    i += read;
  }
}

// Ends the decode. A file cut short still decodes: libjpeg warns and fills the missing rows with grey.
// info[0] = output rows decoded from real data (all of them unless the file ends early); info[1] = the
// scan the data ran out in, 0 if it did not (in scan 2 or later every row has data, but less detail).
__attribute__((export_name("decode_finish"))) void decode_finish(uint32_t *info) {
  struct jpeg_decompress_struct *cinfo = &decoder.cinfo;
  if (cinfo->output_scanline != cinfo->output_height) host_fail("the JPEG decoder was not asked for every row");
  jpeg_finish_decompress(cinfo);
  // The Huffman decoder reads ahead, so a file missing only its EOI also ends "inside" the last iMCU row
  // of its last scan: that counts as complete, and a cut is located to within one iMCU row (8 or 16 rows).
  if (eof_scan && eof_imcu_row + 1 >= cinfo->total_iMCU_rows) eof_scan = 0;
  uint32_t height = cinfo->output_height;
  uint32_t real_rows = height;
  if (eof_scan == 1) real_rows = (uint32_t)(((uint64_t)eof_imcu_row * height) / cinfo->total_iMCU_rows);
  jpeg_destroy_decompress(cinfo);
  info[0] = real_rows;
  info[1] = eof_scan;
}

// The first warning of a `verify` decode, formatted.
static char first_warning[JMSG_LENGTH_MAX];

static void note_first_warning(j_common_ptr cinfo, int level) {
  if (level < 0 && !first_warning[0]) (*cinfo->err->format_message)(cinfo, first_warning);
}

// Decodes the whole file as `djpeg -strict -maxscans 100` does, keeping no pixels: every marker segment,
// every scan's tables and parameters, and all entropy-coded data through EOI, within the scan bounds above. At 1/8 scale the inverse DCT is the DC
// term alone, so the cost is the entropy decoding. What libjpeg cannot decode fails through the host;
// what it decodes with a warning (a bad Huffman code, bytes before a marker, data ending early, an
// unknown Adobe transform) is returned as the first warning's text, NULL when there was none.
__attribute__((export_name("verify"))) const char *verify(const uint8_t *data, uint32_t size) {
  struct jpeg_decompress_struct *cinfo = &decoder.cinfo;
  cinfo->err = jpeg_std_error(&decoder.err);
  decoder.err.error_exit = fail_with_message;
  decoder.err.emit_message = note_first_warning;
  first_warning[0] = '\0';
  jpeg_create_decompress(cinfo);
  bound_scans(cinfo);
  jpeg_mem_src(cinfo, data, size);
  jpeg_read_header(cinfo, TRUE);
  cinfo->scale_num = 1;
  cinfo->scale_denom = 8;
  cinfo->do_fancy_upsampling = FALSE;
  jpeg_start_decompress(cinfo);
  JSAMPROW row = malloc((size_t)cinfo->output_width * (size_t)cinfo->output_components);
  if (!row) host_fail("out of memory for the JPEG decoder");
  while (cinfo->output_scanline < cinfo->output_height)
    if (jpeg_read_scanlines(cinfo, &row, 1) == 0) host_fail("libjpeg returned no scanline");
  jpeg_finish_decompress(cinfo);
  jpeg_destroy_decompress(cinfo);
  free(row);
  return first_warning[0] ? first_warning : NULL;
}

static struct {
  struct jpeg_compress_struct cinfo;
  struct jpeg_error_mgr err;
  unsigned char *out;
  unsigned long out_size;
} encoder;

// Starts a baseline JPEG of width × height at `quality` (1–100) from RGBA8 rows (alpha ignored: flatten first).
__attribute__((export_name("encode_start"))) void encode_start(uint32_t width, uint32_t height, uint32_t quality) {
  struct jpeg_compress_struct *cinfo = &encoder.cinfo;
  cinfo->err = &encoder.err;
  quiet_errors(&encoder.err);
  jpeg_create_compress(cinfo);
  encoder.out = NULL;
  encoder.out_size = 0;
  jpeg_mem_dest(cinfo, &encoder.out, &encoder.out_size);
  cinfo->image_width = width;
  cinfo->image_height = height;
  cinfo->input_components = 4;
  cinfo->in_color_space = JCS_EXT_RGBA;
  jpeg_set_defaults(cinfo);
  jpeg_set_quality(cinfo, (int)quality, TRUE);
  cinfo->optimize_coding = TRUE;
  jpeg_start_compress(cinfo, TRUE);
}

// Compresses the next `count` rows of RGBA8 at `rgba`.
__attribute__((export_name("encode_rows"))) void encode_rows(const uint8_t *rgba, uint32_t count) {
  struct jpeg_compress_struct *cinfo = &encoder.cinfo;
  if (count > cinfo->image_height - cinfo->next_scanline) host_fail("the JPEG encoder was given more rows than the image has");
  size_t row_bytes = (size_t)cinfo->image_width * 4;
  for (uint32_t i = 0; i < count; i++) {
    JSAMPROW row = (JSAMPROW)(rgba + i * row_bytes);
    jpeg_write_scanlines(cinfo, &row, 1);
  }
}

// Ends the JPEG and returns it; info[0] = byte length.
__attribute__((export_name("encode_finish"))) uint8_t *encode_finish(uint32_t *info) {
  if (encoder.cinfo.next_scanline != encoder.cinfo.image_height) host_fail("the JPEG encoder was not given every row");
  jpeg_finish_compress(&encoder.cinfo);
  jpeg_destroy_compress(&encoder.cinfo);
  info[0] = (uint32_t)encoder.out_size;
  return encoder.out;
}
