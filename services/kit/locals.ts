import type { Logger } from './logger.js';

// What the kit's middleware leaves on every response, typed once for all services.
declare global {
  namespace Express {
    interface Locals {
      correlationId: string;
      log: Logger;
      /** The route's path parameters once parsed by their schemas (kit/route.ts). */
      params?: Record<string, unknown>;
    }
  }
}
