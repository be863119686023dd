import { describe, expect, it } from 'vitest';
import { applicationMenu, type MenuTemplateItem, rolesIn } from '../../electron/applicationMenu.js';
import { CoreNotices } from '../../electron/coreStatus.js';

const actions = { openLogsFolder: () => undefined, openApiDocs: () => undefined };

function labels(items: readonly MenuTemplateItem[]): string[] {
  return items.flatMap((item) => [
    ...('label' in item ? [item.label] : []),
    ...('submenu' in item ? labels(item.submenu) : []),
  ]);
}

describe('the menu bar', () => {
  it.each(['win32', 'linux', 'darwin'] as const)(
    'of the packaged app on %s has no developer tools',
    (platform) => {
      const roles = rolesIn(applicationMenu(platform, true, actions));
      expect(roles).not.toContain('toggleDevTools');
      expect(roles).not.toContain('forceReload');
      expect(labels(applicationMenu(platform, true, actions))).toContain('Open logs folder');
    },
  );

  it('keeps them when run from source', () => {
    expect(rolesIn(applicationMenu('linux', false, actions))).toContain('toggleDevTools');
  });

  it('clicks through to the logs folder', () => {
    const opened: string[] = [];
    const menu = applicationMenu('win32', true, {
      openLogsFolder: () => opened.push('logs'),
      openApiDocs: () => opened.push('docs'),
    });
    const file = menu.find((item) => 'label' in item && item.label === 'File');
    const item = file && 'submenu' in file ? file.submenu[0] : undefined;
    if (!item || !('click' in item)) throw new Error('no first File item');
    item.click();
    expect(opened).toEqual(['logs']);
  });
});

describe('failure notifications', () => {
  it('name the core’s log file', () => {
    const notices = new CoreNotices('/home/ana/.local/state/desktop-sms-gateway/logs/core.log');
    const notice = notices.noticeFor({
      kind: 'waiting-to-retry',
      attempt: 1,
      retryAt: 0,
      reason: 'The gateway core stopped unexpectedly (exit code 139).',
      wasReady: true,
    });
    expect(notice?.body).toContain('Log: /home/ana/.local/state/desktop-sms-gateway/logs/core.log');
  });
});
