import { z } from 'zod';
import { commonSettings, envInt } from '../kit/index.js';

/** The development SMS catcher the phone sign-in's SMS sender posts to in `make up` and the tests. */
export const SmsCatcherConfig = z.object({
  ...commonSettings,
  SMS_KEEP: envInt(200, 1, 10_000).describe('Messages kept in memory, newest first; older ones are dropped (nothing is written to disk).'),
});
export type SmsCatcherConfig = z.output<typeof SmsCatcherConfig>;
