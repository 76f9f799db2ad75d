import type { Queryable } from '../kit/store/index.js';

/**
 * The day an account last signed in (migration 007): an account's newest terms acceptance is kept
 * counted from it (retention.ts). One statement per sign-in that writes nothing when the day is
 * already recorded, so a person signing in many times a day costs one row write a day.
 */
export interface SignInDays {
  record(subjectId: string): Promise<void>;
}

/** The UTC calendar day of `at`, as the `date` column holds it. */
export const dayOf = (at: Date): string => at.toISOString().slice(0, 10);

export function createSignInDays(db: Queryable, now: () => Date): SignInDays {
  return {
    async record(subjectId) {
      await db.query(
        `INSERT INTO sign_in_days (subject_id, last_day) VALUES ($1, $2) ON CONFLICT (subject_id)
         DO UPDATE SET last_day = EXCLUDED.last_day WHERE sign_in_days.last_day < EXCLUDED.last_day`,
        [subjectId, dayOf(now())],
      );
    },
  };
}
