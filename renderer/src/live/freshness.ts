import { createContext, useContext } from 'react';

/**
 * Counts the live stream's returns after an outage. What changed meanwhile never came as live
 * events, so every read of the window's data (`useResource`) runs again on each return; the
 * screens stay mounted, keeping what a person typed and the answers they were shown.
 */
export const FreshnessContext = createContext(0);

export function useFreshness(): number {
  return useContext(FreshnessContext);
}
