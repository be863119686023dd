import { useEffect, useState } from 'react';
import { useApp } from '../appContext.js';

/**
 * The one lookup every screen uses to put a name beside a number: the address book's names of
 * the numbers on screen (numbers not in it map to nothing). Asks again when the set changes.
 */
export function useContactNames(
  phoneNumbers: readonly string[],
): (phoneNumber: string) => string | undefined {
  const { api } = useApp();
  const [names, setNames] = useState<Record<string, string>>({});
  const key = [...new Set(phoneNumbers)].sort().join('\n');
  useEffect(() => {
    if (key === '') return;
    let current = true;
    api.contactNames(key.split('\n')).then(
      (found) => {
        if (current) setNames(found);
      },
      // A token without contacts:read still shows the numbers; nothing else depends on names.
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [api, key]);
  return (phoneNumber) => names[phoneNumber];
}

/** "Anna Berg (+491711234567)", or the number alone when it has no contact. */
export function withName(phoneNumber: string, name: string | undefined): string {
  return name ? `${name} (${phoneNumber})` : phoneNumber;
}
