/**
 * The reply parsers in one import. Grouped by what they read: network and SIM state, SMS
 * storage and messages, identity.
 */
export * from './identityReplies.js';
export * from './networkReplies.js';
export * from './smsReplies.js';
