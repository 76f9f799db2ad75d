import { z } from 'zod';
import { requireApiKey, type CallerKey } from './api-key.js';

/**
 * The preamble of a route about one person that a caller reaches with its key (a person's copy
 * and erasure, an operator's read): the subject a UUID checked before any lookup, the key's scope
 * required, and the answers those two give. Spread into a route's spec; its own 200 goes beside.
 */
export function subjectKeyRoute<S extends string>(keys: readonly CallerKey<S>[], scope: NoInfer<S>) {
  return {
    security: 'apiKey' as const,
    params: { subjectId: z.uuid('must be a UUID') },
    steps: [requireApiKey(keys, scope)],
  };
}

/** The refusals of a subjectKeyRoute, documented with the route's own answers. */
export const SUBJECT_KEY_REFUSALS = {
  400: { description: 'INVALID_REQUEST: the subject is not a UUID.' },
  401: { description: 'UNAUTHORIZED' },
  403: { description: "FORBIDDEN: the key is known but lacks this route's scope." },
} as const;
