import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { dateText, queryString, seedTraffic, type Traffic } from '../support/clientWire.js';
import { type GatewayUnderTest, startGatewayUnderTest } from '../support/gatewayUnderTest.js';
import {
  type GoRequest,
  goCall,
  goDecode,
  goLogEntry,
  goMessageState,
  goWebhook,
} from '../support/goClient.js';

/**
 * The CLI `smsgate` (android-sms-gateway/cli), every command that reaches the gateway (7 of
 * `cmd/smsgate/smsgate.go`; `smsgate-ca` talks to the certificate authority, not to us). Each
 * command calls client-go (`internal/core/client/client.go` builds it with --endpoint,
 * --username, --password), so the requests are client-go's with the bodies the commands' flags
 * make, and the answers go through the same decoders (`test/compat/support/goClient.ts`). The
 * endpoint is the gateway's root, as a user of Local mode types it.
 */
const endpoint = '';

/**
 * `internal/commands/flags/send.go` SendFlags.Merge: `withDeliveryReport` is always present
 * (--delivery-report defaults to true), `simNumber` only when --sim-number is non-zero,
 * `priority` only when non-zero (omitempty), `ttl` in whole seconds.
 */
const sendDefaults = { withDeliveryReport: true };

describe('the CLI', () => {
  let gateway: GatewayUnderTest;
  let traffic: Traffic;
  const call = (request: GoRequest, decodesAnswer: boolean) =>
    goCall(gateway, { ...request, path: `${endpoint}${request.path}` }, decodesAnswer);

  beforeAll(async () => {
    gateway = await startGatewayUnderTest();
    traffic = await seedTraffic(gateway, 'cli');
  });
  afterAll(async () => {
    await gateway.stop();
  });

  /**
   * `smsgate send` (internal/commands/messages/send.go sendAction) with the flags of
   * flags/send.go; the answer is rendered from MessageState (internal/core/output/text.go).
   * --valid-until and --schedule-at are parsed in time.Local, so json.Marshal writes the offset.
   */
  it.each([
    [
      'send --phones +1… "text"',
      '/messages?',
      { textMessage: { text: 'cli text' }, phoneNumbers: ['+15550102000'] },
    ],
    [
      'send --id --device-id --sim-number 1 --priority 100 --ttl 1h30m --skip-phone-validation --device-active-within 24',
      `/messages${queryString({ skipPhoneValidation: true, deviceActiveWithin: 24 }, { sorted: true })}`,
      {
        id: 'cli-options',
        textMessage: { text: 'cli options' },
        phoneNumbers: ['+15550102001'],
        simNumber: 1,
        priority: 100,
        ttl: 5400,
      },
    ],
    [
      'send --valid-until 2026-01-02T08:00:00+07:00 --schedule-at … --delivery-report=false',
      '/messages?',
      {
        textMessage: { text: 'cli times' },
        phoneNumbers: ['+15550102002'],
        validUntil: '2026-01-02T08:00:00+07:00',
        scheduleAt: '2026-01-01T19:30:00+07:00',
        withDeliveryReport: false,
      },
    ],
    [
      'send --data --data-port 53739 AAEC',
      '/messages?',
      { dataMessage: { data: 'AAEC', port: 53739 }, phoneNumbers: ['+15550102003'] },
    ],
  ] as const)('smsgate %s', async (_command, path, message) => {
    const { response, value } = await call(
      { method: 'POST', path, json: { ...sendDefaults, ...message } },
      true,
    );
    expect(response.status).toBe(202);
    const state = goDecode(goMessageState, value, 'send');
    expect(state.deviceId).not.toBe('');
  });

  /**
   * `smsgate batch send rows.csv --map phone=Phone,text=Text,id=ID,device_id=Device,sim_number=SIM,priority=P`
   * (internal/commands/messages/batch/send.go sendWorker): one Send per row, the id a UUIDv7 when
   * the row has none, the row's device, SIM and priority merged over the flags.
   */
  it('smsgate batch send: one Send per row', async () => {
    const rows = [
      { id: '0190a5b2-7c3e-7d4f-8a1b-2c3d4e5f6a7b', phone: '+15550102100', sim: 1, priority: 5 },
      { id: 'row-2', phone: '+15550102101', sim: undefined, priority: -1 },
    ];
    for (const row of rows) {
      const { value } = await call(
        {
          method: 'POST',
          path: '/messages?',
          json: {
            ...sendDefaults,
            id: row.id,
            deviceId: traffic.deviceId,
            textMessage: { text: `batch ${row.id}` },
            phoneNumbers: [row.phone],
            simNumber: row.sim,
            priority: row.priority,
          },
        },
        true,
      );
      expect(goDecode(goMessageState, value, 'batch send').id).toBe(row.id);
    }
  });

  /** `smsgate status ID` (messages/status.go): GetState, rendered with every state's time. */
  it('smsgate status', async () => {
    const { value } = await call(
      { method: 'GET', path: `/messages/${encodeURIComponent(traffic.sentId)}` },
      true,
    );
    const state = goDecode(goMessageState, value, 'status');
    // output/text.go prints recipients and the times of the five states it knows.
    expect(state.recipients[0]?.phoneNumber).toBe('+15550100000');
    expect(Object.keys(state.states ?? {})).toContain('Pending');
  });

  /**
   * `smsgate webhooks register URL --event E [--id] [--device-id]` (webhooks/register.go): the
   * id is omitted when not given (omitempty), deviceId null unless --device-id; http:// URLs
   * pass the CLI's own check, so a LAN receiver is refused by the gateway unless allowed.
   * `webhooks list` (list.go) decodes []Webhook; `webhooks delete ID` (delete.go).
   */
  it('smsgate webhooks register, list and delete', async () => {
    const generated = await call(
      {
        method: 'POST',
        path: '/webhooks',
        json: { deviceId: null, url: 'https://receiver.example/cli', event: 'sms:received' },
      },
      true,
    );
    const hook = goDecode(goWebhook, generated.value, 'webhooks register');
    const named = await call(
      {
        method: 'POST',
        path: '/webhooks',
        json: {
          id: 'cli-hook',
          deviceId: traffic.deviceId,
          url: 'https://receiver.example/cli',
          event: 'app:started',
        },
      },
      true,
    );
    expect(goDecode(goWebhook, named.value, 'webhooks register')).toMatchObject({
      id: 'cli-hook',
      deviceId: traffic.deviceId,
    });

    const listed = await call({ method: 'GET', path: '/webhooks' }, true);
    expect(goDecode(z.array(goWebhook), listed.value, 'webhooks list').map((webhook) => webhook.id)).toEqual(
      expect.arrayContaining([hook.id, 'cli-hook']),
    );
    for (const id of [hook.id, 'cli-hook']) {
      const { response } = await call(
        { method: 'DELETE', path: `/webhooks/${encodeURIComponent(id)}` },
        false,
      );
      expect(response.status).toBeLessThan(300);
    }
  });

  /**
   * `smsgate logs --from … --to …` (internal/commands/logs/logs.go, flags/period.go): both
   * bounds default to the last 24 hours and are sent as time.RFC3339 in the local zone.
   */
  it('smsgate logs', async () => {
    const offset = (ms: number) => `${new Date(ms + 7 * 3_600_000).toISOString().slice(0, 19)}+07:00`;
    for (const [from, to] of [
      [dateText.goRfc3339(traffic.since), dateText.goRfc3339(traffic.until)],
      [offset(traffic.since), offset(traffic.until)],
    ] as const) {
      const { value } = await call(
        { method: 'GET', path: `/logs${queryString({ from, to }, { sorted: true })}` },
        true,
      );
      expect(goDecode(z.array(goLogEntry), value, 'logs').length, from).toBeGreaterThan(0);
    }
  });
});
