import type { AccessControl, Principal } from '../../server/services/auth/accessControl.js';
import { ownerId } from '../../server/services/auth/staffDirectory.js';

/** Access control that takes any login as the owner's: for a listener tested on its own. */
const owner = async (): Promise<Principal> => ({
  kind: 'basic',
  scopes: new Set(['all:any']),
  user: { id: ownerId, name: 'owner', role: 'owner' },
});

export const everyoneIsTheOwner: AccessControl = {
  authenticate: owner,
  authenticateLogin: owner,
  authorize: () => undefined,
  confirmPassword: async () => undefined,
  watch: () => () => undefined,
};
