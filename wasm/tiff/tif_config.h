/* libtiff's private tif_config.h for wasm32-wasi (normally written by its configure step). */
#include "tiffconf.h"
#define HAVE_ASSERT_H 1
#define HAVE_FCNTL_H 1
#define HAVE_STRINGS_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
/* The scanline reader fetches a big strip's compressed bytes a few rows ahead at a time, not the whole
 * strip at once (libtiff's --enable-chunky-strip-read): a one-strip file costs one band. */
#define CHUNKY_STRIP_READ_SUPPORT 1
#define PACKAGE "tiff"
#define PACKAGE_BUGREPORT "tiff@lists.osgeo.org"
#define PACKAGE_NAME "LibTIFF Software"
#define PACKAGE_STRING "LibTIFF Software 4.5.0"
#define PACKAGE_TARNAME "tiff"
#define PACKAGE_URL ""
#define PACKAGE_VERSION "4.5.0"
#define SIZEOF_SIZE_T 4
#define STRIP_SIZE_DEFAULT 8192
#define TIFF_MAX_DIR_COUNT 1048576
#define VERSION "4.5.0"
#define TIFF_SIZE_FORMAT "zu"
#define TIFF_SSIZE_FORMAT PRId32
