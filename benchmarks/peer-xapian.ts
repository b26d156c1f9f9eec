// The Xapian peer of the throughput benchmarks: finds a Python that can `import xapian`
// (Debian's python3-xapian lives in /usr/bin/python3; the `python3` on PATH may be another
// one without it) and runs benchmarks/peers/xapian_peer.py with it, which speaks
// peer-process.ts's protocol. Where no Python has the module the peer is skipped: the caller
// gets null and a note is printed, never an error.

import { spawnSync } from 'node:child_process';
import { runPeerCommand } from './peer-process.ts';
import type { PeerInput, PeerResult } from './peer-process.ts';

const PYTHON_CANDIDATES = ['/usr/bin/python3', 'python3'];
const PEER_SCRIPT = 'benchmarks/peers/xapian_peer.py';

let found: string | null | undefined;

/** The first candidate Python that imports xapian, or null (probed once). */
export function xapianPython(): string | null {
  if (found === undefined) {
    found = PYTHON_CANDIDATES.find((python) => spawnSync(python, ['-c', 'import xapian'], { stdio: 'ignore' }).status === 0) ?? null;
  }
  return found;
}

export const XAPIAN_SKIPPED_NOTE =
  `Xapian peer skipped: no Python with the xapian module (tried ${PYTHON_CANDIDATES.join(', ')}; on Debian: apt-get install python3-xapian).`;

/** Runs the Xapian peer, or prints why it is skipped and resolves with null. */
export async function runXapianPeer(input: PeerInput): Promise<PeerResult | null> {
  const python = xapianPython();
  if (python === null) {
    console.log(XAPIAN_SKIPPED_NOTE);
    return null;
  }
  return runPeerCommand('xapian_peer.py', python, [PEER_SCRIPT], input);
}
