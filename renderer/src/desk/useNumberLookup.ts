import { useEffect, useState } from 'react';

/**
 * What the gateway says about the numbers on screen (their contact names, which are opted out):
 * asked once per distinct set of numbers, `empty` until the answer and when it fails (a token
 * without the scope still shows the numbers; nothing else depends on the answer).
 */
export function useNumberLookup<Answer>(
  phoneNumbers: readonly string[],
  lookup: (phoneNumbers: string[]) => Promise<Answer>,
  empty: Answer,
): Answer {
  const [answer, setAnswer] = useState<Answer>(empty);
  const key = [...new Set(phoneNumbers)].sort().join('\n');
  // biome-ignore lint/correctness/useExhaustiveDependencies: the set of numbers is the key; `lookup` is the api's.
  useEffect(() => {
    if (key === '') {
      setAnswer(empty);
      return;
    }
    let current = true;
    lookup(key.split('\n')).then(
      (found) => {
        if (current) setAnswer(found);
      },
      () => undefined,
    );
    return () => {
      current = false;
    };
  }, [key]);
  return answer;
}
