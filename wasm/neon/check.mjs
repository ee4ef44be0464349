// Checks wasm/neon/arm_neon.h against SIMDe (Debian's libsimde-dev), whose portable implementations of the
// Neon intrinsics are slow on WASM but follow Arm's definitions: every intrinsic the header defines runs on
// the same inputs through both (random bytes mixed with the edge values 0, 1, 0x7F, 0x80, 0xFF, in every
// lane of both halves of a register, every immediate a test names), and every byte of every result must
// agree. A 64-bit vector's unused high half is filled with noise on our side, so an intrinsic that read it
// would fail. Run by scripts/check-wasm.sh; needs the WASM toolchain and Node's WASI.
// Usage: node wasm/neon/check.mjs
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { WASI } from 'node:wasi';

const HERE = path.dirname(fileURLToPath(import.meta.url));

// name: [result, ...arguments]. Types are Neon's; `const T*` and `T*` are input and output buffers;
// `imm a-b` is an immediate tried at every value from a to b.
const SPEC = {
  vabdl_u8: ['uint16x8_t', 'uint8x8_t', 'uint8x8_t'],
  vabdq_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t'],
  vabsq_s16: ['int16x8_t', 'int16x8_t'],
  vaddl_u8: ['uint16x8_t', 'uint8x8_t', 'uint8x8_t'],
  vaddq_u8: ['uint8x16_t', 'uint8x16_t', 'uint8x16_t'],
  vandq_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t'],
  vbsl_u8: ['uint8x8_t', 'uint8x8_t', 'uint8x8_t', 'uint8x8_t'],
  vcleq_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t'],
  vext_u8: ['uint8x8_t', 'uint8x8_t', 'uint8x8_t', 'imm 0-7'],
  vhadd_u8: ['uint8x8_t', 'uint8x8_t', 'uint8x8_t'],
  vld4_u32: ['uint32x2x4_t', 'const uint32_t*'],
  vld1q_dup_u32: ['uint32x4_t', 'const uint32_t*'],
  vld1q_lane_u32: ['uint32x4_t', 'const uint32_t*', 'uint32x4_t', 'imm 0-3'],
  vld3_dup_u8: ['uint8x8x3_t', 'const uint8_t*'],
  vld3_lane_u8: ['uint8x8x3_t', 'const uint8_t*', 'uint8x8x3_t', 'imm 0-7'],
  vst1q_u32: ['void', 'uint32_t*', 'uint32x4_t'],
  vst1_lane_u32: ['void', 'uint32_t*', 'uint32x2_t', 'imm 0-1'],
  vst4_lane_u32: ['void', 'uint32_t*', 'uint32x2x4_t', 'imm 0-1'],
  vadd_s16: ['int16x4_t', 'int16x4_t', 'int16x4_t'],
  vadd_u8: ['uint8x8_t', 'uint8x8_t', 'uint8x8_t'],
  vaddhn_s32: ['int16x4_t', 'int32x4_t', 'int32x4_t'],
  vaddq_s16: ['int16x8_t', 'int16x8_t', 'int16x8_t'],
  vaddq_s32: ['int32x4_t', 'int32x4_t', 'int32x4_t'],
  vaddq_s8: ['int8x16_t', 'int8x16_t', 'int8x16_t'],
  vaddq_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t'],
  vaddv_u8: ['uint8_t', 'uint8x8_t'],
  vaddw_u8: ['uint16x8_t', 'uint16x8_t', 'uint8x8_t'],
  vand_u8: ['uint8x8_t', 'uint8x8_t', 'uint8x8_t'],
  vandq_u8: ['uint8x16_t', 'uint8x16_t', 'uint8x16_t'],
  vceqq_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t'],
  vcltzq_s16: ['uint16x8_t', 'int16x8_t'],
  vclzq_s16: ['int16x8_t', 'int16x8_t'],
  vcnt_u8: ['uint8x8_t', 'uint8x8_t'],
  vcombine_s16: ['int16x8_t', 'int16x4_t', 'int16x4_t'],
  vcombine_s8: ['int8x16_t', 'int8x8_t', 'int8x8_t'],
  vcombine_u16: ['uint16x8_t', 'uint16x4_t', 'uint16x4_t'],
  vcombine_u8: ['uint8x16_t', 'uint8x8_t', 'uint8x8_t'],
  vdup_n_u8: ['uint8x8_t', 'uint8_t'],
  vdupq_n_s16: ['int16x8_t', 'int16_t'],
  vdupq_n_u16: ['uint16x8_t', 'uint16_t'],
  vdupq_n_u32: ['uint32x4_t', 'uint32_t'],
  vdupq_n_u64: ['uint64x2_t', 'uint64_t'],
  vdupq_n_u8: ['uint8x16_t', 'uint8_t'],
  veorq_s16: ['int16x8_t', 'int16x8_t', 'int16x8_t'],
  veorq_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t'],
  vget_high_s16: ['int16x4_t', 'int16x8_t'],
  vget_high_s32: ['int32x2_t', 'int32x4_t'],
  vget_high_u16: ['uint16x4_t', 'uint16x8_t'],
  vget_high_u8: ['uint8x8_t', 'uint8x16_t'],
  vget_lane_s64: ['int64_t', 'int64x1_t', 'imm 0-0'],
  vget_lane_u32: ['uint32_t', 'uint32x2_t', 'imm 0-1'],
  vget_lane_u64: ['uint64_t', 'uint64x1_t', 'imm 0-0'],
  vget_low_s16: ['int16x4_t', 'int16x8_t'],
  vget_low_s32: ['int32x2_t', 'int32x4_t'],
  vget_low_u16: ['uint16x4_t', 'uint16x8_t'],
  vget_low_u8: ['uint8x8_t', 'uint8x16_t'],
  vgetq_lane_s16: ['int16_t', 'int16x8_t', 'imm 0-7'],
  vgetq_lane_s64: ['int64_t', 'int64x2_t', 'imm 0-1'],
  vgetq_lane_u16: ['uint16_t', 'uint16x8_t', 'imm 0-7'],
  vld1_s16: ['int16x4_t', 'const int16_t*'],
  vld1_s16_x3: ['int16x4x3_t', 'const int16_t*'],
  vld1_u8: ['uint8x8_t', 'const uint8_t*'],
  vld1q_dup_s16: ['int16x8_t', 'const int16_t*'],
  vld1q_lane_s16: ['int16x8_t', 'const int16_t*', 'int16x8_t', 'imm 0-7'],
  vld1q_s16: ['int16x8_t', 'const int16_t*'],
  vld1q_s8: ['int8x16_t', 'const int8_t*'],
  vld1q_s8_x4: ['int8x16x4_t', 'const int8_t*'],
  vld1q_u16: ['uint16x8_t', 'const uint16_t*'],
  vld1q_u8: ['uint8x16_t', 'const uint8_t*'],
  vld1q_u8_x4: ['uint8x16x4_t', 'const uint8_t*'],
  vld2_u8: ['uint8x8x2_t', 'const uint8_t*'],
  vld3_u8: ['uint8x8x3_t', 'const uint8_t*'],
  vld3q_u8: ['uint8x16x3_t', 'const uint8_t*'],
  vld4_u8: ['uint8x8x4_t', 'const uint8_t*'],
  vld4q_s16: ['int16x8x4_t', 'const int16_t*'],
  vld4q_u8: ['uint8x16x4_t', 'const uint8_t*'],
  vmlal_lane_s16: ['int32x4_t', 'int32x4_t', 'int16x4_t', 'int16x4_t', 'imm 0-3'],
  vmlal_laneq_u16: ['uint32x4_t', 'uint32x4_t', 'uint16x4_t', 'uint16x8_t', 'imm 0-7'],
  vmlal_n_u16: ['uint32x4_t', 'uint32x4_t', 'uint16x4_t', 'uint16_t'],
  vmlal_u8: ['uint16x8_t', 'uint16x8_t', 'uint8x8_t', 'uint8x8_t'],
  vmlaq_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t', 'uint16x8_t'],
  vmlsl_lane_s16: ['int32x4_t', 'int32x4_t', 'int16x4_t', 'int16x4_t', 'imm 0-3'],
  vmlsl_laneq_u16: ['uint32x4_t', 'uint32x4_t', 'uint16x4_t', 'uint16x8_t', 'imm 0-7'],
  vmov_n_u64: ['uint64x1_t', 'uint64_t'],
  vmovl_u8: ['uint16x8_t', 'uint8x8_t'],
  vmovn_u16: ['uint8x8_t', 'uint16x8_t'],
  vmul_s16: ['int16x4_t', 'int16x4_t', 'int16x4_t'],
  vmull_lane_s16: ['int32x4_t', 'int16x4_t', 'int16x4_t', 'imm 0-3'],
  vmull_laneq_u16: ['uint32x4_t', 'uint16x4_t', 'uint16x8_t', 'imm 0-7'],
  vmull_n_u16: ['uint32x4_t', 'uint16x4_t', 'uint16_t'],
  vmull_u16: ['uint32x4_t', 'uint16x4_t', 'uint16x4_t'],
  vmulq_s16: ['int16x8_t', 'int16x8_t', 'int16x8_t'],
  vnegq_s16: ['int16x8_t', 'int16x8_t'],
  vorr_s16: ['int16x4_t', 'int16x4_t', 'int16x4_t'],
  vorrq_s16: ['int16x8_t', 'int16x8_t', 'int16x8_t'],
  vpadalq_u8: ['uint16x8_t', 'uint16x8_t', 'uint8x16_t'],
  vpadd_u8: ['uint8x8_t', 'uint8x8_t', 'uint8x8_t'],
  vpaddq_u8: ['uint8x16_t', 'uint8x16_t', 'uint8x16_t'],
  vqdmulh_lane_s16: ['int16x4_t', 'int16x4_t', 'int16x4_t', 'imm 0-3'],
  vqdmulhq_lane_s16: ['int16x8_t', 'int16x8_t', 'int16x4_t', 'imm 0-3'],
  vqmovun_s16: ['uint8x8_t', 'int16x8_t'],
  vqrdmulhq_lane_s16: ['int16x8_t', 'int16x8_t', 'int16x4_t', 'imm 0-3'],
  vqrshrn_n_s16: ['int8x8_t', 'int16x8_t', 'imm 1-8'],
  vqshluq_n_s16: ['uint16x8_t', 'int16x8_t', 'imm 0-15'],
  vqshrn_n_s16: ['int8x8_t', 'int16x8_t', 'imm 1-8'],
  vqtbl1q_u8: ['uint8x16_t', 'uint8x16_t', 'uint8x16_t'],
  vqtbl3q_s8: ['int8x16_t', 'int8x16x3_t', 'uint8x16_t'],
  vqtbl4q_s8: ['int8x16_t', 'int8x16x4_t', 'uint8x16_t'],
  vrshrn_n_s32: ['int16x4_t', 'int32x4_t', 'imm 1-16'],
  vrshrn_n_u16: ['uint8x8_t', 'uint16x8_t', 'imm 1-8'],
  vrshrn_n_u32: ['uint16x4_t', 'uint32x4_t', 'imm 1-16'],
  vrshrq_n_s16: ['int16x8_t', 'int16x8_t', 'imm 1-16'],
  vrsraq_n_s16: ['int16x8_t', 'int16x8_t', 'int16x8_t', 'imm 1-16'],
  vsetq_lane_s16: ['int16x8_t', 'int16_t', 'int16x8_t', 'imm 0-7'],
  vshl_n_s16: ['int16x4_t', 'int16x4_t', 'imm 0-15'],
  vshl_n_u64: ['uint64x1_t', 'uint64x1_t', 'imm 0-63'],
  vshll_n_s16: ['int32x4_t', 'int16x4_t', 'imm 1-15'], // SIMDe takes 1–15 only,
  vshlq_n_s16: ['int16x8_t', 'int16x8_t', 'imm 0-15'],
  vshlq_u16: ['uint16x8_t', 'uint16x8_t', 'int16x8_t'],
  vshrn_n_s32: ['int16x4_t', 'int32x4_t', 'imm 1-16'],
  vshrn_n_u16: ['uint8x8_t', 'uint16x8_t', 'imm 1-8'],
  vshrn_n_u32: ['uint16x4_t', 'uint32x4_t', 'imm 1-16'],
  vshrq_n_s16: ['int16x8_t', 'int16x8_t', 'imm 1-16'],
  vsriq_n_u16: ['uint16x8_t', 'uint16x8_t', 'uint16x8_t', 'imm 1-16'],
  vst1_lane_u8: ['void', 'uint8_t*', 'uint8x8_t', 'imm 0-7'],
  vst1_u8: ['void', 'uint8_t*', 'uint8x8_t'],
  vst1q_lane_u16: ['void', 'uint16_t*', 'uint16x8_t', 'imm 0-7'],
  vst1q_lane_u64: ['void', 'uint64_t*', 'uint64x2_t', 'imm 0-1'],
  vst1q_s16: ['void', 'int16_t*', 'int16x8_t'],
  vst1q_u16: ['void', 'uint16_t*', 'uint16x8_t'],
  vst1q_u8: ['void', 'uint8_t*', 'uint8x16_t'],
  vst2_lane_u16: ['void', 'uint16_t*', 'uint16x4x2_t', 'imm 0-3'],
  vst2q_u8: ['void', 'uint8_t*', 'uint8x16x2_t'],
  vst3_lane_u8: ['void', 'uint8_t*', 'uint8x8x3_t', 'imm 0-7'],
  vst3_u8: ['void', 'uint8_t*', 'uint8x8x3_t'],
  vst3q_u8: ['void', 'uint8_t*', 'uint8x16x3_t'],
  vst4_lane_u16: ['void', 'uint16_t*', 'uint16x4x4_t', 'imm 0-3'],
  vst4_lane_u8: ['void', 'uint8_t*', 'uint8x8x4_t', 'imm 0-7'],
  vst4_s16: ['void', 'int16_t*', 'int16x4x4_t'],
  vst4_u8: ['void', 'uint8_t*', 'uint8x8x4_t'],
  vst4q_u8: ['void', 'uint8_t*', 'uint8x16x4_t'],
  vsub_s16: ['int16x4_t', 'int16x4_t', 'int16x4_t'],
  vsubhn_s32: ['int16x4_t', 'int32x4_t', 'int32x4_t'],
  vsubl_u8: ['uint16x8_t', 'uint8x8_t', 'uint8x8_t'],
  vsubq_s16: ['int16x8_t', 'int16x8_t', 'int16x8_t'],
  vsubq_s32: ['int32x4_t', 'int32x4_t', 'int32x4_t'],
  vsubq_u8: ['uint8x16_t', 'uint8x16_t', 'uint8x16_t'],
  vtbl2_u8: ['uint8x8_t', 'uint8x8x2_t', 'uint8x8_t'],
  vtrnq_s16: ['int16x8x2_t', 'int16x8_t', 'int16x8_t'],
  vtrnq_s32: ['int32x4x2_t', 'int32x4_t', 'int32x4_t'],
  vtrnq_u16: ['uint16x8x2_t', 'uint16x8_t', 'uint16x8_t'],
  vtrnq_u8: ['uint8x16x2_t', 'uint8x16_t', 'uint8x16_t'],
  vtstq_s16: ['uint16x8_t', 'int16x8_t', 'int16x8_t'],
  vuzp1q_u8: ['uint8x16_t', 'uint8x16_t', 'uint8x16_t'],
  vuzpq_s16: ['int16x8x2_t', 'int16x8_t', 'int16x8_t'],
  vzip_u8: ['uint8x8x2_t', 'uint8x8_t', 'uint8x8_t'],
  vzipq_s32: ['int32x4x2_t', 'int32x4_t', 'int32x4_t'],
  vzipq_u32: ['uint32x4x2_t', 'uint32x4_t', 'uint32x4_t'],
};

// Where SIMDe 0.7.4 departs from Arm's definition or lacks an intrinsic, the test compares with that
// definition, written out lane by lane. vqrdmulh saturates 2·(−32768)·(−32768) + 2^15 >> 16 to 32767; SIMDe
// returns −32768. SIMDe has no vld3_dup_u8 or vld3_lane_u8.
const REFERENCES = {
  vld3_dup_u8: `static simde_uint8x8x3_t ref_vld3_dup_u8(const uint8_t *p) {
  simde_uint8x8x3_t r;
  for (int k = 0; k < 3; k++) r.val[k] = simde_vdup_n_u8(p[k]);
  return r;
}`,
  vld3_lane_u8: `static simde_uint8x8x3_t ref_vld3_lane_u8(const uint8_t *p, simde_uint8x8x3_t v, int lane) {
  for (int k = 0; k < 3; k++) {
    uint8_t bytes[8];
    memcpy(bytes, &v.val[k], sizeof bytes);
    bytes[lane] = p[k];
    memcpy(&v.val[k], bytes, sizeof bytes);
  }
  return v;
}`,
  vqrdmulhq_lane_s16: `static simde_int16x8_t ref_vqrdmulhq_lane_s16(simde_int16x8_t a, simde_int16x4_t v, int lane) {
  int16_t x[8], y[4];
  memcpy(x, &a, sizeof x);
  memcpy(y, &v, sizeof y);
  for (int i = 0; i < 8; i++) {
    int64_t r = (2 * (int64_t)x[i] * y[lane] + (1 << 15)) >> 16;
    x[i] = r > INT16_MAX ? INT16_MAX : r < INT16_MIN ? INT16_MIN : (int16_t)r;
  }
  memcpy(&a, x, sizeof x);
  return a;
}`,
};

// The reinterpretations and d-register halves need no test: they are the identity on the bits.
const IDENTITIES = /^vreinterpretq?_/;

/** Every intrinsic the header defines must be in SPEC (so an addition cannot go unchecked). */
function definedIntrinsics(header) {
  const names = new Set();
  for (const [, name] of header.matchAll(/^#define (v[a-z0-9_]+)\(/gm)) names.add(name);
  for (const [, name] of header.matchAll(/^NEON_INLINE [a-z0-9_]+ (v[a-z0-9_]+)\(/gm)) names.add(name);
  return [...names].filter((name) => !IDENTITIES.test(name));
}

const isStruct = (type) => /x\d+x\d+_t$/.test(type);
const isVector = (type) => /x\d+_t$/.test(type);
const structOf = (type) => {
  const [, base, count] = /^(.*x\d+)x(\d+)_t$/.exec(type);
  return { base: `${base}_t`, count: Number(count) };
};

/** The C test of one intrinsic at one immediate: both implementations, same inputs, bytes compared. */
function caseSource(name, [result, ...args], imm) {
  const lines = [
    `static int test_${name}_${imm ?? 0}(void) {`,
    '  int bad = 0;',
    '  for (int it = 0; it < ITERATIONS; it++) {',
  ];
  const ours = [];
  const theirs = [];
  args.forEach((type, i) => {
    if (type.startsWith('imm')) {
      ours.push(String(imm));
      theirs.push(String(imm));
    } else if (type.startsWith('const ')) {
      const element = type.slice(6, -1);
      lines.push(`    uint8_t in${i}[96]; fill(in${i}, 96);`);
      ours.push(`(const ${element} *)in${i}`);
      theirs.push(`(const ${element} *)in${i}`);
    } else if (type.endsWith('*')) {
      const element = type.slice(0, -1);
      lines.push(`    uint8_t ours${i}[96], theirs${i}[96]; fill(ours${i}, 96); memcpy(theirs${i}, ours${i}, 96);`);
      ours.push(`(${element} *)ours${i}`);
      theirs.push(`(${element} *)theirs${i}`);
    } else if (isStruct(type)) {
      const { count } = structOf(type);
      lines.push(`    ${type} a${i}; simde_${type} s${i};`);
      for (let k = 0; k < count; k++)
        lines.push(
          `    { uint8_t b[16]; fill(b, 16); a${i}.val[${k}] = wasm_v128_load(b); memcpy(&s${i}.val[${k}], b, sizeof s${i}.val[${k}]); }`,
        );
      ours.push(`a${i}`);
      theirs.push(`s${i}`);
    } else if (isVector(type)) {
      lines.push(
        `    uint8_t b${i}[16]; fill(b${i}, 16); ${type} a${i} = wasm_v128_load(b${i}); simde_${type} s${i}; memcpy(&s${i}, b${i}, sizeof s${i});`,
      );
      ours.push(`a${i}`);
      theirs.push(`s${i}`);
    } else {
      lines.push(`    ${type} a${i}; fill((uint8_t *)&a${i}, sizeof a${i});`);
      ours.push(`a${i}`);
      theirs.push(`a${i}`);
    }
  });
  const reference = REFERENCES[name] ? 'ref_' : 'simde_';
  const call = (prefix, list) => `${prefix === 'simde_' ? reference : prefix}${name}(${list.join(', ')})`;
  if (result === 'void') {
    lines.push(`    ${call('', ours)}; ${call('simde_', theirs)};`);
    args.forEach((type, i) => {
      if (type.endsWith('*') && !type.startsWith('const '))
        lines.push(`    bad |= memcmp(ours${i}, theirs${i}, 96) != 0;`);
    });
  } else if (isStruct(result)) {
    const { count } = structOf(result);
    lines.push(`    ${result} r = ${call('', ours)}; simde_${result} t = ${call('simde_', theirs)};`);
    for (let k = 0; k < count; k++)
      lines.push(
        `    { uint8_t o[16]; wasm_v128_store(o, r.val[${k}]); bad |= memcmp(o, &t.val[${k}], sizeof t.val[${k}]) != 0; }`,
      );
  } else if (isVector(result)) {
    lines.push(
      `    uint8_t o[16]; wasm_v128_store(o, ${call('', ours)}); simde_${result} t = ${call('simde_', theirs)};`,
    );
    lines.push('    bad |= memcmp(o, &t, sizeof t) != 0;');
  } else {
    lines.push(`    ${result} r = ${call('', ours)}, t = ${call('simde_', theirs)}; bad |= r != t;`);
  }
  lines.push(
    '  }',
    `  if (bad) printf("%s differs from SIMDe${imm === undefined ? '' : ` at immediate ${imm}`}\\n", "${name}");`,
  );
  lines.push('  return bad;', '}');
  return lines.join('\n');
}

function testSource() {
  const header = ['arm_neon.h', 'neon-memory.h', 'neon-compute.h']
    .map((file) => readFileSync(path.join(HERE, file), 'utf8'))
    .join('\n');
  const unspecified = definedIntrinsics(header).filter((name) => !SPEC[name]);
  if (unspecified.length > 0)
    throw new Error(`wasm/neon/check.mjs: no test for ${unspecified.join(', ')}: add it to SPEC`);
  const cases = [];
  for (const [name, signature] of Object.entries(SPEC)) {
    const imm = signature.find((type) => type.startsWith('imm'));
    if (!imm) cases.push({ fn: `test_${name}_0`, source: caseSource(name, signature) });
    else {
      const [low, high] = imm.slice(4).split('-').map(Number);
      for (let value = low; value <= high; value++)
        cases.push({ fn: `test_${name}_${value}`, source: caseSource(name, signature, value) });
    }
  }
  return [
    '#include <stdint.h>',
    '#include <stdio.h>',
    '#include <string.h>',
    '#include <simde/arm/neon.h>',
    '#include "arm_neon.h"',
    '#define ITERATIONS 2000',
    'static uint32_t state = 2463534242u;',
    'static uint32_t next(void) { state ^= state << 13; state ^= state >> 17; state ^= state << 5; return state; }',
    'static const uint8_t EDGES[] = {0, 1, 0x7F, 0x80, 0xFF};',
    ...Object.values(REFERENCES),
    // Half of the bytes random, the rest edge values (as whole lanes, often: 0x8000, 0x7FFF, 0xFFFF, …).
    'static void fill(uint8_t *p, size_t n) { for (size_t i = 0; i < n; i++) { uint32_t r = next(); p[i] = (r & 1) ? (uint8_t)(r >> 8) : EDGES[(r >> 8) % 5]; } }',
    ...cases.map((c) => c.source),
    'int main(void) {',
    '  int failed = 0;',
    ...cases.map((c) => `  failed += ${c.fn}();`),
    `  printf("wasm/neon: %d of ${cases.length} intrinsic tests differ from SIMDe\\n", failed);`,
    '  return failed != 0;',
    '}',
  ].join('\n');
}

const dir = mkdtempSync(path.join(os.tmpdir(), 'glimpse-neon-'));
try {
  writeFileSync(path.join(dir, 'check.c'), testSource());
  mkdirSimde(dir);
  execFileSync(
    process.env.CLANG ?? 'clang',
    [
      '--target=wasm32-wasi',
      '-msimd128',
      '-O1',
      '-I',
      HERE,
      '-isystem',
      path.join(dir, 'include'),
      '-Wno-pass-failed',
      '-o',
      path.join(dir, 'check.wasm'),
      path.join(dir, 'check.c'),
    ],
    { stdio: 'inherit' },
  );
  const wasi = new WASI({ version: 'preview1', args: ['check'], returnOnExit: true });
  const module = await WebAssembly.compile(readFileSync(path.join(dir, 'check.wasm')));
  const instance = await WebAssembly.instantiate(module, wasi.getImportObject());
  process.exitCode = wasi.start(instance);
} finally {
  rmSync(dir, { recursive: true, force: true });
}

/** A folder holding only SIMDe, so /usr/include's other headers stay out of the wasi sysroot's way. */
function mkdirSimde(dir) {
  execFileSync('mkdir', ['-p', path.join(dir, 'include')]);
  execFileSync('ln', ['-s', '/usr/include/simde', path.join(dir, 'include', 'simde')]);
}
