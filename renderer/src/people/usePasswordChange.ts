import { useState } from 'react';

/** The fewest characters the gateway takes for a password (server/contract/schemas/accountSchemas.ts). */
const shortestPassword = 8;

/**
 * The fields of a password change: the current password, the new one and its repetition, with
 * whether the two new ones differ and whether the change may be sent. `clear` empties all three
 * once it went through.
 */
export function usePasswordChange() {
  const [current, setCurrent] = useState('');
  const [password, setPassword] = useState('');
  const [repeated, setRepeated] = useState('');
  return {
    current,
    setCurrent,
    password,
    setPassword,
    repeated,
    setRepeated,
    mismatch: repeated !== '' && repeated !== password,
    complete: current !== '' && password.length >= shortestPassword && repeated === password,
    clear() {
      setCurrent('');
      setPassword('');
      setRepeated('');
    },
  };
}
