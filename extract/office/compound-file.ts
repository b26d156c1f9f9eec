// A strict reader for OLE2 Compound Files ([MS-CFB]: the container of .doc, .xls, .ppt, .msg),
// over bytes in memory. It checks everything it follows: sector numbers inside the file,
// chains without loops, table sizes the file can hold, so a damaged or hostile file fails
// quickly as ExtractionError('extraction_failed') instead of looping or allocating without
// bound. Streams are found by path: a root stream by its name, a stream inside storages as
// `storage/stream` (an Outlook message keeps each attachment in a storage of its own).

import { ExtractionError } from '../extraction.ts';

const SIGNATURE = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1];
const HEADER_BYTES = 512;
const DIRECTORY_ENTRY_BYTES = 128;
/** Sector numbers above MAXREGSECT are markers: DIFSECT, FATSECT, ENDOFCHAIN, FREESECT. */
const MAXREGSECT = 0xfffffffa;
const NOSTREAM = 0xffffffff;
const TYPE_STORAGE = 1;
const TYPE_STREAM = 2;
/** Storages within storages followed at most (a message attached to a message attached…). */
const MAX_STORAGE_DEPTH = 8;
const TYPE_ROOT = 5;

function failed(message: string): ExtractionError {
  return new ExtractionError('extraction_failed', `the file is not a readable OLE2 compound file: ${message}`);
}

/** Whether the bytes start with the OLE2 signature. */
export function isCompoundFile(bytes: Uint8Array): boolean {
  return bytes.length >= SIGNATURE.length && SIGNATURE.every((b, i) => bytes[i] === b);
}

export interface CompoundEntry {
  name: string;
  type: number;
  left: number;
  right: number;
  child: number;
  start: number;
  size: number;
}

export class CompoundFile {
  private readonly view: DataView;
  private readonly sectorSize: number;
  private readonly miniSectorSize: number;
  private readonly miniCutoff: number;
  /** Sectors the file holds (the last may be short: it is read zero-padded). */
  private readonly sectorCount: number;
  private readonly fat: Uint32Array;
  private miniFat: Uint32Array = new Uint32Array(0);
  private miniStream: Uint8Array = new Uint8Array(0);
  private miniStreamSectors: number[] = [];
  private readonly entries: CompoundEntry[];
  private readonly rootEntry: CompoundEntry;
  /** Streams by path (`name`, `storage/name`); a repeated path keeps its last entry. */
  private readonly streams = new Map<string, CompoundEntry>();
  /** Storages by path, as streams are. */
  private readonly storages = new Set<string>();

  private constructor(private readonly bytes: Uint8Array) {
    if (!isCompoundFile(bytes)) throw failed('no OLE2 signature');
    if (bytes.length < HEADER_BYTES) throw failed('the header is truncated');
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const u16 = (at: number): number => this.view.getUint16(at, true);
    const u32 = (at: number): number => this.view.getUint32(at, true);
    if (u16(28) !== 0xfffe) throw failed('bad byte-order mark');
    const sectorShift = u16(30);
    const miniShift = u16(32);
    if (sectorShift !== 9 && sectorShift !== 12) throw failed(`bad sector size (2^${sectorShift})`);
    if (miniShift < 6 || miniShift >= sectorShift) throw failed(`bad mini sector size (2^${miniShift})`);
    this.sectorSize = 1 << sectorShift;
    this.miniSectorSize = 1 << miniShift;
    this.miniCutoff = u32(56);
    this.sectorCount = Math.max(0, Math.ceil((bytes.length - this.sectorSize) / this.sectorSize));

    const fatSectors = u32(44);
    const difatSectors = u32(72);
    if (fatSectors > this.sectorCount || difatSectors > this.sectorCount) throw failed('its allocation tables are larger than the file');
    this.fat = this.readFat(fatSectors, u32(68), difatSectors);

    const directory = this.readChain(u32(48), 'the directory');
    this.entries = [];
    for (let at = 0; at + DIRECTORY_ENTRY_BYTES <= directory.length; at += DIRECTORY_ENTRY_BYTES) {
      this.entries.push(readEntry(directory, at));
    }
    const root = this.entries.find((entry) => entry.type === TYPE_ROOT);
    if (root === undefined) throw failed('no root entry');
    this.rootEntry = root;
    this.collectStreams(root.child);
    this.readMiniFat(u32(60), u32(64));
  }

  /** Parses the container; throws extraction_failed when its structure is damaged. */
  static open(bytes: Uint8Array): CompoundFile {
    return new CompoundFile(bytes);
  }

  private sectorBytes(sector: number): Uint8Array {
    const start = (sector + 1) * this.sectorSize;
    const out = new Uint8Array(this.sectorSize);
    out.set(this.bytes.subarray(start, Math.min(start + this.sectorSize, this.bytes.length)));
    return out;
  }

  private checkSector(sector: number, what: string): void {
    if (sector >= this.sectorCount) throw failed(`${what} points past the end of the file (sector ${sector})`);
  }

  private readFat(fatSectors: number, firstDifat: number, difatSectors: number): Uint32Array {
    const locations: number[] = [];
    for (let i = 0; i < 109 && locations.length < fatSectors; i++) locations.push(this.view.getUint32(76 + i * 4, true));
    const perDifat = this.sectorSize / 4 - 1;
    let difat = firstDifat;
    const seen = new Set<number>();
    for (let n = 0; n < difatSectors && locations.length < fatSectors; n++) {
      if (difat > MAXREGSECT) break;
      this.checkSector(difat, 'the DIFAT');
      if (seen.has(difat)) throw failed('the DIFAT chain loops');
      seen.add(difat);
      const sector = new DataView(this.sectorBytes(difat).buffer);
      for (let i = 0; i < perDifat && locations.length < fatSectors; i++) locations.push(sector.getUint32(i * 4, true));
      difat = sector.getUint32(perDifat * 4, true);
    }
    if (locations.length < fatSectors) throw failed('the DIFAT lists fewer FAT sectors than the header says');
    const fat = new Uint32Array((fatSectors * this.sectorSize) / 4);
    locations.forEach((location, i) => {
      this.checkSector(location, 'the FAT');
      const sector = this.sectorBytes(location);
      fat.set(new Uint32Array(sector.buffer, 0, this.sectorSize / 4), (i * this.sectorSize) / 4);
    });
    return fat;
  }

  /**
   * The sectors of a chain in the FAT (or the mini FAT), checked for loops and bounds. Any
   * marker ends a chain (ENDOFCHAIN, or FREESECT from a careless writer); a stream whose
   * chain ends too soon is caught by its size.
   */
  private chain(start: number, table: Uint32Array, limit: number, what: string): number[] {
    const sectors: number[] = [];
    const seen = new Set<number>();
    for (let sector = start; sector <= MAXREGSECT; sector = table[sector]) {
      if (sector >= limit || sector >= table.length) throw failed(`${what} has a bad sector number (${sector})`);
      if (seen.has(sector)) throw failed(`${what} loops`);
      seen.add(sector);
      sectors.push(sector);
    }
    return sectors;
  }

  /** A chain of regular sectors, concatenated. */
  private readChain(start: number, what: string): Uint8Array {
    return this.readSectors(this.chain(start, this.fat, this.sectorCount, what));
  }

  private readSectors(sectors: number[]): Uint8Array {
    const out = new Uint8Array(sectors.length * this.sectorSize);
    sectors.forEach((sector, i) => out.set(this.sectorBytes(sector), i * this.sectorSize));
    return out;
  }

  /** Walks the red-black trees of the root storage and the storages in it (without following loops). */
  private collectStreams(first: number): void {
    const visited = new Set<number>();
    // Preorder (node, left, right) as other readers do, so a repeated name resolves the same way.
    const stack: { id: number; prefix: string; depth: number }[] = [{ id: first, prefix: '', depth: 0 }];
    while (stack.length > 0) {
      const { id, prefix, depth } = stack.pop()!;
      if (id === NOSTREAM) continue;
      if (id >= this.entries.length) throw failed(`a directory entry points past the directory (${id})`);
      if (visited.has(id)) throw failed('the directory tree loops');
      visited.add(id);
      const entry = this.entries[id];
      if (entry.type === TYPE_STREAM) this.streams.set(prefix + entry.name, entry);
      if (entry.type === TYPE_STORAGE && depth < MAX_STORAGE_DEPTH) {
        this.storages.add(prefix + entry.name);
        stack.push({ id: entry.child, prefix: `${prefix}${entry.name}/`, depth: depth + 1 });
      }
      stack.push({ id: entry.right, prefix, depth }, { id: entry.left, prefix, depth });
    }
  }

  /** The mini FAT, and the mini stream it allocates (the root entry's chain). */
  private readMiniFat(first: number, sectors: number): void {
    const table = this.readChain(first, 'the mini FAT');
    if (table.length !== sectors * this.sectorSize) throw failed('the mini FAT does not have the size the header says');
    this.miniFat = new Uint32Array(table.buffer, 0, table.length / 4);
    this.miniStreamSectors = this.chain(this.rootEntry.start, this.fat, this.sectorCount, 'the mini stream');
    this.miniStream = this.readSectors(this.miniStreamSectors);
  }

  /** Paths of every stream (`name` in the root storage, `storage/name` inside storages). */
  get streamNames(): string[] {
    return [...this.streams.keys()];
  }

  /** Paths of every storage, as for streams. */
  get storageNames(): string[] {
    return [...this.storages];
  }

  /** Where a stream lies: its entry and its chain of (mini) sectors. */
  private layout(name: string): { entry: CompoundEntry; sectors: number[]; mini: boolean } | null {
    const entry = this.streams.get(name);
    if (entry === undefined) return null;
    const what = `the stream "${name}"`;
    const mini = entry.size < this.miniCutoff;
    let sectors: number[] = [];
    if (entry.size > 0 && entry.start <= MAXREGSECT) {
      sectors = mini
        ? this.chain(entry.start, this.miniFat, Math.floor(this.miniStream.length / this.miniSectorSize), what)
        : this.chain(entry.start, this.fat, this.sectorCount, what);
    }
    const unit = mini ? this.miniSectorSize : this.sectorSize;
    if (sectors.length * unit < entry.size) throw failed(`${what} is truncated`);
    return { entry, sectors, mini };
  }

  /** The stream at `path` (`name`, or `storage/name`), or null when there is none. */
  stream(name: string): Uint8Array | null {
    const found = this.layout(name);
    if (found === null) return null;
    const { entry, sectors, mini } = found;
    const unit = mini ? this.miniSectorSize : this.sectorSize;
    const data = new Uint8Array(sectors.length * unit);
    sectors.forEach((sector, i) => {
      if (mini) data.set(this.miniStream.subarray(sector * unit, (sector + 1) * unit), i * unit);
      else data.set(this.sectorBytes(sector), i * unit);
    });
    return data.subarray(0, entry.size);
  }

  /**
   * Maps offsets in a stream to offsets in the file (to patch a stream in a copy of the
   * file); -1 for an offset past the stream or the file's end. Null when there is no stream.
   */
  fileOffsets(name: string): ((offset: number) => number) | null {
    const found = this.layout(name);
    if (found === null) return null;
    const { entry, sectors, mini } = found;
    const unit = mini ? this.miniSectorSize : this.sectorSize;
    return (offset) => {
      if (offset < 0 || offset >= entry.size) return -1;
      let at = sectors[Math.floor(offset / unit)] * unit + (offset % unit);
      if (mini) {
        const sector = this.miniStreamSectors[Math.floor(at / this.sectorSize)];
        if (sector === undefined) return -1;
        at = sector * this.sectorSize + (at % this.sectorSize);
      }
      const fileOffset = at + this.sectorSize;
      return fileOffset < this.bytes.length ? fileOffset : -1;
    };
  }
}

function readEntry(directory: Uint8Array, at: number): CompoundEntry {
  const view = new DataView(directory.buffer, directory.byteOffset + at, DIRECTORY_ENTRY_BYTES);
  const nameBytes = Math.min(Math.max(view.getUint16(64, true) - 2, 0), 62) & ~1;
  const name = new TextDecoder('utf-16le').decode(directory.subarray(at, at + nameBytes));
  return {
    name,
    type: view.getUint8(66),
    left: view.getUint32(68, true),
    right: view.getUint32(72, true),
    child: view.getUint32(76, true),
    start: view.getUint32(116, true),
    // Version 3 files may leave garbage in the high half of the size: use the low half.
    size: view.getUint32(120, true),
  };
}
