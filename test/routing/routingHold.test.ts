import { afterEach, describe, expect, it } from 'vitest';
import type { RoutingRule } from '../../server/contract/domain/routingRules.js';
import { appHold, routingHold } from '../../server/services/routing/routeHold.js';
import { describeHold, type Hold } from '../../server/services/scheduler/holdReason.js';
import { type GatewayUnderTest, startGatewayUnderTest } from '../compat/support/gatewayUnderTest.js';
import { routedMessage } from './routedMessage.js';

/**
 * Issue 39, a message its routing rule holds, on the whole gateway (one built-in simulated modem,
 * real storage, the real server on loopback): the status names the rule and its modems, as the
 * Dashboard and the health check show it, while numbers of other rules keep going out.
 */
let gateway: GatewayUnderTest | undefined;

afterEach(async () => {
  await gateway?.stop();
  gateway = undefined;
});

interface Holding {
  reason: string;
  detail: string;
}

async function holdingNow(under: GatewayUnderTest): Promise<Holding | undefined> {
  const status = (await under.request('GET', '/gateway/v1/status')).body as {
    scheduler: { holding?: Holding };
  };
  return status.scheduler.holding;
}

describe('a message held by its routing rule', () => {
  it('names the rule and the offline modems it allows', async () => {
    const under = await startGatewayUnderTest();
    gateway = under;
    const devices = (await under.request('GET', '/devices')).body as { id: string }[];
    const modem = devices[0]?.id as string;
    const stored = await under.request('PUT', '/gateway/v1/routing', {
      json: {
        rules: [
          { prefix: '+1', deviceIds: [modem] },
          { prefix: '+4917', deviceIds: ['modem-unplugged'] },
          { prefix: '+49', deviceIds: ['modem-a-gone'], fallbackDeviceIds: ['modem-b-gone'] },
        ],
      },
    });
    expect(stored.status).toBe(200);

    const held = await under.request('POST', '/messages', {
      json: { textMessage: { text: 'routed to a modem that is gone' }, phoneNumbers: ['+4917012345678'] },
    });
    const other = await under.request('POST', '/messages', {
      json: { textMessage: { text: 'routed to the modem there is' }, phoneNumbers: ['+15550001111'] },
    });
    const heldId = (held.body as { id: string }).id;
    const otherId = (other.body as { id: string }).id;
    let holding: Holding | undefined;
    await under.runUntil(async () => {
      holding = await holdingNow(under);
      const sent = (await under.request('GET', `/messages/${otherId}`)).body as { state: string };
      return sent.state !== 'Pending' && holding?.reason === 'routing';
    }, 'the +1 message sent and the +4917 one held by its rule');
    expect(holding?.detail).toBe(
      'routing rule 2 (+4917) allows only modem modem-unplugged, which is offline',
    );
    expect(((await under.request('GET', `/messages/${heldId}`)).body as { state: string }).state).toBe(
      'Pending',
    );

    // With a fallback, the hold names both.
    await under.request('DELETE', `/messages/${heldId}`);
    await under.request('POST', '/messages', {
      json: { textMessage: { text: 'routed to two modems that are gone' }, phoneNumbers: ['+4930123456'] },
    });
    await under.runUntil(
      async () => (await holdingNow(under))?.detail.startsWith('routing rule 3') === true,
      'the +49 message held by its rule',
    );
    expect((await holdingNow(under))?.detail).toBe(
      'routing rule 3 (+49) allows only modem modem-a-gone, then modem modem-b-gone, which are offline',
    );
  });
});

describe('the routing hold in words', () => {
  const hold = (deviceIds: string[], offline: boolean): Hold => ({
    reason: 'routing',
    rule: { position: 1, match: '+49' },
    deviceIds: deviceIds.map((deviceId) => ({ deviceId })),
    fallbackDeviceIds: [],
    offline,
  });

  it.each([
    [['a'], true, 'routing rule 1 (+49) allows only modem a, which is offline'],
    [['a'], false, 'routing rule 1 (+49) allows only modem a, which cannot send now'],
    [['a', 'b'], false, 'routing rule 1 (+49) allows only modems a, b, none of which can send now'],
  ] as const)('says %j (offline: %s) as %j', (ids, offline, text) => {
    expect(describeHold(hold([...ids], offline), 0)).toBe(text);
  });

  it('names SIM slots, and the slot a message asks for that its rule or app does not allow', () => {
    const slotTwo = [{ deviceId: 'a', simNumber: 2 }];
    expect(
      describeHold(
        { reason: 'routing', app: 'shop', deviceIds: slotTwo, fallbackDeviceIds: [], offline: false },
        0,
      ),
    ).toBe('app shop may use only modem a (SIM 2), which cannot send now');
    expect(
      describeHold(
        {
          reason: 'routing',
          rule: { position: 2, match: '+1' },
          deviceIds: slotTwo,
          fallbackDeviceIds: [],
          simNumber: 1,
          offline: false,
        },
        0,
      ),
    ).toBe('SIM 1 asked for, but routing rule 2 (+1) allows only modem a (SIM 2)');
  });
});

const noOperators = { operatorOf: () => ({ unknown: 'operator unknown for this number' }) };

describe('the hold of a message its rule and its app keep off every slot', () => {
  const rules: RoutingRule[] = [
    { id: 'all', prefix: '+', deviceIds: [{ deviceId: 'phone', simNumber: 1 }], fallbackDeviceIds: [] },
  ];
  const book = { list: () => rules };
  const phone = [{ deviceId: 'phone' }];
  const message = routedMessage;
  const shop = { name: 'shop', allowedDeviceIds: [{ deviceId: 'phone', simNumber: 2 }] };

  it('names the rule when the app may use the modem but not the slot the rule names', () => {
    const hold = routingHold(
      book,
      noOperators,
      message({ appId: 'shop' }),
      phone,
      phone,
      shop.allowedDeviceIds,
    );
    expect(hold && describeHold(hold, 0)).toBe(
      'routing rule 1 (+) allows only modem phone (SIM 1), which cannot send now',
    );
    expect(routingHold(book, noOperators, message({}), phone, phone)).toBeUndefined();
  });

  it('names the app, and the slot asked for, when the app allows none of it', () => {
    const hold = appHold(shop, message({ appId: 'shop', simNumber: 1 }), phone, phone);
    expect(hold && describeHold(hold, 0)).toBe(
      'SIM 1 asked for, but app shop may use only modem phone (SIM 2)',
    );
    expect(appHold(shop, message({ appId: 'shop' }), phone, phone)).toBeUndefined();
    const elsewhere = appHold(shop, message({ appId: 'shop' }), [{ deviceId: 'modem' }], phone);
    expect(elsewhere && describeHold(elsewhere, 0)).toBe(
      'app shop may use only modem phone (SIM 2), which cannot send now',
    );
  });
});
