// libde265's SAO filter (sample adaptive offset) over a picture decode.cc takes, a row of coding tree
// blocks at a time. libde265's own sequential SAO first copies a whole plane (12 MB for a 12 MP
// picture's luma, 24 MB at 10 bits) because each block reads its neighbours' unfiltered samples; here
// only the rows a row of blocks reads are copied (its own, the one above, kept unfiltered from the
// previous band, and the one below), and the filter itself is libde265's: sao.cc is compiled again
// inside a namespace of its own, so the arithmetic, and so the pixels, are the same.
#include <stdlib.h>
#include <string.h>

#include "libde265/sao.h"
#include "libde265/util.h"

namespace glimpse_sao {
#include "libde265/sao.cc"
}  // namespace glimpse_sao

// apply_sample_adaptive_offset_sequential (sao.cc, 1.0.11) with the plane copy in bands. Returns false
// where that function gives up (no memory for the copy, a block without a slice header), leaving the rest
// unfiltered as it does.
extern "C" bool glimpse_sao_in_bands(de265_image *img) {
  const seq_parameter_set &sps = img->get_sps();
  if (sps.sample_adaptive_offset_enabled_flag == 0) return true;
  const int channels = sps.ChromaArrayType == CHROMA_MONO ? 1 : 3;
  for (int cIdx = 0; cIdx < channels; cIdx++) {
    const int stride = img->get_image_stride(cIdx);  // samples
    const int height = img->get_height(cIdx);
    const size_t row_bytes = static_cast<size_t>(stride) * img->get_bytes_per_pixel(cIdx);
    const int nSW = cIdx == 0 ? 1 << sps.Log2CtbSizeY : (1 << sps.Log2CtbSizeY) / sps.SubWidthC;
    const int nSH = cIdx == 0 ? 1 << sps.Log2CtbSizeY : (1 << sps.Log2CtbSizeY) / sps.SubHeightC;
    // Rows top - 1 .. top + nSH of the plane as deblocking left them.
    uint8_t *band = static_cast<uint8_t *>(malloc((nSH + 2) * row_bytes));
    if (band == nullptr) {
      img->decctx->add_warning(DE265_WARNING_CANNOT_APPLY_SAO_OUT_OF_MEMORY, false);
      return false;
    }
    uint8_t *plane = img->get_image_plane(cIdx);
    for (int yCtb = 0; yCtb < sps.PicHeightInCtbsY; yCtb++) {
      const int top = yCtb * nSH;
      if (top >= height) break;
      // The row above, unfiltered: the previous band's last row of its own blocks.
      if (yCtb > 0) memcpy(band, band + nSH * row_bytes, row_bytes);
      const int rows = libde265_min(nSH + 1, height - top);
      memcpy(band + row_bytes, plane + top * row_bytes, rows * row_bytes);
      // Addressed as the whole plane: row y of it at in + y * row_bytes, for y in top - 1 .. top + nSH.
      const uint8_t *in = band + row_bytes - static_cast<ptrdiff_t>(top) * static_cast<ptrdiff_t>(row_bytes);
      for (int xCtb = 0; xCtb < sps.PicWidthInCtbsY; xCtb++) {
        const slice_segment_header *shdr = img->get_SliceHeaderCtb(xCtb, yCtb);
        if (shdr == nullptr) {
          free(band);
          return false;
        }
        if (cIdx == 0 ? shdr->slice_sao_luma_flag : shdr->slice_sao_chroma_flag) {
          glimpse_sao::apply_sao(img, xCtb, yCtb, shdr, cIdx, nSW, nSH, in, stride, plane, img->get_image_stride(cIdx));
        }
      }
    }
    free(band);
  }
  return true;
}
