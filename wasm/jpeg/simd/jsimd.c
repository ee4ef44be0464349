// libjpeg-turbo's SIMD dispatch for wasm32 (stands in for simd/arm/aarch64/jsimd.c and jsimd_none.c).
//
// The kernels are libjpeg-turbo's own Arm Neon intrinsics (simd/arm/*-neon.c) compiled for WASM SIMD128
// through wasm/neon/arm_neon.h. A WASM module either validates with SIMD128 or not at all, and every runtime
// glimpse supports runs it, so nothing is detected at run time: this file says which kernels exist.
// Built (each writes the bytes libjpeg-turbo's C writes; wasm/jpeg/build.sh has the measurements):
//   colour conversion YCbCr → RGBA and RGB (decode, verify) and RGBA → YCbCr (encode): the pixel layouts
//   codec.c asks for; any other is refused (JERR_CONVERSION_NOTIMPL) rather than converted wrongly;
//   chroma downsampling (h2v1, h2v2) and upsampling (fancy h2v1, h2v2, h1v2; plain h2v1, h2v2);
//   the accurate integer DCTs: forward, inverse, the scaled 4×4 and 2×2 inverse, sample conversion and
//   quantisation; Huffman coding of a block (sequential JPEG).
// Left to libjpeg-turbo's C (codec.c never asks for them, or only on tiny work): the fast-integer and float
// DCTs, merged upsampling (only without fancy upsampling, which only `verify` turns off, at 1/8 scale),
// RGB → gray, RGB565, and the progressive encoder's preparation kernels (they need a 64-bit size_t).
#define JPEG_INTERNALS
#include "jinclude.h"
#include "jpeglib.h"
#include "jsimd.h"
#include "jdct.h"
#include "jerror.h"
#include "jsimddct.h"
#include "simd/jsimd.h"

// The kernels are written for 8-bit samples, 16-bit coefficients and (with WITH_SIMD) 16-bit multipliers.
#define SIMD_TYPES (BITS_IN_JSAMPLE == 8 && DCTSIZE == 8 && sizeof(JDIMENSION) == 4 && sizeof(JCOEF) == 2 && \
    sizeof(DCTELEM) == 2 && sizeof(ISLOW_MULT_TYPE) == 2)

// Colour conversion.
GLOBAL(int) jsimd_can_rgb_ycc(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_rgb_gray(void) { return 0; }
GLOBAL(int) jsimd_can_ycc_rgb(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_ycc_rgb565(void) { return 0; }
GLOBAL(int) jsimd_c_can_null_convert(void) { return 0; }

GLOBAL(void) jsimd_rgb_ycc_convert(j_compress_ptr cinfo, JSAMPARRAY input_buf, JSAMPIMAGE output_buf,
    JDIMENSION output_row, int num_rows) {
  if (cinfo->in_color_space != JCS_EXT_RGBA) ERREXIT(cinfo, JERR_CONVERSION_NOTIMPL);
  jsimd_extrgbx_ycc_convert_neon(cinfo->image_width, input_buf, output_buf, output_row, num_rows);
}

GLOBAL(void) jsimd_ycc_rgb_convert(j_decompress_ptr cinfo, JSAMPIMAGE input_buf, JDIMENSION input_row,
    JSAMPARRAY output_buf, int num_rows) {
  switch (cinfo->out_color_space) {
    case JCS_EXT_RGBA:
      jsimd_ycc_extrgbx_convert_neon(cinfo->output_width, input_buf, input_row, output_buf, num_rows);
      break;
    case JCS_RGB:
      jsimd_ycc_extrgb_convert_neon(cinfo->output_width, input_buf, input_row, output_buf, num_rows);
      break;
    default:
      ERREXIT(cinfo, JERR_CONVERSION_NOTIMPL);
  }
}

GLOBAL(void) jsimd_rgb_gray_convert(j_compress_ptr cinfo, JSAMPARRAY input_buf, JSAMPIMAGE output_buf,
    JDIMENSION output_row, int num_rows) {
  (void)input_buf, (void)output_buf, (void)output_row, (void)num_rows;
  ERREXIT(cinfo, JERR_CONVERSION_NOTIMPL);
}

GLOBAL(void) jsimd_ycc_rgb565_convert(j_decompress_ptr cinfo, JSAMPIMAGE input_buf, JDIMENSION input_row,
    JSAMPARRAY output_buf, int num_rows) {
  (void)input_buf, (void)input_row, (void)output_buf, (void)num_rows;
  ERREXIT(cinfo, JERR_CONVERSION_NOTIMPL);
}

GLOBAL(void) jsimd_c_null_convert(j_compress_ptr cinfo, JSAMPARRAY input_buf, JSAMPIMAGE output_buf,
    JDIMENSION output_row, int num_rows) {
  (void)input_buf, (void)output_buf, (void)output_row, (void)num_rows;
  ERREXIT(cinfo, JERR_CONVERSION_NOTIMPL);
}

// Chroma down- and upsampling.
GLOBAL(int) jsimd_can_h2v2_downsample(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_h2v1_downsample(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_h2v2_smooth_downsample(void) { return 0; }
GLOBAL(int) jsimd_can_h2v2_upsample(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_h2v1_upsample(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_int_upsample(void) { return 0; }
GLOBAL(int) jsimd_can_h2v2_fancy_upsample(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_h2v1_fancy_upsample(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_h1v2_fancy_upsample(void) { return SIMD_TYPES; }

GLOBAL(void) jsimd_h2v2_downsample(j_compress_ptr cinfo, jpeg_component_info *compptr, JSAMPARRAY input_data,
    JSAMPARRAY output_data) {
  jsimd_h2v2_downsample_neon(cinfo->image_width, cinfo->max_v_samp_factor, compptr->v_samp_factor,
      compptr->width_in_blocks, input_data, output_data);
}

GLOBAL(void) jsimd_h2v1_downsample(j_compress_ptr cinfo, jpeg_component_info *compptr, JSAMPARRAY input_data,
    JSAMPARRAY output_data) {
  jsimd_h2v1_downsample_neon(cinfo->image_width, cinfo->max_v_samp_factor, compptr->v_samp_factor,
      compptr->width_in_blocks, input_data, output_data);
}

GLOBAL(void) jsimd_h2v2_smooth_downsample(j_compress_ptr cinfo, jpeg_component_info *compptr,
    JSAMPARRAY input_data, JSAMPARRAY output_data) {
  (void)cinfo, (void)compptr, (void)input_data, (void)output_data;
}

GLOBAL(void) jsimd_h2v2_upsample(j_decompress_ptr cinfo, jpeg_component_info *compptr, JSAMPARRAY input_data,
    JSAMPARRAY *output_data_ptr) {
  (void)compptr;
  jsimd_h2v2_upsample_neon(cinfo->max_v_samp_factor, cinfo->output_width, input_data, output_data_ptr);
}

GLOBAL(void) jsimd_h2v1_upsample(j_decompress_ptr cinfo, jpeg_component_info *compptr, JSAMPARRAY input_data,
    JSAMPARRAY *output_data_ptr) {
  (void)compptr;
  jsimd_h2v1_upsample_neon(cinfo->max_v_samp_factor, cinfo->output_width, input_data, output_data_ptr);
}

GLOBAL(void) jsimd_int_upsample(j_decompress_ptr cinfo, jpeg_component_info *compptr, JSAMPARRAY input_data,
    JSAMPARRAY *output_data_ptr) {
  (void)cinfo, (void)compptr, (void)input_data, (void)output_data_ptr;
}

GLOBAL(void) jsimd_h2v2_fancy_upsample(j_decompress_ptr cinfo, jpeg_component_info *compptr,
    JSAMPARRAY input_data, JSAMPARRAY *output_data_ptr) {
  jsimd_h2v2_fancy_upsample_neon(cinfo->max_v_samp_factor, compptr->downsampled_width, input_data,
      output_data_ptr);
}

GLOBAL(void) jsimd_h2v1_fancy_upsample(j_decompress_ptr cinfo, jpeg_component_info *compptr,
    JSAMPARRAY input_data, JSAMPARRAY *output_data_ptr) {
  jsimd_h2v1_fancy_upsample_neon(cinfo->max_v_samp_factor, compptr->downsampled_width, input_data,
      output_data_ptr);
}

GLOBAL(void) jsimd_h1v2_fancy_upsample(j_decompress_ptr cinfo, jpeg_component_info *compptr,
    JSAMPARRAY input_data, JSAMPARRAY *output_data_ptr) {
  jsimd_h1v2_fancy_upsample_neon(cinfo->max_v_samp_factor, compptr->downsampled_width, input_data,
      output_data_ptr);
}

// Merged upsampling and colour conversion: left to C.
GLOBAL(int) jsimd_can_h2v2_merged_upsample(void) { return 0; }
GLOBAL(int) jsimd_can_h2v1_merged_upsample(void) { return 0; }
GLOBAL(void) jsimd_h2v2_merged_upsample(j_decompress_ptr cinfo, JSAMPIMAGE input_buf,
    JDIMENSION in_row_group_ctr, JSAMPARRAY output_buf) {
  (void)input_buf, (void)in_row_group_ctr, (void)output_buf;
  ERREXIT(cinfo, JERR_NOT_COMPILED);
}
GLOBAL(void) jsimd_h2v1_merged_upsample(j_decompress_ptr cinfo, JSAMPIMAGE input_buf,
    JDIMENSION in_row_group_ctr, JSAMPARRAY output_buf) {
  (void)input_buf, (void)in_row_group_ctr, (void)output_buf;
  ERREXIT(cinfo, JERR_NOT_COMPILED);
}

// Forward DCT (accurate integer) and quantisation.
GLOBAL(int) jsimd_can_convsamp(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_convsamp_float(void) { return 0; }
GLOBAL(int) jsimd_can_fdct_islow(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_fdct_ifast(void) { return 0; }
GLOBAL(int) jsimd_can_fdct_float(void) { return 0; }
GLOBAL(int) jsimd_can_quantize(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_quantize_float(void) { return 0; }

GLOBAL(void) jsimd_convsamp(JSAMPARRAY sample_data, JDIMENSION start_col, DCTELEM *workspace) {
  jsimd_convsamp_neon(sample_data, start_col, workspace);
}
GLOBAL(void) jsimd_convsamp_float(JSAMPARRAY sample_data, JDIMENSION start_col, FAST_FLOAT *workspace) {
  (void)sample_data, (void)start_col, (void)workspace;
}
GLOBAL(void) jsimd_fdct_islow(DCTELEM *data) { jsimd_fdct_islow_neon(data); }
GLOBAL(void) jsimd_fdct_ifast(DCTELEM *data) { (void)data; }
GLOBAL(void) jsimd_fdct_float(FAST_FLOAT *data) { (void)data; }
GLOBAL(void) jsimd_quantize(JCOEFPTR coef_block, DCTELEM *divisors, DCTELEM *workspace) {
  jsimd_quantize_neon(coef_block, divisors, workspace);
}
GLOBAL(void) jsimd_quantize_float(JCOEFPTR coef_block, FAST_FLOAT *divisors, FAST_FLOAT *workspace) {
  (void)coef_block, (void)divisors, (void)workspace;
}

// Inverse DCT (accurate integer), full size and scaled to 4×4 and 2×2.
GLOBAL(int) jsimd_can_idct_2x2(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_idct_4x4(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_idct_6x6(void) { return 0; }
GLOBAL(int) jsimd_can_idct_12x12(void) { return 0; }
GLOBAL(int) jsimd_can_idct_islow(void) { return SIMD_TYPES; }
GLOBAL(int) jsimd_can_idct_ifast(void) { return 0; }
GLOBAL(int) jsimd_can_idct_float(void) { return 0; }

GLOBAL(void) jsimd_idct_2x2(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
  (void)cinfo;
  jsimd_idct_2x2_neon(compptr->dct_table, coef_block, output_buf, output_col);
}
GLOBAL(void) jsimd_idct_4x4(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
  (void)cinfo;
  jsimd_idct_4x4_neon(compptr->dct_table, coef_block, output_buf, output_col);
}
GLOBAL(void) jsimd_idct_6x6(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
  (void)cinfo, (void)compptr, (void)coef_block, (void)output_buf, (void)output_col;
}
GLOBAL(void) jsimd_idct_12x12(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
  (void)cinfo, (void)compptr, (void)coef_block, (void)output_buf, (void)output_col;
}
GLOBAL(void) jsimd_idct_islow(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
  (void)cinfo;
  jsimd_idct_islow_neon(compptr->dct_table, coef_block, output_buf, output_col);
}
GLOBAL(void) jsimd_idct_ifast(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
  (void)cinfo, (void)compptr, (void)coef_block, (void)output_buf, (void)output_col;
}
GLOBAL(void) jsimd_idct_float(j_decompress_ptr cinfo, jpeg_component_info *compptr, JCOEFPTR coef_block,
    JSAMPARRAY output_buf, JDIMENSION output_col) {
  (void)cinfo, (void)compptr, (void)coef_block, (void)output_buf, (void)output_col;
}

// Huffman encoding of a block (sequential mode). The progressive encoder's preparation kernels assume a
// 64-bit size_t, which wasm32 lacks, so progressive JPEGs (never written here) stay on C.
GLOBAL(int) jsimd_can_huff_encode_one_block(void) { return SIMD_TYPES; }
GLOBAL(JOCTET *) jsimd_huff_encode_one_block(void *state, JOCTET *buffer, JCOEFPTR block, int last_dc_val,
    c_derived_tbl *dctbl, c_derived_tbl *actbl) {
  return jsimd_huff_encode_one_block_neon(state, buffer, block, last_dc_val, dctbl, actbl);
}
GLOBAL(int) jsimd_can_encode_mcu_AC_first_prepare(void) { return 0; }
GLOBAL(void) jsimd_encode_mcu_AC_first_prepare(const JCOEF *block, const int *jpeg_natural_order_start, int Sl,
    int Al, UJCOEF *values, size_t *zerobits) {
  (void)block, (void)jpeg_natural_order_start, (void)Sl, (void)Al, (void)values, (void)zerobits;
}
GLOBAL(int) jsimd_can_encode_mcu_AC_refine_prepare(void) { return 0; }
GLOBAL(int) jsimd_encode_mcu_AC_refine_prepare(const JCOEF *block, const int *jpeg_natural_order_start, int Sl,
    int Al, UJCOEF *absvalues, size_t *bits) {
  (void)block, (void)jpeg_natural_order_start, (void)Sl, (void)Al, (void)absvalues, (void)bits;
  return 0;
}
