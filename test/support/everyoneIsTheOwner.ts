import type { AccessControl } from '../../server/auth/accessControl.js';
import { ownerId } from '../../server/auth/staffDirectory.js';

/** Access control that takes any login as the owner's: for a listener tested on its own. */
export const everyoneIsTheOwner: AccessControl = {
  authenticate: async () => ({
    kind: 'basic',
    scopes: new Set(['all:any']),
    user: { id: ownerId, name: 'owner', role: 'owner' },
  }),
  authorize: () => undefined,
  confirmPassword: async () => undefined,
  watch: () => () => undefined,
};
