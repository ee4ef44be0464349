/* libde265's config.h for wasm32-wasi (normally written by its configure script): what wasi-libc has. */
#define HAVE_ALLOCA_H 1
#define HAVE_POSIX_MEMALIGN 1
#define HAVE_STDINT_H 1
#define HAVE_STDBOOL_H 1
