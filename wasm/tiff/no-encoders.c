// libtiff's Deflate and JPEG codecs can also write, so they name zlib's and libjpeg's encoders. glimpse
// only reads TIFF: instead of linking both encoders (unreachable, but named in the codecs' method
// tables), each entry point traps. Reaching one would be a bug, never a file's doing.
#include <stdio.h>
#include "jpeglib.h"
#include "zlib.h"

#define UNREACHABLE __builtin_trap()

int deflate(z_streamp stream, int flush) { (void)stream; (void)flush; UNREACHABLE; }
int deflateEnd(z_streamp stream) { (void)stream; UNREACHABLE; }
int deflateReset(z_streamp stream) { (void)stream; UNREACHABLE; }
int deflateParams(z_streamp stream, int level, int strategy) { (void)stream; (void)level; (void)strategy; UNREACHABLE; }
int deflateInit_(z_streamp stream, int level, const char *version, int size) { (void)stream; (void)level; (void)version; (void)size; UNREACHABLE; }
void jpeg_CreateCompress(j_compress_ptr cinfo, int version, size_t size) { (void)cinfo; (void)version; (void)size; UNREACHABLE; }
void jpeg_finish_compress(j_compress_ptr cinfo) { (void)cinfo; UNREACHABLE; }
void jpeg_set_colorspace(j_compress_ptr cinfo, J_COLOR_SPACE space) { (void)cinfo; (void)space; UNREACHABLE; }
void jpeg_set_defaults(j_compress_ptr cinfo) { (void)cinfo; UNREACHABLE; }
void jpeg_set_quality(j_compress_ptr cinfo, int quality, boolean baseline) { (void)cinfo; (void)quality; (void)baseline; UNREACHABLE; }
void jpeg_start_compress(j_compress_ptr cinfo, boolean all) { (void)cinfo; (void)all; UNREACHABLE; }
void jpeg_suppress_tables(j_compress_ptr cinfo, boolean suppress) { (void)cinfo; (void)suppress; UNREACHABLE; }
JDIMENSION jpeg_write_raw_data(j_compress_ptr cinfo, JSAMPIMAGE data, JDIMENSION lines) { (void)cinfo; (void)data; (void)lines; UNREACHABLE; }
JDIMENSION jpeg_write_scanlines(j_compress_ptr cinfo, JSAMPARRAY rows, JDIMENSION lines) { (void)cinfo; (void)rows; (void)lines; UNREACHABLE; }
void jpeg_write_tables(j_compress_ptr cinfo) { (void)cinfo; UNREACHABLE; }
