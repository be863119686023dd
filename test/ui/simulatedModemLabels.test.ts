import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DeviceRecord } from '../../renderer/src/api/types.js';
import { slotLabel } from '../../renderer/src/modems/simTargets.js';
import { pollUntil } from '../support/pollUntil.js';
import { apiCall, startUiGateway, type UiGateway } from './uiGateway.js';

/**
 * Issue 50, item 8: two simulated modems were indistinguishable in the window's pickers — the
 * same name and the same SIM number. Each built-in simulator's SIM has a number of its own.
 */
let ui: UiGateway;

beforeAll(async () => {
  ui = await startUiGateway({ simulatedModems: 2 });
}, 60_000);

afterAll(async () => {
  await ui?.close();
});

describe('two simulated modems', () => {
  it('are told apart by their SIM slots in every picker', async () => {
    let devices: DeviceRecord[] = [];
    await pollUntil(
      async () => {
        devices = await apiCall<DeviceRecord[]>(ui.baseUrl, 'GET', '/devices');
        return (
          devices.length === 2 && devices.every((device) => device.simCards[0]?.phoneNumber !== undefined)
        );
      },
      { what: 'both simulated SIMs read', limitMs: 30_000, intervalMs: 100 },
    );
    const labels = devices.map((device) => slotLabel(devices, device.id, 1));
    expect(new Set(labels).size).toBe(2);
    expect(labels.sort()).toEqual([
      'Desktop SMS Gateway Simulated Modem · SIM 1 +447700900001',
      'Desktop SMS Gateway Simulated Modem · SIM 1 +447700900002',
    ]);
  });
});
