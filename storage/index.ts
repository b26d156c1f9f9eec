// The storage layer's public API: bytes on disk (atomic files, the segment container, codecs,
// roaring bitmaps, the durable append log and the write-ahead log built on it, the manifest).
// Code outside storage/ imports from here.

export * from './errors.ts';
export * from './crc32.ts';
export * from './atomic-file.ts';
export * from './byte-writer.ts';
export * from './byte-reader.ts';
export * from './bit-packing.ts';
export * from './unrolled-unpack.ts';
export * from './segment-file.ts';
export * from './roaring.ts';
export * from './record-framing.ts';
export * from './line-framing.ts';
export * from './append-log.ts';
export * from './wal-frame.ts';
export * from './wal.ts';
export * from './manifest.ts';
export * from './mapped-file.ts';
export * from './large-arrays.ts';
export * from './private-json-file.ts';
export * from './tar-format.ts';
export * from './spill-file.ts';
