/* libtiff's tiffconf.h for wasm32 (normally written by its configure step): the codecs glimpse builds
 * in, and the machine's facts. */
#ifndef _TIFFCONF_
#define _TIFFCONF_
#include <stddef.h>
#include <stdint.h>
#include <inttypes.h>
#define TIFF_INT16_T int16_t
#define TIFF_INT32_T int32_t
#define TIFF_INT64_T int64_t
#define TIFF_INT8_T int8_t
#define TIFF_UINT16_T uint16_t
#define TIFF_UINT32_T uint32_t
#define TIFF_UINT64_T uint64_t
#define TIFF_UINT8_T uint8_t
#define TIFF_SSIZE_T int32_t
#define HAVE_IEEEFP 1
#define HOST_FILLORDER FILLORDER_LSB2MSB
#define HOST_BIGENDIAN 0
/* Codecs: CCITT G3/G4 (scanners), JPEG and old-style JPEG (libjpeg-turbo), LZW, PackBits, Deflate
 * (zlib), and the small legacy ones (ThunderScan, NeXT, SGI LogLuv). Not LZMA, ZSTD, WebP, LERC, JBIG. */
#define CCITT_SUPPORT 1
#define JPEG_SUPPORT 1
#define OJPEG_SUPPORT 1
#define LZW_SUPPORT 1
#define PACKBITS_SUPPORT 1
#define ZIP_SUPPORT 1
#define THUNDER_SUPPORT 1
#define NEXT_SUPPORT 1
#define LOGLUV_SUPPORT 1
/* One-strip uncompressed images are read in strips of about 8 KB, not whole. */
#define STRIPCHOP_DEFAULT TIFF_STRIPCHOP
#define SUBIFD_SUPPORT 1
#define DEFAULT_EXTRASAMPLE_AS_ALPHA 1
#define CHECK_JPEG_YCBCR_SUBSAMPLING 1
#define COLORIMETRY_SUPPORT
#define YCBCR_SUPPORT
#define CMYK_SUPPORT
#define ICC_SUPPORT
#define PHOTOSHOP_SUPPORT
#define IPTC_SUPPORT
#endif
