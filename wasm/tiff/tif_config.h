/* libtiff's private tif_config.h for wasm32-wasi (normally written by its configure step). */
#include "tiffconf.h"
#define HAVE_ASSERT_H 1
#define HAVE_FCNTL_H 1
#define HAVE_STRINGS_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
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
