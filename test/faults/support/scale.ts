/**
 * Each fault suite has a short form (inside `npm test`, seconds) and a full form
 * (`npm run test:faults`, which sets FAULTS_FULL=1: minutes).
 */
export const fullForm = process.env.FAULTS_FULL === '1';

export function scaled<T>(short: T, full: T): T {
  return fullForm ? full : short;
}
