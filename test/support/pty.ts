/**
 * A connected pair of pseudo-terminals from socat, for tests that drive the REAL serialport
 * binding: the gateway opens `hostPath`, a scripted responder opens `devicePath`. Killing socat
 * (close()) makes both ends go away, as a USB unplug does.
 */
import { openSocatPtys } from '../../server/devices/simulator/socatPtys.js';
import { requireSystemTool } from './systemTools.js';

export interface PtyPair {
  hostPath: string;
  devicePath: string;
  /** Kills socat and waits for it to exit; safe to call twice. */
  close(): Promise<void>;
}

export async function createPtyPair(): Promise<PtyPair> {
  requireSystemTool('socat');
  const ptys = await openSocatPtys({ startTimeoutMs: 5_000 });
  return { hostPath: ptys.hostPath, devicePath: ptys.devicePath, close: () => ptys.stop() };
}
