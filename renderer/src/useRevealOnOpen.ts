import { useCallback, useRef } from 'react';

/**
 * A callback ref for a panel that opens on demand ("View message", "Simulate incoming SMS"):
 * when it appears for a new `openKey`, it is scrolled into view, so what a click opened is not
 * left below the fold of a narrow window. A ref callback, not an effect: the panel may appear
 * after the click (a message row arrives with the live stream after its POST's answer).
 */
export function useRevealOnOpen<Element extends HTMLElement>(
  openKey: string | undefined,
): (element: Element | null) => void {
  const revealed = useRef<string | undefined>(undefined);
  return useCallback(
    (element: Element | null) => {
      if (!element || openKey === undefined || revealed.current === openKey) return;
      revealed.current = openKey;
      element.scrollIntoView({ block: 'nearest' });
    },
    [openKey],
  );
}
