import { describe, expect, it } from 'vitest';
import { adbAdvice, parseDevices } from '../../server/devices/phone/adb.js';

/** Lines as platform-tools' `adb devices -l` prints them (adb/client/transport list). */
const output = [
  'List of devices attached',
  'R58M123ABC             device usb:1-1 product:beyond1lteeea model:SM_G973F device:beyond1 transport_id:1',
  'emulator-5554          unauthorized usb:1-2 transport_id:2',
  '0123456789ABCDEF       offline transport_id:3',
  '0AB12                  no permissions (user in plugdev group; are your udev rules wrong?); see [http://developer.android.com/tools/device.html] usb:1-3 transport_id:4',
  '',
].join('\n');

describe('adb devices -l', () => {
  it('reads serial, state and model of each phone, whatever its state', () => {
    expect(parseDevices(output)).toEqual([
      { serial: 'R58M123ABC', state: 'device', model: 'SM_G973F', product: 'beyond1lteeea' },
      { serial: 'emulator-5554', state: 'unauthorized' },
      { serial: '0123456789ABCDEF', state: 'offline' },
      { serial: '0AB12', state: 'no permissions' },
    ]);
  });

  it('says what to do for each state adb cannot use, and nothing for a usable phone', () => {
    expect(adbAdvice('device')).toBeUndefined();
    expect(adbAdvice('unauthorized')).toMatch(/allow USB debugging/);
    expect(adbAdvice('offline')).toMatch(/unplug it/);
    expect(adbAdvice('no permissions')).toMatch(/udev/);
  });
});
