/* dav1d's build configuration for wasm32-wasi (what its meson.build would write): plain C, no assembly,
 * 8- and 16-bit pixel templates (10- and 12-bit AVIF), logging on (its messages become error texts). */
#define ARCH_AARCH64 0
#define ARCH_ARM 0
#define ARCH_PPC64LE 0
#define ARCH_X86 0
#define ARCH_X86_32 0
#define ARCH_X86_64 0
#define CONFIG_8BPC 1
#define CONFIG_16BPC 1
#define CONFIG_LOG 1
#define ENDIANNESS_BIG 0
#define HAVE_ASM 0
#define HAVE_POSIX_MEMALIGN 1
#define HAVE_UNISTD_H 1
