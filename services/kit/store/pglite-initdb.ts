// Creates a new PGlite data folder and exits (openPglite runs it as a child process): initdb's
// memory, several hundred MB of WebAssembly heap, then goes with this process instead of staying
// resident in the service that opens the folder next.
import { PGlite } from '@electric-sql/pglite';

const dir = process.argv[2];
if (dir === undefined) throw new Error('usage: pglite-initdb <folder>');
await (await PGlite.create(dir)).close();
