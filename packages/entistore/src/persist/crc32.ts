/**
 * @module CRC-32 (IEEE 802.3, the one of zip and PNG), to tell a journal or snapshot frame written
 * whole from one cut short or damaged. Written here rather than taken from a package: a table and
 * a loop. (node:zlib has crc32 only from Node 20.15/22.2, and the engines field says 20.19, but
 * a checksum this small is not worth a version question.)
 */

const TABLE = (() => {
  const table = new Int32Array(256)
  for (let n = 0; n < 256; n++) {
    let c = n
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
    table[n] = c
  }
  return table
})()

/** The CRC-32 of `bytes[start, end)`, as an unsigned 32-bit integer. */
export function crc32(bytes: Uint8Array, start = 0, end = bytes.length): number {
  let c = -1
  for (let i = start; i < end; i++) c = TABLE[(c ^ bytes[i]!) & 0xff]! ^ (c >>> 8)
  return (c ^ -1) >>> 0
}
