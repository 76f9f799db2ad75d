import type { Logger } from './logger.js';

// What the kit's middleware leaves on every response, typed once for all services.
declare global {
  // eslint-disable-next-line @typescript-eslint/no-namespace
  namespace Express {
    interface Locals {
      correlationId: string;
      log: Logger;
    }
  }
}

export {};
