// Not a ZIP reader any more (that is extract/zip/): kept only because test/helpers/zip-writer.ts
// imports `crc32` from this path and test/ is being moved by someone else. Delete this file
// once that helper imports it from '../../extract/zip/index.ts'.

export { crc32 } from '../zip/index.ts';
