// Stands in for the neon-compat.h libjpeg-turbo's CMake generates from simd/arm/neon-compat.h.in: which
// multi-register loads the compiler has (SIMDe has all three) and the bit-twiddling builtins (clang's).
#pragma once
#define HAVE_VLD1_S16_X3
#define HAVE_VLD1_U16_X2
#define HAVE_VLD1Q_U8_X4
#define BUILTIN_CLZ(x) __builtin_clz(x)
#define BUILTIN_CLZLL(x) __builtin_clzll(x)
#define BUILTIN_BSWAP64(x) __builtin_bswap64(x)
