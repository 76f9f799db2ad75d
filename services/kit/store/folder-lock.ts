import { closeSync, fsyncSync, linkSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
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

/** The fields of /proc/<pid>/stat after the parenthesised command name (which may hold spaces). */
function statOf(pid: number): { state: string | null; startTime: string | null } {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Field 3 (state) and field 22 (start time).
    return { state: fields[0] ?? null, startTime: fields[19] ?? null };
  } catch {
    return { state: null, startTime: null };
  }
}

function alive(owner: Owner): boolean {
  if (owner.host !== hostname()) return true; // a folder shared over a network file system: never guess
  try {
    process.kill(owner.pid, 0);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EPERM') return false;
  }
  const now = statOf(owner.pid);
  // A zombie (Z, or X while being reaped) has exited; only its parent has not
  // collected it yet, so a supervisor restarting right after kill -9 must not wait for that.
  if (now.state === 'Z' || now.state === 'X') return false;
  return owner.startTime === null || now.startTime === null || now.startTime === owner.startTime;
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
 * Creates `path` holding `content`, or fails with EEXIST when it exists: the content is written
 * and synced to a file of this process first, then linked to `path` in one step (link(2), like
 * O_EXCL, never replaces a file). So the lock is never seen empty or half-written: such a lock
 * could only be a crashed writer's, and a second process would take it for stale.
 */
function createWhole(path: string, content: string): void {
  const draft = `${path}.${process.pid}.tmp`;
  const fd = openSync(draft, 'w', 0o600);
  try {
    writeSync(fd, content);
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  try {
    linkSync(draft, path);
  } finally {
    unlinkSync(draft);
  }
}

/**
 * One process per embedded data folder: two PGlite processes on one folder damage its
 * write-ahead log. The lock is a file beside the folder naming its owner's pid and start time,
 * created whole and exclusively (createWhole); a lock whose owner is gone (kill -9, or a zombie
 * its parent has not reaped) is taken over at once.
 * Why not an OS lock (flock) that the kernel drops at exit: Node has no flock without a native
 * addon, and a pid file also tells the operator and the backup command who holds the folder.
 * Hand-written on purpose: proper-lockfile and similar judge a lock by its age, so a restart
 * after kill -9 would wait out the stale period, and a stalled event loop could lose a live lock.
 */
export function lockFolder(dir: string): FolderLock {
  const path = `${dir}.lock`;
  const mine: Owner = { pid: process.pid, startTime: statOf(process.pid).startTime, host: hostname() };
  for (let attempt = 0; attempt < 3; attempt += 1) {
    try {
      createWhole(path, JSON.stringify(mine));
      return {
        release: () => {
          if (readOwner(path)?.pid === mine.pid) unlinkSync(path);
        },
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST')
        throw new StoreError(`the lock ${path} of the data folder ${dir} cannot be written: ${(error as Error).message}`);
    }
    const owner = readOwner(path);
    if (owner !== undefined && alive(owner)) throw inUse(dir, owner);
    // Stale: move it aside atomically; if what moved is a live owner (another starter took the
    // folder in between), put it back and report the folder in use.
    const aside = `${path}.stale-${process.pid}`;
    try {
      renameSync(path, aside);
    } catch {
      continue; // someone else moved it first: try again
    }
    const moved = readOwner(aside);
    if (moved !== undefined && alive(moved)) {
      renameSync(aside, path);
      throw inUse(dir, moved);
    }
    unlinkSync(aside);
  }
  throw new StoreError(`the data folder ${dir} could not be locked: other processes keep taking it; start one at a time.`);
}
