import { useEffect, useState } from 'react';
import { type ScreenId, screenFromHash } from './screenList.js';

/** The screen named by the location hash, following hash changes (links, back and forward). */
export function useScreen(): ScreenId {
  const [screen, setScreen] = useState(() => screenFromHash(window.location.hash));
  useEffect(() => {
    const update = () => setScreen(screenFromHash(window.location.hash));
    window.addEventListener('hashchange', update);
    return () => window.removeEventListener('hashchange', update);
  }, []);
  return screen;
}
