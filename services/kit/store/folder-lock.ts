import { closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { hostname } from 'node:os';

/** The embedded store cannot be used as asked; the message names the folder and what to do. */
export class StoreError extends Error {
  override name = 'StoreError';
}

interface Owner {
  pid: number;
  /** Linux start time of the process (clock ticks since boot), so a reused pid is not taken for the owner. */
  startTime: string | null;
  host: string;
}

/** Field 22 of /proc/<pid>/stat, after the parenthesised command name (which may hold spaces). */
function startTimeOf(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? null;
  } catch {
    return null;
  }
}

function alive(owner: Owner): boolean {
  if (owner.host !== hostname()) return true; // a folder shared over a network file system: never guess
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = startTimeOf(owner.pid);
  return owner.startTime === null || now === null || now === owner.startTime;
}

function readOwner(path: string): Owner | undefined {
  try {
    const parsed = JSON.parse(readFileSync(path, 'utf8')) as Partial<Owner>;
    if (typeof parsed.pid !== 'number') return undefined;
    return { pid: parsed.pid, startTime: parsed.startTime ?? null, host: parsed.host ?? hostname() };
  } catch {
    return undefined; // unreadable or half-written by a process that died while writing it
  }
}

/** The live process holding `dir`, if any (the backup and restore commands ask this too). */
export function ownerOf(dir: string): Owner | undefined {
  const owner = readOwner(`${dir}.lock`);
  return owner !== undefined && alive(owner) ? owner : undefined;
}

const inUse = (dir: string, owner: Owner) =>
  new StoreError(
    `the data folder ${dir} is in use by process ${owner.pid}${owner.host === hostname() ? '' : ` on ${owner.host}`}: one process per folder. ` +
      'Stop that process first, or give this one its own DATA_DIR (or DATABASE_URL for a shared PostgreSQL server).',
  );

export interface FolderLock {
  release(): void;
}

/**
 * One process per embedded data folder: two PGlite processes on one folder damage its
 * write-ahead log. The lock is a file beside the folder naming its owner's pid and start time,
 * created exclusively; a lock whose owner is gone (kill -9) is taken over at once.
 * Hand-written on purpose: proper-lockfile and similar judge a lock by its age, so a restart
 * after kill -9 would wait out the stale period, and a stalled event loop could lose a live lock.
 */
export function lockFolder(dir: string): FolderLock {
  const path = `${dir}.lock`;
  const mine: Owner = { pid: process.pid, startTime: startTimeOf(process.pid), host: hostname() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      writeSync(fd, JSON.stringify(mine));
      closeSync(fd);
      return {
        release: () => {
          if (readOwner(path)?.pid === mine.pid) unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw new StoreError(`the lock ${path} of the data folder ${dir} cannot be written: ${(error as Error).message}`);
    }
    const owner = readOwner(path);
    if (owner !== undefined && alive(owner)) throw inUse(dir, owner);
    // Stale: move it aside atomically; if what moved is not the stale record just judged (another
    // starter took the folder in between), put it back and report the folder in use.
    const aside = `${path}.stale-${process.pid}`;
    try {
      renameSync(path, aside);
    } catch {
      continue; // someone else moved it first: try again
    }
    const moved = readOwner(aside);
    if (moved !== undefined && owner !== undefined && moved.pid !== owner.pid && alive(moved)) {
      renameSync(aside, path);
      throw inUse(dir, moved);
    }
    unlinkSync(aside);
  }
  throw new StoreError(`the data folder ${dir} could not be locked: other processes keep taking it; start one at a time.`);
}
