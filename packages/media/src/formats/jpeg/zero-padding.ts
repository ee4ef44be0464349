// A file cut short is sometimes padded with zeros to its full size (a download or copy that preallocated
// it). To libjpeg zero bytes are entropy data like any other: it decodes them into rows of noise and runs
// out of data far below where the real data ended (100 KB of a 7.3 MB photo, then zeros: "the bottom 59 %"
// missing, but rows from 2 % down differed from the real image by 68–92 in mean). Zeros that run to the
// end of the file, with no EOI before them, are not data: the decoder is given the bytes before them, so
// it runs out where the real data does and the warning's share is the real one.

/** `bytes` without the run of zero bytes that ends it, unless an EOI marker ends the data before them. */
export function withoutTrailingZeros(bytes: Uint8Array): Uint8Array {
  let end = bytes.length;
  while (end > 0 && bytes[end - 1] === 0) end--;
  if (end === bytes.length) return bytes;
  // After an EOI the zeros are padding libjpeg never reads; a byte stuffed after 0xFF is data only mid-stream.
  if (end >= 2 && bytes[end - 2] === 0xff && bytes[end - 1] === 0xd9) return bytes;
  return bytes.subarray(0, end);
}
