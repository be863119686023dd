/**
 * The SIM cards fleet mode tells the private server: those of the connected, unlocked modems,
 * masked as the Android app masks them (GatewayService.kt `redact`).
 */
import { describe, expect, it } from 'vitest';
import type { DeviceInfo, ModemStatus } from '../../server/contract/domain/device.js';
import { redact, simCardsOf } from '../../server/doors/fleet/simCards.js';

function device(id: string, status: ModemStatus, simulated = false): DeviceInfo {
  return {
    id,
    name: id,
    createdAt: 0,
    updatedAt: 0,
    lastSeen: 0,
    simCards: [
      {
        slotIndex: 0,
        simNumber: 1,
        phoneNumber: `+4477009000${id}`,
        carrierName: 'EE',
        iccid: `89441000${id}`,
      },
    ],
    modem: { port: `/dev/tty${id}`, simulated, status },
  };
}

describe('redact', () => {
  it.each([
    ['+447700900001', '*********0001'],
    ['Test Network', '********work'],
    ['12345', '*2345'],
    ['EE', '****'],
    ['1234', '****'],
    ['', '****'],
  ])('masks %j as %j', (value, masked) => {
    expect(redact(value)).toBe(masked);
  });
});

describe('simCardsOf', () => {
  it('lists the SIM of every connected, unlocked modem, masked', () => {
    const cards = simCardsOf([
      device('11', 'ready'),
      device('12', 'no-network'),
      device('13', 'recovering'),
      device('14', 'offline'),
      device('15', 'sim-pin-required'),
      device('16', 'sim-pin-wrong'),
    ]);
    expect(cards).toEqual(
      ['11', '12', '13'].map((id) => ({
        slotIndex: 0,
        simNumber: 1,
        phoneNumber: `*********00${id}`,
        carrierName: '****',
        iccid: `******00${id}`,
      })),
    );
  });

  it('leaves the simulator out once a real modem is there, and keeps it when it is alone', () => {
    expect(simCardsOf([device('21', 'ready', true), device('22', 'ready')])).toHaveLength(1);
    expect(simCardsOf([device('21', 'ready', true)])).toHaveLength(1);
    expect(simCardsOf([device('21', 'ready', true), device('22', 'offline')])).toHaveLength(1);
  });

  it('omits what the modem did not tell', () => {
    const bare: DeviceInfo = { ...device('31', 'ready'), simCards: [{ slotIndex: 0, simNumber: 1 }] };
    expect(simCardsOf([bare])).toEqual([{ slotIndex: 0, simNumber: 1 }]);
  });
});
