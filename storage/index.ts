// The storage layer's public API: bytes on disk (atomic files, the segment container, codecs,
// roaring bitmaps, the write-ahead log, the manifest). Code outside storage/ imports from here.

export * from './errors.ts';
export * from './crc32.ts';
export * from './atomic-file.ts';
export * from './byte-writer.ts';
export * from './byte-reader.ts';
export * from './bit-packing.ts';
export * from './segment-file.ts';
export * from './roaring.ts';
export * from './wal-frame.ts';
export * from './wal.ts';
export * from './manifest.ts';
export * from './mapped-file.ts';
export * from './private-json-file.ts';
