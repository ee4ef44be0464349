/* glimpse's libjpeg-turbo configuration for wasm32 (stands in for the CMake-generated jconfig.h). */
#define JPEG_LIB_VERSION 80
#define LIBJPEG_TURBO_VERSION 2.1.5
#define LIBJPEG_TURBO_VERSION_NUMBER 2001005
#define MEM_SRCDST_SUPPORTED 1
/* Decode arithmetic-coded JPEGs (rare, but legal and read by mozjpeg); never encode them. */
#define D_ARITH_CODING_SUPPORTED 1
#define BITS_IN_JSAMPLE 8
