import { renameSync, writeFileSync } from 'node:fs';

/** Where the process owning `dir` writes a backup when asked (docs/decisions/0036-back-up-and-restore-the-embedded-store.md). */
export const backupFileOf = (dir: string): string => `${dir}.backup.tar.gz`;

/**
 * The owner of an embedded folder writes a consistent copy of it on SIGUSR2: only the owning
 * process may read a live PGlite folder (a file copy taken under running writes is torn), and a
 * signal needs no port, key or endpoint. The file is written aside and renamed, so a reader
 * never sees half of it. Returns the function that stops answering (on close).
 */
export function answerBackupRequests(dir: string, dump: () => Promise<Blob>): () => void {
  let writing = Promise.resolve();
  const onSignal = () => {
    writing = writing
      .then(async () => {
        const target = backupFileOf(dir);
        writeFileSync(`${target}.tmp`, Buffer.from(await (await dump()).arrayBuffer()));
        renameSync(`${target}.tmp`, target);
      })
      .catch((error: unknown) => {
        process.stderr.write(`backup of ${dir} failed: ${error instanceof Error ? error.message : String(error)}\n`);
      });
  };
  process.on('SIGUSR2', onSignal);
  return () => process.off('SIGUSR2', onSignal);
}
