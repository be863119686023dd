import { describe, expect, it } from 'vitest';
import { AttentionWatch } from '../../electron/attentionWatch.js';
import { type CoreHealth, coreHealthOf } from '../../electron/coreHealth.js';
import { incomingNotice } from '../../electron/coreStatus.js';
import { GatewayTray } from '../../electron/tray.js';
import type { HealthReport } from '../../server/services/health/healthService.js';
import { FakeTray } from './support/electronDouble.js';

const healthy: HealthReport = {
  status: 'pass',
  version: '1.0.0',
  releaseId: 1,
  checks: {
    'modems:connected': {
      status: 'pass',
      observedValue: 1,
      observedUnit: 'modems',
      description: '1 of 1 modems ready to send',
    },
    'messages:queue': {
      status: 'pass',
      observedValue: 0,
      observedUnit: 'messages',
      description: 'Messages waiting',
    },
  },
};

function withChecks(checks: HealthReport['checks'], pending = 0): HealthReport {
  return {
    ...healthy,
    checks: {
      ...healthy.checks,
      'messages:queue': {
        status: 'pass',
        observedValue: pending,
        observedUnit: 'messages',
        description: 'waiting',
      },
      ...checks,
    },
  };
}

const offline: HealthReport['checks'] = {
  'modems:connected': {
    status: 'fail',
    observedValue: 0,
    observedUnit: 'modems',
    description: '0 of 1 modems ready to send',
  },
};

function setup() {
  let now = Date.UTC(2026, 0, 1);
  const watch = new AttentionWatch(() => now, 15 * 60_000);
  const trayIcon = new FakeTray();
  const tray = new GatewayTray(trayIcon, {
    toggleWindow: () => undefined,
    setSendingPaused: () => undefined,
    retryNow: () => undefined,
    stopRetrying: () => undefined,
    openLogsFolder: () => undefined,
    quit: () => undefined,
  });
  tray.showCore({ kind: 'running' });
  const titles: string[] = [];
  const see = (health: CoreHealth | 'tick' | undefined) => {
    const seen = health === 'tick' ? watch.tick() : watch.update(health);
    tray.showAlerts(seen.alerts);
    titles.push(...seen.notices.map((notice) => notice.title));
  };
  return { see, titles, trayIcon, pass: (ms: number) => (now += ms) };
}

describe('failures nobody would see', () => {
  it('notify once when a modem goes offline, show it in the tray, and again only after it came back', () => {
    const { see, titles, trayIcon } = setup();
    see(coreHealthOf(healthy));
    expect(trayIcon.alert).toBe(false);
    see(coreHealthOf(withChecks(offline)));
    see(coreHealthOf(withChecks(offline)));
    expect(titles).toEqual(['A modem is offline']);
    expect(trayIcon.alert).toBe(true);
    expect(trayIcon.labels()).toContain('0 of 1 modems ready to send');
    see(coreHealthOf(healthy));
    expect(trayIcon.alert).toBe(false);
    see(coreHealthOf(withChecks(offline)));
    expect(titles).toEqual(['A modem is offline', 'A modem is offline']);
  });

  it('notify of failing webhooks and of delivery reports that stopped', () => {
    const { see, titles, trayIcon } = setup();
    see(
      coreHealthOf(healthy, {
        webhookFailuresLastHour: 3,
        lastWebhookError: 'HTTP 502',
        overdueReports: 7,
      }),
    );
    expect(titles).toEqual(['Webhook deliveries are failing', 'Delivery reports stopped']);
    expect(trayIcon.toolTip).toContain('3 webhook deliveries failed in the last hour (last: HTTP 502)');
    expect(trayIcon.toolTip).toContain('7 sent messages have had no delivery report for over an hour');
  });

  it("notify when a SIM nears its plan's cap, and again when it reaches it", () => {
    const { see, titles, trayIcon } = setup();
    const near = 'SIM 1 of modem m1 used 4 of 5 messages per day; resets at 2026-01-02T00:00:00.000Z';
    const reached = 'SIM 1 of modem m1 used 5 of 5 messages per day; resets at 2026-01-02T00:00:00.000Z';
    const attention = { webhookFailuresLastHour: 0, overdueReports: 0 };
    see(coreHealthOf(healthy, { ...attention, planCaps: { near: [near], reached: [] } }));
    see(coreHealthOf(healthy, { ...attention, planCaps: { near: [near], reached: [] } }));
    expect(titles).toEqual(["A SIM is near its plan's cap"]);
    see(coreHealthOf(healthy, { ...attention, planCaps: { near: [], reached: [reached] } }));
    expect(titles).toEqual(["A SIM is near its plan's cap", "A SIM reached its plan's cap"]);
    expect(trayIcon.toolTip).toContain(reached);
    see(coreHealthOf(healthy, { ...attention, planCaps: { near: [], reached: [] } }));
    expect(trayIcon.alert).toBe(false);
  });

  it('call a queue stuck when messages wait and none left for a quarter of an hour', () => {
    const { see, titles, pass } = setup();
    see(coreHealthOf(withChecks({}, 5)));
    pass(10 * 60_000);
    see('tick');
    see(coreHealthOf(withChecks({}, 4)));
    pass(14 * 60_000);
    see('tick');
    expect(titles).toEqual([]);
    pass(60_000);
    see('tick');
    expect(titles).toEqual(['Messages are stuck in the queue']);
  });

  it('clear when no core runs: its own state tells of that', () => {
    const { see, trayIcon } = setup();
    see(coreHealthOf(withChecks(offline)));
    see(undefined);
    expect(trayIcon.alert).toBe(false);
  });
});

describe('a received SMS', () => {
  it('is notified without its text unless the user turned previews on', () => {
    expect(incomingNotice('+15550001', 'Your code is 1234', false)).toEqual({
      title: 'SMS from +15550001',
      body: 'New message',
    });
    expect(incomingNotice('+15550001', 'Your code is 1234', true).body).toBe('Your code is 1234');
  });
});
