// The title in an OLE2 compound file's summary properties (`\x05SummaryInformation`, the
// property set [MS-OLEPS] every Office 97–2003 file carries): Word, Excel and PowerPoint files
// and Outlook messages read their titles here. A damaged property set has no title.

import { cleanTitle } from '../text-formats/tidy.ts';
import type { CompoundFile } from './compound-file.ts';

const SUMMARY_STREAM = '\u0005SummaryInformation';
/** FMTID_SummaryInformation {F29F85E0-4FF9-1068-AB91-08002B27B3D9} as stored. */
const FMTID_SUMMARY = [0xe0, 0x85, 0x9f, 0xf2, 0xf9, 0x4f, 0x68, 0x10, 0xab, 0x91, 0x08, 0x00, 0x2b, 0x27, 0xb3, 0xd9];
const PID_CODEPAGE = 1;
const PID_TITLE = 2;
const VT_LPSTR = 30;
const VT_LPWSTR = 31;

/** Bytes in a Windows code page (as a property set's PID_CODEPAGE names it), decoded. */
function decodeCodepage(bytes: Uint8Array, codepage: number): string {
  const labels: Record<number, string> = {
    65001: 'utf-8', 1200: 'utf-16le', 1201: 'utf-16be', 932: 'shift_jis', 936: 'gbk', 949: 'euc-kr',
    950: 'big5', 874: 'windows-874', 10000: 'macintosh', 20866: 'koi8-r', 28591: 'iso-8859-1',
  };
  const label = labels[codepage] ?? (codepage >= 1250 && codepage <= 1258 ? `windows-${codepage}` : 'windows-1252');
  try {
    return new TextDecoder(label).decode(bytes);
  } catch {
    return new TextDecoder('windows-1252').decode(bytes);
  }
}

/** The title in the summary properties, or null (also when they are missing or damaged). */
export function summaryTitle(file: CompoundFile): string | null {
  try {
    const data = file.stream(SUMMARY_STREAM);
    if (data === null) return null;
    const view = new DataView(data.buffer, data.byteOffset, data.byteLength);
    if (view.getUint16(0, true) !== 0xfffe) return null;
    const sets = Math.min(view.getUint32(24, true), 8);
    for (let s = 0; s < sets; s++) {
      const header = 28 + s * 20;
      if (!FMTID_SUMMARY.every((b, i) => data[header + i] === b)) continue;
      const base = view.getUint32(header + 16, true);
      const count = Math.min(view.getUint32(base + 4, true), (data.length - base) / 8);
      let codepage = 1252;
      let titleAt = -1;
      for (let p = 0; p < count; p++) {
        const id = view.getUint32(base + 8 + p * 8, true);
        const at = base + view.getUint32(base + 12 + p * 8, true);
        if (id === PID_CODEPAGE) codepage = view.getUint16(at + 4, true);
        if (id === PID_TITLE) titleAt = at;
      }
      if (titleAt < 0) return null;
      const type = view.getUint32(titleAt, true);
      const length = view.getUint32(titleAt + 4, true);
      if (length > data.length) return null;
      let title: string;
      if (type === VT_LPWSTR) title = new TextDecoder('utf-16le').decode(data.subarray(titleAt + 8, titleAt + 8 + length * 2));
      else if (type === VT_LPSTR) title = decodeCodepage(data.subarray(titleAt + 8, titleAt + 8 + length), codepage);
      else return null;
      return cleanTitle(title.split('\0')[0]);
    }
  } catch {
    // A damaged property set (or its stream) has no usable title; the text may still be fine.
  }
  return null;
}

