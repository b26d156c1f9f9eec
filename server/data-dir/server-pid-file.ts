// `<dataDir>/server.pid`: the process id of the server using a data directory, written once
// it listens and removed when it closes. `folio check --repair` and `folio restore` refuse
// to change a data directory a live server holds (a server killed with SIGKILL leaves the file
// behind, but its process is gone, so it holds nothing).

import fs from 'node:fs';
import path from 'node:path';

export const SERVER_PID_FILE = 'server.pid';

export function writeServerPid(dataDir: string): void {
  fs.writeFileSync(path.join(dataDir, SERVER_PID_FILE), `${process.pid}\n`, { mode: 0o600 });
}

export function removeServerPid(dataDir: string): void {
  fs.rmSync(path.join(dataDir, SERVER_PID_FILE), { force: true });
}

/** The pid of a live server using `dataDir`, or null. */
export function runningServerPid(dataDir: string): number | null {
  let pid: number;
  try {
    pid = Number(fs.readFileSync(path.join(dataDir, SERVER_PID_FILE), 'utf8').trim());
  } catch {
    return null;
  }
  if (!Number.isSafeInteger(pid) || pid <= 0 || pid === process.pid) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM' ? pid : null;
  }
}
