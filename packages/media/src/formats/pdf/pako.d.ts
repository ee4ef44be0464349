// The part of pako 1.x (zlib in JavaScript, pdf-lib's own dependency) that the PDF check uses. pako is
// CommonJS: its exports are one default object, as pdf-lib imports it too.
declare module 'pako' {
  class Inflate {
    constructor(options?: { chunkSize?: number });
    /** zlib's status after `push`: 0, or a negative error code. */
    err: number;
    /** zlib's message for `err` ("invalid distance too far back", …). */
    msg: string;
    onData(chunk: Uint8Array): void;
    /** zlib's stream: the output chunk being filled and how far (pako emits it only when full or at the end). */
    strm: { output: Uint8Array | null; next_out: number };
    push(data: Uint8Array, end: boolean): boolean;
  }
  const pako: { Inflate: typeof Inflate };
  export default pako;
}
