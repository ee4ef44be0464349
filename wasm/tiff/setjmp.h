/* wasm32-wasi has no setjmp/longjmp. libtiff's JPEG codecs use them only to leave libjpeg after a fatal
 * error, which they have already reported; here that jump ends the decode through the host's `fail`
 * import instead (decode.c), and the host drops the instance (one per call), so nothing resumes in a
 * half-unwound state. */
#ifndef GLIMPSE_SETJMP_H
#define GLIMPSE_SETJMP_H
typedef int jmp_buf[1];
_Noreturn void glimpse_jpeg_abort(void);
#define setjmp(buffer) ((void)(buffer), 0)
#define longjmp(buffer, value) ((void)(buffer), (void)(value), glimpse_jpeg_abort())
#endif
