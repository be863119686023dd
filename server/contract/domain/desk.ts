/** Value lists of the desk (server/services/desk/) that its stores, services and API views share. */

/** A conversation's messages either came in from the number or went out to it. */
export const ConversationDirections = ['in', 'out'] as const;
export type ConversationDirection = (typeof ConversationDirections)[number];

/** Who put a number on the opt-out list: the person by texting a keyword, or staff/API by hand. */
export const OptOutSources = ['keyword', 'manual'] as const;
export type OptOutSource = (typeof OptOutSources)[number];
